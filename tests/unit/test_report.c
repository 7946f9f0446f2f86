/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_report.c — unit tests for report/: report.html from a report model
 * (charts, tables, files, escaping of hostile text), the memory-buffer
 * renderer giving the stream renderer's bytes, and the errors of a model
 * that is not an object and of a stream that cannot be written.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/report.h"

/* A model whose page does not depend on the time of writing. */
static const char *const fixed_model =
    "{\"title\": \"pagetune report\", \"summary\": [\"use 8K pages\"],"
    " \"verdict\": {\"word\": \"confirms\", \"text\": \"replay agrees\"},"
    " \"recommendation\": {\"page_size\": 8192,"
    "   \"bufferpool\": {\"pages\": 1000, \"page_size\": 8192}},"
    " \"meta\": {\"generated_at\": \"2026-01-01T00:00:00Z\","
    "   \"pagetune_version\": \"0.0-test\", \"inputs\": [\"sizes.json\"]}}";

/* Charts, tables, files and escaping from a small model. */
static void test_report_html(void **state)
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
    assert_non_null(fp);
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

/* render model text into a new buffer (the caller frees it) */
static char *render(const char *text)
{
    json_t *model = json_loads(text, 0, NULL);
    struct pt_err err;
    char *buf = NULL;
    size_t len = 0;

    assert_non_null(model);
    assert_int_equal(report_write_html_mem(model, &buf, &len, &err), 0);
    json_decref(model);
    return buf;
}

/* issue 31: the marks the table note promises, and the Action box's
 * destructive steps */
static void test_report_marks_and_steps(void **state)
{
    char *buf;
    (void)state;

    /* a row that stays the same reads "= same" and "none"; the note
     * promises the marks because rows carry them */
    buf = render(
        "{\"title\": \"t\", \"comparison\": {\"columns\": [\"a\", \"b\"],"
        " \"rows\": [{\"label\": \"hit\", \"better\": \"higher\","
        "   \"values\": [0.5, 0.50001], \"flags\": [null, \"same\"]},"
        "  {\"label\": \"io\", \"better\": \"lower\", \"values\": [2, 1],"
        "   \"flags\": [null, \"better\"]}]},"
        " \"action\": {\"page_size\": 8192, \"destructive\":"
        "   [\"drops table <SESSIONS>\", \"restarts\"]}}");
    assert_non_null(strstr(buf, "hit<span class=\"dir\">higher is better"));
    assert_non_null(strstr(buf, "<span class=\"mk same\">= same</span></span>"
                                "</td><td data-label=\"Change\">none</td>"));
    assert_non_null(strstr(buf, "<span class=\"mk better\">&#10003; better"));
    assert_non_null(strstr(buf, "&#10003; better and &#10007; worse mark"));
    assert_non_null(strstr(buf, "<div class=\"action\" id=\"action\">"));
    assert_non_null(strstr(buf, "<ul class=\"destructive\">\n<li>drops table "
                                "&lt;SESSIONS&gt;</li>\n<li>restarts</li>"));
    free(buf);
    /* no row marked: no promise; an empty list of steps is said */
    buf = render("{\"title\": \"t\", \"comparison\": {\"columns\": [\"a\","
                 " \"b\"], \"rows\": [{\"label\": \"x\", \"values\": [1, 2]}]},"
                 " \"action\": {\"page_size\": 8192, \"destructive\": []}}");
    assert_null(strstr(buf, "&#10007; worse mark"));
    assert_non_null(strstr(buf, "&#9650; +100.0 %")); /* pt_fig_change */
    assert_non_null(strstr(buf, "create.sql drops no data"));
    free(buf);
    /* without the key, nothing is said about steps */
    buf = render("{\"title\": \"t\", \"action\": {\"page_size\": 8192}}");
    assert_null(strstr(buf, "destructive"));
    assert_null(strstr(buf, "drops no data"));
    free(buf);
}

/* The buffer holds exactly the bytes the stream renderer writes. */
static void test_report_mem(void **state)
{
    json_t *model = json_loads(fixed_model, 0, NULL);
    char *sbuf = NULL, *mbuf = (char *)"unset";
    size_t slen = 0, mlen = 1;
    struct pt_err err;
    FILE *fp;
    (void)state;

    assert_non_null(model);
    fp = open_memstream(&sbuf, &slen);
    assert_non_null(fp);
    assert_int_equal(report_write_html(model, fp, &err), 0);
    fclose(fp);
    assert_int_equal(report_write_html_mem(model, &mbuf, &mlen, &err), 0);
    assert_non_null(mbuf);
    assert_int_equal(mlen, slen);
    assert_memory_equal(mbuf, sbuf, slen);
    assert_int_equal(mbuf[mlen], '\0');
    assert_non_null(strstr(mbuf, "2026-01-01T00:00:00Z"));
    assert_non_null(strstr(mbuf, "0.0-test"));
    free(sbuf);
    free(mbuf);
    json_decref(model);
}

/* Not an object: PT_EINTERNAL, and the buffer variant hands back nothing. */
static void test_report_errors(void **state)
{
    json_t *arr = json_array();
    json_t *model = json_loads(fixed_model, 0, NULL);
    char *buf = (char *)"unset";
    size_t len = 7;
    struct pt_err err = {0};
    FILE *fp;
    (void)state;

    assert_int_equal(report_write_html_mem(arr, &buf, &len, &err),
                     PT_EINTERNAL);
    assert_null(buf);
    assert_int_equal(len, 0);
    assert_non_null(strstr(err.msg, "not an object"));
    /* a stream opened for reading cannot be written: PT_EIO */
    fp = fopen("/dev/null", "r");
    assert_non_null(fp);
    assert_int_equal(report_write_html(model, fp, &err), PT_EIO);
    assert_non_null(strstr(err.msg, "cannot write report"));
    fclose(fp);
    json_decref(arr);
    json_decref(model);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_report_html),
        cmocka_unit_test(test_report_marks_and_steps),
        cmocka_unit_test(test_report_mem),
        cmocka_unit_test(test_report_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
