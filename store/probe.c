/* SPDX-License-Identifier: Apache-2.0 */
/*
 * probe.c — `pagetune probe`: this machine's unit costs of the built-in
 * store (store.h, "the probe"), measured with no trace, so that the store
 * model (model.c) predicts a replay from them instead of from profile
 * figures of another era and machine (docs/models.md "Store model").
 *
 * The cells: a get and a set of one object size in one store. Each page
 * size of the engine has a store with two populations in the row (256
 * bytes, and nine tenths of the inline limit); the smallest page size has
 * two more stores, LOB area cached and direct, with 8,000- and 32,000-byte
 * populations. The stores are made exactly as the replay makes them
 * (store_plan_page_config), so the probe times the replay's own code.
 * Rounds visit every cell, in reverse on even rounds (A B B A, as the
 * replay's rounds), so a drift of the machine falls on every cell alike;
 * each cell's figure is the mean over the rounds with its 95 % interval.
 * Neighbours: probe_doc.c (the file), model.c (the prediction),
 * cli/cmd_probe.c (the command), advise/pipeline.c (the short probe).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "model/model.h"
#include "store/lob.h"
#include "store/store.h"

void store_probe_opts_init(struct store_probe_opts *o)
{
    memset(o, 0, sizeof(*o));
    o->cache_bytes = 2u << 20;   /* the replay's default (store_plan_init) */
    o->sync = STORE_SYNC_NORMAL; /* likewise */
    o->rounds = 7;
    o->ops = 400;
    o->sessions = 512;
}

#define PROBE_SMALL 256u
#define PROBE_LOB_A 8000u
#define PROBE_LOB_B 32000u
#define PROBE_SLIDE 4096u
#define PROBE_MAX_STORES (STORE_PROBE_MAX_PAGES + 2)

struct probe_store {
    struct store *s;
    char path[4200];
    uint32_t size[2]; /* the two populations' object sizes */
    struct store_probe_line *line[STORE_PROBE_N_OPS]; /* where figures go */
};

struct probe_run {
    const struct store_probe_opts *o;
    struct probe_store st[PROBE_MAX_STORES];
    size_t n;
    unsigned char *payload; /* largest object + slide, random bytes */
    uint32_t max_bytes;
    double *samples; /* [store][pop][op][round] microseconds per op */
    double *frames;  /* the same cells: WAL frames per op (writes) */
    double *ckpt_us; /* the same cells: the checkpoint after the cell */
    uint64_t rng;
    uint64_t cells_done, cells_total;
};

static uint64_t probe_rand(struct probe_run *r)
{
    uint64_t x = r->rng;
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    return r->rng = x;
}

/* Session ids "probe-<pop>-<n>", as long as a WebSphere id is about. */
static size_t probe_id(char *buf, size_t len, unsigned pop, unsigned n)
{
    int k =
        snprintf(buf, len, "probe-session-%u-%06u-0000000000000000", pop, n);
    return k < 0 ? 0 : (size_t)k;
}

static size_t cell_at(struct probe_run *r, size_t s, unsigned pop, int op,
                      unsigned round)
{
    return ((s * 2 + pop) * STORE_PROBE_N_OPS + (size_t)op) * r->o->rounds +
           round;
}
static double *sample_at(struct probe_run *r, size_t s, unsigned pop, int op,
                         unsigned round)
{
    return &r->samples[cell_at(r, s, pop, op, round)];
}

/* Create store k from cfg and load its two populations in one transaction. */
static int probe_store_open(struct probe_run *r, size_t k, const char *dir,
                            const struct store_config *cfg, struct pt_err *err)
{
    struct probe_store *ps = &r->st[k];
    char id[96];
    int ret;

    snprintf(ps->path, sizeof(ps->path), "%s/probe-%zu.db", dir, k);
    if ((ret = store_create(ps->path, cfg, &ps->s, err)) < 0 ||
        (ret = store_begin(ps->s, err)) < 0)
        return ret;
    for (unsigned pop = 0; pop < 2; pop++)
        for (unsigned n = 0; n < r->o->sessions; n++) {
            size_t klen = probe_id(id, sizeof(id), pop, n);
            if ((ret = store_session_set(
                     ps->s, id, klen, r->payload + probe_rand(r) % PROBE_SLIDE,
                     ps->size[pop], 1700000000000, 1800, err)) < 0) {
                store_rollback(ps->s);
                return ret;
            }
        }
    if ((ret = store_commit(ps->s, err)) < 0)
        return ret;
    return store_checkpoint(ps->s, NULL, err);
}

/* Time `ops` operations of one kind on random sessions of one population:
 * microseconds per operation. Allocates nothing. */
