#!/usr/bin/env bash
# test_fault_server_stop.sh — a database server that goes away in the middle
# of a run: `monitor` (PostgreSQL and MariaDB) and `sample` (MariaDB; the
# PostgreSQL sample case is in test_faults.sh) against private instances
# this test starts and stops itself (the shared servers are left alone).
# Each run must end with exit 69, one line on stderr naming the failure,
# and no output file (not even a partial or temporary one).
. "$(dirname "$0")/lib.sh"
need_env PT_PG_CONNECT PT_MARIADB_CONNECT
need_cmd python3 mariadb

SRV_PG=$(mktemp -d /tmp/pagetune-it-stop-pg.XXXXXX)
SRV_MY=$(mktemp -d /tmp/pagetune-it-stop-my.XXXXXX)
SRV_MY2=$(mktemp -d /tmp/pagetune-it-stop-my2.XXXXXX)
chmod 755 "$SRV_PG" "$SRV_MY" "$SRV_MY2"
cleanup() {
    for d in "$SRV_PG" "$SRV_MY" "$SRV_MY2"; do
        bash "$PT_SOURCE_DIR/scripts/test-servers.sh" stop "$d" >/dev/null 2>&1 || true
        rm -rf "$d"
    done
    rm -rf "$T"
}
trap cleanup EXIT

start_private() { # KIND DIR
    if ! PT_SERVERS=$1 bash "$PT_SOURCE_DIR/scripts/test-servers.sh" start "$2" 2>"$T/srv.err"; then
        fail "private $1 server did not start: $(cat "$T/srv.err")"
        finish
    fi
}

# run_and_stop DESC DIR WAIT CMD...: start CMD in the background, stop the
# servers in DIR after WAIT seconds (while CMD still runs), then check
# exit 69, one line, and an empty output directory $T/out.
run_and_stop() {
    local desc=$1 dir=$2 wait_s=$3 pid
    shift 3
    rm -rf "$T/out"
    mkdir -p "$T/out"
    "$@" >"$T/run.out" 2>"$T/run.err" &
    pid=$!
    sleep "$wait_s"
    if kill -0 "$pid" 2>/dev/null; then
        pass
    else
        fail "$desc: finished before the server was stopped: $(cat "$T/run.err")"
    fi
    bash "$PT_SOURCE_DIR/scripts/test-servers.sh" stop "$dir" >/dev/null 2>&1
    wait "$pid"
    RC=$?
    ERR=$(cat "$T/run.err")
    echo "$desc: $ERR" >&2
    expect_eq "$RC" 69 "$desc: exit code (stderr: $ERR)"
    expect_one_line_error "$desc"
    [ -z "$(ls -A "$T/out")" ] && pass || fail "$desc: output left: $(ls -A "$T/out")"
    [ -z "$(cat "$T/run.out")" ] && pass || fail "$desc: partial stdout: $(head -c 200 "$T/run.out")"
}

# ---- PostgreSQL: monitor -------------------------------------------------
start_private pg "$SRV_PG"
PRIV_PG=$(. "$SRV_PG/servers.env"; echo "$PT_PG_CONNECT")
expect_rc 0 "private PostgreSQL answers" "$PAGETUNE" monitor --connect "$PRIV_PG" --count 1 --json -q
run_and_stop "PostgreSQL stopped mid-monitor" "$SRV_PG" 3.5 \
    "$PAGETUNE" monitor --connect "$PRIV_PG" --interval 1 --count 60 -o "$T/out/monitor.json" -q

# ---- MariaDB: monitor and sample -----------------------------------------
start_private mariadb "$SRV_MY"
PRIV_MY=$(. "$SRV_MY/servers.env"; echo "$PT_MARIADB_CONNECT")
MY_SOCK=$(. "$SRV_MY/servers.env"; echo "$PT_MARIADB_SOCK")
expect_rc 0 "private MariaDB answers" "$PAGETUNE" monitor --connect "$PRIV_MY" --count 1 --json -q
run_and_stop "MariaDB stopped mid-monitor" "$SRV_MY" 3.5 \
    "$PAGETUNE" monitor --connect "$PRIV_MY" --interval 1 --count 60 -o "$T/out/monitor.json" -q

# a view whose rows come slowly (SLEEP per row): the scan still runs when
# the server goes away
start_private mariadb "$SRV_MY2"
PRIV_MY=$(. "$SRV_MY2/servers.env"; echo "$PT_MARIADB_CONNECT")
MY_SOCK=$(. "$SRV_MY2/servers.env"; echo "$PT_MARIADB_SOCK")
mariadb --no-defaults --socket="$MY_SOCK" -uroot pagetune <<'SQL'
CREATE TABLE base (ID varchar(64), PROPID varchar(64), SMALL varbinary(3122),
                   MEDIUM mediumblob, LARGE longblob);
INSERT INTO base
  SELECT CONCAT('k', seq), CONCAT('k', seq), REPEAT('x', 100 + seq % 3000), NULL, NULL
  FROM seq_1_to_20000;
CREATE VIEW slow_sessions AS SELECT * FROM base WHERE SLEEP(0.002) = 0;
SQL
[ $? -eq 0 ] && pass || fail "cannot create the slow view in MariaDB"
run_and_stop "MariaDB stopped mid-sample" "$SRV_MY2" 3 \
    "$PAGETUNE" sample --connect "$PRIV_MY" --table slow_sessions -o "$T/out/sizes.json" -q
finish
