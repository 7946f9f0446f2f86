/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sim.h — the public face of sim/: traces (pagetune-trace(5) CSV and
 * libCacheSim oracleGeneral binary), the workload generator, eviction
 * policies behind one interface, the two-tier simulator (application cache
 * in front of a page-size-aware buffer pool) and miss-ratio curves.
 *
 * sim/ does no I/O of its own except reading and writing trace files through
 * the reader/writer below (the trace is its input format); it never prints.
 * A plan of runs (sim_plan_run) and its document, simulation.json, live here
 * too, so a caller gets a simulation as structs, without the command.
 * Neighbours: model/ (page-fit rules, device model), store/ (replays the
 * same traces through the reader), cli/cmd_{simulate,workload,replay}.c.
 */
#ifndef PT_SIM_H
#define PT_SIM_H

#include "model/model.h"
#include "core/core.h"

/* ---- traces ------------------------------------------------------------- */

enum sim_op { SIM_GET = 0, SIM_SET = 1, SIM_DEL = 2 };

enum sim_trace_format {
    SIM_TRACE_AUTO = 0, /* by content: CSV header or 24-byte records */
    SIM_TRACE_CSV,      /* pagetune-trace(5): time_ms,op,key,size */
    SIM_TRACE_ORACLE,   /* libCacheSim oracleGeneral, 24-byte records */
};

/* One request. Valid until the next sim_trace_next() call. */
struct sim_req {
    uint64_t time_ms;    /* request time, ms */
    uint64_t key_id;     /* dense id 0..n_keys-1, interned once per key */
    uint32_t size_bytes; /* serialized object size */
    enum sim_op op;
};

struct sim_trace_reader; /* opaque; streams, never loads the whole file */

/*
 * Open a trace. Missing file → PT_ENOINPUT; bad header → PT_EDATA.
 * Free with sim_trace_close().
 */
int sim_trace_open(const char *path, enum sim_trace_format fmt,
                   struct sim_trace_reader **out, struct pt_err *err);
/*
 * Next request: 1 = *req filled, 0 = end of trace, negative = PT_EDATA with
 * "file:line: ..." (CSV) or "file: truncated record at byte N" (binary).
 * Does not allocate per request (key interning grows a table amortised).
 */
int sim_trace_next(struct sim_trace_reader *r, struct sim_req *req,
                   struct pt_err *err);
/*
 * Up to max requests into q[0..max-1], as max calls of sim_trace_next
 * would read them but in one loop (the simulator's driver reads so).
 * Returns how many (0 at the end of the trace) or a negative error code
 * (with err set; the requests before the bad one are consumed).
 */
int64_t sim_trace_next_batch(struct sim_trace_reader *r, struct sim_req *q,
                             size_t max, struct pt_err *err);
/* The key string of an interned id (CSV: as written; binary: decimal id). */
const char *sim_trace_key(const struct sim_trace_reader *r, uint64_t key_id,
                          size_t *len);
/* Number of distinct keys seen so far. */
uint64_t sim_trace_n_keys(const struct sim_trace_reader *r);
/* Bytes consumed so far and total file size (0 if unknown), for progress. */
uint64_t sim_trace_pos(const struct sim_trace_reader *r);
uint64_t sim_trace_size(const struct sim_trace_reader *r);
/* Restart from the beginning (keys stay interned with the same ids). */
int sim_trace_rewind(struct sim_trace_reader *r, struct pt_err *err);
void sim_trace_close(struct sim_trace_reader *r);
/* The detected format (CSV or ORACLE; an empty file reads as ORACLE). */
enum sim_trace_format sim_trace_format_of(const struct sim_trace_reader *r);
/* CSV: number of the last line read (for messages); 0 for binary. */
uint64_t sim_trace_line(const struct sim_trace_reader *r);
/* Bytes held by the reader's read buffer (for memory accounting). */
size_t sim_trace_buffer_bytes(const struct sim_trace_reader *r);

/*
 * Trace writer. The caller opens fp (cli/ through the atomic writer) and
 * writes the header once, then one record per request. CSV keys must be
 * non-empty, must not start with '#' and must not contain ',' or newlines
 * (PT_EDATA). Write errors → PT_EIO.
 */
int sim_trace_write_header(FILE *fp, enum sim_trace_format fmt,
                           struct pt_err *err);
int sim_trace_write_csv(FILE *fp, uint64_t time_ms, enum sim_op op,
                        const char *key, size_t key_len, uint32_t size_bytes,
                        struct pt_err *err);
/* One oracleGeneral record (time in seconds, next access -1 if none). */
int sim_trace_write_oracle(FILE *fp, uint32_t time_s, uint64_t obj_id,
                           uint32_t size_bytes, int64_t next_access_vtime,
                           struct pt_err *err);

