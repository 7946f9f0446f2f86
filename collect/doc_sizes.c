/* SPDX-License-Identifier: Apache-2.0 */
/*
 * doc_sizes.c — the sizes document (pagetune-sample(1) FILES, read by
 * pagetune-recommend(1) --sizes): a sample's statistics (model/'s
 * rec_stats_compute), where it came from, how the objects are placed, and
 * every size. Writer and reader in one place, beside the sample result
 * they describe (sample.c). No printing: the caller opens the file.
 *
 * Neighbours: cli/cmd_sample.c writes it, cli/cmd_recommend.c and
 * cli/cmd_advise.c read it into a struct rec_sizes.
 */
#include "collect/collect.h"
#include "collect/internal.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ---- the document in memory ---------------------------------------------- */

void coll_source_init(struct coll_source *src, const struct coll_conn *c)
{
    memset(src, 0, sizeof(*src));
    if (!c)
        return;
    snprintf(src->dbms, sizeof(src->dbms), "%s", coll_conn_dbms(c));
    snprintf(src->driver, sizeof(src->driver), "%s", coll_conn_driver(c));
    snprintf(src->connection, sizeof(src->connection), "%s",
             coll_conn_describe(c));
}

int coll_sizes_doc_init(struct coll_sizes_doc *d,
                        const struct coll_sample_opts *o,
                        struct coll_sample_result *r,
                        const struct coll_source *src, int unit_session,
                        const char *taken_at, struct pt_err *err)
{
    int rc;

    memset(d, 0, sizeof(*d));
    d->opts = o;
    d->result = r;
    d->unit_session = unit_session;
    if (src)
        d->source = *src;
    if (taken_at) {
        snprintf(d->taken_at, sizeof(d->taken_at), "%s", taken_at);
    } else {
        time_t now = time(NULL);
        struct tm tm;

        gmtime_r(&now, &tm);
        strftime(d->taken_at, sizeof(d->taken_at), "%Y-%m-%dT%H:%M:%SZ", &tm);
    }
    if (r->n_values == 0)
        return err_set(err, PT_EDATA,
                       "table '%s' has no objects to measure (%llu rows, all "
                       "of %s NULL)",
                       o->table.table, (unsigned long long)r->rows_scanned,
                       o->n_columns > 1 ? "the columns" : "the column");
    if ((rc = rec_stats_compute(&d->rows, r->values, r->n_values, err)) < 0)
        return rc;
    if (r->have_rows && r->row_values) {
        rc = rec_stats_compute(&d->row_bytes, r->row_values, r->n_values, err);
        if (rc < 0)
            return rc;
        d->have_rows = 1;
    }
    if (r->have_sessions && r->n_sessions > 0) {
        rc = rec_stats_compute(&d->sessions, r->session_values, r->n_sessions,
                               err);
        if (rc < 0)
            return rc;
        d->have_sessions = 1;
    } else if (unit_session && r->layout == COLL_LAYOUT_MULTI_ROW) {
        return err_set(err, PT_EDATA,
                       "`unit` session: no complete session in the sample");
    }
    return 0;
}

static int top_is_session(const struct coll_sizes_doc *d)
{
    return d->unit_session && d->have_sessions;
}

const struct rec_size_stats *coll_sizes_doc_top(const struct coll_sizes_doc *d)
{
    return top_is_session(d) ? &d->sessions : &d->rows;
}

const uint64_t *coll_sizes_doc_values(const struct coll_sizes_doc *d, size_t *n)
{
    if (top_is_session(d)) {
        *n = d->result->n_sessions;
        return d->result->session_values;
    }
    *n = d->result->n_values;
    return d->result->values;
}

/* ---- writer -------------------------------------------------------------- */

/* {column: count} in the order of --columns; NULL when out of memory. */
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

