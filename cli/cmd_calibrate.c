/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cmd_calibrate.c — `pagetune calibrate`: fit the performance model's free
 * costs to measured points. Loads the simulation.json documents whose
 * result rows give each point's counts, reads the points CSV through
 * perf_calib_points_read (pagetune-calibrate(1), POINTS; perf/points.c),
 * gathers the fixed costs from the profiles (perf/predict.c),
 * fits with perf_calib_fit (MINPACK's Levenberg-Marquardt, perf/calib.c),
 * prints every fitted value, bound and residual, and writes the
 * calibration profile with perf_calib_write.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "perf/perf.h"
#include "sim/sim.h"

static const char *const usage[] = {
    "pagetune calibrate --points FILE.csv --simulation FILE "
    "[--simulation FILE ...] [--free COST[:LO:HI],...] [--engine NAME|FILE] "
    "[--device NAME|FILE] [--appserver NAME|FILE] [--calibration NAME|FILE] "
    "[--fscache-share F] [--page-fscache-share F] [--cross-validate] "
    "[--force] [--name NAME] [-o FILE] [--format table|json|csv]",
    NULL,
};

static const char description[] =
    "Fit the free costs of the performance model (pagetune-simulate(1),\n"
    "MODEL) to measured points: a CSV of configurations with clients, think\n"
    "time, requests/s and response time (a load test, `pagetune replay`, or\n"
    "a published table). Each point names a result row of a simulation.json\n"
    "(`pagetune simulate --json`) by its page_size, bufferpool_pages,\n"
    "app_entries, ... columns; its counts come from that row. The other\n"
    "costs come from the device, engine, application-server and (with\n"
    "--calibration) calibration profiles. Writes a calibration profile for\n"
    "`simulate --calibration` and prints every fitted value, bound and\n"
    "residual (to stderr when the profile goes to stdout), with each free\n"
    "cost's identifiability: the Jacobian's rank at the fit and the range\n"
    "of values (the others held at their fit) whose rms residual stays\n"
    "within 0.01 of the fit's. A fit with an unidentified cost or an rms\n"
    "relative residual above 0.25 is refused (exit 65) unless --force.";

#define MAX_SIMS 8
#define DEFAULT_LO 0.001
#define DEFAULT_HI 100.0

enum {
    OPT_SIMULATION = CLI_OPT_FIRST_CUSTOM,
    OPT_NAME,
};

struct cal_args {
    const char *points;
    size_t n_sims;
    const char *sims[MAX_SIMS];
    const char *free_list;
    const char *name;
    int engine_given, device_given;
    int cross_validate;
    struct perf_profiles model;
};

#define A struct cal_args
static const struct cli_option opts[] = {
    {.name = "points",
     .group = CLI_G_INPUT,
     .type = CLI_T_PATH,
     CLI_AT(A, points),
     .io = CLI_IO_IN,
     .arg_name = "FILE",
     .help = "measured points, CSV with a header (pagetune-calibrate(1) "
             "POINTS)",
     .required = 1},
    {.name = "simulation",
     .group = CLI_G_INPUT,
     .has_arg = required_argument,
     .id = OPT_SIMULATION,
     .io = CLI_IO_IN,
     .arg_name = "FILE",
     .help = "simulation.json holding the points' configurations, up to 8",
     .required = 1,
     .repeat = 1},
    {.name = "free",
     .group = CLI_G_FIT,
     .type = CLI_T_STRING,
     CLI_AT(A, free_list),
     .arg_name = "LIST",
     .help = "costs to fit, each COST or COST:LO:HI",
     .def = "app_cpu_fixed_ms, bounds 0.001:100"},
    {.name = "engine",
     .group = CLI_G_MODEL,
     .type = CLI_T_STRING,
     CLI_AT(A, model.engine),
     .io = CLI_IO_PROFILE,
     CLI_GIVEN(A, engine_given),
     .arg_name = "NAME|FILE",
     .help = "engine profile",
     .def = "the simulation's engine",
     .complete = CLI_C_ENGINE},
    {.name = "device",
     .group = CLI_G_MODEL,
     .type = CLI_T_STRING,
     CLI_AT(A, model.device),
     .io = CLI_IO_PROFILE,
     CLI_GIVEN(A, device_given),
     .arg_name = "NAME|FILE",
     .help = "device profile",
     .def = "the simulation's device",
     .complete = CLI_C_DEVICE},
    CLI_OPT_APPSERVER_ENTRY(A, CLI_NOT_GIVEN),
    {.name = "calibration",
     .group = CLI_G_MODEL,
     .type = CLI_T_STRING,
     CLI_AT(A, model.calibration),
     .io = CLI_IO_PROFILE,
     .arg_name = "NAME|FILE",
     .help = "start from this calibration's costs",
     .def = "none",
     .complete = CLI_C_CALIBRATION},
    {.name = "cross-validate",
     .group = CLI_G_FIT,
     .type = CLI_T_FLAG,
     CLI_AT(A, cross_validate),
     .help = "print leave-one-out held-out req/s errors (each point left "
             "out, fitted on the rest)",
     .def = "off"},
    CLI_OPT_FSCACHE_ENTRY(A, CLI_NOT_GIVEN),
    CLI_OPT_PAGE_FSCACHE_ENTRY(A, CLI_NOT_GIVEN),
    {.name = "name",
     .group = CLI_G_OUTPUT,
     .has_arg = required_argument,
     .id = OPT_NAME,
     .arg_name = "NAME",
     .help = "name of the calibration",
     .def = "-o's base name, else 'calibration'"},
    CLI_OPT_OUTPUT_ENTRY,
    CLI_OPT_COMMON_ENTRIES_END,
};
#undef A

static const char *const examples[] = {
    "fit the application server's fixed CPU cost to a load test",
    "pagetune calibrate --points points.csv --simulation sim.json "
    "-o profiles/calibrations/mine.yaml",
    "fit two costs within bounds, starting from a calibration",
    "pagetune calibrate --points points.csv --simulation sim.json "
    "--free app_cpu_fixed_ms,db_cpu_per_row_ms:0.01:10 --calibration "
    "article-000",
    NULL,
};

CLI_SPEC_DEFINE(calibrate);

/* ---- options -------------------------------------------------------------
 */

/* 0 to go on, CLI_HELP_SHOWN, or a PT_* status after one line. */
static int parse_args(int argc, char **argv, struct cli_common *c,
                      struct cal_args *a, struct cli_parser *p)
{
    const char *arg;
    int id;

    memset(a, 0, sizeof(*a));
    perf_profiles_init(&a->model);
    cli_common_init(c);
    if (cli_parse_spec(p, &cli_spec_calibrate, a, argc, argv) < 0)
        return PT_EINTERNAL;
    while ((id = cli_next(p, c, &arg)) != CLI_NEXT_END) {
        switch (id) {
        case CLI_NEXT_HELP:
            return CLI_HELP_SHOWN;
        case CLI_NEXT_USAGE:
            return PT_EUSAGE;
        case OPT_SIMULATION:
            if (a->n_sims == MAX_SIMS) {
                cli_usage_error("calibrate",
                                "--simulation: at most %d documents", MAX_SIMS);
                return PT_EUSAGE;
            }
            a->sims[a->n_sims++] = arg;
            break;
        case OPT_NAME:
            if (!*arg || strlen(arg) >= 64) {
                cli_usage_error("calibrate", "--name: 1 to 63 characters");
                return PT_EUSAGE;
            }
            a->name = arg;
            break;
        default:
            return PT_EINTERNAL;
        }
    }
    if (!a->points || !a->n_sims) {
        cli_usage_error("calibrate", "--points FILE and --simulation FILE are "
                                     "required");
        return PT_EUSAGE;
    }
    return 0;
}

/* "cost[:lo:hi],..." into cal->free. */
static int free_parse(const char *list, struct perf_calib *cal)
{
    const char *p = list ? list : "app_cpu_fixed_ms";
    struct pt_err err;

    cal->n_free = 0;
    for (;;) {
        char item[128], *lo, *hi;
        const char *comma = strchr(p, ',');
        size_t n = comma ? (size_t)(comma - p) : strlen(p);
        struct perf_free *f;

        if (n == 0 || n >= sizeof(item) || cal->n_free == PERF_N_FITTABLE)
            return cli_usage_error("calibrate",
                                   "--free: '%s' is not a list of up to %d "
                                   "costs",
                                   list, PERF_N_FITTABLE),
                   PT_EUSAGE;
        memcpy(item, p, n);
        item[n] = '\0';
        f = &cal->free[cal->n_free++];
        f->lo = DEFAULT_LO;
        f->hi = DEFAULT_HI;
        if ((lo = strchr(item, ':'))) {
            *lo++ = '\0';
            if (!(hi = strchr(lo, ':')))
                return cli_usage_error("calibrate",
                                       "--free: '%s' needs COST:LO:HI", p),
                       PT_EUSAGE;
            *hi++ = '\0';
            if (pt_double_parse(lo, &f->lo, "--free", &err) < 0 ||
                pt_double_parse(hi, &f->hi, "--free", &err) < 0 ||
                !(f->lo >= 0) || !(f->hi > f->lo))
                return cli_usage_error("calibrate",
                                       "--free: bounds of '%s' must be "
                                       "0 <= LO < HI",
                                       item),
                       PT_EUSAGE;
        }
        f->cost = perf_cost_find(item);
        if (f->cost < 0 || f->cost >= PERF_N_FITTABLE)
            return cli_usage_error("calibrate",
                                   "--free: '%s' is not a cost the model "
                                   "fits (see pagetune-calibrate(1))",
                                   item),
                   PT_EUSAGE;
        if (!comma)
            return 0;
        p = comma + 1;
    }
}

/* The simulations the points refer to. */
struct sims {
    size_t n;
    const char *path[MAX_SIMS];
    struct sim_plan_result res[MAX_SIMS];
};

/* ---- output --------------------------------------------------------------
 */

/* The report as one JSON document (--json): the fit, the fitted costs
   and the points, numbers as numbers (pagetune-calibrate(1), OUTPUT). */
static int write_report_json(FILE *fp, const struct perf_calib *cal,
                             const struct perf_ident *id, const double *cv,
                             struct pt_err *err)
{
    json_t *doc, *costs = json_array(), *points = json_array();
    int ret;

    for (size_t j = 0; costs && j < cal->n_free; j++)
        json_array_append_new(
            costs, json_pack("{s:s, s:f, s:f, s:f, s:b, s:f, s:f}", "cost",
                             perf_cost_name(cal->free[j].cost), "fitted",
                             cal->fitted[j], "lo", cal->free[j].lo, "hi",
                             cal->free[j].hi, "identified", id->identified[j],
                             "range_lo", id->range_lo[j], "range_hi",
                             id->range_hi[j]));
    for (size_t i = 0; points && i < cal->n_points; i++) {
        const struct perf_point *p = &cal->points[i];
        json_array_append_new(
            points,
            json_pack("{s:s, s:i, s:f, s:f, s:f, s:f, s:f, s:f, s:f}", "point",
                      p->label, "clients", (int)p->clients, "think_ms",
                      p->think_ms, "req_per_s", p->req_per_s,
                      "predicted_req_per_s", cal->pred_req_per_s[i],
                      "req_per_s_residual_pct", 100 * cal->resid_req_per_s[i],
                      "response_ms", p->response_ms, "predicted_response_ms",
                      cal->pred_response_ms[i], "response_ms_residual_pct",
                      100 * cal->resid_response_ms[i]));
        if (cv)
            json_object_set_new(json_array_get(points, i),
                                "heldout_req_per_s_pct", json_real(cv[i]));
    }
    doc = json_pack("{s:i, s:s, s:s, s:f, s:i, s:i, s:o, s:o}",
                    "schema_version", 1, "pagetune_version", PT_VERSION, "name",
                    cal->name, "rms_residual", cal->rms_resid, "solver_info",
                    cal->solver_info, "jacobian_rank", id->rank, "costs", costs,
                    "points", points);
    if (!doc)
        return err_set(err, PT_EINTERNAL, "out of memory");
    ret = out_json_write(doc, fp, err);
    json_decref(doc);
    return ret;
}

static int write_report(FILE *fp, enum out_format fmt,
                        const struct perf_calib *cal,
                        const struct perf_ident *id, const double *cv,
                        struct pt_err *err)
{
    static const char *const fh[] = {"cost",
                                     ">fitted",
                                     ">lo",
                                     ">hi",
                                     "identified",
                                     ">range lo|range_lo",
                                     ">range hi|range_hi"};
    static const char *const ch[] = {"point", ">req/s|req_per_s",
                                     ">held-out %|heldout_req_per_s_pct"};
    struct out_table ct;
    /* shown|CSV header: the repeated shown names say which figure */
    static const char *const ph[] = {"point",
                                     ">clients",
                                     ">think ms|think_ms",
                                     ">req/s|req_per_s",
                                     ">predicted|predicted_req_per_s",
                                     ">residual %|req_per_s_residual_pct",
                                     ">response ms|response_ms",
                                     ">predicted|predicted_response_ms",
                                     ">residual %|response_ms_residual_pct"};
    struct out_table ft, pt;
    int ret;

    if (fmt == OUT_JSON)
        return write_report_json(fp, cal, id, cv, err);
    memset(&pt, 0, sizeof(pt));
    memset(&ct, 0, sizeof(ct));
    if ((ret = out_table_init(&ft, 7, fh)) < 0 ||
        (ret = out_table_init(&pt, 9, ph)) < 0 ||
        (ret = out_table_init(&ct, 3, ch)) < 0) {
        ret = err_set(err, PT_EINTERNAL, "out of memory");
        goto out;
    }
    out_table_set_title(&ft,
                        "calibration %s: %zu free cost(s), %zu point(s), rms "
                        "relative residual %.4f (lmdif info %d), Jacobian "
                        "rank %d of %zu",
                        cal->name, cal->n_free, cal->n_points, cal->rms_resid,
                        cal->solver_info, id->rank, cal->n_free);
    for (size_t j = 0; j < cal->n_free; j++) {
        out_table_add_row(&ft);
        out_table_setf(&ft, 0, "%s", perf_cost_name(cal->free[j].cost));
        out_table_setf(&ft, 1, "%.6g", cal->fitted[j]);
        out_table_set_num(&ft, 1, cal->fitted[j]);
        out_table_setf(&ft, 2, "%.6g", cal->free[j].lo);
        out_table_set_num(&ft, 2, cal->free[j].lo);
        out_table_setf(&ft, 3, "%.6g", cal->free[j].hi);
        out_table_set_num(&ft, 3, cal->free[j].hi);
        out_table_setf(&ft, 4, "%s", id->identified[j] ? "yes" : "NO");
        out_table_setf(&ft, 5, "%.6g", id->range_lo[j]);
        out_table_set_num(&ft, 5, id->range_lo[j]);
        out_table_setf(&ft, 6, "%.6g", id->range_hi[j]);
        out_table_set_num(&ft, 6, id->range_hi[j]);
    }
    out_table_set_title(&pt, "\npoints: measured, predicted, residual "
                             "(predicted - measured) / measured");
    for (size_t i = 0; i < cal->n_points; i++) {
        const struct perf_point *p = &cal->points[i];
        out_table_add_row(&pt);
        out_table_setf(&pt, 0, "%s", p->label);
        out_table_setf(&pt, 1, "%u", p->clients);
        out_table_setf(&pt, 2, "%.6g", p->think_ms);
        out_table_setf(&pt, 3, "%.6g", p->req_per_s);
        out_table_setf(&pt, 4, "%.6g", cal->pred_req_per_s[i]);
        out_table_setf(&pt, 5, "%+.2f", 100 * cal->resid_req_per_s[i]);
        out_table_setf(&pt, 6, "%.6g", p->response_ms);
        out_table_setf(&pt, 7, "%.6g", cal->pred_response_ms[i]);
        out_table_setf(&pt, 8, "%+.2f", 100 * cal->resid_response_ms[i]);
    }
    if ((ret = out_table_write(&ft, fmt, fp, err)) < 0)
        goto out;
    /* one table per CSV stream: the fitted costs */
    if (fmt == OUT_TABLE)
        ret = out_table_write(&pt, fmt, fp, err);
    if (ret >= 0 && cv && fmt == OUT_TABLE) {
        double ss = 0;
        for (size_t i = 0; i < cal->n_points; i++) {
            out_table_add_row(&ct);
            out_table_setf(&ct, 0, "%s", cal->points[i].label);
            out_table_setf(&ct, 1, "%.6g", cal->points[i].req_per_s);
            out_table_setf(&ct, 2, "%+.2f", cv[i]);
            ss += cv[i] * cv[i];
        }
        out_table_set_title(&ct,
                            "\ncross-validation: each point left out, the "
                            "costs fitted on the rest; held-out req/s error, "
                            "rms %.2f %%",
                            sqrt(ss / (double)cal->n_points));
        ret = out_table_write(&ct, fmt, fp, err);
    }
out:
    out_table_release(&ft);
    out_table_release(&pt);
    out_table_release(&ct);
    return ret;
}

/*
 * A fit calibrate refuses without --force (issue 27): a free cost the
 * points do not identify (perf_calib_identify), or an rms relative
 * residual above PERF_CALIB_MAX_RMS (0.25: a model a quarter off its own
 * fitted points explains nothing it is then asked to predict; every
 * shipped calibration is below 0.1, docs/models.md).
 */
static int refuse(const struct perf_calib *cal, const struct perf_ident *id,
                  int force, struct pt_err *err)
{
    if (force)
        return 0;
    for (size_t j = 0; j < cal->n_free; j++)
        if (!id->identified[j])
            return err_set(err, PT_EDATA,
                           "free cost '%s' is not identified by the points "
                           "(Jacobian rank %d of %zu); add points that tell "
                           "it apart, fix it, or --force",
                           perf_cost_name(cal->free[j].cost), id->rank,
                           cal->n_free);
    if (cal->rms_resid > PERF_CALIB_MAX_RMS)
        return err_set(err, PT_EDATA,
                       "rms relative residual %.4g is above %.2g: the model "
                       "does not fit these points; check them, or --force",
                       cal->rms_resid, PERF_CALIB_MAX_RMS);
    return 0;
}

/* The profile's leading comments: where it came from. */
static void comment_text(char *buf, size_t len, const struct cal_args *a,
                         const struct perf_profiles *mo)
{
    size_t n =
        (size_t)snprintf(buf, len,
                         "Fitted by `pagetune calibrate` to the points of %s.\n"
                         "Counts from simulation.json:",
                         a->points);
    for (size_t i = 0; i < a->n_sims && n < len; i++)
        n += (size_t)snprintf(buf + n, len - n, " %s", a->sims[i]);
    if (n < len)
        snprintf(buf + n, len - n,
                 "\nFixed costs from: device %s, engine %s, application "
                 "server %s%s%s; fscache_share %g, page_fscache_share %g.",
                 mo->device, mo->engine, mo->appserver,
                 mo->calibration ? ", calibration " : "",
                 mo->calibration ? mo->calibration : "", mo->fscache_share,
                 mo->page_fscache_share);
}

/* The calibration's name: --name, else -o's base name without .yaml. */
static void cal_name(char *out, size_t len, const struct cal_args *a,
                     const struct cli_common *c)
{
    const char *base, *dot;

    if (a->name) {
        snprintf(out, len, "%s", a->name);
        return;
    }
    if (strcmp(c->output, "-") == 0) {
        snprintf(out, len, "calibration");
        return;
    }
    base = strrchr(c->output, '/');
    base = base ? base + 1 : c->output;
    dot = strrchr(base, '.');
    snprintf(out, len, "%.*s",
             (int)(dot && dot != base ? (size_t)(dot - base) : strlen(base)),
             base);
}

/* ---- the run -------------------------------------------------------------
 */

static int load_sims(struct sims *s, const struct cal_args *a,
                     struct pt_err *err)
{
    int ret;

    for (size_t i = 0; i < a->n_sims; i++) {
        json_t *doc = NULL;
        s->path[i] = a->sims[i];
        if ((ret = pt_json_load(a->sims[i], &doc, err)) < 0)
            return ret;
        ret = sim_plan_result_from_json(&s->res[i], doc, a->sims[i], err);
        json_decref(doc);
        s->n = i + 1;
        if (ret < 0)
            return ret;
    }
    return 0;
}

int cmd_calibrate(int argc, char **argv)
{
    struct cli_common c;
    struct cli_parser p;
    struct cal_args a;
    struct pt_err err;
    struct sims *s = NULL;
    struct perf_calib *cal = NULL;
    struct perf_predictor m;
    struct perf_sim_docs docs;
    struct pt_afile af = {0};
    struct perf_ident id;
    double *cv = NULL;
    char comment[2048];
    int ret, to_stdout;

    err_clear(&err);
    if ((ret = parse_args(argc, argv, &c, &a, &p)) != 0)
        return cli_parse_exit(ret);
    s = pt_calloc(1, sizeof(*s));
    cal = pt_calloc(1, sizeof(*cal)); /* ~90 KB: perf.h says the heap */
    if (!s || !cal) {
        ret = err_set(&err, PT_EINTERNAL, "out of memory");
        goto fail;
    }
    if ((ret = free_parse(a.free_list, cal)) < 0) {
        free(s);
        free(cal);
        return cli_exit_code(ret);
    }
    if ((ret = pt_output_check(c.output, c.force, &err)) < 0 ||
        (ret = load_sims(s, &a, &err)) < 0)
        goto fail;
    /* the engine and device of the simulation unless given */
    if (!a.engine_given && s->res[0].engine)
        a.model.engine = s->res[0].engine;
    if (!a.device_given && s->res[0].device && *s->res[0].device)
        a.model.device = s->res[0].device;
    docs.n = s->n;
    docs.path = s->path;
    docs.res = s->res;
    if ((ret = perf_predictor_load(&m, &a.model, &err)) < 0 ||
        (ret = perf_calib_points_read(cal, a.points, &docs, &m, &err)) < 0)
        goto fail;
    cal->costs = m.costs;
    cal_name(cal->name, sizeof(cal->name), &a, &c);
    if ((ret = perf_calib_fit(cal, &err)) < 0 ||
        (ret = perf_calib_identify(cal, &id, &err)) < 0)
        goto fail;
    if (a.cross_validate) {
        if (!(cv = pt_calloc(cal->n_points, sizeof(*cv)))) {
            ret = err_set(&err, PT_EINTERNAL, "out of memory");
            goto fail;
        }
        if ((ret = perf_calib_cross_validate(cal, cv, &err)) < 0)
            goto fail;
    }
    to_stdout = strcmp(c.output, "-") == 0;
    if ((ret = refuse(cal, &id, c.force, &err)) < 0) {
        /* the report says why; the profile is not written */
        struct pt_err scratch;
        err_clear(&scratch);
        if (!c.quiet)
            (void)write_report(to_stdout ? stderr : stdout, c.format, cal, &id,
                               cv, &scratch);
        goto fail;
    }
    comment_text(comment, sizeof(comment), &a, &a.model);
    if ((ret = cli_output_open(&c, &af, &err)) < 0)
        goto fail;
    if ((ret = perf_calib_write(af.fp, cal, comment, &err)) < 0 ||
        (ret = pt_afile_commit(&af, &err)) < 0) {
        pt_afile_abort(&af);
        goto fail;
    }
    if (!c.quiet || !to_stdout) {
        FILE *fp = to_stdout ? stderr : stdout;
        if ((ret = write_report(fp, c.format, cal, &id, cv, &err)) < 0)
            goto fail;
        if (fflush(fp) != 0 || ferror(fp)) {
            ret = err_set(&err, PT_EIO, "cannot write the report");
            goto fail;
        }
    }
    for (size_t i = 0; s && i < s->n; i++)
        sim_plan_result_release(&s->res[i]);
    free(s);
    free(cal);
    free(cv);
    return PT_EXIT_OK;
fail:
    for (size_t i = 0; s && i < s->n; i++)
        sim_plan_result_release(&s->res[i]);
    free(s);
    free(cal);
    free(cv);
    return cli_fail("calibrate", &err);
}
