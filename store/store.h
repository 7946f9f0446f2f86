/* SPDX-License-Identifier: Apache-2.0 */
/*
 * store.h — public face of store/: the built-in session store (one SQLite
 * database laid out like WebSphere's SESSIONS table) and the replay driver
 * that runs a trace against it (pagetune-replay(1)), and the plan of
 * replays per page size with its document, replay.json (plan.c,
 * plan_json.c).
 *
 * Only store/ includes <sqlite3.h>; every SQLite result code is translated
 * to a PT_* status in one place (store_rc_status in store.c). The store
 * never prints and never exits: failures come back as a status and a
 * one-line message in `struct pt_err`.
 *
 * Neighbours: sim/ (the trace reader the replay driver uses), model/
 * (the caller takes the SMALL / MEDIUM / LARGE limits from the DB2 engine
 * rules and hands them over in struct store_config), cli/cmd_replay.c (the
 * command), collect/ (reads a store file through the SQLite ODBC driver).
 *
 * Threads: a `struct store` is one SQLite connection and must be used by
 * one thread at a time; several threads use several stores on one file.
 */
#ifndef PT_STORE_H
#define PT_STORE_H

#include <stdint.h>
#include <stdio.h>

#include "core/core.h"

/* ---- the store ---------------------------------------------------------- */

/*
 * Durability: PRAGMA synchronous in WAL mode
 * (https://www.sqlite.org/pragma.html#pragma_synchronous, /wal.html).
 * Every level keeps a committed transaction across a crash of the process
 * (SIGKILL): the WAL frames were handed to the OS by write(2) before the
 * commit returned. NORMAL and OFF may lose the last commits on power loss or
 * an OS crash; NORMAL never corrupts the database; FULL fsyncs every commit.
 */
enum store_sync { STORE_SYNC_OFF = 0, STORE_SYNC_NORMAL, STORE_SYNC_FULL };

/*
 * How the LOB area (DB2 semantics, below) reaches the disk: through the
 * operating system's file cache, as an SMS table space does (the default:
 * the article's WebSphere/DB2 set-up, and what works on every file
 * system), or with O_DIRECT, as DB2 reads LOB data into no cache at all
 * (refused with PT_EUSAGE where the file system has no O_DIRECT, tmpfs).
 */
enum store_lob_io { STORE_LOB_CACHED = 0, STORE_LOB_DIRECT };

/* Column an object lands in (WebSphere's placement rule). */
enum store_column {
    STORE_COL_NONE = -1, /* too big for LARGE: the write is refused */
    STORE_COL_SMALL = 0,
    STORE_COL_MEDIUM = 1,
    STORE_COL_LARGE = 2,
};

struct store_config {
    uint32_t page_size_bytes;  /* PRAGMA page_size when creating: a power of
                                  two 512..65536 (ignored by store_open) */
    uint64_t cache_bytes;      /* page-cache budget of this connection, as
                                  cache_size = -(bytes/1024) KiB; 0 = SQLite's
                                  default */
    enum store_sync sync;      /* durability, see above */
    uint32_t small_max_bytes;  /* SMALL length s at this row size (DB2:
                                  WebSphere's VARCHAR(s) FOR BIT DATA) */
    uint32_t medium_max_bytes; /* MEDIUM limit (DB2 LONG VARCHAR: 32700) */
    uint64_t large_max_bytes;  /* LARGE limit (DB2 BLOB(2M): 2097152) */
    const char *app_name;      /* APPNAME column; NULL = "default_host/pagetune"
                                  (borrowed,      must outlive the store) */
    uint32_t busy_timeout_ms;  /* how long a statement waits for another
                                  connection's lock before failing with
                                  PT_EUNAVAIL; 0 = 30000 */
    uint64_t max_pages;        /* PRAGMA max_page_count; 0 = no limit (a
                                  full store fails with PT_EIO) */
    int lob_area;              /* store_create: 1 = DB2 storage semantics:
                                  an object placed in MEDIUM or LARGE lives
                                  in the LOB area "<path>-lob", outside
                                  SQLite's page cache and WAL, read and
                                  written per access; 0 = SQLite's (every
                                  object in the row, overflow pages in the
                                  page cache and WAL). store_open takes it
                                  from the file. */
    enum store_lob_io lob_io;  /* how the LOB area is read and written */
    uint64_t max_lob_bytes;    /* LOB area limit; 0 = none (PT_EIO "full") */
    int deferred_writes;       /* with a LOB area (its record log): 1 = a
                                  connection keeps its write transaction
                                  open across logged operations until
                                  their records fill one log file
                                  (RECLOG_FILE_BYTES), so SQLite writes a
                                  page once for many updates, as Db2's
                                  page cleaners do; each operation is
                                  durable by its record. Only for a
                                  connection that is the store's one
                                  writer: others wait for the lock */
};

/* Defaults: 4096-byte pages, SQLite's cache, NORMAL, limits of 0 (every
 * object refused until the caller sets them from the engine rules). */
void store_config_init(struct store_config *cfg);

/* Is `page_size_bytes` a page size SQLite accepts (power of two 512..64K)? */
int store_page_size_valid(uint32_t page_size_bytes);

/*
 * WebSphere's placement rule: SMALL if n <= small_max, else MEDIUM if
 * n <= medium_max, else LARGE if n <= large_max, else STORE_COL_NONE.
 */
