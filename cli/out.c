/* SPDX-License-Identifier: Apache-2.0 */
/*
 * out.c — the output writers: one table of strings written as an aligned
 * text table, CSV (RFC 4180) or a JSON array; and JSON documents. Commands
 * build the table; they never format output inline
 * (docs/architecture.md#conventions).
 */
#include "cli/cli.h"

#include <errno.h>
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
 * Columns are as wide as their widest cell, two spaces apart; numbers align
 * right. When the table is wider than the terminal (out_term_width), the
 * widest text column gives up columns first, down to OUT_MIN_COL, then the
 * next widest; its cells wrap at spaces onto continuation lines (a word
 * longer than the column is cut). No line ends in spaces: the last column
 * is not padded and every line is trimmed before it is written.
 * Widths count display columns: UTF-8 continuation bytes and ANSI escape
 * sequences (the bold of a recommended value) take none.
 */
#define OUT_MAX_COLS 64
#define OUT_MIN_COL 8

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

/* Bytes of an escape sequence starting at s ("\033[...m"), else 0. */
static size_t esc_len(const char *s)
{
    size_t i = 2;

    if (s[0] != '\033' || s[1] != '[')
        return 0;
    while (s[i] && !(s[i] >= 0x40 && s[i] <= 0x7e))
        i++;
    return s[i] ? i + 1 : i;
}

/* Display columns of the first `len` bytes of s. */
static size_t disp_width(const char *s, size_t len)
{
    size_t w = 0;

    for (size_t i = 0; i < len && s[i];) {
        size_t e = esc_len(s + i);
        if (e) {
            i += e;
            continue;
        }
        if (((unsigned char)s[i] & 0xc0) != 0x80)
            w++;
        i++;
    }
    return w;
}

/* Display columns of the widest line of a cell (cells may hold '\n'). */
static size_t cell_width(const char *s)
{
    size_t w = 0;

    for (;;) {
        const char *nl = strchr(s, '\n');
        size_t l = disp_width(s, nl ? (size_t)(nl - s) : strlen(s));
        if (l > w)
            w = l;
        if (!nl)
            return w;
        s = nl + 1;
    }
}

/*
 * The next piece of `s` that fits `width` columns: *len bytes to print,
 * *next the start of the rest. A piece ends at the last space that fits
 * (the spaces are dropped) or after the last '_' or '/' (kept: headers such
 * as "io_ms/acc" wrap there), else it is cut at the width. A newline in the
 * cell always ends a piece. width 0 = no limit.
 */
static void next_piece(const char *s, size_t width, size_t *len,
                       const char **next)
{
    size_t i = 0, cols = 0, cut = 0;

    while (s[i] && s[i] != '\n') {
        size_t e = esc_len(s + i), step;
        if (e) {
            i += e;
            continue;
        }
        if (width && cols == width)
            break;
        if (s[i] == ' ' && i > 0)
            cut = i;
        step = 1;
        while (s[i + step] && ((unsigned char)s[i + step] & 0xc0) == 0x80)
            step++;
        i += step;
        cols++;
        if ((s[i - 1] == '_' || s[i - 1] == '/') && s[i] && s[i] != ' ')
            cut = i;
    }
    if (!s[i] || s[i] == '\n') {
        *len = i;
        *next = s[i] ? s + i + 1 : s + i;
        return;
    }
    /* s[i] does not fit: break at the last opportunity, if any */
    if (s[i] != ' ' && cut > 0)
        i = cut;
    *len = i;
    while (s[i] == ' ')
        i++;
    *next = s + i;
}

/* Grow, append to and trim the line being built. */
struct line_buf {
    char *p;
    size_t len, cap;
    size_t limit; /* display columns a line may take, 0 = no limit */
};

static int line_put(struct line_buf *b, const char *s, size_t n)
{
    if (b->len + n + 1 > b->cap) {
        size_t ncap = (b->len + n + 1) * 2;
        char *np = pt_realloc(b->p, ncap);
        if (!np)
            return -1;
        b->p = np;
        b->cap = ncap;
    }
    memcpy(b->p + b->len, s, n);
    b->len += n;
    b->p[b->len] = '\0';
    return 0;
}

static int line_pad(struct line_buf *b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (line_put(b, " ", 1) < 0)
            return -1;
    return 0;
}

static void line_flush(struct line_buf *b, FILE *fp)
{
    /* the last resort of a terminal narrower than one column per column
       plus the gaps (fit_widths): the line is cut at the width */
    if (b->limit && disp_width(b->p ? b->p : "", b->len) > b->limit) {
        size_t i = 0, cols = 0;
        while (i < b->len && cols < b->limit) {
            size_t e = esc_len(b->p + i);
            if (e) {
                i += e;
                continue;
            }
            i++;
            while (i < b->len && ((unsigned char)b->p[i] & 0xc0) == 0x80)
                i++;
            cols++;
        }
        b->len = i;
    }
    while (b->len && b->p[b->len - 1] == ' ')
        b->len--;
    if (b->len)
        fwrite(b->p, 1, b->len, fp);
    fputc('\n', fp);
    b->len = 0;
}

/* Display columns of the longest word of a cell (where it cannot wrap). */
static size_t longest_word(const char *s)
{
    size_t w = 0;

    while (*s) {
        size_t n = strcspn(s, " \n"), l = disp_width(s, n);
        if (l > w)
            w = l;
        s += n;
        while (*s == ' ' || *s == '\n')
            s++;
    }
    return w;
}

/*
 * Shrink the widths w[0..n) so that the table fits `limit` columns (0 = no
 * limit), in three passes, each taking one column at a time from the
 * widest: (0) down to the column's longest word and longest header
 * fragment (cells wrap at spaces, headers after '_' or '/'; nothing is
 * cut), text columns before numbers; (1) down to the longest word of the
 * data (headers are cut); (2) down to one column, text before numbers
 * (words are cut: the last resort before a line over the width).
 */
