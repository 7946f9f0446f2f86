/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_core.c — unit tests for core/: sizes, numbers, atomic files, JSON
 * and YAML loading, error formatting, the allocation-failure hook, the
 * temporary-path registry, the interrupt flag and out-dirs replaced as one
 * unit (including a fork + SIGKILL test).
 */
#define _GNU_SOURCE /* syscall(2), for the seccomp test */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/core.h"

static void test_size_parse(void **state)
{
    struct pt_err err;
    uint64_t v;
    (void)state;

    assert_int_equal(pt_size_parse("4096", &v, "x", &err), 0);
    assert_int_equal(v, 4096);
    assert_int_equal(pt_size_parse("8K", &v, "x", &err), 0);
    assert_int_equal(v, 8192);
    assert_int_equal(pt_size_parse("8k", &v, "x", &err), 0);
    assert_int_equal(v, 8192);
    assert_int_equal(pt_size_parse("64M", &v, "x", &err), 0);
    assert_int_equal(v, 64ULL << 20);
    assert_int_equal(pt_size_parse("2GiB", &v, "x", &err), 0);
    assert_int_equal(v, 2ULL << 30);
    assert_int_equal(pt_size_parse("1KB", &v, "x", &err), 0);
    assert_int_equal(v, 1024);
    assert_int_equal(pt_size_parse("", &v, "--memory", &err), PT_EDATA);
    assert_non_null(strstr(err.msg, "--memory"));
    assert_int_equal(pt_size_parse("-5", &v, "x", &err), PT_EDATA);
    assert_int_equal(pt_size_parse("5X", &v, "x", &err), PT_EDATA);
    assert_int_equal(pt_size_parse("1.5M", &v, "x", &err), PT_EDATA);
    assert_int_equal(pt_size_parse("99999999999999999999", &v, "x", &err),
                     PT_EDATA);
    assert_int_equal(pt_size_parse("17179869184G", &v, "x", &err), PT_EDATA);
}

static void test_size_list(void **state)
{
    struct pt_err err;
    uint64_t v[8];
    (void)state;

    assert_int_equal(pt_size_list_parse("4K,8K,16K,32K", v, 8, "l", &err), 4);
    assert_int_equal(v[0], 4096);
    assert_int_equal(v[3], 32768);
    assert_int_equal(pt_size_list_parse("4K,,8K", v, 8, "l", &err), PT_EDATA);
    assert_int_equal(pt_size_list_parse("4K,8K", v, 1, "l", &err), PT_EDATA);
}

static void test_size_format(void **state)
{
    char buf[32];
    (void)state;
    assert_string_equal(pt_size_format(8192, buf, sizeof(buf)), "8K");
    assert_string_equal(pt_size_format(4000, buf, sizeof(buf)), "4000");
    assert_string_equal(pt_size_format(64ULL << 20, buf, sizeof(buf)), "64M");
    assert_string_equal(pt_size_format(3ULL << 29, buf, sizeof(buf)), "1.5G");
    /* the figures of the advice (figure.c), one form each */
    assert_string_equal(pt_fig_page(16384, buf, sizeof(buf)), "16K");
    assert_string_equal(pt_fig_page(512, buf, sizeof(buf)), "512 B");
    assert_string_equal(pt_fig_count(65536, buf, sizeof(buf)), "65,536");
    assert_string_equal(pt_fig_count(999, buf, sizeof(buf)), "999");
    assert_string_equal(pt_fig_pool(1000, 16384, buf, sizeof(buf)),
                        "1,000 pages of 16K (15.6M)");
    assert_string_equal(pt_fig_pool(1, 4096, buf, sizeof(buf)),
                        "1 page of 4K (4K)");
    assert_string_equal(pt_fig_change(-84.04, buf, sizeof(buf)), "-84.0 %");
    assert_string_equal(pt_fig_change(-0.01, buf, sizeof(buf)), "+0.0 %");
    assert_string_equal(
        pt_fig_change_range(166.5, 116.7, 216.3, buf, sizeof(buf)),
        "+166.5 % [+116.7, +216.3]");
    assert_string_equal(pt_fig_change_range(0.1, NAN, NAN, buf, sizeof(buf)),
                        "+0.1 %");
}

static void test_numbers(void **state)
{
    struct pt_err err;
    uint64_t u;
    double d;
    (void)state;
    assert_int_equal(pt_u64_parse("42", &u, "n", &err), 0);
    assert_int_equal(u, 42);
    assert_int_equal(pt_u64_parse("4K", &u, "n", &err), PT_EDATA);
    assert_int_equal(pt_double_parse("0.95", &d, "f", &err), 0);
    assert_true(d > 0.949 && d < 0.951);
    assert_int_equal(pt_double_parse("nan", &d, "f", &err), PT_EDATA);
    assert_int_equal(pt_double_parse("1e999", &d, "f", &err), PT_EDATA);
    assert_int_equal(pt_double_parse(" 1", &d, "f", &err), PT_EDATA);
}

static char tmpdir[64];

