/* SPDX-License-Identifier: Apache-2.0 */
/*
 * engine_mysql.c — the MariaDB / MySQL adapter: OCTET_LENGTH() for sizes
 * (bytes, also for multi-byte character sets), sampling by RAND() filtering
 * (no TABLESAMPLE in MariaDB: "WHERE RAND(seed) < p/100" keeps each row
 * with probability p, repeatable with a seed), and the InnoDB counters:
 * SHOW GLOBAL STATUS Innodb_buffer_pool_read_requests (logical reads) and
 * Innodb_buffer_pool_reads ("logical reads that InnoDB could not satisfy
 * from the buffer pool, and had to read directly from disk", MariaDB "InnoDB
 * Status Variables"), information_schema.INNODB_BUFFER_POOL_STATS (needs the
 * PROCESS privilege), @@innodb_page_size and @@innodb_buffer_pool_size.
 */
#include "collect/internal.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

static int my_length(const char *q, char *buf, size_t len)
{
    return (size_t)snprintf(buf, len, "OCTET_LENGTH(%s)", q) < len ? 0 : -1;
}

static int my_sample_sql(const struct coll_sample_opts *o, const char *list,
                         const char *qtable, const char *where, char *buf,
                         size_t len, char *method, size_t mlen)
{
    char rnd[32] = "RAND()", sql[96];

    if (o->has_seed)
        snprintf(rnd, sizeof(rnd), "RAND(%u)", o->seed);
    if (o->percent > 0 && o->percent < 100) {
        snprintf(sql, sizeof(sql), "%s < %.8g", rnd, o->percent / 100.0);
        snprintf(method, mlen,
                 "server-side row filter WHERE %s < %.8g: each row kept with "
                 "probability %.6g%% (MariaDB has no TABLESAMPLE; the scan "
                 "still reads every row's length)",
                 rnd, o->percent / 100.0, o->percent);
        return coll_select_sql(buf, len, list, qtable, "", sql, where, "");
    }
    snprintf(sql, sizeof(sql), " ORDER BY %s LIMIT %llu", rnd,
             (unsigned long long)o->rows);
    snprintf(method, mlen,
             "server-side ORDER BY %s LIMIT %llu: rows chosen uniformly "
             "at random",
             rnd, (unsigned long long)o->rows);
    return coll_select_sql(buf, len, list, qtable, "", NULL, where, sql);
}

static uint64_t my_estimate(struct coll_conn *c, const struct pt_qname *t)
{
    struct coll_tnames nm;
    char sql[4096];
    int64_t v = 0;

    if (coll_tnames(COLL_ENGINE_MYSQL, t, &nm, NULL) < 0)
        return 0;
    snprintf(sql, sizeof(sql),
             "SELECT COALESCE(MAX(TABLE_ROWS), 0) FROM "
             "information_schema.TABLES WHERE TABLE_SCHEMA = %s AND "
             "TABLE_NAME = %s",
             nm.schema, nm.table);
    if (coll_query_i64(c, sql, &v, NULL) < 0 || v < 0)
        return 0;
    return (uint64_t)v;
}

/* Status variables that are levels, not counters. */
static int is_gauge(const char *name)
{
    static const char *const gauges[] = {"Innodb_buffer_pool_pages_",
                                         "Innodb_buffer_pool_bytes_",
                                         "Innodb_page_size",
                                         "_current",
                                         "Innodb_num_open_files",
                                         "Innodb_buffer_pool_load_",
                                         "Innodb_buffer_pool_dump_",
                                         "Innodb_buffer_pool_resize",
                                         "Innodb_have_",
                                         "Innodb_os_log_pending",
                                         "Innodb_data_pending",
                                         "Innodb_checkpoint_",
                                         "Innodb_history_list_length",
                                         "Innodb_mem_",
                                         "Innodb_undo_truncations",
                                         "Innodb_available_undo",
                                         "Innodb_max_trx_id",
                                         "Innodb_lsn_",
                                         "Innodb_onlineddl_",
                                         "Innodb_instant_alter",
                                         "Innodb_encryption_",
                                         "Innodb_scrub_",
                                         "Innodb_deadlocks_",
                                         "Innodb_dict_tables",
                                         "Innodb_ibuf_size",
                                         "Innodb_ibuf_free_list",
                                         "Innodb_ibuf_segment_size",
                                         "Innodb_oldest_view",
                                         "Innodb_read_views",
                                         "Innodb_descriptors",
                                         "Innodb_master_thread_",
                                         "Innodb_row_lock_time_max",
                                         "Innodb_row_lock_time_avg",
                                         "Innodb_mutex_",
                                         "Innodb_secondary_index_",
                                         "Innodb_defragment_"};
    for (size_t i = 0; i < sizeof(gauges) / sizeof(gauges[0]); i++)
        if (strstr(name, gauges[i]))
            return 1;
    return 0;
}

