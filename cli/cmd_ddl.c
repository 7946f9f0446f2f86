/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cmd_ddl.c — `pagetune ddl`: turns a recommendation (or explicit
 * parameters) into create.sql and rollback.sql for review. The SQL text is
 * data in ddl_templates/<dialect>/ together with the dialect's identifier
 * rules (dialect.yaml); this file reads those files, checks every
 * parameter and name, asks ddl/ to render, and writes both files
 * atomically (nothing is written unless both render; an existing file
 * without --force stops the run before anything is touched).
 */
#include "cli/cli.h"

#include "ddl/ddl.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
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
    /* resolved */
    uint64_t page_size, bp_pages, extent, prefetch;
    int prefetch_auto;
    double overhead, transfer;
    char ts_ident[130], bp_ident[130], table_ident[130], column_ident[130];
};

/* Known dialects: directories of <data>/ddl_templates with dialect.yaml. */
static void list_dialects(char *buf, size_t len)
{
    char dir[4096];
    DIR *d;
    struct dirent *de;
    size_t off = 0;

    buf[0] = '\0';
    snprintf(dir, sizeof(dir), "%s/ddl_templates", pt_data_dir());
    d = opendir(dir);
    if (!d)
        return;
    while ((de = readdir(d)) != NULL) {
        char f[4400];
        struct stat st;
        if (de->d_name[0] == '.')
            continue;
        snprintf(f, sizeof(f), "%s/%s/dialect.yaml", dir, de->d_name);
        if (stat(f, &st) == 0 && off < len) {
            int n = snprintf(buf + off, len - off, "%s%s", off ? ", " : "",
                             de->d_name);
            off += n > 0 ? (size_t)n : 0;
        }
    }
    closedir(d);
}

static int valid_dialect_name(const char *s)
{
    if (!*s || strlen(s) > 31)
        return 0;
    for (; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') ||
              *s == '_' || *s == '-'))
            return 0;
    return 1;
}

static int load_dialect(const char *name, struct ddl_dialect *d, char *dir,
                        size_t dlen, struct pt_err *err)
{
    char path[4400], known[512];
    json_t *doc = NULL;
    struct stat st;
    int rc;

    list_dialects(known, sizeof(known));
    snprintf(dir, dlen, "%s/ddl_templates/%s", pt_data_dir(), name);
    snprintf(path, sizeof(path), "%s/dialect.yaml", dir);
    if (!valid_dialect_name(name) || stat(path, &st) != 0)
        return err_set(err, PT_EUSAGE,
                       "--dialect: unknown dialect '%s' "
                       "(known: %s)",
                       valid_dialect_name(name) ? name : "?",
                       known[0] ? known : "none found in data directory");
    if ((rc = prof_load(path, &doc, err)) < 0)
        return rc;
    rc = ddl_dialect_from_json(d, doc, path, err);
    json_decref(doc);
    return rc;
}

