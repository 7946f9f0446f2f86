/* SPDX-License-Identifier: Apache-2.0 */
/*
 * recommend.c — the cost model and the recommendation (pure; documented for
 * DBAs in pagetune-recommend(1), section COST MODEL).
 *
 * For every page size P of the engine profile, at the SAME buffer-pool
 * memory M (so page size is never confused with memory):
 *
 *   placement   each object goes inline (SMALL) or to an out-of-line column
 *               (engine.c); inline fraction = inline objects / all objects.
 *   rows/page   r_i = rows per page for object i's row; the table needs
 *               D = N * mean(1 / r_i) data pages for N live sessions;
 *               "rows per page" reported = 1 / mean(1 / r_i);
 *               page fill = sum(row_i + overhead) / (sum(1 / r_i) * P).
 *   pool        B = floor(M / P) pages.
 *   hit ratio   uniform access (only sizes known): h = min(1, B / D).
 *               With a trace: rows are packed into pages in first-seen
 *               order (insert order), a page's popularity is the sum of
 *               its rows' gets, and h is Che's approximation of LRU on
 *               those page popularities (sum_j (1 - e^{-l_j T}) = B).
 *   per access  one buffered (logical) read of the row's page, a physical
 *               read with probability 1 - h costing OVERHEAD + TRANSFERRATE
 *               (P); out-of-line objects add one direct read of
 *               ceil(size / 512) sectors, costing OVERHEAD + bytes at the
 *               device rate (DB2 does not cache LONG VARCHAR / LOB data).
 *   io_ms       = (1 - h) * (OVERHEAD + TRANSFERRATE(P)) + direct ms.
 *
 * The choice: the inline rule (smallest P whose inline fraction reaches the
 * target, IBM's procedure for session tables) unless there is evidence
 * beyond sizes (trace, monitor, --memory, --sessions), the rule's page size
 * is memory-bound (its modelled hit ratio is below 99.9 %), and the
 * cheapest P costs at least REC_OVERRIDE_MARGIN less I/O per access.
 *
 * Neighbours: model/ (page fit, device, sizes, monitor), advice.c,
 * cli/cmd_recommend.c (inputs and output), ddl/ (renders the result).
 */
#include "recommend/recommend.h"
#include "recommend/internal.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Per-candidate sums over the objects before the hit-ratio step. */
struct cand_sums {
    double share_sum; /* sum of 1 / rows_per_page_i (unweighted) */
    double row_bytes; /* sum of row_i + row overhead (unweighted) */
};

static uint64_t round_up(uint64_t v, uint64_t unit)
{
    if (unit <= 1)
        return v;
    return (v + unit - 1) / unit * unit;
}

/* Object i: size and access weight (1/n without a trace). */
static uint64_t obj_size(const struct rec_inputs *in, size_t i)
{
    return in->access ? in->access->size_bytes[i] : in->sizes[i];
}

static size_t obj_count(const struct rec_inputs *in)
{
    return in->access ? in->access->n_keys : in->n_sizes;
}

/* Objects entry i stands for: a histogram bin's count, else 1. */
static uint64_t obj_weight(const struct rec_inputs *in, size_t i)
{
    return !in->access && in->size_counts ? in->size_counts[i] : 1;
}

/* Objects in all (the sum of the weights); entries are O(bins). */
static uint64_t obj_total(const struct rec_inputs *in)
{
    uint64_t t = 0;
    size_t n = obj_count(in);

    if (in->access || !in->size_counts)
        return n;
    for (size_t i = 0; i < n; i++)
        t += in->size_counts[i];
    return t;
}

/*
 * acc + cnt * x for the cnt objects of one weighted entry. Up to
 * REPEAT_MAX objects the sum is taken object by object, in the order a
 * plain list of the same sizes is summed, so a small histogram gives the
 * figures (to the last bit) it gave when it was expanded into a list;
 * beyond that one multiplication keeps the cost O(bins).
 */
#define REPEAT_MAX 4096
static double add_n(double acc, double x, uint64_t cnt)
{
    if (cnt > REPEAT_MAX)
        return acc + (double)cnt * x;
    for (uint64_t k = 0; k < cnt; k++)
        acc += x;
    return acc;
}

/* Out-of-line pages an object occupies when the engine buffers them: its
   bytes but the prefix the row keeps (outline_prefix_bytes). */
static double outline_pages_of(const struct rec_engine *e,
                               const struct rec_page_rule *p, uint64_t size)
{
    uint32_t payload =
        p->outline_payload_bytes ? p->outline_payload_bytes : p->usable_bytes;
    uint64_t out =
        size > e->outline_prefix_bytes ? size - e->outline_prefix_bytes : 1;

    return payload ? (double)((out + payload - 1) / payload) : 1.0;
}

/* Where one object lands and what it costs (fit_candidate). */
struct obj_fit {
    int where;          /* REC_PLACE_* */
    uint32_t rpp;       /* rows per data page */
    double row_bytes;   /* row + row overhead */
    double op;          /* out-of-line pages it occupies */
    double op_read;     /* out-of-line pages a read touches */
    double index_pages; /* out-of-line index pages (TOAST index) */
    double inflate;     /* bytes decompressed on a read */
};

/*
 * PostgreSQL with the "toast" figures and a table: the toaster's own
 * decision (pgtoast.c). Chunk tuples of one value are consecutive: a read
 * touches 1 + (the value's chunk bytes but one chunk) / page pages.
 */
static void fit_pg(const struct rec_inputs *in, const struct rec_page_rule *p,
                   uint64_t size, struct obj_fit *f)
{
    const struct rec_engine *e = in->engine;
    const struct rec_pg_layout *l = &e->pg;
    struct rec_pg_tuple tu;
    double u = (double)p->usable_bytes;

    rec_pg_tuple_fit(l, in->pg, size, &tu);
    f->rpp = rec_pg_rows_per_page(in->pg, p->page_size_bytes, p->usable_bytes,
                                  tu.heap_bytes);
    if (f->rpp > e->max_rows_per_page)
        f->rpp = e->max_rows_per_page;
    f->row_bytes = tu.heap_bytes;
    f->where = tu.n_external ? 1 : REC_PLACE_INLINE;
    f->inflate = (double)tu.inflate_bytes;
    if (!tu.n_external)
        return;
    f->op = (double)tu.toast_bytes / u;
    f->op_read = 1.0 + (double)tu.toast_bytes *
                           (1.0 - 1.0 / (double)tu.toast_chunks) / u;
    f->index_pages = (double)tu.toast_chunks * l->index_entry_bytes /
                     (u * l->index_fillfactor / 100.0);
}

/*
 * SQLite: the row's cell in a table leaf and its overflow chain
 * (sqlbtree.c); rowids taken as 1..the objects counted.
 */
static void fit_sq(const struct rec_inputs *in, const struct rec_page_rule *p,
                   uint64_t size, struct obj_fit *f)
{
    const struct rec_engine *e = in->engine;
    struct rec_sq_cell cell;
    uint32_t usable = p->page_size_bytes - e->sq.leaf_header_bytes;

    rec_sq_cell_fit(&e->sq, p->page_size_bytes, rec_sq_payload(e, size),
                    obj_total(in), &cell);
    f->rpp = usable / cell.cell_bytes ? usable / cell.cell_bytes : 1;
    if (f->rpp > e->max_rows_per_page)
        f->rpp = e->max_rows_per_page;
    f->row_bytes = cell.cell_bytes;
    f->where = cell.overflow_pages ? 1 : REC_PLACE_INLINE;
    f->op = f->op_read = (double)cell.overflow_pages;
}

static void fit_object(const struct rec_inputs *in,
                       const struct rec_page_rule *p, uint64_t size,
                       struct obj_fit *f)
{
    const struct rec_engine *e = in->engine;

    memset(f, 0, sizeof(*f));
    if (in->pg && e->pg.present) {
        fit_pg(in, p, size, f);
        return;
    }
    if (e->sq.present && rec_engine_place(e, p, size) >= 0) {
        fit_sq(in, p, size, f);
        return;
    }
    f->where = rec_engine_place(e, p, size);
    f->rpp = rec_engine_rows_per_page(e, p, size);
    f->row_bytes =
        (double)rec_engine_row_bytes(e, p, size) + e->row_overhead_bytes;
    if (f->where > 0 && e->outline_buffered)
        f->op = f->op_read = outline_pages_of(e, p, size);
}

/* The entry of the pos-th object (0-based) by the weights' prefix sums. */
static size_t entry_of(const uint64_t *prefix, size_t n, uint64_t pos)
{
    size_t lo = 0, hi = n;

    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (prefix[mid] <= pos)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < n ? lo : n - 1;
}

/*
 * PostgreSQL's pages by packing, not by a per-row share: the rows arrive
 * in random order (each drawn from the sampled sizes: sessions are
 * written as users arrive, their sizes independent of the order; the
 * golden-ratio sequence used before alternated large and small rows and
 * packed pages 10 % worse than tables/conformance measured),
 * and the heap and the TOAST relation are filled as hio.c does it
 * (rec_pg_pack_add: the target page, then a page the free space map
 * offers, then a new one): a page of mixed rows holds more than the
 * average of pages of equal rows, and a value's short last chunk shares a
 * page with other values' chunks. At most PACK_MAX objects
 * are packed, the pages scaled to all of them. Without memory for the
 * weights' prefix sums the per-row figures stay.
 *
 * SQLite's table leaves the same way (sq): rows appended in rowid order
 * fill the right-most leaf until the next cell and its pointer do not
 * fit, then balance_quick starts a new leaf with that cell alone
 * (btree.c balance_quick; VACUUM copies the rows in rowid order too);
 * the interior pages above the leaves are added (sqlbtree.c). Overflow
 * chains are whole pages per row: fit_sq counts them.
 */
#define PACK_MAX 100000

/*
 * A fixed pseudo-random number in [0, 1) for k (splitmix64's finalizer).
 * SQLite's leaves take the rows in rowid order, and a row's size does not
 * depend on its rowid, so runs of small and of large cells occur as in a
 * random order: the golden-ratio sequence alternates them evenly and
 * fills fewer rows into a page than a table of independent sizes does
 * (measured: 17 % more leaves predicted at 4K pages, sizes either side of
 * X; tests/conformance/eng_sqlite.py case rnd_at). sq_shuffle shuffles
 * the objects (every one once, Fisher-Yates) with it, pass after pass: one
 * shuffle of a few hundred rows is one draw of the order, whose leaves
 * vary by ~2 % (docs/models.md#sqlite-row-order), so small tables are
 * packed in up to SQ_PASSES orders one after another and averaged.
 */
static double mix_unit(uint64_t k)
{
    uint64_t z = k + 0x9E3779B97F4A7C15ULL;

    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return (double)((z ^ (z >> 31)) >> 11) / 9007199254740992.0;
}

#define SQ_PASSES 16
static void sq_shuffle(uint64_t *o, uint64_t m, uint64_t seed)
{
    for (uint64_t k = m; k > 1; k--) {
        uint64_t j = (uint64_t)(mix_unit(seed + k) * (double)k), t = o[k - 1];
        o[k - 1] = o[j];
        o[j] = t;
    }
}

/* The objects' positions in sorted order, evenly spread, shuffled. */
static uint64_t *sq_order(uint64_t m, double total)
{
    uint64_t *o = pt_calloc(m, sizeof(*o));

    for (uint64_t k = 0; o && k < m; k++)
        o[k] = (uint64_t)(((double)k + 0.5) * total / (double)m);
    if (o)
        sq_shuffle(o, m, 0);
    return o;
}

