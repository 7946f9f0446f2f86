# bash completion for pagetune(1). Options are read from `pagetune CMD
# --help`, so the completion never falls out of step with the binary.
_pagetune() {
    local cur prev cmd opts
    cur=${COMP_WORDS[COMP_CWORD]}
    prev=${COMP_WORDS[COMP_CWORD-1]}
    if [ "$COMP_CWORD" -eq 1 ]; then
        COMPREPLY=($(compgen -W "advise calibrate ddl help monitor recommend replay sample simulate workload --help --version" -- "$cur"))
        return
    fi
    cmd=${COMP_WORDS[1]}
    if [ "$cmd" = help ] && [ "$COMP_CWORD" -eq 2 ]; then
        COMPREPLY=($(compgen -W "advise calibrate ddl monitor recommend replay sample simulate workload" -- "$cur"))
        return
    fi
    case $prev in
    --format) COMPREPLY=($(compgen -W "table json csv" -- "$cur")); return ;;
    --engine) COMPREPLY=($(compgen -W "auto db2 postgresql mysql sqlite oracle" -- "$cur")); return ;;
    --dialect) COMPREPLY=($(compgen -W "db2 postgresql mysql sqlite oracle" -- "$cur")); return ;;
    --device) COMPREPLY=($(compgen -W "hdd ssd nvme" -- "$cur")); return ;;
    --validate) COMPREPLY=($(compgen -W "none sim replay both" -- "$cur")); return ;;
    --color) COMPREPLY=($(compgen -W "auto always never" -- "$cur")); return ;;
    --fail-on) COMPREPLY=($(compgen -W "drift" -- "$cur")); return ;;
    --sharing) COMPREPLY=($(compgen -W "not-shared shared-push shared-pull shared-push-pull" -- "$cur")); return ;;
    --policy|--app-policy) COMPREPLY=($(compgen -W "lru fifo clock random sieve arc s3fifo 2q" -- "$cur")); return ;;
    --out-dir|--store-dir) COMPREPLY=($(compgen -d -- "$cur")); return ;;
    esac
    if [[ $cur == -* ]]; then
        opts=$("${COMP_WORDS[0]}" "$cmd" --help 2>/dev/null | grep -oE -- '--[a-z][a-z0-9-]*' | sort -u)
        COMPREPLY=($(compgen -W "$opts" -- "$cur"))
        return
    fi
    COMPREPLY=($(compgen -f -- "$cur"))
}
complete -F _pagetune pagetune