static int setup_dir(void **state)
{
    (void)state;
    strcpy(tmpdir, "/tmp/pt-core-XXXXXX");
    return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown_dir(void **state)
{
    char cmd[128];
    (void)state;
    snprintf(cmd, sizeof(cmd), "rm -rf %s", tmpdir);
    return system(cmd) == 0 ? 0 : -1;
}

static void test_afile(void **state)
{
    struct pt_afile af;
    struct pt_err err;
    char path[128], *buf;
    size_t len;
    (void)state;

    snprintf(path, sizeof(path), "%s/out.txt", tmpdir);
    assert_int_equal(pt_afile_open(&af, path, 0, &err), 0);
    fputs("hello\n", af.fp);
    /* the target does not exist until commit */
    assert_int_not_equal(access(path, F_OK), 0);
    assert_int_equal(pt_afile_commit(&af, &err), 0);
    assert_int_equal(pt_file_read(path, &buf, &len, &err), 0);
    assert_string_equal(buf, "hello\n");
    free(buf);

    /* exists, no force: refused, untouched */
    assert_int_equal(pt_afile_open(&af, path, 0, &err), PT_ECANTCREAT);
    assert_non_null(strstr(err.msg, "`force`"));

    /* force + abort: old content stays, no temp file left */
    assert_int_equal(pt_afile_open(&af, path, 1, &err), 0);
    fputs("partial", af.fp);
    pt_afile_abort(&af);
    assert_int_equal(pt_file_read(path, &buf, &len, &err), 0);
    assert_string_equal(buf, "hello\n");
    free(buf);
    {
        char cmd[256];
        snprintf(cmd, sizeof(cmd), "test $(ls %s | wc -l) -eq 1", tmpdir);
        assert_int_equal(system(cmd), 0);
    }

    /* a full device: commit fails with PT_EIO */
    assert_int_equal(pt_afile_open(&af, "/dev/full", 0, &err), 0);
    for (int i = 0; i < 10000; i++)
        fputs("0123456789", af.fp);
    assert_int_equal(pt_afile_commit(&af, &err), PT_EIO);

    /* unwritable directory */
    assert_int_equal(pt_afile_open(&af, "/nonexistent-dir/x", 0, &err),
                     PT_ECANTCREAT);
}

static void test_json(void **state)
{
    struct pt_err err;
    json_t *doc;
    double d;
    uint64_t u;
    const char *s;
    const char bad[] = "{\n  \"a\": 1,\n  \"b\": \n}";
    (void)state;

    assert_int_equal(pt_json_loadb(bad, sizeof(bad) - 1, "x.json", &doc, &err),
                     PT_EDATA);
    assert_non_null(strstr(err.msg, "x.json:4"));
    assert_int_equal(pt_json_load("/nonexistent.json", &doc, &err),
                     PT_ENOINPUT);
    assert_int_equal(pt_json_loadb("{\"n\": 3, \"r\": 2.5, \"s\": \"x\"}", 28,
                                   "m", &doc, &err),
                     0);
    assert_int_equal(pt_json_get_u64(doc, "n", &u, "m", &err), 0);
    assert_int_equal(u, 3);
    assert_int_equal(pt_json_get_num(doc, "r", &d, "m", &err), 0);
    assert_int_equal(pt_json_get_u64(doc, "r", &u, "m", &err), PT_EDATA);
    assert_int_equal(pt_json_get_str(doc, "s", &s, "m", &err), 0);
    assert_string_equal(s, "x");
    assert_int_equal(pt_json_get_str(doc, "zz", &s, "m", &err), PT_EDATA);
    assert_non_null(strstr(err.msg, "'zz'"));
    u = 7;
    assert_int_equal(pt_json_opt_u64(doc, "zz", &u, "m", &err), 0);
    assert_int_equal(u, 7);
    json_decref(doc);
}

static void test_yaml(void **state)
{
    struct pt_err err;
    json_t *doc;
    const char good[] = "name: db2\npage_sizes: [4096, 8192]\n"
                        "ratio: 0.5\nquoted: \"12\"\nflag: true\n"
                        "nested:\n  - a: 1\n";
    const char bad[] = "a: 1\n b: [\n";
    const char dup[] = "a: 1\na: 2\n";
    (void)state;

    assert_int_equal(prof_loadb(good, sizeof(good) - 1, "g.yaml", &doc, &err),
                     0);
    assert_string_equal(json_string_value(json_object_get(doc, "name")), "db2");
    assert_int_equal(json_integer_value(
                         json_array_get(json_object_get(doc, "page_sizes"), 1)),
                     8192);
    assert_true(json_is_real(json_object_get(doc, "ratio")));
    assert_true(json_is_string(json_object_get(doc, "quoted")));
    assert_true(json_is_true(json_object_get(doc, "flag")));
    json_decref(doc);
    assert_int_equal(prof_loadb(bad, sizeof(bad) - 1, "b.yaml", &doc, &err),
                     PT_EDATA);
    assert_non_null(strstr(err.msg, "b.yaml:"));
    assert_int_equal(prof_loadb(dup, sizeof(dup) - 1, "d.yaml", &doc, &err),
                     PT_EDATA);
    assert_non_null(strstr(err.msg, "duplicate"));
    assert_int_equal(prof_loadb("- 1\n", 4, "l.yaml", &doc, &err), PT_EDATA);
    /* an unknown name is a usage error listing the names there */
    assert_int_equal(prof_load_named("devices", "nosuchdevice", &doc, &err),
                     PT_EUSAGE);
    assert_non_null(strstr(err.msg, "no device profile 'nosuchdevice' (the "
                                    "profiles: hdd, nvme, ssd)"));
    assert_int_equal(prof_load_named("devices", "nvem", &doc, &err), PT_EUSAGE);
    assert_non_null(strstr(err.msg, "did you mean 'nvme'?"));
}

static void test_alloc_hook(void **state)
{
    struct pt_err err;
    json_t *doc;
    const char y[] = "a: 1\n";
    char *p;
    (void)state;
    (void)doc;
    (void)y;
    (void)err;

    pt_alloc_fail_after(0);
    p = pt_malloc(10);
    pt_alloc_fail_after(-1);
    assert_null(p);
    p = pt_malloc(10);
    assert_non_null(p);
    free(p);
}

static void test_tmpdir_cleanup(void **state)
{
    char dir[64], file[96];
    FILE *fp;
    int slot;
    (void)state;

    strcpy(dir, "/tmp/pt-tmpdir-XXXXXX");
    assert_non_null(mkdtemp(dir));
    snprintf(file, sizeof(file), "%s/inner", dir);
    fp = fopen(file, "w");
    assert_non_null(fp);
    fclose(fp);
    slot = pt_tmpdir_register(dir);
    assert_true(slot >= 0);
    /* what the interrupt handler runs */
    pt_cleanup_signal();
    assert_int_not_equal(access(dir, F_OK), 0);
    pt_tmpdir_unregister(slot);
}

static mode_t mode_of(const char *path)
{
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    return st.st_mode & 07777;
}

static void write_afile(const char *path, int force, const char *text)
{
    struct pt_afile af;
    struct pt_err err;

    assert_int_equal(pt_afile_open(&af, path, force, &err), 0);
    fputs(text, af.fp);
    assert_int_equal(pt_afile_commit(&af, &err), 0);
}

/* Outputs are created like any file; --force keeps a file's mode. */
static void test_afile_modes(void **state)
{
    char path[128];
    mode_t old;
    (void)state;

    snprintf(path, sizeof(path), "%s/m.txt", tmpdir);
    old = umask(077);
    write_afile(path, 0, "a\n");
    assert_int_equal(mode_of(path), 0600);
    umask(022);
    /* --force over a 0600 file: still 0600, not widened to 0644 */
    write_afile(path, 1, "b\n");
    assert_int_equal(mode_of(path), 0600);
    assert_int_equal(unlink(path), 0);
    write_afile(path, 0, "c\n");
    assert_int_equal(mode_of(path), 0644);
    assert_int_equal(chmod(path, 0640), 0);
    write_afile(path, 1, "d\n");
    assert_int_equal(mode_of(path), 0640);
    umask(old);
}

/* A symbolic link at the output path, dangling or not, already exists. */
static void test_afile_symlink(void **state)
{
    struct pt_afile af;
    struct pt_err err;
    char link[128], target[128], other[128], buf[16];
    struct stat st;
    (void)state;

    snprintf(link, sizeof(link), "%s/link.json", tmpdir);
    snprintf(target, sizeof(target), "%s/nowhere.json", tmpdir);
    snprintf(other, sizeof(other), "%s/real.json", tmpdir);
    assert_int_equal(symlink(target, link), 0);
    assert_int_equal(pt_output_check(link, 0, &err), PT_ECANTCREAT);
    assert_non_null(strstr(err.msg, "`force`"));
    assert_int_equal(pt_afile_open(&af, link, 0, &err), PT_ECANTCREAT);
    /* untouched: still a dangling link, nothing created behind it */
    assert_int_equal(lstat(link, &st), 0);
    assert_true(S_ISLNK(st.st_mode));
    assert_int_not_equal(access(target, F_OK), 0);
    /* with --force the link is replaced by the file */
    write_afile(link, 1, "x\n");
    assert_int_equal(lstat(link, &st), 0);
    assert_true(S_ISREG(st.st_mode));
    assert_int_not_equal(access(target, F_OK), 0);
    /* a link to an existing file is refused as well */
    write_afile(other, 0, "y\n");
    assert_int_equal(unlink(link), 0);
    assert_int_equal(symlink(other, link), 0);
    assert_int_equal(pt_output_check(link, 0, &err), PT_ECANTCREAT);
    /* a link to a device is written in place, like the device */
    assert_int_equal(unlink(link), 0);
    assert_int_equal(symlink("/dev/null", link), 0);
    assert_int_equal(pt_output_check(link, 0, &err), 0);
    assert_int_equal(readlink(link, buf, sizeof(buf)), 9);
}

/*
 * Once an interrupt is recorded nothing new is committed: run in a child,
 * since the flag is process-wide and stays set.
 */
static void test_interrupt_commit(void **state)
{
    char path[128];
    pid_t pid;
    int status;
    (void)state;

    snprintf(path, sizeof(path), "%s/late.txt", tmpdir);
    pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        struct pt_afile af;
        struct pt_err err;
        if (pt_interrupted() != 0 || pt_afile_open(&af, path, 0, &err) != 0)
            _exit(1);
        fputs("late\n", af.fp);
        pt_interrupt_note(SIGTERM);
        pt_interrupt_note(SIGINT); /* the first signal is the one kept */
        if (pt_interrupted() != SIGTERM)
            _exit(2);
        _exit(pt_afile_commit(&af, &err) == PT_EINTR ? 0 : 3);
    }
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 0);
    assert_int_not_equal(access(path, F_OK), 0);
    {
        char cmd[256];
        snprintf(cmd, sizeof(cmd), "test -z \"$(ls %s | grep tmp)\"", tmpdir);
        assert_int_equal(system(cmd), 0);
    }
}