/*
 * The per-key evidence of the trace at path (sizes and gets, what
 * `recommend --trace` and advise use), read from its start into *t (reset
 * first; release with rec_trace_evidence_release, also after a failure).
 * progress (may be NULL) is called every 2^16 requests with the reader's
 * position and size. Errors: the reader's, PT_EDATA when the trace has no
 * requests, PT_EINTR once pt_interrupted().
 */
int sim_trace_evidence(const char *path, struct rec_trace_evidence *t,
                       pt_progress_fn *progress, void *ctx, struct pt_err *err);

/* ---- eviction policies ------------------------------------------------- */

/*
 * An eviction policy caches up to `capacity` entries identified by dense
 * key ids (< 2^32). Each policy file exports one immutable ops table;
 * instances start with `struct sim_policy` and keep private state after
 * it. The driver (sim.c) does the bookkeeping (hits, misses, statistics);
 * a policy only decides what stays. No operation allocates per request
 * except amortised growth of the key → slot map (doubling).
 */
#define SIM_NO_KEY UINT32_MAX

struct sim_policy;
struct sim_policy_params;

struct sim_policy_ops {
    const char *name;    /* "lru", "s3fifo", ... */
    const char *summary; /* one line with the paper it implements */
    /*
     * New empty cache of capacity >= 1 entries; `seed` feeds policies that
     * draw random numbers. NULL when out of memory. Free with destroy.
     */
    struct sim_policy *(*create)(uint64_t capacity, uint64_t seed);
    /*
     * Reference `key`: 1 = it was cached (the policy updates its state);
     * 0 = it was not, and is now inserted — if that evicted an entry,
     * *victim is its key, else SIM_NO_KEY. PT_EINTERNAL when out of memory.
     */
    int (*access)(struct sim_policy *p, uint32_t key, uint32_t *victim);
    /* Is `key` cached? Does not change any state. */
    int (*contains)(const struct sim_policy *p, uint32_t key);
    /* Drop `key` (and any ghost of it): 1 if it was cached, else 0. */
    int (*remove)(struct sim_policy *p, uint32_t key);
    /* Entries cached now. */
    uint64_t (*count)(const struct sim_policy *p);
    /*
     * Optional (may be NULL): start loading what access(key) will touch,
     * so the driver can overlap cache misses with other work. Stage 0 (a
     * few requests ahead): the key's slot in the key map; stage 1 (closer,
     * when stage 0 has landed): the key's entry.
     */
    void (*prefetch)(const struct sim_policy *p, uint32_t key, int stage);
    void (*destroy)(struct sim_policy *p);
    /*
     * Optional (may be NULL): size the policy's fixed-size structures
     * (PostgreSQL's scan ring, InnoDB's minimum lengths) for pages of
     * pp->page_size_bytes and a miniature simulation at pp->scale. Called
     * once, right after create, before any access; without it a policy
     * keeps its full-size defaults.
     */
    void (*tune)(struct sim_policy *p, const struct sim_policy_params *pp);
    /*
     * Optional (NULL = access): reference `key` as a page of a large
     * sequential scan (the database tier's scan detector, sim.c). Only an
     * engine that reads scans through a ring of buffers (PostgreSQL's
     * buffer access strategies) treats it differently.
     */
    int (*access_scan)(struct sim_policy *p, uint32_t key, uint32_t *victim);
    /*
     * Optional (may be NULL): access() for the keys of q[0..n-1] in order,
     * victims not wanted, *hits += how many were cached; q[n..n+ahead-1]
     * are the requests that follow (to prefetch for, not to access). The
     * same results as n calls of access, in one loop: the driver uses it
     * for a run of gets when nothing else needs the requests one by one
     * (sim.c, plain). p->now_ms is the last request's time: a policy that
     * reads time takes each request's from q. 0 or PT_EINTERNAL.
     */
    int (*access_many)(struct sim_policy *p, const struct sim_req *q, size_t n,
                       size_t ahead, uint64_t *hits);
    /*
     * Optional (may be NULL): buffer-fix (delta +1) or release (-1) the
     * cached `key`: a fixed entry is never the victim (InnoDB's
     * buf_LRU_free_page skips a fixed block). 1 if cached, else 0.
     */
    int (*pin)(struct sim_policy *p, uint32_t key, int delta);
    /*
     * Optional (may be NULL): the cached `key` was modified (on 1; InnoDB:
     * its block is dirty) or needs no write any more (on 0: its page was
     * freed). A dirty entry is never freed: the page cleaner's batch
     * writes it and passes on, and it may go once clean
     * (policy_innodb.c). 1 if cached, else 0.
     */
    int (*dirty)(struct sim_policy *p, uint32_t key, int on);
};

