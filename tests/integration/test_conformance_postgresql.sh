#!/usr/bin/env bash
# test_conformance_postgresql.sh — issue 24: every generated table's predicted
# pages and inline share against postgresql itself, before and after the
# advice is applied (tests/conformance/, lib.sh run_conformance).
. "$(dirname "$0")/lib.sh"
need_env PT_PG_CONNECT PT_PG_PORT PT_PG_PASSWORD
need_cmd psql python3
run_conformance postgresql
