/* SPDX-License-Identifier: Apache-2.0 */
/*
 * report.c — report.html: one self-contained page (no network, no scripts)
 * laid out as a dashboard for a DBA. Top to bottom: the validation verdict
 * (the page's first heading) and the one action to take with its predicted
 * change; current vs recommended with a change column and better / worse
 * marks; the size distribution on a log-scale size axis with each page
 * size's inline limit; the buffer-pool hit-ratio curve per page size at
 * equal memory with the current and recommended pool marked; drift; the
 * reasons and candidates; the DDL; every assumption; date, version and
 * inputs. Charts are inline SVG with a viewBox (they scale to the column);
 * tables reflow into cards below 640 px; print styles target A4.
 *
 * It renders a report model (a JSON tree built by advise/, advise/model.c,
 * and handed over through adv_config.render_report) to a stream or a memory
 * buffer (report.h); it computes nothing beyond chart geometry and display
 * arithmetic (percent change between two shown values, pages x page size)
 * and never prints to the terminal. Neighbours: advise/model.c (the
 * model), cli/cmd_advise.c (plugs this renderer in), man/pagetune-advise.1
 * (REPORT).
 *
 * Model keys (all optional except title):
 *   title, subtitle, summary[] (strings), assumptions[] (strings),
 *   sizes {count, min, max, mean, p50, p90, p95, p99, histogram[{le,count}]},
 *   limits[{page_size, inline_limit, label?}],
 *   recommendation {page_size, candidates[…], reasons[…], bufferpool{…},
 *                   tablespace{…}, inputs{…}},
 *   mrc[{page_size, points[{pages, bytes?, hit_ratio}]}],
 *   comparison {columns[], rows[{label, values[], flags[]?, better?,
 *               change_text?, change_fact?}], notes[]?}
 *     flags[i] ("better" | "worse" | "same" | null) marks values[i]; the
 *     change column compares the last value with the first ("none" when
 *     the last is marked "same"), or shows change_text (the model's own
 *     figure, e.g. the replay's measured change) as the fact change_fact;
 *     better ("higher" | "lower") is said under the label; the note
 *     promising the marks is written only when a row has one; notes: the
 *     conditions each kind of row ran under, one paragraph each,
 *   files[{name, text}],
 *   verdict {word: "confirms" | "contradicts" | "inconclusive" |
 *            "not validated", text, validated_by?}
 *     the first heading; without it the heading says no verdict was given;
 *     a text that opens with "<word>:" is shown without it (the badge says
 *     the word); validated_by (which run decided it) is a line below,
 *   action {text, page_size, bufferpool_pages, bufferpool_name?,
 *           current_page_size?, current_bufferpool_pages?, destructive?[]}
 *     the one field of each page size and pool on the page (struct facts);
 *     bufferpool_name only for an engine with named pools (DB2),
 *     destructive: the steps of create.sql that destroy data, block the
 *     table or restart a server (strings), listed in the Action box; an
 *     empty list says there is none,
 *     without it: recommendation.page_size and recommendation.bufferpool
 *     (its name too),
 *     the current ones from recommendation.inputs.monitor {page_size,
 *     bufferpool_pages} (what the monitor window saw),
 *   predicted {req_per_s_change_pct, lo_pct, hi_pct,
 *              response_ms_change_pct, lo, hi, calibrated}
 *     percent changes, recommended vs current; lo_pct..hi_pct is the
 *     throughput range and lo..hi the response-time range,
 *   drift {items[{knob, current, recommended, current_text?,
 *          recommended_text?, current_fact?, recommended_fact?}]}
 *     (empty items: no drift); a *_text is shown for its value, as the
 *     fact *_fact when given,
 *   meta {generated_at, pagetune_version, inputs[] (strings)}
 *     without it: the time of writing, this binary's version and the
 *     files named in recommendation.inputs.
 * The current and recommended pools (action's pages x page size) are
 * marked on the hit-ratio chart, whose memory axis covers both. Page
 * sizes, pools and changes are written in core's one form (pt_fig_page,
 * pt_fig_pool, pt_fig_change_range), each in a <span class="fact"
 * data-fact="KEY"> (struct facts below; tests/tools/report_facts.py).
 */
#include "report/report.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/*
 * Page-size colours: Okabe-Ito's hues (colour-blind safe) darkened until
 * each has at least 4.5:1 contrast on the white chart (WCAG 2.1 AA for
 * text, 1.4.3: the tags over the limit lines are in these colours), so
 * lines and swatches have the 3:1 of graphics (1.4.11) too: blue 5.2,
 * ochre 4.6, green 4.7, pink 4.6, brick 7.0, indigo 12.2. Sky blue,
 * darkened, would be the first blue; brick and indigo take the last two
 * places. tests/tools/report_a11y.py computes the contrast of the page.
 */
static const char *const palette[] = {"#0072b2", "#9c6c00", "#008460",
                                      "#bb4d8a", "#a0322d", "#332288"};
#define N_PALETTE (sizeof(palette) / sizeof(palette[0]))

/* Chart text: 13 px in the SVG user space; ~0.62 em per glyph is the width
 * estimate used to keep tags apart (the layout test measures the truth). */
#define CHAR_W_PX 8.0
#define MAX_TAGS 16

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

static const char *str(const json_t *o, const char *key)
{
    return json_string_value(json_object_get(o, key));
}

/* An integer with thousands separators: "63,462" (core's pt_fig_count,
   after a sign; rounded as "%.0f" rounds). */
static void fmt_int(double d, char *buf, size_t len)
{
    double r = nearbyint(fabs(d));
    size_t o = d < 0 && len > 1;

    if (!len)
        return;
    if (o)
        buf[0] = '-';
    if (isfinite(r) && r < 1e19)
        pt_fig_count((uint64_t)r, buf + o, len - o);
    else
        snprintf(buf + o, len - o, "%.0f", r);
}

/* A page size as DBAs write it, "16K": core's one form (pt_fig_page). */
static void fmt_page(double ps, char *buf, size_t len)
{
    pt_fig_page(ps > 0 && isfinite(ps) ? (uint64_t)ps : 0, buf, len);
}

/*
 * The figures of the advice, each from one field of the model and written
 * in core's one form (figure.c) wherever it appears, every appearance
 * wrapped in <span class="fact" data-fact="KEY"> so that a reader (and
 * tests/tools/report_facts.py) can see they are the same figure:
 * page-size-current / -recommended (action.current_page_size, page_size),
 * pool-current / -recommended (action.current_bufferpool_pages x
 * current_page_size, bufferpool_pages x page_size), predicted-change and
 * predicted-response-change (predicted), measured-change (verdict.measured).
 */
struct facts {
    double cur_ps, rec_ps, cur_pages, rec_pages; /* NaN: not known */
    double cur_bytes, rec_bytes;                 /* pages x page size */
    const char *pool_name; /* action.bufferpool_name: a named pool (DB2) */
    char page_cur[32], page_rec[32], pool_cur[96], pool_rec[96];
};

static void fact(FILE *fp, const char *key, const char *text)
{
    fprintf(fp, "<span class=\"fact\" data-fact=\"%s\">", key);
    esc(fp, text);
    fputs("</span>", fp);
}

/* A JSON scalar as text for a table cell. */
static void cell(FILE *fp, const json_t *v)
{
    char buf[64];

    if (json_is_string(v))
        esc(fp, json_string_value(v));
    else if (json_is_number(v)) {
        double d = json_number_value(v);
        if (d == floor(d) || fabs(d) >= 1000)
            fmt_int(d, buf, sizeof(buf));
        else
            snprintf(buf, sizeof(buf), "%.4g", d);
        fputs(buf, fp);
    } else if (json_is_boolean(v))
        fputs(json_is_true(v) ? "yes" : "no", fp);
    else
        fputs("&ndash;", fp);
}

/* A step of 1, 2 or 5 x 10^k giving about n intervals over range. */
static double nice_step(double range, int n)
{
    double raw = range / n, mag, f;

    if (!(raw > 0))
        return 1;
    mag = pow(10, floor(log10(raw)));
    f = raw / mag;
    return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * mag;
}

/*
 * Tags (short labels over vertical marker lines) placed so they never
 * overlap: sorted by x, each goes to the first row whose last tag ends
 * left of it, centred on its line but kept inside [xmin, xmax]. Sets
 * left[i] and row[i]; returns the number of rows used.
 */
