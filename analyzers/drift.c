/* SPDX-License-Identifier: Apache-2.0 */
/*
 * drift.c — does the configuration in use match a recommendation? Pure;
 * `advise --fail-on drift` turns a difference into exit status 1.
 * Neighbours: recommend.c (the recommendation), collect/ (the current
 * configuration, via the monitor document).
 */
#include "analyzers/analyzers.h"

#include <stdio.h>
#include <string.h>

int rec_drift(const struct rec_current *cur, uint32_t rec_page_size_bytes,
              uint64_t rec_bufferpool_pages, double tolerance, char *why,
              size_t why_len)
{
    size_t off = 0;
    int drift = 0;

    if (why && why_len)
        why[0] = '\0';
    if (cur->page_size_bytes != rec_page_size_bytes) {
        drift = 1;
        if (why && off < why_len) {
            int n = snprintf(why + off, why_len - off,
                             "page size %u in use, %u recommended\n",
                             cur->page_size_bytes, rec_page_size_bytes);
            off += n > 0 ? (size_t)n : 0;
        }
    }
    if (cur->page_size_bytes == rec_page_size_bytes && cur->bufferpool_pages &&
        rec_bufferpool_pages &&
        (double)cur->bufferpool_pages <
            (1.0 - tolerance) * (double)rec_bufferpool_pages) {
        drift = 1;
        if (why && off < why_len)
            snprintf(why + off, why_len - off,
                     "buffer pool %llu pages in use, %llu recommended "
                     "(more than %.0f %% below)\n",
                     (unsigned long long)cur->bufferpool_pages,
                     (unsigned long long)rec_bufferpool_pages, tolerance * 100);
    }
    return drift;
}
