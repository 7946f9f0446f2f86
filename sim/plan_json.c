/* SPDX-License-Identifier: Apache-2.0 */
/*
 * plan_json.c — simulation.json, the document of a struct sim_plan_result
 * (plan.c): its one writer and its one reader. Two forms: a plan's results
 * (trace, distinct keys, config, results, mrc) and a comparison of two
 * settings at one page size (results marked with "setting", comparison,
 * mrc). Ratios (miss_ratio, hit_ratio) and bufferpool_bytes are derived
 * when writing and not read back. pagetune-simulate(1) lists the fields.
 */
#include <stddef.h>
#include <string.h>

#include "sim/sim.h"

/* A counter field of a stats struct, by its key in the document. */
struct field {
    const char *key;
    size_t off;
};

#define APP_FIELD(f)                                                           \
    {                                                                          \
#f, offsetof(struct sim_app_stats, f)                                  \
    }
/* the counters before and after the derived miss_ratio, in document order */
static const struct field app_head[] = {
    APP_FIELD(requests), APP_FIELD(gets), APP_FIELD(sets),
    APP_FIELD(dels),     APP_FIELD(hits), APP_FIELD(misses),
};
static const struct field app_tail[] = {
    APP_FIELD(offload_hits), APP_FIELD(replication_messages),
    APP_FIELD(peer_fetches), APP_FIELD(db_reads),
    APP_FIELD(db_writes),
};

#define DB_FIELD(f)                                                            \
    {                                                                          \
#f, offsetof(struct sim_db_stats, f)                                   \
    }
static const struct field bp_fields[] = {
    DB_FIELD(logical_reads),
    DB_FIELD(physical_reads),
    DB_FIELD(physical_writes),
};
static const struct field db_fields[] = {
    DB_FIELD(direct_reads),    DB_FIELD(direct_read_reqs),
    DB_FIELD(direct_writes),   DB_FIELD(direct_write_reqs),
    DB_FIELD(inline_accesses), DB_FIELD(outline_accesses),
    DB_FIELD(too_big),         DB_FIELD(pages_used),
};

#define N_OF(a) (sizeof(a) / sizeof((a)[0]))

static uint64_t field_get(const void *base, const struct field *f)
{
    uint64_t v;

    memcpy(&v, (const char *)base + f->off, sizeof(v));
    return v;
}

static uint64_t *field_at(void *base, const struct field *f)
{
    return (uint64_t *)(void *)((char *)base + f->off);
}

/* Set the counters of `f` from base into o. */
static void fields_json(json_t *o, const struct field *f, size_t n,
                        const void *base)
{
    for (size_t i = 0; i < n; i++)
        json_object_set_new(o, f[i].key,
                            json_integer((json_int_t)field_get(base, &f[i])));
}

/* A ratio, or null when it has no denominator (rc < 0). */
static json_t *ratio_json(int rc, double ratio)
{
    return rc == 0 ? json_real(ratio) : json_null();
}

static json_t *u64_json(uint64_t v)
{
    return json_integer((json_int_t)v);
}

/* ---- writer ------------------------------------------------------------- */

static json_t *app_json(const struct sim_app_stats *s)
{
    json_t *o = json_object();
    double ratio = 0;
    int rc = sim_app_miss_ratio(s, &ratio);

    fields_json(o, app_head, N_OF(app_head), s);
    json_object_set_new(o, "miss_ratio", ratio_json(rc, ratio));
    fields_json(o, app_tail, N_OF(app_tail), s);
    json_object_set_new(o, "object_bytes", u64_json(s->object_bytes));
    json_object_set_new(o, "cost_ms", json_real(s->cost_ms));
    return o;
}

/* [lo, hi] */
static json_t *pair_json(double lo, double hi)
{
    json_t *a = json_array();

    json_array_append_new(a, json_real(lo));
    json_array_append_new(a, json_real(hi));
    return a;
}

