/* SPDX-License-Identifier: Apache-2.0 */
/*
 * suggest.c — "did you mean": the name among the known ones closest to a
 * mistyped one (a command, an option, a profile), by the optimal string
 * alignment distance (Damerau-Levenshtein without repeated edits of a
 * substring: insertions, deletions, substitutions and swaps of two
 * neighbouring characters each cost 1), compared without case.
 *
 * Neighbours: cli/ (commands and options), core/prof.c (profiles),
 * collect/ (document types). It never prints.
 */
#include "core/core.h"

#include <ctype.h>
#include <string.h>

/* Longest name compared; longer ones are never suggested. */
#define SUGGEST_MAX 64

size_t pt_edit_distance(const char *a, const char *b)
{
    /* three rows of the dynamic programme, rotated: i-2, i-1 and i */
    size_t buf[3][SUGGEST_MAX + 1];
    size_t *two = buf[0], *one = buf[1], *cur = buf[2], *t;
    size_t la = strlen(a), lb = strlen(b);

    if (la > SUGGEST_MAX || lb > SUGGEST_MAX)
        return (size_t)-1;
    for (size_t j = 0; j <= lb; j++)
        one[j] = j;
    for (size_t i = 1; i <= la; i++) {
        int ca = tolower((unsigned char)a[i - 1]);

        cur[0] = i;
        for (size_t j = 1; j <= lb; j++) {
            int cb = tolower((unsigned char)b[j - 1]);
            size_t best = one[j - 1] + (ca != cb); /* substitute */

            if (one[j] + 1 < best) /* delete a's character */
                best = one[j] + 1;
            if (cur[j - 1] + 1 < best) /* insert b's character */
                best = cur[j - 1] + 1;
            if (i > 1 && j > 1 && ca == tolower((unsigned char)b[j - 2]) &&
                tolower((unsigned char)a[i - 2]) == cb &&
                two[j - 2] + 1 < best) /* swap two neighbours */
                best = two[j - 2] + 1;
            cur[j] = best;
        }
        t = two;
        two = one;
        one = cur;
        cur = t;
    }
    return one[lb];
}

void pt_suggest_init(struct pt_suggest *s, const char *given)
{
    s->given = given;
    s->best = NULL;
    s->best_distance = (size_t)-1;
    s->n_prefixed = 0;
}

void pt_suggest_add(struct pt_suggest *s, const char *candidate)
{
    size_t d, len, limit;

    if (!s->given || !candidate)
        return;
    len = strlen(s->given);
    if (len > 0 && strncmp(candidate, s->given, len) == 0 &&
        candidate[len] != '\0') {
        if (s->n_prefixed < PT_SUGGEST_MAX_PREFIXED)
            s->prefixed[s->n_prefixed] = candidate;
        s->n_prefixed++;
    }
    /* a third of the name may be wrong, at least one character, so that
       'advice' finds 'advise' and 'x' finds nothing of 'ddl' */
    limit = len / 3 > 1 ? len / 3 : 1;
    d = pt_edit_distance(s->given, candidate);
    if (d <= limit && d < s->best_distance) {
        s->best = candidate;
        s->best_distance = d;
    }
}

const char *pt_suggest_best(const struct pt_suggest *s)
{
    return s->best;
}

char *pt_suggest_hint(const struct pt_suggest *s, const char *prefix,
                      const char *quote, char *buf, size_t len)
{
    size_t shown, used = 0;
    int n;

    if (!len)
        return buf;
    buf[0] = '\0';
    /* close (and not merely one of several the name begins), or the one
       it begins */
    if ((s->best && (s->n_prefixed < 2 ||
                     strncmp(s->best, s->given, strlen(s->given)) != 0)) ||
        s->n_prefixed == 1) {
        snprintf(buf, len, "did you mean %s%s%s%s?", quote, prefix,
                 s->best ? s->best : s->prefixed[0], quote);
        return buf;
    }
    if (s->n_prefixed < 2)
        return buf;
    shown = s->n_prefixed < PT_SUGGEST_MAX_PREFIXED ? s->n_prefixed
                                                    : PT_SUGGEST_MAX_PREFIXED;
    n = snprintf(buf, len, "it abbreviates ");
    used = n > 0 && (size_t)n < len ? (size_t)n : len - 1;
    for (size_t i = 0; i < shown && used + 1 < len; i++) {
        const char *sep = i == 0                                     ? ""
                          : i + 1 == shown && shown == s->n_prefixed ? " and "
                                                                     : ", ";
        n = snprintf(buf + used, len - used, "%s%s%s%s%s", sep, quote, prefix,
                     s->prefixed[i], quote);
        used += n > 0 && (size_t)n < len - used ? (size_t)n : len - used - 1;
    }
    if (shown < s->n_prefixed && used + 1 < len) {
        n = snprintf(buf + used, len - used, " and %zu more",
                     s->n_prefixed - shown);
        used += n > 0 && (size_t)n < len - used ? (size_t)n : len - used - 1;
    }
    snprintf(buf + used, len - used, ": give more of it");
    return buf;
}
