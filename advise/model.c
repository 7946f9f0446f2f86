/* SPDX-License-Identifier: Apache-2.0 */
/*
 * model.c — what a finished advise run shows: the report model that
 * report/report.c renders (its header lists the keys) and the summary that
 * `advise --json` prints (adv_result_to_json). Built from the run's
 * structs; the documents are embedded, never read back.
 * Neighbours: pipeline.c (the run), decide.c (drift, validation).
 */
#include "advise/internal.h"

#include <math.h>
#include <string.h>
#include <time.h>

static json_t *num_or_null(double v)
{
    return isfinite(v) ? json_real(v) : json_null();
}

static uint32_t rec_page(const struct adv_result *r)
{
    return r->rec->cand[r->rec->chosen_idx].page_size_bytes;
}

/* Each page size's inline limit, and the tuned limit of a knob that pays. */
static json_t *limits_json(const struct adv_result *r)
{
    const struct rec_engine *e = &r->run.engine;
    json_t *limits = json_array();
    char lab[96];

    for (size_t k = 0; k < e->n_pages; k++)
        json_array_append_new(
            limits,
            json_pack("{s:I, s:I}", "page_size",
                      (json_int_t)e->pages[k].page_size_bytes, "inline_limit",
                      (json_int_t)e->pages[k].inline_limit_bytes));
    if (e->knob.present && r->rec->knob_pays) {
        snprintf(lab, sizeof(lab), "%s %u (recommended)", e->knob.name,
                 r->rec->knob_value);
        json_array_append_new(
            limits, json_pack("{s:f, s:f, s:s}", "page_size",
                              (double)rec_page(r), "inline_limit",
                              (double)r->rec->knob_inline_limit, "label", lab));
    }
    return limits;
}

/* A simulated figure of a row: db counter or ratio, per get when asked. */
enum sim_fig { FIG_IO, FIG_DIRECT, FIG_HIT, FIG_PHYS };
static double sim_fig(const struct sim_result_row *x, enum sim_fig f)
{
    double v = NAN, gets = x ? (double)x->app.gets : 0;

    if (!x)
        return NAN;
    switch (f) {
    case FIG_IO:
        v = gets > 0 ? x->db.io_ms / gets : NAN;
        break;
    case FIG_DIRECT:
        v = gets > 0 ? (double)x->db.direct_reads / gets : NAN;
        break;
    case FIG_HIT:
        if (sim_db_hit_ratio(&x->db, &v) < 0)
            v = NAN;
        break;
    case FIG_PHYS:
        v = (double)x->db.physical_reads;
        break;
    }
    return v;
}

enum rep_fig { FIG_OPS, FIG_P95, FIG_CACHE, FIG_OVERFLOW };
static double rep_fig(const struct store_replay_result *x, enum rep_fig f)
{
    if (!x)
        return NAN;
    switch (f) {
    case FIG_OPS:
        return x->ops_per_s;
    case FIG_P95:
        return x->latency[STORE_OP_ALL].p95_us;
    case FIG_CACHE:
        return x->cache_hit_ratio;
    case FIG_OVERFLOW:
        return (double)x->space.overflow_pages;
    }
    return NAN;
}

/*
 * A compared row: both values, which way is better, and the recommended
 * value's mark. "same" when the change rounds to 0.0 % in the report's
 * change column (|y / x - 1| < ADV_SAME_FRACTION); a missing value is not
 * compared and carries no mark.
 */
static json_t *comparison_row(json_t *rows, const char *label,
                              int higher_better, double x, double y)
{
    const char *flag = NULL;
    json_t *row;

    if (isfinite(x) && isfinite(y)) {
        if (x == y || (x != 0 && fabs(y / x - 1) < ADV_SAME_FRACTION))
            flag = "same";
        else
            flag = (y > x) == (higher_better != 0) ? "better" : "worse";
    }
    row = json_pack("{s:s, s:s, s:[o,o]}", "label", label, "better",
                    higher_better ? "higher" : "lower", "values",
                    num_or_null(x), num_or_null(y));
    if (row && flag)
        json_object_set_new(row, "flags", json_pack("[n,s]", flag));
    json_array_append_new(rows, row);
    return row;
}

/*
 * The replay's measured change (the verdict's mean over paired rounds and
 * its interval) on the ops/s row, in place of y / x - 1 of the two means,
 * so the page shows one measured change; the row's mark follows it (a
 * mean within ADV_SAME_FRACTION of none keeps "same" and "none").
 */