enum store_column store_place(const struct store_config *cfg, uint64_t n);
/* "SMALL", "MEDIUM", "LARGE" or "NONE". */
const char *store_column_name(enum store_column col);

struct store; /* one connection to one store file; opaque */

/*
 * Create a new store file at `path` with cfg->page_size_bytes pages, WAL
 * journal and the SESSIONS table. An existing file is refused, and so is a
 * directory that cannot be written (both PT_ECANTCREAT). Free with
 * store_close().
 */
int store_create(const char *path, const struct store_config *cfg,
                 struct store **out, struct pt_err *err);
/*
 * Open an existing store (another connection to it, or after a crash:
 * SQLite recovers the WAL). A missing file is PT_ENOINPUT; a file that is
 * not a store (no SESSIONS table) is PT_EDATA.
 */
int store_open(const char *path, const struct store_config *cfg,
               struct store **out, struct pt_err *err);
/* Close the connection; accepts NULL. */
void store_close(struct store *s);

/* A session read by store_session_get. */
struct store_session {
    enum store_column column; /* where the object was found */
    uint64_t n_bytes;         /* the object's full length */
    int64_t last_access_ms;   /* LASTACCESS, ms since the epoch */
    int64_t creation_ms;      /* CREATIONTIME */
    int32_t max_inactive_s;   /* MAXINACTIVETIME, seconds; < 0 = never */
};

/*
 * Read session `id` (id_len bytes). Returns 1 and fills *out (and copies up
 * to `cap` bytes of the object into buf, which may be NULL with cap 0), or
 * 0 when there is no such session. Does not allocate.
 */
int store_session_get(struct store *s, const char *id, size_t id_len,
                      struct store_session *out, void *buf, size_t cap,
                      struct pt_err *err);
/*
 * Insert or update session `id` with the n-byte object `data` (borrowed),
 * placed by store_place(); LASTACCESS = now_ms, CREATIONTIME = now_ms on
 * insert, MAXINACTIVETIME = max_inactive_s. The write is committed when it
 * returns 0 (unless inside store_begin). An object too big for LARGE is
 * PT_EDATA; a full disk or store is PT_EIO and leaves the store as before.
 */
int store_session_set(struct store *s, const char *id, size_t id_len,
                      const void *data, uint64_t n, int64_t now_ms,
                      int32_t max_inactive_s, struct pt_err *err);
/* Delete session `id`: 1 if it existed, 0 if not (WebSphere invalidate()). */
int store_session_invalidate(struct store *s, const char *id, size_t id_len,
                             struct pt_err *err);
/*
 * Delete every session with MAXINACTIVETIME >= 0 whose LASTACCESS is more
 * than MAXINACTIVETIME seconds before now_ms (WebSphere's invalidator).
 * *n_expired (may be NULL) receives the number deleted.
 */
int store_expire(struct store *s, int64_t now_ms, uint64_t *n_expired,
                 struct pt_err *err);
/* Number of sessions in the store. */
int store_count(struct store *s, uint64_t *n_sessions, struct pt_err *err);

/* Group writes into one transaction (warm-up loads); store_commit ends it.
 * With a record log the batch is not logged record by record (Db2's LOAD
 * is not either): with synchronous FULL its commit syncs SQLite's files. */
int store_begin(struct store *s, struct pt_err *err);
/* Deferred writes (store_config.deferred_writes): commit the open group,
 * so that SQLite writes its pages now. store_checkpoint, store_begin and
 * store_close do it first; a replay's client at the end of each pass. */
int store_flush(struct store *s, struct pt_err *err);
int store_commit(struct store *s, struct pt_err *err);
/* Roll back an open transaction (after a failed write inside one). */
void store_rollback(struct store *s);

/* The statements behind store_session_get and store_session_set, exactly
 * as the store prepares them (bench/bench_store.c runs them bare). */
extern const char store_sql_get[];
extern const char store_sql_set[];

/* SQLite result code → PT_* status: the one translation table. */
int store_rc_status(int rc);

/* Counters of this connection since open or the last reset. */
struct store_stats {
    uint64_t cache_hits;   /* SQLITE_DBSTATUS_CACHE_HIT */
    uint64_t cache_misses; /* SQLITE_DBSTATUS_CACHE_MISS */
    uint64_t cache_writes; /* SQLITE_DBSTATUS_CACHE_WRITE */
    uint64_t busy_retries; /* statements retried after SQLITE_BUSY */
};
/* Read the counters; with `reset` also zero them. */
int store_stats_get(struct store *s, struct store_stats *st, int reset,
                    struct pt_err *err);

/* The file's space, measured (not estimated). */
struct store_space {
    uint32_t page_size_bytes; /* PRAGMA page_size */
    uint64_t page_count;      /* PRAGMA page_count */
    uint64_t db_bytes;        /* page_count * page_size (main file) */
    uint64_t wal_bytes;       /* size of the -wal file now */
    uint64_t overflow_pages;  /* dbstat: pagetype 'overflow', SESSIONS */
    uint64_t leaf_pages;      /* dbstat: table leaf pages of SESSIONS */
    uint64_t free_pages;      /* PRAGMA freelist_count */
    uint64_t lob_bytes;       /* size of the LOB area file (0: none) */
    uint64_t lob_records;     /* rows whose object is in the LOB area */
};
/*
 * Measure the store. Overflow and leaf pages come from SQLite's dbstat
 * virtual table (a walk of the b-tree). Checkpoints the WAL first when
 * `checkpoint` is set, so db_bytes covers every committed page.
 */
