/* SPDX-License-Identifier: Apache-2.0 */
/*
 * engine_db2.c — the DB2 LUW adapter. NOT run against a real DB2 here (no
 * DB2 server is available to the test suite): the SQL follows IBM's
 * documented names, and the row parsing below is unit tested with those
 * documented column sets (tests/unit/test_collect.c).
 *
 * Sources (IBM Db2 11.5 documentation):
 *  - MON_GET_BUFFERPOOL table function: BP_NAME, MEMBER,
 *    POOL_{DATA,INDEX,XDA}_{L,P}_READS and the POOL_TEMP_* variants,
 *    DIRECT_READS / DIRECT_WRITES (in 512-byte sectors: "direct_reads -
 *    Direct reads from database", average sectors per request =
 *    direct_reads / direct_read_reqs), DIRECT_READ_REQS /
 *    DIRECT_WRITE_REQS (requests), BP_CUR_BUFFSZ (current size in pages).
 *    Hit ratio = (1 - physical / logical) * 100 as in IBM's example query.
 *  - MON_GET_TABLESPACE: TBSP_NAME, TBSP_PAGE_SIZE, TBSP_EXTENT_SIZE,
 *    TBSP_PREFETCH_SIZE, TBSP_CUR_POOL_ID.
 *  - SYSCAT.BUFFERPOOLS: BPNAME, BUFFERPOOLID, NPAGES (-2 = AUTOMATIC),
 *    PAGESIZE.
 *  - LENGTH(): bytes for binary strings, LONG VARCHAR FOR BIT DATA and
 *    BLOB; TABLESAMPLE BERNOULLI|SYSTEM (p) REPEATABLE (n) in the
 *    table-reference of a subselect.
 */
#include "collect/internal.h"

#include <stdlib.h>
#include <string.h>

static int db2_length(const char *q, char *buf, size_t len)
{
    return (size_t)snprintf(buf, len, "LENGTH(%s)", q) < len ? 0 : -1;
}

static int db2_sample_sql(const struct coll_sample_opts *o, const char *list,
                          const char *qtable, const char *where, char *buf,
                          size_t len, char *method, size_t mlen)
{
    char clause[96];

    if (o->percent > 0 && o->percent < 100) {
        const char *m = coll_tablesample(o, clause, sizeof(clause));
        snprintf(method, mlen, "server-side TABLESAMPLE %s (%.6g percent)%s", m,
                 o->percent, o->has_seed ? ", repeatable" : "");
        return coll_select_sql(buf, len, list, qtable, clause, NULL, where, "");
    }
    snprintf(clause, sizeof(clause),
             " ORDER BY RAND() FETCH FIRST %llu ROWS ONLY",
             (unsigned long long)o->rows);
    snprintf(method, mlen,
             "server-side ORDER BY RAND() FETCH FIRST %llu ROWS ONLY",
             (unsigned long long)o->rows);
    return coll_select_sql(buf, len, list, qtable, "", NULL, where, clause);
}

static uint64_t db2_estimate(struct coll_conn *c, const struct pt_qname *t)
{
    struct coll_tnames nm;
    char sql[4096];
    int64_t v = 0;

    if (coll_tnames(COLL_ENGINE_DB2, t, &nm, NULL) < 0)
        return 0;
    snprintf(sql, sizeof(sql),
             "SELECT CARD FROM SYSCAT.TABLES WHERE TABSCHEMA = %s AND "
             "TABNAME = %s",
             nm.schema, nm.table);
    if (coll_query_i64(c, sql, &v, NULL) < 0 || v < 0)
        return 0;
    return (uint64_t)v;
}

/* Add v to an existing metric (several members) or create it. */
static int accumulate(struct coll_snapshot *s, const char *scope,
                      const char *obj, const char *name, double v,
                      int cumulative)
{
    for (size_t i = 0; i < s->n; i++) {
        struct coll_metric *m = &s->m[i];
        if (strcmp(m->scope, scope) == 0 && strcmp(m->object, obj) == 0 &&
            strcmp(m->name, name) == 0) {
            m->value += v;
            return 0;
        }
    }
    return coll_snapshot_add(s, scope, obj, name, v, cumulative);
}

