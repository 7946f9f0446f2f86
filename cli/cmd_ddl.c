/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cmd_ddl.c — `pagetune ddl`: turns a recommendation (or explicit
 * parameters) into create.sql and rollback.sql for review. The SQL text is
 * data in ddl_templates/<dialect>/ together with the dialect's identifier
 * rules (dialect.yaml). This file is the front door: options in,
 * analyzers/ reads the recommendation (rec_result_from_json), ddl/ plans,
 * checks every parameter and name and renders (ddl_plan_*), and this file
 * writes both files atomically (nothing is written unless both render; an
 * existing file without --force stops the run before anything is touched).
 */
#include "cli/cli.h"

#include "analyzers/analyzers.h"
#include "ddl/ddl.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

static const char *const usage[] = {
    "pagetune ddl --recommendation FILE [--dialect db2] [--out-dir DIR] "
    "[--name NAME] [--bufferpool-name NAME] [--force]",
    "pagetune ddl --recommendation FILE --dialect "
    "postgresql|mysql|oracle|sqlite [--table NAME] [--column NAME] "
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

enum {
    OPT_REC = CLI_OPT_FIRST_CUSTOM,
    OPT_DIALECT,
    OPT_OUT_DIR,
    OPT_NAME,
    OPT_BP_NAME,
    OPT_PAGE_SIZE,
    OPT_BP_PAGES,
    OPT_EXTENT,
    OPT_PREFETCH,
    OPT_OVERHEAD,
    OPT_TRANSFER,
    OPT_TABLE,
    OPT_COLUMN,
};

static const struct cli_option opts[] = {
    {"recommendation", 0, required_argument, OPT_REC, "FILE",
     "recommendation JSON from `pagetune recommend --json -o FILE` "
     "(default: none)"},
    {"dialect", 0, required_argument, OPT_DIALECT, "NAME",
     "SQL dialect: a directory of ddl_templates/ (default: db2)"},
    {"out-dir", 0, required_argument, OPT_OUT_DIR, "DIR",
     "write DIR/create.sql and DIR/rollback.sql (default: both to stdout)"},
    {"name", 0, required_argument, OPT_NAME, "NAME",
     "table space name (default: the recommendation's, else SESSTS<n>K)"},
    {"bufferpool-name", 0, required_argument, OPT_BP_NAME, "NAME",
     "buffer pool name (default: the recommendation's, else SESSBP<n>K)"},
    {"page-size", 0, required_argument, OPT_PAGE_SIZE, "SIZE",
     "page size, e.g. 8K (default: the recommendation's; required without)"},
    {"bufferpool-pages", 0, required_argument, OPT_BP_PAGES, "N",
     "buffer-pool size in pages (default: the recommendation's, else 1000)"},
    {"extent-size", 0, required_argument, OPT_EXTENT, "N",
     "EXTENTSIZE in pages, 2..256 (default: the recommendation's, else 32)"},
    {"prefetch-size", 0, required_argument, OPT_PREFETCH, "N",
     "PREFETCHSIZE: pages (a multiple of EXTENTSIZE) or AUTOMATIC "
     "(default: AUTOMATIC)"},
    {"overhead", 0, required_argument, OPT_OVERHEAD, "MS",
     "OVERHEAD in ms (default: the recommendation's, else 6.725)"},
    {"transfer-rate", 0, required_argument, OPT_TRANSFER, "MS",
     "TRANSFERRATE in ms per page (default: the recommendation's, else "
     "100 MB/s at the page size)"},
    {"table", 0, required_argument, OPT_TABLE, "NAME",
     "table the engine settings apply to, for dialects that name it "
     "(default: SESSIONS)"},
    {"column", 0, required_argument, OPT_COLUMN, "NAME",
     "object column for column settings (PostgreSQL STORAGE, Oracle LOB "
     "storage) (default: SMALL)"},
    CLI_OPT_OUTPUT_ENTRY,
    CLI_OPT_FORCE_ENTRY,
    CLI_OPT_QUIET_ENTRY,
    CLI_OPT_HELP_ENTRY,
    CLI_OPT_END,
};

struct ddl_params {
    const char *rec_file, *dialect, *out_dir, *name, *bp_name;
    const char *page_size_s, *bp_pages_s, *extent_s, *prefetch_s;
    const char *overhead_s, *transfer_s;
    const char *table, *column;
};

/* The explicit values of the options, parsed (in the order they are read). */
static int overrides(const struct ddl_params *p, struct ddl_overrides *o,
                     struct pt_err *err)
{
    int rc;

    memset(o, 0, sizeof(*o));
    o->tablespace_name = p->name;
    o->bufferpool_name = p->bp_name;
    o->table_name = p->table;
    o->column_name = p->column;
    if (p->page_size_s) {
        if ((rc = pt_size_parse(p->page_size_s, &o->page_size_bytes,
                                "--page-size", err)) < 0)
            return rc;
        o->has_page_size = 1;
    }
    if (p->bp_pages_s) {
        if ((rc = pt_u64_parse(p->bp_pages_s, &o->bufferpool_pages,
                               "--bufferpool-pages", err)) < 0)
            return rc;
        o->has_bufferpool_pages = 1;
    }
    if (p->extent_s) {
        if ((rc = pt_u64_parse(p->extent_s, &o->extent_size, "--extent-size",
                               err)) < 0)
            return rc;
        o->has_extent_size = 1;
    }
    if (p->prefetch_s) {
        o->has_prefetch = 1;
        o->prefetch_automatic = strcasecmp(p->prefetch_s, "AUTOMATIC") == 0;
        if (!o->prefetch_automatic &&
            (rc = pt_u64_parse(p->prefetch_s, &o->prefetch_size,
                               "--prefetch-size", err)) < 0)
            return rc;
    }
    if (p->overhead_s) {
        if ((rc = pt_double_parse(p->overhead_s, &o->overhead_ms, "--overhead",
                                  err)) < 0)
            return rc;
        o->has_overhead = 1;
    }
    if (p->transfer_s) {
        if ((rc = pt_double_parse(p->transfer_s, &o->transfer_rate_ms,
                                  "--transfer-rate", err)) < 0)
            return rc;
        o->has_transfer_rate = 1;
    }
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
    if ((rc = pt_afile_commit(&a, err)) < 0) {
        pt_afile_abort(&b);
        return rc;
    }
    return pt_afile_commit(&b, err);
}

static int parse(struct cli_parser *ps, struct cli_common *c,
                 struct ddl_params *p, int argc, char **argv)
{
    const char *arg;
    int id;

    memset(p, 0, sizeof(*p));
    p->dialect = "db2";
    cli_common_init(c);
    if (cli_parse_begin(ps, "ddl", opts, usage, description, argc, argv) < 0)
        return 70;
    while ((id = cli_next(ps, c, &arg)) != CLI_NEXT_END) {
        if (id == CLI_NEXT_HELP)
            return 0;
        if (id == CLI_NEXT_USAGE)
            return 64;
        switch (id) {
        case OPT_REC:
            p->rec_file = arg;
            break;
        case OPT_DIALECT:
            p->dialect = arg;
            break;
        case OPT_OUT_DIR:
            p->out_dir = arg;
            break;
        case OPT_NAME:
            p->name = arg;
            break;
        case OPT_BP_NAME:
            p->bp_name = arg;
            break;
        case OPT_PAGE_SIZE:
            p->page_size_s = arg;
            break;
        case OPT_BP_PAGES:
            p->bp_pages_s = arg;
            break;
        case OPT_EXTENT:
            p->extent_s = arg;
            break;
        case OPT_PREFETCH:
            p->prefetch_s = arg;
            break;
        case OPT_OVERHEAD:
            p->overhead_s = arg;
            break;
        case OPT_TRANSFER:
            p->transfer_s = arg;
            break;
        case OPT_TABLE:
            p->table = arg;
            break;
        case OPT_COLUMN:
            p->column = arg;
            break;
        default:
            return 70;
        }
    }
    if (!p->rec_file && !p->page_size_s)
        return cli_usage_error("ddl",
                               "--recommendation FILE or --page-size SIZE is "
                               "required");
    if (p->out_dir && c->output && strcmp(c->output, "-") != 0)
        return cli_usage_error("ddl", "--out-dir and -o are exclusive");
    return -1;
}

int cmd_ddl(int argc, char **argv)
{
    struct cli_parser ps;
    struct cli_common c;
    struct ddl_params p;
    struct ddl_dialect d;
    struct ddl_overrides ov;
    struct ddl_plan plan;
    struct rec_doc rd = {0};
    struct pt_err err;
    json_t *rec = NULL;
    char dir[4200], *create = NULL, *rollback = NULL;
    int rc, code;

    code = parse(&ps, &c, &p, argc, argv);
    if (code >= 0)
        return code;
    err_clear(&err);
    memset(&plan, 0, sizeof(plan));
    ddl_vars_init(&plan.vars);
    if ((rc = ddl_dialect_load(&d, p.dialect, dir, sizeof(dir), &err)) < 0)
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
    if ((rc = overrides(&p, &ov, &err)) < 0 ||
        (rc = ddl_plan_from_recommendation(&plan, &d, rec ? &rd : NULL,
                                           p.rec_file, &ov, &err)) < 0 ||
        (rc = ddl_plan_render(&plan, dir, &create, &rollback, &err)) < 0)
        goto fail;
    if (p.out_dir && mkdir(p.out_dir, 0755) != 0 && errno != EEXIST) {
        rc = err_set(&err, PT_ECANTCREAT, "cannot create directory '%s': %s",
                     p.out_dir, strerror(errno));
        goto fail;
    }
    if ((rc = write_outputs(&p, &c, create, rollback, &err)) < 0)
        goto fail;
    if (p.out_dir && strcmp(d.name, "db2") != 0)
        cli_note(&c,
                 "wrote %s/create.sql and %s/rollback.sql (%s, page size "
                 "%lluK%s%s)",
                 p.out_dir, p.out_dir, d.name,
                 (unsigned long long)(plan.page_size_bytes / 1024),
                 plan.table[0] ? ", table " : "", plan.table);
    else if (p.out_dir)
        cli_note(&c,
                 "wrote %s/create.sql and %s/rollback.sql (page size %lluK, "
                 "buffer pool %s, table space %s)",
                 p.out_dir, p.out_dir,
                 (unsigned long long)(plan.page_size_bytes / 1024),
                 plan.bufferpool, plan.tablespace);
    code = 0;
    goto out;
fail:
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
