/* SPDX-License-Identifier: Apache-2.0 */
/*
 * store.c — the built-in session store: one SQLite database laid out like
 * the SESSIONS table WebSphere's session manager creates in DB2, with its
 * placement rule (an object goes to exactly one of SMALL, MEDIUM, LARGE;
 * the other two stay NULL).
 *
 * Storage: a rowid table with PRIMARY KEY (ID, PROPID, APPNAME), so the key
 * lives in an index and the row in the table b-tree. A rowid table matters:
 * its leaf cells keep up to U-35 bytes of payload local (U = usable page
 * size) and spill the rest to overflow pages (SQLite "Database File Format"
 * §1.6, https://www.sqlite.org/fileformat2.html#b_tree_pages), the SQLite
 * analogue of DB2 moving a session out of the buffered SMALL VARCHAR. A
 * WITHOUT ROWID table would spill at about a quarter page instead.
 *
 * Objects are BLOBs (SQLite's length() counts characters for TEXT; the
 * collect/ sampler reads lengths through ODBC). WAL journal; durability is
 * PRAGMA synchronous (store.h). Every statement is prepared once per
 * connection and reused. SQLITE_BUSY is retried until busy_timeout_ms has
 * passed, so concurrent connections never see it as a failure.
 *
 * Two storage semantics (store_config.lob_area):
 *   SQLite's: every object in its row; past U-35 bytes the rest goes to
 *   overflow pages, which share the page cache and are logged to the WAL
 *   as whole pages, like the rows.
 *   DB2's: an object WebSphere places in MEDIUM or LARGE lives in the LOB
 *   area (lob.c), outside the page cache and the WAL, read and written per
 *   access like DB2's LONG VARCHAR / LOB data, which bypasses the buffer
 *   pool. The row keeps a locator (LOBCOL, LOBLEN, LOBOFF, LOBCAP,
 *   LOBSLOT, LOBGEN); MEDIUM and LARGE become virtual columns that read as
 *   a zero-filled BLOB of the object's length, so length() and IS NULL
 *   still tell where an object is and how big (collect/'s sampler).
 *   A session owns a home of two slots and writes them alternately: the
 *   record the committed row names is never overwritten in place. One set
 *   is one write transaction: BEGIN IMMEDIATE, pick the slot (or take a
 *   home from LOBSPACE, the free list, or from the end of the area,
 *   LOBMETA.END), write the record (and fdatasync it with synchronous =
 *   FULL), then write the row and COMMIT. A crash before the commit leaves
 *   the old row naming the old record; space taken by the lost transaction
 *   is free again because its allocation rolled back with it, and opening
 *   the store cuts the file back to END. Deletes and expiry put homes on
 *   the free list in the same transaction as the row's removal.
 *
 * This file is the one place SQLite result codes become PT_* statuses
 * (store_rc_status). Neighbours: store/replay.c drives it; store.h is the
 * contract.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <sqlite3.h>

#include "store/lob.h"
#include "store/reclog.h"
#include "store/store.h"

/* WebSphere writes the virtual host and web module as APPNAME. */
#define STORE_DEFAULT_APP "default_host/pagetune"
#define STORE_DEFAULT_BUSY_MS 30000u

/* WebSphere's DB2 SESSIONS table with SQLite types: the three object
 * columns are BLOB (DB2: VARCHAR(s) FOR BIT DATA, LONG VARCHAR FOR BIT DATA,
 * BLOB(2M)). */
static const char store_schema[] = "CREATE TABLE SESSIONS ("
                                   " ID VARCHAR(128) NOT NULL,"
                                   " PROPID VARCHAR(128) NOT NULL,"
                                   " APPNAME VARCHAR(128) NOT NULL,"
                                   " LISTENERCNT SMALLINT,"
                                   " LASTACCESS BIGINT,"
                                   " CREATIONTIME BIGINT,"
                                   " MAXINACTIVETIME INTEGER,"
                                   " USERNAME VARCHAR(256),"
                                   " SMALL BLOB,"
                                   " MEDIUM BLOB,"
                                   " LARGE BLOB,"
                                   " PRIMARY KEY (ID, PROPID, APPNAME))";

/* Single-row mode: PROPID = ID, as WebSphere writes the main row. */
const char store_sql_get[] =
    "SELECT SMALL, MEDIUM, LARGE, LASTACCESS, CREATIONTIME, MAXINACTIVETIME"
    " FROM SESSIONS WHERE ID = ?1 AND PROPID = ?1 AND APPNAME = ?2";
const char store_sql_set[] =
    "INSERT INTO SESSIONS (ID, PROPID, APPNAME, LISTENERCNT, LASTACCESS,"
    " CREATIONTIME, MAXINACTIVETIME, USERNAME, SMALL, MEDIUM, LARGE)"
    " VALUES (?1, ?1, ?2, 0, ?3, ?3, ?4, 'anonymous', ?5, ?6, ?7)"
    " ON CONFLICT (ID, PROPID, APPNAME) DO UPDATE SET"
    " LASTACCESS = excluded.LASTACCESS,"
    " MAXINACTIVETIME = excluded.MAXINACTIVETIME,"
    " SMALL = excluded.SMALL, MEDIUM = excluded.MEDIUM,"
    " LARGE = excluded.LARGE";
static const char sql_del[] = "DELETE FROM SESSIONS WHERE ID = ?1 AND "
                              "PROPID = ?1 AND APPNAME = ?2";
static const char sql_expire[] =
    "DELETE FROM SESSIONS WHERE APPNAME = ?2 AND MAXINACTIVETIME >= 0"
    " AND LASTACCESS + MAXINACTIVETIME * 1000 < ?1";
static const char sql_count[] = "SELECT count(*) FROM SESSIONS";

/* ---- DB2 semantics: the LOB area's tables and statements ---------------- */

static const char *const store_schema_lob[] = {
    "CREATE TABLE SESSIONS ("
    " ID VARCHAR(128) NOT NULL,"
    " PROPID VARCHAR(128) NOT NULL,"
    " APPNAME VARCHAR(128) NOT NULL,"
    " LISTENERCNT SMALLINT,"
    " LASTACCESS BIGINT,"
    " CREATIONTIME BIGINT,"
    " MAXINACTIVETIME INTEGER,"
    " USERNAME VARCHAR(256),"
    " SMALL BLOB,"
    " LOBCOL INTEGER," /* 1 MEDIUM, 2 LARGE, NULL: in the row */
    " LOBLEN INTEGER,"
    " LOBOFF INTEGER," /* the home: 2 slots of LOBCAP bytes at LOBOFF */
    " LOBCAP INTEGER,"
    " LOBSLOT INTEGER," /* the slot holding the current record */
    " LOBGEN INTEGER,"  /* its generation */
    " LOGSEQ INTEGER,"  /* the record log's last record applied to the row */
    " MEDIUM BLOB GENERATED ALWAYS AS"
    " (CASE LOBCOL WHEN 1 THEN zeroblob(LOBLEN) END) VIRTUAL,"
    " LARGE BLOB GENERATED ALWAYS AS"
    " (CASE LOBCOL WHEN 2 THEN zeroblob(LOBLEN) END) VIRTUAL,"
    " PRIMARY KEY (ID, PROPID, APPNAME))",
    ("CREATE TABLE LOBSPACE (CAP INTEGER NOT NULL, OFF INTEGER NOT NULL,"
     " PRIMARY KEY (CAP, OFF)) WITHOUT ROWID"),
    ("CREATE TABLE LOBMETA (K INTEGER PRIMARY KEY, END INTEGER NOT NULL,"
     " LOGSEQ INTEGER NOT NULL)"),
    "INSERT INTO LOBMETA VALUES (1, 0, 0)",
};

static const char sql_lget[] =
    "SELECT SMALL, LOBCOL, LOBLEN, LOBOFF, LOBCAP, LOBSLOT, LOBGEN,"
    " LASTACCESS, CREATIONTIME, MAXINACTIVETIME"
    " FROM SESSIONS WHERE ID = ?1 AND PROPID = ?1 AND APPNAME = ?2";
static const char sql_lhome[] =
    "SELECT LOBOFF, LOBCAP, LOBSLOT, LOBGEN FROM SESSIONS"
    " WHERE ID = ?1 AND PROPID = ?1 AND APPNAME = ?2";
static const char sql_lset[] =
    "INSERT INTO SESSIONS (ID, PROPID, APPNAME, LISTENERCNT, LASTACCESS,"
    " CREATIONTIME, MAXINACTIVETIME, USERNAME, SMALL, LOBCOL, LOBLEN, LOBOFF,"
    " LOBCAP, LOBSLOT, LOBGEN, LOGSEQ)"
    " VALUES (?1, ?1, ?2, 0, ?3, ?3, ?4, 'anonymous', ?5, ?6, ?7, ?8, ?9,"
    " ?10, ?11, ?12)"
    " ON CONFLICT (ID, PROPID, APPNAME) DO UPDATE SET"
    " LASTACCESS = excluded.LASTACCESS,"
    " MAXINACTIVETIME = excluded.MAXINACTIVETIME, SMALL = excluded.SMALL,"
    " LOBCOL = excluded.LOBCOL, LOBLEN = excluded.LOBLEN,"
    " LOBOFF = excluded.LOBOFF, LOBCAP = excluded.LOBCAP,"
    " LOBSLOT = excluded.LOBSLOT, LOBGEN = excluded.LOBGEN,"
    " LOGSEQ = excluded.LOGSEQ";
