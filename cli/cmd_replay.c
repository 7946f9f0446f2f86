/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cmd_replay.c — `pagetune replay`: run a trace against the built-in SQLite
 * session store once per candidate page size and report what was measured
 * (throughput, latency per operation, page-cache hit ratio, overflow pages,
 * database bytes). A simulator predicts; this measures.
 *
 * The command turns options into a struct store_plan, loads the engine
 * profile (whose page-fit rules give the WebSphere placement limits), runs
 * the plan (store_plan_run: store directory, one store per page size, the
 * replay loop, all in store/) with a progress bar and notes, and prints the
 * result as a table or CSV, or as replay.json (store_plan_result_to_json).
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "model/model.h"
#include "cli/cli.h"
#include "cli/replay_mariadb.h"
#include "cli/replay_out.h"
#include "collect/collect.h"
#include "advise/advise.h"
#include "recommend/recommend.h"
#include "store/store.h"

static const char *const usage[] = {
    "pagetune replay --trace FILE [--trace-format FMT] [--page-size LIST] "
    "[--cache BYTES] "
    "[--store-dir DIR] [--keep] [--clients K] [--sync LEVEL] [-o FILE] "
    "[--format table|json|csv] [--lob-io cached|direct] [--think-ms MS] "
    "[--rounds K] [--warmup-rounds W] [--budget SECONDS]",
    "pagetune replay --trace FILE (--dsn NAME | --connect STR) "
    "[--candidate SPEC]... [--recommendation FILE] [--sizes FILE] "
    "[--compressible SHARE] "
    "[--scratch-schema NAME] "
    "[--max-scratch SIZE] [--dry-run] [--clients K] [--rounds K] "
    "[--warmup-rounds W]",
    "pagetune replay --check STORE",
    NULL,
};

static const char description[] =
    "For each page size, create a fresh SQLite session store (WebSphere's\n"
    "SESSIONS layout and placement rule), load every session the trace\n"
    "names, replay the trace and measure ops/s, latency p50/p95/p99 per\n"
    "operation, the page-cache hit ratio, overflow pages (dbstat) and the\n"
    "database size. Every page size gets the same cache BYTES, so page size\n"
    "is compared at equal memory. The store follows the engine's storage\n"
    "semantics: with db2, objects placed in MEDIUM/LARGE live in a LOB area\n"
    "outside the page cache; with sqlite, in overflow pages. A request is\n"
    "a get and the set writing the session back; after a warm-up, rounds\n"
    "replay the trace once per page size (A B B A ...) and give requests/s\n"
    "and its 95% interval against the first page size.\n"
    "\n"
    "With --dsn or --connect the trace is replayed on a PostgreSQL server\n"
    "instead: one scratch table per --candidate (toast_tuple_target, the\n"
    "object column's STORAGE and COMPRESSION; the first is the current\n"
    "configuration), in a scratch schema pagetune creates, marks, locks and\n"
    "drops, filled with synthetic rows of the trace's sizes (never your\n"
    "data), measured by requests/s with the same rounds and 95% intervals\n"
    "and by pg_statio's heap and TOAST blocks read and hit per access.\n"
    "Needs CREATE on the database (exit 77 without); --dry-run prints the\n"
    "scratch DDL and connects to nothing. On MariaDB or MySQL: a scratch\n"
    "database, ROW_FORMAT candidates, --candidate 32K=DSN for an instance\n"
    "built with that page size, InnoDB's buffer pool counters per request.";

struct replay_args {
    struct store_plan plan; /* what to replay */
    uint64_t clients;
    int sync;         /* index of store_sync_names (enum store_sync) */
    int trace_format; /* index of cli_trace_formats */
    int lob_io;       /* index of lob_io_names (enum store_lob_io) */
    uint64_t think_ms;
    uint64_t rounds;
    int rounds_given; /* --rounds was given */
    uint64_t warmup_rounds;
    uint64_t trials;
    const char *check;       /* --check STORE */
    const char *calibration; /* --calibration: a probe, the store model */
    /* on a PostgreSQL server (--dsn/--connect, issue 28) */
    struct coll_conn_opts conn;
    struct coll_pgr_candidate cand[COLL_PGR_MAX_CANDIDATES];
    size_t n_cand;
    const char *scratch_schema;
    const char *recommendation; /* --recommendation: current vs advised */
    const char *sizes;          /* --sizes: the sampled row's rest */
    /* what --sizes says of the sampled table: its engine ("" a document
       without one), its object columns, its other columns (heap) */
    char sizes_engine[16];
    const char *sizes_objs[COLL_MAX_COLUMNS];
    char sizes_obj_names[COLL_MAX_COLUMNS][COLL_NAME_MAX + 1];
    size_t n_sizes_objs;
    struct coll_columns *sizes_cols;
    char not_carried[512];
    uint64_t max_scratch;
    double compressible;
    int dry_run;
    int allow_replicated;
    struct replay_my_args my; /* MariaDB/MySQL (replay_mariadb.c) */
};

enum { OPT_CANDIDATE = CLI_OPT_FIRST_CUSTOM };

/* in the order of enum store_lob_io */
static const char *const lob_io_names[] = {"cached", "direct", NULL};

