/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cmd_workload.c — `pagetune workload`: generate a trace (pagetune-trace(5)
 * CSV) from a workload profile. The profile is YAML read by core's
 * prof_load_named("workloads", …); an empirical size distribution may name
 * a sizes file (one byte size per line, '#' comments), read here relative
 * to the profile. The generator itself is sim/workload.c; this file parses
 * options, writes the trace atomically and draws the progress bar.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "sim/sim.h"

static const char *const usage[] = {
    "pagetune workload --profile NAME|FILE [--requests N] [--seed S] "
    "[-o trace.csv] [--force]",
    NULL,
};

static const char description[] =
    "Generate a reproducible request trace (pagetune-trace(5): time_ms,op,\n"
    "key,size) from a workload profile: object sizes (fixed, lognormal or\n"
    "empirical), key popularity (Zipf or uniform) or HTTP sessions with\n"
    "arrivals and invalidation timeouts, and the get/set/del mix. Profiles\n"
    "are in the data directory's profiles/workloads/ (article-4k,\n"
    "article-10k, article-30k, trade-14pct, trade-0pct, mixed-sessions) or\n"
    "any YAML file; see pagetune-profile(5). The same seed gives the same\n"
    "trace.";

struct workload_args {
    const char *profile;
    uint64_t requests;
    int have_requests;
    uint64_t seed;
    int have_seed;
};

static const struct cli_option opts[] = {
    {.name = "profile",
     .group = CLI_G_WORKLOAD,
     .short_name = 'P',
     .type = CLI_T_STRING,
     CLI_AT(struct workload_args, profile),
     .io = CLI_IO_PROFILE,
     .arg_name = "NAME|FILE",
     .help = "workload profile: a name in profiles/workloads/ or a YAML file",
     .required = 1,
     .complete = CLI_C_WORKLOAD},
    {.name = "requests",
     .group = CLI_G_WORKLOAD,
     .type = CLI_T_UINT,
     CLI_AT(struct workload_args, requests),
     CLI_GIVEN(struct workload_args, have_requests),
     .min = 1,
     .max = UINT64_MAX,
     .arg_name = "N",
     .help = "records to write, invalidations included",
     .def = "the profile's 'requests', else 100000"},
    {.name = "seed",
     .group = CLI_G_WORKLOAD,
     .short_name = 's',
     .type = CLI_T_UINT,
     CLI_AT(struct workload_args, seed),
     CLI_GIVEN(struct workload_args, have_seed),
     .max = UINT64_MAX,
     .arg_name = "S",
     .help = "random seed",
     .def = "the profile's 'seed', else 1"},
    CLI_OPT_OUTPUT_ENTRY,
    CLI_OPT_FORCE_ENTRY,
    CLI_OPT_QUIET_ENTRY,
    CLI_OPT_HELP_ENTRY,
    CLI_OPT_END,
};

static const char *const examples[] = {
    "a 100000-record trace of 4K articles",
    "pagetune workload --profile article-4k -o article-4k.csv",
    "HTTP sessions, another seed, to stdout",
    "pagetune workload --profile mixed-sessions --requests 50000 --seed 7",
    NULL,
};

/*
 * The path of the profile's size.file (relative to the profile's
 * directory) into path[len]: 1, 0 when there is none, or PT_EDATA.
 */
static int sizes_file_path(const json_t *prof, const char *prof_path,
                           char *path, size_t len, struct pt_err *err)
{
    const json_t *size = json_object_get(prof, "size");
    const json_t *f = size ? json_object_get(size, "file") : NULL;
    const char *slash;

    if (!f)
        return 0;
    if (!json_is_string(f))
        return err_set(err, PT_EDATA, "%s: size.file must be a path",
                       prof_path);
    slash = strrchr(prof_path, '/');
    if (json_string_value(f)[0] == '/' || !slash)
        snprintf(path, len, "%s", json_string_value(f));
    else
        snprintf(path, len, "%.*s/%s", (int)(slash - prof_path), prof_path,
                 json_string_value(f));
    return 1;
}

/*
 * cli_spec.paths: the profile's size.file is an input too. A profile that
 * does not load adds nothing here; the run then says why.
 */
static int workload_paths(const void *base, struct pt_pathset *set,
                          struct pt_err *err)
{
    const struct workload_args *a = base;
    char prof_path[4096], path[4096];
    json_t *prof = NULL;
    int rc = 0;

    if (a->profile &&
        prof_resolve("workloads", a->profile, prof_path, sizeof(prof_path),
                     NULL) == 0 &&
        prof_load(prof_path, &prof, NULL) == 0 &&
        sizes_file_path(prof, prof_path, path, sizeof(path), NULL) == 1)
        rc =
            pt_pathset_add(set, "--profile's size.file", path, PT_PATH_IN, err);
    json_decref(prof);
    return rc;
}

