/* SPDX-License-Identifier: Apache-2.0 */
/*
 * engine.c — engine page-fit rules and the device I/O model, read from the
 * profiles (profiles/engines/<name>.yaml, profiles/devices/<name>.yaml)
 * that the caller loaded with core's prof_load_named(). Every figure comes
 * from the profile; this file only knows the shape of the rules:
 *
 *   - an object of n bytes is stored inline (in the row, buffered) if
 *     n <= the page size's inline limit, else in the first out-of-line
 *     column that accepts it (DB2: MEDIUM LONG VARCHAR, then LARGE BLOB),
 *     else it cannot be stored;
 *   - its row is row_fixed_bytes plus the object (inline) or the column's
 *     descriptor (out of line);
 *   - a page holds floor((usable - insert reserve) / (row + row overhead))
 *     rows, at least 2 when two fit and a reserve is set, capped.
 *
 * Neighbours: stats.c and recommend/ (the cost model), sim/ (buffer-pool
 * tier) and store/ (WebSphere placement) call these rules.
 */
#include "model/model.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

static int get_u32(const json_t *obj, const char *key, uint32_t *out,
                   const char *ctx, struct pt_err *err)
{
    uint64_t v;
    int rc = pt_json_get_u64(obj, key, &v, ctx, err);
    if (rc < 0)
        return rc;
    if (v > UINT32_MAX)
        return err_set(err, PT_EDATA, "%s: '%s' is too large", ctx, key);
    *out = (uint32_t)v;
    return 0;
}

static int opt_u32(const json_t *obj, const char *key, uint32_t *out,
                   const char *ctx, struct pt_err *err)
{
    if (!json_object_get(obj, key))
        return 0;
    return get_u32(obj, key, out, ctx, err);
}

static int copy_name(char *dst, size_t len, const char *src, const char *ctx,
                     const char *key, struct pt_err *err)
{
    if (strlen(src) == 0 || strlen(src) >= len)
        return err_set(err, PT_EDATA, "%s: '%s' must be 1..%zu characters", ctx,
                       key, len - 1);
    memcpy(dst, src, strlen(src) + 1);
    return 0;
}

uint32_t rec_engine_usable_default(uint32_t page_size_bytes,
                                   uint32_t page_overhead_bytes)
{
    return page_size_bytes > page_overhead_bytes
               ? page_size_bytes - page_overhead_bytes
               : 0;
}

/*
 * A byte count of the row or page layout, within rec_limits' ROW_BYTES
 * (0..64K): row sizes add these up in 32 bits, so 2^32 - 1 must not pass.
 */
static int check_bytes(const char *ctx, const char *field, uint32_t v,
                       struct pt_err *err)
{
    return rec_limit_check_u64(REC_LIM_ROW_BYTES, v, ctx, field, err);
}

static int page_from_json(struct rec_engine *e, struct rec_page_rule *p,
                          const json_t *o, size_t i, const char *ctx,
                          struct pt_err *err)
{
    char where[256];
    int rc;

