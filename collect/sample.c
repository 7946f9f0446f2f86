/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sample.c — object-size sampling over ODBC. The server computes each
 * column's byte length (the objects never cross the wire); rows come back
 * in blocks of o->block_rows through column-wise bound arrays
 * (SQL_ATTR_ROW_ARRAY_SIZE), and the fetch loop does not allocate per row
 * (the values array grows geometrically, at most once per block).
 *
 * WebSphere SESSIONS layout: each row stores its serialized object in
 * exactly one of SMALL, MEDIUM, LARGE; the size of a row is the length of
 * its non-NULL column, and placement[i] counts rows stored in column i.
 * When the table has ID and PROPID columns, rows with PROPID <> ID are
 * attribute rows of the multi-row layout; then the per-session sizes (sum
 * over the rows of one ID) are computed by a second, grouped query.
 *
 * Neighbours: engine_*.c give the SQL dialect (length function, sampling
 * clause); odbc.c the connection and error mapping; doc_sizes.c turns the
 * result into the sizes document with model/ statistics.
 */
#include "collect/internal.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define MAX_BLOCK_ROWS 65536

const char *coll_layout_name(enum coll_layout l)
{
    switch (l) {
    case COLL_LAYOUT_SINGLE_ROW:
        return "single-row";
    case COLL_LAYOUT_MULTI_ROW:
        return "multi-row";
    case COLL_LAYOUT_PLAIN:
        break;
    }
    return "plain";
}

void coll_sample_opts_init(struct coll_sample_opts *o)
{
    memset(o, 0, sizeof(*o));
    pt_qname_set(&o->table, "SESSIONS", NULL);
    strcpy(o->columns[0], "SMALL");
    strcpy(o->columns[1], "MEDIUM");
    strcpy(o->columns[2], "LARGE");
    o->n_columns = 3;
    o->block_rows = 8192;
}

void coll_sample_result_release(struct coll_sample_result *r)
{
    if (!r)
        return;
    free(r->values);
    free(r->session_values);
    free(r->row_values);
    r->values = NULL;
    r->row_values = NULL;
    r->session_values = NULL;
    r->n_values = 0;
    r->n_sessions = 0;
}

int coll_length_expr(enum coll_engine e, const char *qcol, char *buf,
                     size_t len, struct pt_err *err)
{
    const struct coll_engine_ops *ops = coll_engine_ops_get(e);
    if (!ops)
        return err_set(err, PT_EINTERNAL, "no engine for a length expression");
    if (ops->length_expr(qcol, buf, len) < 0)
        return err_set(err, PT_EINTERNAL, "SQL buffer too small");
    return 0;
}

int coll_select_sql(char *buf, size_t len, const char *list, const char *qtable,
                    const char *after_table, const char *filter,
                    const char *where, const char *tail)
{
    const char *w1 = filter ? filter : where;
    const char *w2 = filter ? where : NULL;
    int n = snprintf(buf, len, "SELECT %s FROM %s%s%s%s%s%s%s", list, qtable,
                     after_table, w1 ? " WHERE " : "", w1 ? w1 : "",
                     w2 ? " AND " : "", w2 ? w2 : "", tail);

    return n > 0 && (size_t)n < len ? 0 : -1;
}

const char *coll_tablesample(const struct coll_sample_opts *o, char *clause,
                             size_t len)
{
    const char *m = o->method == COLL_METHOD_SYSTEM ? "SYSTEM" : "BERNOULLI";
    int n = snprintf(clause, len, " TABLESAMPLE %s (%.6g)", m, o->percent);

    if (o->has_seed && n > 0 && (size_t)n < len)
        snprintf(clause + n, len - (size_t)n, " REPEATABLE (%u)", o->seed);
    return m;
}

int coll_sample_sql(enum coll_engine e, const struct coll_sample_opts *o,
                    const char *select_list, const char *qtable,
                    const char *where, char *buf, size_t len, char *method,
                    size_t method_len, struct pt_err *err)
{
    const struct coll_engine_ops *ops = coll_engine_ops_get(e);
    if (!ops)
        return err_set(err, PT_EINTERNAL, "no engine for a sample statement");
    if (o->percent > 0 && o->rows > 0)
        return err_set(err, PT_EUSAGE,
                       "give at most one of `percent` and `rows`");
    if (o->rows > COLL_MAX_SAMPLE_ROWS)
        return err_set(err, PT_EUSAGE, "`rows`: %llu is not in 1..%llu",
                       (unsigned long long)o->rows, COLL_MAX_SAMPLE_ROWS);
    if (o->percent < 0 || o->percent > 100)
        return err_set(err, PT_EUSAGE, "`percent`: %g is not in 0 < P <= 100",
                       o->percent);
    if (!(o->percent > 0 && o->percent < 100) && o->rows == 0) {
        snprintf(method, method_len, "full scan: every row");
        if (coll_select_sql(buf, len, select_list, qtable, "", NULL, where,
                            "") < 0)
            return err_set(err, PT_EINTERNAL, "SQL buffer too small");
        return 0;
    }
    if (ops->sample_sql(o, select_list, qtable, where, buf, len, method,
                        method_len) < 0)
        return err_set(err, PT_EINTERNAL, "SQL buffer too small");
    return 0;
}

/* ---- the block fetch loop ---------------------------------------------- */

/* Called once per fetched block with column-wise arrays. */
typedef int (*block_fn)(void *ctx, size_t n_rows, SQLBIGINT *const *vals,
                        SQLLEN *const *ind, const SQLUSMALLINT *status,
                        struct pt_err *err);

struct fetch_spec {
    size_t n_cols;
    size_t block_rows;
    block_fn fn;
    void *ctx;
    const struct coll_sample_opts *o;
    const char *display; /* the table, for messages */
    uint64_t total;      /* for progress */
};

