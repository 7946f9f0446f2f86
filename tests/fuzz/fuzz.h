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

/*
 * Round trip of a document type with a writer and a reader (T
 * *_to_json(const T *), *_from_json(T *, const json_t *, name, err),
 * *_release(T *)): res, accepted once, writes a document that reads back
 * and writes the same document again. Used by the targets of the
 * documents advise reads (replay.json, simulation.json).
 */
#define FUZZ_JSON_ROUND_TRIP(T, to_json, from_json, release, res)              \
    do {                                                                       \
        T back_;                                                               \
        struct pt_err e_ = {0};                                                \
        json_t *d1_ = to_json(res), *d2_;                                      \
        char *s1_, *s2_;                                                       \
        FUZZ_CHECK(d1_ != NULL);                                               \
        FUZZ_CHECK(from_json(&back_, d1_, "again", &e_) == 0);                 \
        d2_ = to_json(&back_);                                                 \
        FUZZ_CHECK(d2_ != NULL);                                               \
        s1_ = json_dumps(d1_, JSON_COMPACT);                                   \
        s2_ = json_dumps(d2_, JSON_COMPACT);                                   \
        FUZZ_CHECK(s1_ &&s2_ &&strcmp(s1_, s2_) == 0);                         \
        free(s1_);                                                             \
        free(s2_);                                                             \
        json_decref(d1_);                                                      \
        json_decref(d2_);                                                      \
        release(&back_);                                                       \
    } while (0)

/*
 * Read the input as a document named name into *doc (NULL when not JSON)
 * and with reader from_json into *res (T as for FUZZ_JSON_ROUND_TRIP):
 * both steps accept or refuse with PT_EDATA and one line, stored in the
 * caller's int rc. The caller zeroes *res first, checks its bounds when rc
 * is 0, then releases *res and decrefs *doc (res may borrow from it).
 */
#define FUZZ_JSON_READ(from_json, data, size, name, res, doc, rc)              \
    do {                                                                       \
        struct pt_err e_ = {0};                                                \
        (doc) = NULL;                                                          \
        (rc) =                                                                 \
            pt_json_loadb((const char *)(data), (size), (name), &(doc), &e_);  \
        FUZZ_CHECK((rc) == 0 || (rc) == PT_EDATA);                             \
        FUZZ_CHECK_ERR((rc), e_);                                              \
        if ((rc) == 0) {                                                       \
            (rc) = from_json((res), (doc), (name), &e_);                       \
            FUZZ_CHECK((rc) == 0 || (rc) == PT_EDATA);                         \
            FUZZ_CHECK_ERR((rc), e_);                                          \
        }                                                                      \
    } while (0)

#endif /* PT_FUZZ_H */
