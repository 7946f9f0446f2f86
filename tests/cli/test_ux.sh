# test_ux.sh — output made for terminals and parsers (issue 17): tables fit
# COLUMNS and a real 80-column terminal with no trailing spaces; CSV parses
# into the numbers the JSON holds; whole numbers are JSON integers and every
# document records pagetune_version; -o's extension and --format agree;
# a closed pipe on stdout ends quietly by SIGPIPE; progress has an ETA and
# "k/n", and no escape sequences on TERM=dumb; replay shows a bar while the
# trace loads (TTY only); monitor and advise warn of a short window. Every
# command with a table (advise, recommend, replay, simulate, calibrate,
# sample, monitor) fits 80 columns, and every one with --format csv parses
# into the numbers its JSON holds. See pagetune(1), OUTPUT and SIGNALS.
. "$(dirname "$0")/lib.sh"
EX=$(dirname "$0")/../../examples
need_py() { command -v python3 >/dev/null || { echo "SKIP: python3" >&2; exit 77; }; }
need_py

"$PAGETUNE" workload --profile article-4k --requests 20000 -o "$T/t.csv" -q ||
    { echo "FAIL: workload" >&2; exit 1; }
"$PAGETUNE" workload --profile article-4k --requests 70000 -o "$T/big.csv" -q ||
    { echo "FAIL: workload 70000" >&2; exit 1; }

REC=(recommend --sizes "$EX/sessions-mixed.json" --memory 512M)
REP=(replay --trace "$T/t.csv" --page-size 4K,8K --cache 256K -q)
SIM=(simulate --trace "$T/t.csv" --engine db2 --page-size 4K,16K --bufferpool 1M,4M -q)
ADV=(advise --demo --validate sim --out-dir "$T/adv" -f -q)

# calibrate needs points: the model's own predictions at two loads
calib_points || { echo "FAIL: calibration points" >&2; exit 1; }
CAL=(calibrate --points "$T/points.csv" --simulation "$T/s30k.json"
    --appserver "$T/known.yaml" -o "$T/fit.yaml" -f)

# longest_line FILE: the widest line in display columns (UTF-8 aware)
longest_line() {
    python3 -c 'import sys; print(max((len(l.rstrip("\r\n")) for l in open(sys.argv[1], encoding="utf-8")), default=0))' "$1"
}

# ---- tables fit COLUMNS=80; no trailing spaces at any width ----------------
for name in REC REP SIM ADV CAL; do
    declare -n cmd=$name
    COLUMNS=80 "$PAGETUNE" "${cmd[@]}" >"$T/$name.80" 2>/dev/null
    expect_eq "$?" 0 "$name: COLUMNS=80 runs"
    w=$(longest_line "$T/$name.80")
    [ "$w" -le 80 ] && pass || fail "$name: COLUMNS=80 line of $w columns"
    [ "$(wc -l <"$T/$name.80")" -ge 4 ] && pass || fail "$name: table printed"
    "$PAGETUNE" "${cmd[@]}" >"$T/$name.wide" 2>/dev/null
    n=$(grep -c ' $' "$T/$name.80" "$T/$name.wide" | awk -F: '{ s += $2 } END { print s }')
    expect_eq "$n" 0 "$name: no line ends in a space"
    unset -n cmd
done
# narrower than the table can wrap to: lines are cut, never longer
COLUMNS=20 "$PAGETUNE" "${REC[@]}" >"$T/REC.20"
w=$(longest_line "$T/REC.20")
[ "$w" -le 20 ] && pass || fail "COLUMNS=20: line of $w columns"
# the same cells, only wrapped: every word of the wide output is still there
for word in 8K 16K 32K recommended cheapest; do
    expect_contains "$(cat "$T/REC.80")" "$word" "recommend at 80 keeps '$word'"
done

# ---- a real terminal of 80 columns (script(1) gives a pty) ---------------
if command -v script >/dev/null; then
    for name in REC REP SIM ADV CAL; do
        declare -n cmd=$name
        script -qec "stty cols 80; unset COLUMNS; '$PAGETUNE' ${cmd[*]@Q} 2>/dev/null" \
            /dev/null >"$T/tty.out" 2>&1
        tr -d '\r' <"$T/tty.out" >"$T/tty.txt"
        w=$(longest_line "$T/tty.txt")
        [ "$w" -le 80 ] && pass || fail "$name: stty cols 80: line of $w columns"
        [ "$(wc -l <"$T/tty.txt")" -ge 4 ] && pass || fail "$name: tty: table printed"
        unset -n cmd
    done
