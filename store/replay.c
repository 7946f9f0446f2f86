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
    return store_trace_load_progress(t, path, format, NULL, NULL, err);
}

/* Report (the hook may be NULL), then 0 to go on or PT_EINTR in err. */
static int load_progress(struct store_trace *t, pt_progress_fn *progress,
                         void *ctx, struct pt_err *err)
{
    if (progress)
        progress(ctx, sim_trace_pos(t->reader), sim_trace_size(t->reader));
    return pt_interrupt_check(err);
}

int store_trace_load_progress(struct store_trace *t, const char *path,
                              int format, pt_progress_fn *progress, void *ctx,
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
        /* the servlet's write-back: a set right after a get of the key */
        r->write_back = req.op == SIM_SET && t->n_reqs >= 2 &&
                        r[-1].op == SIM_GET && r[-1].key_id == req.key_id;
        if (req.op == SIM_GET)
            t->n_gets++;
        else if (req.op == SIM_SET)
            t->n_sets++;
        else
            t->n_dels++;
        if (req.size_bytes > t->max_bytes)
            t->max_bytes = req.size_bytes;
        if (t->n_reqs % STORE_TRACE_PROGRESS_EVERY == 0 &&
            (ret = load_progress(t, progress, ctx, err)) < 0)
            goto fail;
    }
    if (ret < 0 || (ret = load_progress(t, progress, ctx, err)) < 0)
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
    pthread_mutex_t mu;           /* the start gate of a pass: */
    pthread_cond_t cv;
    unsigned n_ready; /* clients ready and waiting */
    int go;           /* 1: start, -1: give up (a client failed to start) */
    int warm;         /* this pass first reads every session (the first) */
    atomic_uint_fast64_t done; /* requests finished in this pass */
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
    struct hist resp; /* response time per request */
    uint64_t requests;
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

/* The end of a request: its response time, then the client thinks. */
static void replay_request_end(struct replay_client *c, uint64_t t0, int think)
{
    uint32_t ms = c->sh->o->think_ms;

    hist_add(&c->resp, pt_now_ns() - t0);
    c->requests++;
    if (think && ms) {
        struct timespec ts = {(time_t)(ms / 1000),
                              (long)(ms % 1000) * 1000000L};
        nanosleep(&ts, NULL);
    }
}

/* One operation of the trace on the client's connection. */
static int replay_op(struct replay_client *c, uint64_t i,
                     const struct store_trace_req *r)
{
    const struct replay_shared *sh = c->sh;
    const struct store_trace *t = sh->t;
    struct store_session ss;
    size_t klen = 0;
    const char *id = sim_trace_key(t->reader, r->key_id, &klen);
    int64_t now_ms = STORE_EPOCH_MS + (int64_t)r->time_ms;
    int ret;

    switch (r->op) {
    case SIM_GET:
        ret = store_session_get(c->store, id, klen, &ss, c->readbuf,
                                t->max_bytes, &c->err);
        if (ret == 1)
            c->gets_found++;
        return ret;
    case SIM_SET:
        ret = store_session_set(c->store, id, klen,
                                sh->payload + replay_slide(i), r->size_bytes,
                                now_ms, sh->o->max_inactive_s, &c->err);
        if (ret == 0)
            c->placed[store_place(sh->cfg, r->size_bytes)]++;
        return ret;
    default:
        return store_session_invalidate(c->store, id, klen, &c->err);
    }
}

/*
 * One pass: the client's requests in trace order, closed loop. A request
 * starts with an operation that is not a write-back and ends before the
 * next one starts; between two requests the client thinks. Nothing here
 * allocates.
 */
static void *replay_client_main(void *arg)
{
    struct replay_client *c = arg;
    struct replay_shared *sh = c->sh;
    const struct store_trace *t = sh->t;
    unsigned k = sh->o->n_clients;
    uint64_t req_t0 = 0;
    int ret = 0, open = 0;

    c->t_start_ns = c->t_end_ns = 0;
    if (sh->warm)
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
        if (open && !r->write_back) {
            replay_request_end(c, req_t0, 1);
            open = 0;
        }
        uint64_t t0 = pt_now_ns();
        if (!open) {
            req_t0 = t0;
            open = 1;
        }
        ret = replay_op(c, i, r);
        hist_add(&c->hist[r->op], pt_now_ns() - t0);
        if (ret < 0)
            goto out;
        if (r->op != SIM_GET && sh->o->ack_fd >= 0 &&
            (ret = replay_ack(sh, i, r, &c->err)) < 0)
            goto out;
        atomic_fetch_add_explicit(&sh->done, 1, memory_order_relaxed);
    }
    if (open)
        replay_request_end(c, req_t0, 0);
    /* deferred writes: the pass's pages are written within it */
    ret = store_flush(c->store, &c->err);
    c->t_end_ns = pt_now_ns();
    if (ret < 0)
        goto out;
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
        if ((key % STORE_WARMUP_BATCH == STORE_WARMUP_BATCH - 1 ||
             key == t->n_keys - 1) &&
            sh->o->load_progress)
            sh->o->load_progress(sh->o->progress_ctx, key + 1, t->n_keys);
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