    snprintf(where, sizeof(where), "%s: pages[%zu]", ctx, i);
    if (!json_is_object(o))
        return err_set(err, PT_EDATA, "%s is not a mapping", where);
    if ((rc = get_u32(o, "page_size", &p->page_size_bytes, where, err)) < 0 ||
        (rc = get_u32(o, "inline_limit", &p->inline_limit_bytes, where, err)) <
            0 ||
        (rc = get_u32(o, "max_row", &p->max_row_bytes, where, err)) < 0)
        return rc;
    p->usable_bytes =
        rec_engine_usable_default(p->page_size_bytes, e->page_overhead_bytes);
    if ((rc = opt_u32(o, "usable", &p->usable_bytes, where, err)) < 0 ||
        (rc = opt_u32(o, "outline_payload", &p->outline_payload_bytes, where,
                      err)) < 0 ||
        (rc = opt_u32(o, "outline_descriptor", &p->outline_descriptor_bytes,
                      where, err)) < 0 ||
        (rc = opt_u32(o, "insert_reserve", &p->insert_reserve_bytes, where,
                      err)) < 0)
        return rc;
    if ((rc = rec_limit_check_u64(REC_LIM_PAGE_BYTES, p->page_size_bytes, where,
                                  "page_size", err)) < 0 ||
        (rc = check_bytes(where, "inline_limit", p->inline_limit_bytes, err)) <
            0 ||
        (rc = check_bytes(where, "max_row", p->max_row_bytes, err)) < 0 ||
        (rc = check_bytes(where, "outline_descriptor",
                          p->outline_descriptor_bytes, err)) < 0)
        return rc;
    if (p->usable_bytes == 0 || p->usable_bytes > p->page_size_bytes)
        return err_set(err, PT_EDATA,
                       "%s: usable bytes %u must be 1..page_size", where,
                       p->usable_bytes);
    if (p->insert_reserve_bytes >= p->usable_bytes)
        return err_set(
            err, PT_EDATA,
            "%s: insert_reserve %u must be below the usable bytes %u", where,
            p->insert_reserve_bytes, p->usable_bytes);
    if (p->inline_limit_bytes > p->max_row_bytes)
        return err_set(err, PT_EDATA, "%s: inline_limit %u exceeds max_row %u",
                       where, p->inline_limit_bytes, p->max_row_bytes);
    if (p->outline_payload_bytes > p->page_size_bytes)
        return err_set(err, PT_EDATA,
                       "%s: outline_payload %u exceeds the page size", where,
                       p->outline_payload_bytes);
    return 0;
}

/* inline_knob: {name, min, max, default, offset, align} (optional). */
static int knob_from_json(struct rec_inline_knob *k, const json_t *o,
                          const char *ctx, struct pt_err *err)
{
    char where[256];
    const char *name;
    int rc;

    if (!o)
        return 0;
    snprintf(where, sizeof(where), "%s: inline_knob", ctx);
    if (!json_is_object(o))
        return err_set(err, PT_EDATA, "%s is not a mapping", where);
    k->align_bytes = 1;
    if ((rc = pt_json_get_str(o, "name", &name, where, err)) < 0 ||
        (rc = copy_name(k->name, sizeof(k->name), name, where, "name", err)) <
            0 ||
        (rc = get_u32(o, "min", &k->min, where, err)) < 0 ||
        (rc = get_u32(o, "max", &k->max, where, err)) < 0 ||
        (rc = get_u32(o, "default", &k->default_value, where, err)) < 0 ||
        (rc = get_u32(o, "offset", &k->offset_bytes, where, err)) < 0 ||
        (rc = opt_u32(o, "align", &k->align_bytes, where, err)) < 0)
        return rc;
    if (k->min > k->max || k->default_value < k->min ||
        k->default_value > k->max || k->align_bytes == 0 ||
        k->offset_bytes >= k->max)
        return err_set(err, PT_EDATA,
                       "%s: needs min <= default <= max, offset < max and "
                       "align >= 1",
                       where);
    k->present = 1;
    return 0;
}

/*
 * The u32 byte figures of an optional mapping `name` of the profile, each
 * key (all required) at its offset in `base`; `where` gets "ctx: name".
 * 0 when the mapping is absent, 1 when read, < 0 on an error.
 */
struct u32_key {
    const char *key;
    size_t off;
};
static int u32_keys_from_json(void *base, const struct u32_key *keys, size_t n,
                              const json_t *o, const char *ctx,
                              const char *name, char *where, size_t wlen,
                              struct pt_err *err)
{
    int rc;

    snprintf(where, wlen, "%s: %s", ctx, name);
    if (!o)
        return 0;
    if (!json_is_object(o))
        return err_set(err, PT_EDATA, "%s is not a mapping", where);
    for (size_t i = 0; i < n; i++) {
        uint32_t *v = (uint32_t *)((char *)base + keys[i].off);
        if ((rc = get_u32(o, keys[i].key, v, where, err)) < 0 ||
            (rc = check_bytes(where, keys[i].key, *v, err)) < 0)
            return rc;
    }
    return 1;
}

