#!/usr/bin/env bash
# test_conformance_sqlite.sh — issue 24: the sqlite model against the real
# engine on the suite's three fixed seeds (tests/conformance/; CI's seeds
# never change, so a red main is never chance: bench/conformance.sh takes
# fresh ones). Every generated table's predicted pages and inline share,
# before and after the advice is applied, within the tolerances of
# tests/conformance/conformance.py.
. "$(dirname "$0")/lib.sh"
need_cmd sqlite3 python3
python3 "$(dirname "$0")/../conformance/conformance.py" --engine sqlite \
    --seed 11 --seed 22 --seed 33 --pagetune "$PAGETUNE" --table >&2
rc=$?
[ "$rc" -eq 0 ] && pass || fail "conformance sqlite: exit $rc (the table above)"
finish
