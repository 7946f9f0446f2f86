/* SPDX-License-Identifier: Apache-2.0 */
/*
 * plan.c — a plan of simulator runs: one struct sim per application-cache
 * size, each with every (page size, buffer-pool size) of the database tier,
 * all fed the same trace in one pass by sim_run (sim.c); the statistics
 * come back as plain data in struct sim_plan_result, with the miss-ratio
 * curves sampled at log-spaced sizes. The front door is
 * cli/cmd_simulate.c; the document the result serialises to is in
 * plan_json.c.
 */
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "sim/sim.h"
#include "sim/sim_int.h"

static const char *const mode_names[] = {"none", "command", "distributed-map"};
static const char *const sharing_names[] = {"not-shared", "shared-push",
                                            "shared-pull", "shared-push-pull"};

static int pick(const char *name, const char *const *names, int n)
{
    for (int i = 0; i < n; i++)
        if (strcmp(name, names[i]) == 0)
            return i;
    return -1;
}

const char *sim_cache_mode_name(enum sim_cache_mode m)
{
    return (unsigned)m < 3 ? mode_names[m] : "?";
}

int sim_cache_mode_parse(const char *name)
{
    return pick(name, mode_names, 3);
}

const char *sim_sharing_name(enum sim_sharing s)
{
    return (unsigned)s < 4 ? sharing_names[s] : "?";
}

int sim_sharing_parse(const char *name)
{
    return pick(name, sharing_names, 4);
}

void sim_plan_init(struct sim_plan *p)
{
    memset(p, 0, sizeof(*p));
    p->engine_name = "db2";
    p->device_name = "ssd";
    p->mode = SIM_MODE_NONE;
    p->servers = 1;
    p->sample_rate = 1.0;
    p->seed = 1;
    p->pools[0].value = 16u << 20;
    p->pools[0].bytes = 1;
    p->n_pools = 1;
}

/* ---- configurations ----------------------------------------------------- */

/* The buffer-pool policy: --policy, else the one the engine's profile
 * names (buffer_pool_policy), else LRU. */
static int plan_bp_policy(const struct sim_plan *p,
                          const struct sim_policy_ops **out, struct pt_err *err)
{
    char names[256];

    *out = p->bp_policy;
    if (*out)
        return 0;
    if (p->engine && p->engine->bp_policy[0]) {
        *out = sim_policy_find(p->engine->bp_policy);
        if (!*out)
            return err_set(err, PT_EDATA,
                           "engine '%s': buffer_pool_policy '%s' is not a "
                           "policy (known: %s)",
                           p->engine->name, p->engine->bp_policy,
                           sim_policy_names(names, sizeof(names)));
        return 0;
    }
    *out = sim_policy_find("lru");
    return 0;
}

/* The database tier of a run: each page size of the engine, each pool in
 * pages at that page size. */
static int plan_tiers(const struct sim_plan *p, struct sim_config *cfg,
                      struct pt_err *err)
{
    const struct rec_engine *e = p->engine;
    char list[128], b[32];
    int rc;

    cfg->engine = e;
    cfg->device = p->device;
    if ((rc = plan_bp_policy(p, &cfg->bp_policy, err)) < 0)
        return rc;
    cfg->n_tiers = p->n_page_sizes;
    for (size_t k = 0; k < p->n_page_sizes; k++) {
        struct sim_db_spec *sp = &cfg->tiers[k];
        if (p->page_sizes[k] > UINT32_MAX ||
            !rec_engine_page(e, (uint32_t)p->page_sizes[k]))
            return err_set(err, PT_EUSAGE,
                           "`page_size`: %s is not a page size of engine %s "
                           "(allowed: %s)",
                           pt_size_format(p->page_sizes[k], b, 32), e->name,
                           rec_engine_page_list(e, list, sizeof(list)));
        sp->page_size_bytes = (uint32_t)p->page_sizes[k];
        sp->n_pools = p->n_pools;
        for (size_t i = 0; i < p->n_pools; i++) {
            uint64_t n = p->pools[i].bytes
                             ? p->pools[i].value / sp->page_size_bytes
                             : p->pools[i].value;
            if (n < 1)
                return err_set(err, PT_EUSAGE,
                               "`bufferpool`: %s holds no %s page",
                               pt_size_format(p->pools[i].value, b, 32),
                               pt_size_format(sp->page_size_bytes, list, 32));
            sp->pool_pages[i] = n;
        }
    }
    return 0;
}

