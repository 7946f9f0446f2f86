/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cmd_sample.c — `pagetune sample`: the object-size distribution of a table
 * over ODBC (docs/formats.md#sizes). The front door: options, then collect/
 * measures (coll_sample_run: server-side lengths in blocks) and describes
 * the sample (coll_sizes_doc_init: statistics from model/), and this
 * file writes the sizes document (coll_sizes_doc_write) or a summary
 * table. The output file is only opened after the whole sample succeeded,
 * so a failed run (link lost mid-fetch, interrupt) leaves no partial file.
 */
#include "cli/cli.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "collect/collect.h"

static const char *const usage[] = {
    "pagetune sample (--dsn NAME | --connect STR) [--table [SCHEMA.]NAME] "
    "[--columns A,B,C] [--percent P | --rows N] [-o sizes.json]",
    NULL,
};

enum {
    OPT_ENGINE = CLI_OPT_FIRST_CUSTOM,
    OPT_TABLE,
    OPT_COLUMNS,
};

struct sample_args {
    struct coll_conn_opts conn;
    struct coll_sample_opts s;
    int unit_session; /* --unit: index of unit_names */
    int no_values;
    int group;  /* --server-group: index of group_names */
    int method; /* --method: index of method_names (enum coll_method) */
    uint64_t seed, fetch_rows;
};

static const char *const method_names[] = {"bernoulli", "system", NULL};
static const char *const unit_names[] = {"row", "session", NULL};
static const char *const group_names[] = {"auto", "on", "off", NULL};

#define A struct sample_args
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
    {.name = "table",
     .group = CLI_G_SAMPLING,
     .has_arg = required_argument,
     .id = OPT_TABLE,
     .arg_name = "[SCHEMA.]NAME",
     .help = "table to sample",
     .def = "SESSIONS"},
    {.name = "columns",
     .group = CLI_G_SAMPLING,
     .has_arg = required_argument,
     .id = OPT_COLUMNS,
     .arg_name = "A,B,C",
     .help = "object columns, in WebSphere placement order",
     .def = "SMALL,MEDIUM,LARGE"},
    CLI_OPT_SAMPLE_SIZE_ENTRIES(A, s),
    {.name = "method",
     .group = CLI_G_SAMPLING,
     .type = CLI_T_ENUM,
     CLI_AT(A, method),
     .choices = method_names,
     .help = "TABLESAMPLE method for --percent on PostgreSQL/DB2",
     .def = "bernoulli"},
    {.name = "seed",
     .group = CLI_G_SAMPLING,
     .type = CLI_T_UINT,
     CLI_AT(A, seed),
     CLI_GIVEN(A, s.has_seed),
     .max = 2147483647,
     .arg_name = "S",
     .help = "repeatable sampling with seed S where the engine allows",
     .def = "none"},
    {.name = "fetch-rows",
     .group = CLI_G_SAMPLING,
     .type = CLI_T_UINT,
     CLI_AT(A, fetch_rows),
     .min = 1,
     .max = 65536,
     .arg_name = "N",
     .help = "rows per block fetch",
     .def = "8192"},
    {.name = "unit",
     .group = CLI_G_SAMPLING,
     .type = CLI_T_ENUM,
     CLI_AT(A, unit_session),
     .choices = unit_names,
     .help = "top-level distribution (multi-row layout sums the rows of a "
             "session)",
     .def = "row"},
    {.name = "server-group",
     .group = CLI_G_SAMPLING,
     .type = CLI_T_ENUM,
     CLI_AT(A, group),
     .choices = group_names,
     .help = "on: the server groups equal lengths and returns counts (exact, "
             "less to transfer); off: one row per object, with progress; "
             "auto: on unless a progress bar is shown",
     .def = "auto"},
    {.name = "no-values",
     .group = CLI_G_OUTPUT,
     .type = CLI_T_FLAG,
     CLI_AT(A, no_values),
     .help = "leave the list of every size out of the JSON",
     .def = "included"},
    CLI_OPT_OUTPUT_ENTRY,
    CLI_OPT_COMMON_ENTRIES_END,
};
#undef A

static const char description[] =
    "Measures the sizes of the objects stored in a table (by default a\n"
    "WebSphere SESSIONS table): the server computes each column's byte\n"
    "length, the objects themselves never cross the network. Writes the\n"
    "sizes JSON that `pagetune recommend --sizes` reads; with -o FILE the\n"
    "format defaults to json, on stdout to a summary table.";

static const char *const examples[] = {
    "the size distribution of SESSIONS, as a summary table",
    "pagetune sample --dsn SESSIONDB",
    "a repeatable 10 % sample for `pagetune recommend --sizes`",
    "pagetune sample --dsn SESSIONDB --percent 10 --seed 42 -o sizes.json",
    NULL,
};

