/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cmd_recommend.c — `pagetune recommend`: reads the evidence (a sizes file,
 * optionally monitor counters and a trace), loads the engine and device
 * profiles, runs recommend/'s cost model and prints the recommendation: a
 * summary, the per-page-size candidates and the reasons (table), the
 * candidates (csv) or the recommendation document of
 * docs/formats.md#recommendation (json).
 *
 * This file reads files and prints; the arithmetic is recommend/'s
 * (rec_recommend), the trace is read through sim/'s reader. With --clients
 * the trace is also simulated at the current and the recommended page size
 * and the performance model (perf/predict.c) states the change
 * in requests/s and response time.
 */
#include "cli/cli.h"

#include "recommend/recommend.h"
#include "perf/perf.h"
#include "collect/collect.h"
#include "sim/sim.h"
#include "advise/advise.h"
#include "store/store.h"

#include <stdlib.h>
#include <string.h>

static const char *const usage[] = {
    "pagetune recommend --sizes FILE [--monitor FILE] [--trace FILE] "
    "[--current FILE] [--engine NAME] [--device hdd|ssd|nvme | --profile FILE] "
    "[--memory BYTES] [--inline-target F] [--sessions N] [-o FILE] "
    "[--format table|json|csv | --oneline]",
    "pagetune recommend --trace FILE [OPTIONS]",
    "pagetune recommend --trace FILE ... --clients N [--think-ms Z] "
    "[--calibration NAME|FILE] [--appserver NAME|FILE] [--fscache-share F]",
    NULL,
};

static const char description[] =
    "Recommend a page size, buffer-pool size and table space settings for a\n"
    "table of large objects (WebSphere SESSIONS), with the reasons and the\n"
    "arithmetic per candidate page size. Page sizes are compared at equal\n"
    "buffer-pool memory. With only sizes, the smallest page size that stores\n"
    "at least --inline-target of the objects inline wins (IBM's procedure);\n"
    "with --memory, --sessions, --monitor or --trace the cost model may\n"
    "choose otherwise and says why. --sizes takes the sizes JSON written by\n"
    "`pagetune sample` or a plain list: one byte size per line, '#' comments.";

struct rec_opts {
    const char *sizes, *monitor, *trace, *engine, *device, *profile;
    const char *current; /* --current FILE */
    uint64_t memory, sessions;
    int memory_given;
    double target;
    uint64_t clients; /* --clients, 0 = no prediction */
    double think_ms;
    int model_opt; /* a model option besides --clients */
    int oneline;   /* --oneline */
    struct perf_profiles model;
};

#define O struct rec_opts
static const struct cli_option opts[] = {
    {.name = "sizes",
     .group = CLI_G_INPUT,
     .type = CLI_T_PATH,
     CLI_AT(O, sizes),
     .io = CLI_IO_IN,
     .arg_name = "FILE",
     .help = "object sizes: sizes JSON or one integer per line, - is stdin",
     .def = "none; required unless --trace"},
    {.name = "monitor",
     .group = CLI_G_INPUT,
     .type = CLI_T_PATH,
     CLI_AT(O, monitor),
     .io = CLI_IO_IN,
     .arg_name = "FILE",
     .help = "monitor JSON from `pagetune monitor`",
     .def = "none"},
    {.name = "trace",
     .group = CLI_G_INPUT,
     .type = CLI_T_PATH,
     CLI_AT(O, trace),
     .io = CLI_IO_IN,
     .arg_name = "FILE",
     .help = "access trace (pagetune-trace(5) CSV or oracleGeneral)",
     .def = "none"},
    {.name = "current",
     .group = CLI_G_INPUT,
     .type = CLI_T_PATH,
     CLI_AT(O, current),
     .io = CLI_IO_IN,
     .arg_name = "FILE",
     .help = "the server's current state: JSON {\"current\": {KNOB: "
             "{value, source}}}",
     .def = "the sizes and monitor files' \"current\", else the engine's "
            "defaults"},
    {.name = "engine",
     .group = CLI_G_MODEL,
     .type = CLI_T_STRING,
     CLI_AT(O, engine),
     .io = CLI_IO_PROFILE,
     .arg_name = "NAME",
     .help = "engine profile name or YAML path",
     .def = "db2",
     .complete = CLI_C_ENGINE},
    {.name = "device",
     .group = CLI_G_MODEL,
     .type = CLI_T_STRING,
     CLI_AT(O, device),
     .io = CLI_IO_PROFILE,
     .arg_name = "NAME",
     .help = "storage device profile: hdd, ssd or nvme",
     .def = "ssd",
     .complete = CLI_C_DEVICE},
    {.name = "profile",
     .group = CLI_G_MODEL,
     .type = CLI_T_PATH,
     CLI_AT(O, profile),
     .io = CLI_IO_IN,
     .arg_name = "FILE",
     .help = "device profile YAML file, instead of --device",
     .def = "none"},
    {.name = "memory",
     .group = CLI_G_MODEL,
     .type = CLI_T_SIZE,
     CLI_AT(O, memory),
     CLI_GIVEN(O, memory_given),
     /* a budget every ddl dialect's pool setting accepts (limits.c) */
     .min = REC_MIN_BUDGET_BYTES,
     .max = REC_MAX_MEMORY_BYTES,
     .arg_name = "BYTES",
     .help = "buffer-pool budget, e.g. 512M",
     .def = "the monitored pool, else 256M"},
    {.name = "inline-target",
     .group = CLI_G_MODEL,
     .type = CLI_T_DOUBLE,
     CLI_AT(O, target),
     .dmin = 0,
     .dmin_open = 1,
     .dmax = 1,
     .arg_name = "F",
     .help = "share of objects that must be stored inline, 0 < F <= 1",
     .def = "0.95"},
    {.name = "sessions",
     .group = CLI_G_MODEL,
     .type = CLI_T_UINT,
     CLI_AT(O, sessions),
     .min = 1,
     .max = UINT64_MAX,
     .arg_name = "N",
     .help = "live sessions (rows) in the table",
     .def = "trace keys, monitor estimate, else one per size"},
    /* the performance model (pagetune-simulate(1) MODEL) */
    {.name = "clients",
     .group = CLI_G_MODEL,
     .type = CLI_T_UINT,
     CLI_AT(O, clients),
     .min = 1,
     .max = 100000,
     .arg_name = "N",
     .help = "with --trace: predict requests/s and response time of N "
             "clients, current vs recommended",
     .def = "no prediction"},
    CLI_OPT_MODEL_ENTRIES(O),
    {.name = "oneline",
     .group = CLI_G_OUTPUT,
     .type = CLI_T_FLAG,
     CLI_AT(O, oneline),
     .help = "print the advice as one line for a change ticket (what, why, "
             "predicted change)",
     .def = "off"},
    CLI_OPT_OUTPUT_ENTRY,
    CLI_OPT_COMMON_ENTRIES_END,
};
#undef O

