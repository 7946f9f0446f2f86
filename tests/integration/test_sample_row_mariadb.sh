#!/usr/bin/env bash
# test_sample_row_mariadb.sh — issue 14, the measuring side, on a real
# MariaDB 10.11: `sample` measures the rest of the row per row (id bigint,
# created timestamp, usr varchar(64) beside a BLOB) exactly as the InnoDB
# COMPACT record format counts it, refuses a timestamp --columns with 65,
# reads the prior state back (innodb_buffer_pool_size 64M, the table's
# ROW_FORMAT=COMPACT, innodb_page_size), and rows of 7930..8050 bytes —
# inline at 16K — keep 16K instead of the profile guess's 32K.
. "$(dirname "$0")/lib.sh"
need_env PT_MARIADB_CONNECT PT_MARIADB_SOCK
need_cmd mariadb python3

N=200
POOL0=$(my_sql -N -e "SELECT @@innodb_buffer_pool_size")
trap 'my_sql -e "SET GLOBAL innodb_buffer_pool_size = $POOL0; DROP TABLE IF EXISTS ev_row_my, ev_near_my" >/dev/null 2>&1; rm -rf "$T"' EXIT
my_sql <<SQL
SET GLOBAL innodb_buffer_pool_size = 67108864;
DROP TABLE IF EXISTS ev_row_my, ev_near_my;
CREATE TABLE ev_row_my (id bigint NOT NULL PRIMARY KEY, created timestamp NULL,
  usr varchar(64), object blob) ENGINE=InnoDB ROW_FORMAT=COMPACT;
INSERT INTO ev_row_my SELECT seq, IF(seq % 4 = 0, NULL, now()), CONCAT('user', seq),
  RANDOM_BYTES(100 + seq) FROM seq_1_to_$N;
CREATE TABLE ev_near_my (id bigint NOT NULL PRIMARY KEY, created timestamp NULL,
  usr varchar(64), object mediumblob) ENGINE=InnoDB;
INSERT INTO ev_near_my SELECT seq, now(), CONCAT('user', seq),
  REPEAT(RANDOM_BYTES(10), 793 + seq % 13) FROM seq_1_to_$N;
SQL
# the pool resizes in the background: wait for the value asked
wait_value 67108864 my_sql -N -e "SELECT @@innodb_buffer_pool_size" ||
    fail "the pool never reached 64M: $(my_sql -N -e "SELECT @@innodb_buffer_pool_size")"

expect_rc 0 "sample" "$PAGETUNE" sample --connect "$PT_MARIADB_CONNECT" --table ev_row_my --columns object -o "$T/row.json" -q
# the rest of each row: bigint 8, timestamp 4 (0 when NULL), usr's bytes + a
# 1-byte length, a 1-byte NULL bitmap (3 nullable columns)
WANT=$(my_sql -N -e "SELECT MIN(r), MAX(r), SUM(r) FROM (SELECT 8 + IF(created IS NULL, 0, 4) + LENGTH(usr) + 1 + 1 AS r FROM ev_row_my) x")
read -r RMIN RMAX RSUM <<<"$WANT"
expect_py "rest of the row as the record format counts it" \
    'd["row_source"] == "measured" and d["row_fixed_bytes"]["min"] == '"$RMIN"' and d["row_fixed_bytes"]["max"] == '"$RMAX"' and abs(d["row_fixed_bytes"]["mean"] * d["count"] - '"$RSUM"') < 0.01 and "InnoDB" in d["row_basis"]' "$T/row.json"
expect_py "row bytes = rest + object" 'abs(d["row_bytes"]["mean"] - d["row_fixed_bytes"]["mean"] - d["mean"]) < 0.01' "$T/row.json"
expect_py "no compress_ratio where the engine does not compress" '"compress_ratio" not in d' "$T/row.json"
expect_py "current: pool 64M, ROW_FORMAT=COMPACT, page size" \
    'd["current"]["innodb_buffer_pool_size"] == {"value": 67108864, "source": "server"} and d["current"]["row_format"] == {"value": "COMPACT", "source": "server"} and d["current"]["page_size"] == {"value": '"$(my_sql -N -e "SELECT @@innodb_page_size")"', "source": "server"}' "$T/row.json"
expect_py "live rows counted" 'd["live_rows"]["value"] == '"$N" "$T/row.json"
expect_rc 0 "monitor" "$PAGETUNE" monitor --connect "$PT_MARIADB_CONNECT" --count 1 --json -o "$T/mon.json" -q
expect_py "monitor.json current: the pool" 'd["current"]["innodb_buffer_pool_size"] == {"value": 67108864, "source": "server"}' "$T/mon.json"
# no explicit ROW_FORMAT: null (the default applies)
expect_rc 0 "sample near" "$PAGETUNE" sample --connect "$PT_MARIADB_CONNECT" --table ev_near_my --columns object -o "$T/near.json" -q
expect_py "no explicit row format: null, and the server's default beside it" \
    'd["current"]["row_format"]["value"] is None and d["current"]["innodb_default_row_format"] == {"value": "'"$(my_sql -N -e "SELECT UPPER(@@innodb_default_row_format)")"'", "source": "server"}' "$T/near.json"
expect_py "7930..8050-byte objects" 'd["min"] == 7930 and d["max"] == 8050' "$T/near.json"
expect_rc 0 "recommend near" "$PAGETUNE" recommend --engine mysql --sizes "$T/near.json" --json -o "$T/rec.json" -q
expect_py "inline at 16K with the measured row: 16K kept, no new instance" \
    'd["page_size"] == 16384 and d["candidates"][[c["page_size"] for c in d["candidates"]].index(16384)]["inline_fraction"] == 1' "$T/rec.json"

# -- the wrong column type
expect_rc 65 "timestamp column" "$PAGETUNE" sample --connect "$PT_MARIADB_CONNECT" --table ev_row_my --columns created
expect_one_line_error "timestamp column"
expect_contains "$ERR" "column 'created' is timestamp" "names the column and its type"
expect_contains "$ERR" "BLOB" "names the type pagetune needs"
expect_rc 0 "varchar column measured in bytes, said so" "$PAGETUNE" sample --connect "$PT_MARIADB_CONNECT" --table ev_row_my --columns usr -o "$T/usr.json" -q
expect_py "character column noted" '"counts characters" in d["column_note"]' "$T/usr.json"
finish