static int probe_time(struct probe_run *r, struct probe_store *ps, unsigned pop,
                      int op, double *us, double *frames, double *ckpt_us,
                      struct pt_err *err)
{
    char id[96];
    struct store_session ss;
    uint64_t t0 = pt_now_ns();
    int ret;

    for (unsigned i = 0; i < r->o->ops; i++) {
        size_t klen = probe_id(id, sizeof(id), pop,
                               (unsigned)(probe_rand(r) % r->o->sessions));
        /* a set is timed as the replay's requests run it: after the get
           of the same session (WebSphere writes back what it read); its
           cost is the pair's less the get's (probe_sum) */
        ret = op == STORE_PROBE_PUT
                  ? 0
                  : store_session_get(ps->s, id, klen, &ss, r->payload,
                                      r->max_bytes, err);
        if (ret >= 0 && op != STORE_PROBE_GET)
            ret = store_session_set(
                ps->s, id, klen, r->payload + probe_rand(r) % PROBE_SLIDE,
                ps->size[pop], 1700000000000 + i, 1800, err);
        if (ret < 0)
            return ret;
        if (pt_interrupted())
            return err_set(err, PT_EINTR, "probe interrupted");
    }
    /* writes pay their checkpoints: SQLite's own every
       STORE_AUTOCHECKPOINT_FRAMES frames within the cell, as in a replay,
       and one at its end for the frames left, so that no cell pays for
       another's (probe_checkpoints takes back the part of that last
       checkpoint's fixed cost its few frames would not have paid) */
    *frames = *ckpt_us = 0;
    if (op != STORE_PROBE_GET) {
        uint64_t n = 0, c0 = pt_now_ns();
        if ((ret = store_checkpoint(ps->s, &n, err)) < 0)
            return ret;
        *ckpt_us = (double)(pt_now_ns() - c0) / 1e3;
        *frames = (double)n;
    }
    *us = (double)(pt_now_ns() - t0) / 1e3 / r->o->ops;
    return 0;
}

static void probe_progress(struct probe_run *r)
{
    if (r->o->progress)
        r->o->progress(r->o->ctx, r->cells_done, r->cells_total);
}

/* One round: every cell once, in store order or in reverse. */
static int probe_round(struct probe_run *r, unsigned round, int measured,
                       struct pt_err *err)
{
    size_t cells = r->n * 2 * STORE_PROBE_N_OPS;

    for (size_t c = 0; c < cells; c++) {
        size_t k = round % 2 ? cells - 1 - c : c;
        size_t s = k / (2 * STORE_PROBE_N_OPS);
        unsigned pop = (unsigned)(k / STORE_PROBE_N_OPS % 2);
        int op = (int)(k % STORE_PROBE_N_OPS);
        double us, fr, ck;
        int ret = probe_time(r, &r->st[s], pop, op, &us, &fr, &ck, err);
        if (ret < 0)
            return ret;
        if (measured) {
            size_t at = cell_at(r, s, pop, op, round);
            r->samples[at] = us;
            r->frames[at] = fr;
            r->ckpt_us[at] = ck;
            r->cells_done++;
            probe_progress(r);
        }
    }
    return 0;
}

/*
 * A checkpoint's cost as fixed + per_frame x frames, least squares over
 * the checkpoints that ended the write cells; then each write cell gives
 * back the fixed cost its last checkpoint was charged beyond its frames'
 * share (frames / STORE_AUTOCHECKPOINT_FRAMES of one), as the replay's
 * SQLite checkpoints every STORE_AUTOCHECKPOINT_FRAMES frames.
 */
static void probe_checkpoints(struct probe_run *r, struct store_probe *out)
{
    size_t n = r->n * 2 * STORE_PROBE_N_OPS * r->o->rounds;
    double sx = 0, sy = 0, sxx = 0, sxy = 0, m = 0, a, b, den;

    for (size_t i = 0; i < n; i++) {
        double x = r->frames[i], y = r->ckpt_us[i];
        if (x <= 0)
            continue;
        sx += x, sy += y, sxx += x * x, sxy += x * y, m++;
    }
    den = m * sxx - sx * sx;
    b = m >= 2 && den > 0 ? (m * sxy - sx * sy) / den : 0;
    if (b < 0)
        b = 0;
    a = m > 0 ? (sy - b * sx) / m : 0;
    if (a < 0)
        a = 0;
    out->ckpt_fixed_us = a;
    out->ckpt_per_frame_us = b;
    for (size_t i = 0; i < n; i++) {
        double share = r->frames[i] / STORE_AUTOCHECKPOINT_FRAMES;
        /* never more than this cell's own checkpoint took: on a loaded
           machine the fitted fixed cost can exceed it, and the cell's
           figure would lose time its operations spent (or go below 0) */
        double back = fmin(a * (1 - share), r->ckpt_us[i]);
        if (r->frames[i] > 0 && share < 1)
            r->samples[i] -= back / r->o->ops;
    }
}

