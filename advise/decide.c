/* SPDX-License-Identifier: Apache-2.0 */
/*
 * decide.c — what advise decides, as pure functions over structs: the
 * engine to advise for, drift from the recommendation, the validation
 * summary (current vs recommended setting), the empirical validation
 * workload and the engine at a tuned inline limit. No I/O; the unit tests
 * (tests/unit/test_advise.c) call them on in-memory inputs.
 * Neighbours: pipeline.c runs the steps, model.c renders the results.
 */
#include "advise/advise.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const char *const file_names[ADV_F_COUNT] = {
    "sizes.json",   "monitor.json", "recommendation.json", "create.sql",
    "rollback.sql", "report.html",  "simulation.json",     "replay.json",
    "probe.yaml",   "trace.csv",
};

const char *adv_file_name(enum adv_file f)
{
    return (unsigned)f < ADV_F_COUNT ? file_names[f] : "?";
}

int adv_drift(uint32_t cur_page_size, uint64_t cur_pool_pages,
              uint32_t rec_page_size, uint64_t rec_pool_pages, double tolerance,
              char *why, size_t why_len)
{
    struct rec_current cur = {
        .page_size_bytes = cur_page_size,
        .bufferpool_pages = cur_pool_pages,
    };

    return rec_drift(&cur, rec_page_size, rec_pool_pages, tolerance, why,
                     why_len);
}

/* Percent change from x to y; NaN when x is not a positive number. */
static double pct_change(double x, double y)
{
    return isfinite(x) && isfinite(y) && x > 0 ? (y / x - 1) * 100 : NAN;
}

static void side_init(struct adv_side *s, uint32_t page_size)
{
    s->page_size_bytes = page_size;
    s->io_ms_per_get = s->hit_ratio = NAN;
    s->ops_per_s = s->overflow_pages = NAN;
}

/* A simulated row's I/O per application get and buffer-pool hit ratio. */
static void sim_side(struct adv_side *s, const struct sim_result_row *row)
{
    double ratio;

    if (row->app.gets > 0)
        s->io_ms_per_get = row->db.io_ms / (double)row->app.gets;
    if (sim_db_hit_ratio(&row->db, &ratio) == 0)
        s->hit_ratio = ratio;
}

/*
 * The predicted change from x to y (percent); the range pairs the low end
 * of one with the high end of the other, so it holds every pair of values
 * within the two ranges.
 */
static void pred_change(struct adv_validation *v, const struct sim_predicted *x,
                        const struct sim_predicted *y)
{
    if (!x->present || !y->present || !(x->req_per_s > 0) ||
        !(x->response_ms > 0))
        return;
    v->have_pred = 1;
    v->pred_calibrated = x->calibrated && y->calibrated;
    v->pred_has_range = x->has_range && y->has_range;
    v->pred_clients = x->clients;
    v->pred_think_ms = x->think_ms;
    snprintf(v->calibration, sizeof(v->calibration), "%s", x->calibration);
    v->pred_rps_pct = pct_change(x->req_per_s, y->req_per_s);
    v->pred_resp_pct = pct_change(x->response_ms, y->response_ms);
    if (v->pred_has_range) {
        v->pred_rps_lo_pct = pct_change(x->req_per_s_hi, y->req_per_s_lo);
        v->pred_rps_hi_pct = pct_change(x->req_per_s_lo, y->req_per_s_hi);
        v->pred_resp_lo_pct = pct_change(x->response_ms_hi, y->response_ms_lo);
        v->pred_resp_hi_pct = pct_change(x->response_ms_lo, y->response_ms_hi);
    } else {
        v->pred_rps_lo_pct = v->pred_rps_hi_pct = v->pred_rps_pct;
        v->pred_resp_lo_pct = v->pred_resp_hi_pct = v->pred_resp_pct;
    }
}

