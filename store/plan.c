/* SPDX-License-Identifier: Apache-2.0 */
/*
 * plan.c — a plan of replays: one fresh store per page size in a store
 * directory, each opened and warmed up, then all measured in interleaved
 * rounds (store_replay_open/pass/finish, replay.c), with the WebSphere
 * placement limits taken from the engine's page-fit rules (model/).
 * Manages the directory (a temporary one registered for removal on
 * interrupt), its lock (flock(2) on DIR/.pagetune.lock, holding the
 * owner's pid, so two replays never share a store directory), the store
 * files (registered from their creation to the end of the run: an
 * interrupted run removes every store it created, kept or not, so the next
 * run starts clean) and the ack log. The front door is cli/cmd_replay.c; the
 * document of the result is in plan_json.c.
 */
#define _GNU_SOURCE /* syncfs(2) */
#include <errno.h>
#include <math.h>
#include <fcntl.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "model/model.h"
#include "store/lob.h"
#include "store/store.h"

/* enum store_sync order; NULL-terminated for the CLI's --sync choices */
const char *const store_sync_names[] = {"off", "normal", "full", NULL};

const char *store_sync_name(enum store_sync s)
{
    return (unsigned)s < 3 ? store_sync_names[s] : "normal";
}

int store_sync_parse(const char *name)
{
    for (int i = 0; store_sync_names[i]; i++)
        if (strcmp(name, store_sync_names[i]) == 0)
            return i;
    return -1;
}

void store_plan_init(struct store_plan *p)
{
    memset(p, 0, sizeof(*p));
    p->page_sizes[0] = 4096;
    p->page_sizes[1] = 8192;
    p->page_sizes[2] = 16384;
    p->page_sizes[3] = 32768;
    p->n_page_sizes = 4;
    p->cache_bytes = 2u << 20;
    p->n_clients = 1;
    p->sync = STORE_SYNC_NORMAL;
    p->engine_name = "db2";
    p->warmup_rounds = 1;
    p->rounds = 5;
    p->tight_rel = 0.02;
    for (size_t i = 0; i < STORE_MAX_PAGE_SIZES; i++)
        p->lob_io_page[i] = -1;
}

/* ---- configurations ----------------------------------------------------- */

/* The LOB area I/O asked for page size i: its own, else the plan's. */
static enum store_lob_io plan_lob_io(const struct store_plan *p, size_t i)
{
    return p->lob_io_page[i] >= 0 ? (enum store_lob_io)p->lob_io_page[i]
                                  : p->lob_io;
}

/* The store configuration of page size i: the engine's rule at that size
 * gives SMALL's length; MEDIUM and LARGE are the engine's out-of-line
 * columns in order (DB2: LONG VARCHAR, then BLOB). */
static void page_config(const struct store_plan *p, size_t i,
                        const struct rec_page_rule *rule,
                        struct store_config *cfg)
{
    const struct rec_engine *e = p->engine;

    store_config_init(cfg);
    cfg->page_size_bytes = rule->page_size_bytes;
    cfg->cache_bytes = p->cache_bytes;
    cfg->sync = p->sync;
    /* WebSphere: SMALL if n <= s, else the outline columns in order */
    cfg->small_max_bytes = rule->inline_limit_bytes;
    cfg->medium_max_bytes = cfg->small_max_bytes;
    cfg->large_max_bytes = cfg->small_max_bytes;
    if (e->n_outline >= 1)
        cfg->medium_max_bytes = (uint32_t)e->outline[0].max_bytes;
    cfg->large_max_bytes =
        e->n_outline >= 2 ? e->outline[1].max_bytes : cfg->medium_max_bytes;
    /* The engine's storage semantics: out-of-line data outside the buffer
     * pool (DB2) gets the LOB area; buffered engines (SQLite) keep it in
     * the row's overflow pages. SQLite's page is the candidate's, so that
     * a row DB2 keeps in one page is one page access. DB2 logs records,
     * not pages: a store with a LOB area has a record log, and with one
     * client (the store's one writer) SQLite writes a page once for many
     * updates, as Db2's page cleaners do (docs/models.md "Logging"). */
    cfg->lob_area = !e->outline_buffered && e->n_outline > 0;
    cfg->deferred_writes = cfg->lob_area && p->n_clients == 1;
    if (p->max_store_bytes)
        cfg->max_pages = p->max_store_bytes / rule->page_size_bytes;
    if (p->max_store_bytes && cfg->max_pages == 0)
        cfg->max_pages = 1;
    cfg->lob_io = plan_lob_io(p, i);
    cfg->max_lob_bytes = p->max_store_bytes;
}