/* The signal-safe removal: temp files and nested temp dirs. */
static void test_cleanup_registry(void **state)
{
    struct pt_afile af;
    struct pt_err err;
    char dir[64], sub[96], file[128], out[128], tmp[160];
    int slot;
    FILE *fp;
    (void)state;

    strcpy(dir, "/tmp/pt-tmpdir-XXXXXX");
    assert_non_null(mkdtemp(dir));
    snprintf(sub, sizeof(sub), "%s/a", dir);
    assert_int_equal(mkdir(sub, 0700), 0);
    snprintf(sub, sizeof(sub), "%s/a/b", dir);
    assert_int_equal(mkdir(sub, 0700), 0);
    snprintf(file, sizeof(file), "%s/a/b/store.db-wal", dir);
    fp = fopen(file, "w");
    assert_non_null(fp);
    fclose(fp);
    slot = pt_tmpdir_register(dir);
    assert_true(slot >= 0);
    snprintf(out, sizeof(out), "%s/pending.json", tmpdir);
    assert_int_equal(pt_afile_open(&af, out, 0, &err), 0);
    snprintf(tmp, sizeof(tmp), "%s", af.tmp);
    assert_int_equal(access(tmp, F_OK), 0);
    pt_cleanup_signal();
    assert_int_not_equal(access(dir, F_OK), 0);
    assert_int_not_equal(access(tmp, F_OK), 0);
    pt_afile_abort(&af);
    pt_tmpdir_unregister(slot);

    /* the normal-path sweep empties the table */
    assert_int_equal(pt_tmpdir_make("unit", dir, sizeof(dir), &slot, &err), 0);
    assert_true(slot >= 0);
    assert_non_null(strstr(dir, "/pagetune-unit."));
    pt_cleanup_all();
    assert_int_not_equal(access(dir, F_OK), 0);
    assert_int_equal(pt_tmpdir_make("unit", dir, sizeof(dir), &slot, &err), 0);
    pt_tmpdir_remove(dir, slot);
    assert_int_not_equal(access(dir, F_OK), 0);
    /* a symbolic link is removed, never followed */
    assert_int_equal(pt_rmtree("/nonexistent-pt-dir"), 0);
}