static const char *const examples[] = {
    "the page size for sampled object sizes (IBM's procedure)",
    "pagetune recommend --sizes sizes.json",
    "with a 1G pool on NVMe and the monitored hit ratios, as JSON for ddl",
    "pagetune recommend --sizes sizes.json --monitor mon.json --memory 1G "
    "--device nvme --json -o rec.json",
    "from an access trace alone",
    "pagetune recommend --trace trace.csv --engine postgresql",
    NULL,
};

CLI_SPEC_DEFINE(recommend);

/* ---- the predicted change (--clients) ------------------------------------
 */

/* Current and recommended configurations under the performance model. */
struct rec_pred {
    struct sim_plan_result res;
    const struct sim_result_row *cur, *rec;
    struct rec_current_config cc; /* where the current side comes from */
    int store_model; /* the figures are the store model's (a probe) */
};

/* A row's prediction from the store model's figures. */
static void store_side(struct sim_result_row *row,
                       const struct store_prediction *sp, const char *name)
{
    struct sim_predicted *p = &row->predicted;

    p->req_per_s = sp->req_per_s;
    p->req_per_s_lo = sp->req_per_s_lo;
    p->req_per_s_hi = sp->req_per_s_hi;
    p->response_ms = sp->response_ms;
    p->response_ms_lo = sp->response_ms_lo;
    p->response_ms_hi = sp->response_ms_hi;
    p->calibrated = p->has_range = 1;
    snprintf(p->calibration, sizeof(p->calibration), "%.63s", name);
    snprintf(p->bottleneck, sizeof(p->bottleneck), "%s", "store");
    p->n_util = 0;
}

/*
 * --calibration PROBE: the store model's figures for the replay advise
 * runs of this trace (adv_store_predict, the same call as advise's), in
 * place of the performance model's: recommend then repeats advise's
 * predicted change. 0 when the calibration has no probe.
 */
static int predict_store(struct rec_opts *o, const struct rec_engine *e,
                         const struct rec_result *r, struct rec_pred *pr,
                         struct pt_err *err)
{
    struct store_probe probe;
    struct store_trace t;
    struct store_prediction sp[2];
    char name[96];
    int rc =
        store_probe_load(o->model.calibration, &probe, name, sizeof(name), err);

    if (rc <= 0)
        return rc;
    if (e->outline_buffered || e->n_outline == 0)
        return 0; /* the probe measures DB2's LOB area (advise: no model) */
    memset(&t, 0, sizeof(t));
    if ((rc = store_trace_load(&t, o->trace, err)) == 0)
        rc = adv_store_predict(r, e, e->name, pr->cc.page_size_bytes, &t,
                               (unsigned)o->clients, o->think_ms, 0, &probe, sp,
                               err);
    store_trace_release(&t);
    if (rc < 0)
        return rc;
    store_side((struct sim_result_row *)pr->cur, &sp[0], name);
    store_side((struct sim_result_row *)pr->rec, &sp[1], name);
    pr->store_model = 1;
    return 1;
}

/*
 * Simulate the trace at the current page size and pool (rec_current_config:
 * the server's, else the engine's default, assumed) and at the recommended
 * one, and predict both rows.
 */
