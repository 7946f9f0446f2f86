#!/usr/bin/env bash
# test_replay_store_dir.sh — replay's --trace-format (as simulate's), an
# interrupted `replay --store-dir DIR --keep` that removes the stores it
# created so the next run does not stop at 73, and the lock on
# DIR/.pagetune.lock that stops a second replay on the same directory (73,
# naming the holder's pid) without touching the first one's files.
. "$(dirname "$0")/lib.sh"

printf 'time_ms,op,key,size\n1,set,a,3000\n2,get,a,0\n3,set,b,9000\n' >"$T/small.csv"
python3 -c '
import struct, sys
with open(sys.argv[1], "wb") as f:
    for i in range(200):
        f.write(struct.pack("<IQIq", i, i % 20, 3000 + i, -1))' "$T/small.bin"

# -- --trace-format: csv, oracle (binary), auto; anything else is 64
expect_rc 0 "csv as csv" "$PAGETUNE" replay -q --trace "$T/small.csv" --trace-format csv --page-size 4K
expect_rc 0 "oracle as oracle" "$PAGETUNE" replay -q --trace "$T/small.bin" --trace-format oracle --page-size 4K
expect_rc 0 "oracle as binary" "$PAGETUNE" replay -q --trace "$T/small.bin" --trace-format binary --page-size 4K
expect_rc 0 "auto" "$PAGETUNE" replay -q --trace "$T/small.bin" --trace-format auto --page-size 4K
expect_rc 65 "binary read as csv" "$PAGETUNE" replay -q --trace "$T/small.bin" --trace-format csv --page-size 4K
expect_one_line_error "binary read as csv"
expect_rc 64 "bad format" "$PAGETUNE" replay --trace "$T/small.csv" --trace-format xml
expect_contains "$ERR" "'xml'" "the value named"

# a trace long enough to interrupt (several seconds per page size)
awk 'BEGIN { print "time_ms,op,key,size"; srand(5)
    for (i = 0; i < 300000; i++) {
        k = int(rand() * 400); r = rand()
        printf "%d,%s,s%05d,%d\n", i, r < 0.3 ? "get" : "set", k, 3000 + int(rand() * 4000)
    }
}' >"$T/long.csv"

# wait_for FILE PID: until FILE is non-empty or PID ended (no time limit:
# the run ends by itself, however slow the machine); 0 if it is there
wait_for() {
    while [ ! -s "$1" ]; do
        kill -0 "$2" 2>/dev/null || return 1
        sleep 0.05
    done
}

# -- interrupted with --keep: the stores it created go, the next run works
D=$T/stores
mkdir "$D"
"$PAGETUNE" replay -q --trace "$T/long.csv" --page-size 4K,8K --store-dir "$D" \
    --keep >/dev/null 2>"$T/int.err" &
pid=$!
wait_for "$D/store-4K.db" "$pid" || fail "the first store was never created"
sleep 0.3
kill -INT "$pid"
wait "$pid"
expect_eq "$?" 130 "interrupted replay exits 130"
expect_eq "$(ls -A "$D")" "" "the interrupted run's stores and lock are gone"
expect_rc 0 "the next run on the same dir" "$PAGETUNE" replay -q --trace "$T/small.csv" \
    --page-size 4K --store-dir "$D" --keep
[ -f "$D/store-4K.db" ] && pass || fail "a completed --keep run keeps its store"
[ -e "$D/.pagetune.lock" ] && fail "the lock outlives the run" || pass

# -- the lock: a second replay on a busy dir is 73 with the holder's pid
L=$T/locked
"$PAGETUNE" replay -q --trace "$T/long.csv" --page-size 4K --store-dir "$L" \
    >/dev/null 2>"$T/first.err" &
pid=$!
if wait_for "$L/.pagetune.lock" "$pid"; then
    expect_eq "$(cat "$L/.pagetune.lock")" "$pid" "the lock holds the owner's pid"
    expect_rc 73 "second replay, same dir" "$PAGETUNE" replay -q --trace "$T/small.csv" \
        --page-size 4K --store-dir "$L" --force
    expect_one_line_error "second replay, same dir"
    expect_contains "$ERR" "pid $pid" "the holder named"
    [ -f "$L/store-4K.db" ] && pass || fail "--force of the second run removed the first one's store"
else
    fail "the first replay never took the lock: $(cat "$T/first.err")"
fi
kill -INT "$pid" 2>/dev/null
wait "$pid"
[ -e "$L" ] && fail "the first run's own dir stays after its interrupt" || pass
finish