int store_space_get(struct store *s, struct store_space *sp, int checkpoint,
                    struct pt_err *err);
/* Copy the WAL's committed pages into the database (a PASSIVE checkpoint,
 * what SQLite's auto-checkpoint runs every STORE_AUTOCHECKPOINT_FRAMES);
 * *frames (may be NULL) receives the frames copied. The probe ends each
 * write cell with one and charges it only its frames' share (probe.c). */
#define STORE_AUTOCHECKPOINT_FRAMES 1000 /* SQLite's default, the replay's */
int store_checkpoint(struct store *s, uint64_t *frames, struct pt_err *err);
/* PRAGMA integrity_check: 0 if "ok", PT_EDATA with its first line if not. */
int store_integrity_check(struct store *s, struct pt_err *err);
/*
 * The LOB area's own check (a store with DB2 semantics; 0 with nothing to
 * do otherwise): every row naming a LOB record has it, current (its
 * generation), of its length and with a matching checksum; homes and free
 * space lie inside the area and do not overlap. *n_records (may be NULL)
 * receives the records checked. PT_EDATA with the first problem. Run it on
 * a store nobody writes to.
 */
int store_lob_check(struct store *s, uint64_t *n_records, struct pt_err *err);
/* Records of the record log that store_open applied because SQLite lacked
 * them (crash recovery: a killed process's open group); 0 without a LOB
 * area. */
uint64_t store_redo_records(const struct store *s);
/* Does this store keep out-of-row objects in a LOB area? */
int store_has_lob_area(const struct store *s);
/* "cached" / "direct", and back (-1: unknown). */
const char *store_lob_io_name(enum store_lob_io io);
int store_lob_io_parse(const char *name);

/* ---- the replay driver -------------------------------------------------- */

struct sim_trace_reader; /* sim/sim.h */

/* A trace loaded in memory (read once with sim's reader, then shared). */
struct store_trace {
    struct store_trace_req *reqs; /* n_reqs, owned */
    uint64_t n_reqs;
    uint64_t n_keys;
    uint64_t n_gets, n_sets, n_dels;
    uint64_t max_bytes;              /* largest object size */
    struct sim_trace_reader *reader; /* keeps the key strings; owned */
    uint64_t *first_size;            /* n_keys: size of the first request
                                        naming the key (warm-up), owned */
};
struct store_trace_req {
    uint64_t time_ms;
    uint64_t key_id;
    uint32_t size_bytes;
    uint8_t op;         /* enum sim_op */
    uint8_t write_back; /* a set that writes back the session the request
                           before it (a get of the same key) read: the
                           two are one application request */
};

/*
 * Read the whole trace at `path` (CSV pagetune-trace(5) or oracleGeneral)
 * with sim's reader. Missing file → PT_ENOINPUT, malformed line → PT_EDATA
 * "file:line: ...", empty trace → PT_EDATA. Release with
 * store_trace_release().
 */
int store_trace_load(struct store_trace *t, const char *path,
                     struct pt_err *err);
/* The same with the format given: an enum sim_trace_format (SIM_TRACE_AUTO
 * detects by content, as store_trace_load does). */
int store_trace_load_as(struct store_trace *t, const char *path, int format,
                        struct pt_err *err);
/*
 * store_trace_load_as with a progress hook (NULL: none), sim/'s
 * pt_progress_fn: the bytes of the file consumed and its size (0 when
 * unknown, as on a pipe), every STORE_TRACE_PROGRESS_EVERY requests and
 * once at the end, from the calling thread; the loop allocates nothing for
 * it, and t->n_reqs then counts the requests read so far. It only reports; the
 * load polls pt_interrupted() as often and stops with PT_EINTR.
 */
#define STORE_TRACE_PROGRESS_EVERY 65536u
int store_trace_load_progress(struct store_trace *t, const char *path,
                              int format, pt_progress_fn *progress, void *ctx,
                              struct pt_err *err);
void store_trace_release(struct store_trace *t);

enum {
    STORE_OP_GET = 0,
    STORE_OP_SET,
    STORE_OP_DEL,
    STORE_OP_ALL,
    STORE_N_OPS
};

/* Latency percentiles of one operation type, microseconds. */
struct store_latency {
    uint64_t count;
    double p50_us, p95_us, p99_us, max_us, mean_us;
};

struct store_replay_opts {
    unsigned n_clients;     /* threads, each with its own connection (>=1)
                             */
    int32_t max_inactive_s; /* MAXINACTIVETIME written (default 1800) */
    int ack_fd;             /* >= 0: after each committed set/del append
                               "INDEX,OP,KEY,SIZE\n" with write(2) */
    /* Called about every 20 ms from the calling thread with the number of
     * trace operations done in the pass (reports only; the replay stops
     * with PT_EINTR once pt_interrupted(), polled as often). */
    pt_progress_fn *progress;
    void *progress_ctx;
    /* The same (with progress_ctx) during store_replay_open's load: the
     * sessions inserted of the trace's n_keys, at each commit. */
    pt_progress_fn *load_progress;
    uint32_t think_ms; /* each client's think time after a request (closed
                          loop, like the article's stress tool); 0 = none */
};
void store_replay_opts_init(struct store_replay_opts *o);