static int fetch_blocks(struct coll_conn *c, const char *sql,
                        const struct fetch_spec *fs, struct pt_err *err)
{
    SQLHSTMT st = SQL_NULL_HSTMT;
    SQLRETURN rc;
    SQLULEN fetched = 0;
    SQLBIGINT *vals[COLL_MAX_COLUMNS + 4] = {0};
    SQLLEN *ind[COLL_MAX_COLUMNS + 4] = {0};
    SQLUSMALLINT *status = NULL;
    size_t R = fs->block_rows;
    uint64_t done = 0;
    int ret;

    ret = coll_stmt_new(c, &st, err);
    if (ret < 0)
        return ret;
    status = calloc(R, sizeof(*status));
    if (!status)
        goto oom;
    for (size_t i = 0; i < fs->n_cols; i++) {
        vals[i] = calloc(R, sizeof(SQLBIGINT));
        ind[i] = calloc(R, sizeof(SQLLEN));
        if (!vals[i] || !ind[i])
            goto oom;
    }
    SQLSetStmtAttr(st, SQL_ATTR_CURSOR_TYPE,
                   (SQLPOINTER)SQL_CURSOR_FORWARD_ONLY, 0);
    SQLSetStmtAttr(st, SQL_ATTR_ROW_BIND_TYPE, (SQLPOINTER)SQL_BIND_BY_COLUMN,
                   0);
    rc = SQLSetStmtAttr(st, SQL_ATTR_ROW_ARRAY_SIZE, (SQLPOINTER)(uintptr_t)R,
                        0);
    if (!SQL_SUCCEEDED(rc)) {
        ret = coll_diag(c, SQL_HANDLE_STMT, st, rc, "set row array size", err);
        goto out;
    }
    if (rc == SQL_SUCCESS_WITH_INFO) {
        /* the driver lowered the array size (01S02): use what it took */
        SQLULEN got = 0;
        SQLGetStmtAttr(st, SQL_ATTR_ROW_ARRAY_SIZE, &got, 0, NULL);
        if (got > 0 && got < R)
            R = got;
    }
    SQLSetStmtAttr(st, SQL_ATTR_ROWS_FETCHED_PTR, &fetched, 0);
    SQLSetStmtAttr(st, SQL_ATTR_ROW_STATUS_PTR, status, 0);
    for (size_t i = 0; i < fs->n_cols; i++) {
        rc = SQLBindCol(st, (SQLUSMALLINT)(i + 1), SQL_C_SBIGINT, vals[i],
                        sizeof(SQLBIGINT), ind[i]);
        if (!SQL_SUCCEEDED(rc)) {
            ret = coll_diag(c, SQL_HANDLE_STMT, st, rc, "bind column", err);
            goto out;
        }
    }
    coll_watch_begin(c, st, "fetching rows from '%s'", fs->display);
    rc = SQLExecDirect(st, (SQLCHAR *)sql, SQL_NTS);
    if (!SQL_SUCCEEDED(rc) && rc != SQL_NO_DATA) {
        ret = coll_diag(c, SQL_HANDLE_STMT, st, rc, "sample query", err);
        goto out;
    }
    if (rc == SQL_NO_DATA)
        goto out;
    for (;;) {
        fetched = 0;
        rc = SQLFetch(st);
        if (rc == SQL_NO_DATA)
            break;
        if (!SQL_SUCCEEDED(rc)) {
            ret = coll_diag(c, SQL_HANDLE_STMT, st, rc, "fetch", err);
            goto out;
        }
        coll_watch_tick(c); /* a block arrived: the server is alive */
        if (fetched > R) {  /* a driver ignoring the array size cannot */
            ret = err_set(err, PT_EINTERNAL,
                          "driver returned %lu rows for an array of %zu",
                          (unsigned long)fetched, R);
            goto out;
        }
        ret = fs->fn(fs->ctx, (size_t)fetched, vals, ind, status, err);
        if (ret < 0)
            goto out;
        done += fetched;
        if (fs->o->progress)
            fs->o->progress(fs->o->progress_ctx, done, fs->total);
        if ((ret = pt_interrupt_check(err)) < 0)
            goto out;
    }
    ret = 0;
    goto out;
oom:
    ret = err_set(err, PT_EINTERNAL, "out of memory");
out:
    coll_watch_end(c);
    SQLFreeHandle(SQL_HANDLE_STMT, st);
    for (size_t i = 0; i < fs->n_cols; i++) {
        free(vals[i]);
        free(ind[i]);
    }
    free(status);
    return ret;
}

/* Grow a uint64 array to hold at least `need` entries (doubling). */
static int reserve(uint64_t **a, size_t *cap, size_t need)
{
    size_t ncap = *cap ? *cap : 4096;
    uint64_t *na;

    if (need <= *cap)
        return 0;
    while (ncap < need)
        ncap *= 2;
    na = realloc(*a, ncap * sizeof(**a));
    if (!na)
        return PT_EINTERNAL;
    *a = na;
    *cap = ncap;
    return 0;
}

/*
 * Room a block of grouped rows needs: the sum of its group counts (column
 * `cnt`), skipping rows the driver flagged and null or non-positive counts,
 * as the callbacks below do when they expand the groups.
 */
static uint64_t block_need(size_t n, const SQLBIGINT *cnt, const SQLLEN *ind,
                           const SQLUSMALLINT *status)
{
    uint64_t need = 0;

    for (size_t k = 0; k < n; k++)
        if (status[k] != SQL_ROW_ERROR && status[k] != SQL_ROW_NOROW &&
            ind[k] != SQL_NULL_DATA && cnt[k] > 0)
            need += (uint64_t)cnt[k];
    return need;
}

struct row_ctx {
    struct coll_sample_result *r;
    size_t n_cols;       /* object columns */
    int has_flag;        /* one more column: 1 when PROPID <> ID */
    int row_cols;        /* 0: no row size; 1: pt_r is the rest of the row;
                            2: pt_r is PostgreSQL's whole row, pt_s the objects
                            as stored */
    uint32_t rest_const; /* bytes of the rest the expression leaves out */
    int grouped;         /* one more column: how many rows have these values */
    size_t cap, row_cap;
};

/* The tuple header pg_column_size(t.*) counts (HeapTupleHeaderData,
   MAXALIGNed; the profile's row_overhead_bytes holds it). */
#define PG_TUPLE_HEADER 24

