/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cmd_ddl.c — `pagetune ddl`: turns a recommendation (or explicit
 * parameters) into create.sql and rollback.sql for review. The SQL text is
 * data in ddl_templates/<dialect>/ together with the dialect's identifier
 * rules (dialect.yaml). This file is the front door: options in,
 * recommend/ reads the recommendation (rec_result_from_json), ddl/ plans,
 * checks every parameter and name and renders (ddl_plan_*), and this file
 * writes both files atomically (nothing is written unless both render; an
 * existing file without --force stops the run before anything is touched).
 */
#include "cli/cli.h"

#include "recommend/recommend.h"
#include "ddl/ddl.h"

#include <errno.h>
#include <float.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <strings.h>
#include <sys/stat.h>

static const char *const usage[] = {
    "pagetune ddl --recommendation FILE [--dialect db2] [--out-dir DIR] "
    "[--name NAME] [--bufferpool-name NAME] [--force]",
    "pagetune ddl --recommendation FILE --dialect "
    "postgresql|mysql|oracle|sqlite [--table [SCHEMA.]NAME] [--column NAME] "
    "[--out-dir DIR]",
    "pagetune ddl --page-size SIZE [--bufferpool-pages N] [--extent-size N] "
    "[--prefetch-size N|AUTOMATIC] [--overhead MS] [--transfer-rate MS] "
    "[--name NAME] [--out-dir DIR]",
    NULL,
};

static const char description[] =
    "Write the DDL of a recommendation (create.sql) and its undo\n"
    "(rollback.sql) for review: DB2 CREATE BUFFERPOOL / CREATE TABLESPACE,\n"
    "or the settings of another engine's dialect (PostgreSQL\n"
    "toast_tuple_target / STORAGE / shared_buffers, MariaDB/MySQL ROW_FORMAT\n"
    "/ innodb_buffer_pool_size, Oracle BLOCKSIZE table space /\n"
    "DB_nK_CACHE_SIZE / LOB storage, SQLite page_size + VACUUM / cache_size),\n"
    "from a recommendation written by\n"
    "`pagetune recommend -o FILE --json` or from explicit parameters (which\n"
    "override the recommendation's). With --out-dir both files are written\n"
    "atomically into DIR; without it both scripts go to stdout (or -o FILE).\n"
    "Names are checked against the dialect's identifier rules and never\n"
    "pasted into SQL unchecked.";

struct ddl_params {
    const char *rec_file, *dialect, *out_dir, *name, *bp_name;
    uint64_t page_size, bp_pages, extent;
    int has_page_size, has_bp_pages, has_extent, has_overhead, has_transfer;
    const char *prefetch_s;
    double overhead_ms, transfer_ms;
    const char *table, *column;
};

/* what --out-dir DIR holds afterwards: each file replaced atomically, the
   directory is not replaced (docs/architecture.md#out-dir) */
static const char *const ddl_files[] = {"create.sql", "rollback.sql", NULL};

