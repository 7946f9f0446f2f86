/* SPDX-License-Identifier: Apache-2.0 */
/*
 * result.c — what the files of recommend/ share about a result being
 * filled: a reason added, the engines advice.c speaks for, the current and
 * the recommended pool in bytes, and the result's numbers against the
 * model's limits before it is returned. A leaf: it calls only model/, so
 * recommend.c, advice.c and doc.c all use it without calling each other
 * in a circle.
 *
 * Neighbours: internal.h (the contract), recommend.c (the cost model),
 * advice.c (the engines' vocabulary), doc.c (recommendation.json).
 */
#include "recommend/internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void rec_reason(struct rec_result *r, const char *fmt, ...)
{
    va_list ap;

    if (r->n_reasons >= REC_MAX_REASONS)
        return;
    va_start(ap, fmt);
    vsnprintf(r->reasons[r->n_reasons], REC_REASON_LEN, fmt, ap);
    va_end(ap);
    r->n_reasons++;
}

int rec_engine_known(const char *name)
{
    return strcmp(name, "postgresql") == 0 || strcmp(name, "mysql") == 0 ||
           strcmp(name, "oracle") == 0 || strcmp(name, "sqlite") == 0;
}

const char *rec_pool_knob(const char *engine)
{
    if (strcmp(engine, "postgresql") == 0)
        return "shared_buffers";
    if (strcmp(engine, "mysql") == 0)
        return "innodb_buffer_pool_size";
    if (strcmp(engine, "sqlite") == 0)
        return "cache_size";
    if (strcmp(engine, "db2") == 0)
        return "bufferpool_pages";
    return NULL;
}

/*
 * The pool of the current state in bytes (0 if unknown); only a value read
 * from the server when `server_only`. SQLite's cache_size is -KiB or pages.
 */
uint64_t rec_state_pool_bytes(const struct rec_result *r,
                              const struct rec_engine *e, int server_only)
{
    const char *name = rec_pool_knob(e->name);
    const struct rec_knob *k = name ? rec_state_get(&r->current, name) : NULL;
    const struct rec_knob *ps = rec_state_get(&r->current, "page_size");
    int64_t page = ps && ps->is_set && ps->is_number ? ps->num : 0;

    if (!k || !k->is_set || !k->is_number ||
        (server_only && k->source != REC_SOURCE_SERVER))
        return 0;
    if (strcmp(e->name, "sqlite") == 0)
        return k->num < 0 ? (uint64_t)(-k->num) * 1024
                          : (uint64_t)k->num * (uint64_t)(page > 0 ? page : 0);
    if (strcmp(e->name, "db2") == 0)
        return k->num > 0 && page > 0 ? (uint64_t)k->num * (uint64_t)page : 0;
    return k->num > 0 ? (uint64_t)k->num : 0;
}

/* The recommended pool in bytes, as the DDL sets it. */
uint64_t rec_result_pool_bytes(const struct rec_result *r,
                               const struct rec_engine *e)
{
    const struct rec_candidate *ch = &r->cand[r->chosen_idx];

    if (strcmp(e->name, "db2") == 0 || !rec_engine_known(e->name))
        return r->pool_pages * ch->page_size_bytes;
    return r->pool_setting_bytes ? r->pool_setting_bytes : r->memory_bytes;
}

int rec_result_check(const struct rec_result *r, struct pt_err *err)
{
    const char *ctx = "recommendation";
    uint32_t page = r->cand[r->chosen_idx].page_size_bytes;
    int rc;

    if ((rc = rec_limit_check_u64(REC_LIM_MEMORY_BYTES, r->memory_bytes, ctx,
                                  "buffer-pool budget", err)) < 0 ||
        (rc = rec_limit_check_u64(REC_LIM_PAGE_BYTES, page, ctx, "page size",
                                  err)) < 0 ||
        (rc = rec_limit_check_u64(REC_LIM_POOL_PAGES, r->pool_pages, ctx,
                                  "bufferpool.pages", err)) < 0 ||
        (rc = rec_limit_check_u64(REC_LIM_EXTENT_PAGES, r->extent_size, ctx,
                                  "tablespace.extent_size", err)) < 0 ||
        (rc = rec_limit_check(REC_LIM_OVERHEAD_MS, r->overhead_ms, ctx,
                              "tablespace.overhead", err)) < 0 ||
        (rc = rec_limit_check(REC_LIM_TRANSFER_MS, r->transfer_rate_ms, ctx,
                              "tablespace.transfer_rate", err)) < 0)
        return rc;
    if ((double)r->pool_pages * page > (double)REC_MAX_MEMORY_BYTES)
        return err_set(err, PT_EDATA,
                       "%s: a pool of %llu pages of %u bytes exceeds the "
                       "%llu-byte limit",
                       ctx, (unsigned long long)r->pool_pages, page,
                       (unsigned long long)REC_MAX_MEMORY_BYTES);
    return 0;
}
