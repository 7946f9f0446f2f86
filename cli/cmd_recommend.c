/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cmd_recommend.c — `pagetune recommend`: reads the evidence (a sizes file,
 * optionally monitor counters and a trace), loads the engine and device
 * profiles, runs analyzers' cost model and prints the recommendation: a
 * summary, the per-page-size candidates and the reasons (table), the
 * candidates (csv) or the recommendation document of design.md §4 (json).
 *
 * This file reads files and prints; the arithmetic is analyzers/'s
 * (rec_recommend), the trace is read through sim/'s reader.
 */
#include "cli/cli.h"

#include "analyzers/analyzers.h"
#include "collect/collect.h"
#include "sim/sim.h"

#include <stdlib.h>
#include <string.h>

static const char *const usage[] = {
    "pagetune recommend --sizes FILE [--monitor FILE] [--trace FILE] "
    "[--current FILE] "
    "[--engine NAME] [--device hdd|ssd|nvme | --profile FILE] "
    "[--memory BYTES] [--inline-target F] [--sessions N] [-o FILE] "
    "[--format table|json|csv]",
    "pagetune recommend --trace FILE [OPTIONS]",
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

enum {
    OPT_SIZES = CLI_OPT_FIRST_CUSTOM,
    OPT_MONITOR,
    OPT_TRACE,
    OPT_ENGINE,
    OPT_DEVICE,
    OPT_PROFILE,
    OPT_MEMORY,
    OPT_TARGET,
    OPT_SESSIONS,
    OPT_CURRENT,
};

static const struct cli_option opts[] = {
    {"sizes", 0, required_argument, OPT_SIZES, "FILE",
     "object sizes: sizes JSON or one integer per line, - is stdin "
     "(required unless --trace)"},
    {"monitor", 0, required_argument, OPT_MONITOR, "FILE",
     "monitor JSON from `pagetune monitor` (default: none)"},
    {"trace", 0, required_argument, OPT_TRACE, "FILE",
     "access trace (pagetune-trace(5) CSV or oracleGeneral) (default: none)"},
    {"engine", 0, required_argument, OPT_ENGINE, "NAME",
     "engine profile name or YAML path (default: db2)"},
    {"device", 0, required_argument, OPT_DEVICE, "NAME",
     "storage device profile: hdd, ssd or nvme (default: ssd)"},
    {"profile", 0, required_argument, OPT_PROFILE, "FILE",
     "device profile YAML file, instead of --device (default: none)"},
    {"memory", 0, required_argument, OPT_MEMORY, "BYTES",
     "buffer-pool budget, e.g. 512M (default: the monitored pool, else 256M)"},
    {"inline-target", 0, required_argument, OPT_TARGET, "F",
     "share of objects that must be stored inline, 0 < F <= 1 "
     "(default: 0.95)"},
    {"current", 0, required_argument, OPT_CURRENT, "FILE",
     "the server's current state: JSON {\"current\": {KNOB: {value, "
     "source}}} (default: the sizes and monitor files' \"current\", else "
     "the engine's defaults)"},
    {"sessions", 0, required_argument, OPT_SESSIONS, "N",
     "live sessions (rows) in the table (default: trace keys, monitor "
     "estimate, else one per size)"},
    CLI_OPT_OUTPUT_ENTRY,
    CLI_OPT_FORMAT_ENTRIES,
    CLI_OPT_FORCE_ENTRY,
    CLI_OPT_QUIET_ENTRY,
    CLI_OPT_HELP_ENTRY,
    CLI_OPT_END,
};

struct rec_opts {
    const char *sizes, *monitor, *trace, *engine, *device, *profile;
    const char *current;
    uint64_t memory, sessions;
    int memory_given;
    double target;
};

/* The trace's per-key evidence, read through sim/'s reader. */
static int read_trace(const char *path, struct rec_trace_evidence *t,
                      const struct cli_common *c, struct pt_err *err)
{
    static const enum rec_trace_op ops[] = {
        [SIM_GET] = REC_TRACE_GET,
        [SIM_SET] = REC_TRACE_SET,
        [SIM_DEL] = REC_TRACE_DEL,
    };
    struct sim_trace_reader *r = NULL;
    struct sim_req req;
    struct cli_progress pg;
    int rc;

    memset(t, 0, sizeof(*t));
    if ((rc = sim_trace_open(path, SIM_TRACE_AUTO, &r, err)) < 0)
        return rc;
    cli_progress_init(&pg, c, "reading trace", sim_trace_size(r));
    while ((rc = sim_trace_next(r, &req, err)) == 1) {
        if ((rc = rec_trace_evidence_add(t, req.key_id, req.size_bytes,
                                         ops[req.op], err)) < 0)
            break;
        if ((t->requests & 0xffff) == 0)
            cli_progress_update(&pg, sim_trace_pos(r));
    }
    cli_progress_done(&pg);
    sim_trace_close(r);
    if (rc < 0) {
        rec_trace_evidence_release(t);
        return rc;
    }
    if (t->n_keys == 0) {
        rec_trace_evidence_release(t);
        return err_set(err, PT_EDATA, "%s: the trace has no requests", path);
    }
    return 0;
}

/*
 * What a sizes or monitor document says of the server beyond sizes: its
 * "current" knobs (merged into *st) and, in sizes.json, "compress_ratio"
 * (docs/formats.md).
 */
static int read_state(const json_t *doc, const char *path, const char *engine,
                      struct rec_state *st, double *compress_ratio,
                      struct pt_err *err)
{
    const json_t *cr = json_object_get(doc, "compress_ratio");
    int rc;

    if (compress_ratio && cr && !json_is_null(cr)) {
        if (!json_is_number(cr) || !(json_number_value(cr) > 0) ||
            json_number_value(cr) > 100)
            return err_set(err, PT_EDATA,
                           "%s: compress_ratio must be a number > 0 (stored "
                           "bytes / raw bytes)",
                           path);
        *compress_ratio = json_number_value(cr);
    }
    rc = rec_state_merge_json(st, json_object_get(doc, "current"), engine,
                              REC_SOURCE_SERVER, path, err);
    return rc;
}

/* A sizes file: JSON if it starts with '{', else the plain list. */
static int read_sizes(const char *path, struct rec_sizes *s, int *is_json,
                      const char *engine, struct rec_state *st,
                      double *compress_ratio, struct pt_err *err)
{
    char *buf = NULL;
    size_t len = 0, i = 0;
    int rc;

    if ((rc = pt_file_read(path, &buf, &len, err)) < 0)
        return rc;
    while (i < len && (buf[i] == ' ' || buf[i] == '\t' || buf[i] == '\n' ||
                       buf[i] == '\r'))
        i++;
    *is_json = i < len && buf[i] == '{';
    if (*is_json) {
        json_t *doc = NULL;
        rc = pt_json_loadb(buf, len, path, &doc, err);
        if (rc == 0)
            rc = coll_sizes_doc_from_json(s, doc, path, err);
        if (rc == 0)
            rc = read_state(doc, path, engine, st, compress_ratio, err);
        json_decref(doc);
    } else {
        rc = rec_sizes_parse_text(s, buf, len, path, err);
    }
    free(buf);
    return rc;
}

static int load_profiles(const struct rec_opts *o, struct rec_engine *e,
                         struct rec_device *d, char *epath, char *dpath,
                         size_t plen, struct pt_err *err)
{
    json_t *p = NULL;
    int rc;

    if ((rc = prof_resolve("engines", o->engine, epath, plen, err)) < 0)
        return rc;
    if ((rc = prof_load(epath, &p, err)) < 0) {
        if (rc == PT_ENOINPUT && !strchr(o->engine, '/') &&
            !strstr(o->engine, ".y"))
            return err_set(err, PT_EUSAGE,
                           "--engine: no engine profile '%s' in %s/profiles/"
                           "engines",
                           o->engine, pt_data_dir());
        return rc;
    }
    rc = rec_engine_from_json(e, p, epath, err);
    json_decref(p);
    if (rc < 0)
        return rc;
    if (o->profile)
        snprintf(dpath, plen, "%s", o->profile);
    else if ((rc = prof_resolve("devices", o->device, dpath, plen, err)) < 0)
        return rc;
    if ((rc = prof_load(dpath, &p, err)) < 0) {
        if (rc == PT_ENOINPUT && !o->profile)
            return err_set(err, PT_EUSAGE,
                           "--device: unknown device '%s' (hdd, ssd, nvme, or "
                           "--profile FILE)",
                           o->device);
        return rc;
    }
    rc = rec_device_from_json(d, p, dpath, err);
    json_decref(p);
    return rc;
}

static json_t *inputs_json(const struct rec_opts *o, const char *epath,
                           const char *dpath, const struct rec_size_stats *st,
                           int sizes_json, const struct rec_trace_evidence *t,
                           const struct rec_monitor *m)
{
    struct rec_inputs_doc d = {0};

    d.engine = o->engine;
    d.engine_profile = epath;
    d.device = o->profile ? o->profile : o->device;
    d.device_profile = dpath;
    d.memory_given = o->memory_given;
    d.memory_bytes = o->memory;
    d.inline_target = o->target;
    d.sessions = o->sessions;
    d.stats = st;
    d.sizes_file = o->sizes ? o->sizes : o->trace;
    d.sizes_format = !o->sizes    ? "trace (last size per key)"
                     : sizes_json ? "json"
                                  : "text";
    d.trace_file = o->trace;
    d.trace = t;
    d.monitor_file = o->monitor;
    d.monitor = m;
    return rec_inputs_to_json(&d);
}

/* Human output: summary, candidates, reasons (three writer tables). */
static int write_tables(const struct rec_result *r, const struct rec_engine *e,
                        const struct rec_size_stats *st, enum out_format fmt,
                        FILE *fp, struct pt_err *err)
{
    static const char *const sum_h[] = {"setting", "value"};
    static const char *const cand_h[] = {
        ">page_size",   ">inline_%",  ">rows_per_page",  ">page_fill_%",
        ">bp_pages",    ">hit_%",     ">phys_reads/acc", ">direct_reads/acc",
        ">sectors/acc", ">io_ms/acc", "choice"};
    static const char *const why_h[] = {"reasons"};
    const struct rec_candidate *ch = &r->cand[r->chosen_idx];
    const struct rec_knob *pk = rec_state_get(&r->current, "page_size");
    int page_read = pk && pk->source == REC_SOURCE_SERVER;
    struct out_table sum, cand, why;
    char b[64];
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
    for (size_t i = 0; i < r->n_cand; i++) {
        const struct rec_candidate *c = &r->cand[i];
        const char *mark = i == r->chosen_idx ? "<- recommended" : "";
        if (out_table_add_row(&cand) < 0) {
            rc = err_set(err, PT_EINTERNAL, "out of memory");
            goto out;
        }
        out_table_setf(&cand, 0, "%s",
                       pt_size_format(c->page_size_bytes, b, sizeof(b)));
        out_table_setf(&cand, 1, "%.1f", 100 * c->inline_fraction);
        out_table_setf(&cand, 2, "%.2f", c->rows_per_page);
        out_table_setf(&cand, 3, "%.1f", 100 * c->page_fill);
        out_table_setf(&cand, 4, "%llu",
                       (unsigned long long)c->bufferpool_pages);
        out_table_setf(&cand, 5, "%.1f", 100 * c->hit_ratio);
        out_table_setf(&cand, 6, "%.4f", c->physical_reads);
        out_table_setf(&cand, 7, "%.4f", c->direct_reads);
        out_table_setf(&cand, 8, "%.2f", c->direct_sectors);
        out_table_setf(&cand, 9, "%.4f", c->io_ms);
        out_table_setf(&cand, 10, "%s%s",
                       i == r->chosen_idx
                           ? mark
                           : (i == r->rule_idx
                                  ? "inline rule"
                                  : (i == r->cost_idx ? "cheapest" : "")),
                       i != r->current_idx ? ""
                       : page_read         ? " (in use)"
                                           : " (default in use)");
    }
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
        ROW("buffer pool", "%llu pages of %u bytes%s",
            (unsigned long long)(r->pool_setting_bytes ? r->pool_setting_bytes /
                                                             ch->page_size_bytes
                                                       : ch->bufferpool_pages),
            ch->page_size_bytes, r->pool_kept ? " (kept: no --memory)" : "");
        for (size_t i = 0; i < r->n_settings; i++)
            ROW(r->settings[i].name, "%s", r->settings[i].value);
    } else {
        ROW("buffer pool", "%s: %llu pages of %u bytes", r->bufferpool_name,
            (unsigned long long)r->pool_pages, ch->page_size_bytes);
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
#undef ROW
    out_table_set_title(&cand,
                        "\ncandidates at equal buffer-pool memory (%s), per "
                        "access:",
                        pt_size_format(r->memory_bytes, b, sizeof(b)));
    for (size_t i = 0; i < r->n_reasons; i++) {
        /* wrap at ~96 columns on spaces: "- first line", "  more" */
        const char *s = r->reasons[i];
        int first = 1;
        while (*s) {
            size_t len = strlen(s), cut = len;
            if (len > 96) {
                cut = 96;
                while (cut > 40 && s[cut] != ' ')
                    cut--;
            }
            if (out_table_add_row(&why) < 0) {
                rc = err_set(err, PT_EINTERNAL, "out of memory");
                goto out;
            }
            out_table_setf(&why, 0, "%s%.*s", first ? "- " : "  ", (int)cut, s);
            first = 0;
            s += cut;
            while (*s == ' ')
                s++;
        }
    }
    out_table_set_title(&why, "%s", "");
    if ((rc = out_table_write(&sum, fmt, fp, err)) < 0 ||
        (rc = out_table_write(&cand, fmt, fp, err)) < 0 ||
        (rc = out_table_write(&why, fmt, fp, err)) < 0)
        goto out;
out:
    out_table_release(&sum);
    out_table_release(&cand);
    out_table_release(&why);
    return rc;
}

static int parse_opts(struct cli_parser *p, struct cli_common *c,
                      struct rec_opts *o, int argc, char **argv)
{
    const char *arg;
    struct pt_err err;
    int id;

    memset(o, 0, sizeof(*o));
    o->engine = "db2";
    o->device = "ssd";
    o->target = REC_DEFAULT_INLINE_TARGET;
    cli_common_init(c);
    if (cli_parse_begin(p, "recommend", opts, usage, description, argc, argv) <
        0)
        return 70;
    while ((id = cli_next(p, c, &arg)) != CLI_NEXT_END) {
        if (id == CLI_NEXT_HELP)
            return 0;
        if (id == CLI_NEXT_USAGE)
            return 64;
        switch (id) {
        case OPT_SIZES:
            o->sizes = arg;
            break;
        case OPT_MONITOR:
            o->monitor = arg;
            break;
        case OPT_CURRENT:
            o->current = arg;
            break;
        case OPT_TRACE:
            o->trace = arg;
            break;
        case OPT_ENGINE:
            o->engine = arg;
            break;
        case OPT_DEVICE:
            o->device = arg;
            break;
        case OPT_PROFILE:
            o->profile = arg;
            break;
        case OPT_MEMORY:
            if (pt_size_parse(arg, &o->memory, "--memory", &err) < 0 ||
                o->memory == 0)
                return cli_usage_error("recommend",
                                       "--memory: '%s' is not a byte size > 0 "
                                       "(e.g. 512M)",
                                       arg);
            o->memory_given = 1;
            break;
        case OPT_TARGET:
            if (pt_double_parse(arg, &o->target, "--inline-target", &err) < 0 ||
                !(o->target > 0 && o->target <= 1))
                return cli_usage_error(
                    "recommend", "--inline-target: '%s' is not in (0, 1]", arg);
            break;
        case OPT_SESSIONS:
            if (pt_u64_parse(arg, &o->sessions, "--sessions", &err) < 0 ||
                o->sessions == 0)
                return cli_usage_error(
                    "recommend", "--sessions: '%s' is not a count >= 1", arg);
            break;
        default:
            return 70;
        }
    }
    if (!o->sizes && !o->trace)
        return cli_usage_error("recommend", "--sizes FILE or --trace FILE is "
                                            "required");
    if (o->profile && strcmp(o->device, "ssd") != 0)
        return cli_usage_error("recommend",
                               "--device and --profile are exclusive");
    return -1; /* go on */
}

int cmd_recommend(int argc, char **argv)
{
    struct cli_parser p;
    struct cli_common c;
    struct rec_opts o;
    struct pt_err err;
    struct rec_engine engine;
    struct rec_device device;
    struct rec_sizes sizes = {0};
    struct rec_size_stats st;
    struct rec_monitor mon = {0};
    struct rec_state state = {0};
    double compress_ratio = 0;
    struct rec_trace_evidence tev = {0};
    struct rec_access acc;
    struct rec_inputs in = {0};
    struct rec_result *r = NULL;
    struct pt_afile af = {0};
    json_t *inputs = NULL, *doc = NULL;
    char epath[4096], dpath[4096];
    int sizes_json = 0, have_stats = 0, rc, code;

    code = parse_opts(&p, &c, &o, argc, argv);
    if (code >= 0)
        return code;
    err_clear(&err);
    /* refuse an existing output before doing any work */
    if ((rc = pt_output_check(c.output, c.force, &err)) < 0)
        return cli_fail("recommend", &err);
    if ((rc = load_profiles(&o, &engine, &device, epath, dpath, sizeof(epath),
                            &err)) < 0)
        goto fail;
    if (o.sizes) {
        if ((rc = read_sizes(o.sizes, &sizes, &sizes_json, engine.name, &state,
                             &compress_ratio, &err)) < 0 ||
            (rc = rec_stats_compute(&st, sizes.values, sizes.n, &err)) < 0)
            goto fail;
        have_stats = 1;
        /* the measured rest of the row replaces the profile's constant */
        if (sizes.row_measured)
            rec_engine_set_row_fixed(&engine, sizes.row_fixed_bytes);
    }
    if (o.monitor) {
        json_t *m = NULL;
        if ((rc = pt_json_load(o.monitor, &m, &err)) < 0)
            goto fail;
        rc = coll_monitor_doc_from_json(&mon, m, o.monitor, &err);
        if (rc == 0 && (!mon.engine[0] || strcmp(mon.engine, engine.name) == 0))
            rc = read_state(m, o.monitor, engine.name, &state, NULL, &err);
        json_decref(m);
        if (rc < 0)
            goto fail;
        if (mon.engine[0] && strcmp(mon.engine, engine.name) != 0)
            cli_note(&c,
                     "%s: monitor data is from engine '%s'; its counters are "
                     "not used for a %s recommendation",
                     o.monitor, mon.engine, engine.name);
    }
    if (o.current) {
        json_t *cd = NULL;
        if ((rc = pt_json_load(o.current, &cd, &err)) < 0)
            goto fail;
        rc = rec_state_merge_json(
            &state,
            json_object_get(cd, "current") ? json_object_get(cd, "current")
                                           : cd,
            engine.name, REC_SOURCE_SERVER, o.current, &err);
        json_decref(cd);
        if (rc < 0)
            goto fail;
    }
    if (o.trace && (rc = read_trace(o.trace, &tev, &c, &err)) < 0)
        goto fail;
    if (!have_stats && o.trace) {
        /* show the trace's per-session sizes (a sorted copy) */
        uint64_t *copy = pt_malloc(tev.n_keys * sizeof(*copy));
        if (!copy) {
            rc = err_set(&err, PT_EINTERNAL, "out of memory");
            goto fail;
        }
        memcpy(copy, tev.size_bytes, tev.n_keys * sizeof(*copy));
        rc = rec_stats_compute(&st, copy, tev.n_keys, &err);
        free(copy);
        if (rc < 0)
            goto fail;
        have_stats = 1;
    }

    in.engine = &engine;
    in.device = &device;
    in.sizes = sizes.values;
    in.n_sizes = sizes.n;
    in.sizes_from_histogram = sizes.from_histogram;
    in.memory_bytes = o.memory;
    in.memory_given = o.memory_given;
    in.inline_target = o.target;
    in.sessions = o.sessions;
    if (!o.sessions && sizes.live_rows) { /* measured by sample */
        in.sessions = sizes.live_rows;
        in.sessions_basis = sizes.live_rows_source;
    }
    in.monitor = o.monitor ? &mon : NULL;
    in.current = &state;
    in.compress_ratio = compress_ratio;
    if (o.trace) {
        rec_trace_evidence_access(&tev, &acc);
        in.access = &acc;
    }
    r = pt_calloc(1, sizeof(*r));
    if (!r) {
        rc = err_set(&err, PT_EINTERNAL, "out of memory");
        goto fail;
    }
    if ((rc = rec_recommend(r, &in, &err)) < 0)
        goto fail;

    if ((rc = cli_output_open(&c, &af, &err)) < 0)
        goto fail;
    if (c.format == OUT_JSON) {
        inputs = inputs_json(&o, epath, dpath, have_stats ? &st : NULL,
                             sizes_json, o.trace ? &tev : NULL, &mon);
        doc = rec_result_to_json(r, &engine, inputs);
        if (!doc) {
            rc = err_set(&err, PT_EINTERNAL, "out of memory");
            goto fail_out;
        }
        rc = out_json_write(doc, af.fp, &err);
    } else {
        rc = write_tables(r, &engine, have_stats ? &st : NULL, c.format, af.fp,
                          &err);
    }
    if (rc < 0)
        goto fail_out;
    if ((rc = pt_afile_commit(&af, &err)) < 0)
        goto fail;
    code = 0;
    goto out;
fail_out:
    pt_afile_abort(&af);
fail:
    code = cli_fail("recommend", &err);
out:
    json_decref(doc);
    json_decref(inputs);
    free(r);
    rec_trace_evidence_release(&tev);
    rec_sizes_release(&sizes);
    return code;
}