#define A struct replay_args
static const struct cli_option opts[] = {
    {.name = "trace",
     .group = CLI_G_INPUT,
     .type = CLI_T_PATH,
     CLI_AT(A, plan.trace_path),
     .io = CLI_IO_IN,
     .arg_name = "FILE",
     .help = "trace to replay, pagetune-trace(5) CSV or oracleGeneral",
     .def = "none, required unless --check"},
    {.name = "trace-format",
     .group = CLI_G_INPUT,
     .type = CLI_T_ENUM,
     CLI_AT(A, trace_format),
     .choices = cli_trace_formats,
     .help = "trace file format (binary: oracleGeneral)",
     .def = "auto, by content"},
    {.name = "page-size",
     .group = CLI_G_STORE,
     .type = CLI_T_SIZE_LIST,
     CLI_LIST(A, plan.page_sizes, plan.n_page_sizes),
     .max = UINT64_MAX,
     .arg_name = "LIST",
     .help = "page sizes to measure, one fresh store each",
     .def = "4K,8K,16K,32K"},
    {.name = "cache",
     .group = CLI_G_STORE,
     .type = CLI_T_SIZE,
     CLI_AT(A, plan.cache_bytes),
     .min = 1024,
     .max = UINT64_MAX,
     .arg_name = "BYTES",
     .help = "page-cache budget per connection, the same bytes at every page "
             "size",
     .def = "2M, SQLite's own default"},
    {.name = "store-dir",
     .group = CLI_G_STORE,
     .type = CLI_T_DIR,
     CLI_AT(A, plan.store_dir),
     .io = CLI_IO_SPEC,
     .arg_name = "DIR",
     .help = "directory for the store files store-<SIZE>.db, created if "
             "missing",
     .def = "a temporary directory"},
    {.name = "keep",
     .group = CLI_G_STORE,
     .type = CLI_T_FLAG,
     CLI_AT(A, plan.keep),
     .help = "keep the store files after the run",
     .def = "remove them"},
    {.name = "clients",
     .group = CLI_G_MEASUREMENT,
     .short_name = 'j',
     .type = CLI_T_UINT,
     CLI_AT(A, clients),
     .min = 1,
     .max = 256,
     .arg_name = "K",
     .help = "client threads, each with its own connection; sessions are "
             "dealt to clients by key",
     .def = "1"},
    {.name = "sync",
     .group = CLI_G_STORE,
     .type = CLI_T_ENUM,
     CLI_AT(A, sync),
     .choices = store_sync_names,
     .help = "durability, PRAGMA synchronous in WAL mode",
     .def = "normal"},
    {.name = "engine",
     .group = CLI_G_STORE,
     .short_name = 'e',
     .type = CLI_T_STRING,
     CLI_AT(A, plan.engine_name),
     .io = CLI_IO_PROFILE,
     .arg_name = "NAME",
     .help = "engine profile whose page sizes and SMALL/MEDIUM/LARGE limits "
             "apply",
     .def = "db2",
     .complete = CLI_C_ENGINE},
    {.name = "ack-log",
     .group = CLI_G_OUTPUT,
     .type = CLI_T_PATH,
     CLI_AT(A, plan.ack_log),
     .io = CLI_IO_OUT,
     .arg_name = "FILE",
     .help = "append a line INDEX,OP,KEY,SIZE for each set/del once it is "
             "durable",
     .def = "none"},
    {.name = "max-store",
     .group = CLI_G_STORE,
     .type = CLI_T_SIZE,
     CLI_AT(A, plan.max_store_bytes),
     .max = UINT64_MAX,
     .arg_name = "BYTES",
     .help = "let a store grow to at most BYTES; a write past it fails like a "
             "full disk",
     .def = "no limit"},
    /* measurement and the engine's storage semantics (issue 16) */
    {.name = "lob-io",
     .group = CLI_G_STORE,
     .type = CLI_T_ENUM,
     CLI_AT(A, lob_io),
     .choices = lob_io_names,
     .help = "LOB area I/O with DB2 semantics: through the OS file cache, as "
             "an SMS table space, or O_DIRECT",
     .def = "cached"},
    {.name = "think-ms",
     .group = CLI_G_MEASUREMENT,
     .type = CLI_T_UINT,
     CLI_AT(A, think_ms),
     .max = 600000,
     .arg_name = "MS",
     .help = "each client's think time after a request, closed loop",
     .def = "0"},
    {.name = "rounds",
     .group = CLI_G_MEASUREMENT,
     .type = CLI_T_UINT,
     CLI_AT(A, rounds),
     CLI_GIVEN(A, rounds_given),
     .min = 1,
     .max = STORE_MAX_ROUNDS,
     .arg_name = "K",
     .help = "measured rounds, each replaying the trace once per page size; "
             "with --budget the most rounds",
     .def = "5; 100 with --budget"},
    {.name = "trials",
     .group = CLI_G_MEASUREMENT,
     .type = CLI_T_UINT,
     CLI_AT(A, trials),
     .min = 1,
     .max = STORE_MAX_TRIALS,
     .arg_name = "N",
     .help = "run the rounds N times over fresh stores; the interval then "
             "comes from the trials' differences and holds from run to run",
     .def = "1: the rounds' interval"},
    {.name = "warmup-rounds",
     .group = CLI_G_MEASUREMENT,
     .type = CLI_T_UINT,
     CLI_AT(A, warmup_rounds),
     .max = 100,
     .arg_name = "W",
     .help = "unmeasured passes per page size before the rounds",
     .def = "1"},
    {.name = "budget",
     .group = CLI_G_MEASUREMENT,
     .type = CLI_T_DOUBLE,
     CLI_AT(A, plan.budget_s),
     .dmin = 0,
     .dmin_open = 1,
     .dmax = 86400,
     .arg_name = "SECONDS",
     .help = "run rounds until every interval's half-width is below 2% or the "
             "next round would pass SECONDS",
     .def = "none, exactly --rounds"},
    {.name = "calibration",
     .group = CLI_G_MODEL,
     .type = CLI_T_STRING,
     CLI_AT(A, calibration),
     .io = CLI_IO_PROFILE,
     .arg_name = "NAME|FILE",
     .help = "a probe (pagetune probe): print the store model's predicted "
             "requests/s beside the measured ones",
     .def = "none, nothing predicted",
     .complete = CLI_C_CALIBRATION},
    {.name = "check",
     .group = CLI_G_INPUT,
     .type = CLI_T_PATH,
     CLI_AT(A, check),
     .io = CLI_IO_IN,
     .arg_name = "STORE",
     .help = "check a kept store file instead of replaying: PRAGMA "
             "integrity_check and the LOB area's records (exit 0 or 65)",
     .def = "none, replay the trace"},
    /* on a PostgreSQL server instead of the built-in store (issue 28) */
    CLI_OPT_CONN_ENTRIES,
    {.name = "candidate",
     .group = CLI_G_STORE,
     .has_arg = required_argument,
     .id = OPT_CANDIDATE,
     .repeat = 1,
     .arg_name = "SPEC",
     .help = "with --dsn/--connect: a table configuration to replay, "
             "toast_tuple_target=N[,storage=S][,compression=C][,fillfactor=F]; "
             "on MariaDB "
             "row_format=R[,key_block_size=N], or SIZE=DSN: an instance "
             "built with that innodb_page_size; the first is the current "
             "one",
     .def = "toast_tuple_target=2032 and the trace's 95th percentile "
            "size + 228"},
    {.name = "recommendation",
     .group = CLI_G_STORE,
     .type = CLI_T_PATH,
     CLI_AT(A, recommendation),
     .io = CLI_IO_IN,
     .arg_name = "FILE",
     .help = "with --dsn/--connect: replay a PostgreSQL recommendation's "
             "current settings against its advice (recommend --json -o FILE)",
     .def = "none"},
    {.name = "sizes",
     .group = CLI_G_STORE,
     .type = CLI_T_PATH,
     CLI_AT(A, sizes),
     .io = CLI_IO_IN,
     .arg_name = "FILE",
     .help = "with --dsn/--connect: sizes.json of the sampled table "
             "(sampled on the same engine); the scratch rows carry its "
             "other columns with their types, widths and NULL shares "
             "(table_columns) and, on PostgreSQL, its measured rest of the "
             "row (row_fixed_bytes)",
     .def = "the SESSIONS layout's own"},
    {.name = "compressible",
     .group = CLI_G_STORE,
     .type = CLI_T_DOUBLE,
     CLI_AT(A, compressible),
     .dmin = 0,
     .dmax = 1,
     .arg_name = "SHARE",
     .help = "with --dsn/--connect: share of sessions whose object is "
             "compressible text, the others random bytes",
     .def = "0"},
    {.name = "scratch-schema",
     .group = CLI_G_SAFETY,
     .type = CLI_T_STRING,
     CLI_AT(A, scratch_schema),
     .arg_name = "NAME",
     .help = "the schema replay creates, marks and drops; an existing one "
             "without pagetune's mark is refused",
     .def = COLL_PGR_SCHEMA_DEFAULT},
    {.name = "max-scratch",
     .group = CLI_G_SAFETY,
     .type = CLI_T_SIZE,
     CLI_AT(A, max_scratch),
     .min = 1,
     .max = UINT64_MAX,
     .arg_name = "SIZE",
     .help = "refuse to load when the scratch tables would take more "
             "(sessions x sizes x candidates)",
     .def = "1G"},
    {.name = "allow-replicated",
     .group = CLI_G_SAFETY,
     .type = CLI_T_FLAG,
     CLI_AT(A, allow_replicated),
     .help = "with --dsn/--connect: replay on a server that streams to "
             "replicas (refused otherwise: the scratch tables and every "
             "write would reach them)",
     .def = "off"},
    {.name = "dry-run",
     .group = CLI_G_SAFETY,
     .type = CLI_T_FLAG,
     CLI_AT(A, dry_run),
     .help = "with --dsn/--connect: print the scratch DDL and exit without "
             "connecting",
     .def = "off"},
    CLI_OPT_OUTPUT_ENTRY,
    CLI_OPT_FORMAT_ENTRIES,
    CLI_OPT_FORCE_ENTRY,
    CLI_OPT_QUIET_ENTRY,
    CLI_OPT_HELP_ENTRY,
    CLI_OPT_END,
};
#undef A

static const char *const examples[] = {
    "measure 4K..32K pages with a 2M page cache",
    "pagetune replay --trace trace.csv",
    "the scratch DDL a PostgreSQL replay would run, creating nothing",
    "pagetune replay --trace trace.csv --dsn SESSIONDB --dry-run",
    "toast_tuple_target 2032 (current) against 4096 on the server, 4 clients",
    "pagetune replay --trace trace.csv --dsn SESSIONDB --candidate "
    "toast_tuple_target=2032 --candidate toast_tuple_target=4096 --clients 4",
    NULL,
};

