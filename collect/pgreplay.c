/* SPDX-License-Identifier: Apache-2.0 */
/*
 * pgreplay.c — replay a trace on a real PostgreSQL server (issue 28): one
 * scratch table per candidate table configuration (toast_tuple_target,
 * the object column's STORAGE and COMPRESSION), filled with synthetic rows
 * only, replayed through the ODBC driver by K client connections in
 * interleaved rounds, and measured by latency and by the engine's own
 * counters (pg_statio_all_tables: heap, TOAST, TOAST index, index blocks
 * read and hit).
 *
 * Safety, in the order a run takes it:
 *   1. statement_timeout and lock_timeout on every connection;
 *   2. has_database_privilege(current_database(), 'CREATE') or PT_EPERM,
 *      before anything is created;
 *   3. pg_try_advisory_lock on the schema's name, held by the caller's
 *      connection until the end (a second run gets PT_EUNAVAIL);
 *   4. the schema: absent → created with its mark in one DO block (it
 *      never exists unmarked by us); marked → a killed run's (its lock
 *      was free): its pt_replay_* tables and the schema are dropped by
 *      name first; unmarked → refused (PT_ECANTCREAT), never touched;
 *   5. the estimate against max_scratch_bytes before loading;
 *   6. at the end, whatever happened: DROP TABLE of each table, DROP
 *      SCHEMA (never CASCADE), then the lock is released.
 * The user's table is never named: the scratch tables are shaped like
 * WebSphere's SESSIONS table on PostgreSQL (ID, PROPID, APPNAME, LISTENERCNT,
 * LASTACCESS, CREATIONTIME, MAXINACTIVETIME, USERNAME, SMALL bytea).
 *
 * Counters: a backend flushes its statistics when it goes idle, at most
 * once a second unless pg_stat_force_next_flush() (PostgreSQL 15) asked
 * for the next one; each client asks and runs one more statement before
 * the counters are read, so the deltas hold every block of the rounds.
 *
 * Neighbours: replay_clients.c (the clients, passes, load and latencies
 * myreplay.c shares), odbc.c (connections, diagnostics, the watchdog),
 * cli/cmd_replay.c (options, the intervals and the verdict through store/'s
 * store_mean_ci95 and store_verdict_judge).
 */
#include "collect/internal.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#define PGR_SLIDE COLL_PGR_SLIDE
#define PGR_ROW_OVERHEAD 120 /* header, other columns, line pointer */
#define PGR_INDEX_BYTES 48   /* a primary-key entry */
#define PGR_LOCK_SQL "pg_advisory_lock(hashtext('pagetune replay'), hashtext("

static const char *const storage_names[] = {"PLAIN", "MAIN", "EXTERNAL",
                                            "EXTENDED", NULL};
static const char *const compression_names[] = {"pglz", "lz4", NULL};

void coll_pgr_plan_init(struct coll_pgr_plan *p)
{
    memset(p, 0, sizeof(*p));
    p->schema = COLL_PGR_SCHEMA_DEFAULT;
    p->n_clients = 1;
    p->warmup_rounds = 1;
    p->rounds = 5;
    p->max_scratch_bytes = UINT64_C(1) << 30;
    p->statement_timeout_ms = 30000;
    p->lock_timeout_ms = 5000;
}

/* ---- candidates --------------------------------------------------------- */

static int pick(const char *const *names, const char *v, char *out, size_t len)
{
    for (size_t i = 0; names[i]; i++)
        if (strcasecmp(names[i], v) == 0) {
            snprintf(out, len, "%s", names[i]);
            return 0;
        }
    return -1;
}

int coll_pgr_candidate_parse(const char *spec, struct coll_pgr_candidate *c,
                             struct pt_err *err)
{
    char buf[256], *save = NULL;

    memset(c, 0, sizeof(*c));
    c->toast_tuple_target = 2032;
    if (strlen(spec) >= sizeof(buf))
        return err_set(err, PT_EUSAGE, "'%s' is too long", spec);
    snprintf(buf, sizeof(buf), "%s", spec);
    for (char *kv = strtok_r(buf, ",", &save); kv;
         kv = strtok_r(NULL, ",", &save)) {
        char *eq = strchr(kv, '='), *end = NULL;
        if (!eq)
            return err_set(err, PT_EUSAGE, "'%s' is not KEY=VALUE", kv);
        *eq++ = '\0';
        if (strcmp(kv, "toast_tuple_target") == 0) {
            unsigned long v = strtoul(eq, &end, 10);
            if (!*eq || *end || v < 128 || v > 8160)
                return err_set(err, PT_EUSAGE,
                               "toast_tuple_target '%s' is not a number "
                               "128..8160",
                               eq);
            c->toast_tuple_target = (uint32_t)v;
        } else if (strcmp(kv, "storage") == 0) {
            if (pick(storage_names, eq, c->storage, sizeof(c->storage)) < 0)
                return err_set(err, PT_EUSAGE,
                               "storage '%s' is not PLAIN, MAIN, EXTERNAL or "
                               "EXTENDED",
                               eq);
        } else if (strcmp(kv, "compression") == 0) {
            if (pick(compression_names, eq, c->compression,
                     sizeof(c->compression)) < 0)
                return err_set(err, PT_EUSAGE,
                               "compression '%s' is not pglz or lz4", eq);
        } else if (strcmp(kv, "fillfactor") == 0) {
            /* CREATE TABLE: "between 10 and 100" */
            unsigned long v = strtoul(eq, &end, 10);
            if (!*eq || *end || v < 10 || v > 100)
                return err_set(err, PT_EUSAGE,
                               "fillfactor '%s' is not a number 10..100", eq);
            c->fillfactor = v == 100 ? 0 : (uint32_t)v;
        } else {
            return err_set(err, PT_EUSAGE,
                           "unknown key '%s' (toast_tuple_target, storage, "
                           "compression, fillfactor)",
                           kv);
        }
    }
    return 0;
}

void coll_pgr_candidate_format(const struct coll_pgr_candidate *c, char *buf,
                               size_t len)
{
    int n = snprintf(buf, len, "toast_tuple_target=%u", c->toast_tuple_target);

    if (n > 0 && (size_t)n < len && c->storage[0])
        n += snprintf(buf + n, len - (size_t)n, ",storage=%s", c->storage);
    if (n > 0 && (size_t)n < len && c->compression[0])
        n += snprintf(buf + n, len - (size_t)n, ",compression=%s",
                      c->compression);
    if (n > 0 && (size_t)n < len && c->fillfactor)
        snprintf(buf + n, len - (size_t)n, ",fillfactor=%u", c->fillfactor);
}

/* ---- the sampled table's other columns ------------------------------------
 */

static uint64_t mix64(uint64_t x);

/* A value's characters from a stored width: a short varlena header (1
 * byte) up to 127 bytes, else 4 (PostgreSQL "TOAST": varattrib_1b). */
static uint32_t chars_of(double width)
{
    uint32_t w = width > 1 ? (uint32_t)(width + 0.5) : 1;
    return w <= 127 ? (w > 1 ? w - 1 : 1) : w - 4;
}

static uint32_t varlena_bytes(uint32_t chars)
{
    return chars <= 126 ? chars + 1 : chars + 4;
}

/* n hex digits, different per column (seed) and incompressible to pglz's
 * 25 % rule: 16 symbols without runs */
