/* SPDX-License-Identifier: Apache-2.0 */
/*
 * out.c — the output writers: one table of strings written as an aligned
 * text table, CSV (RFC 4180) or a JSON array; and JSON documents. Commands
 * build the table; they never format output inline (house-style.md).
 * Also the check that two outputs of one command are different files.
 */
#define _XOPEN_SOURCE 700 /* realpath(3) */
#include "cli/cli.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int out_table_init(struct out_table *t, size_t n_cols,
                   const char *const *headers)
{
    memset(t, 0, sizeof(*t));
    t->headers = pt_calloc(n_cols, sizeof(char *));
    t->right_align = pt_calloc(n_cols, sizeof(int));
    if (!t->headers || !t->right_align) {
        out_table_release(t);
        return PT_EINTERNAL;
    }
    t->n_cols = n_cols;
    for (size_t i = 0; i < n_cols; i++) {
        const char *h = headers[i];
        if (h[0] == '>') {
            t->right_align[i] = 1;
            h++;
        }
        t->headers[i] = pt_strdup(h);
        if (!t->headers[i]) {
            out_table_release(t);
            return PT_EINTERNAL;
        }
    }
    return 0;
}

void out_table_release(struct out_table *t)
{
    if (!t)
        return;
    for (size_t i = 0; t->headers && i < t->n_cols; i++)
        free(t->headers[i]);
    for (size_t i = 0; t->cells && i < t->n_rows * t->n_cols; i++)
        free(t->cells[i]);
    free(t->headers);
    free(t->right_align);
    free(t->cells);
    free(t->title);
    memset(t, 0, sizeof(*t));
}

int out_table_set_title(struct out_table *t, const char *fmt, ...)
{
    va_list ap;
    char buf[1024];

    va_start(ap, fmt);
    vsnprintf(buf, sizeof(buf), fmt, ap);
    va_end(ap);
    free(t->title);
    t->title = pt_strdup(buf);
    return t->title ? 0 : PT_EINTERNAL;
}

int out_table_add_row(struct out_table *t)
{
    if (t->n_rows == t->cap_rows) {
        size_t ncap = t->cap_rows ? t->cap_rows * 2 : 16;
        char **nc = pt_realloc(t->cells, ncap * t->n_cols * sizeof(char *));
        if (!nc)
            return PT_EINTERNAL;
        t->cells = nc;
        t->cap_rows = ncap;
    }
    memset(&t->cells[t->n_rows * t->n_cols], 0, t->n_cols * sizeof(char *));
    t->n_rows++;
    return 0;
}

int out_table_setf(struct out_table *t, size_t col, const char *fmt, ...)
{
    va_list ap;
    char buf[2048];
    char **cell;

    if (col >= t->n_cols || t->n_rows == 0)
        return PT_EINTERNAL;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof(buf), fmt, ap);
    va_end(ap);
    cell = &t->cells[(t->n_rows - 1) * t->n_cols + col];
    free(*cell);
    *cell = pt_strdup(buf);
    return *cell ? 0 : PT_EINTERNAL;
}

static const char *cell_at(const struct out_table *t, size_t r, size_t c)
{
    const char *s = t->cells[r * t->n_cols + c];
    return s ? s : "";
}

static void write_text(const struct out_table *t, FILE *fp)
{
    size_t w[64] = {0};
    size_t n = t->n_cols < 64 ? t->n_cols : 64;

    for (size_t c = 0; c < n; c++) {
        w[c] = strlen(t->headers[c]);
        for (size_t r = 0; r < t->n_rows; r++) {
            size_t l = strlen(cell_at(t, r, c));
            if (l > w[c])
                w[c] = l;
        }
    }
    if (t->title)
        fprintf(fp, "%s\n", t->title);
    for (size_t c = 0; c < n; c++)
        fprintf(fp, t->right_align[c] ? "%*s%s" : "%-*s%s", (int)w[c],
                t->headers[c], c + 1 < n ? "  " : "\n");
    for (size_t c = 0; c < n; c++) {
        for (size_t i = 0; i < w[c]; i++)
            fputc('-', fp);
        fputs(c + 1 < n ? "  " : "\n", fp);
    }
    for (size_t r = 0; r < t->n_rows; r++)
        for (size_t c = 0; c < n; c++) {
            if (c + 1 == n && !t->right_align[c])
                fprintf(fp, "%s\n", cell_at(t, r, c));
            else
                fprintf(fp, t->right_align[c] ? "%*s%s" : "%-*s%s", (int)w[c],
                        cell_at(t, r, c), c + 1 < n ? "  " : "\n");
        }
}

static void csv_field(const char *s, FILE *fp)
{
    if (strpbrk(s, ",\"\r\n") == NULL) {
        fputs(s, fp);
        return;
    }
    fputc('"', fp);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', fp);
        fputc(*s, fp);
    }
    fputc('"', fp);
}

