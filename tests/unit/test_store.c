/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_store.c — unit tests for store/: the placement rule, creating a store
 * at a page size, get/set/invalidate/expire on a real SQLite file, overflow
 * pages measured by dbstat on either side of the page-fit boundary, the
 * page-cache counters, two connections writing at once (no SQLITE_BUSY
 * surfacing), a full store (max_page_count) failing with PT_EIO and staying
 * consistent, error statuses for bad paths and files, and a small replay.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "store/store.h"

static char tmpdir[] = "/tmp/pt-store-XXXXXX";
static unsigned char blob[300000];

static int setup(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof(blob); i++)
        blob[i] = (unsigned char)(i * 7u + 3u);
    return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **state)
{
    char cmd[128];
    (void)state;
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
    return system(cmd) == 0 ? 0 : -1;
}

static const char *path_of(const char *name)
{
    static char path[4][256];
    static int next;
    char *p = path[next++ % 4];
    snprintf(p, 256, "%s/%s", tmpdir, name);
    return p;
}

/* Limits chosen for the tests (the real ones come from the engine profile
 * through analyzers/; here only the rule is under test). */
static void test_config(struct store_config *cfg, uint32_t page)
{
    store_config_init(cfg);
    cfg->page_size_bytes = page;
    cfg->small_max_bytes = 1000;
    cfg->medium_max_bytes = 20000;
    cfg->large_max_bytes = 200000;
}

static void test_place(void **state)
{
    struct store_config cfg;
    (void)state;
    test_config(&cfg, 4096);
    assert_int_equal(store_place(&cfg, 0), STORE_COL_SMALL);
    assert_int_equal(store_place(&cfg, 1000), STORE_COL_SMALL);
    assert_int_equal(store_place(&cfg, 1001), STORE_COL_MEDIUM);
    assert_int_equal(store_place(&cfg, 20000), STORE_COL_MEDIUM);
    assert_int_equal(store_place(&cfg, 20001), STORE_COL_LARGE);
    assert_int_equal(store_place(&cfg, 200000), STORE_COL_LARGE);
    assert_int_equal(store_place(&cfg, 200001), STORE_COL_NONE);
    assert_string_equal(store_column_name(STORE_COL_MEDIUM), "MEDIUM");
    assert_true(store_page_size_valid(512));
    assert_true(store_page_size_valid(32768));
    assert_true(store_page_size_valid(65536));
    assert_false(store_page_size_valid(3000));
    assert_false(store_page_size_valid(256));
    assert_false(store_page_size_valid(131072));
}

static void test_create_page_size(void **state)
{
    static const uint32_t sizes[] = {4096, 8192, 16384, 32768};
    (void)state;
    for (size_t i = 0; i < 4; i++) {
        struct store_config cfg;
        struct store *s = NULL;
        struct store_space sp;
        struct pt_err err;
        char name[32];
        test_config(&cfg, sizes[i]);
        snprintf(name, sizeof(name), "ps%u.db", sizes[i]);
        assert_int_equal(store_create(path_of(name), &cfg, &s, &err), 0);
        assert_int_equal(store_space_get(s, &sp, 1, &err), 0);
        assert_int_equal(sp.page_size_bytes, sizes[i]);
        assert_int_equal(sp.db_bytes, sp.page_count * sizes[i]);
        assert_int_equal(sp.overflow_pages, 0);
        store_close(s);
        /* A second create on the same path is refused. */
        assert_int_equal(store_create(path_of(name), &cfg, &s, &err),
                         PT_ECANTCREAT);
        assert_null(s);
        assert_non_null(strstr(err.msg, "already exists"));
    }
}

