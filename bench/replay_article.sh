#!/usr/bin/env bash
# replay_article.sh — the founding article's experiment (article 000, docs/models.md#sources: 4000-,
# 10000- and 30000-byte session objects at 4K/8K/16K/32K pages, Table 6)
# replayed on the built-in SQLite session store. Prints, per workload and
# page size, the median over REPS runs of ops/s and its ratio to 4K, get and
# set latency, cache hit ratio and overflow pages, next to the article's
# +14..15 %. Ratios only: the machine is shared and noisy.
#
#   bench/replay_article.sh [PAGETUNE] [CACHE] [REPS] [REQUESTS] [SESSIONS] [GETS]
#   defaults:               build/pagetune 2M  3      20000      2000       0.5
#
# Workloads: `pagetune workload --profile article-4k|10k|30k` when those
# profiles exist; otherwise a generated trace with the same shape as the
# article's stress test (every request reads its session and writes it
# back: GETS = 0.5 get, the rest set, uniform over SESSIONS sessions, fixed size).
# Page sizes run in a different order each repetition (forward, reverse,
# ...) so drift of the machine does not favour one size.
set -euo pipefail
PAGETUNE=${1:-build/pagetune}
CACHE=${2:-2M}
REPS=${3:-3}
REQ=${4:-20000}
SESS=${5:-2000}
GETS=${6:-0.5}
# Profiles from this source tree unless the caller points elsewhere.
export PAGETUNE_DATA_DIR=${PAGETUNE_DATA_DIR:-$(cd "$(dirname "$0")/.." && pwd)}
W=$(mktemp -d /tmp/pt-article.XXXXXX)
trap 'rm -rf "$W"' EXIT

for size in 4000 10000 30000; do
    name=article-$((size / 1000))k
    if "$PAGETUNE" workload --profile "$name" --requests "$REQ" --seed 1 \
        -o "$W/$size.csv" 2>/dev/null; then
        echo "workload $name: from profile" >&2
    else
        awk -v n="$REQ" -v keys="$SESS" -v size="$size" -v g="$GETS" 'BEGIN {
            print "time_ms,op,key,size"; srand(1)
            for (i = 0; i < n; i++)
                printf "%d,%s,%04dh6aTb2u9DkMzIiNQy5V,%d\n", i,
                    (rand() < g) ? "get" : "set", int(rand() * keys), size
        }' >"$W/$size.csv"
        echo "workload $name: generated ($GETS get, rest set, $SESS sessions)" >&2
    fi
done

for size in 4000 10000 30000; do
    for r in $(seq 1 "$REPS"); do
        if [ $((r % 2)) -eq 1 ]; then order=4K,8K,16K,32K; else order=32K,16K,8K,4K; fi
        "$PAGETUNE" replay -q --json --trace "$W/$size.csv" --cache "$CACHE" \
            --page-size "$order" -o "$W/r-$size-$r.json"
    done
done

python3 - "$W" "$REPS" "$CACHE" <<'EOF'
import json, statistics, sys
w, reps, cache = sys.argv[1], int(sys.argv[2]), sys.argv[3]
inflection = {4000: 8192, 10000: 16384, 30000: 32768}
article = {4000: 15, 10000: 14, 30000: 14}  # Table 6, % requests/s
print(f"cache {cache} per connection (equal bytes at every page size), "
      f"median of {reps} runs")
print(f"{'object':>7} {'page':>5} {'ops/s':>8} {'vs 4K':>7} {'get us':>7} "
      f"{'set us':>7} {'hit':>6} {'overflow':>8}  article")
for size in (4000, 10000, 30000):
    runs = [json.load(open(f"{w}/r-{size}-{r}.json"))["results"]
            for r in range(1, reps + 1)]
    by = {}
    for res in runs:
        for x in res:
            by.setdefault(x["page_size"], []).append(x)
    med = lambda ps, f: statistics.median(f(x) for x in by[ps])
    base = med(4096, lambda x: x["ops_per_s"])
    for ps in sorted(by):
        ops = med(ps, lambda x: x["ops_per_s"])
        note = ""
        if ps == inflection[size]:
            note = f"inflection; Table 6: +{article[size]} %"
        print(f"{size:>7} {ps // 1024:>4}K {ops:>8.0f} "
              f"{(ops / base - 1) * 100:>+6.1f}% "
              f"{med(ps, lambda x: x['latency_by_op_us']['get']['mean']):>7.1f} "
              f"{med(ps, lambda x: x['latency_by_op_us']['set']['mean']):>7.1f} "
              f"{med(ps, lambda x: x['cache_hit_ratio']):>6.3f} "
              f"{med(ps, lambda x: x['overflow_pages']):>8.0f}  {note}")
EOF
