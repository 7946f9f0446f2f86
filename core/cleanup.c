/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cleanup.c — the interruption model's process-wide state: the first signal
 * that asked the program to stop, and the tables of temporary files and
 * temporary directories that must not outlive the run (pagetune(1), SIGNALS).
 *
 * cli/main.c's handler records the first SIGINT, SIGTERM or SIGHUP with
 * pt_interrupt_note(); the work loops poll it (pt_interrupted()) and unwind
 * through their normal cleanup (pt_afile_abort, pt_tmpdir_remove). A second
 * signal does not wait: the handler calls pt_cleanup_signal(), which removes
 * every registered path with async-signal-safe system calls only (unlink,
 * unlinkat, rmdir, open, close and getdents64 through syscall(2); signal-
 * safety(7)), and _exits. Neighbours: afile.c and outdir.c register their
 * temporary paths here; commands register the directories they mkdtemp.
 *
 * This is the one piece of process-wide mutable state outside cli/main.c
 * (house style): a signal handler can only reach static storage.
 */
#define _GNU_SOURCE /* syscall(2), SYS_getdents64 */
#include "core/core.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

/* replay alone registers 16 stores x 4 files and its lock */
#define PT_TMPFILE_SLOTS 80
#define PT_TMPDIR_SLOTS 8
#define PT_PATH_MAX 4096
#define PT_RM_DEPTH 8 /* nesting removed by the signal-safe walk */

/* lock-free, hence async-signal-safe; replay's threads share it too */
static atomic_int first_signal;
_Static_assert(ATOMIC_INT_LOCK_FREE == 2, "the handler needs a lock-free int");

static char tmpfiles[PT_TMPFILE_SLOTS][PT_PATH_MAX];
static volatile sig_atomic_t tmpfile_used[PT_TMPFILE_SLOTS];

static char tmpdirs[PT_TMPDIR_SLOTS][PT_PATH_MAX];
static volatile sig_atomic_t tmpdir_used[PT_TMPDIR_SLOTS];
/* a marked directory's lock: "<dir>.lock", flocked while in use (-1: none) */
static char tmplocks[PT_TMPDIR_SLOTS][PT_PATH_MAX + 8];
static int tmplock_fd[PT_TMPDIR_SLOTS] = {-1, -1, -1, -1, -1, -1, -1, -1};
_Static_assert(PT_TMPDIR_SLOTS == 8, "tmplock_fd's initialiser");

int pt_interrupt_note(int sig)
{
    int none = 0;

    if (atomic_compare_exchange_strong(&first_signal, &none, sig))
        return 0;
    return none;
}

int pt_interrupted(void)
{
    return atomic_load_explicit(&first_signal, memory_order_relaxed);
}

int pt_interrupt_check(struct pt_err *err)
{
    if (pt_interrupted())
        return err_set(err, PT_EINTR, "interrupted");
    return 0;
}

void pt_interrupt_reset(void)
{
    atomic_store(&first_signal, 0);
}

/* lock-free too: the handler reads it */
static atomic_int outputs_committed;

void pt_commit_note(void)
{
    atomic_store(&outputs_committed, 1);
}

int pt_committed(void)
{
    return atomic_load(&outputs_committed);
}

/*
 * A slot is filled before it is marked used, and marked unused before it is
 * reused, so the handler never reads a half-written path.
 */
static int slot_take(char (*paths)[PT_PATH_MAX], volatile sig_atomic_t *used,
                     int n, const char *path)
{
    size_t len = strlen(path);

    if (len >= PT_PATH_MAX)
        return -1;
    for (int i = 0; i < n; i++) {
        if (!used[i]) {
            memcpy(paths[i], path, len + 1);
            used[i] = 1;
            return i;
        }
    }
    return -1;
}

int pt_tmpfile_register(const char *path)
{
    return slot_take(tmpfiles, tmpfile_used, PT_TMPFILE_SLOTS, path);
}

void pt_tmpfile_unregister(int slot)
{
    if (slot >= 0 && slot < PT_TMPFILE_SLOTS)
        tmpfile_used[slot] = 0;
}

int pt_tmpdir_register(const char *path)
{
    return slot_take(tmpdirs, tmpdir_used, PT_TMPDIR_SLOTS, path);
}

/* Drop a marked directory's lock: unlink, then close (so no other run
   takes the lock of a file about to go). */
static void lock_drop(int slot)
{
    int fd = tmplock_fd[slot];

    if (fd < 0)
        return;
    unlink(tmplocks[slot]);
    tmplock_fd[slot] = -1;
    close(fd);
}

void pt_tmpdir_unregister(int slot)
{
    if (slot >= 0 && slot < PT_TMPDIR_SLOTS) {
        tmpdir_used[slot] = 0;
        lock_drop(slot);
    }
}

