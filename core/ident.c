/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ident.c — table names from the command line, end to end: the one parser
 * of --table [SCHEMA.]TABLE (quoted or not), the engine's case folding, and
 * the one function that writes an identifier into SQL (each dialect gives
 * its delimiters as a struct pt_quote_rule: collect/'s engine adapters for
 * the queries, ddl/'s dialect.yaml for the scripts). See core.h.
 *
 * Why a parser and not a pattern: a table may be called "a.b", "user" or
 * a$b, and a schema may hold a table of the same name as the default
 * schema's. Splitting at the first dot and dropping the schema (as the DDL
 * step once did) wrote ALTER TABLE for public."user" after sampling
 * "order"."user". Here the parts and whether each was quoted are kept,
 * so every statement names the sampled table.
 */
#include "core/core.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

/* The value as given, printable and short, for a message. */
static void shown(const char *s, char *out, size_t len)
{
    size_t o = 0;

    for (; *s && o + 6 < len; s++) {
        unsigned char c = (unsigned char)*s;
        if (c >= 0x20 && c != 0x7f)
            out[o++] = (char)c;
        else
            o += (size_t)snprintf(out + o, len - o, "\\x%02x", c);
    }
    if (*s && o + 4 < len) {
        memcpy(out + o, "...", 3);
        o += 3;
    }
    out[o] = '\0';
}

static int unquoted_ok(const char *p, size_t n)
{
    if (n == 0 || !(isalpha((unsigned char)p[0]) || p[0] == '_') ||
        (unsigned char)p[0] >= 0x80)
        return 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)p[i];
        if (c >= 0x80 || !(isalnum(c) || c == '_' || c == '$' || c == '#'))
            return 0;
    }
    return 1;
}

/* One part from *pp into out; *pp ends on '.' or the NUL after it. */
static int part_parse(const char **pp, char *out, int *quoted, const char *what,
                      const char *whole, struct pt_err *err)
{
    const char *p = *pp;
    char v[96];
    size_t n = 0;

    shown(whole, v, sizeof(v));
    *quoted = *p == '"' || *p == '`';
    if (*quoted) {
        char q = *p++;
        for (;; p++) {
            if (!*p)
                return err_set(err, PT_EUSAGE,
                               "%s: unclosed %c in '%s' (a quote inside a "
                               "quoted name is written twice)",
                               what, q, v);
            if (*p == q && p[1] != q)
                break;
            if (*p == q)
                p++; /* a doubled quote is one quote */
            if (n == PT_IDENT_MAX)
                goto long_part;
            out[n++] = *p;
        }
        p++;
        if (*p && *p != '.')
            return err_set(err, PT_EUSAGE,
                           "%s: '%s': a quoted part must be followed by '.' "
                           "or end the name",
                           what, v);
    } else {
        const char *dot = strchr(p, '.');
        n = dot ? (size_t)(dot - p) : strlen(p);
        if (n > PT_IDENT_MAX)
            goto long_part;
        if (n && !unquoted_ok(p, n))
            return err_set(err, PT_EUSAGE,
                           "%s: '%s': an unquoted name is a letter or '_' "
                           "then letters, digits, '_', '$' or '#'; quote "
                           "any other name (\"a b\".\"c-d\")",
                           what, v);
        memcpy(out, p, n);
        p += n;
    }
    out[n] = '\0';
    if (n == 0)
        return err_set(err, PT_EUSAGE, "%s: '%s' has an empty name part", what,
                       v);
    *pp = p;
    return 0;
long_part:
    return err_set(err, PT_EUSAGE,
                   "%s: '%s': a name part is longer than %d bytes", what, v,
                   PT_IDENT_MAX);
}

int pt_qname_parse(struct pt_qname *q, const char *s, const char *what,
                   struct pt_err *err)
{
    char first[PT_IDENT_MAX + 1], v[96];
    const char *p = s;
    int quoted, rc;

    memset(q, 0, sizeof(*q));
    shown(s, v, sizeof(v));
    if (!*s)
        return err_set(err, PT_EUSAGE, "%s: empty table name", what);
    for (const char *c = s; *c; c++)
        if ((unsigned char)*c < 0x20 || *c == 0x7f)
            return err_set(err, PT_EUSAGE, "%s: '%s' holds a control character",
                           what, v);
    if ((rc = part_parse(&p, first, &quoted, what, s, err)) < 0)
        return rc;
    if (!*p) {
        memcpy(q->table, first, strlen(first) + 1);
        q->table_quoted = quoted;
        return 0;
    }
    p++; /* the '.' */
    memcpy(q->schema, first, strlen(first) + 1);
    q->schema_quoted = quoted;
    if (!*p)
        return err_set(err, PT_EUSAGE, "%s: '%s' has an empty name part", what,
                       v);
    if ((rc = part_parse(&p, q->table, &q->table_quoted, what, s, err)) < 0)
        return rc;
    if (*p)
        return err_set(err, PT_EUSAGE,
                       "%s: '%s' has more than two parts (SCHEMA.TABLE; "
                       "quote a name holding a dot: \"a.b\")",
                       what, v);
    return 0;
}