/* The performance model's prediction (pagetune-simulate(1), MODEL). */
static json_t *predicted_json(const struct sim_predicted *p)
{
    json_t *o = json_object(), *u = json_object();

    json_object_set_new(o, "clients", json_integer(p->clients));
    json_object_set_new(o, "think_ms", json_real(p->think_ms));
    json_object_set_new(o, "req_per_s", json_real(p->req_per_s));
    json_object_set_new(o, "response_ms", json_real(p->response_ms));
    json_object_set_new(o, "bottleneck", json_string(p->bottleneck));
    for (size_t k = 0; k < p->n_util; k++)
        json_object_set_new(u, p->util[k].name, json_real(p->util[k].util));
    json_object_set_new(o, "utilisation", u);
    json_object_set_new(o, "calibrated", json_boolean(p->calibrated));
    json_object_set_new(o, "calibration",
                        p->calibrated ? json_string(p->calibration)
                                      : json_null());
    if (p->has_range)
        json_object_set_new(
            o, "range",
            json_pack("{s:o, s:o}", "req_per_s",
                      pair_json(p->req_per_s_lo, p->req_per_s_hi),
                      "response_ms",
                      pair_json(p->response_ms_lo, p->response_ms_hi)));
    else
        json_object_set_new(o, "range", json_null());
    return o;
}

static void db_json(json_t *o, const struct sim_db_stats *d)
{
    json_t *bp = json_object();
    double ratio = 0;
    int rc = sim_db_hit_ratio(d, &ratio);

    json_object_set_new(o, "page_size", json_integer(d->page_size_bytes));
    json_object_set_new(o, "bufferpool_pages", u64_json(d->pool_pages));
    json_object_set_new(o, "bufferpool_bytes",
                        u64_json(d->pool_pages * d->page_size_bytes));
    fields_json(bp, bp_fields, N_OF(bp_fields), d);
    json_object_set_new(bp, "hit_ratio", ratio_json(rc, ratio));
    json_object_set_new(o, "bufferpool", bp);
    fields_json(o, db_fields, N_OF(db_fields), d);
    json_object_set_new(o, "io_ms", json_real(d->io_ms));
}

static json_t *row_json(const struct sim_result_row *r)
{
    json_t *o = json_object();

    json_object_set_new(o, "app_entries", u64_json(r->app_entries));
    if (r->has_db) {
        db_json(o, &r->db);
    } else {
        json_object_set_new(o, "page_size", json_null());
        json_object_set_new(o, "bufferpool_pages", json_null());
    }
    json_object_set_new(o, "app", app_json(&r->app));
    if (r->setting[0])
        json_object_set_new(o, "setting", json_string(r->setting));
    if (r->predicted.present)
        json_object_set_new(o, "predicted", predicted_json(&r->predicted));
    return o;
}

static json_t *curve_json(const struct sim_curve *c)
{
    json_t *o = json_object(), *pts = json_array();

    if (c->page_size_bytes)
        json_object_set_new(o, "page_size", json_integer(c->page_size_bytes));
    else
        json_object_set_new(o, "tier", json_string("app"));
    json_object_set_new(o, "sample_rate", json_real(c->sample_rate));
    for (size_t i = 0; i < c->n_points; i++) {
        json_t *pt = json_object();
        json_object_set_new(pt, c->page_size_bytes ? "pages" : "entries",
                            u64_json(c->points[i].size));
        if (c->page_size_bytes)
            json_object_set_new(
                pt, "bytes", u64_json(c->points[i].size * c->page_size_bytes));
        json_object_set_new(pt, "hit_ratio", json_real(c->points[i].hit_ratio));
        if (c->points[i].given)
            json_object_set_new(pt, "given", json_true());
        if (c->points[i].extrapolated)
            json_object_set_new(pt, "extrapolated", json_true());
        json_array_append_new(pts, pt);
    }
    json_object_set_new(o, "points", pts);
    return o;
}

static json_t *config_json(const struct sim_plan_result *res)
{
    json_t *cfg = json_object();

    json_object_set_new(cfg, "cache_mode",
                        json_string(sim_cache_mode_name(res->mode)));
    json_object_set_new(cfg, "app_policy", json_string(res->app_policy));
    json_object_set_new(cfg, "offload_entries", u64_json(res->offload_entries));
    json_object_set_new(cfg, "servers", json_integer(res->servers));
    json_object_set_new(cfg, "sharing",
                        json_string(sim_sharing_name(res->sharing)));
    if (res->has_db) {
        json_object_set_new(cfg, "engine", json_string(res->engine));
        json_object_set_new(cfg, "device", json_string(res->device));
        json_object_set_new(cfg, "bufferpool_policy",
                            json_string(res->bp_policy));
    }
    return cfg;
}

