#!/usr/bin/env bash
# test_pending_postgresql.sh — issue 23 on a real PostgreSQL: DDL that
# changes only what changes.
#   - The DBA's ALTER SYSTEM SET shared_buffers = '40MB' waits for a
#     restart (pg_reload_conf, pg_settings.pending_restart). Advice that
#     keeps shared_buffers: neither create.sql nor rollback.sql holds an
#     ALTER SYSTEM for it as a statement, and after create.sql then
#     rollback.sql pg_file_settings still shows 40MB. Advice that changes
#     it (--memory): rollback.sql puts the PENDING 40MB back, not the
#     running size.
#   - No statement of create.sql changes nothing: each is parsed and
#     compared with the server's values (reloptions, attstorage, the
#     running and the pending shared_buffers).
#   - A user who cannot read pg_file_settings (no superuser, no
#     pg_read_all_settings): the ALTER SYSTEM is only a comment that says
#     the pending value could not be read, and why.
# The server's postgresql.auto.conf is restored whatever happens (trap).
. "$(dirname "$0")/lib.sh"
need_env PT_PG_CONNECT PT_PG_PORT PT_PG_PASSWORD
need_cmd psql python3

TB=it_pend_pg
ROLE=it_pend_pg_user
trap 'pg_sql -c "ALTER SYSTEM RESET shared_buffers" >/dev/null 2>&1; pg_sql -c "SELECT pg_reload_conf()" >/dev/null 2>&1; pg_sql -c "DROP TABLE IF EXISTS $TB" >/dev/null 2>&1; pg_sql -c "DROP ROLE IF EXISTS $ROLE" >/dev/null 2>&1; rm -rf "$T"' EXIT

# 480 random-looking bytes per object: inline, incompressible
pg_sql <<SQL
DROP TABLE IF EXISTS $TB;
CREATE TABLE $TB (id bigint PRIMARY KEY, obj bytea);
INSERT INTO $TB SELECT g,
  (SELECT decode(string_agg(md5(g || '-' || i), ''), 'hex') FROM generate_series(1, 30) i)
FROM generate_series(1, 2000) g;
ANALYZE $TB;
SQL

# the shared_buffers lines of postgresql.auto.conf
auto_conf() {
    pg_sql -Atc "SELECT coalesce(string_agg(setting, ','), '') FROM pg_file_settings WHERE name = 'shared_buffers' AND sourcefile LIKE '%postgresql.auto.conf'"
}
# the lines of FILE that are statements, not comments
stmts() { grep -v '^[[:space:]]*--' "$1" | grep -v '^[[:space:]]*$'; }
advise() { # DIR [OPTIONS...]
    local dir=$1
    shift
    expect_rc 0 "advise $*" "$PAGETUNE" advise --connect "$CONNECT" \
        --table "$TB" --columns obj --monitor-seconds 1 --validate none \
        --out-dir "$T/$dir" -q "$@"
}
# no_op_check DIR: every statement of create.sql changes a value the
# server has now (python parses the statements)
no_op_check() {
    local rel sto run pend
    rel=$(pg_sql -Atc "SELECT coalesce(array_to_string(reloptions, ','), '') FROM pg_class WHERE relname = '$TB'")
    sto=$(pg_sql -Atc "SELECT attstorage FROM pg_attribute WHERE attrelid = '$TB'::regclass AND attname = 'obj'")
    run=$(pg_sql -Atc "SELECT pg_size_bytes(current_setting('shared_buffers'))")
    pend=$(pg_sql -Atc "SELECT coalesce((SELECT pg_size_bytes(setting) FROM pg_file_settings WHERE name = 'shared_buffers' ORDER BY seqno DESC LIMIT 1), 0)")
    local got
    got=$(python3 - "$T/$1/create.sql" "$rel" "$sto" "$run" "$pend" <<'PY'
import re, sys
path, rel, sto, run, pend = sys.argv[1:]
letters = {"PLAIN": "p", "MAIN": "m", "EXTERNAL": "e", "EXTENDED": "x"}
units = {"kB": 1024, "MB": 1 << 20, "GB": 1 << 30}
sql = "\n".join(l for l in open(path) if not l.lstrip().startswith("--"))
bad = []
for s in (x.strip() for x in sql.split(";")):
    if not s or s in ("BEGIN", "COMMIT") or s.startswith("VACUUM FULL"):
        continue
    m = re.fullmatch(r'ALTER TABLE \S+ SET \(toast_tuple_target = (\d+)\)', s)
    if m:
        now = dict(o.split("=") for o in rel.split(",") if o).get("toast_tuple_target", "2032")
        if m.group(1) == now: bad.append(s)
        continue
    m = re.fullmatch(r'ALTER TABLE \S+ ALTER COLUMN \S+ SET STORAGE (\w+)', s)
    if m:
        if letters[m.group(1)] == sto: bad.append(s)
        continue
    m = re.fullmatch(r"ALTER SYSTEM SET shared_buffers = '(\d+)(kB|MB|GB)'", s)
    if m:
        v = int(m.group(1)) * units[m.group(2)]
        if v == int(run) or v == int(pend): bad.append(s)
        continue
    bad.append("unknown statement: " + s)
print("; ".join(bad) if bad else "none")
PY
)
    expect_eq "$got" none "$1: statements of create.sql that change nothing"
}

