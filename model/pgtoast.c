/* SPDX-License-Identifier: Apache-2.0 */
/*
 * pgtoast.c — where PostgreSQL puts the bytes of one row: the heap tuple,
 * compressed or not, and the TOAST chunks, as the toaster decides it. The
 * figures (header sizes, threshold, chunk size) come from the engine
 * profile's "toast" mapping (struct rec_pg_layout); the rules are these,
 * each from PostgreSQL's source:
 *
 *  - heapam.c heap_prepare_insert: the toaster runs only when the tuple
 *    (header + data) is longer than TOAST_TUPLE_THRESHOLD; a shorter row
 *    is stored as it is, uncompressed whatever toast_tuple_target says.
 *  - heaptoast.c heap_toast_insert_or_update, until the data fits
 *    toast_tuple_target - header (RelationGetToastTupleTarget):
 *      1. the biggest EXTENDED/EXTERNAL value not yet tried: EXTENDED is
 *         compressed (EXTERNAL marked incompressible); a value still
 *         longer than the whole target goes out of line at once;
 *      2. the biggest EXTENDED/EXTERNAL value still inline goes out of line;
 *      3. the biggest MAIN value is compressed;
 *      4. against TOAST_TUPLE_TARGET_MAIN, the biggest MAIN value goes out.
 *    toast_helper.c toast_tuple_find_biggest_attribute: a candidate must be
 *    longer than MAXALIGN(TOAST_POINTER_SIZE).
 *  - toast_internals.c toast_compress_datum: a compressed datum is kept only
 *    if it saves more than 2 bytes (pglz.c); toast_save_datum: the stored
 *    payload (compressed data + its 4-byte rawsize word, or the raw bytes)
 *    is cut into TOAST_MAX_CHUNK_SIZE chunks, one TOAST tuple each
 *    (chunk_id oid, chunk_seq int4, chunk_data bytea).
 *  - heaptuple.c heap_compute_data_size / heap_fill_tuple: a value under
 *    VARATT_SHORT_MAX gets a 1-byte header and no alignment; a longer or
 *    compressed one a 4-byte header, int-aligned; a TOAST pointer is an
 *    unaligned 18-byte datum; the tuple is MAXALIGNed with a 23-byte header
 *    (MAXALIGN(23 + null bitmap)).
 *
 * The row's other columns are the measured rest of the row (sample); the
 * objects follow them. A value compresses to ratio x its bytes (measured
 * by a pglz trial on sampled values); 0 = incompressible.
 *
 * Neighbours: recommend.c fit_candidate (pages, reads), advice.c (which
 * change pays), pglz.c (the trial).
 */
#include "model/model.h"

#include <math.h>
#include <string.h>

enum val_form { VAL_RAW, VAL_COMPRESSED, VAL_EXTERNAL };

struct val {
    uint64_t raw;   /* bytes of the value */
    uint64_t datum; /* compressed datum bytes (VAL_COMPRESSED) */
    enum val_form form;
    int tried; /* compression tried (or EXTERNAL: not allowed) */
};

static uint64_t align_up(uint64_t v, uint64_t a)
{
    return a > 1 ? (v + a - 1) / a * a : v;
}

/* The bytes value v takes in the tuple data at offset off (its padding
   included); heaptuple.c heap_compute_data_size. */
static uint64_t val_bytes(const struct rec_pg_layout *l, const struct val *v,
                          uint64_t off)
{
    uint64_t hdr = l->varlena_header_bytes;

    if (v->form == VAL_EXTERNAL)
        return l->pointer_bytes;
    if (v->form == VAL_RAW && v->raw + 1 <= l->short_max_bytes)
        return v->raw + 1; /* short header, no alignment */
    return align_up(off, hdr) - off +
           (v->form == VAL_COMPRESSED ? v->datum : v->raw + hdr);
}

static uint64_t data_size(const struct rec_pg_layout *l,
                          const struct rec_pg_table *t, const struct val *v)
{
    uint64_t off = t->rest_bytes;

    for (size_t i = 0; i < t->n_columns; i++)
        off += val_bytes(l, &v[i], off);
    return off;
}

/* The size the toaster compares (toast_tuple_init: VARSIZE_ANY). */
static uint64_t tai_size(const struct rec_pg_layout *l, const struct val *v)
{
    if (v->form == VAL_COMPRESSED)
        return v->datum;
    return v->raw +
           (v->raw + 1 <= l->short_max_bytes ? 1 : l->varlena_header_bytes);
}

