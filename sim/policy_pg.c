/* SPDX-License-Identifier: Apache-2.0 */
/*
 * policy_pg.c — PostgreSQL's shared-buffer replacement: a clock sweep over
 * usage counts, with a ring of buffers for large sequential scans. Read in
 * PostgreSQL's src/backend/storage/buffer/freelist.c and bufmgr.c (master,
 * 2025; the same since 8.3 except where noted):
 *
 *  - StrategyGetBuffer: the hand (ClockSweepTick) passes over the buffers;
 *    a buffer whose usage_count is not 0 has it decremented and is
 *    skipped, the first one at 0 is the victim. Buffers never used yet are
 *    taken first (the free list of the releases that had one; a buffer at
 *    usage 0 for the hand in the newer ones).
 *  - PinBuffer (bufmgr.c): a normal access raises usage_count by one, up to
 *    BM_MAX_USAGE_COUNT = 5; an access through a strategy (ring) only
 *    raises 0 to 1. A page read into a buffer starts at usage 1
 *    (BufferAlloc / GetVictimBuffer).
 *  - GetAccessStrategy / GetAccessStrategyWithSize: a sequential scan of a
 *    relation larger than shared_buffers / 4 (heapam.c, initscan) reads
 *    through BAS_BULKREAD, a ring of 256 kB of buffers, at most NBuffers /
 *    8. GetBufferFromRing: the next slot's buffer is reused if its
 *    usage_count is 0 or 1; otherwise (or while the slot is empty) the
 *    clock sweep supplies a buffer and AddBufferToRing puts it in the slot.
 *    (VACUUM's 2 MB and bulk writes' 16 MB rings work the same way; the
 *    simulator sees only reads and writes of pages, so every detected scan
 *    uses the BULKREAD ring.)
 *
 * What is not modelled: pins held across accesses (a simulated access
 * pins and unpins at once), the background writer, dirty buffers a ring
 * rejects (StrategyRejectBuffer), and the sweep's partitions of the newest
 * releases. Scans are not known from a trace; the database tier marks as
 * scan pages those after SIM_SCAN_RUN_PAGES consecutive page numbers
 * (sim.c). In a miniature simulation the ring shrinks with the cache
 * (ring entries = 256 kB / page size x R, at least 1), as the clock's
 * buffers do. Neighbours: sim_int.h, policy.c, docs/models.md
 * #engine-policies.
 */
#include "sim/sim_int.h"

#include <math.h>

extern const struct sim_policy_ops sim_policy_pg;

#define PG_MAX_USAGE 5         /* BM_MAX_USAGE_COUNT */
#define PG_RING_BYTES 262144.0 /* BAS_BULKREAD ring, 256 kB */
#define PG_DEFAULT_PAGE 8192.0 /* BLCKSZ of a standard build */

struct pg_buf {
    uint32_t key;   /* SIM_NO_KEY: free */
    uint32_t usage; /* usage_count, 0..PG_MAX_USAGE */
};

struct pg {
    struct sim_policy base;
    struct pg_buf *buf; /* capacity buffers (owned) */
    uint32_t *free;     /* buffers freed by remove, a stack (owned) */
    uint64_t n_free;
    uint64_t n_fresh;      /* buffers 0..n_fresh-1 have been used */
    uint64_t n_cached;     /* buffers holding a page */
    uint64_t hand;         /* nextVictimBuffer */
    uint32_t *ring;        /* ring slots: buffer + 1, 0 = empty (owned) */
    uint32_t ring_n;       /* slots; 0 = no ring (NBuffers / 8 < 1) */
    uint32_t ring_cur;     /* the slot used last */
    struct sim_keymap map; /* key → buffer + 1 */
};

/* Ring slots for a pool of `cap` buffers of `page` bytes at scale R. */
static uint32_t pg_ring_size(uint64_t cap, double page, double scale)
{
    double n = floor(PG_RING_BYTES / page) * scale;
    uint64_t slots = n < 1.0 ? 1 : (uint64_t)llround(n);

    if (slots > cap / 8) /* Min(NBuffers / 8, ring_buffers) */
        slots = cap / 8;
    return (uint32_t)slots;
}

static void pg_destroy(struct sim_policy *p)
{
    struct pg *c = (struct pg *)p;

    if (!c)
        return;
    free(c->buf);
    free(c->free);
    free(c->ring);
    sim_keymap_release(&c->map);
    free(c);
}

static struct sim_policy *pg_create(uint64_t capacity, uint64_t seed)
{
    struct pg *c = pt_calloc(1, sizeof(*c));

    (void)seed;
    if (!c)
        return NULL;
    c->base.ops = &sim_policy_pg;
    c->base.capacity = capacity;
    c->ring_n = pg_ring_size(capacity, PG_DEFAULT_PAGE, 1.0);
    c->buf = pt_malloc(capacity * sizeof(*c->buf));
    c->free = pt_malloc(capacity * sizeof(*c->free));
    c->ring = pt_calloc(c->ring_n + 1, sizeof(*c->ring));
    if (!c->buf || !c->free || !c->ring) {
        pg_destroy(&c->base);
        return NULL;
    }
    return &c->base;
}

