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

int rec_change_pays(const struct rec_engine *e, enum rec_tier tier,
                    double cur_io_ms, double new_io_ms, double cur_reads,
                    double new_reads, double *gain_io, double *gain_reads)
{
    double thr = rec_tier_threshold(e, tier);
    double gi = cur_io_ms > 0 ? (cur_io_ms - new_io_ms) / cur_io_ms : 0;
    double gr = cur_reads > 0 ? (cur_reads - new_reads) / cur_reads : 0;
    int io_no_worse = new_io_ms <= cur_io_ms * (1 + 1e-9) + 1e-12;

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
