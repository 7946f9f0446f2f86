/* SPDX-License-Identifier: Apache-2.0 */
/*
 * engine_sqlite.c — the SQLite adapter (through the SQLite3 ODBC driver).
 * Sizes: length() counts bytes for a BLOB but characters for TEXT (SQLite
 * "Built-in Scalar SQL Functions", length), so TEXT values are cast to BLOB
 * first; for BLOBs length() reads the size from the record header without
 * loading overflow pages. Sampling: SQLite has no TABLESAMPLE; a row is
 * kept when abs(random() % 1000000) < p * 10000 (random() cannot be seeded,
 * so SQLite samples are not repeatable). Monitor: PRAGMA page_size,
 * page_count, cache_size, freelist_count only — SQLite keeps its cache hit
 * counters per connection (sqlite3_db_status), which ODBC cannot reach; the
 * built-in store reads them through the C API.
 */
#include "collect/internal.h"

#include <stdlib.h>
#include <string.h>

static int lite_length(const char *q, char *buf, size_t len)
{
    return (size_t)snprintf(buf, len,
                            "CASE typeof(%s) WHEN 'text' THEN "
                            "length(CAST(%s AS BLOB)) ELSE length(%s) END",
                            q, q, q) < len
               ? 0
               : -1;
}

static int lite_sample_sql(const struct coll_sample_opts *o, const char *list,
                           const char *qtable, const char *where, char *buf,
                           size_t len, char *method, size_t mlen)
{
    char sql[96];

    if (o->percent > 0 && o->percent < 100) {
        long long t = (long long)(o->percent * 10000.0 + 0.5);
        snprintf(sql, sizeof(sql), "abs(random() %% 1000000) < %lld", t);
        snprintf(method, mlen,
                 "server-side row filter abs(random() %% 1000000) < %lld: "
                 "each row kept with probability %.6g%% (SQLite has no "
                 "TABLESAMPLE; random() has no seed, so not repeatable)",
                 t, o->percent);
        return coll_select_sql(buf, len, list, qtable, "", sql, where, "");
    }
    snprintf(sql, sizeof(sql), " ORDER BY random() LIMIT %llu",
             (unsigned long long)o->rows);
    snprintf(method, mlen,
             "server-side ORDER BY random() LIMIT %llu: rows chosen "
             "uniformly at random (not repeatable)",
             (unsigned long long)o->rows);
    return coll_select_sql(buf, len, list, qtable, "", NULL, where, sql);
}

int coll_sqlite_parse_pragmas(const struct coll_rows *rows,
                              struct coll_snapshot *s, struct pt_err *err)
{
    static const char *const cols[] = {"PAGE_SIZE", "PAGE_COUNT", "CACHE_SIZE",
                                       "FREELIST_COUNT"};
    double ps, cache, pages;
    int ret;

    if (rows->n_rows != 1)
        return err_set(err, PT_EDATA, "PRAGMA query returned %zu rows",
                       rows->n_rows);
    for (size_t k = 0; k < 4; k++) {
        ret = coll_rows_metric(rows, 0, cols[k], "setting", "main", 0, 1, s,
                               "PRAGMA", err);
        if (ret < 0)
            return ret;
    }
    coll_parse_num(coll_rows_get(rows, 0, "PAGE_SIZE"), &ps, "PRAGMA",
                   "PAGE_SIZE", NULL);
    coll_parse_num(coll_rows_get(rows, 0, "CACHE_SIZE"), &cache, "PRAGMA",
                   "CACHE_SIZE", NULL);
    if (ps <= 0)
        return err_set(err, PT_EDATA, "PRAGMA page_size is %g", ps);
    /* cache_size N > 0: N pages; N < 0: |N| KiB (SQLite "PRAGMA
       cache_size") */
    pages = cache >= 0 ? cache : (-cache * 1024.0) / ps;
    if (coll_snapshot_add(s, "bufferpool", "page_cache", "page_size", ps, 0) <
            0 ||
        coll_snapshot_add(s, "bufferpool", "page_cache", "pages",
                          (double)(uint64_t)pages, 0) < 0)
        return err_set(err, PT_EINTERNAL, "out of memory");
    return 0;
}

static int lite_snapshot(struct coll_conn *c, struct coll_snapshot *s,
                         struct pt_err *err)
{
    struct coll_rows rows;
    int ret = coll_query_rows(
        c,
        "SELECT p.page_size AS page_size, c.page_count AS page_count, "
        "s.cache_size AS cache_size, f.freelist_count AS freelist_count "
        "FROM pragma_page_size() p, pragma_page_count() c, "
        "pragma_cache_size() s, pragma_freelist_count() f",
        &rows, err);
    if (ret < 0)
        return ret;
    ret = coll_sqlite_parse_pragmas(&rows, s, err);
    coll_rows_release(&rows);
    snprintf(s->note, sizeof(s->note),
             "SQLite has no cache hit counters reachable over ODBC "
             "(sqlite3_db_status is per connection)");
    return ret;
}

static void lite_current(const struct coll_snapshot *s,
                         struct coll_current *cur)
{
    const struct coll_metric *ps =
        coll_snapshot_find(s, "bufferpool", "page_cache", "page_size");
    const struct coll_metric *np =
        coll_snapshot_find(s, "bufferpool", "page_cache", "pages");
    memset(cur, 0, sizeof(*cur));
    strcpy(cur->bufferpool, "page_cache");
    cur->has_hit_counters = 0;
    if (ps)
        cur->page_size = coll_metric_u64(ps);
    if (np)
        cur->bufferpool_pages = coll_metric_u64(np);
    cur->bufferpool_bytes = coll_mul_u64(cur->page_size, cur->bufferpool_pages);
    snprintf(cur->note, sizeof(cur->note),
             "no hit counters over ODBC: SQLite keeps them per connection "
             "(sqlite3_db_status); the page cache size is this connection's "
             "cache_size");
}

const struct coll_engine_ops coll_sqlite_ops = {
    .id = COLL_ENGINE_SQLITE,
    .name = "sqlite",
    /* backticks: a double-quoted name that matches no column would be taken
       as a string literal by SQLite ("SQLite Keywords", quirk kept for
       compatibility); `name` is always an identifier */
    .quote = {"`", "`", "``", 0},
    .ident_max_bytes = 0,
    .ident_max_chars = 0,
    .backslash_escapes = 0,
    .length_expr = lite_length,
    .sample_sql = lite_sample_sql,
    .sample_prepare = NULL,
    .estimate_rows = NULL,
    .snapshot = lite_snapshot,
    .current = lite_current,
};
