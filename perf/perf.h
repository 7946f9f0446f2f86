/* SPDX-License-Identifier: Apache-2.0 */
/*
 * perf.h — the public face of perf/: a performance model over the
 * simulator's counts. It turns what one configuration does per request
 * (struct perf_counts, mapped from sim/'s sim_app_stats and sim_db_stats)
 * and what each operation costs (struct perf_costs, read from profiles:
 * application server, engine, device, calibration) into the service demand
 * of one request at each resource, solves the closed network of N clients
 * with think time Z by exact Mean Value Analysis, and fits the free costs
 * to measured points with MINPACK's Levenberg-Marquardt (cminpack).
 *
 * perf/ never prints and never exits. The model and the fit read no file
 * (profiles arrive as jansson trees from core/'s prof_load); only the
 * predictor (predict.c) loads the profiles it is named, through core/'s
 * prof_load_named; the only output is perf_calib_write() to a stream the
 * caller opened. Neighbours: sim/ (the counts), model/ (struct
 * rec_device, rec_engine), cli/ (simulate, recommend, calibrate).
 * The model and its formulas: docs/models.md#performance-model.
 */
#ifndef PT_PERF_H
#define PT_PERF_H

#include "model/model.h"
#include "core/core.h"
#include "sim/sim.h"

/* ---- counts --------------------------------------------------------------
 *
 * What one configuration did over a run, as totals (perf divides by
 * `requests`). Every field is a count or a size; none is a time.
 */
struct perf_counts {
    double requests;           /* client requests in the run (> 0) */
    double app_gets;           /* session/cache reads at the app tier */
    double app_hits;           /* of those, served by the app's own cache */
    double app_misses;         /* of those, sent to a peer or the database */
    double kb_serialised;      /* KB (de)serialised by the app servers */
    double db_kb;              /* KB shipped between app servers and database */
    double db_rows;            /* rows read or written by statements */
    double logical_reads;      /* buffer-pool page accesses */
    double physical_reads;     /* of those, misses read from the device */
    double physical_writes;    /* dirty pages written back */
    double page_size_bytes;    /* of the table space (pages above) */
    double direct_read_reqs;   /* out-of-row (LONG/LOB) read requests */
    double direct_read_kb;     /* KB they transfer */
    double direct_write_reqs;  /* out-of-row write requests */
    double direct_write_kb;    /* KB they transfer */
    double fscache_share;      /* 0..1: share of direct reads and writes that
                                  go through the file-system cache (SMS: 1) */
    double page_fscache_share; /* 0..1: share of the page reads and writes
                                  (physical_*) the file-system cache serves
                                  (0: every one reaches the device) */
    double log_records;        /* log records written */
    double log_writes;         /* log forces (commits that logged) */
    double log_kb;             /* KB written to the log */
    double repl_messages;      /* replication messages, summed over peers */
    double repl_kb;            /* KB those messages carry */
    double peer_fetches;       /* entries fetched from a peer's cache */
    double offload_reads;      /* entries read from the disk-offload tier */
    double offload_writes;     /* entries written to it */
    double object_kb;          /* mean serialised object size, KB (a size,
                                  not a total: perf does not divide it) */
};

/*
 * What perf_counts_from_sim needs besides the simulator's counters: facts
 * of the workload, the engine and the table-space set-up (from the trace
 * and the engine profile), none of them a cost.
 */
struct perf_sim_map {
    double object_bytes;              /* mean serialised object size (trace) */
    double direct_io_unit_bytes;      /* engine: unit of direct_reads/writes */
    double fscache_share;             /* 0..1, see perf_counts.fscache_share */
    int page_logging;                 /* engine logs whole pages (SQLite WAL),
                                         else one record per row change */
    double log_record_overhead_bytes; /* engine: header of a log record */
    enum sim_sharing sharing;         /* push: messages carry the entry */
    double page_fscache_share;        /* 0..1, see perf_counts */
};