/* At most this many measured rounds per page size (store_plan.rounds). */
#define STORE_MAX_ROUNDS 100
/* At most this many trials (store_plan.trials). */
#define STORE_MAX_TRIALS 10

struct store_replay_result {
    uint32_t page_size_bytes;
    uint64_t cache_bytes;
    unsigned n_clients;
    uint64_t warmup_sessions; /* sessions loaded before measuring */
    uint64_t ops;             /* requests replayed */
    uint64_t gets_found;      /* gets that found their session */
    double elapsed_s;
    double ops_per_s;
    struct store_latency latency[STORE_N_OPS]; /* by STORE_OP_* */
    uint64_t cache_hits, cache_misses;         /* summed over clients */
    double cache_hit_ratio;                    /* hits / (hits + misses) */
    uint64_t busy_retries;
    uint64_t placed[3];       /* sets by column SMALL, MEDIUM, LARGE */
    struct store_space space; /* measured after the replay */
    /* Requests, as the application sees them: a get and the set writing
     * the session back are one request (store_trace_req.write_back). */
    uint64_t requests;             /* per round */
    double requests_per_s;         /* all measured rounds: requests / s */
    struct store_latency response; /* response time per request, us */
    uint32_t think_ms;
    enum store_lob_io lob_io; /* the LOB area's I/O at this page size */
    int lob_io_fallback;      /* direct was asked, the file system of the
                                 store refused it or is memory: cached ran
                                 (store_plan.lob_direct_fallback) */
    /* Rounds (store_plan_run): ops, requests, gets_found and placed count
     * one round (the mean over the measured rounds); the rates, latencies
     * and cache counters cover every measured round. */
    unsigned n_rounds;
    double round_rps[STORE_MAX_ROUNDS]; /* requests/s of each round */
    /* This page size against the plan's first one: the mean of the
     * per-round relative differences rps_i / rps_first - 1 and its 95 %
     * Student t interval (lo = hi = mean with fewer than 2 rounds). */
    double diff_mean, diff_lo, diff_hi;
    /* The store model's prediction for this page size (store_model_predict
     * from a probe, replay --calibration and advise), when has_pred. */
    int has_pred;
    double pred_rps, pred_rps_lo, pred_rps_hi; /* requests/s */
    double pred_response_ms;
};

/*
 * Create a fresh store at `db_path` (cfg), warm it up with every session the
 * trace names (its first size, in batched transactions, not measured), then
 * replay the trace with o->n_clients threads: requests are dealt to clients
 * by key (one session is always served by the same client, in trace order),
 * as fast as possible (time_ms is not waited for). Each set and del is its
 * own committed transaction. Does not allocate per request.
 * Errors: the store's (PT_ECANTCREAT, PT_EIO for a full disk — the failed
 * transaction is rolled back and the store stays consistent), PT_EINTR.
 */
int store_replay_run(const struct store_trace *t, const char *db_path,
                     const struct store_config *cfg,
                     const struct store_replay_opts *o,
                     struct store_replay_result *res, struct pt_err *err);

/*
 * The same in steps, so several stores can be measured in interleaved
 * rounds (plan.c): open creates, loads and warms the store and the
 * clients' connections (t, cfg and o are borrowed until close); each pass
 * replays the whole trace once, measured or not (an unmeasured pass is a
 * warm-up: its counts are dropped), and gives its requests/s; finish sums
 * the measured passes into *res and measures the file. Close accepts NULL.
 */
struct store_replay;
int store_replay_open(const struct store_trace *t, const char *db_path,
                      const struct store_config *cfg,
                      const struct store_replay_opts *o,
                      struct store_replay **out, struct pt_err *err);
int store_replay_pass(struct store_replay *r, int measured, double *rps,
                      struct pt_err *err);
int store_replay_finish(struct store_replay *r, struct store_replay_result *res,
                        struct pt_err *err);
void store_replay_close(struct store_replay *r);

/* ---- a plan of replays and its results (plan.c, plan_json.c) ---------- */

/*
 * What `pagetune replay` does, as a library call: for each page size a
 * fresh store in one directory, warmed up and replayed (store_replay_run),
 * its files removed unless kept; the results come back as plain data
 * (struct store_plan_result), which is also what replay.json serialises
 * (store_plan_result_to_json / _from_json are its only writer and reader;
 * pagetune-replay(1) lists the fields).
 */
#define STORE_MAX_PAGE_SIZES 16

struct rec_engine; /* model/model.h */

/*
 * The work of a plan as a running total, for an overall progress figure
 * (work.c; store_plan_run keeps one and passes it to the plan's `work`
 * hook). Units are records handled: each page size's load (one per
 * session) and warm-up passes (one per request of a pass), then at most
 * `max_rounds` measured rounds of one pass per page size, then one step
 * per page size to measure its store. With a budget
 * the rounds may stop early (pagetune-replay(1), ROUNDS: after 2 rounds
 * when the next one would pass the budget, after 3 when the intervals are
 * tight): `total` then counts rounds that may not run and is an upper
 * bound (`at_most`).
 */
