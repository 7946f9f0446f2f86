/* SPDX-License-Identifier: Apache-2.0 */
/*
 * recommend.h — the public face of recommend/, the recommend step: the
 * cost model and the candidates (recommend.c), the settings in each
 * engine's vocabulary (advice.c), the model against the measured hit ratio
 * and the host's memory (reconcile.c), the change rule (tier.c), the
 * configuration in use (current.c), drift (drift.c), recommendation.json's
 * writer and reader (doc.c) and the step as one call, rec_run() (run.c).
 * Pure functions: no I/O but core's profile loader through the model, no
 * printing (docs/architecture.md#rules).
 *
 * Neighbours: model/ (every type the step reads: engines, devices, sizes,
 * monitor, state, struct rec_doc); cli/cmd_recommend.c and advise/ call
 * rec_run(); cli/cmd_ddl.c and advise read the document back for ddl/.
 */
#ifndef PT_RECOMMEND_H
#define PT_RECOMMEND_H

#include "model/model.h"

/* ---- the cost model and the recommendation --------------------------------
 */

#define REC_DEFAULT_INLINE_TARGET 0.95
#define REC_DEFAULT_MEMORY_BYTES (256ULL << 20)
#define REC_EXTENT_TARGET_BYTES (256U << 10)
#define REC_OVERRIDE_MARGIN 0.10 /* cost model must beat the rule by 10 % */
#define REC_POOL_HEADROOM 1.25   /* table pages x this: growth, index pages */
#define REC_INCOMPRESSIBLE_RATIO                                               \
    0.95 /* stored / raw at or above: the                                      \
            objects do not compress */
/* PostgreSQL: under this share of the pglz trial's values compressing, the
   objects are modelled as incompressible (a stray repetitive value) */
#define REC_MIN_COMPRESS_SHARE 0.05
#define REC_MAX_REASONS 64
#define REC_REASON_LEN 1024

struct rec_inputs {
    const struct rec_engine *engine; /* required */
    const struct rec_device *device; /* required */
    const uint64_t *sizes;           /* sorted ascending (rec_stats_compute) */
    const uint64_t *size_counts;     /* objects per size; NULL: 1 each */
    size_t n_sizes;                  /* entries of sizes (and size_counts) */
    uint64_t memory_bytes;           /* buffer-pool budget; 0 = default */
    int memory_given;                /* --memory was given explicitly */
    double inline_target;            /* 0 < t <= 1; 0 = default 0.95 */
    uint64_t sessions;               /* live rows; 0 = estimate */
    const char *sessions_basis;      /* where `sessions` was measured
                                        (borrowed; NULL = "--sessions") */
    const struct rec_monitor *monitor; /* may be NULL */
    const struct rec_access *access;   /* may be NULL */
    const char *bufferpool_name;       /* NULL = "SESSBP<n>K" */
    const char *tablespace_name;       /* NULL = "SESSTS<n>K" */
    int sizes_from_histogram;          /* sizes are histogram bin bounds */
    const struct rec_state *current;   /* state read from the server (may
                                          be NULL; defaults fill the rest) */
    double compress_ratio;             /* stored / raw bytes of the objects
                                          (sizes.json compress_ratio); 0 =
                                          not measured */
    const struct rec_pg_table *pg;     /* PostgreSQL: the table as the
                                          toaster sees it (run.c); NULL =
                                          the page-fit rules */
    const char *table;                 /* the sampled table ("[schema.]
                                          name"), or NULL: the monitor's
                                          counters of that table, if it has
                                          them, are reconciled */
};

/* How disruptive a change is: the tier of its threshold. */
enum rec_tier {
    REC_TIER_NONE,
    REC_TIER_RELOPTION,
    REC_TIER_REBUILD,
    REC_TIER_NEW_INSTANCE
};
/* "none", "reloption", "rebuild", "new_instance". */
const char *rec_tier_name(enum rec_tier t);
/* The engine's threshold for a tier (0 for REC_TIER_NONE). */
double rec_tier_threshold(const struct rec_engine *e, enum rec_tier t);
/* 1 when new_io_ms is no higher than cur_io_ms (within rounding): the
 * change rule's condition for a gain in buffered reads alone. */