static int tags_place(const double *x, const double *w, size_t n, double xmin,
                      double xmax, double *left, int *row)
{
    size_t order[MAX_TAGS], i, j;
    double row_end[MAX_TAGS];
    int rows = 0;

    for (i = 0; i < n; i++)
        order[i] = i;
    for (i = 1; i < n; i++) /* insertion sort by x */
        for (j = i; j > 0 && x[order[j]] < x[order[j - 1]]; j--) {
            size_t t = order[j];
            order[j] = order[j - 1];
            order[j - 1] = t;
        }
    for (i = 0; i < n; i++) {
        size_t k = order[i];
        double l = x[k] - w[k] / 2;
        int r;
        if (l + w[k] > xmax)
            l = xmax - w[k];
        if (l < xmin)
            l = xmin;
        for (r = 0; r < rows && row_end[r] + 6 > l; r++)
            ;
        if (r == rows)
            rows++;
        row_end[r] = l + w[k];
        left[k] = l;
        row[k] = r;
    }
    return rows;
}

static void svg_line(FILE *fp, double x1, double y1, double x2, double y2,
                     const char *attrs)
{
    fprintf(fp, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" %s/>\n",
            x1, y1, x2, y2, attrs);
}

static void svg_text(FILE *fp, double x, double y, const char *anchor,
                     const char *cls, const char *text)
{
    fprintf(fp, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\"%s%s%s>", x, y,
            anchor, cls ? " class=\"" : "", cls ? cls : "", cls ? "\"" : "");
    esc(fp, text);
    fputs("</text>\n", fp);
}

/* Axis titles: x centred under the plot, y rotated along the left edge. */
static void svg_axis_titles(FILE *fp, double W, double H, double L, double R,
                            double T, double B, const char *xt, const char *yt)
{
    svg_text(fp, L + (W - L - R) / 2, H - 8, "middle", "axis", xt);
    fprintf(fp,
            "<text x=\"14\" y=\"%.1f\" text-anchor=\"middle\" class=\"axis\" "
            "transform=\"rotate(-90 14 %.1f)\">",
            T + (H - T - B) / 2, T + (H - T - B) / 2);
    esc(fp, yt);
    fputs("</text>\n", fp);
}

static void head(FILE *fp, const json_t *model)
{
    const char *title = str(model, "title");

    fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
          "<meta name=\"viewport\" content=\"width=device-width, "
          "initial-scale=1\">\n<title>",
          fp);
    esc(fp, title ? title : "pagetune report");
    /* Layout: CSS grid (auto-fit columns) and a 640 px breakpoint below
     * which tables become one card per row; @page / @media print for A4
     * (CSS Paged Media Module Level 3, "size" and "margin" of @page; CSS
     * Color Adjustment Level 1, print-color-adjust keeps the tiles' and
     * marks' backgrounds in print). */
    /* flag-ok: CSS custom properties */
    fputs("</title>\n<style>\n"
          ":root{--fg:#1d2430;--mut:#566070;--line:#d5dae1;--bg2:#f4f6f9;"
          "--good:#1a7f37;--bad:#b42318;--warn:#8a5a00}\n"
          "*{box-sizing:border-box}\n"
          "body{font:15px/1.5 system-ui,-apple-system,'Segoe UI',sans-serif;"
          "color:var(--fg);margin:0 auto;max-width:1200px;padding:1rem}\n"
          "p,li,h1,h2,figcaption{overflow-wrap:anywhere}\n"
          ".kicker{color:var(--mut);margin:0;font-size:.9em}\n"
          "h1{font-size:1.45em;line-height:1.3;margin:.3em 0 .5em}\n"
          ".badge{display:inline-block;padding:0 .45em;border:2px solid;"
          "border-radius:.3em;margin-right:.35em;white-space:nowrap}\n"
          ".v-confirms .badge{color:var(--good)}"
          ".v-contradicts .badge{color:var(--bad)}"
          ".v-inconclusive .badge{color:var(--warn)}"
          ".v-not-validated .badge,.v-none .badge{color:var(--mut)}\n"
          "h2{font-size:1.2em;border-bottom:1px solid var(--line);"
          "padding-bottom:.2em;margin:1.8em 0 .6em}\n"
          ".action{border-left:5px solid #0072b2;background:#eef4fb;"
          "padding:.6em 1em;font-size:1.1em;margin:.5em 0}"
          ".action p{margin:0}.action ul{margin:.3em 0 0;padding-left:1.2em;"
          "font-size:.9em}\n"
          ".tiles{display:grid;grid-template-columns:repeat(auto-fit,"
          "minmax(min(100%,160px),1fr));gap:.7em;margin:.8em 0}\n"
          ".tile{border:1px solid var(--line);border-radius:.5em;"
          "padding:.6em .9em;background:var(--bg2);min-width:0;"
          "overflow-wrap:anywhere}\n"
          ".tile .k{color:var(--mut);font-size:.85em}"
          ".tile .v{font-size:1.4em;font-weight:600;line-height:1.3}"
          ".tile .s{font-size:.85em;color:var(--mut)}\n"
          ".brief{margin:.5em 0;padding-left:1.2em}\n"
          ".charts{display:grid;grid-template-columns:repeat(auto-fit,"
          "minmax(min(100%,460px),1fr));gap:1.5em}\n"
          "figure{margin:0;min-width:0}figcaption{font-size:.9em;"
          "color:var(--mut)}\n"
          "svg.chart{display:block;width:100%;height:auto;background:#fff}\n"
          "svg text{font-family:system-ui,sans-serif;font-size:13px;"
          "fill:#333}svg text.axis{font-weight:600}\n"
          ".legend{list-style:none;padding:0;margin:.4em 0;display:flex;"
          "flex-wrap:wrap;gap:.2em 1.2em;font-size:.9em}\n"
          ".sw{display:inline-block;width:1.8em;height:0;border-top:3px solid;"
          "vertical-align:middle;margin-right:.4em}.sw.dash{border-top-style:"
          "dashed}.sw.dot{border-top-style:dotted}\n"
          ".scroll{overflow-x:auto;max-width:100%}\n"
          "table{border-collapse:collapse;margin:.5em 0;"
          "font-variant-numeric:tabular-nums}\n"
          "td,th{border:1px solid var(--line);padding:.3em .6em;"
          "text-align:right;vertical-align:top}td{white-space:nowrap}\n"
          "th{background:var(--bg2);font-weight:600}"
          "td.l,th.l{text-align:left;white-space:normal}\n"
          "tr.rec td{background:#eef7ee;font-weight:600}\n"
          ".mk{white-space:nowrap;font-weight:600;margin-left:.3em}"
          ".mk.better{color:var(--good)}.mk.worse{color:var(--bad)}"
          ".mk.same{color:var(--mut)}td .mk.own{display:block;margin:0}"
          "td .dir{display:block;font-size:.85em;font-weight:400;"
          "color:var(--mut)}\n",
          fp);
    /* two literals: C99 promises 4095 bytes in one */
    fputs("pre{background:var(--bg2);border:1px solid var(--line);"
          "padding:.8em;font-size:12px;white-space:pre-wrap;"
          "overflow-wrap:anywhere}\n"
          ".stats{display:grid;grid-template-columns:repeat(auto-fit,"
          "minmax(7.5em,1fr));gap:.4em;margin:.6em 0}\n"
          ".stats div{border:1px solid var(--line);border-radius:.4em;"
          "padding:.25em .6em}.stats dt{color:var(--mut);font-size:.85em}"
          ".stats dd{margin:0;font-weight:600;"
          "font-variant-numeric:tabular-nums}\n"
          "footer{margin-top:2em;border-top:1px solid var(--line);"
          "color:var(--mut);font-size:.9em}\n"
          "@media (max-width:640px){\n"
          "table.reflow,table.reflow tbody,table.reflow tr{display:block}\n"
          "table.reflow thead{display:none}\n"
          "table.reflow tr{border:1px solid var(--line);border-radius:.4em;"
          "margin:.6em 0}\n"
          "table.reflow td{display:flex;justify-content:space-between;"
          "gap:1em;border:0;border-top:1px solid var(--line);"
          "white-space:normal}\n"
          "table.reflow td:first-child{border-top:0}\n"
          "table.reflow td::before{content:attr(data-label);"
          "color:var(--mut);font-weight:400;text-align:left}\n"
          "table.reflow td.l{display:block;background:var(--bg2);"
          "font-weight:600}table.reflow td.l::before{content:none}\n"
          "}\n"
          "@page{size:A4;margin:12mm}\n"
          "@media print{\n"
          "body{font-size:10pt;max-width:none;padding:0}\n"
          "h2{break-after:avoid}figure,table,tr,.tiles,.tile{"
          "break-inside:avoid}\n"
          "svg.chart{max-width:125mm;margin:0 auto}\n"
          ".scroll{overflow:visible}\n"
          "pre{font-size:8pt}\n"
          "table{font-size:8pt}td,th{padding:.2em .4em}\n"
          "*{-webkit-print-color-adjust:exact;print-color-adjust:exact}\n"
          "}\n"
          "</style></head><body>\n",
          fp);
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