static void measured_change(json_t *row, const struct adv_validation *v)
{
    const struct store_range *m = &v->verdict.measured;
    char t[96];

    if (!row || !v->have_measured || !isfinite(m->mean) ||
        fabs(m->mean) < ADV_SAME_FRACTION)
        return;
    pt_fig_change_range(m->mean * 100, m->lo * 100, m->hi * 100, t, sizeof(t));
    json_object_set_new(row, "change_text", json_string(t));
    json_object_set_new(row, "change_fact", json_string("measured-change"));
    json_object_set_new(row, "flags",
                        json_pack("[n,s]", m->mean > 0 ? "better" : "worse"));
}

/* What each kind of row ran under: the simulation in the recommended
 * pool's memory at both page sizes, the replay in its page cache. */
static json_t *comparison_notes(const struct adv_config *c,
                                const struct adv_result *r, int sim, int rep)
{
    json_t *notes = json_array();
    char pool[96], cur[96], mem[32];

    pt_fig_pool(r->rec->pool_pages, rec_page(r), pool, sizeof(pool));
    if (r->cur_pool_pages)
        pt_fig_pool(r->cur_pool_pages, r->cur_page_size, cur, sizeof(cur));
    if (sim)
        json_array_append_new(
            notes,
            json_sprintf(
                "Simulated rows: both %s in the same memory, "
                "the recommended buffer pool's (%s)%s%s%s.",
                r->cur_page_size == rec_page(r) ? "settings" : "page sizes",
                pool, r->cur_pool_pages ? ", not the current pool (" : "",
                r->cur_pool_pages ? cur : "", r->cur_pool_pages ? ")" : ""));
    if (rep)
        json_array_append_new(
            notes,
            json_sprintf("Replay rows: the built-in SQLite store with "
                         "a %s page cache at both page sizes, standing "
                         "in for the buffer pool; the change of ops/s "
                         "is the mean over paired rounds with its 95 %% "
                         "interval.",
                         pt_size_format(c->cache_bytes, mem, sizeof(mem))));
    return notes;
}

/*
 * Rows of the current-vs-recommended table from the validation runs: the
 * outcomes, each with the way it is better. The pools are not a row: they
 * are the comparison's condition (equal bytes), not an outcome.
 */
static json_t *comparison_json(const struct adv_config *c,
                               const struct adv_result *r)
{
    static const struct {
        const char *label;
        enum sim_fig f;
        int higher_better;
    } sims[] = {
        {"simulated I/O per get (ms)", FIG_IO, 0},
        {"simulated direct reads per get", FIG_DIRECT, 0},
        {"simulated buffer-pool hit ratio", FIG_HIT, 1},
        {"simulated physical reads", FIG_PHYS, 0},
    };
    static const struct {
        const char *label;
        enum rep_fig f;
        int higher_better;
    } reps[] = {
        {"replay ops/s (built-in store)", FIG_OPS, 1},
        {"replay p95 latency (us)", FIG_P95, 0},
        {"replay page-cache hit ratio", FIG_CACHE, 1},
        {"replay overflow pages", FIG_OVERFLOW, 0},
    };
    uint32_t cur = r->cur_page_size, rec = rec_page(r);
    const struct sim_result_row *sc = NULL, *sr = NULL;
    const struct store_replay_result *rc = NULL, *rr = NULL;
    json_t *rows = json_array(), *row;
    char a[48], b[48], pa[32], pb[32];

    if (r->have_sim) {
        sc = sim_plan_result_find(&r->sim, cur, "current");
        sr = sim_plan_result_find(&r->sim, rec, "recommended");
    }
    if (r->have_replay) {
        rc = store_plan_result_find(&r->replay, cur);
        rr = store_plan_result_find(&r->replay, rec);
    }
    for (size_t i = 0; (sc || sr) && i < sizeof(sims) / sizeof(sims[0]); i++)
        comparison_row(rows, sims[i].label, sims[i].higher_better,
                       sim_fig(sc, sims[i].f), sim_fig(sr, sims[i].f));
    for (size_t i = 0; (rc || rr) && i < sizeof(reps) / sizeof(reps[0]); i++) {
        row = comparison_row(rows, reps[i].label, reps[i].higher_better,
                             rep_fig(rc, reps[i].f), rep_fig(rr, reps[i].f));
        if (reps[i].f == FIG_OPS) /* higher is better */
            measured_change(row, &r->validation);
    }
    snprintf(a, sizeof(a), "current (%s pages)", pt_fig_page(cur, pa, 32));
    snprintf(b, sizeof(b), "recommended (%s pages)", pt_fig_page(rec, pb, 32));
    return json_pack("{s:[s,s], s:o, s:o}", "columns", a, b, "rows", rows,
                     "notes", comparison_notes(c, r, sc || sr, rc || rr));
}

