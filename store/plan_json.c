/* SPDX-License-Identifier: Apache-2.0 */
/*
 * plan_json.c — replay.json, the document of a struct store_plan_result
 * (plan.c): its one writer and its one reader. One object per page size
 * with throughput, latency percentiles (all operations and by operation),
 * page-cache counters, the measured space and the placement of the sets;
 * pagetune-replay(1) lists the fields.
 */
#include <math.h>
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

/* Set / append a new reference; -1 (and the value released) when either
 * side is NULL or jansson runs out of memory, so a document missing a
 * field is never returned. */
static int put(json_t *o, const char *key, json_t *v)
{
    return json_object_set_new(o, key, v) == 0 ? 0 : 1;
}

static int append(json_t *arr, json_t *v)
{
    return json_array_append_new(arr, v) == 0 ? 0 : 1;
}

static int space_json(json_t *o, const struct store_space *sp)
{
    int bad = 0;

    bad |= put(o, "overflow_pages", u64_json(sp->overflow_pages));
    bad |= put(o, "leaf_pages", u64_json(sp->leaf_pages));
    bad |= put(o, "db_bytes", u64_json(sp->db_bytes));
    bad |= put(o, "wal_bytes", u64_json(sp->wal_bytes));
    bad |= put(o, "lob_bytes", u64_json(sp->lob_bytes));
    bad |= put(o, "lob_records", u64_json(sp->lob_records));
    return bad;
}

static json_t *result_json(const struct store_replay_result *r,
                           const char *store_path)
{
    json_t *o = json_object(), *byop = json_object();
    int bad = 0;

    bad |= put(o, "page_size", json_integer(r->page_size_bytes));
    bad |= put(o, "ops", u64_json(r->ops));
    bad |= put(o, "ops_per_s", json_real(r->ops_per_s));
    bad |= put(o, "elapsed_s", json_real(r->elapsed_s));
    bad |= put(o, "latency_us", latency_json(&r->latency[STORE_OP_ALL]));
    for (int op = 0; op < STORE_OP_ALL; op++)
        bad |= put(byop, op_names[op], latency_json(&r->latency[op]));
    bad |= put(o, "latency_by_op_us", byop);
    bad |= put(o, "lob_io", json_string(store_lob_io_name(r->lob_io)));
    if (r->lob_io_fallback)
        bad |= put(o, "lob_io_fallback", json_true());
    bad |= put(o, "cache_hit_ratio", json_real(r->cache_hit_ratio));
    bad |= put(o, "cache_hits", u64_json(r->cache_hits));
    bad |= put(o, "cache_misses", u64_json(r->cache_misses));
    bad |= space_json(o, &r->space);
    bad |=
        put(o, "placement",
            json_pack("{s:I,s:I,s:I}", col_names[0], (json_int_t)r->placed[0],
                      col_names[1], (json_int_t)r->placed[1], col_names[2],
                      (json_int_t)r->placed[2]));
    bad |= put(o, "warmup_sessions", u64_json(r->warmup_sessions));
    bad |= put(o, "gets_found", u64_json(r->gets_found));
    bad |= put(o, "busy_retries", u64_json(r->busy_retries));
    bad |= put(o, "clients", json_integer(r->n_clients));
    bad |= put(o, "cache_bytes", u64_json(r->cache_bytes));
    bad |= put(o, "requests", u64_json(r->requests));
    bad |= put(o, "requests_per_s", json_real(r->requests_per_s));
    bad |= put(o, "response_us", latency_json(&r->response));
    bad |= put(o, "think_ms", json_integer(r->think_ms));
    json_t *rounds = json_array();
    for (unsigned k = 0; k < r->n_rounds && k < STORE_MAX_ROUNDS; k++)
        bad |= append(rounds, json_real(r->round_rps[k]));
    bad |= put(o, "rounds_rps", rounds);
    bad |= put(o, "vs_first",
               json_pack("{s:f,s:f,s:f}", "mean", r->diff_mean, "lo",
                         r->diff_lo, "hi", r->diff_hi));
    /* the same in percent, its unit in the name (vs_first, fractions,
       stays for readers of schema 1) */
    bad |= put(o, "vs_first_pct",
               json_pack("{s:f,s:f,s:f,s:f}", "mean", 100 * r->diff_mean, "lo",
                         100 * r->diff_lo, "hi", 100 * r->diff_hi, "half_width",
                         50 * (r->diff_hi - r->diff_lo)));
    /* the range's high end is unbounded (infinite) when the probe's
       intervals reach 0 (store/model.c): JSON has no infinity, null says
       it (pagetune-replay(1)) */
    if (r->has_pred)
        bad |=
            put(o, "predicted",
                json_pack("{s:f,s:f,s:o,s:f}", "requests_per_s", r->pred_rps,
                          "lo", r->pred_rps_lo, "hi",
                          isfinite(r->pred_rps_hi) ? json_real(r->pred_rps_hi)
                                                   : json_null(),
                          "response_ms", r->pred_response_ms));
    if (store_path)
        bad |= put(o, "store", json_string(store_path));
    if (bad) {
        json_decref(o);
        return NULL;
    }
    return o;
}