/*
 * cli_spec.paths: the store files a replay creates, replaces (--force) or
 * removes in --store-dir are outputs (store_plan_file); --check replays
 * nothing.
 */
static int replay_paths(const void *base, struct pt_pathset *set,
                        struct pt_err *err)
{
    const struct replay_args *a = base;
    char path[4300];
    int rc;

    if (a->check)
        return 0;
    for (size_t k = 0;
         (rc = store_plan_file(&a->plan, k, path, sizeof(path), err)) == 0; k++)
        if ((rc = pt_pathset_add(set, "--store-dir", path, PT_PATH_OUT, err)) <
            0)
            return rc;
    return rc < 0 ? rc : 0;
}

CLI_SPEC_DEFINE_PATHS(replay, replay_paths);

/* ---- progress and notes ------------------------------------------------- */

/* The hooks' context: the bar of the plan's stage under way. */
struct replay_ui {
    const struct cli_common *c;
    uint64_t cache_bytes; /* for the opening note */
    struct cli_plan_bar bar;
    struct cli_progress load;        /* reading the trace */
    char load_label[64];             /* "loading trace (N records)" */
    const struct store_trace *trace; /* being loaded: n_reqs so far */
};

/* The bar of the trace load, by bytes read (a count of records alone on a
   pipe). No allocation: called in the loop. */
static void on_load(void *ctx, uint64_t pos, uint64_t size)
{
    struct replay_ui *ui = ctx;
    uint64_t n_reqs = ui->trace->n_reqs;

    snprintf(ui->load_label, sizeof(ui->load_label),
             "loading trace (%llu records)", (unsigned long long)n_reqs);
    ui->load.total = size;
    cli_progress_update(&ui->load, size ? pos : n_reqs);
}

/* Read the whole trace before the plan runs, with its own progress bar
   (a large trace takes a while to parse): the plan then uses it. */
static int load_trace(struct replay_ui *ui, const struct store_plan *p,
                      struct store_trace *t, struct pt_err *err)
{
    int ret;

    cli_progress_init(&ui->load, ui->c, ui->load_label, 0);
    snprintf(ui->load_label, sizeof(ui->load_label), "loading trace");
    ui->trace = t;
    ret = store_trace_load_progress(t, p->trace_path, p->trace_format, on_load,
                                    ui, err);
    cli_progress_done(&ui->load);
    return ret;
}

static void on_ready(void *ctx, const struct store_trace *t)
{
    struct replay_ui *ui = ctx;
    char sz[32];

    cli_note(ui->c,
             "replaying %llu requests over %llu sessions (%llu get, %llu "
             "set, %llu del), cache %s per connection",
             (unsigned long long)t->n_reqs, (unsigned long long)t->n_keys,
             (unsigned long long)t->n_gets, (unsigned long long)t->n_sets,
             (unsigned long long)t->n_dels,
             pt_size_format(ui->cache_bytes, sz, sizeof(sz)));
}

/* One bar per stage (load and warm-up of each page size, each round),
 * with the whole plan's time left. */
static void on_work(void *ctx, const struct store_plan_work *w)
{
    struct replay_ui *ui = ctx;

    cli_plan_bar_update(&ui->bar, ui->c, w);
}

static void on_page_end(void *ctx, const struct store_replay_result *r)
{
    struct replay_ui *ui = ctx;
    char sz[32];

    cli_plan_bar_clear(&ui->bar);
    if (r)
        cli_note(ui->c,
                 "%s: %.0f requests/s, %.0f ops/s, hit ratio %.4f, %llu "
                 "overflow pages, %llu LOB records",
                 pt_size_format(r->page_size_bytes, sz, sizeof(sz)),
                 r->requests_per_s, r->ops_per_s, r->cache_hit_ratio,
                 (unsigned long long)r->space.overflow_pages,
                 (unsigned long long)r->space.lob_records);
}

/* ---- output ------------------------------------------------------------- */

static void table_row(struct out_table *t, const struct store_plan_result *res,
                      size_t i, size_t pred_col)
{
    const struct store_replay_result *r = &res->results[i];
    const struct store_latency *l = &r->latency[STORE_OP_ALL];
    uint64_t sets = r->placed[0] + r->placed[1] + r->placed[2];
    char sz[32];

    out_table_add_row(t);
    out_table_setf(t, 0, "%s", pt_size_format(r->page_size_bytes, sz, 32));
    out_table_set_raw(t, 0, "%u", (unsigned)r->page_size_bytes);
    out_table_setf(t, 1, "%llu", (unsigned long long)r->ops);
    out_table_setf(t, 2, "%.0f", r->ops_per_s);
    out_table_set_num(t, 2, r->ops_per_s);
    out_table_setf(t, 3, "%.0f", r->requests_per_s);
    out_table_set_num(t, 3, r->requests_per_s);
    /* requests/s against the first page size: mean of the rounds' ratios
     * and its 95 % interval (pagetune-replay(1), ROUNDS) */
    if (i == 0) {
        out_table_setf(t, 4, "-");
        out_table_set_raw(t, 4, "%s", "");
    } else {
        if (r->n_rounds < 2)
            out_table_setf(t, 4, "%+.1f%%", r->diff_mean * 100);
        else
            out_table_setf(t, 4, "%+.1f%% [%+.1f, %+.1f]", r->diff_mean * 100,
                           r->diff_lo * 100, r->diff_hi * 100);
        out_table_set_num(t, 4, r->diff_mean * 100);
    }
    if (pred_col && !r->has_pred) {
        out_table_setf(t, pred_col, "-");
        out_table_set_raw(t, pred_col, "%s", "");
    } else if (pred_col) {
        /* the store model's figure, its range, and how far the measured
           requests/s is from it */
        out_table_setf(t, pred_col, "%.0f [%.0f, %.0f] %+.1f%%", r->pred_rps,
                       r->pred_rps_lo, r->pred_rps_hi,
                       100 * (r->pred_rps / r->requests_per_s - 1));
        out_table_set_num(t, pred_col, r->pred_rps);
    }
    out_table_setf(t, 5, "%.1f", r->response.mean_us);
    out_table_set_num(t, 5, r->response.mean_us);
    out_table_setf(t, 6, "%.1f", r->response.p95_us);
    out_table_set_num(t, 6, r->response.p95_us);
    out_table_setf(t, 7, "%.1f", l->p50_us);
    out_table_set_num(t, 7, l->p50_us);
    out_table_setf(t, 8, "%.1f", l->p95_us);
    out_table_set_num(t, 8, l->p95_us);
    out_table_setf(t, 9, "%.1f", l->p99_us);
    out_table_set_num(t, 9, l->p99_us);
    out_table_setf(t, 10, "%.4f", r->cache_hit_ratio);
    out_table_set_num(t, 10, r->cache_hit_ratio);
    out_table_setf(t, 11, "%llu", (unsigned long long)r->space.overflow_pages);
    out_table_setf(t, 12, "%llu", (unsigned long long)r->space.lob_records);
    out_table_setf(t, 13, "%llu", (unsigned long long)r->space.db_bytes);
    if (t->n_cols >= 17) {
        /* CSV: the sets stored in SMALL, MEDIUM, LARGE, as the JSON */
        for (size_t k = 0; k < 3; k++)
            out_table_setf(t, 14 + k, "%llu", (unsigned long long)r->placed[k]);
    } else if (sets == 0) {
        out_table_setf(t, 14, "-");
    } else {
        out_table_setf(t, 14, "S %.0f%% M %.0f%% L %.0f%%",
                       100.0 * (double)r->placed[0] / (double)sets,
                       100.0 * (double)r->placed[1] / (double)sets,
                       100.0 * (double)r->placed[2] / (double)sets);
    }
}

