/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sim.c — the two-tier simulator: a DynaCache-like application cache on
 * each of K servers (caching mode, eviction policy, disk offload, a
 * replication sharing policy), in front of a database whose buffer pool
 * caches pages of one size, with rows placed into pages by the engine's
 * page-fit rules (model/). One request at a time (sim_feed), so the
 * caller owns the loop, the progress bar and interruption.
 *
 * The application tier (seeds 001, 002, 004; pagetune-simulate(1)):
 *  - get: a hit in the server's memory cache, or in its disk-offload tier
 *    (then promoted to memory, costing a disk read); otherwise a miss: with
 *    shared-pull the server asks its K-1 peers (K-1 messages) and fetches
 *    the entry from one that has it; with shared-push-pull it knows from
 *    the broadcast ids which peer has it and fetches it without asking;
 *    otherwise (or if no peer has it) it reads the database. The entry is
 *    then cached; with shared-push it is also pushed to the K-1 peers and
 *    with shared-push-pull its id is broadcast (K-1 messages each).
 *  - set: a database write; the distributed map puts the new value in the
 *    local cache, the command cache invalidates the local entry. Shared
 *    policies then tell the K-1 peers: push sends the new value (or the
 *    invalidation), pull and push-pull send an invalidation. not-shared
 *    entries are local: no messages, peers keep their copies.
 *  - del: a database write (the row's page); the entry leaves the local
 *    cache and, for shared policies, the peers' (K-1 invalidations).
 *  - none: every get reads the database; sets and dels write it.
 *  Requests are spread over the servers round-robin (a load balancer
 *  without affinity, as in the Trade runs).
 *  Entries evicted from memory go to the offload tier (an LRU of
 *  offload_entries per server) when it is enabled.
 *
 * The database tier: every database read or write of an object touches
 * the page holding its row (a logical read; a physical read when the page
 * is not in the pool; a dirty page evicted is a physical write). Rows are
 * placed in key order of first touch, filling a page up to its usable
 * bytes and the engine's row limit. An object that does not fit in the row
 * (rec_engine_place > 0) costs, besides the row's page, direct I/O of its
 * bytes when the engine does not buffer out-of-line data (DB2 LONG
 * VARCHAR / LOB: DIRECT_READS / DIRECT_WRITES in 512-byte sectors), or
 * accesses to its overflow pages when it does (PostgreSQL TOAST, InnoDB
 * BLOB pages, SQLite overflow pages; with the engine's index reads to
 * find them, outline_extra_reads). io_ms estimates the device
 * time: each physical page read or write costs overhead + transfer of one
 * page, each direct request overhead + transfer of its bytes.
 */
#include "sim/sim_int.h"

#include <math.h>

struct server {
    struct sim_policy *mem;     /* memory cache (NULL in mode none) */
    struct sim_policy *offload; /* disk tier, NULL when off */
};

struct pool {
    struct sim_policy *bp; /* pages */
    uint8_t *dirty;        /* by page id, grown with pages */
    uint64_t dirty_n;
    struct sim_db_stats st;
};

struct tier {
    uint32_t page_size;
    const struct rec_page_rule *rule;
    struct sim_keymap page_of; /* key → data page + 1 */
    struct sim_keymap ovf_of;  /* key → first overflow page + 1 */
    struct sim_keymap ovf_n;   /* key → number of overflow pages */
    struct sim_keymap leaf_of; /* key → out-of-line index leaf page + 1 */
    uint32_t cur_leaf;         /* index leaf being filled, + 1 */
    uint32_t leaf_fill;        /* entries in it */
    uint32_t upper_first;      /* first upper index page + 1, 0 = none */
    uint32_t cur_page;         /* page being filled, + 1 (0 = none) */
    uint64_t cur_used;         /* bytes used in it */
    uint32_t cur_rows;         /* rows in it */
    uint32_t n_pages;          /* pages allocated */
    size_t n_pools;
    struct pool pools[SIM_MAX_POOLS];
    struct sim_mrc *mrc;   /* the LRU curve (an LRU pool) */
    struct sim_mini *mini; /* any other policy's curve */
    uint32_t last_page;    /* the scan detector: the page touched last */
    uint32_t run;          /* consecutive page numbers up to it */
    uint64_t direct_reads, direct_read_reqs, direct_writes, direct_write_reqs;
    uint64_t inline_acc, outline_acc, too_big;
    double direct_ms;
};

struct sim {
    struct sim_config cfg;
    unsigned rr; /* next server, round-robin */
    struct server srv[SIM_MAX_SERVERS];
    struct sim_app_stats app;
    struct sim_mrc *app_mrc;   /* app-tier curve when there is no db tier */
    struct sim_mini *app_mini; /* likewise, a policy other than LRU */
    uint64_t now_ms;           /* time of the request being fed */
    int plain; /* a get is one access of one server's memory (feed_gets) */
    size_t n_tiers;
    struct tier tiers[SIM_MAX_TIERS];
};

void sim_costs_default(struct sim_costs *c)
{
    c->db_read_ms = 1.0;
    c->db_write_ms = 1.0;
    c->message_ms = 0.25;
    c->peer_fetch_ms = 1.5;
    c->offload_read_ms = 0.2;
}

/* ---- database tier ------------------------------------------------------
 */

static int pool_touch(struct pool *pl, uint32_t page, int write, int scan,
                      uint64_t now_ms, const struct rec_device *dev,
                      uint32_t page_size)
{
    struct sim_policy *bp = pl->bp;
    uint32_t victim;
    int rc;

    if (page >= pl->dirty_n) {
        uint64_t n = pl->dirty_n ? pl->dirty_n : 1024;
        uint8_t *d;
        while (n <= page)
            n *= 2;
        d = pt_realloc(pl->dirty, n);
        if (!d)
            return PT_EINTERNAL;
        memset(d + pl->dirty_n, 0, n - pl->dirty_n);
        pl->dirty = d;
        pl->dirty_n = n;
    }
    pl->st.logical_reads++;
    bp->now_ms = now_ms;
    rc = scan && bp->ops->access_scan ? bp->ops->access_scan(bp, page, &victim)
                                      : bp->ops->access(bp, page, &victim);
    if (rc < 0)
        return rc;
    if (rc == 0) {
        pl->st.physical_reads++;
        if (dev)
            pl->st.io_ms += rec_device_read_ms(dev, page_size);
        if (victim != SIM_NO_KEY && pl->dirty[victim]) {
            pl->dirty[victim] = 0;
            pl->st.physical_writes++;
            if (dev)
                pl->st.io_ms += rec_device_read_ms(dev, page_size);
        }
    }
    if (write)
        pl->dirty[page] = 1;
    return 0;
}

static int tier_touch_page(struct sim *s, struct tier *t, uint32_t page,
                           int write)
{
    size_t p;
    int rc, scan;

    /* a scan: the pages after SIM_SCAN_RUN_PAGES consecutive numbers */
    if (page == t->last_page + 1)
        t->run++;
    else if (page != t->last_page)
        t->run = 0;
    t->last_page = page;
    scan = t->run >= SIM_SCAN_RUN_PAGES;
    if (t->mrc && (rc = sim_mrc_access(t->mrc, page, 1)))
        return rc;
    if (t->mini &&
        (rc = sim_mini_access(t->mini, page,
                              SIM_MINI_COUNTED | (scan ? SIM_MINI_SCAN : 0),
                              s->now_ms)))
        return rc;
    for (p = 0; p < t->n_pools; p++)
        if ((rc = pool_touch(&t->pools[p], page, write, scan, s->now_ms,
                             s->cfg.device, t->page_size)))
            return rc;
    return 0;
}

/* The page of key's row, placing the row on first touch. */
static int tier_place(struct sim *s, struct tier *t, uint32_t key,
                      uint32_t size, int where, uint32_t *page)
{
    const struct rec_engine *e = s->cfg.engine;
    uint32_t pg = sim_keymap_get(&t->page_of, key);
    uint64_t row;

    if (pg) {
        *page = pg - 1;
        return 0;
    }
    if (sim_keymap_reserve(&t->page_of, key))
        return PT_EINTERNAL;
    row = (uint64_t)rec_engine_row_bytes(e, t->rule, size) +
          e->row_overhead_bytes;
    if (!t->cur_page || t->cur_used + row > t->rule->usable_bytes ||
        t->cur_rows >= e->max_rows_per_page) {
        t->cur_page = ++t->n_pages;
        t->cur_used = 0;
        t->cur_rows = 0;
    }
    t->cur_used += row;
    t->cur_rows++;
    t->page_of.v[key] = t->cur_page;
    *page = t->cur_page - 1;
    /*
     * Buffered out-of-line data: its own overflow pages (the engine's
     * out-of-line payload per page, e.g. 4 TOAST chunks), and, when the
     * engine finds them through an index (outline_extra_reads: TOAST
     * index root + leaf), a leaf entry of ~32 bytes in a shared leaf page
     * plus extra_reads - 1 upper index pages shared by all keys.
     */
    if (where > 0 && e->outline_buffered) {
        uint64_t per = t->rule->outline_payload_bytes
                           ? t->rule->outline_payload_bytes
                           : t->rule->usable_bytes;
        uint64_t n = (size + per - 1) / per;
        if (sim_keymap_reserve(&t->ovf_of, key) ||
            sim_keymap_reserve(&t->ovf_n, key))
            return PT_EINTERNAL;
        t->ovf_of.v[key] = t->n_pages + 1;
        t->ovf_n.v[key] = (uint32_t)n;
        t->n_pages += (uint32_t)n;
        if (e->outline_extra_reads) {
            uint32_t per_leaf = t->rule->usable_bytes / 32;
            if (sim_keymap_reserve(&t->leaf_of, key))
                return PT_EINTERNAL;
            if (!t->upper_first && e->outline_extra_reads > 1) {
                t->upper_first = t->n_pages + 1;
                t->n_pages += e->outline_extra_reads - 1;
            }
            if (!t->cur_leaf || t->leaf_fill >= (per_leaf ? per_leaf : 1)) {
                t->cur_leaf = ++t->n_pages;
                t->leaf_fill = 0;
            }
            t->leaf_fill++;
            t->leaf_of.v[key] = t->cur_leaf;
        }
    }
    return 0;
}

static int tier_access(struct sim *s, struct tier *t, uint32_t key,
                       uint32_t size, int write)
{
    const struct rec_engine *e = s->cfg.engine;
    int where = rec_engine_place(e, t->rule, size);
    uint32_t page, i;
    int rc;

    if (where == REC_PLACE_TOO_BIG) {
        t->too_big++;
        return 0;
    }
    if ((rc = tier_place(s, t, key, size, where, &page)))
        return rc;
    if ((rc = tier_touch_page(s, t, page, write)))
        return rc;
    if (where == REC_PLACE_INLINE) {
        t->inline_acc++;
        return 0;
    }
    t->outline_acc++;
    if (!e->outline_buffered) {
        uint64_t unit = e->direct_io_unit_bytes ? e->direct_io_unit_bytes : 1;
        uint64_t sectors = (size + unit - 1) / unit;
        if (write) {
            t->direct_writes += sectors;
            t->direct_write_reqs++;
        } else {
            t->direct_reads += sectors;
            t->direct_read_reqs++;
        }
        if (s->cfg.device)
            t->direct_ms += rec_device_read_ms(s->cfg.device, size);
        return 0;
    }
    /* the out-of-line index, then the overflow pages (placed with the row) */
    if (t->upper_first)
        for (i = 0; i + 1 < e->outline_extra_reads; i++)
            if ((rc = tier_touch_page(s, t, t->upper_first - 1 + i, write)))
                return rc;
    page = sim_keymap_get(&t->leaf_of, key);
    if (page && (rc = tier_touch_page(s, t, page - 1, write)))
        return rc;
    page = sim_keymap_get(&t->ovf_of, key);
    for (i = 0; page && i < sim_keymap_get(&t->ovf_n, key); i++)
        if ((rc = tier_touch_page(s, t, page - 1 + i, write)))
            return rc;
    return 0;
}

static int db_access(struct sim *s, uint32_t key, uint32_t size, int write)
{
    size_t i;
    int rc;

    if (write)
        s->app.db_writes++;
    else
        s->app.db_reads++;
    for (i = 0; i < s->n_tiers; i++)
        if ((rc = tier_access(s, &s->tiers[i], key, size, write)))
            return rc;
    return 0;
}

/* ---- application tier ---------------------------------------------------
 */

/* Insert key into server v's memory; the victim goes to its disk tier. */
static int srv_insert(struct sim *s, struct server *v, uint32_t key)
{
    uint32_t victim, dummy;
    int rc;

    v->mem->now_ms = s->now_ms;
    rc = v->mem->ops->access(v->mem, key, &victim);
    if (rc < 0)
        return rc;
    if (v->offload) {
        v->offload->ops->remove(v->offload, key);
        if (victim != SIM_NO_KEY &&
            (rc = v->offload->ops->access(v->offload, victim, &dummy)) < 0)
            return rc;
    }
    return 0;
}

static void srv_drop(struct server *v, uint32_t key)
{
    v->mem->ops->remove(v->mem, key);
    if (v->offload)
        v->offload->ops->remove(v->offload, key);
}

static int srv_has(const struct server *v, uint32_t key)
{
    return v->mem->ops->contains(v->mem, key) ||
           (v->offload && v->offload->ops->contains(v->offload, key));
}

static int peer_has(const struct sim *s, unsigned self, uint32_t key)
{
    unsigned i;

    for (i = 0; i < s->cfg.servers; i++)
        if (i != self && srv_has(&s->srv[i], key))
            return 1;
    return 0;
}

static int app_get(struct sim *s, unsigned self, const struct sim_req *q)
{
    struct server *v = &s->srv[self];
    uint32_t key = (uint32_t)q->key_id, victim, dummy;
    unsigned peers = s->cfg.servers - 1, i;
    int rc, in_offload = 0;

    if (s->app_mrc && (rc = sim_mrc_access(s->app_mrc, key, 1)))
        return rc;
    if (s->app_mini &&
        (rc = sim_mini_access(s->app_mini, key, SIM_MINI_COUNTED, s->now_ms)))
        return rc;
    v->mem->now_ms = s->now_ms;
    /* one lookup on the hot path: access() inserts on a miss */
    rc = v->mem->ops->access(v->mem, key, &victim);
    if (rc < 0)
        return rc;
    if (rc == 1) {
        s->app.hits++;
        return 0;
    }
    if (v->offload) {
        in_offload = v->offload->ops->remove(v->offload, key);
        if (victim != SIM_NO_KEY &&
            (rc = v->offload->ops->access(v->offload, victim, &dummy)) < 0)
            return rc;
        if (in_offload) {
            s->app.hits++;
            s->app.offload_hits++;
            return 0;
        }
    }
    s->app.misses++;
    switch (s->cfg.sharing) {
    case SIM_SHARE_PULL:
        s->app.replication_messages += peers;
        if (peer_has(s, self, key))
            s->app.peer_fetches++;
        else
            return db_access(s, key, q->size_bytes, 0);
        return 0;
    case SIM_SHARE_PUSH_PULL:
        if (peer_has(s, self, key)) { /* known from the broadcast ids */
            s->app.peer_fetches++;
            return 0;
        }
        s->app.replication_messages += peers; /* broadcast the new id */
        return db_access(s, key, q->size_bytes, 0);
    case SIM_SHARE_PUSH:
        s->app.replication_messages += peers;
        for (i = 0; i < s->cfg.servers; i++)
            if (i != self && (rc = srv_insert(s, &s->srv[i], key)))
                return rc;
        return db_access(s, key, q->size_bytes, 0);
    default:
        return db_access(s, key, q->size_bytes, 0);
    }
}

static int app_set(struct sim *s, unsigned self, const struct sim_req *q)
{
    struct server *v = &s->srv[self];
    uint32_t key = (uint32_t)q->key_id;
    unsigned peers = s->cfg.servers - 1, i;
    int rc, dmap = s->cfg.mode == SIM_MODE_DMAP;

    if ((rc = db_access(s, key, q->size_bytes, 1)))
        return rc;
    if (s->app_mrc) {
        if (dmap)
            rc = sim_mrc_access(s->app_mrc, key, 0);
        else
            sim_mrc_remove(s->app_mrc, key);
        if (rc)
            return rc;
    }
    if (s->app_mini &&
        (rc = dmap ? sim_mini_access(s->app_mini, key, 0, s->now_ms)
                   : sim_mini_remove(s->app_mini, key)))
        return rc;
    if (dmap) {
        if ((rc = srv_insert(s, v, key)))
            return rc;
    } else {
        srv_drop(v, key);
    }
    if (s->cfg.sharing == SIM_SHARE_NOT_SHARED)
        return 0;
    s->app.replication_messages += peers;
    for (i = 0; i < s->cfg.servers; i++) {
        if (i == self)
            continue;
        if (s->cfg.sharing == SIM_SHARE_PUSH && dmap)
            rc = srv_insert(s, &s->srv[i], key);
        else
            srv_drop(&s->srv[i], key);
        if (rc)
            return rc;
    }
    return 0;
}

static int app_del(struct sim *s, unsigned self, const struct sim_req *q)
{
    uint32_t key = (uint32_t)q->key_id;
    unsigned i;
    int rc;

    if ((rc = db_access(s, key, q->size_bytes, 1)))
        return rc;
    if (s->app_mrc)
        sim_mrc_remove(s->app_mrc, key);
    if (s->app_mini && (rc = sim_mini_remove(s->app_mini, key)))
        return rc;
    srv_drop(&s->srv[self], key);
    if (s->cfg.sharing == SIM_SHARE_NOT_SHARED)
        return 0;
    s->app.replication_messages += s->cfg.servers - 1;
    for (i = 0; i < s->cfg.servers; i++)
        if (i != self)
            srv_drop(&s->srv[i], key);
    return 0;
}

/* sim_prefetch, inlined into sim_run's loop */
static inline void prefetch_req(const struct sim *s, uint64_t key_id,
                                unsigned ahead, int stage)
{
    unsigned k = 0; /* the server that will serve it */
    const struct sim_policy *m;

    /* one server is the common case: no loop, whose trip count (ahead,
       0-15) the branch predictor cannot know; ahead is small, so with more
       servers a subtraction or two beats a division */
    if (s->cfg.servers > 1)
        for (k = s->rr + ahead; k >= s->cfg.servers;)
            k -= s->cfg.servers;
    m = s->srv[k].mem;

    if (m && m->ops->prefetch)
        m->ops->prefetch(m, (uint32_t)key_id, stage);
    if (s->app_mrc)
        sim_mrc_prefetch(s->app_mrc, (uint32_t)key_id, stage);
}

void sim_prefetch(const struct sim *s, uint64_t key_id, unsigned ahead,
                  int stage)
{
    prefetch_req(s, key_id, ahead, stage);
}

/* sim_feed without the message (inlined into sim_run's loop): 0 or < 0 */
static inline int feed_req(struct sim *s, const struct sim_req *q)
{
    unsigned self = s->rr;
    int rc;

    if (++s->rr == s->cfg.servers)
        s->rr = 0;
    /* policy time: the trace's, or requests at a stated rate */
    s->now_ms =
        s->cfg.request_rate > 0
            ? (uint64_t)((double)s->app.requests * 1000.0 / s->cfg.request_rate)
            : q->time_ms;
    s->app.requests++;
    if (q->op != SIM_DEL)
        s->app.object_bytes += q->size_bytes;
    if (s->cfg.mode == SIM_MODE_NONE) {
        if (q->op == SIM_GET) {
            s->app.gets++;
            s->app.misses++;
            rc = db_access(s, (uint32_t)q->key_id, q->size_bytes, 0);
        } else {
            if (q->op == SIM_SET)
                s->app.sets++;
            else
                s->app.dels++;
            rc = db_access(s, (uint32_t)q->key_id, q->size_bytes, 1);
        }
    } else if (q->op == SIM_GET) {
        s->app.gets++;
        rc = app_get(s, self, q);
    } else if (q->op == SIM_SET) {
        s->app.sets++;
        rc = app_set(s, self, q);
    } else {
        s->app.dels++;
        rc = app_del(s, self, q);
    }
    return rc < 0 ? rc : 0;
}

/*
 * n gets to a plain simulator (sim_new: one server, memory cache only, no
 * curve, no database tier, trace time): what feed_req does with each, in
 * one call of the policy's access_many. q[n..n+ahead-1] follow them.
 */
static int feed_gets(struct sim *s, const struct sim_req *q, size_t n,
                     size_t ahead)
{
    struct sim_policy *m = s->srv[0].mem;
    uint64_t hits = 0, bytes = 0;
    size_t j;
    int rc;

    s->now_ms = m->now_ms = q[n - 1].time_ms;
    rc = m->ops->access_many(m, q, n, ahead, &hits);
    if (rc < 0)
        return rc;
    for (j = 0; j < n; j++)
        bytes += q[j].size_bytes;
    s->app.requests += n;
    s->app.gets += n;
    s->app.object_bytes += bytes;
    s->app.hits += hits;
    s->app.misses += n - hits;
    s->app.db_reads += n - hits;
    return 0;
}

int sim_feed(struct sim *s, const struct sim_req *q, struct pt_err *err)
{
    int rc = feed_req(s, q);

    if (rc < 0)
        return err_set(err, rc, "simulator out of memory");
    return 0;
}

/* ---- lifecycle and results ----------------------------------------------
 */

/* A policy instance at full size, tuned for its pages (0: entries). */
static struct sim_policy *policy_new(const struct sim_policy_ops *ops,
                                     uint64_t capacity, uint64_t seed,
                                     uint32_t page_size)
{
    struct sim_policy *p = ops->create(capacity, seed);
    struct sim_policy_params pp = {page_size, 1.0, 0, 0};

    if (p && ops->tune)
        ops->tune(p, &pp);
    return p;
}

int sim_new(const struct sim_config *cfg, struct sim **out, struct pt_err *err)
{
    const struct sim_policy_ops *app_ops, *bp_ops;
    struct sim *s;
    size_t i, p;
    unsigned k;
    int rc = PT_EINTERNAL;

    *out = NULL;
    if (cfg->servers < 1 || cfg->servers > SIM_MAX_SERVERS)
        return err_set(err, PT_EUSAGE, "`servers` must be 1..%d",
                       SIM_MAX_SERVERS);
    if (cfg->mode != SIM_MODE_NONE && cfg->app_entries < 1)
        return err_set(err, PT_EUSAGE,
                       "the application cache needs at least "
                       "one entry");
    if (cfg->app_entries > 0xfffffff0ULL ||
        cfg->offload_entries > 0xfffffff0ULL)
        return err_set(err, PT_EUSAGE,
                       "cache sizes are limited to 2^32 "
                       "entries");
    if (cfg->n_tiers > SIM_MAX_TIERS)
        return err_set(err, PT_EUSAGE, "at most %d page sizes", SIM_MAX_TIERS);
    if (cfg->n_tiers && !cfg->engine)
        return err_set(err, PT_EUSAGE, "a database tier needs an engine");
    if (cfg->mrc && (!(cfg->sample_rate > 0.0) || cfg->sample_rate > 1.0))
        return err_set(err, PT_EUSAGE, "`sample_rate` must be in (0, 1]");
    s = pt_calloc(1, sizeof(*s));
    if (!s)
        return err_set(err, PT_EINTERNAL, "out of memory");
    s->cfg = *cfg;
    app_ops = cfg->app_policy ? cfg->app_policy : sim_policy_find("lru");
    bp_ops = cfg->bp_policy ? cfg->bp_policy : sim_policy_find("lru");
    for (k = 0; cfg->mode != SIM_MODE_NONE && k < cfg->servers; k++) {
        s->srv[k].mem = policy_new(app_ops, cfg->app_entries, cfg->seed + k, 0);
        if (!s->srv[k].mem)
            goto oom;
        if (cfg->offload_entries) {
            s->srv[k].offload = sim_policy_find("lru")->create(
                cfg->offload_entries, cfg->seed + k);
            if (!s->srv[k].offload)
                goto oom;
        }
    }
    if (cfg->mrc && cfg->n_tiers == 0 && cfg->mode != SIM_MODE_NONE) {
        if (sim_policy_is_lru(app_ops))
            s->app_mrc = sim_mrc_new(cfg->sample_rate, cfg->seed);
        else
            s->app_mini = sim_mini_new(cfg->sample_rate, cfg->seed);
        if (!s->app_mrc && !s->app_mini)
            goto oom;
    }
    s->n_tiers = cfg->n_tiers;
    for (i = 0; i < cfg->n_tiers; i++) {
        struct tier *t = &s->tiers[i];
        char list[128];

        t->page_size = cfg->tiers[i].page_size_bytes;
        t->rule = rec_engine_page(cfg->engine, t->page_size);
        if (!t->rule) {
            rc = err_set(err, PT_EUSAGE,
                         "engine '%s' has no %u-byte pages (it has %s)",
                         cfg->engine->name, t->page_size,
                         rec_engine_page_list(cfg->engine, list, sizeof(list)));
            goto fail;
        }
        if (cfg->tiers[i].n_pools > SIM_MAX_POOLS) {
            rc = err_set(err, PT_EUSAGE, "at most %d buffer-pool sizes",
                         SIM_MAX_POOLS);
            goto fail;
        }
        t->n_pools = cfg->tiers[i].n_pools;
        for (p = 0; p < t->n_pools; p++) {
            uint64_t n = cfg->tiers[i].pool_pages[p];
            if (n < 1 || n > 0xfffffff0ULL) {
                rc = err_set(err, PT_EUSAGE,
                             "a buffer pool of %llu pages at %u-byte pages "
                             "is out of range",
                             (unsigned long long)n, t->page_size);
                goto fail;
            }
            t->pools[p].bp = policy_new(bp_ops, n, cfg->seed, t->page_size);
            if (!t->pools[p].bp)
                goto oom;
            t->pools[p].st.page_size_bytes = t->page_size;
            t->pools[p].st.pool_pages = n;
        }
        if (cfg->mrc && !cfg->tiers[i].no_curve) {
            if (sim_policy_is_lru(bp_ops))
                t->mrc = sim_mrc_new(cfg->sample_rate, cfg->seed);
            else
                t->mini = sim_mini_new(cfg->sample_rate, cfg->seed);
            if (!t->mrc && !t->mini)
                goto oom;
        }
    }
    /* what app_get does with a get when nothing but the memory cache is
       there: the policy's access and the counters (feed_gets) */
    s->plain = cfg->mode != SIM_MODE_NONE && cfg->servers == 1 &&
               !s->srv[0].offload && !s->app_mrc && !s->app_mini &&
               s->n_tiers == 0 && !(cfg->request_rate > 0) &&
               app_ops->access_many;
    *out = s;
    return 0;
oom:
    rc = err_set(err, PT_EINTERNAL, "out of memory building the simulator");
fail:
    sim_free(s);
    return rc;
}

void sim_app_stats(const struct sim *s, struct sim_app_stats *out)
{
    const struct sim_costs *c = &s->cfg.costs;

    *out = s->app;
    out->cost_ms = (double)s->app.db_reads * c->db_read_ms +
                   (double)s->app.db_writes * c->db_write_ms +
                   (double)s->app.replication_messages * c->message_ms +
                   (double)s->app.peer_fetches * c->peer_fetch_ms +
                   (double)s->app.offload_hits * c->offload_read_ms;
}

void sim_db_stats(const struct sim *s, size_t t, size_t p,
                  struct sim_db_stats *out)
{
    const struct tier *tr = &s->tiers[t];

    *out = tr->pools[p].st;
    out->direct_reads = tr->direct_reads;
    out->direct_read_reqs = tr->direct_read_reqs;
    out->direct_writes = tr->direct_writes;
    out->direct_write_reqs = tr->direct_write_reqs;
    out->inline_accesses = tr->inline_acc;
    out->outline_accesses = tr->outline_acc;
    out->too_big = tr->too_big;
    out->pages_used = tr->n_pages;
    out->io_ms += tr->direct_ms;
}

struct sim_mrc *sim_curve(struct sim *s, size_t t)
{
    if (s->n_tiers == 0)
        return t == 0 ? s->app_mrc : NULL;
    return t < s->n_tiers ? s->tiers[t].mrc : NULL;
}

struct sim_mini *sim_curve_mini(struct sim *s, size_t t)
{
    if (s->n_tiers == 0)
        return t == 0 ? s->app_mini : NULL;
    return t < s->n_tiers ? s->tiers[t].mini : NULL;
}

void sim_free(struct sim *s)
{
    size_t i, p;
    unsigned k;

    if (!s)
        return;
    for (k = 0; k < SIM_MAX_SERVERS; k++) {
        if (s->srv[k].mem)
            s->srv[k].mem->ops->destroy(s->srv[k].mem);
        if (s->srv[k].offload)
            s->srv[k].offload->ops->destroy(s->srv[k].offload);
    }
    sim_mrc_free(s->app_mrc);
    sim_mini_free(s->app_mini);
    for (i = 0; i < SIM_MAX_TIERS; i++) {
        struct tier *t = &s->tiers[i];
        for (p = 0; p < SIM_MAX_POOLS; p++) {
            if (t->pools[p].bp)
                t->pools[p].bp->ops->destroy(t->pools[p].bp);
            free(t->pools[p].dirty);
        }
        sim_keymap_release(&t->page_of);
        sim_keymap_release(&t->ovf_of);
        sim_keymap_release(&t->ovf_n);
        sim_keymap_release(&t->leaf_of);
        sim_mrc_free(t->mrc);
        sim_mini_free(t->mini);
    }
    free(s);
}

/*
 * The run's pipeline: requests are read into a buffer of 2 x RUN_BATCH
 * (the reader's own loop, RUN_BATCH at a time) and fed RUN_BATCH at a
 * time, so RUN_BATCH requests past the ones being fed are read (but at
 * the trace's end). A plain simulator takes a batch of gets in one call
 * (feed_gets: the policy's access_many, which prefetches for itself);
 * otherwise feeding a request asks for what the request RUN_AHEAD later
 * will touch (prefetch stage 0: its key-map slot or entry; the reader
 * asked for its intern slot ORACLE_AHEAD records before reading it) and
 * reads for the one RUN_ENTRY later what stage 0 brought in (stage 1) —
 * so a request's dependent cache misses overlap with other requests'
 * work. (Prefetching the entry's list neighbours too, 3 ahead, measured
 * slower on the reference trace: 0.72-1.10 s against 0.68-0.74 s of CPU.)
 */
#define RUN_BATCH 32u /* >= RUN_AHEAD */
#define RUN_AHEAD 16u
#define RUN_ENTRY 8u

int64_t sim_run(struct sim_trace_reader *r, struct sim *const *sims, size_t n,
                pt_progress_fn *progress, void *ctx, struct pt_err *err)
{
    return sim_run_halt(r, sims, n, progress, ctx, NULL, err);
}

/* Are q[0..n-1] all gets? */
static int all_gets(const struct sim_req *q, size_t n)
{
    size_t j;

    for (j = 0; j < n; j++)
        if (q[j].op != SIM_GET)
            return 0;
    return 1;
}

int64_t sim_run_halt(struct sim_trace_reader *r, struct sim *const *sims,
                     size_t n, pt_progress_fn *progress, void *ctx,
                     const atomic_int *halt, struct pt_err *err)
{
    struct sim_req buf[2 * RUN_BATCH];
    size_t have = 0, k, i, j;
    uint64_t done = 0;
    int64_t got;
    int rc, eof = 0, gets;

    for (;;) {
        while (!eof && have < 2 * RUN_BATCH) {
            got =
                sim_trace_next_batch(r, buf + have, 2 * RUN_BATCH - have, err);
            if (got < 0)
                return got;
            eof = got == 0;
            have += (size_t)got;
        }
        if (have == 0)
            break;
        /* feed buf[0..k-1]; buf[k..have-1] follow them */
        k = have < RUN_BATCH ? have : RUN_BATCH;
        gets = all_gets(buf, k);
        for (i = 0; i < n; i++) {
            struct sim *s = sims[i];
            if (gets && s->plain) {
                if ((rc = feed_gets(s, buf, k, have - k)) < 0)
                    return err_set(err, rc, "simulator out of memory");
                continue;
            }
            for (j = 0; j < k; j++) {
                if (j + RUN_AHEAD < have)
                    prefetch_req(s, buf[j + RUN_AHEAD].key_id, RUN_AHEAD, 0);
                if (j + RUN_ENTRY < have)
                    prefetch_req(s, buf[j + RUN_ENTRY].key_id, RUN_ENTRY, 1);
                if ((rc = feed_req(s, &buf[j])) < 0)
                    return err_set(err, rc, "simulator out of memory");
            }
        }
        memmove(buf, buf + k, (have - k) * sizeof(buf[0]));
        have -= k;
        done += k;
        if ((done & 0xffff) >= k)
            continue; /* no multiple of 2^16 passed */
        if (progress)
            progress(ctx, sim_trace_pos(r), sim_trace_size(r));
        if (pt_interrupted() || (halt && atomic_load(halt)))
            return err_set(err, PT_EINTR, "interrupted");
    }
    return (int64_t)done;
}
