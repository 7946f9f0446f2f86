#!/usr/bin/env bash
# replay_article.sh — the founding article's experiment (article 000, docs/models.md#sources: 4000-,
# 10000- and 30000-byte session objects at 4K/8K/16K/32K pages, Table 6)
# replayed on the built-in session store with an engine's storage semantics
# (default db2: objects DB2 places out of the row live in the LOB area,
# outside the page cache; docs/models.md#replay).
#
#   bench/replay_article.sh [PAGETUNE] [CACHE] [RUNS] [REQUESTS] [SESSIONS]
#                           [ROUNDS] [ENGINE] [LOBIO]
#   defaults:               build/pagetune 2M 5 5000 1000 5 db2 direct
#
# LOBIO direct (O_DIRECT) makes every out-of-row access reach the device,
# as DB2's direct I/O does; `cached` lets the OS file cache serve it (an
# SMS table space), which on a machine with spare memory costs almost
# nothing. Direct needs a file system with O_DIRECT: TMPDIR must not be a
# tmpfs.
#
# Workload: the article's stress test — every request reads its session and
# writes it back (a get and a set of the same key, one request), uniform
# over SESSIONS sessions, fixed object size. Each run is one `pagetune
# replay`: a warm-up pass per page size, then ROUNDS interleaved rounds;
# the replay gives each page size's requests/s against 4K with a 95 %
# Student t interval over the rounds. The script adds, from the same rounds,
# each page size against the inflection (the smallest page whose rows hold
# the object: 8K, 16K, 32K) and checks, per run:
#   step  the first page size whose interval against 4K lies wholly above
#         zero is the inflection;
#   flat  no page size past the inflection is worse than it by more than
#         the interval (the upper end of its interval against the
#         inflection is >= 0).
# Prints one line per run, object size and page size, then the verdicts.
set -euo pipefail
PAGETUNE=${1:-build/pagetune}
CACHE=${2:-2M}
RUNS=${3:-5}
REQ=${4:-5000}
SESS=${5:-1000}
ROUNDS=${6:-5}
ENGINE=${7:-db2}
LOBIO=${8:-direct}
export PAGETUNE_DATA_DIR=${PAGETUNE_DATA_DIR:-$(cd "$(dirname "$0")/.." && pwd)}
W=$(mktemp -d /tmp/pt-article.XXXXXX)
trap 'rm -rf "$W"' EXIT

for size in 4000 10000 30000; do
    awk -v n="$REQ" -v keys="$SESS" -v size="$size" 'BEGIN {
        print "time_ms,op,key,size"; srand(1)
        for (i = 0; i < n; i++) {
            k = int(rand() * keys)
            printf "%d,get,%06dh6aTb2u9DkMzIiNQy5V,%d\n", i, k, size
            printf "%d,set,%06dh6aTb2u9DkMzIiNQy5V,%d\n", i, k, size
        }
    }' >"$W/$size.csv"
done

for r in $(seq 1 "$RUNS"); do
    for size in 4000 10000 30000; do
        "$PAGETUNE" replay -q --json --trace "$W/$size.csv" --cache "$CACHE" \
            --engine "$ENGINE" --page-size 4K,8K,16K,32K --rounds "$ROUNDS" \
            --lob-io "$LOBIO" \
            -o "$W/r-$size-$r.json"
    done
done

python3 - "$W" "$RUNS" "$CACHE" "$ENGINE" "$LOBIO" <<'EOF'
import json, math, statistics, sys
w, runs, cache, engine, lobio = (sys.argv[1], int(sys.argv[2]), sys.argv[3],
                                 sys.argv[4], sys.argv[5])
inflection = {4000: 8192, 10000: 16384, 30000: 32768}
article = {4000: 15, 10000: 14, 30000: 14}  # Table 6, % requests/s
T975 = [12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228]

def ci(xs):
    n = len(xs)
    m = statistics.mean(xs)
    if n < 2:
        return m, m, m
    t = T975[n - 2] if n - 2 < len(T975) else 1.96
    h = t * statistics.stdev(xs) / math.sqrt(n)
    return m, m - h, m + h

print(f"engine {engine}, --lob-io {lobio}, cache {cache} per connection, "
      f"{runs} runs; "
      "requests/s; intervals are 95 % over the rounds")
print(f"{'run':>3} {'object':>6} {'page':>5} {'req/s':>8} "
      f"{'vs 4K [95% interval]':>26} {'vs inflection':>26} {'resp us':>8} "
      f"{'p95 us':>7} {'lob':>5} {'ovf':>5}")
ok = {"step": 0, "flat": 0}
fails = []
steps = {s: [] for s in inflection}
for r in range(1, runs + 1):
    for size in (4000, 10000, 30000):
        doc = json.load(open(f"{w}/r-{size}-{r}.json"))
        res = {x["page_size"]: x for x in doc["results"]}
        inf = inflection[size]
        first_up = None
        flat = True
        for ps in sorted(res):
            x = res[ps]
            v = x["vs_first"]
            if first_up is None and ps != 4096 and v["lo"] > 0:
                first_up = ps
            rel = [a / b - 1 for a, b in zip(x["rounds_rps"],
                                             res[inf]["rounds_rps"])]
            m, lo, hi = ci(rel)
            if ps > inf and hi < 0:
                flat = False
            if ps == inf:
                steps[size].append(v["mean"])
            print(f"{r:>3} {size:>6} {ps // 1024:>4}K {x['requests_per_s']:>8.0f} "
                  f"{v['mean'] * 100:>+7.1f}% [{v['lo'] * 100:+6.1f},{v['hi'] * 100:+6.1f}] "
                  f"{m * 100:>+7.1f}% [{lo * 100:+6.1f},{hi * 100:+6.1f}] "
                  f"{x['response_us']['mean']:>8.1f} {x['response_us']['p95']:>7.1f} "
                  f"{x['lob_records']:>5} {x['overflow_pages']:>5}")
        step = first_up == inf
        ok["step"] += step
        ok["flat"] += flat
        if not step:
            fails.append(f"run {r} {size} B: first significant step up at "
                         f"{(first_up or 0) // 1024}K, not {inf // 1024}K")
        if not flat:
            fails.append(f"run {r} {size} B: a page past {inf // 1024}K is "
                         "worse than it beyond its interval")
n = runs * 3
print(f"step up exactly at the inflection: {ok['step']}/{n}; "
      f"flat past it: {ok['flat']}/{n}")
for size in (4000, 10000, 30000):
    s = steps[size]
    print(f"{size} B: step at {inflection[size] // 1024}K, "
          f"{min(s) * 100:+.1f}..{max(s) * 100:+.1f} % over {len(s)} runs "
          f"(article Table 6: +{article[size]} %)")
for f in fails:
    print("MISS:", f)
EOF