static int write_table(FILE *fp, enum out_format fmt,
                       const struct store_plan_result *res, struct pt_err *err)
{
    /* shown|CSV header (the CSV takes raw bytes and percentages) */
    static const char *const headers[] = {">page|page_size_bytes",
                                          ">ops|ops",
                                          ">ops/s|ops_per_s",
                                          ">req/s|requests_per_s",
                                          ">req/s vs first|requests_change_pct",
                                          ">resp us|response_mean_us",
                                          ">resp p95 us|response_p95_us",
                                          ">p50 us|p50_us",
                                          ">p95 us|p95_us",
                                          ">p99 us|p99_us",
                                          ">hit ratio|cache_hit_ratio",
                                          ">overflow|overflow_pages",
                                          ">lob recs|lob_records",
                                          ">db bytes|db_bytes",
                                          "placed_small_sets",
                                          "placed_medium_sets",
                                          "placed_large_sets"};
    /* the table shows the placement as shares in one column; the store
       model's prediction is the last column when there is one */
    const char *shown[16], *csv[18];
    struct out_table t;
    char sz[32];
    size_t n, pred_col = 0;
    int ret;

    memcpy(shown, headers, 14 * sizeof(*shown));
    memcpy(csv, headers, 17 * sizeof(*csv));
    shown[14] = "placement";
    n = fmt == OUT_CSV ? 17 : 15;
    for (size_t i = 0; i < res->n_results; i++)
        if (res->results[i].has_pred)
            pred_col = n;
    if (pred_col) {
        shown[15] = ">predicted req/s [range] vs measured";
        csv[17] = "predicted_requests_per_s";
        n++;
    }
    ret = out_table_init(&t, n, fmt == OUT_CSV ? csv : shown);
    if (ret < 0)
        return err_set(err, ret, "out of memory");
    out_table_set_title(
        &t,
        "replay of %s: engine %s, cache %s per connection, "
        "%llu client(s), think %u ms, synchronous=%s, "
        "%u round(s) (%s)",
        res->trace, res->engine, pt_size_format(res->cache_bytes, sz, 32),
        (unsigned long long)res->n_clients, res->think_ms,
        store_sync_name(res->sync), res->n_rounds, res->stopped);
    for (size_t i = 0; i < res->n_results; i++)
        table_row(&t, res, i, pred_col);
    ret = out_table_write(&t, fmt, fp, err);
    out_table_release(&t);
    return ret;
}

static json_t *results_json(const void *res)
{
    return store_plan_result_to_json(res);
}

static int results_table(FILE *fp, enum out_format fmt, const void *res,
                         struct pt_err *err)
{
    return write_table(fp, fmt, res, err);
}

static int write_results(const struct cli_common *c,
                         const struct store_plan_result *res,
                         struct pt_err *err)
{
    return cli_output_write(c, results_json, results_table, res, err);
}

/* ---- options ------------------------------------------------------------ */

/* The command's own options (the typed ones are stored on the way). */
static int parse_loop(int argc, char **argv, struct cli_common *c,
                      struct replay_args *a, struct cli_parser *p)
{
    struct pt_err err;
    const char *arg;
    int id;

    if (cli_parse_spec(p, &cli_spec_replay, a, argc, argv) < 0)
        return PT_EINTERNAL;
    while ((id = cli_next(p, c, &arg)) != CLI_NEXT_END) {
        if (id == CLI_NEXT_HELP)
            return CLI_HELP_SHOWN;
        if (id == CLI_NEXT_USAGE)
            return PT_EUSAGE;
        if (cli_conn_opt(&a->conn, id, arg))
            continue;
        if (id != OPT_CANDIDATE)
            return PT_EINTERNAL;
        err_clear(&err);
        if (coll_myr_candidate_is(arg)) { /* MariaDB's (replay_mariadb.c) */
            if (a->my.n_cand == COLL_PGR_MAX_CANDIDATES) {
                cli_usage_error("replay", "--candidate: at most %d candidates",
                                COLL_PGR_MAX_CANDIDATES);
                return PT_EUSAGE;
            }
            if (coll_myr_candidate_parse(arg, &a->my.cand[a->my.n_cand++],
                                         &err) < 0) {
                cli_usage_error("replay", "--candidate '%s': %s", arg, err.msg);
                return PT_EUSAGE;
            }
            continue;
        }
        if (a->n_cand == COLL_PGR_MAX_CANDIDATES) {
            cli_usage_error("replay", "--candidate: at most %d candidates",
                            COLL_PGR_MAX_CANDIDATES);
            return PT_EUSAGE;
        }
        if (coll_pgr_candidate_parse(arg, &a->cand[a->n_cand++], &err) < 0) {
            cli_usage_error("replay", "--candidate '%s': %s", arg, err.msg);
            return PT_EUSAGE;
        }
    }
    return 0;
}

/* Options of the built-in store that a replay on a server has no use
 * for: refused rather than ignored. */
static int check_store_only(const struct cli_parser *p)
{
    static const char *const store_only[] = {
        "page-size", "cache",   "store-dir",   "keep",   "sync",
        "engine",    "ack-log", "max-store",   "lob-io", "think-ms",
        "trials",    "budget",  "calibration", NULL};

    for (size_t i = 0; p->opts[i].name && i < sizeof(p->given); i++) {
        if (!p->given[i])
            continue;
        for (size_t k = 0; store_only[k]; k++)
            if (strcmp(p->opts[i].name, store_only[k]) == 0) {
                cli_usage_error("replay",
                                "--%s applies to the built-in store, not to "
                                "a replay on a server (--dsn/--connect); "
                                "compare table settings with --candidate",
                                store_only[k]);
                return PT_EUSAGE;
            }
    }
    return 0;
}

/* The server options make sense together only. */
static int check_server_args(const struct replay_args *a,
                             const struct cli_parser *p)
{
    int server = a->conn.dsn || a->conn.connect;

    if (!server &&
        (a->n_cand || a->my.n_cand || a->dry_run || a->scratch_schema ||
         a->max_scratch || a->compressible > 0 || a->recommendation ||
         a->allow_replicated)) {
        cli_usage_error("replay", "%s needs --dsn or --connect",
                        a->n_cand || a->my.n_cand ? "--candidate"
                        : a->dry_run              ? "--dry-run"
                        : a->scratch_schema       ? "--scratch-schema"
                        : a->max_scratch          ? "--max-scratch"
                        : a->allow_replicated     ? "--allow-replicated"
                        : a->recommendation       ? "--recommendation"
                        : a->sizes                ? "--sizes"
                                                  : "--compressible");
        return PT_EUSAGE;
    }
    if (a->n_cand && a->my.n_cand) {
        cli_usage_error("replay",
                        "--candidate: PostgreSQL (toast_tuple_target, "
                        "...) and MariaDB (row_format, SIZE=DSN) "
                        "candidates together: give one kind");
        return PT_EUSAGE;
    }
    /* with a recommendation, MariaDB candidates only name instances */
    for (size_t i = 0; a->recommendation && i < a->my.n_cand; i++)
        if (!a->my.cand[i].instance) {
            cli_usage_error("replay", "--candidate and --recommendation both "
                                      "name the candidates: give one (with "
                                      "--recommendation, --candidate SIZE=DSN "
                                      "names an instance only)");
            return PT_EUSAGE;
        }
    if (a->n_cand && a->recommendation) {
        cli_usage_error("replay", "--candidate and --recommendation both name "
                                  "the candidates: give one");
        return PT_EUSAGE;
    }
    if (server && a->check) {
        cli_usage_error("replay", "--check reads a store file: it takes no "
                                  "--dsn or --connect");
        return PT_EUSAGE;
    }
    if (server && cli_conn_check("replay", &a->conn) < 0)
        return PT_EUSAGE;
    return server ? check_store_only(p) : 0;
}

/* 0 to go on, CLI_HELP_SHOWN, or a PT_* status after one line. */
static int parse_args(int argc, char **argv, struct cli_common *c,
                      struct replay_args *a, struct cli_parser *p)
{
    int rc;