/* Names in directory `dir` starting with `prefix`, counted. */
static int count_entries(const char *dir, const char *prefix)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    int n = 0;

    if (!d)
        return -1;
    while ((e = readdir(d)) != NULL)
        if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0 &&
            strncmp(e->d_name, prefix, strlen(prefix)) == 0)
            n++;
    closedir(d);
    return n;
}

/* Write files a and b holding `text` as one out-dir set. */
static int outdir_write(const char *path, int force, const char *text,
                        size_t pad, struct pt_err *err)
{
    static const char *const names[] = {"a.json", "b.sql"};
    struct pt_outdir od;
    char file[256];
    int rc;

    if ((rc = pt_outdir_begin(&od, path, force, err)) < 0)
        return rc;
    for (int i = 0; i < 2; i++) {
        struct pt_afile af;
        if ((rc = pt_outdir_file(&od, names[i], file, sizeof(file), err)) < 0 ||
            (rc = pt_afile_open(&af, file, 1, err)) < 0) {
            pt_outdir_abort(&od);
            return rc;
        }
        fputs(text, af.fp);
        for (size_t k = 0; k < pad; k++)
            fputc(' ', af.fp);
        if ((rc = pt_afile_commit(&af, err)) < 0) {
            pt_outdir_abort(&od);
            return rc;
        }
    }
    return pt_outdir_commit(&od, err);
}

static char *read_first_line(const char *path)
{
    char *buf;
    size_t len;

    if (pt_file_read(path, &buf, &len, NULL) < 0)
        return NULL;
    buf[strcspn(buf, " \n")] = '\0';
    return buf;
}

static void test_outdir(void **state)
{
    struct pt_outdir od;
    struct pt_err err;
    char path[128], file[192], *s;
    mode_t old;
    (void)state;

    snprintf(path, sizeof(path), "%s/advice", tmpdir);
    /* no old set, abort: nothing at all, no staging directory left */
    assert_int_equal(pt_outdir_begin(&od, path, 0, &err), 0);
    assert_int_equal(pt_outdir_file(&od, "a.json", file, sizeof(file), &err),
                     0);
    pt_outdir_abort(&od);
    pt_outdir_abort(&od); /* zero state */
    assert_int_not_equal(access(path, F_OK), 0);
    assert_int_equal(count_entries(tmpdir, ".advice"), 0);
    /* nothing written: no empty new directory */
    assert_int_equal(pt_outdir_begin(&od, path, 0, &err), 0);
    assert_int_equal(pt_outdir_commit(&od, &err), PT_EINTERNAL);
    assert_int_not_equal(access(path, F_OK), 0);
    /* the first set, made like any directory */
    old = umask(027);
    assert_int_equal(outdir_write(path, 0, "one\n", 0, &err), 0);
    umask(old);
    assert_int_equal(mode_of(path), 0750);
    snprintf(file, sizeof(file), "%s/a.json", path);
    s = read_first_line(file);
    assert_string_equal(s, "one");
    free(s);
    /* an existing non-empty set needs force */
    assert_int_equal(outdir_write(path, 0, "two\n", 0, &err), PT_ECANTCREAT);
    assert_non_null(strstr(err.msg, "`force`"));
    /* replaced as a whole: a stray file of the old set is gone too */
    snprintf(file, sizeof(file), "%s/stale.html", path);
    fclose(fopen(file, "w"));
    assert_int_equal(chmod(path, 0700), 0);
    assert_int_equal(outdir_write(path, 1, "two\n", 0, &err), 0);
    assert_int_not_equal(access(file, F_OK), 0);
    assert_int_equal(mode_of(path), 0700);
    snprintf(file, sizeof(file), "%s/b.sql", path);
    s = read_first_line(file);
    assert_string_equal(s, "two");
    free(s);
    assert_int_equal(count_entries(tmpdir, ".advice"), 0);
    /* abort after writing: the old set stays whole */
    assert_int_equal(pt_outdir_begin(&od, path, 1, &err), 0);
    assert_int_equal(pt_outdir_file(&od, "a.json", file, sizeof(file), &err),
                     0);
    fclose(fopen(file, "w"));
    pt_outdir_abort(&od);
    snprintf(file, sizeof(file), "%s/a.json", path);
    s = read_first_line(file);
    assert_string_equal(s, "two");
    free(s);
    assert_int_equal(count_entries(tmpdir, ".advice"), 0);
    /* a file, a trailing slash, a bad name */
    assert_int_equal(pt_outdir_begin(&od, file, 1, &err), PT_ECANTCREAT);
    snprintf(file, sizeof(file), "%s/", path);
    assert_int_equal(pt_outdir_begin(&od, file, 1, &err), PT_ECANTCREAT);
    assert_int_equal(pt_outdir_begin(&od, path, 1, &err), 0);
    assert_int_equal(pt_outdir_file(&od, "../x", file, sizeof(file), &err),
                     PT_EINTERNAL);
    pt_outdir_abort(&od);
}

/*
 * The fallback without RENAME_EXCHANGE (kernels before 3.15, file systems
 * without it): a child makes renameat2 fail with ENOSYS through a seccomp
 * filter, as such a kernel would, and replaces a set; the old directory is
 * moved aside, the new one renamed in, the old one removed.
 */
