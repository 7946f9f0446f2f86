# zsh_complete.zsh — what zsh's completion offers for a command line, as a
# user pressing TAB would get it (tests/cli/test_completion_shells.sh).
#   zsh -f zsh_complete.zsh FPATH_DIR 'pagetune recommend --'
# Starts an interactive zsh in a pseudo-terminal (zsh/zpty) with compinit
# and FPATH_DIR first in $fpath (it holds _pagetune), types the line and a
# TAB, and prints each match the completion system was given, one a line,
# exactly as compadd received it. compadd is wrapped, not stubbed: the real
# one still runs, so _files and the rest work as in a terminal.
zmodload zsh/zpty || exit 2
dir=$1 line=$2

zpty z zsh -f -i
zpty -w z "fpath=(${(q)dir} \$fpath); PROMPT=; RPROMPT=; unsetopt zle_bracketed_paste 2>/dev/null"
zpty -w z 'autoload -Uz compinit && compinit -u -D'
zpty -w z 'zstyle ":completion:*" list-grouped false'
zpty -w z 'zstyle ":completion:*" insert-tab false'
# print every match handed to compadd between two markers, then leave
zpty -w z 'compadd() {
    if [[ ${@[1,(i)(-|--)]} == *-(O|A|D)\ * ]]; then
        builtin compadd "$@"; return
    fi
    local -a __hits
    builtin compadd -A __hits "$@"
    local h
    for h in $__hits; do print -r -- "MA""TCH:$h"; done
    builtin compadd "$@"
}'
zpty -w z 'pt_begin() { print -r -- "<<""BEGIN>>"; }'
zpty -w z 'pt_end() { print -r -- "<<""END>>"; exit; }'
zpty -w z 'compprefuncs=(pt_begin); comppostfuncs=(pt_end)'
zpty -w z 'bindkey "^I" complete-word'
zpty -w z "$line"$'\t'

# a hang guard, not a speed check: give up after ~300 s without output
# (the valgrind pass runs pagetune under memcheck, beside another suite)
out= chunk=
integer idle=0
while (( idle < 3000 )); do
    if zpty -rt z chunk; then
        out+=$chunk idle=0
        [[ $out == *'<<END>>'* ]] && break
    else
        (( idle++ ))
        sleep 0.1
    fi
done
zpty -d z
out=${out//$'\r'/}
out=${out#*'<<BEGIN>>'}
out=${out%%'<<END>>'*}
print -r -- ${(F)${(M)${(f)out}:#MATCH:*}#MATCH:}
