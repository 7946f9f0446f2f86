#!/usr/bin/env bash
# test_sample_mariadb.sh — `pagetune sample` through MariaDB Connector/ODBC
# against a real MariaDB: exact statistics of a full scan, RAND() sampling
# within tolerance, multi-row sessions, errors. Data: tests/integration/lib.sh.
. "$(dirname "$0")/lib.sh"
need_env PT_MARIADB_CONNECT PT_MARIADB_SOCK
need_cmd mariadb python3

N=2000
S=$(size_expr seq)
my_sql <<SQL
DROP TABLE IF EXISTS IT_SESS_MY, IT_MULTI_MY;
CREATE TABLE IT_SESS_MY (ID varchar(128) NOT NULL, PROPID varchar(128) NOT NULL,
  APPNAME varchar(128), LISTENERCNT smallint, LASTACCESS bigint,
  CREATIONTIME bigint, MAXINACTIVETIME integer, USERNAME varchar(256),
  SMALL varbinary(3122), MEDIUM mediumblob, LARGE longblob) ENGINE=InnoDB;
INSERT INTO IT_SESS_MY (ID, PROPID, APPNAME, SMALL, MEDIUM, LARGE)
SELECT CONCAT('s', seq), CONCAT('s', seq), 'app',
  IF(s <= 3122, b, NULL), IF(s > 3122 AND s <= 32700, b, NULL), IF(s > 32700, b, NULL)
FROM (SELECT seq, s, REPEAT('x', s) AS b
      FROM (SELECT seq, $S AS s FROM seq_1_to_$N) x) y;
CREATE TABLE IT_MULTI_MY (ID varchar(128) NOT NULL, PROPID varchar(128) NOT NULL,
  SMALL varbinary(3122), MEDIUM mediumblob, LARGE longblob) ENGINE=InnoDB;
INSERT INTO IT_MULTI_MY (ID, PROPID) SELECT CONCAT('u', seq), CONCAT('u', seq) FROM seq_1_to_40;
INSERT INTO IT_MULTI_MY (ID, PROPID, SMALL, MEDIUM)
SELECT CONCAT('u', s.seq), CONCAT('attr', a.seq),
  IF(500 * a.seq + s.seq <= 3122, REPEAT('y', 500 * a.seq + s.seq), NULL),
  IF(500 * a.seq + s.seq > 3122, REPEAT('y', 500 * a.seq + s.seq), NULL)
FROM seq_1_to_40 s, seq_1_to_4 a WHERE a.seq <= s.seq % 4 + 1;
SQL

SEEDABLE=1 sample_suite "$PT_MARIADB_CONNECT" IT_SESS_MY "$N" IT_MULTI_MY
expect_py "RAND(seed) filter for --percent" '"RAND(7) < 0.25" in d["source"]["query"]' "$T/s25.json"
# MariaDB table names are case-sensitive on Linux: the name is kept as given
expect_rc 66 "case kept" "$PAGETUNE" sample --connect "$PT_MARIADB_CONNECT" --table it_sess_my
# utf8 text column: OCTET_LENGTH counts bytes, not characters
my_sql <<'SQL'
DROP TABLE IF EXISTS IT_TEXT_MY;
CREATE TABLE IT_TEXT_MY (SMALL varchar(100) CHARACTER SET utf8mb4) ENGINE=InnoDB;
INSERT INTO IT_TEXT_MY VALUES ('héllo'), ('€€€');
SQL
expect_rc 0 "text column" "$PAGETUNE" sample --connect "$PT_MARIADB_CONNECT" \
    --table IT_TEXT_MY --columns SMALL --json
printf '%s' "$OUT" > "$T/text.json"
expect_py "bytes, not characters" 'sorted(d["values"]) == [6, 9] and d["layout"] == "plain"' "$T/text.json"

my_sql -e "DROP TABLE IT_SESS_MY, IT_MULTI_MY, IT_TEXT_MY"
finish