/* ---- removing a tree with async-signal-safe calls ------------------------ */

/* The kernel's record for getdents64(2); glibc names it only for _GNU_SOURCE
 * builds with a wrapper we do not rely on. */
struct pt_dirent64 {
    uint64_t d_ino;
    int64_t d_off;
    unsigned short d_reclen;
    unsigned char d_type;
    char d_name[];
};

/*
 * Empty the directory open as `fd`: unlink each entry, descend into
 * subdirectories up to PT_RM_DEPTH. Entries removed while reading may make
 * the kernel skip others, so a pass that removed something is repeated from
 * the start (bounded). Returns nothing: what cannot be removed stays.
 */
static void rm_contents(int fd, int depth)
{
#ifdef SYS_getdents64
    _Alignas(8) char buf[4096];

    for (int pass = 0; pass < 4; pass++) {
        int removed = 0;
        long n;

        if (lseek(fd, 0, SEEK_SET) != 0)
            return;
        while ((n = syscall(SYS_getdents64, fd, buf, sizeof(buf))) > 0) {
            for (long off = 0; off < n;) {
                const struct pt_dirent64 *d = (const void *)(buf + off);
                const char *name = d->d_name;
                off += d->d_reclen;
                if (name[0] == '.' &&
                    (name[1] == '\0' || (name[1] == '.' && name[2] == '\0')))
                    continue;
                if (unlinkat(fd, name, 0) == 0) {
                    removed = 1;
                    continue;
                }
                if ((errno == EISDIR || errno == EPERM) &&
                    depth < PT_RM_DEPTH) {
                    int sub =
                        openat(fd, name,
                               O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
                    if (sub >= 0) {
                        rm_contents(sub, depth + 1);
                        close(sub);
                    }
                    if (unlinkat(fd, name, AT_REMOVEDIR) == 0)
                        removed = 1;
                }
            }
        }
        if (!removed)
            return;
    }
#else
    (void)fd;
    (void)depth;
#endif
}

int pt_rmtree(const char *path)
{
    int fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);

    if (fd < 0)
        return errno == ENOENT ? 0 : -1;
    rm_contents(fd, 0);
    close(fd);
    return rmdir(path) == 0 || errno == ENOENT ? 0 : -1;
}

int pt_tmpdir_make(const char *tag, char *path, size_t len, int *slot,
                   struct pt_err *err)
{
    const char *tmp = getenv("TMPDIR");

    return pt_tmpdir_make_in(tmp && *tmp ? tmp : "/tmp", tag, path, len, slot,
                             err);
}

int pt_tmpdir_make_in(const char *parent, const char *tag, char *path,
                      size_t len, int *slot, struct pt_err *err)
{
    int n;

    *slot = -1;
    n = snprintf(path, len, "%s/pagetune-%s.XXXXXX", parent, tag);
    if (n < 0 || (size_t)n >= len)
        return err_set(err, PT_ECANTCREAT,
                       "temporary directory path for '%s' "
                       "too long (TMPDIR)",
                       tag);
    pt_tmpdir_reclaim(parent);
    return pt_tmpdir_create(path, slot, err);
}

void pt_tmpdir_remove(const char *path, int slot)
{
    if (path && path[0])
        pt_rmtree(path);
    pt_tmpdir_unregister(slot);
}

void pt_cleanup_signal(void)
{
    int saved = errno;

    for (int i = 0; i < PT_TMPFILE_SLOTS; i++)
        if (tmpfile_used[i])
            unlink(tmpfiles[i]);
    for (int i = 0; i < PT_TMPDIR_SLOTS; i++) {
        if (tmpdir_used[i])
            pt_rmtree(tmpdirs[i]);
        if (tmplock_fd[i] >= 0)
            unlink(tmplocks[i]);
    }
    errno = saved;
}

void pt_cleanup_all(void)
{
    for (int i = 0; i < PT_TMPFILE_SLOTS; i++) {
        if (tmpfile_used[i]) {
            unlink(tmpfiles[i]);
            tmpfile_used[i] = 0;
        }
    }
    for (int i = 0; i < PT_TMPDIR_SLOTS; i++) {
        if (tmpdir_used[i]) {
            pt_rmtree(tmpdirs[i]);
            pt_tmpdir_unregister(i);
        }
    }
}

/* ---- marked temporary directories --------------------------------------- */

