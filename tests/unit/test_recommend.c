/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_recommend.c — unit tests for recommend/: the cost model and the
 * recommendation (the founding article's inflection points), the advice per
 * engine, the change rule, reconciliation, the host's memory, the
 * configuration in use, recommendation.json both ways and its limits, and
 * drift. collect/'s readers build the sizes and monitor inputs from
 * documents, as advise does. The model's own tests are test_model.c.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "recommend/recommend.h"
#include "collect/collect.h"

static struct rec_engine db2;
static struct rec_device hdd, ssd;

static int load_profiles(void **state)
{
    struct pt_err err;
    json_t *p;
    (void)state;

    if (prof_load_named("engines", "db2", &p, &err) < 0) {
        print_error("%s\n", err.msg);
        return -1;
    }
    if (rec_engine_from_json(&db2, p, "db2.yaml", &err) < 0) {
        print_error("%s\n", err.msg);
        json_decref(p);
        return -1;
    }
    json_decref(p);
    if (prof_load_named("devices", "hdd", &p, &err) < 0)
        return -1;
    if (rec_device_from_json(&hdd, p, "hdd.yaml", &err) < 0)
        return -1;
    json_decref(p);
    if (prof_load_named("devices", "ssd", &p, &err) < 0)
        return -1;
    if (rec_device_from_json(&ssd, p, "ssd.yaml", &err) < 0)
        return -1;
    json_decref(p);
    return 0;
}

static void test_drift(void **state)
{
    struct rec_current cur = {4096, 1000};
    char why[256];
    (void)state;

    assert_int_equal(rec_drift(&cur, 4096, 1000, 0.1, why, sizeof(why)), 0);
    assert_int_equal(rec_drift(&cur, 4096, 1050, 0.1, why, sizeof(why)), 0);
    assert_int_equal(rec_drift(&cur, 8192, 1000, 0.1, why, sizeof(why)), 1);
    assert_non_null(strstr(why, "page size"));
    assert_int_equal(rec_drift(&cur, 4096, 5000, 0.1, why, sizeof(why)), 1);
    assert_non_null(strstr(why, "buffer pool"));
    cur.bufferpool_pages = 0; /* unknown: not compared */
    assert_int_equal(rec_drift(&cur, 4096, 5000, 0.1, why, sizeof(why)), 0);
}

/* Run the model on n copies of one size with the default options. */
static uint32_t recommend_uniform(uint64_t size, size_t n)
{
    uint64_t *v = calloc(n, sizeof(*v));
    struct rec_inputs in = {0};
    struct rec_result *r = calloc(1, sizeof(*r));
    struct pt_err err;
    uint32_t ps;

    assert_non_null(v);
    assert_non_null(r);
    for (size_t i = 0; i < n; i++)
        v[i] = size;
    in.engine = &db2;
    in.device = &ssd;
    in.sizes = v;
    in.n_sizes = n;
    assert_int_equal(rec_recommend(r, &in, &err), 0);
    assert_int_equal(r->chosen_by_cost, 0);
    ps = r->cand[r->chosen_idx].page_size_bytes;
    free(v);
    free(r);
    return ps;
}

static void test_inflection_points(void **state)
{
    (void)state;
    /* the founding article: 4 KB, 10 KB, 30 KB objects step at 8/16/32 K */
    assert_int_equal(recommend_uniform(2000, 100), 4096);
    assert_int_equal(recommend_uniform(4000, 100), 8192);
    assert_int_equal(recommend_uniform(10000, 100), 16384);
    assert_int_equal(recommend_uniform(30000, 100), 32768);
    /* exactly at the SMALL limits */
    assert_int_equal(recommend_uniform(3122, 10), 4096);
    assert_int_equal(recommend_uniform(3123, 10), 8192);
    assert_int_equal(recommend_uniform(31794, 10), 32768);
}

static void test_target_crossing(void **state)
{
    /* 93 % fit 4K, 96 % fit 8K, all fit 16K */
    uint64_t v[100];
    struct rec_inputs in = {0};
    struct rec_result *r = calloc(1, sizeof(*r));
    struct pt_err err;
    (void)state;

    for (size_t i = 0; i < 100; i++)
        v[i] = i < 93 ? 2000 : i < 96 ? 6000 : 12000;
    in.engine = &db2;
    in.device = &ssd;
    in.sizes = v;
    in.n_sizes = 100;
    assert_int_equal(rec_recommend(r, &in, &err), 0);
    assert_true(fabs(r->cand[0].inline_fraction - 0.93) < 1e-9);
    assert_true(fabs(r->cand[1].inline_fraction - 0.96) < 1e-9);
    assert_int_equal(r->cand[r->chosen_idx].page_size_bytes, 8192);
    in.inline_target = 0.97;
    assert_int_equal(rec_recommend(r, &in, &err), 0);
    assert_int_equal(r->cand[r->chosen_idx].page_size_bytes, 16384);
    in.inline_target = 0.90;
    assert_int_equal(rec_recommend(r, &in, &err), 0);
    assert_int_equal(r->cand[r->chosen_idx].page_size_bytes, 4096);
    /* the arithmetic a DBA redoes: 4K direct reads = 7 % of accesses */
    assert_true(fabs(r->cand[0].direct_reads - 0.07) < 1e-9);
    assert_true(fabs(r->cand[0].outline_fraction[0] - 0.07) < 1e-9);
    /* sectors: 3 x 6000 -> 6144, 4 x 12000 -> 12288 bytes / 512 */
    assert_true(fabs(r->cand[0].direct_sectors - (3 * 12.0 + 4 * 24.0) / 100) <
                1e-9);
    in.inline_target = 1.5;
    assert_int_equal(rec_recommend(r, &in, &err), PT_EDATA);
    free(r);
}

static void test_memory_changes_choice(void **state)
{
    /* 2000-byte sessions: one row per 4K page (54 % full), seven per 16K.
     * Ample memory: 4K by the rule. Tight memory at 100k sessions: a
     * 16K pool of the same bytes caches 75 % more rows, the model moves. */
    uint64_t v[100];
    struct rec_inputs in = {0};
    struct rec_result *r = calloc(1, sizeof(*r));
    struct pt_err err;
    json_t *doc;
    (void)state;

    for (size_t i = 0; i < 100; i++)
        v[i] = 2000;
    in.engine = &db2;
    in.device = &hdd;
    in.sizes = v;
    in.n_sizes = 100;
    in.memory_bytes = 1ULL << 30;
    in.memory_given = 1;
    in.sessions = 100000;
    assert_int_equal(rec_recommend(r, &in, &err), 0);
    assert_int_equal(r->cand[r->chosen_idx].page_size_bytes, 4096);
    assert_int_equal(r->cand[0].bufferpool_pages, 262144);
    assert_int_equal(r->cand[3].bufferpool_pages, 32768);
    assert_true(r->cand[0].hit_ratio == 1.0);

    in.memory_bytes = 64ULL << 20;
    assert_int_equal(rec_recommend(r, &in, &err), 0);
    assert_int_equal(r->cand[0].bufferpool_pages, 16384);
    /* 4K: 1 row/page -> 100000 data pages, hit 16384/100000 */
    assert_true(fabs(r->cand[0].rows_per_page - 1.0) < 1e-9);
    assert_true(fabs(r->cand[0].hit_ratio - 0.16384) < 1e-9);
    assert_true(r->chosen_by_cost);
    assert_true(r->cand[r->chosen_idx].page_size_bytes > 4096);
    assert_true(r->cand[r->chosen_idx].io_ms < r->cand[0].io_ms * 0.9);
    assert_non_null(strstr(r->reasons[0], "cost model"));

    doc = rec_result_to_json(r, &db2, NULL);
    assert_non_null(doc);
    assert_int_equal(json_integer_value(json_object_get(doc, "schema_version")),
                     1);
    assert_string_equal(json_string_value(json_object_get(doc, "decided_by")),
                        "cost_model");
    assert_int_equal(json_array_size(json_object_get(doc, "candidates")), 4);
    {
        json_t *bp = json_object_get(doc, "bufferpool");
        json_t *ts = json_object_get(doc, "tablespace");
        json_int_t ps = json_integer_value(json_object_get(doc, "page_size"));
        assert_int_equal(json_integer_value(json_object_get(bp, "page_size")),
                         ps);
        assert_int_equal(json_integer_value(json_object_get(ts, "page_size")),
                         ps);
        assert_true(
            json_integer_value(json_object_get(ts, "extent_size")) >= 2 &&
            json_integer_value(json_object_get(ts, "extent_size")) <= 256);
        /* TRANSFERRATE follows the page size: 100 MB/s hdd */
        assert_true(fabs(json_real_value(json_object_get(ts, "transfer_rate")) -
                         0.04 * (double)ps / 4096) < 1e-6);
    }
    json_decref(doc);
    free(r);
}

static void test_trace_model(void **state)
{
    /* 1000 sessions of 1000 bytes, 10 hot ones get all reads: a tiny pool
     * still hits almost always */
    uint64_t sizes[1000], gets[1000];
    struct rec_access a = {1000, sizes, gets};
    struct rec_inputs in = {0};
    struct rec_result *r = calloc(1, sizeof(*r));
    struct pt_err err;
    (void)state;

    for (size_t i = 0; i < 1000; i++) {
        sizes[i] = 1000;
        gets[i] = i % 100 == 0 ? 1000 : 0;
    }
    in.engine = &db2;
    in.device = &hdd;
    in.access = &a;
    in.memory_bytes = 32 * 32768;
    in.memory_given = 1;
    assert_int_equal(rec_recommend(r, &in, &err), 0);
    assert_int_equal(r->sessions, 1000);
    for (size_t i = 0; i < r->n_cand; i++)
        assert_true(r->cand[i].hit_ratio > 0.99);
    /* uniform popularity, pool of 10 pages out of ~40 at 32K: LRU ~ 1/4 */
    for (size_t i = 0; i < 1000; i++)
        gets[i] = 1;
    in.memory_bytes = 10 * 32768;
    assert_int_equal(rec_recommend(r, &in, &err), 0);
    assert_true(r->cand[3].hit_ratio > 0.2 && r->cand[3].hit_ratio < 0.3);
    free(r);
}

static void test_monitor(void **state)
{
    struct rec_monitor m;
    struct pt_err err;
    json_t *doc = json_loads(
        "{\"schema_version\":1,\"engine\":\"db2\",\"current\":{\"page_size\":"
        "4096,\"bufferpool_pages\":1000,\"bufferpool_bytes\":4096000},"
        "\"summary\":{\"hit_ratio\":50.0,\"logical_reads\":100,"
        "\"physical_reads\":50,\"direct_reads\":10,\"direct_read_share\":0.1}}",
        0, NULL);
    uint64_t v[10];
    struct rec_inputs in = {0};
    struct rec_result *r = calloc(1, sizeof(*r));
    (void)state;

    assert_int_equal(coll_monitor_doc_from_json(&m, doc, "m.json", &err), 0);
    assert_int_equal(m.page_size_bytes, 4096);
    assert_int_equal(m.bufferpool_pages, 1000);
    assert_true(fabs(m.hit_ratio_pct - 50) < 1e-9);
    for (size_t i = 0; i < 10; i++)
        v[i] = 2000;
    in.engine = &db2;
    in.device = &ssd;
    in.sizes = v;
    in.n_sizes = 10;
    in.monitor = &m;
    assert_int_equal(rec_recommend(r, &in, &err), 0);
    /* memory = the current pool; no row count: one row per size given,
     * never rows inferred from the hit ratio (issue 14: 2000 here) */
    assert_int_equal(r->memory_bytes, 4096000);
    assert_int_equal(r->sessions, 10);
    assert_non_null(strstr(r->sessions_basis, "no row count"));
    /* 10 rows of 2000 bytes in a 1000-page pool: all cached */
    assert_true(fabs(r->cand[0].hit_ratio - 1.0) < 1e-9);
    json_object_set_new(json_object_get(doc, "summary"), "hit_ratio",
                        json_real(150));
    assert_int_equal(coll_monitor_doc_from_json(&m, doc, "m.json", &err),
                     PT_EDATA);
    json_object_del(doc, "current");
    assert_int_equal(coll_monitor_doc_from_json(&m, doc, "m.json", &err),
                     PT_EDATA);
    assert_non_null(strstr(err.msg, "m.json"));
    json_decref(doc);
    free(r);
}

static void test_out_of_memory(void **state)
{
    /* sizes parsing and the trace model under failing allocations */
    uint64_t sizes[300], gets[300];
    struct rec_access a = {300, sizes, gets};
    char text[16000];
    size_t len = 0;
    (void)state;

    for (size_t i = 0; i < 300; i++) {
        sizes[i] = 1000 + i * 10;
        gets[i] = i % 7;
    }
    for (int i = 0; i < 1500; i++)
        len += (size_t)snprintf(text + len, sizeof(text) - len, "%d\n", i);
    for (long n = 0; n < 6; n++) {
        struct rec_sizes s;
        struct rec_inputs in = {0};
        struct rec_result *r = calloc(1, sizeof(*r));
        struct pt_err err;
        int rc;

        assert_non_null(r);
        pt_alloc_fail_after(n);
        rc = rec_sizes_parse_text(&s, text, len, "oom.txt", &err);
        pt_alloc_fail_after(-1);
        if (rc == 0) {
            assert_int_equal(s.n, 1500);
            rec_sizes_release(&s);
        } else {
            assert_int_equal(rc, PT_EINTERNAL);
            assert_null(s.values);
        }
        in.engine = &db2;
        in.device = &ssd;
        in.access = &a;
        in.memory_bytes = 1 << 20;
        in.memory_given = 1;
        pt_alloc_fail_after(n);
        rc = rec_recommend(r, &in, &err);
        pt_alloc_fail_after(-1);
        assert_true(rc == 0 || rc == PT_EINTERNAL);
        free(r);
    }
}

/* ---- other engines (issue 5) -------------------------------------------- */

static int load_engine(const char *name, struct rec_engine *e)
{
    struct pt_err err;
    json_t *p;
    int rc;

    if (prof_load_named("engines", name, &p, &err) < 0) {
        print_error("%s\n", err.msg);
        return -1;
    }
    rc = rec_engine_from_json(e, p, name, &err);
    if (rc < 0)
        print_error("%s\n", err.msg);
    json_decref(p);
    return rc;
}

static const char *setting(const struct rec_result *r, const char *name)
{
    for (size_t i = 0; i < r->n_settings; i++)
        if (strcmp(r->settings[i].name, name) == 0)
            return r->settings[i].value;
    return NULL;
}

static int has_reason(const struct rec_result *r, const char *needle)
{
    for (size_t i = 0; i < r->n_reasons; i++)
        if (strstr(r->reasons[i], needle))
            return 1;
    return 0;
}

/*
 * One current state for every command (issue 22): with a monitor that
 * reports no page size, every engine's current page size is its profile's
 * default (else its documented default), marked assumed, and the pool the
 * candidate's at that page size; with a monitored page size and pool both
 * are the server's.
 */
static void test_current_config_every_engine(void **state)
{
    static const struct {
        const char *engine;
        uint32_t assumed_page; /* the profile's, else the documented one */
        uint32_t served_page;  /* a page size the engine has */
    } cases[] = {
        {"db2", 4096, 16384},
        {"postgresql", 8192, 8192},
        {"mysql", 16384, 32768},
        {"sqlite", 4096, 8192},
    };
    uint64_t sizes[] = {1000, 3000, 6000, 12000, 20000};
    (void)state;

    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        struct rec_engine e;
        struct rec_monitor mon = {0};
        struct rec_inputs in = {0};
        struct rec_current_config cc;
        struct rec_result *r = calloc(1, sizeof(*r));
        struct pt_err err;

        assert_non_null(r);
        assert_int_equal(load_engine(cases[i].engine, &e), 0);
        in.engine = &e;
        in.device = &ssd;
        in.sizes = sizes;
        in.n_sizes = 5;
        mon.present = 1; /* a window, but no page size read */
        in.monitor = &mon;
        assert_int_equal(rec_recommend(r, &in, &err), 0);
        rec_current_config(r, &e, &mon, &cc);
        assert_int_equal(cc.page_size_bytes, cases[i].assumed_page);
        assert_true(cc.page_assumed);
        assert_true(cc.pool_assumed);
        assert_true(strcmp(cc.page_basis, "server") != 0);
        assert_true(cc.pool_pages > 0);

        /* the server's page size and pool */
        mon.page_size_bytes = cases[i].served_page;
        mon.bufferpool_pages = 777;
        snprintf(mon.engine, sizeof(mon.engine), "%s", cases[i].engine);
        memset(r, 0, sizeof(*r));
        assert_int_equal(rec_recommend(r, &in, &err), 0);
        rec_current_config(r, &e, &mon, &cc);
        assert_int_equal(cc.page_size_bytes, cases[i].served_page);
        assert_false(cc.page_assumed);
        assert_string_equal(cc.page_basis, "server");
        assert_int_equal(cc.pool_pages, 777);
        assert_false(cc.pool_assumed);
        free(r);
    }
}

