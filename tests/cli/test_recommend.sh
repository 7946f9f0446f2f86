#!/usr/bin/env bash
# test_recommend.sh — `pagetune recommend` run as a DBA would: the founding
# article's inflection points, the inline target, the shipped example in
# both sizes formats, --memory, monitor evidence, output formats, and every
# bad input with its exit code and one-line message.
. "$(dirname "$0")/lib.sh"
EX=${PT_SOURCE_DIR:?}/examples
# the phrases below are matched within one line: a table as wide as its
# longest reason (a pipe is 80 columns wide; test_width.sh tests that)
export COLUMNS=1000

sizes() { # FILE SIZE COUNT
    : >"$1"
    for _ in $(seq "$3"); do echo "$2" >>"$1"; done
}

# -- the inflection points: 2000/4000/10000/30000 bytes -> 4K/8K/16K/32K
for pair in 2000:4K 4000:8K 10000:16K 30000:32K; do
    s=${pair%%:*} want=${pair##*:}
    sizes "$T/s$s.txt" "$s" 50
    expect_rc 0 "recommend $s" "$PAGETUNE" recommend --engine db2 --sizes "$T/s$s.txt"
    expect_contains "$OUT" "page size                $want (chosen by the inline rule)" "$s bytes -> $want"
    for c in 4K 8K 16K 32K; do
        expect_contains "$OUT" "- $c: inline " "$s: reasons cover $c"
    done
    expect_contains "$OUT" "rows/page, page" "$s: rows per page in reasons"
    expect_contains "$OUT" "fill" "$s: page fill in reasons"
    expect_contains "$OUT" "equal buffer-pool" "$s: equal memory stated"
done
expect_rc 0 "json" "$PAGETUNE" recommend --sizes "$T/s10000.txt" --json
expect_contains "$OUT" '"schema_version": 1' "json schema_version"
expect_contains "$OUT" '"page_size": 16384' "json page_size"
for k in candidates bufferpool tablespace extent_size prefetch_size overhead \
    transfer_rate reasons inputs inline_fraction rows_per_page io_ms_per_access; do
    expect_contains "$OUT" "\"$k\"" "json has $k"
done
expect_contains "$OUT" '"transfer_rate": 0.032' "TRANSFERRATE for 16K on ssd (500 MB/s)"

# -- a distribution that crosses the target only at a larger page
{ for _ in $(seq 93); do echo 2000; done
  for _ in $(seq 3); do echo 6000; done
  for _ in $(seq 4); do echo 12000; done; } >"$T/cross.txt"
expect_rc 0 "crossing" "$PAGETUNE" recommend --sizes "$T/cross.txt"
expect_contains "$OUT" "page size                8K" "93/96/100 % -> 8K at 0.95"
expect_contains "$OUT" "4K: only 93.0%" "reason names the smaller page's share"
expect_rc 0 "crossing 0.97" "$PAGETUNE" recommend --sizes "$T/cross.txt" --inline-target 0.97
expect_contains "$OUT" "page size                16K" "-> 16K at 0.97"
expect_rc 0 "crossing 0.9" "$PAGETUNE" recommend --sizes "$T/cross.txt" --inline-target 0.9
expect_contains "$OUT" "page size                4K" "-> 4K at 0.90"

# -- the shipped example, as plain list and as sizes JSON: same answer
expect_rc 0 "example txt" "$PAGETUNE" recommend --sizes "$EX/sessions-mixed.txt"
txt=$OUT
expect_contains "$txt" "page size                8K" "example -> 8K"
expect_rc 0 "example json" "$PAGETUNE" recommend --sizes "$EX/sessions-mixed.json"
expect_eq "$OUT" "$txt" "JSON and text sizes give the same report"
expect_rc 0 "example csv" "$PAGETUNE" recommend --sizes "$EX/sessions-mixed.txt" --format csv
expect_contains "$OUT" "page_size_bytes,inline_fraction,rows_per_page" "csv header: machine names"
expect_eq "$(printf '%s\n' "$OUT" | wc -l)" 5 "csv: header + 4 candidates"

# -- --memory sizes the pool, and a tight budget can move the page size
expect_rc 0 "memory" "$PAGETUNE" recommend --sizes "$EX/sessions-mixed.txt" --memory 64M
expect_contains "$OUT" "SESSBP8K: 8,192 pages of 8K (64M)" "64M = 8192 x 8K pages"
expect_contains "$OUT" "64M = 16384 x 4K, 8192 x 8K, 4096 x 16K" "equal bytes per candidate"
sizes "$T/s2000b.txt" 2000 100
expect_rc 0 "ample" "$PAGETUNE" recommend --sizes "$T/s2000b.txt" --memory 1G --sessions 100000 --device hdd
expect_contains "$OUT" "page size                4K" "ample memory keeps 4K"
expect_rc 0 "tight" "$PAGETUNE" recommend --sizes "$T/s2000b.txt" --memory 64M --sessions 100000 --device hdd
expect_contains "$OUT" "(chosen by the cost model)" "tight memory: cost model decides"
case "$OUT" in *"page size                4K"*) fail "tight memory should move off 4K" ;; *) pass ;; esac
expect_contains "$OUT" "ms of I/O per access" "reason quantifies the override"

