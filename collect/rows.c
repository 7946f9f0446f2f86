/* SPDX-License-Identifier: Apache-2.0 */
/*
 * rows.c — small result tables as text (struct coll_rows) and monitor
 * snapshots (struct coll_snapshot): the plain data the engine adapters
 * parse and fill, kept free of ODBC so tests can build them by hand.
 */
#include "collect/internal.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

int coll_rows_init(struct coll_rows *rows, size_t n_cols,
                   const char *const *names)
{
    memset(rows, 0, sizeof(*rows));
    rows->names = pt_calloc(n_cols ? n_cols : 1, sizeof(*rows->names));
    if (!rows->names)
        return PT_EINTERNAL;
    rows->n_cols = n_cols;
    for (size_t i = 0; i < n_cols; i++) {
        rows->names[i] = pt_strdup(names[i] ? names[i] : "");
        if (!rows->names[i]) {
            coll_rows_release(rows);
            return PT_EINTERNAL;
        }
    }
    return 0;
}

int coll_rows_add(struct coll_rows *rows, const char *const *cells)
{
    size_t base = rows->n_rows * rows->n_cols;
    char **nc = pt_realloc(rows->cells,
                           (base + rows->n_cols + 1) * sizeof(*rows->cells));
    if (!nc)
        return PT_EINTERNAL;
    rows->cells = nc;
    for (size_t i = 0; i < rows->n_cols; i++) {
        nc[base + i] = NULL;
        if (cells[i]) {
            nc[base + i] = pt_strdup(cells[i]);
            if (!nc[base + i]) {
                for (size_t j = 0; j < i; j++)
                    free(nc[base + j]);
                return PT_EINTERNAL;
            }
        }
    }
    rows->n_rows++;
    return 0;
}

void coll_rows_release(struct coll_rows *rows)
{
    if (!rows)
        return;
    for (size_t i = 0; rows->names && i < rows->n_cols; i++)
        free(rows->names[i]);
    for (size_t i = 0; rows->cells && i < rows->n_rows * rows->n_cols; i++)
        free(rows->cells[i]);
    free(rows->names);
    free(rows->cells);
    memset(rows, 0, sizeof(*rows));
}

int coll_rows_col(const struct coll_rows *rows, const char *name)
{
    for (size_t i = 0; i < rows->n_cols; i++)
        if (strcasecmp(rows->names[i], name) == 0)
            return (int)i;
    return -1;
}

const char *coll_rows_get(const struct coll_rows *rows, size_t row,
                          const char *name)
{
    int col = coll_rows_col(rows, name);
    if (col < 0 || row >= rows->n_rows)
        return NULL;
    return rows->cells[row * rows->n_cols + (size_t)col];
}

int coll_parse_num(const char *cell, double *out, const char *ctx,
                   const char *col, struct pt_err *err)
{
    char *end;
    double v;

    if (!cell)
        return err_set(err, PT_EDATA, "%s: column %s is NULL", ctx, col);
    while (*cell == ' ')
        cell++;
    errno = 0;
    v = strtod(cell, &end);
    while (*end == ' ')
        end++;
    if (end == cell || *end || errno || !isfinite(v))
        return err_set(err, PT_EDATA, "%s: column %s is '%s', not a number",
                       ctx, col, cell);
    *out = v;
    return 0;
}

int coll_rows_metric(const struct coll_rows *rows, size_t row, const char *col,
                     const char *scope, const char *object, int cumulative,
                     int required, struct coll_snapshot *s, const char *ctx,
                     struct pt_err *err)
{
    double v;
    int ret;
    const char *cell;

    if (coll_rows_col(rows, col) < 0) {
        if (!required)
            return 0;
        return err_set(err, PT_EDATA, "%s: no column %s in the result", ctx,
                       col);
    }
    cell = coll_rows_get(rows, row, col);
    if (!cell && !required)
        return 0;
    ret = coll_parse_num(cell, &v, ctx, col, err);
    if (ret < 0)
        return ret;
    if (coll_snapshot_add(s, scope, object, col, v, cumulative) < 0)
        return err_set(err, PT_EINTERNAL, "out of memory");
    return 0;
}

