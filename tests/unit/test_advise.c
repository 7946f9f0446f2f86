/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_advise.c — unit tests for what advise/ decides (decide.c), on
 * in-memory inputs, no server and no file: drift within and beyond the
 * tolerance, the validation summary from simulation and replay results
 * (both document forms), engine detection, the empirical validation
 * workload and the engine at a tuned inline limit.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "advise/advise.h"

/* ---- drift ------------------------------------------------------------- */

static void test_drift_none(void **state)
{
    char why[256];
    (void)state;
    assert_int_equal(adv_drift(16384, 1000, 16384, 1000, ADV_DRIFT_TOLERANCE,
                               why, sizeof(why)),
                     0);
    assert_string_equal(why, "");
}

static void test_drift_pool_within_tolerance(void **state)
{
    char why[256];
    (void)state;
    /* 910 pages is 9 % below 1000: inside the 10 % tolerance */
    assert_int_equal(adv_drift(16384, 910, 16384, 1000, ADV_DRIFT_TOLERANCE,
                               why, sizeof(why)),
                     0);
    /* exactly at the bound is not beyond it */
    assert_int_equal(adv_drift(16384, 900, 16384, 1000, ADV_DRIFT_TOLERANCE,
                               why, sizeof(why)),
                     0);
}

static void test_drift_pool_beyond_tolerance(void **state)
{
    char why[256];
    (void)state;
    assert_int_equal(adv_drift(16384, 899, 16384, 1000, ADV_DRIFT_TOLERANCE,
                               why, sizeof(why)),
                     1);
    assert_non_null(strstr(why, "buffer pool 899 pages of 16K (14.0M) in use, "
                                "1,000 pages of 16K (15.6M) recommended"));
    assert_non_null(strstr(why, "10 %"));
    /* a stricter tolerance: 910 drifts at 5 % */
    assert_int_equal(adv_drift(16384, 910, 16384, 1000, 0.05, why, sizeof(why)),
                     1);
    assert_non_null(strstr(why, "5 %"));
}

static void test_drift_page_size_and_unknown_pool(void **state)
{
    char why[256];
    (void)state;
    assert_int_equal(adv_drift(4096, 500, 16384, 1000, ADV_DRIFT_TOLERANCE, why,
                               sizeof(why)),
                     1);
    assert_string_equal(why, "page size 4K in use, 16K recommended\n");
    /* an unknown pool (0) is not compared */
    assert_int_equal(
        adv_drift(8192, 0, 8192, 1000, ADV_DRIFT_TOLERANCE, why, sizeof(why)),
        0);
}

/* ---- validation summary ------------------------------------------------- */

static struct sim_result_row sim_row(uint32_t ps, uint64_t gets, double io_ms,
                                     uint64_t logical, uint64_t physical,
                                     const char *setting)
{
    struct sim_result_row r;

    memset(&r, 0, sizeof(r));
    r.has_db = 1;
    r.app.gets = gets;
    r.db.page_size_bytes = ps;
    r.db.io_ms = io_ms;
    r.db.logical_reads = logical;
    r.db.physical_reads = physical;
    snprintf(r.setting, sizeof(r.setting), "%s", setting);
    return r;
}

