/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_perf.c — unit tests for perf/: exact MVA against published
 * textbook tables and the asymptotic bounds, replicated and multi-server
 * centres, the demand formulas on hand-computed count vectors, cost
 * profiles, calibration (recovering known costs from a self-consistent
 * synthetic data set, refusing too few points), the calibration
 * profile's write/read round trip, the points CSV reader (quoting, row
 * selection, each refusal with its line) and the predictor (profiles in,
 * a simulation row's prediction out).
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
#include <unistd.h>

#include "perf/perf.h"

static void model3(struct perf_model *m, double d0, double d1, double d2)
{
    memset(m, 0, sizeof(*m));
    m->n = 3;
    m->c[0] = (struct perf_centre){"cpu", d0, 1, 1};
    m->c[1] = (struct perf_centre){"disk_a", d1, 1, 1};
    m->c[2] = (struct perf_centre){"disk_b", d2, 1, 1};
}

/*
 * R. Jain, The Art of Computer Systems Performance Analysis (Wiley 1991),
 * Example 34.2 and Table 34.1 "MVA Results for Example 34.2": a timesharing
 * system with Z = 4 s, CPU 16 visits x 0.125 s, disk A 10 x 0.3 s, disk B
 * 5 x 0.2 s, i.e. demands 2, 3 and 1 s. The table prints the response
 * time to 3 decimals (4 and more significant digits), throughput and queue
 * lengths to 3 decimals; every printed row is checked. (Lazowska et al.,
 * QSP 1984, ch. 6 gives the same recursion; its worked example was not at
 * hand, this one is.) Units: the model takes ms, the example seconds; MVA
 * is scale-free, so req_per_s / 1000 is the example's X per second.
 */
static void test_mva_jain_table_34_1(void **state)
{
    static const struct {
        unsigned n;
        double r, x, q_cpu, q_a, q_b;
    } rows[] = {
        {1, 6.000, 0.100, 0.200, 0.300, 0.100},
        {2, 7.400, 0.175, 0.421, 0.684, 0.193},
        {3, 9.088, 0.229, 0.651, 1.158, 0.273},
        {4, 11.051, 0.266, 0.878, 1.721, 0.338},
        {5, 13.256, 0.290, 1.088, 2.365, 0.388},
        {17, 47.045, 0.333, 1.974, 13.195, 0.499},
        {18, 50.032, 0.333, 1.981, 14.187, 0.499},
        {19, 53.022, 0.333, 1.987, 15.181, 0.500},
        {20, 56.016, 0.333, 1.991, 16.177, 0.500},
    };
    struct perf_model m;
    struct perf_result r;

    (void)state;
    model3(&m, 2, 3, 1);
    for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
        assert_int_equal(perf_mva(&m, rows[i].n, 4, &r, NULL), 0);
        assert_true(fabs(r.response_ms - rows[i].r) <= 0.0005);
        assert_true(fabs(r.req_per_s / 1000 - rows[i].x) <= 0.0005);
        assert_true(fabs(r.queue[0] - rows[i].q_cpu) <= 0.0005);
        assert_true(fabs(r.queue[1] - rows[i].q_a) <= 0.0005);
        assert_true(fabs(r.queue[2] - rows[i].q_b) <= 0.0005);
        assert_int_equal(r.bottleneck, 1); /* disk A */
        /* utilisation law U = X D, Little's law N = X (R + Z) */
        assert_true(fabs(r.util[1] - r.req_per_s / 1000 * 3) < 1e-12);
        assert_true(fabs(r.req_per_s / 1000 * (r.response_ms + 4) - rows[i].n) <
                    1e-9);
    }
}

/*
 * Jain (1991), Example 35.5 (convolution algorithm, the same network
 * solved by another exact method): demands CPU 0.78, disk A 2.34, disk B
 * 1.56 s, N = 3, Z = 4.68 s; the book gets X = 0.264/s and R = 6.694 s,
 * and U_CPU = 0.206, U_A = 0.618, U_B = 0.412 as the rounded X times D
 * (so those agree to the rounding of X: 0.0005 * 2.34 ≈ 0.0012).
 */
static void test_mva_jain_convolution_35_5(void **state)
{
    struct perf_model m;
    struct perf_result r;

    (void)state;
    model3(&m, 0.78, 2.34, 1.56);
    assert_int_equal(perf_mva(&m, 3, 4.68, &r, NULL), 0);
    assert_true(fabs(r.req_per_s / 1000 - 0.264) <= 0.0005);
    assert_true(fabs(r.response_ms - 6.694) <= 0.0005);
    assert_true(fabs(r.util[0] - 0.206) <= 0.0012);
    assert_true(fabs(r.util[1] - 0.618) <= 0.0012);
    assert_true(fabs(r.util[2] - 0.412) <= 0.0012);
}

/* Asymptotic bounds (Lazowska et al. 1984, ch. 5) hold at every N and are
 * reached at both ends. */
static void test_mva_bounds(void **state)
{
    struct perf_model m;
    struct perf_result r;
    double d = 5.5, dmax = 3.0, z = 40;

    (void)state;
    model3(&m, 1.5, dmax, 1.0);
    for (unsigned n = 1; n <= 200; n++) {
        assert_int_equal(perf_mva(&m, n, z, &r, NULL), 0);
        assert_true(r.req_per_s <= r.x_bound_per_s * (1 + 1e-12));
        assert_true(r.response_ms >= r.r_bound_ms * (1 - 1e-12));
        assert_true(fabs(r.x_bound_per_s - 1000 * fmin(n / (d + z), 1 / dmax)) <
                    1e-9);
        if (n == 1)
            assert_true(fabs(r.response_ms - d) < 1e-12);
    }
    /* deep saturation: X → 1 / D_max, R → N D_max - Z */
    assert_true(fabs(r.req_per_s - 1000 / dmax) / (1000 / dmax) < 1e-6);
    assert_true(fabs(r.response_ms - (200 * dmax - z)) / r.response_ms < 1e-3);
    /* refusals */
    assert_int_equal(perf_mva(&m, 0, z, &r, NULL), PT_EDATA);
    assert_int_equal(perf_mva(&m, 1, -1, &r, NULL), PT_EDATA);
    m.c[1].demand_ms = NAN;
    assert_int_equal(perf_mva(&m, 1, z, &r, NULL), PT_EDATA);
}

