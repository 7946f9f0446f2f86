/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ddl_common.h — for the DDL fuzz targets: the shipped db2 dialect and
 * templates, loaded once from the source tree (PAGETUNE_DATA_DIR if set).
 */
#ifndef PT_FUZZ_DDL_COMMON_H
#define PT_FUZZ_DDL_COMMON_H

#include "ddl/ddl.h"
#include "tests/fuzz/fuzz.h"

static inline const char *fuzz_data_dir(void)
{
    const char *d = getenv("PAGETUNE_DATA_DIR");

    if (!d || !*d) {
        setenv("PAGETUNE_DATA_DIR", PT_SOURCE_DIR, 1);
        d = PT_SOURCE_DIR;
    }
    return d;
}

static inline const struct ddl_dialect *fuzz_db2_dialect(void)
{
    static struct ddl_dialect d;
    static int loaded;
    char dir[4200];

    if (!loaded) {
        fuzz_data_dir();
        if (ddl_dialect_load(&d, "db2", dir, sizeof(dir), NULL) < 0) {
            fprintf(stderr, "fuzz: cannot load the db2 dialect\n");
            abort();
        }
        loaded = 1;
    }
    return &d;
}

/* Lines of SQL (not blank, not a "--" comment) in text. */
static inline size_t fuzz_sql_lines(const char *text)
{
    size_t n = 0;

    for (const char *p = text; *p;) {
        const char *e = strchr(p, '\n');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        const char *q = p;
        while (q < p + len && (*q == ' ' || *q == '\t' || *q == '\r'))
            q++;
        if (q < p + len && !(q + 1 < p + len && q[0] == '-' && q[1] == '-'))
            n++;
        p += len + (e ? 1 : 0);
    }
    return n;
}

#endif /* PT_FUZZ_DDL_COMMON_H */