/*
 * Map one configuration's simulator counters to counts (docs/
 * models.md#performance-model, "Counts from the simulator"); db may be NULL (no
 * database tier). PT_EDATA when app->requests is 0 or a map field is out of
 * range.
 */
int perf_counts_from_sim(struct perf_counts *out,
                         const struct sim_app_stats *app,
                         const struct sim_db_stats *db,
                         const struct perf_sim_map *map, struct pt_err *err);

/* ---- costs ---------------------------------------------------------------
 *
 * What each operation costs, in ms of service at one resource. No value is
 * compiled in: perf_costs_init() sets every cost to "unset" (NaN) and the
 * loaders fill them from profiles. A cost that stays unset is an error only
 * when a count that needs it is non-zero (perf_demand).
 */
struct perf_costs {
    double app_cpu_fixed_ms;     /* app-server CPU per request */
    double app_cpu_per_kb_ms;    /* app-server CPU per KB (de)serialised */
    double app_cpu_per_row_ms;   /* app-server CPU per database row read or
                                    written: the JDBC statement and the
                                    object built from it */
    double repl_cpu_per_msg_ms;  /* app-server CPU per replication message */
    double net_per_kb_ms;        /* network per KB (database and peers) */
    double db_cpu_per_lread_ms;  /* database CPU per logical read */
    double db_cpu_per_row_ms;    /* database CPU per row */
    double db_cpu_per_logrec_ms; /* database CPU per log record */
    double fscache_req_ms;       /* database CPU per direct request (read
                                    or write) through the file-system cache */
    double fscache_per_kb_ms;    /* database CPU per KB copied from it */
    double disk_overhead_ms;     /* device: DB2 OVERHEAD, per request */
    double disk_per_kb_ms;       /* device: TRANSFERRATE per KB */
    double log_write_ms;         /* log device per log force */
    double log_per_kb_ms;        /* log device per KB logged */
    double offload_read_ms;      /* offload disk per entry read */
    double offload_write_ms;     /* offload disk per entry written */
    double front_cpu_per_req_ms; /* front tier (proxy / web server) CPU per
                                    request; 0 (no front tier) unless a
                                    profile sets it (seed 004's proxy) */
    double app_gc_per_kb2_ms;    /* app-server CPU per KB (de)serialised and
                                    KB of object: the garbage collector's
                                    share, which grows with the object
                                    twice over (a request allocates in
                                    proportion to it, and each collection
                                    works through live objects that grow
                                    with it too); 0 unless a profile sets
                                    it (docs/models.md, "The 10 KB row and
                                    the collector") */
    /* multiplicities (not costs; also from profiles) */
    double app_servers; /* application servers sharing the load (>= 1) */
    double app_cpus;    /* CPUs per application server (>= 1) */
    double db_cpus;     /* CPUs of the database server (>= 1) */
    double front_cpus;  /* CPUs of the front tier (>= 1) */
    /* placement (0 or 1; also from profiles) */
    double db_on_app_host;   /* 1: database and app server share one host's
                                CPUs (needs app_servers 1; seed 000) */
    double log_on_data_disk; /* 1: the log shares the table-space device */
};

/* The fields above by name, for profiles and calibration; the first
 * PERF_N_FITTABLE are costs, the last six multiplicities and placements,
 * which calibration never fits. */
enum { PERF_N_COSTS = 24, PERF_N_FITTABLE = 18 };
/* Name of cost i (0 <= i < PERF_N_COSTS), e.g. "app_cpu_fixed_ms". */
const char *perf_cost_name(int i);
/* Index of a cost by name, or -1. */
int perf_cost_find(const char *name);
/* Pointer to cost i inside c (no bounds check beyond PERF_N_COSTS). */
double *perf_cost_ptr(struct perf_costs *c, int i);
double perf_cost_get(const struct perf_costs *c, int i);

/* Every cost unset (NaN) but front_cpu_per_req_ms (0: no front tier);
 * multiplicities 1, placements 0. */
