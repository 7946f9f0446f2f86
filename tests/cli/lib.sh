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

expect_contains() { # HAYSTACK NEEDLE DESC
    case "$1" in
    *"$2"*) pass ;;
    *) fail "$3: '$2' not found in: $1" ;;
    esac
}

expect_eq() { # GOT WANT DESC
    if [ "$1" = "$2" ]; then pass; else fail "$3: got '$1', want '$2'"; fi
}

finish() {
    echo "$PASSES passed, $FAILS failed"
    [ "$FAILS" -eq 0 ]
    exit $?
}