struct store_replay {
    struct replay_shared sh;
    struct replay_client *cl;
    unsigned k;
    struct store *loader;
    unsigned char *payload;
    int gate;                           /* the mutex and condition exist */
    int passes;                         /* passes run, measured or not */
    unsigned n_rounds;                  /* measured passes */
    double round_rps[STORE_MAX_ROUNDS]; /* their requests/s */
    double elapsed_s;                   /* measured passes, summed */
    uint64_t requests_seen;             /* requests of the measured passes */
    uint32_t page_size_bytes;
    uint64_t cache_bytes;
};

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

/* Start the client threads and open the gate once every client is ready
 * (or abandon the pass: go = -1). */
static int replay_clients_start(struct replay_shared *sh,
                                struct replay_client *cl, unsigned k,
                                struct pt_err *err)
{
    int ret = 0;

    sh->n_ready = 0;
    sh->go = 0;
    atomic_store(&sh->done, 0);
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
        struct timespec ts = {0, 20 * 1000000L};
        uint64_t done = atomic_load(&sh->done);
        if (o->progress)
            o->progress(o->progress_ctx, done, n_reqs);
        if (pt_interrupted())
            atomic_store(&sh->stop, 1);
        if (done >= n_reqs || atomic_load(&sh->stop))
            break;
        nanosleep(&ts, NULL);
    }
    for (unsigned i = 0; i < k; i++) {
        if (cl[i].started)
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

/* Forget what a warm-up pass counted. */
static int replay_clients_clear(struct replay_client *cl, unsigned k,
                                struct pt_err *err)
{
    for (unsigned i = 0; i < k; i++) {
        memset(cl[i].hist, 0, sizeof(cl[i].hist));
        memset(&cl[i].resp, 0, sizeof(cl[i].resp));
        cl[i].requests = cl[i].gets_found = 0;
        memset(cl[i].placed, 0, sizeof(cl[i].placed));
        if (store_stats_get(cl[i].store, &cl[i].stats, 1, err) < 0)
            return PT_EIO;
    }
    return 0;
}

void store_replay_close(struct store_replay *r)
{
    if (!r)
        return;
    if (r->cl) {
        for (unsigned i = 0; i < r->k; i++) {
            if (r->cl[i].started)
                pthread_join(r->cl[i].thread, NULL);
            store_close(r->cl[i].store);
            free(r->cl[i].readbuf);
        }
    }
    if (r->gate) {
        pthread_mutex_destroy(&r->sh.mu);
        pthread_cond_destroy(&r->sh.cv);
    }
    store_close(r->loader);
    free(r->cl);
    free(r->payload);
    free(r);
}

int store_replay_open(const struct store_trace *t, const char *db_path,
                      const struct store_config *cfg,
                      const struct store_replay_opts *o,
                      struct store_replay **out, struct pt_err *err)
{
    struct store_replay *r = pt_calloc(1, sizeof(*r));
    int ret;

    *out = NULL;
    if (!r)
        return err_set(err, PT_EINTERNAL, "out of memory");
    r->k = o->n_clients ? o->n_clients : 1;
    r->page_size_bytes = cfg->page_size_bytes;
    r->cache_bytes = cfg->cache_bytes;
    r->payload = replay_payload(t->max_bytes);
    r->cl = pt_calloc(r->k, sizeof(*r->cl));
    if (!r->payload || !r->cl) {
        ret = err_set(err, PT_EINTERNAL, "out of memory");
        goto fail;
    }
    r->sh.t = t;
    r->sh.db_path = db_path;
    r->sh.cfg = cfg;
    r->sh.o = o;
    r->sh.payload = r->payload;
    atomic_init(&r->sh.done, 0);
    atomic_init(&r->sh.stop, 0);
    if ((ret = store_create(db_path, cfg, &r->loader, err)) < 0 ||
        (ret = replay_load(r->loader, t, &r->sh, err)) < 0 ||
        (ret = replay_clients_open(&r->sh, r->cl, r->k, err)) < 0)
        goto fail;
    if (pthread_mutex_init(&r->sh.mu, NULL) != 0 ||
        pthread_cond_init(&r->sh.cv, NULL) != 0) {
        ret = err_set(err, PT_EINTERNAL, "cannot create a mutex");
        goto fail;
    }
    r->gate = 1;
    *out = r;
    return 0;
fail:
    store_replay_close(r);
    return ret;
}

int store_replay_pass(struct store_replay *r, int measured, double *rps,
                      struct pt_err *err)
{
    uint64_t requests = 0;
    double elapsed_s;
    int ret;

    r->sh.warm = r->passes == 0;
    r->passes++;
    if ((ret = replay_clients_start(&r->sh, r->cl, r->k, err)) < 0) {
        replay_wait(&r->sh, r->cl, r->k);
        return ret;
    }
    elapsed_s = replay_wait(&r->sh, r->cl, r->k);
    if ((ret = replay_status(r->cl, r->k, err)) < 0)
        return ret;
    if (pt_interrupted()) /* the stop came as the last client ended */
        return err_set(err, PT_EINTR, "replay interrupted");
    if (!measured)
        return replay_clients_clear(r->cl, r->k, err) < 0
                   ? err_set(err, PT_EIO, "cannot reset counters")
                   : 0;
    for (unsigned i = 0; i < r->k; i++)
        requests += r->cl[i].requests;
    /* the clients' counts grow by one pass each time */
    uint64_t per_pass = requests - r->requests_seen;
    r->requests_seen = requests;
    double v = elapsed_s > 0 ? (double)per_pass / elapsed_s : 0.0;
    if (r->n_rounds < STORE_MAX_ROUNDS)
        r->round_rps[r->n_rounds] = v;
    r->n_rounds++;
    r->elapsed_s += elapsed_s;
    if (rps)
        *rps = v;
    return 0;
}

int store_replay_finish(struct store_replay *r, struct store_replay_result *res,
                        struct pt_err *err)
{
    struct hist *all = pt_calloc(STORE_N_OPS + 1, sizeof(*all));
    struct hist *resp;
    unsigned rounds = r->n_rounds ? r->n_rounds : 1;

    memset(res, 0, sizeof(*res));
    if (!all)
        return err_set(err, PT_EINTERNAL, "out of memory");
    resp = &all[STORE_N_OPS];
    res->page_size_bytes = r->page_size_bytes;
    res->cache_bytes = r->cache_bytes;
    res->n_clients = r->k;
    res->think_ms = r->sh.o->think_ms;
    res->warmup_sessions = r->sh.t->n_keys;
    for (unsigned i = 0; i < r->k; i++) {
        struct replay_client *c = &r->cl[i];
        for (int op = 0; op < STORE_N_OPS - 1; op++) {
            hist_merge(&all[op], &c->hist[op]);
            hist_merge(&all[STORE_OP_ALL], &c->hist[op]);
        }
        hist_merge(resp, &c->resp);
        res->requests += c->requests;
        res->gets_found += c->gets_found;
        res->cache_hits += c->stats.cache_hits;
        res->cache_misses += c->stats.cache_misses;
        res->busy_retries += c->stats.busy_retries;
        for (int col = 0; col < 3; col++)
            res->placed[col] += c->placed[col];
    }
    for (int op = 0; op < STORE_N_OPS; op++)
        hist_summary(&all[op], &res->latency[op]);
    hist_summary(resp, &res->response);
    res->elapsed_s = r->elapsed_s;
    res->ops_per_s = res->elapsed_s > 0
                         ? (double)all[STORE_OP_ALL].count / res->elapsed_s
                         : 0.0;
    res->requests_per_s =
        res->elapsed_s > 0 ? (double)res->requests / res->elapsed_s : 0.0;
    /* one round's worth (the mean over the measured rounds) */
    res->ops = all[STORE_OP_ALL].count / rounds;
    res->requests /= rounds;
    res->gets_found /= rounds;
    for (int col = 0; col < 3; col++)
        res->placed[col] /= rounds;
    if (res->cache_hits + res->cache_misses > 0)
        res->cache_hit_ratio = (double)res->cache_hits /
                               (double)(res->cache_hits + res->cache_misses);
    res->n_rounds =
        r->n_rounds < STORE_MAX_ROUNDS ? r->n_rounds : STORE_MAX_ROUNDS;
    memcpy(res->round_rps, r->round_rps, sizeof(res->round_rps));
    free(all);
    return store_space_get(r->loader, &res->space, 1, err);
}

int store_replay_run(const struct store_trace *t, const char *db_path,
                     const struct store_config *cfg,
                     const struct store_replay_opts *o,
                     struct store_replay_result *res, struct pt_err *err)
{
    struct store_replay *r = NULL;
    int ret;

    memset(res, 0, sizeof(*res));
    res->page_size_bytes = cfg->page_size_bytes;
    res->cache_bytes = cfg->cache_bytes;
    res->n_clients = o->n_clients ? o->n_clients : 1;
    if ((ret = store_replay_open(t, db_path, cfg, o, &r, err)) == 0 &&
        (ret = store_replay_pass(r, 1, NULL, err)) == 0)
        ret = store_replay_finish(r, res, err);
    store_replay_close(r);
    return ret;
}