void perf_costs_init(struct perf_costs *c);
/*
 * Read the costs present in `map` (a mapping of cost name → number, e.g.
 * the `perf:` mapping of an application-server, engine or calibration
 * profile) over *c. An unknown key, a negative or non-finite value, or a
 * multiplicity not a whole number 1..4096, or a placement not 0 or 1 is
 * PT_EDATA naming `ctx` and the key.
 */
int perf_costs_from_json(struct perf_costs *c, const json_t *map,
                         const char *ctx, struct pt_err *err);
/*
 * The device costs from a device profile, with DB2's semantics
 * (model/engine.c): OVERHEAD ms per request, and the transfer time of
 * a KB at transfer_mb_s (IBM: TRANSFERRATE = 1 / rate * 1000 / 1024000 *
 * page size, i.e. 1 / rate ms per KB).
 */
void perf_costs_set_device(struct perf_costs *c, const struct rec_device *d);

/* ---- the network --------------------------------------------------------- */

enum perf_centre_id {
    PERF_APP_CPU = 0, /* application-server CPUs */
    PERF_NET,         /* the network between tiers */
    PERF_DB_CPU,      /* database-server CPUs */
    PERF_DB_DISK,     /* table-space device */
    PERF_LOG_DISK,    /* log device */
    PERF_OFFLOAD,     /* app servers' disk-offload devices */
    PERF_FRONT_CPU,   /* front tier: proxy or web server CPUs */
    PERF_N_CENTRES
};

#define PERF_MAX_CENTRES 16

/* One queueing centre: demand per request at ONE of `copies` identical
 * centres that share the load evenly, each with `servers` servers. */
struct perf_centre {
    const char *name; /* static string, e.g. "db_cpu" */
    double demand_ms; /* service demand per request at one copy, ms */
    unsigned copies;  /* identical centres splitting the load (>= 1) */
    unsigned servers; /* servers per centre (>= 1; Seidmann, see mva) */
};

struct perf_model {
    size_t n; /* centres in c[] */
    struct perf_centre c[PERF_MAX_CENTRES];
};

/*
 * Service demands of one request (docs/models.md#performance-model, "Demands"):
 * the PERF_N_CENTRES centres in enum order. PT_EDATA if requests <= 0, a count
 * is negative or not finite, or a cost a non-zero count needs is unset
 * ("cost 'db_cpu_per_row_ms' is not set (rows per request 2)").
 * Does not allocate.
 */
int perf_demand(const struct perf_costs *c, const struct perf_counts *n,
                struct perf_model *out, struct pt_err *err);

/* The solution for N clients. */
struct perf_result {
    unsigned clients;
    double think_ms;
    double req_per_s;                     /* system throughput X */
    double response_ms;                   /* R = N / X - Z */
    size_t n;                             /* centres (as the model) */
    double util[PERF_MAX_CENTRES];        /* utilisation of one copy 0..1 */
    double queue[PERF_MAX_CENTRES];       /* mean requests at one copy */
    double resident_ms[PERF_MAX_CENTRES]; /* time a request spends at all
                                              copies of the centre */
    int bottleneck; /* index of the largest demand per server */
    /* asymptotic bounds (Lazowska et al. 1984, ch. 5) */
    double x_bound_per_s; /* min(N / (D + Z), servers / D_max) */
    double r_bound_ms;    /* max(D, N * D_max / servers - Z) */
};

/*
 * Exact MVA for a closed single-class network (Reiser & Lavenberg 1980;
 * Lazowska et al., Quantitative System Performance, 1984, §6.4): for
 * n = 1..N, R_k = D_k (1 + Q_k(n-1)), X = n / (Z + sum R_k), Q_k = X R_k.
 * A centre with c > 1 servers uses Seidmann's approximation (a queueing
 * centre of demand D/c plus a delay of D(c-1)/c). O(N K), no allocation.
 * PT_EDATA when clients is 0, think_ms < 0, a demand is negative or not
 * finite, or every demand and Z are 0.
 */
