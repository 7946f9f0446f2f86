#!/usr/bin/env bash
# test_ddl_keywords.sh — issue 13 on real servers: tables whose names are
# keywords. `ddl --dialect postgresql --table verbose` once wrote
# `VACUUM FULL verbose;`, which vacuums every table of the database, the
# catalogs included. Here the generated create.sql and rollback.sql for
# tables named verbose, analyze and freeze (PostgreSQL 15) and select and
# analyze (MariaDB, reserved words) are applied through ODBC
# (tests/tools/pt_sqlexec), and only the named table may change: the
# relfilenode of every other table and of the catalogs (a VACUUM FULL
# rewrites a relation into a new file), the row format of the other
# MariaDB tables. Both servers are private instances this test starts and
# stops: a regression would rewrite a whole database, not the shared one.
. "$(dirname "$0")/lib.sh"
need_env PT_PG_CONNECT PT_MARIADB_CONNECT PT_SQLEXEC
need_cmd psql mariadb python3

SRV_PG=$(mktemp -d /tmp/pagetune-it-kw-pg.XXXXXX)
SRV_MY=$(mktemp -d /tmp/pagetune-it-kw-my.XXXXXX)
chmod 755 "$SRV_PG" "$SRV_MY"
cleanup() {
    for d in "$SRV_PG" "$SRV_MY"; do
        bash "$PT_SOURCE_DIR/scripts/test-servers.sh" stop "$d" >/dev/null 2>&1 || true
        rm -rf "$d"
    done
    rm -rf "$T"
}
trap cleanup EXIT
for s in pg:"$SRV_PG" mariadb:"$SRV_MY"; do
    if ! PT_SERVERS=${s%%:*} bash "$PT_SOURCE_DIR/scripts/test-servers.sh" start "${s#*:}" 2>"$T/srv.err" >/dev/null; then
        fail "private ${s%%:*} server did not start: $(cat "$T/srv.err")"
        finish
    fi
done
# from here on pg_sql, my_sql and the connection strings name the private
# instances
# shellcheck disable=SC1091
. "$SRV_PG/servers.env"
# shellcheck disable=SC1091
. "$SRV_MY/servers.env"

# ---- PostgreSQL: VERBOSE, ANALYZE, FREEZE are options of VACUUM ----------
PG_TABLES="verbose analyze freeze it_kw_plain"
for t in $PG_TABLES; do
    pg_sql -c "CREATE TABLE \"$t\" (id int PRIMARY KEY, small bytea);
        INSERT INTO \"$t\" SELECT g, decode(md5(g::text), 'hex') FROM generate_series(1, 200) g;"
done
# filenodes: the four tables and catalogs a database-wide VACUUM FULL
# rewrites (pg_class is a mapped catalog: pg_relation_filenode reads the map)
filenodes() {
    pg_sql -Atc "SELECT relname || '=' || pg_relation_filenode(oid) FROM pg_class
        WHERE relname IN ('verbose', 'analyze', 'freeze', 'it_kw_plain',
                          'pg_class', 'pg_attribute', 'pg_statistic', 'pg_description')
        ORDER BY relname"
}
reloptions() { # TABLE
    pg_sql -Atc "SELECT coalesce(array_to_string(reloptions, ','), '') FROM pg_class WHERE relname = '$1'"
}
expect_rc 0 "recommend (postgresql)" "$PAGETUNE" recommend --engine postgresql \
    --sizes "$PT_SOURCE_DIR/examples/sessions-mixed.txt" --memory 512M --json -o "$T/pg-rec.json" -q
expect_py "the recommendation rewrites the table" 'd["settings"]["rewrite"] == "yes"' "$T/pg-rec.json"
TTT=$(pyjson "$T/pg-rec.json" 'd["settings"]["toast_tuple_target"]')