static void test_validation_sim_and_replay(void **state)
{
    struct sim_result_row rows[2];
    struct sim_plan_result sim;
    struct store_plan_result rep;
    struct adv_validation v;
    json_t *j;
    (void)state;

    memset(&sim, 0, sizeof(sim));
    memset(&rep, 0, sizeof(rep));
    rows[0] = sim_row(4096, 1000, 200.0, 4000, 400, "");
    rows[1] = sim_row(16384, 1000, 50.0, 4000, 100, "");
    sim.rows = rows;
    sim.n_rows = 2;
    rep.n_results = 2;
    rep.results[0].page_size_bytes = 4096;
    rep.results[0].ops_per_s = 1000;
    rep.results[0].space.overflow_pages = 876;
    rep.results[1].page_size_bytes = 16384;
    rep.results[1].ops_per_s = 1500;
    rep.results[1].space.overflow_pages = 55;

    adv_validation_compute(&v, &sim, &rep, 4096, 16384);
    assert_true(v.have_sim);
    assert_true(v.have_replay);
    assert_true(fabs(v.sim_cur.io_ms_per_get - 0.2) < 1e-12);
    assert_true(fabs(v.sim_rec.io_ms_per_get - 0.05) < 1e-12);
    assert_true(fabs(v.sim_cur.hit_ratio - 0.9) < 1e-12);
    assert_true(fabs(v.sim_rec.hit_ratio - 0.975) < 1e-12);
    assert_true(fabs(v.io_change_pct - -75.0) < 1e-9);
    assert_true(fabs(v.ops_change_pct - 50.0) < 1e-9);

    j = adv_validation_to_json(&v);
    assert_non_null(j);
    assert_int_equal(
        json_integer_value(json_object_get(
            json_object_get(json_object_get(j, "replay"), "current"),
            "overflow_pages")),
        876);
    assert_int_equal(
        json_integer_value(json_object_get(
            json_object_get(json_object_get(j, "simulation"), "recommended"),
            "page_size")),
        16384);
    json_decref(j);
}

static void test_validation_comparison_and_missing(void **state)
{
    struct sim_result_row rows[2];
    struct sim_plan_result sim;
    struct adv_validation v;
    (void)state;

    /* the same-page-size comparison: rows marked by setting */
    memset(&sim, 0, sizeof(sim));
    rows[0] = sim_row(8192, 100, 30.0, 100, 10, "current");
    rows[1] = sim_row(8192, 100, 20.0, 100, 5, "recommended");
    sim.rows = rows;
    sim.n_rows = 2;
    sim.comparison = 1;
    adv_validation_compute(&v, &sim, NULL, 8192, 8192);
    assert_true(v.have_sim);
    assert_false(v.have_replay);
    assert_true(fabs(v.sim_cur.io_ms_per_get - 0.3) < 1e-12);
    assert_true(fabs(v.sim_rec.io_ms_per_get - 0.2) < 1e-12);

    /* no row for the recommended page size: no simulation summary */
    rows[1] = sim_row(4096, 100, 20.0, 100, 5, "");
    rows[0].setting[0] = '\0';
    sim.comparison = 0;
    adv_validation_compute(&v, &sim, NULL, 8192, 16384);
    assert_false(v.have_sim);
    adv_validation_method(&v, "db2", "", "");
    assert_int_equal(v.method, ADV_BY_NONE);
    {
        json_t *jn = adv_validation_to_json(&v);
        /* only the method, "none", and no run's figures */
        assert_non_null(jn);
        assert_int_equal(json_object_size(jn), 1);
        assert_string_equal(json_string_value(json_object_get(
                                json_object_get(jn, "validated_by"), "method")),
                            "none");
        json_decref(jn);
    }

    /* no gets: the figure per get is unknown, the change too */
    rows[0] = sim_row(4096, 0, 30.0, 0, 0, "");
    rows[1] = sim_row(16384, 100, 20.0, 100, 5, "");
    adv_validation_compute(&v, &sim, NULL, 4096, 16384);
    assert_true(v.have_sim);
    assert_true(isnan(v.sim_cur.io_ms_per_get));
    assert_true(isnan(v.sim_cur.hit_ratio));
    assert_true(isnan(v.io_change_pct));
}

/* ---- engine detection ---------------------------------------------------- */

static void test_engine_detect(void **state)
{
    char e[32];
    struct pt_err err;
    (void)state;

    assert_int_equal(adv_engine_detect("postgresql", 1, COLL_ENGINE_MYSQL, e,
                                       sizeof(e), &err),
                     0);
    assert_string_equal(e, "postgresql"); /* --engine wins */
    assert_int_equal(
        adv_engine_detect(NULL, 1, COLL_ENGINE_SQLITE, e, sizeof(e), &err), 0);
    assert_string_equal(e, "db2"); /* the demo answers the DB2 question */
    assert_int_equal(
        adv_engine_detect(NULL, 0, COLL_ENGINE_MYSQL, e, sizeof(e), &err), 0);
    assert_string_equal(e, "mysql");
    assert_int_equal(
        adv_engine_detect(NULL, 0, COLL_ENGINE_AUTO, e, sizeof(e), &err),
        PT_EDATA);
    assert_non_null(strstr(err.msg, "`engine`"));
    assert_string_equal(adv_dialect_for("mariadb"), "mysql");
    assert_string_equal(adv_dialect_for("postgresql"), "postgresql");
}