/*
 * A temporary directory D (in $TMPDIR, or a staging directory beside an
 * out-dir) is marked by a lock file "D.lock" beside it, flock(2)ed for as
 * long as the run uses D. A run killed by SIGKILL leaves D and D.lock, but
 * its lock dies with it; the next run that makes a temporary directory in
 * the same place takes each free lock and removes D (and "D.old", an old
 * out-dir set moved aside) and the lock file. A directory without a lock
 * file is never touched, nor one whose lock is held.
 *
 * Order: the lock file is created (unique name, O_EXCL) and locked before
 * D exists, and checked to still be the file at its name (a reclaimer may
 * have taken the lock in between and removed it: then try again); D is
 * removed by a reclaimer only while it holds the lock.
 */
#define LOCK_SUFFIX ".lock"

/* The lock's name "<path>.lock" into buf; -1 if it does not fit. */
static int lock_name(const char *path, char *buf, size_t len)
{
    int n = snprintf(buf, len, "%s" LOCK_SUFFIX, path);
    return n < 0 || (size_t)n >= len ? -1 : 0;
}

/* 1 if fd is the file at `path` now. */
static int same_file(int fd, const char *path)
{
    struct stat a, b;

    return fstat(fd, &a) == 0 && lstat(path, &b) == 0 && a.st_dev == b.st_dev &&
           a.st_ino == b.st_ino;
}

int pt_tmpdir_create(char *path, int *slot, struct pt_err *err)
{
    char lock[PT_PATH_MAX + 8];
    size_t n = strlen(path);
    int fd = -1;

    *slot = -1;
    if (n < 6 || strcmp(path + n - 6, "XXXXXX") != 0 ||
        lock_name(path, lock, sizeof(lock)) < 0)
        return err_set(err, PT_ECANTCREAT, "bad temporary directory '%s'",
                       path);
    for (int tries = 0; tries < 100; tries++) {
        memcpy(lock + n - 6, "XXXXXX", 6);
        fd = mkostemps(lock, (int)strlen(LOCK_SUFFIX), O_CLOEXEC);
        if (fd < 0)
            break;
        if (flock(fd, LOCK_EX) != 0 || !same_file(fd, lock)) {
            close(fd); /* a reclaimer took it in between: another name */
            fd = -1;
            continue;
        }
        memcpy(path + n - 6, lock + n - 6, 6);
        if (mkdir(path, 0700) == 0)
            break;
        unlink(lock);
        close(fd);
        fd = -1;
        if (errno != EEXIST)
            break;
    }
    if (fd < 0)
        return err_set(err, PT_ECANTCREAT,
                       "cannot create a temporary directory '%s': %s", path,
                       strerror(errno));
    *slot = pt_tmpdir_register(path);
    if (*slot < 0) { /* unregistered: still removed by the normal path */
        close(fd);
        unlink(lock);
        return 0;
    }
    memcpy(tmplocks[*slot], lock, strlen(lock) + 1);
    tmplock_fd[*slot] = fd;
    return 0;
}

/*
 * A name our runs give a lock: "pagetune-<tag>.XXXXXX.lock" ($TMPDIR) or
 * ".<base>.pagetune.XXXXXX.lock" (staging beside an out-dir).
 */
static int our_lock_name(const char *name)
{
    size_t n = strlen(name), k = strlen(LOCK_SUFFIX);

    if (n < k + 8 || strcmp(name + n - k, LOCK_SUFFIX) != 0 ||
        name[n - k - 7] != '.')
        return 0;
    if (strncmp(name, "pagetune-", 9) == 0)
        return 1;
    return name[0] == '.' && n >= k + 16 &&
           strncmp(name + n - k - 16, ".pagetune.", 10) == 0;
}

/* Take lock `name` in dir fd `dfd` if free; then remove its directory. */
static void reclaim_one(const char *parent, const char *name)
{
    char lock[PT_PATH_MAX + 8], dir[PT_PATH_MAX + 8];
    size_t k = strlen(LOCK_SUFFIX);
    int fd, n;

    n = snprintf(lock, sizeof(lock), "%s/%s", parent, name);
    if (n < 0 || (size_t)n >= sizeof(lock))
        return;
    fd = open(lock, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0)
        return;
    if (flock(fd, LOCK_EX | LOCK_NB) == 0 && same_file(fd, lock)) {
        memcpy(dir, lock, (size_t)n - k);
        dir[(size_t)n - k] = '\0';
        pt_rmtree(dir);
        if ((size_t)n - k + 4 < sizeof(dir)) {
            memcpy(dir + n - k, ".old", 5);
            pt_rmtree(dir);
        }
        unlink(lock);
    }
    close(fd);
}

void pt_tmpdir_reclaim(const char *parent)
{
    DIR *d = opendir(parent);
    struct dirent *e;

    if (!d)
        return;
    while ((e = readdir(d)) != NULL)
        if (our_lock_name(e->d_name))
            reclaim_one(parent, e->d_name);
    closedir(d);
}
