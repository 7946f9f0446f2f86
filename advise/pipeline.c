/* SPDX-License-Identifier: Apache-2.0 */
/*
 * pipeline.c — adv_run(): the steps of `pagetune advise`, each an
 * in-process call of its module with structs (pagetune-advise(1)):
 *
 *   demo only: workload → trace → replay into a built-in store at 4K
 *   sample (collect/) → monitor (collect/) → recommend (recommend/)
 *   → simulate (sim/) and replay (store/), current vs recommended page
 *   size at equal memory → ddl (ddl/) → report model (model.c).
 *
 * The generated trace and the demo store are data sources the readers of
 * sim/ and store/ and the SQLite ODBC driver open by path, so they live in
 * a private scratch directory, removed at the end; no document passes
 * through a file. Neighbours: decide.c (the decisions), model.c (report
 * model and summary), write.c (the out-dir).
 */
#include "advise/advise.h"
#include "advise/internal.h"

#include "ddl/ddl.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

/* Paths of one run's scratch directory. */
struct scratch {
    char dir[4096];
    int slot;
    char trace[4200];
    char conn[4300]; /* the demo store's connection string */
};

void adv_config_init(struct adv_config *c)
{
    memset(c, 0, sizeof(*c));
    c->out_dir = ADV_DEFAULT_OUT_DIR;
    c->device = ADV_DEFAULT_DEVICE;
    c->validate_sim = c->validate_replay = 1;
    c->workload = ADV_DEFAULT_WORKLOAD;
    c->requests = ADV_DEFAULT_REQUESTS;
    c->seed = ADV_DEFAULT_SEED;
    c->cache_bytes = ADV_DEFAULT_CACHE_BYTES;
    c->drift_tolerance = ADV_DRIFT_TOLERANCE;
    c->clients = ADV_DEFAULT_CLIENTS;
    c->replay_budget_s = ADV_DEFAULT_REPLAY_BUDGET_S;
}

