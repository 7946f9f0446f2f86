/* SPDX-License-Identifier: Apache-2.0 */
/*
 * verdict.c — does a replay confirm a prediction? The measured difference
 * of a page size against the current one comes with a 95 % interval from
 * the interleaved rounds (plan.c); the prediction (the performance model,
 * perf/, calibrated on this machine) comes with its range. The rule, in
 * order:
 *   1. an interval that contains zero measured no difference we can
 *      trust: inconclusive, whatever was predicted;
 *   2. an interval that overlaps the predicted range: confirms;
 *   3. otherwise: contradicts, saying whether the sign differs or only
 *      the size (larger: further from zero than the range, either
 *      sign).
 * Pure: no I/O. Callers: cli/cmd_advise.c prints the verdict (next step);
 * bench/replay_article.sh applies the same rule.
 */
#include <math.h>
#include <string.h>

#include "store/store.h"

const char *store_verdict_name(enum store_verdict v)
{
    switch (v) {
    case STORE_VERDICT_CONFIRMS:
        return "confirms";
    case STORE_VERDICT_CONTRADICTS:
        return "contradicts";
    default:
        return "inconclusive";
    }
}

/* A range with lo <= hi (the caller may give them swapped). */
static struct store_range range_norm(const struct store_range *r)
{
    struct store_range n = *r;
    if (n.lo > n.hi) {
        double t = n.lo;
        n.lo = n.hi;
        n.hi = t;
    }
    return n;
}

static int range_finite(const struct store_range *r)
{
    return isfinite(r->mean) && isfinite(r->lo) && isfinite(r->hi);
}

enum store_verdict store_verdict_judge(const struct store_range *measured,
                                       const struct store_range *predicted,
                                       struct store_verdict_out *out)
{
    struct store_range m = range_norm(measured), p = range_norm(predicted);
    struct store_verdict_out local;
    const char *what;
    char mt[64], pt[64];

    if (!out)
        out = &local;
    memset(out, 0, sizeof(*out));
    out->measured = m;
    out->predicted = p;
    if (!range_finite(&m) || !range_finite(&p) || (m.lo <= 0 && m.hi >= 0)) {
        out->verdict = STORE_VERDICT_INCONCLUSIVE;
        what = "the interval spans zero";
    } else if (m.lo <= p.hi && p.lo <= m.hi) {
        out->verdict = STORE_VERDICT_CONFIRMS;
        what = "within the predicted range";
    } else {
        out->verdict = STORE_VERDICT_CONTRADICTS;
        if ((m.mean > 0) != (p.mean > 0))
            what = "the opposite direction";
        else /* by size: a fall beyond a predicted fall is larger */
            what = (p.mean > 0 ? m.lo > p.hi : m.hi < p.lo)
                       ? "larger than predicted"
                       : "smaller than predicted";
    }
    /* the changes as every report writes them (core's pt_fig_change_range) */
    snprintf(out->why, sizeof(out->why), "%s: measured %s, predicted %s: %s",
             store_verdict_name(out->verdict),
             pt_fig_change_range(m.mean * 100, m.lo * 100, m.hi * 100, mt,
                                 sizeof(mt)),
             pt_fig_change_range(p.mean * 100, p.lo * 100, p.hi * 100, pt,
                                 sizeof(pt)),
             what);
    return out->verdict;
}

int store_verdict_for(const struct store_plan_result *res,
                      uint32_t page_size_bytes,
                      const struct store_range *predicted,
                      struct store_verdict_out *out, struct pt_err *err)
{
    const struct store_replay_result *r =
        store_plan_result_find(res, page_size_bytes);
    struct store_range m;

    if (!r || r == &res->results[0])
        return err_set(err, PT_EUSAGE,
                       "page size %u was not replayed against a first one",
                       page_size_bytes);
    if (r->n_rounds < 2)
        return err_set(err, PT_EDATA,
                       "page size %u has %u measured round(s): no interval",
                       page_size_bytes, r->n_rounds);
    m.mean = r->diff_mean;
    m.lo = r->diff_lo;
    m.hi = r->diff_hi;
    store_verdict_judge(&m, predicted, out);
    return 0;
}