enum store_stage {
    STORE_STAGE_LOAD,   /* creating and loading page_size_bytes's store */
    STORE_STAGE_WARMUP, /* its unmeasured warm-up passes */
    STORE_STAGE_ROUND,  /* measured round `round`: one pass per page size */
    STORE_STAGE_FINISH, /* summing up and measuring each store (a WAL
                           checkpoint, dbstat): one step a page size */
    STORE_STAGE_DONE    /* the plan ended (succeeded or not) */
};
struct store_plan_work {
    enum store_stage stage;
    uint32_t page_size_bytes;         /* load, warm-up: the store's */
    unsigned round, max_rounds;       /* round: 1-based; the most rounds */
    unsigned min_rounds;              /* rounds that always run */
    uint64_t phase_done, phase_total; /* records of the current stage */
    uint64_t base;                    /* records of the earlier stages */
    uint64_t done, total;             /* records of the whole plan */
    uint64_t round_records;           /* records of one round */
    uint64_t n_stores;                /* page sizes: steps of the finish */
    int at_most;                      /* total counts rounds that may not
                                         run (min_rounds < max_rounds) */
    double budget_s;                  /* the plan's budget_s (0: none) */
    double elapsed_s;     /* seconds since the first store's creation */
    double budget_used_s; /* seconds since the plan started (what the
                             budget counts) */
};

struct store_plan;
/* The work of plan p over a trace of n_reqs requests (per pass) and
 * n_keys sessions (per load): stage LOAD, nothing done. */
void store_plan_work_init(struct store_plan_work *w, const struct store_plan *p,
                          uint64_t n_reqs, uint64_t n_keys);
/* Begin a stage of phase_total records: the previous stage counts whole. */
void store_plan_work_stage(struct store_plan_work *w, enum store_stage stage,
                           uint64_t phase_total);
/* phase_done records of the current stage are done (capped at its
 * phase_total). */
void store_plan_work_update(struct store_plan_work *w, uint64_t phase_done);
/*
 * Seconds left for the whole plan at the rate so far (elapsed_s / done),
 * -1 while unknown (nothing done yet). With at_most, a bound: no more
 * than the work left, nor than the budget left — but never less than
 * what always runs (the current round and min_rounds).
 */
double store_plan_work_left_s(const struct store_plan_work *w);
/* The most rounds plan p runs: `rounds` (1..STORE_MAX_ROUNDS). */
unsigned store_plan_max_rounds(const struct store_plan *p);
/* "warm-up 16K: loading", "warm-up 16K", "round 2/5", "measuring the
 * stores" (a stage's name for a progress line) into buf; returns buf. */
const char *store_plan_work_label(const struct store_plan_work *w, char *buf,
                                  size_t len);

struct store_plan {
    const struct store_trace *trace; /* a loaded trace (borrowed), or NULL:
                                        store_plan_run loads trace_path */
    const char *trace_path;          /* the trace's name in the document */
    int trace_format;                /* enum sim_trace_format of trace_path
                                        (0 = SIM_TRACE_AUTO, by content) */
    const struct rec_engine *engine; /* page sizes and the SMALL / MEDIUM /
                                        LARGE limits; borrowed */
    const char *engine_name;         /* as given, for the document */
    size_t n_page_sizes;
    uint64_t page_sizes[STORE_MAX_PAGE_SIZES]; /* bytes, each once */
    uint64_t cache_bytes; /* page cache per connection, every page size */
    enum store_sync sync;
    unsigned n_clients;       /* 1..256 */
    const char *store_dir;    /* created if missing; NULL = a temporary
                                 directory (removed unless keep) */
    int keep;                 /* keep the store files store-<SIZE>.db */
    int force;                /* replace store files; append to an existing
                                 ack log */
    const char *ack_log;      /* NULL, or a file for committed set/del lines */
    uint64_t max_store_bytes; /* 0 = no limit (database and LOB area
                                 each) */
    enum store_lob_io lob_io; /* LOB area I/O (engines whose out-of-line
                                 data bypasses the buffer pool) */
    /* page size i's LOB area I/O when it differs from lob_io: -1 (set by
     * store_plan_init) follows lob_io, else an enum store_lob_io. advise
     * replays the current page size with the current table space's
     * caching clause and the recommended one with the recommendation's. */
    int lob_io_page[STORE_MAX_PAGE_SIZES];
    /* 1: where the store directory's file system refuses O_DIRECT (tmpfs),
     * replay `direct` page sizes with `cached` (each result's lob_io says
     * which ran) instead of failing with PT_EUSAGE */
    int lob_direct_fallback;
    uint32_t think_ms;    /* clients' think time per request */
    uint64_t max_records; /* 0: every pass replays the whole trace; else
                             its first max_records records (advise fits
                             passes with think time in its budget) */
    /* Measurement (pagetune-replay(1), ROUNDS): every store is created and
     * warmed up (warmup_rounds unmeasured passes), then measured in rounds
     * that replay the trace once per page size, in plan order on odd
     * rounds and in reverse on even ones (A B B A ...). */
    unsigned warmup_rounds; /* default 1 */
    /* trials: the plan runs `trials` times over fresh stores (new files,
     * load and warm-up each time), each trial its share of the budget; a
     * page size's interval then comes from the trials' mean differences
     * (Student t, trials - 1 degrees of freedom): it holds what differs
     * from one run to the next (the stores' files, the machine), not only
     * from round to round. Default 1: the rounds' interval. At most
     * STORE_MAX_TRIALS. */
    unsigned trials;
    unsigned rounds;  /* default 5 (at most STORE_MAX_ROUNDS); with
                         budget_s the most rounds */
    double budget_s;  /* 0: exactly `rounds` rounds; else stop once
                         every interval is tight (half-width below
                         tight_rel of the first page size's rate,
                         at least 3 rounds) or before a round
                         would pass budget_s seconds since start */
    double tight_rel; /* default 0.02 */
    /* Hooks (each may be NULL), called from the calling thread with ctx:
     * `ready` once the trace is loaded and the directory exists;
     * `page_begin` / `page_end` around each page size (page_end gets NULL
     * when that replay failed); `progress` as store_replay_opts.progress
     * (the operations of the pass under way). With rounds, `page_begin`
     * and `page_end` come in pairs at the end, as each page size's result
     * is summed up (page_end gets NULL once if the plan failed). */
    void (*ready)(void *ctx, const struct store_trace *t);
    void (*page_begin)(void *ctx, uint32_t page_size_bytes, uint64_t n_reqs);
    pt_progress_fn *progress;
    void (*page_end)(void *ctx, const struct store_replay_result *r);
    /* `work`: the plan's running total (struct store_plan_work), at each
     * stage's start, with each progress report of a load or a pass, and
     * once with STORE_STAGE_DONE as the plan ends, whatever the outcome
     * (a progress display clears its line then). */
    void (*work)(void *ctx, const struct store_plan_work *w);
    void *ctx;
};