/* ---- empirical workload ---------------------------------------------------
 */

static const char profile[] =
    "{\"name\": \"t\", \"requests\": 100, \"seed\": 1, \"servers\": 1,"
    " \"rate_per_s\": 100,"
    " \"size\": {\"dist\": \"lognormal\", \"median\": 3000, \"sigma\": 0.9},"
    " \"mix\": {\"get\": 0.6, \"set\": 0.38, \"del\": 0.02},"
    " \"sessions\": {\"concurrent\": 50, \"requests_per_session\": 10,"
    " \"timeout_s\": 600}}";

static void test_workload_empirical(void **state)
{
    static const uint64_t sampled[] = {300, 5000, 40000, 5000000000ULL};
    struct sim_workload w;
    struct sim_wgen *g = NULL;
    struct sim_wrec q;
    struct pt_err err;
    json_t *prof = json_loads(profile, 0, NULL);
    (void)state;

    assert_non_null(prof);
    assert_int_equal(sim_workload_from_json(&w, prof, "t", &err), 0);
    json_decref(prof);
    assert_int_equal(adv_workload_empirical(&w, sampled, 0, &err), PT_EDATA);
    assert_int_equal(adv_workload_empirical(&w, sampled, 4, &err), 0);
    assert_int_equal(w.size_dist, SIM_SIZE_EMPIRICAL);
    assert_int_equal(w.n_sizes, 4);
    assert_int_equal(w.sizes[3], 2147483647u); /* clamped */
    /* the operation mix and sessions are the profile's */
    assert_int_equal(w.sessions, 1);
    assert_true(fabs(w.p_get - 0.6) < 1e-12);
    /* every generated size is one of the sampled ones */
    assert_int_equal(sim_wgen_new(&w, 42, &g, &err), 0);
    for (int i = 0; i < 2000; i++) {
        assert_int_equal(sim_wgen_next(g, &q), 1);
        if (q.op == SIM_SET)
            assert_true(q.size_bytes == 300 || q.size_bytes == 5000 ||
                        q.size_bytes == 40000 || q.size_bytes == 2147483647u);
    }
    sim_wgen_free(g);
    sim_workload_release(&w);
}

/* ---- tuned engine -------------------------------------------------------- */

static void test_engine_tuned(void **state)
{
    struct rec_engine e;
    struct pt_err err;
    (void)state;

    memset(&e, 0, sizeof(e));
    snprintf(e.name, sizeof(e.name), "postgresql");
    e.n_pages = 2;
    e.pages[0].page_size_bytes = 8192;
    e.pages[0].inline_limit_bytes = 2000;
    e.pages[0].max_row_bytes = 2032;
    e.pages[1].page_size_bytes = 16384;
    e.pages[1].inline_limit_bytes = 4000;
    e.pages[1].max_row_bytes = 8000;
    assert_int_equal(adv_engine_tuned(&e, 8192, 4000, &err), 0);
    assert_int_equal(e.pages[0].inline_limit_bytes, 4000);
    assert_int_equal(e.pages[0].max_row_bytes, 4000);      /* raised to fit */
    assert_int_equal(e.pages[1].inline_limit_bytes, 4000); /* untouched */
    assert_int_equal(adv_engine_tuned(&e, 16384, 6000, &err), 0);
    assert_int_equal(e.pages[1].max_row_bytes, 8000); /* already fits */
    assert_int_equal(adv_engine_tuned(&e, 32768, 6000, &err), PT_EDATA);
}

