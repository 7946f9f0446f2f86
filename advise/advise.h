/* SPDX-License-Identifier: Apache-2.0 */
/*
 * advise.h — the public face of advise/: the whole `pagetune advise` job as
 * one library call. adv_run() takes a struct adv_config (every option of
 * the command as a typed field) and fills a struct adv_result: (demo:
 * workload → built-in store) → sample → monitor → recommend → validate
 * (simulate, replay) → ddl → report model and summary. Every step is an
 * in-process call of its module with structs: collect/ (sizes and monitor
 * documents), recommend/ (recommendation), sim/ (simulation runs), store/
 * (replay runs), ddl/ (DDL plans). adv_result_write() then writes the
 * out-dir as one unit. The library never prints: progress notes go
 * through a callback of the config (pagetune-advise(1)).
 *
 * Neighbours: cli/cmd_advise.c (the front door: options → config →
 * adv_run → print/write), report/report.c (renders the report model through
 * the config's render_report hook).
 */
#ifndef PT_ADVISE_H
#define PT_ADVISE_H

#include "recommend/recommend.h"
#include "collect/collect.h"
#include "core/core.h"
#include "sim/sim.h"
#include "store/store.h"
#include "advise/mypredict.h"

/*
 * Tolerances and fixed parameters of the pipeline, named once
 * (pagetune-advise(1), DRIFT and VALIDATION).
 */
/* A current pool smaller than (1 - this) x the recommended pages drifts. */
#define ADV_DRIFT_TOLERANCE 0.10
/* The report marks a compared figure "same" (neither better nor worse)
 * when it changes by less than this fraction: what its change column
 * shows as 0.0 %. */
#define ADV_SAME_FRACTION 0.0005
/* Page size of the demo's "running system" (the built-in store). */
#define ADV_DEMO_PAGE_SIZE_BYTES 4096u
/* Snapshots of the monitor window (its deltas are what the advice uses). */
#define ADV_MONITOR_SNAPSHOTS 2
/* Connection login timeout of sample and monitor, seconds. */
#define ADV_LOGIN_TIMEOUT_S 30
/* Defaults of the options (pagetune-advise(1), OPTIONS). */
#define ADV_DEFAULT_OUT_DIR "pagetune-advice"
#define ADV_DEFAULT_WORKLOAD "mixed-sessions"
#define ADV_DEFAULT_REQUESTS 20000u
#define ADV_DEFAULT_SEED 42u
#define ADV_DEFAULT_CACHE_BYTES (2u << 20)
#define ADV_DEFAULT_DEVICE "ssd"
#define ADV_DEFAULT_MONITOR_S 5.0
#define ADV_DEFAULT_DEMO_MONITOR_S 1.0
/* Replay validation: seconds for the interleaved rounds (pagetune-replay(1),
 * ROUNDS; the demo stays within 30 s) and the clients of the replay and
 * of the prediction it is judged against. */
#define ADV_DEFAULT_REPLAY_BUDGET_S 20.0
#define ADV_DEFAULT_CLIENTS 1u
/* Trials of the replay: each over fresh stores, the interval from their
 * mean differences (store_plan.trials). 4: with t(3) = 3.18 the demo's
 * 95 % half-width was 4..20 % of its change on the test VM; with 3
 * (t(2) = 4.30) 18..21 %. */
#define ADV_REPLAY_TRIALS 4u
/* ... when the replay budget is at least this (seconds); else 1 trial */
#define ADV_TRIALS_MIN_BUDGET_S 15.0

/* The files of an out-dir, in the summary's order. */
enum adv_file {
    ADV_F_SIZES,
    ADV_F_MONITOR,
    ADV_F_REC,
    ADV_F_CREATE,
    ADV_F_ROLLBACK,
    ADV_F_REPORT,
    ADV_F_SIM,
    ADV_F_REPLAY,
    ADV_F_PROBE, /* the calibration the store model used (probe.yaml) */
    ADV_F_TRACE, /* the validation trace the replay ran (trace.csv) */
    ADV_F_COUNT
};
/* "sizes.json", ..., "replay.json". */
const char *adv_file_name(enum adv_file f);

/* Render the report model (report/report.c's report_write_html). */
typedef int adv_render_fn(const json_t *model, FILE *fp, struct pt_err *err);
/* A progress note, one line without the program name. */
typedef void adv_note_fn(void *ctx, const char *line);
/*
 * Predict one simulation row of engine `engine` under the performance
 * model (perf/predict.c's perf_predictor_predict with the config's clients and
 * think time): fill row->predicted. 0 or a PT_* status with err set.
 */