fi

# ---- JSON: integers, pagetune_version --------------------------------------
"$PAGETUNE" "${REC[@]}" --json >"$T/rec.json"
"$PAGETUNE" "${REP[@]}" --json >"$T/rep.json"
"$PAGETUNE" "${SIM[@]}" --json >"$T/sim.json"
for f in rec rep sim; do
    n=$(grep -cE '": -?[0-9]+\.0,?$' "$T/$f.json")
    expect_eq "$n" 0 "$f.json: no whole number written as a real"
    v=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["pagetune_version"])' "$T/$f.json")
    expect_eq "$v" "$("$PAGETUNE" --version | awk 'NR == 1 { print $2 }')" "$f.json records pagetune_version"
done

# ---- recommend's reasons: one line each in the data, wrapped by the table --
# on a terminal as wide as the longest reason each is one line, the JSON's
# string itself (no break at a fixed width); the JSON has no newline in one
COLUMNS=1000 "$PAGETUNE" "${REC[@]}" >"$T/rec.1000"
python3 - "$T" <<'EOF' && pass || fail "recommend reasons are pre-wrapped"
import json, sys
t = sys.argv[1]
reasons = json.load(open(f"{t}/rec.json"))["reasons"]
lines = open(f"{t}/rec.1000", encoding="utf-8").read().split("\n")
bad = [r for r in reasons if "\n" in r]
bad += [r for r in reasons if "- " + r not in lines]
for b in bad:
    print("FAIL: reason not one line:", b[:60], file=sys.stderr)
sys.exit(1 if bad or not reasons else 0)
EOF

# ---- CSV parses into the numbers the JSON holds ---------------------------
"$PAGETUNE" "${REC[@]}" --format csv >"$T/rec.csv"
"$PAGETUNE" "${REP[@]}" --format csv >"$T/rep.csv"
"$PAGETUNE" "${SIM[@]}" --format csv >"$T/sim.csv"
python3 - "$T" <<'EOF' || fail "CSV does not match the JSON (see above)"
import csv, json, re, sys
t = sys.argv[1]
bad = []

def rows(name):
    with open(f"{t}/{name}.csv", newline="") as f:
        return list(csv.DictReader(f))

def same(what, csv_v, json_v, tol):
    try:
        x = float(csv_v)
    except ValueError:
        bad.append(f"{what}: CSV '{csv_v}' is not a number (JSON {json_v})")
        return
    if abs(x - json_v) > tol * max(1.0, abs(json_v)):
        bad.append(f"{what}: CSV {x} != JSON {json_v}")

# recommend: one CSV row per candidate, in the JSON's order
rec = json.load(open(f"{t}/rec.json"))
rc = rows("rec")
if len(rc) != len(rec["candidates"]):
    bad.append("recommend: row count")
for r, c in zip(rc, rec["candidates"]):
    for k_csv, k_json, tol in [("page_size_bytes", "page_size", 0),
                               ("inline_fraction", "inline_fraction", 1e-6),
                               ("page_fill", "page_fill", 1e-5),
                               ("bufferpool_pages", "bufferpool_pages", 0),
                               ("hit_ratio", "hit_ratio", 1e-5),
                               ("rows_per_page", "rows_per_page", 5e-3),
                               ("io_ms_per_access", "io_ms_per_access", 1e-3)]:
        same(f"recommend {k_csv}", r[k_csv], c[k_json], tol)
chosen = [r["page_size_bytes"] for r in rc if r["choice"] == "recommended"]
if chosen != [str(rec["page_size"])]:
    bad.append(f"recommend: choice column {chosen} vs {rec['page_size']}")

# replay: one row per page size
rep = json.load(open(f"{t}/rep.json"))
pc = rows("rep")
if len(pc) != len(rep["results"]):
    bad.append("replay: row count")
