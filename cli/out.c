/* SPDX-License-Identifier: Apache-2.0 */
/*
 * out.c — the output writers: one table of strings written as an aligned
 * text table, CSV (RFC 4180) or a JSON array; and JSON documents. Commands
 * build the table; they never format output inline
 * (docs/architecture.md#conventions).
 */
#include "cli/cli.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

/* "ops/s" -> "ops_per_s", "hit %" -> "hit_pct", "p50 us" -> "p50_us". */
static char *snake_case(const char *h)
{
    size_t n = strlen(h);
    char *out = pt_calloc(n * 6 + 1, 1), *o = out;

    if (!out)
        return NULL;
    for (; *h; h++) {
        const char *add = NULL;
        char one[2] = {0};
        if (*h == '/')
            add = "_per_";
        else if (*h == '%')
            add = "_pct_";
        else if ((*h >= 'a' && *h <= 'z') || (*h >= '0' && *h <= '9'))
            one[0] = *h, add = one;
        else if (*h >= 'A' && *h <= 'Z')
            one[0] = (char)(*h - 'A' + 'a'), add = one;
        else
            add = "_";
        for (; *add; add++)
            if (*add != '_' || (o > out && o[-1] != '_'))
                *o++ = *add;
    }
    while (o > out && o[-1] == '_')
        o--;
    *o = '\0';
    return out;
}

static char *dup_n(const char *s, size_t n)
{
    char *d = pt_calloc(n + 1, 1);

    if (d)
        memcpy(d, s, n);
    return d;
}

