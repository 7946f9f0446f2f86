/* SPDX-License-Identifier: Apache-2.0 */
/*
 * engine_postgresql.c — the PostgreSQL adapter: octet_length() for sizes
 * (for bytea it reads the TOAST header, not the value: "octet_length" in
 * PostgreSQL's "Binary String Functions"), TABLESAMPLE BERNOULLI/SYSTEM
 * (PostgreSQL "SELECT" reference, "TABLESAMPLE"), and the monitor views
 * pg_stat_database (blks_hit, blks_read), pg_statio_user_tables (heap and
 * TOAST blocks separately) and pg_settings (block_size, shared_buffers),
 * from PostgreSQL's "The Cumulative Statistics System" chapter.
 */
#include "collect/internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int pg_length(const char *q, char *buf, size_t len)
{
    return (size_t)snprintf(buf, len, "octet_length(%s)", q) < len ? 0 : -1;
}

static int pg_sample_sql(const struct coll_sample_opts *o, const char *list,
                         const char *qtable, const char *where, char *buf,
                         size_t len, char *method, size_t mlen)
{
    char clause[96];

    if (o->percent > 0 && o->percent < 100) {
        const char *m = coll_tablesample(o, clause, sizeof(clause));
        snprintf(method, mlen,
                 "server-side TABLESAMPLE %s (%.6g percent)%s: %s", m,
                 o->percent, o->has_seed ? ", repeatable" : "",
                 o->method == COLL_METHOD_SYSTEM
                     ? "whole pages chosen at random"
                     : "each row chosen with that probability");
        return coll_select_sql(buf, len, list, qtable, clause, NULL, where, "");
    }
    snprintf(clause, sizeof(clause), " ORDER BY random() LIMIT %llu",
             (unsigned long long)o->rows);
    snprintf(method, mlen,
             "server-side ORDER BY random() LIMIT %llu: %llu rows chosen "
             "uniformly at random%s",
             (unsigned long long)o->rows, (unsigned long long)o->rows,
             o->has_seed ? " (setseed before the query)" : "");
    return coll_select_sql(buf, len, list, qtable, "", NULL, where, clause);
}

int coll_pg_setseed(struct coll_conn *c, uint32_t seed, struct pt_err *err)
{
    char sql[64];
    /* setseed takes -1..1 */
    snprintf(sql, sizeof(sql), "SELECT setseed(%.9f)",
             (double)seed / 4294967295.0);
    return coll_exec(c, sql, err);
}

static int pg_prepare(struct coll_conn *c, const struct coll_sample_opts *o,
                      struct pt_err *err)
{
    if (!o->rows || !o->has_seed)
        return 0;
    return coll_pg_setseed(c, o->seed, err);
}

static uint64_t pg_estimate(struct coll_conn *c, const struct pt_qname *t)
{
    struct coll_tnames nm;
    char sql[4096];
    int64_t v = 0;

    if (coll_tnames(COLL_ENGINE_POSTGRESQL, t, &nm, NULL) < 0)
        return 0;
    snprintf(sql, sizeof(sql),
             "SELECT GREATEST(reltuples, 0)::bigint FROM pg_class WHERE "
             "oid = to_regclass(%s)",
             nm.reg);
    if (coll_query_i64(c, sql, &v, NULL) < 0 || v < 0)
        return 0;
    return (uint64_t)v;
}

int coll_pg_parse_settings(const struct coll_rows *rows,
                           struct coll_snapshot *s, struct pt_err *err)
{
    double block = 0, shared = 0, unit_bytes = 0;
    int have_block = 0, have_shared = 0;

