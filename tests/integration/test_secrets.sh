#!/usr/bin/env bash
# test_secrets.sh — the password never leaks (docs/architecture.md#secrets: "Secrets never
# appear in output, logs or generated files"). Every command that takes a
# connection (sample, monitor, advise) runs against PostgreSQL and MariaDB
# with the password given each supported way:
#   dsn     a DSN in an odbc.ini of our own (ODBCINI / ODBCSYSINI)
#   file    --password-file with mode 0600 (and 0644 must be refused: 77)
#   env     --password-env NAME
#   connect Pwd=... inside --connect
# then stdout, stderr and every file the run wrote (sizes.json,
# monitor.json, recommendation.json, create.sql, rollback.sql, report.html,
# ...) are searched for the password. Failing runs (a missing table, a
# wrong engine) are searched too: error paths print driver messages.
. "$(dirname "$0")/lib.sh"
need_env PT_PG_CONNECT PT_MARIADB_CONNECT PT_PG_PASSWORD PT_MARIADB_PASSWORD \
    PT_PG_PORT PT_MARIADB_PORT
need_cmd python3 psql mariadb

TBL=secrets_$$
SECRETS=("$PT_PG_PASSWORD" "$PT_MARIADB_PASSWORD")

# no_leak DESC FILE...: no password in stdout, stderr or any FILE / dir
no_leak() {
    local desc=$1 hit=""
    shift
    for s in "${SECRETS[@]}"; do
        case "$OUT$ERR" in *"$s"*) hit="stdout/stderr" ;; esac
        for f in "$@"; do
            [ -e "$f" ] || continue
            if grep -rlF -- "$s" "$f" >/dev/null 2>&1; then
                hit="$hit $(grep -rlF -- "$s" "$f" | tr '\n' ' ')"
            fi
        done
    done
    if [ -n "$hit" ]; then fail "$desc: password found in: $hit"; else pass; fi
}

# ---- a sessions table on both servers --------------------------------------
pg_sql <<SQL
CREATE TABLE $TBL (ID varchar(64), PROPID varchar(64), SMALL bytea, MEDIUM bytea, LARGE bytea);
INSERT INTO $TBL SELECT 's' || g, 's' || g, decode(repeat('ab', 100 + g * 37 % 3000), 'hex'), NULL, NULL
  FROM generate_series(1, 300) g;
SQL
my_sql <<SQL
CREATE TABLE $TBL (ID varchar(64), PROPID varchar(64), SMALL varbinary(3122), MEDIUM mediumblob, LARGE longblob);
INSERT INTO $TBL SELECT CONCAT('s', seq), CONCAT('s', seq), REPEAT('x', 100 + seq * 37 % 3000), NULL, NULL
  FROM seq_1_to_300;
SQL
drop_tables() {
    pg_sql -c "DROP TABLE IF EXISTS $TBL" >/dev/null 2>&1
    my_sql -e "DROP TABLE IF EXISTS $TBL" >/dev/null 2>&1
    rm -rf "$T"
}
trap drop_tables EXIT

# ---- odbc.ini of our own: one DSN per server, password inside ----------
mkdir -p "$T/odbc"
cp /etc/odbcinst.ini "$T/odbc/odbcinst.ini"
cat >"$T/odbc/odbc.ini" <<INI
[pt_secrets_pg]
Driver = PostgreSQL Unicode
Servername = 127.0.0.1
Port = $PT_PG_PORT
Database = pagetune
Username = postgres
Password = $PT_PG_PASSWORD

[pt_secrets_my]
Driver = MariaDB Unicode
Server = 127.0.0.1
Port = $PT_MARIADB_PORT
Database = pagetune
User = pagetune
Password = $PT_MARIADB_PASSWORD
INI
export ODBCINI="$T/odbc/odbc.ini" ODBCSYSINI="$T/odbc"

printf '%s\n' "$PT_PG_PASSWORD" >"$T/pw_pg"
printf '%s\n' "$PT_MARIADB_PASSWORD" >"$T/pw_my"
chmod 0600 "$T/pw_pg" "$T/pw_my"
export PT_SECRET_PG="$PT_PG_PASSWORD" PT_SECRET_MY="$PT_MARIADB_PASSWORD"

# conn_args ENGINE WAY: the connection options for one way
conn_args() {
    local e=$1 way=$2 full nopw
    if [ "$e" = pg ]; then full=$PT_PG_CONNECT; else full=$PT_MARIADB_CONNECT; fi
    nopw=$(printf '%s' "$full" | sed -E 's/(^|;)Pwd=[^;]*;?/\1/')
    case $way in
    dsn) printf '%s\n' --dsn "pt_secrets_$e" ;;
    file) printf '%s\n' --connect "$nopw" --password-file "$T/pw_$e" ;;
    env) printf '%s\n' --connect "$nopw" --password-env "PT_SECRET_$(echo "$e" | tr a-z A-Z)" ;;
    connect) printf '%s\n' --connect "$full" ;;
    esac
}

