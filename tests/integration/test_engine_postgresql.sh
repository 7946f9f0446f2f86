#!/usr/bin/env bash
# test_engine_postgresql.sh — issue 5 on a real PostgreSQL: a SESSIONS-like
# table of incompressible 3 KB objects is TOASTed at the default
# toast_tuple_target; pagetune samples it, monitors a read workload (TOAST
# blocks read), recommends for engine postgresql, writes the DDL; the DDL is
# applied through ODBC (tests/tools/pt_sqlexec, collect/'s script runner),
# the settings are checked in the catalog, `monitor` shows the same workload
# without TOAST reads, and rollback.sql restores the defaults (TOAST again).
. "$(dirname "$0")/lib.sh"
need_env PT_PG_CONNECT PT_PG_PORT PT_PG_PASSWORD PT_SQLEXEC
need_cmd psql python3

TB=it_eng_pg
N=400
# whatever happens, the shared server's configuration file is restored
trap 'pg_sql -c "ALTER SYSTEM RESET shared_buffers" >/dev/null 2>&1; rm -rf "$T"' EXIT
# 192 md5 digests = 3072 random-looking bytes per object: pglz cannot
# compress them, so the default toaster moves them out of line.
pg_sql <<SQL
DROP TABLE IF EXISTS $TB;
CREATE TABLE $TB (ID varchar(128) NOT NULL PRIMARY KEY, PROPID varchar(128) NOT NULL,
  APPNAME varchar(128), LISTENERCNT smallint, LASTACCESS bigint,
  CREATIONTIME bigint, MAXINACTIVETIME integer, USERNAME varchar(256),
  SMALL bytea, MEDIUM bytea, LARGE bytea);
INSERT INTO $TB (ID, PROPID, APPNAME, SMALL)
SELECT 's' || g, 's' || g, 'app',
  (SELECT decode(string_agg(md5(g || '-' || i), ''), 'hex') FROM generate_series(1, 192) i)
FROM generate_series(1, $N) g;
SQL

toast_bytes() {
    pg_sql -Atc "SELECT pg_relation_size(reltoastrelid) FROM pg_class WHERE relname = '$TB'"
}
# workload_monitor OUT: `pagetune monitor` over a window in which every
# object is read (get_byte forces the value to be fetched and detoasted).
workload_monitor() {
    load_start pg_sql -Atc "SELECT sum(get_byte(SMALL, 3000)) FROM $TB"
    expect_rc 0 "monitor $1" "$PAGETUNE" monitor --connect "$PT_PG_CONNECT" \
        --interval 4 --count 2 --json -o "$T/$1.json" -q
    load_stop
}
# toast_reads FILE: TOAST + TOAST-index blocks read (hit or from disk) and
# heap blocks read for the table, from the monitor's pg_statio deltas
toast_reads() {
    python3 - "$1" "$TB" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
t = [x for x in d["tables"] if x["name"].endswith("." + sys.argv[2])][0]
dl = t["deltas"][-1]["delta"]
print(dl["TOAST_BLKS_READ"] + dl["TOAST_BLKS_HIT"] + dl["TIDX_BLKS_READ"] + dl["TIDX_BLKS_HIT"],
      dl["HEAP_BLKS_READ"] + dl["HEAP_BLKS_HIT"])
PY
}

expect_eq "$(toast_bytes | awk '{print ($1 > 0)}')" 1 "3 KB objects are TOASTed by default"

# -- before: sample, monitor under the workload
expect_rc 0 "sample" "$PAGETUNE" sample --connect "$PT_PG_CONNECT" --table "$TB" \
    -o "$T/sizes.json" -q
expect_py "sampled 3072-byte objects" 'd["count"] == '"$N"' and d["p50"] == 3072' "$T/sizes.json"
workload_monitor before
read -r tb hb < <(toast_reads "$T/before.json")
[ "$tb" -ge "$N" ] && pass || fail "before: want >= $N TOAST block reads, got $tb"

# -- the recommendation in PostgreSQL's vocabulary
expect_rc 0 "recommend" "$PAGETUNE" recommend --engine postgresql --sizes "$T/sizes.json" \
    --monitor "$T/before.json" --json -o "$T/rec.json" -q
expect_py "engine postgresql, 8K (BLCKSZ)" 'd["engine"] == "postgresql" and d["page_size"] == 8192' "$T/rec.json"
# the rest of the row is measured by sample (issue 14), not a 200-byte guess:
# the knob must hold the header, the measured rest and the 3 KB object
REST=$(pyjson "$T/sizes.json" 'int(d["row_fixed_bytes"]["max"])')
expect_py "rest of the row measured" 'd["row_source"] == "measured" and 0 < d["row_fixed_bytes"]["max"] < 100' "$T/sizes.json"
expect_py "toast_tuple_target keeps 3 KB inline" \
    'd["inline_knob"]["pays"] and 3072 + 24 + '"$REST"' <= d["settings"]["toast_tuple_target"] <= 8160' "$T/rec.json"
