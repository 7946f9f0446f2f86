#!/usr/bin/env bash
# test_calibrate_ident.sh — `pagetune calibrate`'s honesty checks (issue
# 27): three identical points cannot tell two free costs apart (exit 65
# naming the unidentified cost, Jacobian rank 1 of 2); contradictory
# points fit with an rms relative residual above 0.25 (exit 65 naming the
# residual); --force writes either; the shipped article-000 calibration,
# re-derived with its documented commands and points
# (profiles/calibrations/article-000.yaml), is accepted with rank 3 of 3
# and the same fitted values; --cross-validate prints each point's
# held-out req/s error; the held-out 10 KB row is predicted within 8 %,
# and, calibrated on the 4 and 30 KB rows' 8 cells, its step within 4 points.
. "$(dirname "$0")/lib.sh"
command -v jq >/dev/null || { echo "jq missing" >&2; exit 77; }

# the counts: article-000.yaml's documented commands
for k in 4k 10k 30k; do
    expect_rc 0 "workload $k" "$PAGETUNE" workload --profile article-$k --requests 100000 -o "$T/a$k.csv" -q
    expect_rc 0 "simulate $k" "$PAGETUNE" simulate --trace "$T/a$k.csv" --engine db2 --page-size 4K,8K,16K,32K --bufferpool 250 --json -o "$T/s$k.json" -q
done
sims=(--simulation "$T/s4k.json" --simulation "$T/s10k.json" --simulation "$T/s30k.json")
fixed=(--calibration article-000 --fscache-share 1)

# three identical points, two free costs: fixed and per-KB CPU of one
# object size move the points the same way
{
    echo "label,trace,page_size,clients,think_ms,req_per_s,response_ms"
    for l in a b c; do echo "$l,$T/a4k.csv,8K,47,0,133.58,329"; done
} >"$T/same.csv"
expect_rc 65 "identical points" "$PAGETUNE" calibrate --points "$T/same.csv" "${sims[@]}" "${fixed[@]}" --free app_cpu_fixed_ms:0.001:30,app_cpu_per_kb_ms:0.001:30 -o "$T/same.yaml"
expect_one_line_error "identical points"
expect_contains "$ERR" "is not identified by the points (Jacobian rank 1 of 2)" "names the rank"
expect_contains "$ERR" "app_cpu_" "names the cost"
expect_contains "$OUT" "Jacobian rank 1 of 2" "the report says why"
[ -e "$T/same.yaml" ] && fail "refused fit written" || pass
expect_rc 0 "identical points --force" "$PAGETUNE" calibrate --points "$T/same.csv" "${sims[@]}" "${fixed[@]}" --free app_cpu_fixed_ms:0.001:30,app_cpu_per_kb_ms:0.001:30 -o "$T/same.yaml" --force
[ -s "$T/same.yaml" ] && pass || fail "--force wrote no profile"

# contradictory points: one configuration measured at 133.58 and at 2 req/s
printf 'label,trace,page_size,clients,think_ms,req_per_s,response_ms\na,%s,8K,47,0,133.58,329\nb,%s,8K,47,0,2,20000\n' "$T/a4k.csv" "$T/a4k.csv" >"$T/contra.csv"
expect_rc 65 "contradictory points" "$PAGETUNE" calibrate --points "$T/contra.csv" "${sims[@]}" "${fixed[@]}" --free app_cpu_fixed_ms:0.001:30 -o "$T/contra.yaml"
expect_one_line_error "contradictory points"
expect_contains "$ERR" "rms relative residual" "names the residual"
expect_contains "$ERR" "is above 0.25" "names the threshold"
[ -e "$T/contra.yaml" ] && fail "refused fit written" || pass

# the shipped calibration, re-derived: accepted, same values
{
    echo "label,trace,page_size,clients,think_ms,req_per_s,response_ms"
    grep -v '^#' "$PAGETUNE_DATA_DIR/bench/articles_data/article-000.tsv" 2>/dev/null ||
        grep -v '^#' "$(dirname "$0")/../../bench/articles_data/article-000.tsv"
} | awk -F'\t' -v T="$T" 'NR == 1 { print; next }
    $4 == "fit" { split($1, c, ", "); k = c[2]; sub(/ KB object/, "k", k); p = c[3]; sub(/ page/, "", p)
                  printf "\"%s\",%s/a%s.csv,%s,%s,0,%s,%s\n", $1, T, k, p, $6, $2, $12 }' >"$T/fit.csv"
