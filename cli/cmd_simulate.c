/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cmd_simulate.c — `pagetune simulate`: replay a trace through the
 * application-tier cache (DynaCache-like) and, with --page-size, through a
 * buffer pool per page size and pool size, placing rows by the engine's
 * page-fit rules; optionally build miss-ratio curves. The simulator is
 * sim/ (sim.h); this file parses options, loads the engine and device
 * profiles, owns the request loop (progress bar, interruption) and writes
 * the results as a table, CSV or JSON (design.md §4).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analyzers/analyzers.h"
#include "cli/cli.h"
#include "sim/sim.h"

#define MAX_APP 16

static const char *const usage[] = {
    "pagetune simulate --trace FILE --app-cache LIST [--app-policy NAME] "
    "[--cache-mode MODE] [--offload N] [--servers K] [--sharing POLICY] "
    "[--mrc [--sample-rate R] [--mrc-csv FILE]] [-o FILE] "
    "[--format table|json|csv]",
    "pagetune simulate --trace FILE --page-size LIST [--bufferpool LIST] "
    "[--policy NAME] [--engine NAME|FILE] [--device NAME|FILE] "
    "[--app-cache LIST ...] [--mrc [--sample-rate R] [--mrc-csv FILE]] "
    "[-o FILE] [--format table|json|csv]",
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
    "sizes at equal memory; plain numbers are pages. --mrc adds an exact\n"
    "one-pass LRU miss-ratio curve (or SHARDS with --sample-rate < 1).";

enum {
    OPT_TRACE = CLI_OPT_FIRST_CUSTOM,
    OPT_TRACE_FORMAT,
    OPT_ENGINE,
    OPT_DEVICE,
    OPT_PAGE_SIZE,
    OPT_BUFFERPOOL,
    OPT_POLICY,
    OPT_APP_CACHE,
    OPT_APP_POLICY,
    OPT_CACHE_MODE,
    OPT_OFFLOAD,
    OPT_SERVERS,
    OPT_SHARING,
    OPT_MRC,
    OPT_SAMPLE_RATE,
    OPT_MRC_CSV,
    OPT_SEED,
};

static const struct cli_option opts[] = {
    {"trace", 't', required_argument, OPT_TRACE, "FILE",
     "trace to replay; - reads stdin (required)"},
    {"trace-format", 0, required_argument, OPT_TRACE_FORMAT, "FMT",
     "auto, csv or oracle (default: auto, by content)"},
    {"app-cache", 'a', required_argument, OPT_APP_CACHE, "LIST",
     "application cache entries per server, one run each, e.g. "
     "10000,100000 (default: none)"},
    {"app-policy", 0, required_argument, OPT_APP_POLICY, "NAME",
     "application cache eviction policy (default: lru)"},
    {"cache-mode", 0, required_argument, OPT_CACHE_MODE, "MODE",
     "none, command or distributed-map (default: distributed-map with "
     "--app-cache, else none)"},
    {"offload", 0, required_argument, OPT_OFFLOAD, "N",
     "disk-offload entries per server, 0 = off (default: 0)"},
    {"servers", 'k', required_argument, OPT_SERVERS, "K",
     "application servers, requests spread round-robin (default: 1)"},
    {"sharing", 0, required_argument, OPT_SHARING, "POLICY",
     "not-shared, shared-push, shared-pull or shared-push-pull (default: "
     "not-shared)"},
    {"page-size", 'p', required_argument, OPT_PAGE_SIZE, "LIST",
     "database page sizes, e.g. 4K,8K,16K,32K (default: none, application "
     "tier only)"},
    {"bufferpool", 'b', required_argument, OPT_BUFFERPOOL, "LIST",
     "buffer-pool sizes: pages (1000) or bytes (64M) (default: 16M)"},
    {"policy", 0, required_argument, OPT_POLICY, "NAME",
     "buffer-pool eviction policy (default: lru)"},
    {"engine", 'e', required_argument, OPT_ENGINE, "NAME|FILE",
     "engine profile with the page-fit rules (default: db2)"},
    {"device", 'd', required_argument, OPT_DEVICE, "NAME|FILE",
     "device profile for the I/O time estimate (default: ssd)"},
    {"mrc", 0, no_argument, OPT_MRC, NULL,
     "add LRU miss-ratio curves per page size (default: off)"},
    {"sample-rate", 0, required_argument, OPT_SAMPLE_RATE, "R",
     "SHARDS sampling rate for --mrc in (0, 1]; 1 = exact (default: 1)"},
    {"mrc-csv", 0, required_argument, OPT_MRC_CSV, "FILE",
     "also write the curves as CSV for plotting (default: none)"},
    {"seed", 0, required_argument, OPT_SEED, "S",
     "seed for random eviction and sampling (default: 1)"},
    CLI_OPT_OUTPUT_ENTRY,
    CLI_OPT_FORMAT_ENTRIES,
    CLI_OPT_FORCE_ENTRY,
    CLI_OPT_QUIET_ENTRY,
    CLI_OPT_HELP_ENTRY,
    CLI_OPT_END,
};

struct pool_arg {
    uint64_t value;
    int bytes; /* 1: value is bytes, 0: pages */
};

struct sim_args {
    const char *trace;
    enum sim_trace_format trace_format;
    const char *engine;
    const char *device;
    uint64_t page_sizes[SIM_MAX_TIERS];
    int n_page_sizes;
    struct pool_arg pools[SIM_MAX_POOLS];
    int n_pools;
    const struct sim_policy_ops *bp_policy;
    uint64_t app[MAX_APP];
    int n_app;
    const struct sim_policy_ops *app_policy;
    int mode; /* -1 = default */
    uint64_t offload;
    uint64_t servers;
    enum sim_sharing sharing;
    int mrc;
    double sample_rate;
    const char *mrc_csv;
    uint64_t seed;
};

static const char *const mode_names[] = {"none", "command", "distributed-map"};
static const char *const sharing_names[] = {"not-shared", "shared-push",
                                            "shared-pull", "shared-push-pull"};

static int pick(const char *arg, const char *const *names, int n)
{
    int i;

    for (i = 0; i < n; i++)
        if (strcmp(arg, names[i]) == 0)
            return i;
    return -1;
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
static int pool_list_parse(const char *s, struct sim_args *a)
{
    struct pt_err err;
    char item[64];
    const char *p = s;

    a->n_pools = 0;
    for (;;) {
        const char *comma = strchr(p, ',');
        size_t n = comma ? (size_t)(comma - p) : strlen(p);
        struct pool_arg *pa;
        if (n == 0 || n >= sizeof(item) || a->n_pools == SIM_MAX_POOLS) {
            cli_usage_error("simulate",
                            "--bufferpool: '%s' is not a list of up to %d "
                            "sizes",
                            s, SIM_MAX_POOLS);
            return PT_EUSAGE;
        }
        memcpy(item, p, n);
        item[n] = '\0';
        pa = &a->pools[a->n_pools++];
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

static int parse_args(int argc, char **argv, struct cli_common *c,
                      struct sim_args *a, struct cli_parser *p)
{
    struct pt_err err;
    const char *arg;
    uint64_t tmp[MAX_APP];
    int id, rc, i;

    memset(a, 0, sizeof(*a));
    a->engine = "db2";
    a->device = "ssd";
    a->mode = -1;
    a->servers = 1;
    a->sample_rate = 1.0;
    a->seed = 1;
    a->pools[0].value = 16u << 20;
    a->pools[0].bytes = 1;
    a->n_pools = 1;
    cli_common_init(c);
    if (cli_parse_begin(p, "simulate", opts, usage, description, argc, argv) <
        0)
        return PT_EINTERNAL;
    while ((id = cli_next(p, c, &arg)) != CLI_NEXT_END) {
        if (id == CLI_NEXT_HELP)
            return CLI_HELP_SHOWN;
        if (id == CLI_NEXT_USAGE)
            return PT_EUSAGE;
        switch (id) {
        case OPT_TRACE:
            a->trace = arg;
            break;
        case OPT_TRACE_FORMAT:
            rc = pick(arg, (const char *const[]){"auto", "csv", "oracle"}, 3);
            if (rc < 0) {
                cli_usage_error("simulate",
                                "--trace-format: '%s' is not auto, csv or "
                                "oracle",
                                arg);
                return PT_EUSAGE;
            }
            a->trace_format = (enum sim_trace_format)rc;
            break;
        case OPT_ENGINE:
            a->engine = arg;
            break;
        case OPT_DEVICE:
            a->device = arg;
            break;
        case OPT_PAGE_SIZE:
            rc = pt_size_list_parse(arg, a->page_sizes, SIM_MAX_TIERS,
                                    "--page-size", &err);
            if (rc < 0) {
                cli_usage_error("simulate", "%s", err.msg);
                return PT_EUSAGE;
            }
            a->n_page_sizes = rc;
            break;
        case OPT_BUFFERPOOL:
            if (pool_list_parse(arg, a))
                return PT_EUSAGE;
            break;
        case OPT_POLICY:
            if (policy_arg("--policy", arg, &a->bp_policy))
                return PT_EUSAGE;
            break;
        case OPT_APP_POLICY:
            if (policy_arg("--app-policy", arg, &a->app_policy))
                return PT_EUSAGE;
            break;
        case OPT_APP_CACHE:
            rc = pt_size_list_parse(arg, tmp, MAX_APP, "--app-cache", &err);
            if (rc < 0) {
                cli_usage_error("simulate", "%s", err.msg);
                return PT_EUSAGE;
            }
            for (i = 0; i < rc; i++) {
                if (tmp[i] < 1 || tmp[i] > 0xfffffff0ULL) {
                    cli_usage_error("simulate",
                                    "--app-cache: %llu entries is out of "
                                    "range",
                                    (unsigned long long)tmp[i]);
                    return PT_EUSAGE;
                }
                a->app[i] = tmp[i];
            }
            a->n_app = rc;
            break;
        case OPT_CACHE_MODE:
            a->mode = pick(arg, mode_names, 3);
            if (a->mode < 0) {
                cli_usage_error("simulate",
                                "--cache-mode: '%s' is not none, command or "
                                "distributed-map",
                                arg);
                return PT_EUSAGE;
            }
            break;
        case OPT_OFFLOAD:
            if (pt_u64_parse(arg, &a->offload, "--offload", &err) < 0 ||
                a->offload > 0xfffffff0ULL) {
                cli_usage_error("simulate",
                                "--offload: '%s' is not a number of entries",
                                arg);
                return PT_EUSAGE;
            }
            break;
        case OPT_SERVERS:
            if (pt_u64_parse(arg, &a->servers, "--servers", &err) < 0 ||
                a->servers < 1 || a->servers > SIM_MAX_SERVERS) {
                cli_usage_error("simulate",
                                "--servers: '%s' is not a count from 1 to %d",
                                arg, SIM_MAX_SERVERS);
                return PT_EUSAGE;
            }
            break;
        case OPT_SHARING:
            rc = pick(arg, sharing_names, 4);
            if (rc < 0) {
                cli_usage_error("simulate",
                                "--sharing: '%s' is not not-shared, "
                                "shared-push, shared-pull or "
                                "shared-push-pull",
                                arg);
                return PT_EUSAGE;
            }
            a->sharing = (enum sim_sharing)rc;
            break;
        case OPT_MRC:
            a->mrc = 1;
            break;
        case OPT_SAMPLE_RATE:
            if (pt_double_parse(arg, &a->sample_rate, "--sample-rate", &err) <
                    0 ||
                !(a->sample_rate > 0.0) || a->sample_rate > 1.0) {
                cli_usage_error("simulate",
                                "--sample-rate: '%s' is not in (0, 1]", arg);
                return PT_EUSAGE;
            }
            break;
        case OPT_MRC_CSV:
            a->mrc_csv = arg;
            break;
        case OPT_SEED:
            if (pt_u64_parse(arg, &a->seed, "--seed", &err) < 0) {
                cli_usage_error("simulate", "%s", err.msg);
                return PT_EUSAGE;
            }
            break;
        default:
            return PT_EINTERNAL;
        }
    }
    if (!a->trace) {
        cli_usage_error("simulate", "--trace FILE is required");
        return PT_EUSAGE;
    }
    if (a->mode < 0)
        a->mode = a->n_app ? SIM_MODE_DMAP : SIM_MODE_NONE;
    if (a->mode != SIM_MODE_NONE && !a->n_app) {
        cli_usage_error("simulate", "--cache-mode %s needs --app-cache N",
                        mode_names[a->mode]);
        return PT_EUSAGE;
    }
    if (a->mode == SIM_MODE_NONE && a->n_app) {
        cli_usage_error("simulate",
                        "--app-cache does not apply with --cache-mode none");
        return PT_EUSAGE;
    }
    if (a->mode == SIM_MODE_NONE && !a->n_page_sizes) {
        cli_usage_error("simulate", "nothing to simulate: give --app-cache N "
                                    "and/or --page-size LIST");
        return PT_EUSAGE;
    }
    if ((a->sample_rate < 1.0 || a->mrc_csv) && !a->mrc) {
        cli_usage_error("simulate", "--sample-rate and --mrc-csv need --mrc");
        return PT_EUSAGE;
    }
    if (!a->n_app)
        a->n_app = 1; /* one run, mode none */
    return 0;
}

/* ---- output -------------------------------------------------------------
 */

static json_t *ratio_json(uint64_t num, uint64_t den)
{
    return den ? json_real((double)num / (double)den) : json_null();
}

static json_t *app_json(const struct sim_app_stats *s)
{
    json_t *o = json_object();

    json_object_set_new(o, "requests", json_integer((json_int_t)s->requests));
    json_object_set_new(o, "gets", json_integer((json_int_t)s->gets));
    json_object_set_new(o, "sets", json_integer((json_int_t)s->sets));
    json_object_set_new(o, "dels", json_integer((json_int_t)s->dels));
    json_object_set_new(o, "hits", json_integer((json_int_t)s->hits));
    json_object_set_new(o, "misses", json_integer((json_int_t)s->misses));
    json_object_set_new(o, "miss_ratio", ratio_json(s->misses, s->gets));
    json_object_set_new(o, "offload_hits",
                        json_integer((json_int_t)s->offload_hits));
    json_object_set_new(o, "replication_messages",
                        json_integer((json_int_t)s->replication_messages));
    json_object_set_new(o, "peer_fetches",
                        json_integer((json_int_t)s->peer_fetches));
    json_object_set_new(o, "db_reads", json_integer((json_int_t)s->db_reads));
    json_object_set_new(o, "db_writes", json_integer((json_int_t)s->db_writes));
    json_object_set_new(o, "cost_ms", json_real(s->cost_ms));
    return o;
}

static json_t *db_json(json_t *o, const struct sim_db_stats *d)
{
    json_t *bp = json_object();

    json_object_set_new(o, "page_size", json_integer(d->page_size_bytes));
    json_object_set_new(o, "bufferpool_pages",
                        json_integer((json_int_t)d->pool_pages));
    json_object_set_new(
        o, "bufferpool_bytes",
        json_integer((json_int_t)(d->pool_pages * d->page_size_bytes)));
    json_object_set_new(bp, "logical_reads",
                        json_integer((json_int_t)d->logical_reads));
    json_object_set_new(bp, "physical_reads",
                        json_integer((json_int_t)d->physical_reads));
    json_object_set_new(bp, "physical_writes",
                        json_integer((json_int_t)d->physical_writes));
    json_object_set_new(bp, "hit_ratio",
                        d->logical_reads
                            ? json_real(1.0 - (double)d->physical_reads /
                                                  (double)d->logical_reads)
                            : json_null());
    json_object_set_new(o, "bufferpool", bp);
    json_object_set_new(o, "direct_reads",
                        json_integer((json_int_t)d->direct_reads));
    json_object_set_new(o, "direct_read_reqs",
                        json_integer((json_int_t)d->direct_read_reqs));
    json_object_set_new(o, "direct_writes",
                        json_integer((json_int_t)d->direct_writes));
    json_object_set_new(o, "direct_write_reqs",
                        json_integer((json_int_t)d->direct_write_reqs));
    json_object_set_new(o, "inline_accesses",
                        json_integer((json_int_t)d->inline_accesses));
    json_object_set_new(o, "outline_accesses",
                        json_integer((json_int_t)d->outline_accesses));
    json_object_set_new(o, "too_big", json_integer((json_int_t)d->too_big));
    json_object_set_new(o, "pages_used",
                        json_integer((json_int_t)d->pages_used));
    json_object_set_new(o, "io_ms", json_real(d->io_ms));
    return o;
}

/* Curve sizes: ~40 log-spaced points from 1 to the largest useful size. */
static size_t curve_sizes(struct sim_mrc *m, uint64_t *sizes, size_t max)
{
    uint64_t top = sim_mrc_max_size(m), last = 0;
    size_t n = 0, i;

    if (top < 1)
        return 0;
    for (i = 0; i < max; i++) {
        double f = max > 1 ? (double)i / (double)(max - 1) : 1.0;
        uint64_t s = (uint64_t)llround(pow((double)top, f));
        if (s <= last)
            continue;
        sizes[n++] = last = s;
    }
    return n;
}

struct run {
    struct sim *sim;
    uint64_t app_entries;
    struct sim_config cfg;
};

static json_t *curves_json(struct run *r0)
{
    json_t *arr = json_array();
    uint64_t sizes[48];
    size_t t, i, n;
    size_t n_curves = r0->cfg.n_tiers ? r0->cfg.n_tiers : 1;

    for (t = 0; t < n_curves; t++) {
        struct sim_mrc *m = sim_curve(r0->sim, t);
        json_t *o = json_object(), *pts = json_array();
        if (!m)
            continue;
        if (r0->cfg.n_tiers)
            json_object_set_new(o, "page_size",
                                json_integer(r0->cfg.tiers[t].page_size_bytes));
        else
            json_object_set_new(o, "tier", json_string("app"));
        json_object_set_new(o, "sample_rate", json_real(r0->cfg.sample_rate));
        n = curve_sizes(m, sizes, 40);
        for (i = 0; i < n; i++) {
            json_t *pt = json_object();
            json_object_set_new(pt, r0->cfg.n_tiers ? "pages" : "entries",
                                json_integer((json_int_t)sizes[i]));
            if (r0->cfg.n_tiers)
                json_object_set_new(
                    pt, "bytes",
                    json_integer(
                        (json_int_t)(sizes[i] *
                                     r0->cfg.tiers[t].page_size_bytes)));
            json_object_set_new(pt, "hit_ratio",
                                json_real(sim_mrc_hit_ratio(m, sizes[i])));
            json_array_append_new(pts, pt);
        }
        json_object_set_new(o, "points", pts);
        json_array_append_new(arr, o);
    }
    return arr;
}

static int write_curve_csv(const struct cli_common *c, const char *path,
                           struct run *r0, struct pt_err *err)
{
    struct pt_afile af = {0};
    uint64_t sizes[48];
    size_t t, i, n;
    size_t n_curves = r0->cfg.n_tiers ? r0->cfg.n_tiers : 1;
    int ret;

    if ((ret = pt_afile_open(&af, path, c->force, err)) < 0)
        return ret;
    fprintf(af.fp, "tier,page_size,size,bytes,hit_ratio,miss_ratio\n");
    for (t = 0; t < n_curves; t++) {
        struct sim_mrc *m = sim_curve(r0->sim, t);
        uint32_t ps = r0->cfg.n_tiers ? r0->cfg.tiers[t].page_size_bytes : 0;
        if (!m)
            continue;
        n = curve_sizes(m, sizes, 40);
        for (i = 0; i < n; i++) {
            double h = sim_mrc_hit_ratio(m, sizes[i]);
            fprintf(af.fp, "%s,%u,%llu,%llu,%.6f,%.6f\n",
                    ps ? "bufferpool" : "app", ps, (unsigned long long)sizes[i],
                    (unsigned long long)(sizes[i] * ps), h, 1.0 - h);
        }
    }
    if (ferror(af.fp)) {
        pt_afile_abort(&af);
        return err_set(err, PT_EIO, "cannot write '%s'", path);
    }
    return pt_afile_commit(&af, err);
}

static int write_json(FILE *fp, const struct sim_args *a, struct run *runs,
                      int n_runs, uint64_t n_keys, struct pt_err *err)
{
    json_t *doc = json_object(), *res = json_array(), *cfg = json_object();
    int i, ret;
    size_t t, p;

    json_object_set_new(doc, "schema_version", json_integer(1));
    json_object_set_new(doc, "trace", json_string(a->trace));
    json_object_set_new(doc, "distinct_keys", json_integer((json_int_t)n_keys));
    json_object_set_new(cfg, "cache_mode", json_string(mode_names[a->mode]));
    json_object_set_new(
        cfg, "app_policy",
        json_string(a->app_policy ? a->app_policy->name : "lru"));
    json_object_set_new(cfg, "offload_entries",
                        json_integer((json_int_t)a->offload));
    json_object_set_new(cfg, "servers", json_integer((json_int_t)a->servers));
    json_object_set_new(cfg, "sharing", json_string(sharing_names[a->sharing]));
    if (a->n_page_sizes) {
        json_object_set_new(cfg, "engine", json_string(a->engine));
        json_object_set_new(cfg, "device", json_string(a->device));
        json_object_set_new(
            cfg, "bufferpool_policy",
            json_string(a->bp_policy ? a->bp_policy->name : "lru"));
    }
    json_object_set_new(doc, "config", cfg);
    for (i = 0; i < n_runs; i++) {
        struct sim_app_stats st;
        sim_app_stats(runs[i].sim, &st);
        if (!runs[i].cfg.n_tiers) {
            json_t *o = json_object();
            json_object_set_new(o, "app_entries",
                                json_integer((json_int_t)runs[i].app_entries));
            json_object_set_new(o, "page_size", json_null());
            json_object_set_new(o, "bufferpool_pages", json_null());
            json_object_set_new(o, "app", app_json(&st));
            json_array_append_new(res, o);
            continue;
        }
        for (t = 0; t < runs[i].cfg.n_tiers; t++)
            for (p = 0; p < runs[i].cfg.tiers[t].n_pools; p++) {
                struct sim_db_stats d;
                json_t *o = json_object();
                sim_db_stats(runs[i].sim, t, p, &d);
                json_object_set_new(
                    o, "app_entries",
                    json_integer((json_int_t)runs[i].app_entries));
                db_json(o, &d);
                json_object_set_new(o, "app", app_json(&st));
                json_array_append_new(res, o);
            }
    }
    json_object_set_new(doc, "results", res);
    if (a->mrc)
        json_object_set_new(doc, "mrc", curves_json(&runs[0]));
    ret = out_json_write(doc, fp, err);
    json_decref(doc);
    return ret;
}

static int write_tables(FILE *fp, enum out_format fmt, const struct sim_args *a,
                        struct run *runs, int n_runs, uint64_t n_keys,
                        struct pt_err *err)
{
    static const char *const app_h[] = {
        ">app entries", ">gets",         ">hits",      ">misses",
        ">miss ratio",  ">offload hits", ">repl msgs", ">peer fetches",
        ">db reads",    ">db writes",    ">cost ms"};
    static const char *const db_h[] = {
        ">app entries",   ">page",      ">pool pages", ">pool bytes",
        ">logical",       ">physical",  ">hit ratio",  ">direct reads",
        ">direct writes", ">outline %", ">io ms"};
    struct out_table t;
    char b1[32];
    int i, ret = 0;
    size_t k, p;

    if (fmt == OUT_TABLE || !a->n_page_sizes) {
        if ((ret = out_table_init(&t, 11, app_h)) < 0)
            return err_set(err, ret, "out of memory");
        out_table_set_title(
            &t,
            "application tier of %s: %s, %s, %llu server(s) %s%s%s; %llu "
            "distinct keys",
            a->trace, mode_names[a->mode],
            a->mode ? (a->app_policy ? a->app_policy->name : "lru") : "-",
            (unsigned long long)a->servers, sharing_names[a->sharing],
            a->offload ? ", disk offload " : "",
            a->offload ? pt_size_format(a->offload, b1, sizeof(b1)) : "",
            (unsigned long long)n_keys);
        for (i = 0; i < n_runs; i++) {
            struct sim_app_stats s;
            sim_app_stats(runs[i].sim, &s);
            out_table_add_row(&t);
            if (a->mode)
                out_table_setf(&t, 0, "%llu",
                               (unsigned long long)runs[i].app_entries);
            else
                out_table_setf(&t, 0, "-");
            out_table_setf(&t, 1, "%llu", (unsigned long long)s.gets);
            out_table_setf(&t, 2, "%llu", (unsigned long long)s.hits);
            out_table_setf(&t, 3, "%llu", (unsigned long long)s.misses);
            if (s.gets)
                out_table_setf(&t, 4, "%.4f",
                               (double)s.misses / (double)s.gets);
            else
                out_table_setf(&t, 4, "n/a");
            out_table_setf(&t, 5, "%llu", (unsigned long long)s.offload_hits);
            out_table_setf(&t, 6, "%llu",
                           (unsigned long long)s.replication_messages);
            out_table_setf(&t, 7, "%llu", (unsigned long long)s.peer_fetches);
            out_table_setf(&t, 8, "%llu", (unsigned long long)s.db_reads);
            out_table_setf(&t, 9, "%llu", (unsigned long long)s.db_writes);
            out_table_setf(&t, 10, "%.1f", s.cost_ms);
        }
        ret = out_table_write(&t, fmt, fp, err);
        out_table_release(&t);
        if (ret < 0 || !a->n_page_sizes)
            return ret;
        fputc('\n', fp);
    }
    if ((ret = out_table_init(&t, 11, db_h)) < 0)
        return err_set(err, ret, "out of memory");
    out_table_set_title(&t,
                        "database tier: engine %s, device %s, buffer pool "
                        "%s",
                        a->engine, a->device,
                        a->bp_policy ? a->bp_policy->name : "lru");
    for (i = 0; i < n_runs; i++)
        for (k = 0; k < runs[i].cfg.n_tiers; k++)
            for (p = 0; p < runs[i].cfg.tiers[k].n_pools; p++) {
                struct sim_db_stats d;
                uint64_t acc;
                sim_db_stats(runs[i].sim, k, p, &d);
                acc = d.inline_accesses + d.outline_accesses;
                out_table_add_row(&t);
                if (a->mode)
                    out_table_setf(&t, 0, "%llu",
                                   (unsigned long long)runs[i].app_entries);
                else
                    out_table_setf(&t, 0, "-");
                out_table_setf(&t, 1, "%s",
                               pt_size_format(d.page_size_bytes, b1, 32));
                out_table_setf(&t, 2, "%llu", (unsigned long long)d.pool_pages);
                out_table_setf(
                    &t, 3, "%s",
                    pt_size_format(d.pool_pages * d.page_size_bytes, b1, 32));
                out_table_setf(&t, 4, "%llu",
                               (unsigned long long)d.logical_reads);
                out_table_setf(&t, 5, "%llu",
                               (unsigned long long)d.physical_reads);
                if (d.logical_reads)
                    out_table_setf(&t, 6, "%.4f",
                                   1.0 - (double)d.physical_reads /
                                             (double)d.logical_reads);
                else
                    out_table_setf(&t, 6, "n/a");
                out_table_setf(&t, 7, "%llu",
                               (unsigned long long)d.direct_reads);
                out_table_setf(&t, 8, "%llu",
                               (unsigned long long)d.direct_writes);
                if (acc)
                    out_table_setf(&t, 9, "%.1f",
                                   100.0 * (double)d.outline_accesses /
                                       (double)acc);
                else
                    out_table_setf(&t, 9, "n/a");
                out_table_setf(&t, 10, "%.1f", d.io_ms);
            }
    ret = out_table_write(&t, fmt, fp, err);
    out_table_release(&t);
    if (ret < 0 || fmt != OUT_TABLE || !a->mrc)
        return ret;
    /* the curves, compactly: hit ratio at the log-spaced sizes */
    {
        static const char *const mh[] = {"curve", ">size", ">hit ratio"};
        uint64_t sizes[48];
        size_t n_curves = runs[0].cfg.n_tiers ? runs[0].cfg.n_tiers : 1, j, n;
        fputc('\n', fp);
        if ((ret = out_table_init(&t, 3, mh)) < 0)
            return err_set(err, ret, "out of memory");
        out_table_set_title(&t, "LRU miss-ratio curves (%s)",
                            a->sample_rate < 1.0 ? "SHARDS" : "exact");
        for (k = 0; k < n_curves; k++) {
            struct sim_mrc *m = sim_curve(runs[0].sim, k);
            if (!m)
                continue;
            n = curve_sizes(m, sizes, 12);
            for (j = 0; j < n; j++) {
                out_table_add_row(&t);
                if (runs[0].cfg.n_tiers)
                    out_table_setf(
                        &t, 0, "%s pages",
                        pt_size_format(runs[0].cfg.tiers[k].page_size_bytes, b1,
                                       32));
                else
                    out_table_setf(&t, 0, "app entries");
                out_table_setf(&t, 1, "%llu", (unsigned long long)sizes[j]);
                out_table_setf(&t, 2, "%.4f", sim_mrc_hit_ratio(m, sizes[j]));
            }
        }
        ret = out_table_write(&t, fmt, fp, err);
        out_table_release(&t);
    }
    return ret;
}

/* ---- the run ------------------------------------------------------------
 */

static int load_profiles(const struct sim_args *a, struct rec_engine *e,
                         struct rec_device *d, struct pt_err *err)
{
    json_t *prof = NULL;
    int ret;

    if ((ret = prof_load_named("engines", a->engine, &prof, err)) < 0)
        return ret;
    ret = rec_engine_from_json(e, prof, a->engine, err);
    json_decref(prof);
    if (ret < 0)
        return ret;
    if ((ret = prof_load_named("devices", a->device, &prof, err)) < 0)
        return ret;
    ret = rec_device_from_json(d, prof, a->device, err);
    json_decref(prof);
    return ret;
}

static int build_runs(const struct sim_args *a, const struct rec_engine *e,
                      const struct rec_device *d, struct run *runs,
                      struct pt_err *err)
{
    int i, k, p, ret;

    for (i = 0; i < a->n_app; i++) {
        struct sim_config *cfg = &runs[i].cfg;
        memset(cfg, 0, sizeof(*cfg));
        cfg->mode = (enum sim_cache_mode)a->mode;
        cfg->app_entries = a->mode ? a->app[i] : 0;
        cfg->app_policy = a->app_policy;
        cfg->offload_entries = a->offload;
        cfg->servers = (unsigned)a->servers;
        cfg->sharing = a->sharing;
        sim_costs_default(&cfg->costs);
        cfg->seed = a->seed;
        cfg->mrc = a->mrc && i == 0;
        cfg->sample_rate = a->sample_rate;
        if (a->n_page_sizes) {
            cfg->engine = e;
            cfg->device = d;
            cfg->bp_policy = a->bp_policy;
            cfg->n_tiers = (size_t)a->n_page_sizes;
            for (k = 0; k < a->n_page_sizes; k++) {
                struct sim_db_spec *sp = &cfg->tiers[k];
                char list[128], b[32];
                if (a->page_sizes[k] > UINT32_MAX ||
                    !rec_engine_page(e, (uint32_t)a->page_sizes[k]))
                    return err_set(err, PT_EUSAGE,
                                   "--page-size: %s is not a page size of "
                                   "engine %s (allowed: %s)",
                                   pt_size_format(a->page_sizes[k], b, 32),
                                   e->name,
                                   rec_engine_page_list(e, list, sizeof(list)));
                sp->page_size_bytes = (uint32_t)a->page_sizes[k];
                sp->n_pools = (size_t)a->n_pools;
                for (p = 0; p < a->n_pools; p++) {
                    uint64_t n = a->pools[p].bytes
                                     ? a->pools[p].value / sp->page_size_bytes
                                     : a->pools[p].value;
                    if (n < 1)
                        return err_set(
                            err, PT_EUSAGE, "--bufferpool: %s holds no %s page",
                            pt_size_format(a->pools[p].value, b, 32),
                            pt_size_format(sp->page_size_bytes, list, 32));
                    sp->pool_pages[p] = n;
                }
            }
        }
        runs[i].app_entries = cfg->app_entries;
        if ((ret = sim_new(cfg, &runs[i].sim, err)) < 0)
            return ret;
    }
    return 0;
}

static int on_progress(void *ctx, uint64_t pos, uint64_t size)
{
    (void)size;
    cli_progress_update(ctx, pos);
    return cli_interrupted();
}

int cmd_simulate(int argc, char **argv)
{
    struct cli_common c;
    struct cli_parser p;
    struct sim_args a;
    struct pt_err err;
    struct rec_engine engine;
    struct rec_device device;
    struct sim_trace_reader *r = NULL;
    struct run runs[MAX_APP];
    struct pt_afile af = {0};
    struct cli_progress pg;
    struct sim *sims[MAX_APP];
    uint64_t n = 0;
    int64_t done;
    int ret, i;

    memset(runs, 0, sizeof(runs));
    err_clear(&err);
    ret = parse_args(argc, argv, &c, &a, &p);
    if (ret == CLI_HELP_SHOWN)
        return 0;
    if (ret < 0)
        return cli_exit_code(ret);
    if ((ret = cli_outputs_distinct("-o", c.output, "--mrc-csv", a.mrc_csv,
                                    &err)) < 0)
        goto fail;
    if (a.n_page_sizes && (ret = load_profiles(&a, &engine, &device, &err)) < 0)
        goto fail;
    if ((ret = build_runs(&a, &engine, &device, runs, &err)) < 0)
        goto fail;
    if ((ret = pt_output_check(c.output, c.force, &err)) < 0 ||
        (a.mrc_csv && (ret = pt_output_check(a.mrc_csv, c.force, &err)) < 0) ||
        (ret = sim_trace_open(a.trace, a.trace_format, &r, &err)) < 0)
        goto fail;
    cli_progress_init(&pg, &c, "simulate", sim_trace_size(r));
    for (i = 0; i < a.n_app; i++)
        sims[i] = runs[i].sim;
    done = sim_run(r, sims, (size_t)a.n_app, on_progress, &pg, &err);
    cli_progress_done(&pg);
    if (done < 0) {
        ret = (int)done;
        goto fail;
    }
    n = (uint64_t)done;
    if (n == 0)
        cli_note(&c,
                 "trace '%s' has no requests: nothing was cached, ratios "
                 "are n/a",
                 a.trace);
    if ((ret = cli_output_open(&c, &af, &err)) < 0)
        goto fail;
    if (c.format == OUT_JSON)
        ret = write_json(af.fp, &a, runs, a.n_app, sim_trace_n_keys(r), &err);
    else
        ret = write_tables(af.fp, c.format, &a, runs, a.n_app,
                           sim_trace_n_keys(r), &err);
    if (ret < 0)
        goto fail;
    if ((ret = pt_afile_commit(&af, &err)) < 0)
        goto fail;
    if (a.mrc_csv && (ret = write_curve_csv(&c, a.mrc_csv, &runs[0], &err)) < 0)
        goto fail;
    for (i = 0; i < MAX_APP; i++)
        sim_free(runs[i].sim);
    sim_trace_close(r);
    return 0;
fail:
    pt_afile_abort(&af);
    for (i = 0; i < MAX_APP; i++)
        sim_free(runs[i].sim);
    sim_trace_close(r);
    return cli_fail("simulate", &err);
}