/* The engine's rule for page size i, checked; PT_EUSAGE if it has none. */
static int page_rule(const struct store_plan *p, size_t i,
                     const struct rec_page_rule **out, struct pt_err *err)
{
    const struct rec_page_rule *rule = NULL;
    char list[256], sz[32];

    if (p->page_sizes[i] <= UINT32_MAX)
        rule = rec_engine_page(p->engine, (uint32_t)p->page_sizes[i]);
    if (!rule || !store_page_size_valid(rule->page_size_bytes))
        return err_set(err, PT_EUSAGE,
                       "`page_size`: %s is not a page size of engine %s "
                       "(allowed: %s)",
                       pt_size_format(p->page_sizes[i], sz, sizeof(sz)),
                       p->engine->name,
                       rec_engine_page_list(p->engine, list, sizeof(list)));
    for (size_t j = 0; j < i; j++)
        if (p->page_sizes[j] == p->page_sizes[i])
            return err_set(err, PT_EUSAGE, "`page_size`: %s given twice",
                           pt_size_format(p->page_sizes[i], sz, sizeof(sz)));
    *out = rule;
    return 0;
}

int store_plan_page_config(const struct store_plan *p, size_t i,
                           struct store_config *cfg, struct pt_err *err)
{
    const struct rec_page_rule *rule;
    int ret;

    if (!p->engine)
        return err_set(err, PT_EUSAGE, "a replay needs an engine");
    if ((ret = page_rule(p, i, &rule, err)) < 0)
        return ret;
    page_config(p, i, rule, cfg);
    return 0;
}

int store_plan_check(const struct store_plan *p, struct pt_err *err)
{
    const struct rec_page_rule *rule;
    int ret;

    if (!p->engine)
        return err_set(err, PT_EUSAGE, "a replay needs an engine");
    if (p->n_page_sizes > STORE_MAX_PAGE_SIZES)
        return err_set(err, PT_EUSAGE, "`page_size`: at most %d page sizes",
                       STORE_MAX_PAGE_SIZES);
    for (size_t i = 0; i < p->n_page_sizes; i++)
        if ((ret = page_rule(p, i, &rule, err)) < 0)
            return ret;
    return 0;
}

/* ---- the store directory ------------------------------------------------ */

struct store_dir {
    char path[4096];
    int created; /* we made it: remove it at the end unless keep */
    int slot;    /* pt_tmpdir_register slot: an interrupt removes it */
};

/* The temporary store directory: in $TMPDIR (else /tmp); with on_disk, in
 * /var/tmp when that is memory (tmpfs) and /var/tmp is not — the FHS's
 * place for temporary files kept on disk — so direct I/O reaches a
 * device. */
static int store_dir_temp(struct store_dir *d, int on_disk, struct pt_err *err)
{
    const char *tmp = getenv("TMPDIR");
    int rc;

    if (!tmp || !*tmp)
        tmp = "/tmp";
    if (on_disk && lob_direct_supported(tmp) == 0 &&
        lob_direct_supported("/var/tmp") == 1)
        tmp = "/var/tmp";
    /* marked and locked: a run killed by SIGKILL leaves it to the next */
    rc = pt_tmpdir_make_in(tmp, "replay", d->path, sizeof(d->path), &d->slot,
                           err);
    if (rc < 0)
        return rc;
    d->created = 1;
    return 0;
}

static int store_dir_prepare(struct store_dir *d, const char *want, int on_disk,
                             struct pt_err *err)
{
    struct stat st;

    memset(d, 0, sizeof(*d));
    d->slot = -1;
    if (!want)
        return store_dir_temp(d, on_disk, err);
    if (strlen(want) >= sizeof(d->path) - 32)
        return err_set(err, PT_ECANTCREAT, "`store_dir`: path too long");
    snprintf(d->path, sizeof(d->path), "%s", want);
    if (stat(want, &st) == 0) {
        if (!S_ISDIR(st.st_mode))
            return err_set(err, PT_ECANTCREAT,
                           "`store_dir` '%s' is not a directory", want);
        if (access(want, W_OK | X_OK) != 0)
            return err_set(err, PT_ECANTCREAT,
                           "cannot write store directory '%s': %s", want,
                           strerror(errno));
        return 0;
    }
    if (mkdir(want, 0777) != 0)
        return err_set(err, PT_ECANTCREAT,
                       "cannot create store directory '%s': %s", want,
                       strerror(errno));
    d->created = 1;
    return 0;
}

/*
 * The store directory's lock: DIR/.pagetune.lock, flock(2)ed exclusively
 * for the whole run and holding the owner's pid for the message of the
 * one that finds it taken (PT_ECANTCREAT, 73). The file is unlinked while
 * still locked at the end; a locker that got the old, unlinked file finds
 * its inode gone from the path and tries again.
 */