int rec_io_no_worse(double cur_io_ms, double new_io_ms);
/*
 * The change rule (docs/models.md #change-threshold): a candidate replaces
 * the current state only if its modelled I/O per access is lower by at
 * least the tier's threshold (a fraction of the current I/O), or — below a
 * new instance — its I/O is no higher and its buffered reads per access
 * are lower by at least the threshold. Zero gain and ties keep the
 * current state; a new instance is never justified by buffered reads
 * alone. Returns 1 to change, 0 to keep; *gain_io and *gain_reads get the
 * relative gains (0 when the current figure is 0).
 */
int rec_change_pays(const struct rec_engine *e, enum rec_tier tier,
                    double cur_io_ms, double new_io_ms, double cur_reads,
                    double new_reads, double *gain_io, double *gain_reads);

/* The model's figures for one candidate page size. */
struct rec_candidate {
    uint32_t page_size_bytes;
    uint32_t inline_limit_bytes;
    double inline_fraction; /* objects stored in the row (SMALL) */
    double outline_fraction[REC_MAX_OUTLINE]; /* per out-of-line column */
    double too_big_fraction;                  /* objects no column accepts */
    double rows_per_page;                     /* n / sum(1/rows_per_page_i) */
    double page_fill;           /* row bytes in a page / page size */
    double data_pages;          /* table data pages for `sessions` rows */
    uint64_t bufferpool_pages;  /* floor(memory / page size) */
    double hit_ratio;           /* modelled buffer-pool hit ratio 0..1 */
    double buffered_reads;      /* data-page reads per access (logical) */
    double physical_reads;      /* buffered misses per access */
    double direct_reads;        /* direct read requests per access */
    double direct_sectors;      /* 512-byte sectors read directly per access */
    double transfer_ms;         /* TRANSFERRATE at this page size */
    double io_ms;               /* estimated I/O ms per access */
    double physical_ms;         /* part of io_ms from buffered misses */
    double direct_ms;           /* part of io_ms from direct reads */
    double outline_reads;       /* buffered out-of-line page reads per
                                   access (outline_buffered engines) */
    double outline_pages;       /* out-of-line pages of the table */
    double outline_index_pages; /* its index pages (TOAST index), per
                                   object like outline_pages */
    double outline_index_reads; /* the part of outline_reads that reads
                                   that index (TOAST index root + leaf) */
    double inflate_bytes;       /* bytes decompressed per access
                                   (PostgreSQL compressed values) */
};

/*
 * The table's bytes in a candidate: heap, out-of-line and their index
 * pages for `sessions` rows, x the page size.
 */
double rec_candidate_bytes(const struct rec_candidate *c, double sessions);
/*
 * The change rule with the table's storage (issue 23), for every rebuild
 * that moves bytes (toast_tuple_target, STORAGE, VACUUM FULL):
 * rec_change_pays on I/O and buffered reads, and a change that grows the
 * table (rec_candidate_bytes) must save a larger fraction of buffered
 * reads per access than the fraction it adds to the table. *growth (may be
 * NULL) gets (new - cur) / cur bytes (0 when cur is 0).
 */
int rec_change_pays_storage(const struct rec_engine *e, enum rec_tier tier,
                            const struct rec_candidate *cur,
                            const struct rec_candidate *nw, double sessions,
                            double *growth);

/* One engine setting of the recommendation (e.g. toast_tuple_target). */
#define REC_MAX_SETTINGS 16
struct rec_setting {
    char name[40];  /* lower_snake_case, also the DDL template variable */
    char value[64]; /* as the DDL writes it: a number or a keyword */
    int is_number;  /* value is a decimal integer */
};

/* ---- the pool against the host's memory (docs/models.md "Host memory") --
 *
 * The share of the host's physical memory an engine's buffer pool may take
 * on a dedicated server, from each engine's documentation:
 *   postgresql 0.25  PostgreSQL 15 docs, 20.4.1 "Resource Consumption":
 *                    "a reasonable starting value for shared_buffers is 25%
 *                    of the memory in your system" (dedicated, >= 1 GB);
 *   mysql      0.80  MariaDB KB "InnoDB Buffer Pool": innodb_buffer_pool_size
 *                    "70-80% of the total available memory on a dedicated
 *                    database server" (the upper end);
 *   db2        0.50  IBM Db2 docs "instance_memory": AUTOMATIC lets the whole
 *                    instance take 75 %..95 % of RAM; the buffer pools share
 *                    database memory with sort heaps, lock list, package
 *                    cache and application memory, so one pool gets at
 *                    most two thirds of the instance's lower bound;
 *   sqlite     0.25  SQLite's cache is in the application's process and
 *                    reads go through the OS cache as PostgreSQL's do; no
 *                    SQLite document gives a share, so PostgreSQL's.
 * Returns 0 for an engine without one. *cite (may be NULL) gets the
 * document's name.
 */