/* Values from the recommendation document (design.md §4). */
static int from_recommendation(struct ddl_params *p, const json_t *doc,
                               const struct ddl_dialect *d, const char **ts,
                               const char **bp, struct pt_err *err)
{
    const char *f = p->rec_file, *engine;
    const json_t *bpo, *tso, *pf;
    char ctx[4200];
    uint64_t bps, tps;
    int rc;

    if (!json_is_object(doc))
        return err_set(err, PT_EDATA, "%s: a recommendation is a JSON object",
                       f);
    if ((rc = pt_json_get_str(doc, "engine", &engine, f, err)) < 0)
        return rc;
    if (strcmp(engine, d->name) != 0)
        return err_set(err, PT_EDATA,
                       "%s: the recommendation is for engine '%s', not "
                       "dialect '%s'",
                       f, engine, d->name);
    bpo = json_object_get(doc, "bufferpool");
    tso = json_object_get(doc, "tablespace");
    if (!json_is_object(bpo) || !json_is_object(tso))
        return err_set(err, PT_EDATA,
                       "%s: needs objects 'bufferpool' and 'tablespace'", f);
    snprintf(ctx, sizeof(ctx), "%s: bufferpool", f);
    if ((rc = pt_json_get_str(bpo, "name", bp, ctx, err)) < 0 ||
        (rc = pt_json_get_u64(bpo, "page_size", &bps, ctx, err)) < 0 ||
        (rc = pt_json_get_u64(bpo, "pages", &p->bp_pages, ctx, err)) < 0)
        return rc;
    snprintf(ctx, sizeof(ctx), "%s: tablespace", f);
    if ((rc = pt_json_get_str(tso, "name", ts, ctx, err)) < 0 ||
        (rc = pt_json_get_u64(tso, "page_size", &tps, ctx, err)) < 0 ||
        (rc = pt_json_get_u64(tso, "extent_size", &p->extent, ctx, err)) < 0 ||
        (rc = pt_json_get_num(tso, "overhead", &p->overhead, ctx, err)) < 0 ||
        (rc = pt_json_get_num(tso, "transfer_rate", &p->transfer, ctx, err)) <
            0)
        return rc;
    if (bps != tps)
        return err_set(err, PT_EDATA,
                       "%s: buffer pool page size %llu differs from table "
                       "space page size %llu (DB2 SQL1582N)",
                       f, (unsigned long long)bps, (unsigned long long)tps);
    p->page_size = tps;
    pf = json_object_get(tso, "prefetch_size");
    if (json_is_string(pf) && strcmp(json_string_value(pf), "AUTOMATIC") == 0) {
        p->prefetch_auto = 1;
    } else if (json_is_integer(pf) && json_integer_value(pf) > 0) {
        p->prefetch_auto = 0;
        p->prefetch = (uint64_t)json_integer_value(pf);
    } else {
        return err_set(err, PT_EDATA,
                       "%s: tablespace prefetch_size must be a page count or "
                       "\"AUTOMATIC\"",
                       f);
    }
    return 0;
}

