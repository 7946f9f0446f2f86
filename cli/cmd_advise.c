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
 * Neighbours: advise/advise.h, cli/report.c.
 */
#include "cli/cli.h"
#include "cli/report.h"

#include "advise/advise.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
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

enum {
    OPT_DEMO = CLI_OPT_FIRST_CUSTOM,
    OPT_ENGINE,
    OPT_TABLE,
    OPT_COLUMNS,
    OPT_PERCENT,
    OPT_ROWS,
    OPT_OUTDIR,
    OPT_MEMORY,
    OPT_DEVICE,
    OPT_VALIDATE,
    OPT_MONSEC,
    OPT_WORKLOAD,
    OPT_REQUESTS,
    OPT_SEED,
    OPT_FAILON,
    OPT_CACHE,
};

static const struct cli_option opts[] = {
    {"demo", 0, no_argument, OPT_DEMO, NULL,
     "advise on a built-in session store filled from a shipped workload "
     "(default: off)"},
    CLI_OPT_CONN_ENTRIES,
    {"engine", 0, required_argument, OPT_ENGINE, "NAME",
     "engine to advise for: db2, postgresql, mysql, sqlite, oracle "
     "(default: detected; db2 with --demo)"},
    {"table", 't', required_argument, OPT_TABLE, "[SCHEMA.]NAME",
     "table to sample (default: SESSIONS)"},
    {"columns", 0, required_argument, OPT_COLUMNS, "A,B,C",
     "object columns in placement order (default: SMALL,MEDIUM,LARGE)"},
    {"percent", 'p', required_argument, OPT_PERCENT, "P",
     "sample P percent of the rows (default: all rows)"},
    {"rows", 'n', required_argument, OPT_ROWS, "N",
     "sample N random rows (default: all rows)"},
    {"out-dir", 'd', required_argument, OPT_OUTDIR, "DIR",
     "directory for the files, created if missing (default: "
     "pagetune-advice)"},
    {"memory", 0, required_argument, OPT_MEMORY, "BYTES",
     "buffer-pool budget, e.g. 512M (default: the monitored pool, else "
     "256M)"},
    {"device", 0, required_argument, OPT_DEVICE, "NAME",
     "storage device profile: hdd, ssd or nvme (default: ssd)"},
    {"validate", 0, required_argument, OPT_VALIDATE, "HOW",
     "none, sim, replay or both (default: both)"},
    {"monitor-seconds", 0, required_argument, OPT_MONSEC, "SEC",
     "length of the monitor window (default: 5; 1 with --demo)"},
    {"workload", 'w', required_argument, OPT_WORKLOAD, "PROFILE",
     "workload profile for the demo store and the validation trace "
     "(default: mixed-sessions)"},
    {"requests", 0, required_argument, OPT_REQUESTS, "N",
     "requests in the demo / validation trace (default: 20000)"},
    {"seed", 0, required_argument, OPT_SEED, "S",
     "random seed of the generated trace (default: 42)"},
    {"cache", 0, required_argument, OPT_CACHE, "BYTES",
     "page-cache budget of the replay, equal at every page size "
     "(default: 2M)"},
    {"fail-on", 0, required_argument, OPT_FAILON, "WHAT",
     "drift: exit 1 if the current page size, buffer pool or any knob read "
     "from the server is off the "
     "recommendation (default: never)"},
    {"color", 0, required_argument, CLI_OPT_COLOR, "WHEN",
     "auto, always or never; NO_COLOR disables auto (default: auto)"},
    CLI_OPT_FORMAT_ENTRIES,
    CLI_OPT_FORCE_ENTRY,
    CLI_OPT_QUIET_ENTRY,
    CLI_OPT_HELP_ENTRY,
    CLI_OPT_END,
};

struct advise {
    struct cli_common common;
    struct adv_config cfg;
    int color; /* -1 auto, 0 never, 1 always */
};

static void on_note(void *ctx, const char *line)
{
    const struct cli_common *c = ctx;

    if (!c->quiet)
        fprintf(stderr, "pagetune advise: %s\n", line);
}

