#!/usr/bin/env bash
# sim.sh — simulator benchmarks and the reference-trace acceptance figures
# (shared/reference/cachesim-baseline.md): speed, memory per key, the exact
# curve vs one LRU run, CSV parsing vs `wc -l`, every policy's miss ratios
# at 10k/100k/400k entries, SHARDS at 1 % vs exact. Prints figures and
# ratios from one run; asserts nothing (the machine is shared and noisy).
#
# usage: bench/sim.sh [BUILD_DIR] [TRACE_PREFIX]
#   TRACE_PREFIX defaults to /work/refdata/zipf1.0_1m_10m; the files are
#   PREFIX.oracleGeneral.bin and PREFIX.pagetune.csv, made by
#   shared/tools/gen_zipf_trace.py --n-req 10000000 --n-obj 1000000
#   --alpha 1.0 --seed 42 --formats oracle,pagetune (about 1-2 minutes).
set -euo pipefail
build=${1:-build}
prefix=${2:-/work/refdata/zipf1.0_1m_10m}
bin="$prefix.oracleGeneral.bin"
csv="$prefix.pagetune.csv"
b="$build/bench/bench_sim"
[ -x "$b" ] || { echo "sim.sh: build first ($b missing)" >&2; exit 1; }
[ -r "$bin" ] || { echo "sim.sh: reference trace $bin missing" >&2; exit 1; }
echo "== machine: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "== speed, memory, exact curve, CSV (LRU at 100,000 entries; median of 5 pinned runs)"
if [ -r "$csv" ]; then "$b" speed "$bin" "$csv"; else "$b" speed "$bin"; fi
echo "== miss ratios vs cachesim-baseline.md"
echo "   baseline: LRU 0.4146 0.2227 0.1075 | FIFO @100k 0.2523 | CLOCK @100k 0.2160"
echo "             S3-FIFO 0.3376 0.1882 0.1047 | SIEVE 0.3413 0.1899 0.1027 | ARC 0.3401 0.1899 0.1030"
"$b" policies "$bin"
echo "== SHARDS vs exact"
"$b" shards "$bin" 0.01
"$b" shards "$bin" 0.001