    for (size_t i = 0; i < rows->n_rows; i++) {
        const char *name = coll_rows_get(rows, i, "NAME");
        const char *unit = coll_rows_get(rows, i, "UNIT");
        double v;
        int ret;
        if (!name)
            continue;
        ret = coll_parse_num(coll_rows_get(rows, i, "SETTING"), &v,
                             "pg_settings", name, err);
        if (ret < 0)
            return ret;
        if (strcmp(name, "block_size") == 0) {
            block = v;
            have_block = 1;
        } else if (strcmp(name, "shared_buffers") == 0) {
            shared = v;
            have_shared = 1;
            /* the unit of shared_buffers is one block, "8kB" by default */
            if (unit && strcmp(unit, "8kB") == 0)
                unit_bytes = 8192;
            else if (unit && strcmp(unit, "kB") == 0)
                unit_bytes = 1024;
            else if (unit && strcmp(unit, "MB") == 0)
                unit_bytes = 1048576;
        }
    }
    if (!have_block || !have_shared || block <= 0)
        return err_set(err, PT_EDATA,
                       "pg_settings: block_size or shared_buffers missing");
    if (unit_bytes == 0)
        unit_bytes = block;
    /* a setting near DBL_MAX times its unit overflows: not a real pool */
    if (!isfinite(shared * unit_bytes / block))
        return err_set(err, PT_EDATA,
                       "pg_settings: shared_buffers %g is out of range",
                       shared);
    if (coll_snapshot_add(s, "bufferpool", "shared_buffers", "page_size", block,
                          0) < 0 ||
        coll_snapshot_add(s, "bufferpool", "shared_buffers", "pages",
                          shared * unit_bytes / block, 0) < 0)
        return err_set(err, PT_EINTERNAL, "out of memory");
    return 0;
}

int coll_pg_parse_database(const struct coll_rows *rows,
                           struct coll_snapshot *s, struct pt_err *err)
{
    static const char *const counters[] = {"BLKS_HIT",    "BLKS_READ",
                                           "XACT_COMMIT", "TUP_RETURNED",
                                           "TUP_FETCHED", "BLK_READ_TIME"};
    double hit = 0, read = 0;
    int ret;

    if (coll_rows_col(rows, "DATNAME") < 0)
        return err_set(err, PT_EDATA, "pg_stat_database: no column DATNAME");
    for (size_t i = 0; i < rows->n_rows; i++) {
        const char *db = coll_rows_get(rows, i, "DATNAME");
        double h, r;
        if (!db)
            continue; /* shared objects row (PostgreSQL 15) */
        for (size_t k = 0; k < sizeof(counters) / sizeof(counters[0]); k++) {
            ret = coll_rows_metric(rows, i, counters[k], "database", db, 1,
                                   k < 2, s, "pg_stat_database", err);
            if (ret < 0)
                return ret;
        }
        ret = coll_parse_num(coll_rows_get(rows, i, "BLKS_HIT"), &h,
                             "pg_stat_database", "BLKS_HIT", err);
        if (ret < 0)
            return ret;
        ret = coll_parse_num(coll_rows_get(rows, i, "BLKS_READ"), &r,
                             "pg_stat_database", "BLKS_READ", err);
        if (ret < 0)
            return ret;
        hit += h;
        read += r;
    }
    /* shared_buffers serves every database: logical = hits + reads, a
       read is a block not found in shared_buffers */
    if (coll_snapshot_add(s, "bufferpool", "shared_buffers", "logical_reads",
                          hit + read, 1) < 0 ||
        coll_snapshot_add(s, "bufferpool", "shared_buffers", "physical_reads",
                          read, 1) < 0 ||
        coll_snapshot_add(s, "bufferpool", "shared_buffers", "direct_reads", 0,
                          1) < 0 ||
        coll_snapshot_add(s, "bufferpool", "shared_buffers", "direct_writes", 0,
                          1) < 0)
        return err_set(err, PT_EINTERNAL, "out of memory");
    return 0;
}

int coll_pg_parse_tables(const struct coll_rows *rows, struct coll_snapshot *s,
                         struct pt_err *err)
{
    static const char *const counters[] = {
        "HEAP_BLKS_READ",  "HEAP_BLKS_HIT",  "IDX_BLKS_READ",  "IDX_BLKS_HIT",
        "TOAST_BLKS_READ", "TOAST_BLKS_HIT", "TIDX_BLKS_READ", "TIDX_BLKS_HIT"};
    int ret;

