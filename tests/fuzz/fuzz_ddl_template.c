/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fuzz_ddl_template.c — fuzz target for ddl/: the {{name}} template
 * renderer (ddl_render), SQL comment blocks from free text
 * (ddl_comment_block) and identifier rules (ddl_ident_check with the
 * shipped db2 dialect). Input: first line = an identifier, the rest = a
 * template and a comment text. Checks: a comment block is comment lines
 * only, so no text can become SQL; an accepted identifier is [A-Z0-9_]
 * only; a rendered template without placeholders is the template itself.
 */
#include "tests/fuzz/ddl_common.h"

#include <ctype.h>

static void fuzz_ident(const char *id)
{
    const struct ddl_dialect *d = fuzz_db2_dialect();
    static const char *const kinds[] = {"bufferpool", "tablespace"};
    struct pt_err err = {0};
    char out[130];

    for (size_t k = 0; k < 2; k++) {
        int rc =
            ddl_ident_check(d, kinds[k], id, "--name", out, sizeof(out), &err);
        FUZZ_CHECK(rc == 0 || rc == PT_EDATA);
        FUZZ_CHECK_ERR(rc, err);
        if (rc == 0) {
            FUZZ_CHECK(strlen(out) <= 18 && strlen(out) == strlen(id));
            FUZZ_CHECK(isupper((unsigned char)out[0]));
            for (const char *p = out; *p; p++)
                FUZZ_CHECK(isupper((unsigned char)*p) ||
                           isdigit((unsigned char)*p) || *p == '_');
        }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const uint8_t *nl = memchr(data, '\n', size);
    size_t ilen = nl ? (size_t)(nl - data) : size;
    const char *tmpl = nl ? (const char *)nl + 1 : "";
    size_t tlen = nl ? size - ilen - 1 : 0;
    char *id = fuzz_cstr(data, ilen), *text, *out = NULL, *block = NULL;
    struct pt_err err = {0};
    struct ddl_vars v;
    int rc;

    fuzz_ident(id);

    ddl_vars_init(&v);
    FUZZ_CHECK(ddl_vars_set(&v, "tablespace_name", "%s", "SESSTS8K") == 0);
    FUZZ_CHECK(ddl_vars_set(&v, "page_size", "%d", 8192) == 0);
    FUZZ_CHECK(ddl_vars_set(&v, "x", "%s", "{{x}}") == 0); /* not re-expanded */
    FUZZ_CHECK(ddl_vars_set(&v, "evidence", "%s", "--   - a reason") == 0);
    rc = ddl_render(tmpl, tlen, "create.sql", &v, &out, &err);
    FUZZ_CHECK(rc == 0 || rc == PT_EDATA);
    FUZZ_CHECK_ERR(rc, err);
    if (rc == 0) {
        FUZZ_CHECK(out != NULL);
        int braces = 0;
        for (size_t i = 0; i + 1 < tlen; i++)
            braces |= tmpl[i] == '{' && tmpl[i + 1] == '{';
        /* (a NUL byte ends the rendered C string: compare up to it) */
        if (!braces && !memchr(tmpl, '\0', tlen))
            FUZZ_CHECK(strlen(out) == tlen && memcmp(out, tmpl, tlen) == 0);
        free(out);
    } else {
        FUZZ_CHECK(out == NULL);
    }

    text = fuzz_cstr((const uint8_t *)tmpl, tlen);
    {
        const char *texts[2] = {text, id};
        rc = ddl_comment_block(texts, 2, "--   ", 79, &block, &err);
        FUZZ_CHECK(rc == 0);
        FUZZ_CHECK(fuzz_sql_lines(block) == 0);
        for (const char *p = block; *p; p++)
            FUZZ_CHECK(*p == '\n' || (unsigned char)*p >= 0x20);
        free(block);
    }
    free(text);
    free(id);
    ddl_vars_release(&v);
    return 0;
}
