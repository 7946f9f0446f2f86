#!/usr/bin/env bash
# test_ident_postgresql.sh — issue 21 on the real PostgreSQL: --table is
# SCHEMA.TABLE end to end. With "order"."user" and a different public."user"
# (the one the default search_path finds), `advise --table order.user`
# once sampled "order"."user" but wrote ALTER TABLE "user" ... and
# VACUUM FULL "user": public."user". Here create.sql and rollback.sql name
# only "order"."user", and applying both (the rewrite uncommented too)
# leaves public."user" byte-identical: its rows' checksum, relfilenode,
# reloptions and attstorage. Also: `ddl --table public.verbose` works,
# `advise --table 'a$b'` runs to the end, quoted mixed case is kept, and a
# name the tool cannot handle is refused with 64 before any connection.
. "$(dirname "$0")/lib.sh"
need_env PT_PG_CONNECT PT_PG_PORT PT_PG_PASSWORD PT_PG_BIN
need_cmd python3

PSQL="$PT_PG_BIN/psql"
[ -x "$PSQL" ] || PSQL=psql
psql_file() { # FILE: run a script as a DBA would (stop at the first error)
    PGOPTIONS="-c client_min_messages=warning" PGPASSWORD="$PT_PG_PASSWORD" "$PSQL" -X -q \
        -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$PT_PG_PORT" -U postgres -d pagetune -f "$1"
}
cleanup() {
    pg_sql -c 'DROP SCHEMA IF EXISTS "order" CASCADE; DROP TABLE IF EXISTS public."user", public.verbose, public."a$b";
        ALTER SYSTEM RESET shared_buffers' >/dev/null 2>&1
    rm -rf "$T"
}
trap cleanup EXIT

# 192 md5 digests = 3072 incompressible bytes per object: the advice
# changes STORAGE (EXTENDED -> EXTERNAL) and maybe toast_tuple_target
rows() { # TABLE N SALT
    echo "INSERT INTO $1 (id, small) SELECT g, (SELECT decode(string_agg(md5(g || '$3' || i), ''), 'hex')
          FROM generate_series(1, 192) i) FROM generate_series(1, $2) g;"
}
pg_sql <<SQL
DROP SCHEMA IF EXISTS "order" CASCADE;
DROP TABLE IF EXISTS public."user", public.verbose, public."a\$b";
CREATE SCHEMA "order";
CREATE TABLE "order"."user" (id int PRIMARY KEY, small bytea);
CREATE TABLE public."user" (id int PRIMARY KEY, small bytea);
CREATE TABLE public.verbose (id int PRIMARY KEY, small bytea);
CREATE TABLE public."a\$b" (id int PRIMARY KEY, small bytea);
CREATE TABLE "order"."MixedCase" (id int PRIMARY KEY, small bytea);
$(rows '"order"."user"' 300 -o-)
$(rows 'public."user"' 250 -p-)
$(rows 'public."a$b"' 200 -a-)
$(rows '"order"."MixedCase"' 100 -m-)
SQL

# public."user", byte for byte: rows, file, options, column storage
bystander() {
    pg_sql -At <<'SQL'
SELECT 'rows=' || md5(string_agg(id || ':' || encode(small, 'hex'), ',' ORDER BY id)) FROM public."user";
SELECT 'filenode=' || pg_relation_filenode('public."user"'::regclass);
SELECT 'reloptions=' || coalesce(array_to_string(reloptions, ','), '') FROM pg_class WHERE oid = 'public."user"'::regclass;
SELECT 'attstorage=' || attstorage::text FROM pg_attribute WHERE attrelid = 'public."user"'::regclass AND attname = 'small';
SQL
}
target() {
    pg_sql -Atc "SELECT attstorage::text || ' ' || coalesce(array_to_string(reloptions, ','), '')
        FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
        WHERE a.attrelid = '\"order\".\"user\"'::regclass AND a.attname = 'small'"
}
BEFORE=$(bystander)
expect_eq "$(echo "$BEFORE" | wc -l)" 4 "public.\"user\" described"
TARGET0=$(target)

# ---- advise --table order.user: every statement names "order"."user" ----
ADV=$T/adv
expect_rc 0 "advise --table order.user" "$PAGETUNE" advise --connect "$PT_PG_CONNECT" \
    --table order.user --columns small --monitor-seconds 1 --validate none --out-dir "$ADV" -q
expect_py "sampled the table with its schema" \
    'd["source"]["table"] in ("order.user", "\"order\".\"user\"") and d["source"]["rows_scanned"] == 300' "$ADV/sizes.json"
C=$(cat "$ADV/create.sql")
R=$(cat "$ADV/rollback.sql")
expect_contains "$C" 'SET STORAGE EXTERNAL' "the advice changes the column's storage"
expect_contains "$C" 'ALTER TABLE "order"."user" ALTER COLUMN "small" SET STORAGE EXTERNAL;' "create.sql: the schema is written"
expect_contains "$C" 'VACUUM FULL "order"."user";' "create.sql: the rewrite names the schema"
expect_contains "$R" 'ALTER TABLE "order"."user" ALTER COLUMN "small" SET STORAGE' "rollback.sql: the schema is written"
for f in create.sql rollback.sql; do
    # every "user" of the script is "order"."user", statements and comments
    bare=$(grep -o '[^ (]*"user"' "$ADV/$f" | grep -v '^"order"\."user"$' || true)
    expect_eq "$bare" "" "$f names no other \"user\""
