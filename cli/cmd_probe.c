/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cmd_probe.c — `pagetune probe`: measure this machine's unit costs of the
 * built-in store (store/probe.c) and write them as a calibration profile
 * that simulate, recommend, replay and advise take with --calibration
 * (pagetune-probe(1)). The summary table goes to stdout when the profile
 * goes to a file; with no -o the profile itself is the output.
 */
#include <string.h>
#include <time.h>

#include "cli/cli.h"
#include "model/model.h"
#include "store/store.h"

static const char *const usage[] = {
    "pagetune probe [-o probe.yaml] [--engine NAME] [--store-dir DIR] "
    "[--cache BYTES] [--rounds K] [--ops N] [--sessions N] [--quick] "
    "[--force]",
    NULL,
};

static const char description[] =
    "Measure what the built-in session store costs on this machine, with\n"
    "no trace: a get and a set in the row at each page size of the engine\n"
    "(a 256-byte object and one of nine tenths of the inline limit), and in\n"
    "the LOB area (8,000 and 32,000 bytes) through the OS file cache and\n"
    "with direct I/O, in interleaved rounds with a 95% interval each. The\n"
    "result is a calibration profile: give it to advise, recommend, replay\n"
    "or simulate with --calibration, and the store model predicts the\n"
    "replay's requests/s and response time from it. A probe changes the\n"
    "predicted figures, never the recommendation. Probe on the machine and\n"
    "file system the replays run on; a probe from another host, CPU or file\n"
    "system is named foreign, one older than 30 days or from another\n"
    "pagetune version stale.";

struct probe_args {
    struct store_probe_opts po;
    int sync; /* index of store_sync_names (enum store_sync) */
    const char *engine;
    int quick;
    int rounds_given, ops_given;
};

#define A struct probe_args
static const struct cli_option opts[] = {
    {.name = "engine",
     .group = CLI_G_STORE,
     .short_name = 'e',
     .type = CLI_T_STRING,
     CLI_AT(A, engine),
     .io = CLI_IO_PROFILE,
     .arg_name = "NAME",
     .help = "engine profile whose page sizes and placement the stores take "
             "(out-of-line data in a LOB area: db2)",
     .def = "db2",
     .complete = CLI_C_ENGINE},
    {.name = "store-dir",
     .group = CLI_G_STORE,
     .type = CLI_T_DIR,
     CLI_AT(A, po.store_dir),
     .io = CLI_IO_SPEC,
     .arg_name = "DIR",
     .help = "directory under which the probe's stores are made (use the "
             "replays' --store-dir: its file system is part of the cost)",
     .def = "$TMPDIR, else /tmp; /var/tmp when that is memory"},
    {.name = "cache",
     .group = CLI_G_STORE,
     .type = CLI_T_SIZE,
     CLI_AT(A, po.cache_bytes),
     .min = 1024,
     .max = UINT64_MAX,
     .arg_name = "BYTES",
     .help = "page cache of each store, as the replay's --cache",
     .def = "2M"},
    {.name = "sync",
     .group = CLI_G_STORE,
     .type = CLI_T_ENUM,
     CLI_AT(A, sync),
     .choices = store_sync_names,
     .help = "durability of the probe's stores, as the replay's --sync: "
             "probe with the level the replays use (full: an fsync at "
             "every commit, as DB2 forces its log); a replay refuses a "
             "probe of another level",
     .def = "normal"},
    {.name = "rounds",
     .group = CLI_G_MEASUREMENT,
     .type = CLI_T_UINT,
     CLI_AT(A, po.rounds),
     CLI_GIVEN(A, rounds_given),
     .min = 2,
     .max = STORE_MAX_ROUNDS,
     .arg_name = "K",
     .help = "measured rounds over every cell",
     .def = "7; 5 with --quick"},
    {.name = "ops",
     .group = CLI_G_MEASUREMENT,
     .type = CLI_T_UINT,
     CLI_AT(A, po.ops),
     CLI_GIVEN(A, ops_given),
     .min = 10,
     .max = 1000000,
     .arg_name = "N",
     .help = "operations timed per cell and round",
     .def = "400; 100 with --quick"},
    {.name = "sessions",
     .group = CLI_G_MEASUREMENT,
     .type = CLI_T_UINT,
     CLI_AT(A, po.sessions),
     .min = 16,
     .max = 100000,
     .arg_name = "N",
     .help = "sessions of each object size in each store",
     .def = "512"},
    {.name = "quick",
     .group = CLI_G_MEASUREMENT,
     .type = CLI_T_FLAG,
     CLI_AT(A, quick),
     .help = "the short probe advise runs when it has no calibration (a few "
             "seconds, wider intervals)",
     .def = "off"},
    CLI_OPT_OUTPUT_ENTRY,
    CLI_OPT_FORCE_ENTRY,
    CLI_OPT_QUIET_ENTRY,
    CLI_OPT_HELP_ENTRY,
    CLI_OPT_END,
};
#undef A

static const char *const examples[] = {
    "probe this machine and keep the calibration (then give it to replay, "
    "advise, recommend or simulate with --calibration FILE)",
    "pagetune probe -o probe.yaml",
    "the short probe advise runs, on the replays' store directory",
    "pagetune probe --quick --store-dir /var/tmp -o probe.yaml",
    "tighter intervals, the profile to stdout",
    "pagetune probe --rounds 9 --ops 1000",
    NULL,
};

/* cli_spec.paths: --store-dir only holds a fresh temporary directory of
 * the probe's own (pt_tmpdir_make_in), nobody's file: no path to check. */
