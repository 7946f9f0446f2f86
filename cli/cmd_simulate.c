/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cmd_simulate.c — `pagetune simulate`: replay a trace through the
 * application-tier cache (DynaCache-like) and, with --page-size, through a
 * buffer pool per page size and pool size, placing rows by the engine's
 * page-fit rules; optionally build miss-ratio curves. The simulator is
 * sim/ (sim.h): this file turns options into a struct sim_plan, loads the
 * engine and device profiles, runs the plan (sim_plan_run, with a progress
 * bar and interruption) and prints the result as a table or CSV, or as
 * simulation.json through sim_plan_result_to_json. With --clients, each
 * row also gets the performance model's prediction (perf/predict.c):
 * requests/s, response time, bottleneck, utilisation.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "model/model.h"
#include "cli/cli.h"
#include "perf/perf.h"
#include "sim/sim.h"

static const char *const usage[] = {
    "pagetune simulate --trace FILE --app-cache LIST [--app-policy NAME] "
    "[--cache-mode MODE] [--offload N] [--servers K] [--sharing POLICY] "
    "[--mrc [--sample-rate R] [--mrc-csv FILE]] [-o FILE] "
    "[--format table|json|csv]",
    "pagetune simulate --trace FILE --page-size LIST [--bufferpool LIST] "
    "[--policy NAME] [--engine NAME|FILE] [--device NAME|FILE] "
    "[--app-cache LIST ...] [--mrc [--sample-rate R] [--mrc-csv FILE]] "
    "[--request-rate N] [--jobs N] [-o FILE] [--format table|json|csv]",
    "pagetune simulate ... --clients N [--think-ms Z] "
    "[--calibration NAME|FILE] [--appserver NAME|FILE] [--fscache-share F] "
    "[--page-fscache-share F]",
    NULL,
};

static const char description[] =
    "Replay a trace (pagetune-trace(5) CSV or libCacheSim oracleGeneral)\n"
    "through an application cache of --app-cache entries per server and,\n"
    "with --page-size, through a database buffer pool at each page size:\n"
    "rows are placed into pages by the engine's page-fit rules; objects that\n"
    "do not fit in the row cost direct I/O (DB2 LONG VARCHAR / LOB) or\n"
    "overflow pages. Without --page-size only the application tier is\n"
    "simulated. --bufferpool sizes given in bytes (8M, 1G) compare page\n"
    "sizes at equal memory; plain numbers are pages. The buffer pool runs\n"
    "the engine's own policy (its profile's buffer_pool_policy) unless\n"
    "--policy names another. --mrc adds a miss-ratio curve: LRU's exact in\n"
    "one pass (SHARDS with --sample-rate < 1), any other policy's by\n"
    "miniature simulation at rate R. --jobs N runs the grid and the curve\n"
    "points in N threads; the output is the same for every N.\n"
    "--clients N predicts requests/s and response time of N clients per\n"
    "configuration (performance model, pagetune-simulate(1) MODEL);\n"
    "without --calibration the figures are labelled uncalibrated.";

enum {
    OPT_BUFFERPOOL = CLI_OPT_FIRST_CUSTOM,
    OPT_POLICY,
    OPT_APP_POLICY,
};

struct sim_args {
    struct sim_plan plan; /* what to simulate */
    int mode;             /* --cache-mode (enum sim_cache_mode), -1 = default */
    int trace_format;     /* --trace-format (enum sim_trace_format) */
    int sharing;          /* --sharing (enum sim_sharing) */
    uint64_t servers;     /* --servers */
    const char *mrc_csv;
    uint64_t clients;           /* --clients, 0 = no prediction */
    double think_ms;            /* --think-ms */
    int model_opt;              /* a model option other than --clients */
    struct perf_profiles model; /* profiles of the model */
};

/* The orders of enum sim_cache_mode and sim_sharing. */
static const char *const cache_modes[] = {"none", "command", "distributed-map",
                                          NULL};
static const char *const sharings[] = {"not-shared", "shared-push",
                                       "shared-pull", "shared-push-pull", NULL};

