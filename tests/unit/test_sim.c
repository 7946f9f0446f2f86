/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_sim.c — unit tests for sim/: the policy conformance test (every
 * registered policy), hand-checked tiny traces per policy, LRU through the
 * driver against a brute-force reference on get/set/del traces, the exact
 * miss-ratio curve against fixed-size LRU runs at every size, SHARDS on a
 * generated Zipf trace, and empty input; batched access (access_many,
 * sim_run's batches) against one request at a time.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sim/sim.h"

/* A tiny deterministic generator for test traces. */
static uint64_t rng_state;
static uint64_t rnd(void)
{
    uint64_t x;

    rng_state += 0x9e3779b97f4a7c15ULL;
    x = rng_state;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

/* Skewed keys in [0, n): squaring a uniform favours small ids. */
static uint32_t skewed_key(uint32_t n)
{
    double u = (double)(rnd() >> 11) / 9007199254740992.0;
    return (uint32_t)(u * u * u * n);
}

/* ---- conformance: every policy ------------------------------------------ */

static void conform_one(const struct sim_policy_ops *ops, uint64_t cap)
{
    enum { N = 20000, KEYS = 300 };
    struct sim_policy *p = ops->create(cap, 7), *q = ops->create(cap, 7);
    uint64_t count = 0;
    int i;

    assert_non_null(p);
    assert_non_null(q);
    assert_ptr_equal(p->ops, ops);
    assert_int_equal(p->capacity, cap);
    rng_state = cap * 1000 + 1;
    for (i = 0; i < N; i++) {
        uint32_t key = skewed_key(KEYS), victim = 0, victim2 = 0;
        int was = ops->contains(p, key), rc, rc2;

        if (rnd() % 10 == 0) { /* remove */
            rc = ops->remove(p, key);
            rc2 = ops->remove(q, key);
            assert_int_equal(rc, was);
            assert_int_equal(rc2, rc);
            assert_false(ops->contains(p, key));
            count -= (uint64_t)was;
        } else {
            rc = ops->access(p, key, &victim);
            rc2 = ops->access(q, key, &victim2);
            if (rc != was)
                fail_msg("%s cap %llu step %d: access %d but contains %d",
                         ops->name, (unsigned long long)cap, i, rc, was);
            /* same seed, same choices */
            assert_int_equal(rc2, rc);
            assert_int_equal(victim2, victim);
            assert_true(ops->contains(p, key));
            if (rc == 1) {
                assert_int_equal(victim, SIM_NO_KEY);
            } else if (victim != SIM_NO_KEY) {
                assert_int_not_equal(victim, key);
                assert_false(ops->contains(p, victim));
                /* a policy evicts only when full */
                assert_int_equal(count, cap);
            } else {
                assert_true(count < cap);
                count++;
            }
        }
        assert_int_equal(ops->count(p), count);
        assert_true(ops->count(p) <= cap);
    }
    ops->destroy(p);
    ops->destroy(q);
}

static void test_policy_conformance(void **state)
{
    static const uint64_t caps[] = {1, 2, 3, 10, 64, 250};
    size_t i, j, n = 0;
    char names[256];
    (void)state;

    for (i = 0; sim_policies[i]; i++, n++) {
        assert_ptr_equal(sim_policy_find(sim_policies[i]->name),
                         sim_policies[i]);
        assert_non_null(sim_policies[i]->summary);
        for (j = 0; j < sizeof(caps) / sizeof(caps[0]); j++)
            conform_one(sim_policies[i], caps[j]);
    }
    assert_true(n >= 8);
    assert_ptr_equal(sim_policy_find("LRU"), sim_policy_find("lru"));
    assert_null(sim_policy_find("mru"));
    sim_policy_names(names, sizeof(names));
    assert_string_equal(names, "lru, fifo, clock, random, sieve, arc, "
                               "s3fifo, 2q, pg-clock, innodb-lru, "
                               "sqlite-lru");
}

/*
 * A policy's access_many (where it has one) must leave the same cache and
 * count the same hits as access() one key at a time: batches of 1 to 40
 * with 0 to 19 requests ahead, keys up to 2^17 so the nodes grow mid-batch.
 */
static void test_policy_access_many(void **state)
{
    enum { N = 30000, KEYS = 2000 };
    static const uint64_t caps[] = {1, 3, 100, 1500};
    struct sim_req *q = calloc(N, sizeof(*q));
    size_t i, j, c, n_many = 0;
    (void)state;

    assert_non_null(q);
    for (i = 0; sim_policies[i]; i++) {
        const struct sim_policy_ops *ops = sim_policies[i];
        if (!ops->access_many)
            continue;
        n_many++;
        for (c = 0; c < sizeof(caps) / sizeof(caps[0]); c++) {
            struct sim_policy *p = ops->create(caps[c], 3);
            struct sim_policy *m = ops->create(caps[c], 3);
            uint64_t hits_p = 0, hits_m = 0;
            uint32_t v;

            assert_non_null(p);
            assert_non_null(m);
            rng_state = 4242 + c;
            for (j = 0; j < N; j++) {
                q[j].key_id = j % 1000 == 999 ? (uint64_t)(1u << 17) - j
                                              : skewed_key(KEYS);
                q[j].op = SIM_GET;
                hits_p += ops->access(p, (uint32_t)q[j].key_id, &v) == 1;
            }
            for (j = 0; j < N;) {
                size_t n = 1 + rnd() % 40, ahead = rnd() % 20;
                n = n < N - j ? n : N - j;
                ahead = ahead < N - j - n ? ahead : N - j - n;
                assert_int_equal(ops->access_many(m, q + j, n, ahead, &hits_m),
                                 0);
                j += n;
            }
            assert_int_equal(hits_m, hits_p);
            assert_int_equal(ops->count(m), ops->count(p));
            for (j = 0; j < (1u << 17); j++)
                assert_int_equal(ops->contains(m, (uint32_t)j),
                                 ops->contains(p, (uint32_t)j));
            ops->destroy(p);
            ops->destroy(m);
        }
    }
    assert_true(n_many >= 1); /* lru and sqlite-lru */
    free(q);
}

/* Run keys through a policy; return the victims as a string "v v v". */
static void run_tiny(const char *name, uint64_t cap, const uint32_t *keys,
                     size_t n, const char *want_hits, const char *want_victims)
{
    const struct sim_policy_ops *ops = sim_policy_find(name);
    struct sim_policy *p;
    char hits[64] = "", victims[128] = "";
    size_t i;

    assert_non_null(ops);
    p = ops->create(cap, 1);
    assert_non_null(p);
    for (i = 0; i < n; i++) {
        uint32_t v;
        int rc = ops->access(p, keys[i], &v);
        strcat(hits, rc ? "H" : "m");
        if (v != SIM_NO_KEY)
            snprintf(victims + strlen(victims),
                     sizeof(victims) - strlen(victims), "%s%u",
                     victims[0] ? " " : "", v);
    }
    if (strcmp(hits, want_hits) || strcmp(victims, want_victims))
        fail_msg("%s: hits '%s' victims '%s', want '%s' / '%s'", name, hits,
                 victims, want_hits, want_victims);
    ops->destroy(p);
}

static void test_policy_tiny_traces(void **state)
{
    static const uint32_t t1[] = {1, 2, 3, 1, 4, 5, 1, 2};
    static const uint32_t t_arc[] = {1, 2, 1, 3, 2, 4};
    static const uint32_t t_s3[] = {1, 2,  3,  4, 5, 6, 7,  8,
                                    9, 10, 11, 1, 3, 3, 12, 1};
    static const uint32_t t_2q[] = {1, 2, 3, 4, 5, 1, 1, 6};
    (void)state;

    /* capacity 3, trace 1 2 3 1 4 5 1 2 */
    /* LRU: 4 evicts 2 (1 was refreshed), 5 evicts 3, 1 hits, 2 evicts 4 */
    run_tiny("lru", 3, t1, 8, "mmmHmmHm", "2 3 4");
    /* FIFO: 4 evicts 1, 5 evicts 2, 1 evicts 3, 2 evicts 4 */
    run_tiny("fifo", 3, t1, 8, "mmmHmmmm", "1 2 3 4");
    /* CLOCK: 1 referenced; 4: 1 gets a second chance, 2 leaves [4 1 3];
     * 5 evicts 3 [5 4 1]; 1 hits (bit); 2: 1 survives again, 4 leaves */
    run_tiny("clock", 3, t1, 8, "mmmHmmHm", "2 3 4");
    /* SIEVE: 4: the hand starts at the tail 1 (visited: cleared, kept in
     * place) → 2 leaves, the hand rests at 3; 5: 3 leaves, the hand moves
     * to the newer 4; 1 hits; 2: 4 is unvisited and leaves */
    run_tiny("sieve", 3, t1, 8, "mmmHmmHm", "2 3 4");
    /* ARC, c = 2: 1 2 1 leaves T2 = {1}, T1 = {2}; 3: |T1| = 1 > p = 0,
     * so 2 goes to B1 (victim 2); 2 is a B1 ghost hit: p = 1, |T1| = 1 is
     * not > p, so T2's LRU 1 goes to B2 (victim 1) and 2 enters T2;
     * 4: |T1| = 1 is still not > p, so T2's LRU 2 goes to B2 */
    run_tiny("arc", 2, t_arc, 6, "mmHmmm", "2 1 2");
    /* S3-FIFO, c = 10 (S 1, M 9, ghost 9): 1..10 fill S; 11: S's tail 1
     * is cold → ghost, victim 1; 1: ghost hit → M, victim 2 (cold);
     * 3 3: hits (freq 2); 12: 3 moves to M, 4 leaves; 1 hits in M */
    run_tiny("s3fifo", 10, t_s3, 16, "mmmmmmmmmmmmHHmH", "1 2 4");
    /* 2Q, c = 4 (Kin 1, Kout 2): 5 pushes 1 to A1out; 1 comes back into
     * Am pushing 2 out; 1 hits in Am; 6: A1in (3 4 5) > Kin → 3 leaves */
    run_tiny("2q", 4, t_2q, 8, "mmmmmmHm", "1 2 3");
}

/* ---- the engines' own policies on hand-made sequences ------------------- */

/* One reference at time t_ms, through access_scan when scan; 1 = hit. */
static int ref_at(struct sim_policy *p, uint32_t key, uint64_t t_ms, int scan)
{
    uint32_t v;
    int rc;

    p->now_ms = t_ms;
    rc = scan && p->ops->access_scan ? p->ops->access_scan(p, key, &v)
                                     : p->ops->access(p, key, &v);
    assert_true(rc >= 0);
    return rc;
}

/* Keys of [lo, hi) still cached. */
static unsigned cached_of(const struct sim_policy *p, uint32_t lo, uint32_t hi)
{
    unsigned n = 0;

    for (uint32_t k = lo; k < hi; k++)
        n += (unsigned)p->ops->contains(p, k);
    return n;
}

static void test_policy_postgresql(void **state)
{
    /* 4 buffers; 1 is used 7 times: its usage count stops at 5 */
    static const uint32_t t[] = {1, 2, 3, 4, 1, 1, 1, 1, 1, 1, 5, 6, 7, 8, 9};
    const struct sim_policy_ops *pg = sim_policy_find("pg-clock");
    struct sim_policy *p, *q;
    (void)state;

    /* 5: the hand lowers 1 (5 → 4), 2, 3, 4 (1 → 0), 1 again (4 → 3) and
     * takes 2; 6 and 7 take 3 and 4; 8: 1 falls to 2 and then 1 while
     * 5, 6, 7 fall to 0; 5 leaves, then 6. 1 survives every sweep, where
     * LRU drops it at 8 */
    run_tiny("pg-clock", 4, t, 15, "mmmmHHHHHHmmmmm", "2 3 4 5 6");
    run_tiny("lru", 4, t, 15, "mmmmHHHHHHmmmmm", "2 3 4 1 5");
    /* a scan reads through a ring of NBuffers / 8 = 2 buffers: the 14
     * other pages of a 16-buffer pool stay; without the ring (plain
     * references) the scan replaces them all */
    p = pg->create(16, 1);
    q = pg->create(16, 1);
    assert_non_null(p);
    assert_non_null(q);
    for (uint32_t k = 0; k < 16; k++) {
        ref_at(p, k, 0, 0);
        ref_at(p, k, 0, 0); /* usage 2 */
        ref_at(q, k, 0, 0);
        ref_at(q, k, 0, 0);
    }
    for (uint32_t k = 1000; k < 1100; k++) {
        assert_int_equal(ref_at(p, k, 0, 1), 0);
        assert_int_equal(ref_at(q, k, 0, 0), 0);
    }
    assert_int_equal(cached_of(p, 0, 16), 14);
    assert_int_equal(pg->count(p), 16);
    assert_int_equal(cached_of(q, 0, 16), 0);
    /* a page found by a scan only gets usage 1: it does not outlive
     * the hot pages */
    pg->destroy(p);
    pg->destroy(q);
}

static void test_policy_innodb(void **state)
{
    const struct sim_policy_ops *in = sim_policy_find("innodb-lru");
    const struct sim_policy_ops *lru = sim_policy_find("lru");
    struct sim_policy *p = in->create(1000, 1), *l = lru->create(1000, 1);
    (void)state;

    assert_non_null(p);
    assert_non_null(l);
    /* fill at t = 0, use 0..499 again 2 s later (older than
     * innodb_old_blocks_time: they are made young) */
    for (uint32_t k = 0; k < 1000; k++) {
        ref_at(p, k, 0, 0);
        ref_at(l, k, 0, 0);
    }
    for (uint32_t k = 0; k < 500; k++) {
        assert_int_equal(ref_at(p, k, 2000, 0), 1);
        ref_at(l, k, 2000, 0);
    }
    /* a scan of 5000 new pages, each read twice within 1000 ms: they stay
     * in the old sublist (37 %) and never evict a young block */
    for (uint32_t k = 10000; k < 15000; k++) {
        assert_int_equal(ref_at(p, k, 2000 + k / 100, 0), 0);
        assert_int_equal(ref_at(p, k, 2000 + k / 100 + 999, 0), 1);
        ref_at(l, k, 2000, 0);
        ref_at(l, k, 2000, 0);
    }
    assert_int_equal(cached_of(p, 0, 500), 500);
    assert_int_equal(cached_of(l, 0, 500), 0);
    assert_int_equal(in->count(p), 1000);
    /* the same second reference 1000 ms after the first makes a block
     * young: a page read twice a second apart outlives the next scan */
    assert_int_equal(ref_at(p, 20000, 100000, 0), 0);
    assert_int_equal(ref_at(p, 20000, 101000, 0), 1);
    assert_int_equal(ref_at(p, 20001, 100000, 0), 0);
    assert_int_equal(ref_at(p, 20001, 100999, 0), 1);
    for (uint32_t k = 30000; k < 31000; k++)
        ref_at(p, k, 101000, 0);
    assert_true(in->contains(p, 20000));
    assert_false(in->contains(p, 20001));
    in->destroy(p);
    lru->destroy(l);
}

/* InnoDB's page cleaner (free_target = innodb_lru_scan_depth): a block
 * taken that leaves fewer than target / 2 free frees tail blocks until
 * target are free (or the LRU is at its floor, min(pages / 20 - 1, 256));
 * the blocks it frees are the LRU's tail, the hot ones stay. */
static void test_policy_innodb_cleaner(void **state)
{
    const struct sim_policy_ops *in = sim_policy_find("innodb-lru");
    struct sim_policy *p = in->create(1000, 1), *q = in->create(758, 1);
    struct sim_policy_params pp = {16384, 1.0, 100, 0};
    struct sim_policy_params deep = {16384, 1.0, 1536, 0};
    uint64_t lo = UINT64_MAX, hi = 0;
    (void)state;

    assert_non_null(p);
    assert_non_null(q);
    in->tune(p, &pp);
    in->tune(q, &deep);
    for (uint32_t k = 0; k < 20000; k++) {
        /* key 7 is read every other request, a second apart and more:
           young, at the head */
        ref_at(p, k % 2 ? 7 : 100 + k, 2000 * (uint64_t)k, 0);
        if (k > 2000) {
            uint64_t n = in->count(p);
            lo = n < lo ? n : lo;
            hi = n > hi ? n : hi;
        }
    }
    /* never fewer than 50 free after a batch's refill, never more than
       100 free: the LRU holds 900..950 blocks */
    assert_int_equal(lo, 900);
    assert_int_equal(hi, 950);
    assert_true(in->contains(p, 7));
    /* 1536 on 758 blocks (a 12 MiB pool of 16K pages): every block taken
       leaves fewer than 768 free, wakes the cleaner, and it stops at the
       floor, 758 / 20 - 1 = 36 blocks */
    for (uint32_t k = 0; k < 5000; k++) {
        ref_at(q, 100 + k, 0, 0);
        if (k >= 36)
            assert_int_equal(in->count(q), 36);
    }
    in->destroy(p);
    in->destroy(q);
}

/* A buffer-fixed block (sim_policy_ops.pin, InnoDB's buf_LRU_free_page
 * skipping a fixed block): never the victim while fixed, the next block
 * towards the head goes instead; released, it is the tail again. */
static void test_policy_innodb_pin(void **state)
{
    const struct sim_policy_ops *in = sim_policy_find("innodb-lru");
    struct sim_policy *p = in->create(100, 1);
    uint32_t victim;
    (void)state;

    assert_non_null(p);
    assert_non_null(in->pin);
    for (uint32_t k = 0; k < 100; k++)
        ref_at(p, k, 0, 0);
    /* 0 is the tail (first in, never used again) */
    assert_int_equal(in->pin(p, 0, 1), 1);
    assert_int_equal(in->pin(p, 5000, 1), 0); /* not cached */
    for (uint32_t k = 1000; k < 1050; k++) {
        assert_int_equal(in->access(p, k, &victim), 0);
        assert_int_not_equal(victim, 0);
    }
    assert_true(in->contains(p, 0));
    assert_false(in->contains(p, 1));
    /* released: the next miss evicts it */
    assert_int_equal(in->pin(p, 0, -1), 1);
    assert_int_equal(in->access(p, 2000, &victim), 0);
    assert_int_equal(victim, 0);
    assert_false(in->contains(p, 0));
    in->destroy(p);
}

/* A release never takes a fix count below zero: a fix asked for a block
 * not in the pool does nothing, and the block read afterwards stays
 * evictable once its release comes (advise/mypredict.c fixes undo pages
 * as purge reads them; before, such a release wrapped the count and the
 * block stayed fixed for good). */
static void test_policy_innodb_pin_release(void **state)
{
    const struct sim_policy_ops *in = sim_policy_find("innodb-lru");
    struct sim_policy *p = in->create(10, 1);
    uint32_t victim;
    (void)state;

    assert_non_null(p);
    assert_int_equal(in->pin(p, 0, 1), 0); /* not cached: nothing */
    for (uint32_t k = 0; k < 10; k++)
        ref_at(p, k, 0, 0);
    assert_int_equal(in->pin(p, 0, -1), 0); /* was never fixed */
    assert_int_equal(in->access(p, 100, &victim), 0);
    assert_int_equal(victim, 0); /* the tail, evictable */
    in->destroy(p);
}

/* A dirty block is never freed (buf_LRU_free_page): a reader passes it
 * for the first clean one from the tail; once its page needs no write
 * (freed) it goes like any other. With a page cleaner, the LRU batch
 * writes a dirty tail block and passes on; it is freed only once the
 * write has ended (sim_policy_params.write_ms). */
static void test_policy_innodb_dirty(void **state)
{
    const struct sim_policy_ops *in = sim_policy_find("innodb-lru");
    struct sim_policy *p = in->create(10, 1), *q = in->create(100, 1);
    struct sim_policy_params pp = {16384, 1.0, 20, 5};
    uint32_t victim;
    (void)state;

    assert_non_null(p);
    assert_non_null(q);
    assert_non_null(in->dirty);
    for (uint32_t k = 0; k < 10; k++)
        ref_at(p, k, 0, 0);
    assert_int_equal(in->dirty(p, 0, 1), 1);
    assert_int_equal(in->dirty(p, 500, 1), 0); /* not cached */
    assert_int_equal(in->access(p, 100, &victim), 0);
    assert_int_equal(victim, 1); /* 0 is dirty: passed over */
    assert_true(in->contains(p, 0));
    assert_int_equal(in->dirty(p, 0, 0), 1); /* freed: no write needed */
    assert_int_equal(in->access(p, 101, &victim), 0);
    assert_int_equal(victim, 0);

    /* the cleaner: 100 blocks, 20 to keep free; the tail dirty */
    in->tune(q, &pp);
    for (uint32_t k = 0; k < 80; k++)
        ref_at(q, k, 0, 0);
    assert_int_equal(in->dirty(q, 0, 1), 1);
    for (uint32_t k = 80; k < 95; k++) /* under 10 free: a batch */
        ref_at(q, k, 0, 0);
    assert_true(in->contains(q, 0)); /* written, not freed */
    assert_false(in->contains(q, 1));
    for (uint32_t k = 95; k < 120; k++) /* more batches, the write on */
        ref_at(q, k, 1, 0);
    assert_true(in->contains(q, 0));
    for (uint32_t k = 120; k < 140; k++) /* after its end: freed */
        ref_at(q, k, 10, 0);
    assert_false(in->contains(q, 0));
    in->destroy(p);
    in->destroy(q);
}

static void test_policy_sqlite(void **state)
{
    const struct sim_policy_ops *sq = sim_policy_find("sqlite-lru");
    const struct sim_policy_ops *lru = sim_policy_find("lru");
    struct sim_policy *p = sq->create(50, 1), *l = lru->create(50, 1);
    (void)state;

    /* pcache1 recycles the LRU tail: victim for victim an LRU */
    rng_state = 99;
    for (int i = 0; i < 20000; i++) {
        uint32_t k = skewed_key(300), v1, v2;
        int a = sq->access(p, k, &v1), b = lru->access(l, k, &v2);
        assert_int_equal(a, b);
        assert_int_equal(v1, v2);
    }
    assert_true(sim_policy_is_lru(sq));
    assert_false(sim_policy_is_lru(sim_policy_find("pg-clock")));
    sq->destroy(p);
    lru->destroy(l);
}

/* ---- miniature simulation against exact runs ---------------------------- */

/* A Zipf(1.0) key over n keys by inverse CDF (cum[] of n + 1 entries). */
static uint32_t zipf_key(const double *cum, uint32_t n)
{
    double u = (double)(rnd() >> 11) / 9007199254740992.0 * cum[n];
    uint32_t lo = 0, hi = n;

    while (lo < hi) {
        uint32_t mid = (lo + hi) / 2;
        if (cum[mid + 1] <= u)
            lo = mid + 1;
        else
            hi = mid;
    }
    /* scatter the ranks over the ids (as the reference trace does) */
    return (uint32_t)(((uint64_t)lo * 7919u + 13u) % n);
}

static void test_mini_curves(void **state)
{
    enum { KEYS = 40000, REQS = 600000, SIZES = 6 };
    static const char *const pols[] = {"fifo",     "clock",      "s3fifo",
                                       "pg-clock", "innodb-lru", NULL};
    static const uint64_t sizes[SIZES] = {1000, 2000, 4000, 8000, 16000, 30000};
    const double rate = 0.1; /* 100 / R = 1000 */
    double *cum = malloc((KEYS + 1) * sizeof(*cum));
    uint32_t *key = malloc(REQS * sizeof(*key));
    double worst = 0, sum = 0;
    int n_err = 0;
    (void)state;

    assert_non_null(cum);
    assert_non_null(key);
    cum[0] = 0;
    for (uint32_t r = 0; r < KEYS; r++)
        cum[r + 1] = cum[r] + 1.0 / (r + 1.0);
    rng_state = 2029;
    for (uint32_t i = 0; i < REQS; i++)
        key[i] = zipf_key(cum, KEYS);
    for (int p = 0; pols[p]; p++) {
        const struct sim_policy_ops *ops = sim_policy_find(pols[p]);
        struct sim_policy *c[SIZES];
        uint64_t hits[SIZES] = {0};
        double mh[SIZES], exact1[SIZES];
        struct sim_mini *one = sim_mini_new(1.0, 1);
        struct pt_err err;
        for (int k = 0; k < SIZES; k++)
            c[k] = ops->create(sizes[k], 1);
        for (uint32_t i = 0; i < REQS; i++) {
            assert_int_equal(sim_mini_access(one, key[i], SIM_MINI_COUNTED, i),
                             0);
            for (int k = 0; k < SIZES; k++) {
                uint32_t v;
                c[k]->now_ms = i;
                hits[k] += ops->access(c[k], key[i], &v) == 1;
            }
        }
        /* at R = 1 every point is an exact run */
        assert_int_equal(
            sim_mini_curve(one, ops, 0, 1, sizes, SIZES, 2, exact1, &err), 0);
        for (int k = 0; k < SIZES; k++)
            assert_true(exact1[k] ==
                        1.0 - (double)(REQS - hits[k]) / (double)REQS);
        sim_mini_free(one);
        for (uint64_t seed = 1; seed <= 3; seed++) {
            struct sim_mini *m = sim_mini_new(rate, seed);
            double mh2[SIZES];
            for (uint32_t i = 0; i < REQS; i++)
                assert_int_equal(
                    sim_mini_access(m, key[i], SIM_MINI_COUNTED, i), 0);
            assert_int_equal(sim_mini_refs(m), REQS);
            assert_int_equal(
                sim_mini_curve(m, ops, 0, 1, sizes, SIZES, 1, mh, &err), 0);
            /* the threads do not change a digit */
            assert_int_equal(
                sim_mini_curve(m, ops, 0, 1, sizes, SIZES, 3, mh2, &err), 0);
            assert_memory_equal(mh, mh2, sizeof(mh));
            for (int k = 0; k < SIZES; k++) {
                double e = fabs(mh[k] - (double)hits[k] / REQS);
                sum += e;
                n_err++;
                worst = e > worst ? e : worst;
            }
            sim_mini_free(m);
        }
        for (int k = 0; k < SIZES; k++)
            ops->destroy(c[k]);
    }
    printf("miniature R=%.1f vs exact: mean error %.4f, max %.4f\n", rate,
           sum / n_err, worst);
    /* measured 0.0018 and 0.0224; 0.0030 and 0.0364 before sizes under
       400 / R ran on the nested sample at 2 R (FIFO and InnoDB at 100 / R,
       a miniature cache of 100 entries: docs/models.md#mini) */
    assert_true(sum / n_err <= 0.0025);
    assert_true(worst <= 0.03);
    free(cum);
    free(key);
}

/* ---- LRU through the driver vs a brute-force list ----------------------- */

struct brute {
    uint32_t keys[512];
    size_t n, cap;
};

static int brute_find(struct brute *b, uint32_t k)
{
    size_t i;
    for (i = 0; i < b->n; i++)
        if (b->keys[i] == k)
            return (int)i;
    return -1;
}

static void brute_front(struct brute *b, uint32_t k)
{
    int i = brute_find(b, k);

    if (i >= 0) {
        memmove(b->keys + 1, b->keys, (size_t)i * sizeof(uint32_t));
    } else {
        if (b->n == b->cap)
            b->n--;
        memmove(b->keys + 1, b->keys, b->n * sizeof(uint32_t));
        b->n++;
    }
    b->keys[0] = k;
}

static void test_lru_vs_brute_force(void **state)
{
    static const uint64_t caps[] = {1, 5, 37, 200};
    size_t c;
    (void)state;

    for (c = 0; c < 4; c++) {
        struct sim_config cfg;
        struct sim *s;
        struct sim_app_stats st;
        struct brute b;
        struct pt_err err;
        uint64_t hits = 0, misses = 0, gets = 0;
        int i;

        memset(&cfg, 0, sizeof(cfg));
        cfg.mode = SIM_MODE_DMAP;
        cfg.app_entries = caps[c];
        cfg.servers = 1;
        sim_costs_default(&cfg.costs);
        assert_int_equal(sim_new(&cfg, &s, &err), 0);
        memset(&b, 0, sizeof(b));
        b.cap = caps[c];
        rng_state = 99 + c;
        for (i = 0; i < 50000; i++) {
            struct sim_req q;
            uint64_t r = rnd() % 100;
            q.key_id = skewed_key(400);
            q.size_bytes = 100;
            q.time_ms = (uint64_t)i;
            q.op = r < 70 ? SIM_GET : r < 92 ? SIM_SET : SIM_DEL;
            assert_int_equal(sim_feed(s, &q, &err), 0);
            if (q.op == SIM_GET) {
                gets++;
                if (brute_find(&b, (uint32_t)q.key_id) >= 0)
                    hits++;
                else
                    misses++;
                brute_front(&b, (uint32_t)q.key_id);
            } else if (q.op == SIM_SET) {
                brute_front(&b, (uint32_t)q.key_id);
            } else {
                int k = brute_find(&b, (uint32_t)q.key_id);
                if (k >= 0) {
                    memmove(b.keys + k, b.keys + k + 1,
                            (b.n - (size_t)k - 1) * sizeof(uint32_t));
                    b.n--;
                }
            }
        }
        sim_app_stats(s, &st);
        assert_int_equal(st.gets, gets);
        assert_int_equal(st.hits, hits);
        assert_int_equal(st.misses, misses);
        assert_int_equal(st.db_reads, misses);
        assert_int_equal(st.db_writes, st.sets + st.dels);
        assert_true(hits > 0 && misses > 0);
        sim_free(s);
    }
}

/* ---- miss-ratio curves --------------------------------------------------- */

static void test_mrc_exact_equals_lru(void **state)
{
    enum { N = 140000, KEYS = 400 };
    uint32_t *keys = malloc(N * sizeof(*keys));
    uint8_t *counted = malloc(N);
    struct sim_mrc *m = sim_mrc_new(1.0, 1);
    const struct sim_policy_ops *lru = sim_policy_find("lru");
    uint64_t c, gets = 0;
    int i;
    (void)state;

    assert_non_null(keys);
    assert_non_null(counted);
    assert_non_null(m);
    rng_state = 4242;
    for (i = 0; i < N; i++) {
        keys[i] = skewed_key(KEYS);
        counted[i] = rnd() % 5 != 0; /* 80 % gets, 20 % sets */
        gets += counted[i];
        /* N > the initial time axis (65536): exercises compaction */
        assert_int_equal(sim_mrc_access(m, keys[i], counted[i]), 0);
    }
    assert_int_equal(sim_mrc_refs(m), gets);
    for (c = 1; c <= KEYS + 1; c++) {
        struct sim_policy *p = lru->create(c, 0);
        uint64_t hits = 0;
        double want, got;
        for (i = 0; i < N; i++) {
            uint32_t v;
            int rc = lru->access(p, keys[i], &v);
            if (counted[i])
                hits += (uint64_t)rc;
        }
        lru->destroy(p);
        want = (double)hits / (double)gets;
        got = sim_mrc_hit_ratio(m, c);
        if (fabs(want - got) > 1e-12)
            fail_msg("size %llu: curve %.9f, LRU %.9f", (unsigned long long)c,
                     got, want);
    }
    sim_mrc_free(m);
    free(keys);
    free(counted);
}

/*
 * Exact stack distances against a naive LRU stack (an array in recency
 * order), with removes, over more references than the initial time axis:
 * compaction, marks cleared in the open block and in closed ones. Every
 * size from 1 to the number of keys must agree to the hit.
 */
static void test_mrc_exact_naive(void **state)
{
    enum { N = 150000, KEYS = 400 };
    uint32_t stack[KEYS], depth = 0;
    uint64_t hist[KEYS + 1] = {0}, gets = 0, hits = 0;
    struct sim_mrc *m = sim_mrc_new(1.0, 1);
    int i;
    (void)state;

    assert_non_null(m);
    rng_state = 4242;
    for (i = 0; i < N; i++) {
        uint32_t key = skewed_key(KEYS), d = 0, j;
        int del = rnd() % 50 == 0, get = rnd() % 4 != 0;
        while (d < depth && stack[d] != key)
            d++;
        if (del) {
            sim_mrc_remove(m, key);
            if (d < depth) {
                memmove(stack + d, stack + d + 1, (depth - d - 1) * 4);
                depth--;
            }
            continue;
        }
        assert_int_equal(sim_mrc_access(m, key, get), 0);
        gets += (uint64_t)get;
        if (d < depth && get)
            hist[d + 1]++;
        j = d < depth ? d : depth++;
        memmove(stack + 1, stack, j * 4);
        stack[0] = key;
    }
    for (i = 1; i <= KEYS; i++) {
        hits += hist[i];
        if (sim_mrc_hit_ratio(m, (uint64_t)i) !=
            1.0 - (double)(gets - hits) / (double)gets)
            fail_msg("size %d: curve %.9f, naive %.9f", i,
                     sim_mrc_hit_ratio(m, (uint64_t)i),
                     (double)hits / (double)gets);
    }
    sim_mrc_free(m);
}

/* More live keys than half the initial time axis: the axis grows. */
static void test_mrc_exact_growth(void **state)
{
    enum { N = 300000, KEYS = 60000 };
    static const uint64_t sizes[] = {1,     10,    100,   1000,  5000,
                                     20000, 40000, 59999, 60000, 70000};
    uint32_t *keys = malloc(N * sizeof(*keys));
    struct sim_mrc *m = sim_mrc_new(1.0, 1);
    const struct sim_policy_ops *lru = sim_policy_find("lru");
    size_t c;
    int i;
    (void)state;

    assert_non_null(keys);
    assert_non_null(m);
    rng_state = 31337;
    for (i = 0; i < N; i++) {
        keys[i] = i < KEYS ? (uint32_t)i : skewed_key(KEYS);
        assert_int_equal(sim_mrc_access(m, keys[i], 1), 0);
    }
    for (c = 0; c < sizeof(sizes) / sizeof(sizes[0]); c++) {
        struct sim_policy *p = lru->create(sizes[c], 0);
        uint64_t hits = 0;
        for (i = 0; i < N; i++) {
            uint32_t v;
            hits += (uint64_t)lru->access(p, keys[i], &v);
        }
        lru->destroy(p);
        if (fabs((double)hits / N - sim_mrc_hit_ratio(m, sizes[c])) > 1e-12)
            fail_msg("size %llu: curve %.9f, LRU %.9f",
                     (unsigned long long)sizes[c],
                     sim_mrc_hit_ratio(m, sizes[c]), (double)hits / N);
    }
    assert_int_equal(sim_mrc_max_size(m), KEYS);
    sim_mrc_free(m);
    free(keys);
}

/*
 * SHARDS at R = 0.1 on a 1M-request Zipf(0.9) trace over 100k keys: the
 * mean absolute error over 40 log-spaced sizes must stay below 0.015 (the
 * paper reports < 0.01 at R <= 0.01 on traces 100x larger; CI keeps the
 * trace small, so the rate is higher and the bound looser).
 */
static void test_mrc_shards(void **state)
{
    enum { N = 1000000, KEYS = 100000 };
    struct sim_mrc *exact = sim_mrc_new(1.0, 3);
    struct sim_mrc *sh = sim_mrc_new(0.1, 3);
    double *cdf = malloc(KEYS * sizeof(*cdf)), sum = 0, mae = 0, maxe = 0;
    int i;
    (void)state;

    assert_non_null(exact);
    assert_non_null(sh);
    assert_non_null(cdf);
    assert_null(sim_mrc_new(0.0, 1));
    assert_null(sim_mrc_new(1.5, 1));
    for (i = 0; i < KEYS; i++) {
        sum += 1.0 / pow(i + 1, 0.9);
        cdf[i] = sum;
    }
    rng_state = 777;
    for (i = 0; i < N; i++) {
        double u = (double)(rnd() >> 11) / 9007199254740992.0 * sum;
        int lo = 0, hi = KEYS - 1;
        uint32_t key;
        while (lo < hi) {
            int mid = (lo + hi) / 2;
            if (cdf[mid] < u)
                lo = mid + 1;
            else
                hi = mid;
        }
        key = (uint32_t)(((uint64_t)lo * 611953u) % KEYS);
        assert_int_equal(sim_mrc_access(exact, key, 1), 0);
        assert_int_equal(sim_mrc_access(sh, key, 1), 0);
    }
    for (i = 0; i < 40; i++) {
        uint64_t size = (uint64_t)(100.0 * pow(1000.0, i / 39.0));
        double e =
            fabs(sim_mrc_hit_ratio(exact, size) - sim_mrc_hit_ratio(sh, size));
        mae += e / 40.0;
        if (e > maxe)
            maxe = e;
    }
    print_message("SHARDS R=0.1: MAE %.5f, max error %.5f\n", mae, maxe);
    assert_true(mae <= 0.015);
    assert_true(sim_mrc_max_size(sh) > KEYS / 2);
    sim_mrc_free(exact);
    sim_mrc_free(sh);
    free(cdf);
}

static void test_empty(void **state)
{
    struct sim_config cfg;
    struct sim *s;
    struct sim_app_stats st;
    struct pt_err err;
    struct sim_mrc *m = sim_mrc_new(1.0, 1);
    (void)state;

    assert_non_null(m);
    assert_true(sim_mrc_hit_ratio(m, 10) == 0.0);
    sim_mrc_free(m);
    memset(&cfg, 0, sizeof(cfg));
    cfg.mode = SIM_MODE_DMAP;
    cfg.app_entries = 10;
    cfg.servers = 1;
    cfg.mrc = 1;
    cfg.sample_rate = 1.0;
    assert_int_equal(sim_new(&cfg, &s, &err), 0);
    sim_app_stats(s, &st);
    assert_int_equal(st.gets, 0);
    assert_true(st.cost_ms == 0.0);
    assert_true(sim_mrc_hit_ratio(sim_curve(s, 0), 5) == 0.0);
    sim_free(s);

    cfg.servers = 0;
    assert_int_equal(sim_new(&cfg, &s, &err), PT_EUSAGE);
    cfg.servers = 1;
    cfg.app_entries = 0;
    assert_int_equal(sim_new(&cfg, &s, &err), PT_EUSAGE);
}

/* ---- the articles' orderings on generated workloads
 * ---------------------------- */

static char tmp_trace[64];

/* Generate `n` records of a shipped workload profile into tmp_trace. */
static void gen_trace(const char *profile, uint64_t n)
{
    json_t *prof = NULL;
    struct sim_workload w;
    struct sim_wgen *g;
    struct pt_err err;
    FILE *fp;
    uint64_t i;
    int fd;

    snprintf(tmp_trace, sizeof(tmp_trace), "/tmp/pt-sim-wl-XXXXXX");
    fd = mkstemp(tmp_trace);
    assert_true(fd >= 0);
    fp = fdopen(fd, "w");
    assert_non_null(fp);
    if (prof_load_named("workloads", profile, &prof, &err) < 0)
        fail_msg("%s", err.msg);
    assert_int_equal(sim_workload_from_json(&w, prof, profile, &err), 0);
    assert_int_equal(sim_wgen_new(&w, w.seed, &g, &err), 0);
    assert_int_equal(sim_trace_write_header(fp, SIM_TRACE_CSV, &err), 0);
    for (i = 0; i < n; i++) {
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

/* Replay tmp_trace through n configs at once. */
static void replay(struct sim_config *cfgs, struct sim_app_stats *out,
                   struct sim **keep, int n)
{
    struct sim_trace_reader *r;
    struct sim *s[8];
    struct sim_req q;
    struct pt_err err;
    int i, rc;

    for (i = 0; i < n; i++)
        if (sim_new(&cfgs[i], &s[i], &err) < 0)
            fail_msg("%s", err.msg);
    assert_int_equal(sim_trace_open(tmp_trace, SIM_TRACE_AUTO, &r, &err), 0);
    while ((rc = sim_trace_next(r, &q, &err)) == 1)
        for (i = 0; i < n; i++)
            assert_int_equal(sim_feed(s[i], &q, &err), 0);
    assert_int_equal(rc, 0);
    sim_trace_close(r);
    for (i = 0; i < n; i++) {
        sim_app_stats(s[i], &out[i]);
        if (keep)
            keep[i] = s[i];
        else
            sim_free(s[i]);
    }
}

static void base_config(struct sim_config *c, enum sim_cache_mode mode,
                        uint64_t entries)
{
    memset(c, 0, sizeof(*c));
    c->mode = mode;
    c->app_entries = entries;
    c->servers = 1;
    c->seed = 1;
    sim_costs_default(&c->costs);
}

/* sim_run over tmp_trace against replay (sim_feed one by one): same counts */
static void run_vs_feed(struct sim_config *c, int n_cfg, int64_t n_req)
{
    struct sim_app_stats by_feed[8], by_run;
    struct sim *s[8];
    struct sim_trace_reader *r;
    struct pt_err err;
    int i;

    replay(c, by_feed, NULL, n_cfg);
    for (i = 0; i < n_cfg; i++)
        if (sim_new(&c[i], &s[i], &err) < 0)
            fail_msg("%s", err.msg);
    assert_int_equal(sim_trace_open(tmp_trace, SIM_TRACE_AUTO, &r, &err), 0);
    assert_int_equal(sim_run(r, s, (size_t)n_cfg, NULL, NULL, &err), n_req);
    sim_trace_close(r);
    for (i = 0; i < n_cfg; i++) {
        sim_app_stats(s[i], &by_run);
        assert_int_equal(by_run.requests, by_feed[i].requests);
        assert_int_equal(by_run.gets, by_feed[i].gets);
        assert_int_equal(by_run.hits, by_feed[i].hits);
        assert_int_equal(by_run.misses, by_feed[i].misses);
        assert_int_equal(by_run.offload_hits, by_feed[i].offload_hits);
        assert_int_equal(by_run.db_reads, by_feed[i].db_reads);
        assert_int_equal(by_run.db_writes, by_feed[i].db_writes);
        assert_int_equal(by_run.object_bytes, by_feed[i].object_bytes);
        assert_true(by_run.hits > 0 && by_run.misses > 0);
        sim_free(s[i]);
    }
    unlink(tmp_trace);
}

/*
 * sim_run (requests read in batches; a plain simulator's runs of gets fed
 * through the policy's access_many) counts what sim_feed one request at a
 * time does: LRU and sqlite-lru in both caching modes, a curve, two
 * servers, an offload tier and FIFO, on a trace of gets, sets and dels and
 * on a binary trace of gets only (where the plain ones take whole batches).
 */
static void test_run_batches_equal_feed(void **state)
{
    enum { N_CFG = 7, N_BIN = 70001 };
    struct sim_config c[N_CFG];
    struct pt_err err;
    FILE *fp;
    int i, fd;
    (void)state;

    for (i = 0; i < N_CFG; i++)
        base_config(&c[i], i % 2 ? SIM_MODE_COMMAND : SIM_MODE_DMAP,
                    (uint64_t)3000 + 1000 * (uint64_t)i);
    c[2].app_policy = sim_policy_find("sqlite-lru");
    c[3].mrc = 1;
    c[3].sample_rate = 1.0;
    c[4].servers = 2;
    c[5].offload_entries = 500;
    c[6].app_policy = sim_policy_find("fifo");
    gen_trace("trade-14pct", 120000);
    run_vs_feed(c, N_CFG, 120000);

    snprintf(tmp_trace, sizeof(tmp_trace), "/tmp/pt-sim-bin-XXXXXX");
    fd = mkstemp(tmp_trace);
    assert_true(fd >= 0);
    fp = fdopen(fd, "wb");
    assert_non_null(fp);
    rng_state = 77;
    for (i = 0; i < N_BIN; i++)
        assert_int_equal(sim_trace_write_oracle(fp, (uint32_t)i / 100,
                                                skewed_key(40000) * 31u + 9,
                                                (uint32_t)i % 300, -1, &err),
                         0);
    assert_int_equal(fclose(fp), 0);
    run_vs_feed(c, N_CFG, N_BIN);
}

/* article 001: command or distributed-map caching cuts DB reads >= 2x. */
static void test_seed_caching_modes(void **state)
{
    struct sim_config c[3];
    struct sim_app_stats st[3];
    (void)state;

    gen_trace("trade-14pct", 200000);
    base_config(&c[0], SIM_MODE_NONE, 0);
    base_config(&c[1], SIM_MODE_COMMAND, 20000);
    base_config(&c[2], SIM_MODE_DMAP, 20000);
    replay(c, st, NULL, 3);
    unlink(tmp_trace);
    print_message("db reads: none %llu, command %llu, distributed-map %llu\n",
                  (unsigned long long)st[0].db_reads,
                  (unsigned long long)st[1].db_reads,
                  (unsigned long long)st[2].db_reads);
    assert_int_equal(st[0].db_reads, st[0].gets);
    assert_true(st[0].db_reads >= 2 * st[1].db_reads);
    assert_true(st[0].db_reads >= 2 * st[2].db_reads);
    /* a command cache invalidates on update, the map keeps the new value */
    assert_true(st[2].db_reads < st[1].db_reads);
    assert_int_equal(st[0].db_writes, st[1].db_writes);
}

/* A progress hook that raises the stop signal at its first report (as a
 * SIGINT during the run would) and counts its calls. */
static void raise_stop(void *ctx, uint64_t done, uint64_t total)
{
    unsigned *calls = ctx;

    (void)done;
    (void)total;
    if ((*calls)++ == 0)
        assert_int_equal(pt_interrupt_note(SIGINT), 0);
}

/*
 * The one stop signal (docs/architecture.md#stop): the long library loops
 * poll pt_interrupted() themselves and return PT_EINTR; progress hooks
 * only report. sim_run stops at the poll right after the report that saw
 * the signal (2^16 requests fed, not the reader's next refill), the
 * workload writer and the evidence reader at theirs.
 */
static void test_loops_stop_on_signal(void **state)
{
    struct sim_config cfg;
    struct sim *s = NULL;
    struct sim_trace_reader *r = NULL;
    struct sim_app_stats st;
    struct sim_workload w;
    struct rec_trace_evidence tev;
    json_t *prof = NULL;
    struct pt_err err;
    unsigned calls = 0;
    FILE *fp;
    (void)state;

    gen_trace("trade-14pct", 150000);
    base_config(&cfg, SIM_MODE_DMAP, 20000);
    assert_int_equal(sim_new(&cfg, &s, &err), 0);
    assert_int_equal(sim_trace_open(tmp_trace, SIM_TRACE_AUTO, &r, &err), 0);
    assert_int_equal(sim_run(r, &s, 1, raise_stop, &calls, &err), PT_EINTR);
    pt_interrupt_reset();
    assert_int_equal(calls, 1);
    sim_app_stats(s, &st);
    assert_int_equal(st.requests, 65536);
    sim_trace_close(r);
    sim_free(s);

    /* the evidence reader: the same poll after its report */
    calls = 0;
    assert_int_equal(
        sim_trace_evidence(tmp_trace, &tev, raise_stop, &calls, &err),
        PT_EINTR);
    pt_interrupt_reset();
    assert_int_equal(calls, 1);
    assert_int_equal(tev.requests, 65536);
    rec_trace_evidence_release(&tev);
    unlink(tmp_trace);

    /* the workload writer reports before its first request */
    if (prof_load_named("workloads", "trade-14pct", &prof, &err) < 0)
        fail_msg("%s", err.msg);
    assert_int_equal(sim_workload_from_json(&w, prof, "trade-14pct", &err), 0);
    fp = fopen("/dev/null", "w");
    assert_non_null(fp);
    calls = 0;
    assert_int_equal(
        sim_wgen_write_csv(&w, 1000000, 1, fp, raise_stop, &calls, &err),
        PT_EINTR);
    pt_interrupt_reset();
    assert_int_equal(calls, 1);
    /* and with no signal the same call runs to the end */
    assert_int_equal(sim_wgen_write_csv(&w, 1000, 1, fp, NULL, NULL, &err), 0);
    fclose(fp);
    sim_workload_release(&w);
    json_decref(prof);
}

/* article 002: not-shared < shared-push < shared-pull, shared-push-pull. */
static void test_seed_sharing_order(void **state)
{
    struct sim_config c[4];
    struct sim_app_stats st[4];
    int i;
    (void)state;

    gen_trace("trade-14pct", 200000);
    for (i = 0; i < 4; i++) {
        base_config(&c[i], SIM_MODE_DMAP, 20000);
        c[i].servers = 4;
        c[i].sharing = (enum sim_sharing)i;
    }
    replay(c, st, NULL, 4);
    unlink(tmp_trace);
    print_message("cost ms: not-shared %.0f, push %.0f, pull %.0f, "
                  "push-pull %.0f\n",
                  st[0].cost_ms, st[1].cost_ms, st[2].cost_ms, st[3].cost_ms);
    assert_int_equal(st[0].replication_messages, 0);
    assert_true(st[1].replication_messages > 0);
    assert_true(st[2].peer_fetches > 0 && st[3].peer_fetches > 0);
    assert_true(st[0].cost_ms < st[1].cost_ms);
    assert_true(st[1].cost_ms < st[2].cost_ms);
    assert_true(st[1].cost_ms < st[3].cost_ms);
    /* push spares database reads that not-shared pays for */
    assert_true(st[1].db_reads < st[0].db_reads);
}

/*
 * article 004: with random eviction, disk offload cuts DB reads a lot at
 * 100 memory entries and changes little at 20,000 (the working set fits).
 */
static void test_seed_offload(void **state)
{
    static const char *const profiles[] = {"trade-14pct", "trade-0pct"};
    struct sim_config c[4];
    struct sim_app_stats st[4];
    int i, k;
    (void)state;

    for (k = 0; k < 2; k++) {
        gen_trace(profiles[k], 200000);
        for (i = 0; i < 4; i++) {
            base_config(&c[i], SIM_MODE_DMAP, i < 2 ? 100 : 20000);
            c[i].app_policy = sim_policy_find("random");
            c[i].offload_entries = i % 2 ? 100000 : 0;
        }
        replay(c, st, NULL, 4);
        unlink(tmp_trace);
        print_message("%s db reads: 100 %llu -> %llu with offload; 20000 "
                      "%llu -> %llu\n",
                      profiles[k], (unsigned long long)st[0].db_reads,
                      (unsigned long long)st[1].db_reads,
                      (unsigned long long)st[2].db_reads,
                      (unsigned long long)st[3].db_reads);
        assert_true(st[1].offload_hits > 0);
        assert_true(st[1].db_reads * 4 < st[0].db_reads); /* substantial */
        /* little: within 5 % */
        assert_true((double)st[3].db_reads >= 0.95 * (double)st[2].db_reads);
        assert_true(st[3].db_reads <= st[2].db_reads);
    }
}

/*
 * The founding article with DB2 rules: direct reads > 0 below and = 0 at
 * or above 8K (4000-byte objects), 16K (10000), 32K (30000).
 */
static void test_article_db2_direct_reads(void **state)
{
    static const struct {
        const char *profile;
        uint32_t step;
    } cases[] = {
        {"article-4k", 8192}, {"article-10k", 16384}, {"article-30k", 32768}};
    static const uint32_t pages[] = {4096, 8192, 16384, 32768};
    struct rec_engine e;
    struct rec_device d;
    json_t *prof;
    struct pt_err err;
    size_t k, t;
    (void)state;

    assert_int_equal(prof_load_named("engines", "db2", &prof, &err), 0);
    assert_int_equal(rec_engine_from_json(&e, prof, "db2", &err), 0);
    json_decref(prof);
    assert_int_equal(prof_load_named("devices", "ssd", &prof, &err), 0);
    assert_int_equal(rec_device_from_json(&d, prof, "ssd", &err), 0);
    json_decref(prof);
    for (k = 0; k < 3; k++) {
        struct sim_config c;
        struct sim_app_stats st;
        struct sim *s;
        gen_trace(cases[k].profile, 20000);
        base_config(&c, SIM_MODE_NONE, 0);
        c.engine = &e;
        c.device = &d;
        c.n_tiers = 4;
        for (t = 0; t < 4; t++) {
            c.tiers[t].page_size_bytes = pages[t];
            c.tiers[t].n_pools = 1;
            c.tiers[t].pool_pages[0] = (4u << 20) / pages[t];
        }
        replay(&c, &st, &s, 1);
        unlink(tmp_trace);
        for (t = 0; t < 4; t++) {
            struct sim_db_stats db;
            sim_db_stats(s, t, 0, &db);
            if (pages[t] < cases[k].step) {
                assert_true(db.direct_reads > 0);
                assert_true(db.direct_writes > 0);
                assert_int_equal(db.inline_accesses, 0);
            } else {
                assert_int_equal(db.direct_reads, 0);
                assert_int_equal(db.direct_writes, 0);
                assert_int_equal(db.outline_accesses, 0);
            }
            assert_true(db.logical_reads > 0);
            assert_true(db.io_ms > 0);
        }
        sim_free(s);
    }
}

/*
 * Engines that buffer out-of-line data (PostgreSQL TOAST): no direct I/O;
 * an out-of-line object costs its row's page, the TOAST index descent
 * (outline_extra_reads) and at least one chunk page, all logical reads.
 */
static void test_buffered_outline(void **state)
{
    struct rec_engine e;
    struct sim_config c;
    struct sim_app_stats st;
    struct sim_db_stats db;
    struct sim *s;
    json_t *prof;
    struct pt_err err;
    (void)state;

    assert_int_equal(prof_load_named("engines", "postgresql", &prof, &err), 0);
    assert_int_equal(rec_engine_from_json(&e, prof, "postgresql", &err), 0);
    json_decref(prof);
    assert_true(e.outline_buffered);
    gen_trace("mixed-sessions", 20000);
    base_config(&c, SIM_MODE_NONE, 0);
    c.engine = &e;
    c.n_tiers = 1;
    c.tiers[0].page_size_bytes = 8192;
    c.tiers[0].n_pools = 2;
    c.tiers[0].pool_pages[0] = 64;
    c.tiers[0].pool_pages[1] = 100000;
    replay(&c, &st, &s, 1);
    unlink(tmp_trace);
    sim_db_stats(s, 0, 0, &db);
    assert_int_equal(db.direct_reads + db.direct_writes, 0);
    assert_true(db.outline_accesses > 0 && db.inline_accesses > 0);
    assert_true(db.logical_reads >=
                db.inline_accesses + (2 + (uint64_t)e.outline_extra_reads) *
                                         db.outline_accesses);
    assert_true(db.physical_reads > 0);
    /* a pool bigger than the data misses only once per page */
    sim_db_stats(s, 0, 1, &db);
    assert_int_equal(db.physical_reads, db.pages_used);
    assert_true(db.io_ms == 0.0); /* no device given */
    sim_free(s);
}

/* Same seed, same trace; another seed, another trace. */
static void test_workload_deterministic(void **state)
{
    static const char *const names[] = {"article-4k", "trade-14pct",
                                        "mixed-sessions"};
    size_t k;
    (void)state;

    for (k = 0; k < 3; k++) {
        json_t *prof;
        struct sim_workload w;
        struct sim_wgen *a, *b, *c;
        struct pt_err err;
        uint64_t i, same_c = 0, dels = 0, sets = 0, gets = 0;

        assert_int_equal(prof_load_named("workloads", names[k], &prof, &err),
                         0);
        assert_int_equal(sim_workload_from_json(&w, prof, names[k], &err), 0);
        assert_int_equal(sim_wgen_new(&w, 5, &a, &err), 0);
        assert_int_equal(sim_wgen_new(&w, 5, &b, &err), 0);
        assert_int_equal(sim_wgen_new(&w, 6, &c, &err), 0);
        for (i = 0; i < 50000; i++) {
            struct sim_wrec ra, rb, rc;
            char ka[64];
            assert_int_equal(sim_wgen_next(a, &ra), 1);
            memcpy(ka, ra.key, ra.key_len);
            assert_int_equal(sim_wgen_next(b, &rb), 1);
            assert_int_equal(sim_wgen_next(c, &rc), 1);
            assert_int_equal(ra.time_ms, rb.time_ms);
            assert_int_equal(ra.op, rb.op);
            assert_int_equal(ra.size_bytes, rb.size_bytes);
            assert_int_equal(ra.key_len, rb.key_len);
            assert_memory_equal(ka, rb.key, rb.key_len);
            same_c += rc.key_len == rb.key_len &&
                      memcmp(rc.key, rb.key, rb.key_len) == 0;
            dels += ra.op == SIM_DEL;
            sets += ra.op == SIM_SET;
            gets += ra.op == SIM_GET;
        }
        assert_true(same_c < 50000 / 2);
        assert_true(gets > 0 && sets > 0);
        if (w.sessions) /* sessions expire (or log out): invalidations */
            assert_true(dels > 0 || w.timeout_s > 300);
        sim_wgen_free(a);
        sim_wgen_free(b);
        sim_wgen_free(c);
        sim_workload_release(&w);
        json_decref(prof);
    }
}

static void test_workload_bad_profiles(void **state)
{
    static const char *const bad[] = {
        "size: {dist: fixed}",
        "size: {dist: weird, bytes: 1}",
        "size: {dist: fixed, bytes: 10}\nmix: {get: 0.5, set: 0.2}",
        "size: {dist: fixed, bytes: 10}\npopularity: {dist: pareto}",
        "size: {dist: lognormal, median: -1, sigma: 1}",
        "size: {dist: empirical}",
        "size: {dist: fixed, bytes: 10}\nkeys: 0",
        "size: {dist: fixed, bytes: 10}\nsessions: {requests_per_session: 5}",
        "[1, 2]",
    };
    size_t i;
    (void)state;

    for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        json_t *prof;
        struct sim_workload w;
        struct pt_err err;
        if (prof_loadb(bad[i], strlen(bad[i]), "bad.yaml", &prof, &err) < 0)
            continue; /* refused by the YAML loader already */
        if (sim_workload_from_json(&w, prof, "bad.yaml", &err) != PT_EDATA)
            fail_msg("profile '%s' was accepted", bad[i]);
        assert_non_null(strstr(err.msg, "bad.yaml"));
        sim_workload_release(&w);
        json_decref(prof);
    }
}

/*
 * size.counts weights size.values (a sizes histogram in advise's
 * validation trace): draws follow the counts, a zero count is never drawn,
 * and a counts list of the wrong length or with no objects is PT_EDATA.
 */
static void test_workload_weighted_sizes(void **state)
{
    const char *good = "{\"requests\":20000,\"keys\":5000,"
                       "\"size\":{\"dist\":\"empirical\","
                       "\"values\":[100,200,300],\"counts\":[1,0,3]},"
                       "\"mix\":{\"get\":0,\"set\":1,\"del\":0}}";
    uint64_t seen[3] = {0, 0, 0};
    struct sim_workload w;
    struct sim_wgen *g;
    struct pt_err err;
    json_t *prof = json_loads(good, 0, NULL);
    (void)state;

    assert_non_null(prof);
    if (sim_workload_from_json(&w, prof, "w.json", &err) < 0)
        fail_msg("%s", err.msg);
    assert_int_equal(sim_wgen_new(&w, 3, &g, &err), 0);
    for (int i = 0; i < 20000; i++) {
        struct sim_wrec r;
        assert_int_equal(sim_wgen_next(g, &r), 1);
        assert_true(r.size_bytes == 100 || r.size_bytes == 300);
        seen[r.size_bytes / 100 - 1]++;
    }
    /* 1:3 by count (keys keep their size: compare with slack) */
    assert_true(seen[2] > 2 * seen[0]);
    assert_int_equal(seen[1], 0);
    sim_wgen_free(g);
    sim_workload_release(&w);
    json_decref(prof);

    prof = json_loads("{\"requests\":10,\"keys\":5,\"size\":{\"dist\":"
                      "\"empirical\",\"values\":[1,2],\"counts\":[1]},"
                      "\"mix\":{\"get\":0,\"set\":1,\"del\":0}}",
                      0, NULL);
    assert_int_equal(sim_workload_from_json(&w, prof, "w.json", &err),
                     PT_EDATA);
    assert_non_null(strstr(err.msg, "size.counts"));
    sim_workload_release(&w);
    json_decref(prof);
    prof = json_loads("{\"requests\":10,\"keys\":5,\"size\":{\"dist\":"
                      "\"empirical\",\"values\":[1,2],\"counts\":[0,0]},"
                      "\"mix\":{\"get\":0,\"set\":1,\"del\":0}}",
                      0, NULL);
    assert_int_equal(sim_workload_from_json(&w, prof, "w.json", &err),
                     PT_EDATA);
    sim_workload_release(&w);
    json_decref(prof);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_policy_conformance),
        cmocka_unit_test(test_policy_access_many),
        cmocka_unit_test(test_policy_tiny_traces),
        cmocka_unit_test(test_policy_postgresql),
        cmocka_unit_test(test_policy_innodb),
        cmocka_unit_test(test_policy_innodb_cleaner),
        cmocka_unit_test(test_policy_innodb_pin),
        cmocka_unit_test(test_policy_innodb_pin_release),
        cmocka_unit_test(test_policy_innodb_dirty),
        cmocka_unit_test(test_policy_sqlite),
        cmocka_unit_test(test_mini_curves),
        cmocka_unit_test(test_lru_vs_brute_force),
        cmocka_unit_test(test_mrc_exact_equals_lru),
        cmocka_unit_test(test_mrc_exact_growth),
        cmocka_unit_test(test_mrc_exact_naive),
        cmocka_unit_test(test_mrc_shards),
        cmocka_unit_test(test_empty),
        cmocka_unit_test(test_run_batches_equal_feed),
        cmocka_unit_test(test_seed_caching_modes),
        cmocka_unit_test(test_seed_sharing_order),
        cmocka_unit_test(test_seed_offload),
        cmocka_unit_test(test_article_db2_direct_reads),
        cmocka_unit_test(test_buffered_outline),
        cmocka_unit_test(test_workload_deterministic),
        cmocka_unit_test(test_loops_stop_on_signal),
        cmocka_unit_test(test_workload_bad_profiles),
        cmocka_unit_test(test_workload_weighted_sizes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
