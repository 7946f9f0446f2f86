# test_diff.sh — `pagetune diff A B` (issue 32, pagetune-diff(1)): two
# recommendations that differ in the pool (two --memory budgets) or the
# page size (two --inline-target) name what changed and exit 1; a run
# against itself, or two runs whose advice is the same, exit 0; two advise
# out-dirs with different budgets name the pool and exit 1, the figures of
# validation ride along without changing the exit; table, JSON (documented
# in docs/formats.md#diff) and CSV agree; bad operands are one line and
# the documented code (64 usage, 65 not a recommendation, 66 missing).
. "$(dirname "$0")/lib.sh"
EX=$(dirname "$0")/../../examples
command -v python3 >/dev/null || { echo "SKIP: python3" >&2; exit 77; }

rec() { # OUT ARGS...: recommend --json -o OUT
    local out=$1
    shift
    "$PAGETUNE" recommend "$@" --json -o "$out" -f -q || fail "recommend $*"
}
rec "$T/m64.json" --sizes "$EX/sessions-mixed.json" --memory 64M
rec "$T/m64b.json" --sizes "$EX/sessions-mixed.txt" --memory 64M
rec "$T/m512.json" --sizes "$EX/sessions-mixed.json" --memory 512M
rec "$T/i50.json" --sizes "$EX/sessions-mixed.json" --inline-target 0.5
rec "$T/i99.json" --sizes "$EX/sessions-mixed.json" --inline-target 0.99
for e in postgresql mysql sqlite; do
    rec "$T/$e-64.json" --engine "$e" --sizes "$EX/sessions-mixed.json" --memory 64M
    rec "$T/$e-512.json" --engine "$e" --sizes "$EX/sessions-mixed.json" --memory 512M
done

# ---- the pool changed: exit 1, the table names it ---------------------
expect_rc 1 "diff 64M 512M" "$PAGETUNE" diff "$T/m64.json" "$T/m512.json"
expect_contains "$OUT" "the advice changed" "diff 64M 512M says so"
expect_contains "$OUT" "buffer pool" "diff 64M 512M names the pool"
expect_contains "$OUT" "8,192 pages of 8K (64M)" "diff 64M 512M: A's pool"
expect_contains "$OUT" "65,536 pages of 8K (512M)" "diff 64M 512M: B's pool"
expect_contains "$OUT" "CHANGED" "diff 64M 512M marks the change"
case "$OUT" in *"page size  "*) fail "an unchanged page size is listed" ;; *) pass ;; esac
expect_eq "$ERR" "" "diff: nothing on stderr"

# ---- the page size changed ---------------------------------------------
expect_rc 1 "diff inline 0.5 vs 0.99" "$PAGETUNE" diff "$T/i50.json" "$T/i99.json" --json
python3 - "$OUT" <<'PY' && pass || fail "diff --json of two inline targets: page size not named"
import json, sys
d = json.loads(sys.argv[1])
items = {i["key"]: i for i in d["items"]}
ps = items["page_size"]
ok = (d["advice_changed"] is True and "page_size" in d["changed"]
      and ps["kind"] == "advice" and ps["changed"] and ps["a"] != ps["b"]
      and list(d)[:2] == ["schema_version", "pagetune_version"])
sys.exit(0 if ok else 1)
PY

# ---- no change: itself, and the same advice from another file -----------
expect_rc 0 "diff against itself" "$PAGETUNE" diff "$T/m64.json" "$T/m64.json"
expect_contains "$OUT" "the advice did not change" "diff itself says so"
# the text list and the JSON of the same sizes: same advice, other inputs
expect_rc 0 "diff same advice from two files" "$PAGETUNE" diff "$T/m64.json" "$T/m64b.json" --json
python3 - "$OUT" <<'PY' && pass || fail "diff same advice: advice_changed or changed[] wrong"
import json, sys
d = json.loads(sys.argv[1])
sys.exit(0 if d["advice_changed"] is False and d["changed"] == [] else 1)
PY

# ---- other engines: their settings are advice ------------------------------
for e in postgresql mysql sqlite; do
    expect_rc 1 "$e: diff 64M 512M" "$PAGETUNE" diff "$T/$e-64.json" "$T/$e-512.json" --json
    python3 - "$OUT" "$e" <<'PY' && pass || fail "$e: diff names no changed pool setting"
import json, sys
d = json.loads(sys.argv[1])
ch = d["changed"]
# the pool is the engine's own setting (shared_buffers_kb, innodb_buffer_pool_size,
# cache_size_kib) besides bufferpool.pages
ok = "bufferpool.pages" in ch and any(k.startswith("settings.") for k in ch)
ok &= not any(k.startswith("settings.current_") or k.startswith("settings.previous_") for k in ch)
sys.exit(0 if ok else 1)
PY
    expect_rc 0 "$e: diff itself" "$PAGETUNE" diff "$T/$e-64.json" "$T/$e-64.json"
done

