#!/usr/bin/env bash
# test_ddl.sh — `pagetune ddl --dialect db2` from a recommendation and from
# explicit parameters: DB2 syntax facts (matching page sizes, EXTENTSIZE
# 2..256, PREFETCHSIZE AUTOMATIC or a multiple, TRANSFERRATE following the
# page size, rollback order), WebSphere settings, identifier validation,
# --force and atomicity, template errors, and exit codes.
. "$(dirname "$0")/lib.sh"
EX=${PT_SOURCE_DIR:?}/examples

line_of() { grep -n "$1" "$2" | head -1 | cut -d: -f1; }

expect_rc 0 "recommend" "$PAGETUNE" recommend --sizes "$EX/sessions-mixed.txt" --memory 512M --json -o "$T/rec.json"
expect_rc 0 "ddl from recommendation" "$PAGETUNE" ddl --dialect db2 --recommendation "$T/rec.json" --out-dir "$T/out"
C=$T/out/create.sql R=$T/out/rollback.sql
[ -f "$C" ] && [ -f "$R" ] && pass || fail "both files written"
c=$(cat "$C")
expect_contains "$c" "CREATE BUFFERPOOL \"SESSBP8K\"" "buffer pool created"
expect_contains "$c" "SIZE 65536" "512M / 8K = 65536 pages"
expect_eq "$(grep -c 'PAGESIZE 8 K' "$C")" 2 "buffer pool and table space page sizes match"
expect_contains "$c" "CREATE REGULAR TABLESPACE \"SESSTS8K\"" "table space created"
expect_contains "$c" "BUFFERPOOL \"SESSBP8K\"" "table space uses the pool"
ext=$(sed -n 's/^ *EXTENTSIZE \([0-9]*\)$/\1/p' "$C")
[ -n "$ext" ] && [ "$ext" -ge 2 ] && [ "$ext" -le 256 ] && pass || fail "EXTENTSIZE $ext in 2..256"
expect_contains "$c" "PREFETCHSIZE AUTOMATIC" "prefetch automatic"
expect_contains "$c" "TRANSFERRATE 0.016" "TRANSFERRATE for 8K on ssd"
expect_contains "$c" "ROW_SIZE_8KB" "WebSphere row size"
expect_contains "$c" "Table space name    \"SESSTS8K\"" "WebSphere table space name"
expect_contains "$c" "DROP TABLE \"SESSIONS\";" "IBM's note on re-creating SESSIONS"
expect_contains "$c" "Evidence (recommendation" "evidence header"
expect_contains "$c" "recommend 8K pages" "reasons in the header"
grep -v '^--' "$C" | grep -q '^[^ C]' && fail "only comments and statements" || pass
ts=$(line_of "DROP TABLESPACE \"SESSTS8K\"" "$R")
bp=$(line_of "DROP BUFFERPOOL \"SESSBP8K\"" "$R")
[ -n "$ts" ] && [ -n "$bp" ] && [ "$ts" -lt "$bp" ] && pass || fail "rollback drops the table space ($ts) before the pool ($bp)"

# -- explicit parameters; TRANSFERRATE follows the page size
expect_rc 0 "explicit" "$PAGETUNE" ddl --page-size 16K --bufferpool-pages 2000 --extent-size 16 --prefetch-size 32 --name sess16 --bufferpool-name bp16
expect_contains "$OUT" "CREATE BUFFERPOOL \"BP16\"" "names folded to upper case"
expect_contains "$OUT" "PREFETCHSIZE 32" "explicit prefetch"
expect_contains "$OUT" "TRANSFERRATE 0.16" "IBM default 100 MB/s at 16K"
expect_contains "$OUT" "OVERHEAD 6.725" "IBM default overhead"
expect_contains "$OUT" "DROP TABLESPACE \"SESS16\"" "stdout carries rollback too"
expect_rc 0 "override page size" "$PAGETUNE" ddl --recommendation "$T/rec.json" --page-size 32K
expect_contains "$OUT" "TRANSFERRATE 0.064" "recommendation's rate rescaled to 32K"
expect_contains "$OUT" "CREATE BUFFERPOOL \"SESSBP8K\"" "recommendation's names kept"

# -- invalid identifiers: 65, one line, nothing written
for n in SYSX 'a;b' ABCDEFGHIJKLMNOPQRS '1x' "x'y" 'a b'; do
    expect_rc 65 "identifier $n" "$PAGETUNE" ddl --recommendation "$T/rec.json" --name "$n" --out-dir "$T/bad"
    expect_one_line_error "identifier $n"
done
expect_rc 65 "bufferpool SYS" "$PAGETUNE" ddl --page-size 8K --bufferpool-name sysbp
[ -e "$T/bad" ] && fail "nothing written for invalid names" || pass

