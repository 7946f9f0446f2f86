/* SPDX-License-Identifier: Apache-2.0 */
/*
 * bench_store.c — the session store's overhead against a bare loop of the
 * same SQLite statements, on the same database file and the same request
 * sequence, in one run. Prints ops/s of both and their ratio per round and
 * the median ratio (target: the store reaches >= 0.8x the bare loop).
 *
 * This is the one file outside store/ that includes <sqlite3.h>: the
 * baseline *is* raw SQLite, with the store's own pragmas, schema and SQL
 * text, prepared once, bound, stepped and reset, with the object copied out
 * on a get just as the store does.
 *
 *   bench_store [SESSIONS [OPS_PER_ROUND [ROUNDS [OBJECT_BYTES [PAGE]]]]]
 *   defaults:    2000      20000           9        4000          8192
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sqlite3.h>

#include "store/store.h"

struct req {
    unsigned key;
    int is_set;
};

static void die(const char *what, const char *msg)
{
    fprintf(stderr, "bench_store: %s: %s\n", what, msg);
    exit(1);
}

struct bare {
    sqlite3 *db;
    sqlite3_stmt *get, *set;
    const char *app;
};

static void bare_open(struct bare *b, const char *path, uint64_t cache_bytes)
{
    char sql[96];
    b->app = "default_host/pagetune";
    if (sqlite3_open_v2(path, &b->db, SQLITE_OPEN_READWRITE, NULL) != SQLITE_OK)
        die("bare open", sqlite3_errmsg(b->db));
    snprintf(sql, sizeof(sql),
             "PRAGMA synchronous = NORMAL; PRAGMA cache_size = -%llu",
             (unsigned long long)(cache_bytes / 1024));
    if (sqlite3_exec(b->db, sql, NULL, NULL, NULL) != SQLITE_OK)
        die("bare pragmas", sqlite3_errmsg(b->db));
    sqlite3_busy_timeout(b->db, 30000);
    if (sqlite3_prepare_v3(b->db, store_sql_get, -1, SQLITE_PREPARE_PERSISTENT,
                           &b->get, NULL) != SQLITE_OK ||
        sqlite3_prepare_v3(b->db, store_sql_set, -1, SQLITE_PREPARE_PERSISTENT,
                           &b->set, NULL) != SQLITE_OK)
        die("bare prepare", sqlite3_errmsg(b->db));
}

static void bare_close(struct bare *b)
{
    sqlite3_finalize(b->get);
    sqlite3_finalize(b->set);
    sqlite3_close(b->db);
}

/* The bare loop: what the store does per request, minus the store. */
static void bare_round(struct bare *b, const struct req *reqs, size_t n,
                       char (*keys)[32], const unsigned char *obj,
                       unsigned obj_bytes, int small, unsigned char *buf)
{
    for (size_t i = 0; i < n; i++) {
        const char *k = keys[reqs[i].key];
        int rc;
        if (reqs[i].is_set) {
            sqlite3_stmt *st = b->set;
            sqlite3_bind_text(st, 1, k, -1, SQLITE_STATIC);
            sqlite3_bind_text(st, 2, b->app, -1, SQLITE_STATIC);
            sqlite3_bind_int64(st, 3, 1767225600000 + (int64_t)i);
            sqlite3_bind_int(st, 4, 1800);
            sqlite3_bind_blob(st, small ? 5 : 6, obj, (int)obj_bytes,
                              SQLITE_STATIC);
            sqlite3_bind_null(st, small ? 6 : 5);
            sqlite3_bind_null(st, 7);
            rc = sqlite3_step(st);
            if (rc != SQLITE_DONE)
                die("bare set", sqlite3_errmsg(b->db));
            sqlite3_reset(st);
        } else {
            sqlite3_stmt *st = b->get;
            sqlite3_bind_text(st, 1, k, -1, SQLITE_STATIC);
            sqlite3_bind_text(st, 2, b->app, -1, SQLITE_STATIC);
            rc = sqlite3_step(st);
            if (rc == SQLITE_ROW) {
                for (int c = 0; c < 3; c++) {
                    if (sqlite3_column_type(st, c) == SQLITE_NULL)
                        continue;
                    const void *p = sqlite3_column_blob(st, c);
                    int nb = sqlite3_column_bytes(st, c);
                    if (p && nb > 0)
                        memcpy(buf, p, (size_t)nb);
                    break;
                }
                (void)sqlite3_column_int64(st, 3);
                (void)sqlite3_column_int64(st, 4);
                (void)sqlite3_column_int(st, 5);
            } else if (rc != SQLITE_DONE) {
                die("bare get", sqlite3_errmsg(b->db));
            }
            sqlite3_reset(st);
        }
    }
}

