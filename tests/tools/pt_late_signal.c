/*
 * pt_late_signal.c — an LD_PRELOAD shim for tests/cli/test_signals.sh: a
 * signal that arrives just after an output file is renamed into place.
 *
 * rename(2) is wrapped: once the real rename into a path ending in
 * $PT_LATE_SIGNAL_PATH succeeds, the process sends itself
 * $PT_LATE_SIGNAL (a signal number, default SIGTERM). The handler runs
 * before rename() returns, so the signal is recorded after the commit and
 * before the command returns: the window a real signal hits by chance
 * (issue 30, point 7), made certain. Test-only; never linked into pagetune.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int rename(const char *from, const char *to)
{
    int (*real)(const char *, const char *) =
        (int (*)(const char *, const char *))dlsym(RTLD_NEXT, "rename");
    const char *want = getenv("PT_LATE_SIGNAL_PATH");
    const char *num = getenv("PT_LATE_SIGNAL");
    size_t n, w;
    int rc;

    if (!real)
        return -1;
    rc = real(from, to);
    if (rc != 0 || !want || !*want || !to)
        return rc;
    n = strlen(to);
    w = strlen(want);
    if (n >= w && strcmp(to + n - w, want) == 0)
        raise(num ? atoi(num) : SIGTERM);
    return rc;
}
