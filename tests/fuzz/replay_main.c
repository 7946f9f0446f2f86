/* SPDX-License-Identifier: Apache-2.0 */
/*
 * replay_main.c — a main() for the fuzz targets when they are built without
 * libFuzzer (gcc, the ASan build, valgrind): every argument is a file or a
 * directory of files, each file is handed once to LLVMFuzzerTestOneInput.
 * ctest runs it over the seed corpus and the regression inputs, so every
 * input that once crashed a parser is replayed in CI.
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int run_file(const char *path)
{
    FILE *fp = fopen(path, "rb");
    unsigned char *buf = NULL;
    size_t cap = 0, n = 0, got;

    if (!fp) {
        fprintf(stderr, "replay: cannot open '%s'\n", path);
        return -1;
    }
    do {
        if (n == cap) {
            unsigned char *nb = realloc(buf, cap ? cap * 2 : 4096);
            if (!nb) {
                free(buf);
                fclose(fp);
                return -1;
            }
            buf = nb;
            cap = cap ? cap * 2 : 4096;
        }
        got = fread(buf + n, 1, cap - n, fp);
        n += got;
    } while (got > 0);
    fclose(fp);
    /* an exact-size copy, so ASan sees reads past the end of the input */
    {
        unsigned char *exact = malloc(n ? n : 1);
        if (!exact) {
            free(buf);
            return -1;
        }
        memcpy(exact, buf, n);
        free(buf);
        LLVMFuzzerTestOneInput(exact, n);
        free(exact);
    }
    return 0;
}

static int run_path(const char *path, size_t *count)
{
    struct stat st;
    DIR *d;
    struct dirent *e;
    int rc = 0;

    if (stat(path, &st) != 0)
        return 0; /* no regressions yet for this target */
    if (!S_ISDIR(st.st_mode)) {
        (*count)++;
        return run_file(path);
    }
    d = opendir(path);
    if (!d)
        return -1;
    while ((e = readdir(d)) != NULL) {
        char sub[4096];
        if (e->d_name[0] == '.')
            continue;
        snprintf(sub, sizeof(sub), "%s/%s", path, e->d_name);
        if (run_path(sub, count) < 0)
            rc = -1;
    }
    closedir(d);
    return rc;
}

int main(int argc, char **argv)
{
    size_t count = 0;
    int rc = 0;

    for (int i = 1; i < argc; i++)
        if (run_path(argv[i], &count) < 0)
            rc = 1;
    printf("replayed %zu inputs\n", count);
    if (count == 0) {
        fprintf(stderr, "replay: no inputs found\n");
        return 1;
    }
    return rc;
}
