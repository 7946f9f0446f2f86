#!/usr/bin/env bash
# test_progress.sh — the progress line of a plan of replays (issue 31,
# point 6): under a real terminal (a pty from script(1)) `replay` and
# `advise --demo` draw one bar per stage (each store's load and warm-up,
# each round) with the whole plan's time left ("all 0:05", "all at most
# 0:19" when the rounds may stop early); every bar starts at 0.0 % and
# never goes back (the warm-up of the second page size once started at
# 100 % and sat there for its whole pass); a note never shares a line with
# a bar; the line fits 80 columns. With -q or a stderr that is not a
# terminal no bar is drawn. No timing is asserted. See pagetune-replay(1)
# and pagetune-advise(1), PROGRESS.
. "$(dirname "$0")/lib.sh"
command -v python3 >/dev/null || { echo "SKIP: python3" >&2; exit 77; }
command -v script >/dev/null || { echo "SKIP: script(1)" >&2; exit 77; }

"$PAGETUNE" workload --profile article-4k --requests 2000 -o "$T/t.csv" -q ||
    { echo "FAIL: workload" >&2; exit 1; }

# tty NAME ARGS...: run pagetune under a pty of $COLS columns (80),
# stderr and stdout both to the terminal, raw bytes in $T/NAME.raw
tty() {
    local name=$1
    shift
    script -qec "stty cols ${COLS:-80}; unset COLUMNS; TERM=xterm '$PAGETUNE' ${*@Q}" \
        /dev/null >"$T/$name.raw" 2>&1
}

# bars NAME [COLS]: check the bars of $T/NAME.raw (a plan's bars start at
# 0 %: the trace load's may be drawn only at its end) and that no line is
# wider than COLS (80); prints the problems (none: ok) and writes the bar
# labels seen, one a line, to $T/NAME.labels
bars() {
    python3 - "$T/$1.raw" "$T/$1.labels" "${2:-80}" <<'EOF'
import re, sys
raw = open(sys.argv[1], encoding="utf-8", errors="replace").read()
segs = [s for s in re.split(r"[\r\n]", raw.replace("\x1b[K", "")) if s.strip()]
bar = re.compile(r"^(\S.*?) \[[# ]*\] +(\d+\.\d)%(.*)$")
labels, prev = [], None
for s in segs:
    if len(s) > int(sys.argv[3]):
        print("line of %d columns: %r" % (len(s), s))
    m = bar.match(s)
    if not m:
        if re.search(r"\[[# ]*\] +\d+\.\d%", s):
            print("a bar and other text on one line: %r" % s)
        prev = None
        continue
    label, pct = m.group(1), float(m.group(2))
    if label not in labels:
        labels.append(label)
    plan = re.match(r"(warm-up|round) ", label)
    if prev is None or prev[0] != label:
        if plan and pct != 0.0:
            print("bar %r starts at %.1f %%" % (label, pct))
    elif pct < prev[1]:
        print("bar %r goes back from %.1f to %.1f %%" % (label, prev[1], pct))
    prev = (label, pct)
open(sys.argv[2], "w").write("".join(l + "\n" for l in labels))
EOF
}

# ---- replay: every rounds runs, the overall figure is an estimate ---------
tty rep replay --trace "$T/t.csv" --page-size 4K,16K --rounds 2 --cache 256K
expect_eq "$(bars rep)" "" "replay: bars start at 0 %, never go back, fit 80"
expect_contains "$(cat "$T/rep.labels")" "warm-up 4K: loading" "replay: the load has a bar"
expect_contains "$(cat "$T/rep.labels")" "warm-up 16K" "replay: the second warm-up has a bar"
expect_contains "$(cat "$T/rep.labels")" "round 2/2" "replay: round k/n"
grep -Eq "\] +[0-9.]+%  (ETA [0-9:]+, )?all [0-9]+:[0-9]{2}" "$T/rep.raw" &&
    pass || fail "replay: the whole plan's time left ('all M:SS')"
if grep -q "all at most" "$T/rep.raw"; then fail "replay: every round runs, yet 'at most'"; else pass; fi

# a narrow terminal: the bar, then the whole plan's figure give way
COLS=50 tty rep50 replay --trace "$T/t.csv" --page-size 4K,16K --rounds 2 --cache 256K
expect_eq "$(bars rep50 50)" "" "replay: 50 columns: no line wider"
expect_contains "$(cat "$T/rep50.labels")" "measuring the stores" "replay: 50 columns: bars drawn"

# ---- replay --budget: the rounds may stop early, so "at most" -------------
tty repb replay --trace "$T/t.csv" --page-size 4K,16K --rounds 3 --budget 30 --cache 256K
expect_eq "$(bars repb)" "" "replay --budget: bars"
grep -Eq "all at most [0-9]+:[0-9]{2}" "$T/repb.raw" &&
    pass || fail "replay --budget: 'all at most M:SS'"

# ---- advise --demo: the demo store's replay and the validation's ----------
tty adv advise --demo --requests 2000 --replay-budget 1 --validate replay \
    --out-dir "$T/adv" -f
expect_eq "$(bars adv)" "" "advise: bars start at 0 %, never go back, no note on a bar line"
expect_contains "$(cat "$T/adv.labels")" "round 1/100" "advise: the validation's rounds have a bar"
grep -Eq "all at most [0-9]+:[0-9]{2}" "$T/adv.raw" &&
    pass || fail "advise: the validation's 'all at most M:SS'"
grep -q "validating by replay" "$T/adv.raw" && pass || fail "advise: the replay's note"
grep -q "^verdict" <(tr -d '\r' <"$T/adv.raw") && pass || fail "advise: the summary on a line of its own"

# ---- no bar with -q, or when stderr is not a terminal ---------------------
tty repq replay -q --trace "$T/t.csv" --page-size 4K,16K --rounds 2 --cache 256K
if grep -Eq "warm-up|round [0-9]+/|\] +[0-9.]+%" "$T/repq.raw"; then fail "replay -q on a TTY: bar drawn"; else pass; fi
tty advq advise -q --demo --requests 2000 --replay-budget 1 --validate replay \
    --out-dir "$T/adv" -f
if grep -Eq "warm-up|round [0-9]+/" "$T/advq.raw"; then fail "advise -q on a TTY: bar drawn"; else pass; fi
"$PAGETUNE" replay --trace "$T/t.csv" --page-size 4K,16K --rounds 2 --cache 256K \
    >/dev/null 2>"$T/rep.err"
if grep -Eq "warm-up|round [0-9]+/|"$'\r' "$T/rep.err"; then fail "replay, stderr a file: bar drawn"; else pass; fi
"$PAGETUNE" advise --demo --requests 2000 --replay-budget 1 --validate replay \
    --out-dir "$T/adv" -f >/dev/null 2>"$T/adv.err"
grep -q "validating by replay" "$T/adv.err" && pass || fail "advise, stderr a file: notes"
if grep -Eq "warm-up|round [0-9]+/|"$'\r' "$T/adv.err"; then fail "advise, stderr a file: bar drawn"; else pass; fi

finish