/* ---- the verdict --------------------------------------------------------- */

/* Two predicted rows (4K, 16K) and a replay whose 16K result differs from
 * 4K by d_mean [d_lo, d_hi] over 5 rounds. */
static void verdict_setup(struct sim_result_row rows[2],
                          struct sim_plan_result *sim,
                          struct store_plan_result *rep, double rps_cur,
                          double rps_rec, int calibrated, double d_mean,
                          double d_lo, double d_hi)
{
    memset(sim, 0, sizeof(*sim));
    memset(rep, 0, sizeof(*rep));
    rows[0] = sim_row(4096, 1000, 200.0, 4000, 400, "");
    rows[1] = sim_row(16384, 1000, 50.0, 4000, 100, "");
    for (int i = 0; i < 2; i++) {
        struct sim_predicted *p = &rows[i].predicted;
        double x = i ? rps_rec : rps_cur;
        p->present = 1;
        p->clients = 8;
        p->think_ms = 10;
        p->req_per_s = x;
        p->response_ms = 8 / x * 1000 - 10;
        if (calibrated) {
            p->calibrated = p->has_range = 1;
            snprintf(p->calibration, sizeof(p->calibration), "here");
            p->req_per_s_lo = x * 0.95;
            p->req_per_s_hi = x * 1.05;
            p->response_ms_lo = p->response_ms * 0.95;
            p->response_ms_hi = p->response_ms * 1.05;
        }
    }
    sim->rows = rows;
    sim->n_rows = 2;
    rep->n_results = 2;
    rep->n_rounds = 5;
    rep->results[0].page_size_bytes = 4096;
    rep->results[0].ops_per_s = 1000;
    rep->results[0].n_rounds = 5;
    rep->results[1].page_size_bytes = 16384;
    rep->results[1].ops_per_s = 1000 * (1 + d_mean);
    rep->results[1].n_rounds = 5;
    rep->results[1].diff_mean = d_mean;
    rep->results[1].diff_lo = d_lo;
    rep->results[1].diff_hi = d_hi;
}

static const char *verdict_word(const json_t *j)
{
    return json_string_value(
        json_object_get(json_object_get(j, "verdict"), "word"));
}

static void test_verdict_calibrated(void **state)
{
    struct sim_result_row rows[2];
    struct sim_plan_result sim;
    struct store_plan_result rep;
    struct adv_validation v;
    json_t *j;
    (void)state;

    /* predicted +20 %, range 100*0.95..100*1.05 vs 120*0.95..120*1.05 */
    verdict_setup(rows, &sim, &rep, 100, 120, 1, 0.15, 0.10, 0.20);
    adv_validation_compute(&v, &sim, &rep, 4096, 16384);
    assert_true(v.have_pred && v.pred_calibrated && v.pred_has_range);
    assert_true(fabs(v.pred_rps_pct - 20) < 1e-9);
    assert_true(fabs(v.pred_rps_lo_pct - (114.0 / 105 - 1) * 100) < 1e-9);
    assert_true(fabs(v.pred_rps_hi_pct - (126.0 / 95 - 1) * 100) < 1e-9);
    assert_true(v.pred_resp_pct < 0);
    assert_true(v.have_verdict);
    assert_int_equal(v.verdict.verdict, STORE_VERDICT_CONFIRMS);
    assert_non_null(strstr(v.compared_with, "calibration 'here'"));
    j = adv_validation_to_json(&v);
    assert_string_equal(verdict_word(j), "confirms");
    json_decref(j);

    /* a measured gain far above the range contradicts, with the numbers */
    verdict_setup(rows, &sim, &rep, 100, 120, 1, 0.60, 0.50, 0.70);
    adv_validation_compute(&v, &sim, &rep, 4096, 16384);
    assert_int_equal(v.verdict.verdict, STORE_VERDICT_CONTRADICTS);
    assert_non_null(strstr(v.verdict.why, "+60.0 %"));
    assert_non_null(strstr(v.verdict.why, "larger than predicted"));

    /* an interval spanning zero is inconclusive */
    verdict_setup(rows, &sim, &rep, 100, 120, 1, 0.05, -0.02, 0.12);
    adv_validation_compute(&v, &sim, &rep, 4096, 16384);
    assert_int_equal(v.verdict.verdict, STORE_VERDICT_INCONCLUSIVE);
}

