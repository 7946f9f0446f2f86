/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fuzz_monitor_rows.c — fuzz target for collect/'s monitor adapters: the
 * code that turns a server's result table (MON_GET_BUFFERPOOL, pg_settings,
 * SHOW GLOBAL STATUS, PRAGMAs, ...) into metrics. A server, a proxy or a
 * driver can return anything: odd column sets, NULLs, text where numbers
 * belong, huge or negative numbers. Input: the first line holds column
 * names separated by '|', every further line a row of cells ('\N' is
 * NULL). Every parser of collect.h gets the same table, then the current
 * configuration is read, deltas are taken between two snapshots, and their
 * monitor document is written and read back.
 */
#include "collect/collect.h"
#include "tests/fuzz/fuzz.h"

#include <math.h>

#define MAX_COLS 32

typedef int (*parse_fn)(const struct coll_rows *, struct coll_snapshot *,
                        struct pt_err *);

/* Split line [p, end) at '|' into cells (NUL-terminated in place). */
static size_t split(char *p, char *end, char **cells)
{
    size_t n = 0;

    cells[n++] = p;
    for (; p < end && n < MAX_COLS; p++)
        if (*p == '|') {
            *p = '\0';
            cells[n++] = p + 1;
        }
    *end = '\0';
    return n;
}

static int build(struct coll_rows *rows, char *text)
{
    char *cells[MAX_COLS], *p = text, *nl;
    size_t n_cols;

    nl = strchr(p, '\n');
    if (!nl)
        nl = p + strlen(p);
    {
        char *e = nl;
        int last = *nl == '\0';
        n_cols = split(p, e, cells);
        if (coll_rows_init(rows, n_cols, (const char *const *)cells) < 0)
            return -1;
        p = last ? e : e + 1;
    }
    while (*p) {
        const char *row[MAX_COLS];
        size_t k;
        char *e;
        int last;

        nl = strchr(p, '\n');
        e = nl ? nl : p + strlen(p);
        last = nl == NULL;
        k = split(p, e, cells);
        for (size_t i = 0; i < n_cols; i++)
            row[i] = i < k && strcmp(cells[i], "\\N") != 0 ? cells[i] : NULL;
        if (coll_rows_add(rows, row) < 0)
            return -1;
        if (last)
            break;
        p = e + 1;
    }
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const parse_fn parsers[] = {
        coll_db2_parse_bufferpool, coll_db2_parse_tablespace,
        coll_db2_parse_catalog_bp, coll_pg_parse_database,
        coll_pg_parse_tables,      coll_pg_parse_settings,
        coll_mysql_parse_status,   coll_mysql_parse_pool_stats,
        coll_sqlite_parse_pragmas};
    static const enum coll_engine engines[] = {
        COLL_ENGINE_DB2, COLL_ENGINE_POSTGRESQL, COLL_ENGINE_MYSQL,
        COLL_ENGINE_SQLITE};
    struct coll_rows rows;
    struct coll_snapshot a, b;
    struct coll_delta *d = NULL;
    struct pt_err err = {0};
    char *text = fuzz_cstr(data, size);
    size_t n = 0;

    memset(&a, 0, sizeof(a));
    memset(&b, 0, sizeof(b));
    if (build(&rows, text) == 0) {
        for (size_t i = 0; i < sizeof(parsers) / sizeof(parsers[0]); i++) {
            int rc = parsers[i](&rows, &a, &err);
            FUZZ_CHECK(rc == 0 || rc == PT_EDATA || rc == PT_EINTERNAL);
            FUZZ_CHECK_ERR(rc, err);
            rc = parsers[i](&rows, &b, &err);
        }
        for (size_t i = 0; i < a.n; i++)
            FUZZ_CHECK(isfinite(a.m[i].value));
        b.t_s = 1;
        FUZZ_CHECK(coll_snapshot_deltas(&a, &b, &d, &n, &err) == 0);
        for (size_t i = 0; i < n; i++)
            FUZZ_CHECK(d[i].reset || d[i].delta == 0);
        free(d);
        for (size_t e = 0; e < sizeof(engines) / sizeof(engines[0]); e++) {
            struct coll_current cur;
            coll_monitor_current(engines[e], &a, &cur);
            FUZZ_CHECK(strlen(cur.note) < sizeof(cur.note));
        }
        FUZZ_CHECK(coll_hit_ratio(100, 5) == 95);
        {
            /* the monitor document of the two snapshots, and back */
            struct coll_snapshot two[2];
            struct coll_monitor_doc doc;
            struct rec_monitor m, e;
            json_t *j;
            int rc;

            two[0] = a;
            two[1] = b;
            coll_monitor_doc_init(&doc, COLL_ENGINE_POSTGRESQL, NULL, two, 2,
                                  1);
            j = coll_monitor_doc_to_json(&doc);
            FUZZ_CHECK(j != NULL);
            rc = coll_monitor_doc_from_json(&m, j, "monitor.json", &err);
            FUZZ_CHECK(rc == 0 || rc == PT_EDATA);
            FUZZ_CHECK_ERR(rc, err);
            /* in process, the same evidence as through the document */
            if (rc == 0 && coll_monitor_doc_evidence(&doc, &e, &err) == 0) {
                FUZZ_CHECK(e.page_size_bytes == m.page_size_bytes);
                FUZZ_CHECK(e.bufferpool_pages == m.bufferpool_pages);
                FUZZ_CHECK(e.hit_ratio_pct == m.hit_ratio_pct);
                FUZZ_CHECK(e.logical_reads == m.logical_reads);
                FUZZ_CHECK(e.physical_reads == m.physical_reads);
                FUZZ_CHECK(e.direct_read_share == m.direct_read_share);
            }
            json_decref(j);
        }
    }
    coll_rows_release(&rows);
    coll_snapshot_release(&a);
    coll_snapshot_release(&b);
    free(text);
    return 0;
}
