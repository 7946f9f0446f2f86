/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cmd_advise.c — `pagetune advise`: the front door of the advise/ library.
 * Options → struct adv_config → adv_run() → adv_result_write() (the
 * out-dir, report.html rendered by report.c) → the summary as a table or
 * JSON. The pipeline itself (sample, monitor, recommend, validate, ddl)
 * is advise/'s; this file neither runs other commands nor reads files.
 * `--demo` advises on a built-in SQLite session store filled from a
 * shipped workload, as on a DB2 SESSIONS table (pagetune-advise(1)).
 *
 * Neighbours: advise/advise.h, report/report.c.
 */
#include "cli/cli.h"
#include "report/report.h"

#include "advise/advise.h"
#include "perf/perf.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

static const char *const usage[] = {
    "pagetune advise --demo [--out-dir DIR] [OPTIONS]",
    "pagetune advise (--dsn NAME | --connect STR) [--out-dir DIR] "
    "[--validate none|sim|replay|both] [--fail-on drift] [OPTIONS]",
    NULL,
};

static const char description[] =
    "Sample object sizes, watch the buffer pool for a short window,\n"
    "recommend page size, buffer pool and table space settings, validate the\n"
    "advice (current vs recommended page size at equal memory, by cache\n"
    "simulation and by replay on the built-in SQLite session store) and\n"
    "write the DDL. Leaves sizes.json, monitor.json, recommendation.json,\n"
    "create.sql, rollback.sql and report.html (plus simulation.json and\n"
    "replay.json when validating) in --out-dir, and prints a summary.\n"
    "--demo needs no database: it builds a session store from a shipped\n"
    "workload and advises on it as on a DB2 SESSIONS table.";

struct advise {
    struct cli_common common;
    struct adv_config cfg;
    int validate;               /* --validate: index of validate_names */
    int fail_on;                /* --fail-on: index of fail_on_names */
    int color;                  /* --color: index of color_names */
    int oneline;                /* --oneline */
    uint64_t clients;           /* --clients */
    double think_ms;            /* --think-ms */
    int model_opt;              /* a model option was given */
    struct perf_profiles model; /* --calibration, --appserver, ... */
    struct store_probe probe;   /* --calibration's probe, if it has one */
    char probe_name[96];
    struct perf_predictor loaded; /* the model, once predict_row loaded it */
    int have_model;
    struct cli_field_map fields; /* the library's field names as options */
    struct cli_plan_bar bar;     /* the replays' progress line */
};

/* Orders matter: parse_opts() reads the indexes. */
static const char *const validate_names[] = {"none", "sim", "replay", "both",
                                             NULL};
static const char *const fail_on_names[] = {"never", "drift", NULL};
static const char *const color_names[] = {"auto", "always", "never", NULL};