#define A struct sim_args
static const struct cli_option opts[] = {
    {.name = "trace",
     .group = CLI_G_INPUT,
     .type = CLI_T_PATH,
     CLI_AT(A, plan.trace),
     .io = CLI_IO_IN,
     .arg_name = "FILE",
     .help = "trace to replay; - reads stdin",
     .required = 1},
    {.name = "trace-format",
     .group = CLI_G_INPUT,
     .type = CLI_T_ENUM,
     CLI_AT(A, trace_format),
     .choices = cli_trace_formats,
     .help = "trace file format (binary: oracleGeneral)",
     .def = "auto, by content"},
    {.name = "app-cache",
     .group = CLI_G_APP_CACHE,
     .short_name = 'a',
     .type = CLI_T_SIZE_LIST,
     CLI_LIST(A, plan.app_entries, plan.n_app),
     .min = 1,
     .max = 0xfffffff0ULL,
     .arg_name = "LIST",
     .help = "application cache entries per server, one run each, e.g. "
             "10000,100000",
     .def = "none"},
    {.name = "app-policy",
     .group = CLI_G_APP_CACHE,
     .has_arg = required_argument,
     .id = OPT_APP_POLICY,
     .arg_name = "NAME",
     .help = "application cache eviction policy",
     .def = "lru",
     .complete = CLI_C_POLICY},
    {.name = "cache-mode",
     .group = CLI_G_APP_CACHE,
     .type = CLI_T_ENUM,
     CLI_AT(A, mode),
     .choices = cache_modes,
     .help = "application cache mode",
     .def = "distributed-map with --app-cache, else none"},
    {.name = "offload",
     .group = CLI_G_APP_CACHE,
     .type = CLI_T_UINT,
     CLI_AT(A, plan.offload_entries),
     .max = 0xfffffff0ULL,
     .arg_name = "N",
     .help = "disk-offload entries per server, 0 = off",
     .def = "0"},
    {.name = "servers",
     .group = CLI_G_APP_CACHE,
     .type = CLI_T_UINT,
     CLI_AT(A, servers),
     .min = 1,
     .max = SIM_MAX_SERVERS,
     .arg_name = "K",
     .help = "application servers, requests spread round-robin",
     .def = "1"},
    {.name = "sharing",
     .group = CLI_G_APP_CACHE,
     .type = CLI_T_ENUM,
     CLI_AT(A, sharing),
     .choices = sharings,
     .help = "how the servers' caches share entries",
     .def = "not-shared"},
    {.name = "page-size",
     .group = CLI_G_BUFFER_POOL,
     .type = CLI_T_SIZE_LIST,
     CLI_LIST(A, plan.page_sizes, plan.n_page_sizes),
     .max = UINT64_MAX,
     .arg_name = "LIST",
     .help = "database page sizes, e.g. 4K,8K,16K,32K",
     .def = "none, application tier only"},
    {.name = "bufferpool",
     .group = CLI_G_BUFFER_POOL,
     .short_name = 'b',
     .has_arg = required_argument,
     .id = OPT_BUFFERPOOL,
     .arg_name = "LIST",
     .help = "buffer-pool sizes: pages (1000) or bytes (64M)",
     .def = "16M"},
    {.name = "policy",
     .group = CLI_G_BUFFER_POOL,
     .has_arg = required_argument,
     .id = OPT_POLICY,
     .arg_name = "NAME",
     .help = "buffer-pool eviction policy",
     .def = "the engine's buffer_pool_policy",
     .complete = CLI_C_POLICY},
    {.name = "engine",
     .group = CLI_G_BUFFER_POOL,
     .short_name = 'e',
     .type = CLI_T_STRING,
     CLI_AT(A, plan.engine_name),
     .io = CLI_IO_PROFILE,
     .arg_name = "NAME|FILE",
     .help = "engine profile with the page-fit rules",
     .def = "db2",
     .complete = CLI_C_ENGINE},
    {.name = "device",
     .group = CLI_G_BUFFER_POOL,
     .type = CLI_T_STRING,
     CLI_AT(A, plan.device_name),
     .io = CLI_IO_PROFILE,
     .arg_name = "NAME|FILE",
     .help = "device profile for the I/O time estimate",
     .def = "ssd",
     .complete = CLI_C_DEVICE},
    {.name = "mrc",
     .group = CLI_G_SIMULATION,
     .type = CLI_T_FLAG,
     CLI_AT(A, plan.mrc),
     .help = "add LRU miss-ratio curves per page size",
     .def = "off"},
    {.name = "sample-rate",
     .group = CLI_G_SIMULATION,
     .type = CLI_T_DOUBLE,
     CLI_AT(A, plan.sample_rate),
     .dmin = 0,
     .dmin_open = 1,
     .dmax = 1,
     .arg_name = "R",
     .help = "sampling rate of --mrc (SHARDS or miniature "
             "simulation); 1 = exact",
     .def = "1"},
    {.name = "request-rate",
     .group = CLI_G_SIMULATION,
     .type = CLI_T_DOUBLE,
     CLI_AT(A, plan.request_rate),
     .dmin = 0,
     .dmin_open = 1,
     .dmax = 1e9,
     .arg_name = "N",
     .help = "requests per second for policy time (InnoDB's "
             "old blocks time)",
     .def = "the trace's time stamps"},
    {.name = "jobs",
     .group = CLI_G_SIMULATION,
     .type = CLI_T_UINT,
     CLI_AT(A, plan.jobs),
     .min = 1,
     .max = SIM_MAX_JOBS,
     .arg_name = "N",
     .help = "threads for the grid and the curves",
     .def = "the cores available"},
    {.name = "mrc-csv",
     .group = CLI_G_OUTPUT,
     .type = CLI_T_PATH,
     CLI_AT(A, mrc_csv),
     .io = CLI_IO_OUT,
     .arg_name = "FILE",
     .help = "also write the curves as CSV for plotting",
     .def = "none"},
    {.name = "seed",
     .group = CLI_G_SIMULATION,
     .type = CLI_T_UINT,
     CLI_AT(A, plan.seed),
     .max = UINT64_MAX,
     .arg_name = "S",
     .help = "seed for random eviction and sampling",
     .def = "1"},
    /* the performance model (pagetune-simulate(1) MODEL) */
    {.name = "clients",
     .group = CLI_G_MODEL,
     .type = CLI_T_UINT,
     CLI_AT(A, clients),
     .min = 1,
     .max = 100000,
     .arg_name = "N",
     .help = "predict requests/s and response time for N clients",
     .def = "no prediction"},
    CLI_OPT_MODEL_ENTRIES(A),
    CLI_OPT_PAGE_FSCACHE_ENTRY(A, CLI_GIVEN(A, model_opt)),
    CLI_OPT_OUTPUT_ENTRY,
    CLI_OPT_COMMON_ENTRIES_END,
};
#undef A

