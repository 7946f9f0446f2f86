/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_store.c — unit tests for store/: the placement rule, creating a store
 * at a page size, get/set/invalidate/expire on a real SQLite file, overflow
 * pages measured by dbstat on either side of the page-fit boundary, the
 * page-cache counters, two connections writing at once (no SQLITE_BUSY
 * surfacing), a full store (max_page_count) failing with PT_EIO and staying
 * consistent, error statuses for bad paths and files, a small replay, and
 * the plan API (store_plan_run: directory, files, ack log, hooks) with
 * replay.json's round trip and refusals.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <signal.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "model/model.h"
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
 * through model/; here only the rule is under test). */
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

/* ---- the plan API and replay.json --------------------------------------- */

static const char plan_trace[] = "time_ms,op,key,size\n"
                                 "0,get,s1,4000\n"
                                 "1,set,s1,4000\n"
                                 "2,get,s2,4000\n"
                                 "3,set,s3,5000\n"
                                 "4,del,s2,0\n"
                                 "5,get,s2,4000\n"
                                 "6,get,s1,4000\n"
                                 "7,set,s1,12000\n";

struct hook_log {
    int ready, begins, ends, failed, progress;
    uint32_t last_page;
};

static void h_ready(void *ctx, const struct store_trace *t)
{
    struct hook_log *h = ctx;
    assert_int_equal(t->n_reqs, 8);
    h->ready++;
}

static void h_begin(void *ctx, uint32_t page_size, uint64_t n_reqs)
{
    struct hook_log *h = ctx;
    assert_int_equal(n_reqs, 8);
    h->begins++;
    h->last_page = page_size;
}

static void h_progress(void *ctx, uint64_t done, uint64_t total)
{
    struct hook_log *h = ctx;
    assert_true(done <= total);
    h->progress++;
}

static void h_end(void *ctx, const struct store_replay_result *r)
{
    struct hook_log *h = ctx;
    h->ends++;
    if (!r)
        h->failed++;
    else
        assert_int_equal(r->page_size_bytes, h->last_page);
}

static void db2_engine(struct rec_engine *e)
{
    json_t *prof;
    struct pt_err err;

    if (prof_load_named("engines", "db2", &prof, &err) < 0 ||
        rec_engine_from_json(e, prof, "db2", &err) < 0)
        fail_msg("%s", err.msg);
    json_decref(prof);
}

static void plan_for(struct store_plan *p, const struct rec_engine *e,
                     struct hook_log *h)
{
    store_plan_init(p);
    p->trace_path = write_trace("plan.csv", plan_trace);
    p->engine = e;
    p->n_page_sizes = 2;
    p->page_sizes[0] = 4096;
    p->page_sizes[1] = 32768;
    p->cache_bytes = 128 * 1024;
    memset(h, 0, sizeof(*h));
    p->ready = h_ready;
    p->page_begin = h_begin;
    p->progress = h_progress;
    p->page_end = h_end;
    p->ctx = h;
}

static int exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

static void test_plan_run(void **state)
{
    struct rec_engine e;
    struct store_plan p;
    struct store_plan_result res;
    struct hook_log h;
    struct pt_err err;
    char dir[256], file[300];
    (void)state;

    db2_engine(&e);
    plan_for(&p, &e, &h);
    snprintf(dir, sizeof(dir), "%s", path_of("keepdir"));
    p.store_dir = dir;
    p.keep = 1;
    p.sync = STORE_SYNC_OFF;
    if (store_plan_run(&p, &res, &err) < 0)
        fail_msg("%s", err.msg);
    assert_int_equal(h.ready, 1);
    assert_int_equal(h.begins, 2);
    assert_int_equal(h.ends, 2);
    assert_int_equal(h.failed, 0);
    assert_true(h.progress >= 2);
    assert_int_equal(res.n_results, 2);
    assert_string_equal(res.engine, "db2");
    assert_int_equal(res.sync, STORE_SYNC_OFF);
    for (size_t i = 0; i < 2; i++) {
        const struct store_replay_result *r = &res.results[i];
        assert_int_equal(r->page_size_bytes, p.page_sizes[i]);
        assert_int_equal(r->ops, 8);
        assert_int_equal(r->cache_bytes, 128 * 1024);
        assert_int_equal(r->placed[0] + r->placed[1] + r->placed[2], 3);
        assert_non_null(res.store_paths[i]);
        assert_true(exists(res.store_paths[i]));
    }
    /* DB2's row limits: 4000-byte sessions leave the row at 4K pages and
     * stay in it at 32K (WebSphere's SMALL column) */
    assert_int_equal(res.results[0].placed[STORE_COL_SMALL], 0);
    assert_int_equal(res.results[1].placed[STORE_COL_SMALL], 3);
    /* ... and with DB2's storage semantics they go to the LOB area, not
     * to SQLite overflow pages */
    assert_true(res.results[0].space.lob_records >
                res.results[1].space.lob_records);
    assert_int_equal(res.results[0].space.overflow_pages, 0);
    assert_ptr_equal(store_plan_result_find(&res, 32768), &res.results[1]);
    assert_null(store_plan_result_find(&res, 8192));
    store_plan_result_release(&res);

    /* the kept files are refused without force, replaced with it */
    assert_int_equal(store_plan_run(&p, &res, &err), PT_ECANTCREAT);
    assert_int_equal(res.n_results, 0);
    assert_int_equal(h.failed, 1);
    store_plan_result_release(&res);
    p.force = 1;
    assert_int_equal(store_plan_run(&p, &res, &err), 0);
    store_plan_result_release(&res);

    /* without keep the files go, and so does a directory the run made */
    snprintf(dir, sizeof(dir), "%s", path_of("gonedir"));
    p.keep = 0;
    assert_int_equal(store_plan_run(&p, &res, &err), 0);
    assert_null(res.store_paths[0]);
    snprintf(file, sizeof(file), "%s/store-4K.db", dir);
    assert_false(exists(file));
    assert_false(exists(dir));
    store_plan_result_release(&res);
}