/* Defaults: 4K,8K,16K,32K, 2M of cache, NORMAL, one client, engine "db2"
 * (to be loaded by the caller), a temporary directory. */
void store_plan_init(struct store_plan *p);

struct store_plan_result {
    char *trace;  /* owned */
    char *engine; /* owned */
    uint64_t cache_bytes;
    unsigned n_clients;
    enum store_sync sync;
    size_t n_results; /* page sizes replayed, in plan order */
    enum store_lob_io lob_io;
    uint32_t think_ms;
    unsigned warmup_rounds;
    unsigned n_rounds; /* measured rounds run */
    double budget_s;   /* 0: none */
    double tight_rel;  /* the stopping rule's half-width */
    double elapsed_s;  /* the whole plan, wall clock */
    char stopped[16];  /* why rounds stopped: "rounds", "tight", "budget" */
    unsigned trials;   /* trials run (store_plan.trials); n_rounds counts
                          the rounds of all of them */
    struct store_replay_result results[STORE_MAX_PAGE_SIZES];
    char *store_paths[STORE_MAX_PAGE_SIZES]; /* owned; NULL unless kept */
};

/*
 * Check the plan without touching any file: every page size is one of the
 * engine's and one SQLite accepts, none twice, an engine is given.
 * PT_EUSAGE naming the option ("--page-size: ...").
 */
int store_plan_check(const struct store_plan *p, struct pt_err *err);
/*
 * The files a run of the plan creates, replaces (with p->force) or removes
 * inside p->store_dir: store-<SIZE>.db of each page size with its -wal,
 * -shm and -lob side files, and the directory's lock; the k-th (from 0)
 * into buf, for the check that none of them is an input or another output
 * of the run. 0; 1 when k is past the last or p->store_dir is NULL (a fresh
 * temporary directory holds nobody's file); PT_EINTERNAL when the name does
 * not fit.
 */
int store_plan_file(const struct store_plan *p, size_t k, char *buf, size_t len,
                    struct pt_err *err);
/*
 * The store configuration page size i of plan p runs with (placement
 * limits, LOB area and its I/O, cache): what the replay creates, for the
 * store model (model.c) and the probe. PT_EUSAGE as store_plan_check.
 */
int store_plan_page_config(const struct store_plan *p, size_t i,
                           struct store_config *cfg, struct pt_err *err);
/*
 * Run the plan: check it, load the trace (unless p->trace), open the ack
 * log, prepare the store directory, replay each page size. Fills *res
 * (zeroed first; release with store_plan_result_release, also after a
 * failure: it then holds the page sizes done). Errors: the check's, the
 * trace's, PT_ECANTCREAT (directory, ack log), the replay's (PT_EIO,
 * PT_EINTR, ...). A failed store stays for inspection with keep.
 */
int store_plan_run(const struct store_plan *p, struct store_plan_result *res,
                   struct pt_err *err);
void store_plan_result_release(struct store_plan_result *res);

/* The document replay.json. New reference (json_decref), NULL on OOM. */
json_t *store_plan_result_to_json(const struct store_plan_result *res);
/*
 * Read replay.json into *res; `ctx` names it in messages. PT_EDATA naming
 * the bad key. Fields not in the document (space.page_count, free_pages)
 * stay 0. Release with store_plan_result_release, also after a failure.
 */
int store_plan_result_from_json(struct store_plan_result *res,
                                const json_t *doc, const char *ctx,
                                struct pt_err *err);
/* The result of a page size, or NULL. */
const struct store_replay_result *
store_plan_result_find(const struct store_plan_result *res,
                       uint32_t page_size_bytes);