/* The rest of row k, its stored objects, into *rest / *stored. */
static void row_rest(const struct row_ctx *x, size_t k, SQLBIGINT *const *vals,
                     SQLLEN *const *ind, uint64_t size, int n_obj,
                     uint64_t *rest, uint64_t *stored)
{
    size_t rc = x->n_cols + (x->has_flag ? 1 : 0);
    int64_t r = ind[rc][k] == SQL_NULL_DATA ? 0 : (int64_t)vals[rc][k];

    *stored = size;
    if (x->row_cols == 2) {
        int64_t s = ind[rc + 1][k] == SQL_NULL_DATA ? 0 : vals[rc + 1][k];
        *stored = s > 0 ? (uint64_t)s : 0;
        /* each object's stand-in byte out, its worst padding (3) in */
        r += 2 * (int64_t)n_obj - PG_TUPLE_HEADER;
    }
    *rest = r > 0 ? (uint64_t)r + x->rest_const : x->rest_const;
}

static int on_rows(void *vctx, size_t n, SQLBIGINT *const *vals,
                   SQLLEN *const *ind, const SQLUSMALLINT *status,
                   struct pt_err *err)
{
    struct row_ctx *x = vctx;
    struct coll_sample_result *r = x->r;
    size_t wcol = x->n_cols + (x->has_flag ? 1 : 0) + (size_t)x->row_cols;
    uint64_t need =
        x->grouped ? block_need(n, vals[wcol], ind[wcol], status) : (uint64_t)n;

    if (need > SIZE_MAX / 16 ||
        reserve(&r->values, &x->cap, r->n_values + (size_t)need) < 0 ||
        (x->row_cols &&
         reserve(&r->row_values, &x->row_cap, r->n_values + (size_t)need) < 0))
        return err_set(err, PT_EINTERNAL, "out of memory for %llu sizes",
                       (unsigned long long)(r->n_values + need));
    for (size_t k = 0; k < n; k++) {
        uint64_t size = 0, w = 1;
        int nonnull = 0, where = -1;
        if (status[k] == SQL_ROW_ERROR || status[k] == SQL_ROW_NOROW)
            continue;
        if (x->grouped) {
            if (ind[wcol][k] == SQL_NULL_DATA || vals[wcol][k] <= 0)
                continue;
            w = (uint64_t)vals[wcol][k];
        }
        r->rows_scanned += w;
        if (x->has_flag && ind[x->n_cols][k] != SQL_NULL_DATA) {
            if (vals[x->n_cols][k])
                r->attribute_rows += w;
            else
                r->header_rows += w;
        }
        for (size_t i = 0; i < x->n_cols; i++) {
            if (ind[i][k] == SQL_NULL_DATA)
                continue;
            if (vals[i][k] < 0)
                return err_set(err, PT_EDATA,
                               "server returned a negative length %lld",
                               (long long)vals[i][k]);
            nonnull++;
            where = (int)i;
            size += (uint64_t)vals[i][k];
            r->column_bytes[i] += (uint64_t)vals[i][k] * w;
        }
        if (nonnull == 0) {
            r->rows_empty += w;
            continue;
        }
        if (nonnull == 1)
            r->placement[where] += w;
        else
            r->rows_multi += w;
        if (x->row_cols) {
            uint64_t rest, stored;
            row_rest(x, k, vals, ind, size, nonnull, &rest, &stored);
            if (r->n_values == 0)
                r->rest_min = rest;
            if (rest < r->rest_min)
                r->rest_min = rest;
            if (rest > r->rest_max)
                r->rest_max = rest;
            r->rest_sum += rest * w;
            r->stored_bytes += stored * w;
            r->raw_bytes += size * w;
            for (uint64_t j = 0; j < w; j++)
                r->row_values[r->n_values + j] = rest + stored;
        }
        for (uint64_t j = 0; j < w; j++)
            r->values[r->n_values++] = size;
    }
    return 0;
}

struct sess_ctx {
    struct coll_sample_result *r;
    int grouped; /* column 2: sessions with this size */
    size_t cap;
};

static int on_sessions(void *vctx, size_t n, SQLBIGINT *const *vals,
                       SQLLEN *const *ind, const SQLUSMALLINT *status,
                       struct pt_err *err)
{
    struct sess_ctx *x = vctx;
    struct coll_sample_result *r = x->r;
    uint64_t need =
        x->grouped ? block_need(n, vals[1], ind[1], status) : (uint64_t)n;

    if (need > SIZE_MAX / 16 ||
        reserve(&r->session_values, &x->cap, r->n_sessions + (size_t)need) < 0)
        return err_set(err, PT_EINTERNAL, "out of memory for %llu sessions",
                       (unsigned long long)(r->n_sessions + need));
    for (size_t k = 0; k < n; k++) {
        uint64_t w = 1;
        if (status[k] == SQL_ROW_ERROR || status[k] == SQL_ROW_NOROW)
            continue;
        if (ind[0][k] == SQL_NULL_DATA || vals[0][k] < 0)
            continue;
        if (x->grouped) {
            if (ind[1][k] == SQL_NULL_DATA || vals[1][k] <= 0)
                continue;
            w = (uint64_t)vals[1][k];
        }
        for (uint64_t j = 0; j < w; j++)
            r->session_values[r->n_sessions++] = (uint64_t)vals[0][k];
    }
    return 0;
}

/* Append s to buf at *o; -1 if it does not fit. */
static int cat(char *buf, size_t len, size_t *o, const char *s)
{
    size_t n = strlen(s);
    if (*o + n + 1 > len)
        return -1;
    memcpy(buf + *o, s, n + 1);
    *o += n;
    return 0;
}

/* Probe: does "SELECT list FROM qtable WHERE 1=0" run? */
static int probe(struct coll_conn *c, const char *list, const char *qtable,
                 struct pt_err *err)
{
    char sql[4096];
    if ((size_t)snprintf(sql, sizeof(sql), "SELECT %s FROM %s WHERE 1=0", list,
                         qtable) >= sizeof(sql))
        return err_set(err, PT_EINTERNAL, "SQL buffer too small");
    return coll_exec(c, sql, err);
}