/* "source": the connection, the table and how its rows were chosen. */
static json_t *source_json(const struct coll_sizes_doc *d)
{
    const struct coll_sample_opts *o = d->opts;
    const struct coll_sample_result *r = d->result;
    json_t *src, *cols = json_array();
    char table[2 * PT_IDENT_MAX + 8];

    for (size_t i = 0; cols && i < o->n_columns; i++)
        json_array_append_new(cols, json_string(o->columns[i]));
    pt_qname_format(&o->table, table, sizeof(table));
    src = json_pack("{s:s,s:s,s:s,s:s,s:s,s:s,s:o,s:s,s:s,s:b,s:I,s:I}", "kind",
                    "odbc", "engine", coll_engine_name(r->engine), "dbms",
                    d->source.dbms, "driver", d->source.driver, "connection",
                    d->source.connection, "table", table, "columns", cols,
                    "method", r->method, "query", r->query, "sampled",
                    o->percent > 0 && o->percent < 100 ? 1 : o->rows > 0,
                    "rows_scanned", (json_int_t)r->rows_scanned,
                    "estimated_rows", (json_int_t)r->estimated_rows);
    if (!src)
        return NULL;
    json_object_set_new(src, "taken_at", json_string(d->taken_at));
    if (o->percent > 0)
        json_object_set_new(src, "percent", json_real(o->percent));
    if (o->rows > 0)
        json_object_set_new(src, "rows", json_integer((json_int_t)o->rows));
    json_object_set_new(src, "seed",
                        o->has_seed ? json_integer(o->seed) : json_null());
    json_object_set_new(src, "server_grouped", json_boolean(o->grouped));
    return src;
}

/* The statistics of the unit that is not the top level, without values. */
static json_t *other_unit_json(const struct coll_sizes_doc *d)
{
    int other_is_session = !top_is_session(d);
    json_t *s = rec_stats_to_json(other_is_session ? &d->sessions : &d->rows,
                                  NULL, 0, NULL);

    if (!s)
        return NULL;
    json_object_del(s, "schema_version");
    json_object_set_new(s, "unit",
                        json_string(other_is_session ? "session" : "row"));
    if (other_is_session)
        json_object_set_new(s, "query", json_string(d->result->session_query));
    return s;
}

/* PostgreSQL's compression trial (docs/formats.md sizes.json). */
static void trial_json(const struct coll_sample_result *r, json_t *doc)
{
    const struct coll_pg_trial *t = &r->trial;
    json_t *o;

    if (r->engine != COLL_ENGINE_POSTGRESQL || (!t->done && !t->note[0]))
        return;
    if (!t->done) {
        json_object_set_new(doc, "compression",
                            json_pack("{s:s}", "note", t->note));
        return;
    }
    o = json_pack(
        "{s:s,s:I,s:I,s:I,s:I,s:I,s:I,s:f}", "method", t->method, "values",
        (json_int_t)t->values, "raw_bytes", (json_int_t)t->raw_bytes,
        "compressible_values", (json_int_t)t->compressible_values,
        "compressible_raw_bytes", (json_int_t)t->compressible_raw_bytes,
        "pglz_bytes", (json_int_t)t->pglz_bytes, "server_stored_bytes",
        (json_int_t)t->server_stored_bytes, "compressible_share",
        t->values ? (double)t->compressible_values / (double)t->values : 0.0);
    if (o && t->compressible_values > 1) {
        /* pglz's output is nearly a constant plus a share of the input
           (the first repeat literal, the rest tags): the least-squares
           line over the compressible values */
        double n = (double)t->compressible_values;
        double sx = (double)t->compressible_raw_bytes;
        double sy = (double)t->pglz_bytes, d = n * t->sxx - sx * sx;
        double b = d > 0 ? (n * t->sxy - sx * sy) / d : sy / sx;
        json_object_set_new(o, "pglz_fit",
                            json_pack("{s:f,s:f}", "fixed_bytes",
                                      (sy - b * sx) / n, "per_byte", b));
    }
    if (o)
        json_object_set_new(o, "seed", json_integer(t->seed));
    if (o && t->note[0])
        json_object_set_new(o, "note", json_string(t->note));
    if (o)
        json_object_set_new(doc, "compression", o);
}

/*
 * "table_columns": the table's columns besides the objects, each with its
 * type as declared, its stored bytes a non-NULL value and its NULL share
 * (PostgreSQL's statistics, MariaDB's own sample; null when not known),
 * for the server replay's scratch rows (pagetune-replay(1) --sizes).
 */
