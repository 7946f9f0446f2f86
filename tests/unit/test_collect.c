/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_collect.c — unit tests of collect/: identifier checks and quoting,
 * the per-engine SQL, the monitor adapters' row parsing fed with each
 * engine's documented column sets (DB2 cannot run here: this is how its
 * result handling is tested), deltas and hit ratios; and, through the real
 * SQLite3 ODBC driver on a temporary file (no server), connection secrets,
 * script execution and block fetching; the sizes and monitor documents,
 * writer to reader.
 */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>

#include "collect/collect.h"
#include "../tools/sql_script.h"
#include "collect/internal.h"

/* ---- identifiers ------------------------------------------------------- */

static void test_ident_check(void **state)
{
    static const char *const good[] = {"SESSIONS", "sessions", "_x", "A1$#",
                                       "WAS_SESSIONS_2"};
    static const char *const bad[] = {"",          "x; DROP TABLE y",
                                      "1abc",      "a b",
                                      "a\"b",      "a`b",
                                      "a'b",       "a;b",
                                      "a--b",      "a.b",
                                      "sessions)", "é",
                                      "a\nb",      "a/*b*/"};
    struct pt_err err;
    char longname[200];
    (void)state;
    for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++)
        assert_int_equal(coll_ident_check(good[i], "--table", &err), 0);
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        assert_int_equal(coll_ident_check(bad[i], "--table", &err), PT_EDATA);
        assert_non_null(strstr(err.msg, "--table"));
    }
    memset(longname, 'a', sizeof(longname) - 1);
    longname[sizeof(longname) - 1] = '\0';
    assert_int_equal(coll_ident_check(longname, "--table", &err), PT_EDATA);
}

static void test_ident_quote(void **state)
{
    char buf[64];
    struct pt_err err;
    (void)state;
    assert_int_equal(coll_ident_quote(COLL_ENGINE_POSTGRESQL, "SESSIONS", buf,
                                      sizeof(buf), &err),
                     0);
    assert_string_equal(buf, "\"sessions\"");
    coll_ident_quote(COLL_ENGINE_DB2, "Sessions", buf, sizeof(buf), &err);
    assert_string_equal(buf, "\"SESSIONS\"");
    coll_ident_quote(COLL_ENGINE_MYSQL, "Sessions", buf, sizeof(buf), &err);
    assert_string_equal(buf, "`Sessions`");
    coll_ident_quote(COLL_ENGINE_SQLITE, "Sessions", buf, sizeof(buf), &err);
    assert_string_equal(buf, "`Sessions`");
    assert_int_equal(
        coll_ident_quote(COLL_ENGINE_MYSQL, "a`b", buf, sizeof(buf), &err),
        PT_EDATA);
    assert_int_equal(
        coll_ident_quote(COLL_ENGINE_MYSQL, "SESSIONS", buf, 5, &err),
        PT_EINTERNAL);
}

static void test_table_parse(void **state)
{
    struct pt_qname q, x;
    char sql[1100];
    struct pt_err err;
    (void)state;
    assert_int_equal(pt_qname_parse(&q, "WAS.SESSIONS", "--table", &err), 0);
    assert_string_equal(q.schema, "WAS");
    assert_string_equal(q.table, "SESSIONS");
    assert_int_equal(pt_qname_parse(&q, "SESSIONS", "--table", &err), 0);
    assert_string_equal(q.schema, "");
    /* quoted parts: any character but a control byte, case kept */
    assert_int_equal(pt_qname_parse(&q, "\"order\".\"User\"", "--table", &err),
                     0);
    assert_int_equal(coll_table_exact(COLL_ENGINE_POSTGRESQL, &q, &x, &err), 0);
    assert_string_equal(x.schema, "order");
    assert_string_equal(x.table, "User");
    assert_int_equal(pt_qname_parse(&q, "\"a.b\".`c``d`", "--table", &err), 0);
    assert_string_equal(q.schema, "a.b");
    assert_string_equal(q.table, "c`d");
    coll_table_exact(COLL_ENGINE_MYSQL, &q, &x, &err);
    assert_int_equal(
        coll_table_quote(COLL_ENGINE_MYSQL, &x, sql, sizeof(sql), &err), 0);
    assert_string_equal(sql, "`a.b`.`c``d`");
    /* unquoted: folded the engine's way */
    assert_int_equal(pt_qname_parse(&q, "Was.a$b", "--table", &err), 0);
    coll_table_exact(COLL_ENGINE_POSTGRESQL, &q, &x, &err);
    coll_table_quote(COLL_ENGINE_POSTGRESQL, &x, sql, sizeof(sql), &err);
    assert_string_equal(sql, "\"was\".\"a$b\"");
    coll_table_exact(COLL_ENGINE_DB2, &q, &x, &err);
    coll_table_quote(COLL_ENGINE_DB2, &x, sql, sizeof(sql), &err);
    assert_string_equal(sql, "\"WAS\".\"A$B\"");
    /* refused before any connection: usage errors naming --table */
    assert_int_equal(pt_qname_parse(&q, "a.b.c", "--table", &err), PT_EUSAGE);
    assert_non_null(strstr(err.msg, "--table"));
    assert_int_equal(pt_qname_parse(&q, "x; DROP TABLE y", "--table", &err),
                     PT_EUSAGE);
    assert_int_equal(pt_qname_parse(&q, ".x", "--table", &err), PT_EUSAGE);
    assert_int_equal(pt_qname_parse(&q, "x.", "--table", &err), PT_EUSAGE);
    assert_int_equal(pt_qname_parse(&q, "\"\"", "--table", &err), PT_EUSAGE);
    assert_int_equal(pt_qname_parse(&q, "", "--table", &err), PT_EUSAGE);
    assert_int_equal(pt_qname_parse(&q, "\"open", "--table", &err), PT_EUSAGE);
    assert_int_equal(pt_qname_parse(&q, "\"a\nb\"", "--table", &err),
                     PT_EUSAGE);
    /* the engine's length limit: PostgreSQL 63 bytes */
    assert_int_equal(pt_qname_parse(&q,
                                    "t234567890123456789012345678901234"
                                    "567890123456789012345678901234",
                                    "--table", &err),
                     0);
    assert_int_equal(coll_table_exact(COLL_ENGINE_POSTGRESQL, &q, &x, &err),
                     PT_EUSAGE);
    assert_int_equal(coll_table_exact(COLL_ENGINE_MYSQL, &q, &x, &err), 0);
}

static void test_engine_names(void **state)
{
    enum coll_engine e;
    struct pt_err err;
    (void)state;
    assert_int_equal(coll_engine_parse("mariadb", &e, &err), 0);
    assert_int_equal(e, COLL_ENGINE_MYSQL);
    assert_int_equal(coll_engine_parse("oracle", &e, &err), PT_EUSAGE);
    assert_int_equal(coll_engine_from_dbms("PostgreSQL"),
                     COLL_ENGINE_POSTGRESQL);
    assert_int_equal(coll_engine_from_dbms("MariaDB"), COLL_ENGINE_MYSQL);
    assert_int_equal(coll_engine_from_dbms("MySQL"), COLL_ENGINE_MYSQL);
    assert_int_equal(coll_engine_from_dbms("SQLite"), COLL_ENGINE_SQLITE);
    assert_int_equal(coll_engine_from_dbms("DB2/LINUXX8664"), COLL_ENGINE_DB2);
    assert_int_equal(coll_engine_from_dbms("Oracle"), COLL_ENGINE_AUTO);
    assert_string_equal(coll_engine_name(COLL_ENGINE_DB2), "db2");
}

/* ---- SQL per engine ---------------------------------------------------- */

static void sql_for(enum coll_engine e, double pct, uint64_t rows, int seed,
                    const char *where, char *buf, size_t len)
{
    struct coll_sample_opts o;
    char method[256];
    struct pt_err err;
    coll_sample_opts_init(&o);
    o.percent = pct;
    o.rows = rows;
    if (seed >= 0) {
        o.has_seed = 1;
        o.seed = (uint32_t)seed;
    }
    assert_int_equal(coll_sample_sql(e, &o, "L", "T", where, buf, len, method,
                                     sizeof(method), &err),
                     0);
    assert_true(strlen(method) > 0);
}

static void test_sample_sql(void **state)
{
    char buf[512], expr[256];
    struct coll_sample_opts o;
    struct pt_err err;
    char method[64];
    (void)state;

    sql_for(COLL_ENGINE_POSTGRESQL, 0, 0, -1, NULL, buf, sizeof(buf));
    assert_string_equal(buf, "SELECT L FROM T");
    sql_for(COLL_ENGINE_POSTGRESQL, 10, 0, 42, NULL, buf, sizeof(buf));
    assert_string_equal(buf, "SELECT L FROM T TABLESAMPLE BERNOULLI (10) "
                             "REPEATABLE (42)");
    sql_for(COLL_ENGINE_POSTGRESQL, 0, 50, -1, "P = I", buf, sizeof(buf));
    assert_string_equal(
        buf, "SELECT L FROM T WHERE P = I ORDER BY random() LIMIT 50");
    sql_for(COLL_ENGINE_DB2, 2.5, 0, 7, "P = I", buf, sizeof(buf));
    assert_string_equal(buf, "SELECT L FROM T TABLESAMPLE BERNOULLI (2.5) "
                             "REPEATABLE (7) WHERE P = I");
    sql_for(COLL_ENGINE_DB2, 0, 9, -1, NULL, buf, sizeof(buf));
    assert_string_equal(
        buf, "SELECT L FROM T ORDER BY RAND() FETCH FIRST 9 ROWS ONLY");
    sql_for(COLL_ENGINE_MYSQL, 25, 0, 3, NULL, buf, sizeof(buf));
    assert_string_equal(buf, "SELECT L FROM T WHERE RAND(3) < 0.25");
    sql_for(COLL_ENGINE_MYSQL, 25, 0, -1, "P = I", buf, sizeof(buf));
    assert_string_equal(buf, "SELECT L FROM T WHERE RAND() < 0.25 AND P = I");
    sql_for(COLL_ENGINE_SQLITE, 12.5, 0, -1, NULL, buf, sizeof(buf));
    assert_string_equal(
        buf, "SELECT L FROM T WHERE abs(random() % 1000000) < 125000");
    /* 100 percent is a full scan */
    sql_for(COLL_ENGINE_SQLITE, 100, 0, -1, NULL, buf, sizeof(buf));
    assert_string_equal(buf, "SELECT L FROM T");

    coll_sample_opts_init(&o);
    o.percent = 5;
    o.rows = 5;
    assert_int_equal(coll_sample_sql(COLL_ENGINE_POSTGRESQL, &o, "L", "T", NULL,
                                     buf, sizeof(buf), method, sizeof(method),
                                     &err),
                     PT_EUSAGE);
    o.rows = 0;
    o.percent = 101;
    assert_int_equal(coll_sample_sql(COLL_ENGINE_POSTGRESQL, &o, "L", "T", NULL,
                                     buf, sizeof(buf), method, sizeof(method),
                                     &err),
                     PT_EUSAGE);

    coll_length_expr(COLL_ENGINE_POSTGRESQL, "\"small\"", expr, sizeof(expr),
                     &err);
    assert_string_equal(expr, "octet_length(\"small\")");
    coll_length_expr(COLL_ENGINE_MYSQL, "`SMALL`", expr, sizeof(expr), &err);
    assert_string_equal(expr, "OCTET_LENGTH(`SMALL`)");
    coll_length_expr(COLL_ENGINE_DB2, "\"SMALL\"", expr, sizeof(expr), &err);
    assert_string_equal(expr, "LENGTH(\"SMALL\")");
    coll_length_expr(COLL_ENGINE_SQLITE, "`S`", expr, sizeof(expr), &err);
    assert_string_equal(expr, "CASE typeof(`S`) WHEN 'text' THEN "
                              "length(CAST(`S` AS BLOB)) ELSE length(`S`) END");
}

/* ---- monitor adapters, fed with documented column sets ----------------- */

static double metric(const struct coll_snapshot *s, const char *scope,
                     const char *obj, const char *name)
{
    const struct coll_metric *m = coll_snapshot_find(s, scope, obj, name);
    assert_non_null(m);
    return m->value;
}

/* MON_GET_BUFFERPOOL('', -2) columns used by the DB2 adapter (IBM Db2 11.5
   "MON_GET_BUFFERPOOL table function"), two members of IBMDEFAULTBP and a
   32 K pool. */
static const char *const db2_bp_cols[] = {"BP_NAME",
                                          "MEMBER",
                                          "POOL_DATA_L_READS",
                                          "POOL_DATA_P_READS",
                                          "POOL_INDEX_L_READS",
                                          "POOL_INDEX_P_READS",
                                          "POOL_XDA_L_READS",
                                          "POOL_XDA_P_READS",
                                          "POOL_TEMP_DATA_L_READS",
                                          "POOL_TEMP_DATA_P_READS",
                                          "POOL_TEMP_INDEX_L_READS",
                                          "POOL_TEMP_INDEX_P_READS",
                                          "POOL_TEMP_XDA_L_READS",
                                          "POOL_TEMP_XDA_P_READS",
                                          "DIRECT_READS",
                                          "DIRECT_WRITES",
                                          "DIRECT_READ_REQS",
                                          "DIRECT_WRITE_REQS",
                                          "BP_CUR_BUFFSZ"};

static void db2_bp_rows(struct coll_rows *r, const char *member0_data_l)
{
    const char *m0[] = {
        "IBMDEFAULTBP", "0", member0_data_l, "100", "500", "20", "0",    "0",
        "30",           "3", "10",           "1",   "0",   "0",  "4096", "512",
        "64",           "8", "25000"};
    const char *m1[] = {"IBMDEFAULTBP",
                        "1",
                        "2000",
                        "50",
                        "100",
                        "5",
                        "0",
                        "0",
                        "0",
                        "0",
                        "0",
                        "0",
                        "0",
                        "0",
                        "0",
                        "0",
                        "0",
                        "0",
                        "25000"};
    const char *b32[] = {"SESSBP32K", "0", "300", "30", "0",   "0", "0",
                         "0",         "0", "0",   "0",  "0",   "0", "0",
                         "0",         "0", "0",   "0",  "1000"};
    assert_int_equal(coll_rows_init(r, 19, db2_bp_cols), 0);
    assert_int_equal(coll_rows_add(r, m0), 0);
    assert_int_equal(coll_rows_add(r, m1), 0);
    assert_int_equal(coll_rows_add(r, b32), 0);
}