/* The names of a sample, checked and quoted the engine's way. */
struct sample_names {
    struct pt_qname exact;              /* the table as the engine stores it */
    char qtable[4 * PT_IDENT_MAX + 16]; /* [schema.]table, quoted */
    char qcol[COLL_MAX_COLUMNS][COLL_NAME_MAX + 4];
    char qid[COLL_NAME_MAX + 4], qprop[COLL_NAME_MAX + 4];
    char display[2 * PT_IDENT_MAX + 8]; /* [schema.]table as given */
    int sessions_layout; /* the table has ID and PROPID (WebSphere) */
    int row_cols;        /* row size columns in the query (row_ctx) */
    char rest[6144];     /* the rest-of-row expression (catalog.c) */
};

static int quote_names(enum coll_engine e, const struct coll_sample_opts *o,
                       struct sample_names *q, struct pt_err *err)
{
    int ret;

    ret = coll_table_exact(e, &o->table, &q->exact, err);
    if (ret < 0)
        return ret;
    for (size_t i = 0; i < o->n_columns; i++) {
        ret = coll_ident_check(o->columns[i], "`columns`", err);
        if (ret < 0)
            return ret;
        coll_ident_quote(e, o->columns[i], q->qcol[i], sizeof(q->qcol[i]),
                         NULL);
    }
    ret = coll_table_quote(e, &q->exact, q->qtable, sizeof(q->qtable), err);
    if (ret < 0)
        return ret;
    pt_qname_format(&o->table, q->display, sizeof(q->display));
    coll_ident_quote(e, "ID", q->qid, sizeof(q->qid), NULL);
    coll_ident_quote(e, "PROPID", q->qprop, sizeof(q->qprop), NULL);
    return 0;
}

/*
 * Does the table exist, with these columns, and ID / PROPID? One probe for
 * the usual case (each is a round trip, several with psqlODBC's cursors);
 * on failure, one probe per name for a clear error. Sets
 * q->sessions_layout.
 */
static int probe_table(struct coll_conn *c, const struct coll_sample_opts *o,
                       struct sample_names *q, struct pt_err *err)
{
    char all[COLL_MAX_COLUMNS * (COLL_NAME_MAX + 4) + 4 * PT_IDENT_MAX + 16];
    size_t al = 0;
    struct pt_err probe_err;
    int ret;

    for (size_t i = 0; i < o->n_columns; i++) {
        cat(all, sizeof(all), &al, q->qcol[i]);
        cat(all, sizeof(all), &al, ", ");
    }
    cat(all, sizeof(all), &al, q->qid);
    cat(all, sizeof(all), &al, ", ");
    cat(all, sizeof(all), &al, q->qprop);
    ret = probe(c, all, q->qtable, &probe_err);
    if (ret < 0 && ret != PT_EDATA && ret != PT_ENOINPUT) {
        if (err)
            *err = probe_err;
        return ret;
    }
    q->sessions_layout = ret == 0;
    if (q->sessions_layout)
        return 0;
    ret = probe(c, "1", q->qtable, err);
    if (ret == PT_ENOINPUT || ret == PT_EDATA) {
        err_prefix(err, "table '%s' not found", q->display);
        if (err)
            err->code = PT_ENOINPUT;
        return PT_ENOINPUT;
    }
    if (ret < 0)
        return ret;
    for (size_t i = 0; i < o->n_columns; i++) {
        ret = probe(c, q->qcol[i], q->qtable, err);
        if (ret == PT_EDATA || ret == PT_ENOINPUT) {
            /* not found, as a missing table is (docs/exit-codes.md) */
            err_prefix(err, "table '%s' has no column '%s'", q->display,
                       o->columns[i]);
            if (err)
                err->code = PT_ENOINPUT;
            return PT_ENOINPUT;
        }
        if (ret < 0)
            return ret;
    }
    /* the columns are there: no ID / PROPID, a plain table */
    return 0;
}

/*
 * PostgreSQL: the rest of the row is pg_column_size(ROW(every column, an
 * object as an empty bytea or NULL)) minus its 24-byte header — laid out
 * as the heap lays the row out (alignment, the NULL bitmap of as many
 * columns). Not pg_column_size(t.*): a whole-row value inlines every
 * TOASTed object (heap_copy_tuple_as_datum), which would read all of
 * TOAST. The empty stand-in takes 1 byte; an object with a 4-byte header
 * is int-aligned, at most 3 bytes of padding: row_rest adds 2 per object,
 * so the rest is never under the heap's, and over it by at most 3.
 */
static int pg_rest(struct coll_sample_result *r, const char *const *objs,
                   size_t n_obj, struct sample_names *q, struct pt_err *err)
{
    size_t o = 0, n = 0;

    (void)err;
    q->rest[0] = '\0';
    for (size_t i = 0; i < r->columns.n; i++) {
        const char *name = r->columns.col[i].name;
        int object = 0;
        for (size_t k = 0; k < n_obj; k++)
            object |= strcasecmp(name, objs[k]) == 0;
        /* an object stands in as an empty bytea (1 byte, unaligned) or
           NULL, so the NULL bitmap and so the header are the heap's */
        if (coll_ident_check(name, "catalog column", NULL) < 0 ||
            cat(q->rest, sizeof(q->rest), &o, n ? ", " : "") < 0 ||
            cat(q->rest, sizeof(q->rest), &o, object ? "CASE WHEN \"" : "\"") <
                0 ||
            cat(q->rest, sizeof(q->rest), &o, name) < 0 ||
            cat(q->rest, sizeof(q->rest), &o,
                object ? "\" IS NULL THEN NULL::bytea ELSE '\\x'::bytea END"
                       : "\"") < 0) {
            snprintf(r->row_basis, sizeof(r->row_basis),
                     "not measured: column '%.60s' has a name pagetune "
                     "does not quote, or too many columns",
                     name);
            return 0;
        }
        n++;
    }
    if (n && o + 24 >= sizeof(q->rest)) {
        snprintf(r->row_basis, sizeof(r->row_basis),
                 "not measured: too many columns for the row expression");
        return 0;
    }
    if (n) { /* wrap the list: o + 24 < sizeof(q->rest) was checked */
        static const char head[] = "pg_column_size(ROW(";
        memmove(q->rest + sizeof(head) - 1, q->rest, o + 1);
        memcpy(q->rest, head, sizeof(head) - 1);
        o += sizeof(head) - 1;
        cat(q->rest, sizeof(q->rest), &o, "))");
    } else {
        snprintf(q->rest, sizeof(q->rest), "%d", PG_TUPLE_HEADER);
    }
    q->row_cols = 2;
    snprintf(r->row_basis, sizeof(r->row_basis),
             "measured per row: pg_column_size(ROW(the columns, each "
             "object as an empty value)) minus its %d-byte header, plus 2 "
             "bytes per object for the padding before it at worst (no "
             "TOAST read); the objects as stored: pg_column_size() of "
             "each",
             PG_TUPLE_HEADER);
    return 0;
}