json_t *store_plan_result_to_json(const struct store_plan_result *res)
{
    json_t *doc = json_object(), *arr = json_array();
    int bad = 0;

    if (!doc || !arr) {
        json_decref(doc);
        json_decref(arr);
        return NULL;
    }
    bad |= put(doc, "schema_version", json_integer(1));
    bad |= put(doc, "pagetune_version", json_string(PT_VERSION));
    bad |= put(doc, "trace", json_string(res->trace ? res->trace : "-"));
    bad |= put(doc, "engine", json_string(res->engine ? res->engine : ""));
    bad |= put(doc, "cache_bytes", u64_json(res->cache_bytes));
    bad |= put(doc, "clients", json_integer(res->n_clients));
    bad |= put(doc, "sync", json_string(store_sync_name(res->sync)));
    bad |= put(doc, "lob_io", json_string(store_lob_io_name(res->lob_io)));
    bad |= put(doc, "think_ms", json_integer(res->think_ms));
    bad |= put(doc, "warmup_rounds", json_integer(res->warmup_rounds));
    bad |= put(doc, "rounds", json_integer(res->n_rounds));
    bad |= put(doc, "budget_s", json_real(res->budget_s));
    bad |= put(doc, "tight_rel", json_real(res->tight_rel));
    bad |= put(doc, "stopped", json_string(res->stopped));
    bad |= put(doc, "trials", json_integer(res->trials ? res->trials : 1));
    bad |= put(doc, "elapsed_s", json_real(res->elapsed_s));
    for (size_t i = 0; i < res->n_results; i++)
        bad |= append(arr, result_json(&res->results[i], res->store_paths[i]));
    bad |= put(doc, "results", arr);
    if (bad) {
        json_decref(doc);
        return NULL;
    }
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
        (ret = pt_json_opt_u64(o, "lob_bytes", &sp->lob_bytes, ctx, err)) < 0 ||
        (ret = pt_json_opt_u64(o, "lob_records", &sp->lob_records, ctx, err)) <
            0 ||
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

/* The request-level fields (absent in documents from before them). */
static int requests_from_json(struct store_replay_result *r, const json_t *o,
                              const char *ctx, struct pt_err *err)
{
    const json_t *l = json_object_get(o, "response_us");
    const json_t *rounds = json_object_get(o, "rounds_rps");
    const json_t *d = json_object_get(o, "vs_first"), *x;
    uint64_t v = 0;
    size_t k;
    int ret;

    if ((ret = pt_json_opt_u64(o, "requests", &r->requests, ctx, err)) < 0 ||
        (ret = pt_json_opt_num(o, "requests_per_s", &r->requests_per_s, ctx,
                               err)) < 0 ||
        (ret = pt_json_opt_u64(o, "think_ms", &v, ctx, err)) < 0)
        return ret;
    if (v > UINT32_MAX)
        return err_set(err, PT_EDATA, "%s: 'think_ms' is out of range", ctx);
    r->think_ms = (uint32_t)v;
    if (l && (ret = latency_from_json(&r->response, l, ctx, err)) < 0)
        return ret;
    if (rounds) {
        if (!json_is_array(rounds) ||
            json_array_size(rounds) > STORE_MAX_ROUNDS)
            return err_set(err, PT_EDATA,
                           "%s: 'rounds_rps' must be an array of up to %d "
                           "numbers",
                           ctx, STORE_MAX_ROUNDS);
        json_array_foreach(rounds, k, x)
        {
            if (!json_is_number(x))
                return err_set(err, PT_EDATA,
                               "%s: 'rounds_rps' must hold numbers", ctx);
            r->round_rps[k] = json_number_value(x);
        }
        r->n_rounds = (unsigned)json_array_size(rounds);
    }
    x = json_object_get(o, "predicted");
    if (x) {
        if (!json_is_object(x))
            return err_set(err, PT_EDATA, "%s: 'predicted' must be an object",
                           ctx);
        if ((ret = pt_json_get_num(x, "requests_per_s", &r->pred_rps, ctx,
                                   err)) < 0 ||
            (ret = pt_json_get_num(x, "lo", &r->pred_rps_lo, ctx, err)) < 0 ||
            (!json_is_null(json_object_get(x, "hi")) &&
             (ret = pt_json_get_num(x, "hi", &r->pred_rps_hi, ctx, err)) < 0) ||
            (ret = pt_json_get_num(x, "response_ms", &r->pred_response_ms, ctx,
                                   err)) < 0)
            return ret;
        if (json_is_null(json_object_get(x, "hi")))
            r->pred_rps_hi = INFINITY; /* unbounded, as written */
        r->has_pred = 1;
    }
    if (d) {
        if (!json_is_object(d))
            return err_set(err, PT_EDATA, "%s: 'vs_first' must be an object",
                           ctx);
        if ((ret = pt_json_get_num(d, "mean", &r->diff_mean, ctx, err)) < 0 ||
            (ret = pt_json_get_num(d, "lo", &r->diff_lo, ctx, err)) < 0 ||
            (ret = pt_json_get_num(d, "hi", &r->diff_hi, ctx, err)) < 0)
            return ret;
    }
    return 0;
}

static int result_from_json(struct store_plan_result *res, size_t i,
                            const json_t *o, const char *ctx,
                            struct pt_err *err)
{
    struct store_replay_result *r = &res->results[i];
    const char *store = NULL, *io = NULL;
    uint64_t v;
    int ret, iov;

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
        (ret = pt_json_opt_str(o, "store", &store, ctx, err)) < 0 ||
        (ret = pt_json_opt_str(o, "lob_io", &io, ctx, err)) < 0)
        return ret;
    if ((ret = requests_from_json(r, o, ctx, err)) < 0)
        return ret;
    /* per page size since advise replays each with its own caching
     * clause; absent in older documents: the head's */
    if (io && (iov = store_lob_io_parse(io)) < 0)
        return err_set(err, PT_EDATA, "%s: unknown lob_io '%s'", ctx, io);
    r->lob_io = io ? (enum store_lob_io)iov : res->lob_io;
    r->lob_io_fallback = json_is_true(json_object_get(o, "lob_io_fallback"));
    r->page_size_bytes = (uint32_t)v;
    r->space.page_size_bytes = (uint32_t)v;
    if (store && !(res->store_paths[i] = pt_strdup(store)))
        return err_set(err, PT_EINTERNAL, "out of memory");
    return 0;
}

