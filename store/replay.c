/* SPDX-License-Identifier: Apache-2.0 */
/*
 * replay.c — the replay driver: load a trace once with sim's reader, create
 * a fresh store, warm it up, then replay the trace with K client threads
 * (each with its own connection) and measure throughput, latency per
 * operation type, the page cache and the store's space.
 *
 * How a replay runs:
 *   1. warm-up (not measured): every session the trace names is inserted
 *      with the first size the trace gives it, in transactions of
 *      STORE_WARMUP_BATCH rows, by a loader connection;
 *   2. each client opens its own connection, reads every session it will
 *      serve once (its page cache warms the way a running server's would),
 *      zeroes its counters and waits at a barrier;
 *   3. the clock starts; each client replays, in trace order, the requests
 *      whose key belongs to it (key_id % K): sessions are sticky to one
 *      client, as with session affinity in front of an application server,
 *      so two clients never race on one session; as fast as possible
 *      (time_ms gives LASTACCESS, it is not waited for);
 *   4. the clock stops when the last client is done; counters are summed;
 *      the loader connection checkpoints and measures the file (dbstat).
 *
 * Latency is recorded in a preallocated log-linear histogram per client and
 * operation (HdrHistogram's layout with 32 sub-buckets: ~3 % resolution),
 * merged at the end: no allocation per request.
 *
 * Neighbours: store.c (the store), sim/ (the trace reader), cli/cmd_replay.c.
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "sim/sim.h"
#include "store/store.h"

#define STORE_WARMUP_BATCH 500
/* A fixed epoch for LASTACCESS: 2026-01-01T00:00:00Z, plus the trace time. */
#define STORE_EPOCH_MS INT64_C(1767225600000)

/* ---- latency histogram -------------------------------------------------- */

#define HIST_EXACT 64u /* values below are their own bucket */
#define HIST_SUB 32u   /* sub-buckets per power of two above */
#define HIST_MAX_MSB 42u
#define HIST_N (HIST_EXACT + (HIST_MAX_MSB - 5u) * HIST_SUB)

struct hist {
    uint64_t n[HIST_N];
    uint64_t count;
    uint64_t sum_ns;
    uint64_t max_ns;
};

static unsigned hist_index(uint64_t v)
{
    unsigned msb;
    if (v < HIST_EXACT)
        return (unsigned)v;
    msb = 63u - (unsigned)__builtin_clzll(v);
    if (msb >= HIST_MAX_MSB)
        return HIST_N - 1;
    return HIST_EXACT + (msb - 6u) * HIST_SUB +
           (unsigned)((v >> (msb - 5u)) - HIST_SUB);
}

/* Middle of a bucket's range, ns. */
static double hist_value(unsigned i)
{
    unsigned k, r, shift;
    if (i < HIST_EXACT)
        return (double)i;
    k = (i - HIST_EXACT) / HIST_SUB;
    r = (i - HIST_EXACT) % HIST_SUB;
    shift = k + 1u; /* msb - 5 with msb = k + 6 */
    return (double)((uint64_t)(HIST_SUB + r) << shift) +
           (double)((uint64_t)1 << shift) / 2.0;
}

static void hist_add(struct hist *h, uint64_t ns)
{
    h->n[hist_index(ns)]++;
    h->count++;
    h->sum_ns += ns;
    if (ns > h->max_ns)
        h->max_ns = ns;
}

static void hist_merge(struct hist *dst, const struct hist *src)
{
    for (unsigned i = 0; i < HIST_N; i++)
        dst->n[i] += src->n[i];
    dst->count += src->count;
    dst->sum_ns += src->sum_ns;
    if (src->max_ns > dst->max_ns)
        dst->max_ns = src->max_ns;
}

