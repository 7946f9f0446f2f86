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

_pagetune() {
    local cur prev cmd bin kind line opts
    cur=${COMP_WORDS[COMP_CWORD]}
    prev=${COMP_WORDS[COMP_CWORD-1]}
    bin=${COMP_WORDS[0]}
    if [ "$COMP_CWORD" -eq 1 ]; then
        COMPREPLY=($(compgen -W "$("$bin" __complete 2>/dev/null) help --help --version" -- "$cur"))
        return
    fi
    cmd=${COMP_WORDS[1]}
    if [ "$cmd" = help ] && [ "$COMP_CWORD" -eq 2 ]; then
        COMPREPLY=($(compgen -W "$("$bin" __complete 2>/dev/null)" -- "$cur"))
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
        file) COMPREPLY=($(compgen -f -- "$cur")); return ;;
        dir) COMPREPLY=($(compgen -d -- "$cur")); return ;;
        dsn) COMPREPLY=($(compgen -W "$(_pagetune_dsns)" -- "$cur")); return ;;
        engine | device | workload | calibration | appserver)
            # a profile name, or a YAML file
            COMPREPLY=($(compgen -W "$("$bin" __complete "@$kind" 2>/dev/null)" -- "$cur")
                $(compgen -f -X '!*.y*ml' -- "$cur"))
            return ;;
        value) COMPREPLY=(); return ;;
        words:*) COMPREPLY=($(compgen -W "${kind#words:}" -- "$cur")); return ;;
        *) COMPREPLY=($(compgen -W "$("$bin" __complete "$cmd" "$prev" 2>/dev/null)" -- "$cur")); return ;;
        esac
    fi
    COMPREPLY=($(compgen -W "$(printf '%s\n' "$opts" | cut -d' ' -f1)" -- "$cur"))
}
complete -F _pagetune pagetune
