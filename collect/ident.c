/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ident.c — identifier checking and quoting. Table and column names come
 * from the command line and end up in SQL text, so they are validated
 * against a strict pattern first (a hostile "x; DROP TABLE y" is refused
 * with PT_EDATA, never sent) and then quoted for the engine anyway.
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
    size_t n = strlen(name), o = 0;
    int ret;

    if (!ops)
        return err_set(err, PT_EINTERNAL, "no engine to quote for");
    ret = coll_ident_check(name, "identifier", err);
    if (ret < 0)
        return ret;
    if (n + 3 > len)
        return err_set(err, PT_EINTERNAL, "identifier buffer too small");
    buf[o++] = ops->quote;
    for (size_t i = 0; i < n; i++) {
        char ch = name[i];
        if (ops->fold > 0)
            ch = (char)toupper((unsigned char)ch);
        else if (ops->fold < 0)
            ch = (char)tolower((unsigned char)ch);
        buf[o++] = ch;
    }
    buf[o++] = ops->quote;
    buf[o] = '\0';
    return 0;
}

int coll_table_parse(const char *s, char *schema, size_t schema_len,
                     char *table, size_t table_len, struct pt_err *err)
{
    const char *dot = strchr(s, '.');
    int ret;

    schema[0] = '\0';
    if (dot) {
        size_t n = (size_t)(dot - s);
        if (n >= schema_len || strlen(dot + 1) >= table_len)
            return err_set(err, PT_EDATA, "--table: name too long '%.60s'", s);
        memcpy(schema, s, n);
        schema[n] = '\0';
        strcpy(table, dot + 1);
        ret = coll_ident_check(schema, "--table schema", err);
        if (ret < 0)
            return ret;
    } else {
        if (strlen(s) >= table_len)
            return err_set(err, PT_EDATA, "--table: name too long '%.60s'", s);
        strcpy(table, s);
    }
    return coll_ident_check(table, "--table", err);
}

int coll_sample_opts_columns(struct coll_sample_opts *o, const char *list,
                             struct pt_err *err)
{
    o->n_columns = 0;
    for (const char *p = list;;) {
        const char *comma = strchr(p, ',');
        size_t n = comma ? (size_t)(comma - p) : strlen(p);
        if (o->n_columns == COLL_MAX_COLUMNS)
            return err_set(err, PT_EUSAGE, "--columns: at most %d columns",
                           COLL_MAX_COLUMNS);
        if (n > COLL_NAME_MAX)
            return err_set(err, PT_EDATA, "--columns: name too long");
        memcpy(o->columns[o->n_columns], p, n);
        o->columns[o->n_columns][n] = '\0';
        if (coll_ident_check(o->columns[o->n_columns], "--columns", err) < 0)
            return PT_EDATA;
        o->n_columns++;
        if (!comma)
            return 0;
        p = comma + 1;
    }
}
