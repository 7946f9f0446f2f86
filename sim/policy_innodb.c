/* SPDX-License-Identifier: Apache-2.0 */
/*
 * policy_innodb.c — InnoDB's buffer-pool LRU with midpoint insertion, as
 * in MariaDB's and MySQL's storage/innobase/buf/buf0lru.cc and
 * buf0buf.cc (the same in both since MySQL 5.1's InnoDB plugin):
 *
 *  - One LRU list; its tail end is the "old" sublist of about
 *    innodb_old_blocks_pct (default 37 %) of the blocks, starting at
 *    LRU_old. buf_LRU_old_adjust_len keeps its length within
 *    BUF_LRU_OLD_TOLERANCE (20) of len x LRU_old_ratio / 1024 and leaves at
 *    least BUF_LRU_NON_OLD_MIN_LEN (5) young blocks; below
 *    BUF_LRU_OLD_MIN_LEN (512) blocks there is no old sublist
 *    (buf_LRU_old_init marks all blocks old when the list reaches it).
 *  - A page read in is added to the old sublist, just after LRU_old
 *    (buf_LRU_add_block(bpage, true) → buf_LRU_add_block_low); a block
 *    made young goes to the head.
 *  - On an access (buf_page_make_young_if_needed →
 *    buf_page_peek_if_too_old): an old block is made young only when
 *    innodb_old_blocks_time (default 1000 ms) has passed since its first
 *    access (set_accessed, done before the check, so the access that
 *    reads it never promotes it); with the time 0, and for young blocks,
 *    buf_page_peek_if_young decides: a block is moved only when more than
 *    curr_size x (1024 - ratio) / 4096 blocks were freed since it was put
 *    at the head (freed_page_clock), i.e. when it has left the first
 *    quarter of the young sublist.
 *  - The victim is the tail (buf_LRU_free_from_common_LRU_list); each
 *    freed block advances freed_page_clock. A block buffer-fixed by the
 *    driver (ops->pin; sim_node.spare holds the count) is skipped, as
 *    buf_LRU_free_page skips a fixed one: the next towards the head goes.
 *  - The page cleaner, when tuned with a free-list target
 *    (sim_policy_params.free_target = innodb_lru_scan_depth; the replay's
 *    prediction, advise/mypredict.c): a block taken that leaves fewer
 *    than half the target free wakes it (buf0lru.cc
 *    buf_LRU_get_free_block, buf0flu.cc need_LRU_eviction), and it frees
 *    tail blocks until the target is free or the LRU is down to
 *    min(pages / 20 - 1, BUF_LRU_MIN_LEN 256) (buf_flush_LRU_list_batch).
 *    A thread in InnoDB; here the batch runs at once. Without a target
 *    (the simulator) every read frees the tail itself.
 *
 * Time: the driver sets base.now_ms before each access — the trace's time
 * stamps, or requests at the rate of --request-rate (pagetune-simulate(1)).
 * Not modelled: read-ahead (off here), the unzip LRU, pages fixed by other
 * threads. In a miniature simulation the fixed lengths (512, 20, 5) shrink
 * by R with the cache. Neighbours: sim_int.h, policy.c, docs/models.md
 * #engine-policies.
 */
#include "sim/sim_int.h"

#include <math.h>

extern const struct sim_policy_ops sim_policy_innodb;

#define INNO_OLD_PCT 37        /* innodb_old_blocks_pct default */
#define INNO_OLD_TIME_MS 1000  /* innodb_old_blocks_time default */
#define INNO_RATIO_DIV 1024    /* BUF_LRU_OLD_RATIO_DIV */
#define INNO_OLD_MIN_LEN 512   /* BUF_LRU_OLD_MIN_LEN */
#define INNO_OLD_TOLERANCE 20  /* BUF_LRU_OLD_TOLERANCE */
#define INNO_NON_OLD_MIN_LEN 5 /* BUF_LRU_NON_OLD_MIN_LEN */
#define INNO_LRU_MIN_LEN 256   /* BUF_LRU_MIN_LEN */

