/* SPDX-License-Identifier: Apache-2.0 */
/*
 * mini.c — miss-ratio curves of any policy by miniature simulation
 * (Waldspurger, Saemundsson, Ahmad, Park, "Cache Modeling and Optimization
 * using Miniature Simulations", USENIX ATC '17): the references are
 * sampled spatially — a key is in the sample iff the hash of its id falls
 * under the rate R, as in SHARDS (FAST '15) — and a cache of S entries is
 * modelled by the policy itself running on the sampled references with
 * S x R entries. Its hit ratio estimates the full cache's.
 *
 * The pass over the trace only hashes each reference and records the
 * sampled ones (key, time, flags: about R x 16 bytes per reference); the
 * miniature caches run afterwards over that record, one per curve size,
 * in parallel threads (sim_mini_curve), so the sizes need not be known
 * while the trace is read and a size costs ~R of a full run. At R = 1 the
 * record is the whole trace and each point is an exact run.
 *
 * The estimate carries the SHARDS-adj correction: the difference between
 * the expected (R x all counted references) and the sampled counted
 * references is added to the hits, because on a skewed trace that
 * difference is the few hottest keys falling in or out of the sample, and
 * those are hits at every size the curve resolves. Sizes below 100 / R
 * (a miniature cache of fewer than 100 entries) are marked extrapolated
 * by the plan. Fixed-size structures of a policy (PostgreSQL's ring,
 * InnoDB's minimum lengths) are scaled by R through sim_policy_ops.tune.
 * Neighbours: sim.c (feeds it), plan.c (reads the curve).
 */
#include "sim/sim_int.h"

#include <math.h>
#include <pthread.h>

struct mini_ev {
    uint32_t key;
    uint32_t flags; /* SIM_MINI_* */
    uint64_t t_ms;
};

struct sim_mini {
    double rate;
    uint64_t threshold; /* sampled iff hash < threshold (of 2^32) */
    uint64_t salt;      /* hash seed */
    struct mini_ev *ev; /* the sampled references (owned) */
    uint64_t n_ev, cap_ev;
    struct sim_keymap seen; /* sampled key → 1 once referenced */
    uint64_t n_seen;        /* distinct sampled keys */
    uint64_t max_live;      /* most sampled keys live at once */
    uint64_t refs_total;    /* counted references, sampled or not */
    uint64_t refs_sampled;  /* of those, sampled */
};

struct sim_mini *sim_mini_new(double sample_rate, uint64_t seed)
{
    struct sim_mini *m;

    if (!(sample_rate > 0.0) || sample_rate > 1.0)
        return NULL;
    m = pt_calloc(1, sizeof(*m));
    if (!m)
        return NULL;
    m->rate = sample_rate;
    m->threshold = (uint64_t)ldexp(sample_rate, 32);
    m->salt = sim_mix64(seed ^ 0x5a4d5a4d5a4dULL);
    return m;
}

void sim_mini_free(struct sim_mini *m)
{
    if (!m)
        return;
    free(m->ev);
    sim_keymap_release(&m->seen);
    free(m);
}

static int mini_push(struct sim_mini *m, uint32_t key, unsigned flags,
                     uint64_t now_ms)
{
    if (m->n_ev == m->cap_ev) {
        uint64_t n = m->cap_ev ? m->cap_ev * 2 : 4096;
        struct mini_ev *e = pt_realloc(m->ev, n * sizeof(*e));
        if (!e)
            return PT_EINTERNAL;
        m->ev = e;
        m->cap_ev = n;
    }
    m->ev[m->n_ev].key = key;
    m->ev[m->n_ev].flags = flags;
    m->ev[m->n_ev].t_ms = now_ms;
    m->n_ev++;
    return 0;
}

static inline int mini_sampled(const struct sim_mini *m, uint32_t key)
{
    return m->rate >= 1.0 ||
           (sim_mix64((uint64_t)key ^ m->salt) & 0xffffffffu) < m->threshold;
}

int sim_mini_access(struct sim_mini *m, uint32_t key, unsigned flags,
                    uint64_t now_ms)
{
    int counted = (flags & SIM_MINI_COUNTED) != 0;

    m->refs_total += (uint64_t)counted;
    if (!mini_sampled(m, key))
        return 0;
    m->refs_sampled += (uint64_t)counted;
    if (sim_keymap_reserve(&m->seen, key))
        return PT_EINTERNAL;
    if (!m->seen.v[key]) {
        m->seen.v[key] = 1;
        m->n_seen++;
        if (m->n_seen > m->max_live)
            m->max_live = m->n_seen;
    }
    return mini_push(m, key, flags & (SIM_MINI_COUNTED | SIM_MINI_SCAN),
                     now_ms);
}

