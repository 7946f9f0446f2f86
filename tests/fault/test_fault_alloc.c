/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_fault_alloc.c — allocation failure injected into every parser and
 * into the simulator. core's hook pt_alloc_fail_after(n) lets n pt_*
 * allocations succeed and fails the next ones (jansson allocates through
 * the same hook while it is armed). Each test sweeps n = 0, 1, 2, ... until
 * the operation succeeds, and asserts for every n < that: a clean
 * PT_EINTERNAL whose one-line message says "out of memory", no crash, and
 * (under ASan/LeakSanitizer, or valgrind in scripts/test.sh) no leak.
 * Inputs are the seed corpora and shipped profiles, so a sweep walks the
 * allocation sites a real run reaches.
 */
#include "model/model.h"
#include "collect/collect.h"
#include "ddl/ddl.h"
#include "sim/sim.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#define SWEEP_MAX 100000 /* allocation sites: far more than any run has */

/* One operation: releases all it allocated, on success and on failure. */
typedef int (*op_fn)(void *ctx, struct pt_err *err);

static const char *src(void)
{
    const char *s = getenv("PT_SOURCE_DIR");
    return s && *s ? s : PT_SOURCE_DIR;
}

static char *path_of(const char *rel)
{
    static char buf[8][4096];
    static int k;
    char *p = buf[k++ % 8];
    snprintf(p, 4096, "%s/%s", src(), rel);
    return p;
}

/*
 * Sweep: run op with n allocations allowed, n = 0, 1, ... until it
 * succeeds. Returns the number of failure points checked.
 */
static long sweep(const char *what, op_fn op, void *ctx)
{
    struct pt_err err;
    long n;
    int rc;

    long misreported = 0;

    for (n = 0; n < SWEEP_MAX; n++) {
        err_clear(&err);
        pt_alloc_fail_after(n);
        rc = op(ctx, &err);
        pt_alloc_fail_after(-1);
        if (rc == 0)
            break;
        /*
         * Known limitation of jansson 2.14: when a token's buffer cannot be
         * allocated its lexer reports a syntax error ("string or '}'
         * expected") instead of json_error_out_of_memory. The input is
         * valid (the sweep ends in success), so that is the only cause.
         */
        if (rc == PT_EDATA && strstr(err.msg, "invalid JSON")) {
            misreported++;
            continue;
        }
        if (rc != PT_EINTERNAL || !strstr(err.msg, "out of memory") ||
            strchr(err.msg, '\n'))
            fail_msg("%s: with %ld allocations allowed: status %d, '%s' "
                     "(want PT_EINTERNAL, 'out of memory')",
                     what, n, rc, err.msg);
    }
    if (n == SWEEP_MAX)
        fail_msg("%s: never succeeded", what);
    /* the hook really reaches this operation */
    if (n == 0)
        fail_msg("%s: succeeded with no allocation allowed", what);
    print_message("%-28s %ld failure points, each a clean out of memory%s\n",
                  what, n,
                  misreported ? " (or jansson's syntax-error misreport)" : "");
    return n;
}

/* ---- JSON documents --------------------------------------------------- */

struct doc_ctx {
    const char *path;
};

static int op_sizes_json(void *vctx, struct pt_err *err)
{
    struct doc_ctx *c = vctx;
    struct rec_sizes s;
    struct rec_size_stats st;
    json_t *doc = NULL, *out = NULL;
    int rc;

    if ((rc = pt_json_load(c->path, &doc, err)) < 0)
        return rc;
    if ((rc = coll_sizes_doc_from_json(&s, doc, c->path, err)) < 0)
        goto out;
    rc = rec_sizes_stats(&s, &st, err);
    if (rc == 0) {
        out = rec_stats_to_json(&st, s.counts ? NULL : s.values, s.n, NULL);
        if (!out)
            rc = err_set(err, PT_EINTERNAL, "out of memory");
    }
    rec_sizes_release(&s);
out:
    json_decref(out);
    json_decref(doc);
    return rc;
}