/* Each cell's mean and interval into the probe's lines. */
static void probe_sum(struct probe_run *r)
{
    for (size_t s = 0; s < r->n; s++)
        for (int op = 0; op < STORE_PROBE_N_OPS; op++) {
            struct store_probe_line *l = r->st[s].line[op];
            for (unsigned pop = 0; pop < 2; pop++) {
                struct store_probe_cost *c = &l->at[pop];
                /* a set's sample is its pair's less the get's; on a
                   loaded machine the pair can take no longer than the
                   get, in every round of a short probe: a set is then
                   given 1 % of its pair, never 0 (a cost of 0 is not a
                   cost, and the file's reader refuses a mean of 0) */
                if (op == STORE_PROBE_SET)
                    for (unsigned k = 0; k < r->o->rounds; k++) {
                        double *x = sample_at(r, s, pop, op, k);
                        double floor_us = *x * 0.01;
                        *x -= *sample_at(r, s, pop, STORE_PROBE_GET, k);
                        if (!(*x >= floor_us))
                            *x = floor_us;
                    }
                l->size_bytes[pop] = r->st[s].size[pop];
                store_mean_ci95(sample_at(r, s, pop, op, 0), r->o->rounds,
                                &c->mean_us, &c->lo_us, &c->hi_us);
                /* a cost is never below 0: a wide interval (few rounds,
                   a noisy machine) would otherwise reach below it, and
                   the file's reader (probe_doc.c) refuses that */
                if (c->lo_us < 0)
                    c->lo_us = 0;
            }
        }
}

/* The plan whose page configurations the probe's stores take. */
static void probe_plan(const struct store_probe_opts *o, struct store_plan *p)
{
    store_plan_init(p);
    p->engine = o->engine;
    p->engine_name = o->engine_name;
    p->cache_bytes = o->cache_bytes;
    p->sync = o->sync;
    p->n_page_sizes = 0;
    for (size_t i = 0; i < o->engine->n_pages && i < STORE_PROBE_MAX_PAGES; i++)
        if (store_page_size_valid(o->engine->pages[i].page_size_bytes))
            p->page_sizes[p->n_page_sizes++] =
                o->engine->pages[i].page_size_bytes;
}

/* Set up the stores' descriptions (sizes, where their figures go). */
static int probe_layout(struct probe_run *r, const struct store_plan *p,
                        struct store_probe *out, struct store_config *cfgs,
                        struct pt_err *err)
{
    int ret;

    r->n = 0;
    for (size_t i = 0; i < p->n_page_sizes; i++) {
        struct store_config *cfg = &cfgs[r->n];
        struct store_probe_page *pg = &out->page[out->n_pages];
        if ((ret = store_plan_page_config(p, i, cfg, err)) < 0)
            return ret;
        if (cfg->small_max_bytes < 2 * PROBE_SMALL)
            continue; /* no room for two in-row sizes */
        pg->page_size_bytes = cfg->page_size_bytes;
        pg->inline_limit_bytes = cfg->small_max_bytes;
        r->st[r->n].size[0] = PROBE_SMALL;
        r->st[r->n].size[1] = cfg->small_max_bytes / 10 * 9;
        for (int op = 0; op < STORE_PROBE_N_OPS; op++)
            r->st[r->n].line[op] = &pg->row[op];
        out->n_pages++;
        r->n++;
    }
    if (r->n == 0)
        return err_set(err, PT_EUSAGE,
                       "probe: engine %s has no page size whose row holds "
                       "two probe sizes",
                       p->engine->name);
    /* the LOB area, in the smallest page size's store, both I/O modes */
    for (int io = STORE_LOB_CACHED; io <= STORE_LOB_DIRECT; io++) {
        struct store_config *cfg = &cfgs[r->n];
        *cfg = cfgs[0];
        if (!cfg->lob_area)
            return err_set(err, PT_EUSAGE,
                           "probe: engine %s keeps out-of-line data in its "
                           "buffer pool; the probe measures the built-in "
                           "store's LOB area (DB2's semantics)",
                           p->engine->name);
        if (PROBE_LOB_A <= cfg->small_max_bytes ||
            PROBE_LOB_B > cfg->large_max_bytes)
            return err_set(err, PT_EUSAGE,
                           "probe: %u and %u bytes are not both out of the "
                           "row at %u-byte pages",
                           PROBE_LOB_A, PROBE_LOB_B, cfg->page_size_bytes);
        cfg->lob_io = (enum store_lob_io)io;
        r->st[r->n].size[0] = PROBE_LOB_A;
        r->st[r->n].size[1] = PROBE_LOB_B;
        for (int op = 0; op < STORE_PROBE_N_OPS; op++)
            r->st[r->n].line[op] = &out->lob[io][op];
        r->n++;
    }
    return 0;
}

