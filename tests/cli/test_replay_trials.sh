#!/usr/bin/env bash
# test_replay_trials.sh — replay --trials N (issue 25): the rounds run N
# times over fresh stores; replay.json counts the trials and every round,
# and each page size's interval comes from the N trials' mean differences
# (Student t with N - 1 degrees of freedom), its half-width reported.
. "$(dirname "$0")/lib.sh"

# a write-back trace of 4000-byte sessions: in the row at 8K, in the LOB
# area at 4K
awk 'BEGIN { print "time_ms,op,key,size"; srand(3)
    for (i = 0; i < 1500; i++) { k = int(rand() * 300)
        printf "%d,get,s%04d,4000\n%d,set,s%04d,4000\n", i, k, i, k } }' >"$T/t.csv"

expect_rc 0 "replay --trials 3" "$PAGETUNE" replay -q --json --trace "$T/t.csv" \
    --page-size 4K,8K --rounds 2 --warmup-rounds 0 --trials 3 -o "$T/r3.json"
python3 - "$T/r3.json" <<'PY' && pass || fail "replay.json of 3 trials"
import json, math, sys
d = json.load(open(sys.argv[1]))
assert d["trials"] == 3, d["trials"]
# every round of every trial is in the document
assert d["rounds"] == 6, d["rounds"]
for r in d["results"]:
    assert len(r["rounds_rps"]) == 6, r["rounds_rps"]
v = d["results"][1]["vs_first_pct"]
assert v["lo"] <= v["mean"] <= v["hi"], v
assert abs(v["half_width"] - (v["hi"] - v["lo"]) / 2) < 1e-6, v
# the interval is the trials': the mean of per-trial means of the round
# ratios, t(2) = 4.303 times their standard error
a, b = d["results"][0]["rounds_rps"], d["results"][1]["rounds_rps"]
means = [sum(b[k] / a[k] - 1 for k in (2 * t, 2 * t + 1)) / 2 for t in range(3)]
m = sum(means) / 3
s = math.sqrt(sum((x - m) ** 2 for x in means) / 2)
assert abs(v["mean"] - 100 * m) < 1e-6, (v, m)
assert abs(v["half_width"] - 100 * 4.303 * s / math.sqrt(3)) < 1e-3, (v, s)
PY

# one trial: the rounds' interval, as before
expect_rc 0 "replay without --trials" "$PAGETUNE" replay -q --json --trace "$T/t.csv" \
    --page-size 4K,8K --rounds 3 --warmup-rounds 0 -o "$T/r1.json"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["trials"] == 1 and d["rounds"] == 3, d' \
    "$T/r1.json" && pass || fail "one trial"

# --keep keeps the last trial's stores only, and no other file
expect_rc 0 "replay --trials 2 --keep" "$PAGETUNE" replay -q --trace "$T/t.csv" \
    --page-size 4K --rounds 2 --warmup-rounds 0 --trials 2 --keep --store-dir "$T/sd"
n=$(ls "$T/sd" | grep -c '^store-4K\.db$')
expect_eq "$n" "1" "one kept store"

expect_rc 64 "--trials 0" "$PAGETUNE" replay --trace "$T/t.csv" --trials 0
expect_one_line_error "--trials 0"
expect_rc 64 "--trials 11" "$PAGETUNE" replay --trace "$T/t.csv" --trials 11
expect_one_line_error "--trials 11"
finish
