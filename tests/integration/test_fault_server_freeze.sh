#!/usr/bin/env bash
# test_fault_server_freeze.sh — a server that stops answering without going
# away: SIGSTOP on the whole server (the PostgreSQL postmaster and its
# backends, the MariaDB server) while `monitor --interval 1 --count 5` or
# `sample` waits on it. The kernel still acknowledges TCP, so only the
# inactivity watchdog (--timeout, collect/odbc.c) can end the wait: each run
# must exit 69 (not hang), with one line naming the step that stalled,
# and leave no output file. A server that is busy (a grouped scan longer
# than --timeout) but answers a second connection is not stalled. Private instances, started and stopped here;
# every path (including a failing check) sends SIGCONT before stopping them.
. "$(dirname "$0")/lib.sh"
need_env PT_PG_CONNECT PT_MARIADB_CONNECT
need_cmd python3 mariadb psql

SRV_PG=$(mktemp -d /tmp/pagetune-it-freeze-pg.XXXXXX)
SRV_MY=$(mktemp -d /tmp/pagetune-it-freeze-my.XXXXXX)
chmod 755 "$SRV_PG" "$SRV_MY"
FROZEN=""
thaw() {
    # shellcheck disable=SC2086
    [ -n "$FROZEN" ] && kill -CONT $FROZEN 2>/dev/null
    FROZEN=""
    # runuser, the postmaster's parent, stops itself when its child is
    # stopped (as su does) and would then never reap it: wake it too
    pkill -CONT -f -- "$SRV_PG/" 2>/dev/null
    pkill -CONT -f -- "$SRV_MY/" 2>/dev/null
    return 0
}
cleanup() {
    thaw
    for d in "$SRV_PG" "$SRV_MY"; do
        bash "$PT_SOURCE_DIR/scripts/test-servers.sh" stop "$d" >/dev/null 2>&1 || true
        rm -rf "$d"
    done
    rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

start_private() { # KIND DIR
    if ! PT_SERVERS=$1 bash "$PT_SOURCE_DIR/scripts/test-servers.sh" start "$2" 2>"$T/srv.err"; then
        fail "private $1 server did not start: $(cat "$T/srv.err")"
        finish
    fi
}

# server_pids PIDFILE: the server process and its children (PostgreSQL's
# backends are children of the postmaster)
server_pids() {
    local top
    top=$(cat "$1")
    echo "$top $(ps -o pid= --ppid "$top" | tr '\n' ' ')"
}

TIMEOUT=3
# a hang guard, not a speed check: without the watchdog the run waits for
# the frozen server forever; with it, its message names the stall (below).
# The deadline itself (TIMEOUT + COLL_WATCH_GRACE_S) is tested with an
# injected clock in tests/unit/test_collect.c (test_watchdog_schedule)
BOUND=300

# freeze_run DESC PIDFILE DELAY CMD...: start CMD, SIGSTOP the server after
# DELAY seconds, wait at most BOUND seconds for CMD, SIGCONT; then exit 69,
# one line naming the stalled step, no output in $T/out, no stdout.
freeze_run() {
    local desc=$1 pidfile=$2 delay=$3 pid t0 t1 waited=0
    shift 3
    rm -rf "$T/out"
    mkdir -p "$T/out"
    "$@" >"$T/run.out" 2>"$T/run.err" &
    pid=$!
    sleep "$delay"
    if kill -0 "$pid" 2>/dev/null; then pass; else
        fail "$desc: finished before the server was frozen: $(cat "$T/run.err")"
    fi
    FROZEN=$(server_pids "$pidfile")
    # shellcheck disable=SC2086
    kill -STOP $FROZEN
    t0=$(date +%s)
    while kill -0 "$pid" 2>/dev/null && [ "$waited" -lt $((BOUND * 10)) ]; do
        sleep 0.1
        waited=$((waited + 1))
    done
    t1=$(date +%s)
    if kill -0 "$pid" 2>/dev/null; then
        fail "$desc: still waiting $BOUND s after the server froze"
        kill -KILL "$pid" 2>/dev/null
    fi
    wait "$pid"
    RC=$?
    thaw
    ERR=$(cat "$T/run.err")
    echo "$desc: exit $RC after $((t1 - t0)) s: $ERR" >&2
    expect_eq "$RC" 69 "$desc: exit code (stderr: $ERR)"
    expect_one_line_error "$desc"
    case "$ERR" in
    *"no answer from the server for "[0-9]*" s while "*) pass ;;
    *) fail "$desc: the message does not name the stall: $ERR" ;;
    esac
    [ -z "$(ls -A "$T/out")" ] && pass || fail "$desc: output left: $(ls -A "$T/out")"
    [ -z "$(cat "$T/run.out")" ] && pass || fail "$desc: partial stdout: $(head -c 200 "$T/run.out")"
}

