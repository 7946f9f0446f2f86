#!/usr/bin/env bash
# test_sample_row_sqlite.sh — issue 14, the measuring side, on SQLite
# through the SQLite3 ODBC driver: the row size `sample` computes from the
# record format equals dbstat's payload on a real file (id INTEGER PRIMARY
# KEY, created integer, usr text, score real beside a BLOB); a WAL
# database with page_size 8192 is read back exactly in `current`; rows of
# 3900..4000 bytes (no overflow page at 4K) keep 4K, rows just over get a
# larger page; an INTEGER --columns is refused with 65.
. "$(dirname "$0")/lib.sh"
need_cmd python3

DB="$T/ev.db"
python3 - "$DB" "$T/near.db" "$T/over.db" <<'PY'
import os, random, sqlite3, sys
random.seed(14)
c = sqlite3.connect(sys.argv[1])
c.execute("PRAGMA page_size = 8192")
c.execute("PRAGMA journal_mode = WAL")
c.execute("CREATE TABLE ev_lite (id INTEGER PRIMARY KEY, created INTEGER, "
          "usr TEXT, score REAL, object BLOB)")
for i in range(1, 301):
    created = (0, 1, 200, 70000, 1700000000 + i, -5)[i % 6]
    c.execute("INSERT INTO ev_lite VALUES (?, ?, ?, ?, ?)",
              (i, created, "user%d" % i, None if i % 5 == 0 else 1.5,
               os.urandom(random.randint(100, 3000))))
c.commit()
c.close()
for path, lo, hi in ((sys.argv[2], 3900, 4000), (sys.argv[3], 4100, 4200)):
    c = sqlite3.connect(path)
    c.execute("CREATE TABLE ev_near (id INTEGER PRIMARY KEY, created INTEGER, "
              "usr TEXT, object BLOB)")
    for i in range(1, 201):
        c.execute("INSERT INTO ev_near VALUES (?, ?, ?, ?)",
                  (i, 1700000000 + i, "u%d" % i, os.urandom(random.randint(lo, hi))))
    c.commit()
    c.close()
PY
CONN="Driver=SQLite3;Database=$DB;"

expect_rc 0 "sample" "$PAGETUNE" sample --connect "$CONN" --table ev_lite --columns object -o "$T/lite.json" -q
# every record is local at 8K: the leaf pages' payload is the records' bytes
PAYLOAD=$(python3 -c 'import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); print(c.execute("SELECT sum(payload) FROM dbstat WHERE name = ? AND pagetype = ?", ("ev_lite", "leaf")).fetchone()[0], c.execute("SELECT count(*) FROM dbstat WHERE name = ? AND pagetype = ?", ("ev_lite", "overflow")).fetchone()[0])' "$DB")
read -r PSUM POVF <<<"$PAYLOAD"
expect_eq "$POVF" 0 "no overflow page at 8K"
expect_py "row bytes = dbstat payload (record format, exact)" \
    'd["row_source"] == "measured" and round(d["row_bytes"]["mean"] * d["row_bytes"]["count"]) == '"$PSUM"' and "record" in d["row_basis"]' "$T/lite.json"
expect_py "current: page_size 8192, WAL, cache_size" \
    'd["current"]["page_size"] == {"value": 8192, "source": "server"} and d["current"]["journal_mode"] == {"value": "wal", "source": "server"} and d["current"]["cache_size"] == {"value": -2000, "source": "server"}' "$T/lite.json"
expect_rc 0 "monitor" "$PAGETUNE" monitor --connect "$CONN" --count 1 --json -o "$T/mon.json" -q
expect_py "monitor.json current: journal mode" 'd["current"]["journal_mode"] == {"value": "wal", "source": "server"} and d["current"]["page_size"] == 8192' "$T/mon.json"

# -- just under / just over the 4K local payload limit
OVF=$(python3 -c 'import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); print(c.execute("SELECT count(*) FROM dbstat WHERE name = ? AND pagetype = ?", ("ev_near", "overflow")).fetchone()[0])' "$T/near.db")
expect_eq "$OVF" 0 "3900..4000-byte objects with their columns: no overflow page at 4K"
expect_rc 0 "sample near" "$PAGETUNE" sample --connect "Driver=SQLite3;Database=$T/near.db;" --table ev_near --columns object -o "$T/near.json" -q
expect_rc 0 "recommend near" "$PAGETUNE" recommend --engine sqlite --sizes "$T/near.json" --json -o "$T/rec_near.json" -q
expect_py "under the limit: 4K kept, every object inline" \
    'd["page_size"] == 4096 and [c for c in d["candidates"] if c["page_size"] == 4096][0]["inline_fraction"] == 1' "$T/rec_near.json"
expect_rc 0 "sample over" "$PAGETUNE" sample --connect "Driver=SQLite3;Database=$T/over.db;" --table ev_near --columns object -o "$T/over.json" -q
expect_rc 0 "recommend over" "$PAGETUNE" recommend --engine sqlite --sizes "$T/over.json" --json -o "$T/rec_over.json" -q
expect_py "over the limit: a larger page" 'd["page_size"] > 4096' "$T/rec_over.json"

# -- the wrong column type
expect_rc 65 "integer column" "$PAGETUNE" sample --connect "$CONN" --table ev_lite --columns created
expect_one_line_error "integer column"
expect_contains "$ERR" "column 'created' is integer, affinity integer" "names the column and its type"
expect_contains "$ERR" "BLOB" "names the type pagetune needs"
expect_py "live rows counted" 'd["live_rows"]["value"] == 300' "$T/lite.json"
finish
