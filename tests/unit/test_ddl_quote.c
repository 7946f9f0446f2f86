/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_ddl_quote.c — unit tests for ddl/quote.c (issue 13): every keyword
 * of every shipped dialect (dialect.yaml "keywords", reserved and
 * nonreserved) goes through the identifier check, the quoting function and
 * a full render of the dialect's create.sql and rollback.sql, and comes
 * out as a quoted identifier, never bare; the quoting rules and keyword
 * lists are validated; a dialect that cannot quote refuses keywords.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ddl/ddl.h"

static const char *const dialects[] = {"db2", "mysql", "oracle", "postgresql",
                                       "sqlite"};
#define N_DIALECTS (sizeof(dialects) / sizeof(dialects[0]))

/* The identifier variables the templates use, by kind (as cmd_ddl sets). */
static const char *const kinds[] = {"table", "column", "tablespace",
                                    "bufferpool"};
static const char *const kind_vars[] = {"table", "column", "tablespace_name",
                                        "bufferpool_name"};
#define N_KINDS (sizeof(kinds) / sizeof(kinds[0]))

/* A name per kind that no template text contains: "zzqqa", "zzqqb", ... */
static void sentinel_of(size_t k, char *buf, size_t len)
{
    snprintf(buf, len, "zzqq%c", (char)('a' + k));
}

static json_t *load_doc(const char *name)
{
    char path[4096];
    struct pt_err err;
    json_t *doc = NULL;

    snprintf(path, sizeof(path), "%s/ddl_templates/%s/dialect.yaml",
             pt_data_dir(), name);
    if (prof_load(path, &doc, &err) < 0)
        fail_msg("%s", err.msg);
    return doc;
}

static void load(const char *name, struct ddl_dialect *d, json_t **doc)
{
    struct pt_err err;

    *doc = load_doc(name);
    if (ddl_dialect_from_json(d, *doc, name, &err) < 0)
        fail_msg("%s: %s", name, err.msg);
}

static char *read_template(const char *dialect, const char *file)
{
    char path[4096];
    struct pt_err err;
    char *buf = NULL;

    snprintf(path, sizeof(path), "%s/ddl_templates/%s/%s", pt_data_dir(),
             dialect, file);
    if (pt_file_read(path, &buf, NULL, &err) < 0)
        fail_msg("%s", err.msg);
    return buf;
}

/*
 * Variables for a render: every {{name}} of the template set to a neutral
 * value ("" for the statement prefix, so commented-out statements become
 * SQL too), then the identifier variables to `names[k]` (folded) and
 * quoted by ddl_vars_quote_idents, as the command does.
 */
static void set_vars(struct ddl_vars *v, const struct ddl_dialect *d,
                     const char *tmpl, char names[N_KINDS][130])
{
    struct pt_err err;

    for (const char *p = strstr(tmpl, "{{"); p; p = strstr(p + 2, "{{")) {
        const char *e = strstr(p, "}}");
        char key[64];
        assert_non_null(e);
        assert_true((size_t)(e - p - 2) < sizeof(key));
        memcpy(key, p + 2, (size_t)(e - p - 2));
        key[e - p - 2] = '\0';
        assert_int_equal(
            ddl_vars_set(v, key, "%s",
                         strcmp(key, "rewrite_prefix") == 0 ? "" : "1"),
            0);
    }
    for (size_t k = 0; k < N_KINDS; k++)
        if (ddl_dialect_has_kind(d, kinds[k]))
            assert_int_equal(ddl_vars_set(v, kind_vars[k], "%s", names[k]), 0);
    if (ddl_vars_quote_idents(v, d, &err) < 0)
        fail_msg("%s", err.msg);
}

static char *render(const struct ddl_dialect *d, const char *tmpl,
                    char names[N_KINDS][130])
{
    struct ddl_vars v;
    struct pt_err err;
    char *out = NULL;

    ddl_vars_init(&v);
    set_vars(&v, d, tmpl, names);
    if (ddl_render(tmpl, strlen(tmpl), "t", &v, &out, &err) < 0)
        fail_msg("%s", err.msg);
    ddl_vars_release(&v);
    return out;
}

static size_t count(const char *hay, const char *needle)
{
    size_t n = 0;
    for (const char *p = strstr(hay, needle); p; p = strstr(p + 1, needle))
        n++;
    return n;
}