/*
 * toast: PostgreSQL's tuple and TOAST figures (optional; struct
 * rec_pg_layout, pgtoast.c). Every key is required when the mapping is
 * there.
 */
static int toast_from_json(struct rec_pg_layout *l, const json_t *o,
                           const char *ctx, struct pt_err *err)
{
    static const struct u32_key keys[] = {
        {"tuple_header", offsetof(struct rec_pg_layout, tuple_header_bytes)},
        {"maxalign", offsetof(struct rec_pg_layout, maxalign_bytes)},
        {"item_id", offsetof(struct rec_pg_layout, item_bytes)},
        {"threshold", offsetof(struct rec_pg_layout, threshold_bytes)},
        {"target_main", offsetof(struct rec_pg_layout, target_main_bytes)},
        {"chunk_size", offsetof(struct rec_pg_layout, chunk_bytes)},
        {"chunk_fixed", offsetof(struct rec_pg_layout, chunk_fixed_bytes)},
        {"pointer", offsetof(struct rec_pg_layout, pointer_bytes)},
        {"short_max", offsetof(struct rec_pg_layout, short_max_bytes)},
        {"varlena_header",
         offsetof(struct rec_pg_layout, varlena_header_bytes)},
        {"compressed_header",
         offsetof(struct rec_pg_layout, compressed_header_bytes)},
        {"index_entry", offsetof(struct rec_pg_layout, index_entry_bytes)},
        {"index_fillfactor", offsetof(struct rec_pg_layout, index_fillfactor)},
    };
    char where[256];
    int rc = u32_keys_from_json(l, keys, sizeof(keys) / sizeof(keys[0]), o, ctx,
                                "toast", where, sizeof(where), err);

    if (rc <= 0)
        return rc;
    if (l->maxalign_bytes == 0 || l->chunk_bytes == 0 ||
        l->varlena_header_bytes == 0 || l->index_entry_bytes == 0 ||
        l->index_fillfactor == 0 || l->index_fillfactor > 100 ||
        l->compressed_header_bytes < l->varlena_header_bytes)
        return err_set(err, PT_EDATA,
                       "%s: maxalign, chunk_size, varlena_header, "
                       "index_entry must be >= 1, index_fillfactor 1..100, "
                       "compressed_header >= varlena_header",
                       where);
    l->present = 1;
    return 0;
}

/*
 * btree: SQLite's table b-tree figures (optional; struct rec_sq_layout,
 * sqlbtree.c). Every key is required when the mapping is there.
 */
static int btree_from_json(struct rec_sq_layout *l, const json_t *o,
                           const char *ctx, struct pt_err *err)
{
    static const struct u32_key keys[] = {
        {"leaf_header", offsetof(struct rec_sq_layout, leaf_header_bytes)},
        {"interior_header",
         offsetof(struct rec_sq_layout, interior_header_bytes)},
        {"cell_pointer", offsetof(struct rec_sq_layout, cell_pointer_bytes)},
        {"overflow_pointer",
         offsetof(struct rec_sq_layout, overflow_pointer_bytes)},
        {"min_cell", offsetof(struct rec_sq_layout, min_cell_bytes)},
        {"record_header", offsetof(struct rec_sq_layout, record_header_bytes)},
    };
    char where[256];
    int rc = u32_keys_from_json(l, keys, sizeof(keys) / sizeof(keys[0]), o, ctx,
                                "btree", where, sizeof(where), err);

    l->present = rc > 0;
    return rc < 0 ? rc : 0;
}

/*
 * change_thresholds: {reloption, rebuild, new_instance} (optional; the
 * least modelled gain, a fraction, each tier at least the one before it:
 * docs/models.md #change-threshold). fs_caching_min_direct_reads
 * (optional, DB2). The "toast" figures (optional, PostgreSQL), the
 * "btree" figures (optional, SQLite).
 */