struct inno {
    struct sim_policy base;
    struct sim_pool pool;  /* node.freq = the block's old flag */
    struct sim_list l;     /* head = young end, tail = victim */
    struct sim_keymap map; /* key → node */
    uint64_t *first_ms;    /* node → time of its first access (owned) */
    uint64_t *young_clock; /* node → freed_clock when put at the head
                              (owned) */
    uint32_t old;          /* LRU_old: first node of the old sublist */
    uint64_t old_len;      /* LRU_old_len */
    uint64_t freed_clock;  /* freed_page_clock */
    uint64_t ratio;        /* LRU_old_ratio = pct x 1024 / 100 */
    uint64_t old_min_len, tolerance, non_old_min; /* scaled lengths */
    uint64_t old_time_ms;                         /* innodb_old_blocks_time */
    uint64_t free_target; /* innodb_lru_scan_depth; 0: no page cleaner */
    uint64_t lru_min_len; /* the cleaner's floor (buf_lru_min_len) */
    uint64_t *wr_until;   /* node → when its write ends (owned) */
    uint64_t write_ms;    /* a write's duration */
};

static void inno_destroy(struct sim_policy *p)
{
    struct inno *c = (struct inno *)p;

    if (!c)
        return;
    sim_pool_release(&c->pool);
    sim_keymap_release(&c->map);
    free(c->first_ms);
    free(c->young_clock);
    free(c->wr_until);
    free(c);
}

static struct sim_policy *inno_create(uint64_t capacity, uint64_t seed)
{
    struct inno *c = pt_calloc(1, sizeof(*c));

    (void)seed;
    if (!c)
        return NULL;
    c->base.ops = &sim_policy_innodb;
    c->base.capacity = capacity;
    c->ratio = INNO_OLD_PCT * INNO_RATIO_DIV / 100;
    c->old_min_len = INNO_OLD_MIN_LEN;
    c->tolerance = INNO_OLD_TOLERANCE;
    c->non_old_min = INNO_NON_OLD_MIN_LEN;
    c->old_time_ms = INNO_OLD_TIME_MS;
    c->first_ms = pt_calloc(capacity + 1, sizeof(*c->first_ms));
    c->young_clock = pt_calloc(capacity + 1, sizeof(*c->young_clock));
    c->wr_until = pt_calloc(capacity + 1, sizeof(*c->wr_until));
    if (sim_pool_init(&c->pool, capacity) || !c->first_ms || !c->young_clock ||
        !c->wr_until) {
        inno_destroy(&c->base);
        return NULL;
    }
    return &c->base;
}

static uint64_t scaled(uint64_t n, double scale, uint64_t floor_n)
{
    uint64_t v = (uint64_t)llround((double)n * scale);

    return v < floor_n ? floor_n : v;
}

static void inno_tune(struct sim_policy *p, const struct sim_policy_params *pp)
{
    struct inno *c = (struct inno *)p;

    c->old_min_len = scaled(INNO_OLD_MIN_LEN, pp->scale, 2);
    c->tolerance = scaled(INNO_OLD_TOLERANCE, pp->scale, 0);
    c->non_old_min = scaled(INNO_NON_OLD_MIN_LEN, pp->scale, 1);
    c->free_target =
        pp->free_target ? scaled(pp->free_target, pp->scale, 2) : 0;
    c->lru_min_len = sim_innodb_lru_floor(c->base.capacity, pp->scale);
    c->write_ms = pp->write_ms;
}

uint64_t sim_innodb_lru_floor(uint64_t pages, double scale)
{
    uint64_t cap = scaled(INNO_LRU_MIN_LEN, scale, 1);

    return pages / 20 < cap + 1 ? (pages / 20 ? pages / 20 - 1 : 0) : cap;
}

/* buf_LRU_old_adjust_len: move LRU_old until the old sublist's length is
 * within the tolerance of its share. */
static void inno_adjust(struct inno *c)
{
    struct sim_node *nd = c->pool.nd;
    uint64_t len = c->l.n, keep = c->tolerance + c->non_old_min;
    uint64_t want = len * c->ratio / INNO_RATIO_DIV;

    if (!c->old)
        return;
    if (len < keep)
        want = 0;
    else if (want > len - keep)
        want = len - keep;
    for (;;) {
        if (c->old_len + c->tolerance < want && nd[c->old].prev) {
            c->old = nd[c->old].prev;
            nd[c->old].freq = 1;
            c->old_len++;
        } else if (c->old_len > want + c->tolerance && nd[c->old].next) {
            nd[c->old].freq = 0;
            c->old = nd[c->old].next;
            c->old_len--;
        } else {
            return;
        }
    }
}

/* buf_LRU_old_init: the list just reached the minimum length. */
static void inno_old_init(struct inno *c)
{
    struct sim_node *nd = c->pool.nd;

    for (uint32_t i = c->l.head; i; i = nd[i].next)
        nd[i].freq = 1;
    c->old = c->l.head;
    c->old_len = c->l.n;
    inno_adjust(c);
}

