/* SPDX-License-Identifier: Apache-2.0 */
/*
 * report.c — report.html: one self-contained page (no network, no scripts)
 * that shows a DBA the evidence behind the advice: the size distribution
 * with each page size's inline limit drawn on it, the buffer-pool hit-ratio
 * curve per page size at equal memory, current vs recommended, the
 * candidates, the DDL and every assumption. Charts are inline SVG.
 *
 * It renders a report model (a JSON tree assembled by cmd_advise.c); it
 * computes nothing beyond chart geometry. Neighbours: cli/cmd_advise.c.
 *
 * Model keys (all optional except title):
 *   title, subtitle, summary[] (strings), assumptions[] (strings),
 *   sizes {count, min, max, mean, p50, p90, p95, p99, histogram[{le,count}]},
 *   limits[{page_size, inline_limit}],
 *   recommendation {page_size, candidates[…], reasons[…], bufferpool{…},
 *                   tablespace{…}},
 *   mrc[{page_size, points[{pages, hit_ratio}]}],
 *   comparison {columns[], rows[{label, values[]}]},
 *   files[{name, text}]
 */
#include "cli/report.h"

#include <errno.h>
#include <math.h>
#include <string.h>

/* Page-size colours (colour-blind safe palette). */
static const char *const palette[] = {"#0072b2", "#e69f00", "#009e73",
                                      "#cc79a7", "#d55e00", "#56b4e9"};
#define N_PALETTE (sizeof(palette) / sizeof(palette[0]))

static void esc(FILE *fp, const char *s)
{
    for (; s && *s; s++) {
        switch (*s) {
        case '<':
            fputs("&lt;", fp);
            break;
        case '>':
            fputs("&gt;", fp);
            break;
        case '&':
            fputs("&amp;", fp);
            break;
        case '"':
            fputs("&quot;", fp);
            break;
        case '\'':
            fputs("&#39;", fp);
            break;
        default:
            fputc(*s, fp);
        }
    }
}

static double num(const json_t *o, const char *key)
{
    const json_t *v = json_object_get(o, key);
    return json_is_number(v) ? json_number_value(v) : NAN;
}

static void fmt_bytes(double b, char *buf, size_t len)
{
    if (b >= 1024.0 * 1024 * 1024)
        snprintf(buf, len, "%.1f GiB", b / (1024.0 * 1024 * 1024));
    else if (b >= 1024.0 * 1024)
        snprintf(buf, len, "%.1f MiB", b / (1024.0 * 1024));
    else if (b >= 1024.0)
        snprintf(buf, len, "%.1f KiB", b / 1024.0);
    else
        snprintf(buf, len, "%.0f B", b);
}

/* A JSON scalar as text for a table cell. */
static void cell(FILE *fp, const json_t *v)
{
    char buf[64];

    if (json_is_string(v))
        esc(fp, json_string_value(v));
    else if (json_is_integer(v))
        fprintf(fp, "%lld", (long long)json_integer_value(v));
    else if (json_is_real(v)) {
        double d = json_real_value(v);
        if (fabs(d) >= 1000 || d == (double)(long long)d)
            snprintf(buf, sizeof(buf), "%.0f", d);
        else
            snprintf(buf, sizeof(buf), "%.4g", d);
        fputs(buf, fp);
    } else if (json_is_boolean(v))
        fputs(json_is_true(v) ? "yes" : "no", fp);
    else
        fputs("&ndash;", fp);
}

static void head(FILE *fp, const json_t *model)
{
    const char *title = json_string_value(json_object_get(model, "title"));

    fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
          "<meta name=\"viewport\" content=\"width=device-width\">"
          "<title>",
          fp);
    esc(fp, title ? title : "pagetune report");
    fputs("</title>\n<style>\n"
          "body{font:14px/1.45 system-ui,sans-serif;margin:2em auto;"
          "max-width:1000px;color:#222;padding:0 1em}\n"
          "h1{font-size:1.6em}h2{font-size:1.2em;border-bottom:1px solid "
          "#ccc;padding-bottom:.2em;margin-top:2em}\n"
          "table{border-collapse:collapse;margin:.5em 0}"
          "td,th{border:1px solid #ccc;padding:.25em .6em;text-align:right}"
          "th{background:#f3f3f3}td.l,th.l{text-align:left}\n"
          "tr.rec td{background:#eef7ee;font-weight:bold}\n"
          "pre{background:#f7f7f7;border:1px solid #ddd;padding:.8em;"
          "overflow:auto;font-size:12px}\n"
          ".summary{background:#eef4fb;border-left:4px solid #0072b2;"
          "padding:.6em 1em}\nsvg{background:#fff;border:1px solid #ddd}\n"
          "svg text{font:11px sans-serif}\n"
          "</style></head><body>\n<h1>",
          fp);
    esc(fp, title ? title : "pagetune report");
    fputs("</h1>\n", fp);
    if (json_is_string(json_object_get(model, "subtitle"))) {
        fputs("<p>", fp);
        esc(fp, json_string_value(json_object_get(model, "subtitle")));
        fputs("</p>\n", fp);
    }
}

