/* SPDX-License-Identifier: Apache-2.0 */
/*
 * catalog.c — what the engine's catalog says about the sampled table and
 * the server: the table's columns and their types (to refuse a column
 * pagetune cannot measure before sampling, and to measure the rest of the
 * row), and the current state of the knobs the advice changes (sizes.json
 * and monitor.json "current", docs/formats.md).
 *
 * The rest of the row: the stored bytes of the columns that are not
 * objects, computed on the server per row, beside the objects' lengths.
 *   MariaDB/InnoDB: a fixed-width column stores its type's size (MariaDB
 *     "Data Type Storage Requirements"), a variable one its bytes plus a
 *     1-byte length below 128 bytes, else 2 (MariaDB "InnoDB COMPACT Row
 *     Format", variable-length field lengths), NULL nothing but its bit in
 *     the NULL bitmap (ceil(nullable columns / 8) bytes).
 *   SQLite: the record format (SQLite "Database File Format", 2.1 Record
 *     Format): each column's body bytes (an integer 0, 1, 2, 3, 4, 6 or 8
 *     bytes by value, 0 for the constants 0 and 1; a real 8; text and blob
 *     their length) and its serial-type varint in the header (1 byte, or
 *     2-4 for text/blob over 57 / 8185 / 1048569 bytes), plus the header
 *     size varint. An INTEGER PRIMARY KEY is the rowid: NULL in the record.
 *   DB2: LENGTH() of any value is its stored length (Db2 "LENGTH scalar
 *     function"); a varying-length column adds 4 bytes and a nullable one
 *     1 (Db2 "CREATE TABLE", byte counts of columns by data type).
 *   PostgreSQL measures the whole row itself, pg_column_size(t.*) (see
 *   sample.c).
 *
 * Neighbours: sample.c (calls these before and during the sample),
 * engine_*.c (the monitor views), cli/cmd_monitor.c and cli/cmd_advise.c
 * (the state for monitor.json).
 */
#include "collect/internal.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

int coll_tnames(enum coll_engine e, const struct pt_qname *t,
                struct coll_tnames *n, struct pt_err *err)
{
    const char *cur = e == COLL_ENGINE_MYSQL ? "DATABASE()"
                      : e == COLL_ENGINE_DB2 ? "CURRENT SCHEMA"
                                             : "";

    memset(n, 0, sizeof(*n));
    if (coll_table_quote(e, t, n->quoted, sizeof(n->quoted), err) < 0 ||
        coll_sql_string(e, n->quoted, n->reg, sizeof(n->reg)) < 0 ||
        coll_sql_string(e, t->table, n->table, sizeof(n->table)) < 0 ||
        (t->schema[0] &&
         coll_sql_string(e, t->schema, n->schema, sizeof(n->schema)) < 0))
        return err_set(err, PT_EINTERNAL, "table name does not fit");
    if (!t->schema[0])
        snprintf(n->schema, sizeof(n->schema), "%s", cur);
    return 0;
}

/* ---- columns ------------------------------------------------------------- */

int coll_columns_sql(enum coll_engine e, const struct pt_qname *t, char *buf,
                     size_t len, struct pt_err *err)
{
    struct coll_tnames nm;
    int n = -1;

    if (coll_tnames(e, t, &nm, err) < 0)
        return PT_EINTERNAL;
    switch (e) {
    case COLL_ENGINE_POSTGRESQL:
        /* pg_stats: the statistics ANALYZE keeps, of the columns the
           user may read (PostgreSQL "pg_stats") */
        n = snprintf(buf, len,
                     "SELECT a.attname AS name, t.typname AS type, CASE WHEN "
                     "a.attnotnull THEN 0 ELSE 1 END AS nullable, CASE WHEN "
                     "a.attlen > 0 THEN a.attlen ELSE 0 END AS fixed, 0 AS "
                     "pk, 1 AS codepage, format_type(a.atttypid, "
                     "a.atttypmod) AS decl, a.attstorage AS storage, "
                     "t.typcategory AS category, coalesce(s.avg_width, -1) "
                     "AS avg_width, coalesce(s.null_frac, -1) AS null_frac "
                     "FROM pg_attribute a JOIN pg_type t ON t.oid = "
                     "a.atttypid JOIN pg_class c ON c.oid = a.attrelid JOIN "
                     "pg_namespace n ON n.oid = c.relnamespace LEFT JOIN "
                     "pg_stats s ON s.schemaname = n.nspname AND s.tablename "
                     "= c.relname AND s.attname = a.attname AND NOT "
                     "s.inherited WHERE a.attrelid = to_regclass(%s) AND "
                     "a.attnum > 0 AND NOT a.attisdropped ORDER BY a.attnum",
                     nm.reg);
        break;
    case COLL_ENGINE_MYSQL:
        n = snprintf(buf, len,
                     "SELECT COLUMN_NAME AS name, LOWER(DATA_TYPE) AS type, "
                     "CASE IS_NULLABLE WHEN 'YES' THEN 1 ELSE 0 END AS "
                     "nullable, 0 AS fixed, 0 AS pk, 1 AS codepage, "
                     "COLUMN_TYPE AS decl FROM "
                     "information_schema.COLUMNS WHERE TABLE_SCHEMA = "
                     "%s AND TABLE_NAME = %s ORDER BY ORDINAL_POSITION",
                     nm.schema, nm.table);
        break;
    case COLL_ENGINE_SQLITE:
        /* table-valued PRAGMA functions (SQLite "PRAGMA Statements") */
        n = snprintf(buf, len,
                     "SELECT name, lower(type) AS type, CASE \"notnull\" WHEN "
                     "0 THEN 1 ELSE 0 END AS nullable, 0 AS fixed, pk, 1 AS "
                     "codepage FROM pragma_table_info(%s%s%s)",
                     nm.table, nm.schema[0] ? ", " : "", nm.schema);
        break;
    case COLL_ENGINE_DB2:
        /* SYSCAT.COLUMNS (Db2 catalog views): CODEPAGE 0 = FOR BIT DATA */
        n = snprintf(buf, len,
                     "SELECT COLNAME AS name, LOWER(TYPENAME) AS type, CASE "
                     "NULLS WHEN 'Y' THEN 1 ELSE 0 END AS nullable, 0 AS "
                     "fixed, 0 AS pk, CODEPAGE AS codepage FROM "
                     "SYSCAT.COLUMNS WHERE TABSCHEMA = %s AND TABNAME = "
                     "%s ORDER BY COLNO",
                     nm.schema, nm.table);
        break;
    case COLL_ENGINE_AUTO:
        break;
    }
    if (n < 0 || (size_t)n >= len)
        return err_set(err, PT_EINTERNAL, "catalog query does not fit");
    return 0;
}