/* ---- the top: verdict, action, predicted change ------------------------ */

static const struct verdict_style {
    const char *word;   /* model word */
    const char *cls;    /* CSS class (colour) */
    const char *symbol; /* the mark that does not rely on colour */
} verdicts[] = {
    {"confirms", "v-confirms", "&#10003;"},
    {"contradicts", "v-contradicts", "&#10007;"},
    {"inconclusive", "v-inconclusive", "?"},
    {"not validated", "v-not-validated", "&ndash;"},
};

static void top_verdict(FILE *fp, const json_t *model)
{
    const json_t *v = json_object_get(model, "verdict");
    const char *word = str(v, "word"), *text = str(v, "text");
    const struct verdict_style *st = NULL;

    for (size_t i = 0; word && i < sizeof(verdicts) / sizeof(verdicts[0]); i++)
        if (strcmp(word, verdicts[i].word) == 0)
            st = &verdicts[i];
    fprintf(fp, "<h1 id=\"verdict\" class=\"%s\" data-verdict=\"",
            st ? st->cls : "v-none");
    esc(fp, st ? st->word : "none");
    fprintf(fp, "\"><span class=\"badge\">%s ", st ? st->symbol : "&ndash;");
    esc(fp, st ? st->word : "no verdict");
    fputs("</span> ", fp);
    /* the badge says the word: a text that opens with it does not repeat it
     * ("confirms: measured ..." reads "measured ...") */
    if (text && st && strncmp(text, st->word, strlen(st->word)) == 0 &&
        text[strlen(st->word)] == ':')
        text += strlen(st->word) + 1 + (text[strlen(st->word) + 1] == ' ');
    if (text)
        esc(fp, text);
    else if (!st)
        fputs("the validation recorded none; compare current and "
              "recommended below",
              fp);
    fputs("</h1>\n", fp);
    if (str(v, "validated_by")) {
        fputs("<p id=\"validated-by\">", fp);
        esc(fp, str(v, "validated_by"));
        fputs("</p>\n", fp);
    }
}

/* What the monitor window saw: the database's current page size and pool
 * (recommendation.inputs.monitor), the fallback for action and pools. */
static const json_t *monitored(const json_t *model)
{
    return json_object_get(
        json_object_get(json_object_get(model, "recommendation"), "inputs"),
        "monitor");
}

static void tile(FILE *fp, const char *key, const char *value, const char *sub)
{
    fputs("<div class=\"tile\"><div class=\"k\">", fp);
    esc(fp, key);
    fprintf(fp, "</div><div class=\"v\">%s</div>", value);
    if (sub)
        fprintf(fp, "<div class=\"s\">%s</div>", sub);
    fputs("</div>\n", fp);
}

/* A tile's key and the opening of its value; tile_sub() and tile_end()
 * close it, so a value or a line below can hold fact spans. */
static void tile_begin(FILE *fp, const char *key)
{
    fputs("<div class=\"tile\"><div class=\"k\">", fp);
    esc(fp, key);
    fputs("</div><div class=\"v\">", fp);
}

static void tile_sub(FILE *fp)
{
    fputs("</div><div class=\"s\">", fp);
}

static void tile_end(FILE *fp)
{
    fputs("</div></div>\n", fp);
}

/* A predicted change: "▲ +12.0 % [+4.0, +21.0]" (the range when
 * calibrated), the way that is better below. */
static void tile_change(FILE *fp, const char *key, const char *fact_key,
                        double pct, double lo, double hi,
                        const char *better_when)
{
    char v[96];

    if (!isfinite(pct))
        return;
    tile_begin(fp, key);
    fputs(pct > 0 ? "&#9650; " : pct < 0 ? "&#9660; " : "", fp);
    fact(fp, fact_key, pt_fig_change_range(pct, lo, hi, v, sizeof(v)));
    tile_sub(fp);
    fprintf(fp, "%s is better", better_when);
    tile_end(fp);
}

/* What applying create.sql destroys, blocks or restarts (action.destructive):
 * nothing without the key, a line saying there is nothing for an empty list */
static void action_steps(FILE *fp, const json_t *steps)
{
    if (!json_is_array(steps))
        return;
    if (json_array_size(steps) == 0) {
        fputs("<p class=\"destructive\">create.sql drops no data, rewrites or "
              "locks no table and restarts no server.</p>\n",
              fp);
        return;
    }
    fputs("<p><strong>Applying create.sql:</strong></p>\n", fp);
    string_list(fp, steps, "destructive");
}

/* The page sizes and pools: action's fields, else the recommendation's
 * bufferpool and what the monitor window saw (recommendation.inputs). */
static void facts_read(struct facts *f, const json_t *model)
{
    const json_t *act = json_object_get(model, "action");
    const json_t *rec = json_object_get(model, "recommendation");
    const json_t *bp = json_object_get(rec, "bufferpool");
    const json_t *mon = monitored(model);

    memset(f, 0, sizeof(*f));
    f->rec_ps = num(act, "page_size");
    f->rec_pages = num(act, "bufferpool_pages");
    f->cur_ps = num(act, "current_page_size");
    f->cur_pages = num(act, "current_bufferpool_pages");
    f->pool_name = act ? str(act, "bufferpool_name") : str(bp, "name");
    if (!isfinite(f->rec_ps))
        f->rec_ps = num(rec, "page_size");
    if (!isfinite(f->rec_pages))
        f->rec_pages = num(bp, "pages");
    if (!isfinite(f->cur_ps) && num(mon, "page_size") > 0)
        f->cur_ps = num(mon, "page_size");
    if (!isfinite(f->cur_pages) && num(mon, "bufferpool_pages") > 0)
        f->cur_pages = num(mon, "bufferpool_pages");
    if (!(f->cur_pages > 0)) /* 0: the pool was not read */
        f->cur_pages = NAN;
    f->rec_bytes = f->rec_pages * f->rec_ps;
    f->cur_bytes = f->cur_pages * f->cur_ps;
    if (isfinite(f->rec_ps))
        fmt_page(f->rec_ps, f->page_rec, sizeof(f->page_rec));
    if (isfinite(f->cur_ps))
        fmt_page(f->cur_ps, f->page_cur, sizeof(f->page_cur));
    if (isfinite(f->rec_bytes))
        pt_fig_pool((uint64_t)f->rec_pages, (uint64_t)f->rec_ps, f->pool_rec,
                    sizeof(f->pool_rec));
    if (isfinite(f->cur_bytes))
        pt_fig_pool((uint64_t)f->cur_pages, (uint64_t)f->cur_ps, f->pool_cur,
                    sizeof(f->pool_cur));
}

/* "use 16K pages and buffer pool SESSBP16K: 1,000 pages of 16K (15.6M)" */
static void action_line(FILE *fp, const json_t *act, const json_t *knob,
                        const struct facts *f)
{
    fputs("<div class=\"action\" id=\"action\"><p><strong>Action:</strong> ",
          fp);
    if (str(act, "text"))
        esc(fp, str(act, "text"));
    else if (f->page_rec[0]) {
        fputs(f->cur_ps == f->rec_ps ? "keep " : "use ", fp);
        fact(fp, "page-size-recommended", f->page_rec);
        fputs(" pages", fp);
        if (knob) {
            fputs(", set ", fp);
            esc(fp, str(knob, "name"));
            fprintf(fp, " to %.0f", num(knob, "value")); /* as typed */
        }
        if (f->pool_rec[0]) {
            if (f->pool_name) {
                fputs(" and buffer pool ", fp);
                esc(fp, f->pool_name);
                fputs(": ", fp);
            } else
                fputs(" and a buffer pool of ", fp);
            fact(fp, "pool-recommended", f->pool_rec);
        }
        fputs("; review create.sql below before running it", fp);
    } else
        fputs("none recommended", fp);
    fputs("</p>\n", fp);
    action_steps(fp, json_object_get(act, "destructive"));
    fputs("</div>\n", fp);
}

