/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cmd_replay.c — `pagetune replay`: run a trace against the built-in SQLite
 * session store once per candidate page size and report what was measured
 * (throughput, latency per operation, page-cache hit ratio, overflow pages,
 * database bytes). A simulator predicts; this measures.
 *
 * The command parses options, takes the WebSphere placement limits from the
 * engine profile (analyzers/: SMALL length s at each row size, MEDIUM and
 * LARGE limits), manages the store directory and writes the results; the
 * store and the replay loop live in store/ (store.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analyzers/analyzers.h"
#include "cli/cli.h"
#include "store/store.h"

#define REPLAY_MAX_PAGES 16

static const char *const usage[] = {
    "pagetune replay --trace FILE [--page-size LIST] [--cache BYTES] "
    "[--store-dir DIR] [--keep] [--clients K] [--sync LEVEL] [-o FILE] "
    "[--format table|json|csv]",
    NULL,
};

static const char description[] =
    "For each page size, create a fresh SQLite session store (WebSphere's\n"
    "SESSIONS layout and placement rule), load every session the trace\n"
    "names, replay the trace and measure ops/s, latency p50/p95/p99 per\n"
    "operation, the page-cache hit ratio, overflow pages (dbstat) and the\n"
    "database size. Every page size gets the same cache BYTES, so page size\n"
    "is compared at equal memory.";

enum {
    OPT_TRACE = CLI_OPT_FIRST_CUSTOM,
    OPT_PAGE_SIZE,
    OPT_CACHE,
    OPT_STORE_DIR,
    OPT_KEEP,
    OPT_CLIENTS,
    OPT_SYNC,
    OPT_ENGINE,
    OPT_ACK_LOG,
    OPT_MAX_STORE,
};

static const struct cli_option opts[] = {
    {"trace", 't', required_argument, OPT_TRACE, "FILE",
     "trace to replay, pagetune-trace(5) CSV or oracleGeneral (required)"},
    {"page-size", 'p', required_argument, OPT_PAGE_SIZE, "LIST",
     "page sizes to measure, one fresh store each (default: "
     "4K,8K,16K,32K)"},
    {"cache", 'c', required_argument, OPT_CACHE, "BYTES",
     "page-cache budget per connection, the same bytes at every page size "
     "(default: 2M, SQLite's own default)"},
    {"store-dir", 'd', required_argument, OPT_STORE_DIR, "DIR",
     "directory for the store files store-<SIZE>.db, created if missing "
     "(default: a temporary directory)"},
    {"keep", 'k', no_argument, OPT_KEEP, NULL,
     "keep the store files after the run (default: remove them)"},
    {"clients", 'j', required_argument, OPT_CLIENTS, "K",
     "client threads, each with its own connection; sessions are dealt to "
     "clients by key (default: 1)"},
    {"sync", 0, required_argument, OPT_SYNC, "LEVEL",
     "durability, PRAGMA synchronous in WAL mode: off, normal or full "
     "(default: normal)"},
    {"engine", 'e', required_argument, OPT_ENGINE, "NAME",
     "engine profile whose page sizes and SMALL/MEDIUM/LARGE limits apply "
     "(default: db2)"},
    {"ack-log", 0, required_argument, OPT_ACK_LOG, "FILE",
     "append a line INDEX,OP,KEY,SIZE for each set/del after it committed "
     "(default: none)"},
    {"max-store", 0, required_argument, OPT_MAX_STORE, "BYTES",
     "let a store grow to at most BYTES; a write past it fails like a full "
     "disk (default: no limit)"},
    CLI_OPT_OUTPUT_ENTRY,
    CLI_OPT_FORMAT_ENTRIES,
    CLI_OPT_FORCE_ENTRY,
    CLI_OPT_QUIET_ENTRY,
    CLI_OPT_HELP_ENTRY,
    CLI_OPT_END,
};

struct replay_args {
    const char *trace;
    uint64_t page_sizes[REPLAY_MAX_PAGES];
    int n_page_sizes;
    uint64_t cache_bytes;
    const char *store_dir;
    int keep;
    uint64_t clients;
    enum store_sync sync;
    const char *engine;
    const char *ack_log;
    uint64_t max_store_bytes;
};

/* ---- the store directory ------------------------------------------------ */

struct store_dir {
    char path[4096];
    int created; /* we made it: remove it at the end unless --keep */
    int slot;    /* pt_tmpdir_register slot: an interrupt removes it */
};

static int store_dir_prepare(struct store_dir *d, const char *want,
                             struct pt_err *err)
{
    struct stat st;

    memset(d, 0, sizeof(*d));
    d->slot = -1;
    if (!want) {
        const char *tmp = getenv("TMPDIR");
        snprintf(d->path, sizeof(d->path), "%s/pagetune-replay.XXXXXX",
                 tmp && *tmp ? tmp : "/tmp");
        if (!mkdtemp(d->path))
            return err_set(err, PT_ECANTCREAT,
                           "cannot create a temporary store directory "
                           "'%s': %s",
                           d->path, strerror(errno));
        d->created = 1;
        d->slot = pt_tmpdir_register(d->path);
        return 0;
    }
    if (strlen(want) >= sizeof(d->path) - 32)
        return err_set(err, PT_ECANTCREAT, "--store-dir: path too long");
    snprintf(d->path, sizeof(d->path), "%s", want);
    if (stat(want, &st) == 0) {
        if (!S_ISDIR(st.st_mode))
            return err_set(err, PT_ECANTCREAT,
                           "--store-dir '%s' is not a directory", want);
        if (access(want, W_OK | X_OK) != 0)
            return err_set(err, PT_ECANTCREAT,
                           "cannot write store directory '%s': %s", want,
                           strerror(errno));
        return 0;
    }
    if (mkdir(want, 0777) != 0)
        return err_set(err, PT_ECANTCREAT,
                       "cannot create store directory '%s': %s", want,
                       strerror(errno));
    d->created = 1;
    return 0;
}

static void store_files_remove(const char *db)
{
    char side[4200];
    unlink(db);
    if (snprintf(side, sizeof(side), "%s-wal", db) < (int)sizeof(side))
        unlink(side);
    if (snprintf(side, sizeof(side), "%s-shm", db) < (int)sizeof(side))
        unlink(side);
}

/* ---- progress ----------------------------------------------------------- */

static int replay_progress(void *ctx, uint64_t done, uint64_t total)
{
    struct cli_progress *pg = ctx;
    (void)total;
    cli_progress_update(pg, done);
    return cli_interrupted();
}

/* ---- output ------------------------------------------------------------- */

static const char *const op_names[] = {"get", "set", "del"};

static json_t *latency_json(const struct store_latency *l)
{
    return json_pack("{s:I,s:f,s:f,s:f,s:f,s:f}", "count", (json_int_t)l->count,
                     "p50", l->p50_us, "p95", l->p95_us, "p99", l->p99_us,
                     "max", l->max_us, "mean", l->mean_us);
}

static json_t *result_json(const struct store_replay_result *r,
                           const char *store_path)
{
    json_t *o = json_object(), *byop = json_object();
    json_object_set_new(o, "page_size", json_integer(r->page_size_bytes));
    json_object_set_new(o, "ops", json_integer((json_int_t)r->ops));
    json_object_set_new(o, "ops_per_s", json_real(r->ops_per_s));
    json_object_set_new(o, "elapsed_s", json_real(r->elapsed_s));
    json_object_set_new(o, "latency_us",
                        latency_json(&r->latency[STORE_OP_ALL]));
    for (int op = 0; op < STORE_OP_ALL; op++)
        json_object_set_new(byop, op_names[op], latency_json(&r->latency[op]));
    json_object_set_new(o, "latency_by_op_us", byop);
    json_object_set_new(o, "cache_hit_ratio", json_real(r->cache_hit_ratio));
    json_object_set_new(o, "cache_hits",
                        json_integer((json_int_t)r->cache_hits));
    json_object_set_new(o, "cache_misses",
                        json_integer((json_int_t)r->cache_misses));
    json_object_set_new(o, "overflow_pages",
                        json_integer((json_int_t)r->space.overflow_pages));
    json_object_set_new(o, "leaf_pages",
                        json_integer((json_int_t)r->space.leaf_pages));
    json_object_set_new(o, "db_bytes",
                        json_integer((json_int_t)r->space.db_bytes));
    json_object_set_new(o, "wal_bytes",
                        json_integer((json_int_t)r->space.wal_bytes));
    json_object_set_new(
        o, "placement",
        json_pack("{s:I,s:I,s:I}", "SMALL", (json_int_t)r->placed[0], "MEDIUM",
                  (json_int_t)r->placed[1], "LARGE", (json_int_t)r->placed[2]));
    json_object_set_new(o, "warmup_sessions",
                        json_integer((json_int_t)r->warmup_sessions));
    json_object_set_new(o, "gets_found",
                        json_integer((json_int_t)r->gets_found));
    json_object_set_new(o, "busy_retries",
                        json_integer((json_int_t)r->busy_retries));
    json_object_set_new(o, "clients", json_integer(r->n_clients));
    json_object_set_new(o, "cache_bytes",
                        json_integer((json_int_t)r->cache_bytes));
    if (store_path)
        json_object_set_new(o, "store", json_string(store_path));
    return o;
}

static const char *sync_name(enum store_sync s)
{
    return s == STORE_SYNC_FULL  ? "full"
           : s == STORE_SYNC_OFF ? "off"
                                 : "normal";
}

static int write_results(const struct cli_common *c,
                         const struct replay_args *a,
                         const struct store_replay_result *res, int n,
                         char (*paths)[4200], struct pt_err *err)
{
    struct pt_afile af = {0};
    int ret;

    if ((ret = cli_output_open(c, &af, err)) < 0)
        return ret;
    if (c->format == OUT_JSON) {
        json_t *doc = json_object(), *arr = json_array();
        json_object_set_new(doc, "schema_version", json_integer(1));
        json_object_set_new(doc, "trace", json_string(a->trace));
        json_object_set_new(doc, "engine", json_string(a->engine));
        json_object_set_new(doc, "cache_bytes",
                            json_integer((json_int_t)a->cache_bytes));
        json_object_set_new(doc, "clients",
                            json_integer((json_int_t)a->clients));
        json_object_set_new(doc, "sync", json_string(sync_name(a->sync)));
        for (int i = 0; i < n; i++)
            json_array_append_new(
                arr, result_json(&res[i], a->keep ? paths[i] : NULL));
        json_object_set_new(doc, "results", arr);
        ret = out_json_write(doc, af.fp, err);
        json_decref(doc);
    } else {
        static const char *const headers[] = {
            ">page",     ">ops",      ">ops/s",   ">vs first",
            ">p50 us",   ">p95 us",   ">p99 us",  ">hit ratio",
            ">overflow", ">db bytes", "placement"};
        struct out_table t;
        char sz[32];
        if ((ret = out_table_init(&t, 11, headers)) < 0) {
            pt_afile_abort(&af);
            return err_set(err, ret, "out of memory");
        }
        out_table_set_title(&t,
                            "replay of %s: cache %s per connection, %llu "
                            "client(s), synchronous=%s",
                            a->trace, pt_size_format(a->cache_bytes, sz, 32),
                            (unsigned long long)a->clients, sync_name(a->sync));
        for (int i = 0; i < n; i++) {
            const struct store_replay_result *r = &res[i];
            const struct store_latency *l = &r->latency[STORE_OP_ALL];
            uint64_t sets = r->placed[0] + r->placed[1] + r->placed[2];
            out_table_add_row(&t);
            out_table_setf(&t, 0, "%s",
                           pt_size_format(r->page_size_bytes, sz, 32));
            out_table_setf(&t, 1, "%llu", (unsigned long long)r->ops);
            out_table_setf(&t, 2, "%.0f", r->ops_per_s);
            if (i == 0 || res[0].ops_per_s <= 0)
                out_table_setf(&t, 3, "-");
            else
                out_table_setf(&t, 3, "%+.1f%%",
                               (r->ops_per_s / res[0].ops_per_s - 1) * 100);
            out_table_setf(&t, 4, "%.1f", l->p50_us);
            out_table_setf(&t, 5, "%.1f", l->p95_us);
            out_table_setf(&t, 6, "%.1f", l->p99_us);
            out_table_setf(&t, 7, "%.4f", r->cache_hit_ratio);
            out_table_setf(&t, 8, "%llu",
                           (unsigned long long)r->space.overflow_pages);
            out_table_setf(&t, 9, "%llu",
                           (unsigned long long)r->space.db_bytes);
            if (sets == 0)
                out_table_setf(&t, 10, "-");
            else
                out_table_setf(&t, 10, "S %.0f%% M %.0f%% L %.0f%%",
                               100.0 * (double)r->placed[0] / (double)sets,
                               100.0 * (double)r->placed[1] / (double)sets,
                               100.0 * (double)r->placed[2] / (double)sets);
        }
        ret = out_table_write(&t, c->format, af.fp, err);
        out_table_release(&t);
    }
    if (ret < 0) {
        pt_afile_abort(&af);
        return ret;
    }
    return pt_afile_commit(&af, err);
}

/* ---- options ------------------------------------------------------------ */

static int parse_args(int argc, char **argv, struct cli_common *c,
                      struct replay_args *a, struct cli_parser *p)
{
    const char *arg;
    struct pt_err err;
    int id, rc;

    memset(a, 0, sizeof(*a));
    a->page_sizes[0] = 4096;
    a->page_sizes[1] = 8192;
    a->page_sizes[2] = 16384;
    a->page_sizes[3] = 32768;
    a->n_page_sizes = 4;
    a->cache_bytes = 2u << 20;
    a->clients = 1;
    a->sync = STORE_SYNC_NORMAL;
    a->engine = "db2";
    cli_common_init(c);
    if (cli_parse_begin(p, "replay", opts, usage, description, argc, argv) < 0)
        return PT_EINTERNAL;
    while ((id = cli_next(p, c, &arg)) != CLI_NEXT_END) {
        if (id == CLI_NEXT_HELP)
            return CLI_HELP_SHOWN;
        if (id == CLI_NEXT_USAGE)
            return PT_EUSAGE;
        switch (id) {
        case OPT_TRACE:
            a->trace = arg;
            break;
        case OPT_PAGE_SIZE:
            rc = pt_size_list_parse(arg, a->page_sizes, REPLAY_MAX_PAGES,
                                    "--page-size", &err);
            if (rc < 0) {
                cli_usage_error("replay", "%s", err.msg);
                return PT_EUSAGE;
            }
            a->n_page_sizes = rc;
            break;
        case OPT_CACHE:
            if (pt_size_parse(arg, &a->cache_bytes, "--cache", &err) < 0 ||
                a->cache_bytes < 1024) {
                cli_usage_error("replay", "%s",
                                err.code ? err.msg
                                         : "--cache: at least 1K, got less");
                return PT_EUSAGE;
            }
            break;
        case OPT_STORE_DIR:
            a->store_dir = arg;
            break;
        case OPT_KEEP:
            a->keep = 1;
            break;
        case OPT_CLIENTS:
            if (pt_u64_parse(arg, &a->clients, "--clients", &err) < 0 ||
                a->clients < 1 || a->clients > 256) {
                cli_usage_error("replay",
                                "--clients: '%s' is not a number of clients "
                                "from 1 to 256",
                                arg);
                return PT_EUSAGE;
            }
            break;
        case OPT_SYNC:
            if (strcmp(arg, "off") == 0)
                a->sync = STORE_SYNC_OFF;
            else if (strcmp(arg, "normal") == 0)
                a->sync = STORE_SYNC_NORMAL;
            else if (strcmp(arg, "full") == 0)
                a->sync = STORE_SYNC_FULL;
            else {
                cli_usage_error("replay",
                                "--sync: unknown level '%s' (off, normal, "
                                "full)",
                                arg);
                return PT_EUSAGE;
            }
            break;
        case OPT_ENGINE:
            a->engine = arg;
            break;
        case OPT_ACK_LOG:
            a->ack_log = arg;
            break;
        case OPT_MAX_STORE:
            if (pt_size_parse(arg, &a->max_store_bytes, "--max-store", &err) <
                0) {
                cli_usage_error("replay", "%s", err.msg);
                return PT_EUSAGE;
            }
            break;
        default:
            return PT_EINTERNAL;
        }
    }
    if (!a->trace) {
        cli_usage_error("replay", "--trace FILE is required");
        return PT_EUSAGE;
    }
    return 0;
}

/* Check every page size against the engine (and SQLite) and fill in the
 * placement limits; a size the engine does not have is a usage error that
 * lists the allowed ones. */
static int page_configs(const struct replay_args *a, const struct rec_engine *e,
                        struct store_config *cfgs)
{
    for (int i = 0; i < a->n_page_sizes; i++) {
        const struct rec_page_rule *rule = NULL;
        struct store_config *cfg = &cfgs[i];
        char list[256], sz[32];

        if (a->page_sizes[i] <= UINT32_MAX)
            rule = rec_engine_page(e, (uint32_t)a->page_sizes[i]);
        if (!rule || !store_page_size_valid(rule->page_size_bytes)) {
            cli_usage_error("replay",
                            "--page-size: %s is not a page size of engine "
                            "%s (allowed: %s)",
                            pt_size_format(a->page_sizes[i], sz, sizeof(sz)),
                            e->name, rec_engine_page_list(e, list, 256));
            return PT_EUSAGE;
        }
        for (int j = 0; j < i; j++)
            if (a->page_sizes[j] == a->page_sizes[i]) {
                cli_usage_error("replay", "--page-size: %s given twice",
                                pt_size_format(a->page_sizes[i], sz, 32));
                return PT_EUSAGE;
            }
        store_config_init(cfg);
        cfg->page_size_bytes = rule->page_size_bytes;
        cfg->cache_bytes = a->cache_bytes;
        cfg->sync = a->sync;
        /* WebSphere: SMALL if n <= s, else the outline columns in order
         * (DB2: MEDIUM LONG VARCHAR, then LARGE BLOB). */
        cfg->small_max_bytes = rule->inline_limit_bytes;
        cfg->medium_max_bytes = cfg->small_max_bytes;
        cfg->large_max_bytes = cfg->small_max_bytes;
        if (e->n_outline >= 1)
            cfg->medium_max_bytes = (uint32_t)e->outline[0].max_bytes;
        cfg->large_max_bytes =
            e->n_outline >= 2 ? e->outline[1].max_bytes : cfg->medium_max_bytes;
        if (a->max_store_bytes)
            cfg->max_pages = a->max_store_bytes / rule->page_size_bytes;
        if (a->max_store_bytes && cfg->max_pages == 0)
            cfg->max_pages = 1;
    }
    return 0;
}

int cmd_replay(int argc, char **argv)
{
    struct cli_common c;
    struct cli_parser p;
    struct replay_args a;
    struct pt_err err;
    struct rec_engine engine;
    struct store_trace trace;
    struct store_config cfgs[REPLAY_MAX_PAGES];
    struct store_replay_result res[REPLAY_MAX_PAGES];
    char paths[REPLAY_MAX_PAGES][4200];
    struct store_dir dir = {{0}, 0, -1};
    json_t *prof = NULL;
    int ret, n_done = 0, ack_fd = -1, have_dir = 0;
    char sz[32];

    memset(&trace, 0, sizeof(trace));
    err_clear(&err);
    ret = parse_args(argc, argv, &c, &a, &p);
    if (ret == CLI_HELP_SHOWN)
        return 0;
    if (ret < 0)
        return cli_exit_code(ret);
    if ((ret = cli_outputs_distinct("-o", c.output, "--ack-log", a.ack_log,
                                    &err)) < 0)
        goto fail;

    if ((ret = prof_load_named("engines", a.engine, &prof, &err)) < 0 ||
        (ret = rec_engine_from_json(&engine, prof, a.engine, &err)) < 0)
        goto fail;
    if ((ret = page_configs(&a, &engine, cfgs)) < 0) {
        json_decref(prof);
        return cli_exit_code(ret);
    }
    if ((ret = pt_output_check(c.output, c.force, &err)) < 0)
        goto fail;
    /* Read (and validate) the whole trace before creating anything. */
    if ((ret = store_trace_load(&trace, a.trace, &err)) < 0)
        goto fail;
    if (a.ack_log) {
        int flags = O_WRONLY | O_CREAT | O_APPEND | (c.force ? 0 : O_EXCL);
        ack_fd = open(a.ack_log, flags, 0666);
        if (ack_fd < 0) {
            ret = err_set(&err, PT_ECANTCREAT,
                          "cannot create --ack-log '%s': %s%s", a.ack_log,
                          strerror(errno),
                          errno == EEXIST ? " (use --force)" : "");
            goto fail;
        }
    }
    if ((ret = store_dir_prepare(&dir, a.store_dir, &err)) < 0)
        goto fail;
    have_dir = 1;
    cli_note(&c,
             "replaying %llu requests over %llu sessions (%llu get, %llu "
             "set, %llu del), cache %s per connection",
             (unsigned long long)trace.n_reqs, (unsigned long long)trace.n_keys,
             (unsigned long long)trace.n_gets, (unsigned long long)trace.n_sets,
             (unsigned long long)trace.n_dels,
             pt_size_format(a.cache_bytes, sz, sizeof(sz)));

    for (int i = 0; i < a.n_page_sizes; i++) {
        struct store_replay_opts o;
        struct cli_progress pg;
        char label[64];

        snprintf(paths[i], sizeof(paths[i]), "%s/store-%s.db", dir.path,
                 pt_size_format(cfgs[i].page_size_bytes, sz, sizeof(sz)));
        if (c.force)
            store_files_remove(paths[i]);
        store_replay_opts_init(&o);
        o.n_clients = (unsigned)a.clients;
        o.ack_fd = ack_fd;
        snprintf(label, sizeof(label), "replay %s", sz);
        cli_progress_init(&pg, &c, label, trace.n_reqs);
        o.progress = replay_progress;
        o.progress_ctx = &pg;
        if (ack_fd >= 0) {
            char line[4300];
            int n = snprintf(line, sizeof(line), "# page_size %u store %s\n",
                             cfgs[i].page_size_bytes, paths[i]);
            if (write(ack_fd, line, (size_t)n) != n) {
                ret = err_set(&err, PT_EIO, "cannot write --ack-log '%s': %s",
                              a.ack_log, strerror(errno));
                goto fail;
            }
        }
        ret = store_replay_run(&trace, paths[i], &cfgs[i], &o, &res[i], &err);
        cli_progress_done(&pg);
        if (ret < 0) {
            /* A store that was created stays for inspection with --keep. */
            if (!a.keep && ret != PT_ECANTCREAT)
                store_files_remove(paths[i]);
            goto fail;
        }
        n_done++;
        if (!a.keep)
            store_files_remove(paths[i]);
        cli_note(&c, "%s: %.0f ops/s, hit ratio %.4f, %llu overflow pages", sz,
                 res[i].ops_per_s, res[i].cache_hit_ratio,
                 (unsigned long long)res[i].space.overflow_pages);
    }
    if ((ret = write_results(&c, &a, res, n_done, paths, &err)) < 0)
        goto fail;
    ret = 0;
fail:
    if (ack_fd >= 0 && close(ack_fd) != 0 && ret == 0)
        ret = err_set(&err, PT_EIO, "cannot write --ack-log '%s': %s",
                      a.ack_log, strerror(errno));
    if (have_dir && dir.created && !a.keep)
        rmdir(dir.path);
    if (have_dir)
        pt_tmpdir_unregister(dir.slot);
    store_trace_release(&trace);
    json_decref(prof);
    if (ret < 0)
        return cli_fail("replay", &err);
    return 0;
}