# -- monitor evidence
cat >"$T/mon.json" <<'JSON'
{"schema_version":1,"engine":"db2",
 "current":{"page_size":4096,"bufferpool_pages":1000,"bufferpool_bytes":4096000},
 "summary":{"hit_ratio":62.5,"logical_reads":8000,"physical_reads":3000,
            "direct_reads":2400,"direct_read_share":0.23}}
JSON
expect_rc 0 "monitor" "$PAGETUNE" recommend --sizes "$EX/sessions-mixed.txt" --monitor "$T/mon.json"
expect_contains "$OUT" "monitor: current 4K pages, 1000 pool pages, hit ratio 62.5%" "monitor figures in reasons"
expect_contains "$OUT" "one row per size given: no row count" "sessions counted, never inferred from the hit ratio"
case "$OUT" in *inferred*) fail "rows inferred from the hit ratio" ;; *) pass ;; esac
expect_contains "$OUT" "equal buffer-pool memory 3.9M" "the current pool's bytes are the budget"
sed 's/"db2"/"postgresql"/' "$T/mon.json" >"$T/mon-pg.json"
expect_rc 0 "monitor other engine" "$PAGETUNE" recommend --sizes "$EX/sessions-mixed.txt" --monitor "$T/mon-pg.json"
expect_contains "$OUT" "counters from engine postgresql" "foreign monitor named in reasons"
expect_contains "$OUT" "(default budget; set --memory)" "foreign monitor does not set the budget"
expect_contains "$ERR" "not used for a db2 recommendation" "foreign monitor noted on stderr"
echo '{"schema_version":1,"current":{}}' >"$T/mon-bad.json"
expect_rc 65 "monitor malformed" "$PAGETUNE" recommend --sizes "$T/s2000.txt" --monitor "$T/mon-bad.json"
expect_contains "$ERR" "mon-bad.json" "monitor error names the file"

# -- bad input: exit codes and one clear line
expect_rc 66 "missing sizes" "$PAGETUNE" recommend --sizes "$T/nope.txt"
expect_one_line_error "missing sizes"
expect_contains "$ERR" "nope.txt" "missing file named"
printf '100\n200\nabc\n' >"$T/bad1.txt"
expect_rc 65 "non-numeric" "$PAGETUNE" recommend --sizes "$T/bad1.txt"
expect_one_line_error "non-numeric"
expect_contains "$ERR" "bad1.txt:3:" "non-numeric names file:line"
printf '# c\n100\n-5\n' >"$T/bad2.txt"
expect_rc 65 "negative" "$PAGETUNE" recommend --sizes "$T/bad2.txt"
expect_contains "$ERR" "bad2.txt:3:" "negative names file:line"
printf '100\n\n200\n' >"$T/bad3.txt"
expect_rc 65 "empty line" "$PAGETUNE" recommend --sizes "$T/bad3.txt"
expect_contains "$ERR" "bad3.txt:2:" "empty line names file:line"
: >"$T/empty.txt"
expect_rc 65 "empty file" "$PAGETUNE" recommend --sizes "$T/empty.txt"
expect_contains "$ERR" "empty.txt" "empty file named"
printf '{"schema_version":1,"values":[1,"x"]}' >"$T/bad.json"
expect_rc 65 "bad sizes json" "$PAGETUNE" recommend --sizes "$T/bad.json"
printf '{"values":[1,2' >"$T/trunc.json"
expect_rc 65 "truncated json" "$PAGETUNE" recommend --sizes "$T/trunc.json"
expect_rc 64 "unknown option" "$PAGETUNE" recommend --sizes "$T/s2000.txt" --frobnicate
expect_one_line_error "unknown option"
expect_rc 64 "no sizes" "$PAGETUNE" recommend
expect_rc 64 "bad target" "$PAGETUNE" recommend --sizes "$T/s2000.txt" --inline-target 1.5
expect_rc 64 "bad memory" "$PAGETUNE" recommend --sizes "$T/s2000.txt" --memory lots
expect_rc 64 "unknown device" "$PAGETUNE" recommend --sizes "$T/s2000.txt" --device floppy
expect_rc 74 "full device" "$PAGETUNE" recommend --sizes "$T/s2000.txt" -o /dev/full
expect_one_line_error "full device"
echo "old content" >"$T/out.json"
expect_rc 73 "exists" "$PAGETUNE" recommend --sizes "$T/s2000.txt" --json -o "$T/out.json"
expect_one_line_error "exists"
expect_eq "$(cat "$T/out.json")" "old content" "existing output untouched"
expect_rc 0 "force" "$PAGETUNE" recommend --sizes "$T/s2000.txt" --json -o "$T/out.json" --force
expect_contains "$(cat "$T/out.json")" '"page_size": 4096' "--force overwrote"
expect_eq "$(ls "$T" | grep -c '\.tmp')" 0 "no temporary files left"