    memset(a, 0, sizeof(*a));
    store_plan_init(&a->plan);
    a->clients = a->plan.n_clients;
    a->sync = (int)a->plan.sync;
    cli_common_init(c);
    a->lob_io = (int)a->plan.lob_io;
    a->think_ms = a->plan.think_ms;
    a->rounds = a->plan.rounds;
    a->warmup_rounds = a->plan.warmup_rounds;
    a->trials = 1;
    a->conn.login_timeout_s = 30;
    if ((rc = parse_loop(argc, argv, c, a, p)) != 0)
        return rc;
    a->plan.n_clients = (unsigned)a->clients;
    a->plan.sync = (enum store_sync)a->sync;
    a->plan.trace_format = cli_trace_format(a->trace_format);
    a->plan.lob_io = (enum store_lob_io)a->lob_io;
    a->plan.think_ms = (uint32_t)a->think_ms;
    a->plan.rounds = (unsigned)a->rounds;
    a->plan.warmup_rounds = (unsigned)a->warmup_rounds;
    a->plan.trials = (unsigned)a->trials;
    if (a->plan.budget_s > 0 && !a->rounds_given)
        a->plan.rounds = STORE_MAX_ROUNDS; /* the budget decides */
    if (!a->plan.trace_path && !a->check) {
        cli_usage_error("replay", "--trace FILE is required");
        return PT_EUSAGE;
    }
    return check_server_args(a, p);
}

/* --check STORE: the SQLite file's and the LOB area's own check. */
static int check_store(const struct cli_common *c, const char *path,
                       struct pt_err *err)
{
    static const char *const headers[] = {"store", "integrity", "lob area",
                                          ">lob records", ">redo records"};
    struct store_config cfg;
    struct store *s = NULL;
    struct out_table t;
    uint64_t n = 0;
    int ret;

    store_config_init(&cfg);
    if ((ret = store_open(path, &cfg, &s, err)) < 0)
        return ret;
    if ((ret = store_integrity_check(s, err)) == 0)
        ret = store_lob_check(s, &n, err);
    if (ret == 0 && out_table_init(&t, 5, headers) < 0)
        ret = err_set(err, PT_EINTERNAL, "out of memory");
    else if (ret == 0) {
        out_table_add_row(&t);
        out_table_setf(&t, 0, "%s", path);
        out_table_setf(&t, 1, "ok");
        out_table_setf(&t, 2, "%s", store_has_lob_area(s) ? "ok" : "none");
        out_table_setf(&t, 3, "%llu", (unsigned long long)n);
        out_table_setf(&t, 4, "%llu",
                       (unsigned long long)store_redo_records(s));
        ret = out_table_write(&t, c->format, stdout, err);
        out_table_release(&t);
    }
    store_close(s);
    return ret;
}

/* --calibration: the store model's prediction of each page size from the
 * probe (store/model.c), made before the replay runs, so that a bad or
 * fitted calibration fails at once instead of after the measurement; the
 * figures go beside the measured ones once it has run. */
static int predict(const struct cli_common *c, const struct replay_args *a,
                   const struct store_trace *t, struct store_prediction *pred,
                   struct pt_err *err)
{
    struct store_probe pr;
    char name[96], why[256];
    int ret = store_probe_load(a->calibration, &pr, name, sizeof(name), err);

    if (ret < 0)
        return ret;
    if (ret == 0)
        return err_set(err, PT_EDATA,
                       "--calibration %s: a fitted calibration without a "
                       "probe; the store model needs `pagetune probe`'s",
                       a->calibration);
    if (pr.sync != a->plan.sync)
        return err_set(err, PT_EUSAGE,
                       "--calibration %s: the probe measured stores with "
                       "--sync %s, this replay uses --sync %s (probe again "
                       "with `pagetune probe --sync %s`)",
                       a->calibration, store_sync_name(pr.sync),
                       store_sync_name(a->plan.sync),
                       store_sync_name(a->plan.sync));
    if (store_probe_check(&pr, a->plan.store_dir, why, sizeof(why)))
        cli_note(c, "calibration '%s' is %s", name, why);
    return store_model_predict(&pr, &a->plan, t, store_model_cpus(), pred, err);
}

/* ---- on a PostgreSQL server (issue 28) ------------------------------------
 */

/* The server run's context: what the output needs. */
struct server_out {
    const struct coll_pgr_plan *pg;
    const struct coll_pgr_result *res;
    const char *trace;
    struct replay_judged j;         /* each later one vs the first */
    struct adv_pgr_prediction pred; /* what the rounds should count */
};

static void server_note(void *ctx, const char *msg)
{
    cli_note(ctx, "%s", msg);
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* Without --candidate: PostgreSQL's default target (the current one, as
 * recommend assumes without a reloption) and the inline knob's rule, the
 * 95th percentile of the sessions' sizes + 228 (28 + a measured rest of
 * the row) rounded up to 8 (docs/models.md, Inline knob). */
static size_t default_candidates(const struct store_trace *t,
                                 uint32_t rest_bytes,
                                 struct coll_pgr_candidate *cand)
{
    uint64_t *v = pt_calloc(t->n_keys ? t->n_keys : 1, sizeof(*v)), p95 = 0;
    uint64_t target;

    memset(cand, 0, 2 * sizeof(*cand));
    cand[0].toast_tuple_target = 2032;
    if (v && t->n_keys) {
        memcpy(v, t->first_size, t->n_keys * sizeof(*v));
        qsort(v, t->n_keys, sizeof(*v), cmp_u64);
        p95 = v[(uint64_t)(0.95 * (double)(t->n_keys - 1))];
    }
    free(v);
    /* 228: the tuple header (24), the profile's rest of the row (200) and
       the value's header (4); a measured rest moves it (--sizes) */
    target = (p95 + (rest_bytes ? 28 + rest_bytes : 228) + 7) / 8 * 8;
    cand[1].toast_tuple_target = (uint32_t)(target < 128    ? 128
                                            : target > 8160 ? 8160
                                                            : target);
    return cand[1].toast_tuple_target == 2032 ? 1 : 2;
}

/* --recommendation: the PostgreSQL table's settings now (its "current")
 * against the advice's ("settings"), as `pagetune ddl` would apply them
 * (advise's adv_pgr_candidates, which advise's own server replay uses). */
static int rec_candidates(const char *file, struct coll_pgr_candidate *cand,
                          size_t *n, struct pt_err *err)
{
    json_t *doc = NULL;
    struct rec_doc rd = {0};
    int ret;

    if ((ret = pt_json_load(file, &doc, err)) == 0 &&
        (ret = rec_result_from_json(&rd, doc, "postgresql", file, err)) == 0)
        ret = adv_pgr_candidates(doc, file, cand, n, err);
    rec_doc_release(&rd);
    json_decref(doc);
    return ret;
}

/* --sizes: the sampled rows' measured bytes besides the object (or a
 * note that there are none), the engine it was sampled on, its object
 * columns and its other columns (table_columns) into a. */
static int sizes_read(struct replay_args *a, const struct cli_common *c,
                      uint32_t *rest, struct pt_err *err)
{
    json_t *doc = NULL;
    const json_t *src, *objs, *v;
    struct rec_sizes sz;
    size_t i;
    int ret;

    memset(&sz, 0, sizeof(sz));
    if (!(a->sizes_cols = calloc(1, sizeof(*a->sizes_cols))))
        return err_set(err, PT_EINTERNAL, "out of memory");
    if ((ret = pt_json_load(a->sizes, &doc, err)) == 0 &&
        (ret = coll_sizes_doc_from_json(&sz, doc, a->sizes, err)) == 0 &&
        (ret = coll_sizes_table_columns(doc, a->sizes, a->sizes_cols, err)) ==
            0) {
        if (sz.row_measured)
            *rest = sz.row_fixed_bytes;
        else
            cli_note(c,
                     "%s has no measured rest of the row (row_source is not "
                     "\"measured\"): the scratch rows keep the SESSIONS "
                     "layout's own",
                     a->sizes);
        src = json_object_get(doc, "source");
        v = json_object_get(src, "engine");
        if (json_is_string(v))
            snprintf(a->sizes_engine, sizeof(a->sizes_engine), "%s",
                     json_string_value(v));
        objs = json_object_get(src, "columns");
        json_array_foreach(objs, i, v)
        {
            if (!json_is_string(v) || a->n_sizes_objs == COLL_MAX_COLUMNS)
                continue;
            snprintf(a->sizes_obj_names[a->n_sizes_objs],
                     sizeof(a->sizes_obj_names[0]), "%s", json_string_value(v));
            a->sizes_objs[a->n_sizes_objs] =
                a->sizes_obj_names[a->n_sizes_objs];
            a->n_sizes_objs++;
        }
    }
    rec_sizes_release(&sz);
    json_decref(doc);
    return ret;
}

