/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fuzz_recommendation.c — fuzz target for the recommendation JSON that
 * `pagetune ddl --recommendation FILE` reads: the input goes through the
 * libraries as the command uses them — recommend/'s reader
 * (rec_result_from_json) and ddl/'s plan and renderer — with the shipped
 * templates of the dialect its "engine" names (db2 otherwise).
 * Checks: the result is 0 or PT_EDATA (bad input data, exit 65); on
 * success every SQL line of both scripts is a template line with only
 * names, numbers or words filled in, and there are no more of them than
 * the templates hold — nothing from the document (names, reasons,
 * "decided_by", numbers) can add or change a statement. (Writing the files
 * atomically is cmd_ddl.c's and is tested by tests/cli/test_fault_write.sh.)
 */
#include "recommend/recommend.h"
#include "tests/fuzz/ddl_common.h"

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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static struct ddl_dialect dia[N_DIALECTS];
    static char dir[N_DIALECTS][4200];
    static int loaded;
    struct rec_doc rd;
    struct ddl_plan plan;
    json_t *doc;
    char *create = NULL, *rollback = NULL;
    int rc;
    size_t d = dialect_of(data, size);

    load_templates();
    if (!loaded) {
        fuzz_data_dir();
        for (size_t i = 0; i < N_DIALECTS; i++)
            if (ddl_dialect_load(&dia[i], dialects[i], dir[i], sizeof(dir[i]),
                                 NULL) < 0)
                abort();
        loaded = 1;
    }
    memset(&plan, 0, sizeof(plan));
    doc = json_loadb((const char *)data, size, 0, NULL);
    if (!doc)
        return 0; /* not JSON: core's loader refuses it before the reader */
    rc = rec_result_from_json(&rd, doc, dia[d].name, "IN", NULL);
    if (rc == 0) {
        rc =
            ddl_plan_from_recommendation(&plan, &dia[d], &rd, "IN", NULL, NULL);
        if (rc == 0)
            rc = ddl_plan_render(&plan, dir[d], &create, &rollback, NULL);
        ddl_plan_release(&plan);
        rec_doc_release(&rd);
    }
    FUZZ_CHECK(rc == 0 || rc == PT_EDATA);
    if (rc == 0) {
        check_script(d, create);
        check_script(d, rollback);
    } else {
        FUZZ_CHECK(!create && !rollback); /* nothing half-rendered */
    }
    free(create);
    free(rollback);
    json_decref(doc);
    return 0;
}