static int resolve(struct ddl_params *p, const struct ddl_dialect *d,
                   const json_t *rec, struct pt_err *err)
{
    const char *ts = NULL, *bp = NULL;
    uint64_t rec_page = 0;
    int rc;

    p->prefetch_auto = 1;
    p->bp_pages = 1000; /* DB2's default SIZE */
    p->extent = 32;     /* DB2's default EXTENTSIZE */
    p->overhead = d->default_overhead_ms;
    p->transfer = -1;
    if (rec) {
        if ((rc = from_recommendation(p, rec, d, &ts, &bp, err)) < 0)
            return rc;
        rec_page = p->page_size;
    }
    if (p->page_size_s && (rc = pt_size_parse(p->page_size_s, &p->page_size,
                                              "--page-size", err)) < 0)
        return rc;
    if (!p->page_size)
        return err_set(err, PT_EUSAGE,
                       "--page-size or --recommendation is required");
    if (p->bp_pages_s && (rc = pt_u64_parse(p->bp_pages_s, &p->bp_pages,
                                            "--bufferpool-pages", err)) < 0)
        return rc;
    if (p->extent_s &&
        (rc = pt_u64_parse(p->extent_s, &p->extent, "--extent-size", err)) < 0)
        return rc;
    if (p->prefetch_s) {
        if (strcasecmp(p->prefetch_s, "AUTOMATIC") == 0) {
            p->prefetch_auto = 1;
        } else {
            if ((rc = pt_u64_parse(p->prefetch_s, &p->prefetch,
                                   "--prefetch-size", err)) < 0)
                return rc;
            p->prefetch_auto = 0;
        }
    }
    if (p->overhead_s && (rc = pt_double_parse(p->overhead_s, &p->overhead,
                                               "--overhead", err)) < 0)
        return rc;
    if (p->transfer_s) {
        if ((rc = pt_double_parse(p->transfer_s, &p->transfer,
                                  "--transfer-rate", err)) < 0)
            return rc;
    } else if (p->transfer >= 0 && rec_page && rec_page != p->page_size) {
        /* same device, other page size: TRANSFERRATE follows the page */
        p->transfer = p->transfer * (double)p->page_size / (double)rec_page;
    } else if (p->transfer < 0) {
        p->transfer = (1.0 / d->default_read_rate_mb_s) * 1000.0 / 1024000.0 *
                      (double)p->page_size;
    }

    /* ranges of the dialect (IBM: CREATE BUFFERPOOL / CREATE TABLESPACE) */
    if (p->page_size > UINT32_MAX ||
        !ddl_dialect_has_page(d, (uint32_t)p->page_size))
        return err_set(err, PT_EDATA, "page size %llu is not a %s page size",
                       (unsigned long long)p->page_size, d->name);
    if (d->has_pool && (p->bp_pages < d->pool_min || p->bp_pages > d->pool_max))
        return err_set(
            err, PT_EDATA, "buffer-pool size %llu pages is outside %llu..%llu",
            (unsigned long long)p->bp_pages, (unsigned long long)d->pool_min,
            (unsigned long long)d->pool_max);
    if (d->has_extent &&
        (p->extent < d->extent_min || p->extent > d->extent_max))
        return err_set(err, PT_EDATA, "EXTENTSIZE %llu is outside %u..%u",
                       (unsigned long long)p->extent, d->extent_min,
                       d->extent_max);
    if (d->has_prefetch && p->prefetch_auto && !d->prefetch_automatic)
        return err_set(err, PT_EDATA, "%s has no PREFETCHSIZE AUTOMATIC",
                       d->name);
    if (d->has_prefetch && !p->prefetch_auto &&
        (p->prefetch < d->prefetch_min || p->prefetch > d->prefetch_max ||
         p->prefetch % p->extent != 0))
        return err_set(err, PT_EDATA,
                       "PREFETCHSIZE %llu must be a multiple of EXTENTSIZE "
                       "%llu within %u..%u, or AUTOMATIC",
                       (unsigned long long)p->prefetch,
                       (unsigned long long)p->extent, d->prefetch_min,
                       d->prefetch_max);
    if (!(p->overhead >= 0) || p->overhead > 1000)
        return err_set(err, PT_EDATA, "OVERHEAD %g ms is outside 0..1000",
                       p->overhead);
    if (!(p->transfer > 0) || p->transfer > 1000)
        return err_set(err, PT_EDATA, "TRANSFERRATE %g ms is outside (0, 1000]",
                       p->transfer);

    /* names: option, else recommendation, else derived; always checked */
    {
        char def_ts[32], def_bp[32];
        snprintf(def_ts, sizeof(def_ts), "SESSTS%lluK",
                 (unsigned long long)(p->page_size / 1024));
        snprintf(def_bp, sizeof(def_bp), "SESSBP%lluK",
                 (unsigned long long)(p->page_size / 1024));
        if (ddl_dialect_has_kind(d, "tablespace") &&
            (rc = ddl_ident_check(d, "tablespace",
                                  p->name ? p->name
                                  : ts    ? ts
                                          : def_ts,
                                  p->name ? "--name"
                                  : ts    ? p->rec_file
                                          : "default",
                                  p->ts_ident, sizeof(p->ts_ident), err)) < 0)
            return rc;
        if (ddl_dialect_has_kind(d, "bufferpool") &&
            (rc = ddl_ident_check(d, "bufferpool",
                                  p->bp_name ? p->bp_name
                                  : bp       ? bp
                                             : def_bp,
                                  p->bp_name ? "--bufferpool-name"
                                  : bp       ? p->rec_file
                                             : "default",
                                  p->bp_ident, sizeof(p->bp_ident), err)) < 0)
            return rc;
        if (ddl_dialect_has_kind(d, "table") &&
            (rc = ddl_ident_check(d, "table", p->table ? p->table : "SESSIONS",
                                  p->table ? "--table" : "default",
                                  p->table_ident, sizeof(p->table_ident),
                                  err)) < 0)
            return rc;
        if (ddl_dialect_has_kind(d, "column") &&
            (rc = ddl_ident_check(d, "column", p->column ? p->column : "SMALL",
                                  p->column ? "--column" : "default",
                                  p->column_ident, sizeof(p->column_ident),
                                  err)) < 0)
            return rc;
    }
    return 0;
}