for r, j in zip(pc, rep["results"]):
    for k_csv, k_json in [("page_size_bytes", "page_size"), ("ops", "ops"),
                          ("overflow_pages", "overflow_pages"),
                          ("db_bytes", "db_bytes")]:
        same(f"replay {k_csv}", r[k_csv], j[k_json], 0)
    for k_csv, k_json in [("placed_small_sets", "SMALL"),
                          ("placed_medium_sets", "MEDIUM"),
                          ("placed_large_sets", "LARGE")]:
        same(f"replay {k_csv}", r[k_csv], j["placement"][k_json], 0)
    # a separate run: only the type is comparable for the timings
    same("replay ops_per_s is a number", r["ops_per_s"], float(r["ops_per_s"] or "nan"), 1)
for r in pc[1:]:
    float(r["requests_change_pct"])
if pc and pc[0]["requests_change_pct"] != "":
    bad.append("replay: first requests_change_pct should be empty")

# simulate: database-tier rows
sim = json.load(open(f"{t}/sim.json"))
sc = rows("sim")
if len(sc) != len(sim["results"]):
    bad.append("simulate: row count")
for r, j in zip(sc, sim["results"]):
    for k_csv, k_json, tol in [("page_size_bytes", "page_size", 0),
                               ("bufferpool_pages", "bufferpool_pages", 0),
                               ("bufferpool_bytes", "bufferpool_bytes", 0),
                               ("direct_reads", "direct_reads", 0),
                               ("io_ms", "io_ms", 1e-3)]:
        same(f"simulate {k_csv}", r[k_csv], j[k_json], tol)
    same("simulate hit_ratio", r["hit_ratio"], j["bufferpool"]["hit_ratio"], 1e-3)

# raw values: no percent signs or unit suffixes in any cell
for name in ("rec", "rep", "sim"):
    for r in rows(name):
        for k, v in r.items():
            if "%" in v or re.fullmatch(r"[+-]?[0-9.]+[KMG]", v):
                bad.append(f"{name}.csv {k}: screen value '{v}'")
# RFC 4180 headers: snake_case machine names
for name in ("rec", "rep", "sim"):
    with open(f"{t}/{name}.csv", newline="") as f:
        for h in next(csv.reader(f)):
            if not h or not all(ch.islower() or ch.isdigit() or ch == "_" for ch in h):
                bad.append(f"{name}.csv: header '{h}' is not snake_case")
for b in bad:
    print("FAIL:", b, file=sys.stderr)
sys.exit(1 if bad else 0)
EOF
[ $? -eq 0 ] && pass

# ---- advise and calibrate: CSV parses into the numbers the JSON holds -----
# every CSV column named here maps to its JSON counterpart: a JSON number is
# a float in the CSV (equal unless it is a timing of a separate run), a JSON
# null or absent value is an empty field
# the shipped probe: both runs predict the same figures (a probe of their
# own would be two measurements)
ADVB=(advise --demo --validate both --replay-budget 1 --out-dir "$T/advb" -f -q
    --calibration probe-reference)
"$PAGETUNE" "${ADVB[@]}" --json >"$T/adv.json" || fail "advise --json"
"$PAGETUNE" "${ADVB[@]}" --format csv >"$T/adv.csv" || fail "advise --format csv"
"$PAGETUNE" "${CAL[@]}" --json >"$T/cal.json" || fail "calibrate --json"
"$PAGETUNE" "${CAL[@]}" --format csv >"$T/cal.csv" || fail "calibrate --format csv"
python3 - "$T" <<'EOF' && pass || fail "advise/calibrate CSV does not match the JSON"
import csv, json, re, sys
t = sys.argv[1]
bad = []

def rows(name):
    with open(f"{t}/{name}.csv", newline="") as f:
        r = csv.reader(f)
        head = next(r)
        for h in head:
            if not h or not all(c.islower() or c.isdigit() or c == "_" for c in h):
                bad.append(f"{name}.csv: header '{h}' is not snake_case")
        return [dict(zip(head, x)) for x in r]

def at(doc, path):
    for k in path.split("."):
        if not isinstance(doc, dict) or k not in doc:
            return None
        doc = doc[k]
    return doc