CLI_SPEC_DEFINE(sample);

/* 0 to go on, CLI_HELP_SHOWN, or a PT_* status after one line. */
static int parse_opts(struct cli_common *c, struct sample_args *a, int argc,
                      char **argv)
{
    struct cli_parser p;
    struct pt_err err;
    const char *arg;
    int id;

    cli_common_init(c);
    memset(a, 0, sizeof(*a));
    coll_sample_opts_init(&a->s);
    a->conn.streaming = 1;
    a->conn.login_timeout_s = 30;
    a->method = (int)a->s.method;
    a->fetch_rows = a->s.block_rows;
    if (cli_parse_spec(&p, &cli_spec_sample, a, argc, argv) < 0)
        return PT_EINTERNAL;
    while ((id = cli_next(&p, c, &arg)) != CLI_NEXT_END) {
        if (id == CLI_NEXT_HELP)
            return CLI_HELP_SHOWN;
        if (id == CLI_NEXT_USAGE)
            return PT_EUSAGE;
        if (cli_conn_opt(&a->conn, id, arg))
            continue;
        err_clear(&err);
        switch (id) {
        case OPT_ENGINE:
            if (coll_engine_parse(arg, &a->conn.engine, &err) < 0) {
                cli_usage_error("sample", "%s", err.msg);
                return PT_EUSAGE;
            }
            break;
        case OPT_TABLE:
            if (pt_qname_parse(&a->s.table, arg, "--table", &err) < 0) {
                cli_error("sample", "%s", err.msg);
                return err.code;
            }
            break;
        case OPT_COLUMNS:
            if (coll_sample_opts_columns(&a->s, arg, &err) < 0) {
                cli_error("sample", "%s", err.msg);
                return err.code;
            }
            break;
        default:
            return PT_EINTERNAL;
        }
    }
    a->s.method = (enum coll_method)a->method;
    a->s.seed = (uint32_t)a->seed;
    a->s.block_rows = (size_t)a->fetch_rows;
    if (cli_conn_check(p.cmd, &a->conn) < 0)
        return PT_EUSAGE;
    if (a->s.percent > 0 && a->s.rows > 0) {
        cli_usage_error("sample", "--percent and --rows are exclusive");
        return PT_EUSAGE;
    }
    if (!c->format_given && strcmp(c->output, "-") != 0)
        c->format = OUT_JSON;
    /* --server-group auto, on, off */
    a->s.grouped = a->group == 0 ? !c->progress : a->group == 1;
    return 0;
}

static void on_progress(void *ctx, uint64_t done, uint64_t total)
{
    struct cli_progress *pg = ctx;
    pg->total = total;
    cli_progress_update(pg, done);
}

/* Summary table (and, for the terminal, the histogram of rows). */
static int write_table(const struct coll_sizes_doc *d, enum out_format fmt,
                       FILE *fp, struct pt_err *err)
{
    const struct coll_sample_opts *o = d->opts;
    const struct coll_sample_result *r = d->result;
    const struct rec_size_stats *st = coll_sizes_doc_top(d);
    const struct rec_size_stats *sess = d->have_sessions ? &d->sessions : NULL;
    static const char *const h1[] = {"measure", ">rows", ">sessions"};
    static const char *const h2[] = {">le_bytes", ">count"};
    struct out_table t;
    char name[2 * PT_IDENT_MAX + 8];
    int ret;

#define ROW2(label, v1, v2)                                                    \
    do {                                                                       \
        out_table_add_row(&t);                                                 \
        out_table_setf(&t, 0, "%s", label);                                    \
        out_table_setf(&t, 1, "%s", v1);                                       \
        out_table_setf(&t, 2, "%s", v2);                                       \
    } while (0)

    if (out_table_init(&t, 3, h1) < 0)
        return err_set(err, PT_EINTERNAL, "out of memory");
    pt_qname_format(&o->table, name, sizeof(name));
    out_table_set_title(&t, "%s — %s, layout %s (%s)", name,
                        coll_engine_name(r->engine),
                        coll_layout_name(r->layout), r->method);
    {
        char b1[32], b2[32];
        const struct {
            const char *label;
            uint64_t v1, v2;
        } rows[] = {
            {"count", st->count, sess ? sess->count : 0},
            {"min", st->min, sess ? sess->min : 0},
            {"p50", st->p50, sess ? sess->p50 : 0},
            {"p90", st->p90, sess ? sess->p90 : 0},
            {"p95", st->p95, sess ? sess->p95 : 0},
            {"p99", st->p99, sess ? sess->p99 : 0},
            {"max", st->max, sess ? sess->max : 0},
        };
        for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
            snprintf(b1, sizeof(b1), "%llu", (unsigned long long)rows[i].v1);
            snprintf(b2, sizeof(b2), "%llu", (unsigned long long)rows[i].v2);
            ROW2(rows[i].label, b1, sess ? b2 : "-");
        }
        snprintf(b1, sizeof(b1), "%.1f", st->mean);
        snprintf(b2, sizeof(b2), "%.1f", sess ? sess->mean : 0);
        ROW2("mean", b1, sess ? b2 : "-");
        for (size_t i = 0; i < o->n_columns; i++) {
            char label[COLL_NAME_MAX + 16];
            snprintf(label, sizeof(label), "in %s", o->columns[i]);
            snprintf(b1, sizeof(b1), "%llu",
                     (unsigned long long)r->placement[i]);
            ROW2(label, b1, "-");
        }
        snprintf(b1, sizeof(b1), "%llu", (unsigned long long)r->rows_empty);
        ROW2("no object (all NULL)", b1, "-");
    }