#define LOCK_NAME ".pagetune.lock"

struct dir_lock {
    int fd;
    int slot; /* pt_tmpfile_register: a hard exit removes the file */
    char path[4200];
};

static int lock_holder(const char *path, char *buf, size_t len)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    ssize_t n = fd < 0 ? -1 : read(fd, buf, len - 1);

    if (fd >= 0)
        close(fd);
    if (n <= 0)
        return -1;
    buf[n] = '\0';
    buf[strcspn(buf, "\n")] = '\0';
    return 0;
}

static int dir_lock_take(struct dir_lock *l, const char *dir,
                         struct pt_err *err)
{
    char pid[32] = "", line[32];
    struct stat a, b;

    l->fd = -1;
    l->slot = -1;
    snprintf(l->path, sizeof(l->path), "%s/%s", dir, LOCK_NAME);
    for (int tries = 0; tries < 10; tries++) {
        l->fd = open(l->path, O_RDWR | O_CREAT | O_CLOEXEC, 0666);
        if (l->fd < 0)
            return err_set(err, PT_ECANTCREAT,
                           "cannot create the lock '%s': %s", l->path,
                           strerror(errno));
        if (flock(l->fd, LOCK_EX | LOCK_NB) != 0) {
            int e = errno;
            close(l->fd);
            l->fd = -1;
            if (e != EWOULDBLOCK)
                return err_set(err, PT_ECANTCREAT, "cannot lock '%s': %s",
                               l->path, strerror(e));
            if (lock_holder(l->path, pid, sizeof(pid)) < 0 || !pid[0])
                snprintf(pid, sizeof(pid), "unknown");
            return err_set(err, PT_ECANTCREAT,
                           "store directory '%s' is in use by another "
                           "replay (pid %s; lock %s)",
                           dir, pid, l->path);
        }
        /* locked: is it still the file at the path? */
        if (fstat(l->fd, &a) == 0 && stat(l->path, &b) == 0 &&
            a.st_dev == b.st_dev && a.st_ino == b.st_ino)
            break;
        close(l->fd);
        l->fd = -1;
    }
    if (l->fd < 0)
        return err_set(err, PT_ECANTCREAT,
                       "cannot lock '%s': it keeps "
                       "changing",
                       l->path);
    snprintf(line, sizeof(line), "%ld\n", (long)getpid());
    if (ftruncate(l->fd, 0) != 0 ||
        pwrite(l->fd, line, strlen(line), 0) != (ssize_t)strlen(line)) {
        int e = errno;
        unlink(l->path);
        close(l->fd);
        l->fd = -1;
        return err_set(err, PT_ECANTCREAT, "cannot write the lock '%s': %s",
                       l->path, strerror(e));
    }
    l->slot = pt_tmpfile_register(l->path);
    return 0;
}

static void dir_lock_release(struct dir_lock *l)
{
    if (l->fd < 0)
        return;
    unlink(l->path);
    pt_tmpfile_unregister(l->slot);
    close(l->fd); /* drops the lock */
    l->fd = -1;
    l->slot = -1;
}

/* A store's files: the database, its WAL side files, its LOB area and its
 * record log. */
#define STORE_N_FILES 5
static const char *const store_file_sfx[STORE_N_FILES] = {"", "-wal", "-shm",
                                                          "-lob", "-log"};

/* The store file of a page size in directory dir, into buf[len]: 0 or -1. */
static int store_file_path(char *buf, size_t len, const char *dir,
                           uint64_t page_size_bytes)
{
    char sz[32];

    pt_size_format(page_size_bytes, sz, sizeof(sz));
    return (size_t)snprintf(buf, len, "%s/store-%s.db", dir, sz) < len ? 0 : -1;
}

int store_plan_file(const struct store_plan *p, size_t k, char *buf, size_t len,
                    struct pt_err *err)
{
    size_t n = p->n_page_sizes * STORE_N_FILES;
    char db[4200];

    if (!p->store_dir || k > n)
        return 1;
    if (k == n) {
        if ((size_t)snprintf(buf, len, "%s/%s", p->store_dir, LOCK_NAME) >= len)
            return err_set(err, PT_EINTERNAL, "`store_dir`: path too long");
        return 0;
    }
    if (store_file_path(db, sizeof(db), p->store_dir,
                        p->page_sizes[k / STORE_N_FILES]) < 0 ||
        (size_t)snprintf(buf, len, "%s%s", db,
                         store_file_sfx[k % STORE_N_FILES]) >= len)
        return err_set(err, PT_EINTERNAL, "`store_dir`: path too long");
    return 0;
}