/* The value options: parse into the typed config. 0, or an exit code. */
static int parse_value(struct advise *a, int id, const char *arg)
{
    struct adv_config *c = &a->cfg;
    struct pt_err err;
    double d;

    switch (id) {
    case OPT_PERCENT:
        if (pt_double_parse(arg, &c->percent, "--percent", &err) < 0 ||
            !(c->percent > 0 && c->percent <= 100))
            return cli_usage_error(
                "advise", "--percent: '%s' is not in 0 < P <= 100", arg);
        return 0;
    case OPT_ROWS:
        if (pt_u64_parse(arg, &c->rows, "--rows", &err) < 0 || c->rows == 0)
            return cli_usage_error("advise", "--rows: '%s' is not a count >= 1",
                                   arg);
        return 0;
    case OPT_MEMORY:
        if (pt_size_parse(arg, &c->memory_bytes, "--memory", &err) < 0)
            return cli_usage_error("advise", "%s", err.msg);
        if (c->memory_bytes == 0)
            return cli_usage_error("advise",
                                   "--memory: '%s' is not a byte size > 0 "
                                   "(e.g. 512M)",
                                   arg);
        return 0;
    case OPT_MONSEC:
        if (pt_double_parse(arg, &d, "--monitor-seconds", &err) < 0 || d <= 0)
            return cli_usage_error("advise",
                                   "--monitor-seconds must be a number > 0");
        c->monitor_s = d;
        return 0;
    case OPT_REQUESTS:
        if (pt_u64_parse(arg, &c->requests, "--requests", &err) < 0 ||
            c->requests == 0)
            return cli_usage_error("advise",
                                   "--requests must be a whole number > 0");
        return 0;
    case OPT_SEED:
        if (pt_u64_parse(arg, &c->seed, "--seed", &err) < 0)
            return cli_usage_error("advise", "%s", err.msg);
        return 0;
    case OPT_CACHE:
        if (pt_size_parse(arg, &c->cache_bytes, "--cache", &err) < 0 ||
            c->cache_bytes < 1024)
            return cli_usage_error("advise",
                                   "--cache: '%s' is not a byte "
                                   "size >= 1K",
                                   arg);
        return 0;
    }
    return 64;
}

/* The choice options. 0, or an exit code. */
static int parse_choice(struct advise *a, int id, const char *arg)
{
    static const char *const when[] = {"never", "always", "auto"};
    struct adv_config *c = &a->cfg;

    switch (id) {
    case OPT_VALIDATE:
        c->validate_sim = strcmp(arg, "sim") == 0 || strcmp(arg, "both") == 0;
        c->validate_replay =
            strcmp(arg, "replay") == 0 || strcmp(arg, "both") == 0;
        if (!c->validate_sim && !c->validate_replay && strcmp(arg, "none") != 0)
            return cli_usage_error("advise",
                                   "--validate: '%s' is not none, sim, "
                                   "replay or both",
                                   arg);
        return 0;
    case OPT_FAILON:
        if (strcmp(arg, "drift") != 0)
            return cli_usage_error(
                "advise", "--fail-on: '%s' is not a gate (drift)", arg);
        c->fail_on_drift = 1;
        return 0;
    case CLI_OPT_COLOR:
        for (int i = 0; i < 3; i++)
            if (strcmp(arg, when[i]) == 0) {
                a->color = i == 2 ? -1 : i;
                return 0;
            }
        return cli_usage_error(
            "advise", "--color: '%s' is not auto, always or never", arg);
    }
    return parse_value(a, id, arg);
}

/* Options into a->cfg. -1 to go on, else the exit code. */
static int parse_opts(struct advise *a, int argc, char **argv)
{
    struct adv_config *c = &a->cfg;
    struct cli_parser p;
    const char *arg;
    int id, rc;

    cli_common_init(&a->common);
    adv_config_init(c);
    a->color = -1;
    if (cli_parse_begin(&p, "advise", opts, usage, description, argc, argv))
        return 70;
    while ((id = cli_next(&p, &a->common, &arg)) != CLI_NEXT_END) {
        if (id == CLI_NEXT_HELP)
            return 0;
        if (id == CLI_NEXT_USAGE)
            return 64;
        if (cli_conn_opt(&c->conn, id, arg))
            continue;
        rc = 0;
        if (id == OPT_DEMO)
            c->demo = 1;
        else if (id == OPT_ENGINE)
            c->engine = arg;
        else if (id == OPT_TABLE)
            c->table = arg;
        else if (id == OPT_COLUMNS)
            c->columns = arg;
        else if (id == OPT_OUTDIR)
            c->out_dir = arg;
        else if (id == OPT_DEVICE)
            c->device = arg;
        else if (id == OPT_WORKLOAD)
            c->workload = arg;
        else
            rc = parse_choice(a, id, arg);
        if (rc)
            return rc;
    }
    c->force = a->common.force;
    return -1;
}

