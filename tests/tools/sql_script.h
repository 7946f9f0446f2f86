/* SPDX-License-Identifier: Apache-2.0 */
/* sql_script.h — test-only SQL script runner (sql_script.c). */
#ifndef PT_TESTS_SQL_SCRIPT_H
#define PT_TESTS_SQL_SCRIPT_H

#include "collect/collect.h"

/*
 * Execute a SQL script file statement by statement: statements end with ';'
 * at the end of a line (or a line holding only '@' for DB2 CLP-style
 * terminators, or '/' as in SQL*Plus); '--' comment lines and blank lines
 * are skipped; quotes are respected. Stops at the first failing statement:
 * the error names "path:line". *n_done (may be NULL) receives the number
 * of statements executed successfully.
 */
int sqlscript_exec(struct coll_conn *c, const char *path, size_t *n_done,
                   struct pt_err *err);

#endif