# -- parameters out of DB2's ranges
expect_rc 65 "page size" "$PAGETUNE" ddl --page-size 12K
expect_rc 65 "extent" "$PAGETUNE" ddl --page-size 8K --extent-size 300
expect_rc 65 "extent 1" "$PAGETUNE" ddl --page-size 8K --extent-size 1
expect_rc 65 "prefetch" "$PAGETUNE" ddl --page-size 8K --extent-size 32 --prefetch-size 48
cat >"$T/mismatch.json" <<'JSON'
{"schema_version":1,"engine":"db2","page_size":8192,
 "bufferpool":{"name":"BP","page_size":4096,"pages":1000},
 "tablespace":{"name":"TS","page_size":8192,"extent_size":32,
   "prefetch_size":"AUTOMATIC","overhead":0.1,"transfer_rate":0.016}}
JSON
expect_rc 65 "page size mismatch" "$PAGETUNE" ddl --recommendation "$T/mismatch.json"
expect_contains "$ERR" "SQL1582N" "mismatch explained"
sed 's/"engine":"db2"/"engine":"postgresql"/; s/"page_size":4096/"page_size":8192/' \
    "$T/mismatch.json" >"$T/pg.json"
expect_rc 65 "engine mismatch" "$PAGETUNE" ddl --recommendation "$T/pg.json"

# -- existing output: 73, untouched; --force replaces both
echo "old create" >"$C"
expect_rc 73 "exists" "$PAGETUNE" ddl --recommendation "$T/rec.json" --out-dir "$T/out"
expect_one_line_error "exists"
expect_eq "$(cat "$C")" "old create" "old file untouched"
mkdir -p "$T/half" && echo "old rollback" >"$T/half/rollback.sql"
expect_rc 73 "one exists" "$PAGETUNE" ddl --recommendation "$T/rec.json" --out-dir "$T/half"
[ -e "$T/half/create.sql" ] && fail "create.sql must not be written when rollback.sql exists" || pass
expect_rc 0 "force" "$PAGETUNE" ddl --recommendation "$T/rec.json" --out-dir "$T/out" --force
expect_contains "$(cat "$C")" "CREATE BUFFERPOOL" "--force replaced create.sql"
expect_eq "$(ls -a "$T/out" | grep -c tmp)" 0 "no temporary files left"

# -- dialects, options, inputs
expect_rc 64 "unknown dialect" "$PAGETUNE" ddl --page-size 8K --dialect informix
expect_contains "$ERR" "known: db2" "unknown dialect lists the known ones"
expect_rc 64 "dialect path" "$PAGETUNE" ddl --page-size 8K --dialect ../../etc
expect_rc 64 "unknown option" "$PAGETUNE" ddl --page-size 8K --frob
expect_rc 64 "nothing to do" "$PAGETUNE" ddl
expect_rc 66 "missing recommendation" "$PAGETUNE" ddl --recommendation "$T/none.json"
expect_one_line_error "missing recommendation"
echo '{"engine":"db2","bufferpool":{}}' >"$T/badrec.json"
expect_rc 65 "bad recommendation" "$PAGETUNE" ddl --recommendation "$T/badrec.json"
expect_contains "$ERR" "badrec.json" "bad recommendation named"
expect_rc 74 "stdout full" "$PAGETUNE" ddl --page-size 8K -o /dev/full

# -- a template with an unknown placeholder: 65 naming template:line
mkdir -p "$T/data"
cp -r "$PT_SOURCE_DIR/profiles" "$PT_SOURCE_DIR/ddl_templates" "$T/data/"
printf -- '-- x\n-- y\nCREATE BUFFERPOOL {{bufferpool_nam}};\n' >"$T/data/ddl_templates/db2/create.sql"
PAGETUNE_DATA_DIR=$T/data expect_rc 65 "bad template" "$PAGETUNE" ddl --page-size 8K --out-dir "$T/tpl"
expect_contains "$ERR" "create.sql:3: unknown placeholder '{{bufferpool_nam}}'" "template error names file:line"
[ -e "$T/tpl/create.sql" ] && fail "no file from a bad template" || pass

# -- the man pages render without warnings (when man is installed)
if command -v man >/dev/null 2>&1; then
    for m in pagetune.1 pagetune-recommend.1 pagetune-ddl.1; do
        w=$(man -l --warnings=w "$PT_SOURCE_DIR/man/$m" 2>&1 >/dev/null)
        expect_eq "$w" "" "man $m renders without warnings"
    done
fi

expect_rc 0 "help" "$PAGETUNE" ddl --help
for o in --recommendation --dialect --out-dir --name --bufferpool-name \
    --page-size --bufferpool-pages --extent-size --prefetch-size --overhead \
    --transfer-rate --force; do
    expect_contains "$OUT" "$o" "help lists $o"
done
finish