/* A centre replicated S times with demand D/S each is S separate centres. */
static void test_mva_copies_and_servers(void **state)
{
    struct perf_model a, b;
    struct perf_result ra, rb;

    (void)state;
    memset(&a, 0, sizeof(a));
    a.n = 2;
    a.c[0] = (struct perf_centre){"app", 2.0, 3, 1};
    a.c[1] = (struct perf_centre){"db", 4.0, 1, 1};
    memset(&b, 0, sizeof(b));
    b.n = 4;
    for (int i = 0; i < 3; i++)
        b.c[i] = (struct perf_centre){"app", 2.0, 1, 1};
    b.c[3] = (struct perf_centre){"db", 4.0, 1, 1};
    for (unsigned n = 1; n <= 60; n += 7) {
        assert_int_equal(perf_mva(&a, n, 10, &ra, NULL), 0);
        assert_int_equal(perf_mva(&b, n, 10, &rb, NULL), 0);
        assert_true(fabs(ra.req_per_s - rb.req_per_s) < 1e-9);
        assert_true(fabs(ra.response_ms - rb.response_ms) < 1e-9);
        assert_true(fabs(ra.resident_ms[0] - 3 * rb.resident_ms[0]) < 1e-9);
    }
    /* two servers: saturates at 2 / D, one request sees no queue */
    a.n = 1;
    a.c[0] = (struct perf_centre){"cpu", 4.0, 1, 2};
    assert_int_equal(perf_mva(&a, 1, 0, &ra, NULL), 0);
    assert_true(fabs(ra.response_ms - 4.0) < 1e-12);
    assert_int_equal(perf_mva(&a, 400, 0, &ra, NULL), 0);
    assert_true(fabs(ra.req_per_s - 500.0) < 1e-3);
    assert_true(fabs(ra.util[0] - 1.0) < 1e-5);
}

/* Costs every term of the demand formulas uses, all distinct. */
static void full_costs(struct perf_costs *c)
{
    perf_costs_init(c);
    c->app_cpu_fixed_ms = 2.0;
    c->app_cpu_per_kb_ms = 0.05;
    c->app_cpu_per_row_ms = 0.15;
    c->repl_cpu_per_msg_ms = 0.3;
    c->net_per_kb_ms = 0.01;
    c->db_cpu_per_lread_ms = 0.02;
    c->db_cpu_per_row_ms = 0.1;
    c->db_cpu_per_logrec_ms = 0.04;
    c->fscache_req_ms = 0.2;
    c->fscache_per_kb_ms = 0.003;
    c->disk_overhead_ms = 14.06;
    c->disk_per_kb_ms = 0.33 / 4;
    c->log_write_ms = 3.0;
    c->log_per_kb_ms = 0.02;
    c->offload_read_ms = 0.5;
    c->offload_write_ms = 0.7;
}

static void test_demand_formulas(void **state)
{
    struct perf_costs c;
    struct perf_counts n = {0};
    struct perf_model m;
    struct pt_err err;

    (void)state;
    full_costs(&c);
    c.app_servers = 2;
    c.db_cpus = 2;
    n.requests = 100;
    n.kb_serialised = 800;    /* 8 KB / request */
    n.repl_messages = 300;    /* 3 */
    n.peer_fetches = 50;      /* 0.5 → 1 message */
    n.db_kb = 500;            /* 5 */
    n.repl_kb = 100;          /* 1 */
    n.logical_reads = 400;    /* 4 */
    n.db_rows = 200;          /* 2 */
    n.log_records = 300;      /* 3 */
    n.direct_read_reqs = 100; /* 1 */
    n.direct_read_kb = 1000;  /* 10 */
    n.direct_write_reqs = 50; /* 0.5 */
    n.direct_write_kb = 500;  /* 5 */
    n.fscache_share = 0.25;
    n.physical_reads = 30;    /* 0.3 pages */
    n.physical_writes = 20;   /* 0.2 pages */
    n.page_size_bytes = 8192; /* 8 KB */
    n.log_writes = 50;        /* 0.5 */
    n.log_kb = 600;           /* 6 */
    n.offload_reads = 40;     /* 0.4 */
    n.offload_writes = 10;    /* 0.1 */
    assert_int_equal(perf_demand(&c, &n, &m, &err), 0);
    assert_int_equal(m.n, PERF_N_CENTRES);
    /* (1) (2 + 8 * 0.05 + 2 rows * 0.15 + (3 + 1) * 0.3) / 2 servers */
    assert_true(fabs(m.c[PERF_APP_CPU].demand_ms - 3.9 / 2) < 1e-12);
    assert_int_equal(m.c[PERF_APP_CPU].copies, 2);
    /* (2) 6 KB * 0.01 */
    assert_true(fabs(m.c[PERF_NET].demand_ms - 0.06) < 1e-12);
    /* (3) 4*0.02 + 2*0.1 + 3*0.04 + 0.25*(1 + 0.5)*0.2 + 0.25*(10 + 5)*0.003 */
    assert_true(fabs(m.c[PERF_DB_CPU].demand_ms - 0.48625) < 1e-12);
    assert_int_equal(m.c[PERF_DB_CPU].servers, 2);
    /* (4) (0.5 pages + 0.75 * 1.5 direct requests) * 14.06
     *     + (0.5 * 8 + 0.75 * 15 + 0.25 * 5 written back) KB * 0.0825 */
    assert_true(fabs(m.c[PERF_DB_DISK].demand_ms -
                     (1.625 * 14.06 + 16.5 * 0.0825)) < 1e-12);
    /* (5) 0.5 * 3 + 6 * 0.02 */
    assert_true(fabs(m.c[PERF_LOG_DISK].demand_ms - 1.62) < 1e-12);
    /* (6) (0.4 * 0.5 + 0.1 * 0.7) / 2 servers */
    assert_true(fabs(m.c[PERF_OFFLOAD].demand_ms - 0.27 / 2) < 1e-12);
    /* (7) no front tier unless a profile sets one */
    assert_true(m.c[PERF_FRONT_CPU].demand_ms == 0);
    c.front_cpu_per_req_ms = 1.5;
    c.front_cpus = 2;
    assert_int_equal(perf_demand(&c, &n, &m, &err), 0);
    assert_true(fabs(m.c[PERF_FRONT_CPU].demand_ms - 1.5) < 1e-12);
    assert_int_equal(m.c[PERF_FRONT_CPU].servers, 2);
    assert_int_equal(m.c[PERF_FRONT_CPU].copies, 1);
    assert_string_equal(m.c[PERF_FRONT_CPU].name, "front_cpu");
    c.front_cpu_per_req_ms = NAN;
    assert_int_equal(perf_demand(&c, &n, &m, &err), PT_EDATA);
    assert_string_equal(err.msg, "cost 'front_cpu_per_req_ms' is not set "
                                 "(requests per request 1)");
    c.front_cpu_per_req_ms = 0;
    /* the collector's cost: 0 unless a profile sets it; then KB
     * serialised a request times the object's KB, at the app CPU:
     * 8 KB * 4 KB * 0.01 / 2 servers more */
    n.object_kb = 4;
    assert_true(c.app_gc_per_kb2_ms == 0);
    assert_int_equal(perf_demand(&c, &n, &m, &err), 0);
    assert_true(fabs(m.c[PERF_APP_CPU].demand_ms - 3.9 / 2) < 1e-12);
    c.app_gc_per_kb2_ms = 0.01;
    assert_int_equal(perf_demand(&c, &n, &m, &err), 0);
    assert_true(fabs(m.c[PERF_APP_CPU].demand_ms - (3.9 + 0.32) / 2) < 1e-12);
    c.app_gc_per_kb2_ms = NAN;
    assert_int_equal(perf_demand(&c, &n, &m, &err), PT_EDATA);
    assert_string_equal(err.msg, "cost 'app_gc_per_kb2_ms' is not set (KB "
                                 "serialised times object KB per request 32)");
    c.app_gc_per_kb2_ms = 0;
    n.object_kb = 0;

    /* an unset cost matters only when its count is not zero */
    c.offload_read_ms = NAN;
    assert_int_equal(perf_demand(&c, &n, &m, &err), PT_EDATA);
    assert_string_equal(err.msg, "cost 'offload_read_ms' is not set "
                                 "(offload reads per request 0.4)");
    n.offload_reads = 0;
    assert_int_equal(perf_demand(&c, &n, &m, &err), 0);
    n.requests = 0;
    assert_int_equal(perf_demand(&c, &n, &m, &err), PT_EDATA);
    n.requests = 100;
    n.db_rows = -1;
    assert_int_equal(perf_demand(&c, &n, &m, &err), PT_EDATA);
    assert_string_equal(err.msg, "counts: 'db_rows' is negative or not finite");
}

