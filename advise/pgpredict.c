/* SPDX-License-Identifier: Apache-2.0 */
/*
 * pgpredict.c — what a replay on a PostgreSQL server (collect/pgreplay.c)
 * should count, predicted before looking at the counts (issue 28): the
 * same requests, in the same passes and order, applied to an emulation of
 * the scratch tables' pages (heap, TOAST, primary key, TOAST index) and
 * of shared_buffers under the engine's buffer-pool policy (sim/'s
 * pg-clock, and LRU beside it), counting per relation the blocks found in
 * the pool (hits) and not (reads), as pg_statio_all_tables does.
 *
 * Where the bytes go is the toaster's (model/pgtoast.c rec_pg_tuple_fit:
 * the heap tuple, compressed or not, the TOAST chunks) and where a tuple
 * lands is hio.c's (rec_pg_pack_place: the backend's target block, the
 * free space map, the extension). What each statement reads, from
 * PostgreSQL 15's source:
 *
 *  - a get (SELECT ... WHERE id = ?): a primary-key descent (nbtsearch.c
 *    _bt_search: root to leaf), the heap page (heapam_handler.c
 *    heapam_index_fetch_tuple, which first prunes the page when it is
 *    nearly full: pruneheap.c heap_page_prune_opt, free space under
 *    max(BLCKSZ / 10, the fillfactor's)), and for a value out of line
 *    (detoast.c toast_fetch_datum) a TOAST-index descent and each TOAST
 *    page of its chunks once (the fetch keeps the buffer while the block
 *    is the same), each pruned likewise;
 *  - a set (INSERT ... ON CONFLICT DO UPDATE): the arbiter check
 *    (execIndexing.c check_exclusion_or_unique_constraint: a primary-key
 *    descent and the heap page), heap_lock_tuple and heap_update (the page
 *    twice more); heap_toast_insert_or_update saves the new value
 *    (toast_save_datum: per chunk a heap_insert through hio.c and a
 *    TOAST-index insertion, a descent to the rightmost leaf: chunk ids are
 *    new OIDs, ascending) and then deletes the old one
 *    (toast_delete_datum: a TOAST-index descent, per chunk the fetch and
 *    heap_delete, two reads of its page); the new heap tuple stays on its
 *    page when it fits (a HOT update: no index entry) or goes where hio.c
 *    puts it, with a primary-key insertion (its descent);
 *  - a delete: the descent, the heap page twice and the value's deletion;
 *  - the load: per session the arbiter descent, the value saved, the heap
 *    tuple placed by client 0's backend, the primary-key insertion;
 *  - VACUUM after each pass (pgreplay.c): dead tuples' space and line
 *    pointers freed, every page's free space to the map; its own reads go
 *    through a 256 kB ring (BAS_VACUUM) and are outside the counts: the
 *    emulation leaves the pool as it is.
 * A new page of an extension is counted as a read (bufmgr.c
 * ReadBufferExtended counts every call, ReadBuffer_common a hit only for a
 * page it found). A descent reads every level's page, root to leaf (the
 * metapage is the relcache's: rd_amcache).
 *
 * Not emulated: concurrency (the K clients' requests run in trace order,
 * each with its own target block), the primary key's page splits after
 * the load (a session's leaf is its rank in the key order at ~69 % fill,
 * a b-tree's under random insertion), bottom-up deletion and
 * deduplication, the other tables' pages in the pool unless
 * pg_buffercache counted them (pred_pool; the catalogs' are left out on
 * purpose: the sweep evicts them early in a pass, docs/models.md
 * #engine-policies),
 * VACUUM's truncation, lz4 (only pglz's size is known here: a candidate
 * compressing with lz4 is not predicted).
 *
 * Neighbours: collect/pgreplay.c (the run it predicts), model/pgtoast.c,
 * sim/policy_pg.c, cli/cmd_replay.c and pipeline.c (the report beside the
 * measured counts), docs/models.md#server-replay-prediction.
 */
#include "advise/advise.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { REL_HEAP, REL_TOAST, REL_IDX, REL_TIDX, REL_N };

#define PGP_MAX_CLIENTS 64
#define PGP_PAGE_HEADER 24 /* SizeOfPageHeaderData */
#define PGP_BT_SPECIAL 16  /* BTPageOpaqueData */
#define PGP_NONE ((size_t)-1)
#define PGP_MAX_DEAD 4 /* dead versions remembered per session */
/* A primary-key entry: IndexTupleData (8) + id and propid ("pt" + 16 hex
 * digits, 1-byte varlena header each: 19 + 19) + appname
 * ('default_host/pagetune': 22), MAXALIGNed, + its line pointer. */
#define PGP_PK_ENTRY 76
#define PGP_PK_FILL 0.69 /* a b-tree filled in random order: ln 2 */
/* A primary-key pivot tuple above the leaves: suffix truncation keeps
 * the id only (nbtinsert.c _bt_truncate): 8 + 19, MAXALIGNed, + item. */
#define PGP_PK_PIVOT 36
#define PGP_MAX_LEVELS 8
/* nbtinsert.c _bt_bottomupdel_pass / heapam.c bottomup_sort_and_shrink:
 * at most 6 heap blocks a bottom-up pass, which stops once it freed
 * max(BLCKSZ / 16, the new item) bytes */