static void table_columns_json(const struct coll_sizes_doc *d, json_t *doc)
{
    const struct coll_sample_result *r = d->result;
    json_t *a = json_array();

    for (size_t i = 0; a && i < r->columns.n; i++) {
        const struct coll_column *c = &r->columns.col[i];
        char st[2] = {c->storage, 0};
        json_t *o;

        if (coll_sample_is_object(d->opts, c->name) || !c->decl[0])
            continue;
        o = json_pack("{s:s,s:s,s:s,s:b,s:i}", "name", c->name, "type", c->type,
                      "decl", c->decl, "nullable", c->nullable, "fixed_bytes",
                      c->fixed_bytes);
        if (!o)
            continue;
        if (c->storage)
            json_object_set_new(o, "storage", json_string(st));
        if (c->category) {
            st[0] = c->category;
            json_object_set_new(o, "category", json_string(st));
        }
        json_object_set_new(o, "avg_width",
                            c->avg_width >= 0 ? json_real(c->avg_width)
                                              : json_null());
        json_object_set_new(o, "null_frac",
                            c->null_frac >= 0 ? json_real(c->null_frac)
                                              : json_null());
        json_array_append_new(a, o);
    }
    if (a && json_array_size(a))
        json_object_set_new(doc, "table_columns", a);
    else
        json_decref(a);
}

/*
 * The whole row (docs/formats.md sizes.json): row_source, how it was
 * measured, the rows' stored bytes (statistics and histogram), the rest
 * of the row besides the objects and the header, and PostgreSQL's
 * compress_ratio (objects as stored / their octet lengths).
 */
static void row_json(const struct coll_sizes_doc *d, json_t *doc)
{
    const struct coll_sample_result *r = d->result;
    json_t *rows;

    json_object_set_new(doc, "row_source",
                        json_string(d->have_rows ? "measured" : "profile"));
    json_object_set_new(doc, "row_basis",
                        json_string(r->row_basis[0]
                                        ? r->row_basis
                                        : "not measured: the engine "
                                          "profile's row_fixed_bytes applies"));
    if (!d->have_rows)
        return;
    rows = rec_stats_to_json(&d->row_bytes, NULL, 0, NULL);
    if (rows) {
        json_object_del(rows, "schema_version");
        json_object_set_new(doc, "row_bytes", rows);
    }
    json_object_set_new(doc, "row_fixed_bytes",
                        json_pack("{s:I,s:f,s:I}", "min",
                                  (json_int_t)r->rest_min, "mean",
                                  (double)r->rest_sum / (double)r->n_values,
                                  "max", (json_int_t)r->rest_max));
    table_columns_json(d, doc);
    if (r->engine == COLL_ENGINE_POSTGRESQL && r->raw_bytes > 0)
        json_object_set_new(
            doc, "compress_ratio",
            json_real((double)r->stored_bytes / (double)r->raw_bytes));
    trial_json(r, doc);
}

/* Everything but "values". */
static json_t *doc_json(const struct coll_sizes_doc *d)
{
    const struct coll_sample_result *r = d->result;
    json_t *src = source_json(d), *doc, *stats;

    if (!src)
        return NULL;
    stats = rec_stats_to_json(coll_sizes_doc_top(d), NULL, 0, src);
    json_decref(src);
    /* schema_version, then pagetune_version, then the statistics
       (docs/formats.md#conventions) */
    doc = stats ? json_pack("{s:i,s:s}", "schema_version", 1,
                            "pagetune_version", PT_VERSION)
                : NULL;
    if (!doc || json_object_update(doc, stats) < 0) {
        json_decref(stats);
        json_decref(doc);
        return NULL;
    }
    json_decref(stats);
    json_object_set_new(doc, "unit",
                        json_string(top_is_session(d) ? "session" : "row"));
    json_object_set_new(doc, "layout",
                        json_string(coll_layout_name(r->layout)));
    json_object_set_new(doc, "placement", names_obj(d->opts, r->placement));
    json_object_set_new(doc, "column_bytes",
                        names_obj(d->opts, r->column_bytes));
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
    if (d->have_sessions) {
        json_t *other = other_unit_json(d);
        if (other)
            json_object_set_new(
                doc, top_is_session(d) ? "per_row" : "per_session", other);
    } else {
        json_object_set_new(doc, "per_session",
                            json_pack("{s:s}", "note", r->session_note));
    }
    if (r->column_note[0])
        json_object_set_new(doc, "column_note", json_string(r->column_note));
    row_json(d, doc);
    if (r->live_rows_source[0]) {
        /* rows of the table, or its sessions when sessions are the unit
           and a full scan summed every one */
        int64_t live = r->live_rows;
        const char *how = r->live_rows_source;
        if (top_is_session(d)) {
            int full = strncmp(how, "sample:", 7) == 0;
            live = full ? (int64_t)r->n_sessions : -1;
            how = full ? "sample: a full scan summed every session"
                       : "not measured: the catalog counts rows, not "
                         "sessions";
        }
        json_object_set_new(
            doc, "live_rows",
            json_pack("{s:I,s:s}", "value", (json_int_t)live, "source", how));
    }
    if (r->have_state) {
        json_object_set_new(doc, "current", coll_state_to_json(&r->state));
        if (r->state.note[0])
            json_object_set_new(doc, "current_note",
                                json_string(r->state.note));
    }
    /* as written (pt_json_dumpf): the file and this document are equal */
    if (pt_json_whole_numbers(doc) < 0) {
        json_decref(doc);
        return NULL;
    }
    return doc;
}