/* the inline knob the recommendation sets, as a tile */
static void tile_knob(FILE *fp, const json_t *knob)
{
    tile_begin(fp, str(knob, "name"));
    fprintf(fp, "%.0f", num(knob, "value"));
    if (isfinite(num(knob, "default"))) {
        tile_sub(fp);
        fprintf(fp, "default %.0f", num(knob, "default"));
    }
    tile_end(fp);
}

static void top_action(FILE *fp, const json_t *model, const struct facts *f)
{
    const json_t *act = json_object_get(model, "action");
    const json_t *rec = json_object_get(model, "recommendation");
    const json_t *pr = json_object_get(model, "predicted");
    const json_t *knob = json_object_get(rec, "inline_knob");

    if (!json_is_true(json_object_get(knob, "pays")) || !str(knob, "name"))
        knob = NULL; /* only a knob the recommendation sets */
    action_line(fp, act, knob, f);
    fputs("<div class=\"tiles\">\n", fp);
    if (f->page_rec[0]) {
        tile_begin(fp, "Page size");
        fact(fp, "page-size-recommended", f->page_rec);
        if (f->page_cur[0]) {
            tile_sub(fp);
            fputs(f->cur_ps == f->rec_ps ? "unchanged (" : "", fp);
            fact(fp, "page-size-current", f->page_cur);
            fputs(f->cur_ps == f->rec_ps ? " now)" : " now", fp);
        }
        tile_end(fp);
    }
    if (knob)
        tile_knob(fp, knob);
    if (f->pool_rec[0]) {
        tile_begin(fp, "Buffer pool");
        fact(fp, "pool-recommended", f->pool_rec);
        if (f->pool_cur[0]) {
            tile_sub(fp);
            fputs("currently ", fp);
            fact(fp, "pool-current", f->pool_cur);
        }
        tile_end(fp);
    }
    if (json_is_object(pr)) {
        tile_change(fp, "Predicted requests per second", "predicted-change",
                    num(pr, "req_per_s_change_pct"), num(pr, "lo_pct"),
                    num(pr, "hi_pct"), "higher");
        tile_change(fp, "Predicted response time", "predicted-response-change",
                    num(pr, "response_ms_change_pct"), num(pr, "lo"),
                    num(pr, "hi"), "lower");
        if (json_is_boolean(json_object_get(pr, "calibrated")))
            tile(fp, "Prediction",
                 json_is_true(json_object_get(pr, "calibrated"))
                     ? "&#10003; calibrated"
                     : "&ndash; not calibrated",
                 json_is_true(json_object_get(pr, "calibrated"))
                     ? "model fitted to measurements of this system"
                     : "model defaults; treat the range as a guess");
    }
    fputs("</div>\n", fp);
}

/* ---- current vs recommended -------------------------------------------- */

static void mark(FILE *fp, const char *flag)
{
    if (!flag)
        return;
    if (strcmp(flag, "better") == 0)
        fputs("<span class=\"mk better\">&#10003; better</span>", fp);
    else if (strcmp(flag, "worse") == 0)
        fputs("<span class=\"mk worse\">&#10007; worse</span>", fp);
    else if (strcmp(flag, "same") == 0)
        fputs("<span class=\"mk same\">= same</span>", fp);
}

static void table_comparison(FILE *fp, const json_t *cmp)
{
    const json_t *cols = json_object_get(cmp, "columns");
    size_t i, j, n = json_array_size(cols);
    json_t *v, *row;
    int marked = 0; /* a row carries a mark: the note promises them */

    fputs("<div class=\"scroll\"><table id=\"comparison\" class=\"reflow\">"
          "<thead><tr><th class=\"l\">Measure</th>",
          fp);
    json_array_foreach(cols, i, v)
    {
        fputs("<th>", fp);
        esc(fp, json_string_value(v));
        fputs("</th>", fp);
    }
    fputs("<th>Change</th></tr></thead>\n<tbody>\n", fp);
    json_array_foreach(json_object_get(cmp, "rows"), i, row)
    {
        const json_t *vals = json_object_get(row, "values");
        const json_t *flags = json_object_get(row, "flags");
        const char *last = json_string_value(json_array_get(flags, n - 1));
        double x = json_number_value(json_array_get(vals, 0));
        double y = json_number_value(json_array_get(vals, n ? n - 1 : 0));
        char buf[64];

        for (j = 0; j < json_array_size(flags); j++)
            marked |= json_is_string(json_array_get(flags, j));
        fputs("<tr><td class=\"l\">", fp);
        esc(fp, str(row, "label"));
        if (str(row, "better")) {
            fputs("<span class=\"dir\">", fp);
            esc(fp, str(row, "better"));
            fputs(" is better</span>", fp);
        }
        fputs("</td>", fp);
        for (j = 0; j < n; j++) {
            fputs("<td data-label=\"", fp);
            esc(fp, json_string_value(json_array_get(cols, j)));
            fputs("\">", fp);
            fputs("<span>", fp); /* value and mark stay together */
            cell(fp, json_array_get(vals, j));
            mark(fp, json_string_value(json_array_get(flags, j)));
            fputs("</span></td>", fp);
        }
        fputs("<td data-label=\"Change\">", fp);
        if (str(row, "change_text")) {
            /* the model's own figure for the change (the replay's measured
             * change, a mean over paired rounds, not y / x - 1); its sign
             * gives the arrow */
            const char *ct = str(row, "change_text");
            fputs(ct[0] == '+'   ? "&#9650; "
                  : ct[0] == '-' ? "&#9660; "
                                 : "",
                  fp);
            fact(fp, str(row, "change_fact") ? str(row, "change_fact") : "",
                 ct);
        } else if (n < 2 || !json_is_number(json_array_get(vals, 0)) ||
                   !json_is_number(json_array_get(vals, n - 1)))
            fputs("&ndash;", fp);
        else if (x == y || (last && strcmp(last, "same") == 0))
            fputs("none", fp);
        else if (x != 0) {
            pt_fig_change((y / x - 1) * 100, buf, sizeof(buf));
            fprintf(fp, "%s %s", y > x ? "&#9650;" : "&#9660;", buf);
        } else {
            fputs(y > x ? "&#9650; +" : "&#9660; &minus;", fp);
            cell(fp, json_array_get(vals, n - 1));
        }
        fputs("</td></tr>\n", fp);
    }
    fputs("</tbody></table></div>\n", fp);
    fputs("<p class=\"note\">Change: the last column against the first "
          "(&#9650; up, &#9660; down).",
          fp);
    if (marked)
        fputs(" &#10003; better and &#10007; worse mark what the advice "
              "improves or costs; = same, a change that rounds to none.",
              fp);
    fputs("</p>\n", fp);
    /* the conditions each kind of row was measured under */
    json_array_foreach(json_object_get(cmp, "notes"), i, v)
    {
        fputs("<p class=\"note condition\">", fp);
        esc(fp, json_string_value(v));
        fputs("</p>\n", fp);
    }
}

/* ---- size distribution -------------------------------------------------- */

static void fmt_size_tick(double b, char *buf, size_t len)
{
    if (b < 1024)
        snprintf(buf, len, "%.0f B", b);
    else if (b < 1024.0 * 1024)
        snprintf(buf, len, "%.0f KiB", b / 1024);
    else
        snprintf(buf, len, "%.0f MiB", b / (1024.0 * 1024));
}

/* A chart's frame: the SVG box, the plot's margins and its marker tags. */
struct chart_frame {
    double W, H, L, R, T, B; /* box width and height, margins */
    double pw, ph;           /* plot width and height */
    size_t n_tags;
    double tx[MAX_TAGS], tw[MAX_TAGS]; /* a tag's line x and its width */
    double tl[MAX_TAGS];               /* its left edge, from tags_place() */
    int trow[MAX_TAGS];                /* its row above the plot */
};

/* place the tags in rows above the plot, then size the box around them */
static void frame_place_tags(struct chart_frame *f, double tag_top,
                             double plot_h)
{
    int rows =
        tags_place(f->tx, f->tw, f->n_tags, f->L, f->W - f->R, f->tl, f->trow);

    f->T = tag_top + 17.0 * rows;
    f->H = f->T + plot_h + f->B;
    f->ph = f->H - f->T - f->B;
}