def check(what, row, col, jv, exact):
    if col not in row:
        bad.append(f"{what}: no CSV column {col}")
        return
    cv = row[col]
    if jv is None:
        if cv != "":
            bad.append(f"{what} {col}: JSON null, CSV '{cv}'")
        return
    if isinstance(jv, bool):
        if cv != ("true" if jv else "false"):
            bad.append(f"{what} {col}: CSV '{cv}' vs JSON {jv}")
        return
    if not isinstance(jv, (int, float)):
        return
    try:
        x = float(cv)
    except ValueError:
        bad.append(f"{what} {col}: CSV '{cv}' is not a number (JSON {jv})")
        return
    if exact and abs(x - jv) > 1e-6 * max(1.0, abs(jv)):
        bad.append(f"{what} {col}: CSV {x} != JSON {jv}")

# advise: one record; timings are of a separate run (type only)
adv = json.load(open(f"{t}/adv.json"))
ar = rows("adv")
if len(ar) != 1:
    bad.append(f"advise: {len(ar)} CSV records, want 1")
V = "validation."
P = V + "predicted."
for col, path, exact in [
        ("demo", "demo", 1),
        ("current_page_size_bytes", "current.page_size", 1),
        ("current_bufferpool_pages", "current.bufferpool_pages", 1),
        ("page_size_bytes", "recommended.page_size", 1),
        ("bufferpool_pages", "recommended.bufferpool_pages", 1),
        ("sim_current_io_ms_per_get", V + "simulation.current.io_ms_per_get", 1),
        ("sim_recommended_io_ms_per_get", V + "simulation.recommended.io_ms_per_get", 1),
        ("sim_io_change_pct", V + "simulation.io_change_pct", 1),
        ("sim_current_hit_ratio", V + "simulation.current.hit_ratio", 1),
        ("sim_recommended_hit_ratio", V + "simulation.recommended.hit_ratio", 1),
        ("predicted_requests_change_pct", P + "req_per_s_change_pct.mean", 1),
        ("predicted_requests_change_lo_pct", P + "req_per_s_change_pct.lo", 1),
        ("predicted_requests_change_hi_pct", P + "req_per_s_change_pct.hi", 1),
        ("predicted_response_time_change_pct", P + "response_ms_change_pct.mean", 1),
        ("predicted_response_time_change_lo_pct", P + "response_ms_change_pct.lo", 1),
        ("predicted_response_time_change_hi_pct", P + "response_ms_change_pct.hi", 1),
        ("predicted_clients", P + "clients", 1),
        ("predicted_think_ms", P + "think_ms", 1),
        ("replay_current_ops_per_s", V + "replay.current.ops_per_s", 0),
        ("replay_recommended_ops_per_s", V + "replay.recommended.ops_per_s", 0),
        ("replay_ops_change_pct", V + "replay.ops_change_pct", 0),
        ("replay_rounds", V + "rounds.measured", 0),
        ("replay_elapsed_s", V + "rounds.elapsed_s", 0),
        ("measured_requests_change_pct", V + "verdict.interval_pct.mean", 0),
        ("measured_requests_change_lo_pct", V + "verdict.interval_pct.lo", 0),
        ("measured_requests_change_hi_pct", V + "verdict.interval_pct.hi", 0),
        ("validated_by", V + "validated_by.method", 1),
        ("drift", "drift", 1)]:
    for r in ar:
        jv = at(adv, path)
        # a verdict needs two measured rounds: how many fit the budget
        # differs between the two runs, so its interval follows the CSV's
        if col.startswith("measured_") and (jv is None) != (r["verdict"] == ""):
            jv = None if r["verdict"] == "" else 0.0
        check("advise", r, col, jv, exact)
for r in ar:
    # the verdict judges a separate run's timings: its word, not the same one
    words = ("confirms", "contradicts", "inconclusive")
    if r.get("verdict") not in words + ("",) or \
            (r.get("verdict") == "") != (r.get("measured_requests_change_pct") == ""):
        bad.append(f"advise verdict: CSV '{r.get('verdict')}' vs JSON {at(adv, V + 'verdict.word')}")
    for k in r:
        if re.fullmatch(r"[+-]?[0-9.]+[KMG]", r[k]) or "%" in r[k] or "<-" in r[k]:
            bad.append(f"advise {k}: screen value '{r[k]}' in the CSV")

# calibrate: the CSV holds the fitted costs, in the JSON's order
cal = json.load(open(f"{t}/cal.json"))
cr = rows("cal")
if len(cr) != len(cal["costs"]) or not cr:
    bad.append(f"calibrate: {len(cr)} CSV rows for {len(cal['costs'])} costs")