#define DB2_BP_SQL                                                             \
    "SELECT BP_NAME, MEMBER, POOL_DATA_L_READS, POOL_DATA_P_READS, "           \
    "POOL_INDEX_L_READS, POOL_INDEX_P_READS, POOL_XDA_L_READS, "               \
    "POOL_XDA_P_READS, POOL_TEMP_DATA_L_READS, POOL_TEMP_DATA_P_READS, "       \
    "POOL_TEMP_INDEX_L_READS, POOL_TEMP_INDEX_P_READS, "                       \
    "POOL_TEMP_XDA_L_READS, POOL_TEMP_XDA_P_READS, DIRECT_READS, "             \
    "DIRECT_WRITES, DIRECT_READ_REQS, DIRECT_WRITE_REQS, BP_CUR_BUFFSZ "       \
    "FROM TABLE(MON_GET_BUFFERPOOL('', -2)) AS T"

int coll_db2_parse_bufferpool(const struct coll_rows *rows,
                              struct coll_snapshot *s, struct pt_err *err)
{
    static const char *const logical[] = {
        "POOL_DATA_L_READS",       "POOL_INDEX_L_READS",
        "POOL_XDA_L_READS",        "POOL_TEMP_DATA_L_READS",
        "POOL_TEMP_INDEX_L_READS", "POOL_TEMP_XDA_L_READS"};
    static const char *const physical[] = {
        "POOL_DATA_P_READS",       "POOL_INDEX_P_READS",
        "POOL_XDA_P_READS",        "POOL_TEMP_DATA_P_READS",
        "POOL_TEMP_INDEX_P_READS", "POOL_TEMP_XDA_P_READS"};
    static const char *const direct[] = {"DIRECT_READS", "DIRECT_WRITES",
                                         "DIRECT_READ_REQS",
                                         "DIRECT_WRITE_REQS"};
    const char *ctx = "MON_GET_BUFFERPOOL";
    int ret;

    if (coll_rows_col(rows, "BP_NAME") < 0)
        return err_set(err, PT_EDATA, "%s: no column BP_NAME", ctx);
    for (size_t i = 0; i < rows->n_rows; i++) {
        const char *bp = coll_rows_get(rows, i, "BP_NAME");
        double l = 0, p = 0, v;
        if (!bp)
            continue;
        for (size_t k = 0; k < 6; k++) {
            /* the TEMP and XDA variants are absent on old servers */
            int required = k < 2;
            const char *cell = coll_rows_get(rows, i, logical[k]);
            if (!cell && !required)
                continue;
            ret = coll_parse_num(cell, &v, ctx, logical[k], err);
            if (ret < 0)
                return ret;
            l += v;
            if (accumulate(s, "bufferpool", bp, logical[k], v, 1) < 0)
                goto oom;
            cell = coll_rows_get(rows, i, physical[k]);
            if (!cell && !required)
                continue;
            ret = coll_parse_num(cell, &v, ctx, physical[k], err);
            if (ret < 0)
                return ret;
            p += v;
            if (accumulate(s, "bufferpool", bp, physical[k], v, 1) < 0)
                goto oom;
        }
        for (size_t k = 0; k < 4; k++) {
            ret = coll_parse_num(coll_rows_get(rows, i, direct[k]), &v, ctx,
                                 direct[k], err);
            if (ret < 0)
                return ret;
            if (accumulate(s, "bufferpool", bp, direct[k], v, 1) < 0)
                goto oom;
            /* canonical: requests (comparable with page reads) */
            if (k == 2 &&
                accumulate(s, "bufferpool", bp, "direct_reads", v, 1) < 0)
                goto oom;
            if (k == 3 &&
                accumulate(s, "bufferpool", bp, "direct_writes", v, 1) < 0)
                goto oom;
        }
        if (coll_rows_get(rows, i, "BP_CUR_BUFFSZ")) {
            ret = coll_parse_num(coll_rows_get(rows, i, "BP_CUR_BUFFSZ"), &v,
                                 ctx, "BP_CUR_BUFFSZ", err);
            if (ret < 0)
                return ret;
            /* per member: the size of one member's pool */
            if (!coll_snapshot_find(s, "bufferpool", bp, "BP_CUR_BUFFSZ") &&
                coll_snapshot_add(s, "bufferpool", bp, "BP_CUR_BUFFSZ", v, 0) <
                    0)
                goto oom;
        }
        if (accumulate(s, "bufferpool", bp, "logical_reads", l, 1) < 0 ||
            accumulate(s, "bufferpool", bp, "physical_reads", p, 1) < 0)
            goto oom;
    }
    return 0;
oom:
    return err_set(err, PT_EINTERNAL, "out of memory");
}