/* MariaDB: the storage size of a fixed-width type, 0 for variable. */
static int my_fixed_bytes(const char *type)
{
    static const struct {
        const char *type;
        int bytes;
    } fixed[] = {{"tinyint", 1}, {"smallint", 2}, {"mediumint", 3},
                 {"int", 4},     {"integer", 4},  {"bigint", 8},
                 {"float", 4},   {"double", 8},   {"date", 3},
                 {"time", 3},    {"datetime", 5}, {"timestamp", 4},
                 {"year", 1}};

    for (size_t i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++)
        if (strcmp(type, fixed[i].type) == 0)
            return fixed[i].bytes;
    return 0;
}

int coll_columns_parse(enum coll_engine e, const struct coll_rows *rows,
                       struct coll_columns *cols, struct pt_err *err)
{
    static const char *const need[] = {"NAME",  "TYPE", "NULLABLE",
                                       "FIXED", "PK",   "CODEPAGE"};
    size_t n_pk = 0;

    memset(cols, 0, sizeof(*cols));
    for (size_t k = 0; k < sizeof(need) / sizeof(need[0]); k++)
        if (coll_rows_col(rows, need[k]) < 0)
            return err_set(err, PT_EDATA, "catalog: no column %s", need[k]);
    if (rows->n_rows > COLL_MAX_TABLE_COLUMNS)
        return err_set(err, PT_EDATA,
                       "the table has %zu columns; pagetune reads at most %d",
                       rows->n_rows, COLL_MAX_TABLE_COLUMNS);
    for (size_t i = 0; i < rows->n_rows; i++) {
        struct coll_column *c = &cols->col[cols->n];
        const char *name = coll_rows_get(rows, i, "NAME");
        const char *type = coll_rows_get(rows, i, "TYPE");
        const char *pk = coll_rows_get(rows, i, "PK");
        double v = 0;

        if (!name)
            continue;
        snprintf(c->name, sizeof(c->name), "%s", name);
        snprintf(c->type, sizeof(c->type), "%s", type ? type : "");
        for (char *p = c->type; *p; p++)
            *p = (char)tolower((unsigned char)*p);
        if (coll_parse_num(coll_rows_get(rows, i, "NULLABLE"), &v, "catalog",
                           "NULLABLE", err) < 0)
            return PT_EDATA;
        c->nullable = v != 0;
        v = 0;
        coll_parse_num(coll_rows_get(rows, i, "FIXED"), &v, "catalog", "FIXED",
                       NULL);
        c->fixed_bytes = v > 0 && v < 1024 ? (int)v : 0;
        if (e == COLL_ENGINE_MYSQL)
            c->fixed_bytes = my_fixed_bytes(c->type);
        v = 1;
        coll_parse_num(coll_rows_get(rows, i, "CODEPAGE"), &v, "catalog",
                       "CODEPAGE", NULL);
        c->for_bit_data = e == COLL_ENGINE_DB2 && v == 0;
        c->avg_width = c->null_frac = -1;
        if (e == COLL_ENGINE_MYSQL) { /* COLUMN_TYPE: "varchar(10)", ... */
            const char *d = coll_rows_get(rows, i, "DECL");
            snprintf(c->decl, sizeof(c->decl), "%s", d ? d : "");
        }
        if (e == COLL_ENGINE_POSTGRESQL) {
            const char *d = coll_rows_get(rows, i, "DECL");
            const char *st = coll_rows_get(rows, i, "STORAGE");
            const char *cat = coll_rows_get(rows, i, "CATEGORY");
            snprintf(c->decl, sizeof(c->decl), "%s", d ? d : "");
            c->storage = st ? st[0] : 0;
            c->category = cat ? cat[0] : 0;
            coll_parse_num(coll_rows_get(rows, i, "AVG_WIDTH"), &c->avg_width,
                           "catalog", "AVG_WIDTH", NULL);
            coll_parse_num(coll_rows_get(rows, i, "NULL_FRAC"), &c->null_frac,
                           "catalog", "NULL_FRAC", NULL);
        }
        if (pk && strcmp(pk, "0") != 0)
            n_pk++;
        cols->n++;
    }
    /* SQLite: a single-column INTEGER PRIMARY KEY aliases the rowid
       (SQLite "CREATE TABLE", ROWIDs and the INTEGER PRIMARY KEY) */
    if (e == COLL_ENGINE_SQLITE && n_pk == 1)
        for (size_t i = 0, j = 0; i < rows->n_rows; i++) {
            const char *pk = coll_rows_get(rows, i, "PK");
            if (!coll_rows_get(rows, i, "NAME"))
                continue;
            if (pk && strcmp(pk, "0") != 0 &&
                strcmp(cols->col[j].type, "integer") == 0)
                cols->col[j].rowid_alias = 1;
            j++;
        }
    return 0;
}

