/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_sim_plan.c — unit tests for sim/'s plan API (plan.c) and
 * simulation.json (plan_json.c): a plan's rows and curves against the same
 * configurations run by hand through sim_new/sim_feed, the plan's checks,
 * a trace reader handed in, the JSON round trip of both document forms,
 * the reader's refusals, and the object bytes and the performance model's
 * prediction a row carries through simulation.json.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sim/sim.h"

static char tmp_trace[64];
static struct rec_engine engine;
static struct rec_device device;

/* Generate `n` records of a shipped workload profile into tmp_trace. */
static void gen_trace(const char *profile, uint64_t n)
{
    json_t *prof = NULL;
    struct sim_workload w;
    struct sim_wgen *g;
    struct pt_err err;
    FILE *fp;
    int fd;

    snprintf(tmp_trace, sizeof(tmp_trace), "/tmp/pt-simplan-XXXXXX");
    fd = mkstemp(tmp_trace);
    assert_true(fd >= 0);
    fp = fdopen(fd, "w");
    assert_non_null(fp);
    if (prof_load_named("workloads", profile, &prof, &err) < 0)
        fail_msg("%s", err.msg);
    assert_int_equal(sim_workload_from_json(&w, prof, profile, &err), 0);
    assert_int_equal(sim_wgen_new(&w, w.seed, &g, &err), 0);
    assert_int_equal(sim_trace_write_header(fp, SIM_TRACE_CSV, &err), 0);
    for (uint64_t i = 0; i < n; i++) {
        struct sim_wrec r;
        assert_int_equal(sim_wgen_next(g, &r), 1);
        assert_int_equal(sim_trace_write_csv(fp, r.time_ms, r.op, r.key,
                                             r.key_len, r.size_bytes, &err),
                         0);
    }
    assert_int_equal(fclose(fp), 0);
    sim_wgen_free(g);
    sim_workload_release(&w);
    json_decref(prof);
}

static int setup(void **state)
{
    json_t *prof;
    struct pt_err err;

    (void)state;
    if (prof_load_named("engines", "db2", &prof, &err) < 0 ||
        rec_engine_from_json(&engine, prof, "db2", &err) < 0)
        return -1;
    json_decref(prof);
    if (prof_load_named("devices", "ssd", &prof, &err) < 0 ||
        rec_device_from_json(&device, prof, "ssd", &err) < 0)
        return -1;
    json_decref(prof);
    gen_trace("article-4k", 20000);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    unlink(tmp_trace);
    return 0;
}

/* Two app-cache sizes x two page sizes x (8M of bytes, 300 pages), MRC. */
static void full_plan(struct sim_plan *p)
{
    sim_plan_init(p);
    p->trace = tmp_trace;
    p->engine = &engine;
    p->device = &device;
    p->mode = SIM_MODE_DMAP;
    p->n_app = 2;
    p->app_entries[0] = 50;
    p->app_entries[1] = 400;
    p->n_page_sizes = 2;
    p->page_sizes[0] = 4096;
    p->page_sizes[1] = 16384;
    p->n_pools = 2;
    p->pools[0] = (struct sim_pool_size){8u << 20, 1};
    p->pools[1] = (struct sim_pool_size){300, 0};
    p->mrc = 1;
}

/* The same configuration by hand: one sim per app-cache size. */
static struct sim *direct_sim(uint64_t app_entries, int mrc)
{
    static const uint32_t pages[] = {4096, 16384};
    struct sim_config c;
    struct sim_trace_reader *r;
    struct sim_req q;
    struct sim *s;
    struct pt_err err;
    int rc;

