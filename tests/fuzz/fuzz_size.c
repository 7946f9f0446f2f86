/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fuzz_size.c — fuzz target for core's number parsers behind every option
 * value and size field: pt_size_parse ("8K", "64MiB"), pt_size_list_parse
 * ("4K,8K,16K"), pt_u64_parse and pt_double_parse. Checks the contract as
 * well as memory safety: a failure is PT_EDATA with one line naming the
 * subject, a success agrees with an independent reading of the digits.
 */
#include "core/core.h"
#include "tests/fuzz/fuzz.h"

#include <ctype.h>
#include <math.h>

/* Reference reading of a plain digit string: 1 if s is all digits. */
static int all_digits(const char *s)
{
    if (!*s)
        return 0;
    for (; *s; s++)
        if (!isdigit((unsigned char)*s))
            return 0;
    return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *s = fuzz_cstr(data, size);
    struct pt_err err = {0};
    uint64_t v = 0, u = 0, list[8];
    double d = 0;
    char buf[32];
    int rc, rcu, n;

    rc = pt_size_parse(s, &v, "--memory", &err);
    FUZZ_CHECK(rc == 0 || rc == PT_EDATA);
    FUZZ_CHECK_ERR(rc, err);
    if (rc < 0)
        FUZZ_CHECK(strstr(err.msg, "--memory") != NULL);

    rcu = pt_u64_parse(s, &u, "--count", &err);
    FUZZ_CHECK(rcu == 0 || rcu == PT_EDATA);
    FUZZ_CHECK_ERR(rcu, err);
    if (rcu == 0) {
        /* a plain number is also a byte size of the same value */
        FUZZ_CHECK(all_digits(s));
        FUZZ_CHECK(rc == 0 && v == u);
        FUZZ_CHECK(u == strtoull(s, NULL, 10));
    }
    if (rc == 0)
        pt_size_format(v, buf, sizeof(buf));

    n = pt_size_list_parse(s, list, 8, "--page-size", &err);
    FUZZ_CHECK(n == PT_EDATA || (n >= 1 && n <= 8));
    FUZZ_CHECK_ERR(n, err);
    if (n == 1 && rc == 0)
        FUZZ_CHECK(list[0] == v);

    rc = pt_double_parse(s, &d, "--inline-target", &err);
    FUZZ_CHECK(rc == 0 || rc == PT_EDATA);
    FUZZ_CHECK_ERR(rc, err);
    if (rc == 0)
        FUZZ_CHECK(isfinite(d));
    free(s);
    return 0;
}
