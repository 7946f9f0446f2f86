#!/usr/bin/env bash
# test.sh — the whole test suite, as README and .ci/run run it:
#   installs what is missing (Debian 12, root), builds with -Werror, starts
#   real PostgreSQL and MariaDB servers on 127.0.0.1, runs unit, CLI and
#   integration tests, then the same under ASan+UBSan, then the style checks.
# Servers are stopped by PID on every exit path.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
jobs=$(nproc 2>/dev/null || echo 2)

bash scripts/install-deps.sh --test

echo "== build (warnings are errors)" >&2
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPT_WERROR=ON >/dev/null
cmake --build build -j "$jobs"

echo "== build (AddressSanitizer + UndefinedBehaviorSanitizer)" >&2
cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DPT_SANITIZE=ON \
    -DPT_WERROR=ON >/dev/null
cmake --build build-asan -j "$jobs"

srv=$(mktemp -d /tmp/pagetune-servers.XXXXXX)
cleanup() {
    bash "$root/scripts/test-servers.sh" stop "$srv" || true
    rm -rf "$srv"
}
trap cleanup EXIT INT TERM
bash scripts/test-servers.sh start "$srv"
# shellcheck disable=SC1091
. "$srv/servers.env"

echo "== tests" >&2
ctest --test-dir build --output-on-failure -j "$jobs"

echo "== tests under ASan+UBSan" >&2
ctest --test-dir build-asan --output-on-failure -j "$jobs"

echo "== style and module boundaries" >&2
bash scripts/check-style.sh
echo "test.sh: all green" >&2
