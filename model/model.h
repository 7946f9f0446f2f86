/* SPDX-License-Identifier: Apache-2.0 */
/*
 * model.h — the public face of model/, the domain model every step shares:
 * engine page-fit rules, the device I/O model, the number ranges (limits),
 * size statistics and the sizes and monitor evidence collect/ fills, a
 * trace's access evidence, the server's current state knob by knob, the
 * default object names, the one loader of engine and device profiles, and
 * a recommendation as the later steps take it (struct rec_doc). Pure
 * functions: no I/O but core's profile loader (profiles.c), no printing
 * (docs/architecture.md#rules).
 *
 * The `rec_` prefix is historical (the module was analyzers/, which also
 * held the recommend step, now recommend/); it is kept so the names did
 * not change with the split.
 *
 * Neighbours: collect/ fills struct rec_sizes and struct rec_monitor; sim/
 * uses the page-fit rules and the device model for its database tier;
 * store/ uses the inline limits for WebSphere placement; perf/ the device
 * and engine; ddl/ plans from a struct rec_doc; recommend/ runs the cost
 * model over all of it.
 */
#ifndef PT_MODEL_H
#define PT_MODEL_H

#include "core/core.h"

#define REC_MAX_PAGE_SIZES 16
#define REC_MAX_OUTLINE 4

/* What the engine does at one page size (profiles/engines/<name>.yaml). */
struct rec_page_rule {
    uint32_t page_size_bytes;          /* e.g. 8192 */
    uint32_t inline_limit_bytes;       /* largest object stored in the row (DB2:
                                          WebSphere SMALL length s) */
    uint32_t max_row_bytes;            /* engine's maximum row length */
    uint32_t usable_bytes;             /* bytes of a page available to rows */
    uint32_t outline_payload_bytes;    /* out-of-line bytes one page holds
                                          when out-of-line data is buffered
                                          (TOAST chunks, InnoDB BLOB pages,
                                          SQLite overflow pages); 0 = usable */
    uint32_t outline_descriptor_bytes; /* row bytes an out-of-line object
                                          leaves at this page size; 0 = the
                                          outline column's descriptor */
    uint32_t insert_reserve_bytes;     /* bytes a page filled in key order
                                          keeps free once it holds 2 rows
                                          (InnoDB: page size / 16); 0 = none */
};

/* An out-of-line column / storage form (DB2: MEDIUM LONG VARCHAR, LARGE BLOB).
 */
struct rec_outline {
    char name[32];             /* "MEDIUM", "LARGE", "TOAST", ... */
    uint64_t max_bytes;        /* largest object it accepts */
    uint32_t descriptor_bytes; /* bytes it leaves in the row */
};

/*
 * A per-table knob that moves the inline limit without changing the page
 * size (PostgreSQL toast_tuple_target). The object inline limit for a knob
 * value v is v - offset_bytes; v is rounded up to align_bytes.
 */
struct rec_inline_knob {
    int present;
    char name[40];          /* "toast_tuple_target" */
    uint32_t min, max;      /* documented range of the knob */
    uint32_t default_value; /* the engine's default */
    uint32_t offset_bytes;  /* knob value - largest inline object */
    uint32_t align_bytes;   /* round the recommended value up to this */
};

/* PostgreSQL's tuple and TOAST figures (postgresql.yaml "toast"). */
struct rec_pg_layout {
    int present;
    uint32_t tuple_header_bytes;      /* SizeofHeapTupleHeader, 23 */
    uint32_t maxalign_bytes;          /* MAXIMUM_ALIGNOF, 8 */
    uint32_t item_bytes;              /* ItemIdData, 4 */
    uint32_t threshold_bytes;         /* TOAST_TUPLE_THRESHOLD */
    uint32_t target_main_bytes;       /* TOAST_TUPLE_TARGET_MAIN */
    uint32_t chunk_bytes;             /* TOAST_MAX_CHUNK_SIZE */
    uint32_t chunk_fixed_bytes;       /* chunk_id + chunk_seq columns */
    uint32_t pointer_bytes;           /* TOAST_POINTER_SIZE, 18 */
    uint32_t short_max_bytes;         /* VARATT_SHORT_MAX, 127 */
    uint32_t varlena_header_bytes;    /* VARHDRSZ, 4 */
    uint32_t compressed_header_bytes; /* VARHDRSZ_COMPRESSED, 8 */
    uint32_t index_entry_bytes;       /* a TOAST index leaf entry + item */
    uint32_t index_fillfactor;        /* btree leaf fillfactor, % */
};

/*
 * SQLite's table b-tree figures (sqlite.yaml "btree"; sqlbtree.c). The
 * in-leaf limit X, the local part M / K of a spilled payload and the
 * overflow page payload U - 4 are the file format's formulas, in
 * sqlbtree.c.
 */
