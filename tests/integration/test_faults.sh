#!/usr/bin/env bash
# test_faults.sh — connection faults and secrets: server not running (69),
# wrong password (77), password file mode (77), driver missing (69), no
# password ever printed or written; and a PostgreSQL server stopped in the
# middle of a sample (69, no partial sizes file) on a private instance this
# test starts and stops itself (the shared servers are left alone).
. "$(dirname "$0")/lib.sh"
need_env PT_PG_CONNECT PT_MARIADB_CONNECT PT_PG_PASSWORD
need_cmd python3 psql

free_port() {
    python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'
}
PORT=$(free_port)
SECRET=pt_test_pw

no_secret() { # DESC: the password is in neither stdout nor stderr
    case "$OUT$ERR" in *"$SECRET"*) fail "$1: password printed: $OUT$ERR" ;; *) pass ;; esac
}

for cmd in sample monitor; do
    expect_rc 69 "$cmd: PostgreSQL not running" "$PAGETUNE" $cmd \
        --connect "Driver=PostgreSQL Unicode;Server=127.0.0.1;Port=$PORT;Database=x;Uid=u;Pwd=$SECRET;"
    expect_one_line_error "$cmd: PostgreSQL not running"
    expect_contains "$ERR" "[08001]" "$cmd: SQLSTATE shown"
    no_secret "$cmd: PostgreSQL not running"
    expect_rc 69 "$cmd: MariaDB not running" "$PAGETUNE" $cmd \
        --connect "Driver=MariaDB Unicode;Server=127.0.0.1;Port=$PORT;Uid=u;Pwd=$SECRET;"
    expect_one_line_error "$cmd: MariaDB not running"
    no_secret "$cmd: MariaDB not running"
    expect_rc 77 "$cmd: PostgreSQL wrong password" "$PAGETUNE" $cmd \
        --connect "${PT_PG_CONNECT/Pwd=$SECRET/Pwd=wrong_pw}"
    expect_one_line_error "$cmd: PostgreSQL wrong password"
    expect_contains "$ERR" "password authentication failed" "$cmd: driver message shown"
    expect_rc 77 "$cmd: MariaDB wrong password" "$PAGETUNE" $cmd \
        --connect "${PT_MARIADB_CONNECT/Pwd=$SECRET/Pwd=wrong_pw}"
    expect_contains "$ERR" "[28000]" "$cmd: MariaDB SQLSTATE 28000"
    expect_rc 69 "$cmd: driver missing" "$PAGETUNE" $cmd --connect "Driver=NoSuchDriver;Pwd=$SECRET;"
    expect_one_line_error "$cmd: driver missing"
    no_secret "$cmd: driver missing"
    expect_rc 69 "$cmd: DSN missing" "$PAGETUNE" $cmd --dsn pagetune_no_such_dsn
    expect_rc 64 "$cmd: no connection" "$PAGETUNE" $cmd
    expect_rc 64 "$cmd: both --dsn and --connect" "$PAGETUNE" $cmd --dsn a --connect b
done

# passwords from a file (mode 0600 only) or the environment
NOPW=${PT_PG_CONNECT/Pwd=$SECRET;/}
printf '%s\n' "$SECRET" > "$T/pw"
chmod 0644 "$T/pw"
expect_rc 77 "password file mode 0644" "$PAGETUNE" monitor --connect "$NOPW" --password-file "$T/pw" --count 1
expect_contains "$ERR" "0600" "mode named"
chmod 0600 "$T/pw"
expect_rc 0 "password file mode 0600" "$PAGETUNE" monitor --connect "$NOPW" --password-file "$T/pw" --count 1 --json
no_secret "password file"
printf '%s' "$OUT" > "$T/mon.json"
expect_py "no secret in monitor JSON" '"'"$SECRET"'" not in open("'"$T/mon.json"'").read()'
expect_rc 66 "password file missing" "$PAGETUNE" monitor --connect "$NOPW" --password-file "$T/nope" --count 1
PT_IT_PW=$SECRET expect_rc 0 "--password-env" "$PAGETUNE" monitor --connect "$NOPW" --password-env PT_IT_PW --count 1
expect_rc 64 "--password-env unset" "$PAGETUNE" monitor --connect "$NOPW" --password-env PT_IT_UNSET_VAR --count 1
PT_IT_PW=wrong_pw expect_rc 77 "--password-env wrong" "$PAGETUNE" monitor --connect "$NOPW" --password-env PT_IT_PW --count 1
no_secret "--password-env wrong"
case "$ERR" in *wrong_pw*) fail "wrong password printed" ;; *) pass ;; esac

