#!/usr/bin/env bash
# test_ddl_keywords.sh — issue 13 at the command line: every keyword of
# every dialect (ddl_templates/<dialect>/dialect.yaml "keywords", reserved
# and nonreserved) given as each name `pagetune ddl` takes (--table,
# --column, --name, --bufferpool-name) comes out quoted the dialect's way
# after its case folding, and nothing else in the scripts changes; then
# `pagetune advise` on keyword-named tables (a SQLite database through the
# SQLite ODBC driver, when installed) for every engine; and a dialect
# without a quoting rule refuses a keyword with 65 and one line.
. "$(dirname "$0")/lib.sh"
EX=$PT_SOURCE_DIR/examples

for e in db2 postgresql mysql sqlite oracle; do
    expect_rc 0 "recommend --engine $e" "$PAGETUNE" recommend --engine "$e" \
        --sizes "$EX/sessions-mixed.txt" --memory 512M --json -o "$T/rec-$e.json" -q
done

# ---- every keyword through `pagetune ddl` ---------------------------------
# For each keyword the scripts must equal the scripts made with sentinel
# names, each quoted sentinel replaced by the quoted, folded keyword: so
# the keyword appears exactly where a name goes, quoted, and nowhere else.
python3 - "$PAGETUNE" "$PAGETUNE_DATA_DIR" "$T" <<'PY' && pass || fail "keyword walk through pagetune ddl (see above)"
import subprocess, sys, yaml

exe, data, tmp = sys.argv[1:4]
OPTS = {"table": "--table", "column": "--column",
        "tablespace": "--name", "bufferpool": "--bufferpool-name"}
bad = 0
for dialect in ["db2", "mysql", "oracle", "postgresql", "sqlite"]:
    y = yaml.safe_load(open(f"{data}/ddl_templates/{dialect}/dialect.yaml"))
    q = y["quote"]
    fold = {"upper": str.upper, "lower": str.lower}.get(y.get("fold_case", "upper"), str)
    kinds = [k for k in OPTS if k in y["identifiers"]]
    words = y["keywords"]["reserved"] + (y["keywords"].get("nonreserved") or [])

    def run(names):
        args = [exe, "ddl", "--recommendation", f"{tmp}/rec-{dialect}.json",
                "--dialect", dialect]
        for k in kinds:
            args += [OPTS[k], names[k]]
        return subprocess.run(args, capture_output=True, text=True)

    sentinel = {k: "zzqq" + chr(ord("a") + i) for i, k in enumerate(kinds)}
    base = run(sentinel)
    assert base.returncode == 0, base.stderr
    for k in kinds:
        s = fold(sentinel[k])
        # the sentinel appears only quoted
        if base.stdout.count(s) != base.stdout.count(q["open"] + s + q["close"]):
            print(f"{dialect}: a bare {k} name in the scripts"); bad += 1
    walked = 0

    def check(w, ks):
        """The keyword w as the names of kinds ks, the sentinels elsewhere."""
        global bad
        names = dict(sentinel)
        for k in ks:
            names[k] = w
        r = run(names)
        if r.returncode == 65:
            # refused by an identifier rule (e.g. DB2's SYS prefix, a
            # leading '_'): one line, no SQL
            if r.stdout or r.stderr.count("\n") != 1:
                print(f"{dialect} {ks}={w}: refusal is not one line"); bad += 1
            return 65
        want = base.stdout
        for k in ks:
            want = want.replace(q["open"] + fold(sentinel[k]) + q["close"],
                                q["open"] + fold(w) + q["close"])
        if r.returncode != 0 or r.stdout != want:
            print(f"{dialect} {ks}={w}: rc {r.returncode}, output differs: {r.stderr.strip()}")
            bad += 1
        return 0

    for w in words:
        # every name at once; one name at a time when a rule refuses one
        if check(w, kinds) == 0:
            walked += len(kinds)
            continue
        if len(kinds) > 1:
            for k in kinds:
                walked += check(w, [k]) == 0
    print(f"{dialect}: {len(words)} keywords x {len(kinds)} names, {walked} names checked")
    if walked == 0:
        bad += 1