json_t *sim_plan_result_to_json(const struct sim_plan_result *res)
{
    json_t *doc = json_object(), *rows = json_array();

    if (!doc || !rows) {
        json_decref(doc);
        json_decref(rows);
        return NULL;
    }
    json_object_set_new(doc, "schema_version", json_integer(1));
    json_object_set_new(doc, "pagetune_version", json_string(PT_VERSION));
    if (!res->comparison) {
        json_object_set_new(doc, "trace",
                            json_string(res->trace ? res->trace : "-"));
        json_object_set_new(doc, "distinct_keys", u64_json(res->distinct_keys));
        json_object_set_new(doc, "config", config_json(res));
    }
    for (size_t i = 0; i < res->n_rows; i++)
        json_array_append_new(rows, row_json(&res->rows[i]));
    json_object_set_new(doc, "results", rows);
    if (res->comparison)
        json_object_set_new(doc, "comparison",
                            json_pack("{s:s, s:f, s:f}", "knob", res->knob,
                                      "current", res->knob_current,
                                      "recommended", res->knob_recommended));
    if (res->has_mrc) {
        json_t *arr = json_array();
        for (size_t t = 0; t < res->n_curves; t++)
            json_array_append_new(arr, curve_json(&res->curves[t]));
        json_object_set_new(doc, "mrc", arr);
    }
    return doc;
}

/* ---- reader ------------------------------------------------------------- */

/* An object member, PT_EDATA when missing or not an object. */
static int get_obj(const json_t *o, const char *key, const json_t **out,
                   const char *ctx, struct pt_err *err)
{
    *out = json_object_get(o, key);
    if (!json_is_object(*out))
        return err_set(err, PT_EDATA, "%s: '%s' must be an object", ctx, key);
    return 0;
}

static int get_fields(const json_t *o, const struct field *f, size_t n,
                      void *base, const char *ctx, struct pt_err *err)
{
    int ret;

    for (size_t i = 0; i < n; i++)
        if ((ret = pt_json_get_u64(o, f[i].key, field_at(base, &f[i]), ctx,
                                   err)) < 0)
            return ret;
    return 0;
}

static int get_u32(const json_t *o, const char *key, uint32_t *out,
                   const char *ctx, struct pt_err *err)
{
    uint64_t v;
    int ret = pt_json_get_u64(o, key, &v, ctx, err);

    if (ret < 0)
        return ret;
    if (v > UINT32_MAX)
        return err_set(err, PT_EDATA, "%s: '%s' is out of range", ctx, key);
    *out = (uint32_t)v;
    return 0;
}

static int db_from_json(struct sim_db_stats *d, const json_t *o,
                        const char *ctx, struct pt_err *err)
{
    const json_t *bp;
    int ret;

    if ((ret = get_u32(o, "page_size", &d->page_size_bytes, ctx, err)) < 0 ||
        (ret = pt_json_get_u64(o, "bufferpool_pages", &d->pool_pages, ctx,
                               err)) < 0 ||
        (ret = get_obj(o, "bufferpool", &bp, ctx, err)) < 0 ||
        (ret = get_fields(bp, bp_fields, N_OF(bp_fields), d, ctx, err)) < 0 ||
        (ret = get_fields(o, db_fields, N_OF(db_fields), d, ctx, err)) < 0)
        return ret;
    return pt_json_get_num(o, "io_ms", &d->io_ms, ctx, err);
}

static int pair_from_json(const json_t *a, double *lo, double *hi,
                          const char *key, const char *ctx, struct pt_err *err)
{
    const json_t *l = json_array_get(a, 0), *h = json_array_get(a, 1);

    if (!json_is_array(a) || json_array_size(a) != 2 || !json_is_number(l) ||
        !json_is_number(h))
        return err_set(err, PT_EDATA,
                       "%s: 'predicted.range.%s' must be [lo, hi]", ctx, key);
    *lo = json_number_value(l);
    *hi = json_number_value(h);
    return 0;
}

