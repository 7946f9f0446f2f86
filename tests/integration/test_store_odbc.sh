#!/usr/bin/env bash
# test_store_odbc.sh — a store made by `replay --keep` is an ordinary SQLite
# file: `sample` and `monitor` read it through the real SQLite ODBC driver
# (libsqliteodbc, Driver=SQLite3), and the sizes they report are exactly
# those the trace left in the store (count, min, max, mean), with the
# placement rule visible (SMALL / MEDIUM / LARGE all used at 4K pages).
. "$(dirname "$0")/../cli/lib.sh"

if ! odbcinst -q -d 2>/dev/null | grep -qx '\[SQLite3\]'; then
    if [ "${CI:-}" = true ]; then
        echo "FAIL: SQLite3 ODBC driver not registered (odbcinst -q -d)" >&2
        exit 1
    fi
    echo "SQLite3 ODBC driver not registered: skip" >&2
    exit 77
fi
command -v sqlite3 >/dev/null || { echo "sqlite3 shell missing" >&2; exit 77; }

# 60 sessions set with distinct sizes, some updated, some invalidated:
# k00..k59 get 1000 + 97*i bytes, then k00..k09 are re-set to 40000 + i
# (LARGE at any row size), k50..k54 are deleted. Final state: 55 sessions.
{
    echo "time_ms,op,key,size"
    for i in $(seq 0 59); do printf '%d,set,k%02d,%d\n' "$i" "$i" $((1000 + 97 * i)); done
    for i in $(seq 0 9); do printf '%d,set,k%02d,%d\n' $((100 + i)) "$i" $((40000 + i)); done
    for i in $(seq 50 54); do printf '%d,del,k%02d,0\n' $((200 + i)) "$i"; done
    for i in $(seq 0 59); do printf '%d,get,k%02d,0\n' $((300 + i)) "$i"; done
} >"$T/trace.csv"
# Expected sizes from the trace itself.
awk -F, 'NR > 1 && $2 == "set" { s[$3] = $4 } NR > 1 && $2 == "del" { delete s[$3] }
    END { for (k in s) print s[k] }' "$T/trace.csv" | sort -n >"$T/want"
want_count=$(wc -l <"$T/want")
want_min=$(head -n 1 "$T/want")
want_max=$(tail -n 1 "$T/want")
want_sum=$(awk '{ s += $1 } END { print s }' "$T/want")
expect_eq "$want_count" 55 "trace leaves 55 sessions"

expect_rc 0 "replay --keep" "$PAGETUNE" replay -q --trace "$T/trace.csv" \
    --page-size 4K --store-dir "$T/s" --keep
db="$T/s/store-4K.db"
# All three columns in use at 4K (s = 3122): SMALL, MEDIUM and LARGE.
expect_eq "$(sqlite3 "$db" 'SELECT count(SMALL) > 0, count(MEDIUM) > 0,
    count(LARGE) > 0 FROM SESSIONS')" "1|1|1" "all three columns used"

conn="Driver=SQLite3;Database=$db;"
expect_rc 0 "sample through ODBC" "$PAGETUNE" sample --connect "$conn" \
    --json -o "$T/sizes.json"
num() { # KEY FILE: a top-level number of the JSON document
    awk -v k="\"$1\":" '$1 == k { gsub(/[ ,]/, "", $2); print $2; exit }' "$2"
}
expect_eq "$(num count "$T/sizes.json")" "$want_count" "sample count"
expect_eq "$(num min "$T/sizes.json")" "$want_min" "sample min"
expect_eq "$(num max "$T/sizes.json")" "$want_max" "sample max"
mean=$(num mean "$T/sizes.json")
want_mean=$(awk -v s="$want_sum" -v n="$want_count" 'BEGIN { printf "%.3f", s / n }')
expect_eq "$(awk -v m="$mean" 'BEGIN { printf "%.3f", m }')" "$want_mean" \
    "sample mean"
expect_contains "$(cat "$T/sizes.json")" '"engine": "sqlite"' \
    "engine detected as sqlite"

expect_rc 0 "monitor through ODBC" "$PAGETUNE" monitor --connect "$conn" \
    --json --count 2 --interval 0.1 -o "$T/monitor.json"
expect_contains "$(cat "$T/monitor.json")" '"page_size": 4096' \
    "monitor sees the store's page size"

# The store is still a healthy store after the ODBC reads.
expect_eq "$(sqlite3 "$db" 'PRAGMA integrity_check')" ok "integrity"
finish