struct rec_sq_layout {
    int present;
    uint32_t leaf_header_bytes;      /* table leaf page header, 8 */
    uint32_t interior_header_bytes;  /* table interior page header, 12 */
    uint32_t cell_pointer_bytes;     /* cell pointer array entry, 2 */
    uint32_t overflow_pointer_bytes; /* first overflow page number, 4 */
    uint32_t min_cell_bytes;         /* a cell takes at least 4 bytes */
    uint32_t record_header_bytes;    /* the record header the profile's
                                        inline limits assume (12); a
                                        measured rest of the row has it */
};
/* One row's cell in a table leaf (rec_sq_cell_fit). */
struct rec_sq_cell {
    uint64_t local_bytes;    /* payload bytes in the leaf */
    uint64_t overflow_pages; /* pages of its overflow chain */
    uint32_t cell_bytes;     /* the cell with its cell pointer */
};

struct rec_engine {
    char name[32]; /* "db2", "postgresql", ... */
    size_t n_pages;
    struct rec_page_rule pages[REC_MAX_PAGE_SIZES]; /* ascending size */
    size_t n_outline;
    struct rec_outline outline[REC_MAX_OUTLINE]; /* in placement order */
    uint32_t max_rows_per_page;                  /* DB2 REGULAR: 255 */
    uint32_t row_fixed_bytes;      /* row bytes besides the object */
    int row_measured;              /* 1: row_fixed_bytes was measured
                                      (rec_engine_set_row_fixed) */
    uint32_t row_overhead_bytes;   /* per-row header + slot */
    int outline_buffered;          /* 0: out-of-line data bypasses the
                                      buffer pool (DB2 direct I/O) */
    uint32_t direct_io_unit_bytes; /* DB2 direct reads count 512-byte
                                      sectors */
    uint32_t page_overhead_bytes;  /* per-page header (DB2: 68) */
    uint32_t outline_extra_reads;  /* buffered index reads to find the
                                      out-of-line data (PostgreSQL: the
                                      TOAST index); 0 if none */
    uint32_t outline_prefix_bytes; /* bytes of an out-of-line object kept
                                      in the row, not on its out-of-line
                                      pages (InnoDB COMPACT/REDUNDANT: 768,
                                      set by recommend); 0 if none */
    uint32_t current_page_bytes;   /* page size a new database gets by
                                      default; 0 = unknown */
    uint64_t default_pool_bytes;   /* the buffer pool a default
                                      configuration has; 0 = unknown */
    char bp_policy[32];            /* the simulator policy of the engine's
                                      buffer pool (buffer_pool_policy,
                                      e.g. "pg-clock"); "" = none named.
                                      sim/ resolves the name */
    struct rec_inline_knob knob;   /* knob.present = 0: none */
    struct rec_change_thresholds {
        double reloption;               /* a table option, no rewrite */
        double rebuild;                 /* a table rebuild (VACUUM FULL, VACUUM,
                                           ALTER TABLE ... ROW_FORMAT) */
        double new_instance;            /* a new instance and a dump/reload */
    } change_threshold;                 /* least modelled gain (fraction, 0..1)
                                           a change needs (docs/models.md
                                           #change-threshold) */
    struct rec_pg_layout pg;            /* PostgreSQL: "toast" (present = 0
                                           for other engines) */
    struct rec_sq_layout sq;            /* SQLite: "btree" (present = 0 for
                                           other engines) */
    double fs_caching_min_direct_reads; /* DB2: FILE SYSTEM CACHING when
                                           out-of-row reads per access
                                           reach this; 0 = never */
};

/* The change thresholds a profile gives no value for (change_thresholds
 * defaults; the change rule is recommend/'s, docs/models.md
 * #change-threshold). */
#define REC_DEFAULT_GAIN_RELOPTION 0.05
#define REC_DEFAULT_GAIN_REBUILD 0.10
#define REC_DEFAULT_GAIN_NEW_INSTANCE 0.25

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
/*
 * Use a measured rest of the row (sizes.json row_fixed_bytes) instead of
 * the profile's constant: every page's inline limit and the inline knob's
 * offset were derived as "row limit - row_fixed_bytes" (the profiles'
 * comments), so each moves by the difference; limits stay within 0 ..
 * max_row. DB2's limits are WebSphere's SMALL length and stay. Sets
 * row_measured.
 */
