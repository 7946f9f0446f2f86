#!/usr/bin/env bash
# test_bare_build.sh — the README's first command configures and builds on a
# bare Debian 12 that has only what `scripts/install-deps.sh` (no --test)
# installs. CI cannot see this directly (the test command installs more),
# so the build is tried in a view of this machine that lacks the rest:
# pkg-config sees only the .pc files of the build packages, and every
# header, .pc and CMake package file of the test packages is hidden
# (bind-mounted over with an empty file in a private mount namespace).
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

# One build in a view of this machine as bare as Debian 12 with only the
# build packages: pkg-config limited to the build packages' .pc files, and
# every header, .pc and CMake package file of the test packages hidden
# (bind-mounted over with /dev/null in a private mount namespace). Both
# restrictions at once: a dependency that only one of them would hide
# fails here too. (Two builds, one per restriction, took 260 s of the
# plain pass beside another suite.)
pc="$T/pc"
mkdir -p "$pc"
pkg_files build '\.pc$' | while read -r f; do ln -sf "$f" "$pc/"; done
[ -n "$(ls "$pc")" ] && pass || fail "no .pc files found for the build packages"
pkg_files test '^/usr/(include/|lib/[^/]*/pkgconfig/|share/pkgconfig/|lib/[^/]*/cmake/)' \
    >"$T/hide.txt"
grep -q 'cmocka' "$T/hide.txt" && pass || fail "cmocka's files not found to hide"
# shellcheck disable=SC2016
if PKG_CONFIG_LIBDIR=$pc PKG_CONFIG_PATH= unshare -m bash -c '
    while read -r f; do mount --bind /dev/null "$f" || exit 1; done <"$1"
    pkg-config --exists cmocka && { echo "cmocka still visible" >&2; exit 1; }
    pkg-config --exists sqlite3 || { echo "a build package is not visible" >&2; exit 1; }
    cmake -S "$2" -B "$3" >"$3.log" 2>&1 && cmake --build "$3" -j 2 >>"$3.log" 2>&1
' _ "$T/hide.txt" "$src" "$T/b"; then
    pass
    check_binary "$T/b" "bare view"
else
    fail "configure/build with only the build packages visible: $(tail -5 "$T/b.log" 2>/dev/null)"
fi

finish