void coll_rpl_hex_chars(char *out, uint32_t n, uint64_t seed)
{
    static const char digits[] = "0123456789abcdef";
    uint64_t x = mix64(seed + 1);

    for (uint32_t i = 0; i < n; i++) {
        if (i % 16 == 0)
            x = mix64(x + i);
        out[i] = digits[(x >> (4 * (i % 16))) & 15];
    }
    out[n] = '\0';
}

/* The declared length of character varying(n) / character(n), or 0. */
uint32_t coll_rpl_decl_len(const char *decl)
{
    const char *o = strchr(decl, '(');
    return o ? (uint32_t)strtoul(o + 1, NULL, 10) : 0;
}

/*
 * The literal of column c (the value every scratch row gets) into lit
 * (typed with its declared type) and its stored bytes; 0 when pagetune
 * has no synthetic value of that type, or it is wider than
 * COLL_PGR_EXTRA_WIDE. Types by name, so a domain or an enum is not
 * taken for its base.
 */
static uint32_t extra_literal(const struct coll_column *c, uint64_t seed,
                              char *lit, size_t len)
{
    static const struct {
        const char *type, *value;
    } fixed[] = {{"int2", "1"},
                 {"int4", "1"},
                 {"int8", "1"},
                 {"float4", "1"},
                 {"float8", "1"},
                 {"oid", "1"},
                 {"bool", "true"},
                 {"date", "2026-01-01"},
                 {"time", "12:00:00"},
                 {"timetz", "12:00:00+00"},
                 {"timestamp", "2026-01-01 12:00:00"},
                 {"timestamptz", "2026-01-01 12:00:00+00"},
                 {"interval", "1 hour"},
                 {"uuid", "00000000-0000-4000-8000-000000000000"},
                 {"numeric", "1"}};
    char hex[2 * COLL_PGR_EXTRA_WIDE + 1];
    uint32_t n;

    for (size_t i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++)
        if (!strcmp(c->type, fixed[i].type)) {
            snprintf(lit, len, "'%s'::%s", fixed[i].value, c->decl);
            /* numeric '1': a 1-byte header, 2 of its own, one digit group */
            return c->fixed_bytes > 0 ? (uint32_t)c->fixed_bytes : 5;
        }
    if (c->avg_width > COLL_PGR_EXTRA_WIDE || c->avg_width < 1)
        return 0;
    n = chars_of(c->avg_width);
    if (!strcmp(c->type, "text") || !strcmp(c->type, "varchar") ||
        !strcmp(c->type, "bpchar")) {
        uint32_t max = coll_rpl_decl_len(c->decl);
        if (!strcmp(c->type, "bpchar") && max)
            n = max; /* blank-padded to its length */
        else if (max && n > max)
            n = max;
        coll_rpl_hex_chars(hex, n, seed);
        snprintf(lit, len, "'%s'::%s", hex, c->decl);
        return varlena_bytes(n);
    }
    if (!strcmp(c->type, "bytea")) {
        coll_rpl_hex_chars(hex, 2 * n, seed);
        snprintf(lit, len, "decode('%s', 'hex')", hex);
        return varlena_bytes(n);
    }
    /* json keeps the text: {"pt": "..."} is 10 characters and the value;
       jsonb one object of one pair: its header (4), the key's and the
       value's entries (4 each) and the key "pt" (2), then the value's
       characters, after the varlena's own header (PostgreSQL
       jsonb.h, JsonbContainer and JEntry) */
    if (!strcmp(c->type, "json") && n > 10) {
        coll_rpl_hex_chars(hex, n - 10, seed);
        snprintf(lit, len, "'{\"pt\": \"%s\"}'::%s", hex, c->decl);
        return varlena_bytes(n);
    }
    if (!strcmp(c->type, "jsonb") && n > 14) {
        coll_rpl_hex_chars(hex, n - 14, seed);
        snprintf(lit, len, "'{\"pt\": \"%s\"}'::%s", hex, c->decl);
        return varlena_bytes(n);
    }
    return 0;
}

/* PostgreSQL stores a value as pg_column_size measures it: the record's
 * bytes are its width */
static uint32_t pg_literal(const struct coll_column *c, uint64_t seed,
                           char *lit, size_t len, uint32_t *record)
{
    return *record = extra_literal(c, seed, lit, len);
}

/* name as a quoted identifier between two q (PostgreSQL '"', MariaDB
 * '`'), its case and any q kept (doubled): the catalog's exact name, so
 * two that differ in case stay two */
static void quote_doubled(char q, const char *name, char *out, size_t len)
{
    size_t o = 0;

    if (len < 3)
        return;
    out[o++] = q;
    for (const char *c = name; *c && o + 3 < len; c++) {
        if (*c == q)
            out[o++] = q;
        out[o++] = *c;
    }
    out[o++] = q;
    out[o] = '\0';
}

size_t coll_rpl_extras(struct coll_pgr_plan *p, enum coll_engine engine,
                       coll_rpl_literal_fn literal,
                       const struct coll_columns *cols,
                       const char *const *objects, size_t n_obj, char *why,
                       size_t why_len)
{
    static const char *const layout[] = {
        "id",         "propid",       "appname",         "listenercnt",
        "lastaccess", "creationtime", "maxinactivetime", "username",
        "small",      "pt_rest"};
    const int my = engine == COLL_ENGINE_MYSQL;
    size_t w = 0;

    p->n_extra = 0;
    if (why && why_len)
        why[0] = '\0';
    for (size_t i = 0; cols && i < cols->n; i++) {
        const struct coll_column *c = &cols->col[i];
        struct coll_pgr_extra *e = &p->extra[p->n_extra];
        const char *skip = NULL;
        char lit[sizeof(e->def) - 64];
        uint32_t bytes = 0, record = 0;

        if (coll_is_object(c->name, layout, sizeof(layout) / sizeof(*layout)) ||
            coll_is_object(c->name, objects, n_obj))
            continue;
        if (!c->decl[0] || c->avg_width < 0)
            skip = my ? "no width: the sample measured none"
                      : "no statistics: never ANALYZEd";
        else if (!(bytes = literal(c, i, lit, sizeof(lit), &record)))
            skip = c->avg_width > COLL_PGR_EXTRA_WIDE
                       ? "wider than 1 KB"
                       : "no synthetic value of its type";
        else if (p->n_extra == COLL_PGR_MAX_EXTRA)
            skip = "more columns than pagetune carries";
        if (skip) {
            if (why && w < why_len)
                w += (size_t)snprintf(why + w, why_len - w, "%s%s (%s: %s)",
                                      w ? ", " : "", c->name,
                                      c->decl[0] ? c->decl : c->type, skip);
            continue;
        }
        memset(e, 0, sizeof(*e));
        snprintf(e->raw, sizeof(e->raw), "%s", c->name);
        quote_doubled(my ? '`' : '"', c->name, e->name, sizeof(e->name));
        snprintf(e->decl, sizeof(e->decl), "%s", c->decl);
        e->storage = c->storage;
        /* MariaDB: a value with no length bytes is of a fixed-width type
           (a number, a date, a uuid), whose OCTET_LENGTH is its text's */
        e->fixed = my && record == bytes;
        e->width = bytes;
        e->sampled = c->avg_width;
        e->nullable = c->nullable && c->null_frac > 0.005;
        if (e->nullable) {
            e->null_frac = (double)(int)(c->null_frac * 1000 + 0.5) / 1000;
            snprintf(e->def, sizeof(e->def),
                     my ? "(IF(RAND() < %.3f, NULL, %s))"
                        : "CASE WHEN random() < %.3f THEN NULL ELSE %s END",
                     e->null_frac, lit);
            record = (uint32_t)((double)record * (1 - e->null_frac) + 0.5);
        } else {
            snprintf(e->def, sizeof(e->def), my ? "(%s)" : "%s", lit);
        }
        e->bytes = record;
        p->n_extra++;
    }
    if (why && w >= why_len && why_len > 4)
        memcpy(why + why_len - 4, "...", 4);
    return p->n_extra;
}