#undef ROW2
    ret = out_table_write(&t, fmt, fp, err);
    out_table_release(&t);
    if (ret < 0 || fmt != OUT_TABLE)
        return ret;
    fputc('\n', fp);
    if (out_table_init(&t, 2, h2) < 0)
        return err_set(err, PT_EINTERNAL, "out of memory");
    out_table_set_title(&t, "histogram (rows, bin = (le/2, le])");
    for (size_t i = 0; i < st->n_bins; i++) {
        out_table_add_row(&t);
        out_table_setf(&t, 0, "%llu", (unsigned long long)st->bins[i].le);
        out_table_setf(&t, 1, "%llu", (unsigned long long)st->bins[i].count);
    }
    ret = out_table_write(&t, fmt, fp, err);
    out_table_release(&t);
    return ret;
}

int cmd_sample(int argc, char **argv)
{
    struct cli_common c;
    struct sample_args a;
    struct pt_err err;
    struct coll_conn *conn = NULL;
    struct coll_sample_result r;
    struct coll_source src;
    struct coll_sizes_doc d;
    struct cli_progress pg;
    struct pt_afile af = {0};
    char taken_at[32];
    time_t now;
    struct tm tm;
    int code, ret;

    memset(&r, 0, sizeof(r));
    if ((ret = parse_opts(&c, &a, argc, argv)) != 0)
        return cli_parse_exit(ret);
    err_clear(&err);
    if (pt_output_check(c.output, c.force, &err) < 0)
        return cli_fail("sample", &err);
    ret = coll_conn_open(&conn, &a.conn, &err);
    if (ret < 0)
        return cli_fail("sample", &err);

    now = time(NULL);
    gmtime_r(&now, &tm);
    strftime(taken_at, sizeof(taken_at), "%Y-%m-%dT%H:%M:%SZ", &tm);
    cli_progress_init(&pg, &c, "sampling", 0);
    if (c.progress && !a.s.grouped) {
        a.s.progress = on_progress;
        a.s.progress_ctx = &pg;
    }
    ret = coll_sample_run(conn, &a.s, &r, &err);
    cli_progress_done(&pg);
    if (ret < 0)
        goto fail;
    coll_source_init(&src, conn);
    ret =
        coll_sizes_doc_init(&d, &a.s, &r, &src, a.unit_session, taken_at, &err);
    if (ret < 0)
        goto fail;
    if (a.unit_session && !d.have_sessions)
        cli_note(&c, "--unit session: %s", r.session_note);
    /* a character column is measured in bytes: say so (issue 14) */
    if (r.column_note[0])
        cli_note(&c, "%s", r.column_note);

    ret = cli_output_open(&c, &af, &err);
    if (ret < 0)
        goto fail;
    if (c.format == OUT_JSON)
        ret = coll_sizes_doc_write(&d, !a.no_values, af.fp, &err);
    else
        ret = write_table(&d, c.format, af.fp, &err);
    if (ret < 0)
        goto fail_out;
    ret = pt_afile_commit(&af, &err);
    if (ret < 0)
        goto fail;
    if (strcmp(c.output, "-") != 0)
        cli_note(&c, "%llu sizes (%s) written to %s",
                 (unsigned long long)r.n_values, r.method, c.output);
    code = PT_EXIT_OK;
    goto out;
fail_out:
    pt_afile_abort(&af);
fail:
    code = cli_fail("sample", &err);
out:
    coll_sample_result_release(&r);
    coll_conn_close(conn);
    return code;
}
