#!/usr/bin/env bash
# test_replicated_mariadb.sh — issue 28's "refuses a primary with replicas
# unless --allow-replicated", on MariaDB with a real replica: a private
# MariaDB started with a binary log (PT_MARIADB_ARGS) and a second server
# replicating from it (CHANGE MASTER TO ... at the primary's current
# position). With the replica attached (its reader is a 'Binlog Dump'
# thread in the primary's process list), replay --connect exits 73 naming
# --allow-replicated and creates nothing; with the flag it runs, leaves
# nothing, and the replica follows it to the end (its SQL thread running,
# the scratch database created and dropped there too).
. "$(dirname "$0")/lib.sh"
need_env PT_MARIADB_CONNECT
need_cmd python3 mariadb mariadbd mariadb-install-db

REPLICA_PID=
cleanup() {
    [ -n "$REPLICA_PID" ] && kill -TERM "$REPLICA_PID" 2>/dev/null
    [ -n "$REPLICA_PID" ] && wait "$REPLICA_PID" 2>/dev/null
    private_stop_all
    rm -rf "$T"
}
trap cleanup EXIT

private_start PT_SERVERS=mariadb "PT_MARIADB_ARGS=--log-bin=primary-bin --server-id=1"
. "$PRIV_DIR/servers.env"
PRIMARY=$PT_MARIADB_CONNECT
prim() { mariadb --no-defaults --socket="$PT_MARIADB_SOCK" -uroot -N "$@"; }
prim -e "CREATE USER 'repl'@'127.0.0.1' IDENTIFIED BY 'pt_repl_pw';
    GRANT REPLICATION SLAVE ON *.* TO 'repl'@'127.0.0.1';
    GRANT ALL ON \`pagetune_scratch\`.* TO 'pagetune'@'127.0.0.1'"
read -r BINFILE BINPOS _ < <(prim -e "SHOW MASTER STATUS")
[ -n "$BINFILE" ] && pass || { fail "the primary has no binary log"; finish; }

# the replica: a fresh datadir, server id 2, its own port and socket
R="$PRIV_DIR/replica"
mkdir -p "$R/data"
chown -R mysql:mysql "$R"
if ! mariadb-install-db --no-defaults --datadir="$R/data" --user=mysql \
    --auth-root-authentication-method=normal >"$T/replica-install.log" 2>&1; then
    fail "mariadb-install-db (replica): $(tail -n 3 "$T/replica-install.log")"
    finish
fi
PORT2=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()')
mariadbd --no-defaults --datadir="$R/data" --socket="$R/mysqld.sock" --port="$PORT2" \
    --bind-address=127.0.0.1 --user=mysql --skip-name-resolve --server-id=2 \
    --pid-file="$R/mysqld.pid" --log-error="$R/error.log" &
REPLICA_PID=$!
repv() { mariadb --no-defaults --socket="$R/mysqld.sock" -uroot "$@"; }
rep() { repv -N "$@"; }
rep_up() { rep -e "SELECT 1" 2>/dev/null; }
if wait_value 1 rep_up; then pass; else
    fail "the replica did not start: $(tail -n 5 "$R/error.log")"
    finish
fi
rep -e "CHANGE MASTER TO MASTER_HOST='127.0.0.1', MASTER_PORT=$PT_MARIADB_PORT,
    MASTER_USER='repl', MASTER_PASSWORD='pt_repl_pw', MASTER_LOG_FILE='$BINFILE',
    MASTER_LOG_POS=$BINPOS, MASTER_USE_GTID=no; START SLAVE"
dumps() {
    prim -e "SELECT count(*) FROM information_schema.PROCESSLIST
        WHERE COMMAND LIKE 'Binlog Dump%'"
}
if wait_value 1 dumps; then pass; else
    fail "the replica did not attach: $(repv -e 'SHOW SLAVE STATUS\G' | grep -E 'Running|Error' | tr '\n' ' ')"
    finish
fi
left() { prim -e "SELECT count(*) FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = 'pagetune_scratch'"; }

replay_trace "$T/t.csv" 200 400 20000 30000
expect_rc 73 "a MariaDB primary with a replica is refused" "$PAGETUNE" replay \
    --trace "$T/t.csv" --connect "$PRIMARY" -q --rounds 1
expect_one_line_error "a MariaDB primary with a replica"
expect_contains "$ERR" "--allow-replicated" "the refusal names the option"
expect_contains "$ERR" "1 replica(s) (Binlog Dump threads)" "the refusal says how many and where"
expect_eq "$(left)" 0 "refused: nothing created"

expect_rc 0 "--allow-replicated replays on the MariaDB primary" "$PAGETUNE" replay \
    --trace "$T/t.csv" --connect "$PRIMARY" --rounds 1 --allow-replicated -o "$T/r.txt"
expect_contains "$ERR" "replaying anyway (--allow-replicated)" "a note says it replayed anyway"
expect_eq "$(left)" 0 "--allow-replicated: nothing left on the primary"
# the replica followed every statement of the run, to its DROP DATABASE
read -r ENDFILE ENDPOS _ < <(prim -e "SHOW MASTER STATUS")
if [ "$ENDFILE" != "$BINFILE" ] || [ "$ENDPOS" -gt "$BINPOS" ]; then pass; else
    fail "the replay wrote nothing to the primary's binary log ($ENDFILE $ENDPOS)"
fi
caught_up() {
    local w
    # events waited for (>= 0); -1 on the timeout, NULL if not replicating
    w=$(rep -e "SELECT MASTER_POS_WAIT('$ENDFILE', $ENDPOS, 60)")
    case "$w" in -1 | NULL | "") echo "not caught up ($w)"; return ;; esac
    repv -e "SHOW SLAVE STATUS\G" | awk '/Slave_SQL_Running:/ { print $2 }'
}
expect_eq "$(caught_up)" Yes "the replica's SQL thread ran the whole replay"
expect_eq "$(rep -e "SELECT count(*) FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = 'pagetune_scratch'")" \
    0 "the replica has no scratch database left either"

finish