/* The simulator configuration of run i (one application-cache size). */
static int plan_config(const struct sim_plan *p, size_t i,
                       struct sim_config *cfg, struct pt_err *err)
{
    memset(cfg, 0, sizeof(*cfg));
    cfg->mode = p->mode;
    cfg->app_entries = p->mode && i < p->n_app ? p->app_entries[i] : 0;
    cfg->app_policy = p->app_policy;
    cfg->offload_entries = p->offload_entries;
    cfg->servers = p->servers;
    cfg->sharing = p->sharing;
    sim_costs_default(&cfg->costs);
    cfg->seed = p->seed;
    cfg->mrc = p->mrc && i == 0;
    cfg->sample_rate = p->sample_rate;
    cfg->request_rate = p->request_rate;
    if (p->n_page_sizes && !p->engine)
        return err_set(err, PT_EUSAGE, "a database tier needs an engine");
    if (p->n_page_sizes > SIM_MAX_TIERS || p->n_pools > SIM_MAX_POOLS ||
        p->n_app > SIM_MAX_APP)
        return err_set(err, PT_EUSAGE,
                       "at most %d page sizes, %d buffer pools and %d "
                       "application caches",
                       SIM_MAX_TIERS, SIM_MAX_POOLS, SIM_MAX_APP);
    return p->n_page_sizes ? plan_tiers(p, cfg, err) : 0;
}

/* Runs of a plan: one per application-cache size, at least one. */
static size_t plan_n_runs(const struct sim_plan *p)
{
    return p->n_app ? p->n_app : 1;
}

int sim_plan_check(const struct sim_plan *p, struct pt_err *err)
{
    struct sim_config cfg;
    int ret;

    if (p->mode != SIM_MODE_NONE && !p->n_app)
        return err_set(err, PT_EUSAGE, "`cache_mode` %s needs `app_cache` N",
                       sim_cache_mode_name(p->mode));
    if (p->mode == SIM_MODE_NONE && p->n_app)
        return err_set(err, PT_EUSAGE,
                       "`app_cache` does not apply with `cache_mode` none");
    for (size_t i = 0; i < plan_n_runs(p); i++)
        if ((ret = plan_config(p, i, &cfg, err)) < 0)
            return ret;
    return 0;
}

/* ---- results ------------------------------------------------------------ */

/*
 * Curve sizes: the `given` sizes (the pools or application caches the plan
 * simulated) and log-spaced sizes from 1 to the largest useful size `top`,
 * at most `max` points in all (sim.h, struct sim_curve). The given sizes
 * are placed first; the log grid gets the points left (at least 2: both
 * ends), merged in ascending order, duplicates after rounding dropped.
 * Fills each point's size and given flag; the caller reads the hit ratios
 * off the curve itself, given or not.
 */
static size_t curve_sizes(uint64_t top, const uint64_t *given, size_t n_given,
                          struct sim_curve_point *pts, size_t max)
{
    uint64_t last = 0;
    size_t n = 0, n_grid = max > n_given + 2 ? max - n_given : 2, i = 0;

    if (top < 1)
        return 0;
    for (;;) {
        uint64_t s = UINT64_MAX, g = UINT64_MAX;
        int is_given = 0;
        /* the next grid size above `last` */
        for (; i < n_grid; i++) {
            double f = n_grid > 1 ? (double)i / (double)(n_grid - 1) : 1.0;
            s = (uint64_t)llround(pow((double)top, f));
            if (s > last)
                break;
            s = UINT64_MAX;
        }
        /* the smallest given size above `last` */
        for (size_t k = 0; k < n_given; k++)
            if (given[k] > last && given[k] < g)
                g = given[k];
        if (g <= s) {
            is_given = 1;
            s = g;
        }
        if (s == UINT64_MAX)
            break;
        memset(&pts[n], 0, sizeof(pts[n]));
        pts[n].size = last = s;
        pts[n].given = is_given;
        n++;
    }
    return n;
}

/*
 * An LRU curve's points (stack distances, mrc.c). On a sampled curve a size
 * below 1/R is marked extrapolated: one sampled key stands for 1/R keys,
 * so the curve does not resolve smaller sizes (docs/models.md#shards has
 * the errors measured there).
 */
static void curve_read_mrc(struct sim_mrc *m, double rate,
                           struct sim_curve_point *pts, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        pts[i].hit_ratio = sim_mrc_hit_ratio(m, pts[i].size);
        pts[i].extrapolated = rate < 1.0 && (double)pts[i].size * rate < 1.0;
    }
}

