/* SPDX-License-Identifier: Apache-2.0 */
/*
 * doc.c — recommendation.json, its owner: the writer (rec_result_to_json,
 * with the "inputs" object, rec_inputs_to_json) and the reader
 * (rec_result_from_json into the model's struct rec_doc, which ddl/ plans
 * from). docs/formats.md#recommendation is the format.
 *
 * Neighbours: recommend.c (the result it writes), result.c and tier.c
 * (the pool in bytes, the change rule), model/limits.c (the reader applies
 * the same limits as rec_result_check), cli/cmd_recommend.c, cli/cmd_ddl.c
 * and advise/ (callers).
 */
#include "recommend/internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

json_t *rec_inputs_to_json(const struct rec_inputs_doc *d)
{
    json_t *in = json_object();

    if (!in)
        return NULL;
    json_object_set_new(in, "engine", json_string(d->engine));
    json_object_set_new(in, "engine_profile", json_string(d->engine_profile));
    json_object_set_new(in, "device", json_string(d->device));
    json_object_set_new(in, "device_profile", json_string(d->device_profile));
    json_object_set_new(in, "memory_bytes",
                        d->memory_given
                            ? json_integer((json_int_t)d->memory_bytes)
                            : json_null());
    json_object_set_new(in, "inline_target", json_real(d->inline_target));
    json_object_set_new(in, "sessions",
                        d->sessions ? json_integer((json_int_t)d->sessions)
                                    : json_null());
    if (d->stats) {
        json_t *s = rec_stats_to_json(d->stats, NULL, 0, NULL);
        if (s) {
            json_object_del(s, "schema_version");
            json_object_set_new(s, "file", json_string(d->sizes_file));
            json_object_set_new(s, "format", json_string(d->sizes_format));
            json_object_set_new(in, "sizes", s);
        }
    }
    if (d->trace_file && d->trace)
        json_object_set_new(in, "trace",
                            json_pack("{s:s,s:I,s:I,s:I}", "file",
                                      d->trace_file, "requests",
                                      (json_int_t)d->trace->requests, "gets",
                                      (json_int_t)d->trace->n_gets, "keys",
                                      (json_int_t)d->trace->n_keys));
    if (d->monitor_file && d->monitor && d->monitor->present)
        json_object_set_new(
            in, "monitor",
            json_pack("{s:s,s:I,s:I,s:f,s:f}", "file", d->monitor_file,
                      "page_size", (json_int_t)d->monitor->page_size_bytes,
                      "bufferpool_pages",
                      (json_int_t)d->monitor->bufferpool_pages, "hit_ratio",
                      d->monitor->hit_ratio_pct, "direct_read_share",
                      d->monitor->direct_read_share));
    return in;
}

/* ---- JSON ------------------------------------------------------------------
 */

static double round6(double v)
{
    return round(v * 1e6) / 1e6;
}

