#!/usr/bin/env bash
# test_keep_change_postgresql.sh — issue 14's acceptance on the integration
# PostgreSQL, through `pagetune advise` and the real ODBC driver, on tables
# with real extra columns (id bigint, created timestamp, user varchar(64))
# beside the object column obj (incompressible bytes):
#   - rows just under the TOAST threshold (2032 B, docs/engines.md) keep
#     the default toast_tuple_target, and the reasons say the rest of the
#     row was measured; rows just over get the raised target; tiny objects
#     never get a rewrite (VACUUM FULL);
#   - the create.sql of `advise --columns obj` applies with
#     psql -v ON_ERROR_STOP=1, and its rollback.sql restores the table's
#     reloptions, the column's storage and postgresql.auto.conf;
#   - `recommend --monitor` reports the table's live rows within 5 % of the
#     truth (a 10 % sample, so the count is the catalog's) and names the
#     source.
. "$(dirname "$0")/lib.sh"
need_env PT_PG_CONNECT PT_PG_PORT PT_PG_PASSWORD
need_cmd psql python3

# make_table NAME LO SPAN N: objects of LO + (i * 7919) % SPAN random bytes
make_table() {
    pg_sql <<SQL
DROP TABLE IF EXISTS $1;
CREATE TABLE $1 (id bigint PRIMARY KEY,
  created timestamp NOT NULL DEFAULT now(), "user" varchar(64) NOT NULL,
  obj bytea);
INSERT INTO $1 SELECT g, now() - g * interval '1 second', 'user' || g,
  (SELECT decode(string_agg(md5(g || '-' || i), ''), 'hex')
   FROM generate_series(1, ($2 + (g * 7919) % $3) / 16) i)
FROM generate_series(1, $4) g;
ANALYZE $1;
SQL
}

# advise_on NAME: advise on NAME's obj column into $T/NAME
advise_on() {
    expect_rc 0 "advise on $1" "$PAGETUNE" advise --connect "$PT_PG_CONNECT" \
        --table "$1" --columns obj --monitor-seconds 1 --validate none \
        --out-dir "$T/$1" --json -q
}

# rows of 1,790..1,940 B (objects 1,760..1,904 B): inline at the default
make_table it_kc_under 1760 160 2000
advise_on it_kc_under
R="$T/it_kc_under/recommendation.json"
expect_py "under: rest of the row measured, not the profile's 200 bytes" \
    'any(r.startswith("rest of the row:") and "measured per row by sample" in r for r in d["reasons"])' "$R"
expect_py "under: keep the default toast_tuple_target, no rewrite" \
    'd["settings"]["toast_tuple_target"] == 2032 and d["settings"]["rewrite"] == "no"' "$R"
expect_py "under: the reason says keep, and why" \
    'any(r.startswith("keep 8K pages") and "the default toast_tuple_target" in r for r in d["reasons"]) and any("no TOAST change is needed" in r for r in d["reasons"])' "$R"
# the statements, not the comments (a statement that changes nothing is
# commented out)
stmts() { grep -v '^--' "$1"; }
C=$(stmts "$T/it_kc_under/create.sql")
case "$C" in *"toast_tuple_target ="*|*"VACUUM FULL"*) fail "under: create.sql rewrites: $C" ;; *) pass ;; esac

# objects of 2,100..2,259 B: every one TOASTed at the default
make_table it_kc_over 2100 160 2000
advise_on it_kc_over
R="$T/it_kc_over/recommendation.json"
expect_py "over: toast_tuple_target raised so the objects stay in the row" \
    '2032 < d["settings"]["toast_tuple_target"] <= 8160 and d["settings"]["rewrite"] == "yes"' "$R"
expect_py "over: the reason gives the numbers" \
    'any("raise toast_tuple_target" in r and "at the default 2032: 0.0%" in r for r in d["reasons"])' "$R"
C=$(cat "$T/it_kc_over/create.sql")
expect_contains "$C" "ALTER TABLE \"it_kc_over\" SET (toast_tuple_target =" "over: create.sql raises the target"
expect_contains "$C" "VACUUM FULL \"it_kc_over\"" "over: create.sql rewrites the table"

# tiny objects: nothing to gain, never a rewrite (PostgreSQL has no other
# page size, so no new instance either)
make_table it_kc_tiny 100 100 2000
advise_on it_kc_tiny
R="$T/it_kc_tiny/recommendation.json"
expect_py "tiny: no rewrite, the page size kept" \
    'd["settings"]["rewrite"] == "no" and d["page_size"] == 8192 and d["settings"]["toast_tuple_target"] == 2032' "$R"
case "$(stmts "$T/it_kc_tiny/create.sql")" in
*"VACUUM FULL"*|*"toast_tuple_target ="*) fail "tiny: create.sql rewrites" ;;
*) pass ;;
esac

# ---- create.sql of advise --columns obj applies with ON_ERROR_STOP --------
# state() prints what rollback.sql must restore
state() {
    pg_sql -At <<'SQL'
SELECT coalesce(array_to_string(reloptions, ','), '-') FROM pg_class WHERE relname = 'it_kc_over';
SELECT attstorage FROM pg_attribute WHERE attrelid = 'it_kc_over'::regclass AND attname = 'obj';
SELECT name || '=' || setting FROM pg_file_settings WHERE sourcefile LIKE '%postgresql.auto.conf' ORDER BY name;
SQL
}
BEFORE=$(state)
expect_rc 0 "psql -v ON_ERROR_STOP=1 -f create.sql" pg_sql -f "$T/it_kc_over/create.sql"
AFTER=$(state)
expect_contains "$AFTER" "toast_tuple_target=" "create.sql set the target"
expect_eq "$(echo "$AFTER" | sed -n 2p)" e "create.sql set STORAGE EXTERNAL on obj"
expect_rc 0 "psql -v ON_ERROR_STOP=1 -f rollback.sql" pg_sql -f "$T/it_kc_over/rollback.sql"
expect_eq "$(state)" "$BEFORE" "rollback.sql restores reloptions, attstorage, auto.conf"

# ---- live rows: catalog statistics after ANALYZE, within 5 % ---------------
make_table it_kc_live 100 400 20000
expect_rc 0 "10% sample" "$PAGETUNE" sample --connect "$PT_PG_CONNECT" \
    --table it_kc_live --columns obj --percent 10 -o "$T/live.sizes.json" -q
expect_py "the sample saw about a tenth" 'd["count"] < 4000' "$T/live.sizes.json"
expect_rc 0 "monitor" "$PAGETUNE" monitor --connect "$PT_PG_CONNECT" --interval 1 \
    --count 2 -o "$T/live.mon.json" -q
expect_rc 0 "recommend --monitor" "$PAGETUNE" recommend --engine postgresql \
    --sizes "$T/live.sizes.json" --monitor "$T/live.mon.json" -o "$T/live.rec.json" -q
TRUE_ROWS=$(pg_sql -At -c "SELECT count(*) FROM it_kc_live")
expect_py "live rows within 5% of count(*) = $TRUE_ROWS" \
    'abs(d["model"]["sessions"] - '"$TRUE_ROWS"') <= 0.05 * '"$TRUE_ROWS" "$T/live.rec.json"
expect_py "the source is named" \
    '"pg_class.reltuples" in d["model"]["sessions_basis"] and any(("live sessions (pg_class.reltuples") in r for r in d["reasons"])' "$T/live.rec.json"

pg_sql -c "DROP TABLE it_kc_under, it_kc_over, it_kc_tiny, it_kc_live"
finish
