#!/usr/bin/env bash
# test_sample_row_postgresql.sh — issue 14, the measuring side, on a real
# PostgreSQL 15: `sample` measures the whole row beside the object (real
# extra columns: id bigint, created timestamp, usr varchar(64)), how well
# the objects compress, the table's live rows (full scan, or reltuples
# after ANALYZE, -1 before), refuses a timestamp or bigint --columns with
# 65, and reads a non-default prior state back exactly into `current`
# (toast_tuple_target=2500, STORAGE EXTERNAL, ALTER SYSTEM shared_buffers
# = 48MB, which SHOW does not show before a restart). Rows just under the
# inline limit get no TOAST change; rows just over get one.
. "$(dirname "$0")/lib.sh"
need_env PT_PG_CONNECT PT_PG_PORT PT_PG_PASSWORD
need_cmd psql python3

N=300
trap 'pg_sql -c "ALTER SYSTEM RESET shared_buffers" >/dev/null 2>&1; pg_sql -c "DROP TABLE IF EXISTS ev_under_pg, ev_over_pg, ev_state_pg, ev_zip_pg, ev_fresh_pg" >/dev/null 2>&1; rm -rf "$T"' EXIT
# incompressible objects of $2..$3 bytes (md5 digests), in table $1
mk() {
    pg_sql <<SQL
DROP TABLE IF EXISTS $1;
CREATE TABLE $1 (id bigint, created timestamp, usr varchar(64), object bytea);
INSERT INTO $1 SELECT g, now(), 'user' || g,
  substr((SELECT decode(string_agg(md5(g || '-' || i), ''), 'hex')
          FROM generate_series(1, 200) i), 1, $2 + (g * 7919) % ($3 - $2 + 1))
FROM generate_series(1, $N) g;
SQL
}
mk ev_under_pg 1850 1950
mk ev_over_pg 2050 2150
toast_size() { pg_sql -Atc "SELECT pg_relation_size(reltoastrelid) FROM pg_class WHERE relname = '$1'"; }
expect_eq "$(toast_size ev_under_pg)" 0 "1850-1950 byte objects with the extra columns stay in the heap"
[ "$(toast_size ev_over_pg)" -gt 0 ] && pass || fail "2050-2150 byte objects are TOASTed"

# -- the whole row, measured: compare with the server's own per-row figure
expect_rc 0 "sample under" "$PAGETUNE" sample --connect "$PT_PG_CONNECT" --table ev_under_pg --columns object -o "$T/under.json" -q
# the rest of the row against the heap's own row, pg_column_size(t.*)
# (exact for these inline rows): never under it, over by at most the
# 3-byte padding bound, and read without touching TOAST
WANT=$(pg_sql -Atc "SELECT min(pg_column_size(t.*) - 24 - pg_column_size(object)) || ' ' || max(pg_column_size(t.*) - 24 - pg_column_size(object)) || ' ' || sum(pg_column_size(t.*) - 24) FROM ev_under_pg t")
read -r RMIN RMAX RSUM <<<"$WANT"
expect_py "row measured: rest of the row within 0..3 bytes over the heap's" \
    'd["row_source"] == "measured" and 0 <= d["row_fixed_bytes"]["min"] - '"$RMIN"' <= 3 and 0 <= d["row_fixed_bytes"]["max"] - '"$RMAX"' <= 3 and 0 <= round(d["row_bytes"]["mean"] * d["row_bytes"]["count"]) - '"$RSUM"' <= 3 * '"$N"' and "no TOAST read" in d["row_basis"]' "$T/under.json"
expect_py "incompressible objects: compress_ratio >= 0.95" '0.95 <= d["compress_ratio"] <= 1.01' "$T/under.json"
expect_py "live rows counted by the full scan" 'd["live_rows"] == {"value": '"$N"', "source": "sample: a full scan counted every row"}' "$T/under.json"

# -- under the limit: no TOAST change, and the advice says the row was measured
expect_rc 0 "recommend under" "$PAGETUNE" recommend --engine postgresql --sizes "$T/under.json" --json -o "$T/rec_under.json" -q
expect_py "under: no toast_tuple_target change" 'not d["inline_knob"]["evaluated"] or not d["inline_knob"]["pays"]' "$T/rec_under.json"
expect_py "under: every object inline at 8K" 'd["candidates"][0]["inline_fraction"] == 1' "$T/rec_under.json"
expect_py "the reasons name the measured row" 'any("measured per row by sample" in r for r in d["reasons"])' "$T/rec_under.json"
expect_rc 0 "sample over" "$PAGETUNE" sample --connect "$PT_PG_CONNECT" --table ev_over_pg --columns object -o "$T/over.json" -q
expect_rc 0 "recommend over" "$PAGETUNE" recommend --engine postgresql --sizes "$T/over.json" --json -o "$T/rec_over.json" -q
expect_py "over: toast_tuple_target raised" 'd["inline_knob"]["pays"] and d["settings"]["toast_tuple_target"] > 2032' "$T/rec_over.json"

# -- compressible objects compress
pg_sql <<SQL
DROP TABLE IF EXISTS ev_zip_pg;
CREATE TABLE ev_zip_pg (id bigint, object bytea);
INSERT INTO ev_zip_pg SELECT g, convert_to(repeat('abcd', 1500), 'UTF8') FROM generate_series(1, 50) g;
SQL
expect_rc 0 "sample compressible" "$PAGETUNE" sample --connect "$PT_PG_CONNECT" --table ev_zip_pg --columns object -o "$T/zip.json" -q
expect_py "compressible objects: compress_ratio < 0.5" 'd["compress_ratio"] < 0.5' "$T/zip.json"

