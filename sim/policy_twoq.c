/* SPDX-License-Identifier: Apache-2.0 */
/*
 * policy_twoq.c — 2Q, full version (Johnson and Shasha, "2Q: A Low
 * Overhead High Performance Buffer Management Replacement Algorithm",
 * VLDB '94, §2.2). A1in is a FIFO of entries seen once (Kin = 25 % of the
 * entries), Am an LRU of entries seen again, A1out a FIFO of keys evicted
 * from A1in (Kout = 50 % of the capacity, ghosts). A miss whose key is in
 * A1out goes to Am; any other miss to A1in. When full, A1in gives up its
 * oldest entry if it holds more than Kin (its key goes to A1out), else Am
 * gives up its least recent. A hit in A1in changes nothing (correlated
 * references), a hit in Am moves it to the head. Neighbours: sim_int.h.
 */
#include "sim/sim_int.h"

extern const struct sim_policy_ops sim_policy_twoq;

enum { Q_IN = 1, Q_AM, Q_OUT };

struct twoq {
    struct sim_policy base;
    struct sim_pool pool;        /* capacity + Kout nodes */
    struct sim_list in, am, out; /* head = newest / most recent */
    uint64_t k_in, k_out;
    struct sim_keymap map; /* key → node */
};

static struct sim_policy *twoq_create(uint64_t capacity, uint64_t seed)
{
    struct twoq *c = pt_calloc(1, sizeof(*c));

    (void)seed;
    if (!c)
        return NULL;
    c->k_in = capacity / 4 ? capacity / 4 : 1;
    c->k_out = capacity / 2 ? capacity / 2 : 1;
    if (sim_pool_init(&c->pool, capacity + c->k_out)) {
        free(c);
        return NULL;
    }
    c->base.ops = &sim_policy_twoq;
    c->base.capacity = capacity;
    return &c->base;
}

static struct sim_list *twoq_list(struct twoq *c, uint8_t q)
{
    return q == Q_IN ? &c->in : q == Q_AM ? &c->am : &c->out;
}

static void twoq_drop(struct twoq *c, uint32_t i)
{
    sim_list_unlink(c->pool.nd, twoq_list(c, c->pool.nd[i].queue), i);
    c->map.v[c->pool.nd[i].key] = 0;
    sim_pool_put(&c->pool, i);
}

static int twoq_access(struct sim_policy *p, uint32_t key, uint32_t *victim)
{
    struct twoq *c = (struct twoq *)p;
    struct sim_node *nd = c->pool.nd;
    uint32_t i = sim_keymap_get(&c->map, key);
    uint8_t q = Q_IN;

    *victim = SIM_NO_KEY;
    if (i && nd[i].queue == Q_AM) {
        sim_list_move_head(nd, &c->am, i);
        return 1;
    }
    if (i && nd[i].queue == Q_IN)
        return 1;
    if (i) { /* remembered in A1out */
        twoq_drop(c, i);
        q = Q_AM;
    }
    if (sim_keymap_reserve(&c->map, key))
        return PT_EINTERNAL;
    if (c->in.n + c->am.n >= c->base.capacity) {
        if (c->in.n > c->k_in || c->am.n == 0) {
            uint32_t t = c->in.tail;
            *victim = nd[t].key;
            if (c->out.n >= c->k_out)
                twoq_drop(c, c->out.tail);
            sim_list_unlink(nd, &c->in, t);
            nd[t].queue = Q_OUT;
            sim_list_push_head(nd, &c->out, t);
        } else {
            *victim = nd[c->am.tail].key;
            twoq_drop(c, c->am.tail);
        }
    }
    i = sim_pool_get(&c->pool);
    if (!i)
        return PT_EINTERNAL; /* cannot happen: pool = capacity + Kout */
    nd[i].key = key;
    nd[i].queue = q;
    sim_list_push_head(nd, twoq_list(c, q), i);
    c->map.v[key] = i;
    return 0;
}

static int twoq_contains(const struct sim_policy *p, uint32_t key)
{
    const struct twoq *c = (const struct twoq *)p;
    uint32_t i = sim_keymap_get(&c->map, key);

    return i && c->pool.nd[i].queue != Q_OUT;
}

static int twoq_remove(struct sim_policy *p, uint32_t key)
{
    struct twoq *c = (struct twoq *)p;
    uint32_t i = sim_keymap_get(&c->map, key);
    int cached;

    if (!i)
        return 0;
    cached = c->pool.nd[i].queue != Q_OUT;
    twoq_drop(c, i);
    return cached;
}

static uint64_t twoq_count(const struct sim_policy *p)
{
    const struct twoq *c = (const struct twoq *)p;

    return c->in.n + c->am.n;
}

static void twoq_destroy(struct sim_policy *p)
{
    struct twoq *c = (struct twoq *)p;

    if (!c)
        return;
    sim_pool_release(&c->pool);
    sim_keymap_release(&c->map);
    free(c);
}

static void twoq_prefetch(const struct sim_policy *p, uint32_t key, int stage)
{
    const struct twoq *c = (const struct twoq *)p;

    if (stage == 0)
        sim_keymap_prefetch(&c->map, key);
    else
        sim_pool_prefetch(&c->pool, &c->map, key);
}

const struct sim_policy_ops sim_policy_twoq = {
    .name = "2q",
    .summary = "2Q (Johnson and Shasha, VLDB '94)",
    .create = twoq_create,
    .access = twoq_access,
    .contains = twoq_contains,
    .remove = twoq_remove,
    .count = twoq_count,
    .prefetch = twoq_prefetch,
    .destroy = twoq_destroy,
};
