#!/usr/bin/env bash
# test_keep_change_mariadb.sh — issue 14's acceptance on the integration
# MariaDB, through `pagetune advise` and the real ODBC driver, on InnoDB
# tables with real extra columns (id bigint, created timestamp, user
# varchar(64)) beside the object column obj (random bytes):
#   - rows just under what a 16K page keeps in the row (about half a page,
#     docs/engines.md) keep the 16K in use: no new instance, the reasons say
#     so and that the rest of the row was measured (the profile's 200 bytes
#     would push these rows off-page);
#   - rows just over get a larger page (32K or 64K, a new instance) when
#     the pool is too small to hold the table, so the modelled I/O gain
#     beats the new-instance threshold (at 16M: the 16K table is 32 MB, its
#     off-page pages one per value; its ~8 row pages stay in the pool by
#     page class, docs/models.md #page-classes, so at 8M the larger page
#     saves no I/O and 16K is kept);
#   - the same rows with the whole table in the pool (every I/O figure 0)
#     and tiny objects never get a new instance.
# A varchar --columns column gets a note naming it (character vs byte
# length; the sizes are byte lengths).
. "$(dirname "$0")/lib.sh"
need_env PT_MARIADB_CONNECT PT_MARIADB_SOCK
need_cmd mariadb python3

# make_table NAME LO SPAN: 2000 objects of LO + (i * 7919) % SPAN bytes
make_table() {
    my_sql >/dev/null <<SQL
DROP TABLE IF EXISTS $1;
CREATE TABLE $1 (id bigint PRIMARY KEY,
  created timestamp NOT NULL DEFAULT current_timestamp,
  \`user\` varchar(64) NOT NULL, obj mediumblob) ENGINE=InnoDB;
INSERT INTO $1 (id, \`user\`, obj) SELECT seq, CONCAT('user', seq),
  LEFT(REPEAT(UNHEX(SHA2(seq, 512)), ($2 + (seq * 7919) % $3) DIV 64 + 1),
       $2 + (seq * 7919) % $3)
FROM seq_1_to_2000;
ANALYZE TABLE $1;
SQL
}

# advise_on NAME DIR [OPTION...]: advise on NAME's obj column into $T/DIR
advise_on() {
    local t=$1 dir=$2
    shift 2
    expect_rc 0 "advise on $t $*" "$PAGETUNE" advise --connect "$PT_MARIADB_CONNECT" \
        --table "$t" --columns obj --monitor-seconds 1 --validate none \
        --out-dir "$T/$dir" --json -q "$@"
}

# objects of 7,850..8,049 B: the rows fit 16K's half page with the
# measured 22 bytes besides the object, not with the profile's 200
make_table it_kcm_under 7850 200
advise_on it_kcm_under under --memory 8M
R="$T/under/recommendation.json"
expect_py "under: rest of the row measured" \
    'any(r.startswith("rest of the row:") and "measured per row by sample" in r for r in d["reasons"])' "$R"
expect_py "under: 16K kept, no new instance" \
    'd["page_size"] == 16384 and d["change"]["decision"] == "keep" and d["settings"]["new_instance"] == "no"' "$R"
expect_py "under: the reasons say why" \
    'any("100.0% of the objects stay in the row" in r for r in d["reasons"]) and any("is already the recommended one" in r for r in d["reasons"]) and any("no new instance is needed" in r for r in d["reasons"])' "$R"
case "$(grep -v '^--' "$T/under/create.sql")" in
*innodb_page_size*|*"ROW_FORMAT"*) fail "under: create.sql changes the layout" ;;
*) pass ;;
esac

# objects of 8,200..8,399 B: off-page at 16K, in the row at 32K
make_table it_kcm_over 8200 200
advise_on it_kcm_over over --memory 16M
R="$T/over/recommendation.json"
expect_py "over, pool smaller than the table: 32K or 64K, a new instance" \
    'd["page_size"] in (32768, 65536) and d["change"]["decision"] == "change" and d["change"]["gain_io"] >= d["change"]["threshold"] and d["settings"]["new_instance"] == "yes" and next(c for c in d["candidates"] if c["page_size"] == d["page_size"])["hit_ratio"] < 1' "$R"
expect_contains "$(cat "$T/over/create.sql")" "innodb_page_size CANNOT change on a running instance" \
    "over: create.sql describes the new instance"

# the same rows with the table in the monitored pool: no I/O to gain
advise_on it_kcm_over over-fits
R="$T/over-fits/recommendation.json"
expect_py "over, table in the pool: no modelled gain, no new instance" \
    'd["change"]["gain_io"] == 0 and d["change"]["decision"] == "keep" and d["page_size"] == 16384 and d["settings"]["new_instance"] == "no" and any(r.startswith("keep 16K pages") for r in d["reasons"])' "$R"

make_table it_kcm_tiny 100 100
advise_on it_kcm_tiny tiny
R="$T/tiny/recommendation.json"
expect_py "tiny: no new instance" \
    'd["page_size"] == 16384 and d["change"]["decision"] == "keep" and d["settings"]["new_instance"] == "no"' "$R"

# a varchar column: measured in bytes, and said so on stderr (not silent)
my_sql <<'SQL'
DROP TABLE IF EXISTS it_kcm_vc;
CREATE TABLE it_kcm_vc (id bigint PRIMARY KEY, created timestamp,
  note varchar(64) CHARACTER SET utf8mb4) ENGINE=InnoDB;
INSERT INTO it_kcm_vc VALUES (1, now(), 'x'), (2, now(), 'abc');
SQL
my_sql -e "UPDATE it_kcm_vc SET note = CONCAT('gr', UNHEX('C3BC'), UNHEX('C39F'), 'e') WHERE id = 1"
expect_rc 0 "sample of a varchar column" "$PAGETUNE" sample --connect "$PT_MARIADB_CONNECT" \
    --table it_kcm_vc --columns note -o "$T/vc.json"
expect_contains "$ERR" "column 'note' is varchar, a character type" "the note names the column and its type"
expect_contains "$ERR" "the sizes here are bytes" "the note says the sizes are bytes"
expect_py "byte lengths, not characters" 'sorted(d["values"]) == [3, 7]' "$T/vc.json"
expect_rc 0 "advise on a varchar column" "$PAGETUNE" advise --connect "$PT_MARIADB_CONNECT" \
    --table it_kcm_vc --columns note --monitor-seconds 1 --validate none --out-dir "$T/vc"
expect_contains "$ERR" "column 'note' is varchar, a character type" "advise says it too"

my_sql -e "DROP TABLE it_kcm_under, it_kcm_over, it_kcm_tiny, it_kcm_vc"
finish