static void test_db2_bufferpool(void **state)
{
    struct coll_rows r;
    struct coll_snapshot s = {0};
    struct pt_err err;
    (void)state;

    db2_bp_rows(&r, "10000");
    assert_int_equal(coll_db2_parse_bufferpool(&r, &s, &err), 0);
    /* logical = all six L_READS summed over both members */
    assert_true(metric(&s, "bufferpool", "IBMDEFAULTBP", "logical_reads") ==
                10000 + 500 + 0 + 30 + 10 + 0 + 2000 + 100);
    assert_true(metric(&s, "bufferpool", "IBMDEFAULTBP", "physical_reads") ==
                100 + 20 + 3 + 1 + 50 + 5);
    /* canonical direct reads are requests; sectors are kept by name */
    assert_true(metric(&s, "bufferpool", "IBMDEFAULTBP", "direct_reads") == 64);
    assert_true(metric(&s, "bufferpool", "IBMDEFAULTBP", "DIRECT_READS") ==
                4096);
    assert_true(metric(&s, "bufferpool", "IBMDEFAULTBP", "direct_writes") == 8);
    assert_true(metric(&s, "bufferpool", "IBMDEFAULTBP", "POOL_DATA_L_READS") ==
                12000);
    assert_true(metric(&s, "bufferpool", "SESSBP32K", "logical_reads") == 300);
    coll_rows_release(&r);
    coll_snapshot_release(&s);

    /* a counter that is not a number, a missing required column */
    db2_bp_rows(&r, "12x");
    assert_int_equal(coll_db2_parse_bufferpool(&r, &s, &err), PT_EDATA);
    assert_non_null(strstr(err.msg, "POOL_DATA_L_READS"));
    coll_rows_release(&r);
    coll_snapshot_release(&s);
    {
        const char *cols[] = {"BP_NAME", "POOL_DATA_L_READS"};
        const char *row[] = {"X", "1"};
        coll_rows_init(&r, 2, cols);
        coll_rows_add(&r, row);
        assert_int_equal(coll_db2_parse_bufferpool(&r, &s, &err), PT_EDATA);
        coll_rows_release(&r);
        coll_snapshot_release(&s);
    }
    /* an older server without the XDA / TEMP columns still parses */
    {
        const char *cols[] = {"BP_NAME",
                              "POOL_DATA_L_READS",
                              "POOL_DATA_P_READS",
                              "POOL_INDEX_L_READS",
                              "POOL_INDEX_P_READS",
                              "DIRECT_READS",
                              "DIRECT_WRITES",
                              "DIRECT_READ_REQS",
                              "DIRECT_WRITE_REQS"};
        const char *row[] = {"BP", "10", "1", "5", "1", "0", "0", "0", "0"};
        coll_rows_init(&r, 9, cols);
        coll_rows_add(&r, row);
        assert_int_equal(coll_db2_parse_bufferpool(&r, &s, &err), 0);
        assert_true(metric(&s, "bufferpool", "BP", "logical_reads") == 15);
        coll_rows_release(&r);
        coll_snapshot_release(&s);
    }
}

static void test_db2_catalog_current(void **state)
{
    struct coll_rows r, c, t;
    struct coll_snapshot s = {0};
    struct coll_current cur;
    struct pt_err err;
    /* SYSCAT.BUFFERPOOLS: NPAGES -2 means AUTOMATIC */
    const char *cat_cols[] = {"BPNAME", "BUFFERPOOLID", "NPAGES", "PAGESIZE"};
    const char *c1[] = {"IBMDEFAULTBP", "1", "-2", "4096"};
    const char *c2[] = {"SESSBP32K", "2", "1000", "32768"};
    /* MON_GET_TABLESPACE('', -2) */
    const char *ts_cols[] = {"TBSP_NAME",          "MEMBER",
                             "TBSP_PAGE_SIZE",     "TBSP_EXTENT_SIZE",
                             "TBSP_PREFETCH_SIZE", "TBSP_CUR_POOL_ID",
                             "POOL_DATA_L_READS",  "POOL_DATA_P_READS",
                             "DIRECT_READS",       "DIRECT_READ_REQS"};
    const char *t1[] = {"SESSTS32K", "0",   "32768", "32", "64",
                        "2",         "300", "30",    "0",  "0"};
    const char *t2[] = {"SESSTS32K", "1",   "32768", "32", "64",
                        "2",         "100", "10",    "8",  "1"};
    (void)state;

    db2_bp_rows(&r, "10000");
    assert_int_equal(coll_db2_parse_bufferpool(&r, &s, &err), 0);
    coll_rows_init(&c, 4, cat_cols);
    coll_rows_add(&c, c1);
    coll_rows_add(&c, c2);
    assert_int_equal(coll_db2_parse_catalog_bp(&c, &s, &err), 0);
    /* AUTOMATIC: the current size; fixed: NPAGES */
    assert_true(metric(&s, "bufferpool", "IBMDEFAULTBP", "pages") == 25000);
    assert_true(metric(&s, "bufferpool", "SESSBP32K", "pages") == 1000);
    assert_true(metric(&s, "bufferpool", "IBMDEFAULTBP", "automatic") == 1);
    coll_rows_init(&t, 10, ts_cols);
    coll_rows_add(&t, t1);
    coll_rows_add(&t, t2);
    assert_int_equal(coll_db2_parse_tablespace(&t, &s, &err), 0);
    assert_true(metric(&s, "tablespace", "SESSTS32K", "TBSP_PAGE_SIZE") ==
                32768);
    assert_true(metric(&s, "tablespace", "SESSTS32K", "TBSP_EXTENT_SIZE") ==
                32);
    assert_true(metric(&s, "tablespace", "SESSTS32K", "POOL_DATA_L_READS") ==
                400);
    /* the current pool is the busiest one */
    coll_monitor_current(COLL_ENGINE_DB2, &s, &cur);
    assert_string_equal(cur.bufferpool, "IBMDEFAULTBP");
    assert_int_equal(cur.page_size, 4096);
    assert_int_equal(cur.bufferpool_pages, 25000);
    assert_int_equal(cur.bufferpool_bytes, 4096ULL * 25000);
    coll_rows_release(&r);
    coll_rows_release(&c);
    coll_rows_release(&t);
    coll_snapshot_release(&s);
}

static void test_db2_deltas(void **state)
{
    struct coll_rows r;
    struct coll_snapshot a = {0}, b = {0};
    struct coll_delta *d = NULL;
    size_t n = 0;
    struct pt_err err;
    double l = -1, p = -1;
    (void)state;

    db2_bp_rows(&r, "10000");
    coll_db2_parse_bufferpool(&r, &a, &err);
    coll_rows_release(&r);
    db2_bp_rows(&r, "19000"); /* 9000 more data logical reads */
    coll_db2_parse_bufferpool(&r, &b, &err);
    coll_rows_release(&r);
    a.t_s = 100;
    b.t_s = 110;
    assert_int_equal(coll_snapshot_deltas(&a, &b, &d, &n, &err), 0);
    for (size_t i = 0; i < n; i++) {
        if (strcmp(d[i].m->object, "IBMDEFAULTBP") != 0)
            continue;
        if (strcmp(d[i].m->name, "logical_reads") == 0) {
            l = d[i].delta;
            assert_true(d[i].rate_per_s == 900);
        } else if (strcmp(d[i].m->name, "physical_reads") == 0) {
            p = d[i].delta;
        }
    }
    assert_true(l == 9000);
    assert_true(p == 0);
    assert_true(coll_hit_ratio(l, p) == 100);
    free(d);
    coll_snapshot_release(&a);
    coll_snapshot_release(&b);
}

static void test_hit_ratio_and_reset(void **state)
{
    struct coll_snapshot a = {0}, b = {0};
    struct coll_delta *d = NULL;
    size_t n = 0;
    (void)state;
    assert_true(coll_hit_ratio(0, 0) == -1);
    assert_true(coll_hit_ratio(1000, 100) == 90);
    assert_true(coll_hit_ratio(100, 200) == 0); /* clamped */
    coll_snapshot_add(&a, "bufferpool", "p", "logical_reads", 5000, 1);
    coll_snapshot_add(&a, "bufferpool", "p", "pages", 10, 0);
    coll_snapshot_add(&b, "bufferpool", "p", "logical_reads", 300, 1);
    coll_snapshot_add(&b, "bufferpool", "p", "pages", 12, 0);
    coll_snapshot_add(&b, "bufferpool", "q", "logical_reads", 7, 1);
    a.t_s = 1;
    b.t_s = 3;
    assert_int_equal(coll_snapshot_deltas(&a, &b, &d, &n, NULL), 0);
    /* only the cumulative metric present in both; the restart is flagged */
    assert_int_equal(n, 1);
    assert_int_equal(d[0].reset, 1);
    assert_true(d[0].delta == 300);
    assert_true(d[0].rate_per_s == 150);
    free(d);
    coll_snapshot_release(&a);
    coll_snapshot_release(&b);
}

static void test_pg_parse(void **state)
{
    struct coll_rows r;
    struct coll_snapshot s = {0};
    struct coll_current cur;
    struct pt_err err;
    const char *set_cols[] = {"NAME", "SETTING", "UNIT"};
    const char *s1[] = {"block_size", "8192", NULL};
    const char *s2[] = {"shared_buffers", "16384", "8kB"};
    const char *db_cols[] = {"DATNAME", "BLKS_HIT", "BLKS_READ", "XACT_COMMIT"};
    const char *d0[] = {NULL, "5", "1", "0"}; /* shared objects (PG 15) */
    const char *d1[] = {"app", "900", "100", "7"};
    const char *d2[] = {"postgres", "90", "10", "1"};
    const char *t_cols[] = {
        "TABLE_NAME",     "HEAP_BLKS_READ", "HEAP_BLKS_HIT",
        "IDX_BLKS_READ",  "IDX_BLKS_HIT",   "TOAST_BLKS_READ",
        "TOAST_BLKS_HIT", "TIDX_BLKS_READ", "TIDX_BLKS_HIT"};
    const char *t1[] = {
        "public.sessions", "3", "40", NULL, NULL, "7", "70", "1", "9"};
    (void)state;

    coll_rows_init(&r, 3, set_cols);
    coll_rows_add(&r, s1);
    coll_rows_add(&r, s2);
    assert_int_equal(coll_pg_parse_settings(&r, &s, &err), 0);
    coll_rows_release(&r);
    coll_rows_init(&r, 4, db_cols);
    coll_rows_add(&r, d0);
    coll_rows_add(&r, d1);
    coll_rows_add(&r, d2);
    assert_int_equal(coll_pg_parse_database(&r, &s, &err), 0);
    coll_rows_release(&r);
    /* the pool serves every database: hits + reads of all named rows */
    assert_true(metric(&s, "bufferpool", "shared_buffers", "logical_reads") ==
                1100);
    assert_true(metric(&s, "bufferpool", "shared_buffers", "physical_reads") ==
                110);
    assert_true(metric(&s, "database", "app", "BLKS_HIT") == 900);
    coll_rows_init(&r, 9, t_cols);
    coll_rows_add(&r, t1);
    assert_int_equal(coll_pg_parse_tables(&r, &s, &err), 0);
    coll_rows_release(&r);
    assert_true(metric(&s, "table", "public.sessions", "TOAST_BLKS_HIT") == 70);
    assert_null(
        coll_snapshot_find(&s, "table", "public.sessions", "IDX_BLKS_HIT"));
    coll_monitor_current(COLL_ENGINE_POSTGRESQL, &s, &cur);
    assert_int_equal(cur.page_size, 8192);
    assert_int_equal(cur.bufferpool_pages, 16384);
    assert_int_equal(cur.bufferpool_bytes, 128ULL << 20);
    coll_snapshot_release(&s);

    /* settings without shared_buffers */
    coll_rows_init(&r, 3, set_cols);
    coll_rows_add(&r, s1);
    assert_int_equal(coll_pg_parse_settings(&r, &s, &err), PT_EDATA);
    coll_rows_release(&r);
    coll_snapshot_release(&s);
}

static void test_mysql_parse(void **state)
{
    struct coll_rows r;
    struct coll_snapshot s = {0};
    struct pt_err err;
    const char *cols[] = {"VARIABLE_NAME", "VALUE"};
    const char *v1[] = {"Innodb_buffer_pool_read_requests", "123456"};
    const char *v2[] = {"Innodb_buffer_pool_reads", "456"};
    const char *v3[] = {"Innodb_buffer_pool_pages_total", "4096"};
    const char *v4[] = {"Innodb_buffer_pool_load_status", "Buffer pool(s) "
                                                          "load completed"};
    const char *pcols[] = {"POOL_ID",           "POOL_SIZE",
                           "FREE_BUFFERS",      "DATABASE_PAGES",
                           "NUMBER_PAGES_READ", "HIT_RATE"};
    const char *p1[] = {"0", "4096", "100", "3900", "777", "999"};
    const struct coll_metric *m;
    (void)state;

    coll_rows_init(&r, 2, cols);
    coll_rows_add(&r, v1);
    coll_rows_add(&r, v2);
    coll_rows_add(&r, v3);
    coll_rows_add(&r, v4);
    assert_int_equal(coll_mysql_parse_status(&r, &s, &err), 0);
    coll_rows_release(&r);
    assert_true(metric(&s, "bufferpool", "innodb", "logical_reads") == 123456);
    assert_true(metric(&s, "bufferpool", "innodb", "physical_reads") == 456);
    m = coll_snapshot_find(&s, "instance", "innodb",
                           "Innodb_buffer_pool_pages_total");
    assert_non_null(m);
    assert_int_equal(m->cumulative, 0); /* a level, not a counter */
    m = coll_snapshot_find(&s, "instance", "innodb",
                           "Innodb_buffer_pool_reads");
    assert_int_equal(m->cumulative, 1);
    coll_rows_init(&r, 6, pcols);
    coll_rows_add(&r, p1);
    assert_int_equal(coll_mysql_parse_pool_stats(&r, &s, &err), 0);
    coll_rows_release(&r);
    assert_true(metric(&s, "pool_instance", "innodb_pool_0",
                       "NUMBER_PAGES_READ") == 777);
    coll_snapshot_release(&s);

    /* InnoDB counters missing */
    coll_rows_init(&r, 2, cols);
    coll_rows_add(&r, v3);
    assert_int_equal(coll_mysql_parse_status(&r, &s, &err), PT_EDATA);
    coll_rows_release(&r);
    coll_snapshot_release(&s);
}