double rec_host_pool_fraction(const char *engine, const char **cite);

/* ---- the model against the measured hit ratio ----------------------------
 *
 * docs/models.md "Reconciliation": the model's hit ratio at the current
 * pool and page size against the monitor's measured one. Within
 * REC_RECONCILE_TOLERANCE (absolute, on 0..1) they agree; a window of
 * fewer than REC_RECONCILE_MIN_READS block accesses is too small to judge;
 * otherwise the reason is derived from the numbers (cold reads, the
 * counters covering every relation of the instance, skewed access).
 */
#define REC_RECONCILE_TOLERANCE 0.05
#define REC_RECONCILE_MIN_READS REC_MONITOR_MIN_READS
struct rec_reconcile {
    int present;               /* a measured ratio was there to compare */
    double model_hit_ratio;    /* 0..1, at the current pool and page size */
    double measured_hit_ratio; /* 0..1, the monitor's summary */
    double tolerance;          /* REC_RECONCILE_TOLERANCE */
    const char *verdict;       /* "agrees", "differs", "too_few_reads" */
    int table_scope;           /* 1: the table's own counters, 0: the
                                  whole instance's */
    char scope[200];           /* which counters were measured, in words */
    char reason[REC_REASON_LEN];
    char note[320]; /* an engine-specific second explanation, or "" */
    uint64_t logical_reads, physical_reads; /* the window's block counts */
    double table_pages;    /* the table's pages at the current page size */
    double pool_pages;     /* the current pool's pages */
    int measured_usable;   /* 1: the measured ratio describes the steady
                              state (not cold reads, not too few reads) */
    int used_measured;     /* 1: current_io_ms uses the measured ratio */
    double model_io_ms;    /* the current state's I/O per access, model */
    double measured_io_ms; /* the same with the measured hit ratio */
};
/*
 * Judge the model's hit ratio `model` against `measured` (both 0..1) over
 * a window of `logical` block accesses of which `physical` missed, for a
 * table of `table_pages` in a pool of `pool_pages`, the counters being the
 * table's own (`table_scope`) or the whole instance's: fills verdict,
 * reason and measured_usable. Pure.
 */
void rec_reconcile_judge(struct rec_reconcile *rc, double model,
                         double measured, uint64_t logical, uint64_t physical,
                         double table_pages, double pool_pages,
                         int table_scope);