/*
 * Any other policy's points: one miniature run per size (mini.c), both
 * views' sizes in one call so the threads share them. A size whose
 * miniature cache has fewer than 100 entries (size < 100 / R) is marked
 * extrapolated (docs/models.md#mini).
 */
static int curve_read_mini(struct sim_mini *m, const struct sim_plan *p,
                           const struct sim_policy_ops *ops, uint32_t page,
                           struct sim_curve *c, struct pt_err *err)
{
    uint64_t sizes[SIM_CURVE_POINTS + SIM_CURVE_BRIEF + SIM_CURVE_GIVEN];
    double hit[SIM_CURVE_POINTS + SIM_CURVE_BRIEF + SIM_CURVE_GIVEN];
    size_t n = 0, i;
    double r = c->sample_rate;
    int rc;

    for (i = 0; i < c->n_points; i++)
        sizes[n++] = c->points[i].size;
    for (i = 0; i < c->n_brief; i++)
        sizes[n++] = c->brief[i].size;
    if ((rc = sim_mini_curve(m, ops, page, p->seed, sizes, n, p->jobs, hit,
                             err)) < 0)
        return rc;
    for (n = 0, i = 0; i < c->n_points; i++, n++) {
        c->points[i].hit_ratio = hit[n];
        c->points[i].extrapolated = r < 1.0 && (double)sizes[n] * r < 100.0;
    }
    for (i = 0; i < c->n_brief; i++, n++) {
        c->brief[i].hit_ratio = hit[n];
        c->brief[i].extrapolated = r < 1.0 && (double)sizes[n] * r < 100.0;
    }
    return 0;
}

/* One curve: tier t's (or with no tier the application cache's) of the
 * first run, from the simulator that drew it (local tier lt). */
static int collect_curve(struct sim *s, size_t lt,
                         const struct sim_config *full, size_t t,
                         const struct sim_plan *p, struct sim_plan_result *res,
                         struct pt_err *err)
{
    struct sim_mrc *m = sim_curve(s, lt);
    struct sim_mini *mini = sim_curve_mini(s, lt);
    struct sim_curve *c = &res->curves[res->n_curves];
    const uint64_t *given =
        full->n_tiers ? full->tiers[t].pool_pages : p->app_entries;
    size_t n_given = full->n_tiers ? full->tiers[t].n_pools : p->n_app;
    uint64_t top = m ? sim_mrc_max_size(m) : mini ? sim_mini_max_size(mini) : 0;
    int rc;

    if (!m && !mini)
        return 0;
    c->page_size_bytes = full->n_tiers ? full->tiers[t].page_size_bytes : 0;
    c->sample_rate = full->sample_rate;
    c->n_points = curve_sizes(top, given, n_given, c->points, SIM_CURVE_POINTS);
    c->n_brief = curve_sizes(top, given, n_given, c->brief, SIM_CURVE_BRIEF);
    if (m) {
        curve_read_mrc(m, c->sample_rate, c->points, c->n_points);
        curve_read_mrc(m, c->sample_rate, c->brief, c->n_brief);
    } else if ((rc = curve_read_mini(
                    mini, p, full->n_tiers ? full->bp_policy : full->app_policy,
                    c->page_size_bytes, c, err)) < 0) {
        return rc;
    }
    res->n_curves++;
    return 0;
}

/* The config part of the result, as the plan names it. */
static int result_config(const struct sim_plan *p, struct sim_plan_result *res)
{
    const struct sim_policy_ops *bp;

    res->mode = p->mode;
    snprintf(res->app_policy, sizeof(res->app_policy), "%s",
             p->app_policy ? p->app_policy->name : "lru");
    res->offload_entries = p->offload_entries;
    res->servers = p->servers;
    res->sharing = p->sharing;
    res->trace = pt_strdup(p->trace ? p->trace : "-");
    if (!res->trace)
        return PT_EINTERNAL;
    if (!p->n_page_sizes)
        return 0;
    res->has_db = 1;
    if (plan_bp_policy(p, &bp, NULL) < 0)
        bp = sim_policy_find("lru"); /* sim_plan_check reported it */
    snprintf(res->bp_policy, sizeof(res->bp_policy), "%s", bp->name);
    res->engine = pt_strdup(p->engine_name ? p->engine_name : p->engine->name);
    res->device = pt_strdup(p->device_name ? p->device_name : "");
    return res->engine && res->device ? 0 : PT_EINTERNAL;
}

