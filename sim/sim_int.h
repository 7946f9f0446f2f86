/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sim_int.h — internals shared by sim/'s policy files and the driver: the
 * key → slot map (a flat array indexed by the dense key ids the trace
 * reader hands out) and intrusive doubly linked lists over a preallocated
 * node pool. Not a public header: only files in sim/ include it.
 */
#ifndef PT_SIM_INT_H
#define PT_SIM_INT_H

#include "sim/sim.h"

#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

/*
 * sim_run with a second reason to stop besides a recorded interrupt: a
 * non-zero *halt (another share of a plan failed) ends the run with
 * PT_EINTR too. halt may be NULL (sim_run).
 */
int64_t sim_run_halt(struct sim_trace_reader *r, struct sim *const *sims,
                     size_t n, pt_progress_fn *progress, void *ctx,
                     const atomic_int *halt, struct pt_err *err);

/* ---- large tables ---------------------------------------------------- */

/*
 * Ask for transparent huge pages on a table of `bytes` at p, when it is
 * large (>= 4 MiB) and the system has them. The simulator's big tables
 * (the reader's intern table, key maps, the curve's time axis and
 * histogram) are read at random, one line per request each, and with
 * 4 KiB pages nearly every such read also misses the TLB: a page walk on
 * top of the cache miss, which a prefetch cannot always hide. Where
 * transparent huge pages are "madvise" (a common default), only tables
 * marked so get them. A hint: failures are ignored, nothing else changes.
 * (huge.c: madvise(2) needs _DEFAULT_SOURCE, which the rest of the code
 * does not define.)
 */
void sim_huge_pages(void *p, size_t bytes);

/* ---- key map: key id → uint32 value (0 = absent) ----------------------- */

struct sim_keymap {
    uint32_t *v; /* n entries, owned */
    uint64_t n;
};

static inline uint32_t sim_keymap_get(const struct sim_keymap *m, uint32_t key)
{
    return key < m->n ? m->v[key] : 0;
}

/* Grow to cover `key` (doubling, amortised). 0 or PT_EINTERNAL. */
static inline int sim_keymap_reserve(struct sim_keymap *m, uint32_t key)
{
    uint64_t n;
    uint32_t *v;

    if (key < m->n)
        return 0;
    n = m->n ? m->n : 1024;
    while (n <= key)
        n *= 2;
    v = pt_realloc(m->v, n * sizeof(*v));
    if (!v)
        return PT_EINTERNAL;
    sim_huge_pages(v, n * sizeof(*v));
    memset(v + m->n, 0, (n - m->n) * sizeof(*v));
    m->v = v;
    m->n = n;
    return 0;
}

static inline void sim_keymap_prefetch(const struct sim_keymap *m, uint32_t key)
{
    if (key < m->n)
        __builtin_prefetch(&m->v[key]);
}

static inline void sim_keymap_release(struct sim_keymap *m)
{
    free(m->v);
    m->v = NULL;
    m->n = 0;
}

/* ---- node pool and lists ------------------------------------------------ */

/* A cached (or ghost) entry. Index 0 is "nil"; nodes are 1-based. */
struct sim_node {
    uint32_t prev;  /* towards the head (more recent) */
    uint32_t next;  /* towards the tail (older) */
    uint32_t key;   /* key id */
    uint8_t freq;   /* reference bit / small counter, policy-defined */
    uint8_t queue;  /* which list the node is on, policy-defined */
    uint16_t spare; /* padding */
};

struct sim_list {
    uint32_t head; /* most recently inserted / used */
    uint32_t tail; /* oldest: eviction end */
    uint64_t n;    /* nodes on the list */
};

static inline void sim_list_push_head(struct sim_node *nd, struct sim_list *l,
                                      uint32_t i)
{
    nd[i].prev = 0;
    nd[i].next = l->head;
    if (l->head)
        nd[l->head].prev = i;
    else
        l->tail = i;
    l->head = i;
    l->n++;
}

static inline void sim_list_unlink(struct sim_node *nd, struct sim_list *l,
                                   uint32_t i)
{
    if (nd[i].prev)
        nd[nd[i].prev].next = nd[i].next;
    else
        l->head = nd[i].next;
    if (nd[i].next)
        nd[nd[i].next].prev = nd[i].prev;
    else
        l->tail = nd[i].prev;
    l->n--;
}

static inline void sim_list_move_head(struct sim_node *nd, struct sim_list *l,
                                      uint32_t i)
{
    if (l->head == i)
        return;
    sim_list_unlink(nd, l, i);
    sim_list_push_head(nd, l, i);
}

/*
 * A free list threaded through `next`, over a pool of `cap` nodes
 * allocated once at create time (the access path never allocates nodes).
 */
