#!/usr/bin/env bash
# bench_toast_misses.sh — does pagetune's PostgreSQL model predict the
# buffer misses its advice saves? Issue 23's acceptance bench (it prints,
# it asserts nothing).
#
# A SESSIONS-like table of ROWS rows (id integer primary key, one object
# column) on a private PostgreSQL with shared_buffers = 32MB, in two runs:
# Sizes are drawn at random (seeded) and inserted in key order: the order
# decides how often a value's chunks straddle a TOAST page (an arithmetic
# sequence of sizes straddles less than random ones).
#   incompressible — random bytea of 1.5–4 KB (straddles the TOAST
#                    threshold: pglz finds nothing to save, so the larger
#                    ones go to TOAST);
#   compressible   — text of 1.5–4 KB drawn from a 48-word vocabulary
#                    (pglz saves enough: the larger ones are compressed
#                    inline).
# For each: `pagetune advise` (sample + a monitor window during uniform
# reads + recommend + ddl) gives the prediction and create.sql; then the
# heap + TOAST + TOAST-index misses (pg_statio_user_tables *_blks_read)
# per 1,000 uniformly random key reads are measured in steady state (a
# warm-up pass of WARM reads, then a measured pass of READS other reads),
# create.sql's table statements are applied (ALTER TABLE, VACUUM FULL: the
# rewrite it asks for), and the misses are measured again the same way.
#
# Predicted misses per 1,000 reads = 1000 × physical_reads_per_access of
# recommendation.json's candidate at the page size in use: at the table's
# toast_tuple_target now ("before") and, when the advice tunes it,
# inline_knob.tuned's (1 − hit_ratio) × buffered_reads_per_access
# ("after"). Both are heap + TOAST (+ TOAST index) reads, the primary-key
# index excluded on both sides.
#
# Usage: bench/bench_toast_misses.sh [BUILD_DIR]   (env: ROWS, READS, WARM, RUNS)
# Always starts its own PostgreSQL (scripts/test-servers.sh, PT_SERVERS=pg)
# and stops it at the end: it needs a pool of exactly 32 MB.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
P=$build/pagetune
ROWS=${ROWS:-25000}
READS=${READS:-10000}
WARM=${WARM:-$((READS * 3))}
RUNS=${RUNS:-incompressible compressible}
[ -x "$P" ] || { echo "bench_toast_misses: build first ($P missing)" >&2; exit 1; }
export PAGETUNE_DATA_DIR=${PAGETUNE_DATA_DIR:-$root}

tmp=$(mktemp -d /tmp/bench-toastm.XXXXXX)
srv=$(mktemp -d /tmp/bench-toastm-srv.XXXXXX)
bg=
cleanup() {
    [ -n "$bg" ] && kill "$bg" 2>/dev/null
    bash "$root/scripts/test-servers.sh" stop "$srv" >/dev/null 2>&1 || true
    rm -rf "$tmp" "$srv"
}
trap cleanup EXIT INT TERM
PT_SERVERS=pg bash "$root/scripts/test-servers.sh" start "$srv" >/dev/null
# shellcheck disable=SC1091
. "$srv/servers.env"
pg() {
    PGOPTIONS="-c client_min_messages=warning" PGPASSWORD="$PT_PG_PASSWORD" psql -X -q \
        -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$PT_PG_PORT" -U postgres -d pagetune "$@"
}
# test-servers.sh writes shared_buffers = 32MB into postgresql.conf; say
# so, and refuse to measure at another size.
sb=$(pg -At -c "SHOW shared_buffers")
[ "$sb" = 32MB ] || { echo "bench_toast_misses: shared_buffers is $sb, not 32MB" >&2; exit 1; }

TB=bench_toastm
create_table() { # $1: incompressible | compressible
    local col
    if [ "$1" = incompressible ]; then
        col="bytea"
    else
        col="text"
    fi
    pg <<SQL
DROP TABLE IF EXISTS $TB;
CREATE TABLE $TB (id integer PRIMARY KEY, obj $col);
SQL
    if [ "$1" = incompressible ]; then
        # md5 digests are 16 random-looking bytes: pglz saves nothing
        pg >/dev/null <<SQL
SELECT setseed(0.17);
CREATE TEMP TABLE sz AS
SELECT g, 1536 + floor(random() * 2561)::int AS n FROM generate_series(1, $ROWS) g;
INSERT INTO $TB
SELECT g, substring((SELECT decode(string_agg(md5(g || '-' || i || '-' || random()), ''), 'hex')
                     FROM generate_series(1, 1 + n / 16) i)
                    FROM 1 FOR n)
FROM sz ORDER BY g;
VACUUM ANALYZE $TB;
SQL
    else
        pg >/dev/null <<SQL
SELECT setseed(0.31);
CREATE TEMP TABLE sz AS
SELECT g, 1536 + floor(random() * 2561)::int AS n FROM generate_series(1, $ROWS) g;
INSERT INTO $TB
SELECT g, substring((SELECT string_agg((ARRAY['session','attribute','value','user',
          'cart','item','price','quantity','token','expires','created','locale',
          'currency','address','street','city','country','postal','phone','email',
          'order','status','pending','shipped','payment','visa','amount','total',
          'discount','coupon','referrer','campaign','browser','agent','mozilla',
          'windows','linux','screen','width','height','theme','dark','light',
          'language','english','german','french','spanish'])[1 + floor(random() * 48)::int]
          || ((g + i) % 3)::text, ' ')
          FROM generate_series(1, 1 + n / 6) i)
          FROM 1 FOR n)
FROM sz ORDER BY g;
VACUUM ANALYZE $TB;
SQL
    fi
}

