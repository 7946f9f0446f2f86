/* SPDX-License-Identifier: Apache-2.0 */
/*
 * policy_fifo.c — first in, first out: entries leave in insertion order;
 * a hit changes nothing. Also the base of CLOCK (policy_clock.c) and of the
 * queues inside S3-FIFO. Neighbours: sim_int.h, policy.c.
 */
#include "sim/sim_int.h"

extern const struct sim_policy_ops sim_policy_fifo;

struct fifo {
    struct sim_policy base;
    struct sim_pool pool;
    struct sim_list l;
    struct sim_keymap map; /* key → node */
};

static struct sim_policy *fifo_create(uint64_t capacity, uint64_t seed)
{
    struct fifo *c = pt_calloc(1, sizeof(*c));

    (void)seed;
    if (!c)
        return NULL;
    if (sim_pool_init(&c->pool, capacity)) {
        free(c);
        return NULL;
    }
    c->base.ops = &sim_policy_fifo;
    c->base.capacity = capacity;
    return &c->base;
}

static int fifo_access(struct sim_policy *p, uint32_t key, uint32_t *victim)
{
    struct fifo *c = (struct fifo *)p;
    struct sim_node *nd = c->pool.nd;
    uint32_t i = sim_keymap_get(&c->map, key);

    *victim = SIM_NO_KEY;
    if (i)
        return 1;
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

static int fifo_contains(const struct sim_policy *p, uint32_t key)
{
    return sim_keymap_get(&((const struct fifo *)p)->map, key) != 0;
}

static int fifo_remove(struct sim_policy *p, uint32_t key)
{
    struct fifo *c = (struct fifo *)p;
    uint32_t i = sim_keymap_get(&c->map, key);

    if (!i)
        return 0;
    sim_list_unlink(c->pool.nd, &c->l, i);
    sim_pool_put(&c->pool, i);
    c->map.v[key] = 0;
    return 1;
}

static uint64_t fifo_count(const struct sim_policy *p)
{
    return ((const struct fifo *)p)->l.n;
}

static void fifo_destroy(struct sim_policy *p)
{
    struct fifo *c = (struct fifo *)p;

    if (!c)
        return;
    sim_pool_release(&c->pool);
    sim_keymap_release(&c->map);
    free(c);
}

static void fifo_prefetch(const struct sim_policy *p, uint32_t key, int stage)
{
    const struct fifo *c = (const struct fifo *)p;

    if (stage == 0)
        sim_keymap_prefetch(&c->map, key);
    else
        sim_pool_prefetch(&c->pool, &c->map, key);
}

const struct sim_policy_ops sim_policy_fifo = {
    .name = "fifo",
    .summary = "first in, first out",
    .create = fifo_create,
    .access = fifo_access,
    .contains = fifo_contains,
    .remove = fifo_remove,
    .count = fifo_count,
    .prefetch = fifo_prefetch,
    .destroy = fifo_destroy,
};