#define A struct advise
static const struct cli_option opts[] = {
    {.name = "demo",
     .group = CLI_G_CONNECTION,
     .type = CLI_T_FLAG,
     CLI_AT(A, cfg.demo),
     .help = "advise on a built-in session store filled from a shipped "
             "workload",
     .def = "off"},
    CLI_OPT_CONN_ENTRIES,
    {.name = "engine",
     .group = CLI_G_MODEL,
     .type = CLI_T_STRING,
     CLI_AT(A, cfg.engine),
     .io = CLI_IO_PROFILE,
     .arg_name = "NAME",
     .help = "engine to advise for: db2, postgresql, mysql, sqlite, oracle",
     .def = "detected; db2 with --demo",
     .complete = CLI_C_ENGINE},
    {.name = "table",
     .group = CLI_G_SAMPLING,
     .type = CLI_T_STRING,
     CLI_AT(A, cfg.table),
     .arg_name = "[SCHEMA.]NAME",
     .help = "table to sample",
     .def = "SESSIONS"},
    {.name = "columns",
     .group = CLI_G_SAMPLING,
     .type = CLI_T_STRING,
     CLI_AT(A, cfg.columns),
     .arg_name = "A,B,C",
     .help = "object columns in placement order",
     .def = "SMALL,MEDIUM,LARGE"},
    CLI_OPT_SAMPLE_SIZE_ENTRIES(A, cfg),
    {.name = "out-dir",
     .group = CLI_G_OUTPUT,
     .type = CLI_T_DIR,
     CLI_AT(A, cfg.out_dir),
     .io = CLI_IO_OUTDIR,
     .arg_name = "DIR",
     .help = "directory for the files, created if missing",
     .def = ADV_DEFAULT_OUT_DIR},
    {.name = "memory",
     .group = CLI_G_MODEL,
     .type = CLI_T_SIZE,
     CLI_AT(A, cfg.memory_bytes),
     /* a budget every ddl dialect's pool setting accepts, as recommend */
     .min = REC_MIN_BUDGET_BYTES,
     .max = REC_MAX_MEMORY_BYTES,
     .arg_name = "BYTES",
     .help = "buffer-pool budget, e.g. 512M",
     .def = "the monitored pool, else 256M"},
    {.name = "device",
     .group = CLI_G_MODEL,
     .type = CLI_T_STRING,
     CLI_AT(A, cfg.device),
     .io = CLI_IO_PROFILE,
     .arg_name = "NAME",
     .help = "storage device profile: hdd, ssd or nvme",
     .def = ADV_DEFAULT_DEVICE,
     .complete = CLI_C_DEVICE},
    {.name = "validate",
     .group = CLI_G_VALIDATION,
     .type = CLI_T_ENUM,
     CLI_AT(A, validate),
     .choices = validate_names,
     .help = "validate the advice by cache simulation, by replay on the "
             "built-in store, both or neither",
     .def = "both"},
    {.name = "monitor-seconds",
     .group = CLI_G_SAMPLING,
     .type = CLI_T_DOUBLE,
     CLI_AT(A, cfg.monitor_s),
     .dmin = 0,
     .dmin_open = 1,
     .dmax = 86400,
     .arg_name = "SEC",
     .help = "length of the monitor window",
     .def = "5; 1 with --demo"},
    {.name = "workload",
     .group = CLI_G_VALIDATION,
     .short_name = 'w',
     .type = CLI_T_STRING,
     CLI_AT(A, cfg.workload),
     .io = CLI_IO_PROFILE,
     .arg_name = "PROFILE",
     .help = "workload profile for the demo store and the validation trace",
     .def = ADV_DEFAULT_WORKLOAD,
     .complete = CLI_C_WORKLOAD},
    {.name = "requests",
     .group = CLI_G_VALIDATION,
     .type = CLI_T_UINT,
     CLI_AT(A, cfg.requests),
     .min = 1,
     .max = UINT64_MAX,
     .arg_name = "N",
     .help = "requests in the demo / validation trace",
     .def = "20000"},
    {.name = "seed",
     .group = CLI_G_VALIDATION,
     .type = CLI_T_UINT,
     CLI_AT(A, cfg.seed),
     .max = UINT64_MAX,
     .arg_name = "S",
     .help = "random seed of the generated trace",
     .def = "42"},
    {.name = "cache",
     .group = CLI_G_VALIDATION,
     .type = CLI_T_SIZE,
     CLI_AT(A, cfg.cache_bytes),
     .min = 1024,
     .max = UINT64_MAX,
     .arg_name = "BYTES",
     .help = "page-cache budget of the replay, equal at every page size",
     .def = "2M"},
    {.name = "replay-budget",
     .group = CLI_G_VALIDATION,
     .type = CLI_T_DOUBLE,
     CLI_AT(A, cfg.replay_budget_s),
     .dmin = 0,
     .dmin_open = 1,
     .dmax = 86400,
     .arg_name = "SEC",
     .help = "seconds for the replay's interleaved rounds (it stops "
             "earlier once the interval is tight)",
     .def = "20"},
    {.name = "replay-server",
     .group = CLI_G_VALIDATION,
     .type = CLI_T_FLAG,
     CLI_AT(A, cfg.replay_server),
     .help = "replay the current and the recommended settings on scratch "
             "tables of the server, synthetic rows only (needs CREATE on the "
             "database; pagetune-replay(1)): PostgreSQL's table settings; "
             "MariaDB/MySQL's row format, and a new page size on the "
             "instance --replay-instance names",
     .def = "off: such advice skips the replay"},
    {.name = "replay-instance",
     .group = CLI_G_VALIDATION,
     .type = CLI_T_STRING,
     CLI_AT(A, cfg.replay_instance),
     .arg_name = "SIZE=DSN",
     .help = "with --replay-server on MariaDB/MySQL advice of another page "
             "size: an instance built with innodb_page_size SIZE (a DSN name "
             "or a connection string) where the advised side runs; the "
             "current side runs on the sampled instance",
     .def = "none: such advice is validated on the built-in store"},
    {.name = "scratch-schema",
     .group = CLI_G_SAFETY,
     .type = CLI_T_STRING,
     CLI_AT(A, cfg.scratch_schema),
     .arg_name = "NAME",
     .help = "with --replay-server: the schema it creates, marks and drops; "
             "one without pagetune's mark is refused",
     .def = COLL_PGR_SCHEMA_DEFAULT},
    {.name = "max-scratch",
     .group = CLI_G_SAFETY,
     .type = CLI_T_SIZE,
     CLI_AT(A, cfg.max_scratch),
     .min = 1,
     .max = UINT64_MAX,
     .arg_name = "SIZE",
     .help = "with --replay-server: the scratch tables' bytes at most, all "
             "settings together; they hold the table's rows within three "
             "quarters of it (the estimate leaves out dead space) and 8x "
             "the pool a table",
     .def = "1G"},
    {.name = "allow-replicated",
     .group = CLI_G_SAFETY,
     .type = CLI_T_FLAG,
     CLI_AT(A, cfg.allow_replicated),
     .help = "with --replay-server: replay on a server that streams to "
             "replicas (refused otherwise)",
     .def = "off"},
    {.name = "clients",
     .group = CLI_G_MODEL,
     .type = CLI_T_UINT,
     CLI_AT(A, clients),
     .min = 1,
     .max = 256,
     .arg_name = "N",
     .help = "closed-loop clients of the replay and of the predicted "
             "requests/s and response time",
     .def = "1"},
    CLI_OPT_MODEL_ENTRIES(A),
    {.name = "fail-on",
     .group = CLI_G_SAFETY,
     .type = CLI_T_ENUM,
     CLI_AT(A, fail_on),
     .choices = fail_on_names,
     .help = "drift: exit 1 if the current page size, buffer pool or any "
             "knob read from the server is off the recommendation",
     .def = "never"},
    {.name = "color",
     .group = CLI_G_OUTPUT,
     .type = CLI_T_ENUM,
     CLI_AT(A, color),
     .choices = color_names,
     .help = "colour in the summary; NO_COLOR disables auto",
     .def = "auto"},
    {.name = "oneline",
     .group = CLI_G_OUTPUT,
     .type = CLI_T_FLAG,
     CLI_AT(A, oneline),
     .help = "print the summary as one line for a change ticket (what, why, "
             "predicted change, verdict)",
     .def = "off"},
    CLI_OPT_COMMON_ENTRIES_END,
};
#undef A