static void test_sqlite_parse(void **state)
{
    struct coll_rows r;
    struct coll_snapshot s = {0};
    struct coll_current cur;
    struct pt_err err;
    const char *cols[] = {"PAGE_SIZE", "PAGE_COUNT", "CACHE_SIZE",
                          "FREELIST_COUNT"};
    const char *v[] = {"8192", "100", "-2000", "3"};
    (void)state;
    coll_rows_init(&r, 4, cols);
    coll_rows_add(&r, v);
    assert_int_equal(coll_sqlite_parse_pragmas(&r, &s, &err), 0);
    coll_rows_release(&r);
    coll_monitor_current(COLL_ENGINE_SQLITE, &s, &cur);
    /* cache_size -2000 = 2000 KiB = 250 pages of 8 KiB */
    assert_int_equal(cur.page_size, 8192);
    assert_int_equal(cur.bufferpool_pages, 250);
    assert_int_equal(cur.has_hit_counters, 0);
    coll_snapshot_release(&s);
}

/* ---- through the SQLite3 ODBC driver (a file, no server) --------------- */

/* ---- documents: sizes.json and monitor.json ----------------------------- */

/* A multi-row sample of 4 attribute rows in 2 sessions, by hand. */
static void sample_by_hand(struct coll_sample_opts *o,
                           struct coll_sample_result *r)
{
    static const uint64_t rows[] = {5000, 100, 3000, 100};
    static const uint64_t sess[] = {8100, 100};

    coll_sample_opts_init(o);
    strcpy(o->table.schema, "WAS");
    memset(r, 0, sizeof(*r));
    r->engine = COLL_ENGINE_POSTGRESQL;
    r->layout = COLL_LAYOUT_MULTI_ROW;
    strcpy(r->query, "SELECT lengths");
    strcpy(r->method, "full scan: every row");
    r->rows_scanned = 6;
    r->header_rows = 2;
    r->attribute_rows = 4;
    r->placement[0] = 3;
    r->placement[1] = 1;
    r->column_bytes[0] = 3200;
    r->column_bytes[1] = 5000;
    r->values = malloc(sizeof(rows));
    r->session_values = malloc(sizeof(sess));
    assert_non_null(r->values);
    assert_non_null(r->session_values);
    memcpy(r->values, rows, sizeof(rows));
    memcpy(r->session_values, sess, sizeof(sess));
    r->n_values = 4;
    r->n_sessions = 2;
    r->have_sessions = 1;
    strcpy(r->session_query, "SELECT SUM");
}

/* What coll_sizes_doc_write() puts in a file, parsed back. */
static json_t *written(const struct coll_sizes_doc *d, int with_values)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&buf, &len);
    struct pt_err err;
    json_t *doc = NULL;

    assert_non_null(fp);
    assert_int_equal(coll_sizes_doc_write(d, with_values, fp, &err), 0);
    assert_int_equal(fclose(fp), 0);
    assert_int_equal(pt_json_loadb(buf, len, "sizes.json", &doc, &err), 0);
    free(buf);
    return doc;
}

static void test_sizes_doc_round_trip(void **state)
{
    struct coll_sample_opts o;
    struct coll_sample_result r;
    struct coll_source src;
    struct coll_sizes_doc d;
    struct rec_sizes s;
    struct pt_err err;
    json_t *doc, *file;
    (void)state;

    sample_by_hand(&o, &r);
    coll_source_init(&src, NULL);
    strcpy(src.dbms, "PostgreSQL 15");
    strcpy(src.connection, "DSN=x");
    assert_int_equal(
        coll_sizes_doc_init(&d, &o, &r, &src, 0, "2026-01-02T03:04:05Z", &err),
        0);
    assert_int_equal(d.rows.count, 4);
    assert_int_equal(d.rows.p50, 100);
    assert_int_equal(d.rows.max, 5000);
    assert_true(d.have_sessions);
    assert_int_equal(d.sessions.count, 2);
    assert_ptr_equal(coll_sizes_doc_top(&d), &d.rows);

    /* the streamed file and the in-memory JSON are the same document */
    doc = coll_sizes_doc_to_json(&d, 1);
    file = written(&d, 1);
    assert_non_null(doc);
    assert_true(json_equal(doc, file));
    assert_string_equal(json_string_value(json_object_get(doc, "unit")), "row");
    assert_string_equal(json_string_value(json_object_get(doc, "layout")),
                        "multi-row");
    assert_int_equal(json_integer_value(json_object_get(doc, "attribute_rows")),
                     4);
    assert_int_equal(json_integer_value(json_object_get(
                         json_object_get(doc, "placement"), "SMALL")),
                     3);
    assert_string_equal(json_string_value(json_object_get(
                            json_object_get(doc, "source"), "table")),
                        "WAS.SESSIONS");
    assert_string_equal(json_string_value(json_object_get(
                            json_object_get(doc, "source"), "taken_at")),
                        "2026-01-02T03:04:05Z");
    assert_string_equal(json_string_value(json_object_get(
                            json_object_get(doc, "source"), "engine")),
                        "postgresql");
    assert_int_equal(json_integer_value(json_object_get(
                         json_object_get(doc, "per_session"), "count")),
                     2);
    /* read back: every size, sorted by the statistics */
    assert_int_equal(coll_sizes_doc_from_json(&s, file, "f.json", &err), 0);
    assert_int_equal(s.n, 4);
    assert_int_equal(s.from_histogram, 0);
    assert_int_equal(s.values[0], 100);
    assert_int_equal(s.values[3], 5000);
    rec_sizes_release(&s);
    json_decref(doc);
    json_decref(file);

    /* without values: the histogram comes back, each at its bin's bound */
    file = written(&d, 0);
    assert_null(json_object_get(file, "values"));
    assert_int_equal(coll_sizes_doc_from_json(&s, file, "f.json", &err), 0);
    assert_int_equal(s.total, 4);
    assert_int_equal(s.from_histogram, 1);
    /* one weighted entry per non-empty bin, not one per object */
    assert_non_null(s.counts);
    assert_true(s.n < 4);
    assert_int_equal(s.values[0], 1024);
    assert_int_equal(s.values[s.n - 1], 8192);
    rec_sizes_release(&s);
    json_decref(file);

    /* sessions as the top level: their sizes, the rows beside them */
    assert_int_equal(coll_sizes_doc_init(&d, &o, &r, &src, 1, NULL, &err), 0);
    assert_ptr_equal(coll_sizes_doc_top(&d), &d.sessions);
    file = written(&d, 1);
    assert_string_equal(json_string_value(json_object_get(file, "unit")),
                        "session");
    assert_int_equal(json_integer_value(json_object_get(
                         json_object_get(file, "per_row"), "count")),
                     4);
    assert_int_equal(coll_sizes_doc_from_json(&s, file, "f.json", &err), 0);
    assert_int_equal(s.n, 2);
    assert_int_equal(s.values[1], 8100);
    rec_sizes_release(&s);
    json_decref(file);
    coll_sample_result_release(&r);
}

static void test_sizes_doc_errors(void **state)
{
    struct coll_sample_opts o;
    struct coll_sample_result r;
    struct coll_sizes_doc d;
    struct rec_sizes s;
    struct pt_err err;
    json_t *doc;
    (void)state;

    /* multi-row without a complete session: no per-session unit */
    sample_by_hand(&o, &r);
    r.have_sessions = 0;
    assert_int_equal(coll_sizes_doc_init(&d, &o, &r, NULL, 1, NULL, &err),
                     PT_EDATA);
    assert_non_null(strstr(err.msg, "`unit` session"));
    assert_int_equal(coll_sizes_doc_init(&d, &o, &r, NULL, 0, NULL, &err), 0);
    doc = coll_sizes_doc_to_json(&d, 0);
    assert_non_null(
        json_object_get(json_object_get(doc, "per_session"), "note"));
    json_decref(doc);
    /* nothing measured */
    r.n_values = 0;
    assert_int_equal(coll_sizes_doc_init(&d, &o, &r, NULL, 0, NULL, &err),
                     PT_EDATA);
    assert_non_null(strstr(err.msg, "'SESSIONS' has no objects"));
    coll_sample_result_release(&r);

    /* the reader names the file and the key */
    doc = json_loads("{\"values\":[1,-2]}", 0, NULL);
    assert_int_equal(coll_sizes_doc_from_json(&s, doc, "a.json", &err),
                     PT_EDATA);
    assert_non_null(strstr(err.msg, "a.json: values[1]"));
    assert_null(s.values);
    json_decref(doc);
    doc = json_loads("{\"schema_version\":2,\"values\":[1]}", 0, NULL);
    assert_int_equal(coll_sizes_doc_from_json(&s, doc, "b.json", &err),
                     PT_EDATA);
    json_decref(doc);
    /* a total beyond REC_MAX_OBJECTS (2^53) is refused at the bin that
       passes it; 1.2 * 10^8 objects are fine now (weighted, not expanded) */
    doc = json_loads("{\"histogram\":[{\"le\":1024,\"count\":60000000},"
                     "{\"le\":2048,\"count\":60000000}]}",
                     0, NULL);
    assert_int_equal(coll_sizes_doc_from_json(&s, doc, "c.json", &err), 0);
    assert_int_equal(s.total, 120000000);
    assert_int_equal(s.n, 2);
    rec_sizes_release(&s);
    json_decref(doc);
    doc = json_loads("{\"histogram\":[{\"le\":1024,\"count\":"
                     "5000000000000000},{\"le\":2048,\"count\":"
                     "5000000000000000}]}",
                     0, NULL);
    assert_int_equal(coll_sizes_doc_from_json(&s, doc, "c.json", &err),
                     PT_EDATA);
    assert_non_null(strstr(err.msg, "histogram[1]"));
    json_decref(doc);
    doc = json_loads("{\"values\":[]}", 0, NULL);
    assert_int_equal(coll_sizes_doc_from_json(&s, doc, "d.json", &err),
                     PT_EDATA);
    json_decref(doc);
}

/* ---- catalog: column types, the rest of the row, the current state ------ */

/* An exact table name for the catalog queries. */
static struct pt_qname tname(const char *schema, const char *table)
{
    struct pt_qname q = {0};

    snprintf(q.schema, sizeof(q.schema), "%s", schema);
    snprintf(q.table, sizeof(q.table), "%s", table);
    q.schema_quoted = q.table_quoted = 1;
    return q;
}

static void test_catalog_sql(void **state)
{
    char sql[4096];
    struct pt_err err;
    struct pt_qname t;
    (void)state;

    /* DB2: SYSCAT.COLUMNS, names folded to upper case, CODEPAGE read */
    t = tname("WAS", "SESSIONS");
    assert_int_equal(
        coll_columns_sql(COLL_ENGINE_DB2, &t, sql, sizeof(sql), &err), 0);
    assert_non_null(strstr(sql, "FROM SYSCAT.COLUMNS WHERE TABSCHEMA = "
                                "'WAS' AND TABNAME = 'SESSIONS' ORDER BY "
                                "COLNO"));
    assert_non_null(strstr(sql, "CODEPAGE AS codepage"));
    t = tname("", "SESSIONS");
    assert_int_equal(
        coll_columns_sql(COLL_ENGINE_DB2, &t, sql, sizeof(sql), &err), 0);
    assert_non_null(strstr(sql, "TABSCHEMA = CURRENT SCHEMA"));
    /* PostgreSQL: to_regclass of the quoted exact name, as a literal */
    t = tname("was", "it's");
    assert_int_equal(
        coll_columns_sql(COLL_ENGINE_POSTGRESQL, &t, sql, sizeof(sql), &err),
        0);
    assert_non_null(strstr(sql, "to_regclass('\"was\".\"it''s\"')"));
    /* MariaDB: the connection's database; SQLite: pragma_table_info */
    t = tname("", "IT_X");
    assert_int_equal(
        coll_columns_sql(COLL_ENGINE_MYSQL, &t, sql, sizeof(sql), &err), 0);
    assert_non_null(strstr(sql, "TABLE_SCHEMA = DATABASE() AND TABLE_NAME = "
                                "'IT_X'"));
    t = tname("", "t");
    assert_int_equal(
        coll_columns_sql(COLL_ENGINE_SQLITE, &t, sql, sizeof(sql), &err), 0);
    assert_non_null(strstr(sql, "FROM pragma_table_info('t')"));
    t = tname("aux", "t");
    coll_columns_sql(COLL_ENGINE_SQLITE, &t, sql, sizeof(sql), &err);
    assert_non_null(strstr(sql, "FROM pragma_table_info('t', 'aux')"));
    /* any name is a literal: a quote cannot end it (MariaDB: nor a
       backslash) */
    t = tname("", "x'; DROP");
    assert_int_equal(
        coll_columns_sql(COLL_ENGINE_DB2, &t, sql, sizeof(sql), &err), 0);
    assert_non_null(strstr(sql, "TABNAME = 'x''; DROP'"));
    t = tname("a\\", "b");
    coll_columns_sql(COLL_ENGINE_MYSQL, &t, sql, sizeof(sql), &err);
    assert_non_null(strstr(sql, "TABLE_SCHEMA = 'a\\\\' AND TABLE_NAME = 'b'"));
    /* the table space's page size and buffer pool (SYSCAT) */
    t = tname("WAS", "SESSIONS");
    assert_int_equal(coll_db2_state_sql(&t, sql, sizeof(sql)), 0);
    assert_non_null(strstr(sql, "SELECT TS.PAGESIZE AS page_size, BP.NPAGES "
                                "AS bufferpool_pages"));
    assert_non_null(strstr(sql, "JOIN SYSCAT.TABLESPACES TS ON TS.TBSPACEID "
                                "= TB.TBSPACEID JOIN SYSCAT.BUFFERPOOLS BP "
                                "ON BP.BUFFERPOOLID = TS.BUFFERPOOLID"));
    assert_non_null(strstr(sql, "TB.TABSCHEMA = 'WAS' AND TB.TABNAME = "
                                "'SESSIONS'"));
    /* the live rows: the catalog's statistics, never a count(*) */
    assert_int_equal(coll_live_rows_sql(COLL_ENGINE_DB2, &t, sql, sizeof(sql)),
                     0);
    assert_string_equal(sql, "SELECT CARD FROM SYSCAT.TABLES WHERE TABSCHEMA "
                             "= 'WAS' AND TABNAME = 'SESSIONS'");
    t = tname("", "Sessions");
    assert_int_equal(
        coll_live_rows_sql(COLL_ENGINE_POSTGRESQL, &t, sql, sizeof(sql)), 0);
    assert_string_equal(sql, "SELECT reltuples::bigint FROM pg_class WHERE "
                             "oid = to_regclass('\"Sessions\"')");
    t = tname("", "t");
    assert_int_equal(
        coll_live_rows_sql(COLL_ENGINE_SQLITE, &t, sql, sizeof(sql)), 0);
    assert_string_equal(sql, "");
    assert_null(strstr(sql, "count("));
}