static int predict_change(struct rec_opts *o, const struct rec_engine *e,
                          const struct rec_device *d,
                          const struct rec_result *r,
                          const struct rec_monitor *mon, struct rec_pred *pr,
                          struct pt_err *err)
{
    const struct rec_candidate *ch = &r->cand[r->chosen_idx];
    struct rec_current_config *cc = &pr->cc;
    uint32_t cur_page;
    uint64_t cur_pool;
    struct sim_plan pl;
    struct perf_predictor m;
    int ret;

    /* the configuration in use, as advise decides it */
    rec_current_config(r, e, mon, cc);
    cur_page = cc->page_size_bytes;
    cur_pool = cc->pool_pages;
    if (!cur_pool)
        return err_set(err, PT_EDATA,
                       "--clients: no buffer-pool size for the current %u-byte "
                       "pages",
                       cur_page);
    sim_plan_init(&pl);
    pl.trace = o->trace;
    pl.engine = e;
    pl.device = d;
    pl.engine_name = o->engine;
    pl.device_name = o->model.device;
    pl.n_page_sizes = cur_page == ch->page_size_bytes ? 1 : 2;
    pl.page_sizes[0] = cur_page;
    pl.page_sizes[1] = ch->page_size_bytes;
    pl.n_pools = cur_pool == r->pool_pages ? 1 : 2;
    pl.pools[0] = (struct sim_pool_size){cur_pool, 0};
    pl.pools[1] = (struct sim_pool_size){r->pool_pages, 0};
    if ((ret = sim_plan_run(&pl, &pr->res, err)) < 0 ||
        (ret = perf_predictor_load(&m, &o->model, err)) < 0)
        return ret;
    pr->cur = pr->rec = NULL;
    for (size_t i = 0; i < pr->res.n_rows; i++) {
        struct sim_result_row *row = &pr->res.rows[i];
        int is_cur = row->db.page_size_bytes == cur_page &&
                     row->db.pool_pages == cur_pool;
        int is_rec = row->db.page_size_bytes == ch->page_size_bytes &&
                     row->db.pool_pages == r->pool_pages;
        if (!is_cur && !is_rec)
            continue;
        if ((ret =
                 perf_predictor_predict(&m, &pr->res, row, (unsigned)o->clients,
                                        o->think_ms, err)) < 0)
            return ret;
        if (is_cur)
            pr->cur = row;
        if (is_rec)
            pr->rec = row;
    }
    if (!pr->cur || !pr->rec)
        return err_set(err, PT_EINTERNAL, "prediction rows missing");
    if (o->model.calibration && (ret = predict_store(o, e, r, pr, err)) < 0)
        return ret;
    return 0;
}

static json_t *pred_side_json(const struct sim_result_row *row)
{
    const struct sim_predicted *p = &row->predicted;
    json_t *o =
        json_pack("{s:i, s:I, s:f, s:f, s:s}", "page_size",
                  (int)row->db.page_size_bytes, "bufferpool_pages",
                  (json_int_t)row->db.pool_pages, "req_per_s", p->req_per_s,
                  "response_ms", p->response_ms, "bottleneck", p->bottleneck);
    if (!o)
        return NULL;
    json_object_set_new(o, "range",
                        p->has_range
                            ? json_pack("{s:[f,f], s:[f,f]}", "req_per_s",
                                        p->req_per_s_lo, p->req_per_s_hi,
                                        "response_ms", p->response_ms_lo,
                                        p->response_ms_hi)
                            : json_null());
    return o;
}

/* "predicted" of the recommendation document. */
static json_t *pred_json(const struct rec_pred *pr)
{
    const struct sim_predicted *c = &pr->cur->predicted,
                               *r = &pr->rec->predicted;

    return json_pack(
        "{s:i, s:f, s:b, s:o, s:o, s:{s:s, s:s}, s:o, s:{s:f, s:f}}", "clients",
        (int)c->clients, "think_ms", c->think_ms, "calibrated", c->calibrated,
        "calibration",
        c->calibrated ? json_string(c->calibration) : json_null(), "current",
        pred_side_json(pr->cur), "current_basis", "page_size",
        pr->cc.page_basis, "bufferpool",
        pr->cc.pool_assumed ? "the candidate's at equal memory" : "server",
        "recommended", pred_side_json(pr->rec), "change", "req_per_s_pct",
        100 * (r->req_per_s / c->req_per_s - 1), "response_ms_pct",
        100 * (r->response_ms / c->response_ms - 1));
}

/* What the ranges of the prediction rows are. */
static const char *range_note(const struct rec_pred *pr)
{
    if (pr->store_model)
        return " (store model: the replay advise runs; ranges: the probe's "
               "intervals and the model's error)";
    return pr->cur->predicted.has_range
               ? " (ranges: +- the calibration's largest residual)"
               : "";
}

/* pred_json with the model that made the figures. */
static json_t *pred_doc(const struct rec_pred *pr)
{
    json_t *o = pred_json(pr);

    if (o)
        json_object_set_new(
            o, "model",
            json_string(pr->store_model
                            ? "store: the built-in store's replay, from a "
                              "probe (pagetune-probe(1))"
                            : "performance: the simulator's counts under the "
                              "profiles' costs"));
    return o;
}