/* Placement: a shared host adds the database CPU to the app CPU, a shared
 * device the log to the table space; nothing is lost or counted twice. */
static void test_demand_placement(void **state)
{
    struct perf_costs c;
    struct perf_counts n = {0};
    struct perf_model apart, shared;
    struct pt_err err;

    (void)state;
    full_costs(&c);
    n.requests = 10;
    n.kb_serialised = 40;
    n.logical_reads = 10;
    n.db_rows = 10;
    n.log_records = 5;
    n.log_writes = 5;
    n.log_kb = 20;
    n.physical_reads = 1;
    n.page_size_bytes = 4096;
    assert_int_equal(perf_demand(&c, &n, &apart, &err), 0);
    c.db_on_app_host = 1;
    c.log_on_data_disk = 1;
    assert_int_equal(perf_demand(&c, &n, &shared, &err), 0);
    assert_true(fabs(shared.c[PERF_APP_CPU].demand_ms -
                     (apart.c[PERF_APP_CPU].demand_ms +
                      apart.c[PERF_DB_CPU].demand_ms)) < 1e-12);
    assert_true(shared.c[PERF_DB_CPU].demand_ms == 0);
    assert_true(fabs(shared.c[PERF_DB_DISK].demand_ms -
                     (apart.c[PERF_DB_DISK].demand_ms +
                      apart.c[PERF_LOG_DISK].demand_ms)) < 1e-12);
    assert_true(shared.c[PERF_LOG_DISK].demand_ms == 0);
    c.app_servers = 2;
    assert_int_equal(perf_demand(&c, &n, &shared, &err), PT_EDATA);
    assert_string_equal(err.msg, "db_on_app_host needs app_servers 1, got 2");
}

/* The simulator's counters of seed 000's 4 KB object at a 4K page (the
 * object out of row, LONG VARCHAR) and at 8K (in row), mapped to counts. */
static void test_counts_from_sim(void **state)
{
    struct sim_app_stats app = {0};
    struct sim_db_stats db = {0};
    struct perf_sim_map map = {4000, 512, 1, 0, 100, SIM_SHARE_NOT_SHARED, 0};
    struct perf_counts n;
    struct pt_err err;

    (void)state;
    app.requests = 1000;
    app.gets = app.misses = app.db_reads = 490;
    app.sets = app.db_writes = 510;
    db.page_size_bytes = 4096;
    db.logical_reads = 1000;
    db.physical_reads = 1;
    db.direct_reads = 490 * 8; /* 8 sectors of 512 bytes each */
    db.direct_read_reqs = 490;
    db.direct_writes = 510 * 8;
    db.direct_write_reqs = 510;
    assert_int_equal(perf_counts_from_sim(&n, &app, &db, &map, &err), 0);
    assert_true(n.requests == 1000 && n.app_misses == 490);
    assert_true(fabs(n.kb_serialised - 1000 * 4000 / 1024.0) < 1e-9);
    assert_true(fabs(n.object_kb - 4000 / 1024.0) < 1e-12);
    assert_true(fabs(n.db_kb - n.kb_serialised) < 1e-9);
    assert_true(n.db_rows == 1000 && n.logical_reads == 1000);
    assert_true(n.direct_read_reqs == 490 && n.direct_read_kb == 490 * 4);
    assert_true(n.direct_write_reqs == 510 && n.direct_write_kb == 510 * 4);
    assert_true(n.fscache_share == 1 && n.page_size_bytes == 4096);
    assert_true(n.page_fscache_share == 0);
    assert_true(n.log_records == 510 && n.log_writes == 510);
    assert_true(fabs(n.log_kb - 510 * 4100 / 1024.0) < 1e-9);
    assert_true(n.repl_kb == 0 && n.offload_reads == 0);
    map.page_fscache_share = 1;
    assert_int_equal(perf_counts_from_sim(&n, &app, &db, &map, &err), 0);
    assert_true(n.page_fscache_share == 1 && n.fscache_share == 1);
    map.page_fscache_share = 2;
    assert_int_equal(perf_counts_from_sim(&n, &app, &db, &map, &err), PT_EDATA);
    map.page_fscache_share = 0;
    /* page logging: a 4100-byte record spans two 4K pages */
    map.page_logging = 1;
    assert_int_equal(perf_counts_from_sim(&n, &app, &db, &map, &err), 0);
    assert_true(fabs(n.log_kb - 510 * 8.0) < 1e-9);
    /* push replication: each message carries the entry */
    app.replication_messages = 30;
    app.peer_fetches = 5;
    map.sharing = SIM_SHARE_PUSH;
    assert_int_equal(perf_counts_from_sim(&n, &app, NULL, &map, &err), 0);
    assert_true(fabs(n.repl_kb - 35 * 4000 / 1024.0) < 1e-9);
    assert_true(n.logical_reads == 0 && n.direct_read_reqs == 0);
    map.sharing = SIM_SHARE_PULL;
    assert_int_equal(perf_counts_from_sim(&n, &app, NULL, &map, &err), 0);
    assert_true(fabs(n.repl_kb - 5 * 4000 / 1024.0) < 1e-9);
    app.requests = 0;
    assert_int_equal(perf_counts_from_sim(&n, &app, NULL, &map, &err),
                     PT_EDATA);
}

/* Seed 000's effect: the same direct reads cost device time on a DMS
 * device and DB CPU through the file-system cache (SMS). */
static void test_demand_fscache_moves_direct_io(void **state)
{
    struct perf_costs c;
    struct perf_counts n = {0};
    struct perf_model dev, fs;

    (void)state;
    full_costs(&c);
    n.requests = 1;
    n.direct_read_reqs = 1;
    n.direct_read_kb = 4;
    assert_int_equal(perf_demand(&c, &n, &dev, NULL), 0);
    n.fscache_share = 1;
    assert_int_equal(perf_demand(&c, &n, &fs, NULL), 0);
    assert_true(fabs(dev.c[PERF_DB_DISK].demand_ms - (14.06 + 4 * 0.0825)) <
                1e-12);
    assert_true(dev.c[PERF_DB_CPU].demand_ms == 0);
    assert_true(fs.c[PERF_DB_DISK].demand_ms == 0);
    assert_true(fabs(fs.c[PERF_DB_CPU].demand_ms - (0.2 + 4 * 0.003)) < 1e-12);
}