/* One entry of "candidates"; NULL when out of memory. */
static json_t *candidate_json(const struct rec_result *r,
                              const struct rec_engine *e,
                              const struct rec_candidate *c)
{
    json_t *outl = json_object(), *x;

    if (!outl)
        return NULL;
    for (size_t k = 0; k < e->n_outline; k++)
        json_object_set_new(outl, e->outline[k].name,
                            json_real(round6(c->outline_fraction[k])));
    x = json_pack(
        "{s:I,s:I,s:f,s:o,s:f,s:f,s:f,s:f,s:I,s:f,s:f,s:f,s:f,s:f,s:f,"
        "s:f,s:f,s:f}",
        "page_size", (json_int_t)c->page_size_bytes, "inline_limit",
        (json_int_t)c->inline_limit_bytes, "inline_fraction",
        round6(c->inline_fraction), "outline_fraction", outl,
        "too_big_fraction", round6(c->too_big_fraction), "rows_per_page",
        round6(c->rows_per_page), "page_fill", round6(c->page_fill),
        "data_pages", round6(c->data_pages), "bufferpool_pages",
        (json_int_t)c->bufferpool_pages, "hit_ratio", round6(c->hit_ratio),
        "buffered_reads_per_access", round6(c->buffered_reads),
        "physical_reads_per_access", round6(c->physical_reads),
        "direct_reads_per_access", round6(c->direct_reads),
        "direct_sectors_per_access", round6(c->direct_sectors),
        "transfer_rate_ms", round6(c->transfer_ms), "physical_ms_per_access",
        round6(c->physical_ms), "direct_ms_per_access", round6(c->direct_ms),
        "io_ms_per_access", round6(c->io_ms));
    if (x && r->current_idx != (size_t)-1) {
        /* the modelled benefit over the page size in use */
        const struct rec_candidate *cu = &r->cand[r->current_idx];
        json_object_set_new(
            x, "gain_io_vs_current",
            json_real(round6(cu->io_ms > 0 ? (cu->io_ms - c->io_ms) / cu->io_ms
                                           : 0)));
        json_object_set_new(
            x, "gain_reads_vs_current",
            json_real(round6(cu->buffered_reads > 0
                                 ? (cu->buffered_reads - c->buffered_reads) /
                                       cu->buffered_reads
                                 : 0)));
    }
    if (x && e->outline_buffered) {
        /* out-of-line pages read through the pool (not DB2) */
        json_object_set_new(x, "outline_reads_per_access",
                            json_real(round6(c->outline_reads)));
        json_object_set_new(
            x, "outline_pages",
            json_real(round6(c->outline_pages * (double)r->sessions)));
    }
    if (x && e->pg.present) {
        /* the TOAST index, and what compressed values cost a read */
        json_object_set_new(
            x, "outline_index_pages",
            json_real(round6(c->outline_index_pages * (double)r->sessions)));
        json_object_set_new(x, "inflate_bytes_per_access",
                            json_real(round6(c->inflate_bytes)));
    }
    return x;
}

/* "host_memory" and "reconciliation" (docs/formats.md); -1 out of memory. */
static int add_checks_json(json_t *doc, const struct rec_result *r,
                           const struct rec_engine *e)
{
    json_t *x;

    x = r->host_limit_bytes
            ? json_pack("{s:I,s:s,s:f,s:I,s:I,s:b,s:I}", "memory_bytes",
                        (json_int_t)r->host_memory_bytes, "source",
                        r->host_note, "fraction", round6(r->host_fraction),
                        "limit_bytes", (json_int_t)r->host_limit_bytes,
                        "pool_bytes", (json_int_t)rec_result_pool_bytes(r, e),
                        "capped", r->host_capped, "asked_bytes",
                        (json_int_t)(r->host_capped
                                         ? r->host_asked_bytes
                                         : rec_result_pool_bytes(r, e)))
            : json_pack("{s:n,s:s}", "memory_bytes", "reason", r->host_note);
    if (!x || json_object_set_new(doc, "host_memory", x))
        return -1;
    if (r->recon.present) {
        const struct rec_reconcile *rc = &r->recon;
        x = json_pack(
            "{s:f,s:f,s:s,s:s,s:s,s:f,s:s,s:s,s:I,s:I,s:f,s:f,s:{s:s,s:f,"
            "s:f}}",
            "model_hit_ratio", round6(rc->model_hit_ratio),
            "measured_hit_ratio", round6(rc->measured_hit_ratio),
            "measured_scope", rc->table_scope ? "table" : "instance",
            "measured_counters", rc->scope, "note", rc->note, "tolerance",
            round6(rc->tolerance), "verdict", rc->verdict, "reason", rc->reason,
            "logical_reads", (json_int_t)rc->logical_reads, "physical_reads",
            (json_int_t)rc->physical_reads, "table_pages",
            round6(rc->table_pages), "pool_pages", round6(rc->pool_pages),
            "current_io_ms_per_access", "basis",
            rc->used_measured ? "measured" : "model", "model",
            round6(rc->model_io_ms), "measured", round6(rc->measured_io_ms));
        if (!x || json_object_set_new(doc, "reconciliation", x))
            return -1;
    }
    return 0;
}