static void test_outdir_no_exchange(void **state)
{
    char path[128], file[192], *s;
    pid_t pid;
    int status;
    (void)state;

    snprintf(path, sizeof(path), "%s/plain", tmpdir);
    assert_int_equal(outdir_write(path, 0, "old\n", 0, NULL), 0);
    pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        struct sock_filter insns[] = {
            BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
                     offsetof(struct seccomp_data, nr)),
            BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_renameat2, 0, 1),
            BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ENOSYS),
            BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
        };
        struct sock_fprog prog = {sizeof(insns) / sizeof(insns[0]), insns};
        if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 ||
            prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) != 0)
            _exit(77);
        if (syscall(SYS_renameat2, AT_FDCWD, "a", AT_FDCWD, "b", 0) == 0 ||
            errno != ENOSYS)
            _exit(2);
        _exit(outdir_write(path, 1, "new\n", 0, NULL) == 0 ? 0 : 3);
    }
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status));
    if (WEXITSTATUS(status) == 77)
        skip(); /* no seccomp here: the exchange path is tested above */
    assert_int_equal(WEXITSTATUS(status), 0);
    snprintf(file, sizeof(file), "%s/a.json", path);
    s = read_first_line(file);
    assert_string_equal(s, "new");
    free(s);
    assert_int_equal(count_entries(path, ""), 2);
    /* neither the staging nor the aside directory is left */
    assert_int_equal(count_entries(tmpdir, ".plain"), 0);
}

/* The generation line of `name` in the directory open as dfd, or -1. */
static int read_gen_at(int dfd, const char *name, char *buf, size_t len)
{
    int fd = openat(dfd, name, O_RDONLY);
    ssize_t n;

    if (fd < 0)
        return -1;
    n = read(fd, buf, len - 1);
    close(fd);
    if (n <= 0)
        return -1;
    buf[n] = '\0';
    buf[strcspn(buf, " \n")] = '\0';
    return 0;
}

/*
 * One look at the out-dir as a reader sees it: 0 when it holds no set (only
 * allowed while `seen` is 0) or one whole generation, -1 otherwise. The
 * directory is pinned by a descriptor so a swap between the two reads is
 * told apart from a set with a file missing: a file may vanish only from a
 * directory that is no longer the out-dir.
 */
static int observe(const char *path, int seen)
{
    char a[64], b[64];
    struct stat pinned, now;
    int dfd = open(path, O_RDONLY | O_DIRECTORY);
    int ok_a, ok_b, rc = 0;

    if (dfd < 0)
        return seen ? -1 : 0;
    ok_a = read_gen_at(dfd, "a.json", a, sizeof(a)) == 0;
    ok_b = read_gen_at(dfd, "b.sql", b, sizeof(b)) == 0;
    if (ok_a && ok_b)
        rc = strcmp(a, b) == 0 ? 0 : -1;
    else if (fstat(dfd, &pinned) == 0 && stat(path, &now) == 0 &&
             pinned.st_ino == now.st_ino)
        rc = -1; /* still the out-dir, and a file is missing */
    close(dfd);
    return rc;
}

/*
 * fork + SIGKILL: a child replaces the set again and again (generation N in
 * both files) while the parent looks at the out-dir; killed at any moment,
 * the out-dir holds no set (before the first commit) or one whole
 * generation, both files alike, never an empty directory.
 */
static void test_outdir_kill(void **state)
{
    char path[128], cmd[256];
    int seen = 0, looks = 0, bad = 0;
    (void)state;

    snprintf(path, sizeof(path), "%s/killed", tmpdir);
    for (int round = 0; round < 30; round++) {
        uint64_t until;
        int status, fds[2], round_looks = 0;
        char go;
        pid_t pid;

        assert_int_equal(pipe(fds), 0);
        pid = fork();
        assert_true(pid >= 0);
        if (pid == 0) {
            char text[32];
            close(fds[0]);
            for (unsigned gen = 0;; gen++) {
                snprintf(text, sizeof(text), "%u-%d\n", gen, round);
                if (outdir_write(path, 1, text, 4000, NULL) < 0)
                    _exit(1);
                if (gen == 0) { /* the first set is in: the kill may come */
                    (void)!write(fds[1], "g", 1);
                    close(fds[1]);
                }
            }
        }
        close(fds[1]);
        /* wait for the child's first set however slow the machine (or
         * valgrind) is, then kill it at a varying moment after that */
        assert_int_equal(read(fds[0], &go, 1), 1);
        close(fds[0]);
        until = pt_now_ns() + (uint64_t)(round % 10 + 1) * 4000000u;
        /* no assert while the child runs: a failure would orphan it */
        while (!bad && (pt_now_ns() < until || round_looks < 5)) {
            bad = observe(path, seen) != 0;
            seen |= access(path, F_OK) == 0;
            looks++;
            round_looks++;
        }
        kill(pid, SIGKILL);
        assert_int_equal(waitpid(pid, &status, 0), pid);
        assert_false(bad);
        assert_true(WIFSIGNALED(status));
        assert_int_equal(observe(path, seen), 0);
        if (access(path, F_OK) == 0) {
            seen = 1;
            assert_int_equal(count_entries(path, ""), 2);
        }
        /* SIGKILL may leave a staging directory: not the target's concern */
        snprintf(cmd, sizeof(cmd), "rm -rf %s/.killed.pagetune*", tmpdir);
        assert_int_equal(system(cmd), 0);
    }
    assert_true(seen);
    assert_true(looks >= 150);
}

static void test_err(void **state)
{
    struct pt_err err;
    (void)state;
    assert_int_equal(err_set(&err, PT_EDATA, "bad '%s'", "x"), PT_EDATA);
    assert_int_equal(err_prefix(&err, "file.txt:%d", 3), PT_EDATA);
    assert_string_equal(err.msg, "file.txt:3: bad 'x'");
    assert_int_equal(err_set(NULL, PT_EIO, "ignored"), PT_EIO);
}

