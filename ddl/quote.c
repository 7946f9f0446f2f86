/* SPDX-License-Identifier: Apache-2.0 */
/*
 * quote.c — identifiers written the dialect's way: the quoting rule and
 * the keyword lists of dialect.yaml, and the quoting of the identifier
 * template variables. ddl.c checks and case-folds a name (ddl_ident_check);
 * this file decides how the folded name appears in SQL. Which delimiters a
 * dialect uses is data (ddl_templates/<dialect>/dialect.yaml "quote"), as
 * are its keywords; see ddl.h for the contract.
 *
 * Why quote after folding: an engine stores an unquoted name folded
 * (PostgreSQL to lower case, DB2 and Oracle to upper case); quoting the
 * folded name names the same object the unquoted one did, and no name can
 * be read as a keyword (`VACUUM FULL "verbose";` vacuums one table,
 * `VACUUM FULL verbose;` the whole database).
 */
#include "ddl/ddl.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

/* The template variables that hold identifiers, by identifier kind. */
static const struct {
    const char *kind;
    const char *var;
} ident_vars[] = {
    {"table", "table"},
    {"column", "column"},
    {"tablespace", "tablespace_name"},
    {"bufferpool", "bufferpool_name"},
};

/* A delimiter: 1..max-1 printable ASCII bytes, none a name character. */
static int delimiter_ok(const char *s, size_t max)
{
    size_t n = strlen(s);

    if (n == 0 || n >= max)
        return 0;
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c <= 0x20 || c >= 0x7f || isalnum(c) || c == '_')
            return 0;
    }
    return 1;
}

static int quote_rule_from_json(struct ddl_dialect *d, const json_t *q,
                                const char *ctx, struct pt_err *err)
{
    const char *open, *close, *escape;
    char where[256];
    int rc;

    snprintf(where, sizeof(where), "%s: quote", ctx);
    if (!json_is_object(q))
        return err_set(err, PT_EDATA,
                       "%s must be a mapping {open, close, escape}", where);
    if ((rc = pt_json_get_str(q, "open", &open, where, err)) < 0 ||
        (rc = pt_json_get_str(q, "close", &close, where, err)) < 0 ||
        (rc = pt_json_get_str(q, "escape", &escape, where, err)) < 0)
        return rc;
    if (!delimiter_ok(open, sizeof(d->quote_open)) ||
        !delimiter_ok(close, sizeof(d->quote_close)) ||
        !delimiter_ok(escape, sizeof(d->quote_escape)))
        return err_set(err, PT_EDATA,
                       "%s: open, close and escape must be short runs of "
                       "punctuation",
                       where);
    /* the escape must not end the name: it has to contain the delimiter */
    if (!strstr(escape, close) || strcmp(escape, close) == 0)
        return err_set(err, PT_EDATA,
                       "%s: escape must write the closing delimiter, e.g. "
                       "'\"\"' for '\"'",
                       where);
    memcpy(d->quote_open, open, strlen(open) + 1);
    memcpy(d->quote_close, close, strlen(close) + 1);
    memcpy(d->quote_escape, escape, strlen(escape) + 1);
    return 0;
}

/* Append the words of one list (e.g. keywords.reserved) to d->keywords. */
static int keyword_list_from_json(struct ddl_dialect *d, const json_t *list,
                                  const char *name, size_t *used,
                                  const char *ctx, struct pt_err *err)
{
    const json_t *w;
    size_t i;

    if (!list)
        return 0;
    if (!json_is_array(list))
        return err_set(err, PT_EDATA, "%s: keywords.%s must be a list", ctx,
                       name);
    json_array_foreach(list, i, w)
    {
        const char *s = json_string_value(w);
        size_t n = s ? strlen(s) : 0;

        if (n == 0 || !(isalpha((unsigned char)s[0]) || s[0] == '_'))
            return err_set(err, PT_EDATA,
                           "%s: keywords.%s[%zu] must be a word (quote it: "
                           "YAML reads NULL, ON, YES as non-strings)",
                           ctx, name, i);
        for (size_t k = 0; k < n; k++)
            if (!(isalnum((unsigned char)s[k]) || s[k] == '_'))
                return err_set(err, PT_EDATA,
                               "%s: keywords.%s[%zu] '%s' must be a word", ctx,
                               name, i, s);
        if (*used + n + 1 > sizeof(d->keywords))
            return err_set(err, PT_EDATA,
                           "%s: keywords take more than %d bytes", ctx,
                           DDL_KEYWORD_BYTES);
        for (size_t k = 0; k <= n; k++)
            d->keywords[*used + k] = (char)toupper((unsigned char)s[k]);
        *used += n + 1;
        d->n_keywords++;
    }
    return 0;
}

