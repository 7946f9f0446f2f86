#!/usr/bin/env bash
# test_messages.sh — messages that name what was given (issue 13): ddl's
# unknown dialect shows the value and the choices, recommend refuses two
# readers of one stdin, sample's --rows is range-checked before anything
# reaches a server. (--engine against the wrong server: integration tests
# test_sample_postgresql.sh and test_sample_sqlite.sh.)
. "$(dirname "$0")/lib.sh"
EX=${PT_SOURCE_DIR:?}/examples

expect_rc 64 "dialect MYSQL" "$PAGETUNE" ddl --dialect MYSQL --page-size 8K --out-dir "$T/d1"
expect_one_line_error "dialect MYSQL"
expect_contains "$ERR" "unknown dialect 'MYSQL'" "the value as given"
expect_contains "$ERR" "did you mean 'mysql'" "the folded name suggested"
expect_contains "$ERR" "known: " "the choices listed"
expect_contains "$ERR" "postgresql" "the choices listed (postgresql)"
expect_rc 64 "dialect with a space" "$PAGETUNE" ddl --dialect "my sql" --page-size 8K --out-dir "$T/d2"
expect_contains "$ERR" "unknown dialect 'my sql'" "an invalid name shown too"
expect_rc 64 "dialect with ESC" "$PAGETUNE" ddl --dialect "$(printf 'x\033y')" --page-size 8K --out-dir "$T/d3"
expect_contains "$ERR" "unknown dialect 'x?y'" "control characters masked"

expect_rc 64 "both stdin" sh -c "echo 100 | '$PAGETUNE' recommend --sizes - --trace -"
expect_one_line_error "both stdin"
expect_contains "$ERR" "cannot both read stdin" "stdin named"
expect_rc 0 "sizes from stdin alone" sh -c "'$PAGETUNE' recommend --sizes - <'$EX/sessions-mixed.txt'"

for n in 2147483648 9223372036854775808 18446744073709551615; do
    expect_rc 64 "--rows $n" "$PAGETUNE" sample --connect "Driver=x" --rows "$n"
    expect_contains "$ERR" "1..2147483647" "--rows $n: the range given"
done
finish