/* A store on files: the page reads the file-system cache serves cost a
 * system call and a copy on the database CPU and never reach the device;
 * page writes reach it later by write-behind (transfer, no positioning).
 * Share 0 charges every page to the device, as before. */
static void test_demand_page_fscache(void **state)
{
    struct perf_costs c;
    struct perf_counts n = {0};
    struct perf_model dev, fs, half;

    (void)state;
    full_costs(&c);
    n.requests = 2;
    n.page_size_bytes = 8192;
    n.physical_reads = 2; /* 1 page read and 0.5 page writes per request */
    n.physical_writes = 1;
    assert_int_equal(perf_demand(&c, &n, &dev, NULL), 0);
    assert_true(fabs(dev.c[PERF_DB_DISK].demand_ms -
                     1.5 * (14.06 + 8 * 0.0825)) < 1e-12);
    assert_true(dev.c[PERF_DB_CPU].demand_ms == 0);
    n.page_fscache_share = 1;
    assert_int_equal(perf_demand(&c, &n, &fs, NULL), 0);
    assert_true(fabs(fs.c[PERF_DB_CPU].demand_ms - 1.5 * (0.2 + 8 * 0.003)) <
                1e-12);
    assert_true(fabs(fs.c[PERF_DB_DISK].demand_ms - 0.5 * 8 * 0.0825) < 1e-12);
    n.page_fscache_share = 0.5;
    assert_int_equal(perf_demand(&c, &n, &half, NULL), 0);
    assert_true(fabs(half.c[PERF_DB_DISK].demand_ms -
                     0.5 * (dev.c[PERF_DB_DISK].demand_ms +
                            fs.c[PERF_DB_DISK].demand_ms)) < 1e-12);
    n.page_fscache_share = 1.5;
    assert_int_equal(perf_demand(&c, &n, &fs, NULL), PT_EDATA);
}

static void test_costs_from_profile(void **state)
{
    static const char good[] = "perf:\n  app_cpu_fixed_ms: 4.5\n"
                               "  app_servers: 4\n  disk_per_kb_ms: 0\n";
    static const char unknown[] = "perf:\n  app_cpu_ms: 4.5\n";
    static const char negative[] = "perf:\n  log_write_ms: -1\n";
    static const char fraction[] = "perf:\n  db_cpus: 1.5\n";
    static const char placement[] = "perf:\n  db_on_app_host: 2\n";
    struct perf_costs c;
    struct pt_err err;
    json_t *doc = NULL;
    struct rec_device d = {"article", 14.06, 12.0};

    (void)state;
    perf_costs_init(&c);
    assert_true(isnan(c.app_cpu_fixed_ms));
    assert_true(c.app_servers == 1);
    assert_int_equal(prof_loadb(good, strlen(good), "good", &doc, &err), 0);
    assert_int_equal(
        perf_costs_from_json(&c, json_object_get(doc, "perf"), "good", &err),
        0);
    json_decref(doc);
    assert_true(c.app_cpu_fixed_ms == 4.5 && c.app_servers == 4);
    assert_true(c.disk_per_kb_ms == 0 && isnan(c.log_write_ms));

    assert_int_equal(prof_loadb(unknown, strlen(unknown), "u", &doc, &err), 0);
    assert_int_equal(
        perf_costs_from_json(&c, json_object_get(doc, "perf"), "u.yaml", &err),
        PT_EDATA);
    assert_string_equal(err.msg, "u.yaml: unknown cost 'perf.app_cpu_ms'");
    json_decref(doc);
    assert_int_equal(prof_loadb(negative, strlen(negative), "n", &doc, &err),
                     0);
    assert_int_equal(
        perf_costs_from_json(&c, json_object_get(doc, "perf"), "n", &err),
        PT_EDATA);
    json_decref(doc);
    assert_int_equal(prof_loadb(fraction, strlen(fraction), "f", &doc, &err),
                     0);
    assert_int_equal(
        perf_costs_from_json(&c, json_object_get(doc, "perf"), "f", &err),
        PT_EDATA);
    json_decref(doc);

    assert_int_equal(prof_loadb(placement, strlen(placement), "p", &doc, &err),
                     0);
    assert_int_equal(
        perf_costs_from_json(&c, json_object_get(doc, "perf"), "p", &err),
        PT_EDATA);
    assert_string_equal(err.msg, "p: 'perf.db_on_app_host' must be 0 or 1");
    json_decref(doc);

    /* device semantics: 1 / 12 MB/s = 0.0833 ms per KB (IBM's formula) */
    perf_costs_set_device(&c, &d);
    assert_true(c.disk_overhead_ms == 14.06);
    assert_true(fabs(c.disk_per_kb_ms - 1.0 / 12.0) < 1e-12);

    for (int i = 0; i < PERF_N_COSTS; i++)
        assert_int_equal(perf_cost_find(perf_cost_name(i)), i);
    assert_int_equal(perf_cost_find("nope"), -1);
}

/*
 * Every shipped engine profile carries uncalibrated database-tier costs:
 * with the ssd device and the websphere-4 application server they price a
 * request that exercises every database-tier count, with no cost unset,
 * and the database CPU demand is the sum of its terms.
 */
static void test_shipped_engine_costs(void **state)
{
    static const char *const names[] = {"db2", "mysql", "oracle", "postgresql",
                                        "sqlite"};
    struct pt_err err;
    struct perf_counts n = {0};
    struct rec_device dev;
    json_t *doc = NULL;

    (void)state;
    assert_int_equal(prof_load_named("devices", "ssd", &doc, &err), 0);
    assert_int_equal(rec_device_from_json(&dev, doc, "ssd", &err), 0);
    json_decref(doc);
    n.requests = 10;
    n.kb_serialised = 40;
    n.db_kb = 40;
    n.db_rows = 10;
    n.logical_reads = 20;
    n.physical_reads = 2;
    n.physical_writes = 1;
    n.page_size_bytes = 8192;
    n.direct_read_reqs = 5;
    n.direct_read_kb = 50;
    n.direct_write_reqs = 5;
    n.direct_write_kb = 50;
    n.fscache_share = 1;
    n.log_records = 5;
    n.log_writes = 5;
    n.log_kb = 25;
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
        struct perf_costs c;
        struct perf_model m;
        double want;

        perf_costs_init(&c);
        perf_costs_set_device(&c, &dev);
        assert_int_equal(prof_load_named("engines", names[i], &doc, &err), 0);
        assert_int_equal(perf_costs_from_json(&c, json_object_get(doc, "perf"),
                                              names[i], &err),
                         0);
        json_decref(doc);
        assert_int_equal(
            prof_load_named("appservers", "websphere-4", &doc, &err), 0);
        assert_int_equal(perf_costs_from_json(&c, json_object_get(doc, "perf"),
                                              "websphere-4", &err),
                         0);
        json_decref(doc);
        assert_int_equal(perf_demand(&c, &n, &m, &err), 0);
        want = 2 * c.db_cpu_per_lread_ms + c.db_cpu_per_row_ms +
               0.5 * c.db_cpu_per_logrec_ms + c.fscache_req_ms +
               10 * c.fscache_per_kb_ms;
        assert_true(fabs(m.c[PERF_DB_CPU].demand_ms - want) < 1e-12);
        assert_true(m.c[PERF_DB_CPU].demand_ms > 0);
        assert_true(fabs(m.c[PERF_LOG_DISK].demand_ms -
                         (0.5 * c.log_write_ms + 2.5 * c.log_per_kb_ms)) <
                    1e-12);
        assert_true(m.c[PERF_LOG_DISK].demand_ms > 0);
    }
}

