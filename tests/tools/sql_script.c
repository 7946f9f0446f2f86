/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sql_script.c — test-only: runs a SQL script file statement by statement
 * through collect/'s public coll_exec() (tests/tools/pt_sqlexec applies
 * generated DDL to the real servers; tests/unit/test_collect.c tests the
 * splitter). pagetune itself never executes DDL, so this lives under
 * tests/ (issue 22: test-only code under tests/).
 */
#include "sql_script.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

int sqlscript_exec(struct coll_conn *c, const char *path, size_t *n_done,
                   struct pt_err *err)
{
    char *text = NULL, *stmt = NULL;
    size_t len = 0, sl = 0, done = 0, line = 1, start_line = 1;
    char quote = 0; /* ' or " or '$' for $$ */
    int ret;

    if (n_done)
        *n_done = 0;
    ret = pt_file_read(path, &text, &len, err);
    if (ret < 0)
        return ret;
    stmt = malloc(len + 1);
    if (!stmt) {
        free(text);
        return err_set(err, PT_EINTERNAL, "out of memory");
    }
    for (size_t i = 0; i <= len; i++) {
        char ch = i < len ? text[i] : '\n';
        int at_line_start = sl == 0 || stmt[sl - 1] == '\n';

        /* a '--' comment outside quotes runs to the end of the line */
        if (!quote && ch == '-' && i + 1 < len && text[i + 1] == '-') {
            while (i < len && text[i] != '\n')
                i++;
            ch = '\n';
        }
        if (ch == '\n') {
            /* does the statement end here? */
            size_t e = sl;
            while (e && isspace((unsigned char)stmt[e - 1]))
                e--;
            if (!quote && e) {
                size_t b = e;
                int terminated = 0;
                if (stmt[e - 1] == ';' || stmt[e - 1] == '@') {
                    terminated = 1;
                    e--;
                } else {
                    /* '/' alone on its line (SQL*Plus) */
                    while (b && stmt[b - 1] != '\n')
                        b--;
                    if (e - b == 1 && stmt[b] == '/') {
                        terminated = 1;
                        e = b;
                    }
                }
                if (terminated) {
                    size_t s0 = 0;
                    stmt[e] = '\0';
                    while (s0 < e && isspace((unsigned char)stmt[s0]))
                        s0++;
                    if (stmt[s0]) {
                        ret = coll_exec(c, stmt + s0, err);
                        if (ret < 0) {
                            err_prefix(err, "%s:%zu", path, start_line);
                            goto out;
                        }
                        done++;
                    }
                    sl = 0;
                    line++;
                    continue;
                }
            }
            if (sl)
                stmt[sl++] = '\n';
            line++;
            continue;
        }
        if (at_line_start && sl == 0 && isspace((unsigned char)ch))
            continue;
        if (sl == 0)
            start_line = line;
        if (quote == '$') {
            if (ch == '$' && i + 1 < len && text[i + 1] == '$') {
                stmt[sl++] = ch;
                ch = text[++i];
                quote = 0;
            }
        } else if (quote) {
            if (ch == quote)
                quote = 0;
        } else if (ch == '\'' || ch == '"') {
            quote = ch;
        } else if (ch == '$' && i + 1 < len && text[i + 1] == '$') {
            stmt[sl++] = ch;
            ch = text[++i];
            quote = '$';
        }
        stmt[sl++] = ch;
    }
    {
        size_t s0 = 0;
        stmt[sl] = '\0';
        while (s0 < sl && isspace((unsigned char)stmt[s0]))
            s0++;
        if (quote) {
            ret = err_set(err, PT_EDATA, "%s:%zu: unterminated quote", path,
                          start_line);
            goto out;
        }
        if (stmt[s0]) {
            ret = coll_exec(c, stmt + s0, err);
            if (ret < 0) {
                err_prefix(err, "%s:%zu", path, start_line);
                goto out;
            }
            done++;
        }
    }
    ret = 0;
out:
    if (n_done)
        *n_done = done;
    free(stmt);
    free(text);
    return ret;
}
