#!/usr/bin/env bash
# test_engine_sqlite.sh — issue 5 on SQLite: a database at 4 KB pages whose
# ~6 KB objects spill to overflow pages is sampled and monitored through
# the SQLite3 ODBC driver, recommended for engine sqlite and turned into
# DDL; create.sql (PRAGMA page_size + VACUUM) is applied through ODBC
# (tests/tools/pt_sqlexec), PRAGMA page_size shows the new size and
# overflow pages are gone (dbstat), then rollback.sql restores 4 KB pages.
. "$(dirname "$0")/lib.sh"
need_env PT_SQLEXEC
need_cmd sqlite3 python3 odbcinst
odbcinst -q -d -n SQLite3 >/dev/null 2>&1 || {
    [ "${CI:-}" = true ] && { echo "FAIL: SQLite3 ODBC driver not registered" >&2; exit 1; }
    echo "SKIP: SQLite3 ODBC driver not registered" >&2; exit 77; }

N=500
DB="$T/sessions.db"
CONN="Driver=SQLite3;Database=$DB;"
sqlite3 "$DB" <<SQL
PRAGMA page_size = 4096;
CREATE TABLE SESSIONS (ID varchar(128) NOT NULL, PROPID varchar(128) NOT NULL,
  APPNAME varchar(128), LISTENERCNT smallint, LASTACCESS bigint,
  CREATIONTIME bigint, MAXINACTIVETIME integer, USERNAME varchar(256),
  SMALL BLOB, MEDIUM BLOB, LARGE BLOB);
WITH RECURSIVE g(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM g WHERE n < $N)
INSERT INTO SESSIONS (ID, PROPID, APPNAME, SMALL)
SELECT 's' || n, 's' || n, 'app', randomblob(5000 + (n * 7919) % 1500) FROM g;
SQL
page_size() { sqlite3 "$DB" "PRAGMA page_size"; }
overflow_pages() {
    sqlite3 "$DB" "SELECT count(*) FROM dbstat WHERE name = 'SESSIONS' AND pagetype = 'overflow'" 2>/dev/null || echo unknown
}
expect_eq "$(page_size)" 4096 "starts at 4 KB pages"
OV0=$(overflow_pages)

expect_rc 0 "sample" "$PAGETUNE" sample --connect "$CONN" -o "$T/sizes.json" -q
expect_rc 0 "monitor" "$PAGETUNE" monitor --connect "$CONN" --interval 0.2 --count 2 \
    --json -o "$T/mon.json" -q
expect_rc 0 "recommend" "$PAGETUNE" recommend --engine sqlite --sizes "$T/sizes.json" \
    --monitor "$T/mon.json" --memory 8M --json -o "$T/rec.json" -q
expect_py "engine sqlite, 8 KB pages keep the objects in the leaf" \
    'd["engine"] == "sqlite" and d["page_size"] == 8192 and d["candidates"][2]["inline_fraction"] == 0' "$T/rec.json"
expect_py "settings: page_size, previous size, cache_size" \
    'd["settings"] == {"page_size": 8192, "previous_page_size": 4096, "cache_size_kib": 8192}' "$T/rec.json"
expect_py "reasons: VACUUM and per-connection cache" \
    'any("VACUUM" in r for r in d["reasons"]) and any("every connection" in r for r in d["reasons"])' "$T/rec.json"

expect_rc 0 "ddl" "$PAGETUNE" ddl --recommendation "$T/rec.json" --dialect sqlite \
    --out-dir "$T/ddl" -q
expect_contains "$(cat "$T/ddl/create.sql")" "PRAGMA page_size = 8192;" "create.sql: page size"
expect_contains "$(cat "$T/ddl/create.sql")" "PRAGMA cache_size = -8192;" "create.sql: cache size"
expect_rc 0 "apply create.sql through ODBC" "$PT_SQLEXEC" "$CONN" script "$T/ddl/create.sql"
expect_eq "$(page_size)" 8192 "PRAGMA page_size after VACUUM"
OV1=$(overflow_pages)
if [ "$OV0" != unknown ]; then
    [ "$OV0" -gt 0 ] && [ "$OV1" -eq 0 ] && pass ||
        fail "overflow pages should vanish: $OV0 -> $OV1"
    echo "overflow pages of SESSIONS: $OV0 at 4K, $OV1 at 8K"
fi
expect_eq "$(sqlite3 "$DB" "SELECT count(*) FROM SESSIONS")" "$N" "rows intact"

expect_rc 0 "apply rollback.sql through ODBC" "$PT_SQLEXEC" "$CONN" script "$T/ddl/rollback.sql"
expect_eq "$(page_size)" 4096 "rollback: 4 KB pages again"

# bad input
expect_rc 65 "sqlite recommendation, oracle dialect" "$PAGETUNE" ddl \
    --recommendation "$T/rec.json" --dialect oracle -o "$T/x.sql"
expect_contains "$ERR" "for engine 'sqlite', not dialect 'oracle'" "clear message"
expect_rc 65 "reserved sqlite_ prefix" "$PAGETUNE" ddl --recommendation "$T/rec.json" \
    --dialect sqlite --table sqlite_master -o "$T/x.sql"
expect_contains "$ERR" "must not begin with 'sqlite_'" "reserved prefix named"
[ ! -e "$T/x.sql" ] && pass || fail "no output file on bad input"
finish
