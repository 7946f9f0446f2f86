#!/usr/bin/env bash
# test_replay_kill.sh — SIGKILL in the middle of a replay leaves a store
# that opens, passes PRAGMA integrity_check and holds every write the replay
# acknowledged.
#
# Durability relied on: WAL with synchronous=NORMAL (replay's default). A
# commit returns only after its WAL frames were handed to the kernel with
# write(2); a killed process loses nothing the kernel holds, so every
# committed transaction survives a process crash at any synchronous level
# (https://www.sqlite.org/pragma.html#pragma_synchronous). NORMAL does not
# promise the same for power loss or an OS crash; --sync full does.
#
# With DB2's storage semantics (the default engine) most objects here
# (3000..6999 bytes, SMALL holds 3122 at 4K) live in the LOB area: a record
# is written (pwrite, handed to the kernel like the WAL frames) before the
# row that names it commits, and the store's own check (`replay --check`)
# must find every row's record whole and current.
#
# The acknowledgement log (--ack-log) gets a line for a set/del only after
# its commit returned. The replay passes over the trace several times
# (warm-up, rounds), so the log's order, not the index, says which
# acknowledgement is the last. For each session, the store must hold the effect of
# its last acknowledged write — or of its next write in the trace, which
# may have committed before the kill but not been logged yet.
. "$(dirname "$0")/lib.sh"

command -v sqlite3 >/dev/null || { echo "sqlite3 shell missing" >&2; exit 77; }

awk 'BEGIN { print "time_ms,op,key,size"; srand(11)
    for (i = 0; i < 300000; i++) {
        k = int(rand() * 400); r = rand()
        op = (r < 0.3) ? "get" : (r < 0.9 ? "set" : "del")
        printf "%d,%s,s%05d,%d\n", i, op, k, 3000 + int(rand() * 4000)
    }
}' >"$T/trace.csv"