/* WebSphere's SESSIONS on DB2 as SYSCAT.COLUMNS describes it. */
static void db2_sessions_columns(struct coll_columns *cols)
{
    static const char *const names[] = {"NAME",  "TYPE", "NULLABLE",
                                        "FIXED", "PK",   "CODEPAGE"};
    static const char *const rows[][6] = {
        {"ID", "VARCHAR", "0", "0", "0", "1208"},
        {"PROPID", "VARCHAR", "0", "0", "0", "1208"},
        {"APPNAME", "VARCHAR", "1", "0", "0", "1208"},
        {"LISTENERCNT", "SMALLINT", "1", "0", "0", "0"},
        {"LASTACCESS", "BIGINT", "1", "0", "0", "0"},
        {"SMALL", "VARCHAR", "1", "0", "0", "0"},
        {"MEDIUM", "LONG VARCHAR", "1", "0", "0", "0"},
        {"LARGE", "BLOB", "1", "0", "0", "0"},
    };
    struct coll_rows r;
    struct pt_err err;

    assert_int_equal(coll_rows_init(&r, 6, names), 0);
    for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
        assert_int_equal(coll_rows_add(&r, rows[i]), 0);
    assert_int_equal(coll_columns_parse(COLL_ENGINE_DB2, &r, cols, &err), 0);
    coll_rows_release(&r);
    assert_int_equal(cols->n, 8);
}

static void test_column_types(void **state)
{
    static const char *const objs[] = {"SMALL", "MEDIUM", "LARGE"};
    struct coll_columns cols;
    struct coll_column c;
    struct pt_err err;
    char note[256], expr[4096];
    (void)state;

    db2_sessions_columns(&cols);
    assert_true(coll_columns_find(&cols, "small")->for_bit_data);
    assert_false(coll_columns_find(&cols, "APPNAME")->for_bit_data);
    /* FOR BIT DATA, LONG VARCHAR FOR BIT DATA and BLOB are objects */
    for (size_t i = 0; i < 3; i++)
        assert_int_equal(coll_column_check(COLL_ENGINE_DB2,
                                           coll_columns_find(&cols, objs[i]),
                                           note, sizeof(note), &err),
                         0);
    /* a character VARCHAR, a BIGINT: 65 naming the column and the need */
    assert_int_equal(coll_column_check(COLL_ENGINE_DB2,
                                       coll_columns_find(&cols, "APPNAME"),
                                       note, sizeof(note), &err),
                     PT_EDATA);
    assert_non_null(strstr(err.msg, "column 'APPNAME' is varchar"));
    assert_non_null(strstr(err.msg, "VARCHAR FOR BIT DATA"));
    assert_int_equal(coll_column_check(COLL_ENGINE_DB2,
                                       coll_columns_find(&cols, "LASTACCESS"),
                                       note, sizeof(note), &err),
                     PT_EDATA);
    assert_non_null(strstr(err.msg, "'LASTACCESS' is bigint"));

    /* DB2's rest of the row: LENGTH() of the other columns, +4 varying,
       +1 nullable; the objects left out */
    assert_int_equal(coll_row_rest_expr(COLL_ENGINE_DB2, &cols, objs, 3, "",
                                        expr, sizeof(expr), &err),
                     0);
    assert_string_equal(
        expr, "(COALESCE(LENGTH(\"ID\"), 0) + 4) + (COALESCE(LENGTH("
              "\"PROPID\"), 0) + 4) + (COALESCE(LENGTH(\"APPNAME\"), 0) + 5) "
              "+ (COALESCE(LENGTH(\"LISTENERCNT\"), 0) + 1) + "
              "(COALESCE(LENGTH(\"LASTACCESS\"), 0) + 1)");
    assert_int_equal(coll_row_rest_const(COLL_ENGINE_DB2, &cols), 0);
    assert_int_equal(coll_row_rest_expr(COLL_ENGINE_POSTGRESQL, &cols, objs, 3,
                                        "", expr, sizeof(expr), &err),
                     PT_EINTERNAL);

    /* MariaDB: type sizes, length prefixes, the NULL bitmap */
    memset(&cols, 0, sizeof(cols));
    cols.n = 4;
    strcpy(cols.col[0].name, "id");
    strcpy(cols.col[0].type, "bigint");
    cols.col[0].fixed_bytes = 8;
    strcpy(cols.col[1].name, "created");
    strcpy(cols.col[1].type, "timestamp");
    cols.col[1].fixed_bytes = 4;
    cols.col[1].nullable = 1;
    strcpy(cols.col[2].name, "usr");
    strcpy(cols.col[2].type, "varchar");
    cols.col[2].nullable = 1;
    strcpy(cols.col[3].name, "object");
    strcpy(cols.col[3].type, "blob");
    cols.col[3].nullable = 1;
    assert_int_equal(coll_row_rest_expr(COLL_ENGINE_MYSQL, &cols,
                                        (const char *const[]){"OBJECT"}, 1, "",
                                        expr, sizeof(expr), &err),
                     0);
    assert_string_equal(expr,
                        "(8) + (CASE WHEN `created` IS NULL THEN 0 ELSE 4 "
                        "END) + (COALESCE(OCTET_LENGTH(`usr`) + CASE WHEN "
                        "OCTET_LENGTH(`usr`) < 128 THEN 1 ELSE 2 END, 0))");
    assert_int_equal(coll_row_rest_const(COLL_ENGINE_MYSQL, &cols), 1);
    assert_int_equal(coll_column_check(COLL_ENGINE_MYSQL, &cols.col[1], note,
                                       sizeof(note), &err),
                     PT_EDATA);
    assert_non_null(strstr(err.msg, "'created' is timestamp"));
    assert_int_equal(coll_column_check(COLL_ENGINE_MYSQL, &cols.col[2], note,
                                       sizeof(note), &err),
                     0);
    assert_non_null(strstr(note, "counts characters"));
    assert_int_equal(coll_column_check(COLL_ENGINE_MYSQL, &cols.col[3], note,
                                       sizeof(note), &err),
                     0);
    assert_string_equal(note, "");

    /* SQLite: the declared type's affinity decides */
    memset(&c, 0, sizeof(c));
    strcpy(c.name, "n");
    strcpy(c.type, "bigint");
    assert_int_equal(coll_column_check(COLL_ENGINE_SQLITE, &c, NULL, 0, &err),
                     PT_EDATA);
    assert_non_null(strstr(err.msg, "affinity integer"));
    strcpy(c.type, "");
    assert_int_equal(coll_column_check(COLL_ENGINE_SQLITE, &c, NULL, 0, &err),
                     0);
    strcpy(c.type, "varchar(10)");
    assert_int_equal(coll_column_check(COLL_ENGINE_SQLITE, &c, NULL, 0, &err),
                     0);
    strcpy(c.type, "timestamp");
    assert_int_equal(coll_column_check(COLL_ENGINE_SQLITE, &c, NULL, 0, &err),
                     PT_EDATA);
    strcpy(c.type, "int4");
    assert_int_equal(
        coll_column_check(COLL_ENGINE_POSTGRESQL, &c, NULL, 0, &err), PT_EDATA);
    strcpy(c.type, "bytea");
    assert_int_equal(
        coll_column_check(COLL_ENGINE_POSTGRESQL, &c, NULL, 0, &err), 0);
}

static void test_state_json(void **state)
{
    struct coll_state st;
    json_t *j;
    (void)state;

    memset(&st, 0, sizeof(st));
    st.n = 3;
    strcpy(st.k[0].name, "toast_tuple_target");
    st.k[0].is_set = 1;
    st.k[0].is_number = 1;
    st.k[0].num = 2500;
    strcpy(st.k[1].name, "storage");
    st.k[1].is_set = 1;
    strcpy(st.k[1].word, "EXTERNAL");
    strcpy(st.k[2].name, "shared_buffers_auto_conf");
    st.k[2].is_number = 1; /* not set: null */
    j = coll_state_to_json(&st);
    assert_non_null(j);
    assert_int_equal(json_integer_value(json_object_get(
                         json_object_get(j, "toast_tuple_target"), "value")),
                     2500);
    assert_string_equal(json_string_value(json_object_get(
                            json_object_get(j, "storage"), "value")),
                        "EXTERNAL");
    assert_string_equal(json_string_value(json_object_get(
                            json_object_get(j, "storage"), "source")),
                        "server");
    assert_true(json_is_null(json_object_get(
        json_object_get(j, "shared_buffers_auto_conf"), "value")));
    assert_ptr_equal(coll_state_get(&st, "storage"), &st.k[1]);
    assert_null(coll_state_get(&st, "nope"));
    json_decref(j);
}

static void test_sizes_doc_row(void **state)
{
    struct rec_sizes s;
    struct pt_err err;
    json_t *doc;
    (void)state;

    doc = json_loads("{\"values\":[10,20],\"row_source\":\"measured\","
                     "\"row_fixed_bytes\":{\"min\":19,\"mean\":20.46,"
                     "\"max\":21}}",
                     0, NULL);
    assert_int_equal(coll_sizes_doc_from_json(&s, doc, "a.json", &err), 0);
    assert_true(s.row_measured);
    assert_int_equal(s.row_fixed_bytes, 21); /* rounded up */
    rec_sizes_release(&s);
    json_decref(doc);
    doc = json_loads("{\"values\":[10],\"row_source\":\"profile\"}", 0, NULL);
    assert_int_equal(coll_sizes_doc_from_json(&s, doc, "b.json", &err), 0);
    assert_false(s.row_measured);
    rec_sizes_release(&s);
    json_decref(doc);
    doc = json_loads("{\"values\":[10],\"row_source\":\"measured\"}", 0, NULL);
    assert_int_equal(coll_sizes_doc_from_json(&s, doc, "c.json", &err),
                     PT_EDATA);
    assert_non_null(strstr(err.msg, "c.json: row_source"));
    json_decref(doc);
    doc = json_loads("{\"values\":[10],\"row_source\":\"guess\"}", 0, NULL);
    assert_int_equal(coll_sizes_doc_from_json(&s, doc, "d.json", &err),
                     PT_EDATA);
    json_decref(doc);
}

/* A PostgreSQL-like snapshot at t_s with cumulative pool counters. */
static void pg_snap(struct coll_snapshot *s, double t_s, double logical,
                    double physical)
{
    memset(s, 0, sizeof(*s));
    s->t_s = t_s;
    strcpy(s->taken_at, "2026-01-02T03:04:05Z");
    coll_snapshot_add(s, "bufferpool", "shared_buffers", "page_size", 8192, 0);
    coll_snapshot_add(s, "bufferpool", "shared_buffers", "pages", 16384, 0);
    coll_snapshot_add(s, "bufferpool", "shared_buffers", "logical_reads",
                      logical, 1);
    coll_snapshot_add(s, "bufferpool", "shared_buffers", "physical_reads",
                      physical, 1);
    coll_snapshot_add(s, "bufferpool", "shared_buffers", "direct_reads", 0, 1);
    coll_snapshot_add(s, "table", "public.sessions", "HEAP_BLKS_HIT",
                      logical / 2, 1);
    coll_snapshot_add(s, "table", "public.sessions", "HEAP_BLKS_READ",
                      physical / 2, 1);
}

/* A window is trusted by the block accesses it saw, not by its length. */
static void test_monitor_window_thin(void **state)
{
    struct coll_snapshot snaps[2];
    struct coll_monitor_doc d;
    char why[400];
    (void)state;

    /* 1 s of a busy server: 5000 accesses, trusted */
    pg_snap(&snaps[0], 100, 1000, 10);
    pg_snap(&snaps[1], 101, 6000, 20);
    coll_monitor_doc_init(&d, COLL_ENGINE_POSTGRESQL, NULL, snaps, 2, 1);
    assert_int_equal(
        coll_monitor_window_thin(&d, "--interval", why, sizeof(why)), 0);
    coll_snapshot_release(&snaps[1]);
    /* 600 s of an idle one: 250 accesses, not trusted; at 250 per 600 s
       the minimum takes 2400 s */
    pg_snap(&snaps[1], 700, 1250, 20);
    coll_monitor_doc_init(&d, COLL_ENGINE_POSTGRESQL, NULL, snaps, 2, 600);
    assert_int_equal(
        coll_monitor_window_thin(&d, "--interval", why, sizeof(why)), 1);
    assert_non_null(strstr(why, "saw 250 block accesses, fewer than the 1000"));
    assert_non_null(strstr(why, "pass --interval 2400"));
    coll_snapshot_release(&snaps[1]);
    /* none at all: no rate to scale, so only "monitor while busy" */
    pg_snap(&snaps[1], 105, 1000, 10);
    coll_monitor_doc_init(&d, COLL_ENGINE_POSTGRESQL, NULL, snaps, 2, 5);
    assert_int_equal(
        coll_monitor_window_thin(&d, "--interval", why, sizeof(why)), 1);
    assert_non_null(strstr(why, "saw no block accesses"));
    /* one snapshot is no window */
    coll_monitor_doc_init(&d, COLL_ENGINE_POSTGRESQL, NULL, snaps, 1, 5);
    assert_int_equal(
        coll_monitor_window_thin(&d, "--interval", why, sizeof(why)), 0);
    coll_snapshot_release(&snaps[0]);
    coll_snapshot_release(&snaps[1]);
    /* no pool counters (SQLite): nothing to distrust */
    memset(&snaps[0], 0, sizeof(snaps[0]));
    memset(&snaps[1], 0, sizeof(snaps[1]));
    snaps[1].t_s = 1;
    coll_snapshot_add(&snaps[0], "bufferpool", "page_cache", "pages", 500, 0);
    coll_snapshot_add(&snaps[1], "bufferpool", "page_cache", "pages", 500, 0);
    coll_monitor_doc_init(&d, COLL_ENGINE_SQLITE, NULL, snaps, 2, 1);
    assert_false(d.summary.counted);
    assert_int_equal(
        coll_monitor_window_thin(&d, "--interval", why, sizeof(why)), 0);
    coll_snapshot_release(&snaps[0]);
    coll_snapshot_release(&snaps[1]);
}