json_t *coll_sizes_doc_to_json(const struct coll_sizes_doc *d, int with_values)
{
    json_t *doc = doc_json(d), *vals;
    const uint64_t *v;
    size_t n;

    if (!doc || !with_values)
        return doc;
    v = coll_sizes_doc_values(d, &n);
    vals = json_array();
    for (size_t i = 0; vals && i < n; i++)
        if (json_array_append_new(vals, json_integer((json_int_t)v[i]))) {
            json_decref(vals);
            vals = NULL;
        }
    if (!vals || json_object_set_new(doc, "values", vals)) {
        json_decref(doc);
        return NULL;
    }
    return doc;
}

/*
 * With the values, jansson would allocate one node per value and its
 * pretty printer puts each on a line of its own: for 100,000 rows that
 * costs more than the whole scan (measured with bench/bench_sample.sh). So
 * the document is dumped without them and the array appended in the same
 * JSON syntax, 16 values per line.
 */
int coll_sizes_doc_write(const struct coll_sizes_doc *d, int with_values,
                         FILE *fp, struct pt_err *err)
{
    json_t *doc = doc_json(d);
    const uint64_t *v;
    char *text;
    size_t len, n;

    if (!doc)
        return err_set(err, PT_EINTERNAL, "out of memory");
    if (!with_values) {
        int rc = pt_json_dumpf(doc, fp, err);
        json_decref(doc);
        return rc;
    }
    text = pt_json_dumps(doc);
    json_decref(doc);
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
    v = coll_sizes_doc_values(d, &n);
    for (size_t i = 0; i < n; i++)
        fprintf(fp, "%s%s%llu", i ? "," : "", i % 16 ? " " : "\n    ",
                (unsigned long long)v[i]);
    fputs(n ? "\n  ]\n}\n" : "]\n}\n", fp);
    if (ferror(fp))
        return err_set(err, PT_EIO, "write error: %s", strerror(errno));
    return 0;
}

/* ---- reader -------------------------------------------------------------- */

/* "values": every size, each a whole number >= 0 (1000 or 1000.0). */
static int read_values(struct rec_sizes *s, const json_t *vals,
                       const char *name, struct pt_err *err)
{
    const json_t *v;
    json_int_t x;
    size_t i;

    if (!json_is_array(vals))
        return err_set(err, PT_EDATA, "%s: 'values' must be an array", name);
    json_array_foreach(vals, i, v)
    {
        if (!pt_json_whole(v, &x) || x < 0)
            return err_set(err, PT_EDATA,
                           "%s: values[%zu] is not a byte size >= 0", name, i);
        if ((uint64_t)x > REC_MAX_SIZE_BYTES) {
            char field[64];
            snprintf(field, sizeof(field), "values[%zu]", i);
            return rec_limit_check_u64(REC_LIM_SIZE_BYTES, (uint64_t)x, name,
                                       field, err);
        }
    }
    if (json_array_size(vals) == 0)
        return 0;
    s->values = pt_malloc(json_array_size(vals) * sizeof(*s->values));
    if (!s->values)
        return err_set(err, PT_EINTERNAL, "out of memory reading sizes");
    json_array_foreach(vals, i, v)
    {
        pt_json_whole(v, &x);
        s->values[s->n++] = (uint64_t)x;
    }
    s->total = s->n;
    return 0;
}

