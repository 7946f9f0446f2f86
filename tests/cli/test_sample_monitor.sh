#!/usr/bin/env bash
# test_sample_monitor.sh — `sample` and `monitor` without a server: option
# errors (64), checks done before connecting (hostile names 65, password
# file mode 77, existing output 73), --help and the man pages list every
# option. The server-side behaviour is in tests/integration/.
. "$(dirname "$0")/lib.sh"

for cmd in sample monitor; do
    expect_rc 0 "$cmd --help" "$PAGETUNE" $cmd --help
    help=$OUT
    for opt in dsn connect password-file password-env engine output format force quiet; do
        expect_contains "$help" "--$opt" "$cmd --help lists --$opt"
    done
    expect_contains "$help" "default" "$cmd --help states defaults"
    man="$PT_SOURCE_DIR/man/pagetune-$cmd.1"
    [ -f "$man" ] && pass || fail "$man missing"
    for opt in $(printf '%s\n' "$help" | grep -oE -- '--[a-z][a-z-]+' | sort -u); do
        grep -q -- "$(printf '%s' "$opt" | sed 's/-/\\\\-/g')" "$man" && pass ||
            fail "$man does not document $opt"
    done
    expect_rc 64 "$cmd without a connection" "$PAGETUNE" $cmd
    expect_one_line_error "$cmd without a connection"
    expect_rc 64 "$cmd with both" "$PAGETUNE" $cmd --dsn a --connect b
    expect_rc 64 "$cmd unknown option" "$PAGETUNE" $cmd --frob
    expect_rc 64 "$cmd bad engine" "$PAGETUNE" $cmd --dsn a --engine oracle
    expect_rc 64 "$cmd operand" "$PAGETUNE" $cmd --dsn a extra
    expect_rc 64 "$cmd two password sources" "$PAGETUNE" $cmd --dsn a --password-env X --password-file Y
    printf 'pw\n' > "$T/pw"
    chmod 0644 "$T/pw"
    expect_rc 77 "$cmd password file 0644" "$PAGETUNE" $cmd --connect "Driver=x" --password-file "$T/pw"
    expect_contains "$ERR" "0600" "$cmd: mode required"
    expect_rc 64 "$cmd unset password env" "$PAGETUNE" $cmd --connect "Driver=x" --password-env PT_SURELY_UNSET_VAR
    echo '{}' > "$T/exists.json"
    expect_rc 73 "$cmd existing output" "$PAGETUNE" $cmd --connect "Driver=x" -o "$T/exists.json"
    expect_eq "$(cat "$T/exists.json")" "{}" "$cmd: existing output untouched"
done

expect_rc 64 "hostile table" "$PAGETUNE" sample --connect "Driver=x" --table "x; DROP TABLE y"
expect_one_line_error "hostile table"
expect_contains "$ERR" "x; DROP TABLE y" "hostile table named"
expect_rc 65 "hostile column" "$PAGETUNE" sample --connect "Driver=x" --columns "SMALL,a'b"
expect_rc 64 "three-part name" "$PAGETUNE" sample --connect "Driver=x" --table a.b.c
expect_rc 64 "--percent 0" "$PAGETUNE" sample --connect "Driver=x" --percent 0
expect_rc 64 "--percent 101" "$PAGETUNE" sample --connect "Driver=x" --percent 101
expect_rc 64 "--percent abc" "$PAGETUNE" sample --connect "Driver=x" --percent abc
expect_rc 64 "--rows 0" "$PAGETUNE" sample --connect "Driver=x" --rows 0
expect_rc 64 "--percent and --rows" "$PAGETUNE" sample --connect "Driver=x" --percent 5 --rows 5
expect_rc 64 "--method" "$PAGETUNE" sample --connect "Driver=x" --method cluster
expect_rc 64 "--fetch-rows 0" "$PAGETUNE" sample --connect "Driver=x" --fetch-rows 0
expect_rc 64 "--unit" "$PAGETUNE" sample --connect "Driver=x" --unit page
expect_rc 64 "--seed -1" "$PAGETUNE" sample --connect "Driver=x" --seed -1
expect_rc 64 "--interval 0" "$PAGETUNE" monitor --connect "Driver=x" --interval 0
expect_rc 64 "--count 0" "$PAGETUNE" monitor --connect "Driver=x" --count 0
# the driver does not exist: 69 with the driver manager's message, one line
expect_rc 69 "no such driver" "$PAGETUNE" sample --connect "Driver=pt_no_such_driver;Pwd=topsecret;"
expect_one_line_error "no such driver"
case "$ERR" in *topsecret*) fail "password printed" ;; *) pass ;; esac
finish
