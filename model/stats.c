/* SPDX-License-Identifier: Apache-2.0 */
/*
 * stats.c — object-size statistics (count, min, max, mean, nearest-rank
 * percentiles, power-of-two histogram) and their JSON, and the parser of a
 * plain sizes list already in memory. No I/O: cli/ reads the files with
 * core's pt_file_read() and hands the bytes over.
 *
 * Neighbours: collect/doc_sizes.c (the sizes document: it writes these
 * statistics through rec_stats_to_json() and reads its sizes back into a
 * struct rec_sizes), cli/cmd_recommend.c, recommend.c (the model).
 */
#include "model/model.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

uint64_t rec_percentile(const uint64_t *sorted, size_t n, double pct)
{
    return rec_percentile_weighted(sorted, NULL, n, n, pct);
}

/*
 * Nearest-rank over weighted entries: the object of rank ceil(pct% of
 * total) (1-based) is the first entry whose running count reaches it. With
 * counts == NULL this is sorted[rank - 1], the plain definition.
 */
uint64_t rec_percentile_weighted(const uint64_t *sorted, const uint64_t *counts,
                                 size_t n, uint64_t total, double pct)
{
    double rank;
    uint64_t idx, seen = 0;

    if (n == 0 || total == 0)
        return 0;
    if (pct <= 0)
        return sorted[0];
    rank = ceil(pct / 100.0 * (double)total);
    idx = rank < 1 ? 0 : (uint64_t)rank - 1;
    if (idx >= total)
        idx = total - 1;
    if (!counts)
        return sorted[idx < n ? idx : n - 1];
    for (size_t i = 0; i < n; i++) {
        seen += counts[i];
        if (seen > idx)
            return sorted[i];
    }
    return sorted[n - 1];
}

int rec_stats_compute(struct rec_size_stats *st, uint64_t *values, size_t n,
                      struct pt_err *err)
{
    if (n == 0) {
        memset(st, 0, sizeof(*st));
        return err_set(err, PT_EDATA, "no sizes to analyse");
    }
    qsort(values, n, sizeof(values[0]), cmp_u64);
    return rec_stats_compute_weighted(st, values, NULL, n, err);
}

int rec_stats_compute_weighted(struct rec_size_stats *st,
                               const uint64_t *values, const uint64_t *counts,
                               size_t n, struct pt_err *err)
{
    long double sum = 0;
    uint64_t le = 1024, total = 0;
    size_t i = 0;

    memset(st, 0, sizeof(*st));
    for (size_t k = 0; k < n; k++) {
        uint64_t c = counts ? counts[k] : 1;
        if (c > REC_MAX_OBJECTS - total)
            return err_set(err, PT_EDATA, "more than %llu objects to analyse",
                           (unsigned long long)REC_MAX_OBJECTS);
        total += c;
        sum += counts ? (long double)values[k] * c : values[k];
    }
    if (total == 0)
        return err_set(err, PT_EDATA, "no sizes to analyse");
    st->count = total;
    /* the first and last entries that hold objects */
    for (size_t k = 0; k < n; k++)
        if (!counts || counts[k]) {
            st->min = values[k];
            break;
        }
    for (size_t k = n; k-- > 0;)
        if (!counts || counts[k]) {
            st->max = values[k];
            break;
        }
    st->mean = (double)(sum / total);
    st->p50 = rec_percentile_weighted(values, counts, n, total, 50);
    st->p90 = rec_percentile_weighted(values, counts, n, total, 90);
    st->p95 = rec_percentile_weighted(values, counts, n, total, 95);
    st->p99 = rec_percentile_weighted(values, counts, n, total, 99);

    /* bins (le/2, le], the first one [0, 1024]; empty entries skipped */
    while (i < n && counts && counts[i] == 0)
        i++;
    while (i < n && st->n_bins < REC_HIST_MAX) {
        uint64_t c = 0;
        if (st->n_bins == REC_HIST_MAX - 1)
            le = UINT64_MAX; /* last bin takes the rest */
        while (i < n && values[i] <= le) {
            c += counts ? counts[i] : 1;
            i++;
        }
        while (i < n && counts && counts[i] == 0)
            i++;
        st->bins[st->n_bins].le = le == UINT64_MAX ? st->max : le;
        st->bins[st->n_bins].count = c;
        st->n_bins++;
        if (le > UINT64_MAX / 2)
            le = UINT64_MAX;
        else
            le *= 2;
    }
    return 0;
}

json_t *rec_stats_to_json(const struct rec_size_stats *st,
                          const uint64_t *values, size_t n,
                          const json_t *source)
{
    json_t *doc = json_object(), *hist = json_array(), *vals = NULL;

    if (!doc || !hist)
        goto oom;
    if (json_object_set_new(doc, "schema_version", json_integer(1)) ||
        (source &&
         json_object_set_new(doc, "source", json_deep_copy(source))) ||
        json_object_set_new(doc, "count",
                            json_integer((json_int_t)st->count)) ||
        json_object_set_new(doc, "min", json_integer((json_int_t)st->min)) ||
        json_object_set_new(doc, "max", json_integer((json_int_t)st->max)) ||
        json_object_set_new(doc, "mean", json_real(st->mean)) ||
        json_object_set_new(doc, "p50", json_integer((json_int_t)st->p50)) ||
        json_object_set_new(doc, "p90", json_integer((json_int_t)st->p90)) ||
        json_object_set_new(doc, "p95", json_integer((json_int_t)st->p95)) ||
        json_object_set_new(doc, "p99", json_integer((json_int_t)st->p99)))
        goto oom;
    for (size_t i = 0; i < st->n_bins; i++) {
        json_t *b = json_pack("{s:I,s:I}", "le", (json_int_t)st->bins[i].le,
                              "count", (json_int_t)st->bins[i].count);
        if (!b || json_array_append_new(hist, b))
            goto oom;
    }
    if (json_object_set_new(doc, "histogram", hist)) {
        hist = NULL;
        goto oom;
    }
    hist = NULL;
    if (values) {
        vals = json_array();
        if (!vals)
            goto oom;
        for (size_t i = 0; i < n; i++)
            if (json_array_append_new(vals,
                                      json_integer((json_int_t)values[i])))
                goto oom;
        if (json_object_set_new(doc, "values", vals)) {
            vals = NULL;
            goto oom;
        }
    }
    return doc;
oom:
    json_decref(vals);
    json_decref(hist);
    json_decref(doc);
    return NULL;
}