/*
 * Before sampling: the catalog's column types (a timestamp or an integer
 * is not an object: PT_EDATA naming it), and how the rest of the row is
 * measured (q->row_cols, q->rest, r->row_basis). A catalog that cannot be
 * read leaves the row unmeasured (said in r->row_basis), but a lost link
 * fails.
 */
static int check_columns(struct coll_conn *c, const struct coll_sample_opts *o,
                         struct sample_names *q, struct coll_sample_result *r,
                         struct pt_err *err)
{
    const char *objs[COLL_MAX_COLUMNS];
    struct pt_err e = {0};
    int ret;

    ret = coll_columns_read(c, &q->exact, &r->columns, &e);
    if (ret == PT_EUNAVAIL || ret == PT_EINTR) {
        if (err)
            *err = e;
        return ret;
    }
    if (ret < 0) {
        memset(&r->columns, 0, sizeof(r->columns));
        snprintf(r->row_basis, sizeof(r->row_basis),
                 "not measured: the catalog could not be read (%.160s)", e.msg);
        return 0;
    }
    for (size_t i = 0; i < o->n_columns; i++) {
        const struct coll_column *col =
            coll_columns_find(&r->columns, o->columns[i]);
        char note[sizeof(r->column_note)];
        if (!col)
            continue;
        ret = coll_column_check(c->engine, col, note, sizeof(note), err);
        if (ret < 0)
            return ret;
        if (note[0] && !r->column_note[0])
            memcpy(r->column_note, note, sizeof(note));
    }
    for (size_t i = 0; i < o->n_columns; i++)
        objs[i] = o->columns[i];
    if (c->engine == COLL_ENGINE_POSTGRESQL)
        return pg_rest(r, objs, o->n_columns, q, err);
    ret = coll_row_rest_expr(c->engine, &r->columns, objs, o->n_columns, "",
                             q->rest, sizeof(q->rest), &e);
    if (ret < 0) {
        snprintf(r->row_basis, sizeof(r->row_basis), "not measured: %.200s",
                 e.msg);
        return 0;
    }
    q->row_cols = 1;
    snprintf(r->row_basis, sizeof(r->row_basis), "%s",
             c->engine == COLL_ENGINE_MYSQL
                 ? "measured per row: the other columns' stored bytes (type "
                   "sizes, lengths plus 1-2 byte length prefixes) and the "
                   "NULL bitmap, InnoDB COMPACT/DYNAMIC record format"
             : c->engine == COLL_ENGINE_SQLITE
                 ? "measured per row: the record's header and the other "
                   "columns' body bytes, SQLite record format (exact for "
                   "the record; verified against dbstat in the tests)"
                 : "measured per row: LENGTH() of the other columns plus 4 "
                   "bytes per varying-length and 1 per nullable column "
                   "(Db2 byte counts)");
    return 0;
}

/*
 * Server-side grouping of the row query: the server returns each distinct
 * (lengths, row kind) once with its row count instead of one row per
 * object. Exact (the client expands the counts), and far fewer rows to
 * transfer and convert; but nothing arrives before the scan ends, so no
 * progress.
 */
static int group_rows_query(const struct coll_sample_opts *o,
                            const struct sample_names *q,
                            struct coll_sample_result *r, struct pt_err *err)
{
    char outer[sizeof(r->query)], cols[256];
    size_t cl = 0, ml;
    int n;

    cols[0] = '\0';
    for (size_t i = 0; i < o->n_columns; i++) {
        char a[40];
        snprintf(a, sizeof(a), "%spt_l%zu", i ? ", " : "", i);
        cat(cols, sizeof(cols), &cl, a);
    }
    if (q->sessions_layout)
        cat(cols, sizeof(cols), &cl, ", pt_f");
    if (q->row_cols)
        cat(cols, sizeof(cols), &cl, ", pt_r");
    if (q->row_cols == 2)
        cat(cols, sizeof(cols), &cl, ", pt_s");
    n = snprintf(outer, sizeof(outer),
                 "SELECT %s, COUNT(*) FROM (%s) pt_x GROUP BY %s", cols,
                 r->query, cols);
    if (n < 0 || (size_t)n >= sizeof(outer))
        return err_set(err, PT_EINTERNAL, "SQL buffer too small");
    memcpy(r->query, outer, (size_t)n + 1);
    ml = strlen(r->method);
    cat(r->method, sizeof(r->method), &ml,
        "; lengths grouped on the server (exact counts)");
    return 0;
}

/* The row query into r->query: one byte length per column, the row kind. */
static int rows_query(const struct coll_engine_ops *ops,
                      const struct coll_sample_opts *o,
                      const struct sample_names *q,
                      struct coll_sample_result *r, struct pt_err *err)
{
    char list[7168], expr[512];
    size_t ll = 0;
    int ret;