static const char *const examples[] = {
    "advise on the built-in demo store; the files go to pagetune-demo/",
    "pagetune advise --demo --out-dir pagetune-demo",
    "gate a deployment: exit 1 when the database drifted from the advice",
    "pagetune advise --dsn SESSIONDB --out-dir advice --fail-on drift --json",
    "a 10 % sample, validated by cache simulation only",
    "pagetune advise --dsn SESSIONDB --percent 10 --validate sim",
    NULL,
};

CLI_SPEC_DEFINE(advise);

/* A note clears the replay's bar first (it comes back with the next
   report). */
static void on_note(void *ctx, const char *line)
{
    struct advise *a = ctx;

    cli_plan_bar_clear(&a->bar);
    if (!a->common.quiet)
        cli_notice("advise", line);
}

static void on_work(void *ctx, const struct store_plan_work *w)
{
    struct advise *a = ctx;

    cli_plan_bar_update(&a->bar, &a->common, w);
}

/* Options into a->cfg: 0 to go on, CLI_HELP_SHOWN, or a PT_* status after
   one line. */
static int parse_opts(struct advise *a, int argc, char **argv)
{
    struct adv_config *c = &a->cfg;
    struct cli_parser p;
    const char *arg;
    int id;

    memset(a, 0, sizeof(*a));
    cli_common_init(&a->common);
    adv_config_init(c);
    a->validate = 3; /* both */
    a->clients = ADV_DEFAULT_CLIENTS;
    perf_profiles_init(&a->model);
    if (cli_parse_spec(&p, &cli_spec_advise, a, argc, argv) < 0)
        return PT_EINTERNAL;
    while ((id = cli_next(&p, &a->common, &arg)) != CLI_NEXT_END) {
        if (id == CLI_NEXT_HELP)
            return CLI_HELP_SHOWN;
        if (id == CLI_NEXT_USAGE)
            return PT_EUSAGE;
        if (!cli_conn_opt(&c->conn, id, arg))
            return PT_EINTERNAL;
    }
    if (a->oneline && a->common.format != OUT_TABLE) {
        cli_usage_error("advise", "--oneline is a format of its own: give "
                                  "it without --format or --json");
        return PT_EUSAGE;
    }
    if (c->allow_replicated && !c->replay_server) {
        cli_usage_error("advise", "--allow-replicated is about "
                                  "--replay-server: give both or neither");
        return PT_EUSAGE;
    }
    if (c->max_scratch && !c->replay_server) {
        cli_usage_error("advise", "--max-scratch bounds the scratch tables "
                                  "of --replay-server: give both or neither");
        return PT_EUSAGE;
    }
    if (c->scratch_schema && !c->replay_server) {
        cli_usage_error("advise", "--scratch-schema names the schema of "
                                  "--replay-server: give both or neither");
        return PT_EUSAGE;
    }
    if (c->replay_server && c->demo) {
        cli_usage_error("advise", "--replay-server replays on the sampled "
                                  "server: the demo has none");
        return PT_EUSAGE;
    }
    if (c->replay_instance) {
        struct coll_myr_candidate in;
        struct pt_err e = {0};
        if (!c->replay_server) {
            cli_usage_error("advise", "--replay-instance names where "
                                      "--replay-server runs the advised page "
                                      "size: give both or neither");
            return PT_EUSAGE;
        }
        if (coll_myr_candidate_parse(c->replay_instance, &in, &e) < 0 ||
            !in.instance) {
            cli_usage_error("advise", "--replay-instance '%s': %s",
                            c->replay_instance,
                            e.msg[0] ? e.msg
                                     : "not SIZE=DSN (an instance built with "
                                       "innodb_page_size SIZE, e.g. 32K=DSN)");
            return PT_EUSAGE;
        }
    }
    c->validate_sim = a->validate == 1 || a->validate == 3;
    c->validate_replay = a->validate == 2 || a->validate == 3;
    c->fail_on_drift = a->fail_on == 1;
    c->force = a->common.force;
    c->clients = (unsigned)a->clients;
    c->think_ms = a->think_ms;
    return 0;
}

/* adv_predict_fn: the performance model (perf/predict.c), loaded on first use
   for the advised engine. */
static int predict_row(void *ctx, const char *engine,
                       const struct sim_plan_result *res,
                       struct sim_result_row *row, struct pt_err *err)
{
    struct advise *a = ctx;
    int rc;