static const char *const examples[] = {
    "hit ratios of an application cache of 10000 and 100000 entries",
    "pagetune simulate --trace trace.csv --app-cache 10000,100000",
    "page sizes at equal pool memory, with miss-ratio curves",
    "pagetune simulate --trace trace.csv --page-size 4K,8K,16K,32K "
    "--bufferpool 64M --mrc",
    "two servers sharing their caches, as JSON",
    "pagetune simulate --trace trace.csv --app-cache 5000 --servers 2 "
    "--sharing shared-push --json -o sim.json",
    NULL,
};

CLI_SPEC_DEFINE(simulate);

/* --jobs by default: the cores online, 1..SIM_MAX_JOBS. */
static unsigned cores_available(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);

    return n < 1 ? 1 : n > SIM_MAX_JOBS ? SIM_MAX_JOBS : (unsigned)n;
}

static int policy_arg(const char *opt, const char *arg,
                      const struct sim_policy_ops **out)
{
    char names[256];

    *out = sim_policy_find(arg);
    if (*out)
        return 0;
    cli_usage_error("simulate", "%s: unknown policy '%s' (known: %s)", opt, arg,
                    sim_policy_names(names, sizeof(names)));
    return PT_EUSAGE;
}

/* "1000,64M": plain numbers are pages, a suffix makes bytes. */
static int pool_list_parse(const char *s, struct sim_plan *pl)
{
    struct pt_err err;
    char item[64];
    const char *p = s;

    pl->n_pools = 0;
    for (;;) {
        const char *comma = strchr(p, ',');
        size_t n = comma ? (size_t)(comma - p) : strlen(p);
        struct sim_pool_size *pa;
        if (n == 0 || n >= sizeof(item) || pl->n_pools == SIM_MAX_POOLS) {
            cli_usage_error("simulate",
                            "--bufferpool: '%s' is not a list of up to %d "
                            "sizes",
                            s, SIM_MAX_POOLS);
            return PT_EUSAGE;
        }
        memcpy(item, p, n);
        item[n] = '\0';
        pa = &pl->pools[pl->n_pools++];
        pa->bytes = item[n - 1] < '0' || item[n - 1] > '9';
        if (pt_size_parse(item, &pa->value, "--bufferpool", &err) < 0 ||
            pa->value == 0) {
            cli_usage_error("simulate",
                            "--bufferpool: '%s' is not a number of pages or "
                            "a byte size",
                            item);
            return PT_EUSAGE;
        }
        if (!comma)
            return 0;
        p = comma + 1;
    }
}

/* The options the command parses itself; PT_EINTERNAL for another id. */
static int parse_opt(int id, const char *arg, struct sim_args *a)
{
    struct sim_plan *pl = &a->plan;

    switch (id) {
    case OPT_BUFFERPOOL:
        return pool_list_parse(arg, pl);
    case OPT_POLICY:
        return policy_arg("--policy", arg, &pl->bp_policy);
    case OPT_APP_POLICY:
        return policy_arg("--app-policy", arg, &pl->app_policy);
    default:
        return PT_EINTERNAL;
    }
}

