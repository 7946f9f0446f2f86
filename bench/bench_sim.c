/* SPDX-License-Identifier: Apache-2.0 */
/*
 * bench_sim.c — simulator benchmarks on a trace (the reference trace of
 * bench/reference-baseline.md, or any other). Prints figures and
 * ratios measured in one run; asserts nothing (machines are shared).
 *
 *   bench_sim speed   BIN [CSV]  LRU at 100,000 entries: requests/s from
 *                                the binary trace; CSV lines/s and the
 *                                ratio to `wc -l`; bytes per distinct key
 *                                (max RSS minus the reader's buffer); the
 *                                exact one-pass curve vs one LRU run
 *   bench_sim policies BIN       miss ratios of every policy at 10,000 /
 *                                100,000 / 400,000 entries
 *   bench_sim shards  BIN [R]    SHARDS at rate R (default 0.01) against
 *                                the exact curve: mean and max error
 *   bench_sim mini TRACE...      miniature curves of every policy at R =
 *                                0.01 against 20 exact runs: errors over
 *                                5 seeds, speed-up
 *   bench_sim time LOG CMD...    runs CMD (its stdout and stderr to LOG)
 *                                and prints its whole-process wall seconds
 *                                and max RSS in KiB: "WALL RSS"; the exit
 *                                status is CMD's (bench/sim.sh's paired
 *                                runs against libCacheSim)
 *
 * Each measurement that reports memory runs in a child process so the
 * numbers do not mix. Neighbours: bench/sim.sh drives it.
 */
#define _GNU_SOURCE /* sched_setaffinity, sched_getcpu: pinning the bench */
#include <fcntl.h>
#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "sim/sim.h"

static double now_s(void)
{
    return (double)pt_now_ns() / 1e9;
}

/* CPU seconds of this process: on a shared, loaded machine this is the
 * fairer clock (wall time includes waiting for a core). */
