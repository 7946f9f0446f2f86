#!/usr/bin/env bash
# test_ident_mariadb.sh — issue 21 on the real MariaDB: --table DB.TABLE is
# written `db`.`table` in every statement. Two databases hold a table of
# the same name: it_id_db.it_id_t (advised) and pagetune.it_id_t (the
# connection's database, where a bare `it_id_t` would land). create.sql and
# rollback.sql name only `it_id_db`.`it_id_t`; applying both leaves
# pagetune.it_id_t as it was (CHECKSUM TABLE, SHOW CREATE TABLE). A name the
# tool cannot handle is refused with 64 before any connection; a name over
# MariaDB's 64 characters before sampling.
. "$(dirname "$0")/lib.sh"
need_env PT_MARIADB_CONNECT PT_MARIADB_SOCK
need_cmd mariadb python3

ROOT="Driver=MariaDB Unicode;Socket=$PT_MARIADB_SOCK;Database=pagetune;Uid=root;"
cleanup() {
    my_sql -e "DROP DATABASE IF EXISTS it_id_db; DROP TABLE IF EXISTS pagetune.it_id_t" >/dev/null 2>&1
    rm -rf "$T"
}
trap cleanup EXIT
my_sql <<'SQL'
DROP DATABASE IF EXISTS it_id_db;
DROP TABLE IF EXISTS pagetune.it_id_t;
CREATE DATABASE it_id_db;
GRANT ALL ON it_id_db.* TO 'pagetune'@'localhost';
GRANT ALL ON it_id_db.* TO 'pagetune'@'127.0.0.1';
CREATE TABLE it_id_db.it_id_t (ID int PRIMARY KEY, SMALL mediumblob) ENGINE=InnoDB ROW_FORMAT=COMPACT;
CREATE TABLE pagetune.it_id_t (ID int PRIMARY KEY, SMALL mediumblob) ENGINE=InnoDB ROW_FORMAT=COMPACT;
INSERT INTO it_id_db.it_id_t SELECT seq, RANDOM_BYTES(1024) FROM seq_1_to_300;
INSERT INTO pagetune.it_id_t SELECT seq, RANDOM_BYTES(900) FROM seq_1_to_250;
SQL

bystander() {
    my_sql -N -e "CHECKSUM TABLE pagetune.it_id_t EXTENDED; SHOW CREATE TABLE pagetune.it_id_t;
        SELECT ROW_FORMAT FROM information_schema.TABLES WHERE TABLE_SCHEMA = 'pagetune' AND TABLE_NAME = 'it_id_t'"
}
target_format() {
    my_sql -N -e "SELECT ROW_FORMAT FROM information_schema.TABLES WHERE TABLE_SCHEMA = 'it_id_db' AND TABLE_NAME = 'it_id_t'"
}
BEFORE=$(bystander)
expect_contains "$BEFORE" "ROW_FORMAT=COMPACT" "bystander described"

ADV=$T/adv
expect_rc 0 "advise --table it_id_db.it_id_t" "$PAGETUNE" advise --connect "$PT_MARIADB_CONNECT" \
    --table it_id_db.it_id_t --columns SMALL --monitor-seconds 1 --validate none --out-dir "$ADV" -q
expect_py "sampled it_id_db.it_id_t" 'd["source"]["rows_scanned"] == 300' "$ADV/sizes.json"
# 1 KB objects stay in the row, where COMPACT and DYNAMIC store a row
# alike: advise keeps COMPACT (issue 23) and writes no ALTER TABLE for it
expect_py "advise keeps COMPACT: the rebuild does not pay" \
    'd["settings"]["row_format"] == "COMPACT"' "$ADV/recommendation.json"
expect_eq "$(grep -c '^ALTER TABLE' "$ADV/create.sql")" 0 "advise's create.sql rebuilds nothing"
# the DBA who wants DYNAMIC anyway sets it in the recommendation, and ddl
# writes the statements for the same --table DB.TABLE
python3 - "$ADV/recommendation.json" "$T/rec.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); d["settings"]["row_format"] = "DYNAMIC"
json.dump(d, open(sys.argv[2], "w"))
PY
expect_rc 0 "ddl --table it_id_db.it_id_t" "$PAGETUNE" ddl --recommendation "$T/rec.json" \
    --dialect mysql --table it_id_db.it_id_t --out-dir "$T/ddl" -q
ADV=$T/ddl
C=$(cat "$ADV/create.sql")
R=$(cat "$ADV/rollback.sql")
expect_contains "$C" 'ALTER TABLE `it_id_db`.`it_id_t` ROW_FORMAT=DYNAMIC;' "create.sql names the database"
expect_contains "$R" 'ALTER TABLE `it_id_db`.`it_id_t` ROW_FORMAT=' "rollback.sql names the database"
for f in create.sql rollback.sql; do
    bare=$(grep -o '[^ (]*`it_id_t`' "$ADV/$f" | grep -v '^`it_id_db`\.`it_id_t`$' || true)
    expect_eq "$bare" "" "$f names no other it_id_t"
done
# applied in the connection's database pagetune, where a bare name lands
expect_rc 0 "apply create.sql" "$PT_SQLEXEC" "$ROOT" script "$ADV/create.sql"
expect_eq "$(target_format)" Dynamic "create.sql changed it_id_db.it_id_t"
expect_eq "$(bystander)" "$BEFORE" "create.sql left pagetune.it_id_t as it was"
expect_rc 0 "apply rollback.sql" "$PT_SQLEXEC" "$ROOT" script "$ADV/rollback.sql"
expect_eq "$(target_format)" Compact "rollback.sql put it_id_db.it_id_t back"
expect_eq "$(bystander)" "$BEFORE" "rollback.sql left pagetune.it_id_t as it was"

# quoted with backticks, as MariaDB writes it: the same table
expect_rc 0 'sample --table `it_id_db`.`it_id_t`' "$PAGETUNE" sample --connect "$PT_MARIADB_CONNECT" \
    --table '`it_id_db`.`it_id_t`' --columns SMALL -o "$T/q.json" -q
expect_py "the same rows" 'd["source"]["rows_scanned"] == 300' "$T/q.json"

# refused: 64 naming --table, before any connection
NOSRV="Driver=MariaDB Unicode;Server=127.0.0.1;Port=1;Database=x;Uid=x;"
for bad in 'a.b.c' 'x.' '`open' 'x`y'; do
    expect_rc 64 "advise --table '$bad'" "$PAGETUNE" advise --connect "$NOSRV" \
        --table "$bad" --validate none --out-dir "$T/bad" -q
    expect_contains "$ERR" "--table" "message names --table"
    [ ! -e "$T/bad" ] && pass || fail "nothing written for '$bad'"
done
LONG=t$(printf 'x%.0s' $(seq 64))
expect_rc 64 "65-character name on MariaDB" "$PAGETUNE" sample --connect "$PT_MARIADB_CONNECT" \
    --table "$LONG" -o "$T/long.json"
expect_contains "$ERR" "64 characters" "the limit is named"
finish