void adv_validation_compute(struct adv_validation *v,
                            const struct sim_plan_result *sim,
                            const struct store_plan_result *rep,
                            uint32_t cur_ps, uint32_t rec_ps)
{
    memset(v, 0, sizeof(*v));
    side_init(&v->sim_cur, cur_ps);
    side_init(&v->sim_rec, rec_ps);
    side_init(&v->rep_cur, cur_ps);
    side_init(&v->rep_rec, rec_ps);
    v->io_change_pct = v->ops_change_pct = NAN;
    if (sim) {
        /* a comparison marks its rows; a page-size run has no setting */
        const char *sc = sim->comparison ? "current" : NULL;
        const char *sr = sim->comparison ? "recommended" : NULL;
        const struct sim_result_row *x = sim_plan_result_find(sim, cur_ps, sc);
        const struct sim_result_row *y = sim_plan_result_find(sim, rec_ps, sr);
        if (x && y) {
            v->have_sim = 1;
            sim_side(&v->sim_cur, x);
            sim_side(&v->sim_rec, y);
            v->io_change_pct =
                pct_change(v->sim_cur.io_ms_per_get, v->sim_rec.io_ms_per_get);
            pred_change(v, &x->predicted, &y->predicted);
        }
    }
    if (rep) {
        const struct store_replay_result *x =
            store_plan_result_find(rep, cur_ps);
        const struct store_replay_result *y =
            store_plan_result_find(rep, rec_ps);
        if (x && y) {
            v->have_replay = 1;
            v->rep_cur.ops_per_s = x->ops_per_s;
            v->rep_rec.ops_per_s = y->ops_per_s;
            v->rep_cur.overflow_pages = (double)x->space.overflow_pages;
            v->rep_rec.overflow_pages = (double)y->space.overflow_pages;
            v->ops_change_pct = pct_change(x->ops_per_s, y->ops_per_s);
            v->rounds = rep->n_rounds;
            v->budget_s = rep->budget_s;
            v->elapsed_s = rep->elapsed_s;
            snprintf(v->stopped, sizeof(v->stopped), "%s", rep->stopped);
        }
    }
    adv_verdict_compute(v, rep, rec_ps);
}

void adv_verdict_compute(struct adv_validation *v,
                         const struct store_plan_result *rep, uint32_t rec_ps)
{
    struct store_range p;
    int direction_only = !v->pred_has_range;

    v->have_verdict = v->have_measured = 0;
    if (!rep || !v->have_replay || !v->have_pred ||
        !isfinite(v->pred_rps_pct) || v->pred_rps_pct == 0)
        return;
    if (direction_only) {
        /* uncalibrated: the model's figures are another machine's (the
         * profiles' costs) and have no range; its sign alone is no
         * verdict (a direction-only comparison passed a thousandfold
         * disagreement, issue 25): not judged, and said why */
        const struct store_replay_result *x =
            store_plan_result_find(rep, rec_ps);
        snprintf(v->compared_with, sizeof(v->compared_with),
                 "nothing: the only prediction is the uncalibrated "
                 "performance model's (another machine's costs, no range); "
                 "the store model (pagetune probe) predicts replays with "
                 "DB2's LOB area");
        /* what was measured is still shown, with its interval */
        if (x && x != &rep->results[0] && x->n_rounds >= 2) {
            v->verdict.measured =
                (struct store_range){x->diff_mean, x->diff_lo, x->diff_hi};
            v->have_measured = 1;
        }
        return;
    }
    p.mean = v->pred_rps_pct / 100;
    p.lo = v->pred_rps_lo_pct / 100;
    p.hi = v->pred_rps_hi_pct / 100;
    if (store_verdict_for(rep, rec_ps, &p, &v->verdict, NULL) < 0)
        return;
    v->have_verdict = v->have_measured = 1;
    for (size_t i = 0; i < rep->n_results; i++)
        if (rep->results[i].lob_io_fallback) {
            /* the experiment did not run the condition the advice is
             * about (the current NO FILE SYSTEM CACHING): no verdict */
            const struct store_range *m = &v->verdict.measured;
            v->verdict.verdict = STORE_VERDICT_INCONCLUSIVE;
            char mt[64], ps[32];
            snprintf(
                v->verdict.why, sizeof(v->verdict.why),
                "inconclusive: measured %s, but the %s store's LOB area "
                "ran cached instead of direct (no disk file system with "
                "O_DIRECT in TMPDIR or /var/tmp), so NO FILE SYSTEM "
                "CACHING was not replayed",
                pt_fig_change_range(m->mean * 100, m->lo * 100, m->hi * 100, mt,
                                    sizeof(mt)),
                pt_fig_page(rep->results[i].page_size_bytes, ps, sizeof(ps)));
            snprintf(v->compared_with, sizeof(v->compared_with),
                     "nothing: the replay could not run direct I/O");
            return;
        }
    if (v->pred_store) {
        snprintf(v->compared_with, sizeof(v->compared_with),
                 "the store model's requests/s change from probe '%s' "
                 "(%u clients, think %g ms) and its range (the probe's "
                 "intervals, %.0f %% model error)",
                 v->calibration, v->pred_clients, v->pred_think_ms,
                 100 * STORE_MODEL_ERROR);
    } else {
        snprintf(v->compared_with, sizeof(v->compared_with),
                 "the requests/s change predicted with calibration '%s' "
                 "(%u clients, think %g ms) and its residual range",
                 v->calibration, v->pred_clients, v->pred_think_ms);
    }
}

