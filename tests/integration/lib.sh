# lib.sh — helpers for integration tests against the real servers that
# scripts/test-servers.sh starts (its servers.env is in the environment).
# Source it after nothing else; it sources tests/cli/lib.sh.
#
#   need_env VAR...   skip (77) when a variable is unset — unless CI=true,
#                     where a missing server is a failure (exit 1)
#   pg_sql / my_sql / lite_sql DB   run SQL from stdin or -c on the servers
#   pyjson FILE EXPR  evaluate a Python expression over the JSON in FILE (d)
#   expect_py DESC EXPR  fail unless the Python expression is true
#   load_start CMD... / load_stop   a workload around a monitor window
#   wait_value WANT CMD...   until CMD prints WANT (a background change)
# Table names are unique per test so tests can run in parallel.
# shellcheck disable=SC1091
. "$(dirname "${BASH_SOURCE[0]}")/../cli/lib.sh"
# the tests match the tables' rows and reasons within one line: tables as
# wide as their longest row (a pipe is 80 columns wide; tests/cli/
# test_width.sh tests the layout)
export COLUMNS=1000

need_env() {
    local v
    for v in "$@"; do
        if [ -z "${!v:-}" ]; then
            if [ "${CI:-}" = true ]; then
                echo "FAIL: $v is not set: the test servers are not running (CI=true)" >&2
                exit 1
            fi
            echo "SKIP: $v is not set (start scripts/test-servers.sh and source servers.env)" >&2
            exit 77
        fi
    done
}

need_cmd() {
    local c
    for c in "$@"; do
        if ! command -v "$c" >/dev/null 2>&1; then
            if [ "${CI:-}" = true ]; then
                echo "FAIL: command $c missing (CI=true)" >&2
                exit 1
            fi
            echo "SKIP: command $c missing" >&2
            exit 77
        fi
    done
}

pg_sql() {
    PGOPTIONS="-c client_min_messages=warning" PGPASSWORD="$PT_PG_PASSWORD" psql -X -q -v ON_ERROR_STOP=1 -h 127.0.0.1 \
        -p "$PT_PG_PORT" -U postgres -d pagetune "$@"
}

my_sql() {
    mariadb --no-defaults --socket="$PT_MARIADB_SOCK" -uroot pagetune "$@"
}

# load_start CMD...: run CMD again and again in the background until
# load_stop. Started before a monitor and stopped after it, the load covers
# the whole window however slow the machine (a fixed duration did not).
load_start() {
    rm -f "$T/.load-stop"
    (while [ ! -e "$T/.load-stop" ]; do "$@" >/dev/null 2>&1; done) &
    LOAD_PID=$!
}
load_stop() {
    touch "$T/.load-stop"
    wait "$LOAD_PID"
}

# wait_value WANT CMD...: poll CMD until it prints WANT, for a change the
# server makes in the background (InnoDB resizes its pool after SET GLOBAL).
# 0 then; 1 if it still differs after 300 s, a hang guard for a value that
# never comes, not a speed check (a fixed sleep or a 10 s cap was one)
wait_value() {
    local want=$1 i=0
    shift
    while [ "$("$@")" != "$want" ]; do
        [ "$i" -ge 1500 ] && return 1
        sleep 0.2
        i=$((i + 1))
    done
}

# pyjson FILE EXPR: print the Python expression over d = json.load(FILE)
pyjson() {
    python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"
}

# expect_py DESC EXPR [FILE]: true Python expression (d = the JSON in FILE)
expect_py() {
    local desc=$1 expr=$2 file=${3:-}
    local got
    if [ -n "$file" ]; then
        got=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(bool(eval(sys.argv[2])))' "$file" "$expr" 2>&1)
    else
        got=$(python3 -c 'import sys; print(bool(eval(sys.argv[1])))' "$expr" 2>&1)
    fi
    if [ "$got" = True ]; then pass; else fail "$desc: $expr -> $got"; fi
}

# zipf_gets FILE N REQS LO HI: REQS gets of N sessions (LO..HI bytes each)
# whose popularity is Zipf (alpha 0.8, the ranks shuffled over the keys),
# seed 29: the engine-policy tests' trace
zipf_gets() {
    python3 - "$@" <<'EOF'
import bisect, random, sys
path, n, reqs, lo, hi = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
random.seed(29)
cdf, t = [], 0.0
for i in range(n):
    t += 1.0 / (i + 1) ** 0.8
    cdf.append(t)
perm = list(range(n))
random.shuffle(perm)
size = [random.randint(lo, hi) for _ in range(n)]
with open(path, "w") as f:
    f.write("time_ms,op,key,size\n")
    for r in range(reqs):
        k = perm[bisect.bisect_left(cdf, random.random() * t)]
        f.write(f"{r},get,s{k},{size[k]}\n")
EOF
}

