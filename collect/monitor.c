/* SPDX-License-Identifier: Apache-2.0 */
/*
 * monitor.c — one monitor snapshot: timestamps it and asks the engine's
 * adapter for its counters. Deltas and hit ratios are in rows.c, pure
 * functions over snapshots; cli/cmd_monitor.c loops, sleeps and renders.
 */
#include "collect/internal.h"

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

void coll_monitor_current(enum coll_engine e, const struct coll_snapshot *s,
                          struct coll_current *cur)
{
    const struct coll_engine_ops *ops = coll_engine_ops_get(e);
    memset(cur, 0, sizeof(*cur));
    if (ops && ops->current)
        ops->current(s, cur);
}
