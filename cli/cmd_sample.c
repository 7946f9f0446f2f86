/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cmd_sample.c — `pagetune sample`: the object-size distribution of a table
 * over ODBC (design.md §3, §4). collect/ measures (server-side lengths in
 * blocks), analyzers/ computes the statistics (rec_stats_compute), this file
 * parses options and renders the sizes JSON or a summary table. The output
 * file is only opened after the whole sample succeeded, so a failed run
 * (link lost mid-fetch, interrupt) leaves no partial file.
 */
#include "cli/cli.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "analyzers/analyzers.h"
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
                a->s.rows == 0)
                return cli_usage_error("sample",
                                       "--rows: '%s' is not a count >= 1", arg);
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

static json_t *names_obj(const struct coll_sample_opts *s,
                         const uint64_t *counts)
{
    json_t *o = json_object();
    for (size_t i = 0; o && i < s->n_columns; i++)
        if (json_object_set_new(o, s->columns[i],
                                json_integer((json_int_t)counts[i]))) {
            json_decref(o);
            return NULL;
        }
    return o;
}

static json_t *source_json(const struct sample_args *a,
                           const struct coll_conn *conn,
                           const struct coll_sample_result *r,
                           const char *taken_at)
{
    json_t *src, *cols = json_array();
    char table[2 * COLL_NAME_MAX + 2];

    for (size_t i = 0; cols && i < a->s.n_columns; i++)
        json_array_append_new(cols, json_string(a->s.columns[i]));
    snprintf(table, sizeof(table), "%s%s%s", a->s.schema,
             a->s.schema[0] ? "." : "", a->s.table);
    src = json_pack("{s:s,s:s,s:s,s:s,s:s,s:s,s:o,s:s,s:s,s:b,s:I,s:I}", "kind",
                    "odbc", "engine", coll_engine_name(r->engine), "dbms",
                    coll_conn_dbms(conn), "driver", coll_conn_driver(conn),
                    "connection", coll_conn_describe(conn), "table", table,
                    "columns", cols, "method", r->method, "query", r->query,
                    "sampled",
                    a->s.percent > 0 && a->s.percent < 100 ? 1 : a->s.rows > 0,
                    "rows_scanned", (json_int_t)r->rows_scanned,
                    "estimated_rows", (json_int_t)r->estimated_rows);
    if (!src)
        return NULL;
    json_object_set_new(src, "taken_at", json_string(taken_at));
    if (a->s.percent > 0)
        json_object_set_new(src, "percent", json_real(a->s.percent));
    if (a->s.rows > 0)
        json_object_set_new(src, "rows", json_integer((json_int_t)a->s.rows));
    json_object_set_new(src, "seed",
                        a->s.has_seed ? json_integer(a->s.seed) : json_null());
    json_object_set_new(src, "server_grouped", json_boolean(a->s.grouped));
    return src;
}

static json_t *
build_doc(const struct sample_args *a, const struct coll_conn *conn,
          struct coll_sample_result *r, const struct rec_size_stats *rows_st,
          const struct rec_size_stats *sess_st, const char *taken_at)
{
    json_t *src = source_json(a, conn, r, taken_at), *doc = NULL, *sess;
    const struct rec_size_stats *top =
        a->unit_session && sess_st ? sess_st : rows_st;
    const uint64_t *vals = top == sess_st ? r->session_values : r->values;
    size_t nv = top == sess_st ? r->n_sessions : r->n_values;

    (void)vals;
    (void)nv;
    if (!src)
        return NULL;
    /* the values are spliced in by write_doc(), see there */
    doc = rec_stats_to_json(top, NULL, 0, src);
    json_decref(src);
    if (!doc)
        return NULL;
    json_object_set_new(doc, "unit",
                        json_string(top == sess_st ? "session" : "row"));
    json_object_set_new(doc, "layout",
                        json_string(coll_layout_name(r->layout)));
    json_object_set_new(doc, "placement", names_obj(&a->s, r->placement));
    json_object_set_new(doc, "column_bytes", names_obj(&a->s, r->column_bytes));
    json_object_set_new(doc, "rows_empty",
                        json_integer((json_int_t)r->rows_empty));
    json_object_set_new(doc, "rows_multi_column",
                        json_integer((json_int_t)r->rows_multi));
    if (r->layout == COLL_LAYOUT_MULTI_ROW) {
        json_object_set_new(doc, "header_rows",
                            json_integer((json_int_t)r->header_rows));
        json_object_set_new(doc, "attribute_rows",
                            json_integer((json_int_t)r->attribute_rows));
    }
    if (sess_st) {
        /* the other unit, without its values */
        const struct rec_size_stats *other = top == sess_st ? rows_st : sess_st;
        sess = rec_stats_to_json(other, NULL, 0, NULL);
        if (sess) {
            json_object_del(sess, "schema_version");
            json_object_set_new(
                sess, "unit",
                json_string(other == sess_st ? "session" : "row"));
            if (other == sess_st)
                json_object_set_new(sess, "query",
                                    json_string(r->session_query));
            json_object_set_new(
                doc, other == sess_st ? "per_session" : "per_row", sess);
        }
    } else {
        json_object_set_new(doc, "per_session",
                            json_pack("{s:s}", "note", r->session_note));
    }
    return doc;
}

