/* SPDX-License-Identifier: Apache-2.0 */
/*
 * plan.c — a plan of replays: one fresh store per page size in a store
 * directory, each warmed up and replayed by store_replay_run (replay.c),
 * with the WebSphere placement limits taken from the engine's page-fit
 * rules (analyzers/). Manages the directory (a temporary one registered for
 * removal on interrupt), its lock (flock(2) on DIR/.pagetune.lock, holding
 * the owner's pid, so two replays never share a store directory), the
 * store files (registered while they are built: an interrupted run removes
 * every store it created, kept or not, so the next run starts clean) and
 * the ack log. The front door is cli/cmd_replay.c; the document of the
 * result is in plan_json.c.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analyzers/analyzers.h"
#include "store/store.h"

static const char *const sync_names[] = {"off", "normal", "full"};

const char *store_sync_name(enum store_sync s)
{
    return (unsigned)s < 3 ? sync_names[s] : "normal";
}

int store_sync_parse(const char *name)
{
    for (int i = 0; i < 3; i++)
        if (strcmp(name, sync_names[i]) == 0)
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
}

/* ---- configurations ----------------------------------------------------- */

/* The store configuration of page size i: the engine's rule at that size
 * gives SMALL's length; MEDIUM and LARGE are the engine's out-of-line
 * columns in order (DB2: LONG VARCHAR, then BLOB). */
static void page_config(const struct store_plan *p,
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
    if (p->max_store_bytes)
        cfg->max_pages = p->max_store_bytes / rule->page_size_bytes;
    if (p->max_store_bytes && cfg->max_pages == 0)
        cfg->max_pages = 1;
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
                       "--page-size: %s is not a page size of engine %s "
                       "(allowed: %s)",
                       pt_size_format(p->page_sizes[i], sz, sizeof(sz)),
                       p->engine->name,
                       rec_engine_page_list(p->engine, list, sizeof(list)));
    for (size_t j = 0; j < i; j++)
        if (p->page_sizes[j] == p->page_sizes[i])
            return err_set(err, PT_EUSAGE, "--page-size: %s given twice",
                           pt_size_format(p->page_sizes[i], sz, sizeof(sz)));
    *out = rule;
    return 0;
}

