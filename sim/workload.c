/* SPDX-License-Identifier: Apache-2.0 */
/*
 * workload.c — the workload generator behind `pagetune workload`: reads a
 * workload profile (a YAML file in profiles/workloads/, already parsed into a
 * jansson tree by core's prof_load) and produces an endless, reproducible
 * stream of requests that cli/cmd_workload.c writes as a trace.
 *
 * Two shapes of workload:
 *  - a fixed key population (cached data objects, Trade-like): each
 *    request picks a key by popularity (Zipf α over ranks, the ranks
 *    scattered over the key ids by a fixed bijection, or uniform) and an
 *    operation from the get/set/del mix;
 *  - HTTP sessions (the founding article's stress clients): `concurrent`
 *    clients each hold one live session; a request goes to a uniformly
 *    chosen client. A client's session is created with a set, then gets a
 *    geometric number of requests (mean requests_per_session; get/set/del
 *    per the mix, a del being an explicit invalidate()); when it ends the
 *    client starts a new one, so sessions arrive at rate_per_s /
 *    requests_per_session, and the finished session, now idle, is
 *    invalidated by WebSphere timeout_s later — a del at that time.
 * Object sizes are fixed, lognormal (median, sigma, clamped to [min, max])
 * or empirical (drawn from a list of observed sizes); a key keeps its size
 * for its life (drawn from a hash of the key and the seed, so the size does
 * not depend on the order of generation).
 */
#include "sim/sim_int.h"

#include <errno.h>
#include <math.h>
#include <strings.h>

/* ---- profile --------------------------------------------------------- */

static int get_obj(const json_t *prof, const char *key, const json_t **out,
                   const char *ctx, struct pt_err *err)
{
    const json_t *v = json_object_get(prof, key);

    *out = NULL;
    if (!v)
        return 0;
    if (!json_is_object(v))
        return err_set(err, PT_EDATA, "%s: '%s' must be a mapping", ctx, key);
    *out = v;
    return 0;
}

/*
 * size.counts (optional, beside size.values): how many objects have each
 * value, as a sizes histogram gives them; kept as running sums so a draw
 * is one binary search (size_of) and a histogram never becomes a list.
 */
static int read_size_counts(struct sim_workload *w, const json_t *counts,
                            const char *ctx, struct pt_err *err)
{
    const json_t *x;
    uint64_t sum = 0;
    size_t i;

    if (!counts)
        return 0;
    if (!json_is_array(counts) || json_array_size(counts) != w->n_sizes)
        return err_set(err, PT_EDATA,
                       "%s: size.counts must be a list as long as "
                       "size.values",
                       ctx);
    w->size_cum = pt_malloc(w->n_sizes * sizeof(*w->size_cum));
    if (!w->size_cum)
        return err_set(err, PT_EINTERNAL, "out of memory");
    json_array_foreach(counts, i, x)
    {
        json_int_t c = json_is_integer(x) ? json_integer_value(x) : -1;
        if (c < 0 || (uint64_t)c > REC_MAX_OBJECTS - sum)
            return err_set(err, PT_EDATA,
                           "%s: size.counts[%zu] is not a count in 0..%llu",
                           ctx, i, (unsigned long long)REC_MAX_OBJECTS);
        sum += (uint64_t)c;
        w->size_cum[i] = sum;
    }
    if (sum == 0)
        return err_set(err, PT_EDATA, "%s: size.counts are all 0", ctx);
    return 0;
}

static int parse_size(struct sim_workload *w, const json_t *sz, const char *ctx,
                      struct pt_err *err)
{
    const char *dist = "fixed";
    double v;
    int rc;

