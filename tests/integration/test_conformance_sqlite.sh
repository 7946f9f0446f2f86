#!/usr/bin/env bash
# test_conformance_sqlite.sh — issue 24: every generated table's predicted
# pages and inline share against sqlite itself, before and after the
# advice is applied (tests/conformance/, lib.sh run_conformance).
. "$(dirname "$0")/lib.sh"
need_cmd sqlite3 python3
run_conformance sqlite