/* pt_pathset_check of two paths: the status (issue 13, issue 21). */
static int pair(const char *oa, const char *a, enum pt_path_role ra,
                const char *ob, const char *b, enum pt_path_role rb,
                struct pt_err *err)
{
    struct pt_pathset s;
    int rc;

    pt_pathset_init(&s);
    assert_int_equal(pt_pathset_add(&s, oa, a, ra, err), 0);
    assert_int_equal(pt_pathset_add(&s, ob, b, rb, err), 0);
    rc = pt_pathset_check(&s, err);
    pt_pathset_release(&s);
    return rc;
}

#define OUT PT_PATH_OUT
#define IN PT_PATH_IN
#define DIR_ PT_PATH_OUTDIR

/* The same file: by name before it exists, by device and inode after. */
static void test_pathset_same_file(void **state)
{
    char a[128], a2[160], b[128], ln[128], hard[128], rel[160], cwd[4096];
    struct pt_err err;
    FILE *fp;
    (void)state;

    snprintf(a, sizeof(a), "%s/out.json", tmpdir);
    snprintf(b, sizeof(b), "%s/mrc.csv", tmpdir);
    snprintf(ln, sizeof(ln), "%s/link.json", tmpdir);
    snprintf(hard, sizeof(hard), "%s/hard.json", tmpdir);
    snprintf(a2, sizeof(a2), "%s/sub", tmpdir);
    assert_int_equal(mkdir(a2, 0700), 0);
    snprintf(a2, sizeof(a2), "%s/./sub/../out.json", tmpdir);

    /* neither exists yet: the same name through another directory path */
    assert_int_equal(pair("-o", a, OUT, "--mrc-csv", a2, OUT, &err), PT_EUSAGE);
    assert_non_null(strstr(err.msg, "--mrc-csv"));
    assert_non_null(strstr(err.msg, "same file"));
    assert_int_equal(pair("-o", a, OUT, "--mrc-csv", a, OUT, &err), PT_EUSAGE);
    assert_string_equal(strstr(err.msg, "-o"), err.msg);
    assert_int_equal(pair("-o", a, OUT, "--mrc-csv", b, OUT, &err), 0);
    /* stdin and stdout never clash; two inputs never do */
    assert_int_equal(pair("-o", "-", OUT, "--trace", "-", IN, &err), 0);
    assert_int_equal(pair("-o", a, OUT, "--ack-log", NULL, OUT, &err), 0);
    assert_int_equal(pair("--sizes", a, IN, "--monitor", a, IN, &err), 0);
    /* an input named like the output; the output is named first */
    assert_int_equal(pair("--sizes", a, IN, "-o", a, OUT, &err), PT_EUSAGE);
    assert_non_null(strstr(err.msg, "-o and --sizes name the same file"));
    /* a symbolic link to the other output, dangling then not */
    assert_int_equal(symlink(a, ln), 0);
    assert_int_equal(pair("-o", a, OUT, "--ack-log", ln, OUT, &err), PT_EUSAGE);
    fp = fopen(a, "w");
    assert_non_null(fp);
    fclose(fp);
    assert_int_equal(pair("-o", ln, OUT, "--trace", a, IN, &err), PT_EUSAGE);
    /* a hard link: same device and inode */
    assert_int_equal(link(a, hard), 0);
    assert_int_equal(pair("-o", hard, OUT, "--trace", a, IN, &err), PT_EUSAGE);
    assert_int_equal(pair("-o", hard, OUT, "--trace", b, IN, &err), 0);
    /* ./name and name, from the working directory */
    assert_non_null(getcwd(cwd, sizeof(cwd)));
    assert_int_equal(chdir(tmpdir), 0);
    snprintf(rel, sizeof(rel), "./%s", "out.json");
    assert_int_equal(pair("-o", "out.json", OUT, "--sizes", rel, IN, &err),
                     PT_EUSAGE);
    assert_int_equal(
        pair("-o", "new.json", OUT, "--sizes", "./new.json", IN, &err),
        PT_EUSAGE);
    assert_int_equal(chdir(cwd), 0);
    /* a device is written in place: never a clash */
    assert_int_equal(
        pair("-o", "/dev/null", OUT, "--sizes", "/dev/null", IN, &err), 0);
}

/* A path inside a directory replaced as one unit. */
static void test_pathset_outdir(void **state)
{
    char d[128], in[160], deep[192], other[128], ln[128], fresh[128],
        fresh_in[160];
    struct pt_err err;
    FILE *fp;
    (void)state;

    snprintf(d, sizeof(d), "%s/advice", tmpdir);
    snprintf(in, sizeof(in), "%s/advice/w.yaml", tmpdir);
    snprintf(deep, sizeof(deep), "%s/advice/sub/x", tmpdir);
    snprintf(other, sizeof(other), "%s/advice2", tmpdir);
    snprintf(ln, sizeof(ln), "%s/w-link.yaml", tmpdir);
    snprintf(fresh, sizeof(fresh), "%s/fresh", tmpdir);
    snprintf(fresh_in, sizeof(fresh_in), "%s/fresh/a.json", tmpdir);
    assert_int_equal(mkdir(d, 0700), 0);
    fp = fopen(in, "w");
    assert_non_null(fp);
    fclose(fp);

    assert_int_equal(pair("--workload", in, IN, "--out-dir", d, DIR_, &err),
                     PT_EUSAGE);
    assert_non_null(strstr(err.msg, "lies inside --out-dir"));
    assert_string_equal(strstr(err.msg, "--workload"), err.msg);
    assert_int_equal(pair("--out-dir", d, DIR_, "--x", deep, IN, &err),
                     PT_EUSAGE);
    assert_int_equal(pair("--out-dir", d, DIR_, "--x", d, IN, &err), PT_EUSAGE);
    /* a symbolic link from outside to a file inside */
    assert_int_equal(symlink(in, ln), 0);
    assert_int_equal(pair("--out-dir", d, DIR_, "--x", ln, IN, &err),
                     PT_EUSAGE);
    /* a sibling whose name starts the same is not inside */
    assert_int_equal(pair("--out-dir", d, DIR_, "--x", other, IN, &err), 0);
    assert_int_equal(pair("--out-dir", other, DIR_, "--x", in, IN, &err), 0);
    /* an out-dir that does not exist yet: by name */
    assert_int_equal(pair("--out-dir", fresh, DIR_, "--x", fresh_in, OUT, &err),
                     PT_EUSAGE);
    assert_int_equal(pair("--out-dir", fresh, DIR_, "--x", in, IN, &err), 0);
    /* "dir/" names dir; a missing directory resolves like an existing one */
    snprintf(other, sizeof(other), "%s/advice/", tmpdir);
    assert_int_equal(pair("--out-dir", other, DIR_, "--x", in, IN, &err),
                     PT_EUSAGE);
    snprintf(other, sizeof(other), "%s/fresh/./a.json", tmpdir);
    assert_int_equal(pair("-o", fresh_in, OUT, "--y", other, OUT, &err),
                     PT_EUSAGE);
}

