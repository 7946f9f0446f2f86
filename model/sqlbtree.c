/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sqlbtree.c — where a row of a SQLite rowid table goes: its cell in a
 * table b-tree leaf, its overflow chain, and the interior pages above the
 * leaves (docs/models.md#page-fit-sqlite; tests/conformance/eng_sqlite.py
 * holds them against dbstat).
 *
 * SQLite "Database File Format" (fileformat2.html), 1.6 B-tree Pages, with
 * U the usable page size (the page size: no reserved bytes) and P the
 * payload (a rowid table's record: header plus column bodies, 2.1):
 *   X = U - 35: a leaf cell keeps a payload of up to X bytes whole;
 *   M = ((U - 12) * 32 / 255) - 23, K = M + ((P - M) % (U - 4)): a larger
 *   payload keeps K bytes in the leaf if K <= X, else M, and the rest
 *   goes to overflow pages that each hold U - 4 bytes after a 4-byte
 *   next-page number; the cell ends with the first overflow page number.
 * A table leaf cell is varint(P) + varint(rowid) + the local payload
 * (+ 4); a cell takes at least 4 bytes (btree.c cellSizePtr), and a
 * 2-byte cell pointer; a leaf page has an 8-byte header, an interior one
 * 12 and cells of a 4-byte child page number and varint(rowid).
 */
#include "model/model.h"

#include <math.h>

/* Bytes of a SQLite varint of v (fileformat2.html 1.6: 1..9 bytes, 7 bits
   a byte, the ninth byte 8 bits). */
static uint32_t varint_bytes(uint64_t v)
{
    uint32_t n = 1;

    while (n < 9 && v >= (1ULL << (7 * n)))
        n++;
    return n;
}

uint64_t rec_sq_payload(const struct rec_engine *e, uint64_t obj_bytes)
{
    return obj_bytes + e->row_fixed_bytes +
           (e->row_measured ? 0 : e->sq.record_header_bytes);
}

void rec_sq_cell_fit(const struct rec_sq_layout *l, uint32_t page_size_bytes,
                     uint64_t payload_bytes, uint64_t rowid,
                     struct rec_sq_cell *out)
{
    uint64_t u = page_size_bytes, x = u - 35, m = (u - 12) * 32 / 255 - 23;
    uint64_t cell = varint_bytes(payload_bytes) + varint_bytes(rowid);

    out->local_bytes = payload_bytes;
    out->overflow_pages = 0;
    if (payload_bytes > x) {
        uint64_t k = m + (payload_bytes - m) % (u - 4);
        out->local_bytes = k <= x ? k : m;
        out->overflow_pages =
            (payload_bytes - out->local_bytes + u - 5) / (u - 4);
        cell += l->overflow_pointer_bytes;
    }
    cell += out->local_bytes;
    if (cell < l->min_cell_bytes)
        cell = l->min_cell_bytes;
    out->cell_bytes = (uint32_t)cell + l->cell_pointer_bytes;
}

/*
 * A level of interior pages holds one child pointer per page below (each
 * cell a child, and the right-most child in the header); levels are
 * counted up to a single root. Rows appended in rowid order fill the
 * interior pages (balance_quick adds a divider at the right edge), so the
 * levels are taken full.
 */
double rec_sq_interior_pages(const struct rec_sq_layout *l,
                             uint32_t page_size_bytes, double leaves,
                             uint64_t rowid)
{
    double per = floor((double)(page_size_bytes - l->interior_header_bytes) /
                       (double)(4 + varint_bytes(rowid) +
                                l->cell_pointer_bytes)) +
                 1.0,
           total = 0;

    while (leaves > 1.0) {
        leaves = ceil(leaves / per);
        total += leaves;
    }
    return total;
}