struct rec_result {
    size_t n_cand;
    struct rec_candidate cand[REC_MAX_PAGE_SIZES];
    size_t rule_idx;     /* smallest page meeting the inline target */
    int rule_met;        /* 0: no page size reaches the target */
    size_t cost_idx;     /* cheapest io_ms per access */
    size_t chosen_idx;   /* the recommendation */
    int chosen_by_cost;  /* 1: the cost model overrode the rule */
    int memory_bound;    /* the rule's page size misses in the pool */
    uint64_t pool_pages; /* recommended buffer-pool size, pages of the
                            chosen page size (bufferpool.pages) */
    int pool_from_table; /* 1: sized to the table, below the default
                            budget (DB2's dedicated pool only) */
    int evidence;        /* 1: trace, monitor, --memory or --sessions */
    const struct rec_device *device; /* borrowed from the inputs */
    uint64_t memory_bytes;
    uint64_t sessions;        /* rows the model assumed */
    char sessions_basis[200]; /* how `sessions` was obtained */
    double inline_target;
    uint32_t extent_size;   /* pages, 2..256 */
    int prefetch_automatic; /* 1: PREFETCHSIZE AUTOMATIC */
    uint32_t prefetch_size; /* pages, if not automatic */
    double overhead_ms;
    double transfer_rate_ms;
    char bufferpool_name[19];
    char tablespace_name[19];
    size_t n_reasons;
    char reasons[REC_MAX_REASONS][REC_REASON_LEN];
    /* engine vocabulary (every engine but db2): settings for the DDL */
    size_t n_settings;
    struct rec_setting settings[REC_MAX_SETTINGS];
    /* an inline knob (knob.present): the chosen page at the tuned limit */
    int knob_evaluated;             /* 1: `tuned` holds figures */
    int knob_pays;                  /* 1: recommend the tuned value */
    double knob_growth;             /* tuned table bytes / base - 1
                                       (rec_change_pays_storage) */
    uint32_t knob_value;            /* recommended knob value */
    uint32_t knob_inline_limit;     /* object inline limit at that value */
    struct rec_candidate tuned;     /* chosen page size at the tuned limit */
    int knob_current_set;           /* the table has the knob set now */
    uint32_t knob_current;          /* its value now (default if not set) */
    struct rec_candidate knob_base; /* chosen page at the current value */
    int storage_switch;             /* PostgreSQL: compressible objects
                                       under STORAGE EXTERNAL get EXTENDED
                                       (advice.c choose_storage) */
    struct rec_candidate switched;  /* chosen page, the value now, the
                                       advised STORAGE: the knob's base */
    /* MariaDB: a table in ROW_FORMAT COMPACT or REDUNDANT now (read from
       the server), modelled as it is against DYNAMIC (eval_row_format) */
    int rowfmt_evaluated;             /* 1: rowfmt_base holds figures */
    int rowfmt_pays;                  /* 1: the rebuild to DYNAMIC pays */
    double rowfmt_gain_io;            /* DYNAMIC over the format now */
    double rowfmt_gain_reads;         /* fractions (rec_change_pays) */
    struct rec_candidate rowfmt_base; /* chosen page, the format now */
    /* the current state and the change rule */
    struct rec_state current;    /* input state + monitor + defaults */
    size_t current_idx;          /* candidate of the current page size, or
                                    (size_t)-1 if it is not a candidate */
    int kept;                    /* 1: a better page size did not beat the
                                    threshold: the current one stays */
    size_t best_idx;             /* the page size chosen before that rule */
    enum rec_tier change_tier;   /* disruption of a page-size change */
    double gain_io, gain_reads;  /* best_idx over current_idx, fractions */
    int pool_kept;               /* 1: no --memory and no monitored pool:
                                    the pool setting stays as it is */
    uint64_t pool_setting_bytes; /* the pool the settings ask for */
    const char *storage_reason;  /* PostgreSQL: why the STORAGE */
    /* DB2: caching of out-of-row data (tablespace.file_system_caching) */
    int fs_caching;
    /* the pool against the host's memory (rec_host_pool_fraction) */
    uint64_t host_memory_bytes; /* 0: not known */
    double host_fraction;       /* the engine's documented share */
    uint64_t host_limit_bytes;  /* fraction x host memory, 0 = no check */
    int host_capped;            /* 1: the pool was capped to the limit */
    uint64_t host_asked_bytes;  /* the pool before the cap */
    char host_note[256];        /* how the host was read, or why not */
    /* the model against the measured hit ratio */
    struct rec_reconcile recon;
    /* operational cost of a rewrite of the table (current layout) */
    double table_bytes;     /* data + out-of-line bytes, estimated */
    double rewrite_seconds; /* read + write at the device rate */
};

/*
 * The configuration in use, decided in one place for every command
 * (recommend's prediction, advise's validation and drift): the page size
 * the server reported (r->current's page_size from a monitor or a sample),
 * else the engine profile's default (`current_page_size`), else the
 * engine's documented default (rec_state_fill_defaults), else the
 * smallest candidate — each of the last three marked assumed; the pool the
 * monitor read at that page size, else the candidate's at equal memory
 * (assumed).
 */
struct rec_current_config {
    uint32_t page_size_bytes;
    uint64_t pool_pages;
    int page_assumed, pool_assumed; /* 1: not read from the server */
    const char *page_basis;         /* "server", "engine profile default",
                                       "engine default", "smallest page
                                       size" (static) */
};
void rec_current_config(const struct rec_result *r, const struct rec_engine *e,
                        const struct rec_monitor *mon,
                        struct rec_current_config *out);

/* ---- the recommend step as one call (issue 22) ---------------------------
 *
 * rec_run() is what `recommend` and `advise` both call: it loads the
 * engine and device profiles (rec_profiles_load, model/, the one loader),
 * builds the inputs from in-memory evidence, recommends, and decides the
 * configuration in use (rec_current_config). The caller reads its files;
 * rec_run reads only the profiles.
 */
