#!/usr/bin/env bash
# fuzz.sh — run the libFuzzer targets of tests/fuzz for a given time each.
#   scripts/fuzz.sh SECONDS [TARGET...]     (default: every target)
# TARGET is a parser name (trace_csv) or a binary name (fuzz_trace_csv).
# Builds build-fuzz/ with clang (-DPT_FUZZ=ON: libFuzzer + ASan + UBSan)
# if needed. Each target starts from its seed corpus and regression inputs
# (copied into build-fuzz/corpus/<target>, which grows across runs; the
# committed seeds are never modified) and its dictionary if there is one.
# Prints executions, coverage (edges), features and corpus size per target;
# exits 1 if any target crashed, leaked, hit undefined behaviour, timed out
# on an input or ran out of memory — the input is kept in
# build-fuzz/artifacts/<target>/ and its report in build-fuzz/logs/.
# Environment: FUZZ_JOBS (targets run at once, default 1), FUZZ_BUILD
# (build dir, default build-fuzz), CC (default clang), FUZZ_TIMEOUT and
# FUZZ_RSS_MB (per-input limits, below).
#
# Per-input limits are sized so that a busy machine cannot fail a run: on
# a 2-core CI runner shared with other jobs (scripts/test.sh beside it) an
# input gets a fraction of a core, ASan+UBSan cost 2-3x on top, so the
# slowest honest input (max_len 64 KiB, well under 1 s idle) can take tens
# of seconds. libFuzzer's -timeout (FUZZ_TIMEOUT, default 300 s per input)
# therefore catches only hangs, and -rss_limit_mb (FUZZ_RSS_MB, default
# 2048 MB per process, lowered to fit FUZZ_JOBS processes in half of the
# memory) catches runaway allocation, not load. Slowness is reported, not
# failed: -report_slow_units=10 keeps any input slower than 10 s as
# artifacts/<target>/slow-unit-*, listed after the results; a slow input
# is a bug for a timing test (a fixed bound on an idle machine), not for
# the wall clock of a busy CI.
set -uo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

if [ $# -lt 1 ] || ! [[ $1 =~ ^[0-9]+$ ]] || [ "$1" -lt 1 ]; then
    echo "usage: scripts/fuzz.sh SECONDS [TARGET...]" >&2
    exit 64
fi
secs=$1
shift
bdir=${FUZZ_BUILD:-build-fuzz}
jobs=${FUZZ_JOBS:-1}
timeout_s=${FUZZ_TIMEOUT:-300}
rss_mb=${FUZZ_RSS_MB:-2048}
for v in "$jobs" "$timeout_s" "$rss_mb"; do
    if ! [[ $v =~ ^[0-9]+$ ]] || [ "$v" -lt 1 ]; then
        echo "fuzz.sh: FUZZ_JOBS, FUZZ_TIMEOUT and FUZZ_RSS_MB must be positive integers" >&2
        exit 64
    fi
done
# FUZZ_JOBS processes at rss_mb each must fit in half of the memory
mem_mb=$(awk '/^MemTotal:/ { print int($2 / 1024) }' /proc/meminfo 2>/dev/null)
if [ -n "$mem_mb" ] && [ $((jobs * rss_mb)) -gt $((mem_mb / 2)) ]; then
    rss_mb=$((mem_mb / 2 / jobs))
    echo "fuzz.sh: -rss_limit_mb lowered to $rss_mb (${mem_mb} MB, $jobs job(s))" >&2
fi
cc=${CC:-clang}
case "$cc" in *clang*) ;; *) cc=clang ;; esac

if ! command -v "$cc" >/dev/null; then
    echo "fuzz.sh: clang not found (scripts/install-deps.sh --test installs it)" >&2
    exit 69
fi
echo "== build fuzz targets ($bdir)" >&2
cmake -S . -B "$bdir" -DCMAKE_C_COMPILER="$cc" -DPT_FUZZ=ON \
    -DBUILD_TESTING=OFF -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null ||
    exit 70
cmake --build "$bdir" -j "$(nproc 2>/dev/null || echo 2)" >/dev/null || {
    cmake --build "$bdir" 2>&1 | tail -n 30 >&2
    exit 70
}