static void test_sizes_json(void **state)
{
    struct doc_ctx v = {path_of("tests/fuzz/corpus/sizes_json/values.json")};
    struct doc_ctx h = {path_of("tests/fuzz/corpus/sizes_json/histogram.json")};
    (void)state;
    sweep("sizes JSON (values)", op_sizes_json, &v);
    sweep("sizes JSON (histogram)", op_sizes_json, &h);
}

static int op_sizes_text(void *vctx, struct pt_err *err)
{
    struct doc_ctx *c = vctx;
    struct rec_sizes s;
    char *buf;
    size_t len;
    int rc;

    if ((rc = pt_file_read(c->path, &buf, &len, err)) < 0)
        return rc;
    rc = rec_sizes_parse_text(&s, buf, len, c->path, err);
    free(buf);
    if (rc == 0)
        rec_sizes_release(&s);
    return rc;
}

static void test_sizes_text(void **state)
{
    /* enough lines to make the value array grow several times */
    char path[] = "/tmp/pt-fault-sizes.XXXXXX";
    int fd = mkstemp(path);
    FILE *fp = fdopen(fd, "w");
    struct doc_ctx c = {path};
    (void)state;

    assert_non_null(fp);
    for (int i = 0; i < 5000; i++)
        fprintf(fp, "%d # session %d\n", 100 + i * 7, i);
    fclose(fp);
    sweep("sizes text list", op_sizes_text, &c);
    unlink(path);
}

static int op_monitor_json(void *vctx, struct pt_err *err)
{
    struct doc_ctx *c = vctx;
    struct rec_monitor m;
    json_t *doc = NULL;
    int rc;

    if ((rc = pt_json_load(c->path, &doc, err)) < 0)
        return rc;
    rc = coll_monitor_doc_from_json(&m, doc, c->path, err);
    json_decref(doc);
    return rc;
}

static void test_monitor_json(void **state)
{
    struct doc_ctx c = {path_of("tests/fuzz/corpus/monitor_json/monitor.json")};
    (void)state;
    sweep("monitor JSON", op_monitor_json, &c);
}

/* ---- YAML profiles ---------------------------------------------------- */

static int op_engine(void *vctx, struct pt_err *err)
{
    struct doc_ctx *c = vctx;
    struct rec_engine e;
    json_t *doc = NULL;
    int rc;

    if ((rc = prof_load(c->path, &doc, err)) < 0)
        return rc;
    rc = rec_engine_from_json(&e, doc, c->path, err);
    json_decref(doc);
    return rc;
}

static int op_device(void *vctx, struct pt_err *err)
{
    struct doc_ctx *c = vctx;
    struct rec_device d;
    json_t *doc = NULL;
    int rc;

    if ((rc = prof_load(c->path, &doc, err)) < 0)
        return rc;
    rc = rec_device_from_json(&d, doc, c->path, err);
    json_decref(doc);
    return rc;
}

static int op_workload(void *vctx, struct pt_err *err)
{
    struct doc_ctx *c = vctx;
    struct sim_workload w;
    struct sim_wgen *g = NULL;
    struct sim_wrec rec;
    json_t *doc = NULL;
    int rc;

    if ((rc = prof_load(c->path, &doc, err)) < 0)
        return rc;
    rc = sim_workload_from_json(&w, doc, c->path, err);
    json_decref(doc);
    if (rc < 0)
        return rc;
    rc = sim_wgen_new(&w, 42, &g, err);
    for (int i = 0; rc == 0 && i < 2000; i++)
        if (sim_wgen_next(g, &rec) < 0)
            rc = err_set(err, PT_EINTERNAL, "out of memory generating");
    sim_wgen_free(g);
    sim_workload_release(&w);
    return rc;
}

static int op_dialect(void *vctx, struct pt_err *err)
{
    struct doc_ctx *c = vctx;
    struct ddl_dialect d;
    json_t *doc = NULL;
    int rc;

    if ((rc = prof_load(c->path, &doc, err)) < 0)
        return rc;
    rc = ddl_dialect_from_json(&d, doc, c->path, err);
    json_decref(doc);
    return rc;
}