size_t coll_pgr_extras(struct coll_pgr_plan *p, const struct coll_columns *cols,
                       const char *const *objects, size_t n_obj, char *why,
                       size_t why_len)
{
    return coll_rpl_extras(p, COLL_ENGINE_POSTGRESQL, pg_literal, cols, objects,
                           n_obj, why, why_len);
}

void coll_rpl_extras_result(const struct coll_pgr_plan *p,
                            struct coll_pgr_result *res)
{
    res->n_extra = p->n_extra;
    for (size_t i = 0; i < p->n_extra; i++) {
        struct coll_pgr_extra_result *x = &res->extra[i];
        snprintf(x->name, sizeof(x->name), "%s", p->extra[i].raw);
        snprintf(x->decl, sizeof(x->decl), "%s", p->extra[i].decl);
        x->width = p->extra[i].width;
        x->null_frac = p->extra[i].null_frac;
        x->sampled_width = p->extra[i].sampled;
        x->measured_width = x->measured_null_frac = -1;
    }
}

int coll_rpl_extras_measure(struct coll_conn *c, const struct coll_pgr_plan *p,
                            enum coll_engine engine, const char *schema,
                            struct coll_pgr_result *res, struct pt_err *err)
{
    const int my = engine == COLL_ENGINE_MYSQL;
    struct coll_rpl_text t;
    struct coll_rows rows;
    char *sql;
    size_t len = 256 + p->n_extra * (4 * COLL_NAME_MAX + 128);
    int ret;

    if (!p->n_extra)
        return 0;
    if (!(sql = malloc(len)))
        return err_set(err, PT_EINTERNAL, "out of memory");
    t = (struct coll_rpl_text){sql, len, 0, 0};
    coll_rpl_text_add(&t, "SELECT ");
    for (size_t i = 0; i < p->n_extra; i++) {
        const char *nm = p->extra[i].name, *sep = i ? ", " : "";
        if (!my)
            coll_rpl_text_add(&t,
                              "%scoalesce(avg(pg_column_size(%s)), -1), "
                              "coalesce(1 - count(%s)::float8 / "
                              "nullif(count(*), 0), -1)",
                              sep, nm, nm);
        else if (p->extra[i].fixed)
            coll_rpl_text_add(&t, "%s-1, coalesce(avg(%s IS NULL), -1)", sep,
                              nm);
        else
            coll_rpl_text_add(&t,
                              "%scoalesce(avg(octet_length(%s)), -1), "
                              "coalesce(avg(%s IS NULL), -1)",
                              sep, nm, nm);
    }
    coll_rpl_text_add(&t, " FROM %s.pt_replay_1", schema);
    ret = coll_query_rows(c, sql, &rows, err);
    free(sql);
    if (ret < 0)
        return ret;
    for (size_t i = 0; i < p->n_extra && rows.n_rows && 2 * i + 1 < rows.n_cols;
         i++) {
        if (rows.cells[2 * i])
            res->extra[i].measured_width = strtod(rows.cells[2 * i], NULL);
        if (rows.cells[2 * i + 1])
            res->extra[i].measured_null_frac =
                strtod(rows.cells[2 * i + 1], NULL);
    }
    coll_rows_release(&rows);
    return 0;
}

uint32_t coll_pgr_extra_bytes(const struct coll_pgr_plan *p)
{
    uint32_t b = 0;

    for (size_t i = 0; i < p->n_extra; i++)
        b += p->extra[i].bytes;
    return b;
}

/* Bytes of pt_rest (its 4-byte header apart) that bring the scratch row
 * to the sampled row's rest, past the layout's own columns and the
 * carried ones; 0: no pt_rest column. */
static uint32_t rest_pad(const struct coll_pgr_plan *p)
{
    uint32_t own = COLL_PGR_LAYOUT_REST + coll_pgr_extra_bytes(p);

    return p->rest_bytes > own + 8 ? p->rest_bytes - own - 4 : 0;
}

uint64_t coll_pgr_estimate_bytes(const struct coll_pgr_plan *p)
{
    uint64_t one = 0;

    for (uint64_t k = 0; k < p->n_keys; k++)
        one += p->first_size[k] + PGR_ROW_OVERHEAD + PGR_INDEX_BYTES +
               rest_pad(p) + coll_pgr_extra_bytes(p);
    return one * (p->n_cand ? p->n_cand : 1);
}

/* ---- DDL ------------------------------------------------------------------
 */

/* The names every statement uses: the schema quoted and as a literal. */
struct pgr_names {
    char schema[COLL_NAME_MAX + 4];  /* "pagetune_scratch" */
    char literal[COLL_NAME_MAX + 8]; /* 'pagetune_scratch' */
};

static int names_init(const struct coll_pgr_plan *p, struct pgr_names *nm,
                      struct pt_err *err)
{
    const char *s = p->schema ? p->schema : COLL_PGR_SCHEMA_DEFAULT;
    char lower[COLL_NAME_MAX + 1];
    size_t i;
    int ret;

    if ((ret = coll_ident_check(s, "`scratch_schema`", err)) < 0)
        return ret;
    for (i = 0; s[i] && i < COLL_NAME_MAX; i++)
        lower[i] = (char)(s[i] >= 'A' && s[i] <= 'Z' ? s[i] + 32 : s[i]);
    lower[i] = '\0';
    if (strlen(lower) > 63)
        return err_set(err, PT_EUSAGE,
                       "`scratch_schema` '%s' is longer than PostgreSQL's 63 "
                       "bytes",
                       s);
    coll_ident_quote(COLL_ENGINE_POSTGRESQL, lower, nm->schema,
                     sizeof(nm->schema), NULL);
    coll_sql_string(COLL_ENGINE_POSTGRESQL, lower, nm->literal,
                    sizeof(nm->literal));
    return 0;
}

static void sql_create_schema(const struct pgr_names *nm,
                              struct coll_rpl_text *t)
{
    coll_rpl_text_add(
        t,
        "DO $pt$BEGIN CREATE SCHEMA %s; COMMENT ON SCHEMA %s IS '" COLL_PGR_MARK
        ": created by pagetune " PT_VERSION
        " replay, dropped at the end of its run; a later run drops it "
        "when no run holds its advisory lock'; END$pt$",
        nm->schema, nm->schema);
}

static void sql_create_table(const struct pgr_names *nm, size_t i,
                             const struct coll_pgr_plan *p,
                             const struct coll_pgr_candidate *c, uint32_t pad,
                             struct coll_rpl_text *t)
{
    coll_rpl_text_add(
        t,
        "CREATE TABLE %s.pt_replay_%zu (id varchar(128) NOT NULL, "
        "propid varchar(128) NOT NULL, appname varchar(128) NOT NULL, "
        "listenercnt smallint, lastaccess bigint, creationtime bigint, "
        "maxinactivetime integer, username varchar(256), small bytea",
        nm->schema, i + 1);
    if (c->compression[0])
        coll_rpl_text_add(t, " COMPRESSION %s", c->compression);
    /* the sampled table's own columns, each row's value its DEFAULT */
    for (size_t k = 0; k < p->n_extra; k++)
        coll_rpl_text_add(t, ", %s %s DEFAULT %s", p->extra[k].name,
                          p->extra[k].decl, p->extra[k].def);
    if (pad)
        coll_rpl_text_add(t, ", pt_rest bytea");
    coll_rpl_text_add(
        t,
        ", PRIMARY KEY (id, propid, appname)) WITH (toast_tuple_target "
        "= %u, ",
        c->toast_tuple_target);
    if (c->fillfactor)
        coll_rpl_text_add(t, "fillfactor = %u, ", c->fillfactor);
    coll_rpl_text_add(t, "autovacuum_enabled = false, "
                         "toast.autovacuum_enabled = false)");
}

