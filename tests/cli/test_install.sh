#!/usr/bin/env bash
# test_install.sh — `cmake --install` into a prefix gives a working tool:
# the binary, every man page (rendered by man -l without warnings), bash,
# zsh and fish completion, and the profiles and templates found from the
# installed location — also after the prefix is moved, with no
# PAGETUNE_DATA_DIR.
. "$(dirname "$0")/lib.sh"

P="$T/prefix"
cmake --install "$PT_BUILD_DIR" --prefix "$P" >"$T/install.log" 2>&1 &&
    pass || fail "cmake --install failed: $(tail -5 "$T/install.log")"
[ -x "$P/bin/pagetune" ] && pass || fail "no installed binary"
n=0
for page in "$P"/share/man/man1/*.1 "$P"/share/man/man5/*.5; do
    [ -e "$page" ] || continue
    n=$((n + 1))
    w=$(MANWIDTH=80 man -l --warnings=w "$page" 2>&1 >/dev/null)
    [ -z "$w" ] && pass || fail "man -l $page warns: $w"
done
[ "$n" -ge 3 ] && pass || fail "only $n man pages installed"
for c in advise calibrate ddl diff monitor probe recommend replay sample simulate workload; do
    [ -e "$P/share/man/man1/pagetune-$c.1" ] && pass || fail "no man page for $c"
done
[ -e "$P/share/man/man1/pagetune.1" ] && pass || fail "no pagetune.1"
[ -e "$P/share/bash-completion/completions/pagetune" ] && pass ||
    fail "no bash completion installed"
bash -n "$P/share/bash-completion/completions/pagetune" && pass ||
    fail "completion script has syntax errors"
[ -e "$P/share/zsh/site-functions/_pagetune" ] && pass || fail "no zsh completion installed"
[ -e "$P/share/fish/vendor_completions.d/pagetune.fish" ] && pass ||
    fail "no fish completion installed"
# each shell finds it where it was installed (README "Shell completion")
mkdir -p "$T/home"
if command -v zsh >/dev/null; then
    got=$(env HOME="$T/home" PATH="$P/bin:$PATH" zsh -f "$PT_SOURCE_DIR/tests/tools/zsh_complete.zsh" \
        "$P/share/zsh/site-functions" 'pagetune replay --sync ' | sort | tr '\n' ' ')
    expect_eq "$got" "full normal off " "zsh completes from site-functions"
fi
if command -v fish >/dev/null; then
    got=$(env HOME="$T/home" XDG_CONFIG_HOME="$T/home/.config" PATH="$P/bin:$PATH" \
        XDG_DATA_DIRS="$P/share" fish -c 'complete -C "pagetune replay --sync "' | sort | tr '\n' ' ')
    expect_eq "$got" "full normal off " "fish completes from vendor_completions.d"
fi

# move the prefix: the data must be found next to the binary
mv "$P" "$T/moved"
P="$T/moved"
unset PAGETUNE_DATA_DIR
run "$P/bin/pagetune" --help
expect_eq "$RC" 0 "installed pagetune --help"
run "$P/bin/pagetune" --version
expect_contains "$OUT" "data directory: $P/bin/../share/pagetune" "data found from the installed location"
printf '4000\n4000\n4100\n' > "$T/sizes.txt"
run "$P/bin/pagetune" recommend --sizes "$T/sizes.txt" --json
expect_eq "$RC" 0 "installed recommend finds the db2 profile"
expect_contains "$OUT" '"page_size": 8192' "installed recommend answers 8K for 4000-byte sessions"
run "$P/bin/pagetune" ddl --page-size 8K --out-dir "$T/ddl"
expect_eq "$RC" 0 "installed ddl finds its templates"
finish