int perf_mva(const struct perf_model *m, unsigned clients, double think_ms,
             struct perf_result *out, struct pt_err *err);

/* ---- calibration --------------------------------------------------------- */

#define PERF_MAX_POINTS 256
#define PERF_FIT_STARTS 12
#define PERF_LABEL_LEN 96

/* One measured point: a configuration's counts under a load. */
struct perf_point {
    char label[PERF_LABEL_LEN]; /* e.g. "seed 000 table 2, 4 KB, 4K" */
    struct perf_counts counts;
    unsigned clients;
    double think_ms;
    double req_per_s;    /* measured, > 0 */
    double response_ms;  /* measured, > 0 */
    double req_per_s_lo; /* measured 95 % interval of req_per_s; both 0 */
    double req_per_s_hi; /* when the point has none */
};

/* A free cost: fitted within [lo, hi], 0 <= lo < hi. */
struct perf_free {
    int cost; /* index (perf_cost_find) */
    double lo, hi;
};

/* A calibration: about 90 KB with PERF_MAX_POINTS points, so callers
 * allocate it (calloc) rather than put it on the stack. */
struct perf_calib {
    char name[64];
    struct perf_costs costs; /* all costs: fixed ones and fitted ones */
    size_t n_free;
    struct perf_free free[PERF_N_COSTS];
    double fitted[PERF_N_COSTS]; /* fitted value of free[i] */
    size_t n_points;
    struct perf_point points[PERF_MAX_POINTS];
    double pred_req_per_s[PERF_MAX_POINTS];
    double pred_response_ms[PERF_MAX_POINTS];
    double resid_req_per_s[PERF_MAX_POINTS];   /* (pred - meas) / meas */
    double resid_response_ms[PERF_MAX_POINTS]; /* (pred - meas) / meas */
    double rms_resid;                          /* over all residuals */
    int solver_info;                           /* lmdif's info code */
};

/*
 * Fit cal->free[] (the other costs of cal->costs are fixed) to
 * cal->points[] by least squares on the relative errors of req/s and
 * response ms, with MINPACK's lmdif (Levenberg-Marquardt, forward-
 * difference Jacobian). Bounds by reparametrisation: a free cost is
 * lo + (hi - lo) / (1 + exp(-u)) and lmdif moves u freely. Starts at the
 * value in cal->costs when it is set and inside the bounds, else at the
 * geometric mean of the bounds (arithmetic when lo = 0).
 * The sum of squares of a closed network is flat wherever a non-bottleneck
 * cost moves, so lmdif can stop in a poor local minimum: the fit runs from
 * that start and from PERF_FIT_STARTS - 1 more, spread over the bound box
 * by a Halton sequence (log-uniform when lo > 0), and keeps the lowest sum
 * of squares; deterministic, no random numbers.
 * Fills fitted[], sets them in cal->costs, and fills every prediction and
 * residual. PT_EDATA: fewer points than free costs ("calibration needs at
 * least K points for K free costs, got M"), a bad bound, a duplicate free
 * cost, a point that perf_demand or perf_mva refuses. PT_EINTERNAL when out
 * of memory or when the solver reports improper input.
 */
int perf_calib_fit(struct perf_calib *cal, struct pt_err *err);

/*
 * Identifiability of a fit (issue 27). The Jacobian of the residuals with
 * respect to the log of each free cost (central differences, step 1e-4
 * relative) at cal's costs: its numerical rank (Gram-Schmidt with
 * pivoting, a column counts when more than PERF_IDENT_TOL of its norm is
 * left after projecting off the pivoted columns), and per cost whether its
 * column keeps more than PERF_IDENT_TOL of its norm once projected off
 * every other column (identified). A cost whose column is below
 * PERF_IDENT_ABS (it moves no residual) or parallel to a combination of
 * the others (the points cannot tell its change from theirs) is
 * unidentified. range_lo/range_hi: the values of
 * that cost, on a log grid of PERF_IDENT_GRID values over its bounds with
 * the other costs held at their fitted values (not refitted), whose rms
 * relative residual stays within PERF_IDENT_SLACK of the fit's.
 * cal must have been fitted; its costs and residuals are left as they were.
 */
