/* SPDX-License-Identifier: Apache-2.0 */
/*
 * afile.c — atomic output files (pagetune(1), COMMON OPTIONS): temp file in
 * the same directory, fsync, rename; a failed or interrupted run leaves no
 * partial file. Devices and "-" (stdout) are written in place.
 *
 * A temporary file is registered in cleanup.c while it is open, so that a
 * second interrupt (cli/main.c's handler) can unlink it with
 * async-signal-safe calls only.
 */
#include "core/core.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/*
 * Refuse an output that exists: a regular file or a symbolic link (dangling
 * or not: a dangling link's target would be created wherever it points,
 * and renaming over the link would silently drop it) without `force`; a
 * directory always.
 */
int pt_output_check(const char *path, int force, struct pt_err *err)
{
    struct stat st, lst;

    if (!path || strcmp(path, "-") == 0)
        return 0;
    if (lstat(path, &lst) != 0)
        return 0;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
        return err_set(err, PT_ECANTCREAT, "output '%s' is a directory", path);
    if ((S_ISREG(lst.st_mode) || S_ISLNK(lst.st_mode)) && !force) {
        /* a link to a device (-o /dev/stdout) is written in place */
        if (S_ISLNK(lst.st_mode) && stat(path, &st) == 0 &&
            !S_ISREG(st.st_mode))
            return 0;
        return err_set(err, PT_ECANTCREAT,
                       "output '%s' exists (use `force` to overwrite)", path);
    }
    return 0;
}

/*
 * Create "<path>.tmp.XXXXXX" with O_EXCL and mode 0666, so the umask applies
 * as to any file the user creates (mkstemp would force 0600). The suffix
 * comes from the clock and the pid; a collision is retried.
 */
static int tmp_create(char *tmp, size_t len, const char *path, mode_t mode)
{
    static const char digits[] = "abcdefghijklmnopqrstuvwxyz0123456789";
    uint64_t seed = pt_now_ns() ^ ((uint64_t)getpid() << 32);

    for (int attempt = 0; attempt < 100; attempt++) {
        char sfx[7];
        int fd;
        for (int i = 0; i < 6; i++) {
            seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
            sfx[i] = digits[(seed >> 33) % (sizeof(digits) - 1)];
        }
        sfx[6] = '\0';
        snprintf(tmp, len, "%s.tmp.%s", path, sfx);
        fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);
        if (fd >= 0 || errno != EEXIST)
            return fd;
    }
    return -1;
}

int pt_afile_open(struct pt_afile *af, const char *path, int force,
                  struct pt_err *err)
{
    struct stat st;
    mode_t mode = 0666;
    size_t tmp_len;
    int fd, rc;

    memset(af, 0, sizeof(*af));
    af->slot = -1;
    if (strcmp(path, "-") == 0) {
        af->fp = stdout;
        af->is_stdout = 1;
        return 0;
    }
    rc = pt_output_check(path, force, err);
    if (rc < 0)
        return rc;
    af->path = pt_strdup(path);
    if (!af->path)
        return err_set(err, PT_EINTERNAL, "out of memory");
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
        /* a device or FIFO: no rename possible, write in place */
        af->fp = fopen(path, "w");
        if (!af->fp) {
            rc = err_set(err, PT_ECANTCREAT, "cannot open output '%s': %s",
                         path, strerror(errno));
            pt_afile_abort(af);
            return rc;
        }
        return 0;
    }
    tmp_len = strlen(path) + 16;
    af->tmp = pt_malloc(tmp_len);
    if (!af->tmp) {
        pt_afile_abort(af);
        return err_set(err, PT_EINTERNAL, "out of memory");
    }
    fd = tmp_create(af->tmp, tmp_len, path, mode);
    if (fd < 0) {
        rc = err_set(err, PT_ECANTCREAT, "cannot create output '%s': %s", path,
                     strerror(errno));
        free(af->tmp);
        af->tmp = NULL;
        pt_afile_abort(af);
        return rc;
    }
    af->slot = pt_tmpfile_register(af->tmp);
    /* --force over a file keeps its mode (a 0600 file stays 0600) */
    if (stat(path, &st) == 0 && S_ISREG(st.st_mode) &&
        fchmod(fd, st.st_mode & 07777) != 0) {
        rc = err_set(err, PT_ECANTCREAT, "cannot keep the mode of '%s': %s",
                     path, strerror(errno));
        close(fd);
        pt_afile_abort(af);
        return rc;
    }
    af->fp = fdopen(fd, "w");
    if (!af->fp) {
        close(fd);
        rc = err_set(err, PT_EINTERNAL, "cannot open output '%s': %s", path,
                     strerror(errno));
        pt_afile_abort(af);
        return rc;
    }
    return 0;
}

