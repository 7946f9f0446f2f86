/* SPDX-License-Identifier: Apache-2.0 */
/*
 * text.c — text for a person at a terminal of a given width: display
 * columns (UTF-8, escape sequences), words wrapped at a width, and a table
 * of strings laid out so that it fits without splitting a word or a number.
 * cli/out.c builds the tables and picks the width; this file only lays
 * them out (pagetune(1), OUTPUT FORMATS).
 *
 * The layouts, tried in this order at a width W:
 *
 *   columns     one line per row, columns two spaces apart, as wide as their
 *               widest cell; when that is wider than W the text columns, then
 *               the numbers, give up columns, one at a time from the widest,
 *               down to their longest word (header words included): cells
 *               wrap at spaces onto continuation lines;
 *   transposed  when the columns do not fit even so and there is not just
 *               one row: one line per column, one column per row (the
 *               first column's cells head them), as `kubectl describe`
 *               or a side-by-side comparison reads; the same fitting;
 *   records     else one block per row, "header  value" lines, blank lines
 *               between blocks (psql's \x).
 *
 * Only a word wider than W itself is cut (the last resort of a terminal
 * narrower than one word); no line is ever wider than W. No line ends in
 * spaces: the last column is not padded and every line is trimmed.
 */
#include "core/core.h"

#include <stdlib.h>
#include <string.h>

/* ---- display columns --------------------------------------------------- */

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

size_t pt_text_width(const char *s, size_t len)
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
        size_t l = pt_text_width(s, nl ? (size_t)(nl - s) : strlen(s));
        if (l > w)
            w = l;
        if (!nl)
            return w;
        s = nl + 1;
    }
}

/* Display columns of the longest word of a cell (where it cannot wrap). */
static size_t longest_word(const char *s)
{
    size_t w = 0;

    while (*s) {
        size_t n = strcspn(s, " \n"), l = pt_text_width(s, n);
        if (l > w)
            w = l;
        s += n;
        while (*s == ' ' || *s == '\n')
            s++;
    }
    return w;
}

/* ---- words wrapped ------------------------------------------------------ */

/*
 * The next piece of `s` that fits `width` columns: *len bytes to print,
 * *next the start of the rest. A piece ends at the last space that fits
 * (the spaces are dropped), else, a word wider than the width, it is cut
 * there. A newline in the cell always ends a piece. width 0 = no limit.
 */
static void next_piece(const char *s, size_t width, size_t *len,
                       const char **next)
{
    size_t i = 0, cols = 0, cut = 0;

    while (s[i] && s[i] != '\n') {
        size_t e = esc_len(s + i);
        if (e) {
            i += e;
            continue;
        }
        if (width && cols == width)
            break;
        if (s[i] == ' ' && i > 0)
            cut = i;
        i++;
        while (s[i] && ((unsigned char)s[i] & 0xc0) == 0x80)
            i++;
        cols++;
    }
    if (!s[i] || s[i] == '\n') {
        *len = i;
        *next = s[i] ? s + i + 1 : s + i;
        return;
    }
    /* s[i] does not fit: break at the last space, if any */
    if (s[i] != ' ' && cut > 0)
        i = cut;
    *len = i;
    while (s[i] == ' ')
        i++;
    *next = s + i;
}

void pt_text_wrap(FILE *fp, const char *text, size_t col, size_t indent,
                  size_t width)
{
    const char *s = text;
    int first = 1; /* no word on this line yet */

    for (;;) {
        size_t n, w;
        while (*s == ' ' || *s == '\n')
            s++;
        n = strcspn(s, " \n");
        if (n == 0)
            break;
        w = pt_text_width(s, n);
        if (!first && width && col + 1 + w > width) {
            fprintf(fp, "\n%*s", (int)indent, "");
            col = indent;
            first = 1;
        }
        if (!first) {
            fputc(' ', fp);
            col++;
        }
        while (width && w > width - col && width > col) {
            /* a word wider than the line: the last resort is a cut */
            size_t len;
            const char *rest;
            next_piece(s, width - col, &len, &rest);
            fprintf(fp, "%.*s\n%*s", (int)len, s, (int)indent, "");
            n -= (size_t)(rest - s);
            s = rest;
            w = pt_text_width(s, n);
            col = indent;
        }
        fprintf(fp, "%.*s", (int)n, s);
        col += w;
        s += n;
        first = 0;
    }
    fputc('\n', fp);
}