#define PERF_IDENT_TOL 1e-3
#define PERF_IDENT_ABS 1e-9
#define PERF_IDENT_SLACK 0.01
#define PERF_IDENT_GRID 121
/* perf_calib_check's rms threshold: a fit whose rms relative residual
 * is above it is refused (pagetune-calibrate(1), IDENTIFIABILITY) */
#define PERF_CALIB_MAX_RMS 0.25
struct perf_ident {
    int rank;
    int identified[PERF_N_COSTS];
    double range_lo[PERF_N_COSTS], range_hi[PERF_N_COSTS];
};
int perf_calib_identify(struct perf_calib *cal, struct perf_ident *id,
                        struct pt_err *err);

/*
 * Leave-one-out cross-validation: for each point i, fit cal's free costs
 * (from cal's fitted values) to the other points and predict point i;
 * heldout_pct[i] = 100 (predicted - measured) / measured req/s. Needs more
 * points than free costs (PT_EDATA). cal itself is not changed.
 */
int perf_calib_cross_validate(const struct perf_calib *cal, double *heldout_pct,
                              struct pt_err *err);

/*
 * The calibration's relative range of requests/s: over its points, the
 * largest distance between the prediction and the measured value, or,
 * for a point with a measured interval, the farther end of that interval,
 * divided by the measured value: max(|pred - lo|, |pred - hi|) / meas.
 * A fit that met its points exactly still cannot promise more than the
 * points were measured to. 0 without points.
 */
double perf_calib_range_req_per_s(const struct perf_calib *cal);

/*
 * Write cal as a calibration profile (YAML, profiles/calibrations/,
 * docs/models.md#performance-model "Calibration profile") to fp: `comment`
 * lines (may be NULL; '\n'-separated) as '#' comments, then name, perf: (every
 * set cost), fitted: (value and bounds) and points: (measured, predicted,
 * residuals). PT_EIO on a write error.
 */
int perf_calib_write(FILE *fp, const struct perf_calib *cal,
                     const char *comment, struct pt_err *err);
/*
 * Read a calibration profile (a tree from prof_load) into cal: name, the
 * costs of perf:, fitted: as free costs with their bounds, points: with
 * their measured values (counts are not stored in the profile; points come
 * back with zero counts). PT_EDATA naming ctx and the key on anything
 * malformed.
 */
int perf_calib_from_json(struct perf_calib *cal, const json_t *prof,
                         const char *ctx, struct pt_err *err);

/* ---- predictor -----------------------------------------------------------
 *
 * The model as the commands use it: the costs gathered from the profiles
 * in their documented order (device, engine, application server,
 * calibration; docs/models.md#performance-model), the count mapping's
 * facts (engine profile, table-space set-up), and a simulation result row
 * turned into a prediction (perf_counts_from_sim → perf_demand → perf_mva).
 */

/* Where the model's inputs come from: profile names or files. */
struct perf_profiles {
    const char *engine;        /* engine profile (default: db2) */
    const char *device;        /* device profile (default: ssd) */
    const char *appserver;     /* application-server profile (websphere-4) */
    const char *calibration;   /* calibration profile, NULL = uncalibrated */
    double fscache_share;      /* 0..1, see perf_sim_map (default 1) */
    double page_fscache_share; /* 0..1, see perf_sim_map (default 0) */
};

/* Sets the defaults above. */
void perf_profiles_init(struct perf_profiles *o);

/* The loaded model: costs and mapping facts, and the calibration's range. */
struct perf_predictor {
    struct perf_costs costs;
    struct perf_sim_map map; /* object_bytes and sharing set per row */
    int calibrated;          /* 1: a calibration profile was applied */
    char calibration[64];    /* its name */
    int has_range;           /* the calibration has points with residuals */
    double resid_req_per_s;  /* max |relative residual| of its points */
    double resid_response_ms;
};