static void write_csv(const struct out_table *t, FILE *fp)
{
    for (size_t c = 0; c < t->n_cols; c++) {
        csv_field(t->headers[c], fp);
        fputc(c + 1 < t->n_cols ? ',' : '\n', fp);
    }
    for (size_t r = 0; r < t->n_rows; r++)
        for (size_t c = 0; c < t->n_cols; c++) {
            csv_field(cell_at(t, r, c), fp);
            fputc(c + 1 < t->n_cols ? ',' : '\n', fp);
        }
}

static int write_json(const struct out_table *t, FILE *fp, struct pt_err *err)
{
    json_t *doc = json_object(), *rows = json_array();
    int rc;

    json_object_set_new(doc, "schema_version", json_integer(1));
    json_object_set_new(doc, "pagetune_version", json_string(PT_VERSION));
    for (size_t r = 0; r < t->n_rows; r++) {
        json_t *o = json_object();
        for (size_t c = 0; c < t->n_cols; c++)
            json_object_set_new(o, t->headers[c],
                                json_string(cell_at(t, r, c)));
        json_array_append_new(rows, o);
    }
    json_object_set_new(doc, "rows", rows);
    rc = pt_json_dumpf(doc, fp, err);
    json_decref(doc);
    return rc;
}

int out_table_write(const struct out_table *t, enum out_format fmt, FILE *fp,
                    struct pt_err *err)
{
    switch (fmt) {
    case OUT_TABLE:
        write_text(t, fp);
        break;
    case OUT_CSV:
        write_csv(t, fp);
        break;
    case OUT_JSON:
        return write_json(t, fp, err);
    }
    if (ferror(fp))
        return err_set(err, PT_EIO, "write error: %s", strerror(errno));
    return 0;
}

int out_json_write(const json_t *doc, FILE *fp, struct pt_err *err)
{
    return pt_json_dumpf(doc, fp, err);
}

int out_color_enabled(FILE *fp)
{
    const char *nc = getenv("NO_COLOR");
    if (nc && *nc)
        return 0;
    return isatty(fileno(fp));
}

/* ---- outputs that must be distinct -------------------------------------- */

/*
 * The absolute name of `path`: realpath(3) of the whole path when it
 * exists (symbolic links resolved), else, for a dangling symbolic link, the
 * name of what it points to (resolved the same way, `depth` links deep),
 * else realpath of its directory plus the last component. 0, or -1 when the
 * directory does not exist either (the open will then fail on its own).
 */
static int canonical_path(const char *path, char *out, size_t len, int depth)
{
    char dir[PATH_MAX], resolved[PATH_MAX], target[PATH_MAX];
    const char *slash = strrchr(path, '/');
    const char *base = slash ? slash + 1 : path;
    struct stat st;
    ssize_t n;

    if (realpath(path, resolved)) {
        snprintf(out, len, "%s", resolved);
        return 0;
    }
    if (!slash)
        snprintf(dir, sizeof(dir), ".");
    else if (slash == path)
        snprintf(dir, sizeof(dir), "/");
    else
        snprintf(dir, sizeof(dir), "%.*s", (int)(slash - path), path);
    if (depth < 8 && lstat(path, &st) == 0 && S_ISLNK(st.st_mode) &&
        (n = readlink(path, target, sizeof(target) - 1)) > 0) {
        target[n] = '\0';
        if (target[0] == '/')
            return canonical_path(target, out, len, depth + 1);
        if ((size_t)snprintf(resolved, sizeof(resolved), "%s/%s", dir,
                             target) >= sizeof(resolved))
            return -1;
        return canonical_path(resolved, out, len, depth + 1);
    }
    if (!realpath(dir, resolved))
        return -1;
    if ((size_t)snprintf(out, len, "%s/%s", resolved, base) >= len)
        return -1;
    return 0;
}

int cli_outputs_distinct(const char *opt_a, const char *path_a,
                         const char *opt_b, const char *path_b,
                         struct pt_err *err)
{
    char ca[PATH_MAX], cb[PATH_MAX];
    struct stat sa, sb;
    int same = 0;

    if (!path_a || !path_b || strcmp(path_a, "-") == 0 ||
        strcmp(path_b, "-") == 0)
        return 0;
    if (stat(path_a, &sa) == 0 && stat(path_b, &sb) == 0)
        same = sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
    else if (canonical_path(path_a, ca, sizeof(ca), 0) == 0 &&
             canonical_path(path_b, cb, sizeof(cb), 0) == 0)
        same = strcmp(ca, cb) == 0;
    if (same)
        return err_set(err, PT_EUSAGE, "%s '%s' and %s '%s' name the same file",
                       opt_a, path_a, opt_b, path_b);
    return 0;
}