    list[0] = '\0';
    for (size_t i = 0; i < o->n_columns; i++) {
        char alias[40];
        ops->length_expr(q->qcol[i], expr, sizeof(expr));
        snprintf(alias, sizeof(alias), " AS pt_l%zu", i);
        if ((i && cat(list, sizeof(list), &ll, ", ") < 0) ||
            cat(list, sizeof(list), &ll, expr) < 0 ||
            cat(list, sizeof(list), &ll, alias) < 0)
            return err_set(err, PT_EINTERNAL, "SQL buffer too small");
    }
    if (q->sessions_layout) {
        snprintf(expr, sizeof(expr),
                 ", CASE WHEN %s = %s THEN 0 ELSE 1 END AS pt_f", q->qprop,
                 q->qid);
        if (cat(list, sizeof(list), &ll, expr) < 0)
            return err_set(err, PT_EINTERNAL, "SQL buffer too small");
    }
    if (q->row_cols == 2) {
        /* the whole row and the objects as stored (compressed or not) */
        if (cat(list, sizeof(list), &ll, ", ") < 0 ||
            cat(list, sizeof(list), &ll, q->rest) < 0 ||
            cat(list, sizeof(list), &ll, " AS pt_r, ") < 0)
            return err_set(err, PT_EINTERNAL, "SQL buffer too small");
        for (size_t i = 0; i < o->n_columns; i++) {
            snprintf(expr, sizeof(expr), "%sCOALESCE(pg_column_size(%s), 0)",
                     i ? " + " : "", q->qcol[i]);
            if (cat(list, sizeof(list), &ll, expr) < 0)
                return err_set(err, PT_EINTERNAL, "SQL buffer too small");
        }
        if (cat(list, sizeof(list), &ll, " AS pt_s") < 0)
            return err_set(err, PT_EINTERNAL, "SQL buffer too small");
    } else if (q->row_cols == 1) {
        if (cat(list, sizeof(list), &ll, ", (") < 0 ||
            cat(list, sizeof(list), &ll, q->rest) < 0 ||
            cat(list, sizeof(list), &ll, ") AS pt_r") < 0)
            return err_set(err, PT_EINTERNAL, "SQL buffer too small");
    }
    ret = coll_sample_sql(ops->id, o, list, q->qtable, NULL, r->query,
                          sizeof(r->query), r->method, sizeof(r->method), err);
    if (ret < 0)
        return ret;
    return o->grouped ? group_rows_query(o, q, r, err) : 0;
}

/* The catalog's row estimate scaled to the sampling, for progress. */
static void estimate_rows(const struct coll_engine_ops *ops,
                          struct coll_conn *c, const struct coll_sample_opts *o,
                          const struct pt_qname *t,
                          struct coll_sample_result *r)
{
    if (!o->progress || !ops->estimate_rows)
        return;
    r->estimated_rows = ops->estimate_rows(c, t);
    if (o->rows && (r->estimated_rows == 0 || o->rows < r->estimated_rows))
        r->estimated_rows = o->rows;
    else if (o->percent > 0)
        r->estimated_rows =
            (uint64_t)((double)r->estimated_rows * o->percent / 100.0);
}

/*
 * The per-session query into r->session_query: the sum of the attribute
 * rows of each session. Sampled runs pick sessions (their PROPID = ID
 * header rows) with the same method, so a chosen session is always
 * complete.
 */
static int sessions_query(const struct coll_engine_ops *ops,
                          const struct coll_sample_opts *o,
                          const struct sample_names *q,
                          struct coll_sample_result *r, struct pt_err *err)
{
    char sum[1536], inner[1024], idsel[COLL_NAME_MAX + 16], expr[512];
    char where[2 * COLL_NAME_MAX + 16], m2[256];
    const char *qid = q->qid, *qprop = q->qprop, *qtable = q->qtable;
    size_t so = 0;
    int n, ret;

    for (size_t i = 0; i < o->n_columns; i++) {
        char qq[COLL_NAME_MAX + 16];
        memcpy(qq, "pt_t.", 5);
        memcpy(qq + 5, q->qcol[i], strlen(q->qcol[i]) + 1);
        ops->length_expr(qq, expr, sizeof(expr));
        if (cat(sum, sizeof(sum), &so, i ? " + COALESCE(" : "COALESCE(") < 0 ||
            cat(sum, sizeof(sum), &so, expr) < 0 ||
            cat(sum, sizeof(sum), &so, ", 0)") < 0)
            return err_set(err, PT_EINTERNAL, "SQL buffer too small");
    }
    if (!(o->percent > 0 || o->rows > 0)) {
        n = snprintf(r->session_query, sizeof(r->session_query),
                     "SELECT SUM(%s) AS pt_size FROM %s pt_t WHERE "
                     "pt_t.%s <> pt_t.%s GROUP BY pt_t.%s",
                     sum, qtable, qprop, qid, qid);
        goto check;
    }
    snprintf(idsel, sizeof(idsel), "%s AS pt_sid", qid);
    snprintf(where, sizeof(where), "%s = %s", qprop, qid);
    ret = coll_sample_sql(ops->id, o, idsel, qtable, where, inner,
                          sizeof(inner), m2, sizeof(m2), err);
    if (ret < 0)
        return ret;
    /*
     * The chosen IDs must be drawn once, not once per joined row: a filter
     * on random() in a derived table that the optimizer merges into the
     * join would pick a session for some of its rows only. SQLite
     * evaluates a non-correlated IN (SELECT ...) once; MariaDB never merges
     * a derived table with a LIMIT, so it is materialized once; PostgreSQL
     * and DB2 sample the table scan itself (TABLESAMPLE) or order by
     * random() under a LIMIT, both evaluated once.
     */
    if (ops->id == COLL_ENGINE_MYSQL && !o->rows)
        cat(inner, sizeof(inner), &(size_t){strlen(inner)},
            " LIMIT 18446744073709551615");
    if (ops->id == COLL_ENGINE_SQLITE)
        n = snprintf(r->session_query, sizeof(r->session_query),
                     "SELECT SUM(%s) AS pt_size FROM %s pt_t WHERE pt_t.%s IN "
                     "(%s) AND pt_t.%s <> pt_t.%s GROUP BY pt_t.%s",
                     sum, qtable, qid, inner, qprop, qid, qid);
    else
        n = snprintf(r->session_query, sizeof(r->session_query),
                     "SELECT SUM(%s) AS pt_size FROM %s pt_t JOIN (%s) pt_s ON "
                     "pt_t.%s = pt_s.pt_sid WHERE pt_t.%s <> pt_t.%s "
                     "GROUP BY pt_t.%s",
                     sum, qtable, inner, qid, qprop, qid, qid);
check:
    if (n < 0 || (size_t)n >= sizeof(r->session_query))
        return err_set(err, PT_EINTERNAL, "SQL buffer too small");
    return 0;
}