for r, c in zip(cr, cal["costs"]):
    if r["cost"] != c["cost"]:
        bad.append(f"calibrate: cost {r['cost']} vs {c['cost']}")
    for k in ("fitted", "lo", "hi"):
        check("calibrate", r, k, c[k], 0)
        if abs(float(r[k] or "nan") - c[k]) > 1e-5 * max(1.0, abs(c[k])):
            bad.append(f"calibrate {k}: CSV {r[k]} vs JSON {c[k]}")
for p in cal["points"]:
    for k, v in p.items():
        if k != "point" and not isinstance(v, (int, float)):
            bad.append(f"calibrate JSON point {k}: {v!r} is not a number")
for b in bad:
    print("FAIL:", b, file=sys.stderr)
sys.exit(1 if bad else 0)
EOF

# ---- -o's extension and --format agree -------------------------------------
expect_rc 0 "-o x.csv follows the extension" "$PAGETUNE" "${REC[@]}" -o "$T/follow.csv"
expect_eq "$(head -c 16 "$T/follow.csv")" "page_size_bytes," "-o x.csv wrote CSV"
expect_rc 0 "-o x.json follows the extension" "$PAGETUNE" "${REC[@]}" -o "$T/follow.json"
python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$T/follow.json" && pass ||
    fail "-o x.json wrote JSON"
expect_rc 64 "--json -o x.csv refused" "$PAGETUNE" "${REC[@]}" --json -o "$T/no.csv"
expect_one_line_error "--json -o x.csv"
[ ! -e "$T/no.csv" ] && pass || fail "refused output was written"
expect_rc 64 "--format csv -o x.json refused" "$PAGETUNE" "${REP[@]}" --format csv -o "$T/no.json"
expect_rc 64 "monitor: refused before connecting" "$PAGETUNE" monitor \
    --connect "Driver=none" --json -o "$T/s.csv"
expect_rc 0 "--format csv -o x.csv" "$PAGETUNE" "${REC[@]}" --format csv -o "$T/ok.csv"

# ---- a closed pipe on stdout: quiet, killed by SIGPIPE ---------------------
"$PAGETUNE" workload --profile article-4k --requests 300000 -o - -q 2>"$T/pipe.err" |
    head -1 >/dev/null
st=${PIPESTATUS[0]}
expect_eq "$st" 141 "stdout closed: status 141 (SIGPIPE)"
expect_eq "$(cat "$T/pipe.err")" "" "stdout closed: nothing on stderr"
"$PAGETUNE" "${SIM[@]}" --mrc 2>"$T/pipe2.err" | head -1 >/dev/null
st=${PIPESTATUS[0]}
[ "$st" -eq 0 ] || [ "$st" -eq 141 ] && pass || fail "simulate | head -1: status $st"
expect_eq "$(cat "$T/pipe2.err")" "" "simulate | head -1: nothing on stderr"
# a write error that is not a closed pipe still says so
if [ -w /dev/full ]; then
    expect_rc 74 "write error /dev/full" "$PAGETUNE" "${REC[@]}" -o /dev/full
    expect_one_line_error "write error /dev/full"
fi

# ---- progress: ETA and k/n; TERM=dumb has no escape sequences -------------
if command -v script >/dev/null; then
    script -qec "TERM=xterm '$PAGETUNE' replay --trace '$T/t.csv' --page-size 4K,8K --cache 256K" \
        /dev/null >"$T/prog.out" 2>&1
    expect_contains "$(tr '\r' '\n' <"$T/prog.out")" "round 1/" "progress shows round k/n"
    script -qec "TERM=dumb '$PAGETUNE' workload --profile article-4k --requests 200000 -o '$T/w.csv' -f" \
        /dev/null >"$T/dumb.out" 2>&1
    expect_contains "$(tr '\r' '\n' <"$T/dumb.out")" "workload [" "TERM=dumb: progress drawn"
    if grep -q $'\033' "$T/dumb.out"; then fail "TERM=dumb: escape sequence"; else pass; fi
fi