static void test_verdict_uncalibrated_direction(void **state)
{
    struct sim_result_row rows[2];
    struct sim_plan_result sim;
    struct store_plan_result rep;
    struct adv_validation v;
    json_t *j, *p;
    (void)state;

    /* uncalibrated +1 % against a measured +40 %: the sign agrees, but an
     * uncalibrated model's figures have no range and are another
     * machine's; the sign alone is no verdict (issue 25) */
    verdict_setup(rows, &sim, &rep, 100, 101, 0, 0.40, 0.30, 0.50);
    adv_validation_compute(&v, &sim, &rep, 4096, 16384);
    assert_true(v.have_pred && !v.pred_has_range);
    assert_false(v.have_verdict);
    assert_non_null(strstr(v.compared_with, "uncalibrated"));
    j = adv_validation_to_json(&v);
    p = json_object_get(json_object_get(j, "predicted"),
                        "req_per_s_change_pct");
    assert_true(json_is_null(json_object_get(p, "lo")));
    assert_true(json_is_null(json_object_get(p, "hi")));
    json_decref(j);

    /* nor does a measured loss against the predicted gain make one */
    verdict_setup(rows, &sim, &rep, 100, 101, 0, -0.20, -0.30, -0.10);
    adv_validation_compute(&v, &sim, &rep, 4096, 16384);
    assert_false(v.have_verdict);

    /* fewer than 2 rounds: no interval, no verdict */
    verdict_setup(rows, &sim, &rep, 100, 101, 0, -0.20, -0.30, -0.10);
    rep.results[1].n_rounds = 1;
    adv_validation_compute(&v, &sim, &rep, 4096, 16384);
    assert_false(v.have_verdict);

    /* no prediction: no verdict */
    verdict_setup(rows, &sim, &rep, 100, 101, 0, -0.20, -0.30, -0.10);
    rows[1].predicted.present = 0;
    adv_validation_compute(&v, &sim, &rep, 4096, 16384);
    assert_false(v.have_pred);
    assert_false(v.have_verdict);
    j = adv_validation_to_json(&v);
    assert_null(json_object_get(j, "verdict"));
    json_decref(j);
}

/* The server replay's reads warning: at 1.5 times and 0.01 more, not
 * below either; from none; never without a server replay. */
static void test_server_reads_note(void **state)
{
    struct adv_validation v;
    char buf[512];

    (void)state;
    memset(&v, 0, sizeof(v));
    v.have_server = 1;
    v.srv_rps[0] = 100;
    v.srv_rps[1] = 115.5;
    v.srv_read_per_op[0] = 0.120;
    v.srv_read_per_op[1] = 0.378; /* measured: compressible text, 5888 */
    assert_int_equal(adv_server_reads_note(&v, buf, sizeof(buf)), 1);
    assert_non_null(strstr(buf, "3.2 times"));
    assert_non_null(strstr(buf, "0.120 -> 0.378"));
    assert_non_null(strstr(buf, "+15.5 %"));
    v.srv_read_per_op[1] = 0.179; /* under 1.5 times */
    assert_int_equal(adv_server_reads_note(&v, buf, sizeof(buf)), 0);
    assert_string_equal(buf, "");
    v.srv_read_per_op[1] = 0.180; /* exactly 1.5 times */
    assert_int_equal(adv_server_reads_note(&v, buf, sizeof(buf)), 1);
    v.srv_read_per_op[0] = 0.004; /* 2.5 times, but only 0.006 more */
    v.srv_read_per_op[1] = 0.010;
    assert_int_equal(adv_server_reads_note(&v, buf, sizeof(buf)), 0);
    v.srv_read_per_op[0] = 0; /* from none */
    v.srv_read_per_op[1] = 0.05;
    assert_int_equal(adv_server_reads_note(&v, buf, sizeof(buf)), 1);
    assert_non_null(strstr(buf, "read none"));
    v.srv_read_per_op[0] = 0.378; /* fewer reads: nothing to say */
    v.srv_read_per_op[1] = 0.120;
    assert_int_equal(adv_server_reads_note(&v, buf, sizeof(buf)), 0);
    v.srv_read_per_op[0] = 0.1;
    v.srv_read_per_op[1] = 0.5;
    v.have_server = 0;
    assert_int_equal(adv_server_reads_note(&v, buf, sizeof(buf)), 0);
}