static double hist_quantile_us(const struct hist *h, double q)
{
    uint64_t target, seen = 0;
    if (h->count == 0)
        return 0.0;
    target = (uint64_t)(q * (double)h->count);
    if ((double)target < q * (double)h->count)
        target++;
    if (target == 0)
        target = 1;
    for (unsigned i = 0; i < HIST_N; i++) {
        seen += h->n[i];
        if (seen >= target) {
            double v = hist_value(i);
            if (v > (double)h->max_ns)
                v = (double)h->max_ns;
            return v / 1000.0;
        }
    }
    return (double)h->max_ns / 1000.0;
}

static void hist_summary(const struct hist *h, struct store_latency *l)
{
    l->count = h->count;
    l->p50_us = hist_quantile_us(h, 0.50);
    l->p95_us = hist_quantile_us(h, 0.95);
    l->p99_us = hist_quantile_us(h, 0.99);
    l->max_us = (double)h->max_ns / 1000.0;
    l->mean_us = h->count ? (double)h->sum_ns / (double)h->count / 1000.0 : 0.0;
}

/* ---- the trace in memory ------------------------------------------------ */

int store_trace_load(struct store_trace *t, const char *path,
                     struct pt_err *err)
{
    return store_trace_load_as(t, path, SIM_TRACE_AUTO, err);
}

int store_trace_load_as(struct store_trace *t, const char *path, int format,
                        struct pt_err *err)
{
    struct sim_req req;
    uint64_t cap = 0;
    int ret;

    memset(t, 0, sizeof(*t));
    if ((ret = sim_trace_open(path, (enum sim_trace_format)format, &t->reader,
                              err)) < 0)
        return ret;
    while ((ret = sim_trace_next(t->reader, &req, err)) == 1) {
        if (t->n_reqs == cap) {
            uint64_t ncap = cap ? cap * 2 : 4096;
            void *p = pt_realloc(t->reqs, ncap * sizeof(*t->reqs));
            if (!p) {
                ret = err_set(err, PT_EINTERNAL,
                              "out of memory reading "
                              "trace '%s'",
                              path);
                goto fail;
            }
            t->reqs = p;
            cap = ncap;
        }
        struct store_trace_req *r = &t->reqs[t->n_reqs++];
        r->time_ms = req.time_ms;
        r->key_id = req.key_id;
        r->size_bytes = req.size_bytes;
        r->op = (uint8_t)req.op;
        if (req.op == SIM_GET)
            t->n_gets++;
        else if (req.op == SIM_SET)
            t->n_sets++;
        else
            t->n_dels++;
        if (req.size_bytes > t->max_bytes)
            t->max_bytes = req.size_bytes;
    }
    if (ret < 0)
        goto fail;
    if (t->n_reqs == 0) {
        ret = err_set(err, PT_EDATA, "trace '%s' has no requests", path);
        goto fail;
    }
    t->n_keys = sim_trace_n_keys(t->reader);
    t->first_size = pt_calloc(t->n_keys ? t->n_keys : 1, sizeof(uint64_t));
    if (!t->first_size) {
        ret = err_set(err, PT_EINTERNAL, "out of memory reading trace '%s'",
                      path);
        goto fail;
    }
    /* The warm-up size of a session: the first nonzero size named for it
     * (a get or del may carry 0). */
    for (uint64_t i = 0; i < t->n_reqs; i++) {
        const struct store_trace_req *r = &t->reqs[i];
        if (r->key_id < t->n_keys && t->first_size[r->key_id] == 0)
            t->first_size[r->key_id] = r->size_bytes;
    }
    return 0;
fail:
    store_trace_release(t);
    return ret;
}

void store_trace_release(struct store_trace *t)
{
    if (!t)
        return;
    free(t->reqs);
    free(t->first_size);
    sim_trace_close(t->reader);
    memset(t, 0, sizeof(*t));
}

/* ---- clients ------------------------------------------------------------ */

void store_replay_opts_init(struct store_replay_opts *o)
{
    memset(o, 0, sizeof(*o));
    o->n_clients = 1;
    o->max_inactive_s = 1800; /* WebSphere's default: 30 minutes */
    o->ack_fd = -1;
}

