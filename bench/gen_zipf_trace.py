#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""gen_zipf_trace.py -- the simulator benchmarks' reference trace.

bench/sim.sh and bench/bench_sim.c measure pagetune's simulator on one fixed
synthetic trace, the same request stream the peer figures of
bench/reference-baseline.md were measured on, so that miss ratios and speed
compare request for request. This script is how the project makes that
trace; it needs Python 3 and its standard library only.

How a request is drawn
  Keys have ranks 1..N with weight 1 / rank**alpha. One Mersenne-Twister
  stream, random.Random(SEED).random() and nothing else from the random
  module (CPython keeps that stream fixed for an integer seed), picks a rank
  by inverse transform: u * W is looked up with bisect_right in the running
  sums of the weights (W their total); the last rank also takes the rare
  u * W == W. A fixed bijection scatters the ranks over the key ids so that
  hot keys are not neighbours:
      key = ((rank - 1) * 611953 + 12345) mod N + 1
  which needs gcd(611953, N) == 1 (true for N = 10**6; checked).
  Request i (0-based) happens at second i // RATE; every object has the same
  size (default 4096 bytes), so simulators run with caches counted in
  objects.

What it writes (--formats, comma separated; files are PREFIX + suffix)
  pagetune  .pagetune.csv       pagetune-trace(5): "time_ms,op,key,size",
                                every request a get, time_ms = i*1000 // RATE
  oracle    .oracleGeneral.bin  24-byte little-endian packed records:
                                u32 time_s, u64 key, u32 size,
                                i64 index of the next request for the same
                                key (-1 when there is none); the format
                                libCacheSim calls oracleGeneral and that
                                bench_sim reads
  csv       .csv                "time,obj_id,obj_size", time in seconds
  txt       .txt                one key per line

On stdout: the parameters, distinct keys, keys requested once, the
compulsory miss ratio, the first keys and the SHA-256 of every file written,
so a run can be checked against bench/reference-baseline.md.

The reference trace (about 2 minutes, 240 MB binary + 160 MB CSV):
  python3 bench/gen_zipf_trace.py --n-req 10000000 --n-obj 1000000 \\
      --alpha 1.0 --seed 42 --out ref/zipf1.0_1m_10m --formats oracle,pagetune
