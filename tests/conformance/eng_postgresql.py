"""eng_postgresql.py — conformance cases for PostgreSQL (conformance.py).

Tables are generated on the server from the seed (md5 of seed, row and
chunk: random-looking bytes pglz cannot compress; a random block repeated:
bytes pglz compresses), their sizes drawn around the limits of
docs/models.md#page-fit-postgresql: TOAST_TUPLE_THRESHOLD and the default
toast_tuple_target (2032 bytes of tuple), TOAST_MAX_CHUNK_SIZE (1996 bytes a
chunk, four chunks a page), pglz's 25 % saving and its 1024-byte give-up,
the fillfactor reloption, a non-default toast_tuple_target, STORAGE
EXTERNAL, several object columns, and other columns of real width.

Measured: pg_relation_size of the heap, of reltoastrelid and of its index;
a row is inline when none of its attributes is a TOAST pointer (the raw
attributes of every heap tuple, contrib pageinspect: varattrib_1b_e, first
byte 0x01, tag VARTAG_ONDISK 18; PostgreSQL src/include/varatt.h).
"""
import os
import subprocess

from conformance import Case, Fail, Measure

ENGINE = "postgresql"
PAGE = 8192
_env = {}


def available():
    for v in ("PT_PG_CONNECT", "PT_PG_PORT", "PT_PG_PASSWORD"):
        if not os.environ.get(v):
            return f"{v} is not set (start scripts/test-servers.sh and source servers.env)"
    return None


def sql(text, *extra):
    p = subprocess.run(
        ["psql", "-X", "-q", "-At", "-F", " ", "-v", "ON_ERROR_STOP=1", "-h", "127.0.0.1",
         "-p", os.environ["PT_PG_PORT"], "-U", "postgres", "-d", "pagetune", *extra],
        input=text, capture_output=True, text=True,
        env={**os.environ, "PGPASSWORD": os.environ["PT_PG_PASSWORD"],
             "PGOPTIONS": "-c client_min_messages=warning"})
    if p.returncode != 0:
        raise Fail(f"psql: {p.stderr.strip()[-600:]}")
    return p.stdout.strip()


# pt_cf_rnd(seed, row, n): n random-looking bytes (md5 chains);
# pt_cf_cmp(seed, row, n, block): n bytes repeating a random block of
# `block` bytes (pglz keeps the first occurrence and matches the rest);
# pt_cf_len(seed, row, lo, hi): a length in lo..hi drawn from the seed.
FUNCS = """
CREATE EXTENSION IF NOT EXISTS pageinspect;
CREATE OR REPLACE FUNCTION pt_cf_rnd(s int, g int, n int) RETURNS bytea
LANGUAGE sql IMMUTABLE AS $$
  SELECT substring(decode(string_agg(md5(s || '-' || g || '-' || i), '' ORDER BY i), 'hex')
         FROM 1 FOR n) FROM generate_series(1, (n + 15) / 16) i $$;
CREATE OR REPLACE FUNCTION pt_cf_cmp(s int, g int, n int, blk int) RETURNS bytea
LANGUAGE sql IMMUTABLE AS $$
  SELECT substring(decode(repeat(encode(pt_cf_rnd(s, g, blk), 'hex'), n / blk + 1), 'hex')
         FROM 1 FOR n) $$;
CREATE OR REPLACE FUNCTION pt_cf_len(s int, g int, lo int, hi int) RETURNS int
LANGUAGE sql IMMUTABLE AS $$
  SELECT lo + (abs(hashint8(s::bigint * 1000003 + g)) % (hi - lo + 1))::int $$;
"""


def setup(work):
    sql(FUNCS)


def teardown():
    pass


def connect(case):
    return os.environ["PT_PG_CONNECT"]


def _val(kind, col_type, s, lo, hi, salt):
    """SQL for one object value of row g."""
    n = f"pt_cf_len({s}, g * 7 + {salt}, {lo}, {hi})"
    if kind == "rnd":
        b = f"pt_cf_rnd({s}, g * 7 + {salt}, {n})"
    elif kind.startswith("cmp"):
        blk = int(kind[3:] or 256)
        b = f"pt_cf_cmp({s}, g * 7 + {salt}, {n}, {blk})"
    else:  # mix: half the rows each
        b = (f"CASE WHEN pt_cf_len({s}, g, 0, 1) = 0 THEN pt_cf_rnd({s}, g * 7 + {salt}, {n})"
             f" ELSE pt_cf_cmp({s}, g * 7 + {salt}, {n}, 200) END")
    # text columns hold the hex text of half as many bytes (still n bytes)
    if col_type == "text":
        n2 = f"greatest(1, {n} / 2)"
        b = b.replace(f", {n}", f", {n2}")
        return f"encode({b}, 'hex')"
    return b