static void test_profiles(void **state)
{
    struct doc_ctx e = {path_of("profiles/engines/db2.yaml")};
    struct doc_ctx d = {path_of("profiles/devices/ssd.yaml")};
    struct doc_ctx w1 = {path_of("profiles/workloads/mixed-sessions.yaml")};
    struct doc_ctx w2 = {path_of("profiles/workloads/trade-14pct.yaml")};
    struct doc_ctx dl = {path_of("ddl_templates/db2/dialect.yaml")};
    (void)state;
    sweep("engine profile", op_engine, &e);
    sweep("device profile", op_device, &d);
    sweep("workload profile + generator", op_workload, &w1);
    sweep("workload profile (keys)", op_workload, &w2);
    sweep("DDL dialect", op_dialect, &dl);
}

/* ---- DDL rendering ---------------------------------------------------- */

static int op_ddl_render(void *vctx, struct pt_err *err)
{
    struct doc_ctx *c = vctx;
    struct ddl_vars v;
    static const char *const reasons[] = {
        "objects of 4000 bytes are stored in the row at 8K pages",
        "a second reason\nthat spans lines"};
    char *tmpl = NULL, *block = NULL, *out = NULL;
    size_t len;
    int rc;

    ddl_vars_init(&v);
    if ((rc = pt_file_read(c->path, &tmpl, &len, err)) < 0)
        goto out;
    if ((rc = ddl_comment_block(reasons, 2, "--   ", 79, &block, err)) < 0)
        goto out;
#define SET(k, ...)                                                            \
    if ((rc = ddl_vars_set(&v, k, __VA_ARGS__)) < 0) {                         \
        rc = err_set(err, PT_EINTERNAL, "out of memory");                      \
        goto out;                                                              \
    }
    SET("version", "%s", PT_VERSION);
    SET("page_size", "%d", 8192);
    SET("page_size_k", "%d", 8);
    SET("bufferpool_name", "%s", "SESSBP8K");
    SET("tablespace_name", "%s", "SESSTS8K");
    SET("table", "%s", "\"SESSIONS\"");
    SET("bufferpool_pages", "%d", 1000);
    SET("bufferpool_bytes", "%s", "7.8M");
    SET("bufferpool", "%s", "1,000 pages of 8K (7.8M)");
    SET("extent_size", "%d", 32);
    SET("prefetch_size", "%s", "AUTOMATIC");
    SET("overhead", "%s", "6.725");
    SET("transfer_rate", "%s", "0.08");
    SET("file_system_caching", "%s", "NO FILE SYSTEM CACHING");
    SET("if_fs_caching", "%s", "-- ");
    SET("if_no_fs_caching", "%s", "");
    SET("evidence_source", "%s", "command-line parameters");
    SET("evidence", "%s", block);
#undef SET
    rc = ddl_render(tmpl, len, c->path, &v, &out, err);
out:
    free(out);
    free(block);
    free(tmpl);
    ddl_vars_release(&v);
    return rc;
}

static void test_ddl(void **state)
{
    struct doc_ctx c = {path_of("ddl_templates/db2/create.sql")};
    (void)state;
    sweep("DDL template + comments", op_ddl_render, &c);
}

/* ---- traces and the simulator ----------------------------------------- */

static char trace_csv[] = "/tmp/pt-fault-trace.XXXXXX";
static char trace_bin[] = "/tmp/pt-fault-trace-bin.XXXXXX";

/* A trace with enough distinct keys to grow every table of the reader. */
static int setup_traces(void **state)
{
    int fd = mkstemp(trace_csv), fd2;
    FILE *fp = fdopen(fd, "w"), *fb;
    (void)state;

    if (!fp)
        return -1;
    fprintf(fp, "# fault-injection trace\ntime_ms,op,key,size\n");
    for (int i = 0; i < 12000; i++) {
        int k = (i * 7919) % 5000;
        const char *op = i % 10 == 0 ? "set" : (i % 97 == 0 ? "del" : "get");
        fprintf(fp, "%d,%s,session-%05d,%d\n", i, op, k, 500 + (k % 40) * 900);
    }
    fclose(fp);
    fd2 = mkstemp(trace_bin);
    fb = fdopen(fd2, "wb");
    if (!fb)
        return -1;
    for (int i = 0; i < 12000; i++)
        sim_trace_write_oracle(fb, (uint32_t)i, (uint64_t)((i * 31) % 4500),
                               4000, -1, NULL);
    fclose(fb);
    return 0;
}