    memset(&c, 0, sizeof(c));
    c.mode = SIM_MODE_DMAP;
    c.app_entries = app_entries;
    c.servers = 1;
    c.seed = 1;
    sim_costs_default(&c.costs);
    c.engine = &engine;
    c.device = &device;
    c.n_tiers = 2;
    for (int t = 0; t < 2; t++) {
        c.tiers[t].page_size_bytes = pages[t];
        c.tiers[t].n_pools = 2;
        c.tiers[t].pool_pages[0] = (8u << 20) / pages[t];
        c.tiers[t].pool_pages[1] = 300;
    }
    c.mrc = mrc;
    c.sample_rate = 1.0;
    assert_int_equal(sim_new(&c, &s, &err), 0);
    assert_int_equal(sim_trace_open(tmp_trace, SIM_TRACE_AUTO, &r, &err), 0);
    while ((rc = sim_trace_next(r, &q, &err)) == 1)
        assert_int_equal(sim_feed(s, &q, &err), 0);
    assert_int_equal(rc, 0);
    sim_trace_close(r);
    return s;
}

static void assert_db_equal(const struct sim_db_stats *x,
                            const struct sim_db_stats *y)
{
    assert_int_equal(x->page_size_bytes, y->page_size_bytes);
    assert_int_equal(x->pool_pages, y->pool_pages);
    assert_int_equal(x->logical_reads, y->logical_reads);
    assert_int_equal(x->physical_reads, y->physical_reads);
    assert_int_equal(x->physical_writes, y->physical_writes);
    assert_int_equal(x->direct_reads, y->direct_reads);
    assert_int_equal(x->direct_writes, y->direct_writes);
    assert_int_equal(x->inline_accesses, y->inline_accesses);
    assert_int_equal(x->outline_accesses, y->outline_accesses);
    assert_int_equal(x->pages_used, y->pages_used);
    assert_true(x->io_ms == y->io_ms);
}

/* Is `size` a point of the curve? */
static int curve_has(const struct sim_curve *c, uint64_t size)
{
    for (size_t j = 0; j < c->n_points; j++)
        if (c->points[j].size == size)
            return 1;
    return 0;
}

/* The largest pool (pages) of the first run's rows at a page size. */
static uint64_t largest_pool(const struct sim_plan_result *res,
                             uint32_t page_size_bytes)
{
    uint64_t n = 0;

    for (size_t i = 0; i < res->n_rows; i++) {
        const struct sim_result_row *r = &res->rows[i];
        if (r->app_entries == res->rows[0].app_entries &&
            r->db.page_size_bytes == page_size_bytes && r->db.pool_pages > n)
            n = r->db.pool_pages;
    }
    return n;
}

/* The point of a curve at `size`, or NULL. */
static const struct sim_curve_point *curve_at(const struct sim_curve *c,
                                              uint64_t size)
{
    for (size_t j = 0; j < c->n_points; j++)
        if (c->points[j].size == size)
            return &c->points[j];
    return NULL;
}

/*
 * The exact curve passes through every buffer pool simulated, equal to the
 * fixed LRU run to the last bit; the brief view too. Pools past the curve's
 * largest useful size included.
 */