static int set_vars(struct ddl_vars *v, const struct ddl_params *p,
                    const struct ddl_dialect *d, const json_t *rec,
                    struct pt_err *err)
{
    const json_t *settings = rec ? json_object_get(rec, "settings") : NULL;
    const char **lines = NULL;
    size_t n = 0;
    char *block = NULL, num[64];
    const json_t *reasons = rec ? json_object_get(rec, "reasons") : NULL;
    int rc = 0;

#define SET(k, ...)                                                            \
    do {                                                                       \
        if (ddl_vars_set(v, k, __VA_ARGS__) < 0) {                             \
            rc = err_set(err, PT_EINTERNAL, "out of memory");                  \
            goto out;                                                          \
        }                                                                      \
    } while (0)
    SET("version", "%s", PT_VERSION);
    SET("page_size", "%llu", (unsigned long long)p->page_size);
    SET("page_size_k", "%llu", (unsigned long long)(p->page_size / 1024));
    SET("bufferpool_name", "%s", p->bp_ident);
    SET("tablespace_name", "%s", p->ts_ident);
    SET("table", "%s", p->table_ident);
    SET("column", "%s", p->column_ident);
    /* every identifier quoted the dialect's way (issue 13) */
    if ((rc = ddl_vars_quote_idents(v, d, err)) < 0)
        goto out;
    if (rec && d->n_settings && settings && !json_is_object(settings)) {
        rc = err_set(err, PT_EDATA, "%s: 'settings' must be an object",
                     p->rec_file);
        goto out;
    }
    if (rec && d->n_settings && !settings) {
        rc = err_set(err, PT_EDATA,
                     "%s: no engine 'settings' for dialect %s (written by an "
                     "older pagetune or another engine?)",
                     p->rec_file, d->name);
        goto out;
    }
    /* engine settings: checked against dialect.yaml, then variables */
    for (size_t i = 0; i < d->n_settings; i++) {
        char val[64];
        const struct ddl_setting_rule *sr = &d->settings[i];
        if (sr->page_size_unit) {
            /* follows the page size in use (--page-size overrides) */
            json_t *ps =
                json_integer((json_int_t)(p->page_size / sr->page_size_unit));
            rc =
                ddl_setting_check(sr, ps, "--page-size", val, sizeof(val), err);
            json_decref(ps);
            if (rc < 0)
                goto out;
            SET(sr->name, "%s", val);
            continue;
        }
        if ((rc = ddl_setting_check(
                 sr, settings ? json_object_get(settings, sr->name) : NULL,
                 rec ? p->rec_file : "--page-size (no recommendation)", val,
                 sizeof(val), err)) < 0)
            goto out;
        SET(sr->name, "%s", val);
    }
    /* a statement commented out unless the recommendation asks for it */
    {
        const char *rw = ddl_vars_get(v, "rewrite");
        SET("rewrite_prefix", "%s", rw && strcmp(rw, "no") == 0 ? "-- " : "");
    }
    SET("bufferpool_pages", "%llu", (unsigned long long)p->bp_pages);
    SET("bufferpool_bytes", "%s",
        pt_size_format(p->bp_pages * p->page_size, num, sizeof(num)));
    SET("extent_size", "%llu", (unsigned long long)p->extent);
    if (p->prefetch_auto)
        SET("prefetch_size", "%s", "AUTOMATIC");
    else
        SET("prefetch_size", "%llu", (unsigned long long)p->prefetch);
    SET("overhead", "%.6g", p->overhead);
    SET("transfer_rate", "%.6g", p->transfer);
    if (rec) {
        const json_t *dec = json_object_get(rec, "decided_by");
        char src[1024];
        /*
         * It lands on a "--" comment line: a newline from the file name or
         * from "decided_by" would start a line of SQL in create.sql.
         */
        snprintf(src, sizeof(src), "recommendation %s%s%s", p->rec_file,
                 json_is_string(dec) ? ", decided by the " : "",
                 json_is_string(dec) ? json_string_value(dec) : "");
        for (char *q = src; *q; q++)
            if ((unsigned char)*q < 0x20 || *q == 0x7f)
                *q = ' ';
        SET("evidence_source", "%s", src);
    } else {
        SET("evidence_source", "%s", "command-line parameters");
    }
    if (json_is_array(reasons) && json_array_size(reasons) > 0) {
        size_t i;
        const json_t *r;
        lines = pt_calloc(json_array_size(reasons), sizeof(*lines));
        if (!lines) {
            rc = err_set(err, PT_EINTERNAL, "out of memory");
            goto out;
        }
        json_array_foreach(reasons, i, r) if (json_is_string(r)) lines[n++] =
            json_string_value(r);
    }
    if (n == 0) {
        static const char *const none[] = {
            "no recommendation reasons: parameters come from the command line "
            "and IBM's defaults (SIZE 1000, EXTENTSIZE 32, OVERHEAD 6.725 ms, "
            "100 MB/s)"};
        static const char *const none_engine[] = {
            "no recommendation reasons: parameters come from the command line "
            "and the dialect's defaults (dialect.yaml)"};
        rc = ddl_comment_block(strcmp(d->name, "db2") == 0 ? none : none_engine,
                               1, "--   ", 79, &block, err);
    } else {
        rc = ddl_comment_block(lines, n, "--   ", 79, &block, err);
    }
    if (rc < 0)
        goto out;
    SET("evidence", "%s", block);
#undef SET
out:
    free(block);
    free(lines);
    return rc;
}