static void test_create_errors(void **state)
{
    struct store_config cfg;
    struct store *s = NULL;
    struct pt_err err;
    FILE *fp;
    (void)state;

    test_config(&cfg, 3000);
    assert_int_equal(store_create(path_of("bad.db"), &cfg, &s, &err), PT_EDATA);
    assert_non_null(strstr(err.msg, "3000"));
    assert_int_equal(access(path_of("bad.db"), F_OK), -1);

    test_config(&cfg, 4096);
    assert_int_equal(store_create(path_of("no/such/dir/x.db"), &cfg, &s, &err),
                     PT_ECANTCREAT);
    assert_int_equal(store_open(path_of("missing.db"), &cfg, &s, &err),
                     PT_ENOINPUT);

    fp = fopen(path_of("text.db"), "w");
    assert_non_null(fp);
    fputs("this is not an SQLite database, just text that is long enough "
          "to fill a header of one hundred bytes, certainly, yes.\n",
          fp);
    fclose(fp);
    assert_int_equal(store_open(path_of("text.db"), &cfg, &s, &err), PT_EDATA);
    assert_null(s);
}

static void test_set_get_invalidate(void **state)
{
    struct store_config cfg;
    struct store *s = NULL;
    struct store_session ss;
    struct pt_err err;
    static unsigned char buf[300000];
    uint64_t n = 0;
    (void)state;

    test_config(&cfg, 8192);
    assert_int_equal(store_create(path_of("ops.db"), &cfg, &s, &err), 0);
    assert_int_equal(store_session_get(s, "a", 1, &ss, buf, 0, &err), 0);

    /* Insert, read back bytes and placement. */
    assert_int_equal(store_session_set(s, "a", 1, blob, 900, 1000, 60, &err),
                     0);
    assert_int_equal(store_session_get(s, "a", 1, &ss, buf, sizeof(buf), &err),
                     1);
    assert_int_equal(ss.column, STORE_COL_SMALL);
    assert_int_equal(ss.n_bytes, 900);
    assert_memory_equal(buf, blob, 900);
    assert_int_equal(ss.creation_ms, 1000);
    assert_int_equal(ss.last_access_ms, 1000);
    assert_int_equal(ss.max_inactive_s, 60);

    /* Update moves the object to MEDIUM, then LARGE; creation time stays. */
    assert_int_equal(
        store_session_set(s, "a", 1, blob + 1, 15000, 2000, 60, &err), 0);
    assert_int_equal(store_session_get(s, "a", 1, &ss, buf, sizeof(buf), &err),
                     1);
    assert_int_equal(ss.column, STORE_COL_MEDIUM);
    assert_int_equal(ss.n_bytes, 15000);
    assert_memory_equal(buf, blob + 1, 15000);
    assert_int_equal(ss.creation_ms, 1000);
    assert_int_equal(ss.last_access_ms, 2000);
    assert_int_equal(store_session_set(s, "a", 1, blob, 150000, 3000, 60, &err),
                     0);
    assert_int_equal(store_session_get(s, "a", 1, &ss, buf, sizeof(buf), &err),
                     1);
    assert_int_equal(ss.column, STORE_COL_LARGE);
    assert_memory_equal(buf, blob, 150000);
    /* A short buffer gets a prefix, n_bytes still tells the length. */
    memset(buf, 0, 16);
    assert_int_equal(store_session_get(s, "a", 1, &ss, buf, 10, &err), 1);
    assert_int_equal(ss.n_bytes, 150000);
    assert_memory_equal(buf, blob, 10);
    assert_int_equal(buf[10], 0);

    /* Zero-length object is stored as an empty BLOB, found again. */
    assert_int_equal(store_session_set(s, "z", 1, NULL, 0, 1, 60, &err), 0);
    assert_int_equal(store_session_get(s, "z", 1, &ss, NULL, 0, &err), 1);
    assert_int_equal(ss.column, STORE_COL_SMALL);
    assert_int_equal(ss.n_bytes, 0);

    /* Too big for LARGE: refused, the old value stays. */
    assert_int_equal(store_session_set(s, "a", 1, blob, 200001, 4000, 60, &err),
                     PT_EDATA);
    assert_non_null(strstr(err.msg, "LARGE"));
    assert_int_equal(store_session_get(s, "a", 1, &ss, NULL, 0, &err), 1);
    assert_int_equal(ss.n_bytes, 150000);

    assert_int_equal(store_count(s, &n, &err), 0);
    assert_int_equal(n, 2);
    assert_int_equal(store_session_invalidate(s, "a", 1, &err), 1);
    assert_int_equal(store_session_invalidate(s, "a", 1, &err), 0);
    assert_int_equal(store_session_get(s, "a", 1, &ss, NULL, 0, &err), 0);
    assert_int_equal(store_count(s, &n, &err), 0);
    assert_int_equal(n, 1);
    assert_int_equal(store_integrity_check(s, &err), 0);
    store_close(s);

    /* Reopen: the data is there. */
    assert_int_equal(store_open(path_of("ops.db"), &cfg, &s, &err), 0);
    assert_int_equal(store_session_get(s, "z", 1, &ss, NULL, 0, &err), 1);
    store_close(s);
}