static void test_plan_curve_through_pools(void **state)
{
    static const uint64_t pools[] = {1, 2, 3, 5, 8, 13, 21, 34, 50, 400, 3000};
    struct sim_plan p;
    struct sim_plan_result res;
    struct pt_err err;
    size_t n_given = 0;
    (void)state;

    full_plan(&p);
    p.n_app = 1;
    p.app_entries[0] = 3; /* the pools see an odd number of references */
    p.n_pools = 12;
    for (size_t k = 0; k < 11; k++)
        p.pools[k] = (struct sim_pool_size){pools[k], 0};
    p.pools[11] = (struct sim_pool_size){1u << 20, 1};
    if (sim_plan_run(&p, &res, &err) < 0)
        fail_msg("%s", err.msg);
    assert_int_equal(res.n_curves, 2);
    for (size_t i = 0; i < res.n_rows; i++) {
        const struct sim_result_row *r = &res.rows[i];
        const struct sim_curve *c =
            &res.curves[r->db.page_size_bytes == 4096 ? 0 : 1];
        const struct sim_curve_point *pt = curve_at(c, r->db.pool_pages);
        double want;
        int found = 0;
        assert_int_equal(sim_db_hit_ratio(&r->db, &want), 0);
        if (!pt)
            fail_msg("%u-byte pages: no point at %llu pages",
                     (unsigned)r->db.page_size_bytes,
                     (unsigned long long)r->db.pool_pages);
        assert_true(pt->given);
        assert_false(pt->extrapolated);
        if (pt->hit_ratio != want)
            fail_msg("%llu pages: curve %.17g, LRU run %.17g",
                     (unsigned long long)r->db.pool_pages, pt->hit_ratio, want);
        for (size_t j = 0; j < c->n_brief; j++)
            if (c->brief[j].size == pt->size) {
                found = 1;
                assert_true(c->brief[j].hit_ratio == want);
                assert_true(c->brief[j].given);
            }
        assert_true(found);
        n_given++;
    }
    assert_int_equal(n_given, 24);
    for (size_t t = 0; t < 2; t++) {
        const struct sim_curve *c = &res.curves[t];
        size_t g = 0;
        assert_true(c->n_points <= SIM_CURVE_POINTS);
        assert_true(c->n_brief <= 12 + 2); /* the given ones + both ends */
        assert_int_equal(c->points[0].size, 1);
        for (size_t j = 0; j < c->n_points; j++) {
            g += (size_t)c->points[j].given;
            if (j)
                assert_true(c->points[j].size > c->points[j - 1].size);
        }
        assert_int_equal(g, 12); /* and no other point is marked given */
    }
    sim_plan_result_release(&res);
}

/* Likewise the exact application-tier curve: 1 - the run's miss ratio. */
static void test_plan_app_curve_through_caches(void **state)
{
    static const uint64_t sizes[] = {1, 2, 3, 5, 8, 13, 21, 40, 90, 5000};
    struct sim_plan p;
    struct sim_plan_result res;
    struct pt_err err;
    (void)state;

    sim_plan_init(&p);
    p.trace = tmp_trace;
    p.mode = SIM_MODE_DMAP;
    p.n_app = sizeof(sizes) / sizeof(sizes[0]);
    memcpy(p.app_entries, sizes, sizeof(sizes));
    p.mrc = 1;
    if (sim_plan_run(&p, &res, &err) < 0)
        fail_msg("%s", err.msg);
    assert_int_equal(res.n_rows, p.n_app);
    for (size_t i = 0; i < res.n_rows; i++) {
        const struct sim_curve_point *pt = curve_at(&res.curves[0], sizes[i]);
        double miss;
        assert_non_null(pt);
        assert_true(pt->given);
        assert_int_equal(sim_app_miss_ratio(&res.rows[i].app, &miss), 0);
        if (pt->hit_ratio != 1.0 - miss)
            fail_msg("%llu entries: curve %.17g, LRU run %.17g",
                     (unsigned long long)sizes[i], pt->hit_ratio, 1.0 - miss);
    }
    sim_plan_result_release(&res);
}

/*
 * A sampled application-tier curve: its given points are read off the
 * curve (equal to a sim_mrc fed the same references, not copied from the
 * fixed runs) and marked extrapolated below 1/R, as are the grid's. Its
 * error against the runs is checked on a Zipf trace in test_simulate.sh
 * (this trace has too few keys for a sample).
 */