/*
 * A histogram's cost is its bins, never its objects (issue 13): read,
 * analyse and recommend from 64 bins of `per_bin` objects each, with
 * pt_alloc_fail_after() granting n = 0, 1, ... allocations until the run
 * succeeds. Returns that n, the run's number of pt_* allocations; every
 * smaller budget must fail cleanly with PT_EINTERNAL.
 */
static long hist_run(uint64_t per_bin, struct rec_size_stats *st,
                     struct rec_result *r)
{
    json_t *doc = json_object(), *hist = json_array();

    assert_non_null(doc);
    assert_non_null(hist);
    for (int i = 0; i < 64; i++)
        json_array_append_new(hist, json_pack("{s:I,s:I}", "le",
                                              (json_int_t)(1024 + i * 4096),
                                              "count", (json_int_t)per_bin));
    json_object_set_new(doc, "histogram", hist);
    for (long n = 0; n < 1000; n++) {
        struct rec_sizes s;
        struct rec_inputs in = {0};
        struct pt_err err;
        int rc;

        pt_alloc_fail_after(n);
        rc = coll_sizes_doc_from_json(&s, doc, "h.json", &err);
        if (rc == 0)
            rc = rec_sizes_stats(&s, st, &err);
        if (rc == 0) {
            in.engine = &db2;
            in.device = &ssd;
            in.sizes = s.values;
            in.size_counts = s.counts;
            in.n_sizes = s.n;
            in.sizes_from_histogram = 1;
            rc = rec_recommend(r, &in, &err);
        }
        pt_alloc_fail_after(-1);
        rec_sizes_release(&s);
        if (rc == 0) {
            json_decref(doc);
            return n;
        }
        assert_int_equal(rc, PT_EINTERNAL);
    }
    fail_msg("the histogram run never succeeded");
    return -1;
}