static void test_expire(void **state)
{
    struct store_config cfg;
    struct store *s = NULL;
    struct store_session ss;
    struct pt_err err;
    uint64_t n = 99;
    (void)state;

    test_config(&cfg, 4096);
    assert_int_equal(store_create(path_of("exp.db"), &cfg, &s, &err), 0);
    /* old: last access 0, 60 s timeout; fresh: last access 100 s; never:
     * negative timeout. */
    assert_int_equal(store_session_set(s, "old", 3, blob, 10, 0, 60, &err), 0);
    assert_int_equal(
        store_session_set(s, "fresh", 5, blob, 10, 100000, 60, &err), 0);
    assert_int_equal(store_session_set(s, "never", 5, blob, 10, 0, -1, &err),
                     0);
    /* At 60 s exactly nothing has expired (strictly past the timeout). */
    assert_int_equal(store_expire(s, 60000, &n, &err), 0);
    assert_int_equal(n, 0);
    assert_int_equal(store_expire(s, 100000, &n, &err), 0);
    assert_int_equal(n, 1);
    assert_int_equal(store_session_get(s, "old", 3, &ss, NULL, 0, &err), 0);
    assert_int_equal(store_session_get(s, "fresh", 5, &ss, NULL, 0, &err), 1);
    assert_int_equal(store_expire(s, 10000000, &n, &err), 0);
    assert_int_equal(n, 1);
    assert_int_equal(store_session_get(s, "never", 5, &ss, NULL, 0, &err), 1);
    store_close(s);
}

/* Overflow pages measured by dbstat on both sides of the leaf limit: a
 * 4000-byte object plus the row's other columns (WebSphere-like: 23-char
 * session id twice, APPNAME, ms timestamps) overflows a 4 KiB page (local
 * payload at most U-35 = 4061 bytes) and fits an 8 KiB page. */
static void test_overflow_pages(void **state)
{
    static const uint32_t sizes[] = {4096, 8192};
    uint64_t overflow[2];
    (void)state;
    for (size_t i = 0; i < 2; i++) {
        struct store_config cfg;
        struct store *s = NULL;
        struct store_space sp;
        struct pt_err err;
        char name[32], id[32];
        test_config(&cfg, sizes[i]);
        snprintf(name, sizeof(name), "ovf%u.db", sizes[i]);
        assert_int_equal(store_create(path_of(name), &cfg, &s, &err), 0);
        assert_int_equal(store_begin(s, &err), 0);
        for (int k = 0; k < 50; k++) {
            int n = snprintf(id, sizeof(id), "h6aTb2u9DkMzIiNQy5V%04d", k);
            assert_int_equal(store_session_set(s, id, (size_t)n, blob, 4000,
                                               INT64_C(1767225600000), 1800,
                                               &err),
                             0);
        }
        assert_int_equal(store_commit(s, &err), 0);
        assert_int_equal(store_space_get(s, &sp, 1, &err), 0);
        overflow[i] = sp.overflow_pages;
        assert_true(sp.leaf_pages >= 1);
        assert_int_equal(sp.wal_bytes, 0); /* TRUNCATE checkpoint */
        store_close(s);
    }
    assert_int_equal(overflow[0], 50); /* one overflow page per row */
    assert_int_equal(overflow[1], 0);
}