/*
 * Every write of a session stores different bytes, as a re-serialised
 * object does (an attribute that changes shifts everything after it): the
 * object is a window into one pseudo-random pattern that starts at an
 * offset taken from the request's index. Writing the same bytes again would
 * let SQLite skip its unchanged overflow pages (btreeOverwriteContent
 * compares before it writes), which no real application gets.
 */
#define REPLAY_SLIDE 4096u
static inline size_t replay_slide(uint64_t i)
{
    return (size_t)((i * 2654435761u) % REPLAY_SLIDE);
}

struct replay_shared {
    const struct store_trace *t;
    const char *db_path;
    const struct store_config *cfg;
    const struct store_replay_opts *o;
    const unsigned char *payload; /* max_bytes of filler, read-only */
    pthread_mutex_t mu;           /* the start gate: */
    pthread_cond_t cv;
    unsigned n_ready; /* clients warmed up and waiting */
    int go;           /* 1: start, -1: give up (a client failed to start) */
    atomic_uint_fast64_t done; /* requests finished, all clients */
    atomic_int stop;           /* set on error or interrupt */
};

struct replay_client {
    struct replay_shared *sh;
    unsigned id;
    pthread_t thread;
    int started;
    struct store *store;
    unsigned char *readbuf; /* max_bytes, for the objects gets read */
    struct hist hist[STORE_N_OPS - 1];
    uint64_t gets_found;
    uint64_t placed[3];
    struct store_stats stats;
    uint64_t t_start_ns, t_end_ns; /* this client's measured interval */
    int status;
    struct pt_err err;
};

/* Append "INDEX,OP,KEY,SIZE\n" to the acknowledgement log: one write(2),
 * after the commit returned, so the log never names an unacknowledged
 * write (O_APPEND keeps lines of concurrent clients whole). */
static int replay_ack(const struct replay_shared *sh, uint64_t idx,
                      const struct store_trace_req *r, struct pt_err *err)
{
    static const char *const names[] = {"get", "set", "del"};
    char line[512];
    size_t klen = 0;
    const char *key = sim_trace_key(sh->t->reader, r->key_id, &klen);
    int n = snprintf(line, sizeof(line), "%llu,%s,%.*s,%u\n",
                     (unsigned long long)idx, names[r->op],
                     (int)(klen > 400 ? 400 : klen), key, r->size_bytes);
    if (n < 0 || write(sh->o->ack_fd, line, (size_t)n) != n)
        return err_set(err, PT_EIO,
                       "cannot write the acknowledgement log: "
                       "%s",
                       strerror(errno));
    return 0;
}

static int replay_client_warm(struct replay_client *c)
{
    const struct replay_shared *sh = c->sh;
    const struct store_trace *t = sh->t;
    unsigned k = sh->o->n_clients;
    struct store_session ss;

    for (uint64_t key = c->id; key < t->n_keys; key += k) {
        size_t klen = 0;
        const char *id = sim_trace_key(t->reader, key, &klen);
        int ret = store_session_get(c->store, id, klen, &ss, c->readbuf,
                                    t->max_bytes, &c->err);
        if (ret < 0)
            return ret;
        if (atomic_load_explicit(&c->sh->stop, memory_order_relaxed))
            return PT_EINTR;
    }
    return store_stats_get(c->store, &c->stats, 1, &c->err);
}