# -- trace evidence: sizes and popularity from a pagetune-trace(5) CSV
{ echo "time_ms,op,key,size"
  for i in $(seq 200); do echo "$i,set,s$i,4000"; done
  for r in $(seq 5); do for i in $(seq 10); do echo "$((1000 + r * 10 + i)),get,s$i,4000"; done; done
} >"$T/trace.csv"
expect_rc 0 "trace" "$PAGETUNE" recommend --trace "$T/trace.csv" --json
expect_contains "$OUT" '"page_size": 8192' "trace of 4000-byte sessions -> 8K"
expect_contains "$OUT" '"keys": 200' "trace keys counted"
expect_contains "$OUT" '"gets": 50' "trace gets counted"
expect_contains "$OUT" "distinct keys in the trace" "sessions from the trace"
printf 'time_ms,op,key,size\n1,get,a,notanumber\n' >"$T/badtrace.csv"
expect_rc 65 "bad trace" "$PAGETUNE" recommend --trace "$T/badtrace.csv"
expect_one_line_error "bad trace"

# -- help lists every option with its default
expect_rc 0 "help" "$PAGETUNE" recommend --help
for o in --sizes --monitor --trace --engine --device --profile --memory \
    --inline-target --sessions --output --format --json --force; do
    expect_contains "$OUT" "$o" "help lists $o"
