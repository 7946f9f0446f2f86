/* SPDX-License-Identifier: Apache-2.0 */
/*
 * plan_json.c — replay.json, the document of a struct store_plan_result
 * (plan.c): its one writer and its one reader. One object per page size
 * with throughput, latency percentiles (all operations and by operation),
 * page-cache counters, the measured space and the placement of the sets;
 * pagetune-replay(1) lists the fields.
 */
#include <string.h>

#include "store/store.h"

static const char *const op_names[] = {"get", "set", "del"};
static const char *const col_names[] = {"SMALL", "MEDIUM", "LARGE"};

/* ---- writer ------------------------------------------------------------- */

static json_t *latency_json(const struct store_latency *l)
{
    return json_pack("{s:I,s:f,s:f,s:f,s:f,s:f}", "count", (json_int_t)l->count,
                     "p50", l->p50_us, "p95", l->p95_us, "p99", l->p99_us,
                     "max", l->max_us, "mean", l->mean_us);
}

static json_t *u64_json(uint64_t v)
{
    return json_integer((json_int_t)v);
}

static void space_json(json_t *o, const struct store_space *sp)
{
    json_object_set_new(o, "overflow_pages", u64_json(sp->overflow_pages));
    json_object_set_new(o, "leaf_pages", u64_json(sp->leaf_pages));
    json_object_set_new(o, "db_bytes", u64_json(sp->db_bytes));
    json_object_set_new(o, "wal_bytes", u64_json(sp->wal_bytes));
}

static json_t *result_json(const struct store_replay_result *r,
                           const char *store_path)
{
    json_t *o = json_object(), *byop = json_object();

    json_object_set_new(o, "page_size", json_integer(r->page_size_bytes));
    json_object_set_new(o, "ops", u64_json(r->ops));
    json_object_set_new(o, "ops_per_s", json_real(r->ops_per_s));
    json_object_set_new(o, "elapsed_s", json_real(r->elapsed_s));
    json_object_set_new(o, "latency_us",
                        latency_json(&r->latency[STORE_OP_ALL]));
    for (int op = 0; op < STORE_OP_ALL; op++)
        json_object_set_new(byop, op_names[op], latency_json(&r->latency[op]));
    json_object_set_new(o, "latency_by_op_us", byop);
    json_object_set_new(o, "cache_hit_ratio", json_real(r->cache_hit_ratio));
    json_object_set_new(o, "cache_hits", u64_json(r->cache_hits));
    json_object_set_new(o, "cache_misses", u64_json(r->cache_misses));
    space_json(o, &r->space);
    json_object_set_new(o, "placement",
                        json_pack("{s:I,s:I,s:I}", col_names[0],
                                  (json_int_t)r->placed[0], col_names[1],
                                  (json_int_t)r->placed[1], col_names[2],
                                  (json_int_t)r->placed[2]));
    json_object_set_new(o, "warmup_sessions", u64_json(r->warmup_sessions));
    json_object_set_new(o, "gets_found", u64_json(r->gets_found));
    json_object_set_new(o, "busy_retries", u64_json(r->busy_retries));
    json_object_set_new(o, "clients", json_integer(r->n_clients));
    json_object_set_new(o, "cache_bytes", u64_json(r->cache_bytes));
    if (store_path)
        json_object_set_new(o, "store", json_string(store_path));
    return o;
}

json_t *store_plan_result_to_json(const struct store_plan_result *res)
{
    json_t *doc = json_object(), *arr = json_array();

    if (!doc || !arr) {
        json_decref(doc);
        json_decref(arr);
        return NULL;
    }
    json_object_set_new(doc, "schema_version", json_integer(1));
    json_object_set_new(doc, "pagetune_version", json_string(PT_VERSION));
    json_object_set_new(doc, "trace",
                        json_string(res->trace ? res->trace : "-"));
    json_object_set_new(doc, "engine",
                        json_string(res->engine ? res->engine : ""));
    json_object_set_new(doc, "cache_bytes", u64_json(res->cache_bytes));
    json_object_set_new(doc, "clients", json_integer(res->n_clients));
    json_object_set_new(doc, "sync", json_string(store_sync_name(res->sync)));
    for (size_t i = 0; i < res->n_results; i++)
        json_array_append_new(
            arr, result_json(&res->results[i], res->store_paths[i]));
    json_object_set_new(doc, "results", arr);
    return doc;
}

