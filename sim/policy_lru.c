/* SPDX-License-Identifier: Apache-2.0 */
/*
 * policy_lru.c — least recently used: one doubly linked list, a hit moves
 * the entry to the head, a miss evicts the tail when full. The baseline
 * every other policy is compared with, and the policy the exact
 * miss-ratio curve (mrc.c) describes.
 *
 * The hot path of the simulator, so laid out for few cache lines: the
 * list's nodes are indexed by the key itself (node key + 1; node 0 is the
 * list's sentinel, its next the head and its prev the tail), 8 bytes each
 * (two 32-bit links), so a lookup is the node's own line — no key map in
 * front of a node pool, no key stored in the node, nothing to clear in a
 * map when an entry leaves. An absent key's node holds LRU_ABSENT in
 * both links. The nodes grow with the largest key seen (doubling), like
 * the key maps of the other policies: 8 bytes per distinct key instead of
 * a 4-byte map entry per key plus a 16-byte node per cached entry.
 * Neighbours: sim_int.h, policy.c (registry).
 */
#include "sim/sim_int.h"

#define LRU_ABSENT UINT32_MAX

struct lru_node {
    uint32_t prev; /* towards the head (more recent); LRU_ABSENT: not cached */
    uint32_t next; /* towards the tail (older) */
};

struct lru {
    struct sim_policy base;
    struct lru_node *nd; /* n_nodes nodes: [0] the sentinel, [k + 1] key k */
    uint64_t n_nodes;
    uint64_t n; /* entries cached */
};

extern const struct sim_policy_ops sim_policy_lru;
extern const struct sim_policy_ops sim_policy_sqlite;

static struct sim_policy *lru_new(const struct sim_policy_ops *ops,
                                  uint64_t capacity)
{
    struct lru *c = pt_calloc(1, sizeof(*c));

    if (!c)
        return NULL;
    c->n_nodes = 1024;
    c->nd = pt_malloc(c->n_nodes * sizeof(*c->nd));
    if (!c->nd) {
        free(c);
        return NULL;
    }
    memset(c->nd, 0xff, c->n_nodes * sizeof(*c->nd));
    c->nd[0].prev = c->nd[0].next = 0; /* the empty list */
    c->base.ops = ops;
    c->base.capacity = capacity;
    return &c->base;
}

/* Grow the nodes to cover node i (doubling). 0 or PT_EINTERNAL. */
static int lru_reserve(struct lru *c, uint64_t i)
{
    uint64_t n = c->n_nodes;
    struct lru_node *nd;

    while (n <= i)
        n *= 2;
    nd = pt_realloc(c->nd, n * sizeof(*nd));
    if (!nd)
        return PT_EINTERNAL;
    sim_huge_pages(nd, n * sizeof(*nd));
    memset(nd + c->n_nodes, 0xff, (n - c->n_nodes) * sizeof(*nd));
    c->nd = nd;
    c->n_nodes = n;
    return 0;
}

static inline void lru_unlink(struct lru_node *nd, uint32_t i)
{
    uint32_t p = nd[i].prev, n = nd[i].next;

    nd[p].next = n;
    nd[n].prev = p;
}

static inline void lru_push_head(struct lru_node *nd, uint32_t i)
{
    uint32_t h = nd[0].next;

    nd[i].prev = 0;
    nd[i].next = h;
    nd[h].prev = i;
    nd[0].next = i;
}

static int lru_access(struct sim_policy *p, uint32_t key, uint32_t *victim)
{
    struct lru *c = (struct lru *)p;
    struct lru_node *nd = c->nd;
    uint64_t i = (uint64_t)key + 1;
    uint32_t t;

    *victim = SIM_NO_KEY;
    if (i < c->n_nodes && nd[i].prev != LRU_ABSENT) {
        if (nd[0].next != i) {
            lru_unlink(nd, (uint32_t)i);
            lru_push_head(nd, (uint32_t)i);
        }
        return 1;
    }
    if (i >= c->n_nodes) {
        /* links are 32 bits and LRU_ABSENT is not a node */
        if (i >= LRU_ABSENT || lru_reserve(c, i))
            return PT_EINTERNAL;
        nd = c->nd;
    }
    if (c->n < c->base.capacity) {
        c->n++;
    } else {
        /* the tail leaves; its node was written when it became the tail,
           and its prev is only written here (a store: no wait) */
        t = nd[0].prev;
        lru_unlink(nd, t);
        nd[t].prev = nd[t].next = LRU_ABSENT;
        *victim = t - 1;
    }
    lru_push_head(nd, (uint32_t)i);
    return 0;
}