/* The size chart: its frame, log2 x range, count range and limit lines. */
struct size_chart {
    struct chart_frame f;
    double lo, hi, ymax, lx0, lx1, ystep, ytop;
    size_t nl;
    const json_t *lims[MAX_TAGS]; /* the limits that can be drawn */
    char tag[MAX_TAGS][24];
    int labelled_at_rec; /* a knob moves the recommended limit */
};

/* x of a size in bytes on the log2 axis */
static double sizes_x(const struct size_chart *sc, double v)
{
    return sc->f.L + (log2(v) - sc->lx0) / (sc->lx1 - sc->lx0) * sc->f.pw;
}

/* the drawable limits and the axes' ranges; -1 when there is nothing to draw */
static int sizes_scale(struct size_chart *sc, const json_t *hist,
                       const json_t *limits)
{
    size_t i;
    json_t *b;

    json_array_foreach(limits, i, b)
    {
        if (sc->nl < MAX_TAGS && num(b, "inline_limit") > 0)
            sc->lims[sc->nl++] = b;
    }
    json_array_foreach(hist, i, b)
    {
        double le = num(b, "le");
        if (i == 0 && le > 0)
            sc->lo = le / 2;
        if (le > sc->hi)
            sc->hi = le;
        if (num(b, "count") > sc->ymax)
            sc->ymax = num(b, "count");
    }
    for (i = 0; i < sc->nl; i++) {
        double lim = num(sc->lims[i], "inline_limit");
        if (lim > sc->hi)
            sc->hi = lim;
        if (lim < sc->lo)
            sc->lo = lim;
    }
    if (!(sc->hi > 0) || !isfinite(sc->lo) || !(sc->ymax > 0))
        return -1;
    sc->lx0 = floor(log2(sc->lo));
    sc->lx1 = ceil(log2(sc->hi));
    if (sc->lx1 <= sc->lx0)
        sc->lx1 = sc->lx0 + 1;
    sc->f.pw = sc->f.W - sc->f.L - sc->f.R;
    return 0;
}

/* one tag per limit line ("16K", "*" when labelled), placed above the plot */
static void sizes_tags(struct size_chart *sc)
{
    char buf[64];

    for (size_t i = 0; i < sc->nl; i++) {
        const json_t *lim = sc->lims[i];
        fmt_page(num(lim, "page_size"), buf, sizeof(buf));
        snprintf(sc->tag[i], sizeof(sc->tag[i]), "%.20s%s", buf,
                 str(lim, "label") ? "*" : "");
        sc->f.tx[i] = sizes_x(sc, num(lim, "inline_limit"));
        sc->f.tw[i] = CHAR_W_PX * (double)strlen(sc->tag[i]) + 6;
    }
    sc->f.n_tags = sc->nl;
    frame_place_tags(&sc->f, 12, 210);
    sc->ystep = nice_step(sc->ymax, 4);
    sc->ytop = ceil(sc->ymax / sc->ystep) * sc->ystep;
}

/* one bar per histogram bucket, from the previous bucket's edge to its own */
static void sizes_bars(FILE *fp, const struct size_chart *sc,
                       const json_t *hist)
{
    const struct chart_frame *f = &sc->f;
    double prev = 0;
    char buf[64];
    size_t i;
    json_t *b;

    json_array_foreach(hist, i, b)
    {
        double le = num(b, "le"), c = num(b, "count");
        double from = i == 0 ? le / 2 : prev;
        double x0 = sizes_x(sc, from > 0 ? from : sc->lo), x1 = sizes_x(sc, le);
        double h = c / sc->ytop * f->ph;
        char fr[32], to[32];
        if (!(le > 0) || !(c >= 0)) /* not a bucket that can be drawn */
            continue;
        fmt_int(c, buf, sizeof(buf));
        fmt_size_tick(i == 0 ? 0 : prev, fr, sizeof(fr));
        fmt_size_tick(le, to, sizeof(to));
        fprintf(fp,
                "<rect class=\"bar\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
                "height=\"%.1f\" fill=\"#b9c9d9\" stroke=\"#5f7a94\">"
                "<title>%s%s%s: %s "
                "objects</title></rect>\n",
                x0 + 0.5, f->H - f->B - h, x1 - x0 - 1 > 1 ? x1 - x0 - 1 : 1, h,
                i == 0 ? "up to " : fr, i == 0 ? "" : " to ", to, buf);
        prev = le;
    }
}

/* a tick at every power of two, labelled where a "128 KiB" fits */
static void sizes_x_axis(FILE *fp, const struct size_chart *sc)
{
    const struct chart_frame *f = &sc->f;
    char buf[64];

    for (int k = (int)sc->lx0; k <= (int)sc->lx1; k++) {
        double x = sizes_x(sc, pow(2, k));
        int every = f->pw / (sc->lx1 - sc->lx0) < 8 * CHAR_W_PX ? 2 : 1;
        svg_line(fp, x, f->H - f->B, x, f->H - f->B + 4, "stroke=\"#444\"");
        if ((k - (int)sc->lx0) % every)
            continue;
        fmt_size_tick(pow(2, k), buf, sizeof(buf));
        svg_text(fp, x, f->H - f->B + 18,
                 k == (int)sc->lx0   ? "start"
                 : k == (int)sc->lx1 ? "end"
                                     : "middle",
                 NULL, buf);
    }
}

/* a dashed line and its tag per limit, the recommended one thicker */
static void sizes_limit_lines(FILE *fp, const struct size_chart *sc,
                              double rec_ps)
{
    const struct chart_frame *f = &sc->f;

    for (size_t i = 0; i < sc->nl; i++) {
        const json_t *lim = sc->lims[i];
        int rec = num(lim, "page_size") == rec_ps &&
                  (str(lim, "label") || !sc->labelled_at_rec);
        fprintf(fp,
                "<line class=\"limit\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
                "y2=\"%.1f\" stroke=\"%s\" stroke-width=\"%s\" "
                "stroke-dasharray=\"6 3\"/>\n",
                f->tx[i], f->T, f->tx[i], f->H - f->B, palette[i % N_PALETTE],
                rec ? "3" : "2");
        fprintf(fp,
                "<text class=\"tag\" x=\"%.1f\" y=\"%.1f\" "
                "style=\"fill:%s;font-weight:600\">",
                f->tl[i] + 3, 12 + 17.0 * f->trow[i], palette[i % N_PALETTE]);
        esc(fp, sc->tag[i]);
        fputs("</text>\n", fp);
    }
}

/* the HTML legend: each tag's page size, label and inline limit in full */
static void sizes_legend(FILE *fp, const struct size_chart *sc, double rec_ps)
{
    char buf[64];

    fputs("<ul class=\"legend\">\n", fp);
    for (size_t i = 0; i < sc->nl; i++) {
        const json_t *lim = sc->lims[i];
        fprintf(fp,
                "<li><span class=\"sw dash\" style=\"border-color:%s\">"
                "</span>",
                palette[i % N_PALETTE]);
        esc(fp, sc->tag[i]);
        fputs(" page", fp);
        if (str(lim, "label")) {
            fputs(", ", fp);
            esc(fp, str(lim, "label")); /* e.g. the recommended knob */
        }
        fmt_int(num(lim, "inline_limit"), buf, sizeof(buf));
        fprintf(fp, ": inline up to %s bytes%s</li>\n", buf,
                num(lim, "page_size") == rec_ps && !str(lim, "label") &&
                        !sc->labelled_at_rec
                    ? " (recommended)"
                    : "");
    }
    fputs("</ul>\n", fp);
}

/*
 * Histogram bars on a log2 size axis (the buckets double, so each is one
 * equal-width step; the first is drawn from half its upper edge), a count
 * axis with a scale, and one dashed line per inline limit. The lines carry
 * short tags placed by tags_place(); the full text is in the HTML legend.
 */
