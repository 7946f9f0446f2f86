/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_store_model.c — unit tests for the probe's file and the store model
 * (store/probe_doc.c, store/model.c; docs/models.md "Store model"): a probe
 * written by store_probe_write and read back through the profile loader
 * (prof_load, store_probe_from_json) is the same probe, every double
 * bit for bit; store_model_predict's arithmetic on a hand-made probe and an
 * in-memory trace: one client's requests/s is the requests over the sum of
 * their operations' costs (a write-back set the `set` line, a set alone the
 * `put` line), an object in the LOB area costs the row's small figure plus
 * the LOB line less the probe's base row, and the range is the demand's
 * interval (each measured point's half-width by its weight, in quadrature)
 * widened by STORE_MODEL_ERROR.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "model/model.h"
#include "sim/sim.h"
#include "store/store.h"

static struct store_probe_line mkline(uint32_t a, uint32_t b, double m0,
                                      double m1)
{
    struct store_probe_line l;

    l.size_bytes[0] = a;
    l.size_bytes[1] = b;
    l.at[0] = (struct store_probe_cost){m0, m0 * 0.9, m0 * 1.2};
    l.at[1] = (struct store_probe_cost){m1, m1 * 0.8, m1 * 1.1};
    return l;
}

/* A probe of 4K and 16K pages whose figures are awkward doubles. */
static void hand_probe(struct store_probe *pr)
{
    memset(pr, 0, sizeof(*pr));
    snprintf(pr->pagetune, sizeof(pr->pagetune), "0.1.0");
    snprintf(pr->host, sizeof(pr->host), "host \"quoted\"\\x");
    snprintf(pr->machine_id, sizeof(pr->machine_id), "abc123");
    snprintf(pr->cpu, sizeof(pr->cpu), "CPU: 2.10GHz # not a comment");
    snprintf(pr->kernel, sizeof(pr->kernel), "6.1.0-13-amd64");
    snprintf(pr->store_fs, sizeof(pr->store_fs), "ext4");
    snprintf(pr->engine, sizeof(pr->engine), "db2");
    pr->measured_s = 1764745200;
    pr->cache_bytes = 2u << 20;
    pr->rounds = 5, pr->ops = 400, pr->sessions = 512;
    pr->elapsed_s = 12.345678901234567;
    pr->lob_direct = 1;
    pr->n_pages = 2;
    pr->page[0].page_size_bytes = 4096;
    pr->page[0].inline_limit_bytes = 3900;
    pr->page[0].row[STORE_PROBE_GET] = mkline(256, 3510, 1.0 / 3, 7.1);
    pr->page[0].row[STORE_PROBE_SET] =
        mkline(256, 3510, 0.1 + 0.2, 3.141592653589793 * 9);
    pr->page[0].row[STORE_PROBE_PUT] = mkline(256, 3510, 0.7, 41.0 / 3);
    pr->page[1].page_size_bytes = 16384;
    pr->page[1].inline_limit_bytes = 16000;
    pr->page[1].row[STORE_PROBE_GET] =
        mkline(256, 14400, 2.718281828459045, 1e3 / 7);
    pr->page[1].row[STORE_PROBE_SET] =
        mkline(256, 14400, nextafter(4.0, 5.0), 123456.789e-3);
    pr->page[1].row[STORE_PROBE_PUT] = mkline(256, 14400, 5.5, 150.0 / 7);
    for (int io = 0; io < 2; io++) {
        pr->lob[io][STORE_PROBE_GET] =
            mkline(8000, 32000, 11.0 / 3 + io * 40, 29.0 / 7 + io * 90);
        pr->lob[io][STORE_PROBE_SET] =
            mkline(8000, 32000, 17.0 / 3 + io * 50, 31.0 / 7 + io * 99);
        pr->lob[io][STORE_PROBE_PUT] =
            mkline(8000, 32000, 19.0 / 3 + io * 60, 37.0 / 7 + io * 101);
    }
}

static int same_double(double a, double b)
{
    return memcmp(&a, &b, sizeof(a)) == 0;
}

static void assert_same_line(const struct store_probe_line *a,
                             const struct store_probe_line *b)
{
    for (int k = 0; k < 2; k++) {
        assert_int_equal(a->size_bytes[k], b->size_bytes[k]);
        assert_true(same_double(a->at[k].mean_us, b->at[k].mean_us));
        assert_true(same_double(a->at[k].lo_us, b->at[k].lo_us));
        assert_true(same_double(a->at[k].hi_us, b->at[k].hi_us));
    }
}

static void test_probe_round_trip(void **state)
{
    struct store_probe pr, back;
    struct pt_err err;
    char path[] = "/tmp/pt-probe-XXXXXX";
    int fd = mkstemp(path);
    FILE *fp;
    json_t *prof = NULL;

    (void)state;
    assert_true(fd >= 0);
    fp = fdopen(fd, "w");
    assert_non_null(fp);
    hand_probe(&pr);
    err_clear(&err);
    assert_int_equal(store_probe_write(fp, &pr, "probe-test", &err), 0);
    assert_int_equal(fclose(fp), 0);
    if (prof_load(path, &prof, &err) < 0)
        fail_msg("%s", err.msg);
    if (store_probe_from_json(&back, prof, path, &err) != 1)
        fail_msg("%s", err.msg);
    assert_string_equal(json_string_value(json_object_get(prof, "name")),
                        "probe-test");
    /* perf: is there for the performance model (pagetune-probe(1)) */
    assert_true(json_is_object(json_object_get(prof, "perf")));
    json_decref(prof);
    unlink(path);

    assert_string_equal(back.pagetune, pr.pagetune);
    assert_string_equal(back.host, pr.host);
    assert_string_equal(back.machine_id, pr.machine_id);
    assert_string_equal(back.cpu, pr.cpu);
    assert_string_equal(back.kernel, pr.kernel);
    assert_string_equal(back.store_fs, pr.store_fs);
    assert_string_equal(back.engine, pr.engine);
    assert_int_equal(back.measured_s, pr.measured_s);
    assert_int_equal(back.cache_bytes, pr.cache_bytes);
    assert_int_equal(back.rounds, pr.rounds);
    assert_int_equal(back.ops, pr.ops);
    assert_int_equal(back.sessions, pr.sessions);
    assert_true(same_double(back.elapsed_s, pr.elapsed_s));
    assert_int_equal(back.lob_direct, pr.lob_direct);
    assert_int_equal(back.n_pages, pr.n_pages);
    for (size_t i = 0; i < pr.n_pages; i++) {
        assert_int_equal(back.page[i].page_size_bytes,
                         pr.page[i].page_size_bytes);
        assert_int_equal(back.page[i].inline_limit_bytes,
                         pr.page[i].inline_limit_bytes);
        for (int op = 0; op < STORE_PROBE_N_OPS; op++)
            assert_same_line(&back.page[i].row[op], &pr.page[i].row[op]);
    }
    for (int io = 0; io < 2; io++)
        for (int op = 0; op < STORE_PROBE_N_OPS; op++)
            assert_same_line(&back.lob[io][op], &pr.lob[io][op]);
}

/* ---- the model's arithmetic --------------------------------------------- */

static void db2_engine(struct rec_engine *e)
{
    json_t *prof;
    struct pt_err err;

    if (prof_load_named("engines", "db2", &prof, &err) < 0 ||
        rec_engine_from_json(e, prof, "db2", &err) < 0)
        fail_msg("%s", err.msg);
    json_decref(prof);
}

/* 3 sessions: a get and its write-back set each, sizes `size`, then a
 * lone get of session 0 and a lone set of session 1 (requests of one
 * operation; the set is a put: not a write-back). */
static void pair_trace(struct store_trace *t, struct store_trace_req *r,
                       uint64_t *first, uint32_t size)
{
    memset(t, 0, sizeof(*t));
    for (unsigned k = 0; k < 3; k++) {
        r[2 * k] = (struct store_trace_req){
            .key_id = k, .size_bytes = 0, .op = SIM_GET};
        r[2 * k + 1] = (struct store_trace_req){
            .key_id = k, .size_bytes = size, .op = SIM_SET, .write_back = 1};
        first[k] = size;
    }
    r[6] = (struct store_trace_req){
        .key_id = 0, .size_bytes = size, .op = SIM_GET};
    r[7] = (struct store_trace_req){
        .key_id = 1, .size_bytes = size, .op = SIM_SET};
    t->reqs = r;
    t->n_reqs = 8;
    t->n_keys = 3;
    t->first_size = first;
}

static void plan_for(struct store_plan *p, const struct rec_engine *e,
                     enum store_lob_io io)
{
    store_plan_init(p);
    p->engine = e;
    p->n_page_sizes = 2;
    p->page_sizes[0] = 4096;
    p->page_sizes[1] = 16384;
    p->lob_io = io;
    p->n_clients = 1;
    p->think_ms = 0;
}

/* The test's own weights on the probe's measured points: the demand is
 * sum w * mean, its uncertainty sqrt(sum (w * half-width)^2) over distinct
 * points (one point's error is shared by every operation that uses it). */
struct wpt {
    const struct store_probe_cost *c;
    double w;
};
static void wadd(struct wpt *w, size_t *n, const struct store_probe_line *l,
                 double size, double times)
{
    double t = (size - l->size_bytes[0]) /
               ((double)l->size_bytes[1] - (double)l->size_bytes[0]);
    const struct store_probe_cost *c[2] = {&l->at[0], &l->at[1]};
    double x[2] = {times * (1 - t), times * t};
    for (int k = 0; k < 2; k++) {
        size_t j = 0;
        while (j < *n && w[j].c != c[k])
            j++;
        if (j == *n)
            w[(*n)++] = (struct wpt){c[k], 0};
        w[j].w += x[k];
    }
}

/* One operation (op of STORE_PROBE_*) of `size` at probe page pi, `times`
 * times, into the weights. */
static void wop(struct wpt *w, size_t *n, const struct store_probe *pr,
                size_t pi, enum store_lob_io io, int in_row, int op,
                double size, double times)
{
    const struct store_probe_page *pg = &pr->page[pi];
    double small = pg->row[op].size_bytes[0];

    if (in_row) {
        wadd(w, n, &pg->row[op], size, times);
        return;
    }
    wadd(w, n, &pg->row[op], small, times);
    wadd(w, n, &pr->lob[io][op], size, times);
    wadd(w, n, &pr->page[0].row[op], small, -times);
}

/* Expected demand per request (us): mean, and the half-width of its
 * interval. 3 requests of a get and a write-back set, a get alone, a set
 * alone: 5 requests. */
static void expect_demand(const struct store_probe *pr, size_t pi,
                          enum store_lob_io io, int in_row, double size,
                          double *d, double *h)
{
    struct wpt w[32];
    size_t n = 0;
    double h2 = 0;

    wop(w, &n, pr, pi, io, in_row, STORE_PROBE_GET, size, 4);
    wop(w, &n, pr, pi, io, in_row, STORE_PROBE_SET, size, 3);
    wop(w, &n, pr, pi, io, in_row, STORE_PROBE_PUT, size, 1);
    *d = 0;
    for (size_t j = 0; j < n; j++) {
        double hw = (w[j].c->hi_us - w[j].c->lo_us) / 2;
        *d += w[j].w * w[j].c->mean_us;
        h2 += w[j].w * w[j].w * hw * hw;
    }
    *d /= 5;
    *h = sqrt(h2) / 5;
}

static void check_predict(uint32_t size, enum store_lob_io io)
{
    struct rec_engine e;
    struct store_probe pr;
    struct store_plan p;
    struct store_trace t;
    struct store_trace_req reqs[8];
    uint64_t first[3];
    struct store_prediction out[2];
    struct pt_err err;

    db2_engine(&e);
    hand_probe(&pr);
    plan_for(&p, &e, io);
    pair_trace(&t, reqs, first, size);
    err_clear(&err);
    if (store_model_predict(&pr, &p, &t, 4, out, &err) < 0)
        fail_msg("%s", err.msg);
    for (size_t i = 0; i < 2; i++) {
        struct store_config cfg;
        int in_row;
        double d, h;
        assert_int_equal(store_plan_page_config(&p, i, &cfg, &err), 0);
        in_row = !cfg.lob_area || store_place(&cfg, size) == STORE_COL_SMALL;
        expect_demand(&pr, i, io, in_row, size, &d, &h);
        assert_int_equal(out[i].page_size_bytes, p.page_sizes[i]);
        assert_int_equal(out[i].requests, 5);
        assert_int_equal(out[i].lob_ops, in_row ? 0 : 8);
        assert_int_equal(out[i].in_row_ops, in_row ? 8 : 0);
        assert_float_equal(out[i].demand_us, d, 1e-9 * d);
        /* one client, no think time: X = 1 / D whatever the CPUs */
        assert_float_equal(out[i].req_per_s, 1e6 / d, 1e-9 * 1e6 / d);
        assert_float_equal(out[i].response_ms, d / 1e3, 1e-12);
        /* the range: the demand's interval, widened by the model's error */
        assert_float_equal(out[i].req_per_s_lo,
                           1e6 / ((d + h) * (1 + STORE_MODEL_ERROR)),
                           1e-9 * out[i].req_per_s);
        assert_float_equal(
            out[i].req_per_s_hi,
            1e6 / (fmax(d - h, d * 0.01) * (1 - STORE_MODEL_ERROR)),
            1e-9 * out[i].req_per_s);
        assert_true(out[i].req_per_s_lo < out[i].req_per_s &&
                    out[i].req_per_s < out[i].req_per_s_hi);
    }
}

/* 1000 bytes: in the row at 4K and 16K */
static void test_predict_in_row(void **state)
{
    (void)state;
    check_predict(1000, STORE_LOB_CACHED);
}

/* 30000 bytes: in the LOB area at both page sizes, cached and direct */
static void test_predict_lob(void **state)
{
    struct rec_engine e;
    struct store_plan p;
    struct store_config cfg;
    struct pt_err err;

    (void)state;
    db2_engine(&e);
    plan_for(&p, &e, STORE_LOB_DIRECT);
    for (size_t i = 0; i < 2; i++) {
        assert_int_equal(store_plan_page_config(&p, i, &cfg, &err), 0);
        assert_true(cfg.lob_area);
        assert_int_not_equal(store_place(&cfg, 30000), STORE_COL_SMALL);
    }
    check_predict(30000, STORE_LOB_CACHED);
    check_predict(30000, STORE_LOB_DIRECT);
}

/* A probe that could not measure direct I/O predicts cached figures for
 * a direct replay, as the replay falls back. */
static void test_predict_no_direct(void **state)
{
    struct rec_engine e;
    struct store_probe pr;
    struct store_plan p;
    struct store_trace t;
    struct store_trace_req reqs[8];
    uint64_t first[3];
    struct store_prediction a[2], b[2];
    struct pt_err err;

    (void)state;
    db2_engine(&e);
    hand_probe(&pr);
    pr.lob_direct = 0;
    pair_trace(&t, reqs, first, 30000);
    plan_for(&p, &e, STORE_LOB_DIRECT);
    assert_int_equal(store_model_predict(&pr, &p, &t, 1, a, &err), 0);
    plan_for(&p, &e, STORE_LOB_CACHED);
    assert_int_equal(store_model_predict(&pr, &p, &t, 1, b, &err), 0);
    assert_int_equal(a[0].lob_io, STORE_LOB_CACHED);
    assert_true(same_double(a[0].req_per_s, b[0].req_per_s));
    assert_true(same_double(a[1].req_per_s, b[1].req_per_s));
}

/* A page size the probe has no figures for: PT_EDATA naming it. */
static void test_predict_missing_page(void **state)
{
    struct rec_engine e;
    struct store_probe pr;
    struct store_plan p;
    struct store_trace t;
    struct store_trace_req reqs[8];
    uint64_t first[3];
    struct store_prediction out[2];
    struct pt_err err;

    (void)state;
    db2_engine(&e);
    hand_probe(&pr);
    pair_trace(&t, reqs, first, 1000);
    plan_for(&p, &e, STORE_LOB_CACHED);
    p.page_sizes[1] = 8192;
    err_clear(&err);
    assert_int_equal(store_model_predict(&pr, &p, &t, 1, out, &err), PT_EDATA);
    assert_non_null(strstr(err.msg, "8192"));
}

/* replay.json's `predicted`, written and read back: bit for bit, and an
 * unbounded high end (a probe whose intervals reach 0) as null, read
 * back as infinity, instead of no document at all. */
static void test_predicted_json(void **state)
{
    struct store_plan_result res, back;
    struct pt_err err;
    json_t *doc, *hi;

    (void)state;
    memset(&res, 0, sizeof(res));
    res.trace = strdup("t.csv");
    res.engine = strdup("db2");
    res.n_clients = 1;
    res.n_results = 2;
    for (size_t i = 0; i < 2; i++) {
        struct store_replay_result *r = &res.results[i];
        r->page_size_bytes = i ? 16384 : 4096;
        r->space.page_size_bytes = r->page_size_bytes;
        r->n_clients = 1;
        r->has_pred = 1;
        r->pred_rps = 1e5 / 3 + (double)i;
        r->pred_rps_lo = 1e4 / 7;
        r->pred_rps_hi = i ? INFINITY : 1e6 / 9;
        r->pred_response_ms = 0.1 + 0.2;
    }
    doc = store_plan_result_to_json(&res);
    assert_non_null(doc);
    hi = json_object_get(
        json_object_get(json_array_get(json_object_get(doc, "results"), 1),
                        "predicted"),
        "hi");
    assert_true(json_is_null(hi));
    err_clear(&err);
    if (store_plan_result_from_json(&back, doc, "replay.json", &err) < 0)
        fail_msg("%s", err.msg);
    for (size_t i = 0; i < 2; i++) {
        const struct store_replay_result *x = &res.results[i],
                                         *y = &back.results[i];
        assert_true(y->has_pred);
        assert_true(same_double(y->pred_rps, x->pred_rps));
        assert_true(same_double(y->pred_rps_lo, x->pred_rps_lo));
        assert_true(same_double(y->pred_rps_hi, x->pred_rps_hi));
        assert_true(same_double(y->pred_response_ms, x->pred_response_ms));
    }
    json_decref(doc);
    store_plan_result_release(&res);
    store_plan_result_release(&back);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_probe_round_trip),
        cmocka_unit_test(test_predict_in_row),
        cmocka_unit_test(test_predict_lob),
        cmocka_unit_test(test_predict_no_direct),
        cmocka_unit_test(test_predict_missing_page),
        cmocka_unit_test(test_predicted_json),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