def cases(rng):
    """At least 12 tables; sizes jittered by the seed around each limit."""
    j = lambda a: a + rng.randint(-40, 40)
    c = []

    def add(name, note, cols, rows, **kw):
        spec = {"cols": cols, "rows": rows}
        spec.update({k: v for k, v in kw.items() if k in ("fillfactor", "ttt", "storage", "extra")})
        tol = {k: v for k, v in kw.items() if k in (
            "inline_tol", "known_limit", "page_tol", "outline_tol", "outline_floor", "bytes_tol",
            "growth_tol", "compression")}
        c.append(Case(name=name, columns=[x[0] for x in cols], note=note, spec=spec, **tol))

    # (column, type, kind, lo, hi)
    add("rnd_below", "random, every row just under TOAST_TUPLE_THRESHOLD",
        [("v", "bytea", "rnd", j(1700), 1990)], 1000)
    add("rnd_at", "random, rows either side of the threshold (2032)",
        [("v", "bytea", "rnd", j(1940), j(2090))], 1200)
    add("rnd_chunk", "random, 1 to 2 chunks either side of 1996 x 2",
        [("v", "bytea", "rnd", j(2100), j(4300))], 1500)
    add("rnd_many", "random, 2 to 6 chunks (chunk packing)",
        [("v", "bytea", "rnd", j(4000), j(12000))], 800)
    add("cmp_inline", "compressible text 3-6 KB, compressed in the row",
        [("v", "text", "cmp256", j(3000), j(6000))], 4000, inline_tol=5, compression=True)
    add("cmp_under", "compressible text under the threshold, stored raw",
        [("v", "text", "cmp128", j(1200), 1900)], 1200, inline_tol=5, compression=True)
    add("cmp_big", "compressible bytea 12-40 KB: compressed, still out of line",
        [("v", "bytea", "cmp" + str(rng.choice((512, 768, 1000))), j(12000), j(40000))], 1200,
        inline_tol=5, compression=True)
    add("cmp_edge", "blocks near pglz's 1024-byte give-up, at the threshold",
        [("v", "bytea", "cmp" + str(rng.choice((900, 1100, 1500))), j(1900), j(5000))], 2000,
        inline_tol=5, compression=True)
    add("mixed", "half compressible, half random rows, 1.5-5 KB",
        [("v", "bytea", "mix", j(1500), j(5000))], 1500, compression=True,
        outline_tol=0.10, known_limit="limit-pg-trial")
    ff = rng.choice((70, 80, 90))
    add("fillfactor", f"random 1.5-2.6 KB at fillfactor {ff}",
        [("v", "bytea", "rnd", j(1500), j(2600))], 1500, fillfactor=ff)
    add("multi", "three random columns of 300-900 bytes",
        [("a", "bytea", "rnd", j(300), 900), ("b", "bytea", "rnd", j(300), 900),
         ("c", "bytea", "rnd", j(300), 900)], 1500,
        outline_tol=0.20, known_limit="limit-pg-columns")
    add("multi_cmp", "a compressible and a random column",
        [("a", "text", "cmp200", j(800), j(3000)), ("b", "bytea", "rnd", j(600), j(1800))], 1500,
        inline_tol=40, page_tol=0.15, outline_tol=3.0, outline_floor=20, bytes_tol=0.40,
        growth_tol=0.60, known_limit="limit-pg-columns")
    ttt = rng.choice((3000, 4000, 6000))
    add("ttt_set", f"random 2-5 KB, toast_tuple_target {ttt} set before",
        [("v", "bytea", "rnd", j(2000), j(5000))], 1200, ttt=ttt)
    add("external", "compressible, STORAGE EXTERNAL: stored raw out of line",
        [("v", "bytea", "cmp256", j(2500), j(6000))], 1000, storage="EXTERNAL")
    add("wide_row", "random 1-2.5 KB beside 300-700 bytes of other columns",
        [("v", "bytea", "rnd", j(1000), j(2500))], 1500, extra=(300, 700),
        inline_tol=3, outline_tol=0.50, known_limit="limit-pg-rest")
    return c


