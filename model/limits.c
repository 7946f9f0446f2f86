/* SPDX-License-Identifier: Apache-2.0 */
/*
 * limits.c — the one table of number ranges shared by every reader of
 * model/ and collect/, by recommend's writer (recommend/result.c checks
 * its result before returning it) and by ddl/ (plan.c and the
 * recommendation reader), so that whatever `recommend` writes `ddl`
 * accepts. Ranges come from docs/formats.md and the dialect data under
 * ddl_templates/.
 *
 * Neighbours: model.h (the table's contract), engine.c (profiles),
 * stats.c (sizes), recommend/ (writer and recommendation reader).
 */
#include "model/model.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

const struct rec_limit rec_limits[REC_LIM_COUNT] = {
    [REC_LIM_PAGE_BYTES] = {REC_MIN_PAGE_BYTES, REC_MAX_PAGE_BYTES, 0},
    [REC_LIM_ROW_BYTES] = {0, REC_MAX_PAGE_BYTES, 0},
    [REC_LIM_MEMORY_BYTES] = {1, (double)REC_MAX_MEMORY_BYTES, 0},
    /* innodb_buffer_pool_size >= 5242880 (ddl_templates/mysql) */
    [REC_LIM_BUDGET_BYTES] = {(double)REC_MIN_BUDGET_BYTES,
                              (double)REC_MAX_MEMORY_BYTES, 0},
    /* DB2 CREATE BUFFERPOOL SIZE 2..2147483647 pages */
    [REC_LIM_POOL_PAGES] = {2, (double)REC_MAX_POOL_PAGES, 0},
    /* DB2 CREATE TABLESPACE EXTENTSIZE 2..256 pages */
    [REC_LIM_EXTENT_PAGES] = {2, 256, 0},
    [REC_LIM_PREFETCH_PAGES] = {1, 32767, 0},
    [REC_LIM_OVERHEAD_MS] = {0, 1000, 0},
    [REC_LIM_TRANSFER_MS] = {0, 1000, 1},
    [REC_LIM_SIZE_BYTES] = {0, (double)REC_MAX_SIZE_BYTES, 0},
};

/* A bound as a reader reads it: 9007199254740992 (2^53), 1000, 0.5. */
static void bound_str(double v, char *buf, size_t len)
{
    int e;

    if (v != (double)(long long)v) {
        snprintf(buf, len, "%g", v);
        return;
    }
    snprintf(buf, len, "%lld", (long long)v);
    if (v >= 65536 && frexp(v, &e) == 0.5)
        snprintf(buf + strlen(buf), len - strlen(buf), " (2^%d)", e - 1);
}

static int out_of_range(enum rec_limit_id id, const char *ctx,
                        const char *field, const char *shown,
                        struct pt_err *err)
{
    const struct rec_limit *l = &rec_limits[id];
    char lo[48], hi[48];

    bound_str(l->min, lo, sizeof(lo));
    bound_str(l->max, hi, sizeof(hi));
    return err_set(err, PT_EDATA, "%s%s%s %s is outside %s%s..%s",
                   ctx ? ctx : "", ctx ? ": " : "", field, shown,
                   l->min_open ? "(" : "", lo, hi);
}

int rec_limit_check(enum rec_limit_id id, double v, const char *ctx,
                    const char *field, struct pt_err *err)
{
    const struct rec_limit *l = &rec_limits[id];
    char shown[40];

    /* written so that NaN fails */
    if ((l->min_open ? v > l->min : v >= l->min) && v <= l->max)
        return 0;
    snprintf(shown, sizeof(shown), "%.15g", v);
    return out_of_range(id, ctx, field, shown, err);
}

int rec_limit_check_u64(enum rec_limit_id id, uint64_t v, const char *ctx,
                        const char *field, struct pt_err *err)
{
    const struct rec_limit *l = &rec_limits[id];
    char shown[40];

    /* every limit is an integer below 2^63: compare as integers */
    if ((l->min_open ? v > (uint64_t)l->min : v >= (uint64_t)l->min) &&
        v <= (uint64_t)l->max)
        return 0;
    snprintf(shown, sizeof(shown), "%llu", (unsigned long long)v);
    return out_of_range(id, ctx, field, shown, err);
}

int rec_doc_check(const struct rec_doc *d, const char *name, struct pt_err *err)
{
    int rc;

    if ((rc = rec_limit_check_u64(REC_LIM_PAGE_BYTES, d->page_size_bytes, name,
                                  "tablespace.page_size", err)) < 0 ||
        (rc = rec_limit_check_u64(REC_LIM_POOL_PAGES, d->bufferpool_pages, name,
                                  "bufferpool.pages", err)) < 0 ||
        (rc = rec_limit_check_u64(REC_LIM_EXTENT_PAGES, d->extent_size, name,
                                  "tablespace.extent_size", err)) < 0 ||
        (!d->prefetch_automatic &&
         (rc = rec_limit_check_u64(REC_LIM_PREFETCH_PAGES, d->prefetch_size,
                                   name, "tablespace.prefetch_size", err)) <
             0) ||
        (rc = rec_limit_check(REC_LIM_OVERHEAD_MS, d->overhead_ms, name,
                              "tablespace.overhead", err)) < 0 ||
        (rc = rec_limit_check(REC_LIM_TRANSFER_MS, d->transfer_rate_ms, name,
                              "tablespace.transfer_rate", err)) < 0)
        return rc;
    if ((double)d->bufferpool_pages * (double)d->page_size_bytes >
        (double)REC_MAX_MEMORY_BYTES)
        return err_set(err, PT_EDATA,
                       "%s: bufferpool.pages %llu of %llu bytes exceed the "
                       "%llu-byte pool limit",
                       name, (unsigned long long)d->bufferpool_pages,
                       (unsigned long long)d->page_size_bytes,
                       (unsigned long long)REC_MAX_MEMORY_BYTES);
    return 0;
}
