/* SPDX-License-Identifier: Apache-2.0 */
/*
 * outdir.c — a directory of outputs replaced as one unit (core.h,
 * pt_outdir_*). The new set is written into a sibling
 * staging directory, then swapped in:
 *
 *   - renameat2(RENAME_EXCHANGE) (rename(2), Linux 3.15, through syscall(2)
 *     because glibc wraps it only for _GNU_SOURCE) swaps the two directories
 *     atomically; the staging name then holds the old set, which is removed;
 *   - where the kernel or the file system refuses the exchange (ENOSYS,
 *     EINVAL), the old directory is renamed aside and the staging directory
 *     renamed in, with catchable signals blocked between the two renames, and
 *     renamed back if the second rename fails;
 *   - with no old directory, a plain rename(2) suffices.
 *
 * Neighbours: afile.c writes each file of the set atomically; cleanup.c
 * holds the staging directory in its table so a second interrupt removes it.
 */
#define _GNU_SOURCE /* syscall(2), SYS_renameat2 */
#include "core/core.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef RENAME_EXCHANGE
#define RENAME_EXCHANGE (1 << 1) /* <linux/fs.h> */
#endif

static void outdir_release(struct pt_outdir *od)
{
    if (od->stage)
        pt_tmpdir_unregister(od->slot);
    free(od->stage);
    free(od->path);
    memset(od, 0, sizeof(*od));
    od->slot = -1;
}

/* 1 if directory `path` has an entry besides . and .., 0 if not, -1. */
static int dir_nonempty(const char *path)
{
    DIR *d = opendir(path);
    struct dirent *e;
    int found = 0;

    if (!d)
        return -1;
    while (!found && (e = readdir(d)) != NULL)
        if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
            found = 1;
    closedir(d);
    return found;
}

/* "<dir>/.<base><tag>XXXXXX" beside `path`, into a new buffer. */
static char *sibling_name(const char *path, const char *tag)
{
    const char *slash = strrchr(path, '/');
    size_t dir_len = slash ? (size_t)(slash - path) + 1 : 0;
    const char *base = slash ? slash + 1 : path;
    size_t len = dir_len + 1 + strlen(base) + strlen(tag) + 7;
    char *s = pt_malloc(len);

    if (s)
        snprintf(s, len, "%.*s.%s%sXXXXXX", (int)dir_len, path, base, tag);
    return s;
}

/* The leftovers of killed runs beside `path` (pt_tmpdir_reclaim). */
static void reclaim_beside(const char *path)
{
    char dir[4096];

    pt_path_dir(path, dir, sizeof(dir));
    pt_tmpdir_reclaim(dir);
}

/* fsync the directory holding `path`, so the renames survive a crash. */
static void sync_parent(const char *path)
{
    char dir[4096];
    int fd;

    pt_path_dir(path, dir, sizeof(dir));
    fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0) {
        fsync(fd);
        close(fd);
    }
}

int pt_outdir_begin(struct pt_outdir *od, const char *path, int force,
                    struct pt_err *err)
{
    struct stat st;
    mode_t mode = 0;
    int rc;

    memset(od, 0, sizeof(*od));
    od->slot = -1;
    /* a trailing slash would make the sibling a child */
    if (!path[0] || path[strlen(path) - 1] == '/')
        return err_set(err, PT_ECANTCREAT,
                       "out-dir '%s': give the directory without a trailing "
                       "'/'",
                       path);
    if (lstat(path, &st) == 0) {
        if (!S_ISDIR(st.st_mode))
            return err_set(err, PT_ECANTCREAT,
                           "out-dir '%s' exists and is not a directory", path);
        rc = dir_nonempty(path);
        if (rc < 0)
            return err_set(err, PT_ECANTCREAT, "cannot read out-dir '%s': %s",
                           path, strerror(errno));
        if (rc > 0 && !force)
            return err_set(err, PT_ECANTCREAT,
                           "out-dir '%s' exists and is not empty (use `force` "
                           "to replace it)",
                           path);
        mode = st.st_mode & 07777;
    } else if (errno != ENOENT) {
        return err_set(err, PT_ECANTCREAT, "cannot use out-dir '%s': %s", path,
                       strerror(errno));
    }
    od->path = pt_strdup(path);
    od->stage = sibling_name(path, ".pagetune.");
    if (!od->path || !od->stage) {
        outdir_release(od);
        return err_set(err, PT_EINTERNAL, "out of memory");
    }
    reclaim_beside(path);
    if (pt_tmpdir_create(od->stage, &od->slot, NULL) < 0) {
        rc = err_set(err, PT_ECANTCREAT,
                     "cannot create a staging directory beside '%s': %s", path,
                     strerror(errno));
        outdir_release(od);
        return rc;
    }
    if (!mode) {
        /*
         * mkdtemp makes 0700; a new out-dir is made like any directory.
         * Reading the umask sets it for a moment: begin before threads.
         */
        mode_t mask = umask(0);
        umask(mask);
        mode = 0777 & ~mask;
    }
    if (chmod(od->stage, mode) != 0) {
        rc = err_set(err, PT_ECANTCREAT, "cannot set the mode of '%s': %s",
                     od->stage, strerror(errno));
        pt_outdir_abort(od);
        return rc;
    }
    return 0;
}