static int predicted_from_json(struct sim_predicted *p, const json_t *o,
                               const char *ctx, struct pt_err *err)
{
    const json_t *u, *cal, *range, *v;
    const char *bott, *key;
    uint64_t clients;
    int ret;

    if (!json_is_object(o))
        return err_set(err, PT_EDATA, "%s: 'predicted' must be an object", ctx);
    if ((ret = pt_json_get_u64(o, "clients", &clients, ctx, err)) < 0 ||
        (ret = pt_json_get_num(o, "think_ms", &p->think_ms, ctx, err)) < 0 ||
        (ret = pt_json_get_num(o, "req_per_s", &p->req_per_s, ctx, err)) < 0 ||
        (ret = pt_json_get_num(o, "response_ms", &p->response_ms, ctx, err)) <
            0 ||
        (ret = pt_json_get_str(o, "bottleneck", &bott, ctx, err)) < 0 ||
        (ret = get_obj(o, "utilisation", &u, ctx, err)) < 0)
        return ret;
    if (clients < 1 || clients > UINT32_MAX)
        return err_set(err, PT_EDATA, "%s: 'predicted.clients' is out of range",
                       ctx);
    p->clients = (unsigned)clients;
    snprintf(p->bottleneck, sizeof(p->bottleneck), "%s", bott);
    json_object_foreach((json_t *)u, key, v)
    {
        if (p->n_util == SIM_PRED_CENTRES || !json_is_number(v))
            return err_set(err, PT_EDATA,
                           "%s: 'predicted.utilisation' must map at most %d "
                           "centres to numbers",
                           ctx, SIM_PRED_CENTRES);
        snprintf(p->util[p->n_util].name, SIM_PRED_NAME, "%s", key);
        p->util[p->n_util++].util = json_number_value(v);
    }
    p->calibrated = json_is_true(json_object_get(o, "calibrated"));
    cal = json_object_get(o, "calibration");
    if (json_is_string(cal))
        snprintf(p->calibration, sizeof(p->calibration), "%s",
                 json_string_value(cal));
    range = json_object_get(o, "range");
    if (range && !json_is_null(range)) {
        if (!json_is_object(range))
            return err_set(err, PT_EDATA,
                           "%s: 'predicted.range' must be an object", ctx);
        if ((ret = pair_from_json(json_object_get(range, "req_per_s"),
                                  &p->req_per_s_lo, &p->req_per_s_hi,
                                  "req_per_s", ctx, err)) < 0 ||
            (ret = pair_from_json(json_object_get(range, "response_ms"),
                                  &p->response_ms_lo, &p->response_ms_hi,
                                  "response_ms", ctx, err)) < 0)
            return ret;
        p->has_range = 1;
    }
    p->present = 1;
    return 0;
}

static int row_from_json(struct sim_result_row *r, const json_t *o,
                         const char *ctx, struct pt_err *err)
{
    const json_t *app, *pred;
    const char *setting = NULL;
    int ret;

    if (!json_is_object(o))
        return err_set(err, PT_EDATA, "%s: 'results' must hold objects", ctx);
    if ((ret = pt_json_get_u64(o, "app_entries", &r->app_entries, ctx, err)) <
            0 ||
        (ret = get_obj(o, "app", &app, ctx, err)) < 0 ||
        (ret = get_fields(app, app_head, N_OF(app_head), &r->app, ctx, err)) <
            0 ||
        (ret = get_fields(app, app_tail, N_OF(app_tail), &r->app, ctx, err)) <
            0 ||
        (ret = pt_json_get_num(app, "cost_ms", &r->app.cost_ms, ctx, err)) <
            0 ||
        (ret = pt_json_opt_u64(app, "object_bytes", &r->app.object_bytes, ctx,
                               err)) < 0 ||
        (ret = pt_json_opt_str(o, "setting", &setting, ctx, err)) < 0)
        return ret;
    if (setting)
        snprintf(r->setting, sizeof(r->setting), "%s", setting);
    pred = json_object_get(o, "predicted");
    if (pred && (ret = predicted_from_json(&r->predicted, pred, ctx, err)) < 0)
        return ret;
    r->has_db = !json_is_null(json_object_get(o, "page_size"));
    return r->has_db ? db_from_json(&r->db, o, ctx, err) : 0;
}