# replay_trace FILE N_SESSIONS N_REQUESTS MIN MAX: a get and a write-back of
# a random session per request, sizes MIN..MAX bytes (seeded: the same
# trace every run); the server replay tests' trace
replay_trace() {
    python3 - "$@" <<'EOF'
import random, sys
path, n, reqs, lo, hi = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
random.seed(28)
size = [random.randint(lo, hi) for _ in range(n)]
with open(path, "w") as f:
    f.write("time_ms,op,key,size\n")
    for t in range(reqs):
        k = random.randrange(n)
        f.write(f"{t},get,s{k},{size[k]}\n")
        size[k] = random.randint(lo, hi)
        f.write(f"{t},set,s{k},{size[k]}\n")
EOF
}

# A trace of 20,000 sets of 500 MB objects: scratch tables of about 25
# TB, more than a test machine's disk holds (the free-space refusal).
huge_trace() { # FILE
    python3 -c 'import sys
with open(sys.argv[1], "w") as f:
    f.write("time_ms,op,key,size\n")
    for i in range(20000): f.write(f"{i},set,s{i},500000000\n")' "$1"
}

# The known size distribution of the tests: row i (1..N) holds an object of
# 100 + (i * 7919) % 40000 bytes, in SMALL if <= 3122, MEDIUM if <= 32700,
# else LARGE (WebSphere's placement at 4 KB row size, docs/models.md#websphere).
size_expr() { # SQL expression of the size for the row number in $1
    echo "(100 + (($1) * 7919) % 40000)"
}

# expected_check FILE N: compare the sizes JSON in FILE with the exact
# statistics of sizes 1..N (nearest-rank percentiles).
expected_check() {
    local file=$1 n=$2 out
    out=$(python3 - "$file" "$n" <<'PY'
import json, math, sys
d = json.load(open(sys.argv[1])); n = int(sys.argv[2])
v = sorted(100 + (i * 7919) % 40000 for i in range(1, n + 1))
pct = lambda p: v[max(1, math.ceil(p / 100 * n)) - 1]
want = {"count": n, "min": v[0], "max": v[-1], "p50": pct(50), "p90": pct(90),
        "p95": pct(95), "p99": pct(99)}
bad = [f"{k}: got {d.get(k)} want {w}" for k, w in want.items() if d.get(k) != w]
if abs(d["mean"] - sum(v) / n) > 1e-6 * sum(v) / n:
    bad.append(f"mean {d['mean']} want {sum(v) / n}")
if sorted(d.get("values", [])) != v:
    bad.append("values differ")
pl = {"SMALL": sum(x <= 3122 for x in v),
      "MEDIUM": sum(3122 < x <= 32700 for x in v),
      "LARGE": sum(x > 32700 for x in v)}
got = {k.upper(): c for k, c in d["placement"].items()}
if got != pl:
    bad.append(f"placement {got} want {pl}")
print("; ".join(bad) if bad else "ok")
PY
)
    if [ "$out" = ok ]; then pass; else fail "$file: $out"; fi
}

# sampled_check FILE N PERCENT: a sampled run of the same data stays within
# the stated tolerance: count within 6 sigma of N*p, and p50 / p90 within
# 6 standard errors of the population quantile (sizes are ~uniform on
# 100..40100, so se(q) = range * sqrt(q(1-q)/m) for m sampled rows).
sampled_check() {
    local file=$1 n=$2 p=$3 out
    out=$(python3 - "$file" "$n" "$p" <<'PY'
import json, math, sys
d = json.load(open(sys.argv[1])); n = int(sys.argv[2]); p = float(sys.argv[3]) / 100
v = sorted(100 + (i * 7919) % 40000 for i in range(1, n + 1))
pct = lambda q: v[max(1, math.ceil(q * n)) - 1]
bad = []
sd = math.sqrt(n * p * (1 - p))
if abs(d["count"] - n * p) > 6 * sd:
    bad.append(f"count {d['count']} not within 6 sigma of {n * p:.0f}")
m = max(d["count"], 1)
for q in (0.5, 0.9):
    se = (v[-1] - v[0]) * math.sqrt(q * (1 - q) / m)
    got = d["p%d" % round(q * 100)]
    if abs(got - pct(q)) > 6 * se:
        bad.append(f"p{round(q*100)} {got} vs population {pct(q)} (6 se = {6*se:.0f})")
if d["source"].get("sampled") is not True:
    bad.append("source.sampled is not true")
print("; ".join(bad) if bad else "ok")
PY
)
    if [ "$out" = ok ]; then pass; else fail "$file: $out"; fi
}