/* Options that only make sense together. */
static int check_args(struct sim_args *a)
{
    struct sim_plan *pl = &a->plan;

    pl->trace_format = (enum sim_trace_format)cli_trace_format(a->trace_format);
    pl->sharing = (enum sim_sharing)a->sharing;
    pl->servers = (unsigned)a->servers;
    if (!pl->trace) {
        cli_usage_error("simulate", "--trace FILE is required");
        return PT_EUSAGE;
    }
    if (a->mode < 0)
        a->mode = pl->n_app ? SIM_MODE_DMAP : SIM_MODE_NONE;
    pl->mode = (enum sim_cache_mode)a->mode;
    if (pl->mode != SIM_MODE_NONE && !pl->n_app) {
        cli_usage_error("simulate", "--cache-mode %s needs --app-cache N",
                        sim_cache_mode_name(pl->mode));
        return PT_EUSAGE;
    }
    if (pl->mode == SIM_MODE_NONE && pl->n_app) {
        cli_usage_error("simulate",
                        "--app-cache does not apply with --cache-mode none");
        return PT_EUSAGE;
    }
    if (pl->mode == SIM_MODE_NONE && !pl->n_page_sizes) {
        cli_usage_error("simulate", "nothing to simulate: give --app-cache N "
                                    "and/or --page-size LIST");
        return PT_EUSAGE;
    }
    if (a->model_opt && !a->clients) {
        cli_usage_error("simulate", "--think-ms, --calibration, --appserver, "
                                    "--fscache-share and --page-fscache-share "
                                    "need --clients N");
        return PT_EUSAGE;
    }
    if (!pl->jobs)
        pl->jobs = cores_available();
    if ((pl->sample_rate < 1.0 || a->mrc_csv) && !pl->mrc) {
        cli_usage_error("simulate", "--sample-rate and --mrc-csv need --mrc");
        return PT_EUSAGE;
    }
    return 0;
}

static int parse_args(int argc, char **argv, struct cli_common *c,
                      struct sim_args *a, struct cli_parser *p)
{
    const char *arg;
    int id, rc;

    memset(a, 0, sizeof(*a));
    sim_plan_init(&a->plan);
    perf_profiles_init(&a->model);
    a->mode = -1;
    a->trace_format = 0; /* auto */
    a->sharing = (int)a->plan.sharing;
    a->servers = a->plan.servers;
    cli_common_init(c);
    if (cli_parse_spec(p, &cli_spec_simulate, a, argc, argv) < 0)
        return PT_EINTERNAL;
    while ((id = cli_next(p, c, &arg)) != CLI_NEXT_END) {
        if (id == CLI_NEXT_HELP)
            return CLI_HELP_SHOWN;
        if (id == CLI_NEXT_USAGE)
            return PT_EUSAGE;
        if ((rc = parse_opt(id, arg, a)) != 0)
            return rc;
    }
    return check_args(a);
}

/* ---- output -------------------------------------------------------------
 */

/* ---- predictions ---------------------------------------------------------
 * The performance model's columns: a table of their own in table format,
 * appended to the result rows in CSV (one line per configuration).
 */

#define PRED_CSV_COLS (11 + PERF_N_CENTRES)
static const char *const pred_csv_h[PRED_CSV_COLS - PERF_N_CENTRES] = {
    ">predicted_clients",        ">predicted_think_ms",
    ">predicted_req_per_s",      ">predicted_req_per_s_lo",
    ">predicted_req_per_s_hi",   ">predicted_response_ms",
    ">predicted_response_ms_lo", ">predicted_response_ms_hi",
    "predicted_bottleneck",      "predicted_calibrated",
    "predicted_calibration",
};

/* The CSV headers of a table of n_base columns plus the predictions. */
static int pred_csv_init(struct out_table *t, size_t n_base,
                         const char *const *base, const struct sim_predicted *p)
{
    char util_h[PERF_N_CENTRES][SIM_PRED_NAME + 24]; /* copied by init */
    const char *h[11 + PRED_CSV_COLS];
    size_t n = 0;

    for (size_t i = 0; i < n_base; i++)
        h[n++] = base[i];
    for (size_t i = 0; i < PRED_CSV_COLS - PERF_N_CENTRES; i++)
        h[n++] = pred_csv_h[i];
    for (size_t k = 0; k < p->n_util && k < PERF_N_CENTRES; k++) {
        snprintf(util_h[k], sizeof(util_h[k]), ">predicted_util_%s",
                 p->util[k].name);
        h[n++] = util_h[k];
    }
    return out_table_init(t, n, h);
}