/* ---- snapshots ---------------------------------------------------------- */

void coll_snapshot_release(struct coll_snapshot *s)
{
    if (!s)
        return;
    free(s->m);
    memset(s, 0, sizeof(*s));
}

int coll_snapshot_add(struct coll_snapshot *s, const char *scope,
                      const char *object, const char *name, double value,
                      int cumulative)
{
    struct coll_metric tmp, *m;
    const struct coll_metric *old;

    memset(&tmp, 0, sizeof(tmp));
    snprintf(tmp.scope, sizeof(tmp.scope), "%s", scope);
    snprintf(tmp.object, sizeof(tmp.object), "%s", object ? object : "");
    snprintf(tmp.name, sizeof(tmp.name), "%s", name);
    tmp.value = value;
    tmp.cumulative = cumulative;
    /* one value per metric: a result that names a metric twice (or two
       names equal after truncation) keeps the last, so that deltas between
       snapshots always pair a metric with itself */
    old = coll_snapshot_find(s, tmp.scope, tmp.object, tmp.name);
    if (old) {
        m = &s->m[old - s->m];
        m->value = value;
        m->cumulative = cumulative;
        return 0;
    }
    if (s->n == s->cap) {
        size_t ncap = s->cap ? s->cap * 2 : 64;
        struct coll_metric *nm = pt_realloc(s->m, ncap * sizeof(*nm));
        if (!nm)
            return PT_EINTERNAL;
        s->m = nm;
        s->cap = ncap;
    }
    m = &s->m[s->n++];
    *m = tmp;
    return 0;
}

const struct coll_metric *coll_snapshot_find(const struct coll_snapshot *s,
                                             const char *scope,
                                             const char *object,
                                             const char *name)
{
    for (size_t i = 0; i < s->n; i++) {
        const struct coll_metric *m = &s->m[i];
        /* names are case-sensitive: DB2's DIRECT_READS (sectors) is not
           the canonical direct_reads (requests) */
        if (strcmp(m->scope, scope) == 0 && strcmp(m->object, object) == 0 &&
            strcmp(m->name, name) == 0)
            return m;
    }
    return NULL;
}

double coll_counter_delta(double before, double after, int *reset)
{
    int back = after < before;

    if (reset)
        *reset = back;
    /* a counter reset (server restart, pool recreated): the best estimate
       of the work since is the new value itself */
    return back ? after : after - before;
}

int coll_snapshot_deltas(const struct coll_snapshot *a,
                         const struct coll_snapshot *b, struct coll_delta **out,
                         size_t *n, struct pt_err *err)
{
    struct coll_delta *d;
    size_t k = 0;
    double dt = b->t_s - a->t_s;

    *out = NULL;
    *n = 0;
    d = pt_calloc(b->n ? b->n : 1, sizeof(*d));
    if (!d)
        return err_set(err, PT_EINTERNAL, "out of memory");
    for (size_t i = 0; i < b->n; i++) {
        const struct coll_metric *mb = &b->m[i], *ma;
        if (!mb->cumulative)
            continue;
        ma = coll_snapshot_find(a, mb->scope, mb->object, mb->name);
        if (!ma)
            continue;
        d[k].m = mb;
        d[k].delta = coll_counter_delta(ma->value, mb->value, &d[k].reset);
        d[k].rate_per_s = dt > 0 ? d[k].delta / dt : 0;
        k++;
    }
    *out = d;
    *n = k;
    return 0;
}

double coll_hit_ratio(double logical, double physical)
{
    double r;
    if (!(logical > 0))
        return -1;
    r = (1.0 - physical / logical) * 100.0;
    if (r < 0)
        r = 0;
    if (r > 100)
        r = 100;
    return r;
}

uint64_t coll_metric_u64(const struct coll_metric *m)
{
    if (!m || !(m->value >= 0) || !(m->value < 9007199254740992.0))
        return 0;
    return (uint64_t)m->value;
}

uint64_t coll_mul_u64(uint64_t a, uint64_t b)
{
    if (a == 0 || b == 0 || a > UINT64_MAX / b)
        return 0;
    return a * b;
}