typedef int adv_predict_fn(void *ctx, const char *engine,
                           const struct sim_plan_result *res,
                           struct sim_result_row *row, struct pt_err *err);

/* What to do: every option of `advise` as a typed field. Strings are
 * borrowed for the call. adv_config_init() sets the documented defaults. */
struct adv_config {
    int demo;                   /* --demo: the built-in store */
    struct coll_conn_opts conn; /* --dsn, --connect, --password-* */
    const char *engine;         /* --engine; NULL: detected (db2 demo) */
    const char *table;          /* --table [SCHEMA.]NAME; NULL: SESSIONS */
    const char *columns;        /* --columns A,B,C; NULL: SMALL,MEDIUM,LARGE */
    double percent;             /* --percent, 0 < P <= 100; 0: all rows */
    uint64_t rows;              /* --rows N; 0: all rows */
    const char *out_dir;        /* --out-dir */
    uint64_t memory_bytes;      /* --memory; 0: not given */
    const char *device;         /* --device profile name */
    int validate_sim;           /* --validate sim|both */
    int validate_replay;        /* --validate replay|both */
    double monitor_s;           /* --monitor-seconds; 0: 5 (1 demo) */
    const char *workload;       /* --workload profile */
    uint64_t requests;          /* --requests in the generated trace */
    uint64_t seed;              /* --seed of the generated trace */
    uint64_t cache_bytes;       /* --cache of the replays */
    int fail_on_drift;          /* --fail-on drift (the caller's gate) */
    int force;                  /* --force: replace the out-dir's files */
    double drift_tolerance;     /* ADV_DRIFT_TOLERANCE */
    unsigned clients;           /* --clients of the replay and prediction */
    double think_ms;            /* --think-ms, the same */
    double replay_budget_s;     /* --replay-budget, seconds (> 0) */
    /* PostgreSQL advice replayed on the server (--replay-server,
     * pagetune-replay(1) ON A POSTGRESQL SERVER): scratch tables in
     * scratch_schema (NULL: COLL_PGR_SCHEMA_DEFAULT) under max_scratch
     * bytes (0: ADV_SERVER_SCRATCH_DEFAULT); 0: such advice skips the
     * replay */
    int replay_server;
    const char *scratch_schema;
    uint64_t max_scratch;
    int allow_replicated; /* replay on a server that streams to replicas */
    /* MariaDB/MySQL advice with replay_server (--replay-instance
     * SIZE=DSN): an instance built with the advised innodb_page_size,
     * where the advised side runs; NULL: only advice the sampled instance
     * can hold (a row format) is replayed there */
    const char *replay_instance;
    adv_predict_fn *predict; /* the model, or NULL: no prediction and
                                so no verdict */
    /* The store model's probe (pagetune-probe(1)) from --calibration, or
     * NULL: the replay's validation then runs a short probe first and
     * saves it as probe.yaml (unless no_probe) */
    const struct store_probe *probe;
    const char *probe_name; /* its calibration name */
    int no_probe;           /* never probe: the model's prediction only */
    void *predict_ctx;
    adv_note_fn *note; /* progress notes, or NULL */
    void *note_ctx;
    /* the replays' running total (store_plan.work, with note_ctx: the
       demo store's and the validation's), or NULL */
    void (*progress)(void *ctx, const struct store_plan_work *w);
    /* the request fields the notes and reasons name (`monitor_seconds`,
       `memory`, ...) as the front end calls them (core's pt_msg_fields);
       NULL: bare names */
    pt_field_map_fn *field_map;
    void *field_ctx;
    adv_render_fn *render_report; /* report.html; NULL: not written */
};
void adv_config_init(struct adv_config *c);

/*
 * What the server replay should count, predicted (adv_pgr_predict,
 * pgpredict.c): the same
 * requests, passes and order applied to an emulation of the scratch
 * tables' pages and of shared_buffers (res->shared_buffers_pages,
 * block_size) under the engine's buffer-pool policy (e->bp_policy,
 * pg-clock) and under LRU; per candidate the blocks of the measured
 * rounds in pg_statio's form. out->have = 0 with out->why when it cannot
 * (no TOAST figures, shared_buffers unknown); a candidate compressing
 * with lz4 has c[i].have = 0. PT_EINTERNAL out of memory.
 */