void adv_validation_store(struct adv_validation *v,
                          const struct store_prediction *cur,
                          const struct store_prediction *rec,
                          const char *probe_name,
                          const struct store_plan_result *rep)
{
    if (!(cur->req_per_s > 0) || !(rec->req_per_s > 0) ||
        !(cur->response_ms > 0))
        return;
    v->have_pred = v->pred_calibrated = v->pred_has_range = 1;
    v->pred_store = 1;
    v->pred_clients = rep ? rep->n_clients : v->pred_clients;
    v->pred_think_ms = rep ? rep->think_ms : v->pred_think_ms;
    snprintf(v->calibration, sizeof(v->calibration), "%s", probe_name);
    v->pred_rps_pct = pct_change(cur->req_per_s, rec->req_per_s);
    v->pred_resp_pct = pct_change(cur->response_ms, rec->response_ms);
    /* the range pairs opposite ends, as pred_change does */
    v->pred_rps_lo_pct = pct_change(cur->req_per_s_hi, rec->req_per_s_lo);
    v->pred_rps_hi_pct = pct_change(cur->req_per_s_lo, rec->req_per_s_hi);
    v->pred_resp_lo_pct = pct_change(cur->response_ms_hi, rec->response_ms_lo);
    v->pred_resp_hi_pct = pct_change(cur->response_ms_lo, rec->response_ms_hi);
    v->pred_cur_rps = cur->req_per_s;
    v->pred_rec_rps = rec->req_per_s;
    if (rep)
        adv_verdict_compute(v, rep, (uint32_t)rec->page_size_bytes);
}

const char *adv_method_name(enum adv_method m)
{
    return m == ADV_BY_REPLAY       ? "replay"
           : m == ADV_BY_SERVER     ? "replay_server"
           : m == ADV_BY_SIMULATION ? "simulation"
                                    : "none";
}

void adv_validation_method(struct adv_validation *v, const char *engine,
                           const char *replay_engine,
                           const char *replay_skipped)
{
    char skip[480] = "";

    if (replay_skipped && replay_skipped[0])
        snprintf(skip, sizeof(skip), "; replay skipped: %s", replay_skipped);
    if (v->have_replay) {
        v->method = ADV_BY_REPLAY;
        char a[32], b[32];
        snprintf(v->method_text, sizeof(v->method_text),
                 "validated by replay on the built-in store (SQLite with "
                 "engine %s's placement rules, %s vs %s, %u rounds, "
                 "%.1f s)",
                 replay_engine,
                 pt_fig_page(v->rep_cur.page_size_bytes, a, sizeof(a)),
                 pt_fig_page(v->rep_rec.page_size_bytes, b, sizeof(b)),
                 v->rounds, v->elapsed_s);
    } else if (v->have_sim) {
        v->method = ADV_BY_SIMULATION;
        snprintf(v->method_text, sizeof(v->method_text),
                 "validated by cache simulation only (the %s model on the "
                 "validation trace, nothing measured): I/O per get %.3f -> "
                 "%.3f ms%s",
                 engine, v->sim_cur.io_ms_per_get, v->sim_rec.io_ms_per_get,
                 skip);
    } else {
        v->method = ADV_BY_NONE;
        snprintf(v->method_text, sizeof(v->method_text),
                 "not validated: no simulation or replay ran%s", skip);
    }
}

static json_t *num_or_null(double v)
{
    return isfinite(v) ? json_real(v) : json_null();
}

static json_t *count_or_null(double v)
{
    return isfinite(v) ? json_integer((json_int_t)v) : json_null();
}

/* {"page_size", k1: main figure, k2: second figure} of one setting. */
static json_t *side_json(uint64_t page_size, const char *k1, double x1,
                         const char *k2, json_t *x2)
{
    return json_pack("{s:I, s:o, s:o}", "page_size", (json_int_t)page_size, k1,
                     num_or_null(x1), k2, x2);
}

/* A bound of the predicted range; null without one (uncalibrated). */
static json_t *range_or_null(const struct adv_validation *v, double x)
{
    return v->pred_has_range ? num_or_null(x) : json_null();
}