static void test_monitor_doc_round_trip(void **state)
{
    struct coll_snapshot snaps[3];
    struct coll_source src;
    struct coll_monitor_doc d;
    struct rec_monitor m;
    struct pt_err err;
    json_t *doc, *pool, *dl;
    int reset = 0, found = 0;
    (void)state;

    /* the one reset rule */
    assert_true(coll_counter_delta(4, 10, &reset) == 6 && reset == 0);
    assert_true(coll_counter_delta(10, 4, &reset) == 4 && reset == 1);

    /* the server restarts between the second and third snapshot */
    pg_snap(&snaps[0], 100, 1000, 100);
    pg_snap(&snaps[1], 110, 2000, 150);
    pg_snap(&snaps[2], 120, 500, 50);
    assert_true(coll_monitor_run_delta(snaps, 3, "bufferpool", "shared_buffers",
                                       "logical_reads", &found) == 1500);
    assert_true(found);
    coll_monitor_run_delta(snaps, 3, "bufferpool", "nope", "logical_reads",
                           &found);
    assert_false(found);
    coll_source_init(&src, NULL);
    coll_monitor_doc_init(&d, COLL_ENGINE_POSTGRESQL, &src, snaps, 3, 10);
    assert_true(d.summary.logical_reads == 1500);
    assert_true(d.summary.physical_reads == 100);
    assert_true(d.summary.elapsed_s == 20);
    assert_int_equal(d.current.page_size, 8192);
    assert_int_equal(d.current.bufferpool_pages, 16384);

    doc = coll_monitor_doc_to_json(&d);
    assert_non_null(doc);
    assert_string_equal(json_string_value(json_object_get(doc, "engine")),
                        "postgresql");
    assert_int_equal(json_integer_value(json_object_get(doc, "count")), 3);
    assert_true(json_real_value(json_object_get(json_object_get(doc, "summary"),
                                                "hit_ratio")) == 93.333);
    pool = json_array_get(json_object_get(doc, "bufferpools"), 0);
    assert_string_equal(json_string_value(json_object_get(pool, "name")),
                        "shared_buffers");
    assert_int_equal(json_integer_value(json_object_get(pool, "pages")), 16384);
    assert_int_equal(json_array_size(json_object_get(pool, "snapshots")), 3);
    dl = json_object_get(pool, "deltas");
    assert_int_equal(json_array_size(dl), 2);
    assert_int_equal(
        json_integer_value(json_object_get(
            json_object_get(json_array_get(dl, 1), "delta"), "logical_reads")),
        500);
    assert_true(json_real_value(
                    json_object_get(json_array_get(dl, 0), "hit_ratio")) == 95);
    assert_non_null(json_object_get(
        json_array_get(json_object_get(doc, "tables"), 0), "heap_hit_ratio"));
    /* scopes without objects are left out, bufferpools/tables never */
    assert_null(json_object_get(doc, "tablespaces"));

    assert_int_equal(coll_monitor_doc_from_json(&m, doc, "m.json", &err), 0);
    assert_true(m.present);
    assert_string_equal(m.engine, "postgresql");
    assert_int_equal(m.page_size_bytes, 8192);
    assert_int_equal(m.bufferpool_pages, 16384);
    assert_true(m.hit_ratio_pct == 93.333);
    assert_int_equal(m.logical_reads, 1500);
    assert_int_equal(m.physical_reads, 100);
    assert_true(m.direct_read_share == 0);
    /* in process, without the document: the same evidence */
    {
        struct rec_monitor e;
        assert_int_equal(coll_monitor_doc_evidence(&d, &e, &err), 0);
        assert_int_equal(e.present, m.present);
        assert_string_equal(e.engine, m.engine);
        assert_int_equal(e.page_size_bytes, m.page_size_bytes);
        assert_int_equal(e.bufferpool_pages, m.bufferpool_pages);
        assert_true(e.hit_ratio_pct == m.hit_ratio_pct);
        assert_int_equal(e.logical_reads, m.logical_reads);
        assert_int_equal(e.physical_reads, m.physical_reads);
        assert_int_equal(e.direct_reads, m.direct_reads);
        assert_true(e.direct_read_share == m.direct_read_share);
        /* an engine that reports no page size gives no evidence */
        d.current.page_size = 0;
        assert_int_equal(coll_monitor_doc_evidence(&d, &e, &err), PT_EDATA);
        assert_non_null(strstr(err.msg, "page_size"));
    }
    json_decref(doc);

    /* one snapshot: the counters since the server started */
    coll_monitor_doc_init(&d, COLL_ENGINE_POSTGRESQL, NULL, &snaps[1], 1, 10);
    doc = coll_monitor_doc_to_json(&d);
    assert_string_equal(
        json_string_value(json_object_get(json_object_get(doc, "summary"),
                                          "hit_ratio_basis")),
        "counters since server start (one snapshot)");
    assert_int_equal(coll_monitor_doc_from_json(&m, doc, "m.json", &err), 0);
    assert_int_equal(m.logical_reads, 2000);
    assert_true(m.hit_ratio_pct == 92.5);
    /* the reader checks what recommend relies on */
    json_object_set_new(json_object_get(doc, "current"), "page_size",
                        json_integer(0));
    assert_int_equal(coll_monitor_doc_from_json(&m, doc, "m.json", &err),
                     PT_EDATA);
    assert_non_null(strstr(err.msg, "m.json"));
    json_decref(doc);
    for (size_t i = 0; i < 3; i++)
        coll_snapshot_release(&snaps[i]);
}

/* MemTotal from /proc/meminfo text (proc(5)), and "host" in the monitor
 * document: written, read back, checked. */
static void test_monitor_host(void **state)
{
    struct coll_snapshot snaps[2];
    struct coll_monitor_doc d;
    struct rec_monitor m, e;
    struct pt_err err;
    uint64_t b = 0;
    json_t *doc, *h;
    (void)state;

    assert_int_equal(coll_meminfo_total("MemTotal:       16315128 kB\n"
                                        "MemFree:         1 kB\n",
                                        &b),
                     0);
    assert_true(b == 16315128ULL * 1024);
    assert_int_equal(coll_meminfo_total("MemFree: 1 kB\nMemTotal: 2048 kB", &b),
                     0);
    assert_true(b == 2048 * 1024);
    assert_int_equal(coll_meminfo_total("MemFree: 1 kB\n", &b), -1);
    assert_int_equal(coll_meminfo_total("MemTotal: x kB\n", &b), -1);
    assert_int_equal(coll_meminfo_total("MemTotal: 12 MB\n", &b), -1);
    assert_int_equal(coll_meminfo_total("MemTotal: 0 kB\n", &b), -1);
    /* DB2 (cannot run here): the documented table function and column */
    assert_non_null(strstr(COLL_DB2_HOST_MEMORY_SQL,
                           "TABLE(SYSPROC.ENV_GET_SYSTEM_RESOURCES())"));
    assert_non_null(strstr(COLL_DB2_HOST_MEMORY_SQL, "SELECT MEMORY_TOTAL"));

    pg_snap(&snaps[0], 100, 1000, 100);
    pg_snap(&snaps[1], 110, 2000, 150);
    snaps[1].host.read = 1;
    snaps[1].host.known = 1;
    snaps[1].host.memory_bytes = 8ULL << 30;
    snprintf(snaps[1].host.source, sizeof(snaps[1].host.source),
             "pg_read_file('/proc/meminfo') MemTotal on the server");
    coll_monitor_doc_init(&d, COLL_ENGINE_POSTGRESQL, NULL, snaps, 2, 10);
    doc = coll_monitor_doc_to_json(&d);
    h = json_object_get(doc, "host");
    assert_int_equal(json_integer_value(json_object_get(h, "memory_bytes")),
                     8LL << 30);
    assert_int_equal(coll_monitor_doc_from_json(&m, doc, "m.json", &err), 0);
    assert_true(m.host_memory_bytes == 8ULL << 30);
    assert_non_null(strstr(m.host_source, "pg_read_file"));
    assert_int_equal(coll_monitor_doc_evidence(&d, &e, &err), 0);
    assert_true(e.host_memory_bytes == m.host_memory_bytes);
    assert_string_equal(e.host_source, m.host_source);
    /* the table's row-access blocks over the run (heap here: 1000 -> 2000
       logical halves, 100 -> 150 physical halves), both paths alike */
    assert_int_equal(m.n_tables, 1);
    assert_string_equal(m.tables[0].name, "public.sessions");
    assert_true(m.tables[0].hits == 500 && m.tables[0].reads == 25);
    assert_int_equal(e.n_tables, 1);
    assert_true(e.tables[0].hits == 500 && e.tables[0].reads == 25);
    /* a small host edited in: read as written; absurd values refused */
    json_object_set_new(h, "memory_bytes", json_integer(64 << 20));
    assert_int_equal(coll_monitor_doc_from_json(&m, doc, "m.json", &err), 0);
    assert_true(m.host_memory_bytes == 64 << 20);
    json_object_set_new(h, "memory_bytes", json_integer(1000));
    assert_int_equal(coll_monitor_doc_from_json(&m, doc, "m.json", &err),
                     PT_EDATA);
    assert_non_null(strstr(err.msg, "m.json: host"));
    json_object_set_new(h, "memory_bytes", json_string("8G"));
    assert_int_equal(coll_monitor_doc_from_json(&m, doc, "m.json", &err),
                     PT_EDATA);
    json_decref(doc);

    /* not readable: null with the reason, carried to the evidence */
    memset(&snaps[1].host, 0, sizeof(snaps[1].host));
    snaps[1].host.read = 1;
    snprintf(snaps[1].host.note, sizeof(snaps[1].host.note),
             "host memory not readable: permission denied");
    coll_monitor_doc_init(&d, COLL_ENGINE_POSTGRESQL, NULL, snaps, 2, 10);
    doc = coll_monitor_doc_to_json(&d);
    h = json_object_get(doc, "host");
    assert_true(json_is_null(json_object_get(h, "memory_bytes")));
    assert_string_equal(json_string_value(json_object_get(h, "reason")),
                        "host memory not readable: permission denied");
    assert_int_equal(coll_monitor_doc_from_json(&m, doc, "m.json", &err), 0);
    assert_true(m.host_memory_bytes == 0);
    assert_string_equal(m.host_source,
                        "host memory not readable: permission denied");
    /* a document without "host" (older pagetune) says so */
    json_object_del(doc, "host");
    assert_int_equal(coll_monitor_doc_from_json(&m, doc, "m.json", &err), 0);
    assert_non_null(strstr(m.host_source, "has no \"host\""));
    json_decref(doc);
    for (size_t i = 0; i < 2; i++)
        coll_snapshot_release(&snaps[i]);
}

static char tmpdir[64];