static void fit_widths(const struct out_table *t, size_t *w, size_t n,
                       size_t limit)
{
    size_t total = 0, data_w[OUT_MAX_COLS], head_w[OUT_MAX_COLS];

    for (size_t c = 0; c < n; c++) {
        const char *h = t->headers[c];
        total += w[c] + (c + 1 < n ? 2 : 0);
        data_w[c] = head_w[c] = 1;
        while (*h) { /* header fragments: "rows_", "per_", "page" */
            size_t k = strcspn(h, "_/ ");
            k += h[k] ? 1 : 0;
            if (disp_width(h, k) > head_w[c])
                head_w[c] = disp_width(h, k);
            h += k;
        }
        for (size_t r = 0; r < t->n_rows; r++) {
            size_t l = longest_word(cell_at(t, r, c));
            if (l > data_w[c])
                data_w[c] = l;
        }
    }
    for (int pass = 0; pass < 3; pass++) {
        while (limit && total > limit) {
            size_t best = n;
            for (size_t c = 0; c < n; c++) {
                size_t min = pass == 2               ? 1
                             : pass == 1             ? data_w[c]
                             : data_w[c] > head_w[c] ? data_w[c]
                                                     : head_w[c];
                if (w[c] <= min)
                    continue;
                if (best == n ||
                    (pass != 1 && t->right_align[best] && !t->right_align[c]) ||
                    ((pass == 1 || t->right_align[best] == t->right_align[c]) &&
                     w[c] > w[best]))
                    best = c;
            }
            if (best == n)
                break;
            w[best]--;
            total--;
        }
    }
}

/*
 * Continuation lines of a wrapped cell start under its text: a list item
 * ("- text", "  text") hangs after its marker or indent; at most a quarter
 * of the column, and only in a column wider than 8 (so as not to eat it).
 */
static size_t hanging_indent(const char *s, size_t width)
{
    size_t ind = strspn(s, " ");

    if ((s[ind] == '-' || s[ind] == '*') && s[ind + 1] == ' ')
        ind += 2;
    return width > 8 && ind <= width / 4 ? ind : 0;
}

/*
 * One logical row (cells[0..n)) as one or more lines: each column prints
 * its next piece, padded to its width unless it is the last column.
 */
static int write_row(const char *const *cells, const int *right,
                     const size_t *w, size_t n, struct line_buf *b, FILE *fp)
{
    const char *pos[OUT_MAX_COLS];
    size_t hang[OUT_MAX_COLS];
    int more = 1, first = 1;

    for (size_t c = 0; c < n; c++) {
        pos[c] = cells[c];
        hang[c] = hanging_indent(cells[c], w[c]);
    }
    while (more) {
        more = 0;
        for (size_t c = 0; c < n; c++) {
            size_t len, dw, ind = first || !*pos[c] ? 0 : hang[c];
            const char *next;
            if (line_pad(b, ind) < 0)
                return -1;
            next_piece(pos[c], w[c] - ind, &len, &next);
            dw = disp_width(pos[c], len) + ind;
            if (right[c] && line_pad(b, w[c] > dw ? w[c] - dw : 0) < 0)
                return -1;
            if (line_put(b, pos[c], len) < 0)
                return -1;
            if (!right[c] && c + 1 < n &&
                line_pad(b, w[c] > dw ? w[c] - dw : 0) < 0)
                return -1;
            if (c + 1 < n && line_put(b, "  ", 2) < 0)
                return -1;
            pos[c] = next;
            if (*next)
                more = 1;
        }
        first = 0;
        line_flush(b, fp);
    }
    return 0;
}

static int write_text(const struct out_table *t, FILE *fp, struct pt_err *err)
{
    size_t w[OUT_MAX_COLS] = {0};
    const char *cells[OUT_MAX_COLS] = {0};
    size_t n = t->n_cols < OUT_MAX_COLS ? t->n_cols : OUT_MAX_COLS;
    int limit = out_term_width(fp);
    struct line_buf b = {0};
    int rc = 0;

    for (size_t c = 0; c < n; c++) {
        w[c] = cell_width(t->headers[c]);
        for (size_t r = 0; r < t->n_rows; r++) {
            size_t l = cell_width(cell_at(t, r, c));
            if (l > w[c])
                w[c] = l;
        }
    }
    fit_widths(t, w, n, limit > 0 ? (size_t)limit : 0);
    b.limit = limit > 0 ? (size_t)limit : 0;
    if (t->title) {
        const char *title = t->title;
        size_t tw = limit > 0 ? (size_t)limit : 0;
        cells[0] = title;
        rc = write_row(cells, (const int[]){0}, &tw, 1, &b, fp);
    }
    for (size_t c = 0; rc == 0 && c < n; c++)
        cells[c] = t->headers[c];
    if (rc == 0)
        rc = write_row(cells, t->right_align, w, n, &b, fp);
    for (size_t c = 0; rc == 0 && c < n; c++) {
        for (size_t i = 0; rc == 0 && i < w[c]; i++)
            rc = line_put(&b, "-", 1);
        if (rc == 0 && c + 1 < n)
            rc = line_put(&b, "  ", 2);
    }
    if (rc == 0)
        line_flush(&b, fp);
    for (size_t r = 0; rc == 0 && r < t->n_rows; r++) {
        for (size_t c = 0; c < n; c++)
            cells[c] = cell_at(t, r, c);
        rc = write_row(cells, t->right_align, w, n, &b, fp);
    }
    free(b.p);
    if (rc < 0)
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
