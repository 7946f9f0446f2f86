/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fuzz_recommendation.c — fuzz target for the recommendation JSON that
 * `pagetune ddl --recommendation FILE` reads (design.md §4). The reader
 * lives in cli/cmd_ddl.c, so the target runs the command itself, in
 * process, on the input written to a file, with the shipped templates of
 * the dialect its "engine" names (db2 otherwise):
 *   pagetune ddl --recommendation IN -o OUT --force --quiet --dialect D
 * Checks: the exit code is 0 or 65 (bad input data); on success every SQL
 * line of the script is a template line with only names, numbers or words
 * filled in, and there are no more of them than the templates hold —
 * nothing from the document (names, reasons, "decided_by", numbers) can
 * add or change a statement; and no OUT.tmp.* is left behind.
 */
#include "cli/cli.h"
#include "tests/fuzz/ddl_common.h"

#include <dirent.h>
#include <fcntl.h>

#define N_DIALECTS 5
static const char *const dialects[N_DIALECTS] = {"db2", "postgresql", "mysql",
                                                 "oracle", "sqlite"};

/* The SQL (not comment, not blank) lines of a dialect's two templates. */
struct tmpl_lines {
    size_t n;
    char *line[256];
};
static struct tmpl_lines tmpl[N_DIALECTS];

static void load_templates(void)
{
    static int done;
    char path[4096], *buf;

    if (done)
        return;
    for (size_t d = 0; d < N_DIALECTS; d++) {
        static const char *const files[] = {"create.sql", "rollback.sql"};
        for (size_t i = 0; i < 2; i++) {
            snprintf(path, sizeof(path), "%s/ddl_templates/%s/%s",
                     fuzz_data_dir(), dialects[d], files[i]);
            if (pt_file_read(path, &buf, NULL, NULL) < 0)
                abort();
            for (char *l = strtok(buf, "\n"); l; l = strtok(NULL, "\n"))
                if (fuzz_sql_lines(l) == 1 && strcmp(l, "{{evidence}}") != 0 &&
                    tmpl[d].n < 256)
                    tmpl[d].line[tmpl[d].n++] = strdup(l);
            free(buf);
        }
    }
    done = 1;
}

/* What a placeholder may expand to on a SQL line: names, numbers, words. */
static int value_char(char c)
{
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
           (c >= '0' && c <= '9') || c == '_' || c == '.' || c == '$' ||
           c == '#' || c == '-';
}

/*
 * Does output line `o` match template line `t`, where each {{name}}
 * stands for a run of value characters (no blank, quote, ';' or paren),
 * or for such a run between a pair of identifier quotes ("x" or `x`,
 * ddl/quote.c)?
 */
static int line_matches(const char *t, const char *o)
{
    while (*t) {
        if (t[0] == '{' && t[1] == '{') {
            const char *close = strstr(t, "}}");
            char qc = (*o == '"' || *o == '`') ? *o : 0;
            if (!close)
                return 0;
            t = close + 2;
            /* try every length of the value (backtracking, short lines) */
            for (const char *q = qc ? o + 1 : o;; q++) {
                if (qc ? *q == qc && line_matches(t, q + 1)
                       : line_matches(t, q))
                    return 1;
                if (!*q || !value_char(*q))
                    return 0;
            }
        }
        if (*t != *o)
            return 0;
        t++;
        o++;
    }
    return *o == '\0';
}

/*
 * Every SQL line of the generated script is a template line with values
 * filled in (so no value can add a statement or change one), and there
 * are no more of them than the templates hold.
 */
static void check_script(size_t d, char *sql)
{
    size_t n = 0;

    for (char *l = strtok(sql, "\n"); l; l = strtok(NULL, "\n")) {
        int ok = 0;
        if (fuzz_sql_lines(l) == 0)
            continue;
        n++;
        for (size_t i = 0; i < tmpl[d].n && !ok; i++)
            ok = line_matches(tmpl[d].line[i], l);
        if (!ok)
            fprintf(stderr, "line not from a %s template: %s\n", dialects[d],
                    l);
        FUZZ_CHECK(ok);
    }
    FUZZ_CHECK(n <= tmpl[d].n);
}

/* The dialect named by the document's "engine", else db2. */
static size_t dialect_of(const uint8_t *data, size_t size)
{
    json_t *doc = json_loadb((const char *)data, size, 0, NULL);
    const char *e = json_string_value(json_object_get(doc, "engine"));
    size_t d = 0;

    for (size_t i = 0; e && i < N_DIALECTS; i++)
        if (strcmp(e, dialects[i]) == 0)
            d = i;
    json_decref(doc);
    return d;
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
    char *argv[10], *sql = NULL;
    int rc;
    DIR *dir;
    struct dirent *e;

    size_t d = dialect_of(data, size);

    load_templates();
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
    argv[7] = "--dialect";
    argv[8] = (char *)dialects[d];
    argv[9] = NULL;
    rc = quietly(cmd_ddl, 9, argv);
    FUZZ_CHECK(rc == 0 || rc == 65);
    if (rc == 0) {
        FUZZ_CHECK(pt_file_read(out, &sql, NULL, NULL) == 0);
        check_script(d, sql);
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