# -- the wrong column type: 65 naming the column and the type needed
expect_rc 65 "timestamp column" "$PAGETUNE" sample --connect "$PT_PG_CONNECT" --table ev_under_pg --columns created
expect_one_line_error "timestamp column"
expect_contains "$ERR" "column 'created' is timestamp" "names the column and its type"
expect_contains "$ERR" "bytea" "names the type pagetune needs"
expect_rc 65 "bigint column" "$PAGETUNE" sample --connect "$PT_PG_CONNECT" --table ev_under_pg --columns object,id
expect_contains "$ERR" "column 'id' is int8" "bigint refused"

# -- live rows of a sampled run: reltuples, -1 before any ANALYZE
pg_sql <<SQL
DROP TABLE IF EXISTS ev_fresh_pg;
CREATE TABLE ev_fresh_pg (id bigint, object bytea);
INSERT INTO ev_fresh_pg SELECT g, '\x00ff'::bytea FROM generate_series(1, 2000) g;
SQL
expect_rc 0 "sample --rows before ANALYZE" "$PAGETUNE" sample --connect "$PT_PG_CONNECT" --table ev_fresh_pg --columns object --rows 100 -o "$T/fresh.json" -q
expect_py "never analyzed: -1, said so" 'd["live_rows"]["value"] == -1 and "never analyzed" in d["live_rows"]["source"]' "$T/fresh.json"
pg_sql -c "ANALYZE ev_fresh_pg"
expect_rc 0 "sample --rows after ANALYZE" "$PAGETUNE" sample --connect "$PT_PG_CONNECT" --table ev_fresh_pg --columns object --rows 100 -o "$T/fresh2.json" -q
expect_py "after ANALYZE: reltuples within 5 %" 'abs(d["live_rows"]["value"] - 2000) <= 100 and "pg_class.reltuples" in d["live_rows"]["source"]' "$T/fresh2.json"
expect_rc 0 "monitor" "$PAGETUNE" monitor --connect "$PT_PG_CONNECT" --count 1 --json -o "$T/mon.json" -q
expect_py "monitor.json: the table's reltuples beside its counters" \
    'abs([t for t in d["tables"] if t["name"] == "public.ev_fresh_pg"][0]["RELTUPLES"] - 2000) <= 100' "$T/mon.json"
expect_rc 0 "recommend --monitor" "$PAGETUNE" recommend --engine postgresql --sizes "$T/fresh2.json" --monitor "$T/mon.json" --json -o "$T/rec_mon.json" -q
expect_py "recommend --monitor: live rows within 5 % of the truth, source named" \
    'abs(d["model"]["sessions"] - 2000) <= 100 and "pg_class.reltuples" in d["model"]["sessions_basis"]' "$T/rec_mon.json"

# -- a non-default prior state, read back exactly
pg_sql <<SQL
DROP TABLE IF EXISTS ev_state_pg;
CREATE TABLE ev_state_pg (id bigint, created timestamp, usr varchar(64), object bytea);
ALTER TABLE ev_state_pg SET (toast_tuple_target = 2500);
ALTER TABLE ev_state_pg ALTER COLUMN object SET STORAGE EXTERNAL;
INSERT INTO ev_state_pg SELECT g, now(), 'u', '\x0102'::bytea FROM generate_series(1, 10) g;
ALTER SYSTEM SET shared_buffers = '48MB';
SQL
SB=$(pg_sql -Atc "SELECT pg_size_bytes(current_setting('shared_buffers'))")
expect_rc 0 "sample the prior state" "$PAGETUNE" sample --connect "$PT_PG_CONNECT" --table ev_state_pg --columns object -o "$T/state.json" -q
expect_py "current: toast_tuple_target, storage, shared_buffers (running and ALTER SYSTEM)" \
    'd["current"]["toast_tuple_target"] == {"value": 2500, "source": "server"} and d["current"]["storage"] == {"value": "EXTERNAL", "source": "server"} and d["current"]["shared_buffers_auto_conf"] == {"value": 50331648, "source": "server"} and d["current"]["shared_buffers"]["value"] == '"$SB"' and d["current"]["page_size"]["value"] == 8192' "$T/state.json"
expect_rc 0 "monitor the prior state" "$PAGETUNE" monitor --connect "$PT_PG_CONNECT" --count 1 --json -o "$T/mon_state.json" -q
expect_py "monitor.json current: the ALTER SYSTEM value" 'd["current"]["shared_buffers_auto_conf"] == {"value": 50331648, "source": "server"} and d["current"]["page_size"] == 8192' "$T/mon_state.json"
pg_sql -c "ALTER SYSTEM RESET shared_buffers"
expect_rc 0 "sample without a prior setting" "$PAGETUNE" sample --connect "$PT_PG_CONNECT" --table ev_under_pg --columns object -o "$T/nostate.json" -q
expect_py "no reloption, no ALTER SYSTEM line: null; the column's default storage" \
    'd["current"]["toast_tuple_target"]["value"] is None and d["current"]["shared_buffers_auto_conf"]["value"] is None and d["current"]["storage"]["value"] == "EXTENDED"' "$T/nostate.json"
finish