/* did you mean: distances and the closest name within reach */
static void test_suggest(void **state)
{
    static const char *const cmds[] = {"advise", "calibrate", "ddl", "monitor",
                                       "recommend"};
    static const char *const cmds2[] = {"advise", "recommend", "replay",
                                        "report", "sample"};
    static const char *const many[] = {"p0", "p1", "p2", "p3", "p4",
                                       "p5", "p6", "p7", "p8", "p9"};
    struct pt_suggest sg;
    char hint[160];
    (void)state;

    assert_int_equal(pt_edit_distance("advice", "advise"), 1);
    assert_int_equal(pt_edit_distance("memroy", "memory"), 1); /* swap */
    assert_int_equal(pt_edit_distance("MEMORY", "memory"), 0);
    assert_int_equal(pt_edit_distance("", "ddl"), 3);
    assert_int_equal(pt_edit_distance("kitten", "sitting"), 3);
    pt_suggest_init(&sg, "advice");
    for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
        pt_suggest_add(&sg, cmds[i]);
    assert_string_equal(pt_suggest_best(&sg), "advise");
    pt_suggest_init(&sg, "x"); /* nothing within one edit of 'x' */
    for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
        pt_suggest_add(&sg, cmds[i]);
    assert_null(pt_suggest_best(&sg));
    assert_string_equal(pt_suggest_hint(&sg, "", "'", hint, sizeof(hint)), "");
    pt_suggest_init(&sg, "memroy");
    pt_suggest_add(&sg, "memory");
    assert_string_equal(pt_suggest_hint(&sg, "--", "", hint, sizeof(hint)),
                        "did you mean --memory?");
    /* an abbreviation of several: each named, the closest first if any */
    pt_suggest_init(&sg, "re");
    for (size_t i = 0; i < sizeof(cmds2) / sizeof(cmds2[0]); i++)
        pt_suggest_add(&sg, cmds2[i]);
    assert_string_equal(pt_suggest_hint(&sg, "", "'", hint, sizeof(hint)),
                        "it abbreviates 'recommend', 'replay' and 'report': "
                        "give more of it");
    pt_suggest_init(&sg, "samp"); /* the one it begins */
    for (size_t i = 0; i < sizeof(cmds2) / sizeof(cmds2[0]); i++)
        pt_suggest_add(&sg, cmds2[i]);
    assert_string_equal(pt_suggest_hint(&sg, "", "'", hint, sizeof(hint)),
                        "did you mean 'sample'?");
    pt_suggest_init(&sg, "p"); /* more than the list holds: counted */
    for (size_t i = 0; i < 10; i++)
        pt_suggest_add(&sg, many[i]);
    assert_string_equal(
        pt_suggest_hint(&sg, "--", "", hint, sizeof(hint)),
        "it abbreviates --p0, --p1, --p2, --p3, --p4, --p5, --p6, --p7 and 2 "
        "more: give more of it");
    assert_string_equal(pt_suggest_hint(&sg, "--", "", hint, 12),
                        "it abbrevia"); /* cut, terminated */
}

/* which document a JSON tree is, and the error of the wrong one */
static void test_doc_kind(void **state)
{
    json_t *mon = json_pack("{s:{},s:{}}", "current", "summary");
    json_t *siz =
        json_pack("{s:i,s:[],s:{}}", "p50", 1, "histogram", "current");
    struct pt_err err;
    (void)state;

    assert_string_equal(pt_json_doc_kind(mon), "monitor");
    assert_string_equal(pt_json_doc_kind(siz), "sizes");
    assert_int_equal(pt_json_wrong_doc(siz, "sizes", "s.json", &err), 0);
    assert_int_equal(pt_json_wrong_doc(mon, "sizes", "m.json", &err), PT_EDATA);
    assert_string_equal(err.msg, "m.json is a monitor document (it has "
                                 "'current' and 'summary'), not a sizes "
                                 "document");
    json_decref(mon);
    json_decref(siz);
}

/* ---- text.c: tables that never split a word ------------------------------ */

static char *render_table(const struct pt_text_table *t, size_t width)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&buf, &len);

    assert_non_null(fp);
    assert_int_equal(pt_text_table_write(t, width, fp), 0);
    fclose(fp);
    return buf;
}

/* Is `word` a whole token (blanks or the ends on both sides) of `text`? */
static int whole_token(const char *text, const char *word)
{
    size_t n = strlen(word);

    for (const char *p = strstr(text, word); p; p = strstr(p + 1, word))
        if ((p == text || p[-1] == ' ' || p[-1] == '\n') &&
            (p[n] == '\0' || p[n] == ' ' || p[n] == '\n'))
            return 1;
    return 0;
}

