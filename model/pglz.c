/* SPDX-License-Identifier: Apache-2.0 */
/*
 * pglz.c — the size PostgreSQL's pglz compressor gives a value, so that
 * sample can try compression in the client on the values it reads (never
 * on the server: nothing is created there) and the model can say whether
 * the toaster compresses a column (heaptoast.c).
 *
 * Written from the description of the algorithm in PostgreSQL's
 * src/common/pg_lzcompress.c (pglz_compress, pglz_find_match,
 * pglz_hist_idx, PGLZ_strategy_default); only the output size is counted,
 * the output bytes are never produced:
 *
 *   - the input is scanned once; at each position the history of earlier
 *     positions whose next 4 bytes hash alike (the hash of pglz_hist_idx,
 *     on signed chars, masked to a table of 512..8192 lists chosen by the
 *     input size) is walked from the newest back, while the offset stays
 *     under 4095; the longest match (at most 273 bytes) wins, and the walk
 *     stops early once a match reaches "good_match" (128, lowered by 10 %
 *     at each entry visited);
 *   - a match of 3 or more bytes costs a 2-byte tag (3 bytes when longer
 *     than 17), anything else a literal byte; every 8 items share one
 *     control byte;
 *   - it gives up (-1) when the output reaches the strategy's maximum
 *     (input x (100 - 25) / 100) or 1024 bytes without any match, and the
 *     input must be at least 32 bytes.
 *
 * The toaster then keeps the compressed datum only if its 8-byte header
 * plus this output is more than 2 bytes shorter than the value
 * (toast_internals.c toast_compress_datum; compression.c
 * pglz_compress_datum): rec_pglz_datum_bytes.
 *
 * Neighbours: collect/sample.c runs it on sampled values; pgtoast.c uses
 * the measured ratio. tests/integration/test_toast_postgresql.sh holds
 * its figures against pg_column_size() of values the server compressed.
 */
#include "model/model.h"

#include <string.h>

const struct rec_pglz_strategy rec_pglz_default = {
    32,   /* min_input_size */
    25,   /* min_comp_rate, % */
    1024, /* first_success_by */
    128,  /* match_size_good */
    10,   /* match_size_drop, % */
};

#define PGLZ_MAX_MATCH 273
#define PGLZ_MAX_OFFSET 0x0fff
#define PGLZ_HIST_MAX REC_PGLZ_HISTORY

/* The history list of the 4 bytes at s (pg_lzcompress.c pglz_hist_idx:
   the bytes as the server's signed chars; its shifts of a negative char
   written as the products they are, two's complement, without C's
   undefined left shift of a negative value). */
static int hist_idx(const uint8_t *s, const uint8_t *e, int mask)
{
    int a = (signed char)s[0];

    if (e - s < 4)
        return a & mask;
    return ((a * 64) ^ ((signed char)s[1] * 16) ^ ((signed char)s[2] * 4) ^
            (signed char)s[3]) &
           mask;
}

/* Append position p to its list. */
static void hist_add(struct rec_pglz_work *w, const uint8_t *src, size_t p,
                     const uint8_t *end, int mask)
{
    int h = hist_idx(src + p, end, mask);

    w->next[p % PGLZ_HIST_MAX] = w->head[h];
    w->head[h] = (int32_t)p;
}

/* The longest usable match at position p (0 if none of 3 bytes). */
static int find_match(const struct rec_pglz_work *w, const uint8_t *src,
                      size_t p, const uint8_t *end, int mask,
                      const struct rec_pglz_strategy *s)
{
    int32_t h = w->head[hist_idx(src + p, end, mask)];
    int good = s->match_size_good, len = 0;

    good = good > PGLZ_MAX_MATCH ? PGLZ_MAX_MATCH : good < 17 ? 17 : good;
    while (h >= 0) {
        const uint8_t *ip = src + p, *hp = src + h;
        int n = 0;
        if (p - (size_t)h >= PGLZ_MAX_OFFSET)
            break;
        while (ip < end && *ip == *hp && n < PGLZ_MAX_MATCH) {
            n++;
            ip++;
            hp++;
        }
        if (n > len)
            len = n;
        h = w->next[(size_t)h % PGLZ_HIST_MAX];
        /* an older entry always has a smaller position; a slot reused by
           a newer one is beyond the offset limit and ends the walk */
        if (h >= 0) {
            if (len >= good)
                break;
            good -= good * s->match_size_drop / 100;
        }
    }
    return len > 2 ? len : 0;
}

int64_t rec_pglz_size(struct rec_pglz_work *w, const uint8_t *src, size_t n,
                      const struct rec_pglz_strategy *s)
{
    const uint8_t *end = src + n;
    int64_t out = 0, max, items = 0;
    int mask, found = 0;
    size_t p = 0;

    if (!s)
        s = &rec_pglz_default;
    if (n < (size_t)s->min_input_size || n > INT32_MAX)
        return -1;
    max = (int64_t)n * (100 - s->min_comp_rate) / 100;
    mask = n < 128    ? 511
           : n < 256  ? 1023
           : n < 512  ? 2047
           : n < 1024 ? 4095
                      : 8191;
    for (int i = 0; i <= mask; i++)
        w->head[i] = -1;
    while (p < n) {
        int len;
        if (out >= max || (!found && out >= s->first_success_by))
            return -1;
        if (items++ % 8 == 0)
            out++; /* a control byte for the next 8 items */
        len = find_match(w, src, p, end, mask, s);
        if (len) {
            out += len > 17 ? 3 : 2;
            for (int k = 0; k < len; k++)
                hist_add(w, src, p++, end, mask);
            found = 1;
        } else {
            out++;
            hist_add(w, src, p++, end, mask);
        }
    }
    return out >= max ? -1 : out;
}

int64_t rec_pglz_datum_bytes(int64_t pglz_bytes, uint64_t raw_bytes,
                             uint32_t compressed_header_bytes)
{
    int64_t d = pglz_bytes + (int64_t)compressed_header_bytes;

    /* toast_compress_datum: a saving of more than 2 bytes, or nothing */
    if (pglz_bytes < 0 || d >= (int64_t)raw_bytes - 2)
        return -1;
    return d;
}