static void pg_tune(struct sim_policy *p, const struct sim_policy_params *pp)
{
    struct pg *c = (struct pg *)p;
    double page = pp->page_size_bytes ? pp->page_size_bytes : PG_DEFAULT_PAGE;
    uint32_t n = pg_ring_size(p->capacity, page, pp->scale);

    /* the ring only shrinks (create sized it for the largest case) */
    if (n < c->ring_n)
        c->ring_n = n;
}

/* StrategyGetBuffer's clock sweep: the next buffer at usage 0. */
static uint64_t pg_sweep(struct pg *c)
{
    uint64_t cap = c->base.capacity;

    for (;;) { /* ends: each pass lowers every count, all reach 0 */
        uint64_t b = c->hand;
        if (++c->hand == cap)
            c->hand = 0;
        if (c->buf[b].usage == 0)
            return b;
        c->buf[b].usage--;
    }
}

/* A buffer for a new page: free ones first, then the sweep. */
static uint64_t pg_get_buffer(struct pg *c)
{
    if (c->n_free)
        return c->free[--c->n_free];
    if (c->n_fresh < c->base.capacity) {
        c->buf[c->n_fresh].key = SIM_NO_KEY;
        return c->n_fresh++;
    }
    return pg_sweep(c);
}

/* GetBufferFromRing: the next slot's buffer if reusable, else fill the
 * slot from the normal path (AddBufferToRing). */
static uint64_t pg_ring_buffer(struct pg *c)
{
    uint32_t slot;
    uint64_t b;

    if (++c->ring_cur >= c->ring_n)
        c->ring_cur = 0;
    slot = c->ring[c->ring_cur];
    if (slot && c->buf[slot - 1].key != SIM_NO_KEY &&
        c->buf[slot - 1].usage <= 1)
        return slot - 1;
    b = pg_get_buffer(c);
    c->ring[c->ring_cur] = (uint32_t)b + 1;
    return b;
}

static int pg_ref(struct sim_policy *p, uint32_t key, int scan,
                  uint32_t *victim)
{
    struct pg *c = (struct pg *)p;
    uint32_t i = sim_keymap_get(&c->map, key);
    uint64_t b;

    *victim = SIM_NO_KEY;
    if (i) {
        struct pg_buf *h = &c->buf[i - 1];
        if (!scan) {
            if (h->usage < PG_MAX_USAGE)
                h->usage++;
        } else if (h->usage == 0) {
            h->usage = 1;
        }
        return 1;
    }
    if (sim_keymap_reserve(&c->map, key))
        return PT_EINTERNAL;
    b = scan && c->ring_n ? pg_ring_buffer(c) : pg_get_buffer(c);
    if (c->buf[b].key != SIM_NO_KEY) {
        *victim = c->buf[b].key;
        c->map.v[*victim] = 0;
        c->n_cached--;
    }
    c->buf[b].key = key;
    c->buf[b].usage = 1;
    c->map.v[key] = (uint32_t)b + 1;
    c->n_cached++;
    return 0;
}

static int pg_access(struct sim_policy *p, uint32_t key, uint32_t *victim)
{
    return pg_ref(p, key, 0, victim);
}

static int pg_access_scan(struct sim_policy *p, uint32_t key, uint32_t *victim)
{
    return pg_ref(p, key, 1, victim);
}

static int pg_contains(const struct sim_policy *p, uint32_t key)
{
    return sim_keymap_get(&((const struct pg *)p)->map, key) != 0;
}

/* InvalidateBuffer: the buffer goes back to the free buffers. */
static int pg_remove(struct sim_policy *p, uint32_t key)
{
    struct pg *c = (struct pg *)p;
    uint32_t i = sim_keymap_get(&c->map, key);

    if (!i)
        return 0;
    c->buf[i - 1].key = SIM_NO_KEY;
    c->buf[i - 1].usage = 0;
    c->free[c->n_free++] = i - 1;
    c->map.v[key] = 0;
    c->n_cached--;
    return 1;
}

static uint64_t pg_count(const struct sim_policy *p)
{
    return ((const struct pg *)p)->n_cached;
}

static void pg_prefetch(const struct sim_policy *p, uint32_t key, int stage)
{
    const struct pg *c = (const struct pg *)p;
    uint32_t i;

    if (stage == 0) {
        sim_keymap_prefetch(&c->map, key);
    } else if ((i = sim_keymap_get(&c->map, key)) != 0) {
        __builtin_prefetch(&c->buf[i - 1]);
    }
}

const struct sim_policy_ops sim_policy_pg = {
    .name = "pg-clock",
    .summary = "PostgreSQL clock sweep, usage counts to 5, scan ring",
    .create = pg_create,
    .access = pg_access,
    .contains = pg_contains,
    .remove = pg_remove,
    .count = pg_count,
    .prefetch = pg_prefetch,
    .destroy = pg_destroy,
    .tune = pg_tune,
    .access_scan = pg_access_scan,
};