int pt_qname_set(struct pt_qname *q, const char *table, struct pt_err *err)
{
    memset(q, 0, sizeof(*q));
    if (!unquoted_ok(table, strlen(table)) || strlen(table) > PT_IDENT_MAX)
        return err_set(err, PT_EUSAGE, "invalid table name '%.60s'", table);
    memcpy(q->table, table, strlen(table) + 1);
    return 0;
}

static void fold_part(char *s, int quoted, int fold)
{
    if (quoted || !fold)
        return;
    for (; *s; s++)
        *s = (char)(fold > 0 ? toupper((unsigned char)*s)
                             : tolower((unsigned char)*s));
}

struct pt_qname pt_qname_exact(const struct pt_qname *q, int fold)
{
    struct pt_qname x = *q;

    fold_part(x.schema, q->schema_quoted, fold);
    fold_part(x.table, q->table_quoted, fold);
    x.schema_quoted = x.table_quoted = 1;
    return x;
}

static size_t utf8_chars(const char *s)
{
    size_t n = 0;

    for (; *s; s++)
        n += ((unsigned char)*s & 0xc0) != 0x80;
    return n;
}

int pt_qname_check_len(const struct pt_qname *q, size_t max_bytes,
                       size_t max_chars, const char *engine, const char *what,
                       struct pt_err *err)
{
    const char *parts[2] = {q->schema, q->table};

    for (int i = 0; i < 2; i++) {
        char v[96];
        shown(parts[i], v, sizeof(v));
        if (max_chars && utf8_chars(parts[i]) > max_chars)
            return err_set(err, PT_EUSAGE,
                           "%s: '%s' is longer than %s's %zu characters", what,
                           v, engine, max_chars);
        if (max_bytes && strlen(parts[i]) > max_bytes)
            return err_set(err, PT_EUSAGE,
                           "%s: '%s' is longer than %s's %zu bytes", what, v,
                           engine, max_bytes);
    }
    return 0;
}

int pt_ident_quote(const struct pt_quote_rule *r, const char *exact, char *out,
                   size_t out_len, struct pt_err *err)
{
    size_t o = 0, ol = strlen(r->open), cl = strlen(r->close);
    size_t el = strlen(r->escape);

    if (!ol || !cl) {
        if (strlen(exact) >= out_len)
            goto small;
        memcpy(out, exact, strlen(exact) + 1);
        return 0;
    }
    if (ol >= out_len)
        goto small;
    memcpy(out, r->open, ol);
    o = ol;
    for (const char *s = exact; *s;) {
        int esc = strncmp(s, r->close, cl) == 0;
        size_t n = esc ? el : 1;
        if (o + n >= out_len)
            goto small;
        memcpy(out + o, esc ? r->escape : s, n);
        o += n;
        s += esc ? cl : 1;
    }
    if (o + cl >= out_len)
        goto small;
    memcpy(out + o, r->close, cl + 1);
    return 0;
small:
    return err_set(err, PT_EINTERNAL, "identifier buffer too small");
}

int pt_qname_quote(const struct pt_quote_rule *r, const struct pt_qname *q,
                   char *out, size_t out_len, struct pt_err *err)
{
    struct pt_qname x = pt_qname_exact(q, r->fold);
    size_t o = 0;
    int rc;

    if (x.schema[0]) {
        if ((rc = pt_ident_quote(r, x.schema, out, out_len, err)) < 0)
            return rc;
        o = strlen(out);
        if (o + 1 >= out_len)
            return err_set(err, PT_EINTERNAL, "identifier buffer too small");
        out[o++] = '.';
    }
    return pt_ident_quote(r, x.table, out + o, out_len - o, err);
}

/* One part for pt_qname_format, appended to out. */
static void format_part(const char *part, int quoted, char *out, size_t len)
{
    static const struct pt_quote_rule dq = {"\"", "\"", "\"\"", 0};
    char buf[PT_IDENT_MAX * 2 + 3];
    size_t o = strlen(out);

    /* a part that reads the same unquoted is shown bare */
    if (quoted || !unquoted_ok(part, strlen(part)))
        pt_ident_quote(&dq, part, buf, sizeof(buf), NULL);
    else
        snprintf(buf, sizeof(buf), "%s", part);
    snprintf(out + o, len - o, "%s", buf);
}

void pt_qname_format(const struct pt_qname *q, char *out, size_t len)
{
    if (len == 0)
        return;
    out[0] = '\0';
    if (q->schema[0]) {
        format_part(q->schema, q->schema_quoted, out, len);
        snprintf(out + strlen(out), len - strlen(out), ".");
    }
    format_part(q->table, q->table_quoted, out, len);
}

int pt_sql_string(const char *s, int backslash_escapes, char *out,
                  size_t out_len, struct pt_err *err)
{
    size_t o = 0;

    if (out_len < 3)
        goto small;
    out[o++] = '\'';
    for (; *s; s++) {
        int twice = *s == '\'' || (backslash_escapes && *s == '\\');
        if (o + 2 + (size_t)twice >= out_len)
            goto small;
        if (twice)
            out[o++] = *s;
        out[o++] = *s;
    }
    out[o++] = '\'';
    out[o] = '\0';
    return 0;
small:
    return err_set(err, PT_EINTERNAL, "SQL string buffer too small");
}