/* A progress hook that raises the stop signal at its first report (as a
 * SIGINT during the replay would). */
static void h_raise(void *ctx, uint64_t done, uint64_t total)
{
    struct hook_log *h = ctx;

    (void)done;
    (void)total;
    if (h->progress++ == 0)
        assert_int_equal(pt_interrupt_note(SIGINT), 0);
}

/*
 * The one stop signal (docs/architecture.md#stop): the trace load and the
 * replay poll pt_interrupted() themselves; the progress hook only reports.
 * A signal during the first pass ends the plan with PT_EINTR, no result,
 * and the stores it created removed although kept was asked.
 */
static void test_plan_stops_on_signal(void **state)
{
    struct rec_engine e;
    struct store_plan p;
    struct store_plan_result res;
    struct store_trace t;
    struct hook_log h;
    struct pt_err err;
    char dir[256], file[300];
    (void)state;

    db2_engine(&e);
    plan_for(&p, &e, &h);
    assert_int_equal(
        store_trace_load_progress(&t, p.trace_path, 0, h_raise, &h, &err),
        PT_EINTR);
    pt_interrupt_reset();
    assert_int_equal(h.progress, 1);
    store_trace_release(&t);

    h.progress = 0;
    p.progress = h_raise;
    snprintf(dir, sizeof(dir), "%s", path_of("stopdir"));
    p.store_dir = dir;
    p.keep = 1;
    p.sync = STORE_SYNC_OFF;
    assert_int_equal(store_plan_run(&p, &res, &err), PT_EINTR);
    pt_interrupt_reset();
    assert_true(h.progress >= 1);
    assert_int_equal(res.n_results, 0);
    snprintf(file, sizeof(file), "%s/store-4K.db", dir);
    assert_false(exists(file));
    store_plan_result_release(&res);
    /* the flag cleared, the same plan runs to the end */
    p.keep = 0;
    assert_int_equal(store_plan_run(&p, &res, &err), 0);
    assert_int_equal(res.n_results, 2);
    store_plan_result_release(&res);
}

/* A loaded trace is used as is; a temporary directory is removed. */
static void test_plan_loaded_trace_tmpdir(void **state)
{
    struct rec_engine e;
    struct store_plan p;
    struct store_plan_result res;
    struct store_trace t;
    struct hook_log h;
    struct pt_err err;
    char tmp[256], cmd[300];
    const char *old = getenv("TMPDIR");
    (void)state;

    db2_engine(&e);
    plan_for(&p, &e, &h);
    assert_int_equal(store_trace_load(&t, p.trace_path, &err), 0);
    p.trace = &t;
    p.trace_path = "named-only.csv";
    p.n_page_sizes = 1;
    snprintf(tmp, sizeof(tmp), "%s", path_of("tmp"));
    assert_int_equal(mkdir(tmp, 0700), 0);
    setenv("TMPDIR", tmp, 1);
    assert_int_equal(store_plan_run(&p, &res, &err), 0);
    if (old)
        setenv("TMPDIR", old, 1);
    else
        unsetenv("TMPDIR");
    assert_string_equal(res.trace, "named-only.csv");
    assert_int_equal(res.results[0].ops, 8);
    /* nothing left in TMPDIR: rmdir succeeds only on an empty directory */
    snprintf(cmd, sizeof(cmd), "rmdir '%s'", tmp);
    assert_int_equal(system(cmd), 0);
    store_plan_result_release(&res);
    store_trace_release(&t);
}

static void expect_plan_usage(const struct store_plan *p, const char *what)
{
    struct store_plan_result res;
    struct pt_err err;

    assert_int_equal(store_plan_check(p, &err), PT_EUSAGE);
    if (!strstr(err.msg, what))
        fail_msg("'%s' does not name '%s'", err.msg, what);
    assert_int_equal(store_plan_run(p, &res, &err), PT_EUSAGE);
    store_plan_result_release(&res);
}

static void test_plan_check_and_ack(void **state)
{
    struct rec_engine e;
    struct store_plan p;
    struct store_plan_result res;
    struct hook_log h;
    struct pt_err err;
    char dir[256], line[512];
    FILE *fp;
    (void)state;

    db2_engine(&e);
    plan_for(&p, &e, &h);
    snprintf(dir, sizeof(dir), "%s", path_of("neverdir"));
    p.store_dir = dir;
    p.page_sizes[1] = 12288;
    expect_plan_usage(&p, "`page_size`: 12K is not a page size of engine db2");
    p.page_sizes[1] = 4096;
    expect_plan_usage(&p, "`page_size`: 4K given twice");
    assert_false(exists(dir)); /* nothing created before the check */
    assert_int_equal(h.ready, 0);

    /* the ack log: a header per store, then committed writes */
    p.page_sizes[1] = 8192;
    p.ack_log = path_of("ack.log");
    assert_int_equal(store_plan_run(&p, &res, &err), 0);
    store_plan_result_release(&res);
    fp = fopen(p.ack_log, "r");
    assert_non_null(fp);
    assert_non_null(fgets(line, sizeof(line), fp));
    assert_true(strncmp(line, "# page_size 4096 store ", 23) == 0);
    fclose(fp);
    assert_int_equal(store_plan_run(&p, &res, &err), PT_ECANTCREAT);
    assert_non_null(strstr(err.msg, "use `force`"));
    store_plan_result_release(&res);
}