#define P struct ddl_params
static const struct cli_option opts[] = {
    {.name = "recommendation",
     .group = CLI_G_INPUT,
     .type = CLI_T_PATH,
     CLI_AT(P, rec_file),
     .io = CLI_IO_IN,
     .arg_name = "FILE",
     .help = "recommendation JSON from `pagetune recommend --json -o FILE`",
     .def = "none"},
    {.name = "dialect",
     .group = CLI_G_OUTPUT,
     .type = CLI_T_STRING,
     CLI_AT(P, dialect),
     .arg_name = "NAME",
     .help = "SQL dialect: a directory of ddl_templates/",
     .def = "db2",
     .complete = CLI_C_DIALECT},
    {.name = "out-dir",
     .group = CLI_G_OUTPUT,
     .type = CLI_T_DIR,
     CLI_AT(P, out_dir),
     .io = CLI_IO_OUTDIR,
     .files = ddl_files,
     .arg_name = "DIR",
     .help = "write DIR/create.sql and DIR/rollback.sql",
     .def = "both to stdout"},
    {.name = "name",
     .group = CLI_G_TABLESPACE,
     .type = CLI_T_STRING,
     CLI_AT(P, name),
     .arg_name = "NAME",
     .help = "table space name",
     .def = "the recommendation's, else SESSTS<n>K"},
    {.name = "bufferpool-name",
     .group = CLI_G_TABLESPACE,
     .type = CLI_T_STRING,
     CLI_AT(P, bp_name),
     .arg_name = "NAME",
     .help = "buffer pool name",
     .def = "the recommendation's, else SESSBP<n>K"},
    {.name = "page-size",
     .group = CLI_G_TABLESPACE,
     .type = CLI_T_SIZE,
     CLI_AT(P, page_size),
     CLI_GIVEN(P, has_page_size),
     .max = UINT64_MAX,
     .arg_name = "SIZE",
     .help = "page size, e.g. 8K",
     .def = "the recommendation's; required without"},
    {.name = "bufferpool-pages",
     .group = CLI_G_TABLESPACE,
     .type = CLI_T_UINT,
     CLI_AT(P, bp_pages),
     CLI_GIVEN(P, has_bp_pages),
     .max = UINT64_MAX,
     .arg_name = "N",
     .help = "buffer-pool size in pages",
     .def = "the recommendation's, else 1000"},
    {.name = "extent-size",
     .group = CLI_G_TABLESPACE,
     .type = CLI_T_UINT,
     CLI_AT(P, extent),
     CLI_GIVEN(P, has_extent),
     .max = UINT64_MAX,
     .arg_name = "N",
     .help = "EXTENTSIZE in pages, 2..256",
     .def = "the recommendation's, else 32"},
    {.name = "prefetch-size",
     .group = CLI_G_TABLESPACE,
     .type = CLI_T_STRING,
     CLI_AT(P, prefetch_s),
     .arg_name = "N|AUTOMATIC",
     .help = "PREFETCHSIZE: pages (a multiple of EXTENTSIZE) or AUTOMATIC",
     .def = "AUTOMATIC"},
    {.name = "overhead",
     .group = CLI_G_TABLESPACE,
     .type = CLI_T_DOUBLE,
     CLI_AT(P, overhead_ms),
     CLI_GIVEN(P, has_overhead),
     .dmin = -DBL_MAX,
     .dmax = DBL_MAX,
     .arg_name = "MS",
     .help = "OVERHEAD in ms",
     .def = "the recommendation's, else 6.725"},
    {.name = "transfer-rate",
     .group = CLI_G_TABLESPACE,
     .type = CLI_T_DOUBLE,
     CLI_AT(P, transfer_ms),
     CLI_GIVEN(P, has_transfer),
     .dmin = -DBL_MAX,
     .dmax = DBL_MAX,
     .arg_name = "MS",
     .help = "TRANSFERRATE in ms per page",
     .def = "the recommendation's, else 100 MB/s at the page size"},
    {.name = "table",
     .group = CLI_G_TABLESPACE,
     .type = CLI_T_STRING,
     CLI_AT(P, table),
     .arg_name = "[SCHEMA.]NAME",
     .help = "table the engine settings apply to, for dialects that name "
             "it; a part may be quoted: \"order\".\"user\"",
     .def = "SESSIONS"},
    {.name = "column",
     .group = CLI_G_TABLESPACE,
     .type = CLI_T_STRING,
     CLI_AT(P, column),
     .arg_name = "NAME",
     .help = "object column for column settings (PostgreSQL STORAGE, Oracle "
             "LOB storage)",
     .def = "SMALL"},
    CLI_OPT_OUTPUT_ENTRY,
    CLI_OPT_FORCE_ENTRY,
    CLI_OPT_QUIET_ENTRY,
    CLI_OPT_HELP_ENTRY,
    CLI_OPT_END,
};
#undef P

static const char *const examples[] = {
    "DB2 DDL of a recommendation, for review",
    "pagetune ddl --recommendation rec.json --out-dir ddl/",
    "the PostgreSQL settings of the same recommendation, to stdout",
    "pagetune ddl --recommendation rec.json --dialect postgresql",
    "a 16K table space and pool without a recommendation",
    "pagetune ddl --page-size 16K --bufferpool-pages 20000 --name SESSTS16K",
    NULL,
};

CLI_SPEC_DEFINE(ddl);

