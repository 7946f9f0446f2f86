/* SPDX-License-Identifier: Apache-2.0 */
/*
 * oneline.c — `--oneline` of recommend and advise: the advice as one line
 * a DBA pastes into a change ticket (pagetune-recommend(1),
 * pagetune-advise(1), ONELINE): what (page size, pool), why (the key
 * evidence in a few words), the predicted change and, for advise, the
 * verdict. Always one line, always shorter than CLI_ONELINE_MAX: a part
 * that would not fit is left out, the why first.
 * Neighbours: cmd_recommend.c and cmd_advise.c fill struct cli_oneline
 * from their results; the figures are core's (pt_fig_*).
 */
#include "cli/cli.h"

#include "recommend/recommend.h"

#include <errno.h>
#include <stdarg.h>
#include <string.h>

/* Why the page size, from the recommendation: "96.1% inline at 16K vs
   54.0% at 4K", "I/O per access -83.7% vs 4K", "a change gains too
   little". */
void cli_oneline_why(const struct rec_result *r, char *buf, size_t len)
{
    const struct rec_candidate *ch = &r->cand[r->chosen_idx];
    const struct rec_candidate *cur =
        r->current_idx < r->n_cand ? &r->cand[r->current_idx] : NULL;
    char a[32], b[32];

    pt_fig_page(ch->page_size_bytes, a, sizeof(a));
    if (r->kept) {
        snprintf(buf, len, "a change of page size gains too little");
    } else if (r->chosen_by_cost && cur && cur != ch && cur->io_ms > 0) {
        snprintf(buf, len, "I/O per access %+.0f%% at %s vs %s",
                 100 * (ch->io_ms / cur->io_ms - 1), a,
                 pt_fig_page(cur->page_size_bytes, b, sizeof(b)));
    } else if (cur && cur != ch) {
        snprintf(buf, len, "%.1f%% stored inline at %s vs %.1f%% at %s",
                 100 * ch->inline_fraction, a, 100 * cur->inline_fraction,
                 pt_fig_page(cur->page_size_bytes, b, sizeof(b)));
    } else {
        snprintf(buf, len, "%.1f%% stored inline at %s",
                 100 * ch->inline_fraction, a);
    }
}

void cli_oneline_settings(const struct rec_result *r, char *buf, size_t len)
{
    size_t off = 0;

    buf[0] = '\0';
    for (size_t i = 0; i < r->n_settings; i++) {
        const char *k = r->settings[i].name;
        int n;
        if (strncmp(k, "current_", 8) == 0 || strncmp(k, "previous_", 9) == 0)
            continue;
        n = snprintf(buf + off, len - off, "%s%s=%s", off ? " " : "", k,
                     r->settings[i].value);
        if (n < 0 || (size_t)n >= len - off) {
            buf[off] = '\0';
            break;
        }
        off += (size_t)n;
    }
}

/* Append to buf at *off; 0, or -1 (nothing appended) when it would not
   fit in max - 1 characters. */
static int put(char *buf, size_t *off, size_t max, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static int put(char *buf, size_t *off, size_t max, const char *fmt, ...)
{
    va_list ap;
    int n;

    va_start(ap, fmt);
    n = vsnprintf(buf + *off, max - *off, fmt, ap);
    va_end(ap);
    if (n < 0 || (size_t)n >= max - *off) {
        buf[*off] = '\0';
        return -1;
    }
    *off += (size_t)n;
    return 0;
}

int cli_oneline_write(const struct cli_oneline *o, FILE *fp, struct pt_err *err)
{
    char line[CLI_ONELINE_MAX], tail[CLI_ONELINE_MAX], why[CLI_ONELINE_MAX];
    char set[CLI_ONELINE_MAX];
    char cur[32], rec[32], pool[96], ch[48];
    size_t off = 0, t_off = 0, w_off = 0, s_off = 0;

    pt_fig_page(o->cur_page_size, cur, sizeof(cur));
    pt_fig_page(o->rec_page_size, rec, sizeof(rec));
    pt_fig_pool(o->pool_pages, o->rec_page_size, pool, sizeof(pool));
    /* what: always there (about 90 characters at most) */
    if (o->cur_page_size && o->cur_page_size != o->rec_page_size)
        put(line, &off, sizeof(line), "%s: page size %s -> %s", o->engine, cur,
            rec);
    else
        put(line, &off, sizeof(line), "%s: keep page size %s", o->engine, rec);
    put(line, &off, sizeof(line), ", pool %s%s%s",
        o->pool_name ? o->pool_name : "", o->pool_name ? " " : "", pool);
    /* settings, why, predicted, verdict: in that order, each whole or not
       at all; the why goes first when the line is too long, then the
       settings */
    tail[0] = why[0] = set[0] = '\0';
    if (o->settings && *o->settings)
        put(set, &s_off, sizeof(set), ", %s", o->settings);
    if (o->have_pred)
        put(tail, &t_off, sizeof(tail), "; predicted %s %s",
            pt_fig_change(o->pred_pct, ch, sizeof(ch)), o->pred_what);
    if (o->verdict)
        put(tail, &t_off, sizeof(tail), "; verdict: %s", o->verdict);
    if (o->why && *o->why)
        put(why, &w_off, sizeof(why), "; why: %s", o->why);
    /* the settings before the why, when both cannot be there */
    if (off + s_off + t_off < sizeof(line))
        put(line, &off, sizeof(line), "%s", set);
    if (off + w_off + t_off < sizeof(line))
        put(line, &off, sizeof(line), "%s", why);
    put(line, &off, sizeof(line), "%s", tail);
    for (char *p = line; *p; p++)
        if (*p == '\n' || *p == '\r' || *p == '\t')
            *p = ' '; /* one line, whatever a name holds */
    if (fprintf(fp, "%s\n", line) < 0 || ferror(fp))
        return err_set(err, PT_EIO, "write error: %s", strerror(errno));
    return 0;
}
