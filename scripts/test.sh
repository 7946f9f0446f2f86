#!/usr/bin/env bash
# test.sh — the whole test suite, as README and .ci/run run it:
#   installs what is missing (Debian 12, root), builds with -Werror, starts
#   real PostgreSQL and MariaDB servers on 127.0.0.1, runs unit, CLI and
#   integration tests, then the same under ASan+UBSan, then every fuzz
#   target for a short time (libFuzzer, scripts/fuzz.sh), then the unit,
#   fault, fuzz-regression and CLI tests once under valgrind memcheck, then
#   the style checks.
# Servers are stopped by PID on every exit path.
# Environment: PT_FUZZ_SECONDS (per fuzz target, default 20; 0 skips),
# PT_VALGRIND_ALL=1 (also the slowest tests under valgrind, see below),
# PT_ALL_PASSES=1 (every test in both the plain and the sanitizer pass).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
jobs=$(nproc 2>/dev/null || echo 2)

bash scripts/install-deps.sh --test

echo "== build (warnings are errors)" >&2
# valgrind (ctest -T memcheck): a memory error or a definite/indirect leak
# fails the test
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPT_WERROR=ON \
    -DBUILD_TESTING=ON \
    "-DMEMORYCHECK_COMMAND_OPTIONS=--error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect --show-leak-kinds=definite,indirect" \
    >/dev/null
cmake --build build -j "$jobs"

echo "== build (AddressSanitizer + UndefinedBehaviorSanitizer)" >&2
cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DPT_SANITIZE=ON \
    -DPT_WERROR=ON -DBUILD_TESTING=ON >/dev/null
cmake --build build-asan -j "$jobs"

srv=$(mktemp -d /tmp/pagetune-servers.XXXXXX)
cleanup() {
    bash "$root/scripts/test-servers.sh" stop "$srv" || true
    rm -rf "$srv"
}
trap cleanup EXIT INT TERM
bash scripts/test-servers.sh start "$srv"
# shellcheck disable=SC1091
. "$srv/servers.env"

# Each heavy test runs in one pass only (PT_ALL_PASSES=1 runs every test
# in every pass). Under the sanitizers, every process pays ASan's start-up:
# test_ddl_keywords starts pagetune ~2,000 times (314 s under ASan, 26 s
# here), so it runs here only; it checks quoting, not memory, and the
# quoting code runs under ASan in test_ddl, the integration tests and the
# ddl_template fuzz target. The tests that drive whole commands end to end
# on large inputs (test_ux, test_advise, test_report, test_hostile_input:
# 315 s here, over half of this pass; test_report_a11y and test_errors_help,
# which run advise --demo) run under ASan+UBSan only, where a fault in them
# is also a memory error found. test_report_facts and test_progress run
# advise --demo end to end too. fault.test_fault_store injects failures
# into the store's allocations and I/O: its worth is the error paths'
# leaks, which only the sanitizer pass sees (150 s in each pass beside
# another suite). test_width checks the layout of every command's tables
# at 80 columns (140 s): text, not memory; test_ux runs the same commands
# under ASan. test_oneline, test_summary and test_json_version check
# the text and documents of recommend and advise --demo (the full replay
# among them): the plain pass; their code runs under ASan in test_ux and
# test_advise.
one_pass_asan='^(cli\.test_(ux|advise|report|report_a11y|report_facts|progress|errors_help|hostile_input)|fault\.test_fault_store)$'
one_pass_plain='^cli\.test_(ddl_keywords|width|oneline|summary|json_version)$'
plain_args=(-E "$one_pass_asan")
asan_args=(-E "$one_pass_plain")
if [ "${PT_ALL_PASSES:-}" = 1 ]; then
    plain_args=()
    asan_args=()
fi

echo "== tests (integration tests run in the sanitizer pass below)" >&2
ctest --test-dir build --output-on-failure -j "$jobs" -LE integration \
    "${plain_args[@]}"

echo "== tests under ASan+UBSan" >&2
ctest --test-dir build-asan --output-on-failure -j "$jobs" -LE build \
    "${asan_args[@]}"

# A fixed seed keeps CI repeatable (a random run that finds a new bug
# belongs to scripts/fuzz.sh runs by developers, not to a red main).
fuzz_s=${PT_FUZZ_SECONDS:-15}
if [ "$fuzz_s" -gt 0 ]; then
    echo "== fuzz targets, ${fuzz_s} s each (libFuzzer + ASan + UBSan)" >&2
    FUZZ_SEED=${FUZZ_SEED:-1} FUZZ_JOBS=$jobs bash scripts/fuzz.sh "$fuzz_s"
fi

echo "== unit, fault, fuzz-regression and CLI tests under valgrind memcheck" >&2
# Under valgrind (20-50x slower) the tests that simulate, replay or write
# large traces take minutes each; to keep CI short they run under ASan
# above, and under valgrind with PT_VALGRIND_ALL=1 (before a release; the
# whole suite took 2.5 + 8 minutes under valgrind on 2 shared cores).
# test_ux runs every command's table and CSV (advise, replay and simulate
# among them): over 600 s under valgrind beside another suite. ctest's
# --timeout below is only a default; each test's TIMEOUT property (1500,
# tests/CMakeLists.txt) wins, so a slow test must be skipped here.
# test_hostile_input sets ulimit -f and -v, which valgrind itself cannot
# run under (SIGXFSZ on its own files), and lists $TMPDIR, where valgrind
# leaves its vgdb pipes: it runs under the normal and ASan builds only.
# fault.test_fault_store (146 s under valgrind) injects allocation and
# I/O failures into the store: its error paths run under ASan's leak
# checker in the sanitizer pass.
# test_diff, test_oneline, test_summary and test_json_version run advise
# --demo (its replay) and recommend on every engine: minutes each under
# valgrind. test_probe, test_replay_trials (probes and replays, each trial
# a fresh store) and test_articles_sh (some 60 simulate runs) likewise;
# test_width and test_report (advise --demo with its probe and replay:
# 200 s each under valgrind, the two longest of this pass) too. Their C
# paths run under ASan above (test_width's rendering in test_ux).
vg_skip='^(unit\.test_sim|fault\.test_fault_store|cli\.test_(advise|replay|workload|recommend|simulate|help|ddl_keywords|ux|golden|hostile_input|report_a11y|report_facts|progress|errors_help|diff|oneline|summary|json_version|probe|replay_trials|articles_sh|width|report))$'
vg_args=(-E "$vg_skip")
[ "${PT_VALGRIND_ALL:-}" = 1 ] && vg_args=()
ctest --test-dir build -T memcheck -L 'unit|fault|fuzz' "${vg_args[@]}" \
    --output-on-failure -j "$jobs"
vg=$(mktemp -d /tmp/pagetune-valgrind.XXXXXX)
PT_VALGRIND=$vg ctest --test-dir build -L cli "${vg_args[@]}" \
    --output-on-failure -j "$jobs" --timeout 2400
if [ -n "$(find "$vg" -type f -size +0)" ]; then
    echo "test.sh: valgrind reports:" >&2
    find "$vg" -type f -size +0 -exec cat {} + | head -n 60 >&2
    exit 1
fi
rm -rf "$vg"

echo "== style and module boundaries" >&2
bash scripts/check-style.sh
echo "test.sh: all green" >&2