/* ---- reader ------------------------------------------------------------- */

static int get_obj(const json_t *o, const char *key, const json_t **out,
                   const char *ctx, struct pt_err *err)
{
    *out = json_object_get(o, key);
    if (!json_is_object(*out))
        return err_set(err, PT_EDATA, "%s: '%s' must be an object", ctx, key);
    return 0;
}

static int get_uint(const json_t *o, const char *key, uint64_t max,
                    uint64_t *out, const char *ctx, struct pt_err *err)
{
    int ret = pt_json_get_u64(o, key, out, ctx, err);

    if (ret < 0)
        return ret;
    if (*out > max)
        return err_set(err, PT_EDATA, "%s: '%s' is out of range", ctx, key);
    return 0;
}

static int latency_from_json(struct store_latency *l, const json_t *o,
                             const char *ctx, struct pt_err *err)
{
    int ret;

    if ((ret = pt_json_get_u64(o, "count", &l->count, ctx, err)) < 0 ||
        (ret = pt_json_get_num(o, "p50", &l->p50_us, ctx, err)) < 0 ||
        (ret = pt_json_get_num(o, "p95", &l->p95_us, ctx, err)) < 0 ||
        (ret = pt_json_get_num(o, "p99", &l->p99_us, ctx, err)) < 0 ||
        (ret = pt_json_get_num(o, "max", &l->max_us, ctx, err)) < 0)
        return ret;
    return pt_json_get_num(o, "mean", &l->mean_us, ctx, err);
}

static int latencies_from_json(struct store_replay_result *r, const json_t *o,
                               const char *ctx, struct pt_err *err)
{
    const json_t *all, *byop, *l;
    int ret;

    if ((ret = get_obj(o, "latency_us", &all, ctx, err)) < 0 ||
        (ret = latency_from_json(&r->latency[STORE_OP_ALL], all, ctx, err)) <
            0 ||
        (ret = get_obj(o, "latency_by_op_us", &byop, ctx, err)) < 0)
        return ret;
    for (int op = 0; op < STORE_OP_ALL; op++)
        if ((ret = get_obj(byop, op_names[op], &l, ctx, err)) < 0 ||
            (ret = latency_from_json(&r->latency[op], l, ctx, err)) < 0)
            return ret;
    return 0;
}

static int counters_from_json(struct store_replay_result *r, const json_t *o,
                              const char *ctx, struct pt_err *err)
{
    struct store_space *sp = &r->space;
    const json_t *pl;
    uint64_t v;
    int ret;

    if ((ret = pt_json_get_u64(o, "cache_hits", &r->cache_hits, ctx, err)) <
            0 ||
        (ret = pt_json_get_u64(o, "cache_misses", &r->cache_misses, ctx, err)) <
            0 ||
        (ret = pt_json_get_u64(o, "overflow_pages", &sp->overflow_pages, ctx,
                               err)) < 0 ||
        (ret = pt_json_get_u64(o, "leaf_pages", &sp->leaf_pages, ctx, err)) <
            0 ||
        (ret = pt_json_get_u64(o, "db_bytes", &sp->db_bytes, ctx, err)) < 0 ||
        (ret = pt_json_get_u64(o, "wal_bytes", &sp->wal_bytes, ctx, err)) < 0 ||
        (ret = get_obj(o, "placement", &pl, ctx, err)) < 0)
        return ret;
    for (int c = 0; c < 3; c++)
        if ((ret = pt_json_get_u64(pl, col_names[c], &r->placed[c], ctx, err)) <
            0)
            return ret;
    if ((ret = pt_json_get_u64(o, "warmup_sessions", &r->warmup_sessions, ctx,
                               err)) < 0 ||
        (ret = pt_json_get_u64(o, "gets_found", &r->gets_found, ctx, err)) <
            0 ||
        (ret = pt_json_get_u64(o, "busy_retries", &r->busy_retries, ctx, err)) <
            0 ||
        (ret = get_uint(o, "clients", 256, &v, ctx, err)) < 0)
        return ret;
    r->n_clients = (unsigned)v;
    return pt_json_get_u64(o, "cache_bytes", &r->cache_bytes, ctx, err);
}

