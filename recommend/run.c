/*
 * run.c — the recommend step as one call: rec_run() loads the engine and
 * device profiles once (rec_profiles_load, model/profiles.c, the loader
 * every step uses),
 * turns in-memory evidence (sizes, monitor, server state, trace) into
 * rec_inputs, recommends (recommend.c), and decides the configuration in
 * use (current.c). `pagetune recommend` and advise's pipeline both call
 * it, so one database gets one recommendation and one current state
 * whichever command asks (issue 22).
 *
 * The only I/O is core's profile loader; the caller reads its own files.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "recommend/recommend.h"

/* The size statistics: of the sizes, else of the trace's last size per
 * key (a sorted copy). */
static int run_stats(const struct rec_request *q, struct rec_run_result *out,
                     struct pt_err *err)
{
    uint64_t *copy;
    int rc;

    if (q->sizes) {
        if ((rc = rec_sizes_stats(q->sizes, &out->stats, err)) < 0)
            return rc;
        out->have_stats = 1;
        return 0;
    }
    if (!q->trace)
        return 0;
    copy = pt_malloc((q->trace->n_keys ? q->trace->n_keys : 1) * sizeof(*copy));
    if (!copy)
        return err_set(err, PT_EINTERNAL, "out of memory");
    memcpy(copy, q->trace->size_bytes, q->trace->n_keys * sizeof(*copy));
    rc = rec_stats_compute(&out->stats, copy, q->trace->n_keys, err);
    free(copy);
    if (rc == 0)
        out->have_stats = 1;
    return rc;
}

/* compress_ratio of sizes.json: stored bytes / raw bytes, (0, 100]. */
static int run_compress_ratio(const struct rec_request *q, double *ratio,
                              struct pt_err *err)
{
    const json_t *cr = json_object_get(q->sizes_doc, "compress_ratio");

    *ratio = 0;
    if (!cr || json_is_null(cr))
        return 0;
    if (!json_is_number(cr) || !(json_number_value(cr) > 0) ||
        json_number_value(cr) > 100)
        return err_set(err, PT_EDATA,
                       "%s: compress_ratio must be a number > 0 (stored "
                       "bytes / raw bytes)",
                       q->sizes_file ? q->sizes_file : "sizes");
    *ratio = json_number_value(cr);
    return 0;
}

/* The server's state from the documents, in the request's order. */
static int run_state(const struct rec_request *q, const struct rec_engine *e,
                     struct rec_state *st, struct pt_err *err)
{
    const char *me =
        json_string_value(json_object_get(q->monitor_doc, "engine"));
    const json_t *cur;
    int rc;

    memset(st, 0, sizeof(*st));
    if (q->sizes_doc && (rc = rec_state_merge_json(
                             st, json_object_get(q->sizes_doc, "current"),
                             e->name, REC_SOURCE_SERVER,
                             q->sizes_file ? q->sizes_file : "sizes", err)) < 0)
        return rc;
    if (q->sizes_doc) /* sample's note on knobs it could not read */
        rec_state_note_add(st, json_string_value(json_object_get(
                                   q->sizes_doc, "current_note")));
    /* another engine's monitor says nothing of this one's settings */
    if (q->monitor_doc && (!me || !me[0] || strcmp(me, e->name) == 0) &&
        (rc = rec_state_merge_json(
             st, json_object_get(q->monitor_doc, "current"), e->name,
             REC_SOURCE_SERVER, q->monitor_file ? q->monitor_file : "monitor",
             err)) < 0)
        return rc;
    if (!q->current_doc)
        return 0;
    cur = json_object_get(q->current_doc, "current");
    return rec_state_merge_json(
        st, cur ? cur : q->current_doc, e->name, REC_SOURCE_SERVER,
        q->current_file ? q->current_file : "current", err);
}

/* The request's inline target, or the default. */
static double run_target(const struct rec_request *q)
{
    return q->inline_target > 0 ? q->inline_target : REC_DEFAULT_INLINE_TARGET;
}

/* A number member of obj, or dflt. */
static double num_or(const json_t *obj, const char *key, double dflt)
{
    const json_t *v = json_object_get(obj, key);
    return json_is_number(v) ? json_number_value(v) : dflt;
}

/* An integer knob of the state, or dflt when it is not set. */
static int64_t knob_num(const struct rec_state *st, const char *name,
                        int64_t dflt)
{
    const struct rec_knob *k = rec_state_get(st, name);
    return k && k->is_set && k->is_number && k->num > 0 ? k->num : dflt;
}

/*
 * The compression ratio the toaster gets (pglz bytes / raw bytes of the
 * values that compress): sizes.json "compression", the client's pglz
 * trial on sampled values, when most of them compress; else the server's
 * own compressed values (compress_ratio below 1: pg_column_size says it
 * compressed them); else 0, incompressible as far as anyone measured.
 */