/* the document's fixed part: page size, candidates, objects, model, reasons */
static json_t *result_doc_json(const struct rec_result *r,
                               const struct rec_engine *e)
{
    const struct rec_candidate *ch = &r->cand[r->chosen_idx];
    json_t *cands = NULL, *reasons = NULL;

    if (!(cands = json_array()) || !(reasons = json_array()))
        goto oom;
    for (size_t i = 0; i < r->n_cand; i++)
        if (json_array_append_new(cands, candidate_json(r, e, &r->cand[i])))
            goto oom;
    for (size_t i = 0; i < r->n_reasons; i++)
        if (json_array_append_new(reasons, json_string(r->reasons[i])))
            goto oom;
    /* json_pack steals cands and reasons ("o"), even on failure */
    return json_pack(
        "{s:i,s:s,s:s,s:I,s:s,s:o,s:{s:s,s:I,s:I},s:{s:s,s:I,s:I,s:s,s:f,s:f},"
        "s:{s:I,s:I,s:s,s:f,s:f,s:I,s:I,s:{s:s,s:f,s:f}},s:o}",
        "schema_version", 1, "pagetune_version", PT_VERSION, "engine", e->name,
        "page_size", (json_int_t)ch->page_size_bytes, "decided_by",
        r->kept             ? "keep_current"
        : r->chosen_by_cost ? "cost_model"
                            : "inline_rule",
        "candidates", cands, "bufferpool", "name", r->bufferpool_name,
        "page_size", (json_int_t)ch->page_size_bytes, "pages",
        (json_int_t)r->pool_pages, "tablespace", "name", r->tablespace_name,
        "page_size", (json_int_t)ch->page_size_bytes, "extent_size",
        (json_int_t)r->extent_size, "prefetch_size", "AUTOMATIC", "overhead",
        round6(r->overhead_ms), "transfer_rate", round6(r->transfer_rate_ms),
        "model", "memory_bytes", (json_int_t)r->memory_bytes, "sessions",
        (json_int_t)r->sessions, "sessions_basis", r->sessions_basis,
        "inline_target", round6(r->inline_target), "override_margin",
        round6(REC_OVERRIDE_MARGIN), "rule_page_size",
        (json_int_t)r->cand[r->rule_idx].page_size_bytes, "cost_page_size",
        (json_int_t)r->cand[r->cost_idx].page_size_bytes, "device", "name",
        r->device ? r->device->name : "", "overhead_ms",
        r->device ? round6(r->device->overhead_ms) : 0.0, "transfer_mb_s",
        r->device ? round6(r->device->transfer_mb_s) : 0.0, "reasons", reasons);
oom:
    json_decref(cands);
    json_decref(reasons);
    return NULL;
}

/* "change": the tier decision against the page size in use; -1 out of memory */
static int add_change_json(json_t *doc, const struct rec_result *r,
                           const struct rec_engine *e)
{
    const struct rec_candidate *cu, *be;
    json_t *x;

    if (r->change_tier == REC_TIER_NONE || r->current_idx == (size_t)-1)
        return 0;
    cu = &r->cand[r->current_idx];
    be = &r->cand[r->best_idx];
    x = json_pack(
        "{s:s,s:I,s:I,s:f,s:f,s:f,s:f,s:f,s:f,s:s,s:f}", "decision",
        /* the page size in use is the preferred one: nothing changes */
        r->kept || r->current_idx == r->chosen_idx ? "keep" : "change",
        "current_page_size", (json_int_t)cu->page_size_bytes, "best_page_size",
        (json_int_t)be->page_size_bytes, "current_io_ms_per_access",
        round6(cu->io_ms), "best_io_ms_per_access", round6(be->io_ms),
        "gain_io", round6(r->gain_io), "current_buffered_reads",
        round6(cu->buffered_reads), "best_buffered_reads",
        round6(be->buffered_reads), "gain_reads", round6(r->gain_reads), "tier",
        rec_tier_name(r->change_tier), "threshold",
        round6(rec_tier_threshold(e, r->change_tier)));
    return !x || json_object_set_new(doc, "change", x) ? -1 : 0;
}

/* DB2 only: file system caching and the "websphere" block; -1 out of memory */
static int add_db2_json(json_t *doc, const struct rec_result *r,
                        const struct rec_engine *e)
{
    const struct rec_candidate *ch = &r->cand[r->chosen_idx];
    char rs[32];
    json_t *x;

    if (strcmp(e->name, "db2") != 0)
        return 0;
    json_object_set_new(json_object_get(doc, "tablespace"),
                        "file_system_caching", json_boolean(r->fs_caching));
    snprintf(rs, sizeof(rs), "ROW_SIZE_%uKB", ch->page_size_bytes / 1024);
    x = json_pack("{s:s,s:s}", "db2_row_size", rs, "tablespace_name",
                  r->tablespace_name);
    return !x || json_object_set_new(doc, "websphere", x) ? -1 : 0;
}