/* Remove a store file and its side files. */
static void store_files_remove(const char *db)
{
    char side[4300];

    for (int k = 0; k < STORE_N_FILES; k++)
        if (snprintf(side, sizeof(side), "%s%s", db, store_file_sfx[k]) <
            (int)sizeof(side))
            unlink(side);
}

/* syncfs(2) the file system of dir; best effort (a failure only leaves
 * the write-back to the kernel's timing). */
static void dir_syncfs(const char *dir)
{
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

    if (fd < 0)
        return;
    (void)syncfs(fd);
    close(fd);
}

/* ---- the run ------------------------------------------------------------ */

/* What one run holds while it goes. */
struct plan_run {
    const struct store_plan *p;
    const struct store_trace *t;
    struct store_trace own;  /* when the run loaded the trace */
    struct store_trace view; /* the first max_records records of *t: a
                                borrowed view, never released */
    struct store_dir dir;
    int have_dir;
    struct dir_lock lock; /* held while the run uses dir */
    int ack_fd;
    int no_direct;         /* the directory refuses O_DIRECT: cached instead */
    uint64_t t0_ns;        /* the plan's start */
    uint64_t trial_t0_ns;  /* the trial's start */
    double trial_budget_s; /* the trial's share of the budget (0: none) */
    uint64_t work_t0_ns;   /* the first store's creation */
    struct store_plan_work work; /* the running total for `work` */
    uint64_t pass_base;          /* records of the stage's earlier passes */
    struct store_config cfg[STORE_MAX_PAGE_SIZES];
    struct store_replay_opts o[STORE_MAX_PAGE_SIZES];
    struct store_replay *rep[STORE_MAX_PAGE_SIZES];
    char path[STORE_MAX_PAGE_SIZES][4200];
    double rps[STORE_MAX_PAGE_SIZES][STORE_MAX_ROUNDS];
    /* the stores this run created (an existing one is refused, never
       removed), each registered with its side files from its creation to
       the end of the run, so a second signal removes them too */
    int created[STORE_MAX_PAGE_SIZES];
    int slot[STORE_MAX_PAGE_SIZES][STORE_N_FILES];
};

/* Register store i's files for removal on a hard exit (a second signal);
 * a slot stays -1 when the table is full. */
static void store_register(struct plan_run *run, size_t i)
{
    char path[4300];

    run->created[i] = 1;
    for (int k = 0; k < STORE_N_FILES; k++) {
        run->slot[i][k] = -1;
        if (snprintf(path, sizeof(path), "%s%s", run->path[i],
                     store_file_sfx[k]) < (int)sizeof(path))
            run->slot[i][k] = pt_tmpfile_register(path);
    }
}

static void store_unregister(struct plan_run *run, size_t i)
{
    for (int k = 0; k < STORE_N_FILES; k++) {
        pt_tmpfile_unregister(run->slot[i][k]);
        run->slot[i][k] = -1;
    }
}

static int ack_open(struct plan_run *run, struct pt_err *err)
{
    const struct store_plan *p = run->p;
    int flags = O_WRONLY | O_CREAT | O_APPEND | (p->force ? 0 : O_EXCL);

    if (!p->ack_log)
        return 0;
    run->ack_fd = open(p->ack_log, flags, 0666);
    if (run->ack_fd < 0)
        return err_set(err, PT_ECANTCREAT, "cannot create `ack_log` '%s': %s%s",
                       p->ack_log, strerror(errno),
                       errno == EEXIST ? " (use `force`)" : "");
    return 0;
}

/* The ack log's header line for the store about to be replayed (before
 * every pass: with interleaved rounds the stores take turns). */
static int ack_header(struct plan_run *run, uint32_t page_size,
                      const char *path, struct pt_err *err)
{
    char line[4300];
    int n;

    if (run->ack_fd < 0)
        return 0;
    n = snprintf(line, sizeof(line), "# page_size %u store %s\n", page_size,
                 path);
    if (write(run->ack_fd, line, (size_t)n) != n)
        return err_set(err, PT_EIO, "cannot write `ack_log` '%s': %s",
                       run->p->ack_log, strerror(errno));
    return 0;
}

/* Tell the plan's `work` hook where the run is. */
static void work_report(struct plan_run *run)
{
    const struct store_plan *p = run->p;
    uint64_t now = pt_now_ns();

    run->work.elapsed_s = (double)(now - run->work_t0_ns) / 1e9;
    run->work.budget_used_s = (double)(now - run->t0_ns) / 1e9;
    if (p->work)
        p->work(p->ctx, &run->work);
}