static double cpu_s(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static double last_cpu; /* CPU seconds of the last timed run */

/* Timed runs of `speed`: the median is the figure, best and worst show the
 * spread a shared machine adds. */
#define SPEED_REPS 5

static long rss_kb(void)
{
    FILE *fp = fopen("/proc/self/statm", "r");
    long pages = 0, rss = 0;

    if (fp) {
        if (fscanf(fp, "%ld %ld", &pages, &rss) != 2)
            rss = 0;
        fclose(fp);
    }
    return rss * (sysconf(_SC_PAGESIZE) / 1024);
}

static struct sim_trace_reader *open_or_die(const char *path)
{
    struct sim_trace_reader *r;
    struct pt_err err;

    if (sim_trace_open(path, SIM_TRACE_AUTO, &r, &err) < 0) {
        fprintf(stderr, "bench_sim: %s\n", err.msg);
        exit(66);
    }
    return r;
}

/* One LRU run at `entries`; returns seconds, fills requests/keys/ratio. */
static double lru_run(const char *path, uint64_t entries, uint64_t *n_req,
                      uint64_t *n_keys, double *miss_ratio, size_t *buf)
{
    struct sim_trace_reader *r = open_or_die(path);
    struct sim_config cfg;
    struct sim *s;
    struct sim_app_stats st;
    struct pt_err err;
    double t0;
    int rc;

    memset(&cfg, 0, sizeof(cfg));
    cfg.mode = SIM_MODE_DMAP;
    cfg.app_entries = entries;
    cfg.servers = 1;
    sim_costs_default(&cfg.costs);
    if (sim_new(&cfg, &s, &err) < 0) {
        fprintf(stderr, "bench_sim: %s\n", err.msg);
        exit(70);
    }
    last_cpu = cpu_s();
    t0 = now_s();
    rc = (int)(sim_run(r, &s, 1, NULL, NULL, &err) < 0 ? -1 : 0);
    t0 = now_s() - t0;
    last_cpu = cpu_s() - last_cpu;
    if (rc < 0) {
        fprintf(stderr, "bench_sim: %s\n", err.msg);
        exit(65);
    }
    sim_app_stats(s, &st);
    *n_req = st.requests;
    *n_keys = sim_trace_n_keys(r);
    *miss_ratio = st.gets ? (double)st.misses / (double)st.gets : 0;
    *buf = sim_trace_buffer_bytes(r);
    sim_free(s);
    sim_trace_close(r);
    return t0;
}

static double parse_run(const char *path, uint64_t *n)
{
    struct sim_trace_reader *r = open_or_die(path);
    struct sim_req q;
    struct pt_err err;
    double t0 = now_s();

    last_cpu = cpu_s();
    *n = 0;
    while (sim_trace_next(r, &q, &err) == 1)
        (*n)++;
    t0 = now_s() - t0;
    last_cpu = cpu_s() - last_cpu;
    sim_trace_close(r);
    return t0;
}

static uint64_t mrc_seed = 1;

static double mrc_run(const char *path, double rate, struct sim_mrc **out)
{
    struct sim_trace_reader *r = open_or_die(path);
    struct sim_mrc *m = sim_mrc_new(rate, mrc_seed);
    struct sim_req q[8];
    struct pt_err err;
    double t0 = now_s();
    uint64_t head = 0, tail = 0;

    last_cpu = cpu_s();
    /* the same read-ahead as sim_run(): prefetch 8 requests ahead */
    for (;;) {
        while (head - tail < 8 && sim_trace_next(r, &q[head % 8], &err) == 1)
            sim_mrc_prefetch(m, (uint32_t)q[head++ % 8].key_id, 0);
        if (head == tail)
            break;
        sim_mrc_access(m, (uint32_t)q[tail % 8].key_id,
                       q[tail % 8].op == SIM_GET);
        tail++;
    }
    t0 = now_s() - t0;
    last_cpu = cpu_s() - last_cpu;
    sim_trace_close(r);
    *out = m;
    return t0;
}

/* Median of n values (sorts a copy; n <= SPEED_REPS). */
static double median(const double *v, int n)
{
    double c[SPEED_REPS], t;
    int i, j;

    for (i = 0; i < n; i++)
        c[i] = v[i];
    for (i = 1; i < n; i++)
        for (j = i; j > 0 && c[j - 1] > c[j]; j--)
            t = c[j], c[j] = c[j - 1], c[j - 1] = t;
    return n % 2 ? c[n / 2] : (c[n / 2 - 1] + c[n / 2]) / 2;
}

static double min_of(const double *v, int n)
{
    double m = v[0];

    while (--n > 0)
        m = v[n] < m ? v[n] : m;
    return m;
}

static double max_of(const double *v, int n)
{
    double m = v[0];

    while (--n > 0)
        m = v[n] > m ? v[n] : m;
    return m;
}

/* splitmix64's finaliser, the hash the simulator's reader uses */
static inline uint64_t mix64(uint64_t x)
{
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

/*
 * The memory-latency yardstick (issue 29 item 4): one random 64-byte read
 * and write per request in a 2^21 x 64-byte table (128 MiB) at the hash of
 * the object id, no prefetch, over the binary trace read through large
 * reads into memory first (as the peer's figure was measured). Returns
 * CPU seconds of the loop; *n = requests.
 */
static double one_touch_run(const char *path, uint64_t *n)
{
    enum { SLOTS = 1u << 21 };
    struct {
        uint64_t w[8];
    } *tab = calloc(SLOTS, 64);
    FILE *fp = fopen(path, "rb");
    unsigned char *buf;
    long size;
    uint64_t sum = 0;
    double t0;

    if (!tab || !fp || fseek(fp, 0, SEEK_END) || (size = ftell(fp)) <= 0) {
        fprintf(stderr, "bench_sim: cannot read '%s'\n", path);
        exit(66);
    }
    rewind(fp);
    buf = malloc((size_t)size);
    if (!buf || fread(buf, 1, (size_t)size, fp) != (size_t)size) {
        fprintf(stderr, "bench_sim: cannot read '%s'\n", path);
        exit(66);
    }
    fclose(fp);
    for (uint64_t i = 0; i < SLOTS; i++) /* fault the table in first */
        tab[i].w[0] = i;
    *n = (uint64_t)size / 24;
    t0 = cpu_s();
    for (uint64_t i = 0; i < *n; i++) {
        uint64_t id;
        memcpy(&id, buf + i * 24 + 4, 8);
        uint64_t h = mix64(id) & (SLOTS - 1);
        sum += tab[h].w[0];
        tab[h].w[0] = sum;
    }
    t0 = cpu_s() - t0;
    if (sum == 42) /* keep the loop */
        printf(" ");
    free(buf);
    free(tab);
    return t0;
}

static int cmd_speed(const char *bin, const char *csv)
{
    uint64_t n, keys, lines;
    double mr, t_lru, t_csv, t_wc, hr = 0;
    double w_lru[SPEED_REPS], c_lru[SPEED_REPS], w_mrc[SPEED_REPS],
        c_mrc[SPEED_REPS], ratio[SPEED_REPS], c_one[SPEED_REPS],
        touch[SPEED_REPS];
    uint64_t n_one;
    size_t buf;
    int i;
    struct sim_mrc *m;
    pid_t pid;
    int status;
    char cmd[4200];

    /* memory: a child that only runs LRU at 100k on the binary trace */
    fflush(stdout);
    pid = fork();
    if (pid == 0) {
        long before = rss_kb();
        struct rusage ru;
        lru_run(bin, 100000, &n, &keys, &mr, &buf);
        getrusage(RUSAGE_SELF, &ru);
        printf("memory: max RSS %ld KiB (%ld KiB before), reader buffer %zu "
               "KiB, %llu distinct keys: %.1f bytes per key (target <= 64)\n",
               ru.ru_maxrss, before, buf / 1024, (unsigned long long)keys,
               ((double)(ru.ru_maxrss - before) * 1024.0 - (double)buf) /
                   (double)keys);
        fflush(stdout);
        _exit(0);
    }
    waitpid(pid, &status, 0);

    /* LRU and the exact curve in alternating pairs, so a noisy neighbour
     * hits both alike; the figures are medians over the pairs */
    for (i = 0; i < SPEED_REPS; i++) {
        w_lru[i] = lru_run(bin, 100000, &n, &keys, &mr, &buf);
        c_lru[i] = last_cpu;
        w_mrc[i] = mrc_run(bin, 1.0, &m);
        c_mrc[i] = last_cpu;
        ratio[i] = c_mrc[i] / c_lru[i];
        c_one[i] = one_touch_run(bin, &n_one);
        touch[i] = ((double)n / c_lru[i]) / ((double)n_one / c_one[i]);
        hr = sim_mrc_hit_ratio(m, 100000);
        sim_mrc_free(m);
        printf("  run %d: LRU CPU %.2f s = %.2f M requests/s (wall %.2f M/s); "
               "exact curve CPU %.2f s = %.2f M requests/s (wall %.2f M/s); "
               "curve/LRU %.2f; one-touch loop %.2f M/s, LRU/one-touch "
               "%.0f %%\n",
               i + 1, c_lru[i], (double)n / c_lru[i] / 1e6,
               (double)n / w_lru[i] / 1e6, c_mrc[i], (double)n / c_mrc[i] / 1e6,
               (double)n / w_mrc[i] / 1e6, ratio[i],
               (double)n_one / c_one[i] / 1e6, 100.0 * touch[i]);
    }
    printf("LRU 100,000 entries, binary trace: %llu requests, median of %d "
           "runs CPU %.2f s = %.2f M requests/s (best %.2f, worst %.2f; wall "
           "median %.2f M/s) (target >= 6; libCacheSim 2.4-4.0); miss ratio "
           "%.4f\n",
           (unsigned long long)n, SPEED_REPS, median(c_lru, SPEED_REPS),
           (double)n / median(c_lru, SPEED_REPS) / 1e6,
           (double)n / min_of(c_lru, SPEED_REPS) / 1e6,
           (double)n / max_of(c_lru, SPEED_REPS) / 1e6,
           (double)n / median(w_lru, SPEED_REPS) / 1e6, mr);
    printf("exact LRU curve (one pass, all sizes): median CPU %.2f s = %.2f M "
           "requests/s; ratio to one fixed-size LRU run, median of the pairs: "
           "%.2f (target <= 2); hit ratio at 100,000 = %.4f\n",
           median(c_mrc, SPEED_REPS),
           (double)n / median(c_mrc, SPEED_REPS) / 1e6,
           median(ratio, SPEED_REPS), hr);
    printf("LRU at 100,000 entries vs the one-touch loop (one random 64-byte "
           "read and write per request in 128 MiB, no prefetch), same run: "
           "median of the pairs %.0f %% (best %.0f %%, worst %.0f %%; target "
           ">= 50 %%)\n",
           100.0 * median(touch, SPEED_REPS), 100.0 * max_of(touch, SPEED_REPS),
           100.0 * min_of(touch, SPEED_REPS));
    t_lru = median(w_lru, SPEED_REPS);
    if (!csv)
        return 0;
    /* warm the page cache for both readers, then time each */
    snprintf(cmd, sizeof(cmd), "wc -l < '%s' > /dev/null", csv);
    if (system(cmd) != 0)
        return 1;
    t_wc = now_s();
    if (system(cmd) != 0)
        return 1;
    t_wc = now_s() - t_wc;
    t_csv = parse_run(csv, &lines);
    printf("CSV parse: %llu records, wall %.2f s = %.2f M lines/s, CPU %.2f "
           "s = %.2f M lines/s (target >= 5); wc -l on the same file %.3f s: "
           "parse/wc ratio %.1f\n",
           (unsigned long long)lines, t_csv, (double)lines / t_csv / 1e6,
           last_cpu, (double)lines / last_cpu / 1e6, t_wc, t_csv / t_wc);
    t_lru = lru_run(csv, 100000, &n, &keys, &mr, &buf);
    printf("LRU 100,000 entries, CSV trace: wall %.2f M requests/s, CPU "
           "%.2f M requests/s (libCacheSim 0.38); miss ratio %.4f\n",
           (double)n / t_lru / 1e6, (double)n / last_cpu / 1e6, mr);
    return 0;
}

static int cmd_policies(const char *bin)
{
    static const uint64_t sizes[] = {10000, 100000, 400000};
    struct sim *s[64];
    struct sim_trace_reader *r = open_or_die(bin);
    struct sim_req q;
    struct pt_err err;
    size_t i, j, n = 0;
    double t0;

    for (i = 0; sim_policies[i]; i++)
        for (j = 0; j < 3; j++) {
            struct sim_config cfg;
            memset(&cfg, 0, sizeof(cfg));
            cfg.mode = SIM_MODE_DMAP;
            cfg.app_entries = sizes[j];
            cfg.app_policy = sim_policies[i];
            cfg.servers = 1;
            cfg.seed = 1;
            sim_costs_default(&cfg.costs);
            if (sim_new(&cfg, &s[n++], &err) < 0) {
                fprintf(stderr, "bench_sim: %s\n", err.msg);
                return 70;
            }
        }
    t0 = now_s();
    while (sim_trace_next(r, &q, &err) == 1)
        for (i = 0; i < n; i++)
            sim_feed(s[i], &q, &err);
    t0 = now_s() - t0;
    printf("miss ratios (every object one entry), %zu runs in one pass, "
           "%.1f s\n%-8s %10s %10s %10s\n",
           n, t0, "policy", "10,000", "100,000", "400,000");
    for (i = 0, n = 0; sim_policies[i]; i++) {
        printf("%-8s", sim_policies[i]->name);
        for (j = 0; j < 3; j++, n++) {
            struct sim_app_stats st;
            sim_app_stats(s[n], &st);
            printf(" %10.4f", (double)st.misses / (double)st.gets);
            sim_free(s[n]);
        }
        printf("\n");
    }
    sim_trace_close(r);
    return 0;
}

static int cmd_shards(const char *bin, double rate)
{
    struct sim_mrc *exact, *sh;
    double t_e, t_s, mae = 0, maxe = 0;
    uint64_t top;
    int i, n = 0;

    t_e = mrc_run(bin, 1.0, &exact);
    t_s = mrc_run(bin, rate, &sh);
    top = sim_mrc_max_size(exact);
    /*
     * Over 100 log-spaced sizes from 1/R (the smallest size a 1/R sample
     * resolves: one sampled key stands for 1/R keys) to all keys, and
     * separately over the sizes below 1/R.
     */
    for (i = 0; i < 100; i++) {
        double lo = log(1.0 / rate), hi = log((double)top);
        uint64_t size = (uint64_t)llround(exp(lo + (hi - lo) * i / 99.0));
        double e =
            fabs(sim_mrc_hit_ratio(exact, size) - sim_mrc_hit_ratio(sh, size));
        mae += e;
        if (e > maxe)
            maxe = e;
        n++;
    }
    mae /= n;
    printf("SHARDS R=%g (seed %llu) vs exact over %d log-spaced sizes "
           "%.0f..%llu: MAE %.5f (target <= 0.01), max error %.5f; time "
           "%.2f s vs exact %.2f s\n",
           rate, (unsigned long long)mrc_seed, n, 1.0 / rate,
           (unsigned long long)top, mae, maxe, t_s, t_e);
    for (i = 0, mae = 0; i < 100; i++) {
        uint64_t size = (uint64_t)llround(exp(log((double)top) * i / 99.0));
        mae +=
            fabs(sim_mrc_hit_ratio(exact, size) - sim_mrc_hit_ratio(sh, size)) /
            100.0;
    }
    printf("  over sizes 1..%llu (below 1/R a sample cannot resolve): MAE "
           "%.5f\n",
           (unsigned long long)top, mae);
    for (i = 0; i <= 5; i++) {
        uint64_t size = (uint64_t)pow(10.0, i);
        printf("  size %8llu: exact %.4f, SHARDS %.4f\n",
               (unsigned long long)size, sim_mrc_hit_ratio(exact, size),
               sim_mrc_hit_ratio(sh, size));
    }
    sim_mrc_free(exact);
    sim_mrc_free(sh);
    return 0;
}

/* ---- miniature simulation vs exact runs (issue 29) ---------------------- */

/* A trace held in memory, so exact runs and miniature ones time the same
 * work (no reading). */
struct mem_trace {
    uint32_t *key;
    uint8_t *op;
    uint64_t *t_ms;
    uint64_t n, n_keys;
};

static void mem_load(const char *path, struct mem_trace *mt)
{
    struct sim_trace_reader *r = open_or_die(path);
    struct sim_req q;
    struct pt_err err;
    uint64_t cap = 1u << 20;

    memset(mt, 0, sizeof(*mt));
    mt->key = malloc(cap * sizeof(*mt->key));
    mt->op = malloc(cap);
    mt->t_ms = malloc(cap * sizeof(*mt->t_ms));
    while (sim_trace_next(r, &q, &err) == 1) {
        if (mt->n == cap) {
            cap *= 2;
            mt->key = realloc(mt->key, cap * sizeof(*mt->key));
            mt->op = realloc(mt->op, cap);
            mt->t_ms = realloc(mt->t_ms, cap * sizeof(*mt->t_ms));
        }
        if (!mt->key || !mt->op || !mt->t_ms) {
            fprintf(stderr, "bench_sim: out of memory\n");
            exit(70);
        }
        mt->key[mt->n] = (uint32_t)q.key_id;
        mt->op[mt->n] = (uint8_t)q.op;
        mt->t_ms[mt->n] = q.time_ms;
        mt->n++;
    }
    mt->n_keys = sim_trace_n_keys(r);
    sim_trace_close(r);
}

static void mem_free(struct mem_trace *mt)
{
    free(mt->key);
    free(mt->op);
    free(mt->t_ms);
}

#define MINI_SIZES 20
#define MINI_SEEDS 5

/* Exact runs of ops at every size, in one pass; fills hit[], returns CPU
 * seconds. A get counts, a set is an uncounted reference, a del removes
 * (the simulator's distributed-map semantics). */
static double exact_runs(const struct mem_trace *mt,
                         const struct sim_policy_ops *ops,
                         const uint64_t *sizes, double *hit)
{
    struct sim_policy *p[MINI_SIZES];
    uint64_t hits[MINI_SIZES] = {0}, gets = 0;
    double t0 = cpu_s();

    for (int k = 0; k < MINI_SIZES; k++)
        p[k] = ops->create(sizes[k], 1);
    for (uint64_t i = 0; i < mt->n; i++) {
        uint32_t key = mt->key[i], v;
        gets += mt->op[i] == SIM_GET;
        for (int k = 0; k < MINI_SIZES; k++) {
            if (mt->op[i] == SIM_DEL) {
                ops->remove(p[k], key);
                continue;
            }
            p[k]->now_ms = mt->t_ms[i];
            if (ops->access(p[k], key, &v) == 1 && mt->op[i] == SIM_GET)
                hits[k]++;
        }
    }
    t0 = cpu_s() - t0;
    for (int k = 0; k < MINI_SIZES; k++) {
        hit[k] = 1.0 - (double)(gets - hits[k]) / (double)gets;
        ops->destroy(p[k]);
    }
    return t0;
}

/* The miniature curve at the same sizes: the sampling pass and the runs;
 * returns CPU seconds. */
static double mini_pass_s; /* of the last mini_runs: its sampling pass */

static double mini_runs(const struct mem_trace *mt,
                        const struct sim_policy_ops *ops, double rate,
                        uint64_t seed, const uint64_t *sizes, double *hit)
{
    struct sim_mini *m = sim_mini_new(rate, seed);
    struct pt_err err;
    double t0 = cpu_s();

    for (uint64_t i = 0; i < mt->n; i++) {
        if (mt->op[i] == SIM_DEL)
            sim_mini_remove(m, mt->key[i]);
        else
            sim_mini_access(m, mt->key[i],
                            mt->op[i] == SIM_GET ? SIM_MINI_COUNTED : 0,
                            mt->t_ms[i]);
    }
    mini_pass_s = cpu_s() - t0;
    if (sim_mini_curve(m, ops, 0, 1, sizes, MINI_SIZES, 1, hit, &err) < 0) {
        fprintf(stderr, "bench_sim: %s\n", err.msg);
        exit(70);
    }
    t0 = cpu_s() - t0;
    sim_mini_free(m);
    return t0;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* One trace: every policy's errors over the seeds and its speed-up. */
static const char *mini_only; /* --policy NAME: only that one */
static int mini_verbose;      /* --verbose: each size's errors */

static void mini_trace(const char *path, double rate, int *ok)
{
    static const char *const pols[] = {"fifo",       "clock",      "arc",
                                       "s3fifo",     "sieve",      "pg-clock",
                                       "innodb-lru", "sqlite-lru", NULL};
    struct mem_trace mt;
    uint64_t sizes[MINI_SIZES];
    double lo, hi;

    mem_load(path, &mt);
    lo = log(100.0 / rate);
    hi = log((double)mt.n_keys);
    for (int k = 0; k < MINI_SIZES; k++)
        sizes[k] =
            (uint64_t)llround(exp(lo + (hi - lo) * k / (MINI_SIZES - 1)));
    printf("%s: %llu requests, %llu keys; %d sizes %llu..%llu (100/R to the "
           "working set), R = %g, seeds 1..%d\n",
           path, (unsigned long long)mt.n, (unsigned long long)mt.n_keys,
           MINI_SIZES, (unsigned long long)sizes[0],
           (unsigned long long)sizes[MINI_SIZES - 1], rate, MINI_SEEDS);
    printf("  %-11s %8s %8s %9s %9s %8s\n", "policy", "median", "max",
           "exact s", "mini s", "speed-up");
    for (int i = 0; pols[i]; i++) {
        const struct sim_policy_ops *ops = sim_policy_find(pols[i]);
        if (mini_only && strcmp(mini_only, pols[i]) != 0)
            continue;
        double ex[MINI_SIZES], mh[MINI_SIZES], err[MINI_SIZES * MINI_SEEDS];
        double t_mini[MINI_SEEDS], t_pass[MINI_SEEDS], t_ex, maxe = 0, med, tm,
                                                             w_ex = 0, w_mi = 0;
        int n = 0, w_seed = 0, w_k = 0;
        t_ex = exact_runs(&mt, ops, sizes, ex);
        for (int sd = 0; sd < MINI_SEEDS; sd++) {
            t_mini[sd] = mini_runs(&mt, ops, rate, (uint64_t)sd + 1, sizes, mh);
            t_pass[sd] = mini_pass_s;
            for (int k = 0; k < MINI_SIZES; k++) {
                err[n] = fabs(mh[k] - ex[k]);
                if (err[n] > maxe) {
                    maxe = err[n];
                    w_seed = sd + 1;
                    w_k = k;
                    w_ex = ex[k];
                    w_mi = mh[k];
                }
                n++;
            }
        }
        for (int k = 0; mini_verbose && k < MINI_SIZES; k++) {
            double e_max = 0, e_sum = 0;
            for (int sd = 0; sd < MINI_SEEDS; sd++) {
                e_sum += err[sd * MINI_SIZES + k];
                e_max = fmax(e_max, err[sd * MINI_SIZES + k]);
            }
            printf("  %-11s size %8llu: exact %.4f, error mean %.4f max %.4f\n",
                   "", (unsigned long long)sizes[k], ex[k], e_sum / MINI_SEEDS,
                   e_max);
        }
        qsort(err, (size_t)n, sizeof(err[0]), cmp_double);
        med = (err[n / 2 - 1] + err[n / 2]) / 2;
        tm = median(t_mini, MINI_SEEDS);
        printf("  %-11s %8.4f %8.4f %9.2f %9.3f %7.1fx%s\n", pols[i], med, maxe,
               t_ex, tm, t_ex / tm,
               med <= 0.01 && maxe <= 0.02 && t_ex / tm >= 20 ? "" : "  MISS");
        printf("  %-11s worst: seed %d, size %llu: exact %.4f, miniature %.4f; "
               "sampling pass %.3f s of the %.3f\n",
               "", w_seed, (unsigned long long)sizes[w_k], w_ex, w_mi,
               median(t_pass, MINI_SEEDS), tm);
        if (!(med <= 0.01 && maxe <= 0.02 && t_ex / tm >= 20))
            *ok = 0;
        fflush(stdout);
    }
    mem_free(&mt);
}

/*
 * bench_sim mini TRACE... [--rate R]: the acceptance check of miniature
 * curves (issue 29): for each policy, the curve at R against exact runs at
 * 20 sizes from 100/R entries to the working set, over 5 hash seeds:
 * median and maximum absolute error of the hit ratio (targets 0.01 and
 * 0.02) and the CPU time of the 20 exact runs over that of the miniature
 * curve (its sampling pass included; target >= 20x). Both read the trace
 * from memory.
 */
static int cmd_mini(int argc, char **argv)
{
    double rate = 0.01;
    int ok = 1;

    for (int i = 0; i < argc; i++)
        if (strcmp(argv[i], "--rate") == 0 && i + 1 < argc)
            rate = atof(argv[++i]);
        else if (strcmp(argv[i], "--policy") == 0 && i + 1 < argc)
            mini_only = argv[++i];
        else if (strcmp(argv[i], "--verbose") == 0)
            mini_verbose = 1;
    for (int i = 0; i < argc; i++) {
        if (strcmp(argv[i], "--rate") == 0 ||
            strcmp(argv[i], "--policy") == 0) {
            i++;
            continue;
        }
        if (strcmp(argv[i], "--verbose") == 0)
            continue;
        mini_trace(argv[i], rate, &ok);
    }
    printf("miniature curves: %s\n",
           ok ? "every policy within the targets" : "some MISS (above)");
    return 0;
}

/*
 * `time LOG CMD...`: the whole process of another program, as the paired
 * runs against libCacheSim compare them (issue 29): wall time from fork to
 * wait4, and the child's max RSS from wait4's rusage. No /usr/bin/time
 * needed. The child inherits this process's CPU affinity.
 */
static int cmd_time(const char *log, char **cmd)
{
    struct rusage ru;
    double t0 = now_s();
    int status = 0, fd;
    pid_t pid;

    fflush(stdout);
    pid = fork();
    if (pid < 0) {
        perror("bench_sim: fork");
        return 71;
    }
    if (pid == 0) {
        fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (fd < 0 || dup2(fd, 1) < 0 || dup2(fd, 2) < 0)
            _exit(126);
        close(fd);
        execvp(cmd[0], cmd);
        fprintf(stderr, "bench_sim: cannot run '%s'\n", cmd[0]);
        _exit(127);
    }
    memset(&ru, 0, sizeof(ru));
    if (wait4(pid, &status, 0, &ru) < 0) {
        perror("bench_sim: wait4");
        return 71;
    }
    printf("%.3f %ld\n", now_s() - t0, ru.ru_maxrss);
    if (WIFEXITED(status))
        return WEXITSTATUS(status);
    return 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}

/*
 * Stay on the CPU we started on: on a 2-core VM a migration moves the
 * simulator's 20 MB of tables to another core's caches mid-run, which
 * measures the scheduler, not the simulator. Said on stderr; a failure
 * only means the figures are noisier. BENCH_NO_PIN=1 runs unpinned.
 */
static void pin_cpu(void)
{
    cpu_set_t set;
    int cpu = sched_getcpu();

    if (cpu < 0 || getenv("BENCH_NO_PIN"))
        return;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    if (sched_setaffinity(0, sizeof(set), &set) == 0)
        fprintf(stderr, "bench_sim: pinned to CPU %d\n", cpu);
}

int main(int argc, char **argv)
{
    pin_cpu();
    if (argc >= 3 && strcmp(argv[1], "speed") == 0)
        return cmd_speed(argv[2], argc > 3 ? argv[3] : NULL);
    if (argc >= 3 && strcmp(argv[1], "policies") == 0)
        return cmd_policies(argv[2]);
    if (argc >= 3 && strcmp(argv[1], "shards") == 0) {
        if (argc > 4)
            mrc_seed = strtoull(argv[4], NULL, 10);
        return cmd_shards(argv[2], argc > 3 ? atof(argv[3]) : 0.01);
    }
    if (argc >= 3 && strcmp(argv[1], "mini") == 0)
        return cmd_mini(argc - 2, argv + 2);
    if (argc >= 4 && strcmp(argv[1], "time") == 0)
        return cmd_time(argv[2], argv + 3);
    fprintf(stderr, "usage: bench_sim speed BIN [CSV] | policies BIN | "
                    "shards BIN [RATE [SEED]] | mini TRACE... [--rate R] "
                    "[--policy NAME] | time LOG CMD...\n");
    return 64;
}