json_t *adv_validation_to_json(const struct adv_validation *v)
{
    json_t *o = json_object();

    if (!o)
        return NULL;
    json_object_set_new(o, "validated_by",
                        json_pack("{s:s, s:s}", "method",
                                  adv_method_name(v->method), "text",
                                  v->method_text));
    if (v->have_sim)
        json_object_set_new(
            o, "simulation",
            json_pack("{s:o, s:o, s:o}", "current",
                      side_json(v->sim_cur.page_size_bytes, "io_ms_per_get",
                                v->sim_cur.io_ms_per_get, "hit_ratio",
                                num_or_null(v->sim_cur.hit_ratio)),
                      "recommended",
                      side_json(v->sim_rec.page_size_bytes, "io_ms_per_get",
                                v->sim_rec.io_ms_per_get, "hit_ratio",
                                num_or_null(v->sim_rec.hit_ratio)),
                      "io_change_pct", num_or_null(v->io_change_pct)));
    if (v->have_replay)
        json_object_set_new(
            o, "replay",
            json_pack("{s:o, s:o, s:o}", "current",
                      side_json(v->rep_cur.page_size_bytes, "ops_per_s",
                                v->rep_cur.ops_per_s, "overflow_pages",
                                count_or_null(v->rep_cur.overflow_pages)),
                      "recommended",
                      side_json(v->rep_rec.page_size_bytes, "ops_per_s",
                                v->rep_rec.ops_per_s, "overflow_pages",
                                count_or_null(v->rep_rec.overflow_pages)),
                      "ops_change_pct", num_or_null(v->ops_change_pct)));
    if (v->have_pred)
        json_object_set_new(
            o, "predicted",
            json_pack(
                "{s:i, s:f, s:b, s:o, s:{s:f, s:o, s:o}, "
                "s:{s:f, s:o, s:o}}",
                "clients", (int)v->pred_clients, "think_ms", v->pred_think_ms,
                "calibrated", v->pred_calibrated, "calibration",
                v->calibration[0] ? json_string(v->calibration) : json_null(),
                "req_per_s_change_pct", "mean", v->pred_rps_pct, "lo",
                range_or_null(v, v->pred_rps_lo_pct), "hi",
                range_or_null(v, v->pred_rps_hi_pct), "response_ms_change_pct",
                "mean", v->pred_resp_pct, "lo",
                range_or_null(v, v->pred_resp_lo_pct), "hi",
                range_or_null(v, v->pred_resp_hi_pct)));
    if (v->have_replay)
        json_object_set_new(o, "rounds",
                            json_pack("{s:i, s:f, s:f, s:s}", "measured",
                                      (int)v->rounds, "budget_s", v->budget_s,
                                      "elapsed_s", v->elapsed_s, "stopped",
                                      v->stopped));
    if (v->have_server) {
        json_t *w =
            v->srv_reads_note[0] ? json_string(v->srv_reads_note) : json_null();
        json_object_set_new(
            o, "replay_server",
            json_pack("{s:{s:s, s:o, s:o, s:o, s:o}, s:{s:s, s:o, s:o, s:o, "
                      "s:o}, s:o, s:o}",
                      "current", "candidate", v->srv_cand[0], "requests_per_s",
                      num_or_null(v->srv_rps[0]), "heap_blks_per_op",
                      num_or_null(v->srv_heap_per_op[0]), "toast_blks_per_op",
                      num_or_null(v->srv_toast_per_op[0]), "blks_read_per_op",
                      num_or_null(v->srv_read_per_op[0]), "recommended",
                      "candidate", v->srv_cand[1], "requests_per_s",
                      num_or_null(v->srv_rps[1]), "heap_blks_per_op",
                      num_or_null(v->srv_heap_per_op[1]), "toast_blks_per_op",
                      num_or_null(v->srv_toast_per_op[1]), "blks_read_per_op",
                      num_or_null(v->srv_read_per_op[1]), "reads_warning", w,
                      "reads", adv_pgr_reads_json(&v->srv_reads)));
        /* the scratch rows' shape: the table's columns carried, and not */
        json_t *cols = adv_scratch_columns_json(v->srv_extra, v->srv_n_extra);
        json_object_set_new(json_object_get(o, "replay_server"),
                            "scratch_columns", cols ? cols : json_null());
        json_object_set_new(json_object_get(o, "replay_server"), "engine",
                            json_string(v->srv_engine));
        for (size_t i = 0; i < 2; i++)
            json_object_set_new(
                json_object_get(json_object_get(o, "replay_server"),
                                i ? "recommended" : "current"),
                "page_requests_per_op", num_or_null(v->srv_req_per_op[i]));
        json_object_set_new(json_object_get(o, "replay_server"), "not_carried",
                            v->srv_not_carried[0]
                                ? json_string(v->srv_not_carried)
                                : json_null());
    }
    if (v->have_verdict) {
        const struct store_verdict_out *d = &v->verdict;
        json_object_set_new(
            o, "verdict",
            json_pack("{s:s, s:s, s:{s:f, s:f, s:f}, s:{s:o, s:o, s:o}, "
                      "s:s}",
                      "word", store_verdict_name(d->verdict), "text", d->why,
                      "interval_pct", "mean", d->measured.mean * 100, "lo",
                      d->measured.lo * 100, "hi", d->measured.hi * 100,
                      "prediction_pct", "mean", num_or_null(v->pred_rps_pct),
                      "lo",
                      num_or_null(v->pred_has_range     ? v->pred_rps_lo_pct
                                  : v->pred_rps_pct > 0 ? 0
                                                        : NAN),
                      "hi",
                      num_or_null(v->pred_has_range     ? v->pred_rps_hi_pct
                                  : v->pred_rps_pct < 0 ? 0
                                                        : NAN),
                      "compared_with", v->compared_with));
    }
    return o;
}

