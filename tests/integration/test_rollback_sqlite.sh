#!/usr/bin/env bash
# test_rollback_sqlite.sh — issue 14 on a real SQLite database in WAL mode
# with 4K pages: advice fed that state as `current` (`recommend
# --current`) moves 6000-byte objects off overflow pages with 8K pages.
# create.sql leaves WAL for the VACUUM (a page size cannot change in WAL
# mode) and returns to it; create.sql then rollback.sql leaves page_size
# and journal_mode exactly as before — also when create.sql stops after
# any one of its statements — and the rows intact.
. "$(dirname "$0")/lib.sh"
need_cmd sqlite3 python3

DB="$T/sessions.db"
N=100
sqlite3 "$DB" >/dev/null <<SQL
PRAGMA page_size = 4096;
PRAGMA journal_mode = WAL;
CREATE TABLE SESSIONS (ID text PRIMARY KEY, SMALL blob);
WITH RECURSIVE g(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM g WHERE i < $N)
INSERT INTO SESSIONS SELECT 's' || i, randomblob(6000) FROM g;
SQL
state() {
    echo "page_size=$(sqlite3 "$DB" "PRAGMA page_size") journal_mode=$(sqlite3 "$DB" "PRAGMA journal_mode") rows=$(sqlite3 "$DB" "SELECT count(*) FROM SESSIONS")"
}
BEFORE=$(state)
expect_eq "$BEFORE" "page_size=4096 journal_mode=wal rows=$N" "prior state: 4K pages, WAL"

python3 - "$T/sizes.json" <<'PY'
import json, sys
json.dump({"values": [6000] * 100}, open(sys.argv[1], "w"))
PY
cat >"$T/current.json" <<JSON
{"current": {
  "page_size": {"value": $(sqlite3 "$DB" "PRAGMA page_size"), "source": "server"},
  "journal_mode": {"value": "$(sqlite3 "$DB" "PRAGMA journal_mode")", "source": "server"},
  "cache_size": {"value": $(sqlite3 "$DB" "PRAGMA cache_size"), "source": "server"}}}
JSON
expect_rc 0 "recommend --current" "$PAGETUNE" recommend --engine sqlite \
    --sizes "$T/sizes.json" --current "$T/current.json" --json -o "$T/rec.json" -q
expect_py "8K: overflow pages gone, worth a rebuild" \
    'd["page_size"] == 8192 and d["change"]["decision"] == "change" and d["change"]["tier"] == "rebuild" and d["change"]["gain_reads"] >= d["change"]["threshold"] and d["current"]["journal_mode"]["value"] == "wal"' "$T/rec.json"
expect_rc 0 "ddl" "$PAGETUNE" ddl --recommendation "$T/rec.json" --dialect sqlite \
    --table SESSIONS --out-dir "$T/ddl" -q
C=$(grep -v '^--' "$T/ddl/create.sql" | grep -v '^$')
expect_contains "$C" "PRAGMA journal_mode = DELETE;
PRAGMA page_size = 8192;
VACUUM;
PRAGMA journal_mode = wal;" "create.sql leaves WAL around the VACUUM and returns"
expect_contains "$(cat "$T/ddl/create.sql")" "EXCLUSIVE" "VACUUM's lock named"
expect_contains "$(grep -v '^--' "$T/ddl/rollback.sql")" "PRAGMA page_size = 4096;" "rollback: the prior page size"

expect_rc 0 "apply create.sql" sqlite3 -bail "$DB" ".read $T/ddl/create.sql"
expect_eq "$(state)" "page_size=8192 journal_mode=wal rows=$N" "create.sql took: 8K, still WAL"
expect_rc 0 "apply rollback.sql" sqlite3 -bail "$DB" ".read $T/ddl/rollback.sql"
expect_eq "$(state)" "$BEFORE" "create.sql then rollback.sql: the prior state exactly"

python3 - "$T/ddl/create.sql" "$T/stmt" <<'PY'
import sys
stmts, cur = [], []
for line in open(sys.argv[1]):
    if line.lstrip().startswith("--") or not line.strip():
        continue
    cur.append(line)
    if line.rstrip().endswith(";"):
        stmts.append("".join(cur)); cur = []
for i, s in enumerate(stmts, 1):
    open("%s.%d" % (sys.argv[2], i), "w").write(s)
PY
NS=$(ls "$T"/stmt.* | wc -l)
# the cache_size PRAGMA is the value read (the pool kept): a comment, a
# statement that changes nothing (issue 23)
expect_contains "$(cat "$T/ddl/create.sql")" "-- PRAGMA cache_size = " "the kept cache_size is a comment"
expect_eq "$NS" 4 "create.sql: journal, page size, VACUUM, journal"
for k in $(seq 1 "$NS"); do
    cat $(for i in $(seq 1 "$k"); do echo "$T/stmt.$i"; done) >"$T/part.sql"
    sqlite3 -bail "$DB" ".read $T/part.sql" >/dev/null 2>&1 || fail "statements 1..$k failed"
    expect_rc 0 "rollback after statement $k" sqlite3 -bail "$DB" ".read $T/ddl/rollback.sql"
    expect_eq "$(state)" "$BEFORE" "stopped after statement $k of $NS: rollback restores the prior state"
done

# -- zero gain keeps the page size: 1000-byte objects fit 4K rows
python3 - "$T/small.json" <<'PY'
import json, sys
json.dump({"values": [1000] * 100}, open(sys.argv[1], "w"))
PY
expect_rc 0 "recommend, nothing to gain" "$PAGETUNE" recommend --engine sqlite \
    --sizes "$T/small.json" --current "$T/current.json" --json -o "$T/keep.json" -q
expect_py "4K kept" 'd["page_size"] == 4096 and d.get("change", {"decision": "keep"})["decision"] == "keep"' "$T/keep.json"
expect_rc 0 "ddl, nothing to change" "$PAGETUNE" ddl --recommendation "$T/keep.json" \
    --dialect sqlite --table SESSIONS -o "$T/keep.sql" -q
case "$(grep -v '^--' "$T/keep.sql")" in *VACUUM*) fail "VACUUM for no change" ;; *) pass ;; esac
finish