static int render_file(const char *dir, const char *file,
                       const struct ddl_vars *v, char **out, struct pt_err *err)
{
    char path[4400], *buf = NULL;
    size_t len = 0;
    int rc;

    snprintf(path, sizeof(path), "%s/%s", dir, file);
    if ((rc = pt_file_read(path, &buf, &len, err)) < 0)
        return rc;
    rc = ddl_render(buf, len, path, v, out, err);
    free(buf);
    return rc;
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
    struct ddl_vars v;
    struct pt_err err;
    json_t *rec = NULL;
    char dir[4200], *create = NULL, *rollback = NULL;
    int rc, code;

    code = parse(&ps, &c, &p, argc, argv);
    if (code >= 0)
        return code;
    err_clear(&err);
    ddl_vars_init(&v);
    if ((rc = load_dialect(p.dialect, &d, dir, sizeof(dir), &err)) < 0)
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
    if (p.rec_file && (rc = pt_json_load(p.rec_file, &rec, &err)) < 0)
        goto fail;
    if ((rc = resolve(&p, &d, rec, &err)) < 0 ||
        (rc = set_vars(&v, &p, &d, rec, &err)) < 0 ||
        (rc = render_file(dir, "create.sql", &v, &create, &err)) < 0 ||
        (rc = render_file(dir, "rollback.sql", &v, &rollback, &err)) < 0)
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
                 (unsigned long long)(p.page_size / 1024),
                 p.table_ident[0] ? ", table " : "", p.table_ident);
    else if (p.out_dir)
        cli_note(&c,
                 "wrote %s/create.sql and %s/rollback.sql (page size %lluK, "
                 "buffer pool %s, table space %s)",
                 p.out_dir, p.out_dir, (unsigned long long)(p.page_size / 1024),
                 p.bp_ident, p.ts_ident);
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
    ddl_vars_release(&v);
    json_decref(rec);
    return code;
}