static void chart_sizes(FILE *fp, const json_t *sizes, const json_t *limits,
                        double rec_ps)
{
    const json_t *hist = json_object_get(sizes, "histogram");
    struct size_chart sc = {.f = {.W = 480, .L = 64, .R = 14, .B = 46},
                            .lo = INFINITY};
    const struct chart_frame *f = &sc.f;
    char buf[64];

    if (json_array_size(hist) == 0 || sizes_scale(&sc, hist, limits) < 0)
        return;
    sizes_tags(&sc);
    fprintf(fp,
            "<svg id=\"chart-sizes\" class=\"chart\" role=\"img\" "
            "viewBox=\"0 0 %.0f %.0f\" preserveAspectRatio=\"xMidYMid "
            "meet\">\n<title>object sizes (log scale) with each page size's "
            "inline limit</title>\n",
            f->W, f->H);
    for (double y = 0; y <= sc.ytop + sc.ystep / 2; y += sc.ystep) {
        double py = f->H - f->B - y / sc.ytop * f->ph;
        svg_line(fp, f->L, py, f->W - f->R, py,
                 "class=\"grid\" stroke=\"#e4e7ec\"");
        fmt_int(y, buf, sizeof(buf));
        svg_text(fp, f->L - 6, py + 4, "end", NULL, buf);
    }
    sizes_bars(fp, &sc, hist);
    svg_line(fp, f->L, f->H - f->B, f->W - f->R, f->H - f->B,
             "stroke=\"#444\"");
    svg_line(fp, f->L, f->T, f->L, f->H - f->B, "stroke=\"#444\"");
    sizes_x_axis(fp, &sc);
    for (size_t i = 0; i < sc.nl; i++)
        if (num(sc.lims[i], "page_size") == rec_ps && str(sc.lims[i], "label"))
            sc.labelled_at_rec = 1;
    sizes_limit_lines(fp, &sc, rec_ps);
    svg_axis_titles(fp, f->W, f->H, f->L, f->R, f->T, f->B,
                    "object size (log scale, each step doubles)", "objects");
    fputs("</svg>\n", fp);
    sizes_legend(fp, &sc, rec_ps);
}

/* The distribution's figures as small tiles: they reflow at any width. */
static void stats_sizes(FILE *fp, const json_t *sizes)
{
    static const struct {
        const char *key, *name;
    } stats[] = {{"count", "Objects"},       {"min", "Smallest"},
                 {"p50", "Median"},          {"p90", "90th percentile"},
                 {"p95", "95th percentile"}, {"p99", "99th percentile"},
                 {"max", "Largest"},         {"mean", "Mean"}};
    char buf[64];

    fputs("<dl class=\"stats\" id=\"size-stats\">\n", fp);
    for (size_t i = 0; i < sizeof(stats) / sizeof(stats[0]); i++) {
        double v = num(sizes, stats[i].key);
        fprintf(fp, "<div><dt>%s</dt><dd>", stats[i].name);
        if (!isfinite(v))
            fputs("&ndash;", fp);
        else {
            fmt_int(v, buf, sizeof(buf));
            fprintf(fp, "%s%s", buf, i == 0 ? "" : " B");
        }
        fputs("</dd></div>\n", fp);
    }
    fputs("</dl>\n", fp);
}

/* ---- hit-ratio curves --------------------------------------------------- */

/* The hit-ratio chart: its frame, memory axis and pool marker tags. */
struct mrc_chart {
    struct chart_frame f;
    double xmax, unit, step; /* axis end, tick unit and tick step in bytes */
    const char *unit_name;
    const char *tag[2]; /* "recommended", "current" */
};

/* x of a pool size in bytes */
static double mrc_x(const struct mrc_chart *mc, double v)
{
    return mc->f.L + v / mc->xmax * mc->f.pw;
}

/* a point's pool size: its "bytes", else its pages times the page size */
static double mrc_point_bytes(const json_t *pt, double ps)
{
    return isfinite(num(pt, "bytes")) ? num(pt, "bytes")
                                      : num(pt, "pages") * ps;
}

/* the memory axis past every curve and both pools; -1 when nothing to draw */
static int mrc_scale(struct mrc_chart *mc, const json_t *mrc, double cur_bytes,
                     double rec_bytes)
{
    size_t i, j;
    json_t *curve, *pt;

    json_array_foreach(mrc, i, curve)
    {
        double ps = num(curve, "page_size");
        json_array_foreach(json_object_get(curve, "points"), j, pt)
        {
            double x = mrc_point_bytes(pt, ps);
            if (x > mc->xmax)
                mc->xmax = x;
        }
    }
    if (cur_bytes * 1.08 > mc->xmax)
        mc->xmax = cur_bytes * 1.08;
    if (rec_bytes * 1.08 > mc->xmax)
        mc->xmax = rec_bytes * 1.08;
    if (!(mc->xmax > 0))
        return -1;
    for (int u = 0; u < 3 && mc->xmax / mc->unit >= 1024; u++) {
        mc->unit *= 1024;
        mc->unit_name = u == 0 ? "KiB" : u == 1 ? "MiB" : "GiB";
    }
    mc->step = nice_step(mc->xmax / mc->unit, 4) * mc->unit;
    mc->xmax = ceil(mc->xmax / mc->step) * mc->step;
    mc->f.pw = mc->f.W - mc->f.L - mc->f.R;
    return 0;
}

/* a tag over each pool marked (recommended, current), placed above the plot */
static void mrc_tags(struct mrc_chart *mc, double cur_bytes, double rec_bytes)
{
    struct chart_frame *f = &mc->f;

    if (rec_bytes > 0) {
        mc->tag[f->n_tags] = "recommended";
        f->tx[f->n_tags++] = mrc_x(mc, rec_bytes);
    }
    if (cur_bytes > 0) {
        mc->tag[f->n_tags] = "current";
        f->tx[f->n_tags++] = mrc_x(mc, cur_bytes);
    }
    for (size_t i = 0; i < f->n_tags; i++)
        f->tw[i] = CHAR_W_PX * (double)strlen(mc->tag[i]) + 6;
    frame_place_tags(f, 14, 220);
}

/* the hit-ratio grid in quarters, the memory ticks and the two axis lines */
static void mrc_axes(FILE *fp, const struct mrc_chart *mc)
{
    const struct chart_frame *f = &mc->f;
    char buf[64];

    for (int k = 0; k <= 4; k++) {
        double py = f->H - f->B - f->ph * k / 4;
        svg_line(fp, f->L, py, f->W - f->R, py,
                 "class=\"grid\" stroke=\"#e4e7ec\"");
        snprintf(buf, sizeof(buf), "%d%%", k * 25);
        svg_text(fp, f->L - 6, py + 4, "end", NULL, buf);
    }
    for (double x = 0; x <= mc->xmax + mc->step / 2; x += mc->step) {
        svg_line(fp, mrc_x(mc, x), f->H - f->B, mrc_x(mc, x), f->H - f->B + 4,
                 "stroke=\"#444\"");
        if (x == 0)
            snprintf(buf, sizeof(buf), "0");
        else
            snprintf(buf, sizeof(buf), "%g %s", x / mc->unit, mc->unit_name);
        svg_text(fp, mrc_x(mc, x), f->H - f->B + 18,
                 x == 0                        ? "start"
                 : x + mc->step / 2 > mc->xmax ? "end"
                                               : "middle",
                 NULL, buf);
    }
    svg_line(fp, f->L, f->H - f->B, f->W - f->R, f->H - f->B,
             "stroke=\"#444\"");
    svg_line(fp, f->L, f->T, f->L, f->H - f->B, "stroke=\"#444\"");
}

/* one polyline per page size, continued dotted at its last hit ratio */
static void mrc_curves(FILE *fp, const struct mrc_chart *mc, const json_t *mrc,
                       double rec_ps)
{
    const struct chart_frame *f = &mc->f;
    size_t i, j;
    json_t *curve, *pt;

    json_array_foreach(mrc, i, curve)
    {
        double ps = num(curve, "page_size"), lastx = NAN, lasty = NAN;
        const char *col = palette[i % N_PALETTE];
        fprintf(fp,
                "<polyline class=\"curve\" fill=\"none\" stroke=\"%s\" "
                "stroke-width=\"%s\" points=\"",
                col, ps == rec_ps ? "3" : "2");
        json_array_foreach(json_object_get(curve, "points"), j, pt)
        {
            double b = mrc_point_bytes(pt, ps);
            double hr = num(pt, "hit_ratio");
            if (!isfinite(hr) || !isfinite(b))
                continue;
            if (hr > 1.0) /* percent */
                hr /= 100.0;
            lastx = mrc_x(mc, b);
            lasty = f->H - f->B - hr * f->ph;
            fprintf(fp, "%.1f,%.1f ", lastx, lasty);
        }
        fputs("\"/>\n", fp);
        if (isfinite(lastx) && lastx < f->W - f->R - 1)
            fprintf(fp,
                    "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
                    "stroke=\"%s\" stroke-width=\"2\" "
                    "stroke-dasharray=\"2 4\"/>\n",
                    lastx, lasty, f->W - f->R, lasty, col);
    }
}

