#!/usr/bin/env bash
# test_completion_shells.sh — the bash, zsh and fish completions
# (completion/pagetune.bash, _pagetune, pagetune.fish) driven as a user at
# a prompt would: bash through its COMP_WORDS protocol, zsh in a
# pseudo-terminal pressing TAB (tests/tools/zsh_complete.zsh), fish
# through `complete -C`. Each offers the commands, each command's own
# options and the values of an option (choices, profile names, files,
# DSNs) from the binary's option tables, and runs nothing a profile, file
# or data source is named after (issue 30 point 5). Without zsh or fish
# (scripts/install-deps.sh --test installs both) that shell's part is
# skipped, except in CI.
. "$(dirname "$0")/lib.sh"
SRC=${PT_SOURCE_DIR:?}

# `pagetune` on PATH, as the completions find it by the command's name
mkdir -p "$T/bin" "$T/home" "$T/cwd" "$T/data/profiles"
ln -s "$PAGETUNE" "$T/bin/pagetune"
# the shipped data, plus a device profile, a file and a DSN named as code
for d in "$SRC"/profiles/*/; do
    ln -s "$d" "$T/data/profiles/$(basename "$d")"
done
rm "$T/data/profiles/devices"
mkdir "$T/data/profiles/devices"
cp "$SRC/profiles/devices/"*.yaml "$T/data/profiles/devices/"
ln -s "$SRC/ddl_templates" "$T/data/ddl_templates"
# shellcheck disable=SC2016 # the names are the attack, literally
{
    cp "$SRC/profiles/devices/ssd.yaml" "$T/data/profiles/devices/\$(touch\${IFS}pwned).yaml"
    cp "$SRC/profiles/devices/ssd.yaml" "$T/data/profiles/devices/\$(touch pwned5).yaml"
    : >"$T/cwd/\$(touch pwned2).json"
    : >"$T/cwd/\`touch pwned4\`.yaml"
    printf '[SESSDB]\nDriver = x\n[$(touch pwned3)]\nDriver = x\n' >"$T/odbc.ini"
}
# a name with a newline would be two words (a tab: fish's description):
# __complete leaves it out
cp "$SRC/profiles/devices/ssd.yaml" "$T/data/profiles/devices/two"$'\n'"lines.yaml"
expect_rc 0 "__complete @device" env PAGETUNE_DATA_DIR="$T/data" "$PAGETUNE" __complete @device
expect_eq "$(printf '%s\n' "$OUT" | grep -c -x -e two -e lines)" 0 \
    "__complete leaves out a name with a newline"
expect_contains "$OUT" "pwned5" "__complete lists the other names"

# -d: the commands and options with what they do, for zsh and fish
expect_rc 0 "__complete -d" "$PAGETUNE" __complete -d
expect_contains "$OUT" "advise"$'\t'"sample, monitor" "__complete -d: command summaries"
expect_rc 0 "__complete -d recommend" "$PAGETUNE" __complete -d recommend
expect_contains "$OUT" "--sizes"$'\t'"object sizes" "__complete -d CMD: option help"
expect_rc 64 "__complete -d unknown" "$PAGETUNE" __complete -d frobnicate

ENV=(env HOME="$T/home" PATH="$T/bin:$PATH" PAGETUNE_DATA_DIR="$T/data"
    ODBCINI="$T/odbc.ini" ODBCSYSINI="$T/none" XDG_CONFIG_HOME="$T/home/.config"
    XDG_DATA_HOME="$T/home/.local/share")

no_pwned() { # DESC: no file a name's code would have created
    local found
    found=$(find "$T" -name 'pwned*' ! -name '*.yaml' ! -name '*.json' 2>/dev/null)
    expect_eq "$found" "" "$1: completion ran code from a name"
}
sorted() { sort | tr '\n' ' '; }

# check SHELL: the same assertions for each shell; comp LINE prints the
# words offered for LINE (the cursor at its end), one a line
check() {
    local sh=$1 got
    got=$(comp 'pagetune ')
    for w in advise calibrate ddl monitor recommend replay sample simulate workload; do
        expect_contains "$got" "$w" "$sh: commands"
    done
    expect_contains "$(comp 'pagetune help ')" "simulate" "$sh: help CMD"
    got=$(comp 'pagetune recommend --')
    for w in --sizes --monitor --device --engine --memory --json --output --help; do
        expect_contains "$got" "$w" "$sh: recommend's options"
    done
    case "$got" in
    *--demo* | *--dsn*) fail "$sh: advise's options offered for recommend: $got" ;;
    *) pass ;;
    esac
    expect_eq "$(comp 'pagetune sample --engine ' | sorted)" \
        "auto db2 mysql postgresql sqlite " "$sh: sample --engine choices"
    got=$(comp 'pagetune recommend --engine ')
    for w in db2 postgresql oracle; do
        expect_contains "$got" "$w" "$sh: recommend --engine profiles (@engine)"
    done
    expect_eq "$(comp 'pagetune replay --sync ' | sorted)" "full normal off " \
        "$sh: choices and no files"
    got=$(comp 'pagetune recommend --device ')
    for w in hdd nvme ssd pwned pwned5; do
        expect_contains "$got" "$w" "$sh: recommend --device profiles"
    done
    no_pwned "$sh: recommend --device"
    got=$(comp 'pagetune recommend --sizes ')
    expect_contains "$got" "pwned2" "$sh: --sizes offers files"
    no_pwned "$sh: recommend --sizes"
    got=$(comp 'pagetune sample --dsn ')
    expect_contains "$got" "SESSDB" "$sh: DSNs from odbc.ini"
    expect_contains "$got" "pwned3" "$sh: a DSN named as code is offered"
    no_pwned "$sh: sample --dsn"
    got=$(comp 'pagetune simulate --engine ')
    expect_contains "$got" "pwned4" "$sh: an engine may be a YAML file"
    no_pwned "$sh: simulate --engine"
}

in_ci() { [ "${CI:-}" = true ]; }
ran=0

# bash first: the same checks, COMPREPLY as the words (quoted with %q)
comp() {
    local -a w
    read -ra w <<<"$1"
    [[ $1 == *' ' ]] && w+=('')
    # shellcheck disable=SC2016 # expanded by the inner bash
    (cd "$T/cwd" && "${ENV[@]}" bash -c '. "$1"; shift; COMP_WORDS=("$@")
        COMP_CWORD=$(($# - 1)); _pagetune; printf "%s\n" "${COMPREPLY[@]}"' _ \
        "$SRC/completion/pagetune.bash" "${w[@]}")
}
check bash

if command -v zsh >/dev/null; then
    comp() {
        (cd "$T/cwd" && "${ENV[@]}" zsh -f "$SRC/tests/tools/zsh_complete.zsh" \
            "$SRC/completion" "$1")
    }
    zsh -n "$SRC/completion/_pagetune" && pass || fail "zsh: _pagetune does not parse"
    check zsh
    # the inserted word is quoted: compadd got the name as data
    # shellcheck disable=SC2016
    expect_contains "$(comp 'pagetune recommend --device ')" '\$\(touch\$\{IFS\}pwned\)' \
        "zsh: the hostile profile is inserted quoted"
    ran=$((ran + 1))
elif in_ci; then
    fail "zsh is not installed (scripts/install-deps.sh --test)"
else
    echo "note: zsh not installed, its completion is not tested"
fi

if command -v fish >/dev/null; then
    comp() {
        # shellcheck disable=SC2016 # fish's variables
        (cd "$T/cwd" && "${ENV[@]}" fish --no-config -c \
            'source $argv[1]; and complete -C $argv[2]' \
            "$SRC/completion/pagetune.fish" "$1" | cut -f1)
    }
    fish --no-config -n "$SRC/completion/pagetune.fish" && pass ||
        fail "fish: pagetune.fish does not parse"
    check fish
    # shellcheck disable=SC2016
    expect_contains "$(comp 'pagetune recommend --device ')" '$(touch${IFS}pwned)' \
        "fish: the hostile profile offered as its name"
    # shellcheck disable=SC2016 # fish's variables
    got=$(cd "$T/cwd" && "${ENV[@]}" fish --no-config -c 'source $argv[1]; and complete -C $argv[2]' \
        "$SRC/completion/pagetune.fish" 'pagetune recommend --s')
    expect_contains "$got" "--sizes"$'\t'"object sizes" "fish: options described"
    ran=$((ran + 1))
elif in_ci; then
    fail "fish is not installed (scripts/install-deps.sh --test)"
else
    echo "note: fish not installed, its completion is not tested"
fi

[ "$ran" -gt 0 ] || exit 77
finish
