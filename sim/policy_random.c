/* SPDX-License-Identifier: Apache-2.0 */
/*
 * policy_random.c — random replacement: the victim is drawn uniformly
 * from the cached entries (a dense array with swap-remove, so eviction is
 * O(1)). DynaCache offers it beside LRU (the disk-offload runs of seed
 * 004 used it). Reproducible for a seed. Neighbours: sim_int.h, policy.c.
 */
#include "sim/sim_int.h"

extern const struct sim_policy_ops sim_policy_random;

struct rnd {
    struct sim_policy base;
    uint32_t *keys; /* cached keys, dense [0, n) (owned) */
    uint64_t n;
    struct sim_keymap map; /* key → index + 1 */
    struct sim_rng rng;
};

static struct sim_policy *rnd_create(uint64_t capacity, uint64_t seed)
{
    struct rnd *c = pt_calloc(1, sizeof(*c));

    if (!c)
        return NULL;
    c->keys = pt_malloc(capacity * sizeof(*c->keys));
    if (!c->keys) {
        free(c);
        return NULL;
    }
    c->base.ops = &sim_policy_random;
    c->base.capacity = capacity;
    c->rng.s = seed ^ 0x5eed5eed5eedULL;
    return &c->base;
}

static void rnd_drop(struct rnd *c, uint64_t idx)
{
    uint32_t last = c->keys[c->n - 1];

    c->map.v[c->keys[idx]] = 0;
    if (idx != c->n - 1) {
        c->keys[idx] = last;
        c->map.v[last] = (uint32_t)idx + 1;
    }
    c->n--;
}

static int rnd_access(struct sim_policy *p, uint32_t key, uint32_t *victim)
{
    struct rnd *c = (struct rnd *)p;

    *victim = SIM_NO_KEY;
    if (sim_keymap_get(&c->map, key))
        return 1;
    if (sim_keymap_reserve(&c->map, key))
        return PT_EINTERNAL;
    if (c->n == c->base.capacity) {
        uint64_t idx = sim_rng_next(&c->rng) % c->n;
        *victim = c->keys[idx];
        rnd_drop(c, idx);
    }
    c->keys[c->n++] = key;
    c->map.v[key] = (uint32_t)c->n;
    return 0;
}

static int rnd_contains(const struct sim_policy *p, uint32_t key)
{
    return sim_keymap_get(&((const struct rnd *)p)->map, key) != 0;
}

static int rnd_remove(struct sim_policy *p, uint32_t key)
{
    struct rnd *c = (struct rnd *)p;
    uint32_t i = sim_keymap_get(&c->map, key);

    if (!i)
        return 0;
    rnd_drop(c, i - 1);
    return 1;
}

static uint64_t rnd_count(const struct sim_policy *p)
{
    return ((const struct rnd *)p)->n;
}

static void rnd_destroy(struct sim_policy *p)
{
    struct rnd *c = (struct rnd *)p;

    if (!c)
        return;
    free(c->keys);
    sim_keymap_release(&c->map);
    free(c);
}

static void rnd_prefetch(const struct sim_policy *p, uint32_t key, int stage)
{
    if (stage == 0)
        sim_keymap_prefetch(&((const struct rnd *)p)->map, key);
}

const struct sim_policy_ops sim_policy_random = {
    .name = "random",
    .summary = "random replacement (as DynaCache offers)",
    .create = rnd_create,
    .access = rnd_access,
    .contains = rnd_contains,
    .remove = rnd_remove,
    .count = rnd_count,
    .prefetch = rnd_prefetch,
    .destroy = rnd_destroy,
};