/* buf_LRU_remove_block */
static void inno_unlink(struct inno *c, uint32_t i)
{
    struct sim_node *nd = c->pool.nd;

    if (i == c->old && nd[i].prev) {
        c->old = nd[i].prev;
        nd[c->old].freq = 1;
        c->old_len++;
    }
    sim_list_unlink(nd, &c->l, i);
    if (c->l.n < c->old_min_len) {
        if (c->old) { /* too short for an old sublist: clear the flags */
            for (uint32_t j = c->l.head; j; j = nd[j].next)
                nd[j].freq = 0;
            c->old = 0;
            c->old_len = 0;
        }
        return;
    }
    if (nd[i].freq)
        c->old_len--;
    if (i == c->old) /* it was the head: the list had no young blocks */
        c->old = c->l.head;
    inno_adjust(c);
}

/* buf_LRU_add_block_low */
static void inno_link(struct inno *c, uint32_t i, int old)
{
    struct sim_node *nd = c->pool.nd;

    if (!old || c->l.n < c->old_min_len || !c->old) {
        sim_list_push_head(nd, &c->l, i);
        c->young_clock[i] = c->freed_clock;
    } else { /* UT_LIST_INSERT_AFTER(LRU, LRU_old, bpage) */
        uint32_t after = nd[c->old].next;
        nd[i].prev = c->old;
        nd[i].next = after;
        nd[c->old].next = i;
        if (after)
            nd[after].prev = i;
        else
            c->l.tail = i;
        c->l.n++;
        c->old_len++;
    }
    if (c->l.n > c->old_min_len) {
        nd[i].freq = (uint8_t)(old && c->old);
        inno_adjust(c);
    } else if (c->l.n == c->old_min_len) {
        inno_old_init(c);
    } else {
        nd[i].freq = c->old != 0;
    }
}

/* buf_page_peek_if_young: still in the first quarter of the young list */
static int inno_recent(const struct inno *c, uint32_t i)
{
    return c->freed_clock <
           c->young_clock[i] + c->base.capacity * (INNO_RATIO_DIV - c->ratio) /
                                   (INNO_RATIO_DIV * 4);
}

static void inno_hit(struct inno *c, uint32_t i)
{
    struct sim_node *nd = c->pool.nd;
    int young;

    if (c->old_time_ms && nd[i].freq) /* buf_page_peek_if_too_old */
        young = c->base.now_ms - c->first_ms[i] >= c->old_time_ms;
    else
        young = !inno_recent(c, i);
    if (young) { /* buf_page_make_young */
        inno_unlink(c, i);
        inno_link(c, i, 0);
    }
}

/* buf_LRU_free_page frees neither a buffer-fixed block (ops->pin) nor a
 * dirty one (ops->dirty; sim_node.queue 1) */
static int inno_evictable(const struct inno *c, uint32_t i)
{
    return !c->pool.nd[i].spare && !c->pool.nd[i].queue &&
           c->base.now_ms >= c->wr_until[i];
}

/* Free node i: back to the pool, its key unmapped; returns the key. */
static uint32_t inno_free_node(struct inno *c, uint32_t i)
{
    uint32_t key = c->pool.nd[i].key;

    c->map.v[key] = 0;
    inno_unlink(c, i);
    c->freed_clock++;
    sim_pool_put(&c->pool, i);
    return key;
}

/* A reader that found no free block frees one itself
 * (buf_LRU_free_from_common_LRU_list): the first from the tail that is
 * neither fixed nor dirty; when every block is, the tail's first unfixed
 * one (the engine would wait for the page cleaner's writes). */
static uint32_t inno_free_tail(struct inno *c)
{
    uint32_t i = c->l.tail;

    for (uint32_t j = i; j; j = c->pool.nd[j].prev)
        if (inno_evictable(c, j))
            return inno_free_node(c, j);
    while (c->pool.nd[i].spare && c->pool.nd[i].prev)
        i = c->pool.nd[i].prev;
    return inno_free_node(c, i);
}

/* The page cleaner's LRU batch. buf_LRU_get_free_block wakes it when a
 * block taken leaves fewer than innodb_lru_scan_depth / 2 free and the
 * LRU holds more than its floor; buf_flush_LRU_list_batch then walks from
 * the tail until innodb_lru_scan_depth are free or the LRU is down to the
 * floor (buf0lru.cc, buf0flu.cc need_LRU_eviction): a clean block is
 * freed; a dirty one is written and passed over, to be freed by a later
 * batch if still clean then (buf_page_write_complete frees no persistent
 * page), at most innodb_lru_scan_depth written a batch; a fixed one is
 * passed over. The cleaner is a thread that runs as soon as it is woken;
 * here the batch runs at once, before the next access, and a write ends
 * before the next batch. */