/* Grouped: the server counts the sessions of each size. */
static int group_sessions_query(struct coll_sample_result *r,
                                struct pt_err *err)
{
    char outer[sizeof(r->session_query)];
    int n = snprintf(outer, sizeof(outer),
                     "SELECT pt_size, COUNT(*) FROM (%s) pt_y GROUP BY "
                     "pt_size",
                     r->session_query);

    if (n < 0 || (size_t)n >= sizeof(outer))
        return err_set(err, PT_EINTERNAL, "SQL buffer too small");
    memcpy(r->session_query, outer, (size_t)n + 1);
    return 0;
}

/* Multi-row layout: fetch the size of every (sampled) session. */
static int sample_sessions(struct coll_conn *c,
                           const struct coll_engine_ops *ops,
                           const struct coll_sample_opts *o,
                           const struct sample_names *q, struct fetch_spec *fs,
                           struct coll_sample_result *r, struct pt_err *err)
{
    struct sess_ctx sx;
    int ret;

    ret = sessions_query(ops, o, q, r, err);
    if (ret < 0)
        return ret;
    if (ops->sample_prepare) {
        ret = ops->sample_prepare(c, o, err);
        if (ret < 0)
            return ret;
    }
    if (o->grouped && (ret = group_sessions_query(r, err)) < 0)
        return ret;
    memset(&sx, 0, sizeof(sx));
    sx.r = r;
    sx.grouped = o->grouped;
    fs->n_cols = o->grouped ? 2 : 1;
    fs->fn = on_sessions;
    fs->ctx = &sx;
    fs->total = 0;
    ret = fetch_blocks(c, r->session_query, fs, err);
    if (ret < 0)
        return ret;
    r->have_sessions = 1;
    return 0;
}

/* The layout from what the row fetch saw; the session note if not multi. */
static void set_layout(const struct sample_names *q,
                       struct coll_sample_result *r)
{
    r->layout = !q->sessions_layout ? COLL_LAYOUT_PLAIN
                : r->attribute_rows ? COLL_LAYOUT_MULTI_ROW
                                    : COLL_LAYOUT_SINGLE_ROW;
    if (r->layout != COLL_LAYOUT_MULTI_ROW)
        snprintf(r->session_note, sizeof(r->session_note),
                 "%s layout: one row per %s, so per-session sizes equal the "
                 "row sizes",
                 coll_layout_name(r->layout),
                 r->layout == COLL_LAYOUT_PLAIN ? "object" : "session");
}

/*
 * The steps: check and quote the names, probe the table (layout), build
 * the row query, fetch the rows in blocks, and for the multi-row layout
 * build and fetch the per-session query.
 */
/* PostgreSQL: the compression trial on the object columns (pgtrial.c). */
static int sample_trial(struct coll_conn *c, const struct coll_sample_opts *o,
                        const struct sample_names *q,
                        struct coll_sample_result *r, struct pt_err *err)
{
    const char *objs[COLL_MAX_COLUMNS];
    struct coll_tnames nm;
    int ret;

    for (size_t i = 0; i < o->n_columns; i++)
        objs[i] = o->columns[i];
    if ((ret = coll_tnames(c->engine, &q->exact, &nm, err)) < 0)
        return ret;
    return coll_pg_trial(c, &r->columns, objs, o->n_columns, q->qtable, nm.reg,
                         o->has_seed ? o->seed : COLL_TRIAL_SEED, &r->trial,
                         err);
}

int coll_sample_is_object(const struct coll_sample_opts *o, const char *name)
{
    for (size_t k = 0; k < o->n_columns; k++)
        if (strcasecmp(name, o->columns[k]) == 0)
            return 1;
    return 0;
}

/*
 * MariaDB: each other column's bytes (OCTET_LENGTH of its non-NULL values,
 * or its type's fixed width) and NULL share, over rows sampled as the
 * sizes were (a second pass: the same method, not the same rows), into
 * r->columns' avg_width and null_frac. MariaDB keeps no such statistic
 * unless ANALYZE ... PERSISTENT has run (mysql.column_stats); the replay's
 * scratch rows take them (myreplay.c). A column whose name pagetune does
 * not quote leaves every column unmeasured (-1), as the rest of the row is.
 */
static int my_column_stats(struct coll_conn *c,
                           const struct coll_sample_opts *o,
                           const struct sample_names *q,
                           struct coll_sample_result *r, struct pt_err *err)
{
    char list[8192], inner[10240], outer[12288], method[256], term[640];
    char qn[COLL_NAME_MAX + 4];
    size_t ll = 0, ol = 0, n = 0;
    struct coll_rows rows;
    int ret;