static json_t *assumptions_json(const struct adv_result *r)
{
    json_t *as = json_array();
    size_t k;
    json_t *vn;

    json_array_append_new(
        as, json_string("page sizes are compared at equal buffer-pool bytes, "
                        "not equal page counts"));
    json_array_append_new(
        as, json_string("direct (unbuffered) I/O for out-of-line objects as "
                        "in DB2 LONG VARCHAR / LOB without file-system "
                        "caching; other engines per their profile"));
    json_array_append_new(
        as,
        json_string(r->demo ? "demo: the workload is generated from a shipped "
                              "profile and stored in a built-in SQLite store "
                              "at 4K pages, standing in for a DB2 SESSIONS "
                              "table"
                            : "validation replays a generated trace whose "
                              "object sizes follow the sampled distribution"));
    json_array_append_new(
        as, json_string("I/O times come from the device profile (OVERHEAD, "
                        "TRANSFERRATE); they are estimates, not "
                        "measurements"));
    json_array_foreach(r->notes, k, vn) json_array_append(as, vn);
    return as;
}

/* drift.items: one {knob, current, recommended} per setting that drifts. */
static json_t *drift_json(const struct adv_config *c,
                          const struct adv_result *r)
{
    json_t *items = json_array();
    char why[256];
    uint32_t rec = rec_page(r);

    char a[96], b[96];

    /* the numbers, and each as the report writes it (core's figures) */
    if (adv_drift(r->cur_page_size, 0, rec, 0, c->drift_tolerance, why,
                  sizeof(why)))
        json_array_append_new(
            items,
            json_pack("{s:s, s:I, s:I, s:s, s:s, s:s, s:s}", "knob",
                      "page size", "current", (json_int_t)r->cur_page_size,
                      "recommended", (json_int_t)rec, "current_text",
                      pt_fig_page(r->cur_page_size, a, sizeof(a)),
                      "recommended_text", pt_fig_page(rec, b, sizeof(b)),
                      "current_fact", "page-size-current", "recommended_fact",
                      "page-size-recommended"));
    /* pools compare in pages of one page size only (rec_drift) */
    if (r->cur_page_size == rec &&
        adv_drift(rec, r->cur_pool_pages, rec, r->rec->pool_pages,
                  c->drift_tolerance, why, sizeof(why)))
        json_array_append_new(
            items, json_pack("{s:s, s:I, s:I, s:s, s:s, s:s, s:s}", "knob",
                             "buffer pool pages", "current",
                             (json_int_t)r->cur_pool_pages, "recommended",
                             (json_int_t)r->rec->pool_pages, "current_text",
                             pt_fig_pool(r->cur_pool_pages, rec, a, sizeof(a)),
                             "recommended_text",
                             pt_fig_pool(r->rec->pool_pages, rec, b, sizeof(b)),
                             "current_fact", "pool-current", "recommended_fact",
                             "pool-recommended"));
    return json_pack("{s:o}", "items", items);
}

static json_t *meta_json(const struct adv_config *c, const struct adv_result *r)
{
    json_t *in = json_array();
    char when[32], line[4400];
    time_t now = time(NULL);
    struct tm tm;

    gmtime_r(&now, &tm);
    strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", &tm);
    snprintf(line, sizeof(line), "source: %s", r->source);
    json_array_append_new(in, json_string(line));
    for (int f = ADV_F_SIZES; f <= ADV_F_MONITOR; f++) {
        snprintf(line, sizeof(line), "%s: %s/%s",
                 f == ADV_F_SIZES ? "sizes" : "monitor", c->out_dir,
                 adv_file_name((enum adv_file)f));
        json_array_append_new(in, json_string(line));
    }
    snprintf(line, sizeof(line), "engine_profile: %s", r->run.engine_profile);
    json_array_append_new(in, json_string(line));
    snprintf(line, sizeof(line), "device_profile: %s", r->run.device_profile);
    json_array_append_new(in, json_string(line));
    if (r->demo || r->have_sim || r->have_replay) {
        snprintf(line, sizeof(line),
                 "trace: generated from workload %s, %llu requests, seed %llu",
                 c->workload, (unsigned long long)c->requests,
                 (unsigned long long)c->seed);
        json_array_append_new(in, json_string(line));
    }
    return json_pack("{s:s, s:s, s:o}", "generated_at", when,
                     "pagetune_version", PT_VERSION, "inputs", in);
}

