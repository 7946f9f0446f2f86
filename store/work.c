/* SPDX-License-Identifier: Apache-2.0 */
/*
 * work.c — the work of a plan of replays as a running total, and the
 * seconds it has left: pure arithmetic over the records a plan handles
 * (each store's load and warm-up passes, then its measured rounds), no
 * clock and no I/O. plan.c keeps one struct store_plan_work up to date
 * and gives it to the plan's `work` hook; cli/cmd_replay.c and
 * cli/cmd_advise.c draw it as one progress line.
 *
 * How long is left: the rate so far (elapsed seconds per record done)
 * times the records left. Without a budget every round runs and that is
 * the estimate. With one the rounds may stop early (plan.c rounds_done),
 * so the records left are an upper bound and so is the time; it is also
 * bounded by the budget left, because no round starts that would end past
 * the budget — except the rounds that always run (the first two) and the
 * round under way, which end whatever the budget says. Last, each store
 * is summed up and measured (a checkpoint and dbstat): one step each.
 */
#include <stdio.h>
#include <string.h>

#include "store/store.h"

unsigned store_plan_max_rounds(const struct store_plan *p)
{
    if (p->rounds == 0)
        return 1;
    return p->rounds < STORE_MAX_ROUNDS ? p->rounds : STORE_MAX_ROUNDS;
}

void store_plan_work_init(struct store_plan_work *w, const struct store_plan *p,
                          uint64_t n_reqs, uint64_t n_keys)
{
    uint64_t n = p->n_page_sizes;

    memset(w, 0, sizeof(*w));
    w->stage = STORE_STAGE_LOAD;
    w->max_rounds = store_plan_max_rounds(p);
    /* a budget stops after 2 rounds at the earliest (tight: after 3) */
    w->min_rounds = w->max_rounds;
    if (p->budget_s > 0 && w->min_rounds > 2)
        w->min_rounds = 2;
    w->at_most = w->min_rounds < w->max_rounds;
    w->budget_s = p->budget_s;
    w->round_records = n * n_reqs;
    w->n_stores = n;
    w->total = n * (n_keys + (uint64_t)p->warmup_rounds * n_reqs) +
               (uint64_t)w->max_rounds * w->round_records + n;
}

void store_plan_work_stage(struct store_plan_work *w, enum store_stage stage,
                           uint64_t phase_total)
{
    w->base += w->phase_total;
    w->stage = stage;
    w->phase_done = 0;
    w->phase_total = phase_total;
    if (stage == STORE_STAGE_ROUND)
        w->round++;
    w->done = w->base;
}

void store_plan_work_update(struct store_plan_work *w, uint64_t phase_done)
{
    w->phase_done = phase_done < w->phase_total ? phase_done : w->phase_total;
    w->done = w->base + w->phase_done;
}

double store_plan_work_left_s(const struct store_plan_work *w)
{
    double per, left, floor_left, budget_left;
    uint64_t floor;

    if (w->stage == STORE_STAGE_DONE)
        return 0;
    if (w->done == 0 || w->elapsed_s <= 0)
        return -1;
    per = w->elapsed_s / (double)w->done;
    if (w->stage == STORE_STAGE_FINISH) /* the rounds are over */
        return (double)(w->phase_total - w->phase_done) * per;
    left = (double)(w->total - w->done) * per;
    if (!w->at_most)
        return left;
    /* what runs whatever the budget: every round up to min_rounds, the
       round under way, and measuring the stores */
    floor =
        w->total - (uint64_t)(w->max_rounds - w->min_rounds) * w->round_records;
    if (w->stage == STORE_STAGE_ROUND &&
        w->base + w->phase_total + w->n_stores > floor)
        floor = w->base + w->phase_total + w->n_stores;
    floor_left = floor > w->done ? (double)(floor - w->done) * per : 0;
    budget_left = w->budget_s - w->budget_used_s;
    if (budget_left < floor_left)
        budget_left = floor_left;
    return budget_left < left ? budget_left : left;
}

const char *store_plan_work_label(const struct store_plan_work *w, char *buf,
                                  size_t len)
{
    char sz[32];

    switch (w->stage) {
    case STORE_STAGE_LOAD:
        snprintf(buf, len, "warm-up %s: loading",
                 pt_fig_page(w->page_size_bytes, sz, sizeof(sz)));
        break;
    case STORE_STAGE_WARMUP:
        snprintf(buf, len, "warm-up %s",
                 pt_fig_page(w->page_size_bytes, sz, sizeof(sz)));
        break;
    case STORE_STAGE_ROUND:
        snprintf(buf, len, "round %u/%u", w->round, w->max_rounds);
        break;
    case STORE_STAGE_FINISH:
        snprintf(buf, len, "measuring the stores");
        break;
    default:
        snprintf(buf, len, "done");
        break;
    }
    return buf;
}