# a psql script of N single-key reads (each its own transaction, as a
# session manager's requests are); md5 reads the whole value, so every
# TOAST chunk is fetched
reads_file() { # $1: seed, $2: count, $3: file
    awk -v n="$2" -v rows="$ROWS" -v tb="$TB" -v seed="$1" 'BEGIN { srand(seed);
        for (i = 0; i < n; i++)
            printf "SELECT md5(obj) FROM %s WHERE id = %d;\n", tb, 1 + int(rand() * rows) }' >"$3"
}
# heap, TOAST, TOAST index, primary-key index: read (missed), then hit
COUNTERS="SELECT concat_ws(' ', coalesce(heap_blks_read,0), coalesce(toast_blks_read,0),
  coalesce(tidx_blks_read,0), coalesce(idx_blks_read,0), coalesce(heap_blks_hit,0),
  coalesce(toast_blks_hit,0), coalesce(tidx_blks_hit,0), coalesce(idx_blks_hit,0))
  FROM pg_statio_user_tables WHERE relname = '$TB'"
# runs a reads file and prints the counters' deltas; the backend's pending
# statistics are flushed (pg_stat_force_next_flush) before it reads them
measure() { # $1: reads file
    local b0 b1
    pg -At -c "SELECT pg_stat_force_next_flush()" >/dev/null
    b0=$(pg -At -c "$COUNTERS")
    { cat "$1"; echo "SELECT pg_stat_force_next_flush();"; echo "$COUNTERS;"; } >"$tmp/m.sql"
    b1=$(pg -At -f "$tmp/m.sql" | tail -n 1)
    python3 -c 'import sys; a=sys.argv[1].split(); b=sys.argv[2].split()
print(" ".join(str(int(y)-int(x)) for x, y in zip(a, b)))' "$b0" "$b1"
}
# pages of heap, TOAST, TOAST index, primary-key index
sizes() {
    pg -At -c "SELECT concat_ws(' ', pg_relation_size(oid)/8192,
      coalesce(pg_relation_size(reltoastrelid)/8192, 0),
      coalesce((SELECT pg_relation_size(indexrelid) FROM pg_index WHERE indrelid = reltoastrelid)/8192, 0),
      pg_indexes_size(oid)/8192) FROM pg_class WHERE relname = '$TB'"
}

