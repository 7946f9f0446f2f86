#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# test_hostile_input.sh — hostile input and hard stops, round three (issue
# 30, points 3-10): text traces never read as binary; one size limit for
# documents read whole; completion that evaluates nothing; leftovers of
# SIGKILLed runs reclaimed; exit 0 once the outputs are committed; options
# that repeat or contradict refused; the small ones (BOMs, 1000.0, live_rows,
# 0x10, readable ranges, long arguments cut, ddl --out-dir after an error).
. "$(dirname "$0")/lib.sh"
SRC=${PT_SOURCE_DIR:?}
EX=$SRC/examples
export TMPDIR=$T/tmp
mkdir -p "$TMPDIR"

# ---- 3. trace format by content ------------------------------------------
# a text trace whose size is a multiple of 24 bytes was replayed as garbage
# binary records with exit 0
pad24() { # FILE: append '#' comment bytes until the size is a multiple of 24
    local n
    n=$(stat -c %s "$1")
    while [ $((n % 24)) -ne 0 ]; do printf '#' >>"$1"; n=$((n + 1)); done
}
printf 'time_ms,op,key,si\0e\n1,get,a,10\n' >"$T/nul.csv"
pad24 "$T/nul.csv"
expect_rc 65 "a .csv with a NUL in line 1" "$PAGETUNE" simulate --trace "$T/nul.csv" --app-cache 10
expect_one_line_error "NUL in line 1"
expect_contains "$ERR" "nul.csv:1:" "NUL in line 1 names FILE:LINE"
cp "$T/nul.csv" "$T/nul.trace" # the same bytes without the .csv name
expect_rc 65 "a NUL in a text line 1, any name" "$PAGETUNE" simulate --trace "$T/nul.trace" --app-cache 10
expect_contains "$ERR" "nul.trace:1:" "NUL in line 1 (by content) names FILE:LINE"
# a name ending in .csv is text whatever it holds
head -c 48 /dev/zero >"$T/zeros.csv"
expect_rc 65 "a .csv of NULs" "$PAGETUNE" simulate --trace "$T/zeros.csv" --app-cache 10
expect_contains "$ERR" "zeros.csv:1:" ".csv of NULs names FILE:LINE"
: >"$T/empty.csv"
expect_rc 0 "an empty .csv is an empty trace" "$PAGETUNE" simulate --trace "$T/empty.csv" --app-cache 10
# UTF-16, with and without a BOM
printf 'time_ms,op,key,size\n1,get,a,10\n2,get,b,20\n3,get,a,10\n' >"$T/ok.csv"
iconv -f UTF-8 -t UTF-16 "$T/ok.csv" >"$T/u16.csv"
expect_rc 65 "UTF-16 with a BOM" "$PAGETUNE" simulate --trace "$T/u16.csv" --app-cache 10
expect_one_line_error "UTF-16"
expect_contains "$ERR" "u16.csv:1: UTF-16" "UTF-16 named"
iconv -f UTF-8 -t UTF-16LE "$T/ok.csv" >"$T/u16le.trace"
expect_rc 65 "UTF-16LE without a BOM" "$PAGETUNE" simulate --trace "$T/u16le.trace" --app-cache 10
expect_contains "$ERR" "u16le.trace:1: UTF-16" "UTF-16LE named"
# CR-only line ends
tr '\n' '\r' <"$T/ok.csv" >"$T/cr.trace"
pad24 "$T/cr.trace"
expect_rc 65 "CR-only line ends" "$PAGETUNE" simulate --trace "$T/cr.trace" --app-cache 10
expect_contains "$ERR" "cr.trace:1: lines end in CR" "CR-only named"
# CR LF still works, and a UTF-8 BOM
sed 's/$/\r/' "$T/ok.csv" >"$T/crlf.trace"
expect_rc 0 "CR LF" "$PAGETUNE" simulate --trace "$T/crlf.trace" --app-cache 10 --json
expect_eq "$(echo "$OUT" | jq '.results[0].app.gets')" 3 "CR LF gets"
# binary oracleGeneral records still are binary: the reference trace's
# generator, and records with Unix times that start with FF FE
python3 "$SRC/bench/gen_zipf_trace.py" --n-req 3000 --n-obj 1000 \
    --out "$T/ref" --formats oracle >/dev/null || fail "gen_zipf_trace.py"
expect_rc 0 "the reference binary trace" "$PAGETUNE" simulate --trace "$T/ref.oracleGeneral.bin" --app-cache 10 --json
expect_eq "$(echo "$OUT" | jq '.results[0].app.gets')" 3000 "reference trace gets"
python3 - "$T/ffe.bin" <<'PY'
import struct, sys
with open(sys.argv[1], "wb") as f:
    for i in range(100):
        f.write(struct.pack("<IQIq", 0x6553feff + i, 44 + i % 7, 4096, -1))
