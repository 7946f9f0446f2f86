#!/usr/bin/env bash
# test_workload.sh — `pagetune workload`: every shipped profile generates a
# valid trace that `simulate` reads back, the same seed gives the same
# bytes, the empirical sizes file, bad profiles (65), usage errors (64),
# atomic output and --force (73).
. "$(dirname "$0")/lib.sh"

for p in article-4k article-10k article-30k trade-14pct trade-0pct mixed-sessions; do
    expect_rc 0 "workload $p" "$PAGETUNE" workload --profile "$p" --requests 3000 -o "$T/$p.csv" -q
    n=$(grep -vc '^#' "$T/$p.csv")
    expect_eq "$n" 3001 "$p: header + 3000 records"
    expect_eq "$(grep -v '^#' "$T/$p.csv" | head -1)" "time_ms,op,key,size" "$p: header"
    expect_rc 0 "$p reads back" "$PAGETUNE" simulate --trace "$T/$p.csv" --app-cache 100 --json
    expect_contains "$OUT" '"gets"' "$p: simulate output"
done
# article sizes are the article's objects
expect_eq "$(grep -v '^#' "$T/article-10k.csv" | tail -n +2 | cut -d, -f4 | sort -u)" 10000 "article-10k: 10000-byte objects"
# sessions are invalidated: the mixed profile has dels
expect_contains "$(cut -d, -f2 "$T/mixed-sessions.csv" | sort -u | tr '\n' ' ')" "del" "mixed-sessions has invalidations"

# determinism
"$PAGETUNE" workload --profile trade-14pct --requests 5000 --seed 9 -o "$T/a.csv" -q
"$PAGETUNE" workload --profile trade-14pct --requests 5000 --seed 9 -o "$T/b.csv" -q
"$PAGETUNE" workload --profile trade-14pct --requests 5000 --seed 10 -o "$T/c.csv" -q
if cmp -s "$T/a.csv" "$T/b.csv"; then pass; else fail "same seed, different trace"; fi
if cmp -s "$T/a.csv" "$T/c.csv"; then fail "different seeds, same trace"; else pass; fi

# a profile file with an empirical sizes file beside it
cat >"$T/sizes.txt" <<'S'
# observed sizes
1000
5000

9000
S
cat >"$T/emp.yaml" <<'Y'
name: emp
keys: 50
size: {dist: empirical, file: sizes.txt}
mix: {get: 0.7, set: 0.3}
Y
expect_rc 0 "empirical profile" "$PAGETUNE" workload --profile "$T/emp.yaml" --requests 2000 -o "$T/emp.csv" -q
expect_eq "$(tail -n +3 "$T/emp.csv" | cut -d, -f4 | sort -n -u | tr '\n' ' ')" "1000 5000 9000 " "empirical sizes come from the file"
echo "12x" >>"$T/sizes.txt"
expect_rc 65 "bad sizes file" "$PAGETUNE" workload --profile "$T/emp.yaml" -o "$T/emp2.csv"
expect_one_line_error "bad sizes file"
expect_contains "$ERR" "sizes.txt:6" "bad sizes file names file:line"
[ ! -e "$T/emp2.csv" ] && pass || fail "failed run left a file"

# bad profiles and options
printf 'size: {dist: fixed, bytes: 10}\nmix: {get: 0.5, set: 0.1}\n' >"$T/bad.yaml"
expect_rc 65 "mix not summing to 1" "$PAGETUNE" workload --profile "$T/bad.yaml" -o "$T/x.csv"
expect_one_line_error "bad mix"
expect_contains "$ERR" "bad.yaml" "bad profile named"
printf 'size: [oops\n' >"$T/broken.yaml"
expect_rc 65 "broken YAML" "$PAGETUNE" workload --profile "$T/broken.yaml" -o "$T/x.csv"
expect_rc 64 "missing profile" "$PAGETUNE" workload --profile no-such-workload -o "$T/x.csv"
expect_contains "$ERR" "the profiles: article-10k" "missing profile: the names listed"
expect_rc 64 "no --profile" "$PAGETUNE" workload
expect_rc 64 "bad --requests" "$PAGETUNE" workload --profile trade-0pct --requests 0
expect_rc 64 "bad --seed" "$PAGETUNE" workload --profile trade-0pct --seed -3
expect_rc 64 "--json does not apply" "$PAGETUNE" workload --profile trade-0pct --json
[ ! -e "$T/x.csv" ] && pass || fail "failed run left x.csv"

# existing output: refused without --force, replaced with it
expect_rc 73 "existing output" "$PAGETUNE" workload --profile trade-0pct --requests 10 -o "$T/a.csv"
if cmp -s "$T/a.csv" "$T/b.csv"; then pass; else fail "refused run touched the file"; fi
expect_rc 0 "--force" "$PAGETUNE" workload --profile trade-0pct --requests 10 -o "$T/a.csv" --force -q
expect_eq "$(grep -vc '^#' "$T/a.csv")" 11 "--force replaced the file"

expect_rc 0 "--help" "$PAGETUNE" workload --help
for o in --profile --requests --seed --output --force --quiet; do
    expect_contains "$OUT" "$o" "--help lists $o"
done
finish