expect_eq "$(grep -c '' "$T/fit.csv")" 5 "article-000's 4 fitted cells and a header"
expect_rc 0 "article-000 re-derived" "$PAGETUNE" calibrate --points "$T/fit.csv" "${sims[@]}" "${fixed[@]}" --free app_cpu_fixed_ms:0.001:30,fscache_req_ms:0.001:30,app_gc_per_kb2_ms:0.0001:1 -o "$T/a000.yaml" --cross-validate
expect_contains "$OUT" "Jacobian rank 3 of 3" "full rank"
shipped=$(dirname "$0")/../../profiles/calibrations/article-000.yaml
for c in app_cpu_fixed_ms app_gc_per_kb2_ms fscache_req_ms app_cpu_per_kb_ms; do
    got=$(sed -n "s/^  $c: //p" "$T/a000.yaml")
    want=$(sed -n "s/^  $c: //p" "$shipped")
    ok=$(awk -v g="$got" -v w="$want" 'BEGIN { d = (g - w) / w; if (d < 0) d = -d; print (d < 0.001) ? 1 : 0 }')
    expect_eq "$ok" 1 "$c as shipped ($got, shipped $want)"
done
# cross-validation: one held-out error per point, none of them 0 (a
# point left out is not fitted)
expect_contains "$OUT" "cross-validation: each point left out" "cross-validation table"
expect_rc 0 "--cross-validate --json" "$PAGETUNE" calibrate --points "$T/fit.csv" "${sims[@]}" "${fixed[@]}" --free app_cpu_fixed_ms:0.001:30,fscache_req_ms:0.001:30,app_gc_per_kb2_ms:0.0001:1 -o "$T/a000b.yaml" --cross-validate --json
expect_eq "$(echo "$OUT" | jq '[.points[].heldout_req_per_s_pct | select(. != 0 and (. | fabs) < 100)] | length')" 4 "4 held-out errors"
expect_eq "$(echo "$OUT" | jq -c '[.jacobian_rank, [.costs[].identified]]')" '[3,[true,true,true]]' "identifiability in JSON"
# held-out error of the first point, checked by hand: fit on the other
# three (one spare degree of freedom less) and predict it
sed '2d' "$T/fit.csv" >"$T/fit3.csv"
expect_rc 0 "fit on 3" "$PAGETUNE" calibrate --points "$T/fit3.csv" "${sims[@]}" "${fixed[@]}" --free app_cpu_fixed_ms:0.001:30,fscache_req_ms:0.001:30,app_gc_per_kb2_ms:0.0001:1 -o "$T/a3.yaml" --force
# the left-out point's trace, page size and clients, from its own line
# (its quoted label holds two commas: three fields)
IFS=, read -r _ _ _ p1trace p1page p1clients _ < <(sed -n 2p "$T/fit.csv")
expect_rc 0 "predict left-out point" "$PAGETUNE" simulate --trace "$p1trace" --engine db2 --page-size "$p1page" --bufferpool 250 --clients "$p1clients" --calibration "$T/a3.yaml" --fscache-share 1 --json -q
pred=$(echo "$OUT" | jq '.results[0].predicted.req_per_s')
meas=$(sed -n 2p "$T/fit.csv" | awk -F, '{print $(NF-1)}')
want=$(awk -v p="$pred" -v m="$meas" 'BEGIN { printf "%.1f", 100 * (p - m) / m }')
got=$(jq -r '.points[0].heldout_req_per_s_pct' <<<"$(cd "$T" && "$PAGETUNE" calibrate --points fit.csv "${sims[@]}" "${fixed[@]}" --free app_cpu_fixed_ms:0.001:30,fscache_req_ms:0.001:30,app_gc_per_kb2_ms:0.0001:1 -o a000c.yaml --cross-validate --json)")
expect_eq "$(awk -v g="$got" 'BEGIN { printf "%.1f", g }')" "$want" "held-out error of point 1 = fit on the rest, predict it"

