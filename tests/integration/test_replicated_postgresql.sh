#!/usr/bin/env bash
# test_replicated_postgresql.sh — issue 28's "refuses a primary with
# replicas unless --allow-replicated", on a real streaming replica: a
# private PostgreSQL and a standby made with pg_basebackup -R. With the
# standby attached (pg_stat_replication has its WAL sender), replay
# --connect exits 73 naming --allow-replicated and creates nothing; with
# the flag it runs (a note says so) and leaves nothing; --allow-replicated
# without a server is a usage error (64).
. "$(dirname "$0")/lib.sh"
need_env PT_PG_CONNECT
need_cmd python3

STANDBY_PID=
cleanup() {
    [ -n "$STANDBY_PID" ] && kill -TERM "$STANDBY_PID" 2>/dev/null
    sleep 0.5
    private_stop_all
    rm -rf "$T"
}
trap cleanup EXIT

private_start PT_SERVERS=pg
. "$PRIV_DIR/servers.env"
PRIMARY=$PT_PG_CONNECT
SB="$PRIV_DIR/standby"
mkdir -p "$SB"
chown postgres:postgres "$SB"
# the primary's pg_hba.conf (initdb's) lets 127.0.0.1 replicate
if ! runuser -u postgres -- env PGPASSWORD="$PT_PG_PASSWORD" "$PT_PG_BIN/pg_basebackup" \
    -h 127.0.0.1 -p "$PT_PG_PORT" -U postgres -D "$SB/data" -R -X stream -c fast \
    >"$T/basebackup.log" 2>&1; then
    fail "pg_basebackup: $(tail -n 3 "$T/basebackup.log")"
    finish
fi
PORT2=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()')
printf "port = %s\nunix_socket_directories = '%s'\n" "$PORT2" "$SB" >> "$SB/data/postgresql.conf"
runuser -u postgres -- "$PT_PG_BIN/postgres" -D "$SB/data" >"$T/standby.log" 2>&1 &
STANDBY_PID=$!
replicas() {
    PGPASSWORD=$PT_PG_PASSWORD psql -X -Atq -h 127.0.0.1 -p "$PT_PG_PORT" -U postgres \
        -d pagetune -c "SELECT count(*) FROM pg_stat_replication"
}
if wait_value 1 replicas; then pass; else
    fail "the standby did not attach: $(tail -n 5 "$T/standby.log")"
    finish
fi
left() {
    PGPASSWORD=$PT_PG_PASSWORD psql -X -Atq -h 127.0.0.1 -p "$PT_PG_PORT" -U postgres \
        -d pagetune -c "SELECT count(*) FROM pg_namespace WHERE nspname = 'pagetune_scratch'"
}

replay_trace "$T/t.csv" 200 400 2300 2600
expect_rc 73 "a primary with a replica is refused" "$PAGETUNE" replay --trace "$T/t.csv" \
    --connect "$PRIMARY" -q --rounds 1
expect_one_line_error "a primary with a replica"
expect_contains "$ERR" "--allow-replicated" "the refusal names the option"
expect_contains "$ERR" "1 replica(s) (pg_stat_replication)" "the refusal says how many and where"
expect_eq "$(left)" 0 "refused: nothing created"
expect_rc 0 "--allow-replicated replays" "$PAGETUNE" replay --trace "$T/t.csv" \
    --connect "$PRIMARY" --rounds 1 --allow-replicated -o "$T/r.txt"
expect_contains "$ERR" "replaying anyway (--allow-replicated)" "a note says it replayed anyway"
expect_eq "$(left)" 0 "the allowed run left nothing"
expect_rc 64 "--allow-replicated without a server" "$PAGETUNE" replay --trace "$T/t.csv" \
    --allow-replicated
expect_contains "$ERR" "--allow-replicated needs --dsn or --connect" "usage error names it"
expect_rc 64 "advise --allow-replicated alone" "$PAGETUNE" advise --connect "$PRIMARY" \
    --allow-replicated -q --out-dir "$T/adv"

finish