static void work_stage(struct plan_run *run, enum store_stage stage,
                       uint64_t phase_total)
{
    store_plan_work_stage(&run->work, stage, phase_total);
    run->pass_base = 0;
    work_report(run);
}

/* store_replay_opts.load_progress: the sessions loaded */
static void work_load(void *ctx, uint64_t done, uint64_t total)
{
    struct plan_run *run = ctx;

    (void)total;
    store_plan_work_update(&run->work, done);
    work_report(run);
}

/* store_replay_opts.progress: the operations of the pass under way */
static void work_pass(void *ctx, uint64_t done, uint64_t total)
{
    struct plan_run *run = ctx;
    const struct store_plan *p = run->p;

    if (p->progress)
        p->progress(p->ctx, done, total);
    store_plan_work_update(&run->work, run->pass_base + done);
    work_report(run);
}

/* One pass of page size i (measured or a warm-up). */
static int page_pass(struct plan_run *run, size_t i, int measured, double *rps,
                     struct pt_err *err)
{
    int ret = ack_header(run, run->cfg[i].page_size_bytes, run->path[i], err);
    if (ret == 0)
        ret = store_replay_pass(run->rep[i], measured, rps, err);
    run->pass_base += run->t->n_reqs;
    return ret;
}

/* Create, load and warm up the store of page size i. */
static int page_open(struct plan_run *run, size_t i, struct pt_err *err)
{
    const struct store_plan *p = run->p;
    const struct rec_page_rule *rule;
    struct store_config *cfg = &run->cfg[i];
    struct store_replay_opts *o = &run->o[i];
    int ret;

    if ((ret = page_rule(p, i, &rule, err)) < 0)
        return ret;
    page_config(p, i, rule, cfg);
    if (run->no_direct)
        cfg->lob_io = STORE_LOB_CACHED;
    if (store_file_path(run->path[i], sizeof(run->path[i]), run->dir.path,
                        cfg->page_size_bytes) < 0)
        return err_set(err, PT_ECANTCREAT, "`store_dir`: path too long");
    if (p->force)
        store_files_remove(run->path[i]);
    store_replay_opts_init(o);
    o->n_clients = p->n_clients;
    o->ack_fd = run->ack_fd;
    o->progress = work_pass;
    o->load_progress = work_load;
    o->progress_ctx = run;
    o->think_ms = p->think_ms;
    if (i == 0)
        run->work_t0_ns = pt_now_ns();
    run->work.page_size_bytes = cfg->page_size_bytes;
    work_stage(run, STORE_STAGE_LOAD, run->t->n_keys);
    /* only a store this run creates (an existing one is refused) */
    if (access(run->path[i], F_OK) != 0)
        store_register(run, i);
    ret = store_replay_open(run->t, run->path[i], cfg, o, &run->rep[i], err);
    /* the load's dirty pages reach the disk now, not during the rounds,
       where their write-back would fall on whichever pass was running
       (syncfs(2): the store directory's file system only) */
    if (ret == 0)
        dir_syncfs(run->dir.path);
    if (ret == 0)
        work_stage(run, STORE_STAGE_WARMUP,
                   (uint64_t)p->warmup_rounds * run->t->n_reqs);
    for (unsigned w = 0; ret == 0 && w < p->warmup_rounds; w++)
        ret = page_pass(run, i, 0, NULL, err);
    return ret;
}

/* The difference of page size i against the first, round by round. */
static void page_diff(struct plan_run *run, size_t i, unsigned n,
                      struct store_replay_result *r)
{
    double d[STORE_MAX_ROUNDS];
    unsigned m = 0;

    for (unsigned k = 0; k < n; k++)
        if (run->rps[0][k] > 0)
            d[m++] = run->rps[i][k] / run->rps[0][k] - 1.0;
    store_mean_ci95(d, m, &r->diff_mean, &r->diff_lo, &r->diff_hi);
}

/* Stop measuring after n rounds? Sets res->stopped. */
static int rounds_done(struct plan_run *run, unsigned n, double round_s,
                       struct store_plan_result *res)
{
    const struct store_plan *p = run->p;
    unsigned max = store_plan_max_rounds(p);
    double used_s = (double)(pt_now_ns() - run->trial_t0_ns) / 1e9;
    int tight = n >= 3;