static const char sql_ftake[] =
    "SELECT OFF FROM LOBSPACE WHERE CAP = ?1 LIMIT 1";
static const char sql_fdel[] = "DELETE FROM LOBSPACE WHERE CAP = ?1 AND "
                               "OFF = ?2";
static const char sql_fput[] = "INSERT INTO LOBSPACE (CAP, OFF) VALUES (?1, "
                               "?2)";
static const char sql_eget[] = "SELECT END FROM LOBMETA WHERE K = 1";
static const char sql_eset[] = "UPDATE LOBMETA SET END = ?1 WHERE K = 1";
/* A delete's or an expiry's record: no row keeps its sequence number. */
static const char sql_lseq[] =
    "UPDATE LOBMETA SET LOGSEQ = max(LOGSEQ, ?1) WHERE K = 1";
/* The last record whose change SQLite has committed: records commit in log
 * order (both under the write lock), so every record up to it has. */
static const char sql_lmax[] =
    "SELECT max(coalesce((SELECT max(LOGSEQ) FROM SESSIONS), 0),"
    " (SELECT LOGSEQ FROM LOBMETA WHERE K = 1))";
static const char sql_efree[] =
    "INSERT INTO LOBSPACE (CAP, OFF) SELECT LOBCAP, LOBOFF FROM SESSIONS"
    " WHERE APPNAME = ?2 AND MAXINACTIVETIME >= 0"
    " AND LASTACCESS + MAXINACTIVETIME * 1000 < ?1 AND LOBOFF IS NOT NULL";

struct store {
    sqlite3 *db;
    sqlite3_stmt *get, *set, *del, *expire, *count;
    /* DB2 semantics only (lob): */
    sqlite3_stmt *lget, *lhome, *lset, *ftake, *fdel, *fput, *eget, *eset,
        *efree, *tbegin, *tcommit, *trollback, *lseq, *lmax;
    int lob;              /* the store has a LOB area */
    struct lob_file lobf; /* "<path>-lob" */
    struct reclog log;    /* "<path>-log", with the LOB area */
    int replaying;        /* redo: what it applies is not logged again */
    uint64_t group_bytes; /* deferred writes: log bytes of the open
                             transaction's operations (its group); 0: none */
    uint64_t redone;      /* records store_open applied (redo) */
    struct store_config cfg;
    const char *app;
    int app_len;
    uint64_t busy_retries;
    char path[4096];
};

static int store_redo(struct store *s, uint64_t *applied, struct pt_err *err);

/* ---- SQLite result codes → PT_* (the one place) ------------------------- */

int store_rc_status(int rc)
{
    switch (rc & 0xff) {
    case SQLITE_OK:
    case SQLITE_ROW:
    case SQLITE_DONE:
        return PT_OK;
    case SQLITE_FULL:
    case SQLITE_IOERR:
        return PT_EIO;
    case SQLITE_CANTOPEN:
    case SQLITE_READONLY:
    case SQLITE_PERM:
        return PT_ECANTCREAT;
    case SQLITE_CORRUPT:
    case SQLITE_NOTADB:
    case SQLITE_FORMAT:
    case SQLITE_TOOBIG:
        return PT_EDATA;
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
        return PT_EUNAVAIL;
    case SQLITE_INTERRUPT:
        return PT_EINTR;
    case SQLITE_AUTH:
        return PT_EPERM;
    default: /* NOMEM, MISUSE, CONSTRAINT, INTERNAL, ...: our bug */
        return PT_EINTERNAL;
    }
}

static int store_fail(sqlite3 *db, int rc, struct pt_err *err, const char *what,
                      const char *path)
{
    const char *msg = db ? sqlite3_errmsg(db) : sqlite3_errstr(rc);
    return err_set(err, store_rc_status(rc), "%s '%s': %s", what, path, msg);
}

/* ---- configuration ------------------------------------------------------ */

void store_config_init(struct store_config *cfg)
{
    memset(cfg, 0, sizeof(*cfg));
    cfg->page_size_bytes = 4096;
    cfg->sync = STORE_SYNC_NORMAL;
}

int store_page_size_valid(uint32_t page_size_bytes)
{
    /* https://www.sqlite.org/pragma.html#pragma_page_size: a power of two
     * between 512 and 65536 inclusive. */
    return page_size_bytes >= 512 && page_size_bytes <= 65536 &&
           (page_size_bytes & (page_size_bytes - 1)) == 0;
}

enum store_column store_place(const struct store_config *cfg, uint64_t n)
{
    if (n <= cfg->small_max_bytes)
        return STORE_COL_SMALL;
    if (n <= cfg->medium_max_bytes)
        return STORE_COL_MEDIUM;
    if (n <= cfg->large_max_bytes)
        return STORE_COL_LARGE;
    return STORE_COL_NONE;
}

const char *store_column_name(enum store_column col)
{
    switch (col) {
    case STORE_COL_SMALL:
        return "SMALL";
    case STORE_COL_MEDIUM:
        return "MEDIUM";
    case STORE_COL_LARGE:
        return "LARGE";
    default:
        return "NONE";
    }
}

/* ---- statements with busy retry ----------------------------------------- */

/*
 * Step with retry: busy_timeout already waits inside SQLite, but some
 * SQLITE_BUSY cases return at once (WAL recovery, a read snapshot that
 * cannot be upgraded); those are retried with a short backoff until the
 * connection's busy_timeout_ms is spent.
 */
static int store_step(struct store *s, sqlite3_stmt *st)
{
    uint64_t deadline = 0;
    long sleep_us = 50;

    for (;;) {
        int rc = sqlite3_step(st);
        int prim = rc & 0xff;
        if (prim != SQLITE_BUSY && prim != SQLITE_LOCKED)
            return rc;
        uint64_t now = pt_now_ns();
        if (deadline == 0)
            deadline = now + (uint64_t)s->cfg.busy_timeout_ms * 1000000u;
        else if (now > deadline)
            return rc;
        sqlite3_reset(st);
        s->busy_retries++;
        struct timespec ts = {0, sleep_us * 1000};
        nanosleep(&ts, NULL);
        if (sleep_us < 10000)
            sleep_us *= 2;
    }
}

static int store_exec(struct store *s, const char *sql, struct pt_err *err)
{
    sqlite3_stmt *st = NULL;
    int rc = sqlite3_prepare_v2(s->db, sql, -1, &st, NULL);
    if (rc == SQLITE_OK) {
        do
            rc = store_step(s, st);
        while (rc == SQLITE_ROW);
    }
    if (rc != SQLITE_DONE) {
        int ret = err_set(err, store_rc_status(rc), "store '%s': %s: %s",
                          s->path, sql, sqlite3_errmsg(s->db));
        sqlite3_finalize(st);
        return ret;
    }
    sqlite3_finalize(st);
    return 0;
}

/* One integer from a one-row query (PRAGMA page_size, count(*) ...). */
/* Run a one-row query and read its first n integer columns into out[]. */
static int store_query_row(struct store *s, const char *sql, int64_t *out,
                           int n, struct pt_err *err)
{
    sqlite3_stmt *st = NULL;
    int rc = sqlite3_prepare_v2(s->db, sql, -1, &st, NULL);
    if (rc == SQLITE_OK)
        rc = store_step(s, st);
    if (rc != SQLITE_ROW) {
        int ret =
            err_set(err, store_rc_status(rc ? rc : SQLITE_INTERNAL),
                    "store '%s': %s: %s", s->path, sql, sqlite3_errmsg(s->db));
        sqlite3_finalize(st);
        return ret;
    }
    for (int i = 0; i < n; i++)
        out[i] = sqlite3_column_int64(st, i);
    sqlite3_finalize(st);
    return 0;
}

static int store_query_i64(struct store *s, const char *sql, int64_t *out,
                           struct pt_err *err)
{
    return store_query_row(s, sql, out, 1, err);
}