/* "settings": the knobs to set, numbers as numbers; -1 out of memory */
static int add_settings_json(json_t *doc, const struct rec_result *r)
{
    json_t *x;

    if (!r->n_settings)
        return 0;
    if (!(x = json_object()))
        return -1;
    for (size_t i = 0; i < r->n_settings; i++) {
        const struct rec_setting *st = &r->settings[i];
        json_object_set_new(x, st->name,
                            st->is_number ? json_integer((json_int_t)strtoll(
                                                st->value, NULL, 10))
                                          : json_string(st->value));
    }
    return json_object_set_new(doc, "settings", x) ? -1 : 0;
}

/* "inline_knob": the in-row limit, default and tuned; -1 out of memory */
static int add_knob_json(json_t *doc, const struct rec_result *r,
                         const struct rec_engine *e)
{
    const struct rec_candidate *ch = &r->cand[r->chosen_idx];
    const struct rec_candidate *t = &r->tuned;
    json_t *x;

    if (!e->knob.present)
        return 0;
    x = json_pack(
        "{s:s,s:I,s:I,s:b,s:b,s:I,s:b}", "name", e->knob.name, "default",
        (json_int_t)e->knob.default_value, "default_inline_limit",
        (json_int_t)ch->inline_limit_bytes, "evaluated", r->knob_evaluated,
        "pays", r->knob_pays, "current",
        (json_int_t)(r->knob_current ? r->knob_current : e->knob.default_value),
        "current_set", r->knob_current_set);
    if (!x)
        return -1;
    if (r->knob_evaluated) {
        json_object_set_new(x, "value", json_integer(r->knob_value));
        json_object_set_new(x, "inline_limit",
                            json_integer(r->knob_inline_limit));
        json_object_set_new(
            x, "tuned",
            json_pack("{s:f,s:f,s:f,s:f,s:f}", "inline_fraction",
                      round6(t->inline_fraction), "rows_per_page",
                      round6(t->rows_per_page), "hit_ratio",
                      round6(t->hit_ratio), "buffered_reads_per_access",
                      round6(t->buffered_reads), "io_ms_per_access",
                      round6(t->io_ms)));
    }
    return json_object_set_new(doc, "inline_knob", x) ? -1 : 0;
}

/* One side of "space": the table's predicted pages and bytes. */
static json_t *space_side(const struct rec_result *r,
                          const struct rec_candidate *c)
{
    double s = (double)r->sessions;

    return json_pack(
        "{s:I,s:f,s:f,s:f,s:f,s:f}", "page_size",
        (json_int_t)c->page_size_bytes, "data_pages", round6(c->data_pages),
        "outline_pages", round6(c->outline_pages * s), "outline_index_pages",
        round6(c->outline_index_pages * s), "inline_fraction",
        round6(c->inline_fraction), "bytes", round(rec_candidate_bytes(c, s)));
}

/*
 * "space" (docs/formats.md, issue 24): the table's pages and bytes as the
 * model predicts them now ("before": the page size in use with the table's
 * settings now: its toast_tuple_target, its ROW_FORMAT) and once create.sql
 * is applied and every row rewritten ("after"). tests/conformance/ holds
 * both against the engine. "applies" says whether create.sql alone brings
 * the after state ("yes") or it needs a new instance. Only for engines
 * whose out-of-line pages the model counts (outline_buffered: PostgreSQL,
 * MariaDB/MySQL, SQLite). -1 out of memory.
 */
