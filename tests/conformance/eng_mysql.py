"""eng_mysql.py — conformance cases for MariaDB / InnoDB (conformance.py).

Tables are generated on the server from the seed (SHA2-512 of seed, row,
column and piece: random bytes; a random block repeated: compressible
bytes, which InnoDB stores as they are), rows inserted in key order, their
sizes drawn around the limits of docs/models.md#page-fit-mysql at the
server's page size (16K on the test server): the largest record a page
takes (page_zip_rec_needs_ext(): a record of half the free space of an
empty page or more, 8126 bytes at 16K, moves columns off-page), the
payload of one BLOB page (multi-page BLOB chains), the longest-column-first
rule for several large columns (dtuple_convert_big_rec()), ROW_FORMAT
DYNAMIC, COMPACT and REDUNDANT (768-byte prefix kept in the row), and
other columns of real width.

Measured from the tablespace file (the engine is the judge): after FLUSH
TABLES ... FOR EXPORT the table's .ibd is read page by page. Pages are
counted by FIL_PAGE_TYPE (FIL header offset 24: 17855 INDEX, 10 BLOB);
INDEX pages count as data pages when their PAGE_INDEX_ID (page header
offset 28) is the clustered index's, whose root is page 3 of a
file-per-table tablespace. The clustered index's leaf records are walked
from the infimum along their next-record pointers, and a row is inline
when none of its fields carries the external flag: COMPACT/DYNAMIC
records (rem0rec.cc rec_init_offsets_comp_ordinary: 5-byte header, NULL
bitmap, then the lengths of the variable fields backwards, a 2-byte length
with 0x40 marks an external field) and REDUNDANT ones (6-byte header, the
end offsets of all fields backwards, 2-byte offsets with 0x4000 external,
REC_2BYTE_EXTERN_MASK).
"""
import os
import struct
import subprocess

from conformance import Case, Fail, Measure

ENGINE = "mysql"
FIL_PAGE_INDEX, FIL_PAGE_TYPE_BLOB = 17855, 10
_env = {"page": 16384, "datadir": None}


def available():
    for v in ("PT_MARIADB_CONNECT", "PT_MARIADB_SOCK"):
        if not os.environ.get(v):
            return f"{v} is not set (start scripts/test-servers.sh and source servers.env)"
    return None


def sql(text):
    p = subprocess.run(
        ["mariadb", "--no-defaults", "--socket=" + os.environ["PT_MARIADB_SOCK"], "-uroot",
         "-N", "-B", "pagetune"],
        input="SET SESSION group_concat_max_len = 268435456;\n" + text,
        capture_output=True, text=True)
    if p.returncode != 0:
        raise Fail(f"mariadb: {p.stderr.strip()[-600:]}")
    return p.stdout.strip()


def setup(work):
    page, datadir = sql("SELECT @@innodb_page_size, @@datadir").split("\t")
    _env["page"], _env["datadir"] = int(page), datadir


def teardown():
    pass


def connect(case):
    return os.environ["PT_MARIADB_CONNECT"]


def _len(s, salt, lo, hi):
    return f"({lo} + CRC32(CONCAT({s}, '-', g.seq, '-', {salt})) % {hi - lo + 1})"


def _rnd(s, salt, n, hi):
    """n random bytes: SHA2-512 pieces of (seed, row, column, piece)."""
    k = hi // 64 + 1
    return (f"(SELECT LEFT(GROUP_CONCAT(UNHEX(SHA2(CONCAT({s}, '-', g.seq, '-', {salt}, '-', p.seq),"
            f" 512)) ORDER BY p.seq SEPARATOR ''), {n}) FROM seq_1_to_{k} p"
            f" WHERE p.seq <= CEIL({n} / 64))")


def _val(kind, s, lo, hi, salt):
    """SQL for one object value of row g.seq."""
    n = _len(s, salt, lo, hi)
    if kind == "rnd":
        return _rnd(s, salt, n, hi)
    blk = int(kind[3:] or 256)  # cmpNNN: a random block of NNN bytes repeated
    return f"LEFT(REPEAT({_rnd(s, salt, blk, blk)}, CEIL({n} / {blk})), {n})"