static void test_cache_stats(void **state)
{
    struct store_config cfg;
    struct store *s = NULL;
    struct store_stats st;
    struct store_session ss;
    struct pt_err err;
    (void)state;

    test_config(&cfg, 4096);
    cfg.cache_bytes = 1 << 20;
    assert_int_equal(store_create(path_of("stats.db"), &cfg, &s, &err), 0);
    assert_int_equal(store_session_set(s, "k", 1, blob, 100, 0, 60, &err), 0);
    assert_int_equal(store_stats_get(s, &st, 1, &err), 0);
    for (int i = 0; i < 10; i++)
        assert_int_equal(store_session_get(s, "k", 1, &ss, NULL, 0, &err), 1);
    assert_int_equal(store_stats_get(s, &st, 1, &err), 0);
    assert_true(st.cache_hits >= 10); /* index + table page per get */
    assert_int_equal(store_stats_get(s, &st, 0, &err), 0);
    assert_int_equal(st.cache_hits, 0); /* reset above */
    store_close(s);
}

struct writer {
    const char *path;
    int id;
    int status;
    char msg[1024];
};

static void *writer_main(void *arg)
{
    struct writer *w = arg;
    struct store_config cfg;
    struct store *s = NULL;
    struct pt_err err;
    char key[32];

    test_config(&cfg, 4096);
    w->status = store_open(w->path, &cfg, &s, &err);
    for (int i = 0; i < 300 && w->status == 0; i++) {
        int n = snprintf(key, sizeof(key), "w%d-%d", w->id, i % 40);
        w->status =
            store_session_set(s, key, (size_t)n, blob,
                              (uint64_t)(500 + i * 37 % 9000), i, 60, &err);
        if (w->status == 0 && i % 7 == 0)
            w->status = store_session_invalidate(s, key, (size_t)n, &err) < 0
                            ? err.code
                            : 0;
    }
    if (w->status < 0)
        snprintf(w->msg, sizeof(w->msg), "%s", err.msg);
    store_close(s);
    return NULL;
}

/* Four connections write the same file at once: busy waits and retries
 * keep SQLITE_BUSY from surfacing. */
static void test_concurrent_writers(void **state)
{
    struct store_config cfg;
    struct store *s = NULL;
    struct pt_err err;
    struct writer w[4];
    pthread_t th[4];
    (void)state;

    test_config(&cfg, 4096);
    assert_int_equal(store_create(path_of("conc.db"), &cfg, &s, &err), 0);
    for (int i = 0; i < 4; i++) {
        w[i].path = path_of("conc.db");
        w[i].id = i;
        w[i].status = 1;
        w[i].msg[0] = 0;
        assert_int_equal(pthread_create(&th[i], NULL, writer_main, &w[i]), 0);
    }
    for (int i = 0; i < 4; i++) {
        pthread_join(th[i], NULL);
        if (w[i].status != 0)
            fail_msg("writer %d: %s", i, w[i].msg);
    }
    assert_int_equal(store_integrity_check(s, &err), 0);
    store_close(s);
}

/* A store that may not grow (max_page_count) fails a write with PT_EIO and
 * keeps every committed session. */
static void test_full_store(void **state)
{
    struct store_config cfg;
    struct store *s = NULL;
    struct store_session ss;
    struct pt_err err;
    char key[32];
    int i, ret = 0;
    (void)state;

    test_config(&cfg, 4096);
    cfg.max_pages = 40;
    assert_int_equal(store_create(path_of("full.db"), &cfg, &s, &err), 0);
    for (i = 0; i < 1000; i++) {
        int n = snprintf(key, sizeof(key), "k%d", i);
        ret = store_session_set(s, key, (size_t)n, blob, 3000, i, 60, &err);
        if (ret < 0)
            break;
    }
    assert_int_equal(ret, PT_EIO);
    assert_non_null(strstr(err.msg, "full"));
    assert_true(i > 5);
    assert_int_equal(store_integrity_check(s, &err), 0);
    for (int j = 0; j < i; j++) {
        int n = snprintf(key, sizeof(key), "k%d", j);
        assert_int_equal(
            store_session_get(s, key, (size_t)n, &ss, NULL, 0, &err), 1);
    }
    int n = snprintf(key, sizeof(key), "k%d", i);
    assert_int_equal(store_session_get(s, key, (size_t)n, &ss, NULL, 0, &err),
                     0);
    store_close(s);
}