/* ---- running a plan in threads ------------------------------------------ */

/*
 * The plan's work is cut into units — (run, page size, pool), or runs when
 * there is no database tier — in the order of simulation.json's rows, and
 * each of `jobs` threads takes a contiguous share: its own simulators with
 * only its units' tiers and pools, fed by its own reader of the trace. A
 * simulator's application tier is deterministic and does not depend on the
 * database tier, so every share computes the same application counters;
 * the rows and curves are then gathered in the document's order, the same
 * bytes whatever the number of threads. A tier's curve is drawn by the
 * share that holds the first run's first pool of it.
 */
struct plan_part {
    const struct sim_plan *p;
    size_t u0, u1; /* units [u0, u1) */
    size_t n_sims;
    size_t run[SIM_MAX_APP];                     /* the run of each simulator */
    struct sim_config cfg[SIM_MAX_APP];          /* its share of that run */
    uint8_t tier_of[SIM_MAX_APP][SIM_MAX_TIERS]; /* local → plan tier */
    uint8_t pool_of[SIM_MAX_APP][SIM_MAX_TIERS][SIM_MAX_POOLS];
    struct sim *sims[SIM_MAX_APP];
    int lead;         /* the share that reports progress */
    atomic_int *stop; /* set when a share failed: the others halt */
    int rc;
    struct pt_err err;
    int64_t done;
    uint64_t keys;
};

static size_t plan_n_units(const struct sim_plan *p)
{
    return plan_n_runs(p) *
           (p->n_page_sizes ? p->n_page_sizes * p->n_pools : 1);
}

/* Unit u as (run, tier, pool); tier and pool 0 without a database tier. */
static void unit_of(const struct sim_plan *p, size_t u, size_t *i, size_t *t,
                    size_t *k)
{
    size_t per = p->n_page_sizes ? p->n_page_sizes * p->n_pools : 1;

    *i = u / per;
    *t = p->n_page_sizes ? (u % per) / p->n_pools : 0;
    *k = p->n_page_sizes ? u % p->n_pools : 0;
}

/* The simulators of a share: each run it touches, with its tiers and
 * pools. */
static int part_build(struct plan_part *pt, struct pt_err *err)
{
    const struct sim_plan *p = pt->p;
    struct sim_config full;
    int rc;

    for (size_t u = pt->u0; u < pt->u1; u++) {
        size_t i, t, k, s = pt->n_sims, lt;
        struct sim_db_spec *sp;
        unit_of(p, u, &i, &t, &k);
        if (!s || pt->run[s - 1] != i) { /* a new run */
            if ((rc = plan_config(p, i, &pt->cfg[s], err)) < 0)
                return rc;
            pt->cfg[s].n_tiers = 0;
            pt->run[s] = i;
            pt->n_sims = ++s;
        }
        if (!p->n_page_sizes)
            continue;
        if ((rc = plan_config(p, i, &full, err)) < 0)
            return rc;
        s--;
        lt = pt->cfg[s].n_tiers;
        if (!lt || pt->tier_of[s][lt - 1] != t) { /* a new tier */
            sp = &pt->cfg[s].tiers[lt];
            sp->page_size_bytes = full.tiers[t].page_size_bytes;
            sp->n_pools = 0;
            sp->no_curve = 1;
            pt->tier_of[s][lt] = (uint8_t)t;
            pt->cfg[s].n_tiers = ++lt;
        }
        sp = &pt->cfg[s].tiers[lt - 1];
        if (i == 0 && k == 0)
            sp->no_curve = 0;
        pt->pool_of[s][lt - 1][sp->n_pools] = (uint8_t)k;
        sp->pool_pages[sp->n_pools++] = full.tiers[t].pool_pages[k];
    }
    for (size_t s = 0; s < pt->n_sims; s++)
        if ((rc = sim_new(&pt->cfg[s], &pt->sims[s], err)) < 0)
            return rc;
    return 0;
}

/* A share's thread: read the trace through its simulators. */
static void *part_main(void *arg)
{
    struct plan_part *pt = arg;
    const struct sim_plan *p = pt->p;
    struct sim_trace_reader *r = pt->lead ? p->reader : NULL;

    pt->rc = 0;
    if (!r &&
        (pt->rc = sim_trace_open(p->trace, p->trace_format, &r, &pt->err)) < 0)
        return NULL;
    pt->done =
        sim_run_halt(r, pt->sims, pt->n_sims, pt->lead ? p->progress : NULL,
                     p->progress_ctx, pt->stop, &pt->err);
    pt->keys = sim_trace_n_keys(r);
    if (r != p->reader)
        sim_trace_close(r);
    if (pt->done < 0) {
        pt->rc = (int)pt->done;
        atomic_store(pt->stop, 1);
    }
    return NULL;
}

