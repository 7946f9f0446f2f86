#!/usr/bin/env bash
# test-servers.sh — start / stop the real PostgreSQL and MariaDB servers the
# integration tests talk to, on 127.0.0.1, in a temporary directory.
#
#   scripts/test-servers.sh start DIR   start them; write DIR/servers.env
#   scripts/test-servers.sh stop DIR    stop them by PID (always safe)
#
# servers.env exports PT_PG_CONNECT, PT_MARIADB_CONNECT (DSN-less ODBC
# strings for a superuser-like test account), PT_PG_PORT, PT_MARIADB_PORT,
# PT_PG_BIN (the PostgreSQL bin dir), PT_SERVERS_DIR. Passwords are test-only.
#
# PT_MARIADB32_CONNECT, PT_MARIADB32_PORT, PT_MARIADB32_SOCK: a second
# MariaDB built with innodb_page_size=32K and a 12M pool (the first is 16K,
# InnoDB's default, with 64M).
#
# PT_SERVERS="pg" (or "mariadb", "mariadb32") starts only that server: the
# integration tests use it for a private instance they stop in the middle
# of a run, or start with PT_PG_SHARED_BUFFERS (default 32MB) to compare
# pool sizes, or with PT_MARIADB_ARGS (extra mariadbd options, split on
# spaces; e.g. "--log-bin=b --server-id=1" for a replication primary).
set -Eeuo pipefail

cmd=${1:?usage: test-servers.sh start|stop DIR}
dir=${2:?usage: test-servers.sh start|stop DIR}

pg_bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
PG_PASS=pt_test_pw
MY_PASS=pt_test_pw

free_port() {
    python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'
}

stop() {
    if [ -f "$dir/pg.pid" ]; then
        pid=$(cat "$dir/pg.pid")
        kill -INT "$pid" 2>/dev/null || true
        for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
        kill -KILL "$pid" 2>/dev/null || true
        rm -f "$dir/pg.pid"
    fi
    for name in my my32; do
        [ -f "$dir/$name.pid" ] || continue
        pid=$(cat "$dir/$name.pid")
        kill -TERM "$pid" 2>/dev/null || true
        for _ in $(seq 1 150); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
        kill -KILL "$pid" 2>/dev/null || true
        rm -f "$dir/$name.pid"
    done
}

start_pg() {
    local port data
    port=$(free_port)
    data="$dir/pg/data"
    mkdir -p "$dir/pg"
    chown -R postgres:postgres "$dir/pg"
    chmod 755 "$dir"
    printf '%s\n' "$PG_PASS" > "$dir/pg/pw"
    chown postgres "$dir/pg/pw"
    runuser -u postgres -- "$pg_bin/initdb" -D "$data" -U postgres \
        --auth-host=scram-sha-256 --auth-local=trust \
        --pwfile="$dir/pg/pw" -E UTF8 >"$dir/pg/initdb.log" 2>&1
    cat >> "$data/postgresql.conf" <<CONF
listen_addresses = '127.0.0.1'
port = $port
unix_socket_directories = '$dir/pg'
shared_buffers = ${PT_PG_SHARED_BUFFERS:-32MB}
fsync = off
CONF
    # Up to 3 ports: another job on the machine may take the free port
    # between free_port and the bind ("Address already in use"). Each start
    # waits up to 120 s: a machine running two test suites is slow.
    for attempt in 1 2 3; do
        runuser -u postgres -- "$pg_bin/postgres" -D "$data" \
            >"$dir/pg/server.log" 2>&1 &
        local t0=$SECONDS
        while [ $((SECONDS - t0)) -lt 120 ]; do
            if runuser -u postgres -- "$pg_bin/pg_isready" -h 127.0.0.1 -p "$port" -q; then
                break 2
            fi
            grep -q "already in use" "$dir/pg/server.log" 2>/dev/null && break
            sleep 0.2
        done
        grep -q "already in use" "$dir/pg/server.log" 2>/dev/null || break
        wait 2>/dev/null
        port=$(free_port)
        sed -i "s/^port = .*/port = $port/" "$data/postgresql.conf"
        echo "test-servers: PostgreSQL port taken, retrying on $port" >&2
    done
    runuser -u postgres -- "$pg_bin/pg_isready" -h 127.0.0.1 -p "$port" -q || {
        echo "test-servers: PostgreSQL did not start; log:" >&2
        tail -n 20 "$dir/pg/server.log" >&2
        return 1
    }
    # the postmaster's own PID (runuser's $! is not it)
    head -n 1 "$data/postmaster.pid" > "$dir/pg.pid"
    runuser -u postgres -- "$pg_bin/psql" -h "$dir/pg" -p "$port" -q -v ON_ERROR_STOP=1 \
        -c "CREATE DATABASE pagetune" >/dev/null
    PG_PORT=$port
}