/* --sizes on a server of engine e: refused (exit 64) when the sample was
 * taken on another engine, whose types and widths are not this one's. */
static int sizes_engine_check(const struct replay_args *a, enum coll_engine e,
                              const struct coll_conn *conn, struct pt_err *err)
{
    if (!a->sizes || !a->sizes_engine[0] ||
        !strcmp(a->sizes_engine, coll_engine_name(e)))
        return 0;
    return err_set(err, PT_EUSAGE,
                   "`sizes`: %s was sampled on %s; this server is %s (its "
                   "columns' types and widths are not this engine's)",
                   a->sizes, a->sizes_engine, coll_conn_dbms(conn));
}

/* The sampled table's other columns into PostgreSQL's plan (--sizes,
 * with a measured rest: their bytes come out of it), a note of what is
 * carried and what is not. */
static void sizes_carry(struct replay_args *a, const struct cli_common *c,
                        struct coll_pgr_plan *pg)
{
    size_t n;

    if (!pg->rest_bytes || !a->sizes_cols ||
        (a->sizes_engine[0] && strcmp(a->sizes_engine, "postgresql")))
        return;
    n = coll_pgr_extras(pg, a->sizes_cols, a->sizes_objs, a->n_sizes_objs,
                        a->not_carried, sizeof(a->not_carried));
    replay_carried_note(c, n, a->sizes, a->not_carried);
}

/* The trace as the server replay takes it (collect/ knows no store/). */
static int server_plan(struct replay_args *a, const struct store_trace *t,
                       struct coll_pgr_plan *pg, struct coll_pgr_req **reqs,
                       const struct cli_common *c, struct pt_err *err)
{
    int ret;

    coll_pgr_plan_init(pg);
    if ((ret = adv_pgr_reqs(t, 0, reqs, &pg->n_reqs, err)) < 0)
        return ret;
    if (a->scratch_schema)
        pg->schema = a->scratch_schema;
    if (a->sizes && (ret = sizes_read(a, c, &pg->rest_bytes, err)) < 0)
        return ret;
    if (a->n_cand) {
        memcpy(pg->cand, a->cand, a->n_cand * sizeof(*a->cand));
        pg->n_cand = a->n_cand;
    } else if (a->recommendation && !a->my.rec_mysql) {
        if ((ret = rec_candidates(a->recommendation, pg->cand, &pg->n_cand,
                                  err)) < 0)
            return ret;
    } else {
        pg->n_cand = default_candidates(t, pg->rest_bytes, pg->cand);
    }
    pg->reqs = *reqs;
    pg->first_size = t->first_size;
    pg->n_keys = t->n_keys;
    pg->max_bytes = t->max_bytes;
    pg->compressible = a->compressible;
    pg->n_clients = (unsigned)a->clients;
    pg->warmup_rounds = (unsigned)a->warmup_rounds;
    pg->rounds = (unsigned)a->rounds;
    if (a->max_scratch)
        pg->max_scratch_bytes = a->max_scratch;
    pg->allow_replicated = a->allow_replicated;
    pg->statement_timeout_ms =
        1000 * (a->conn.timeout_s ? a->conn.timeout_s : COLL_TIMEOUT_DEFAULT_S);
    pg->conn = &a->conn;
    pg->note = server_note;
    pg->ctx = (void *)c;
    return 0;
}

static double per_op(uint64_t blocks, const struct coll_pgr_cand_result *r)
{
    double ops = (double)r->ops * (double)(r->n_rounds ? r->n_rounds : 1);
    return ops > 0 ? (double)blocks / ops : 0;
}

static void server_row(struct out_table *t, const struct server_out *o,
                       size_t i)
{
    const struct coll_pgr_cand_result *r = &o->res->r[i];
    const struct coll_pgr_blocks *b = &r->blocks;
    char spec[96];

    coll_pgr_candidate_format(&o->pg->cand[i], spec, sizeof(spec));
    out_table_add_row(t);
    out_table_setf(t, 0, "%zu", i + 1);
    out_table_setf(t, 1, "%s", spec);
    replay_row_rps(t, 2, r, &o->j, i);
    out_table_setf(t, 6, "%llu/%llu", (unsigned long long)b->heap_read,
                   (unsigned long long)b->heap_hit);
    out_table_set_raw(t, 6, "%llu", (unsigned long long)b->heap_read);
    out_table_setf(t, 7, "%llu/%llu", (unsigned long long)b->toast_read,
                   (unsigned long long)b->toast_hit);
    out_table_set_raw(t, 7, "%llu", (unsigned long long)b->toast_read);
    out_table_setf(t, 8, "%.2f", per_op(b->heap_read + b->heap_hit, r));
    out_table_setf(t, 9, "%.2f", per_op(b->toast_read + b->toast_hit, r));
    out_table_setf(t, 10, "%.2f", per_op(b->tidx_read + b->tidx_hit, r));
    /* every block of the access not found in shared_buffers */
    out_table_setf(
        t, 11, "%.3f",
        per_op(b->heap_read + b->toast_read + b->tidx_read + b->idx_read, r));
    out_table_setf(t, 12, "%llu", (unsigned long long)r->heap_bytes);
    out_table_setf(t, 13, "%llu", (unsigned long long)r->toast_bytes);
}

/* The prediction beside the measurement, a line per candidate. */
static void server_pred_lines(FILE *fp, const struct server_out *o)
{
    const struct adv_pgr_prediction *p = &o->pred;
    char pool[64];

    if (!p->have) {
        fprintf(fp, "prediction: %s\n", p->why);
        return;
    }
    pt_fig_pool(o->res->shared_buffers_pages, o->res->block_size, pool,
                sizeof(pool));
    if (o->res->other_known)
        fprintf(fp,
                "predicted (emulated tables, %s over shared_buffers %s less "
                "%llu buffers other relations held, by pg_buffercache; "
                "docs/models.md#server-replay-prediction):\n",
                p->policy, pool, (unsigned long long)p->other_pages);
    else
        fprintf(fp,
                "predicted (emulated tables, %s over all of shared_buffers "
                "%s: other relations' buffers not counted without "
                "pg_buffercache; docs/models.md#server-replay-prediction):\n",
                p->policy, pool);
    for (size_t i = 0; i < o->res->n_cand; i++) {
        const struct coll_pgr_cand_result *r = &o->res->r[i];
        const struct adv_pgr_pred_cand *c = &p->c[i];
        double m = adv_pgr_ht_reads_per_op(&r->blocks, r),
               e = adv_pgr_ht_reads_per_op(&c->blocks, r);
        if (!c->have) {
            fprintf(fp, "  %zu: not predicted (lz4: only pglz is emulated)\n",
                    i + 1);
            continue;
        }
        fprintf(fp,
                "  %zu: heap+TOAST reads/op %.3f, measured %.3f (%+.1f %%); "
                "LRU %.3f; all reads/op %.3f, measured %.3f; pages heap "
                "%llu, TOAST %llu, measured %llu, %llu\n",
                i + 1, e, m, m > 0 ? (e / m - 1) * 100 : 0,
                adv_pgr_ht_reads_per_op(&c->lru, r),
                per_op(c->blocks.heap_read + c->blocks.toast_read +
                           c->blocks.tidx_read + c->blocks.idx_read,
                       r),
                per_op(r->blocks.heap_read + r->blocks.toast_read +
                           r->blocks.tidx_read + r->blocks.idx_read,
                       r),
                (unsigned long long)c->heap_pages,
                (unsigned long long)c->toast_pages,
                (unsigned long long)(r->heap_bytes / o->res->block_size),
                (unsigned long long)(r->toast_bytes / o->res->block_size));
    }
}