/* What sizes a policy's fixed-size structures (sim_policy_ops.tune). */
struct sim_policy_params {
    uint32_t page_size_bytes; /* 0 = not pages (the application cache) */
    double scale;             /* 1, or the sampling rate R of a miniature
                                 simulation: fixed-size structures shrink
                                 by it as the cache does */
    uint64_t free_target;     /* InnoDB (innodb-lru): innodb_lru_scan_depth,
                                 the free blocks its page cleaner keeps; 0 =
                                 no page cleaner (every read in evicts the
                                 tail itself) */
    uint64_t write_ms;        /* InnoDB: how long the page cleaner's write
                                 of a dirty block takes (ops->dirty); the
                                 block is not freed before it ends */
};

struct sim_policy {
    const struct sim_policy_ops *ops;
    uint64_t capacity; /* entries */
    uint64_t now_ms;   /* the time of the access being made, set by the
                          driver before access (trace time, or requests at
                          --request-rate); read by time-aware policies */
};

/* A run of this many consecutive page numbers (repeats of a page allowed)
 * makes the pages after it scan pages (access_scan); docs/models.md
 * #engine-policies. */
#define SIM_SCAN_RUN_PAGES 64

/* The registry, NULL-terminated, in the order `--help` lists them. */
extern const struct sim_policy_ops *const sim_policies[];
/* A policy by name (case-insensitive), or NULL. */
const struct sim_policy_ops *sim_policy_find(const char *name);
/* InnoDB's page cleaner stops at this many LRU blocks in a pool of `pages`
 * (buf_flush_LRU_list_batch: min(pages / 20 - 1, BUF_LRU_MIN_LEN 256));
 * `scale` shrinks the 256 in a miniature simulation (1 otherwise). */
uint64_t sim_innodb_lru_floor(uint64_t pages, double scale);
/* 1 if ops is an LRU (lru, sqlite-lru): the stack-distance curve
 * (sim_mrc) describes it exactly; other policies' curves are miniature
 * simulations (sim_mini). */
int sim_policy_is_lru(const struct sim_policy_ops *ops);
/* "lru, fifo, clock, ..." into buf, for messages; returns buf. */
char *sim_policy_names(char *buf, size_t len);

/* ---- miniature simulations (mini.c) ------------------------------------ */

/*
 * A curve of any policy by miniature simulation (Waldspurger et al., USENIX
 * ATC '17): references are sampled spatially at rate R (a key is in the
 * sample iff the hash of its id is under R, as in SHARDS) and recorded; a
 * size S of the curve is one run of the policy on the record with S x R
 * entries (at least 1), its hits corrected as SHARDS-adj does. mini.c says
 * why and how; docs/models.md#mini has the errors measured.
 */
#define SIM_MINI_COUNTED 1u /* a get: counts as a reference */
#define SIM_MINI_SCAN 2u    /* a page of a detected scan (access_scan) */
#define SIM_MINI_REMOVE 4u  /* internal: the key was removed */
#define SIM_MAX_JOBS 64     /* threads of one curve or plan */

struct sim_mini;

/* sample_rate in (0, 1]; seed picks the hash. NULL when out of memory or
 * the rate is out of range. Free with sim_mini_free. */
struct sim_mini *sim_mini_new(double sample_rate, uint64_t seed);
/* One reference (flags: SIM_MINI_COUNTED, SIM_MINI_SCAN) at now_ms.
 * Allocates only to grow the record (amortised). 0 or PT_EINTERNAL. */
int sim_mini_access(struct sim_mini *m, uint32_t key, unsigned flags,
                    uint64_t now_ms);
/* The key was removed (a del, an invalidation). 0 or PT_EINTERNAL. */
int sim_mini_remove(struct sim_mini *m, uint32_t key);
/* Counted references seen, sampled or not. */
uint64_t sim_mini_refs(const struct sim_mini *m);
double sim_mini_rate(const struct sim_mini *m);
/* Largest useful size: the most sampled keys live at once, / R. */
uint64_t sim_mini_max_size(const struct sim_mini *m);
/*
 * Hit ratios of policy `ops` at n sizes (entries of the full cache) into
 * hit[0..n-1]: one miniature run per size, over `jobs` threads (the
 * results do not depend on jobs). page_size_bytes and R tune the policy's
 * fixed structures; seed feeds random policies. 0, or PT_EINTERNAL.
 */
int sim_mini_curve(const struct sim_mini *m, const struct sim_policy_ops *ops,
                   uint32_t page_size_bytes, uint64_t seed,
                   const uint64_t *sizes, size_t n, unsigned jobs, double *hit,
                   struct pt_err *err);