int store_plan_check(const struct store_plan *p, struct pt_err *err)
{
    const struct rec_page_rule *rule;
    int ret;

    if (!p->engine)
        return err_set(err, PT_EUSAGE, "a replay needs an engine");
    if (p->n_page_sizes > STORE_MAX_PAGE_SIZES)
        return err_set(err, PT_EUSAGE, "--page-size: at most %d page sizes",
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

static int store_dir_temp(struct store_dir *d, struct pt_err *err)
{
    const char *tmp = getenv("TMPDIR");

    snprintf(d->path, sizeof(d->path), "%s/pagetune-replay.XXXXXX",
             tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(d->path))
        return err_set(err, PT_ECANTCREAT,
                       "cannot create a temporary store directory '%s': %s",
                       d->path, strerror(errno));
    d->created = 1;
    d->slot = pt_tmpdir_register(d->path);
    return 0;
}

static int store_dir_prepare(struct store_dir *d, const char *want,
                             struct pt_err *err)
{
    struct stat st;

    memset(d, 0, sizeof(*d));
    d->slot = -1;
    if (!want)
        return store_dir_temp(d, err);
    if (strlen(want) >= sizeof(d->path) - 32)
        return err_set(err, PT_ECANTCREAT, "--store-dir: path too long");
    snprintf(d->path, sizeof(d->path), "%s", want);
    if (stat(want, &st) == 0) {
        if (!S_ISDIR(st.st_mode))
            return err_set(err, PT_ECANTCREAT,
                           "--store-dir '%s' is not a directory", want);
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

/* Remove a store file and its WAL side files. */
static void store_files_remove(const char *db)
{
    char side[4200];

    unlink(db);
    if (snprintf(side, sizeof(side), "%s-wal", db) < (int)sizeof(side))
        unlink(side);
    if (snprintf(side, sizeof(side), "%s-shm", db) < (int)sizeof(side))
        unlink(side);
}

/* ---- the run ------------------------------------------------------------ */

/* What one run holds while it goes. */
struct plan_run {
    const struct store_plan *p;
    const struct store_trace *t;
    struct store_trace own; /* when the run loaded the trace */
    struct store_dir dir;
    int have_dir;
    struct dir_lock lock; /* held while the run uses dir */
    int ack_fd;
    /* cleanup registrations: the store being built (db, -wal, -shm) and
       the .db of each store kept so far */
    int cur_slot[3];
    int kept_slot[STORE_MAX_PAGE_SIZES];
};

/* Register the store at `db` and its side files for removal on a hard
 * exit (a second signal); slots -1 when the table is full. */
static void store_register(struct plan_run *run, const char *db)
{
    static const char *const sfx[] = {"", "-wal", "-shm"};
    char path[4200];

    for (int k = 0; k < 3; k++) {
        run->cur_slot[k] = -1;
        if (snprintf(path, sizeof(path), "%s%s", db, sfx[k]) <
            (int)sizeof(path))
            run->cur_slot[k] = pt_tmpfile_register(path);
    }
}

static void store_unregister(struct plan_run *run)
{
    for (int k = 0; k < 3; k++) {
        pt_tmpfile_unregister(run->cur_slot[k]);
        run->cur_slot[k] = -1;
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
        return err_set(err, PT_ECANTCREAT, "cannot create --ack-log '%s': %s%s",
                       p->ack_log, strerror(errno),
                       errno == EEXIST ? " (use --force)" : "");
    return 0;
}

/* The ack log's header line for the store about to be replayed. */
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
        return err_set(err, PT_EIO, "cannot write --ack-log '%s': %s",
                       run->p->ack_log, strerror(errno));
    return 0;
}

/* Replay page size i into its store file; the file goes unless kept. */
static int replay_page(struct plan_run *run, size_t i,
                       struct store_plan_result *res, struct pt_err *err)
{
    const struct store_plan *p = run->p;
    const struct rec_page_rule *rule;
    struct store_config cfg;
    struct store_replay_opts o;
    struct store_replay_result *r = &res->results[i];
    char path[4200], sz[32];
    int ret;

    if ((ret = page_rule(p, i, &rule, err)) < 0)
        return ret;
    page_config(p, rule, &cfg);
    snprintf(path, sizeof(path), "%s/store-%s.db", run->dir.path,
             pt_size_format(cfg.page_size_bytes, sz, sizeof(sz)));
    if (p->force)
        store_files_remove(path);
    store_replay_opts_init(&o);
    o.n_clients = p->n_clients;
    o.ack_fd = run->ack_fd;
    o.progress = p->progress;
    o.progress_ctx = p->ctx;
    if (p->page_begin)
        p->page_begin(p->ctx, cfg.page_size_bytes, run->t->n_reqs);
    if ((ret = ack_header(run, cfg.page_size_bytes, path, err)) == 0) {
        /* only a store this run creates (an existing one is refused) */
        if (access(path, F_OK) != 0)
            store_register(run, path);
        ret = store_replay_run(run->t, path, &cfg, &o, r, err);
        /* a store that was created stays for inspection with keep, unless
           the run was interrupted (then store_plan_run removes them all) */
        if ((!p->keep || ret == PT_EINTR) && ret != PT_ECANTCREAT)
            store_files_remove(path);
        store_unregister(run);
    }
    if (ret == 0) {
        res->n_results = i + 1;
        if (p->keep && !(res->store_paths[i] = pt_strdup(path)))
            ret = err_set(err, PT_EINTERNAL, "out of memory");
        if (p->keep)
            run->kept_slot[i] = pt_tmpfile_register(path);
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
    int ret;

    if (!run->t) {
        if ((ret = store_trace_load_as(&run->own, p->trace_path,
                                       p->trace_format, err)) < 0)
            return ret;
        run->t = &run->own;
    }
    if ((ret = ack_open(run, err)) < 0)
        return ret;
    if ((ret = store_dir_prepare(&run->dir, p->store_dir, err)) < 0)
        return ret;
    run->have_dir = 1;
    /* before any store file is touched (--force removes old ones) */
    if (p->store_dir &&
        (ret = dir_lock_take(&run->lock, run->dir.path, err)) < 0)
        return ret;
    if (p->ready)
        p->ready(p->ctx, run->t);
    return 0;
}

int store_plan_run(const struct store_plan *p, struct store_plan_result *res,
                   struct pt_err *err)
{
    struct plan_run run;
    int ret;

    memset(&run, 0, sizeof(run));
    run.p = p;
    run.t = p->trace;
    run.ack_fd = -1;
    run.lock.fd = -1;
    run.lock.slot = -1;
    for (size_t i = 0; i < STORE_MAX_PAGE_SIZES; i++)
        run.kept_slot[i] = -1;
    for (int k = 0; k < 3; k++)
        run.cur_slot[k] = -1;
    if ((ret = result_init(p, res, err)) < 0 ||
        (ret = store_plan_check(p, err)) < 0)
        return ret;
    if ((ret = run_prepare(&run, err)) < 0)
        goto out;
    for (size_t i = 0; i < p->n_page_sizes && ret == 0; i++)
        ret = replay_page(&run, i, res, err);
out:
    /* interrupted: no result is written, so no store of this run stays
       (kept ones included) and the next run does not find them (73) */
    for (size_t i = 0; i < STORE_MAX_PAGE_SIZES; i++) {
        if (ret == PT_EINTR && res->store_paths[i]) {
            store_files_remove(res->store_paths[i]);
            free(res->store_paths[i]);
            res->store_paths[i] = NULL;
        }
        pt_tmpfile_unregister(run.kept_slot[i]);
    }
    dir_lock_release(&run.lock);
    if (run.ack_fd >= 0 && close(run.ack_fd) != 0 && ret == 0)
        ret = err_set(err, PT_EIO, "cannot write --ack-log '%s': %s",
                      p->ack_log, strerror(errno));
    if (run.have_dir && run.dir.created && !p->keep)
        rmdir(run.dir.path);
    if (run.have_dir)
        pt_tmpdir_unregister(run.dir.slot);
    store_trace_release(&run.own);
    return ret;
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
