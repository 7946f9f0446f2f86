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

static struct sim_policy *clock_create(uint64_t capacity, uint64_t seed)
{
    (void)seed;
    return sim_listpol_new(&sim_policy_clock, capacity,
                           sizeof(struct sim_listpol));
}

static int clock_access(struct sim_policy *p, uint32_t key, uint32_t *victim)
{
    struct sim_listpol *c = (struct sim_listpol *)p;
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

const struct sim_policy_ops sim_policy_clock = {
    .name = "clock",
    .summary = "CLOCK / second chance (Corbato 1968)",
    .create = clock_create,
    .access = clock_access,
    .contains = sim_listpol_contains,
    .remove = sim_listpol_remove,
    .count = sim_listpol_count,
    .prefetch = sim_listpol_prefetch,
    .destroy = sim_listpol_destroy,
};
