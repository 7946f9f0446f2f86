/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_cli.c — unit tests for cli/ pieces that do not need the binary: the
 * output writers (table, csv, json), the exit-code table, report.html and
 * the check that two outputs name different files.
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

#include "cli/cli.h"
#include "cli/report.h"

/* Render into a memory buffer with open_memstream. */
static char *capture_table(const struct out_table *t, enum out_format f)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&buf, &len);
    struct pt_err err;

    assert_non_null(fp);
    assert_int_equal(out_table_write(t, f, fp, &err), 0);
    fclose(fp);
    return buf;
}

static void test_writers(void **state)
{
    static const char *const hdr[] = {"name", ">pages"};
    struct out_table t;
    char *s;
    (void)state;

    assert_int_equal(out_table_init(&t, 2, hdr), 0);
    out_table_add_row(&t);
    out_table_setf(&t, 0, "%s", "BP8K");
    out_table_setf(&t, 1, "%d", 1000);
    out_table_add_row(&t);
    out_table_setf(&t, 0, "%s", "has,comma \"q\"");
    out_table_setf(&t, 1, "%d", 7);

    s = capture_table(&t, OUT_TABLE);
    assert_non_null(strstr(s, "name"));
    assert_non_null(strstr(s, "pages"));
    /* right-aligned numbers: 7 is padded to the width of 1000 */
    assert_non_null(strstr(s, "     7\n"));
    free(s);

    s = capture_table(&t, OUT_CSV);
    assert_string_equal(s,
                        "name,pages\nBP8K,1000\n\"has,comma \"\"q\"\"\",7\n");
    free(s);

    s = capture_table(&t, OUT_JSON);
    assert_non_null(strstr(s, "\"schema_version\": 1"));
    assert_non_null(strstr(s, "\"pages\": \"1000\""));
    free(s);
    out_table_release(&t);
}

static void test_exit_codes(void **state)
{
    (void)state;
    assert_int_equal(cli_exit_code(PT_OK), 0);
    assert_int_equal(cli_exit_code(PT_ECHECK), 1);
    assert_int_equal(cli_exit_code(PT_EUSAGE), 64);
    assert_int_equal(cli_exit_code(PT_EDATA), 65);
    assert_int_equal(cli_exit_code(PT_ENOINPUT), 66);
    assert_int_equal(cli_exit_code(PT_EUNAVAIL), 69);
    assert_int_equal(cli_exit_code(PT_EINTERNAL), 70);
    assert_int_equal(cli_exit_code(PT_ECANTCREAT), 73);
    assert_int_equal(cli_exit_code(PT_EIO), 74);
    assert_int_equal(cli_exit_code(PT_EPERM), 77);
    assert_int_equal(cli_exit_code(PT_EINTR), 130);
    assert_int_equal(cli_exit_code(-12345), 70);
}

