# test_json_version.sh — every JSON document pagetune writes says which
# build wrote it, and every CSV writes its numbers one way (issue 32,
# docs/formats.md#conventions and #csv): each command's --json on stdout,
# each file an advise out-dir holds, and `diff --json`, carry
# "schema_version" first and a string "pagetune_version" equal to
# `pagetune --version` next; every number in every CSV is an integer or a
# decimal of at most 6 places with no trailing zero and no exponent.
# replay.json says its difference in percent under vs_first_pct.
. "$(dirname "$0")/lib.sh"
EX=$(dirname "$0")/../../examples
command -v python3 >/dev/null || { echo "SKIP: python3" >&2; exit 77; }

VER=$("$PAGETUNE" --version | awk 'NR == 1 { print $2 }')
"$PAGETUNE" workload --profile article-4k --requests 6000 -o "$T/t.csv" -q ||
    { echo "FAIL: workload" >&2; exit 1; }
calib_points || { echo "FAIL: calibration points" >&2; exit 1; }

# name|command: each prints a JSON document on stdout
J=()
J+=("recommend-sizes|recommend --sizes $EX/sessions-mixed.json --json")
J+=("recommend-trace|recommend --trace $T/t.csv --engine postgresql --json")
J+=("recommend-clients|recommend --trace $T/t.csv --clients 4 --json -q")
J+=("simulate|simulate --trace $T/t.csv --page-size 4K,16K --bufferpool 1M --json -q")
J+=("simulate-mrc|simulate --trace $T/t.csv --page-size 8K --bufferpool 1M --mrc --json -q")
J+=("replay|replay --trace $T/t.csv --page-size 4K,8K --cache 256K --rounds 2 --json -q")
J+=("calibrate|calibrate --points $T/points.csv --simulation $T/s30k.json --appserver $T/known.yaml -o $T/fit.yaml -f --json")
J+=("advise|advise --demo --validate sim --out-dir $T/adv -f -q --json")
for e in "${J[@]}"; do
    name=${e%%|*}
    # shellcheck disable=SC2086  # the commands hold no spaces in words
    "$PAGETUNE" ${e#*|} >"$T/$name.json" 2>"$T/$name.err" ||
        fail "$name: exit $?: $(cat "$T/$name.err")"
done
# the recommendation `recommend -o` writes, and the advise out-dir's files
"$PAGETUNE" recommend --sizes "$EX/sessions-mixed.txt" --json -o "$T/rec-o.json" ||
    fail "recommend -o"
# diff's document: two recommendations (exit 1: the budgets differ)
"$PAGETUNE" recommend --sizes "$EX/sessions-mixed.txt" --memory 64M --json -o "$T/rec-64.json" ||
    fail "recommend --memory 64M"
"$PAGETUNE" diff "$T/rec-o.json" "$T/rec-64.json" --json >"$T/diff.json"
expect_eq "$?" 1 "diff --json of two budgets"
cp "$T"/adv/*.json "$T/" 2>/dev/null
for f in sizes monitor recommendation simulation; do
    [ -f "$T/adv/$f.json" ] && pass || fail "advise wrote no $f.json"
done

python3 - "$T" "$VER" <<'PY' && pass || fail "a document without pagetune_version (above)"
import glob, json, os, sys
t, ver = sys.argv[1], sys.argv[2]
bad, n = [], 0
for p in sorted(glob.glob(os.path.join(t, "*.json")) + glob.glob(os.path.join(t, "adv", "*.json"))):
    n += 1
    try:
        with open(p) as f:
            d = json.load(f)
    except ValueError as e:
        bad.append(f"{p}: not JSON: {e}")
        continue
    keys = list(d)
    if keys[:2] != ["schema_version", "pagetune_version"]:
        bad.append(f"{p}: first members {keys[:2]}, want schema_version, pagetune_version")
    v = d.get("pagetune_version")
    if not isinstance(v, str) or v != ver:
        bad.append(f"{p}: pagetune_version {v!r}, want {ver!r}")
for b in bad:
    print("FAIL:", b, file=sys.stderr)
print(f"{n} documents checked")
sys.exit(1 if bad or n < 14 else 0)
PY

# ---- replay: the difference in percent, its unit in the name --------------
python3 - "$T/replay.json" <<'PY' && pass || fail "replay.json: vs_first_pct"
import json, sys
rs = json.load(open(sys.argv[1]))["results"]
ok = all("vs_first_pct" in r for r in rs)
for r in rs:
    for k in ("mean", "lo", "hi"):
        ok &= abs(r["vs_first_pct"][k] - 100 * r["vs_first"][k]) < 1e-4
sys.exit(0 if ok else 1)
PY

# ---- CSV: one number form in every column -------------------------------
C=()
C+=("recommend|recommend --sizes $EX/sessions-mixed.json --memory 512M --format csv")
C+=("replay|replay --trace $T/t.csv --page-size 4K,8K --cache 256K --format csv -q")
C+=("simulate|simulate --trace $T/t.csv --page-size 4K,16K --bufferpool 1M,4M --format csv -q")
C+=("simulate-clients|simulate --trace $T/t.csv --page-size 4K --bufferpool 1M --clients 4 --format csv -q")
C+=("calibrate|calibrate --points $T/points.csv --simulation $T/s30k.json --appserver $T/known.yaml -o $T/fit2.yaml --format csv")
C+=("advise|advise --demo --validate sim --out-dir $T/adv2 -q --format csv")
for e in "${C[@]}"; do
    name=${e%%|*}
    # shellcheck disable=SC2086
    "$PAGETUNE" ${e#*|} >"$T/$name.csv" 2>"$T/$name.err" ||
        fail "$name csv: exit $?: $(cat "$T/$name.err")"
done
"$PAGETUNE" simulate --trace "$T/t.csv" --page-size 8K --bufferpool 1M --mrc \
    --mrc-csv "$T/mrc.csv" -q >/dev/null || fail "simulate --mrc-csv"
python3 - "$T" <<'PY' && pass || fail "CSV number forms (above)"
import csv, glob, os, re, sys
num = re.compile(r"^-?[0-9]+(\.[0-9]*)?$")
ok_form = re.compile(r"^-?(0|[1-9][0-9]*)(\.[0-9]{0,5}[1-9])?$")
exp = re.compile(r"^[-+]?([0-9]+\.?[0-9]*|\.[0-9]+)[eE][-+]?[0-9]+$")
bad, n = [], 0
for p in sorted(glob.glob(os.path.join(sys.argv[1], "*.csv"))):
    if os.path.basename(p) in ("t.csv", "a30k.csv", "points.csv"):
        continue   # inputs
    n += 1
    for row in csv.DictReader(open(p, newline="")):
        for k, v in row.items():
            if not isinstance(v, str):
                bad.append(f"{os.path.basename(p)}: a row longer than the header")
                continue
            # a number in exponent form is the whole field ("1e-05"), not
            # digits inside a path: mktemp names such as pagetune-test.fup2e7
            # made this check fail at random in CI (stop 38)
            looks = num.match(v or "") or exp.match(v or "")
            if looks and not ok_form.match(v):
                bad.append(f"{os.path.basename(p)}: {k}={v!r}")
for b in bad[:20]:
    print("FAIL:", b, file=sys.stderr)
sys.exit(1 if bad or n < 7 else 0)
PY
finish
