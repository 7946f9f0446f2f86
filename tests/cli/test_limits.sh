#!/usr/bin/env bash
# test_limits.sh — numbers are range-checked at the border of every reader
# with one table of limits (model/limits.c), so whatever `recommend`
# writes `ddl` accepts: --memory's range, the extremes of it through ddl of
# every dialect, recommendation fields out of range (page_size 0, negative
# transfer_rate), sizes beyond 2^53, an engine profile whose byte counts
# would wrap, and a histogram of 10^12 objects (weighted, not expanded).
. "$(dirname "$0")/lib.sh"
EX=${PT_SOURCE_DIR:?}/examples
PROF=${PT_SOURCE_DIR}/profiles/engines

# -- --memory: within 5M..512G, else 64 with one line
expect_rc 64 "memory 2^64-1" "$PAGETUNE" recommend --sizes "$EX/sessions-mixed.txt" --memory 18446744073709551615
expect_one_line_error "memory 2^64-1"
expect_contains "$ERR" "--memory" "the option is named"
expect_rc 64 "memory above 512G" "$PAGETUNE" recommend --sizes "$EX/sessions-mixed.txt" --memory 513G
expect_rc 64 "memory below 5M" "$PAGETUNE" recommend --sizes "$EX/sessions-mixed.txt" --memory 64K

# -- whatever recommend writes at the extremes, ddl accepts (every dialect)
for e in db2 postgresql mysql oracle sqlite; do
    for m in 5M 512G; do
        expect_rc 0 "recommend $e $m" "$PAGETUNE" recommend -q --engine "$e" \
            --sizes "$EX/sessions-mixed.txt" --memory "$m" --json -o "$T/r-$e-$m.json"
        expect_rc 0 "ddl $e from --memory $m" "$PAGETUNE" ddl --dialect "$e" \
            --recommendation "$T/r-$e-$m.json" --out-dir "$T/d-$e-$m"
    done
done

# -- a recommendation's numbers: 65 naming the field, never a usage hint
base=$T/r-db2-5M.json
edit() { # FILE EXPR: python edit of the recommendation into FILE
    python3 -c "import json,sys; d=json.load(open('$base')); $2; json.dump(d, open('$1','w'))"
}
edit "$T/p0.json" "d['bufferpool']['page_size']=0; d['tablespace']['page_size']=0"
expect_rc 65 "page_size 0" "$PAGETUNE" ddl --recommendation "$T/p0.json" --out-dir "$T/x1"
expect_one_line_error "page_size 0"
expect_contains "$ERR" "tablespace.page_size 0" "page_size 0 named"
edit "$T/neg.json" "d['tablespace']['transfer_rate']=-0.5"
expect_rc 65 "negative transfer_rate" "$PAGETUNE" ddl --recommendation "$T/neg.json" --out-dir "$T/x2"
expect_contains "$ERR" "tablespace.transfer_rate -0.5" "transfer_rate named"
[ -e "$T/x2" ] && fail "nothing written for a bad recommendation" || pass
edit "$T/pool.json" "d['bufferpool']['pages']=2**40"
expect_rc 65 "pool pages" "$PAGETUNE" ddl --recommendation "$T/pool.json" --out-dir "$T/x3"
expect_contains "$ERR" "bufferpool.pages" "pool pages named"

# -- sizes beyond 2^53: refused at the reader, never written as -1
printf '100\n18446744073709551615\n' >"$T/big.txt"
expect_rc 65 "size 2^64-1" "$PAGETUNE" recommend --sizes "$T/big.txt" --json
expect_contains "$ERR" "big.txt:2" "file and line named"
printf '{"values":[100,9223372036854775807]}' >"$T/big.json"
expect_rc 65 "size 2^63-1 in JSON" "$PAGETUNE" recommend --sizes "$T/big.json"
expect_contains "$ERR" "values[1]" "JSON index named"

# -- an engine profile whose byte counts would wrap 32-bit row sizes
sed 's/^row_fixed_bytes:.*/row_fixed_bytes: 4294967295/' "$PROF/db2.yaml" >"$T/wrap.yaml"
grep -q '^row_fixed_bytes: 4294967295' "$T/wrap.yaml" || fail "profile edit"
expect_rc 65 "row_fixed_bytes 2^32-1" "$PAGETUNE" recommend --engine "$T/wrap.yaml" --sizes "$EX/sessions-mixed.txt"
expect_contains "$ERR" "row_fixed_bytes 4294967295" "field named"

# -- a histogram of 10^12 objects in 64 bins: weighted, so it just works
python3 -c "
import json
print(json.dumps({'histogram': [{'le': 1024 + i * 4096, 'count': 15625000000} for i in range(64)]}))" >"$T/h.json"
expect_rc 0 "10^12 objects" "$PAGETUNE" recommend --sizes "$T/h.json" --json -o "$T/h-rec.json"
expect_eq "$(python3 -c "import json; print(json.load(open('$T/h-rec.json'))['inputs']['sizes']['count'])")" \
    1000000000000 "count of objects"
finish
