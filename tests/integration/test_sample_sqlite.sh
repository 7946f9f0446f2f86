#!/usr/bin/env bash
# test_sample_sqlite.sh — `pagetune sample` through the SQLite3 ODBC driver
# on a SQLite file: exact statistics of a full scan, random() sampling
# within tolerance, multi-row sessions, TEXT counted in bytes, errors; and a
# file written by the built-in session store (pagetune replay --keep).
. "$(dirname "$0")/lib.sh"
need_cmd sqlite3 python3 odbcinst
odbcinst -q -d -n SQLite3 >/dev/null 2>&1 || {
    [ "${CI:-}" = true ] && { echo "FAIL: SQLite3 ODBC driver not registered" >&2; exit 1; }
    echo "SKIP: SQLite3 ODBC driver not registered" >&2; exit 77; }

N=2000
DB="$T/sessions.db"
S=$(size_expr n)
sqlite3 "$DB" <<SQL
CREATE TABLE SESSIONS (ID varchar(128) NOT NULL, PROPID varchar(128) NOT NULL,
  APPNAME varchar(128), LISTENERCNT smallint, LASTACCESS bigint,
  CREATIONTIME bigint, MAXINACTIVETIME integer, USERNAME varchar(256),
  SMALL BLOB, MEDIUM BLOB, LARGE BLOB);
WITH RECURSIVE g(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM g WHERE n < $N)
INSERT INTO SESSIONS (ID, PROPID, APPNAME, SMALL, MEDIUM, LARGE)
SELECT 's' || n, 's' || n, 'app',
  CASE WHEN s <= 3122 THEN randomblob(s) END,
  CASE WHEN s > 3122 AND s <= 32700 THEN randomblob(s) END,
  CASE WHEN s > 32700 THEN randomblob(s) END
FROM (SELECT n, $S AS s FROM g);
CREATE TABLE MULTI (ID varchar(128) NOT NULL, PROPID varchar(128) NOT NULL,
  SMALL BLOB, MEDIUM BLOB, LARGE BLOB);
WITH RECURSIVE s(s) AS (SELECT 1 UNION ALL SELECT s + 1 FROM s WHERE s < 40)
INSERT INTO MULTI (ID, PROPID) SELECT 'u' || s, 'u' || s FROM s;
WITH RECURSIVE s(s) AS (SELECT 1 UNION ALL SELECT s + 1 FROM s WHERE s < 40),
     a(a) AS (SELECT 1 UNION ALL SELECT a + 1 FROM a WHERE a < 4)
INSERT INTO MULTI (ID, PROPID, SMALL, MEDIUM)
SELECT 'u' || s, 'attr' || a,
  CASE WHEN 500 * a + s <= 3122 THEN zeroblob(500 * a + s) END,
  CASE WHEN 500 * a + s > 3122 THEN zeroblob(500 * a + s) END
FROM s, a WHERE a <= s % 4 + 1;
CREATE TABLE TEXTS (SMALL TEXT);
INSERT INTO TEXTS VALUES ('héllo'), ('€€€');
SQL
CONN="Driver=SQLite3;Database=$DB;"

sample_suite "$CONN" SESSIONS "$N" MULTI
expect_py "random() filter for --percent" '"abs(random() % 1000000) < 250000" in d["source"]["query"]' "$T/s25.json"
expect_rc 0 "text column" "$PAGETUNE" sample --connect "$CONN" --table TEXTS --columns SMALL --json
printf '%s' "$OUT" > "$T/text.json"
expect_py "TEXT counted in bytes" 'sorted(d["values"]) == [6, 9]' "$T/text.json"
# a double-quoted unknown column would be a string literal in SQLite: we
# quote with backticks, so a missing column is an error, not 4-byte objects
expect_rc 66 "missing column is an error" "$PAGETUNE" sample --connect "$CONN" --columns SMALL,NOPE
expect_rc 69 "database file missing" "$PAGETUNE" sample \
    --connect "Driver=SQLite3;Database=$T/nope/none.db;NoCreat=1;"

# the built-in session store's file (WebSphere layout, objects as BLOB)
if "$PAGETUNE" replay --help 2>/dev/null | grep -q -- '--keep'; then
    printf 'time_ms,op,key,size\n' > "$T/trace.csv"
    for i in $(seq 1 60); do
        printf '%d,set,k%d,%d\n' "$i" "$i" $((i * 700)) >> "$T/trace.csv"
    done
    if "$PAGETUNE" replay --trace "$T/trace.csv" --page-size 8K \
        --store-dir "$T/store" --keep -q -o /dev/null 2>"$T/replay.err"; then
        f=$(find "$T/store" -name '*.db' | head -n 1)
        if [ -n "$f" ]; then
            expect_rc 0 "sample the session store file" "$PAGETUNE" sample \
                --connect "Driver=SQLite3;Database=$f;" -o "$T/store.json" -q
            expect_py "store sizes are the trace sizes" 'sorted(d["values"]) == [i * 700 for i in range(1, 61)]' "$T/store.json"
        else
            fail "replay --keep left no .db file in $T/store"
        fi
    else
        fail "replay --keep failed: $(cat "$T/replay.err")"
    fi
fi
# an --engine the server contradicts: 64 naming the server (issue 13)
expect_rc 64 "--engine postgresql against SQLite" "$PAGETUNE" sample \
    --connect "$CONN" --table TEXTS --columns SMALL --engine postgresql
expect_one_line_error "--engine postgresql against SQLite"
expect_contains "$ERR" "the server is SQLite" "the server named"
finish