/* ---- sizes input ----------------------------------------------------------
 */

void rec_sizes_release(struct rec_sizes *s)
{
    if (!s)
        return;
    free(s->values);
    free(s->counts);
    memset(s, 0, sizeof(*s));
}

struct size_entry {
    uint64_t value, count;
};

static int cmp_entry(const void *a, const void *b)
{
    const struct size_entry *x = a, *y = b;
    return (x->value > y->value) - (x->value < y->value);
}

int rec_sizes_sort(struct rec_sizes *s, struct pt_err *err)
{
    struct size_entry *e;

    if (!s->counts) {
        qsort(s->values, s->n, sizeof(*s->values), cmp_u64);
        return 0;
    }
    if (s->n < 2)
        return 0;
    e = pt_malloc(s->n * sizeof(*e));
    if (!e)
        return err_set(err, PT_EINTERNAL, "out of memory sorting sizes");
    for (size_t i = 0; i < s->n; i++) {
        e[i].value = s->values[i];
        e[i].count = s->counts[i];
    }
    qsort(e, s->n, sizeof(*e), cmp_entry);
    for (size_t i = 0; i < s->n; i++) {
        s->values[i] = e[i].value;
        s->counts[i] = e[i].count;
    }
    free(e);
    return 0;
}

static int push(struct rec_sizes *s, size_t *cap, uint64_t v,
                struct pt_err *err)
{
    if (s->n == *cap) {
        size_t nc = *cap ? *cap * 2 : 1024;
        uint64_t *nv = pt_realloc(s->values, nc * sizeof(*nv));
        if (!nv)
            return err_set(err, PT_EINTERNAL, "out of memory reading sizes");
        s->values = nv;
        *cap = nc;
    }
    s->values[s->n++] = v;
    return 0;
}

int rec_sizes_stats(struct rec_sizes *s, struct rec_size_stats *st,
                    struct pt_err *err)
{
    int rc = rec_sizes_sort(s, err);

    if (rc < 0) {
        memset(st, 0, sizeof(*st));
        return rc;
    }
    return rec_stats_compute_weighted(st, s->values, s->counts, s->n, err);
}

static int is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

int rec_sizes_parse_text(struct rec_sizes *s, const char *buf, size_t len,
                         const char *name, struct pt_err *err)
{
    size_t cap = 0, pos = 0;
    unsigned long line = 0;
    int rc;

    memset(s, 0, sizeof(*s));
    while (pos < len) {
        size_t end = pos, a, b;
        uint64_t v = 0;

        while (end < len && buf[end] != '\n')
            end++;
        line++;
        a = pos;
        b = end;
        pos = end + 1;
        while (a < b && is_space(buf[a]))
            a++;
        if (a < b && buf[a] == '#')
            continue; /* comment line */
        /* cut a trailing comment, then trailing blanks */
        for (size_t k = a; k < b; k++)
            if (buf[k] == '#') {
                b = k;
                break;
            }
        while (b > a && is_space(buf[b - 1]))
            b--;
        if (a == b) {
            rc = err_set(err, PT_EDATA,
                         "%s:%lu: empty line where a size was expected", name,
                         line);
            goto fail;
        }
        if (buf[a] == '-') {
            rc = err_set(err, PT_EDATA,
                         "%s:%lu: negative size '%.*s' (sizes are bytes >= 0)",
                         name, line, (int)(b - a > 40 ? 40 : b - a), buf + a);
            goto fail;
        }
        for (size_t k = a; k < b; k++) {
            unsigned d;
            if (buf[k] < '0' || buf[k] > '9') {
                rc = err_set(err, PT_EDATA,
                             "%s:%lu: not a byte size: '%.*s' (one integer "
                             "per line)",
                             name, line, (int)(b - a > 40 ? 40 : b - a),
                             buf + a);
                goto fail;
            }
            d = (unsigned)(buf[k] - '0');
            if (v > (UINT64_MAX - d) / 10) {
                rc = err_set(err, PT_EDATA, "%s:%lu: size too large", name,
                             line);
                goto fail;
            }
            v = v * 10 + d;
        }
        if (v > REC_MAX_SIZE_BYTES) {
            char where[300];
            snprintf(where, sizeof(where), "%s:%lu", name, line);
            rc = rec_limit_check_u64(REC_LIM_SIZE_BYTES, v, where, "size", err);
            goto fail;
        }
        if ((rc = push(s, &cap, v, err)) < 0)
            goto fail;
        s->total = s->n;
    }
    if (s->n == 0) {
        rc = err_set(err, PT_EDATA,
                     "%s: no sizes (the file is empty or only "
                     "comments)",
                     name);
        goto fail;
    }
    return 0;
fail:
    rec_sizes_release(s);
    return rc;
}