static int store_prepare(struct store *s, struct pt_err *err)
{
    static const struct {
        const char *sql;
        size_t off;
    } stmts[] = {
        {store_sql_get, offsetof(struct store, get)},
        {store_sql_set, offsetof(struct store, set)},
        {sql_del, offsetof(struct store, del)},
        {sql_expire, offsetof(struct store, expire)},
        {sql_count, offsetof(struct store, count)},
        {sql_lget, offsetof(struct store, lget)},
        {sql_lhome, offsetof(struct store, lhome)},
        {sql_lset, offsetof(struct store, lset)},
        {sql_ftake, offsetof(struct store, ftake)},
        {sql_fdel, offsetof(struct store, fdel)},
        {sql_fput, offsetof(struct store, fput)},
        {sql_eget, offsetof(struct store, eget)},
        {sql_eset, offsetof(struct store, eset)},
        {sql_efree, offsetof(struct store, efree)},
        {"BEGIN IMMEDIATE", offsetof(struct store, tbegin)},
        {"COMMIT", offsetof(struct store, tcommit)},
        {"ROLLBACK", offsetof(struct store, trollback)},
        {sql_lseq, offsetof(struct store, lseq)},
        {sql_lmax, offsetof(struct store, lmax)},
    };
    /* the first five are the SQLite-semantics statements; a store with a
     * LOB area prepares them all */
    size_t n = s->lob ? sizeof(stmts) / sizeof(stmts[0]) : 5;
    for (size_t i = 0; i < n; i++) {
        if (s->lob && stmts[i].sql == store_sql_set)
            continue; /* MEDIUM and LARGE are generated: lset writes */
        sqlite3_stmt **slot = (sqlite3_stmt **)((char *)s + stmts[i].off);
        int rc = sqlite3_prepare_v3(s->db, stmts[i].sql, -1,
                                    SQLITE_PREPARE_PERSISTENT, slot, NULL);
        if (rc != SQLITE_OK)
            return store_fail(s->db, rc, err, "cannot prepare statements on",
                              s->path);
    }
    return 0;
}

/* Connection settings every connection applies (they are not persistent). */
static int store_configure(struct store *s, struct pt_err *err)
{
    static const char *const sync_names[] = {"OFF", "NORMAL", "FULL"};
    char sql[128];
    int ret;

    sqlite3_extended_result_codes(s->db, 1);
    sqlite3_busy_timeout(s->db, (int)s->cfg.busy_timeout_ms);
    snprintf(sql, sizeof(sql), "PRAGMA synchronous = %s",
             sync_names[s->cfg.sync]);
    if ((ret = store_exec(s, sql, err)) < 0)
        return ret;
    if (s->cfg.cache_bytes > 0) {
        /* Negative cache_size: a budget in KiB, so stores with different
         * page sizes get the same memory
         * (https://www.sqlite.org/pragma.html#pragma_cache_size). */
        uint64_t kib = s->cfg.cache_bytes / 1024;
        snprintf(sql, sizeof(sql), "PRAGMA cache_size = -%llu",
                 (unsigned long long)(kib ? kib : 1));
        if ((ret = store_exec(s, sql, err)) < 0)
            return ret;
    }
    if (s->cfg.max_pages > 0) {
        snprintf(sql, sizeof(sql), "PRAGMA max_page_count = %llu",
                 (unsigned long long)s->cfg.max_pages);
        if ((ret = store_exec(s, sql, err)) < 0)
            return ret;
    }
    return 0;
}

static int store_new(const char *path, const struct store_config *cfg,
                     struct store **out, struct pt_err *err)
{
    struct store *s;

    if (strlen(path) >= sizeof(s->path))
        return err_set(err, PT_ECANTCREAT, "store path too long: '%.64s...'",
                       path);
    s = pt_calloc(1, sizeof(*s));
    if (!s)
        return err_set(err, PT_EINTERNAL, "out of memory");
    s->cfg = *cfg;
    s->lobf.fd = -1;
    s->log.fd = -1;
    if (s->cfg.busy_timeout_ms == 0)
        s->cfg.busy_timeout_ms = STORE_DEFAULT_BUSY_MS;
    if ((unsigned)s->cfg.sync > STORE_SYNC_FULL)
        s->cfg.sync = STORE_SYNC_NORMAL;
    s->app = cfg->app_name ? cfg->app_name : STORE_DEFAULT_APP;
    s->app_len = (int)strlen(s->app);
    strcpy(s->path, path);
    *out = s;
    return 0;
}

/* Open the LOB area "<path>-lob" (create: a new, empty one). Its buffer
 * holds the largest object the LARGE column accepts, at most 64 MiB. */
static int store_lob_attach(struct store *s, int create, struct pt_err *err)
{
    char lpath[4096 + 8];
    uint64_t max = s->cfg.large_max_bytes;
    struct stat st;
    int ret;

    if (max == 0 || max > (UINT64_C(64) << 20))
        max = UINT64_C(64) << 20;
    snprintf(lpath, sizeof(lpath), "%s-lob", s->path);
    s->lob = 1;
    if ((ret = lob_file_open(&s->lobf, lpath, create,
                             s->cfg.lob_io == STORE_LOB_DIRECT, max, err)) < 0)
        return ret;
    /* the record log: in-row objects are at most a page (64 KiB), and
     * session ids far below the 4 KiB allowed for */
    snprintf(lpath, sizeof(lpath), "%s-log", s->path);
    if (!create && stat(lpath, &st) != 0)
        return err_set(err, PT_EDATA,
                       "store '%s' has a LOB area but no record log "
                       "'%s': it was made by an older pagetune; replay "
                       "the trace again",
                       s->path, lpath);
    if ((ret = reclog_open(&s->log, lpath, create, 4096, err)) < 0)
        return ret;
    /* SQLite's WAL is the page file's write path: its frames reach the
     * disk at checkpoints, as Db2's page cleaners write pages; a commit's
     * durability is the record log's (lob_op_end) */
    if (s->cfg.sync == STORE_SYNC_FULL)
        return store_exec(s, "PRAGMA synchronous = NORMAL", err);
    return 0;
}

/* Step a prepared transaction-control statement (BEGIN IMMEDIATE, COMMIT,
 * ROLLBACK) and reset it. */
static int store_tx(struct store *s, sqlite3_stmt *st, struct pt_err *err)
{
    int rc = store_step(s, st);
    sqlite3_reset(st);
    if (rc != SQLITE_DONE)
        return err_set(err, store_rc_status(rc), "store '%s': %s: %s", s->path,
                       sqlite3_sql(st), sqlite3_errmsg(s->db));
    return 0;
}

/* LOBMETA.END, the first byte past every home ever handed out. */
static int store_lob_end(struct store *s, uint64_t *end, struct pt_err *err)
{
    int rc = store_step(s, s->eget);
    if (rc != SQLITE_ROW) {
        sqlite3_reset(s->eget);
        return err_set(err, store_rc_status(rc ? rc : SQLITE_CORRUPT),
                       "store '%s': no LOBMETA row: %s", s->path,
                       sqlite3_errmsg(s->db));
    }
    *end = (uint64_t)sqlite3_column_int64(s->eget, 0);
    sqlite3_reset(s->eget);
    return 0;
}

/*
 * After a crash: bytes past END were written by a transaction that never
 * committed (its allocation rolled back): cut them off. Under the write
 * lock, so no other connection is writing a record meanwhile. Records in
 * free or current homes that no row names are simply never read.
 */
static int store_lob_reclaim(struct store *s, struct pt_err *err)
{
    uint64_t end = 0;
    int ret;

    if ((ret = store_tx(s, s->tbegin, err)) < 0)
        return ret;
    if ((ret = store_lob_end(s, &end, err)) == 0)
        ret = lob_file_trim(&s->lobf, end, err);
    if (ret < 0) {
        store_tx(s, s->trollback, NULL);
        return ret;
    }
    return store_tx(s, s->tcommit, err);
}

int store_create(const char *path, const struct store_config *cfg,
                 struct store **out, struct pt_err *err)
{
    struct store *s = NULL;
    struct stat stbuf;
    char sql[64];
    int64_t got = 0;
    uint32_t phys;
    int ret, rc;

    *out = NULL;
    if (!store_page_size_valid(cfg->page_size_bytes))
        return err_set(err, PT_EDATA,
                       "page size %u is not one SQLite accepts (512, 1K, "
                       "2K, 4K, 8K, 16K, 32K, 64K)",
                       cfg->page_size_bytes);
    if (stat(path, &stbuf) == 0)
        return err_set(err, PT_ECANTCREAT, "store '%s' already exists", path);
    if ((ret = store_new(path, cfg, &s, err)) < 0)
        return ret;
    rc = sqlite3_open_v2(path, &s->db,
                         SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE |
                             SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE,
                         NULL);
    if (rc != SQLITE_OK) {
        ret = store_fail(s->db, rc, err, "cannot create store", path);
        goto fail;
    }
    /* page_size first, on the connection that creates the first table. */
    phys = cfg->page_size_bytes;
    if (!store_page_size_valid(phys)) {
        ret = err_set(err, PT_EDATA, "SQLite page size %u is not valid", phys);
        goto fail;
    }
    snprintf(sql, sizeof(sql), "PRAGMA page_size = %u", phys);
    if ((ret = store_exec(s, sql, err)) < 0)
        goto fail;
    if ((ret = store_exec(s, "PRAGMA journal_mode = WAL", err)) < 0)
        goto fail;
    if ((ret = store_configure(s, err)) < 0)
        goto fail;
    if (!cfg->lob_area) {
        if ((ret = store_exec(s, store_schema, err)) < 0)
            goto fail;
    } else {
        for (size_t i = 0; i < sizeof(store_schema_lob) / sizeof(char *); i++)
            if ((ret = store_exec(s, store_schema_lob[i], err)) < 0)
                goto fail;
        if ((ret = store_lob_attach(s, 1, err)) < 0)
            goto fail;
    }
    if ((ret = store_query_i64(s, "PRAGMA page_size", &got, err)) < 0)
        goto fail;
    if ((uint64_t)got != phys) {
        ret = err_set(err, PT_EINTERNAL,
                      "store '%s': page size is %lld, asked for %u", path,
                      (long long)got, phys);
        goto fail;
    }
    if ((ret = store_query_i64(s, "PRAGMA journal_mode", &got, err)) < 0)
        goto fail;
    if ((ret = store_prepare(s, err)) < 0)
        goto fail;
    *out = s;
    return 0;
fail:
    /* The creator leaves nothing half-made behind. */
    store_close(s);
    {
        char side[4096 + 8];
        unlink(path);
        snprintf(side, sizeof(side), "%s-wal", path);
        unlink(side);
        snprintf(side, sizeof(side), "%s-shm", path);
        unlink(side);
        snprintf(side, sizeof(side), "%s-lob", path);
        unlink(side);
        snprintf(side, sizeof(side), "%s-log", path);
        unlink(side);
    }
    return ret;
}

