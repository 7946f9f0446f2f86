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
    if [ -z "$opts" ]; then
        # a command without a declarative table yet: read its --help,
        # "--name ARG" gives the kind (FILE file, DIR dir, a|b list choice)
        opts=$("$bin" "$cmd" --help 2>/dev/null |
            sed -n 's/^ *\(-[a-zA-Z], \)\{0,1\}\(--[a-z][a-z0-9-]*\)\( \([^ ]*\)\)\{0,1\}.*/\2 \4/p' |
            while read -r o a; do
                case $a in
                "") echo "$o flag" ;;
                PROFILE) echo "$o value" ;;
                *FILE*) echo "$o file" ;;
                *DIR*) echo "$o dir" ;;
                *[a-z]\|[a-z]*) echo "$o words:${a//|/ }" ;;
                *) echo "$o value" ;;
                esac
            done)
        # advise's fixed value lists, until its table is declarative
        opts=$(printf '%s\n' "$opts" | sed \
            -e 's/^--validate value$/--validate words:none sim replay both/' \
            -e 's/^--color value$/--color words:auto always never/' \
            -e 's/^--fail-on value$/--fail-on words:drift/' \
            -e 's/^--format value$/--format words:table json csv/' \
            -e 's/^--dsn value$/--dsn dsn/' \
            -e 's/^--engine value$/--engine engine/' \
            -e 's/^--workload value$/--workload workload/')
    fi
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