static int setup_dir(void **state)
{
    (void)state;
    strcpy(tmpdir, "/tmp/pt-collect-unit.XXXXXX");
    return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown_dir(void **state)
{
    char cmd[128];
    (void)state;
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
    return system(cmd) == 0 ? 0 : -1;
}

static int have_sqlite_driver(void)
{
    return system("odbcinst -q -d -n SQLite3 >/dev/null 2>&1") == 0;
}

static void write_file(const char *path, const char *text, mode_t mode)
{
    FILE *fp = fopen(path, "w");
    assert_non_null(fp);
    fputs(text, fp);
    fclose(fp);
    chmod(path, mode);
}

static int n_progress;

static void count_progress(void *ctx, size_t done, size_t total)
{
    (void)ctx;
    assert_int_equal(done, (size_t)++n_progress);
    assert_int_equal(total, 3);
}

/* A monitor run through the real SQLite3 ODBC driver: taken, cancelled. */
static void test_sqlite_monitor_run(void **state)
{
    struct coll_conn_opts o = {0};
    struct coll_conn *c = NULL;
    struct coll_monitor_opts mo = {0};
    struct coll_snapshot snaps[3];
    struct coll_monitor_doc d;
    struct rec_monitor m;
    struct pt_err err;
    char connect[256];
    size_t n = 99;
    (void)state;

    if (!have_sqlite_driver()) {
        if (getenv("CI") && strcmp(getenv("CI"), "true") == 0)
            fail_msg("SQLite3 ODBC driver not registered (CI=true)");
        skip();
    }
    snprintf(connect, sizeof(connect), "Driver=SQLite3;Database=%s/m.db;",
             tmpdir);
    o.connect = connect;
    assert_int_equal(coll_conn_open(&c, &o, &err), 0);
    mo.count = 3;
    mo.interval_s = 0.05;
    mo.progress = count_progress;
    n_progress = 0;
    assert_int_equal(coll_monitor_run(c, &mo, snaps, &n, &err), 0);
    assert_int_equal(n, 3);
    assert_int_equal(n_progress, 3);
    assert_true(snaps[2].t_s - snaps[0].t_s >= 0.1);
    /* SQLite has page settings but no hit counters: evidence without a
       hit ratio */
    coll_monitor_doc_init(&d, coll_conn_engine(c), NULL, snaps, n, 0.05);
    assert_int_equal(coll_monitor_doc_evidence(&d, &m, &err), 0);
    assert_true(m.page_size_bytes > 0);
    assert_true(m.hit_ratio_pct == -1);
    /* the database file is on this machine: the host is this one's
       MemTotal, read once, on the last snapshot */
    {
        FILE *fp = fopen("/proc/meminfo", "r");
        char text[4096];
        size_t k = fp ? fread(text, 1, sizeof(text) - 1, fp) : 0;
        uint64_t total = 0;
        if (fp)
            fclose(fp);
        text[k] = '\0';
        assert_false(snaps[0].host.read);
        assert_true(snaps[n - 1].host.read);
        if (coll_meminfo_total(text, &total) == 0) {
            assert_true(m.host_memory_bytes == total);
            assert_non_null(strstr(m.host_source, "/proc/meminfo"));
        } else {
            assert_true(m.host_memory_bytes == 0);
            assert_non_null(strstr(m.host_source, "not readable"));
        }
    }
    for (size_t i = 0; i < n; i++)
        coll_snapshot_release(&snaps[i]);

    /* the stop signal raised: the first snapshot is kept, then PT_EINTR */
    mo.progress = NULL;
    assert_int_equal(pt_interrupt_note(SIGINT), 0);
    assert_int_equal(coll_monitor_run(c, &mo, snaps, &n, &err), PT_EINTR);
    pt_interrupt_reset();
    assert_int_equal(n, 1);
    coll_snapshot_release(&snaps[0]);
    coll_conn_close(c);
}

static void test_sqlite_odbc(void **state)
{
    struct coll_conn_opts o = {0};
    struct coll_conn *c = NULL;
    struct pt_err err;
    char connect[256], script[256], pwfile[256], val[64];
    int64_t v = 0;
    size_t done = 0;
    struct coll_sample_opts so;
    struct coll_sample_result r;
    (void)state;

    if (!have_sqlite_driver()) {
        if (getenv("CI") && strcmp(getenv("CI"), "true") == 0)
            fail_msg("SQLite3 ODBC driver not registered (CI=true)");
        skip();
    }
    snprintf(connect, sizeof(connect),
             "Driver=SQLite3;Database=%s/u.db;PWD=hunter2;", tmpdir);
    o.connect = connect;
    assert_int_equal(coll_conn_open(&c, &o, &err), 0);
    assert_int_equal(coll_conn_engine(c), COLL_ENGINE_SQLITE);
    /* the description never holds the password */
    assert_null(strstr(coll_conn_describe(c), "hunter2"));
    assert_non_null(strstr(coll_conn_describe(c), "u.db"));

    /* a script: comments, ';' inside quotes, a statement over lines */
    snprintf(script, sizeof(script), "%s/s.sql", tmpdir);
    write_file(script,
               "-- schema\n"
               "CREATE TABLE SESSIONS (ID TEXT, PROPID TEXT,\n"
               "  SMALL BLOB, MEDIUM BLOB, LARGE BLOB);\n"
               "INSERT INTO SESSIONS VALUES ('a;b', 'a;b', zeroblob(10), "
               "NULL, NULL); -- trailing\n"
               "\n"
               "WITH RECURSIVE g(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM "
               "g WHERE n < 99)\n"
               "INSERT INTO SESSIONS SELECT 'k' || n, 'k' || n, NULL, "
               "zeroblob(4000 + n), NULL FROM g;\n",
               0644);
    assert_int_equal(sqlscript_exec(c, script, &done, &err), 0);
    assert_int_equal(done, 3);
    assert_int_equal(
        coll_query_i64(c, "SELECT count(*) FROM SESSIONS", &v, &err), 0);
    assert_int_equal(v, 100);
    assert_int_equal(coll_query_value(c,
                                      "SELECT ID FROM SESSIONS WHERE "
                                      "SMALL IS NOT NULL",
                                      val, sizeof(val), NULL, &err),
                     0);
    assert_string_equal(val, "a;b");
    /* a failing statement names file:line */
    write_file(script, "SELECT 1;\n\nSELECT * FROM nope;\n", 0644);
    assert_true(sqlscript_exec(c, script, &done, &err) < 0);
    assert_int_equal(done, 1);
    assert_non_null(strstr(err.msg, "s.sql:3"));
    assert_null(strstr(err.msg, "hunter2"));

    /* block fetch with a block smaller than the table */
    coll_sample_opts_init(&so);
    so.block_rows = 7;
    assert_int_equal(coll_sample_run(c, &so, &r, &err), 0);
    assert_int_equal(r.n_values, 100);
    assert_int_equal(r.placement[0], 1);
    assert_int_equal(r.placement[1], 99);
    assert_int_equal(r.layout, COLL_LAYOUT_SINGLE_ROW);
    {
        uint64_t sum = 0;
        for (size_t i = 0; i < r.n_values; i++)
            sum += r.values[i];
        assert_int_equal(sum, 10 + 99 * 4000 + 99 * 100 / 2);
    }
    coll_sample_result_release(&r);
    /* a hostile table name is refused unquoted, and quoted it is one name */
    assert_int_equal(
        pt_qname_parse(&so.table, "x; DROP TABLE SESSIONS", "--table", &err),
        PT_EUSAGE);
    assert_int_equal(pt_qname_parse(&so.table, "\"x; DROP TABLE SESSIONS\"",
                                    "--table", &err),
                     0);
    assert_int_equal(coll_sample_run(c, &so, &r, &err), PT_EUSAGE);
    assert_int_equal(
        pt_qname_parse(&so.table, "\"x` WHERE 0 OR `SMALL\"", "--table", &err),
        0);
    assert_int_equal(coll_sample_run(c, &so, &r, &err), PT_ENOINPUT);
    assert_int_equal(
        coll_query_i64(c, "SELECT count(*) FROM SESSIONS", &v, &err), 0);
    assert_int_equal(v, 100);
    coll_conn_close(c);

    /* password file: mode 0600 only */
    snprintf(pwfile, sizeof(pwfile), "%s/pw", tmpdir);
    write_file(pwfile, "secret\n", 0644);
    snprintf(connect, sizeof(connect), "Driver=SQLite3;Database=%s/u.db;",
             tmpdir);
    o.password_file = pwfile;
    assert_int_equal(coll_conn_open(&c, &o, &err), PT_EPERM);
    assert_null(c);
    chmod(pwfile, 0600);
    assert_int_equal(coll_conn_open(&c, &o, &err), 0);
    coll_conn_close(c);
    /* exactly one of dsn / connect */
    o.dsn = "x";
    assert_int_equal(coll_conn_open(&c, &o, &err), PT_EUSAGE);
}

/* ---- secrets on the command line, --timeout (no server needed) ---------- */

static void test_conn_password_sources(void **state)
{
    struct coll_conn_opts o = {0};
    struct coll_conn *c = (void *)1;
    struct pt_err err;
    (void)state;

    assert_true(coll_connstr_has_password("Driver=x;PWD=a;"));
    assert_true(coll_connstr_has_password("Driver=x; pAsSwOrD = {a;b}"));
    assert_true(coll_connstr_has_password("pwd=a"));
    assert_false(coll_connstr_has_password("Driver=x;Uid=pwd;"));
    assert_false(coll_connstr_has_password("Driver=x;NOPWD=a;"));
    assert_false(coll_connstr_has_password(NULL));

    /* two sources: refused before anything is read or connected */
    setenv("PT_UNIT_PW", "from-env", 1);
    o.connect = "Driver=SQLite3;Database=/nonexistent/x.db;Pwd = {s3c;ret}";
    o.password_env = "PT_UNIT_PW";
    assert_int_equal(coll_conn_open(&c, &o, &err), PT_EUSAGE);
    assert_null(c);
    assert_non_null(strstr(err.msg, "password is given twice"));
    assert_null(strstr(err.msg, "s3c"));
    o.password_env = NULL;
    o.password_file = "/nonexistent/pw";
    assert_int_equal(coll_conn_open(&c, &o, &err), PT_EUSAGE);
    assert_non_null(strstr(err.msg, "`password_file`"));

    /* a --dsn value with a password is refused with the value masked */
    o = (struct coll_conn_opts){0};
    o.dsn = "x;pwd={s3c;r}}et};y=1";
    assert_int_equal(coll_conn_open(&c, &o, &err), PT_EUSAGE);
    assert_null(strstr(err.msg, "s3c"));
    assert_null(strstr(err.msg, "et}"));
    assert_non_null(strstr(err.msg, "`password_file`"));

    /* --timeout out of range (cli_conn_opt turns garbage into -1) */
    o = (struct coll_conn_opts){0};
    o.connect = "Driver=SQLite3;Database=/nonexistent/x.db;";
    o.timeout_s = -1;
    assert_int_equal(coll_conn_open(&c, &o, &err), PT_EUSAGE);
    assert_non_null(strstr(err.msg, "`timeout`"));
    o.timeout_s = COLL_TIMEOUT_MAX_S + 1;
    assert_int_equal(coll_conn_open(&c, &o, &err), PT_EUSAGE);
}

/*
 * The watchdog on a driver that honours SQLCancel from another thread (the
 * SQLite3 driver interrupts the statement): a statement that produces no
 * row for longer than timeout_s ends with the watchdog's message, and the
 * connection still closes cleanly.
 */
static void test_sqlite_watchdog(void **state)
{
    struct coll_conn_opts o = {0};
    struct coll_conn *c = NULL;
    struct pt_err err;
    char connect[256];
    int64_t v = 0;
    (void)state;

    if (!have_sqlite_driver()) {
        if (getenv("CI") && strcmp(getenv("CI"), "true") == 0)
            fail_msg("SQLite3 ODBC driver not registered (CI=true)");
        skip();
    }
    snprintf(connect, sizeof(connect), "Driver=SQLite3;Database=%s/w.db;",
             tmpdir);
    o.connect = connect;
    o.timeout_s = 1;
    assert_int_equal(coll_conn_open(&c, &o, &err), 0);
    /* a quick statement is not disturbed */
    assert_int_equal(coll_query_i64(c, "SELECT 42", &v, &err), 0);
    assert_int_equal(v, 42);
    /* an endless statement: SQLite has no socket for the later stages to
       shut down, so only the first stage's SQLCancel can end it (a hang
       here is the failure; ctest's TIMEOUT guards it) */
    v = -1;
    assert_int_equal(coll_query_i64(c,
                                    "WITH RECURSIVE g(n) AS (SELECT 1 UNION "
                                    "ALL SELECT n + 1 FROM g) SELECT count(*) "
                                    "FROM g",
                                    &v, &err),
                     PT_EUNAVAIL);
    assert_non_null(strstr(err.msg, "no answer from the server for "));
    assert_non_null(strstr(err.msg, " s while running"));
    assert_int_equal(v, -1); /* no count: the statement did not finish */
    coll_conn_close(c);
}

/*
 * Drive the watchdog's schedule with a clock of the test's own: from the
 * last progress at 0 ms, what it does and when, until on_stall or `stop_at`.
 * The probe: -1 never answers, else it answers alive (1) or not (0) after
 * probe_ms. Returns the time of on_stall (or of the last action).
 */
static int64_t watch_drive(long timeout_s, int can_probe, int probe_answer,
                           int64_t probe_ms, int64_t *fire_ms, int *resumed)
{
    struct coll_watch_clock k = {0};
    int64_t now = 0, due, probe_back = -1;

    k.timeout_s = timeout_s;
    k.can_probe = can_probe;
    *fire_ms = -1;
    *resumed = 0;
    for (int steps = 0; steps < 100; steps++) {
        enum coll_watch_act act;
        if (probe_back >= 0 && now >= probe_back) {
            k.probing = 0;
            k.probe_alive = probe_answer;
            probe_back = -1;
        }
        act = coll_watch_next(&k, now, &due);
        switch (act) {
        case COLL_WATCH_WAIT:
            assert_true(due > now);
            if (probe_back >= 0 && probe_back < due)
                due = probe_back;
            now = due;
            break;
        case COLL_WATCH_PROBE:
            k.stage = COLL_WATCH_PROBING;
            k.probing = 1;
            if (probe_answer >= 0)
                probe_back = now + probe_ms;
            break;
        case COLL_WATCH_RESUME:
            *resumed = 1;
            return now;
        case COLL_WATCH_FIRE:
            *fire_ms = now;
            k.stage = COLL_WATCH_CANCELLED;
            break;
        case COLL_WATCH_SHUTDOWN:
            k.stage = COLL_WATCH_SHUT;
            break;
        case COLL_WATCH_STALL:
            return now;
        }
    }
    fail_msg("the watchdog's schedule does not end");
    return -1;
}

/* The deadline is --timeout plus COLL_WATCH_GRACE_S, whatever the probe
   does; the message states the time waited (issue 30, point 8). */
static void test_watchdog_schedule(void **state)
{
    int64_t fire, end;
    int resumed;
    char msg[256];
    (void)state;

    /* a stopped server: the probe never answers */
    for (long t = 1; t <= 30; t += 29) {
        end = watch_drive(t, 1, -1, 0, &fire, &resumed);
        assert_false(resumed);
        assert_int_equal(fire, t * 1000 + COLL_WATCH_PROBE_MS);
        assert_int_equal(end, t * 1000 + COLL_WATCH_GRACE_S * 1000);
    }
    /* no probe (SQLite): cancel at once at the timeout, same deadline */
    end = watch_drive(5, 0, -1, 0, &fire, &resumed);
    assert_int_equal(fire, 5000);
    assert_int_equal(end, 5000 + COLL_WATCH_GRACE_S * 1000);
    /* the probe finds no server quickly: cancel then, same deadline */
    end = watch_drive(5, 1, 0, 300, &fire, &resumed);
    assert_int_equal(fire, 5300);
    assert_int_equal(end, 5000 + COLL_WATCH_GRACE_S * 1000);
    /* a busy server answers the probe: that is progress */
    end = watch_drive(5, 1, 1, 400, &fire, &resumed);
    assert_true(resumed);
    assert_int_equal(fire, -1);
    assert_int_equal(end, 5400);
    /* the grace is small: the issue measured 14 s for --timeout 5 */
    assert_true(COLL_WATCH_GRACE_S <= 5);
    coll_watch_message(msg, sizeof(msg), 9.96, 5, "fetching rows");
    assert_string_equal(msg, "no answer from the server for 10.0 s while "
                             "fetching rows (`timeout` 5 s, then up to 5 s "
                             "to confirm and give up)");
}

/* replay on a PostgreSQL server (pgreplay.c): the candidate grammar, the
 * scratch DDL (--dry-run) and the estimate, without a server */
static void test_pgr_candidate(void **state)
{
    struct coll_pgr_candidate c;
    struct pt_err err;
    char buf[128];
    (void)state;

    assert_int_equal(
        coll_pgr_candidate_parse("toast_tuple_target=4096", &c, &err), 0);
    assert_int_equal(c.toast_tuple_target, 4096);
    assert_string_equal(c.storage, "");
    assert_int_equal(
        coll_pgr_candidate_parse("toast_tuple_target=2032,storage=external,"
                                 "compression=LZ4",
                                 &c, &err),
        0);
    assert_string_equal(c.storage, "EXTERNAL");
    assert_string_equal(c.compression, "lz4");
    coll_pgr_candidate_format(&c, buf, sizeof(buf));
    assert_string_equal(
        buf, "toast_tuple_target=2032,storage=EXTERNAL,compression=lz4");
    /* the default target when only a storage is given */
    assert_int_equal(coll_pgr_candidate_parse("storage=MAIN", &c, &err), 0);
    assert_int_equal(c.toast_tuple_target, 2032);
    /* refused, each with a message naming the part */
    assert_int_equal(
        coll_pgr_candidate_parse("toast_tuple_target=127", &c, &err),
        PT_EUSAGE);
    assert_non_null(strstr(err.msg, "128..8160"));
    assert_int_equal(
        coll_pgr_candidate_parse("toast_tuple_target=8161", &c, &err),
        PT_EUSAGE);
    assert_int_equal(
        coll_pgr_candidate_parse("toast_tuple_target=4k", &c, &err), PT_EUSAGE);
    assert_int_equal(coll_pgr_candidate_parse("storage=COLD", &c, &err),
                     PT_EUSAGE);
    assert_non_null(strstr(err.msg, "COLD"));
    assert_int_equal(coll_pgr_candidate_parse("compression=zstd", &c, &err),
                     PT_EUSAGE);
    assert_int_equal(coll_pgr_candidate_parse("toast_tuple_target", &c, &err),
                     PT_EUSAGE);
    /* the heap's fillfactor: 10..100 (CREATE TABLE's range), 100 the
       default (formatted as nothing), either side refused */
    assert_int_equal(coll_pgr_candidate_parse(
                         "toast_tuple_target=2032,fillfactor=90", &c, &err),
                     0);
    assert_int_equal(c.fillfactor, 90);
    coll_pgr_candidate_format(&c, buf, sizeof(buf));
    assert_string_equal(buf, "toast_tuple_target=2032,fillfactor=90");
    assert_int_equal(coll_pgr_candidate_parse("fillfactor=10", &c, &err), 0);
    assert_int_equal(c.fillfactor, 10);
    assert_int_equal(coll_pgr_candidate_parse("fillfactor=100", &c, &err), 0);
    assert_int_equal(c.fillfactor, 0);
    coll_pgr_candidate_format(&c, buf, sizeof(buf));
    assert_string_equal(buf, "toast_tuple_target=2032");
    assert_int_equal(coll_pgr_candidate_parse("fillfactor=9", &c, &err),
                     PT_EUSAGE);
    assert_non_null(strstr(err.msg, "fillfactor '9' is not a number 10..100"));
    assert_int_equal(coll_pgr_candidate_parse("fillfactor=101", &c, &err),
                     PT_EUSAGE);
    assert_int_equal(coll_pgr_candidate_parse("fillfactor=", &c, &err),
                     PT_EUSAGE);
    assert_int_equal(coll_pgr_candidate_parse("fill=90", &c, &err), PT_EUSAGE);
    assert_non_null(strstr(err.msg, "fillfactor)"));
}

/*
 * The scratch tables' file system (coll_rpl_check_free): the estimate x
 * 5/4, or max_scratch when smaller, must leave 5 % of it free; a server
 * elsewhere or a path not readable here is not checked, and says why.
 * Held against statvfs of this machine's /tmp.
 */
static void test_rpl_check_free(void **state)
{
    struct coll_pgr_plan p;
    struct coll_pgr_free res;
    struct statvfs fs;
    struct pt_err err;
    uint64_t avail, keep;
    (void)state;

    assert_int_equal(statvfs("/tmp", &fs), 0);
    avail = (uint64_t)fs.f_bavail * fs.f_frsize;
    keep = (uint64_t)((double)fs.f_blocks * fs.f_frsize * 0.05);
    coll_pgr_plan_init(&p);
    p.max_scratch_bytes = 0; /* no bound: the estimate alone */
    /* a small load fits: checked, the figures kept */
    assert_int_equal(coll_rpl_check_free(&p, 4096, "/tmp", 1, "x", &res, &err),
                     0);
    assert_string_equal(res.path, "/tmp");
    assert_int_equal(res.needed_bytes, 5120);
    assert_true(res.free_bytes > 0);
    /* more than the free space less the reserve (by a quarter of it,
       whatever else this machine writes meanwhile): refused, named */
    if (avail > keep) {
        uint64_t over = avail;
        assert_int_equal(
            coll_rpl_check_free(&p, over, "/tmp", 1, "x", &res, &err),
            PT_ECANTCREAT);
        assert_non_null(strstr(err.msg, "on /tmp, which has"));
        assert_non_null(strstr(err.msg, "nothing was created"));
        /* max_scratch below it bounds what is asked for */
        p.max_scratch_bytes = 4096;
        assert_int_equal(
            coll_rpl_check_free(&p, over, "/tmp", 1, "x", &res, &err), 0);
        assert_int_equal(res.needed_bytes, 4096);
        p.max_scratch_bytes = 0;
    }
    /* not checked: elsewhere, unreadable, missing here */
    assert_int_equal(coll_rpl_check_free(&p, UINT64_MAX / 2, "/tmp", 0,
                                         "the server is at 10.0.0.9", &res,
                                         &err),
                     0);
    assert_string_equal(res.path, "");
    assert_string_equal(res.why, "the server is at 10.0.0.9");
    assert_int_equal(
        coll_rpl_check_free(&p, UINT64_MAX / 2, NULL, 1, "x", &res, &err), 0);
    assert_non_null(strstr(res.why, "not readable by this role"));
    assert_int_equal(coll_rpl_check_free(&p, UINT64_MAX / 2,
                                         "/nonexistent/pagetune/data", 1, "x",
                                         &res, &err),
                     0);
    assert_non_null(strstr(res.why, "/nonexistent/pagetune/data: "));
}

static void test_pgr_ddl(void **state)
{
    static const uint64_t sizes[3] = {1000, 2000, 3000};
    struct coll_pgr_plan p;
    struct pt_err err;
    char ddl[8192];
    (void)state;

    coll_pgr_plan_init(&p);
    p.n_cand = 2;
    assert_int_equal(
        coll_pgr_candidate_parse("toast_tuple_target=2032", &p.cand[0], &err),
        0);
    assert_int_equal(
        coll_pgr_candidate_parse(
            "toast_tuple_target=4096,storage=EXTERNAL,fillfactor=70",
            &p.cand[1], &err),
        0);
    p.first_size = sizes;
    p.n_keys = 3;
    assert_int_equal(coll_pgr_ddl(&p, ddl, sizeof(ddl), &err), 0);
    /* timeouts and the lock before the schema, created with its mark */
    assert_non_null(strstr(ddl, "SET statement_timeout = 30000;"));
    assert_non_null(strstr(ddl, "SET lock_timeout = 5000;"));
    assert_true(strstr(ddl, "pg_try_advisory_lock") <
                strstr(ddl, "CREATE SCHEMA"));
    assert_non_null(strstr(ddl, "COMMENT ON SCHEMA \"pagetune_scratch\" IS "
                                "'" COLL_PGR_MARK));
    assert_non_null(strstr(ddl, "toast_tuple_target = 4096, fillfactor = 70, "
                                "autovacuum_enabled = false"));
    /* the default fillfactor is not written */
    assert_non_null(strstr(ddl, "toast_tuple_target = 2032, "
                                "autovacuum_enabled = false"));
    assert_non_null(strstr(ddl,
                           "ALTER TABLE \"pagetune_scratch\".pt_replay_2 ALTER "
                           "COLUMN small SET STORAGE EXTERNAL;"));
    assert_null(strstr(ddl, "pt_replay_1 ALTER")); /* default storage */
    assert_non_null(
        strstr(ddl, "DROP TABLE \"pagetune_scratch\".pt_replay_2;"));
    assert_non_null(strstr(ddl, "DROP SCHEMA \"pagetune_scratch\";"));
    assert_null(strstr(ddl, "CASCADE"));
    /* a schema name is checked before it reaches SQL, and folded */
    p.schema = "x; DROP TABLE y";
    assert_int_equal(coll_pgr_ddl(&p, ddl, sizeof(ddl), &err), PT_EDATA);
    p.schema = "Scratch_R28";
    assert_int_equal(coll_pgr_ddl(&p, ddl, sizeof(ddl), &err), 0);
    assert_non_null(strstr(ddl, "CREATE SCHEMA \"scratch_r28\""));
    assert_non_null(strstr(ddl, "hashtext('scratch_r28')"));
    /* too small a buffer is an error, not a cut script */
    assert_int_equal(coll_pgr_ddl(&p, ddl, 100, &err), PT_EINTERNAL);
    /* the estimate: every candidate holds every session */
    assert_true(coll_pgr_estimate_bytes(&p) >= 2 * (1000 + 2000 + 3000));
    assert_true(coll_pgr_estimate_bytes(&p) < 2 * (6000 + 3 * 1000));
}

/* a PostgreSQL catalog column as coll_columns_read gives it */
static struct coll_column pg_col(const char *name, const char *type,
                                 const char *decl, int nullable, int fixed,
                                 double avg, double nf, char storage)
{
    struct coll_column c;

    memset(&c, 0, sizeof(c));
    snprintf(c.name, sizeof(c.name), "%s", name);
    snprintf(c.type, sizeof(c.type), "%s", type);
    snprintf(c.decl, sizeof(c.decl), "%s", decl);
    c.nullable = nullable;
    c.fixed_bytes = fixed;
    c.avg_width = avg;
    c.null_frac = nf;
    c.storage = storage;
    return c;
}

/* the sampled table's other columns in the scratch tables: those with a
 * synthetic value carried with their declared type, storage, width and
 * NULL share; the layout's own, the objects, other types, wide values
 * and unanalyzed columns left to pt_rest, and said */
static void test_pgr_extras(void **state)
{
    static const uint64_t sizes[2] = {3000, 3000};
    static const char *const objs[] = {"SMALL", "MEDIUM", "LARGE"};
    struct coll_columns cols;
    struct coll_pgr_plan p;
    struct pt_err err;
    char why[512], ddl[65536];
    const char *v;
    (void)state;

    memset(&cols, 0, sizeof(cols));
    cols.col[cols.n++] =
        pg_col("ID", "varchar", "character varying(128)", 0, 0, 20, 0, 'x');
    cols.col[cols.n++] = pg_col("tenant", "text", "text", 0, 0, 41, 0, 'x');
    cols.col[cols.n++] = pg_col("flags", "int4", "integer", 1, 4, 4, 0, 'p');
    cols.col[cols.n++] = pg_col("created", "timestamptz",
                                "timestamp with time zone", 1, 8, 8, 0.5, 'p');
    cols.col[cols.n++] =
        pg_col("code", "varchar", "character varying(10)", 0, 0, 50, 0, 'x');
    cols.col[cols.n++] =
        pg_col("kind", "kind_t", "kind_t", 0, 4, 4, 0, 'p'); /* an enum */
    cols.col[cols.n++] = pg_col("blob", "bytea", "bytea", 1, 0, 21, 0, 'm');
    cols.col[cols.n++] = pg_col("doc", "jsonb", "jsonb", 1, 0, 5000, 0, 'x');
    cols.col[cols.n++] = pg_col("we\"ird", "bool", "boolean", 0, 1, 1, 0, 'p');
    cols.col[cols.n++] = pg_col("medium", "bytea", "bytea", 1, 0, 30, 0.9, 'x');
    cols.col[cols.n++] = pg_col("fresh", "int8", "bigint", 1, 8, -1, -1, 'p');
    coll_pgr_plan_init(&p);
    p.n_cand = 1;
    assert_int_equal(
        coll_pgr_candidate_parse("toast_tuple_target=2032", &p.cand[0], &err),
        0);
    p.first_size = sizes;
    p.n_keys = 2;
    p.rest_bytes = 84 + 300;
    assert_int_equal(coll_pgr_extras(&p, &cols, objs, 3, why, sizeof(why)), 6);
    /* ID (the layout's own) and medium (an object) are not even named */
    assert_null(strstr(why, "ID"));
    assert_null(strstr(why, "medium"));
    assert_non_null(strstr(why, "kind (kind_t: no synthetic value"));
    assert_non_null(strstr(why, "doc (jsonb: wider than 1 KB)"));
    assert_non_null(strstr(why, "fresh (bigint: no statistics"));
    /* 40 characters and a 1-byte header; 4; 8 in half the rows; 10 (its
       declared length) and 1; 20 bytes and 1; 1 */
    assert_string_equal(p.extra[0].name, "\"tenant\"");
    assert_int_equal(p.extra[0].bytes, 41);
    v = strstr(p.extra[0].def, "'::text");
    assert_non_null(v);
    assert_int_equal(v - p.extra[0].def, 41); /* the quote and 40 digits */
    assert_int_equal(p.extra[1].bytes, 4);
    assert_string_equal(p.extra[1].def, "'1'::integer");
    assert_int_equal(p.extra[2].bytes, 4);
    assert_int_equal(p.extra[2].width, 8);
    assert_true(p.extra[2].null_frac == 0.5);
    assert_true(p.extra[1].null_frac == 0); /* nullable, never NULL */
    assert_non_null(strstr(p.extra[2].def, "CASE WHEN random() < 0.500 THEN "
                                           "NULL ELSE '2026-01-01 12:00:00+00'"
                                           "::timestamp with time zone END"));
    assert_int_equal(p.extra[3].bytes, 11);
    assert_non_null(strstr(p.extra[3].def, "'::character varying(10)"));
    assert_int_equal(p.extra[4].bytes, 21);
    assert_non_null(strstr(p.extra[4].def, "decode('"));
    assert_int_equal(p.extra[4].storage, 'm');
    assert_string_equal(p.extra[5].name, "\"we\"\"ird\"");
    assert_int_equal(coll_pgr_extra_bytes(&p), 41 + 4 + 4 + 11 + 21 + 1);
    /* the DDL: each its own column, its value the DEFAULT, its storage;
       pt_rest the remainder (300 - 82 - its header) */
    assert_int_equal(coll_pgr_ddl(&p, ddl, sizeof(ddl), &err), 0);
    assert_non_null(strstr(ddl, ", \"flags\" integer DEFAULT '1'::integer"));
    assert_non_null(strstr(ddl, ", \"we\"\"ird\" boolean DEFAULT "
                                "'true'::boolean, pt_rest bytea"));
    assert_non_null(strstr(ddl, "ALTER COLUMN \"blob\" SET STORAGE MAIN"));
    assert_non_null(strstr(ddl, "ALTER COLUMN pt_rest SET STORAGE PLAIN"));
    assert_null(strstr(ddl, "kind_t"));
    assert_int_equal(coll_pgr_rest_pad(&p), 300 - 82 - 4);
    /* json keeps its text, jsonb its binary layout: each as wide as
       ANALYZE saw (46 bytes a value) */
    memset(&cols, 0, sizeof(cols));
    cols.col[cols.n++] = pg_col("j", "json", "json", 0, 0, 46, 0, 'x');
    cols.col[cols.n++] = pg_col("jb", "jsonb", "jsonb", 0, 0, 46, 0, 'x');
    assert_int_equal(coll_pgr_extras(&p, &cols, objs, 3, why, sizeof(why)), 2);
    assert_int_equal(p.extra[0].width, 46);
    v = strstr(p.extra[0].def, "\"}'::json");
    assert_non_null(v);
    assert_int_equal(v - p.extra[0].def, 1 + 8 + 35); /* '{"pt": " + 35 */
    assert_int_equal(p.extra[1].width, 46);
    v = strstr(p.extra[1].def, "\"}'::jsonb");
    assert_non_null(v);
    assert_int_equal(v - p.extra[1].def, 1 + 8 + 31);
    /* no room left for a pad: none */
    p.rest_bytes = 84 + 85;
    assert_int_equal(coll_pgr_rest_pad(&p), 0);
    /* no columns: nothing carried, nothing said */
    memset(&cols, 0, sizeof(cols));
    assert_int_equal(coll_pgr_extras(&p, &cols, objs, 3, why, sizeof(why)), 0);
    assert_string_equal(why, "");
}

/* sizes.json's table_columns read back: a document without them has
 * none; each entry's member of the wrong kind or range is refused naming
 * the file and the entry */
static void test_sizes_table_columns(void **state)
{
    static const char *const bad[] = {
        "[{\"type\":\"int\",\"decl\":\"int(11)\",\"nullable\":true}]",
        "[{\"name\":\"a\",\"type\":\"int\",\"decl\":\"int(11)\","
        "\"nullable\":1}]",
        "[{\"name\":\"a\",\"type\":\"text\",\"decl\":\"text\","
        "\"nullable\":true,\"avg_width\":-1}]",
        "[{\"name\":\"a\",\"type\":\"text\",\"decl\":\"text\","
        "\"nullable\":true,\"null_frac\":1.5}]",
        "[{\"name\":\"a\",\"type\":\"text\",\"decl\":\"text\","
        "\"nullable\":true,\"storage\":\"xx\"}]",
        "{\"name\":\"a\"}"};
    struct coll_columns cols;
    struct pt_err err;
    json_t *doc;
    char text[512];
    (void)state;

    doc = json_loads("{\"values\":[1]}", 0, NULL);
    assert_int_equal(coll_sizes_table_columns(doc, "a.json", &cols, &err), 0);
    assert_int_equal(cols.n, 0);
    json_decref(doc);
    doc =
        json_loads("{\"table_columns\":[{\"name\":\"note\",\"type\":\"text\","
                   "\"decl\":\"text\",\"nullable\":true,\"fixed_bytes\":0,"
                   "\"avg_width\":600,\"null_frac\":0.25},{\"name\":\"n\","
                   "\"type\":\"int4\",\"decl\":\"integer\",\"nullable\":false,"
                   "\"fixed_bytes\":4,\"storage\":\"p\",\"category\":\"N\","
                   "\"avg_width\":null,\"null_frac\":null}]}",
                   0, NULL);
    assert_non_null(doc);
    assert_int_equal(coll_sizes_table_columns(doc, "a.json", &cols, &err), 0);
    assert_int_equal(cols.n, 2);
    assert_string_equal(cols.col[0].decl, "text");
    assert_true(cols.col[0].avg_width == 600 && cols.col[0].null_frac == 0.25);
    assert_int_equal(cols.col[1].fixed_bytes, 4);
    assert_int_equal(cols.col[1].storage, 'p');
    assert_true(cols.col[1].avg_width == -1 && cols.col[1].null_frac == -1);
    json_decref(doc);
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        snprintf(text, sizeof(text), "{\"table_columns\":%s}", bad[i]);
        doc = json_loads(text, 0, NULL);
        assert_non_null(doc);
        assert_int_equal(coll_sizes_table_columns(doc, "b.json", &cols, &err),
                         PT_EDATA);
        assert_non_null(strstr(err.msg, "b.json: table_columns"));
        json_decref(doc);
    }
}

