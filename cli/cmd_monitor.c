/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cmd_monitor.c — `pagetune monitor`: N snapshots of the engine's buffer
 * pool, tablespace and table counters, --interval seconds apart, rendered
 * as deltas, rates and hit ratios (design.md §3). collect/ takes the
 * snapshots and computes deltas (coll_snapshot_deltas, coll_hit_ratio);
 * this file loops, sleeps, groups metrics by object and writes the monitor
 * JSON that `pagetune recommend --monitor` reads ("current" and "summary"
 * are the keys it relies on) or a table.
 */
#include "cli/cli.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "collect/collect.h"

static const char *const usage[] = {
    "pagetune monitor (--dsn NAME | --connect STR) [--interval SEC] "
    "[--count N] [-o monitor.json]",
    NULL,
};

enum {
    OPT_ENGINE = CLI_OPT_FIRST_CUSTOM,
    OPT_INTERVAL,
    OPT_COUNT,
};

static const struct cli_option opts[] = {
    CLI_OPT_CONN_ENTRIES,
    {"engine", 0, required_argument, OPT_ENGINE, "NAME",
     "auto, db2, postgresql, mysql or sqlite (default: auto, from "
     "SQL_DBMS_NAME)"},
    {"interval", 'i', required_argument, OPT_INTERVAL, "SEC",
     "seconds between snapshots, 0.1..86400 (default: 10)"},
    {"count", 'c', required_argument, OPT_COUNT, "N",
     "number of snapshots, 1..10000; 1 gives counters since server start "
     "(default: 2)"},
    CLI_OPT_OUTPUT_ENTRY,
    CLI_OPT_FORMAT_ENTRIES,
    CLI_OPT_FORCE_ENTRY,
    CLI_OPT_QUIET_ENTRY,
    CLI_OPT_HELP_ENTRY,
    CLI_OPT_END,
};

static const char description[] =
    "Takes N snapshots of the database's buffer-pool counters (DB2\n"
    "MON_GET_BUFFERPOOL / MON_GET_TABLESPACE, PostgreSQL pg_stat_database /\n"
    "pg_statio_user_tables, MariaDB InnoDB status, SQLite page settings)\n"
    "and reports deltas, rates and hit ratios per interval. With -o FILE\n"
    "the format defaults to json (for `pagetune recommend --monitor`).";

struct mon_args {
    struct coll_conn_opts conn;
    double interval_s;
    uint64_t count;
};

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
    if (cli_parse_begin(&p, "monitor", opts, usage, description, argc, argv) <
        0)
        return 70;
    while ((id = cli_next(&p, c, &arg)) != CLI_NEXT_END) {
        if (id == CLI_NEXT_HELP)
            return 0;
        if (id == CLI_NEXT_USAGE)
            return 64;
        if (cli_conn_opt(&a->conn, id, arg))
            continue;
        err_clear(&err);
        switch (id) {
        case OPT_ENGINE:
            if (coll_engine_parse(arg, &a->conn.engine, &err) < 0)
                return cli_usage_error("monitor", "%s", err.msg);
            break;
        case OPT_INTERVAL:
            if (pt_double_parse(arg, &a->interval_s, "--interval", &err) < 0 ||
                !(a->interval_s >= 0.1 && a->interval_s <= 86400))
                return cli_usage_error("monitor",
                                       "--interval: '%s' is not in "
                                       "0.1..86400 seconds",
                                       arg);
            break;
        case OPT_COUNT:
            if (pt_u64_parse(arg, &a->count, "--count", &err) < 0 ||
                a->count < 1 || a->count > 10000)
                return cli_usage_error("monitor",
                                       "--count: '%s' is not in 1..10000", arg);
            break;
        default:
            return 70;
        }
    }
    if (!a->conn.dsn == !a->conn.connect)
        return cli_usage_error("monitor",
                               "give exactly one of --dsn NAME or --connect "
                               "STR");
    if (a->conn.password_file && a->conn.password_env)
        return cli_usage_error("monitor", "--password-file and "
                                          "--password-env are exclusive");
    if (!c->format_given && strcmp(c->output, "-") != 0)
        c->format = OUT_JSON;
    return -1;
}

/* Sleep; an interrupt ends it early (nanosleep returns EINTR). */
static void sleep_s(double s)
{
    struct timespec ts;
    ts.tv_sec = (time_t)s;
    ts.tv_nsec = (long)((s - (double)ts.tv_sec) * 1e9);
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR && !cli_interrupted())
        ;
}

/* ---- grouping metrics by object ---------------------------------------- */

struct group {
    char scope[16];
    char object[128];
};

static int group_index(const struct group *g, size_t n, const char *scope,
                       const char *object)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(g[i].scope, scope) == 0 && strcmp(g[i].object, object) == 0)
            return (int)i;
    return -1;
}