/* A server result of 5 rounds: candidate 1 reads a per operation in
 * every round but the jitter j[k], candidate 2 b; req/s r1, r2. */
static void server_res(struct coll_pgr_result *res, double a, double b,
                       double r1, double r2)
{
    static const double j[5] = {0.02, -0.02, 0.01, -0.01, 0};
    memset(res, 0, sizeof(*res));
    res->n_cand = 2;
    for (size_t c = 0; c < 2; c++) {
        struct coll_pgr_cand_result *cr = &res->r[c];
        double per = c ? b : a, rps = c ? r2 : r1;
        cr->n_rounds = 5;
        cr->ops = 10000;
        for (unsigned k = 0; k < 5; k++) {
            cr->round_rps[k] = rps * (1 + (c ? j[k] : -j[k]) / 4);
            cr->round_reads[k] =
                (uint64_t)(per * (1 + (c ? j[k] : 0)) * 10000 + 0.5);
            cr->blocks.heap_read += cr->round_reads[k];
        }
        cr->requests_per_s = rps;
    }
}

/* A prediction of a and b heap + TOAST reads per operation. */
static void server_pred(struct adv_pgr_prediction *p, double a, double b)
{
    memset(p, 0, sizeof(*p));
    p->have = 1;
    p->n_cand = 2;
    p->c[0].have = p->c[1].have = 1;
    p->c[0].blocks.toast_read = (uint64_t)(a * 50000 + 0.5);
    p->c[1].blocks.toast_read = (uint64_t)(b * 50000 + 0.5);
}

/*
 * The server verdict by magnitude (issue 28): the reads' measured change
 * against pgpredict's, each predicted figure +-10 %. Predicted 1.0 -> 0.6
 * gives the range [0.6 * 0.9 / 1.1, 0.6 * 1.1 / 0.9] - 1 = [-50.9 %,
 * -26.7 %]; measured changes at, inside and either side of its ends.
 */
