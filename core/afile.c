/* SPDX-License-Identifier: Apache-2.0 */
/*
 * afile.c — atomic output files (design.md §3): temp file in the same
 * directory, fsync, rename; a failed or interrupted run leaves no partial
 * file. Devices and "-" (stdout) are written in place.
 *
 * The one piece of process-wide state outside cli/main.c lives here: the
 * table of temporary paths still open, so that the SIGINT/SIGTERM handler in
 * cli/main.c can unlink them with async-signal-safe calls only.
 */
#include "core/core.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define PT_AFILE_SLOTS 32

static char pending_tmp[PT_AFILE_SLOTS][4096];
static volatile sig_atomic_t pending_used[PT_AFILE_SLOTS];

static int slot_take(const char *tmp)
{
    size_t len = strlen(tmp);

    if (len >= sizeof(pending_tmp[0]))
        return -1;
    for (int i = 0; i < PT_AFILE_SLOTS; i++) {
        if (!pending_used[i]) {
            memcpy(pending_tmp[i], tmp, len + 1);
            pending_used[i] = 1;
            return i;
        }
    }
    return -1;
}

static void slot_release(int i)
{
    if (i >= 0 && i < PT_AFILE_SLOTS)
        pending_used[i] = 0;
}

#define PT_TMPDIR_SLOTS 8

static char tmpdirs[PT_TMPDIR_SLOTS][4096];
static volatile sig_atomic_t tmpdir_used[PT_TMPDIR_SLOTS];

int pt_tmpdir_register(const char *path)
{
    size_t len = strlen(path);

    if (len >= sizeof(tmpdirs[0]))
        return -1;
    for (int i = 0; i < PT_TMPDIR_SLOTS; i++) {
        if (!tmpdir_used[i]) {
            memcpy(tmpdirs[i], path, len + 1);
            tmpdir_used[i] = 1;
            return i;
        }
    }
    return -1;
}

void pt_tmpdir_unregister(int slot)
{
    if (slot >= 0 && slot < PT_TMPDIR_SLOTS)
        tmpdir_used[slot] = 0;
}

void pt_afile_cleanup_signal(void)
{
    char *argv[PT_TMPDIR_SLOTS + 3];
    int n = 0;
    pid_t pid;

    for (int i = 0; i < PT_AFILE_SLOTS; i++)
        if (pending_used[i])
            unlink(pending_tmp[i]);
    argv[n++] = "rm";
    argv[n++] = "-rf";
    for (int i = 0; i < PT_TMPDIR_SLOTS; i++)
        if (tmpdir_used[i])
            argv[n++] = tmpdirs[i];
    argv[n] = NULL;
    if (n == 2)
        return;
    pid = fork();
    if (pid == 0) {
        char *envp[] = {NULL};
        execve("/bin/rm", argv, envp);
        _exit(127);
    }
    if (pid > 0)
        while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
            ;
}

int pt_output_check(const char *path, int force, struct pt_err *err)
{
    struct stat st;

    if (!path || strcmp(path, "-") == 0)
        return 0;
    if (stat(path, &st) == 0) {
        if (S_ISDIR(st.st_mode))
            return err_set(err, PT_ECANTCREAT, "output '%s' is a directory",
                           path);
        if (S_ISREG(st.st_mode) && !force)
            return err_set(err, PT_ECANTCREAT,
                           "output '%s' exists (use --force to overwrite)",
                           path);
    }
    return 0;
}

int pt_afile_open(struct pt_afile *af, const char *path, int force,
                  struct pt_err *err)
{
    struct stat st;
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
    af->tmp = pt_malloc(strlen(path) + 16);
    if (!af->tmp) {
        pt_afile_abort(af);
        return err_set(err, PT_EINTERNAL, "out of memory");
    }
    sprintf(af->tmp, "%s.tmp.XXXXXX", path);
    fd = mkstemp(af->tmp);
    if (fd < 0) {
        rc = err_set(err, PT_ECANTCREAT, "cannot create output '%s': %s", path,
                     strerror(errno));
        free(af->tmp);
        af->tmp = NULL;
        pt_afile_abort(af);
        return rc;
    }
    af->slot = slot_take(af->tmp);
    fchmod(fd, 0644);
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

int pt_afile_commit(struct pt_afile *af, struct pt_err *err)
{
    int rc = 0;

    if (!af->fp)
        return err_set(err, PT_EINTERNAL, "output not open");
    if (af->is_stdout) {
        if (fflush(stdout) != 0 || ferror(stdout))
            rc = err_set(err, PT_EIO, "cannot write to standard output: %s",
                         strerror(errno));
        af->fp = NULL;
        return rc;
    }
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
    if (rc == 0 && af->tmp && rename(af->tmp, af->path) != 0)
        rc = err_set(err, PT_EIO, "cannot rename into '%s': %s", af->path,
                     strerror(errno));
    if (rc == 0 && af->tmp) {
        slot_release(af->slot);
        af->slot = -1;
        free(af->tmp);
        af->tmp = NULL;
    }
    pt_afile_abort(af);
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
    }
    slot_release(af->slot);
    af->slot = -1;
    free(af->path);
    af->path = NULL;
}