static void test_plan_sampled_curve_given(void **state)
{
    const double rate = 0.05; /* 1/R = 20 entries */
    struct sim_plan p;
    struct sim_plan_result res;
    struct sim_trace_reader *r;
    struct sim_mrc *m = sim_mrc_new(rate, 1);
    struct sim_req q;
    struct pt_err err;
    size_t n_extra = 0;
    int rc;
    (void)state;

    sim_plan_init(&p);
    p.trace = tmp_trace;
    p.mode = SIM_MODE_DMAP;
    p.n_app = 4;
    p.app_entries[0] = 7;
    p.app_entries[1] = 50;
    p.app_entries[2] = 400;
    p.app_entries[3] = 3000;
    p.mrc = 1;
    p.sample_rate = rate;
    if (sim_plan_run(&p, &res, &err) < 0)
        fail_msg("%s", err.msg);
    assert_non_null(m);
    assert_int_equal(sim_trace_open(tmp_trace, SIM_TRACE_AUTO, &r, &err), 0);
    while ((rc = sim_trace_next(r, &q, &err)) == 1) {
        if (q.op == SIM_DEL)
            sim_mrc_remove(m, (uint32_t)q.key_id);
        else
            assert_int_equal(
                sim_mrc_access(m, (uint32_t)q.key_id, q.op == SIM_GET), 0);
    }
    assert_int_equal(rc, 0);
    sim_trace_close(r);
    assert_int_equal(res.n_curves, 1);
    for (size_t i = 0; i < res.n_rows; i++) {
        const struct sim_result_row *row = &res.rows[i];
        const struct sim_curve_point *pt =
            curve_at(&res.curves[0], row->app_entries);
        assert_non_null(pt);
        assert_true(pt->given);
        assert_true(pt->hit_ratio == sim_mrc_hit_ratio(m, pt->size));
        assert_int_equal(pt->extrapolated, row->app_entries < 20);
    }
    for (size_t j = 0; j < res.curves[0].n_points; j++) {
        const struct sim_curve_point *pt = &res.curves[0].points[j];
        assert_int_equal(pt->extrapolated, pt->size < 20);
        n_extra += (size_t)pt->extrapolated;
    }
    assert_true(n_extra >= 2); /* the grid's small sizes and 7 */
    sim_mrc_free(m);
    sim_plan_result_release(&res);
}

/* Rows in plan order, each equal to the hand-run simulator's. */
static void test_plan_rows_match_direct(void **state)
{
    struct sim_plan p;
    struct sim_plan_result res;
    struct pt_err err;
    size_t i = 0;
    (void)state;

    full_plan(&p);
    if (sim_plan_run(&p, &res, &err) < 0)
        fail_msg("%s", err.msg);
    assert_int_equal(res.requests, 20000);
    assert_int_equal(res.n_rows, 2 * 2 * 2);
    for (size_t a = 0; a < 2; a++) {
        struct sim *s = direct_sim(p.app_entries[a], a == 0);
        struct sim_app_stats app;
        sim_app_stats(s, &app);
        for (size_t t = 0; t < 2; t++)
            for (size_t k = 0; k < 2; k++, i++) {
                struct sim_db_stats d;
                const struct sim_result_row *r = &res.rows[i];
                sim_db_stats(s, t, k, &d);
                assert_int_equal(r->app_entries, p.app_entries[a]);
                assert_true(r->has_db);
                assert_int_equal(r->app.gets, app.gets);
                assert_int_equal(r->app.hits, app.hits);
                assert_int_equal(r->app.db_reads, app.db_reads);
                assert_db_equal(&r->db, &d);
            }
        if (a == 0) { /* the curves are the first run's */
            assert_int_equal(res.n_curves, 2);
            for (size_t t = 0; t < 2; t++) {
                const struct sim_curve *c = &res.curves[t];
                struct sim_mrc *m = sim_curve(s, t);
                assert_int_equal(c->page_size_bytes, t ? 16384 : 4096);
                assert_true(c->n_points > 1 && c->n_points <= 40);
                assert_true(c->n_brief > 1 && c->n_brief <= 12);
                assert_int_equal(c->points[0].size, 1);
                /* the grid ends at the largest useful size; a pool past
                   it is still a point (the last) */
                assert_true(curve_has(c, sim_mrc_max_size(m)));
                assert_int_equal(c->points[c->n_points - 1].size,
                                 largest_pool(&res, c->page_size_bytes) >
                                         sim_mrc_max_size(m)
                                     ? largest_pool(&res, c->page_size_bytes)
                                     : sim_mrc_max_size(m));
                for (size_t j = 0; j < c->n_points; j++) {
                    if (j)
                        assert_true(c->points[j].size > c->points[j - 1].size);
                    assert_true(c->points[j].hit_ratio ==
                                sim_mrc_hit_ratio(m, c->points[j].size));
                }
            }
        }
        sim_free(s);
    }
    /* 8M at 16K pages is 512 pages; 300 stays pages */
    assert_int_equal(res.rows[2].db.pool_pages, 512);
    assert_int_equal(res.rows[3].db.pool_pages, 300);
    assert_string_equal(res.engine, "db2");
    assert_string_equal(res.bp_policy, "lru");
    assert_ptr_equal(sim_plan_result_find(&res, 16384, NULL), &res.rows[2]);
    assert_null(sim_plan_result_find(&res, 8192, NULL));
    sim_plan_result_release(&res);
}