static int probe_paths(const void *base, struct pt_pathset *set,
                       struct pt_err *err)
{
    (void)base, (void)set, (void)err;
    return 0;
}

CLI_SPEC_DEFINE_PATHS(probe, probe_paths);

static void on_progress(void *ctx, uint64_t done, uint64_t total)
{
    struct cli_progress *pg = ctx;

    pg->total = total;
    cli_progress_update(pg, done);
}

/* The probe's name: probe-<host>-<date>. */
static void probe_name(const struct store_probe *pr, char *buf, size_t len)
{
    time_t t = (time_t)pr->measured_s;
    struct tm tm;
    char day[16] = "";

    if (gmtime_r(&t, &tm))
        strftime(day, sizeof(day), "%Y%m%d", &tm);
    snprintf(buf, len, "probe-%.40s-%s", pr->host, day);
}

/* A row of the summary: the cell, its size, get and set with intervals. */
static void summary_row(struct out_table *t, const char *cell, uint32_t size,
                        const struct store_probe_line *lines, int k)
{
    out_table_add_row(t);
    out_table_setf(t, 0, "%s", cell);
    out_table_setf(t, 1, "%u", size);
    for (int op = 0; op < STORE_PROBE_N_OPS; op++) {
        const struct store_probe_cost *x = &lines[op].at[k];
        out_table_setf(t, 2 + (size_t)op, "%.1f [%.1f, %.1f]", x->mean_us,
                       x->lo_us, x->hi_us);
    }
}

/* The figures, a row per cell, to stdout. */
static int print_summary(const struct cli_common *c,
                         const struct store_probe *pr, struct pt_err *err)
{
    static const char *const hdr[] = {"cell", ">bytes", ">get us [95%]",
                                      ">write-back set us [95%]",
                                      ">set alone us [95%]"};
    struct out_table t;
    char cell[96], ps[32];
    int rc;

    if (c->quiet)
        return 0;
    if (out_table_init(&t, 5, hdr) < 0)
        return err_set(err, PT_EINTERNAL, "out of memory");
    for (size_t i = 0; i < pr->n_pages; i++)
        for (int k = 0; k < 2; k++) {
            const struct store_probe_page *p = &pr->page[i];
            snprintf(cell, sizeof(cell), "row %s",
                     pt_fig_page(p->page_size_bytes, ps, sizeof(ps)));
            summary_row(&t, cell, p->row[0].size_bytes[k], p->row, k);
        }
    for (int io = 0; io < 2; io++)
        for (int k = 0; k < 2; k++) {
            snprintf(cell, sizeof(cell), "LOB %s%s",
                     store_lob_io_name((enum store_lob_io)io),
                     io == STORE_LOB_DIRECT && !pr->lob_direct
                         ? " (ran cached: no O_DIRECT)"
                         : "");
            summary_row(&t, cell, pr->lob[io][0].size_bytes[k], pr->lob[io], k);
        }
    rc = out_table_write(&t, OUT_TABLE, stdout, err);
    out_table_release(&t);
    return rc;
}

int cmd_probe(int argc, char **argv)
{
    struct cli_common c;
    struct cli_parser p;
    struct probe_args a;
    struct pt_err err;
    struct rec_engine e;
    struct store_probe pr;
    struct pt_afile af = {0};
    struct cli_progress pg;
    char name[96], path[4096];
    int ret;

    err_clear(&err);
    memset(&a, 0, sizeof(a));
    store_probe_opts_init(&a.po);
    a.sync = (int)a.po.sync;
    a.engine = "db2";
    cli_common_init(&c);
    if ((ret = cli_parse_all(&p, &cli_spec_probe, &a, &c, argc, argv)) != 0)
        return cli_parse_exit(ret);
    a.po.sync = (enum store_sync)a.sync;
    if (a.quick) {
        if (!a.rounds_given)
            a.po.rounds = STORE_PROBE_QUICK_ROUNDS;
        if (!a.ops_given)
            a.po.ops = STORE_PROBE_QUICK_OPS;
    }
    if ((ret = rec_engine_load(a.engine, &e, NULL, path, sizeof(path), &err)) <
        0)
        goto fail;
    a.po.engine = &e;
    a.po.engine_name = a.engine;
    if ((ret = pt_output_check(c.output, c.force, &err)) < 0)
        goto fail;
    cli_progress_init(&pg, &c, "probe", 0);
    a.po.progress = on_progress;
    a.po.ctx = &pg;
    ret = store_probe_run(&a.po, &pr, &err);
    cli_progress_done(&pg);
    if (ret < 0)
        goto fail;
    probe_name(&pr, name, sizeof(name));
    if ((ret = cli_output_open(&c, &af, &err)) < 0 ||
        (ret = store_probe_write(af.fp, &pr, name, &err)) < 0 ||
        (ret = pt_afile_commit(&af, &err)) < 0)
        goto fail;
    if (c.output && strcmp(c.output, "-") != 0 &&
        (ret = print_summary(&c, &pr, &err)) < 0)
        goto fail;
    cli_note(&c,
             "probed %zu page sizes and the LOB area (%s) in %.1f s: "
             "calibration '%s'%s%s",
             pr.n_pages,
             pr.lob_direct ? "cached and direct"
                           : "cached only: the store directory refuses "
                             "O_DIRECT",
             pr.elapsed_s, name, c.output ? " in " : "",
             c.output ? c.output : "");
    return PT_EXIT_OK;
fail:
    pt_afile_abort(&af);
    return cli_fail("probe", &err);
}
