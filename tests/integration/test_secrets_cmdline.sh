#!/usr/bin/env bash
# test_secrets_cmdline.sh — passwords given on the command line, on real
# PostgreSQL and MariaDB: no message echoes one (--dsn 'x;PWD=...', any
# case, braces), a password in --connect together with --password-file or
# --password-env is refused (64, one line), and a password in --connect
# makes a successful run warn once (pointing to the safer ways) unless -q;
# a failing run still says exactly one line, its error.
. "$(dirname "$0")/lib.sh"
need_env PT_PG_CONNECT PT_MARIADB_CONNECT PT_PG_PASSWORD PT_MARIADB_PASSWORD
need_cmd python3

# no_secret DESC SECRET: SECRET appears neither on stdout nor on stderr
no_secret() {
    case "$OUT$ERR" in
    *"$2"*) fail "$1: the password '$2' was echoed: $ERR" ;;
    *) pass ;;
    esac
}

# ---- --dsn holding a password: 64, masked ---------------------------------
for dsn in 'x;PWD=s3cretA' 'x;pwd={s3cr;etA}' 'x; Password = s3cretA' \
    'x;PwD={s3cr}}etA};y=1' 'x;PWD={s3c;r}etA'; do
    for cmd in monitor sample; do
        expect_rc 64 "$cmd --dsn '$dsn'" "$PAGETUNE" $cmd --dsn "$dsn" -q
        expect_one_line_error "$cmd --dsn '$dsn'"
        no_secret "$cmd --dsn '$dsn'" s3c
        no_secret "$cmd --dsn '$dsn'" etA
        expect_contains "$ERR" "password-file" "$cmd --dsn '$dsn': points to the safer ways"
    done
done

# ---- two password sources: 64 ---------------------------------------------
PWF=$T/pw
printf '%s\n' "$PT_PG_PASSWORD" >"$PWF"
chmod 600 "$PWF"
export PT_IT_PW="$PT_PG_PASSWORD"
for conn in "$PT_PG_CONNECT" "$PT_MARIADB_CONNECT"; do
    expect_rc 64 "password in --connect and --password-file" \
        "$PAGETUNE" monitor --connect "$conn" --password-file "$PWF" --count 1 -q
    expect_one_line_error "two sources (file)"
    expect_contains "$ERR" "password is given twice" "two sources (file): says why"
    no_secret "two sources (file)" "$PT_PG_PASSWORD"
    expect_rc 64 "password in --connect and --password-env" \
        "$PAGETUNE" monitor --connect "$conn" --password-env PT_IT_PW --count 1 -q
    expect_one_line_error "two sources (env)"
    no_secret "two sources (env)" "$PT_PG_PASSWORD"
done
# braces and odd case in the key count as a password too
BR=$(printf '%s' "$PT_PG_CONNECT" | sed 's/Pwd=[^;]*;/pAsSwOrD = {x;y};/')
expect_rc 64 "Password = {..} in --connect and --password-env" \
    "$PAGETUNE" monitor --connect "$BR" --password-env PT_IT_PW --count 1 -q

# ---- the warning -------------------------------------------------------------
# strip the password out of the connection string: given only through env
NOPW_PG=$(printf '%s' "$PT_PG_CONNECT" | sed 's/Pwd=[^;]*;//')
for conn in "$PT_PG_CONNECT" "$PT_MARIADB_CONNECT"; do
    expect_rc 0 "monitor with Pwd= in --connect" \
        "$PAGETUNE" monitor --connect "$conn" --count 1 --json -o "$T/m.json" -f
    n=$(printf '%s\n' "$ERR" | grep -c "password in --connect is visible")
    expect_eq "$n" 1 "one warning for Pwd= in --connect (stderr: $ERR)"
    expect_contains "$ERR" "--password-file, --password-env or odbc.ini" "warning points to the safer ways"
    no_secret "warning" "$PT_PG_PASSWORD"
    expect_rc 0 "monitor -q with Pwd= in --connect" \
        "$PAGETUNE" monitor --connect "$conn" --count 1 --json -o "$T/m.json" -f -q
    expect_eq "$ERR" "" "-q: no warning"
    # a failing run: its error is the only line
    expect_rc 66 "sample of a missing table" \
        "$PAGETUNE" sample --connect "$conn" --table no_such_table_$$ -o "$T/s.json"
    expect_one_line_error "failing run with Pwd= in --connect"
done
expect_rc 0 "no password in --connect: no warning" \
    "$PAGETUNE" monitor --connect "$NOPW_PG" --password-env PT_IT_PW --count 1 \
    --json -o "$T/m.json" -f
expect_eq "$ERR" "" "no warning without a password in --connect"
finish