struct adv_pgr_pred_cand {
    int have;
    struct coll_pgr_blocks blocks;    /* with the engine's policy */
    struct coll_pgr_blocks lru;       /* with LRU */
    uint64_t heap_pages, toast_pages; /* the tables at the end */
};
struct adv_pgr_prediction {
    int have;
    char why[128];
    char policy[32];
    uint64_t pool_pages;  /* the scratch tables': shared_buffers less ... */
    uint64_t other_pages; /* ... other relations' buffers (res->other_pages)
                             when counted, else 0 */
    double text_ratio;    /* pglz bytes per text byte (the line's slope) */
    size_t n_cand;
    struct adv_pgr_pred_cand c[COLL_PGR_MAX_CANDIDATES];
};

/*
 * The server replay's reads judged by magnitude (issue 28): heap + TOAST
 * blocks read from outside shared_buffers per operation, the later
 * candidate's relative to the first's, measured per round (paired, their
 * 95 % interval) against pgpredict's prediction of the same run, whose
 * range allows each predicted figure ADV_SERVER_PRED_TOL either way (the
 * error the integration test holds it to; docs/models.md
 * #server-replay-prediction). Below ADV_SERVER_READS_FLOOR blocks per
 * operation on both sides, predicted and measured, the pool holds the
 * tables and the reads judge nothing: inconclusive, said so.
 */
#define ADV_SERVER_PRED_TOL 0.10
/* advise's scratch tables at most, all candidates (--max-scratch) */
#define ADV_SERVER_SCRATCH_DEFAULT (1ULL << 30)
#define ADV_SERVER_READS_FLOOR 0.01
struct adv_pgr_reads {
    int have;                /* both candidates predicted */
    int decided;             /* they decided the verdict (adv_server_verdict) */
    double pred[2], meas[2]; /* per operation: the first, candidate i */
    struct store_range measured, predicted; /* relative changes */
    enum store_verdict verdict;
    char why[400];
};

/* The validation figures of one setting (NaN when not known). */
struct adv_side {
    uint64_t page_size_bytes;
    double io_ms_per_get, hit_ratio;  /* simulation */
    double ops_per_s, overflow_pages; /* replay */
};
/* Current vs recommended, per validation run that took place. */
struct adv_validation {
    int have_sim, have_replay;
    struct adv_side sim_cur, sim_rec, rep_cur, rep_rec;
    double io_change_pct, ops_change_pct; /* NaN when undefined */
    /* the model's predicted change, recommended vs current, in percent
     * (have_pred: both simulation rows carry a prediction) */
    int have_pred, pred_calibrated, pred_has_range;
    unsigned pred_clients;
    double pred_think_ms;
    char calibration[64]; /* "" when uncalibrated */
    double pred_rps_pct, pred_rps_lo_pct, pred_rps_hi_pct;
    double pred_resp_pct, pred_resp_lo_pct, pred_resp_hi_pct;
    /* pred_store: the prediction is the store model's for the replay
     * (adv_validation_store), with each side's requests/s */
    int pred_store;
    double pred_cur_rps, pred_rec_rps;
    /* the replay's interleaved rounds and the verdict (have_verdict: a
     * prediction and >= 2 measured rounds) */
    unsigned rounds;
    double budget_s, elapsed_s;
    char stopped[16];
    int have_verdict;
    struct store_verdict_out verdict;
    int have_measured;       /* verdict.measured holds the replay's difference
                                and interval (also when it is not judged) */
    char compared_with[320]; /* what the measurement was compared with */
    /* what decided the verdict line (adv_validation_method): the replay
     * on the built-in store (measured), the cache simulation alone (the
     * model's trace-driven counts, nothing measured), or nothing; text is
     * the one line that names it for the summary */
    enum adv_method {
        ADV_BY_NONE,
        ADV_BY_SIMULATION,
        ADV_BY_REPLAY,
        ADV_BY_SERVER /* replay_server: the PostgreSQL server's scratch
                         tables, current vs recommended settings */
    } method;
    char method_text[640];
    /* the replay on the server (adv_validation_server): per side, its
     * SPEC, requests/s and blocks per operation (pg_statio) */
    int have_server;
    char srv_cand[2][96];
    double srv_rps[2], srv_heap_per_op[2], srv_toast_per_op[2];
    double srv_read_per_op[2];
    char srv_engine[16];      /* "postgresql" or "mysql" */
    double srv_req_per_op[2]; /* MariaDB: buffer-pool page requests per
                                 request (NaN on PostgreSQL) */
    char srv_reads_note[512]; /* adv_server_reads_note's line, "" if none */
    /* the sampled table's columns its scratch rows carried (and their
       bytes, modelled and measured), and those not, "" none */
    size_t srv_n_extra;
    struct coll_pgr_extra_result srv_extra[COLL_PGR_MAX_EXTRA];
    char srv_not_carried[512];
    struct adv_pgr_reads srv_reads; /* the reads by magnitude (adv_pgr_judge) */
};

