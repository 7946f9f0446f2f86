#!/usr/bin/env bash
# test_paths.sh — an input overwritten by an output (issue 21): every
# command resolves its input and output paths before it opens anything for
# writing and refuses a collision with exit 64 and one line naming both
# options, with or without --force: the same name, ./name, a symbolic or a
# hard link, an input inside advise's --out-dir (replaced as one unit), a
# ddl --out-dir file, a replay store file. The input stays byte-identical
# and no output appears; the runs without a collision still exit 0.
. "$(dirname "$0")/lib.sh"
EX=${PT_SOURCE_DIR:?}/examples
W=$T/w
mkdir "$W"
cd "$W" || exit 1

# refused DESC NEEDLE FILE CMD...: exit 64, one line naming NEEDLE, FILE
# byte-identical afterwards, and no new file in the working tree
refused() {
    local desc=$1 needle=$2 file=$3 before after
    shift 3
    cp -- "$file" "$T/copy"
    before=$(find "$W" | sort)
    expect_rc 64 "$desc" "$@"
    expect_one_line_error "$desc"
    expect_contains "$ERR" "$needle" "$desc: names the options"
    if cmp -s -- "$file" "$T/copy"; then pass; else fail "$desc: $file changed"; fi
    after=$(find "$W" | sort)
    expect_eq "$after" "$before" "$desc: no file created or removed"
}

# -- the inputs
cp "$EX/sessions-mixed.json" s.json
cat >m.json <<'JSON'
{"schema_version":1,"engine":"db2",
 "current":{"page_size":4096,"bufferpool_pages":1000,"bufferpool_bytes":4096000},
 "summary":{"hit_ratio":62.5,"logical_reads":8000,"physical_reads":3000,
            "direct_reads":2400,"direct_read_share":0.23}}
JSON
expect_rc 0 "workload" "$PAGETUNE" workload --profile article-4k --requests 2000 -o t.csv -q
expect_rc 0 "simulate" "$PAGETUNE" simulate --trace t.csv --page-size 4K,32K --bufferpool 250 --json -o sim.json -q
printf 'label,trace,page_size,clients,think_ms,req_per_s,response_ms\n' >p.csv
printf 'a,t.csv,4096,1,0,100,10\n' >>p.csv

# -- recommend
refused "recommend --sizes = -o --force" "-o and --sizes name the same file 's.json'" s.json \
    "$PAGETUNE" recommend --sizes s.json -o s.json --force
refused "recommend --sizes = -o" "-o and --sizes" s.json \
    "$PAGETUNE" recommend --sizes s.json -o s.json
refused "recommend ./s.json" "-o './s.json' and --sizes 's.json' name the same file" s.json \
    "$PAGETUNE" recommend --sizes s.json -o ./s.json --force
refused "recommend through the directory" "name the same file" s.json \
    "$PAGETUNE" recommend --sizes s.json -o "../w/s.json" --json --force
ln -s s.json link.json
ln s.json hard.json
refused "recommend symlink" "-o 'link.json' and --sizes 's.json'" s.json \
    "$PAGETUNE" recommend --sizes s.json -o link.json --force
refused "recommend hard link" "-o 'hard.json' and --sizes 's.json'" s.json \
    "$PAGETUNE" recommend --sizes s.json -o hard.json --force
rm link.json hard.json
refused "recommend --monitor = -o" "-o and --monitor name the same file 'm.json'" m.json \
    "$PAGETUNE" recommend --sizes s.json --monitor m.json -o m.json --force
refused "recommend --trace = -o" "-o and --trace" t.csv \
    "$PAGETUNE" recommend --trace t.csv -o t.csv --force
expect_rc 0 "recommend, distinct files" "$PAGETUNE" recommend --sizes s.json --monitor m.json -o rec.json -q
expect_rc 0 "recommend, stdin and stdout" "$PAGETUNE" recommend --sizes - -o - -q <s.json

# -- simulate
refused "simulate --trace = -o" "-o and --trace name the same file 't.csv'" t.csv \
    "$PAGETUNE" simulate --trace t.csv -o t.csv --force
refused "simulate --trace = --mrc-csv" "--mrc-csv and --trace" t.csv \
    "$PAGETUNE" simulate --trace t.csv --mrc --mrc-csv t.csv -o new.json --force
expect_rc 0 "simulate, distinct files" "$PAGETUNE" simulate --trace t.csv --page-size 4K --mrc --mrc-csv mrc.csv -o sim2.json -q

# -- calibrate
refused "calibrate --points = -o" "-o and --points name the same file 'p.csv'" p.csv \
    "$PAGETUNE" calibrate --points p.csv --simulation sim.json -o p.csv --force
refused "calibrate --simulation = -o" "-o and --simulation name the same file 'sim.json'" sim.json \
    "$PAGETUNE" calibrate --points p.csv --simulation sim2.json --simulation sim.json -o sim.json --force
