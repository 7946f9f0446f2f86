#!/usr/bin/env bash
# test_cli_basics.sh — the front door: --version, help, unknown commands and
# options, the exit-code contract for usage errors.
. "$(dirname "$0")/lib.sh"

expect_rc 0 "--version" "$PAGETUNE" --version
expect_contains "$OUT" "pagetune " "--version prints the name"
expect_rc 0 "--help" "$PAGETUNE" --help
for c in advise calibrate ddl monitor recommend replay sample simulate workload; do
    expect_contains "$OUT" "$c" "--help lists $c"
done
expect_rc 64 "no command" "$PAGETUNE"
expect_rc 64 "unknown command" "$PAGETUNE" frobnicate
expect_one_line_error "unknown command"
expect_contains "$ERR" "frobnicate" "unknown command is named"
expect_rc 64 "unknown global option" "$PAGETUNE" --frob
expect_rc 64 "help for unknown command" "$PAGETUNE" help frobnicate

# -- short options mean one thing everywhere: the ambiguous ones are gone
# (pagetune(1) HISTORY); -h -o -f -q stay
expect_rc 64 "-t withdrawn from replay" "$PAGETUNE" replay -t x.csv
expect_rc 64 "-p withdrawn from simulate" "$PAGETUNE" simulate --trace x -p 8K
expect_rc 64 "-n withdrawn from workload" "$PAGETUNE" workload -P article-4k -n 5
expect_rc 64 "-c withdrawn from monitor" "$PAGETUNE" monitor --dsn a -c 2
expect_rc 64 "-d withdrawn from simulate" "$PAGETUNE" simulate --trace x -d ssd
expect_rc 64 "-k withdrawn from replay" "$PAGETUNE" replay --trace x -k
for o in -t -p -n -d; do
    expect_rc 64 "$o withdrawn from advise" "$PAGETUNE" advise --demo $o x
done
expect_rc 0 "-h still help" "$PAGETUNE" replay -h

# -- range and choice errors name the option and the real value
expect_rc 64 "interval out of range" "$PAGETUNE" monitor --dsn a --interval 0
expect_contains "$ERR" "--interval: 0 is out of range 0.1..86400" "range error"
expect_one_line_error "range error"
expect_rc 64 "bad choice" "$PAGETUNE" replay --trace x --sync sometimes
expect_contains "$ERR" "--sync: 'sometimes' is not one of off, normal or full" "choice error"

# -- completion: from the option tables, through `pagetune __complete`
expect_rc 0 "__complete" "$PAGETUNE" __complete
expect_contains "$OUT" "simulate" "__complete lists commands"
expect_rc 0 "__complete replay" "$PAGETUNE" __complete replay
expect_contains "$OUT" "--trace file" "--trace completes files"
expect_contains "$OUT" "--sync choice" "--sync completes choices"
expect_rc 64 "__complete unknown" "$PAGETUNE" __complete frobnicate
complete_words() { # WORDS...: COMPREPLY of the bash completion
    bash -c '. "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
        _pagetune; printf "%s\n" "${COMPREPLY[@]}"' _ \
        "$PT_SOURCE_DIR/completion/pagetune.bash" "$PAGETUNE" "$@"
}
expect_eq "$(complete_words replay --sync '' | sort | tr '\n' ' ')" "full normal off " \
    "completion: --sync choices"
expect_eq "$(complete_words ddl --dialect p)" "postgresql" "completion: dialects"
expect_eq "$(complete_words simulate --sharing shared-pu | sort | tr '\n' ' ')" \
    "shared-pull shared-push shared-push-pull " "completion: --sharing"
expect_contains "$(complete_words recommend --engine '')" "oracle" "completion: engine profiles"
expect_eq "$(complete_words advise --validate '' | sort | tr '\n' ' ')" \
    "both none replay sim " "completion: advise --validate from its table"
expect_eq "$(complete_words advise --workload mixed)" "mixed-sessions" \
    "completion: advise --workload profiles"
expect_eq "$(complete_words workload --profile mixed)" "mixed-sessions" "completion: workload profiles"
printf '[ODBC Data Sources]\nSESSDB = x\n\n[SESSDB]\nDriver = x\n[OTHER]\n' >"$T/odbc.ini"
expect_eq "$(ODBCINI=$T/odbc.ini ODBCSYSINI=$T/none complete_words sample --dsn S)" "SESSDB" \
    "completion: DSNs from odbc.ini"
: >"$T/plain.txt"
expect_eq "$(cd "$T" && complete_words replay --sync p)" "" "completion: no files for a choice"
expect_eq "$(cd "$T" && complete_words recommend --sizes pl)" "plain.txt" "completion: files for a path"
finish
