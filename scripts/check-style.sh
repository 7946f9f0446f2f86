#!/usr/bin/env bash
# check-style.sh — the checks of docs/architecture.md#rules: module boundaries for foreign headers,
# function length (scripts/funclen.awk) and clang-format on every C file.
set -euo pipefail
cd "$(dirname "$0")/.."
bad=0
check_only() { # HEADER_REGEX ALLOWED_PATH_REGEX
    local hits
    hits=$(grep -rlE "#include <($1)>" --include='*.c' --include='*.h' \
        core cli model recommend sim perf store collect ddl report advise | grep -vE "$2" || true)
    if [ -n "$hits" ]; then
        echo "check-style: <$1> included outside $2: $hits" >&2
        bad=1
    fi
}
check_only 'sql\.h|sqlext\.h' '^collect/'
check_only 'sqlite3\.h' '^store/'
check_only 'yaml\.h' '^core/prof\.c$'
# model/ and recommend/ do no I/O (sim/ reads only what it is handed)
if grep -rnE '\b(fopen|fwrite|printf|fprintf|puts|fputs)[[:space:]]*\(' model/*.c recommend/*.c 2>/dev/null; then
    echo "check-style: model/ and recommend/ must not do I/O" >&2
    bad=1
fi
# report/ renders into the stream or buffer it is handed: no terminal, no exit
if grep -nE '\b(stdout|stderr|printf|puts|perror|exit|_exit|abort)\b' report/*.c 2>/dev/null; then
    echo "check-style: report/ must not print to the terminal or exit" >&2
    bad=1
fi
# the module include graph (docs/architecture.md#dependencies, issue 22)
if ! bash scripts/check-includes.sh "$(pwd)"; then
    echo "check-style: an include against docs/architecture.md, see above" >&2
    bad=1
fi
# libraries name no command-line option (docs/architecture.md#errors)
if ! bash scripts/check-flags.sh "$(pwd)"; then
    echo "check-style: name the request field in backquotes (\`table\`), see above" >&2
    bad=1
fi
files=$(git ls-files '*.c' '*.h' 2>/dev/null || find . -name '*.[ch]' -not -path './build*')
# no function longer than 120 lines outside tests/ and bench/ (issue 12):
# split a longer one along its steps
src=$(printf '%s\n' $files | grep -E '\.c$' | grep -vE '^(\./)?(tests|bench)/' || true)
if [ -n "$src" ] && ! awk -v max=120 -f scripts/funclen.awk $src >&2; then
    echo "check-style: split the functions above" >&2
    bad=1
fi
if command -v clang-format >/dev/null; then
    if ! clang-format --dry-run -Werror $files 2>/tmp/clang-format.$$; then
        head -n 20 /tmp/clang-format.$$ >&2
        echo "check-style: run clang-format -i on the files above" >&2
        bad=1
    fi
    rm -f /tmp/clang-format.$$
fi
exit $bad
