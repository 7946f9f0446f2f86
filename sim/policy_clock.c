/* SPDX-License-Identifier: Apache-2.0 */
/*
 * policy_clock.c — CLOCK (second chance; Corbató, "A paging experiment
 * with the Multics system", MIT Project MAC report MAC-M-384, 1968): a FIFO
 * whose entries carry a reference bit set on a hit. To evict, the oldest
 * entry is examined; if its bit is set the bit is cleared and the entry is
 * reinserted at the head, otherwise it leaves. Written as a list rather
 * than a circular array with a hand (the same order of victims), which is
 * also how libCacheSim's Clock.c does it (1-bit counter, new entries start
 * unreferenced). Neighbours: sim_int.h, policy.c.
 */
#include "sim/sim_int.h"

extern const struct sim_policy_ops sim_policy_clock;

struct clock {
    struct sim_policy base;
    struct sim_pool pool;
    struct sim_list l;
    struct sim_keymap map; /* key → node */
};

static struct sim_policy *clock_create(uint64_t capacity, uint64_t seed)
{
    struct clock *c = pt_calloc(1, sizeof(*c));

    (void)seed;
    if (!c)
        return NULL;
    if (sim_pool_init(&c->pool, capacity)) {
        free(c);
        return NULL;
    }
    c->base.ops = &sim_policy_clock;
    c->base.capacity = capacity;
    return &c->base;
}

static int clock_access(struct sim_policy *p, uint32_t key, uint32_t *victim)
{
    struct clock *c = (struct clock *)p;
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
        /* terminates: each pass clears one bit */
        while (nd[c->l.tail].freq) {
            uint32_t t = c->l.tail;
            nd[t].freq = 0;
            sim_list_move_head(nd, &c->l, t);
        }
        i = c->l.tail;
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

static int clock_contains(const struct sim_policy *p, uint32_t key)
{
    return sim_keymap_get(&((const struct clock *)p)->map, key) != 0;
}

static int clock_remove(struct sim_policy *p, uint32_t key)
{
    struct clock *c = (struct clock *)p;
    uint32_t i = sim_keymap_get(&c->map, key);

    if (!i)
        return 0;
    sim_list_unlink(c->pool.nd, &c->l, i);
    sim_pool_put(&c->pool, i);
    c->map.v[key] = 0;
    return 1;
}

static uint64_t clock_count(const struct sim_policy *p)
{
    return ((const struct clock *)p)->l.n;
}

static void clock_destroy(struct sim_policy *p)
{
    struct clock *c = (struct clock *)p;

    if (!c)
        return;
    sim_pool_release(&c->pool);
    sim_keymap_release(&c->map);
    free(c);
}

static void clock_prefetch(const struct sim_policy *p, uint32_t key, int stage)
{
    const struct clock *c = (const struct clock *)p;

    if (stage == 0)
        sim_keymap_prefetch(&c->map, key);
    else
        sim_pool_prefetch(&c->pool, &c->map, key);
}

const struct sim_policy_ops sim_policy_clock = {
    .name = "clock",
    .summary = "CLOCK / second chance (Corbato 1968)",
    .create = clock_create,
    .access = clock_access,
    .contains = clock_contains,
    .remove = clock_remove,
    .count = clock_count,
    .prefetch = clock_prefetch,
    .destroy = clock_destroy,
};