/* s with every `from` replaced by `to` (caller frees). */
static char *replace_all(const char *s, const char *from, const char *to)
{
    size_t n = count(s, from), fl = strlen(from), tl = strlen(to);
    char *out = malloc(strlen(s) + n * tl + 1), *o = out;
    const char *p;

    assert_non_null(out);
    while ((p = strstr(s, from))) {
        memcpy(o, s, (size_t)(p - s));
        o += p - s;
        memcpy(o, to, tl);
        o += tl;
        s = p + fl;
    }
    strcpy(o, s);
    return out;
}

/*
 * One keyword through check, quote and both templates. The render with
 * the keyword must equal the render with a sentinel name where each
 * quoted sentinel is replaced by the quoted keyword: every place a name
 * reaches the text, it is quoted, and nothing else changes. The sentinel
 * itself never appears bare.
 */
static size_t walk_keyword(const struct ddl_dialect *d, const char *kw,
                           char *const tmpls[2], const char *const sent[2])
{
    char names[N_KINDS][130], sentinel[N_KINDS][130];
    struct pt_err err;
    size_t checked = 0;

    memset(names, 0, sizeof(names));
    memset(sentinel, 0, sizeof(sentinel));
    assert_true(ddl_dialect_is_keyword(d, kw));
    for (size_t k = 0; k < N_KINDS; k++) {
        char q[300], want[300];
        if (!ddl_dialect_has_kind(d, kinds[k]))
            continue;
        char raw[16];
        sentinel_of(k, raw, sizeof(raw));
        assert_int_equal(
            ddl_ident_check(d, kinds[k], raw, "t", sentinel[k], 130, &err), 0);
        if (ddl_ident_check(d, kinds[k], kw, "t", names[k], 130, &err) < 0) {
            /* refused by a rule (a SYS prefix, a leading '_'): never SQL */
            memcpy(names[k], sentinel[k], 130);
            continue;
        }
        assert_int_equal(
            ddl_ident_quote(d, kinds[k], names[k], q, sizeof(q), &err), 0);
        snprintf(want, sizeof(want), "%s%s%s", d->quote_open, names[k],
                 d->quote_close);
        assert_string_equal(q, want);
        checked++;
    }
    for (size_t t = 0; t < 2; t++) {
        char *a = render(d, tmpls[t], names);
        char *b = sent[t] ? NULL : render(d, tmpls[t], sentinel);
        const char *bs = sent[t] ? sent[t] : b;
        char *expect = strdup(bs);
        assert_non_null(expect);
        for (size_t k = 0; k < N_KINDS; k++) {
            char from[1024], to[1024], *x;
            if (!sentinel[k][0] || strcmp(names[k], sentinel[k]) == 0)
                continue;
            snprintf(from, sizeof(from), "%s%s%s", d->quote_open, sentinel[k],
                     d->quote_close);
            snprintf(to, sizeof(to), "%s%s%s", d->quote_open, names[k],
                     d->quote_close);
            x = replace_all(expect, from, to);
            free(expect);
            expect = x;
        }
        assert_string_equal(a, expect);
        free(expect);
        free(a);
        free(b);
    }
    return checked;
}

static void test_every_keyword(void **state)
{
    (void)state;
    for (size_t i = 0; i < N_DIALECTS; i++) {
        struct ddl_dialect *d = calloc(1, sizeof(*d));
        char names[N_KINDS][130];
        char *tmpls[2], *sent[2];
        const char *lists[] = {"reserved", "nonreserved"};
        size_t n_words = 0, n_checked = 0;
        json_t *doc;
        struct pt_err err;

        assert_non_null(d);
        load(dialects[i], d, &doc);
        /* every shipped dialect can quote */
        assert_true(d->quote_open[0] && d->quote_close[0]);
        tmpls[0] = read_template(dialects[i], "create.sql");
        tmpls[1] = read_template(dialects[i], "rollback.sql");
        /* the sentinel renders: quoted wherever it appears */
        memset(names, 0, sizeof(names));
        for (size_t k = 0; k < N_KINDS; k++) {
            char raw[16];
            sentinel_of(k, raw, sizeof(raw));
            if (ddl_dialect_has_kind(d, kinds[k]))
                assert_int_equal(
                    ddl_ident_check(d, kinds[k], raw, "t", names[k], 130, &err),
                    0);
        }
        for (size_t t = 0; t < 2; t++) {
            const char *bare = d->fold_upper ? "ZZQQ" : "zzqq";
            char q[64];
            sent[t] = render(d, tmpls[t], names);
            /* every sentinel is preceded by the opening delimiter */
            snprintf(q, sizeof(q), "%s%s", d->quote_open, bare);
            assert_int_equal(count(sent[t], bare), count(sent[t], q));
            /* the SQL templates name at least one object (not sqlite's) */
            if (strcmp(dialects[i], "sqlite") != 0)
                assert_true(count(sent[t], q) > 0);
        }
        for (size_t l = 0; l < 2; l++) {
            const json_t *arr =
                json_object_get(json_object_get(doc, "keywords"), lists[l]);
            const json_t *w;
            size_t j;
            assert_true(json_is_array(arr));
            json_array_foreach(arr, j, w)
            {
                n_checked += walk_keyword(d, json_string_value(w), tmpls,
                                          (const char *const *)sent);
                n_words++;
            }
        }
        assert_int_equal(n_words, d->n_keywords);
        assert_true(n_words > 0);
        assert_true(n_checked > 0);
        print_message("%-10s %4zu keywords, %4zu names quoted and rendered\n",
                      dialects[i], n_words, n_checked);
        for (size_t t = 0; t < 2; t++) {
            free(tmpls[t]);
            free(sent[t]);
        }
        json_decref(doc);
        free(d);
    }
}