/* One figure with its range: "139.9 req/s (133.3..146.5)". */
static void pred_figure(char *buf, size_t len, const struct sim_result_row *row)
{
    const struct sim_predicted *p = &row->predicted;
    char b[32];
    int n = snprintf(buf, len, "%s pages, %llu-page pool: %.1f req/s",
                     pt_size_format(row->db.page_size_bytes, b, sizeof(b)),
                     (unsigned long long)row->db.pool_pages, p->req_per_s);

    if (p->has_range && n > 0 && (size_t)n < len)
        n += snprintf(buf + n, len - (size_t)n, " (%.1f..%.1f)",
                      p->req_per_s_lo, p->req_per_s_hi);
    if (n > 0 && (size_t)n < len)
        n += snprintf(buf + n, len - (size_t)n, ", %.0f ms", p->response_ms);
    if (p->has_range && n > 0 && (size_t)n < len)
        snprintf(buf + n, len - (size_t)n, " (%.0f..%.0f)", p->response_ms_lo,
                 p->response_ms_hi);
}

/* The trace's per-key evidence, read through sim/'s reader. */
/* sim_trace_evidence's progress hook: the bar of read_trace. */
static void trace_progress(void *ctx, uint64_t pos, uint64_t size)
{
    struct cli_progress *pg = ctx;

    pg->total = size;
    cli_progress_update(pg, pos);
}

static int read_trace(const char *path, struct rec_trace_evidence *t,
                      const struct cli_common *c, struct pt_err *err)
{
    struct cli_progress pg;
    int rc;

    cli_progress_init(&pg, c, "reading trace", 0);
    rc = sim_trace_evidence(path, t, trace_progress, &pg, err);
    cli_progress_done(&pg);
    if (rc < 0)
        rec_trace_evidence_release(t);
    return rc;
}

/* The reasons, one row each as a list item ("- text"): the table writer
   wraps it at the terminal width with a hanging indent (out.c), so the
   data stays one line per reason, as in the JSON. 0 or PT_EINTERNAL. */
static int reason_rows(struct out_table *why, const struct rec_result *r,
                       struct pt_err *err)
{
    for (size_t i = 0; i < r->n_reasons; i++) {
        if (out_table_add_row(why) < 0)
            return err_set(err, PT_EINTERNAL, "out of memory");
        out_table_setf(why, 0, "- %s", r->reasons[i]);
    }
    return 0;
}

/* One row per candidate page size; the CSV takes raw fractions, bytes and
 * an enum for the choice. */
static int cand_rows(struct out_table *cand, const struct rec_result *r,
                     int page_read, struct pt_err *err)
{
    char b[64];

    for (size_t i = 0; i < r->n_cand; i++) {
        const struct rec_candidate *c = &r->cand[i];
        const char *mark = i == r->chosen_idx ? "<- recommended" : "";
        if (out_table_add_row(cand) < 0)
            return err_set(err, PT_EINTERNAL, "out of memory");
        out_table_setf(cand, 0, "%s",
                       pt_size_format(c->page_size_bytes, b, sizeof(b)));
        out_table_setf(cand, 1, "%.1f", 100 * c->inline_fraction);
        out_table_setf(cand, 2, "%.2f", c->rows_per_page);
        out_table_setf(cand, 3, "%.1f", 100 * c->page_fill);
        out_table_setf(cand, 4, "%llu",
                       (unsigned long long)c->bufferpool_pages);
        out_table_setf(cand, 5, "%.1f", 100 * c->hit_ratio);
        out_table_setf(cand, 6, "%.4f", c->physical_reads);
        out_table_setf(cand, 7, "%.4f", c->direct_reads);
        out_table_setf(cand, 8, "%.2f", c->direct_sectors);
        out_table_setf(cand, 9, "%.4f", c->io_ms);
        out_table_setf(cand, 10, "%s%s",
                       i == r->chosen_idx
                           ? mark
                           : (i == r->rule_idx
                                  ? "inline rule"
                                  : (i == r->cost_idx ? "cheapest" : "")),
                       i != r->current_idx ? ""
                       : page_read         ? " (in use)"
                                           : " (default in use)");
        out_table_set_raw(cand, 0, "%u", c->page_size_bytes);
        out_table_set_num(cand, 1, c->inline_fraction);
        out_table_set_num(cand, 2, c->rows_per_page);
        out_table_set_num(cand, 3, c->page_fill);
        out_table_set_num(cand, 5, c->hit_ratio);
        out_table_set_num(cand, 6, c->physical_reads);
        out_table_set_num(cand, 7, c->direct_reads);
        out_table_set_num(cand, 8, c->direct_sectors);
        out_table_set_num(cand, 9, c->io_ms);
        out_table_set_raw(cand, 10, "%s",
                          i == r->chosen_idx
                              ? "recommended"
                              : (i == r->rule_idx
                                     ? "inline_rule"
                                     : (i == r->cost_idx ? "cheapest" : "")));
    }
    return 0;
}