static void pack_pg(const struct rec_inputs *in, const struct rec_page_rule *p,
                    double total, struct cand_sums *s, struct rec_candidate *c)
{
    const struct rec_engine *e = in->engine;
    const struct rec_pg_layout *l = &e->pg;
    int sq = !(in->pg && l->present);
    struct rec_pg_pack heap, toast;
    uint64_t m = total < PACK_MAX ? (uint64_t)total : PACK_MAX;
    uint64_t *prefix = NULL, *order = NULL, acc = 0, passes = 1;
    uint32_t full = rec_pg_chunk_tuple_bytes(l, l->chunk_bytes);
    size_t n = obj_count(in);
    double touched = 0, estimate = 0;
    struct rec_pg_table raw_pg;

    if (!sq)
        raw_pg = *in->pg;
    if (m == 0 || !(order = sq_order(m, total)))
        return;
    if (!in->access && in->size_counts &&
        !(prefix = pt_calloc(n, sizeof(*prefix)))) {
        free(order);
        return;
    }
    while (sq && passes < SQ_PASSES && m * passes * 2 <= PACK_MAX)
        passes *= 2;
    for (size_t i = 0; prefix && i < n; i++)
        prefix[i] = acc += in->size_counts[i];
    rec_pg_pack_init(&heap, p->page_size_bytes,
                     sq ? p->page_size_bytes - e->sq.leaf_header_bytes
                        : p->usable_bytes,
                     sq ? 100 : in->pg->fillfactor);
    /* SQLite appends leaves (balance_quick): no free space map */
    heap.no_map = sq;
    rec_pg_pack_init(&toast, p->page_size_bytes, p->usable_bytes, 100);
    for (uint64_t k = 0; k < m * passes; k++) {
        double first = 0;
        uint64_t pos;
        if (k && k % m == 0)
            sq_shuffle(order, m, k);
        pos = order[k % m];
        size_t i = prefix ? entry_of(prefix, n, pos) : (size_t)pos;
        struct rec_pg_tuple tu;
        int raw;
        if (sq) {
            struct rec_sq_cell cell;
            rec_sq_cell_fit(&e->sq, p->page_size_bytes,
                            rec_sq_payload(e, obj_size(in, i < n ? i : n - 1)),
                            (uint64_t)total, &cell);
            rec_pg_pack_add(&heap, cell.cell_bytes);
            continue;
        }
        /* a row of the share that does not compress */
        raw = in->pg->compress_share > 0 && in->pg->compress_share < 1 &&
              mix_unit(k ^ 0x5bd1e9955bd1e995ULL) >= in->pg->compress_share;
        if (raw)
            raw_pg.ratio = 0;
        rec_pg_tuple_fit(l, raw ? &raw_pg : in->pg,
                         obj_size(in, i < n ? i : n - 1), &tu);
        rec_pg_pack_add(&heap, tu.heap_bytes);
        if (!tu.toast_chunks)
            continue;
        /* chunk_seq order, full chunks first (toast_save_datum) */
        for (uint64_t j = 0; j < tu.toast_chunks; j++) {
            rec_pg_pack_add(&toast,
                            j + 1 < tu.toast_chunks
                                ? full
                                : (uint32_t)(tu.toast_bytes -
                                             (tu.toast_chunks - 1) * full));
            if (j == 0)
                first = toast.pages;
        }
        touched += toast.pages - first + 1;
        estimate += 1.0 + (double)tu.toast_bytes *
                              (1.0 - 1.0 / (double)tu.toast_chunks) /
                              (double)p->usable_bytes;
    }
    free(prefix);
    free(order);
    rec_pg_pack_free(&heap);
    rec_pg_pack_free(&toast);
    s->share_sum = heap.pages * total / (double)(m * passes);
    if (sq) {
        s->share_sum += rec_sq_interior_pages(&e->sq, p->page_size_bytes,
                                              s->share_sum, (uint64_t)total);
        return;
    }
    c->outline_pages = toast.pages / (double)m;
    /* A read fetches a value's chunks by an index scan in chunk_seq
       order, and consecutive chunks on one page are one buffer access:
       heapam_handler.c heapam_index_fetch_tuple keeps the buffer
       (bufmgr.c ReleaseAndReadBuffer returns it unread for the same
       block). The TOAST pages a read touches are 1 + the page breaks
       among its chunk tuples in the packing; a page break falls mostly
       before a full chunk, a value's first, so fewer values straddle
       than fit_pg's per-value estimate (1 + bytes but one chunk / page)
       says. Its reads are scaled to the packing's. */
    if (estimate > 0)
        c->outline_reads =
            c->outline_index_reads +
            (c->outline_reads - c->outline_index_reads) * touched / estimate;
}

/*
 * The rows of pack_keyorder: the k-th drawn at random from the sizes (mix_unit
 * of k, the same every run), so sizes do not depend on the key; mix_init
 * takes the weights' prefix sums (none for a plain list; -1 out of memory).
 */
struct mix_order {
    uint64_t *prefix;
    size_t n;
    double total;
};

static int mix_init(struct mix_order *o, const struct rec_inputs *in,
                    double total)
{
    uint64_t acc = 0;

    o->n = obj_count(in);
    o->total = total;
    o->prefix = NULL;
    if (!in->access && in->size_counts &&
        !(o->prefix = pt_calloc(o->n, sizeof(*o->prefix))))
        return -1;
    for (size_t i = 0; o->prefix && i < o->n; i++)
        o->prefix[i] = acc += in->size_counts[i];
    return 0;
}

static uint64_t mix_obj(const struct mix_order *o, const struct rec_inputs *in,
                        uint64_t k)
{
    double f = mix_unit(k);
    uint64_t pos = (uint64_t)(f * o->total);
    size_t i = o->prefix ? entry_of(o->prefix, o->n, pos) : (size_t)pos;

    return obj_size(in, i < o->n ? i : o->n - 1);
}

/*
 * InnoDB's clustered index filled in key order (insert_reserve_bytes > 0):
 * the rows, drawn as above, go into the last leaf while it has
 * room, and from its third record on only while the page keeps
 * insert_reserve_bytes free (btr_cur_optimistic_insert(), see
 * rec_engine_rows_per_page); otherwise the leaf splits at the insert point
 * and the row starts a new one. A page of near-half-page rows and small
 * ones (values either side of the off-page limit) then holds fewer rows
 * than the mean of the per-size rows per page says. PACK_MAX draws are
 * packed whatever the number of rows, the pages scaled to all of them:
 * the expected pages, not those of one small draw (400 rows of a table
 * either side of the limit vary by 10 % from one order to another),
 * plus the non-leaf pages above them; without memory for the prefix sums
 * the per-row figures stay.
 */
static void pack_keyorder(const struct rec_inputs *in,
                          const struct rec_page_rule *p, double total,
                          struct cand_sums *s)
{
    const struct rec_engine *e = in->engine;
    uint64_t m = PACK_MAX; /* draws: the expected pages, whatever the rows */
    uint64_t used = 0, n_recs = 0;
    double pages = 0;
    struct mix_order mix;

    if (total < 1 || mix_init(&mix, in, total) < 0)
        return;
    for (uint64_t k = 0; k < m; k++) {
        uint64_t rec =
            (uint64_t)rec_engine_row_bytes(e, p, mix_obj(&mix, in, k)) +
            e->row_overhead_bytes;
        uint64_t room = n_recs >= 2 ? p->usable_bytes - p->insert_reserve_bytes
                                    : p->usable_bytes;
        if (pages == 0 || used + rec > room || n_recs >= e->max_rows_per_page) {
            pages += 1;
            used = n_recs = 0;
        }
        used += rec;
        n_recs++;
    }
    free(mix.prefix);
    s->share_sum = pages * total / (double)m;
    /* the levels above the leaves: one node pointer a child, an 8-byte
       key, 5-byte header and 4-byte child page number with its share of a
       directory slot, ~18 bytes (MariaDB btr0btr.cc,
       dict_index_build_node_ptr()); a tree of more than one leaf has a
       root at least */
    for (double lv = s->share_sum, fan = p->usable_bytes / 18.0; lv > 1;) {
        lv = ceil(lv / fan);
        s->share_sum += lv;
    }
}

/* Placement fractions, rows per page, page fill and direct-read cost. */
/* Object i's part of a candidate, weighted phi (fit_candidate). */
static void fit_one(struct rec_candidate *c, struct cand_sums *s,
                    const struct rec_inputs *in, const struct rec_page_rule *p,
                    size_t i, double phi, double total, double total_gets,
                    double *inline_n)
{
    const struct rec_engine *e = in->engine;
    const struct rec_device *d = in->device;
    uint64_t size = obj_size(in, i);
    struct obj_fit f;
    uint64_t cnt = obj_weight(in, i);
    double w_uniform = phi / total; /* one object's share */
    double w = w_uniform;

    fit_object(in, p, size, &f);
    if (in->access && total_gets > 0)
        w = phi * (double)in->access->gets[i] / total_gets;
    s->share_sum = add_n(s->share_sum, phi / f.rpp, cnt);
    s->row_bytes = add_n(s->row_bytes, phi * f.row_bytes, cnt);
    c->inflate_bytes = add_n(c->inflate_bytes, w * f.inflate, cnt);
    if (f.where == REC_PLACE_INLINE) {
        *inline_n += phi * (double)cnt;
    } else if (f.where > 0) {
        uint64_t bytes = round_up(size, e->direct_io_unit_bytes);
        double *of = &c->outline_fraction[f.where - 1];
        *of = add_n(*of, w_uniform, cnt);
        if (!e->outline_buffered) {
            c->direct_reads = add_n(c->direct_reads, w, cnt);
            c->direct_sectors =
                add_n(c->direct_sectors, w * (double)bytes / 512.0, cnt);
            c->direct_ms =
                add_n(c->direct_ms, w * rec_device_read_ms(d, bytes), cnt);
        } else {
            /* buffered out-of-line pages: read through the pool */
            c->outline_reads =
                add_n(c->outline_reads,
                      w * (f.op_read + e->outline_extra_reads), cnt);
            c->outline_index_reads =
                add_n(c->outline_index_reads, w * e->outline_extra_reads, cnt);
            c->outline_pages = add_n(c->outline_pages, w_uniform * f.op, cnt);
            c->outline_index_pages =
                add_n(c->outline_index_pages, w_uniform * f.index_pages, cnt);
        }
    } else {
        c->too_big_fraction = add_n(c->too_big_fraction, w_uniform, cnt);
    }
}

