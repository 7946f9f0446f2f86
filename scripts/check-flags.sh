#!/usr/bin/env bash
# check-flags.sh [ROOT] — libraries name no command-line option
# (docs/architecture.md#errors, issue 22): a string literal in a library's
# .c file (every module but cli/) must not contain an option such as
# "--table"; the library names the request field in backquotes (`table`)
# and cli/ maps it to the option the user typed. A line that must name one
# (another program's flag, a CSS custom property) follows a comment with
# the marker `flag-ok` and why: the marker covers that comment's line and
# the statement after it, up to the line that ends in `;`. Prints FILE:LINE: and the line per violation and
# exits 1; exits 0 when there is none.
set -euo pipefail
root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
files=()
for dir in "$root"/*/; do
    mod=$(basename "$dir")
    case "$mod" in cli|tests|bench|build*|docs|man|profiles|ddl_templates|examples|completion|scripts) continue ;; esac
    for f in "$dir"*.c; do
        [ -f "$f" ] && files+=("$f")
    done
done
[ ${#files[@]} -gt 0 ] || exit 0
# an option: "--" and a letter, not inside a word, "var(--x)", "{--x" or ";--x"
perl -ne '
    if (/flag-ok/) { $skip = 1; next }
    if ($skip) { $skip = 0 if /;\s*(\/\*.*)?$/; next }
    next if m{^\s*(/\*|\*)};
    while (/"((?:[^"\\]|\\.)*)"/g) {
        if ($1 =~ /(?<![\w({;:-])--[a-z]/) {
            print STDERR "$ARGV:$.: a library names a command-line option: $_";
            $bad = 1;
            last;
        }
    }
    if (eof) { close ARGV; $skip = 0 }
    END { exit($bad ? 1 : 0) }' "${files[@]}"