"""
import argparse
import array
import bisect
import hashlib
import itertools
import math
import random
import struct
import sys

SCATTER_MULT = 611953
SCATTER_ADD = 12345
BLOCK = 1 << 20  # requests formatted and written per call


def rank_sums(n_keys, alpha):
    """Running sums of 1 / rank**alpha, added in rank order (the order
    fixes the floating-point values, and so the trace)."""
    return list(itertools.accumulate(1.0 / (r ** alpha)
                                     for r in range(1, n_keys + 1)))


def draw_keys(n_req, n_keys, alpha, seed):
    """The key of every request, as an array of signed 64-bit ints."""
    sums = rank_sums(n_keys, alpha)
    total = sums[-1]
    top = n_keys - 1
    uniform = random.Random(seed).random
    find = bisect.bisect_right
    keys = array.array("q")
    left = n_req
    while left > 0:
        k = min(BLOCK, left)
        idx = (min(find(sums, uniform() * total), top) for _ in range(k))
        keys.extend((j * SCATTER_MULT + SCATTER_ADD) % n_keys + 1 for j in idx)
        left -= k
    return keys


def next_use(keys):
    """For each request, the index of the next request for its key, or -1."""
    nxt = array.array("q", [-1]) * len(keys)
    last_seen = {}
    for i in range(len(keys) - 1, -1, -1):
        key = keys[i]
        nxt[i] = last_seen.get(key, -1)
        last_seen[key] = i
    return nxt


def write_blocks(path, mode, render, n):
    """Write render(start, stop) for consecutive blocks of requests."""
    with open(path, mode, buffering=1 << 22) as f:
        for start in range(0, n, BLOCK):
            f.write(render(start, min(start + BLOCK, n)))


def sha256_of(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        while True:
            chunk = f.read(1 << 22)
            if not chunk:
                return h.hexdigest()
            h.update(chunk)


def main():
    ap = argparse.ArgumentParser(
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--n-req", type=int, default=10_000_000,
                    help="requests (default 10000000)")
    ap.add_argument("--n-obj", type=int, default=1_000_000,
                    help="distinct keys N (default 1000000)")
    ap.add_argument("--alpha", type=float, default=1.0,
                    help="Zipf exponent (default 1.0)")
    ap.add_argument("--seed", type=int, default=42, help="default 42")
    ap.add_argument("--obj-size", type=int, default=4096,
                    help="bytes of every object (default 4096)")
    ap.add_argument("--reqs-per-sec", type=int, default=1000,
                    help="request rate RATE (default 1000)")
    ap.add_argument("--out", required=True, help="output path prefix")
    ap.add_argument("--formats", default="csv,oracle",
                    help="comma list of pagetune,oracle,csv,txt "
                    "(default csv,oracle)")
    a = ap.parse_args()

    if a.n_req < 1 or a.n_obj < 1 or a.reqs_per_sec < 1 or a.obj_size < 0:
        sys.exit("gen_zipf_trace.py: --n-req, --n-obj and --reqs-per-sec "
                 "must be >= 1, --obj-size >= 0")
    if math.gcd(SCATTER_MULT, a.n_obj) != 1:
        sys.exit("gen_zipf_trace.py: --n-obj %d shares a factor with %d"
                 % (a.n_obj, SCATTER_MULT))
    wanted = {f.strip() for f in a.formats.split(",") if f.strip()}
    unknown = wanted - {"pagetune", "oracle", "csv", "txt"}
    if unknown:
        sys.exit("gen_zipf_trace.py: unknown format '%s'" % sorted(unknown)[0])

    keys = draw_keys(a.n_req, a.n_obj, a.alpha, a.seed)
    n, rate, size = len(keys), a.reqs_per_sec, a.obj_size
    written = []

    # Same file order as the peer's tool, so the sha256 lines compare.
    if "csv" in wanted:
        path = a.out + ".csv"
        with open(path, "w") as f:
            f.write("time,obj_id,obj_size\n")
        write_blocks(path, "a", lambda s, e: "".join(
            "%d,%d,%d\n" % (i // rate, keys[i], size) for i in range(s, e)), n)
        written.append(path)
    if "txt" in wanted:
        path = a.out + ".txt"
        write_blocks(path, "w", lambda s, e: "".join(
            "%d\n" % keys[i] for i in range(s, e)), n)
        written.append(path)
    if "pagetune" in wanted:
        path = a.out + ".pagetune.csv"
        with open(path, "w") as f:
            f.write("time_ms,op,key,size\n")
        write_blocks(path, "a", lambda s, e: "".join(
            "%d,get,%d,%d\n" % (i * 1000 // rate, keys[i], size)
            for i in range(s, e)), n)
        written.append(path)
    if "oracle" in wanted:
        path = a.out + ".oracleGeneral.bin"
        nxt = next_use(keys)
        record = struct.Struct("<IQIq")
        write_blocks(path, "wb", lambda s, e: b"".join(
            record.pack(i // rate, keys[i], size, nxt[i])
            for i in range(s, e)), n)
        written.append(path)

    uses = {}
    for key in keys:
        uses[key] = uses.get(key, 0) + 1
    once = sum(1 for c in uses.values() if c == 1)
    print("params: n_req=%d n_obj=%d alpha=%g seed=%d obj_size=%d "
          "reqs_per_sec=%d" % (n, a.n_obj, a.alpha, a.seed, size, rate))
    print("n_unique_objects=%d one_hit_wonders=%d compulsory_miss_ratio=%.6f"
          % (len(uses), once, len(uses) / n))
    print("first_ids=%s" % list(keys[:8]))
    for path in written:
        print("sha256 %s %s" % (sha256_of(path), path))


if __name__ == "__main__":
    main()
