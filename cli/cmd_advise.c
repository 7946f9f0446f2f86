/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cmd_advise.c — `pagetune advise`: the whole job in one run. It drives the
 * other commands in-process, with the same options a DBA would type, so
 * every file it leaves is exactly what the single command writes:
 *
 *   sample → sizes.json, monitor → monitor.json, recommend →
 *   recommendation.json, validate (simulate → simulation.json and/or
 *   replay → replay.json, current vs recommended page size at equal memory),
 *   ddl → create.sql + rollback.sql, then report.html and a summary.
 *
 * `--demo` first builds the embedded default: a workload trace from a
 * shipped profile, replayed into a built-in SQLite session store at 4K pages
 * (the "running system"), which is then sampled and monitored through the
 * SQLite ODBC driver like any other database. The demo answers the DB2
 * question (WebSphere's SESSIONS on DB2), so its DDL is DB2.
 *
 * Neighbours: every cmd_*.c (called through cli_commands), report.c.
 */
#define _XOPEN_SOURCE 700 /* nftw */
#include "cli/cli.h"
#include "cli/report.h"

#include "analyzers/analyzers.h"
#include "collect/collect.h"

#include <errno.h>
#include <ftw.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

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

#define MAX_ARGS 48

struct advise {
    struct cli_common common;
    int demo;
    struct coll_conn_opts conn; /* --dsn, --connect, --password-* */
    const char *engine, *table, *columns;
    const char *percent, *rows, *memory, *device, *workload, *requests;
    const char *seed, *cache;
    const char *out_dir;
    int validate_sim, validate_replay;
    const char *monitor_seconds;
    int fail_on_drift;
    int color; /* -1 auto, 0 never, 1 always */
    char tmp_dir[4096];
    int tmp_slot; /* pt_tmpdir_register slot of tmp_dir */
    char conn_buf[4300];
    char path[16][4200]; /* output paths by enum out_file */
    char trace[4200];
    char advise_engine[32];
    char dialect[32];
    char wl_profile[4200];    /* the workload with the sampled sizes */
    char tuned_engine[4200];  /* engine profile at the recommended knob */
    char sim_cur[4200];       /* simulation of the current setting */
    char sim_rec[4200];       /* simulation of the recommended setting */
    json_t *validation_notes; /* strings for the report */
};

enum out_file {
    F_SIZES,
    F_MONITOR,
    F_REC,
    F_SIM,
    F_REPLAY,
    F_CREATE,
    F_ROLLBACK,
    F_REPORT,
    F_COUNT
};
static const char *const out_names[F_COUNT] = {
    "sizes.json",  "monitor.json", "recommendation.json", "simulation.json",
    "replay.json", "create.sql",   "rollback.sql",        "report.html",
};

static void note(const struct advise *a, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void note(const struct advise *a, const char *fmt, ...)
{
    va_list ap;

    if (a->common.quiet)
        return;
    va_start(ap, fmt);
    fputs("pagetune advise: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

/* Run another command in-process: NULL-terminated argument list. */
static int run(const char *name, ...)
{
    char *argv[MAX_ARGS + 1];
    int argc = 0;
    const char *s;
    va_list ap;

    argv[argc++] = (char *)name;
    va_start(ap, name);
    while ((s = va_arg(ap, const char *)) != NULL && argc < MAX_ARGS)
        argv[argc++] = (char *)s;
    va_end(ap);
    argv[argc] = NULL;
    for (const struct cli_command *c = cli_commands; c->name; c++)
        if (strcmp(c->name, name) == 0)
            return c->fn(argc, argv);
    cli_error("advise", "internal: no command '%s'", name);
    return 70;
}

/* Append optional "--opt value" pairs to an argv under construction. */
struct argv_b {
    char *v[MAX_ARGS + 1];
    int n;
};
static void ab_add(struct argv_b *b, const char *s)
{
    if (b->n < MAX_ARGS)
        b->v[b->n++] = (char *)s;
    b->v[b->n] = NULL;
}
static void ab_opt(struct argv_b *b, const char *opt, const char *val)
{
    if (val) {
        ab_add(b, opt);
        ab_add(b, val);
    }
}
static int ab_run(struct argv_b *b)
{
    for (const struct cli_command *c = cli_commands; c->name; c++)
        if (strcmp(c->name, b->v[0]) == 0)
            return c->fn(b->n, b->v);
    return 70;
}

static int rm_entry(const char *path, const struct stat *st, int flag,
                    struct FTW *ftw)
{
    (void)st;
    (void)ftw;
    if (flag == FTW_DP)
        return rmdir(path) == 0 ? 0 : 0;
    return unlink(path) == 0 ? 0 : 0;
}

/* Remove our own mkdtemp directory and everything in it. */
static void remove_tree(const char *dir)
{
    if (dir[0])
        nftw(dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

static int make_out_dir(const struct advise *a, struct pt_err *err)
{
    struct stat st;

    if (stat(a->out_dir, &st) == 0) {
        if (!S_ISDIR(st.st_mode))
            return err_set(err, PT_ECANTCREAT,
                           "--out-dir '%s' exists and is not a directory",
                           a->out_dir);
    } else if (mkdir(a->out_dir, 0755) != 0) {
        return err_set(err, PT_ECANTCREAT, "cannot create --out-dir '%s': %s",
                       a->out_dir, strerror(errno));
    }
    if (access(a->out_dir, W_OK) != 0)
        return err_set(err, PT_ECANTCREAT, "cannot write to --out-dir '%s'",
                       a->out_dir);
    return 0;
}

/* Refuse before any work if an output exists and --force is not given. */
static int check_outputs(struct advise *a, struct pt_err *err)
{
    for (int i = 0; i < F_COUNT; i++) {
        int rc;
        snprintf(a->path[i], sizeof(a->path[i]), "%s/%s", a->out_dir,
                 out_names[i]);
        rc = pt_output_check(a->path[i], a->common.force, err);
        if (rc < 0)
            return rc;
    }
    return 0;
}

static json_t *load_json(const char *path, struct pt_err *err)
{
    json_t *doc = NULL;
    if (pt_json_load(path, &doc, err) < 0)
        return NULL;
    return doc;
}

/* The engine sample/monitor detected, mapped to an engine profile name. */
static int detect_engine(struct advise *a, struct pt_err *err)
{
    json_t *doc;
    const char *e = NULL;

    if (a->engine) {
        snprintf(a->advise_engine, sizeof(a->advise_engine), "%s", a->engine);
        return 0;
    }
    if (a->demo) {
        snprintf(a->advise_engine, sizeof(a->advise_engine), "db2");
        return 0;
    }
    doc = load_json(a->path[F_SIZES], err);
    if (!doc)
        return err->code;
    e = json_string_value(
        json_object_get(json_object_get(doc, "source"), "engine"));
    if (!e)
        e = json_string_value(json_object_get(doc, "engine"));
    if (!e) {
        json_decref(doc);
        return err_set(err, PT_EDATA,
                       "'%s' does not name the engine; give --engine",
                       a->path[F_SIZES]);
    }
    snprintf(a->advise_engine, sizeof(a->advise_engine), "%s", e);
    json_decref(doc);
    return 0;
}

static int read_text(const char *path, json_t *files, const char *name)
{
    char *buf;
    size_t len;
    struct pt_err err;

    if (pt_file_read(path, &buf, &len, &err) < 0)
        return -1;
    json_array_append_new(files,
                          json_pack("{s:s, s:s}", "name", name, "text", buf));
    free(buf);
    return 0;
}

static const json_t *find_result(const json_t *doc, double page_size)
{
    size_t i;
    json_t *r;

    json_array_foreach(json_object_get(doc, "results"), i, r)
    {
        if (json_number_value(json_object_get(r, "page_size")) == page_size)
            return r;
    }
    return NULL;
}

static double jnum(const json_t *o, const char *path)
{
    /* "a.b.c" lookups into nested objects */
    char key[64];
    const char *p = path;

    while (o && *p) {
        const char *dot = strchr(p, '.');
        size_t n = dot ? (size_t)(dot - p) : strlen(p);
        if (n >= sizeof(key))
            return NAN;
        memcpy(key, p, n);
        key[n] = '\0';
        o = json_object_get(o, key);
        p = dot ? dot + 1 : p + n;
    }
    return json_is_number(o) ? json_number_value(o) : NAN;
}

static json_t *num_or_null(double v)
{
    return isfinite(v) ? json_real(v) : json_null();
}

/* The result of one setting ("current"/"recommended") at a page size. */
static const json_t *find_setting(const json_t *doc, double page_size,
                                  const char *setting)
{
    size_t i;
    json_t *r;

    json_array_foreach(json_object_get(doc, "results"), i, r)
    {
        const char *s = json_string_value(json_object_get(r, "setting"));
        if (json_number_value(json_object_get(r, "page_size")) == page_size &&
            (!s || strcmp(s, setting) == 0))
            return r;
    }
    return NULL;
}

/* Rows of the current-vs-recommended table from the validation files. */
static json_t *comparison(const json_t *sim, const json_t *rep, double cur,
                          double rec)
{
    json_t *rows = json_array();
    char a[32], b[32];
    const json_t *sc = sim ? find_setting(sim, cur, "current") : NULL;
    const json_t *sr = sim ? find_setting(sim, rec, "recommended") : NULL;
    const json_t *rc = rep ? find_result(rep, cur) : NULL;
    const json_t *rr = rep ? find_result(rep, rec) : NULL;
    struct {
        const char *label;
        const json_t *x, *y;
        const char *key;
        int per_get;
    } spec[] = {
        {"simulated I/O per get (ms)", sc, sr, "io_ms", 1},
        {"simulated direct reads per get", sc, sr, "direct_reads", 1},
        {"simulated buffer-pool hit ratio", sc, sr, "bufferpool.hit_ratio", 0},
        {"simulated physical reads", sc, sr, "bufferpool.physical_reads", 0},
        {"simulated buffer-pool pages", sc, sr, "bufferpool_pages", 0},
        {"replay ops/s (built-in store)", rc, rr, "ops_per_s", 0},
        {"replay p95 latency (us)", rc, rr, "latency_us.p95", 0},
        {"replay page-cache hit ratio", rc, rr, "cache_hit_ratio", 0},
        {"replay overflow pages", rc, rr, "overflow_pages", 0},
    };

    for (size_t i = 0; i < sizeof(spec) / sizeof(spec[0]); i++) {
        double x, y;
        if (!spec[i].x && !spec[i].y)
            continue;
        x = jnum(spec[i].x, spec[i].key);
        y = jnum(spec[i].y, spec[i].key);
        if (spec[i].per_get) {
            double gx = jnum(spec[i].x, "app.gets");
            double gy = jnum(spec[i].y, "app.gets");
            if (!isfinite(gx) || gx <= 0)
                gx = jnum(spec[i].x, "requests");
            if (!isfinite(gy) || gy <= 0)
                gy = jnum(spec[i].y, "requests");
            x = gx > 0 ? x / gx : NAN;
            y = gy > 0 ? y / gy : NAN;
        }
        json_array_append_new(rows, json_pack("{s:s, s:[o,o]}", "label",
                                              spec[i].label, "values",
                                              num_or_null(x), num_or_null(y)));
    }
    snprintf(a, sizeof(a), "current (%.0fK pages)", cur / 1024);
    snprintf(b, sizeof(b), "recommended (%.0fK pages)", rec / 1024);
    return json_pack("{s:[s,s], s:o}", "columns", a, b, "rows", rows);
}

/* A count from a JSON number, or null. */
static json_t *count_or_null(double x)
{
    return isfinite(x) ? json_integer((json_int_t)x) : json_null();
}

/* Percent change from x to y; NaN when x is not a positive number. */
static double pct_change(double x, double y)
{
    return isfinite(x) && isfinite(y) && x > 0 ? (y / x - 1) * 100 : NAN;
}

/*
 * What the validation found, current vs recommended page size, for the
 * summary: {"simulation": {"current": {...}, "recommended": {...},
 * "io_change_pct"}, "replay": {..., "ops_change_pct"}}, and one line each
 * for the table in sim_line / rep_line ("" when not run), from this run's
 * simulation.json and replay.json (NULL when not run). NULL when neither
 * ran.
 */
/*
 * {"current": {"page_size", k1, k2}, "recommended": {...}, change: %} for
 * one validation: x1/y1 the main figure (its change is reported), x2/y2 a
 * second one; counts (overflow pages) as integers when `k2_count`.
 */
static json_t *validation_pair(double cur, double rec, const char *k1,
                               double x1, double y1, const char *k2, double x2,
                               double y2, int k2_count, const char *change)
{
    json_t *(*second)(double) = k2_count ? count_or_null : num_or_null;

    return json_pack("{s:{s:I, s:o, s:o}, s:{s:I, s:o, s:o}, s:o}", "current",
                     "page_size", (json_int_t)cur, k1, num_or_null(x1), k2,
                     second(x2), "recommended", "page_size", (json_int_t)rec,
                     k1, num_or_null(y1), k2, second(y2), change,
                     num_or_null(pct_change(x1, y1)));
}

static json_t *validation_summary(const json_t *sim, const json_t *rep,
                                  double cur, double rec, char *sim_line,
                                  char *rep_line, size_t line_len)
{
    json_t *v = json_object();

    sim_line[0] = rep_line[0] = '\0';
    if (sim) {
        const json_t *x = find_setting(sim, cur, "current");
        const json_t *y = find_setting(sim, rec, "recommended");
        double gx = jnum(x, "app.gets"), gy = jnum(y, "app.gets");
        double iox = gx > 0 ? jnum(x, "io_ms") / gx : NAN;
        double ioy = gy > 0 ? jnum(y, "io_ms") / gy : NAN;
        double hx = jnum(x, "bufferpool.hit_ratio");
        double hy = jnum(y, "bufferpool.hit_ratio");
        if (x && y) {
            json_object_set_new(v, "simulation",
                                validation_pair(cur, rec, "io_ms_per_get", iox,
                                                ioy, "hit_ratio", hx, hy, 0,
                                                "io_change_pct"));
            snprintf(sim_line, line_len,
                     "I/O per get %.3f -> %.3f ms (%+.0f %%), buffer-pool hit "
                     "ratio %.3f -> %.3f",
                     iox, ioy, pct_change(iox, ioy), hx, hy);
        }
    }
    if (rep) {
        const json_t *x = find_result(rep, cur), *y = find_result(rep, rec);
        if (x && y) {
            double ox = jnum(x, "ops_per_s"), oy = jnum(y, "ops_per_s");
            double fx = jnum(x, "overflow_pages"),
                   fy = jnum(y, "overflow_pages");
            json_object_set_new(v, "replay",
                                validation_pair(cur, rec, "ops_per_s", ox, oy,
                                                "overflow_pages", fx, fy, 1,
                                                "ops_change_pct"));
            snprintf(rep_line, line_len,
                     "%.0f -> %.0f ops/s (%+.0f %%), overflow pages %.0f -> "
                     "%.0f (SQLite, not DB2: pagetune-replay(1))",
                     ox, oy, pct_change(ox, oy), fx, fy);
        }
    }
    if (json_object_size(v) == 0) {
        json_decref(v);
        return NULL;
    }
    return v;
}

/*
 * The validation trace of a live database: the --workload profile (key
 * popularity, operation mix, sessions) with its object sizes replaced by
 * the sampled ones ({dist: empirical, values: [...]}), written as JSON
 * (valid YAML) into the temporary directory.
 */
static int empirical_profile(struct advise *a, struct pt_err *err)
{
    json_t *prof = NULL, *sizes = NULL, *vals = NULL, *size = NULL;
    struct rec_sizes rs = {0};
    int rc;

    if ((rc = prof_load_named("workloads", a->workload, &prof, err)) < 0)
        return rc;
    if ((rc = pt_json_load(a->path[F_SIZES], &sizes, err)) < 0)
        goto out;
    if ((rc = coll_sizes_doc_from_json(&rs, sizes, a->path[F_SIZES], err)) < 0)
        goto out;
    if (!json_is_object(prof) || !(vals = json_array()) ||
        !(size = json_object())) {
        rc = err_set(err, PT_EDATA, "workload profile '%s' is not a mapping",
                     a->workload);
        goto out;
    }
    for (size_t i = 0; i < rs.n; i++)
        json_array_append_new(vals, json_integer((json_int_t)rs.values[i]));
    json_object_set_new(size, "dist", json_string("empirical"));
    json_object_set_new(size, "values", vals);
    vals = NULL;
    json_object_set_new(prof, "size", size);
    size = NULL;
    snprintf(a->wl_profile, sizeof(a->wl_profile), "%s/workload.yaml",
             a->tmp_dir);
    rc = pt_json_write_file(prof, a->wl_profile, 1, err);
out:
    rec_sizes_release(&rs);
    json_decref(vals);
    json_decref(size);
    json_decref(prof);
    json_decref(sizes);
    return rc;
}

/*
 * An engine whose advice keeps the page size and moves the inline limit
 * (PostgreSQL toast_tuple_target): write a copy of its profile with the
 * recommended inline limit, so the simulator can compare the current and
 * the recommended setting at the same page size. 0 and tuned_engine[0]
 * = '\0' when the recommendation has no such knob.
 */
static int tuned_engine_profile(struct advise *a, const json_t *rec,
                                double rec_ps, struct pt_err *err)
{
    const json_t *knob = json_object_get(rec, "inline_knob");
    json_t *prof = NULL, *pg;
    double limit = jnum(knob, "inline_limit");
    size_t i;
    int rc;

    a->tuned_engine[0] = '\0';
    if (!json_is_true(json_object_get(knob, "pays")) || !isfinite(limit))
        return 0;
    if ((rc = prof_load_named("engines", a->advise_engine, &prof, err)) < 0)
        return rc;
    json_array_foreach(json_object_get(prof, "pages"), i, pg)
    {
        if (jnum(pg, "page_size") != rec_ps)
            continue;
        json_object_set_new(pg, "inline_limit",
                            json_integer((json_int_t)limit));
        if (jnum(pg, "max_row") < limit)
            json_object_set_new(pg, "max_row", json_integer((json_int_t)limit));
    }
    snprintf(a->tuned_engine, sizeof(a->tuned_engine), "%s/engine-tuned.yaml",
             a->tmp_dir);
    rc = pt_json_write_file(prof, a->tuned_engine, 1, err);
    json_decref(prof);
    if (rc < 0)
        a->tuned_engine[0] = '\0';
    return rc;
}

/*
 * simulation.json of a same-page-size comparison: the two runs' results,
 * each marked with its "setting", and the recommended run's MRC.
 */
static int merge_simulations(struct advise *a, const char *knob_name,
                             double knob_default, double knob_value,
                             struct pt_err *err)
{
    json_t *cur = NULL, *rec = NULL, *doc = NULL, *res, *r;
    size_t i;
    int rc;

    if ((rc = pt_json_load(a->sim_cur, &cur, err)) < 0 ||
        (rc = pt_json_load(a->sim_rec, &rec, err)) < 0)
        goto out;
    doc = json_pack("{s:i, s:[], s:{s:s, s:f, s:f}}", "schema_version", 1,
                    "results", "comparison", "knob", knob_name, "current",
                    knob_default, "recommended", knob_value);
    res = json_object_get(doc, "results");
    json_array_foreach(json_object_get(cur, "results"), i, r)
    {
        json_object_set_new(r, "setting", json_string("current"));
        json_array_append(res, r);
    }
    json_array_foreach(json_object_get(rec, "results"), i, r)
    {
        json_object_set_new(r, "setting", json_string("recommended"));
        json_array_append(res, r);
    }
    if (json_object_get(rec, "mrc"))
        json_object_set(doc, "mrc", json_object_get(rec, "mrc"));
    rc = pt_json_write_file(doc, a->path[F_SIM], a->common.force, err);
out:
    json_decref(cur);
    json_decref(rec);
    json_decref(doc);
    return rc;
}

static int write_report(struct advise *a, const json_t *rec, double cur_ps,
                        const json_t *sim, const json_t *rep,
                        struct pt_err *err)
{
    json_t *model = json_object(), *sizes;
    json_t *limits = json_array(), *summary = json_array(), *files;
    json_t *assumptions = json_array(), *eprof = NULL;
    struct rec_engine eng;
    struct pt_afile af;
    double rec_ps = jnum(rec, "page_size");
    size_t i;
    json_t *r;
    char line[512];
    int rc;

    sizes = load_json(a->path[F_SIZES], err);
    if (!sizes) {
        rc = err->code;
        goto out;
    }
    if (prof_load_named("engines", a->advise_engine, &eprof, err) == 0 &&
        rec_engine_from_json(&eng, eprof, a->advise_engine, err) == 0) {
        for (size_t k = 0; k < eng.n_pages; k++)
            json_array_append_new(
                limits, json_pack("{s:I, s:I}", "page_size",
                                  (json_int_t)eng.pages[k].page_size_bytes,
                                  "inline_limit",
                                  (json_int_t)eng.pages[k].inline_limit_bytes));
    }
    {
        /* an inline knob moves the limit at the same page size */
        const json_t *k = json_object_get(rec, "inline_knob");
        if (json_is_true(json_object_get(k, "pays"))) {
            char lab[96];
            snprintf(lab, sizeof(lab), "%s %.0f (recommended)",
                     json_string_value(json_object_get(k, "name"))
                         ? json_string_value(json_object_get(k, "name"))
                         : "inline knob",
                     jnum(k, "value"));
            json_array_append_new(
                limits, json_pack("{s:f, s:f, s:s}", "page_size",
                                  jnum(rec, "page_size"), "inline_limit",
                                  jnum(k, "inline_limit"), "label", lab));
        }
    }
    snprintf(line, sizeof(line),
             "recommended page size %.0fK (current %.0fK), buffer pool %.0f "
             "pages (%s)",
             rec_ps / 1024, cur_ps / 1024, jnum(rec, "bufferpool.pages"),
             json_string_value(
                 json_object_get(json_object_get(rec, "bufferpool"), "name")));
    json_array_append_new(summary, json_string(line));
    json_array_foreach(json_object_get(rec, "reasons"), i, r)
    {
        if (i >= 3)
            break;
        json_array_append_new(summary, json_copy(r));
    }
    json_object_set_new(model, "title",
                        json_string(a->demo ? "pagetune advice (demo store)"
                                            : "pagetune advice"));
    snprintf(line, sizeof(line), "engine %s; source %s", a->advise_engine,
             a->demo ? "built-in SQLite session store (demo)"
                     : (a->conn.dsn ? a->conn.dsn : "ODBC connection"));
    json_object_set_new(model, "subtitle", json_string(line));
    json_object_set_new(model, "summary", summary);
    json_object_set(model, "sizes", sizes);
    json_object_set_new(model, "limits", limits);
    json_object_set(model, "recommendation", (json_t *)rec);
    if (sim && json_object_get(sim, "mrc"))
        json_object_set(model, "mrc", json_object_get(sim, "mrc"));
    if (sim || rep)
        json_object_set_new(model, "comparison",
                            comparison(sim, rep, cur_ps, rec_ps));
    files = json_array();
    read_text(a->path[F_CREATE], files, "create.sql");
    read_text(a->path[F_ROLLBACK], files, "rollback.sql");
    json_object_set_new(model, "files", files);
    json_array_append_new(
        assumptions,
        json_string("page sizes are compared at equal buffer-pool bytes, "
                    "not equal page counts"));
    json_array_append_new(
        assumptions,
        json_string("direct (unbuffered) I/O for out-of-line objects as in "
                    "DB2 LONG VARCHAR / LOB without file-system caching; "
                    "other engines per their profile"));
    if (a->demo)
        json_array_append_new(
            assumptions,
            json_string("demo: the workload is generated from a shipped "
                        "profile and stored in a built-in SQLite store at 4K "
                        "pages, standing in for a DB2 SESSIONS table"));
    else
        json_array_append_new(
            assumptions,
            json_string("validation replays a generated trace whose object "
                        "sizes follow the sampled distribution"));
    json_array_append_new(
        assumptions,
        json_string("I/O times come from the device profile (OVERHEAD, "
                    "TRANSFERRATE); they are estimates, not measurements"));
    {
        size_t k;
        json_t *vn;
        json_array_foreach(a->validation_notes, k, vn)
            json_array_append(assumptions, vn);
    }
    json_object_set_new(model, "assumptions", assumptions);

    rc = pt_afile_open(&af, a->path[F_REPORT], a->common.force, err);
    if (rc < 0)
        goto out;
    rc = report_write_html(model, af.fp, err);
    if (rc < 0)
        pt_afile_abort(&af);
    else
        rc = pt_afile_commit(&af, err);
out:
    json_decref(model);
    json_decref(sizes);
    json_decref(eprof);
    return rc;
}

static int step(const struct advise *a, int rc, const char *what)
{
    (void)a;
    /* the step printed its own one-line error, prefixed with its name
       ("pagetune sample: ..."): a second line would break the one-line rule */
    (void)what;
    return rc;
}

/* Build the demo store: trace → replay at 4K into tmp/store, kept. */
static int demo_setup(struct advise *a)
{
    char store_dir[4200];
    int rc;

    snprintf(a->trace, sizeof(a->trace), "%s/trace.csv", a->tmp_dir);
    snprintf(store_dir, sizeof(store_dir), "%s/store", a->tmp_dir);
    note(a, "demo: generating %s requests from workload '%s'", a->requests,
         a->workload);
    rc = run("workload", "--profile", a->workload, "--requests", a->requests,
             "--seed", a->seed, "-o", a->trace, "--quiet", NULL);
    if (rc)
        return step(a, rc, "workload");
    note(a, "demo: running it on a built-in session store at 4K pages");
    {
        char live[4300];
        snprintf(live, sizeof(live), "%s/live-replay.json", a->tmp_dir);
        rc = run("replay", "--trace", a->trace, "--page-size", "4K",
                 "--store-dir", store_dir, "--keep", "--cache", a->cache,
                 "--json", "-o", live, "--quiet", NULL);
    }
    if (rc)
        return step(a, rc, "replay (demo store)");
    snprintf(a->conn_buf, sizeof(a->conn_buf),
             "Driver=SQLite3;Database=%s/store-4K.db;", store_dir);
    a->conn.connect = a->conn_buf;
    return 0;
}

/* The connection options, passed on as given. */
static void ab_conn(struct argv_b *b, const struct coll_conn_opts *c)
{
    ab_opt(b, "--dsn", c->dsn);
    ab_opt(b, "--connect", c->connect);
    ab_opt(b, "--password-file", c->password_file);
    ab_opt(b, "--password-env", c->password_env);
}

static int do_sample_monitor(struct advise *a)
{
    struct argv_b b = {.n = 0};
    int rc;

    note(a, "sampling object sizes of %s", a->table ? a->table : "SESSIONS");
    ab_add(&b, "sample");
    ab_conn(&b, &a->conn);
    ab_opt(&b, "--table", a->table);
    ab_opt(&b, "--columns", a->columns);
    ab_opt(&b, "--percent", a->percent);
    ab_opt(&b, "--rows", a->rows);
    ab_opt(&b, "-o", a->path[F_SIZES]);
    ab_add(&b, "--json");
    ab_add(&b, "--quiet");
    if (a->common.force)
        ab_add(&b, "--force");
    rc = ab_run(&b);
    if (rc)
        return step(a, rc, "sample");

    note(a, "monitoring the buffer pool for %s s", a->monitor_seconds);
    b.n = 0;
    ab_add(&b, "monitor");
    ab_conn(&b, &a->conn);
    ab_opt(&b, "--interval", a->monitor_seconds);
    ab_opt(&b, "--count", "2");
    ab_opt(&b, "-o", a->path[F_MONITOR]);
    ab_add(&b, "--json");
    ab_add(&b, "--quiet");
    if (a->common.force)
        ab_add(&b, "--force");
    rc = ab_run(&b);
    return step(a, rc, "monitor");
}

/* The table part of --table [SCHEMA.]NAME (DDL names the table alone). */
static const char *ddl_table(const char *table)
{
    const char *dot = strrchr(table, '.');
    return dot ? dot + 1 : table;
}

static const char *dialect_for(const char *engine)
{
    if (strcmp(engine, "mariadb") == 0)
        return "mysql";
    return engine;
}

int cmd_advise(int argc, char **argv)
{
    struct advise a;
    struct cli_parser p;
    struct pt_err err = {0};
    const char *arg;
    json_t *rec = NULL, *mon = NULL, *summary = NULL, *validation = NULL;
    json_t *sim = NULL, *rep = NULL; /* simulation.json, replay.json */
    char sim_line[256], rep_line[256];
    char bp_bytes[64], pages[32], cur_s[32], rec_s[32], ps_list[80];
    double cur_ps = 0, rec_ps, rec_pages;
    int id, rc, drift = 0;
    char why[1024] = "";

    memset(&a, 0, sizeof(a));
    cli_common_init(&a.common);
    a.out_dir = "pagetune-advice";
    a.validate_sim = a.validate_replay = 1;
    a.workload = "mixed-sessions";
    a.requests = "20000";
    a.seed = "42";
    a.cache = "2M";
    a.color = -1;
    a.tmp_slot = -1;
    if (cli_parse_begin(&p, "advise", opts, usage, description, argc, argv))
        return 70;
    while ((id = cli_next(&p, &a.common, &arg)) != CLI_NEXT_END) {
        if (id == CLI_NEXT_HELP)
            return 0;
        if (id == CLI_NEXT_USAGE)
            return 64;
        if (cli_conn_opt(&a.conn, id, arg))
            continue;
        switch (id) {
        case OPT_DEMO:
            a.demo = 1;
            break;
        case OPT_ENGINE:
            a.engine = arg;
            break;
        case OPT_TABLE:
            a.table = arg;
            break;
        case OPT_COLUMNS:
            a.columns = arg;
            break;
        case OPT_PERCENT:
            a.percent = arg;
            break;
        case OPT_ROWS:
            a.rows = arg;
            break;
        case OPT_OUTDIR:
            a.out_dir = arg;
            break;
        case OPT_MEMORY:
            a.memory = arg;
            break;
        case OPT_DEVICE:
            a.device = arg;
            break;
        case OPT_MONSEC:
            a.monitor_seconds = arg;
            break;
        case OPT_WORKLOAD:
            a.workload = arg;
            break;
        case OPT_REQUESTS:
            a.requests = arg;
            break;
        case OPT_SEED:
            a.seed = arg;
            break;
        case OPT_CACHE:
            a.cache = arg;
            break;
        case OPT_VALIDATE:
            if (strcmp(arg, "none") == 0)
                a.validate_sim = a.validate_replay = 0;
            else if (strcmp(arg, "sim") == 0)
                a.validate_replay = 0;
            else if (strcmp(arg, "replay") == 0)
                a.validate_sim = 0;
            else if (strcmp(arg, "both") != 0)
                return cli_usage_error("advise",
                                       "--validate: '%s' is not none, sim, "
                                       "replay or both",
                                       arg);
            break;
        case OPT_FAILON:
            if (strcmp(arg, "drift") != 0)
                return cli_usage_error(
                    "advise", "--fail-on: '%s' is not a gate (drift)", arg);
            a.fail_on_drift = 1;
            break;
        case CLI_OPT_COLOR:
            if (strcmp(arg, "auto") == 0)
                a.color = -1;
            else if (strcmp(arg, "always") == 0)
                a.color = 1;
            else if (strcmp(arg, "never") == 0)
                a.color = 0;
            else
                return cli_usage_error(
                    "advise", "--color: '%s' is not auto, always or never",
                    arg);
            break;
        default:
            return 64;
        }
    }
    if (a.demo && (a.conn.dsn || a.conn.connect))
        return cli_usage_error("advise",
                               "--demo runs on the built-in store; drop "
                               "--dsn/--connect");
    if (!a.demo && !a.conn.dsn && !a.conn.connect)
        return cli_usage_error("advise",
                               "give --dsn NAME or --connect STR, or --demo");
    if (a.conn.dsn && a.conn.connect)
        return cli_usage_error("advise", "give --dsn or --connect, not both");
    if (!a.monitor_seconds)
        a.monitor_seconds = a.demo ? "1" : "5";
    {
        uint64_t v;
        double d;
        if (pt_u64_parse(a.requests, &v, "--requests", &err) < 0 || v == 0)
            return cli_usage_error("advise",
                                   "--requests must be a whole number > 0");
        if (pt_double_parse(a.monitor_seconds, &d, "--monitor-seconds", &err) <
                0 ||
            d <= 0)
            return cli_usage_error("advise",
                                   "--monitor-seconds must be a number > 0");
        if (a.memory && pt_size_parse(a.memory, &v, "--memory", &err) < 0)
            return cli_usage_error("advise", "%s", err.msg);
    }

    rc = make_out_dir(&a, &err);
    if (rc == 0)
        rc = check_outputs(&a, &err);
    if (rc < 0)
        return cli_fail("advise", &err);
    if (!a.validate_sim)
        a.path[F_SIM][0] = '\0';
    if (!a.validate_replay)
        a.path[F_REPLAY][0] = '\0';

    {
        const char *tmp = getenv("TMPDIR");
        snprintf(a.tmp_dir, sizeof(a.tmp_dir), "%s/pagetune-advise.XXXXXX",
                 tmp && *tmp ? tmp : "/tmp");
        if (!mkdtemp(a.tmp_dir)) {
            cli_error("advise", "cannot create a temporary directory: %s",
                      strerror(errno));
            return 73;
        }
        a.tmp_slot = pt_tmpdir_register(a.tmp_dir);
    }

    a.validation_notes = json_array();
    if (a.demo && (rc = demo_setup(&a)) != 0)
        goto out;
    if ((rc = do_sample_monitor(&a)) != 0)
        goto out;
    if (detect_engine(&a, &err) < 0) {
        rc = cli_fail("advise", &err);
        goto out;
    }
    snprintf(a.dialect, sizeof(a.dialect), "%s", dialect_for(a.advise_engine));

    /* The validation trace: the demo's, or one with the sampled sizes. */
    if (!a.demo && (a.validate_sim || a.validate_replay)) {
        snprintf(a.trace, sizeof(a.trace), "%s/trace.csv", a.tmp_dir);
        note(&a, "generating a validation trace from the sampled sizes");
        if (empirical_profile(&a, &err) < 0) {
            rc = cli_fail("advise", &err);
            goto out;
        }
        rc = step(&a,
                  run("workload", "--profile", a.wl_profile, "--requests",
                      a.requests, "--seed", a.seed, "-o", a.trace, "--quiet",
                      NULL),
                  "workload");
        if (rc)
            goto out;
    }

    note(&a, "recommending for engine %s", a.advise_engine);
    {
        struct argv_b b = {.n = 0};
        ab_add(&b, "recommend");
        ab_opt(&b, "--sizes", a.path[F_SIZES]);
        ab_opt(&b, "--monitor", a.path[F_MONITOR]);
        if (a.demo)
            ab_opt(&b, "--trace", a.trace);
        ab_opt(&b, "--engine", a.advise_engine);
        ab_opt(&b, "--memory", a.memory);
        ab_opt(&b, "--device", a.device);
        ab_opt(&b, "-o", a.path[F_REC]);
        ab_add(&b, "--json");
        ab_add(&b, "--quiet");
        if (a.common.force)
            ab_add(&b, "--force");
        rc = step(&a, ab_run(&b), "recommend");
        if (rc)
            goto out;
    }
    rec = load_json(a.path[F_REC], &err);
    mon = load_json(a.path[F_MONITOR], &err);
    if (!rec || !mon) {
        rc = cli_fail("advise", &err);
        goto out;
    }
    rec_ps = jnum(rec, "page_size");
    rec_pages = jnum(rec, "bufferpool.pages");
    cur_ps = jnum(mon, "current.page_size");
    if (!isfinite(cur_ps) || cur_ps <= 0)
        cur_ps = 4096;
    snprintf(cur_s, sizeof(cur_s), "%.0f", cur_ps);
    snprintf(rec_s, sizeof(rec_s), "%.0f", rec_ps);
    snprintf(ps_list, sizeof(ps_list), "%s,%s", cur_s, rec_s);
    if (cur_ps == rec_ps)
        snprintf(ps_list, sizeof(ps_list), "%s", rec_s);
    /* a K suffix: simulate reads a plain number as pages, a suffixed one
     * as bytes (equal bytes at every page size) */
    snprintf(bp_bytes, sizeof(bp_bytes), "%.0fK", rec_pages * rec_ps / 1024);
    snprintf(pages, sizeof(pages), "%.0f", rec_pages);

    if (a.validate_sim) {
        if (tuned_engine_profile(&a, rec, rec_ps, &err) < 0) {
            rc = cli_fail("advise", &err);
            goto out;
        }
    }
    if (a.validate_sim && a.tuned_engine[0] && cur_ps == rec_ps) {
        /* same page size, another inline limit: two runs, one file */
        const json_t *k = json_object_get(rec, "inline_knob");
        const char *kn = json_string_value(json_object_get(k, "name"));
        note(&a,
             "validating by simulation: %s %.0f vs %.0f at %.0fK pages and "
             "%s of buffer pool",
             kn ? kn : "inline limit", jnum(k, "default"), jnum(k, "value"),
             rec_ps / 1024, bp_bytes);
        snprintf(a.sim_cur, sizeof(a.sim_cur), "%s/sim-current.json",
                 a.tmp_dir);
        snprintf(a.sim_rec, sizeof(a.sim_rec), "%s/sim-recommended.json",
                 a.tmp_dir);
        rc = step(&a,
                  run("simulate", "--trace", a.trace, "--engine",
                      a.advise_engine, "--page-size", rec_s, "--bufferpool",
                      bp_bytes, "--json", "-o", a.sim_cur, "--quiet", NULL),
                  "simulate (current)");
        if (!rc)
            rc = step(&a,
                      run("simulate", "--trace", a.trace, "--engine",
                          a.tuned_engine, "--page-size", rec_s, "--bufferpool",
                          bp_bytes, "--mrc", "--json", "-o", a.sim_rec,
                          "--quiet", NULL),
                      "simulate (recommended)");
        if (rc)
            goto out;
        if (merge_simulations(&a, kn ? kn : "inline_limit", jnum(k, "default"),
                              jnum(k, "value"), &err) < 0) {
            rc = cli_fail("advise", &err);
            goto out;
        }
    } else if (a.validate_sim) {
        note(&a,
             "validating by simulation: %.0fK vs %.0fK pages at %s of "
             "buffer pool",
             cur_ps / 1024, rec_ps / 1024, bp_bytes);
        if (cur_ps == rec_ps)
            json_array_append_new(
                a.validation_notes,
                json_string("the current page size is the recommended one: "
                            "the simulation shows that one configuration"));
        rc = step(&a,
                  run("simulate", "--trace", a.trace, "--engine",
                      a.advise_engine, "--page-size", ps_list, "--bufferpool",
                      bp_bytes, "--mrc", "--json", "-o", a.path[F_SIM],
                      "--quiet", a.common.force ? "--force" : NULL, NULL),
                  "simulate");
        if (rc)
            goto out;
    }
    if (a.validate_replay && cur_ps == rec_ps) {
        /* the built-in store differs only by page size: nothing to show */
        note(&a,
             "replay skipped: the current and the recommended page size "
             "are the same (%.0fK)",
             rec_ps / 1024);
        json_array_append_new(
            a.validation_notes,
            json_string("replay skipped: the built-in SQLite store can only "
                        "compare page sizes, and the current page size is "
                        "the recommended one"));
        a.validate_replay = 0;
        a.path[F_REPLAY][0] = '\0';
    }
    if (a.validate_replay) {
        note(&a, "validating by replay on the built-in store: %.0fK vs %.0fK",
             cur_ps / 1024, rec_ps / 1024);
        rc = step(&a,
                  run("replay", "--trace", a.trace, "--page-size", ps_list,
                      "--cache", a.cache, "--json", "-o", a.path[F_REPLAY],
                      "--quiet", a.common.force ? "--force" : NULL, NULL),
                  "replay");
        if (rc)
            goto out;
    }

    note(&a, "writing DDL (%s)", a.dialect);
    rc = step(&a,
              strcmp(a.dialect, "db2") != 0 && a.table
                  ? run("ddl", "--recommendation", a.path[F_REC], "--dialect",
                        a.dialect, "--table", ddl_table(a.table), "--out-dir",
                        a.out_dir, "--quiet", a.common.force ? "--force" : NULL,
                        NULL)
                  : run("ddl", "--recommendation", a.path[F_REC], "--dialect",
                        a.dialect, "--out-dir", a.out_dir, "--quiet",
                        a.common.force ? "--force" : NULL, NULL),
              "ddl");
    if (rc)
        goto out;

    { /* what the validation steps wrote, read once for report and summary */
        struct pt_err ignored;
        if (a.validate_sim)
            sim = load_json(a.path[F_SIM], &ignored);
        if (a.validate_replay)
            rep = load_json(a.path[F_REPLAY], &ignored);
    }
    if (write_report(&a, rec, cur_ps, sim, rep, &err) < 0) {
        rc = cli_fail("advise", &err);
        goto out;
    }

    {
        struct rec_current cur = {
            .page_size_bytes = (uint32_t)cur_ps,
            .bufferpool_pages =
                isfinite(jnum(mon, "current.bufferpool_pages"))
                    ? (uint64_t)jnum(mon, "current.bufferpool_pages")
                    : 0,
        };
        struct rec_doc rd;
        struct pt_err ignored;
        drift = rec_drift(&cur, (uint32_t)rec_ps, (uint64_t)rec_pages, 0.10,
                          why, sizeof(why));
        /* every knob read from the server (analyzers/drift.c) */
        if (rec_result_from_json(&rd, rec, NULL, a.path[F_REC], &ignored) ==
            0) {
            size_t off = strlen(why);
            if (rec_drift_doc(&rd, 0.10, why + off, sizeof(why) - off))
                drift = 1;
            rec_doc_release(&rd);
        }
    }

    validation = validation_summary(sim, rep, cur_ps, rec_ps, sim_line,
                                    rep_line, sizeof(sim_line));
    summary = json_pack(
        "{s:i, s:s, s:s, s:b, s:{s:f, s:o}, s:{s:f, s:f, s:O}, s:b, s:s, "
        "s:[s,s,s,s,s,s]}",
        "schema_version", 1, "engine", a.advise_engine, "out_dir", a.out_dir,
        "demo", a.demo, "current", "page_size", cur_ps, "bufferpool_pages",
        num_or_null(jnum(mon, "current.bufferpool_pages")), "recommended",
        "page_size", rec_ps, "bufferpool_pages", rec_pages, "reasons",
        json_object_get(rec, "reasons"), "drift", drift, "drift_details", why,
        "files", out_names[F_SIZES], out_names[F_MONITOR], out_names[F_REC],
        out_names[F_CREATE], out_names[F_ROLLBACK], out_names[F_REPORT]);
    if (summary && json_object_get(rec, "settings"))
        json_object_set(summary, "settings", json_object_get(rec, "settings"));
    if (summary && validation)
        json_object_set(summary, "validation", validation);
    if (a.validate_sim)
        json_array_append_new(json_object_get(summary, "files"),
                              json_string(out_names[F_SIM]));
    if (a.validate_replay)
        json_array_append_new(json_object_get(summary, "files"),
                              json_string(out_names[F_REPLAY]));
    if (a.common.format == OUT_JSON) {
        if (out_json_write(summary, stdout, &err) < 0) {
            rc = cli_fail("advise", &err);
            goto out;
        }
    } else {
        int color = a.color == -1 ? out_color_enabled(stdout) : a.color;
        static const char *const hdr[] = {"item", "value"};
        struct out_table t;
        char v[1200];
        int on = color && a.common.format == OUT_TABLE;

        if (out_table_init(&t, 2, hdr) < 0) {
            rc = 70;
            goto out;
        }
        out_table_add_row(&t);
        out_table_setf(&t, 0, "recommended page size");
        out_table_setf(&t, 1, "%s%.0fK%s", on ? "\033[1m" : "", rec_ps / 1024,
                       on ? "\033[0m" : "");
        out_table_add_row(&t);
        out_table_setf(&t, 0, "current page size");
        out_table_setf(&t, 1, "%.0fK", cur_ps / 1024);
        out_table_add_row(&t);
        out_table_setf(&t, 0, "buffer pool");
        out_table_setf(
            &t, 1, "%s pages of %.0fK (%s)", pages, rec_ps / 1024,
            strcmp(a.advise_engine, "db2") != 0 &&
                    json_is_string(json_object_get(
                        json_object_get(mon, "current"), "bufferpool"))
                ? json_string_value(json_object_get(
                      json_object_get(mon, "current"), "bufferpool"))
                : json_string_value(json_object_get(
                      json_object_get(rec, "bufferpool"), "name")));
        out_table_add_row(&t);
        if (json_object_size(json_object_get(rec, "settings")) > 0) {
            /* the engine's own vocabulary (toast_tuple_target, ...) */
            char set[1024] = "";
            size_t off = 0;
            const char *k;
            json_t *sv;
            json_object_foreach(json_object_get(rec, "settings"), k, sv)
            {
                int n;
                if (json_is_integer(sv))
                    n = snprintf(set + off, sizeof(set) - off, "%s%s=%lld",
                                 off ? " " : "", k,
                                 (long long)json_integer_value(sv));
                else
                    n = snprintf(
                        set + off, sizeof(set) - off, "%s%s=%s", off ? " " : "",
                        k, json_string_value(sv) ? json_string_value(sv) : "?");
                if (n < 0 || (size_t)n >= sizeof(set) - off)
                    break;
                off += (size_t)n;
            }
            out_table_setf(&t, 0, "%s settings", a.advise_engine);
            out_table_setf(&t, 1, "%s", set);
            out_table_add_row(&t);
        }
        if (sim_line[0]) {
            out_table_setf(&t, 0, "simulation (%s model)", a.advise_engine);
            out_table_setf(&t, 1, "%s", sim_line);
            out_table_add_row(&t);
        }
        if (rep_line[0]) {
            out_table_setf(&t, 0, "replay (built-in store)");
            out_table_setf(&t, 1, "%s", rep_line);
            out_table_add_row(&t);
        }
        out_table_setf(&t, 0, "drift");
        snprintf(v, sizeof(v), "%s", drift ? why : "none");
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
                       a.out_dir, a.validate_sim ? " simulation.json" : "",
                       a.validate_replay ? " replay.json" : "");
        rc = out_table_write(&t, a.common.format, stdout, &err);
        out_table_release(&t);
        if (rc < 0) {
            rc = cli_fail("advise", &err);
            goto out;
        }
    }
    if (fflush(stdout) != 0 || ferror(stdout)) {
        cli_error("advise", "cannot write to standard output: %s",
                  strerror(errno));
        rc = 74;
        goto out;
    }
    rc = (a.fail_on_drift && drift) ? 1 : 0;
out:
    json_decref(summary);
    json_decref(validation);
    json_decref(sim);
    json_decref(rep);
    json_decref(rec);
    json_decref(mon);
    json_decref(a.validation_notes);
    remove_tree(a.tmp_dir);
    pt_tmpdir_unregister(a.tmp_slot);
    return rc;
}