static int point_from_json(struct sim_curve_point *pt, const json_t *o,
                           int pages, const char *ctx, struct pt_err *err)
{
    int ret;

    if (!json_is_object(o))
        return err_set(err, PT_EDATA, "%s: 'points' must hold objects", ctx);
    if ((ret = pt_json_get_u64(o, pages ? "pages" : "entries", &pt->size, ctx,
                               err)) < 0)
        return ret;
    pt->given = json_is_true(json_object_get(o, "given"));
    pt->extrapolated = json_is_true(json_object_get(o, "extrapolated"));
    return pt_json_get_num(o, "hit_ratio", &pt->hit_ratio, ctx, err);
}

static int curve_from_json(struct sim_curve *c, const json_t *o,
                           const char *ctx, struct pt_err *err)
{
    const json_t *pts, *pt;
    size_t i;
    int ret;

    if (!json_is_object(o))
        return err_set(err, PT_EDATA, "%s: 'mrc' must hold objects", ctx);
    if (json_object_get(o, "page_size") &&
        (ret = get_u32(o, "page_size", &c->page_size_bytes, ctx, err)) < 0)
        return ret;
    if ((ret = pt_json_get_num(o, "sample_rate", &c->sample_rate, ctx, err)) <
        0)
        return ret;
    pts = json_object_get(o, "points");
    if (!json_is_array(pts) || json_array_size(pts) > SIM_CURVE_POINTS)
        return err_set(err, PT_EDATA,
                       "%s: 'points' must be an array of up to %d points", ctx,
                       SIM_CURVE_POINTS);
    json_array_foreach(pts, i, pt)
    {
        if ((ret = point_from_json(&c->points[i], pt, c->page_size_bytes != 0,
                                   ctx, err)) < 0)
            return ret;
        c->n_points = i + 1;
    }
    return 0;
}

static int names_from_json(struct sim_plan_result *res, const json_t *cfg,
                           const char *ctx, struct pt_err *err)
{
    const char *mode, *sharing, *app_policy;
    int ret, m, s;

    if ((ret = pt_json_get_str(cfg, "cache_mode", &mode, ctx, err)) < 0 ||
        (ret = pt_json_get_str(cfg, "sharing", &sharing, ctx, err)) < 0 ||
        (ret = pt_json_get_str(cfg, "app_policy", &app_policy, ctx, err)) < 0)
        return ret;
    if ((m = sim_cache_mode_parse(mode)) < 0 ||
        (s = sim_sharing_parse(sharing)) < 0)
        return err_set(err, PT_EDATA,
                       "%s: unknown cache_mode '%s' or sharing '%s'", ctx, mode,
                       sharing);
    res->mode = (enum sim_cache_mode)m;
    res->sharing = (enum sim_sharing)s;
    snprintf(res->app_policy, sizeof(res->app_policy), "%s", app_policy);
    return 0;
}

static int config_from_json(struct sim_plan_result *res, const json_t *doc,
                            const char *ctx, struct pt_err *err)
{
    const json_t *cfg;
    const char *trace, *engine, *device, *bp;
    uint64_t servers;
    int ret;

    if ((ret = pt_json_get_str(doc, "trace", &trace, ctx, err)) < 0 ||
        (ret = pt_json_get_u64(doc, "distinct_keys", &res->distinct_keys, ctx,
                               err)) < 0 ||
        (ret = get_obj(doc, "config", &cfg, ctx, err)) < 0 ||
        (ret = names_from_json(res, cfg, ctx, err)) < 0 ||
        (ret = pt_json_get_u64(cfg, "offload_entries", &res->offload_entries,
                               ctx, err)) < 0 ||
        (ret = pt_json_get_u64(cfg, "servers", &servers, ctx, err)) < 0)
        return ret;
    if (servers < 1 || servers > SIM_MAX_SERVERS)
        return err_set(err, PT_EDATA, "%s: 'servers' is out of range", ctx);
    res->servers = (unsigned)servers;
    if (!(res->trace = pt_strdup(trace)))
        return err_set(err, PT_EINTERNAL, "out of memory");
    res->has_db = json_object_get(cfg, "engine") != NULL;
    if (!res->has_db)
        return 0;
    if ((ret = pt_json_get_str(cfg, "engine", &engine, ctx, err)) < 0 ||
        (ret = pt_json_get_str(cfg, "device", &device, ctx, err)) < 0 ||
        (ret = pt_json_get_str(cfg, "bufferpool_policy", &bp, ctx, err)) < 0)
        return ret;
    snprintf(res->bp_policy, sizeof(res->bp_policy), "%s", bp);
    res->engine = pt_strdup(engine);
    res->device = pt_strdup(device);
    if (!res->engine || !res->device)
        return err_set(err, PT_EINTERNAL, "out of memory");
    return 0;
}

