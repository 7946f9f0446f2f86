/* SPDX-License-Identifier: Apache-2.0 */
/*
 * pathid.c — path identity (core.h, pt_pathset_*): the files and
 * directories one run reads and writes, resolved once, and the check that
 * no output names an input or another output, and that no path lies inside
 * a directory the run replaces as one unit (outdir.c). A command builds the
 * set from its option table (cli/opts.c) before it opens anything for
 * writing; a clash is a usage error (64), with or without --force.
 *
 * Identity: two paths name the same file when both exist as regular files
 * with the same device and inode (hard links, symbolic links, "./a" and
 * "a"), or, when one does not exist yet, when their resolved names are
 * equal: realpath(3) of the file, or of its directory plus the last
 * component (a missing directory resolved the same way), a dangling
 * symbolic link followed to what it names. Devices
 * and FIFOs are written in place (afile.c) and never clash. Inside: a path
 * is inside directory D when D (same device and inode) is one of its
 * resolved name's ancestors, or, while D does not exist, when D's resolved
 * name is a prefix of it.
 */
#define _XOPEN_SOURCE 700 /* realpath(3) */
#include "core/core.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/*
 * The resolved name of `path` (see above), `depth` symbolic links deep: a
 * directory that does not exist yet is resolved the same way, down to one
 * that does. 0, or -1 when the name is too long or a link loops.
 */
static int resolve(const char *path, char *out, size_t len, int depth)
{
    char dir[PATH_MAX], res[PATH_MAX], target[PATH_MAX];
    const char *slash = strrchr(path, '/'), *base;
    struct stat st;
    ssize_t n;

    if (realpath(path, res))
        return (size_t)snprintf(out, len, "%s", res) < len ? 0 : -1;
    if (!slash)
        snprintf(dir, sizeof(dir), ".");
    else if (slash == path)
        snprintf(dir, sizeof(dir), "/");
    else if ((size_t)snprintf(dir, sizeof(dir), "%.*s", (int)(slash - path),
                              path) >= sizeof(dir))
        return -1;
    if (depth < 8 && lstat(path, &st) == 0 && S_ISLNK(st.st_mode) &&
        (n = readlink(path, target, sizeof(target) - 1)) > 0) {
        target[n] = '\0';
        if (target[0] == '/')
            return resolve(target, out, len, depth + 1);
        if ((size_t)snprintf(res, sizeof(res), "%s/%s", dir, target) >=
            sizeof(res))
            return -1;
        return resolve(res, out, len, depth + 1);
    }
    /* the directory resolved the same way: it may not exist yet either */
    if (strcmp(dir, ".") == 0 || strcmp(dir, "/") == 0) {
        if (!realpath(dir, res))
            return -1;
    } else if (resolve(dir, res, sizeof(res), depth) < 0) {
        return -1;
    }
    base = slash ? slash + 1 : path;
    if (strcmp(base, "..") == 0) { /* the directory's parent, by name */
        char *up = strrchr(res, '/');
        if (up)
            up[up == res] = '\0';
        base = "";
    }
    if (!*base || strcmp(base, ".") == 0)
        return (size_t)snprintf(out, len, "%s", res) < len ? 0 : -1;
    if ((size_t)snprintf(out, len, "%s/%s", strcmp(res, "/") ? res : "",
                         base) >= len)
        return -1;
    return 0;
}

void pt_pathset_init(struct pt_pathset *s)
{
    memset(s, 0, sizeof(*s));
}

void pt_pathset_release(struct pt_pathset *s)
{
    for (size_t i = 0; i < s->n; i++) {
        free(s->p[i].opt);
        free(s->p[i].given);
        free(s->p[i].real);
    }
    free(s->p);
    memset(s, 0, sizeof(*s));
}

int pt_pathset_add(struct pt_pathset *s, const char *opt, const char *path,
                   enum pt_path_role role, struct pt_err *err)
{
    char real[PATH_MAX], trim[PATH_MAX];
    struct pt_path *e;
    struct stat st;
    size_t n;
    int have;