static void test_replay_json(void **state)
{
    struct rec_engine e;
    struct store_plan p;
    struct store_plan_result res, back, back2;
    struct hook_log h;
    struct pt_err err;
    json_t *doc, *doc2;
    char *s1, *s2;
    (void)state;

    db2_engine(&e);
    plan_for(&p, &e, &h);
    p.store_dir = path_of("jsondir");
    p.keep = 1;
    p.n_clients = 2;
    p.sync = STORE_SYNC_FULL;
    /* the second page size's LOB area direct, as advise replays a table
     * space without FILE SYSTEM CACHING; a memory file system runs it
     * cached and says so */
    p.lob_io_page[1] = STORE_LOB_DIRECT;
    p.lob_direct_fallback = 1;
    assert_int_equal(store_plan_run(&p, &res, &err), 0);
    assert_int_equal(res.results[0].lob_io, STORE_LOB_CACHED);
    assert_int_equal(res.results[0].lob_io_fallback, 0);
    assert_true(res.results[1].lob_io == STORE_LOB_DIRECT
                    ? !res.results[1].lob_io_fallback
                    : res.results[1].lob_io_fallback);
    doc = store_plan_result_to_json(&res);
    assert_non_null(doc);
    if (store_plan_result_from_json(&back, doc, "replay.json", &err) < 0)
        fail_msg("%s", err.msg);
    doc2 = store_plan_result_to_json(&back);
    s1 = json_dumps(doc, JSON_INDENT(2));
    s2 = json_dumps(doc2, JSON_INDENT(2));
    assert_string_equal(s1, s2);
    assert_non_null(strstr(s1, "\"sync\": \"full\""));
    assert_non_null(strstr(s1, "store-32K.db"));
    assert_int_equal(back.n_results, 2);
    assert_int_equal(back.n_clients, 2);
    assert_int_equal(back.sync, STORE_SYNC_FULL);
    for (size_t i = 0; i < 2; i++) {
        const struct store_replay_result *x = &res.results[i],
                                         *y = &back.results[i];
        assert_int_equal(y->page_size_bytes, x->page_size_bytes);
        assert_int_equal(y->lob_io, x->lob_io);
        assert_int_equal(y->lob_io_fallback, x->lob_io_fallback);
        assert_true(y->ops_per_s == x->ops_per_s);
        assert_memory_equal(y->latency, x->latency, sizeof(x->latency));
        assert_memory_equal(y->placed, x->placed, sizeof(x->placed));
        assert_int_equal(y->space.overflow_pages, x->space.overflow_pages);
        assert_int_equal(y->space.db_bytes, x->space.db_bytes);
        assert_int_equal(y->cache_misses, x->cache_misses);
        assert_string_equal(back.store_paths[i], res.store_paths[i]);
    }
    free(s1);
    free(s2);
    json_decref(doc2);

    /* a broken document: PT_EDATA naming the file and the key */
    json_object_set_new(doc, "sync", json_string("sometimes"));
    assert_int_equal(store_plan_result_from_json(&back2, doc, "r.json", &err),
                     PT_EDATA);
    assert_non_null(strstr(err.msg, "r.json: unknown sync 'sometimes'"));
    store_plan_result_release(&back2);
    json_object_set_new(doc, "sync", json_string("off"));
    json_object_del(
        json_object_get(json_array_get(json_object_get(doc, "results"), 1),
                        "latency_by_op_us"),
        "del");
    assert_int_equal(store_plan_result_from_json(&back2, doc, "r.json", &err),
                     PT_EDATA);
    assert_non_null(strstr(err.msg, "'del'"));
    store_plan_result_release(&back2);
    json_decref(doc);
    store_plan_result_release(&res);
    store_plan_result_release(&back);
}

/* Every field of the document maps to its own struct field: distinct
 * values by hand, written and read back. */
static void test_replay_json_fields(void **state)
{
    struct store_plan_result res, back;
    struct store_replay_result *r = &res.results[0];
    struct pt_err err;
    double v = 1.5;
    json_t *doc;
    (void)state;

    memset(&res, 0, sizeof(res));
    res.trace = strdup("t.csv");
    res.engine = strdup("db2");
    res.cache_bytes = 4096;
    res.n_clients = 3;
    res.sync = STORE_SYNC_OFF;
    res.n_results = 1;
    r->page_size_bytes = 16384;
    r->space.page_size_bytes = 16384;
    r->cache_bytes = 4096;
    r->n_clients = 3;
    r->warmup_sessions = 11;
    r->ops = 12;
    r->gets_found = 13;
    r->elapsed_s = 0.25;
    r->ops_per_s = 48.5;
    for (int op = 0; op < STORE_N_OPS; op++) {
        struct store_latency *l = &r->latency[op];
        l->count = 20 + (uint64_t)op;
        l->p50_us = v++;
        l->p95_us = v++;
        l->p99_us = v++;
        l->max_us = v++;
        l->mean_us = v++;
    }
    r->cache_hits = 30;
    r->cache_misses = 31;
    r->cache_hit_ratio = 30.0 / 61.0;
    r->busy_retries = 32;
    r->placed[0] = 40;
    r->placed[1] = 41;
    r->placed[2] = 42;
    r->space.db_bytes = 50;
    r->space.wal_bytes = 51;
    r->space.overflow_pages = 52;
    r->space.leaf_pages = 53;
    doc = store_plan_result_to_json(&res);
    assert_non_null(doc);
    if (store_plan_result_from_json(&back, doc, "replay.json", &err) < 0)
        fail_msg("%s", err.msg);
    assert_memory_equal(&back.results[0], r, sizeof(*r));
    assert_string_equal(back.trace, "t.csv");
    assert_int_equal(back.cache_bytes, 4096);
    assert_int_equal(back.n_clients, 3);
    assert_int_equal(back.sync, STORE_SYNC_OFF);
    json_decref(doc);
    store_plan_result_release(&res);
    store_plan_result_release(&back);
}