done

# apply both, the rewrite uncommented too, as a DBA would
sed 's/^-- VACUUM FULL /VACUUM FULL /' "$ADV/create.sql" >"$T/create.sql"
sed 's/^-- VACUUM FULL /VACUUM FULL /' "$ADV/rollback.sql" >"$T/rollback.sql"
expect_contains "$(cat "$T/create.sql")" $'\nVACUUM FULL "order"."user";' "the rewrite runs"
expect_rc 0 "apply create.sql (psql)" psql_file "$T/create.sql"
expect_eq "$(target | cut -c1)" e "create.sql changed \"order\".\"user\" (STORAGE EXTERNAL)"
expect_eq "$(bystander)" "$BEFORE" "create.sql left public.\"user\" byte-identical"
expect_rc 0 "apply rollback.sql (psql)" psql_file "$T/rollback.sql"
expect_eq "$(target)" "$TARGET0" "rollback.sql put \"order\".\"user\" back"
expect_eq "$(bystander)" "$BEFORE" "rollback.sql left public.\"user\" byte-identical"

# ---- ddl --table public.verbose: a schema and a keyword --------------------
expect_rc 0 "ddl --table public.verbose" "$PAGETUNE" ddl --recommendation "$ADV/recommendation.json" \
    --dialect postgresql --table public.verbose --column small --out-dir "$T/verbose" -q
expect_contains "$(cat "$T/verbose/create.sql")" 'ALTER TABLE "public"."verbose" ALTER COLUMN "small"' "public.verbose quoted part by part"
expect_rc 0 "apply it (psql)" psql_file "$T/verbose/create.sql"
expect_rc 0 "apply its rollback (psql)" psql_file "$T/verbose/rollback.sql"

# ---- advise --table 'a$b' runs to the end ----------------------------------
expect_rc 0 "advise --table 'a\$b'" "$PAGETUNE" advise --connect "$PT_PG_CONNECT" \
    --table 'a$b' --columns small --monitor-seconds 1 --validate none --out-dir "$T/ab" -q
expect_contains "$(cat "$T/ab/create.sql")" 'ALTER TABLE "a$b" ALTER COLUMN "small" SET STORAGE' 'a$b named in create.sql'
expect_rc 0 "apply the a\$b script (psql)" psql_file "$T/ab/create.sql"
expect_rc 0 "apply the a\$b rollback (psql)" psql_file "$T/ab/rollback.sql"

# ---- case: unquoted folds to lower case, quoted is kept --------------------
expect_rc 0 'sample --table "order"."MixedCase"' "$PAGETUNE" sample --connect "$PT_PG_CONNECT" \
    --table '"order"."MixedCase"' --columns small -o "$T/mixed.json" -q
expect_py "quoted mixed case sampled" 'd["source"]["rows_scanned"] == 100' "$T/mixed.json"
expect_rc 66 "sample --table order.MixedCase (folds to mixedcase)" "$PAGETUNE" sample \
    --connect "$PT_PG_CONNECT" --table order.MixedCase --columns small -o "$T/m2.json"
expect_rc 0 "ddl keeps the quoted case" "$PAGETUNE" ddl --recommendation "$ADV/recommendation.json" \
    --dialect postgresql --table '"order"."MixedCase"' --column small -o "$T/mixed.sql" -q
expect_contains "$(cat "$T/mixed.sql")" 'ALTER TABLE "order"."MixedCase"' "case kept in the DDL"

# ---- names the tool cannot handle: 64 naming --table, nothing sampled ------
# (a server that does not exist: the refusal comes before any connection)
NOSRV="Driver=PostgreSQL Unicode;Server=127.0.0.1;Port=1;Database=x;Uid=x;"
for bad in 'a.b.c' '' 'x.' '.x' '"open' '""' 'a b' $'a\tb'; do
    expect_rc 64 "advise --table '$bad'" "$PAGETUNE" advise --connect "$NOSRV" \
        --table "$bad" --validate none --out-dir "$T/bad" -q
    expect_contains "$ERR" "--table" "message names --table"
    [ ! -e "$T/bad" ] && pass || fail "nothing written for '$bad'"
    expect_rc 64 "sample --table '$bad'" "$PAGETUNE" sample --connect "$NOSRV" --table "$bad" -o "$T/bad.json"
    expect_rc 64 "ddl --table '$bad'" "$PAGETUNE" ddl --recommendation "$ADV/recommendation.json" \
        --dialect postgresql --table "$bad" -o "$T/bad.sql"
done
# over PostgreSQL's 63 bytes: refused once the engine is known, before sampling
LONG=t$(printf 'x%.0s' $(seq 63))
expect_rc 64 "64-byte name on PostgreSQL" "$PAGETUNE" advise --connect "$PT_PG_CONNECT" \
    --table "$LONG" --validate none --out-dir "$T/long" -q
expect_contains "$ERR" "--table" "message names --table"
expect_contains "$ERR" "63 bytes" "the limit is named"
[ ! -e "$T/long" ] && pass || fail "nothing written for a long name"
expect_rc 64 "ddl: 64-byte name for postgresql" "$PAGETUNE" ddl --recommendation "$ADV/recommendation.json" \
    --dialect postgresql --table "$LONG" -o "$T/long.sql"
finish
