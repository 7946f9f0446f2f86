#!/usr/bin/env bash
# bench_toast.sh — what pagetune's PostgreSQL advice buys, as ratios
# measured in one run (the machine is shared: absolute times mean little).
# A SESSIONS-like table of ROWS incompressible 3 KB objects, read by key
# (one session per request, as the session manager does), at the default
# toast_tuple_target (objects TOASTed) and after the DDL pagetune writes
# (toast_tuple_target raised, VACUUM FULL: objects in the heap row):
#
#   1. buffer accesses per read from pg_statio_user_tables (heap + TOAST +
#      TOAST index blocks, hit or read) — the model says 4 vs 1;
#   2. wall time of REQUESTS single-key reads through one psql session,
#      TOAST vs inline, medians of REPEAT alternating runs (ratio).
#
# Usage: bench/bench_toast.sh [BUILD_DIR]   (env: ROWS, REQUESTS, REPEAT)
# Uses the servers of servers.env when PT_PG_CONNECT is set, else starts a
# private PostgreSQL with scripts/test-servers.sh and stops it at the end.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
P=$build/pagetune
ROWS=${ROWS:-20000}
REQUESTS=${REQUESTS:-20000}
REPEAT=${REPEAT:-5}
[ -x "$P" ] || { echo "bench_toast: build first ($P missing)" >&2; exit 1; }
export PAGETUNE_DATA_DIR=${PAGETUNE_DATA_DIR:-$root}

srv=
tmp=$(mktemp -d /tmp/bench-toast.XXXXXX)
cleanup() {
    rm -rf "$tmp"
    if [ -n "$srv" ]; then
        bash "$root/scripts/test-servers.sh" stop "$srv" >/dev/null 2>&1 || true
        rm -rf "$srv"
    fi
}
trap cleanup EXIT INT TERM
if [ -z "${PT_PG_CONNECT:-}" ]; then
    srv=$(mktemp -d /tmp/bench-toast-srv.XXXXXX)
    bash "$root/scripts/test-servers.sh" start "$srv" >/dev/null
    # shellcheck disable=SC1091
    . "$srv/servers.env"
fi
pg() {
    PGOPTIONS="-c client_min_messages=warning" PGPASSWORD="$PT_PG_PASSWORD" psql -X -q -v ON_ERROR_STOP=1 -h 127.0.0.1 \
        -p "$PT_PG_PORT" -U postgres -d pagetune "$@"
}
TB=bench_toast
pg <<SQL
DROP TABLE IF EXISTS $TB;
CREATE TABLE $TB (ID varchar(128) PRIMARY KEY, PROPID varchar(128) NOT NULL,
  APPNAME varchar(128), SMALL bytea, MEDIUM bytea, LARGE bytea);
INSERT INTO $TB (ID, PROPID, APPNAME, SMALL)
SELECT 's' || g, 's' || g, 'app',
  (SELECT decode(string_agg(md5(g || '-' || i), ''), 'hex') FROM generate_series(1, 192) i)
FROM generate_series(1, $ROWS) g;
VACUUM ANALYZE $TB;
SQL
# the advice, as pagetune writes it
"$P" sample --connect "$PT_PG_CONNECT" --table $TB -o "$tmp/sizes.json" -q
"$P" recommend --engine postgresql --sizes "$tmp/sizes.json" --json -o "$tmp/rec.json" -q
"$P" ddl --recommendation "$tmp/rec.json" --dialect postgresql --table $TB \
    --out-dir "$tmp/ddl" -q
# apply only the table settings (not ALTER SYSTEM: no restart here)
grep -E '^(ALTER TABLE|VACUUM FULL)' "$tmp/ddl/create.sql" >"$tmp/apply.sql"
grep -E '^(ALTER TABLE|VACUUM FULL)' "$tmp/ddl/rollback.sql" >"$tmp/undo.sql"

# REQUESTS reads by key in one session: a script of SELECTs
awk -v n="$REQUESTS" -v rows="$ROWS" -v tb="$TB" 'BEGIN { srand(7);
    for (i = 0; i < n; i++)
        printf "SELECT get_byte(SMALL, 3000) FROM %s WHERE ID = '"'"'s%d'"'"';\n", tb, 1 + int(rand() * rows) }' >"$tmp/reads.sql"
blocks() {
    pg -At -c "SELECT coalesce(heap_blks_read,0)+heap_blks_hit+coalesce(toast_blks_read,0)+coalesce(toast_blks_hit,0)+coalesce(tidx_blks_read,0)+coalesce(tidx_blks_hit,0) FROM pg_statio_user_tables WHERE relname = '$TB'"
}
run_reads() { # prints seconds
    local t0 t1
    t0=$(date +%s.%N)
    pg -At -f "$tmp/reads.sql" >/dev/null
    t1=$(date +%s.%N)
    echo "$t1 - $t0" | bc -l
}
median() { sort -g | awk '{v[NR] = $1} END { print v[int((NR + 1) / 2)] }'; }

per_read() { # blocks per read (heap + TOAST, index scans excluded)
    local b0 b1
    b0=$(blocks)
    pg -At -f "$tmp/reads.sql" >/dev/null
    b1=$(blocks)
    echo "($b1 - $b0) / $REQUESTS" | bc -l
}
pg -At -f "$tmp/reads.sql" >/dev/null # warm the cache
toast_blocks=$(per_read)
: >"$tmp/t_toast"
: >"$tmp/t_inline"
for _ in $(seq "$REPEAT"); do
    run_reads >>"$tmp/t_toast"
    pg -f "$tmp/apply.sql"
    pg -At -f "$tmp/reads.sql" >/dev/null
    run_reads >>"$tmp/t_inline"
    pg -f "$tmp/undo.sql"
    pg -At -f "$tmp/reads.sql" >/dev/null
done
pg -f "$tmp/apply.sql"
inline_blocks=$(per_read)
tt=$(median <"$tmp/t_toast")
ti=$(median <"$tmp/t_inline")
printf 'toast_tuple_target recommended: %s\n' \
    "$(python3 -c 'import json; print(json.load(open("'"$tmp/rec.json"'"))["settings"]["toast_tuple_target"])')"
printf 'blocks per read (heap + TOAST + TOAST index): TOAST %.2f, inline %.2f, ratio %.2f\n' \
    "$toast_blocks" "$inline_blocks" "$(echo "$toast_blocks / $inline_blocks" | bc -l)"
printf '%d reads by key, median of %d: TOAST / inline time = %.2f\n' \
    "$REQUESTS" "$REPEAT" "$(echo "$tt / $ti" | bc -l)"
pg -c "DROP TABLE $TB"