/* toast_tuple_find_biggest_attribute over the storages in `which`. */
static int biggest(const struct rec_pg_layout *l, const struct rec_pg_table *t,
                   const struct val *v, const char *which, int for_compression)
{
    uint64_t best = align_up(l->pointer_bytes, l->maxalign_bytes);
    int at = -1;

    for (size_t i = 0; i < t->n_columns; i++) {
        if (v[i].form == VAL_EXTERNAL || !strchr(which, t->storage[i]))
            continue;
        if (for_compression && (v[i].tried || v[i].form == VAL_COMPRESSED))
            continue;
        if (tai_size(l, &v[i]) > best) {
            best = tai_size(l, &v[i]);
            at = (int)i;
        }
    }
    return at;
}

/* toast_tuple_try_compression with the measured ratio. */
static void try_compress(const struct rec_pg_layout *l,
                         const struct rec_pg_table *t, struct val *v)
{
    int64_t pglz, d;
    int64_t min_in = rec_pglz_default.min_input_size;
    double keep = (100.0 - rec_pglz_default.min_comp_rate) / 100.0;

    v->tried = 1;
    if (!(t->ratio > 0) || t->ratio >= keep || (int64_t)v->raw < min_in)
        return;
    pglz = (int64_t)ceil(t->fixed_bytes + (double)v->raw * t->ratio);
    if (pglz > (int64_t)((double)v->raw * keep))
        return; /* pglz would give up: less than its saving */
    d = rec_pglz_datum_bytes(pglz, v->raw, l->compressed_header_bytes);
    if (d < 0)
        return;
    v->form = VAL_COMPRESSED;
    v->datum = (uint64_t)d;
}

/* Steps 1-4 of heap_toast_insert_or_update on v. */
static void toast_row(const struct rec_pg_layout *l,
                      const struct rec_pg_table *t, struct val *v,
                      uint64_t hoff)
{
    uint64_t max = t->target_bytes > hoff ? t->target_bytes - hoff : 0;
    int b;

    while (data_size(l, t, v) > max && (b = biggest(l, t, v, "xe", 1)) >= 0) {
        if (t->storage[b] == 'x')
            try_compress(l, t, &v[b]);
        else
            v[b].tried = 1;
        if (tai_size(l, &v[b]) > max)
            v[b].form = VAL_EXTERNAL;
    }
    while (data_size(l, t, v) > max && (b = biggest(l, t, v, "xe", 0)) >= 0)
        v[b].form = VAL_EXTERNAL;
    while (data_size(l, t, v) > max && (b = biggest(l, t, v, "m", 1)) >= 0)
        try_compress(l, t, &v[b]);
    max = l->target_main_bytes > hoff ? l->target_main_bytes - hoff : 0;
    while (data_size(l, t, v) > max && (b = biggest(l, t, v, "m", 0)) >= 0)
        v[b].form = VAL_EXTERNAL;
}

uint32_t rec_pg_chunk_tuple_bytes(const struct rec_pg_layout *l, uint64_t n)
{
    uint64_t hoff = align_up(l->tuple_header_bytes, l->maxalign_bytes);
    uint64_t vb =
        n + 1 <= l->short_max_bytes ? n + 1 : n + l->varlena_header_bytes;

    return (uint32_t)(align_up(hoff + l->chunk_fixed_bytes + vb,
                               l->maxalign_bytes) +
                      l->item_bytes);
}

/* toast_save_datum: the chunk tuples of one out-of-line value. */
static void save_datum(const struct rec_pg_layout *l, const struct val *v,
                       struct rec_pg_tuple *out)
{
    /* a compressed value goes out compressed */
    uint64_t todo = v->datum ? v->datum - l->varlena_header_bytes : v->raw;

    while (todo > 0) {
        uint64_t n = todo < l->chunk_bytes ? todo : l->chunk_bytes;
        out->toast_bytes += rec_pg_chunk_tuple_bytes(l, n);
        out->toast_chunks++;
        todo -= n;
    }
}

void rec_pg_tuple_fit(const struct rec_pg_layout *l,
                      const struct rec_pg_table *t, uint64_t obj_bytes,
                      struct rec_pg_tuple *out)
{
    struct val v[REC_PG_MAX_COLUMNS];
    uint64_t hoff = align_up(l->tuple_header_bytes, l->maxalign_bytes);
    uint64_t left = obj_bytes, len;
    size_t n = t->n_columns ? t->n_columns : 1;