void sim_mini_free(struct sim_mini *m);

/* ---- miss-ratio curves (mrc.c) ----------------------------------------- */

/*
 * One-pass LRU miss-ratio curve from stack distances (Mattson et al.,
 * "Evaluation techniques for storage hierarchies", IBM Systems Journal
 * 1970): a Fenwick tree over access times marks each key's last access, so
 * the distance of an access is the number of marks after the key's
 * previous one (O(log M) per access; the time axis is compacted when it
 * fills, so memory stays O(distinct keys)). With sample_rate < 1 only keys
 * whose hash falls under the rate are tracked and distances are scaled by
 * 1/R (SHARDS, Waldspurger et al., FAST '15, fixed-rate), with the
 * SHARDS-adj correction of the first bucket at the end. Variant: keys that
 * reach 0.25/R references are promoted to exact tracking (weight 1), so a
 * few very hot keys falling in or out of the sample no longer swing the
 * curve; this costs a reference counter per key (mrc.c).
 *
 * Semantics match the fixed-size LRU of the driver: a counted reference
 * (a get) is a hit at size C iff its distance <= C; an uncounted reference
 * (a set) moves the key to the top without counting; a remove (a del)
 * drops the key from the stack. Exact equality with fixed-size LRU runs
 * holds for traces without removes (a del in a real LRU frees a slot, in
 * the stack it pulls deeper keys up by one).
 */
struct sim_mrc;

/* sample_rate in (0, 1]; 1 = exact. NULL when out of memory. */
struct sim_mrc *sim_mrc_new(double sample_rate, uint64_t seed);
/* One reference; `counted` = a get. 0 or PT_EINTERNAL (out of memory). */
int sim_mrc_access(struct sim_mrc *m, uint32_t key, int counted);
void sim_mrc_remove(struct sim_mrc *m, uint32_t key);
/*
 * Hint: key will be referenced soon (see sim_prefetch). Stage 0 asks for
 * the key's entry; stage 1, some references later, reads it (landed by
 * then) and asks for the stack state that the reference will touch.
 */
void sim_mrc_prefetch(const struct sim_mrc *m, uint32_t key, int stage);
/* Counted references seen (all of them, sampled or not). */
uint64_t sim_mrc_refs(const struct sim_mrc *m);
/* Largest useful size: distinct keys seen (scaled when sampling). */
uint64_t sim_mrc_max_size(const struct sim_mrc *m);
/* Hit ratio of an LRU cache of `size` entries; 0 when nothing counted. */
double sim_mrc_hit_ratio(struct sim_mrc *m, uint64_t size);
void sim_mrc_free(struct sim_mrc *m);

/* ---- the two-tier simulator (sim.c) ------------------------------------ */

/* What the application caches (seed 001: Trade's caching modes). */
enum sim_cache_mode {
    SIM_MODE_NONE = 0, /* no app cache: every get reads the database */
    SIM_MODE_COMMAND,  /* command cache: a set invalidates the entry */
    SIM_MODE_DMAP,     /* distributed map: a set puts the new value */
};

/* DynaCache replication sharing policy (seed 002). */
enum sim_sharing {
    SIM_SHARE_NOT_SHARED = 0,
    SIM_SHARE_PUSH,
    SIM_SHARE_PULL,
    SIM_SHARE_PUSH_PULL,
};

/*
 * Relative costs of the application tier's operations, in ms of work, to
 * compare caching modes and sharing policies. Defaults (sim_costs_default)
 * follow the seeds' qualitative findings, not measurements: a peer fetch
 * costs more than a database read (seed 002: "more expensive to fetch from
 * a peer cache than to obtain data from the database"), a replication
 * message (one entry or id to one peer) costs a fraction of a read, a read
 * from the local disk-offload tier less than a database read.
 */
struct sim_costs {
    double db_read_ms;      /* a database read (query round trip) */
    double db_write_ms;     /* a database write */
    double message_ms;      /* one replication message to one peer */
    double peer_fetch_ms;   /* fetching an entry from a peer's cache */
    double offload_read_ms; /* reading an entry from the disk-offload tier */
};
void sim_costs_default(struct sim_costs *c);

#define SIM_MAX_SERVERS 64
#define SIM_MAX_POOLS 16
#define SIM_MAX_TIERS 16

/* One page size of the database tier and the buffer-pool sizes to try. */
struct sim_db_spec {
    uint32_t page_size_bytes;
    size_t n_pools;
    uint64_t pool_pages[SIM_MAX_POOLS];
    int no_curve; /* 1: no curve for this page size even with mrc (a plan's
                     other thread draws it) */
};