int coll_columns_read(struct coll_conn *c, const struct pt_qname *t,
                      struct coll_columns *cols, struct pt_err *err)
{
    struct coll_rows rows;
    char sql[4096], shown[2 * PT_IDENT_MAX + 8];
    int ret;

    ret = coll_columns_sql(c->engine, t, sql, sizeof(sql), err);
    if (ret < 0)
        return ret;
    ret = coll_query_rows(c, sql, &rows, err);
    if (ret < 0)
        return ret;
    ret = coll_columns_parse(c->engine, &rows, cols, err);
    coll_rows_release(&rows);
    pt_qname_format(t, shown, sizeof(shown));
    if (ret == 0 && cols->n == 0)
        return err_set(err, PT_ENOINPUT, "table %s not found", shown);
    return ret;
}

const struct coll_column *coll_columns_find(const struct coll_columns *cols,
                                            const char *name)
{
    for (size_t i = 0; i < cols->n; i++)
        if (strcasecmp(cols->col[i].name, name) == 0)
            return &cols->col[i];
    return NULL;
}

static int in_list(const char *type, const char *const *list)
{
    for (; *list; list++)
        if (strcmp(type, *list) == 0)
            return 1;
    return 0;
}

/*
 * SQLite column affinity from the declared type (SQLite "Datatypes In
 * SQLite", 3.1 Determination Of Column Affinity), in the rules' order.
 */
static const char *sqlite_affinity(const char *type)
{
    if (strstr(type, "int"))
        return "integer";
    if (strstr(type, "char") || strstr(type, "clob") || strstr(type, "text"))
        return "text";
    if (!type[0] || strstr(type, "blob"))
        return "blob";
    if (strstr(type, "real") || strstr(type, "floa") || strstr(type, "doub"))
        return "real";
    return "numeric";
}

int coll_column_check(enum coll_engine e, const struct coll_column *col,
                      char *note, size_t note_len, struct pt_err *err)
{
    static const char *const pg_ok[] = {"bytea", "text", "varchar", "bpchar",
                                        NULL};
    static const char *const my_bin[] = {"blob",     "tinyblob",  "mediumblob",
                                         "longblob", "varbinary", "binary",
                                         NULL};
    static const char *const my_char[] = {
        "char", "varchar", "text", "tinytext", "mediumtext", "longtext", NULL};
    static const char *const db2_ok[] = {"blob",      "clob",   "dbclob",
                                         "varbinary", "binary", NULL};
    const char *need = "";

    if (note && note_len)
        note[0] = '\0';
    switch (e) {
    case COLL_ENGINE_POSTGRESQL:
        if (in_list(col->type, pg_ok))
            return 0;
        need = "bytea (or text/varchar)";
        break;
    case COLL_ENGINE_MYSQL:
        if (in_list(col->type, my_bin))
            return 0;
        if (in_list(col->type, my_char)) {
            if (note && note_len)
                snprintf(note, note_len,
                         "column '%s' is %s, a character type: its declared "
                         "length counts characters; the sizes here are "
                         "bytes (OCTET_LENGTH)",
                         col->name, col->type);
            return 0;
        }
        need = "BLOB, MEDIUMBLOB, LONGBLOB or VARBINARY";
        break;
    case COLL_ENGINE_SQLITE: {
        const char *aff = sqlite_affinity(col->type);
        if (strcmp(aff, "blob") == 0 || strcmp(aff, "text") == 0)
            return 0;
        need = "BLOB (or TEXT) affinity";
        break;
    }
    case COLL_ENGINE_DB2:
        if (in_list(col->type, db2_ok) ||
            ((strcmp(col->type, "varchar") == 0 ||
              strcmp(col->type, "char") == 0 ||
              strcmp(col->type, "long varchar") == 0) &&
             col->for_bit_data))
            return 0;
        need = "BLOB, VARBINARY or VARCHAR FOR BIT DATA";
        break;
    case COLL_ENGINE_AUTO:
        return 0;
    }
    return err_set(err, PT_EDATA,
                   "column '%s' is %s%s%s: pagetune measures objects in a "
                   "binary or large-object column (%s needs %s)",
                   col->name, col->type[0] ? col->type : "untyped",
                   e == COLL_ENGINE_SQLITE ? ", affinity " : "",
                   e == COLL_ENGINE_SQLITE ? sqlite_affinity(col->type) : "",
                   coll_engine_name(e), need);
}

