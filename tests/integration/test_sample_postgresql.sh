#!/usr/bin/env bash
# test_sample_postgresql.sh — `pagetune sample` through psqlODBC against a
# real PostgreSQL: exact statistics of a full scan, TABLESAMPLE within
# tolerance, multi-row sessions, errors. Data: tests/integration/lib.sh.
. "$(dirname "$0")/lib.sh"
need_env PT_PG_CONNECT PT_PG_PORT PT_PG_PASSWORD
need_cmd psql python3

N=2000
S=$(size_expr g)
pg_sql <<SQL
DROP TABLE IF EXISTS it_sess_pg, it_multi_pg;
CREATE TABLE it_sess_pg (ID varchar(128) NOT NULL, PROPID varchar(128) NOT NULL,
  APPNAME varchar(128), LISTENERCNT smallint, LASTACCESS bigint,
  CREATIONTIME bigint, MAXINACTIVETIME integer, USERNAME varchar(256),
  SMALL bytea, MEDIUM bytea, LARGE bytea);
INSERT INTO it_sess_pg (ID, PROPID, APPNAME, SMALL, MEDIUM, LARGE)
SELECT 's' || g, 's' || g, 'app',
  CASE WHEN s <= 3122 THEN b END,
  CASE WHEN s > 3122 AND s <= 32700 THEN b END,
  CASE WHEN s > 32700 THEN b END
FROM (SELECT g, s, decode(repeat('ab', s), 'hex') AS b
      FROM (SELECT g, $S AS s FROM generate_series(1, $N) g) x) y;
CREATE TABLE it_multi_pg (ID varchar(128) NOT NULL, PROPID varchar(128) NOT NULL,
  SMALL bytea, MEDIUM bytea, LARGE bytea);
INSERT INTO it_multi_pg (ID, PROPID) SELECT 'u' || s, 'u' || s FROM generate_series(1, 40) s;
INSERT INTO it_multi_pg (ID, PROPID, SMALL, MEDIUM)
SELECT 'u' || s, 'attr' || a,
  CASE WHEN 500 * a + s <= 3122 THEN decode(repeat('cd', 500 * a + s), 'hex') END,
  CASE WHEN 500 * a + s > 3122 THEN decode(repeat('cd', 500 * a + s), 'hex') END
FROM generate_series(1, 40) s, generate_series(1, 4) a WHERE a <= s % 4 + 1;
SQL

SEEDABLE=1 sample_suite "$PT_PG_CONNECT" it_sess_pg "$N" it_multi_pg

# psqlODBC streams only with UseDeclareFetch=1: pagetune adds it
expect_py "TABLESAMPLE used for --percent" '"TABLESAMPLE BERNOULLI (25) REPEATABLE (7)" in d["source"]["query"]' "$T/s25.json"
expect_rc 0 "--method system" "$PAGETUNE" sample --connect "$PT_PG_CONNECT" \
    --table it_sess_pg --percent 50 --method system -o "$T/sys.json" -q
expect_py "TABLESAMPLE SYSTEM" '"TABLESAMPLE SYSTEM (50)" in d["source"]["query"] and 0 < d["count"] < '"$N" "$T/sys.json"
# schema-qualified name, case folded like an unquoted name
expect_rc 0 "schema.table" "$PAGETUNE" sample --connect "$PT_PG_CONNECT" \
    --table PUBLIC.IT_SESS_PG -o "$T/schema.json" -q
expected_check "$T/schema.json" "$N"

# an --engine the server contradicts: 64 naming the server, not 66 "table
# not found" from db2's SQL (issue 13)
expect_rc 64 "--engine db2 against PostgreSQL" "$PAGETUNE" sample \
    --connect "$PT_PG_CONNECT" --table it_sess_pg --engine db2 -q
expect_one_line_error "--engine db2 against PostgreSQL"
expect_contains "$ERR" "the server is PostgreSQL" "the server named"
expect_contains "$ERR" "--engine postgresql" "the right engine suggested"

pg_sql -c "DROP TABLE it_sess_pg, it_multi_pg"
finish