struct sim_config {
    enum sim_cache_mode mode;
    uint64_t app_entries;                    /* per server; >= 1 unless NONE */
    const struct sim_policy_ops *app_policy; /* NULL = lru */
    uint64_t offload_entries;                /* disk tier per server, 0 = off */
    unsigned servers;                        /* 1..SIM_MAX_SERVERS */
    enum sim_sharing sharing;
    struct sim_costs costs;
    uint64_t seed;
    /* database tier: engine NULL = application tier only */
    const struct rec_engine *engine;        /* borrowed, outlives the sim */
    const struct rec_device *device;        /* borrowed; NULL = no io_ms */
    const struct sim_policy_ops *bp_policy; /* NULL = lru */
    size_t n_tiers;
    struct sim_db_spec tiers[SIM_MAX_TIERS];
    int mrc;             /* build miss-ratio curves */
    double sample_rate;  /* for the curves: 1 = exact, else SHARDS */
    double request_rate; /* policy time (InnoDB's old blocks time): > 0 =
                            request i is at i x 1000 / rate ms; 0 = the
                            trace's time stamps */
};

/* Application-tier counters, summed over servers. */
struct sim_app_stats {
    uint64_t requests, gets, sets, dels;
    uint64_t hits;         /* gets served by the server's own cache */
    uint64_t misses;       /* gets that went to a peer or the database */
    uint64_t offload_hits; /* of the hits, served by the disk tier */
    uint64_t replication_messages;
    uint64_t peer_fetches;
    uint64_t db_reads, db_writes;
    uint64_t object_bytes; /* sum of the sizes of gets and sets (the
                              performance model's mean object size) */
    double cost_ms;        /* with the sim_costs of the config */
};

/* Database-tier counters for one (page size, buffer-pool size). */
struct sim_db_stats {
    uint32_t page_size_bytes;
    uint64_t pool_pages;
    uint64_t logical_reads;   /* buffer-pool page accesses */
    uint64_t physical_reads;  /* of those, misses */
    uint64_t physical_writes; /* dirty pages written at eviction */
    uint64_t direct_reads;    /* in direct_io_unit sectors (DB2) */
    uint64_t direct_read_reqs;
    uint64_t direct_writes; /* sectors */
    uint64_t direct_write_reqs;
    uint64_t inline_accesses;  /* object accesses served from the row */
    uint64_t outline_accesses; /* object accesses out of line */
    uint64_t too_big;          /* objects the engine cannot store */
    uint64_t pages_used;       /* data + overflow pages allocated */
    double io_ms;              /* device estimate: physical + direct I/O */
};

struct sim;

/* Validate cfg (PT_EUSAGE with a message) and build the simulator. */
int sim_new(const struct sim_config *cfg, struct sim **out, struct pt_err *err);
/* Feed one request. 0, or PT_EINTERNAL when out of memory. */
int sim_feed(struct sim *s, const struct sim_req *req, struct pt_err *err);
/*
 * Hint that `key_id` is the next request's key: prefetches the state it
 * will touch (a caller reading one request ahead hides a cache miss).
 */
void sim_prefetch(const struct sim *s, uint64_t key_id, unsigned ahead,
                  int stage);
/*
 * Replay a whole trace through n simulators (each sees every request),
 * reading a few requests ahead to prefetch. Every 2^16 requests it calls
 * `progress` (may be NULL) with the reader's position and size, then polls
 * pt_interrupted(). Returns the number of requests (>= 0) or a negative
 * status (the reader's PT_EDATA with file:line, PT_EINTERNAL, PT_EINTR).
 */
int64_t sim_run(struct sim_trace_reader *r, struct sim *const *sims, size_t n,
                pt_progress_fn *progress, void *ctx, struct pt_err *err);
void sim_app_stats(const struct sim *s, struct sim_app_stats *out);
/* Stats of tier t (index into cfg->tiers), pool p. */
void sim_db_stats(const struct sim *s, size_t t, size_t p,
                  struct sim_db_stats *out);
/*
 * The curve of tier t's buffer pool (pages), or with no database tier
 * (t = 0) of the application cache (entries, server 1). NULL without
 * cfg->mrc. Borrowed.
 */
struct sim_mrc *sim_curve(struct sim *s, size_t t);
/* The same curve when the tier's policy is not LRU: its miniature
 * simulation (NULL when that tier's curve is sim_curve's). Borrowed. */
struct sim_mini *sim_curve_mini(struct sim *s, size_t t);
void sim_free(struct sim *s);

/* ---- a plan of runs and its results (plan.c, plan_json.c) -------------- */