/*
 * "histogram": each of a bin's objects at its upper bound "le", kept as one
 * weighted entry per non-empty bin (never expanded object by object: a
 * histogram of 10^12 objects costs its bins only), sorted by size.
 */
static int read_histogram(struct rec_sizes *s, const json_t *hist,
                          const char *name, struct pt_err *err)
{
    const json_t *v;
    uint64_t total = 0;
    size_t i, bins = 0;

    if (!json_is_array(hist))
        return err_set(err, PT_EDATA,
                       "%s: neither 'values' nor 'histogram' present", name);
    json_array_foreach(hist, i, v)
    {
        json_int_t le, c;
        if (!pt_json_whole(json_object_get(v, "le"), &le) ||
            !pt_json_whole(json_object_get(v, "count"), &c) || le < 0 || c < 0)
            return err_set(err, PT_EDATA,
                           "%s: histogram[%zu] needs integer 'le' and "
                           "'count' >= 0",
                           name, i);
        if ((uint64_t)le > REC_MAX_SIZE_BYTES) {
            char field[64];
            snprintf(field, sizeof(field), "histogram[%zu].le", i);
            return rec_limit_check_u64(REC_LIM_SIZE_BYTES, (uint64_t)le, name,
                                       field, err);
        }
        /* bound the total so every statistic stays exact */
        if ((uint64_t)c > REC_MAX_OBJECTS - total)
            return err_set(err, PT_EDATA,
                           "%s: histogram[%zu] count is implausibly large "
                           "(more than %llu objects in all)",
                           name, i, (unsigned long long)REC_MAX_OBJECTS);
        total += (uint64_t)c;
        bins += c > 0;
    }
    s->from_histogram = 1;
    if (total == 0)
        return 0;
    s->values = pt_malloc(bins * sizeof(*s->values));
    s->counts = pt_malloc(bins * sizeof(*s->counts));
    if (!s->values || !s->counts)
        return err_set(err, PT_EINTERNAL, "out of memory reading sizes");
    json_array_foreach(hist, i, v)
    {
        json_int_t c = 0, le = 0;
        pt_json_whole(json_object_get(v, "count"), &c);
        pt_json_whole(json_object_get(v, "le"), &le);
        if (c == 0)
            continue;
        s->values[s->n] = (uint64_t)le;
        s->counts[s->n++] = (uint64_t)c;
    }
    s->total = total;
    return rec_sizes_sort(s, err);
}

/* "live_rows": {value: integer, -1 = not measured; source: string}. */
static int read_live_rows(struct rec_sizes *s, const json_t *doc,
                          const char *name, struct pt_err *err)
{
    const json_t *lr = json_object_get(doc, "live_rows");
    const json_t *v = json_object_get(lr, "value");
    const json_t *src = json_object_get(lr, "source");

    json_int_t x;

    if (!lr)
        return 0;
    /* at most REC_MAX_OBJECTS (2^53), the bound of every object count */
    if (!pt_json_whole(v, &x) || x < -1 ||
        (x > 0 && (uint64_t)x > REC_MAX_OBJECTS) || !json_is_string(src))
        return err_set(err, PT_EDATA,
                       "%s: live_rows needs an integer 'value' from -1 to "
                       "%llu (2^53) and a 'source' string",
                       name, (unsigned long long)REC_MAX_OBJECTS);
    if (x <= 0)
        return 0;
    s->live_rows = (uint64_t)x;
    snprintf(s->live_rows_source, sizeof(s->live_rows_source), "%s",
             json_string_value(src));
    return 0;
}

/* "row_source" and, when measured, "row_fixed_bytes.mean". */
static int read_row(struct rec_sizes *s, const json_t *doc, const char *name,
                    struct pt_err *err)
{
    const json_t *src = json_object_get(doc, "row_source"), *mean;

    if (read_live_rows(s, doc, name, err) < 0)
        return PT_EDATA;
    /* the table the sample read: recommend reconciles its counters */
    src = json_object_get(json_object_get(doc, "source"), "table");
    if (json_is_string(src))
        snprintf(s->table, sizeof(s->table), "%s", json_string_value(src));
    src = json_object_get(doc, "row_source");

