/* SPDX-License-Identifier: Apache-2.0 */
/*
 * figure.c — the one way each figure of the advice is written for a reader:
 * a page size ("16K"), a buffer pool ("1,000 pages of 16K (15.6M)") and a
 * change in percent ("+12.3 %", "+166.5 % [+116.7, +216.3]"). The terminal
 * summary and progress lines (cli/cmd_advise.c, advise/), report.html
 * (report/report.c), the drift lines (recommend/drift.c) and the verdict
 * (store/verdict.c) all call these, so a figure reads the same wherever it
 * appears (issue 31; docs/formats.md#figures). Machine output (JSON, CSV)
 * keeps plain numbers. Neighbours: num.c (pt_size_format, the byte sizes
 * that options accept, used here for a pool's memory).
 */
#include "core/core.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

char *pt_fig_page(uint64_t page_size_bytes, char *buf, size_t len)
{
    if (page_size_bytes >= 1024 && page_size_bytes % 1024 == 0)
        snprintf(buf, len, "%lluK",
                 (unsigned long long)(page_size_bytes / 1024));
    else
        snprintf(buf, len, "%llu B", (unsigned long long)page_size_bytes);
    return buf;
}

char *pt_fig_count(uint64_t n, char *buf, size_t len)
{
    char raw[24];
    size_t digits, o = 0;

    snprintf(raw, sizeof(raw), "%llu", (unsigned long long)n);
    digits = strlen(raw);
    for (size_t i = 0; i < digits && o + 1 < len; i++) {
        if (i > 0 && (digits - i) % 3 == 0 && o + 2 < len)
            buf[o++] = ',';
        buf[o++] = raw[i];
    }
    if (len)
        buf[o < len ? o : len - 1] = '\0';
    return buf;
}

char *pt_fig_pool(uint64_t pages, uint64_t page_size_bytes, char *buf,
                  size_t len)
{
    char n[32], ps[32], mem[32];

    snprintf(buf, len, "%s page%s of %s (%s)", pt_fig_count(pages, n, 32),
             pages == 1 ? "" : "s", pt_fig_page(page_size_bytes, ps, 32),
             pt_size_format(pages * page_size_bytes, mem, sizeof(mem)));
    return buf;
}

char *pt_fig_change(double pct, char *buf, size_t len)
{
    /* -0.04 rounds to "-0.0": a change that rounds to none is "+0.0" */
    if (!isfinite(pct))
        snprintf(buf, len, "n/a");
    else
        snprintf(buf, len, "%+.1f %%", fabs(pct) < 0.05 ? 0.0 : pct);
    return buf;
}

char *pt_fig_change_range(double pct, double lo, double hi, char *buf,
                          size_t len)
{
    char m[32];

    pt_fig_change(pct, m, sizeof(m));
    if (isfinite(pct) && isfinite(lo) && isfinite(hi))
        snprintf(buf, len, "%s [%+.1f, %+.1f]", m, fabs(lo) < 0.05 ? 0.0 : lo,
                 fabs(hi) < 0.05 ? 0.0 : hi);
    else
        snprintf(buf, len, "%s", m);
    return buf;
}