/* ---- the rest of the row ------------------------------------------------- */

/* Append printf text at *o; -1 if it does not fit. */
static int catf(char *buf, size_t len, size_t *o, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static int catf(char *buf, size_t len, size_t *o, const char *fmt, ...)
{
    va_list ap;
    int n;

    if (*o >= len)
        return -1;
    va_start(ap, fmt);
    n = vsnprintf(buf + *o, len - *o, fmt, ap);
    va_end(ap);
    if (n < 0 || (size_t)n >= len - *o)
        return -1;
    *o += (size_t)n;
    return 0;
}

int coll_is_object(const char *name, const char *const *names, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (strcasecmp(name, names[i]) == 0)
            return 1;
    return 0;
}

static int db2_varying(const char *type)
{
    static const char *const var[] = {"varchar",      "vargraphic", "varbinary",
                                      "long varchar", "clob",       "blob",
                                      "dbclob",       "xml",        NULL};
    return in_list(type, var);
}

/* One column's term of the rest of the row, for engine e. */
static int rest_term(enum coll_engine e, const struct coll_column *c,
                     const char *q, int object, char *buf, size_t len,
                     size_t *o)
{
    switch (e) {
    case COLL_ENGINE_MYSQL:
        if (c->fixed_bytes)
            return c->nullable ? catf(buf, len, o,
                                      "CASE WHEN %s IS NULL THEN 0 ELSE "
                                      "%d END",
                                      q, c->fixed_bytes)
                               : catf(buf, len, o, "%d", c->fixed_bytes);
        return catf(buf, len, o,
                    "COALESCE(OCTET_LENGTH(%s) + CASE WHEN OCTET_LENGTH(%s) "
                    "< 128 THEN 1 ELSE 2 END, 0)",
                    q, q);
    case COLL_ENGINE_SQLITE:
        if (c->rowid_alias)
            return catf(buf, len, o, "1");
        /* header: the serial type varint (text/blob serial 2n+12/13) */
        if (catf(buf, len, o,
                 "CASE WHEN typeof(%s) IN ('text', 'blob') THEN CASE WHEN "
                 "length(CAST(%s AS BLOB)) <= 57 THEN 1 WHEN "
                 "length(CAST(%s AS BLOB)) <= 8185 THEN 2 WHEN "
                 "length(CAST(%s AS BLOB)) <= 1048569 THEN 3 ELSE 4 END "
                 "ELSE 1 END",
                 q, q, q, q) < 0)
            return -1;
        if (object) /* the object's body is the object itself */
            return 0;
        return catf(buf, len, o,
                    " + CASE typeof(%s) WHEN 'null' THEN 0 WHEN 'integer' "
                    "THEN CASE WHEN %s BETWEEN 0 AND 1 THEN 0 WHEN %s "
                    "BETWEEN -128 AND 127 THEN 1 WHEN %s BETWEEN -32768 AND "
                    "32767 THEN 2 WHEN %s BETWEEN -8388608 AND 8388607 THEN "
                    "3 WHEN %s BETWEEN -2147483648 AND 2147483647 THEN 4 "
                    "WHEN %s BETWEEN -140737488355328 AND 140737488355327 "
                    "THEN 6 ELSE 8 END WHEN 'real' THEN 8 ELSE "
                    "length(CAST(%s AS BLOB)) END",
                    q, q, q, q, q, q, q, q);
    case COLL_ENGINE_DB2:
        return catf(buf, len, o, "COALESCE(LENGTH(%s), 0) + %d", q,
                    (db2_varying(c->type) ? 4 : 0) + (c->nullable ? 1 : 0));
    case COLL_ENGINE_POSTGRESQL:
    case COLL_ENGINE_AUTO:
        break;
    }
    return -1;
}

int coll_row_rest_expr(enum coll_engine e, const struct coll_columns *cols,
                       const char *const *objects, size_t n_obj,
                       const char *qualifier, char *buf, size_t len,
                       struct pt_err *err)
{
    size_t o = 0, terms = 0;

    if (e == COLL_ENGINE_POSTGRESQL || e == COLL_ENGINE_AUTO)
        return err_set(err, PT_EINTERNAL, "no rest-of-row expression for %s",
                       coll_engine_name(e));
    buf[0] = '\0';
    for (size_t i = 0; i < cols->n; i++) {
        const struct coll_column *c = &cols->col[i];
        int object = coll_is_object(c->name, objects, n_obj);
        char q[COLL_NAME_MAX + 48], qn[COLL_NAME_MAX + 4];

        /* only SQLite's record header has bytes for the object columns */
        if (object && e != COLL_ENGINE_SQLITE)
            continue;
        if (coll_ident_check(c->name, "catalog column", NULL) < 0)
            return err_set(err, PT_EDATA,
                           "column '%.60s' has a name pagetune does not "
                           "quote; the rest of the row is not measured",
                           c->name);
        coll_ident_quote(e == COLL_ENGINE_DB2 ? COLL_ENGINE_MYSQL : e, c->name,
                         qn, sizeof(qn), NULL);
        if (e == COLL_ENGINE_DB2) { /* the catalog's exact spelling */
            qn[0] = '"';
            qn[strlen(qn) - 1] = '"';
        }
        snprintf(q, sizeof(q), "%s%s", qualifier ? qualifier : "", qn);
        if ((terms && catf(buf, len, &o, " + ") < 0) ||
            catf(buf, len, &o, "(") < 0 ||
            rest_term(e, c, q, object, buf, len, &o) < 0 ||
            catf(buf, len, &o, ")") < 0)
            return err_set(err, PT_EINTERNAL,
                           "rest-of-row expression too "
                           "long");
        terms++;
    }
    if (!terms && catf(buf, len, &o, "0") < 0)
        return err_set(err, PT_EINTERNAL, "SQL buffer too small");
    return 0;
}

uint32_t coll_row_rest_const(enum coll_engine e,
                             const struct coll_columns *cols)
{
    size_t nullable = 0;

    for (size_t i = 0; i < cols->n; i++)
        nullable += cols->col[i].nullable;
    if (e == COLL_ENGINE_MYSQL)
        return (uint32_t)((nullable + 7) / 8); /* the NULL bitmap */
    if (e == COLL_ENGINE_SQLITE)
        return 1; /* the header size varint (a header under 128 bytes) */
    return 0;
}

/* ---- the current state --------------------------------------------------- */

const struct coll_knob *coll_state_get(const struct coll_state *st,
                                       const char *name)
{
    for (size_t i = 0; i < st->n; i++)
        if (strcmp(st->k[i].name, name) == 0)
            return &st->k[i];
    return NULL;
}

static struct coll_knob *knob_add(struct coll_state *st, const char *name)
{
    struct coll_knob *k;

    if (st->n >= COLL_MAX_KNOBS)
        return NULL;
    k = &st->k[st->n++];
    memset(k, 0, sizeof(*k));
    snprintf(k->name, sizeof(k->name), "%s", name);
    return k;
}

static void knob_num(struct coll_state *st, const char *name, int64_t v)
{
    struct coll_knob *k = knob_add(st, name);
    if (k) {
        k->is_set = 1;
        k->is_number = 1;
        k->num = v;
    }
}

/* A keyword (letters, digits, '_'), or null if empty or not one. */
static void knob_word(struct coll_state *st, const char *name, const char *w)
{
    struct coll_knob *k = knob_add(st, name);
    size_t n = w ? strlen(w) : 0;

    if (!k)
        return;
    if (n == 0 || n >= sizeof(k->word))
        return;
    for (size_t i = 0; i < n; i++)
        if (!isalnum((unsigned char)w[i]) && w[i] != '_')
            return;
    memcpy(k->word, w, n + 1);
    k->is_set = 1;
}

/* what could not be read, and the server's diagnostic ("[42501]
   permission denied for view pg_file_settings"), not the query's text */
static void note_add(struct coll_state *st, const char *what,
                     const struct pt_err *e)
{
    size_t o = strlen(st->note);
    const char *why = strstr(e->msg, ": [");

    snprintf(st->note + o, sizeof(st->note) - o, "%s%s not read (%.100s)",
             o ? "; " : "", what, why ? why + 2 : e->msg);
}

/*
 * One integer knob from `sql` (one value; NULL = not set). A lost link
 * fails the read; anything else (no privilege, no such view) is a note.
 */
static int read_num(struct coll_conn *c, struct coll_state *st,
                    const char *name, const char *sql, struct pt_err *err)
{
    struct pt_err e = {0};
    char buf[64], *end;
    int is_null = 0;
    long long v;
    int ret = coll_query_value(c, sql, buf, sizeof(buf), &is_null, &e);

    if (ret == PT_EUNAVAIL || ret == PT_EINTR) {
        if (err)
            *err = e;
        return ret;
    }
    if (ret < 0) {
        note_add(st, name, &e);
        return 0;
    }
    if (is_null) {
        struct coll_knob *k = knob_add(st, name);
        if (k)
            k->is_number = 1;
        return 0;
    }
    v = strtoll(buf, &end, 10);
    if (end == buf || *end) {
        snprintf(e.msg, sizeof(e.msg), "'%.40s' is not an integer", buf);
        note_add(st, name, &e);
        return 0;
    }
    knob_num(st, name, v);
    return 0;
}

/* One keyword knob from `sql`; map (may be NULL) rewrites the text. */
static int read_word(struct coll_conn *c, struct coll_state *st,
                     const char *name, const char *sql,
                     const char *(*map)(const char *, char *, size_t),
                     struct pt_err *err)
{
    struct pt_err e = {0};
    char buf[256], word[24];
    int is_null = 0;
    int ret = coll_query_value(c, sql, buf, sizeof(buf), &is_null, &e);

    if (ret == PT_EUNAVAIL || ret == PT_EINTR) {
        if (err)
            *err = e;
        return ret;
    }
    if (ret < 0) {
        note_add(st, name, &e);
        return 0;
    }
    knob_word(st, name,
              is_null ? NULL
              : map   ? map(buf, word, sizeof(word))
                      : buf);
    return 0;
}

/* pg_attribute.attstorage letters (PostgreSQL "pg_attribute"). */
const char *coll_pg_storage_name(char letter)
{
    switch (letter) {
    case 'p':
        return "PLAIN";
    case 'm':
        return "MAIN";
    case 'e':
        return "EXTERNAL";
    case 'x':
        return "EXTENDED";
    }
    return NULL;
}

static const char *pg_storage_word(const char *letter, char *out, size_t len)
{
    (void)out;
    (void)len;
    return coll_pg_storage_name(letter[0]);
}

/* MariaDB CREATE_OPTIONS "row_format=COMPACT ..." -> "COMPACT". */
static const char *my_row_format(const char *opts, char *word, size_t len)
{
    const char *p = opts;
    size_t n = 0;

    for (; *p; p++)
        if (strncasecmp(p, "row_format=", 11) == 0)
            break;
    if (!*p)
        return NULL;
    p += 11;
    while (n + 1 < len && (isalnum((unsigned char)p[n]) || p[n] == '_')) {
        word[n] = (char)toupper((unsigned char)p[n]);
        n++;
    }
    word[n] = '\0';
    return n ? word : NULL;
}

int coll_db2_state_sql(const struct pt_qname *t, char *buf, size_t len)
{
    struct coll_tnames nm;
    int n;

    if (coll_tnames(COLL_ENGINE_DB2, t, &nm, NULL) < 0)
        return -1;
    /* SYSCAT.TABLES.TBSPACEID -> SYSCAT.TABLESPACES (PAGESIZE,
       BUFFERPOOLID) -> SYSCAT.BUFFERPOOLS (NPAGES; -2 = AUTOMATIC) */
    n = snprintf(buf, len,
                 "SELECT TS.PAGESIZE AS page_size, BP.NPAGES AS "
                 "bufferpool_pages, BP.BPNAME AS bufferpool FROM "
                 "SYSCAT.TABLES TB JOIN SYSCAT.TABLESPACES TS ON "
                 "TS.TBSPACEID = TB.TBSPACEID JOIN SYSCAT.BUFFERPOOLS BP ON "
                 "BP.BUFFERPOOLID = TS.BUFFERPOOLID WHERE TB.TABSCHEMA = "
                 "%s AND TB.TABNAME = %s",
                 nm.schema, nm.table);
    return n > 0 && (size_t)n < len ? 0 : -1;
}

/* a shared_buffers line of pg_file_settings in bytes: a bare number
   counts blocks */
#define PG_SB_SETTING_BYTES                                                    \
    "CASE WHEN setting ~ '^[0-9]+$' THEN setting::bigint * "                   \
    "current_setting('block_size')::bigint ELSE pg_size_bytes(setting) END"

/* A table reloption `name` (LIKE pattern `like`) as a number knob. */
static int pg_reloption(struct coll_conn *c, struct coll_state *st,
                        const char *name, const char *like, const char *reg,
                        struct pt_err *err)
{
    char sql[4096];

    snprintf(sql, sizeof(sql),
             "SELECT (SELECT split_part(o, '=', 2) FROM unnest(c.reloptions) "
             "o WHERE o LIKE '%s=%%') FROM pg_class c WHERE c.oid = "
             "to_regclass(%s)",
             like, reg);
    return read_num(c, st, name, sql, err);
}

static int pg_state(struct coll_conn *c, const struct pt_qname *t,
                    const char *column, struct coll_state *st,
                    struct pt_err *err)
{
    struct coll_tnames nm;
    char sql[4096], col[COLL_NAME_MAX + 4];
    int ret;

    if ((ret = read_num(c, st, "page_size",
                        "SELECT current_setting('block_size')", err)) < 0 ||
        (ret = read_num(c, st, "shared_buffers",
                        "SELECT pg_size_bytes(current_setting("
                        "'shared_buffers'))",
                        err)) < 0)
        return ret;
    /* the ALTER SYSTEM value: SHOW keeps the old one until a restart;
       pg_file_settings reads postgresql.auto.conf (superuser or
       pg_read_all_settings) */
    if ((ret = read_num(c, st, "shared_buffers_auto_conf",
                        "SELECT (SELECT " PG_SB_SETTING_BYTES
                        " FROM pg_file_settings WHERE name = 'shared_buffers' "
                        "AND sourcefile LIKE '%postgresql.auto.conf' ORDER BY "
                        "seqno DESC LIMIT 1)",
                        err)) < 0)
        return ret;
    /* the value waiting for a restart, wherever it was set: when
       pg_settings.pending_restart says one waits, the last shared_buffers
       line of the configuration files (PostgreSQL docs "pg_file_settings":
       postgresql.auto.conf is read last; a line that needs a restart has
       applied = false, error 'setting could not be applied'); null when
       nothing waits. pg_file_settings needs superuser or
       pg_read_all_settings, pg_settings nothing */
    if ((ret = read_num(c, st, "shared_buffers_pending",
                        "SELECT CASE WHEN (SELECT pending_restart FROM "
                        "pg_settings WHERE name = 'shared_buffers') THEN "
                        "(SELECT " PG_SB_SETTING_BYTES
                        " FROM pg_file_settings WHERE name = 'shared_buffers' "
                        "ORDER BY seqno DESC LIMIT 1) END",
                        err)) < 0)
        return ret;
    if (!t)
        return 0;
    if ((ret = coll_tnames(COLL_ENGINE_POSTGRESQL, t, &nm, err)) < 0)
        return ret;
    /* and the heap's fillfactor: hio.c RelationGetBufferForTuple leaves
       BLCKSZ x (100 - fillfactor) % of each page free; unset = 100 */
    if ((ret = pg_reloption(c, st, "toast_tuple_target",
                            "toast\\_tuple\\_target", nm.reg, err)) < 0 ||
        (ret = pg_reloption(c, st, "fillfactor", "fillfactor", nm.reg, err)) <
            0)
        return ret;
    if (!column)
        return 0;
    /* a checked column name: letters, digits, _, $, # */
    coll_sql_string(COLL_ENGINE_POSTGRESQL, column, col, sizeof(col));
    snprintf(sql, sizeof(sql),
             "SELECT attstorage FROM pg_attribute WHERE attrelid = "
             "to_regclass(%s) AND lower(attname) = lower(%s) AND attnum "
             "> 0 AND NOT attisdropped",
             nm.reg, col);
    return read_word(c, st, "storage", sql, pg_storage_word, err);
}

static int my_state(struct coll_conn *c, const struct pt_qname *t,
                    struct coll_state *st, struct pt_err *err)
{
    struct coll_tnames nm;
    char sql[4096];
    int ret;

    if ((ret = read_num(c, st, "page_size", "SELECT @@innodb_page_size", err)) <
            0 ||
        (ret = read_num(c, st, "innodb_buffer_pool_size",
                        "SELECT @@innodb_buffer_pool_size", err)) < 0 ||
        /* what a table without an explicit ROW_FORMAT uses (MariaDB
           "innodb_default_row_format") */
        (ret = read_word(c, st, "innodb_default_row_format",
                         "SELECT UPPER(@@innodb_default_row_format)", NULL,
                         err)) < 0)
        return ret;
    if (!t)
        return 0;
    if ((ret = coll_tnames(COLL_ENGINE_MYSQL, t, &nm, err)) < 0)
        return ret;
    /* the explicit ROW_FORMAT is in CREATE_OPTIONS; none: the default
       (innodb_default_row_format) applies */
    snprintf(sql, sizeof(sql),
             "SELECT CREATE_OPTIONS FROM information_schema.TABLES WHERE "
             "TABLE_SCHEMA = %s AND TABLE_NAME = %s",
             nm.schema, nm.table);
    return read_word(c, st, "row_format", sql, my_row_format, err);
}

static const char *lower_word(const char *w, char *buf, size_t len)
{
    size_t i = 0;

    for (; w[i] && i + 1 < len; i++)
        buf[i] = (char)tolower((unsigned char)w[i]);
    buf[i] = '\0';
    return buf;
}

static int lite_state(struct coll_conn *c, struct coll_state *st,
                      struct pt_err *err)
{
    int ret;

    if ((ret = read_num(c, st, "page_size",
                        "SELECT page_size FROM pragma_page_size()", err)) < 0 ||
        (ret = read_word(c, st, "journal_mode",
                         "SELECT journal_mode FROM pragma_journal_mode()",
                         lower_word, err)) < 0 ||
        (ret = read_num(c, st, "cache_size",
                        "SELECT cache_size FROM pragma_cache_size()", err)) < 0)
        return ret;
    return 0;
}

static int db2_state(struct coll_conn *c, const struct pt_qname *t,
                     struct coll_state *st, struct pt_err *err)
{
    struct coll_rows rows;
    struct pt_err e = {0};
    char sql[4096];
    double ps = 0, np = 0;
    int ret;

    if (!t)
        return 0;
    if (coll_db2_state_sql(t, sql, sizeof(sql)) < 0)
        return err_set(err, PT_EINTERNAL, "SQL buffer too small");
    ret = coll_query_rows(c, sql, &rows, &e);
    if (ret == PT_EUNAVAIL || ret == PT_EINTR) {
        if (err)
            *err = e;
        return ret;
    }
    if (ret < 0) {
        note_add(st, "table space", &e);
        return 0;
    }
    if (rows.n_rows == 1 &&
        coll_parse_num(coll_rows_get(&rows, 0, "PAGE_SIZE"), &ps, "SYSCAT",
                       "PAGESIZE", NULL) == 0 &&
        ps > 0)
        knob_num(st, "page_size", (int64_t)ps);
    if (rows.n_rows == 1 &&
        coll_parse_num(coll_rows_get(&rows, 0, "BUFFERPOOL_PAGES"), &np,
                       "SYSCAT", "NPAGES", NULL) == 0 &&
        np > 0)
        knob_num(st, "bufferpool_pages", (int64_t)np);
    else if (rows.n_rows == 1)
        snprintf(st->note, sizeof(st->note),
                 "bufferpool_pages: NPAGES is %g (AUTOMATIC or deferred): "
                 "not read",
                 np);
    coll_rows_release(&rows);
    return 0;
}

int coll_state_read(struct coll_conn *c, const struct pt_qname *t,
                    const char *column, struct coll_state *st,
                    struct pt_err *err)
{
    memset(st, 0, sizeof(*st));
    if (column && coll_ident_check(column, "`columns`", err) < 0)
        return PT_EDATA;
    switch (c->engine) {
    case COLL_ENGINE_POSTGRESQL:
        return pg_state(c, t, column, st, err);
    case COLL_ENGINE_MYSQL:
        return my_state(c, t, st, err);
    case COLL_ENGINE_SQLITE:
        return lite_state(c, st, err);
    case COLL_ENGINE_DB2:
        return db2_state(c, t, st, err);
    case COLL_ENGINE_AUTO:
        break;
    }
    return 0;
}

json_t *coll_state_to_json(const struct coll_state *st)
{
    json_t *o = json_object();

    for (size_t i = 0; o && i < st->n; i++) {
        const struct coll_knob *k = &st->k[i];
        json_t *v = !k->is_set     ? json_null()
                    : k->is_number ? json_integer((json_int_t)k->num)
                                   : json_string(k->word);
        if (json_object_set_new(
                o, k->name,
                json_pack("{s:o,s:s}", "value", v, "source", "server"))) {
            json_decref(o);
            return NULL;
        }
    }
    return o;
}

/* ---- live rows ----------------------------------------------------------- */

int coll_live_rows_sql(enum coll_engine e, const struct pt_qname *t, char *buf,
                       size_t len)
{
    struct coll_tnames nm;
    int n = 0;

    buf[0] = '\0';
    if (coll_tnames(e, t, &nm, NULL) < 0)
        return -1;
    switch (e) {
    case COLL_ENGINE_POSTGRESQL:
        n = snprintf(buf, len,
                     "SELECT reltuples::bigint FROM pg_class WHERE oid = "
                     "to_regclass(%s)",
                     nm.reg);
        break;
    case COLL_ENGINE_MYSQL:
        n = snprintf(buf, len,
                     "SELECT TABLE_ROWS FROM information_schema.TABLES WHERE "
                     "TABLE_SCHEMA = %s AND TABLE_NAME = %s",
                     nm.schema, nm.table);
        break;
    case COLL_ENGINE_DB2:
        n = snprintf(buf, len,
                     "SELECT CARD FROM SYSCAT.TABLES WHERE TABSCHEMA = %s "
                     "AND TABNAME = %s",
                     nm.schema, nm.table);
        break;
    case COLL_ENGINE_SQLITE:
    case COLL_ENGINE_AUTO:
        break;
    }
    return n >= 0 && (size_t)n < len ? 0 : -1;
}

int coll_live_rows_stat(struct coll_conn *c, const struct pt_qname *t,
                        int64_t *rows, char *source, size_t source_len,
                        struct pt_err *err)
{
    const char *what = c->engine == COLL_ENGINE_POSTGRESQL
                           ? "pg_class.reltuples, the statistics of the last "
                             "VACUUM or ANALYZE"
                       : c->engine == COLL_ENGINE_MYSQL
                           ? "information_schema.TABLES.TABLE_ROWS, InnoDB's "
                             "estimate"
                           : "SYSCAT.TABLES.CARD, the last RUNSTATS";
    struct pt_err e = {0};
    char sql[4096];
    int ret;

    *rows = -1;
    if (coll_live_rows_sql(c->engine, t, sql, sizeof(sql)) < 0)
        return err_set(err, PT_EINTERNAL, "SQL buffer too small");
    if (!sql[0]) {
        snprintf(source, source_len,
                 "not measured: %s keeps no row count statistics (and a "
                 "count(*) scans the table)",
                 coll_engine_name(c->engine));
        return 0;
    }
    ret = coll_query_i64(c, sql, rows, &e);
    if (ret == PT_EUNAVAIL || ret == PT_EINTR) {
        if (err)
            *err = e;
        return ret;
    }
    if (ret < 0) {
        *rows = -1;
        snprintf(source, source_len, "not measured: %.120s", e.msg);
        return 0;
    }
    if (*rows < 0) {
        *rows = -1;
        snprintf(source, source_len, "not measured: %s is -1 (never %s)", what,
                 c->engine == COLL_ENGINE_DB2 ? "collected" : "analyzed");
        return 0;
    }
    snprintf(source, source_len, "%s", what);
    return 0;
}