    if (!src ||
        (json_is_string(src) && strcmp(json_string_value(src), "profile") == 0))
        return 0;
    if (!json_is_string(src) || strcmp(json_string_value(src), "measured") != 0)
        return err_set(err, PT_EDATA,
                       "%s: row_source must be \"measured\" or \"profile\"",
                       name);
    mean = json_object_get(json_object_get(doc, "row_fixed_bytes"), "mean");
    if (!json_is_number(mean) || !(json_number_value(mean) >= 0) ||
        json_number_value(mean) > 1048576)
        return err_set(err, PT_EDATA,
                       "%s: row_source is \"measured\" but "
                       "row_fixed_bytes.mean is not a byte count 0..1048576",
                       name);
    s->row_fixed_bytes = (uint32_t)json_number_value(mean);
    if ((double)s->row_fixed_bytes < json_number_value(mean))
        s->row_fixed_bytes++;
    s->row_measured = 1;
    return 0;
}

/* `key` of obj, when present, a finite number in lo..hi; 0 or PT_EDATA */
static int check_num(const json_t *obj, const char *key, const char *path,
                     double lo, double hi, const char *name, struct pt_err *err)
{
    const json_t *v = json_object_get(obj, key);
    double x;

    if (!v)
        return 0;
    x = json_is_number(v) ? json_number_value(v) : NAN;
    if (!(x >= lo && x <= hi) && hi >= 9e15)
        return err_set(err, PT_EDATA, "%s: %s%s is not a number >= %g", name,
                       path, key, lo);
    if (!(x >= lo && x <= hi))
        return err_set(err, PT_EDATA, "%s: %s%s is not a number in %g..%g",
                       name, path, key, lo, hi);
    return 0;
}

/*
 * The members the PostgreSQL model reads besides the sizes (docs/
 * formats.md sizes.json): "compression" (the pglz trial), "column_bytes"
 * (each object column's bytes) and "rows_multi_column". A hand-edited
 * document with a wrong one is refused here, naming the member, rather
 * than read as 0 later (issue 23).
 */
static int read_pg_members(const json_t *doc, const char *name,
                           struct pt_err *err)
{
    static const char *const counts[] = {"values",
                                         "raw_bytes",
                                         "compressible_values",
                                         "pglz_bytes",
                                         "compressible_raw_bytes",
                                         "server_stored_bytes"};
    const json_t *c = json_object_get(doc, "compression");
    const json_t *cb = json_object_get(doc, "column_bytes"), *fit, *val;
    const char *key;
    int rc = 0;

    if (c && !json_is_object(c))
        return err_set(err, PT_EDATA, "%s: compression is not an object", name);
    for (size_t i = 0; c && i < sizeof(counts) / sizeof(counts[0]); i++)
        if ((rc = check_num(c, counts[i], "compression.", 0,
                            9.007199254740992e15, name, err)) < 0)
            return rc;
    if (c && (rc = check_num(c, "compressible_share", "compression.", 0, 1,
                             name, err)) < 0)
        return rc;
    fit = json_object_get(c, "pglz_fit");
    if (fit && !json_is_object(fit))
        return err_set(err, PT_EDATA,
                       "%s: compression.pglz_fit is not an object", name);
    if (fit && ((rc = check_num(fit, "per_byte", "compression.pglz_fit.", -1e6,
                                1e6, name, err)) < 0 ||
                (rc = check_num(fit, "fixed_bytes", "compression.pglz_fit.",
                                -1e12, 1e12, name, err)) < 0))
        return rc;
    if (cb && !json_is_object(cb))
        return err_set(err, PT_EDATA, "%s: column_bytes is not an object",
                       name);
    json_object_foreach((json_t *)cb, key, val)
    {
        if (!json_is_number(val) || !(json_number_value(val) >= 0) ||
            json_number_value(val) > 9.007199254740992e15)
            return err_set(err, PT_EDATA,
                           "%s: column_bytes.%.64s is not a byte count", name,
                           key);
    }
    return check_num(doc, "rows_multi_column", "", 0, 9.007199254740992e15,
                     name, err);
}