/* Every shipped application-server profile loads and sets the app tier. */
static void test_shipped_appserver_profiles(void **state)
{
    static const char *const names[] = {"websphere-4"};
    struct pt_err err;

    (void)state;
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
        struct perf_costs c;
        json_t *doc = NULL;

        perf_costs_init(&c);
        assert_int_equal(prof_load_named("appservers", names[i], &doc, &err),
                         0);
        assert_int_equal(perf_costs_from_json(&c, json_object_get(doc, "perf"),
                                              names[i], &err),
                         0);
        json_decref(doc);
        assert_false(isnan(c.app_cpu_fixed_ms));
        assert_false(isnan(c.app_cpu_per_kb_ms));
        assert_false(isnan(c.net_per_kb_ms));
        assert_false(isnan(c.repl_cpu_per_msg_ms));
        assert_false(isnan(c.offload_read_ms));
        assert_false(isnan(c.offload_write_ms));
    }
}

/*
 * Every shipped calibration loads, names the seed and the published cell
 * each point was fitted to, fits no more than issue 15 allows (four cells
 * of seed 000, two figures of the others) and its stored residuals are
 * those of its stored predictions.
 */
static void test_shipped_calibrations(void **state)
{
    static const struct {
        const char *name, *seed, *cell;
        size_t max_points;
    } shipped[] = {
        {"article-000", "seed 000 ", "Table", 4},
        {"article-001", "seed 001 ", "Figure", 2},
        {"article-002", "seed 002 ", "Figure", 2},
        {"article-004", "seed 004 ", "updates", 2},
    };
    struct perf_calib *cal = calloc(1, sizeof(*cal));
    struct pt_err err;

    (void)state;
    assert_non_null(cal);
    for (size_t i = 0; i < sizeof(shipped) / sizeof(shipped[0]); i++) {
        const char *name = shipped[i].name;
        json_t *doc = NULL;

        assert_int_equal(prof_load_named("calibrations", name, &doc, &err), 0);
        assert_int_equal(perf_calib_from_json(cal, doc, name, &err), 0);
        json_decref(doc);
        assert_string_equal(cal->name, name);
        assert_true(cal->n_free >= 1);
        assert_true(cal->n_points >= cal->n_free);
        assert_true(cal->n_points <= shipped[i].max_points);
        for (size_t k = 0; k < cal->n_points; k++) {
            const struct perf_point *p = &cal->points[k];
            assert_true(strncmp(p->label, shipped[i].seed,
                                strlen(shipped[i].seed)) == 0);
            assert_non_null(strstr(p->label, shipped[i].cell));
            assert_true(
                fabs((cal->pred_req_per_s[k] - p->req_per_s) / p->req_per_s -
                     cal->resid_req_per_s[k]) < 1e-5);
        }
    }
    free(cal);
}

/*
 * A synthetic, self-consistent data set: four configurations (seed 000's
 * shape: out-of-row reads through the file-system cache at small pages,
 * in-row at large ones) at three client counts, measured values generated
 * by the model from known costs. The fit starts far from them.
 */
static void synthetic(struct perf_calib *cal, const struct perf_costs *truth)
{
    static const double lreads[4] = {6, 4, 3, 3};
    static const double direct[4] = {2, 1, 0, 0};
    static const unsigned clients[3] = {5, 20, 47};

    memset(cal, 0, sizeof(*cal));
    snprintf(cal->name, sizeof(cal->name), "synthetic");
    cal->costs = *truth;
    for (int k = 0; k < 4; k++)
        for (int j = 0; j < 3; j++) {
            struct perf_point *p = &cal->points[cal->n_points++];
            struct perf_model m;
            struct perf_result r;

            snprintf(p->label, sizeof(p->label), "config %d, %u \"clients\"", k,
                     clients[j]);
            p->counts.requests = 1000;
            p->counts.kb_serialised = 1000 * (4.0 + k);
            p->counts.db_kb = 1000 * 4.0;
            p->counts.db_rows = 2000;
            p->counts.logical_reads = 1000 * lreads[k];
            p->counts.physical_reads = 50;
            p->counts.page_size_bytes = 4096 << k;
            p->counts.direct_read_reqs = 1000 * direct[k];
            p->counts.direct_read_kb = 1000 * direct[k] * 4;
            p->counts.fscache_share = 1;
            p->counts.log_records = 1000;
            p->counts.log_writes = 1000;
            p->counts.log_kb = 1000 * (1 + k);
            p->clients = clients[j];
            p->think_ms = 50;
            assert_int_equal(perf_demand(truth, &p->counts, &m, NULL), 0);
            assert_int_equal(perf_mva(&m, p->clients, p->think_ms, &r, NULL),
                             0);
            p->req_per_s = r.req_per_s;
            p->response_ms = r.response_ms;
        }
}

static void test_calib_recovers_known_costs(void **state)
{
    struct perf_calib *cal = calloc(1, sizeof(*cal));
    struct perf_costs truth;
    static const struct {
        const char *name;
        double lo, hi;
    } freec[] = {
        {"app_cpu_fixed_ms", 0.1, 100},
        {"db_cpu_per_lread_ms", 0.001, 10},
        {"fscache_req_ms", 0.001, 10},
        {"log_write_ms", 0.01, 50},
    };
    struct pt_err err;

    (void)state;
    assert_non_null(cal);
    full_costs(&truth);
    truth.app_cpu_fixed_ms = 3.0;
    truth.db_cpu_per_lread_ms = 0.6;
    truth.fscache_req_ms = 1.5;
    truth.log_write_ms = 2.5;
    synthetic(cal, &truth);
    cal->n_free = 4;
    for (size_t j = 0; j < 4; j++) {
        cal->free[j].cost = perf_cost_find(freec[j].name);
        cal->free[j].lo = freec[j].lo;
        cal->free[j].hi = freec[j].hi;
        *perf_cost_ptr(&cal->costs, cal->free[j].cost) = NAN; /* unknown */
    }
    assert_int_equal(perf_calib_fit(cal, &err), 0);
    for (size_t j = 0; j < 4; j++) {
        double want = perf_cost_get(&truth, cal->free[j].cost);
        assert_true(fabs(cal->fitted[j] - want) / want < 0.01);
        assert_true(cal->fitted[j] >= cal->free[j].lo &&
                    cal->fitted[j] <= cal->free[j].hi);
    }
    assert_true(cal->rms_resid < 1e-6);
    for (size_t i = 0; i < cal->n_points; i++)
        assert_true(fabs(cal->resid_req_per_s[i]) < 1e-5);
    free(cal);
}