static int server_table(FILE *fp, enum out_format fmt,
                        const struct server_out *o, struct pt_err *err)
{
    static const char *const shown[] = {
        ">#",          "candidate",   ">req/s",         ">req/s vs first",
        ">op us",      ">op p95 us",  ">heap read/hit", ">toast read/hit",
        ">heap/op",    ">toast/op",   ">toast idx/op",  ">read/op",
        ">heap bytes", ">toast bytes"};
    static const char *const csv[] = {
        "candidate_index",     "candidate",        "requests_per_s",
        "requests_change_pct", "op_mean_us",       "op_p95_us",
        "heap_blks_read",      "toast_blks_read",  "heap_blks_per_op",
        "toast_blks_per_op",   "tidx_blks_per_op", "blks_read_per_op",
        "heap_bytes",          "toast_bytes"};
    struct out_table t;
    int ret = out_table_init(&t, 14, fmt == OUT_CSV ? csv : shown);

    if (ret < 0)
        return err_set(err, ret, "out of memory");
    out_table_set_title(&t,
                        "replay of %s on %s: %llu sessions, %u client(s), "
                        "%u round(s), blocks from pg_statio_all_tables over "
                        "the rounds (read = from outside shared_buffers)",
                        o->trace, o->res->server,
                        (unsigned long long)o->pg->n_keys, o->pg->n_clients,
                        o->pg->rounds);
    for (size_t i = 0; i < o->res->n_cand; i++)
        server_row(&t, o, i);
    ret = out_table_write(&t, fmt, fp, err);
    out_table_release(&t);
    if (ret == 0 && fmt == OUT_TABLE) {
        replay_verdict_lines(fp, o->res, &o->j);
        server_pred_lines(fp, o);
    }
    return ret;
}

static json_t *blocks_json(const struct coll_pgr_blocks *b)
{
    return json_pack(
        "{s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I}", "heap_read",
        (json_int_t)b->heap_read, "heap_hit", (json_int_t)b->heap_hit,
        "toast_read", (json_int_t)b->toast_read, "toast_hit",
        (json_int_t)b->toast_hit, "tidx_read", (json_int_t)b->tidx_read,
        "tidx_hit", (json_int_t)b->tidx_hit, "idx_read",
        (json_int_t)b->idx_read, "idx_hit", (json_int_t)b->idx_hit);
}

/* "prediction": per candidate the predicted blocks beside the measured
 * heap + TOAST reads per operation, with the relative error. */
static json_t *server_pred_json(const struct server_out *o)
{
    const struct adv_pgr_prediction *p = &o->pred;
    json_t *arr;

    if (!p->have)
        return json_pack("{s:s}", "why", p->why);
    arr = json_array();
    for (size_t i = 0; i < o->res->n_cand; i++) {
        const struct coll_pgr_cand_result *r = &o->res->r[i];
        const struct adv_pgr_pred_cand *c = &p->c[i];
        double m = adv_pgr_ht_reads_per_op(&r->blocks, r),
               e = adv_pgr_ht_reads_per_op(&c->blocks, r);
        if (!c->have) {
            json_array_append_new(
                arr, json_pack("{s:s}", "why", "lz4: only pglz is emulated"));
            continue;
        }
        json_array_append_new(
            arr, json_pack("{s:o, s:o, s:f, s:f, s:o, s:f, s:I, s:I}", "blocks",
                           blocks_json(&c->blocks), "blocks_lru",
                           blocks_json(&c->lru), "heap_toast_reads_per_op", e,
                           "measured_heap_toast_reads_per_op", m, "error",
                           m > 0 ? json_real(e / m - 1) : json_null(),
                           "lru_heap_toast_reads_per_op",
                           adv_pgr_ht_reads_per_op(&c->lru, r), "heap_pages",
                           (json_int_t)c->heap_pages, "toast_pages",
                           (json_int_t)c->toast_pages));
    }
    return json_pack(
        "{s:s, s:I, s:I, s:o, s:I, s:f, s:o}", "policy", p->policy,
        "pool_pages", (json_int_t)p->pool_pages, "shared_buffers_pages",
        (json_int_t)o->res->shared_buffers_pages, "other_pages",
        o->res->other_known ? json_integer((json_int_t)p->other_pages)
                            : json_null(),
        "block_size", (json_int_t)o->res->block_size, "text_pglz_ratio",
        p->text_ratio, "candidates", arr);
}

static json_t *server_json(const struct server_out *o)
{
    json_t *doc = json_object(), *arr = json_array();

    if (!doc || !arr) {
        json_decref(doc);
        json_decref(arr);
        return NULL;
    }
    replay_json_head(doc, NULL, o->trace, o->pg, o->res);
    for (size_t i = 0; i < o->res->n_cand; i++) {
        const struct coll_pgr_cand_result *r = &o->res->r[i];
        const struct coll_pgr_blocks *b = &r->blocks;
        char spec[96];
        coll_pgr_candidate_format(&o->pg->cand[i], spec, sizeof(spec));
        json_array_append_new(
            arr,
            json_pack(
                "{s:s, s:f, s:o, s:f, s:f, s:I, s:{s:I, s:I, s:I, s:I, "
                "s:I, s:I, s:I, s:I}, s:I, s:I, s:o, s:s, s:o}",
                "candidate", spec, "requests_per_s", r->requests_per_s,
                "rounds_rps", replay_rounds_json(r), "op_mean_us",
                r->op_mean_us, "op_p95_us", r->op_p95_us, "ops_per_round",
                (json_int_t)r->ops, "blocks", "heap_read",
                (json_int_t)b->heap_read, "heap_hit", (json_int_t)b->heap_hit,
                "toast_read", (json_int_t)b->toast_read, "toast_hit",
                (json_int_t)b->toast_hit, "tidx_read", (json_int_t)b->tidx_read,
                "tidx_hit", (json_int_t)b->tidx_hit, "idx_read",
                (json_int_t)b->idx_read, "idx_hit", (json_int_t)b->idx_hit,
                "heap_bytes", (json_int_t)r->heap_bytes, "toast_bytes",
                (json_int_t)r->toast_bytes, "vs_first",
                replay_vs_first_json(&o->j, i), "verdict",
                replay_verdict_name(&o->j, i), "reads_verdict",
                i ? adv_pgr_reads_json(&o->j.reads[i]) : json_null()));
    }
    json_object_set_new(doc, "candidates", arr);
    json_object_set_new(doc, "prediction", server_pred_json(o));
    return doc;
}

static json_t *server_json_of(const void *o)
{
    return server_json(o);
}

static int server_table_of(FILE *fp, enum out_format fmt, const void *o,
                           struct pt_err *err)
{
    return server_table(fp, fmt, o, err);
}

static int server_write(const struct cli_common *c, const struct server_out *o,
                        struct pt_err *err)
{
    return cli_output_write(c, server_json_of, server_table_of, o, err);
}

/* --dry-run: the scratch DDL to -o (stdout by default); no connection. */
static int dry_run(const struct cli_common *c, const struct coll_pgr_plan *pg,
                   struct pt_err *err)
{
    struct pt_afile af = {0};
    /* with the carried columns' DEFAULTs: 24 of 2 KB at most */
    static char ddl[131072];
    int ret;

    if ((ret = coll_pgr_ddl(pg, ddl, sizeof(ddl), err)) < 0 ||
        (ret = pt_output_check(c->output, c->force, err)) < 0 ||
        (ret = cli_output_open(c, &af, err)) < 0)
        return ret;
    if (fputs(ddl, af.fp) < 0) {
        pt_afile_abort(&af);
        return err_set(err, PT_EIO, "cannot write the DDL: %s",
                       strerror(errno));
    }
    return pt_afile_commit(&af, err);
}

