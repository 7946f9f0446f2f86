#!/usr/bin/env bash
# test_replay_mariadb.sh — `pagetune replay --connect` on the two test
# MariaDB instances (issue 28): the 16K one (InnoDB's default) and the one
# built with innodb_page_size=32K (scripts/test-servers.sh), both with a
# 12M buffer pool for the test, through the real MariaDB Connector/ODBC.
#   (a) --dry-run prints the scratch DDL per instance and creates nothing
#       (it does not even connect); a page size without an instance is
#       reported not tested;
#   (b) 20-30 KB random objects, DYNAMIC on the 16K instance against the
#       32K instance (--candidate 32K=DSN): each table at least 4x the
#       pool, InnoDB's counters per request printed, a verdict, the
#       prediction of page requests and pool reads per request beside
#       them (advise/mypredict.c) within the bounds docs/models.md
#       #replay-mariadb states, nothing left on either instance;
#   (c) bad candidates: one line, exit 64, nothing created;
#   (d) SIGKILL in the middle of a run leaves the marked database; the
#       next run reclaims it (its GET_LOCK is free) and nothing is left;
#       SIGINT mid-run exits 130 and drops its objects; a database of the
#       same name without the mark is refused (73) and left alone;
#   (e) a user without CREATE on the scratch database gets exit 77 naming
#       the privilege, and nothing is created;
#   (f) --sizes from a MariaDB sample: the scratch rows carry the table's
#       own columns, as wide and as often NULL as sampled (the engine
#       measures them), and the prediction follows the engine either side
#       of the in-row limit those columns move.
# Skips (77) when the servers of scripts/test-servers.sh are not up.
. "$(dirname "$0")/lib.sh"
need_env PT_MARIADB_CONNECT PT_MARIADB_SOCK PT_MARIADB32_CONNECT PT_MARIADB32_SOCK
need_cmd python3 mariadb

