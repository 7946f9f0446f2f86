#!/usr/bin/env bash
# sim.sh — simulator benchmarks and the reference-trace acceptance figures
# (bench/reference-baseline.md): speed, memory per key, the exact curve vs
# one LRU run, CSV parsing vs `wc -l`, every policy's miss ratios at
# 10k/100k/400k entries, SHARDS at 1 % vs exact. Prints figures and ratios
# from one run; asserts nothing (the machine is shared and noisy).
#
# Also (issue 29): every policy's miniature curve at R = 0.01 against 20
# exact runs on the reference trace and on a trace of
# bench/mini-workload.yaml, the ratio of LRU to a one-touch-per-request
# loop (in `speed`), and a 4 page sizes x 8 pools grid with --jobs 1 and 2.
#
# usage: bench/sim.sh [BUILD_DIR] [TRACE_PREFIX]
#   The files are PREFIX.oracleGeneral.bin and PREFIX.pagetune.csv, the
#   reference trace of bench/reference-baseline.md. TRACE_PREFIX defaults
#   to BUILD_DIR/bench/ref/zipf1.0_1m_10m; when the binary file is missing
#   it is made with the project's bench/gen_zipf_trace.py (Python 3, about
#   1-2 minutes, 480 MB) and its SHA-256 checked against the baseline.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-build}
prefix=${2:-$build/bench/ref/zipf1.0_1m_10m}
bin="$prefix.oracleGeneral.bin"
csv="$prefix.pagetune.csv"
b="$build/bench/bench_sim"
ref_sha=df42085b677366922d35861f2e313705b5eb7aea3d76b60d6d52ae91b3fb3d4b
[ -x "$b" ] || { echo "sim.sh: build first ($b missing)" >&2; exit 1; }
if [ ! -r "$bin" ]; then
    command -v python3 >/dev/null ||
        { echo "sim.sh: $bin missing and python3 not found" >&2; exit 1; }
    echo "== making the reference trace $prefix.* (bench/gen_zipf_trace.py)"
    mkdir -p "$(dirname "$prefix")"
    python3 "$here/gen_zipf_trace.py" --n-req 10000000 --n-obj 1000000 \
        --alpha 1.0 --seed 42 --out "$prefix" --formats oracle,pagetune
    sha=$(sha256sum "$bin" | cut -d' ' -f1)
    [ "$sha" = "$ref_sha" ] || {
        echo "sim.sh: $bin has SHA-256 $sha, not the reference $ref_sha" >&2
        exit 1
    }
fi
echo "== machine: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "== speed, memory, exact curve, CSV (LRU at 100,000 entries; median of 5 pinned runs)"
if [ -r "$csv" ]; then "$b" speed "$bin" "$csv"; else "$b" speed "$bin"; fi
echo "== miss ratios vs bench/reference-baseline.md"
echo "   baseline: LRU 0.4146 0.2227 0.1075 | FIFO @100k 0.2523 | CLOCK @100k 0.2160"
echo "             S3-FIFO 0.3376 0.1882 0.1047 | SIEVE 0.3413 0.1899 0.1027 | ARC 0.3401 0.1899 0.1030"
"$b" policies "$bin"
echo "== SHARDS vs exact"
"$b" shards "$bin" 0.01
"$b" shards "$bin" 0.001
echo "== miniature curves vs exact runs (R = 0.01, 5 seeds)"
gen="$build/bench/mini-workload.csv"
[ -r "$gen" ] || "$build/pagetune" workload --profile "$here/mini-workload.yaml" -o "$gen" --force
"$b" mini "$bin" "$gen"
echo "== grid: 4 page sizes x 8 pools, --jobs 1 vs --jobs 2 (wall time; same bytes)"
for j in 1 2; do
    s=$(date +%s.%N)
    "$build/pagetune" simulate --trace "$gen" --engine mysql --page-size 4K,8K,16K,32K \
        --bufferpool 16M,32M,64M,128M,256M,512M,1G,2G --json --jobs $j -o "$build/bench/grid$j.json" --force
    echo "   --jobs $j: $(echo "$(date +%s.%N) - $s" | bc) s"
done
cmp -s "$build/bench/grid1.json" "$build/bench/grid2.json" && echo "   identical output" || echo "   OUTPUTS DIFFER"
