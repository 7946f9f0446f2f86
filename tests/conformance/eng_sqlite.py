"""eng_sqlite.py — conformance cases for SQLite (conformance.py).

Each case is its own database file under the driver's work directory,
created at the case's page size (PRAGMA page_size before the first table)
and loaded through Python's sqlite3 module from the seed, rows in rowid
order: random bytes (random.Random(seed, case, row)) or compressible bytes
(a random block repeated: SQLite stores both raw, the cases say so). Sizes
are drawn around the limits of docs/models.md#page-fit-sqlite, for several
page sizes: the in-leaf limit X = U - 35 of a payload (the record: header
plus column bodies), the local part of a spilled payload (M, K = M + ((P -
M) % (U - 4)), K if K <= X else M), chains of many U - 4 byte overflow
pages, several object columns, other columns of real width ("Database File
Format", 1.6 B-tree Pages and 2.1 Record Format).

pagetune samples the file through the SQLite3 ODBC driver
("Driver=SQLite3;Database=FILE;"). Measured with the dbstat virtual table:
data pages = the table b-tree's leaf and interior pages, out-of-line pages
= its overflow pages, and a row is not inline when its cell has an
overflow chain: dbstat names the first overflow page of cell c of page p
"<path of p><c>+000000", one per spilled cell. bytes = (data + overflow
pages) x page size.
"""
import os
import random
import shutil
import sqlite3
import subprocess

from conformance import Case, Fail, Measure

ENGINE = "sqlite"
_work = {"dir": None}


def available():
    if not shutil.which("sqlite3"):
        return "the sqlite3 shell is not installed"
    try:
        c = sqlite3.connect(":memory:")
        c.execute("SELECT count(*) FROM dbstat").fetchall()
        c.close()
    except sqlite3.Error:
        return "Python's sqlite3 has no dbstat (SQLITE_ENABLE_DBSTAT_VTAB)"
    p = subprocess.run(["odbcinst", "-q", "-d", "-n", "SQLite3"], capture_output=True, text=True)
    if p.returncode != 0:
        return "the SQLite3 ODBC driver is not registered (odbcinst -q -d)"
    return None


def setup(work):
    _work["dir"] = work


def teardown():
    pass


def _file(case):
    return os.path.join(_work["dir"], f"{case.table}.db")


def connect(case):
    return f"Driver=SQLite3;Database={_file(case)};"


# SQLite "Database File Format" 1.6: X = U - 35, M = ((U - 12) * 32 / 255) - 23
def limit_x(page):
    return page - 35


def limit_m(page):
    return (page - 12) * 32 // 255 - 23




