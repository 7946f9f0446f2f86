# funclen.awk — print every C function whose body is longer than max lines
# (default 150), as "file:line: name() is N lines". With the Linux brace
# style of .clang-format a function body opens with "{" alone in column 0
# and closes with "}" alone in column 0; nothing else does. Exit status 1
# when one was found. Usage: awk -v max=150 -f scripts/funclen.awk FILES
BEGIN {
    if (max == "")
        max = 150
    bad = 0
}
FNR == 1 { start = 0; sig = "" }
/\(/ && !start && $0 !~ /^[ \t]/ { sig = $0 }
/^\{[ \t]*$/ { start = FNR; name = sig; next }
/^\}/ && start {
    n = FNR - start - 1
    if (n > max) {
        sub(/\(.*/, "", name)
        sub(/.*[ *]/, "", name)
        printf "%s:%d: %s() is %d lines (at most %d)\n", FILENAME, start, name, n, max
        bad = 1
    }
    start = 0
}
END { exit bad }