/* An open reader gives what the path gives; the application tier alone
 * has one row per run and no database config. */
static void test_plan_reader_and_app_only(void **state)
{
    struct sim_plan p;
    struct sim_plan_result a, b;
    struct sim_trace_reader *r;
    struct pt_err err;
    (void)state;

    sim_plan_init(&p);
    p.trace = tmp_trace;
    p.mode = SIM_MODE_COMMAND;
    p.n_app = 3;
    p.app_entries[0] = 1;
    p.app_entries[1] = 10;
    p.app_entries[2] = 100;
    assert_int_equal(sim_plan_run(&p, &a, &err), 0);
    assert_int_equal(sim_trace_open(tmp_trace, SIM_TRACE_AUTO, &r, &err), 0);
    p.reader = r;
    assert_int_equal(sim_plan_run(&p, &b, &err), 0);
    sim_trace_close(r);
    assert_int_equal(a.n_rows, 3);
    assert_int_equal(b.n_rows, 3);
    assert_false(a.has_db);
    assert_null(a.engine);
    assert_int_equal(a.distinct_keys, b.distinct_keys);
    for (size_t i = 0; i < 3; i++) {
        assert_false(a.rows[i].has_db);
        assert_int_equal(a.rows[i].app.misses, b.rows[i].app.misses);
        assert_int_equal(a.rows[i].app_entries, p.app_entries[i]);
    }
    /* a bigger command cache misses less */
    assert_true(a.rows[2].app.misses < a.rows[0].app.misses);
    sim_plan_result_release(&a);
    sim_plan_result_release(&b);
}

static void expect_usage(const struct sim_plan *p, const char *what)
{
    struct sim_plan_result res;
    struct pt_err err;

    err_clear(&err);
    assert_int_equal(sim_plan_check(p, &err), PT_EUSAGE);
    if (!strstr(err.msg, what))
        fail_msg("'%s' does not name '%s'", err.msg, what);
    assert_int_equal(sim_plan_run(p, &res, &err), PT_EUSAGE);
    sim_plan_result_release(&res);
}

static void test_plan_check(void **state)
{
    struct sim_plan p;
    struct sim_plan_result res;
    struct pt_err err;
    (void)state;

    full_plan(&p);
    assert_int_equal(sim_plan_check(&p, &err), 0);
    p.page_sizes[1] = 12288;
    expect_usage(&p, "`page_size`: 12K is not a page size of engine db2");
    full_plan(&p);
    p.pools[0] = (struct sim_pool_size){8192, 1};
    expect_usage(&p, "`bufferpool`: 8K holds no 16K page");
    full_plan(&p);
    p.n_app = 0;
    expect_usage(&p, "needs `app_cache`");
    full_plan(&p);
    p.mode = SIM_MODE_NONE;
    expect_usage(&p, "does not apply");
    full_plan(&p);
    p.engine = NULL;
    expect_usage(&p, "engine");
    full_plan(&p);
    p.trace = "/nonexistent/trace.csv";
    assert_int_equal(sim_plan_run(&p, &res, &err), PT_ENOINPUT);
    sim_plan_result_release(&res);
}

/* to_json(from_json(to_json(x))) is to_json(x), text for text. */
static char *round_trip(const struct sim_plan_result *res,
                        struct sim_plan_result *back)
{
    json_t *doc = sim_plan_result_to_json(res), *doc2;
    char *s1, *s2;
    struct pt_err err;

