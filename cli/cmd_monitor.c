/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cmd_monitor.c — `pagetune monitor`: N snapshots of the engine's buffer
 * pool, tablespace and table counters, --interval seconds apart, rendered
 * as deltas, rates and hit ratios (docs/formats.md#monitor). The front door:
 * options, then collect/ takes the run (coll_monitor_run) and builds the
 * monitor document that `pagetune recommend --monitor` reads
 * (coll_monitor_doc_to_json); this file writes that document or a table.
 */
#include "cli/cli.h"

#include <stdlib.h>
#include <string.h>

#include "collect/collect.h"

static const char *const usage[] = {
    "pagetune monitor (--dsn NAME | --connect STR) [--interval SEC] "
    "[--count N] [-o monitor.json]",
    NULL,
};

enum {
    OPT_ENGINE = CLI_OPT_FIRST_CUSTOM,
};

struct mon_args {
    struct coll_conn_opts conn;
    double interval_s;
    uint64_t count;
};

static const struct cli_option opts[] = {
    CLI_OPT_CONN_ENTRIES,
    {.name = "engine",
     .group = CLI_G_CONNECTION,
     .has_arg = required_argument,
     .id = OPT_ENGINE,
     .arg_name = "NAME",
     .choices = cli_db_engines,
     .help = "auto, db2, postgresql, mysql or sqlite",
     .def = "auto, from SQL_DBMS_NAME"},
    {.name = "interval",
     .group = CLI_G_SAMPLING,
     .short_name = 'i',
     .type = CLI_T_DOUBLE,
     CLI_AT(struct mon_args, interval_s),
     .dmin = 0.1,
     .dmax = 86400,
     .arg_name = "SEC",
     .help = "seconds between snapshots",
     .def = "10"},
    {.name = "count",
     .group = CLI_G_SAMPLING,
     .type = CLI_T_UINT,
     CLI_AT(struct mon_args, count),
     .min = 1,
     .max = 10000,
     .arg_name = "N",
     .help = "number of snapshots; 1 gives counters since server start",
     .def = "2"},
    CLI_OPT_OUTPUT_ENTRY,
    CLI_OPT_COMMON_ENTRIES_END,
};

static const char description[] =
    "Takes N snapshots of the database's buffer-pool counters (DB2\n"
    "MON_GET_BUFFERPOOL / MON_GET_TABLESPACE, PostgreSQL pg_stat_database /\n"
    "pg_statio_user_tables, MariaDB InnoDB status, SQLite page settings)\n"
    "and reports deltas, rates and hit ratios per interval. With -o FILE\n"
    "the format defaults to json (for `pagetune recommend --monitor`).";

static const char *const examples[] = {
    "hit ratios over one minute, as a table",
    "pagetune monitor --dsn SESSIONDB --interval 60",
    "six snapshots a minute apart for `pagetune recommend --monitor`",
    "pagetune monitor --dsn SESSIONDB --interval 60 --count 6 -o mon.json",
    NULL,
};

CLI_SPEC_DEFINE(monitor);

/* 0 to go on, CLI_HELP_SHOWN, or a PT_* status after one line. */
static int parse_opts(struct cli_common *c, struct mon_args *a, int argc,
                      char **argv)
{
    struct cli_parser p;
    struct pt_err err;
    const char *arg;
    int id;

    cli_common_init(c);
    memset(a, 0, sizeof(*a));
    a->interval_s = 10;
    a->count = 2;
    a->conn.login_timeout_s = 30;
    if (cli_parse_spec(&p, &cli_spec_monitor, a, argc, argv) < 0)
        return PT_EINTERNAL;
    while ((id = cli_next(&p, c, &arg)) != CLI_NEXT_END) {
        if (id == CLI_NEXT_HELP)
            return CLI_HELP_SHOWN;
        if (id == CLI_NEXT_USAGE)
            return PT_EUSAGE;
        if (cli_conn_opt(&a->conn, id, arg))
            continue;
        err_clear(&err);
        if (id != OPT_ENGINE)
            return PT_EINTERNAL;
        if (coll_engine_parse(arg, &a->conn.engine, &err) < 0) {
            cli_usage_error("monitor", "%s", err.msg);
            return PT_EUSAGE;
        }
    }
    if (cli_conn_check(p.cmd, &a->conn) < 0)
        return PT_EUSAGE;
    if (!c->format_given && strcmp(c->output, "-") != 0)
        c->format = OUT_JSON;
    return 0;
}

static void on_progress(void *ctx, size_t done, size_t total)
{
    (void)ctx;
    fprintf(stderr, "\rmonitor: snapshot %zu/%zu", done, total);
}

/* Between snapshots: "monitor: snapshot 1/2, next in 42 s" (a TTY only). */
static void on_countdown(void *ctx, size_t done, size_t total, unsigned left_s)
{
    (void)ctx;
    fprintf(stderr, "\rmonitor: snapshot %zu/%zu, next in %u s  ", done, total,
            left_s);
    fflush(stderr);
}

/* Table: one row per buffer pool and interval. */
static int write_table(const struct coll_conn *conn,
                       const struct coll_snapshot *snaps, size_t n,
                       enum out_format fmt, FILE *fp, struct pt_err *err)
{
    static const char *const h[] = {
        "pool",           ">interval",       ">seconds",
        ">logical_reads", ">physical_reads", ">hit_ratio_%",
        ">direct_reads",  ">logical_per_s"};
    struct out_table t;
    struct coll_current cur;
    int ret;

    coll_monitor_current(coll_conn_engine(conn), &snaps[n - 1], &cur);
    if (out_table_init(&t, 8, h) < 0)
        return err_set(err, PT_EINTERNAL, "out of memory");
    out_table_set_title(
        &t, "%s — current pool %s: page size %llu, %llu pages (%llu bytes)%s",
        coll_engine_name(coll_conn_engine(conn)), cur.bufferpool,
        (unsigned long long)cur.page_size,
        (unsigned long long)cur.bufferpool_pages,
        (unsigned long long)cur.bufferpool_bytes,
        cur.has_hit_counters ? "" : "; no hit counters over ODBC");
    for (size_t k = (n > 1 ? 1 : 0); k < n; k++) {
        const struct coll_snapshot *b = &snaps[k];
        for (size_t i = 0; i < b->n; i++) {
            const struct coll_metric *m = &b->m[i], *pa, *pb, *la, *da, *db;
            double l, p, d, secs;
            if (strcmp(m->scope, "bufferpool") != 0 ||
                strcmp(m->name, "logical_reads") != 0)
                continue;
            pb = coll_snapshot_find(b, "bufferpool", m->object,
                                    "physical_reads");
            db = coll_snapshot_find(b, "bufferpool", m->object, "direct_reads");
            if (n > 1) {
                const struct coll_snapshot *a = &snaps[k - 1];
                la = coll_snapshot_find(a, "bufferpool", m->object,
                                        "logical_reads");
                pa = coll_snapshot_find(a, "bufferpool", m->object,
                                        "physical_reads");
                da = coll_snapshot_find(a, "bufferpool", m->object,
                                        "direct_reads");
                if (!la || !pa || !pb)
                    continue;
                /* a counter that went backwards: coll_counter_delta */
                l = coll_counter_delta(la->value, m->value, NULL);
                p = coll_counter_delta(pa->value, pb->value, NULL);
                d = db && da ? coll_counter_delta(da->value, db->value, NULL)
                             : 0;
                secs = b->t_s - a->t_s;
            } else {
                if (!pb)
                    continue;
                l = m->value;
                p = pb->value;
                d = db ? db->value : 0;
                secs = 0;
            }
            out_table_add_row(&t);
            out_table_setf(&t, 0, "%s", m->object);
            if (n > 1)
                out_table_setf(&t, 1, "%zu-%zu", k - 1, k);
            else
                out_table_setf(&t, 1, "since start");
            out_table_setf(&t, 2, "%.2f", secs);
            out_table_set_num(&t, 2, secs);
            out_table_setf(&t, 3, "%.0f", l);
            out_table_setf(&t, 4, "%.0f", p);
            if (coll_hit_ratio(l, p) < 0)
                out_table_setf(&t, 5, "-");
            else {
                out_table_setf(&t, 5, "%.2f", coll_hit_ratio(l, p));
                out_table_set_num(&t, 5, coll_hit_ratio(l, p));
            }
            out_table_setf(&t, 6, "%.0f", d);
            if (secs > 0) {
                out_table_setf(&t, 7, "%.1f", l / secs);
                out_table_set_num(&t, 7, l / secs);
            } else
                out_table_setf(&t, 7, "-");
        }
    }
    ret = out_table_write(&t, fmt, fp, err);
    out_table_release(&t);
    return ret;
}

int cmd_monitor(int argc, char **argv)
{
    struct cli_common c;
    struct mon_args a;
    struct pt_err err;
    struct coll_conn *conn = NULL;
    struct coll_snapshot *snaps = NULL;
    struct coll_monitor_opts mo = {0};
    struct pt_afile af = {0};
    size_t n = 0;
    json_t *doc = NULL;
    int code, ret;

    if ((ret = parse_opts(&c, &a, argc, argv)) != 0)
        return cli_parse_exit(ret);
    err_clear(&err);
    if (pt_output_check(c.output, c.force, &err) < 0)
        return cli_fail("monitor", &err);
    ret = coll_conn_open(&conn, &a.conn, &err);
    if (ret < 0)
        return cli_fail("monitor", &err);
    snaps = calloc((size_t)a.count, sizeof(*snaps));
    if (!snaps) {
        ret = err_set(&err, PT_EINTERNAL, "out of memory");
        goto fail;
    }
    mo.count = (size_t)a.count;
    mo.interval_s = a.interval_s;
    mo.progress = c.progress ? on_progress : NULL;
    mo.countdown = c.progress ? on_countdown : NULL;
    ret = coll_monitor_run(conn, &mo, snaps, &n, &err);
    if (ret < 0)
        goto fail;
    if (c.progress)
        fputs("\r\033[K", stderr);
    {
        /* judged by what the window saw (pagetune-monitor(1)) */
        struct coll_monitor_doc d;
        char why[400];

        coll_monitor_doc_init(&d, coll_conn_engine(conn), NULL, snaps, n,
                              a.interval_s);
        if (coll_monitor_window_thin(&d, "--interval", why, sizeof(why)))
            cli_note(&c, "warning: %s", why);
    }
    ret = cli_output_open(&c, &af, &err);
    if (ret < 0)
        goto fail;
    if (c.format == OUT_JSON) {
        struct coll_source src;
        struct coll_monitor_doc d;
        struct coll_state st;

        coll_source_init(&src, conn);
        coll_monitor_doc_init(&d, coll_conn_engine(conn), &src, snaps, n,
                              a.interval_s);
        /* the instance's knobs as they are now (docs/formats.md current) */
        ret = coll_state_read(conn, NULL, NULL, &st, &err);
        if (ret < 0)
            goto fail_out;
        d.state = &st;
        doc = coll_monitor_doc_to_json(&d);
        if (!doc) {
            ret = err_set(&err, PT_EINTERNAL, "out of memory");
            goto fail_out;
        }
        ret = out_json_write(doc, af.fp, &err);
    } else {
        ret = write_table(conn, snaps, n, c.format, af.fp, &err);
    }
    if (ret < 0)
        goto fail_out;
    ret = pt_afile_commit(&af, &err);
    if (ret < 0)
        goto fail;
    code = PT_EXIT_OK;
    goto out;
fail_out:
    pt_afile_abort(&af);
fail:
    if (c.progress)
        fputs("\r\033[K", stderr);
    code = cli_fail("monitor", &err);
out:
    json_decref(doc);
    for (size_t i = 0; snaps && i < n; i++)
        coll_snapshot_release(&snaps[i]);
    free(snaps);
    coll_conn_close(conn);
    return code;
}
