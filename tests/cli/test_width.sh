# test_width.sh — tables and notes at 80 columns never split a word or a
# number (issue 31, point 2). For recommend, simulate, replay, advise --demo
# and calibrate on the built-in data and the shipped examples: at
# COLUMNS=80 and in a real 80-column terminal (a pty from script(1)) no
# line of standard output or standard error is wider than 80 columns, and
# every token (a run of non-blanks) of the same command's output at
# COLUMNS=200 appears whole at 80. Piped output without COLUMNS is 80 wide.
#
# Measured values differ from run to run: replay's timing columns (and the
# numbers of its notes) are compared by their shape (signs and digits
# masked: "-37.8%" as "#.#%", which still catches "-37." / "8%"), every
# other token exactly. The rules of dashes under headers are as wide as
# their column, not a token.
. "$(dirname "$0")/lib.sh"
EX=$(dirname "$0")/../../examples
command -v python3 >/dev/null || { echo "SKIP: python3" >&2; exit 77; }

"$PAGETUNE" workload --profile article-4k --requests 5000 -o "$T/t.csv" -q ||
    { echo "FAIL: workload" >&2; exit 1; }
# calibrate needs points: the model's own predictions at two loads
calib_points || { echo "FAIL: calibration points" >&2; exit 1; }

REC=(recommend --sizes "$EX/sessions-mixed.json" --memory 512M)
SIM=(simulate --trace "$T/t.csv" --engine db2 --page-size 4K,16K --bufferpool 1M,4M)
REP=(replay --trace "$T/t.csv" --page-size 4K,16K --cache 256K --rounds 2)
# advise validated by simulation is the same at every run; by replay its
# verdict's words follow the measurement: only the widths are compared
ADV=(advise --demo --requests 5000 --validate sim --out-dir "$T/adv" -f)
ADVR=(advise --demo --requests 5000 --replay-budget 4 --out-dir "$T/advr" -f)
CAL=(calibrate --points "$T/points.csv" --simulation "$T/s30k.json"
    --appserver "$T/known.yaml" -o "$T/fit.yaml" -f)

# check.py WIDTH OUT ERR OUT200 ERR200 [MEASURED]: the lines of OUT and ERR
# fit WIDTH; the tokens of OUT200 and ERR200 are whole in OUT and ERR.
# MEASURED, "h1|h2": the headers of OUT200's timing columns, whose cells,
# like every number on ERR200, are compared by shape
cat >"$T/check.py" <<'EOF'
import re, sys
from collections import Counter
width, out, err, out2, err2 = int(sys.argv[1]), *sys.argv[2:6]
measured = set(sys.argv[6].split("|")) if len(sys.argv) > 6 else None
RULE = r"-+(  +-+)*"

def text(f):
    return open(f, encoding="utf-8").read()

def tokens(s):
    return [t for t in s.split() if not re.fullmatch(r"-{2,}", t)]

def shape(t):
    return re.sub(r"[+-]?[0-9]+", "#", t)

def split_measured(lines):
    """(exact, by shape): the tokens of the lines, a table's cells under
    a measured header apart (the columns' spans from the rule)"""
    exact, loose, spans, cols = [], [], None, set()
    for i, line in enumerate(lines):
        if i + 1 < len(lines) and re.fullmatch(RULE, lines[i + 1]):
            spans = [m.span() for m in re.finditer(r"-+", lines[i + 1])]
            ends = [a for a, _ in spans[1:]] + [None]
            cols = {k for k, (a, _) in enumerate(spans)
                    if line[a:ends[k]].strip() in measured}
            exact.extend(tokens(line))
            continue
        if spans is None or not line.strip():
            spans = None if not line.strip() else spans
            exact.extend(tokens(line))
            continue
        for k, (a, _) in enumerate(spans):
            b = spans[k + 1][0] if k + 1 < len(spans) else None
            (loose if k in cols else exact).extend(tokens(line[a:b]))
    return exact, loose

bad = []
for f in (out, err):
    for n, line in enumerate(text(f).split("\n"), 1):
        if len(line) > width:
            bad.append(f"{f}:{n} is {len(line)} columns: {line[:60]}...")
t80 = Counter(tokens(text(out)) + tokens(text(err)))
if measured is None:
    exact, loose = tokens(text(out2)) + tokens(text(err2)), []
else:
    exact, loose = split_measured(text(out2).split("\n"))
    for t in tokens(text(err2)):
        (loose if re.search(r"[0-9]", t) else exact).append(t)