    assert_non_null(doc);
    if (sim_plan_result_from_json(back, doc, "simulation.json", &err) < 0)
        fail_msg("%s", err.msg);
    doc2 = sim_plan_result_to_json(back);
    s1 = json_dumps(doc, JSON_INDENT(2));
    s2 = json_dumps(doc2, JSON_INDENT(2));
    assert_string_equal(s1, s2);
    json_decref(doc);
    json_decref(doc2);
    free(s2);
    return s1;
}

static void test_json_round_trip(void **state)
{
    struct sim_plan p;
    struct sim_plan_result res, back, app, app_back;
    struct pt_err err;
    char *text;
    (void)state;

    full_plan(&p);
    p.sharing = SIM_SHARE_PUSH_PULL;
    p.servers = 3;
    p.offload_entries = 77;
    assert_int_equal(sim_plan_run(&p, &res, &err), 0);
    text = round_trip(&res, &back);
    assert_non_null(strstr(text, "\"sharing\": \"shared-push-pull\""));
    assert_non_null(strstr(text, "\"bufferpool_bytes\": 8388608"));
    assert_int_equal(back.n_rows, res.n_rows);
    assert_int_equal(back.servers, 3);
    assert_int_equal(back.offload_entries, 77);
    assert_int_equal(back.sharing, SIM_SHARE_PUSH_PULL);
    assert_string_equal(back.trace, tmp_trace);
    for (size_t i = 0; i < res.n_rows; i++) {
        assert_db_equal(&back.rows[i].db, &res.rows[i].db);
        assert_memory_equal(&back.rows[i].app, &res.rows[i].app,
                            sizeof(struct sim_app_stats));
    }
    assert_int_equal(back.n_curves, 2);
    assert_int_equal(back.curves[1].n_brief, 0); /* not in the document */
    assert_memory_equal(back.curves[1].points, res.curves[1].points,
                        res.curves[1].n_points *
                            sizeof(struct sim_curve_point));
    free(text);

    /* the application tier alone: null page size, curve of entries */
    sim_plan_init(&p);
    p.trace = tmp_trace;
    p.mode = SIM_MODE_DMAP;
    p.n_app = 1;
    p.app_entries[0] = 20;
    p.mrc = 1;
    p.sample_rate = 0.5;
    assert_int_equal(sim_plan_run(&p, &app, &err), 0);
    text = round_trip(&app, &app_back);
    assert_non_null(strstr(text, "\"page_size\": null"));
    assert_non_null(strstr(text, "\"tier\": \"app\""));
    assert_null(strstr(text, "\"engine\""));
    assert_int_equal(app_back.curves[0].page_size_bytes, 0);
    assert_true(app_back.curves[0].sample_rate == 0.5);
    free(text);
    sim_plan_result_release(&res);
    sim_plan_result_release(&back);
    sim_plan_result_release(&app);
    sim_plan_result_release(&app_back);
}

/* The comparison form: rows marked by setting, the second one's curves. */
static void test_json_comparison(void **state)
{
    struct sim_plan p;
    struct sim_plan_result cur, rec, cmp, back;
    struct pt_err err;
    const struct sim_result_row *r;
    char *text;
    (void)state;

    full_plan(&p);
    p.mode = SIM_MODE_NONE;
    p.n_app = 0;
    p.n_page_sizes = 1;
    p.n_pools = 1;
    p.mrc = 0;
    assert_int_equal(sim_plan_run(&p, &cur, &err), 0);
    p.mrc = 1;
    p.pools[0].value = 1u << 20;
    assert_int_equal(sim_plan_run(&p, &rec, &err), 0);
    assert_int_equal(sim_plan_result_compare(&cur, &rec, "inline_length", 1000,
                                             3000, &cmp, &err),
                     0);
    text = round_trip(&cmp, &back);
    assert_non_null(strstr(text, "\"knob\": \"inline_length\""));
    assert_null(strstr(text, "\"config\""));
    assert_true(back.comparison);
    assert_true(back.knob_recommended == 3000);
    assert_int_equal(back.n_rows, 2);
    assert_int_equal(back.n_curves, 1);
    r = sim_plan_result_find(&back, 4096, "recommended");
    assert_non_null(r);
    assert_string_equal(r->setting, "recommended");
    assert_int_equal(r->db.pool_pages, 256);
    r = sim_plan_result_find(&back, 4096, "current");
    assert_int_equal(r->db.pool_pages, 2048);
    free(text);
    sim_plan_result_release(&cur);
    sim_plan_result_release(&rec);
    sim_plan_result_release(&cmp);
    sim_plan_result_release(&back);
}