static void note(const struct adv_config *c, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void note(const struct adv_config *c, const char *fmt, ...)
{
    char line[512];
    va_list ap;

    if (!c->note)
        return;
    va_start(ap, fmt);
    vsnprintf(line, sizeof(line), fmt, ap);
    va_end(ap);
    pt_msg_fields(line, sizeof(line), c->field_map, c->field_ctx);
    c->note(c->note_ctx, line);
}

static int scratch_open(struct scratch *s, struct pt_err *err)
{
    int rc;

    memset(s, 0, sizeof(*s));
    s->slot = -1;
    if ((rc = pt_tmpdir_make("advise", s->dir, sizeof(s->dir), &s->slot, err)) <
        0) {
        s->dir[0] = '\0';
        return rc;
    }
    snprintf(s->trace, sizeof(s->trace), "%s/trace.csv", s->dir);
    return 0;
}

static void scratch_close(struct scratch *s)
{
    if (s->dir[0])
        pt_tmpdir_remove(s->dir, s->slot);
    s->dir[0] = '\0';
}

/* The engine profile by name, through the one loader. */
static int load_engine(const char *name, struct rec_engine *e,
                       struct pt_err *err)
{
    char path[4096];

    return rec_profiles_load(name, NULL, e, NULL, path, NULL, sizeof(path),
                             err);
}

static int load_workload(const char *name, struct sim_workload *w,
                         struct pt_err *err)
{
    char path[4096];
    json_t *prof = NULL;
    int rc;

    memset(w, 0, sizeof(*w));
    if ((rc = prof_resolve("workloads", name, path, sizeof(path), err)) < 0 ||
        (rc = prof_load(path, &prof, err)) < 0)
        return rc;
    rc = sim_workload_from_json(w, prof, path, err);
    json_decref(prof);
    return rc;
}

/* The trace of workload w: `requests` records from `seed`, CSV
   (sim_wgen_write_csv, as `pagetune workload` writes it). */
static int write_trace(const struct adv_config *c, const struct sim_workload *w,
                       const char *path, struct pt_err *err)
{
    struct pt_afile af = {0};
    int rc;

    if ((rc = pt_afile_open(&af, path, 1, err)) < 0)
        return rc;
    rc = sim_wgen_write_csv(w, c->requests, c->seed, af.fp, NULL, NULL, err);
    if (rc == 0)
        rc = pt_afile_commit(&af, err);
    if (rc < 0)
        pt_afile_abort(&af);
    return rc;
}

/* Demo: the trace of --workload, replayed into a store at 4K pages. */
static int step_demo(const struct adv_config *c, struct scratch *s,
                     struct pt_err *err)
{
    struct sim_workload w;
    struct rec_engine e;
    struct store_plan p;
    struct store_plan_result res = {0};
    char dir[4200];
    int rc;

    note(c, "demo: generating %llu requests from workload '%s'",
         (unsigned long long)c->requests, c->workload);
    rc = load_workload(c->workload, &w, err);
    if (rc == 0)
        rc = write_trace(c, &w, s->trace, err);
    sim_workload_release(&w);
    if (rc < 0)
        return rc;
    note(c, "demo: running it on a built-in session store at 4K pages");
    snprintf(dir, sizeof(dir), "%s/store", s->dir);
    store_plan_init(&p);
    if ((rc = load_engine(p.engine_name, &e, err)) < 0)
        return rc;
    p.engine = &e;
    p.trace_path = s->trace;
    p.n_page_sizes = 1;
    p.page_sizes[0] = ADV_DEMO_PAGE_SIZE_BYTES;
    p.cache_bytes = c->cache_bytes;
    p.store_dir = dir;
    p.keep = 1;
    p.work = c->progress;
    p.ctx = c->note_ctx;
    rc = store_plan_run(&p, &res, err);
    store_plan_result_release(&res);
    if (rc < 0)
        return err_prefix(err, "demo store");
    snprintf(s->conn, sizeof(s->conn),
             "Driver=SQLite3;Database=%s/store-%uK.db;", dir,
             ADV_DEMO_PAGE_SIZE_BYTES / 1024);
    return 0;
}

static int sample_opts(const struct adv_config *c, struct coll_sample_opts *o,
                       struct pt_err *err)
{
    int rc;

    coll_sample_opts_init(o);
    if (c->table &&
        (rc = pt_qname_parse(&o->table, c->table, "`table`", err)) < 0)
        return rc;
    if (c->columns && (rc = coll_sample_opts_columns(o, c->columns, err)) < 0)
        return rc;
    o->percent = c->percent;
    o->rows = c->rows;
    /* no progress display: the server groups the lengths (exact) */
    o->grouped = 1;
    return 0;
}

/* The sizes document of the table (collect/, as `sample` takes it). */
static int step_sample(const struct adv_config *c, struct coll_conn_opts conn,
                       struct adv_result *r, struct pt_err *err)
{
    struct coll_conn *cn = NULL;
    struct coll_source src;
    char taken_at[32];
    time_t now = time(NULL);
    struct tm tm;
    int rc;

    note(c, "sampling object sizes of %s", c->table ? c->table : "SESSIONS");
    conn.streaming = 1;
    conn.login_timeout_s = ADV_LOGIN_TIMEOUT_S;
    if ((rc = coll_conn_open(&cn, &conn, err)) < 0)
        return err_prefix(err, "sample");
    gmtime_r(&now, &tm);
    strftime(taken_at, sizeof(taken_at), "%Y-%m-%dT%H:%M:%SZ", &tm);
    rc = coll_sample_run(cn, &r->sample_opts, &r->sample, err);
    if (rc == 0) {
        coll_source_init(&src, cn);
        rc = coll_sizes_doc_init(&r->sizes, &r->sample_opts, &r->sample, &src,
                                 0, taken_at, err);
        r->have_sizes = rc == 0;
        if (rc == 0 && r->sample.column_note[0]) /* varchar: bytes */
            note(c, "%s", r->sample.column_note);
    }
    coll_conn_close(cn);
    return rc < 0 ? err_prefix(err, "sample") : 0;
}

/* monitor's warning (pagetune-monitor(1)) on a window that saw too few
   block accesses, naming advise's option; the report's notes carry it too */
static void thin_window_note(const struct adv_config *c,
                             const struct coll_monitor_doc *d,
                             struct adv_result *r)
{
    char why[400];

    if (!coll_monitor_window_thin(d, "`monitor_seconds`", why, sizeof(why)))
        return;
    pt_msg_fields(why, sizeof(why), c->field_map, c->field_ctx);
    note(c, "warning: %s", why);
    json_array_append_new(r->notes, json_string(why));
}

/* The monitor document of a short window (collect/, as `monitor`). */
static int step_monitor(const struct adv_config *c, double seconds,
                        struct coll_conn_opts conn, struct adv_result *r,
                        struct pt_err *err)
{
    struct coll_conn *cn = NULL;
    struct coll_monitor_opts mo = {0};
    struct coll_monitor_doc d;
    struct coll_source src;
    int rc;

    note(c, "monitoring the buffer pool for %g s", seconds);
    conn.login_timeout_s = ADV_LOGIN_TIMEOUT_S;
    if ((rc = coll_conn_open(&cn, &conn, err)) < 0)
        return err_prefix(err, "monitor");
    mo.count = ADV_MONITOR_SNAPSHOTS;
    mo.interval_s = seconds;
    rc = coll_monitor_run(cn, &mo, r->snaps, &r->n_snaps, err);
    if (rc == 0) {
        coll_source_init(&src, cn);
        coll_monitor_doc_init(&d, coll_conn_engine(cn), &src, r->snaps,
                              r->n_snaps, seconds);
        thin_window_note(c, &d, r);
        r->monitor_doc = coll_monitor_doc_to_json(&d);
        if (!r->monitor_doc)
            rc = err_set(err, PT_EINTERNAL, "out of memory");
        else
            rc = coll_monitor_doc_evidence(&d, &r->monitor, err);
        r->cur_page_size = (uint32_t)d.current.page_size;
        r->cur_pool_pages = d.current.bufferpool_pages;
        snprintf(r->cur_pool_name, sizeof(r->cur_pool_name), "%s",
                 d.current.bufferpool);
    }
    coll_conn_close(cn);
    return rc < 0 ? err_prefix(err, "monitor") : 0;
}

/* The sampled table as the monitor names it (PostgreSQL's
 * pg_statio_user_tables "schemaname.relname"): the engine's exact names,
 * unquoted, so "order"."user" is not matched to public.user. */
static const char *monitored_name(const struct adv_result *r, char *buf,
                                  size_t len)
{
    struct pt_qname x = r->sample_opts.table;

    if (r->have_sizes &&
        coll_table_exact(r->sample.engine, &r->sample_opts.table, &x, NULL) < 0)
        x = r->sample_opts.table;
    snprintf(buf, len, "%s%s%s", x.schema, x.schema[0] ? "." : "", x.table);
    return buf;
}

/* The recommendation (rec_run, as `recommend` runs it) and its document. */
static int step_recommend(const struct adv_config *c, const char *trace,
                          struct adv_result *r, struct pt_err *err)
{
    struct rec_trace_evidence tev = {0};
    struct rec_sizes sizes = {0};
    struct rec_request q = {0};
    char sizes_f[4200], mon_f[4200], mon_table[2 * PT_IDENT_MAX + 2];
    json_t *sizes_doc = coll_sizes_doc_to_json(&r->sizes, 1);
    int rc;

    note(c, "recommending for engine %s", r->engine);
    snprintf(sizes_f, sizeof(sizes_f), "%s/%s", c->out_dir,
             adv_file_name(ADV_F_SIZES));
    snprintf(mon_f, sizeof(mon_f), "%s/%s", c->out_dir,
             adv_file_name(ADV_F_MONITOR));
    /* the sizes as `recommend --sizes sizes.json` reads the file advise
     * writes (one reader, coll_sizes_doc_from_json), so both commands get
     * the same evidence */
    if (!sizes_doc) {
        rc = err_set(err, PT_EINTERNAL, "out of memory");
        goto out;
    }
    if ((rc = coll_sizes_doc_from_json(&sizes, sizes_doc, sizes_f, err)) < 0 ||
        (trace && (rc = sim_trace_evidence(trace, &tev, NULL, NULL, err)) < 0))
        goto out;
    q.engine = r->engine;
    q.device = c->device;
    q.sizes = &sizes;
    q.monitor = &r->monitor;
    q.trace = trace ? &tev : NULL;
    q.sizes_doc = sizes_doc;
    q.monitor_doc = r->monitor_doc;
    q.memory_bytes = c->memory_bytes;
    q.memory_given = c->memory_bytes > 0;
    /* the sampled table's own monitor counters, when the monitor read
     * them (docs/models.md, reconciliation) */
    q.table = monitored_name(r, mon_table, sizeof(mon_table));
    q.sizes_file = sizes_f;
    q.sizes_format = "json";
    q.monitor_file = mon_f;
    q.trace_file = trace;
    q.field_map = c->field_map;
    q.field_ctx = c->field_ctx;
    if ((rc = rec_run(&q, &r->run, err)) < 0)
        goto out;
    r->rec = r->run.rec;
    if (!(r->rec_doc = rec_run_to_json(&r->run, &q))) {
        rc = err_set(err, PT_EINTERNAL, "out of memory");
        goto out;
    }
    /* the configuration in use, decided as recommend decides it */
    r->cur_page_size = r->run.current.page_size_bytes;
    r->cur_pool_pages = r->run.current.pool_pages;
    if (r->run.current.page_assumed)
        note(c,
             "the current page size was not read from the server: %uK "
             "assumed (%s)",
             r->cur_page_size / 1024, r->run.current.page_basis);
out:
    json_decref(sizes_doc);
    rec_sizes_release(&sizes);
    rec_trace_evidence_release(&tev);
    return rc < 0 ? err_prefix(err, "recommend") : 0;
}

/* A simulation of `trace` on engine e at the page sizes and pool bytes. */
static int simulate(const char *trace, const struct rec_engine *e,
                    const char *engine_name, const struct rec_device *dev,
                    const uint64_t *ps, size_t n, uint64_t pool_bytes, int mrc,
                    struct sim_plan_result *res, struct pt_err *err)
{
    struct sim_plan p;

    sim_plan_init(&p);
    p.trace = trace;
    p.engine = e;
    p.engine_name = engine_name;
    p.device = dev;
    p.n_page_sizes = n;
    memcpy(p.page_sizes, ps, n * sizeof(*ps));
    p.pools[0].value = pool_bytes;
    p.pools[0].bytes = 1;
    p.mrc = mrc;
    return sim_plan_run(&p, res, err);
}

/* The model's prediction of every simulated row (the config's hook). */
static int predict_rows(const struct adv_config *c, struct adv_result *r,
                        struct pt_err *err)
{
    int rc;

    if (!c->predict)
        return 0;
    for (size_t i = 0; i < r->sim.n_rows; i++)
        if ((rc = c->predict(c->predict_ctx, r->engine, &r->sim,
                             &r->sim.rows[i], err)) < 0)
            return err_prefix(err, "prediction");
    return 0;
}

/*
 * Validation by simulation, current vs recommended at equal pool bytes
 * on the recommendation's device. An engine whose advice keeps the page
 * size and moves the inline limit (an inline knob that pays) is simulated
 * twice at that page size, the second time at the tuned limit.
 */
static int step_simulate(const struct adv_config *c, const char *trace,
                         struct adv_result *r, struct pt_err *err)
{
    const struct rec_result *rec = r->rec;
    uint32_t rec_ps = rec->cand[rec->chosen_idx].page_size_bytes;
    char a[32], b[32], pl[96];
    uint64_t ps[2] = {r->cur_page_size, rec_ps};
    uint64_t pool = rec->pool_pages * rec_ps;
    struct sim_plan_result cur = {0}, tuned = {0};
    /* the device the recommendation priced (--device), loaded once by
       rec_run: the validation prices I/O the same way */
    const struct rec_device *dev = &r->run.device;
    struct rec_engine te;
    int rc;

    if (rec->knob_evaluated && rec->knob_pays && r->cur_page_size == rec_ps) {
        const struct rec_inline_knob *k = &r->run.engine.knob;
        note(c,
             "validating by simulation: %s %u vs %u at %s pages in the "
             "recommended buffer pool, %s",
             k->name, k->default_value, rec->knob_value,
             pt_fig_page(rec_ps, a, sizeof(a)),
             pt_fig_pool(rec->pool_pages, rec_ps, pl, sizeof(pl)));
        te = r->run.engine;
        if ((rc = adv_engine_tuned(&te, rec_ps, rec->knob_inline_limit, err)) <
                0 ||
            (rc = simulate(trace, &r->run.engine, r->engine, dev, &ps[1], 1,
                           pool, 0, &cur, err)) < 0 ||
            (rc = simulate(trace, &te, r->engine, dev, &ps[1], 1, pool, 1,
                           &tuned, err)) < 0 ||
            (rc = sim_plan_result_compare(&cur, &tuned, k->name,
                                          k->default_value, rec->knob_value,
                                          &r->sim, err)) < 0)
            goto out;
    } else {
        note(c,
             "validating by simulation: %s vs %s pages at equal memory, the "
             "recommended buffer pool's: %s",
             pt_fig_page(r->cur_page_size, a, sizeof(a)),
             pt_fig_page(rec_ps, b, sizeof(b)),
             pt_fig_pool(rec->pool_pages, rec_ps, pl, sizeof(pl)));
        if (r->cur_page_size == rec_ps)
            json_array_append_new(
                r->notes,
                json_string("the current page size is the recommended one: "
                            "the simulation shows that one configuration"));
        rc =
            simulate(trace, &r->run.engine, r->engine, dev,
                     r->cur_page_size == rec_ps ? &ps[1] : ps,
                     r->cur_page_size == rec_ps ? 1 : 2, pool, 1, &r->sim, err);
        if (rc < 0)
            goto out;
    }
    if ((rc = predict_rows(c, r, err)) < 0)
        goto out;
    r->have_sim = 1;
    r->sim_doc = sim_plan_result_to_json(&r->sim);
    if (!r->sim_doc)
        rc = err_set(err, PT_EINTERNAL, "out of memory");
out:
    sim_plan_result_release(&cur);
    sim_plan_result_release(&tuned);
    return rc < 0 ? err_prefix(err, "simulate") : 0;
}

/*
 * The LOB area's I/O of the replay's two stores, from the caching clause of
 * each side (docs/models.md "Storage semantics"): the current table space's
 * (read from SYSCAT.TABLESPACES, else Db2's default for automatic storage,
 * NO FILE SYSTEM CACHING: IBM Db2 docs, "Table space containers use
 * concurrent I/O or direct I/O by default") and the recommendation's. NO
 * FILE SYSTEM CACHING is direct I/O, so `direct`; FILE SYSTEM CACHING goes
 * through the OS cache, `cached`. Other engines buffer their out-of-line
 * data: the plan's default.
 */
static void replay_lob_io(const struct adv_result *r, struct store_plan *p)
{
    const struct rec_knob *k;

    if (strcmp(r->engine, "db2") != 0)
        return;
    k = rec_state_get(&r->rec->current, "file_system_caching");
    p->lob_io_page[0] =
        k && k->is_set && !k->is_number && strcasecmp(k->word, "YES") == 0
            ? STORE_LOB_CACHED
            : STORE_LOB_DIRECT;
    p->lob_io_page[1] =
        r->rec->fs_caching == 1 ? STORE_LOB_CACHED : STORE_LOB_DIRECT;
    p->lob_direct_fallback = 1;
}

int adv_store_predict(const struct rec_result *rec, const struct rec_engine *e,
                      const char *engine, uint32_t cur_ps,
                      const struct store_trace *t, unsigned clients,
                      double think_ms, uint64_t max_records,
                      const struct store_probe *pr,
                      struct store_prediction out[2], struct pt_err *err)
{
    struct adv_result r0;
    struct store_plan p;
    struct store_prediction pred[2];
    uint32_t rec_ps = rec->cand[rec->chosen_idx].page_size_bytes;
    int rc;

    /* the plan step_replay runs (replay_lob_io reads only these fields) */
    memset(&r0, 0, sizeof(r0));
    snprintf(r0.engine, sizeof(r0.engine), "%s", engine);
    r0.rec = (struct rec_result *)rec;
    store_plan_init(&p);
    p.engine = e;
    p.engine_name = engine;
    p.n_page_sizes = cur_ps == rec_ps ? 1 : 2;
    p.page_sizes[0] = cur_ps;
    p.page_sizes[1] = rec_ps;
    replay_lob_io(&r0, &p);
    p.n_clients = clients ? clients : 1;
    p.think_ms = (uint32_t)(think_ms + 0.5);
    p.max_records = max_records;
    if ((rc = store_model_predict(pr, &p, t, store_model_cpus(), pred, err)) <
        0)
        return rc;
    out[0] = pred[0];
    out[1] = p.n_page_sizes == 2 ? pred[1] : pred[0];
    return 0;
}

/* The store model's probe: the one given, else a short one measured here
 * (saved in the out-dir as probe.yaml), else none (no_probe). */
static int replay_probe(const struct adv_config *c, struct adv_result *r,
                        struct pt_err *err)
{
    struct store_probe_opts o;
    char *buf = NULL;
    size_t len = 0;
    FILE *fp;
    int rc;

    if (c->probe) {
        r->probe = *c->probe;
        snprintf(r->probe_name, sizeof(r->probe_name), "%s",
                 c->probe_name ? c->probe_name : "probe");
    } else if (c->no_probe) {
        return 0;
    } else if (r->run.engine.outline_buffered || r->run.engine.n_outline == 0) {
        /* the probe measures the LOB area of DB2's semantics; a store
           with the engine's own (overflow pages) has no model yet */
        json_array_append_new(
            r->notes, json_sprintf("no store model for engine %s's storage "
                                   "semantics (the probe measures DB2's LOB "
                                   "area): the prediction is the "
                                   "performance model's",
                                   r->engine));
        return 0;
    } else {
        note(c, "probing this machine's store costs for the model (a few "
                "seconds; a probe given as `calibration` skips it)");
        store_probe_opts_init(&o);
        o.engine = &r->run.engine;
        o.engine_name = r->engine;
        o.cache_bytes = c->cache_bytes;
        o.rounds = STORE_PROBE_QUICK_ROUNDS;
        o.ops = STORE_PROBE_QUICK_OPS;
        if ((rc = store_probe_run(&o, &r->probe, err)) < 0)
            return err_prefix(err, "probe");
        snprintf(r->probe_name, sizeof(r->probe_name), "probe-%.40s-advise",
                 r->probe.host);
        /* the file advise saves is what the prediction used: figures
           written with 17 digits read back exactly */
        fp = open_memstream(&buf, &len);
        if (!fp)
            return err_set(err, PT_EINTERNAL, "out of memory");
        rc = store_probe_write(fp, &r->probe, r->probe_name, err);
        fclose(fp);
        if (rc < 0) {
            free(buf);
            return rc;
        }
        r->probe_yaml = buf;
        r->probe_measured = 1;
    }
    r->have_probe = 1;
    if (store_probe_check(&r->probe, NULL, r->probe_why,
                          sizeof(r->probe_why)) == 0)
        r->probe_why[0] = '\0';
    else
        json_array_append_new(
            r->notes, json_sprintf("calibration %s is %s: its costs may not "
                                   "be this machine's (pagetune probe "
                                   "measures them)",
                                   r->probe_name, r->probe_why));
    return 0;
}

/* Say how each side's LOB area was read, and when the file system made a
 * `direct` side run `cached`. */
static void replay_lob_note(const struct adv_config *c, struct adv_result *r)
{
    char buf[512], ps[32];
    int off = 0;

    if (strcmp(r->engine, "db2") != 0)
        return;
    for (size_t i = 0; i < r->replay.n_results && i < 2; i++) {
        const struct store_replay_result *x = &r->replay.results[i];
        off += snprintf(
            buf + off, sizeof(buf) - (size_t)off,
            "%s%s (%s): LOB area read %s%s", i ? "; " : "",
            pt_fig_page(x->page_size_bytes, ps, sizeof(ps)),
            i ? "recommended" : "current", store_lob_io_name(x->lob_io),
            x->lob_io_fallback ? " instead of direct (no disk file system "
                                 "with O_DIRECT in TMPDIR or /var/tmp)"
                               : "");
        if (off < 0 || (size_t)off >= sizeof(buf))
            return;
    }
    note(c, "replay: %s", buf);
    json_array_append_new(r->notes, json_sprintf("replay: %s (NO FILE SYSTEM "
                                                 "CACHING is direct I/O, FILE "
                                                 "SYSTEM CACHING the OS cache)",
                                                 buf));
}

/*
 * Whether the built-in store can replay engine e at page size ps: the
 * store is SQLite, so it follows an engine's placement rules at a page
 * size that the engine has a rule for and that SQLite accepts (a power
 * of two from 512 to 65536, store_page_size_valid). 0, or -1 with the
 * reason in why.
 */
static int replayable(const struct rec_engine *e, uint32_t ps, char *why,
                      size_t len)
{
    const struct rec_page_rule *rule = rec_engine_page(e, ps);

    if (!rule) {
        snprintf(why, len, "%uK is not a page size of engine %s", ps / 1024,
                 e->name);
        return -1;
    }
    if (!store_page_size_valid(ps)) {
        snprintf(why, len,
                 "the built-in SQLite store cannot hold %uK pages (SQLite "
                 "takes 512 bytes to 64K)",
                 ps / 1024);
        return -1;
    }
    return 0;
}

/* No replay: say why, in the progress notes, the report's and the
 * summary's validation line. */
static void replay_skip(const struct adv_config *c, struct adv_result *r,
                        const char *why)
{
    snprintf(r->replay_skipped, sizeof(r->replay_skipped), "%s", why);
    note(c, "replay skipped: %s", why);
    json_array_append_new(r->notes, json_sprintf("replay skipped: %s", why));
}

/* Requests a pass of the server replay may take so that a warm-up and 6
 * rounds of both candidates (14 passes) fit the replay budget, at about
 * ADV_SERVER_REQ_US a request (a get and its write-back through the
 * driver, measured 100-200 us on the test VM). An even number of rounds:
 * they run A B, B A, ..., and a pass that follows its own candidate finds
 * its pages still in shared_buffers, so only as many rounds of each order
 * leave that out of the mean (5 rounds gave -14.5 % [-29.5, +0.4] and
 * -15.3 % [-29.8, -0.8] on the same advice: inconclusive once in CI). */
#define ADV_SERVER_REQ_US 300.0
#define ADV_SERVER_ROUNDS 6

/* Said: how many of the table's own columns the scratch rows carry, and
 * those not carried (why, kept in not_carried). */
static void server_carried(const struct adv_config *c, size_t n,
                           const char *why, const char *where,
                           char *not_carried, size_t len)
{
    if (n)
        note(c,
             "replay on the server: the scratch rows carry %zu of the "
             "table's own columns, with their types",
             n);
    if (why[0])
        note(c, "replay on the server: not carried%s: %s", where, why);
    snprintf(not_carried, len, "%s", why);
}

/* The sampled table's shape for the scratch rows: its rest of the row and
 * the share of its values that compressed in the pglz trial. */
static void server_shape(const struct adv_config *c, const struct adv_result *r,
                         struct coll_pgr_plan *p, char *not_carried, size_t len)
{
    const struct coll_sample_result *s = &r->sample;
    const char *objs[COLL_MAX_COLUMNS];
    char why[512] = "";
    size_t n = 0;

    if (s->have_rows && s->n_values)
        p->rest_bytes =
            (uint32_t)((s->rest_sum + s->n_values - 1) / s->n_values);
    if (s->trial.done && s->trial.values)
        p->compressible =
            (double)s->trial.compressible_values / (double)s->trial.values;
    /* its other columns, with their own types (not on a made-up rest) */
    for (size_t i = 0; i < r->sample_opts.n_columns; i++)
        objs[i] = r->sample_opts.columns[i];
    if (p->rest_bytes)
        n = coll_pgr_extras(p, &s->columns, objs, r->sample_opts.n_columns, why,
                            sizeof(why));
    server_carried(c, n, why, ", their bytes in pt_rest", not_carried, len);
}

static void server_note(void *ctx, const char *line)
{
    note(ctx, "replay on the server: %s", line);
}

/* splitmix64's output function (Steele et al. 2014): a key per request */
static uint64_t server_mix(uint64_t z)
{
    z += 0x9e3779b97f4a7c15ULL;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/*
 * The table's sessions on the scratch tables. The validation trace's
 * workload has its own few sessions, which shared_buffers may hold whole
 * where the table's rows do not; what the advice changes (heap against
 * TOAST pages, and their misses) shows only at the table's size against
 * the pool. So when the model counted more live rows (rec->sessions) than
 * the trace has, the scratch tables hold that many sessions, their sizes
 * the trace's taken in turn (the sampled distribution), and each request
 * of the passes goes to a session drawn uniformly (the model's "every
 * session equally likely"). At most ADV_SERVER_POOL_MULT times the
 * current pool per table and `max_scratch` for all (default
 * ADV_SERVER_SCRATCH_DEFAULT); the note gives the scratch's ratio to the
 * pool beside the table's when capped. Without a known pool the trace's
 * sessions stay. *sizes is the caller's to free.
 */
#define ADV_SERVER_POOL_MULT 8
static int server_scale(const struct adv_config *c, const struct adv_result *r,
                        struct coll_pgr_plan *p, struct coll_pgr_req *reqs,
                        uint64_t **sizes, struct pt_err *err)
{
    uint64_t want = r->rec ? r->rec->sessions : 0, n = want, per, by_pool;
    uint64_t pool = r->cur_pool_pages * (uint64_t)r->cur_page_size;
    uint64_t max = c->max_scratch ? c->max_scratch : ADV_SERVER_SCRATCH_DEFAULT;
    const char *cap = NULL;
    char a[32], m[32];

    *sizes = NULL;
    if (!p->n_keys || want <= p->n_keys || !pool || !p->n_cand)
        return 0;
    /* all candidates' bytes per session, as the estimate counts them */
    per = coll_pgr_estimate_bytes(p) / p->n_keys + 1;
    by_pool = ADV_SERVER_POOL_MULT * pool * p->n_cand / per;
    /* the estimate counts no dead space and no TOAST page slack: the
       loaded tables measured up to 18 % over it, and a load over
       max_scratch stops the run, so three quarters of it */
    if (n > max / 4 * 3 / per) {
        n = max / 4 * 3 / per;
        cap = c->max_scratch ? "`max_scratch`"
                             : "`max_scratch`'s default; raise it to replay "
                               "the table's size";
    }
    if (n > by_pool) {
        n = by_pool;
        cap = "8x the current pool a table";
    }
    if (n <= p->n_keys)
        return 0;
    if (!(*sizes = pt_calloc(n, sizeof(**sizes))))
        return err_set(err, PT_EINTERNAL, "out of memory");
    for (uint64_t k = 0; k < n; k++)
        (*sizes)[k] = p->first_size[k % p->n_keys];
    for (uint64_t i = 0; i < p->n_reqs; i++)
        reqs[i].key_id = server_mix(c->seed * 0x100000001b3ULL + i) % n;
    if (cap)
        note(c,
             "replay on the server: scratch tables of %llu of the table's "
             "%llu sessions (about %s in all, %.1fx the current pool %s "
             "each where the table is %.1fx; capped by %s)",
             (unsigned long long)n, (unsigned long long)want,
             pt_size_format(n * per, a, sizeof(a)),
             (double)(n * per) / (double)p->n_cand / (double)pool,
             pt_size_format(pool, m, sizeof(m)),
             (double)(want * per) / (double)p->n_cand / (double)pool, cap);
    else
        note(c,
             "replay on the server: scratch tables of the table's %llu "
             "sessions (about %s in all), requests spread uniformly over "
             "them",
             (unsigned long long)n, pt_size_format(n * per, a, sizeof(a)));
    p->first_size = *sizes;
    p->n_keys = n;
    return 0;
}

/*
 * PostgreSQL advice changes a table setting, not the page size: with
 * replay_server it is replayed on the server itself (collect/pgreplay.c:
 * scratch tables of the current and the recommended settings, synthetic
 * rows shaped like the sampled ones, pagetune-replay(1) ON A POSTGRESQL
 * SERVER), its passes cut to fit the replay budget.
 */
/*
 * The server replay's plan, either engine: the trace cut to fit the
 * replay budget, the clients, rounds, scratch schema and safety options,
 * the table's sessions (server_scale). p->n_cand set by the caller (the
 * estimate counts its tables). *reqs and *sizes are the caller's to free,
 * *t to release.
 */
static int server_plan(const struct adv_config *c, const char *trace,
                       struct adv_result *r, struct coll_pgr_plan *p,
                       struct store_trace *t, struct coll_pgr_req **reqs,
                       uint64_t **sizes, struct pt_err *err)
{
    uint64_t fit = (uint64_t)(c->replay_budget_s * 1e6 / ADV_SERVER_REQ_US /
                              (2.0 * (1 + ADV_SERVER_ROUNDS)));
    int rc;

    if ((rc = store_trace_load(t, trace, err)) < 0 ||
        (rc = pt_file_read(trace, &r->trace_text, &r->trace_len, err)) < 0 ||
        (rc = adv_pgr_reqs(t, fit ? fit : 1, reqs, &p->n_reqs, err)) < 0)
        return rc;
    if (p->n_reqs < t->n_reqs)
        note(c,
             "replay on the server: each pass replays the trace's first %llu "
             "of %llu records, so that a warm-up and %d rounds of both "
             "settings fit `replay_budget` %g s",
             (unsigned long long)p->n_reqs, (unsigned long long)t->n_reqs,
             ADV_SERVER_ROUNDS, c->replay_budget_s);
    p->reqs = *reqs;
    p->first_size = t->first_size;
    p->n_keys = t->n_keys;
    p->max_bytes = t->max_bytes;
    p->n_clients = c->clients ? c->clients : 1;
    p->rounds = ADV_SERVER_ROUNDS;
    p->conn = &c->conn;
    if (c->scratch_schema)
        p->schema = c->scratch_schema;
    if (c->max_scratch)
        p->max_scratch_bytes = c->max_scratch;
    p->allow_replicated = c->allow_replicated;
    p->statement_timeout_ms =
        1000 * (c->conn.timeout_s ? c->conn.timeout_s : COLL_TIMEOUT_DEFAULT_S);
    p->note = server_note;
    p->ctx = (void *)c;
    return server_scale(c, r, p, *reqs, sizes, err);
}

static int step_replay_server(const struct adv_config *c, const char *trace,
                              struct adv_result *r, struct pt_err *err)
{
    struct coll_pgr_plan p;
    struct coll_pgr_req *reqs = NULL;
    struct coll_conn *cn = NULL;
    struct store_trace t;
    uint64_t *sizes = NULL;
    char fs[600], why_cols[512] = "";
    int rc;

    memset(&t, 0, sizeof(t));
    coll_pgr_plan_init(&p);
    if ((rc = adv_pgr_candidates(r->rec_doc, "the recommendation",
                                 r->server_cand, &p.n_cand, err)) < 0)
        return rc;
    if (p.n_cand < 2) {
        replay_skip(c, r,
                    "the recommendation keeps the table's toast_tuple_target "
                    "and STORAGE: nothing to replay on the server");
        return 0;
    }
    memcpy(p.cand, r->server_cand, sizeof(r->server_cand));
    server_shape(c, r, &p, why_cols, sizeof(why_cols));
    if ((rc = server_plan(c, trace, r, &p, &t, &reqs, &sizes, err)) < 0)
        goto out;
    note(c,
         "validating by replay on the server: %zu sessions on scratch "
         "tables, current vs recommended settings",
         (size_t)p.n_keys);
    if ((rc = coll_conn_open(&cn, &c->conn, err)) < 0 ||
        (rc = coll_pgr_run(cn, &p, &r->server, err)) < 0) {
        err_prefix(err, "replay on the server");
        goto out;
    }
    r->have_server = 1;
    snprintf(r->server.not_carried, sizeof(r->server.not_carried), "%s",
             why_cols);
    if (coll_pgr_free_text(&r->server.free, fs, sizeof(fs)))
        note(c, "replay on the server: %s%s",
             r->server.free.path[0] ? "" : "free space ", fs);
    /* what the rounds should have read (pgpredict.c): the verdict judges
       the reads by magnitude against it */
    if ((rc = adv_pgr_predict(&p, &r->server, &r->run.engine, &r->server_pred,
                              err)) < 0)
        goto out;
out:
    coll_conn_close(cn);
    free(reqs);
    free(sizes);
    store_trace_release(&t);
    return rc;
}

/*
 * The advised instance for MariaDB/MySQL advice: the recommended page
 * size is per instance, so the advised side runs on `replay_instance`
 * when it was built with it (said, and 0, when there is none or it is
 * another size: the built-in store validates then); the --connect one
 * when the page size stays. 1 when cand[1] can run.
 */
static int server_my_instance(const struct adv_config *c,
                              struct coll_myr_candidate cand[2])
{
    struct coll_myr_candidate in;
    struct pt_err e = {0};
    char ps[16];

    if (cand[1].page_size == cand[0].page_size)
        return 1;
    snprintf(ps, sizeof(ps), "%uK", cand[1].page_size / 1024);
    if (!c->replay_instance) {
        note(c,
             "replay on the server: the advice's innodb_page_size %s is per "
             "instance, fixed when it is created; give `replay_instance` "
             "%s=DSN of an instance built with it to replay there; "
             "validating here as without `replay_server`",
             ps, ps);
        return 0;
    }
    if (coll_myr_candidate_parse(c->replay_instance, &in, &e) < 0 ||
        !in.instance || in.page_size != cand[1].page_size) {
        note(c,
             "replay on the server: `replay_instance` '%s' is not of the "
             "advised innodb_page_size %s; validating here as without "
             "`replay_server`",
             c->replay_instance, ps);
        return 0;
    }
    cand[1].instance = in.instance;
    return 1;
}

/* The sampled table's own columns on MariaDB's scratch rows. */
static void server_shape_my(const struct adv_config *c,
                            const struct adv_result *r, struct coll_myr_plan *m,
                            char *not_carried, size_t len)
{
    const struct coll_sample_result *s = &r->sample;
    const char *objs[COLL_MAX_COLUMNS];
    char why[512] = "";
    size_t n = 0;

    for (size_t i = 0; i < r->sample_opts.n_columns; i++)
        objs[i] = r->sample_opts.columns[i];
    if (s->columns.n)
        n = coll_myr_extras(m, &s->columns, objs, r->sample_opts.n_columns, why,
                            sizeof(why));
    server_carried(c, n, why, "", not_carried, len);
}

/*
 * MariaDB/MySQL advice replayed on the server (myserver.c,
 * collect/myreplay.c): the current row format on the sampled instance
 * against the advised one on an instance of the advised page size, the
 * rounds' pool reads against mypredict.c's emulation. *ran 0 when it
 * could not run here (no such instance: said), and the built-in store
 * validates instead.
 */
static int step_replay_server_my(const struct adv_config *c, const char *trace,
                                 struct adv_result *r, int *ran,
                                 struct pt_err *err)
{
    struct coll_myr_candidate cand[2];
    struct coll_pgr_req *reqs = NULL;
    struct coll_conn *cn = NULL;
    struct store_trace t;
    uint64_t *sizes = NULL;
    size_t n;
    char line[600], why_cols[512] = "";
    int rc;

    *ran = 1;
    if ((rc = adv_myr_candidates(r->rec_doc, "the recommendation", cand, &n,
                                 err)) < 0)
        return rc;
    if (n < 2) {
        replay_skip(c, r,
                    "the recommendation keeps the instance's page size and "
                    "the table's row format: nothing to replay on the server");
        return 0;
    }
    if (!server_my_instance(c, cand)) {
        *ran = 0;
        return 0;
    }
    memset(&t, 0, sizeof(t));
    r->my_plan = pt_calloc(1, sizeof(*r->my_plan));
    r->my_server = pt_calloc(1, sizeof(*r->my_server));
    r->my_pred = pt_calloc(1, sizeof(*r->my_pred));
    if (!r->my_plan || !r->my_server || !r->my_pred)
        return err_set(err, PT_EINTERNAL, "out of memory");
    coll_myr_plan_init(r->my_plan);
    r->my_plan->base.n_cand = 2;
    memcpy(r->my_plan->cand, cand, sizeof(cand));
    if ((rc = server_plan(c, trace, r, &r->my_plan->base, &t, &reqs, &sizes,
                          err)) < 0)
        goto out;
    server_shape_my(c, r, r->my_plan, why_cols, sizeof(why_cols));
    note(c,
         "validating by replay on the server: %zu sessions on scratch "
         "tables, current vs recommended settings",
         (size_t)r->my_plan->base.n_keys);
    if ((rc = coll_conn_open(&cn, &c->conn, err)) < 0 ||
        (rc = coll_myr_run(cn, r->my_plan, r->my_server, err)) < 0) {
        err_prefix(err, "replay on the server");
        goto out;
    }
    snprintf(r->my_server->base.not_carried,
             sizeof(r->my_server->base.not_carried), "%s", why_cols);
    if (adv_myr_pool_note(r->my_server, line, sizeof(line))) {
        note(c, "replay on the server: %s", line);
        json_array_append_new(r->notes,
                              json_sprintf("replay on the server: %s", line));
    }
    if (coll_pgr_free_text(&r->my_server->base.free, line, sizeof(line)))
        note(c, "replay on the server: %s%s",
             r->my_server->base.free.path[0] ? "" : "free space ", line);
    /* what the rounds should have read (mypredict.c): the verdict judges
       the pool reads by magnitude against it */
    if ((rc = adv_myr_predict(r->my_plan, r->my_server, r->my_pred, err)) < 0)
        goto out;
    if (!r->my_pred->have)
        note(c, "replay on the server: no prediction of its reads: %s",
             r->my_pred->why);
out:
    coll_conn_close(cn);
    free(reqs);
    free(sizes);
    r->my_plan->base.reqs = NULL; /* freed: the plan keeps its candidates */
    store_trace_release(&t);
    return rc;
}

/* `replay_server` on advice of an engine it cannot replay on (SQLite's
 * sessions live in a file the built-in store stands for; DB2 does not run
 * here): said, not silently ignored. */
static void replay_server_not_here(const struct adv_config *c,
                                   struct adv_result *r)
{
    note(c,
         "replay on the server: advise replays PostgreSQL and MariaDB/MySQL "
         "advice there, not %s advice; validating here as without it",
         r->engine);
    json_array_append_new(r->notes,
                          json_sprintf("replay on the server: not done for "
                                       "%s advice (PostgreSQL and "
                                       "MariaDB/MySQL only)",
                                       r->engine));
}

/*
 * Validation by replay on the built-in store, with the advised engine's
 * placement rules (docs/models.md "Storage semantics": DB2 and Oracle
 * keep out-of-line data in a LOB area outside the buffer pool, the
 * buffered engines in the row's overflow pages), at the current and the
 * recommended page size — only where the store can emulate both.
 */
static int step_replay(const struct adv_config *c, const char *trace,
                       struct adv_result *r, struct pt_err *err)
{
    uint32_t rec_ps = r->rec->cand[r->rec->chosen_idx].page_size_bytes;
    struct store_plan p;
    struct store_trace t;
    char why[300], a[32], b[32], mem[32];
    int rc;

    memset(&t, 0, sizeof(t));

    if (c->replay_server && !c->demo && strcmp(r->engine, "postgresql") == 0)
        return step_replay_server(c, trace, r, err);
    if (c->replay_server && !c->demo && strcmp(r->engine, "mysql") == 0) {
        int ran;
        if ((rc = step_replay_server_my(c, trace, r, &ran, err)) < 0 || ran)
            return rc;
    } else if (c->replay_server && !c->demo) {
        replay_server_not_here(c, r);
    }
    if (r->cur_page_size == rec_ps) {
        /* the built-in store differs only by page size: nothing to show */
        snprintf(why, sizeof(why),
                 "the built-in SQLite store can only compare page sizes, and "
                 "the current page size is the recommended one (%uK)",
                 rec_ps / 1024);
        replay_skip(c, r, why);
        return 0;
    }
    if (replayable(&r->run.engine, r->cur_page_size, why, sizeof(why)) < 0 ||
        replayable(&r->run.engine, rec_ps, why, sizeof(why)) < 0) {
        replay_skip(c, r, why);
        return 0;
    }
    note(c,
         "validating by replay on the built-in store (engine %s's placement "
         "rules): %s vs %s pages, each with a %s page cache",
         r->engine, pt_fig_page(r->cur_page_size, a, sizeof(a)),
         pt_fig_page(rec_ps, b, sizeof(b)),
         pt_size_format(c->cache_bytes, mem, sizeof(mem)));
    store_plan_init(&p);
    p.engine = &r->run.engine;
    p.engine_name = r->engine;
    snprintf(r->replay_engine, sizeof(r->replay_engine), "%s", r->engine);
    p.trace_path = trace;
    p.n_page_sizes = 2;
    p.page_sizes[0] = r->cur_page_size;
    p.page_sizes[1] = rec_ps;
    p.cache_bytes = c->cache_bytes;
    replay_lob_io(r, &p);
    /* interleaved rounds within the budget, until the interval is tight
     * (pagetune-replay(1), ROUNDS); the prediction's clients */
    p.budget_s = c->replay_budget_s;
    /* fresh stores ADV_REPLAY_TRIALS times: an interval that holds from
       one run to the next (pagetune-replay(1), TRIALS); a budget too short
       for three loads gets the rounds' interval */
    p.trials =
        c->replay_budget_s >= ADV_TRIALS_MIN_BUDGET_S ? ADV_REPLAY_TRIALS : 1;
    p.rounds = STORE_MAX_ROUNDS;
    p.n_clients = c->clients;
    p.think_ms = (uint32_t)(c->think_ms + 0.5);
    if (p.think_ms > 0) {
        /* think time alone makes a pass at least records x think /
         * clients, and the store runs a warm-up pass and 2 rounds of both
         * page sizes (6 passes) even past the budget (pagetune-replay(1),
         * ROUNDS): replay the trace's first records only, as many as 6
         * passes fit in the budget */
        double per_s = 1000.0 / p.think_ms * (c->clients ? c->clients : 1);
        uint64_t fit = (uint64_t)(c->replay_budget_s / 6.0 * per_s);
        if (fit < 2)
            fit = 2;
        if (fit < c->requests) {
            p.max_records = fit;
            note(c,
                 "replay: with `think_ms` %g a pass of %llu records takes "
                 "%.0f s; each pass replays the first %llu so that the "
                 "warm-up and 2 rounds fit `replay_budget` %g",
                 c->think_ms, (unsigned long long)c->requests,
                 (double)c->requests / per_s, (unsigned long long)fit,
                 c->replay_budget_s);
        }
    }
    p.force = c->force;
    p.work = c->progress;
    p.ctx = c->note_ctx;
    /* the trace once, for the replay, the store model and trace.csv */
    if ((rc = store_trace_load(&t, trace, err)) < 0 ||
        (rc = pt_file_read(trace, &r->trace_text, &r->trace_len, err)) < 0 ||
        (rc = replay_probe(c, r, err)) < 0)
        goto out;
    p.trace = &t;
    if (r->have_probe) {
        if ((rc = adv_store_predict(r->rec, &r->run.engine, r->engine,
                                    r->cur_page_size, &t, p.n_clients,
                                    c->think_ms, p.max_records, &r->probe,
                                    r->store_pred, err)) < 0) {
            err_prefix(err, "store model");
            goto out;
        }
        r->have_store_pred = 1;
    }
    if ((rc = store_plan_run(&p, &r->replay, err)) < 0) {
        err_prefix(err, "replay");
        goto out;
    }
    if (r->have_store_pred)
        store_plan_result_predicted(&r->replay, r->store_pred, 2);
    r->have_replay = 1;
    replay_lob_note(c, r);
    r->replay_doc = store_plan_result_to_json(&r->replay);
    if (!r->replay_doc)
        rc = err_set(err, PT_EINTERNAL, "out of memory");
out:
    store_trace_release(&t);
    return rc;
}

/* create.sql and rollback.sql of the recommendation (ddl/). */
static int step_ddl(const struct adv_config *c, struct adv_result *r,
                    struct pt_err *err)
{
    struct ddl_dialect d;
    struct ddl_overrides ov = {0};
    struct ddl_plan plan;
    struct rec_doc rd = {0};
    char dir[4200], rec_name[4200];
    int rc;

    note(c, "writing DDL (%s)", r->dialect);
    memset(&plan, 0, sizeof(plan));
    ddl_vars_init(&plan.vars);
    snprintf(rec_name, sizeof(rec_name), "%s/%s", c->out_dir,
             adv_file_name(ADV_F_REC));
    /* the sampled table, schema and all, as --table parsed it */
    ov.table = &r->sample_opts.table;
    /* the column options (STORAGE) name the first --columns column, the
       one the objects that fit in the row are placed in */
    if (strcmp(r->dialect, "db2") != 0 && c->columns &&
        r->sample_opts.n_columns > 0)
        ov.column_name = r->sample_opts.columns[0];
    if ((rc = ddl_dialect_load(&d, r->dialect, dir, sizeof(dir), err)) < 0 ||
        (rc = rec_result_from_json(&rd, r->rec_doc, d.name, rec_name, err)) <
            0 ||
        (rc = ddl_plan_from_recommendation(&plan, &d, &rd, rec_name, &ov,
                                           err)) < 0 ||
        (rc = ddl_plan_render(&plan, dir, &r->create_sql, &r->rollback_sql,
                              err)) < 0 ||
        (rc = ddl_plan_destructive(&plan, &d, &r->destructive, err)) < 0)
        rc = err_prefix(err, "ddl");
    ddl_plan_release(&plan);
    rec_doc_release(&rd);
    return rc;
}

/*
 * Drift of every knob the recommendation sets against its value in use
 * (rec_drift_doc, recommend/drift.c), appended to the page-size and pool
 * drift that adv_drift already judged (its lines for those two knobs are
 * left out, so each knob is said once).
 */
static int drift_knobs(const struct adv_config *c, struct adv_result *r,
                       struct pt_err *err)
{
    struct rec_doc rd;
    char name[4200], more[sizeof(r->drift_why)];
    size_t off = strlen(r->drift_why);
    int rc;

    snprintf(name, sizeof(name), "%s/%s", c->out_dir, adv_file_name(ADV_F_REC));
    if ((rc = rec_result_from_json(&rd, r->rec_doc, NULL, name, err)) < 0)
        return err_prefix(err, "drift");
    rc = rec_drift_doc(&rd, c->drift_tolerance, more, sizeof(more));
    rec_doc_release(&rd);
    for (char *line = more, *end; rc && *line; line = end) {
        size_t len;
        end = strchr(line, '\n');
        end = end ? end + 1 : line + strlen(line);
        len = (size_t)(end - line);
        if (strncmp(line, "page_size ", 10) == 0 ||
            strncmp(line, "bufferpool_pages ", 17) == 0)
            continue;
        if (off && r->drift_why[off - 1] != '\n' &&
            off + 1 < sizeof(r->drift_why))
            r->drift_why[off++] = '\n';
        if (off + len >= sizeof(r->drift_why))
            break;
        memcpy(r->drift_why + off, line, len);
        off += len;
        r->drift_why[off] = '\0';
        r->drift = 1;
    }
    return 0;
}

/* Live database: the validation trace from --workload with the sampled
 * sizes (a struct value, no profile file). */
static int live_trace(const struct adv_config *c, struct adv_result *r,
                      const char *path, struct pt_err *err)
{
    struct sim_workload w;
    const uint64_t *vals;
    size_t n;
    int rc;

    note(c, "generating a validation trace from the sampled sizes");
    vals = coll_sizes_doc_values(&r->sizes, &n);
    if ((rc = load_workload(c->workload, &w, err)) == 0 &&
        (rc = adv_workload_empirical(&w, vals, n, err)) == 0)
        rc = write_trace(c, &w, path, err);
    sim_workload_release(&w);
    return rc < 0 ? err_prefix(err, "workload") : 0;
}

static int check_config(const struct adv_config *c, struct pt_err *err)
{
    if (c->demo && (c->conn.dsn || c->conn.connect))
        return err_set(err, PT_EUSAGE,
                       "`demo` runs on the built-in store; drop "
                       "`dsn`/`connect`");
    if (!c->demo && !c->conn.dsn && !c->conn.connect)
        return err_set(err, PT_EUSAGE,
                       "give `dsn` NAME or `connect` STR, or `demo`");
    if (c->conn.dsn && c->conn.connect)
        return err_set(err, PT_EUSAGE, "give `dsn` or `connect`, not both");
    if (c->percent > 0 && c->rows > 0)
        return err_set(err, PT_EUSAGE, "`percent` and `rows` are exclusive");
    if (c->requests == 0)
        return err_set(err, PT_EUSAGE, "`requests` must be a whole number > 0");
    if (!(c->drift_tolerance >= 0 && c->drift_tolerance < 1))
        return err_set(err, PT_EUSAGE, "drift tolerance %g is not in [0, 1)",
                       c->drift_tolerance);
    return 0;
}

/* Sample, monitor, engine, validation trace, recommendation. */
static int run_evidence(const struct adv_config *c, struct scratch *s,
                        struct adv_result *r, struct pt_err *err)
{
    struct coll_conn_opts conn = c->conn;
    double secs = c->monitor_s > 0 ? c->monitor_s
                  : c->demo        ? ADV_DEFAULT_DEMO_MONITOR_S
                                   : ADV_DEFAULT_MONITOR_S;
    int validate = c->validate_sim || c->validate_replay;
    int rc;

    if (c->demo) {
        if ((rc = step_demo(c, s, err)) < 0)
            return rc;
        conn.dsn = NULL;
        conn.connect = s->conn;
    }
    if ((rc = step_sample(c, conn, r, err)) < 0 ||
        (rc = pt_interrupt_check(err)) < 0 ||
        (rc = step_monitor(c, secs, conn, r, err)) < 0 ||
        (rc = adv_engine_detect(c->engine, c->demo, r->sample.engine, r->engine,
                                sizeof(r->engine), err)) < 0)
        return rc;
    snprintf(r->dialect, sizeof(r->dialect), "%s", adv_dialect_for(r->engine));
    if (!c->demo && validate && (rc = live_trace(c, r, s->trace, err)) < 0)
        return rc;
    return step_recommend(c, c->demo ? s->trace : NULL, r, err);
}

int adv_run(const struct adv_config *c, struct adv_result *r,
            struct pt_err *err)
{
    struct scratch s;
    uint32_t rec_ps;
    int rc;

    memset(r, 0, sizeof(*r));
    r->demo = c->demo;
    /* --table and --columns are checked before any work */
    if ((rc = check_config(c, err)) < 0 ||
        (rc = sample_opts(c, &r->sample_opts, err)) < 0)
        return rc;
    r->out_dir = pt_strdup(c->out_dir);
    r->notes = json_array();
    if (!r->out_dir || !r->notes)
        return err_set(err, PT_EINTERNAL, "out of memory");
    if ((rc = scratch_open(&s, err)) < 0)
        return rc;
    if ((rc = run_evidence(c, &s, r, err)) < 0)
        goto out;
    if (c->validate_sim && ((rc = pt_interrupt_check(err)) < 0 ||
                            (rc = step_simulate(c, s.trace, r, err)) < 0))
        goto out;
    if (c->validate_replay && ((rc = pt_interrupt_check(err)) < 0 ||
                               (rc = step_replay(c, s.trace, r, err)) < 0))
        goto out;
    if ((rc = step_ddl(c, r, err)) < 0)
        goto out;
    rec_ps = r->rec->cand[r->rec->chosen_idx].page_size_bytes;
    /* drift is judged on what the server reported, never on an assumption
     * (0: unknown) */
    r->drift = adv_drift(r->run.current.page_assumed ? 0 : r->cur_page_size,
                         r->run.current.pool_assumed ? 0 : r->cur_pool_pages,
                         rec_ps, r->rec->pool_pages, c->drift_tolerance,
                         r->drift_why, sizeof(r->drift_why));
    if ((rc = drift_knobs(c, r, err)) < 0)
        goto out;
    adv_validation_compute(&r->validation, r->have_sim ? &r->sim : NULL,
                           r->have_replay ? &r->replay : NULL, r->cur_page_size,
                           rec_ps);
    if (r->have_store_pred && r->have_replay)
        adv_validation_store(&r->validation, &r->store_pred[0],
                             &r->store_pred[1], r->probe_name, &r->replay);
    adv_validation_method(&r->validation, r->engine, r->replay_engine,
                          r->replay_skipped);
    if (r->my_server && r->my_server->base.n_cand == 2)
        adv_validation_server_my(&r->validation, r->my_plan, r->my_server,
                                 r->my_pred);
    if (r->have_server) {
        adv_validation_server(&r->validation, &r->server, r->server_cand,
                              &r->server_pred);
        if (r->validation.srv_reads_note[0])
            json_array_append_new(r->notes,
                                  json_string(r->validation.srv_reads_note));
    }
    /* recommendation.json keeps what validated it (the summary's
     * "validation"), so `pagetune diff` of two out-dirs compares the
     * predicted and measured figures and the verdict too */
    if (json_object_set_new(r->rec_doc, "validation",
                            adv_validation_to_json(&r->validation)) < 0) {
        rc = err_set(err, PT_EINTERNAL, "out of memory");
        goto out;
    }
    if ((rc = adv_model_build(c, r, err)) < 0)
        goto out;
    rc = pt_interrupt_check(err);
out:
    scratch_close(&s);
    return rc;
}

void adv_result_release(struct adv_result *r)
{
    if (!r)
        return;
    free(r->out_dir);
    coll_sample_result_release(&r->sample);
    for (size_t i = 0; i < r->n_snaps; i++)
        coll_snapshot_release(&r->snaps[i]);
    json_decref(r->monitor_doc);
    rec_run_result_release(&r->run);
    json_decref(r->rec_doc);
    free(r->my_plan);
    free(r->my_server);
    free(r->my_pred);
    sim_plan_result_release(&r->sim);
    store_plan_result_release(&r->replay);
    json_decref(r->sim_doc);
    json_decref(r->replay_doc);
    json_decref(r->notes);
    free(r->create_sql);
    free(r->rollback_sql);
    json_decref(r->destructive);
    json_decref(r->model);
    free(r->probe_yaml);
    free(r->trace_text);
    memset(r, 0, sizeof(*r));
}