sys.exit(1 if bad else 0)
PY

# ---- `pagetune advise` on keyword-named tables ---------------------------
if command -v sqlite3 >/dev/null && odbcinst -q -d 2>/dev/null | grep -q '^\[SQLite3\]'; then
    DB=$T/kw.db
    for t in select verbose; do
        sqlite3 "$DB" "CREATE TABLE \"$t\" (ID TEXT PRIMARY KEY, SMALL BLOB, MEDIUM BLOB, LARGE BLOB);
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i+1 FROM n WHERE i < 200)
            INSERT INTO \"$t\" SELECT 's'||i, randomblob(100 + i * 17), NULL, NULL FROM n;"
    done
    # ENGINE TABLE WANT_CREATE|WANT_ROLLBACK: the quoted name in each
    # script ("-": the script names no object)
    while read -r e t wants; do
        A=$T/adv-$e-$t
        expect_rc 0 "advise --engine $e --table $t" "$PAGETUNE" advise \
            --connect "Driver=SQLite3;Database=$DB;" --engine "$e" --table "$t" \
            --validate none --monitor-seconds 1 --out-dir "$A" -q
        expect_contains "$(cat "$A/create.sql")" "${wants%%|*}" "advise $e: ${wants%%|*} in create.sql"
        [ "${wants#*|}" = - ] ||
            expect_contains "$(cat "$A/rollback.sql")" "${wants#*|}" "advise $e: ${wants#*|} in rollback.sql"
        # no SQL line names the table bare
        if grep -hv '^--' "$A/create.sql" "$A/rollback.sql" | grep -Eiq "(^|[ (])$t([ ;)]|$)"; then
            fail "advise $e: a bare $t on a SQL line"
        else
            pass
        fi
    done <<'CASES'
postgresql verbose VACUUM FULL "verbose";|VACUUM FULL "verbose";
postgresql select ALTER TABLE "select" SET (toast_tuple_target =|ALTER TABLE "select" RESET (toast_tuple_target);
mysql select ALTER TABLE `select` ROW_FORMAT=DYNAMIC;|ALTER TABLE `select` ROW_FORMAT=DEFAULT;
oracle select ALTER TABLE "SELECT" MOVE TABLESPACE|ALTER TABLE "SELECT" MOVE TABLESPACE previous_ts
sqlite select -- "select". Generated|-
db2 select CREATE BUFFERPOOL "SESSBP|DROP BUFFERPOOL "SESSBP
CASES
else
    echo "note: no SQLite ODBC driver: advise cases not run" >&2
fi

# ---- a dialect that cannot quote refuses keywords -------------------------
mkdir -p "$T/data"
cp -r "$PAGETUNE_DATA_DIR/ddl_templates" "$PAGETUNE_DATA_DIR/profiles" "$T/data/"
sed -i 's/^quote: /#quote: /' "$T/data/ddl_templates/postgresql/dialect.yaml"
PAGETUNE_DATA_DIR=$T/data expect_rc 65 "no quoting rule, keyword" "$PAGETUNE" ddl \
    --recommendation "$T/rec-postgresql.json" --dialect postgresql --table verbose -o "$T/x.sql"
expect_contains "$ERR" "table name 'verbose' is a keyword of postgresql" "the keyword is named"
expect_one_line_error "keyword refused"
[ ! -e "$T/x.sql" ] && pass || fail "no output file for a refused name"
PAGETUNE_DATA_DIR=$T/data expect_rc 0 "no quoting rule, ordinary name" "$PAGETUNE" ddl \
    --recommendation "$T/rec-postgresql.json" --dialect postgresql --table sessions -o "$T/x.sql"
expect_contains "$(cat "$T/x.sql")" "ALTER TABLE sessions SET" "written bare without a rule"
finish