# ---- replay: a bar while the trace loads, on a TTY only --------------------
# 70000 requests (more than one hook call of 65536) and a bad last line:
# the load shows its bar, then fails (65) before any store is made
if command -v script >/dev/null; then
    head -70001 "$T/big.csv" >"$T/bad.csv"
    echo "not,a,request" >>"$T/bad.csv"
    script -qec "TERM=xterm '$PAGETUNE' replay --trace '$T/bad.csv' --page-size 4K" \
        /dev/null >"$T/load.out" 2>&1
    tr '\r' '\n' <"$T/load.out" >"$T/load.txt"
    expect_contains "$(cat "$T/load.txt")" "loading trace (65536 records)" "tty: loading bar with the records read"
    expect_contains "$(cat "$T/load.txt")" "%" "tty: loading bar with a percentage"
    grep -q "bad.csv:70002" "$T/load.txt" && pass || fail "tty: the bad line is named after the bar"
    # a successful load ends with the bar at the whole trace, then the rounds
    script -qec "TERM=xterm '$PAGETUNE' replay --trace '$T/t.csv' --page-size 4K --rounds 1 --cache 256K" \
        /dev/null >"$T/load2.out" 2>&1
    expect_contains "$(tr '\r' '\n' <"$T/load2.out")" "loading trace (20000 records)" "tty: bar at the end of the load"
    # -q on a TTY: no bar
    script -qec "TERM=xterm '$PAGETUNE' replay -q --trace '$T/bad.csv' --page-size 4K" \
        /dev/null >"$T/load3.out" 2>&1
    if grep -q "loading trace" "$T/load3.out"; then fail "tty -q: loading bar drawn"; else pass; fi
fi
# stderr not a TTY: never a bar
expect_rc 65 "bad trace, stderr a file" "$PAGETUNE" replay --trace "$T/bad.csv" --page-size 4K
expect_one_line_error "bad trace, stderr a file"
if grep -q "loading trace" "$T/.err"; then fail "not a TTY: loading bar drawn"; else pass; fi
"$PAGETUNE" replay --trace "$T/t.csv" --page-size 4K --rounds 1 --cache 256K >/dev/null 2>"$T/load4.err"
if grep -q "loading trace" "$T/load4.err"; then fail "not a TTY: loading bar drawn (success)"; else pass; fi

# ---- advise: a monitor window is judged by what it saw, not its length ----
# the demo's store (SQLite) counts no pool reads: nothing to distrust, so
# its 1 s default window draws no warning (the thin-window cases:
# tests/unit/test_collect.c test_monitor_window_thin)
expect_rc 0 "advise demo window" "$PAGETUNE" advise --demo --validate none \
    --out-dir "$T/advw" -f
case "$ERR" in *warning*) fail "advise --demo: warned about its own window: $ERR" ;; *) pass ;; esac
grep -q "too short to trust" "$T/advw/report.html" && fail "advise: the report distrusts the demo's window" || pass
expect_rc 0 "advise demo window -q" "$PAGETUNE" advise --demo --validate none \
    --out-dir "$T/advw" -f -q
expect_eq "$ERR" "" "advise -q: nothing on stderr"

# ---- sample and monitor over the SQLite3 ODBC driver: width and CSV ------
if odbcinst -q -d -n SQLite3 >/dev/null 2>&1 && command -v sqlite3 >/dev/null; then
    sqlite3 "$T/s.db" "CREATE TABLE SESSIONS(ID TEXT, PROPID TEXT, APPNAME TEXT,
        SMALL BLOB, MEDIUM BLOB, LARGE BLOB);
        INSERT INTO SESSIONS VALUES('a','a','app',randomblob(100),NULL,NULL);
        INSERT INTO SESSIONS VALUES('b','b','app',NULL,randomblob(5000),NULL);"
    CONN="Driver=SQLite3;Database=$T/s.db"
    for sub in "sample --table SESSIONS" "monitor --interval 0.2 --count 2"; do
        COLUMNS=60 "$PAGETUNE" $sub --connect "$CONN" -q >"$T/db.txt"
        w=$(longest_line "$T/db.txt")
        [ "$w" -le 60 ] && pass || fail "$sub: COLUMNS=60 line of $w columns"
        n=$(grep -c ' $' "$T/db.txt")
        expect_eq "$n" 0 "$sub: no line ends in a space"
    done
    "$PAGETUNE" sample --table SESSIONS --connect "$CONN" -q --json >"$T/smp.json"
    "$PAGETUNE" sample --table SESSIONS --connect "$CONN" -q --format csv >"$T/smp.csv"
    python3 - "$T" <<'EOF2' && pass || fail "sample CSV does not match its JSON"