static int thresholds_from_json(struct rec_engine *e, const json_t *prof,
                                const char *ctx, struct pt_err *err)
{
    const json_t *o = json_object_get(prof, "change_thresholds");
    struct rec_change_thresholds *t = &e->change_threshold;
    char where[256];
    int rc;

    t->reloption = REC_DEFAULT_GAIN_RELOPTION;
    t->rebuild = REC_DEFAULT_GAIN_REBUILD;
    t->new_instance = REC_DEFAULT_GAIN_NEW_INSTANCE;
    if ((rc = pt_json_opt_num(prof, "fs_caching_min_direct_reads",
                              &e->fs_caching_min_direct_reads, ctx, err)) < 0)
        return rc;
    if (!(e->fs_caching_min_direct_reads >= 0) ||
        e->fs_caching_min_direct_reads > 1)
        return err_set(err, PT_EDATA,
                       "%s: fs_caching_min_direct_reads must be in 0..1", ctx);
    if ((rc = toast_from_json(&e->pg, json_object_get(prof, "toast"), ctx,
                              err)) < 0 ||
        (rc = btree_from_json(&e->sq, json_object_get(prof, "btree"), ctx,
                              err)) < 0 ||
        !o)
        return rc;
    snprintf(where, sizeof(where), "%s: change_thresholds", ctx);
    if (!json_is_object(o))
        return err_set(err, PT_EDATA, "%s is not a mapping", where);
    if ((rc = pt_json_get_num(o, "reloption", &t->reloption, where, err)) < 0 ||
        (rc = pt_json_get_num(o, "rebuild", &t->rebuild, where, err)) < 0 ||
        (rc = pt_json_get_num(o, "new_instance", &t->new_instance, where,
                              err)) < 0)
        return rc;
    if (!(t->reloption >= 0) || !(t->rebuild >= t->reloption) ||
        !(t->new_instance >= t->rebuild) || t->new_instance > 1)
        return err_set(err, PT_EDATA,
                       "%s: needs 0 <= reloption <= rebuild <= new_instance "
                       "<= 1 (a more disruptive change needs more gain)",
                       where);
    return 0;
}