#define PGP_BOTTOMUP_BLOCKS 6
#define PGP_LEAF_MAX 1024 /* dead entries a deletion pass reads at most */
#define PGP_POSTING_TID 6 /* a heap TID in a posting list (ItemPointerData) */
/* USERNAME is NULL: the tuple has a null bitmap (9 or 10 columns, 2
 * bytes), so t_hoff is MAXALIGN(23 + 2) = 32, 8 more than pgtoast.c's
 * header of a row without nulls (heaptuple.c heap_form_tuple). */
#define PGP_NULL_BITMAP 8

/* A heap or TOAST relation: pages as hio.c fills them, the dead bytes
 * pruning frees (tuple bodies) and VACUUM frees (their line pointers). */
struct rel {
    struct rec_pg_pack pack;
    uint32_t *dead;   /* per page: dead tuple bytes, line pointers apart */
    uint32_t *items;  /* per page: dead line pointers (LP_DEAD) */
    uint32_t *pid;    /* per page: pool id + 1, 0 = never read */
    uint32_t *full;   /* per page: PD_PAGE_FULL, an update found no room */
    uint32_t minfree; /* pruning's threshold of free bytes (prune) */
    size_t cap;
    size_t target[PGP_MAX_CLIENTS]; /* each backend's target block */
};

/* A dead version's entry in a primary-key leaf. */
struct dent {
    uint32_t page;    /* its heap page */
    uint32_t key;     /* its session */
    uint16_t killed;  /* marked LP_DEAD by a scan that found it dead */
    uint16_t deduped; /* a TID in its key's posting list (6 bytes) */
};

/* A primary-key leaf (after splits, the leaves its keys' range holds):
 * bytes used and room (entries with their line pointers), and the dead
 * versions' entries among them. */
struct leaf {
    uint32_t used, cap;
    struct dent *d;
    uint32_t nd, dcap;
};

/* A b-tree's pages above the leaves: per level (1 = the leaves' parents)
 * each page's pool id + 1. */
struct inner {
    uint32_t *pid[PGP_MAX_LEVELS];
    uint64_t cap[PGP_MAX_LEVELS];
    uint32_t fanout;
};

struct chunk {
    uint32_t page;
    uint32_t bytes; /* the chunk tuple with its line pointer */
};

/* A session's row in one table. */
struct row {
    uint32_t page;  /* heap page */
    uint32_t bytes; /* heap tuple with its line pointer; 0 = no row */
    uint64_t first; /* out of line: its first chunk in `chunks`, else ~0 */
    uint32_t n;     /* chunks */
    uint64_t seq;   /* its first TOAST-index entry, in insertion order */
    uint32_t dead[PGP_MAX_DEAD]; /* pages of versions a non-HOT update
                                    left behind, their primary-key entries
                                    not yet found dead (killed) */
    uint32_t n_dead;
};

struct cand {
    struct rel heap, toast;
    struct row *rows;     /* n_keys */
    struct chunk *chunks; /* every value saved, in order (grows) */
    uint64_t n_chunks, cap_chunks;
    uint32_t *idx_leaf;  /* per session: its primary-key leaf */
    uint32_t *idx_pid;   /* per leaf: pool id + 1 */
    struct leaf *leaves; /* per leaf: its entries */
    uint64_t idx_leaves;
    unsigned idx_levels;
    struct inner idx_in, tidx_in;
    uint32_t leaf_cap;     /* bytes a leaf page holds */
    uint64_t tidx_entries; /* TOAST-index entries inserted */
    uint32_t *tidx_pid;    /* per leaf: pool id + 1 (grows) */
    uint64_t tidx_cap;
    uint32_t tidx_per_leaf, tidx_fanout;
    struct rec_pg_table tab;  /* the table; a text value's ratio is its own */
    struct coll_pgr_blocks n; /* counted so far */
    int lz4;                  /* not predicted */
};

struct emu {
    const struct coll_pgr_plan *p;
    const struct rec_pg_layout *l;
    uint32_t page;
    unsigned k;
    struct sim_policy *pool;
    uint32_t next_pid;
    int counting;
    int oom;
    struct cand c[COLL_PGR_MAX_CANDIDATES];
    const int32_t *z_req;  /* pglz bytes of request i's text value, else -1 */
    const int32_t *z_load; /* the same of session k's loaded value */
    struct cand *cur;      /* the candidate being replayed */
    int cur_rel;           /* REL_HEAP or REL_TOAST: the visit callback's */
};

/* Room in *a (elements of `size` bytes, *cap of them, new ones zeroed)
 * for index `need`; 0, or -1 out of memory. */
static int grow(void **a, uint64_t *cap, uint64_t need, size_t size)
{
    uint64_t n = *cap ? *cap : 1024;
    char *b;

    if (need < *cap)
        return 0;
    while (n <= need)
        n *= 2;
    if (!(b = pt_realloc(*a, n * size)))
        return -1;
    memset(b + *cap * size, 0, (n - *cap) * size);
    *a = b;
    *cap = n;
    return 0;
}

static int grow_u32(uint32_t **a, uint64_t *cap, uint64_t need)
{
    return grow((void **)a, cap, need, sizeof(**a));
}

