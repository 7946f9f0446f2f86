/* SPDX-License-Identifier: Apache-2.0 */
/*
 * evidence.c — the recommendation's evidence as a library caller gathers
 * it in process: the per-key access evidence of a trace (the caller reads
 * the trace through sim/ and adds each request; model/ does no I/O). The
 * "inputs" object a recommendation document records is recommend/doc.c's.
 *
 * Neighbours: recommend/recommend.c (consumes struct rec_access), sim/
 * (sim_trace_evidence fills it), cli/cmd_recommend.c and advise
 * (callers).
 */
#include "model/model.h"

#include <stdlib.h>
#include <string.h>

void rec_trace_evidence_release(struct rec_trace_evidence *t)
{
    free(t->size_bytes);
    free(t->gets);
    memset(t, 0, sizeof(*t));
}

/* Room for key ids below `need`, doubling (amortised: the trace loop does
 * not allocate per request). */
static int grow(struct rec_trace_evidence *t, size_t need, struct pt_err *err)
{
    size_t nc = t->cap ? t->cap : 1024;
    uint64_t *ns, *ng;

    while (nc < need)
        nc *= 2;
    ns = pt_realloc(t->size_bytes, nc * sizeof(*ns));
    if (!ns)
        return err_set(err, PT_EINTERNAL, "out of memory reading the trace");
    t->size_bytes = ns;
    ng = pt_realloc(t->gets, nc * sizeof(*ng));
    if (!ng)
        return err_set(err, PT_EINTERNAL, "out of memory reading the trace");
    t->gets = ng;
    memset(t->size_bytes + t->cap, 0, (nc - t->cap) * sizeof(*ns));
    memset(t->gets + t->cap, 0, (nc - t->cap) * sizeof(*ng));
    t->cap = nc;
    return 0;
}

int rec_trace_evidence_add(struct rec_trace_evidence *t, uint64_t key_id,
                           uint64_t size_bytes, enum rec_trace_op op,
                           struct pt_err *err)
{
    int rc;

    if (key_id >= SIZE_MAX / sizeof(uint64_t) / 2)
        return err_set(err, PT_EDATA, "trace key id %llu is too large",
                       (unsigned long long)key_id);
    if (size_bytes > REC_MAX_SIZE_BYTES)
        return rec_limit_check_u64(REC_LIM_SIZE_BYTES, size_bytes, "trace",
                                   "object size", err);
    if (key_id >= t->cap && (rc = grow(t, (size_t)key_id + 1, err)) < 0)
        return rc;
    if (key_id >= t->n_keys)
        t->n_keys = (size_t)key_id + 1;
    t->requests++;
    if (op != REC_TRACE_DEL)
        t->size_bytes[key_id] = size_bytes;
    if (op == REC_TRACE_GET) {
        t->gets[key_id]++;
        t->n_gets++;
    }
    return 0;
}

void rec_trace_evidence_access(const struct rec_trace_evidence *t,
                               struct rec_access *acc)
{
    acc->n_keys = t->n_keys;
    acc->size_bytes = t->size_bytes;
    acc->gets = t->gets;
}