/* Starts at the far end of every bound, where the logistic map is flat:
 * the other starts of the fit still find the truth. */
static void test_calib_recovers_from_bad_start(void **state)
{
    struct perf_calib *cal = calloc(1, sizeof(*cal));
    struct perf_costs truth;
    struct pt_err err;

    (void)state;
    assert_non_null(cal);
    full_costs(&truth);
    truth.app_cpu_fixed_ms = 3.0;
    truth.db_cpu_per_lread_ms = 0.6;
    truth.log_write_ms = 2.5;
    synthetic(cal, &truth);
    cal->n_free = 3;
    cal->free[0] =
        (struct perf_free){perf_cost_find("app_cpu_fixed_ms"), 0.1, 100};
    cal->free[1] =
        (struct perf_free){perf_cost_find("db_cpu_per_lread_ms"), 0.001, 10};
    cal->free[2] = (struct perf_free){perf_cost_find("log_write_ms"), 0.01, 50};
    cal->costs.app_cpu_fixed_ms = 99.9;
    cal->costs.db_cpu_per_lread_ms = 9.99;
    cal->costs.log_write_ms = 49.9;
    assert_int_equal(perf_calib_fit(cal, &err), 0);
    assert_true(fabs(cal->fitted[0] - 3.0) / 3.0 < 0.01);
    assert_true(fabs(cal->fitted[1] - 0.6) / 0.6 < 0.01);
    assert_true(fabs(cal->fitted[2] - 2.5) / 2.5 < 0.01);
    free(cal);
}

/* A bound that excludes the truth: the fit stops at the bound and says so
 * through its residuals instead of leaving the interval. */
static void test_calib_respects_bounds(void **state)
{
    struct perf_calib *cal = calloc(1, sizeof(*cal));
    struct perf_costs truth;

    (void)state;
    assert_non_null(cal);
    full_costs(&truth);
    truth.app_cpu_fixed_ms = 3.0;
    synthetic(cal, &truth);
    cal->n_free = 1;
    cal->free[0] =
        (struct perf_free){perf_cost_find("app_cpu_fixed_ms"), 4, 10};
    assert_int_equal(perf_calib_fit(cal, NULL), 0);
    assert_true(cal->fitted[0] >= 4 && cal->fitted[0] < 4.01);
    assert_true(cal->rms_resid > 1e-3);
    free(cal);
}

static void test_calib_refuses_too_few_points(void **state)
{
    struct perf_calib *cal = calloc(1, sizeof(*cal));
    struct perf_costs truth;
    struct pt_err err;

    (void)state;
    assert_non_null(cal);
    full_costs(&truth);
    synthetic(cal, &truth);
    cal->n_points = 2;
    cal->n_free = 3;
    cal->free[0] = (struct perf_free){perf_cost_find("app_cpu_fixed_ms"), 0, 9};
    cal->free[1] = (struct perf_free){perf_cost_find("log_write_ms"), 0, 9};
    cal->free[2] = (struct perf_free){perf_cost_find("net_per_kb_ms"), 0, 9};
    assert_int_equal(perf_calib_fit(cal, &err), PT_EDATA);
    assert_string_equal(err.msg, "calibration needs at least 3 points for 3 "
                                 "free costs, got 2");
    cal->n_points = 12;
    cal->free[2] = cal->free[0];
    assert_int_equal(perf_calib_fit(cal, &err), PT_EDATA);
    assert_string_equal(err.msg, "free cost 'app_cpu_fixed_ms' given twice");
    cal->free[2] = (struct perf_free){perf_cost_find("db_cpus"), 1, 8};
    assert_int_equal(perf_calib_fit(cal, &err), PT_EDATA);
    assert_string_equal(err.msg, "'db_cpus' is a count of servers or a "
                                 "placement, not a cost to fit");
    free(cal);
}

static void test_calib_profile_round_trip(void **state)
{
    struct perf_calib *cal = calloc(1, sizeof(*cal));
    struct perf_calib *back = calloc(1, sizeof(*back));
    struct perf_costs truth;
    struct pt_err err;
    char *buf = NULL;
    size_t len = 0;
    FILE *fp;
    json_t *doc = NULL;

    (void)state;
    assert_non_null(cal);
    assert_non_null(back);
    full_costs(&truth);
    truth.app_cpu_fixed_ms = 3.0;
    synthetic(cal, &truth);
    cal->n_free = 1;
    cal->free[0] =
        (struct perf_free){perf_cost_find("app_cpu_fixed_ms"), 0.5, 20};
    assert_int_equal(perf_calib_fit(cal, &err), 0);
    fp = open_memstream(&buf, &len);
    assert_non_null(fp);
    assert_int_equal(perf_calib_write(fp, cal,
                                      "fitted to a synthetic set\n"
                                      "from known costs",
                                      &err),
                     0);
    fclose(fp);
    assert_non_null(strstr(buf, "# fitted to a synthetic set\n# from known"));
    assert_int_equal(prof_loadb(buf, len, "cal.yaml", &doc, &err), 0);
    assert_int_equal(perf_calib_from_json(back, doc, "cal.yaml", &err), 0);
    json_decref(doc);
    assert_string_equal(back->name, "synthetic");
    assert_int_equal(back->n_free, 1);
    assert_int_equal(back->free[0].cost, cal->free[0].cost);
    assert_true(back->free[0].lo == 0.5 && back->free[0].hi == 20);
    assert_true(fabs(back->fitted[0] - cal->fitted[0]) < 1e-8);
    for (int i = 0; i < PERF_N_COSTS; i++) {
        double a = perf_cost_get(&cal->costs, i);
        double b = perf_cost_get(&back->costs, i);
        assert_true((isnan(a) && isnan(b)) || fabs(a - b) <= 1e-8 * fabs(a));
    }
    assert_int_equal(back->n_points, cal->n_points);
    assert_string_equal(back->points[3].label, cal->points[3].label);
    assert_int_equal(back->points[3].clients, cal->points[3].clients);
    assert_true(fabs(back->resid_response_ms[3] - cal->resid_response_ms[3]) <
                1e-5);

    /* a fitted value that disagrees with perf: is refused */
    free(buf);
    buf = NULL;
    {
        static const char bad[] =
            "name: x\nperf:\n  app_cpu_fixed_ms: 3\n"
            "fitted:\n  - {cost: app_cpu_fixed_ms, value: 4, lo: 1, hi: 9}\n";
        assert_int_equal(prof_loadb(bad, strlen(bad), "bad.yaml", &doc, &err),
                         0);
        assert_int_equal(perf_calib_from_json(back, doc, "bad.yaml", &err),
                         PT_EDATA);
        assert_string_equal(err.msg, "bad.yaml: fitted[0]: value differs "
                                     "from 'perf.app_cpu_fixed_ms'");
        json_decref(doc);
    }
    free(cal);
    free(back);
}

/* The range: the residual, or the farther end of a point's measured
 * interval; an exact fit to a noisy point keeps the point's noise. The
 * interval travels through the profile. */