int store_probe_run(const struct store_probe_opts *o, struct store_probe *out,
                    struct pt_err *err)
{
    struct probe_run r;
    struct store_plan p;
    struct store_config cfgs[PROBE_MAX_STORES];
    char dir[4096];
    const char *parent;
    int slot = -1, ret;
    uint64_t t0 = pt_now_ns();

    memset(out, 0, sizeof(*out));
    memset(&r, 0, sizeof(r));
    dir[0] = '\0';
    if (!o->engine)
        return err_set(err, PT_EUSAGE, "probe: no engine");
    if (o->rounds < 2 || o->rounds > STORE_MAX_ROUNDS || o->ops < 1 ||
        o->sessions < 2)
        return err_set(err, PT_EUSAGE,
                       "probe: rounds must be 2..%d, ops and sessions > 1",
                       STORE_MAX_ROUNDS);
    r.o = o;
    r.rng = 0x9e3779b97f4a7c15u;
    probe_plan(o, &p);
    if ((ret = probe_layout(&r, &p, out, cfgs, err)) < 0)
        return ret;
    for (size_t s = 0; s < r.n; s++)
        for (int k = 0; k < 2; k++)
            if (r.st[s].size[k] > r.max_bytes)
                r.max_bytes = r.st[s].size[k];
    r.payload = pt_malloc((size_t)r.max_bytes + PROBE_SLIDE);
    r.samples =
        pt_calloc(r.n * 2 * STORE_PROBE_N_OPS * o->rounds, sizeof(double));
    r.frames =
        pt_calloc(r.n * 2 * STORE_PROBE_N_OPS * o->rounds, sizeof(double));
    r.ckpt_us =
        pt_calloc(r.n * 2 * STORE_PROBE_N_OPS * o->rounds, sizeof(double));
    if (!r.payload || !r.samples || !r.frames || !r.ckpt_us) {
        ret = err_set(err, PT_EINTERNAL, "out of memory");
        goto out;
    }
    for (size_t i = 0; i < (size_t)r.max_bytes + PROBE_SLIDE; i++)
        r.payload[i] = (unsigned char)probe_rand(&r);

    /* where the replay puts its stores: on disk, so direct I/O is real */
    parent = o->store_dir;
    if (!parent) {
        parent = getenv("TMPDIR");
        if (!parent || !*parent)
            parent = "/tmp";
        if (lob_direct_supported(parent) == 0 &&
            lob_direct_supported("/var/tmp") == 1)
            parent = "/var/tmp";
    }
    if ((ret = pt_tmpdir_make_in(parent, "probe", dir, sizeof(dir), &slot,
                                 err)) < 0)
        goto out;
    out->lob_direct = lob_direct_supported(dir) == 1;
    if (!out->lob_direct)
        cfgs[r.n - 1].lob_io = STORE_LOB_CACHED;
    for (size_t s = 0; s < r.n; s++)
        if ((ret = probe_store_open(&r, s, dir, &cfgs[s], err)) < 0)
            goto out;
    r.cells_total = (uint64_t)r.n * 2 * STORE_PROBE_N_OPS * o->rounds;
    probe_progress(&r);
    /* one unmeasured round warms every store's cache, then the rounds */
    if ((ret = probe_round(&r, 0, 0, err)) < 0)
        goto out;
    for (unsigned round = 0; round < o->rounds; round++)
        if ((ret = probe_round(&r, round, 1, err)) < 0)
            goto out;
    probe_checkpoints(&r, out);
    probe_sum(&r);

    store_probe_identity(out);
    snprintf(out->engine, sizeof(out->engine), "%s",
             o->engine_name ? o->engine_name : o->engine->name);
    out->cache_bytes = o->cache_bytes;
    out->sync = o->sync;
    out->rounds = o->rounds;
    out->ops = o->ops;
    out->sessions = o->sessions;
    store_probe_fs_name(dir, out->store_fs, sizeof(out->store_fs));
    out->measured_s = (int64_t)time(NULL);
    out->elapsed_s = (double)(pt_now_ns() - t0) / 1e9;
out:
    for (size_t s = 0; s < r.n; s++)
        store_close(r.st[s].s);
    if (dir[0])
        pt_tmpdir_remove(dir, slot);
    free(r.payload);
    free(r.samples);
    free(r.frames);
    free(r.ckpt_us);
    return ret < 0 ? ret : 0;
}
