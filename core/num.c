/* SPDX-License-Identifier: Apache-2.0 */
/*
 * num.c — strict parsing of numbers and byte sizes ("8K", "64M": powers of
 * 1024, docs/formats.md#byte-sizes) used by every option and input file.
 */
#include "core/core.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static int parse_digits(const char *s, const char **end, uint64_t *out)
{
    uint64_t v = 0;
    const char *p = s;

    if (!isdigit((unsigned char)*p))
        return -1;
    for (; isdigit((unsigned char)*p); p++) {
        unsigned d = (unsigned)(*p - '0');
        if (v > (UINT64_MAX - d) / 10)
            return -2;
        v = v * 10 + d;
    }
    *end = p;
    *out = v;
    return 0;
}

int pt_u64_parse(const char *s, uint64_t *out, const char *what,
                 struct pt_err *err)
{
    const char *end;
    int rc;

    if (!s || !*s)
        return err_set(err, PT_EDATA, "%s: empty value, expected a number",
                       what);
    rc = parse_digits(s, &end, out);
    if (rc == -2)
        return err_set(err, PT_EDATA, "%s: '%s' is too large", what, s);
    if (rc < 0 || *end)
        return err_set(err, PT_EDATA,
                       "%s: '%s' is not a non-negative whole number", what, s);
    return 0;
}

int pt_double_parse(const char *s, double *out, const char *what,
                    struct pt_err *err)
{
    char *end;
    double v;

    if (!s || !*s)
        return err_set(err, PT_EDATA, "%s: empty value, expected a number",
                       what);
    if (isspace((unsigned char)*s))
        return err_set(err, PT_EDATA, "%s: '%s' is not a number", what, s);
    errno = 0;
    v = strtod(s, &end);
    if (*end || errno == ERANGE || !isfinite(v))
        return err_set(err, PT_EDATA, "%s: '%s' is not a finite number", what,
                       s);
    *out = v;
    return 0;
}

int pt_size_parse(const char *s, uint64_t *out, const char *what,
                  struct pt_err *err)
{
    const char *p;
    uint64_t v, mult = 1;
    int rc;

    if (!s || !*s)
        return err_set(err, PT_EDATA, "%s: empty size", what);
    rc = parse_digits(s, &p, &v);
    if (rc == -2)
        return err_set(err, PT_EDATA, "%s: '%s' is too large", what, s);
    if (rc < 0)
        return err_set(err, PT_EDATA,
                       "%s: '%s' is not a byte size (e.g. 4096, 8K, 64M, 2G)",
                       what, s);
    switch (toupper((unsigned char)*p)) {
    case 'K':
        mult = 1ULL << 10;
        p++;
        break;
    case 'M':
        mult = 1ULL << 20;
        p++;
        break;
    case 'G':
        mult = 1ULL << 30;
        p++;
        break;
    case 'T':
        mult = 1ULL << 40;
        p++;
        break;
    default:
        break;
    }
    if (mult > 1 && (p[0] == 'i' || p[0] == 'I') &&
        toupper((unsigned char)p[1]) == 'B')
        p += 2;
    else if (toupper((unsigned char)*p) == 'B')
        p++;
    if (*p)
        return err_set(err, PT_EDATA,
                       "%s: '%s' is not a byte size (e.g. 4096, 8K, 64M, 2G)",
                       what, s);
    if (v > UINT64_MAX / mult)
        return err_set(err, PT_EDATA, "%s: '%s' is too large", what, s);
    *out = v * mult;
    return 0;
}

int pt_size_list_parse(const char *s, uint64_t *vals, size_t max,
                       const char *what, struct pt_err *err)
{
    char item[64];
    size_t n = 0;
    const char *p = s;

    if (!s || !*s)
        return err_set(err, PT_EDATA, "%s: empty list", what);
    for (;;) {
        const char *comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        int rc;

        if (len == 0 || len >= sizeof(item))
            return err_set(err, PT_EDATA, "%s: bad list item in '%s'", what, s);
        if (n == max)
            return err_set(err, PT_EDATA, "%s: more than %zu values", what,
                           max);
        memcpy(item, p, len);
        item[len] = '\0';
        rc = pt_size_parse(item, &vals[n], what, err);
        if (rc < 0)
            return rc;
        n++;
        if (!comma)
            break;
        p = comma + 1;
    }
    return (int)n;
}

char *pt_size_format(uint64_t bytes, char *buf, size_t len)
{
    static const char units[] = "KMGT";
    int u = -1;
    double v = (double)bytes;

    if (bytes < 1024 || bytes % 1024) {
        if (bytes < 10240) {
            snprintf(buf, len, "%llu", (unsigned long long)bytes);
            return buf;
        }
    }
    while (v >= 1024 && u < 3) {
        v /= 1024;
        u++;
    }
    if (v == (double)(uint64_t)v)
        snprintf(buf, len, "%llu%c", (unsigned long long)v, units[u]);
    else
        snprintf(buf, len, "%.1f%c", v, units[u]);
    return buf;
}

/* docs/formats.md#csv: the one form of a measure in CSV. */
const char *pt_csv_num(double v, char *buf, size_t len)
{
    size_t n;

    if (!isfinite(v) || len == 0) {
        if (len)
            buf[0] = '\0';
        return buf;
    }
    snprintf(buf, len, "%.6f", v);
    n = strlen(buf);
    if (strchr(buf, '.')) {
        while (n > 0 && buf[n - 1] == '0')
            buf[--n] = '\0';
        if (n > 0 && buf[n - 1] == '.')
            buf[--n] = '\0';
    }
    if (strcmp(buf, "-0") == 0) /* a tiny negative rounds to zero */
        snprintf(buf, len, "0");
    return buf;
}