#define DB2_TBSP_SQL                                                           \
    "SELECT TBSP_NAME, MEMBER, TBSP_PAGE_SIZE, TBSP_EXTENT_SIZE, "             \
    "TBSP_PREFETCH_SIZE, TBSP_CUR_POOL_ID, POOL_DATA_L_READS, "                \
    "POOL_DATA_P_READS, DIRECT_READS, DIRECT_READ_REQS "                       \
    "FROM TABLE(MON_GET_TABLESPACE('', -2)) AS T"

int coll_db2_parse_tablespace(const struct coll_rows *rows,
                              struct coll_snapshot *s, struct pt_err *err)
{
    static const struct {
        const char *col;
        int cumulative, required;
    } cols[] = {
        {"TBSP_PAGE_SIZE", 0, 1},     {"TBSP_EXTENT_SIZE", 0, 1},
        {"TBSP_PREFETCH_SIZE", 0, 1}, {"TBSP_CUR_POOL_ID", 0, 0},
        {"POOL_DATA_L_READS", 1, 0},  {"POOL_DATA_P_READS", 1, 0},
        {"DIRECT_READS", 1, 0},       {"DIRECT_READ_REQS", 1, 0},
    };
    if (coll_rows_col(rows, "TBSP_NAME") < 0)
        return err_set(err, PT_EDATA,
                       "MON_GET_TABLESPACE: no column TBSP_NAME");
    for (size_t i = 0; i < rows->n_rows; i++) {
        const char *t = coll_rows_get(rows, i, "TBSP_NAME");
        if (!t)
            continue;
        for (size_t k = 0; k < sizeof(cols) / sizeof(cols[0]); k++) {
            const char *cell = coll_rows_get(rows, i, cols[k].col);
            double v;
            int ret;
            if (!cell && !cols[k].required)
                continue;
            ret = coll_parse_num(cell, &v, "MON_GET_TABLESPACE", cols[k].col,
                                 err);
            if (ret < 0)
                return ret;
            if (cols[k].cumulative) {
                if (accumulate(s, "tablespace", t, cols[k].col, v, 1) < 0)
                    return err_set(err, PT_EINTERNAL, "out of memory");
            } else if (!coll_snapshot_find(s, "tablespace", t, cols[k].col) &&
                       coll_snapshot_add(s, "tablespace", t, cols[k].col, v,
                                         0) < 0) {
                return err_set(err, PT_EINTERNAL, "out of memory");
            }
        }
    }
    return 0;
}

/* pages: the configured size, or the current one when AUTOMATIC (-2). */
static void db2_fill_pages(struct coll_snapshot *s)
{
    size_t n = s->n;
    for (size_t i = 0; i < n; i++) {
        const struct coll_metric *m = &s->m[i], *cur;
        double pages;
        char bp[128];
        if (strcmp(m->scope, "bufferpool") != 0 ||
            strcmp(m->name, "NPAGES") != 0)
            continue;
        snprintf(bp, sizeof(bp), "%s", m->object);
        pages = m->value;
        cur = coll_snapshot_find(s, "bufferpool", bp, "BP_CUR_BUFFSZ");
        if (cur && (pages < 0 || cur->value > 0))
            pages = cur->value;
        if (pages < 0)
            pages = 0;
        coll_snapshot_add(s, "bufferpool", bp, "pages", pages, 0);
    }
}

#define DB2_CAT_SQL                                                            \
    "SELECT BPNAME, BUFFERPOOLID, NPAGES, PAGESIZE FROM SYSCAT.BUFFERPOOLS"