int out_table_init(struct out_table *t, size_t n_cols,
                   const char *const *headers)
{
    memset(t, 0, sizeof(*t));
    t->headers = pt_calloc(n_cols, sizeof(char *));
    t->machine = pt_calloc(n_cols, sizeof(char *));
    t->right_align = pt_calloc(n_cols, sizeof(int));
    if (!t->headers || !t->machine || !t->right_align) {
        out_table_release(t);
        return PT_EINTERNAL;
    }
    t->n_cols = n_cols;
    for (size_t i = 0; i < n_cols; i++) {
        const char *h = headers[i], *bar;
        if (h[0] == '>') {
            t->right_align[i] = 1;
            h++;
        }
        bar = strchr(h, '|');
        t->headers[i] = bar ? dup_n(h, (size_t)(bar - h)) : pt_strdup(h);
        t->machine[i] = bar ? pt_strdup(bar + 1) : NULL;
        if (!t->headers[i] || (bar && !t->machine[i])) {
            out_table_release(t);
            return PT_EINTERNAL;
        }
        if (!bar && !(t->machine[i] = snake_case(t->headers[i]))) {
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
    for (size_t i = 0; t->machine && i < t->n_cols; i++)
        free(t->machine[i]);
    for (size_t i = 0; t->cells && i < t->n_rows * t->n_cols; i++)
        free(t->cells[i]);
    for (size_t i = 0; t->raw && i < t->n_rows * t->n_cols; i++)
        free(t->raw[i]);
    free(t->headers);
    free(t->machine);
    free(t->right_align);
    free(t->cells);
    free(t->raw);
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
        char **nr;
        if (!nc)
            return PT_EINTERNAL;
        t->cells = nc;
        nr = pt_realloc(t->raw, ncap * t->n_cols * sizeof(char *));
        if (!nr)
            return PT_EINTERNAL;
        t->raw = nr;
        t->cap_rows = ncap;
    }
    memset(&t->cells[t->n_rows * t->n_cols], 0, t->n_cols * sizeof(char *));
    memset(&t->raw[t->n_rows * t->n_cols], 0, t->n_cols * sizeof(char *));
    t->n_rows++;
    return 0;
}

/* Format into the last row's cell `col` of `cells` (the shown or the raw
 * CSV grid), replacing what was there. */
static int set_cell(struct out_table *t, char **cells, size_t col,
                    const char *fmt, va_list ap)
    __attribute__((format(printf, 4, 0)));

static int set_cell(struct out_table *t, char **cells, size_t col,
                    const char *fmt, va_list ap)
{
    char buf[2048];
    char **cell;

    if (col >= t->n_cols || t->n_rows == 0)
        return PT_EINTERNAL;
    vsnprintf(buf, sizeof(buf), fmt, ap);
    cell = &cells[(t->n_rows - 1) * t->n_cols + col];
    free(*cell);
    *cell = pt_strdup(buf);
    return *cell ? 0 : PT_EINTERNAL;
}

int out_table_set_raw(struct out_table *t, size_t col, const char *fmt, ...)
{
    va_list ap;
    int rc;

    va_start(ap, fmt);
    rc = set_cell(t, t->raw, col, fmt, ap);
    va_end(ap);
    return rc;
}

int out_table_set_num(struct out_table *t, size_t col, double v)
{
    char b[400];

    return out_table_set_raw(t, col, "%s", pt_csv_num(v, b, sizeof(b)));
}

int out_table_setf(struct out_table *t, size_t col, const char *fmt, ...)
{
    va_list ap;
    int rc;

    va_start(ap, fmt);
    rc = set_cell(t, t->cells, col, fmt, ap);
    va_end(ap);
    return rc;
}

static const char *cell_at(const struct out_table *t, size_t r, size_t c)
{
    const char *s = t->cells[r * t->n_cols + c];
    return s ? s : "";
}

/* ---- the text table ------------------------------------------------------
 *
 * Laid out by core/text.c (pt_text_table_write): in columns, transposed or
 * as records, whichever fits the width without splitting a word or a
 * number; the width is out_term_width(fp), PT_TEXT_PIPE_WIDTH when fp is no
 * terminal and COLUMNS is not set.
 */
int out_term_width(FILE *fp)
{
    const char *env = getenv("COLUMNS");
    struct winsize ws;

    if (env && *env) {
        char *end;
        long v;
        errno = 0;
        v = strtol(env, &end, 10);
        if (!errno && *end == '\0' && v > 0 && v < 100000)
            return (int)v;
    }
    if (fp && isatty(fileno(fp)) && ioctl(fileno(fp), TIOCGWINSZ, &ws) == 0 &&
        ws.ws_col > 0)
        return ws.ws_col;
    return 0;
}

static int write_text(const struct out_table *t, FILE *fp, struct pt_err *err)
{
    int width = out_term_width(fp);
    struct pt_text_table tt = {
        .n_cols = t->n_cols,
        .n_rows = t->n_rows,
        .headers = t->headers,
        .cells = t->cells,
        .right_align = t->right_align,
        .title = t->title,
    };

    if (pt_text_table_write(&tt, width > 0 ? (size_t)width : PT_TEXT_PIPE_WIDTH,
                            fp) < 0)
        return err_set(err, PT_EINTERNAL, "out of memory writing a table");
    return 0;
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

/*
 * RFC 4180 with LF line ends (pagetune(1), OUTPUT FORMATS): machine headers,
 * the raw value of a cell when the command gave one (out_table_set_raw),
 * an empty field for the table's "-" and "n/a".
 */
static void write_csv(const struct out_table *t, FILE *fp)
{
    for (size_t c = 0; c < t->n_cols; c++) {
        csv_field(t->machine[c], fp);
        fputc(c + 1 < t->n_cols ? ',' : '\n', fp);
    }
    for (size_t r = 0; r < t->n_rows; r++)
        for (size_t c = 0; c < t->n_cols; c++) {
            const char *raw = t->raw[r * t->n_cols + c];
            const char *cell = cell_at(t, r, c);
            /* the table's "no value" marks are an empty field */
            if (!raw && (strcmp(cell, "-") == 0 || strcmp(cell, "n/a") == 0))
                raw = "";
            csv_field(raw ? raw : cell, fp);
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
        if (write_text(t, fp, err) < 0)
            return PT_EINTERNAL;
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

/*
 * Automatic colour: a terminal that understands escape sequences, unless
 * the user said no (https://no-color.org: NO_COLOR set and not empty) or
 * the terminal is TERM=dumb (or TERM is unset).
 */
int out_color_enabled(FILE *fp)
{
    const char *nc = getenv("NO_COLOR"), *term = getenv("TERM");

    if (nc && *nc)
        return 0;
    if (!term || !*term || strcmp(term, "dumb") == 0)
        return 0;
    return isatty(fileno(fp));
}
