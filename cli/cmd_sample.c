/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cmd_sample.c — `pagetune sample`: the object-size distribution of a table
 * over ODBC (design.md §3, §4). The front door: options, then collect/
 * measures (coll_sample_run: server-side lengths in blocks) and describes
 * the sample (coll_sizes_doc_init: statistics from analyzers/), and this
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
    OPT_PERCENT,
    OPT_ROWS,
    OPT_METHOD,
    OPT_SEED,
    OPT_FETCH_ROWS,
    OPT_UNIT,
    OPT_NO_VALUES,
    OPT_GROUP,
};

static const struct cli_option opts[] = {
    CLI_OPT_CONN_ENTRIES,
    {"engine", 0, required_argument, OPT_ENGINE, "NAME",
     "auto, db2, postgresql, mysql or sqlite (default: auto, from "
     "SQL_DBMS_NAME)"},
    {"table", 't', required_argument, OPT_TABLE, "[SCHEMA.]NAME",
     "table to sample (default: SESSIONS)"},
    {"columns", 0, required_argument, OPT_COLUMNS, "A,B,C",
     "object columns, in WebSphere placement order (default: "
     "SMALL,MEDIUM,LARGE)"},
    {"percent", 'p', required_argument, OPT_PERCENT, "P",
     "sample P percent of the rows on the server, 0 < P <= 100 (default: "
     "all rows)"},
    {"rows", 'n', required_argument, OPT_ROWS, "N",
     "sample N random rows on the server (default: all rows)"},
    {"method", 0, required_argument, OPT_METHOD, "M",
     "TABLESAMPLE method for --percent on PostgreSQL/DB2: bernoulli or "
     "system (default: bernoulli)"},
    {"seed", 0, required_argument, OPT_SEED, "S",
     "repeatable sampling with seed S where the engine allows (default: "
     "none)"},
    {"fetch-rows", 0, required_argument, OPT_FETCH_ROWS, "N",
     "rows per block fetch, 1..65536 (default: 8192)"},
    {"unit", 0, required_argument, OPT_UNIT, "U",
     "top-level distribution: row or session (multi-row layout sums the "
     "rows of a session) (default: row)"},
    {"server-group", 0, required_argument, OPT_GROUP, "MODE",
     "on: the server groups equal lengths and returns counts (exact, less "
     "to transfer); off: one row per object, with progress; auto: on "
     "unless a progress bar is shown (default: auto)"},
    {"no-values", 0, no_argument, OPT_NO_VALUES, NULL,
     "leave the list of every size out of the JSON (default: included)"},
    CLI_OPT_OUTPUT_ENTRY,
    CLI_OPT_FORMAT_ENTRIES,
    CLI_OPT_FORCE_ENTRY,
    CLI_OPT_QUIET_ENTRY,
    CLI_OPT_HELP_ENTRY,
    CLI_OPT_END,
};

static const char description[] =
    "Measures the sizes of the objects stored in a table (by default a\n"
    "WebSphere SESSIONS table): the server computes each column's byte\n"
    "length, the objects themselves never cross the network. Writes the\n"
    "sizes JSON that `pagetune recommend --sizes` reads; with -o FILE the\n"
    "format defaults to json, on stdout to a summary table.";

struct sample_args {
    struct coll_conn_opts conn;
    struct coll_sample_opts s;
    int unit_session;
    int no_values;
    int group; /* -1 auto, 0 off, 1 on */
};

static int parse_columns(const char *arg, struct coll_sample_opts *s,
                         struct pt_err *err)
{
    const char *p = arg;
    s->n_columns = 0;
    for (;;) {
        const char *comma = strchr(p, ',');
        size_t n = comma ? (size_t)(comma - p) : strlen(p);
        if (s->n_columns == COLL_MAX_COLUMNS)
            return err_set(err, PT_EUSAGE, "--columns: at most %d columns",
                           COLL_MAX_COLUMNS);
        if (n > COLL_NAME_MAX)
            return err_set(err, PT_EDATA, "--columns: name too long");
        memcpy(s->columns[s->n_columns], p, n);
        s->columns[s->n_columns][n] = '\0';
        if (coll_ident_check(s->columns[s->n_columns], "--columns", err) < 0)
            return PT_EDATA;
        s->n_columns++;
        if (!comma)
            break;
        p = comma + 1;
    }
    return 0;
}