/*
 * What the run found. Owns every document; release with
 * adv_result_release() (also after a failure). Must not be copied: the
 * sizes document borrows the sample fields.
 */
struct adv_result {
    char engine[32];   /* advised engine profile name */
    char dialect[32];  /* DDL dialect */
    char source[1100]; /* what was advised on, for the report */
    int demo;
    char *out_dir; /* owned */
    /* sample */
    struct coll_sample_opts sample_opts;
    struct coll_sample_result sample;
    struct coll_sizes_doc sizes;
    int have_sizes;
    /* monitor */
    struct coll_snapshot snaps[ADV_MONITOR_SNAPSHOTS];
    size_t n_snaps;
    json_t *monitor_doc;
    struct rec_monitor monitor;
    uint32_t cur_page_size;
    uint64_t cur_pool_pages;
    char cur_pool_name[128];
    /* recommend: the one recommend step (rec_run), its profiles, result
     * and the configuration in use (run.current: cur_page_size and
     * cur_pool_pages are its figures) */
    struct rec_run_result run;
    struct rec_result *rec; /* run.rec, borrowed */
    json_t *rec_doc;
    /* validation */
    int have_sim, have_replay;
    struct sim_plan_result sim;
    struct store_plan_result replay;
    json_t *sim_doc, *replay_doc;
    json_t *notes;          /* validation notes (strings) for the report */
    char replay_engine[32]; /* the engine whose rules the replay's store
                               followed ("" without a replay) */
    /* the replay on the server (replay_server, PostgreSQL advice) */
    int have_server;
    struct coll_pgr_result server;
    struct coll_pgr_candidate server_cand[2];
    struct adv_pgr_prediction server_pred; /* pgpredict.c, of that run */
    /* ... or on MariaDB/MySQL (myserver.c): its plan's candidates, the run
     * and mypredict.c's prediction of it (owned, NULL without) */
    struct coll_myr_plan *my_plan;
    struct coll_myr_result *my_server;
    struct adv_myr_prediction *my_pred;
    char replay_skipped[400]; /* why the replay did not run ("" if it did
                                 or was not asked for) */
    /* the store model: the probe it used (given or measured here), its
     * check (foreign or stale, "" when this machine's) and its prediction
     * of the replay's two page sizes (current, recommended) */
    int have_probe, probe_measured;
    struct store_probe probe;
    char probe_name[96];
    char probe_why[256];
    char *probe_yaml; /* probe.yaml's text when measured here, owned */
    char *trace_text; /* trace.csv's text, owned */
    size_t trace_len;
    int have_store_pred;
    struct store_prediction store_pred[2];
    struct adv_validation validation;
    /* ddl */
    char *create_sql, *rollback_sql;
    json_t *destructive; /* the steps of create.sql that destroy, block or
                            restart (ddl_plan_destructive), strings */
    /* decisions */
    int drift;
    char drift_why[1024];
    json_t *model; /* the report model */
};
void adv_result_release(struct adv_result *r);

/*
 * Run the pipeline. On failure *r holds what was done (release it) and
 * the error names the step. Errors: the modules' (PT_EUNAVAIL, PT_EDATA,
 * ...), PT_EUSAGE for options that contradict each other, PT_EINTR once
 * pt_interrupted() (core's one stop signal: every step polls it).
 */
int adv_run(const struct adv_config *c, struct adv_result *r,
            struct pt_err *err);
/*
 * Write r's files into c->out_dir as one unit (sizes.json, monitor.json,
 * recommendation.json, [simulation.json, replay.json], create.sql,
 * rollback.sql, report.html). PT_ECANTCREAT when a file exists without
 * force, PT_EIO on a write error. adv_out_dir_check() refuses early.
 */
int adv_result_write(const struct adv_config *c, const struct adv_result *r,
                     struct pt_err *err);