static json_t *num(double v)
{
    if (v == floor(v) && fabs(v) < 9e15)
        return json_integer((json_int_t)v);
    return json_real(v);
}

/* Hit ratio JSON: number 0..100 or null when undefined. */
static json_t *ratio_json(double logical, double physical)
{
    double r = coll_hit_ratio(logical, physical);
    return r < 0 ? json_null() : json_real(round(r * 1000) / 1000);
}

/* Sum of a counter's deltas over the whole run (resets handled). */
static double run_delta(const struct coll_snapshot *snaps, size_t n,
                        const char *scope, const char *object, const char *name,
                        int *found)
{
    double total = 0;
    *found = 0;
    if (n == 1) {
        const struct coll_metric *m =
            coll_snapshot_find(&snaps[0], scope, object, name);
        if (m) {
            *found = 1;
            return m->value;
        }
        return 0;
    }
    for (size_t k = 1; k < n; k++) {
        const struct coll_metric *a =
            coll_snapshot_find(&snaps[k - 1], scope, object, name);
        const struct coll_metric *b =
            coll_snapshot_find(&snaps[k], scope, object, name);
        if (!a || !b)
            continue;
        *found = 1;
        total += b->value >= a->value ? b->value - a->value : b->value;
    }
    return total;
}

static json_t *group_json(const struct coll_snapshot *snaps, size_t n,
                          const struct group *g)
{
    json_t *o = json_object(), *sn = json_array(), *dl = json_array();
    const struct coll_snapshot *last = &snaps[n - 1];

    if (!o || !sn || !dl) {
        json_decref(o);
        json_decref(sn);
        json_decref(dl);
        return NULL;
    }
    json_object_set_new(o, "name", json_string(g->object));
    /* gauges and settings from the last snapshot */
    for (size_t i = 0; i < last->n; i++) {
        const struct coll_metric *m = &last->m[i];
        if (!m->cumulative && strcmp(m->scope, g->scope) == 0 &&
            strcmp(m->object, g->object) == 0)
            json_object_set_new(o, m->name, num(m->value));
    }
    for (size_t k = 0; k < n; k++) {
        json_t *s = json_object(), *cnt = json_object();
        for (size_t i = 0; i < snaps[k].n; i++) {
            const struct coll_metric *m = &snaps[k].m[i];
            if (m->cumulative && strcmp(m->scope, g->scope) == 0 &&
                strcmp(m->object, g->object) == 0)
                json_object_set_new(cnt, m->name, num(m->value));
        }
        json_object_set_new(
            s, "t_s",
            json_real(round((snaps[k].t_s - snaps[0].t_s) * 1000) / 1000));
        json_object_set_new(s, "taken_at", json_string(snaps[k].taken_at));
        json_object_set_new(s, "counters", cnt);
        json_array_append_new(sn, s);
    }
    for (size_t k = 1; k < n; k++) {
        struct coll_delta *d = NULL;
        size_t nd = 0;
        json_t *s, *dv, *rv;
        double secs = snaps[k].t_s - snaps[k - 1].t_s;
        if (coll_snapshot_deltas(&snaps[k - 1], &snaps[k], &d, &nd, NULL) < 0)
            continue;
        s = json_object();
        dv = json_object();
        rv = json_object();
        for (size_t i = 0; i < nd; i++) {
            if (strcmp(d[i].m->scope, g->scope) != 0 ||
                strcmp(d[i].m->object, g->object) != 0)
                continue;
            json_object_set_new(dv, d[i].m->name, num(d[i].delta));
            json_object_set_new(
                rv, d[i].m->name,
                json_real(round(d[i].rate_per_s * 1000) / 1000));
        }
        free(d);
        json_object_set_new(s, "from", json_integer((json_int_t)k - 1));
        json_object_set_new(s, "to", json_integer((json_int_t)k));
        json_object_set_new(s, "seconds", json_real(round(secs * 1000) / 1000));
        if (strcmp(g->scope, "bufferpool") == 0) {
            json_t *l = json_object_get(dv, "logical_reads");
            json_t *p = json_object_get(dv, "physical_reads");
            if (l && p)
                json_object_set_new(
                    s, "hit_ratio",
                    ratio_json(json_number_value(l), json_number_value(p)));
        }
        json_object_set_new(s, "delta", dv);
        json_object_set_new(s, "rate_per_s", rv);
        json_array_append_new(dl, s);
    }
    json_object_set_new(o, "snapshots", sn);
    json_object_set_new(o, "deltas", dl);
    /* ratios over the run */
    if (strcmp(g->scope, "bufferpool") == 0) {
        int f1, f2;
        double l =
            run_delta(snaps, n, g->scope, g->object, "logical_reads", &f1);
        double p =
            run_delta(snaps, n, g->scope, g->object, "physical_reads", &f2);
        if (f1 && f2)
            json_object_set_new(o, "hit_ratio", ratio_json(l, p));
    } else if (strcmp(g->scope, "table") == 0) {
        static const char *const kinds[][3] = {
            {"heap_hit_ratio", "HEAP_BLKS_HIT", "HEAP_BLKS_READ"},
            {"toast_hit_ratio", "TOAST_BLKS_HIT", "TOAST_BLKS_READ"},
            {"idx_hit_ratio", "IDX_BLKS_HIT", "IDX_BLKS_READ"}};
        for (size_t i = 0; i < 3; i++) {
            int f1, f2;
            double h =
                run_delta(snaps, n, g->scope, g->object, kinds[i][1], &f1);
            double r =
                run_delta(snaps, n, g->scope, g->object, kinds[i][2], &f2);
            if (f1 && f2)
                json_object_set_new(o, kinds[i][0], ratio_json(h + r, r));
        }
    }
    return o;
}