    memset(out, 0, sizeof(*out));
    memset(v, 0, sizeof(v));
    for (size_t i = 0; i < n; i++) {
        /* the row's object bytes split by each column's share */
        uint64_t part =
            i + 1 == n ? left
                       : (uint64_t)llround((double)obj_bytes * t->share[i]);
        v[i].raw = part < left ? part : left;
        left -= v[i].raw;
    }
    len = hoff + data_size(l, t, v);
    /* heap_prepare_insert: the toaster only above the threshold */
    if (len > l->threshold_bytes)
        toast_row(l, t, v, hoff);
    for (size_t i = 0; i < n; i++) {
        if (v[i].form == VAL_EXTERNAL) {
            out->n_external++;
            save_datum(l, &v[i], out);
        }
        if (v[i].datum) {
            out->n_compressed++;
            out->inflate_bytes += v[i].raw;
        }
    }
    len = hoff + data_size(l, t, v);
    out->heap_bytes =
        (uint32_t)(align_up(len, l->maxalign_bytes) + l->item_bytes);
}

uint32_t rec_pg_rows_per_page(const struct rec_pg_table *t,
                              uint32_t page_size_bytes, uint32_t usable_bytes,
                              uint32_t heap_bytes)
{
    /* hio.c RelationGetBufferForTuple: a page takes a tuple while its free
       space stays above BLCKSZ x (100 - fillfactor) % */
    uint32_t ff = t->fillfactor ? t->fillfactor : 100;
    uint64_t save = (uint64_t)page_size_bytes * (100 - ff) / 100;
    uint64_t room = usable_bytes > save ? usable_bytes - save : 0;
    uint64_t n = heap_bytes ? room / heap_bytes : 1;

    return n < 1 ? 1 : n > UINT32_MAX ? UINT32_MAX : (uint32_t)n;
}

void rec_pg_pack_init(struct rec_pg_pack *k, uint32_t page_size_bytes,
                      uint32_t usable_bytes, uint32_t fillfactor)
{
    uint32_t ff = fillfactor ? fillfactor : 100;

    memset(k, 0, sizeof(*k));
    k->usable_bytes = usable_bytes;
    k->save_bytes = (uint32_t)((uint64_t)page_size_bytes * (100 - ff) / 100);
}

void rec_pg_pack_free(struct rec_pg_pack *k)
{
    free(k->used);
    free(k->tree);
    k->used = NULL;
    k->tree = NULL;
    k->cap = 0;
}

/* freespace.c: FSM_CAT_STEP = BLCKSZ / 256 bytes a category */
#define FSM_CAT_STEP 32u
static uint8_t avail_to_cat(uint64_t avail)
{
    uint64_t c = avail / FSM_CAT_STEP;
    return (uint8_t)(c > 254 ? 254 : c); /* 255: MaxFSMRequestSize only */
}
static uint8_t needed_to_cat(uint64_t needed)
{
    uint64_t c = (needed + FSM_CAT_STEP - 1) / FSM_CAT_STEP;
    return (uint8_t)(c > 255 ? 255 : c);
}

static void tree_set(struct rec_pg_pack *k, size_t page, uint8_t cat)
{
    size_t i = k->cap + page;

    k->tree[i] = cat;
    for (i /= 2; i >= 1; i /= 2) {
        uint8_t m = k->tree[2 * i] > k->tree[2 * i + 1] ? k->tree[2 * i]
                                                        : k->tree[2 * i + 1];
        if (k->tree[i] == m)
            break;
        k->tree[i] = m;
    }
}

/* The first page in [lo, cap) with a category >= need, or (size_t)-1. */
static size_t tree_find(const struct rec_pg_pack *k, size_t lo, uint8_t need)
{
    size_t i = k->cap + lo;

    if (lo >= k->cap)
        return (size_t)-1;
    if (k->tree[i] < need) {
        for (;;) { /* up while a right child, then to the right sibling */
            while (i > 1 && (i & 1))
                i >>= 1;
            if (i <= 1)
                return (size_t)-1;
            if (k->tree[++i] >= need)
                break;
        }
    }
    while (i < k->cap) /* down, left first */
        i = k->tree[2 * i] >= need ? 2 * i : 2 * i + 1;
    return i - k->cap;
}

/* freespace.c RecordAndGetPageWithFreeSpace: page's free space to the
 * map, then the map searched from its next slot, wrapping, for a page of
 * category `cat` among the first n; (size_t)-1 when none. */
static size_t record_and_get(struct rec_pg_pack *k, size_t page, size_t n,
                             uint8_t cat)
{
    uint64_t left = k->usable_bytes - k->used[page];
    size_t found;

    tree_set(k, page, avail_to_cat(left > 4 ? left - 4 : 0));
    found = tree_find(k, k->next_slot, cat);
    if (found == (size_t)-1 && k->next_slot > 0)
        found = tree_find(k, 0, cat);
    if (found == (size_t)-1 || found >= n)
        return (size_t)-1;
    k->next_slot = found + 1;
    return found;
}