int adv_out_dir_check(const struct adv_config *c, struct pt_err *err);
/* Does r write file f (report.html aside, which the config decides)? */
int adv_result_has_file(const struct adv_result *r, enum adv_file f);
/* The summary printed by `advise --json`. New reference, NULL on OOM. */
json_t *adv_result_to_json(const struct adv_result *r);

/* ---- decisions, exposed for the unit tests ------------------------------ */

/*
 * Drift of the configuration in use (page size, pool pages; 0 = unknown)
 * from the recommendation, with `tolerance` on the pool. 1 and one line
 * per difference in why, or 0.
 */
int adv_drift(uint32_t cur_page_size, uint64_t cur_pool_pages,
              uint32_t rec_page_size, uint64_t rec_pool_pages, double tolerance,
              char *why, size_t why_len);
/*
 * The validation summary from the runs (either may be NULL): the current
 * setting at cur_ps and the recommended one at rec_ps.
 */
void adv_validation_compute(struct adv_validation *v,
                            const struct sim_plan_result *sim,
                            const struct store_plan_result *rep,
                            uint32_t cur_ps, uint32_t rec_ps);
/*
 * The verdict of v (filled by adv_validation_compute): the replay's
 * measured difference of rec_ps against cur_ps with its 95 % interval
 * against the model's predicted change and range (the store model's, or a
 * fitted calibration's): by magnitude. An uncalibrated prediction has no
 * range and is another machine's: no verdict, compared_with says why (its
 * sign alone is never a verdict). Sets have_verdict, verdict and
 * compared_with; no-op without a prediction or an interval.
 */
void adv_verdict_compute(struct adv_validation *v,
                         const struct store_plan_result *rep, uint32_t rec_ps);
/*
 * Name the validation that decided v's verdict line (v filled by
 * adv_validation_compute): the replay when it measured both settings,
 * else the simulation when it ran, else none. replay_engine is the
 * engine the replay's store followed, replay_skipped why the replay did
 * not run ("" when it ran or was not asked for). Sets method and
 * method_text.
 */
void adv_validation_method(struct adv_validation *v, const char *engine,
                           const char *replay_engine,
                           const char *replay_skipped);
/*
 * The store model's prediction of the replay advise runs, for a trace t:
 * the same plan as advise's replay (current and recommended page size,
 * the LOB area I/O of each side from the current table space's caching
 * and the recommendation's, clients, think time, the first max_records
 * records when not 0), predicted from probe pr (store_model_predict).
 * recommend --calibration PROBE --trace T --clients K calls it too, so
 * it repeats advise's figures. out[0] current, out[1] recommended.
 */
int adv_store_predict(const struct rec_result *rec, const struct rec_engine *e,
                      const char *engine, uint32_t cur_ps,
                      const struct store_trace *t, unsigned clients,
                      double think_ms, uint64_t max_records,
                      const struct store_probe *pr,
                      struct store_prediction out[2], struct pt_err *err);
/*
 * Replace v's predicted change with the store model's (cur, rec: the
 * replay's two page sizes) and judge the verdict again: by magnitude, the
 * measured interval against the predicted range.
 */
void adv_validation_store(struct adv_validation *v,
                          const struct store_prediction *cur,
                          const struct store_prediction *rec,
                          const char *probe_name,
                          const struct store_plan_result *rep);
/* The words of a method: "replay", "replay_server", "simulation",
 * "none". */
const char *adv_method_name(enum adv_method m);

/* ---- PostgreSQL advice replayed on the server (server.c) ---------------- */

/*
 * The two candidates of a PostgreSQL recommendation document: its
 * "current" toast_tuple_target and storage (the server's defaults where
 * null) and its "settings" (what pagetune ddl changes them to), both with
 * the table's current fillfactor (the advice keeps it). *n gets 1
 * when they are the same. PT_EDATA naming `name` on a value out of range.
 * `pagetune replay --recommendation` and advise's replay_server use it.
 */
int adv_pgr_candidates(const json_t *rec_doc, const char *name,
                       struct coll_pgr_candidate cand[2], size_t *n,
                       struct pt_err *err);
/* The first max_records (0: all) requests of trace t as the server replay
 * takes them; *reqs owned by the caller (free). */
int adv_pgr_reqs(const struct store_trace *t, uint64_t max_records,
                 struct coll_pgr_req **reqs, uint64_t *n, struct pt_err *err);