static void test_histogram_bins_only(void **state)
{
    struct rec_size_stats one, big;
    struct rec_result *r1 = calloc(1, sizeof(*r1)),
                      *rb = calloc(1, sizeof(*rb));
    long a1, ab;
    (void)state;

    assert_non_null(r1);
    assert_non_null(rb);
    a1 = hist_run(1, &one, r1);
    /* 10^12 objects: one allocation per object would need 8 TB */
    ab = hist_run(15625000000ULL, &big, rb);
    assert_int_equal(one.count, 64);
    assert_true(big.count == 1000000000000ULL);
    /* the same allocations whatever the counts: O(bins) memory */
    assert_int_equal(a1, ab);
    assert_true(ab < 16);
    /* the same distribution, so the same statistics and choice */
    assert_int_equal(big.p50, one.p50);
    assert_int_equal(big.p50, 1024 + 31 * 4096);
    assert_int_equal(big.p90, one.p90);
    assert_int_equal(big.p99, 1024 + 63 * 4096);
    assert_int_equal(big.min, 1024);
    assert_int_equal(big.max, 1024 + 63 * 4096);
    assert_true(fabs(big.mean - one.mean) < 1e-6);
    assert_int_equal(big.n_bins, one.n_bins);
    for (size_t i = 0; i < big.n_bins; i++)
        assert_true(big.bins[i].count == one.bins[i].count * 15625000000ULL);
    assert_int_equal(rb->cand[rb->chosen_idx].page_size_bytes,
                     r1->cand[r1->chosen_idx].page_size_bytes);
    for (size_t i = 0; i < rb->n_cand; i++)
        assert_true(fabs(rb->cand[i].inline_fraction -
                         r1->cand[i].inline_fraction) < 1e-12);
    assert_true(rb->sessions == 1000000000000ULL);
    free(r1);
    free(rb);
}

/* One table of limits at every reader's border (model/limits.c). */
static void test_limits(void **state)
{
    struct rec_sizes s;
    struct rec_doc d;
    struct rec_engine e;
    struct pt_err err;
    json_t *prof, *doc;
    (void)state;

    /* the table itself: closed and open minimums, NaN, exact u64 */
    assert_int_equal(rec_limit_check(REC_LIM_TRANSFER_MS, 0, "f", "t", &err),
                     PT_EDATA);
    assert_non_null(strstr(err.msg, "f: t 0 is outside (0..1000"));
    assert_int_equal(rec_limit_check(REC_LIM_TRANSFER_MS, 1000, "f", "t", &err),
                     0);
    assert_int_equal(rec_limit_check(REC_LIM_OVERHEAD_MS, NAN, NULL, "o", &err),
                     PT_EDATA);
    assert_int_equal(
        rec_limit_check_u64(REC_LIM_POOL_PAGES, UINT64_MAX, NULL, "p", &err),
        PT_EDATA);
    assert_non_null(strstr(err.msg, "p 18446744073709551615 is outside"));
    assert_int_equal(rec_limit_check_u64(REC_LIM_SIZE_BYTES, REC_MAX_SIZE_BYTES,
                                         NULL, "s", &err),
                     0);

    /* sizes: above 2^53 refused with file and line */
    assert_int_equal(
        rec_sizes_parse_text(&s, "1\n9007199254740993\n", 19, "t.txt", &err),
        PT_EDATA);
    assert_non_null(strstr(err.msg, "t.txt:2: size 9007199254740993"));
    assert_null(s.values);

    /* a recommendation: page_size 0 and a negative transfer_rate */
    doc = json_loads("{\"engine\":\"db2\",\"bufferpool\":{\"name\":\"B\","
                     "\"page_size\":0,\"pages\":1000},\"tablespace\":{"
                     "\"name\":\"T\",\"page_size\":0,\"extent_size\":32,"
                     "\"prefetch_size\":\"AUTOMATIC\",\"overhead\":0.1,"
                     "\"transfer_rate\":0.016}}",
                     0, NULL);
    assert_non_null(doc);
    assert_int_equal(rec_result_from_json(&d, doc, NULL, "r.json", &err),
                     PT_EDATA);
    assert_non_null(strstr(err.msg, "r.json: tablespace.page_size 0"));
    json_object_set_new(json_object_get(doc, "bufferpool"), "page_size",
                        json_integer(8192));
    json_object_set_new(json_object_get(doc, "tablespace"), "page_size",
                        json_integer(8192));
    assert_int_equal(rec_result_from_json(&d, doc, NULL, "r.json", &err), 0);
    rec_doc_release(&d);
    json_object_set_new(json_object_get(doc, "tablespace"), "transfer_rate",
                        json_real(-1));
    assert_int_equal(rec_result_from_json(&d, doc, NULL, "r.json", &err),
                     PT_EDATA);
    assert_non_null(strstr(err.msg, "tablespace.transfer_rate -1"));
    json_decref(doc);

    /* an engine profile whose byte counts would wrap a 32-bit row size */
    assert_int_equal(prof_load_named("engines", "db2", &prof, &err), 0);
    json_object_set_new(prof, "row_fixed_bytes", json_integer(4294967295LL));
    assert_int_equal(rec_engine_from_json(&e, prof, "db2.yaml", &err),
                     PT_EDATA);
    assert_non_null(strstr(err.msg, "db2.yaml: row_fixed_bytes 4294967295"));
    json_decref(prof);
}

static void test_postgresql_knob(void **state)
{
    /* 3 KB objects: TOASTed at the default, inline at the tuned target */
    struct rec_engine e;
    uint64_t v[200];
    struct rec_inputs in = {0};
    struct rec_result *r = calloc(1, sizeof(*r));
    struct pt_err err;
    json_t *doc;
    (void)state;

    assert_int_equal(load_engine("postgresql", &e), 0);
    for (size_t i = 0; i < 200; i++)
        v[i] = 3072;
    in.engine = &e;
    in.device = &ssd;
    in.sizes = v;
    in.n_sizes = 200;
    assert_int_equal(rec_recommend(r, &in, &err), 0);
    assert_int_equal(r->cand[0].page_size_bytes, 8192);
    assert_true(r->cand[0].inline_fraction == 0);
    /* heap page + 2 TOAST index pages + 1 chunk page */
    assert_true(fabs(r->cand[0].buffered_reads - 4.0) < 1e-9);
    assert_true(r->knob_evaluated);
    assert_true(r->knob_pays);
    /* 3072 + offset, rounded up to MAXALIGN */
    assert_int_equal(r->knob_value, (3072 + e.knob.offset_bytes + 7) / 8 * 8);
    assert_true(r->tuned.inline_fraction == 1.0);
    assert_true(fabs(r->tuned.buffered_reads - 1.0) < 1e-9);
    assert_string_equal(setting(r, "toast_tuple_target"), "3304");
    assert_string_equal(setting(r, "storage"), "EXTENDED");
    assert_string_equal(setting(r, "rewrite"), "yes");
    assert_true(has_reason(r, "VACUUM FULL"));
    assert_true(has_reason(r, "BLCKSZ"));
    doc = rec_result_to_json(r, &e, NULL);
    assert_non_null(doc);
    assert_int_equal(
        json_integer_value(json_object_get(json_object_get(doc, "settings"),
                                           "toast_tuple_target")),
        3304);
    assert_true(json_is_true(
        json_object_get(json_object_get(doc, "inline_knob"), "pays")));
    json_decref(doc);

    /* 1 KB objects already fit the default: no knob change */
    for (size_t i = 0; i < 200; i++)
        v[i] = 1000;
    assert_int_equal(rec_recommend(r, &in, &err), 0);
    assert_false(r->knob_evaluated);
    assert_string_equal(setting(r, "toast_tuple_target"), "2032");
    assert_string_equal(setting(r, "rewrite"), "no");

    /* objects near the page: capped at 8160, STORAGE MAIN */
    for (size_t i = 0; i < 200; i++)
        v[i] = 7930; /* 7930 + 228 rounds up to the maximum */
    assert_int_equal(rec_recommend(r, &in, &err), 0);
    assert_true(r->knob_pays);
    assert_int_equal(r->knob_value, 8160);
    assert_string_equal(setting(r, "storage"), "MAIN");
    free(r);
}

