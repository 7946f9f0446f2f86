#!/usr/bin/env bash
# test_cli_basics.sh — the front door: --version, help, unknown commands and
# options, the exit-code contract for usage errors.
. "$(dirname "$0")/lib.sh"

expect_rc 0 "--version" "$PAGETUNE" --version
expect_contains "$OUT" "pagetune " "--version prints the name"
expect_rc 0 "--help" "$PAGETUNE" --help
for c in advise ddl monitor recommend replay sample simulate workload; do
    expect_contains "$OUT" "$c" "--help lists $c"
done
expect_rc 64 "no command" "$PAGETUNE"
expect_rc 64 "unknown command" "$PAGETUNE" frobnicate
expect_one_line_error "unknown command"
expect_contains "$ERR" "frobnicate" "unknown command is named"
expect_rc 64 "unknown global option" "$PAGETUNE" --frob
expect_rc 64 "help for unknown command" "$PAGETUNE" help frobnicate
finish