/* The findings, tagged, and the next steps (cli/summary.c). */
static void summary_rows(const struct rec_result *r, const struct rec_engine *e,
                         const struct rec_pred *pr, int page_read,
                         struct cli_summary *s)
{
    const struct rec_candidate *ch = &r->cand[r->chosen_idx];
    const struct rec_candidate *cur =
        r->current_idx < r->n_cand ? &r->cand[r->current_idx] : NULL;
    char a[96], b[96], why[CLI_ONELINE_MAX];
    uint64_t pool = r->n_settings && r->pool_setting_bytes
                        ? r->pool_setting_bytes / ch->page_size_bytes
                    : r->n_settings ? ch->bufferpool_pages
                                    : r->pool_pages;

    pt_fig_page(ch->page_size_bytes, b, sizeof(b));
    if (cur == ch) {
        cli_summary_finding(s, CLI_TAG_OK, "page size %s: the one in use", b);
    } else {
        cli_oneline_why(r, why, sizeof(why));
        cli_summary_finding(
            s, CLI_TAG_CHANGE, "page size %s -> %s: %s",
            cur ? pt_fig_page(cur->page_size_bytes, a, sizeof(a)) : "?", b,
            why);
    }
    if (!page_read)
        cli_summary_finding(s, CLI_TAG_WARNING,
                            "the page size in use is the engine's default, "
                            "not read from a server (--current or a sampled "
                            "sizes.json gives it)");
    pt_fig_pool(pool, ch->page_size_bytes, b, sizeof(b));
    if (r->pool_kept)
        cli_summary_finding(s, CLI_TAG_OK, "buffer pool %s: kept (no --memory)",
                            b);
    else
        cli_summary_finding(s, CLI_TAG_CHANGE, "buffer pool %s%s%s",
                            r->n_settings ? "" : r->bufferpool_name,
                            r->n_settings ? "" : ": ", b);
    if (r->host_capped)
        cli_summary_finding(s, CLI_TAG_WARNING,
                            "the pool was capped to the host's memory share "
                            "(%s)",
                            pt_size_format(r->host_limit_bytes, a, sizeof(a)));
    cli_oneline_settings(r, why, sizeof(why));
    if (why[0])
        cli_summary_finding(s, CLI_TAG_CHANGE, "%s settings: %s", e->name, why);
    if (pr && !pr->cur->predicted.calibrated)
        cli_summary_finding(s, CLI_TAG_WARNING,
                            "predictions are uncalibrated (the profiles' "
                            "default costs; see --calibration)");
    if (s->n_tag[CLI_TAG_CHANGE] == 0) {
        cli_summary_step(s, "none",
                         "the configuration in use is the advice; recommend "
                         "again when the objects or the workload change");
        return;
    }
    cli_summary_step(s, "ddl",
                     "the same command with --json -o rec.json, then pagetune "
                     "ddl --recommendation rec.json --dialect %s --out-dir "
                     "ddl-review",
                     e->name);
    cli_summary_step(s, "review",
                     "ddl-review/create.sql (its header holds the evidence) "
                     "and ddl-review/rollback.sql");
    cli_summary_step(
        s, "apply", "%s",
        cli_apply_command(e->name, "ddl-review/create.sql", a, sizeof(a)));
    cli_summary_step(s, "when",
                     "in a maintenance window: create.sql's header lists what "
                     "it locks, rewrites or restarts");
}

/* The findings and next steps after the tables. 0 or a PT_* status. */
static int write_summary(const struct rec_result *r, const struct rec_engine *e,
                         const struct rec_pred *pr, int page_read, FILE *fp,
                         struct pt_err *err)
{
    struct cli_summary cs;
    int rc;

    if ((rc = cli_summary_init(&cs)) < 0)
        rc = err_set(err, rc, "out of memory");
    else
        summary_rows(r, e, pr, page_read, &cs);
    if (rc == 0)
        rc = cli_summary_write(&cs, fp, err);
    cli_summary_release(&cs);
    return rc;
}