/* What adv_reads_judge compares: each side's reads per unit (operation
 * or request) over the measured rounds, measured and predicted; each
 * round's reads and the units of one round; the tolerance of a predicted
 * figure; `what` names the reads, `pool` the pool. */
struct adv_reads_in {
    const char *what, *pool;
    double tol;
    double pred[2], meas[2];
    const uint64_t *round[2];
    double per[2];
    unsigned n;
};
/* The later side's reads against the first's by magnitude (struct
 * adv_pgr_reads; o->have is 1). */
void adv_reads_judge(const struct adv_reads_in *in, struct adv_pgr_reads *o);
/* The server verdict of candidate i from its requests/s and its judged
 * reads (NULL or !have: requests/s alone), by adv_pgr_judge's rule;
 * reads->decided says whether they decided it. */
enum store_verdict adv_server_verdict(const struct coll_pgr_result *res,
                                      size_t i, struct adv_pgr_reads *reads,
                                      struct store_verdict_out *out);
struct adv_pgr_prediction;
/*
 * Candidate i (> 0) against the first. Requests/s: the rounds' paired
 * differences, their 95 % interval (store_mean_ci95) and the verdict's
 * rule (store_verdict_judge) against the advice's direction, a gain (no
 * model of the server's time predicts its size). With a prediction (pred
 * not NULL, pgpredict's), also the reads by magnitude (*reads, when not
 * NULL). The verdict: contradicts when requests/s fell (the interval below
 * zero); else the reads' verdict when it is not inconclusive and the
 * prediction is a fall of reads (the advice's gain); else the
 * requests/s one. out->measured is the requests/s difference; out->why
 * says which decided; inconclusive with fewer than 2 rounds. Returns the
 * verdict.
 */
enum store_verdict adv_pgr_judge(const struct coll_pgr_result *res, size_t i,
                                 const struct adv_pgr_prediction *pred,
                                 struct store_verdict_out *out,
                                 struct adv_pgr_reads *reads);
/* *r as JSON: {verdict, text, measured_per_op and predicted_per_op
 * [first, candidate], measured_pct and predicted_pct {mean, lo, hi} or
 * null when not judged}; JSON null without a prediction. A new
 * reference (docs/formats.md#replay-server). */
json_t *adv_pgr_reads_json(const struct adv_pgr_reads *r);

/* ---- MariaDB / MySQL advice replayed on the server (myserver.c) --------- */

/* A predicted pool-reads figure's tolerance either way (the 15 %
 * for physical reads; docs/models.md#replay-mariadb) */
#define ADV_MY_PRED_TOL 0.15
/* The two candidates of a MySQL recommendation document: its current row
 * format at settings.current_page_size against settings.row_format at
 * settings.innodb_page_size (no instance bound: the caller binds one).
 * *n gets 1 when they are the same. PT_EDATA naming `name` when the
 * document has no page sizes. */
int adv_myr_candidates(const json_t *rec_doc, const char *name,
                       struct coll_myr_candidate cand[2], size_t *n,
                       struct pt_err *err);
/* v per request of r's measured passes (requests x rounds) */
double adv_myr_per_req(uint64_t v, const struct coll_pgr_cand_result *r);
/* Candidate i's pool reads per request against the first's, by magnitude
 * against pred (each figure ADV_MY_PRED_TOL either way); o->have 0
 * without a prediction of both. */
void adv_myr_reads_of(const struct coll_myr_result *res, size_t i,
                      const struct adv_myr_prediction *pred,
                      struct adv_pgr_reads *o);
/* 1 and a line in buf when the instances' pools differ by more than a
 * tenth (the run then compares instances, not page sizes alone). */
int adv_myr_pool_note(const struct coll_myr_result *res, char *buf, size_t len);
/* v's server replay from a MariaDB run of p's two candidates: the
 * verdict by adv_server_verdict's rule, the pool reads judged against
 * pred (method ADV_BY_SERVER). */
void adv_validation_server_my(struct adv_validation *v,
                              const struct coll_myr_plan *p,
                              const struct coll_myr_result *res,
                              const struct adv_myr_prediction *pred);
/* The scratch rows' carried columns (a server replay's result) as JSON:
 * name, type, width and null_frac modelled, measured_width and
 * measured_null_frac as the scratch table holds them (null: not
 * measured, a fixed-width MariaDB type's width). */