/* STORAGE in a column definition is PostgreSQL 16's; ALTER TABLE works
 * from 8.x on. Nothing when the candidate keeps the default. */

/* Does candidate c's table need an ALTER TABLE ... SET STORAGE? */
static int alters_storage(const struct coll_pgr_plan *p,
                          const struct coll_pgr_candidate *c, uint32_t pad)
{
    int any = c->storage[0] || pad;

    for (size_t k = 0; k < p->n_extra; k++)
        any |= coll_pg_storage_name(p->extra[k].storage) != NULL;
    return any;
}

static void sql_alter_storage(const struct pgr_names *nm, size_t i,
                              const struct coll_pgr_plan *p,
                              const struct coll_pgr_candidate *c, uint32_t pad,
                              struct coll_rpl_text *t)
{
    const char *sep = "";

    if (!alters_storage(p, c, pad))
        return;
    coll_rpl_text_add(t, "ALTER TABLE %s.pt_replay_%zu ", nm->schema, i + 1);
    if (c->storage[0]) {
        coll_rpl_text_add(t, "ALTER COLUMN small SET STORAGE %s", c->storage);
        sep = ", ";
    }
    /* the carried columns keep the sampled table's storage */
    for (size_t k = 0; k < p->n_extra; k++)
        if (coll_pg_storage_name(p->extra[k].storage)) {
            coll_rpl_text_add(t, "%sALTER COLUMN %s SET STORAGE %s", sep,
                              p->extra[k].name,
                              coll_pg_storage_name(p->extra[k].storage));
            sep = ", ";
        }
    /* the rest of the row stays in it, as short columns do */
    if (pad)
        coll_rpl_text_add(t, "%sALTER COLUMN pt_rest SET STORAGE PLAIN", sep);
}

static void sql_comment_table(const struct pgr_names *nm, size_t i,
                              const struct coll_pgr_candidate *c,
                              struct coll_rpl_text *t)
{
    char spec[96];

    coll_pgr_candidate_format(c, spec, sizeof(spec));
    coll_rpl_text_add(t,
                      "COMMENT ON TABLE %s.pt_replay_%zu IS 'pagetune replay "
                      "candidate %zu: %s'",
                      nm->schema, i + 1, i + 1, spec);
}

int coll_pgr_ddl(const struct coll_pgr_plan *p, char *buf, size_t len,
                 struct pt_err *err)
{
    struct coll_rpl_text t = {buf, len, 0, 0};
    struct pgr_names nm;
    int ret;

    if ((ret = names_init(p, &nm, err)) < 0)
        return ret;
    buf[0] = '\0';
    coll_rpl_text_add(
        &t,
        "-- pagetune replay: scratch objects (synthetic rows only; "
        "the user's tables are never named)\n"
        "-- checked first: has_database_privilege(current_database(), "
        "'CREATE')\n"
        "SET statement_timeout = %ld;\nSET lock_timeout = %ld;\n"
        "SELECT pg_try_advisory_lock(hashtext('pagetune replay'), "
        "hashtext(%s));\n",
        p->statement_timeout_ms, p->lock_timeout_ms, nm.literal);
    sql_create_schema(&nm, &t);
    coll_rpl_text_add(&t, ";\n");
    for (size_t i = 0; i < p->n_cand; i++) {
        sql_create_table(&nm, i, p, &p->cand[i], rest_pad(p), &t);
        coll_rpl_text_add(&t, ";\n");
        if (alters_storage(p, &p->cand[i], rest_pad(p))) {
            sql_alter_storage(&nm, i, p, &p->cand[i], rest_pad(p), &t);
            coll_rpl_text_add(&t, ";\n");
        }
        sql_comment_table(&nm, i, &p->cand[i], &t);
        coll_rpl_text_add(&t, ";\n");
    }
    coll_rpl_text_add(&t,
                      "-- load, replay, counters (pg_statio_all_tables) ...\n");
    for (size_t i = 0; i < p->n_cand; i++)
        coll_rpl_text_add(&t, "DROP TABLE %s.pt_replay_%zu;\n", nm.schema,
                          i + 1);
    coll_rpl_text_add(
        &t,
        "DROP SCHEMA %s;\nSELECT pg_advisory_unlock(hashtext('pagetune "
        "replay'), hashtext(%s));\n",
        nm.schema, nm.literal);
    if (t.over)
        return err_set(err, PT_EINTERNAL, "DDL buffer too small");
    return 0;
}

/* ---- the schema's life ----------------------------------------------------
 */

static int set_timeouts(struct coll_conn *c, const struct coll_pgr_plan *p,
                        struct pt_err *err)
{
    char sql[128];
    int ret;

    snprintf(sql, sizeof(sql), "SET statement_timeout = %ld",
             p->statement_timeout_ms);
    if ((ret = coll_exec(c, sql, err)) < 0)
        return ret;
    snprintf(sql, sizeof(sql), "SET lock_timeout = %ld", p->lock_timeout_ms);
    return coll_exec(c, sql, err);
}

static int check_privilege(struct coll_conn *c, struct pt_err *err)
{
    char db[160] = "", user[160] = "";
    int64_t ok = 0;
    int ret;

    if ((ret = coll_query_i64(c,
                              "SELECT has_database_privilege("
                              "current_database(), 'CREATE')::int",
                              &ok, err)) < 0)
        return ret;
    if (ok)
        return 0;
    coll_query_value(c, "SELECT current_database()", db, sizeof(db), NULL,
                     NULL);
    coll_query_value(c, "SELECT current_user", user, sizeof(user), NULL, NULL);
    return err_set(err, PT_EPERM,
                   "replay needs the CREATE privilege on database '%s' to "
                   "create its scratch schema; role '%s' lacks it (GRANT "
                   "CREATE ON DATABASE \"%s\" TO \"%s\"); nothing was created",
                   db, user, db, user);
}

static int lock_take(struct coll_conn *c, const struct pgr_names *nm,
                     const char *schema, struct pt_err *err)
{
    char sql[512];
    int64_t got = 0;
    int ret;

    snprintf(sql, sizeof(sql),
             "SELECT pg_try_advisory_lock(hashtext('pagetune replay'), "
             "hashtext(%s))::int",
             nm->literal);
    if ((ret = coll_query_i64(c, sql, &got, err)) < 0)
        return ret;
    if (!got)
        return err_set(err, PT_EUNAVAIL,
                       "another pagetune replay holds the advisory lock of "
                       "scratch schema '%s': wait for it to end, or give "
                       "`scratch_schema` another name",
                       schema);
    return 0;
}

static void lock_release(struct coll_conn *c, const struct pgr_names *nm)
{
    char sql[512];

    snprintf(sql, sizeof(sql),
             "SELECT pg_advisory_unlock(hashtext('pagetune replay'), "
             "hashtext(%s))",
             nm->literal);
    coll_exec(c, sql, NULL);
}