cp "$PT_SOURCE_DIR/profiles/appservers/websphere-4.yaml" as.yaml
refused "calibrate --appserver = -o" "-o and --appserver" as.yaml \
    "$PAGETUNE" calibrate --points p.csv --simulation sim.json --appserver as.yaml -o as.yaml --force

# -- replay
refused "replay --ack-log = --trace" "--ack-log and --trace name the same file 't.csv'" t.csv \
    "$PAGETUNE" replay --trace t.csv --ack-log t.csv
refused "replay --ack-log = --trace --force" "--ack-log and --trace" t.csv \
    "$PAGETUNE" replay --trace t.csv --ack-log t.csv --force
mkdir st
cp t.csv st/store-4K.db
refused "replay store file = --trace" "--store-dir and --trace name the same file 'st/store-4K.db'" st/store-4K.db \
    "$PAGETUNE" replay --trace st/store-4K.db --store-dir st --page-size 4K --force
rm -r st
expect_rc 0 "replay, distinct files" "$PAGETUNE" replay --trace t.csv --page-size 4K,8K --rounds 1 --warmup-rounds 0 --ack-log ack.log -o rep.json -q
rm -f ack.log rep.json

# -- workload: its profile and the profile's size file
cp "$PT_SOURCE_DIR/profiles/workloads/article-4k.yaml" wl.yaml
refused "workload --profile = -o" "-o and --profile name the same file 'wl.yaml'" wl.yaml \
    "$PAGETUNE" workload --profile wl.yaml -o wl.yaml --force
printf '4000\n30000\n' >sz.txt
sed -e 's/^size:.*/size: {dist: empirical, file: sz.txt}/' -e '/^  dist: fixed/d' -e '/^  bytes:/d' wl.yaml >wl2.yaml
expect_rc 0 "workload, a size file" "$PAGETUNE" workload --profile wl2.yaml --requests 10 -o - -q
refused "workload size.file = -o" "-o and --profile's size.file" sz.txt \
    "$PAGETUNE" workload --profile wl2.yaml -o sz.txt --force

# -- ddl: --out-dir is written file by file, not replaced
mkdir X
cp rec.json X/recommendation.json
cp rec.json X/create.sql
refused "ddl --recommendation = DIR/create.sql" "--out-dir and --recommendation name the same file 'X/create.sql'" X/create.sql \
    "$PAGETUNE" ddl --recommendation X/create.sql --out-dir X --force
rm X/create.sql
cp rec.json X/rollback.sql
refused "ddl --recommendation = DIR/rollback.sql" "--recommendation" X/rollback.sql \
    "$PAGETUNE" ddl --recommendation X/rollback.sql --out-dir X/ --force
rm X/rollback.sql
refused "ddl --recommendation = -o" "-o and --recommendation" rec.json \
    "$PAGETUNE" ddl --recommendation rec.json -o rec.json --force
cp X/recommendation.json "$T/rec-copy"
expect_rc 0 "ddl, its recommendation inside --out-dir" "$PAGETUNE" ddl --recommendation X/recommendation.json --out-dir X -q
if cmp -s X/recommendation.json "$T/rec-copy"; then pass; else fail "ddl: the recommendation in --out-dir changed"; fi
[ -s X/create.sql ] && [ -s X/rollback.sql ] && pass || fail "ddl wrote both files"

# -- advise: --out-dir is replaced as one unit
mkdir A
cp wl.yaml A/w.yaml
refused "advise input inside --out-dir" "--workload 'A/w.yaml' lies inside --out-dir 'A'" A/w.yaml \
    "$PAGETUNE" advise --demo --workload A/w.yaml --out-dir A --force
ln -s A/w.yaml wl-link.yaml
refused "advise input linked into --out-dir" "lies inside --out-dir" A/w.yaml \
    "$PAGETUNE" advise --demo --workload wl-link.yaml --out-dir ./A/ --force
rm wl-link.yaml
printf 'secret\n' >A/pw
chmod 600 A/pw
refused "advise --password-file inside --out-dir" "--password-file 'A/pw' lies inside --out-dir 'A'" A/pw \
    "$PAGETUNE" advise --dsn NOSUCHDSN --password-file A/pw --out-dir A --force

# -- sample and monitor: the password file (refused before connecting)
printf 'secret\n' >pw
chmod 600 pw
refused "sample --password-file = -o" "-o and --password-file name the same file 'pw'" pw \
    "$PAGETUNE" sample --dsn NOSUCHDSN --password-file pw -o pw --force
refused "monitor --password-file = -o" "-o and --password-file" pw \
    "$PAGETUNE" monitor --dsn NOSUCHDSN --password-file pw -o pw --force

finish