struct summary {
    double logical, physical, direct_reads, direct_writes, elapsed_s;
    double hit_ratio; /* -1 undefined */
};

static void summarize(const struct coll_snapshot *snaps, size_t n,
                      struct summary *s)
{
    const struct coll_snapshot *last = &snaps[n - 1];
    memset(s, 0, sizeof(*s));
    for (size_t i = 0; i < last->n; i++) {
        const struct coll_metric *m = &last->m[i];
        int f;
        if (strcmp(m->scope, "bufferpool") != 0)
            continue;
        if (strcmp(m->name, "logical_reads") == 0)
            s->logical += run_delta(snaps, n, m->scope, m->object, m->name, &f);
        else if (strcmp(m->name, "physical_reads") == 0)
            s->physical +=
                run_delta(snaps, n, m->scope, m->object, m->name, &f);
        else if (strcmp(m->name, "direct_reads") == 0)
            s->direct_reads +=
                run_delta(snaps, n, m->scope, m->object, m->name, &f);
        else if (strcmp(m->name, "direct_writes") == 0)
            s->direct_writes +=
                run_delta(snaps, n, m->scope, m->object, m->name, &f);
    }
    s->elapsed_s = last->t_s - snaps[0].t_s;
    s->hit_ratio = coll_hit_ratio(s->logical, s->physical);
}

