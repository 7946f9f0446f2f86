#!/usr/bin/env bash
# test_check_flags.sh — libraries name no command-line option (issue 22):
# scripts/check-flags.sh passes on the tree as it is, and fails, naming
# the file and line, on a copy where a library's message names "--table";
# a `flag-ok` marker covers the statement after it, and cli/ is free to
# name its own options.
. "$(dirname "$0")/../cli/lib.sh"
S=$PT_SOURCE_DIR
CHECK="$S/scripts/check-flags.sh"

expect_rc 0 "the tree's libraries name no option" bash "$CHECK" "$S"

copy() { # a copy of the modules' C files
    rm -rf "$T/tree"
    mkdir -p "$T/tree"
    for d in "$S"/*/; do
        compgen -G "$d*.[ch]" >/dev/null || continue
        case "$(basename "$d")" in tests|bench|build*) continue ;; esac
        mkdir -p "$T/tree/$(basename "$d")"
        cp "$d"*.[ch] "$T/tree/$(basename "$d")/"
    done
}

copy
expect_rc 0 "an untouched copy passes" bash "$CHECK" "$T/tree"
printf 'static const char *m = "--table: name too long";\n' >>"$T/tree/store/plan.c"
expect_rc 1 "a library message naming --table fails" bash "$CHECK" "$T/tree"
expect_contains "$ERR" "store/plan.c:" "the file is named"
expect_contains "$ERR" "names a command-line option" "the rule is named"

copy
printf 'static int f(void)\n{\n    return err_set(NULL, PT_EUSAGE, "give "\n                   "--rows or --percent");\n}\n' >>"$T/tree/collect/sample.c"
expect_rc 1 "an option on a continued line fails" bash "$CHECK" "$T/tree"

copy
printf '/* flag-ok: another program'"'"'s flag */\nstatic const char *m =\n    "run mysqld --initialize";\nstatic const char *n = "--rows";\n' >>"$T/tree/ddl/plan.c"
expect_rc 1 "the marker covers one statement only" bash "$CHECK" "$T/tree"
expect_contains "$ERR" '"--rows"' "the statement after it is checked"

copy
printf '/* flag-ok: another program'"'"'s flag */\nstatic const char *m =\n    "run mysqld --initialize";\n' >>"$T/tree/ddl/plan.c"
printf 'static const char *m = "--table";\n' >>"$T/tree/cli/opts.c"
printf 'static const char *css = "a{--fg:#fff;--bg:#000}b{color:var(--fg)}";\n' >>"$T/tree/report/report.c"
expect_rc 0 "a marked statement, CSS custom properties and cli/ pass" bash "$CHECK" "$T/tree"
finish