for e in pg my; do
    for way in dsn file env connect; do
        mapfile -t C < <(conn_args $e $way)
        D="$T/run-$e-$way"
        mkdir -p "$D"
        desc="$e/$way"

        expect_rc 0 "sample $desc" "$PAGETUNE" sample "${C[@]}" --table "$TBL" -o "$D/sizes.json"
        no_leak "sample $desc" "$D"
        expect_rc 0 "sample $desc (table to stdout)" "$PAGETUNE" sample "${C[@]}" --table "$TBL"
        no_leak "sample $desc (stdout)"
        expect_rc 0 "monitor $desc" "$PAGETUNE" monitor "${C[@]}" --count 2 --interval 1 -o "$D/monitor.json"
        no_leak "monitor $desc" "$D"
        expect_rc 0 "monitor $desc (json stdout)" "$PAGETUNE" monitor "${C[@]}" --count 1 --json
        no_leak "monitor $desc (stdout)"
        # --engine db2: the advice path is the same for every engine, and
        # db2 is the engine every data directory has a profile for
        expect_rc 0 "advise $desc" "$PAGETUNE" advise "${C[@]}" --table "$TBL" \
            --engine db2 --validate none --monitor-seconds 1 --out-dir "$D/advice"
        no_leak "advise $desc" "$D"
        [ -f "$D/advice/report.html" ] && pass || fail "advise $desc: no report.html"

        # failures print driver messages: a missing table, a bad column
        expect_rc 66 "sample $desc (missing table)" "$PAGETUNE" sample "${C[@]}" --table no_such_table_$$
        expect_one_line_error "sample $desc (missing table)"
        no_leak "sample $desc (missing table)"
        run "$PAGETUNE" sample "${C[@]}" --table "$TBL" --columns NOPE
        [ "$RC" -ne 0 ] && pass || fail "sample $desc (bad column) succeeded"
        no_leak "sample $desc (bad column)"
        run "$PAGETUNE" advise "${C[@]}" --table no_such_table_$$ --validate none --out-dir "$D/advice-fail" -q
        [ "$RC" -ne 0 ] && pass || fail "advise $desc (missing table) succeeded"
        no_leak "advise $desc (missing table)" "$D/advice-fail"
    done
    # a password file readable by others is refused before connecting
    chmod 0644 "$T/pw_$e"
    for cmd in sample monitor advise; do
        mapfile -t C < <(conn_args $e file)
        expect_rc 77 "$cmd $e: password file 0644" "$PAGETUNE" $cmd "${C[@]}" -q
        # (advise adds a line saying which step stopped)
        [ "$cmd" = advise ] || expect_one_line_error "$cmd $e: password file 0644"
        no_leak "$cmd $e: password file 0644"
    done
    chmod 0600 "$T/pw_$e"
done

# a wrong password (in every way) is refused with 77 and not echoed
printf 'Wr0ngSecret_%s\n' $$ >"$T/pw_wrong"
chmod 0600 "$T/pw_wrong"
SECRETS+=("Wr0ngSecret_$$")
NOPW=$(printf '%s' "$PT_PG_CONNECT" | sed -E 's/(^|;)Pwd=[^;]*;?/\1/')
expect_rc 77 "wrong password file" "$PAGETUNE" sample --connect "$NOPW" --password-file "$T/pw_wrong" --table "$TBL"
no_leak "wrong password file"
expect_rc 77 "wrong password in --connect" "$PAGETUNE" monitor --connect "${NOPW}Pwd=Wr0ngSecret_$$;" --count 1
no_leak "wrong password in --connect"
# blanks around the key and '=' mean what Pwd=x means (issue 30): psqlODBC
# does not trim them, so "Pwd = x" reached the server without a password (69)
expect_rc 77 "wrong password in --connect, 'Pwd = x'" "$PAGETUNE" monitor --connect "${NOPW} Pwd = Wr0ngSecret_$$;" --count 1
no_leak "wrong password, 'Pwd = x'"
PGPW=$(printf '%s' "$PT_PG_CONNECT" | sed -nE 's/(^|.*;)Pwd=([^;]*).*/\2/p')
expect_rc 0 "the right password as 'Pwd = x'" "$PAGETUNE" monitor --connect "${NOPW}Pwd = $PGPW;" --count 1 -q
finish