/*
 * The mean of x[0..n) and its 95 % confidence interval from Student's t
 * with n - 1 degrees of freedom: mean +- t * s / sqrt(n). With n < 2 the
 * interval is the mean itself (and 0 is returned; 1 with an interval).
 */
int store_mean_ci95(const double *x, unsigned n, double *mean, double *lo,
                    double *hi);
/* Student's t quantile 0.975 for df degrees of freedom (df >= 1). */
double store_t975(unsigned df);

/* ---- the verdict: a measured difference against a prediction (verdict.c) */

/* A relative difference (a fraction: +0.14 = 14 % more requests/s) with
 * its range: an interval for a measurement, the model's range for a
 * prediction. lo <= mean <= hi. */
struct store_range {
    double mean, lo, hi;
};

enum store_verdict {
    STORE_VERDICT_INCONCLUSIVE = 0, /* the measured interval spans zero */
    STORE_VERDICT_CONFIRMS,         /* it overlaps the predicted range */
    STORE_VERDICT_CONTRADICTS,      /* it excludes zero and the prediction */
};

struct store_verdict_out {
    enum store_verdict verdict;
    struct store_range measured, predicted; /* as compared */
    char why[1024]; /* one line with the numbers, for a report */
};

/*
 * Judge a measured difference against a predicted one:
 *   inconclusive  the measured interval contains 0 (or is not finite);
 *   confirms      it excludes 0 and overlaps the predicted range;
 *   contradicts   it excludes 0 and the predicted range — `why` says
 *                 whether the direction or only the size disagrees.
 * Returns the verdict (also in *out, which may be NULL). Pure; for advise.
 */
enum store_verdict store_verdict_judge(const struct store_range *measured,
                                       const struct store_range *predicted,
                                       struct store_verdict_out *out);
/*
 * The same for page size `page_size_bytes` of a replay (its difference
 * against the plan's first page size and interval, vs_first in
 * replay.json). PT_EUSAGE when the page size was not replayed or is the
 * first; PT_EDATA when it has fewer than 2 rounds (no interval).
 */
int store_verdict_for(const struct store_plan_result *res,
                      uint32_t page_size_bytes,
                      const struct store_range *predicted,
                      struct store_verdict_out *out, struct pt_err *err);
/* "inconclusive", "confirms", "contradicts". */
const char *store_verdict_name(enum store_verdict v);

struct store_prediction; /* the store model, below */

/* ---- the probe: this machine's unit costs (probe.c, probe_doc.c) ------- */

/*
 * `pagetune probe` (pagetune-probe(1)): the built-in store's cost of one
 * get, one write-back set and one set on its own (put), measured on this
 * machine in microseconds, with no trace:
 *   in the row, at each page size of the engine, for a 256-byte object and
 *   one of nine tenths of that page size's inline limit;
 *   in the LOB area (the smallest page size's store, whose row then holds
 *   the descriptor), for 8,000- and 32,000-byte objects, through the OS
 *   cache and with direct I/O.
 * Each figure is the mean of `rounds` timings of `ops` operations on random
 * sessions of a population of `sessions`, the cells visited in turn and in
 * reverse on even rounds, with its 95 % interval over the rounds. The store
 * model (model.c) interpolates them linearly in the object's size.
 */
#define STORE_PROBE_MAX_PAGES 8
/* get; set: the write-back of the session just read (timed after its get,
 * the pair's cost less the get's); put: a set on its own (a new session, or
 * one not read first) */
enum {
    STORE_PROBE_GET = 0,
    STORE_PROBE_SET,
    STORE_PROBE_PUT,
    STORE_PROBE_N_OPS
};

struct store_probe_cost {
    double mean_us, lo_us, hi_us; /* one operation: mean, 95 % interval */
};
/* One operation's cost at two object sizes (a line in the size). */
struct store_probe_line {
    uint32_t size_bytes[2];
    struct store_probe_cost at[2];
};
struct store_probe_page {
    uint32_t page_size_bytes;
    uint32_t inline_limit_bytes; /* the SMALL limit the store placed by */
    struct store_probe_line row[STORE_PROBE_N_OPS]; /* in the row */
};

struct store_probe {
    /* where and when: a probe from another machine, file system or
     * version is foreign, an old one stale (store_probe_check) */
    char pagetune[32];   /* PT_VERSION that measured */
    char host[96];       /* uname nodename */
    char machine_id[64]; /* /etc/machine-id, "" when unreadable */
    char cpu[128];       /* /proc/cpuinfo "model name" */
    char kernel[96];     /* uname release */
    char store_fs[32];   /* file system of the store directory */
    int64_t measured_s;  /* time(2) at the end of the probe */
    char engine[32];     /* placement rules of the stores */
    uint64_t cache_bytes;
    enum store_sync sync; /* the stores' durability (replay --sync) */
    unsigned rounds, ops, sessions;
    double elapsed_s;
    /* a checkpoint's cost, fitted over the checkpoints that end the
     * probe's write cells: fixed + per_frame x frames */
    double ckpt_fixed_us, ckpt_per_frame_us;
    int lob_direct; /* direct I/O measured; 0: the store directory refused
                       it, and `direct` holds the cached figures */
    size_t n_pages;
    struct store_probe_page page[STORE_PROBE_MAX_PAGES];
    struct store_probe_line lob[2][STORE_PROBE_N_OPS]; /* [store_lob_io] */
};

