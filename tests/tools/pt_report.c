/* SPDX-License-Identifier: Apache-2.0 */
/*
 * pt_report.c — test-only helper: renders a report model (JSON, the keys
 * documented at the top of report/report.c) to HTML with report_write_html(),
 * so tests/cli/test_report.sh can lay out in a browser a model carrying
 * every optional key, whatever `advise` fills today:
 *
 *   pt_report MODEL.json OUT.html
 *
 * Exit 0 on success, 1 with the error on stderr otherwise. Not installed.
 */
#include "report/report.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
    struct pt_err err = {0};
    json_t *model = NULL;
    FILE *fp = NULL;
    int rc = 1;

    if (argc != 3) {
        fprintf(stderr, "usage: pt_report MODEL.json OUT.html\n");
        return 2;
    }
    if (pt_json_load(argv[1], &model, &err) < 0) {
        fprintf(stderr, "pt_report: %s\n", err.msg);
        goto out;
    }
    fp = fopen(argv[2], "w");
    if (!fp) {
        fprintf(stderr, "pt_report: cannot open '%s': %s\n", argv[2],
                strerror(errno));
        goto out;
    }
    if (report_write_html(model, fp, &err) < 0) {
        fprintf(stderr, "pt_report: %s\n", err.msg);
        goto out;
    }
    rc = 0;
out:
    if (fp && fclose(fp) != 0 && rc == 0) {
        fprintf(stderr, "pt_report: cannot write '%s'\n", argv[2]);
        rc = 1;
    }
    json_decref(model);
    return rc;
}