    for (size_t i = 1; i < p->n_page_sizes && tight; i++) {
        struct store_replay_result r;
        page_diff(run, i, n, &r);
        tight = (r.diff_hi - r.diff_lo) / 2 < p->tight_rel;
    }
    if (p->budget_s > 0 && tight) {
        snprintf(res->stopped, sizeof(res->stopped), "tight");
        return 1;
    }
    if (n >= max) {
        snprintf(res->stopped, sizeof(res->stopped), "rounds");
        return 1;
    }
    if (p->budget_s > 0 && n >= 2 && used_s + round_s > run->trial_budget_s) {
        snprintf(res->stopped, sizeof(res->stopped), "budget");
        return 1;
    }
    return 0;
}

/* Measured rounds over every page size, alternating the order. */
static int run_rounds(struct plan_run *run, struct store_plan_result *res,
                      struct pt_err *err)
{
    const struct store_plan *p = run->p;
    size_t n = p->n_page_sizes;
    unsigned max = store_plan_max_rounds(p);
    int ret = 0;

    for (unsigned k = 0; k < max; k++) {
        uint64_t t0 = pt_now_ns();
        work_stage(run, STORE_STAGE_ROUND, run->t->n_reqs * n);
        for (size_t j = 0; j < n && ret == 0; j++) {
            size_t i = k % 2 == 0 ? j : n - 1 - j;
            ret = page_pass(run, i, 1, &run->rps[i][k], err);
        }
        if (ret < 0)
            return ret;
        res->n_rounds = k + 1;
        if (rounds_done(run, k + 1, (double)(pt_now_ns() - t0) / 1e9, res))
            break;
    }
    return 0;
}

/* Sum page size i's rounds into its result and close its store (its files
 * go at the end of the run unless kept). */
static int page_finish(struct plan_run *run, size_t i,
                       struct store_plan_result *res, struct pt_err *err)
{
    const struct store_plan *p = run->p;
    struct store_replay_result *r = &res->results[i];
    int ret;

    if (p->page_begin)
        p->page_begin(p->ctx, run->cfg[i].page_size_bytes, run->t->n_reqs);
    ret = store_replay_finish(run->rep[i], r, err);
    r->lob_io = run->cfg[i].lob_io;
    r->lob_io_fallback =
        run->no_direct && plan_lob_io(p, i) == STORE_LOB_DIRECT;

    store_replay_close(run->rep[i]);
    run->rep[i] = NULL;
    if (ret == 0) {
        if (i > 0)
            page_diff(run, i, res->n_rounds, r);
        free(res->store_paths[i]); /* an earlier trial's */
        res->store_paths[i] = NULL;
        if (p->keep && !(res->store_paths[i] = pt_strdup(run->path[i])))
            ret = err_set(err, PT_EINTERNAL, "out of memory");
    }
    if (p->page_end)
        p->page_end(p->ctx, ret == 0 ? r : NULL);
    return ret;
}

static int result_init(const struct store_plan *p,
                       struct store_plan_result *res, struct pt_err *err)
{
    memset(res, 0, sizeof(*res));
    res->cache_bytes = p->cache_bytes;
    res->n_clients = p->n_clients;
    res->sync = p->sync;
    res->lob_io = p->lob_io;
    res->think_ms = p->think_ms;
    res->warmup_rounds = p->warmup_rounds;
    res->budget_s = p->budget_s;
    res->tight_rel = p->tight_rel;
    res->trace = pt_strdup(p->trace_path ? p->trace_path : "-");
    res->engine = pt_strdup(p->engine_name ? p->engine_name
                            : p->engine    ? p->engine->name
                                           : "");
    if (!res->trace || !res->engine)
        return err_set(err, PT_EINTERNAL, "out of memory");
    return 0;
}

/* Trace, ack log and directory, in this order (nothing is created before
 * the whole trace has been read and validated). */
static int run_prepare(struct plan_run *run, struct pt_err *err)
{
    const struct store_plan *p = run->p;
    int ret, direct = 0;

    if (!run->t) {
        if ((ret = store_trace_load_as(&run->own, p->trace_path,
                                       p->trace_format, err)) < 0)
            return ret;
        run->t = &run->own;
    }
    if (p->max_records && p->max_records < run->t->n_reqs) {
        run->view = *run->t;
        run->view.n_reqs = p->max_records;
        run->t = &run->view;
    }
    if ((ret = ack_open(run, err)) < 0)
        return ret;
    for (size_t i = 0; i < p->n_page_sizes; i++)
        direct |= plan_lob_io(p, i) == STORE_LOB_DIRECT;
    if ((ret = store_dir_prepare(&run->dir, p->store_dir, direct, err)) < 0)
        return ret;
    run->have_dir = 1;
    run->no_direct =
        p->lob_direct_fallback && lob_direct_supported(run->dir.path) == 0;
    /* before any store file is touched (--force removes old ones) */
    if (p->store_dir &&
        (ret = dir_lock_take(&run->lock, run->dir.path, err)) < 0)
        return ret;
    if (p->ready)
        p->ready(p->ctx, run->t);
    return 0;
}