/* ---- lines -------------------------------------------------------------- */

/* Grow, append to and trim the line being built. */
struct line_buf {
    struct pt_strbuf s;
    size_t limit; /* display columns a line may take, 0 = no limit */
};

static int line_put(struct line_buf *b, const char *s, size_t n)
{
    return pt_strbuf_add(&b->s, s, n) < 0 ? -1 : 0;
}

static int line_pad(struct line_buf *b, size_t n, const char *fill)
{
    for (size_t i = 0; i < n; i++)
        if (line_put(b, fill, 1) < 0)
            return -1;
    return 0;
}

static void line_flush(struct line_buf *b, FILE *fp)
{
    /* the last resort of a terminal narrower than the gaps between the
       narrowest columns: the line is cut at the width */
    if (b->limit && pt_text_width(b->s.p ? b->s.p : "", b->s.len) > b->limit) {
        size_t i = 0, cols = 0;
        while (i < b->s.len && cols < b->limit) {
            size_t e = esc_len(b->s.p + i);
            if (e) {
                i += e;
                continue;
            }
            i++;
            while (i < b->s.len && ((unsigned char)b->s.p[i] & 0xc0) == 0x80)
                i++;
            cols++;
        }
        b->s.len = i;
    }
    while (b->s.len && b->s.p[b->s.len - 1] == ' ')
        b->s.len--;
    if (b->s.len)
        fwrite(b->s.p, 1, b->s.len, fp);
    fputc('\n', fp);
    b->s.len = 0;
}

/* ---- a grid: the table as given, or transposed -------------------------- */

struct grid {
    size_t n_cols, n_rows;
    const char **head; /* n_cols */
    const char **cell; /* n_rows * n_cols, never NULL */
    const int *right;  /* n_cols, or NULL: all left */
    /* transposed: the table's right_align by grid row (the header row
       takes its first column's); the labels' column aligns left */
    const int *row_right;
    size_t *w;       /* n_cols: the widths fit_columns chose */
    int *line_right; /* n_cols: one line's alignment, scratch */
};

static void grid_free(struct grid *g)
{
    free(g->head);
    free(g->cell);
    free(g->w);
    free(g->line_right);
    memset(g, 0, sizeof(*g));
}

static int grid_alloc(struct grid *g, size_t n_cols, size_t n_rows)
{
    memset(g, 0, sizeof(*g));
    g->n_cols = n_cols;
    g->n_rows = n_rows;
    g->head = pt_calloc(n_cols ? n_cols : 1, sizeof(*g->head));
    g->cell =
        pt_calloc(n_rows * n_cols > 0 ? n_rows * n_cols : 1, sizeof(*g->cell));
    g->w = pt_calloc(n_cols ? n_cols : 1, sizeof(*g->w));
    g->line_right = pt_calloc(n_cols ? n_cols : 1, sizeof(*g->line_right));
    if (!g->head || !g->cell || !g->w || !g->line_right) {
        grid_free(g);
        return -1;
    }
    return 0;
}

static const char *table_cell(const struct pt_text_table *t, size_t r, size_t c)
{
    const char *s = t->cells[r * t->n_cols + c];
    return s ? s : "";
}

/* The table as given (transposed = 0) or one row per column. */
static int grid_build(struct grid *g, const struct pt_text_table *t,
                      int transposed)
{
    size_t nc = transposed ? t->n_rows + 1 : t->n_cols;
    size_t nr = transposed ? (t->n_cols ? t->n_cols - 1 : 0) : t->n_rows;

    if (grid_alloc(g, nc, nr) < 0)
        return -1;
    if (!transposed) {
        g->right = t->right_align;
        for (size_t c = 0; c < nc; c++)
            g->head[c] = t->headers[c];
        for (size_t r = 0; r < nr; r++)
            for (size_t c = 0; c < nc; c++)
                g->cell[r * nc + c] = table_cell(t, r, c);
        return 0;
    }
    /* the first column's cells head the columns; every other column is a
       row of the grid, its header first */
    g->row_right = t->right_align;
    g->head[0] = t->headers[0];
    for (size_t j = 0; j < t->n_rows; j++)
        g->head[j + 1] = table_cell(t, j, 0);
    for (size_t r = 0; r < nr; r++) {
        g->cell[r * nc] = t->headers[r + 1];
        for (size_t j = 0; j < t->n_rows; j++)
            g->cell[r * nc + j + 1] = table_cell(t, j, r + 1);
    }
    return 0;
}

