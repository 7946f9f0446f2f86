/* SPDX-License-Identifier: Apache-2.0 */
/*
 * analyzers.h — the public face of analyzers/: engine page-fit rules, device
 * I/O model, size statistics, the cost model and the recommendation. Pure
 * functions: no I/O, no printing (design.md §2). Profiles are loaded by the
 * caller (core's prof_load_named) and handed over as jansson trees.
 *
 * Neighbours: sim/ uses the page-fit rules and the device model for its
 * database tier; store/ uses the inline limits for WebSphere placement;
 * cli/cmd_recommend.c drives the recommendation; ddl/ renders its result.
 */
#ifndef PT_ANALYZERS_H
#define PT_ANALYZERS_H

#include "core/core.h"

#define REC_MAX_PAGE_SIZES 16
#define REC_MAX_OUTLINE 4

/* What the engine does at one page size (profiles/engines/<name>.yaml). */
struct rec_page_rule {
    uint32_t page_size_bytes;    /* e.g. 8192 */
    uint32_t inline_limit_bytes; /* largest object stored in the row (DB2:
                                    WebSphere SMALL length s) */
    uint32_t max_row_bytes;      /* engine's maximum row length */
    uint32_t usable_bytes;       /* bytes of a page available to rows */
};

/* An out-of-line column / storage form (DB2: MEDIUM LONG VARCHAR, LARGE BLOB).
 */
struct rec_outline {
    char name[32];             /* "MEDIUM", "LARGE", "TOAST", ... */
    uint64_t max_bytes;        /* largest object it accepts */
    uint32_t descriptor_bytes; /* bytes it leaves in the row */
};

struct rec_engine {
    char name[32]; /* "db2", "postgresql", ... */
    size_t n_pages;
    struct rec_page_rule pages[REC_MAX_PAGE_SIZES]; /* ascending size */
    size_t n_outline;
    struct rec_outline outline[REC_MAX_OUTLINE]; /* in placement order */
    uint32_t max_rows_per_page;                  /* DB2 REGULAR: 255 */
    uint32_t row_fixed_bytes;      /* row bytes besides the object */
    uint32_t row_overhead_bytes;   /* per-row header + slot */
    int outline_buffered;          /* 0: out-of-line data bypasses the
                                      buffer pool (DB2 direct I/O) */
    uint32_t direct_io_unit_bytes; /* DB2 direct reads count 512-byte
                                      sectors */
};

/* Placement of one object: 0 = inline, k >= 1 = outline[k-1], -1 = too big. */
#define REC_PLACE_INLINE 0
#define REC_PLACE_TOO_BIG (-1)

/*
 * Fill *e from a loaded engine profile. `ctx` names the file in messages.
 * PT_EDATA on a missing/invalid field.
 */
int rec_engine_from_json(struct rec_engine *e, const json_t *prof,
                         const char *ctx, struct pt_err *err);
/* The rule for a page size, or NULL if the engine has no such page size. */
const struct rec_page_rule *rec_engine_page(const struct rec_engine *e,
                                            uint32_t page_size_bytes);
/* Where an object of obj_bytes lands at this page size (see REC_PLACE_*). */
int rec_engine_place(const struct rec_engine *e, const struct rec_page_rule *p,
                     uint64_t obj_bytes);
/* Row length in the data page for an object placed as rec_engine_place says. */
uint32_t rec_engine_row_bytes(const struct rec_engine *e,
                              const struct rec_page_rule *p,
                              uint64_t obj_bytes);
/* Rows of that length per page: floor(usable / (row + overhead)), capped. */
uint32_t rec_engine_rows_per_page(const struct rec_engine *e,
                                  const struct rec_page_rule *p,
                                  uint64_t obj_bytes);
/* "4K, 8K, 16K, 32K" into buf, for error messages listing allowed sizes. */
char *rec_engine_page_list(const struct rec_engine *e, char *buf, size_t len);

/* A storage device (profiles/devices/<name>.yaml). */
struct rec_device {
    char name[32];
    double overhead_ms;   /* DB2 OVERHEAD: seek + half rotation */
    double transfer_mb_s; /* sequential read rate, MB/s */
};
int rec_device_from_json(struct rec_device *d, const json_t *prof,
                         const char *ctx, struct pt_err *err);
/*
 * DB2 TRANSFERRATE in ms per page:
 * (1 / MB_per_s) * 1000 / 1024000 * page_size_bytes (design.md §1).
 */
double rec_device_transfer_ms(const struct rec_device *d,
                              uint32_t page_size_bytes);
/* Time of one random read of `bytes`: overhead + bytes at the read rate. */
double rec_device_read_ms(const struct rec_device *d, uint64_t bytes);

#endif /* PT_ANALYZERS_H */