/* Requests ahead whose nodes access_many asks for: a whole batch of the
   driver's (sim.c RUN_BATCH), which are read by then */
#define LRU_AHEAD 32u

static int lru_access_many(struct sim_policy *p, const struct sim_req *q,
                           size_t n, size_t ahead, uint64_t *hits)
{
    struct lru *c = (struct lru *)p;
    size_t j, end = n + ahead;
    uint64_t h = 0;
    uint32_t victim;
    int rc;

    for (j = 0; j < n; j++) {
        struct lru_node *nd = c->nd;
        uint64_t i = q[j].key_id + 1;

        if (j + LRU_AHEAD < end && q[j + LRU_AHEAD].key_id + 1 < c->n_nodes)
            __builtin_prefetch(&nd[q[j + LRU_AHEAD].key_id + 1], 1);
        if (i < c->n_nodes && nd[i].prev != LRU_ABSENT) {
            /* a hit, as in lru_access */
            if (nd[0].next != i) {
                lru_unlink(nd, (uint32_t)i);
                lru_push_head(nd, (uint32_t)i);
            }
            h++;
            continue;
        }
        if ((rc = lru_access(p, (uint32_t)q[j].key_id, &victim)) < 0) {
            *hits += h;
            return rc;
        }
    }
    *hits += h;
    return 0;
}

static int lru_contains(const struct sim_policy *p, uint32_t key)
{
    const struct lru *c = (const struct lru *)p;
    uint64_t i = (uint64_t)key + 1;

    return i < c->n_nodes && c->nd[i].prev != LRU_ABSENT;
}

static int lru_remove(struct sim_policy *p, uint32_t key)
{
    struct lru *c = (struct lru *)p;
    uint64_t i = (uint64_t)key + 1;

    if (i >= c->n_nodes || c->nd[i].prev == LRU_ABSENT)
        return 0;
    lru_unlink(c->nd, (uint32_t)i);
    c->nd[i].prev = c->nd[i].next = LRU_ABSENT;
    c->n--;
    return 1;
}

static uint64_t lru_count(const struct sim_policy *p)
{
    return ((const struct lru *)p)->n;
}

/* Stage 0: the key's node (to be written: a hit or an insertion). */
static void lru_prefetch(const struct sim_policy *p, uint32_t key, int stage)
{
    const struct lru *c = (const struct lru *)p;
    uint64_t i = (uint64_t)key + 1;

    if (stage == 0 && i < c->n_nodes)
        __builtin_prefetch(&c->nd[i], 1);
}

static void lru_destroy(struct sim_policy *p)
{
    struct lru *c = (struct lru *)p;

    if (!c)
        return;
    free(c->nd);
    free(c);
}

static struct sim_policy *lru_create(uint64_t capacity, uint64_t seed)
{
    (void)seed;
    return lru_new(&sim_policy_lru, capacity);
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
    .access_many = lru_access_many,
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
static struct sim_policy *sqlite_create(uint64_t capacity, uint64_t seed)
{
    (void)seed;
    return lru_new(&sim_policy_sqlite, capacity);
}

const struct sim_policy_ops sim_policy_sqlite = {
    .name = "sqlite-lru",
    .summary = "SQLite pcache1 LRU of unpinned pages",
    .create = sqlite_create,
    .access = lru_access,
    .contains = lru_contains,
    .remove = lru_remove,
    .count = lru_count,
    .prefetch = lru_prefetch,
    .destroy = lru_destroy,
    .access_many = lru_access_many,
};