/* Placement fractions, rows per page, page fill and direct-read cost. */
static void fit_candidate(struct rec_candidate *c, struct cand_sums *s,
                          const struct rec_inputs *in,
                          const struct rec_page_rule *p, double total_gets)
{
    const struct rec_engine *e = in->engine;
    const struct rec_device *d = in->device;
    size_t n = obj_count(in);
    double total = (double)obj_total(in), inline_n = 0;
    struct rec_pg_table raw_pg;
    struct rec_inputs raw_in;
    int parts = 1;

    memset(c, 0, sizeof(*c));
    memset(s, 0, sizeof(*s));
    c->page_size_bytes = p->page_size_bytes;
    c->inline_limit_bytes = p->inline_limit_bytes;
    c->transfer_ms = rec_device_transfer_ms(d, p->page_size_bytes);
    /* PostgreSQL objects of which only a share compresses: each size
       counted twice, compressed with that share's weight and raw with
       the rest (pack_pg draws the rows alike) */
    if (in->pg && e->pg.present && in->pg->ratio > 0 &&
        in->pg->compress_share > 0 && in->pg->compress_share < 1) {
        raw_pg = *in->pg;
        raw_pg.ratio = 0;
        raw_in = *in;
        raw_in.pg = &raw_pg;
        parts = 2;
    }
    for (size_t i = 0; i < n; i++) {
        for (int part = 0; part < parts; part++) {
            const struct rec_inputs *pin = part ? &raw_in : in;
            double phi = parts == 1 ? 1.0
                         : part     ? 1.0 - in->pg->compress_share
                                    : in->pg->compress_share;
            fit_one(c, s, pin, p, i, phi, total, total_gets, &inline_n);
        }
    }
    if ((in->pg && e->pg.present) || e->sq.present)
        pack_pg(in, p, total, s, c);
    else if (p->insert_reserve_bytes)
        pack_keyorder(in, p, total, s);
    c->inline_fraction = inline_n / total;
    c->rows_per_page = total / s->share_sum;
    c->page_fill = s->row_bytes / (s->share_sum * p->page_size_bytes);
}

static int cmp_desc(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x < y) - (x > y);
}

/* Groups of pages with (nearly) equal popularity: count and popularity. */
struct pop_group {
    double n;
    double lambda;
};

static double che_fill(const void *arg, size_t ng, double t)
{
    const struct pop_group *g = arg;
    double s = 0;
    for (size_t i = 0; i < ng; i++)
        s += g[i].n * -expm1(-g[i].lambda * t);
    return s;
}

/*
 * The characteristic time at which fill(arg, n, t), the expected resident
 * pages (increasing in t), reaches a pool of `pages` (less than all the
 * pages), by doubling then bisection.
 */
static double fill_time(double (*fill)(const void *, size_t, double),
                        const void *arg, size_t n, double pages)
{
    double lo = 0, hi = 1;

    for (int k = 0; k < 2000 && fill(arg, n, hi) < pages; k++)
        hi *= 2;
    for (int k = 0; k < 100; k++) {
        double mid = (lo + hi) / 2;
        if (fill(arg, n, mid) < pages)
            lo = mid;
        else
            hi = mid;
    }
    return hi;
}

/* Che's characteristic time: the groups' sum n (1 - exp(-lambda t)) fills
 * a pool of `pages`. */
static double che_time(const struct pop_group *g, size_t ng, double pages)
{
    return fill_time(che_fill, g, ng, pages);
}

/*
 * Hit ratio of an LRU pool of `pages` over pages with popularities
 * lambda[0..np) (reads of the page per access), by Che's approximation:
 * hits over reads. Sorts lambda.
 */
static double che_hit_ratio(double *lambda, size_t np, double pages,
                            struct pop_group *g)
{
    size_t ng = 0, nz = 0;
    double t, h = 0, sum = 0;

    qsort(lambda, np, sizeof(*lambda), cmp_desc);
    for (size_t i = 0; i < np; i++) {
        if (lambda[i] <= 0)
            break;
        nz++;
        if (ng && lambda[i] >= g[ng - 1].lambda * 0.99 - 1e-300) {
            /* keep the group's mean popularity */
            g[ng - 1].lambda = (g[ng - 1].lambda * g[ng - 1].n + lambda[i]) /
                               (g[ng - 1].n + 1);
            g[ng - 1].n += 1;
        } else {
            g[ng].n = 1;
            g[ng].lambda = lambda[i];
            ng++;
        }
    }
    if ((double)nz <= pages)
        return 1.0;
    t = che_time(g, ng, pages);
    for (size_t i = 0; i < ng; i++) {
        h += g[i].n * g[i].lambda * -expm1(-g[i].lambda * t);
        sum += g[i].n * g[i].lambda;
    }
    /* out-of-line pages read with their row make the reads per access
       more than 1: the ratio is of all of them */
    h = sum > 0 ? h / sum : 1.0;
    return h > 1 ? 1 : h;
}

/*
 * One page of PostgreSQL's clock sweep (engine policy "pg-clock"; the
 * rules as sim/policy_pg.c reads freelist.c and bufmgr.c): an access
 * raises the buffer's usage_count by one up to BM_MAX_USAGE_COUNT (5), a
 * page read in starts at 1, the hand decrements a non-zero count as it
 * passes and evicts a buffer at 0. Per turn of the hand the page gets
 * x = lambda x turn accesses, Poisson; the chain's states are the count
 * after the hand passed (0..4) and "not in the pool". From its stationary
 * distribution: *hit = 1 - (misses per turn) / x and *occ, the share of
 * the turn the page holds a buffer (a page read in holds it from its
 * first access). A page read several times a turn keeps a count the hand
 * cannot wear down: the clock holds the pages read most often, as LRU
 * does not (docs/models.md #page-classes).
 */
#define GCLOCK_MAX 5
static void gclock_page(double x, double *hit, double *occ)
{
    enum { S = GCLOCK_MAX + 1 }; /* 0: absent, 1 + k: count k after the hand */
    double p[GCLOCK_MAX + 1], a[S][S + 1], pi[S], term = exp(-x), tail = 1;

    if (x <= 0) {
        *hit = 1;
        *occ = 0;
        return;
    }
    for (int k = 0; k < GCLOCK_MAX; k++) {
        p[k] = term;
        tail -= term;
        term *= x / (k + 1);
    }
    p[GCLOCK_MAX] = tail > 0 ? tail : 0; /* GCLOCK_MAX or more accesses */
    /* a[j][i] = P(i -> j) - (i == j); the last row: sum pi = 1 */
    memset(a, 0, sizeof(a));
    for (int i = 0; i < S; i++) {
        a[i][i] -= 1;
        for (int n = 0; n <= GCLOCK_MAX; n++) {
            int c = i == 0 ? n : (i - 1) + n; /* count when the hand comes */
            int j;
            if (c > GCLOCK_MAX)
                c = GCLOCK_MAX;
            j = c == 0 ? 0 : c; /* at 0 evicted, else count - 1: state c */
            a[j][i] += p[n];
        }
    }
    for (int i = 0; i < S; i++)
        a[S - 1][i] = 1;
    a[S - 1][S] = 1;
    for (int col = 0; col < S; col++) { /* Gauss-Jordan, partial pivot */
        int piv = col;
        for (int r = col + 1; r < S; r++)
            if (fabs(a[r][col]) > fabs(a[piv][col]))
                piv = r;
        for (int k = 0; k <= S; k++) {
            double t = a[col][k];
            a[col][k] = a[piv][k];
            a[piv][k] = t;
        }
        for (int r = 0; r < S; r++) {
            double f;
            if (r == col || a[col][col] == 0)
                continue;
            f = a[r][col] / a[col][col];
            for (int k = col; k <= S; k++)
                a[r][k] -= f * a[col][k];
        }
    }
    for (int i = 0; i < S; i++)
        pi[i] = a[i][i] != 0 ? a[i][S] / a[i][i] : 0;
    *hit = 1.0 - pi[0] * -expm1(-x) / x;
    *occ = (1.0 - pi[0]) + pi[0] * (1.0 + expm1(-x) / x);
}

struct page_class {
    double pages, reads, hit;
};

/* Pages the clock holds at a turn of `turn` accesses (gclock_page). */
static double gclock_fill(const void *arg, size_t nk, double turn)
{
    const struct page_class *k = arg;
    double s = 0, h, occ;

    for (size_t i = 0; i < nk; i++) {
        if (k[i].pages <= 0 || k[i].reads <= 0)
            continue;
        gclock_page(k[i].reads / k[i].pages * turn, &h, &occ);
        s += k[i].pages * occ;
    }
    return s;
}

/* The classes' hit ratios under the clock sweep: the turn at which they
 * fill the pool, by bisection. Returns the misses per access. */
static double gclock_classes(struct page_class *k, size_t nk, double pool)
{
    double hi = fill_time(gclock_fill, k, nk, pool), miss = 0, occ;

    for (size_t i = 0; i < nk; i++) {
        if (k[i].pages <= 0 || k[i].reads <= 0)
            continue;
        gclock_page(k[i].reads / k[i].pages * hi, &k[i].hit, &occ);
        miss += k[i].reads * (1.0 - k[i].hit);
    }
    return miss;
}

/*
 * The hit ratio of uniform access by page class (docs/models.md
 * #page-classes): every access reads its row's page (data_pages, 1 read),
 * and on outline_buffered engines its out-of-line pages (outline_pages x
 * sessions, outline_reads - outline_index_reads reads) and their index
 * (outline_index_pages x sessions, outline_index_reads). A class read
 * more often per page stays in the pool: Che's approximation per class,
 * lambda = reads per access / pages, h_c = 1 - exp(-lambda_c t), or for
 * engine policy "pg-clock" the clock's chain (gclock_classes). With one
 * class it is min(1, pool / pages). Returns hits over reads; cls (may be
 * NULL) gets each class's pages, reads and hit ratio.
 */
static double classes_hit_ratio(const struct rec_engine *e,
                                const struct rec_candidate *c, double sessions,
                                double pool, struct page_class cls[3])
{
    struct page_class k[3] = {
        {c->data_pages, 1.0, 1.0},
        {c->outline_pages * sessions, c->outline_reads - c->outline_index_reads,
         1.0},
        {c->outline_index_pages * sessions, c->outline_index_reads, 1.0},
    };
    struct pop_group g[3];
    size_t ng = 0;
    double pages = 0, reads = 0, miss = 0, t;

    for (size_t i = 0; i < 3; i++) {
        if (k[i].reads > 0)
            reads += k[i].reads; /* reads of no modelled page are hits */
        if (k[i].pages <= 0 || k[i].reads <= 0)
            continue; /* pages never read take no place in an LRU pool */
        g[ng].n = k[i].pages;
        g[ng].lambda = k[i].reads / k[i].pages;
        ng++;
        pages += k[i].pages;
    }
    if (strcmp(e->bp_policy, "pg-clock") == 0 && pages > pool) {
        miss = gclock_classes(k, 3, pool);
    } else if (ng == 1 && pages > pool) {
        for (size_t i = 0; i < 3; i++)
            if (k[i].pages > 0 && k[i].reads > 0) {
                k[i].hit = pool / pages;
                miss = k[i].reads * (1.0 - pool / pages);
            }
    } else if (ng > 1 && pages > pool) {
        t = che_time(g, ng, pool);
        for (size_t i = 0; i < 3; i++) {
            if (k[i].pages <= 0 || k[i].reads <= 0)
                continue;
            k[i].hit = -expm1(-k[i].reads / k[i].pages * t);
            miss += k[i].reads * (1.0 - k[i].hit);
        }
    }
    if (cls)
        memcpy(cls, k, sizeof(k));
    return reads > 0 ? 1.0 - miss / reads : 1.0;
}

/*
 * Trace-based hit ratio at one page size: pack rows into pages in
 * first-seen order (with the engine's insert_reserve), sum gets per page,
 * Che's approximation.
 */
static int trace_hit_ratio(const struct rec_inputs *in,
                           const struct rec_page_rule *p, double pages,
                           double total_gets, double *out, size_t *n_pages,
                           struct pt_err *err)
{
    const struct rec_engine *e = in->engine;
    const struct rec_access *a = in->access;
    size_t extra = 0, slots;
    double *lambda;
    struct pop_group *g;
    size_t np = 0;
    uint64_t used = 0;
    uint32_t rows = 0;