/* After a failure: the stores opened so far are closed (store_plan_run
 * then removes the files of those it created, unless kept). */
static void run_abandon(struct plan_run *run, size_t n_open)
{
    const struct store_plan *p = run->p;

    for (size_t i = 0; i < n_open; i++) {
        store_replay_close(run->rep[i]);
        run->rep[i] = NULL;
    }
    if (p->page_end)
        p->page_end(p->ctx, NULL);
}

/* The end of a run: every store it created is closed and removed unless
 * kept; an interrupted run writes no result, so none of its stores stays
 * (kept ones included) and the next run does not find them (73). The
 * cleanup registrations go after the files. */
static void run_stores_end(struct plan_run *run, int ret,
                           struct store_plan_result *res)
{
    const struct store_plan *p = run->p;

    for (size_t i = 0; i < STORE_MAX_PAGE_SIZES; i++) {
        store_replay_close(run->rep[i]);
        run->rep[i] = NULL;
        if (run->created[i] && (!p->keep || ret == PT_EINTR))
            store_files_remove(run->path[i]);
        if (ret == PT_EINTR) {
            free(res->store_paths[i]);
            res->store_paths[i] = NULL;
        }
        store_unregister(run, i);
    }
}

/* ---- trials -------------------------------------------------------------- */

/* What the trials leave for the result: each page size's mean difference
 * and rounds per trial. */
struct trial_tally {
    double diff[STORE_MAX_PAGE_SIZES][STORE_MAX_TRIALS];
    double rps[STORE_MAX_PAGE_SIZES][STORE_MAX_ROUNDS];
    unsigned n_rounds;
};

/* Before the next trial: the stores of this one go (closed already by
 * page_finish), so the next trial creates, loads and warms fresh files. */
static void trial_reset(struct plan_run *run)
{
    for (size_t i = 0; i < STORE_MAX_PAGE_SIZES; i++) {
        if (run->created[i])
            store_files_remove(run->path[i]);
        store_unregister(run, i);
        run->created[i] = 0;
    }
}

/* Keep trial tr's differences and rounds. */
static void trial_keep(struct plan_run *run, struct store_plan_result *res,
                       unsigned tr, struct trial_tally *t)
{
    const struct store_plan *p = run->p;

    for (size_t i = 0; i < p->n_page_sizes; i++) {
        const struct store_replay_result *r = &res->results[i];
        t->diff[i][tr] = r->diff_mean;
        for (unsigned k = 0;
             k < r->n_rounds && t->n_rounds + k < STORE_MAX_ROUNDS; k++)
            t->rps[i][t->n_rounds + k] = r->round_rps[k];
    }
    t->n_rounds += res->n_rounds;
    if (t->n_rounds > STORE_MAX_ROUNDS)
        t->n_rounds = STORE_MAX_ROUNDS;
}

/* With trials: every round in the result, and each page size's interval
 * from the trials' mean differences (store.h, store_plan.trials). The
 * other figures (latencies, space, counts) are the last trial's. */
static void trials_sum(struct plan_run *run, struct store_plan_result *res,
                       unsigned trials, const struct trial_tally *t)
{
    const struct store_plan *p = run->p;

    res->trials = trials;
    if (trials < 2)
        return;
    res->n_rounds = t->n_rounds;
    for (size_t i = 0; i < p->n_page_sizes; i++) {
        struct store_replay_result *r = &res->results[i];
        r->n_rounds = t->n_rounds;
        memcpy(r->round_rps, t->rps[i], sizeof(double) * t->n_rounds);
        if (i > 0)
            store_mean_ci95(t->diff[i], trials, &r->diff_mean, &r->diff_lo,
                            &r->diff_hi);
    }
}

int store_plan_run(const struct store_plan *p, struct store_plan_result *res,
                   struct pt_err *err)
{
    struct plan_run *run;
    struct trial_tally tally;
    size_t n_open = 0;
    unsigned trials = p->trials ? p->trials : 1;
    int ret;

