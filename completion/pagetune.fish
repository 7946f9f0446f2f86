# fish completion for pagetune(1), the twin of completion/pagetune.bash:
# every word comes from the binary's own option tables through
# `pagetune __complete` (cli/commands.c): `__complete` lists the commands,
# `__complete CMD` prints "--option KIND" per option and `__complete CMD
# --option` or `__complete @KIND` the values to offer (`__complete -d
# [CMD]` the commands or options with their descriptions). KIND file/dir
# complete names from the disk; dsn reads the data source names of
# odbc.ini (user and system).
#
# Install: copy to a directory of $fish_complete_path as pagetune.fish
# (cmake --install puts it in share/fish/vendor_completions.d).
#
# Words are data, never code: a profile, file or data source may be named
# `$(cmd)` or `(cmd)`. They are printed, one a line, by
# __pagetune_complete; fish splits a command substitution's output at
# newlines without expanding it again and escapes what it inserts. Nothing
# here goes through eval.

# The data source names of odbc.ini, one a line.
function __pagetune_dsns
    set -l user $HOME/.odbc.ini
    set -q ODBCINI; and set user $ODBCINI
    set -l sys /etc
    set -q ODBCSYSINI; and set sys $ODBCSYSINI
    for f in $user $sys/odbc.ini
        test -r $f; or continue
        string replace -rf -- '^\s*\[([^]]*)\].*' '$1' <$f
    end | string match -v -- 'ODBC Data Sources' | sort -u
end

# Files (and directories, to descend into) that complete the current
# token; with -y only YAML files.
function __pagetune_files
    set -l cur (commandline -ct)
    if test "$argv[1]" = -y
        __fish_complete_path $cur | string match -r -- '^[^\t]*(\.ya?ml|/)\t.*$'
    else
        __fish_complete_path $cur
    end
end

function __pagetune_complete
    set -l tokens (commandline -opc)
    set -l bin $tokens[1]
    set -l n (count $tokens)
    if test $n -eq 1
        # "advise<TAB>summary": fish shows the summary
        $bin __complete -d 2>/dev/null
        printf '%s\t%s\n' help "show a command's --help" --help "show the commands" \
            --version "show the version"
        return
    end
    set -l cmd $tokens[2]
    if test "$cmd" = help -a $n -eq 2
        $bin __complete -d 2>/dev/null
        return
    end
    set -l opts ($bin __complete $cmd 2>/dev/null)
    set -l prev $tokens[-1]
    if string match -q -- '--*' $prev
        set -l kind
        for line in $opts
            set -l f (string split -m1 ' ' -- $line)
            test "$f[1]" = "$prev"; and set kind $f[2]
        end
        switch "$kind"
            case flag ''
            case file
                __pagetune_files
                return
            case dir
                __fish_complete_directories (commandline -ct)
                return
            case dsn
                __pagetune_dsns
                return
            case engine device workload calibration appserver
                # a profile name, or a YAML file
                $bin __complete @$kind 2>/dev/null
                __pagetune_files -y
                return
            case value
                return
            case '*'
                $bin __complete $cmd $prev 2>/dev/null
                return
        end
    end
    # the options with their help
    $bin __complete -d $cmd 2>/dev/null
end

complete -c pagetune -f -a '(__pagetune_complete)'
