/* SPDX-License-Identifier: Apache-2.0 */
/*
 * mrc.c — one-pass LRU miss-ratio curves: exact stack distances with a
 * Fenwick tree over access times, and SHARDS spatial sampling with the
 * SHARDS-adj correction. See sim.h for the semantics and the papers.
 *
 * How the distance is found: every key in the LRU stack has one mark, at
 * the time of its last reference. The stack distance of a new reference to
 * key k is 1 + the number of marks after k's previous mark (each is a
 * distinct key referenced since). A Fenwick tree over time positions gives
 * that count in O(log T). Time positions run out after T references; the
 * tree is then rebuilt with the live marks renumbered 1..M in order (and T
 * doubled when the live marks fill more than half of it), so T stays
 * within 4 M and each rebuild is paid for by the references since the
 * last one. Neighbours: sim.c (feeds it), cli/cmd_simulate.c (prints it).
 */
#include "sim/sim_int.h"

#include <math.h>

struct sim_mrc {
    double rate;            /* sampling rate R, 1 = exact */
    uint64_t threshold;     /* sample key iff hash < threshold (of 2^32) */
    uint64_t salt;          /* hash seed */
    uint32_t *fen;          /* Fenwick tree, 1-based over [1, cap] (owned) */
    uint32_t *key_at;       /* position → key + 1 of the reference made
                               there; a mark only if last[key] still
                               points here (stale entries are not
                               cleared, saving a random write) (owned) */
    uint64_t cap;           /* positions available */
    uint64_t now;           /* last position used */
    uint64_t n_live;        /* keys in the stack (marks) */
    uint64_t max_live;      /* the most keys ever in the stack */
    struct sim_keymap last; /* key → position of its mark, 0 = none */
    uint64_t *hist;         /* hist[d]: counted refs at distance d (owned) */
    uint64_t hist_n;        /* entries allocated */
    uint64_t refs_total;    /* counted refs, sampled or not */
    uint64_t refs_sampled;
    double *cum;    /* cum[d] = hits with distance <= d, built lazily */
    uint64_t cum_n; /* entries of cum valid; 0 = rebuild */
};

struct sim_mrc *sim_mrc_new(double sample_rate, uint64_t seed)
{
    struct sim_mrc *m;

    if (!(sample_rate > 0.0) || sample_rate > 1.0)
        return NULL;
    m = pt_calloc(1, sizeof(*m));
    if (!m)
        return NULL;
    m->rate = sample_rate;
    m->threshold = (uint64_t)ldexp(sample_rate, 32);
    m->salt = sim_mix64(seed ^ 0x5a4d5a4d5a4dULL);
    m->cap = 1u << 16;
    m->fen = pt_calloc(m->cap + 1, sizeof(*m->fen));
    m->key_at = pt_calloc(m->cap + 1, sizeof(*m->key_at));
    if (!m->fen || !m->key_at) {
        sim_mrc_free(m);
        return NULL;
    }
    return m;
}

void sim_mrc_free(struct sim_mrc *m)
{
    if (!m)
        return;
    free(m->fen);
    free(m->key_at);
    sim_keymap_release(&m->last);
    free(m->hist);
    free(m->cum);
    free(m);
}

static inline void fen_add(uint32_t *fen, uint64_t cap, uint64_t i,
                           int32_t delta)
{
    for (; i <= cap; i += i & (~i + 1))
        fen[i] = (uint32_t)((int32_t)fen[i] + delta);
}

/*
 * Marks in (a, b], a <= b: prefix(b) - prefix(a), walking both down until
 * the walks meet, so only O(log(b - a)) nodes are read — for the short
 * distances that dominate real traces, nodes near `now` that stay cached.
 */
static inline uint64_t fen_range(const uint32_t *fen, uint64_t a, uint64_t b)
{
    uint64_t s = 0;

    while (a != b) {
        if (b > a) {
            s += fen[b];
            b -= b & (~b + 1);
        } else {
            s -= fen[a];
            a -= a & (~a + 1);
        }
    }
    return s;
}