    memset(&tally, 0, sizeof(tally));
    memset(res, 0, sizeof(*res)); /* releasable whatever happens next */
    if (trials > STORE_MAX_TRIALS)
        return err_set(err, PT_EUSAGE, "`trials`: at most %d",
                       STORE_MAX_TRIALS);
    run = pt_calloc(1, sizeof(*run));
    if (!run)
        return err_set(err, PT_EINTERNAL, "out of memory");
    run->p = p;
    run->t = p->trace;
    run->ack_fd = -1;
    run->t0_ns = pt_now_ns();
    run->lock.fd = -1;
    run->lock.slot = -1;
    for (size_t i = 0; i < STORE_MAX_PAGE_SIZES; i++)
        for (int k = 0; k < STORE_N_FILES; k++)
            run->slot[i][k] = -1;
    if ((ret = result_init(p, res, err)) < 0 ||
        (ret = store_plan_check(p, err)) < 0)
        goto out;
    if ((ret = run_prepare(run, err)) < 0)
        goto out;
    for (unsigned tr = 0; tr < trials && ret == 0; tr++) {
        double used_s = (double)(pt_now_ns() - run->t0_ns) / 1e9;
        if (tr > 0)
            trial_reset(run);
        run->trial_t0_ns = pt_now_ns();
        run->trial_budget_s =
            p->budget_s > 0 ? fmax(p->budget_s - used_s, 0) / (trials - tr) : 0;
        store_plan_work_init(&run->work, p, run->t->n_reqs, run->t->n_keys);
        for (n_open = 0; n_open < p->n_page_sizes && ret == 0; n_open++)
            ret = page_open(run, n_open, err);
        if (ret == 0)
            ret = run_rounds(run, res, err);
        if (ret < 0) {
            run_abandon(run, n_open);
            goto out;
        }
        work_stage(run, STORE_STAGE_FINISH, p->n_page_sizes);
        for (size_t i = 0; i < p->n_page_sizes && ret == 0; i++) {
            ret = page_finish(run, i, res, err);
            store_plan_work_update(&run->work, i + 1);
            work_report(run);
        }
        if (ret == 0)
            trial_keep(run, res, tr, &tally);
    }
    if (ret == 0) {
        res->n_results = p->n_page_sizes;
        trials_sum(run, res, trials, &tally);
    }
    res->elapsed_s = (double)(pt_now_ns() - run->t0_ns) / 1e9;
out:
    if (run->work_t0_ns) /* a store was begun: the display clears */
        work_stage(run, STORE_STAGE_DONE, 0);
    run_stores_end(run, ret, res);
    dir_lock_release(&run->lock);
    if (run->ack_fd >= 0 && close(run->ack_fd) != 0 && ret == 0)
        ret = err_set(err, PT_EIO, "cannot write `ack_log` '%s': %s",
                      p->ack_log, strerror(errno));
    if (run->have_dir && run->dir.created && !p->keep)
        rmdir(run->dir.path);
    if (run->have_dir)
        pt_tmpdir_unregister(run->dir.slot);
    store_trace_release(&run->own);
    free(run);
    return ret;
}

/* ---- statistics --------------------------------------------------------- */

/* Student's t, two-sided 95 % (the 0.975 quantile), df = 1..30, from the
 * standard table (e.g. NIST/SEMATECH e-Handbook of Statistical Methods,
 * §1.3.6.7.2); past 30 the Cornish-Fisher expansion around z = 1.95996. */
static const double t975[30] = {
    12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
    2.201,  2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
    2.080,  2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042};

double store_t975(unsigned df)
{
    const double z = 1.959964;
    double n = (double)df;

    if (df == 0)
        return 0.0;
    if (df <= 30)
        return t975[df - 1];
    return z + (z * z * z + z) / (4 * n) +
           (5 * z * z * z * z * z + 16 * z * z * z + 3 * z) / (96 * n * n);
}

int store_mean_ci95(const double *x, unsigned n, double *mean, double *lo,
                    double *hi)
{
    double sum = 0, ss = 0, m;

    for (unsigned i = 0; i < n; i++)
        sum += x[i];
    m = n ? sum / n : 0.0;
    *mean = *lo = *hi = m;
    if (n < 2)
        return 0;
    for (unsigned i = 0; i < n; i++)
        ss += (x[i] - m) * (x[i] - m);
    double half = store_t975(n - 1) * sqrt(ss / (n - 1)) / sqrt((double)n);
    *lo = m - half;
    *hi = m + half;
    return 1;
}

void store_plan_result_release(struct store_plan_result *res)
{
    if (!res)
        return;
    free(res->trace);
    free(res->engine);
    for (size_t i = 0; i < STORE_MAX_PAGE_SIZES; i++)
        free(res->store_paths[i]);
    memset(res, 0, sizeof(*res));
}

const struct store_replay_result *
store_plan_result_find(const struct store_plan_result *res,
                       uint32_t page_size_bytes)
{
    for (size_t i = 0; i < res->n_results; i++)
        if (res->results[i].page_size_bytes == page_size_bytes)
            return &res->results[i];
    return NULL;
}