int pt_outdir_file(struct pt_outdir *od, const char *name, char *buf,
                   size_t len, struct pt_err *err)
{
    int n;

    if (!od->stage)
        return err_set(err, PT_EINTERNAL, "out-dir not begun");
    if (!name[0] || strchr(name, '/'))
        return err_set(err, PT_EINTERNAL, "bad out-dir file name '%s'", name);
    n = snprintf(buf, len, "%s/%s", od->stage, name);
    if (n < 0 || (size_t)n >= len)
        return err_set(err, PT_EINTERNAL, "out-dir path too long for '%s'",
                       name);
    od->n_files++;
    return 0;
}

static int exchange(const char *a, const char *b)
{
#ifdef SYS_renameat2
    return (int)syscall(SYS_renameat2, AT_FDCWD, a, AT_FDCWD, b,
                        RENAME_EXCHANGE);
#else
    (void)a;
    (void)b;
    errno = ENOSYS;
    return -1;
#endif
}

/*
 * Without an exchange: old → "<stage>.old", stage → path, then the old set
 * back under the stage's name, all under a blocked signal mask so that no
 * handler runs between them. Afterwards the stage name holds the old set,
 * as after an exchange, still marked by the stage's lock (a run killed in
 * between leaves "<stage>.old", which pt_tmpdir_reclaim removes too).
 */
static int swap_aside(struct pt_outdir *od, struct pt_err *err)
{
    sigset_t all, old_mask;
    size_t n = strlen(od->stage) + 5;
    char *aside = pt_malloc(n);
    int rc = 0;

    if (!aside)
        return err_set(err, PT_EINTERNAL, "out of memory");
    snprintf(aside, n, "%s.old", od->stage);
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, &old_mask);
    if (rename(od->path, aside) != 0) {
        rc = err_set(err, PT_EIO, "cannot move '%s' aside: %s", od->path,
                     strerror(errno));
    } else if (rename(od->stage, od->path) != 0) {
        rc = err_set(err, PT_EIO, "cannot rename '%s' into place: %s",
                     od->stage, strerror(errno));
        rename(aside, od->path);
    } else if (rename(aside, od->stage) != 0) {
        pt_rmtree(aside); /* the old set: the new one is in place */
    }
    pthread_sigmask(SIG_SETMASK, &old_mask, NULL);
    free(aside);
    return rc;
}

int pt_outdir_commit(struct pt_outdir *od, struct pt_err *err)
{
    struct stat st;
    int rc = 0, fd;

    if (!od->stage) {
        outdir_release(od);
        return err_set(err, PT_EINTERNAL, "out-dir not begun");
    }
    if (pt_interrupted()) {
        rc = err_set(err, PT_EINTR,
                     "interrupted before out-dir '%s' was "
                     "replaced",
                     od->path);
        pt_outdir_abort(od);
        return rc;
    }
    if (od->n_files == 0 || dir_nonempty(od->stage) != 1) {
        rc = err_set(err, PT_EINTERNAL, "nothing was written for out-dir '%s'",
                     od->path);
        pt_outdir_abort(od);
        return rc;
    }
    /* the files are fsynced by pt_afile_commit; now their directory */
    fd = open(od->stage, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0) {
        fsync(fd);
        close(fd);
    }
    if (lstat(od->path, &st) != 0) {
        /* no old set: rename(2) is atomic (and replaces an empty dir) */
        if (rename(od->stage, od->path) != 0)
            rc = err_set(err, PT_EIO, "cannot rename '%s' into place: %s",
                         od->stage, strerror(errno));
        if (rc == 0) {
            pt_commit_note();
            pt_tmpdir_unregister(od->slot);
            free(od->stage);
            od->stage = NULL;
            sync_parent(od->path);
        }
        pt_outdir_abort(od);
        return rc;
    }
    if (!S_ISDIR(st.st_mode)) {
        rc = err_set(err, PT_EIO, "out-dir '%s' is no longer a directory",
                     od->path);
        pt_outdir_abort(od);
        return rc;
    }
    if (exchange(od->stage, od->path) != 0) {
        if (errno != ENOSYS && errno != EINVAL) {
            rc = err_set(err, PT_EIO, "cannot swap '%s' into place: %s",
                         od->stage, strerror(errno));
            pt_outdir_abort(od);
            return rc;
        }
        if ((rc = swap_aside(od, err)) < 0) {
            pt_outdir_abort(od);
            return rc;
        }
    }
    pt_commit_note();
    sync_parent(od->path);
    /* od->stage now holds the old set: abort removes it */
    pt_outdir_abort(od);
    return 0;
}

void pt_outdir_abort(struct pt_outdir *od)
{
    if (!od)
        return;
    if (od->stage)
        pt_rmtree(od->stage);
    outdir_release(od);
}