/*
 * Load the profiles of *o (borrowed) into *m. Errors: the profile
 * loader's (missing file → PT_ENOINPUT, bad YAML or field → PT_EDATA
 * naming the file), PT_EINTERNAL when out of memory.
 */
int perf_predictor_load(struct perf_predictor *m, const struct perf_profiles *o,
                        struct pt_err *err);

/*
 * The counts of one result row (perf_counts_from_sim with the row's mean
 * object size and the document's sharing policy). PT_EDATA when the row
 * has no object sizes (a simulation.json older than the model).
 */
int perf_predictor_counts(const struct perf_predictor *m,
                          const struct sim_plan_result *res,
                          const struct sim_result_row *row,
                          struct perf_counts *out, struct pt_err *err);

/*
 * Predict row for `clients` clients with think time `think_ms` and fill
 * row->predicted. The range is the prediction ± the calibration's largest
 * relative residual (pagetune-simulate(1), MODEL). Does not allocate.
 * Errors: perf_demand's and perf_mva's (PT_EDATA, e.g. a cost not set).
 */
int perf_predictor_predict(const struct perf_predictor *m,
                           const struct sim_plan_result *res,
                           struct sim_result_row *row, unsigned clients,
                           double think_ms, struct pt_err *err);

/* The simulation documents a points file refers to (borrowed arrays). */
struct perf_sim_docs {
    size_t n;
    const char *const *path;           /* [n] as the user named them */
    const struct sim_plan_result *res; /* [n] */
};

/*
 * Read the points CSV at `path` (pagetune-calibrate(1), POINTS) into
 * cal->points: a header naming the columns (any order; clients, req_per_s
 * and response_ms required), '#' and blank lines skipped, fields optionally
 * double-quoted. Each point must select exactly one result row of docs
 * (by simulation, trace, page_size, bufferpool_pages, app_entries,
 * cache_mode, sharing, servers, offload_entries); its counts come from
 * that row through m. Errors: pt_file_read's (PT_ENOINPUT: cannot read),
 * PT_EDATA naming file:line on a bad header, field, value or selection.
 */
int perf_calib_points_read(struct perf_calib *cal, const char *path,
                           const struct perf_sim_docs *docs,
                           const struct perf_predictor *m, struct pt_err *err);

/* ---- the simulate step (simulate.c) ------------------------------------ */

/* What `pagetune simulate` runs: the plan, and the prediction's inputs. */
struct perf_sim_request {
    struct sim_plan plan;       /* engine_name/device_name name the profiles */
    unsigned clients;           /* > 0: predict every row for this many */
    double think_ms;            /* the clients' think time */
    struct perf_profiles model; /* the model's profiles (engine and device
                                   are taken from the plan) */
    struct rec_engine engine;   /* loaded by perf_sim_prepare: plan.engine */
    struct rec_device device;   /* and plan.device point here */
};
/* sim_plan_init and perf_profiles_init defaults, no prediction. */
void perf_sim_request_init(struct perf_sim_request *q);
/*
 * Load the plan's engine and device profiles (when it simulates page
 * sizes; the request must not move afterwards) and check the plan:
 * sim_plan_check's errors, the loader's (PT_EUSAGE "no engine profile").
 */
int perf_sim_prepare(struct perf_sim_request *q, struct pt_err *err);
/*
 * Run the prepared plan into *res (release it with sim_plan_result_release,
 * also after a failure) and, with clients, fill every row's prediction.
 * Errors: sim_plan_run's (PT_EINTR once pt_interrupted()), PT_EDATA for a
 * prediction of a trace without requests, the model's.
 */
int perf_sim_run(struct perf_sim_request *q, struct sim_plan_result *res,
                 struct pt_err *err);

#endif /* PT_PERF_H */