int rec_engine_from_json(struct rec_engine *e, const json_t *prof,
                         const char *ctx, struct pt_err *err)
{
    const json_t *pages, *outline, *v;
    const char *name;
    size_t i;
    int rc;

    memset(e, 0, sizeof(*e));
    if (!json_is_object(prof))
        return err_set(err, PT_EDATA, "%s: an engine profile is a mapping",
                       ctx);
    if ((rc = pt_json_get_str(prof, "name", &name, ctx, err)) < 0 ||
        (rc = copy_name(e->name, sizeof(e->name), name, ctx, "name", err)) < 0)
        return rc;
    if ((rc = get_u32(prof, "max_rows_per_page", &e->max_rows_per_page, ctx,
                      err)) < 0 ||
        (rc = get_u32(prof, "row_fixed_bytes", &e->row_fixed_bytes, ctx, err)) <
            0 ||
        (rc = get_u32(prof, "row_overhead_bytes", &e->row_overhead_bytes, ctx,
                      err)) < 0 ||
        (rc = opt_u32(prof, "page_overhead_bytes", &e->page_overhead_bytes, ctx,
                      err)) < 0 ||
        (rc = opt_u32(prof, "outline_extra_reads", &e->outline_extra_reads, ctx,
                      err)) < 0 ||
        (rc = opt_u32(prof, "current_page_size", &e->current_page_bytes, ctx,
                      err)) < 0 ||
        (rc = knob_from_json(&e->knob, json_object_get(prof, "inline_knob"),
                             ctx, err)) < 0)
        return rc;
    if ((rc = thresholds_from_json(e, prof, ctx, err)) < 0)
        return rc;
    if (json_object_get(prof, "buffer_pool_policy") &&
        ((rc = pt_json_get_str(prof, "buffer_pool_policy", &name, ctx, err)) <
             0 ||
         (rc = copy_name(e->bp_policy, sizeof(e->bp_policy), name, ctx,
                         "buffer_pool_policy", err)) < 0))
        return rc;
    if (json_object_get(prof, "default_pool_bytes") &&
        (rc = pt_json_get_u64(prof, "default_pool_bytes",
                              &e->default_pool_bytes, ctx, err)) < 0)
        return rc;
    if (e->max_rows_per_page == 0)
        return err_set(err, PT_EDATA, "%s: max_rows_per_page must be >= 1",
                       ctx);
    if ((rc = check_bytes(ctx, "row_fixed_bytes", e->row_fixed_bytes, err)) <
            0 ||
        (rc = check_bytes(ctx, "row_overhead_bytes", e->row_overhead_bytes,
                          err)) < 0 ||
        (rc = check_bytes(ctx, "page_overhead_bytes", e->page_overhead_bytes,
                          err)) < 0 ||
        (e->current_page_bytes &&
         (rc = rec_limit_check_u64(REC_LIM_PAGE_BYTES, e->current_page_bytes,
                                   ctx, "current_page_size", err)) < 0) ||
        (e->default_pool_bytes &&
         (rc = rec_limit_check_u64(REC_LIM_MEMORY_BYTES, e->default_pool_bytes,
                                   ctx, "default_pool_bytes", err)) < 0))
        return rc;
    e->direct_io_unit_bytes = 1;
    if ((rc = opt_u32(prof, "direct_io_unit_bytes", &e->direct_io_unit_bytes,
                      ctx, err)) < 0)
        return rc;
    if (e->direct_io_unit_bytes == 0)
        return err_set(err, PT_EDATA, "%s: direct_io_unit_bytes must be >= 1",
                       ctx);
    v = json_object_get(prof, "outline_buffered");
    if (v && !json_is_boolean(v))
        return err_set(err, PT_EDATA,
                       "%s: 'outline_buffered' must be true or "
                       "false",
                       ctx);
    e->outline_buffered = v ? json_is_true(v) : 0;

    pages = json_object_get(prof, "pages");
    if (!json_is_array(pages) || json_array_size(pages) == 0)
        return err_set(err, PT_EDATA, "%s: 'pages' must be a non-empty list",
                       ctx);
    if (json_array_size(pages) > REC_MAX_PAGE_SIZES)
        return err_set(err, PT_EDATA, "%s: more than %d page sizes", ctx,
                       REC_MAX_PAGE_SIZES);
    json_array_foreach(pages, i, v)
    {
        if ((rc = page_from_json(e, &e->pages[i], v, i, ctx, err)) < 0)
            return rc;
        if (i > 0 &&
            e->pages[i].page_size_bytes <= e->pages[i - 1].page_size_bytes)
            return err_set(err, PT_EDATA,
                           "%s: pages must be in ascending page_size order",
                           ctx);
    }
    e->n_pages = json_array_size(pages);

    outline = json_object_get(prof, "outline");
    if (outline && !json_is_array(outline))
        return err_set(err, PT_EDATA, "%s: 'outline' must be a list", ctx);
    if (outline && json_array_size(outline) > REC_MAX_OUTLINE)
        return err_set(err, PT_EDATA, "%s: more than %d outline columns", ctx,
                       REC_MAX_OUTLINE);
    json_array_foreach(outline, i, v)
    {
        char where[256];
        struct rec_outline *o = &e->outline[i];
        snprintf(where, sizeof(where), "%s: outline[%zu]", ctx, i);
        if (!json_is_object(v))
            return err_set(err, PT_EDATA, "%s is not a mapping", where);
        if ((rc = pt_json_get_str(v, "name", &name, where, err)) < 0 ||
            (rc = copy_name(o->name, sizeof(o->name), name, where, "name",
                            err)) < 0 ||
            (rc = pt_json_get_u64(v, "max_bytes", &o->max_bytes, where, err)) <
                0 ||
            (rc = get_u32(v, "descriptor_bytes", &o->descriptor_bytes, where,
                          err)) < 0 ||
            (rc = check_bytes(where, "descriptor_bytes", o->descriptor_bytes,
                              err)) < 0 ||
            (rc = rec_limit_check_u64(REC_LIM_SIZE_BYTES, o->max_bytes, where,
                                      "max_bytes", err)) < 0)
            return rc;
        if (i > 0 && o->max_bytes <= e->outline[i - 1].max_bytes)
            return err_set(err, PT_EDATA,
                           "%s: max_bytes must grow along the list", where);
    }
    e->n_outline = outline ? json_array_size(outline) : 0;
    return 0;
}