PY
expect_rc 0 "binary records starting FF FE" "$PAGETUNE" simulate --trace "$T/ffe.bin" --app-cache 10 --json
expect_eq "$(echo "$OUT" | jq '.results[0].app.gets')" 100 "FF FE records gets"

# ---- 4. documents read whole share one limit -----------------------------
# an unbounded reader must not take the machine down with it (ASan reserves
# address space by terabytes: no ulimit there)
capped='ulimit -v 4194304;'
ldd "$PAGETUNE" 2>/dev/null | grep -q libasan && capped=
for c in "recommend --sizes /dev/zero" "recommend --sizes $EX/sessions-mixed.txt --device /dev/zero" \
    "simulate --trace $T/ok.csv --app-cache 10 --clients 1 --calibration /dev/zero" \
    "calibrate --points $T/ok.csv --simulation /dev/zero" \
    "ddl --recommendation /dev/zero"; do
    # shellcheck disable=SC2086 # the words of c are the arguments
    expect_rc 65 "$c" bash -c "$capped"' exec timeout -k 1 30 "$@"' _ "$PAGETUNE" $c
    expect_contains "$ERR" "'/dev/zero' is larger than 64M" "$c: the limit named"
    expect_contains "$ERR" "PAGETUNE_MAX_INPUT" "$c: how to raise it"
done
seq 1000 1 200000 >"$T/sizes.txt" # 1.2 MB
expect_rc 65 "a sizes list over PAGETUNE_MAX_INPUT" env PAGETUNE_MAX_INPUT=1M "$PAGETUNE" recommend --sizes "$T/sizes.txt"
expect_contains "$ERR" "sizes.txt' is larger than 1M" "1M limit"
expect_rc 0 "the same under a raised limit" env PAGETUNE_MAX_INPUT=2M "$PAGETUNE" recommend --sizes "$T/sizes.txt"
expect_rc 64 "PAGETUNE_MAX_INPUT not a size" env PAGETUNE_MAX_INPUT=lots "$PAGETUNE" recommend --sizes "$T/sizes.txt"
# a streamed trace is not limited
expect_rc 0 "a trace over the limit streams" env PAGETUNE_MAX_INPUT=16 "$PAGETUNE" simulate --trace "$T/ok.csv" --app-cache 10