static void pred_csv_cells(struct out_table *t, size_t col,
                           const struct sim_predicted *p)
{
    char b[400];

    out_table_setf(t, col++, "%u", p->clients);
    out_table_setf(t, col++, "%s", pt_csv_num(p->think_ms, b, sizeof(b)));
    out_table_setf(t, col++, "%s", pt_csv_num(p->req_per_s, b, sizeof(b)));
    if (p->has_range) {
        out_table_setf(t, col++, "%s",
                       pt_csv_num(p->req_per_s_lo, b, sizeof(b)));
        out_table_setf(t, col++, "%s",
                       pt_csv_num(p->req_per_s_hi, b, sizeof(b)));
    } else {
        out_table_setf(t, col++, "%s", "");
        out_table_setf(t, col++, "%s", "");
    }
    out_table_setf(t, col++, "%s", pt_csv_num(p->response_ms, b, sizeof(b)));
    if (p->has_range) {
        out_table_setf(t, col++, "%s",
                       pt_csv_num(p->response_ms_lo, b, sizeof(b)));
        out_table_setf(t, col++, "%s",
                       pt_csv_num(p->response_ms_hi, b, sizeof(b)));
    } else {
        out_table_setf(t, col++, "%s", "");
        out_table_setf(t, col++, "%s", "");
    }
    out_table_setf(t, col++, "%s", p->bottleneck);
    out_table_setf(t, col++, "%s", p->calibrated ? "true" : "false");
    out_table_setf(t, col++, "%s", p->calibrated ? p->calibration : "");
    for (size_t k = 0; k < p->n_util && k < PERF_N_CENTRES; k++)
        out_table_setf(t, col++, "%s",
                       pt_csv_num(p->util[k].util, b, sizeof(b)));
}

/* Table format: one row per configuration, ranges as "lo..hi". */
static int write_pred_table(FILE *fp, const struct sim_plan_result *res,
                            struct pt_err *err)
{
    static const char *const cal_h[] = {
        ">app entries", ">page",  ">pool pages", ">req/s", ">range",
        ">response ms", ">range", "bottleneck",  ">busy %"};
    static const char *const unc_h[] = {
        ">app entries", ">page",
        ">pool pages",  ">req/s (uncalibrated)",
        ">range",       ">response ms (uncalibrated)",
        ">range",       "bottleneck",
        ">busy %"};
    const struct sim_predicted *p0 = &res->rows[0].predicted;
    struct out_table t;
    char b1[32];
    int ret;

    fputc('\n', fp);
    if ((ret = out_table_init(&t, 9, p0->calibrated ? cal_h : unc_h)) < 0)
        return err_set(err, ret, "out of memory");
    if (p0->calibrated)
        out_table_set_title(&t,
                            "predicted for %u clients, think %g ms, "
                            "calibration %s (range: +- its largest residual)",
                            p0->clients, p0->think_ms, p0->calibration);
    else
        out_table_set_title(&t,
                            "predicted for %u clients, think %g ms: "
                            "UNCALIBRATED (costs are profile defaults, not "
                            "fitted to measurements; see --calibration)",
                            p0->clients, p0->think_ms);
    for (size_t i = 0; i < res->n_rows; i++) {
        const struct sim_result_row *r = &res->rows[i];
        const struct sim_predicted *p = &r->predicted;
        double busy = 0;

        for (size_t k = 0; k < p->n_util; k++)
            if (strcmp(p->util[k].name, p->bottleneck) == 0)
                busy = p->util[k].util;
        out_table_add_row(&t);
        if (res->mode)
            out_table_setf(&t, 0, "%llu", (unsigned long long)r->app_entries);
        else
            out_table_setf(&t, 0, "-");
        if (r->has_db) {
            out_table_setf(&t, 1, "%s",
                           pt_size_format(r->db.page_size_bytes, b1, 32));
            out_table_setf(&t, 2, "%llu", (unsigned long long)r->db.pool_pages);
        } else {
            out_table_setf(&t, 1, "-");
            out_table_setf(&t, 2, "-");
        }
        out_table_setf(&t, 3, "%.2f", p->req_per_s);
        if (p->has_range)
            out_table_setf(&t, 4, "%.1f..%.1f", p->req_per_s_lo,
                           p->req_per_s_hi);
        else
            out_table_setf(&t, 4, "n/a");
        out_table_setf(&t, 5, "%.1f", p->response_ms);
        if (p->has_range)
            out_table_setf(&t, 6, "%.0f..%.0f", p->response_ms_lo,
                           p->response_ms_hi);
        else
            out_table_setf(&t, 6, "n/a");
        out_table_setf(&t, 7, "%s", p->bottleneck);
        out_table_setf(&t, 8, "%.1f", 100 * busy);
    }
    ret = out_table_write(&t, OUT_TABLE, fp, err);
    out_table_release(&t);
    return ret;
}