static int teardown_traces(void **state)
{
    (void)state;
    unlink(trace_csv);
    unlink(trace_bin);
    return 0;
}

static int op_trace_read(void *vctx, struct pt_err *err)
{
    const char *path = vctx;
    struct sim_trace_reader *r = NULL;
    struct sim_req req;
    int rc;

    if ((rc = sim_trace_open(path, SIM_TRACE_AUTO, &r, err)) < 0)
        return rc;
    while ((rc = sim_trace_next(r, &req, err)) == 1)
        ;
    sim_trace_close(r);
    return rc;
}

static void test_trace_reader(void **state)
{
    (void)state;
    sweep("trace CSV reader", op_trace_read, trace_csv);
    sweep("trace oracleGeneral reader", op_trace_read, trace_bin);
}

struct sim_ctx {
    const struct rec_engine *engine;
    const struct rec_device *device;
    const struct sim_policy_ops *policy;
    int mrc;
};

static int op_simulate(void *vctx, struct pt_err *err)
{
    struct sim_ctx *c = vctx;
    struct sim_trace_reader *r = NULL;
    struct sim *s = NULL;
    struct sim_config cfg;
    struct sim_req req;
    int rc;

    memset(&cfg, 0, sizeof(cfg));
    cfg.mode = SIM_MODE_DMAP;
    cfg.app_entries = 500;
    cfg.app_policy = c->policy;
    cfg.offload_entries = 300;
    cfg.servers = 2;
    cfg.sharing = SIM_SHARE_PUSH;
    sim_costs_default(&cfg.costs);
    cfg.seed = 7;
    cfg.engine = c->engine;
    cfg.device = c->device;
    cfg.bp_policy = c->policy;
    cfg.n_tiers = 2;
    cfg.tiers[0].page_size_bytes = 4096;
    cfg.tiers[0].n_pools = 2;
    cfg.tiers[0].pool_pages[0] = 100;
    cfg.tiers[0].pool_pages[1] = 1000;
    cfg.tiers[1].page_size_bytes = 32768;
    cfg.tiers[1].n_pools = 1;
    cfg.tiers[1].pool_pages[0] = 200;
    cfg.mrc = c->mrc;
    cfg.sample_rate = c->mrc ? 0.5 : 1;

    if ((rc = sim_trace_open(trace_csv, SIM_TRACE_AUTO, &r, err)) < 0)
        return rc;
    if ((rc = sim_new(&cfg, &s, err)) < 0)
        goto out;
    while ((rc = sim_trace_next(r, &req, err)) == 1)
        if ((rc = sim_feed(s, &req, err)) < 0)
            break;
    if (rc == 0 && c->mrc) {
        struct sim_mrc *m = sim_curve(s, 0);
        assert_non_null(m);
        sim_mrc_hit_ratio(m, 100);
    }
out:
    sim_free(s);
    sim_trace_close(r);
    return rc;
}

static void test_simulator(void **state)
{
    struct rec_engine e;
    struct rec_device d;
    struct pt_err err;
    json_t *doc;
    char what[64];
    (void)state;

    assert_int_equal(
        prof_load(path_of("profiles/engines/db2.yaml"), &doc, &err), 0);
    assert_int_equal(rec_engine_from_json(&e, doc, "db2", &err), 0);
    json_decref(doc);
    assert_int_equal(
        prof_load(path_of("profiles/devices/ssd.yaml"), &doc, &err), 0);
    assert_int_equal(rec_device_from_json(&d, doc, "ssd", &err), 0);
    json_decref(doc);
    /* every registered policy, app tier and buffer pool */
    for (size_t i = 0; sim_policies[i]; i++) {
        struct sim_ctx c = {&e, &d, sim_policies[i], i == 0};
        snprintf(what, sizeof(what), "simulator (%s%s)", sim_policies[i]->name,
                 i == 0 ? ", MRC" : "");
        sweep(what, op_simulate, &c);
    }
}