static void *replay_client_main(void *arg)
{
    struct replay_client *c = arg;
    struct replay_shared *sh = c->sh;
    const struct store_trace *t = sh->t;
    unsigned k = sh->o->n_clients;
    struct store_session ss;
    int ret = 0;

    ret = replay_client_warm(c);
    pthread_mutex_lock(&sh->mu);
    sh->n_ready++;
    pthread_cond_broadcast(&sh->cv);
    while (sh->go == 0)
        pthread_cond_wait(&sh->cv, &sh->mu);
    if (sh->go < 0 && ret == 0)
        ret = err_set(&c->err, PT_EINTR, "replay abandoned");
    pthread_mutex_unlock(&sh->mu);
    c->t_start_ns = pt_now_ns();
    if (ret < 0)
        goto out;
    for (uint64_t i = 0; i < t->n_reqs; i++) {
        const struct store_trace_req *r = &t->reqs[i];
        if (r->key_id % k != c->id)
            continue;
        if (atomic_load_explicit(&sh->stop, memory_order_relaxed)) {
            ret = err_set(&c->err, PT_EINTR, "replay interrupted");
            goto out;
        }
        size_t klen = 0;
        const char *id = sim_trace_key(t->reader, r->key_id, &klen);
        int64_t now_ms = STORE_EPOCH_MS + (int64_t)r->time_ms;
        uint64_t t0 = pt_now_ns();
        switch (r->op) {
        case SIM_GET:
            ret = store_session_get(c->store, id, klen, &ss, c->readbuf,
                                    t->max_bytes, &c->err);
            if (ret == 1)
                c->gets_found++;
            break;
        case SIM_SET:
            ret = store_session_set(
                c->store, id, klen, sh->payload + replay_slide(i),
                r->size_bytes, now_ms, sh->o->max_inactive_s, &c->err);
            if (ret == 0)
                c->placed[store_place(sh->cfg, r->size_bytes)]++;
            break;
        default:
            ret = store_session_invalidate(c->store, id, klen, &c->err);
            break;
        }
        hist_add(&c->hist[r->op], pt_now_ns() - t0);
        if (ret < 0)
            goto out;
        if (r->op != SIM_GET && sh->o->ack_fd >= 0 &&
            (ret = replay_ack(sh, i, r, &c->err)) < 0)
            goto out;
        atomic_fetch_add_explicit(&sh->done, 1, memory_order_relaxed);
    }
    c->t_end_ns = pt_now_ns();
    ret = store_stats_get(c->store, &c->stats, 0, &c->err);
out:
    if (c->t_end_ns == 0)
        c->t_end_ns = pt_now_ns();
    c->status = ret < 0 ? ret : 0;
    if (c->status < 0)
        atomic_store(&sh->stop, 1);
    return NULL;
}

/* ---- warm-up load ------------------------------------------------------- */

static int replay_load(struct store *s, const struct store_trace *t,
                       const struct replay_shared *sh, struct pt_err *err)
{
    int ret = 0;
    for (uint64_t key = 0; key < t->n_keys; key++) {
        size_t klen = 0;
        const char *id = sim_trace_key(t->reader, key, &klen);
        if (key % STORE_WARMUP_BATCH == 0 && (ret = store_begin(s, err)) < 0)
            return ret;
        ret = store_session_set(s, id, klen, sh->payload, t->first_size[key],
                                STORE_EPOCH_MS, sh->o->max_inactive_s, err);
        if (ret < 0) {
            store_rollback(s);
            return err_prefix(err, "warm-up");
        }
        if ((key % STORE_WARMUP_BATCH == STORE_WARMUP_BATCH - 1 ||
             key == t->n_keys - 1) &&
            (ret = store_commit(s, err)) < 0) {
            store_rollback(s);
            return err_prefix(err, "warm-up");
        }
    }
    return 0;
}

/* ---- the driver --------------------------------------------------------- */

/* The objects' bytes: a fixed pseudo-random pattern (incompressible,
 * should a filesystem compress). NULL when out of memory. */
static unsigned char *replay_payload(uint64_t max_bytes)
{
    unsigned char *payload = pt_malloc(max_bytes + REPLAY_SLIDE);

    if (!payload)
        return NULL;
    for (uint64_t i = 0, x = 88172645463325252u; i < max_bytes + REPLAY_SLIDE;
         i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        payload[i] = (unsigned char)x;
    }
    return payload;
}