/* ---- DB2 semantics: the LOB area ---------------------------------------- */

static uint64_t file_bytes(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 ? (uint64_t)st.st_size : 0;
}

/* Objects placed in MEDIUM / LARGE go to "<store>-lob", come back byte for
 * byte, read as MEDIUM / LARGE of their length, reuse freed homes, pass the
 * LOB check; a damaged record is found by the check and by a get. */
static void lob_area_round_trip(enum store_lob_io io, const char *name)
{
    struct store_config cfg;
    struct store *s = NULL;
    struct store_session ss;
    struct store_space sp;
    struct pt_err err;
    static unsigned char buf[300000];
    char lob[300];
    uint64_t n = 0, size_before;
    FILE *fp;

    test_config(&cfg, 4096);
    cfg.lob_area = 1;
    cfg.lob_io = io;
    snprintf(lob, sizeof(lob), "%s-lob", path_of(name));
    int rc = store_create(path_of(name), &cfg, &s, &err);
    if (rc == PT_EUSAGE && io == STORE_LOB_DIRECT)
        return; /* a file system without O_DIRECT: refused, clearly */
    assert_int_equal(rc, 0);
    assert_true(store_has_lob_area(s));
    assert_int_equal(store_session_set(s, "s", 1, blob, 900, 1, 60, &err), 0);
    assert_int_equal(store_session_set(s, "m", 1, blob + 3, 15000, 2, 60, &err),
                     0);
    assert_int_equal(
        store_session_set(s, "l", 1, blob + 5, 150000, 3, 60, &err), 0);
    assert_int_equal(store_session_get(s, "m", 1, &ss, buf, sizeof(buf), &err),
                     1);
    assert_int_equal(ss.column, STORE_COL_MEDIUM);
    assert_int_equal(ss.n_bytes, 15000);
    assert_memory_equal(buf, blob + 3, 15000);
    assert_int_equal(ss.creation_ms, 2);
    assert_int_equal(store_session_get(s, "l", 1, &ss, buf, sizeof(buf), &err),
                     1);
    assert_int_equal(ss.column, STORE_COL_LARGE);
    assert_memory_equal(buf, blob + 5, 150000);
    assert_int_equal(store_session_get(s, "s", 1, &ss, buf, sizeof(buf), &err),
                     1);
    assert_int_equal(ss.column, STORE_COL_SMALL);
    assert_memory_equal(buf, blob, 900);
    /* rewrites alternate the home's slots; the last write is read */
    for (int i = 0; i < 5; i++)
        assert_int_equal(
            store_session_set(s, "m", 1, blob + i, 14000, 10 + i, 60, &err), 0);
    assert_int_equal(store_session_get(s, "m", 1, &ss, buf, sizeof(buf), &err),
                     1);
    assert_int_equal(ss.n_bytes, 14000);
    assert_memory_equal(buf, blob + 4, 14000);
    /* a freed home is taken again: the area does not grow */
    size_before = file_bytes(lob);
    assert_true(size_before > 15000);
    assert_int_equal(store_session_invalidate(s, "m", 1, &err), 1);
    assert_int_equal(store_session_set(s, "n", 1, blob, 14500, 20, 60, &err),
                     0);
    assert_int_equal(file_bytes(lob), size_before);
    /* back into the row: the home goes to the free list */
    assert_int_equal(store_session_set(s, "n", 1, blob, 100, 21, 60, &err), 0);
    assert_int_equal(store_session_get(s, "n", 1, &ss, buf, sizeof(buf), &err),
                     1);
    assert_int_equal(ss.column, STORE_COL_SMALL);
    assert_int_equal(store_space_get(s, &sp, 1, &err), 0);
    assert_int_equal(sp.lob_records, 1);
    assert_int_equal(sp.overflow_pages, 0);
    assert_int_equal(sp.lob_bytes, file_bytes(lob));
    assert_int_equal(store_lob_check(s, &n, &err), 0);
    assert_int_equal(n, 1);
    assert_int_equal(store_integrity_check(s, &err), 0);
    /* expiry frees the home of an expired LOB session too */
    assert_int_equal(store_expire(s, 100000000, &n, &err), 0);
    assert_int_equal(n, 3);
    assert_int_equal(store_lob_check(s, &n, &err), 0);
    assert_int_equal(n, 0);
    assert_int_equal(store_session_set(s, "l", 1, blob, 150000, 3, 60, &err),
                     0);
    assert_int_equal(file_bytes(lob), size_before);
    store_close(s);

    /* bytes past the end (a transaction that never committed) are cut off
     * when the store is opened again */
    fp = fopen(lob, "ab");
    assert_non_null(fp);
    for (int i = 0; i < 2; i++)
        assert_int_equal(fwrite(blob, 1, sizeof(blob), fp), sizeof(blob));
    fclose(fp);
    assert_int_equal(store_open(path_of(name), &cfg, &s, &err), 0);
    /* cut back to the end of the last home (whose second slot may never
     * have been written), far less than what was appended */
    assert_true(file_bytes(lob) >= size_before);
    assert_true(file_bytes(lob) < size_before + 2 * sizeof(blob));
    assert_int_equal(store_lob_check(s, &n, &err), 0);
    assert_int_equal(n, 1);
    store_close(s);

    /* a damaged record: the check and a get both say so */
    fp = fopen(lob, "r+b");
    assert_non_null(fp);
    /* every 512th byte of the whole area: whichever home is current */
    size_t len = (size_t)file_bytes(lob);
    unsigned char *rec = malloc(len);
    assert_non_null(rec);
    assert_int_equal(fread(rec, 1, len, fp), len);
    for (size_t i = 100; i < len; i += 512)
        rec[i] ^= 0x5a;
    assert_int_equal(fseek(fp, 0, SEEK_SET), 0);
    assert_int_equal(fwrite(rec, 1, len, fp), len);
    fclose(fp);
    free(rec);
    assert_int_equal(store_open(path_of(name), &cfg, &s, &err), 0);
    assert_int_equal(store_lob_check(s, &n, &err), PT_EDATA);
    assert_non_null(strstr(err.msg, "checksum"));
    assert_int_equal(store_session_get(s, "l", 1, &ss, buf, sizeof(buf), &err),
                     PT_EDATA);
    store_close(s);
}