/* Renumber the live marks 1..n_live, growing the time axis if needed. */
static int mrc_compact(struct sim_mrc *m)
{
    uint64_t i, j = 0, cap = m->cap;

    if (m->n_live * 2 > m->cap) {
        uint32_t *f, *k;
        cap = m->cap * 2;
        f = pt_realloc(m->fen, (cap + 1) * sizeof(*f));
        if (!f)
            return PT_EINTERNAL;
        m->fen = f;
        k = pt_realloc(m->key_at, (cap + 1) * sizeof(*k));
        if (!k)
            return PT_EINTERNAL;
        m->key_at = k;
        memset(m->key_at + m->cap + 1, 0, (cap - m->cap) * sizeof(*k));
    }
    for (i = 1; i <= m->now; i++) {
        uint32_t k = m->key_at[i];
        m->key_at[i] = 0;
        if (!k || m->last.v[k - 1] != i)
            continue; /* no mark, or the key moved on */
        m->key_at[++j] = k;
        m->last.v[k - 1] = (uint32_t)j;
    }
    m->cap = cap;
    m->now = j;
    /* a tree of ones at 1..j: fen[i] counts (i - lowbit(i), i] ∩ [1, j] */
    for (i = 1; i <= cap; i++) {
        uint64_t lo = i - (i & (~i + 1));
        m->fen[i] = (uint32_t)(i <= j ? i - lo : (lo < j ? j - lo : 0));
    }
    return 0;
}

static int hist_add(struct sim_mrc *m, uint64_t d)
{
    if (d >= m->hist_n) {
        uint64_t n = m->hist_n ? m->hist_n : 1024;
        uint64_t *h;
        while (n <= d)
            n *= 2;
        h = pt_realloc(m->hist, n * sizeof(*h));
        if (!h)
            return PT_EINTERNAL;
        memset(h + m->hist_n, 0, (n - m->hist_n) * sizeof(*h));
        m->hist = h;
        m->hist_n = n;
    }
    m->hist[d]++;
    return 0;
}

int sim_mrc_access(struct sim_mrc *m, uint32_t key, int counted)
{
    uint64_t pos;

    m->refs_total += (uint64_t)(counted != 0);
    if (m->rate < 1.0 &&
        (sim_mix64((uint64_t)key ^ m->salt) & 0xffffffffu) >= m->threshold)
        return 0;
    m->cum_n = 0;
    m->refs_sampled += (uint64_t)(counted != 0);
    if (sim_keymap_reserve(&m->last, key))
        return PT_EINTERNAL;
    pos = m->last.v[key];
    if (pos) {
        uint64_t d = fen_range(m->fen, pos, m->now) + 1;
        fen_add(m->fen, m->cap, pos, -1);
        m->last.v[key] = 0; /* its entry at pos is stale from now on */
        m->n_live--;
        if (counted && hist_add(m, d))
            return PT_EINTERNAL;
    }
    if (m->now == m->cap && mrc_compact(m))
        return PT_EINTERNAL;
    m->now++;
    fen_add(m->fen, m->cap, m->now, 1);
    m->key_at[m->now] = key + 1;
    m->last.v[key] = (uint32_t)m->now;
    m->n_live++;
    if (m->n_live > m->max_live)
        m->max_live = m->n_live;
    return 0;
}

void sim_mrc_prefetch(const struct sim_mrc *m, uint32_t key)
{
    sim_keymap_prefetch(&m->last, key);
}

void sim_mrc_remove(struct sim_mrc *m, uint32_t key)
{
    uint64_t pos = sim_keymap_get(&m->last, key);

    if (!pos)
        return;
    m->cum_n = 0;
    fen_add(m->fen, m->cap, pos, -1);
    m->key_at[pos] = 0;
    m->last.v[key] = 0;
    m->n_live--;
}

uint64_t sim_mrc_refs(const struct sim_mrc *m)
{
    return m->refs_total;
}

uint64_t sim_mrc_max_size(const struct sim_mrc *m)
{
    return (uint64_t)ceil((double)m->max_live / m->rate);
}

double sim_mrc_hit_ratio(struct sim_mrc *m, uint64_t size)
{
    double expected, adj, hits;
    uint64_t d, i;

    if (!m->refs_total)
        return 0.0;
    if (!m->cum_n) {
        uint64_t n = m->hist_n ? m->hist_n : 1;
        double *c = pt_realloc(m->cum, n * sizeof(*c));
        if (!c)
            return 0.0;
        m->cum = c;
        c[0] = 0.0;
        for (i = 1; i < n; i++)
            c[i] = c[i - 1] + (double)m->hist[i];
        m->cum_n = n;
    }
    /* a sampled distance d stands for a true distance of about d / R */
    d = m->rate < 1.0 ? (uint64_t)floor((double)size * m->rate) : size;
    if (d >= m->cum_n)
        d = m->cum_n - 1;
    hits = m->cum[d];
    if (m->rate >= 1.0)
        return hits / (double)m->refs_total;
    /* SHARDS-adj: the first bucket absorbs expected - actual references */
    expected = (double)m->refs_total * m->rate;
    adj = expected - (double)m->refs_sampled;
    if (!(expected > 0.0))
        return 0.0;
    hits = (hits + adj) / expected;
    return hits < 0.0 ? 0.0 : hits > 1.0 ? 1.0 : hits;
}