/* The case and each engine's case folding, by name. */
static void test_folding_then_quoting(void **state)
{
    static const struct {
        const char *dialect, *kind, *given, *sql;
    } cases[] = {
        {"postgresql", "table", "verbose", "\"verbose\""},
        {"postgresql", "table", "ANALYZE", "\"analyze\""},
        {"postgresql", "table", "Sessions", "\"sessions\""},
        {"postgresql", "column", "SMALL", "\"small\""},
        {"mysql", "table", "Sessions", "`Sessions`"},
        {"mysql", "table", "select", "`select`"},
        {"db2", "bufferpool", "sessbp8k", "\"SESSBP8K\""},
        {"db2", "tablespace", "select", "\"SELECT\""},
        {"oracle", "table", "session", "\"SESSION\""},
        {"sqlite", "table", "vacuum", "\"vacuum\""},
    };
    (void)state;
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        struct ddl_dialect *d = calloc(1, sizeof(*d));
        char folded[130], q[300];
        struct pt_err err;
        json_t *doc;
        assert_non_null(d);
        load(cases[i].dialect, d, &doc);
        assert_int_equal(ddl_ident_check(d, cases[i].kind, cases[i].given, "t",
                                         folded, sizeof(folded), &err),
                         0);
        assert_int_equal(
            ddl_ident_quote(d, cases[i].kind, folded, q, sizeof(q), &err), 0);
        assert_string_equal(q, cases[i].sql);
        json_decref(doc);
        free(d);
    }
}

/* A minimal dialect document; `extra` is merged in (stolen). */
static int dialect_with(struct ddl_dialect *d, json_t *extra,
                        struct pt_err *err)
{
    json_t *doc = json_pack("{s:s, s:{s:{s:i}}, s:s, s:[i]}", "name", "t",
                            "identifiers", "table", "max_bytes", 64,
                            "fold_case", "none", "page_sizes", 8192);
    int rc;
    assert_non_null(doc);
    if (extra)
        json_object_update(doc, extra);
    json_decref(extra);
    rc = ddl_dialect_from_json(d, doc, "t.yaml", err);
    json_decref(doc);
    return rc;
}

/* Without a quoting rule, a keyword is refused (65) and a name is bare. */
static void test_cannot_quote(void **state)
{
    struct ddl_dialect *d = calloc(1, sizeof(*d));
    struct ddl_vars v;
    struct pt_err err;
    char q[300];
    (void)state;

    assert_non_null(d);
    assert_int_equal(
        dialect_with(d,
                     json_pack("{s:{s:[s,s], s:[s]}}", "keywords", "reserved",
                               "SELECT", "Table", "nonreserved", "verbose"),
                     &err),
        0);
    assert_int_equal(d->n_keywords, 3);
    assert_false(d->quote_open[0]);
    assert_true(ddl_dialect_is_keyword(d, "select"));
    assert_true(ddl_dialect_is_keyword(d, "TABLE"));
    assert_false(ddl_dialect_is_keyword(d, "sessions"));
    assert_int_equal(ddl_ident_quote(d, "table", "verbose", q, sizeof(q), &err),
                     PT_EDATA);
    assert_non_null(strstr(err.msg, "'verbose' is a keyword of t"));
    assert_null(strchr(err.msg, '\n'));
    assert_int_equal(
        ddl_ident_quote(d, "table", "sessions", q, sizeof(q), &err), 0);
    assert_string_equal(q, "sessions");
    /* through the variables too */
    ddl_vars_init(&v);
    assert_int_equal(ddl_vars_set(&v, "table", "%s", "Select"), 0);
    assert_int_equal(ddl_vars_quote_idents(&v, d, &err), PT_EDATA);
    assert_int_equal(ddl_vars_set(&v, "table", "%s", "sessions"), 0);
    assert_int_equal(ddl_vars_quote_idents(&v, d, &err), 0);
    assert_string_equal(ddl_vars_get(&v, "table"), "sessions");
    ddl_vars_release(&v);
    free(d);
}