/* Drop the scratch tables pt_replay_* a run left, then the schema: by name,
 * never CASCADE (anything else in it makes DROP SCHEMA fail, and says
 * so). *n_tables receives the tables dropped. */
static int schema_drop(struct coll_conn *c, const struct pgr_names *nm,
                       uint64_t *n_tables, struct pt_err *err)
{
    char sql[768];
    int ret;

    snprintf(sql, sizeof(sql),
             "SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = "
             "c.relnamespace WHERE n.nspname = %s AND c.relkind = 'r' AND "
             "c.relname LIKE 'pt\\_replay\\_%%' ORDER BY 1",
             nm->literal);
    if ((ret = coll_rpl_drop_tables(c, COLL_ENGINE_POSTGRESQL, sql, nm->schema,
                                    n_tables, err)) < 0)
        return ret;
    snprintf(sql, sizeof(sql), "DROP SCHEMA %s", nm->schema);
    return coll_exec(c, sql, err);
}

/* The schema now: 0 absent, 1 ours (marked), 2 someone else's. */
static int schema_state(struct coll_conn *c, const struct pgr_names *nm,
                        int *state, struct pt_err *err)
{
    char sql[512];
    int64_t n = 0;
    int ret;

    snprintf(sql, sizeof(sql),
             "SELECT coalesce(max(CASE WHEN coalesce(obj_description(oid, "
             "'pg_namespace'), '') LIKE '" COLL_PGR_MARK
             "%%' THEN 1 ELSE 2 END), 0) FROM pg_namespace WHERE nspname = "
             "%s",
             nm->literal);
    if ((ret = coll_query_i64(c, sql, &n, err)) < 0)
        return ret;
    *state = (int)n;
    return 0;
}

/* Make the schema ours: refuse a stranger's, reclaim a killed run's. */
static int schema_claim(struct coll_conn *c, const struct coll_pgr_plan *p,
                        const struct pgr_names *nm, struct coll_pgr_result *res,
                        struct pt_err *err)
{
    char sql[1024];
    struct coll_rpl_text t = {sql, sizeof(sql), 0, 0};
    uint64_t n = 0;
    int state = 0, ret;

    if ((ret = schema_state(c, nm, &state, err)) < 0)
        return ret;
    if (state == 2)
        return err_set(err, PT_ECANTCREAT,
                       "`scratch_schema` '%s' exists and is not pagetune's "
                       "(its comment has no pagetune mark): refusing to use "
                       "or drop it; name another",
                       p->schema);
    if (state == 1) {
        if ((ret = schema_drop(c, nm, &n, err)) < 0)
            return ret;
        res->reclaimed = 1;
        coll_rpl_note(
            p,
            "reclaimed scratch schema '%s' left by an earlier run that "
            "did not end (%llu table(s) dropped)",
            p->schema, (unsigned long long)n);
    }
    sql_create_schema(nm, &t);
    return coll_exec(c, sql, err);
}

/* ---- synthetic content ----------------------------------------------------
 */

static uint64_t mix64(uint64_t x)
{
    x ^= x >> 33;
    x *= UINT64_C(0xff51afd7ed558ccd);
    x ^= x >> 33;
    x *= UINT64_C(0xc4ceb9fe1a85ec53);
    return x ^ (x >> 33);
}

/* Is session `key` one of the compressible share? (myreplay.c too) */
int coll_pgr_key_text(const struct coll_pgr_plan *p, uint64_t key)
{
    return (double)(mix64(key + 1) >> 11) / 9007199254740992.0 <
           p->compressible;
}

/* Random bytes (incompressible) and text (a session's attributes as
 * words: pglz keeps about half) of max_bytes + PGR_SLIDE (myreplay.c
 * too). */
int coll_pgr_payloads(const struct coll_pgr_plan *p, unsigned char **rnd,
                      unsigned char **txt)
{
    static const char *const words[] = {
        "cart",   "item",     "user",    "locale", "en_US", "price", "total",
        "amount", "currency", "session", "token",  "true",  "false", "null",
        "page",   "view",     "order",   "status", "ok",    "list",  "name",
        "value",  "id",       "count",   "last",   "first", "time",  "date"};
    size_t n = (size_t)p->max_bytes + PGR_SLIDE + rest_pad(p), o = 0;
    uint64_t x = 88172645463325252u;

    *rnd = malloc(n);
    *txt = malloc(n);
    if (!*rnd || !*txt)
        return -1;
    for (size_t i = 0; i < n; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        (*rnd)[i] = (unsigned char)x;
    }
    while (o < n) {
        const char *w;
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        w = words[x % (sizeof(words) / sizeof(*words))];
        for (size_t k = 0; w[k] && o < n; k++)
            (*txt)[o++] = (unsigned char)w[k];
        if (o < n)
            (*txt)[o++] = (unsigned char)((x >> 20) % 3 ? ' ' : '=');
        if (o < n && (x >> 24) % 7 == 0)
            (*txt)[o++] = (unsigned char)('0' + (x >> 30) % 10);
    }
    return 0;
}

/* ---- clients (replay_clients.c's, with this engine's SQL) -----------------
 */

struct pgr_run {
    const struct coll_pgr_plan *p;
    struct coll_conn *admin; /* the caller's: set-up, VACUUM, counters */
    struct pgr_names nm;
    unsigned char *rnd, *txt; /* payloads */
    struct coll_rpl_clients cs;
    struct coll_pgr_result *res; /* the counters' sums */
    int pg15; /* pg_stat_force_next_flush() exists (PostgreSQL 15+) */
    char bufcache[COLL_NAME_MAX + 4]; /* pg_buffercache's schema, quoted,
                                         "" when it cannot be used */
    uint64_t other_sum, other_n;      /* its counts, before measured passes */
};

void coll_pgr_key_name(uint64_t key, char *buf, size_t len)
{
    snprintf(buf, len, "pt%016llx", (unsigned long long)mix64(key));
}

/* A new client's timeouts and its statements, per candidate: the set's
 * SQL is PostgreSQL's own. */
static int client_setup(struct coll_rpl_client *cl, void *arg,
                        struct pt_err *err)
{
    const struct pgr_run *run = cl->g->run;
    const struct pgr_names *nm = &run->nm;
    char sql[1024];
    int ret;

    (void)arg;
    if ((ret = set_timeouts(cl->conn, run->p, err)) < 0)
        return ret;
    for (size_t i = 0; i < run->p->n_cand && ret == 0; i++) {
        /* pt_rest is written once, on insert: an update keeps it */
        snprintf(sql, sizeof(sql),
                 "INSERT INTO %s.pt_replay_%zu (id, propid, appname, "
                 "listenercnt, lastaccess, creationtime, maxinactivetime, "
                 "small%s) VALUES (?, ?, 'default_host/pagetune', 0, ?, ?, "
                 "1800, ?%s) ON CONFLICT (id, propid, appname) DO UPDATE SET "
                 "small = EXCLUDED.small, lastaccess = EXCLUDED.lastaccess",
                 nm->schema, i + 1, rest_pad(run->p) ? ", pt_rest" : "",
                 rest_pad(run->p) ? ", ?" : "");
        ret = coll_rpl_prep_cand(cl, i, nm->schema, sql, err);
    }
    return ret;
}

/* A set: different bytes at every write (a window of the payload), as a
 * re-serialised session is; pt_rest (if any) after it. */
