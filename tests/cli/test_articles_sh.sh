#!/usr/bin/env bash
# test_articles_sh.sh — bench/articles.sh runs to the end (issue 27: it had
# stopped at its first simulate, `unknown option '-t'`, unnoticed). The
# --quick mode runs every row of bench/articles_data/ on 5,000-request
# traces; the figures are not checked here (bench/articles.sh without
# --quick is the comparison), only that each seed's table is printed in
# full (with seed 000's Table 6) and the script exits 0.
. "$(dirname "$0")/lib.sh"
command -v python3 >/dev/null || { echo "python3 missing" >&2; exit 77; }
root=$(cd "$(dirname "$0")/../.." && pwd)
# articles.sh takes the build directory; under PT_VALGRIND lib.sh wraps
# the binary, so hand it a directory holding the wrapper as `pagetune`
mkdir -p "$T/build"
ln -s "$PAGETUNE" "$T/build/pagetune"

expect_rc 0 "articles.sh --quick" bash "$root/bench/articles.sh" --quick "$T/build"
for seed in 000 001 002 004; do
    case $OUT in
    *"== seed $seed "*) pass ;;
    *) fail "articles.sh --quick: no table for seed $seed" ;;
    esac
done
# every non-comment row of each data file is printed (a row that stopped
# the script or was skipped would be missing)
for f in "$root"/bench/articles_data/article-???.tsv; do
    n=$(grep -v '^#' "$f" | tail -n +2 | grep -c .)
    seed=$(basename "$f" .tsv)
    seed=${seed#article-}
    got=$(printf '%s\n' "$OUT" | awk -v s="== seed $seed " 'index($0, s) == 1 {on = 1; next} /^== seed / {on = 0} on && !/^cell / && NF' |
        grep -vc -e ' response ms ' -e '^Table .* step ' -e '^\(4\|10\|30\) KB step')
    [ "$got" -ge "$n" ] && pass || fail "seed $seed: $got rows printed, $n in $(basename "$f")"
done
# seed 000's Table 6: the best page size against 4K, req/s and response,
# for each of the three object sizes
expect_eq "$(printf '%s\n' "$OUT" | grep -c '^Table 6, .* best (.*) vs 4K ')" 6 "Table 6 compared"
case $OUT in
*"articles.sh: all rows ran"*) pass ;;
*) fail "articles.sh --quick did not reach its end" ;;
esac
finish