    if (!a->have_model) {
        a->model.engine = engine;
        if ((rc = perf_predictor_load(&a->loaded, &a->model, err)) < 0)
            return rc;
        a->have_model = 1;
    }
    return perf_predictor_predict(&a->loaded, res, row, a->cfg.clients,
                                  a->cfg.think_ms, err);
}

/* One line each for the validation runs, "" when not run: the
   simulation's counts, the predicted change and the replay's verdict
   (never a bare single-run percentage). */
static void validation_lines(const struct adv_validation *v, char *sim,
                             char *pred, char *rep, size_t len, size_t rep_len)
{
    char a[64], b[64]; /* the changes in core's one form (pt_fig_change) */

    sim[0] = pred[0] = rep[0] = '\0';
    if (v->have_sim)
        snprintf(sim, len,
                 "I/O per get %.3f -> %.3f ms (%s), buffer-pool hit "
                 "ratio %.3f -> %.3f",
                 v->sim_cur.io_ms_per_get, v->sim_rec.io_ms_per_get,
                 pt_fig_change(v->io_change_pct, a, sizeof(a)),
                 v->sim_cur.hit_ratio, v->sim_rec.hit_ratio);
    if (v->have_pred && v->pred_store)
        snprintf(pred, len,
                 "requests/s %s, response time %s (%.0f -> %.0f requests/s "
                 "in the replay's configuration: %u client(s), think %g ms; "
                 "store model, probe %s)",
                 pt_fig_change_range(v->pred_rps_pct, v->pred_rps_lo_pct,
                                     v->pred_rps_hi_pct, a, sizeof(a)),
                 pt_fig_change_range(v->pred_resp_pct, v->pred_resp_lo_pct,
                                     v->pred_resp_hi_pct, b, sizeof(b)),
                 v->pred_cur_rps, v->pred_rec_rps, v->pred_clients,
                 v->pred_think_ms, v->calibration);
    else if (v->have_pred && v->pred_has_range)
        snprintf(pred, len,
                 "requests/s %s, response time %s (%u client(s), think %g ms, "
                 "calibration %s)",
                 pt_fig_change_range(v->pred_rps_pct, v->pred_rps_lo_pct,
                                     v->pred_rps_hi_pct, a, sizeof(a)),
                 pt_fig_change_range(v->pred_resp_pct, v->pred_resp_lo_pct,
                                     v->pred_resp_hi_pct, b, sizeof(b)),
                 v->pred_clients, v->pred_think_ms, v->calibration);
    else if (v->have_pred)
        snprintf(pred, len,
                 "requests/s %s, response time %s (%u client(s), "
                 "think %g ms, UNCALIBRATED: no range, --calibration gives "
                 "one)",
                 pt_fig_change(v->pred_rps_pct, a, sizeof(a)),
                 pt_fig_change(v->pred_resp_pct, b, sizeof(b)), v->pred_clients,
                 v->pred_think_ms);
    /* the verdict, always with the run that decided it */
    if (v->have_verdict)
        snprintf(rep, rep_len, "%s; %s", v->verdict.why, v->method_text);
    else if (v->have_replay && v->have_measured)
        snprintf(rep, rep_len, "not judged: measured %s; compared with %s; %s",
                 pt_fig_change_range(100 * v->verdict.measured.mean,
                                     100 * v->verdict.measured.lo,
                                     100 * v->verdict.measured.hi, a,
                                     sizeof(a)),
                 v->compared_with, v->method_text);
    else if (v->have_replay && v->compared_with[0])
        snprintf(rep, rep_len, "not judged: compared with %s; %s",
                 v->compared_with, v->method_text);
    else if (v->have_replay)
        snprintf(rep, rep_len,
                 "not judged: no prediction or interval to compare; %s",
                 v->method_text);
    else
        snprintf(rep, rep_len, "not measured; %s", v->method_text);
}

/* The engine's own settings (toast_tuple_target, ...) as "k=v k=v". */
static void settings_line(const struct rec_result *rec, char *buf, size_t len)
{
    size_t off = 0;

    buf[0] = '\0';
    for (size_t i = 0; i < rec->n_settings; i++) {
        int n = snprintf(buf + off, len - off, "%s%s=%s", off ? " " : "",
                         rec->settings[i].name, rec->settings[i].value);
        if (n < 0 || (size_t)n >= len - off)
            break;
        off += (size_t)n;
    }
}