/* issue 23: a COMPACT/REDUNDANT table whose objects stay in the row keeps
 * its format (the rebuild gains 0 %, below the rebuild tier) */
static void test_mysql_row_format_pays(void **state)
{
    struct rec_engine e;
    uint64_t v[100];
    struct rec_inputs in = {0};
    struct rec_result *r = calloc(1, sizeof(*r));
    struct rec_state st;
    struct pt_err err;
    (void)state;

    for (size_t i = 0; i < 100; i++)
        v[i] = 300;
    in.device = &ssd;
    in.sizes = v;
    in.n_sizes = 100;
    assert_int_equal(load_engine("mysql", &e), 0);
    in.engine = &e;
    memset(&st, 0, sizeof(st));
    rec_state_set_num(&st, "page_size", 16384, REC_SOURCE_SERVER, NULL);
    rec_state_set_word(&st, "row_format", "COMPACT", REC_SOURCE_SERVER, NULL);
    in.current = &st;
    assert_int_equal(rec_recommend(r, &in, &err), 0);
    assert_true(r->rowfmt_evaluated);
    assert_false(r->rowfmt_pays);
    assert_true(r->rowfmt_gain_io == 0 && r->rowfmt_gain_reads == 0);
    assert_string_equal(setting(r, "row_format"), "COMPACT");
    assert_true(has_reason(r, "keep ROW_FORMAT=COMPACT"));
    /* a row format nobody read: DYNAMIC, as before */
    rec_state_set_word(&st, "row_format", "COMPACT", REC_SOURCE_DEFAULT, NULL);
    assert_int_equal(rec_recommend(r, &in, &err), 0);
    assert_false(r->rowfmt_evaluated);
    assert_string_equal(setting(r, "row_format"), "DYNAMIC");
    /* unset, the server's default REDUNDANT: kept as REDUNDANT */
    rec_state_set_null(&st, "row_format", 0, REC_SOURCE_SERVER, NULL);
    rec_state_set_word(&st, "innodb_default_row_format", "REDUNDANT",
                       REC_SOURCE_SERVER, NULL);
    assert_int_equal(rec_recommend(r, &in, &err), 0);
    assert_true(r->rowfmt_evaluated);
    assert_string_equal(setting(r, "row_format"), "REDUNDANT");
    free(r);
}

static void test_mysql_sqlite_oracle_advice(void **state)
{
    struct rec_engine e;
    uint64_t v[100];
    struct rec_inputs in = {0};
    struct rec_result *r = calloc(1, sizeof(*r));
    struct rec_monitor m = {0};
    struct pt_err err;
    (void)state;

    for (size_t i = 0; i < 100; i++)
        v[i] = 6000; /* off-page at 8K InnoDB, in the row at 16K */
    in.device = &ssd;
    in.sizes = v;
    in.n_sizes = 100;

    assert_int_equal(load_engine("mysql", &e), 0);
    in.engine = &e;
    m.present = 1;
    snprintf(m.engine, sizeof(m.engine), "mysql");
    m.page_size_bytes = 8192;
    m.bufferpool_pages = 8192; /* 64M */
    in.monitor = &m;
    /* 2M sessions do not fit the 64M pool: 16K gains real I/O, enough for
     * a new instance (with 100 cached rows it would gain none: see
     * test_change_rule) */
    in.sessions = 2000000;
    assert_int_equal(rec_recommend(r, &in, &err), 0);
    assert_false(r->kept);
    assert_true(r->gain_io >= e.change_threshold.new_instance);
    assert_int_equal(r->cand[r->chosen_idx].page_size_bytes, 16384);
    assert_true(r->cand[1].outline_reads > 0); /* 8K: off-page pages */
    assert_string_equal(setting(r, "innodb_page_size"), "16384");
    assert_string_equal(setting(r, "new_instance"), "yes");
    assert_string_equal(setting(r, "row_format"), "DYNAMIC");
    assert_string_equal(setting(r, "previous_innodb_buffer_pool_size"),
                        "67108864");
    assert_true(has_reason(r, "NEW instance"));
    in.monitor = NULL;
    in.sessions = 0;

    assert_int_equal(load_engine("sqlite", &e), 0);
    in.engine = &e;
    assert_int_equal(rec_recommend(r, &in, &err), 0);
    assert_int_equal(r->cand[r->chosen_idx].page_size_bytes, 8192);
    assert_string_equal(setting(r, "page_size"), "8192");
    assert_string_equal(setting(r, "previous_page_size"), "4096");
    assert_true(has_reason(r, "VACUUM"));

    assert_int_equal(load_engine("oracle", &e), 0);
    in.engine = &e;
    assert_int_equal(rec_recommend(r, &in, &err), 0);
    /* 6000-byte LOBs never fit in row: direct reads, CACHE advised */
    assert_true(r->cand[r->chosen_idx].direct_reads > 0);
    assert_string_equal(setting(r, "lob_cache"), "CACHE");
    assert_non_null(setting(r, "cache_parameter"));
    assert_true(has_reason(r, "not run against an Oracle"));
    free(r);
}

/* The recommendation document read back: what the writer wrote. */
static void check_round_trip(const struct rec_result *r, const json_t *doc)
{
    const struct rec_candidate *ch = &r->cand[r->chosen_idx];
    struct rec_doc d;
    struct pt_err err;

    assert_int_equal(rec_result_from_json(&d, doc, "db2", "rec.json", &err), 0);
    assert_string_equal(d.engine, "db2");
    assert_string_equal(d.decided_by,
                        r->chosen_by_cost ? "cost_model" : "inline_rule");
    assert_string_equal(d.bufferpool_name, r->bufferpool_name);
    assert_string_equal(d.tablespace_name, r->tablespace_name);
    assert_int_equal(d.page_size_bytes, ch->page_size_bytes);
    assert_int_equal(d.bufferpool_pages, r->pool_pages);
    assert_int_equal(d.extent_size, r->extent_size);
    assert_int_equal(d.prefetch_automatic, r->prefetch_automatic);
    assert_true(fabs(d.overhead_ms - r->overhead_ms) < 1e-6);
    assert_true(fabs(d.transfer_rate_ms - r->transfer_rate_ms) < 1e-6);
    assert_null(d.settings); /* db2: its objects, no engine settings */
    assert_int_equal(d.n_reasons, r->n_reasons);
    for (size_t i = 0; i < r->n_reasons; i++)
        assert_string_equal(d.reasons[i], r->reasons[i]);
    rec_doc_release(&d);
    assert_null(d.reasons);
}

static void test_result_json_round_trip(void **state)
{
    uint64_t v[100];
    struct rec_inputs in = {0};
    struct rec_result *r = calloc(1, sizeof(*r));
    struct rec_doc d;
    struct pt_err err;
    json_t *doc, *bad;
    (void)state;

    /* 2000-byte sessions (see test_memory_changes_choice) */
    for (size_t i = 0; i < 100; i++)
        v[i] = 2000;
    in.engine = &db2;
    in.device = &hdd;
    in.sizes = v;
    in.n_sizes = 100;
    for (int memory = 0; memory < 2; memory++) {
        /* the inline rule, then the cost model on a tight pool */
        in.memory_bytes = memory ? 64ULL << 20 : 0;
        in.memory_given = memory;
        in.sessions = memory ? 100000 : 0;
        assert_int_equal(rec_recommend(r, &in, &err), 0);
        assert_int_equal(r->chosen_by_cost, memory);
        doc = rec_result_to_json(r, &db2, NULL);
        assert_non_null(doc);
        check_round_trip(r, doc);
        json_decref(doc);
    }
    doc = rec_result_to_json(r, &db2, NULL);

    /* another engine's document, when one is expected */
    assert_int_equal(
        rec_result_from_json(&d, doc, "postgresql", "r.json", &err), PT_EDATA);
    assert_non_null(strstr(err.msg, "engine 'db2', not dialect 'postgresql'"));
    assert_null(d.reasons);
    assert_int_equal(rec_result_from_json(&d, doc, NULL, "r.json", &err), 0);
    rec_doc_release(&d);
    /* page sizes that disagree, a bad prefetch size, a missing object */
    bad = json_deep_copy(doc);
    json_object_set_new(json_object_get(bad, "bufferpool"), "page_size",
                        json_integer(4096));
    assert_int_equal(rec_result_from_json(&d, bad, NULL, "r.json", &err),
                     PT_EDATA);
    assert_non_null(strstr(err.msg, "SQL1582N"));
    json_decref(bad);
    bad = json_deep_copy(doc);
    json_object_set_new(json_object_get(bad, "tablespace"), "prefetch_size",
                        json_integer(0));
    assert_int_equal(rec_result_from_json(&d, bad, NULL, "r.json", &err),
                     PT_EDATA);
    assert_non_null(strstr(err.msg, "prefetch_size"));
    json_object_set_new(json_object_get(bad, "tablespace"), "prefetch_size",
                        json_integer(64));
    assert_int_equal(rec_result_from_json(&d, bad, NULL, "r.json", &err), 0);
    assert_false(d.prefetch_automatic);
    assert_int_equal(d.prefetch_size, 64);
    rec_doc_release(&d);
    json_object_del(bad, "tablespace");
    assert_int_equal(rec_result_from_json(&d, bad, NULL, "r.json", &err),
                     PT_EDATA);
    assert_non_null(strstr(err.msg, "'tablespace'"));
    json_decref(bad);
    bad = json_array();
    assert_int_equal(rec_result_from_json(&d, bad, NULL, "r.json", &err),
                     PT_EDATA);
    json_decref(bad);
    json_decref(doc);
    free(r);
}