/* Two outputs of one command must be different files (issue 13). */
static void test_outputs_distinct(void **state)
{
    char dir[64], a[128], a2[160], b[128], ln[128], hard[128];
    struct pt_err err;
    FILE *fp;
    (void)state;

    strcpy(dir, "/tmp/pt-cli-XXXXXX");
    assert_non_null(mkdtemp(dir));
    snprintf(a, sizeof(a), "%s/out.json", dir);
    snprintf(b, sizeof(b), "%s/mrc.csv", dir);
    snprintf(ln, sizeof(ln), "%s/link.json", dir);
    snprintf(hard, sizeof(hard), "%s/hard.json", dir);
    snprintf(a2, sizeof(a2), "%s/sub", dir);
    assert_int_equal(mkdir(a2, 0700), 0);
    snprintf(a2, sizeof(a2), "%s/./sub/../out.json", dir);

    /* neither exists yet: the same name through another directory path */
    assert_int_equal(cli_outputs_distinct("-o", a, "--mrc-csv", a2, &err),
                     PT_EUSAGE);
    assert_non_null(strstr(err.msg, "--mrc-csv"));
    assert_non_null(strstr(err.msg, "same file"));
    assert_int_equal(cli_outputs_distinct("-o", a, "--mrc-csv", a, &err),
                     PT_EUSAGE);
    assert_int_equal(cli_outputs_distinct("-o", a, "--mrc-csv", b, NULL), 0);
    assert_int_equal(cli_outputs_distinct("-o", "-", "--ack-log", "-", NULL),
                     0);
    assert_int_equal(cli_outputs_distinct("-o", a, "--ack-log", NULL, NULL), 0);
    /* a symbolic link to the other output, dangling then not */
    assert_int_equal(symlink(a, ln), 0);
    assert_int_equal(cli_outputs_distinct("-o", a, "--ack-log", ln, &err),
                     PT_EUSAGE);
    fp = fopen(a, "w");
    assert_non_null(fp);
    fclose(fp);
    assert_int_equal(cli_outputs_distinct("-o", ln, "--ack-log", a, &err),
                     PT_EUSAGE);
    /* a hard link: same device and inode */
    assert_int_equal(link(a, hard), 0);
    assert_int_equal(cli_outputs_distinct("-o", hard, "--ack-log", a, &err),
                     PT_EUSAGE);
    assert_int_equal(cli_outputs_distinct("-o", hard, "--ack-log", b, &err), 0);
    unlink(ln);
    unlink(hard);
    unlink(a);
    snprintf(a2, sizeof(a2), "%s/sub", dir);
    rmdir(a2);
    assert_int_equal(rmdir(dir), 0);
}

static void test_report(void **state)
{
    const char *model_text =
        "{\"title\": \"t <script>alert(1)</script>\","
        " \"summary\": [\"use 8K pages\"],"
        " \"sizes\": {\"count\": 3, \"min\": 100, \"max\": 5000,"
        "   \"histogram\": [{\"le\": 1024, \"count\": 1},"
        "                   {\"le\": 4096, \"count\": 1},"
        "                   {\"le\": 8192, \"count\": 1}]},"
        " \"limits\": [{\"page_size\": 4096, \"inline_limit\": 3122},"
        "              {\"page_size\": 8192, \"inline_limit\": 7218}],"
        " \"mrc\": [{\"page_size\": 4096, \"points\": [{\"pages\": 10,"
        "   \"hit_ratio\": 0.5}, {\"pages\": 20, \"hit_ratio\": 0.9}]}],"
        " \"recommendation\": {\"page_size\": 8192, \"candidates\": ["
        "   {\"page_size\": 4096, \"inline_fraction\": 0.6},"
        "   {\"page_size\": 8192, \"inline_fraction\": 1.0}],"
        "   \"reasons\": [\"a & b\"]},"
        " \"files\": [{\"name\": \"create.sql\", \"text\": \"CREATE x;\"}],"
        " \"assumptions\": [\"equal memory\"]}";
    json_t *model;
    json_error_t je;
    char *buf = NULL;
    size_t len = 0;
    FILE *fp;
    struct pt_err err;
    (void)state;

    model = json_loads(model_text, 0, &je);
    assert_non_null(model);
    fp = open_memstream(&buf, &len);
    assert_int_equal(report_write_html(model, fp, &err), 0);
    fclose(fp);
    assert_non_null(strstr(buf, "<svg id=\"chart-sizes\""));
    assert_non_null(strstr(buf, "<svg id=\"chart-mrc\""));
    assert_non_null(strstr(buf, "class=\"limit\""));
    assert_non_null(strstr(buf, "<polyline"));
    assert_non_null(strstr(buf, "class=\"rec\""));
    assert_non_null(strstr(buf, "CREATE x;"));
    assert_non_null(strstr(buf, "a &amp; b"));
    /* hostile text is escaped, never active */
    assert_null(strstr(buf, "<script>"));
    assert_non_null(strstr(buf, "&lt;script&gt;"));
    free(buf);
    json_decref(model);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_writers),
        cmocka_unit_test(test_exit_codes),
        cmocka_unit_test(test_outputs_distinct),
        cmocka_unit_test(test_report),
    };
    return cmocka_run_group_tests_name("cli", tests, NULL, NULL);
}