for kw in verbose analyze freeze; do
    out=$T/pg-$kw
    expect_rc 0 "ddl --table $kw" "$PAGETUNE" ddl --recommendation "$T/pg-rec.json" \
        --dialect postgresql --table "$kw" --out-dir "$out" -q
    expect_contains "$(cat "$out/create.sql")" "VACUUM FULL \"$kw\";" "create.sql vacuums \"$kw\" only"
    before=$(filenodes)
    expect_eq "$(echo "$before" | wc -l)" 8 "eight relations found"
    expect_rc 0 "apply create.sql for $kw" "$PT_SQLEXEC" "$PT_PG_CONNECT" script "$out/create.sql"
    after=$(filenodes)
    # the named table was rewritten, nothing else was
    changed=$(diff <(echo "$before") <(echo "$after") | grep '^>' | sed 's/^> //; s/=.*//' | tr '\n' ' ')
    expect_eq "$changed" "$kw " "only $kw got a new relfilenode (create.sql)"
    expect_eq "$(reloptions "$kw")" "toast_tuple_target=$TTT" "$kw has toast_tuple_target"
    for o in $PG_TABLES; do
        [ "$o" = "$kw" ] && continue
        expect_eq "$(reloptions "$o")" "" "$o untouched by the DDL for $kw"
    done
    before=$after
    expect_rc 0 "apply rollback.sql for $kw" "$PT_SQLEXEC" "$PT_PG_CONNECT" script "$out/rollback.sql"
    after=$(filenodes)
    changed=$(diff <(echo "$before") <(echo "$after") | grep '^>' | sed 's/^> //; s/=.*//' | tr '\n' ' ')
    expect_eq "$changed" "$kw " "only $kw got a new relfilenode (rollback.sql)"
    expect_eq "$(reloptions "$kw")" "" "rollback reset $kw"
done
expect_eq "$(pg_sql -Atc "SELECT count(*) FROM pg_file_settings WHERE name = 'shared_buffers' AND sourcefile LIKE '%postgresql.auto.conf'")" \
    0 "rollback reset shared_buffers"

# ---- MariaDB: reserved words as table names (case kept) ------------------
ROOT="Driver=MariaDB Unicode;Socket=$PT_MARIADB_SOCK;Database=pagetune;Uid=root;"
MY_TABLES="select analyze it_kw_plain"
for t in $MY_TABLES; do
    my_sql -e "CREATE TABLE \`$t\` (ID int PRIMARY KEY, SMALL mediumblob) ENGINE=InnoDB ROW_FORMAT=COMPACT;
        INSERT INTO \`$t\` SELECT seq, RANDOM_BYTES(200) FROM seq_1_to_200;"
done
row_formats() {
    my_sql -N -e "SELECT CONCAT(TABLE_NAME, '=', ROW_FORMAT) FROM information_schema.TABLES
        WHERE TABLE_SCHEMA = 'pagetune' ORDER BY TABLE_NAME"
}
expect_rc 0 "recommend (mysql)" "$PAGETUNE" recommend --engine mysql \
    --sizes "$PT_SOURCE_DIR/examples/sessions-mixed.txt" --memory 512M --json -o "$T/my-rec.json" -q
for kw in select analyze; do
    out=$T/my-$kw
    expect_rc 0 "ddl --dialect mysql --table $kw" "$PAGETUNE" ddl --recommendation "$T/my-rec.json" \
        --dialect mysql --table "$kw" --out-dir "$out" -q
    expect_contains "$(cat "$out/create.sql")" "ALTER TABLE \`$kw\` ROW_FORMAT=DYNAMIC;" "create.sql quotes $kw"
    before=$(row_formats)
    expect_rc 0 "apply create.sql for $kw" "$PT_SQLEXEC" "$ROOT" script "$out/create.sql"
    after=$(row_formats)
    changed=$(diff <(echo "$before") <(echo "$after") | grep '^>' | sed 's/^> //' | tr '\n' ' ')
    expect_eq "$changed" "$kw=Dynamic " "only $kw changed its row format"
    expect_rc 0 "apply rollback.sql for $kw" "$PT_SQLEXEC" "$ROOT" script "$out/rollback.sql"
    for o in $MY_TABLES; do
        [ "$o" = "$kw" ] && continue
        expect_eq "$(my_sql -N -e "SELECT ROW_FORMAT FROM information_schema.TABLES
            WHERE TABLE_SCHEMA = 'pagetune' AND TABLE_NAME = '$o'")" Compact "$o untouched by the DDL for $kw"
    done
    my_sql -e "ALTER TABLE \`$kw\` ROW_FORMAT=COMPACT"
done
finish