/* Where unit (i, t, k) was simulated: the simulator and its local tier
 * and pool. 0, or -1 if no share holds it (cannot happen). */
static int part_find(struct plan_part *parts, size_t n_parts, size_t i,
                     size_t t, size_t k, struct sim **s, size_t *lt, size_t *lk)
{
    for (size_t j = 0; j < n_parts; j++) {
        struct plan_part *pt = &parts[j];
        for (size_t x = 0; x < pt->n_sims; x++) {
            if (pt->run[x] != i)
                continue;
            if (!pt->cfg[x].n_tiers) {
                *s = pt->sims[x];
                *lt = *lk = 0;
                return 0;
            }
            for (size_t a = 0; a < pt->cfg[x].n_tiers; a++)
                for (size_t b = 0;
                     pt->tier_of[x][a] == t && b < pt->cfg[x].tiers[a].n_pools;
                     b++)
                    if (pt->pool_of[x][a][b] == k) {
                        *s = pt->sims[x];
                        *lt = a;
                        *lk = b;
                        return 0;
                    }
        }
    }
    return -1;
}

/* The rows in the document's order, then the first run's curves. */
static int plan_gather(const struct sim_plan *p, struct plan_part *parts,
                       size_t n_parts, struct sim_plan_result *res,
                       struct pt_err *err)
{
    struct sim_config full;
    struct sim *s;
    size_t lt, lk;
    int rc;

    for (size_t u = 0; u < plan_n_units(p); u++) {
        struct sim_result_row *r = &res->rows[res->n_rows];
        size_t i, t, k;
        unit_of(p, u, &i, &t, &k);
        if (part_find(parts, n_parts, i, t, k, &s, &lt, &lk) < 0)
            return err_set(err, PT_EINTERNAL, "plan unit %zu lost", u);
        if ((rc = plan_config(p, i, &full, err)) < 0)
            return rc;
        r->app_entries = full.app_entries;
        sim_app_stats(s, &r->app);
        if (p->n_page_sizes) {
            r->has_db = 1;
            sim_db_stats(s, lt, lk, &r->db);
        }
        res->n_rows++;
    }
    if ((rc = plan_config(p, 0, &full, err)) < 0)
        return rc;
    res->has_mrc = full.mrc;
    for (size_t t = 0; full.mrc && t < (p->n_page_sizes ? p->n_page_sizes : 1);
         t++) {
        if (part_find(parts, n_parts, 0, t, 0, &s, &lt, &lk) < 0)
            return err_set(err, PT_EINTERNAL, "plan curve %zu lost", t);
        if ((rc = collect_curve(s, lt, &full, t, p, res, err)) < 0)
            return rc;
    }
    return 0;
}

/* Threads to use: --jobs, at most one per unit; one when the trace can be
 * read only once (stdin, a pipe or any other file that is not a regular
 * file: each thread opens the trace, and two readers of one FIFO would
 * split its bytes between them; or a reader the caller gave). */
static size_t plan_n_jobs(const struct sim_plan *p)
{
    size_t j = p->jobs ? p->jobs : 1, u = plan_n_units(p);
    struct stat st;

    if (p->reader || !p->trace || strcmp(p->trace, "-") == 0 ||
        stat(p->trace, &st) != 0 || !S_ISREG(st.st_mode))
        return 1;
    if (j > SIM_MAX_JOBS)
        j = SIM_MAX_JOBS;
    return j < u ? j : u;
}

/* Build the shares, run them (share 0 on this thread), and collect the
 * first error in share order. */
static int plan_exec(const struct sim_plan *p, struct plan_part *parts,
                     size_t n, atomic_int *stop, struct sim_plan_result *res,
                     struct pt_err *err)
{
    pthread_t th[SIM_MAX_JOBS];
    int started[SIM_MAX_JOBS] = {0};
    size_t j;
    int ret;

