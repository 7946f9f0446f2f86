/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cleanup.c — the interruption model's process-wide state: the first signal
 * that asked the program to stop, and the tables of temporary files and
 * temporary directories that must not outlive the run (pagetune(1), SIGNALS).
 *
 * cli/main.c's handler records the first SIGINT, SIGTERM or SIGHUP with
 * pt_interrupt_note(); the work loops poll it (cli_interrupted()) and unwind
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

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#define PT_TMPFILE_SLOTS 32
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

int pt_interrupt_note(int sig)
{
    int none = 0;

    if (atomic_compare_exchange_strong(&first_signal, &none, sig))
        return 0;
    return none;
}

int pt_interrupted(void)
{
    return atomic_load(&first_signal);
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

void pt_tmpdir_unregister(int slot)
{
    if (slot >= 0 && slot < PT_TMPDIR_SLOTS)
        tmpdir_used[slot] = 0;
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
    int n;

    *slot = -1;
    n = snprintf(path, len, "%s/pagetune-%s.XXXXXX", tmp && *tmp ? tmp : "/tmp",
                 tag);
    if (n < 0 || (size_t)n >= len)
        return err_set(err, PT_ECANTCREAT,
                       "temporary directory path for '%s' "
                       "too long (TMPDIR)",
                       tag);
    if (!mkdtemp(path))
        return err_set(err, PT_ECANTCREAT,
                       "cannot create a temporary directory '%s': %s", path,
                       strerror(errno));
    *slot = pt_tmpdir_register(path);
    return 0;
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
    for (int i = 0; i < PT_TMPDIR_SLOTS; i++)
        if (tmpdir_used[i])
            pt_rmtree(tmpdirs[i]);
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
            tmpdir_used[i] = 0;
        }
    }
}