static double run_pg_ratio(const struct rec_request *q, double stored_ratio,
                           int *measured, double *fixed, double *share)
{
    const json_t *c = json_object_get(q->sizes_doc, "compression");
    const json_t *fit = json_object_get(c, "pglz_fit");
    double raw, out, b;

    *measured = 0;
    *fixed = 0;
    *share = 1;
    if (json_is_object(c) && num_or(c, "values", 0) > 0) {
        *measured = 1;
        raw = num_or(c, "compressible_raw_bytes", 0);
        out = num_or(c, "pglz_bytes", 0);
        /* the share of the tried values that compress: that share of
           the rows compresses, the rest does not (a table of mixed
           objects; under REC_MIN_COMPRESS_SHARE, none) */
        *share = num_or(c, "compressible_share", 0);
        if (*share < REC_MIN_COMPRESS_SHARE || !(raw > 0)) {
            *share = 1;
            return 0;
        }
        /* the trial's line, when it is one (a positive slope and
           constant), else the mean ratio */
        b = num_or(fit, "per_byte", 0);
        if (b > 0 && b < 1 && num_or(fit, "fixed_bytes", -1) >= 0) {
            *fixed = num_or(fit, "fixed_bytes", 0);
            return b;
        }
        return out / raw;
    }
    *measured = stored_ratio > 0 && stored_ratio < 1;
    return *measured ? stored_ratio : 0;
}

/* attstorage's letter of a STORAGE keyword (EXTENDED when unknown). */
static char storage_letter(const char *w)
{
    return strcasecmp(w, "EXTERNAL") == 0 ? 'e'
           : strcasecmp(w, "MAIN") == 0   ? 'm'
           : strcasecmp(w, "PLAIN") == 0  ? 'p'
                                          : 'x';
}

/*
 * PostgreSQL: the table as the toaster sees it (struct rec_pg_table):
 * toast_tuple_target and fillfactor of the state, the object columns'
 * shares (sizes.json column_bytes), their STORAGE, the rest of the row
 * (sample's measure, less its 3 bytes per object: the stand-in byte and
 * the worst padding, collect/sample.c pg_rest) and the measured ratio.
 * 0 without the engine's "toast" figures.
 */
static int run_pg_table(const struct rec_request *q, const struct rec_engine *e,
                        const struct rec_state *st, double stored_ratio,
                        struct rec_pg_table *t)
{
    const json_t *cb = json_object_get(q->sizes_doc, "column_bytes");
    const struct rec_knob *sk = rec_state_get(st, "storage");
    int multi = num_or(q->sizes_doc, "rows_multi_column", 0) > 0;
    double sum = 0, v;
    const char *key;
    json_t *val;
    int64_t rest;

    memset(t, 0, sizeof(*t));
    if (!e->pg.present || strcmp(e->name, "postgresql") != 0)
        return 0;
    t->target_bytes =
        (uint32_t)knob_num(st, "toast_tuple_target", e->knob.default_value);
    /* outside 10..100: refused by rec_run before the table is used */
    t->fillfactor = (uint32_t)knob_num(st, "fillfactor", 100);
    json_object_foreach((json_t *)cb, key, val)
    {
        if (!json_is_number(val) || !((v = json_number_value(val)) > 0) ||
            t->n_columns == REC_PG_MAX_COLUMNS)
            continue;
        t->share[t->n_columns++] = v;
        sum += v;
    }
    if (!multi || t->n_columns == 0) {
        /* one object per row (SESSIONS: SMALL, MEDIUM or LARGE) */
        t->n_columns = 1;
        t->share[0] = sum = 1;
    }
    for (size_t i = 0; i < t->n_columns; i++) {
        t->share[i] /= sum;
        t->storage[i] = 'x';
        if (sk && sk->is_set && !sk->is_number)
            t->storage[i] = storage_letter(sk->word);
    }
    rest = (int64_t)e->row_fixed_bytes;
    if (e->row_measured)
        rest -= 3 * (int64_t)t->n_columns;
    t->rest_bytes = rest > 0 ? (uint32_t)rest : 0;
    t->ratio = run_pg_ratio(q, stored_ratio, &t->ratio_measured,
                            &t->fixed_bytes, &t->compress_share);
    return 1;
}

/* rec_inputs from the request and the loaded profiles. */
static void run_inputs(const struct rec_request *q,
                       const struct rec_run_result *out,
                       const struct rec_state *st, double compress_ratio,
                       struct rec_access *acc, struct rec_inputs *in)
{
    memset(in, 0, sizeof(*in));
    in->engine = &out->engine;
    in->device = &out->device;
    if (q->sizes) {
        in->sizes = q->sizes->values;
        in->size_counts = q->sizes->counts;
        in->n_sizes = q->sizes->n;
        in->sizes_from_histogram = q->sizes->from_histogram;
    }
    in->memory_bytes = q->memory_bytes;
    in->memory_given = q->memory_given;
    in->inline_target = run_target(q);
    in->sessions = q->sessions;
    if (!q->sessions && q->sizes && q->sizes->live_rows) {
        /* counted by sample */
        in->sessions = q->sizes->live_rows;
        in->sessions_basis = q->sizes->live_rows_source;
    }
    in->monitor = q->monitor;
    in->table = q->table ? q->table : q->sizes ? q->sizes->table : NULL;
    in->current = st;
    in->compress_ratio = compress_ratio;
    if (q->trace) {
        rec_trace_evidence_access(q->trace, acc);
        in->access = acc;
    }
}

