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

static struct sim_policy *lru_create(uint64_t capacity, uint64_t seed)
{
    (void)seed;
    return sim_listpol_new(&sim_policy_lru, capacity,
                           sizeof(struct sim_listpol));
}

static int lru_access(struct sim_policy *p, uint32_t key, uint32_t *victim)
{
    struct sim_listpol *c = (struct sim_listpol *)p;
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
        /* the next victim's key-map entry, cleared a few misses from now
           (its node was just read to unlink this one) */
        if (c->l.tail)
            __builtin_prefetch(&c->map.v[nd[c->l.tail].key], 1);
    }
    nd[i].key = key;
    sim_list_push_head(nd, &c->l, i);
    c->map.v[key] = i;
    return 0;
}

const struct sim_policy_ops sim_policy_lru = {
    .name = "lru",
    .summary = "least recently used",
    .create = lru_create,
    .access = lru_access,
    .contains = sim_listpol_contains,
    .remove = sim_listpol_remove,
    .count = sim_listpol_count,
    .prefetch = sim_listpol_prefetch,
    .destroy = sim_listpol_destroy,
};

/*
 * SQLite's page cache, pcache1.c (the default sqlite3_pcache_methods2):
 * pcache1Fetch finds a page in the hash and pins it, which takes it off
 * the LRU list (pcache1PinPage); releasing it (pcache1Unpin, from
 * sqlite3PcacheRelease once the page is clean) puts it at the head of the
 * LRU list; when the cache holds nMax pages, pcache1FetchStage2 recycles
 * the unpinned page at the LRU tail. With each page released right after
 * its access that is LRU. Not modelled: pages pinned while dirty inside
 * one transaction (autocommit releases them at once) and the soft heap
 * limit (pcache1UnderMemoryPressure).
 */
extern const struct sim_policy_ops sim_policy_sqlite;

static struct sim_policy *sqlite_create(uint64_t capacity, uint64_t seed)
{
    (void)seed;
    return sim_listpol_new(&sim_policy_sqlite, capacity,
                           sizeof(struct sim_listpol));
}

const struct sim_policy_ops sim_policy_sqlite = {
    .name = "sqlite-lru",
    .summary = "SQLite pcache1 LRU of unpinned pages",
    .create = sqlite_create,
    .access = lru_access,
    .contains = sim_listpol_contains,
    .remove = sim_listpol_remove,
    .count = sim_listpol_count,
    .prefetch = sim_listpol_prefetch,
    .destroy = sim_listpol_destroy,
};