static const char *write_trace(const char *name, const char *text)
{
    const char *p = path_of(name);
    FILE *fp = fopen(p, "w");
    assert_non_null(fp);
    fputs(text, fp);
    fclose(fp);
    return p;
}

static void test_replay_small(void **state)
{
    struct store_trace t;
    struct store_config cfg;
    struct store_replay_opts o;
    struct store_replay_result res;
    struct pt_err err;
    const char *trace;
    (void)state;

    trace = write_trace("t.csv", "time_ms,op,key,size\n"
                                 "0,get,s1,4000\n"
                                 "1,set,s1,4000\n"
                                 "2,get,s2,4000\n"
                                 "3,set,s3,5000\n"
                                 "4,del,s2,0\n"
                                 "5,get,s2,4000\n"
                                 "6,get,s1,4000\n"
                                 "7,set,s1,12000\n");
    assert_int_equal(store_trace_load(&t, trace, &err), 0);
    assert_int_equal(t.n_reqs, 8);
    assert_int_equal(t.n_keys, 3);
    assert_int_equal(t.n_gets, 4);
    assert_int_equal(t.n_sets, 3);
    assert_int_equal(t.n_dels, 1);
    assert_int_equal(t.max_bytes, 12000);

    for (unsigned k = 1; k <= 2; k++) {
        char name[32];
        test_config(&cfg, 4096);
        cfg.cache_bytes = 256 * 1024;
        store_replay_opts_init(&o);
        o.n_clients = k;
        snprintf(name, sizeof(name), "replay%u.db", k);
        assert_int_equal(
            store_replay_run(&t, path_of(name), &cfg, &o, &res, &err), 0);
        assert_int_equal(res.ops, 8);
        assert_int_equal(res.warmup_sessions, 3);
        assert_int_equal(res.latency[STORE_OP_GET].count, 4);
        assert_int_equal(res.latency[STORE_OP_SET].count, 3);
        assert_int_equal(res.latency[STORE_OP_DEL].count, 1);
        assert_int_equal(res.gets_found, 3); /* s2 was deleted */
        assert_int_equal(res.placed[STORE_COL_MEDIUM], 3);
        assert_true(res.latency[STORE_OP_ALL].p50_us <=
                    res.latency[STORE_OP_ALL].p99_us);
        assert_true(res.latency[STORE_OP_ALL].p99_us <=
                    res.latency[STORE_OP_ALL].max_us);
        assert_true(res.cache_hits > 0);
        /* s1 (12000 B: 2 pages) and s3 (5000 B: 1) overflow 4 KiB pages. */
        assert_true(res.space.overflow_pages >= 3);
        assert_int_equal(res.space.page_size_bytes, 4096);
        assert_true(res.ops_per_s > 0);
    }
    /* The store file exists already: refused. */
    assert_int_equal(
        store_replay_run(&t, path_of("replay1.db"), &cfg, &o, &res, &err),
        PT_ECANTCREAT);
    store_trace_release(&t);

    trace = write_trace("bad.csv", "time_ms,op,key,size\n"
                                   "0,get,s1,4000\n"
                                   "1,frobnicate,s1,4000\n");
    assert_int_equal(store_trace_load(&t, trace, &err), PT_EDATA);
    assert_non_null(strstr(err.msg, "bad.csv:3"));
    trace = write_trace("empty.csv", "time_ms,op,key,size\n");
    assert_int_equal(store_trace_load(&t, trace, &err), PT_EDATA);
    assert_int_equal(store_trace_load(&t, path_of("nope.csv"), &err),
                     PT_ENOINPUT);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_place),
        cmocka_unit_test(test_create_page_size),
        cmocka_unit_test(test_create_errors),
        cmocka_unit_test(test_set_get_invalidate),
        cmocka_unit_test(test_expire),
        cmocka_unit_test(test_overflow_pages),
        cmocka_unit_test(test_cache_stats),
        cmocka_unit_test(test_concurrent_writers),
        cmocka_unit_test(test_full_store),
        cmocka_unit_test(test_replay_small),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