static int rel_room(struct rel *r, size_t page)
{
    uint64_t cap = r->cap, c2 = r->cap, c3 = r->cap, c4 = r->cap;

    if (page < r->cap)
        return 0;
    if (grow_u32(&r->dead, &cap, page) || grow_u32(&r->items, &c2, page) ||
        grow_u32(&r->pid, &c3, page) || grow_u32(&r->full, &c4, page))
        return -1;
    r->cap = cap;
    return 0;
}

/* One ReadBuffer of a page whose pool id is *pid (0: a new one). */
static void ref(struct emu *m, uint32_t *pid, uint64_t *read, uint64_t *hit,
                int is_new)
{
    uint32_t victim;
    int r;

    if (!*pid)
        *pid = ++m->next_pid;
    r = m->pool->ops->access(m->pool, *pid - 1, &victim);
    if (r < 0) {
        m->oom = 1;
        return;
    }
    if (!m->counting)
        return;
    if (r == 1 && !is_new)
        (*hit)++;
    else
        (*read)++;
}

static void ref_heap(struct emu *m, struct cand *c, size_t page, int is_new)
{
    if (rel_room(&c->heap, page) < 0) {
        m->oom = 1;
        return;
    }
    ref(m, &c->heap.pid[page], &c->n.heap_read, &c->n.heap_hit, is_new);
}

static void ref_toast(struct emu *m, struct cand *c, size_t page, int is_new)
{
    if (rel_room(&c->toast, page) < 0) {
        m->oom = 1;
        return;
    }
    ref(m, &c->toast.pid[page], &c->n.toast_read, &c->n.toast_hit, is_new);
}

/* hio.c's reads on the way to a page (rec_pg_pack_place's visits). */
static void visit(void *ctx, size_t page, int is_new)
{
    struct emu *m = ctx;

    if (m->cur_rel == REL_HEAP)
        ref_heap(m, m->cur, page, is_new);
    else
        ref_toast(m, m->cur, page, is_new);
}

/* pruneheap.c heap_page_prune_opt: a page marked full (PageIsFull: an
 * update found no room on it, heapam.c heap_update PageSetFull) or with
 * less free space than max(BLCKSZ / 10, the fillfactor's) loses its dead
 * tuples' bodies, and the mark (heap_page_prune: PageClearFull). */
static void prune(struct rel *r, size_t page)
{
    if (page >= r->cap || !r->dead[page] || page >= (size_t)r->pack.pages)
        return;
    if (r->full[page] ||
        r->pack.usable_bytes - r->pack.used[page] < r->minfree) {
        rec_pg_pack_release(&r->pack, page, r->dead[page]);
        r->dead[page] = 0;
        r->full[page] = 0;
    }
}

/* Descents: the pages above the leaf are hits, the leaf a ReadBuffer. */
/* nbtsearch.c _bt_search: root to the parent of `leaf`, a ReadBuffer
 * each (the metapage is the relcache's, rd_amcache). */
static void descend(struct emu *m, struct inner *in, uint64_t leaf,
                    unsigned levels, uint64_t *read, uint64_t *hit)
{
    for (unsigned h = levels - 1; h >= 1 && h < PGP_MAX_LEVELS; h--) {
        uint64_t node = leaf, f = in->fanout ? in->fanout : 1;
        for (unsigned k = 0; k < h; k++)
            node /= f;
        if (grow_u32(&in->pid[h], &in->cap[h], node) < 0) {
            m->oom = 1;
            return;
        }
        ref(m, &in->pid[h][node], read, hit, 0);
    }
}

static void idx_descent(struct emu *m, struct cand *c, uint64_t key)
{
    descend(m, &c->idx_in, c->idx_leaf[key], c->idx_levels, &c->n.idx_read,
            &c->n.idx_hit);
    ref(m, &c->idx_pid[c->idx_leaf[key]], &c->n.idx_read, &c->n.idx_hit, 0);
}

/* A primary-key scan for the session (a get, the arbiter check, a
 * delete): the descent, and the heap page of each older version whose
 * entry is still there (indexam.c index_getnext_slot fetches it, finds it
 * dead to all and marks the entry LP_DEAD: kill_prior_tuple, so the next
 * scan skips it). The live version's page is the caller's. */