int coll_mysql_parse_status(const struct coll_rows *rows,
                            struct coll_snapshot *s, struct pt_err *err)
{
    int cn = coll_rows_col(rows, "VARIABLE_NAME");
    int cv = coll_rows_col(rows, "VALUE");
    double req = -1, rd = -1;

    if (cn < 0 || cv < 0)
        return err_set(err, PT_EDATA,
                       "SHOW GLOBAL STATUS: expected columns Variable_name "
                       "and Value");
    for (size_t i = 0; i < rows->n_rows; i++) {
        const char *name = rows->cells[i * rows->n_cols + (size_t)cn];
        const char *val = rows->cells[i * rows->n_cols + (size_t)cv];
        double v;
        if (!name || !val)
            continue;
        if (coll_parse_num(val, &v, "status", name, NULL) < 0)
            continue; /* text values (ON, load status) */
        if (coll_snapshot_add(s, "instance", "innodb", name, v,
                              !is_gauge(name)) < 0)
            return err_set(err, PT_EINTERNAL, "out of memory");
        if (strcasecmp(name, "Innodb_buffer_pool_read_requests") == 0)
            req = v;
        else if (strcasecmp(name, "Innodb_buffer_pool_reads") == 0)
            rd = v;
    }
    if (req < 0 || rd < 0)
        return err_set(err, PT_EDATA,
                       "SHOW GLOBAL STATUS: Innodb_buffer_pool_read_requests "
                       "or Innodb_buffer_pool_reads missing (is InnoDB on?)");
    if (coll_snapshot_add(s, "bufferpool", "innodb", "logical_reads", req, 1) <
            0 ||
        coll_snapshot_add(s, "bufferpool", "innodb", "physical_reads", rd, 1) <
            0 ||
        coll_snapshot_add(s, "bufferpool", "innodb", "direct_reads", 0, 1) <
            0 ||
        coll_snapshot_add(s, "bufferpool", "innodb", "direct_writes", 0, 1) < 0)
        return err_set(err, PT_EINTERNAL, "out of memory");
    return 0;
}

int coll_mysql_parse_pool_stats(const struct coll_rows *rows,
                                struct coll_snapshot *s, struct pt_err *err)
{
    static const struct {
        const char *col;
        int cumulative;
    } cols[] = {
        {"POOL_SIZE", 0},
        {"FREE_BUFFERS", 0},
        {"DATABASE_PAGES", 0},
        {"MODIFIED_DATABASE_PAGES", 0},
        {"NUMBER_PAGES_READ", 1},
        {"NUMBER_PAGES_GET", 1},
        {"NUMBER_PAGES_WRITTEN", 1},
        {"PAGES_MADE_YOUNG", 1},
        {"HIT_RATE", 0},
    };
    if (coll_rows_col(rows, "POOL_ID") < 0)
        return err_set(err, PT_EDATA,
                       "INNODB_BUFFER_POOL_STATS: no column POOL_ID");
    for (size_t i = 0; i < rows->n_rows; i++) {
        char obj[64];
        const char *id = coll_rows_get(rows, i, "POOL_ID");
        snprintf(obj, sizeof(obj), "innodb_pool_%s", id ? id : "?");
        for (size_t k = 0; k < sizeof(cols) / sizeof(cols[0]); k++) {
            int ret = coll_rows_metric(rows, i, cols[k].col, "pool_instance",
                                       obj, cols[k].cumulative, k < 3, s,
                                       "INNODB_BUFFER_POOL_STATS", err);
            if (ret < 0)
                return ret;
        }
    }
    return 0;
}

