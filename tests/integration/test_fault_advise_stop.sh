#!/usr/bin/env bash
# test_fault_advise_stop.sh — issue 14's acceptance: a server stopped in
# the middle of `pagetune advise` (during its monitor window) leaves the
# out-dir as it was before the run — absent if it did not exist, every
# file byte for byte if it did — and a rerun into the same out-dir works
# without --force. A private PostgreSQL this test starts and stops itself
# (the shared servers are left alone).
. "$(dirname "$0")/lib.sh"
need_env PT_PG_CONNECT
need_cmd python3 psql

SRV=$(mktemp -d /tmp/pagetune-it-advstop.XXXXXX)
SRV2=$(mktemp -d /tmp/pagetune-it-advstop2.XXXXXX)
chmod 755 "$SRV" "$SRV2"
cleanup() {
    for d in "$SRV" "$SRV2"; do
        bash "$PT_SOURCE_DIR/scripts/test-servers.sh" stop "$d" >/dev/null 2>&1 || true
        rm -rf "$d"
    done
    rm -rf "$T"
}
trap cleanup EXIT

# start_private DIR: a private PostgreSQL with a small SESSIONS-like table;
# sets CONN
start_private() {
    if ! PT_SERVERS=pg bash "$PT_SOURCE_DIR/scripts/test-servers.sh" start "$1" >/dev/null 2>"$T/srv.err"; then
        fail "private PostgreSQL did not start: $(cat "$T/srv.err")"
        finish
    fi
    CONN=$(. "$1/servers.env"; echo "$PT_PG_CONNECT")
    (. "$1/servers.env"; pg_sql) <<'SQL'
CREATE TABLE it_advstop (id bigint PRIMARY KEY, created timestamp,
  "user" varchar(64), obj bytea);
INSERT INTO it_advstop SELECT g, now(), 'user' || g,
  decode(repeat(md5(g::text), 10 + g % 100), 'hex') FROM generate_series(1, 500) g;
SQL
}

# listing DIR: every file with its checksum ("absent" for no directory)
listing() {
    if [ -e "$1" ]; then
        (cd "$1" && find . -type f -print0 | sort -z | xargs -0 -r sha256sum)
    else
        echo absent
    fi
}

# stop_mid_advise DESC DIR [OPTION...]: advise into DIR, stop the server
# 3 s into its 20 s monitor window; exit 69, one line, DIR as before and
# nothing new beside it (no temporary sibling left behind)
stop_mid_advise() {
    local desc=$1 dir=$2 before beside pid
    shift 2
    before=$(listing "$dir")
    beside=$(ls -A "$(dirname "$dir")" | grep -v -x -e run.out -e run.err)
    "$PAGETUNE" advise --connect "$CONN" --table it_advstop --columns obj \
        --monitor-seconds 20 --validate none --out-dir "$dir" -q "$@" \
        >"$T/run.out" 2>"$T/run.err" &
    pid=$!
    sleep 3
    if kill -0 "$pid" 2>/dev/null; then
        pass
    else
        fail "$desc: advise finished before the server was stopped: $(cat "$T/run.err")"
    fi
    bash "$PT_SOURCE_DIR/scripts/test-servers.sh" stop "$SRV" >/dev/null 2>&1
    wait "$pid"
    RC=$?
    ERR=$(cat "$T/run.err")
    echo "$desc: $ERR" >&2
    expect_eq "$RC" 69 "$desc: exit code (stderr: $ERR)"
    expect_one_line_error "$desc"
    expect_eq "$(listing "$dir")" "$before" "$desc: the out-dir as before the run"
    expect_eq "$(ls -A "$(dirname "$dir")" | grep -v -x -e run.out -e run.err)" "$beside" \
        "$desc: nothing new beside the out-dir"
}

# 1. no out-dir before the run: none after it
start_private "$SRV"
stop_mid_advise "stopped mid-advise, no out-dir" "$T/advice"

# the rerun into the same out-dir, on a server that stays up, needs no
# --force
start_private "$SRV2"
expect_rc 0 "rerun without --force" "$PAGETUNE" advise --connect "$CONN" \
    --table it_advstop --columns obj --monitor-seconds 1 --validate none \
    --out-dir "$T/advice" -q
for f in sizes.json monitor.json recommendation.json create.sql rollback.sql report.html; do
    [ -s "$T/advice/$f" ] && pass || fail "rerun left no $f"
done

# 2. an out-dir holding a prior advice: every file unchanged after the
# failed run (the prior advice is the one just written)
cp -a "$T/advice" "$T/prior"
bash "$PT_SOURCE_DIR/scripts/test-servers.sh" stop "$SRV2" >/dev/null 2>&1
rm -rf "$SRV"/* && start_private "$SRV"
stop_mid_advise "stopped mid-advise --force over a prior advice" "$T/prior" --force
finish