expect_py "default limit TOASTs them" 'd["candidates"][0]["inline_fraction"] == 0 and d["inline_knob"]["tuned"]["inline_fraction"] == 1' "$T/rec.json"
expect_py "reasons name the knob and the rewrite" \
    'any("VACUUM FULL" in r for r in d["reasons"]) and any("BLCKSZ" in r for r in d["reasons"])' "$T/rec.json"
expect_py "shared_buffers from the monitored pool" \
    'd["settings"]["shared_buffers_kb"] * 1024 == d["model"]["memory_bytes"]' "$T/rec.json"
TTT=$(pyjson "$T/rec.json" 'd["settings"]["toast_tuple_target"]')

# -- DDL, applied through ODBC
expect_rc 0 "ddl" "$PAGETUNE" ddl --recommendation "$T/rec.json" --dialect postgresql \
    --table "$TB" --column SMALL --out-dir "$T/ddl" -q
expect_contains "$(cat "$T/ddl/create.sql")" "ALTER TABLE \"$TB\" SET (toast_tuple_target = $TTT);" "create.sql sets the knob"
expect_contains "$(cat "$T/ddl/create.sql")" "VACUUM FULL \"$TB\";" "create.sql rewrites the table"
expect_rc 0 "apply create.sql through ODBC" "$PT_SQLEXEC" "$PT_PG_CONNECT" script "$T/ddl/create.sql"
expect_eq "$(pg_sql -Atc "SELECT array_to_string(reloptions, ',') FROM pg_class WHERE relname = '$TB'")" \
    "toast_tuple_target=$TTT" "reloptions shows toast_tuple_target"
expect_eq "$(pg_sql -Atc "SELECT count(*) FROM pg_file_settings WHERE name = 'shared_buffers' AND sourcefile LIKE '%postgresql.auto.conf'")" \
    0 "the monitored shared_buffers is kept: no ALTER SYSTEM (a statement that changes nothing is a comment, issue 23)"
expect_eq "$(toast_bytes)" 0 "VACUUM FULL moved every object back into the heap"

# -- after: the same workload, no TOAST reads
workload_monitor after
read -r ta ha < <(toast_reads "$T/after.json")
expect_eq "$ta" 0 "after: no TOAST block reads"
[ "$ha" -ge "$N" ] && pass || fail "after: the workload still read the heap ($ha blocks)"
echo "TOAST blocks read by the workload: before $tb, after $ta (heap $hb -> $ha)"

# -- rollback through ODBC: defaults again, and TOAST with them
expect_rc 0 "apply rollback.sql through ODBC" "$PT_SQLEXEC" "$PT_PG_CONNECT" script "$T/ddl/rollback.sql"
expect_eq "$(pg_sql -Atc "SELECT coalesce(array_to_string(reloptions, ','), '') FROM pg_class WHERE relname = '$TB'")" \
    "" "rollback removed toast_tuple_target"
expect_eq "$(pg_sql -Atc "SELECT count(*) FROM pg_file_settings WHERE name = 'shared_buffers' AND sourcefile LIKE '%postgresql.auto.conf'")" \
    0 "rollback left postgresql.auto.conf without shared_buffers"
expect_eq "$(toast_bytes | awk '{print ($1 > 0)}')" 1 "rollback's rewrite TOASTed the objects again"

# -- bad input: another engine's dialect, a reserved name
expect_rc 65 "postgresql recommendation, mysql dialect" "$PAGETUNE" ddl \
    --recommendation "$T/rec.json" --dialect mysql -o "$T/x.sql"
expect_contains "$ERR" "for engine 'postgresql', not dialect 'mysql'" "clear message"
expect_one_line_error "engine mismatch"
[ ! -e "$T/x.sql" ] && pass || fail "no output file on bad input"
# a table may be named pg_*: PostgreSQL reserves the prefix for schemas
# and table spaces only (issue 23)
expect_rc 0 "a table named pg_sessions" "$PAGETUNE" ddl --recommendation "$T/rec.json" \
    --dialect postgresql --table pg_sessions -o "$T/x.sql"
expect_contains "$(cat "$T/x.sql")" '"pg_sessions"' "create.sql names pg_sessions"

pg_sql -c "DROP TABLE $TB"
finish