const struct rec_page_rule *rec_engine_page(const struct rec_engine *e,
                                            uint32_t page_size_bytes)
{
    for (size_t i = 0; i < e->n_pages; i++)
        if (e->pages[i].page_size_bytes == page_size_bytes)
            return &e->pages[i];
    return NULL;
}

int rec_engine_place(const struct rec_engine *e, const struct rec_page_rule *p,
                     uint64_t obj_bytes)
{
    if (obj_bytes <= p->inline_limit_bytes)
        return REC_PLACE_INLINE;
    for (size_t k = 0; k < e->n_outline; k++)
        if (obj_bytes <= e->outline[k].max_bytes)
            return (int)k + 1;
    return REC_PLACE_TOO_BIG;
}

uint32_t rec_engine_row_bytes(const struct rec_engine *e,
                              const struct rec_page_rule *p, uint64_t obj_bytes)
{
    int where = rec_engine_place(e, p, obj_bytes);

    if (where == REC_PLACE_INLINE)
        return e->row_fixed_bytes + (uint32_t)obj_bytes;
    if (where > 0)
        return e->row_fixed_bytes +
               (p->outline_descriptor_bytes
                    ? p->outline_descriptor_bytes
                    : e->outline[where - 1].descriptor_bytes);
    return e->row_fixed_bytes; /* the write fails; nothing is stored */
}

uint32_t rec_engine_rows_per_page(const struct rec_engine *e,
                                  const struct rec_page_rule *p,
                                  uint64_t obj_bytes)
{
    uint64_t per_row =
        (uint64_t)rec_engine_row_bytes(e, p, obj_bytes) + e->row_overhead_bytes;
    uint64_t n = per_row ? (p->usable_bytes - p->insert_reserve_bytes) / per_row
                         : e->max_rows_per_page;

    /* The reserve binds from the third row on: InnoDB keeps a page filled
       in key order dict_index_get_space_reserve() (page size / 16) free
       only once it holds 2 records (MariaDB storage/innobase/btr/
       btr0cur.cc, btr_cur_optimistic_insert(): page_get_n_recs(page) >= 2
       && dict_index_get_space_reserve() + rec_size > max_size fails the
       insert, the page splits at the insert point) */
    if (n < 2 && per_row && p->insert_reserve_bytes)
        n = p->usable_bytes / per_row < 2 ? p->usable_bytes / per_row : 2;
    if (n < 1)
        n = 1; /* an inline row always fits its page (max_row < usable) */
    if (n > e->max_rows_per_page)
        n = e->max_rows_per_page;
    return (uint32_t)n;
}