static void test_lob_area(void **state)
{
    (void)state;
    lob_area_round_trip(STORE_LOB_CACHED, "lob-cached.db");
    lob_area_round_trip(STORE_LOB_DIRECT, "lob-direct.db");
}

/* A LOB area limit fails a write like a full disk and keeps the store. */
/* Deferred writes and redo: a crash with the group open (here: a copy of
 * the store's files taken while it is open, as a SIGKILL leaves them)
 * loses nothing acknowledged. SQLite's committed state lacks the group;
 * opening the copy applies its records from the log, in order: in-row and
 * LOB sets, a move between the two, a delete. Without redo the copy would
 * still hold the first values. */
static void test_redo_deferred(void **state)
{
    struct store_config cfg;
    struct store *s = NULL, *c = NULL;
    struct store_session ss;
    struct pt_err err;
    static unsigned char buf[300000];
    static const char *const sfx[] = {"", "-wal", "-lob", "-log"};
    char cmd[1024];
    uint64_t n = 0;
    (void)state;

    test_config(&cfg, 8192);
    cfg.lob_area = 1;
    cfg.deferred_writes = 1;
    assert_int_equal(store_create(path_of("redo.db"), &cfg, &s, &err), 0);
    /* committed: a batch */
    assert_int_equal(store_begin(s, &err), 0);
    assert_int_equal(store_session_set(s, "a", 1, blob, 500, 1, 60, &err), 0);
    assert_int_equal(store_session_set(s, "b", 1, blob, 5000, 1, 60, &err), 0);
    assert_int_equal(store_session_set(s, "c", 1, blob, 600, 1, 60, &err), 0);
    assert_int_equal(store_commit(s, &err), 0);
    /* the open group: acknowledged, not committed by SQLite */
    for (int i = 0; i < 3; i++) {
        assert_int_equal(store_session_set(s, "a", 1, blob + 1 + i, 700 + i,
                                           2 + i, 60, &err),
                         0);
        assert_int_equal(store_session_set(s, "b", 1, blob + 2 + i, 6000 + i,
                                           2 + i, 60, &err),
                         0);
    }
    assert_int_equal(store_session_set(s, "c", 1, blob + 3, 9000, 5, 60, &err),
                     0); /* into the LOB area: a new home */
    assert_int_equal(store_session_set(s, "b", 1, blob + 9, 800, 6, 60, &err),
                     0); /* back into the row: its home is freed */
    assert_int_equal(store_session_invalidate(s, "a", 1, &err), 1);
    assert_int_equal(store_session_set(s, "d", 1, blob + 4, 25000, 7, 60, &err),
                     0); /* LARGE, a new session */
    for (size_t i = 0; i < sizeof(sfx) / sizeof(sfx[0]); i++) {
        snprintf(cmd, sizeof(cmd), "cp '%s%s' '%s%s'", path_of("redo.db"),
                 sfx[i], path_of("crash.db"), sfx[i]);
        assert_int_equal(system(cmd), 0);
    }
    store_close(s);

    assert_int_equal(store_open(path_of("crash.db"), &cfg, &c, &err), 0);
    assert_int_equal(store_redo_records(c), 10);
    assert_int_equal(store_session_get(c, "a", 1, &ss, buf, sizeof(buf), &err),
                     0);
    assert_int_equal(store_session_get(c, "b", 1, &ss, buf, sizeof(buf), &err),
                     1);
    assert_int_equal(ss.column, STORE_COL_SMALL);
    assert_int_equal(ss.n_bytes, 800);
    assert_int_equal(ss.last_access_ms, 6);
    assert_memory_equal(buf, blob + 9, 800);
    assert_int_equal(store_session_get(c, "c", 1, &ss, buf, sizeof(buf), &err),
                     1);
    assert_int_equal(ss.column, STORE_COL_MEDIUM);
    assert_memory_equal(buf, blob + 3, 9000);
    assert_int_equal(store_session_get(c, "d", 1, &ss, buf, sizeof(buf), &err),
                     1);
    assert_int_equal(ss.column, STORE_COL_LARGE);
    assert_memory_equal(buf, blob + 4, 25000);
    assert_int_equal(store_integrity_check(c, &err), 0);
    assert_int_equal(store_lob_check(c, &n, &err), 0);
    assert_int_equal(n, 2);
    /* a second open finds nothing more to apply, and the log goes on */
    store_close(c);
    assert_int_equal(store_open(path_of("crash.db"), &cfg, &c, &err), 0);
    assert_int_equal(store_redo_records(c), 0);
    assert_int_equal(store_session_set(c, "e", 1, blob, 300, 8, 60, &err), 0);
    store_close(c);
    assert_int_equal(store_open(path_of("crash.db"), &cfg, &c, &err), 0);
    assert_int_equal(store_redo_records(c), 0);
    assert_int_equal(store_session_get(c, "e", 1, &ss, buf, sizeof(buf), &err),
                     1);
    store_close(c);
}

/* A failure inside an open group (the LOB area full) rolls the whole group
 * back in SQLite; its earlier operations are applied again from their
 * records, so they stay done, and the failed one leaves no trace. */