static void test_calib_range(void **state)
{
    struct perf_calib *cal = calloc(1, sizeof(*cal));
    struct perf_calib *back = calloc(1, sizeof(*back));
    struct pt_err err;
    char *buf = NULL;
    size_t len = 0;
    FILE *fp;
    json_t *doc = NULL;
    static const char bad[] =
        "name: x\nperf: {}\npoints:\n  - {clients: 1, think_ms: 0, req_per_s: "
        "100, "
        "response_ms: 10, req_per_s_lo: 120, req_per_s_hi: 130}\n";

    (void)state;
    assert_non_null(cal);
    assert_non_null(back);
    assert_true(perf_calib_range_req_per_s(cal) == 0);
    perf_costs_init(&cal->costs);
    snprintf(cal->name, sizeof(cal->name), "r");
    cal->n_free = 1;
    cal->free[0] =
        (struct perf_free){perf_cost_find("app_cpu_fixed_ms"), 0.5, 2};
    cal->fitted[0] = cal->costs.app_cpu_fixed_ms = 1;
    cal->n_points = 2;
    memset(&cal->points[0], 0, 2 * sizeof(cal->points[0]));
    snprintf(cal->points[0].label, PERF_LABEL_LEN, "a");
    cal->points[0].clients = 1;
    cal->points[0].req_per_s = 100;
    cal->points[0].response_ms = 10;
    cal->pred_req_per_s[0] = 95;
    cal->resid_req_per_s[0] = -0.05;
    snprintf(cal->points[1].label, PERF_LABEL_LEN, "b");
    cal->points[1].clients = 1;
    cal->points[1].req_per_s = 200;
    cal->points[1].response_ms = 5;
    cal->pred_req_per_s[1] = 200;
    cal->resid_req_per_s[1] = 0;
    assert_true(fabs(perf_calib_range_req_per_s(cal) - 0.05) < 1e-12);
    /* b fitted exactly, but measured 200 [170, 220]: 30 / 200 */
    cal->points[1].req_per_s_lo = 170;
    cal->points[1].req_per_s_hi = 220;
    assert_true(fabs(perf_calib_range_req_per_s(cal) - 0.15) < 1e-12);
    /* a prediction outside the interval: its distance to the far end */
    cal->pred_req_per_s[1] = 230;
    cal->resid_req_per_s[1] = 0.15;
    assert_true(fabs(perf_calib_range_req_per_s(cal) - 0.3) < 1e-12);

    fp = open_memstream(&buf, &len);
    assert_non_null(fp);
    assert_int_equal(perf_calib_write(fp, cal, NULL, &err), 0);
    fclose(fp);
    assert_int_equal(prof_loadb(buf, len, "r.yaml", &doc, &err), 0);
    assert_int_equal(perf_calib_from_json(back, doc, "r.yaml", &err), 0);
    json_decref(doc);
    assert_true(back->points[0].req_per_s_lo == 0 &&
                back->points[0].req_per_s_hi == 0);
    assert_true(back->points[1].req_per_s_lo == 170 &&
                back->points[1].req_per_s_hi == 220);
    assert_true(fabs(perf_calib_range_req_per_s(back) - 0.3) < 1e-9);
    free(buf);

    assert_int_equal(prof_loadb(bad, strlen(bad), "bad.yaml", &doc, &err), 0);
    assert_int_equal(perf_calib_from_json(back, doc, "bad.yaml", &err),
                     PT_EDATA);
    assert_string_equal(err.msg, "bad.yaml: points[0]: needs 0 < "
                                 "req_per_s_lo <= req_per_s <= req_per_s_hi");
    json_decref(doc);
    free(cal);
    free(back);
}

/* ---- the predictor and the points CSV (predict.c, points.c) ------------ */

/* Two application-only rows of 1000 requests, 500-byte objects. */
static void two_rows(struct sim_plan_result *res, struct sim_result_row *rows)
{
    memset(res, 0, sizeof(*res));
    memset(rows, 0, 2 * sizeof(*rows));
    for (int i = 0; i < 2; i++) {
        rows[i].app_entries = 100 * (uint64_t)(i + 1);
        rows[i].app.requests = 1000;
        rows[i].app.gets = 1000;
        rows[i].app.hits = 900;
        rows[i].app.misses = 100;
        rows[i].app.object_bytes = 1000 * 500;
    }
    res->n_rows = 2;
    res->rows = rows;
}

static char *write_tmp(const char *text)
{
    char *path = strdup("/tmp/test_perf_points.XXXXXX");
    int fd;
    FILE *fp;

    assert_non_null(path);
    fd = mkstemp(path);
    assert_true(fd >= 0);
    fp = fdopen(fd, "w");
    assert_non_null(fp);
    fputs(text, fp);
    assert_int_equal(fclose(fp), 0);
    return path;
}

static int read_points_text(struct perf_calib *cal, const char *text,
                            struct pt_err *err)
{
    static struct sim_plan_result res;
    static struct sim_result_row rows[2];
    static const char *const paths[] = {"s.json"};
    struct perf_sim_docs docs = {.n = 1, .path = paths, .res = &res};
    struct perf_predictor m;
    char *path = write_tmp(text);
    int ret;

    two_rows(&res, rows);
    memset(&m, 0, sizeof(m));
    perf_costs_init(&m.costs);
    memset(cal, 0, sizeof(*cal));
    ret = perf_calib_points_read(cal, path, &docs, &m, err);
    unlink(path);
    free(path);
    return ret;
}