targets=()
if [ $# -eq 0 ]; then
    for f in tests/fuzz/fuzz_*.c; do
        targets+=("$(basename "$f" .c)")
    done
else
    for t in "$@"; do
        t=${t#fuzz_}
        if [ ! -x "$bdir/fuzz/fuzz_$t" ]; then
            echo "fuzz.sh: no fuzz target '$t' (see tests/fuzz/fuzz_*.c)" >&2
            exit 64
        fi
        targets+=("fuzz_$t")
    done
fi

mkdir -p "$bdir/logs" "$bdir/artifacts" "$bdir/corpus"

# run_one NAME: fuzz one target for $secs seconds; writes logs/NAME.result
run_one() {
    local name=$1 parser=${1#fuzz_}
    local corpus="$bdir/corpus/$parser" art="$bdir/artifacts/$parser/"
    local log="$bdir/logs/$name.log" dict=() rc
    mkdir -p "$corpus" "$art"
    cp -n tests/fuzz/corpus/"$parser"/* "$corpus"/ 2>/dev/null
    if [ -d "tests/fuzz/regressions/$parser" ]; then
        cp -n tests/fuzz/regressions/"$parser"/* "$corpus"/ 2>/dev/null
    fi
    if [ -f "tests/fuzz/dict/$parser.dict" ]; then
        dict=(-dict="tests/fuzz/dict/$parser.dict")
    fi
    # FUZZ_SEED makes a run repeatable: the same mutations in the same
    # order, so a CI run explores a prefix of what was checked before
    if [ -n "${FUZZ_SEED:-}" ]; then
        dict+=(-seed="$FUZZ_SEED")
    fi
    ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:symbolize=1 \
    UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    PAGETUNE_DATA_DIR="$root" \
        "$bdir/fuzz/$name" -max_total_time="$secs" -timeout="$timeout_s" \
        -rss_limit_mb="$rss_mb" -report_slow_units=10 -max_len=65536 \
        -print_final_stats=1 \
        -artifact_prefix="$art" "${dict[@]}" "$corpus" >"$log" 2>&1
    rc=$?
    local execs cov ft corp
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
    cov=$(grep -oE 'cov: [0-9]+' "$log" | tail -n 1 | cut -d' ' -f2)
    ft=$(grep -oE 'ft: [0-9]+' "$log" | tail -n 1 | cut -d' ' -f2)
    corp=$(grep -oE 'corp: [0-9]+/[0-9]+[a-zA-Z]*' "$log" | tail -n 1 | cut -d' ' -f2)
    local verdict=ok
    if [ "$rc" -ne 0 ] || grep -qE 'ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer)|runtime error:|SUMMARY: ' "$log"; then
        verdict="FAILED (exit $rc; input in $art, report in $log)"
    fi
    printf '%-22s %10s execs in %ss  cov %-6s ft %-7s corpus %-12s %s\n' \
        "$name" "${execs:-?}" "$secs" "${cov:-?}" "${ft:-?}" "${corp:-?}" \
        "$verdict" >"$bdir/logs/$name.result"
}

echo "== fuzzing ${#targets[@]} target(s) for ${secs}s each, $jobs at a time" \
    "(per input: -timeout=$timeout_s -rss_limit_mb=$rss_mb)" >&2
running=0
for t in "${targets[@]}"; do
    run_one "$t" &
    running=$((running + 1))
    if [ "$running" -ge "$jobs" ]; then
        wait -n
        running=$((running - 1))
    fi
done
wait

failed=0
for t in "${targets[@]}"; do
    r="$bdir/logs/$t.result"
    cat "$r"
    if grep -q FAILED "$r"; then
        failed=1
        grep -E -m 3 'ERROR:|runtime error:|invariant failed' "$bdir/logs/$t.log" | sed 's/^/    /'
    fi
done
# slow inputs are worth a look, not a failure (see the header)
for t in "${targets[@]}"; do
    for f in "$bdir/artifacts/${t#fuzz_}"/slow-unit-*; do
        [ -e "$f" ] && echo "fuzz.sh: note: slow input (over 10 s) kept: $f" >&2
    done
done
if [ "$failed" -ne 0 ]; then
    echo "fuzz.sh: a target failed; reproduce with $bdir/fuzz/TARGET INPUT" >&2
    exit 1
fi
echo "fuzz.sh: no crash, leak or undefined behaviour" >&2
