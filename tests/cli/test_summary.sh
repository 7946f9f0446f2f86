# test_summary.sh — the closing summary of recommend's and advise's tables
# (issue 32): every finding tagged ok, change or warning, then a "next
# steps" block with the files to review, the command that applies them
# (the engine's own client) and the maintenance-window note. Only the
# table has it: CSV and JSON keep their documented shapes.
. "$(dirname "$0")/lib.sh"
EX=$(dirname "$0")/../../examples
command -v python3 >/dev/null || { echo "SKIP: python3" >&2; exit 77; }

# tags FILE: every finding row of FILE's "findings:" block starts with a
# tag; prints the tags, one a line
tags() {
    python3 - "$1" <<'PY'
import sys
lines = open(sys.argv[1]).read().split("\n")
i = lines.index("findings:")
assert lines[i + 1].split() == ["tag", "finding"], lines[i + 1]
for l in lines[i + 3:]:
    if not l.strip():
        break
    if l.startswith(" "):
        continue   # a wrapped finding
    t = l.split()[0]
    assert t in ("ok", "change", "warning"), l
    print(t)
PY
}

# ---- recommend, every engine ---------------------------------------------
declare -A APPLY=([db2]="db2 -tvf ddl-review/create.sql"
    [postgresql]="psql -v ON_ERROR_STOP=1 -f ddl-review/create.sql"
    [mysql]="mariadb < ddl-review/create.sql"
    [sqlite]="sqlite3 DATABASE < ddl-review/create.sql"
    [oracle]="sqlplus / as sysdba @ddl-review/create.sql")
for e in db2 postgresql mysql sqlite oracle; do
    COLUMNS=200 "$PAGETUNE" recommend --engine "$e" --sizes "$EX/sessions-mixed.json" \
        --memory 512M >"$T/$e.txt" || fail "recommend $e"
    t=$(tags "$T/$e.txt") || fail "recommend $e: a finding without a tag"
    expect_contains "$t" "change" "recommend $e: a change is tagged"
    out=$(cat "$T/$e.txt")
    expect_contains "$out" "next steps:" "recommend $e: next steps"
    expect_contains "$out" "--dialect $e --out-dir ddl-review" "recommend $e: how to write the DDL"
    expect_contains "$out" "${APPLY[$e]}" "recommend $e: the command to apply"
    expect_contains "$out" "maintenance window" "recommend $e: when"
    # the last block is the next steps
    last=$(awk 'NF == 0 { b = "" } NF { b = b $0 "\n" } END { printf "%s", b }' "$T/$e.txt" | head -1)
    expect_eq "$last" "next steps:" "recommend $e: ends with the next steps"
done
# a page size already in use is ok; the default's not read is a warning
t=$(tags "$T/postgresql.txt")
expect_contains "$t" "ok" "recommend postgresql: the page size in use is ok"
expect_contains "$(cat "$T/postgresql.txt")" "page size 8K: the one in use" "postgresql: ok finding"
expect_contains "$t" "warning" "recommend: an assumed page size is a warning"
# the reason for a change is in the finding
expect_contains "$(cat "$T/db2.txt")" "page size 4K -> 8K: 96.7% stored inline at 8K" "db2: the change and why"

# ---- CSV and JSON do not carry it ------------------------------------------
"$PAGETUNE" recommend --sizes "$EX/sessions-mixed.json" --format csv >"$T/r.csv"
grep -q 'findings\|next steps' "$T/r.csv" && fail "recommend csv has the summary" || pass
"$PAGETUNE" recommend --sizes "$EX/sessions-mixed.json" --json >"$T/r.json"
grep -q 'next steps' "$T/r.json" && fail "recommend json has the summary" || pass

# ---- advise ------------------------------------------------------------------
COLUMNS=200 "$PAGETUNE" advise --demo --validate sim --out-dir "$T/adv" -q >"$T/adv.txt" ||
    fail "advise --validate sim"
t=$(tags "$T/adv.txt") || fail "advise: a finding without a tag"
expect_contains "$t" "change" "advise: the change is tagged"
expect_contains "$t" "warning" "advise: simulation only is a warning"
out=$(cat "$T/adv.txt")
expect_contains "$out" "change   page size 4K -> 16K" "advise: the page size change"
expect_contains "$out" "validated by simulation only" "advise: no measured verdict"
expect_contains "$out" "review  $T/adv/report.html" "advise: the files to review"
expect_contains "$out" "apply   db2 -tvf $T/adv/create.sql" "advise: the command to apply"
expect_contains "$out" "undo    db2 -tvf $T/adv/rollback.sql" "advise: the rollback"
expect_contains "$out" "maintenance window" "advise: when"
"$PAGETUNE" advise --demo --validate none --out-dir "$T/adv2" -q --format csv >"$T/adv.csv" ||
    fail "advise csv"
grep -q 'findings\|next steps' "$T/adv.csv" && fail "advise csv has the summary" || pass
finish
