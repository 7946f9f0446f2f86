#!/usr/bin/env bash
# test_golden.sh — every command on fixed inputs, its outputs compared with
# tests/golden/ (issue 22: the refactor that moves every step into one
# library call must not change what the commands say, except on purpose).
# Values that depend on the clock or the machine are masked
# (tests/tools/golden_mask.py says which, per kind of document).
#
# PT_GOLDEN_UPDATE=1 rewrites tests/golden/ from this build: review the
# diff (git diff tests/golden) and list every intended change in the
# commit message.
. "$(dirname "$0")/lib.sh"
command -v sqlite3 >/dev/null || { echo "SKIP: sqlite3 missing" >&2; exit 77; }
odbcinst -q -d -n SQLite3 >/dev/null 2>&1 || {
    [ "${CI:-}" = true ] && { echo "FAIL: SQLite3 ODBC driver not registered" >&2; exit 1; }
    echo "SKIP: SQLite3 ODBC driver not registered" >&2; exit 77; }

G="$PT_SOURCE_DIR/tests/golden"
MASK="$PT_SOURCE_DIR/tests/tools/golden_mask.py"
S="$PT_SOURCE_DIR/examples/sessions-mixed.json"
O="$T/out"
mkdir -p "$O"

# golden KIND NAME: compare (or, with PT_GOLDEN_UPDATE=1, store) $O/NAME
golden() {
    local kind=$1 name=$2
    python3 "$MASK" "$kind" "$O/$name" "$T" "$PT_SOURCE_DIR" >"$T/masked" ||
        { fail "$name: cannot mask"; return; }
    if [ "${PT_GOLDEN_UPDATE:-}" = 1 ]; then
        cp "$T/masked" "$G/$name"
        pass
    elif diff -u "$G/$name" "$T/masked" >"$T/diff"; then
        pass
    else
        fail "$name differs from tests/golden/$name:
$(head -n 40 "$T/diff")"
    fi
}

# step CMD... : run a command that must succeed
step() {
    run "$@"
    [ "$RC" -eq 0 ] && pass || fail "$*: exit $RC: $ERR"
}

# the fixed trace: its bytes are the golden value
step "$PAGETUNE" workload --profile mixed-sessions --requests 3000 --seed 7 -o "$T/t.csv" -q
sha256sum <"$T/t.csv" | cut -d' ' -f1 >"$O/workload.sha256"
golden exact workload.sha256
step "$PAGETUNE" workload --profile mixed-sessions --requests 600 --seed 7 -o "$T/t6.csv" -q

# recommend: every engine on the shipped sizes, table and JSON; with a
# trace and the model's prediction
for e in db2 postgresql mysql sqlite; do
    step "$PAGETUNE" recommend --engine "$e" --sizes "$S" --json -o "$O/recommend-$e.json" -q
    golden exact "recommend-$e.json"
done
step "$PAGETUNE" recommend --sizes "$S" --memory 64M -o "$O/recommend-db2.txt" -q
golden exact recommend-db2.txt
step "$PAGETUNE" recommend --sizes "$S" --format csv -o "$O/recommend-db2.csv" -q
golden exact recommend-db2.csv
step "$PAGETUNE" recommend --trace "$T/t.csv" --clients 4 --json -o "$O/recommend-trace.json" -q
golden exact recommend-trace.json

# ddl: every dialect from its recommendation
for e in db2 postgresql mysql sqlite; do
    step "$PAGETUNE" ddl --recommendation "$O/recommend-$e.json" --dialect "$e" \
        --out-dir "$T/ddl-$e" -q
    cp "$T/ddl-$e/create.sql" "$O/ddl-$e-create.sql"
    cp "$T/ddl-$e/rollback.sql" "$O/ddl-$e-rollback.sql"
    golden exact "ddl-$e-create.sql"
    golden exact "ddl-$e-rollback.sql"
done