static int op_set(struct coll_rpl_client *cl, SQLHSTMT st, uint64_t i,
                  const struct coll_pgr_req *r, struct pt_err *err)
{
    const struct pgr_run *run = cl->g->run;
    const unsigned char *pay =
        coll_pgr_key_text(run->p, r->key_id) ? run->txt : run->rnd;
    size_t off = coll_pgr_set_offset(i);
    SQLLEN obj_ind = (SQLLEN)r->size_bytes;
    uint32_t pad = rest_pad(run->p);
    SQLLEN pad_ind = (SQLLEN)pad;
    SQLRETURN rc;
    int ret;

    if ((ret = coll_rpl_bind_row(cl, st, i, err)) < 0)
        return ret;
    rc = SQLBindParameter(st, 5, SQL_PARAM_INPUT, SQL_C_BINARY, SQL_VARBINARY,
                          r->size_bytes ? r->size_bytes : 1, 0,
                          (SQLPOINTER)(pay + off), (SQLLEN)r->size_bytes,
                          &obj_ind);
    if (SQL_SUCCEEDED(rc) && pad)
        rc = SQLBindParameter(st, 6, SQL_PARAM_INPUT, SQL_C_BINARY,
                              SQL_VARBINARY, pad, 0, (SQLPOINTER)run->rnd,
                              (SQLLEN)pad, &pad_ind);
    if (!SQL_SUCCEEDED(rc))
        return coll_diag(cl->conn, SQL_HANDLE_STMT, st, rc, "bind", err);
    return coll_rpl_exec(cl, st, "set", err);
}

/* ---- counters, rounds -----------------------------------------------------
 */

/* Every client's statistics flushed. PostgreSQL 15: the next report is
 * forced, and a backend reports before it says it is ready again. Before
 * 15 a backend sends its counts to the statistics collector at the end
 * of a transaction at most every 500 ms (PGSTAT_STAT_INTERVAL): a
 * statement after that long sends them, and the collector gets a moment
 * to take them in (untested here: the test server is 15). */
static int flush_stats(struct pgr_run *run, struct pt_err *err)
{
    int ret;

    if (!run->pg15)
        coll_rpl_sleep_ms(600);
    for (unsigned i = 0; i < run->cs.k; i++)
        if ((run->pg15 &&
             (ret = coll_exec(run->cs.cl[i].conn,
                              "SELECT pg_stat_force_next_flush()", err)) < 0) ||
            (ret = coll_exec(run->cs.cl[i].conn, "SELECT 1", err)) < 0)
            return ret;
    if (!run->pg15)
        coll_rpl_sleep_ms(200);
    return 0;
}

static int blocks_read(struct coll_conn *c, const struct pgr_names *nm,
                       size_t i, struct coll_pgr_blocks *b, struct pt_err *err)
{
    static const char *const cols[] = {
        "heap_blks_read", "heap_blks_hit", "toast_blks_read", "toast_blks_hit",
        "tidx_blks_read", "tidx_blks_hit", "idx_blks_read",   "idx_blks_hit"};
    uint64_t *v[] = {&b->heap_read, &b->heap_hit, &b->toast_read, &b->toast_hit,
                     &b->tidx_read, &b->tidx_hit, &b->idx_read,   &b->idx_hit};
    struct coll_rows rows;
    char sql[1024];
    int ret;

    coll_exec(c, "SELECT pg_stat_clear_snapshot()", NULL);
    snprintf(sql, sizeof(sql),
             "SELECT coalesce(heap_blks_read, 0), coalesce(heap_blks_hit, 0), "
             "coalesce(toast_blks_read, 0), coalesce(toast_blks_hit, 0), "
             "coalesce(tidx_blks_read, 0), coalesce(tidx_blks_hit, 0), "
             "coalesce(idx_blks_read, 0), coalesce(idx_blks_hit, 0) FROM "
             "pg_statio_all_tables WHERE relid = '%s.pt_replay_%zu'::regclass",
             nm->schema, i + 1);
    if ((ret = coll_query_rows(c, sql, &rows, err)) < 0)
        return ret;
    memset(b, 0, sizeof(*b));
    for (size_t k = 0; k < 8 && rows.n_rows == 1 && k < rows.n_cols; k++)
        *v[k] = rows.cells[k] ? strtoull(rows.cells[k], NULL, 10) : 0;
    (void)cols;
    coll_rows_release(&rows);
    return 0;
}

static void blocks_sub(struct coll_pgr_blocks *d,
                       const struct coll_pgr_blocks *a,
                       const struct coll_pgr_blocks *b)
{
    d->heap_read = b->heap_read - a->heap_read;
    d->heap_hit = b->heap_hit - a->heap_hit;
    d->toast_read = b->toast_read - a->toast_read;
    d->toast_hit = b->toast_hit - a->toast_hit;
    d->tidx_read = b->tidx_read - a->tidx_read;
    d->tidx_hit = b->tidx_hit - a->tidx_hit;
    d->idx_read = b->idx_read - a->idx_read;
    d->idx_hit = b->idx_hit - a->idx_hit;
}

static int sizes_read(struct coll_conn *c, const struct pgr_names *nm, size_t i,
                      struct coll_pgr_cand_result *r, struct pt_err *err)
{
    char sql[768], buf[64];
    int ret;

    snprintf(sql, sizeof(sql),
             "SELECT pg_relation_size('%s.pt_replay_%zu'::regclass)",
             nm->schema, i + 1);
    if ((ret = coll_query_value(c, sql, buf, sizeof(buf), NULL, err)) < 0)
        return ret;
    r->heap_bytes = strtoull(buf, NULL, 10);
    snprintf(sql, sizeof(sql),
             "SELECT coalesce(pg_relation_size(reltoastrelid), 0) FROM "
             "pg_class WHERE oid = '%s.pt_replay_%zu'::regclass",
             nm->schema, i + 1);
    if ((ret = coll_query_value(c, sql, buf, sizeof(buf), NULL, err)) < 0)
        return ret;
    r->toast_bytes = strtoull(buf, NULL, 10);
    return 0;
}

/* The scratch tables' bytes on the server now. */
static int scratch_bytes(struct coll_conn *c, const struct pgr_names *nm,
                         uint64_t *bytes, struct pt_err *err)
{
    char sql[512];
    int64_t v = 0;
    int ret;

    snprintf(sql, sizeof(sql),
             "SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0)::bigint "
             "FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
             "WHERE n.nspname = %s AND c.relkind = 'r'",
             nm->literal);
    ret = coll_query_i64(c, sql, &v, err);
    *bytes = (uint64_t)v;
    return ret;
}

static void blocks_add(struct coll_pgr_blocks *sum,
                       const struct coll_pgr_blocks *a,
                       const struct coll_pgr_blocks *b)
{
    struct coll_pgr_blocks d;

    blocks_sub(&d, a, b);
    sum->heap_read += d.heap_read;
    sum->heap_hit += d.heap_hit;
    sum->toast_read += d.toast_read;
    sum->toast_hit += d.toast_hit;
    sum->tidx_read += d.tidx_read;
    sum->tidx_hit += d.tidx_hit;
    sum->idx_read += d.idx_read;
    sum->idx_hit += d.idx_hit;
}

/* Is pg_buffercache installed and may the role execute it? Its schema,
 * quoted, into run->bufcache, else "". It is never created here: the
 * replay creates nothing outside its scratch schema. */
static int bufcache_find(struct pgr_run *run, struct pt_err *err)
{
    int ret;

    run->bufcache[0] = '\0';
    /* the scalar subquery first: has_function_privilege only on the
     * extension's own schema (a join could try it on any) */
    ret = coll_query_value(
        run->admin,
        "SELECT CASE WHEN ns IS NOT NULL AND has_function_privilege("
        "ns || '.pg_buffercache_pages()', 'EXECUTE') THEN ns ELSE '' END "
        "FROM (SELECT (SELECT quote_ident(n.nspname) FROM pg_extension e "
        "JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = "
        "'pg_buffercache') AS ns) x",
        run->bufcache, sizeof(run->bufcache), NULL, err);
    return ret < 0 ? ret : 0;
}