/*
 * Write the sizes document with its "values" array. jansson would allocate
 * one node per value and its pretty printer puts each on a line of its
 * own: for 100,000 rows that costs more than the whole scan (measured with
 * bench/bench_sample.sh). So the document is dumped without the values,
 * and the array is appended in the same JSON syntax, 16 values per line.
 */
static int write_doc(const json_t *doc, const uint64_t *vals, size_t n,
                     int with_values, FILE *fp, struct pt_err *err)
{
    char *text;
    size_t len;

    if (!with_values)
        return out_json_write(doc, fp, err);
    text = json_dumps(doc, JSON_INDENT(2) | JSON_PRESERVE_ORDER |
                               JSON_REAL_PRECISION(10));
    if (!text)
        return err_set(err, PT_EINTERNAL, "out of memory");
    len = strlen(text);
    /* an indented object ends with "\n}" */
    if (len < 2 || text[len - 1] != '}' || text[len - 2] != '\n') {
        free(text);
        return err_set(err, PT_EINTERNAL, "unexpected JSON layout");
    }
    fwrite(text, 1, len - 2, fp);
    free(text);
    fputs(",\n  \"values\": [", fp);
    for (size_t i = 0; i < n; i++)
        fprintf(fp, "%s%s%llu", i ? "," : "", i % 16 ? " " : "\n    ",
                (unsigned long long)vals[i]);
    fputs(n ? "\n  ]\n}\n" : "]\n}\n", fp);
    if (ferror(fp))
        return err_set(err, PT_EIO, "write error: %s", strerror(errno));
    return 0;
}

static int write_table(const struct sample_args *a,
                       const struct coll_sample_result *r,
                       const struct rec_size_stats *st,
                       const struct rec_size_stats *sess, enum out_format fmt,
                       FILE *fp, struct pt_err *err)
{
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
    out_table_set_title(&t, "%s%s%s — %s, layout %s (%s)", a->s.schema,
                        a->s.schema[0] ? "." : "", a->s.table,
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
        for (size_t i = 0; i < a->s.n_columns; i++) {
            char label[COLL_NAME_MAX + 16];
            snprintf(label, sizeof(label), "in %s", a->s.columns[i]);
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
    struct rec_size_stats st, sst;
    struct cli_progress pg;
    struct pt_afile af = {0};
    json_t *doc = NULL;
    char taken_at[32];
    time_t now;
    struct tm tm;
    int code, ret, have_sess = 0;

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
    if (r.n_values == 0) {
        ret = err_set(&err, PT_EDATA,
                      "table '%s' has no objects to measure (%llu rows, all "
                      "of %s NULL)",
                      a.s.table, (unsigned long long)r.rows_scanned,
                      a.s.n_columns > 1 ? "the columns" : "the column");
        goto fail;
    }
    if (rec_stats_compute(&st, r.values, r.n_values, &err) < 0)
        goto fail;
    if (r.have_sessions && r.n_sessions > 0) {
        if (rec_stats_compute(&sst, r.session_values, r.n_sessions, &err) < 0)
            goto fail;
        have_sess = 1;
    } else if (a.unit_session && r.layout == COLL_LAYOUT_MULTI_ROW) {
        ret = err_set(&err, PT_EDATA,
                      "--unit session: no complete session in the sample");
        goto fail;
    }
    if (a.unit_session && !have_sess)
        cli_note(&c, "--unit session: %s", r.session_note);

    ret = cli_output_open(&c, &af, &err);
    if (ret < 0)
        goto fail;
    if (c.format == OUT_JSON) {
        doc = build_doc(&a, conn, &r, &st, have_sess ? &sst : NULL, taken_at);
        if (!doc) {
            ret = err_set(&err, PT_EINTERNAL, "out of memory");
            goto fail_out;
        }
        if (a.unit_session && have_sess)
            ret = write_doc(doc, r.session_values, r.n_sessions, !a.no_values,
                            af.fp, &err);
        else
            ret =
                write_doc(doc, r.values, r.n_values, !a.no_values, af.fp, &err);
    } else {
        const struct rec_size_stats *top =
            a.unit_session && have_sess ? &sst : &st;
        ret = write_table(&a, &r, top, have_sess ? &sst : NULL, c.format, af.fp,
                          &err);
    }
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
    json_decref(doc);
    coll_sample_result_release(&r);
    coll_conn_close(conn);
    return code;
}