static void app_row(struct out_table *t, const struct sim_plan_result *res,
                    const struct sim_result_row *r)
{
    const struct sim_app_stats *s = &r->app;
    double ratio;

    out_table_add_row(t);
    if (res->mode)
        out_table_setf(t, 0, "%llu", (unsigned long long)r->app_entries);
    else
        out_table_setf(t, 0, "-"), out_table_set_raw(t, 0, "%s", "");
    out_table_setf(t, 1, "%llu", (unsigned long long)s->gets);
    out_table_setf(t, 2, "%llu", (unsigned long long)s->hits);
    out_table_setf(t, 3, "%llu", (unsigned long long)s->misses);
    if (sim_app_miss_ratio(s, &ratio) == 0)
        out_table_setf(t, 4, "%.4f", ratio), out_table_set_num(t, 4, ratio);
    else
        out_table_setf(t, 4, "n/a"), out_table_set_raw(t, 4, "%s", "");
    out_table_setf(t, 5, "%llu", (unsigned long long)s->offload_hits);
    out_table_setf(t, 6, "%llu", (unsigned long long)s->replication_messages);
    out_table_setf(t, 7, "%llu", (unsigned long long)s->peer_fetches);
    out_table_setf(t, 8, "%llu", (unsigned long long)s->db_reads);
    out_table_setf(t, 9, "%llu", (unsigned long long)s->db_writes);
    out_table_setf(t, 10, "%.1f", s->cost_ms);
    out_table_set_num(t, 10, s->cost_ms);
}

/* The application tier: one row per run (a run's first result row). */
static int write_app_table(FILE *fp, enum out_format fmt,
                           const struct sim_plan *pl,
                           const struct sim_plan_result *res,
                           struct pt_err *err)
{
    static const char *const app_h[] = {
        ">app entries", ">gets",         ">hits",      ">misses",
        ">miss ratio",  ">offload hits", ">repl msgs", ">peer fetches",
        ">db reads",    ">db writes",    ">cost ms"};
    size_t per_run = pl->n_page_sizes ? pl->n_page_sizes * pl->n_pools : 1;
    struct out_table t;
    char b1[32];
    int ret;

    int pred = fmt == OUT_CSV && res->n_rows && res->rows[0].predicted.present;

    if ((ret = pred ? pred_csv_init(&t, 11, app_h, &res->rows[0].predicted)
                    : out_table_init(&t, 11, app_h)) < 0)
        return err_set(err, ret, "out of memory");
    out_table_set_title(
        &t,
        "application tier of %s: %s, %s, %llu server(s) %s%s%s; %llu "
        "distinct keys",
        res->trace, sim_cache_mode_name(res->mode),
        res->mode ? res->app_policy : "-", (unsigned long long)res->servers,
        sim_sharing_name(res->sharing),
        res->offload_entries ? ", disk offload " : "",
        res->offload_entries
            ? pt_size_format(res->offload_entries, b1, sizeof(b1))
            : "",
        (unsigned long long)res->distinct_keys);
    for (size_t i = 0; i < res->n_rows; i += per_run) {
        app_row(&t, res, &res->rows[i]);
        if (pred)
            pred_csv_cells(&t, 11, &res->rows[i].predicted);
    }
    ret = out_table_write(&t, fmt, fp, err);
    out_table_release(&t);
    return ret;
}

static void db_row(struct out_table *t, const struct sim_plan_result *res,
                   const struct sim_result_row *r)
{
    const struct sim_db_stats *d = &r->db;
    uint64_t acc = d->inline_accesses + d->outline_accesses;
    double ratio;
    char b1[32];

    out_table_add_row(t);
    if (res->mode)
        out_table_setf(t, 0, "%llu", (unsigned long long)r->app_entries);
    else
        out_table_setf(t, 0, "-"), out_table_set_raw(t, 0, "%s", "");
    out_table_setf(t, 1, "%s", pt_size_format(d->page_size_bytes, b1, 32));
    out_table_set_raw(t, 1, "%llu", (unsigned long long)d->page_size_bytes);
    out_table_setf(t, 2, "%llu", (unsigned long long)d->pool_pages);
    out_table_setf(t, 3, "%s",
                   pt_size_format(d->pool_pages * d->page_size_bytes, b1, 32));
    out_table_set_raw(t, 3, "%llu",
                      (unsigned long long)(d->pool_pages * d->page_size_bytes));
    out_table_setf(t, 4, "%llu", (unsigned long long)d->logical_reads);
    out_table_setf(t, 5, "%llu", (unsigned long long)d->physical_reads);
    if (sim_db_hit_ratio(d, &ratio) == 0)
        out_table_setf(t, 6, "%.4f", ratio), out_table_set_num(t, 6, ratio);
    else
        out_table_setf(t, 6, "n/a"), out_table_set_raw(t, 6, "%s", "");
    out_table_setf(t, 7, "%llu", (unsigned long long)d->direct_reads);
    out_table_setf(t, 8, "%llu", (unsigned long long)d->direct_writes);
    if (acc) {
        double pct = 100.0 * (double)d->outline_accesses / (double)acc;
        out_table_setf(t, 9, "%.1f", pct);
        out_table_set_num(t, 9, pct);
    } else
        out_table_setf(t, 9, "n/a"), out_table_set_raw(t, 9, "%s", "");
    out_table_setf(t, 10, "%.1f", d->io_ms);
    out_table_set_num(t, 10, d->io_ms);
}

