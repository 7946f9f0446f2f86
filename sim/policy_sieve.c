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
    struct sim_listpol lp; /* first: the shared list bookkeeping */
    uint32_t hand;         /* next node to examine, 0 = start at the tail */
};

static struct sim_policy *sieve_create(uint64_t capacity, uint64_t seed)
{
    (void)seed;
    return sim_listpol_new(&sim_policy_sieve, capacity, sizeof(struct sieve));
}

static int sieve_access(struct sim_policy *p, uint32_t key, uint32_t *victim)
{
    struct sieve *s = (struct sieve *)p;
    struct sim_listpol *c = &s->lp;
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
        uint32_t h = s->hand ? s->hand : c->l.tail;
        while (nd[h].freq) {
            nd[h].freq = 0;
            h = nd[h].prev ? nd[h].prev : c->l.tail;
        }
        s->hand = nd[h].prev;
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

/* Like sim_listpol_remove, but a hand on the node steps to its neighbour
 * towards the head first, as an eviction would leave it. */
static int sieve_remove(struct sim_policy *p, uint32_t key)
{
    struct sieve *s = (struct sieve *)p;
    uint32_t i = sim_keymap_get(&s->lp.map, key);

    if (i && s->hand == i)
        s->hand = s->lp.pool.nd[i].prev;
    return sim_listpol_remove(p, key);
}

const struct sim_policy_ops sim_policy_sieve = {
    .name = "sieve",
    .summary = "SIEVE (Zhang et al., NSDI '24)",
    .create = sieve_create,
    .access = sieve_access,
    .contains = sim_listpol_contains,
    .remove = sieve_remove,
    .count = sim_listpol_count,
    .prefetch = sim_listpol_prefetch,
    .destroy = sim_listpol_destroy,
};