static void test_rules(void **state)
{
    struct ddl_dialect *d = calloc(1, sizeof(*d));
    struct ddl_vars v;
    struct pt_err err;
    char q[300], small[5];
    json_t *big;
    (void)state;

    assert_non_null(d);
    /* a rule with an escape: the close delimiter inside a name doubled */
    assert_int_equal(
        dialect_with(d,
                     json_pack("{s:{s:s, s:s, s:s}}", "quote", "open", "[",
                               "close", "]", "escape", "]]"),
                     &err),
        0);
    assert_int_equal(ddl_ident_quote(d, "table", "a]b", q, sizeof(q), &err), 0);
    assert_string_equal(q, "[a]]b]");
    /* too small a buffer is an internal error, never a cut name */
    assert_int_equal(
        ddl_ident_quote(d, "table", "abc", small, sizeof(small), &err),
        PT_EINTERNAL);
    /* only the variables of kinds the dialect has are touched */
    ddl_vars_init(&v);
    assert_int_equal(ddl_vars_set(&v, "table", "%s", "x"), 0);
    assert_int_equal(ddl_vars_set(&v, "column", "%s", "y"), 0);
    assert_int_equal(ddl_vars_quote_idents(&v, d, &err), 0);
    assert_string_equal(ddl_vars_get(&v, "table"), "[x]");
    assert_string_equal(ddl_vars_get(&v, "column"), "y");
    ddl_vars_release(&v);

    /* malformed rules and words: PT_EDATA naming the file */
    assert_int_equal(dialect_with(d, json_pack("{s:s}", "quote", "\""), &err),
                     PT_EDATA);
    assert_non_null(strstr(err.msg, "t.yaml"));
    assert_int_equal(
        dialect_with(d,
                     json_pack("{s:{s:s, s:s, s:s}}", "quote", "open", "a",
                               "close", "a", "escape", "aa"),
                     &err),
        PT_EDATA);
    assert_int_equal(
        dialect_with(d,
                     json_pack("{s:{s:s, s:s, s:s}}", "quote", "open", "\"",
                               "close", "\"", "escape", "\\"),
                     &err),
        PT_EDATA);
    assert_int_equal(dialect_with(d,
                                  json_pack("{s:{s:s, s:s}}", "quote", "open",
                                            "\"", "close", "\""),
                                  &err),
                     PT_EDATA);
    /* YAML's unquoted NULL arrives as null: refused, not skipped */
    assert_int_equal(dialect_with(d,
                                  json_pack("{s:{s:[s,n]}}", "keywords",
                                            "reserved", "SELECT"),
                                  &err),
                     PT_EDATA);
    assert_non_null(strstr(err.msg, "keywords.reserved[1]"));
    assert_int_equal(dialect_with(d,
                                  json_pack("{s:{s:[s]}}", "keywords",
                                            "nonreserved", "END-EXEC"),
                                  &err),
                     PT_EDATA);
    assert_int_equal(
        dialect_with(d, json_pack("{s:[s]}", "keywords", "SELECT"), &err),
        PT_EDATA);
    /* a list larger than the room for it */
    big = json_array();
    for (int i = 0; i < DDL_KEYWORD_BYTES / 8 + 1; i++)
        json_array_append_new(big, json_string("KEYWORD"));
    assert_int_equal(
        dialect_with(d, json_pack("{s:{s:o}}", "keywords", "reserved", big),
                     &err),
        PT_EDATA);
    assert_non_null(strstr(err.msg, "bytes"));
    free(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_keyword),
        cmocka_unit_test(test_folding_then_quoting),
        cmocka_unit_test(test_cannot_quote),
        cmocka_unit_test(test_rules),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
