/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fuzz_connstr.c — fuzz target for what collect/ does with connection
 * strings and identifiers before anything reaches a driver:
 *   - coll_describe_connect: the --connect string shown in output files
 *     ("source") must never keep a PWD / PASSWORD key, however it is
 *     spelled (case, blanks around the key, braces);
 *   - coll_mask: a driver message masked in place in a buffer of exactly
 *     its size must stay in bounds, and neither the password nor a
 *     "pwd=value" may survive;
 *   - coll_ident_check / coll_ident_quote / pt_qname_parse / engine names:
 *     what they accept can be quoted for every engine and holds no quote.
 * Input: the first line is the password, the rest is the string.
 */
#include "collect/internal.h"
#include "tests/fuzz/fuzz.h"

#include <ctype.h>
#include <strings.h>

/* Independent reading of the shown string: no segment may be a password. */
static void check_no_password_key(const char *s)
{
    const char *p = s;

    while (*p) {
        const char *start = p, *eq, *a, *b;
        int brace = 0;

        while (*p && (brace || *p != ';')) {
            if (*p == '{')
                brace = 1;
            else if (*p == '}')
                brace = 0;
            p++;
        }
        eq = memchr(start, '=', (size_t)(p - start));
        if (eq) {
            a = start;
            b = eq;
            while (a < b && isspace((unsigned char)*a))
                a++;
            while (b > a && isspace((unsigned char)b[-1]))
                b--;
            FUZZ_CHECK(!((b - a == 3 && strncasecmp(a, "PWD", 3) == 0) ||
                         (b - a == 8 && strncasecmp(a, "PASSWORD", 8) == 0)));
        }
        if (*p == ';')
            p++;
    }
}

/*
 * After masking, every "pwd=" / "password=" (blanks allowed around '=') is
 * followed by "***" (or by as much of it as fitted in the buffer).
 */
static void check_masked(const char *s, const char *key)
{
    size_t n = strlen(key);

    for (const char *p = s; *p; p++) {
        const char *q = p + n;
        if (strncasecmp(p, key, n) != 0)
            continue;
        while (*q == ' ' || *q == '\t')
            q++;
        if (*q != '=')
            continue;
        q++;
        while (*q == ' ' || *q == '\t')
            q++;
        FUZZ_CHECK(strncmp(q, "***", strlen(q) < 3 ? strlen(q) : 3) == 0);
    }
}

/*
 * The password must not survive masking. The mask itself and the key names
 * it keeps ("pwd", "password") are blanked out first: a password "*" or
 * "word" found there is not a leak. A mask is blanked with the whole run
 * of stars it stands in: with the password "*b", "**bb" becomes "*" "***"
 * "b", and the "*b" that reads across the mask's edge shows nothing of the
 * input. A run of stars cut short by the end of the buffer counts too.
 */
static void check_no_secret(const char *masked, const char *secret)
{
    static const char *const marks[] = {"password", "pwd"};
    char *copy = fuzz_cstr((const uint8_t *)masked, strlen(masked));

    for (char *p = copy; *p;) {
        size_t run = strspn(p, "*");
        if (run >= 3 || (run > 0 && p[run] == '\0'))
            memset(p, '\x01', run);
        p += run ? run : 1;
    }
    for (size_t m = 0; m < sizeof(marks) / sizeof(marks[0]); m++) {
        for (char *p = copy; *p; p++) {
            /* a key cut short by the end of the buffer counts too */
            size_t n = strlen(marks[m]), left = strlen(p);
            if (left < n)
                n = left;
            if (strncasecmp(p, marks[m], n) == 0)
                memset(p, '\x01', n);
        }
    }
    FUZZ_CHECK(strstr(copy, secret) == NULL);
    free(copy);
}

static void fuzz_idents(const char *s)
{
    static const enum coll_engine engines[] = {
        COLL_ENGINE_DB2, COLL_ENGINE_POSTGRESQL, COLL_ENGINE_MYSQL,
        COLL_ENGINE_SQLITE};
    struct pt_qname tq;
    char q[COLL_NAME_MAX + 3];
    struct pt_err err = {0};
    enum coll_engine e;
    int rc;

    rc = coll_ident_check(s, "--columns", &err);
    FUZZ_CHECK(rc == 0 || rc == PT_EDATA);
    FUZZ_CHECK_ERR(rc, err);
    for (size_t i = 0; i < sizeof(engines) / sizeof(engines[0]); i++) {
        int rq = coll_ident_quote(engines[i], s, q, sizeof(q), &err);
        FUZZ_CHECK(rq == rc); /* quotable exactly when valid */
        if (rq == 0) {
            size_t n = strlen(q);
            FUZZ_CHECK(n == strlen(s) + 2);
            FUZZ_CHECK(strpbrk(q + 1, "\"`'[];") == q + n - 1 ||
                       strpbrk(q + 1, "\"`'[];") == NULL);
        }
    }
    rc = pt_qname_parse(&tq, s, "--table", &err);
    FUZZ_CHECK(rc == 0 || rc == PT_EUSAGE);
    FUZZ_CHECK_ERR(rc, err);
    if (rc == 0) {
        /* the displayed form parses back to the same parts */
        char shown[4 * PT_IDENT_MAX + 16];
        struct pt_qname back;
        pt_qname_format(&tq, shown, sizeof(shown));
        FUZZ_CHECK(pt_qname_parse(&back, shown, "t", NULL) == 0);
        FUZZ_CHECK(strcmp(back.schema, tq.schema) == 0 &&
                   strcmp(back.table, tq.table) == 0);
        for (size_t i = 0; i < sizeof(engines) / sizeof(engines[0]); i++) {
            char sql[8 * PT_IDENT_MAX + 16];
            struct pt_qname x;
            if (coll_table_exact(engines[i], &tq, &x, NULL) == 0)
                FUZZ_CHECK(coll_table_quote(engines[i], &x, sql, sizeof(sql),
                                            NULL) == 0);
        }
    }
    rc = coll_engine_parse(s, &e, &err);
    FUZZ_CHECK(rc == 0 || rc == PT_EUSAGE);
    FUZZ_CHECK_ERR(rc, err);
    coll_engine_from_dbms(s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const uint8_t *nl = memchr(data, '\n', size);
    size_t plen = nl ? (size_t)(nl - data) : 0;
    const uint8_t *rest = nl ? nl + 1 : data;
    size_t rlen = size - (size_t)(rest - data);
    struct coll_conn c;
    char *s, shown[1024], *buf;

    memset(&c, 0, sizeof(c));
    if (plen < sizeof(c.secret)) {
        memcpy(c.secret, data, plen);
        c.secret[plen] = '\0';
        if (strlen(c.secret) != plen)
            c.secret[0] = '\0'; /* a NUL inside: no password */
    }
    s = fuzz_cstr(rest, rlen);

    coll_describe_connect(s, shown, sizeof(shown));
    FUZZ_CHECK(strlen(shown) < sizeof(shown));
    check_no_password_key(shown);

    /* mask a copy in a buffer of exactly its size, */
    buf = fuzz_cstr((const uint8_t *)s, strlen(s));
    coll_mask(&c, buf, strlen(s) + 1);
    /* (blanks and '=' are kept around masked keys: skip such passwords) */
    if (c.secret[0] && !strpbrk(c.secret, "\x01 \t="))
        check_no_secret(buf, c.secret);
    check_masked(buf, "pwd");
    check_masked(buf, "password");
    free(buf);

    fuzz_idents(s);
    free(s);
    return 0;
}