/*
 * What `pagetune simulate` does, as a library call: one simulator per
 * application-cache size, each with a database tier per page size and a
 * buffer pool per pool size, all fed the same trace in one pass; the
 * results come back as plain data (struct sim_plan_result), which is also
 * what simulation.json serialises (pagetune-simulate(1), section JSON,
 * describes the document; sim_plan_result_to_json / _from_json are its only
 * writer and reader).
 */
#define SIM_MAX_APP 16      /* application-cache sizes, one run each */
#define SIM_CURVE_POINTS 40 /* curve points in simulation.json and CSV */
#define SIM_CURVE_BRIEF 12  /* curve points of the compact table view */

/* A buffer-pool size as given: pages, or bytes (the same memory at every
 * page size: value / page size pages). */
struct sim_pool_size {
    uint64_t value;
    int bytes; /* 1: value is bytes, 0: pages */
};

struct sim_plan {
    const char *trace; /* trace path, "-" = stdin; borrowed. The name in
                          the document even when `reader` is given */
    enum sim_trace_format trace_format;
    struct sim_trace_reader *reader; /* NULL: sim_plan_run opens `trace`;
                                        else borrowed, read from its
                                        position to the end */
    /* database tier (n_page_sizes = 0: application tier only) */
    const struct rec_engine *engine; /* borrowed; needed with page sizes */
    const struct rec_device *device; /* borrowed; NULL = no io_ms */
    const char *engine_name;         /* as given (name or file), for the
                                        document; borrowed */
    const char *device_name;         /* as given; borrowed */
    size_t n_page_sizes;
    uint64_t page_sizes[SIM_MAX_TIERS]; /* bytes, pages of the engine */
    size_t n_pools;
    struct sim_pool_size pools[SIM_MAX_POOLS];
    const struct sim_policy_ops *bp_policy; /* NULL = the engine's
                                               buffer_pool_policy, else
                                               lru */
    /* application tier */
    enum sim_cache_mode mode;
    size_t n_app;                            /* 0 with SIM_MODE_NONE */
    uint64_t app_entries[SIM_MAX_APP];       /* per server, one run each */
    const struct sim_policy_ops *app_policy; /* NULL = lru */
    uint64_t offload_entries;                /* 0 = off */
    unsigned servers;                        /* 1..SIM_MAX_SERVERS */
    enum sim_sharing sharing;
    int mrc;            /* miss-ratio curves of the first run */
    double sample_rate; /* 1 = exact, else SHARDS (LRU) or miniature
                           simulation (other policies) */
    uint64_t seed;
    double request_rate; /* sim_config.request_rate; 0 = trace time */
    unsigned jobs;       /* threads, 1..SIM_MAX_JOBS; 0 = 1. The result
                            does not depend on it */
    /* called every 2^16 requests by one thread (reports only) */
    pt_progress_fn *progress;
    void *progress_ctx;
};

/* Defaults: no tiers, 16M of buffer pool (bytes), mode none, 1 server,
 * not shared, sample rate 1, seed 1 (pagetune-simulate(1)). */
void sim_plan_init(struct sim_plan *p);

/*
 * What the performance model (perf/, docs/models.md#performance-model)
 * predicts for one configuration under a closed load: filled by the caller
 * (cmd_simulate through perf_mva), written and read with the row. sim/ does
 * not compute it; it only carries it into simulation.json.
 */
#define SIM_PRED_CENTRES 16
#define SIM_PRED_NAME 24
struct sim_predicted {
    int present;                    /* 0: no prediction (no --clients) */
    unsigned clients;               /* N */
    double think_ms;                /* Z */
    double req_per_s;               /* throughput X */
    double response_ms;             /* R = N / X - Z */
    char bottleneck[SIM_PRED_NAME]; /* centre with the largest demand */
    size_t n_util;
    struct {
        char name[SIM_PRED_NAME]; /* centre, e.g. "app_cpu" */
        double util;              /* utilisation of one copy, 0..1 */
    } util[SIM_PRED_CENTRES];
    int calibrated;       /* 1: costs from a calibration profile */
    char calibration[64]; /* its name; "" when uncalibrated */
    int has_range;        /* 1: the range below is known (calibrated) */
    double req_per_s_lo, req_per_s_hi;     /* the calibration's range */
    double response_ms_lo, response_ms_hi; /* likewise */
};

/* One simulated configuration: an application-cache size and, with a
 * database tier, one (page size, buffer-pool size). */
struct sim_result_row {
    uint64_t app_entries; /* per server; 0 in mode none */
    int has_db;           /* 0: application tier only */
    struct sim_app_stats app;
    struct sim_db_stats db; /* when has_db */
    char setting[16]; /* "" or, in a comparison, "current"/"recommended" */
    struct sim_predicted predicted; /* when predicted.present */
};

