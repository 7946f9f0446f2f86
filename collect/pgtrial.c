/* SPDX-License-Identifier: Apache-2.0 */
/*
 * pgtrial.c — PostgreSQL: a compression trial on sampled values, in the
 * client. The server compresses a value only when its row crosses
 * TOAST_TUPLE_THRESHOLD (heapam.c heap_prepare_insert), so pg_column_size
 * says nothing about the values of shorter rows: whether they compress is
 * measured here, by running pglz (model/pglz.c, PostgreSQL's default
 * strategy) on up to COLL_TRIAL_ROWS values read from the table.
 *
 * Read-only: one SELECT of the chosen rows' values (hex, converted in the
 * client) and their pg_column_size; the rows are chosen by ctid in a scan
 * that reads no value (ORDER BY random() over the ctids), so no TOAST is
 * read but for the chosen rows. setseed() before it makes the choice
 * repeatable: the same table, seed and scan order give the same rows
 * (PostgreSQL "Random Functions": setseed sets the seed for subsequent
 * random() calls in the current session). Nothing is created on the
 * server. A column whose compression is lz4 (attcompression, or the
 * default) is tried with pglz all the same and the result says so: no lz4
 * library is linked.
 *
 * Neighbours: sample.c calls coll_pg_trial after the sizes; doc_sizes.c
 * writes the result as sizes.json "compression".
 */
#include "collect/internal.h"

#include <stdlib.h>
#include <string.h>

static int hexval(int ch)
{
    return ch >= '0' && ch <= '9'   ? ch - '0'
           : ch >= 'a' && ch <= 'f' ? ch - 'a' + 10
           : ch >= 'A' && ch <= 'F' ? ch - 'A' + 10
                                    : -1;
}

/* Decode hex text into buf (grown as needed); -1 on bad text or OOM. */
static int64_t unhex(const char *hex, uint8_t **buf, size_t *cap)
{
    size_t n = strlen(hex) / 2;

    if (n > *cap) {
        uint8_t *nb = realloc(*buf, n);
        if (!nb)
            return -1;
        *buf = nb;
        *cap = n;
    }
    for (size_t i = 0; i < n; i++) {
        int hi = hexval(hex[2 * i]), lo = hexval(hex[2 * i + 1]);
        if (hi < 0 || lo < 0)
            return -1;
        (*buf)[i] = (uint8_t)(hi << 4 | lo);
    }
    return (int64_t)n;
}

/* The statement: each object column as hex bytes and its stored size. */
static int trial_sql(const struct coll_columns *cols, const char *const *objs,
                     size_t n_obj, const char *qtable, char *sql, size_t len)
{
    size_t o = 0;
    int n = snprintf(sql, len, "SELECT ");

    for (size_t i = 0; i < n_obj && n > 0 && (size_t)n < len; i++) {
        const struct coll_column *c = coll_columns_find(cols, objs[i]);
        char q[COLL_NAME_MAX + 4];
        int bytea = c && strcmp(c->type, "bytea") == 0;
        coll_ident_quote(COLL_ENGINE_POSTGRESQL, objs[i], q, sizeof(q), NULL);
        o = (size_t)n;
        /* text: its bytes in the server's encoding, as stored; at most
           COLL_TRIAL_MAX_BYTES of a value (pglz looks back 4 KB: a
           prefix compresses as the whole does) */
        n +=
            snprintf(sql + o, len - o,
                     "%sencode(substring(%s%s%s from 1 for %d), 'hex'), "
                     "pg_column_size(%s)",
                     i ? ", " : "", bytea ? "" : "convert_to(", q,
                     bytea ? "" : "::text, current_setting('server_encoding'))",
                     COLL_TRIAL_MAX_BYTES, q);
    }
    if (n > 0 && (size_t)n < len) {
        o = (size_t)n;
        n += snprintf(sql + o, len - o,
                      " FROM %s WHERE ctid = ANY(ARRAY(SELECT ctid FROM %s "
                      "ORDER BY random() LIMIT %d))",
                      qtable, qtable, COLL_TRIAL_ROWS);
    }
    return n > 0 && (size_t)n < len ? 0 : -1;
}

