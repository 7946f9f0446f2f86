#!/usr/bin/env bash
# install-deps.sh — install what pagetune needs on Debian 12 (as root).
#   scripts/install-deps.sh          build + run dependencies
#   scripts/install-deps.sh --test   also the test servers, ODBC drivers, browser,
#                                    zsh and fish (the completion tests)
#   scripts/install-deps.sh --print build|test   list one set, a name a line
#                                    (tests/build/test_bare_build.sh reads it)
# Installs only what is missing; safe to run again.
set -euo pipefail

build_pkgs=(build-essential cmake pkg-config libjansson-dev libyaml-dev
    libsqlite3-dev unixodbc unixodbc-dev libsqliteodbc sqlite3 libcminpack-dev)
test_pkgs=(libcmocka-dev odbc-postgresql odbc-mariadb postgresql
    mariadb-server mariadb-client python3 chromium poppler-utils clang
    libclang-rt-14-dev valgrind zsh fish)

case "${1:-}" in
--print)
    case "${2:-}" in
    build) printf '%s\n' "${build_pkgs[@]}" ;;
    test) printf '%s\n' "${test_pkgs[@]}" ;;
    *) echo "install-deps: --print takes build or test" >&2; exit 64 ;;
    esac
    exit 0 ;;
--test | "") ;;
*) echo "install-deps: unknown option '$1' (use --test or --print build|test)" >&2
    exit 64 ;;
esac
want=("${build_pkgs[@]}")
if [ "${1:-}" = "--test" ]; then
    want+=("${test_pkgs[@]}")
fi

missing=()
for p in "${want[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed'; then
        missing+=("$p")
    fi
done

if [ ${#missing[@]} -eq 0 ]; then
    echo "install-deps: all packages present" >&2
    exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
    echo "install-deps: missing packages: ${missing[*]} (run as root to install)" >&2
    exit 1
fi

echo "install-deps: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
# Another clone's install may be running (two test runs side by side):
# one at a time (flock(1)), and apt itself waits for dpkg's lock up to
# 10 minutes instead of failing (apt.conf(5), DPkg::Lock::Timeout)
exec 9>/var/lock/pagetune-install-deps.lock
flock -w 900 9 || { echo "install-deps: another install held /var/lock/pagetune-install-deps.lock for 15 minutes" >&2; exit 1; }
lock=(-o DPkg::Lock::Timeout=600)
apt-get "${lock[@]}" update -qq
# Debian's postgresql/mariadb packages try to start services; in containers
# without systemd that fails harmlessly, policy-rc.d keeps it quiet.
if [ ! -e /usr/sbin/policy-rc.d ]; then
    printf '#!/bin/sh\nexit 101\n' > /usr/sbin/policy-rc.d
    chmod +x /usr/sbin/policy-rc.d
    trap 'rm -f /usr/sbin/policy-rc.d' EXIT
fi
apt-get "${lock[@]}" install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
