#!/usr/bin/env bash
# test_rowformat_mariadb.sh — issue 23 on a real MariaDB: a table in
# ROW_FORMAT=COMPACT (then REDUNDANT) whose objects (300 random bytes) all
# stay in the row gets no ALTER TABLE ... ROW_FORMAT=DYNAMIC rebuild: the
# modelled gain is 0, below the 10 % a rebuild needs (rec_change_pays,
# docs/models.md #change-threshold). `advise --fail-on drift` exits 0 for
# it, the reasons say why, and no statement of create.sql changes nothing
# (no SET GLOBAL to the pool's own size).
. "$(dirname "$0")/lib.sh"
need_env PT_MARIADB_CONNECT PT_MARIADB_SOCK
need_cmd mariadb python3

TB=it_rowfmt_my
trap 'my_sql -e "DROP TABLE IF EXISTS $TB" >/dev/null 2>&1; rm -rf "$T"' EXIT
my_sql <<SQL
DROP TABLE IF EXISTS $TB;
CREATE TABLE $TB (id bigint PRIMARY KEY, obj varbinary(1000))
  ENGINE=InnoDB ROW_FORMAT=COMPACT;
INSERT INTO $TB SELECT seq, RANDOM_BYTES(300) FROM seq_1_to_2000;
ANALYZE TABLE $TB;
SQL

stmts() { grep -v '^[[:space:]]*--' "$1" | grep -v '^[[:space:]]*$'; }
for fmt in COMPACT REDUNDANT; do
    [ "$fmt" = COMPACT ] || my_sql -e "ALTER TABLE $TB ROW_FORMAT=$fmt"
    expect_eq "$(my_sql -N -e "SELECT ROW_FORMAT FROM information_schema.TABLES WHERE TABLE_SCHEMA = 'pagetune' AND TABLE_NAME = '$TB'")" \
        "$(echo "$fmt" | sed 's/^\(.\)\(.*\)/\1\L\2/')" "the table is $fmt"
    expect_rc 0 "$fmt: advise --fail-on drift exits 0" "$PAGETUNE" advise \
        --connect "$PT_MARIADB_CONNECT" --table "$TB" --columns obj \
        --monitor-seconds 1 --validate none --fail-on drift \
        --out-dir "$T/$fmt" -q
    R="$T/$fmt/recommendation.json"
    expect_py "$fmt: read from the server, kept" \
        'd["current"]["row_format"] == {"value": "'"$fmt"'", "source": "server"} and d["settings"]["row_format"] == "'"$fmt"'"' "$R"
    expect_py "$fmt: the reasons say why no rebuild" \
        'any(r.startswith("keep ROW_FORMAT='"$fmt"'") and "no rebuild" in r and "100.0% of the objects stay in the row" in r and "below the 10%" in r for r in d["reasons"])' "$R"
    C=$(stmts "$T/$fmt/create.sql")
    case "$C" in
    *ROW_FORMAT*) fail "$fmt: create.sql rebuilds the table: $C" ;;
    *) pass ;;
    esac
    case "$(stmts "$T/$fmt/rollback.sql")" in
    *ROW_FORMAT*) fail "$fmt: rollback.sql rebuilds the table" ;;
    *) pass ;;
    esac
    # the pool keeps its size: a SET GLOBAL to it would change nothing
    POOL=$(my_sql -N -e "SELECT @@innodb_buffer_pool_size")
    case "$C" in
    *"SET GLOBAL innodb_buffer_pool_size = $POOL;"*) fail "$fmt: create.sql sets the pool to its own size" ;;
    *) pass ;;
    esac
done
finish
