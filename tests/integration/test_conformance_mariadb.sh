#!/usr/bin/env bash
# test_conformance_mariadb.sh — issue 24: every generated table's predicted
# pages and inline share against mariadb itself, before and after the
# advice is applied (tests/conformance/, lib.sh run_conformance).
. "$(dirname "$0")/lib.sh"
need_env PT_MARIADB_CONNECT PT_MARIADB_SOCK
need_cmd mariadb python3
run_conformance mysql