/* The explicit values of the options, parsed (in the order they are read). */
static int overrides(const struct ddl_params *p, const struct pt_qname *table,
                     struct ddl_overrides *o, struct pt_err *err)
{
    int rc;

    memset(o, 0, sizeof(*o));
    o->tablespace_name = p->name;
    o->bufferpool_name = p->bp_name;
    o->table = p->table ? table : NULL;
    o->column_name = p->column;
    o->page_size_bytes = p->page_size;
    o->has_page_size = p->has_page_size;
    o->bufferpool_pages = p->bp_pages;
    o->has_bufferpool_pages = p->has_bp_pages;
    o->extent_size = p->extent;
    o->has_extent_size = p->has_extent;
    if (p->prefetch_s) {
        o->has_prefetch = 1;
        o->prefetch_automatic = strcasecmp(p->prefetch_s, "AUTOMATIC") == 0;
        if (!o->prefetch_automatic &&
            (rc = pt_u64_parse(p->prefetch_s, &o->prefetch_size,
                               "--prefetch-size", err)) < 0)
            return rc;
    }
    o->overhead_ms = p->overhead_ms;
    o->has_overhead = p->has_overhead;
    o->transfer_rate_ms = p->transfer_ms;
    o->has_transfer_rate = p->has_transfer;
    return 0;
}

static int write_one(struct pt_afile *af, const char *text, struct pt_err *err)
{
    if (fputs(text, af->fp) == EOF || ferror(af->fp))
        return err_set(err, PT_EIO, "cannot write '%s': %s", af->path,
                       strerror(errno));
    return 0;
}

static int write_outputs(const struct ddl_params *p, const struct cli_common *c,
                         const char *create, const char *rollback,
                         struct pt_err *err)
{
    struct pt_afile a = {0}, b = {0};
    char pc[4200], pr[4200];
    int rc;

    if (!p->out_dir) {
        if ((rc = cli_output_open(c, &a, err)) < 0)
            return rc;
        if ((rc = write_one(&a, create, err)) < 0 ||
            (rc = write_one(&a,
                            "\n-- ---- rollback.sql "
                            "---------------------------------------------"
                            "-------\n",
                            err)) < 0 ||
            (rc = write_one(&a, rollback, err)) < 0) {
            pt_afile_abort(&a);
            return rc;
        }
        return pt_afile_commit(&a, err);
    }
    snprintf(pc, sizeof(pc), "%s/create.sql", p->out_dir);
    snprintf(pr, sizeof(pr), "%s/rollback.sql", p->out_dir);
    if ((rc = pt_afile_open(&a, pc, c->force, err)) < 0)
        return rc;
    if ((rc = pt_afile_open(&b, pr, c->force, err)) < 0) {
        pt_afile_abort(&a);
        return rc;
    }
    /* both temporary files complete before either replaces its target */
    if ((rc = write_one(&a, create, err)) < 0 ||
        (rc = write_one(&b, rollback, err)) < 0 ||
        (fflush(a.fp) != 0 &&
         (rc = err_set(err, PT_EIO, "cannot write '%s': %s", pc,
                       strerror(errno))) < 0) ||
        (fflush(b.fp) != 0 &&
         (rc = err_set(err, PT_EIO, "cannot write '%s': %s", pr,
                       strerror(errno))) < 0)) {
        pt_afile_abort(&a);
        pt_afile_abort(&b);
        return rc;
    }
    {
        /* one set: a signal cannot leave a new create.sql beside an old
           rollback.sql */
        struct pt_afile *const set[] = {&a, &b};
        return pt_afile_commit_set(set, 2, err);
    }
}

/* 0 to go on, CLI_HELP_SHOWN, or a PT_* status after one line. */
static int parse(struct cli_parser *ps, struct cli_common *c,
                 struct ddl_params *p, int argc, char **argv)
{
    int rc;

    memset(p, 0, sizeof(*p));
    p->dialect = "db2";
    cli_common_init(c);
    if ((rc = cli_parse_all(ps, &cli_spec_ddl, p, c, argc, argv)) != 0)
        return rc;
    if (!p->rec_file && !p->has_page_size) {
        cli_usage_error("ddl", "--recommendation FILE or --page-size SIZE is "
                               "required");
        return PT_EUSAGE;
    }
    if (p->out_dir && c->output && strcmp(c->output, "-") != 0) {
        cli_usage_error("ddl", "--out-dir and -o are exclusive");
        return PT_EUSAGE;
    }
    return 0;
}