static void test_redo_failed_in_group(void **state)
{
    struct store_config cfg;
    struct store *s = NULL;
    struct store_session ss;
    struct pt_err err;
    static unsigned char buf[300000];
    (void)state;

    test_config(&cfg, 8192);
    cfg.lob_area = 1;
    cfg.deferred_writes = 1;
    cfg.max_lob_bytes = 64 * 1024;
    assert_int_equal(store_create(path_of("gfail.db"), &cfg, &s, &err), 0);
    assert_int_equal(store_session_set(s, "a", 1, blob, 500, 1, 60, &err), 0);
    assert_int_equal(store_session_set(s, "b", 1, blob, 9000, 1, 60, &err), 0);
    assert_int_equal(store_session_set(s, "a", 1, blob + 7, 900, 2, 60, &err),
                     0);
    /* a LARGE object needs a home the area cannot give */
    assert_int_equal(store_session_set(s, "c", 1, blob, 150000, 3, 60, &err),
                     PT_EIO);
    assert_int_equal(store_session_get(s, "a", 1, &ss, buf, sizeof(buf), &err),
                     1);
    assert_int_equal(ss.n_bytes, 900);
    assert_memory_equal(buf, blob + 7, 900);
    assert_int_equal(store_session_get(s, "b", 1, &ss, buf, sizeof(buf), &err),
                     1);
    assert_int_equal(ss.column, STORE_COL_MEDIUM);
    assert_int_equal(store_session_get(s, "c", 1, &ss, buf, sizeof(buf), &err),
                     0);
    /* the log goes on after the failed record */
    assert_int_equal(store_session_set(s, "d", 1, blob, 300, 4, 60, &err), 0);
    store_close(s);
    assert_int_equal(store_open(path_of("gfail.db"), &cfg, &s, &err), 0);
    assert_int_equal(store_redo_records(s), 0);
    assert_int_equal(store_session_get(s, "d", 1, &ss, buf, sizeof(buf), &err),
                     1);
    assert_int_equal(store_integrity_check(s, &err), 0);
    store_close(s);
}

static void test_lob_area_full(void **state)
{
    struct store_config cfg;
    struct store *s = NULL;
    struct store_session ss;
    struct pt_err err;
    uint64_t n = 0;
    int ret = 0, i;
    char id[16];
    (void)state;

    test_config(&cfg, 4096);
    cfg.lob_area = 1;
    cfg.max_lob_bytes = 200000;
    assert_int_equal(store_create(path_of("lobfull.db"), &cfg, &s, &err), 0);
    for (i = 0; i < 100 && ret == 0; i++) {
        snprintf(id, sizeof(id), "k%d", i);
        ret = store_session_set(s, id, strlen(id), blob, 20000, 1, 60, &err);
    }
    assert_int_equal(ret, PT_EIO);
    assert_non_null(strstr(err.msg, "full"));
    assert_int_equal(store_session_get(s, id, strlen(id), &ss, NULL, 0, &err),
                     0);
    assert_int_equal(store_session_get(s, "k0", 2, &ss, NULL, 0, &err), 1);
    assert_int_equal(store_lob_check(s, &n, &err), 0);
    assert_int_equal(n, (uint64_t)(i - 1));
    assert_int_equal(store_integrity_check(s, &err), 0);
    store_close(s);
}

/* ---- measurement with confidence and the verdict ------------------------ */

static void test_mean_ci95(void **state)
{
    const double x[] = {0.10, 0.14, 0.12, 0.16, 0.08};
    double m, lo, hi;
    (void)state;

    /* s = sqrt(0.004 / 4) = 0.0316228; t(4) = 2.776; half = 0.039259 */
    assert_int_equal(store_mean_ci95(x, 5, &m, &lo, &hi), 1);
    assert_true(fabs((m) - (0.12)) <= 1e-12);
    assert_true(fabs((hi - m) - (2.776 * 0.0316228 / sqrt(5.0))) <= 1e-6);
    assert_true(fabs((m - lo) - (hi - m)) <= 1e-12);
    assert_int_equal(store_mean_ci95(x, 1, &m, &lo, &hi), 0);
    assert_true(fabs((lo) - (0.10)) <= 0);
    assert_true(fabs((hi) - (0.10)) <= 0);
    assert_true(fabs((store_t975(1)) - (12.706)) <= 1e-9);
    assert_true(fabs((store_t975(30)) - (2.042)) <= 1e-9);
    /* past the table: t(60) = 2.000, t(120) = 1.980 */
    assert_true(fabs((store_t975(60)) - (2.000)) <= 2e-3);
    assert_true(fabs((store_t975(120)) - (1.980)) <= 2e-3);
    assert_true(store_t975(31) < store_t975(30));
}

/* The plan's running total and its time left, from fixed numbers (no
 * clock): 2 page sizes, a trace of 1000 requests over 100 sessions. */