/* Returns an exit code >= 0 to stop, or -1 to go on. */
static int parse_opts(struct cli_common *c, struct sample_args *a, int argc,
                      char **argv)
{
    struct cli_parser p;
    struct pt_err err;
    const char *arg;
    int id;
    uint64_t u;

    cli_common_init(c);
    memset(a, 0, sizeof(*a));
    coll_sample_opts_init(&a->s);
    a->conn.streaming = 1;
    a->conn.login_timeout_s = 30;
    a->group = -1;
    if (cli_parse_begin(&p, "sample", opts, usage, description, argc, argv) < 0)
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
                return cli_usage_error("sample", "%s", err.msg);
            break;
        case OPT_TABLE:
            if (coll_table_parse(arg, a->s.schema, sizeof(a->s.schema),
                                 a->s.table, sizeof(a->s.table), &err) < 0)
                return cli_fail("sample", &err);
            break;
        case OPT_COLUMNS:
            if (parse_columns(arg, &a->s, &err) < 0)
                return cli_fail("sample", &err);
            break;
        case OPT_PERCENT:
            if (pt_double_parse(arg, &a->s.percent, "--percent", &err) < 0 ||
                !(a->s.percent > 0 && a->s.percent <= 100))
                return cli_usage_error("sample",
                                       "--percent: '%s' is not in 0 < P <= "
                                       "100",
                                       arg);
            break;
        case OPT_ROWS:
            if (pt_u64_parse(arg, &a->s.rows, "--rows", &err) < 0 ||
                a->s.rows == 0 || a->s.rows > COLL_MAX_SAMPLE_ROWS)
                return cli_usage_error("sample",
                                       "--rows: '%s' is not a count in "
                                       "1..%llu",
                                       arg, COLL_MAX_SAMPLE_ROWS);
            break;
        case OPT_METHOD:
            if (strcmp(arg, "bernoulli") == 0)
                a->s.method = COLL_METHOD_BERNOULLI;
            else if (strcmp(arg, "system") == 0)
                a->s.method = COLL_METHOD_SYSTEM;
            else
                return cli_usage_error("sample",
                                       "--method: '%s' is not bernoulli or "
                                       "system",
                                       arg);
            break;
        case OPT_SEED:
            if (pt_u64_parse(arg, &u, "--seed", &err) < 0 || u > 2147483647ULL)
                return cli_usage_error("sample",
                                       "--seed: '%s' is not an integer "
                                       "0..2147483647",
                                       arg);
            a->s.seed = (uint32_t)u;
            a->s.has_seed = 1;
            break;
        case OPT_FETCH_ROWS:
            if (pt_u64_parse(arg, &u, "--fetch-rows", &err) < 0 || u == 0 ||
                u > 65536)
                return cli_usage_error("sample",
                                       "--fetch-rows: '%s' is not in "
                                       "1..65536",
                                       arg);
            a->s.block_rows = (size_t)u;
            break;
        case OPT_UNIT:
            if (strcmp(arg, "row") == 0)
                a->unit_session = 0;
            else if (strcmp(arg, "session") == 0)
                a->unit_session = 1;
            else
                return cli_usage_error(
                    "sample", "--unit: '%s' is not row or session", arg);
            break;
        case OPT_NO_VALUES:
            a->no_values = 1;
            break;
        case OPT_GROUP:
            if (strcmp(arg, "auto") == 0)
                a->group = -1;
            else if (strcmp(arg, "on") == 0)
                a->group = 1;
            else if (strcmp(arg, "off") == 0)
                a->group = 0;
            else
                return cli_usage_error("sample",
                                       "--server-group: '%s' is not auto, "
                                       "on or off",
                                       arg);
            break;
        default:
            return 70;
        }
    }
    if (!a->conn.dsn == !a->conn.connect)
        return cli_usage_error("sample",
                               "give exactly one of --dsn NAME or --connect "
                               "STR");
    if (a->conn.password_file && a->conn.password_env)
        return cli_usage_error("sample", "--password-file and --password-env "
                                         "are exclusive");
    if (a->s.percent > 0 && a->s.rows > 0)
        return cli_usage_error("sample", "--percent and --rows are exclusive");
    if (!c->format_given && strcmp(c->output, "-") != 0)
        c->format = OUT_JSON;
    a->s.grouped = a->group < 0 ? !c->progress : a->group;
    return -1;
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
    out_table_set_title(&t, "%s%s%s — %s, layout %s (%s)", o->schema,
                        o->schema[0] ? "." : "", o->table,
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
    code = parse_opts(&c, &a, argc, argv);
    if (code >= 0)
        return code;
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
    a.s.cancelled = cli_interrupted;
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
    code = 0;
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
