# bash completion for pagetune(1). Everything comes from the binary's own
# option tables: `pagetune __complete CMD` prints "--option KIND" per
# option and `pagetune __complete CMD --option` the values to offer (enum
# choices, profile names, dialects, policies), so the completion never falls
# out of step with the binary. KIND file/dir complete names from the disk;
# dsn reads the data source names of odbc.ini (user and system).

_pagetune_dsns() {
    local f
    for f in "${ODBCINI:-$HOME/.odbc.ini}" "${ODBCSYSINI:-/etc}/odbc.ini"; do
        [ -r "$f" ] && sed -n 's/^[[:space:]]*\[\([^]]*\)\].*/\1/p' "$f"
    done | grep -vx 'ODBC Data Sources' | sort -u
}

# Offer the words of standard input (one a line) that begin with $cur,
# each quoted with printf %q so that a file, profile or data source named
# `$(cmd)` is inserted as text. Never `compgen -W`: it expands $(...) and
# $VAR in its word list, which would run a command named by a file.
_pagetune_offer() {
    local w
    while IFS= read -r w; do
        [ -n "$w" ] || continue
        [[ $w == "$cur"* ]] && COMPREPLY+=("$(printf '%q' "$w")")
    done
}

# Files (compgen -f/-d treat their names as data), quoted the same way;
# $1 is -f or -d, $2 an optional -X filter.
_pagetune_files() {
    local f
    while IFS= read -r f; do
        COMPREPLY+=("$(printf '%q' "$f")")
    done < <(compgen "$@" -- "$cur")
}

_pagetune() {
    local cur prev cmd bin kind line opts
    COMPREPLY=()
    cur=${COMP_WORDS[COMP_CWORD]}
    prev=${COMP_WORDS[COMP_CWORD-1]}
    bin=${COMP_WORDS[0]}
    if [ "$COMP_CWORD" -eq 1 ]; then
        _pagetune_offer < <("$bin" __complete 2>/dev/null; printf '%s\n' help --help --version)
        return
    fi
    cmd=${COMP_WORDS[1]}
    if [ "$cmd" = help ] && [ "$COMP_CWORD" -eq 2 ]; then
        _pagetune_offer < <("$bin" __complete 2>/dev/null)
        return
    fi
    opts=$("$bin" __complete "$cmd" 2>/dev/null)
    if [[ $prev == --* ]]; then
        kind=
        while read -r line; do
            [ "${line%% *}" = "$prev" ] && kind=${line#* }
        done <<<"$opts"
        case $kind in
        flag | "") ;;
        file) _pagetune_files -f; return ;;
        dir) _pagetune_files -d; return ;;
        dsn) _pagetune_offer < <(_pagetune_dsns); return ;;
        engine | device | workload | calibration | appserver)
            # a profile name, or a YAML file
            _pagetune_offer < <("$bin" __complete "@$kind" 2>/dev/null)
            _pagetune_files -f -X '!*.y*ml'
            return ;;
        value) return ;;
        words:*) _pagetune_offer < <(tr ' ' '\n' <<<"${kind#words:}"); return ;;
        *) _pagetune_offer < <("$bin" __complete "$cmd" "$prev" 2>/dev/null); return ;;
        esac
    fi
    _pagetune_offer < <(printf '%s\n' "$opts" | cut -d' ' -f1)
}
complete -F _pagetune pagetune
