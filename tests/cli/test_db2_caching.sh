#!/usr/bin/env bash
# test_db2_caching.sh — issue 14 (Deliver 6, acceptance): the DB2 table
# space's caching clause follows the out-of-row fraction. Out-of-row LONG
# VARCHAR / LOB data of an automatic-storage table space is buffered
# nowhere unless it has FILE SYSTEM CACHING (IBM Db2 docs, "Table space
# containers use concurrent I/O or direct I/O by default";
# docs/models.md). Two crafted sizes files: every object in SMALL (inline
# at 4K) and a third of them above MEDIUM's 32700 bytes (LARGE, out of row
# at every page size). The recommendation chooses the clause and says why;
# `ddl` writes exactly that clause in create.sql.
. "$(dirname "$0")/lib.sh"

python3 - "$T" <<'PY'
import json, sys
t = sys.argv[1]
inline = [1000 + (i * 7919) % 2000 for i in range(2000)]
tail = [40000 + (i * 7919) % 80000 if i % 3 == 0 else v
        for i, v in enumerate(inline)]
json.dump({"values": inline}, open(t + "/inline.json", "w"))
json.dump({"values": tail}, open(t + "/tail.json", "w"))
PY

# expect_py DESC EXPR FILE: the Python expression over d = the JSON in FILE
expect_py() {
    local got
    got=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(bool(eval(sys.argv[2])))' "$3" "$2" 2>&1)
    if [ "$got" = True ]; then pass; else fail "$1: $2 -> $got"; fi
}

# the CREATE TABLESPACE statement of create.sql, comments left out
clause() {
    grep -v '^--' "$1" | sed -n '/CREATE REGULAR TABLESPACE/,/;/p' |
        grep -E 'FILE SYSTEM CACHING' | sed 's/^ *//; s/;$//'
}

for kind in inline tail; do
    expect_rc 0 "recommend ($kind)" "$PAGETUNE" recommend --engine db2 \
        --sizes "$T/$kind.json" --json -o "$T/$kind.rec.json" -q
    expect_rc 0 "ddl ($kind)" "$PAGETUNE" ddl --recommendation "$T/$kind.rec.json" \
        --out-dir "$T/$kind.ddl" -q
done

R="$T/inline.rec.json"
expect_py "mostly inline: no file system caching" \
    'd["tablespace"]["file_system_caching"] is False' "$R"
expect_py "mostly inline: the reason gives the fraction and the reads" \
    'any(r.startswith("NO FILE SYSTEM CACHING for SESSTS") and "0.0% of the objects stay out of row" in r and "buffered nowhere" in r for r in d["reasons"])' "$R"
expect_eq "$(clause "$T/inline.ddl/create.sql")" "NO FILE SYSTEM CACHING" \
    "mostly inline: create.sql's clause"

R="$T/tail.rec.json"
expect_py "heavy out-of-row tail: file system caching" \
    'd["tablespace"]["file_system_caching"] is True' "$R"
expect_py "heavy tail: the reason gives the fraction and the reads" \
    'any(r.startswith("FILE SYSTEM CACHING for SESSTS") and "33.4% of the objects stay out of row" in r and "0.334 out-of-row reads happen per access" in r for r in d["reasons"])' "$R"
expect_eq "$(clause "$T/tail.ddl/create.sql")" "FILE SYSTEM CACHING" \
    "heavy tail: create.sql's clause"
# create.sql's own comments carry the reason
expect_contains "$(cat "$T/tail.ddl/create.sql")" "--   - FILE SYSTEM CACHING for SESSTS" \
    "create.sql explains the clause"
finish