struct store_probe_opts {
    const struct rec_engine *engine; /* page sizes and limits; borrowed */
    const char *engine_name;
    const char *store_dir; /* NULL: a temporary directory on disk */
    uint64_t cache_bytes;  /* page cache of the stores (the replay's) */
    enum store_sync sync;  /* their durability (the replay's --sync):
                              default NORMAL */
    unsigned rounds;       /* default 7 */
    unsigned ops;          /* per cell and round, default 400 */
    unsigned sessions;     /* per population, default 512 */
    /* called from the calling thread with cells done of cells in all */
    pt_progress_fn *progress;
    void *ctx;
};
void store_probe_opts_init(struct store_probe_opts *o);
/* The short probe (probe --quick, and advise without a calibration). */
#define STORE_PROBE_QUICK_ROUNDS 5
#define STORE_PROBE_QUICK_OPS 100

/*
 * Measure. Creates its stores in a fresh temporary directory (inside
 * o->store_dir when given), removes them at the end. Errors: the store's
 * (PT_ECANTCREAT, PT_EIO), PT_EINTR, PT_EUSAGE without an engine whose out-
 * of-line data lives in a LOB area (the store's DB2 semantics).
 */
int store_probe_run(const struct store_probe_opts *o, struct store_probe *out,
                    struct pt_err *err);

/*
 * The probe as a calibration profile (YAML, profiles/calibrations/): a
 * comment, name, perf: (the performance model's costs derived from the
 * probe, with no application tier: pagetune-probe(1) lists the mapping)
 * and probe: (every figure). PT_EIO on a write error.
 */
int store_probe_write(FILE *fp, const struct store_probe *pr, const char *name,
                      struct pt_err *err);
/*
 * Read probe: of a calibration profile (a tree from prof_load). 1 and *pr
 * filled; 0 when the profile has no probe: (a fitted calibration);
 * PT_EDATA naming ctx and the key on anything malformed.
 */
int store_probe_from_json(struct store_probe *pr, const json_t *prof,
                          const char *ctx, struct pt_err *err);
/*
 * Is the probe this machine's and current? 0 when it is; 1 with why[] ("
 * foreign: measured on host X, this is Y") when another host, machine,
 * CPU or store file system measured it; 2 with why[] when pagetune's
 * version differs or it is older than STORE_PROBE_STALE_DAYS days.
 */
#define STORE_PROBE_STALE_DAYS 30
int store_probe_check(const struct store_probe *pr, const char *store_dir,
                      char *why, size_t len);
/*
 * Load calibration `name` (a name in profiles/calibrations/ or a file, as
 * --calibration takes it) and its probe: 1 with *pr filled, 0 when it is a
 * fitted calibration without one; the profile's loader's errors, PT_EDATA.
 * cal_name (may be NULL) receives the profile's name.
 */
int store_probe_load(const char *name, struct store_probe *pr, char *cal_name,
                     size_t len, struct pt_err *err);
/* The online processors (sysconf), the store model's `cpus`. */
unsigned store_model_cpus(void);
/* Fill results' has_pred and pred_* from predictions (one per page size of
 * the plan, in plan order). */
void store_plan_result_predicted(struct store_plan_result *res,
                                 const struct store_prediction *pred, size_t n);
/* This machine's identity into pr (host, machine, CPU, kernel, version). */
void store_probe_identity(struct store_probe *pr);
/* The name of the file system directory `dir` is on ("ext4", "tmpfs",
 * ... or "0x<magic>"), "" when statfs(2) fails. */
void store_probe_fs_name(const char *dir, char *buf, size_t len);

/* ---- the store model: what a replay will measure (model.c) ------------- */

/*
 * The requests/s and response time the replay of trace t under plan p
 * (its page sizes, LOB I/O per page size, clients, think time, first
 * max_records) will measure, from a probe: each operation of the trace
 * costs the probe's figure for its placement at that page size, linear in
 * the object's size between the two probed sizes; the requests of one
 * client follow one another, `clients` clients share the machine's CPUs
 * (exact MVA with one multi-server centre, perf/'s solver). The range
 * pairs the probe's interval ends with the model's stated error
 * (STORE_MODEL_ERROR, docs/models.md "Store model").
 */
#define STORE_MODEL_ERROR 0.10
struct store_prediction {
    uint32_t page_size_bytes;
    enum store_lob_io lob_io;
    uint64_t requests; /* per pass */
    double demand_us;  /* service time of one request */
    double req_per_s, req_per_s_lo, req_per_s_hi;
    double response_ms, response_ms_lo, response_ms_hi;
    uint64_t in_row_ops, lob_ops; /* operations by placement, per pass */
};
int store_model_predict(const struct store_probe *pr,
                        const struct store_plan *p, const struct store_trace *t,
                        unsigned cpus, struct store_prediction *out,
                        struct pt_err *err);

/* "off", "normal", "full" in enum order, then NULL */
extern const char *const store_sync_names[];
/* "off", "normal", "full", and back (-1: unknown). */
const char *store_sync_name(enum store_sync s);
int store_sync_parse(const char *name);

#endif /* PT_STORE_H */
