/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fuzz.h — helpers shared by the fuzz targets: the input as a C string,
 * the input as a file (for readers that take a path), and an invariant
 * check that aborts so libFuzzer records the input. Header-only (static).
 */
#ifndef PT_FUZZ_H
#define PT_FUZZ_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Abort (a finding) when an invariant of the parser's contract fails. */
#define FUZZ_CHECK(cond)                                                       \
    do {                                                                       \
        if (!(cond)) {                                                         \
            fprintf(stderr, "%s:%d: invariant failed: %s\n", __FILE__,         \
                    __LINE__, #cond);                                          \
            abort();                                                           \
        }                                                                      \
    } while (0)

/* The input as a NUL-terminated string (caller frees). */
static inline char *fuzz_cstr(const uint8_t *data, size_t size)
{
    char *s = malloc(size + 1);

    if (!s)
        abort();
    memcpy(s, data, size);
    s[size] = '\0';
    return s;
}

/*
 * The input written to a per-process temporary file (rewritten for every
 * input, removed at exit); returns its path. For readers that stream from a
 * file descriptor and have no from-memory variant.
 */
static char fuzz_path[64];

static inline void fuzz_file_remove(void)
{
    if (fuzz_path[0])
        unlink(fuzz_path);
}

static inline const char *fuzz_file(const uint8_t *data, size_t size)
{
    FILE *fp;

    if (!fuzz_path[0]) {
        snprintf(fuzz_path, sizeof(fuzz_path), "/tmp/pt-fuzz-%ld.in",
                 (long)getpid());
        atexit(fuzz_file_remove);
    }
    fp = fopen(fuzz_path, "wb");
    if (!fp || fwrite(data, 1, size, fp) != size || fclose(fp) != 0)
        abort();
    return fuzz_path;
}

/* A non-zero JSON/YAML error must carry a one-line message. */
#define FUZZ_CHECK_ERR(rc, err)                                                \
    do {                                                                       \
        if ((rc) < 0) {                                                        \
            FUZZ_CHECK((err).code == (rc));                                    \
            FUZZ_CHECK((err).msg[0] != '\0');                                  \
            FUZZ_CHECK(strchr((err).msg, '\n') == NULL);                       \
        }                                                                      \
    } while (0)

#endif /* PT_FUZZ_H */