    for (j = 0; j < n; j++) {
        parts[j].p = p;
        parts[j].u0 = plan_n_units(p) * j / n;
        parts[j].u1 = plan_n_units(p) * (j + 1) / n;
        parts[j].lead = j == 0;
        parts[j].stop = stop;
        if ((ret = part_build(&parts[j], err)) < 0)
            return ret;
    }
    for (j = 1; j < n; j++)
        started[j] = pthread_create(&th[j], NULL, part_main, &parts[j]) == 0;
    part_main(&parts[0]);
    for (j = 1; j < n; j++) {
        if (started[j])
            pthread_join(th[j], NULL);
        else
            part_main(&parts[j]); /* no thread: run the share here */
    }
    for (j = 0; j < n; j++)
        if (parts[j].rc < 0) {
            if (err)
                *err = parts[j].err;
            return parts[j].rc;
        }
    res->distinct_keys = parts[0].keys;
    res->requests = (uint64_t)parts[0].done;
    return 0;
}

int sim_plan_run(const struct sim_plan *p, struct sim_plan_result *res,
                 struct pt_err *err)
{
    size_t n = plan_n_jobs(p), j;
    struct plan_part *parts = NULL;
    atomic_int stop;
    int ret;

    atomic_init(&stop, 0);
    memset(res, 0, sizeof(*res));
    if ((ret = sim_plan_check(p, err)) < 0)
        return ret;
    res->rows = pt_calloc(plan_n_units(p), sizeof(*res->rows));
    parts = pt_calloc(n, sizeof(*parts));
    if (!res->rows || !parts || result_config(p, res) < 0) {
        ret = err_set(err, PT_EINTERNAL, "out of memory");
        goto out;
    }
    if ((ret = plan_exec(p, parts, n, &stop, res, err)) < 0)
        goto out;
    ret = plan_gather(p, parts, n, res, err);
out:
    for (j = 0; parts && j < n; j++)
        for (size_t s = 0; s < parts[j].n_sims; s++)
            sim_free(parts[j].sims[s]);
    free(parts);
    return ret;
}

void sim_plan_result_release(struct sim_plan_result *res)
{
    if (!res)
        return;
    free(res->trace);
    free(res->engine);
    free(res->device);
    free(res->rows);
    memset(res, 0, sizeof(*res));
}

/* Append the rows of `from`, each marked `setting`. */
static void compare_rows(struct sim_plan_result *out,
                         const struct sim_plan_result *from,
                         const char *setting)
{
    for (size_t i = 0; i < from->n_rows; i++) {
        struct sim_result_row *r = &out->rows[out->n_rows++];
        *r = from->rows[i];
        snprintf(r->setting, sizeof(r->setting), "%s", setting);
    }
}

int sim_plan_result_compare(const struct sim_plan_result *cur,
                            const struct sim_plan_result *rec, const char *knob,
                            double knob_current, double knob_recommended,
                            struct sim_plan_result *out, struct pt_err *err)
{
    memset(out, 0, sizeof(*out));
    out->rows = pt_calloc(cur->n_rows + rec->n_rows + 1, sizeof(*out->rows));
    if (!out->rows)
        return err_set(err, PT_EINTERNAL, "out of memory");
    compare_rows(out, cur, "current");
    compare_rows(out, rec, "recommended");
    out->has_mrc = rec->has_mrc;
    out->n_curves = rec->n_curves;
    memcpy(out->curves, rec->curves, sizeof(out->curves));
    out->comparison = 1;
    snprintf(out->knob, sizeof(out->knob), "%s", knob);
    out->knob_current = knob_current;
    out->knob_recommended = knob_recommended;
    return 0;
}

int sim_app_miss_ratio(const struct sim_app_stats *s, double *ratio)
{
    if (!s->gets)
        return -1;
    *ratio = (double)s->misses / (double)s->gets;
    return 0;
}

int sim_app_object_bytes(const struct sim_app_stats *s, double *bytes)
{
    if (!s->object_bytes || !(s->gets + s->sets))
        return -1;
    *bytes = (double)s->object_bytes / (double)(s->gets + s->sets);
    return 0;
}

int sim_db_hit_ratio(const struct sim_db_stats *d, double *ratio)
{
    if (!d->logical_reads)
        return -1;
    *ratio = 1.0 - (double)d->physical_reads / (double)d->logical_reads;
    return 0;
}

const struct sim_result_row *
sim_plan_result_find(const struct sim_plan_result *res,
                     uint32_t page_size_bytes, const char *setting)
{
    for (size_t i = 0; i < res->n_rows; i++) {
        const struct sim_result_row *r = &res->rows[i];
        if (!r->has_db || r->db.page_size_bytes != page_size_bytes)
            continue;
        if (!setting || !r->setting[0] || strcmp(r->setting, setting) == 0)
            return r;
    }
    return NULL;
}