int store_open(const char *path, const struct store_config *cfg,
               struct store **out, struct pt_err *err)
{
    struct store *s = NULL;
    struct stat stbuf;
    int64_t n = 0;
    int ret, rc;

    *out = NULL;
    if (stat(path, &stbuf) != 0)
        return err_set(err, PT_ENOINPUT, "cannot open store '%s': %s", path,
                       strerror(errno));
    if ((ret = store_new(path, cfg, &s, err)) < 0)
        return ret;
    rc = sqlite3_open_v2(path, &s->db,
                         SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX |
                             SQLITE_OPEN_EXRESCODE,
                         NULL);
    if (rc != SQLITE_OK) {
        ret = store_fail(s->db, rc, err, "cannot open store", path);
        goto fail;
    }
    if ((ret = store_configure(s, err)) < 0)
        goto fail;
    if ((ret = store_query_i64(s,
                               "SELECT count(*) FROM sqlite_schema WHERE "
                               "type = 'table' AND name = 'SESSIONS'",
                               &n, err)) < 0)
        goto fail;
    if (n != 1) {
        ret = err_set(err, PT_EDATA,
                      "'%s' is not a session store (no "
                      "SESSIONS table)",
                      path);
        goto fail;
    }
    if ((ret = store_exec(s, "PRAGMA journal_mode = WAL", err)) < 0)
        goto fail;
    if ((ret = store_query_i64(s,
                               "SELECT count(*) FROM sqlite_schema WHERE "
                               "type = 'table' AND name = 'LOBSPACE'",
                               &n, err)) < 0)
        goto fail;
    if (n == 1 && (ret = store_lob_attach(s, 0, err)) < 0)
        goto fail;
    if ((ret = store_prepare(s, err)) < 0)
        goto fail;
    if (s->lob && (ret = store_redo(s, &s->redone, err)) < 0)
        goto fail;
    if (s->lob && (ret = store_lob_reclaim(s, err)) < 0)
        goto fail;
    *out = s;
    return 0;
fail:
    store_close(s);
    return ret;
}

void store_close(struct store *s)
{
    if (!s)
        return;
    store_flush(s, NULL);
    sqlite3_finalize(s->get);
    sqlite3_finalize(s->set);
    sqlite3_finalize(s->del);
    sqlite3_finalize(s->expire);
    sqlite3_finalize(s->count);
    sqlite3_stmt *lob_stmts[] = {s->lget,  s->lhome,  s->lset,    s->ftake,
                                 s->fdel,  s->fput,   s->eget,    s->eset,
                                 s->efree, s->tbegin, s->tcommit, s->trollback,
                                 s->lseq,  s->lmax};
    for (size_t i = 0; i < sizeof(lob_stmts) / sizeof(lob_stmts[0]); i++)
        sqlite3_finalize(lob_stmts[i]);
    lob_file_close(&s->lobf);
    reclog_close(&s->log);
    sqlite3_close(s->db); /* all statements finalized: never SQLITE_BUSY */
    free(s);
}

/* ---- operations --------------------------------------------------------- */

static int store_bind_key(struct store *s, sqlite3_stmt *st, const char *id,
                          size_t id_len)
{
    int rc;
    if (id_len > INT_MAX)
        return SQLITE_TOOBIG;
    rc = sqlite3_bind_text(st, 1, id, (int)id_len, SQLITE_STATIC);
    if (rc == SQLITE_OK)
        rc = sqlite3_bind_text(st, 2, s->app, s->app_len, SQLITE_STATIC);
    return rc;
}

/* Finish a statement that failed (or succeeded) and release its bindings. */
static int store_stmt_fail(struct store *s, sqlite3_stmt *st, int rc,
                           const char *what, const char *id, size_t id_len,
                           struct pt_err *err)
{
    int ret = err_set(err, store_rc_status(rc), "store '%s': %s '%.*s': %s",
                      s->path, what, (int)(id_len > 64 ? 64 : id_len), id,
                      sqlite3_errmsg(s->db));
    sqlite3_reset(st);
    sqlite3_clear_bindings(st);
    return ret;
}

/* ---- operations with DB2 semantics (the LOB area) ----------------------- */

/* Whose record: the session id's checksum, kept in the record's header. */
static uint64_t lob_tag(const char *id, size_t id_len)
{
    return lob_checksum(id, id_len);
}

/*
 * A get: the row (and its locator) in one statement, then the record with
 * one read of the LOB area. A record that fails its check was replaced by
 * another connection's writes between the two (two sets: the home's other
 * slot, then this one): read the row again, a few times.
 */
static int lob_session_get(struct store *s, const char *id, size_t id_len,
                           struct store_session *out, void *buf, size_t cap,
                           struct pt_err *err)
{
    sqlite3_stmt *st = s->lget;
    int ret = 0;

    for (int attempt = 0; attempt < 4; attempt++) {
        int rc = store_bind_key(s, st, id, id_len);
        if (rc == SQLITE_OK)
            rc = store_step(s, st);
        if (rc == SQLITE_DONE) {
            sqlite3_reset(st);
            return 0;
        }
        if (rc != SQLITE_ROW)
            return store_stmt_fail(s, st, rc, "cannot read session", id, id_len,
                                   err);
        memset(out, 0, sizeof(*out));
        out->last_access_ms = sqlite3_column_int64(st, 7);
        out->creation_ms = sqlite3_column_int64(st, 8);
        out->max_inactive_s = sqlite3_column_int(st, 9);
        if (sqlite3_column_type(st, 1) == SQLITE_NULL) {
            const void *p = sqlite3_column_blob(st, 0);
            int n = sqlite3_column_bytes(st, 0);
            out->column = sqlite3_column_type(st, 0) == SQLITE_NULL
                              ? STORE_COL_NONE
                              : STORE_COL_SMALL;
            out->n_bytes = (uint64_t)n;
            if (buf && p && n > 0)
                memcpy(buf, p, (size_t)n < cap ? (size_t)n : cap);
            sqlite3_reset(st);
            return 1;
        }
        int col = sqlite3_column_int(st, 1);
        uint64_t n = (uint64_t)sqlite3_column_int64(st, 2);
        uint64_t off = (uint64_t)sqlite3_column_int64(st, 3);
        uint64_t slot_bytes = (uint64_t)sqlite3_column_int64(st, 4);
        uint64_t slot = (uint64_t)sqlite3_column_int64(st, 5);
        uint64_t gen = (uint64_t)sqlite3_column_int64(st, 6);
        sqlite3_reset(st); /* ends the read transaction before the I/O */
        out->column = col == 2 ? STORE_COL_LARGE : STORE_COL_MEDIUM;
        out->n_bytes = n;
        ret = lob_file_read(&s->lobf, off + slot * slot_bytes, gen,
                            lob_tag(id, id_len), n, buf, buf ? cap : 0, err);
        if (ret != PT_EDATA)
            return ret < 0 ? ret : 1;
    }
    return ret;
}

