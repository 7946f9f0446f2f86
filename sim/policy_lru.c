/* SPDX-License-Identifier: Apache-2.0 */
/*
 * policy_lru.c — least recently used: one doubly linked list over a node
 * pool allocated at create time; a hit moves the entry to the head, a miss
 * evicts the tail when full. The baseline every other policy is compared
 * with, and the policy the exact miss-ratio curve (mrc.c) describes.
 * Neighbours: sim_int.h (list, pool, key map), policy.c (registry).
 */
#include "sim/sim_int.h"

extern const struct sim_policy_ops sim_policy_lru;

struct lru {
    struct sim_policy base;
    struct sim_pool pool;
    struct sim_list l;
    struct sim_keymap map; /* key → node */
};

static struct sim_policy *lru_create(uint64_t capacity, uint64_t seed)
{
    struct lru *c = pt_calloc(1, sizeof(*c));

    (void)seed;
    if (!c)
        return NULL;
    if (sim_pool_init(&c->pool, capacity)) {
        free(c);
        return NULL;
    }
    c->base.ops = &sim_policy_lru;
    c->base.capacity = capacity;
    return &c->base;
}

static int lru_access(struct sim_policy *p, uint32_t key, uint32_t *victim)
{
    struct lru *c = (struct lru *)p;
    struct sim_node *nd = c->pool.nd;
    uint32_t i = sim_keymap_get(&c->map, key);

    *victim = SIM_NO_KEY;
    if (i) {
        sim_list_move_head(nd, &c->l, i);
        return 1;
    }
    if (sim_keymap_reserve(&c->map, key))
        return PT_EINTERNAL;
    i = sim_pool_get(&c->pool);
    if (!i) {
        i = c->l.tail;
        *victim = nd[i].key;
        c->map.v[nd[i].key] = 0;
        sim_list_unlink(nd, &c->l, i);
    }
    nd[i].key = key;
    sim_list_push_head(nd, &c->l, i);
    c->map.v[key] = i;
    return 0;
}

static int lru_contains(const struct sim_policy *p, uint32_t key)
{
    return sim_keymap_get(&((const struct lru *)p)->map, key) != 0;
}

static int lru_remove(struct sim_policy *p, uint32_t key)
{
    struct lru *c = (struct lru *)p;
    uint32_t i = sim_keymap_get(&c->map, key);

    if (!i)
        return 0;
    sim_list_unlink(c->pool.nd, &c->l, i);
    sim_pool_put(&c->pool, i);
    c->map.v[key] = 0;
    return 1;
}

static uint64_t lru_count(const struct sim_policy *p)
{
    return ((const struct lru *)p)->l.n;
}

static void lru_destroy(struct sim_policy *p)
{
    struct lru *c = (struct lru *)p;

    if (!c)
        return;
    sim_pool_release(&c->pool);
    sim_keymap_release(&c->map);
    free(c);
}

static void lru_prefetch(const struct sim_policy *p, uint32_t key, int stage)
{
    const struct lru *c = (const struct lru *)p;

    if (stage == 0)
        sim_keymap_prefetch(&c->map, key);
    else
        sim_pool_prefetch(&c->pool, &c->map, key);
}

const struct sim_policy_ops sim_policy_lru = {
    .name = "lru",
    .summary = "least recently used",
    .create = lru_create,
    .access = lru_access,
    .contains = lru_contains,
    .remove = lru_remove,
    .count = lru_count,
    .prefetch = lru_prefetch,
    .destroy = lru_destroy,
};