/* Open the clients' connections and read buffers. */
static int replay_clients_open(struct replay_shared *sh,
                               struct replay_client *cl, unsigned k,
                               struct pt_err *err)
{
    const struct store_trace *t = sh->t;
    int ret;

    for (unsigned i = 0; i < k; i++) {
        cl[i].sh = sh;
        cl[i].id = i;
        cl[i].readbuf = pt_malloc(t->max_bytes ? t->max_bytes : 1);
        if (!cl[i].readbuf)
            return err_set(err, PT_EINTERNAL, "out of memory");
        if ((ret = store_open(sh->db_path, sh->cfg, &cl[i].store, err)) < 0)
            return ret;
    }
    return 0;
}

/* Start the client threads and open the gate once every client is warm
 * (or abandon the run: go = -1). The gate's mutex must be initialised. */
static int replay_clients_start(struct replay_shared *sh,
                                struct replay_client *cl, unsigned k,
                                struct pt_err *err)
{
    int ret = 0;

    for (unsigned i = 0; i < k; i++) {
        if (pthread_create(&cl[i].thread, NULL, replay_client_main, &cl[i]) !=
            0) {
            ret = err_set(err, PT_EINTERNAL, "cannot start client thread");
            break;
        }
        cl[i].started = 1;
    }
    pthread_mutex_lock(&sh->mu);
    while (ret == 0 && sh->n_ready < k)
        pthread_cond_wait(&sh->cv, &sh->mu);
    sh->go = ret == 0 ? 1 : -1;
    pthread_cond_broadcast(&sh->cv);
    pthread_mutex_unlock(&sh->mu);
    if (ret < 0)
        atomic_store(&sh->stop, 1);
    return ret;
}

/* Report progress until the clients are done (or told to stop), join
 * them and return the measured interval: first client start to last
 * client end (the polling does not add to it). */
static double replay_wait(struct replay_shared *sh, struct replay_client *cl,
                          unsigned k)
{
    const struct store_replay_opts *o = sh->o;
    uint64_t n_reqs = sh->t->n_reqs, t0, t1;

    for (;;) {
        struct timespec ts = {0, 100 * 1000000L};
        uint64_t done = atomic_load(&sh->done);
        if (o->progress && o->progress(o->progress_ctx, done, n_reqs))
            atomic_store(&sh->stop, 1);
        if (done >= n_reqs || atomic_load(&sh->stop))
            break;
        nanosleep(&ts, NULL);
    }
    for (unsigned i = 0; i < k; i++) {
        pthread_join(cl[i].thread, NULL);
        cl[i].started = 0;
    }
    t0 = cl[0].t_start_ns;
    t1 = cl[0].t_end_ns;
    for (unsigned i = 1; i < k; i++) {
        if (cl[i].t_start_ns < t0)
            t0 = cl[i].t_start_ns;
        if (cl[i].t_end_ns > t1)
            t1 = cl[i].t_end_ns;
    }
    if (o->progress)
        o->progress(o->progress_ctx, atomic_load(&sh->done), n_reqs);
    return (double)(t1 - t0) / 1e9;
}

/* A client's failure (the first real error before an interruption). */
static int replay_status(const struct replay_client *cl, unsigned k,
                         struct pt_err *err)
{
    for (unsigned i = 0; i < k; i++) {
        if (cl[i].status < 0 && cl[i].status != PT_EINTR) {
            *err = cl[i].err;
            return cl[i].status;
        }
    }
    for (unsigned i = 0; i < k; i++)
        if (cl[i].status < 0)
            return err_set(err, PT_EINTR, "replay interrupted");
    return 0;
}

/* Sum the clients' counters and histograms into res (closing their
 * connections); `all` is STORE_N_OPS zeroed histograms. */