    /* buffered out-of-line pages are pages of their own in the pool */
    if (e->outline_buffered)
        for (size_t i = 0; i < a->n_keys; i++)
            if (rec_engine_place(e, p, a->size_bytes[i]) > 0)
                extra += (size_t)outline_pages_of(e, p, a->size_bytes[i]);
    slots = a->n_keys + extra ? a->n_keys + extra : 1;
    lambda = pt_calloc(slots, sizeof(*lambda));
    g = pt_calloc(slots, sizeof(*g));

    if (!lambda || !g) {
        free(lambda);
        free(g);
        return err_set(err, PT_EINTERNAL, "out of memory in the cost model");
    }
    for (size_t i = 0; i < a->n_keys; i++) {
        uint64_t row = (uint64_t)rec_engine_row_bytes(e, p, a->size_bytes[i]) +
                       e->row_overhead_bytes;
        /* a page keeps insert_reserve free from its third row on
           (pack_keyorder) */
        uint64_t room = rows >= 2 ? p->usable_bytes - p->insert_reserve_bytes
                                  : p->usable_bytes;
        if (np == 0 || rows >= e->max_rows_per_page || used + row > room) {
            np++;
            used = 0;
            rows = 0;
        }
        used += row;
        rows++;
        lambda[np - 1] += (double)a->gets[i] / total_gets;
    }
    *n_pages = np;
    if (extra) {
        /* each out-of-line page is read with its row: its popularity is
         * the row's (the pool sees every one of them) */
        size_t k = np;
        for (size_t i = 0; i < a->n_keys; i++) {
            size_t op;
            if (rec_engine_place(e, p, a->size_bytes[i]) <= 0)
                continue;
            op = (size_t)outline_pages_of(e, p, a->size_bytes[i]);
            for (size_t j = 0; j < op && k < slots; j++)
                lambda[k++] = (double)a->gets[i] / total_gets;
        }
        np = k;
    }
    *out = che_hit_ratio(lambda, np, pages, g);
    free(lambda);
    free(g);
    return 0;
}

static size_t find_page(const struct rec_result *r, uint32_t page_size)
{
    for (size_t i = 0; i < r->n_cand; i++)
        if (r->cand[i].page_size_bytes == page_size)
            return i;
    return (size_t)-1;
}

/* "hit ratio H% for uniform access by page class: ..." (the pool holds
 * less than the table, classes_hit_ratio) */
static void describe_classes(char *buf, size_t len, double hit,
                             const struct page_class k[3])
{
    static const char *const name[3] = {"rows", "out-of-line", "index"};
    size_t off;
    int n = snprintf(buf, len,
                     "hit ratio %.1f%% for uniform access by page class "
                     "(Che's approximation):",
                     100 * hit);

    off = n > 0 ? (size_t)n : 0;
    for (size_t i = 0; i < 3 && off < len; i++) {
        if (k[i].pages <= 0 || k[i].reads <= 0)
            continue;
        n = snprintf(buf + off, len - off,
                     "%s %s %.0f pages x %.2f reads, %.1f%% hit", i ? "," : "",
                     name[i], k[i].pages, k[i].reads, 100 * k[i].hit);
        off += n > 0 ? (size_t)n : 0;
    }
}

static void describe_candidate(struct rec_result *r,
                               const struct rec_inputs *in, size_t i)
{
    const struct rec_candidate *c = &r->cand[i];
    const struct rec_engine *e = in->engine;
    char ps[32], outl[160] = "", hit[320];
    size_t off = 0;

    for (size_t k = 0; k < e->n_outline && off < sizeof(outl); k++) {
        int n = snprintf(outl + off, sizeof(outl) - off, ", %s %.1f%%",
                         e->outline[k].name, 100 * c->outline_fraction[k]);
        off += n > 0 ? (size_t)n : 0;
    }
    if (in->access)
        snprintf(hit, sizeof(hit),
                 "hit ratio %.1f%% (LRU estimate from the "
                 "trace's page popularity)",
                 100 * c->hit_ratio);
    else
        snprintf(hit, sizeof(hit),
                 "hit ratio %.1f%% = min(1, %llu / %.0f) for uniform access",
                 100 * c->hit_ratio, (unsigned long long)c->bufferpool_pages,
                 c->data_pages);
    if (e->outline_buffered) {
        double pages = c->data_pages + c->outline_pages * (double)r->sessions;
        struct page_class k[3];
        classes_hit_ratio(e, c, (double)r->sessions,
                          (double)c->bufferpool_pages, k);
        if (!in->access &&
            (k[1].reads <= 0 || pages <= (double)c->bufferpool_pages))
            snprintf(hit, sizeof(hit),
                     "hit ratio %.1f%% = min(1, %llu / %.0f) for uniform "
                     "access",
                     100 * c->hit_ratio,
                     (unsigned long long)c->bufferpool_pages, pages);
        else if (!in->access)
            describe_classes(hit, sizeof(hit), c->hit_ratio, k);
        rec_reason(
            r,
            "%s: inline %.1f%% (objects <= %u bytes)%s; %.2f rows/page, "
            "page fill %.1f%%; %.0f pages (rows and out-of-line) for %llu "
            "rows; pool %llu pages, %s; per access %.2f buffered reads "
            "(the row's page + %.2f out-of-line), %.4f physical; io %.4f "
            "ms = %.4f x (%.3f + %.4f)",
            pt_size_format(c->page_size_bytes, ps, sizeof(ps)),
            100 * c->inline_fraction, c->inline_limit_bytes, outl,
            c->rows_per_page, 100 * c->page_fill, pages,
            (unsigned long long)r->sessions,
            (unsigned long long)c->bufferpool_pages, hit, c->buffered_reads,
            c->outline_reads, c->physical_reads, c->io_ms, c->physical_reads,
            in->device->overhead_ms, c->transfer_ms);
        return;
    }
    rec_reason(
        r,
        "%s: inline %.1f%% (objects <= %u bytes)%s; %.2f rows/page, page "
        "fill %.1f%%; %.0f data pages for %llu rows; pool %llu pages, %s; "
        "per access 1 buffered read, %.4f physical, %.4f direct reads "
        "(%.1f sectors); io %.4f ms = %.4f x (%.3f + %.4f) + %.4f direct "
        "ms",
        pt_size_format(c->page_size_bytes, ps, sizeof(ps)),
        100 * c->inline_fraction, c->inline_limit_bytes, outl, c->rows_per_page,
        100 * c->page_fill, c->data_pages, (unsigned long long)r->sessions,
        (unsigned long long)c->bufferpool_pages, hit, c->physical_reads,
        c->direct_reads, c->direct_sectors, c->io_ms, c->physical_reads,
        in->device->overhead_ms, c->transfer_ms, c->direct_ms);
}

static int copy_ident(char *dst, size_t len, const char *given,
                      enum rec_object kind, uint32_t page_size,
                      struct pt_err *err)
{
    if (given) {
        if (strlen(given) >= len)
            return err_set(err, PT_EDATA, "name '%s' is longer than %zu bytes",
                           given, len - 1);
        memcpy(dst, given, strlen(given) + 1);
    } else {
        rec_default_name(kind, page_size, dst, len);
    }
    return 0;
}

/*
 * Step 4 for one candidate: pool pages at the budget, hit ratio (uniform
 * or from the trace), reads and I/O per access. Buffered out-of-line pages
 * (outline_buffered engines) add to the pool's footprint and to the reads.
 */