static json_t *summary_lines(const struct adv_result *r)
{
    json_t *s = json_array(), *reasons = json_object_get(r->rec_doc, "reasons");
    const char *name = adv_pool_name(r);
    char line[512], a[32], b[32], pool[96];

    snprintf(line, sizeof(line),
             "recommended page size %s (current %s), buffer pool %s%s%s",
             pt_fig_page(rec_page(r), a, sizeof(a)),
             pt_fig_page(r->cur_page_size, b, sizeof(b)), name ? name : "",
             name ? ": " : "",
             pt_fig_pool(r->rec->pool_pages, rec_page(r), pool, sizeof(pool)));
    json_array_append_new(s, json_string(line));
    for (size_t i = 0; i < json_array_size(reasons) && i < 3; i++)
        json_array_append_new(s, json_copy(json_array_get(reasons, i)));
    return s;
}

/* verdict {word, text, validated_by}: the replay's verdict, else why
 * there is none; validated_by names the run that decided it. */
static json_t *verdict_json(const struct adv_result *r)
{
    const struct adv_validation *v = &r->validation;

    if (v->have_verdict)
        return json_pack("{s:s, s:s, s:s}", "word",
                         store_verdict_name(v->verdict.verdict), "text",
                         v->verdict.why, "validated_by", v->method_text);
    return json_pack(
        "{s:s, s:s, s:s}", "word", "not validated", "text",
        !v->have_replay ? "no replay compared the settings on this machine"
        : !v->have_pred ? "no prediction to compare the replay with"
                        : "the replay measured fewer than 2 rounds: no "
                          "interval",
        "validated_by", v->method_text);
}

/* predicted {...}: the model's change, recommended vs current (percent). */
static json_t *predicted_json(const struct adv_result *r)
{
    const struct adv_validation *v = &r->validation;

    json_t *o = json_pack("{s:f, s:f, s:b}", "req_per_s_change_pct",
                          v->pred_rps_pct, "response_ms_change_pct",
                          v->pred_resp_pct, "calibrated", v->pred_calibrated);

    /* uncalibrated there is no range (pagetune-simulate(1), MODEL) */
    if (o && v->pred_has_range) {
        json_object_set_new(o, "lo_pct", json_real(v->pred_rps_lo_pct));
        json_object_set_new(o, "hi_pct", json_real(v->pred_rps_hi_pct));
        json_object_set_new(o, "lo", json_real(v->pred_resp_lo_pct));
        json_object_set_new(o, "hi", json_real(v->pred_resp_hi_pct));
    }
    return o;
}

int adv_model_build(const struct adv_config *c, struct adv_result *r,
                    struct pt_err *err)
{
    json_t *m = json_object();
    json_t *mrc = json_object_get(r->sim_doc, "mrc");
    uint32_t rec = rec_page(r);
    char sub[1200];
    int bad = 0;

