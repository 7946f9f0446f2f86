#!/usr/bin/env bash
# conformance.sh — pagetune's engine models against the real engines on
# fresh seeds (issue 24; tests/conformance/). The test suite runs three
# fixed seeds (11, 22, 33); this takes any others: every generated table's
# predicted and measured pages and inline share, before and after the
# advice, per engine, then its worst cases.
#
# Usage: bench/conformance.sh [--engine E]... [SEED...]   (BUILD_DIR env)
#   no SEED: three random ones (printed, so a finding can be rerun)
#   E: postgresql, mysql, sqlite (default: all three)
# Uses the servers of servers.env when PT_PG_CONNECT is set, else starts
# private ones with scripts/test-servers.sh and stops them at the end.
# Exit 0 when every case of every engine holds, 1 otherwise.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}
P=$build/pagetune
[ -x "$P" ] || { echo "conformance: build first ($P missing)" >&2; exit 1; }
export PAGETUNE_DATA_DIR=${PAGETUNE_DATA_DIR:-$root}

engines=() seeds=()
while [ $# -gt 0 ]; do
    case $1 in
    --engine) engines+=("$2"); shift 2 ;;
    --engine=*) engines+=("${1#*=}"); shift ;;
    -h|--help) sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *[!0-9]*|'') echo "conformance: not a seed: '$1' (a whole number)" >&2; exit 2 ;;
    *) seeds+=("$1"); shift ;;
    esac
done
[ ${#engines[@]} -gt 0 ] || engines=(postgresql mysql sqlite)
if [ ${#seeds[@]} -eq 0 ]; then
    for _ in 1 2 3; do seeds+=($((RANDOM * 32768 + RANDOM))); done
fi
echo "conformance: seeds ${seeds[*]}" >&2

srv=
cleanup() { [ -n "$srv" ] && bash "$root/scripts/test-servers.sh" stop "$srv" >/dev/null 2>&1; rm -rf "${srv:-}"; }
trap cleanup EXIT
if [ -z "${PT_PG_CONNECT:-}" ]; then
    srv=$(mktemp -d /tmp/bench-conformance.XXXXXX)
    bash "$root/scripts/test-servers.sh" start "$srv" >&2 || exit 1
    # shellcheck disable=SC1091
    . "$srv/servers.env"
fi

args=()
for s in "${seeds[@]}"; do args+=(--seed "$s"); done
rc=0
for e in "${engines[@]}"; do
    echo "== $e" >&2
    python3 "$root/tests/conformance/conformance.py" --engine "$e" "${args[@]}" \
        --pagetune "$P" --table || rc=1
done
exit $rc