/*
 * The widths g->w that fit `limit` columns (0 = no limit) without cutting a
 * word: each column starts as wide as its widest cell or header; while the
 * table is too wide one column gives up one display column, a text column
 * before a number, the widest first, down to its longest word. 0, or -1
 * when even the longest words do not fit (the widths are then the
 * narrowest, and lines will be cut at the limit).
 */
static int fit_columns(struct grid *g, size_t limit)
{
    size_t total = 0, min_total = 0, *min;

    if (!(min = pt_calloc(g->n_cols ? g->n_cols : 1, sizeof(*min))))
        return -1;
    for (size_t c = 0; c < g->n_cols; c++) {
        size_t gap = c + 1 < g->n_cols ? 2 : 0;
        g->w[c] = cell_width(g->head[c]);
        min[c] = longest_word(g->head[c]);
        for (size_t r = 0; r < g->n_rows; r++) {
            const char *s = g->cell[r * g->n_cols + c];
            size_t cw = cell_width(s), lw = longest_word(s);
            g->w[c] = cw > g->w[c] ? cw : g->w[c];
            min[c] = lw > min[c] ? lw : min[c];
        }
        min[c] = min[c] ? min[c] : 1;
        total += g->w[c] + gap;
        min_total += min[c] + gap;
    }
    while (limit && total > limit) {
        size_t best = g->n_cols;
        for (size_t c = 0; c < g->n_cols; c++) {
            int num = g->right && g->right[c];
            int best_num = best < g->n_cols && g->right && g->right[best];
            if (g->w[c] <= min[c])
                continue;
            if (best == g->n_cols || best_num > num ||
                (best_num == num && g->w[c] > g->w[best]))
                best = c;
        }
        if (best == g->n_cols)
            break;
        g->w[best]--;
        total--;
    }
    free(min);
    return limit && min_total > limit ? -1 : 0;
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
    const char **pos;
    size_t *hang;
    int more = 1, first = 1, rc = 0;

    pos = pt_calloc(n ? n : 1, sizeof(*pos));
    hang = pt_calloc(n ? n : 1, sizeof(*hang));
    if (!pos || !hang) {
        free(pos);
        free(hang);
        return -1;
    }
    for (size_t c = 0; c < n; c++) {
        pos[c] = cells[c];
        hang[c] = hanging_indent(cells[c], w[c]);
    }
    while (more && rc == 0) {
        more = 0;
        for (size_t c = 0; c < n && rc == 0; c++) {
            size_t len, dw, ind = first || !*pos[c] ? 0 : hang[c];
            size_t pad;
            const char *next;
            int r = right && right[c];
            next_piece(pos[c], w[c] ? w[c] - ind : 0, &len, &next);
            dw = pt_text_width(pos[c], len) + ind;
            pad = w[c] > dw ? w[c] - dw : 0;
            rc |= line_pad(b, ind, " ");
            rc |= r ? line_pad(b, pad, " ") : 0;
            rc |= line_put(b, pos[c], len);
            rc |= !r && c + 1 < n ? line_pad(b, pad, " ") : 0;
            rc |= c + 1 < n ? line_put(b, "  ", 2) : 0;
            pos[c] = next;
            more |= *next != '\0';
        }
        first = 0;
        line_flush(b, fp);
    }
    free(pos);
    free(hang);
    return rc;
}

/* The alignment of grid line `line` (0 = the header row, r + 1 = row r). */
static const int *line_align(const struct grid *g, size_t line)
{
    if (!g->row_right)
        return g->right;
    for (size_t c = 0; c < g->n_cols; c++)
        g->line_right[c] = c > 0 && g->row_right[line];
    return g->line_right;
}