int cmd_ddl(int argc, char **argv)
{
    struct cli_parser ps;
    struct cli_common c;
    struct ddl_params p;
    struct ddl_dialect d;
    struct ddl_overrides ov;
    struct pt_qname table;
    struct ddl_plan plan;
    struct rec_doc rd = {0};
    struct pt_err err;
    json_t *rec = NULL;
    char dir[4200], *create = NULL, *rollback = NULL;
    int rc, code, made_dir = 0;

    if ((rc = parse(&ps, &c, &p, argc, argv)) != 0)
        return cli_parse_exit(rc);
    err_clear(&err);
    memset(&plan, 0, sizeof(plan));
    ddl_vars_init(&plan.vars);
    /* --table is one name of any engine's: parsed before anything else */
    if ((p.table &&
         (rc = pt_qname_parse(&table, p.table, "--table", &err)) < 0) ||
        (rc = ddl_dialect_load(&d, p.dialect, dir, sizeof(dir), &err)) < 0)
        goto fail;
    /* existing outputs stop the run before anything is read or written */
    if (p.out_dir) {
        char pc[4200], pr[4200];
        snprintf(pc, sizeof(pc), "%s/create.sql", p.out_dir);
        snprintf(pr, sizeof(pr), "%s/rollback.sql", p.out_dir);
        if ((rc = pt_output_check(pc, c.force, &err)) < 0 ||
            (rc = pt_output_check(pr, c.force, &err)) < 0)
            goto fail;
    } else if ((rc = pt_output_check(c.output, c.force, &err)) < 0) {
        goto fail;
    }
    if (p.rec_file &&
        ((rc = pt_json_load(p.rec_file, &rec, &err)) < 0 ||
         (rc = rec_result_from_json(&rd, rec, d.name, p.rec_file, &err)) < 0))
        goto fail;
    if ((rc = overrides(&p, &table, &ov, &err)) < 0 ||
        (rc = ddl_plan_from_recommendation(&plan, &d, rec ? &rd : NULL,
                                           p.rec_file, &ov, &err)) < 0 ||
        (rc = ddl_plan_render(&plan, dir, &create, &rollback, &err)) < 0)
        goto fail;
    if (p.out_dir && mkdir(p.out_dir, 0755) == 0)
        made_dir = 1; /* removed again if nothing lands in it */
    else if (p.out_dir && errno != EEXIST) {
        rc = err_set(&err, PT_ECANTCREAT, "cannot create directory '%s': %s",
                     p.out_dir, strerror(errno));
        goto fail;
    }
    if ((rc = write_outputs(&p, &c, create, rollback, &err)) < 0)
        goto fail;
    if (p.out_dir && strcmp(d.name, "db2") != 0)
        cli_note(&c,
                 "wrote %s/create.sql and %s/rollback.sql (%s, page size "
                 "%lluK%s%s%s%s)",
                 p.out_dir, p.out_dir, d.name,
                 (unsigned long long)(plan.page_size_bytes / 1024),
                 plan.table[0] ? ", table " : "", plan.schema,
                 plan.schema[0] ? "." : "", plan.table);
    else if (p.out_dir)
        cli_note(&c,
                 "wrote %s/create.sql and %s/rollback.sql (page size %lluK, "
                 "buffer pool %s, table space %s)",
                 p.out_dir, p.out_dir,
                 (unsigned long long)(plan.page_size_bytes / 1024),
                 plan.bufferpool, plan.tablespace);
    code = PT_EXIT_OK;
    goto out;
fail:
    if (made_dir)
        rmdir(p.out_dir); /* only while empty: an error leaves no trace */
    if (rc == PT_EUSAGE)
        code = cli_usage_error("ddl", "%s", err.msg);
    else
        code = cli_fail("ddl", &err);
out:
    free(create);
    free(rollback);
    ddl_plan_release(&plan);
    rec_doc_release(&rd);
    json_decref(rec);
    return code;
}