    list[0] = outer[0] = '\0';
    cat(outer, sizeof(outer), &ol, "SELECT COUNT(*) AS pt_rows");
    for (size_t i = 0; i < r->columns.n; i++) {
        const struct coll_column *col = &r->columns.col[i];
        if (coll_sample_is_object(o, col->name))
            continue;
        if (coll_ident_check(col->name, "catalog column", NULL) < 0)
            return 0;
        coll_ident_quote(COLL_ENGINE_MYSQL, col->name, qn, sizeof(qn), NULL);
        snprintf(term, sizeof(term),
                 "%sOCTET_LENGTH(%s) AS pt_w%zu, CASE WHEN %s IS NULL THEN 1 "
                 "ELSE 0 END AS pt_n%zu",
                 n ? ", " : "", qn, i, qn, i);
        if (cat(list, sizeof(list), &ll, term) < 0)
            return 0; /* too many columns to measure: left unmeasured */
        snprintf(term, sizeof(term),
                 ", AVG(pt_w%zu) AS pt_w%zu, AVG(pt_n%zu) "
                 "AS pt_n%zu",
                 i, i, i, i);
        if (cat(outer, sizeof(outer), &ol, term) < 0)
            return 0;
        n++;
    }
    if (!n)
        return 0;
    if ((ret = coll_sample_sql(c->engine, o, list, q->qtable, NULL, inner,
                               sizeof(inner), method, sizeof(method), err)) < 0)
        return ret;
    if (cat(outer, sizeof(outer), &ol, " FROM (") < 0 ||
        cat(outer, sizeof(outer), &ol, inner) < 0 ||
        cat(outer, sizeof(outer), &ol, ") pt_c") < 0)
        return 0;
    if ((ret = coll_query_rows(c, outer, &rows, err)) < 0)
        return ret;
    for (size_t i = 0; rows.n_rows == 1 && i < r->columns.n; i++) {
        struct coll_column *col = &r->columns.col[i];
        char wn[32], nn[32];
        double w = -1, nf = -1, cnt = 0;
        snprintf(wn, sizeof(wn), "pt_w%zu", i);
        snprintf(nn, sizeof(nn), "pt_n%zu", i);
        if (coll_rows_col(&rows, nn) < 0 ||
            coll_parse_num(coll_rows_get(&rows, 0, "pt_rows"), &cnt, "sample",
                           "pt_rows", NULL) < 0 ||
            cnt < 1 ||
            coll_parse_num(coll_rows_get(&rows, 0, nn), &nf, "sample", nn,
                           NULL) < 0)
            continue;
        col->null_frac = nf;
        /* AVG of NULLs only (every value NULL): no width, a NULL cell */
        if (coll_parse_num(coll_rows_get(&rows, 0, wn), &w, "sample", wn,
                           NULL) < 0)
            w = 0;
        col->avg_width = col->fixed_bytes ? (double)col->fixed_bytes : w;
    }
    coll_rows_release(&rows);
    return 0;
}

int coll_sample_run(struct coll_conn *c, const struct coll_sample_opts *o,
                    struct coll_sample_result *r, struct pt_err *err)
{
    const struct coll_engine_ops *ops = coll_engine_ops_get(c->engine);
    struct sample_names q;
    struct row_ctx rx;
    struct fetch_spec fs;
    size_t R;
    int ret;

    memset(r, 0, sizeof(*r));
    r->engine = c->engine;
    if (!ops)
        return err_set(err, PT_EINTERNAL, "no adapter for the engine");
    if (o->n_columns == 0 || o->n_columns > COLL_MAX_COLUMNS)
        return err_set(err, PT_EUSAGE, "`columns`: give 1 to %d columns",
                       COLL_MAX_COLUMNS);
    R = o->block_rows ? o->block_rows : 1024;
    if (R > MAX_BLOCK_ROWS)
        R = MAX_BLOCK_ROWS;
    memset(&q, 0, sizeof(q));
    if ((ret = quote_names(c->engine, o, &q, err)) < 0 ||
        (ret = probe_table(c, o, &q, err)) < 0 ||
        (ret = check_columns(c, o, &q, r, err)) < 0 ||
        (ret = rows_query(ops, o, &q, r, err)) < 0)
        return ret;
    if (ops->sample_prepare) {
        ret = ops->sample_prepare(c, o, err);
        if (ret < 0)
            return ret;
    }
    estimate_rows(ops, c, o, &q.exact, r);

    memset(&rx, 0, sizeof(rx));
    rx.r = r;
    rx.n_cols = o->n_columns;
    rx.has_flag = q.sessions_layout;
    rx.row_cols = q.row_cols;
    rx.rest_const = coll_row_rest_const(c->engine, &r->columns);
    rx.grouped = o->grouped;
    memset(&fs, 0, sizeof(fs));
    fs.n_cols = o->n_columns + (q.sessions_layout ? 1 : 0) +
                (size_t)q.row_cols + (o->grouped ? 1 : 0);
    fs.block_rows = R;
    fs.fn = on_rows;
    fs.ctx = &rx;
    fs.o = o;
    fs.display = q.display;
    fs.total = r->estimated_rows;
    ret = fetch_blocks(c, r->query, &fs, err);
    if (ret < 0)
        goto fail;
    r->have_rows = q.row_cols > 0 && r->n_values > 0;
    /* the columns' widths are for the server replay's scratch rows: a
       failed pass (a statement timeout on a large table) leaves them
       unmeasured, as sizes.json then says, and the sample stands */
    if (c->engine == COLL_ENGINE_MYSQL && r->have_rows &&
        (ret = my_column_stats(c, o, &q, r, err)) < 0) {
        if (ret == PT_EUNAVAIL || ret == PT_EINTR) /* as catalog.c's */
            goto fail;
        for (size_t i = 0; i < r->columns.n; i++)
            r->columns.col[i].avg_width = r->columns.col[i].null_frac = -1;
        err_clear(err);
    }
    if (c->engine == COLL_ENGINE_POSTGRESQL &&
        (ret = sample_trial(c, o, &q, r, err)) < 0)
        goto fail;
    /* the knobs the advice may change, as they are now */
    ret = coll_state_read(c, &q.exact, o->columns[0], &r->state, err);
    if (ret < 0)
        goto fail;
    r->have_state = 1;
    /* the live rows: a full scan counted them, else the catalog's
       statistics (never a count(*) of its own) */
    if (!(o->percent > 0 && o->percent < 100) && o->rows == 0) {
        r->live_rows = (int64_t)r->rows_scanned;
        snprintf(r->live_rows_source, sizeof(r->live_rows_source),
                 "sample: a full scan counted every row");
    } else if ((ret = coll_live_rows_stat(
                    c, &q.exact, &r->live_rows, r->live_rows_source,
                    sizeof(r->live_rows_source), err)) < 0) {
        goto fail;
    }
    set_layout(&q, r);
    if (r->layout != COLL_LAYOUT_MULTI_ROW)
        return 0;
    ret = sample_sessions(c, ops, o, &q, &fs, r, err);
    if (ret < 0)
        goto fail;
    return 0;
fail:
    coll_sample_result_release(r);
    return ret;
}