int ddl_quote_from_json(struct ddl_dialect *d, const json_t *doc,
                        const char *ctx, struct pt_err *err)
{
    const json_t *q = json_object_get(doc, "quote");
    const json_t *kw = json_object_get(doc, "keywords");
    size_t used = 0;
    int rc;

    d->quote_open[0] = d->quote_close[0] = d->quote_escape[0] = '\0';
    d->n_keywords = 0;
    if (q && (rc = quote_rule_from_json(d, q, ctx, err)) < 0)
        return rc;
    if (!kw)
        return 0;
    if (!json_is_object(kw))
        return err_set(err, PT_EDATA,
                       "%s: 'keywords' must be a mapping {reserved, "
                       "nonreserved}",
                       ctx);
    if ((rc = keyword_list_from_json(d, json_object_get(kw, "reserved"),
                                     "reserved", &used, ctx, err)) < 0 ||
        (rc = keyword_list_from_json(d, json_object_get(kw, "nonreserved"),
                                     "nonreserved", &used, ctx, err)) < 0)
        return rc;
    return 0;
}

int ddl_dialect_is_keyword(const struct ddl_dialect *d, const char *word)
{
    const char *k = d->keywords;

    for (size_t i = 0; i < d->n_keywords; i++) {
        if (strcasecmp(k, word) == 0)
            return 1;
        k += strlen(k) + 1;
    }
    return 0;
}

int ddl_ident_quote(const struct ddl_dialect *d, const char *kind,
                    const char *folded, char *out, size_t out_len,
                    struct pt_err *err)
{
    const struct pt_quote_rule r = {d->quote_open, d->quote_close,
                                    d->quote_escape, 0};

    if (!d->quote_open[0] && ddl_dialect_is_keyword(d, folded))
        return err_set(err, PT_EDATA,
                       "%s name '%s' is a keyword of %s, which has no "
                       "way to quote it: choose another name",
                       kind, folded, d->name);
    return pt_ident_quote(&r, folded, out, out_len, err);
}

int ddl_table_quote(const struct ddl_dialect *d, const char *schema,
                    const char *table, char *out, size_t out_len,
                    struct pt_err *err)
{
    size_t o = 0;
    int rc;

    if (schema[0]) {
        if ((rc = ddl_ident_quote(d, "schema", schema, out, out_len, err)) < 0)
            return rc;
        o = strlen(out);
        if (o + 1 >= out_len)
            return err_set(err, PT_EINTERNAL, "identifier buffer too small");
        out[o++] = '.';
    }
    return ddl_ident_quote(d, "table", table, out + o, out_len - o, err);
}

int ddl_vars_quote_idents(struct ddl_vars *v, const struct ddl_dialect *d,
                          struct pt_err *err)
{
    for (size_t i = 0; i < sizeof(ident_vars) / sizeof(ident_vars[0]); i++) {
        const char *val = ddl_vars_get(v, ident_vars[i].var);
        /* a name is at most 128 bytes; each byte may become an escape */
        char sql[DDL_IDENT_MAX * 8 + 16];
        int rc;

        if (!val || !*val || !ddl_dialect_has_kind(d, ident_vars[i].kind))
            continue;
        if ((rc = ddl_ident_quote(d, ident_vars[i].kind, val, sql, sizeof(sql),
                                  err)) < 0)
            return rc;
        /* val points into v: done with it before the variable is set */
        if (ddl_vars_set(v, ident_vars[i].var, "%s", sql) < 0)
            return err_set(err, PT_EINTERNAL, "out of memory");
    }
    return 0;
}