/* Buffers of shared_buffers that hold a page of anything but the scratch
 * tables (theirs: the relations of the scratch schema, their TOAST tables
 * and TOAST indexes), added to the run's sum: pages the scratch tables
 * could not have, which the prediction takes from the pool
 * (advise/pgpredict.c). Counted after a measured pass, before anything
 * else runs: user relations only (relfilenode >= 16384,
 * FirstNormalObjectId; another database's count too). The catalogs'
 * pages are left out: the replay's prepared statements read none during
 * a pass and the sweep evicts them early in it, so counting them (58 at
 * 8 MB, most read by the statements between passes) put the prediction
 * 1.5 points low (docs/models.md#engine-policies). */
static int other_count(struct pgr_run *run, struct pt_err *err)
{
    const char *lit = run->nm.literal;
    char sql[1536];
    int64_t v = 0;
    int ret;

    if (!run->bufcache[0])
        return 0;
    snprintf(sql, sizeof(sql),
             "SELECT count(*) FROM %s.pg_buffercache b WHERE b.relfilenode "
             ">= 16384 AND NOT (b.reldatabase = (SELECT oid FROM "
             "pg_database WHERE datname = current_database()) AND "
             "b.relfilenode IN (SELECT f FROM (SELECT pg_relation_filenode(r) "
             "AS f FROM (SELECT c.oid AS r FROM pg_class c JOIN pg_namespace "
             "n ON n.oid = c.relnamespace WHERE n.nspname = %s UNION ALL "
             "SELECT c.reltoastrelid FROM pg_class c JOIN pg_namespace n ON "
             "n.oid = c.relnamespace WHERE n.nspname = %s AND c.reltoastrelid "
             "<> 0 UNION ALL SELECT i.indexrelid FROM pg_index i JOIN "
             "pg_class c ON i.indrelid = c.reltoastrelid JOIN pg_namespace n "
             "ON n.oid = c.relnamespace WHERE n.nspname = %s) s) t WHERE f "
             "IS NOT NULL))",
             run->bufcache, lit, lit, lit);
    if ((ret = coll_query_i64(run->admin, sql, &v, err)) < 0)
        return ret;
    run->other_sum += v > 0 ? (uint64_t)v : 0;
    run->other_n++;
    return 0;
}

/* After each pass, outside its timing and its counters: a plain VACUUM of
 * the candidate's table (autovacuum keeping up; autovacuum itself is off
 * on the scratch tables so that it never runs inside a pass), its
 * statistics flushed at once so that they land before the next pass's
 * first reading. */
static int vacuum(struct pgr_run *run, size_t c, struct pt_err *err)
{
    char sql[512];
    int ret;

    snprintf(sql, sizeof(sql), "VACUUM %s.pt_replay_%zu", run->nm.schema,
             c + 1);
    if ((ret = coll_exec(run->admin, sql, err)) < 0 ||
        (run->pg15 &&
         (ret = coll_exec(run->admin, "SELECT pg_stat_force_next_flush()",
                          err)) < 0))
        return ret;
    if (!run->pg15)
        coll_rpl_sleep_ms(600);
    if ((ret = coll_exec(run->admin, "SELECT 1", err)) < 0)
        return ret;
    if (!run->pg15)
        coll_rpl_sleep_ms(200);
    return 0;
}

/* One pass of candidate c (coll_rpl_pass_fn); a measured one adds its
 * blocks to its result's (the counters read just before and just after,
 * the clients' flushed). */
static int pass_counted(void *arg, size_t c, int measured, double *rps,
                        struct coll_rpl_clients **g, struct pt_err *err)
{
    struct pgr_run *run = arg;
    struct coll_pgr_blocks *sum = measured ? &run->res->r[c].blocks : NULL;
    struct coll_pgr_blocks before, after;
    int ret;

    *g = &run->cs;
    if (sum && (ret = blocks_read(run->admin, &run->nm, c, &before, err)) < 0)
        return ret;
    if ((ret = coll_rpl_pass(&run->cs, c, rps, err)) < 0 ||
        (sum && (ret = other_count(run, err)) < 0) ||
        (ret = flush_stats(run, err)) < 0)
        return ret;
    if (sum) {
        struct coll_pgr_cand_result *cr = &run->res->r[c];
        if ((ret = blocks_read(run->admin, &run->nm, c, &after, err)) < 0)
            return ret;
        blocks_add(sum, &before, &after);
        /* coll_rpl_rounds counts this round after the pass */
        if (cr->n_rounds < COLL_PGR_MAX_ROUNDS)
            cr->round_reads[cr->n_rounds] =
                (after.heap_read - before.heap_read) +
                (after.toast_read - before.toast_read);
    }
    return vacuum(run, c, err);
}

/* Create the tables, load them, check their size, run the rounds. */
static int run_tables(struct coll_conn *c, struct pgr_run *run,
                      struct coll_pgr_result *res, struct coll_rpl_lat *lat,
                      struct pt_err *err)
{
    const struct coll_pgr_plan *p = run->p;
    /* the carried columns' DEFAULTs make a long CREATE TABLE */
    size_t len = 4096 + p->n_extra * (sizeof(p->extra[0]) + 64);
    char *sql = malloc(len);
    uint64_t bytes = 0;
    int ret = 0;

    if (!sql)
        return err_set(err, PT_EINTERNAL, "out of memory");
    for (size_t i = 0; i < p->n_cand && ret == 0; i++) {
        struct coll_rpl_text t = {sql, len, 0, 0};
        sql_create_table(&run->nm, i, p, &p->cand[i], rest_pad(p), &t);
        if ((ret = coll_exec(c, sql, err)) < 0)
            break;
        t.n = 0;
        sql_alter_storage(&run->nm, i, p, &p->cand[i], rest_pad(p), &t);
        if (t.n && (ret = coll_exec(c, sql, err)) < 0)
            break;
        t.n = 0;
        sql_comment_table(&run->nm, i, &p->cand[i], &t);
        ret = coll_exec(c, sql, err);
    }
    free(sql);
    if (ret < 0)
        return ret;
    if (coll_pgr_payloads(p, &run->rnd, &run->txt) < 0)
        return err_set(err, PT_EINTERNAL, "out of memory");
    if ((ret = coll_rpl_open(&run->cs, p->conn, client_setup, NULL, err)) < 0)
        return ret;
    for (size_t i = 0; i < p->n_cand; i++) {
        if ((ret = coll_rpl_load(&run->cs, i, err)) < 0)
            return ret;
        coll_rpl_note(p, "candidate %zu: %llu synthetic sessions loaded", i + 1,
                      (unsigned long long)p->n_keys);
    }
    if ((ret = coll_rpl_extras_measure(c, p, COLL_ENGINE_POSTGRESQL,
                                       run->nm.schema, res, err)) < 0 ||
        (ret = scratch_bytes(c, &run->nm, &bytes, err)) < 0)
        return ret;
    if ((ret = coll_rpl_check_loaded(p, bytes, err)) < 0 ||
        (ret = coll_rpl_rounds(p, pass_counted, run, res, lat, err)) < 0)
        return ret;
    for (size_t i = 0; i < p->n_cand && ret == 0; i++)
        ret = sizes_read(c, &run->nm, i, &res->r[i], err);
    if (ret == 0 && run->other_n) {
        res->other_known = 1;
        res->other_pages = (run->other_sum + run->other_n / 2) / run->other_n;
    }
    return ret;
}