/* Human output: summary, candidates, reasons (three writer tables). */
static int write_tables(const struct rec_result *r, const struct rec_engine *e,
                        const struct rec_size_stats *st,
                        const struct rec_pred *pr, enum out_format fmt,
                        FILE *fp, struct pt_err *err)
{
    static const char *const sum_h[] = {"setting", "value"};
    /* shown|CSV header (the CSV takes raw fractions, bytes, an enum) */
    static const char *const cand_h[] = {
        ">page_size|page_size_bytes",
        ">inline_%|inline_fraction",
        ">rows_per_page|rows_per_page",
        ">page_fill_%|page_fill",
        ">bp_pages|bufferpool_pages",
        ">hit_%|hit_ratio",
        ">phys_reads/acc|physical_reads_per_access",
        ">direct_reads/acc|direct_reads_per_access",
        ">sectors/acc|direct_sectors_per_access",
        ">io_ms/acc|io_ms_per_access",
        "choice|choice"};
    static const char *const why_h[] = {"reasons"};
    const struct rec_candidate *ch = &r->cand[r->chosen_idx];
    const struct rec_knob *pk = rec_state_get(&r->current, "page_size");
    int page_read = pk && pk->source == REC_SOURCE_SERVER;
    struct out_table sum, cand, why;
    char b[64], pool[96];
    int rc = 0;

    memset(&sum, 0, sizeof(sum));
    memset(&cand, 0, sizeof(cand));
    memset(&why, 0, sizeof(why));
    if (out_table_init(&sum, 2, sum_h) < 0 ||
        out_table_init(&cand, 11, cand_h) < 0 ||
        out_table_init(&why, 1, why_h) < 0) {
        rc = err_set(err, PT_EINTERNAL, "out of memory");
        goto out;
    }
    if ((rc = cand_rows(&cand, r, page_read, err)) < 0)
        goto out;
    if (fmt == OUT_CSV) {
        rc = out_table_write(&cand, OUT_CSV, fp, err);
        goto out;
    }
    out_table_set_title(&sum, "pagetune recommend (%s)", e->name);
#define ROW(k, ...)                                                            \
    do {                                                                       \
        if (out_table_add_row(&sum) < 0) {                                     \
            rc = err_set(err, PT_EINTERNAL, "out of memory");                  \
            goto out;                                                          \
        }                                                                      \
        out_table_setf(&sum, 0, "%s", k);                                      \
        out_table_setf(&sum, 1, __VA_ARGS__);                                  \
    } while (0)
    ROW("page size", "%s (%s)",
        pt_size_format(ch->page_size_bytes, b, sizeof(b)),
        r->kept             ? "kept: a change gains too little"
        : r->chosen_by_cost ? "chosen by the cost model"
                            : "chosen by the inline rule");
    if (r->n_settings) {
        /* another engine: its own settings instead of DB2's objects */
        ROW("buffer pool", "%s%s",
            pt_fig_pool(r->pool_setting_bytes
                            ? r->pool_setting_bytes / ch->page_size_bytes
                            : ch->bufferpool_pages,
                        ch->page_size_bytes, pool, sizeof(pool)),
            r->pool_kept ? " (kept: no --memory)" : "");
        for (size_t i = 0; i < r->n_settings; i++)
            ROW(r->settings[i].name, "%s", r->settings[i].value);
    } else {
        ROW("buffer pool", "%s: %s", r->bufferpool_name,
            pt_fig_pool(r->pool_pages, ch->page_size_bytes, pool,
                        sizeof(pool)));
        ROW("table space", "%s: EXTENTSIZE %u, PREFETCHSIZE AUTOMATIC",
            r->tablespace_name, r->extent_size);
        ROW("OVERHEAD / TRANSFERRATE", "%.3f ms / %.4f ms", r->overhead_ms,
            r->transfer_rate_ms);
    }
    if (strcmp(e->name, "db2") == 0)
        ROW("WebSphere", "DB2 row size ROW_SIZE_%uKB, table space name %s",
            ch->page_size_bytes / 1024, r->tablespace_name);
    if (st)
        ROW("object sizes",
            "n=%llu min=%llu p50=%llu p90=%llu p95=%llu p99=%llu max=%llu "
            "mean=%.0f",
            (unsigned long long)st->count, (unsigned long long)st->min,
            (unsigned long long)st->p50, (unsigned long long)st->p90,
            (unsigned long long)st->p95, (unsigned long long)st->p99,
            (unsigned long long)st->max, st->mean);
    if (pr) {
        const struct sim_predicted *pc = &pr->cur->predicted,
                                   *pp = &pr->rec->predicted;
        char fig[192];
        ROW(pc->calibrated ? "predicted, clients" : "predicted (UNCALIBRATED)",
            "%u clients, think %g ms, %s", pc->clients, pc->think_ms,
            pc->calibrated ? pc->calibration
                           : "costs are profile defaults, see --calibration");
        pred_figure(fig, sizeof(fig), pr->cur);
        ROW("  current", "%s", fig);
        pred_figure(fig, sizeof(fig), pr->rec);
        ROW("  recommended", "%s", fig);
        ROW("  change", "%+.1f %% req/s, %+.1f %% response time%s",
            100 * (pp->req_per_s / pc->req_per_s - 1),
            100 * (pp->response_ms / pc->response_ms - 1), range_note(pr));
    }
#undef ROW
    out_table_set_title(&cand,
                        "\ncandidates at equal buffer-pool memory (%s), per "
                        "access:",
                        pt_size_format(r->memory_bytes, b, sizeof(b)));
    if ((rc = reason_rows(&why, r, err)) < 0)
        goto out;
    out_table_set_title(&why, "%s", "");
    if ((rc = out_table_write(&sum, fmt, fp, err)) < 0 ||
        (rc = out_table_write(&cand, fmt, fp, err)) < 0 ||
        (rc = out_table_write(&why, fmt, fp, err)) < 0)
        goto out;
    if (fmt == OUT_TABLE)
        rc = write_summary(r, e, pr, page_read, fp, err);
out:
    out_table_release(&sum);
    out_table_release(&cand);
    out_table_release(&why);
    return rc;
}
/* 0 to go on, CLI_HELP_SHOWN, or a PT_* status after one line. */
static int parse_opts(struct cli_parser *p, struct cli_common *c,
                      struct rec_opts *o, int argc, char **argv)
{
    int rc;