static void test_points_read(void **state)
{
    struct perf_calib *cal = calloc(1, sizeof(*cal));
    struct pt_err err = {0};
    (void)state;

    assert_non_null(cal);
    assert_int_equal(
        read_points_text(cal,
                         "# measured\n"
                         "label,clients,think_ms,req_per_s,response_ms,"
                         "app_entries\r\n"
                         "\n"
                         "\"a, \"\"quoted\"\"\",8,20,100.5,12,100\n"
                         ",4,,50,8,200\n",
                         &err),
        0);
    assert_int_equal(cal->n_points, 2);
    assert_string_equal(cal->points[0].label, "a, \"quoted\"");
    assert_int_equal(cal->points[0].clients, 8);
    assert_true(cal->points[0].think_ms == 20);
    assert_true(cal->points[0].req_per_s == 100.5);
    assert_true(cal->points[0].response_ms == 12);
    assert_true(cal->points[0].counts.requests == 1000);
    assert_true(cal->points[0].counts.app_hits == 900);
    assert_non_null(strstr(cal->points[1].label, " line 5"));
    assert_true(cal->points[1].think_ms == 0);

    /* each refusal names the file and line */
    assert_int_equal(read_points_text(cal,
                                      "clients,req_per_s,response_ms\n"
                                      "8,100,12\n",
                                      &err),
                     PT_EDATA);
    assert_non_null(strstr(err.msg, ":2: the point matches 2 simulation"));
    assert_int_equal(read_points_text(cal,
                                      "clients,req_per_s,response_ms,"
                                      "app_entries\n8,100,12,300\n",
                                      &err),
                     PT_EDATA);
    assert_non_null(strstr(err.msg, "matches 0 simulation rows"));
    assert_int_equal(read_points_text(cal, "clients,req_per_s,bogus\n", &err),
                     PT_EDATA);
    assert_non_null(strstr(err.msg, ":1: unknown or repeated column 'bogus'"));
    assert_int_equal(read_points_text(cal, "clients,req_per_s\n", &err),
                     PT_EDATA);
    assert_non_null(
        strstr(err.msg, "needs clients, req_per_s and response_ms"));
    assert_int_equal(read_points_text(cal,
                                      "clients,req_per_s,response_ms,"
                                      "app_entries\n0,100,12,100\n",
                                      &err),
                     PT_EDATA);
    assert_non_null(strstr(err.msg, ":2: clients '0'"));
    assert_int_equal(read_points_text(cal,
                                      "clients,req_per_s,response_ms\n"
                                      "\"8,100,12\n",
                                      &err),
                     PT_EDATA);
    assert_non_null(strstr(err.msg, ":2: bad CSV"));
    assert_int_equal(read_points_text(cal, "# only a comment\n", &err),
                     PT_EDATA);
    assert_non_null(strstr(err.msg, "no header line"));
    /* the measured interval: both ends or neither */
    assert_int_equal(read_points_text(cal,
                                      "clients,req_per_s,response_ms,"
                                      "app_entries,req_per_s_lo,req_per_s_hi\n"
                                      "1,100,10,100,90,115\n"
                                      "1,50,20,200,,\n",
                                      &err),
                     0);
    assert_true(cal->points[0].req_per_s_lo == 90 &&
                cal->points[0].req_per_s_hi == 115);
    assert_true(cal->points[1].req_per_s_lo == 0 &&
                cal->points[1].req_per_s_hi == 0);
    assert_int_equal(read_points_text(cal,
                                      "clients,req_per_s,response_ms,"
                                      "app_entries,req_per_s_lo\n"
                                      "1,100,10,100,90\n",
                                      &err),
                     PT_EDATA);
    assert_non_null(strstr(err.msg, ":2: req_per_s_lo and req_per_s_hi"));
    assert_int_equal(read_points_text(cal,
                                      "clients,req_per_s,response_ms,"
                                      "app_entries,req_per_s_lo,req_per_s_hi\n"
                                      "1,100,10,100,101,120\n",
                                      &err),
                     PT_EDATA);
    assert_non_null(strstr(err.msg, "0 < req_per_s_lo <= req_per_s"));
    free(cal);
}

/* Default profiles: uncalibrated, a prediction with no range; with a
   calibration profile its name travels into the prediction. */
static void test_predictor(void **state)
{
    struct sim_plan_result res;
    struct sim_result_row rows[2];
    struct perf_profiles o;
    struct perf_predictor m;
    struct pt_err err = {0};
    (void)state;

    two_rows(&res, rows);
    perf_profiles_init(&o);
    assert_string_equal(o.engine, "db2");
    assert_true(o.fscache_share == 1.0);
    assert_int_equal(perf_predictor_load(&m, &o, &err), 0);
    assert_int_equal(m.calibrated, 0);
    assert_int_equal(perf_predictor_predict(&m, &res, &rows[0], 10, 5, &err),
                     0);
    assert_int_equal(rows[0].predicted.present, 1);
    assert_int_equal(rows[0].predicted.clients, 10);
    assert_true(rows[0].predicted.req_per_s > 0);
    assert_true(rows[0].predicted.response_ms > 0);
    assert_int_equal(rows[0].predicted.has_range, 0);
    assert_int_equal(rows[0].predicted.calibrated, 0);

    o.calibration = "article-000";
    assert_int_equal(perf_predictor_load(&m, &o, &err), 0);
    assert_int_equal(m.calibrated, 1);
    assert_int_equal(perf_predictor_predict(&m, &res, &rows[1], 10, 5, &err),
                     0);
    assert_int_equal(rows[1].predicted.calibrated, 1);
    assert_true(strlen(rows[1].predicted.calibration) > 0);

    o.device = "no-such-device";
    assert_true(perf_predictor_load(&m, &o, &err) < 0);
    assert_non_null(strstr(err.msg, "no-such-device"));
}

/* The simulate step as one request (perf/simulate.c): profiles loaded by
 * prepare, the plan run, every row predicted; a missing engine profile is
 * the loader's PT_EUSAGE, named by the library's words. */
static void test_sim_step(void **state)
{
    struct perf_sim_request q;
    struct sim_plan_result res;
    struct pt_err err = {0};
    char *trace = write_tmp("time_ms,op,key,size\n"
                            "0,set,s1,4000\n"
                            "1,get,s1,4000\n"
                            "2,set,s2,9000\n"
                            "3,get,s2,9000\n"
                            "4,get,s1,4000\n");
    (void)state;

    perf_sim_request_init(&q);
    q.plan.trace = trace;
    q.plan.n_page_sizes = 2;
    q.plan.page_sizes[0] = 4096;
    q.plan.page_sizes[1] = 32768;
    q.clients = 4;
    q.think_ms = 5;
    assert_int_equal(perf_sim_prepare(&q, &err), 0);
    assert_ptr_equal(q.plan.engine, &q.engine);
    assert_int_equal(perf_sim_run(&q, &res, &err), 0);
    assert_int_equal(res.requests, 5);
    assert_true(res.n_rows >= 2);
    for (size_t i = 0; i < res.n_rows; i++) {
        assert_int_equal(res.rows[i].predicted.present, 1);
        assert_int_equal(res.rows[i].predicted.clients, 4);
    }
    sim_plan_result_release(&res);

    perf_sim_request_init(&q);
    q.plan.trace = trace;
    q.plan.n_page_sizes = 1;
    q.plan.page_sizes[0] = 4096;
    q.plan.engine_name = "no-such-engine";
    assert_int_equal(perf_sim_prepare(&q, &err), PT_EUSAGE);
    assert_non_null(strstr(err.msg, "no engine profile"));
    unlink(trace);
    free(trace);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mva_jain_table_34_1),
        cmocka_unit_test(test_mva_jain_convolution_35_5),
        cmocka_unit_test(test_mva_bounds),
        cmocka_unit_test(test_mva_copies_and_servers),
        cmocka_unit_test(test_demand_formulas),
        cmocka_unit_test(test_demand_fscache_moves_direct_io),
        cmocka_unit_test(test_demand_page_fscache),
        cmocka_unit_test(test_demand_placement),
        cmocka_unit_test(test_counts_from_sim),
        cmocka_unit_test(test_costs_from_profile),
        cmocka_unit_test(test_shipped_appserver_profiles),
        cmocka_unit_test(test_shipped_calibrations),
        cmocka_unit_test(test_shipped_engine_costs),
        cmocka_unit_test(test_calib_recovers_known_costs),
        cmocka_unit_test(test_calib_recovers_from_bad_start),
        cmocka_unit_test(test_calib_respects_bounds),
        cmocka_unit_test(test_calib_refuses_too_few_points),
        cmocka_unit_test(test_calib_profile_round_trip),
        cmocka_unit_test(test_calib_range),
        cmocka_unit_test(test_points_read),
        cmocka_unit_test(test_predictor),
        cmocka_unit_test(test_sim_step),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
