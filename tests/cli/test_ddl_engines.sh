#!/usr/bin/env bash
# test_ddl_engines.sh — `recommend --engine` and `ddl --dialect` for
# postgresql, mysql, oracle and sqlite without a server: every template
# renders with every placeholder known, the Oracle DDL follows Oracle's
# documented syntax (ALTER SYSTEM SET DB_nK_CACHE_SIZE before CREATE
# TABLESPACE ... BLOCKSIZE) and says it was not run against Oracle, and
# bad input (another engine's recommendation, tampered settings, reserved
# or overlong names) is refused with 65 and no file. The real servers'
# side is in tests/integration/test_engine_*.sh.
. "$(dirname "$0")/lib.sh"
command -v python3 >/dev/null || { echo "SKIP: python3" >&2; exit 77; }

seq 0 99 | awk '{print 2000 + ($1 * 97) % 5000}' >"$T/sizes.txt"
for e in postgresql mysql oracle sqlite; do
    expect_rc 0 "recommend --engine $e" "$PAGETUNE" recommend --engine "$e" \
        --sizes "$T/sizes.txt" --json -o "$T/$e.json" -q
    expect_rc 0 "ddl --dialect $e" "$PAGETUNE" ddl --recommendation "$T/$e.json" \
        --dialect "$e" --out-dir "$T/$e" -q
    for f in create.sql rollback.sql; do
        if grep -q '{{' "$T/$e/$f"; then fail "$e/$f: unrendered placeholder"; else pass; fi
        if grep -v '^--' "$T/$e/$f" | grep -qi 'BUFFERPOOL'; then fail "$e/$f: DB2 words"; else pass; fi
    done
done

# Oracle: documented syntax, in the order Oracle needs, and the disclaimer
O=$(grep -v '^--' "$T/oracle/create.sql")
K=$(python3 -c 'import json; print(json.load(open("'"$T/oracle.json"'"))["page_size"] // 1024)')
expect_contains "$O" "CREATE TABLESPACE \"SESSTS${K}K\"" "CREATE TABLESPACE"
expect_contains "$O" "BLOCKSIZE ${K}K" "BLOCKSIZE clause"
expect_contains "$O" "ENABLE STORAGE IN ROW" "LOB in row"
if [ "$K" -eq 8 ]; then P=DB_CACHE_SIZE; else P="DB_${K}K_CACHE_SIZE"; fi
expect_contains "$O" "ALTER SYSTEM SET $P = 256M SCOPE=BOTH;" "cache parameter for the block size"
a=$(grep -n "^ALTER SYSTEM SET $P" "$T/oracle/create.sql" | cut -d: -f1)
b=$(grep -n '^CREATE TABLESPACE' "$T/oracle/create.sql" | cut -d: -f1)
[ -n "$a" ] && [ -n "$b" ] && [ "$a" -lt "$b" ] && pass || fail "the cache must be set before CREATE TABLESPACE"
expect_contains "$(cat "$T/oracle/create.sql")" "NOT run against Oracle" "create.sql says it was not run"
expect_contains "$(cat "$T/oracle/rollback.sql")" "DROP TABLESPACE \"SESSTS${K}K\";" "rollback drops the table space"

# PostgreSQL: lower-case names, the rewrite commented out when not needed
expect_contains "$(cat "$T/postgresql/create.sql")" "ALTER TABLE \"sessions\" SET (toast_tuple_target =" "folded table name"
printf '%s\n' 500 600 700 >"$T/small.txt"
expect_rc 0 "recommend small objects" "$PAGETUNE" recommend --engine postgresql \
    --sizes "$T/small.txt" --json -o "$T/pg-small.json" -q
expect_rc 0 "ddl small objects" "$PAGETUNE" ddl --recommendation "$T/pg-small.json" \
    --dialect postgresql -o "$T/pg-small.sql" -q
expect_contains "$(cat "$T/pg-small.sql")" "-- VACUUM FULL \"sessions\";" "no rewrite needed: commented out"
expect_contains "$(cat "$T/pg-small.sql")" "toast_tuple_target = 2032" "default kept"

# without a recommendation: the page size drives page settings
expect_rc 0 "sqlite from --page-size" "$PAGETUNE" ddl --dialect sqlite --page-size 16K -o "$T/lite.sql" -q
expect_contains "$(cat "$T/lite.sql")" "PRAGMA page_size = 16384;" "page size from --page-size"
expect_rc 65 "oracle needs a recommendation" "$PAGETUNE" ddl --dialect oracle --page-size 16K -o "$T/o.sql"
expect_contains "$ERR" "setting 'cache_parameter' is missing" "names the setting"
expect_one_line_error "missing setting"

# bad input
expect_rc 65 "postgresql recommendation to sqlite" "$PAGETUNE" ddl \
    --recommendation "$T/postgresql.json" --dialect sqlite -o "$T/x.sql"
expect_contains "$ERR" "for engine 'postgresql', not dialect 'sqlite'" "engine mismatch named"
expect_one_line_error "engine mismatch"
expect_rc 65 "db2 recommendation to mysql" "$PAGETUNE" ddl \
    --recommendation "$T/mysql.json" --dialect db2 -o "$T/x.sql"
python3 - "$T/postgresql.json" "$T/tampered.json" "$T/nosettings.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["settings"]["toast_tuple_target"] = 99999
json.dump(d, open(sys.argv[2], "w"))
del d["settings"]
json.dump(d, open(sys.argv[3], "w"))
PY
expect_rc 65 "setting out of range" "$PAGETUNE" ddl --recommendation "$T/tampered.json" \
    --dialect postgresql -o "$T/x.sql"
expect_contains "$ERR" "toast_tuple_target' must be an integer in 128..8160" "range named"
expect_rc 65 "settings missing" "$PAGETUNE" ddl --recommendation "$T/nosettings.json" \
    --dialect postgresql -o "$T/x.sql"
expect_contains "$ERR" "no engine 'settings'" "missing settings named"
expect_rc 65 "oracle SYS table space" "$PAGETUNE" ddl --recommendation "$T/oracle.json" \
    --dialect oracle --name SYSLOBS -o "$T/x.sql"
expect_rc 64 "oracle 31-byte table" "$PAGETUNE" ddl --recommendation "$T/oracle.json" \
    --dialect oracle --table A234567890123456789012345678901 -o "$T/x.sql"
expect_contains "$ERR" "oracle allows at most 30" "length named"
expect_rc 64 "mysql quote in an unquoted table name" "$PAGETUNE" ddl --recommendation "$T/mysql.json" \
    --dialect mysql --table 'x`;drop' -o "$T/x.sql"
expect_contains "$ERR" "--table" "--table named"
[ ! -e "$T/x.sql" ] && pass || fail "no output file on bad input"
finish