    memset(o, 0, sizeof(*o));
    perf_profiles_init(&o->model);
    o->engine = "db2";
    o->device = "ssd";
    o->target = REC_DEFAULT_INLINE_TARGET;
    cli_common_init(c);
    if ((rc = cli_parse_all(p, &cli_spec_recommend, o, c, argc, argv)) != 0)
        return rc;
    if (!o->sizes && !o->trace) {
        cli_usage_error("recommend", "--sizes FILE or --trace FILE is "
                                     "required");
        return PT_EUSAGE;
    }
    /* one stdin cannot be read twice (nor as two formats) */
    if (o->sizes && o->trace && strcmp(o->sizes, "-") == 0 &&
        strcmp(o->trace, "-") == 0) {
        cli_usage_error("recommend", "--sizes - and --trace - cannot both "
                                     "read stdin: give one of them as a file");
        return PT_EUSAGE;
    }
    if (o->profile && strcmp(o->device, "ssd") != 0) {
        cli_usage_error("recommend", "--device and --profile are exclusive");
        return PT_EUSAGE;
    }
    if (o->oneline && c->format != OUT_TABLE) {
        cli_usage_error("recommend", "--oneline is a format of its own: "
                                     "give it without --format or --json");
        return PT_EUSAGE;
    }
    if (o->model_opt && !o->clients) {
        cli_usage_error("recommend", "--think-ms, --calibration, --appserver "
                                     "and --fscache-share need --clients N");
        return PT_EUSAGE;
    }
    if (o->clients && !o->trace) {
        cli_usage_error("recommend", "--clients needs --trace FILE (the "
                                     "prediction simulates it)");
        return PT_EUSAGE;
    }
    o->model.engine = o->engine;
    o->model.device = o->profile ? o->profile : o->device;
    return 0;
}

/* What the command read: the documents and the evidence in them. */
struct rec_evidence {
    struct rec_sizes sizes;
    int have_sizes, sizes_json;
    json_t *sizes_doc, *monitor_doc, *current_doc;
    struct rec_monitor mon;
    struct rec_trace_evidence tev;
};

static void rec_evidence_release(struct rec_evidence *ev)
{
    rec_sizes_release(&ev->sizes);
    json_decref(ev->sizes_doc);
    json_decref(ev->monitor_doc);
    json_decref(ev->current_doc);
    rec_trace_evidence_release(&ev->tev);
}

/* A sizes file: JSON if it starts with '{', else the plain list. */
static int read_sizes(const char *path, struct rec_evidence *ev,
                      struct pt_err *err)
{
    char *buf = NULL;
    size_t len = 0, i = 0;
    int rc;

    if ((rc = pt_file_read(path, &buf, &len, err)) < 0)
        return rc;
    while (i < len && (buf[i] == ' ' || buf[i] == '\t' || buf[i] == '\n' ||
                       buf[i] == '\r'))
        i++;
    ev->sizes_json = i < len && buf[i] == '{';
    if (ev->sizes_json) {
        rc = pt_json_loadb(buf, len, path, &ev->sizes_doc, err);
        if (rc == 0)
            rc = coll_sizes_doc_from_json(&ev->sizes, ev->sizes_doc, path, err);
    } else {
        rc = rec_sizes_parse_text(&ev->sizes, buf, len, path, err);
    }
    free(buf);
    ev->have_sizes = rc == 0;
    return rc;
}

/* Every input file of the options into ev (rec_run reads none). */
static int read_evidence(const struct rec_opts *o, const struct cli_common *c,
                         struct rec_evidence *ev, struct pt_err *err)
{
    int rc;

    if (o->sizes && (rc = read_sizes(o->sizes, ev, err)) < 0)
        return rc;
    if (o->monitor &&
        ((rc = pt_json_load(o->monitor, &ev->monitor_doc, err)) < 0 ||
         (rc = coll_monitor_doc_from_json(&ev->mon, ev->monitor_doc, o->monitor,
                                          err)) < 0))
        return rc;
    if (o->current &&
        (rc = pt_json_load(o->current, &ev->current_doc, err)) < 0)
        return rc;
    return o->trace ? read_trace(o->trace, &ev->tev, c, err) : 0;
}

/* The recommend step's request from the options and what was read. */
static void build_request(const struct rec_opts *o, struct rec_evidence *ev,
                          struct rec_request *q)
{
    memset(q, 0, sizeof(*q));
    q->engine = o->engine;
    q->device = o->profile ? o->profile : o->device;
    q->sizes = ev->have_sizes ? &ev->sizes : NULL;
    q->monitor = o->monitor ? &ev->mon : NULL;
    q->trace = o->trace ? &ev->tev : NULL;
    q->sizes_doc = ev->sizes_doc;
    q->monitor_doc = ev->monitor_doc;
    q->current_doc = ev->current_doc;
    q->current_file = o->current;
    q->memory_bytes = o->memory;
    q->memory_given = o->memory_given;
    q->inline_target = o->target;
    q->sessions = o->sessions;
    q->sizes_file = o->sizes ? o->sizes : o->trace;
    q->sizes_format = !o->sizes        ? "trace (last size per key)"
                      : ev->sizes_json ? "json"
                                       : "text";
    q->trace_file = o->trace;
    q->monitor_file = o->monitor;
}