json_t *adv_scratch_columns_json(const struct coll_pgr_extra_result *x,
                                 size_t n)
{
    json_t *cols = json_array();

    for (size_t i = 0; cols && i < n; i++)
        json_array_append_new(
            cols,
            json_pack("{s:s, s:s, s:i, s:f, s:f, s:o, s:o}", "name", x[i].name,
                      "type", x[i].decl, "width", (int)x[i].width,
                      "sampled_width", x[i].sampled_width, "null_frac",
                      x[i].null_frac, "measured_width",
                      x[i].measured_width >= 0 ? json_real(x[i].measured_width)
                                               : json_null(),
                      "measured_null_frac",
                      x[i].measured_null_frac >= 0
                          ? json_real(x[i].measured_null_frac)
                          : json_null()));
    return cols;
}

int adv_engine_detect(const char *given, int demo, enum coll_engine sampled,
                      char *buf, size_t len, struct pt_err *err)
{
    const char *e = given;

    if (!e && demo)
        e = "db2"; /* the demo answers the DB2 question */
    if (!e && sampled != COLL_ENGINE_AUTO)
        e = coll_engine_name(sampled);
    if (!e)
        return err_set(err, PT_EDATA,
                       "the sample does not name the engine; give `engine`");
    if ((size_t)snprintf(buf, len, "%s", e) >= len)
        return err_set(err, PT_EUSAGE, "`engine`: '%s' is too long", e);
    return 0;
}

const char *adv_pool_name(const struct adv_result *r)
{
    return strcmp(r->engine, "db2") == 0 && r->rec ? r->rec->bufferpool_name
                                                   : NULL;
}

const char *adv_dialect_for(const char *engine)
{
    return strcmp(engine, "mariadb") == 0 ? "mysql" : engine;
}

int adv_workload_empirical(struct sim_workload *w, const uint64_t *values,
                           size_t n, struct pt_err *err)
{
    uint32_t *sizes;

    if (n == 0)
        return err_set(err, PT_EDATA, "the sample holds no object size");
    sizes = pt_malloc(n * sizeof(*sizes));
    if (!sizes)
        return err_set(err, PT_EINTERNAL, "out of memory");
    for (size_t i = 0; i < n; i++)
        sizes[i] = values[i] > 2147483647u ? 2147483647u : (uint32_t)values[i];
    if (w->size_dist == SIM_SIZE_EMPIRICAL)
        free(w->sizes);
    w->size_dist = SIM_SIZE_EMPIRICAL;
    w->sizes = sizes;
    w->n_sizes = n;
    return 0;
}

int adv_engine_tuned(struct rec_engine *e, uint32_t page_size,
                     uint32_t inline_limit, struct pt_err *err)
{
    for (size_t i = 0; i < e->n_pages; i++) {
        struct rec_page_rule *p = &e->pages[i];
        if (p->page_size_bytes != page_size)
            continue;
        p->inline_limit_bytes = inline_limit;
        if (p->max_row_bytes < inline_limit)
            p->max_row_bytes = inline_limit;
        return 0;
    }
    return err_set(err, PT_EDATA, "engine '%s' has no %uK page", e->name,
                   page_size / 1024);
}
