#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# test_errors_help.sh — errors that help (issue 31, points 4 and 7): each
# mistake is one line that says what to do, with the documented exit code
# (docs/exit-codes.md): "did you mean" for commands, options and profiles;
# a document given to the wrong option named as what it is; a missing
# table and a missing column both 66; an unknown DSN with the odbc.ini
# files read. And the default runs do not warn about themselves: a monitor
# window is judged by the block accesses it saw (the thin-window cases are
# in tests/unit/test_collect.c: no engine here counts pool reads).
. "$(dirname "$0")/lib.sh"
SRC=${PT_SOURCE_DIR:?}
export TMPDIR=$T/tmp
mkdir -p "$TMPDIR"
cd "$T" || exit 1

# ---- commands ------------------------------------------------------------
expect_rc 64 "advice" "$PAGETUNE" advice
expect_one_line_error "advice"
expect_contains "$ERR" "unknown command 'advice'; did you mean 'advise'?" "advice: suggestion"
expect_rc 64 "help advice" "$PAGETUNE" help advice
expect_contains "$ERR" "did you mean 'advise'?" "help advice: suggestion"
expect_rc 64 "frobnicate" "$PAGETUNE" frobnicate
case "$ERR" in *"did you mean"*) fail "frobnicate: a far name was suggested: $ERR" ;; *) pass ;; esac

# ---- options -------------------------------------------------------------
expect_rc 64 "--memroy" "$PAGETUNE" recommend --memroy 512M --sizes x.json
expect_one_line_error "--memroy"
expect_contains "$ERR" "unknown option '--memroy'; did you mean --memory?" "--memroy: suggestion"
expect_rc 64 "--memroy=512M" "$PAGETUNE" recommend --memroy=512M --sizes x.json
expect_contains "$ERR" "option '--memroy'; did you mean --memory?" "--memroy=V: the value is not compared"
# an abbreviation of several options names them; one of a single option
# is taken (getopt_long), as git and GNU tools do
expect_rc 64 "simulate --p" "$PAGETUNE" simulate --p 3 --trace x.csv
expect_one_line_error "simulate --p"
expect_contains "$ERR" "ambiguous option '--p'; it abbreviates --page-size, --policy and --page-fscache-share: give more of it" "--p: names the options"
# an option before the command goes after it
expect_rc 64 "--memroy before the command" "$PAGETUNE" --memroy 512M recommend --sizes x.json
expect_one_line_error "--memroy before the command"
expect_contains "$ERR" "unknown option '--memroy': options go after the command (pagetune recommend --OPTION); did you mean --memory?" "--memroy before recommend"
expect_rc 64 "--memory before the command" "$PAGETUNE" --memory=512M recommend --sizes x.json
expect_contains "$ERR" "'--memory' goes after the command: pagetune recommend --memory=512M ..." "--memory before recommend"
expect_rc 64 "-q before the command" "$PAGETUNE" -q advise --demo
expect_contains "$ERR" "'-q' goes after the command: pagetune advise -q" "-q before advise"
expect_rc 64 "--frob alone" "$PAGETUNE" --frob
expect_contains "$ERR" "before a command only --help and --version are known" "--frob without a command"
# an abbreviated command: the commands it begins, or the one
expect_rc 64 "re" "$PAGETUNE" re
expect_one_line_error "re"
expect_contains "$ERR" "unknown command 're'; it abbreviates 'recommend' and 'replay': give more of it" "re: names both"
expect_rc 64 "sam" "$PAGETUNE" sam
expect_contains "$ERR" "unknown command 'sam'; did you mean 'sample'?" "sam: the one it begins"
expect_rc 64 "--interval typo" "$PAGETUNE" monitor --intreval 5 --connect x
expect_contains "$ERR" "did you mean --interval?" "monitor --intreval"

