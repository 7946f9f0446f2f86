#!/usr/bin/env bash
# test_host_reconcile_postgresql.sh — issue 14 on the integration
# PostgreSQL through the real ODBC driver: the monitor reads the host's
# memory (pg_read_file('/proc/meminfo') as the superuser; a role without
# the privilege falls back to this machine's /proc/meminfo because the
# server sees it on loopback, and the run does not fail); `recommend
# --monitor` checks the pool against it (a monitor.json edited to a small
# host caps shared_buffers to 25 % with the reason) and reconciles the
# model's hit ratio with the measured one after a workload that moved the
# counters (docs/models.md "Host memory", "Reconciliation").
. "$(dirname "$0")/lib.sh"
need_env PT_PG_CONNECT PT_PG_PORT PT_PG_PASSWORD
need_cmd psql python3

MEMTOTAL=$(awk '/^MemTotal:/ {print $2 * 1024}' /proc/meminfo)

pg_sql <<'SQL'
DROP TABLE IF EXISTS it_hr;
CREATE TABLE it_hr (id bigint PRIMARY KEY, obj bytea);
INSERT INTO it_hr SELECT g,
  (SELECT decode(string_agg(md5(g || '-' || i), ''), 'hex')
   FROM generate_series(1, 60) i)
FROM generate_series(1, 20000) g;
ANALYZE it_hr;
DROP ROLE IF EXISTS it_hr_nopriv;
CREATE ROLE it_hr_nopriv LOGIN PASSWORD 'it_hr_pw';
GRANT SELECT ON it_hr TO it_hr_nopriv;
SQL

expect_rc 0 "sample" "$PAGETUNE" sample --connect "$PT_PG_CONNECT" \
    --table it_hr --columns obj -o "$T/sizes.json" -q

# a workload that reads the table so the counters move during the window
load_start pg_sql -c "SELECT count(*), sum(length(obj)) FROM it_hr"
expect_rc 0 "monitor (superuser)" "$PAGETUNE" monitor --connect "$PT_PG_CONNECT" \
    --count 2 --interval 3 -o "$T/mon.json" -q
load_stop

# ---- A. the host's memory ---------------------------------------------------
expect_py "host read with pg_read_file, MemTotal = $MEMTOTAL" \
    'd["host"]["memory_bytes"] == '"$MEMTOTAL"' and "pg_read_file" in d["host"]["source"]' "$T/mon.json"

NOPRIV=$(printf '%s' "$PT_PG_CONNECT" | sed 's/Uid=[^;]*;/Uid=it_hr_nopriv;/; s/Pwd=[^;]*;/Pwd=it_hr_pw;/')
expect_rc 0 "monitor without pg_read_server_files" "$PAGETUNE" monitor \
    --connect "$NOPRIV" --count 1 -o "$T/nopriv.json" -q
expect_py "no privilege: local /proc/meminfo, because the server sees us on loopback" \
    'd["host"]["memory_bytes"] == '"$MEMTOTAL"' and "/proc/meminfo MemTotal of this machine" in d["host"]["source"] and "127.0.0.1" in d["host"]["source"]' "$T/nopriv.json"

expect_rc 0 "recommend --monitor" "$PAGETUNE" recommend --engine postgresql \
    --sizes "$T/sizes.json" --monitor "$T/mon.json" -o "$T/rec.json" -q
expect_py "the pool is checked against the host" \
    'd["host_memory"]["memory_bytes"] == '"$MEMTOTAL"' and d["host_memory"]["fraction"] == 0.25 and d["host_memory"]["limit_bytes"] == ('"$MEMTOTAL"' // 4) // 1048576 * 1048576 and "pg_read_file" in d["host_memory"]["source"]' "$T/rec.json"
expect_py "the reasons name the host check" \
    'any("of the host" in r and "Resource Consumption" in r for r in d["reasons"])' "$T/rec.json"

# a monitor.json edited to a 64M host: shared_buffers capped to 16M
python3 - "$T/mon.json" "$T/small.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["host"] = {"memory_bytes": 64 << 20, "source": "edited: a 64M host"}
json.dump(d, open(sys.argv[2], "w"))
PY
expect_rc 0 "recommend on a small host" "$PAGETUNE" recommend --engine postgresql \
    --sizes "$T/sizes.json" --monitor "$T/small.json" --memory 1G -o "$T/small.rec.json" -q