struct rec_request {
    const char *engine, *device; /* profile names or files */
    struct rec_sizes *sizes;     /* or NULL (a trace only); sorted in place */
    const struct rec_monitor *monitor;      /* or NULL */
    const struct rec_trace_evidence *trace; /* or NULL */
    /* the documents' word on the server (docs/formats.md "current"),
     * merged in this order: sizes.json's "current" and "compress_ratio";
     * monitor.json's "current" when its engine is the profile's; a
     * current document's "current", else the object itself. Each may be
     * NULL; the file names are for messages. */
    const json_t *sizes_doc, *monitor_doc, *current_doc;
    const char *current_file;
    uint64_t memory_bytes; /* with memory_given */
    int memory_given;
    double inline_target; /* 0: REC_DEFAULT_INLINE_TARGET */
    uint64_t sessions;    /* 0: the sizes' live rows, else estimated */
    const char *table;    /* the sampled table, for its own monitor
                             counters; NULL: the sizes' */
    /* for recommendation.json's "inputs": where the evidence came from */
    const char *sizes_file, *sizes_format, *monitor_file, *trace_file;
    /* The reasons name the request's inputs a user can give (`memory`,
     * `sessions`, `monitor`, `trace`) as fields; field_map (core's
     * pt_field_map_fn, with field_ctx) turns each into what the front end
     * calls it (its option), or NULL: the bare name (issue 22). */
    pt_field_map_fn *field_map;
    void *field_ctx;
};
struct rec_run_result {
    struct rec_engine engine;
    struct rec_device device;
    char engine_profile[4096], device_profile[4096]; /* files read */
    struct rec_size_stats stats;
    int have_stats;
    struct rec_result *rec; /* owned */
    struct rec_current_config current;
};
/* Recommend from q into *out (release it with rec_run_result_release, also
 * after a failure). */
int rec_run(const struct rec_request *q, struct rec_run_result *out,
            struct pt_err *err);
/* recommendation.json of a run: a new reference, NULL on OOM. */
json_t *rec_run_to_json(const struct rec_run_result *r,
                        const struct rec_request *q);
void rec_run_result_release(struct rec_run_result *r);

/*
 * What rec_recommend is about to return, against the same rec_limits the
 * recommendation reader applies (budget, page size, pool pages and bytes,
 * EXTENTSIZE, OVERHEAD, TRANSFERRATE): PT_EDATA "recommendation: ...".
 */
int rec_result_check(const struct rec_result *r, struct pt_err *err);

/*
 * Run the cost model for every page size of the engine and choose (see
 * pagetune-recommend(1), "COST MODEL"). Pure. PT_EDATA on inconsistent
 * inputs (no sizes, target out of range, budget below one page) and when
 * no object fits any column of the engine (*r then holds the figures).
 */
int rec_recommend(struct rec_result *r, const struct rec_inputs *in,
                  struct pt_err *err);
/*
 * The recommendation document of docs/formats.md#recommendation (schema_version
 * 1, engine, page_size, candidates[], bufferpool, tablespace, reasons[],
 * inputs). `inputs` (may be NULL) is copied in as "inputs". New reference or
 * NULL.
 */
json_t *rec_result_to_json(const struct rec_result *r,
                           const struct rec_engine *e, const json_t *inputs);

/*
 * Where a recommendation's figures come from, for the document's "inputs"
 * object (names and paths as the caller gave them; all borrowed).
 */
struct rec_inputs_doc {
    const char *engine, *engine_profile;    /* name/path given, file read */
    const char *device, *device_profile;    /* name/path given, file read */
    int memory_given;                       /* memory_bytes is recorded */
    uint64_t memory_bytes;                  /* the --memory budget */
    double inline_target;                   /* as given */
    uint64_t sessions;                      /* 0 = estimated (null) */
    const struct rec_size_stats *stats;     /* NULL: no "sizes" */
    const char *sizes_file, *sizes_format;  /* "json", "text", "trace ..." */
    const char *trace_file;                 /* NULL: no "trace" */
    const struct rec_trace_evidence *trace; /* requests, gets, keys */
    const char *monitor_file;               /* NULL: no "monitor" */
    const struct rec_monitor *monitor;      /* used if present */
};
/* The "inputs" object: a new reference (caller json_decref) or NULL. */
json_t *rec_inputs_to_json(const struct rec_inputs_doc *d);