/* What a prediction of the run needs of the server: shared_buffers in
 * pages of block_size (pg_settings gives it in blocks), the compression a
 * column without COMPRESSION gets (default_toast_compression, 14+; pglz
 * before). */
static int server_facts(struct coll_conn *c, int64_t version,
                        struct coll_pgr_result *res, struct pt_err *err)
{
    int64_t v = 0;
    int ret;

    if ((ret = coll_query_i64(c,
                              "SELECT setting::bigint FROM pg_settings WHERE "
                              "name = 'shared_buffers'",
                              &v, err)) < 0)
        return ret;
    res->shared_buffers_pages = v > 0 ? (uint64_t)v : 0;
    if ((ret = coll_query_i64(c, "SELECT current_setting('block_size')::int",
                              &v, err)) < 0)
        return ret;
    res->block_size = v > 0 ? (uint32_t)v : 0;
    snprintf(res->toast_compression, sizeof(res->toast_compression), "pglz");
    if (version >= 140000)
        ret = coll_query_value(c,
                               "SELECT current_setting("
                               "'default_toast_compression')",
                               res->toast_compression,
                               sizeof(res->toast_compression), NULL, err);
    return ret < 0 ? ret : 0;
}

/* The scratch tables' file system, when the server is on this host: the
 * tablespace they go to (default_tablespace, else the database's; its
 * location, or the data directory for pg_default, which pg_settings shows
 * only to superusers and pg_read_all_settings) against the estimate
 * (coll_rpl_check_free). A TCP connection to a loopback address or a Unix
 * socket (inet_server_addr() NULL) is this host. */
static int check_free(struct coll_conn *c, const struct coll_pgr_plan *p,
                      struct coll_pgr_result *res, struct pt_err *err)
{
    struct coll_rows rows;
    char why[256];
    int ret, local;

    if ((ret = coll_query_rows(
             c,
             "SELECT coalesce(nullif(pg_tablespace_location(coalesce("
             "(SELECT oid FROM pg_tablespace WHERE spcname = "
             "nullif(current_setting('default_tablespace'), '')), "
             "d.dattablespace)), ''), (SELECT setting FROM pg_settings WHERE "
             "name = 'data_directory')), coalesce(host(inet_server_addr()), "
             "'') FROM pg_database d WHERE d.datname = current_database()",
             &rows, err)) < 0)
        return ret;
    if (rows.n_rows != 1 || rows.n_cols < 2) {
        coll_rows_release(&rows);
        snprintf(res->free.why, sizeof(res->free.why),
                 "the database's tablespace was not found");
        return 0;
    }
    local = !rows.cells[1] || !rows.cells[1][0] ||
            strcmp(rows.cells[1], "127.0.0.1") == 0 ||
            strcmp(rows.cells[1], "::1") == 0;
    snprintf(why, sizeof(why),
             "the server is at %s, not this host: SQL does not show its file "
             "system's free space",
             rows.cells[1] ? rows.cells[1] : "?");
    ret = coll_rpl_check_free(p, res->estimate_bytes, rows.cells[0], local, why,
                              &res->free, err);
    coll_rows_release(&rows);
    return ret;
}

/* Checks before anything is created: engine, privilege, lock, size. */
static int run_checks(struct coll_conn *c, struct pgr_run *run,
                      struct coll_pgr_result *res, int *locked,
                      struct pt_err *err)
{
    const struct coll_pgr_plan *p = run->p;
    int64_t version = 0;
    int ret;

    if (coll_conn_engine(c) != COLL_ENGINE_POSTGRESQL)
        return err_set(err, PT_EUSAGE,
                       "`connect`: replay on a server supports PostgreSQL, "
                       "MariaDB and MySQL (this server is %s; SQLite "
                       "sessions replay on the built-in store, without "
                       "`connect`)",
                       coll_conn_dbms(c));
    if ((ret = coll_rpl_check_plan(p, err)) < 0 ||
        (ret = set_timeouts(c, p, err)) < 0 ||
        (ret = check_privilege(c, err)) < 0 ||
        /* pg_stat_replication: a row per WAL sender (a standby, a
           pg_basebackup), visible to every role (its details are not) */
        (ret = coll_rpl_check_replicas(
             c, p, "SELECT count(*) FROM pg_stat_replication",
             "pg_stat_replication", err)) < 0 ||
        (ret = coll_query_i64(c,
                              "SELECT current_setting('server_version_num')"
                              "::int",
                              &version, err)) < 0)
        return ret;
    run->pg15 = version >= 150000;
    if ((ret = server_facts(c, version, res, err)) < 0 ||
        (ret = bufcache_find(run, err)) < 0)
        return ret;
    if (version < 110000)
        return err_set(err, PT_EUSAGE,
                       "`connect`: replay on a server needs PostgreSQL 11 or "
                       "later (toast_tuple_target); this server is %s",
                       coll_conn_dbms(c));
    if ((ret = lock_take(c, &run->nm, p->schema, err)) < 0)
        return ret;
    *locked = 1;
    if ((ret = coll_rpl_check_estimate(p, res, err)) < 0)
        return ret;
    return check_free(c, p, res, err);
}

int coll_pgr_run(struct coll_conn *c, const struct coll_pgr_plan *p,
                 struct coll_pgr_result *res, struct pt_err *err)
{
    struct pgr_run run;
    struct coll_rpl_lat lat[COLL_PGR_MAX_CANDIDATES];
    struct pt_err e2;
    uint64_t n = 0;
    int ret, locked = 0, created = 0;

    memset(&run, 0, sizeof(run));
    run.admin = c;
    memset(lat, 0, sizeof(lat));
    memset(res, 0, sizeof(*res));
    res->n_cand = p->n_cand;
    snprintf(res->server, sizeof(res->server), "%s", coll_conn_dbms(c));
    coll_rpl_extras_result(p, res);
    run.p = p;
    run.cs.p = p;
    run.cs.run = &run;
    run.cs.set = op_set;
    run.res = res;
    if ((ret = names_init(p, &run.nm, err)) < 0)
        return ret;
    if ((ret = run_checks(c, &run, res, &locked, err)) == 0 &&
        (ret = schema_claim(c, p, &run.nm, res, err)) == 0) {
        created = 1;
        ret = run_tables(c, &run, res, lat, err);
    }
    coll_rpl_close(&run.cs);
    if (created) {
        /* whatever happened: by name, never CASCADE */
        err_clear(&e2);
        int r2 = schema_drop(c, &run.nm, &n, &e2);
        if (r2 < 0 && ret == 0) {
            ret = r2;
            *err = e2;
        }
    }
    if (locked)
        lock_release(c, &run.nm);
    for (size_t i = 0; i < COLL_PGR_MAX_CANDIDATES; i++)
        free(lat[i].keep);
    free(run.rnd);
    free(run.txt);
    return ret;
}

/* ---- for the prediction of a run (advise/pgpredict.c) ---------------------
 */

uint32_t coll_pgr_rest_pad(const struct coll_pgr_plan *p)
{
    return rest_pad(p);
}

uint64_t coll_pgr_key_hash(uint64_t key)
{
    return mix64(key);
}

size_t coll_pgr_set_offset(uint64_t i)
{
    return (size_t)((i * 2654435761u) % PGR_SLIDE);
}