static int result_from_json(struct store_plan_result *res, size_t i,
                            const json_t *o, const char *ctx,
                            struct pt_err *err)
{
    struct store_replay_result *r = &res->results[i];
    const char *store = NULL;
    uint64_t v;
    int ret;

    if (!json_is_object(o))
        return err_set(err, PT_EDATA, "%s: 'results' must hold objects", ctx);
    if ((ret = get_uint(o, "page_size", 65536, &v, ctx, err)) < 0 ||
        (ret = pt_json_get_u64(o, "ops", &r->ops, ctx, err)) < 0 ||
        (ret = pt_json_get_num(o, "ops_per_s", &r->ops_per_s, ctx, err)) < 0 ||
        (ret = pt_json_get_num(o, "elapsed_s", &r->elapsed_s, ctx, err)) < 0 ||
        (ret = latencies_from_json(r, o, ctx, err)) < 0 ||
        (ret = pt_json_get_num(o, "cache_hit_ratio", &r->cache_hit_ratio, ctx,
                               err)) < 0 ||
        (ret = counters_from_json(r, o, ctx, err)) < 0 ||
        (ret = pt_json_opt_str(o, "store", &store, ctx, err)) < 0)
        return ret;
    r->page_size_bytes = (uint32_t)v;
    r->space.page_size_bytes = (uint32_t)v;
    if (store && !(res->store_paths[i] = pt_strdup(store)))
        return err_set(err, PT_EINTERNAL, "out of memory");
    return 0;
}

static int head_from_json(struct store_plan_result *res, const json_t *doc,
                          const char *ctx, struct pt_err *err)
{
    const char *trace, *engine, *sync;
    uint64_t v;
    int ret, s;

    if ((ret = pt_json_get_u64(doc, "schema_version", &v, ctx, err)) < 0)
        return ret;
    if (v != 1)
        return err_set(err, PT_EDATA, "%s: schema_version %llu is not 1", ctx,
                       (unsigned long long)v);
    if ((ret = pt_json_get_str(doc, "trace", &trace, ctx, err)) < 0 ||
        (ret = pt_json_get_str(doc, "engine", &engine, ctx, err)) < 0 ||
        (ret = pt_json_get_u64(doc, "cache_bytes", &res->cache_bytes, ctx,
                               err)) < 0 ||
        (ret = get_uint(doc, "clients", 256, &v, ctx, err)) < 0 ||
        (ret = pt_json_get_str(doc, "sync", &sync, ctx, err)) < 0)
        return ret;
    if ((s = store_sync_parse(sync)) < 0)
        return err_set(err, PT_EDATA, "%s: unknown sync '%s'", ctx, sync);
    res->sync = (enum store_sync)s;
    res->n_clients = (unsigned)v;
    res->trace = pt_strdup(trace);
    res->engine = pt_strdup(engine);
    if (!res->trace || !res->engine)
        return err_set(err, PT_EINTERNAL, "out of memory");
    return 0;
}

int store_plan_result_from_json(struct store_plan_result *res,
                                const json_t *doc, const char *ctx,
                                struct pt_err *err)
{
    const json_t *arr, *r;
    size_t i;
    int ret;

    memset(res, 0, sizeof(*res));
    if (!json_is_object(doc))
        return err_set(err, PT_EDATA, "%s: not a JSON object", ctx);
    if ((ret = head_from_json(res, doc, ctx, err)) < 0)
        return ret;
    arr = json_object_get(doc, "results");
    if (!json_is_array(arr) || json_array_size(arr) > STORE_MAX_PAGE_SIZES)
        return err_set(err, PT_EDATA,
                       "%s: 'results' must be an array of up to %d page sizes",
                       ctx, STORE_MAX_PAGE_SIZES);
    json_array_foreach(arr, i, r)
    {
        if ((ret = result_from_json(res, i, r, ctx, err)) < 0)
            return ret;
        res->n_results = i + 1;
    }
    return 0;
}