struct sim_curve_point {
    uint64_t size; /* pages (page_size_bytes > 0) or entries */
    double hit_ratio;
    int given;        /* 1: a size the plan simulated (--bufferpool of
                         this page size, or --app-cache) */
    int extrapolated; /* 1: sampled curve, size < 1/R: below what the
                         sample resolves (docs/models.md#shards) */
};

/*
 * An LRU miss-ratio curve at log-spaced sizes from 1 to its largest useful
 * size, plus every size the plan simulated (given), in ascending order
 * without duplicates. The given sizes take their places first, so a view
 * still has at most its number of points while it has room for the given
 * ones and the two ends; a given size past the largest useful one is kept
 * (the curve is flat there). For an exact curve a given point's hit ratio
 * is computed as the fixed run's is (1 - misses / references), so with an
 * LRU pool it equals that run's to the last digit.
 */
#define SIM_CURVE_GIVEN SIM_MAX_POOLS /* >= SIM_MAX_APP */
struct sim_curve {
    uint32_t page_size_bytes; /* 0 = the application cache (entries) */
    double sample_rate;
    size_t n_points; /* <= SIM_CURVE_POINTS */
    struct sim_curve_point points[SIM_CURVE_POINTS];
    size_t n_brief; /* SIM_CURVE_BRIEF points for a compact view, more when
                       more than SIM_CURVE_BRIEF - 2 sizes were given;
                       filled by sim_plan_run only (0 after _from_json) */
    struct sim_curve_point brief[SIM_CURVE_BRIEF + SIM_CURVE_GIVEN];
};

/*
 * The results of a plan, in the order of simulation.json: runs in
 * app_entries order, within a run page sizes then pools in plan order. A
 * comparison (two plans of one page size, "current" vs "recommended"
 * setting of a knob) has no trace or config, its rows carry `setting`.
 */
struct sim_plan_result {
    char *trace; /* owned; NULL in a comparison */
    uint64_t distinct_keys;
    uint64_t requests; /* requests replayed (not in the document) */
    enum sim_cache_mode mode;
    char app_policy[32];
    uint64_t offload_entries;
    unsigned servers;
    enum sim_sharing sharing;
    int has_db;   /* a database tier: engine, device, policy below */
    char *engine; /* owned; NULL without a database tier */
    char *device; /* owned */
    char bp_policy[32];
    size_t n_rows;
    struct sim_result_row *rows; /* owned */
    int has_mrc;                 /* curves were asked for */
    size_t n_curves;
    struct sim_curve curves[SIM_MAX_TIERS];
    int comparison; /* 1: the comparison document */
    char knob[64];  /* the knob compared, e.g. "inline_limit" */
    double knob_current, knob_recommended;
};

/*
 * Validate a plan without running it or allocating: the cache mode against
 * the application-cache sizes, page sizes the engine has, buffer pools
 * holding at least one page. PT_EUSAGE naming the option (--page-size,
 * --bufferpool, ...). sim_new's own limits are reported by sim_plan_run.
 */
int sim_plan_check(const struct sim_plan *p, struct pt_err *err);
/*
 * Run the plan: check it, build the simulators, read the trace once (open
 * it unless p->reader) and fill *res (zeroed first; release with
 * sim_plan_result_release, also after a failure). Errors: sim_plan_check's,
 * the trace's (PT_ENOINPUT, PT_EDATA "file:line: ..."), PT_EINTR once
 * pt_interrupted(), PT_EINTERNAL (out of memory).
 */
int sim_plan_run(const struct sim_plan *p, struct sim_plan_result *res,
                 struct pt_err *err);
void sim_plan_result_release(struct sim_plan_result *res);

/*
 * The comparison of two results of one page size (each run alone): the
 * rows of `cur` marked "current", then those of `rec` marked
 * "recommended", and rec's curves. *out is new (release it).
 * PT_EINTERNAL when out of memory.
 */
int sim_plan_result_compare(const struct sim_plan_result *cur,
                            const struct sim_plan_result *rec, const char *knob,
                            double knob_current, double knob_recommended,
                            struct sim_plan_result *out, struct pt_err *err);

/* The document simulation.json. New reference (json_decref), NULL on OOM. */
json_t *sim_plan_result_to_json(const struct sim_plan_result *res);
/*
 * The curves' points as CSV into fp (plan_csv.c, `simulate --mrc-csv`): a
 * header, then "tier,page_size,size,bytes,hit_ratio,miss_ratio" per point,
 * plus "extrapolated" (1 below 1/R) on sampled curves. PT_EIO when fp
 * reports a write error.
 */
int sim_curves_write_csv(const struct sim_plan_result *res, FILE *fp,
                         struct pt_err *err);
