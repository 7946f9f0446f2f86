/* SPDX-License-Identifier: Apache-2.0 */
/*
 * policy_arc.c — ARC, the Adaptive Replacement Cache (Megiddo and Modha,
 * "ARC: A Self-Tuning, Low Overhead Replacement Cache", FAST '03, Fig. 4).
 * Four LRU lists: T1 (seen once recently) and T2 (seen at least twice)
 * hold the c cached entries; B1 and B2 remember the keys evicted from T1
 * and T2 (ghosts, no data). A ghost hit in B1 grows the target size p of
 * T1, one in B2 shrinks it; REPLACE evicts from T1 when |T1| exceeds p
 * (or equals it on a B2 hit), else from T2. p is kept as a real number as
 * in the paper (δ1 = max(|B2|/|B1|, 1), δ2 = max(|B1|/|B2|, 1)).
 *
 * Variant note: after a `del` (remove) the cache can be below capacity
 * while ghosts exist; REPLACE then only runs when T1+T2 is full, so a del
 * never causes an extra eviction (the paper has no delete). Without dels
 * this is exactly the paper's algorithm. Neighbours: sim_int.h, policy.c.
 */
#include "sim/sim_int.h"

extern const struct sim_policy_ops sim_policy_arc;

enum { Q_T1 = 1, Q_T2, Q_B1, Q_B2 };

struct arc {
    struct sim_policy base;
    struct sim_pool pool;           /* 2c nodes: cached + ghosts */
    struct sim_list t1, t2, b1, b2; /* head = MRU */
    double p;                       /* target size of T1 */
    struct sim_keymap map;          /* key → node */
};

static struct sim_policy *arc_create(uint64_t capacity, uint64_t seed)
{
    struct arc *c = pt_calloc(1, sizeof(*c));

    (void)seed;
    if (!c)
        return NULL;
    if (sim_pool_init(&c->pool, 2 * capacity)) {
        free(c);
        return NULL;
    }
    c->base.ops = &sim_policy_arc;
    c->base.capacity = capacity;
    return &c->base;
}

static struct sim_list *arc_list(struct arc *c, uint8_t q)
{
    switch (q) {
    case Q_T1:
        return &c->t1;
    case Q_T2:
        return &c->t2;
    case Q_B1:
        return &c->b1;
    default:
        return &c->b2;
    }
}

static void arc_move(struct arc *c, uint32_t i, uint8_t q)
{
    sim_list_unlink(c->pool.nd, arc_list(c, c->pool.nd[i].queue), i);
    c->pool.nd[i].queue = q;
    sim_list_push_head(c->pool.nd, arc_list(c, q), i);
}

static void arc_drop(struct arc *c, uint32_t i)
{
    sim_list_unlink(c->pool.nd, arc_list(c, c->pool.nd[i].queue), i);
    c->map.v[c->pool.nd[i].key] = 0;
    sim_pool_put(&c->pool, i);
}

/* REPLACE(x, p): demote the LRU of T1 or T2 to its ghost list. */
static uint32_t arc_replace(struct arc *c, int in_b2)
{
    double t1 = (double)c->t1.n;
    uint32_t i;

    if (c->t1.n >= 1 && ((in_b2 && t1 == c->p) || t1 > c->p)) {
        i = c->t1.tail;
        arc_move(c, i, Q_B1);
    } else {
        i = c->t2.tail;
        arc_move(c, i, Q_B2);
    }
    return c->pool.nd[i].key;
}

static int arc_access(struct sim_policy *p, uint32_t key, uint32_t *victim)
{
    struct arc *c = (struct arc *)p;
    struct sim_node *nd = c->pool.nd;
    uint64_t cap = c->base.capacity;
    int full = c->t1.n + c->t2.n >= cap;
    uint32_t i = sim_keymap_get(&c->map, key);
    double d;

    *victim = SIM_NO_KEY;
    if (i && (nd[i].queue == Q_T1 || nd[i].queue == Q_T2)) { /* case I */
        arc_move(c, i, Q_T2);
        return 1;
    }
    if (i && nd[i].queue == Q_B1) { /* case II */
        d = c->b1.n >= c->b2.n ? 1.0 : (double)c->b2.n / (double)c->b1.n;
        c->p = c->p + d < (double)cap ? c->p + d : (double)cap;
        if (full)
            *victim = arc_replace(c, 0);
        arc_move(c, i, Q_T2);
        return 0;
    }
    if (i) { /* case III: in B2 */
        d = c->b2.n >= c->b1.n ? 1.0 : (double)c->b1.n / (double)c->b2.n;
        c->p = c->p - d > 0.0 ? c->p - d : 0.0;
        if (full)
            *victim = arc_replace(c, 1);
        arc_move(c, i, Q_T2);
        return 0;
    }
    /* case IV: not in any list */
    if (sim_keymap_reserve(&c->map, key))
        return PT_EINTERNAL;
    if (c->t1.n + c->b1.n >= cap) { /* A: |L1| = c */
        if (c->t1.n < cap) {
            arc_drop(c, c->b1.tail);
            if (full)
                *victim = arc_replace(c, 0);
        } else {
            *victim = nd[c->t1.tail].key;
            arc_drop(c, c->t1.tail);
        }
    } else if (c->t1.n + c->t2.n + c->b1.n + c->b2.n >= cap) { /* B */
        if (c->t1.n + c->t2.n + c->b1.n + c->b2.n >= 2 * cap)
            arc_drop(c, c->b2.tail);
        if (full)
            *victim = arc_replace(c, 0);
    }
    i = sim_pool_get(&c->pool);
    if (!i) /* cannot happen: at most 2c nodes are ever live */
        return PT_EINTERNAL;
    nd[i].key = key;
    nd[i].queue = Q_T1;
    sim_list_push_head(nd, &c->t1, i);
    c->map.v[key] = i;
    return 0;
}

static int arc_contains(const struct sim_policy *p, uint32_t key)
{
    const struct arc *c = (const struct arc *)p;
    uint32_t i = sim_keymap_get(&c->map, key);

    return i && (c->pool.nd[i].queue == Q_T1 || c->pool.nd[i].queue == Q_T2);
}

static int arc_remove(struct sim_policy *p, uint32_t key)
{
    struct arc *c = (struct arc *)p;
    uint32_t i = sim_keymap_get(&c->map, key);
    int cached;

    if (!i)
        return 0;
    cached = c->pool.nd[i].queue == Q_T1 || c->pool.nd[i].queue == Q_T2;
    arc_drop(c, i);
    return cached;
}

static uint64_t arc_count(const struct sim_policy *p)
{
    const struct arc *c = (const struct arc *)p;

    return c->t1.n + c->t2.n;
}

static void arc_destroy(struct sim_policy *p)
{
    struct arc *c = (struct arc *)p;

    if (!c)
        return;
    sim_pool_release(&c->pool);
    sim_keymap_release(&c->map);
    free(c);
}

static void arc_prefetch(const struct sim_policy *p, uint32_t key, int stage)
{
    const struct arc *c = (const struct arc *)p;

    if (stage == 0)
        sim_keymap_prefetch(&c->map, key);
    else
        sim_pool_prefetch(&c->pool, &c->map, key);
}

const struct sim_policy_ops sim_policy_arc = {
    .name = "arc",
    .summary = "ARC (Megiddo and Modha, FAST '03)",
    .create = arc_create,
    .access = arc_access,
    .contains = arc_contains,
    .remove = arc_remove,
    .count = arc_count,
    .prefetch = arc_prefetch,
    .destroy = arc_destroy,
};