/* The inputs a reason may name, as fields; any other backquoted word
   (a MySQL identifier) is left as it is. */
struct reason_map {
    const struct rec_request *q;
    char keep[72];
};

static const char *reason_field(void *ctx, const char *field)
{
    static const char *const inputs[] = {"memory", "sessions", "monitor",
                                         "trace"};
    struct reason_map *m = ctx;
    const char *as;

    for (size_t i = 0; i < sizeof(inputs) / sizeof(inputs[0]); i++)
        if (strcmp(field, inputs[i]) == 0) {
            as = m->q->field_map ? m->q->field_map(m->q->field_ctx, field)
                                 : NULL;
            return as ? as : field;
        }
    snprintf(m->keep, sizeof(m->keep), "`%s`", field);
    return m->keep;
}

/* The texts of the result in the front end's words (rec_request). */
static void run_name_fields(const struct rec_request *q, struct rec_result *r)
{
    struct reason_map m = {q, ""};

    for (size_t i = 0; i < r->n_reasons; i++)
        pt_msg_fields(r->reasons[i], sizeof(r->reasons[i]), reason_field, &m);
    pt_msg_fields(r->recon.reason, sizeof(r->recon.reason), reason_field, &m);
    pt_msg_fields(r->host_note, sizeof(r->host_note), reason_field, &m);
    pt_msg_fields(r->sessions_basis, sizeof(r->sessions_basis), reason_field,
                  &m);
}

int rec_run(const struct rec_request *q, struct rec_run_result *out,
            struct pt_err *err)
{
    struct rec_inputs in;
    struct rec_access acc;
    struct rec_state st;
    struct rec_pg_table pg;
    const struct rec_knob *ff;
    double ratio;
    int rc;

    memset(out, 0, sizeof(*out));
    if ((rc =
             rec_profiles_load(q->engine, q->device, &out->engine, &out->device,
                               out->engine_profile, out->device_profile,
                               sizeof(out->engine_profile), err)) < 0 ||
        (rc = run_compress_ratio(q, &ratio, err)) < 0 ||
        (rc = run_state(q, &out->engine, &st, err)) < 0 ||
        (rc = run_stats(q, out, err)) < 0)
        return rc;
    /* the measured rest of the row replaces the profile's constant */
    if (q->sizes && q->sizes->row_measured)
        rec_engine_set_row_fixed(&out->engine, q->sizes->row_fixed_bytes);
    out->rec = pt_calloc(1, sizeof(*out->rec));
    if (!out->rec)
        return err_set(err, PT_EINTERNAL, "out of memory");
    run_inputs(q, out, &st, ratio, &acc, &in);
    if (run_pg_table(q, &out->engine, &st, ratio, &pg))
        in.pg = &pg;
    if (in.pg && (ff = rec_state_get(&st, "fillfactor")) && ff->is_set &&
        ff->is_number && (ff->num < 10 || ff->num > 100))
        /* CREATE TABLE: a table's fillfactor is "between 10 and 100"; a
           hand-written state outside it is refused, not replaced */
        return err_set(err, PT_EDATA,
                       "%s: the table's `fillfactor` %lld is outside 10..100",
                       q->current_file ? q->current_file : "the current state",
                       (long long)ff->num);
    if ((rc = rec_recommend(out->rec, &in, err)) < 0)
        return rc;
    run_name_fields(q, out->rec);
    rec_current_config(out->rec, &out->engine, q->monitor, &out->current);
    return 0;
}

json_t *rec_run_to_json(const struct rec_run_result *r,
                        const struct rec_request *q)
{
    struct rec_inputs_doc d = {0};
    json_t *inputs, *doc;

    d.engine = q->engine;
    d.engine_profile = r->engine_profile;
    d.device = q->device;
    d.device_profile = r->device_profile;
    d.memory_given = q->memory_given;
    d.memory_bytes = q->memory_bytes;
    d.inline_target = run_target(q);
    d.sessions = q->sessions;
    d.stats = r->have_stats ? &r->stats : NULL;
    d.sizes_file = q->sizes_file;
    d.sizes_format = q->sizes_format;
    d.trace_file = q->trace_file;
    d.trace = q->trace;
    d.monitor_file = q->monitor_file;
    d.monitor = q->monitor;
    inputs = rec_inputs_to_json(&d);
    doc = inputs ? rec_result_to_json(r->rec, &r->engine, inputs) : NULL;
    json_decref(inputs);
    return doc;
}

void rec_run_result_release(struct rec_run_result *r)
{
    if (!r)
        return;
    free(r->rec);
    memset(r, 0, sizeof(*r));
}