# sample_suite CONNECT TABLE N MULTI_TABLE: the checks every engine passes on
# a SESSIONS-like TABLE of N rows with the known distribution, and a
# multi-row MULTI_TABLE (see make_multi_* in the tests): full sample exact,
# sampled within tolerance, --rows N exact count, repeatable with --seed
# where the engine allows ($SEEDABLE=1), multi-row per-session sums exact.
sample_suite() {
    local conn=$1 table=$2 n=$3 multi=$4
    expect_rc 0 "full sample of $table" "$PAGETUNE" sample --connect "$conn" \
        --table "$table" -o "$T/full.json" -q
    expected_check "$T/full.json" "$n"
    expect_py "layout single-row" 'd["layout"] == "single-row" and d["unit"] == "row"' "$T/full.json"
    expect_py "full run is not sampled" 'd["source"]["sampled"] is False and d["source"]["rows_scanned"] == '"$n" "$T/full.json"
    expect_py "histogram counts add up" 'sum(b["count"] for b in d["histogram"]) == d["count"]' "$T/full.json"
    expect_py "no secret in the sizes file" '"pt_test_pw" not in open("'"$T/full.json"'").read()'
    case "$OUT$ERR" in *pt_test_pw*) fail "password printed" ;; *) pass ;; esac

    # exists without --force: 73, file untouched; --force replaces it
    cp "$T/full.json" "$T/full.bak"
    expect_rc 73 "existing output without --force" "$PAGETUNE" sample \
        --connect "$conn" --table "$table" -o "$T/full.json"
    expect_one_line_error "existing output"
    cmp -s "$T/full.json" "$T/full.bak" && pass || fail "output changed without --force"
    expect_py "grouped on the server by default (no TTY)" 'd["source"]["server_grouped"] is True and "COUNT(*)" in d["source"]["query"]' "$T/full.json"
    # one row per object, odd block size: the same exact answer
    expect_rc 0 "--force, --server-group off" "$PAGETUNE" sample --connect "$conn" \
        --table "$table" -o "$T/full.json" --force -q --fetch-rows 7 --server-group off
    expected_check "$T/full.json" "$n"
    expect_py "row mode" 'd["source"]["server_grouped"] is False' "$T/full.json"

    expect_rc 0 "sampled 25%" "$PAGETUNE" sample --connect "$conn" --table "$table" \
        --percent 25 --seed 7 -o "$T/s25.json" -q
    sampled_check "$T/s25.json" "$n" 25
    if [ "${SEEDABLE:-0}" = 1 ]; then
        expect_rc 0 "sampled 25% again" "$PAGETUNE" sample --connect "$conn" \
            --table "$table" --percent 25 --seed 7 -o "$T/s25b.json" -q
        expect_py "--seed is repeatable" 'd["values"] == __import__("json").load(open("'"$T/s25b.json"'"))["values"]' "$T/s25.json"
    fi
    expect_rc 0 "--rows 300" "$PAGETUNE" sample --connect "$conn" --table "$table" \
        --rows 300 -o "$T/r300.json" -q
    expect_py "--rows 300 gives 300 rows" 'd["count"] == 300 and d["source"]["sampled"] is True' "$T/r300.json"
    expect_py "--rows values come from the table" 'set(d["values"]) <= {100 + (i * 7919) % 40000 for i in range(1, '"$n"' + 1)}' "$T/r300.json"

    # table output on stdout
    expect_rc 0 "table format" "$PAGETUNE" sample --connect "$conn" --table "$table" -q
    expect_contains "$OUT" "p95" "table lists p95"

    # multi-row layout: per row and per session
    expect_rc 0 "multi-row sample" "$PAGETUNE" sample --connect "$conn" \
        --table "$multi" -o "$T/multi.json" -q
    expect_py "multi-row detected" 'd["layout"] == "multi-row" and d["unit"] == "row"' "$T/multi.json"
    # sessions s = 1..40, attribute a = 1..(s % 4 + 1), size 500 * a + s
    expect_py "multi-row per-row sizes" 'sorted(d["values"]) == sorted(500 * a + s for s in range(1, 41) for a in range(1, s % 4 + 2))' "$T/multi.json"
    expect_py "multi-row header rows" 'd["header_rows"] == 40 and d["rows_empty"] == 40' "$T/multi.json"
    expect_py "multi-row per-session sums" 'd["per_session"]["count"] == 40 and d["per_session"]["max"] == max(sum(500 * a + s for a in range(1, s % 4 + 2)) for s in range(1, 41)) and d["per_session"]["min"] == min(sum(500 * a + s for a in range(1, s % 4 + 2)) for s in range(1, 41))' "$T/multi.json"
    expect_rc 0 "--unit session" "$PAGETUNE" sample --connect "$conn" \
        --table "$multi" --unit session -o "$T/multis.json" -q --server-group off
    expect_py "--unit session values are the sums" 'sorted(d["values"]) == sorted(sum(500 * a + s for a in range(1, s % 4 + 2)) for s in range(1, 41)) and d["unit"] == "session" and d["per_row"]["count"] == 100' "$T/multis.json"
    expect_rc 0 "multi-row sampled" "$PAGETUNE" sample --connect "$conn" \
        --table "$multi" --rows 10 -o "$T/multir.json" -q
    expect_py "sampled sessions are complete" 'd["per_session"]["count"] == 10 and set(d["values"]) <= {500 * a + s for s in range(1, 41) for a in range(1, s % 4 + 2)}' "$T/multir.json"

    # --percent picks sessions, each drawn once: every sum is a whole session
    expect_rc 0 "multi-row sampled by percent" "$PAGETUNE" sample --connect "$conn" \
        --table "$multi" --percent 50 --seed 3 --unit session -o "$T/multip.json" -q
    expect_py "percent-sampled sessions are complete" '0 < d["count"] <= 40 and all(v in {sum(500 * a + s for a in range(1, s % 4 + 2)) for s in range(1, 41)} for v in d["values"])' "$T/multip.json"

    # errors: table missing, column missing, hostile names
    expect_rc 66 "missing table" "$PAGETUNE" sample --connect "$conn" --table no_such_table_xyz
    expect_one_line_error "missing table"
    expect_contains "$ERR" "no_such_table_xyz" "missing table is named"
    expect_rc 66 "missing column" "$PAGETUNE" sample --connect "$conn" --table "$table" --columns SMALL,NOPE
    expect_contains "$ERR" "NOPE" "missing column is named"
    expect_rc 64 "hostile table name (refused before connecting, issue 21)" "$PAGETUNE" sample --connect "$conn" --table "x; DROP TABLE $table"
    expect_one_line_error "hostile table name"
    expect_rc 65 "hostile column name" "$PAGETUNE" sample --connect "$conn" --table "$table" --columns 'SMALL,"x"); DROP TABLE y; --'
    expect_rc 0 "table survives" "$PAGETUNE" sample --connect "$conn" --table "$table" -q -o /dev/null
}

