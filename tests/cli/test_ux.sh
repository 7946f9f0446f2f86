# test_ux.sh — output made for terminals and parsers (issue 17): tables fit
# COLUMNS and a real 80-column terminal with no trailing spaces; CSV parses
# into the numbers the JSON holds; whole numbers are JSON integers and every
# document records pagetune_version; -o's extension and --format agree;
# a closed pipe on stdout ends quietly by SIGPIPE; progress has an ETA and
# "k/n", and no escape sequences on TERM=dumb; monitor warns of a short
# window. See pagetune(1), OUTPUT and SIGNALS.
. "$(dirname "$0")/lib.sh"
EX=$(dirname "$0")/../../examples
need_py() { command -v python3 >/dev/null || { echo "SKIP: python3" >&2; exit 77; }; }
need_py

"$PAGETUNE" workload --profile article-4k --requests 20000 -o "$T/t.csv" -q ||
    { echo "FAIL: workload" >&2; exit 1; }

REC=(recommend --sizes "$EX/sessions-mixed.json" --memory 512M)
REP=(replay --trace "$T/t.csv" --page-size 4K,8K --cache 256K -q)
SIM=(simulate --trace "$T/t.csv" --engine db2 --page-size 4K,16K --bufferpool 1M,4M -q)

# longest_line FILE: the widest line in display columns (UTF-8 aware)
longest_line() {
    python3 -c 'import sys; print(max((len(l.rstrip("\r\n")) for l in open(sys.argv[1], encoding="utf-8")), default=0))' "$1"
}

# ---- tables fit COLUMNS=80; no trailing spaces at any width ----------------
for name in REC REP SIM; do
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
    for name in REC REP SIM; do
        declare -n cmd=$name
        script -qec "stty cols 80; unset COLUMNS; '$PAGETUNE' ${cmd[*]} 2>/dev/null" \
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

# ---- CSV parses into the numbers the JSON holds ---------------------------
"$PAGETUNE" "${REC[@]}" --format csv >"$T/rec.csv"
"$PAGETUNE" "${REP[@]}" --format csv >"$T/rep.csv"
"$PAGETUNE" "${SIM[@]}" --format csv >"$T/sim.csv"
python3 - "$T" <<'EOF' || fail "CSV does not match the JSON (see above)"
import csv, json, sys
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
fi

# ---- monitor: a short window is warned about, with what to pass ----------
if odbcinst -q -d -n SQLite3 >/dev/null 2>&1 && command -v sqlite3 >/dev/null; then
    sqlite3 "$T/m.db" "CREATE TABLE t(a);"
    expect_rc 0 "monitor short window" "$PAGETUNE" monitor \
        --connect "Driver=SQLite3;Database=$T/m.db" --interval 1 --count 2
    expect_contains "$ERR" "too short to trust" "short window warned"
    expect_contains "$ERR" "--interval 60" "says what to pass"
    expect_rc 0 "monitor -q" "$PAGETUNE" monitor \
        --connect "Driver=SQLite3;Database=$T/m.db" --interval 1 --count 2 -q
    expect_eq "$ERR" "" "-q: no warning"
fi

finish