/* The findings, tagged, and the next steps (cli/summary.c). */
static void summary_rows(const struct adv_result *r, struct cli_summary *s)
{
    const struct rec_result *rec = r->rec;
    const struct adv_validation *v = &r->validation;
    uint32_t rec_ps = rec->cand[rec->chosen_idx].page_size_bytes;
    uint64_t cur_bytes = r->cur_pool_pages * r->cur_page_size;
    uint64_t rec_bytes = rec->pool_pages * rec_ps;
    char a[96], b[96], why[CLI_ONELINE_MAX], f[400], ch[48];
    const char *d = r->out_dir;
    size_t i;
    json_t *n;

    pt_fig_page(r->cur_page_size, a, sizeof(a));
    pt_fig_page(rec_ps, b, sizeof(b));
    if (r->cur_page_size == rec_ps) {
        cli_summary_finding(s, CLI_TAG_OK, "page size %s: the recommended one",
                            a);
    } else {
        cli_oneline_why(rec, why, sizeof(why));
        cli_summary_finding(s, CLI_TAG_CHANGE, "page size %s -> %s: %s", a, b,
                            why);
    }
    if (r->run.current.page_assumed)
        cli_summary_finding(s, CLI_TAG_WARNING,
                            "the page size in use was not read from the "
                            "server (assumed: %s)",
                            r->run.current.page_basis);
    pt_fig_pool(rec->pool_pages, rec_ps, b, sizeof(b));
    if (r->cur_pool_pages && cur_bytes == rec_bytes &&
        r->cur_page_size == rec_ps)
        cli_summary_finding(s, CLI_TAG_OK,
                            "buffer pool %s: the recommended one", b);
    else
        cli_summary_finding(
            s, CLI_TAG_CHANGE, "buffer pool %s -> %s",
            r->cur_pool_pages
                ? pt_fig_pool(r->cur_pool_pages, r->cur_page_size, a, sizeof(a))
                : "unknown",
            b);
    if (r->cur_pool_pages && r->run.current.pool_assumed)
        cli_summary_finding(s, CLI_TAG_WARNING,
                            "the buffer pool in use was not read from the "
                            "server (assumed: the candidate's at equal "
                            "memory)");
    cli_oneline_settings(rec, why, sizeof(why));
    /* PostgreSQL's settings are the table's own: without drift they are
     * the ones in use, kept (DB2's describe a new table space) */
    if (why[0]) {
        int kept = !r->drift && strcmp(r->engine, "postgresql") == 0;
        cli_summary_finding(s, kept ? CLI_TAG_OK : CLI_TAG_CHANGE,
                            "%s settings%s: %s", r->engine,
                            kept ? " kept (those in use)" : "", why);
    }
    if (v->have_verdict) {
        enum store_verdict w = v->verdict.verdict;
        const struct adv_pgr_reads *rd = &v->srv_reads;
        char rch[64];
        int by_reads = v->have_server && rd->have && rd->decided;
        cli_summary_finding(
            s, w == STORE_VERDICT_CONFIRMS ? CLI_TAG_OK : CLI_TAG_WARNING,
            "the replay %s the advice: %s%s%s%s measured %s requests/s",
            w == STORE_VERDICT_CONFIRMS      ? "confirms"
            : w == STORE_VERDICT_CONTRADICTS ? "contradicts"
                                             : "is inconclusive about",
            !by_reads ? ""
            : strcmp(v->srv_engine, "mysql") == 0
                ? "InnoDB pool reads per request "
                : "heap + TOAST reads per operation ",
            by_reads ? pt_fig_change_range(
                           100 * rd->measured.mean, 100 * rd->measured.lo,
                           100 * rd->measured.hi, rch, sizeof(rch))
                     : "",
            by_reads ? (w == STORE_VERDICT_CONFIRMS ? " as predicted"
                                                    : " against the prediction")
                     : "",
            by_reads ? ";" : "",
            pt_fig_change_range(100 * v->verdict.measured.mean,
                                100 * v->verdict.measured.lo,
                                100 * v->verdict.measured.hi, ch, sizeof(ch)));
    } else if (v->method == ADV_BY_REPLAY) {
        cli_summary_finding(
            s, CLI_TAG_WARNING, "the replay measured, but is not judged: %s",
            v->compared_with[0] ? v->compared_with
                                : "no prediction or interval to compare");
    } else {
        cli_summary_finding(s, CLI_TAG_WARNING, "%s",
                            v->method == ADV_BY_SIMULATION
                                ? "validated by simulation only: nothing "
                                  "measured, no verdict"
                                : "not validated: no verdict");
    }
    if (v->have_pred && !v->calibration[0])
        cli_summary_finding(s, CLI_TAG_WARNING,
                            "predictions are uncalibrated (the profiles' "
                            "default costs; see --calibration)");

    json_array_foreach(r->notes, i, n)
    {
        if (json_is_string(n))
            cli_summary_finding(s, CLI_TAG_WARNING, "%s", json_string_value(n));
    }
    if (s->n_tag[CLI_TAG_CHANGE] == 0) {
        cli_summary_step(s, "none",
                         "the configuration in use is the advice; run advise "
                         "again when the workload changes (pagetune diff "
                         "compares two out-dirs)");
        return;
    }
    cli_summary_step(s, "review",
                     "%s/report.html (the evidence), then %s/create.sql and "
                     "%s/rollback.sql",
                     d, d, d);
    snprintf(f, sizeof(f), "%s/create.sql", d);
    cli_summary_step(s, "apply", "%s",
                     cli_apply_command(r->dialect, f, a, sizeof(a)));
    cli_summary_step(s, "when",
                     "in a maintenance window: create.sql's header lists what "
                     "it locks, rewrites or restarts");
    snprintf(f, sizeof(f), "%s/rollback.sql", d);
    cli_summary_step(s, "undo", "%s",
                     cli_apply_command(r->dialect, f, a, sizeof(a)));
}