/* MariaDB's: the sample's widths and NULL shares as MariaDB types them
 * (COLUMN_TYPE), each a DEFAULT of (IF(RAND() ...)); a value's record
 * bytes with its length byte; a DECIMAL's from its declaration; enums,
 * sets and wide values not carried; the DDL carries them, its buffer
 * too small is an error, not a cut statement */
static void test_myr_extras(void **state)
{
    static const uint64_t sizes[1] = {20000};
    static const char *const objs[] = {"small"};
    struct coll_columns cols;
    struct coll_myr_plan p;
    struct pt_err err;
    char why[512], ddl[65536];
    const char *v;
    (void)state;

    memset(&cols, 0, sizeof(cols));
    cols.col[cols.n++] = pg_col("id", "varchar", "varchar(64)", 0, 0, 5, 0, 0);
    cols.col[cols.n++] =
        pg_col("tenant", "varchar", "varchar(40)", 0, 0, 8.9, 0, 0);
    cols.col[cols.n++] =
        pg_col("score", "decimal", "decimal(7,2)", 1, 0, 5.7, 0.5, 0);
    cols.col[cols.n++] =
        pg_col("flags", "enum", "enum('a','b')", 1, 0, 1, 0, 0);
    cols.col[cols.n++] = pg_col("note", "text", "text", 1, 0, 200, 0.25, 0);
    cols.col[cols.n++] =
        pg_col("code", "char", "char(3)", 0, 0, 50, 0, 0); /* capped: 3 */
    cols.col[cols.n++] =
        pg_col("tag", "varbinary", "varbinary(16)", 0, 0, 16, 0, 0);
    cols.col[cols.n++] = pg_col("n", "int", "int(11)", 0, 4, 4, 0, 0);
    cols.col[cols.n++] = pg_col("big", "text", "text", 1, 0, 5000, 0, 0);
    cols.col[cols.n++] =
        pg_col("we`ird", "datetime", "datetime", 1, 5, 5, 0.004, 0);
    cols.col[cols.n++] = pg_col("fresh", "int", "int(11)", 1, 4, -1, -1, 0);
    coll_myr_plan_init(&p);
    p.base.n_cand = 1;
    p.base.first_size = sizes;
    p.base.n_keys = 1;
    assert_int_equal(coll_myr_extras(&p, &cols, objs, 1, why, sizeof(why)), 7);
    assert_null(strstr(why, "id ("));
    assert_non_null(strstr(why, "flags (enum('a','b'): no synthetic value"));
    assert_non_null(strstr(why, "big (text: wider than 1 KB)"));
    assert_non_null(strstr(why, "fresh (int(11): no width"));
    assert_string_equal(p.base.extra[0].name, "`tenant`");
    assert_int_equal(p.base.extra[0].width, 9);
    assert_int_equal(p.base.extra[0].bytes, 10); /* and its length byte */
    assert_false(p.base.extra[0].fixed);
    v = strstr(p.base.extra[0].def, "')");
    assert_non_null(v);
    assert_int_equal(v - p.base.extra[0].def, 2 + 9); /* (' and 9 digits */
    /* DECIMAL(7,2): 5 digits in 3 bytes, 2 in 1 */
    assert_int_equal(p.base.extra[1].width, 4);
    assert_true(p.base.extra[1].fixed);
    assert_int_equal(p.base.extra[1].bytes, 2); /* NULL in half the rows */
    assert_string_equal(p.base.extra[1].def, "(IF(RAND() < 0.500, NULL, 1))");
    /* 200 bytes: 2 length bytes, NULL in a quarter of the rows */
    assert_int_equal(p.base.extra[2].bytes, 152); /* 202 x 0.75, rounded */
    assert_int_equal(p.base.extra[3].width, 3);
    assert_true(p.base.extra[3].sampled == 50); /* the sample's, beside it */
    assert_non_null(strstr(p.base.extra[4].def, "(UNHEX('"));
    assert_int_equal(p.base.extra[4].bytes, 17);
    assert_int_equal(p.base.extra[5].bytes, 4);
    /* a NULL share under 0.5 %: never NULL, a plain DEFAULT */
    assert_string_equal(p.base.extra[6].name, "`we``ird`");
    assert_false(p.base.extra[6].nullable);
    assert_string_equal(p.base.extra[6].def, "('2026-01-01 12:00:00')");
    /* the record: 10 + 2 + 152 + 4 + 17 + 4 + 5; the 6 + 2 nullable
       columns still fit the NULL bitmap's one byte */
    assert_int_equal(coll_myr_extra_row_bytes(&p), 194);
    assert_int_equal(coll_myr_ddl(&p, ddl, sizeof(ddl), &err), 0);
    assert_non_null(strstr(ddl, "small longblob, `tenant` varchar(40) NOT "
                                "NULL DEFAULT ('"));
    assert_non_null(
        strstr(ddl, "`score` decimal(7,2) NULL DEFAULT (IF(RAND() < 0.500, "
                    "NULL, 1)), `note` text NULL DEFAULT (IF(RAND() < 0.250, "
                    "NULL, '"));
    assert_non_null(strstr(ddl, ", PRIMARY KEY (id, propid, appname)) "
                                "ENGINE=InnoDB ROW_FORMAT=DYNAMIC"));
    assert_int_equal(coll_myr_ddl(&p, ddl, 1200, &err), PT_EINTERNAL);
    /* no columns: nothing carried, nothing said */
    memset(&cols, 0, sizeof(cols));
    assert_int_equal(coll_myr_extras(&p, &cols, objs, 1, why, sizeof(why)), 0);
    assert_string_equal(why, "");
    assert_int_equal(coll_myr_extra_row_bytes(&p), 0);
}