static int add_space_json(json_t *doc, const struct rec_result *r,
                          const struct rec_engine *e)
{
    const struct rec_candidate *before = NULL, *after = &r->cand[r->chosen_idx];
    const char *applies = "yes";
    json_t *x, *b, *a;

    if (!e->outline_buffered)
        return 0; /* DB2, Oracle: LOBs apart, not counted in pages */
    if (r->current_idx != (size_t)-1)
        before = &r->cand[r->current_idx];
    if (e->knob.present && r->current_idx == r->chosen_idx) {
        /* knob_base: the chosen (the only) page at the value in use */
        before = &r->knob_base;
        after = &r->knob_base;
    }
    if (r->storage_switch) /* compressible values get EXTENDED */
        after = &r->switched;
    if (r->knob_evaluated && r->knob_pays)
        after = &r->tuned;
    if (r->rowfmt_evaluated) {
        if (r->current_idx == r->chosen_idx)
            before = &r->rowfmt_base;
        if (!r->rowfmt_pays)
            after = &r->rowfmt_base;
    }
    if (r->current_idx != r->chosen_idx)
        applies = strcmp(e->name, "mysql") == 0 ? "new instance" : "yes";
    b = before ? space_side(r, before) : json_null();
    a = space_side(r, after);
    if (a)
        json_object_set_new(a, "applies", json_string(applies));
    x = json_object();
    if (!x || !b || !a) { /* json_decref(NULL) does nothing */
        json_decref(x);
        json_decref(b);
        json_decref(a);
        return -1;
    }
    /* json_object_set_new takes its value even when it fails */
    if (json_object_set_new(x, "before", b)) {
        json_decref(a);
        json_decref(x);
        return -1;
    }
    if (json_object_set_new(x, "after", a)) {
        json_decref(x);
        return -1;
    }
    return json_object_set_new(doc, "space", x) ? -1 : 0;
}

json_t *rec_result_to_json(const struct rec_result *r,
                           const struct rec_engine *e, const json_t *inputs)
{
    json_t *doc = result_doc_json(r, e), *x;

    if (!doc)
        return NULL;
    if ((x = rec_state_to_json(&r->current)) == NULL ||
        json_object_set_new(doc, "current", x))
        goto oom;
    x = json_pack("{s:f,s:f}", "table_bytes", round(r->table_bytes),
                  "rewrite_seconds", round6(r->rewrite_seconds));
    if (!x || json_object_set_new(doc, "cost", x))
        goto oom;
    if (add_change_json(doc, r, e) < 0 || add_checks_json(doc, r, e) < 0 ||
        add_db2_json(doc, r, e) < 0 || add_settings_json(doc, r) < 0 ||
        add_knob_json(doc, r, e) < 0 || add_space_json(doc, r, e) < 0)
        goto oom;
    if (inputs && json_object_set_new(doc, "inputs", json_deep_copy(inputs)))
        goto oom;
    return doc;
oom:
    json_decref(doc);
    return NULL;
}

/* ---- reading the document back ------------------------------------------
 */

void rec_doc_release(struct rec_doc *d)
{
    free(d->reasons);
    memset(d, 0, sizeof(*d));
}

/* bufferpool {name, page_size, pages}, tablespace {name, page_size, ...}. */
static int read_objects(struct rec_doc *d, const json_t *bpo, const json_t *tso,
                        const char *f, struct pt_err *err)
{
    const json_t *pf;
    char ctx[4200];
    uint64_t bps, tps;
    int rc;

    snprintf(ctx, sizeof(ctx), "%s: bufferpool", f);
    if ((rc = pt_json_get_str(bpo, "name", &d->bufferpool_name, ctx, err)) <
            0 ||
        (rc = pt_json_get_u64(bpo, "page_size", &bps, ctx, err)) < 0 ||
        (rc = pt_json_get_u64(bpo, "pages", &d->bufferpool_pages, ctx, err)) <
            0)
        return rc;
    snprintf(ctx, sizeof(ctx), "%s: tablespace", f);
    if ((rc = pt_json_get_str(tso, "name", &d->tablespace_name, ctx, err)) <
            0 ||
        (rc = pt_json_get_u64(tso, "page_size", &tps, ctx, err)) < 0 ||
        (rc = pt_json_get_u64(tso, "extent_size", &d->extent_size, ctx, err)) <
            0 ||
        (rc = pt_json_get_num(tso, "overhead", &d->overhead_ms, ctx, err)) <
            0 ||
        (rc = pt_json_get_num(tso, "transfer_rate", &d->transfer_rate_ms, ctx,
                              err)) < 0)
        return rc;
    if (bps != tps)
        return err_set(err, PT_EDATA,
                       "%s: buffer pool page size %llu differs from table "
                       "space page size %llu (DB2 SQL1582N)",
                       f, (unsigned long long)bps, (unsigned long long)tps);
    d->page_size_bytes = tps;
    pf = json_object_get(tso, "prefetch_size");
    if (json_is_string(pf) && strcmp(json_string_value(pf), "AUTOMATIC") == 0) {
        d->prefetch_automatic = 1;
    } else if (json_is_integer(pf) && json_integer_value(pf) > 0) {
        d->prefetch_automatic = 0;
        d->prefetch_size = (uint64_t)json_integer_value(pf);
    } else {
        return err_set(err, PT_EDATA,
                       "%s: tablespace prefetch_size must be a page count or "
                       "\"AUTOMATIC\"",
                       f);
    }
    return 0;
}

