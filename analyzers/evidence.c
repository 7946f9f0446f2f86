/* SPDX-License-Identifier: Apache-2.0 */
/*
 * evidence.c — the recommendation's evidence as a library caller gathers
 * it in process: the per-key access evidence of a trace (the caller reads
 * the trace through sim/ and adds each request; analyzers/ does no I/O)
 * and the "inputs" object a recommendation document records (which files
 * and settings the figures come from).
 *
 * Neighbours: recommend.c (consumes struct rec_access, writes the
 * document that embeds "inputs"), cli/cmd_recommend.c and advise (callers).
 */
#include "analyzers/analyzers.h"

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

json_t *rec_inputs_to_json(const struct rec_inputs_doc *d)
{
    json_t *in = json_object();

    if (!in)
        return NULL;
    json_object_set_new(in, "engine", json_string(d->engine));
    json_object_set_new(in, "engine_profile", json_string(d->engine_profile));
    json_object_set_new(in, "device", json_string(d->device));
    json_object_set_new(in, "device_profile", json_string(d->device_profile));
    json_object_set_new(in, "memory_bytes",
                        d->memory_given
                            ? json_integer((json_int_t)d->memory_bytes)
                            : json_null());
    json_object_set_new(in, "inline_target", json_real(d->inline_target));
    json_object_set_new(in, "sessions",
                        d->sessions ? json_integer((json_int_t)d->sessions)
                                    : json_null());
    if (d->stats) {
        json_t *s = rec_stats_to_json(d->stats, NULL, 0, NULL);
        if (s) {
            json_object_del(s, "schema_version");
            json_object_set_new(s, "file", json_string(d->sizes_file));
            json_object_set_new(s, "format", json_string(d->sizes_format));
            json_object_set_new(in, "sizes", s);
        }
    }
    if (d->trace_file && d->trace)
        json_object_set_new(in, "trace",
                            json_pack("{s:s,s:I,s:I,s:I}", "file",
                                      d->trace_file, "requests",
                                      (json_int_t)d->trace->requests, "gets",
                                      (json_int_t)d->trace->n_gets, "keys",
                                      (json_int_t)d->trace->n_keys));
    if (d->monitor_file && d->monitor && d->monitor->present)
        json_object_set_new(
            in, "monitor",
            json_pack("{s:s,s:I,s:I,s:f,s:f}", "file", d->monitor_file,
                      "page_size", (json_int_t)d->monitor->page_size_bytes,
                      "bufferpool_pages",
                      (json_int_t)d->monitor->bufferpool_pages, "hit_ratio",
                      d->monitor->hit_ratio_pct, "direct_read_share",
                      d->monitor->direct_read_share));
    return in;
}