/* One line each for the validation runs, "" when not run. */
static void validation_lines(const struct adv_validation *v, char *sim,
                             char *rep, size_t len)
{
    sim[0] = rep[0] = '\0';
    if (v->have_sim)
        snprintf(sim, len,
                 "I/O per get %.3f -> %.3f ms (%+.0f %%), buffer-pool hit "
                 "ratio %.3f -> %.3f",
                 v->sim_cur.io_ms_per_get, v->sim_rec.io_ms_per_get,
                 v->io_change_pct, v->sim_cur.hit_ratio, v->sim_rec.hit_ratio);
    if (v->have_replay)
        snprintf(rep, len,
                 "%.0f -> %.0f ops/s (%+.0f %%), overflow pages %.0f -> %.0f "
                 "(SQLite, not DB2: pagetune-replay(1))",
                 v->rep_cur.ops_per_s, v->rep_rec.ops_per_s, v->ops_change_pct,
                 v->rep_cur.overflow_pages, v->rep_rec.overflow_pages);
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

static int write_table(const struct advise *a, const struct adv_result *r,
                       struct pt_err *err)
{
    static const char *const hdr[] = {"item", "value"};
    const struct rec_result *rec = r->rec;
    uint32_t rec_ps = rec->cand[rec->chosen_idx].page_size_bytes;
    int color = a->color == -1 ? out_color_enabled(stdout) : a->color;
    int on = color && a->common.format == OUT_TABLE;
    char sim[256], rep[256], v[1200];
    struct out_table t;
    int rc;

    if (out_table_init(&t, 2, hdr) < 0)
        return err_set(err, PT_EINTERNAL, "out of memory");
    validation_lines(&r->validation, sim, rep, sizeof(sim));
    out_table_add_row(&t);
    out_table_setf(&t, 0, "recommended page size");
    out_table_setf(&t, 1, "%s%uK%s", on ? "\033[1m" : "", rec_ps / 1024,
                   on ? "\033[0m" : "");
    out_table_add_row(&t);
    out_table_setf(&t, 0, "current page size");
    out_table_setf(&t, 1, "%uK", r->cur_page_size / 1024);
    out_table_add_row(&t);
    out_table_setf(&t, 0, "buffer pool");
    out_table_setf(&t, 1, "%llu pages of %uK (%s)",
                   (unsigned long long)rec->pool_pages, rec_ps / 1024,
                   strcmp(r->engine, "db2") != 0 && r->cur_pool_name[0]
                       ? r->cur_pool_name
                       : rec->bufferpool_name);
    out_table_add_row(&t);
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
    if (rep[0]) {
        out_table_setf(&t, 0, "replay (built-in store)");
        out_table_setf(&t, 1, "%s", rep);
        out_table_add_row(&t);
    }
    out_table_setf(&t, 0, "drift");
    snprintf(v, sizeof(v), "%s", r->drift ? r->drift_why : "none");
    for (size_t l = strlen(v); l > 0 && v[l - 1] == '\n'; l--)
        v[l - 1] = '\0'; /* no trailing separator */
    for (char *nl = strchr(v, '\n'); nl; nl = strchr(nl, '\n'))
        *nl = ';';
    out_table_setf(&t, 1, "%s", v);
    out_table_add_row(&t);
    out_table_setf(&t, 0, "files");
    out_table_setf(&t, 1,
                   "%s/: sizes.json monitor.json recommendation.json "
                   "create.sql rollback.sql report.html%s%s",
                   r->out_dir, r->have_sim ? " simulation.json" : "",
                   r->have_replay ? " replay.json" : "");
    rc = out_table_write(&t, a->common.format, stdout, err);
    out_table_release(&t);
    return rc;
}

static int print_summary(const struct advise *a, const struct adv_result *r,
                         struct pt_err *err)
{
    json_t *doc;
    int rc;

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
    rc = parse_opts(&a, argc, argv);
    if (rc >= 0)
        return rc;
    a.cfg.note = on_note;
    a.cfg.note_ctx = &a.common;
    a.cfg.cancelled = cli_interrupted;
    a.cfg.render_report = report_write_html;
    if ((rc = adv_out_dir_check(&a.cfg, &err)) < 0 ||
        (rc = adv_run(&a.cfg, &r, &err)) < 0 ||
        (rc = adv_result_write(&a.cfg, &r, &err)) < 0 ||
        (rc = print_summary(&a, &r, &err)) < 0) {
        adv_result_release(&r);
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
    rc = a.cfg.fail_on_drift && r.drift ? -PT_ECHECK : 0;
    adv_result_release(&r);
    return rc;
}
