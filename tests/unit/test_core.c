/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_core.c — unit tests for core/: sizes, numbers, atomic files, JSON
 * and YAML loading, error formatting, the allocation-failure hook.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
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
    assert_non_null(strstr(err.msg, "--force"));

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
    assert_int_equal(prof_load_named("devices", "nosuchdevice", &doc, &err),
                     PT_ENOINPUT);
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
    pt_afile_cleanup_signal();
    assert_int_not_equal(access(dir, F_OK), 0);
    pt_tmpdir_unregister(slot);
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_size_parse),
        cmocka_unit_test(test_size_list),
        cmocka_unit_test(test_size_format),
        cmocka_unit_test(test_numbers),
        cmocka_unit_test_setup_teardown(test_afile, setup_dir, teardown_dir),
        cmocka_unit_test(test_json),
        cmocka_unit_test(test_yaml),
        cmocka_unit_test(test_alloc_hook),
        cmocka_unit_test(test_tmpdir_cleanup),
        cmocka_unit_test(test_err),
    };
    return cmocka_run_group_tests_name("core", tests, NULL, NULL);
}
