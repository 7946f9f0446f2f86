/*
 * current.c — the configuration in use (page size and pool), decided once
 * for every command: recommend's predicted change, advise's validation and
 * its drift all read it from here, so one database never gets two
 * "current" states (issue 22). Pure, no I/O.
 *
 * Neighbours: recommend.c builds r->current (the server's knobs, then the
 * engine's documented defaults, model/state.c); this file only reads it.
 */
#include <stdint.h>
#include <string.h>

#include "recommend/recommend.h"

/* The candidate of page size ps, or NULL. */
static const struct rec_candidate *cand_of(const struct rec_result *r,
                                           uint32_t ps)
{
    for (size_t i = 0; i < r->n_cand; i++)
        if (r->cand[i].page_size_bytes == ps)
            return &r->cand[i];
    return NULL;
}

/* The page size in use and where it comes from. */
static void current_page(const struct rec_result *r, const struct rec_engine *e,
                         struct rec_current_config *out)
{
    const struct rec_knob *k = rec_state_get(&r->current, "page_size");
    int known =
        k && k->is_set && k->is_number && k->num > 0 && k->num <= UINT32_MAX;

    out->page_assumed = 1;
    if (known && k->source == REC_SOURCE_SERVER) {
        out->page_size_bytes = (uint32_t)k->num;
        out->page_assumed = 0;
        out->page_basis = "server";
    } else if (e->current_page_bytes &&
               cand_of(r, e->current_page_bytes) != NULL) {
        out->page_size_bytes = e->current_page_bytes;
        out->page_basis = "engine profile default";
    } else if (known && cand_of(r, (uint32_t)k->num) != NULL) {
        out->page_size_bytes = (uint32_t)k->num;
        out->page_basis = "engine default";
    } else {
        out->page_size_bytes = 0;
        for (size_t i = 0; i < r->n_cand; i++)
            if (!out->page_size_bytes ||
                r->cand[i].page_size_bytes < out->page_size_bytes)
                out->page_size_bytes = r->cand[i].page_size_bytes;
        out->page_basis = "smallest page size";
    }
}

void rec_current_config(const struct rec_result *r, const struct rec_engine *e,
                        const struct rec_monitor *mon,
                        struct rec_current_config *out)
{
    const struct rec_candidate *c;

    memset(out, 0, sizeof(*out));
    current_page(r, e, out);
    out->pool_assumed = 1;
    /* the monitored pool, in pages of the page size in use (the demo
     * monitors its SQLite store as the running system of any engine) */
    if (mon && mon->present && mon->bufferpool_pages &&
        mon->page_size_bytes == out->page_size_bytes) {
        out->pool_pages = mon->bufferpool_pages;
        out->pool_assumed = 0;
    } else if ((c = cand_of(r, out->page_size_bytes)) != NULL) {
        out->pool_pages = c->bufferpool_pages;
    }
}