static int write_db_table(FILE *fp, enum out_format fmt,
                          const struct sim_plan_result *res, struct pt_err *err)
{
    static const char *const db_h[] = {
        /* shown|CSV header (the CSV takes raw bytes) */
        ">app entries|app_entries",
        ">page|page_size_bytes",
        ">pool pages|bufferpool_pages",
        ">pool bytes|bufferpool_bytes",
        ">logical|logical_reads",
        ">physical|physical_reads",
        ">hit ratio|hit_ratio",
        ">direct reads|direct_reads",
        ">direct writes|direct_writes",
        ">outline %|outline_pct",
        ">io ms|io_ms"};
    int pred = fmt == OUT_CSV && res->n_rows && res->rows[0].predicted.present;
    struct out_table t;
    int ret;

    if ((ret = pred ? pred_csv_init(&t, 11, db_h, &res->rows[0].predicted)
                    : out_table_init(&t, 11, db_h)) < 0)
        return err_set(err, ret, "out of memory");
    out_table_set_title(&t,
                        "database tier: engine %s, device %s, buffer pool "
                        "%s",
                        res->engine, res->device, res->bp_policy);
    for (size_t i = 0; i < res->n_rows; i++) {
        db_row(&t, res, &res->rows[i]);
        if (pred)
            pred_csv_cells(&t, 11, &res->rows[i].predicted);
    }
    ret = out_table_write(&t, fmt, fp, err);
    out_table_release(&t);
    return ret;
}

/* The curves, compactly: hit ratio at the brief log-spaced sizes and at
 * the sizes simulated; a note marks those and, on a sampled curve, sizes
 * below 1/R (extrapolated, docs/models.md#mrc). */
static int write_curve_table(FILE *fp, const struct sim_plan *pl,
                             const struct sim_plan_result *res,
                             struct pt_err *err)
{
    static const char *const mh[] = {"curve", ">size", ">hit ratio", "note"};
    struct out_table t;
    char b1[32];
    int ret;

    fputc('\n', fp);
    if ((ret = out_table_init(&t, 4, mh)) < 0)
        return err_set(err, ret, "out of memory");
    out_table_set_title(&t, "%s miss-ratio curves (%s, R = %g)",
                        res->has_db ? res->bp_policy : res->app_policy,
                        pl->sample_rate >= 1.0 ? "exact"
                        : sim_policy_is_lru(sim_policy_find(
                              res->has_db ? res->bp_policy : res->app_policy))
                            ? "SHARDS"
                            : "miniature simulation",
                        pl->sample_rate);
    for (size_t k = 0; k < res->n_curves; k++) {
        const struct sim_curve *c = &res->curves[k];
        for (size_t j = 0; j < c->n_brief; j++) {
            out_table_add_row(&t);
            if (c->page_size_bytes)
                out_table_setf(&t, 0, "%s pages",
                               pt_size_format(c->page_size_bytes, b1, 32));
            else
                out_table_setf(&t, 0, "app entries");
            out_table_setf(&t, 1, "%llu", (unsigned long long)c->brief[j].size);
            out_table_setf(&t, 2, "%.4f", c->brief[j].hit_ratio);
            out_table_set_num(&t, 2, c->brief[j].hit_ratio);
            out_table_setf(
                &t, 3, "%s%s%s",
                !c->brief[j].given   ? ""
                : c->page_size_bytes ? "--bufferpool"
                                     : "--app-cache",
                c->brief[j].given && c->brief[j].extrapolated ? ", " : "",
                c->brief[j].extrapolated ? "extrapolated (below what R "
                                           "resolves)"
                                         : "");
        }
    }
    ret = out_table_write(&t, OUT_TABLE, fp, err);
    out_table_release(&t);
    return ret;
}

