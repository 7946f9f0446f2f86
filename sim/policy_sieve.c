/* SPDX-License-Identifier: Apache-2.0 */
/*
 * policy_sieve.c — SIEVE (Zhang, Yang, Yue, Vigfusson, Rashmi, "SIEVE is
 * Simpler than LRU: an Efficient Turn-Key Eviction Algorithm for Web
 * Caches", NSDI '24). A FIFO queue with a visited bit per entry and a hand
 * that survives between evictions: new entries go to the head unvisited; a
 * hit sets the bit; to evict, the hand walks from where it stopped towards
 * the head (wrapping to the tail), clearing set bits, and removes the
 * first unvisited entry, staying where it was. Unlike CLOCK, survivors are
 * not moved, so new entries near the head are examined soon ("quick
 * demotion"). Neighbours: sim_int.h, policy.c.
 */
#include "sim/sim_int.h"

extern const struct sim_policy_ops sim_policy_sieve;

struct sieve {
    struct sim_policy base;
    struct sim_pool pool;
    struct sim_list l;
    uint32_t hand;         /* next node to examine, 0 = start at the tail */
    struct sim_keymap map; /* key → node */
};

static struct sim_policy *sieve_create(uint64_t capacity, uint64_t seed)
{
    struct sieve *c = pt_calloc(1, sizeof(*c));

    (void)seed;
    if (!c)
        return NULL;
    if (sim_pool_init(&c->pool, capacity)) {
        free(c);
        return NULL;
    }
    c->base.ops = &sim_policy_sieve;
    c->base.capacity = capacity;
    return &c->base;
}

static void sieve_unlink(struct sieve *c, uint32_t i)
{
    if (c->hand == i)
        c->hand = c->pool.nd[i].prev;
    sim_list_unlink(c->pool.nd, &c->l, i);
}

static int sieve_access(struct sim_policy *p, uint32_t key, uint32_t *victim)
{
    struct sieve *c = (struct sieve *)p;
    struct sim_node *nd = c->pool.nd;
    uint32_t i = sim_keymap_get(&c->map, key);

    *victim = SIM_NO_KEY;
    if (i) {
        nd[i].freq = 1;
        return 1;
    }
    if (sim_keymap_reserve(&c->map, key))
        return PT_EINTERNAL;
    i = sim_pool_get(&c->pool);
    if (!i) {
        uint32_t h = c->hand ? c->hand : c->l.tail;
        while (nd[h].freq) {
            nd[h].freq = 0;
            h = nd[h].prev ? nd[h].prev : c->l.tail;
        }
        c->hand = nd[h].prev;
        i = h;
        *victim = nd[i].key;
        c->map.v[nd[i].key] = 0;
        sim_list_unlink(nd, &c->l, i);
    }
    nd[i].key = key;
    nd[i].freq = 0;
    sim_list_push_head(nd, &c->l, i);
    c->map.v[key] = i;
    return 0;
}

static int sieve_contains(const struct sim_policy *p, uint32_t key)
{
    return sim_keymap_get(&((const struct sieve *)p)->map, key) != 0;
}

static int sieve_remove(struct sim_policy *p, uint32_t key)
{
    struct sieve *c = (struct sieve *)p;
    uint32_t i = sim_keymap_get(&c->map, key);

    if (!i)
        return 0;
    sieve_unlink(c, i);
    sim_pool_put(&c->pool, i);
    c->map.v[key] = 0;
    return 1;
}

static uint64_t sieve_count(const struct sim_policy *p)
{
    return ((const struct sieve *)p)->l.n;
}

static void sieve_destroy(struct sim_policy *p)
{
    struct sieve *c = (struct sieve *)p;

    if (!c)
        return;
    sim_pool_release(&c->pool);
    sim_keymap_release(&c->map);
    free(c);
}

static void sieve_prefetch(const struct sim_policy *p, uint32_t key, int stage)
{
    const struct sieve *c = (const struct sieve *)p;

    if (stage == 0)
        sim_keymap_prefetch(&c->map, key);
    else
        sim_pool_prefetch(&c->pool, &c->map, key);
}

const struct sim_policy_ops sim_policy_sieve = {
    .name = "sieve",
    .summary = "SIEVE (Zhang et al., NSDI '24)",
    .create = sieve_create,
    .access = sieve_access,
    .contains = sieve_contains,
    .remove = sieve_remove,
    .count = sieve_count,
    .prefetch = sieve_prefetch,
    .destroy = sieve_destroy,
};