    if (!m)
        return err_set(err, PT_EINTERNAL, "out of memory");
    r->model = m;
    snprintf(r->source, sizeof(r->source), "%s",
             r->demo       ? "built-in SQLite session store (demo)"
             : c->conn.dsn ? c->conn.dsn
                           : "ODBC connection");
    snprintf(sub, sizeof(sub), "engine %s; source %s", r->engine, r->source);
    bad |=
        json_object_set_new(m, "title",
                            json_string(r->demo ? "pagetune advice (demo store)"
                                                : "pagetune advice"));
    bad |= json_object_set_new(m, "subtitle", json_string(sub));
    bad |= json_object_set_new(m, "summary", summary_lines(r));
    bad |=
        json_object_set_new(m, "sizes", coll_sizes_doc_to_json(&r->sizes, 1));
    bad |= json_object_set_new(m, "limits", limits_json(r));
    json_object_set(m, "recommendation", r->rec_doc);
    if (mrc)
        json_object_set(m, "mrc", mrc);
    if (r->have_sim || r->have_replay)
        bad |= json_object_set_new(m, "comparison", comparison_json(c, r));
    bad |= json_object_set_new(m, "files",
                               json_pack("[{s:s, s:s}, {s:s, s:s}]", "name",
                                         "create.sql", "text", r->create_sql,
                                         "name", "rollback.sql", "text",
                                         r->rollback_sql));
    bad |= json_object_set_new(m, "assumptions", assumptions_json(r));
    bad |= json_object_set_new(
        m, "action",
        /* the one field of each page size and pool the report shows */
        json_pack("{s:I, s:I, s:I, s:I}", "page_size", (json_int_t)rec,
                  "bufferpool_pages", (json_int_t)r->rec->pool_pages,
                  "current_page_size", (json_int_t)r->cur_page_size,
                  "current_bufferpool_pages", (json_int_t)r->cur_pool_pages));
    /* what applying create.sql destroys, blocks or restarts; without the
     * DDL step's list the report says nothing rather than "nothing" */
    if (adv_pool_name(r))
        bad |=
            json_object_set_new(json_object_get(m, "action"), "bufferpool_name",
                                json_string(adv_pool_name(r)));
    if (r->destructive)
        bad |= json_object_set(json_object_get(m, "action"), "destructive",
                               r->destructive);
    bad |= json_object_set_new(m, "verdict", verdict_json(r));
    if (r->validation.have_pred)
        bad |= json_object_set_new(m, "predicted", predicted_json(r));
    bad |= json_object_set_new(m, "drift", drift_json(c, r));
    bad |= json_object_set_new(m, "meta", meta_json(c, r));
    if (bad)
        return err_set(err, PT_EINTERNAL, "out of memory building the report");
    return 0;
}

json_t *adv_result_to_json(const struct adv_result *r)
{
    uint32_t rec = rec_page(r);
    json_t *files = json_array(), *v, *s;

    for (int f = ADV_F_SIZES; f <= ADV_F_REPORT; f++)
        json_array_append_new(files,
                              json_string(adv_file_name((enum adv_file)f)));
    if (r->have_sim)
        json_array_append_new(files, json_string(adv_file_name(ADV_F_SIM)));
    if (r->have_replay)
        json_array_append_new(files, json_string(adv_file_name(ADV_F_REPLAY)));
    for (int f = ADV_F_PROBE; f <= ADV_F_TRACE; f++)
        if (adv_result_has_file(r, (enum adv_file)f))
            json_array_append_new(files,
                                  json_string(adv_file_name((enum adv_file)f)));
    s = json_pack("{s:i, s:s, s:s, s:s, s:b, s:{s:f, s:f}, s:{s:f, s:f, s:O}, "
                  "s:b, s:s, s:o}",
                  "schema_version", 1, "pagetune_version", PT_VERSION, "engine",
                  r->engine, "out_dir", r->out_dir, "demo", r->demo, "current",
                  "page_size", (double)r->cur_page_size, "bufferpool_pages",
                  (double)r->cur_pool_pages, "recommended", "page_size",
                  (double)rec, "bufferpool_pages", (double)r->rec->pool_pages,
                  "reasons", json_object_get(r->rec_doc, "reasons"), "drift",
                  r->drift, "drift_details", r->drift_why, "files", files);
    if (!s)
        return NULL;
    /* where the current figures come from (rec_current_config) */
    json_object_set_new(json_object_get(s, "current"), "page_size_basis",
                        json_string(r->run.current.page_basis
                                        ? r->run.current.page_basis
                                        : "server"));
    json_object_set_new(json_object_get(s, "current"), "bufferpool_basis",
                        json_string(r->run.current.pool_assumed
                                        ? "the candidate's at equal memory"
                                        : "server"));
    {
        /* one line per knob, without a trailing newline */
        size_t l = strlen(r->drift_why);
        while (l > 0 && r->drift_why[l - 1] == '\n')
            l--;
        json_object_set_new(s, "drift_details", json_stringn(r->drift_why, l));
    }
    if ((v = json_object_get(r->rec_doc, "settings")))
        json_object_set(s, "settings", v);
    if ((v = adv_validation_to_json(&r->validation)))
        json_object_set_new(s, "validation", v);
    /* what the report's notes say (a short monitor window, a skipped or
     * cut replay, each side's LOB I/O) */
    json_object_set(s, "notes", r->notes ? r->notes : json_array());
    return s;
}