static void pk_scan(struct emu *m, struct cand *c, uint64_t key)
{
    struct row *row = &c->rows[key];
    struct leaf *lf = &c->leaves[c->idx_leaf[key]];

    idx_descent(m, c, key);
    for (uint32_t i = 0; i < row->n_dead; i++) {
        ref_heap(m, c, row->dead[i], 0);
        prune(&c->heap, row->dead[i]);
        for (uint32_t j = 0; j < lf->nd; j++)
            if (lf->d[j].key == (uint32_t)key && lf->d[j].page == row->dead[i])
                lf->d[j].killed = 1;
    }
    row->n_dead = 0;
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

static uint32_t dent_bytes(const struct dent *d)
{
    return d->deduped ? PGP_POSTING_TID : PGP_PK_ENTRY;
}

/* Dead entries of leaf lf on heap pages pg[0..n) removed: each page read
 * once (heapam.c heap_index_delete_tuples reads every block it checks);
 * their bytes freed (a posting list's TIDs too). */
static void leaf_delete(struct emu *m, struct cand *c, struct leaf *lf,
                        uint32_t *pg, uint32_t n)
{
    uint32_t freed = 0, k = 0;

    qsort(pg, n, sizeof(*pg), cmp_u32);
    for (uint32_t i = 0; i < n; i++)
        if (!i || pg[i] != pg[i - 1])
            ref_heap(m, c, pg[i], 0);
    for (uint32_t j = 0; j < lf->nd; j++) {
        if (bsearch(&lf->d[j].page, pg, n, sizeof(*pg), cmp_u32)) {
            freed += dent_bytes(&lf->d[j]);
            continue;
        }
        lf->d[k++] = lf->d[j];
    }
    lf->nd = k;
    lf->used -= freed < lf->used ? freed : lf->used;
}

/* A new primary-key entry for session key (a non-HOT update's, its new
 * version on heap page `page`, the old one's on old_page): the descent,
 * and when its leaf has no room nbtinsert.c _bt_delete_or_dedup_one_page
 * in its order: simple deletion (_bt_simpledel_pass: the heap blocks of
 * the LP_DEAD entries and of the new item, each read, every dead entry on
 * them removed), then, the key unchanged, bottom-up deletion
 * (_bt_bottomupdel_pass: up to 6 blocks of the duplicates' versions, read
 * until max(BLCKSZ / 16, the item) bytes are free), then deduplication
 * (nbtdedup.c _bt_dedup_pass: a key's versions in one posting list, a
 * dead one's entry becomes a 6-byte TID), else a split (another page of
 * room). */
static void pk_insert(struct emu *m, struct cand *c, uint64_t key,
                      uint32_t page, uint32_t old_page)
{
    struct leaf *lf = &c->leaves[c->idx_leaf[key]];
    uint32_t pg[PGP_LEAF_MAX + 1], n = 0, need = PGP_PK_ENTRY;

    idx_descent(m, c, key);
    if (lf->used + need > lf->cap) {
        for (uint32_t j = 0; j < lf->nd && n < PGP_LEAF_MAX; j++)
            if (lf->d[j].killed && !lf->d[j].deduped)
                pg[n++] = lf->d[j].page;
        if (n) {
            pg[n++] = page;
            leaf_delete(m, c, lf, pg, n);
        }
    }
    if (lf->used + need > lf->cap && lf->nd) {
        /* the blocks in the order their versions died (all equally
           promising: one duplicate each), until enough bytes */
        uint32_t want = m->page / 16 > need ? m->page / 16 : need, got = 0;
        n = 0;
        for (uint32_t j = 0; j < lf->nd && n < PGP_BOTTOMUP_BLOCKS; j++) {
            int seen = 0;
            for (uint32_t i = 0; i < n; i++)
                seen |= pg[i] == lf->d[j].page;
            if (!seen)
                pg[n++] = lf->d[j].page;
            if ((got += dent_bytes(&lf->d[j])) >= want)
                break;
        }
        leaf_delete(m, c, lf, pg, n);
    }
    if (lf->used + need > lf->cap)
        for (uint32_t j = 0; j < lf->nd; j++)
            if (!lf->d[j].deduped) {
                lf->d[j].deduped = 1;
                lf->used -= PGP_PK_ENTRY - PGP_POSTING_TID;
            }
    if (lf->used + need > lf->cap)
        lf->cap += c->leaf_cap; /* a split */
    lf->used += need;
    {
        uint64_t cap = lf->dcap;
        if (grow((void **)&lf->d, &cap, lf->nd, sizeof(*lf->d)) < 0) {
            m->oom = 1;
            return;
        }
        lf->dcap = (uint32_t)cap;
    }
    memset(&lf->d[lf->nd], 0, sizeof(lf->d[lf->nd]));
    lf->d[lf->nd].page = old_page;
    lf->d[lf->nd].key = (uint32_t)key;
    lf->nd++;
}

static unsigned levels_of(uint64_t leaves, uint32_t fanout)
{
    unsigned lv = 1;

    while (leaves > 1) {
        leaves = (leaves + fanout - 1) / fanout;
        lv++;
    }
    return lv;
}

static void tidx_descent(struct emu *m, struct cand *c, uint64_t entry)
{
    uint64_t leaf = entry / c->tidx_per_leaf;
    uint64_t leaves = c->tidx_entries / c->tidx_per_leaf + 1;

    if (grow_u32(&c->tidx_pid, &c->tidx_cap, leaf) < 0) {
        m->oom = 1;
        return;
    }
    descend(m, &c->tidx_in, leaf, levels_of(leaves, c->tidx_fanout),
            &c->n.tidx_read, &c->n.tidx_hit);
    ref(m, &c->tidx_pid[leaf], &c->n.tidx_read, &c->n.tidx_hit, 0);
}

/* toast_save_datum: the chunks of a value of `size` bytes for session
 * key, placed by client cl's backend; *row gets them. */
static void save_value(struct emu *m, struct cand *c, unsigned cl,
                       const struct rec_pg_tuple *tu, struct row *row)
{
    uint32_t full = rec_pg_chunk_tuple_bytes(m->l, m->l->chunk_bytes);

    row->first = c->n_chunks;
    row->n = (uint32_t)tu->toast_chunks;
    row->seq = c->tidx_entries;
    for (uint64_t i = 0; i < tu->toast_chunks; i++) {
        uint32_t b = i + 1 < tu->toast_chunks
                         ? full
                         : (uint32_t)(tu->toast_bytes -
                                      (tu->toast_chunks - 1) * (uint64_t)full);
        size_t page;
        if (grow((void **)&c->chunks, &c->cap_chunks, c->n_chunks,
                 sizeof(*c->chunks)) < 0) {
            m->oom = 1;
            return;
        }
        m->cur = c;
        m->cur_rel = REL_TOAST;
        page = rec_pg_pack_place(&c->toast.pack, b, &c->toast.target[cl], visit,
                                 m);
        if (page == PGP_NONE || rel_room(&c->toast, page) < 0) {
            m->oom = 1;
            return;
        }
        c->chunks[c->n_chunks].page = (uint32_t)page;
        c->chunks[c->n_chunks].bytes = b;
        c->n_chunks++;
        /* the new entry goes to the rightmost leaf */
        tidx_descent(m, c, c->tidx_entries);
        c->tidx_entries++;
    }
}

/* toast_fetch_datum: the descent, then each page of the chunks once. */
static void fetch_value(struct emu *m, struct cand *c, const struct row *row)
{
    size_t last = PGP_NONE;

    tidx_descent(m, c, row->seq);
    for (uint32_t i = 0; i < row->n; i++) {
        size_t page = c->chunks[row->first + i].page;
        if (page == last)
            continue;
        ref_toast(m, c, page, 0);
        prune(&c->toast, page);
        last = page;
    }
}

/* toast_delete_datum: the descent, per chunk its fetch and heap_delete. */
static void delete_value(struct emu *m, struct cand *c, struct row *row)
{
    tidx_descent(m, c, row->seq);
    for (uint32_t i = 0; i < row->n; i++) {
        const struct chunk *ch = &c->chunks[row->first + i];
        ref_toast(m, c, ch->page, 0);
        prune(&c->toast, ch->page);
        ref_toast(m, c, ch->page, 0);
        c->toast.dead[ch->page] += ch->bytes - m->l->item_bytes;
        c->toast.items[ch->page]++;
    }
    row->n = 0;
    row->first = ~(uint64_t)0;
}

/* The row of a value of `size` for session key in candidate c; z: pglz's
 * bytes for it (text), or -1 (random bytes, or pglz gives up). */
static void fit(const struct emu *m, const struct cand *c, uint32_t size,
                int32_t z, struct rec_pg_tuple *tu)
{
    struct rec_pg_table t = c->tab;

    if (z > 0 && size > 0) {
        /* try_compress takes ceil(raw x ratio) */
        t.ratio = ((double)z - 0.5) / (double)size;
        t.ratio_measured = 1;
        t.compress_share = 1;
    }
    rec_pg_tuple_fit(m->l, &t, size, tu);
}

/* A heap tuple placed by hio.c for client cl (an insert or a non-HOT
 * update's new version). */
static int place_heap(struct emu *m, struct cand *c, unsigned cl,
                      uint32_t bytes, uint32_t *page)
{
    size_t pg;

    m->cur = c;
    m->cur_rel = REL_HEAP;
    pg = rec_pg_pack_place(&c->heap.pack, bytes, &c->heap.target[cl], visit, m);
    if (pg == PGP_NONE || rel_room(&c->heap, pg) < 0) {
        m->oom = 1;
        return -1;
    }
    *page = (uint32_t)pg;
    return 0;
}

/* The session's live row found through the primary key (the scan, the
 * heap page read and pruned), or NULL when it has none. */
static struct row *row_fetch(struct emu *m, struct cand *c, uint64_t key)
{
    struct row *row = &c->rows[key];

    pk_scan(m, c, key);
    if (!row->bytes)
        return NULL;
    ref_heap(m, c, row->page, 0);
    prune(&c->heap, row->page);
    return row;
}

static void op_get(struct emu *m, struct cand *c, uint64_t key)
{
    struct row *row = row_fetch(m, c, key);

    if (row && row->n)
        fetch_value(m, c, row);
}

static void insert_row(struct emu *m, struct cand *c, unsigned cl, uint64_t key,
                       uint32_t size, int32_t z)
{
    struct row *row = &c->rows[key];
    struct rec_pg_tuple tu;

    idx_descent(m, c, key); /* the arbiter check */
    fit(m, c, size, z, &tu);
    row->n = 0;
    if (tu.n_external)
        save_value(m, c, cl, &tu, row);
    if (place_heap(m, c, cl, tu.heap_bytes, &row->page) < 0)
        return;
    row->bytes = tu.heap_bytes;
    idx_descent(m, c, key); /* the primary-key insertion */
}

static void op_set(struct emu *m, struct cand *c, unsigned cl, uint64_t key,
                   uint32_t size, int32_t z)
{
    struct row *row = &c->rows[key], old;
    struct rec_pg_tuple tu;
    uint32_t room;

    if (!row->bytes) {
        insert_row(m, c, cl, key, size, z);
        return;
    }
    /* the arbiter check, heap_lock_tuple, heap_update */
    pk_scan(m, c, key);
    ref_heap(m, c, row->page, 0);
    prune(&c->heap, row->page);
    ref_heap(m, c, row->page, 0);
    ref_heap(m, c, row->page, 0);
    old = *row;
    fit(m, c, size, z, &tu);
    row->n = 0;
    if (tu.n_external)
        save_value(m, c, cl, &tu, row);
    if (old.n)
        delete_value(m, c, &old);
    /* heap_update: the same page when the new version fits (PageGetHeap-
       FreeSpace: its free space less a line pointer), a HOT update */
    room = c->heap.pack.usable_bytes - c->heap.pack.used[old.page];
    if (tu.heap_bytes <= room) {
        c->heap.pack.used[old.page] += tu.heap_bytes;
        c->heap.dead[old.page] += old.bytes; /* pruning recycles its item */
        row->bytes = tu.heap_bytes;
        return;
    }
    c->heap.full[old.page] = 1;
    if (place_heap(m, c, cl, tu.heap_bytes, &row->page) < 0)
        return;
    c->heap.dead[old.page] += old.bytes - m->l->item_bytes;
    c->heap.items[old.page]++;
    row->bytes = tu.heap_bytes;
    if (row->n_dead < PGP_MAX_DEAD)
        row->dead[row->n_dead++] = old.page;
    pk_insert(m, c, key, row->page, old.page);
}

static void op_del(struct emu *m, struct cand *c, uint64_t key)
{
    struct row *row = row_fetch(m, c, key);

    if (!row)
        return;
    ref_heap(m, c, row->page, 0);
    if (row->n)
        delete_value(m, c, row);
    c->heap.dead[row->page] += row->bytes - m->l->item_bytes;
    c->heap.items[row->page]++;
    row->bytes = 0;
}

/* VACUUM: dead bytes and line pointers freed, the map told. */
static void vacuum_rel(struct rel *r, uint32_t item)
{
    for (size_t pg = 0; pg < (size_t)r->pack.pages && pg < r->cap; pg++) {
        rec_pg_pack_release(&r->pack, pg, r->dead[pg] + r->items[pg] * item);
        r->dead[pg] = r->items[pg] = 0;
        rec_pg_pack_record(&r->pack, pg);
    }
}

static void pass(struct emu *m, size_t ci)
{
    const struct coll_pgr_plan *p = m->p;
    struct cand *c = &m->c[ci];

    for (uint64_t i = 0; i < p->n_reqs && !m->oom; i++) {
        const struct coll_pgr_req *r = &p->reqs[i];
        unsigned cl = (unsigned)(r->key_id % m->k);
        if (r->key_id >= p->n_keys)
            continue;
        if (r->op == COLL_PGR_GET)
            op_get(m, c, r->key_id);
        else if (r->op == COLL_PGR_SET)
            op_set(m, c, cl, r->key_id, r->size_bytes, m->z_req[i]);
        else
            op_del(m, c, r->key_id);
    }
    vacuum_rel(&c->heap, m->l->item_bytes);
    vacuum_rel(&c->toast, m->l->item_bytes);
    /* and the indexes' entries of dead versions */
    for (uint64_t k = 0; k < p->n_keys; k++)
        c->rows[k].n_dead = 0;
    for (uint64_t l = 0; l < c->idx_leaves; l++) {
        struct leaf *lf = &c->leaves[l];
        for (uint32_t j = 0; j < lf->nd; j++)
            lf->used -= dent_bytes(&lf->d[j]);
        lf->nd = 0;
    }
}

/* pglz's bytes for every text value the run writes (model/pglz.c, the
 * server's algorithm): the loads' (offset: the key) and the sets'
 * (offset: the request), -1 for random bytes or where pglz gives up;
 * *mean gets their mean ratio. */
static int pglz_sizes(const struct coll_pgr_plan *p, const unsigned char *txt,
                      int32_t *z_load, int32_t *z_req, double *mean)
{
    struct rec_pglz_work *w = pt_calloc(1, sizeof(*w));
    double sz = 0, sr = 0;

    if (!w)
        return -1;
    for (uint64_t k = 0; k < p->n_keys; k++) {
        z_load[k] = -1;
        if (coll_pgr_key_text(p, k))
            z_load[k] = (int32_t)rec_pglz_size(w, txt + coll_pgr_set_offset(k),
                                               (size_t)p->first_size[k], NULL);
    }
    for (uint64_t i = 0; i < p->n_reqs; i++) {
        const struct coll_pgr_req *r = &p->reqs[i];
        z_req[i] = -1;
        if (r->op != COLL_PGR_SET || !coll_pgr_key_text(p, r->key_id))
            continue;
        z_req[i] = (int32_t)rec_pglz_size(w, txt + coll_pgr_set_offset(i),
                                          r->size_bytes, NULL);
        if (z_req[i] > 0)
            sz += z_req[i], sr += r->size_bytes;
    }
    free(w);
    *mean = sr > 0 ? sz / sr : 0;
    return 0;
}

/* attstorage of a STORAGE name ("" = EXTENDED, the default for bytea) */
static char storage_code(const char *name)
{
    return !strcmp(name, "PLAIN")      ? 'p'
           : !strcmp(name, "MAIN")     ? 'm'
           : !strcmp(name, "EXTERNAL") ? 'e'
                                       : 'x';
}

/* Keys by their id's order (the hash's: 16 hex digits of it). */
static int cmp_key(const void *a, const void *b)
{
    uint64_t x = coll_pgr_key_hash(*(const uint64_t *)a);
    uint64_t y = coll_pgr_key_hash(*(const uint64_t *)b);
    return (x > y) - (x < y);
}

static int cand_init(struct emu *m, size_t ci,
                     const struct coll_pgr_result *res)
{
    const struct coll_pgr_plan *p = m->p;
    const struct coll_pgr_candidate *cd = &p->cand[ci];
    struct cand *c = &m->c[ci];
    uint32_t usable = m->page - PGP_PAGE_HEADER;
    uint32_t bt = m->page - PGP_PAGE_HEADER - PGP_BT_SPECIAL;
    uint32_t per = (uint32_t)((double)bt * PGP_PK_FILL / PGP_PK_ENTRY);
    const char *comp =
        cd->compression[0] ? cd->compression : res->toast_compression;
    uint32_t ff = cd->fillfactor ? cd->fillfactor : 100;
    uint64_t *order;

    /* the heap keeps (100 - fillfactor) % of a page free for inserts
       (RelationGetTargetPageFreeSpace); a TOAST table has no fillfactor */
    rec_pg_pack_init(&c->heap.pack, m->page, usable, ff);
    rec_pg_pack_init(&c->toast.pack, m->page, usable, 100);
    /* pruning: max(the fillfactor's reserve, a tenth of the page) */
    c->heap.minfree = c->heap.pack.save_bytes > m->page / 10
                          ? c->heap.pack.save_bytes
                          : m->page / 10;
    c->toast.minfree = m->page / 10;
    for (unsigned i = 0; i < PGP_MAX_CLIENTS; i++)
        c->heap.target[i] = c->toast.target[i] = PGP_NONE;
    memset(&c->tab, 0, sizeof(c->tab));
    c->tab.target_bytes = cd->toast_tuple_target;
    c->tab.fillfactor = ff;
    /* the row's other columns (COLL_PGR_LAYOUT_REST), the sampled
       table's carried ones, pt_rest */
    c->tab.rest_bytes =
        COLL_PGR_LAYOUT_REST + PGP_NULL_BITMAP + coll_pgr_extra_bytes(p);
    if (coll_pgr_rest_pad(p))
        c->tab.rest_bytes += coll_pgr_rest_pad(p) + 4;
    c->tab.n_columns = 1;
    c->tab.share[0] = 1;
    c->tab.storage[0] = storage_code(cd->storage);
    c->lz4 = p->compressible > 0 && !strcmp(comp, "lz4");
    c->rows = pt_calloc(p->n_keys ? p->n_keys : 1, sizeof(*c->rows));
    c->idx_leaf = pt_calloc(p->n_keys ? p->n_keys : 1, sizeof(*c->idx_leaf));
    order = pt_calloc(p->n_keys ? p->n_keys : 1, sizeof(*order));
    if (!c->rows || !c->idx_leaf || !order) {
        free(order);
        return -1;
    }
    /* a session's leaf: its rank in the key's order, leaves at ~69 % */
    per = per ? per : 1;
    c->idx_leaves = p->n_keys / per + 1;
    c->idx_in.fanout = (uint32_t)((double)bt * PGP_PK_FILL / PGP_PK_PIVOT);
    c->idx_levels = levels_of(c->idx_leaves, c->idx_in.fanout);
    if (!(c->idx_pid = pt_calloc(c->idx_leaves, sizeof(*c->idx_pid)))) {
        free(order);
        return -1;
    }
    for (uint64_t k = 0; k < p->n_keys; k++)
        order[k] = k;
    qsort(order, p->n_keys, sizeof(*order), cmp_key);
    c->leaves = pt_calloc(c->idx_leaves, sizeof(*c->leaves));
    if (!c->leaves) {
        free(order);
        return -1;
    }
    c->leaf_cap = bt;
    for (uint64_t r = 0; r < p->n_keys; r++) {
        c->idx_leaf[order[r]] = (uint32_t)(r / per);
        c->leaves[r / per].used += PGP_PK_ENTRY;
    }
    for (uint64_t l = 0; l < c->idx_leaves; l++)
        c->leaves[l].cap = c->leaf_cap;
    free(order);
    c->tidx_per_leaf = (uint32_t)((double)bt * m->l->index_fillfactor / 100.0 /
                                  m->l->index_entry_bytes);
    if (!c->tidx_per_leaf)
        c->tidx_per_leaf = 1;
    c->tidx_fanout = c->tidx_per_leaf;
    c->tidx_in.fanout = c->tidx_fanout;
    return 0;
}

static void cand_free(struct cand *c)
{
    rec_pg_pack_free(&c->heap.pack);
    rec_pg_pack_free(&c->toast.pack);
    free(c->heap.dead);
    free(c->heap.items);
    free(c->heap.pid);
    free(c->heap.full);
    free(c->toast.full);
    free(c->toast.dead);
    free(c->toast.items);
    free(c->toast.pid);
    free(c->rows);
    free(c->chunks);
    free(c->idx_leaf);
    free(c->idx_pid);
    for (uint64_t l = 0; c->leaves && l < c->idx_leaves; l++)
        free(c->leaves[l].d);
    free(c->leaves);
    free(c->tidx_pid);
    for (unsigned h = 0; h < PGP_MAX_LEVELS; h++) {
        free(c->idx_in.pid[h]);
        free(c->tidx_in.pid[h]);
    }
}

/* The buffers the scratch tables compete for: shared_buffers less what
 * other relations held (pg_buffercache, collect/pgreplay.c other_count),
 * at least 16 (PostgreSQL's own minimum of shared_buffers). */
static uint64_t pred_pool(const struct coll_pgr_result *res)
{
    uint64_t n = res->shared_buffers_pages;
    uint64_t o = res->other_known ? res->other_pages : 0;

    return n > o + 16 ? n - o : 16;
}

/* The run of pgreplay.c's coll_pgr_run, pass for pass: the load of each
 * table, the warm-up passes, the rounds A B, B A, ... (counted). */
static void run(struct emu *m)
{
    const struct coll_pgr_plan *p = m->p;
    size_t n = p->n_cand;

    for (size_t ci = 0; ci < n && !m->oom; ci++)
        for (uint64_t key = 0; key < p->n_keys && !m->oom; key++)
            insert_row(m, &m->c[ci], 0, key, (uint32_t)p->first_size[key],
                       m->z_load[key]);
    for (unsigned w = 0; w < p->warmup_rounds; w++)
        for (size_t ci = 0; ci < n && !m->oom; ci++)
            pass(m, ci);
    m->counting = 1;
    for (unsigned r = 0; r < p->rounds && r < COLL_PGR_MAX_ROUNDS; r++)
        for (size_t j = 0; j < n && !m->oom; j++)
            pass(m, r % 2 ? n - 1 - j : j);
}

static int emulate(const struct coll_pgr_plan *p,
                   const struct coll_pgr_result *res,
                   const struct rec_engine *e,
                   const struct sim_policy_ops *policy, const int32_t *z_load,
                   const int32_t *z_req, struct adv_pgr_prediction *out)
{
    struct emu *m = pt_calloc(1, sizeof(*m));
    int ret = 0;

    if (!m)
        return -1;
    m->p = p;
    m->l = &e->pg;
    m->z_load = z_load;
    m->z_req = z_req;
    m->page = res->block_size;
    m->k = p->n_clients ? p->n_clients : 1;
    if (m->k > PGP_MAX_CLIENTS)
        m->k = PGP_MAX_CLIENTS;
    m->pool = policy->create(pred_pool(res), 1);
    if (!m->pool)
        ret = -1;
    if (m->pool && policy->tune) {
        struct sim_policy_params pp;
        memset(&pp, 0, sizeof(pp));
        pp.page_size_bytes = m->page;
        pp.scale = 1;
        policy->tune(m->pool, &pp);
    }
    for (size_t ci = 0; ci < p->n_cand && ret == 0; ci++)
        ret = cand_init(m, ci, res);
    if (ret == 0)
        run(m);
    if (m->oom)
        ret = -1;
    for (size_t ci = 0; ci < p->n_cand; ci++) {
        struct adv_pgr_pred_cand *o = &out->c[ci];
        if (ret == 0) {
            o->blocks = m->c[ci].n;
            o->heap_pages = (uint64_t)m->c[ci].heap.pack.pages;
            o->toast_pages = (uint64_t)m->c[ci].toast.pack.pages;
            o->have = !m->c[ci].lz4;
        }
        cand_free(&m->c[ci]);
    }
    if (m->pool)
        m->pool->ops->destroy(m->pool);
    free(m);
    return ret;
}

int adv_pgr_predict(const struct coll_pgr_plan *p,
                    const struct coll_pgr_result *res,
                    const struct rec_engine *e, struct adv_pgr_prediction *out,
                    struct pt_err *err)
{
    const struct sim_policy_ops *pol, *lru = sim_policy_find("lru");
    unsigned char *rnd = NULL, *txt = NULL;
    int32_t *z_load = NULL, *z_req = NULL;
    double ratio = 0;
    struct adv_pgr_prediction l;
    int ret = 0;

    memset(out, 0, sizeof(*out));
    if (!e->pg.present || !res->shared_buffers_pages || !res->block_size) {
        snprintf(out->why, sizeof(out->why), "no prediction: %s",
                 !e->pg.present ? "the engine profile has no TOAST figures"
                                : "the server's shared_buffers is unknown");
        return 0;
    }
    pol = sim_policy_find(e->bp_policy[0] ? e->bp_policy : "pg-clock");
    if (!pol || !lru)
        return err_set(err, PT_EINTERNAL, "no policy %s", e->bp_policy);
    snprintf(out->policy, sizeof(out->policy), "%s", pol->name);
    out->pool_pages = pred_pool(res);
    out->other_pages = res->other_known ? res->other_pages : 0;
    z_load = pt_calloc(p->n_keys ? p->n_keys : 1, sizeof(*z_load));
    z_req = pt_calloc(p->n_reqs ? p->n_reqs : 1, sizeof(*z_req));
    if (!z_load || !z_req || coll_pgr_payloads(p, &rnd, &txt) < 0 ||
        pglz_sizes(p, txt, z_load, z_req, &ratio) < 0 ||
        emulate(p, res, e, pol, z_load, z_req, out) < 0 ||
        emulate(p, res, e, lru, z_load, z_req, &l) < 0)
        ret = err_set(err, PT_EINTERNAL, "out of memory");
    free(rnd);
    free(txt);
    free(z_load);
    free(z_req);
    if (ret < 0)
        return ret;
    for (size_t ci = 0; ci < p->n_cand; ci++)
        out->c[ci].lru = l.c[ci].blocks;
    out->have = 1;
    out->n_cand = p->n_cand;
    out->text_ratio = ratio;
    return 0;
}