static void string_list(FILE *fp, const json_t *arr, const char *cls)
{
    size_t i;
    json_t *v;

    fprintf(fp, "<ul class=\"%s\">\n", cls);
    json_array_foreach(arr, i, v)
    {
        fputs("<li>", fp);
        esc(fp, json_string_value(v));
        fputs("</li>\n", fp);
    }
    fputs("</ul>\n", fp);
}

/* Histogram bars (log2 buckets as given) and inline-limit lines. */
static void chart_sizes(FILE *fp, const json_t *sizes, const json_t *limits)
{
    const json_t *hist = json_object_get(sizes, "histogram");
    const double W = 900, H = 300, L = 60, R = 20, T = 20, B = 50;
    double xmax = 0, ymax = 0, prev = 0;
    size_t i, n = json_array_size(hist);
    json_t *b;

    if (n == 0)
        return;
    json_array_foreach(hist, i, b)
    {
        if (num(b, "le") > xmax)
            xmax = num(b, "le");
        if (num(b, "count") > ymax)
            ymax = num(b, "count");
    }
    json_array_foreach(limits, i, b) if (num(b, "inline_limit") > xmax) xmax =
        num(b, "inline_limit") * 1.05;
    if (xmax <= 0 || ymax <= 0)
        return;
    fprintf(fp,
            "<svg id=\"chart-sizes\" role=\"img\" width=\"%.0f\" "
            "height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\">\n"
            "<title>object size distribution with inline limits</title>\n",
            W, H, W, H);
    fprintf(fp,
            "<line x1=\"%.0f\" y1=\"%.0f\" x2=\"%.0f\" y2=\"%.0f\" "
            "stroke=\"#444\"/>\n",
            L, H - B, W - R, H - B);
    fprintf(fp,
            "<line x1=\"%.0f\" y1=\"%.0f\" x2=\"%.0f\" y2=\"%.0f\" "
            "stroke=\"#444\"/>\n",
            L, T, L, H - B);
    json_array_foreach(hist, i, b)
    {
        double le = num(b, "le"), c = num(b, "count");
        double x0 = L + (prev / xmax) * (W - L - R);
        double x1 = L + (le / xmax) * (W - L - R);
        double h = (c / ymax) * (H - T - B);
        if (x1 - x0 < 1)
            x1 = x0 + 1;
        fprintf(fp,
                "<rect class=\"bar\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
                "height=\"%.1f\" fill=\"#9ab\"><title>&le; %.0f bytes: %.0f "
                "objects</title></rect>\n",
                x0, H - B - h, x1 - x0 - 0.5 > 0.5 ? x1 - x0 - 0.5 : 0.5, h, le,
                c);
        prev = le;
    }
    json_array_foreach(limits, i, b)
    {
        double lim = num(b, "inline_limit");
        double x = L + (lim / xmax) * (W - L - R);
        const char *col = palette[i % N_PALETTE];
        const char *label = json_string_value(json_object_get(b, "label"));
        fprintf(fp,
                "<line class=\"limit\" x1=\"%.1f\" y1=\"%.0f\" x2=\"%.1f\" "
                "y2=\"%.0f\" stroke=\"%s\" stroke-width=\"2\" "
                "stroke-dasharray=\"6 3\"/>\n"
                "<text x=\"%.1f\" y=\"%.0f\" fill=\"%s\">%.0fK page",
                x, T, x, H - B, col, x + 3, T + 12 + 13.0 * (double)i, col,
                num(b, "page_size") / 1024);
        if (label) {
            fputs(", ", fp);
            esc(fp, label); /* e.g. the recommended toast_tuple_target */
        }
        fprintf(fp, ": inline &le; %.0f B</text>\n", lim);
    }
    for (int k = 0; k <= 4; k++) {
        double v = xmax * k / 4;
        fprintf(fp,
                "<text x=\"%.0f\" y=\"%.0f\" text-anchor=\"middle\">%.0f"
                "</text>\n",
                L + (W - L - R) * k / 4, H - B + 16, v);
    }
    fprintf(fp,
            "<text x=\"%.0f\" y=\"%.0f\" text-anchor=\"middle\">object size "
            "(bytes)</text>\n<text x=\"12\" y=\"%.0f\" "
            "transform=\"rotate(-90 12 %.0f)\" text-anchor=\"middle\">"
            "objects</text>\n</svg>\n",
            (W + L) / 2, H - 10, (H - B + T) / 2, (H - B + T) / 2);
}