/* on another engine: refused before any statement (PostgreSQL only) */
static void test_pgr_not_postgresql(void **state)
{
    static const uint64_t sizes[1] = {3000};
    struct coll_conn_opts o = {0};
    struct coll_conn *c = NULL;
    struct coll_pgr_plan p;
    struct coll_pgr_result res;
    struct pt_err err;
    char connect[256];
    (void)state;

    if (!have_sqlite_driver())
        skip();
    snprintf(connect, sizeof(connect), "Driver=SQLite3;Database=%s/p.db;",
             tmpdir);
    o.connect = connect;
    assert_int_equal(coll_conn_open(&c, &o, &err), 0);
    coll_pgr_plan_init(&p);
    p.n_cand = 1;
    p.cand[0].toast_tuple_target = 2032;
    p.first_size = sizes;
    p.n_keys = 1;
    p.conn = &o;
    assert_int_equal(coll_pgr_run(c, &p, &res, &err), PT_EUSAGE);
    assert_non_null(strstr(err.msg, "supports PostgreSQL, MariaDB and MySQL"));
    assert_non_null(strstr(err.msg, "the built-in store"));
    assert_non_null(strstr(err.msg, "`connect`"));
    coll_conn_close(c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ident_check),
        cmocka_unit_test(test_ident_quote),
        cmocka_unit_test(test_table_parse),
        cmocka_unit_test(test_engine_names),
        cmocka_unit_test(test_sample_sql),
        cmocka_unit_test(test_db2_bufferpool),
        cmocka_unit_test(test_db2_catalog_current),
        cmocka_unit_test(test_db2_deltas),
        cmocka_unit_test(test_hit_ratio_and_reset),
        cmocka_unit_test(test_pg_parse),
        cmocka_unit_test(test_mysql_parse),
        cmocka_unit_test(test_sqlite_parse),
        cmocka_unit_test(test_sizes_doc_round_trip),
        cmocka_unit_test(test_sizes_doc_errors),
        cmocka_unit_test(test_catalog_sql),
        cmocka_unit_test(test_column_types),
        cmocka_unit_test(test_state_json),
        cmocka_unit_test(test_sizes_doc_row),
        cmocka_unit_test(test_monitor_doc_round_trip),
        cmocka_unit_test(test_monitor_host),
        cmocka_unit_test_setup_teardown(test_sqlite_monitor_run, setup_dir,
                                        teardown_dir),
        cmocka_unit_test_setup_teardown(test_sqlite_odbc, setup_dir,
                                        teardown_dir),
        cmocka_unit_test(test_conn_password_sources),
        cmocka_unit_test_setup_teardown(test_sqlite_watchdog, setup_dir,
                                        teardown_dir),
        cmocka_unit_test(test_watchdog_schedule),
        cmocka_unit_test(test_monitor_window_thin),
        cmocka_unit_test(test_pgr_candidate),
        cmocka_unit_test(test_rpl_check_free),
        cmocka_unit_test(test_pgr_ddl),
        cmocka_unit_test(test_pgr_extras),
        cmocka_unit_test(test_myr_extras),
        cmocka_unit_test(test_sizes_table_columns),
        cmocka_unit_test_setup_teardown(test_pgr_not_postgresql, setup_dir,
                                        teardown_dir),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