static void test_plan_work(void **state)
{
    struct store_plan p;
    struct store_plan_work w;
    char label[64];
    (void)state;

    store_plan_init(&p);
    p.n_page_sizes = 2;
    p.rounds = 4;
    store_plan_work_init(&w, &p, 1000, 100);
    /* 2 x (100 loaded + 1 warm-up x 1000) + 4 rounds x 2 x 1000, and 2
       stores measured */
    assert_int_equal(w.total, 10202);
    assert_int_equal(w.at_most, 0);
    assert_true(store_plan_work_left_s(&w) < 0); /* nothing done yet */
    w.page_size_bytes = 16384;
    store_plan_work_stage(&w, STORE_STAGE_LOAD, 100);
    assert_string_equal(store_plan_work_label(&w, label, sizeof(label)),
                        "warm-up 16K: loading");
    store_plan_work_update(&w, 50);
    assert_int_equal(w.done, 50);
    store_plan_work_stage(&w, STORE_STAGE_WARMUP, 1000);
    assert_string_equal(store_plan_work_label(&w, label, sizeof(label)),
                        "warm-up 16K");
    store_plan_work_update(&w, 5000); /* capped at the stage */
    assert_int_equal(w.phase_done, 1000);
    assert_int_equal(w.done, 1100);
    store_plan_work_stage(&w, STORE_STAGE_LOAD, 100);
    store_plan_work_stage(&w, STORE_STAGE_WARMUP, 1000);
    store_plan_work_stage(&w, STORE_STAGE_ROUND, 2000);
    assert_string_equal(store_plan_work_label(&w, label, sizeof(label)),
                        "round 1/4");
    store_plan_work_update(&w, 1000);
    assert_int_equal(w.done, 3200);
    w.elapsed_s = 3.2; /* 1 ms a record: 7002 left */
    assert_true(fabs(store_plan_work_left_s(&w) - 7.002) < 1e-9);
    store_plan_work_stage(&w, STORE_STAGE_DONE, 0);
    assert_true(store_plan_work_left_s(&w) == 0);

    /* a budget: up to 100 rounds, at least 2, so an upper bound */
    p.rounds = STORE_MAX_ROUNDS;
    p.budget_s = 20;
    store_plan_work_init(&w, &p, 1000, 100);
    assert_int_equal(w.total, 2200 + 100 * 2000 + 2);
    assert_int_equal(w.at_most, 1);
    assert_int_equal(w.min_rounds, 2);
    for (int k = 0; k < 2; k++) {
        store_plan_work_stage(&w, STORE_STAGE_LOAD, 100);
        store_plan_work_stage(&w, STORE_STAGE_WARMUP, 1000);
    }
    store_plan_work_stage(&w, STORE_STAGE_ROUND, 2000);
    store_plan_work_update(&w, 1000);
    w.elapsed_s = 3.2;
    w.budget_used_s = 3.5;
    /* 199 s of work left, but the budget leaves 16.5 */
    assert_true(fabs(store_plan_work_left_s(&w) - 16.5) < 1e-9);
    /* past the budget in round 2: round 2 still ends, and the 2 stores
       are measured (1.502 s) */
    store_plan_work_stage(&w, STORE_STAGE_ROUND, 2000);
    store_plan_work_update(&w, 500);
    w.elapsed_s = 4.7;
    w.budget_used_s = 25;
    assert_true(fabs(store_plan_work_left_s(&w) - 1.502) < 1e-9);
    /* round 5: the budget's 2 s left, not the round's 1 s */
    for (int k = 0; k < 3; k++)
        store_plan_work_stage(&w, STORE_STAGE_ROUND, 2000);
    assert_int_equal(w.round, 5);
    store_plan_work_update(&w, 1000);
    assert_int_equal(w.done, 11200);
    w.elapsed_s = 11.2;
    w.budget_used_s = 18;
    assert_true(fabs(store_plan_work_left_s(&w) - 2.0) < 1e-9);
    w.budget_used_s = 19.5; /* the round under way ends: 1.002 s */
    assert_true(fabs(store_plan_work_left_s(&w) - 1.002) < 1e-9);

    /* the rounds stop: measuring the 2 stores is what is left */
    store_plan_work_stage(&w, STORE_STAGE_FINISH, 2);
    assert_string_equal(store_plan_work_label(&w, label, sizeof(label)),
                        "measuring the stores");
    store_plan_work_update(&w, 1);
    w.elapsed_s = 12.201; /* 12201 records done */
    assert_true(fabs(store_plan_work_left_s(&w) - 0.001) < 1e-9);

    /* a budget with 2 rounds at most: every round runs, exact */
    p.rounds = 2;
    store_plan_work_init(&w, &p, 1000, 100);
    assert_int_equal(w.at_most, 0);
}

static void test_verdict(void **state)
{
    struct store_range pred = {0.15, 0.10, 0.20};
    struct store_range m;
    struct store_verdict_out out;
    (void)state;

    m = (struct store_range){0.14, 0.11, 0.17};
    assert_int_equal(store_verdict_judge(&m, &pred, &out),
                     STORE_VERDICT_CONFIRMS);
    assert_non_null(strstr(out.why, "confirms: measured +14.0 %"));
    assert_non_null(strstr(out.why, "predicted +15.0 % [+10.0, +20.0]"));
    /* touching the range still overlaps */
    m = (struct store_range){0.25, 0.20, 0.30};
    assert_int_equal(store_verdict_judge(&m, &pred, NULL),
                     STORE_VERDICT_CONFIRMS);
    /* spans zero: inconclusive whatever the prediction */
    m = (struct store_range){0.05, -0.01, 0.11};
    assert_int_equal(store_verdict_judge(&m, &pred, &out),
                     STORE_VERDICT_INCONCLUSIVE);
    assert_non_null(strstr(out.why, "spans zero"));
    m = (struct store_range){-0.14, -0.20, -0.08};
    assert_int_equal(store_verdict_judge(&m, &pred, &out),
                     STORE_VERDICT_CONTRADICTS);
    assert_non_null(strstr(out.why, "opposite direction"));
    assert_non_null(strstr(out.why, "measured -14.0 % [-20.0, -8.0]"));
    m = (struct store_range){0.50, 0.40, 0.60};
    assert_int_equal(store_verdict_judge(&m, &pred, &out),
                     STORE_VERDICT_CONTRADICTS);
    assert_non_null(strstr(out.why, "larger than predicted"));
    m = (struct store_range){0.04, 0.02, 0.06};
    assert_int_equal(store_verdict_judge(&m, &pred, &out),
                     STORE_VERDICT_CONTRADICTS);
    assert_non_null(strstr(out.why, "smaller than predicted"));
    /* a predicted fall: a deeper measured fall is larger, a shallower
       one smaller (by size, not by sign) */
    {
        const struct store_range fall = {-0.15, -0.20, -0.10};
        m = (struct store_range){-0.50, -0.60, -0.40};
        assert_int_equal(store_verdict_judge(&m, &fall, &out),
                         STORE_VERDICT_CONTRADICTS);
        assert_non_null(strstr(out.why, "larger than predicted"));
        m = (struct store_range){-0.04, -0.06, -0.02};
        assert_int_equal(store_verdict_judge(&m, &fall, &out),
                         STORE_VERDICT_CONTRADICTS);
        assert_non_null(strstr(out.why, "smaller than predicted"));
    }
    /* swapped bounds are put in order; a NaN is inconclusive */
    m = (struct store_range){0.14, 0.17, 0.11};
    assert_int_equal(store_verdict_judge(&m, &pred, &out),
                     STORE_VERDICT_CONFIRMS);
    assert_true(out.measured.lo < out.measured.hi);
    m = (struct store_range){NAN, 0.1, 0.2};
    assert_int_equal(store_verdict_judge(&m, &pred, NULL),
                     STORE_VERDICT_INCONCLUSIVE);
    assert_string_equal(store_verdict_name(STORE_VERDICT_CONTRADICTS),
                        "contradicts");
}