    if (!path || !*path || strcmp(path, "-") == 0)
        return 0;
    /* "dir/" names dir */
    n = (size_t)snprintf(trim, sizeof(trim), "%s", path);
    while (n > 1 && n < sizeof(trim) && trim[n - 1] == '/')
        trim[--n] = '\0';
    if (s->n == s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 8;
        struct pt_path *p = pt_realloc(s->p, cap * sizeof(*p));
        if (!p)
            return err_set(err, PT_EINTERNAL, "out of memory");
        s->p = p;
        s->cap = cap;
    }
    e = &s->p[s->n];
    memset(e, 0, sizeof(*e));
    e->role = role;
    have = resolve(trim, real, sizeof(real), 0) == 0;
    e->opt = pt_strdup(opt);
    e->given = pt_strdup(path);
    e->real = have ? pt_strdup(real) : NULL;
    if (!e->opt || !e->given || (have && !e->real)) {
        free(e->opt);
        free(e->given);
        free(e->real);
        return err_set(err, PT_EINTERNAL, "out of memory");
    }
    if (stat(path, &st) == 0) {
        e->exists = 1;
        e->regular = S_ISREG(st.st_mode);
        e->is_dir = S_ISDIR(st.st_mode);
        e->dev = (uint64_t)st.st_dev;
        e->ino = (uint64_t)st.st_ino;
    }
    s->n++;
    return 0;
}

/* a and b name the same file (see the top of the file). */
static int same_file(const struct pt_path *a, const struct pt_path *b)
{
    if ((a->exists && !a->regular) || (b->exists && !b->regular))
        return 0;
    if (a->exists && b->exists)
        return a->dev == b->dev && a->ino == b->ino;
    if (a->real && b->real)
        return strcmp(a->real, b->real) == 0;
    return strcmp(a->given, b->given) == 0;
}

/* f is directory d or lies inside it (see the top of the file). */
static int inside(const struct pt_path *f, const struct pt_path *d)
{
    char up[PATH_MAX];
    size_t n;
    struct stat st;

    if (!f->real || !d->real)
        return 0;
    if (!d->exists) {
        n = strlen(d->real);
        return strncmp(f->real, d->real, n) == 0 &&
               (f->real[n] == '/' || f->real[n] == '\0');
    }
    if (!d->is_dir)
        return 0;
    snprintf(up, sizeof(up), "%s", f->real);
    for (;;) {
        char *slash;
        if (stat(up, &st) == 0 && (uint64_t)st.st_dev == d->dev &&
            (uint64_t)st.st_ino == d->ino)
            return 1;
        slash = strrchr(up, '/');
        if (!slash || slash == up)
            return 0;
        *slash = '\0';
    }
}

/* One line for a clash of a and b, outputs named first. */
static int clash(const struct pt_path *a, const struct pt_path *b,
                 struct pt_err *err)
{
    const struct pt_path *t;

    if (a->role == PT_PATH_OUTDIR || b->role == PT_PATH_OUTDIR) {
        if (a->role == PT_PATH_OUTDIR) { /* a is the directory */
            t = a;
            a = b;
            b = t;
        }
        return err_set(err, PT_EUSAGE,
                       "%s '%s' lies inside %s '%s', which is replaced as "
                       "one unit",
                       a->opt, a->given, b->opt, b->given);
    }
    if (a->role == PT_PATH_IN) {
        t = a;
        a = b;
        b = t;
    }
    if (strcmp(a->given, b->given) == 0)
        return err_set(err, PT_EUSAGE, "%s and %s name the same file '%s'",
                       a->opt, b->opt, a->given);
    return err_set(err, PT_EUSAGE, "%s '%s' and %s '%s' name the same file",
                   a->opt, a->given, b->opt, b->given);
}

int pt_pathset_check(const struct pt_pathset *s, struct pt_err *err)
{
    for (size_t i = 0; i < s->n; i++)
        for (size_t j = i + 1; j < s->n; j++) {
            const struct pt_path *a = &s->p[i], *b = &s->p[j];
            if (a->role == PT_PATH_IN && b->role == PT_PATH_IN)
                continue; /* reading a file twice destroys nothing */
            if (a->role == PT_PATH_OUTDIR || b->role == PT_PATH_OUTDIR) {
                if ((a->role == PT_PATH_OUTDIR && inside(b, a)) ||
                    (b->role == PT_PATH_OUTDIR && inside(a, b)))
                    return clash(a, b, err);
            } else if (same_file(a, b)) {
                return clash(a, b, err);
            }
        }
    return 0;
}