static int write_table(const struct advise *a, const struct adv_result *r,
                       struct pt_err *err)
{
    static const char *const hdr[] = {"item", "value"};
    const struct rec_result *rec = r->rec;
    uint32_t rec_ps = rec->cand[rec->chosen_idx].page_size_bytes;
    /* color_names: auto, always, never */
    int color = a->color == 0 ? out_color_enabled(stdout) : a->color == 1;
    int on = color;
    char sim[512], pred[512], rep[1800], v[1200], ps[32], pool[96];
    const char *name = adv_pool_name(r);
    struct out_table t;
    int rc;

    if (out_table_init(&t, 2, hdr) < 0)
        return err_set(err, PT_EINTERNAL, "out of memory");
    validation_lines(&r->validation, sim, pred, rep, sizeof(sim), sizeof(rep));
    out_table_add_row(&t);
    out_table_setf(&t, 0, "verdict");
    out_table_setf(&t, 1, "%s", rep);
    out_table_add_row(&t);
    out_table_setf(&t, 0, "recommended page size");
    out_table_setf(&t, 1, "%s%s%s", on ? "\033[1m" : "",
                   pt_fig_page(rec_ps, ps, sizeof(ps)), on ? "\033[0m" : "");
    out_table_add_row(&t);
    out_table_setf(&t, 0, "current page size");
    out_table_setf(
        &t, 1, "%s%s%s%s", pt_fig_page(r->cur_page_size, ps, sizeof(ps)),
        r->run.current.page_assumed ? " (assumed: " : "",
        r->run.current.page_assumed ? r->run.current.page_basis : "",
        r->run.current.page_assumed ? "; not read from the server)" : "");
    out_table_add_row(&t);
    out_table_setf(&t, 0, "buffer pool");
    out_table_setf(&t, 1, "%s%s%s", name ? name : "", name ? ": " : "",
                   pt_fig_pool(rec->pool_pages, rec_ps, pool, sizeof(pool)));
    out_table_add_row(&t);
    if (r->cur_pool_pages) {
        out_table_setf(&t, 0, "current buffer pool");
        out_table_setf(&t, 1, "%s%s",
                       pt_fig_pool(r->cur_pool_pages, r->cur_page_size, pool,
                                   sizeof(pool)),
                       r->run.current.pool_assumed
                           ? " (assumed: not read from the server)"
                           : "");
        out_table_add_row(&t);
    }
    if (rec->n_settings > 0) {
        settings_line(rec, v, sizeof(v));
        out_table_setf(&t, 0, "%s settings", r->engine);
        out_table_setf(&t, 1, "%s", v);
        out_table_add_row(&t);
    }
    if (sim[0]) {
        out_table_setf(&t, 0, "simulation (%s model)", r->engine);
        out_table_setf(&t, 1, "%s", sim);
        out_table_add_row(&t);
    }
    if (pred[0]) {
        out_table_setf(&t, 0, "predicted change");
        out_table_setf(&t, 1, "%s", pred);
        out_table_add_row(&t);
    }
    out_table_setf(&t, 0, "drift");
    snprintf(v, sizeof(v), "%s", r->drift ? r->drift_why : "none");
    for (size_t l = strlen(v); l > 0 && v[l - 1] == '\n'; l--)
        v[l - 1] = '\0'; /* no trailing separator */
    {
        /* one line per knob, shown as "a; b" */
        char joined[sizeof(v) + 256];
        size_t o = 0;
        for (const char *p = v; *p && o + 3 < sizeof(joined); p++) {
            if (*p == '\n') {
                joined[o++] = ';';
                joined[o++] = ' ';
            } else {
                joined[o++] = *p;
            }
        }
        joined[o] = '\0';
        out_table_setf(&t, 1, "%s", joined);
    }
    out_table_add_row(&t);
    out_table_setf(&t, 0, "files");
    out_table_setf(&t, 1,
                   "%s/: sizes.json monitor.json recommendation.json "
                   "create.sql rollback.sql report.html%s%s%s%s",
                   r->out_dir, r->have_sim ? " simulation.json" : "",
                   r->have_replay ? " replay.json" : "",
                   adv_result_has_file(r, ADV_F_PROBE) ? " probe.yaml" : "",
                   adv_result_has_file(r, ADV_F_TRACE) ? " trace.csv" : "");
    rc = out_table_write(&t, a->common.format, stdout, err);
    out_table_release(&t);
    if (rc == 0) {
        struct cli_summary s;
        if ((rc = cli_summary_init(&s)) < 0)
            rc = err_set(err, rc, "out of memory");
        else
            summary_rows(r, &s);
        if (rc == 0)
            rc = cli_summary_write(&s, stdout, err);
        cli_summary_release(&s);
    }
    return rc;
}

/* ---- --format csv: one record, machine headers, raw numbers ----------- */

/*
 * The CSV columns (pagetune-advise(1), FORMATS), in the order csv_row()
 * fills them: the JSON summary's numbers under snake_case names with their
 * units, an empty field where the JSON has null or the step did not run.
 */