def cases(rng):
    """At least 12 tables; sizes jittered by the seed around each limit
    (16K page: a one-column record keeps its value up to 8096 bytes)."""
    j = lambda a, d=40: a + rng.randint(-d, d)
    c = []

    def add(name, note, cols, rows, **kw):
        spec = {"cols": cols, "rows": rows}
        spec.update({k: v for k, v in kw.items() if k in ("row_format", "extra")})
        tol = {k: v for k, v in kw.items() if k in ("inline_tol", "known_limit", "page_tol", "bytes_tol")}
        c.append(Case(name=name, columns=[x[0] for x in cols], note=note, spec=spec, **tol))

    # (column, type, kind, lo, hi)
    add("rnd_small", "random 1-4 KB, all in the row (2 to 8 rows a page)",
        [("v", "longblob", "rnd", j(1000), j(4000))], 1500)
    add("rnd_below", "random, just under the record limit (inline up to 8096)",
        [("v", "longblob", "rnd", j(7000, 100), 8080)], 400)
    add("rnd_at", "random, either side of the record limit",
        [("v", "longblob", "rnd", j(7950, 60), j(8250, 60))], 500)
    add("rnd_above", "random, just over the limit: one BLOB page each",
        [("v", "longblob", "rnd", 8110, j(12000, 200))], 300)
    add("rnd_chain", "random 16-60 KB: multi-page BLOB chains (16330-byte pages)",
        [("v", "longblob", "rnd", j(16000, 500), j(60000, 2000))], 80)
    add("cmp_at", "compressible, either side of the limit (stored uncompressed)",
        [("v", "longblob", "cmp" + str(rng.choice((256, 500, 1000))), j(7800, 60),
          j(8400, 60))], 400)
    add("cmp_big", "compressible 10-30 KB, off-page uncompressed",
        [("v", "mediumblob", "cmp512", j(10000, 300), j(30000, 1000))], 150)
    add("compact", "ROW_FORMAT=COMPACT, random 2-20 KB (768-byte prefix in the row)",
        [("v", "longblob", "rnd", j(2000), j(20000, 500))], 250, row_format="COMPACT")
    add("redundant", "ROW_FORMAT=REDUNDANT, random 4-14 KB",
        [("v", "longblob", "rnd", j(4000), j(14000, 300))], 300, row_format="REDUNDANT")
    add("compact_small", "ROW_FORMAT=COMPACT, random 1-6 KB, mostly in the row",
        [("v", "longblob", "rnd", j(1000), j(6000, 200))], 600, row_format="COMPACT")
    add("multi_small", "three random columns of 300-1500 bytes, all in the row",
        [("a", "blob", "rnd", j(300), 1500), ("b", "blob", "rnd", j(300), 1500),
         ("c", "blob", "rnd", j(300), 1500)], 800)
    add("multi_big", "two random columns of 3-7 KB: the longest goes off-page first",
        [("a", "longblob", "rnd", j(3000), j(7000, 100)),
         ("b", "longblob", "rnd", j(3000), j(7000, 100))], 300,
        page_tol=0.85, bytes_tol=0.3, known_limit="limit-mysql-multi-column")
    add("wide_row", "random 4-9 KB beside 600-1500 bytes of other columns",
        [("v", "longblob", "rnd", j(4000), j(9000, 100))], 400, extra=(600, 1500),
        inline_tol=4, page_tol=0.10, known_limit="limit-mysql-row-rest")
    add("wide_small", "random 500-3000 bytes beside 100-400 bytes of other columns",
        [("v", "longblob", "rnd", j(500), j(3000))], 1500, extra=(100, 400))
    return c


# other columns of real width (extra): fixed-width and short ones NOT
# NULL, a long varbinary note of the jittered width, nullable
EXTRA_COLS = "created datetime NOT NULL, state int NOT NULL, tag varbinary(40) NOT NULL, note varbinary(3000)"


def _layout(case):
    """The clustered index record's variable-length fields, in order:
    (big, nullable); big = DATA_BIG_COL (max length > 255 or a BLOB), and
    the number of nullable fields (the NULL bitmap)."""
    var = [(True, True) for _ in case.spec["cols"]]
    if "extra" in case.spec:
        var += [(False, False), (True, True)]  # tag, note
    return var, sum(1 for _, nul in var if nul)


def create(case, seed):
    sp, t = case.spec, case.table
    cols = ", ".join(f"{n} {ty}" for n, ty, *_ in sp["cols"])
    extra = ", " + EXTRA_COLS if "extra" in sp else ""
    rf = sp.get("row_format", "DYNAMIC")
    vals = ", ".join(_val(k, seed, lo, hi, i) for i, (n, ty, k, lo, hi) in enumerate(sp["cols"]))
    names = ", ".join(n for n, *_ in sp["cols"])
    xcol, xval = "", ""
    if "extra" in sp:
        lo, hi = sp["extra"]
        # 5 + 4 + 40 bytes fixed-ish, the rest in note
        xcol = ", created, state, tag, note"
        xval = (f", '2026-01-01' + INTERVAL g.seq SECOND, g.seq * 7, LEFT(SHA2(g.seq, 256), 40)"
                f", {_rnd(seed, 99, _len(seed, 99, max(1, lo - 49), hi - 49), hi)}")
    sql(f"""DROP TABLE IF EXISTS {t};
CREATE TABLE {t} (id bigint NOT NULL PRIMARY KEY, {cols}{extra}) ENGINE=InnoDB ROW_FORMAT={rf};
INSERT INTO {t} (id, {names}{xcol}) SELECT g.seq, {vals}{xval} FROM seq_1_to_{sp['rows']} g ORDER BY g.seq;
""")