void rec_engine_set_row_fixed(struct rec_engine *e, uint32_t row_fixed_bytes)
{
    int64_t delta = (int64_t)e->row_fixed_bytes - (int64_t)row_fixed_bytes;

    /* DB2's inline limit is WebSphere's SMALL column length (db2.yaml),
       not a row limit: only the page fill uses the rest of the row */
    if (strcmp(e->name, "db2") == 0)
        delta = 0;
    /* SQLite's limits also assumed a record header that the measured rest
       of the row holds (collect/catalog.c: the serial types and the
       header size varint) */
    if (e->sq.present)
        delta += e->sq.record_header_bytes;
    for (size_t i = 0; i < e->n_pages; i++) {
        struct rec_page_rule *p = &e->pages[i];
        int64_t lim = (int64_t)p->inline_limit_bytes + delta;
        if (lim < 0)
            lim = 0;
        if (lim > (int64_t)p->max_row_bytes)
            lim = p->max_row_bytes;
        p->inline_limit_bytes = (uint32_t)lim;
    }
    if (e->knob.present) {
        int64_t off = (int64_t)e->knob.offset_bytes - delta;
        if (off < 0)
            off = 0;
        if (off >= (int64_t)e->knob.max)
            off = (int64_t)e->knob.max - 1;
        e->knob.offset_bytes = (uint32_t)off;
    }
    e->row_fixed_bytes = row_fixed_bytes;
    e->row_measured = 1;
}

char *rec_engine_page_list(const struct rec_engine *e, char *buf, size_t len)
{
    size_t off = 0;

    if (len == 0)
        return buf;
    buf[0] = '\0';
    for (size_t i = 0; i < e->n_pages && off < len; i++) {
        char one[32];
        int n = snprintf(
            buf + off, len - off, "%s%s", i ? ", " : "",
            pt_size_format(e->pages[i].page_size_bytes, one, sizeof(one)));
        if (n < 0)
            break;
        off += (size_t)n;
    }
    return buf;
}

/* ---- devices ------------------------------------------------------------- */

int rec_device_from_json(struct rec_device *d, const json_t *prof,
                         const char *ctx, struct pt_err *err)
{
    const char *name;
    int rc;

    memset(d, 0, sizeof(*d));
    if (!json_is_object(prof))
        return err_set(err, PT_EDATA, "%s: a device profile is a mapping", ctx);
    if ((rc = pt_json_get_str(prof, "name", &name, ctx, err)) < 0 ||
        (rc = copy_name(d->name, sizeof(d->name), name, ctx, "name", err)) <
            0 ||
        (rc = pt_json_get_num(prof, "overhead_ms", &d->overhead_ms, ctx, err)) <
            0 ||
        (rc = pt_json_get_num(prof, "transfer_mb_s", &d->transfer_mb_s, ctx,
                              err)) < 0)
        return rc;
    if (!(d->overhead_ms >= 0) || d->overhead_ms > 1000)
        return err_set(err, PT_EDATA, "%s: overhead_ms must be 0..1000", ctx);
    if (!(d->transfer_mb_s > 0) || d->transfer_mb_s > 1e6)
        return err_set(err, PT_EDATA,
                       "%s: transfer_mb_s must be > 0 and <= 1000000", ctx);
    /* TRANSFERRATE of the largest page must stay what ddl accepts */
    if (rec_transfer_ms(d->transfer_mb_s, REC_MAX_PAGE_BYTES) >
        rec_limits[REC_LIM_TRANSFER_MS].max)
        return err_set(err, PT_EDATA,
                       "%s: transfer_mb_s %g is too slow: TRANSFERRATE of a "
                       "%u-byte page would exceed %g ms",
                       ctx, d->transfer_mb_s, REC_MAX_PAGE_BYTES,
                       rec_limits[REC_LIM_TRANSFER_MS].max);
    return 0;
}

double rec_device_transfer_ms(const struct rec_device *d,
                              uint32_t page_size_bytes)
{
    return rec_transfer_ms(d->transfer_mb_s, page_size_bytes);
}

double rec_transfer_ms(double read_rate_mb_s, uint64_t bytes)
{
    /* IBM: TRANSFERRATE = (1 / DEVICE READ RATE) * 1000 / 1024000 * PAGESIZE */
    return (1.0 / read_rate_mb_s) * 1000.0 / 1024000.0 * (double)bytes;
}

double rec_device_read_ms(const struct rec_device *d, uint64_t bytes)
{
    return d->overhead_ms + rec_transfer_ms(d->transfer_mb_s, bytes);
}