/* Try every non-NULL value of the fetched rows. */
static int trial_rows(const struct coll_rows *rows, size_t n_obj,
                      struct coll_pg_trial *t, struct pt_err *err)
{
    struct rec_pglz_work *w = malloc(sizeof(*w));
    uint8_t *buf = NULL;
    size_t cap = 0;
    int ret = 0;

    if (!w)
        return err_set(err, PT_EINTERNAL, "out of memory");
    for (size_t r = 0; r < rows->n_rows && ret == 0; r++)
        for (size_t i = 0; i < n_obj; i++) {
            const char *hex = rows->cells[r * rows->n_cols + 2 * i];
            const char *st = rows->cells[r * rows->n_cols + 2 * i + 1];
            int64_t n, z;
            if (!hex || !st)
                continue;
            if ((n = unhex(hex, &buf, &cap)) < 0) {
                ret = err_set(err, PT_EDATA,
                              "compression trial: the server sent a value "
                              "that is not hex");
                break;
            }
            t->values++;
            t->raw_bytes += (uint64_t)n;
            z = rec_pglz_size(w, buf, (size_t)n, NULL);
            if (z < 0)
                continue;
            t->compressible_values++;
            t->compressible_raw_bytes += (uint64_t)n;
            t->pglz_bytes += (uint64_t)z;
            t->sxx += (double)n * (double)n;
            t->sxy += (double)n * (double)z;
            t->server_stored_bytes += strtoull(st, NULL, 10);
        }
    free(buf);
    free(w);
    return ret;
}

int coll_pg_trial(struct coll_conn *c, const struct coll_columns *cols,
                  const char *const *objs, size_t n_obj, const char *qtable,
                  const char *reg, uint32_t seed, struct coll_pg_trial *t,
                  struct pt_err *err)
{
    char sql[8192], val[16], col[COLL_NAME_MAX + 4];
    struct coll_rows rows;
    struct pt_err e = {0};
    int is_null = 0, ret;

    memset(t, 0, sizeof(*t));
    snprintf(t->method, sizeof(t->method), "pglz");
    t->seed = seed;
    ret = coll_pg_setseed(c, seed, &e);
    if (ret == 0) {
        if (trial_sql(cols, objs, n_obj, qtable, sql, sizeof(sql)) < 0)
            return err_set(err, PT_EINTERNAL, "SQL buffer too small");
        ret = coll_query_rows(c, sql, &rows, &e);
    }
    if (ret == PT_EUNAVAIL || ret == PT_EINTR) {
        if (err)
            *err = e;
        return ret;
    }
    if (ret < 0) {
        snprintf(t->note, sizeof(t->note), "not measured: %.200s", e.msg);
        return 0;
    }
    ret = trial_rows(&rows, n_obj, t, err);
    coll_rows_release(&rows);
    if (ret < 0)
        return ret;
    t->done = 1;
    /* lz4 (PostgreSQL 14+): the column's, else the default's */
    coll_sql_string(COLL_ENGINE_POSTGRESQL, objs[0], col, sizeof(col));
    snprintf(sql, sizeof(sql),
             "SELECT CASE WHEN attcompression = 'l' OR (attcompression = '' "
             "AND current_setting('default_toast_compression') = 'lz4') THEN "
             "'lz4' ELSE 'pglz' END FROM pg_attribute WHERE attrelid = "
             "to_regclass(%s) AND lower(attname) = lower(%s)",
             reg, col);
    if (coll_query_value(c, sql, val, sizeof(val), &is_null, &e) == 0 &&
        !is_null && strcmp(val, "lz4") == 0) {
        t->lz4 = 1;
        snprintf(t->note, sizeof(t->note),
                 "the column compresses with lz4: pglz's figures are an "
                 "estimate (no lz4 library in pagetune)");
    }
    return 0;
}