    if (!sz)
        return err_set(err, PT_EDATA, "%s: missing 'size'", ctx);
    if ((rc = pt_json_opt_str(sz, "dist", &dist, ctx, err)))
        return rc;
    if (strcasecmp(dist, "fixed") == 0) {
        w->size_dist = SIM_SIZE_FIXED;
        if ((rc = pt_json_get_num(sz, "bytes", &v, ctx, err)))
            return rc;
        if (!(v >= 0 && v <= 2147483647.0))
            return err_set(err, PT_EDATA, "%s: size.bytes out of range", ctx);
        w->size_bytes = (uint32_t)v;
    } else if (strcasecmp(dist, "lognormal") == 0) {
        w->size_dist = SIM_SIZE_LOGNORMAL;
        w->size_min = 1;
        w->size_max = 2097152;
        if ((rc = pt_json_get_num(sz, "median", &w->size_median, ctx, err)) ||
            (rc = pt_json_get_num(sz, "sigma", &w->size_sigma, ctx, err)))
            return rc;
        if (!(w->size_median > 0) || !(w->size_sigma >= 0) ||
            w->size_sigma > 10)
            return err_set(err, PT_EDATA,
                           "%s: size.median must be > 0 and size.sigma in "
                           "[0, 10]",
                           ctx);
        if ((rc = pt_json_opt_num(sz, "min", &v, ctx, err)))
            return rc;
        if (json_object_get(sz, "min"))
            w->size_min = (uint32_t)(v < 0 ? 0 : v > 2147483647.0 ? 0 : v);
        if ((rc = pt_json_opt_num(sz, "max", &v, ctx, err)))
            return rc;
        if (json_object_get(sz, "max")) {
            if (!(v >= 1 && v <= 2147483647.0))
                return err_set(err, PT_EDATA, "%s: size.max out of range", ctx);
            w->size_max = (uint32_t)v;
        }
        if (w->size_min > w->size_max)
            return err_set(err, PT_EDATA, "%s: size.min > size.max", ctx);
    } else if (strcasecmp(dist, "empirical") == 0) {
        const json_t *vals = json_object_get(sz, "values"), *x;
        size_t i;
        w->size_dist = SIM_SIZE_EMPIRICAL;
        if (!json_is_array(vals) || json_array_size(vals) == 0)
            return err_set(err, PT_EDATA,
                           "%s: size.dist empirical needs 'values' (a "
                           "non-empty list) or 'file'",
                           ctx);
        w->n_sizes = json_array_size(vals);
        w->sizes = pt_malloc(w->n_sizes * sizeof(*w->sizes));
        if (!w->sizes)
            return err_set(err, PT_EINTERNAL, "out of memory");
        json_array_foreach(vals, i, x)
        {
            double d = json_number_value(x);
            if (!json_is_number(x) || !(d >= 0 && d <= 2147483647.0))
                return err_set(err, PT_EDATA,
                               "%s: size.values[%zu] is not a byte size", ctx,
                               i);
            w->sizes[i] = (uint32_t)d;
        }
        if ((rc = read_size_counts(w, json_object_get(sz, "counts"), ctx,
                                   err)) < 0)
            return rc;
    } else {
        return err_set(err, PT_EDATA,
                       "%s: size.dist '%s' is not fixed, lognormal or "
                       "empirical",
                       ctx, dist);
    }
    return 0;
}