static int write_tables(FILE *fp, enum out_format fmt,
                        const struct sim_plan *pl,
                        const struct sim_plan_result *res, struct pt_err *err)
{
    int pred = res->n_rows && res->rows[0].predicted.present;
    int ret;

    if (fmt == OUT_TABLE || !pl->n_page_sizes) {
        ret = write_app_table(fp, fmt, pl, res, err);
        if (ret < 0)
            return ret;
        if (!pl->n_page_sizes)
            return fmt == OUT_TABLE && pred ? write_pred_table(fp, res, err)
                                            : 0;
        fputc('\n', fp);
    }
    ret = write_db_table(fp, fmt, res, err);
    if (ret < 0 || fmt != OUT_TABLE)
        return ret;
    if (pred && (ret = write_pred_table(fp, res, err)) < 0)
        return ret;
    return pl->mrc ? write_curve_table(fp, pl, res, err) : 0;
}

/* --mrc-csv: the curves' points, one line each. */
static int write_curve_csv(const struct cli_common *c, const char *path,
                           const struct sim_plan_result *res,
                           struct pt_err *err)
{
    struct pt_afile af = {0};
    int ret;

    if ((ret = pt_afile_open(&af, path, c->force, err)) < 0)
        return ret;
    if (sim_curves_write_csv(res, af.fp, err) < 0) {
        pt_afile_abort(&af);
        return err_set(err, PT_EIO, "cannot write '%s'", path);
    }
    return pt_afile_commit(&af, err);
}

/* What the writers below need of a run. */
struct sim_out {
    const struct sim_plan *pl;
    const struct sim_plan_result *res;
};

static json_t *output_json(const void *ctx)
{
    return sim_plan_result_to_json(((const struct sim_out *)ctx)->res);
}

static int output_tables(FILE *fp, enum out_format fmt, const void *ctx,
                         struct pt_err *err)
{
    const struct sim_out *o = ctx;
    return write_tables(fp, fmt, o->pl, o->res, err);
}

static int write_output(const struct cli_common *c, const struct sim_args *a,
                        const struct sim_plan *pl,
                        const struct sim_plan_result *res, struct pt_err *err)
{
    struct sim_out o = {pl, res};
    int ret = cli_output_write(c, output_json, output_tables, &o, err);

    if (ret < 0)
        return ret;
    if (a->mrc_csv)
        return write_curve_csv(c, a->mrc_csv, res, err);
    return 0;
}

/* ---- the run ------------------------------------------------------------
 */

/* The options as the step's request (perf/simulate.c). */
static void build_request(const struct sim_args *a, struct perf_sim_request *q)
{
    perf_sim_request_init(q);
    q->plan = a->plan;
    q->clients = (unsigned)a->clients;
    q->think_ms = a->think_ms;
    q->model = a->model;
}

static void on_progress(void *ctx, uint64_t pos, uint64_t size)
{
    struct cli_progress *pg = ctx;

    pg->total = size; /* the trace is opened by sim_plan_run */
    cli_progress_update(pg, pos);
}

int cmd_simulate(int argc, char **argv)
{
    struct cli_common c;
    struct cli_parser p;
    struct sim_args a;
    struct perf_sim_request q;
    struct pt_err err;
    struct sim_plan_result res = {0};
    struct cli_progress pg;
    int ret;

    err_clear(&err);
    if ((ret = parse_args(argc, argv, &c, &a, &p)) != 0)
        return cli_parse_exit(ret);
    build_request(&a, &q);
    if ((ret = perf_sim_prepare(&q, &err)) < 0 ||
        (ret = pt_output_check(c.output, c.force, &err)) < 0 ||
        (a.mrc_csv && (ret = pt_output_check(a.mrc_csv, c.force, &err)) < 0))
        goto fail;
    cli_progress_init(&pg, &c, "simulate", 0);
    q.plan.progress = on_progress;
    q.plan.progress_ctx = &pg;
    ret = perf_sim_run(&q, &res, &err);
    cli_progress_done(&pg);
    if (ret < 0)
        goto fail;
    if (res.requests == 0)
        cli_note(&c,
                 "trace '%s' has no requests: nothing was cached, ratios "
                 "are n/a",
                 q.plan.trace);
    if (q.clients && !q.model.calibration)
        cli_note(&c, "predictions are uncalibrated: the costs are the "
                     "profiles' defaults (see --calibration)");
    if ((ret = write_output(&c, &a, &q.plan, &res, &err)) < 0)
        goto fail;
    sim_plan_result_release(&res);
    return PT_EXIT_OK;
fail:
    sim_plan_result_release(&res);
    return cli_fail("simulate", &err);
}
