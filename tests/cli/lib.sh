# lib.sh — helpers for CLI tests that run the real binary. Source it.
# Each test is a bash script that exits 0 (pass), 1 (fail) or 77 (skip).
set -u
PAGETUNE=${PAGETUNE:?PAGETUNE must point at the built binary}
T=$(mktemp -d /tmp/pagetune-test.XXXXXX)
trap 'rm -rf "$T"' EXIT
# PT_VALGRIND=DIR (scripts/test.sh): run the binary under valgrind memcheck;
# a memory error or leak makes it exit 99 and leaves a report in DIR.
if [ -n "${PT_VALGRIND:-}" ]; then
    mkdir -p "$PT_VALGRIND"
    printf '#!/bin/sh\nexec valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect --show-leak-kinds=definite,indirect --log-file="%s/vg.%%p.log" "%s" "$@"\n' \
        "$PT_VALGRIND" "$PAGETUNE" >"$T/pagetune-vg"
    chmod +x "$T/pagetune-vg"
    PAGETUNE=$T/pagetune-vg
fi
FAILS=0
PASSES=0

fail() { echo "FAIL: $*" >&2; FAILS=$((FAILS + 1)); }
pass() { PASSES=$((PASSES + 1)); }

# run CMD...: runs it, sets RC, OUT (stdout), ERR (stderr)
run() {
    "$@" >"$T/.out" 2>"$T/.err"
    RC=$?
    OUT=$(cat "$T/.out")
    ERR=$(cat "$T/.err")
}

# expect_rc N DESC CMD...: exit code must be N
expect_rc() {
    local want=$1 desc=$2
    shift 2
    run "$@"
    if [ "$RC" -ne "$want" ]; then
        fail "$desc: exit $RC, want $want; stderr: $ERR"
    else
        pass
    fi
}

# expect_one_line_error: stderr is exactly one line and non-empty
expect_one_line_error() {
    local desc=$1
    local n
    n=$(printf '%s' "$ERR" | grep -c '')
    if [ "$n" -ne 1 ]; then
        fail "$desc: stderr should be one line, got $n: $ERR"
    else
        pass
    fi
}

# py_check NAME TOOL ARGS...: the python checker TOOL passes on ARGS; what
# it prints is shown indented under NAME (the report checkers in tests/tools)
py_check() {
    local name=$1 tool=$2 out
    shift 2
    if out=$(python3 "$tool" "$@" 2>&1); then
        pass
    else
        fail "$name: $out"
    fi
    echo "$out" | sed "s/^/  $name: /"
}

expect_contains() { # HAYSTACK NEEDLE DESC
    case "$1" in
    *"$2"*) pass ;;
    *) fail "$3: '$2' not found in: $1" ;;
    esac
}

expect_eq() { # GOT WANT DESC
    if [ "$1" = "$2" ]; then pass; else fail "$3: got '$1', want '$2'"; fi
}

# calib_points: the model's own predictions for known costs at two loads
# (as test_calibrate.sh) in $T: a30k.csv (trace), s30k.json (simulation),
# known.yaml (application server), points.csv (calibrate --points)
calib_points() {
    "$PAGETUNE" workload --profile article-30k --requests 4000 -o "$T/a30k.csv" -q ||
        return 1
    "$PAGETUNE" simulate --trace "$T/a30k.csv" --page-size 4K,32K --bufferpool 250 \
        --json -o "$T/s30k.json" -q || return 1
    printf '%s\n' 'name: known' 'perf:' '  app_cpu_fixed_ms: 5' \
        '  app_cpu_per_kb_ms: 0.1' '  fscache_req_ms: 0.5' '  app_cpu_per_row_ms: 0' \
        '  net_per_kb_ms: 0' '  db_cpu_per_lread_ms: 0' '  db_cpu_per_row_ms: 0' \
        '  db_cpu_per_logrec_ms: 0' '  fscache_per_kb_ms: 0' '  log_write_ms: 0.2' \
        '  log_per_kb_ms: 0.001' '  db_on_app_host: 1' >"$T/known.yaml"
    echo "label,trace,page_size,clients,think_ms,req_per_s,response_ms" >"$T/points.csv"
    for n in 1 8; do
        "$PAGETUNE" simulate --trace "$T/a30k.csv" --page-size 4K,32K --bufferpool 250 \
            --clients $n --think-ms 20 --appserver "$T/known.yaml" --json -q |
            python3 -c 'import csv, json, sys
w = csv.writer(sys.stdout, lineterminator="\n")
for r in json.load(sys.stdin)["results"]:
    p = r["predicted"]
    w.writerow(["%d %d" % (p["clients"], r["page_size"]), sys.argv[1],
                r["page_size"], p["clients"], p["think_ms"], p["req_per_s"],
                p["response_ms"]])' \
            "$T/a30k.csv" >>"$T/points.csv" || return 1
    done
}

finish() {
    echo "$PASSES passed, $FAILS failed"
    [ "$FAILS" -eq 0 ]
    exit $?
}