int sim_workload_from_json(struct sim_workload *w, const json_t *prof,
                           const char *ctx, struct pt_err *err)
{
    const json_t *pop, *sz, *mix, *ses;
    const char *s;
    uint64_t u;
    double sum;
    int rc;

    memset(w, 0, sizeof(*w));
    if (!json_is_object(prof))
        return err_set(err, PT_EDATA, "%s: a workload profile is a mapping",
                       ctx);
    snprintf(w->name, sizeof(w->name), "%s", "workload");
    if ((rc = pt_json_opt_str(prof, "name", &s, ctx, err)))
        return rc;
    if (json_object_get(prof, "name"))
        snprintf(w->name, sizeof(w->name), "%s", s);
    w->requests = 100000;
    w->seed = 1;
    w->servers = 1;
    w->rate_per_s = 1000;
    w->keys = 10000;
    w->pop = SIM_POP_ZIPF;
    w->alpha = 1.0;
    w->p_get = 1.0;
    if ((rc = pt_json_opt_u64(prof, "requests", &w->requests, ctx, err)) ||
        (rc = pt_json_opt_u64(prof, "seed", &w->seed, ctx, err)) ||
        (rc = pt_json_opt_num(prof, "rate_per_s", &w->rate_per_s, ctx, err)) ||
        (rc = pt_json_opt_u64(prof, "keys", &w->keys, ctx, err)))
        return rc;
    u = w->servers;
    if ((rc = pt_json_opt_u64(prof, "servers", &u, ctx, err)))
        return rc;
    if (u < 1 || u > SIM_MAX_SERVERS)
        return err_set(err, PT_EDATA, "%s: servers must be 1..%d", ctx,
                       SIM_MAX_SERVERS);
    w->servers = (unsigned)u;
    if (!(w->rate_per_s > 0) || w->rate_per_s > 1e9)
        return err_set(err, PT_EDATA, "%s: rate_per_s must be > 0", ctx);
    if (w->keys < 1 || w->keys > 100000000)
        return err_set(err, PT_EDATA, "%s: keys must be 1..100000000", ctx);
    if ((rc = get_obj(prof, "popularity", &pop, ctx, err)) ||
        (rc = get_obj(prof, "size", &sz, ctx, err)) ||
        (rc = get_obj(prof, "mix", &mix, ctx, err)) ||
        (rc = get_obj(prof, "sessions", &ses, ctx, err)))
        return rc;
    if (pop) {
        s = "zipf";
        if ((rc = pt_json_opt_str(pop, "dist", &s, ctx, err)))
            return rc;
        if (strcasecmp(s, "zipf") == 0) {
            w->pop = SIM_POP_ZIPF;
            if ((rc = pt_json_opt_num(pop, "alpha", &w->alpha, ctx, err)))
                return rc;
            if (!(w->alpha >= 0) || w->alpha > 5)
                return err_set(err, PT_EDATA,
                               "%s: popularity.alpha must be in [0, 5]", ctx);
        } else if (strcasecmp(s, "uniform") == 0) {
            w->pop = SIM_POP_UNIFORM;
        } else {
            return err_set(err, PT_EDATA,
                           "%s: popularity.dist '%s' is not zipf or uniform",
                           ctx, s);
        }
    }
    if ((rc = parse_size(w, sz, ctx, err)))
        return rc;
    if (mix) {
        w->p_get = w->p_set = w->p_del = 0;
        if ((rc = pt_json_opt_num(mix, "get", &w->p_get, ctx, err)) ||
            (rc = pt_json_opt_num(mix, "set", &w->p_set, ctx, err)) ||
            (rc = pt_json_opt_num(mix, "del", &w->p_del, ctx, err)))
            return rc;
    }
    sum = w->p_get + w->p_set + w->p_del;
    if (!(w->p_get >= 0 && w->p_set >= 0 && w->p_del >= 0) ||
        fabs(sum - 1.0) > 1e-6)
        return err_set(err, PT_EDATA,
                       "%s: mix get + set + del must be non-negative and sum "
                       "to 1 (it sums to %g)",
                       ctx, sum);
    if (ses) {
        w->sessions = 1;
        w->timeout_s = 1800; /* WebSphere's default invalidation timeout */
        w->requests_per_session = 20;
        if ((rc = pt_json_get_u64(ses, "concurrent", &w->concurrent, ctx,
                                  err)) ||
            (rc = pt_json_opt_num(ses, "requests_per_session",
                                  &w->requests_per_session, ctx, err)) ||
            (rc = pt_json_opt_num(ses, "timeout_s", &w->timeout_s, ctx, err)))
            return rc;
        if (w->concurrent < 1 || w->concurrent > 10000000)
            return err_set(err, PT_EDATA,
                           "%s: sessions.concurrent must be 1..10000000", ctx);
        /* bounded: both become integers (request counts, ms) below */
        if (!(w->requests_per_session >= 1 && w->requests_per_session <= 1e9) ||
            !(w->timeout_s >= 0 && w->timeout_s <= 1e9))
            return err_set(err, PT_EDATA,
                           "%s: sessions.requests_per_session must be "
                           "1..1e9 and timeout_s 0..1e9",
                           ctx);
    }
    return 0;
}

void sim_workload_release(struct sim_workload *w)
{
    if (!w)
        return;
    free(w->sizes);
    free(w->size_cum);
    w->sizes = NULL;
    w->size_cum = NULL;
    w->n_sizes = 0;
}

/* ---- generator --------------------------------------------------------- */

struct live {
    uint64_t id;        /* session number */
    uint64_t remaining; /* requests left */
};

struct expiry {
    uint64_t id;
    uint64_t at_ms;
};

struct sim_wgen {
    struct sim_workload w; /* copy; sizes borrowed from the caller's */
    struct sim_rng rng;
    uint64_t seed;
    uint64_t i; /* requests emitted */
    double *cdf;
    double cdf_total;
    uint64_t mult; /* rank → key bijection */
    /* sessions */
    struct live *live;
    uint64_t n_live;    /* concurrent sessions (clients) */
    struct expiry *exp; /* ring buffer, ordered by at_ms */
    uint64_t exp_head, exp_n, exp_cap;
    uint64_t next_session;
    char key[32];
};