json_t *adv_scratch_columns_json(const struct coll_pgr_extra_result *x,
                                 size_t n);
/* PostgreSQL's reads of candidate i against the first's by magnitude
 * (adv_reads_judge): heap + TOAST blocks read from outside shared_buffers
 * per operation, measured and predicted (pred; NULL or without both
 * candidates: o->have 0). */
void adv_pgr_reads_of(const struct coll_pgr_result *res, size_t i,
                      const struct adv_pgr_prediction *pred,
                      struct adv_pgr_reads *o);
/* Heap + TOAST blocks read per operation over candidate result r's
 * measured rounds: b its measured blocks or a prediction of them; 0
 * without operations. */
double adv_pgr_ht_reads_per_op(const struct coll_pgr_blocks *b,
                               const struct coll_pgr_cand_result *r);
/* Blocks of a candidate per operation: all its heap blocks, all its TOAST
 * and TOAST-index blocks, and every block not found in shared_buffers. */
void adv_pgr_per_op(const struct coll_pgr_cand_result *r, double *heap,
                    double *toast, double *read);
/* The server replay's counts predicted (struct adv_pgr_prediction). */
int adv_pgr_predict(const struct coll_pgr_plan *p,
                    const struct coll_pgr_result *res,
                    const struct rec_engine *e, struct adv_pgr_prediction *out,
                    struct pt_err *err);
/* The server replay's warning about reads (issue 28): when the recommended
 * setting read markedly more blocks from outside shared_buffers per
 * operation than the current one (at least ADV_SERVER_READS_RATIO times,
 * and 0.01 more), one line into buf saying so, with the figures, and 1;
 * else 0 and buf empty. Requests/s on a test server measure those reads
 * in its file cache; on a server where they reach the disk they cost far
 * more, which the verdict (requests/s) cannot show. */
#define ADV_SERVER_READS_RATIO 1.5
/* What both engines' server validations share (server.c): v's scratch
 * columns from res, its verdict out (the rounds of res's second
 * candidate), what the verdict was compared with (`reads`, the judged
 * reads and their prediction, when v->srv_reads decided it) and the
 * method ADV_BY_SERVER. v->srv_reads is judged before. */
void adv_validation_server_common(struct adv_validation *v,
                                  const struct coll_pgr_result *res,
                                  const struct store_verdict_out *out,
                                  const char *reads);
int adv_server_reads_note(const struct adv_validation *v, char *buf,
                          size_t len);
/* v's verdict and method from a replay on the server (after
 * adv_validation_method): method replay_server, the verdict of the
 * recommended candidate against the current one. */
void adv_validation_server(struct adv_validation *v,
                           const struct coll_pgr_result *res,
                           const struct coll_pgr_candidate cand[2],
                           const struct adv_pgr_prediction *pred);
/* The validation summary as JSON (validated_by always; each run that
   had both settings). New reference, NULL on OOM. */
json_t *adv_validation_to_json(const struct adv_validation *v);
/*
 * The engine to advise for: `given`, else "db2" for the demo, else the
 * sampled engine. PT_EDATA when none is known.
 */
int adv_engine_detect(const char *given, int demo, enum coll_engine sampled,
                      char *buf, size_t len, struct pt_err *err);
/* The DDL dialect of an engine profile name (mariadb → mysql). */
const char *adv_dialect_for(const char *engine);
/*
 * The name of the recommended buffer pool as a reader is shown it: DB2's
 * named pool (rec->bufferpool_name, the one create.sql creates); NULL for
 * every other engine, whose one pool has no name (SQLite's page cache,
 * PostgreSQL's shared_buffers, InnoDB's buffer pool), so a DB2 name such
 * as SESSBP16K is never printed for them.
 */
const char *adv_pool_name(const struct adv_result *r);
/*
 * The validation workload of a live database: w's key popularity,
 * operation mix and sessions, its sizes replaced by the sampled ones
 * (values[0..n), clamped to 2^31-1). PT_EDATA when n is 0.
 */
int adv_workload_empirical(struct sim_workload *w, const uint64_t *values,
                           size_t n, struct pt_err *err);
/*
 * The engine at the recommended inline limit: e's page of page_size gets
 * inline_limit (and a max row at least that). 0 when e has the page.
 */
int adv_engine_tuned(struct rec_engine *e, uint32_t page_size,
                     uint32_t inline_limit, struct pt_err *err);

#endif /* PT_ADVISE_H */
