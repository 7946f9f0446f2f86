/* SPDX-License-Identifier: Apache-2.0 */
/*
 * summary.c — the closing part of recommend's and advise's table output
 * (issue 32), after MySQLTuner's tagged lines and closing
 * recommendations: each finding tagged ok, change or warning, then a
 * "next steps" block (the files to review, the command that applies them,
 * when to run it, how to undo it). Two writer tables; only the table
 * format shows them (CSV and JSON keep their documented shapes).
 * Neighbours: cmd_recommend.c and cmd_advise.c add the findings from
 * their results; out.c writes.
 */
#include "cli/cli.h"

#include <stdarg.h>
#include <string.h>

static const char *const tag_names[] = {"ok", "change", "warning"};

int cli_summary_init(struct cli_summary *s)
{
    static const char *const fh[] = {"tag", "finding"};
    static const char *const sh[] = {"step", "what"};

    memset(s, 0, sizeof(*s));
    if (out_table_init(&s->findings, 2, fh) < 0 ||
        out_table_init(&s->steps, 2, sh) < 0) {
        cli_summary_release(s);
        return PT_EINTERNAL;
    }
    out_table_set_title(&s->findings, "%s", "\nfindings:");
    out_table_set_title(&s->steps, "%s", "\nnext steps:");
    return 0;
}

void cli_summary_release(struct cli_summary *s)
{
    out_table_release(&s->findings);
    out_table_release(&s->steps);
}

static void add(struct out_table *t, int *oom, const char *first,
                const char *fmt, va_list ap)
    __attribute__((format(printf, 4, 0)));
static void add(struct out_table *t, int *oom, const char *first,
                const char *fmt, va_list ap)
{
    char buf[1024];

    vsnprintf(buf, sizeof(buf), fmt, ap);
    if (out_table_add_row(t) < 0 || out_table_setf(t, 0, "%s", first) < 0 ||
        out_table_setf(t, 1, "%s", buf) < 0)
        *oom = 1;
}

void cli_summary_finding(struct cli_summary *s, enum cli_tag tag,
                         const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    add(&s->findings, &s->oom, tag_names[tag], fmt, ap);
    va_end(ap);
    s->n_tag[tag]++;
}

void cli_summary_step(struct cli_summary *s, const char *step, const char *fmt,
                      ...)
{
    va_list ap;

    va_start(ap, fmt);
    add(&s->steps, &s->oom, step, fmt, ap);
    va_end(ap);
}

/* How each dialect's create.sql is run (its header says the same). */
const char *cli_apply_command(const char *engine, const char *file, char *buf,
                              size_t len)
{
    /* the command before the file and after it ("" or a suffix) */
    static const struct {
        const char *engine, *before;
    } cmds[] = {
        {"db2", "db2 -tvf "},
        {"postgresql", "psql -v ON_ERROR_STOP=1 -f "},
        {"mysql", "mariadb < "},
        {"sqlite", "sqlite3 DATABASE < "},
        {"oracle", "sqlplus / as sysdba @"},
    };

    for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
        if (strcmp(engine, cmds[i].engine) == 0) {
            snprintf(buf, len, "%s%s", cmds[i].before, file);
            return buf;
        }
    snprintf(buf, len, "run %s as its header says", file);
    return buf;
}

int cli_summary_write(const struct cli_summary *s, FILE *fp, struct pt_err *err)
{
    int rc;

    if (s->oom)
        return err_set(err, PT_EINTERNAL, "out of memory");
    if (s->findings.n_rows &&
        (rc = out_table_write(&s->findings, OUT_TABLE, fp, err)) < 0)
        return rc;
    if (s->steps.n_rows &&
        (rc = out_table_write(&s->steps, OUT_TABLE, fp, err)) < 0)
        return rc;
    return 0;
}
