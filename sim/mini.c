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
 * Two corrections make a miniature cache stand for the full one on a
 * skewed trace, where a few warm keys falling in or out of the sample
 * would swing the curve: every key's references are counted during the
 * pass, and (1) the estimate is post-stratified — keys grouped by that
 * count, each group's hit ratio read off its sampled keys and weighted by
 * the group's share of all references (mini_estimate); (2) the miniature
 * cache is sized for the sample actually drawn, by the characteristic-time
 * approximation (mini_capacity). (3) A size whose miniature cache would
 * hold fewer than MINI_MIN_ENTRIES entries runs on a nested sample at
 * 2 R or 4 R (the keys under R and more, the same hash): a miniature FIFO
 * of 100 entries underestimates its full cache by up to 0.024 on the
 * reference trace, one of 400 by 0.004 (docs/models.md#mini). Sizes below
 * 100 / R are still marked extrapolated by the plan. Fixed-size structures of a
 * policy (PostgreSQL's ring, InnoDB's minimum lengths) are scaled by R through
 * sim_policy_ops.tune. Neighbours: sim.c (feeds it), plan.c (reads the curve).
 */
#include "sim/sim_int.h"

#include <math.h>
#include <pthread.h>

struct mini_ev {
    uint32_t key;
    uint32_t flags; /* SIM_MINI_* */
    uint64_t t_ms;
};

/* The nested samples for small sizes: a size whose miniature cache at R
 * would hold fewer than MINI_MIN_ENTRIES runs at 2 R or 4 R, the lowest
 * that gives it as many (at most 4 R, and none above MINI_MAX_BOOSTED:
 * each costs its rate x 16 bytes a reference). */
#define MINI_LEVELS 3
#define MINI_MIN_ENTRIES 400.0
#define MINI_MAX_BOOSTED 0.25

/* A record of sampled references at one rate. */
struct mini_log {
    struct mini_ev *ev; /* owned */
    uint64_t n, cap;
    double rate;
    struct sim_sampler smp; /* which keys are in it */
};

struct sim_mini {
    double rate;
    struct mini_log log[MINI_LEVELS]; /* at R, 2 R, 4 R (nested) */
    int levels;                       /* how many are kept (1..3) */
    struct sim_keymap seen;           /* sampled key → 1 once referenced */
    uint64_t n_seen;                  /* distinct sampled keys */
    uint64_t max_live;                /* most sampled keys live at once */
    uint64_t refs_total;              /* counted references, sampled or not */
    uint64_t reject;       /* a hash at or above it is in no level's sample */
    struct sim_keymap cnt; /* every key → its counted references */
};

/* Strata of keys by references: floor(log2(count)) + 1, 0..MINI_BINS-1. */
#define MINI_BINS 33
#define MINI_HIST 4096 /* keys by exact count below this, then one by one */

static inline unsigned mini_bin(uint32_t count)
{
    return count ? 32u - (unsigned)__builtin_clz(count) : 0;
}

struct sim_mini *sim_mini_new(double sample_rate, uint64_t seed)
{
    struct sim_mini *m;

    if (!(sample_rate > 0.0) || sample_rate > 1.0)
        return NULL;
    m = pt_calloc(1, sizeof(*m));
    if (!m)
        return NULL;
    m->rate = sample_rate;
    /* the same hash and salt under higher thresholds: supersets, kept
       while their rate is at most MINI_MAX_BOOSTED (their memory) */
    m->levels = 1;
    while (m->levels < MINI_LEVELS &&
           ldexp(sample_rate, m->levels) <= MINI_MAX_BOOSTED)
        m->levels++;
    for (int i = 0; i < MINI_LEVELS; i++) {
        m->log[i].rate = fmin(1.0, ldexp(sample_rate, i));
        sim_sampler_init(&m->log[i].smp, m->log[i].rate, seed);
    }
    /* the widest level kept: a key outside its sample is outside all */
    m->reject = m->log[m->levels - 1].rate >= 1.0
                    ? UINT64_MAX
                    : m->log[m->levels - 1].smp.threshold;
    return m;
}

void sim_mini_free(struct sim_mini *m)
{
    if (!m)
        return;
    for (int i = 0; i < MINI_LEVELS; i++)
        free(m->log[i].ev);
    sim_keymap_release(&m->seen);
    sim_keymap_release(&m->cnt);
    free(m);
}

static int mini_push(struct mini_log *l, uint32_t key, unsigned flags,
                     uint64_t now_ms)
{
    if (l->n == l->cap) {
        uint64_t n = l->cap ? l->cap * 2 : 4096;
        struct mini_ev *e = pt_realloc(l->ev, n * sizeof(*e));
        if (!e)
            return PT_EINTERNAL;
        l->ev = e;
        l->cap = n;
    }
    l->ev[l->n].key = key;
    l->ev[l->n].flags = flags;
    l->ev[l->n].t_ms = now_ms;
    l->n++;
    return 0;
}

static inline int mini_in(const struct mini_log *l, uint32_t key)
{
    return l->rate >= 1.0 || sim_sampler_has(&l->smp, key);
}

/* A reference into every level's log that samples its key: the hash once,
 * the levels' thresholds rising (a key under one is under the next).
 * Returns 1 when the key is in the sample at R, 0 when not, or < 0. */
static int mini_push_nested(struct sim_mini *m, uint32_t key, unsigned flags,
                            uint64_t now_ms, uint64_t h)
{
    for (int i = m->levels - 1; i >= 0; i--) {
        const struct mini_log *l = &m->log[i];
        if (l->rate < 1.0 && h >= l->smp.threshold)
            return 0;
        if (mini_push(&m->log[i], key, flags, now_ms))
            return PT_EINTERNAL;
    }
    return 1;
}

int sim_mini_access(struct sim_mini *m, uint32_t key, unsigned flags,
                    uint64_t now_ms)
{
    int counted = (flags & SIM_MINI_COUNTED) != 0, in;
    uint64_t h = sim_sampler_hash(&m->log[0].smp, key);

    m->refs_total += (uint64_t)counted;
    if (counted && m->rate < 1.0) {
        if (sim_keymap_reserve(&m->cnt, key))
            return PT_EINTERNAL;
        m->cnt.v[key]++;
    }
    /* most keys are in no level's sample: the widest level's threshold
       rejects them here, without the levels' loop */
    if (h >= m->reject)
        return 0;
    flags &= SIM_MINI_COUNTED | SIM_MINI_SCAN;
    if ((in = mini_push_nested(m, key, flags, now_ms, h)) <= 0)
        return in;
    if (sim_keymap_reserve(&m->seen, key))
        return PT_EINTERNAL;
    if (!m->seen.v[key]) {
        m->seen.v[key] = 1;
        m->n_seen++;
        if (m->n_seen > m->max_live)
            m->max_live = m->n_seen;
    }
    return 0;
}

int sim_mini_remove(struct sim_mini *m, uint32_t key)
{
    int in = mini_push_nested(m, key, SIM_MINI_REMOVE, 0,
                              sim_sampler_hash(&m->log[0].smp, key));

    if (in <= 0)
        return in;
    if (sim_keymap_get(&m->seen, key)) {
        m->seen.v[key] = 0;
        m->n_seen--;
    }
    return 0;
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

/* A miniature cache's entries for a size at a rate: size x rate
 * rounded, at least 1. */
static uint64_t mini_entries(double rate, uint64_t size)
{
    uint64_t c = (uint64_t)llround((double)size * rate);

    return c ? c : 1;
}

/*
 * What the estimate and the sizing need from the counts (mini_strata):
 * references by stratum, of all keys and of the sampled ones, and the
 * keys by count (all and sampled): by exact count below MINI_HIST, the
 * hotter ones one by one.
 */
struct mini_strata {
    double refs[MINI_BINS];  /* counted references of all keys */
    double taken[MINI_BINS]; /* of the sampled keys */
    uint64_t hist_all[MINI_HIST], hist_s[MINI_HIST];
    uint32_t *hot;  /* counts of the keys at MINI_HIST or more (owned) */
    uint8_t *hot_s; /* 1: that key is sampled (owned) */
    uint64_t n_hot, n_keys;
};

static int mini_strata(const struct sim_mini *m, const struct mini_log *l,
                       struct mini_strata *st)
{
    uint64_t k, n_hot = 0;

    for (k = 0; k < m->cnt.n; k++)
        n_hot += (uint64_t)(m->cnt.v[k] >= MINI_HIST);
    st->hot = pt_malloc((n_hot + 1) * sizeof(*st->hot));
    st->hot_s = pt_malloc(n_hot + 1);
    if (!st->hot || !st->hot_s)
        return PT_EINTERNAL;
    for (k = 0; k < m->cnt.n; k++) {
        uint32_t c = m->cnt.v[k];
        int s = c && mini_in(l, (uint32_t)k);
        if (!c)
            continue;
        st->refs[mini_bin(c)] += c;
        st->taken[mini_bin(c)] += s ? c : 0;
        st->n_keys++;
        if (c < MINI_HIST) {
            st->hist_all[c]++;
            st->hist_s[c] += (uint64_t)s;
        } else {
            st->hot[st->n_hot] = c;
            st->hot_s[st->n_hot++] = (uint8_t)s;
        }
    }
    return 0;
}

/* Keys (all: f, sampled: g) referenced at least once in a window of
 * t x N references, each key's references taken as a Poisson stream. */
static void mini_window(const struct mini_strata *st, double t, double *f,
                        double *g)
{
    *f = *g = 0.0;
    for (uint64_t c = 1; c < MINI_HIST; c++) {
        double p = -expm1(-(double)c * t);
        *f += (double)st->hist_all[c] * p;
        *g += (double)st->hist_s[c] * p;
    }
    for (uint64_t i = 0; i < st->n_hot; i++) {
        double p = -expm1(-(double)st->hot[i] * t);
        *f += p;
        *g += st->hot_s[i] ? p : 0.0;
    }
}

/*
 * The miniature cache for a size S, sized for the sample drawn: under the
 * characteristic-time approximation (Che, Tung, Wang, IEEE JSAC 2002) a
 * cache of S entries holds the keys referenced in a window T with
 * f(T) = S; the miniature cache gets g(T), the sampled keys of that
 * window — R x S on average, more when the sample holds more than its
 * share of the warm keys, so the miniature cache is as contended as the
 * full one. Past the working set, and at R = 1, it is S x R.
 */
static uint64_t mini_capacity(const struct sim_mini *m,
                              const struct mini_log *l,
                              const struct mini_strata *st, uint64_t size)
{
    double lo = 0.0, hi = 1.0 / (double)m->refs_total, f, g;
    uint64_t c;

    if (l->rate >= 1.0 || !m->refs_total || size >= st->n_keys)
        return mini_entries(l->rate, size);
    for (mini_window(st, hi, &f, &g); f < (double)size && hi < 1e12;
         mini_window(st, hi, &f, &g)) {
        lo = hi;
        hi *= 2;
    }
    for (int it = 0; it < 48 && hi - lo > 1e-9 * hi; it++) {
        double t = (lo + hi) / 2;
        mini_window(st, t, &f, &g);
        if (f > (double)size)
            hi = t;
        else
            lo = t;
    }
    mini_window(st, (lo + hi) / 2, &f, &g);
    c = (uint64_t)llround(g);
    return c ? c : 1;
}

/* One miniature run of ops at `entries`: counted hits in all and by
 * stratum (hit_bin), or < 0. */
static int64_t mini_run(const struct sim_mini *m, const struct mini_log *l,
                        const struct sim_policy_ops *ops,
                        const struct sim_policy_params *pp, uint64_t seed,
                        uint64_t entries, uint64_t *hit_bin)
{
    struct sim_policy *p = ops->create(entries, seed);
    int64_t hits = 0;

    if (!p)
        return PT_EINTERNAL;
    if (ops->tune)
        ops->tune(p, pp);
    for (uint64_t i = 0; i < l->n; i++) {
        const struct mini_ev *e = &l->ev[i];
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
        if (rc == 1 && (e->flags & SIM_MINI_COUNTED)) {
            hits++;
            if (m->rate < 1.0)
                hit_bin[mini_bin(m->cnt.v[e->key])]++;
        }
    }
    ops->destroy(p);
    return hits;
}

/*
 * The estimate at a size: post-stratified. Keys of about the same number
 * of references (within a factor of 2) have alike hit ratios, so each
 * stratum's ratio, read off its sampled keys and weighted by the
 * stratum's share of all references, estimates the trace's with far less
 * variance than one ratio over the sample. (SHARDS-adj, FAST '15, corrects
 * the same swing by counting the missing or extra sampled references as
 * hits; that overestimates FIFO-like policies, whose warm keys miss too.)
 * At R = 1 it is the exact run's 1 - misses / references.
 */
static double mini_estimate(const struct sim_mini *m,
                            const struct mini_strata *st, int64_t hits,
                            const uint64_t *hit_bin)
{
    double h = 0.0;

    if (!m->refs_total)
        return 0.0;
    if (m->rate >= 1.0)
        return 1.0 -
               (double)(m->refs_total - (uint64_t)hits) / (double)m->refs_total;
    for (int b = 0; b < MINI_BINS; b++) {
        int near = b;
        if (!st->refs[b])
            continue;
        /* a stratum without sampled keys (one of the hottest few keys):
           the nearest sampled stratum's ratio, hotter ones first */
        for (int d = 1; !st->taken[near] && d < MINI_BINS; d++)
            near = b + d < MINI_BINS && st->taken[b + d] ? b + d
                   : b - d >= 0 && st->taken[b - d]      ? b - d
                                                         : near;
        if (st->taken[near])
            h += st->refs[b] * (double)hit_bin[near] / st->taken[near];
    }
    h /= (double)m->refs_total;
    return h < 0.0 ? 0.0 : h > 1.0 ? 1.0 : h;
}

struct mini_job {
    const struct sim_mini *m;
    const struct sim_policy_ops *ops;
    struct sim_policy_params pp[MINI_LEVELS]; /* per log: its scale */
    const struct mini_strata *st[MINI_LEVELS];
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
        uint64_t hit_bin[MINI_BINS] = {0};
        /* a small miniature cache: the nested sample at 2 R or 4 R */
        int b = 0;
        while (b + 1 < j->m->levels &&
               (double)j->sizes[i] * j->m->log[b].rate < MINI_MIN_ENTRIES)
            b++;
        const struct mini_log *l = &j->m->log[b];
        int64_t h =
            mini_run(j->m, l, j->ops, &j->pp[b], j->seed,
                     mini_capacity(j->m, l, j->st[b], j->sizes[i]), hit_bin);
        if (h < 0) {
            j->rc = (int)h;
            break;
        }
        j->hit[i] = mini_estimate(j->m, j->st[b], h, hit_bin);
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
    struct mini_strata *st = pt_calloc(MINI_LEVELS, sizeof(*st));
    unsigned k;
    int rc = 0;

    for (int i = 0; st && i < m->levels && !rc; i++)
        if (mini_strata(m, &m->log[i], &st[i]) < 0)
            rc = PT_EINTERNAL;
    if (!st || rc) {
        rc = PT_EINTERNAL;
        goto out;
    }
    if (jobs < 1)
        jobs = 1;
    if (jobs > SIM_MAX_JOBS)
        jobs = SIM_MAX_JOBS;
    if (jobs > n)
        jobs = n ? (unsigned)n : 1;
    for (k = 0; k < jobs; k++) {
        job[k] =
            (struct mini_job){.m = m,
                              .ops = ops,
                              .pp = {{page_size_bytes, m->log[0].rate, 0, 0},
                                     {page_size_bytes, m->log[1].rate, 0, 0},
                                     {page_size_bytes, m->log[2].rate, 0, 0}},
                              .st = {&st[0], &st[1], &st[2]},
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
out:
    for (k = 0; st && k < MINI_LEVELS; k++) {
        free(st[k].hot);
        free(st[k].hot_s);
    }
    free(st);
    if (rc)
        return err_set(err, PT_EINTERNAL,
                       "out of memory in a miniature simulation");
    return 0;
}