# ---- profiles ------------------------------------------------------------
expect_rc 64 "--profile article-5k" "$PAGETUNE" workload --profile article-5k
expect_one_line_error "--profile article-5k"
for w in "$SRC"/profiles/workloads/*.yaml; do
    expect_contains "$ERR" "$(basename "$w" .yaml)" "--profile article-5k: lists $(basename "$w")"
done
expect_contains "$ERR" "did you mean 'article-4k'?" "--profile article-5k: closest"
printf '{"schema_version": 1, "count": 3, "p50": 2000, "values": [100, 2000, 5000]}\n' >"$T/sizes.json"
expect_rc 64 "--device nvem" "$PAGETUNE" recommend --sizes "$T/sizes.json" --device nvem
expect_one_line_error "--device nvem"
expect_contains "$ERR" "no device profile 'nvem' (the profiles: hdd, nvme, ssd); did you mean 'nvme'?" "--device nvem"

# ---- a document of the wrong kind -----------------------------------------
cat >"$T/monitor.json" <<'J'
{"schema_version": 1, "engine": "db2", "current": {"page_size": 4096},
 "summary": {"logical_reads": 10, "physical_reads": 1, "hit_ratio": 90}}
J
expect_rc 65 "monitor.json as --sizes" "$PAGETUNE" recommend --sizes "$T/monitor.json"
expect_one_line_error "monitor.json as --sizes"
expect_contains "$ERR" "monitor.json is a monitor document (it has 'current' and 'summary'), not a sizes document" "names both kinds"
expect_rc 65 "sizes as --monitor" "$PAGETUNE" recommend --sizes "$T/sizes.json" --monitor "$T/sizes.json"
expect_contains "$ERR" "is a sizes document" "sizes as --monitor"
expect_contains "$ERR" "not a monitor document" "sizes as --monitor: wanted"
expect_rc 65 "monitor.json as --recommendation" "$PAGETUNE" ddl --recommendation "$T/monitor.json" --out-dir "$T/ddl"
expect_contains "$ERR" "not a recommendation document" "monitor.json as --recommendation"

# ---- an unknown DSN: the files unixODBC read -------------------------------
if command -v odbcinst >/dev/null; then
    expect_rc 69 "--dsn unknown" env ODBCINI="$T/user.ini" ODBCSYSINI="$T/sys" \
        "$PAGETUNE" sample --dsn SESSIONDB
    expect_one_line_error "--dsn unknown"
    expect_contains "$ERR" "[IM002]" "--dsn unknown: the driver manager's state"
    # unixODBC may create the user file it looked in: its name is enough
    expect_contains "$ERR" "no data source 'SESSIONDB' in $T/user.ini" "--dsn unknown: the user file read"
    expect_contains "$ERR" ", $T/sys/odbc.ini (absent)" "--dsn unknown: the system file read"
    expect_contains "$ERR" "odbcinst -q -s" "--dsn unknown: how to list them"
    # a DSN in a longer connection string: the name alone, the password
    # nowhere
    expect_rc 69 "--connect DSN=... unknown" env ODBCINI="$T/user.ini" \
        ODBCSYSINI="$T/sys" "$PAGETUNE" sample \
        --connect "dsn=SESSIONDB;UID=app;PWD=hunter2"
    expect_contains "$ERR" "no data source 'SESSIONDB' in" "--connect DSN=...: the name alone"
    case "$ERR" in *hunter2*) fail "--connect DSN=...: the password shown" ;; *) pass ;; esac
fi

# ---- a missing table and a missing column: both 66 ------------------------
if odbcinst -q -d -n SQLite3 >/dev/null 2>&1 && command -v sqlite3 >/dev/null; then
    sqlite3 "$T/s.db" "CREATE TABLE SESSIONS(ID TEXT, PROPID TEXT, APPNAME TEXT,
        SMALL BLOB, MEDIUM BLOB, LARGE BLOB);
        INSERT INTO SESSIONS VALUES('a','a','app',randomblob(100),NULL,NULL);"
    CONN="Driver=SQLite3;Database=$T/s.db"
    expect_rc 66 "missing table" "$PAGETUNE" sample --connect "$CONN" --table NOPE
    expect_one_line_error "missing table"
    expect_contains "$ERR" "'NOPE' not found" "missing table named"
    expect_rc 66 "missing column" "$PAGETUNE" sample --connect "$CONN" --columns SMALL,NOPE
    expect_one_line_error "missing column"
    expect_contains "$ERR" "has no column 'NOPE'" "missing column named"
    grep -q '^| 66 | `PT_ENOINPUT` | .*the sampled table does not exist, or a `--columns` column' \
        "$SRC/docs/exit-codes.md" && pass || fail "exit-codes.md: 66 for a missing column"

    # ---- point 4: a window that counted nothing is not judged ------------
    expect_rc 0 "monitor 1 s on SQLite" "$PAGETUNE" monitor --connect "$CONN" --interval 1 --count 2
    case "$ERR" in *warning*) fail "monitor on SQLite (no pool counters) warned: $ERR" ;; *) pass ;; esac
fi

# ---- point 4: advise --demo does not warn about its own defaults ----------
expect_rc 0 "advise --demo" "$PAGETUNE" advise --demo --out-dir "$T/demo"
case "$ERR" in *warning*|*"too short"*) fail "advise --demo warned about itself: $ERR" ;; *) pass ;; esac
grep -q "too short to trust" "$T/demo/report.html" && fail "advise --demo: the report distrusts its own window" || pass

finish
