#!/usr/bin/env bash
# test_fault_write.sh — writes that fail, for every command that writes a
# file: a full device (-o /dev/full, and stdout on /dev/full) → 74; a
# read-only directory (a read-only tmpfs: root ignores mode bits) → 73; a
# tmpfs that fills up during the write → 74. Each time: the documented
# exit code, one line on stderr, and no partial output or temporary file
# left behind. `sample` is included through the SQLite ODBC driver (no
# server needed). The mounts need root; without it that part is skipped
# (in CI it must run).
. "$(dirname "$0")/lib.sh"

P="$PT_SOURCE_DIR/profiles/workloads/article-4k.yaml"
printf '3000\n4000\n5000\n10000\n30000\n' >"$T/sizes.txt"
"$PAGETUNE" workload --profile "$P" --requests 400 -q -o "$T/trace.csv" ||
    fail "cannot make a trace"
"$PAGETUNE" recommend --sizes "$T/sizes.txt" --json -q -o "$T/rec.json" ||
    fail "cannot make a recommendation"
HAVE_SQLITE_ODBC=0
if command -v sqlite3 >/dev/null && odbcinst -q -d 2>/dev/null | grep -q '^\[SQLite3\]'; then
    sqlite3 "$T/s.db" "CREATE TABLE SESSIONS (ID TEXT, SMALL BLOB, MEDIUM BLOB, LARGE BLOB);
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i+1 FROM n WHERE i < 300)
        INSERT INTO SESSIONS SELECT 's'||i, randomblob(100+i*10), NULL, NULL FROM n;"
    HAVE_SQLITE_ODBC=1
fi

# writers OUT: each command writing its result to OUT (one per line)
writers() {
    local o=$1
    printf '%s\n' \
        "recommend --sizes $T/sizes.txt --json -o $o" \
        "recommend --sizes $T/sizes.txt -o $o" \
        "workload --profile $P --requests 20000 -o $o" \
        "simulate --trace $T/trace.csv --app-cache 50 --json -o $o" \
        "simulate --trace $T/trace.csv --page-size 4K,8K --bufferpool 1M --format csv -o $o" \
        "ddl --recommendation $T/rec.json -o $o" \
        "ddl --page-size 8K -o $o" \
        "replay --trace $T/trace.csv --page-size 8K --json -o $o"
    if [ "$HAVE_SQLITE_ODBC" = 1 ]; then
        printf '%s\n' "sample --connect Driver=SQLite3;Database=$T/s.db; --json -o $o" \
            "monitor --connect Driver=SQLite3;Database=$T/s.db; --count 1 --json -o $o"
    fi
}

# no_leftovers DIR DESC: DIR holds nothing but what was there before
no_leftovers() {
    local left
    left=$(ls -A "$1" | grep -v '^fill$' || true)
    if [ -n "$left" ]; then fail "$2: left behind: $left"; else pass; fi
}

# ---- a full device ------------------------------------------------------
while IFS= read -r cmd; do
    # shellcheck disable=SC2086
    expect_rc 74 "$cmd (/dev/full)" "$PAGETUNE" $cmd --force -q
    expect_one_line_error "$cmd (/dev/full)"
done < <(writers /dev/full)
# the same commands writing to stdout, with stdout on /dev/full
while IFS= read -r cmd; do
    cmd=${cmd% -o /dev/full}
    # shellcheck disable=SC2086
    "$PAGETUNE" $cmd -q >/dev/full 2>"$T/err"
    RC=$?
    ERR=$(cat "$T/err")
    expect_eq "$RC" 74 "$cmd (stdout on /dev/full): exit code"
    expect_one_line_error "$cmd (stdout on /dev/full)"
done < <(writers /dev/full)

# ---- read-only directory and full file system (tmpfs, root only) --------
MNT="$T/mnt"
mkdir -p "$MNT"
can_mount=0
if [ "$(id -u)" = 0 ] && mount -t tmpfs -o size=256k tmpfs "$MNT" 2>/dev/null; then
    umount "$MNT"
    can_mount=1
fi
if [ "$can_mount" = 0 ]; then
    if [ "${CI:-}" = true ]; then
        fail "cannot mount a tmpfs (root needed) in CI"
    else
        echo "SKIP: read-only / full file system cases need root (mount)" >&2
    fi
    finish
fi
cleanup_mnt() { umount "$MNT" 2>/dev/null; rm -rf "$T"; }
trap cleanup_mnt EXIT

mount -t tmpfs -o ro,size=256k tmpfs "$MNT"
while IFS= read -r cmd; do
    # shellcheck disable=SC2086
    expect_rc 73 "$cmd (read-only directory)" "$PAGETUNE" $cmd -q
    expect_one_line_error "$cmd (read-only directory)"
done < <(writers "$MNT/out")
expect_rc 73 "ddl --out-dir (read-only directory)" "$PAGETUNE" ddl --page-size 8K --out-dir "$MNT/ddl" -q
expect_one_line_error "ddl --out-dir (read-only directory)"
umount "$MNT"

# full: a 256 KB tmpfs with 4 KB left; each output is bigger than that
mount -t tmpfs -o size=256k tmpfs "$MNT"
head -c $((252 * 1024)) /dev/zero >"$MNT/fill" 2>/dev/null
"$PAGETUNE" workload --profile "$P" --requests 5000 -q -o "$T/big.csv" || fail "big trace"
printf '%s\n' $(seq 1000 7 60000) >"$T/many.txt"
fulls=(
    "workload --profile $P --requests 20000 -o $MNT/trace.csv"
    "recommend --sizes $T/many.txt --json -o $MNT/rec.json"
    "simulate --trace $T/big.csv --app-cache 100 --page-size 4K,8K,16K,32K --bufferpool 1M,2M,4M,8M --mrc --json -o $MNT/sim.json"
)
for cmd in "${fulls[@]}"; do
    # shellcheck disable=SC2086
    expect_rc 74 "$cmd (file system full)" "$PAGETUNE" $cmd -q
    expect_one_line_error "$cmd (file system full)"
    no_leftovers "$MNT" "$cmd (file system full)"
done
# ddl --out-dir: neither create.sql nor rollback.sql may appear alone
long_reasons=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); d["reasons"]=["x"*70]*800; print(json.dumps(d))' "$T/rec.json")
printf '%s\n' "$long_reasons" >"$T/rec-long.json"
expect_rc 74 "ddl --out-dir (file system full)" "$PAGETUNE" ddl --recommendation "$T/rec-long.json" --out-dir "$MNT/ddl" -q
expect_one_line_error "ddl --out-dir (file system full)"
[ -z "$(ls -A "$MNT/ddl" 2>/dev/null)" ] && pass || fail "ddl left: $(ls -A "$MNT/ddl")"
rmdir "$MNT/ddl" 2>/dev/null
no_leftovers "$MNT" "ddl --out-dir (file system full)"
umount "$MNT"
finish