DB=pt_myr_$$
USER_NC=pt_nocreate_$$
POOL=$((12 << 20)) # 11 MiB is MariaDB 10.11's least at 32K pages
my16() { mariadb --no-defaults --socket="$PT_MARIADB_SOCK" -uroot -N "$@"; }
my32() { mariadb --no-defaults --socket="$PT_MARIADB32_SOCK" -uroot -N "$@"; }
POOL16=$(my16 -e "SELECT @@innodb_buffer_pool_size")
POOL32=$(my32 -e "SELECT @@innodb_buffer_pool_size")
DEPTH16=$(my16 -e "SELECT @@innodb_lru_scan_depth")
DEPTH32=$(my32 -e "SELECT @@innodb_lru_scan_depth")
cleanup() {
    [ -n "${BG:-}" ] && kill -9 "$BG" 2>/dev/null
    for f in my16 my32; do
        "$f" -e "DROP TABLE IF EXISTS pagetune.pt_replay_1, pagetune.${U_TBL:-pt_none}, pagetune.${W_TBL:-pt_none};
            DROP DATABASE IF EXISTS $DB; DROP USER IF EXISTS '$USER_NC'@'127.0.0.1';
            REVOKE ALL ON \`$DB\`.* FROM 'pagetune'@'127.0.0.1'" >/dev/null 2>&1
    done
    my16 -e "SET GLOBAL innodb_buffer_pool_size = $POOL16;
        SET GLOBAL innodb_lru_scan_depth = $DEPTH16" >/dev/null 2>&1
    my32 -e "SET GLOBAL innodb_buffer_pool_size = $POOL32;
        SET GLOBAL innodb_lru_scan_depth = $DEPTH32" >/dev/null 2>&1
    rm -rf "$T"
}
trap cleanup EXIT

# the test user may create and drop the scratch database, nothing more.
# The pools are 12M, so the page cleaner's free-list target is scaled to
# them (innodb_lru_scan_depth 100): the default 1536 is more than a 12M
# pool holds above the cleaner's floor, the cleaner never rests, and the
# run gets no prediction (docs/models.md#engine-policies; test_policy_
# mariadb.sh holds that refusal and the default at larger pools)
for f in my16 my32; do
    "$f" -e "GRANT ALL ON \`$DB\`.* TO 'pagetune'@'127.0.0.1';
        SET GLOBAL innodb_buffer_pool_size = $POOL; SET GLOBAL innodb_lru_scan_depth = 100"
done
wait_value "$POOL" my16 -e "SELECT @@innodb_buffer_pool_size" || fail "16K pool not resized"
wait_value "$POOL" my32 -e "SELECT @@innodb_buffer_pool_size" || fail "32K pool not resized"

# what is left on an instance under the scratch database's name
left16() { my16 -e "SELECT count(*) FROM information_schema.SCHEMATA WHERE schema_name = '$DB'"; }
left32() { my32 -e "SELECT count(*) FROM information_schema.SCHEMATA WHERE schema_name = '$DB'"; }

replay_trace "$T/big.csv" 2400 3000 20000 30000
replay_trace "$T/small.csv" 200 400 20000 30000
replay_trace "$T/long.csv" 200 20000 20000 30000

MY=(--connect "$PT_MARIADB_CONNECT" --scratch-schema "$DB" -q)
TWO=(--candidate row_format=DYNAMIC --candidate "32K=$PT_MARIADB32_CONNECT")

# (a) --dry-run: the DDL on stdout, nothing created, no connection needed
expect_rc 0 "dry-run" "$PAGETUNE" replay --trace "$T/small.csv" "${MY[@]}" "${TWO[@]}" \
    --candidate 64K --dry-run
expect_contains "$OUT" "CREATE DATABASE \`$DB\` COMMENT 'pagetune replay scratch schema" "dry-run: the marked database"
expect_contains "$OUT" "SELECT GET_LOCK('pagetune replay $DB', 0)" "dry-run: the lock"
expect_contains "$OUT" "ENGINE=InnoDB ROW_FORMAT=DYNAMIC" "dry-run: the row format"
expect_contains "$OUT" "SET SESSION max_statement_time = " "dry-run: the statement timeout"
expect_contains "$OUT" "SET SESSION lock_wait_timeout = " "dry-run: the lock timeout"
expect_contains "$OUT" "DROP DATABASE \`$DB\`;" "dry-run: the drop"
expect_contains "$OUT" "-- instance 2: Driver=MariaDB Unicode;Server=127.0.0.1;Port=$PT_MARIADB32_PORT" "dry-run: the 32K instance"
expect_contains "$OUT" "page_size=64K: not tested: innodb_page_size is per instance" "dry-run: 64K not testable"
case "$OUT" in *Pwd=*|*pt_test_pw*) fail "dry-run prints a password" ;; *) pass ;; esac
expect_eq "$(left16)$(left32)" 00 "dry-run created nothing"
expect_rc 0 "dry-run without a server" "$PAGETUNE" replay --trace "$T/small.csv" \
    --connect "Driver=MariaDB Unicode;Server=127.0.0.1;Port=1;Database=x" --dry-run -q
expect_contains "$OUT" "ROW_FORMAT=COMPACT" "dry-run: DYNAMIC against COMPACT by default"
# a MySQL recommendation of 32K pages: its advice on the instance of that size
python3 -c 'import json,sys; d = json.load(open(sys.argv[1])); d["settings"]["innodb_page_size"] = 32768
json.dump(d, open(sys.argv[2], "w"))' "$(dirname "$0")/../golden/recommend-mysql.json" "$T/rec32.json"
expect_rc 0 "dry-run of a 32K recommendation" "$PAGETUNE" replay --trace "$T/small.csv" "${MY[@]}" \
    --recommendation "$T/rec32.json" --dry-run
expect_contains "$OUT" "page_size=32K: not tested: innodb_page_size is per instance" "recommendation: 32K not testable alone"
expect_rc 0 "dry-run of a 32K recommendation with its instance" "$PAGETUNE" replay --trace "$T/small.csv" \
    "${MY[@]}" --recommendation "$T/rec32.json" --candidate "32K=$PT_MARIADB32_CONNECT" --dry-run
expect_contains "$OUT" "pt_replay_2 (" "recommendation: the advice's table on the 32K instance"
expect_rc 64 "a recommendation and a row format" "$PAGETUNE" replay --trace "$T/small.csv" "${MY[@]}" \
    --recommendation "$T/rec32.json" --candidate row_format=COMPACT --dry-run

# (b) 16K against 32K pages, each table at least 4x its pool
expect_rc 0 "replay 20-30 KB on 16K and 32K" "$PAGETUNE" replay --trace "$T/big.csv" "${MY[@]}" \
    "${TWO[@]}" --candidate 64K --rounds 6 --clients 2 --json -o "$T/pages.json"
expect_eq "$(left16)$(left32)" 00 "the replay left nothing"
if msg=$(python3 - "$T/pages.json" 2>&1 <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
c = d["candidates"]
assert d["kind"] == "replay_server" and d["engine"] == "mysql" and d["counters_scope"] == "instance"
assert d["pools_note"] is None, d["pools_note"]  # both pools 12M
assert [x["innodb_page_size"] for x in c] == [16384, 32768], c
for x in c:
    assert x["table_bytes"] >= 4 * x["buffer_pool_bytes"], (x["table_bytes"], x["buffer_pool_bytes"])
    k = x["innodb"]
    assert k["read_requests_per_request"] > 1 and k["reads_per_request"] > 0, k
    # Innodb_buffer_pool_reads and Innodb_pages_read move at different points
    # of a read: one under way at a snapshot makes them differ (seen: by 1)
    assert k["pages_read"] >= k["reads"] - 4 and k["reads"] > 0 and k["pages_written"] > 0, k
    assert len(x["rounds_rps"]) == 6
    assert "Pwd" not in x["instance"], x["instance"]
# the prediction beside the counters (advise/mypredict.c). The replay
# waits for purge around each measured pass, so a pass's page requests
# hold all of its purge: within 10 % (the issue's bound) and between the
# prediction without purge and with it. Pool reads: undo segments,
# purge woken once a second and placed by the backlog the run measured,
# in batches whose undo pages stay fixed, the history truncated after
# each, dirty pages kept until written (docs/models.md#replay-mariadb).
# Measured on this trace (2026-12-06), with the history's truncation
# writing the log pages it unlinks: 16K +1.0 to +10.6 %, 32K -2.4 to +7.2 %
# in 5 live runs idle and beside two busy loops, and emulated again from 20
# recorded runs (idle, busy, paced to the busy runs' rate) 16K -1.6 to
# +10.2 %, 32K -4.9 to +5.7 %. Reading those pages as gets instead put
# loaded 16K runs 12 to 23 % over, and a CI run's test +17.0 %: the issue's
# 15 % is held
for x in c:
    p, k = x["prediction"], x["innodb"]
    assert p and p["policy"] == "innodb-lru" and p["pool_pages"] > 0, p
    assert abs(p["read_requests_error"]) <= 0.10, (x["innodb_page_size"], p)
    by = p["read_requests_by"]
    floor = by["get"] + by["set"] + by["undo"]
    assert 0.95 * floor <= k["read_requests_per_request"] <= 1.05 * (floor + by["purge"]), (p, k)
    assert abs(p["reads_error"]) <= 0.15, (x["innodb_page_size"], p)
    assert len(p["purge_backlog"]) == 6 and min(p["purge_backlog"]) >= 0, p
    assert p["blob_pages_per_value"] == (2 if x["innodb_page_size"] == 16384 else 1), p
# the verdict by magnitude (docs/models.md#server-verdict): 32K's pool
# reads per request against 16K's, measured over 6 rounds against the
# prediction, each predicted figure +-15 %. Every set writing a new
# object, with purge settled around each pass: -4.5 to -11.5 % in 3 runs
# where -22 % [-42.3, +5.6] was predicted (confirms). Before the replay
# waited for purge, one round's purge falling inside its pass made it
# inconclusive beside a CI run, so the test holds what noise cannot
# change: never contradicted, the rounds' total change within the
# predicted range, and the verdict following the reads' unless
# requests/s fell.
r = c[1]["reads_verdict"]
assert r["predicted_pct"]["mean"] < 0 and r["verdict"] in ("confirms", "inconclusive"), r
total = r["measured_per_op"][1] / r["measured_per_op"][0] - 1
assert r["predicted_pct"]["lo"] <= 100 * total <= r["predicted_pct"]["hi"], (total, r)
if c[1]["vs_first"]["hi"] < 0:
    assert c[1]["verdict"] == "contradicts", (c[1]["verdict"], c[1]["vs_first"], r)
elif r["verdict"] == "confirms":
    assert c[1]["verdict"] == "confirms", (c[1]["verdict"], c[1]["vs_first"], r)
assert c[1]["vs_first"]["lo"] <= c[1]["vs_first"]["hi"]
# both instances run here: their data directories' free space checked
f = d["free_space"]
assert f["free_bytes"] > f["needed_bytes"] > 0 and f["path"].startswith("/"), f
assert d["not_tested"][0]["candidate"] == "row_format=DYNAMIC,page_size=64K"
assert "innodb_page_size is per instance" in d["not_tested"][0]["why"]
print("; ".join(f"{x['innodb_page_size'] // 1024}K requests {x['prediction']['read_requests_error']:+.1%}"
                f" reads {x['prediction']['reads_error']:+.1%}" for x in c)
      + f"; reads {r['verdict']}")
EOF
); then pass; echo "# prediction against the engine: $msg"; else fail "16K/32K replay's JSON: $msg"; fi

# more than an instance's file system holds: refused, nothing created
huge_trace "$T/huge.csv"
expect_rc 73 "more than the free space" "$PAGETUNE" replay --trace "$T/huge.csv" "${MY[@]}" \
    --max-scratch 100T
expect_one_line_error "more than the free space"
expect_contains "$ERR" "free (" "the free space named"
expect_eq "$(left16)$(left32)" 00 "free space refused before creating"

# (c) bad input: one line naming the option, exit 64, nothing created
expect_rc 64 "bad row format" "$PAGETUNE" replay --trace "$T/small.csv" "${MY[@]}" \
    --candidate row_format=FAST
expect_one_line_error "bad row format"
expect_contains "$ERR" "--candidate 'row_format=FAST': row_format 'FAST' is not DYNAMIC" "bad row format named"
expect_rc 64 "bad page size" "$PAGETUNE" replay --trace "$T/small.csv" "${MY[@]}" --candidate "3K=x"
expect_one_line_error "bad page size"
expect_rc 64 "key_block_size with DYNAMIC" "$PAGETUNE" replay --trace "$T/small.csv" "${MY[@]}" \
    --candidate row_format=DYNAMIC,key_block_size=8
expect_rc 64 "PostgreSQL and MariaDB candidates" "$PAGETUNE" replay --trace "$T/small.csv" "${MY[@]}" \
    --candidate row_format=DYNAMIC --candidate toast_tuple_target=4096
expect_rc 64 "a PostgreSQL candidate on MariaDB" "$PAGETUNE" replay --trace "$T/small.csv" \
    --connect "$PT_MARIADB_CONNECT" --scratch-schema "$DB" -q --candidate toast_tuple_target=4096
expect_one_line_error "a PostgreSQL candidate on MariaDB"
expect_rc 64 "32K naming the 16K instance" "$PAGETUNE" replay --trace "$T/small.csv" "${MY[@]}" \
    --candidate row_format=DYNAMIC --candidate "32K=$PT_MARIADB_CONNECT"
expect_contains "$ERR" "names page size 32K but its instance's innodb_page_size is 16K" "page size checked"
expect_rc 64 "COMPRESSED at 32K" "$PAGETUNE" replay --trace "$T/small.csv" \
    --connect "$PT_MARIADB32_CONNECT" --scratch-schema "$DB" -q --candidate row_format=COMPRESSED
expect_contains "$ERR" "no ROW_FORMAT=COMPRESSED at innodb_page_size 32K" "COMPRESSED at 32K refused"
expect_eq "$(left16)$(left32)" 00 "bad input created nothing"

# (d) SIGKILL mid-run, then a second run reclaims the marked databases.
# Beside them, a user's SESSIONS table in the pagetune database and one
# named like a scratch table: byte-identical before and after (a checksum
# of every row), as no run ever names them.
U_TBL=pt_replay_sessions_$$
my16 pagetune -e "DROP TABLE IF EXISTS pagetune.pt_replay_1, pagetune.$U_TBL;
    CREATE TABLE pagetune.$U_TBL (id varchar(128), propid varchar(128), appname varchar(128),
        lastaccess bigint, small longblob, PRIMARY KEY (id, propid, appname));
    INSERT INTO pagetune.$U_TBL SELECT CONCAT('u', seq), CONCAT('u', seq), 'default_host/app',
        seq, REPEAT(UNHEX(MD5(seq)), 40 + seq % 90) FROM seq_1_to_2000;
    CREATE TABLE pagetune.pt_replay_1 (id int PRIMARY KEY, v text);
    INSERT INTO pagetune.pt_replay_1 SELECT seq, MD5(seq) FROM seq_1_to_500"
user_sum() {
    my16 -e "CHECKSUM TABLE pagetune.$U_TBL, pagetune.pt_replay_1 EXTENDED"
}
USER_SUM=$(user_sum)
expect_eq "$(my16 -e "SELECT (SELECT COUNT(*) FROM pagetune.$U_TBL) + (SELECT COUNT(*) FROM pagetune.pt_replay_1)")" \
    2500 "the user's tables hold their rows"
case "$USER_SUM" in *"pt_replay_1"*[1-9]*) pass ;; *) fail "no checksum of the user's tables: $USER_SUM" ;; esac
"$PAGETUNE" replay --trace "$T/long.csv" "${MY[@]}" "${TWO[@]}" --rounds 50 >/dev/null 2>&1 &
BG=$!
for _ in $(seq 1 300); do
    [ "$(my32 -e "SELECT count(*) FROM information_schema.TABLES WHERE table_schema = '$DB'
        AND table_name = 'pt_replay_2'")" = 1 ] && break
    sleep 0.1
done
sleep 1
kill -9 "$BG"
wait "$BG" 2>/dev/null
BG=
expect_eq "$(left16)$(left32)" 11 "the killed run left its databases"
# the server ends the killed run's connections, and their locks, once it
# sees their sockets closed
for f in my16 my32; do
    wait_value 1 "$f" -e "SELECT IS_FREE_LOCK('pagetune replay $DB')" || fail "$f: lock still held"
done
expect_rc 0 "second run after SIGKILL" "$PAGETUNE" replay --trace "$T/small.csv" \
    --connect "$PT_MARIADB_CONNECT" --scratch-schema "$DB" "${TWO[@]}" --rounds 2
expect_contains "$ERR" "reclaimed scratch database '$DB'" "second run says it reclaimed"
expect_contains "$OUT" "page req/req" "the table shows page requests per request"
expect_contains "$OUT" "verdict: candidate 2 against 1:" "the table shows a verdict"
expect_contains "$OUT" "predicted (emulated table, undo and purge" "the table shows the prediction"
expect_eq "$(left16)$(left32)" 00 "nothing left after the reclaim"

# SIGINT mid-run: the run unwinds, drops its objects and exits 130
"$PAGETUNE" replay --trace "$T/long.csv" "${MY[@]}" "${TWO[@]}" --rounds 50 >/dev/null 2>"$T/int.err" &
BG=$!
for _ in $(seq 1 300); do
    [ "$(left32)" = 1 ] && break
    sleep 0.1
done
sleep 1
kill -INT "$BG"
wait "$BG"
RC=$?
BG=
expect_eq "$RC" 130 "SIGINT mid-run exits 130"
expect_eq "$(left16)$(left32)" 00 "SIGINT mid-run: its objects dropped"
expect_eq "$(user_sum)" "$USER_SUM" "the user's tables byte-identical after SIGKILL, reclaim and SIGINT"
my16 -e "DROP TABLE pagetune.pt_replay_1, pagetune.$U_TBL"

# a database of that name without the mark is someone else's: refused, kept
my16 -e "CREATE DATABASE $DB"
expect_rc 73 "unmarked database refused" "$PAGETUNE" replay --trace "$T/small.csv" "${MY[@]}"
expect_one_line_error "unmarked database"
expect_contains "$ERR" "--scratch-schema '$DB' exists on" "refusal names the option"
expect_eq "$(left16)" 1 "the unmarked database is left alone"
my16 -e "DROP DATABASE $DB"

# (e) a user without CREATE on the scratch database: 77, nothing created
my16 -e "CREATE USER '$USER_NC'@'127.0.0.1' IDENTIFIED BY 'pt_test_pw';
    GRANT ALL ON pagetune.* TO '$USER_NC'@'127.0.0.1'"
NOCREATE=$(printf '%s' "$PT_MARIADB_CONNECT" | sed "s/Uid=[^;]*/Uid=$USER_NC/")
expect_rc 77 "no CREATE privilege" "$PAGETUNE" replay --trace "$T/small.csv" \
    --connect "$NOCREATE" --scratch-schema "$DB" -q
expect_one_line_error "no CREATE privilege"
expect_contains "$ERR" "needs the CREATE and DROP privileges on database '$DB'" "77 names the privilege"
expect_eq "$(left16)" 0 "no CREATE: nothing created"

# (f) the sampled table's own columns (--sizes from a MariaDB sample): the
# scratch rows carry them with their types, each as wide and as often NULL
# as the sample measured, as the engine then measures them; an enum is
# named, not carried. Objects of 7,600-7,900 bytes stay in a 16K page's
# row alone (under half the page: docs/models.md#replay-mariadb), and the
# table's 600-byte note pushes them out of it: the prediction follows the
# engine on both sides of that limit (page requests within 15 %)
W_TBL=pt_wide_$$
my16 pagetune -e "CREATE TABLE $W_TBL (id varchar(64) NOT NULL, propid varchar(64) NOT NULL,
    appname varchar(64) NOT NULL, listenercnt smallint, lastaccess bigint, creationtime bigint,
    maxinactivetime int, username varchar(256), small longblob, tenant varchar(40) NOT NULL,
    score decimal(7,2), flags enum('a','b','c'), note text, tag varbinary(16),
    code varchar(10) CHARACTER SET utf8mb4,
    PRIMARY KEY (id, propid, appname)) ENGINE=InnoDB;
    INSERT INTO $W_TBL SELECT CONCAT('s', seq), CONCAT('s', seq), 'app', 0, seq, seq, 1800, NULL,
    RANDOM_BYTES(1000), CONCAT('tenant-', seq % 97), IF(seq % 2, NULL, seq / 7), 'b',
    IF(seq % 4 = 0, NULL, REPEAT('y', 600)), UNHEX(MD5(seq)),
    REPEAT(_utf8mb4 X'C3A9', 9) FROM seq_1_to_2000"
expect_rc 0 "sample of a table with its own columns" "$PAGETUNE" sample --connect "$PT_MARIADB_CONNECT" \
    --table "pagetune.$W_TBL" --columns small -o "$T/wide.json" -q
replay_trace "$T/edge.csv" 300 1500 7600 7900
for S in none sizes; do
    expect_rc 0 "replay at the in-row limit ($S)" "$PAGETUNE" replay --trace "$T/edge.csv" "${MY[@]}" \
        --candidate row_format=DYNAMIC --rounds 2 --json -o "$T/edge-$S.json" \
        $([ "$S" = sizes ] && echo "--sizes $T/wide.json")
done
expect_eq "$(left16)" 0 "the --sizes replays left nothing"
if msg=$(python3 - "$T/wide.json" "$T/edge-none.json" "$T/edge-sizes.json" 2>&1 <<'EOF'
import json, sys
w, none, sized = (json.load(open(f)) for f in sys.argv[1:4])
tc = {c["name"]: c for c in w["table_columns"]}
assert tc["note"]["avg_width"] == 600 and tc["note"]["null_frac"] == 0.25, tc["note"]
assert tc["score"]["null_frac"] == 0.5 and tc["tag"]["avg_width"] == 16, tc
assert none["scratch_columns"] == [] and none["not_carried"] is None, none["scratch_columns"]
cols = {c["name"]: c for c in sized["scratch_columns"]}
assert sorted(cols) == ["code", "note", "score", "tag", "tenant"], cols
# 9 two-byte characters (18 bytes) in a varchar(10): the synthetic value
# is 10 ASCII characters, and the JSON shows the sample's 18 beside it
assert cols["code"]["sampled_width"] == 18 and cols["code"]["width"] == 10, cols["code"]
assert "flags (enum('a','b','c'): no synthetic value of its type)" in sized["not_carried"], sized["not_carried"]
for n, c in cols.items():
    # variable-length: exact; fixed-width (DECIMAL): its type's bytes
    if c["measured_width"] is not None:
        assert c["measured_width"] == c["width"], c
    else:
        assert n == "score" and c["width"] == 4, c
    # the NULL share of 300 random draws: within 0.1 of the sample's
    assert abs(c["measured_null_frac"] - c["null_frac"]) <= 0.1, c
out = []
# both within 15 %: in the row measured -2.6 to -11.5 % over 5 runs
# (before the fix -21 %: the test fails it), one BLOB page a value +3 to
# +11 %; the spread is the engine's from run to run, and a busy machine's
# runs are at its far end (docs/models.md#replay-mariadb)
for d, blob, bound in ((none, 0, 0.15), (sized, 1, 0.15)):
    x = d["candidates"][0]
    p, k = x["prediction"], x["innodb"]
    assert p["blob_pages_per_value"] == blob, (blob, p["blob_pages_per_value"])
    err = p["read_requests_per_request"] / k["read_requests_per_request"] - 1
    assert abs(err) <= bound, (blob, p["read_requests_per_request"], k["read_requests_per_request"])
    out.append(f"{p['read_requests_per_request']:.1f} predicted, {k['read_requests_per_request']:.2f} measured")
print("; ".join(out))
EOF
); then pass; echo "# in row / pushed out by the carried note: $msg"; else fail "--sizes: $msg"; fi
my16 pagetune -e "DROP TABLE $W_TBL"

finish