struct sim_pool {
    struct sim_node *nd; /* cap + 1 nodes, [0] unused (owned) */
    uint32_t free_head;  /* first free node, 0 = none */
    uint32_t n_fresh;    /* nodes never used yet: 1..n_fresh taken */
    uint32_t cap;
};

static inline int sim_pool_init(struct sim_pool *p, uint64_t cap)
{
    if (cap >= UINT32_MAX - 1)
        return PT_EINTERNAL;
    p->nd = pt_calloc(cap + 1, sizeof(*p->nd));
    p->free_head = 0;
    p->n_fresh = 0;
    p->cap = (uint32_t)cap;
    return p->nd ? 0 : PT_EINTERNAL;
}

/* A free node index, or 0 when all are in use. */
static inline uint32_t sim_pool_get(struct sim_pool *p)
{
    uint32_t i = p->free_head;

    if (i) {
        p->free_head = p->nd[i].next;
        return i;
    }
    if (p->n_fresh < p->cap)
        return ++p->n_fresh;
    return 0;
}

static inline void sim_pool_put(struct sim_pool *p, uint32_t i)
{
    p->nd[i].next = p->free_head;
    p->free_head = i;
}

/*
 * Prefetch stage 1: the key map's line should be cached by now (stage 0
 * ran a few requests earlier); start loading the key's node.
 */
static inline void sim_pool_prefetch(const struct sim_pool *p,
                                     const struct sim_keymap *m, uint32_t key)
{
    uint32_t i = sim_keymap_get(m, key);

    if (i)
        __builtin_prefetch(&p->nd[i]);
}

static inline void sim_pool_release(struct sim_pool *p)
{
    free(p->nd);
    p->nd = NULL;
}

/* ---- small helpers ------------------------------------------------------ */

/* splitmix64 finaliser: the simulator's hash (sampling, random victims). */
static inline uint64_t sim_mix64(uint64_t x)
{
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebULL;
    x ^= x >> 31;
    return x;
}

/*
 * Spatial sampling (SHARDS, FAST '15): a key is in the sample iff the hash
 * of its id with the seed's salt falls under R x 2^32. The LRU curve
 * (mrc.c) and the miniature simulations (mini.c) share it, so one seed
 * samples the same keys in both.
 */
struct sim_sampler {
    uint64_t threshold; /* sampled iff hash < threshold (of 2^32) */
    uint64_t salt;      /* hash seed */
};

static inline void sim_sampler_init(struct sim_sampler *s, double rate,
                                    uint64_t seed)
{
    s->threshold = (uint64_t)ldexp(rate, 32);
    s->salt = sim_mix64(seed ^ 0x5a4d5a4d5a4dULL);
}

/* The key's hash, 0..2^32-1: sampled at a rate iff below its threshold. */
static inline uint64_t sim_sampler_hash(const struct sim_sampler *s,
                                        uint32_t key)
{
    return sim_mix64((uint64_t)key ^ s->salt) & 0xffffffffu;
}

static inline int sim_sampler_has(const struct sim_sampler *s, uint32_t key)
{
    return sim_sampler_hash(s, key) < s->threshold;
}

/* xoshiro-style generator state for reproducible runs. */
struct sim_rng {
    uint64_t s;
};

static inline uint64_t sim_rng_next(struct sim_rng *r)
{
    r->s += 0x9e3779b97f4a7c15ULL;
    return sim_mix64(r->s);
}

/* Uniform double in [0, 1). */
static inline double sim_rng_unit(struct sim_rng *r)
{
    return (double)(sim_rng_next(r) >> 11) * (1.0 / 9007199254740992.0);
}

/*
 * A policy kept as one doubly linked list of pooled nodes plus a key map
 * (LRU, FIFO, CLOCK, SIEVE): they differ only in where access puts a node
 * and which one leaves, so the bookkeeping below (policy_list.c) is shared.
 * A policy with more state embeds this struct as its first member.
 */
struct sim_listpol {
    struct sim_policy base;
    struct sim_pool pool;
    struct sim_list l;
    struct sim_keymap map; /* key → node */
};
/* Allocate `size` zeroed bytes (>= sizeof(struct sim_listpol)) and a pool
 * of `capacity` nodes; NULL when out of memory. */
struct sim_policy *sim_listpol_new(const struct sim_policy_ops *ops,
                                   uint64_t capacity, size_t size);
int sim_listpol_contains(const struct sim_policy *p, uint32_t key);
int sim_listpol_remove(struct sim_policy *p, uint32_t key);
uint64_t sim_listpol_count(const struct sim_policy *p);
void sim_listpol_destroy(struct sim_policy *p);
void sim_listpol_prefetch(const struct sim_policy *p, uint32_t key, int stage);

#endif /* PT_SIM_INT_H */