# simulate: page sizes at one pool, the application cache, a prediction
step "$PAGETUNE" simulate --trace "$T/t.csv" --page-size 4K,16K --bufferpool 1000 \
    --json -o "$O/simulate-pages.json" -q
golden exact simulate-pages.json
step "$PAGETUNE" simulate --trace "$T/t.csv" --app-cache 500 --json -o "$O/simulate-app.json" -q
golden exact simulate-app.json
step "$PAGETUNE" simulate --trace "$T/t.csv" --page-size 4K,32K --bufferpool 250 \
    --clients 8 --format csv -o "$O/simulate-clients.csv" -q
golden exact simulate-clients.csv

# calibrate: the shipped article calibration's points, fitted again
step "$PAGETUNE" simulate --trace "$T/t.csv" --page-size 4K,32K --bufferpool 250 \
    --json -o "$T/sim-cal.json" -q
python3 - "$T/sim-cal.json" >"$T/points.csv" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
print("page_size,clients,req_per_s,response_ms")
for r in d["results"]:
    for c, base in ((1, 80.0), (8, 400.0)):
        x = base * (1.3 if r["page_size"] == 32768 else 1)
        print("%d,%d,%.1f,%.3f" % (r["page_size"], c, x, 1000.0 * c / x))
PY
# (their rms relative residual, 0.92, is above 0.25: calibrate refuses the
# fit without --force, issue 27; the golden keeps the forced report)
step "$PAGETUNE" calibrate --simulation "$T/sim-cal.json" --points "$T/points.csv" \
    --name golden -o "$O/calibrate.yaml" --format json --force
printf '%s\n' "$OUT" >"$O/calibrate.json"
golden exact calibrate.yaml
golden exact calibrate.json

# sample, monitor and advise on a fixed SQLite database (no traffic in the
# window: its counters are fixed too)
DB="$T/g.db"
sqlite3 "$DB" <<SQL
PRAGMA page_size = 4096;
CREATE TABLE SESSIONS (ID varchar(128) NOT NULL, PROPID varchar(128) NOT NULL,
  APPNAME varchar(128), LISTENERCNT smallint, LASTACCESS bigint,
  CREATIONTIME bigint, MAXINACTIVETIME integer, USERNAME varchar(256),
  SMALL BLOB, MEDIUM BLOB, LARGE BLOB, PRIMARY KEY (ID, PROPID));
WITH RECURSIVE g(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM g WHERE n < 400)
INSERT INTO SESSIONS (ID, PROPID, APPNAME, SMALL)
SELECT 's' || n, 's' || n, 'app', zeroblob(1000 + (n * 7919) % 9000) FROM g;
SQL
CONN="Driver=SQLite3;Database=$DB"
step "$PAGETUNE" sample --connect "$CONN" -o "$O/sample.json" -q
golden sample sample.json
step "$PAGETUNE" monitor --connect "$CONN" --count 2 --interval 0.1 --json -o "$O/monitor.json" -q
golden monitor monitor.json
step "$PAGETUNE" recommend --sizes "$O/sample.json" --monitor "$O/monitor.json" \
    --engine sqlite --json -o "$O/recommend-sampled.json" -q
golden exact recommend-sampled.json
step "$PAGETUNE" advise --connect "$CONN" --validate sim --monitor-seconds 0.2 \
    --requests 3000 --out-dir "$T/adv" --json -q
printf '%s\n' "$OUT" >"$O/advise.json"
golden advise advise.json
for f in recommendation.json simulation.json create.sql rollback.sql; do
    cp "$T/adv/$f" "$O/advise-$f"
    golden advise "advise-$f"
done

# replay: what the stores hold is fixed; its timings are masked
step "$PAGETUNE" replay --trace "$T/t6.csv" --page-size 4K,16K --rounds 2 \
    --warmup-rounds 0 --json -o "$O/replay.json" -q
golden replay replay.json
finish