# ---- PostgreSQL ------------------------------------------------------------
start_private pg "$SRV_PG"
PRIV_PG=$(. "$SRV_PG/servers.env"; echo "$PT_PG_CONNECT")
PG_PORT=$(. "$SRV_PG/servers.env"; echo "$PT_PG_PORT")
PG_PW=$(. "$SRV_PG/servers.env"; echo "$PT_PG_PASSWORD")
PGOPTIONS="-c client_min_messages=warning" PGPASSWORD="$PG_PW" psql -X -q \
    -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$PG_PORT" -U postgres -d pagetune <<'SQL'
CREATE TABLE base (ID varchar(64), PROPID varchar(64), SMALL bytea, MEDIUM bytea, LARGE bytea);
INSERT INTO base SELECT 'k' || g, 'k' || g, decode(repeat('78', 100 + g % 3000), 'hex'), NULL, NULL
  FROM generate_series(1, 20000) g;
CREATE VIEW slow_sessions AS SELECT * FROM base WHERE pg_sleep(0.001) IS NOT NULL;
CREATE VIEW slow_small AS SELECT * FROM base
  WHERE substr(ID, 2)::int <= 2000 AND pg_sleep(0.002) IS NOT NULL;
SQL
[ $? -eq 0 ] && pass || fail "cannot create the slow view in PostgreSQL"
expect_rc 0 "private PostgreSQL answers" "$PAGETUNE" monitor --connect "$PRIV_PG" --count 1 --json -q
freeze_run "PostgreSQL frozen mid-monitor" "$SRV_PG/pg.pid" 2.5 \
    "$PAGETUNE" monitor --connect "$PRIV_PG" --interval 1 --count 5 \
    --timeout "$TIMEOUT" -o "$T/out/monitor.json" -q
freeze_run "PostgreSQL frozen mid-sample" "$SRV_PG/pg.pid" 1.5 \
    "$PAGETUNE" sample --connect "$PRIV_PG" --table slow_sessions \
    --timeout "$TIMEOUT" -o "$T/out/sizes.json" -q
# busy is not stopped: a grouped sample returns its first row only after
# the whole scan (longer than --timeout), but the server answers the
# watchdog's second connection, so the run goes on and succeeds
expect_rc 0 "PostgreSQL busy longer than --timeout" "$PAGETUNE" sample \
    --connect "$PRIV_PG" --table slow_small --server-group on \
    --timeout 1 -o "$T/busy-pg.json" -q
# the server is usable again after SIGCONT
expect_rc 0 "PostgreSQL answers after SIGCONT" "$PAGETUNE" monitor --connect "$PRIV_PG" --count 1 --json -q

# ---- MariaDB ---------------------------------------------------------------
start_private mariadb "$SRV_MY"
PRIV_MY=$(. "$SRV_MY/servers.env"; echo "$PT_MARIADB_CONNECT")
MY_SOCK=$(. "$SRV_MY/servers.env"; echo "$PT_MARIADB_SOCK")
mariadb --no-defaults --socket="$MY_SOCK" -uroot pagetune <<'SQL'
CREATE TABLE base (ID varchar(64), PROPID varchar(64), SMALL varbinary(3122),
                   MEDIUM mediumblob, LARGE longblob);
INSERT INTO base
  SELECT CONCAT('k', seq), CONCAT('k', seq), REPEAT('x', 100 + seq % 3000), NULL, NULL
  FROM seq_1_to_20000;
CREATE VIEW slow_sessions AS SELECT * FROM base WHERE SLEEP(0.001) = 0;
CREATE VIEW slow_small AS SELECT * FROM base
  WHERE CAST(SUBSTR(ID, 2) AS UNSIGNED) <= 2000 AND SLEEP(0.002) = 0;
SQL
[ $? -eq 0 ] && pass || fail "cannot create the slow view in MariaDB"
expect_rc 0 "private MariaDB answers" "$PAGETUNE" monitor --connect "$PRIV_MY" --count 1 --json -q
freeze_run "MariaDB frozen mid-monitor" "$SRV_MY/my.pid" 2.5 \
    "$PAGETUNE" monitor --connect "$PRIV_MY" --interval 1 --count 5 \
    --timeout "$TIMEOUT" -o "$T/out/monitor.json" -q
freeze_run "MariaDB frozen mid-sample" "$SRV_MY/my.pid" 1.5 \
    "$PAGETUNE" sample --connect "$PRIV_MY" --table slow_sessions \
    --timeout "$TIMEOUT" -o "$T/out/sizes.json" -q

expect_rc 0 "MariaDB busy longer than --timeout" "$PAGETUNE" sample \
    --connect "$PRIV_MY" --table slow_small --server-group on \
    --timeout 1 -o "$T/busy-my.json" -q

# ---- --timeout itself ------------------------------------------------------
for bad in 0 -1 abc 86401 1.5; do
    expect_rc 64 "--timeout $bad" "$PAGETUNE" monitor --connect "$PRIV_MY" --count 1 --timeout "$bad" -q
    expect_one_line_error "--timeout $bad"
    expect_contains "$ERR" "--timeout" "--timeout $bad: names the option"
done
finish