/* Hit ratio against buffer-pool bytes, one polyline per page size. */
static void chart_mrc(FILE *fp, const json_t *mrc)
{
    const double W = 900, H = 320, L = 60, R = 160, T = 20, B = 50;
    double xmax = 0;
    size_t i, j;
    json_t *curve, *pt;

    json_array_foreach(mrc, i, curve)
    {
        double ps = num(curve, "page_size");
        json_array_foreach(json_object_get(curve, "points"), j, pt)
        {
            double x = num(pt, "pages") * ps;
            if (x > xmax)
                xmax = x;
        }
    }
    if (xmax <= 0)
        return;
    fprintf(fp,
            "<svg id=\"chart-mrc\" role=\"img\" width=\"%.0f\" "
            "height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\">\n"
            "<title>buffer-pool hit ratio by pool size and page "
            "size</title>\n",
            W, H, W, H);
    fprintf(fp,
            "<line x1=\"%.0f\" y1=\"%.0f\" x2=\"%.0f\" y2=\"%.0f\" "
            "stroke=\"#444\"/><line x1=\"%.0f\" y1=\"%.0f\" x2=\"%.0f\" "
            "y2=\"%.0f\" stroke=\"#444\"/>\n",
            L, H - B, W - R, H - B, L, T, L, H - B);
    for (int k = 0; k <= 4; k++) {
        char b[32];
        fmt_bytes(xmax * k / 4, b, sizeof(b));
        fprintf(fp,
                "<text x=\"%.0f\" y=\"%.0f\" text-anchor=\"middle\">%s"
                "</text>\n<text x=\"%.0f\" y=\"%.0f\" "
                "text-anchor=\"end\">%d%%</text>\n",
                L + (W - L - R) * k / 4, H - B + 16, b, L - 4,
                H - B - (H - T - B) * k / 4 + 4, k * 25);
    }
    json_array_foreach(mrc, i, curve)
    {
        double ps = num(curve, "page_size");
        const char *col = palette[i % N_PALETTE];
        fprintf(fp,
                "<polyline class=\"curve\" fill=\"none\" stroke=\"%s\" "
                "stroke-width=\"2\" points=\"",
                col);
        json_array_foreach(json_object_get(curve, "points"), j, pt)
        {
            double x = L + (num(pt, "pages") * ps / xmax) * (W - L - R);
            double hr = num(pt, "hit_ratio");
            double y;
            if (!isfinite(hr))
                continue;
            if (hr > 1.0) /* percent */
                hr /= 100.0;
            y = H - B - hr * (H - T - B);
            fprintf(fp, "%.1f,%.1f ", x, y);
        }
        fprintf(fp,
                "\"/>\n<text x=\"%.0f\" y=\"%.0f\" fill=\"%s\">%.0fK "
                "pages</text>\n",
                W - R + 10, T + 14 + 16.0 * (double)i, col, ps / 1024);
    }
    fprintf(fp,
            "<text x=\"%.0f\" y=\"%.0f\" text-anchor=\"middle\">buffer-pool "
            "memory (equal bytes across page sizes)</text>\n"
            "<text x=\"12\" y=\"%.0f\" transform=\"rotate(-90 12 %.0f)\" "
            "text-anchor=\"middle\">hit ratio</text>\n</svg>\n",
            (W - R + L) / 2, H - 10, (H - B + T) / 2, (H - B + T) / 2);
}

static void table_candidates(FILE *fp, const json_t *rec)
{
    const json_t *cands = json_object_get(rec, "candidates");
    double chosen = num(rec, "page_size");
    const char *keys[16];
    size_t nk = 0, i;
    const char *k;
    json_t *v, *c;

    if (json_array_size(cands) == 0)
        return;
    /* columns: the scalar keys of the first candidate, in its order */
    json_object_foreach(json_array_get(cands, 0), k, v)
    {
        if (nk < 16 &&
            (json_is_number(v) || json_is_string(v) || json_is_boolean(v)))
            keys[nk++] = k;
    }
    fputs("<table id=\"candidates\"><tr>", fp);
    for (i = 0; i < nk; i++) {
        fputs("<th>", fp);
        esc(fp, keys[i]);
        fputs("</th>", fp);
    }
    fputs("</tr>\n", fp);
    json_array_foreach(cands, i, c)
    {
        fprintf(fp, "<tr%s>",
                num(c, "page_size") == chosen ? " class=\"rec\"" : "");
        for (size_t j = 0; j < nk; j++) {
            fputs("<td>", fp);
            cell(fp, json_object_get(c, keys[j]));
            fputs("</td>", fp);
        }
        fputs("</tr>\n", fp);
    }
    fputs("</table>\n", fp);
}