int coll_db2_parse_catalog_bp(const struct coll_rows *rows,
                              struct coll_snapshot *s, struct pt_err *err)
{
    if (coll_rows_col(rows, "BPNAME") < 0)
        return err_set(err, PT_EDATA, "SYSCAT.BUFFERPOOLS: no column BPNAME");
    for (size_t i = 0; i < rows->n_rows; i++) {
        const char *bp = coll_rows_get(rows, i, "BPNAME");
        double np, ps, id = -1;
        int ret;
        if (!bp)
            continue;
        ret = coll_parse_num(coll_rows_get(rows, i, "NPAGES"), &np,
                             "SYSCAT.BUFFERPOOLS", "NPAGES", err);
        if (ret == 0)
            ret = coll_parse_num(coll_rows_get(rows, i, "PAGESIZE"), &ps,
                                 "SYSCAT.BUFFERPOOLS", "PAGESIZE", err);
        if (ret < 0)
            return ret;
        if (coll_rows_get(rows, i, "BUFFERPOOLID"))
            coll_parse_num(coll_rows_get(rows, i, "BUFFERPOOLID"), &id, "", "",
                           NULL);
        if (coll_snapshot_add(s, "bufferpool", bp, "page_size", ps, 0) < 0 ||
            coll_snapshot_add(s, "bufferpool", bp, "NPAGES", np, 0) < 0 ||
            coll_snapshot_add(s, "bufferpool", bp, "automatic", np == -2, 0) <
                0 ||
            (id >= 0 &&
             coll_snapshot_add(s, "bufferpool", bp, "BUFFERPOOLID", id, 0) < 0))
            return err_set(err, PT_EINTERNAL, "out of memory");
    }
    db2_fill_pages(s);
    return 0;
}

static int db2_snapshot(struct coll_conn *c, struct coll_snapshot *s,
                        struct pt_err *err)
{
    struct coll_rows rows;
    int ret;

    ret = coll_query_rows(c, DB2_BP_SQL, &rows, err);
    if (ret < 0)
        return ret;
    ret = coll_db2_parse_bufferpool(&rows, s, err);
    coll_rows_release(&rows);
    if (ret < 0)
        return ret;
    ret = coll_query_rows(c, DB2_TBSP_SQL, &rows, err);
    if (ret < 0)
        return ret;
    ret = coll_db2_parse_tablespace(&rows, s, err);
    coll_rows_release(&rows);
    if (ret < 0)
        return ret;
    ret = coll_query_rows(c, DB2_CAT_SQL, &rows, err);
    if (ret < 0)
        return ret;
    ret = coll_db2_parse_catalog_bp(&rows, s, err);
    coll_rows_release(&rows);
    return ret;
}

/* The current pool: the one with the most logical reads. */
static void db2_current(const struct coll_snapshot *s, struct coll_current *cur)
{
    double best = -1;
    const char *bp = NULL;

    memset(cur, 0, sizeof(*cur));
    cur->has_hit_counters = 1;
    for (size_t i = 0; i < s->n; i++) {
        const struct coll_metric *m = &s->m[i];
        if (strcmp(m->scope, "bufferpool") == 0 &&
            strcmp(m->name, "logical_reads") == 0 && m->value > best) {
            best = m->value;
            bp = m->object;
        }
    }
    if (!bp)
        return;
    snprintf(cur->bufferpool, sizeof(cur->bufferpool), "%s", bp);
    {
        const struct coll_metric *ps =
            coll_snapshot_find(s, "bufferpool", bp, "page_size");
        const struct coll_metric *np =
            coll_snapshot_find(s, "bufferpool", bp, "pages");
        if (ps)
            cur->page_size = coll_metric_u64(ps);
        if (np)
            cur->bufferpool_pages = coll_metric_u64(np);
    }
    cur->bufferpool_bytes = coll_mul_u64(cur->page_size, cur->bufferpool_pages);
    snprintf(cur->note, sizeof(cur->note),
             "the pool with the most logical reads; direct_reads counts "
             "DIRECT_READ_REQS (LOB / LONG VARCHAR reads bypassing the pool)");
}

const struct coll_engine_ops coll_db2_ops = {
    .id = COLL_ENGINE_DB2,
    .name = "db2",
    .quote = {"\"", "\"", "\"\"", 1},
    .ident_max_bytes = 128,
    .ident_max_chars = 0,
    .backslash_escapes = 0,
    .length_expr = db2_length,
    .sample_sql = db2_sample_sql,
    .sample_prepare = NULL,
    .estimate_rows = db2_estimate,
    .snapshot = db2_snapshot,
    .current = db2_current,
};