int coll_sizes_table_columns(const json_t *doc, const char *name,
                             struct coll_columns *cols, struct pt_err *err)
{
    const json_t *a = json_object_get(doc, "table_columns"), *o;
    size_t i;

    memset(cols, 0, sizeof(*cols));
    if (!a)
        return 0;
    if (!json_is_array(a) || json_array_size(a) > COLL_MAX_TABLE_COLUMNS)
        return err_set(err, PT_EDATA,
                       "%s: table_columns is not an array of at most %d "
                       "columns",
                       name, COLL_MAX_TABLE_COLUMNS);
    json_array_foreach(a, i, o)
    {
        struct coll_column *c = &cols->col[cols->n];
        const json_t *nm = json_object_get(o, "name");
        const json_t *ty = json_object_get(o, "type");
        const json_t *de = json_object_get(o, "decl");
        const json_t *nu = json_object_get(o, "nullable");
        const json_t *fb = json_object_get(o, "fixed_bytes");
        const json_t *st = json_object_get(o, "storage");
        const json_t *ca = json_object_get(o, "category");
        const json_t *aw = json_object_get(o, "avg_width");
        const json_t *nf = json_object_get(o, "null_frac");
        json_int_t fixed = 0;

        if (!json_is_string(nm) || !json_string_length(nm) ||
            json_string_length(nm) > COLL_NAME_MAX || !json_is_string(ty) ||
            !json_is_string(de) || json_string_length(de) >= sizeof(c->decl) ||
            !json_is_boolean(nu) ||
            (fb && (!pt_json_whole(fb, &fixed) || fixed < 0 || fixed > 1024)) ||
            (st && (!json_is_string(st) || json_string_length(st) != 1)) ||
            (ca && (!json_is_string(ca) || json_string_length(ca) != 1)) ||
            (aw && !json_is_null(aw) &&
             !(json_is_number(aw) && json_number_value(aw) >= 0 &&
               json_number_value(aw) <= 1048576)) ||
            (nf && !json_is_null(nf) &&
             !(json_is_number(nf) && json_number_value(nf) >= 0 &&
               json_number_value(nf) <= 1)))
            return err_set(err, PT_EDATA,
                           "%s: table_columns[%zu] needs a name, type and "
                           "decl (strings), nullable (a boolean), and "
                           "avg_width 0..1048576 and null_frac 0..1 (or "
                           "null)",
                           name, i);
        snprintf(c->name, sizeof(c->name), "%s", json_string_value(nm));
        snprintf(c->type, sizeof(c->type), "%s", json_string_value(ty));
        snprintf(c->decl, sizeof(c->decl), "%s", json_string_value(de));
        c->nullable = json_is_true(nu);
        c->fixed_bytes = (int)fixed;
        c->storage = st ? json_string_value(st)[0] : 0;
        c->category = ca ? json_string_value(ca)[0] : 0;
        c->avg_width = aw && json_is_number(aw) ? json_number_value(aw) : -1;
        c->null_frac = nf && json_is_number(nf) ? json_number_value(nf) : -1;
        cols->n++;
    }
    return 0;
}

int coll_sizes_doc_from_json(struct rec_sizes *s, const json_t *doc,
                             const char *name, struct pt_err *err)
{
    const json_t *v, *vals;
    int rc;

    memset(s, 0, sizeof(*s));
    if (!json_is_object(doc))
        return err_set(err, PT_EDATA, "%s: a sizes document is a JSON object",
                       name);
    if ((rc = pt_json_wrong_doc(doc, "sizes", name, err)) < 0)
        return rc;
    v = json_object_get(doc, "schema_version");
    if (v && (!json_is_integer(v) || json_integer_value(v) != 1))
        return err_set(err, PT_EDATA, "%s: unsupported schema_version (want 1)",
                       name);
    vals = json_object_get(doc, "values");
    rc = vals ? read_values(s, vals, name, err)
              : read_histogram(s, json_object_get(doc, "histogram"), name, err);
    if (rc == 0 && s->n == 0)
        rc = err_set(err, PT_EDATA, "%s: no sizes in the document", name);
    if (rc == 0)
        rc = read_row(s, doc, name, err);
    if (rc == 0)
        rc = read_pg_members(doc, name, err);
    if (rc < 0)
        rec_sizes_release(s);
    return rc;
}