static void table_comparison(FILE *fp, const json_t *cmp)
{
    size_t i, j;
    json_t *v, *row;

    fputs("<table id=\"comparison\"><tr><th class=\"l\"></th>", fp);
    json_array_foreach(json_object_get(cmp, "columns"), i, v)
    {
        fputs("<th>", fp);
        esc(fp, json_string_value(v));
        fputs("</th>", fp);
    }
    fputs("</tr>\n", fp);
    json_array_foreach(json_object_get(cmp, "rows"), i, row)
    {
        fputs("<tr><td class=\"l\">", fp);
        esc(fp, json_string_value(json_object_get(row, "label")));
        fputs("</td>", fp);
        json_array_foreach(json_object_get(row, "values"), j, v)
        {
            fputs("<td>", fp);
            cell(fp, v);
            fputs("</td>", fp);
        }
        fputs("</tr>\n", fp);
    }
    fputs("</table>\n", fp);
}

static void table_sizes(FILE *fp, const json_t *sizes)
{
    static const char *const keys[] = {"count", "min", "p50", "p90",
                                       "p95",   "p99", "max", "mean"};

    fputs("<table id=\"size-stats\"><tr>", fp);
    for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
        fprintf(fp, "<th>%s</th>", keys[i]);
    fputs("</tr><tr>", fp);
    for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
        fputs("<td>", fp);
        cell(fp, json_object_get(sizes, keys[i]));
        fputs("</td>", fp);
    }
    fputs("</tr></table>\n", fp);
}

int report_write_html(const json_t *model, FILE *fp, struct pt_err *err)
{
    const json_t *v, *rec = json_object_get(model, "recommendation");
    size_t i;
    json_t *f;

    if (!json_is_object(model))
        return err_set(err, PT_EINTERNAL, "report model is not an object");
    head(fp, model);
    if (json_array_size(v = json_object_get(model, "summary"))) {
        fputs("<h2>Summary</h2>\n<div class=\"summary\">", fp);
        string_list(fp, v, "summary");
        fputs("</div>\n", fp);
    }
    if (json_is_object(v = json_object_get(model, "sizes"))) {
        fputs("<h2>Object sizes and inline limits</h2>\n", fp);
        table_sizes(fp, v);
        chart_sizes(fp, v, json_object_get(model, "limits"));
        fputs("<p>Dashed lines: the largest object stored in the row at "
              "each page size. Objects to the right of a page size's line "
              "are stored out of line at that page size.</p>\n",
              fp);
    }
    if (json_array_size(v = json_object_get(model, "mrc"))) {
        fputs("<h2>Buffer-pool hit ratio by memory (simulated)</h2>\n", fp);
        chart_mrc(fp, v);
    }
    if (json_is_object(v = json_object_get(model, "comparison"))) {
        fputs("<h2>Current vs recommended</h2>\n", fp);
        table_comparison(fp, v);
    }
    if (json_is_object(rec)) {
        fputs("<h2>Candidates</h2>\n", fp);
        table_candidates(fp, rec);
        if (json_array_size(json_object_get(rec, "reasons"))) {
            fputs("<h3>Reasons</h3>\n", fp);
            string_list(fp, json_object_get(rec, "reasons"), "reasons");
        }
    }
    json_array_foreach(json_object_get(model, "files"), i, f)
    {
        fputs("<h2>", fp);
        esc(fp, json_string_value(json_object_get(f, "name")));
        fputs("</h2>\n<pre>", fp);
        esc(fp, json_string_value(json_object_get(f, "text")));
        fputs("</pre>\n", fp);
    }
    if (json_array_size(v = json_object_get(model, "assumptions"))) {
        fputs("<h2>Assumptions</h2>\n", fp);
        string_list(fp, v, "assumptions");
    }
    fputs("<p><small>Written by pagetune " PT_VERSION
          ". Self-contained: no scripts, no network.</small></p>\n"
          "</body></html>\n",
          fp);
    if (ferror(fp))
        return err_set(err, PT_EIO, "cannot write report: %s", strerror(errno));
    return 0;
}