# start_mariadb NAME PAGE_SIZE POOL: an instance in $dir/NAME (its pid in
# $dir/NAME.pid) whose InnoDB pages are PAGE_SIZE, fixed when the datadir
# is created (mariadb-install-db passes --innodb-page-size to the
# bootstrap; a later start with another size refuses the datadir), and a
# buffer pool of POOL. MariaDB 10.11 refuses a pool under 11 MiB at 32K
# pages ("innodb_page_size=32768 requires innodb_buffer_pool_size >= 11
# MiB", its error log when started with 2M) and documents 2 MiB as the
# variable's minimum. Sets MY_PORT and MY_SOCK.
start_mariadb() {
    local name=$1 page=$2 pool=$3 port data sock
    port=$(free_port)
    data="$dir/$name/data"
    sock="$dir/$name/mysqld.sock"
    mkdir -p "$data"
    chown -R mysql:mysql "$dir/$name"
    chmod 755 "$dir" # mysql must reach its datadir (mktemp -d makes 700)
    # a second try on a clean datadir: the bootstrap once failed on a
    # machine running two suites; its errors stay in install.log.1
    if ! mariadb-install-db --no-defaults --datadir="$data" --user=mysql \
        --innodb-page-size="$page" \
        --auth-root-authentication-method=normal >"$dir/$name/install.log" 2>&1; then
        mv "$dir/$name/install.log" "$dir/$name/install.log.1"
        echo "test-servers: mariadb-install-db failed, once more; its errors:" >&2
        grep -m 10 -E '\[ERROR\]' "$dir/$name/install.log.1" >&2 || true
        rm -rf "$data"
        mkdir -p "$data"
        chown -R mysql:mysql "$dir/$name"
        mariadb-install-db --no-defaults --datadir="$data" --user=mysql \
            --innodb-page-size="$page" \
            --auth-root-authentication-method=normal >"$dir/$name/install.log" 2>&1
    fi
    # Up to 3 ports and 120 s per start, as for PostgreSQL.
    for attempt in 1 2 3; do
        mariadbd --no-defaults --datadir="$data" --socket="$sock" --port="$port" \
            --bind-address=127.0.0.1 --user=mysql --skip-name-resolve \
            --innodb-page-size="$page" \
            --innodb-buffer-pool-size="$pool" --innodb-flush-log-at-trx-commit=0 \
            --pid-file="$dir/$name/mysqld.pid" --log-error="$dir/$name/error.log" \
            ${PT_MARIADB_ARGS:-} &
        echo $! > "$dir/$name.pid"
        local t0=$SECONDS
        while [ $((SECONDS - t0)) -lt 120 ]; do
            if mariadb-admin --no-defaults --socket="$sock" -uroot ping >/dev/null 2>&1; then
                break 2
            fi
            grep -q "already in use" "$dir/$name/error.log" 2>/dev/null && break
            sleep 0.2
        done
        grep -q "already in use" "$dir/$name/error.log" 2>/dev/null || break
        # the failed server's status is not ours: under set -e a bare
        # `wait PID` ended this script here, silently (CI, issue 30)
        wait "$(cat "$dir/$name.pid")" 2>/dev/null || true
        : >"$dir/$name/error.log"
        port=$(free_port)
        echo "test-servers: MariaDB ($name) port taken, retrying on $port" >&2
    done
    mariadb-admin --no-defaults --socket="$sock" -uroot ping >/dev/null 2>&1 || {
        echo "test-servers: MariaDB ($name) did not start; log:" >&2
        tail -n 20 "$dir/$name/error.log" >&2
        return 1
    }
    mariadb --no-defaults --socket="$sock" -uroot <<SQL
CREATE DATABASE pagetune;
CREATE USER 'pagetune'@'127.0.0.1' IDENTIFIED BY '$MY_PASS';
CREATE USER 'pagetune'@'localhost' IDENTIFIED BY '$MY_PASS';
GRANT ALL ON pagetune.* TO 'pagetune'@'127.0.0.1';
GRANT ALL ON pagetune.* TO 'pagetune'@'localhost';
GRANT PROCESS, RELOAD ON *.* TO 'pagetune'@'127.0.0.1';
GRANT PROCESS, RELOAD ON *.* TO 'pagetune'@'localhost';
SQL
    MY_PORT=$port
    MY_SOCK=$sock
}