for t, k in Counter(exact).items():
    if t80[t] < k:
        bad.append(f"'{t}' is not whole at {width} ({t80[t]} of {k})")
s80 = Counter(shape(t) for t in t80.elements())
for t, k in Counter(shape(t) for t in loose).items():
    if s80[t] < k:
        bad.append(f"a token shaped '{t}' is not whole at {width}")
for b in bad[:8]:
    print(b)
sys.exit(1 if bad else 0)
EOF

# check NAME DESC WIDTH SUFFIX [MEASURED]: $T/NAME.SUFFIX{,.err} against
# $T/NAME.200{,.err}
check() {
    local out
    if out=$(python3 "$T/check.py" "$3" "$T/$1.$4" "$T/$1.$4.err" \
        "$T/$1.200" "$T/$1.200.err" "${@:5}"); then
        pass
    else
        fail "$2: $out"
    fi
}
REP_MEASURED="ops/s|req/s|req/s vs first|resp us|resp p95 us|p50 us|p95 us|p99 us"

for name in REC SIM REP ADV CAL; do
    declare -n cmd=$name
    for w in 200 80; do
        COLUMNS=$w "$PAGETUNE" "${cmd[@]}" >"$T/$name.$w" 2>"$T/$name.$w.err"
        expect_eq "$?" 0 "$name: COLUMNS=$w runs"
    done
    [ "$(grep -c '' "$T/$name.80")" -ge 4 ] && pass || fail "$name: output printed"
    if [ "$name" = REP ]; then
        check "$name" "${cmd[*]} at 80 columns" 80 80 "$REP_MEASURED"
    else
        check "$name" "${cmd[*]} at 80 columns" 80 80
    fi
    unset -n cmd
done
COLUMNS=80 "$PAGETUNE" "${ADVR[@]}" >"$T/ADVR.80" 2>"$T/ADVR.80.err"
expect_eq "$?" 0 "advise validated by replay runs"
cp "$T/ADVR.80" "$T/ADVR.200"
cp "$T/ADVR.80.err" "$T/ADVR.200.err"
check ADVR "advise validated by replay at 80 columns" 80 80

# the record layout: recommend's candidates at 40 columns, one block per
# page size, every word whole
COLUMNS=40 "$PAGETUNE" "${REC[@]}" >"$T/REC.40" 2>"$T/REC.40.err"
check REC "recommend at 40 columns" 40 40
expect_contains "$(cat "$T/REC.40")" "direct_reads/acc  0.0330" "records at 40 columns"

# piped, no COLUMNS: 80 columns, not one line per row; notes stay one line
(unset COLUMNS; "$PAGETUNE" "${REC[@]}" 2>"$T/REC.pipe.err" | cat >"$T/REC.pipe")
check REC "recommend piped" 80 pipe
(unset COLUMNS; "$PAGETUNE" "${SIM[@]}" 2>"$T/SIM.pipe.err" | cat >"$T/SIM.pipe")
check SIM "simulate piped" 80 pipe
(unset COLUMNS; "$PAGETUNE" "${REP[@]}" 2>&1 >/dev/null | cat >"$T/REP.notes")
n=$(grep -c '^pagetune: 4K: .* LOB records$' "$T/REP.notes")
expect_eq "$n" 1 "replay's note on a pipe is one line"

# ---- a real terminal of 80 columns (script(1) gives a pty) ---------------
# standard error too: the progress bars are drawn over one line with \r,
# each draw must fit; escape sequences take no columns
if command -v script >/dev/null; then
    for name in REC SIM REP ADV ADVR CAL; do
        declare -n cmd=$name
        script -qec "stty cols 80; unset COLUMNS; '$PAGETUNE' ${cmd[*]@Q}" \
            /dev/null >"$T/tty.raw" 2>&1
        python3 - "$T/tty.raw" >"$T/TTY.80" <<'EOF'
import re, sys
s = open(sys.argv[1], encoding="utf-8", errors="replace").read()
s = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", s)
print("\n".join(re.split(r"[\r\n]", s)))
EOF
        : >"$T/TTY.80.err"
        cp "$T/TTY.80" "$T/TTY.200"
        : >"$T/TTY.200.err"
        check TTY "$name: stty cols 80" 80 80
        [ "$(grep -c . "$T/TTY.80")" -ge 4 ] && pass || fail "$name: tty: output printed"
        unset -n cmd
    done
fi

finish