CONNECT=$PT_PG_CONNECT
# ---- nothing pending: shared_buffers kept, no statement for it -----------
advise nopend
case "$(stmts "$T/nopend/create.sql")" in
*"ALTER SYSTEM"*) fail "nothing pending, size kept: create.sql sets shared_buffers: $(stmts "$T/nopend/create.sql")" ;;
*) pass ;;
esac
no_op_check nopend

# ---- the DBA's pending value -----------------------------------------------
pg_sql -c "ALTER SYSTEM SET shared_buffers = '40MB'"
pg_sql -c "SELECT pg_reload_conf()" >/dev/null
expect_eq "$(pg_sql -Atc "SELECT pending_restart FROM pg_settings WHERE name = 'shared_buffers'")" t \
    "40MB waits for a restart"
expect_eq "$(auto_conf)" 40MB "postgresql.auto.conf holds 40MB"
advise kept
R="$T/kept/recommendation.json"
expect_py "the state holds the pending value, read from the server" \
    'd["current"]["shared_buffers_pending"] == {"value": 41943040, "source": "server"} and d["current"]["shared_buffers_auto_conf"]["value"] == 41943040' "$R"
expect_py "the advice keeps the running shared_buffers" \
    'd["settings"]["shared_buffers_kb"] * 1024 == d["current"]["shared_buffers"]["value"]' "$R"
for f in create rollback; do
    case "$(stmts "$T/kept/$f.sql")" in
    *"ALTER SYSTEM"*) fail "kept: $f.sql has an ALTER SYSTEM statement: $(stmts "$T/kept/$f.sql" | grep 'ALTER SYSTEM')" ;;
    *) pass ;;
    esac
done
expect_contains "$(cat "$T/kept/create.sql")" "40MB is PENDING" "kept: create.sql says why"
no_op_check kept
expect_rc 0 "kept: create.sql applies" pg_sql -f "$T/kept/create.sql"
expect_eq "$(auto_conf)" 40MB "kept: after create.sql, still 40MB"
expect_rc 0 "kept: rollback.sql applies" pg_sql -f "$T/kept/rollback.sql"
expect_eq "$(auto_conf)" 40MB "kept: after rollback.sql, still 40MB"

# ---- the advice changes it: rollback.sql restores the pending 40MB ---------
advise changed --memory 48M
expect_contains "$(stmts "$T/changed/create.sql")" "ALTER SYSTEM SET shared_buffers = '49152kB';" \
    "changed: create.sql sets 48MB"
expect_contains "$(stmts "$T/changed/rollback.sql")" "ALTER SYSTEM SET shared_buffers = '40MB';" \
    "changed: rollback.sql restores the pending 40MB"
no_op_check changed
expect_rc 0 "changed: create.sql applies" pg_sql -f "$T/changed/create.sql"
expect_eq "$(auto_conf)" 49152kB "changed: after create.sql, 48MB"
expect_rc 0 "changed: rollback.sql applies" pg_sql -f "$T/changed/rollback.sql"
expect_eq "$(auto_conf)" 40MB "changed: after rollback.sql, 40MB again"

# ---- pg_file_settings not readable: only a comment, saying why -------------
pg_sql -c "CREATE ROLE $ROLE LOGIN PASSWORD 'pend_pw'; GRANT SELECT ON $TB TO $ROLE" >/dev/null
CONNECT="Driver=PostgreSQL Unicode;Server=127.0.0.1;Port=$PT_PG_PORT;Database=pagetune;Uid=$ROLE;Pwd=pend_pw;"
advise noperm --memory 48M
expect_py "noperm: the note names pg_file_settings' permission error" \
    '"permission denied" in d["current"]["note"] and d["current"]["shared_buffers_auto_conf"]["source"] == "default"' \
    "$T/noperm/recommendation.json"
for f in create rollback; do
    case "$(stmts "$T/noperm/$f.sql")" in
    *"ALTER SYSTEM"*) fail "noperm: $f.sql has an ALTER SYSTEM statement" ;;
    *) pass ;;
    esac
done
expect_contains "$(tr '\n' ' ' <"$T/noperm/create.sql" | sed 's/ --  */ /g')" \
    "the pending value could not be read (shared_buffers_auto_conf not read ([42501] ERROR: permission denied for view pg_file_settings" \
    "noperm: create.sql says the pending value could not be read, and why"
expect_eq "$(auto_conf)" 40MB "the DBA's 40MB is still there"
finish
