/* SPDX-License-Identifier: Apache-2.0 */
/*
 * drift.c — does the configuration in use match a recommendation? Pure;
 * `advise --fail-on drift` turns a difference into exit status 1.
 * Neighbours: recommend.c (the recommendation), collect/ (the current
 * configuration, via the monitor document).
 */
#include "recommend/recommend.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

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
            char a[32], b[32];
            int n = snprintf(why + off, why_len - off,
                             "page size %s in use, %s recommended\n",
                             pt_fig_page(cur->page_size_bytes, a, sizeof(a)),
                             pt_fig_page(rec_page_size_bytes, b, sizeof(b)));
            off += n > 0 ? (size_t)n : 0;
        }
    }
    if (cur->page_size_bytes == rec_page_size_bytes && cur->bufferpool_pages &&
        rec_bufferpool_pages &&
        (double)cur->bufferpool_pages <
            (1.0 - tolerance) * (double)rec_bufferpool_pages) {
        drift = 1;
        char a[96], b[96];
        if (why && off < why_len)
            snprintf(why + off, why_len - off,
                     "buffer pool %s in use, %s recommended "
                     "(more than %.0f %% below)\n",
                     pt_fig_pool(cur->bufferpool_pages, rec_page_size_bytes, a,
                                 sizeof(a)),
                     pt_fig_pool(rec_bufferpool_pages, rec_page_size_bytes, b,
                                 sizeof(b)),
                     tolerance * 100);
    }
    return drift;
}

/* Append one line to why (bounded). */
static void add_line(char *why, size_t len, size_t *off, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void add_line(char *why, size_t len, size_t *off, const char *fmt, ...)
{
    va_list ap;
    int n;

    if (!why || *off >= len)
        return;
    va_start(ap, fmt);
    n = vsnprintf(why + *off, len - *off, fmt, ap);
    va_end(ap);
    *off += n > 0 ? (size_t)n : 0;
    if (*off >= len)
        *off = len;
}

/* A recommended setting as a knob (in the knob's unit). */
static int setting_as_knob(const json_t *v, int64_t scale, struct rec_knob *k)
{
    memset(k, 0, sizeof(*k));
    k->is_set = 1;
    if (json_is_integer(v)) {
        k->is_number = 1;
        k->num = (int64_t)json_integer_value(v) * scale;
        return 0;
    }
    if (json_is_string(v) && strlen(json_string_value(v)) < sizeof(k->word)) {
        snprintf(k->word, sizeof(k->word), "%s", json_string_value(v));
        return 0;
    }
    return -1;
}

int rec_drift_doc(const struct rec_doc *d, double tolerance, char *why,
                  size_t why_len)
{
    const struct rec_knob *k;
    const char *name;
    json_t *v;
    size_t off = 0;
    int drift = 0;
    char a[40], b[40];

    if (why && why_len)
        why[0] = '\0';
    if (!d->has_current)
        return 0;
    k = rec_state_get(&d->current, "page_size");
    if (k && k->source == REC_SOURCE_SERVER && k->is_set && k->is_number &&
        (uint64_t)k->num != d->page_size_bytes) {
        drift = 1;
        add_line(why, why_len, &off,
                 "page_size %lld in use, %llu recommended\n", (long long)k->num,
                 (unsigned long long)d->page_size_bytes);
    }
    k = rec_state_get(&d->current, "bufferpool_pages");
    if (strcmp(d->engine, "db2") == 0 && k && k->source == REC_SOURCE_SERVER &&
        k->is_set && k->is_number && d->bufferpool_pages &&
        (double)k->num < (1.0 - tolerance) * (double)d->bufferpool_pages) {
        drift = 1;
        add_line(why, why_len, &off,
                 "bufferpool_pages %lld in use, %llu recommended (more than "
                 "%.0f %% below)\n",
                 (long long)k->num, (unsigned long long)d->bufferpool_pages,
                 tolerance * 100);
    }
    k = rec_state_get(&d->current, "file_system_caching");
    if (d->fs_caching >= 0 && k && k->source == REC_SOURCE_SERVER &&
        k->is_set && !k->is_number &&
        (strcasecmp(k->word, "YES") == 0) != (d->fs_caching == 1)) {
        drift = 1;
        add_line(why, why_len, &off,
                 "file_system_caching %s in use, %s recommended\n", k->word,
                 d->fs_caching ? "YES" : "NO");
    }
    if (!json_is_object(d->settings))
        return drift;
    json_object_foreach((json_t *)d->settings, name, v)
    {
        int64_t scale = 1;
        const char *kn = rec_setting_knob(d->engine, name, &scale);
        struct rec_knob want, eff;

        if (!kn || strcmp(kn, "page_size") == 0)
            continue; /* the page size is compared above */
        k = rec_state_get(&d->current, kn);
        if (!k || setting_as_knob(v, scale, &want) < 0)
            continue;
        /* a knob not set explicitly is the engine's value for it */
        if (rec_state_knob_effective(&d->current, d->engine, k, &eff) < 0 ||
            rec_knob_equal(&eff, &want))
            continue;
        drift = 1;
        add_line(
            why, why_len, &off, "%s %s%s in use%s, %s recommended\n", kn,
            rec_knob_text(&eff, a, sizeof(a)), k->is_set ? "" : " (not set)",
            k->source == REC_SOURCE_SERVER ? "" : " (the default, not read)",
            rec_knob_text(&want, b, sizeof(b)));
    }
    return drift;
}