static void test_nothing_fits(void **state)
{
    uint64_t v[2] = {40000000, 50000000}; /* beyond DB2's LARGE column */
    struct rec_inputs in = {0};
    struct rec_result *r = calloc(1, sizeof(*r));
    struct pt_err err;
    (void)state;

    in.engine = &db2;
    in.device = &ssd;
    in.sizes = v;
    in.n_sizes = 2;
    assert_int_equal(rec_recommend(r, &in, &err), PT_EDATA);
    assert_non_null(strstr(err.msg, "no object fits any db2 column"));
    v[0] = 4000; /* one fits: a recommendation, with a reason */
    assert_int_equal(rec_recommend(r, &in, &err), 0);
    free(r);
}

/* ---- issue 14: the current state and the change rule ------------------- */

/* ---- issue 23: storage in the change rule, pglz, the toaster ----------- */

static void test_change_pays_storage(void **state)
{
    struct rec_engine e;
    struct rec_candidate cur, nw;
    double g;
    (void)state;

    assert_int_equal(load_engine("postgresql", &e), 0);
    memset(&cur, 0, sizeof(cur));
    cur.page_size_bytes = 8192;
    cur.data_pages = 100;
    cur.outline_pages = 0.5; /* per row: 500 TOAST pages for 1000 rows */
    cur.outline_index_pages = 0.01;
    cur.buffered_reads = 4;
    assert_true(fabs(rec_candidate_bytes(&cur, 1000) - 610.0 * 8192) < 1e-6);
    /* fewer reads, the table smaller: pays */
    nw = cur;
    nw.data_pages = 300;
    nw.outline_pages = nw.outline_index_pages = 0;
    nw.buffered_reads = 1;
    assert_true(
        rec_change_pays_storage(&e, REC_TIER_REBUILD, &cur, &nw, 1000, &g));
    assert_true(g < 0);
    /* the table grows 10x (issue 23: compressible values stored raw
       under a raised target) for a 75 % read saving: not advised */
    nw.data_pages = 6100;
    assert_false(
        rec_change_pays_storage(&e, REC_TIER_REBUILD, &cur, &nw, 1000, &g));
    assert_true(g > 8.9 && g < 9.1);
    /* grows 50 % for 75 % fewer reads: the saving is larger, it pays */
    nw.data_pages = 915;
    assert_true(
        rec_change_pays_storage(&e, REC_TIER_REBUILD, &cur, &nw, 1000, &g));
    assert_true(fabs(g - 0.5) < 1e-9);
    /* no read or I/O gain: never, whatever the storage */
    nw = cur;
    assert_false(
        rec_change_pays_storage(&e, REC_TIER_REBUILD, &cur, &nw, 1000, NULL));
}

static void test_change_rule(void **state)
{
    struct rec_engine e;
    double gi, gr;
    (void)state;

    assert_int_equal(load_engine("mysql", &e), 0);
    /* the profile's thresholds, growing with disruption */
    assert_true(e.change_threshold.reloption == 0.05);
    assert_true(e.change_threshold.rebuild == 0.10);
    assert_true(e.change_threshold.new_instance == 0.25);
    /* I/O gain exactly at the threshold changes; just below keeps */
    assert_true(
        rec_change_pays(&e, REC_TIER_REBUILD, 1.0, 0.9, 1, 1, &gi, &gr));
    assert_true(fabs(gi - 0.10) < 1e-12 && gr == 0);
    assert_false(
        rec_change_pays(&e, REC_TIER_REBUILD, 1.0, 0.9001, 1, 1, NULL, NULL));
    assert_true(rec_change_pays(&e, REC_TIER_NEW_INSTANCE, 1.0, 0.75, 1, 1,
                                NULL, NULL));
    assert_false(rec_change_pays(&e, REC_TIER_NEW_INSTANCE, 1.0, 0.7501, 1, 1,
                                 NULL, NULL));
    assert_true(
        rec_change_pays(&e, REC_TIER_RELOPTION, 1.0, 0.95, 1, 1, NULL, NULL));
    assert_false(
        rec_change_pays(&e, REC_TIER_RELOPTION, 1.0, 0.951, 1, 1, NULL, NULL));
    /* ties and zero gain keep */
    assert_false(
        rec_change_pays(&e, REC_TIER_REBUILD, 1.0, 1.0, 2, 2, &gi, &gr));
    assert_false(rec_change_pays(&e, REC_TIER_RELOPTION, 0, 0, 1, 1, &gi, &gr));
    assert_true(gi == 0 && gr == 0);
    /* fewer buffered reads at equal I/O: a rebuild, never a new instance */
    assert_true(rec_change_pays(&e, REC_TIER_REBUILD, 0, 0, 2, 1, NULL, &gr));
    assert_true(fabs(gr - 0.5) < 1e-12);
    assert_false(
        rec_change_pays(&e, REC_TIER_NEW_INSTANCE, 0, 0, 2, 1, NULL, NULL));
    /* fewer reads but more I/O: keep */
    assert_false(
        rec_change_pays(&e, REC_TIER_REBUILD, 1.0, 1.1, 2, 1, NULL, NULL));
    assert_string_equal(rec_tier_name(REC_TIER_NEW_INSTANCE), "new_instance");
}