# A step that fails under set -e says which and shows its log before the
# servers are stopped: a private server that did not start once said
# nothing at all (CI, issue 30).
start_failed() { # LINE COMMAND
    trap - ERR
    echo "test-servers: line $1 failed: $2" >&2
    for log in "$dir/pg/initdb.log" "$dir/pg/server.log" "$dir/my/install.log" \
        "$dir/my/error.log" "$dir/my32/install.log" "$dir/my32/error.log"; do
        [ -s "$log" ] || continue
        echo "test-servers: $log:" >&2
        # the errors first: mariadb-install-db ends its log with a page
        # of advice that hides them (CI beside another suite, issue 30)
        grep -m 10 -E '\[ERROR\]|FATAL|ERROR:' "$log" >&2 || true
        tail -n 5 "$log" >&2
    done
    stop
}

case "$cmd" in
start)
    mkdir -p "$dir"
    trap 'start_failed $LINENO "$BASH_COMMAND"' ERR
    which=${PT_SERVERS:-pg mariadb mariadb32}
    : > "$dir/servers.env"
    echo "export PT_SERVERS_DIR='$dir'" >> "$dir/servers.env"
    case " $which " in
    *" pg "*)
        start_pg
        cat >> "$dir/servers.env" <<ENV
export PT_PG_BIN='$pg_bin'
export PT_PG_PORT=$PG_PORT
export PT_PG_SOCKDIR='$dir/pg'
export PT_PG_PASSWORD='$PG_PASS'
export PT_PG_CONNECT='Driver=PostgreSQL Unicode;Server=127.0.0.1;Port=$PG_PORT;Database=pagetune;Uid=postgres;Pwd=$PG_PASS;'
ENV
        echo "test-servers: PostgreSQL on 127.0.0.1:$PG_PORT" >&2
        ;;
    esac
    case " $which " in
    *" mariadb "*)
        start_mariadb my 16K 64M
        cat >> "$dir/servers.env" <<ENV
export PT_MARIADB_PORT=$MY_PORT
export PT_MARIADB_SOCK='$MY_SOCK'
export PT_MARIADB_PASSWORD='$MY_PASS'
export PT_MARIADB_CONNECT='Driver=MariaDB Unicode;Server=127.0.0.1;Port=$MY_PORT;Database=pagetune;Uid=pagetune;Pwd=$MY_PASS;'
ENV
        echo "test-servers: MariaDB on 127.0.0.1:$MY_PORT" >&2
        ;;
    esac
    # a second MariaDB whose InnoDB pages are 32K (innodb_page_size is
    # fixed when an instance is created): the server replay compares page
    # sizes on two instances (issue 28). Its pool is small, 12M (11 MiB is
    # the least at 32K), so that tables a few times larger stay small.
    case " $which " in
    *" mariadb32 "*)
        start_mariadb my32 32K 12M
        cat >> "$dir/servers.env" <<ENV
export PT_MARIADB32_PORT=$MY_PORT
export PT_MARIADB32_SOCK='$MY_SOCK'
export PT_MARIADB32_CONNECT='Driver=MariaDB Unicode;Server=127.0.0.1;Port=$MY_PORT;Database=pagetune;Uid=pagetune;Pwd=$MY_PASS;'
ENV
        echo "test-servers: MariaDB (32K pages) on 127.0.0.1:$MY_PORT" >&2
        ;;
    esac
    ;;
stop)
    stop
    ;;
*)
    echo "usage: test-servers.sh start|stop DIR" >&2
    exit 64
    ;;
esac