int sim_mini_remove(struct sim_mini *m, uint32_t key)
{
    if (!mini_sampled(m, key))
        return 0;
    if (sim_keymap_get(&m->seen, key)) {
        m->seen.v[key] = 0;
        m->n_seen--;
    }
    return mini_push(m, key, SIM_MINI_REMOVE, 0);
}

uint64_t sim_mini_refs(const struct sim_mini *m)
{
    return m->refs_total;
}

double sim_mini_rate(const struct sim_mini *m)
{
    return m->rate;
}

uint64_t sim_mini_max_size(const struct sim_mini *m)
{
    return (uint64_t)ceil((double)m->max_live / m->rate);
}

uint64_t sim_mini_entries(const struct sim_mini *m, uint64_t size)
{
    uint64_t c = (uint64_t)llround((double)size * m->rate);

    return c ? c : 1;
}

/* One miniature run: counted hits of ops at `size` entries, or < 0. */
static int64_t mini_run(const struct sim_mini *m,
                        const struct sim_policy_ops *ops,
                        const struct sim_policy_params *pp, uint64_t seed,
                        uint64_t size)
{
    struct sim_policy *p = ops->create(sim_mini_entries(m, size), seed);
    int64_t hits = 0;

    if (!p)
        return PT_EINTERNAL;
    if (ops->tune)
        ops->tune(p, pp);
    for (uint64_t i = 0; i < m->n_ev; i++) {
        const struct mini_ev *e = &m->ev[i];
        uint32_t victim;
        int rc;
        if (e->flags & SIM_MINI_REMOVE) {
            ops->remove(p, e->key);
            continue;
        }
        p->now_ms = e->t_ms;
        rc = (e->flags & SIM_MINI_SCAN) && ops->access_scan
                 ? ops->access_scan(p, e->key, &victim)
                 : ops->access(p, e->key, &victim);
        if (rc < 0) {
            hits = rc;
            break;
        }
        hits += (int64_t)(rc == 1 && (e->flags & SIM_MINI_COUNTED));
    }
    ops->destroy(p);
    return hits;
}

/* The estimate at a size from its miniature run's hits (SHARDS-adj). */
static double mini_estimate(const struct sim_mini *m, int64_t hits)
{
    double expected = (double)m->refs_total * m->rate, h;

    if (!m->refs_total)
        return 0.0;
    if (m->rate >= 1.0)
        return 1.0 -
               (double)(m->refs_total - (uint64_t)hits) / (double)m->refs_total;
    h = ((double)hits + expected - (double)m->refs_sampled) / expected;
    return h < 0.0 ? 0.0 : h > 1.0 ? 1.0 : h;
}

struct mini_job {
    const struct sim_mini *m;
    const struct sim_policy_ops *ops;
    struct sim_policy_params pp;
    uint64_t seed;
    const uint64_t *sizes;
    double *hit;
    size_t n, first, step; /* this thread: first, first + step, ... */
    int rc;
};

static void *mini_worker(void *arg)
{
    struct mini_job *j = arg;

    for (size_t i = j->first; i < j->n; i += j->step) {
        int64_t h = mini_run(j->m, j->ops, &j->pp, j->seed, j->sizes[i]);
        if (h < 0) {
            j->rc = (int)h;
            break;
        }
        j->hit[i] = mini_estimate(j->m, h);
    }
    return NULL;
}

int sim_mini_curve(const struct sim_mini *m, const struct sim_policy_ops *ops,
                   uint32_t page_size_bytes, uint64_t seed,
                   const uint64_t *sizes, size_t n, unsigned jobs, double *hit,
                   struct pt_err *err)
{
    struct mini_job job[SIM_MAX_JOBS];
    pthread_t th[SIM_MAX_JOBS];
    int started[SIM_MAX_JOBS] = {0};
    unsigned k;
    int rc = 0;

    if (jobs < 1)
        jobs = 1;
    if (jobs > SIM_MAX_JOBS)
        jobs = SIM_MAX_JOBS;
    if (jobs > n)
        jobs = n ? (unsigned)n : 1;
    for (k = 0; k < jobs; k++) {
        job[k] = (struct mini_job){.m = m,
                                   .ops = ops,
                                   .pp = {page_size_bytes, m->rate},
                                   .seed = seed,
                                   .sizes = sizes,
                                   .hit = hit,
                                   .n = n,
                                   .first = k,
                                   .step = jobs};
        /* share 0 runs on this thread; a share whose thread cannot start
           runs here too (the result does not depend on where) */
        if (k > 0)
            started[k] =
                pthread_create(&th[k], NULL, mini_worker, &job[k]) == 0;
    }
    for (k = 0; k < jobs; k++)
        if (!started[k])
            mini_worker(&job[k]);
    for (k = 0; k < jobs; k++) {
        if (started[k])
            pthread_join(th[k], NULL);
        if (job[k].rc && !rc)
            rc = job[k].rc;
    }
    if (rc)
        return err_set(err, PT_EINTERNAL,
                       "out of memory in a miniature simulation");
    return 0;
}