done
expect_contains "$OUT" "(default: 0.95)" "help shows the target default"
# buffer-pool size: with only the default budget, DB2's dedicated pool holds
# the table with 25 % headroom (at least 1000 pages); --memory sets it to
# the budget. Redo the arithmetic from the document itself.
run "$PAGETUNE" recommend --sizes "$EX/sessions-mixed.txt" --json
check_pool() {
    python3 -c '
import json, math, sys
d = json.loads(sys.stdin.read())
ch = [c for c in d["candidates"] if c["page_size"] == d["page_size"]][0]
want = max(1000, math.ceil(ch["data_pages"] * 1.25))
want = min(want, ch["bufferpool_pages"])
got = d["bufferpool"]["pages"]
sys.exit(0 if got == int(sys.argv[1] or want) else 1)' "$1"
}
echo "$OUT" | check_pool "" && pass || fail "default pool is not the table plus headroom: $OUT"
for sz in 30000 30000 30000; do echo $sz; done > "$T/big.txt"
run "$PAGETUNE" recommend --sizes "$T/big.txt" --json
echo "$OUT" | check_pool 1000 && pass || fail "a tiny table still gets DB2's default 1000 pages"
run "$PAGETUNE" recommend --sizes "$EX/sessions-mixed.txt" --memory 64M --json
echo "$OUT" | check_pool 8192 && pass || fail "--memory 64M sets the pool to the budget"
# -- --clients: current (4K, the smallest page) vs recommended (8K), the
# performance model over the simulated trace (seed 000's 4 KB servlet,
# warm: the hot rows fit the pool); the calibration's range
command -v jq >/dev/null && {
expect_rc 0 "article-4k trace" "$PAGETUNE" workload --profile article-4k --requests 20000 -o "$T/a4k.csv" -q
expect_rc 0 "--clients" "$PAGETUNE" recommend --trace "$T/a4k.csv" --clients 47 --calibration article-000 --json
expect_eq "$(echo "$OUT" | jq -c '.predicted | [.clients, .calibrated, .calibration, .current.page_size, .recommended.page_size]')" '[47,true,"article-000",4096,8192]' "predicted current vs recommended"
expect_eq "$(echo "$OUT" | jq '.predicted | (.recommended.req_per_s > .current.req_per_s) and (.change.req_per_s_pct > 0) and (.change.response_ms_pct < 0)')" true "8K predicted faster"
expect_eq "$(echo "$OUT" | jq '.predicted.current | .range.req_per_s[0] < .req_per_s and .req_per_s < .range.req_per_s[1]')" true "range around the figure"
expect_rc 0 "--clients table" "$PAGETUNE" recommend --trace "$T/a4k.csv" --clients 47 --calibration article-000
expect_contains "$OUT" "req/s" "table states the predicted change"
expect_contains "$OUT" "% response time" "table states the response change"
}
expect_rc 64 "--clients needs --trace" "$PAGETUNE" recommend --sizes "$T/big.txt" --clients 4
expect_one_line_error "--clients needs --trace"
expect_rc 64 "--calibration needs --clients" "$PAGETUNE" recommend --trace "$T/trace.csv" --calibration article-000
# ---- PostgreSQL's members of sizes.json, hand-edited wrong (issue 23) ----
# the model reads the pglz trial, the columns' bytes and the fillfactor:
# a wrong one is one line naming the file and the member, exit 65, never
# a silent default
bad_pg() { # DESC JSON-MEMBERS NEEDLE
    printf '{"schema_version":1,"values":[1000,3000]%s}\n' "$2" >"$T/pgbad.json"
    expect_rc 65 "$1" "$PAGETUNE" recommend --engine postgresql \
        --sizes "$T/pgbad.json" --memory 64M -o "$T/pgbad.out"
    expect_one_line_error "$1"
    expect_contains "$ERR" "$T/pgbad.json: $3" "$1 names the member"
    [ ! -e "$T/pgbad.out" ] && pass || fail "$1: an output was written"
}
bad_pg "compression not an object" ',"compression":[]' "compression is not an object"
bad_pg "compression.values a string" ',"compression":{"values":"x"}' "compression.values"
bad_pg "compressible_share 1.5" ',"compression":{"values":3,"compressible_share":1.5}' "compression.compressible_share"
bad_pg "pglz_fit.per_byte a string" ',"compression":{"values":3,"pglz_fit":{"per_byte":"a"}}' "compression.pglz_fit.per_byte"
bad_pg "column_bytes negative" ',"column_bytes":{"a":-4}' "column_bytes.a"
bad_pg "rows_multi_column a string" ',"rows_multi_column":"yes"' "rows_multi_column"
printf '{"schema_version":1,"values":[1000,3000],"compression":{"values":3,"compressible_share":0.9,"compressible_raw_bytes":3000,"pglz_bytes":300}}\n' >"$T/pgok.json"
expect_rc 0 "a well-formed trial" "$PAGETUNE" recommend --engine postgresql \
    --sizes "$T/pgok.json" --memory 64M -q -o "$T/pgok.out"
for ff in 5 101; do
    printf '{"current":{"fillfactor":{"value":%s,"source":"server"}}}\n' "$ff" >"$T/ff.json"
    expect_rc 65 "fillfactor $ff" "$PAGETUNE" recommend --engine postgresql \
        --sizes "$T/pgok.json" --current "$T/ff.json" --memory 64M -o "$T/ff.out"
    expect_one_line_error "fillfactor $ff"
    expect_contains "$ERR" "$T/ff.json: the table's fillfactor $ff is outside 10..100" "fillfactor $ff named"
done
printf '{"current":{"fillfactor":{"value":10,"source":"server"}}}\n' >"$T/ff.json"
expect_rc 0 "fillfactor 10 (the least)" "$PAGETUNE" recommend --engine postgresql \
    --sizes "$T/pgok.json" --current "$T/ff.json" --memory 64M -q -o "$T/ff.out"
finish
