/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fuzz_recommendation.c — fuzz target for the recommendation JSON that
 * `pagetune ddl --recommendation FILE` reads (design.md §4). The reader
 * lives in cli/cmd_ddl.c, so the target runs the command itself, in
 * process, on the input written to a file, with the shipped db2 templates:
 *   pagetune ddl --recommendation IN -o OUT --force --quiet
 * Checks: the exit code is 0 or 65 (bad input data); on success the
 * generated script holds exactly the SQL statements of the templates —
 * nothing from the document (names, reasons, "decided_by", numbers) can
 * add a line of SQL; and no OUT.tmp.* is left behind.
 */
#include "cli/cli.h"
#include "tests/fuzz/ddl_common.h"

#include <dirent.h>
#include <fcntl.h>

/* SQL lines of the shipped create.sql + rollback.sql once rendered. */
static size_t template_sql_lines(void)
{
    static size_t n;
    static int done;
    char path[4096], *buf;

    if (!done) {
        static const char *const files[] = {"create.sql", "rollback.sql"};
        for (size_t i = 0; i < 2; i++) {
            snprintf(path, sizeof(path), "%s/ddl_templates/db2/%s",
                     fuzz_data_dir(), files[i]);
            if (pt_file_read(path, &buf, NULL, NULL) < 0)
                abort();
            /* "{{evidence}}" alone on a line expands to comment lines */
            n +=
                fuzz_sql_lines(buf) - (strstr(buf, "\n{{evidence}}\n") ? 1 : 0);
            free(buf);
        }
        done = 1;
    }
    return n;
}

/*
 * Run `fn` with stderr (one error line per bad input) sent to a scratch
 * file, truncated for every input, unless PT_FUZZ_VERBOSE is set. If the
 * command crashes, the sanitizer's report is in that file:
 * /tmp/pt-fuzz-<pid>.stderr.
 */
static int quietly(int (*fn)(int, char **), int argc, char **argv)
{
    static int scratch = -2;
    int saved = -1, rc;

    if (scratch == -2) {
        char path[64];
        snprintf(path, sizeof(path), "/tmp/pt-fuzz-%ld.stderr", (long)getpid());
        scratch = getenv("PT_FUZZ_VERBOSE")
                      ? -1
                      : open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    }
    if (scratch >= 0) {
        fflush(stderr);
        if (ftruncate(scratch, 0) == 0)
            lseek(scratch, 0, SEEK_SET);
        saved = dup(2);
        dup2(scratch, 2);
    }
    rc = fn(argc, argv);
    if (saved >= 0) {
        fflush(stderr);
        dup2(saved, 2);
        close(saved);
    }
    return rc;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static char out[80];
    char in[80];
    char *argv[9], *sql = NULL;
    int rc;
    DIR *dir;
    struct dirent *e;

    template_sql_lines();
    snprintf(in, sizeof(in), "%s", fuzz_file(data, size));
    if (!out[0])
        snprintf(out, sizeof(out), "/tmp/pt-fuzz-%ld.sql", (long)getpid());
    unlink(out);
    argv[0] = "ddl";
    argv[1] = "--recommendation";
    argv[2] = in;
    argv[3] = "-o";
    argv[4] = out;
    argv[5] = "--force";
    argv[6] = "--quiet";
    argv[7] = NULL;
    rc = quietly(cmd_ddl, 7, argv);
    FUZZ_CHECK(rc == 0 || rc == 65);
    if (rc == 0) {
        FUZZ_CHECK(pt_file_read(out, &sql, NULL, NULL) == 0);
        FUZZ_CHECK(fuzz_sql_lines(sql) == template_sql_lines());
        free(sql);
    } else {
        FUZZ_CHECK(access(out, F_OK) != 0); /* no partial output */
    }
    unlink(out);
    /* no temporary file left */
    dir = opendir("/tmp");
    if (dir) {
        size_t n = strlen(out + 5);
        while ((e = readdir(dir)) != NULL)
            FUZZ_CHECK(strncmp(e->d_name, out + 5, n) != 0);
        closedir(dir);
    }
    return 0;
}
