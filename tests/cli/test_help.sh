#!/usr/bin/env bash
# test_help.sh — every command's --help (and `pagetune help CMD`) teaches:
# exit 0, a usage line, every option listed with its default, 2-3 examples,
# and no line wider than the terminal (COLUMNS; 80 when not a TTY); the
# options grouped under headings (issue 32), every option under one.
. "$(dirname "$0")/lib.sh"

# the headings of each command's --help, in order
headings() {
    case $1 in
    advise) echo "connection sampling model validation output safety general" ;;
    calibrate) echo "input model fit output safety general" ;;
    ddl) echo "input table-space output safety general" ;;
    diff) echo "output safety general" ;;
    monitor) echo "connection sampling output safety general" ;;
    recommend) echo "input model output safety general" ;;
    probe) echo "store measurement output safety general" ;;
    replay) echo "connection input store model measurement output safety general" ;;
    sample) echo "connection sampling output safety general" ;;
    simulate) echo "input application-cache buffer-pool model simulation output safety general" ;;
    workload) echo "workload output safety general" ;;
    esac
}

for c in advise calibrate ddl diff monitor probe recommend replay sample simulate workload; do
    expect_rc 0 "$c --help" "$PAGETUNE" "$c" --help
    help=$OUT
    expect_contains "$help" "usage: pagetune $c" "$c --help shows usage"
    expect_rc 0 "help $c" "$PAGETUNE" help "$c"
    expect_eq "$OUT" "$help" "help $c equals $c --help"
    missing=$(printf '%s\n' "$help" | python3 -c '
import sys
lines = sys.stdin.read().split("\n")
entries, cur = [], None
for l in lines:
    if l.startswith("  -"):
        if cur: entries.append(cur)
        cur = l
    elif cur is not None and l.startswith("    ") :
        cur += " " + l.strip()
    else:
        if cur: entries.append(cur)
        cur = None
if cur: entries.append(cur)
for e in entries:
    if "--help" in e or "--json " in e + " ":
        continue
    if "default" not in e and "required" not in e:
        print(e.strip())
')
    expect_eq "$missing" "" "$c --help: options without a stated default"
    got=$(printf '%s\n' "$help" | sed -n 's/^\([a-z ]*\) options:$/\1/p' | tr ' ' - | tr '\n' ' ')
    expect_eq "$got" "$(headings "$c") " "$c --help: option headings"
    # every option under a heading: after the description, the first
    # option line follows the first heading (a blank line, then it)
    first=$(printf '%s\n' "$help" | grep -m1 -B1 -E '^  (-., |    )--')
    case "$first" in
    *" options:"$'\n'*) pass ;;
    *) fail "$c --help: the first option is not under a heading: $first" ;;
    esac
    # not a TTY and no COLUMNS: 80 columns
    long=$(printf '%s\n' "$help" | awk 'length($0) > 80')
    expect_eq "$long" "" "$c --help fits 80 columns"
    for w in 40 60 100; do
        run env COLUMNS=$w "$PAGETUNE" "$c" --help
        long=$(printf '%s\n' "$OUT" | awk -v w=$w 'length($0) > w')
        expect_eq "$long" "" "$c --help fits COLUMNS=$w"
    done
    expect_contains "$help" "examples:" "$c --help has examples"
    n=$(printf '%s\n' "$help" | sed -n '/^examples:/,/^$/p' | grep -c "^  pagetune $c ")
    [ "$n" -ge 2 ] && [ "$n" -le 3 ] && pass || fail "$c --help: $n examples, want 2-3"
    expect_rc 64 "$c with an unknown option" "$PAGETUNE" "$c" --no-such-option
    expect_one_line_error "$c unknown option"
done
finish