# the held-out 10 KB row (issue 27): the shipped calibration, fitted on
# the 4 and 30 KB rows, predicts each of its four cells within 8 % of the
# published req/s (Tables 2-5: 119.05, 121.89, 132.01, 134.52). A cost
# linear in the object's size put the 8K cell at -8.6 % (docs/models.md,
# "The 10 KB row and the collector")
expect_rc 0 "10 KB row predicted" "$PAGETUNE" simulate --trace "$T/a10k.csv" --engine db2 --page-size 4K,8K,16K,32K --bufferpool 250 --clients 47 --calibration article-000 --fscache-share 1 --json -q
got=$(echo "$OUT" | jq -r '[.results[].predicted.req_per_s] | @tsv')
expect_eq "$(awk -v g="$got" 'BEGIN { split(g, x, "\t"); split("119.05 121.89 132.01 134.52", p, " ");
    n = 0; for (i = 1; i <= 4; i++) { e = x[i] / p[i] - 1; if (e < 0) e = -e; if (e <= 0.08) n++ } print n }')" 4 "10 KB row within 8 % in all four cells ($got)"

# the step (issue 27): calibrated on all eight cells of the 4 and 30 KB
# rows, the out-of-row cost per access and per KB read free beside the
# fixed and collector's costs (4 free costs, 4 spare degrees of freedom),
# each point's response time Little's law on its req/s (R = N / X: the
# published ones add no check of their own and, N fixed, pull the fit off
# req/s), the held-out 10 KB row within 8 % in each cell and its step
# 16K/8K within 4 points of the published +8.3 %. The shipped calibration
# (4 cells, fitted for Table 6) puts that step at +15.3 % (bench/
# articles.sh; docs/models.md, "The seed 000 steps")
grep -v '^#' "$(dirname "$0")/../../bench/articles_data/article-000.tsv" |
    awk -F'\t' -v T="$T" 'NR == 1 { print "label,trace,page_size,clients,think_ms,req_per_s,response_ms"; next }
    $1 ~ /, (4|30) KB object, / { split($1, c, ", "); k = c[2]; sub(/ KB object/, "k", k); p = c[3]; sub(/ page/, "", p)
                  printf "\"%s\",%s/a%s.csv,%s,%s,0,%s,%.4f\n", $1, T, k, p, $6, $2, 1000 * $6 / $2 }' >"$T/rows.csv"
expect_eq "$(grep -c '' "$T/rows.csv")" 9 "the 4 and 30 KB rows' 8 cells and a header"
expect_rc 0 "calibrated on the 4 and 30 KB rows" "$PAGETUNE" calibrate --points "$T/rows.csv" "${sims[@]}" "${fixed[@]}" \
    --free app_cpu_fixed_ms:0.001:30,fscache_req_ms:0.001:30,app_gc_per_kb2_ms:0.0001:1,fscache_per_kb_ms:0:1 -o "$T/rows.yaml"
expect_contains "$OUT" "Jacobian rank 4 of 4" "the four costs identified"
expect_rc 0 "10 KB row from the rows' calibration" "$PAGETUNE" simulate --trace "$T/a10k.csv" --engine db2 --page-size 4K,8K,16K,32K --bufferpool 250 --clients 47 --calibration "$T/rows.yaml" --fscache-share 1 --json -q
got=$(echo "$OUT" | jq -r '[.results[].predicted.req_per_s] | @tsv')
expect_eq "$(awk -v g="$got" 'BEGIN { split(g, x, "\t"); split("119.05 121.89 132.01 134.52", p, " ");
    n = 0; for (i = 1; i <= 4; i++) { e = x[i] / p[i] - 1; if (e < 0) e = -e; if (e <= 0.08) n++ }
    s = 100 * (x[3] / x[2] - 132.01 / 121.89); if (s < 0) s = -s; print n, (s <= 4) ? "step-ok" : "step-missed" }')" "4 step-ok" "10 KB row within 8 % and its step within 4 points ($got)"
finish