/* Header, a rule of dashes under each column, the rows. */
static int write_grid(const struct grid *g, struct line_buf *b, FILE *fp)
{
    int rc = write_row(g->head, line_align(g, 0), g->w, g->n_cols, b, fp);

    for (size_t c = 0; rc == 0 && c < g->n_cols; c++) {
        rc = line_pad(b, g->w[c], "-");
        if (rc == 0 && c + 1 < g->n_cols)
            rc = line_put(b, "  ", 2);
    }
    if (rc == 0)
        line_flush(b, fp);
    for (size_t r = 0; rc == 0 && r < g->n_rows; r++)
        rc = write_row(g->cell + r * g->n_cols, line_align(g, r + 1), g->w,
                       g->n_cols, b, fp);
    return rc;
}

/* One block per row: "header  value", the value wrapped beside it. */
static int write_records(const struct pt_text_table *t, size_t limit,
                         struct line_buf *b, FILE *fp)
{
    size_t w[2] = {0, 0};
    int rc = 0;

    for (size_t c = 0; c < t->n_cols; c++) {
        size_t hw = cell_width(t->headers[c]);
        w[0] = hw > w[0] ? hw : w[0];
    }
    if (limit && w[0] > limit / 2)
        w[0] = limit / 2 ? limit / 2 : 1;
    w[1] = limit > w[0] + 2 ? limit - w[0] - 2 : 0;
    if (limit && w[1] == 0)
        w[1] = 1;
    for (size_t r = 0; rc == 0 && r < t->n_rows; r++) {
        if (r > 0)
            line_flush(b, fp);
        for (size_t c = 0; rc == 0 && c < t->n_cols; c++) {
            const char *pair[2] = {t->headers[c], table_cell(t, r, c)};
            /* a header or a word too wide for its side: the header on a
               line of its own, the value under it, indented by two */
            const char *alone[2] = {"", pair[1]};
            size_t under[2] = {0, limit > 2 ? limit - 2 : 1};
            if (limit &&
                (cell_width(pair[0]) > w[0] || longest_word(pair[1]) > w[1])) {
                rc = write_row(pair, NULL, &limit, 1, b, fp);
                if (rc == 0)
                    rc = write_row(alone, NULL, under, 2, b, fp);
            } else {
                rc = write_row(pair, NULL, w, 2, b, fp);
            }
        }
    }
    return rc;
}

enum pt_text_layout pt_text_table_layout(const struct pt_text_table *t,
                                         size_t width)
{
    struct grid g;
    enum pt_text_layout l = PT_TEXT_RECORDS;

    if (grid_build(&g, t, 0) < 0)
        return PT_TEXT_COLUMNS; /* out of memory: the write reports it */
    if (t->n_cols < 2 || fit_columns(&g, width) == 0)
        l = PT_TEXT_COLUMNS;
    grid_free(&g);
    if (l == PT_TEXT_COLUMNS || t->n_rows == 1)
        return l;
    if (grid_build(&g, t, 1) < 0)
        return PT_TEXT_COLUMNS;
    /* no rows: the headers one a line, even if a word must be cut */
    if (fit_columns(&g, width) == 0 || t->n_rows == 0)
        l = PT_TEXT_TRANSPOSED;
    grid_free(&g);
    return l;
}

int pt_text_table_write(const struct pt_text_table *t, size_t width, FILE *fp)
{
    enum pt_text_layout l = pt_text_table_layout(t, width);
    struct line_buf b = {.limit = width};
    struct grid g = {0};
    int rc = 0;

    if (t->title) {
        const char *cells[1] = {t->title};
        rc = write_row(cells, NULL, &width, 1, &b, fp);
    }
    if (rc == 0 && l == PT_TEXT_RECORDS) {
        rc = write_records(t, width, &b, fp);
    } else if (rc == 0) {
        rc = grid_build(&g, t, l == PT_TEXT_TRANSPOSED);
        if (rc == 0) {
            fit_columns(&g, width); /* a header-only table may not fit */
            rc = write_grid(&g, &b, fp);
        }
    }
    grid_free(&g);
    free(b.s.p);
    return rc < 0 ? -1 : 0;
}