# ---- CSV: every item, one record each, the JSON's values -------------------
expect_rc 1 "diff --format csv" "$PAGETUNE" diff "$T/m64.json" "$T/m512.json" --format csv
printf '%s\n' "$OUT" >"$T/d.csv"
"$PAGETUNE" diff "$T/m64.json" "$T/m512.json" --json >"$T/d.json"
python3 - "$T/d.csv" "$T/d.json" <<'PY' && pass || fail "diff CSV and JSON disagree"
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
d = json.load(open(sys.argv[2]))
assert [r["key"] for r in rows] == [i["key"] for i in d["items"]], "keys"
for r, i in zip(rows, d["items"]):
    assert r["changed"] == ("true" if i["changed"] else "false"), r
    assert r["kind"] == i["kind"], r
    if isinstance(i["a"], (int, float)) and not isinstance(i["a"], bool):
        assert abs(float(r["a"]) - i["a"]) < 1e-6, r
PY

# ---- -o writes the file, and refuses to replace it ---------------------------
expect_rc 1 "diff -o" "$PAGETUNE" diff "$T/m64.json" "$T/m512.json" -o "$T/out.txt"
[ -s "$T/out.txt" ] && pass || fail "diff -o wrote nothing"
expect_rc 73 "diff -o exists" "$PAGETUNE" diff "$T/m64.json" "$T/m512.json" -o "$T/out.txt"

# ---- two advise runs with different budgets ------------------------------
"$PAGETUNE" advise --demo --validate sim --memory 64M --out-dir "$T/adv64" -q >/dev/null ||
    fail "advise --memory 64M"
"$PAGETUNE" advise --demo --validate sim --memory 1G --out-dir "$T/adv1g" -q >/dev/null ||
    fail "advise --memory 1G"
expect_rc 1 "diff two advise out-dirs" "$PAGETUNE" diff "$T/adv64" "$T/adv1g"
expect_contains "$OUT" "buffer pool" "diff of advise runs names the pool"
expect_contains "$OUT" "4,096 pages of 16K (64M)" "diff of advise runs: A's pool"
expect_rc 0 "diff an advise out-dir against itself" "$PAGETUNE" diff "$T/adv64" "$T/adv64/"
expect_rc 0 "diff an out-dir and its recommendation.json" \
    "$PAGETUNE" diff "$T/adv64" "$T/adv64/recommendation.json" --json
python3 - "$OUT" <<'PY' && pass || fail "advise out-dir: validation figures not compared"
import json, sys
d = json.loads(sys.argv[1])
keys = {i["key"] for i in d["items"]}
need = {"validation.validated_by.method", "validation.simulation.io_change_pct"}
sys.exit(0 if need <= keys and d["advice_changed"] is False else 1)
PY

# ---- bad operands: one line, the documented code ------------------------
mkdir "$T/empty"
echo '{"schema_version": 1, "x": 1}' >"$T/other.json"
echo 'not json' >"$T/text.json"
expect_rc 66 "missing A" "$PAGETUNE" diff "$T/nope.json" "$T/m64.json"
expect_one_line_error "missing A"
expect_contains "$ERR" "nope.json" "missing A names it"
expect_rc 66 "missing B" "$PAGETUNE" diff "$T/m64.json" "$T/nope.json"
expect_rc 66 "a directory without recommendation.json" "$PAGETUNE" diff "$T/empty" "$T/m64.json"
expect_one_line_error "directory without recommendation.json"
expect_contains "$ERR" "without recommendation.json" "empty dir: says what is missing"
expect_rc 65 "a JSON that is no recommendation" "$PAGETUNE" diff "$T/m64.json" "$T/other.json"
expect_one_line_error "not a recommendation"
expect_contains "$ERR" "other.json" "not a recommendation: names the file"
expect_rc 65 "another pagetune document" "$PAGETUNE" diff "$T/adv64/sizes.json" "$T/m64.json"
expect_one_line_error "sizes.json as A"
expect_contains "$ERR" "not a recommendation" "sizes.json as A: says so"
expect_rc 65 "not JSON" "$PAGETUNE" diff "$T/text.json" "$T/m64.json"
expect_one_line_error "not JSON"
expect_rc 64 "one operand" "$PAGETUNE" diff "$T/m64.json"
expect_one_line_error "one operand"
expect_rc 64 "three operands" "$PAGETUNE" diff "$T/m64.json" "$T/m64.json" "$T/m64.json"
expect_rc 64 "no operand" "$PAGETUNE" diff
expect_rc 64 "unknown option" "$PAGETUNE" diff --frob "$T/m64.json" "$T/m64.json"

# ---- the command is in the table: help, completion ------------------------
expect_rc 0 "__complete" "$PAGETUNE" __complete
expect_contains "$OUT" "diff" "__complete lists diff"
expect_rc 0 "__complete diff" "$PAGETUNE" __complete diff
expect_contains "$OUT" "--format choice" "__complete diff lists --format"
expect_rc 0 "diff --help" "$PAGETUNE" diff --help
expect_contains "$OUT" "usage: pagetune diff A B" "diff --help: usage"
finish