# run_conformance ENGINE: issue 24's conformance suite (tests/conformance/)
# for ENGINE on the suite's three fixed seeds (CI's seeds never change, so
# a red main is never chance; bench/conformance.sh takes fresh ones), its
# table of predicted against measured on stderr; then finish.
run_conformance() {
    local rc=0
    python3 "$(dirname "${BASH_SOURCE[0]}")/../conformance/conformance.py" --engine "$1" \
        --seed 11 --seed 22 --seed 33 --pagetune "$PAGETUNE" --table >&2 || rc=$?
    [ "$rc" -eq 0 ] && pass || fail "conformance $1: exit $rc (the table above)"
    finish
}

# Private servers a test starts itself, beside the shared ones:
#   private_start [VAR=VALUE...]   a fresh scripts/test-servers.sh start (its
#       servers chosen by PT_SERVERS, e.g. PT_SERVERS=pg) in a new directory,
#       the environment given first; sets PRIV_DIR (its servers.env there);
#       fails the test (and finishes it) when it does not start
#   private_stop_all               stops and removes every one (call it from
#       the test's EXIT trap)
PRIV_DIRS=()
private_start() {
    PRIV_DIR=$(mktemp -d /tmp/pagetune-it-priv.XXXXXX)
    PRIV_DIRS+=("$PRIV_DIR")
    chmod 755 "$PRIV_DIR"
    if ! env "$@" bash "$PT_SOURCE_DIR/scripts/test-servers.sh" start "$PRIV_DIR" \
        2>"$PRIV_DIR.err"; then
        fail "private server ($*) did not start: $(cat "$PRIV_DIR.err")"
        finish
    fi
    rm -f "$PRIV_DIR.err"
}
private_stop_all() {
    local d
    for d in "${PRIV_DIRS[@]}"; do
        bash "$PT_SOURCE_DIR/scripts/test-servers.sh" stop "$d" >/dev/null 2>&1 || true
        rm -rf "$d" "$d.err"
    done
}