CLI_SPEC_DEFINE_PATHS(workload, workload_paths);

/* 0 to go on, CLI_HELP_SHOWN, or a PT_* status after one line. */
static int parse_args(int argc, char **argv, struct cli_common *c,
                      struct workload_args *a, struct cli_parser *p)
{
    int rc;

    memset(a, 0, sizeof(*a));
    cli_common_init(c);
    if ((rc = cli_parse_all(p, &cli_spec_workload, a, c, argc, argv)) != 0)
        return rc;
    if (!a->profile) {
        cli_usage_error("workload", "--profile NAME|FILE is required");
        return PT_EUSAGE;
    }
    if (c->format != OUT_TABLE) {
        cli_usage_error("workload", "a trace is CSV; --format does not apply");
        return PT_EUSAGE;
    }
    return 0;
}

/*
 * size: {dist: empirical, file: F}: read F (relative to the profile's
 * directory) into size.values so the generator sees a plain list.
 */
static int load_sizes_file(json_t *prof, const char *prof_path,
                           struct pt_err *err)
{
    json_t *size = json_object_get(prof, "size"), *vals;
    char path[4096], *buf = NULL, *line, *next;
    size_t len, lineno = 0;
    int rc;

    if ((rc = sizes_file_path(prof, prof_path, path, sizeof(path), err)) <= 0)
        return rc;
    if ((rc = pt_file_read(path, &buf, &len, err)) < 0)
        return rc;
    vals = json_array();
    for (line = buf; line && *line; line = next) {
        uint64_t v;
        char *end;
        next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        lineno++;
        end = line + strlen(line);
        while (end > line && (end[-1] == '\r' || end[-1] == ' '))
            *--end = '\0';
        while (*line == ' ')
            line++;
        if (!*line || *line == '#')
            continue;
        if (pt_u64_parse(line, &v, "size", NULL) < 0 || v > 2147483647u) {
            json_decref(vals);
            rc = err_set(err, PT_EDATA, "%s:%zu: '%s' is not a byte size", path,
                         lineno, line);
            free(buf);
            return rc;
        }
        json_array_append_new(vals, json_integer((json_int_t)v));
    }
    free(buf);
    if (json_array_size(vals) == 0) {
        json_decref(vals);
        return err_set(err, PT_EDATA, "%s: no sizes in the file", path);
    }
    json_object_set_new(size, "values", vals);
    return 0;
}

/* sim_wgen_write_csv's hook: the progress bar (Ctrl-C stops the library
   through pt_interrupted). */
static void workload_progress(void *ctx, uint64_t done, uint64_t n)
{
    (void)n;
    cli_progress_update(ctx, done);
}

int cmd_workload(int argc, char **argv)
{
    struct cli_common c;
    struct cli_parser p;
    struct workload_args a;
    struct pt_err err;
    struct sim_workload w;
    struct pt_afile af = {0};
    struct cli_progress pg;
    char path[4096];
    json_t *prof = NULL;
    uint64_t n, seed;
    int ret;

    memset(&w, 0, sizeof(w));
    err_clear(&err);
    if ((ret = parse_args(argc, argv, &c, &a, &p)) != 0)
        return cli_parse_exit(ret);
    if ((ret = prof_resolve("workloads", a.profile, path, sizeof(path), &err)) <
            0 ||
        (ret = prof_load(path, &prof, &err)) < 0 ||
        (ret = load_sizes_file(prof, path, &err)) < 0 ||
        (ret = sim_workload_from_json(&w, prof, path, &err)) < 0)
        goto fail;
    n = a.have_requests ? a.requests : w.requests;
    seed = a.have_seed ? a.seed : w.seed;
    if ((ret = pt_output_check(c.output, c.force, &err)) < 0 ||
        (ret = cli_output_open(&c, &af, &err)) < 0)
        goto fail;
    cli_progress_init(&pg, &c, "workload", n);
    ret = sim_wgen_write_csv(&w, n, seed, af.fp, workload_progress, &pg, &err);
    if (ret < 0)
        goto fail;
    cli_progress_done(&pg);
    if ((ret = pt_afile_commit(&af, &err)) < 0)
        goto fail;
    cli_note(&c, "wrote %llu records of workload '%s' (seed %llu)",
             (unsigned long long)n, w.name, (unsigned long long)seed);
    sim_workload_release(&w);
    json_decref(prof);
    return PT_EXIT_OK;
fail:
    pt_afile_abort(&af);
    sim_workload_release(&w);
    json_decref(prof);
    return cli_fail("workload", &err);
}