def _walk_leaf(pg, psize, var, n_null):
    """Ordinary records of one leaf page and how many have an external
    field. Returns (records, external)."""
    comp = struct.unpack_from(">H", pg, 38 + 4)[0] & 0x8000
    recs = ext = 0
    if comp:
        off, sup = 99, 112          # PAGE_NEW_INFIMUM, PAGE_NEW_SUPREMUM
    else:
        off, sup = 101, 116         # PAGE_OLD_INFIMUM, PAGE_OLD_SUPREMUM
    for _ in range(psize):
        nxt = struct.unpack_from(">H", pg, off - 2)[0]
        off = (off + nxt) % psize if comp else nxt
        if off == sup or off == 0:
            break
        recs += 1
        if comp:
            if struct.unpack_from(">H", pg, off - 4)[0] & 7:
                raise Fail(f"InnoDB parser: a leaf record of type {pg[off - 3] & 7}")
            nulls, bit = off - 6, 1
            lens = off - 5 - (n_null + 7) // 8 - 1
            has = False
            for big, nullable in var:
                if nullable:
                    isnull = pg[nulls] & bit
                    bit <<= 1
                    if bit == 256:
                        nulls, bit = nulls - 1, 1
                    if isnull:
                        continue
                b = pg[lens]
                lens -= 1
                if big and b & 0x80:
                    has = has or bool(b & 0x40)
                    lens -= 1
            ext += has
        else:
            nf = (struct.unpack_from(">H", pg, off - 4)[0] & 0x7FE) >> 1
            if not pg[off - 3] & 1:  # 2-byte offsets; 1-byte ones have no external flag
                ext += any(struct.unpack_from(">H", pg, off - 6 - 2 * (i + 1))[0] & 0x4000
                           for i in range(nf))
    return recs, ext


def measure(case):
    t = case.table
    rows = int(sql(f"FLUSH TABLES {t} FOR EXPORT; SELECT COUNT(*) FROM {t}; UNLOCK TABLES;"))
    ps = _env["page"]
    path = os.path.join(_env["datadir"], "pagetune", t + ".ibd")
    data = open(path, "rb").read()
    var, n_null = _layout(case)
    n = len(data) // ps
    clust = struct.unpack_from(">Q", data, 3 * ps + 38 + 28)[0]
    idx = blob = other_idx = recs = ext = 0
    for i in range(n):
        pg = data[i * ps:(i + 1) * ps]
        ty = struct.unpack_from(">H", pg, 24)[0]
        if ty == FIL_PAGE_TYPE_BLOB:
            blob += 1
        elif ty == FIL_PAGE_INDEX:
            if struct.unpack_from(">Q", pg, 38 + 28)[0] != clust:
                other_idx += 1
                continue
            idx += 1
            if struct.unpack_from(">H", pg, 38 + 26)[0] == 0:  # PAGE_LEVEL: a leaf
                r, e = _walk_leaf(pg, ps, var, n_null)
                recs, ext = recs + r, ext + e
    if recs != rows:
        raise Fail(f"InnoDB parser: {recs} leaf records in {path}, COUNT(*) {rows}")
    return Measure(data_pages=idx, outline_pages=blob, rows=rows, inline_rows=rows - ext,
                   bytes=(idx + blob) * ps,
                   detail=f"{n} pages in the file, {other_idx} of other indexes")


def apply(case, create_sql):
    """create.sql's table statements (no SET GLOBAL on the shared server);
    then, unless they rebuilt the table, ALTER TABLE ... FORCE rewrites
    every row (the rebuild InnoDB does for ROW_FORMAT too)."""
    text = "\n".join(ln for ln in open(create_sql).read().splitlines()
                     if not ln.lstrip().startswith("--"))
    keep = [s.strip() for s in text.split(";")
            if s.strip() and not s.strip().upper().startswith("SET GLOBAL")]
    t = case.table
    rebuilt = any(s.upper().startswith("ALTER TABLE") for s in keep)
    if keep:
        sql(";\n".join(keep) + ";\n")
    if not rebuilt:
        sql(f"ALTER TABLE {t} FORCE")


def drop(case):
    sql(f"DROP TABLE IF EXISTS {case.table}")