/*
 * Read a recommendation document (pagetune-recommend(1), OUTPUT). `name` names
 * it in messages. If `engine` is not NULL the document must be for that engine.
 * PT_EDATA "name: ..." on a missing or invalid field; PT_EINTERNAL on OOM. On
 * error *d is released.
 */
int rec_result_from_json(struct rec_doc *d, const json_t *doc,
                         const char *engine, const char *name,
                         struct pt_err *err);
/* Release what rec_result_from_json filled (also a zeroed struct). */
void rec_doc_release(struct rec_doc *d);

/*
 * Two recommendation documents compared (recommend/diff.c, `pagetune
 * diff`, docs/formats.md#diff). An item is advice (page size, buffer pool,
 * table space knobs, the engine's storage settings, an advise run's
 * verdict: a change there is a change of advice) or a figure (the budget,
 * the model's and the runs' predicted and measured changes: reported, never
 * a change of advice). A member absent on both sides has no item.
 */
enum rec_diff_kind { REC_DIFF_ADVICE, REC_DIFF_FIGURE };
enum rec_diff_unit {
    REC_DIFF_TEXT,  /* a string, a bool, or a number shown as it is */
    REC_DIFF_NUM,   /* a plain number */
    REC_DIFF_PAGE,  /* a page size, bytes */
    REC_DIFF_POOL,  /* buffer-pool pages of that side's page size */
    REC_DIFF_BYTES, /* a byte size */
    REC_DIFF_PCT,   /* a change in percent */
};
struct rec_diff_item {
    char key[96];   /* dotted path: "page_size", "settings.storage" */
    char label[96]; /* for a reader: "page size" */
    enum rec_diff_kind kind;
    enum rec_diff_unit unit;
    json_t *a, *b; /* owned references; NULL where absent (or null) */
    int changed;   /* a and b differ (numbers by value) */
};
struct rec_diff {
    struct rec_diff_item *items; /* owned */
    size_t n_items, cap;
    int advice_changed;                /* an advice item changed */
    uint64_t a_page_size, b_page_size; /* each side's, bytes (0: none) */
};
/* Compare a with b (both read by rec_result_from_json first). 0, or
   PT_EINTERNAL on OOM with *d released. Release with rec_diff_release. */
int rec_diff_compute(struct rec_diff *d, const json_t *a, const json_t *b,
                     struct pt_err *err);
void rec_diff_release(struct rec_diff *d);
/* "advice" or "figure". */
const char *rec_diff_kind_name(enum rec_diff_kind k);
/* The diff document (docs/formats.md#diff): new reference, NULL on OOM. */
json_t *rec_diff_to_json(const struct rec_diff *d, const char *a_name,
                         const char *b_name);

/*
 * Drift: compare the configuration in use with a recommendation. Returns 0
 * when they agree, 1 when they differ (and writes one line per difference
 * into `why`, NUL-terminated). A current pool smaller than
 * (1 - tolerance) of the recommended pages counts as drift; page size must
 * match exactly. Used by `advise --fail-on drift`.
 */
struct rec_current {
    uint32_t page_size_bytes;
    uint64_t bufferpool_pages; /* 0 = unknown (not compared) */
};
int rec_drift(const struct rec_current *cur, uint32_t rec_page_size_bytes,
              uint64_t rec_bufferpool_pages, double tolerance, char *why,
              size_t why_len);

/*
 * Drift per knob (`advise --fail-on drift`): the recommendation asks for a
 * value other than the one in use. Compared: the page size and DB2's
 * buffer pool (smaller than (1 - tolerance) x the recommended pages) and
 * FILE SYSTEM CACHING when read from the server, and every setting that
 * changes a knob (rec_setting_knob: toast_tuple_target, STORAGE,
 * shared_buffers, ROW_FORMAT, innodb_buffer_pool_size, SQLite page_size)
 * against the knob's value — read from the server, or the engine's
 * default (said so) when it was not read; an unset knob counts as the
 * engine's value for it (rec_knob_effective). Returns 1 on drift (one
 * line per knob into why), 0 when all agree.
 */
int rec_drift_doc(const struct rec_doc *d, double tolerance, char *why,
                  size_t why_len);

#endif /* PT_RECOMMEND_H */
