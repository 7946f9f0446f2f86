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
 * doubled when the live marks fill more than a third of it), so T stays
 * within 6 M and each rebuild is paid for by the at least M
 * references since the last one. (A half, as before, rebuilt twice as
 * often: 5 % of the exact curve's time on the reference trace.) In exact
 * mode the rebuild needs no record of which key made each position's
 * reference: a mark's new number is its rank among the marks, read off
 * the bitmap, so each key's position is renumbered in place.
 *
 * Sampling (SHARDS): a key whose hash falls under the rate R is tracked
 * with weight 1/R — its mark stands for 1/R keys — so a distance is the
 * weight of the marks after the key's previous one. SHARDS-adj adds the
 * difference between the expected and the actual (weighted) number of
 * sampled references to the first bucket. On a Zipf trace a few keys carry
 * a large share of all references, and whether they land in the sample
 * swings the curve (bench/reference-baseline.md: errors up to 0.21 at 1 % with
 * plain hash sampling). We therefore also track the heavy keys exactly:
 * every key's references are counted, and a key that reaches 0.25/R of them
 * is promoted to weight 1 (if it was sampled, its mark is re-weighted; if
 * not, it is tracked from then on and the references it had before are
 * part of the SHARDS-adj difference). Weights are kept in units of
 * 1/MRC_Q so 1/R need not be an integer. Neighbours: sim.c (feeds it),
 * cli/cmd_simulate.c (prints it).
 */
#include "sim/sim_int.h"

#include <math.h>

#define MRC_Q 16u             /* weight of one key when sampling */
#define MRC_HEAVY 0x80000000u /* in cnt: the key is tracked exactly */
/*
 * A key is promoted to exact tracking after max(MRC_PROMOTE / R,
 * MRC_PROMOTE_MIN) references; the reference that promotes it counts as
 * a miss (its previous one was not tracked). On the reference trace (Zipf
 * 1.0, 10 M requests, R = 0.01) a threshold of 4 / R left a mean absolute
 * error of 0.002-0.017 depending on the hash seed, 1 / R 0.002-0.008,
 * 0.25 / R 0.001-0.005 (bench_sim shards, sizes 1/R..all keys); the floor
 * of 64 keeps the misses counted at promotion rare at high rates.
 */
#define MRC_PROMOTE 0.25
#define MRC_PROMOTE_MIN 64.0
/*
 * Histogram updates are delayed by MRC_PENDING references (a power of
 * two): hist[d] is prefetched when d is known and added to later, so the
 * cache miss on a long distance's counter (hist spans the distinct keys:
 * 6 MB on the reference trace) overlaps with the next references' work
 * instead of stalling this one. sim_mrc_hit_ratio flushes them.
 */
#define MRC_PENDING 16u

struct sim_mrc {
    double rate;            /* sampling rate R, 1 = exact */
    struct sim_sampler smp; /* which keys are sampled */
    uint32_t q;             /* weight of an exactly tracked key (1 exact) */
    uint32_t w_s;           /* weight of a hash-sampled key: q / R */
    uint32_t promote;       /* references that make a key heavy */
    uint32_t *fen;          /* Fenwick tree of mark weights, 1-based over
                               [1, cap] (owned) */
    uint32_t *key_at;       /* sampling: position → key + 1 of the
                               reference made there; a mark only if
                               last[key] still points here (stale entries
                               are not cleared, saving a random write)
                               (owned) */
    uint32_t *wrank;        /* exact mode, for rebuilds: marks before
                               each 64-position word (owned) */
    uint64_t *bits;         /* exact mode: one bit per position, set =
                               a mark (owned) */
    uint64_t *bcnt;         /* exact mode: marks per 64-position block,
                               one byte each, 8 to a word: block b at
                               bits 8 (b % 8) of bcnt[b / 8] (owned) */
    uint32_t *sfen;         /* exact mode: Fenwick tree of marks per
                               512-position superblock (8 blocks),
                               1-based (owned). Only closed blocks (below
                               now / 64) are counted in both: the open
                               one, where new marks go, joins when it
                               fills (bit_push), and the distance query
                               counts its marks from the bitmap. bcnt and
                               sfen are 1/64 and 1/128 of the positions'
                               bytes, so the tree stays in L1 */
    uint64_t cap;           /* positions available (a multiple of 64) */
    uint64_t now;           /* last position used */
    uint64_t n_live;        /* keys in the stack (marks) */
    uint64_t live_w;        /* their total weight */
    uint64_t max_live_w;    /* the largest total weight seen */
    struct sim_keymap last; /* key → position of its mark, 0 = none */
    struct sim_keymap cnt;  /* sampling: key → references | MRC_HEAVY */
    uint64_t *hist;         /* hist[d]: weight of counted refs at distance
                               d (owned) */
    uint64_t hist_n;        /* entries allocated */
    struct {
        uint64_t d;      /* distance (0 with w 0: an empty slot) */
        uint64_t w;      /* weight not yet added to hist[d] */
    } pend[MRC_PENDING]; /* delayed hist updates, a ring */
    uint64_t pend_at;    /* updates delayed so far */
    uint64_t refs_total; /* counted refs, tracked or not */
    uint64_t w_counted;  /* weight of the counted refs tracked */
    double *cum;         /* cum[d] = hit weight at distance <= d */
    uint64_t cum_n;      /* entries of cum valid; 0 = rebuild */
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
    sim_sampler_init(&m->smp, sample_rate, seed);
    if (sample_rate < 1.0) {
        double ws = MRC_Q / sample_rate, pr = ceil(MRC_PROMOTE / sample_rate);
        if (pr < MRC_PROMOTE_MIN)
            pr = MRC_PROMOTE_MIN;
        m->q = MRC_Q;
        m->w_s = ws > 1e6 ? 1000000u : (uint32_t)llround(ws);
        m->promote = pr > 1e6 ? 1000000u : (uint32_t)pr;
    } else {
        m->q = m->w_s = 1;
    }
    m->cap = 1u << 16;
    if (sample_rate < 1.0) {
        m->fen = pt_calloc(m->cap + 1, sizeof(*m->fen));
    } else {
        m->bits = pt_calloc(m->cap / 64, sizeof(*m->bits));
        m->bcnt = pt_calloc(m->cap / 512, sizeof(*m->bcnt));
        m->sfen = pt_calloc(m->cap / 512 + 1, sizeof(*m->sfen));
        m->wrank = pt_calloc(m->cap / 64, sizeof(*m->wrank));
    }
    if (m->fen)
        m->key_at = pt_calloc(m->cap + 1, sizeof(*m->key_at));
    if ((!m->fen && !m->bits) || (m->fen && !m->key_at) ||
        (m->bits && (!m->bcnt || !m->sfen || !m->wrank))) {
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
    free(m->bits);
    free(m->bcnt);
    free(m->sfen);
    free(m->key_at);
    free(m->wrank);
    sim_keymap_release(&m->last);
    sim_keymap_release(&m->cnt);
    free(m->hist);
    free(m->cum);
    free(m);
}

static inline void fen_add(uint32_t *fen, uint64_t cap, uint64_t i,
                           int64_t delta)
{
    for (; i <= cap; i += i & (~i + 1))
        fen[i] = (uint32_t)((int64_t)fen[i] + delta);
}

/*
 * Weight of the marks in (a, b], a <= b: prefix(b) - prefix(a), walking
 * both down until the walks meet, so only O(log(b - a)) nodes are read —
 * for the short distances that dominate real traces, nodes near `now`
 * that stay cached.
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

/* Set bits of x: the instruction where the build targets it, else SWAR
   (not libgcc's out-of-line __popcountdi2). */
static inline uint64_t popcount64(uint64_t x)
{
#if defined(__POPCNT__) || !defined(__x86_64__)
    return (uint64_t)__builtin_popcountll(x);
#else
    x -= (x >> 1) & 0x5555555555555555ULL;
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
    x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0fULL;
    return (x * 0x0101010101010101ULL) >> 56;
#endif
}

/* Sum of the 8 byte counts in a bcnt word (each <= 64). */
static inline uint64_t bcnt_sum(uint64_t x)
{
    x = (x & 0x00ff00ff00ff00ffULL) + ((x >> 8) & 0x00ff00ff00ff00ffULL);
    return (x * 0x0001000100010001ULL) >> 48;
}

/* Weight of the marks in 1..b of a tree. */
static inline uint64_t fen_prefix(const uint32_t *fen, uint64_t b)
{
    uint64_t s = 0;

    for (; b; b &= b - 1)
        s += fen[b];
    return s;
}

static inline int sampled(const struct sim_mrc *m, uint32_t key)
{
    return sim_sampler_has(&m->smp, key);
}

/* The weight of key's mark now (0: not tracked). */
static inline uint32_t key_weight(const struct sim_mrc *m, uint32_t key)
{
    if (m->rate >= 1.0)
        return 1;
    if (sim_keymap_get(&m->cnt, key) & MRC_HEAVY)
        return m->q;
    return sampled(m, key) ? m->w_s : 0;
}

/* Renumber the live marks 1..n_live, growing the time axis if needed. */
static int mrc_compact(struct sim_mrc *m)
{
    uint64_t i, j = 0, cap = m->cap, nb;

    if (m->n_live * 3 > m->cap) {
        uint32_t *k;
        cap = m->cap * 2;
        if (m->fen) {
            uint32_t *f = pt_realloc(m->fen, (cap + 1) * sizeof(*f));
            if (!f)
                return PT_EINTERNAL;
            m->fen = f;
            k = pt_realloc(m->key_at, (cap + 1) * sizeof(*k));
            if (!k)
                return PT_EINTERNAL;
            m->key_at = k;
            sim_huge_pages(k, (cap + 1) * sizeof(*k));
            memset(m->key_at + m->cap + 1, 0, (cap - m->cap) * sizeof(*k));
        } else {
            uint64_t *b = pt_realloc(m->bits, cap / 64 * sizeof(*b)), *bc;
            uint32_t *sf;
            if (!b)
                return PT_EINTERNAL;
            m->bits = b;
            bc = pt_realloc(m->bcnt, cap / 512 * sizeof(*bc));
            if (!bc)
                return PT_EINTERNAL;
            m->bcnt = bc;
            sf = pt_realloc(m->sfen, (cap / 512 + 1) * sizeof(*sf));
            if (!sf)
                return PT_EINTERNAL;
            m->sfen = sf;
            k = pt_realloc(m->wrank, cap / 64 * sizeof(*k));
            if (!k)
                return PT_EINTERNAL;
            m->wrank = k;
        }
    }
    if (m->fen)
        memset(m->fen, 0, (cap + 1) * sizeof(*m->fen));
    /* exact mode: a mark's new position is its rank among the marks —
       the marks before its 64-position word (wrank, one sequential pass
       over the bitmap) and those in the word up to it — so every key's
       position is renumbered in place, one sequential pass over last */
    for (i = 0; m->bits && i < (m->now + 63) / 64; i++) {
        m->wrank[i] = (uint32_t)j;
        j += popcount64(m->bits[i]);
    }
    for (i = 0; m->bits && i < m->last.n; i++) {
        uint64_t p = m->last.v[i], w = (p - 1) >> 6;
        if (p)
            m->last.v[i] = m->wrank[w] +
                           (uint32_t)popcount64(
                               m->bits[w] & (~0ULL >> (63 - ((p - 1) & 63))));
    }
    for (i = 1; !m->bits && i <= m->now; i++) {
        uint32_t k = m->key_at[i];
        m->key_at[i] = 0;
        if (!k || m->last.v[k - 1] != i)
            continue; /* no mark here, or the key has a later one */
        m->key_at[++j] = k;
        m->last.v[k - 1] = (uint32_t)j;
        if (m->fen)
            m->fen[j] = key_weight(m, k - 1);
    }
    m->cap = cap;
    m->now = j;
    if (m->fen) {
        /* linear-time Fenwick build from the weights at 1..j */
        for (i = 1; i <= cap; i++) {
            uint64_t up = i + (i & (~i + 1));
            if (up <= cap)
                m->fen[up] += m->fen[i];
        }
        return 0;
    }
    /* marks at positions 1..j are bits 0..j-1 */
    nb = cap / 64;
    memset(m->bcnt, 0, nb / 8 * sizeof(*m->bcnt));
    for (i = 0; i < nb; i++) {
        uint64_t lo = i * 64;
        m->bits[i] = j >= lo + 64 ? ~0ULL : j > lo ? (1ULL << (j - lo)) - 1 : 0;
        /* the open block j / 64 (holding position j + 1) stays out */
        if (i < j / 64)
            m->bcnt[i / 8] |= popcount64(m->bits[i]) << (8 * (i % 8));
    }
    nb /= 8;
    m->sfen[0] = 0;
    for (i = 0; i < nb; i++)
        m->sfen[i + 1] = (uint32_t)bcnt_sum(m->bcnt[i]);
    for (i = 1; i <= nb; i++) {
        uint64_t up = i + (i & (~i + 1));
        if (up <= nb)
            m->sfen[up] += m->sfen[i];
    }
    return 0;
}

static int hist_grow(struct sim_mrc *m, uint64_t d)
{
    uint64_t n = m->hist_n ? m->hist_n : 1024;
    uint64_t *h;

    while (n <= d)
        n *= 2;
    h = pt_realloc(m->hist, n * sizeof(*h));
    if (!h)
        return PT_EINTERNAL;
    sim_huge_pages(h, n * sizeof(*h));
    memset(h + m->hist_n, 0, (n - m->hist_n) * sizeof(*h));
    m->hist = h;
    m->hist_n = n;
    return 0;
}

/*
 * hist[d] += w, MRC_PENDING references later (see MRC_PENDING): the
 * counter is prefetched now and the oldest delayed update is applied.
 * Every delayed d is below hist_n, which only grows.
 */
static inline int hist_add(struct sim_mrc *m, uint64_t d, uint32_t w)
{
    uint64_t i = m->pend_at++ & (MRC_PENDING - 1);

    if (d >= m->hist_n && hist_grow(m, d))
        return PT_EINTERNAL;
    __builtin_prefetch(&m->hist[d], 1);
    m->hist[m->pend[i].d] += m->pend[i].w;
    m->pend[i].d = d;
    m->pend[i].w = w;
    return 0;
}

/* Apply the delayed updates (before hist is read). */
static void hist_flush(struct sim_mrc *m)
{
    if (!m->hist)
        return;
    for (unsigned i = 0; i < MRC_PENDING; i++) {
        m->hist[m->pend[i].d] += m->pend[i].w;
        m->pend[i].d = m->pend[i].w = 0;
    }
}

static int add_mark(struct sim_mrc *m, uint32_t key, uint32_t w)
{
    if (m->now == m->cap && mrc_compact(m))
        return PT_EINTERNAL;
    m->now++;
    fen_add(m->fen, m->cap, m->now, w);
    m->key_at[m->now] = key + 1; /* add_mark: the sampled mode's */
    m->last.v[key] = (uint32_t)m->now;
    m->n_live++;
    m->live_w += w;
    if (m->live_w > m->max_live_w)
        m->max_live_w = m->live_w;
    return 0;
}

/*
 * Exact mode: marks in positions (pos, now], 1-based, pos <= now. Counted
 * as all marks (n_live) less those at or before pos, which lie in closed
 * blocks but pos's own: the superblocks before its superblock (a prefix
 * of sfen), its superblock's blocks before its block (bytes of one bcnt
 * word) and its block's bits up to pos. One prefix walk, and no part
 * depends on where now is, so no branch on how far apart they are.
 */
static inline uint64_t marks_after(const struct sim_mrc *m, uint64_t pos)
{
    uint64_t p0 = pos - 1, b = p0 >> 6, upto = m->n_live;
    uint64_t below = (1ULL << (8 * (b % 8))) - 1;

    upto -= fen_prefix(m->sfen, b / 8);
    upto -= bcnt_sum(m->bcnt[b / 8] & below);
    upto -= popcount64(m->bits[b] & (~0ULL >> (63 - (p0 & 63))));
    return upto;
}

static inline void bit_clear(struct sim_mrc *m, uint64_t pos)
{
    uint64_t b = (pos - 1) >> 6;

    m->bits[b] &= ~(1ULL << ((pos - 1) & 63));
    if (b < m->now >> 6) { /* a closed block: counted in bcnt and sfen */
        m->bcnt[b / 8] -= 1ULL << (8 * (b % 8));
        fen_add(m->sfen, m->cap / 512, b / 8 + 1, -1);
    }
}

/* Exact mode: a mark at the next position, now + 1. */
static inline void bit_push(struct sim_mrc *m)
{
    uint64_t pos = ++m->now, b = (pos - 1) >> 6, c;

    m->bits[b] |= 1ULL << ((pos - 1) & 63);
    if ((pos & 63) == 0) { /* block b is full: it closes */
        c = popcount64(m->bits[b]);
        m->bcnt[b / 8] += c << (8 * (b % 8));
        fen_add(m->sfen, m->cap / 512, b / 8 + 1, (int64_t)c);
    }
}

static int mrc_access_exact(struct sim_mrc *m, uint32_t key, int counted)
{
    uint64_t pos = m->last.v[key];

    m->cum_n = 0;
    if (counted)
        m->w_counted++;
    if (pos) {
        uint64_t d = marks_after(m, pos) + 1;
        bit_clear(m, pos);
        m->last.v[key] = 0; /* its entry at pos is stale from now on */
        m->n_live--;
        m->live_w--;
        if (counted && hist_add(m, d, 1))
            return PT_EINTERNAL;
    }
    if (m->now == m->cap && mrc_compact(m))
        return PT_EINTERNAL;
    bit_push(m);
    pos = m->now;
    m->last.v[key] = (uint32_t)pos;
    m->n_live++;
    if (++m->live_w > m->max_live_w)
        m->max_live_w = m->live_w;
    return 0;
}

int sim_mrc_access(struct sim_mrc *m, uint32_t key, int counted)
{
    uint64_t pos;
    uint32_t w = 1;

    m->refs_total += (uint64_t)(counted != 0);
    if (sim_keymap_reserve(&m->last, key))
        return PT_EINTERNAL;
    if (m->rate >= 1.0)
        return mrc_access_exact(m, key, counted);
    {
        uint32_t c;
        int is_sampled = sampled(m, key);
        if (sim_keymap_reserve(&m->cnt, key))
            return PT_EINTERNAL;
        c = m->cnt.v[key];
        if (!(c & MRC_HEAVY) && ++c >= m->promote) {
            /* promote: from now on this key is tracked exactly */
            m->cnt.v[key] = MRC_HEAVY;
            pos = m->last.v[key];
            if (pos) { /* re-weight the sampled key's mark */
                fen_add(m->fen, m->cap, pos, (int64_t)m->q - m->w_s);
                m->live_w = m->live_w - m->w_s + m->q;
            } else { /* start tracking; this reference's distance is
                        unknown: it counts as a miss */
                m->cum_n = 0;
                if (counted)
                    m->w_counted += m->q;
                return add_mark(m, key, m->q);
            }
            c = MRC_HEAVY;
        }
        m->cnt.v[key] = c;
        w = (c & MRC_HEAVY) ? m->q : is_sampled ? m->w_s : 0;
        if (!w)
            return 0;
    }
    m->cum_n = 0;
    if (counted)
        m->w_counted += w;
    pos = m->last.v[key];
    if (pos) {
        uint64_t dw = fen_range(m->fen, pos, m->now);
        fen_add(m->fen, m->cap, pos, -(int64_t)w);
        m->last.v[key] = 0; /* its entry at pos is stale from now on */
        m->n_live--;
        m->live_w -= w;
        if (counted && hist_add(m, dw / m->q + 1, w))
            return PT_EINTERNAL;
    }
    return add_mark(m, key, w);
}

void sim_mrc_prefetch(const struct sim_mrc *m, uint32_t key, int stage)
{
    uint64_t pos;

    if (stage == 0) {
        sim_keymap_prefetch(&m->last, key);
        return;
    }
    /* stage 1: the key's mark, whose bit (or weight) this reference clears,
       and the first Fenwick node of that update; a hint only (the mark may
       move before the reference is made) */
    pos = sim_keymap_get(&m->last, key);
    if (!pos || pos > m->cap)
        return;
    if (m->bits) {
        __builtin_prefetch(&m->bits[(pos - 1) >> 6], 1);
        __builtin_prefetch(&m->bcnt[(pos - 1) >> 9], 1);
    } else {
        __builtin_prefetch(&m->fen[pos], 1);
    }
}

void sim_mrc_remove(struct sim_mrc *m, uint32_t key)
{
    uint64_t pos = sim_keymap_get(&m->last, key);
    uint32_t w;

    if (!pos)
        return;
    w = key_weight(m, key);
    m->cum_n = 0;
    if (m->bits)
        bit_clear(m, pos);
    else
        fen_add(m->fen, m->cap, pos, -(int64_t)w);
    if (m->key_at)
        m->key_at[pos] = 0;
    m->last.v[key] = 0;
    m->n_live--;
    m->live_w -= w;
}

uint64_t sim_mrc_refs(const struct sim_mrc *m)
{
    return m->refs_total;
}

uint64_t sim_mrc_max_size(const struct sim_mrc *m)
{
    return (m->max_live_w + m->q - 1) / m->q;
}

double sim_mrc_hit_ratio(struct sim_mrc *m, uint64_t size)
{
    double expected, hits;
    uint64_t d, i;

    if (!m->refs_total)
        return 0.0;
    if (!m->cum_n) {
        uint64_t n = m->hist_n ? m->hist_n : 1;
        hist_flush(m);
        double *c = pt_realloc(m->cum, n * sizeof(*c));
        if (!c)
            return 0.0;
        m->cum = c;
        c[0] = 0.0;
        for (i = 1; i < n; i++)
            c[i] = c[i - 1] + (double)m->hist[i];
        m->cum_n = n;
    }
    d = size < m->cum_n ? size : m->cum_n - 1;
    hits = m->cum[d];
    /*
     * Exact: 1 - misses / references, the same expression as a fixed
     * run's hit ratio (sim_db_hit_ratio; 1 - sim_app_miss_ratio), so the
     * two agree to the last digit where the LRU runs agree in counts
     * (hits / references may round differently).
     */
    if (m->rate >= 1.0)
        return 1.0 -
               (double)(m->refs_total - (uint64_t)hits) / (double)m->refs_total;
    /* SHARDS-adj: the first bucket absorbs expected - actual weight */
    expected = (double)m->refs_total * m->q;
    if (size >= 1)
        hits += expected - (double)m->w_counted;
    hits /= expected;
    return hits < 0.0 ? 0.0 : hits > 1.0 ? 1.0 : hits;
}