import csv, json, sys
t = sys.argv[1]
j = json.load(open(f"{t}/smp.json"))
rows = {r["measure"]: r for r in csv.DictReader(open(f"{t}/smp.csv", newline=""))}
bad = []
for k in ("count", "min", "p50", "p90", "p95", "p99", "max", "mean"):
    v = rows[k]["rows"]
    if float(v) != float(j[k]):
        bad.append(f"{k}: {v} vs {j[k]}")
for r in rows.values():
    for k in ("rows", "sessions"):
        if r[k] != "":
            float(r[k])
print("\n".join(bad), file=sys.stderr)
sys.exit(1 if bad else 0)
EOF2
    # a real 80-column terminal as well
    if command -v script >/dev/null; then
        for sub in "sample --table SESSIONS" "monitor --interval 0.2 --count 2"; do
            script -qec "stty cols 80; unset COLUMNS; '$PAGETUNE' $sub --connect '$CONN' -q" \
                /dev/null >"$T/dbtty.out" 2>&1
            tr -d '\r' <"$T/dbtty.out" >"$T/dbtty.txt"
            w=$(longest_line "$T/dbtty.txt")
            [ "$w" -le 80 ] && pass || fail "$sub: stty cols 80: line of $w columns"
        done
    fi
    # monitor: the CSV's numbers are the JSON's deltas (SQLite has no pool
    # counters over ODBC, so this checks the header and any row there is)
    "$PAGETUNE" monitor --interval 0.2 --count 2 --connect "$CONN" -q --json >"$T/mon.json"
    "$PAGETUNE" monitor --interval 0.2 --count 2 --connect "$CONN" -q --format csv >"$T/mon.csv"
    python3 - "$T" <<'EOF3' && pass || fail "monitor CSV does not match its JSON"
import csv, json, sys
t = sys.argv[1]
j = json.load(open(f"{t}/mon.json"))
bad = []
with open(f"{t}/mon.csv", newline="") as f:
    r = csv.reader(f)
    head = next(r)
    rows = [dict(zip(head, x)) for x in r]
want = ["pool", "interval", "seconds", "logical_reads", "physical_reads",
        "hit_ratio_pct", "direct_reads", "logical_per_s"]
if head != want:
    bad.append(f"header {head}")
pools = {p["name"]: p for p in j["bufferpools"]}
for row in rows:
    a, b = (int(x) for x in row["interval"].split("-"))
    d = [x for x in pools[row["pool"]]["deltas"] if x["from"] == a and x["to"] == b][0]
    if abs(float(row["seconds"]) - d["seconds"]) > 0.01:
        bad.append(f"seconds {row['seconds']} vs {d['seconds']}")
    for k in ("logical_reads", "physical_reads", "direct_reads"):
        if k in d["delta"] and float(row[k]) != float(d["delta"][k]):
            bad.append(f"{k} {row[k]} vs {d['delta'][k]}")
    for k in ("hit_ratio_pct", "logical_per_s"):
        if row[k] != "":
            float(row[k])
print("\n".join(bad), file=sys.stderr)
sys.exit(1 if bad else 0)
EOF3
fi

# ---- monitor: a short window of an engine without pool counters ----------
# (SQLite) is not judged: the warning is for a window that counted fewer
# than 1000 block accesses (pagetune-monitor(1))
if odbcinst -q -d -n SQLite3 >/dev/null 2>&1 && command -v sqlite3 >/dev/null; then
    sqlite3 "$T/m.db" "CREATE TABLE t(a);"
    expect_rc 0 "monitor short window" "$PAGETUNE" monitor \
        --connect "Driver=SQLite3;Database=$T/m.db" --interval 1 --count 2
    case "$ERR" in *warning*) fail "monitor on SQLite warned: $ERR" ;; *) pass ;; esac
    expect_rc 0 "monitor -q" "$PAGETUNE" monitor \
        --connect "Driver=SQLite3;Database=$T/m.db" --interval 1 --count 2 -q
    expect_eq "$ERR" "" "-q: nothing on stderr"
fi

finish