static int my_snapshot(struct coll_conn *c, struct coll_snapshot *s,
                       struct pt_err *err)
{
    struct coll_rows rows;
    struct pt_err e2;
    int ret;
    double ps, pool;

    ret = coll_query_rows(c,
                          "SELECT @@innodb_page_size AS page_size, "
                          "@@innodb_buffer_pool_size AS pool_size",
                          &rows, err);
    if (ret < 0)
        return ret;
    ret = coll_parse_num(coll_rows_get(&rows, 0, "PAGE_SIZE"), &ps,
                         "@@innodb_page_size", "PAGE_SIZE", err);
    if (ret == 0)
        ret = coll_parse_num(coll_rows_get(&rows, 0, "POOL_SIZE"), &pool,
                             "@@innodb_buffer_pool_size", "POOL_SIZE", err);
    coll_rows_release(&rows);
    if (ret < 0)
        return ret;
    if (ps <= 0)
        return err_set(err, PT_EDATA, "@@innodb_page_size is %g", ps);
    if (coll_snapshot_add(s, "bufferpool", "innodb", "page_size", ps, 0) < 0 ||
        coll_snapshot_add(s, "bufferpool", "innodb", "pages", pool / ps, 0) <
            0 ||
        coll_snapshot_add(s, "setting", "server", "innodb_buffer_pool_size",
                          pool, 0) < 0)
        return err_set(err, PT_EINTERNAL, "out of memory");

    ret = coll_query_rows(c, "SHOW GLOBAL STATUS LIKE 'Innodb%'", &rows, err);
    if (ret < 0)
        return ret;
    ret = coll_mysql_parse_status(&rows, s, err);
    coll_rows_release(&rows);
    if (ret < 0)
        return ret;

    ret = coll_query_rows(c,
                          "SELECT POOL_ID, POOL_SIZE, FREE_BUFFERS, "
                          "DATABASE_PAGES, MODIFIED_DATABASE_PAGES, "
                          "NUMBER_PAGES_READ, NUMBER_PAGES_GET, "
                          "NUMBER_PAGES_WRITTEN, PAGES_MADE_YOUNG, HIT_RATE "
                          "FROM information_schema.INNODB_BUFFER_POOL_STATS",
                          &rows, &e2);
    if (ret == PT_EPERM) {
        /* PROCESS privilege missing: the rest still works */
        snprintf(s->note, sizeof(s->note),
                 "INNODB_BUFFER_POOL_STATS not read (needs the PROCESS "
                 "privilege)");
        return 0;
    }
    if (ret < 0) {
        if (err)
            *err = e2;
        return ret;
    }
    ret = coll_mysql_parse_pool_stats(&rows, s, err);
    coll_rows_release(&rows);
    return ret;
}

static void my_current(const struct coll_snapshot *s, struct coll_current *cur)
{
    const struct coll_metric *ps =
        coll_snapshot_find(s, "bufferpool", "innodb", "page_size");
    const struct coll_metric *sz =
        coll_snapshot_find(s, "setting", "server", "innodb_buffer_pool_size");
    memset(cur, 0, sizeof(*cur));
    strcpy(cur->bufferpool, "innodb");
    cur->has_hit_counters = 1;
    if (ps)
        cur->page_size = coll_metric_u64(ps);
    if (sz)
        cur->bufferpool_bytes = coll_metric_u64(sz);
    if (cur->page_size)
        cur->bufferpool_pages = cur->bufferpool_bytes / cur->page_size;
    snprintf(cur->note, sizeof(cur->note),
             "Innodb_buffer_pool_reads counts reads InnoDB could not serve "
             "from the buffer pool; off-page BLOB pages are buffered too");
}

const struct coll_engine_ops coll_mysql_ops = {
    .id = COLL_ENGINE_MYSQL,
    .name = "mysql",
    .quote = {"`", "`", "``", 0},
    .ident_max_bytes = 0,
    .ident_max_chars = 64,
    .backslash_escapes = 1,
    .length_expr = my_length,
    .sample_sql = my_sample_sql,
    .sample_prepare = NULL,
    .estimate_rows = my_estimate,
    .snapshot = my_snapshot,
    .current = my_current,
};