/* a pool's legend entry: its swatch, "current pool: " and the fact */
static void legend_pool(FILE *fp, const char *cls, const char *colour,
                        const char *which, const char *text)
{
    char key[32];

    snprintf(key, sizeof(key), "pool-%s", which);
    fprintf(fp,
            "<li><span class=\"%s\" style=\"border-color:%s\"></span>%s "
            "pool: ",
            cls, colour, which);
    fact(fp, key, text);
    fputs("</li>\n", fp);
}

/* the HTML legend: a swatch per page size and per pool marked */
static void mrc_legend(FILE *fp, const json_t *mrc, const struct facts *fa)
{
    double rec_ps = fa->rec_ps;
    char buf[64];
    size_t i;
    json_t *curve;

    fputs("<ul class=\"legend\">\n", fp);
    json_array_foreach(mrc, i, curve)
    {
        fmt_page(num(curve, "page_size"), buf, sizeof(buf));
        fprintf(fp,
                "<li><span class=\"sw\" style=\"border-color:%s\"></span>"
                "%s pages%s</li>\n",
                palette[i % N_PALETTE], buf,
                num(curve, "page_size") == rec_ps ? " (recommended)" : "");
    }
    if (fa->rec_bytes > 0)
        legend_pool(fp, "sw", "#222", "recommended", fa->pool_rec);
    if (fa->cur_bytes > 0)
        legend_pool(fp, "sw dot", "#666", "current", fa->pool_cur);
    fputs("</ul>\n", fp);
}

/*
 * Hit ratio against buffer-pool bytes, one polyline per page size. The
 * memory axis runs from 0 past the larger of the current and recommended
 * pools (both marked); a curve that ends earlier (the whole table fits) is
 * continued dotted at its last hit ratio, which an LRU curve keeps.
 */
static void chart_mrc(FILE *fp, const json_t *mrc, const struct facts *fa)
{
    double cur_bytes = fa->cur_bytes, rec_bytes = fa->rec_bytes;
    double rec_ps = fa->rec_ps;
    struct mrc_chart mc = {.f = {.W = 480, .L = 56, .R = 16, .B = 46},
                           .unit = 1,
                           .unit_name = "B"};
    const struct chart_frame *f = &mc.f;

    if (mrc_scale(&mc, mrc, cur_bytes, rec_bytes) < 0)
        return;
    mrc_tags(&mc, cur_bytes, rec_bytes);
    fprintf(fp,
            "<svg id=\"chart-mrc\" class=\"chart\" role=\"img\" "
            "viewBox=\"0 0 %.0f %.0f\" preserveAspectRatio=\"xMidYMid "
            "meet\">\n<title>buffer-pool hit ratio by pool memory and page "
            "size</title>\n",
            f->W, f->H);
    mrc_axes(fp, &mc);
    mrc_curves(fp, &mc, mrc, rec_ps);
    for (size_t i = 0; i < f->n_tags; i++) {
        int rec = strcmp(mc.tag[i], "recommended") == 0;
        svg_line(fp, f->tx[i], f->T, f->tx[i], f->H - f->B,
                 rec ? "stroke=\"#222\" stroke-width=\"2\""
                     : "stroke=\"#666\" stroke-width=\"2\" "
                       "stroke-dasharray=\"2 3\"");
        svg_text(fp, f->tl[i] + 3, 14 + 17.0 * f->trow[i], "start", "tag",
                 mc.tag[i]);
    }
    svg_axis_titles(fp, f->W, f->H, f->L, f->R, f->T, f->B,
                    "buffer-pool memory (equal bytes for every page size)",
                    "hit ratio");
    fputs("</svg>\n", fp);
    mrc_legend(fp, mrc, fa);
}

/* ---- candidates, drift, about ------------------------------------------ */

enum cand_fmt { C_PAGE, C_BYTES, C_PCT, C_INT, C_NUM };

static const struct cand_col {
    const char *key;  /* candidate key in recommendation.json */
    const char *name; /* column header */
    enum cand_fmt fmt;
} cand_cols[] = {
    {"page_size", "Page size", C_PAGE},
    {"inline_limit", "Inline limit", C_BYTES},
    {"inline_fraction", "Stored inline", C_PCT},
    {"too_big_fraction", "Too big for a row", C_PCT},
    {"rows_per_page", "Rows per page", C_NUM},
    {"page_fill", "Page fill", C_PCT},
    {"data_pages", "Data pages", C_INT},
    {"bufferpool_pages", "Pool pages", C_INT},
    {"hit_ratio", "Hit ratio", C_PCT},
    {"direct_reads_per_access", "Direct reads per access", C_NUM},
    {"io_ms_per_access", "I/O per access (ms)", C_NUM},
};
#define N_CAND_COLS (sizeof(cand_cols) / sizeof(cand_cols[0]))

static void cand_cell(FILE *fp, const struct cand_col *c, const json_t *v)
{
    double d = json_number_value(v);
    char buf[64];

    if (!json_is_number(v)) {
        cell(fp, v);
        return;
    }
    switch (c->fmt) {
    case C_PAGE:
        fmt_page(d, buf, sizeof(buf));
        break;
    case C_BYTES:
        fmt_int(d, buf, sizeof(buf) - 2);
        memcpy(buf + strlen(buf), " B", 3);
        break;
    case C_PCT:
        snprintf(buf, sizeof(buf), "%.1f %%", d * 100);
        break;
    case C_INT:
        fmt_int(d, buf, sizeof(buf));
        break;
    default:
        snprintf(buf, sizeof(buf), fabs(d) >= 100 ? "%.0f" : "%.3g", d);
    }
    fputs(buf, fp);
}

/* Only the columns named in cand_cols (recommendation.json has them all). */
static void table_candidates(FILE *fp, const json_t *rec)
{
    const json_t *cands = json_object_get(rec, "candidates");
    const json_t *first = json_array_get(cands, 0);
    double chosen = num(rec, "page_size");
    size_t i, j;
    json_t *c;

    if (json_array_size(cands) == 0)
        return;
    fputs("<div class=\"scroll\"><table id=\"candidates\" class=\"reflow\">"
          "<thead><tr>",
          fp);
    for (j = 0; j < N_CAND_COLS; j++)
        if (json_object_get(first, cand_cols[j].key))
            fprintf(fp, "<th>%s</th>", cand_cols[j].name);
    fputs("</tr></thead>\n<tbody>\n", fp);
    json_array_foreach(cands, i, c)
    {
        int is_rec = num(c, "page_size") == chosen;
        fprintf(fp, "<tr%s>", is_rec ? " class=\"rec\"" : "");
        for (j = 0; j < N_CAND_COLS; j++) {
            if (!json_object_get(first, cand_cols[j].key))
                continue;
            fprintf(fp, "<td data-label=\"%s\">", cand_cols[j].name);
            cand_cell(fp, &cand_cols[j], json_object_get(c, cand_cols[j].key));
            if (j == 0 && is_rec)
                fputs(
                    "<span class=\"mk better own\">&#10003; recommended</span>",
                    fp);
            fputs("</td>", fp);
        }
        fputs("</tr>\n", fp);
    }
    fputs("</tbody></table></div>\n", fp);
}

/* A drift value: its figure as the model wrote it ("current_text", with
 * the fact it is in "current_fact"), else the value. */
static void drift_cell(FILE *fp, const json_t *it, const char *side)
{
    char k[32];

    snprintf(k, sizeof(k), "%s_text", side);
    if (str(it, k)) {
        const char *text = str(it, k);
        snprintf(k, sizeof(k), "%s_fact", side);
        if (str(it, k))
            fact(fp, str(it, k), text);
        else
            esc(fp, text);
    } else
        cell(fp, json_object_get(it, side));
}

/* The memory every candidate is priced in (equal bytes: the first one's
 * pool pages x page size): its "Pool pages" are that memory in its own
 * pages, neither the current nor the recommended pool. */