/* Rounds: every page size replayed in K rounds, per-round rates and the
 * interval against the first in the result and in replay.json; a request
 * is a get and its write-back; store_verdict_for reads the interval. */
static void test_plan_rounds(void **state)
{
    static const char pairs[] = "time_ms,op,key,size\n"
                                "0,get,a,4000\n"
                                "0,set,a,4000\n"
                                "1,get,b,9000\n"
                                "1,set,b,9000\n"
                                "2,set,c,100\n"
                                "3,get,a,4000\n"
                                "4,get,c,100\n"
                                "4,set,c,200\n";
    struct rec_engine e;
    struct store_plan p;
    struct store_plan_result res, back;
    struct store_verdict_out out;
    struct store_range pred = {0, -10, 10};
    struct hook_log h;
    struct pt_err err;
    json_t *doc;
    (void)state;

    db2_engine(&e);
    plan_for(&p, &e, &h);
    p.trace_path = write_trace("pairs.csv", pairs);
    p.rounds = 4;
    p.warmup_rounds = 2;
    p.n_clients = 2;
    if (store_plan_run(&p, &res, &err) < 0)
        fail_msg("%s", err.msg);
    assert_int_equal(res.n_rounds, 4);
    assert_string_equal(res.stopped, "rounds");
    for (size_t i = 0; i < 2; i++) {
        const struct store_replay_result *r = &res.results[i];
        assert_int_equal(r->ops, 8);
        /* a+a, b+b, c, a, c+c */
        assert_int_equal(r->requests, 5);
        assert_int_equal(r->response.count, 5 * 4);
        assert_int_equal(r->latency[STORE_OP_ALL].count, 8 * 4);
        assert_int_equal(r->n_rounds, 4);
        for (unsigned k = 0; k < 4; k++)
            assert_true(r->round_rps[k] > 0);
        assert_true(r->diff_lo <= r->diff_mean);
        assert_true(r->diff_mean <= r->diff_hi);
    }
    assert_true(res.results[0].diff_mean == 0);
    assert_true(res.results[1].diff_lo < res.results[1].diff_hi);
    assert_int_equal(store_verdict_for(&res, 32768, &pred, &out, &err), 0);
    assert_int_equal(out.verdict,
                     store_verdict_judge(&out.measured, &pred, NULL));
    assert_int_equal(store_verdict_for(&res, 4096, &pred, &out, &err),
                     PT_EUSAGE);
    assert_int_equal(store_verdict_for(&res, 8192, &pred, &out, &err),
                     PT_EUSAGE);
    doc = store_plan_result_to_json(&res);
    assert_non_null(doc);
    assert_int_equal(store_plan_result_from_json(&back, doc, "r.json", &err),
                     0);
    assert_int_equal(back.n_rounds, 4);
    assert_int_equal(back.warmup_rounds, 2);
    assert_string_equal(back.stopped, "rounds");
    assert_int_equal(back.results[1].n_rounds, 4);
    assert_true(back.results[1].diff_lo == res.results[1].diff_lo);
    assert_true(back.results[1].round_rps[3] == res.results[1].round_rps[3]);
    assert_int_equal(back.results[1].requests, 5);
    json_decref(doc);
    store_plan_result_release(&back);
    store_plan_result_release(&res);

    /* a budget: at least 2 rounds, then it stops on tightness or time; a
       nanosecond is spent by the 2 rounds on any machine, however fast */
    p.rounds = 100;
    p.budget_s = 1e-9;
    if (store_plan_run(&p, &res, &err) < 0)
        fail_msg("%s", err.msg);
    assert_int_equal(res.n_rounds, 2);
    assert_string_equal(res.stopped, "budget");
    store_plan_result_release(&res);
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
        cmocka_unit_test(test_plan_run),
        cmocka_unit_test(test_plan_stops_on_signal),
        cmocka_unit_test(test_plan_loaded_trace_tmpdir),
        cmocka_unit_test(test_plan_check_and_ack),
        cmocka_unit_test(test_replay_json),
        cmocka_unit_test(test_replay_json_fields),
        cmocka_unit_test(test_lob_area),
        cmocka_unit_test(test_lob_area_full),
        cmocka_unit_test(test_redo_deferred),
        cmocka_unit_test(test_redo_failed_in_group),
        cmocka_unit_test(test_mean_ci95),
        cmocka_unit_test(test_plan_work),
        cmocka_unit_test(test_verdict),
        cmocka_unit_test(test_plan_rounds),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