/* The rounds' counts predicted with the PostgreSQL profile (pgpredict.c). */
static int server_predict(const struct coll_pgr_plan *pg,
                          const struct coll_pgr_result *res,
                          struct adv_pgr_prediction *pred, struct pt_err *err)
{
    struct rec_engine e;
    char path[4096];
    int ret;

    if ((ret = rec_profiles_load("postgresql", NULL, &e, NULL, path, NULL,
                                 sizeof(path), err)) < 0)
        return ret;
    return adv_pgr_predict(pg, res, &e, pred, err);
}

/* 1 when connection string s names a SQLite driver (its Driver= value) */
static int sqlite_driver(const char *s)
{
    char v[128];
    size_t n = 0;

    for (const char *p = s; p && *p; p++)
        if (!strncasecmp(p, "driver=", 7) && (p == s || p[-1] == ';')) {
            p += 7;
            while (*p && *p != ';' && n + 1 < sizeof(v))
                v[n++] = (char)tolower((unsigned char)*p++);
            v[n] = '\0';
            return strstr(v, "sqlite") != NULL;
        }
    return 0;
}

/* --dsn/--connect: the trace on scratch tables of a PostgreSQL server. */
static int replay_server(const struct cli_common *c, struct replay_args *a,
                         struct pt_err *err)
{
    struct replay_ui ui;
    struct store_trace trace;
    struct coll_pgr_plan pg;
    struct coll_pgr_req *reqs = NULL;
    struct coll_pgr_result res;
    struct coll_conn *conn = NULL;
    struct server_out o;
    int ret;

    memset(&ui, 0, sizeof(ui));
    memset(&trace, 0, sizeof(trace));
    ui.c = c;
    a->my.rec_mysql =
        a->recommendation && replay_my_rec_is_mysql(a->recommendation);
    if ((ret = load_trace(&ui, &a->plan, &trace, err)) < 0 ||
        (ret = server_plan(a, &trace, &pg, &reqs, c, err)) < 0)
        goto out;
    a->my.base = &pg;
    a->my.cols = a->sizes_cols;
    a->my.objs = a->sizes_objs;
    a->my.n_objs = a->n_sizes_objs;
    a->my.not_carried = a->not_carried;
    a->my.sizes = a->sizes;
    a->my.recommendation = a->my.rec_mysql ? a->recommendation : NULL;
    a->my.trace = a->plan.trace_path;
    if (a->dry_run) {
        if (replay_my_wants(&a->my, a->conn.connect)) {
            ret = replay_mariadb(c, &a->my, NULL, err);
        } else {
            sizes_carry(a, c, &pg);
            ret = dry_run(c, &pg, err);
        }
        goto out;
    }
    if (sqlite_driver(a->conn.connect)) {
        /* refused before connecting: SQLite's driver creates a missing
           database file on connect */
        ret = err_set(err, PT_EUSAGE,
                      "`connect` names SQLite's driver: replay on a server "
                      "supports PostgreSQL, MariaDB and MySQL; SQLite "
                      "sessions replay on the built-in store, without "
                      "`connect`");
        goto out;
    }
    if ((ret = pt_output_check(c->output, c->force, err)) < 0 ||
        (ret = coll_conn_open(&conn, &a->conn, err)) < 0)
        goto out;
    /* the engine decides (MariaDB and MySQL: replay_mariadb.c) */
    if ((ret = sizes_engine_check(a, coll_conn_engine(conn), conn, err)) < 0)
        goto out;
    if (coll_conn_engine(conn) == COLL_ENGINE_MYSQL) {
        if (a->n_cand || (a->recommendation && !a->my.rec_mysql))
            ret = err_set(err, PT_EUSAGE,
                          "`%s` is PostgreSQL's; this server is %s",
                          a->n_cand ? "candidate" : "recommendation",
                          coll_conn_dbms(conn));
        else
            ret = replay_mariadb(c, &a->my, conn, err);
        goto out;
    }
    if (a->my.n_cand || a->my.rec_mysql) {
        ret = err_set(err, PT_EUSAGE,
                      "`%s` is MariaDB's (row_format, SIZE=DSN); this server "
                      "is %s",
                      a->my.n_cand ? "candidate" : "recommendation",
                      coll_conn_dbms(conn));
        goto out;
    }
    sizes_carry(a, c, &pg);
    cli_note(c,
             "replaying %llu requests over %llu sessions on %s, %zu "
             "candidate(s), scratch schema '%s'",
             (unsigned long long)trace.n_reqs, (unsigned long long)trace.n_keys,
             coll_conn_dbms(conn), pg.n_cand, pg.schema);
    if ((ret = coll_pgr_run(conn, &pg, &res, err)) < 0)
        goto out;
    snprintf(res.not_carried, sizeof(res.not_carried), "%s", a->not_carried);
    memset(&o, 0, sizeof(o));
    o.pg = &pg;
    o.res = &res;
    o.trace = a->plan.trace_path;
    if ((ret = server_predict(&pg, &res, &o.pred, err)) < 0)
        goto out;
    for (size_t i = 1; i < res.n_cand; i++)
        adv_pgr_reads_of(&res, i, &o.pred, &o.j.reads[i]);
    replay_judge(o.res, &o.j);
    ret = server_write(c, &o, err);
out:
    coll_conn_close(conn);
    free(reqs);
    free(a->sizes_cols);
    a->sizes_cols = NULL;
    store_trace_release(&trace);
    return ret;
}

int cmd_replay(int argc, char **argv)
{
    struct cli_common c;
    struct cli_parser p;
    struct replay_args a;
    struct pt_err err;
    struct rec_engine engine;
    struct store_plan_result res = {0};
    struct replay_ui ui;
    struct store_trace trace;
    struct store_prediction pred[STORE_MAX_PAGE_SIZES];
    char epath[4096];
    int ret;

    err_clear(&err);
    memset(&trace, 0, sizeof(trace));
    if ((ret = parse_args(argc, argv, &c, &a, &p)) != 0)
        return cli_parse_exit(ret);
    if (a.check) {
        if ((ret = check_store(&c, a.check, &err)) < 0)
            return cli_fail("replay", &err);
        return 0;
    }
    if (a.conn.dsn || a.conn.connect) {
        if (replay_server(&c, &a, &err) < 0)
            return cli_fail("replay", &err);
        return PT_EXIT_OK;
    }
    if ((ret = rec_profiles_load(a.plan.engine_name, NULL, &engine, NULL, epath,
                                 NULL, sizeof(epath), &err)) < 0)
        goto fail;
    a.plan.engine = &engine;
    if ((ret = store_plan_check(&a.plan, &err)) < 0) {
        cli_usage_error("replay", "%s", err.msg);
        return cli_exit_code(ret);
    }
    if ((ret = pt_output_check(c.output, c.force, &err)) < 0)
        goto fail;
    memset(&ui, 0, sizeof(ui));
    ui.c = &c;
    ui.cache_bytes = a.plan.cache_bytes;
    a.plan.force = c.force;
    a.plan.ready = on_ready;
    a.plan.work = on_work;
    a.plan.page_end = on_page_end;
    a.plan.ctx = &ui;
    if ((ret = load_trace(&ui, &a.plan, &trace, &err)) < 0)
        goto fail;
    a.plan.trace = &trace;
    if (a.calibration && (ret = predict(&c, &a, &trace, pred, &err)) < 0)
        goto fail;
    if ((ret = store_plan_run(&a.plan, &res, &err)) < 0)
        goto fail;
    if (a.calibration)
        store_plan_result_predicted(&res, pred, a.plan.n_page_sizes);
    if ((ret = write_results(&c, &res, &err)) < 0)
        goto fail;
fail:
    store_plan_result_release(&res);
    store_trace_release(&trace);
    if (ret < 0)
        return cli_fail("replay", &err);
    return PT_EXIT_OK;
}
