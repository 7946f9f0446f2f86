# test_oneline.sh — `--oneline` of recommend and advise (issue 32): the
# advice as one line a DBA pastes into a change ticket, shorter than 200
# characters, on every engine's offline recommend path and on advise
# --demo: what (page size, pool), why, the predicted change, and advise's
# verdict. A format of its own: with --json or --format it is a usage
# error; -o writes the line to a file.
. "$(dirname "$0")/lib.sh"
EX=$(dirname "$0")/../../examples

# check_line DESC: OUT is one line, 10..199 characters, no escape or tab
check_line() {
    local n len
    n=$(printf '%s\n' "$OUT" | grep -c '')
    expect_eq "$n" 1 "$1: one line"
    len=${#OUT}
    { [ "$len" -lt 200 ] && [ "$len" -ge 10 ]; } && pass ||
        fail "$1: $len characters: $OUT"
    case "$OUT" in
    *$'\t'* | *$'\033'*) fail "$1: a tab or an escape: $OUT" ;;
    *) pass ;;
    esac
}

"$PAGETUNE" workload --profile article-4k --requests 4000 -o "$T/t.csv" -q ||
    { echo "FAIL: workload" >&2; exit 1; }

for e in db2 postgresql mysql sqlite oracle; do
    for m in 16M 512M; do
        expect_rc 0 "recommend $e $m --oneline" "$PAGETUNE" recommend --engine "$e" \
            --sizes "$EX/sessions-mixed.json" --memory "$m" --oneline
        check_line "recommend $e $m"
        expect_contains "$OUT" "$e: " "recommend $e: names the engine"
        expect_contains "$OUT" "page size" "recommend $e: the page size"
        expect_contains "$OUT" ", pool " "recommend $e: the pool"
    done
    # from a trace too
    expect_rc 0 "recommend --trace $e --oneline" "$PAGETUNE" recommend --engine "$e" \
        --trace "$T/t.csv" --oneline -q
    check_line "recommend --trace $e"
done
# the DB2 advice's why and the model's predicted change
expect_rc 0 "recommend db2 --oneline" "$PAGETUNE" recommend --sizes "$EX/sessions-mixed.json" --oneline
expect_contains "$OUT" "page size 4K -> 8K" "db2: what changes"
expect_contains "$OUT" "SESSBP8K" "db2: the pool's name"
expect_contains "$OUT" "why: 96.7% stored inline at 8K vs 60.7% at 4K" "db2: why"
expect_contains "$OUT" "predicted " "db2: the predicted change"
# the engines' own settings are in the line
expect_rc 0 "recommend postgresql --oneline" "$PAGETUNE" recommend --engine postgresql \
    --sizes "$EX/sessions-mixed.json" --oneline
expect_contains "$OUT" "toast_tuple_target=" "postgresql: its setting"
# with --clients: the performance model's requests/s
expect_rc 0 "recommend --clients --oneline" "$PAGETUNE" recommend --trace "$T/t.csv" \
    --clients 4 --oneline -q
check_line "recommend --clients"
expect_contains "$OUT" "req/s" "recommend --clients: predicted requests/s"
# -o FILE holds the line
expect_rc 0 "recommend --oneline -o" "$PAGETUNE" recommend --sizes "$EX/sessions-mixed.json" \
    --oneline -o "$T/line.txt"
expect_eq "$(grep -c '' "$T/line.txt")" 1 "recommend --oneline -o: one line in the file"
# a format of its own
expect_rc 64 "recommend --oneline --json" "$PAGETUNE" recommend --sizes "$EX/sessions-mixed.json" \
    --oneline --json
expect_one_line_error "recommend --oneline --json"
expect_contains "$ERR" "--oneline" "recommend --oneline --json: names the option"
expect_rc 64 "advise --oneline --format csv" "$PAGETUNE" advise --demo --oneline --format csv \
    --out-dir "$T/x"

# ---- advise --demo: not validated, simulated, and the replay's verdict ---------
expect_rc 0 "advise --validate none --oneline" "$PAGETUNE" advise --demo --validate none \
    --out-dir "$T/a0" -q --oneline
check_line "advise --validate none"
expect_contains "$OUT" "verdict: not validated" "advise none: says not validated"
expect_contains "$OUT" "db2: page size 4K -> 16K, pool SESSBP16K" "advise none: what"
expect_rc 0 "advise --validate sim --oneline" "$PAGETUNE" advise --demo --validate sim \
    --out-dir "$T/a1" -q --oneline
check_line "advise --validate sim"
expect_contains "$OUT" "predicted " "advise sim: the predicted change"
expect_rc 0 "advise --oneline" "$PAGETUNE" advise --demo --out-dir "$T/a2" -q --oneline
check_line "advise (replay)"
case "$OUT" in
*"verdict: confirms (measured "* | *"verdict: contradicts (measured "* | \
    *"verdict: inconclusive (measured "*) pass ;;
*) fail "advise: no verdict with the measured change: $OUT" ;;
esac
[ -f "$T/a2/recommendation.json" ] && pass || fail "advise --oneline wrote no out-dir"
finish