static void store_round(struct store *s, const struct req *reqs, size_t n,
                        char (*keys)[32], const unsigned char *obj,
                        unsigned obj_bytes, unsigned char *buf)
{
    struct pt_err err;
    struct store_session ss;
    for (size_t i = 0; i < n; i++) {
        const char *k = keys[reqs[i].key];
        size_t kl = strlen(k);
        int rc;
        if (reqs[i].is_set)
            rc = store_session_set(s, k, kl, obj, obj_bytes,
                                   1767225600000 + (int64_t)i, 1800, &err);
        else
            rc = store_session_get(s, k, kl, &ss, buf, obj_bytes, &err);
        if (rc < 0)
            die("store", err.msg);
    }
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
    unsigned n_sessions = argc > 1 ? (unsigned)atoi(argv[1]) : 2000;
    size_t per_round = argc > 2 ? (size_t)atol(argv[2]) : 20000;
    int rounds = argc > 3 ? atoi(argv[3]) : 9;
    unsigned obj_bytes = argc > 4 ? (unsigned)atoi(argv[4]) : 4000;
    uint32_t page = argc > 5 ? (uint32_t)atoi(argv[5]) : 8192;
    char dir[] = "/tmp/pt-bench-store-XXXXXX", path[64];
    struct store_config cfg;
    struct store *s = NULL;
    struct bare b;
    struct pt_err err;
    char(*keys)[32];
    struct req *reqs;
    unsigned char *obj, *buf;
    double *ratios;
    uint64_t x = 0x9E3779B97F4A7C15u;

    if (n_sessions == 0 || per_round == 0 || rounds <= 0 || obj_bytes == 0 ||
        !store_page_size_valid(page))
        die("usage", "bench_store [SESSIONS [OPS [ROUNDS [BYTES [PAGE]]]]]");
    if (!mkdtemp(dir))
        die("mkdtemp", "cannot create a temporary directory");
    snprintf(path, sizeof(path), "%s/bench.db", dir);
    keys = calloc(n_sessions, sizeof(*keys));
    reqs = calloc(per_round, sizeof(*reqs));
    obj = malloc(obj_bytes);
    buf = malloc(obj_bytes);
    ratios = calloc((size_t)rounds, sizeof(double));
    if (!keys || !reqs || !obj || !buf || !ratios)
        die("malloc", "out of memory");
    for (unsigned i = 0; i < obj_bytes; i++)
        obj[i] = (unsigned char)(i * 131u + 7u);
    for (unsigned i = 0; i < n_sessions; i++)
        snprintf(keys[i], sizeof(keys[i]), "%04uh6aTb2u9DkMzIiNQy5V", i);
    for (size_t i = 0; i < per_round; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        reqs[i].key = (unsigned)(x % n_sessions);
        reqs[i].is_set = (x >> 32) & 1;
    }

    /* The store as replay uses it: DB2 placement limits at this page size
     * do not matter for the cost, so everything stays in one column. */
    store_config_init(&cfg);
    cfg.page_size_bytes = page;
    cfg.cache_bytes = 2u << 20;
    cfg.small_max_bytes = obj_bytes;
    cfg.medium_max_bytes = obj_bytes;
    cfg.large_max_bytes = obj_bytes;
    if (store_create(path, &cfg, &s, &err) < 0)
        die("create", err.msg);
    if (store_begin(s, &err) < 0)
        die("begin", err.msg);
    for (unsigned i = 0; i < n_sessions; i++)
        if (store_session_set(s, keys[i], strlen(keys[i]), obj, obj_bytes, 0,
                              1800, &err) < 0)
            die("load", err.msg);
    if (store_commit(s, &err) < 0)
        die("commit", err.msg);
    bare_open(&b, path, cfg.cache_bytes);

    printf("bench_store: %u sessions of %u bytes, %uK pages, %zu requests "
           "per round (50%% get / 50%% set), same file, same requests\n",
           n_sessions, obj_bytes, page / 1024, per_round);
    printf("%5s  %12s  %12s  %7s\n", "round", "store ops/s", "bare ops/s",
           "ratio");
    /* Warm both connections' caches once, then alternate which goes first
     * so neither always follows the other's checkpoint. */
    store_round(s, reqs, per_round / 4, keys, obj, obj_bytes, buf);
    bare_round(&b, reqs, per_round / 4, keys, obj, obj_bytes, 1, buf);
    for (int r = 0; r < rounds; r++) {
        double ts = 0, tb = 0;
        for (int half = 0; half < 2; half++) {
            uint64_t t0 = pt_now_ns();
            if ((half == 0) == (r % 2 == 0)) {
                store_round(s, reqs, per_round, keys, obj, obj_bytes, buf);
                ts = (double)(pt_now_ns() - t0) / 1e9;
            } else {
                bare_round(&b, reqs, per_round, keys, obj, obj_bytes, 1, buf);
                tb = (double)(pt_now_ns() - t0) / 1e9;
            }
        }
        double os = (double)per_round / ts, ob = (double)per_round / tb;
        ratios[r] = os / ob;
        printf("%5d  %12.0f  %12.0f  %6.3fx\n", r + 1, os, ob, ratios[r]);
    }
    qsort(ratios, (size_t)rounds, sizeof(double), cmp_double);
    printf("median store/bare ratio: %.3fx (target >= 0.8x)\n",
           ratios[rounds / 2]);

    bare_close(&b);
    store_close(s);
    unlink(path);
    {
        char side[96];
        snprintf(side, sizeof(side), "%s-wal", path);
        unlink(side);
        snprintf(side, sizeof(side), "%s-shm", path);
        unlink(side);
    }
    rmdir(dir);
    free(keys);
    free(reqs);
    free(obj);
    free(buf);
    free(ratios);
    return 0;
}
