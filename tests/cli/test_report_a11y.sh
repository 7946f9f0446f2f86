#!/usr/bin/env bash
# test_report_a11y.sh — what report.html promises a reader (issue 31,
# points 5 and 8), read from the page itself by tests/tools/report_a11y.py:
# every compared row of current vs recommended carries ✓ better, ✗ worse
# or "= same", in agreement with its change column and the way the row
# says is better; the Action box names every destructive step of applying
# create.sql (for DB2: SESSIONS is dropped, WebSphere restarts), the same
# steps create.sql's own comments describe; and the WCAG AA contrast of
# the page's colours computed from its CSS and inline SVG: text >= 4.5:1,
# chart lines, bars and swatches >= 3:1. First on the report `advise
# --demo` writes (a real run), then on a model using all six palette
# colours (tests/tools/pt_report), then on doctored copies that must fail.
. "$(dirname "$0")/lib.sh"

SRC=${PT_SOURCE_DIR:-$(cd "$(dirname "$0")/../.." && pwd)}
A11Y="$SRC/tests/tools/report_a11y.py"

# check FILE NAME ARGS...: the analyser passes; its summary is shown
check() {
    local f=$1 name=$2
    shift 2
    py_check "$name" "$A11Y" "$f" "$@"
}

# check_fails FILE NAME WANT ARGS...: the analyser fails and says WANT
check_fails() {
    local f=$1 name=$2 want=$3 out
    shift 3
    if out=$(python3 "$A11Y" "$f" "$@" 2>&1); then
        fail "$name: the analyser passed a page it must refuse"
    else
        expect_contains "$out" "$want" "$name"
    fi
}

# 1. the page a real run writes: the demo answers the DB2 question
D="$T/demo"
expect_rc 0 "advise --demo" "$PAGETUNE" advise --demo --out-dir "$D" --quiet
R="$D/report.html"
check "$R" demo --all-marked \
    --action-contains 'Applying create.sql:' \
    --action-contains 'drops table "SESSIONS"' \
    --action-contains 'every session stored in it is lost' \
    --action-contains 'restarts the WebSphere application servers'
# the step the Action box names is the one create.sql describes
grep -q '^--   DROP TABLE "SESSIONS";' "$D/create.sql" && pass ||
    fail "demo: create.sql does not describe dropping SESSIONS"
# the comparison is the outcomes: no "simulated buffer-pool pages" row
# (the pools are the comparison's condition, equal bytes, not a result)
grep -q 'simulated buffer-pool pages' "$R" &&
    fail "demo: the pool pages are compared as an outcome" || pass
n=$(grep -c '<span class="dir">\(higher\|lower\) is better</span>' "$R")
[ "$n" -ge 8 ] && pass || fail "demo: $n rows say which way is better, want 8"

# 2. a model using every palette colour (six limits, six curves), a row
# that stays the same and one without a value
if [ -z "${PT_REPORT:-}" ]; then
    [ "${CI:-}" = true ] && fail "PT_REPORT is not set (run through ctest)"
    echo "  note: PT_REPORT unset, the full-palette checks are skipped"
    finish