expect_py "capped to 25% of 64M" \
    'd["host_memory"]["capped"] is True and d["host_memory"]["asked_bytes"] == 1 << 30 and d["host_memory"]["pool_bytes"] == 16 << 20 and d["settings"]["shared_buffers_kb"] == 16384 and d["model"]["memory_bytes"] == 16 << 20' "$T/small.rec.json"
expect_py "the reason says so" \
    'any(r.startswith("buffer pool capped to 16M: the 1G it would be") and "edited: a 64M host" in r for r in d["reasons"])' "$T/small.rec.json"
expect_rc 0 "ddl from the capped recommendation" "$PAGETUNE" ddl \
    --recommendation "$T/small.rec.json" --dialect postgresql --table it_hr \
    --column obj --out-dir "$T/ddl" -q
expect_contains "$(cat "$T/ddl/create.sql")" "buffer pool capped to 16M" \
    "create.sql's comment names the cap"
expect_contains "$(cat "$T/ddl/create.sql")" "ALTER SYSTEM SET shared_buffers = '16384kB'" \
    "create.sql sets the capped shared_buffers"

# ---- B. the model reconciled with the measured hit ratio --------------------
expect_py "the window moved the counters" 'd["summary"]["logical_reads"] > 1000' "$T/mon.json"
expect_py "reconciliation with both numbers, tolerance, verdict and reason" \
    'all(k in d["reconciliation"] for k in ("model_hit_ratio", "measured_hit_ratio", "tolerance", "verdict", "reason")) and 0 <= d["reconciliation"]["model_hit_ratio"] <= 1 and 0 <= d["reconciliation"]["measured_hit_ratio"] <= 1 and d["reconciliation"]["tolerance"] == 0.05 and d["reconciliation"]["verdict"] in ("agrees", "differs", "too_few_reads") and len(d["reconciliation"]["reason"]) > 20' "$T/rec.json"
# the measured ratio is the sampled table's own (pg_statio_user_tables):
# heap, TOAST and TOAST index blocks summed over the monitor's deltas
MEASURED=$(python3 - "$T/mon.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
t = [t for t in d["tables"] if t["name"] == "public.it_hr"][0]
h = sum(x["delta"].get(k + "_BLKS_HIT") or 0 for x in t["deltas"] for k in ("HEAP", "TOAST", "TIDX"))
r = sum(x["delta"].get(k + "_BLKS_READ") or 0 for x in t["deltas"] for k in ("HEAP", "TOAST", "TIDX"))
print(h + r, r)
PY
)
read -r LOGICAL PHYSICAL <<<"$MEASURED"
expect_py "the table's counters moved ($LOGICAL block accesses)" "$LOGICAL > 1000"
expect_py "the measured ratio is the table's own counters" \
    'd["reconciliation"]["measured_scope"] == "table" and "public.it_hr" in d["reconciliation"]["measured_counters"] and d["reconciliation"]["logical_reads"] == '"$LOGICAL"' and d["reconciliation"]["physical_reads"] == '"$PHYSICAL"' and abs(d["reconciliation"]["measured_hit_ratio"] - (1 - '"$PHYSICAL"' / '"$LOGICAL"')) < 1e-6' "$T/rec.json"
expect_py "agrees exactly when within the tolerance" \
    '(d["reconciliation"]["verdict"] == "agrees") == (abs(d["reconciliation"]["model_hit_ratio"] - d["reconciliation"]["measured_hit_ratio"]) <= 0.05)' "$T/rec.json"
expect_py "the reasons carry it" \
    'any(r.startswith("reconciliation at the current 8K pages") and d["reconciliation"]["reason"] in r for r in d["reasons"])' "$T/rec.json"
run "$PAGETUNE" recommend --engine postgresql --sizes "$T/sizes.json" --monitor "$T/mon.json"
expect_contains "$OUT" "reconciliation at the current 8K pages" "the table output shows it"

pg_sql -c "DROP TABLE it_hr; DROP ROLE it_hr_nopriv"
finish
