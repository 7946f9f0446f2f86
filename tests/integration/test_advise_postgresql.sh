#!/usr/bin/env bash
# test_advise_postgresql.sh — `pagetune advise` against the integration
# PostgreSQL: a SESSIONS table with realistic mixed session sizes (most
# 1.5..6 KB in SMALL, some 8..30 KB in MEDIUM, a few 40..120 KB in LARGE,
# WebSphere's placement at 4 KB row size; incompressible bytes). advise
# leaves the six files with PostgreSQL advice (toast_tuple_target, STORAGE,
# shared_buffers; never DB2 buffer pools), its simulation compares the
# default and the recommended toast_tuple_target at 8 KB pages, and the
# replay is skipped with a note because BLCKSZ does not change.
. "$(dirname "$0")/lib.sh"
need_env PT_PG_CONNECT PT_PG_PORT PT_PG_PASSWORD
need_cmd psql python3

N=1500
pg_sql <<SQL
DROP TABLE IF EXISTS SESSIONS;
CREATE TABLE SESSIONS (ID varchar(128) NOT NULL, PROPID varchar(128) NOT NULL,
  APPNAME varchar(128), LISTENERCNT smallint, LASTACCESS bigint,
  CREATIONTIME bigint, MAXINACTIVETIME integer, USERNAME varchar(256),
  SMALL bytea, MEDIUM bytea, LARGE bytea, PRIMARY KEY (ID, PROPID));
INSERT INTO SESSIONS (ID, PROPID, APPNAME, USERNAME, SMALL, MEDIUM, LARGE)
SELECT 'sess' || g, 'sess' || g, 'shop', 'anonymous',
  CASE WHEN s <= 3122 THEN b END,
  CASE WHEN s > 3122 AND s <= 32700 THEN b END,
  CASE WHEN s > 32700 THEN b END
FROM (SELECT g, s, (SELECT decode(string_agg(md5(g || '-' || i), ''), 'hex')
                    FROM generate_series(1, s / 16) i) AS b
      FROM (SELECT g, CASE WHEN g % 20 = 0 THEN 40000 + (g * 7919) % 80000
                           WHEN g % 4 = 0 THEN 8000 + (g * 7919) % 22000
                           ELSE 1500 + (g * 7919) % 4500 END AS s
            FROM generate_series(1, $N) g) x) y;
SQL

ADV="$T/advice"
# default options (issue 21: advise must not stop at its own validation)
expect_rc 0 "advise" "$PAGETUNE" advise --connect "$PT_PG_CONNECT" --out-dir "$ADV" --json -q
# --oneline (issue 32): the advice as one line under 200 characters
KEEP_OUT=$OUT KEEP_ERR=$ERR
expect_rc 0 "advise --oneline" "$PAGETUNE" advise --connect "$PT_PG_CONNECT" \
    --out-dir "$T/oneline" --monitor-seconds 1 --validate sim --oneline -q
ONE=$OUT
[ "$(printf '%s\n' "$ONE" | wc -l)" -eq 1 ] && [ "${#ONE}" -gt 20 ] && [ "${#ONE}" -lt 200 ] &&
    pass || fail "advise --oneline is not one line under 200 characters: $ONE"
OUT=$KEEP_OUT ERR=$KEEP_ERR
printf '%s' "$OUT" >"$T/summary.json"
expect_py "the summary names the validation used: the simulation, and why no replay" \
    'd["validation"]["validated_by"]["method"] == "simulation" and "validated by cache simulation only (the postgresql model" in d["validation"]["validated_by"]["text"] and "replay skipped: the built-in SQLite store can only compare page sizes" in d["validation"]["validated_by"]["text"]' "$T/summary.json"
expect_contains "$(cat "$ADV/report.html")" 'id="validated-by">validated by cache simulation only' \
    "the report names the validation used"
for f in sizes.json monitor.json recommendation.json create.sql rollback.sql report.html; do
    [ -s "$ADV/$f" ] && pass || fail "advise left no $f"
done
# one recommendation step (issue 22): recommend on advise's own evidence
# gives advise's recommendation, current state included
expect_rc 0 "recommend on advise's sizes and monitor" "$PAGETUNE" recommend \
    --sizes "$ADV/sizes.json" --monitor "$ADV/monitor.json" --engine postgresql \
    --json -o "$T/again.json" -q
python3 - "$ADV/recommendation.json" "$T/again.json" <<'PY' && pass || fail "recommend and advise disagree"
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:3])
diff = [k for k in set(a) | set(b) if k not in ("inputs", "validation") and a.get(k) != b.get(k)]  # validation: advise's own step
assert not diff, diff
PY
[ -e "$ADV/replay.json" ] && fail "replay.json written although the page size cannot change" || pass
expect_py "summary names the engine and its settings" \
    'd["engine"] == "postgresql" and d["recommended"]["page_size"] == 8192 and "toast_tuple_target" in d["settings"]' "$T/summary.json"
expect_py "sizes sampled from SESSIONS" 'd["count"] == '"$N"' and d["source"]["engine"] == "postgresql"' "$ADV/sizes.json"
expect_py "recommendation in PostgreSQL's vocabulary" \
    'd["engine"] == "postgresql" and d["inline_knob"]["pays"] and 2032 < d["settings"]["toast_tuple_target"] <= 8160 and d["settings"]["shared_buffers_kb"] > 0' "$ADV/recommendation.json"
C=$(cat "$ADV/create.sql")
expect_contains "$C" "ALTER TABLE \"sessions\" SET (toast_tuple_target =" "create.sql sets toast_tuple_target on sessions"
expect_contains "$C" "ALTER TABLE \"sessions\" ALTER COLUMN \"small\" SET STORAGE" "create.sql sets STORAGE"
expect_contains "$C" "ALTER SYSTEM SET shared_buffers" "create.sql sizes shared_buffers"
case "$C" in *BUFFERPOOL*|*"CREATE TABLESPACE"*) fail "DB2 DDL in a PostgreSQL advice" ;; *) pass ;; esac
expect_contains "$(cat "$ADV/rollback.sql")" "ALTER TABLE \"sessions\" RESET (toast_tuple_target);" "rollback.sql"
expect_py "simulation: default vs recommended toast_tuple_target at 8K" \
    '[r["setting"] for r in d["results"]] == ["current", "recommended"] and all(r["page_size"] == 8192 for r in d["results"]) and d["comparison"]["knob"] == "toast_tuple_target"' "$ADV/simulation.json"
expect_py "fewer buffer-pool reads with the objects in line" \
    'd["results"][1]["bufferpool"]["logical_reads"] < d["results"][0]["bufferpool"]["logical_reads"]' "$ADV/simulation.json"
H=$(cat "$ADV/report.html")
expect_contains "$H" "engine postgresql" "report names the engine"
expect_contains "$H" "replay skipped" "report says why there is no replay"
expect_contains "$H" "toast_tuple_target" "report carries the advice"

pg_sql -c "DROP TABLE SESSIONS"
finish