static void candidates_caption(FILE *fp, const json_t *rec,
                               const struct facts *fa)
{
    const json_t *c0 = json_array_get(json_object_get(rec, "candidates"), 0);
    double mem = num(c0, "bufferpool_pages") * num(c0, "page_size");
    char buf[32];

    if (!(mem > 0))
        return;
    fprintf(fp,
            "<p class=\"note\" id=\"candidates-memory\">Every page size is "
            "priced in the same memory, %s: its pool pages are that memory "
            "in its own pages",
            pt_size_format((uint64_t)mem, buf, sizeof(buf)));
    if (fa->pool_rec[0]) {
        fputs(", not the recommended pool (", fp);
        fact(fp, "pool-recommended", fa->pool_rec);
        fputs(fa->pool_cur[0] ? ") nor the current one (" : ")", fp);
        if (fa->pool_cur[0]) {
            fact(fp, "pool-current", fa->pool_cur);
            fputs(")", fp);
        }
    }
    fputs(".</p>\n", fp);
}

static void section_drift(FILE *fp, const json_t *drift)
{
    const json_t *items = json_object_get(drift, "items");
    size_t i;
    json_t *it;

    fputs("<h2 id=\"drift\">Drift</h2>\n", fp);
    if (!json_is_array(items)) {
        fputs("<p>No drift check in this report.</p>\n", fp);
        return;
    }
    if (json_array_size(items) == 0) {
        fputs("<p>&#10003; No drift: the database runs what is "
              "recommended.</p>\n",
              fp);
        return;
    }
    fputs("<p>&#10007; The database differs from the advice:</p>\n"
          "<div class=\"scroll\"><table id=\"drift-items\" class=\"reflow\">"
          "<thead><tr><th class=\"l\">Setting</th><th>Current</th>"
          "<th>Recommended</th></tr></thead>\n<tbody>\n",
          fp);
    json_array_foreach(items, i, it)
    {
        fputs("<tr><td class=\"l\">", fp);
        esc(fp, str(it, "knob"));
        fputs("</td><td data-label=\"Current\">", fp);
        drift_cell(fp, it, "current");
        fputs("</td><td data-label=\"Recommended\">", fp);
        drift_cell(fp, it, "recommended");
        fputs("</td></tr>\n", fp);
    }
    fputs("</tbody></table></div>\n", fp);
}

/* The file names in recommendation.inputs: the fallback input list. */
static void inputs_from_recommendation(FILE *fp, const json_t *inputs)
{
    const char *k;
    json_t *v;

    json_object_foreach((json_t *)inputs, k, v)
    {
        const char *path = json_is_object(v)      ? str(v, "file")
                           : strstr(k, "profile") ? json_string_value(v)
                                                  : NULL;
        if (!path)
            continue;
        fputs("<li>", fp);
        esc(fp, k);
        fputs(": ", fp);
        esc(fp, path);
        fputs("</li>\n", fp);
    }
}

static void footer(FILE *fp, const json_t *model)
{
    const json_t *meta = json_object_get(model, "meta");
    const json_t *inputs = json_object_get(meta, "inputs");
    const char *when = str(meta, "generated_at");
    const char *ver = str(meta, "pagetune_version");
    char now[32];

    if (!when) {
        time_t t = time(NULL);
        struct tm tm;
        if (gmtime_r(&t, &tm))
            strftime(now, sizeof(now), "%Y-%m-%dT%H:%M:%SZ", &tm);
        else
            snprintf(now, sizeof(now), "unknown");
        when = now;
    }
    fputs("<footer id=\"about\">\n<h2>About this report</h2>\n<p>Written ", fp);
    esc(fp, when);
    fputs(" by pagetune ", fp);
    esc(fp, ver ? ver : PT_VERSION);
    fputs(". Self-contained: no scripts, no network.</p>\n<p>Inputs:</p>\n"
          "<ul class=\"inputs\">\n",
          fp);
    if (json_is_array(inputs)) {
        size_t i;
        json_t *v;
        json_array_foreach(inputs, i, v)
        {
            fputs("<li>", fp);
            esc(fp, json_string_value(v));
            fputs("</li>\n", fp);
        }
    } else
        inputs_from_recommendation(
            fp, json_object_get(json_object_get(model, "recommendation"),
                                "inputs"));
    fputs("</ul>\n</footer>\n", fp);
}

int report_write_html(const json_t *model, FILE *fp, struct pt_err *err)
{
    const json_t *v, *rec = json_object_get(model, "recommendation");
    struct facts fa;
    double rec_ps;
    size_t i;
    json_t *f;

    if (!json_is_object(model))
        return err_set(err, PT_EINTERNAL, "report model is not an object");
    facts_read(&fa, model);
    rec_ps = fa.rec_ps;
    head(fp, model);
    fputs("<header>\n<p class=\"kicker\">", fp);
    esc(fp, str(model, "title") ? str(model, "title") : "pagetune report");
    if (str(model, "subtitle")) {
        fputs(" &middot; ", fp);
        esc(fp, str(model, "subtitle"));
    }
    fputs("</p>\n", fp);
    top_verdict(fp, model);
    top_action(fp, model, &fa);
    if (json_array_size(v = json_object_get(model, "summary")))
        string_list(fp, v, "brief");
    fputs("</header>\n", fp);
    if (json_is_object(v = json_object_get(model, "comparison"))) {
        fputs("<h2 id=\"current-vs-recommended\">Current vs recommended</h2>\n",
              fp);
        table_comparison(fp, v);
    }
    if (json_is_object(json_object_get(model, "sizes")) ||
        json_array_size(json_object_get(model, "mrc"))) {
        fputs("<h2 id=\"evidence\">Evidence</h2>\n<div class=\"charts\">\n",
              fp);
        if (json_is_object(v = json_object_get(model, "sizes"))) {
            fputs("<figure>\n<figcaption><strong>Object sizes and inline "
                  "limits.</strong> Objects right of a page size's dashed "
                  "line are stored out of line at that page size.</figcaption>"
                  "\n",
                  fp);
            chart_sizes(fp, v, json_object_get(model, "limits"), rec_ps);
            stats_sizes(fp, v);
            fputs("</figure>\n", fp);
        }
        if (json_array_size(v = json_object_get(model, "mrc"))) {
            fputs("<figure>\n<figcaption><strong>Buffer-pool hit ratio by "
                  "memory (simulated).</strong> Dotted: the curve flat "
                  "beyond its last point (the whole table fits).</figcaption>"
                  "\n",
                  fp);
            chart_mrc(fp, v, &fa);
            fputs("</figure>\n", fp);
        }
        fputs("</div>\n", fp);
    }
    section_drift(fp, json_object_get(model, "drift"));
    if (json_is_object(rec)) {
        if (json_array_size(json_object_get(rec, "reasons"))) {
            fputs("<h2 id=\"reasons\">Why</h2>\n", fp);
            string_list(fp, json_object_get(rec, "reasons"), "reasons");
        }
        fputs("<h2 id=\"candidates-h\">Page sizes compared</h2>\n", fp);
        candidates_caption(fp, rec, &fa);
        table_candidates(fp, rec);
    }
    json_array_foreach(json_object_get(model, "files"), i, f)
    {
        fputs("<h2>", fp);
        esc(fp, str(f, "name"));
        fputs("</h2>\n<pre>", fp);
        esc(fp, str(f, "text"));
        fputs("</pre>\n", fp);
    }
    if (json_array_size(v = json_object_get(model, "assumptions"))) {
        fputs("<h2 id=\"assumptions\">Assumptions</h2>\n", fp);
        string_list(fp, v, "assumptions");
    }
    footer(fp, model);
    fputs("</body></html>\n", fp);
    if (ferror(fp))
        return err_set(err, PT_EIO, "cannot write report: %s", strerror(errno));
    return 0;
}

int report_write_html_mem(const json_t *model, char **out, size_t *len,
                          struct pt_err *err)
{
    FILE *fp;
    int ret;

    *out = NULL;
    *len = 0;
    /* open_memstream (POSIX.1-2008) grows the buffer as the page is written
     * and NUL-terminates it at fclose */
    if (!(fp = open_memstream(out, len)))
        return err_set(err, PT_EINTERNAL, "cannot render report: %s",
                       strerror(errno));
    ret = report_write_html(model, fp, err);
    if (fclose(fp) != 0 && ret == 0)
        ret = err_set(err, PT_EINTERNAL, "cannot render report: %s",
                      strerror(errno));
    if (ret < 0) {
        free(*out);
        *out = NULL;
        *len = 0;
    }
    return ret;
}