static void test_server_judge_reads(void **state)
{
    struct coll_pgr_result res;
    struct adv_pgr_prediction pred;
    struct store_verdict_out out;
    struct adv_pgr_reads rd;
    (void)state;

    server_pred(&pred, 1.0, 0.6);
    /* measured 1.0 -> 0.6: confirms, decided by the reads */
    server_res(&res, 1.0, 0.6, 100, 101);
    assert_int_equal(adv_pgr_judge(&res, 1, &pred, &out, &rd),
                     STORE_VERDICT_CONFIRMS);
    assert_true(rd.have);
    assert_int_equal(rd.verdict, STORE_VERDICT_CONFIRMS);
    assert_true(fabs(rd.predicted.lo - (0.54 / 1.1 - 1)) < 1e-9);
    assert_true(fabs(rd.predicted.hi - (0.66 / 0.9 - 1)) < 1e-9);
    assert_non_null(strstr(out.why, "within the predicted range"));
    assert_non_null(strstr(out.why, "requests/s"));
    /* measured -20 %: outside the range, fewer reads than predicted fell */
    server_res(&res, 1.0, 0.8, 100, 101);
    assert_int_equal(adv_pgr_judge(&res, 1, &pred, &out, &rd),
                     STORE_VERDICT_CONTRADICTS);
    assert_non_null(strstr(rd.why, "a smaller change than predicted"));
    /* measured -70 %: larger than predicted */
    server_res(&res, 1.0, 0.3, 100, 101);
    assert_int_equal(adv_pgr_judge(&res, 1, &pred, &out, &rd),
                     STORE_VERDICT_CONTRADICTS);
    assert_non_null(strstr(rd.why, "a larger change than predicted"));
    /* just inside either end, and outside it by more than the rounds'
     * interval (+-1.8 points) */
    server_res(&res, 1.0, 0.54 / 1.1 + 0.005, 100, 101);
    assert_int_equal(adv_pgr_judge(&res, 1, &pred, &out, &rd),
                     STORE_VERDICT_CONFIRMS);
    server_res(&res, 1.0, 0.66 / 0.9 - 0.005, 100, 101);
    assert_int_equal(adv_pgr_judge(&res, 1, &pred, &out, &rd),
                     STORE_VERDICT_CONFIRMS);
    server_res(&res, 1.0, 0.54 / 1.1 - 0.03, 100, 101);
    assert_int_equal(adv_pgr_judge(&res, 1, &pred, &out, &rd),
                     STORE_VERDICT_CONTRADICTS);
    server_res(&res, 1.0, 0.66 / 0.9 + 0.03, 100, 101);
    assert_int_equal(adv_pgr_judge(&res, 1, &pred, &out, &rd),
                     STORE_VERDICT_CONTRADICTS);
    /* more reads where fewer were predicted: the opposite direction */
    server_res(&res, 1.0, 1.5, 100, 101);
    assert_int_equal(adv_pgr_judge(&res, 1, &pred, &out, &rd),
                     STORE_VERDICT_CONTRADICTS);
    assert_non_null(strstr(rd.why, "the opposite direction"));
    /* reads as predicted, but requests/s fell in every round: contradicts */
    server_res(&res, 1.0, 0.6, 100, 80);
    assert_int_equal(adv_pgr_judge(&res, 1, &pred, &out, &rd),
                     STORE_VERDICT_CONTRADICTS);
    assert_int_equal(rd.verdict, STORE_VERDICT_CONFIRMS);
    assert_true(strncmp(out.why, "contradicts: measured", 21) == 0);
    /* the pool holds the tables: the reads judge nothing, the requests/s
     * direction decides (a gain in every round: confirms) */
    server_pred(&pred, 0.004, 0.001);
    server_res(&res, 0.004, 0.001, 100, 110);
    assert_int_equal(adv_pgr_judge(&res, 1, &pred, &out, &rd),
                     STORE_VERDICT_CONFIRMS);
    assert_int_equal(rd.verdict, STORE_VERDICT_INCONCLUSIVE);
    assert_non_null(strstr(rd.why, "shared_buffers holds the scratch tables"));
    /* at the floor on one side: judged */
    server_pred(&pred, ADV_SERVER_READS_FLOOR, 0.004);
    server_res(&res, ADV_SERVER_READS_FLOOR, 0.004, 100, 110);
    adv_pgr_judge(&res, 1, &pred, &out, &rd);
    assert_int_not_equal(rd.verdict, STORE_VERDICT_INCONCLUSIVE);
    /* without a prediction: the requests/s direction alone */
    server_res(&res, 1.0, 0.6, 100, 110);
    assert_int_equal(adv_pgr_judge(&res, 1, NULL, &out, &rd),
                     STORE_VERDICT_CONFIRMS);
    assert_false(rd.have);
    assert_null(strstr(out.why, "heap + TOAST"));
    /* a predicted rise of reads, measured: the reads confirm their
     * prediction, but that is no gain; requests/s decide (they fell) */
    server_pred(&pred, 0.5, 1.2);
    server_res(&res, 0.5, 1.2, 100, 80);
    assert_int_equal(adv_pgr_judge(&res, 1, &pred, &out, &rd),
                     STORE_VERDICT_CONTRADICTS);
    assert_int_equal(rd.verdict, STORE_VERDICT_CONFIRMS);
    server_res(&res, 0.5, 1.2, 100, 100);
    res.r[1].round_rps[0] = 90; /* an interval across zero */
    res.r[1].round_rps[1] = 110;
    assert_int_equal(adv_pgr_judge(&res, 1, &pred, &out, &rd),
                     STORE_VERDICT_INCONCLUSIVE);
    /* one round: no interval, inconclusive */
    server_pred(&pred, 1.0, 0.6);
    server_res(&res, 1.0, 0.6, 100, 110);
    res.r[0].n_rounds = res.r[1].n_rounds = 1;
    assert_int_equal(adv_pgr_judge(&res, 1, &pred, &out, &rd),
                     STORE_VERDICT_INCONCLUSIVE);
}

