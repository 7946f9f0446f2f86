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

int pt_file_read(const char *path, char **out, size_t *len, struct pt_err *err)
{
    FILE *fp;
    char *buf = NULL;
    size_t cap = 0, n = 0;
    struct stat st;

    *out = NULL;
    if (strcmp(path, "-") == 0) {
        fp = stdin;
    } else {
        if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
            return err_set(err, PT_ENOINPUT, "'%s' is a directory", path);
        fp = fopen(path, "rb");
        if (!fp)
            return err_set(err, PT_ENOINPUT, "cannot open '%s': %s", path,
                           strerror(errno));
    }
    for (;;) {
        size_t got;
        if (n + 1 >= cap) {
            size_t ncap = cap ? cap * 2 : 65536;
            char *nb = pt_realloc(buf, ncap);
            if (!nb) {
                free(buf);
                if (fp != stdin)
                    fclose(fp);
                return err_set(err, PT_EINTERNAL, "out of memory reading '%s'",
                               path);
            }
            buf = nb;
            cap = ncap;
        }
        got = fread(buf + n, 1, cap - n - 1, fp);
        n += got;
        if (got == 0)
            break;
    }
    if (ferror(fp)) {
        int e = errno;
        free(buf);
        if (fp != stdin)
            fclose(fp);
        return err_set(err, PT_ENOINPUT, "cannot read '%s': %s", path,
                       strerror(e));
    }
    if (fp != stdin)
        fclose(fp);
    buf[n] = '\0';
    *out = buf;
    if (len)
        *len = n;
    return 0;
}