def create(case, seed):
    sp, t = case.spec, case.table
    cols = ", ".join(f"{n} {ty}" for n, ty, *_ in sp["cols"])
    extra = ", note varchar(2000)" if "extra" in sp else ""
    opts = ["autovacuum_enabled = off"]
    if "fillfactor" in sp:
        opts.append(f"fillfactor = {sp['fillfactor']}")
    if "ttt" in sp:
        opts.append(f"toast_tuple_target = {sp['ttt']}")
    vals = ", ".join(_val(k, ty, seed, lo, hi, i) for i, (n, ty, k, lo, hi) in enumerate(sp["cols"]))
    names = ", ".join(n for n, *_ in sp["cols"])
    xcol, xval = "", ""
    if "extra" in sp:
        lo, hi = sp["extra"]
        xcol, xval = ", note", f", encode(pt_cf_rnd({seed}, -g, pt_cf_len({seed}, -g, {lo // 2}, {hi // 2})), 'hex')"
    stor = "".join(f"ALTER TABLE {t} ALTER COLUMN {n} SET STORAGE {sp['storage']};\n"
                   for n, *_ in sp["cols"]) if "storage" in sp else ""
    sql(f"""DROP TABLE IF EXISTS {t};
CREATE TABLE {t} (id int PRIMARY KEY, {cols}{extra}) WITH ({', '.join(opts)});
{stor}INSERT INTO {t} (id, {names}{xcol}) SELECT g, {vals}{xval} FROM generate_series(1, {sp['rows']}) g;
""")
    sql(f"VACUUM ANALYZE {t}")


def measure(case):
    t = case.table
    heap, toast, tidx, rows = (int(x) for x in sql(f"""
SELECT pg_relation_size(c.oid), coalesce(pg_relation_size(c.reltoastrelid), 0),
       coalesce((SELECT sum(pg_relation_size(i.indexrelid)) FROM pg_index i
                 WHERE i.indrelid = c.reltoastrelid), 0),
       (SELECT count(*) FROM {t})
FROM pg_class c WHERE c.oid = '{t}'::regclass""").split())
    # rows with a TOAST pointer among their attributes (live tuples only:
    # the table was vacuumed, and no one else writes it). One object
    # column: a TOASTed value per row, counted in the TOAST relation
    if len(case.columns) == 1:
        toastrel = sql(f"SELECT reltoastrelid::regclass FROM pg_class WHERE oid = '{t}'::regclass")
        ext = int(sql(f"SELECT count(DISTINCT chunk_id) FROM {toastrel}")) if toast else 0
        return Measure(data_pages=heap / PAGE, outline_pages=toast / PAGE, rows=rows,
                       inline_rows=rows - ext, bytes=heap + toast + tidx,
                       detail=f"toast index {tidx // PAGE} pages")
    ext = int(sql(f"""
SELECT count(*) FROM generate_series(0, pg_relation_size('{t}') / 8192 - 1) b,
  LATERAL heap_page_item_attrs(get_raw_page('{t}', b::int), '{t}'::regclass) h
WHERE h.t_attrs IS NOT NULL AND EXISTS (
  SELECT 1 FROM unnest(h.t_attrs) a
  WHERE a IS NOT NULL AND length(a) >= 2 AND get_byte(a, 0) = 1 AND get_byte(a, 1) = 18)"""))
    return Measure(data_pages=heap / PAGE, outline_pages=toast / PAGE, rows=rows,
                   inline_rows=rows - ext, bytes=heap + toast + tidx,
                   detail=f"toast index {tidx // PAGE} pages")


def apply(case, create_sql):
    """create.sql's table statements (no ALTER SYSTEM on the shared
    server), then every row written again as an application writes it:
    each value made anew (|| '' detoasts and copies it, so the toaster
    sees it raw under the new settings: a value kept compressed from
    before would otherwise stay compressed), the table emptied and the
    rows inserted in key order (hio.c, the free space map: the path the
    model's packing follows; a VACUUM FULL alone repacks without the map)."""
    keep = [ln for ln in open(create_sql).read().splitlines()
            if not ln.lstrip().upper().startswith("ALTER SYSTEM")]
    sql("\n".join(keep) + "\n")
    t = case.table
    cols = case.spec["cols"]
    names = ", ".join(n for n, *_ in cols) + (", note" if "extra" in case.spec else "")
    fresh = ", ".join(f"{n} || " + ("''" if ty == "text" else "'\\x'::bytea")
                      for n, ty, *_ in cols) + (", note" if "extra" in case.spec else "")
    sql(f"""BEGIN;
CREATE TEMP TABLE pt_cf_copy ON COMMIT DROP AS SELECT id, {names} FROM {t};
TRUNCATE {t};
INSERT INTO {t} (id, {names}) SELECT id, {fresh} FROM pt_cf_copy ORDER BY id;
COMMIT;""")
    sql(f"VACUUM ANALYZE {t}")


def drop(case):
    sql(f"DROP TABLE IF EXISTS {case.table}")