static void test_config_defaults(void **state)
{
    struct adv_config c;
    (void)state;

    adv_config_init(&c);
    assert_true(fabs(c.drift_tolerance - 0.10) < 1e-12);
    assert_true(c.validate_sim && c.validate_replay);
    assert_string_equal(c.out_dir, "pagetune-advice");
    assert_int_equal(c.requests, 20000);
    assert_int_equal(c.seed, 42);
    assert_int_equal(c.cache_bytes, 2u << 20);
    assert_int_equal(c.clients, 1);
    assert_true(c.replay_budget_s > 0 && c.replay_budget_s <= 30);
    assert_string_equal(adv_file_name(ADV_F_REC), "recommendation.json");
}

/*
 * adv_run() called directly, as a front door other than the CLI would
 * (issue 22): the demo's store, validated by simulation only, in a
 * temporary out-dir. The SQLite ODBC driver is a test dependency
 * (scripts/install-deps.sh --test); without it the test is skipped.
 */
static void test_adv_run_direct(void **state)
{
    char dir[] = "/tmp/pt-test-advrun.XXXXXX";
    struct adv_config c;
    struct adv_result r;
    struct pt_err err;
    json_t *j;
    int rc;
    (void)state;

    assert_non_null(mkdtemp(dir));
    adv_config_init(&c);
    c.demo = 1;
    c.requests = 2000;
    c.validate_replay = 0;
    c.monitor_s = 0.1;
    c.out_dir = dir;
    c.force = 1;
    err_clear(&err);
    rc = adv_run(&c, &r, &err);
    if (rc == PT_EUNAVAIL) {
        adv_result_release(&r);
        rmdir(dir);
        skip(); /* no SQLite ODBC driver */
    }
    if (rc != 0)
        fail_msg("adv_run: %s", err.msg);
    assert_string_equal(r.engine, "db2");
    assert_non_null(r.rec);
    /* the demo's store runs at 4K pages, read from it: not assumed */
    assert_int_equal(r.cur_page_size, 4096);
    assert_false(r.run.current.page_assumed);
    assert_int_equal(r.validation.method, ADV_BY_SIMULATION);
    assert_true(r.have_sim && !r.have_replay);
    j = adv_result_to_json(&r);
    assert_non_null(j);
    assert_string_equal(
        json_string_value(json_object_get(
            json_object_get(json_object_get(j, "validation"), "validated_by"),
            "method")),
        "simulation");
    json_decref(j);
    /* the run wrote nothing yet: the caller writes the out-dir */
    assert_int_equal(rmdir(dir), 0);
    adv_result_release(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_drift_none),
        cmocka_unit_test(test_drift_pool_within_tolerance),
        cmocka_unit_test(test_drift_pool_beyond_tolerance),
        cmocka_unit_test(test_drift_page_size_and_unknown_pool),
        cmocka_unit_test(test_validation_sim_and_replay),
        cmocka_unit_test(test_validation_comparison_and_missing),
        cmocka_unit_test(test_verdict_calibrated),
        cmocka_unit_test(test_verdict_uncalibrated_direction),
        cmocka_unit_test(test_engine_detect),
        cmocka_unit_test(test_workload_empirical),
        cmocka_unit_test(test_engine_tuned),
        cmocka_unit_test(test_server_reads_note),
        cmocka_unit_test(test_server_judge_reads),
        cmocka_unit_test(test_config_defaults),
        cmocka_unit_test(test_adv_run_direct),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