static const char *const csv_headers[] = {
    "engine",
    "demo",
    "current_page_size_bytes",
    "current_bufferpool_pages",
    "page_size_bytes",
    "bufferpool_pages",
    "bufferpool_name",
    "settings",
    "sim_current_io_ms_per_get",
    "sim_recommended_io_ms_per_get",
    "sim_io_change_pct",
    "sim_current_hit_ratio",
    "sim_recommended_hit_ratio",
    "predicted_requests_change_pct",
    "predicted_requests_change_lo_pct",
    "predicted_requests_change_hi_pct",
    "predicted_response_time_change_pct",
    "predicted_response_time_change_lo_pct",
    "predicted_response_time_change_hi_pct",
    "predicted_clients",
    "predicted_think_ms",
    "calibration",
    "replay_current_ops_per_s",
    "replay_recommended_ops_per_s",
    "replay_ops_change_pct",
    "replay_rounds",
    "replay_elapsed_s",
    "verdict",
    "validated_by",
    "measured_requests_change_pct",
    "measured_requests_change_lo_pct",
    "measured_requests_change_hi_pct",
    "drift",
    "drift_details",
    "out_dir",
    "files",
};
#define CSV_COLS (sizeof(csv_headers) / sizeof(csv_headers[0]))

/* The next cell of the CSV row: a number ("" unless `have` and finite),
   a count, or a string. */
static void csv_num(struct out_table *t, size_t *col, int have, double v)
{
    char b[400];

    out_table_setf(t, (*col)++, "%s", pt_csv_num(have ? v : NAN, b, sizeof(b)));
}

static void csv_count(struct out_table *t, size_t *col, int have, uint64_t v)
{
    if (have)
        out_table_setf(t, (*col)++, "%llu", (unsigned long long)v);
    else
        out_table_setf(t, (*col)++, "%s", "");
}

static void csv_str(struct out_table *t, size_t *col, const char *s)
{
    out_table_setf(t, (*col)++, "%s", s);
}

/* The one CSV record of the advice (columns as csv_headers). */
static void csv_row(struct out_table *t, const struct adv_result *r)
{
    const struct rec_result *rec = r->rec;
    const struct adv_validation *v = &r->validation;
    const struct store_verdict_out *d = &v->verdict;
    int rng = v->have_pred && v->pred_has_range;
    char buf[1200];
    size_t col = 0, l;

    csv_str(t, &col, r->engine);
    csv_str(t, &col, r->demo ? "true" : "false");
    csv_count(t, &col, 1, r->cur_page_size);
    csv_count(t, &col, 1, r->cur_pool_pages);
    csv_count(t, &col, 1, rec->cand[rec->chosen_idx].page_size_bytes);
    csv_count(t, &col, 1, rec->pool_pages);
    /* DB2's pool name, else the monitor's name of the engine's one pool
     * (never a DB2 name for an engine without named pools) */
    csv_str(t, &col, adv_pool_name(r) ? adv_pool_name(r) : r->cur_pool_name);
    settings_line(rec, buf, sizeof(buf));
    csv_str(t, &col, buf);
    csv_num(t, &col, v->have_sim, v->sim_cur.io_ms_per_get);
    csv_num(t, &col, v->have_sim, v->sim_rec.io_ms_per_get);
    csv_num(t, &col, v->have_sim, v->io_change_pct);
    csv_num(t, &col, v->have_sim, v->sim_cur.hit_ratio);
    csv_num(t, &col, v->have_sim, v->sim_rec.hit_ratio);
    csv_num(t, &col, v->have_pred, v->pred_rps_pct);
    csv_num(t, &col, rng, v->pred_rps_lo_pct);
    csv_num(t, &col, rng, v->pred_rps_hi_pct);
    csv_num(t, &col, v->have_pred, v->pred_resp_pct);
    csv_num(t, &col, rng, v->pred_resp_lo_pct);
    csv_num(t, &col, rng, v->pred_resp_hi_pct);
    csv_count(t, &col, v->have_pred, v->pred_clients);
    csv_num(t, &col, v->have_pred, v->pred_think_ms);
    csv_str(t, &col, v->have_pred ? v->calibration : "");
    csv_num(t, &col, v->have_replay, v->rep_cur.ops_per_s);
    csv_num(t, &col, v->have_replay, v->rep_rec.ops_per_s);
    csv_num(t, &col, v->have_replay, v->ops_change_pct);
    csv_count(t, &col, v->have_replay, v->rounds);
    csv_num(t, &col, v->have_replay, v->elapsed_s);
    csv_str(t, &col, v->have_verdict ? store_verdict_name(d->verdict) : "");
    csv_str(t, &col, adv_method_name(v->method));
    csv_num(t, &col, v->have_verdict, d->measured.mean * 100);
    csv_num(t, &col, v->have_verdict, d->measured.lo * 100);
    csv_num(t, &col, v->have_verdict, d->measured.hi * 100);
    csv_str(t, &col, r->drift ? "true" : "false");
    /* one knob a line in drift_why: "a; b", as the table shows it */
    snprintf(buf, sizeof(buf), "%s", r->drift ? r->drift_why : "");
    for (l = strlen(buf); l > 0 && buf[l - 1] == '\n'; l--)
        buf[l - 1] = '\0';
    for (char *p = buf; (p = strchr(p, '\n')) != NULL;)
        *p = ';';
    csv_str(t, &col, buf);
    csv_str(t, &col, r->out_dir);
    snprintf(buf, sizeof(buf),
             "sizes.json monitor.json recommendation.json create.sql "
             "rollback.sql report.html%s%s%s%s",
             r->have_sim ? " simulation.json" : "",
             r->have_replay ? " replay.json" : "",
             adv_result_has_file(r, ADV_F_PROBE) ? " probe.yaml" : "",
             adv_result_has_file(r, ADV_F_TRACE) ? " trace.csv" : "");
    csv_str(t, &col, buf);
}

