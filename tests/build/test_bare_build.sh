#!/usr/bin/env bash
# test_bare_build.sh — the README's first command configures and builds on a
# bare Debian 12 that has only what `scripts/install-deps.sh` (no --test)
# installs. CI cannot see this directly (the test command installs more),
# so the build is tried twice in views of this machine that lack the rest:
#   1. pkg-config sees only the .pc files of the build packages;
#   2. every header, .pc and CMake package file of the test packages is
#      hidden (bind-mounted over with an empty file in a private mount
#      namespace), with pkg-config's normal search path.
# Then the built binary runs the main job's quickest check (--version and a
# recommend on the shipped profiles). Needs root and unshare(1): skips (77)
# without them outside CI.
. "$(dirname "$0")/../cli/lib.sh"

src=${PT_SOURCE_DIR:?}
if [ "$(id -u)" -ne 0 ] || ! unshare -m true 2>/dev/null; then
    [ "${CI:-}" = true ] && { fail "needs root and unshare -m in CI"; exit 1; }
    echo "skip: needs root and unshare -m" >&2
    exit 77
fi

# files of the installed packages in LIST (build|test) whose path matches RE
pkg_files() {
    local p
    for p in $(bash "$src/scripts/install-deps.sh" --print "$1"); do
        dpkg-query -L "$p" 2>/dev/null || true
    done | grep -E "$2" | while read -r f; do [ -f "$f" ] && echo "$f"; done
}

# README command 1, minus install-deps (run by the caller) and the demo run
bare_build() { # DIR
    cmake -S "$src" -B "$1" >"$1.log" 2>&1 &&
        cmake --build "$1" -j 2 >>"$1.log" 2>&1
}

check_binary() { # DIR DESC
    run "$1/pagetune" --version
    expect_eq "$RC" 0 "$2: pagetune --version"
    printf '4000\n4000\n4100\n' >"$T/sizes.txt"
    PAGETUNE_DATA_DIR=$src run "$1/pagetune" recommend --sizes "$T/sizes.txt" --json
    expect_eq "$RC" 0 "$2: recommend runs"
    expect_contains "$OUT" '"page_size": 8192' "$2: recommend answers 8K"
    [ ! -e "$1/tests" ] || [ -z "$(find "$1/tests" -name 'test_*' -type f -perm -u+x)" ] &&
        pass || fail "$2: tests were built without cmocka"
}

# 1. pkg-config limited to the build packages' .pc files
pc="$T/pc"
mkdir -p "$pc"
pkg_files build '\.pc$' | while read -r f; do ln -sf "$f" "$pc/"; done
[ -n "$(ls "$pc")" ] && pass || fail "no .pc files found for the build packages"
if PKG_CONFIG_LIBDIR=$pc PKG_CONFIG_PATH= bare_build "$T/b1"; then
    pass
    check_binary "$T/b1" "build .pc files only"
else
    fail "configure/build with only the build packages' .pc files: $(tail -5 "$T/b1.log")"
fi

# 2. the test packages' headers, .pc and CMake files hidden
pkg_files test '^/usr/(include/|lib/[^/]*/pkgconfig/|share/pkgconfig/|lib/[^/]*/cmake/)' \
    >"$T/hide.txt"
grep -q 'cmocka' "$T/hide.txt" && pass || fail "cmocka's files not found to hide"
# shellcheck disable=SC2016
if unshare -m bash -c '
    while read -r f; do mount --bind /dev/null "$f" || exit 1; done <"$1"
    pkg-config --exists cmocka && { echo "cmocka still visible" >&2; exit 1; }
    cmake -S "$2" -B "$3" >"$3.log" 2>&1 && cmake --build "$3" -j 2 >>"$3.log" 2>&1
' _ "$T/hide.txt" "$src" "$T/b2"; then
    pass
    check_binary "$T/b2" "test packages hidden"
else
    fail "configure/build with the test packages hidden: $(tail -5 "$T/b2.log" 2>/dev/null)"
fi

finish
