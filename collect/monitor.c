/* SPDX-License-Identifier: Apache-2.0 */
/*
 * monitor.c — monitor snapshots: one timestamped snapshot of the engine
 * adapter's counters, and a run of them --interval seconds apart. Deltas
 * and hit ratios are in rows.c, pure functions over snapshots; the monitor
 * document in doc_monitor.c; cli/cmd_monitor.c renders.
 */
#include "collect/internal.h"

#include <errno.h>
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

/* Sleep s seconds; a signal ends it early when o->cancelled() says so. */
static void sleep_s(const struct coll_monitor_opts *o, double s)
{
    struct timespec ts;

    ts.tv_sec = (time_t)s;
    ts.tv_nsec = (long)((s - (double)ts.tv_sec) * 1e9);
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR &&
           !(o->cancelled && o->cancelled()))
        ;
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
            sleep_s(o, o->interval_s);
        if (o->cancelled && o->cancelled())
            return err_set(err, PT_EINTR, "interrupted");
    }
    return 0;
}

void coll_monitor_current(enum coll_engine e, const struct coll_snapshot *s,
                          struct coll_current *cur)
{
    const struct coll_engine_ops *ops = coll_engine_ops_get(e);
    memset(cur, 0, sizeof(*cur));
    if (ops && ops->current)
        ops->current(s, cur);
}