/* ---- monitor adapters (collect/) --------------------------------------- */

/*
 * A pg_settings / pg_stat_database / SHOW GLOBAL STATUS result as the
 * adapters receive it, parsed into two snapshots and their deltas, as
 * `monitor` does with every pair of snapshots.
 */
static int op_monitor_rows(void *vctx, struct pt_err *err)
{
    static const char *const set_cols[] = {"NAME", "SETTING", "UNIT"};
    static const char *const set_rows[][3] = {
        {"block_size", "8192", NULL}, {"shared_buffers", "16384", "8kB"}};
    static const char *const st_cols[] = {"Variable_name", "Value"};
    static const char *const st_rows[][2] = {
        {"Innodb_buffer_pool_read_requests", "100000"},
        {"Innodb_buffer_pool_reads", "12"},
        {"Innodb_page_size", "16384"},
        {"Innodb_buffer_pool_pages_total", "8191"}};
    struct coll_rows set, st;
    struct coll_snapshot a, b;
    struct coll_delta *d = NULL;
    size_t n = 0;
    int rc = 0;
    (void)vctx;

    memset(&set, 0, sizeof(set));
    memset(&st, 0, sizeof(st));
    memset(&a, 0, sizeof(a));
    memset(&b, 0, sizeof(b));
    if (coll_rows_init(&set, 3, set_cols) < 0 ||
        coll_rows_add(&set, set_rows[0]) < 0 ||
        coll_rows_add(&set, set_rows[1]) < 0 ||
        coll_rows_init(&st, 2, st_cols) < 0) {
        rc = err_set(err, PT_EINTERNAL, "out of memory building rows");
        goto out;
    }
    for (size_t i = 0; i < 4; i++)
        if (coll_rows_add(&st, st_rows[i]) < 0) {
            rc = err_set(err, PT_EINTERNAL, "out of memory building rows");
            goto out;
        }
    if ((rc = coll_pg_parse_settings(&set, &a, err)) < 0 ||
        (rc = coll_mysql_parse_status(&st, &a, err)) < 0 ||
        (rc = coll_pg_parse_settings(&set, &b, err)) < 0 ||
        (rc = coll_mysql_parse_status(&st, &b, err)) < 0)
        goto out;
    b.t_s = 1;
    rc = coll_snapshot_deltas(&a, &b, &d, &n, err);
    if (rc == 0)
        assert_true(n > 0);
out:
    free(d);
    coll_snapshot_release(&a);
    coll_snapshot_release(&b);
    coll_rows_release(&set);
    coll_rows_release(&st);
    return rc;
}

static void test_monitor_rows(void **state)
{
    (void)state;
    sweep("monitor adapter rows", op_monitor_rows, NULL);
}

/* ---- output files ------------------------------------------------------ */

static int op_afile(void *vctx, struct pt_err *err)
{
    const char *path = vctx;
    json_t *doc =
        json_pack("{s:i, s:[i,i,i]}", "schema_version", 1, "values", 1, 2, 3);
    int rc;

    if (!doc)
        return err_set(err, PT_EINTERNAL, "out of memory");
    rc = pt_json_write_file(doc, path, 1, err);
    json_decref(doc);
    return rc;
}

static void test_output_file(void **state)
{
    char dir[] = "/tmp/pt-fault-out.XXXXXX", path[64];
    (void)state;

    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof(path), "%s/out.json", dir);
    sweep("atomic JSON output", op_afile, path);
    unlink(path);
    /* no temporary file survived any of the failures */
    assert_int_equal(rmdir(dir), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sizes_json),
        cmocka_unit_test(test_sizes_text),
        cmocka_unit_test(test_monitor_json),
        cmocka_unit_test(test_profiles),
        cmocka_unit_test(test_ddl),
        cmocka_unit_test(test_trace_reader),
        cmocka_unit_test(test_simulator),
        cmocka_unit_test(test_monitor_rows),
        cmocka_unit_test(test_output_file),
    };
    return cmocka_run_group_tests(tests, setup_traces, teardown_traces);
}