/* Put a home on the free list. */
static int lob_free_home(struct store *s, uint64_t cap, uint64_t off)
{
    int rc = sqlite3_bind_int64(s->fput, 1, (sqlite3_int64)cap);
    if (rc == SQLITE_OK)
        rc = sqlite3_bind_int64(s->fput, 2, (sqlite3_int64)off);
    if (rc == SQLITE_OK)
        rc = store_step(s, s->fput);
    sqlite3_reset(s->fput);
    return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

/* Take the home (cap, off) off the free list, if it is there. */
static int lob_unfree_home(struct store *s, uint64_t cap, uint64_t off)
{
    int rc = sqlite3_bind_int64(s->fdel, 1, (sqlite3_int64)cap);
    if (rc == SQLITE_OK)
        rc = sqlite3_bind_int64(s->fdel, 2, (sqlite3_int64)off);
    if (rc == SQLITE_OK)
        rc = store_step(s, s->fdel);
    sqlite3_reset(s->fdel);
    return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

/* LOBMETA.END = end. */
static int lob_set_end(struct store *s, uint64_t end)
{
    int rc = sqlite3_bind_int64(s->eset, 1, (sqlite3_int64)end);
    if (rc == SQLITE_OK)
        rc = store_step(s, s->eset);
    sqlite3_reset(s->eset);
    return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

/* A home of two `cap`-byte slots: from the free list, else from the end of
 * the area (PT_EIO when that passes max_lob_bytes). */
static int lob_take_home(struct store *s, uint64_t cap, uint64_t *off,
                         struct pt_err *err)
{
    uint64_t end = 0;
    int rc = sqlite3_bind_int64(s->ftake, 1, (sqlite3_int64)cap), ret;

    if (rc == SQLITE_OK)
        rc = store_step(s, s->ftake);
    if (rc == SQLITE_ROW) {
        *off = (uint64_t)sqlite3_column_int64(s->ftake, 0);
        sqlite3_reset(s->ftake);
        if ((rc = lob_unfree_home(s, cap, *off)) != SQLITE_OK)
            return store_fail(s->db, rc, err, "cannot take LOB space in",
                              s->path);
        return 0;
    }
    sqlite3_reset(s->ftake);
    if (rc != SQLITE_DONE)
        return store_fail(s->db, rc, err, "cannot read LOB space of", s->path);
    if ((ret = store_lob_end(s, &end, err)) < 0)
        return ret;
    if (s->cfg.max_lob_bytes && end + 2 * cap > s->cfg.max_lob_bytes)
        return err_set(err, PT_EIO,
                       "LOB area '%s-lob' is full: %llu bytes, the limit is "
                       "%llu",
                       s->path, (unsigned long long)end,
                       (unsigned long long)s->cfg.max_lob_bytes);
    *off = end;
    if ((rc = lob_set_end(s, end + 2 * cap)) != SQLITE_OK)
        return store_fail(s->db, rc, err, "cannot grow the LOB area of",
                          s->path);
    return 0;
}

/* The session's home, if it has a row: *has_row, and off/cap/slot/gen
 * (cap 0: no home). */
static int lob_home(struct store *s, const char *id, size_t id_len,
                    int *has_row, uint64_t v[4])
{
    sqlite3_stmt *st = s->lhome;
    int rc = store_bind_key(s, st, id, id_len);

    *has_row = 0;
    memset(v, 0, 4 * sizeof(v[0]));
    if (rc == SQLITE_OK)
        rc = store_step(s, st);
    if (rc == SQLITE_ROW) {
        *has_row = 1;
        if (sqlite3_column_type(st, 0) != SQLITE_NULL)
            for (int i = 0; i < 4; i++)
                v[i] = (uint64_t)sqlite3_column_int64(st, i);
        rc = SQLITE_DONE;
    }
    sqlite3_reset(st);
    return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

/* Write a set's row as its record says: the object in the row (SMALL) or
 * the LOB locator, and LOGSEQ (NULL for a batch's, which has no record). */
static int lob_row_put(struct store *s, const struct reclog_rec *r,
                       struct pt_err *err)
{
    static const char empty[1] = {0};
    sqlite3_stmt *st = s->lset;
    int rc = store_bind_key(s, st, r->id, r->id_len);

    if (rc == SQLITE_OK)
        rc = sqlite3_bind_int64(st, 3, r->now_ms);
    if (rc == SQLITE_OK)
        rc = sqlite3_bind_int(st, 4, r->max_inactive_s);
    if (rc == SQLITE_OK && r->kind == RECLOG_SET_ROW) {
        rc = sqlite3_bind_blob64(st, 5, r->data && r->n ? r->data : empty, r->n,
                                 SQLITE_STATIC);
        for (int i = 6; i <= 11 && rc == SQLITE_OK; i++)
            rc = sqlite3_bind_null(st, i);
    } else if (rc == SQLITE_OK) {
        const uint64_t v[] = {r->col, r->n, r->off, r->cap, r->slot, r->gen};
        rc = sqlite3_bind_null(st, 5);
        for (int i = 0; i < 6 && rc == SQLITE_OK; i++)
            rc = sqlite3_bind_int64(st, 6 + i, (sqlite3_int64)v[i]);
    }
    if (rc == SQLITE_OK)
        rc = r->seq ? sqlite3_bind_int64(st, 12, (sqlite3_int64)r->seq)
                    : sqlite3_bind_null(st, 12);
    if (rc == SQLITE_OK)
        rc = store_step(s, st);
    if (rc != SQLITE_DONE)
        return store_stmt_fail(s, st, rc, "cannot write session", r->id,
                               r->id_len, err);
    sqlite3_reset(st);
    return 0;
}

/* The body of a set, inside the caller's write transaction. `log`: write
 * its record (after the LOB record, before the row), else the row takes
 * `seq` (redo; 0: a batch, no record). */
static int lob_set_in_tx(struct store *s, const char *id, size_t id_len,
                         const void *data, uint64_t n, int64_t now_ms,
                         int32_t max_inactive_s, enum store_column col, int log,
                         uint64_t seq, struct pt_err *err)
{
    sqlite3_stmt *st = s->lset;
    uint64_t home[4], off = 0, cap = 0, slot = 0, gen = 0;
    int has_row, rc, ret;

    if ((rc = lob_home(s, id, id_len, &has_row, home)) != SQLITE_OK)
        return store_stmt_fail(s, st, rc, "cannot read session", id, id_len,
                               err);
    if (col != STORE_COL_SMALL) {
        uint64_t need = lob_slot_bytes(n);
        if (home[1] >= need) { /* the other slot of its home */
            off = home[0];
            cap = home[1];
            slot = 1 - home[2];
        } else {
            if (home[1] && (rc = lob_free_home(s, home[1], home[0])) != 0)
                return store_fail(s->db, rc, err, "cannot free LOB space in",
                                  s->path);
            if ((ret = lob_take_home(s, need, &off, err)) < 0)
                return ret;
            cap = need;
        }
        gen = home[3] + 1;
        /* the record first, durable as the row will be, then the row */
        if ((ret = lob_file_write(&s->lobf, off + slot * cap, gen,
                                  lob_tag(id, id_len), data, n, err)) < 0)
            return ret;
        if (s->cfg.sync == STORE_SYNC_FULL &&
            (ret = lob_file_sync(&s->lobf, err)) < 0)
            return ret;
    } else if (home[1] && (rc = lob_free_home(s, home[1], home[0])) != 0) {
        return store_fail(s->db, rc, err, "cannot free LOB space in", s->path);
    }
    (void)has_row;
    struct reclog_rec r = {.kind = col == STORE_COL_SMALL ? RECLOG_SET_ROW
                                                          : RECLOG_SET_LOB,
                           .col = col == STORE_COL_SMALL   ? 0
                                  : col == STORE_COL_LARGE ? 2u
                                                           : 1u,
                           .seq = seq,
                           .id = id,
                           .id_len = id_len,
                           .n = n,
                           .now_ms = now_ms,
                           .max_inactive_s = max_inactive_s,
                           .off = off,
                           .cap = cap,
                           .slot = slot,
                           .gen = gen,
                           .data = data};
    if (log && (ret = reclog_append(&s->log, &r, err)) < 0)
        return ret;
    return lob_row_put(s, &r, err);
}

/* Run `body` in a write transaction of its own unless one is open. */
static int lob_in_tx(struct store *s, int ret_body, int own, struct pt_err *err)
{
    if (!own)
        return ret_body;
    if (ret_body < 0) {
        store_tx(s, s->trollback, NULL);
        return ret_body;
    }
    int ret = store_tx(s, s->tcommit, err);
    if (ret < 0)
        store_tx(s, s->trollback, NULL);
    return ret < 0 ? ret : ret_body;
}

/* ---- DB2 semantics: the record log ------------------------------------ */

/*
 * Make every committed change durable in SQLite's own files: the WAL, and
 * the database a checkpoint may have written. Before a new lap of the log
 * overwrites the oldest records, and after a batch (store_commit), which
 * writes no records.
 */
static int store_sync_files(struct store *s, struct pt_err *err)
{
    static const char *const sfx[] = {"-wal", ""};
    char path[4096 + 8];

    for (size_t i = 0; i < sizeof(sfx) / sizeof(sfx[0]); i++) {
        snprintf(path, sizeof(path), "%s%s", s->path, sfx[i]);
        int fd = open(path, O_RDONLY);
        if (fd < 0 && errno == ENOENT)
            continue;
        if (fd < 0 || fdatasync(fd) != 0) {
            int e = errno;
            if (fd >= 0)
                close(fd);
            return err_set(err, PT_EIO, "cannot sync '%s': %s", path,
                           strerror(e));
        }
        close(fd);
    }
    return 0;
}

/* One operation's transaction and log position (lob_op_begin). */
struct lob_op {
    int own;        /* the operation commits or groups what it did */
    int logged;     /* it writes a log record */
    uint64_t bytes; /* its record's */
    uint64_t head;  /* the log before its record: what undo restores */
    uint64_t seq;
};

/* Roll back the open transaction; a group's operations, rolled back with
 * it, are in the log: apply them again (if that fails too, the next open
 * does). */
static void lob_group_abort(struct store *s)
{
    uint64_t lost = s->group_bytes;
    store_tx(s, s->trollback, NULL);
    s->group_bytes = 0;
    if (lost)
        (void)store_redo(s, NULL, NULL);
}

/*
 * Start an operation whose record is like `r` (kind, id length, object
 * length): its write transaction
 * (one of its own, or the open group's), and room in the log. An operation
 * inside the caller's transaction (store_begin: the warm-up load, which Db2
 * would run as a LOAD, and which is not logged record by record either) or
 * during redo writes no record.
 */
static int lob_op_begin(struct store *s, const struct reclog_rec *r,
                        struct lob_op *op, struct pt_err *err)
{
    int ret;

    op->bytes = reclog_rec_bytes(r);
    op->own = sqlite3_get_autocommit(s->db);
    op->logged = !s->replaying && (op->own || s->group_bytes > 0);
    if (op->own && (ret = store_tx(s, s->tbegin, err)) < 0)
        return ret;
    op->own |= op->logged;
    if (!op->logged)
        return 0;
    if (s->group_bytes == 0 && (ret = reclog_catch_up(&s->log, err)) < 0)
        goto fail;
    if (!reclog_fits(&s->log, op->bytes)) {
        /* a new lap overwrites the oldest records: the changes they carry
         * must be in SQLite's files first (the group's committed) */
        if (s->group_bytes > 0) {
            if ((ret = store_tx(s, s->tcommit, err)) < 0)
                goto fail;
            s->group_bytes = 0;
            if ((ret = store_tx(s, s->tbegin, err)) < 0)
                return ret;
        }
        if ((ret = store_sync_files(s, err)) < 0)
            goto fail;
        s->log.head = 0;
    }
    op->head = s->log.head;
    op->seq = s->log.seq;
    return 0;
fail:
    lob_group_abort(s);
    return ret;
}

/*
 * End an operation: on failure roll back and take its record back (a
 * group's earlier operations, rolled back with it, are applied again from
 * their records); on success force the record to disk (synchronous FULL:
 * the commit, as Db2's log write at commit), then commit, or with deferred
 * writes leave the transaction open until its records fill one log file.
 */
static int lob_op_end(struct store *s, int ret, struct lob_op *op,
                      struct pt_err *err)
{
    if (!op->logged)
        return lob_in_tx(s, ret, op->own, err);
    if (ret >= 0 && s->cfg.sync == STORE_SYNC_FULL) {
        int r = reclog_sync(&s->log, err);
        if (r < 0)
            ret = r;
    }
    if (ret >= 0 && s->cfg.deferred_writes) {
        s->group_bytes += op->bytes;
        if (s->group_bytes < RECLOG_FILE_BYTES)
            return ret;
    }
    if (ret >= 0) {
        int r = store_tx(s, s->tcommit, err);
        if (r == 0) {
            s->group_bytes = 0;
            return ret;
        }
        ret = r;
    }
    reclog_undo(&s->log, op->head, op->seq);
    lob_group_abort(s);
    return ret;
}

static int lob_session_set(struct store *s, const char *id, size_t id_len,
                           const void *data, uint64_t n, int64_t now_ms,
                           int32_t max_inactive_s, enum store_column col,
                           struct pt_err *err)
{
    struct reclog_rec r = {.kind = col == STORE_COL_SMALL ? RECLOG_SET_ROW
                                                          : RECLOG_SET_LOB,
                           .id_len = id_len,
                           .n = n};
    struct lob_op op;
    int ret;

    if ((ret = lob_op_begin(s, &r, &op, err)) < 0)
        return ret;
    ret = lob_set_in_tx(s, id, id_len, data, n, now_ms, max_inactive_s, col,
                        op.logged, 0, err);
    return lob_op_end(s, ret, &op, err);
}

/* A delete's or an expiry's record, and its sequence number in LOBMETA. */
static int lob_log_other(struct store *s, enum reclog_kind kind, const char *id,
                         size_t id_len, int64_t now_ms, int log, uint64_t seq,
                         struct pt_err *err)
{
    int ret, rc;

    if (log) {
        struct reclog_rec r = {
            .kind = kind, .id = id, .id_len = id_len, .now_ms = now_ms};
        if ((ret = reclog_append(&s->log, &r, err)) < 0)
            return ret;
        seq = r.seq;
    }
    if (!seq)
        return 0;
    rc = sqlite3_bind_int64(s->lseq, 1, (sqlite3_int64)seq);
    if (rc == SQLITE_OK)
        rc = store_step(s, s->lseq);
    sqlite3_reset(s->lseq);
    return rc == SQLITE_DONE
               ? 0
               : store_fail(s->db, rc, err, "cannot log in", s->path);
}

static int lob_invalidate_in_tx(struct store *s, const char *id, size_t id_len,
                                int log, uint64_t seq, struct pt_err *err)
{
    int ret, has_row, rc;
    uint64_t home[4];

    if ((ret = lob_log_other(s, RECLOG_DELETE, id, id_len, 0, log, seq, err)) <
        0)
        return ret;
    rc = lob_home(s, id, id_len, &has_row, home);
    if (rc == SQLITE_OK && home[1])
        rc = lob_free_home(s, home[1], home[0]);
    if (rc == SQLITE_OK &&
        (rc = store_bind_key(s, s->del, id, id_len)) == SQLITE_OK)
        rc = store_step(s, s->del);
    if (rc != SQLITE_DONE)
        ret = store_stmt_fail(s, s->del, rc, "cannot invalidate session", id,
                              id_len, err);
    else
        ret = sqlite3_changes(s->db) > 0 ? 1 : 0;
    sqlite3_reset(s->del);
    return ret;
}

static int lob_session_invalidate(struct store *s, const char *id,
                                  size_t id_len, struct pt_err *err)
{
    struct reclog_rec r = {.kind = RECLOG_DELETE, .id_len = id_len};
    struct lob_op op;
    int ret;

    if ((ret = lob_op_begin(s, &r, &op, err)) < 0)
        return ret;
    ret = lob_invalidate_in_tx(s, id, id_len, op.logged, 0, err);
    return lob_op_end(s, ret, &op, err);
}

static int lob_expire_in_tx(struct store *s, int64_t now_ms,
                            uint64_t *n_expired, int log, uint64_t seq,
                            struct pt_err *err)
{
    int ret = 0, rc = SQLITE_OK;
    sqlite3_stmt *sts[] = {s->efree, s->expire};

    if ((ret = lob_log_other(s, RECLOG_EXPIRE, s->app, (size_t)s->app_len,
                             now_ms, log, seq, err)) < 0)
        return ret;
    for (int i = 0; i < 2; i++) {
        rc = sqlite3_bind_int64(sts[i], 1, now_ms);
        if (rc == SQLITE_OK)
            rc =
                sqlite3_bind_text(sts[i], 2, s->app, s->app_len, SQLITE_STATIC);
        if (rc == SQLITE_OK)
            rc = store_step(s, sts[i]);
        if (rc != SQLITE_DONE) {
            ret = store_stmt_fail(s, sts[i], rc, "cannot expire", "sessions", 8,
                                  err);
            break;
        }
        sqlite3_reset(sts[i]);
    }
    if (ret == 0 && n_expired)
        *n_expired = (uint64_t)sqlite3_changes64(s->db);
    return ret;
}

static int lob_expire(struct store *s, int64_t now_ms, uint64_t *n_expired,
                      struct pt_err *err)
{
    struct reclog_rec r = {.kind = RECLOG_EXPIRE, .id_len = (size_t)s->app_len};
    struct lob_op op;
    int ret;

    if ((ret = lob_op_begin(s, &r, &op, err)) < 0)
        return ret;
    ret = lob_expire_in_tx(s, now_ms, n_expired, op.logged, 0, err);
    return lob_op_end(s, ret, &op, err);
}

/*
 * Redo of a LOB set: the row takes the record's locator. Its home leaves
 * the free list (a lost transaction took it there) or lies past END (taken
 * from the end); a different old home is freed, as the set did.
 */
static int lob_redo_locator(struct store *s, const struct reclog_rec *r,
                            struct pt_err *err)
{
    uint64_t home[4], end = 0;
    int has_row, rc, ret;

    if ((rc = lob_home(s, r->id, r->id_len, &has_row, home)) != SQLITE_OK)
        return store_fail(s->db, rc, err, "cannot redo in", s->path);
    if (home[1] && (home[0] != r->off || home[1] != r->cap) &&
        (rc = lob_free_home(s, home[1], home[0])) != SQLITE_OK)
        return store_fail(s->db, rc, err, "cannot redo in", s->path);
    if ((rc = lob_unfree_home(s, r->cap, r->off)) != SQLITE_OK)
        return store_fail(s->db, rc, err, "cannot redo in", s->path);
    if ((ret = store_lob_end(s, &end, err)) < 0)
        return ret;
    if (end < r->off + 2 * r->cap &&
        (rc = lob_set_end(s, r->off + 2 * r->cap)) != SQLITE_OK)
        return store_fail(s->db, rc, err, "cannot redo in", s->path);
    return lob_row_put(s, r, err);
}

struct redo_ctx {
    struct store *s;
    uint64_t committed; /* the last record SQLite has */
    uint64_t applied;
};

static int redo_one(void *ctx, const struct reclog_rec *r, struct pt_err *err)
{
    struct redo_ctx *c = ctx;
    struct store *s = c->s;
    int ret = 0;

    if (r->seq <= c->committed)
        return 0;
    switch (r->kind) {
    case RECLOG_SET_ROW:
        ret = lob_set_in_tx(s, r->id, r->id_len, r->data, r->n, r->now_ms,
                            r->max_inactive_s, STORE_COL_SMALL, 0, r->seq, err);
        break;
    case RECLOG_SET_LOB:
        ret = lob_redo_locator(s, r, err);
        break;
    case RECLOG_DELETE:
        ret = lob_invalidate_in_tx(s, r->id, r->id_len, 0, r->seq, err);
        break;
    case RECLOG_EXPIRE:
        ret = lob_expire_in_tx(s, r->now_ms, NULL, 0, r->seq, err);
        break;
    default:
        return err_set(err, PT_EDATA,
                       "record log '%s': record %llu has kind %d", s->log.path,
                       (unsigned long long)r->seq, (int)r->kind);
    }
    if (ret < 0)
        return err_prefix(err, "redo");
    c->applied++;
    return 0;
}

/*
 * Crash recovery: apply, in order, the log's records that SQLite has not
 * committed (a killed process's open group, or a commit the OS lost), in
 * one transaction; then the log continues after its last record.
 */
static int store_redo(struct store *s, uint64_t *applied, struct pt_err *err)
{
    struct redo_ctx c = {.s = s};
    int ret, rc;

    if ((ret = store_tx(s, s->tbegin, err)) < 0)
        return ret;
    rc = store_step(s, s->lmax);
    if (rc == SQLITE_ROW)
        c.committed = (uint64_t)sqlite3_column_int64(s->lmax, 0);
    sqlite3_reset(s->lmax);
    if (rc != SQLITE_ROW) {
        store_tx(s, s->trollback, NULL);
        return store_fail(s->db, rc, err, "cannot read the log position of",
                          s->path);
    }
    s->replaying = 1;
    ret = reclog_scan(&s->log, redo_one, &c, err);
    s->replaying = 0;
    if (ret < 0) {
        store_tx(s, s->trollback, NULL);
        return ret;
    }
    if (s->log.seq <= c.committed)
        s->log.seq = c.committed + 1;
    if ((ret = store_tx(s, s->tcommit, err)) < 0) {
        store_tx(s, s->trollback, NULL);
        return ret;
    }
    if (applied)
        *applied = c.applied;
    return 0;
}

int store_flush(struct store *s, struct pt_err *err)
{
    if (!s || s->group_bytes == 0)
        return 0;
    int ret = store_tx(s, s->tcommit, err);
    if (ret < 0)
        lob_group_abort(s);
    s->group_bytes = 0;
    return ret;
}

int store_session_get(struct store *s, const char *id, size_t id_len,
                      struct store_session *out, void *buf, size_t cap,
                      struct pt_err *err)
{
    if (s->lob)
        return lob_session_get(s, id, id_len, out, buf, cap, err);
    sqlite3_stmt *st = s->get;
    int rc = store_bind_key(s, st, id, id_len);
    if (rc == SQLITE_OK)
        rc = store_step(s, st);
    if (rc == SQLITE_DONE) {
        sqlite3_reset(st);
        return 0;
    }
    if (rc != SQLITE_ROW)
        return store_stmt_fail(s, st, rc, "cannot read session", id, id_len,
                               err);
    memset(out, 0, sizeof(*out));
    out->column = STORE_COL_NONE;
    for (int c = 0; c < 3; c++) {
        if (sqlite3_column_type(st, c) == SQLITE_NULL)
            continue;
        const void *p = sqlite3_column_blob(st, c);
        int n = sqlite3_column_bytes(st, c);
        out->column = (enum store_column)c;
        out->n_bytes = (uint64_t)n;
        if (buf && p && n > 0)
            memcpy(buf, p, (size_t)n < cap ? (size_t)n : cap);
        break;
    }
    out->last_access_ms = sqlite3_column_int64(st, 3);
    out->creation_ms = sqlite3_column_int64(st, 4);
    out->max_inactive_s = sqlite3_column_int(st, 5);
    sqlite3_reset(st);
    return 1;
}

int store_session_set(struct store *s, const char *id, size_t id_len,
                      const void *data, uint64_t n, int64_t now_ms,
                      int32_t max_inactive_s, struct pt_err *err)
{
    static const char empty[1] = {0};
    sqlite3_stmt *st = s->set;
    enum store_column col = store_place(&s->cfg, n);
    int rc;

    if (col == STORE_COL_NONE)
        return err_set(err, PT_EDATA,
                       "session '%.*s': object of %llu bytes exceeds the "
                       "LARGE column (%llu bytes)",
                       (int)(id_len > 64 ? 64 : id_len), id,
                       (unsigned long long)n,
                       (unsigned long long)s->cfg.large_max_bytes);
    if (s->lob)
        return lob_session_set(s, id, id_len, data, n, now_ms, max_inactive_s,
                               col, err);
    rc = store_bind_key(s, st, id, id_len);
    if (rc == SQLITE_OK)
        rc = sqlite3_bind_int64(st, 3, now_ms);
    if (rc == SQLITE_OK)
        rc = sqlite3_bind_int(st, 4, max_inactive_s);
    for (int c = 0; c < 3 && rc == SQLITE_OK; c++) {
        if (c == (int)col)
            /* A zero-length object must stay a BLOB, not NULL. */
            rc = sqlite3_bind_blob64(st, 5 + c, data && n ? data : empty, n,
                                     SQLITE_STATIC);
        else
            rc = sqlite3_bind_null(st, 5 + c);
    }
    if (rc == SQLITE_OK)
        rc = store_step(s, st);
    if (rc != SQLITE_DONE)
        return store_stmt_fail(s, st, rc, "cannot write session", id, id_len,
                               err);
    sqlite3_reset(st);
    return 0;
}

int store_session_invalidate(struct store *s, const char *id, size_t id_len,
                             struct pt_err *err)
{
    if (s->lob)
        return lob_session_invalidate(s, id, id_len, err);
    sqlite3_stmt *st = s->del;
    int rc = store_bind_key(s, st, id, id_len);
    if (rc == SQLITE_OK)
        rc = store_step(s, st);
    if (rc != SQLITE_DONE)
        return store_stmt_fail(s, st, rc, "cannot invalidate session", id,
                               id_len, err);
    sqlite3_reset(st);
    return sqlite3_changes(s->db) > 0 ? 1 : 0;
}

int store_expire(struct store *s, int64_t now_ms, uint64_t *n_expired,
                 struct pt_err *err)
{
    if (s->lob)
        return lob_expire(s, now_ms, n_expired, err);
    sqlite3_stmt *st = s->expire;
    int rc = sqlite3_bind_int64(st, 1, now_ms);
    if (rc == SQLITE_OK)
        rc = sqlite3_bind_text(st, 2, s->app, s->app_len, SQLITE_STATIC);
    if (rc == SQLITE_OK)
        rc = store_step(s, st);
    if (rc != SQLITE_DONE)
        return store_stmt_fail(s, st, rc, "cannot expire", "sessions", 8, err);
    sqlite3_reset(st);
    if (n_expired)
        *n_expired = (uint64_t)sqlite3_changes64(s->db);
    return 0;
}

int store_count(struct store *s, uint64_t *n_sessions, struct pt_err *err)
{
    sqlite3_stmt *st = s->count;
    int rc = store_step(s, st);
    if (rc != SQLITE_ROW)
        return store_stmt_fail(s, st, rc, "cannot count", "sessions", 8, err);
    *n_sessions = (uint64_t)sqlite3_column_int64(st, 0);
    sqlite3_reset(st);
    return 0;
}

int store_begin(struct store *s, struct pt_err *err)
{
    int ret = store_flush(s, err);
    if (ret < 0)
        return ret;
    /* IMMEDIATE: take the write lock now (waiting on busy), so no write
     * inside the transaction can fail with a lock upgrade. */
    return store_exec(s, "BEGIN IMMEDIATE", err);
}

int store_commit(struct store *s, struct pt_err *err)
{
    int ret = store_exec(s, "COMMIT", err);
    /* a batch writes no records: with a record log, SQLite's WAL is its
     * durability, as a Db2 LOAD's end forces the table space's pages */
    if (ret == 0 && s->lob && s->cfg.sync == STORE_SYNC_FULL)
        ret = store_sync_files(s, err);
    return ret;
}

void store_rollback(struct store *s)
{
    if (s && !sqlite3_get_autocommit(s->db))
        sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
}

/* ---- measurement -------------------------------------------------------- */

int store_stats_get(struct store *s, struct store_stats *st, int reset,
                    struct pt_err *err)
{
    static const int ops[] = {SQLITE_DBSTATUS_CACHE_HIT,
                              SQLITE_DBSTATUS_CACHE_MISS,
                              SQLITE_DBSTATUS_CACHE_WRITE};
    uint64_t *dst[] = {&st->cache_hits, &st->cache_misses, &st->cache_writes};
    for (size_t i = 0; i < 3; i++) {
        int cur = 0, hi = 0;
        int rc = sqlite3_db_status(s->db, ops[i], &cur, &hi, reset);
        if (rc != SQLITE_OK)
            return store_fail(s->db, rc, err, "cannot read counters of",
                              s->path);
        /* The counters are int: read them often enough (the replay does
         * per client at the end; 2^31 page hits is far beyond a run). */
        *dst[i] = (uint64_t)(unsigned)cur;
    }
    st->busy_retries = s->busy_retries;
    if (reset)
        s->busy_retries = 0;
    return 0;
}

int store_checkpoint(struct store *s, uint64_t *frames, struct pt_err *err)
{
    int n_log = 0, n_ckpt = 0;
    int ret = store_flush(s, err);
    if (ret < 0)
        return ret;
    /* PASSIVE, as SQLite's own auto-checkpoint (wal.html#ckpt) */
    int rc = sqlite3_wal_checkpoint_v2(s->db, NULL, SQLITE_CHECKPOINT_PASSIVE,
                                       &n_log, &n_ckpt);

    if (rc != SQLITE_OK && (rc & 0xff) != SQLITE_BUSY)
        return store_fail(s->db, rc, err, "cannot checkpoint", s->path);
    if (frames)
        *frames = n_ckpt > 0 ? (uint64_t)n_ckpt : 0;
    return 0;
}

int store_space_get(struct store *s, struct store_space *sp, int checkpoint,
                    struct pt_err *err)
{
    int64_t v = 0, pages[2];
    int ret;
    struct stat stbuf;
    char wal[4096 + 8];

    memset(sp, 0, sizeof(*sp));
    if (checkpoint) {
        int rc = sqlite3_wal_checkpoint_v2(
            s->db, NULL, SQLITE_CHECKPOINT_TRUNCATE, NULL, NULL);
        /* BUSY: another connection still reads; a PASSIVE checkpoint then
         * copies what it can and the WAL size says what is left. */
        if ((rc & 0xff) == SQLITE_BUSY)
            rc = sqlite3_wal_checkpoint_v2(
                s->db, NULL, SQLITE_CHECKPOINT_PASSIVE, NULL, NULL);
        if (rc != SQLITE_OK && (rc & 0xff) != SQLITE_BUSY)
            return store_fail(s->db, rc, err, "cannot checkpoint", s->path);
    }
    if ((ret = store_query_i64(s, "PRAGMA page_size", &v, err)) < 0)
        return ret;
    sp->page_size_bytes = (uint32_t)v;
    if ((ret = store_query_i64(s, "PRAGMA page_count", &v, err)) < 0)
        return ret;
    sp->page_count = (uint64_t)v;
    sp->db_bytes = sp->page_count * sp->page_size_bytes;
    if ((ret = store_query_i64(s, "PRAGMA freelist_count", &v, err)) < 0)
        return ret;
    sp->free_pages = (uint64_t)v;
    /* dbstat walks the b-tree and classifies every page (Debian builds
     * SQLite with SQLITE_ENABLE_DBSTAT_VTAB): one walk for both counts */
    if ((ret = store_query_row(s,
                               "SELECT coalesce(sum(pagetype = 'overflow'), 0),"
                               " coalesce(sum(pagetype = 'leaf'), 0)"
                               " FROM dbstat WHERE name = 'SESSIONS'",
                               pages, 2, err)) < 0)
        return ret;
    sp->overflow_pages = (uint64_t)pages[0];
    sp->leaf_pages = (uint64_t)pages[1];
    snprintf(wal, sizeof(wal), "%s-wal", s->path);
    if (stat(wal, &stbuf) == 0)
        sp->wal_bytes = (uint64_t)stbuf.st_size;
    if (s->lob) {
        sp->lob_bytes = lob_file_size(&s->lobf);
        if ((ret = store_query_i64(s,
                                   "SELECT count(*) FROM SESSIONS WHERE "
                                   "LOBCOL IS NOT NULL",
                                   &v, err)) < 0)
            return ret;
        sp->lob_records = (uint64_t)v;
    }
    return 0;
}

int store_integrity_check(struct store *s, struct pt_err *err)
{
    sqlite3_stmt *st = NULL;
    int rc = sqlite3_prepare_v2(s->db, "PRAGMA integrity_check", -1, &st, NULL);
    int ret = 0;
    if (rc == SQLITE_OK)
        rc = store_step(s, st);
    if (rc != SQLITE_ROW) {
        ret = store_fail(s->db, rc, err, "cannot check", s->path);
    } else {
        const char *r = (const char *)sqlite3_column_text(st, 0);
        if (!r || strcmp(r, "ok") != 0)
            ret = err_set(err, PT_EDATA,
                          "store '%s' fails integrity_check: "
                          "%.200s",
                          s->path, r ? r : "(null)");
    }
    sqlite3_finalize(st);
    return ret;
}

/* ---- the LOB area's own check ------------------------------------------- */

uint64_t store_redo_records(const struct store *s)
{
    return s->redone;
}

int store_has_lob_area(const struct store *s)
{
    return s->lob;
}

const char *store_lob_io_name(enum store_lob_io io)
{
    return io == STORE_LOB_DIRECT ? "direct" : "cached";
}

int store_lob_io_parse(const char *name)
{
    if (strcmp(name, "cached") == 0)
        return STORE_LOB_CACHED;
    if (strcmp(name, "direct") == 0)
        return STORE_LOB_DIRECT;
    return -1;
}

/*
 * One pass over homes and free space in offset order (both are [OFF,
 * OFF + 2 CAP) extents): each must be aligned, inside END and not overlap
 * the previous; a home's current record must read back whole (lob.c checks
 * header, generation, length, owner and checksum).
 */
static const char sql_extents[] =
    "SELECT OFF, CAP, LEN, SLOT, GEN, ID FROM ("
    " SELECT LOBOFF AS OFF, LOBCAP AS CAP, LOBLEN AS LEN, LOBSLOT AS SLOT,"
    " LOBGEN AS GEN, ID FROM SESSIONS WHERE LOBOFF IS NOT NULL"
    " UNION ALL SELECT OFF, CAP, NULL, NULL, NULL, NULL FROM LOBSPACE)"
    " ORDER BY OFF";

static int lob_check_rows(struct store *s, sqlite3_stmt *st, uint64_t end,
                          uint64_t *n_records, struct pt_err *err)
{
    uint64_t prev_end = 0;
    int rc, ret;

    while ((rc = store_step(s, st)) == SQLITE_ROW) {
        uint64_t off = (uint64_t)sqlite3_column_int64(st, 0);
        uint64_t cap = (uint64_t)sqlite3_column_int64(st, 1);
        const char *id = (const char *)sqlite3_column_text(st, 5);
        size_t id_len = (size_t)sqlite3_column_bytes(st, 5);

        if (off % LOB_ALIGN || cap == 0 || cap % LOB_ALIGN ||
            off + 2 * cap > end || off < prev_end)
            return err_set(err, PT_EDATA,
                           "LOB area of '%s': extent at %llu (%llu bytes) is "
                           "misaligned, past the end (%llu) or overlaps",
                           s->path, (unsigned long long)off,
                           (unsigned long long)(2 * cap),
                           (unsigned long long)end);
        prev_end = off + 2 * cap;
        if (sqlite3_column_type(st, 2) == SQLITE_NULL)
            continue; /* free space */
        uint64_t n = (uint64_t)sqlite3_column_int64(st, 2);
        uint64_t slot = (uint64_t)sqlite3_column_int64(st, 3);
        if (slot > 1 || lob_slot_bytes(n) > cap)
            return err_set(err, PT_EDATA,
                           "LOB area of '%s': session '%.64s' names slot "
                           "%llu of %llu bytes for %llu bytes",
                           s->path, id ? id : "", (unsigned long long)slot,
                           (unsigned long long)cap, (unsigned long long)n);
        if ((ret = lob_file_read(&s->lobf, off + slot * cap,
                                 (uint64_t)sqlite3_column_int64(st, 4),
                                 lob_tag(id ? id : "", id_len), n, NULL, 0,
                                 err)) < 0)
            return err_prefix(err, "session '%.64s'", id ? id : "");
        (*n_records)++;
    }
    if (rc != SQLITE_DONE)
        return store_fail(s->db, rc, err, "cannot check the LOB area of",
                          s->path);
    return 0;
}

int store_lob_check(struct store *s, uint64_t *n_records, struct pt_err *err)
{
    sqlite3_stmt *st = NULL;
    uint64_t end = 0, n = 0;
    int rc, ret;

    if (n_records)
        *n_records = 0;
    if (!s->lob)
        return 0;
    /* one read transaction: rows, free list and END from one snapshot */
    if ((ret = store_exec(s, "BEGIN", err)) < 0)
        return ret;
    if ((ret = store_lob_end(s, &end, err)) < 0)
        goto out;
    rc = sqlite3_prepare_v2(s->db, sql_extents, -1, &st, NULL);
    if (rc != SQLITE_OK) {
        ret =
            store_fail(s->db, rc, err, "cannot check the LOB area of", s->path);
        goto out;
    }
    ret = lob_check_rows(s, st, end, &n, err);
out:
    sqlite3_finalize(st);
    sqlite3_exec(s->db, "COMMIT", NULL, NULL, NULL);
    if (n_records)
        *n_records = n;
    return ret;
}