check_killed_store() { # LABEL CLIENTS [LOB-IO]
    local label=$1 clients=$2 dir="$T/$1"
    "$PAGETUNE" replay -q --trace "$T/trace.csv" --page-size 4K \
        --store-dir "$dir" --keep --ack-log "$T/$label.ack" \
        --clients "$clients" --lob-io "${3:-cached}" >/dev/null 2>"$T/$label.err" &
    local pid=$!
    # Wait for a good number of acknowledged writes, then kill. No time
    # limit: the 300000 operations end by themselves however slow the
    # machine (or valgrind); a run that ends first fails below (exit 0).
    while :; do
        n=$(grep -vc '^#' "$T/$label.ack" 2>/dev/null)
        [ "${n:-0}" -ge 3000 ] && break
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.05
    done
    kill -9 "$pid" 2>/dev/null
    wait "$pid" 2>/dev/null
    rc=$?
    expect_eq "$rc" 137 "$label: replay was killed mid-run"
    n=$(grep -vc '^#' "$T/$label.ack")
    [ "$n" -ge 3000 ] && pass || fail "$label: only $n writes acknowledged"

    local db="$dir/store-4K.db"
    expect_eq "$(sqlite3 "$db" 'PRAGMA integrity_check')" ok \
        "$label: integrity after SIGKILL"
    expect_rc 0 "$label: LOB area check after SIGKILL" "$PAGETUNE" replay \
        --check "$db" --format csv
    lobs=$(printf '%s\n' "$OUT" | awk -F, 'NR == 2 { print $3 "," $4 }')
    case "$lobs" in ok,[1-9]*) pass ;; *) fail "$label: LOB area not used: $OUT" ;; esac
    # One client defers its page writes (store_config.deferred_writes): the
    # kill leaves acknowledged writes that only the record log holds, and
    # the open above applied them (redo). Several clients commit each write.
    redo=$(printf '%s\n' "$OUT" | awk -F, 'NR == 2 { print $5 }')
    if [ "$clients" = 1 ]; then
        case "$redo" in [1-9]*) pass ;; *) fail "$label: no redo after the kill: $OUT" ;; esac
    else
        case "$redo" in 0 | 1) pass ;; *) fail "$label: $redo records redone with $clients clients" ;; esac
    fi
    sqlite3 -separator , "$db" \
        'SELECT ID, length(coalesce(SMALL, MEDIUM, LARGE)) FROM SESSIONS' \
        >"$T/$label.rows"
    # trace (idx from 0), ack log, store rows → keys whose state is neither
    # the last acknowledged write nor the next write.
    bad=$(awk -F, '
        FILENAME == ARGV[1] { if (FNR > 1) { i = FNR - 2
              op[i] = $2; key[i] = $3; size[i] = $4; n = i + 1 } next }
        FILENAME == ARGV[2] { if ($0 !~ /^#/) {
              if (key[$1] != $3 || op[$1] != $2) { print "ack mismatch " $0; exit }
              last[$3] = $1 } next }
        { got[$1] = $2 }
        END {
            for (k in last) {
                i = last[k]
                a = (op[i] == "set") ? size[i] : "absent"
                b = a
                for (j = i + 1; j < i + 1 + n; j++)  # into the next pass
                    if (key[j % n] == k && op[j % n] != "get") {
                        b = (op[j % n] == "set") ? size[j % n] : "absent"; break }
                g = (k in got) ? got[k] : "absent"
                if (g != a && g != b) print k " has " g " want " a " or " b
            }
        }' "$T/trace.csv" "$T/$label.ack" "$T/$label.rows")
    expect_eq "$bad" "" "$label: every acknowledged write is in the store"
    # The checker can fail: in a copy, give an acknowledged session a length
    # the trace never wrote (sizes are 3000..6999).
    k=$(grep ',set,' "$T/$label.ack" | tail -n 1 | cut -d, -f3)
    { grep -v "^$k," "$T/$label.rows"; echo "$k,1"; } >"$T/$label.tampered"
    bad=$(awk -F, '
        FILENAME == ARGV[1] { if (FNR > 1) { i = FNR - 2
              op[i] = $2; key[i] = $3; size[i] = $4; n = i + 1 } next }
        FILENAME == ARGV[2] { if ($0 !~ /^#/) {
              last[$3] = $1 } next }
        { got[$1] = $2 }
        END { for (k in last) { i = last[k]
                a = (op[i] == "set") ? size[i] : "absent"; b = a
                for (j = i + 1; j < i + 1 + n; j++)
                    if (key[j % n] == k && op[j % n] != "get") {
                        b = (op[j % n] == "set") ? size[j % n] : "absent"; break }
                g = (k in got) ? got[k] : "absent"
                if (g != a && g != b) print k } }' \
        "$T/trace.csv" "$T/$label.ack" "$T/$label.tampered")
    case "$bad" in *"$k"*) pass ;; *) fail "$label: checker missed a lost write of $k" ;; esac
    keys=$(grep -v '^#' "$T/$label.ack" | cut -d, -f3 | sort -u | wc -l)
    [ "$keys" -ge 100 ] && pass || fail "$label: only $keys sessions checked"
}

check_killed_store one 1
check_killed_store four 4
# advise replays a table space without FILE SYSTEM CACHING with O_DIRECT:
# the same promise holds for the LOB area written past the OS cache (where
# the test directory's file system takes O_DIRECT; tmpfs does not)
probe="$T/odirect.probe"
if python3 -c 'import os,sys; os.close(os.open(sys.argv[1], os.O_CREAT|os.O_WRONLY|os.O_DIRECT))' "$probe" 2>/dev/null &&
    [ "$(stat -f -c %T "$T")" != tmpfs ]; then
    check_killed_store fourdirect 4 direct
else
    echo "skip: $T takes no O_DIRECT (tmpfs): the direct variant needs a disk"
fi

finish