one_run() { # $1: incompressible | compressible
    local kind=$1 out=$tmp/$1 pred
    create_table "$kind"
    reads_file 11 "$WARM" "$tmp/warm.sql"
    reads_file 12 "$READS" "$tmp/meas.sql"
    reads_file 13 $((READS * 4)) "$tmp/bg.sql"
    pg -At -f "$tmp/warm.sql" >/dev/null
    # the advice, with uniform reads running through the monitor window
    (pg -At -f "$tmp/bg.sql" >/dev/null) &
    bg=$!
    "$P" advise --connect "$PT_PG_CONNECT" --table $TB --columns OBJ --out-dir "$out" \
        --validate none --monitor-seconds 5 -q -f >"$tmp/advise.txt"
    kill "$bg" 2>/dev/null || true
    wait "$bg" 2>/dev/null || true
    bg=
    grep -E '^(ALTER TABLE|VACUUM)' "$out/create.sql" >"$tmp/apply.sql" || true
    pred=$(python3 - "$out/recommendation.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
cur = r["current"]["page_size"]["value"] if isinstance(r["current"]["page_size"], dict) else r["current"]["page_size"]
cand = next(c for c in r["candidates"] if c["page_size"] == int(cur))
before = 1000 * cand["physical_reads_per_access"]
k = r.get("inline_knob") or {}
after = before
if k.get("evaluated") and k.get("pays") and k.get("tuned"):
    t = k["tuned"]
    after = 1000 * (1 - t["hit_ratio"]) * t["buffered_reads_per_access"]
rc = r.get("reconciliation") or {}
print("%.1f %.1f" % (before, after))
print("model: %.3f hit, %.3f buffered reads/access, %d heap + %d TOAST + %d TOAST index pages, pool %d"
      % (cand["hit_ratio"], cand["buffered_reads_per_access"], cand["data_pages"],
         cand.get("outline_pages", 0), cand.get("outline_index_pages", 0), cand["bufferpool_pages"]))
if k.get("tuned"):
    t = k["tuned"]
    print("tuned: toast_tuple_target %s -> %s, %.3f hit, %.3f buffered reads/access, inline %.3f, pays %s"
          % (k.get("current"), k.get("value"), t["hit_ratio"], t["buffered_reads_per_access"],
             t["inline_fraction"], k.get("pays")))
print("reconciliation: %s (model %s vs measured %s, %s): %s%s"
      % (rc.get("verdict"), rc.get("model_hit_ratio"), rc.get("measured_hit_ratio"),
         rc.get("measured_scope"), rc.get("reason"), (" | note: " + rc["note"]) if rc.get("note") else ""))
text = (rc.get("reason") or "") + " " + (rc.get("note") or "")
print("reconciliation blames a hot set on these uniform reads: %s" % ("YES" if "hot set" in text else "no"))
PY
)
    local pb pa
    read -r pb pa <<<"$(head -n 1 <<<"$pred")"
    local mb ma zb za
    zb=$(sizes)
    pg -At -f "$tmp/warm.sql" >/dev/null
    mb=$(measure "$tmp/meas.sql")
    if [ -s "$tmp/apply.sql" ]; then
        pg -f "$tmp/apply.sql"
    fi
    za=$(sizes)
    pg -At -f "$tmp/warm.sql" >/dev/null
    ma=$(measure "$tmp/meas.sql")
    echo "== $kind: $ROWS rows, obj 1536-4096 bytes, shared_buffers $sb, $WARM warm-up + $READS measured uniform key reads per pass"
    if [ -s "$tmp/apply.sql" ]; then
        echo "advice applied: $(tr '\n' ' ' <"$tmp/apply.sql")"
    else
        echo "advice applied: none (no table statement in create.sql: \"after\" is the same table measured again, the noise floor)"
    fi
    grep -E '^ALTER SYSTEM' "$out/create.sql" | sed 's/^/also in create.sql (not applied): /' || true
    tail -n +2 <<<"$pred"
    python3 - "$pb" "$pa" "$mb" "$ma" "$zb" "$za" "$READS" <<'PY'
import math, sys
pb, pa = float(sys.argv[1]), float(sys.argv[2])
n = int(sys.argv[7])
POOL = 32 * 1024 * 1024 // 8192
def pct(a, b): return 100.0 * (b - a) / a if a else 0.0
def che(pages, acc):
    """Misses per read of heap + TOAST + TOAST index by Che's approximation
    of an LRU pool of POOL pages over four page classes (heap, TOAST, TOAST
    index, key index), each class's pages equally likely: uniform rows do
    not make uniform pages. The key index competes for the pool; its
    misses are not counted, as on the measured side."""
    cls = [(p, a / p) for p, a in zip(pages, acc) if p > 0 and a > 0]
    if sum(p for p, _ in cls) <= POOL:
        return 0.0
    lo, hi = 0.0, 1e12
    for _ in range(200):
        t = (lo + hi) / 2
        if sum(p * (1 - math.exp(-r * t)) for p, r in cls) > POOL: hi = t
        else: lo = t
    return sum(a * math.exp(-(a / p) * t) for p, a in list(zip(pages, acc))[:3] if p > 0 and a > 0)
res = {}
for name, d, z in (("before", sys.argv[3], sys.argv[5]), ("after", sys.argv[4], sys.argv[6])):
    d = [int(v) for v in d.split()]
    z = [int(v) for v in z.split()]
    acc = [d[i] + d[i + 4] for i in range(4)]
    res[name] = (1000.0 * sum(d[:3]) / n, d, z, acc, 1000.0 * che(z, [a / n for a in acc]))
    print("table %-6s: %d heap, %d TOAST, %d TOAST index, %d key index pages" % (name, *z))
mb, ma = res["before"][0], res["after"][0]
for name in ("before", "after"):
    miss, d, z, acc, _ = res[name]
    print("measured %-6s: per read %.3f heap, %.3f TOAST, %.3f TOAST index (+ %.3f key index)"
          " accesses; hit ratio %.3f; per 1,000 reads misses heap %.1f, TOAST %.1f, TOAST index %.1f"
          % (name, acc[0] / n, acc[1] / n, acc[2] / n, acc[3] / n,
             1 - sum(d[:3]) / max(1, sum(acc[:3])),
             1000.0 * d[0] / n, 1000.0 * d[1] / n, 1000.0 * d[2] / n))
cb, ca = res["before"][4], res["after"][4]
print("misses per 1,000 reads (heap + TOAST + TOAST index):")
print("  predicted (pagetune):      before %7.1f  after %7.1f  change %+6.1f %%" % (pb, pa, pct(pb, pa)))
print("  measured (pg_statio):      before %7.1f  after %7.1f  change %+6.1f %%" % (mb, ma, pct(mb, ma)))
print("  LRU by page class (Che, measured sizes and accesses): before %7.1f  after %7.1f  change %+6.1f %%"
      % (cb, ca, pct(cb, ca)))
d = pct(pb, pa) - pct(mb, ma)
print("  predicted - measured change: %+.1f points (issue 23 asks within 10: %s)"
      % (d, "yes" if abs(d) <= 10 else "NO"))
PY
}

for kind in $RUNS; do
    one_run "$kind"
done