static int comparison_from_json(struct sim_plan_result *res, const json_t *c,
                                const char *ctx, struct pt_err *err)
{
    const char *knob;
    int ret;

    if ((ret = pt_json_get_str(c, "knob", &knob, ctx, err)) < 0 ||
        (ret = pt_json_get_num(c, "current", &res->knob_current, ctx, err)) <
            0 ||
        (ret = pt_json_get_num(c, "recommended", &res->knob_recommended, ctx,
                               err)) < 0)
        return ret;
    res->comparison = 1;
    snprintf(res->knob, sizeof(res->knob), "%s", knob);
    return 0;
}

static int rows_from_json(struct sim_plan_result *res, const json_t *doc,
                          const char *ctx, struct pt_err *err)
{
    const json_t *rows = json_object_get(doc, "results"), *r;
    size_t i;
    int ret;

    if (!json_is_array(rows))
        return err_set(err, PT_EDATA, "%s: 'results' must be an array", ctx);
    res->rows = pt_calloc(json_array_size(rows) + 1, sizeof(*res->rows));
    if (!res->rows)
        return err_set(err, PT_EINTERNAL, "out of memory");
    json_array_foreach(rows, i, r)
    {
        if ((ret = row_from_json(&res->rows[i], r, ctx, err)) < 0)
            return ret;
        res->n_rows = i + 1;
    }
    return 0;
}

static int curves_from_json(struct sim_plan_result *res, const json_t *doc,
                            const char *ctx, struct pt_err *err)
{
    const json_t *mrc = json_object_get(doc, "mrc"), *c;
    size_t i;
    int ret;

    if (!mrc)
        return 0;
    if (!json_is_array(mrc) || json_array_size(mrc) > SIM_MAX_TIERS)
        return err_set(err, PT_EDATA,
                       "%s: 'mrc' must be an array of up to %d curves", ctx,
                       SIM_MAX_TIERS);
    res->has_mrc = 1;
    json_array_foreach(mrc, i, c)
    {
        if ((ret = curve_from_json(&res->curves[i], c, ctx, err)) < 0)
            return ret;
        res->n_curves = i + 1;
    }
    return 0;
}

int sim_plan_result_from_json(struct sim_plan_result *res, const json_t *doc,
                              const char *ctx, struct pt_err *err)
{
    const json_t *cmp;
    uint64_t version;
    int ret;

    memset(res, 0, sizeof(*res));
    if (!json_is_object(doc))
        return err_set(err, PT_EDATA, "%s: not a JSON object", ctx);
    if ((ret = pt_json_get_u64(doc, "schema_version", &version, ctx, err)) < 0)
        return ret;
    if (version != 1)
        return err_set(err, PT_EDATA, "%s: schema_version %llu is not 1", ctx,
                       (unsigned long long)version);
    cmp = json_object_get(doc, "comparison");
    if (cmp && !json_is_object(cmp))
        return err_set(err, PT_EDATA, "%s: 'comparison' must be an object",
                       ctx);
    if ((ret = cmp ? comparison_from_json(res, cmp, ctx, err)
                   : config_from_json(res, doc, ctx, err)) < 0 ||
        (ret = rows_from_json(res, doc, ctx, err)) < 0)
        return ret;
    return curves_from_json(res, doc, ctx, err);
}