# ---- 5. completion evaluates nothing -------------------------------------
mkdir -p "$T/data/profiles/devices" "$T/cwd"
cp "$SRC/profiles/devices/"*.yaml "$T/data/profiles/devices/"
# shellcheck disable=SC2016 # the name is the attack, literally
evil='$(touch${IFS}pwned).yaml'
cp "$SRC/profiles/devices/ssd.yaml" "$T/data/profiles/devices/$evil"
expect_rc 0 "__complete @device" env PAGETUNE_DATA_DIR="$T/data" "$PAGETUNE" __complete @device
expect_contains "$OUT" '$(touch${IFS}pwned)' "the hostile name is listed (as data)"
got=$(cd "$T/cwd" && PAGETUNE_DATA_DIR="$T/data" bash -c '. "$1"; shift
    COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _pagetune
    printf "%s\n" "${COMPREPLY[@]}"' _ "$SRC/completion/pagetune.bash" \
    "$PAGETUNE" recommend --device '')
[ -e "$T/cwd/pwned" ] && fail "completion ran a command from a profile name" || pass
expect_contains "$got" '\$\(touch\$\{IFS\}pwned\)' "the name is offered quoted"
expect_contains "$got" "ssd" "the other profiles are offered"
# a file name and a DSN are data too
: >"$T/cwd/\$(touch pwned2).json"
got=$(cd "$T/cwd" && bash -c '. "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
    _pagetune; printf "%s\n" "${COMPREPLY[@]}"' _ "$SRC/completion/pagetune.bash" \
    "$PAGETUNE" recommend --sizes '$')
[ -e "$T/cwd/pwned2" ] && fail "completion ran a command from a file name" || pass
expect_contains "$got" 'pwned2' "the file is offered"
printf '[$(touch pwned3)]\nDriver = x\n' >"$T/odbc.ini"
(cd "$T/cwd" && ODBCINI=$T/odbc.ini ODBCSYSINI=$T/none bash -c '. "$1"; shift
    COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _pagetune' _ \
    "$SRC/completion/pagetune.bash" "$PAGETUNE" sample --dsn '')
[ -e "$T/cwd/pwned3" ] && fail "completion ran a command from a DSN" || pass

# ---- 9. repeated and contradicting options -------------------------------
expect_rc 64 "--memory twice" "$PAGETUNE" recommend --sizes "$T/sizes.txt" --memory 64M --memory 128M
expect_one_line_error "--memory twice"
expect_contains "$ERR" "--memory given twice, '64M' and '128M'" "both values named"
expect_rc 64 "--sizes twice" "$PAGETUNE" recommend --sizes a --sizes b
expect_rc 64 "--json --format table" "$PAGETUNE" recommend --sizes "$T/sizes.txt" --json --format table
expect_contains "$ERR" "--json conflicts with --format 'table'" "--json and --format named"
expect_rc 64 "--format table --json" "$PAGETUNE" recommend --sizes "$T/sizes.txt" --format table --json
expect_rc 64 "-o a -o b" "$PAGETUNE" recommend --sizes "$T/sizes.txt" -o "$T/a" -o "$T/b"
expect_contains "$ERR" "--output given twice, '$T/a' and '$T/b'" "-o named"
[ -e "$T/a" ] || [ -e "$T/b" ] && fail "-o twice wrote a file" || pass
expect_rc 64 "--lob-io twice" "$PAGETUNE" replay --trace "$T/ok.csv" --lob-io direct --lob-io cached
expect_rc 0 "a flag twice says it twice" "$PAGETUNE" recommend --sizes "$T/sizes.txt" --json --json -q -q
expect_rc 0 "calibrate --help" "$PAGETUNE" calibrate --help
expect_contains "$OUT" "repeatable" "a list option says it repeats"

# ---- 10. the small ones --------------------------------------------------
printf '\xef\xbb\xbf1000\n2000\n' >"$T/bom.txt"
expect_rc 0 "a BOM before a size list" "$PAGETUNE" recommend --sizes "$T/bom.txt"
{ printf '\xef\xbb\xbf'; cat "$EX/sessions-mixed.json"; } >"$T/bom.json"
expect_rc 0 "sizes.json with a BOM" "$PAGETUNE" recommend --sizes "$T/bom.json" --json
expect_eq "$(echo "$OUT" | jq '.inputs.sizes.count')" 2000 "a BOM changes nothing"
python3 - "$EX/sessions-mixed.json" "$T/real.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
text = json.dumps(d, indent=2)
v = d["values"]
text = text.replace('"values": [\n    %d,' % v[0], '"values": [\n    %d.0,' % v[0], 1)
open(sys.argv[2], "w").write(text)
PY
grep -q '\.0,' "$T/real.json" || fail "the fixture has no 1000.0"
expect_rc 0 "1000.0 in values" "$PAGETUNE" recommend --sizes "$T/real.json"
sed 's/^{/{"live_rows": {"value": 9223372036854775807, "source": "sample"},/' "$EX/sessions-mixed.json" >"$T/lr.json"
expect_rc 65 "live_rows 2^63-1" "$PAGETUNE" recommend --sizes "$T/lr.json"
expect_contains "$ERR" "live_rows" "live_rows named"
sed 's/^\(overhead_ms:\).*/\1 0x10/' "$SRC/profiles/devices/ssd.yaml" >"$T/hex.yaml"
grep -q 'overhead_ms: 0x10' "$T/hex.yaml" || fail "the fixture has no 0x10"
expect_rc 65 "overhead_ms: 0x10" "$PAGETUNE" recommend --sizes "$T/sizes.txt" --device "$T/hex.yaml"
expect_contains "$ERR" "hex.yaml" "0x10: the file named"
echo 9007199254740993 >"$T/huge.txt"
expect_rc 65 "a size past the limit" "$PAGETUNE" recommend --sizes "$T/huge.txt"
case $ERR in *e+*) fail "a range printed with an exponent: $ERR" ;; *) pass ;; esac
long=$(head -c 120000 /dev/zero | tr '\0' a)
expect_rc 64 "a 120 KB argument" "$PAGETUNE" recommend --memory "$long"
expect_one_line_error "120 KB argument"
[ "${#ERR}" -lt 1024 ] && pass || fail "a 120 KB argument echoed whole (${#ERR} bytes)"
expect_contains "$ERR" "aaa...'" "cut with an ellipsis"
expect_rc 66 "a 120 KB file name" "$PAGETUNE" recommend --sizes "$long"
[ "${#ERR}" -lt 1024 ] && pass || fail "a 120 KB path echoed whole (${#ERR} bytes)"
# ddl --out-dir: nothing left after an error
expect_rc 74 "ddl --out-dir on a full file system" bash -c 'ulimit -f 0; exec "$@"' _ \
    "$PAGETUNE" ddl --page-size 16K --out-dir "$T/ddl-out"
[ -e "$T/ddl-out" ] && fail "ddl --out-dir left a directory after an error" || pass

# ---- 6. SIGKILLed runs leave nothing the next run does not reclaim --------
# (issue 30 asks 200 random kills: run by hand with PT_KILLS=200)
W=$T/w
mkdir -p "$W"
kills=${PT_KILLS:-5}
for i in $(seq "$kills"); do
    "$PAGETUNE" advise --demo --validate sim --out-dir "$W/out" --force --quiet >/dev/null 2>&1 &
    pid=$!
    # spread the kills over the run: the scratch, the store, the staging
    sleep "$(awk -v i="$i" -v n="$kills" -v s="$RANDOM" 'BEGIN { srand(s); print (i <= 5 ? i * i * 0.4 : rand() * 12) }')"
    kill -KILL "$pid" 2>/dev/null
    wait "$pid" 2>/dev/null
done
left=$(ls -A "$TMPDIR" | wc -l; ls -A "$W" | grep -c pagetune)
echo "after $kills SIGKILLs: $(ls -A "$TMPDIR" | wc -l) entries in TMPDIR, $(ls -A "$W" | grep -c pagetune) beside the out-dir" >&2
# only marked directories whose lock is free go: not one without a lock
# file, not one whose lock is held
mkdir "$TMPDIR/pagetune-advise.UNMARK" "$TMPDIR/pagetune-advise.HELDXX" \
    "$TMPDIR/pagetune-advise.FREEXX" "$W/.out.pagetune.FREEXX" "$W/.out.pagetune.FREEXX.old"
: >"$TMPDIR/pagetune-advise.HELDXX.lock"
: >"$TMPDIR/pagetune-advise.FREEXX.lock"
: >"$W/.out.pagetune.FREEXX.lock"
# one process holds the lock (flock(1) would leave its sleep behind)
python3 -c 'import fcntl, sys, time
f = open(sys.argv[1], "a"); fcntl.flock(f, fcntl.LOCK_EX); time.sleep(600)' \
    "$TMPDIR/pagetune-advise.HELDXX.lock" >/dev/null 2>&1 &
holder=$!
while flock -n "$TMPDIR/pagetune-advise.HELDXX.lock" true; do sleep 0.05; done
expect_rc 0 "a normal run after the kills" "$PAGETUNE" advise --demo --validate sim --out-dir "$W/out" --force --quiet
kill "$holder"
wait "$holder" 2>/dev/null
expect_eq "$(LC_ALL=C ls -A "$TMPDIR" | tr '\n' ' ')" \
    "pagetune-advise.HELDXX pagetune-advise.HELDXX.lock pagetune-advise.UNMARK " \
    "no free marked directory left in TMPDIR, the others kept"
expect_eq "$(ls -A "$W" | grep pagetune)" "" "no staging directory left beside the out-dir"
rm -rf "$TMPDIR"/pagetune-advise.*
: "$left"

# ---- 7. a signal after the commit: exit 0, the signal named ---------------
# standard output is a full pipe, so advise blocks writing its summary after
# the out-dir is in place; SIGTERM then arrives after the commit
rc=$(python3 - "$PAGETUNE" "$W/late" "$T/late.err" <<'PY'
import fcntl, os, signal, subprocess, sys, time
pt, out, errf = sys.argv[1:4]
r, w = os.pipe()
fl = fcntl.fcntl(w, fcntl.F_GETFL)
fcntl.fcntl(w, fcntl.F_SETFL, fl | os.O_NONBLOCK)
for chunk in (4096, 1):
    try:
        while True:
            os.write(w, b"x" * chunk)
    except BlockingIOError:
        pass
fcntl.fcntl(w, fcntl.F_SETFL, fl)
with open(errf, "wb") as e:
    p = subprocess.Popen([pt, "advise", "--demo", "--validate", "sim",
                          "--out-dir", out, "--quiet"], stdout=w, stderr=e)
os.close(w)
deadline = time.monotonic() + 300  # a hang guard, not a measurement
while p.poll() is None and not os.path.exists(os.path.join(out, "report.html")):
    if time.monotonic() > deadline:
        p.kill()
        sys.exit("advise never committed")
    time.sleep(0.05)
time.sleep(0.5)
p.send_signal(signal.SIGTERM)
while os.read(r, 65536):
    pass
print(p.wait())
PY
)
expect_eq "$rc" 0 "a signal after the commit: exit 0"
expect_contains "$(cat "$T/late.err")" "SIGTERM arrived after the outputs were committed" \
    "the late signal is named"
[ -s "$W/late/report.html" ] && pass || fail "the committed out-dir is in place"
finish