fi
cat >"$T/model.json" <<'EOF'
{
  "title": "pagetune advice",
  "verdict": {"word": "confirms", "text": "replay agrees"},
  "action": {"page_size": 16384, "bufferpool_pages": 1000, "current_page_size": 4096,
             "current_bufferpool_pages": 500,
             "destructive": ["VACUUM FULL rewrites \"sessions\" under an ACCESS EXCLUSIVE lock"]},
  "sizes": {"count": 100, "histogram": [{"le": 1024, "count": 20}, {"le": 4096, "count": 50},
            {"le": 16384, "count": 25}, {"le": 65536, "count": 5}]},
  "limits": [{"page_size": 2048, "inline_limit": 1000}, {"page_size": 4096, "inline_limit": 3122},
             {"page_size": 8192, "inline_limit": 7218}, {"page_size": 16384, "inline_limit": 15410},
             {"page_size": 32768, "inline_limit": 31794}, {"page_size": 65536, "inline_limit": 60000}],
  "recommendation": {"page_size": 16384},
  "mrc": [{"page_size": 2048, "points": [{"pages": 1, "hit_ratio": 0.1}, {"pages": 900, "hit_ratio": 0.9}]},
          {"page_size": 4096, "points": [{"pages": 1, "hit_ratio": 0.1}, {"pages": 500, "hit_ratio": 0.9}]},
          {"page_size": 8192, "points": [{"pages": 1, "hit_ratio": 0.1}, {"pages": 300, "hit_ratio": 0.92}]},
          {"page_size": 16384, "points": [{"pages": 1, "hit_ratio": 0.1}, {"pages": 200, "hit_ratio": 0.95}]},
          {"page_size": 32768, "points": [{"pages": 1, "hit_ratio": 0.1}, {"pages": 100, "hit_ratio": 0.96}]},
          {"page_size": 65536, "points": [{"pages": 1, "hit_ratio": 0.1}, {"pages": 50, "hit_ratio": 0.97}]}],
  "comparison": {"columns": ["current (4K pages)", "recommended (16K pages)"],
    "rows": [{"label": "I/O per get (ms)", "better": "lower", "values": [0.1, 0.02], "flags": [null, "better"]},
             {"label": "ops/s", "better": "higher", "values": [6000, 5000], "flags": [null, "worse"]},
             {"label": "hit ratio", "better": "higher", "values": [0.9180, 0.91802], "flags": [null, "same"]},
             {"label": "physical reads", "better": "lower", "values": [657, null]}]}
}
EOF
F="$T/full.html"
expect_rc 0 "pt_report renders the six-colour model" "$PT_REPORT" "$T/model.json" "$F"
check "$F" full --all-marked --action-contains 'VACUUM FULL rewrites "sessions"'
out=$(python3 "$A11Y" "$F" 2>&1)
for c in '#0072b2' '#9c6c00' '#008460' '#bb4d8a' '#a0322d' '#332288'; do
    expect_contains "$out" "$c" "full: palette colour $c is used as text"
done
# a change that rounds to none: "= same" and "none", never ✓ or ✗
grep -q 'hit ratio<span class="dir">higher is better</span>.*<span class="mk same">= same</span></span></td><td data-label="Change">none</td>' "$F" &&
    pass || fail "full: the unchanged row is not marked '= same' with change 'none'"
# no destructive step: the Action box says so
sed 's/"destructive": \[[^]]*\]/"destructive": []/' "$T/model.json" >"$T/none.json"
expect_rc 0 "pt_report renders a model without destructive steps" \
    "$PT_REPORT" "$T/none.json" "$T/none.html"
check "$T/none.html" none --action-contains 'create.sql drops no data'

# 3. the analyser fails where the page breaks a promise
sed 's/#9c6c00/#e69f00/g' "$F" >"$T/orange.html" # the old 8K orange
check_fails "$T/orange.html" "old orange" "text in #e69f00 on #fff is 2.25:1"
sed 's/#b9c9d9" stroke="#5f7a94"/#9fb3c8"/' "$F" >"$T/bars.html" # the old bars
check_fails "$T/bars.html" "old bars" "a rect in #9fb3c8 on #fff is 2.15:1"
sed 's/<span class="mk worse">&#10007; worse<\/span>//' "$F" >"$T/unmarked.html"
check_fails "$T/unmarked.html" "a row unmarked" "'ops/s' has no" --all-marked
sed 's/<span class="mk worse">&#10007; worse/<span class="mk better">\&#10003; better/' \
    "$F" >"$T/wrong.html"
check_fails "$T/wrong.html" "a wrong mark" "'ops/s' (higher is better) is marked better" --all-marked
check_fails "$F" "a missing step" "action box does not say" --action-contains 'DROP TABLE'
finish
