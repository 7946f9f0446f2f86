/* SPDX-License-Identifier: Apache-2.0 */
/*
 * pt_sqlexec.c — test-only helper: runs SQL through collect/'s ODBC layer,
 * the same code pagetune uses, so integration tests can apply the DDL that
 * `pagetune ddl` writes for review (pagetune itself never applies DDL):
 *
 *   pt_sqlexec CONNECT script FILE   run a script (sqlscript_exec)
 *   pt_sqlexec CONNECT exec SQL      run one statement (coll_exec)
 *   pt_sqlexec CONNECT value SQL     print the first column of the first row
 *
 * Exit 0 on success, 1 with the error on stderr otherwise. Not installed.
 */
#include "sql_script.h"

#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
    struct coll_conn_opts o = {0};
    struct coll_conn *c = NULL;
    struct pt_err err = {0};
    char buf[4096];
    int rc, is_null = 0;

    if (argc != 4) {
        fprintf(stderr, "usage: pt_sqlexec CONNECT script|exec|value ARG\n");
        return 2;
    }
    o.connect = argv[1];
    o.engine = COLL_ENGINE_AUTO;
    if (coll_conn_open(&c, &o, &err) < 0) {
        fprintf(stderr, "pt_sqlexec: %s\n", err.msg);
        return 1;
    }
    if (strcmp(argv[2], "script") == 0) {
        size_t n = 0;
        rc = sqlscript_exec(c, argv[3], &n, &err);
        if (rc == 0)
            printf("%zu\n", n);
    } else if (strcmp(argv[2], "exec") == 0) {
        rc = coll_exec(c, argv[3], &err);
    } else if (strcmp(argv[2], "value") == 0) {
        rc = coll_query_value(c, argv[3], buf, sizeof(buf), &is_null, &err);
        if (rc == 0)
            printf("%s\n", is_null ? "NULL" : buf);
    } else {
        fprintf(stderr, "pt_sqlexec: unknown action '%s'\n", argv[2]);
        coll_conn_close(c);
        return 2;
    }
    coll_conn_close(c);
    if (rc < 0) {
        fprintf(stderr, "pt_sqlexec: %s\n", err.msg);
        return 1;
    }
    return 0;
}