static int cmp_u64_test(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* n objects of one size, engine e, optional monitor and state. */
static int run_model(struct rec_result *r, const struct rec_engine *e,
                     uint64_t *v, size_t n, uint64_t size,
                     const struct rec_monitor *m, const struct rec_state *st)
{
    struct rec_inputs in = {0};
    struct pt_err err;

    for (size_t i = 0; i < n; i++)
        v[i] = size;
    in.engine = e;
    in.device = &ssd;
    in.sizes = v;
    in.n_sizes = n;
    in.monitor = m;
    in.current = st;
    return rec_recommend(r, &in, &err);
}

static void test_keep_without_gain(void **state)
{
    struct rec_engine e;
    struct rec_result *r = calloc(1, sizeof(*r));
    struct rec_monitor m = {0};
    uint64_t v[100];
    json_t *doc;
    (void)state;

    assert_int_equal(load_engine("mysql", &e), 0);
    /* 100 cached 6000-byte rows at 8K: 16K saves a buffered read but no
     * I/O, so no new instance */
    m.present = 1;
    snprintf(m.engine, sizeof(m.engine), "mysql");
    m.page_size_bytes = 8192;
    m.bufferpool_pages = 8192;
    assert_int_equal(run_model(r, &e, v, 100, 6000, &m, NULL), 0);
    assert_true(r->kept);
    assert_int_equal(r->cand[r->best_idx].page_size_bytes, 16384);
    assert_int_equal(r->cand[r->chosen_idx].page_size_bytes, 8192);
    assert_true(r->gain_io == 0 && r->gain_reads > 0.25);
    assert_int_equal(r->change_tier, REC_TIER_NEW_INSTANCE);
    assert_string_equal(setting(r, "new_instance"), "no");
    assert_string_equal(setting(r, "innodb_page_size"), "8192");
    assert_true(has_reason(r, "keep 8K pages, the page size in use"));
    doc = rec_result_to_json(r, &e, NULL);
    assert_string_equal(json_string_value(json_object_get(doc, "decided_by")),
                        "keep_current");
    assert_string_equal(json_string_value(json_object_get(
                            json_object_get(doc, "change"), "decision")),
                        "keep");
    json_decref(doc);

    /* the 30 KB case on the default 16K: every I/O figure 0 */
    assert_int_equal(run_model(r, &e, v, 100, 30720, NULL, NULL), 0);
    for (size_t i = 0; i < r->n_cand; i++)
        assert_true(r->cand[i].io_ms == 0);
    assert_int_equal(r->cand[r->chosen_idx].page_size_bytes, 16384);
    assert_string_equal(setting(r, "new_instance"), "no");

    /* SQLite: a rebuild pays for fewer overflow reads (6000 B at 4K) ... */
    assert_int_equal(load_engine("sqlite", &e), 0);
    assert_int_equal(run_model(r, &e, v, 100, 6000, NULL, NULL), 0);
    assert_false(r->kept);
    assert_int_equal(r->cand[r->chosen_idx].page_size_bytes, 8192);
    /* ... but rows that fit 4K already gain nothing: keep */
    assert_int_equal(run_model(r, &e, v, 100, 1000, NULL, NULL), 0);
    assert_int_equal(r->cand[r->chosen_idx].page_size_bytes, 4096);
    assert_string_equal(setting(r, "page_size"), "4096");
    /* InnoDB rows of 7800 bytes fit the 16K in use, which the inline rule
       picks itself (nothing kept against a better page size): the decision
       still says keep, not change (issue 14) */
    assert_int_equal(load_engine("mysql", &e), 0);
    assert_int_equal(run_model(r, &e, v, 100, 7800, NULL, NULL), 0);
    assert_false(r->kept);
    assert_int_equal(r->cand[r->chosen_idx].page_size_bytes, 16384);
    assert_int_equal(r->cand[r->current_idx].page_size_bytes, 16384);
    doc = rec_result_to_json(r, &e, NULL);
    assert_string_equal(json_string_value(json_object_get(
                            json_object_get(doc, "change"), "decision")),
                        "keep");
    json_decref(doc);
    free(r);
}

static void test_postgresql_current(void **state)
{
    struct rec_engine e;
    struct rec_result *r = calloc(1, sizeof(*r));
    struct rec_state st = {0};
    struct rec_inputs in = {0};
    uint64_t v[200];
    struct pt_err err;
    (void)state;

    assert_int_equal(load_engine("postgresql", &e), 0);
    assert_int_equal(rec_state_set_num(&st, "toast_tuple_target", 2500,
                                       REC_SOURCE_SERVER, &err),
                     0);
    assert_int_equal(
        rec_state_set_word(&st, "storage", "EXTERNAL", REC_SOURCE_SERVER, &err),
        0);
    /* 2000-byte objects fit the table's 2500 (not the default 2032): keep
     * 2500 and EXTERNAL, no rewrite */
    assert_int_equal(run_model(r, &e, v, 200, 2000, NULL, &st), 0);
    assert_false(r->knob_evaluated);
    assert_true(r->knob_current_set && r->knob_current == 2500);
    assert_string_equal(setting(r, "toast_tuple_target"), "2500");
    assert_string_equal(setting(r, "storage"), "EXTERNAL");
    assert_string_equal(setting(r, "rewrite"), "no");
    /* the pool stays what it is without --memory: 128MB, not 256M */
    assert_true(r->pool_kept);
    assert_string_equal(setting(r, "shared_buffers_kb"), "131072");
    /* 3 KB objects: a higher target pays against 2500 */
    assert_int_equal(run_model(r, &e, v, 200, 3072, NULL, &st), 0);
    assert_true(r->knob_pays);
    assert_int_equal(r->knob_base.inline_limit_bytes, 2500 - 228);
    assert_string_equal(setting(r, "rewrite"), "yes");
    assert_string_equal(setting(r, "storage"), "EXTERNAL"); /* no reason */

    /* compression ratio: incompressible -> EXTERNAL, compressible under
     * EXTERNAL -> EXTENDED, said why */
    for (size_t i = 0; i < 200; i++)
        v[i] = 1000;
    in.engine = &e;
    in.device = &ssd;
    in.sizes = v;
    in.n_sizes = 200;
    in.compress_ratio = 0.97;
    assert_int_equal(rec_recommend(r, &in, &err), 0);
    assert_string_equal(setting(r, "storage"), "EXTERNAL");
    assert_true(has_reason(r, "incompressible"));
    in.compress_ratio = 0.5;
    in.current = &st;
    assert_int_equal(rec_recommend(r, &in, &err), 0);
    assert_string_equal(setting(r, "storage"), "EXTENDED");
    in.compress_ratio = 0;
    assert_int_equal(rec_recommend(r, &in, &err), 0);
    assert_string_equal(setting(r, "storage"), "EXTERNAL");
    /* --memory sets the pool */
    in.memory_given = 1;
    in.memory_bytes = 64ULL << 20;
    assert_int_equal(rec_recommend(r, &in, &err), 0);
    assert_false(r->pool_kept);
    assert_string_equal(setting(r, "shared_buffers_kb"), "65536");
    free(r);
}

static void test_db2_caching(void **state)
{
    struct rec_result *r = calloc(1, sizeof(*r));
    uint64_t v[100];
    json_t *doc;
    (void)state;

    /* mostly inline at the chosen page size: no file-system caching */
    assert_int_equal(run_model(r, &db2, v, 100, 2000, NULL, NULL), 0);
    assert_false(r->fs_caching);
    assert_true(has_reason(r, "NO FILE SYSTEM CACHING for"));
    assert_true(has_reason(r, "INLINE LENGTH"));
    doc = rec_result_to_json(r, &db2, NULL);
    assert_true(json_is_false(json_object_get(
        json_object_get(doc, "tablespace"), "file_system_caching")));
    json_decref(doc);
    /* a heavy out-of-row tail: 20 % of 40 KB objects (LARGE) */
    for (size_t i = 0; i < 100; i++)
        v[i] = i % 5 == 0 ? 40000 : 2000;
    {
        struct rec_inputs in = {0};
        struct pt_err err;
        in.engine = &db2;
        in.device = &ssd;
        in.sizes = v;
        in.n_sizes = 100;
        qsort(v, 100, sizeof(v[0]), cmp_u64_test);
        assert_int_equal(rec_recommend(r, &in, &err), 0);
    }
    assert_true(r->cand[r->chosen_idx].direct_reads >= 0.01);
    assert_true(r->fs_caching);
    doc = rec_result_to_json(r, &db2, NULL);
    assert_true(json_is_true(json_object_get(json_object_get(doc, "tablespace"),
                                             "file_system_caching")));
    json_decref(doc);
    free(r);
}

static void test_drift_per_knob(void **state)
{
    struct rec_engine e;
    struct rec_result *r = calloc(1, sizeof(*r));
    struct rec_state st = {0};
    struct rec_doc d;
    struct pt_err err;
    uint64_t v[200];
    char why[512];
    json_t *doc;
    (void)state;

    assert_int_equal(load_engine("postgresql", &e), 0);
    /* a toast_tuple_target change recommended: drift, even unread */
    assert_int_equal(run_model(r, &e, v, 200, 3072, NULL, NULL), 0);
    doc = rec_result_to_json(r, &e, NULL);
    assert_int_equal(rec_result_from_json(&d, doc, NULL, "r.json", &err), 0);
    assert_true(d.has_current);
    assert_int_equal(rec_drift_doc(&d, 0.1, why, sizeof(why)), 1);
    assert_non_null(
        strstr(why, "toast_tuple_target 2032 (not set) in use (the default"));
    rec_doc_release(&d);
    json_decref(doc);
    /* small objects, nothing to change: no drift */
    assert_int_equal(run_model(r, &e, v, 200, 1000, NULL, NULL), 0);
    doc = rec_result_to_json(r, &e, NULL);
    assert_int_equal(rec_result_from_json(&d, doc, NULL, "r.json", &err), 0);
    assert_int_equal(rec_drift_doc(&d, 0.1, why, sizeof(why)), 0);
    assert_string_equal(why, "");
    rec_doc_release(&d);
    json_decref(doc);
    /* SQLite read at 4K, 8K recommended: the page size drifts */
    assert_int_equal(load_engine("sqlite", &e), 0);
    assert_int_equal(
        rec_state_set_num(&st, "page_size", 4096, REC_SOURCE_SERVER, &err), 0);
    assert_int_equal(run_model(r, &e, v, 100, 6000, NULL, &st), 0);
    doc = rec_result_to_json(r, &e, NULL);
    assert_int_equal(rec_result_from_json(&d, doc, NULL, "r.json", &err), 0);
    assert_int_equal(rec_drift_doc(&d, 0.1, why, sizeof(why)), 1);
    assert_non_null(strstr(why, "page_size 4096 in use, 8192 recommended"));
    rec_doc_release(&d);
    json_decref(doc);
    free(r);
}

/* The reconciliation rule on both sides of its tolerance, and each reason
 * derived from the numbers (docs/models.md "Reconciliation"). */
static void test_reconcile_rule(void **state)
{
    struct rec_reconcile rc;
    (void)state;

    /* 4.9 points apart: agree */
    rec_reconcile_judge(&rc, 0.90, 0.90 - 0.049, 10000, 1490, 8000, 7200, 0);
    assert_string_equal(rc.verdict, "agrees");
    assert_true(rc.measured_usable);
    assert_non_null(strstr(rc.reason, "model agrees with the measured hit "
                                      "ratio (90.0% vs 85.1%"));
    assert_true(rc.tolerance == REC_RECONCILE_TOLERANCE);
    /* 5.1 points apart, memory-bound, measured lower: the pool behaves
       as if more pages competed for it (7200 / 0.849 = 8481) */
    rec_reconcile_judge(&rc, 0.90, 0.90 - 0.051, 10000, 1510, 8000, 7200, 0);
    assert_string_equal(rc.verdict, "differs");
    assert_true(rc.measured_usable);
    assert_non_null(strstr(rc.reason, "as if 8481 pages competed"));
    /* measured higher than a uniform model: a hot set of 7200 / 0.99 */
    rec_reconcile_judge(&rc, 0.50, 0.99, 10000, 100, 14400, 7200, 0);
    assert_string_equal(rc.verdict, "differs");
    assert_non_null(strstr(rc.reason, "about 7273 pages"));
    assert_non_null(strstr(rc.reason, "hot set"));
    /* the table fits: misses within twice its pages are cold reads, not
       usable for the steady state */
    rec_reconcile_judge(&rc, 1.0, 0.80, 5000, 1000, 4000, 4096, 0);
    assert_string_equal(rc.verdict, "differs");
    assert_false(rc.measured_usable);
    assert_non_null(strstr(rc.reason, "cold reads"));
    /* the table fits but far more blocks were read: other relations */
    rec_reconcile_judge(&rc, 1.0, 0.50, 100000, 50000, 4000, 4096, 0);
    assert_true(rc.measured_usable);
    assert_non_null(strstr(rc.reason, "12.5x the table's pages"));
    assert_non_null(strstr(rc.reason, "every relation of the instance"));
    /* the same with the table's own counters: other relations evict it */
    rec_reconcile_judge(&rc, 1.0, 0.50, 100000, 50000, 4000, 4096, 1);
    assert_true(rc.table_scope);
    assert_null(strstr(rc.reason, "every relation of the instance"));
    assert_non_null(strstr(rc.reason, "evict its pages"));
    /* too few block accesses: no verdict on the ratios */
    rec_reconcile_judge(&rc, 1.0, 0.10, REC_RECONCILE_MIN_READS - 1, 899, 4000,
                        4096, 0);
    assert_string_equal(rc.verdict, "too_few_reads");
    assert_false(rc.measured_usable);
    rec_reconcile_judge(&rc, 1.0, 0.96, REC_RECONCILE_MIN_READS, 40, 4000, 4096,
                        0);
    assert_string_equal(rc.verdict, "agrees");
}

/* recommend: the monitor's measured ratio reconciled at the current pool,
 * the measured ratio used for the current state's I/O when it lasts. */
static void test_reconcile_recommend(void **state)
{
    struct rec_engine e;
    struct rec_result *r = calloc(1, sizeof(*r));
    struct rec_monitor m = {0};
    uint64_t v[100];
    json_t *doc, *x;
    (void)state;

    assert_int_equal(load_engine("postgresql", &e), 0);
    m.present = 1;
    snprintf(m.engine, sizeof(m.engine), "postgresql");
    m.page_size_bytes = 8192;
    m.bufferpool_pages = 10; /* 100 TOASTed rows of 3000 B */
    m.hit_ratio_pct = 95;
    m.logical_reads = 50000;
    m.physical_reads = 2500;
    assert_int_equal(run_model(r, &e, v, 100, 3000, &m, NULL), 0);
    assert_true(r->recon.present);
    /* the uniform model at the monitored pool: 10 pages over the table's
       heap and TOAST pages, the candidate's own figure at that memory */
    assert_true(fabs(r->recon.table_pages -
                     (r->cand[0].data_pages +
                      r->cand[0].outline_pages * (double)r->sessions)) < 1e-9);
    assert_true(r->recon.table_pages > 10);
    /* by page class: every access reads the heap (3 pages), 1 of 100
       TOAST pages and the TOAST index (no pages modelled: hits); the heap
       stays, the TOAST pages share the rest of the pool, so of 4 reads
       per access about 1 - (10 - 3) / 100 miss, far from the one ratio
       10 / 103 for all pages */
    assert_true(fabs(r->cand[0].data_pages - 3.03) < 0.01);
    assert_true(fabs(r->cand[0].buffered_reads - 4) < 1e-9);
    assert_true(fabs(r->recon.model_hit_ratio -
                     (1 - (1 - (10 - 3.03) / 100) / 4)) < 0.03);
    assert_true(r->recon.model_hit_ratio > 10 / r->recon.table_pages + 0.5);
    assert_true(fabs(r->recon.model_hit_ratio - r->cand[0].hit_ratio) < 1e-9);
    assert_true(r->recon.model_hit_ratio < 0.85);
    assert_string_equal(r->recon.verdict, "differs");
    assert_true(r->recon.used_measured);
    assert_true(r->recon.measured_io_ms < r->recon.model_io_ms);
    assert_true(has_reason(r, "reconciliation at the current 8K pages"));
    assert_true(has_reason(r, "uses the measured hit ratio"));
    doc = rec_result_to_json(r, &e, NULL);
    x = json_object_get(doc, "reconciliation");
    assert_true(json_real_value(json_object_get(x, "measured_hit_ratio")) ==
                0.95);
    assert_true(fabs(json_real_value(json_object_get(x, "model_hit_ratio")) -
                     r->recon.model_hit_ratio) < 1e-6);
    assert_string_equal(json_string_value(json_object_get(x, "verdict")),
                        "differs");
    assert_string_equal(
        json_string_value(json_object_get(
            json_object_get(x, "current_io_ms_per_access"), "basis")),
        "measured");
    json_decref(doc);
    /* the sampled table's own counters win over the instance's: 9,000
       hits of 10,000 row-access blocks (case and schema as folded) */
    m.n_tables = 2;
    snprintf(m.tables[0].name, sizeof(m.tables[0].name), "public.other");
    m.tables[0].hits = 5;
    m.tables[0].reads = 5;
    snprintf(m.tables[1].name, sizeof(m.tables[1].name), "public.sessions");
    m.tables[1].hits = 9000;
    m.tables[1].reads = 1000;
    {
        struct rec_inputs in = {0};
        struct pt_err err;
        in.engine = &e;
        in.device = &ssd;
        in.sizes = v;
        in.n_sizes = 100;
        in.monitor = &m;
        in.table = "SESSIONS";
        assert_int_equal(rec_recommend(r, &in, &err), 0);
        assert_true(r->recon.table_scope);
        assert_true(fabs(r->recon.measured_hit_ratio - 0.9) < 1e-12);
        assert_int_equal(r->recon.logical_reads, 10000);
        assert_non_null(strstr(r->recon.scope, "public.sessions"));
        assert_true(has_reason(r, "table public.sessions: heap, TOAST"));
        assert_string_equal(r->recon.note, "");
        /* measured below the model, the table above a quarter of the
           pool, accesses a multiple of its pages: PostgreSQL's scan ring
           is named as another explanation */
        m.tables[1].hits = 1000;
        m.tables[1].reads = 9000;
        m.bufferpool_pages = 50; /* below the table's pages */
        in.sessions = 100;       /* as before, not inferred */
        assert_int_equal(rec_recommend(r, &in, &err), 0);
        assert_true(r->recon.model_hit_ratio > 0.15 &&
                    r->recon.table_pages > 50);
        assert_string_equal(r->recon.verdict, "differs");
        assert_non_null(strstr(r->recon.note, "256 kB ring"));
        assert_true(has_reason(r, "reconciliation: sequential scans may"));
        m.bufferpool_pages = 10;
        /* another table: back to the instance's summary, said so */
        in.table = "nosuch";
        assert_int_equal(rec_recommend(r, &in, &err), 0);
        assert_false(r->recon.table_scope);
        assert_true(r->recon.measured_hit_ratio == 0.95);
        assert_non_null(strstr(r->recon.scope, "not among the monitored"));
        /* listed but idle in the window (issue 23): monitored, no block
           accesses; the instance's counters, saying so */
        in.table = "SESSIONS";
        m.tables[1].hits = 0;
        m.tables[1].reads = 0;
        assert_int_equal(rec_recommend(r, &in, &err), 0);
        assert_false(r->recon.table_scope);
        assert_null(strstr(r->recon.scope, "not among the monitored"));
        assert_non_null(strstr(r->recon.scope, "no block accesses"));
    }
    m.n_tables = 0;
    /* no measured ratio: no reconciliation object */
    m.hit_ratio_pct = -1;
    assert_int_equal(run_model(r, &e, v, 100, 3000, &m, NULL), 0);
    assert_false(r->recon.present);
    doc = rec_result_to_json(r, &e, NULL);
    assert_null(json_object_get(doc, "reconciliation"));
    json_decref(doc);
    free(r);
}

/* The pool against the host's memory: capped to the engine's documented
 * share with the reason, left alone below it, and never silently
 * unchecked. */
static void test_host_memory_cap(void **state)
{
    struct rec_engine e;
    struct rec_result *r = calloc(1, sizeof(*r));
    struct rec_monitor m = {0};
    uint64_t v[100];
    json_t *doc, *x;
    (void)state;

    assert_true(rec_host_pool_fraction("postgresql", NULL) == 0.25);
    assert_true(rec_host_pool_fraction("mysql", NULL) == 0.80);
    assert_true(rec_host_pool_fraction("db2", NULL) == 0.50);
    assert_true(rec_host_pool_fraction("oracle", NULL) == 0);

    assert_int_equal(load_engine("postgresql", &e), 0);
    m.present = 1;
    snprintf(m.engine, sizeof(m.engine), "postgresql");
    m.page_size_bytes = 8192;
    m.bufferpool_pages = 4096; /* 32M */
    m.hit_ratio_pct = -1;
    m.host_memory_bytes = 64ULL << 20;
    snprintf(m.host_source, sizeof(m.host_source), "test host");
    assert_int_equal(run_model(r, &e, v, 100, 3000, &m, NULL), 0);
    assert_true(r->host_capped);
    assert_int_equal(r->host_limit_bytes, 16ULL << 20);
    assert_int_equal(r->memory_bytes, 16ULL << 20);
    assert_int_equal(r->pool_setting_bytes, 16ULL << 20);
    assert_string_equal(setting(r, "shared_buffers_kb"), "16384");
    assert_true(has_reason(r, "buffer pool capped to 16M: the 32M it would "
                              "be is 50% of the host's 64M (test host)"));
    assert_true(has_reason(r, "the current pool 32M is 50%"));
    doc = rec_result_to_json(r, &e, NULL);
    x = json_object_get(doc, "host_memory");
    assert_true(json_is_true(json_object_get(x, "capped")));
    assert_int_equal(json_integer_value(json_object_get(x, "limit_bytes")),
                     16 << 20);
    assert_int_equal(json_integer_value(json_object_get(x, "asked_bytes")),
                     32 << 20);
    json_decref(doc);

    /* a big host: within the share, not capped */
    m.host_memory_bytes = 1ULL << 30;
    assert_int_equal(run_model(r, &e, v, 100, 3000, &m, NULL), 0);
    assert_false(r->host_capped);
    assert_int_equal(r->memory_bytes, 32ULL << 20);
    assert_true(has_reason(r, "buffer pool 32M is 3.1% of the host's 1G"));

    /* no reading: said, with the monitor's reason */
    m.host_memory_bytes = 0;
    snprintf(m.host_source, sizeof(m.host_source),
             "host memory not readable: no privilege");
    assert_int_equal(run_model(r, &e, v, 100, 3000, &m, NULL), 0);
    assert_false(r->host_capped);
    assert_true(has_reason(r, "not checked against host memory: host "
                              "memory not readable: no privilege"));
    doc = rec_result_to_json(r, &e, NULL);
    x = json_object_get(doc, "host_memory");
    assert_true(json_is_null(json_object_get(x, "memory_bytes")));
    json_decref(doc);
    assert_int_equal(run_model(r, &e, v, 100, 3000, NULL, NULL), 0);
    assert_true(has_reason(r, "not checked against host memory: no monitor"));
    free(r);
}

/* A front end's names for the request's fields (rec_request.field_map). */
static const char *dashes(void *ctx, const char *field)
{
    static char buf[64];
    (void)ctx;
    snprintf(buf, sizeof(buf), "--%s", field);
    return buf;
}

/*
 * The library names no option (issue 22): rec_run's reasons name the
 * inputs a user can give as fields; without a map they are bare words,
 * with one they are what the front end calls them, and no backquote is
 * left either way.
 */
static void test_run_reasons_name_fields(void **state)
{
    static const char text[] = "1000\n3000\n6000\n12000\n";
    struct rec_sizes s;
    struct rec_request q;
    struct rec_run_result out;
    struct pt_err err;
    (void)state;

    for (int mapped = 0; mapped < 2; mapped++) {
        assert_int_equal(
            rec_sizes_parse_text(&s, text, sizeof(text) - 1, "s.txt", &err), 0);
        memset(&q, 0, sizeof(q));
        q.engine = "db2";
        q.device = "ssd";
        q.sizes = &s;
        q.field_map = mapped ? dashes : NULL;
        if (rec_run(&q, &out, &err) < 0)
            fail_msg("rec_run: %s", err.msg);
        assert_true(has_reason(out.rec, mapped ? "(pass --sessions, or"
                                               : "(pass sessions, or"));
        assert_true(
            has_reason(out.rec, mapped ? "set --memory)" : "set memory)"));
        assert_false(has_reason(out.rec, "`"));
        assert_true(mapped || !has_reason(out.rec, "--"));
        rec_run_result_release(&out);
        rec_sizes_release(&s);
    }
}

/* rec_diff_compute: advice vs figures, numbers by value, settings that
   describe the server are figures, absent members have no item. */
static void test_diff_items(void **state)
{
    (void)state;
    json_error_t je;
    json_t *a = json_loads("{\"engine\": \"mysql\", \"page_size\": 16384,"
                           " \"bufferpool\": {\"name\": \"P\", \"pages\": 100},"
                           " \"model\": {\"memory_bytes\": 1000},"
                           " \"settings\": {\"row_format\": \"DYNAMIC\","
                           " \"current_page_size\": 16384}}",
                           0, &je);
    json_t *b = json_loads("{\"engine\": \"mysql\", \"page_size\": 16384.0,"
                           " \"bufferpool\": {\"name\": \"P\", \"pages\": 100},"
                           " \"model\": {\"memory_bytes\": 2000},"
                           " \"settings\": {\"row_format\": \"DYNAMIC\","
                           " \"current_page_size\": 8192}}",
                           0, &je);
    struct rec_diff d;
    int seen_state = 0;

    assert_non_null(a);
    assert_non_null(b);
    assert_int_equal(rec_diff_compute(&d, a, b, NULL), 0);
    /* budget and server state differ: figures, so no change of advice */
    assert_false(d.advice_changed);
    for (size_t i = 0; i < d.n_items; i++) {
        const struct rec_diff_item *it = &d.items[i];
        assert_string_not_equal(it->key, "tablespace.name"); /* absent */
        if (strcmp(it->key, "page_size") == 0)
            assert_false(it->changed); /* 16384 == 16384.0 */
        if (strcmp(it->key, "model.memory_bytes") == 0)
            assert_true(it->changed && it->kind == REC_DIFF_FIGURE);
        if (strcmp(it->key, "settings.current_page_size") == 0) {
            assert_true(it->changed && it->kind == REC_DIFF_FIGURE);
            seen_state = 1;
        }
    }
    assert_true(seen_state);
    rec_diff_release(&d);
    /* the pool is advice */
    json_object_set_new(json_object_get(b, "bufferpool"), "pages",
                        json_integer(200));
    assert_int_equal(rec_diff_compute(&d, a, b, NULL), 0);
    assert_true(d.advice_changed);
    {
        json_t *doc = rec_diff_to_json(&d, "a.json", "b.json");
        json_t *ch = json_object_get(doc, "changed");
        assert_non_null(doc);
        assert_int_equal(json_array_size(ch), 1);
        assert_string_equal(json_string_value(json_array_get(ch, 0)),
                            "bufferpool.pages");
        json_decref(doc);
    }
    rec_diff_release(&d);
    json_decref(a);
    json_decref(b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_change_pays_storage),
        cmocka_unit_test(test_drift),
        cmocka_unit_test(test_inflection_points),
        cmocka_unit_test(test_target_crossing),
        cmocka_unit_test(test_memory_changes_choice),
        cmocka_unit_test(test_trace_model),
        cmocka_unit_test(test_monitor),
        cmocka_unit_test(test_out_of_memory),
        cmocka_unit_test(test_histogram_bins_only),
        cmocka_unit_test(test_limits),
        cmocka_unit_test(test_postgresql_knob),
        cmocka_unit_test(test_mysql_sqlite_oracle_advice),
        cmocka_unit_test(test_mysql_row_format_pays),
        cmocka_unit_test(test_result_json_round_trip),
        cmocka_unit_test(test_nothing_fits),
        cmocka_unit_test(test_change_rule),
        cmocka_unit_test(test_keep_without_gain),
        cmocka_unit_test(test_postgresql_current),
        cmocka_unit_test(test_db2_caching),
        cmocka_unit_test(test_drift_per_knob),
        cmocka_unit_test(test_reconcile_rule),
        cmocka_unit_test(test_reconcile_recommend),
        cmocka_unit_test(test_host_memory_cap),
        cmocka_unit_test(test_current_config_every_engine),
        cmocka_unit_test(test_run_reasons_name_fields),
        cmocka_unit_test(test_diff_items),
    };
    return cmocka_run_group_tests_name("recommend", tests, load_profiles, NULL);
}