/* Broken documents are PT_EDATA naming the document and the key. */
static void test_json_refused(void **state)
{
    static const struct {
        const char *doc, *key;
    } bad[] = {
        {"[]", "not a JSON object"},
        {"{\"schema_version\": 2}", "schema_version"},
        {"{\"schema_version\": 1, \"trace\": \"t\", \"distinct_keys\": 1}",
         "config"},
        {"{\"schema_version\": 1, \"trace\": \"t\", \"distinct_keys\": 1, "
         "\"config\": {\"cache_mode\": \"lots\", \"sharing\": \"not-shared\", "
         "\"app_policy\": \"lru\"}}",
         "lots"},
        {"{\"schema_version\": 1, \"comparison\": {\"knob\": \"k\", "
         "\"current\": 1, \"recommended\": 2}, \"results\": {}}",
         "results"},
        {"{\"schema_version\": 1, \"comparison\": {\"knob\": \"k\", "
         "\"current\": 1, \"recommended\": 2}, \"results\": [{\"app_entries\": "
         "1, \"app\": {\"requests\": 1}}]}",
         "gets"},
        {"{\"schema_version\": 1, \"comparison\": {\"knob\": \"k\", "
         "\"current\": 1, \"recommended\": 2}, \"results\": [], \"mrc\": "
         "[{\"sample_rate\": 1, \"points\": 3}]}",
         "points"},
    };
    (void)state;

    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        struct sim_plan_result res;
        struct pt_err err;
        json_error_t je;
        json_t *doc = json_loads(bad[i].doc, 0, &je);
        assert_non_null(doc);
        err_clear(&err);
        assert_int_equal(sim_plan_result_from_json(&res, doc, "x.json", &err),
                         PT_EDATA);
        if (!strstr(err.msg, "x.json") || !strstr(err.msg, bad[i].key))
            fail_msg("doc %zu: '%s' does not name '%s'", i, err.msg,
                     bad[i].key);
        sim_plan_result_release(&res);
        json_decref(doc);
    }
}

/* article-4k's objects are 4000 bytes: object_bytes = 4000 x (gets + sets),
 * the mean sim_app_object_bytes gives back; a prediction (filled by the
 * caller) survives the round trip, an old row without either still reads. */
