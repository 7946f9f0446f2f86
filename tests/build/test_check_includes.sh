#!/usr/bin/env bash
# test_check_includes.sh — the architecture is checked by the build (issue
# 22): scripts/check-includes.sh passes on the tree as it is, and fails,
# naming the file, line and modules, on a copy where core/ includes cli/,
# where sim/ includes advise/ (an arrow against the flow), where ddl/,
# collect/ or model/ include recommend/ (the model apart from the
# recommend step), and where a new module has no line in
# docs/architecture.md.
. "$(dirname "$0")/../cli/lib.sh"
S=$PT_SOURCE_DIR
CHECK="$S/scripts/check-includes.sh"

expect_rc 0 "the tree's includes follow docs/architecture.md" bash "$CHECK" "$S"

copy() { # a copy of the modules' sources and the architecture page
    rm -rf "$T/tree"
    mkdir -p "$T/tree"
    cp -r "$S/docs" "$T/tree/"
    for d in "$S"/*/; do
        compgen -G "$d*.[ch]" >/dev/null || continue
        case "$(basename "$d")" in tests|bench|build*) continue ;; esac
        mkdir -p "$T/tree/$(basename "$d")"
        cp "$d"*.[ch] "$T/tree/$(basename "$d")/"
    done
}

copy
expect_rc 0 "an untouched copy passes" bash "$CHECK" "$T/tree"
printf '#include "cli/cli.h"\n' >>"$T/tree/core/err.c"
expect_rc 1 "core including cli fails" bash "$CHECK" "$T/tree"
expect_contains "$ERR" "core/err.c:" "the file is named"
expect_contains "$ERR" "module core may not include cli/" "the modules are named"

copy
printf '#include "advise/advise.h"\n' >>"$T/tree/sim/sim.h"
expect_rc 1 "sim including advise (against the flow) fails" bash "$CHECK" "$T/tree"
expect_contains "$ERR" "module sim may not include advise/" "the arrow is named"

# the domain model apart from the recommend step: the steps that only
# use the model (ddl plans from struct rec_doc) may not reach recommend/,
# nor may the model itself
for f in ddl/plan.c collect/collect.h model/names.c; do
    copy
    printf '#include "recommend/recommend.h"\n' >>"$T/tree/$f"
    expect_rc 1 "$f including recommend fails" bash "$CHECK" "$T/tree"
    expect_contains "$ERR" "module ${f%%/*} may not include recommend/" "the arrow is named"
done

copy
mkdir -p "$T/tree/newmod"
printf '#include "core/core.h"\n' >"$T/tree/newmod/x.c"
expect_rc 1 "a module without a line fails" bash "$CHECK" "$T/tree"
expect_contains "$ERR" "module newmod has no line" "the module is named"
finish
