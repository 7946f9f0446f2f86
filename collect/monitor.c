/* SPDX-License-Identifier: Apache-2.0 */
/*
 * monitor.c — monitor snapshots: one timestamped snapshot of the engine
 * adapter's counters, and a run of them --interval seconds apart. Deltas
 * and hit ratios are in rows.c, pure functions over snapshots; the monitor
 * document in doc_monitor.c; the host's memory (host.c), read once after
 * the last snapshot; cli/cmd_monitor.c renders.
 */
#include "collect/internal.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

int coll_monitor_snapshot(struct coll_conn *c, struct coll_snapshot *s,
                          struct pt_err *err)
{
    const struct coll_engine_ops *ops = coll_engine_ops_get(c->engine);
    time_t now = time(NULL);
    struct tm tm;
    int ret;

    memset(s, 0, sizeof(*s));
    if (!ops)
        return err_set(err, PT_EINTERNAL, "no adapter for the engine");
    s->t_s = (double)pt_now_ns() / 1e9;
    gmtime_r(&now, &tm);
    strftime(s->taken_at, sizeof(s->taken_at), "%Y-%m-%dT%H:%M:%SZ", &tm);
    ret = ops->snapshot(c, s, err);
    if (ret < 0)
        coll_snapshot_release(s);
    return ret;
}

/*
 * Sleep s seconds; a recorded stop (pt_interrupted) ends it early.
 * With a countdown hook the sleep is cut into steps that end on whole
 * seconds left, each announced first ("next snapshot in 42 s"). No step
 * is longer than SLEEP_STEP_S: a signal that lands between the check of
 * pt_interrupted and nanosleep (no EINTR then) costs at most one step, not
 * the rest of a 60 s interval (found under valgrind beside another test
 * suite: SIGTERM slept on for 30 s).
 */
#define SLEEP_STEP_S 0.2
static void sleep_s(const struct coll_monitor_opts *o, size_t done, double s)
{
    uint64_t end_ns = pt_now_ns() + (uint64_t)(s * 1e9);
    unsigned said = 0; /* the whole seconds last announced, 0 = none */

    for (;;) {
        uint64_t now = pt_now_ns();
        double left, step;
        struct timespec ts;

        if (now >= end_ns || pt_interrupted())
            return;
        left = (double)(end_ns - now) / 1e9;
        step = left;
        if (o->countdown) {
            unsigned whole = (unsigned)ceil(left);
            if (whole != said)
                o->countdown(o->progress_ctx, done, o->count, whole);
            said = whole;
            step = left - (double)(whole - 1); /* to the next whole second */
        }
        if (step > SLEEP_STEP_S)
            step = SLEEP_STEP_S;
        ts.tv_sec = (time_t)step;
        ts.tv_nsec = (long)((step - (double)ts.tv_sec) * 1e9);
        /* EINTR: the loop re-checks pt_interrupted and the time left */
        nanosleep(&ts, NULL);
    }
}

int coll_monitor_run(struct coll_conn *c, const struct coll_monitor_opts *o,
                     struct coll_snapshot *snaps, size_t *n_taken,
                     struct pt_err *err)
{
    int ret;

    for (*n_taken = 0; *n_taken < o->count;) {
        ret = coll_monitor_snapshot(c, &snaps[*n_taken], err);
        if (ret < 0)
            return ret;
        ++*n_taken;
        if (o->progress)
            o->progress(o->progress_ctx, *n_taken, o->count);
        if (*n_taken < o->count)
            sleep_s(o, *n_taken, o->interval_s);
        if ((ret = pt_interrupt_check(err)) < 0)
            return ret;
    }
    /* once per run: the host's memory does not change between snapshots */
    return *n_taken ? coll_host_read(c, &snaps[*n_taken - 1].host, err) : 0;
}

void coll_monitor_current(enum coll_engine e, const struct coll_snapshot *s,
                          struct coll_current *cur)
{
    const struct coll_engine_ops *ops = coll_engine_ops_get(e);
    memset(cur, 0, sizeof(*cur));
    if (ops && ops->current)
        ops->current(s, cur);
}