static void test_json_object_bytes_and_predicted(void **state)
{
    struct sim_plan p;
    struct sim_plan_result res, back;
    struct sim_predicted *pr;
    struct pt_err err;
    double mean = 0;
    json_t *doc;
    (void)state;

    full_plan(&p);
    p.mrc = 0;
    if (sim_plan_run(&p, &res, &err) < 0)
        fail_msg("%s", err.msg);
    for (size_t i = 0; i < res.n_rows; i++) {
        const struct sim_app_stats *a = &res.rows[i].app;
        assert_int_equal(a->object_bytes, 4000 * (a->gets + a->sets));
        assert_int_equal(sim_app_object_bytes(a, &mean), 0);
        assert_true(mean == 4000.0);
    }
    pr = &res.rows[1].predicted;
    pr->present = 1;
    pr->clients = 47;
    pr->think_ms = 5;
    pr->req_per_s = 139.868612;
    pr->response_ms = 331.029644;
    snprintf(pr->bottleneck, sizeof(pr->bottleneck), "app_cpu");
    pr->n_util = 2;
    snprintf(pr->util[0].name, SIM_PRED_NAME, "app_cpu");
    pr->util[0].util = 0.999;
    snprintf(pr->util[1].name, SIM_PRED_NAME, "db_disk");
    pr->util[1].util = 0.25;
    pr->calibrated = 1;
    snprintf(pr->calibration, sizeof(pr->calibration), "article-000");
    pr->has_range = 1;
    pr->req_per_s_lo = 133.3;
    pr->req_per_s_hi = 146.5;
    pr->response_ms_lo = 320;
    pr->response_ms_hi = 342;
    doc = sim_plan_result_to_json(&res);
    assert_non_null(doc);
    assert_null(json_object_get(
        json_array_get(json_object_get(doc, "results"), 0), "predicted"));
    if (sim_plan_result_from_json(&back, doc, "sim.json", &err) < 0)
        fail_msg("%s", err.msg);
    assert_int_equal(back.n_rows, res.n_rows);
    for (size_t i = 0; i < res.n_rows; i++) {
        assert_int_equal(back.rows[i].app.object_bytes,
                         res.rows[i].app.object_bytes);
        assert_int_equal(back.rows[i].predicted.present, i == 1);
    }
    pr = &back.rows[1].predicted;
    assert_int_equal(pr->clients, 47);
    assert_true(pr->think_ms == 5 && pr->req_per_s == 139.868612 &&
                pr->response_ms == 331.029644);
    assert_string_equal(pr->bottleneck, "app_cpu");
    assert_int_equal(pr->n_util, 2);
    assert_string_equal(pr->util[1].name, "db_disk");
    assert_true(pr->util[1].util == 0.25);
    assert_true(pr->calibrated && pr->has_range);
    assert_string_equal(pr->calibration, "article-000");
    assert_true(pr->req_per_s_lo == 133.3 && pr->req_per_s_hi == 146.5 &&
                pr->response_ms_lo == 320 && pr->response_ms_hi == 342);
    sim_plan_result_release(&back);

    /* a bad range is refused, naming the key */
    json_object_set_new(
        json_object_get(json_array_get(json_object_get(doc, "results"), 1),
                        "predicted"),
        "range",
        json_pack("{s:[f], s:[f,f]}", "req_per_s", 1.0, "response_ms", 1.0,
                  2.0));
    err_clear(&err);
    assert_int_equal(sim_plan_result_from_json(&back, doc, "sim.json", &err),
                     PT_EDATA);
    assert_non_null(strstr(err.msg, "predicted.range.req_per_s"));
    sim_plan_result_release(&back);

    /* an older document: no object_bytes, no predicted */
    json_object_del(
        json_object_get(json_array_get(json_object_get(doc, "results"), 0),
                        "app"),
        "object_bytes");
    json_object_del(json_array_get(json_object_get(doc, "results"), 1),
                    "predicted");
    if (sim_plan_result_from_json(&back, doc, "sim.json", &err) < 0)
        fail_msg("%s", err.msg);
    assert_int_equal(back.rows[0].app.object_bytes, 0);
    assert_int_equal(sim_app_object_bytes(&back.rows[0].app, &mean), -1);
    assert_false(back.rows[1].predicted.present);
    sim_plan_result_release(&back);
    json_decref(doc);
    sim_plan_result_release(&res);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_plan_rows_match_direct),
        cmocka_unit_test(test_plan_curve_through_pools),
        cmocka_unit_test(test_plan_app_curve_through_caches),
        cmocka_unit_test(test_plan_sampled_curve_given),
        cmocka_unit_test(test_plan_reader_and_app_only),
        cmocka_unit_test(test_plan_check),
        cmocka_unit_test(test_json_round_trip),
        cmocka_unit_test(test_json_comparison),
        cmocka_unit_test(test_json_refused),
        cmocka_unit_test(test_json_object_bytes_and_predicted),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
