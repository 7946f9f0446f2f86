/* SPDX-License-Identifier: Apache-2.0 */
/*
 * policy_list.c — bookkeeping shared by the list-based policies (LRU,
 * FIFO, CLOCK, SIEVE): creation, membership, removal, count, teardown and
 * prefetch over struct sim_listpol. Each policy keeps only its access
 * (and SIEVE its removal, which must move the hand).
 */
#include "sim/sim_int.h"

#include <stdlib.h>

struct sim_policy *sim_listpol_new(const struct sim_policy_ops *ops,
                                   uint64_t capacity, size_t size)
{
    struct sim_listpol *c = pt_calloc(1, size);

    if (!c)
        return NULL;
    if (sim_pool_init(&c->pool, capacity)) {
        free(c);
        return NULL;
    }
    c->base.ops = ops;
    c->base.capacity = capacity;
    return &c->base;
}

int sim_listpol_contains(const struct sim_policy *p, uint32_t key)
{
    return sim_keymap_get(&((const struct sim_listpol *)p)->map, key) != 0;
}

int sim_listpol_remove(struct sim_policy *p, uint32_t key)
{
    struct sim_listpol *c = (struct sim_listpol *)p;
    uint32_t i = sim_keymap_get(&c->map, key);

    if (!i)
        return 0;
    sim_list_unlink(c->pool.nd, &c->l, i);
    sim_pool_put(&c->pool, i);
    c->map.v[key] = 0;
    return 1;
}

uint64_t sim_listpol_count(const struct sim_policy *p)
{
    return ((const struct sim_listpol *)p)->l.n;
}

void sim_listpol_destroy(struct sim_policy *p)
{
    struct sim_listpol *c = (struct sim_listpol *)p;

    if (!c)
        return;
    sim_pool_release(&c->pool);
    sim_keymap_release(&c->map);
    free(c);
}

void sim_listpol_prefetch(const struct sim_policy *p, uint32_t key, int stage)
{
    const struct sim_listpol *c = (const struct sim_listpol *)p;

    if (stage == 0)
        sim_keymap_prefetch(&c->map, key);
    else
        sim_pool_prefetch(&c->pool, &c->map, key);
}