static json_t *build_doc(const struct mon_args *a, const struct coll_conn *conn,
                         const struct coll_snapshot *snaps, size_t n)
{
    enum coll_engine e = coll_conn_engine(conn);
    struct coll_current cur;
    struct summary sm;
    struct group *groups = NULL;
    size_t ng = 0, cap = 0;
    json_t *doc, *pools = json_array(), *tbsp = json_array(),
                 *tables = json_array(), *dbs = json_array(),
                 *inst = json_array(), *notes = json_array(), *sum;
    static const struct {
        const char *scope, *key;
    } scopes[] = {{"bufferpool", "bufferpools"},
                  {"pool_instance", "bufferpool_instances"},
                  {"tablespace", "tablespaces"},
                  {"table", "tables"},
                  {"database", "databases"},
                  {"instance", "instance"},
                  {"setting", "settings"}};
    json_t *arrays[7];

    coll_monitor_current(e, &snaps[n - 1], &cur);
    summarize(snaps, n, &sm);
    for (size_t k = 0; k < n; k++)
        for (size_t i = 0; i < snaps[k].n; i++) {
            const struct coll_metric *m = &snaps[k].m[i];
            if (group_index(groups, ng, m->scope, m->object) >= 0)
                continue;
            if (ng == cap) {
                size_t nc = cap ? cap * 2 : 32;
                struct group *gg = realloc(groups, nc * sizeof(*gg));
                if (!gg) {
                    free(groups);
                    return NULL;
                }
                groups = gg;
                cap = nc;
            }
            snprintf(groups[ng].scope, sizeof(groups[ng].scope), "%s",
                     m->scope);
            snprintf(groups[ng].object, sizeof(groups[ng].object), "%s",
                     m->object);
            ng++;
        }
    arrays[0] = pools;
    arrays[1] = json_array();
    arrays[2] = tbsp;
    arrays[3] = tables;
    arrays[4] = dbs;
    arrays[5] = inst;
    arrays[6] = json_array();
    for (size_t i = 0; i < ng; i++)
        for (size_t s = 0; s < 7; s++)
            if (strcmp(groups[i].scope, scopes[s].scope) == 0) {
                json_t *gj = group_json(snaps, n, &groups[i]);
                if (gj)
                    json_array_append_new(arrays[s], gj);
            }
    free(groups);

    sum = json_object();
    json_object_set_new(sum, "hit_ratio",
                        sm.hit_ratio < 0
                            ? json_null()
                            : json_real(round(sm.hit_ratio * 1000) / 1000));
    json_object_set_new(sum, "hit_ratio_basis",
                        json_string(n > 1 ? "deltas between the first and "
                                            "last snapshot"
                                          : "counters since server start "
                                            "(one snapshot)"));
    json_object_set_new(sum, "logical_reads", num(sm.logical));
    json_object_set_new(sum, "physical_reads", num(sm.physical));
    json_object_set_new(sum, "direct_reads", num(sm.direct_reads));
    json_object_set_new(sum, "direct_writes", num(sm.direct_writes));
    json_object_set_new(
        sum, "direct_read_share",
        sm.direct_reads + sm.logical > 0
            ? json_real(sm.direct_reads / (sm.direct_reads + sm.logical))
            : json_null());
    json_object_set_new(sum, "elapsed_s",
                        json_real(round(sm.elapsed_s * 1000) / 1000));
    if (n > 1 && sm.elapsed_s > 0) {
        json_object_set_new(
            sum, "logical_reads_per_s",
            json_real(round(sm.logical / sm.elapsed_s * 1000) / 1000));
        json_object_set_new(
            sum, "physical_reads_per_s",
            json_real(round(sm.physical / sm.elapsed_s * 1000) / 1000));
    }
    if (!cur.has_hit_counters)
        json_object_set_new(sum, "hit_ratio_note", json_string(cur.note));

    if (cur.note[0])
        json_array_append_new(notes, json_string(cur.note));
    for (size_t k = 0; k < n; k++)
        if (snaps[k].note[0]) {
            json_array_append_new(notes, json_string(snaps[k].note));
            break;
        }
    doc = json_pack("{s:i,s:s,s:{s:s,s:s,s:s,s:s,s:s,s:s},s:f,s:I,"
                    "s:{s:I,s:I,s:I,s:s},s:o}",
                    "schema_version", 1, "engine", coll_engine_name(e),
                    "source", "kind", "odbc", "dbms", coll_conn_dbms(conn),
                    "driver", coll_conn_driver(conn), "connection",
                    coll_conn_describe(conn), "first_snapshot",
                    snaps[0].taken_at, "last_snapshot", snaps[n - 1].taken_at,
                    "interval_s", a->interval_s, "count", (json_int_t)n,
                    "current", "page_size", (json_int_t)cur.page_size,
                    "bufferpool_pages", (json_int_t)cur.bufferpool_pages,
                    "bufferpool_bytes", (json_int_t)cur.bufferpool_bytes,
                    "bufferpool", cur.bufferpool, "summary", sum);
    if (!doc) {
        for (size_t s = 0; s < 7; s++)
            json_decref(arrays[s]);
        json_decref(notes);
        return NULL;
    }
    for (size_t s = 0; s < 7; s++) {
        /* bufferpools and tables always present (recommend, the contract) */
        if (s == 0 || s == 3 || json_array_size(arrays[s]) > 0)
            json_object_set_new(doc, scopes[s].key, arrays[s]);
        else
            json_decref(arrays[s]);
    }
    json_object_set_new(doc, "notes", notes);
    return doc;
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
                l = m->value - la->value;
                p = pb->value - pa->value;
                d = db && da ? db->value - da->value : 0;
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
            out_table_setf(&t, 3, "%.0f", l);
            out_table_setf(&t, 4, "%.0f", p);
            if (coll_hit_ratio(l, p) < 0)
                out_table_setf(&t, 5, "-");
            else
                out_table_setf(&t, 5, "%.2f", coll_hit_ratio(l, p));
            out_table_setf(&t, 6, "%.0f", d);
            if (secs > 0)
                out_table_setf(&t, 7, "%.1f", l / secs);
            else
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
    struct pt_afile af = {0};
    size_t n = 0;
    json_t *doc = NULL;
    int code, ret;

    code = parse_opts(&c, &a, argc, argv);
    if (code >= 0)
        return code;
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
    for (n = 0; n < a.count;) {
        ret = coll_monitor_snapshot(conn, &snaps[n], &err);
        if (ret < 0)
            goto fail;
        n++;
        if (c.progress)
            fprintf(stderr, "\rmonitor: snapshot %zu/%llu", n,
                    (unsigned long long)a.count);
        if (n < a.count)
            sleep_s(a.interval_s);
        if (cli_interrupted()) {
            ret = err_set(&err, PT_EINTR, "interrupted");
            goto fail;
        }
    }
    if (c.progress)
        fputs("\r\033[K", stderr);
    ret = cli_output_open(&c, &af, &err);
    if (ret < 0)
        goto fail;
    if (c.format == OUT_JSON) {
        doc = build_doc(&a, conn, snaps, n);
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
    code = 0;
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