static int pool_candidate(struct rec_candidate *c, const struct rec_inputs *in,
                          const struct rec_page_rule *p,
                          const struct rec_result *r, double share_sum,
                          double total_gets, struct pt_err *err)
{
    const struct rec_device *d = in->device;
    double n = (double)obj_total(in);
    int rc;

    c->bufferpool_pages = r->memory_bytes / p->page_size_bytes;
    c->data_pages = share_sum * (double)r->sessions / n;
    if (in->access && total_gets > 0) {
        size_t np = 0;
        if ((rc = trace_hit_ratio(in, p, (double)c->bufferpool_pages,
                                  total_gets, &c->hit_ratio, &np, err)) < 0)
            return rc;
        c->data_pages = (double)np;
    } else {
        c->hit_ratio = classes_hit_ratio(in->engine, c, (double)r->sessions,
                                         (double)c->bufferpool_pages, NULL);
    }
    c->buffered_reads = 1.0 + c->outline_reads;
    c->physical_reads = (1.0 - c->hit_ratio) * c->buffered_reads;
    c->physical_ms = c->physical_reads * (d->overhead_ms + c->transfer_ms);
    c->io_ms = c->physical_ms + c->direct_ms;
    return 0;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/*
 * One candidate at an inline knob's value: the page rule p carries the
 * knob's inline limit; PostgreSQL's toaster gets the value as its
 * toast_tuple_target.
 */
static int fit_at_knob(struct rec_candidate *c, const struct rec_inputs *in,
                       const struct rec_page_rule *p,
                       const struct rec_result *r, uint32_t value,
                       double total_gets, struct pt_err *err)
{
    struct rec_inputs ki = *in;
    struct rec_pg_table kt;
    struct cand_sums ts;

    if (in->pg) {
        kt = *in->pg;
        kt.target_bytes = value;
        ki.pg = &kt;
    }
    fit_candidate(c, &ts, &ki, p, total_gets);
    return pool_candidate(c, &ki, p, r, ts.share_sum, total_gets, err);
}

/* Every object column is STORAGE EXTERNAL. */
static int all_external(const struct rec_pg_table *t)
{
    for (size_t i = 0; i < t->n_columns; i++)
        if (t->storage[i] != 'e')
            return 0;
    return t->n_columns > 0;
}

/*
 * An inline knob (PostgreSQL toast_tuple_target): the chosen page size is
 * evaluated again with the inline limit raised so that the inline target's
 * share of the objects fits (capped by the knob's maximum). The tuned value
 * is recommended when it pays: less I/O per access by the override margin,
 * or no more I/O and fewer buffered reads (no TOAST index and chunks).
 */
static int eval_knob(struct rec_result *r, const struct rec_inputs *in,
                     double total_gets, struct pt_err *err)
{
    const struct rec_engine *e = in->engine;
    const struct rec_inline_knob *k = &e->knob;
    const struct rec_page_rule *p = &e->pages[r->chosen_idx];
    const struct rec_candidate *ch = &r->cand[r->chosen_idx];
    const struct rec_knob *now = rec_state_get(&r->current, k->name);
    const struct rec_candidate *base = &r->knob_base;
    struct rec_page_rule tp = *p;
    struct rec_pg_table sw_pg;
    struct rec_inputs sw_in;
    size_t n = obj_count(in);
    uint64_t *v, want;
    uint32_t cap = k->max - k->offset_bytes, value;
    int rc;

    /* the table's value now: what a change is measured against */
    r->knob_current_set = now && now->is_set && now->is_number &&
                          now->num > (int64_t)k->offset_bytes &&
                          now->num <= (int64_t)UINT32_MAX;
    r->knob_current =
        r->knob_current_set ? (uint32_t)now->num : k->default_value;
    r->knob_base = *ch;
    if (r->knob_current_set && r->knob_current != k->default_value) {
        struct rec_page_rule bp = *p;
        bp.inline_limit_bytes = r->knob_current - k->offset_bytes;
        if (bp.max_row_bytes < bp.inline_limit_bytes)
            bp.max_row_bytes = bp.inline_limit_bytes;
        if ((rc = fit_at_knob(&r->knob_base, in, &bp, r, r->knob_current,
                              total_gets, err)) < 0)
            return rc;
    }
    /* compressible objects under EXTERNAL: the advice sets EXTENDED
       (advice.c choose_storage), so the state after compresses them and
       the knob is weighed against that state, not the one now (a target
       raised over compressible values stores them raw: issue 24) */
    if (in->pg && e->pg.present && in->pg->ratio_measured &&
        in->pg->ratio > 0 && in->pg->ratio < REC_INCOMPRESSIBLE_RATIO &&
        all_external(in->pg)) {
        struct rec_page_rule bp = *p;
        bp.inline_limit_bytes = r->knob_current - k->offset_bytes;
        if (bp.max_row_bytes < bp.inline_limit_bytes)
            bp.max_row_bytes = bp.inline_limit_bytes;
        sw_pg = *in->pg;
        for (size_t i = 0; i < sw_pg.n_columns; i++)
            sw_pg.storage[i] = 'x';
        sw_in = *in;
        sw_in.pg = &sw_pg;
        in = &sw_in;
        if ((rc = fit_at_knob(&r->switched, in, &bp, r, r->knob_current,
                              total_gets, err)) < 0)
            return rc;
        r->storage_switch = 1;
        base = &r->switched;
        if (base->inline_fraction >= r->inline_target)
            return 0; /* compressed, the target's share stays in the row */
    }
    if (!in->access && in->size_counts) {
        /* weighted sizes arrive sorted (rec_sizes_stats) */
        want = rec_percentile_weighted(in->sizes, in->size_counts, n,
                                       obj_total(in), 100.0 * r->inline_target);
    } else {
        if (!(v = pt_calloc(n, sizeof(*v))))
            return err_set(err, PT_EINTERNAL,
                           "out of memory in the cost model");
        for (size_t i = 0; i < n; i++)
            v[i] = obj_size(in, i);
        qsort(v, n, sizeof(*v), cmp_u64);
        want = rec_percentile(v, n, 100.0 * r->inline_target);
        free(v);
    }
    if (want <= base->inline_limit_bytes)
        return 0; /* the value now already keeps the target inline */
    if (want > cap)
        want = cap;
    value = (uint32_t)want + k->offset_bytes;
    value = (value + k->align_bytes - 1) / k->align_bytes * k->align_bytes;
    if (value > k->max)
        value = k->max;
    if (value < k->min)
        value = k->min;
    if (value <= k->offset_bytes ||
        value - k->offset_bytes <= base->inline_limit_bytes)
        return 0;
    tp.inline_limit_bytes = value - k->offset_bytes;
    if (tp.max_row_bytes < tp.inline_limit_bytes)
        tp.max_row_bytes = tp.inline_limit_bytes;
    if ((rc = fit_at_knob(&r->tuned, in, &tp, r, value, total_gets, err)) < 0)
        return rc;
    r->knob_evaluated = 1;
    r->knob_value = value;
    r->knob_inline_limit = tp.inline_limit_bytes;
    /* the new target applies once VACUUM FULL rewrites the table: a
     * rebuild's threshold */
    r->knob_pays =
        r->tuned.inline_fraction > base->inline_fraction &&
        rec_change_pays_storage(e, REC_TIER_REBUILD, base, &r->tuned,
                                (double)r->sessions, &r->knob_growth);
    return 0;
}

/*
 * MariaDB/InnoDB ROW_FORMAT: the table's format now (read from the server)
 * against DYNAMIC, which the page-fit rules model. In COMPACT and
 * REDUNDANT a column stored off-page keeps its first 768 bytes in the row
 * beside the 20-byte pointer; DYNAMIC keeps the pointer only (MariaDB
 * storage/innobase/data/data0data.cc, dtuple_convert_big_rec(): local_len
 * is BTR_EXTERN_FIELD_REF_SIZE, plus REC_ANTELOPE_MAX_INDEX_COL_LEN (768,
 * include/rem0types.h) when the table has no atomic BLOBs, i.e. is not
 * DYNAMIC or COMPRESSED). Inline columns are laid out alike, so a table
 * whose objects all stay in the row models the same in both formats. The
 * rebuild (ALTER TABLE ... ROW_FORMAT=DYNAMIC) is advised only when it
 * pays at the rebuild tier (rec_change_pays, REC_TIER_REBUILD).
 */
#define INNODB_ANTELOPE_PREFIX_BYTES 768
static int eval_row_format(struct rec_result *r, const struct rec_inputs *in,
                           double total_gets, struct pt_err *err)
{
    const struct rec_knob *k = rec_state_get(&r->current, "row_format");
    const struct rec_candidate *ch = &r->cand[r->chosen_idx];
    struct rec_knob eff;
    struct rec_engine old = *in->engine;
    struct rec_inputs oin = *in;
    struct cand_sums ts;
    int rc;

    if (!k || k->source != REC_SOURCE_SERVER ||
        rec_state_knob_effective(&r->current, old.name, k, &eff) < 0 ||
        eff.is_number ||
        (strcasecmp(eff.word, "COMPACT") != 0 &&
         strcasecmp(eff.word, "REDUNDANT") != 0))
        return 0;
    for (size_t i = 0; i < old.n_outline; i++)
        old.outline[i].descriptor_bytes += INNODB_ANTELOPE_PREFIX_BYTES;
    /* the prefix is off the BLOB pages: btr_store_big_rec_extern_fields()
       stores the field from local_len on */
    old.outline_prefix_bytes = INNODB_ANTELOPE_PREFIX_BYTES;
    oin.engine = &old;
    fit_candidate(&r->rowfmt_base, &ts, &oin, &in->engine->pages[r->chosen_idx],
                  total_gets);
    if ((rc = pool_candidate(&r->rowfmt_base, &oin,
                             &in->engine->pages[r->chosen_idx], r, ts.share_sum,
                             total_gets, err)) < 0)
        return rc;
    r->rowfmt_evaluated = 1;
    r->rowfmt_pays = rec_change_pays(
        in->engine, REC_TIER_REBUILD, r->rowfmt_base.io_ms, ch->io_ms,
        r->rowfmt_base.buffered_reads, ch->buffered_reads, &r->rowfmt_gain_io,
        &r->rowfmt_gain_reads);
    return 0;
}

/*
 * The current state: the caller's (a live read), the monitored page size
 * and pool where the state has no server value, then the engine's
 * documented defaults for the rest.
 */
static void build_state(struct rec_result *r, const struct rec_inputs *in)
{
    const struct rec_engine *e = in->engine;
    const struct rec_monitor *m = in->monitor;
    const char *pool = rec_pool_knob(e->name);
    const struct rec_knob *k;

    if (in->current)
        r->current = *in->current;
    if (m && m->present && m->page_size_bytes &&
        (!m->engine[0] || strcmp(m->engine, e->name) == 0)) {
        k = rec_state_get(&r->current, "page_size");
        if (!k || k->source != REC_SOURCE_SERVER)
            rec_state_set_num(&r->current, "page_size", m->page_size_bytes,
                              REC_SOURCE_SERVER, NULL);
        k = pool ? rec_state_get(&r->current, pool) : NULL;
        if (pool && m->bufferpool_pages &&
            (!k || k->source != REC_SOURCE_SERVER)) {
            uint64_t bytes = m->bufferpool_pages * m->page_size_bytes;
            int64_t v =
                strcmp(e->name, "db2") == 0      ? (int64_t)m->bufferpool_pages
                : strcmp(e->name, "sqlite") == 0 ? -(int64_t)(bytes / 1024)
                                                 : (int64_t)bytes;
            rec_state_set_num(&r->current, pool, v, REC_SOURCE_SERVER, NULL);
        }
    }
    rec_state_fill_defaults(&r->current, e->name);
}

/* The candidate of the current page size, or (size_t)-1. */
static size_t current_index(const struct rec_result *r)
{
    const struct rec_knob *k = rec_state_get(&r->current, "page_size");

    if (!k || !k->is_set || !k->is_number || k->num <= 0 || k->num > UINT32_MAX)
        return (size_t)-1;
    return find_page(r, (uint32_t)k->num);
}

/*
 * Step 5b. change only for a reason: where a page-size change means a
 * rebuild (SQLite VACUUM) or a new instance (InnoDB), the page size the
 * model prefers replaces the current one only when its modelled gain
 * beats the engine's threshold for that disruption (rec_change_pays).
 * PostgreSQL has one page size; DB2 and Oracle advice creates a new table
 * space whatever is there, so their choice stands.
 */
static void keep_or_change(struct rec_result *r, const struct rec_inputs *in)
{
    const struct rec_engine *e = in->engine;
    const struct rec_candidate *cur, *best;

    r->best_idx = r->chosen_idx;
    r->current_idx = current_index(r);
    if (strcmp(e->name, "mysql") == 0)
        r->change_tier = REC_TIER_NEW_INSTANCE;
    else if (strcmp(e->name, "sqlite") == 0)
        r->change_tier = REC_TIER_REBUILD;
    else
        r->change_tier = REC_TIER_NONE;
    if (r->change_tier == REC_TIER_NONE || r->current_idx == (size_t)-1 ||
        r->current_idx == r->chosen_idx)
        return;
    cur = &r->cand[r->current_idx];
    best = &r->cand[r->chosen_idx];
    if (rec_change_pays(e, r->change_tier, cur->io_ms, best->io_ms,
                        cur->buffered_reads, best->buffered_reads, &r->gain_io,
                        &r->gain_reads))
        return;
    r->chosen_idx = r->current_idx;
    r->chosen_by_cost = 0;
    r->kept = 1;
}

/*
 * DB2: out-of-row data (MEDIUM LONG VARCHAR, LARGE BLOB) of a DMS or
 * automatic-storage table space is buffered nowhere unless the table space
 * has FILE SYSTEM CACHING (IBM Db2 docs, "Table space containers use
 * concurrent I/O or direct I/O by default"): its every read goes to the
 * device. When the out-of-row reads per access (weighted by the trace's
 * gets when there is one) reach fs_caching_min_direct_reads, the file
 * system cache is worth its double caching of the inline pages.
 */
static void choose_fs_caching(struct rec_result *r, const struct rec_inputs *in)
{
    const struct rec_engine *e = in->engine;
    const struct rec_candidate *ch = &r->cand[r->chosen_idx];

    r->fs_caching = e->fs_caching_min_direct_reads > 0 &&
                    ch->direct_reads >= e->fs_caching_min_direct_reads - 1e-12;
}

/* The operational cost of rewriting the table in its current layout. */
static void rewrite_cost(struct rec_result *r, const struct rec_inputs *in)
{
    size_t i = r->current_idx != (size_t)-1 ? r->current_idx : r->chosen_idx;
    const struct rec_candidate *c = &r->cand[i];
    double rate = in->device->transfer_mb_s * 1024000.0; /* bytes/s, IBM */

    r->table_bytes = (c->data_pages + c->outline_pages * (double)r->sessions) *
                     (double)c->page_size_bytes;
    /* read every page once and write it once */
    r->rewrite_seconds = rate > 0 ? 2 * r->table_bytes / rate : 0;
}

/* The monitored page size's candidate, if the monitor data can be used. */
static size_t monitor_index(const struct rec_result *r,
                            const struct rec_inputs *in)
{
    const struct rec_monitor *m = in->monitor;

    if (m && m->present &&
        (!m->engine[0] || strcmp(m->engine, in->engine->name) == 0))
        return find_page(r, m->page_size_bytes);
    return (size_t)-1;
}

/* Step 2. memory: --memory, else the monitored pool's bytes, else default. */
static int choose_memory(struct rec_result *r, const struct rec_inputs *in,
                         size_t mon_idx, struct pt_err *err)
{
    const struct rec_engine *e = in->engine;
    char b1[32], b2[32];

    if (in->memory_given && in->memory_bytes) {
        r->memory_bytes = in->memory_bytes;
    } else if (mon_idx != (size_t)-1 && in->monitor->bufferpool_pages) {
        r->memory_bytes =
            in->monitor->bufferpool_pages * in->monitor->page_size_bytes;
    } else if (rec_state_pool_bytes(r, e, 1)) {
        r->memory_bytes = rec_state_pool_bytes(r, e, 1);
    } else {
        r->memory_bytes =
            in->memory_bytes ? in->memory_bytes : REC_DEFAULT_MEMORY_BYTES;
    }
    if (r->memory_bytes < e->pages[e->n_pages - 1].page_size_bytes)
        return err_set(err, PT_EDATA,
                       "buffer-pool budget %s is below one %s page",
                       pt_size_format(r->memory_bytes, b1, sizeof(b1)),
                       pt_size_format(e->pages[e->n_pages - 1].page_size_bytes,
                                      b2, sizeof(b2)));
    return 0;
}

/*
 * Step 2b. the host's memory (docs/models.md "Host memory"): a pool above
 * the engine's documented share of the host (rec_host_pool_fraction) is
 * capped to it before the model runs, so every figure is at the capped
 * size; advice.c caps the pool setting the same way. Without a reading the
 * note says why, and give_reasons says so.
 */
static void host_limit(struct rec_result *r, const struct rec_inputs *in)
{
    const struct rec_monitor *m = in->monitor;
    const char *name = in->engine->name;
    double f = rec_host_pool_fraction(name, NULL);

    if (!m || !m->present) {
        snprintf(r->host_note, sizeof(r->host_note),
                 "no monitor evidence (pagetune monitor reads the host's "
                 "memory where it can; pass its document with `monitor`)");
        return;
    }
    if (m->engine[0] && strcmp(m->engine, name) != 0) {
        snprintf(r->host_note, sizeof(r->host_note),
                 "the monitor document is from engine %s, not %s", m->engine,
                 name);
        return;
    }
    if (!m->host_memory_bytes) {
        snprintf(r->host_note, sizeof(r->host_note), "%s",
                 m->host_source[0] ? m->host_source
                                   : "the monitor document has no host "
                                     "reading");
        return;
    }
    if (f <= 0) {
        snprintf(r->host_note, sizeof(r->host_note),
                 "no documented share of host memory for engine %s", name);
        return;
    }
    r->host_memory_bytes = m->host_memory_bytes;
    r->host_fraction = f;
    /* whole MiB, as the settings are written (the reader's host is at
       least 1 MiB, so the limit stays above the largest page) */
    r->host_limit_bytes = (uint64_t)floor(f * (double)m->host_memory_bytes);
    if (r->host_limit_bytes >= (1ULL << 20))
        r->host_limit_bytes &= ~((1ULL << 20) - 1);
    snprintf(r->host_note, sizeof(r->host_note), "%s", m->host_source);
    if (r->memory_bytes > r->host_limit_bytes) {
        r->host_capped = 1;
        r->host_asked_bytes = r->memory_bytes;
        r->memory_bytes = r->host_limit_bytes;
    }
}

/*
 * Step 3. how many live sessions (rows) the table holds: counted (--sessions,
 * the sample's row count or the catalog's statistics that sizes.json
 * records, the trace's distinct keys), never inferred from a hit ratio
 * (docs/models.md #sessions: a hit ratio mixes every relation in the pool
 * and the window's cold reads, so the rows it implies can be off by
 * orders of magnitude). Without a count, one row per size given, said so.
 */
static void estimate_sessions(struct rec_result *r, const struct rec_inputs *in,
                              size_t mon_idx)
{
    uint64_t n = obj_total(in);

    if (in->sessions) {
        r->sessions = in->sessions;
        snprintf(r->sessions_basis, sizeof(r->sessions_basis), "%s",
                 in->sessions_basis ? in->sessions_basis : "`sessions`");
    } else if (in->access) {
        r->sessions = in->access->n_keys;
        snprintf(r->sessions_basis, sizeof(r->sessions_basis), "%s",
                 "distinct keys in the trace");
    } else {
        r->sessions = n;
        snprintf(r->sessions_basis, sizeof(r->sessions_basis), "%s",
                 "one row per size given: no row count (pass `sessions`, or "
                 "sample the live table, whose row count sizes.json "
                 "records)");
    }
    r->evidence = in->access != NULL || mon_idx != (size_t)-1 ||
                  in->memory_given || in->sessions != 0;
}

/*
 * Step 4b. the model against the measured hit ratio (docs/models.md
 * "Reconciliation"): the model's ratio at the CURRENT page size and pool
 * (the monitored one, whatever budget the candidates were compared at) is
 * judged against the monitor's (rec_reconcile_judge). When they differ for
 * a reason that lasts (not cold reads, not too few reads), the current
 * state's I/O per access is also estimated with the measured ratio; the
 * candidates stay modelled, so they compare on one basis.
 */
/*
 * The monitor's counters of the sampled table: "schema.name" as given, or
 * a name without schema matching the part after the dot (either case, as
 * the engine folds it). NULL when the table is unknown or was not among
 * the monitored ones (or saw no block access).
 */
static const struct rec_monitor_table *
monitored_table(const struct rec_monitor *m, const char *table, int *idle)
{
    *idle = 0;
    if (!table || !table[0])
        return NULL;
    for (size_t i = 0; i < m->n_tables; i++) {
        const char *n = m->tables[i].name, *dot = strchr(n, '.');
        if (strcasecmp(n, table) != 0 &&
            (strchr(table, '.') || !dot || strcasecmp(dot + 1, table) != 0))
            continue;
        if (m->tables[i].hits + m->tables[i].reads > 0)
            return &m->tables[i];
        *idle = 1; /* listed, but nothing read it in the window */
    }
    return NULL;
}

static void reconcile(struct rec_result *r, const struct rec_inputs *in,
                      size_t mon_idx)
{
    const struct rec_monitor *m = in->monitor;
    const struct rec_device *d = in->device;
    const struct rec_monitor_table *t;
    const struct rec_candidate *c;
    double pages, pool, model, meas, miss_ms;
    uint64_t logical, physical;
    int idle = 0;

    if (mon_idx == (size_t)-1 || !m->bufferpool_pages)
        return;
    /* the table's own counters where the monitor has them (PostgreSQL
       pg_statio_user_tables), else the instance's summary */
    t = monitored_table(m, in->table, &idle);
    if (t) {
        logical = t->hits + t->reads;
        physical = t->reads;
        meas = 1.0 - (double)physical / (double)logical;
    } else if (m->hit_ratio_pct >= 0) {
        logical = m->logical_reads;
        physical = m->physical_reads;
        meas = m->hit_ratio_pct / 100.0;
    } else {
        return;
    }
    c = &r->cand[mon_idx];
    pages = c->data_pages + c->outline_pages * (double)r->sessions;
    pool = (double)m->bufferpool_pages;
    /* the trace's page popularity only holds at the budget it ran at */
    if (in->access && (double)c->bufferpool_pages == pool)
        model = c->hit_ratio;
    else
        model =
            classes_hit_ratio(in->engine, c, (double)r->sessions, pool, NULL);
    rec_reconcile_judge(&r->recon, model, meas, logical, physical, pages, pool,
                        t != NULL);
    /* PostgreSQL reads a table of more than a quarter of shared_buffers
       with a sequential scan through a small ring of buffers (256 kB),
       not the whole pool (src/backend/storage/buffer/README, "Buffer Ring
       Replacement Strategy"): whole-table scans then miss although the
       table would fit */
    if (strcmp(in->engine->name, "postgresql") == 0 &&
        strcmp(r->recon.verdict, "differs") == 0 && meas < model &&
        pages > pool / 4 && (double)logical >= pages)
        snprintf(r->recon.note, sizeof(r->recon.note),
                 "sequential scans may explain it too: PostgreSQL scans a "
                 "table larger than "
                 "a quarter of shared_buffers (%.0f > %.0f pages) through a "
                 "256 kB ring, so scans miss even when the table fits; the "
                 "window's %llu block accesses are %.1fx the table's pages",
                 pages, pool / 4, (unsigned long long)logical,
                 (double)logical / pages);
    if (t)
        snprintf(r->recon.scope, sizeof(r->recon.scope),
                 "table %.120s: heap, TOAST and TOAST index blocks", t->name);
    else
        snprintf(r->recon.scope, sizeof(r->recon.scope),
                 "the whole instance's buffer pool counters%s",
                 idle ? " (the sampled table was monitored but had no block "
                        "accesses in the window)"
                 : in->table && in->table[0] && m->n_tables
                     ? " (the sampled table was not among the monitored "
                       "ones)"
                     : "");
    miss_ms = c->buffered_reads * (d->overhead_ms + c->transfer_ms);
    r->recon.model_io_ms = (1 - model) * miss_ms + c->direct_ms;
    r->recon.measured_io_ms = (1 - meas) * miss_ms + c->direct_ms;
    r->recon.used_measured =
        strcmp(r->recon.verdict, "differs") == 0 && r->recon.measured_usable;
}

/* Step 5. the inline rule, the cheapest candidate, and the choice. */
static void choose_page(struct rec_result *r)
{
    r->rule_met = 0;
    r->rule_idx = 0;
    for (size_t i = 0; i < r->n_cand; i++)
        if (r->cand[i].inline_fraction >= r->inline_target - 1e-12) {
            r->rule_idx = i;
            r->rule_met = 1;
            break;
        }
    if (!r->rule_met)
        for (size_t i = 1; i < r->n_cand; i++)
            if (r->cand[i].inline_fraction >
                r->cand[r->rule_idx].inline_fraction + 1e-12)
                r->rule_idx = i;
    r->cost_idx = 0;
    for (size_t i = 1; i < r->n_cand; i++)
        if (r->cand[i].io_ms < r->cand[r->cost_idx].io_ms * (1 - 1e-9) - 1e-12)
            r->cost_idx = i;
    r->chosen_idx = r->rule_idx;
    /* memory-bound: the rule's page size cannot keep the table in the pool;
     * otherwise the only difference left is the direct I/O that the inline
     * target already accepts */
    r->memory_bound = r->cand[r->rule_idx].hit_ratio < 0.999;
    if (r->evidence && r->memory_bound && r->cost_idx != r->rule_idx &&
        r->cand[r->cost_idx].io_ms <
            r->cand[r->rule_idx].io_ms * (1 - REC_OVERRIDE_MARGIN)) {
        r->chosen_idx = r->cost_idx;
        r->chosen_by_cost = 1;
    }
}

/* Step 6. buffer pool and table space settings for the chosen page size. */
static int settle_objects(struct rec_result *r, const struct rec_inputs *in,
                          size_t mon_idx, struct pt_err *err)
{
    const struct rec_candidate *c = &r->cand[r->chosen_idx];
    uint32_t ext = REC_EXTENT_TARGET_BYTES / c->page_size_bytes;
    int rc;

    r->extent_size = ext < 2 ? 2 : ext > 256 ? 256 : ext;
    r->prefetch_automatic = 1;
    r->prefetch_size = 0;
    r->overhead_ms = in->device->overhead_ms;
    r->transfer_rate_ms = c->transfer_ms;
    /* The pool: the budget. When the budget is only the default (no
     * --memory, no monitored pool) and the engine's pool is dedicated to
     * this table (DB2), a pool that holds the whole table with headroom
     * for growth and index pages is enough: never more than the budget,
     * never less than DB2's default SIZE 1000. */
    r->pool_pages = c->bufferpool_pages;
    r->pool_from_table = 0;
    if (strcmp(in->engine->name, "db2") == 0 && !in->memory_given &&
        mon_idx == (size_t)-1) {
        double need =
            ceil((c->data_pages + c->outline_pages * (double)r->sessions) *
                 REC_POOL_HEADROOM);
        if (need < REC_POOL_MIN_PAGES)
            need = REC_POOL_MIN_PAGES;
        if (need < (double)r->pool_pages) {
            r->pool_pages = (uint64_t)need;
            r->pool_from_table = 1;
        }
    }
    if ((rc = copy_ident(r->bufferpool_name, sizeof(r->bufferpool_name),
                         in->bufferpool_name, REC_OBJ_BUFFERPOOL,
                         c->page_size_bytes, err)) < 0 ||
        (rc = copy_ident(r->tablespace_name, sizeof(r->tablespace_name),
                         in->tablespace_name, REC_OBJ_TABLESPACE,
                         c->page_size_bytes, err)) < 0)
        return rc;
    return 0;
}

/* Step 7a. the first reason: why this page size. */
static void reason_choice(struct rec_result *r, const struct rec_engine *e)
{
    const struct rec_candidate *ch = &r->cand[r->chosen_idx];
    const struct rec_candidate *ru = &r->cand[r->rule_idx];
    char cps[32], rps[32];

    pt_size_format(ch->page_size_bytes, cps, sizeof(cps));
    pt_size_format(ru->page_size_bytes, rps, sizeof(rps));
    if (r->kept) {
        char bps[32];
        rec_reason(r,
                   "keep %s pages, the page size in use: %s gains too little "
                   "to pay for a %s (I/O per access %.1f%%, buffered reads "
                   "%.1f%%; at least %.0f%% needed)",
                   cps,
                   pt_size_format(r->cand[r->best_idx].page_size_bytes, bps,
                                  sizeof(bps)),
                   r->change_tier == REC_TIER_NEW_INSTANCE ? "new instance"
                                                           : "rebuild",
                   100 * r->gain_io, 100 * r->gain_reads,
                   100 * rec_tier_threshold(e, r->change_tier));
    } else if (r->chosen_by_cost) {
        rec_reason(r,
                   "recommend %s pages: the cost model estimates %.4f ms of "
                   "I/O per access at %s against %.4f ms at %s, the page size "
                   "the inline rule (%.1f%% inline) gives: %.0f%% less",
                   cps, ch->io_ms, cps, ru->io_ms, rps, 100 * r->inline_target,
                   ru->io_ms > 0 ? 100 * (1 - ch->io_ms / ru->io_ms) : 0.0);
    } else if (r->rule_met) {
        size_t prev = r->rule_idx;
        if (prev > 0) {
            char pps[32];
            rec_reason(r,
                       "recommend %s pages: the smallest page size at which at "
                       "least %.1f%% of the objects are stored inline (%s: "
                       "%.1f%% <= %u bytes; %s: only %.1f%%)",
                       cps, 100 * r->inline_target, cps,
                       100 * ch->inline_fraction, ch->inline_limit_bytes,
                       pt_size_format(r->cand[prev - 1].page_size_bytes, pps,
                                      sizeof(pps)),
                       100 * r->cand[prev - 1].inline_fraction);
        } else {
            rec_reason(r,
                       "recommend %s pages: the smallest page size, and "
                       "%.1f%% of the objects are stored inline (<= %u "
                       "bytes; target %.1f%%)",
                       cps, 100 * ch->inline_fraction, ch->inline_limit_bytes,
                       100 * r->inline_target);
        }
    } else {
        rec_reason(r,
                   "recommend %s pages: no page size stores %.1f%% of the "
                   "objects inline; %s stores the most (%.1f%%), the rest "
                   "%s",
                   cps, 100 * r->inline_target, cps, 100 * ch->inline_fraction,
                   e->outline_buffered
                       ? "is stored out of line (read through the pool)"
                       : "is read with direct I/O");
    }
}

/* Step 7b. why the cost model's cheapest page size did not win. */
static void reason_rule_stands(struct rec_result *r)
{
    const struct rec_candidate *ru = &r->cand[r->rule_idx];
    const struct rec_candidate *co = &r->cand[r->cost_idx];
    char rps[32], ops[32];

    if (r->chosen_by_cost || r->cost_idx == r->rule_idx)
        return;
    pt_size_format(ru->page_size_bytes, rps, sizeof(rps));
    pt_size_format(co->page_size_bytes, ops, sizeof(ops));
    if (r->evidence && !r->memory_bound)
        rec_reason(r,
                   "the cost model's cheapest page size is %s (%.4f vs "
                   "%.4f ms per access), but at %s the pool holds the "
                   "whole table (hit ratio %.1f%%): the difference is "
                   "only the direct reads the inline target accepts, so "
                   "the inline rule stands",
                   ops, co->io_ms, ru->io_ms, rps, 100 * ru->hit_ratio);
    else if (r->evidence)
        rec_reason(r,
                   "the cost model's cheapest page size is %s (%.4f vs "
                   "%.4f ms per access), less than %.0f%% better: the "
                   "inline rule stands",
                   ops, co->io_ms, ru->io_ms, 100 * REC_OVERRIDE_MARGIN);
    else
        rec_reason(r,
                   "the cost model alone would pick %s (%.4f vs %.4f ms "
                   "per access), but only sizes are known: without "
                   "`memory`, `sessions`, `monitor` or `trace` the inline "
                   "rule decides",
                   ops, co->io_ms, ru->io_ms);
}

/* Step 7c. the memory the page sizes were compared at, and the model. */
static void reason_model(struct rec_result *r, const struct rec_inputs *in,
                         size_t mon_idx)
{
    const struct rec_device *d = in->device;
    char mem[32], line[REC_REASON_LEN];
    size_t off = 0;

    off += (size_t)snprintf(line, sizeof(line),
                            "page sizes compared at equal buffer-pool "
                            "memory %s =",
                            pt_size_format(r->memory_bytes, mem, sizeof(mem)));
    for (size_t i = 0; i < r->n_cand && off < sizeof(line); i++) {
        char ps[32];
        int k = snprintf(
            line + off, sizeof(line) - off, "%s %llu x %s", i ? "," : "",
            (unsigned long long)r->cand[i].bufferpool_pages,
            pt_size_format(r->cand[i].page_size_bytes, ps, sizeof(ps)));
        off += k > 0 ? (size_t)k : 0;
    }
    rec_reason(r, "%s pages (%s)", line,
               r->host_capped     ? "capped to the engine's share of the "
                                    "host's memory"
               : in->memory_given ? "`memory`"
               : mon_idx != (size_t)-1 && in->monitor->bufferpool_pages
                   ? "the monitored pool's size"
                   : "default budget; set `memory`");
    rec_reason(r,
               "model: %llu live sessions (%s); %s; device %s: OVERHEAD %.3f "
               "ms, %.0f MB/s",
               (unsigned long long)r->sessions, r->sessions_basis,
               in->access ? "access weights and page popularity from the trace"
                          : "every session equally likely to be read",
               d->name, d->overhead_ms, d->transfer_mb_s);
}

/* Step 7d. what the monitor measured against what the model predicts. */
/* A monitored hit ratio as text: "62.5%", or "not measured" for -1. */
static const char *hit_text(double pct, char *buf, size_t len)
{
    if (pct < 0)
        snprintf(buf, len, "not measured");
    else
        snprintf(buf, len, "%.1f%%", pct);
    return buf;
}

/* The reconciliation in words: the verdict, its reason, and which hit
 * ratio the current state's I/O estimate uses. */
static void reason_reconcile(struct rec_result *r, const char *mps)
{
    const struct rec_reconcile *rc = &r->recon;

    rec_reason(r,
               "reconciliation at the current %s pages and %.0f-page pool: "
               "model %.1f%% vs measured %.1f%% hit ratio (%s; tolerance %.0f "
               "points): %s: %s",
               mps, rc->pool_pages, 100 * rc->model_hit_ratio,
               100 * rc->measured_hit_ratio, rc->scope, 100 * rc->tolerance,
               rc->verdict, rc->reason);
    if (rc->note[0])
        rec_reason(r, "reconciliation: %s", rc->note);
    if (rc->used_measured)
        rec_reason(r,
                   "the current state's I/O per access uses the measured hit "
                   "ratio: %.4f ms (the model's ratio gives %.4f ms); the "
                   "candidates stay modelled so they compare on one basis",
                   rc->measured_io_ms, rc->model_io_ms);
    else if (strcmp(rc->verdict, "differs") == 0)
        rec_reason(r,
                   "the measured hit ratio is not used for the current "
                   "state's I/O (%.4f ms per access, modelled): it reflects "
                   "cold reads, not the steady state",
                   rc->model_io_ms);
}

static void reason_monitor(struct rec_result *r, const struct rec_inputs *in,
                           size_t mon_idx)
{
    const struct rec_monitor *m = in->monitor;
    const struct rec_candidate *ch = &r->cand[r->chosen_idx];
    char mps[32], cps[32], hit[32];

    if (mon_idx != (size_t)-1) {
        rec_reason(r,
                   "monitor: current %s pages, %llu pool pages, hit ratio "
                   "%s, direct-read share %.3f; the model at %s predicts "
                   "%.3f direct reads and %.3f physical reads per access",
                   pt_size_format(m->page_size_bytes, mps, sizeof(mps)),
                   (unsigned long long)m->bufferpool_pages,
                   hit_text(m->hit_ratio_pct, hit, sizeof(hit)),
                   m->direct_read_share, mps, r->cand[mon_idx].direct_reads,
                   r->cand[mon_idx].physical_reads);
        if (r->recon.present)
            reason_reconcile(r, mps);
        if (m->page_size_bytes != ch->page_size_bytes)
            rec_reason(r,
                       "change from %s to %s pages: %.4f -> %.4f ms I/O per "
                       "access in the model at the same memory",
                       mps,
                       pt_size_format(ch->page_size_bytes, cps, sizeof(cps)),
                       r->cand[mon_idx].io_ms, ch->io_ms);
        else
            rec_reason(r,
                       "the current page size %s is already the "
                       "recommended one",
                       mps);
    } else if (m && m->present) {
        if (m->engine[0] && strcmp(m->engine, in->engine->name) != 0)
            rec_reason(
                r,
                "monitor: counters from engine %s (current page size "
                "%s, hit ratio %s) are not used for a %s "
                "recommendation",
                m->engine, pt_size_format(m->page_size_bytes, mps, sizeof(mps)),
                hit_text(m->hit_ratio_pct, hit, sizeof(hit)), in->engine->name);
        else
            rec_reason(r,
                       "monitor: current page size %s is not a %s page size; "
                       "its counters were not used",
                       pt_size_format(m->page_size_bytes, mps, sizeof(mps)),
                       in->engine->name);
    }
}

/* Step 7e. the pool, the table space and WebSphere's settings. */
static void reason_objects(struct rec_result *r, const struct rec_inputs *in)
{
    const struct rec_engine *e = in->engine;
    const struct rec_candidate *ch = &r->cand[r->chosen_idx];
    char cps[32], b2[32], pool[96];

    /* the pool as every report writes it (core's pt_fig_pool) */
    pt_size_format(ch->page_size_bytes, cps, sizeof(cps));
    pt_fig_pool(r->pool_pages, ch->page_size_bytes, pool, sizeof(pool));
    if (r->pool_from_table)
        rec_reason(r,
                   "buffer pool sized to the table: %.0f data pages at %s "
                   "x %.2f headroom (growth, index pages) = %s, "
                   "below the default budget %s; give `memory` to set the "
                   "pool to a budget instead",
                   ch->data_pages + ch->outline_pages * (double)r->sessions,
                   cps, REC_POOL_HEADROOM, pool,
                   pt_size_format(r->memory_bytes, b2, sizeof(b2)));
    if (strcmp(e->name, "db2") == 0 || !rec_engine_known(e->name))
        rec_reason(
            r,
            "buffer pool %s: %s; table space %s: "
            "EXTENTSIZE %u pages (%s per extent, in 2..256), PREFETCHSIZE "
            "AUTOMATIC (single-row random reads rarely prefetch), OVERHEAD "
            "%.3f ms, TRANSFERRATE %.4f ms = (1 / %.0f MB/s) x 1000 / "
            "1024000 x %u",
            r->bufferpool_name, pool, r->tablespace_name, r->extent_size,
            pt_size_format((uint64_t)r->extent_size * ch->page_size_bytes, b2,
                           sizeof(b2)),
            r->overhead_ms, r->transfer_rate_ms, in->device->transfer_mb_s,
            ch->page_size_bytes);
    if (strcmp(e->name, "db2") == 0)
        rec_reason(r,
                   "WebSphere session manager: set DB2 row size to "
                   "ROW_SIZE_%uKB and table space name to %s; drop SESSIONS "
                   "so WebSphere re-creates it there",
                   ch->page_size_bytes / 1024, r->tablespace_name);
}

/* Step 7f. the current page size against the best one, with the numbers. */
static void reason_change(struct rec_result *r, const struct rec_engine *e)
{
    const struct rec_candidate *cur, *best;
    const struct rec_knob *k = rec_state_get(&r->current, "page_size");
    char cps[32], bps[32];

    if (r->change_tier == REC_TIER_NONE || r->current_idx == (size_t)-1 ||
        r->current_idx == r->best_idx)
        return;
    cur = &r->cand[r->current_idx];
    best = &r->cand[r->best_idx];
    pt_size_format(cur->page_size_bytes, cps, sizeof(cps));
    pt_size_format(best->page_size_bytes, bps, sizeof(bps));
    rec_reason(r,
               "%s %s pages (now, %s): %s would change I/O per access %.4f -> "
               "%.4f ms (gain %.1f%%) and buffered reads per access %.2f -> "
               "%.2f (gain %.1f%%); a %s needs at least %.0f%% modelled gain "
               "(change_thresholds in the %s profile; a new instance never "
               "for buffered reads alone)",
               r->kept ? "keep" : "change from", cps,
               k && k->source == REC_SOURCE_SERVER ? "read from the server"
                                                   : "the engine's default",
               bps, cur->io_ms, best->io_ms, 100 * r->gain_io,
               cur->buffered_reads, best->buffered_reads, 100 * r->gain_reads,
               r->change_tier == REC_TIER_NEW_INSTANCE
                   ? "new instance (dump and reload)"
                   : "rebuild of the database file",
               100 * rec_tier_threshold(e, r->change_tier), e->name);
}

/* Step 7g. DB2: how out-of-row data is cached, and LOB inlining. */
static void reason_db2_caching(struct rec_result *r,
                               const struct rec_inputs *in)
{
    const struct rec_engine *e = in->engine;
    const struct rec_candidate *ch = &r->cand[r->chosen_idx];
    double out = 0;
    char ps[32];

    for (size_t k = 0; k < e->n_outline; k++)
        out += ch->outline_fraction[k];
    pt_size_format(ch->page_size_bytes, ps, sizeof(ps));
    rec_reason(
        r,
        "%s for %s: at %s %.1f%% of the objects stay out of row and %.3f "
        "out-of-row reads happen per access%s; in an automatic-storage "
        "(DMS) table space out-of-row LONG VARCHAR / LOB data is buffered "
        "nowhere unless the table space has FILE SYSTEM CACHING (IBM Db2 "
        "docs, \"Table space containers use concurrent I/O or direct I/O by "
        "default\"), so %s (threshold %.3f reads per access, "
        "fs_caching_min_direct_reads in the db2 profile)",
        r->fs_caching ? "FILE SYSTEM CACHING" : "NO FILE SYSTEM CACHING",
        r->tablespace_name, ps, 100 * out, ch->direct_reads,
        in->access ? " (weighted by the trace's reads)" : "",
        r->fs_caching
            ? "the operating system's cache keeps the hot out-of-row objects "
              "off the device (the model's direct-read cost is then an upper "
              "bound)"
            : "too few reads leave the row to pay for caching the inline "
              "pages twice (pool and file system)",
        e->fs_caching_min_direct_reads);
    rec_reason(
        r,
        "INLINE LENGTH (Db2 9.7 and later, LOB columns only) does not help "
        "SESSIONS: MEDIUM is LONG VARCHAR FOR BIT DATA, which has no inline "
        "length, and LARGE BLOB holds only objects above MEDIUM's %llu "
        "bytes, more than the 32,673-byte inline maximum (IBM Db2 docs, "
        "\"Storing LOBs inline in table rows\"); the page size (ROW_SIZE) is "
        "the knob that keeps objects in the row",
        e->n_outline ? (unsigned long long)e->outline[0].max_bytes : 0ULL);
}

/* Step 7. reasons, in the order a DBA checks them. */
static void give_reasons(struct rec_result *r, const struct rec_inputs *in,
                         size_t mon_idx)
{
    const struct rec_engine *e = in->engine;
    const struct rec_candidate *ch = &r->cand[r->chosen_idx];

    reason_choice(r, e);
    reason_change(r, e);
    reason_rule_stands(r);
    reason_model(r, in, mon_idx);
    for (size_t i = 0; i < r->n_cand; i++)
        describe_candidate(r, in, i);
    if (ch->too_big_fraction > 0)
        rec_reason(
            r,
            "%.2f%% of the objects exceed every column (largest "
            "accepts %llu bytes): WebSphere cannot store them at any "
            "page size",
            100 * ch->too_big_fraction,
            e->n_outline
                ? (unsigned long long)e->outline[e->n_outline - 1].max_bytes
                : 0ULL);
    if (in->sizes_from_histogram)
        rec_reason(r, "sizes were reconstructed from histogram bin bounds "
                      "(each object at its bin's upper bound): inline "
                      "fractions are lower bounds");
    reason_monitor(r, in, mon_idx);
    reason_objects(r, in);
    if (strcmp(e->name, "db2") == 0)
        reason_db2_caching(r, in);
    rec_reason(r,
               "rest of the row: %u bytes besides the object and the row "
               "header, %s",
               e->row_fixed_bytes,
               e->row_measured
                   ? "measured per row by sample (sizes row_fixed_bytes)"
                   : "the engine profile's estimate (row_fixed_bytes: the "
                     "sizes were not measured per row)");
}

/* Step 8. the pool (recommended and current) against the host's memory. */
static void reason_host(struct rec_result *r, const struct rec_inputs *in)
{
    const struct rec_engine *e = in->engine;
    uint64_t pool = rec_result_pool_bytes(r, e),
             now = rec_state_pool_bytes(r, e, 1);
    const char *cite = "";
    char b1[32], b2[32], b3[32];

    if (!r->host_limit_bytes) {
        rec_reason(r, "buffer pool not checked against host memory: %s",
                   r->host_note);
        return;
    }
    rec_host_pool_fraction(e->name, &cite);
    pt_size_format(r->host_memory_bytes, b2, sizeof(b2));
    if (r->host_capped)
        rec_reason(r,
                   "buffer pool capped to %s: the %s it would be is %.0f%% "
                   "of the host's %s (%s), above the %.0f%% share (%s); the "
                   "model ran at the capped size",
                   pt_size_format(pool, b1, sizeof(b1)),
                   pt_size_format(r->host_asked_bytes, b3, sizeof(b3)),
                   100.0 * (double)r->host_asked_bytes /
                       (double)r->host_memory_bytes,
                   b2, r->host_note, 100 * r->host_fraction, cite);
    else
        rec_reason(r,
                   "buffer pool %s is %.1f%% of the host's %s (%s), within "
                   "the %.0f%% share (%s)",
                   pt_size_format(pool, b1, sizeof(b1)),
                   100.0 * (double)pool / (double)r->host_memory_bytes, b2,
                   r->host_note, 100 * r->host_fraction, cite);
    if (now > r->host_limit_bytes)
        rec_reason(r,
                   "the current pool %s is %.0f%% of the host's memory, "
                   "above the %.0f%% share: the server risks swapping",
                   pt_size_format(now, b1, sizeof(b1)),
                   100.0 * (double)now / (double)r->host_memory_bytes,
                   100 * r->host_fraction);
}

int rec_recommend(struct rec_result *r, const struct rec_inputs *in,
                  struct pt_err *err)
{
    const struct rec_engine *e = in->engine;
    struct cand_sums sums[REC_MAX_PAGE_SIZES];
    double total_gets = 0;
    size_t n, mon_idx;
    int rc;

    memset(r, 0, sizeof(*r));
    if (!e || !in->device || e->n_pages == 0)
        return err_set(err, PT_EINTERNAL, "recommend: engine/device missing");
    n = obj_count(in);
    if (n == 0)
        return err_set(err, PT_EDATA, "no object sizes to recommend from");
    r->inline_target =
        in->inline_target > 0 ? in->inline_target : REC_DEFAULT_INLINE_TARGET;
    if (!(r->inline_target > 0 && r->inline_target <= 1))
        return err_set(err, PT_EDATA, "`inline_target` must be in (0, 1]");
    r->device = in->device;
    if (in->access)
        for (size_t i = 0; i < n; i++)
            total_gets += (double)in->access->gets[i];

    /* 1. placement, rows per page, direct reads at every page size */
    r->n_cand = e->n_pages;
    for (size_t i = 0; i < e->n_pages; i++)
        fit_candidate(&r->cand[i], &sums[i], in, &e->pages[i], total_gets);
    mon_idx = monitor_index(r, in);
    build_state(r, in);
    if ((rc = choose_memory(r, in, mon_idx, err)) < 0)
        return rc;
    host_limit(r, in);
    estimate_sessions(r, in, mon_idx);
    /* 4. hit ratio and I/O per access at equal memory */
    for (size_t i = 0; i < r->n_cand; i++)
        if ((rc = pool_candidate(&r->cand[i], in, &e->pages[i], r,
                                 sums[i].share_sum, total_gets, err)) < 0)
            return rc;
    reconcile(r, in, mon_idx);
    choose_page(r);
    keep_or_change(r, in);
    if ((rc = settle_objects(r, in, mon_idx, err)) < 0)
        return rc;
    choose_fs_caching(r, in);
    rewrite_cost(r, in);
    give_reasons(r, in, mon_idx);
    if (e->knob.present && (rc = eval_knob(r, in, total_gets, err)) < 0)
        return rc;
    if (strcmp(e->name, "mysql") == 0 &&
        (rc = eval_row_format(r, in, total_gets, err)) < 0)
        return rc;
    rec_engine_advice(r, in);
    reason_host(r, in);
    if (r->cand[r->chosen_idx].too_big_fraction >= 1.0)
        return err_set(
            err, PT_EDATA,
            "no object fits any %s column (all exceed %llu bytes)", e->name,
            e->n_outline
                ? (unsigned long long)e->outline[e->n_outline - 1].max_bytes
                : 0ULL);
    /* the same limits ddl's reader applies (model/limits.c) */
    return rec_result_check(r, err);
}
