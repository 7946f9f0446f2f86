/* SPDX-License-Identifier: Apache-2.0 */
/*
 * tier.c — the change rule (docs/models.md #change-threshold): how
 * disruptive a change is (its tier), the engine profile's threshold for
 * that tier, and whether a candidate's modelled gain pays for it. Pure.
 *
 * Neighbours: recommend.c (keep or change the page size), advice.c (the
 * engines' settings), doc.c (the "change" object); the thresholds come
 * from the engine profile (model/engine.c).
 */
#include "recommend/recommend.h"

const char *rec_tier_name(enum rec_tier t)
{
    switch (t) {
    case REC_TIER_RELOPTION:
        return "reloption";
    case REC_TIER_REBUILD:
        return "rebuild";
    case REC_TIER_NEW_INSTANCE:
        return "new_instance";
    default:
        return "none";
    }
}

double rec_tier_threshold(const struct rec_engine *e, enum rec_tier t)
{
    switch (t) {
    case REC_TIER_RELOPTION:
        return e->change_threshold.reloption;
    case REC_TIER_REBUILD:
        return e->change_threshold.rebuild;
    case REC_TIER_NEW_INSTANCE:
        return e->change_threshold.new_instance;
    default:
        return 0;
    }
}

int rec_io_no_worse(double cur_io_ms, double new_io_ms)
{
    return new_io_ms <= cur_io_ms * (1 + 1e-9) + 1e-12;
}

int rec_change_pays(const struct rec_engine *e, enum rec_tier tier,
                    double cur_io_ms, double new_io_ms, double cur_reads,
                    double new_reads, double *gain_io, double *gain_reads)
{
    double thr = rec_tier_threshold(e, tier);
    double gi = cur_io_ms > 0 ? (cur_io_ms - new_io_ms) / cur_io_ms : 0;
    double gr = cur_reads > 0 ? (cur_reads - new_reads) / cur_reads : 0;
    int io_no_worse = rec_io_no_worse(cur_io_ms, new_io_ms);

    if (gain_io)
        *gain_io = gi;
    if (gain_reads)
        *gain_reads = gr;
    /* zero gain and ties keep what is there; thresholds are "at least" */
    if (gi > 1e-12 && gi >= thr - 1e-12)
        return 1;
    if (tier != REC_TIER_NEW_INSTANCE && io_no_worse && gr > 1e-12 &&
        gr >= thr - 1e-12)
        return 1;
    return 0;
}

double rec_candidate_bytes(const struct rec_candidate *c, double sessions)
{
    return (c->data_pages +
            (c->outline_pages + c->outline_index_pages) * sessions) *
           (double)c->page_size_bytes;
}

int rec_change_pays_storage(const struct rec_engine *e, enum rec_tier tier,
                            const struct rec_candidate *cur,
                            const struct rec_candidate *nw, double sessions,
                            double *growth)
{
    double cb = rec_candidate_bytes(cur, sessions);
    double nb = rec_candidate_bytes(nw, sessions);
    double g = cb > 0 ? (nb - cb) / cb : 0, gr;

    if (growth)
        *growth = g;
    if (!rec_change_pays(e, tier, cur->io_ms, nw->io_ms, cur->buffered_reads,
                         nw->buffered_reads, NULL, &gr))
        return 0;
    /* a table that grows must save more reads than it adds bytes */
    return g <= 1e-9 || gr > g + 1e-12;
}