static int read_doc(struct rec_doc *d, const json_t *doc, const char *engine,
                    const char *f, struct pt_err *err)
{
    const json_t *bpo, *tso, *reasons, *dec, *x;
    size_t i;
    int rc;

    if (!json_is_object(doc))
        return err_set(err, PT_EDATA, "%s: a recommendation is a JSON object",
                       f);
    if ((rc = pt_json_wrong_doc(doc, "recommendation", f, err)) < 0)
        return rc;
    if ((rc = pt_json_get_str(doc, "engine", &d->engine, f, err)) < 0)
        return rc;
    if (engine && strcmp(d->engine, engine) != 0)
        return err_set(err, PT_EDATA,
                       "%s: the recommendation is for engine '%s', not "
                       "dialect '%s'",
                       f, d->engine, engine);
    bpo = json_object_get(doc, "bufferpool");
    tso = json_object_get(doc, "tablespace");
    if (!json_is_object(bpo) || !json_is_object(tso))
        return err_set(err, PT_EDATA,
                       "%s: needs objects 'bufferpool' and 'tablespace'", f);
    if ((rc = read_objects(d, bpo, tso, f, err)) < 0 ||
        (rc = rec_doc_check(d, f, err)) < 0)
        return rc;
    d->settings = json_object_get(doc, "settings");
    x = json_object_get(doc, "current");
    if (x) {
        if ((rc = rec_state_merge_json(&d->current, x, d->engine,
                                       REC_SOURCE_SERVER, f, err)) < 0)
            return rc;
        d->has_current = 1;
    }
    x = json_object_get(tso, "file_system_caching");
    if (x && !json_is_boolean(x))
        return err_set(err, PT_EDATA,
                       "%s: tablespace file_system_caching must be true or "
                       "false",
                       f);
    d->fs_caching = x ? json_is_true(x) : -1;
    x = json_object_get(doc, "cost");
    if (json_is_object(x)) {
        double tb = 0, rs = 0;
        if ((rc = pt_json_opt_num(x, "table_bytes", &tb, f, err)) < 0 ||
            (rc = pt_json_opt_num(x, "rewrite_seconds", &rs, f, err)) < 0)
            return rc;
        if (!(tb >= 0) || !(rs >= 0) || tb > 1e18 || rs > 1e12)
            return err_set(err, PT_EDATA, "%s: cost figures out of range", f);
        d->table_bytes = tb;
        d->rewrite_seconds = rs;
    }
    dec = json_object_get(doc, "decided_by");
    d->decided_by = json_is_string(dec) ? json_string_value(dec) : NULL;
    reasons = json_object_get(doc, "reasons");
    if (json_is_array(reasons) && json_array_size(reasons) > 0) {
        d->reasons = pt_calloc(json_array_size(reasons), sizeof(*d->reasons));
        if (!d->reasons)
            return err_set(err, PT_EINTERNAL, "out of memory");
        json_array_foreach(reasons, i, x) if (json_is_string(x))
            d->reasons[d->n_reasons++] = json_string_value(x);
    }
    return 0;
}

int rec_result_from_json(struct rec_doc *d, const json_t *doc,
                         const char *engine, const char *name,
                         struct pt_err *err)
{
    int rc;

    memset(d, 0, sizeof(*d));
    if ((rc = read_doc(d, doc, engine, name, err)) < 0)
        rec_doc_release(d);
    return rc;
}