/*
 * Read simulation.json (either form) into *res; `ctx` names the document
 * in messages. PT_EDATA naming the bad key. Release with
 * sim_plan_result_release, also after a failure.
 */
int sim_plan_result_from_json(struct sim_plan_result *res, const json_t *doc,
                              const char *ctx, struct pt_err *err);
/*
 * Ratios of a row's counters: 0 and *ratio set, or -1 when the denominator
 * is 0 (no gets; no logical reads): the documents write null then.
 */
int sim_app_miss_ratio(const struct sim_app_stats *s, double *ratio);
int sim_db_hit_ratio(const struct sim_db_stats *d, double *ratio);
/* Mean size of the objects a row's gets and sets carried (bytes), or -1
 * when it has none (an old document without object_bytes, or no gets). */
int sim_app_object_bytes(const struct sim_app_stats *s, double *bytes);
/* The first row of a page size (with `setting` when not NULL), or NULL. */
const struct sim_result_row *
sim_plan_result_find(const struct sim_plan_result *res,
                     uint32_t page_size_bytes, const char *setting);

/* Names of the modes and sharing policies as options and documents spell
 * them ("distributed-map", "shared-push", ...), and back (-1: unknown). */
const char *sim_cache_mode_name(enum sim_cache_mode m);
int sim_cache_mode_parse(const char *name);
const char *sim_sharing_name(enum sim_sharing s);
int sim_sharing_parse(const char *name);

/* ---- workload generator (workload.c) ----------------------------------- */

enum sim_size_dist { SIM_SIZE_FIXED, SIM_SIZE_LOGNORMAL, SIM_SIZE_EMPIRICAL };
enum sim_pop_dist { SIM_POP_ZIPF, SIM_POP_UNIFORM };

/* A workload profile (pagetune-profile(5), profiles/workloads/). */
struct sim_workload {
    char name[64];
    uint64_t requests; /* default --requests */
    uint64_t seed;     /* default --seed */
    unsigned servers;  /* application servers (for simulate) */
    double rate_per_s; /* requests per second: time_ms spacing */
    uint64_t keys;     /* key population (not with sessions) */
    enum sim_pop_dist pop;
    double alpha; /* Zipf exponent */
    enum sim_size_dist size_dist;
    uint32_t size_bytes; /* fixed */
    double size_median;  /* lognormal, bytes */
    double size_sigma;   /* lognormal shape */
    uint32_t size_min, size_max;
    uint32_t *sizes; /* empirical values (owned) */
    size_t n_sizes;
    uint64_t *size_cum; /* empirical weights, running sums of size.counts
                           (owned); NULL: every value equally likely */
    double p_get, p_set, p_del;  /* operation mix, sums to 1 */
    int sessions;                /* session life cycle instead of keys */
    uint64_t concurrent;         /* live sessions (clients) at any time */
    double requests_per_session; /* mean, geometric */
    double timeout_s;            /* idle time before invalidation (del) */
};

/*
 * Fill *w from a loaded profile; `ctx` names the file in messages. An
 * empirical size distribution needs size.values (cli/ reads size.file into
 * it). PT_EDATA naming the bad key. Release with sim_workload_release.
 */
int sim_workload_from_json(struct sim_workload *w, const json_t *prof,
                           const char *ctx, struct pt_err *err);
void sim_workload_release(struct sim_workload *w);

/* One generated request. key points into the generator (valid until next). */
struct sim_wrec {
    uint64_t time_ms;
    enum sim_op op;
    const char *key;
    size_t key_len;
    uint32_t size_bytes;
};

struct sim_wgen;
/* A generator for w (borrowed: must outlive it); same seed, same stream. */
int sim_wgen_new(const struct sim_workload *w, uint64_t seed,
                 struct sim_wgen **out, struct pt_err *err);
/* Next request: 1, or PT_EINTERNAL when out of memory. Never ends. */
int sim_wgen_next(struct sim_wgen *g, struct sim_wrec *rec);
void sim_wgen_free(struct sim_wgen *g);
/*
 * The trace of workload w into fp as CSV (`pagetune workload`, advise's
 * demo): a "# pagetune workload" comment naming n and seed, the header,
 * then n generated requests. progress (may be NULL) is called every 2^16
 * requests, first before the first, with (done, n). Errors: PT_EIO on a
 * write error, PT_EINTERNAL when out of memory, PT_EDATA for a key the CSV
 * cannot hold, PT_EINTR once pt_interrupted() (polled as often).
 */
int sim_wgen_write_csv(const struct sim_workload *w, uint64_t n, uint64_t seed,
                       FILE *fp, pt_progress_fn *progress, void *ctx,
                       struct pt_err *err);

#endif /* PT_SIM_H */