static void inno_cleaner(struct inno *c)
{
    uint64_t cap = c->base.capacity, written = 0;
    uint32_t i = c->l.tail;

    if (!c->free_target || c->l.n <= c->lru_min_len ||
        cap - c->l.n >= c->free_target / 2)
        return;
    while (i && c->l.n > c->lru_min_len && cap - c->l.n < c->free_target) {
        uint32_t prev = c->pool.nd[i].prev;
        if (inno_evictable(c, i)) {
            (void)inno_free_node(c, i);
        } else if (c->pool.nd[i].queue && !c->pool.nd[i].spare &&
                   c->base.now_ms >= c->wr_until[i]) {
            if (written++ >= c->free_target)
                break;
            c->pool.nd[i].queue = 0;
            c->wr_until[i] = c->base.now_ms + c->write_ms;
        }
        i = prev;
    }
}

static int inno_access(struct sim_policy *p, uint32_t key, uint32_t *victim)
{
    struct inno *c = (struct inno *)p;
    struct sim_node *nd = c->pool.nd;
    uint32_t i = sim_keymap_get(&c->map, key);

    *victim = SIM_NO_KEY;
    if (i) {
        inno_hit(c, i);
        return 1;
    }
    if (sim_keymap_reserve(&c->map, key))
        return PT_EINTERNAL;
    i = sim_pool_get(&c->pool);
    if (!i) { /* no free block: the reader frees the tail itself */
        *victim = inno_free_tail(c);
        i = sim_pool_get(&c->pool);
    }
    nd[i].key = key;
    nd[i].freq = 0;
    nd[i].spare = 0;
    nd[i].queue = 0;
    c->wr_until[i] = 0;
    c->first_ms[i] = c->base.now_ms;
    inno_link(c, i, 1);
    c->map.v[key] = i;
    inno_cleaner(c);
    return 0;
}

static int inno_contains(const struct sim_policy *p, uint32_t key)
{
    return sim_keymap_get(&((const struct inno *)p)->map, key) != 0;
}

static int inno_remove(struct sim_policy *p, uint32_t key)
{
    struct inno *c = (struct inno *)p;
    uint32_t i = sim_keymap_get(&c->map, key);

    if (!i)
        return 0;
    (void)inno_free_node(c, i);
    return 1;
}

static uint64_t inno_count(const struct sim_policy *p)
{
    return ((const struct inno *)p)->l.n;
}

static void inno_prefetch(const struct sim_policy *p, uint32_t key, int stage)
{
    const struct inno *c = (const struct inno *)p;

    if (stage == 0)
        sim_keymap_prefetch(&c->map, key);
    else
        sim_pool_prefetch(&c->pool, &c->map, key);
}

/* buf_block_t::fix / unfix of a cached block (advise/mypredict.c: purge
 * batches' undo pages, MDEV-32050) */
static int inno_pin(struct sim_policy *p, uint32_t key, int delta)
{
    struct inno *c = (struct inno *)p;
    uint32_t i = sim_keymap_get(&c->map, key);

    if (!i)
        return 0;
    /* a release never takes the count below 0: the block may have been
       read after the fix was asked for, and a fix asked for a block not
       in the pool does nothing */
    if (delta < 0 && c->pool.nd[i].spare < (uint16_t)-delta)
        return 0;
    c->pool.nd[i].spare = (uint16_t)(c->pool.nd[i].spare + delta);
    return 1;
}

/* the block of a cached key modified (on): dirty until the cleaner writes
 * it; or its page freed (off): nothing to write (buf_page_free) */
static int inno_dirty(struct sim_policy *p, uint32_t key, int on)
{
    struct inno *c = (struct inno *)p;
    uint32_t i = sim_keymap_get(&c->map, key);

    if (!i)
        return 0;
    c->pool.nd[i].queue = on != 0;
    return 1;
}

const struct sim_policy_ops sim_policy_innodb = {
    .name = "innodb-lru",
    .summary = "InnoDB midpoint LRU, 37 % old sublist, 1000 ms old time",
    .create = inno_create,
    .access = inno_access,
    .contains = inno_contains,
    .remove = inno_remove,
    .count = inno_count,
    .prefetch = inno_prefetch,
    .destroy = inno_destroy,
    .tune = inno_tune,
    .pin = inno_pin,
    .dirty = inno_dirty,
};
