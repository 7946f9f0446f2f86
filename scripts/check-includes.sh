#!/usr/bin/env bash
# check-includes.sh [ROOT] — the module include graph against the table of
# docs/architecture.md (the block between "<!-- allowed includes" and
# "<!-- end allowed includes -->"): every `#include "MODULE/..."` in a
# module's .c and .h files must name a module its line allows. Prints one
# line per violation (FILE:LINE: module X may not include Y) and exits 1;
# exits 0 when the graph holds. A module without a line is a violation too.
set -euo pipefail
root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
doc="$root/docs/architecture.md"
[ -f "$doc" ] || { echo "check-includes: $doc missing" >&2; exit 1; }

table=$(awk '/^<!-- allowed includes/{on=1; next} /^<!-- end allowed includes/{on=0} on && /^[a-z_]+:/' "$doc")
[ -n "$table" ] || { echo "check-includes: no allowed-includes block in $doc" >&2; exit 1; }

allowed() { # MODULE -> its allowed list, or nothing
    printf '%s\n' "$table" | awk -F': *' -v m="$1" '$1 == m {print $2}'
}

bad=0
for dir in "$root"/*/; do
    mod=$(basename "$dir")
    case "$mod" in tests|bench|build*|docs|man|profiles|ddl_templates|examples|completion|scripts|perf_data) continue ;; esac
    compgen -G "$dir*.[ch]" >/dev/null || continue
    ok=$(allowed "$mod")
    if [ -z "$ok" ]; then
        echo "check-includes: module $mod has no line in docs/architecture.md" >&2
        bad=1
        continue
    fi
    while IFS=: read -r file line dep; do
        case " $ok " in
        *" $dep "*) ;;
        *) echo "${file#"$root"/}:$line: module $mod may not include $dep/ (docs/architecture.md#dependencies)" >&2
           bad=1 ;;
        esac
    done < <(grep -Hn -o '^[[:space:]]*#[[:space:]]*include[[:space:]]*"[a-z_]*/' "$dir"*.[ch] |
             sed -E 's/^([^:]*):([0-9]+):.*"([a-z_]*)\/$/\1:\2:\3/')
done
exit $bad