static uint64_t gcd64(uint64_t a, uint64_t b)
{
    while (b) {
        uint64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

int sim_wgen_new(const struct sim_workload *w, uint64_t seed,
                 struct sim_wgen **out, struct pt_err *err)
{
    struct sim_wgen *g = pt_calloc(1, sizeof(*g));
    uint64_t r;

    *out = NULL;
    if (!g)
        return err_set(err, PT_EINTERNAL, "out of memory");
    g->w = *w;
    g->seed = seed;
    g->rng.s = sim_mix64(seed ^ 0x776f726b6c6f6164ULL);
    if (!w->sessions && w->pop == SIM_POP_ZIPF) {
        double s = 0;
        g->cdf = pt_malloc(w->keys * sizeof(*g->cdf));
        if (!g->cdf) {
            free(g);
            return err_set(err, PT_EINTERNAL, "out of memory");
        }
        for (r = 0; r < w->keys; r++) {
            s += 1.0 / pow((double)(r + 1), w->alpha);
            g->cdf[r] = s;
        }
        g->cdf_total = s;
    }
    if (w->sessions) {
        g->n_live = w->concurrent;
        g->live = pt_calloc(g->n_live, sizeof(*g->live));
        if (!g->live) {
            sim_wgen_free(g);
            return err_set(err, PT_EINTERNAL, "out of memory");
        }
    }
    /* 611953 as in gen_zipf_trace.py, moved to the next coprime if needed */
    for (g->mult = 611953; gcd64(g->mult, w->keys) != 1; g->mult++)
        ;
    *out = g;
    return 0;
}

void sim_wgen_free(struct sim_wgen *g)
{
    if (!g)
        return;
    free(g->cdf);
    free(g->live);
    free(g->exp);
    free(g);
}

static uint32_t size_of(const struct sim_wgen *g, uint64_t key)
{
    const struct sim_workload *w = &g->w;
    uint64_t h =
        sim_mix64((key + 1) * 0x9e3779b97f4a7c15ULL ^ g->seed ^ 0x73697a65ULL);

    switch (w->size_dist) {
    case SIM_SIZE_FIXED:
        return w->size_bytes;
    case SIM_SIZE_EMPIRICAL: {
        uint64_t r, lo = 0, hi;
        if (!w->size_cum)
            return w->sizes[h % w->n_sizes];
        /* the first value whose running count passes r */
        r = h % w->size_cum[w->n_sizes - 1];
        hi = w->n_sizes - 1;
        while (lo < hi) {
            uint64_t mid = lo + (hi - lo) / 2;
            if (w->size_cum[mid] > r)
                hi = mid;
            else
                lo = mid + 1;
        }
        return w->sizes[lo];
    }
    default: {
        /* Box-Muller on two uniforms from the key's hash */
        double u1 = ((double)(h >> 11) + 0.5) / 9007199254740992.0;
        double u2 = (double)(sim_mix64(h) >> 11) / 9007199254740992.0;
        double z = sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2);
        double v = w->size_median * exp(w->size_sigma * z);
        if (v < w->size_min)
            v = w->size_min;
        if (v > w->size_max)
            v = w->size_max;
        return (uint32_t)(v + 0.5);
    }
    }
}

/* A WebSphere-like 23-character session id from the session number. */
static size_t session_key(struct sim_wgen *g, uint64_t id)
{
    static const char b62[] =
        "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
    uint64_t h1 = sim_mix64((id + 1) * 0x9e3779b97f4a7c15ULL ^ g->seed ^
                            0x73657373696f6eULL);
    uint64_t h2 = sim_mix64(h1 + id + 1);
    int i;

    memcpy(g->key, "0000", 4);
    for (i = 4; i < 23; i++) {
        uint64_t *h = i < 15 ? &h1 : &h2;
        g->key[i] = b62[*h % 62];
        *h /= 62;
    }
    g->key[23] = '\0';
    return 23;
}

static int push_expiry(struct sim_wgen *g, uint64_t id, uint64_t at_ms)
{
    if (g->exp_n == g->exp_cap) {
        uint64_t n = g->exp_cap ? g->exp_cap * 2 : 1024, k;
        struct expiry *e = pt_malloc(n * sizeof(*e));
        if (!e)
            return PT_EINTERNAL;
        for (k = 0; k < g->exp_n; k++)
            e[k] = g->exp[(g->exp_head + k) % g->exp_cap];
        free(g->exp);
        g->exp = e;
        g->exp_head = 0;
        g->exp_cap = n;
    }
    g->exp[(g->exp_head + g->exp_n) % g->exp_cap].id = id;
    g->exp[(g->exp_head + g->exp_n) % g->exp_cap].at_ms = at_ms;
    g->exp_n++;
    return 0;
}

static uint64_t geometric(struct sim_wgen *g, double mean)
{
    double u = sim_rng_unit(&g->rng);
    double p = 1.0 / mean;

    if (p >= 1.0)
        return 1;
    return 1 + (uint64_t)floor(log(1.0 - u) / log(1.0 - p));
}

static int next_session(struct sim_wgen *g, uint64_t now_ms,
                        struct sim_wrec *rec)
{
    const struct sim_workload *w = &g->w;
    struct live *l;
    double u;

    rec->time_ms = now_ms;
    /* invalidations due by now come first */
    if (g->exp_n && g->exp[g->exp_head].at_ms <= now_ms) {
        struct expiry *e = &g->exp[g->exp_head];
        rec->time_ms = e->at_ms;
        rec->op = SIM_DEL;
        rec->key_len = session_key(g, e->id);
        rec->size_bytes = size_of(g, e->id);
        g->exp_head = (g->exp_head + 1) % g->exp_cap;
        g->exp_n--;
        return 1;
    }
    g->i++;
    l = &g->live[sim_rng_next(&g->rng) % g->n_live];
    if (l->remaining == 0) { /* a client starts a new session */
        l->id = g->next_session++;
        l->remaining = geometric(g, w->requests_per_session);
        rec->op = SIM_SET; /* the session row is inserted */
    } else {
        u = sim_rng_unit(&g->rng);
        rec->op = u < w->p_get              ? SIM_GET
                  : u < w->p_get + w->p_set ? SIM_SET
                                            : SIM_DEL;
    }
    rec->key_len = session_key(g, l->id);
    rec->size_bytes = size_of(g, l->id);
    if (rec->op == SIM_DEL) { /* invalidate(): the session ends now */
        l->remaining = 0;
    } else if (--l->remaining == 0) {
        if (push_expiry(g, l->id, now_ms + (uint64_t)(w->timeout_s * 1000.0)))
            return PT_EINTERNAL;
    }
    return 1;
}

int sim_wgen_next(struct sim_wgen *g, struct sim_wrec *rec)
{
    const struct sim_workload *w = &g->w;
    uint64_t now_ms = (uint64_t)((double)g->i * 1000.0 / w->rate_per_s);
    uint64_t rank, key;
    double u;

    rec->key = g->key;
    if (w->sessions)
        return next_session(g, now_ms, rec);
    g->i++;
    rec->time_ms = now_ms;
    if (w->pop == SIM_POP_ZIPF) {
        uint64_t lo = 0, hi = w->keys - 1;
        u = sim_rng_unit(&g->rng) * g->cdf_total;
        while (lo < hi) {
            uint64_t mid = lo + (hi - lo) / 2;
            if (g->cdf[mid] <= u)
                lo = mid + 1;
            else
                hi = mid;
        }
        rank = lo;
    } else {
        rank = sim_rng_next(&g->rng) % w->keys;
    }
    key = (rank % w->keys * (g->mult % w->keys) + 12345) % w->keys;
    u = sim_rng_unit(&g->rng);
    rec->op = u < w->p_get              ? SIM_GET
              : u < w->p_get + w->p_set ? SIM_SET
                                        : SIM_DEL;
    rec->key_len = (size_t)snprintf(g->key, sizeof(g->key), "k%llu",
                                    (unsigned long long)key);
    rec->size_bytes = size_of(g, key);
    return 1;
}

int sim_wgen_write_csv(const struct sim_workload *w, uint64_t n, uint64_t seed,
                       FILE *fp, pt_progress_fn *progress, void *ctx,
                       struct pt_err *err)
{
    struct sim_wgen *g = NULL;
    int rc;

    if ((rc = sim_wgen_new(w, seed, &g, err)) < 0)
        return rc;
    if (fprintf(fp, "# pagetune workload %s: %llu records, seed %llu\n",
                w->name, (unsigned long long)n, (unsigned long long)seed) < 0) {
        rc = err_set(err, PT_EIO, "cannot write trace: %s", strerror(errno));
        goto out;
    }
    if ((rc = sim_trace_write_header(fp, SIM_TRACE_CSV, err)) < 0)
        goto out;
    for (uint64_t i = 0; i < n; i++) {
        struct sim_wrec q;
        if ((rc = sim_wgen_next(g, &q)) < 0) {
            rc = err_set(err, rc, "out of memory generating the workload");
            goto out;
        }
        if ((rc = sim_trace_write_csv(fp, q.time_ms, q.op, q.key, q.key_len,
                                      q.size_bytes, err)) < 0)
            goto out;
        if ((i & 0xffff) != 0)
            continue;
        if (progress)
            progress(ctx, i, n);
        if ((rc = pt_interrupt_check(err)) < 0)
            goto out;
    }
out:
    sim_wgen_free(g);
    return rc;
}
