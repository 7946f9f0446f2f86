/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ident.c — identifiers the engine's way. Column names (--columns) are
 * validated against a strict pattern first (a hostile "x; DROP TABLE y" is
 * refused with PT_EDATA, never sent) and then quoted for the engine anyway.
 * The table (--table, parsed by core's pt_qname_parse) is folded the way
 * the engine folds unquoted names, checked against the engine's length
 * limit, and written with core's pt_ident_quote under the engine's rule
 * (struct coll_engine_ops .quote), or as a string literal for the catalog.
 */
#include "collect/internal.h"

#include <ctype.h>
#include <string.h>

int coll_ident_check(const char *name, const char *what, struct pt_err *err)
{
    size_t n = strlen(name);

    if (n == 0)
        return err_set(err, PT_EDATA, "%s: empty identifier", what);
    if (n > COLL_NAME_MAX)
        return err_set(err, PT_EDATA,
                       "%s: identifier longer than %d bytes: '%.40s...'", what,
                       COLL_NAME_MAX, name);
    if (!(isalpha((unsigned char)name[0]) || name[0] == '_'))
        goto bad;
    for (const char *p = name; *p; p++) {
        unsigned char ch = (unsigned char)*p;
        if (ch >= 0x80 || !(isalnum(ch) || ch == '_' || ch == '$' || ch == '#'))
            goto bad;
    }
    return 0;
bad:
    return err_set(err, PT_EDATA,
                   "%s: invalid identifier '%.200s' (letters, digits, _, $, "
                   "# only, starting with a letter or _)",
                   what, name);
}

int coll_ident_quote(enum coll_engine e, const char *name, char *buf,
                     size_t len, struct pt_err *err)
{
    const struct coll_engine_ops *ops = coll_engine_ops_get(e);
    struct pt_qname q = {0};
    int ret;

    if (!ops)
        return err_set(err, PT_EINTERNAL, "no engine to quote for");
    ret = coll_ident_check(name, "identifier", err);
    if (ret < 0)
        return ret;
    memcpy(q.table, name, strlen(name) + 1);
    q = pt_qname_exact(&q, ops->quote.fold);
    return pt_ident_quote(&ops->quote, q.table, buf, len, err);
}

int coll_table_exact(enum coll_engine e, const struct pt_qname *given,
                     struct pt_qname *exact, struct pt_err *err)
{
    const struct coll_engine_ops *ops = coll_engine_ops_get(e);

    if (!ops)
        return err_set(err, PT_EINTERNAL, "no engine to fold names for");
    *exact = pt_qname_exact(given, ops->quote.fold);
    /* the SQLite ODBC driver splits a statement at every ';', quoted or
       not ("only one SQL statement allowed") */
    if (e == COLL_ENGINE_SQLITE &&
        (strchr(exact->schema, ';') || strchr(exact->table, ';')))
        return err_set(err, PT_EUSAGE,
                       "`table`: the SQLite ODBC driver cannot take a name "
                       "holding ';'");
    return pt_qname_check_len(exact, ops->ident_max_bytes, ops->ident_max_chars,
                              coll_engine_name(e), "`table`", err);
}

int coll_table_quote(enum coll_engine e, const struct pt_qname *exact,
                     char *buf, size_t len, struct pt_err *err)
{
    const struct coll_engine_ops *ops = coll_engine_ops_get(e);

    if (!ops)
        return err_set(err, PT_EINTERNAL, "no engine to quote for");
    return pt_qname_quote(&ops->quote, exact, buf, len, err);
}

int coll_sql_string(enum coll_engine e, const char *s, char *buf, size_t len)
{
    const struct coll_engine_ops *ops = coll_engine_ops_get(e);

    return pt_sql_string(s, ops && ops->backslash_escapes, buf, len, NULL);
}

int coll_sample_opts_columns(struct coll_sample_opts *o, const char *list,
                             struct pt_err *err)
{
    o->n_columns = 0;
    for (const char *p = list;;) {
        const char *comma = strchr(p, ',');
        size_t n = comma ? (size_t)(comma - p) : strlen(p);
        if (o->n_columns == COLL_MAX_COLUMNS)
            return err_set(err, PT_EUSAGE, "`columns`: at most %d columns",
                           COLL_MAX_COLUMNS);
        if (n > COLL_NAME_MAX)
            return err_set(err, PT_EDATA, "`columns`: name too long");
        memcpy(o->columns[o->n_columns], p, n);
        o->columns[o->n_columns][n] = '\0';
        if (coll_ident_check(o->columns[o->n_columns], "`columns`", err) < 0)
            return PT_EDATA;
        o->n_columns++;
        if (!comma)
            return 0;
        p = comma + 1;
    }
}