    if (coll_rows_col(rows, "TABLE_NAME") < 0)
        return err_set(err, PT_EDATA,
                       "pg_statio_user_tables: no column TABLE_NAME");
    for (size_t i = 0; i < rows->n_rows; i++) {
        const char *t = coll_rows_get(rows, i, "TABLE_NAME");
        if (!t)
            continue;
        for (size_t k = 0; k < sizeof(counters) / sizeof(counters[0]); k++) {
            /* heap counters are required; index and TOAST are NULL when
               the table has none */
            ret = coll_rows_metric(rows, i, counters[k], "table", t, 1, k < 2,
                                   s, "pg_statio_user_tables", err);
            if (ret < 0)
                return ret;
        }
        /* the live rows the catalog's statistics hold (pg_class.reltuples
           of the last VACUUM or ANALYZE, -1 before any): a gauge, never
           a count(*) */
        ret = coll_rows_metric(rows, i, "RELTUPLES", "table", t, 0, 0, s,
                               "pg_class", err);
        if (ret < 0)
            return ret;
    }
    return 0;
}

static int pg_snapshot(struct coll_conn *c, struct coll_snapshot *s,
                       struct pt_err *err)
{
    struct coll_rows rows;
    int ret;

    ret = coll_query_rows(c,
                          "SELECT name, setting, unit FROM pg_settings WHERE "
                          "name IN ('block_size', 'shared_buffers')",
                          &rows, err);
    if (ret < 0)
        return ret;
    ret = coll_pg_parse_settings(&rows, s, err);
    coll_rows_release(&rows);
    if (ret < 0)
        return ret;
    ret = coll_query_rows(c,
                          "SELECT datname, blks_hit, blks_read, xact_commit, "
                          "tup_returned, tup_fetched, blk_read_time FROM "
                          "pg_stat_database",
                          &rows, err);
    if (ret < 0)
        return ret;
    ret = coll_pg_parse_database(&rows, s, err);
    coll_rows_release(&rows);
    if (ret < 0)
        return ret;
    /* the 100 busiest tables of the connected database */
    ret = coll_query_rows(
        c,
        "SELECT schemaname || '.' || relname AS table_name, heap_blks_read, "
        "heap_blks_hit, idx_blks_read, idx_blks_hit, toast_blks_read, "
        "toast_blks_hit, tidx_blks_read, tidx_blks_hit, (SELECT "
        "c.reltuples::bigint FROM pg_class c WHERE c.oid = relid) AS "
        "reltuples FROM pg_statio_user_tables ORDER BY "
        "coalesce(heap_blks_read, 0) + coalesce(heap_blks_hit, 0) + "
        "coalesce(toast_blks_read, 0) + coalesce(toast_blks_hit, 0) DESC, 1 "
        "LIMIT 100",
        &rows, err);
    if (ret < 0)
        return ret;
    ret = coll_pg_parse_tables(&rows, s, err);
    coll_rows_release(&rows);
    return ret;
}

static void pg_current(const struct coll_snapshot *s, struct coll_current *cur)
{
    const struct coll_metric *ps =
        coll_snapshot_find(s, "bufferpool", "shared_buffers", "page_size");
    const struct coll_metric *np =
        coll_snapshot_find(s, "bufferpool", "shared_buffers", "pages");
    memset(cur, 0, sizeof(*cur));
    strcpy(cur->bufferpool, "shared_buffers");
    cur->has_hit_counters = 1;
    if (ps)
        cur->page_size = coll_metric_u64(ps);
    if (np)
        cur->bufferpool_pages = coll_metric_u64(np);
    cur->bufferpool_bytes = coll_mul_u64(cur->page_size, cur->bufferpool_pages);
    snprintf(cur->note, sizeof(cur->note),
             "blks_read counts blocks not found in shared_buffers; some are "
             "served by the OS page cache");
}

const struct coll_engine_ops coll_pg_ops = {
    .id = COLL_ENGINE_POSTGRESQL,
    .name = "postgresql",
    .quote = {"\"", "\"", "\"\"", -1},
    .ident_max_bytes = 63,
    .ident_max_chars = 0,
    .backslash_escapes = 0,
    .length_expr = pg_length,
    .sample_sql = pg_sample_sql,
    .sample_prepare = pg_prepare,
    .estimate_rows = pg_estimate,
    .snapshot = pg_snapshot,
    .current = pg_current,
};