static void replay_collect(struct replay_client *cl, unsigned k,
                           struct hist *all, double elapsed_s,
                           struct store_replay_result *res)
{
    for (unsigned i = 0; i < k; i++) {
        for (int op = 0; op < STORE_N_OPS - 1; op++) {
            hist_merge(&all[op], &cl[i].hist[op]);
            hist_merge(&all[STORE_OP_ALL], &cl[i].hist[op]);
        }
        res->gets_found += cl[i].gets_found;
        res->cache_hits += cl[i].stats.cache_hits;
        res->cache_misses += cl[i].stats.cache_misses;
        res->busy_retries += cl[i].stats.busy_retries;
        for (int c = 0; c < 3; c++)
            res->placed[c] += cl[i].placed[c];
        store_close(cl[i].store);
        cl[i].store = NULL;
    }
    for (int op = 0; op < STORE_N_OPS; op++)
        hist_summary(&all[op], &res->latency[op]);
    res->ops = all[STORE_OP_ALL].count;
    res->elapsed_s = elapsed_s;
    res->ops_per_s =
        res->elapsed_s > 0 ? (double)res->ops / res->elapsed_s : 0.0;
    if (res->cache_hits + res->cache_misses > 0)
        res->cache_hit_ratio = (double)res->cache_hits /
                               (double)(res->cache_hits + res->cache_misses);
}

int store_replay_run(const struct store_trace *t, const char *db_path,
                     const struct store_config *cfg,
                     const struct store_replay_opts *o,
                     struct store_replay_result *res, struct pt_err *err)
{
    struct replay_shared sh;
    struct replay_client *cl = NULL;
    struct store *loader = NULL;
    unsigned char *payload;
    unsigned k = o->n_clients ? o->n_clients : 1;
    int gate = 0, ret = 0;
    double elapsed_s;
    struct hist *all = NULL;

    memset(res, 0, sizeof(*res));
    memset(&sh, 0, sizeof(sh));
    res->page_size_bytes = cfg->page_size_bytes;
    res->cache_bytes = cfg->cache_bytes;
    res->n_clients = k;

    payload = replay_payload(t->max_bytes);
    cl = pt_calloc(k, sizeof(*cl));
    all = pt_calloc(STORE_N_OPS, sizeof(*all));
    if (!payload || !cl || !all) {
        ret = err_set(err, PT_EINTERNAL, "out of memory");
        goto out;
    }
    sh.t = t;
    sh.db_path = db_path;
    sh.cfg = cfg;
    sh.o = o;
    sh.payload = payload;
    atomic_init(&sh.done, 0);
    atomic_init(&sh.stop, 0);

    if ((ret = store_create(db_path, cfg, &loader, err)) < 0)
        goto out;
    if ((ret = replay_load(loader, t, &sh, err)) < 0)
        goto out;
    res->warmup_sessions = t->n_keys;
    if ((ret = replay_clients_open(&sh, cl, k, err)) < 0)
        goto out;
    if (pthread_mutex_init(&sh.mu, NULL) != 0 ||
        pthread_cond_init(&sh.cv, NULL) != 0) {
        ret = err_set(err, PT_EINTERNAL, "cannot create a mutex");
        goto out;
    }
    gate = 1;
    if ((ret = replay_clients_start(&sh, cl, k, err)) < 0)
        goto out;
    elapsed_s = replay_wait(&sh, cl, k);
    if ((ret = replay_status(cl, k, err)) < 0)
        goto out;
    replay_collect(cl, k, all, elapsed_s, res);
    ret = store_space_get(loader, &res->space, 1, err);
out:
    if (cl) {
        for (unsigned i = 0; i < k; i++) {
            if (cl[i].started)
                pthread_join(cl[i].thread, NULL);
            store_close(cl[i].store);
            free(cl[i].readbuf);
        }
    }
    if (gate) {
        pthread_mutex_destroy(&sh.mu);
        pthread_cond_destroy(&sh.cv);
    }
    store_close(loader);
    free(cl);
    free(all);
    free(payload);
    return ret;
}