/* Room for one more page; 0, or -1 out of memory. */
static int grow(struct rec_pg_pack *k)
{
    size_t cap = k->cap ? 2 * k->cap : 1024;
    uint32_t *used = pt_realloc(k->used, cap * sizeof(*used));
    uint8_t *tree;

    if (!used)
        return -1;
    k->used = used;
    if (!(tree = pt_calloc(2 * cap, 1)))
        return -1;
    for (size_t p = 0; p < k->cap; p++)
        tree[cap + p] = k->tree[k->cap + p];
    for (size_t i = cap - 1; i >= 1; i--)
        tree[i] = tree[2 * i] > tree[2 * i + 1] ? tree[2 * i] : tree[2 * i + 1];
    free(k->tree);
    k->tree = tree;
    k->cap = cap;
    return 0;
}

void rec_pg_pack_add(struct rec_pg_pack *k, uint32_t bytes)
{
    size_t n = (size_t)k->pages, found;
    uint64_t need = (uint64_t)bytes + k->save_bytes;

    if (k->failed || k->no_map) { /* one page after another */
        if (n > 0 && k->last_used + need <= k->usable_bytes) {
            k->last_used += bytes;
            return;
        }
        k->last_used = bytes;
        k->pages += 1;
        return;
    }
    if (n > 0 && k->used[k->target] + need <= k->usable_bytes) {
        k->used[k->target] += bytes;
        return;
    }
    if (n > 0) {
        /* the target's space goes to the map; the map is searched from
           its next slot, wrapping, for a page whose category covers the
           request (the tuple's item pointer is in `bytes`, and
           PageGetHeapFreeSpace leaves room for one); a page found with
           less room than its category said is recorded and the search
           goes on (hio.c's loop) */
        uint8_t cat = needed_to_cat(need - 4);
        size_t page = k->target;
        for (;;) {
            if ((found = record_and_get(k, page, n, cat)) == (size_t)-1)
                break;
            if (k->used[found] + need <= k->usable_bytes) {
                k->target = found;
                k->used[found] += bytes; /* the map keeps its old category
                                            until the page is left */
                return;
            }
            page = found;
        }
    }
    /* hio.c: extend the relation; a new page takes any tuple and is not
       in the map until it is left */
    if (n >= k->cap && grow(k) < 0) {
        k->failed = 1; /* on without the map */
        k->last_used = bytes;
        k->pages += 1;
        return;
    }
    k->used[n] = bytes;
    k->target = n;
    k->pages += 1;
}

size_t rec_pg_pack_place(struct rec_pg_pack *k, uint32_t bytes, size_t *target,
                         rec_pg_visit_fn *visit, void *ctx)
{
    size_t n = (size_t)k->pages, page = *target, found;
    uint64_t need = (uint64_t)bytes + k->save_bytes;
    uint8_t cat = needed_to_cat(need > 4 ? need - 4 : 0);

    if (k->failed || k->no_map)
        return (size_t)-1;
    if (page >= n) {
        /* hio.c: no target yet: the map, else the relation's last page */
        found = tree_find(k, k->next_slot, cat);
        if (found == (size_t)-1 && k->next_slot > 0)
            found = tree_find(k, 0, cat);
        if (found != (size_t)-1 && found < n)
            k->next_slot = found + 1;
        page = found != (size_t)-1 && found < n ? found
               : n > 0                          ? n - 1
                                                : (size_t)-1;
    }
    while (page != (size_t)-1) {
        if (visit)
            visit(ctx, page, 0);
        if (k->used[page] + need <= k->usable_bytes) {
            k->used[page] += bytes;
            *target = page;
            return page;
        }
        page = record_and_get(k, page, n, cat);
    }
    if (n >= k->cap && grow(k) < 0) {
        k->failed = 1;
        return (size_t)-1;
    }
    if (visit)
        visit(ctx, n, 1);
    k->used[n] = bytes;
    k->pages += 1;
    *target = n;
    return n;
}

void rec_pg_pack_release(struct rec_pg_pack *k, size_t page, uint32_t bytes)
{
    if (page < (size_t)k->pages && !k->failed)
        k->used[page] = k->used[page] > bytes ? k->used[page] - bytes : 0;
}

void rec_pg_pack_record(struct rec_pg_pack *k, size_t page)
{
    uint64_t left;

    if (page >= (size_t)k->pages || k->failed || k->no_map)
        return;
    left = k->usable_bytes - k->used[page];
    tree_set(k, page, avail_to_cat(left > 4 ? left - 4 : 0));
}