static int write_csv(const struct adv_result *r, struct pt_err *err)
{
    struct out_table t;
    int rc;

    if (out_table_init(&t, CSV_COLS, csv_headers) < 0)
        return err_set(err, PT_EINTERNAL, "out of memory");
    if (out_table_add_row(&t) < 0) {
        out_table_release(&t);
        return err_set(err, PT_EINTERNAL, "out of memory");
    }
    csv_row(&t, r);
    rc = out_table_write(&t, OUT_CSV, stdout, err);
    out_table_release(&t);
    return rc;
}

/* --oneline: what, why, the predicted change (the model's requests/s, else
   the simulated I/O per get) and the verdict. */
static int write_oneline(const struct adv_result *r, struct pt_err *err)
{
    const struct rec_result *rec = r->rec;
    const struct adv_validation *v = &r->validation;
    char why[CLI_ONELINE_MAX], set[CLI_ONELINE_MAX], verdict[96], ch[48];
    struct cli_oneline l = {0};

    cli_oneline_why(rec, why, sizeof(why));
    cli_oneline_settings(rec, set, sizeof(set));
    l.engine = r->engine;
    l.cur_page_size = r->cur_page_size;
    l.rec_page_size = rec->cand[rec->chosen_idx].page_size_bytes;
    l.pool_pages = rec->pool_pages;
    l.pool_name = adv_pool_name(r);
    l.settings = set;
    l.why = why;
    if (v->have_pred) {
        l.have_pred = 1;
        l.pred_pct = v->pred_rps_pct;
        l.pred_what = "req/s";
    } else if (v->have_sim) {
        l.have_pred = 1;
        l.pred_pct = v->io_change_pct;
        l.pred_what = "I/O per get (simulated)";
    }
    if (v->have_verdict)
        snprintf(verdict, sizeof(verdict), "%s (measured %s)",
                 store_verdict_name(v->verdict.verdict),
                 pt_fig_change_range(100 * v->verdict.measured.mean,
                                     100 * v->verdict.measured.lo,
                                     100 * v->verdict.measured.hi, ch,
                                     sizeof(ch)));
    else
        snprintf(verdict, sizeof(verdict), "%s",
                 v->method == ADV_BY_NONE ? "not validated"
                                          : "none (no replay of both)");
    l.verdict = verdict;
    return cli_oneline_write(&l, stdout, err);
}

static int print_summary(const struct advise *a, const struct adv_result *r,
                         struct pt_err *err)
{
    json_t *doc;
    int rc;

    if (a->oneline)
        return write_oneline(r, err);
    if (a->common.format == OUT_CSV)
        return write_csv(r, err);
    if (a->common.format != OUT_JSON)
        return write_table(a, r, err);
    if (!(doc = adv_result_to_json(r)))
        return err_set(err, PT_EINTERNAL, "out of memory");
    rc = out_json_write(doc, stdout, err);
    json_decref(doc);
    return rc;
}

int cmd_advise(int argc, char **argv)
{
    struct advise a;
    struct adv_result r;
    struct pt_err err = {0};
    int rc;

    memset(&r, 0, sizeof(r));
    if ((rc = parse_opts(&a, argc, argv)) != 0)
        return cli_parse_exit(rc);
    a.cfg.note = on_note;
    a.cfg.progress = on_work;
    a.cfg.note_ctx = &a;
    a.fields.cmd = "advise";
    a.cfg.field_map = cli_field_option;
    a.cfg.field_ctx = &a.fields;
    a.cfg.render_report = report_write_html;
    a.cfg.predict = predict_row;
    a.cfg.predict_ctx = &a;
    /* a probe given with --calibration is the store model's (no short
       probe of advise's own); a fitted calibration predicts as before */
    if (a.model.calibration &&
        (rc = store_probe_load(a.model.calibration, &a.probe, a.probe_name,
                               sizeof(a.probe_name), &err)) < 0) {
        cli_profile_option(&err, "--calibration");
        return cli_fail("advise", &err);
    }
    if (a.model.calibration && rc == 1) {
        a.cfg.probe = &a.probe;
        a.cfg.probe_name = a.probe_name;
    }
    if ((rc = adv_out_dir_check(&a.cfg, &err)) < 0 ||
        (rc = adv_run(&a.cfg, &r, &err)) < 0 ||
        (rc = adv_result_write(&a.cfg, &r, &err)) < 0 ||
        (rc = print_summary(&a, &r, &err)) < 0) {
        adv_result_release(&r);
        cli_profile_option(&err, "--device");
        if (rc == PT_EUSAGE)
            return cli_usage_error("advise", "%s", err.msg);
        return cli_fail("advise", &err);
    }
    if (fflush(stdout) != 0 || ferror(stdout)) {
        adv_result_release(&r);
        err_set(&err, PT_EIO, "cannot write to standard output: %s",
                strerror(errno));
        return cli_fail("advise", &err);
    }
    rc = a.cfg.fail_on_drift && r.drift ? PT_ECHECK : 0;
    adv_result_release(&r);
    return cli_exit_code(rc);
}