def cases(rng):
    """At least 12 databases; sizes jittered by the seed around each limit.
    The sizes given are object bytes; a one-column record adds 4 header
    bytes (2-byte serial type), so payload P = n + 4."""
    j = lambda a, d=30: max(1, a + rng.randint(-d, d))
    c = []

    def add(name, note, cols, rows, page, **kw):
        spec = {"cols": cols, "rows": rows, "page": page}
        spec.update({k: v for k, v in kw.items() if k in ("extra",)})
        tol = {k: v for k, v in kw.items() if k in ("inline_tol", "known_limit", "page_tol", "bytes_tol")}
        c.append(Case(name=name, columns=[x[0] for x in cols], note=note, spec=spec, **tol))

    p = rng.choice((1024, 2048))
    x = limit_x(p) - 4  # largest object kept whole
    add("rnd_below", f"random, every payload just under X at {p // 1024}K",
        [("v", "rnd", j(x - 250), x)], 1500, p)
    p = rng.choice((4096, 8192))
    x = limit_x(p) - 4
    add("rnd_at", f"random, payloads either side of X = U - 35 at {p // 1024}K",
        [("v", "rnd", j(x - 120), j(x + 120))], 1200, p)
    p = rng.choice((2048, 4096))
    x, m = limit_x(p) - 4, limit_m(p) - 4
    add("rnd_local", f"random, one overflow page: the local part K or M at {p // 1024}K",
        [("v", "rnd", x + 1, j(x + p - 4))], 1200, p)
    p = rng.choice((1024, 2048))
    add("rnd_many", f"random, 8 to 30 overflow pages a row at {p // 1024}K",
        [("v", "rnd", j(8 * p), j(30 * p))], 250, p)
    p = rng.choice((8192, 16384))
    add("cmp_big", f"compressible 20-60 KB (stored raw) at {p // 1024}K",
        [("v", "cmp" + str(rng.choice((64, 256, 1000))), j(20000, 500), j(60000, 500))], 300, p)
    p = 4096
    add("cmp_small", "compressible 300-1500 bytes, inline, many rows a page",
        [("v", "cmp128", j(300), j(1500))], 4000, p)
    p = rng.choice((1024, 4096))
    add("small_rows", f"random 40-400 bytes: leaf packing and interior pages at {p // 1024}K",
        [("v", "rnd", j(40, 10), j(400))], 6000, p)
    p = rng.choice((2048, 4096, 8192))
    x = limit_x(p) - 4
    add("mixed", f"random, half the rows under X, half 1-3 overflow pages at {p // 1024}K",
        [("v", "mix", j(x // 3), j(x + 3 * p))], 1500, p)
    p = rng.choice((4096, 8192))
    add("multi", f"three random columns of 300-1500 bytes at {p // 1024}K",
        [("a", "rnd", j(300), j(1500)), ("b", "rnd", j(300), j(1500)),
         ("c", "rnd", j(300), j(1500))], 1500, p)
    p = rng.choice((2048, 4096))
    add("multi_big", f"two large columns, a random and a compressible, at {p // 1024}K",
        [("a", "rnd", j(p // 2), j(3 * p)), ("b", "cmp200", j(p // 4), j(2 * p))], 800, p)
    p = rng.choice((4096, 8192))
    x = limit_x(p) - 4
    add("wide_row", f"random around X beside 200-700 bytes of text at {p // 1024}K",
        [("v", "rnd", j(x - 1200), j(x + 400))], 1200, p, extra=(200, 700))
    p = rng.choice((32768, 65536))
    x = limit_x(p) - 4
    add("big_page", f"random either side of X at {p // 1024}K pages",
        [("v", "rnd", j(x - 3000, 200), j(x + 2000, 200))], 300, p)
    p = 1024
    x = limit_x(p) - 4
    add("k_rule_1k", "1K pages, payloads where K <= X and K > X alternate (M kept)",
        [("v", "rnd", x + 1, j(x + 3 * (p - 4)))], 1500, p)
    return c


def _bytes(kind, r, n):
    if kind == "rnd":
        return r.randbytes(n)
    if kind == "mix":
        kind = "rnd" if r.random() < 0.5 else "cmp200"
        return _bytes(kind, r, n)
    blk = int(kind[3:] or 256)
    b = r.randbytes(blk)
    return (b * (n // blk + 1))[:n]


def _rows(case, seed):
    sp = case.spec
    for g in range(1, sp["rows"] + 1):
        r = random.Random(f"{seed}-{case.name}-{g}")
        vals = []
        for i, (_, kind, lo, hi) in enumerate(sp["cols"]):
            if kind == "mix":
                n = r.randint(lo, lo + (lo // 2)) if r.random() < 0.5 else r.randint(hi - hi // 3, hi)
            else:
                n = r.randint(min(lo, hi), max(lo, hi))
            vals.append(_bytes(kind, r, n))
        if "extra" in sp:
            lo, hi = sp["extra"]
            vals.append("n" * r.randint(lo, hi))
        yield (g, *vals)


def create(case, seed):
    f, sp = _file(case), case.spec
    if os.path.exists(f):
        os.unlink(f)
    cols = ", ".join(f"{n} BLOB" for n, *_ in sp["cols"])
    extra = ", note TEXT" if "extra" in sp else ""
    n = len(sp["cols"]) + 1 + (1 if "extra" in sp else 0)
    c = sqlite3.connect(f)
    try:
        c.execute(f"PRAGMA page_size = {sp['page']}")
        c.execute(f"CREATE TABLE {case.table} (id INTEGER PRIMARY KEY, {cols}{extra})")
        c.executemany(f"INSERT INTO {case.table} VALUES ({', '.join('?' * n)})", _rows(case, seed))
        c.commit()
    finally:
        c.close()


def measure(case):
    c = sqlite3.connect(_file(case))
    try:
        page = c.execute("PRAGMA page_size").fetchone()[0]
        by = dict(c.execute("SELECT pagetype, count(*) FROM dbstat WHERE name = ? GROUP BY pagetype",
                            (case.table,)).fetchall())
        spilled = c.execute("SELECT count(*) FROM dbstat WHERE name = ? AND pagetype = 'overflow' "
                            "AND path LIKE '%+000000'", (case.table,)).fetchone()[0]
        rows = c.execute(f"SELECT count(*) FROM {case.table}").fetchone()[0]
    finally:
        c.close()
    data = by.get("leaf", 0) + by.get("internal", 0)
    ovf = by.get("overflow", 0)
    return Measure(data_pages=data, outline_pages=ovf, rows=rows, inline_rows=rows - spilled,
                   bytes=(data + ovf) * page,
                   detail=f"page {page}, {by.get('internal', 0)} interior pages")


def apply(case, create_sql):
    """create.sql through the sqlite3 shell (PRAGMA page_size + VACUUM),
    then every row rewritten (a new record for each row, through the
    b-tree's insert) and the file vacuumed."""
    with open(create_sql) as fh:
        p = subprocess.run(["sqlite3", "-bail", _file(case)], stdin=fh, capture_output=True, text=True)
    if p.returncode != 0:
        raise Fail(f"sqlite3 < create.sql: {p.stderr.strip()[-600:]}")
    c = sqlite3.connect(_file(case))
    try:
        sets = ", ".join(f"{n} = {n}" for n, *_ in case.spec["cols"])
        c.execute(f"UPDATE {case.table} SET {sets}")
        c.commit()
        c.execute("VACUUM")
    finally:
        c.close()


def drop(case):
    if os.path.exists(_file(case)):
        os.unlink(_file(case))