/* flush, fsync and close af's temporary file (not stdout); 0 or PT_EIO */
static int afile_close(struct pt_afile *af, struct pt_err *err)
{
    int rc = 0;

    if (fflush(af->fp) != 0 || ferror(af->fp))
        rc = err_set(err, PT_EIO, "cannot write '%s': %s", af->path,
                     strerror(errno));
    else if (af->tmp && fsync(fileno(af->fp)) != 0)
        rc = err_set(err, PT_EIO, "cannot sync '%s': %s", af->path,
                     strerror(errno));
    if (fclose(af->fp) != 0 && rc == 0)
        rc = err_set(err, PT_EIO, "cannot write '%s': %s", af->path,
                     strerror(errno));
    af->fp = NULL;
    return rc;
}

/* rename af's closed temporary file over its target; 0 or PT_EIO */
static int afile_rename(struct pt_afile *af, struct pt_err *err)
{
    if (af->tmp && rename(af->tmp, af->path) != 0)
        return err_set(err, PT_EIO, "cannot rename into '%s': %s", af->path,
                       strerror(errno));
    if (af->tmp) {
        pt_tmpfile_unregister(af->slot);
        af->slot = -1;
        free(af->tmp);
        af->tmp = NULL;
    }
    return 0;
}

int pt_afile_commit(struct pt_afile *af, struct pt_err *err)
{
    return pt_afile_commit_set(&af, 1, err);
}

/*
 * Every file is checked, flushed and closed before the first rename, and
 * the interruption flag is read once, before it: a signal arriving
 * between two renames cannot leave a new create.sql beside an old
 * rollback.sql (issue 30). A rename that fails midway leaves the files
 * renamed so far in place (PT_EIO names the one that failed).
 */
int pt_afile_commit_set(struct pt_afile *const *afs, size_t n,
                        struct pt_err *err)
{
    int rc = 0;
    size_t i;

    for (i = 0; i < n && rc == 0; i++)
        if (!afs[i]->fp)
            rc = err_set(err, PT_EINTERNAL, "output not open");
    for (i = 0; i < n && rc == 0; i++)
        if (!afs[i]->is_stdout && pt_interrupted())
            /* an interrupted run commits nothing new (pagetune(1), SIGNALS) */
            rc = err_set(err, PT_EINTR, "interrupted before '%s' was written",
                         afs[i]->path);
    for (i = 0; i < n && rc == 0; i++) {
        if (afs[i]->is_stdout) {
            if (fflush(stdout) != 0 || ferror(stdout))
                rc = err_set(err, PT_EIO, "cannot write to standard output: %s",
                             strerror(errno));
            afs[i]->fp = NULL;
        } else {
            rc = afile_close(afs[i], err);
        }
    }
    for (i = 0; i < n && rc == 0; i++)
        rc = afile_rename(afs[i], err);
    for (i = 0; i < n; i++)
        pt_afile_abort(afs[i]);
    return rc;
}

void pt_afile_abort(struct pt_afile *af)
{
    if (!af)
        return;
    if (af->fp && !af->is_stdout)
        fclose(af->fp);
    af->fp = NULL;
    if (af->tmp) {
        unlink(af->tmp);
        free(af->tmp);
        af->tmp = NULL;
        pt_tmpfile_unregister(af->slot);
    }
    af->slot = -1;
    free(af->path);
    af->path = NULL;
}