/* --oneline: what, why, the predicted change (--clients: requests/s; else
   the model's I/O per access against the page size in use). */
static int write_oneline(const struct rec_result *r, const struct rec_engine *e,
                         const struct rec_pred *pr, FILE *fp,
                         struct pt_err *err)
{
    const struct rec_candidate *ch = &r->cand[r->chosen_idx];
    const struct rec_candidate *cur =
        r->current_idx < r->n_cand ? &r->cand[r->current_idx] : NULL;
    char why[CLI_ONELINE_MAX], set[CLI_ONELINE_MAX];
    struct cli_oneline l = {0};

    cli_oneline_why(r, why, sizeof(why));
    cli_oneline_settings(r, set, sizeof(set));
    l.settings = set;
    l.engine = e->name;
    l.cur_page_size = cur ? cur->page_size_bytes : 0;
    l.rec_page_size = ch->page_size_bytes;
    if (r->n_settings) {
        l.pool_pages = r->pool_setting_bytes
                           ? r->pool_setting_bytes / ch->page_size_bytes
                           : ch->bufferpool_pages;
    } else {
        l.pool_pages = r->pool_pages;
        l.pool_name = r->bufferpool_name;
    }
    l.why = why;
    if (pr) {
        l.have_pred = 1;
        l.pred_pct =
            100 *
            (pr->rec->predicted.req_per_s / pr->cur->predicted.req_per_s - 1);
        l.pred_what = "req/s";
    } else if (cur && cur != ch && cur->io_ms > 0) {
        l.have_pred = 1;
        l.pred_pct = 100 * (ch->io_ms / cur->io_ms - 1);
        l.pred_what = "I/O per access (model)";
    }
    return cli_oneline_write(&l, fp, err);
}

/* The recommendation to the output: JSON (with the prediction) or tables. */
static int write_output(const struct rec_opts *o, const struct cli_common *c,
                        const struct rec_run_result *run,
                        const struct rec_request *q, const struct rec_pred *pr,
                        struct pt_err *err)
{
    struct pt_afile af = {0};
    json_t *doc = NULL;
    int rc;

    if ((rc = cli_output_open(c, &af, err)) < 0)
        return rc;
    if (o->oneline) {
        rc = write_oneline(run->rec, &run->engine, o->clients ? pr : NULL,
                           af.fp, err);
    } else if (c->format == OUT_JSON) {
        doc = rec_run_to_json(run, q);
        if (doc && o->clients &&
            json_object_set_new(doc, "predicted", pred_doc(pr)) < 0) {
            json_decref(doc);
            doc = NULL;
        }
        rc = doc ? out_json_write(doc, af.fp, err)
                 : err_set(err, PT_EINTERNAL, "out of memory");
        json_decref(doc);
    } else {
        rc = write_tables(run->rec, &run->engine,
                          run->have_stats ? &run->stats : NULL,
                          o->clients ? pr : NULL, c->format, af.fp, err);
    }
    if (rc < 0) {
        pt_afile_abort(&af);
        return rc;
    }
    return pt_afile_commit(&af, err);
}

int cmd_recommend(int argc, char **argv)
{
    struct cli_parser p;
    struct cli_common c;
    struct rec_opts o;
    struct pt_err err;
    struct rec_evidence ev = {0};
    struct rec_request q;
    struct cli_field_map fields = {"recommend", ""};
    struct rec_run_result run = {0};
    struct rec_pred pred = {0};
    int rc, code = PT_EXIT_OK;

    if ((rc = parse_opts(&p, &c, &o, argc, argv)) != 0)
        return cli_parse_exit(rc);
    err_clear(&err);
    /* refuse an existing output before doing any work */
    if ((rc = pt_output_check(c.output, c.force, &err)) < 0)
        return cli_fail("recommend", &err);
    if ((rc = read_evidence(&o, &c, &ev, &err)) < 0)
        goto fail;
    build_request(&o, &ev, &q);
    q.field_map = cli_field_option; /* the reasons name our options */
    q.field_ctx = &fields;
    if ((rc = rec_run(&q, &run, &err)) < 0) {
        cli_profile_option(&err, o.profile ? "--profile" : "--device");
        goto fail;
    }
    if (o.monitor && ev.mon.engine[0] &&
        strcmp(ev.mon.engine, run.engine.name) != 0)
        cli_note(&c,
                 "%s: monitor data is from engine '%s'; its counters are "
                 "not used for a %s recommendation",
                 o.monitor, ev.mon.engine, run.engine.name);
    if (o.clients) {
        if ((rc = predict_change(&o, &run.engine, &run.device, run.rec, &ev.mon,
                                 &pred, &err)) < 0)
            goto fail;
        if (!o.model.calibration)
            cli_note(&c, "predictions are uncalibrated: the costs are the "
                         "profiles' defaults (see --calibration)");
    }
    if ((rc = write_output(&o, &c, &run, &q, &pred, &err)) < 0)
        goto fail;
    goto out;
fail:
    code = cli_fail("recommend", &err);
out:
    rec_run_result_release(&run);
    sim_plan_result_release(&pred.res);
    rec_evidence_release(&ev);
    return code;
}