# a DSN from odbc.ini (unixODBC reads $ODBCINI), password from the env
cat > "$T/odbc.ini" <<INI
[pt_it_dsn]
Driver = PostgreSQL Unicode
Servername = 127.0.0.1
Port = $PT_PG_PORT
Database = pagetune
Username = postgres
INI
ODBCINI="$T/odbc.ini" PT_IT_PW=$SECRET expect_rc 0 "--dsn with --password-env" \
    "$PAGETUNE" monitor --dsn pt_it_dsn --password-env PT_IT_PW --count 1 --json
printf '%s' "$OUT" > "$T/dsn.json"
expect_py "--dsn: source names the DSN only" 'd["source"]["connection"] == "DSN=pt_it_dsn" and d["engine"] == "postgresql"' "$T/dsn.json"
ODBCINI="$T/odbc.ini" PT_IT_PW=wrong_pw expect_rc 77 "--dsn, wrong password" \
    "$PAGETUNE" sample --dsn pt_it_dsn --password-env PT_IT_PW

# ---- a private PostgreSQL stopped in the middle of a sample ------------
trap 'private_stop_all; rm -rf "$T"' EXIT
# start_private: a fresh PostgreSQL in $SRV with a view whose rows come
# slowly (2 ms each), so the scan is still running when the server goes
# away; sets PRIV (its connection string)
start_private() {
    private_start PT_SERVERS=pg
    SRV=$PRIV_DIR
    PRIV=$(. "$SRV/servers.env"; echo "$PT_PG_CONNECT")
    PPORT=$(. "$SRV/servers.env"; echo "$PT_PG_PORT")
    PGOPTIONS="-c client_min_messages=warning" PGPASSWORD=$SECRET psql -X -q -v ON_ERROR_STOP=1 \
        -h 127.0.0.1 -p "$PPORT" -U postgres -d pagetune <<'SQL'
CREATE TABLE base (ID varchar(64), PROPID varchar(64), SMALL bytea, MEDIUM bytea, LARGE bytea);
INSERT INTO base SELECT 'k' || g, 'k' || g, decode(repeat('ab', 100 + g % 3000), 'hex'), NULL, NULL
  FROM generate_series(1, 20000) g;
CREATE FUNCTION slow() RETURNS boolean LANGUAGE plpgsql VOLATILE AS
  $$ BEGIN PERFORM pg_sleep(0.002); RETURN true; END $$;
CREATE VIEW slow_sessions AS SELECT * FROM base WHERE slow();
SQL
}
start_private
mkdir -p "$T/out"
# Fetch=100: psqlODBC's cursor returns 100 rows per round trip, so several
# blocks have been fetched (and counted) when the server goes away
"$PAGETUNE" sample --connect "${PRIV}UseDeclareFetch=1;Fetch=100;" --table slow_sessions --server-group off -o "$T/out/sizes.json" \
    >"$T/kill.out" 2>"$T/kill.err" &
spid=$!
sleep 3
if kill -0 "$spid" 2>/dev/null; then
    pass
else
    fail "sample finished before the server was stopped: $(cat "$T/kill.err")"
fi
bash "$PT_SOURCE_DIR/scripts/test-servers.sh" stop "$SRV"
wait "$spid"
RC=$?
ERR=$(cat "$T/kill.err")
expect_eq "$RC" 69 "server stopped mid-sample: exit code"
expect_one_line_error "server stopped mid-sample"
expect_contains "$ERR" "fetch" "the failure is in the fetch loop"
[ -z "$(ls -A "$T/out")" ] && pass || fail "partial output left: $(ls -A "$T/out")"

# the same with the lengths grouped on the server: it goes away during the
# aggregation, before the first row
start_private
"$PAGETUNE" sample --connect "$PRIV" --table slow_sessions --server-group on \
    -o "$T/out/sizes.json" >"$T/kill.out" 2>"$T/kill.err" &
spid=$!
sleep 3
kill -0 "$spid" 2>/dev/null && pass || fail "grouped sample finished too early: $(cat "$T/kill.err")"
bash "$PT_SOURCE_DIR/scripts/test-servers.sh" stop "$SRV"
wait "$spid"
RC=$?
ERR=$(cat "$T/kill.err")
expect_eq "$RC" 69 "server stopped during a grouped sample: exit code"
expect_one_line_error "server stopped during a grouped sample"
[ -z "$(ls -A "$T/out")" ] && pass || fail "partial output left: $(ls -A "$T/out")"
finish
