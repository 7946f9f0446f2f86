#!/usr/bin/env bash
# test_keep_change_sqlite.sh — issue 14's acceptance on a real SQLite
# database through `pagetune advise` and the SQLite ODBC driver, on tables
# with real extra columns (id bigint, created timestamp, user varchar(64))
# beside the object column obj (randomblob) at 4K pages:
#   - records just under a 4K leaf's local payload (U - 35 bytes,
#     docs/engines.md; no overflow page, checked with dbstat) keep 4K and
#     the reasons say the rest of the row was measured (the profile's 200
#     bytes would spill them);
#   - records just over (every one on an overflow page) get 8K and the
#     VACUUM;
#   - tiny objects with nothing to gain never get a rebuild.
. "$(dirname "$0")/lib.sh"
need_cmd sqlite3 python3

# make_db NAME LO SPAN: 2000 objects of LO + (i * 7919) % SPAN bytes, 4K
make_db() {
    sqlite3 "$T/$1.db" >/dev/null <<SQL
PRAGMA page_size = 4096;
CREATE TABLE sessions (id bigint PRIMARY KEY,
  created timestamp NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "user" varchar(64) NOT NULL, obj blob);
WITH RECURSIVE g(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM g WHERE i < 2000)
INSERT INTO sessions (id, "user", obj)
  SELECT i, 'user' || i, randomblob($2 + (i * 7919) % $3) FROM g;
SQL
}
overflow_pages() {
    sqlite3 "$T/$1.db" "SELECT count(*) FROM dbstat WHERE name = 'sessions' AND pagetype = 'overflow'"
}
advise_on() {
    expect_rc 0 "advise on $1" "$PAGETUNE" advise --connect "Driver=SQLite3;Database=$T/$1.db;" \
        --table sessions --columns obj --monitor-seconds 1 --validate none \
        --out-dir "$T/$1" --json -q
}
stmts() { grep -v '^--' "$1" | grep -v '^$'; }

# objects of 3,850..3,949 B: records of about 3,885..3,985 B fit the leaf
make_db under 3850 100
expect_eq "$(overflow_pages under)" 0 "under: no overflow page at 4K"
advise_on under
R="$T/under/recommendation.json"
expect_py "under: rest of the row measured" \
    'any(r.startswith("rest of the row:") and "measured per row by sample" in r for r in d["reasons"])' "$R"
expect_py "under: keep 4K" \
    'd["page_size"] == 4096 and d["change"]["decision"] == "keep" and d["change"]["gain_io"] == 0' "$R"
expect_py "under: the reasons say why" \
    'any("the current page size 4K is already the recommended one" in r for r in d["reasons"]) and any("100.0% of the objects fit" in r for r in d["reasons"])' "$R"
case "$(stmts "$T/under/create.sql")" in
*VACUUM*|*"page_size"*) fail "under: create.sql rebuilds" ;;
*) pass ;;
esac

# objects of 4,100..4,199 B: every record spills at 4K
make_db over 4100 100
expect_eq "$(overflow_pages over)" 2000 "over: one overflow page per row at 4K"
advise_on over
R="$T/over/recommendation.json"
expect_py "over: 8K, the rebuild pays" \
    'd["page_size"] == 8192 and d["change"]["decision"] == "change" and d["change"]["gain_io"] >= d["change"]["threshold"]' "$R"
C=$(stmts "$T/over/create.sql")
expect_contains "$C" "PRAGMA page_size = 8192;
VACUUM;" "over: create.sql rebuilds at 8K"

# tiny objects: smaller pages gain nothing, no rebuild
make_db tiny 100 100
advise_on tiny
R="$T/tiny/recommendation.json"
expect_py "tiny: keep 4K with the numbers" \
    'd["page_size"] == 4096 and d["change"]["decision"] == "keep" and any(r.startswith("keep 4K pages") for r in d["reasons"])' "$R"
case "$(stmts "$T/tiny/create.sql")" in
*VACUUM*|*"page_size"*) fail "tiny: create.sql rebuilds" ;;
*) pass ;;
esac
finish
