/* SPDX-License-Identifier: Apache-2.0 */
/*
 * util.c — small shared utilities: whole-file reads, a monotonic clock, and
 * the allocation wrappers with their fault-injection hook (tests only).
 */
#include "core/core.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

/* Test hook: allocations left before injected failure (< 0: never fail). */
static long alloc_budget = -1;

void pt_alloc_fail_after(long n)
{
    alloc_budget = n;
    /* while armed, jansson's trees come from the hook too (same free) */
    if (n >= 0)
        json_set_alloc_funcs(pt_malloc, free);
    else
        json_set_alloc_funcs(malloc, free);
}

static int alloc_should_fail(void)
{
    if (alloc_budget < 0)
        return 0;
    if (alloc_budget == 0)
        return 1;
    alloc_budget--;
    return 0;
}

void *pt_malloc(size_t n)
{
    return alloc_should_fail() ? NULL : malloc(n ? n : 1);
}

void *pt_calloc(size_t n, size_t size)
{
    return alloc_should_fail() ? NULL : calloc(n ? n : 1, size ? size : 1);
}

void *pt_realloc(void *p, size_t n)
{
    return alloc_should_fail() ? NULL : realloc(p, n ? n : 1);
}

int pt_strbuf_add(struct pt_strbuf *b, const char *s, size_t n)
{
    if (b->len + n + 1 > b->cap) {
        size_t ncap = b->cap ? b->cap : 256;
        char *np;
        while (ncap < b->len + n + 1)
            ncap *= 2;
        if (!(np = pt_realloc(b->p, ncap)))
            return PT_EINTERNAL;
        b->p = np;
        b->cap = ncap;
    }
    memcpy(b->p + b->len, s, n);
    b->len += n;
    b->p[b->len] = '\0';
    return 0;
}

char *pt_strdup(const char *s)
{
    size_t len = strlen(s) + 1;
    char *d = pt_malloc(len);

    if (d)
        memcpy(d, s, len);
    return d;
}

uint64_t pt_now_ns(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

void pt_path_dir(const char *path, char *buf, size_t len)
{
    const char *slash = strrchr(path, '/');

    if (!slash)
        snprintf(buf, len, ".");
    else if (slash == path)
        snprintf(buf, len, "/");
    else
        snprintf(buf, len, "%.*s", (int)(slash - path), path);
}

uint64_t pt_doc_max_bytes(struct pt_err *err)
{
    const char *env = getenv(PT_DOC_MAX_ENV);
    uint64_t v;

    if (!env || !*env)
        return PT_DOC_MAX_DEFAULT;
    if (pt_size_parse(env, &v, PT_DOC_MAX_ENV, err) < 0 || v == 0) {
        err_set(err, PT_EUSAGE,
                "%s: '%.40s' is not a byte size such as 512M "
                "(pagetune(1), ENVIRONMENT)",
                PT_DOC_MAX_ENV, env);
        return 0;
    }
    return v;
}

static int too_large(const char *path, uint64_t cap, struct pt_err *err)
{
    char shown[32];

    pt_size_format(cap, shown, sizeof(shown));
    return err_set(err, PT_EDATA,
                   "'%s' is larger than %s, the limit for a document read "
                   "whole (raise it with %s)",
                   path, shown, PT_DOC_MAX_ENV);
}

/* Read fp to its end into *buf (at most cap bytes, else PT_EDATA). */
static int read_capped(FILE *fp, const char *path, uint64_t cap, char **out,
                       size_t *len, struct pt_err *err)
{
    char *buf = NULL;
    size_t alloc = 0, n = 0;

    for (;;) {
        size_t got;
        if (n + 1 >= alloc) {
            size_t ncap = alloc ? alloc * 2 : 65536;
            char *nb;
            if (ncap > cap + 2)
                ncap = (size_t)cap + 2; /* room for one byte too many */
            if (ncap <= n + 1) {
                free(buf);
                return too_large(path, cap, err);
            }
            if (!(nb = pt_realloc(buf, ncap))) {
                free(buf);
                return err_set(err, PT_EINTERNAL, "out of memory reading '%s'",
                               path);
            }
            buf = nb;
            alloc = ncap;
        }
        got = fread(buf + n, 1, alloc - n - 1, fp);
        n += got;
        if (n > cap) {
            free(buf);
            return too_large(path, cap, err);
        }
        if (got == 0)
            break;
    }
    if (ferror(fp)) {
        int e = errno;
        free(buf);
        return err_set(err, PT_ENOINPUT, "cannot read '%s': %s", path,
                       strerror(e));
    }
    buf[n] = '\0';
    *out = buf;
    *len = n;
    return 0;
}

int pt_file_read(const char *path, char **out, size_t *len, struct pt_err *err)
{
    FILE *fp;
    struct stat st;
    size_t n = 0;
    uint64_t cap = pt_doc_max_bytes(err);
    int rc;

    *out = NULL;
    if (cap == 0)
        return err ? err->code : PT_EUSAGE;
    if (strcmp(path, "-") == 0) {
        fp = stdin;
    } else {
        if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
            return err_set(err, PT_ENOINPUT, "'%s' is a directory", path);
        fp = fopen(path, "rb");
        if (!fp)
            return err_set(err, PT_ENOINPUT, "cannot open '%s': %s", path,
                           strerror(errno));
        if (fstat(fileno(fp), &st) == 0 && S_ISREG(st.st_mode) &&
            (uint64_t)st.st_size > cap) {
            fclose(fp);
            return too_large(path, cap, err);
        }
    }
    rc = read_capped(fp, path, cap, out, &n, err);
    if (fp != stdin)
        fclose(fp);
    /* a UTF-8 byte order mark is not content (a size list, JSON, YAML) */
    if (rc == 0 && n >= 3 && memcmp(*out, "\xef\xbb\xbf", 3) == 0) {
        memmove(*out, *out + 3, n - 2);
        n -= 3;
    }
    if (rc == 0 && len)
        *len = n;
    return rc;
}