/* The measurement fields of the head (absent in older documents). */
static int head_rounds_from_json(struct store_plan_result *res,
                                 const json_t *doc, const char *ctx,
                                 struct pt_err *err)
{
    const char *io = NULL, *stopped = NULL;
    uint64_t think = 0, warm = 0, rounds = 0, trials = 1;
    int ret, v;

    if ((ret = pt_json_opt_str(doc, "lob_io", &io, ctx, err)) < 0 ||
        (ret = pt_json_opt_u64(doc, "think_ms", &think, ctx, err)) < 0 ||
        (ret = pt_json_opt_u64(doc, "warmup_rounds", &warm, ctx, err)) < 0 ||
        (ret = pt_json_opt_u64(doc, "rounds", &rounds, ctx, err)) < 0 ||
        (ret = pt_json_opt_num(doc, "budget_s", &res->budget_s, ctx, err)) <
            0 ||
        (ret = pt_json_opt_num(doc, "tight_rel", &res->tight_rel, ctx, err)) <
            0 ||
        (ret = pt_json_opt_num(doc, "elapsed_s", &res->elapsed_s, ctx, err)) <
            0 ||
        (ret = pt_json_opt_str(doc, "stopped", &stopped, ctx, err)) < 0 ||
        (ret = pt_json_opt_u64(doc, "trials", &trials, ctx, err)) < 0)
        return ret;
    if (trials > STORE_MAX_TRIALS)
        return err_set(err, PT_EDATA, "%s: 'trials' is out of range", ctx);
    res->trials = (unsigned)trials;
    if (think > UINT32_MAX || warm > 1000 || rounds > STORE_MAX_ROUNDS)
        return err_set(err, PT_EDATA,
                       "%s: 'think_ms', 'warmup_rounds' or 'rounds' is out "
                       "of range",
                       ctx);
    if (io && (v = store_lob_io_parse(io)) < 0)
        return err_set(err, PT_EDATA, "%s: unknown lob_io '%s'", ctx, io);
    res->lob_io = io ? (enum store_lob_io)v : STORE_LOB_CACHED;
    res->think_ms = (uint32_t)think;
    res->warmup_rounds = (unsigned)warm;
    res->n_rounds = (unsigned)rounds;
    if (stopped && *stopped && strcmp(stopped, "rounds") != 0 &&
        strcmp(stopped, "tight") != 0 && strcmp(stopped, "budget") != 0)
        return err_set(err, PT_EDATA, "%s: unknown 'stopped' '%.32s'", ctx,
                       stopped);
    if (stopped)
        snprintf(res->stopped, sizeof(res->stopped), "%s", stopped);
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
    if ((ret = head_rounds_from_json(res, doc, ctx, err)) < 0)
        return ret;
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