void rec_engine_set_row_fixed(struct rec_engine *e, uint32_t row_fixed_bytes);
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
 * (1 / MB_per_s) * 1000 / 1024000 * page_size_bytes (docs/models.md#device).
 */
double rec_device_transfer_ms(const struct rec_device *d,
                              uint32_t page_size_bytes);
/*
 * The one TRANSFERRATE formula: ms to read `bytes` at read_rate_mb_s,
 * (1 / MB_per_s) * 1000 / 1024000 * bytes (IBM's CREATE TABLESPACE
 * TRANSFERRATE; pagetune-recommend(1), THE CHOICE). rec_device_transfer_ms()
 * and rec_device_read_ms() and ddl/'s default TRANSFERRATE use it.
 */
double rec_transfer_ms(double read_rate_mb_s, uint64_t bytes);
/* Time of one random read of `bytes`: overhead + bytes at the read rate. */
double rec_device_read_ms(const struct rec_device *d, uint64_t bytes);

/* ---- engine profile extras ---------------------------------------------- */

/* Bytes of a page available to rows when a profile gives no usable_bytes. */
uint32_t rec_engine_usable_default(uint32_t page_size_bytes,
                                   uint32_t page_overhead_bytes);

/* ---- limits ----------------------------------------------------------------
 */

/*
 * One table of the ranges numbers must keep at the border of every reader
 * (engine and device profiles, sizes, recommendation documents, the
 * options of recommend) and that recommend's writer respects, so whatever
 * `recommend` writes, `ddl` accepts. The envelope of the dialects' own
 * ranges (ddl_templates/<dialect>/dialect.yaml, checked again by ddl/):
 * pages of 512 B to 64 KiB (SQLite's and InnoDB's extremes), DB2's
 * CREATE BUFFERPOOL SIZE and EXTENTSIZE, OVERHEAD and TRANSFERRATE as
 * ddl/plan.c checks them, and a pool budget every dialect's setting
 * accepts (512 GiB: PostgreSQL shared_buffers_kb, InnoDB
 * innodb_buffer_pool_size, SQLite cache_size_kib stay below their caps).
 */
enum rec_limit_id {
    REC_LIM_PAGE_BYTES,     /* a page size */
    REC_LIM_ROW_BYTES,      /* a byte count of a row or page layout */
    REC_LIM_MEMORY_BYTES,   /* a buffer pool's bytes (profiles, results) */
    REC_LIM_BUDGET_BYTES,   /* --memory: also above every dialect's minimum
                               pool (InnoDB: 5 MiB) */
    REC_LIM_POOL_PAGES,     /* buffer-pool pages */
    REC_LIM_EXTENT_PAGES,   /* EXTENTSIZE */
    REC_LIM_PREFETCH_PAGES, /* PREFETCHSIZE */
    REC_LIM_OVERHEAD_MS,    /* OVERHEAD */
    REC_LIM_TRANSFER_MS,    /* TRANSFERRATE (above the minimum, not at it) */
    REC_LIM_SIZE_BYTES,     /* one object's size */
    REC_LIM_COUNT
};
struct rec_limit {
    double min, max;
    int min_open; /* 1: the minimum itself is out of range */
};
#define REC_MIN_PAGE_BYTES 512U
#define REC_MAX_PAGE_BYTES 65536U
#define REC_MAX_MEMORY_BYTES (512ULL << 30)
#define REC_MIN_BUDGET_BYTES (5ULL << 20)
#define REC_MAX_POOL_PAGES 2147483647ULL
#define REC_MAX_SIZE_BYTES (1ULL << 53) /* exact in a double */
extern const struct rec_limit rec_limits[REC_LIM_COUNT];
/*
 * 0 if v is within limit `id`, else PT_EDATA "ctx: FIELD V is outside
 * MIN..MAX" (ctx may be NULL). The _u64 form prints v exactly.
 */
int rec_limit_check(enum rec_limit_id id, double v, const char *ctx,
                    const char *field, struct pt_err *err);
int rec_limit_check_u64(enum rec_limit_id id, uint64_t v, const char *ctx,
                        const char *field, struct pt_err *err);

/* ---- size statistics ------------------------------------------------------
 */

#define REC_HIST_MAX 48
/* Objects a sizes input may describe: every count and the mean's weights
 * stay exact in a double (2^53). */
#define REC_MAX_OBJECTS (1ULL << 53)

/* One histogram bin: objects with previous le < size <= le (not cumulative). */
struct rec_hist_bin {
    uint64_t le;    /* upper bound in bytes, inclusive */
    uint64_t count; /* objects in this bin */
};

/*
 * Statistics of object sizes (bytes). Percentiles use the nearest-rank
 * definition: pXX is the smallest size x such that at least XX % of the
 * objects are <= x, i.e. sorted[ceil(XX/100 * n) - 1]. The histogram has
 * power-of-two bounds from 1K up to the first power of two >= max.
 */
struct rec_size_stats {
    uint64_t count;
    uint64_t min, max;
    double mean;
    uint64_t p50, p90, p95, p99;
    size_t n_bins;
    struct rec_hist_bin bins[REC_HIST_MAX];
};

/*
 * Compute statistics of values[0..n). Sorts `values` in place (ascending);
 * the recommendation expects sorted values. PT_EDATA if n == 0.
 */
int rec_stats_compute(struct rec_size_stats *st, uint64_t *values, size_t n,
                      struct pt_err *err);
/*
 * The same statistics of weighted sizes: values[i] (sorted ascending) held
 * by counts[i] objects (counts NULL: one each). O(n) time, no allocation,
 * so a histogram of 10^12 objects costs its bins only. PT_EDATA if there
 * are no objects or more than REC_MAX_OBJECTS.
 */
int rec_stats_compute_weighted(struct rec_size_stats *st,
                               const uint64_t *values, const uint64_t *counts,
                               size_t n, struct pt_err *err);
/* Nearest-rank percentile (0 < pct <= 100) of sorted values; 0 if n == 0. */
uint64_t rec_percentile(const uint64_t *sorted, size_t n, double pct);
/* The same over weighted sizes (counts NULL: one each) holding `total`
 * objects in all. */
uint64_t rec_percentile_weighted(const uint64_t *sorted, const uint64_t *counts,
                                 size_t n, uint64_t total, double pct);
/*
 * The sizes JSON of docs/formats.md#sizes for these statistics: schema_version,
 * count, min, max, mean, p50..p99, histogram [{le, count}], and "values"
 * (all of them) if values != NULL. `source` (may be NULL) is copied in as
 * "source". Returns a new reference (caller json_decref) or NULL on OOM.
 */
json_t *rec_stats_to_json(const struct rec_size_stats *st,
                          const uint64_t *values, size_t n,
                          const json_t *source);

/*
 * A list of object sizes parsed from memory (the caller reads the file;
 * model/ does no I/O), as weighted entries: values[i] is the size of
 * counts[i] objects. A plain list has counts == NULL (one object each); a
 * histogram has one entry per non-empty bin, so its size is O(bins) however
 * many objects the bins hold. Free with rec_sizes_release().
 */
struct rec_sizes {
    uint64_t *values;           /* n sizes in bytes (owned) */
    uint64_t *counts;           /* n objects per size (owned); NULL: 1 each */
    size_t n;                   /* entries */
    uint64_t total;             /* objects: sum of counts (n without counts) */
    int from_histogram;         /* 1: reconstructed from histogram bin bounds */
    uint32_t row_fixed_bytes;   /* measured bytes of the row besides its
                                   objects and header (sizes.json
                                   row_fixed_bytes.mean, rounded up); 0 =
                                   not measured: the profile's constant */
    int row_measured;           /* 1: row_fixed_bytes was measured */
    uint64_t live_rows;         /* the table's live rows (sizes.json
                                   live_rows.value); 0 = not measured */
    char live_rows_source[160]; /* how they were counted */
    char table[260];            /* sizes.json source.table, "" if absent */
};
void rec_sizes_release(struct rec_sizes *s);
/*
 * Sort the entries by size, ascending (counts move with their values);
 * uses O(n) temporary memory when there are counts. PT_EINTERNAL on OOM.
 */
int rec_sizes_sort(struct rec_sizes *s, struct pt_err *err);
/* Sort s (rec_sizes_sort) and compute its statistics (weighted). */
int rec_sizes_stats(struct rec_sizes *s, struct rec_size_stats *st,
                    struct pt_err *err);
/*
 * Plain text: one non-negative integer byte size per line; '#' starts a
 * comment (whole line or after the number); blank lines, signs, fractions,
 * suffixes and garbage are PT_EDATA "name:LINE: ...". No sizes at all is
 * PT_EDATA too.
 */
int rec_sizes_parse_text(struct rec_sizes *s, const char *buf, size_t len,
                         const char *name, struct pt_err *err);
/* The sizes JSON itself is read by collect/ (coll_sizes_doc_from_json). */

/* ---- monitor evidence -----------------------------------------------------
 */

/* What `monitor -o` measured (docs/formats.md#monitor, "current"/"summary").
 */
#define REC_MONITOR_MAX_TABLES 100 /* the PostgreSQL adapter's LIMIT */
/* The fewest block accesses (buffer-pool logical reads) a monitor window
   must have seen for its hit ratio and read rates to be trusted: collect/
   warns below it (coll_monitor_window_thin), recommend/ does not judge the
   model against a window below it (REC_RECONCILE_MIN_READS). */
#define REC_MONITOR_MIN_READS 1000
struct rec_monitor {
    int present;
    char engine[32];           /* "engine" of the document, "" if absent */
    uint32_t page_size_bytes;  /* current page size */
    uint64_t bufferpool_pages; /* current pool pages (0 = unknown) */
    double hit_ratio_pct;      /* 0..100 */
    uint64_t logical_reads, physical_reads, direct_reads;
    double direct_read_share; /* 0..1 */
    /* per table (PostgreSQL pg_statio_user_tables): the blocks a row
       access touches, heap + TOAST + TOAST index, hit and read over the
       run (monitor.json "tables") */
    size_t n_tables;
    struct rec_monitor_table {
        char name[128]; /* "schema.table" */
        uint64_t hits, reads;
    } tables[REC_MONITOR_MAX_TABLES];
    /* the host's physical memory (monitor.json "host") */
    int host_read;              /* the document says something of it */
    uint64_t host_memory_bytes; /* 0 = not known */
    char host_source[256];      /* how it was read, or why it was not */
};
/* Filled from a monitor document by collect/ (coll_monitor_doc_from_json). */

/* ---- access evidence from a trace -----------------------------------------
 */

/*
 * Per-session evidence gathered from a trace by the caller (cli/ reads the
 * trace through sim/): for each distinct key in first-seen order, its size
 * in bytes and the number of gets. Borrowed by rec_recommend().
 */
struct rec_access {
    size_t n_keys;
    const uint64_t *size_bytes; /* n_keys, last size seen per key */
    const uint64_t *gets;       /* n_keys, reads of that key */
};

/*
 * Building that evidence from a trace: the caller reads the requests
 * (through sim/) and adds each one; the arrays grow by doubling, so the
 * caller's loop allocates only when a new key id passes the capacity.
 * Release with rec_trace_evidence_release() (also a zeroed struct).
 */
enum rec_trace_op { REC_TRACE_GET, REC_TRACE_SET, REC_TRACE_DEL };
struct rec_trace_evidence {
    uint64_t *size_bytes; /* per key id: last size set or read (owned) */
    uint64_t *gets;       /* per key id: reads (owned) */
    size_t n_keys, cap;   /* keys seen (highest id + 1), allocated */
    uint64_t requests;    /* requests added */
    uint64_t n_gets;      /* of which reads */
};
/* Add one request of key `key_id` (a dense id, as sim/ interns them).
 * PT_EINTERNAL on OOM, PT_EDATA on an absurd key id. */
int rec_trace_evidence_add(struct rec_trace_evidence *t, uint64_t key_id,
                           uint64_t size_bytes, enum rec_trace_op op,
                           struct pt_err *err);
/* The access view for rec_inputs (borrows t's arrays). */
void rec_trace_evidence_access(const struct rec_trace_evidence *t,
                               struct rec_access *acc);
void rec_trace_evidence_release(struct rec_trace_evidence *t);

/* ---- the current state of the server (`current`) --------------------------
 *
 * What the server has now, knob by knob, as `sample`/`monitor` read it live
 * (source "server") or, without a live read, the engine's documented
 * default (source "default"). The recommendation carries it through to
 * ddl/, whose rollback.sql restores exactly these values, and drift
 * compares it with the recommendation. Knob names and units per engine:
 * docs/formats.md "current". A knob that is not set explicitly on the
 * server (no toast_tuple_target reloption, no ALTER SYSTEM line, no
 * explicit ROW_FORMAT) has is_set = 0: rollback then RESETs it.
 */
enum rec_source { REC_SOURCE_DEFAULT = 0, REC_SOURCE_SERVER = 1 };
#define REC_MAX_KNOBS 12
#define REC_KNOB_WORD_LEN 24

struct rec_knob {
    char name[40];                /* lower_snake_case knob name */
    int is_set;                   /* 0: null, nothing set explicitly */
    int is_number;                /* the value is num, else word */
    int64_t num;                  /* bytes, or the engine's own unit */
    char word[REC_KNOB_WORD_LEN]; /* a keyword: [A-Za-z0-9_] only */
    enum rec_source source;
};

#define REC_STATE_NOTE_LEN 256
struct rec_state {
    size_t n;
    struct rec_knob knobs[REC_MAX_KNOBS];
    char note[REC_STATE_NOTE_LEN]; /* which knobs could not be read and
                                      why ("current": "note"), or "" */
};

/* The knob named `name`, or NULL. */
const struct rec_knob *rec_state_get(const struct rec_state *s,
                                     const char *name);
/* Set (or replace) a knob: a number, a keyword (checked: PT_EDATA if it is
 * not [A-Za-z0-9_]{1,23}) or null. PT_EDATA when the state is full. */
int rec_state_set_num(struct rec_state *s, const char *name, int64_t v,
                      enum rec_source src, struct pt_err *err);
int rec_state_set_word(struct rec_state *s, const char *name, const char *w,
                       enum rec_source src, struct pt_err *err);
int rec_state_set_null(struct rec_state *s, const char *name, int is_number,
                       enum rec_source src, struct pt_err *err);
/*
 * Add, with source "default", every knob of `engine` ("postgresql",
 * "mysql", "sqlite", "db2") that s lacks: the engine's documented defaults
 * (docs/formats.md "current"). Other engines get nothing.
 */
void rec_state_fill_defaults(struct rec_state *s, const char *engine);
/*
 * The value the engine uses for knob k: k itself when it is set, else the
 * engine's value for an unset knob (toast_tuple_target 2032, row_format
 * DYNAMIC). -1 when there is none (shared_buffers_auto_conf: unset means
 * postgresql.conf decides).
 */
int rec_knob_effective(const char *engine, const struct rec_knob *k,
                       struct rec_knob *out);
/*
 * rec_knob_effective with the rest of the state: a MariaDB table without
 * an explicit ROW_FORMAT uses the server's innodb_default_row_format when
 * s holds it (read live by collect/), not always DYNAMIC.
 */
int rec_state_knob_effective(const struct rec_state *s, const char *engine,
                             const struct rec_knob *k, struct rec_knob *out);
/* 1 if any knob of s was read from the server. */
int rec_state_any_server(const struct rec_state *s);
/* Add a note on what could not be read ("; "-separated, once each). */
void rec_state_note_add(struct rec_state *s, const char *note);
/*
 * Merge a `current` object into s: a string member "note" is added with
 * rec_state_note_add; each other member KNOB is {"value": integer |
 * keyword string | null, "source": "server" | "default"}; a plain integer
 * or string member (monitor.json's page_size, bufferpool_bytes, ...) is
 * taken as {"value": it, "source": plain_source} — but only for names in
 * the engine's knob list, other plain members are ignored. PT_EDATA
 * "ctx: current.KNOB: ..." otherwise. NULL obj: nothing to do.
 */
int rec_state_merge_json(struct rec_state *s, const json_t *obj,
                         const char *engine, enum rec_source plain_source,
                         const char *ctx, struct pt_err *err);
/* The `current` object of s (its note as "note" when there is one). New
 * reference (caller json_decref) or NULL. */
json_t *rec_state_to_json(const struct rec_state *s);
/* Are the knob's value and text equal (words case-insensitively)? */
int rec_knob_equal(const struct rec_knob *a, const struct rec_knob *b);
/* The value as text: the number, the word, or "null". Returns buf. */
char *rec_knob_text(const struct rec_knob *k, char *buf, size_t len);

/* ---- profiles --------------------------------------------------------------
 */

/*
 * The one loader of each kind (profiles.c): an engine or a device profile by
 * name (profiles/<kind>/NAME.yaml in the data directory) or by file, parsed
 * into the model's struct; path (len bytes) receives the file read. With
 * doc, the engine profile's document is handed over for the sections other
 * modules own (perf/'s costs); the caller json_decref()s it.
 */
int rec_engine_load(const char *name, struct rec_engine *e, json_t **doc,
                    char *path, size_t len, struct pt_err *err);
int rec_device_load(const char *name, struct rec_device *d, char *path,
                    size_t len, struct pt_err *err);
/*
 * The engine and device profiles by name or file (the data directory's
 * profiles/engines and profiles/devices), into e and d (d may be NULL: the
 * engine only); epath and dpath receive the files read. Both through
 * rec_engine_load and rec_device_load. PT_EUSAGE naming the profile when there
 * is no such name; the loader's errors otherwise.
 */
int rec_profiles_load(const char *engine, const char *device,
                      struct rec_engine *e, struct rec_device *d, char *epath,
                      char *dpath, size_t len, struct pt_err *err);

/* ---- a recommendation as the later steps take it ---------------------------
 */

#define REC_POOL_MIN_PAGES 1000 /* DB2's default CREATE BUFFERPOOL SIZE */

/*
 * Default object names, the one place they are made: "SESSBP<n>K" for the
 * buffer pool, "SESSTS<n>K" for the table space, n = page size / 1024.
 * Writes into buf (len >= 19 is enough) and returns buf.
 */
enum rec_object { REC_OBJ_BUFFERPOOL, REC_OBJ_TABLESPACE };
char *rec_default_name(enum rec_object kind, uint64_t page_size_bytes,
                       char *buf, size_t len);

/*
 * A recommendation document read back: what the document decides, as
 * `pagetune ddl` (ddl_plan_from_recommendation) and advise's drift need
 * it. The type is the model's so that ddl/ plans from it without the
 * recommend step; recommendation.json's owner, recommend/doc.c, fills it
 * (rec_result_from_json, beside the writer rec_result_to_json) and
 * releases it (rec_doc_release). Strings and JSON values are borrowed from
 * the document (valid while it lives); `reasons` is an owned array of
 * borrowed strings.
 */
struct rec_doc {
    const char *engine;          /* "engine" */
    const char *decided_by;      /* "decided_by" or NULL if absent */
    const char *bufferpool_name; /* bufferpool.name */
    const char *tablespace_name; /* tablespace.name */
    uint64_t page_size_bytes;    /* page_size of both objects */
    uint64_t bufferpool_pages;   /* bufferpool.pages */
    uint64_t extent_size;        /* tablespace.extent_size, pages */
    int prefetch_automatic;      /* tablespace.prefetch_size "AUTOMATIC" */
    uint64_t prefetch_size;      /* pages, if not automatic */
    double overhead_ms;          /* tablespace.overhead */
    double transfer_rate_ms;     /* tablespace.transfer_rate */
    const json_t *settings;      /* "settings" (any type) or NULL: the
                                    consumer checks it against its rules */
    int has_current;             /* "current" was present */
    struct rec_state current;    /* "current" (rec_state_merge_json) */
    int fs_caching;              /* tablespace.file_system_caching: 1, 0,
                                    or -1 when absent */
    double table_bytes;          /* cost.table_bytes, 0 if absent */
    double rewrite_seconds;      /* cost.rewrite_seconds, 0 if absent */
    size_t n_reasons;
    const char **reasons; /* the string entries of "reasons" (owned array) */
};
/*
 * The document's numbers against rec_limits (limits.c): page size, pool
 * pages and bytes, EXTENTSIZE, PREFETCHSIZE, OVERHEAD, TRANSFERRATE.
 * PT_EDATA "name: FIELD V is outside MIN..MAX". rec_result_from_json
 * calls it, so ddl never plans from a number recommend could not write.
 */
int rec_doc_check(const struct rec_doc *d, const char *name,
                  struct pt_err *err);

/*
 * The knob of `current` that a recommendation setting changes (setting
 * "toast_tuple_target" -> knob "toast_tuple_target", "shared_buffers_kb"
 * -> "shared_buffers" with scale 1024, "innodb_page_size" -> "page_size",
 * ...): the knob name, or NULL if the setting changes no knob. *scale
 * (may be NULL) gets the factor from the setting's unit to the knob's.
 */
const char *rec_setting_knob(const char *engine, const char *setting,
                             int64_t *scale);

/* ---- PostgreSQL: pglz and the heap + TOAST layout (pglz.c, pgtoast.c) ----
 *
 * pglz's default strategy (src/common/pg_lzcompress.c
 * PGLZ_strategy_default): an algorithm's constants, not a tunable.
 */
#define REC_PGLZ_HISTORY 4096 /* PGLZ_HISTORY_SIZE */
#define REC_PGLZ_LISTS 8192   /* PGLZ_MAX_HISTORY_LISTS */
struct rec_pglz_strategy {
    int min_input_size;   /* 32: shorter values are not compressed */
    int min_comp_rate;    /* 25: the output must save 25 % */
    int first_success_by; /* 1024: give up without a match by then */
    int match_size_good;  /* 128 */
    int match_size_drop;  /* 10 (%) */
};
extern const struct rec_pglz_strategy rec_pglz_default;
/* pglz's history, the caller's (48 KB; no allocation per value). */
struct rec_pglz_work {
    int32_t head[REC_PGLZ_LISTS];
    int32_t next[REC_PGLZ_HISTORY];
};
/*
 * Bytes pglz_compress() writes for src[0..n) under strategy s (NULL: the
 * default), or -1 where it gives up (too short, no match in the first
 * 1024 output bytes, less than min_comp_rate saved).
 */
int64_t rec_pglz_size(struct rec_pglz_work *w, const uint8_t *src, size_t n,
                      const struct rec_pglz_strategy *s);
/*
 * The compressed datum the toaster keeps (toast_compress_datum): header +
 * pglz bytes when that saves more than 2 bytes on raw_bytes, else -1.
 */
int64_t rec_pglz_datum_bytes(int64_t pglz_bytes, uint64_t raw_bytes,
                             uint32_t compressed_header_bytes);

#define REC_PG_MAX_COLUMNS 8
/* One table as the toaster sees it (built by run.c from sizes.json). */
struct rec_pg_table {
    uint32_t target_bytes;            /* toast_tuple_target in effect */
    uint32_t fillfactor;              /* heap fillfactor, 10..100 */
    uint32_t rest_bytes;              /* data bytes of the other columns */
    size_t n_columns;                 /* object columns (>= 1) */
    double share[REC_PG_MAX_COLUMNS]; /* each column's part of an object */
    char storage[REC_PG_MAX_COLUMNS]; /* attstorage: p, m, e, x */
    double ratio;          /* pglz bytes / raw bytes of the values that compress
                              (measured by a trial); 0 = they do not compress */
    double fixed_bytes;    /* with ratio: pglz bytes = fixed + ratio x raw
                              (the trial's line; 0 = proportional) */
    int ratio_measured;    /* 1: a trial (or the server's compressed values)
                              measured it; 0: nobody tried */
    double compress_share; /* with ratio: the share of the values that
                              compress (the trial's); the others are
                              modelled as incompressible. 0 is taken as 1 */
};
/* Where one row's bytes go. */
struct rec_pg_tuple {
    uint32_t heap_bytes;    /* MAXALIGNed tuple + its line pointer */
    int n_external;         /* values moved to TOAST */
    int n_compressed;       /* values stored compressed */
    uint64_t toast_bytes;   /* chunk tuples, aligned, + line pointers */
    uint64_t toast_chunks;  /* chunk tuples */
    uint64_t inflate_bytes; /* raw bytes decompressed on a read */
};
/*
 * heap_toast_insert_or_update for a row whose objects total obj_bytes,
 * split over t's columns by share: see pgtoast.c.
 */
void rec_pg_tuple_fit(const struct rec_pg_layout *l,
                      const struct rec_pg_table *t, uint64_t obj_bytes,
                      struct rec_pg_tuple *out);
/* A TOAST chunk tuple of n data bytes, aligned, with its line pointer. */
uint32_t rec_pg_chunk_tuple_bytes(const struct rec_pg_layout *l, uint64_t n);
/*
 * Pages filled as hio.c RelationGetBufferForTuple fills them: a tuple goes
 * to the target page (the last one used) while the page's free space stays
 * above `save` bytes (the fillfactor's); else the page's free space is
 * recorded in the free space map and the map is searched for a page with
 * room (freespace.c RecordAndGetPageWithFreeSpace, fsmpage.c
 * fsm_search_avail: the first page with enough space from the map's next
 * slot on, wrapping), which becomes the target; none: a new page. The
 * map's space is kept in 32-byte categories, rounded down for a page and
 * up for a request. See pgtoast.c.
 */
struct rec_pg_pack {
    uint32_t usable_bytes; /* page bytes for tuples and items */
    uint32_t save_bytes;   /* BLCKSZ x (100 - fillfactor) % */
    uint32_t *used;        /* bytes used, per page */
    uint8_t *tree;         /* max-tree of the map's categories */
    size_t cap;            /* pages the arrays hold (a power of 2) */
    size_t target;         /* the page tried first */
    size_t next_slot;      /* the map's search start (fp_next_slot) */
    int failed;            /* out of memory: pages counted, no map */
    int no_map;            /* 1: a full page is never returned to (SQLite
                              leaves appended by balance_quick) */
    uint64_t last_used;    /* no_map (or failed): bytes of the last page */
    double pages;          /* pages so far */
};
void rec_pg_pack_init(struct rec_pg_pack *k, uint32_t page_size_bytes,
                      uint32_t usable_bytes, uint32_t fillfactor);
void rec_pg_pack_add(struct rec_pg_pack *k, uint32_t bytes);
void rec_pg_pack_free(struct rec_pg_pack *k);
/*
 * The same rules for one backend of several, with pages that empty again
 * (advise/pgpredict.c emulates a replay with them): a tuple of `bytes`
 * goes to *target (the backend's target block; past the last page: none,
 * then the map, else the last page), and *target becomes its page, which
 * is returned ((size_t)-1 out of memory). visit(ctx, page, is_new) is
 * called for every page the backend reads on the way (ReadBuffer: the
 * target, each page the map offers, the new page of an extension).
 * rec_pg_pack_release frees bytes of a page without telling the map
 * (pruning); rec_pg_pack_record tells the map a page's free space (VACUUM).
 */
typedef void rec_pg_visit_fn(void *ctx, size_t page, int is_new);
size_t rec_pg_pack_place(struct rec_pg_pack *k, uint32_t bytes, size_t *target,
                         rec_pg_visit_fn *visit, void *ctx);
void rec_pg_pack_release(struct rec_pg_pack *k, size_t page, uint32_t bytes);
void rec_pg_pack_record(struct rec_pg_pack *k, size_t page);
/* Heap tuples of heap_bytes (with item) a page of usable bytes takes at
 * the fillfactor (RelationGetBufferForTuple), at least 1. */
uint32_t rec_pg_rows_per_page(const struct rec_pg_table *t,
                              uint32_t page_size_bytes, uint32_t usable_bytes,
                              uint32_t heap_bytes);

/* ---- SQLite: the table b-tree (sqlbtree.c) ---------------------------- */
/* The record bytes (payload) of a row whose objects total obj_bytes: the
 * objects, the rest of the row and, unless measured, the record header. */
uint64_t rec_sq_payload(const struct rec_engine *e, uint64_t obj_bytes);
/* The leaf cell of a payload of payload_bytes at rowid `rowid`. */
void rec_sq_cell_fit(const struct rec_sq_layout *l, uint32_t page_size_bytes,
                     uint64_t payload_bytes, uint64_t rowid,
                     struct rec_sq_cell *out);
/* Interior pages above `leaves` leaf pages of rowids up to `rowid`. */
double rec_sq_interior_pages(const struct rec_sq_layout *l,
                             uint32_t page_size_bytes, double leaves,
                             uint64_t rowid);

#endif /* PT_MODEL_H */
