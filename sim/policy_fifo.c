/* SPDX-License-Identifier: Apache-2.0 */
/*
 * policy_fifo.c — first in, first out: entries leave in insertion order;
 * a hit changes nothing. Also the base of CLOCK (policy_clock.c) and of the
 * queues inside S3-FIFO. Neighbours: sim_int.h, policy.c.
 */
#include "sim/sim_int.h"

extern const struct sim_policy_ops sim_policy_fifo;

static struct sim_policy *fifo_create(uint64_t capacity, uint64_t seed)
{
    (void)seed;
    return sim_listpol_new(&sim_policy_fifo, capacity,
                           sizeof(struct sim_listpol));
}

static int fifo_access(struct sim_policy *p, uint32_t key, uint32_t *victim)
{
    struct sim_listpol *c = (struct sim_listpol *)p;
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

const struct sim_policy_ops sim_policy_fifo = {
    .name = "fifo",
    .summary = "first in, first out",
    .create = fifo_create,
    .access = fifo_access,
    .contains = sim_listpol_contains,
    .remove = sim_listpol_remove,
    .count = sim_listpol_count,
    .prefetch = sim_listpol_prefetch,
    .destroy = sim_listpol_destroy,
};