/*
 * Random tables of words (up to 14 columns wide) at widths from 30 to 200:
 * no line is wider than the width, none ends in a space, and every word of
 * every cell and header is a whole token of the output, whichever layout
 * the width chose.
 */
static void test_text_table_words_whole(void **state)
{
    static const char *const words[] = {
        "4K",        "16K",       "-37.8%",           "[-37.6,",  "+25.3]",
        "20000",     "1273856",   "placement",        "S",        "0%",
        "page_size", "io_ms/acc", "recommended",      "(default", "in",
        "use)",      "0.9620",    "direct_reads/acc", "-",        "hit"};
    const size_t n_words = sizeof(words) / sizeof(words[0]);
    unsigned seed = 7;
    int layouts[3] = {0, 0, 0};
    (void)state;

    for (int round = 0; round < 60; round++) {
        size_t nc = 1 + (size_t)(rand_r(&seed) % 12);
        size_t nr = (size_t)(rand_r(&seed) % 6);
        char *heads[12], *cells[6 * 12];
        int right[12];
        struct pt_text_table t = {nc, nr, heads, cells, right, "a title"};

        for (size_t c = 0; c < nc; c++) {
            heads[c] = pt_strdup(words[rand_r(&seed) % n_words]);
            right[c] = rand_r(&seed) % 2;
        }
        for (size_t i = 0; i < nr * nc; i++) {
            char cell[256] = "";
            int k = 1 + rand_r(&seed) % 3;
            for (int j = 0; j < k; j++) {
                strcat(cell, j ? " " : "");
                strcat(cell, words[rand_r(&seed) % n_words]);
            }
            cells[i] = pt_strdup(cell);
        }
        for (size_t width = 30; width <= 200; width += 17) {
            char *out = render_table(&t, width), *line = out;
            layouts[pt_text_table_layout(&t, width)]++;
            while (*line) {
                size_t n = strcspn(line, "\n");
                assert_true(pt_text_width(line, n) <= width);
                assert_true(n == 0 || line[n - 1] != ' ');
                line += n + (line[n] ? 1 : 0);
            }
            for (size_t c = 0; c < nc; c++)
                if (!whole_token(out, heads[c]))
                    fail_msg("width %zu: '%s' not whole in:\n%s", width,
                             heads[c], out);
            for (size_t i = 0; i < nr * nc; i++) {
                char *copy = pt_strdup(cells[i]), *save = NULL;
                for (char *w = strtok_r(copy, " ", &save); w;
                     w = strtok_r(NULL, " ", &save))
                    assert_true(whole_token(out, w));
                free(copy);
            }
            free(out);
        }
        for (size_t c = 0; c < nc; c++)
            free(heads[c]);
        for (size_t i = 0; i < nr * nc; i++)
            free(cells[i]);
    }
    /* the rounds saw every layout */
    assert_true(layouts[PT_TEXT_COLUMNS] > 0);
    assert_true(layouts[PT_TEXT_TRANSPOSED] > 0);
    assert_true(layouts[PT_TEXT_RECORDS] > 0);
}

/* The page sizes side by side when the columns do not fit. */
static void test_text_table_transposed(void **state)
{
    char *heads[] = {"page_size", "direct_reads/acc", "choice"};
    char *cells[] = {"4K", "0.3930", "(default in use)",
                     "8K", "0.0330", "<- best"};
    int right[] = {1, 1, 0};
    struct pt_text_table t = {3, 2, heads, cells, right, NULL};
    char *out;
    (void)state;

    assert_int_equal(pt_text_table_layout(&t, 0), PT_TEXT_COLUMNS);
    assert_int_equal(pt_text_table_layout(&t, 60), PT_TEXT_COLUMNS);
    assert_int_equal(pt_text_table_layout(&t, 35), PT_TEXT_TRANSPOSED);
    assert_int_equal(pt_text_table_layout(&t, 30), PT_TEXT_RECORDS);
    out = render_table(&t, 35);
    assert_string_equal(out, "page_size               4K       8K\n"
                             "----------------  --------  -------\n"
                             "direct_reads/acc    0.3930   0.0330\n"
                             "choice            (default  <- best\n"
                             "                  in use)\n");
    free(out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_size_parse),
        cmocka_unit_test(test_text_table_words_whole),
        cmocka_unit_test(test_text_table_transposed),
        cmocka_unit_test(test_size_list),
        cmocka_unit_test(test_size_format),
        cmocka_unit_test(test_numbers),
        cmocka_unit_test_setup_teardown(test_afile, setup_dir, teardown_dir),
        cmocka_unit_test(test_json),
        cmocka_unit_test(test_yaml),
        cmocka_unit_test(test_alloc_hook),
        cmocka_unit_test(test_tmpdir_cleanup),
        cmocka_unit_test(test_err),
        cmocka_unit_test_setup_teardown(test_afile_modes, setup_dir,
                                        teardown_dir),
        cmocka_unit_test_setup_teardown(test_afile_symlink, setup_dir,
                                        teardown_dir),
        cmocka_unit_test_setup_teardown(test_interrupt_commit, setup_dir,
                                        teardown_dir),
        cmocka_unit_test_setup_teardown(test_cleanup_registry, setup_dir,
                                        teardown_dir),
        cmocka_unit_test_setup_teardown(test_outdir, setup_dir, teardown_dir),
        cmocka_unit_test_setup_teardown(test_outdir_kill, setup_dir,
                                        teardown_dir),
        cmocka_unit_test_setup_teardown(test_outdir_no_exchange, setup_dir,
                                        teardown_dir),
        cmocka_unit_test_setup_teardown(test_pathset_same_file, setup_dir,
                                        teardown_dir),
        cmocka_unit_test_setup_teardown(test_pathset_outdir, setup_dir,
                                        teardown_dir),
        cmocka_unit_test(test_suggest),
        cmocka_unit_test(test_doc_kind),
    };
    return cmocka_run_group_tests_name("core", tests, NULL, NULL);
}
