/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_ddl.c — unit tests for ddl/: the shipped db2 dialect file, DB2
 * identifier rules (length, SYS prefix, characters, case folding), the
 * {{name}} renderer and its errors, SQL comment blocks that cannot be
 * escaped, and the shipped db2 templates rendering with every placeholder
 * known and the statement order of rollback.sql; the dialect lookup in
 * the data directory and the DDL plan (defaults, the recommendation's
 * values, overrides, ranges, names, rendering, the destructive steps
 * create.sql takes).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/model.h"
#include "ddl/ddl.h"

static struct ddl_dialect db2;

static int load_db2(void **state)
{
    char path[4096];
    struct pt_err err;
    json_t *doc;
    (void)state;

    snprintf(path, sizeof(path), "%s/ddl_templates/db2/dialect.yaml",
             pt_data_dir());
    if (prof_load(path, &doc, &err) < 0) {
        print_error("%s\n", err.msg);
        return -1;
    }
    if (ddl_dialect_from_json(&db2, doc, path, &err) < 0) {
        print_error("%s\n", err.msg);
        json_decref(doc);
        return -1;
    }
    json_decref(doc);
    return 0;
}

static void test_dialect(void **state)
{
    (void)state;
    assert_string_equal(db2.name, "db2");
    assert_int_equal(db2.n_page_sizes, 4);
    assert_true(ddl_dialect_has_page(&db2, 4096));
    assert_true(ddl_dialect_has_page(&db2, 32768));
    assert_false(ddl_dialect_has_page(&db2, 65536));
    assert_int_equal(db2.extent_min, 2);
    assert_int_equal(db2.extent_max, 256);
    assert_true(db2.prefetch_automatic);
    assert_true(db2.fold_upper);
}

static void test_identifiers(void **state)
{
    char out[64];
    struct pt_err err;
    (void)state;

    assert_int_equal(ddl_ident_check(&db2, "bufferpool", "sessbp8k", "--x", out,
                                     sizeof(out), &err),
                     0);
    assert_string_equal(out, "SESSBP8K");
    /* exactly 18 bytes is fine, 19 is not */
    assert_int_equal(ddl_ident_check(&db2, "bufferpool", "ABCDEFGHIJKLMNOPQR",
                                     "--x", out, sizeof(out), &err),
                     0);
    assert_int_equal(ddl_ident_check(&db2, "bufferpool", "ABCDEFGHIJKLMNOPQRS",
                                     "--x", out, sizeof(out), &err),
                     PT_EDATA);
    assert_non_null(strstr(err.msg, "19 bytes"));
    assert_int_equal(ddl_ident_check(&db2, "tablespace", "SYSX", "--name", out,
                                     sizeof(out), &err),
                     PT_EDATA);
    assert_non_null(strstr(err.msg, "SYS"));
    assert_int_equal(ddl_ident_check(&db2, "tablespace", "sysfoo", "--name",
                                     out, sizeof(out), &err),
                     PT_EDATA);
    assert_int_equal(ddl_ident_check(&db2, "tablespace", "a;b", "--name", out,
                                     sizeof(out), &err),
                     PT_EDATA);
    assert_int_equal(ddl_ident_check(&db2, "tablespace", "a b", "--name", out,
                                     sizeof(out), &err),
                     PT_EDATA);
    assert_int_equal(ddl_ident_check(&db2, "tablespace", "\"X\"", "--name", out,
                                     sizeof(out), &err),
                     PT_EDATA);
    assert_int_equal(ddl_ident_check(&db2, "tablespace", "_x", "--name", out,
                                     sizeof(out), &err),
                     PT_EDATA);
    assert_int_equal(ddl_ident_check(&db2, "tablespace", "", "--name", out,
                                     sizeof(out), &err),
                     PT_EDATA);
    assert_int_equal(ddl_ident_check(&db2, "tablespace", "caf\xc3\xa9",
                                     "--name", out, sizeof(out), &err),
                     PT_EDATA);
    /* non-printable bytes are escaped in the message */
    assert_int_equal(ddl_ident_check(&db2, "tablespace", "a\nDROP", "--name",
                                     out, sizeof(out), &err),
                     PT_EDATA);
    assert_null(strchr(err.msg, '\n'));
    assert_non_null(strstr(err.msg, "\\x0a"));
}

static void test_render(void **state)
{
    struct ddl_vars v;
    struct pt_err err;
    char *out;
    const char *t = "CREATE {{a}} X{{b_2}};\n-- {{a}}\n";
    (void)state;

    ddl_vars_init(&v);
    assert_int_equal(ddl_vars_set(&v, "a", "%s", "ONE"), 0);
    assert_int_equal(ddl_vars_set(&v, "b_2", "%d", 7), 0);
    assert_int_equal(ddl_vars_set(&v, "a", "%s", "UNO"), 0); /* replaces */
    assert_int_equal(ddl_render(t, strlen(t), "t.sql", &v, &out, &err), 0);
    assert_string_equal(out, "CREATE UNO X7;\n-- UNO\n");
    free(out);

    t = "line1\nline2 {{nope}}\n";
    assert_int_equal(ddl_render(t, strlen(t), "t.sql", &v, &out, &err),
                     PT_EDATA);
    assert_string_equal(err.msg, "t.sql:2: unknown placeholder '{{nope}}'");
    assert_null(out);
    t = "x\ny\nz {{a";
    assert_int_equal(ddl_render(t, strlen(t), "u.sql", &v, &out, &err),
                     PT_EDATA);
    assert_non_null(strstr(err.msg, "u.sql:3:"));
    t = "{{A}}";
    assert_int_equal(ddl_render(t, strlen(t), "w.sql", &v, &out, &err),
                     PT_EDATA);
    assert_non_null(strstr(err.msg, "bad placeholder"));
    t = "{{a b}}";
    assert_int_equal(ddl_render(t, strlen(t), "w.sql", &v, &out, &err),
                     PT_EDATA);
    /* single braces are plain text */
    t = "{ {a} }";
    assert_int_equal(ddl_render(t, strlen(t), "w.sql", &v, &out, &err), 0);
    assert_string_equal(out, "{ {a} }");
    free(out);
    ddl_vars_release(&v);
}

static void test_comment_block(void **state)
{
    const char *texts[] = {"short", "evil\nDROP TABLE X; --\r\nmore",
                           "a long reason that has to be wrapped because it "
                           "is much longer than the width of forty columns"};
    struct pt_err err;
    char *out, *line;
    (void)state;

    assert_int_equal(ddl_comment_block(texts, 3, "-- ", 40, &out, &err), 0);
    /* every line is a comment: the newline in the text became a space */
    for (line = strtok(out, "\n"); line; line = strtok(NULL, "\n")) {
        assert_memory_equal(line, "-- ", 3);
        assert_true(strlen(line) <= 40);
    }
    free(out);
}

static void test_db2_templates(void **state)
{
    static const char *const files[] = {"create.sql", "rollback.sql"};
    struct ddl_vars v;
    struct pt_err err;
    char path[4096], *buf, *out;
    size_t len;
    (void)state;

    ddl_vars_init(&v);
    ddl_vars_set(&v, "version", "%s", "t");
    ddl_vars_set(&v, "evidence_source", "%s", "test");
    ddl_vars_set(&v, "evidence", "%s", "--   - none");
    ddl_vars_set(&v, "page_size", "%s", "8192");
    ddl_vars_set(&v, "page_size_k", "%s", "8");
    ddl_vars_set(&v, "bufferpool_name", "%s", "BPX");
    ddl_vars_set(&v, "tablespace_name", "%s", "TSX");
    ddl_vars_set(&v, "table", "%s", "\"WAS\".\"SESSIONS\"");
    ddl_vars_set(&v, "bufferpool_pages", "%s", "1000");
    ddl_vars_set(&v, "bufferpool_bytes", "%s", "8000K");
    ddl_vars_set(&v, "bufferpool", "%s", "1,000 pages of 8K (7.8M)");
    ddl_vars_set(&v, "extent_size", "%s", "32");
    ddl_vars_set(&v, "prefetch_size", "%s", "AUTOMATIC");
    ddl_vars_set(&v, "overhead", "%s", "6.725");
    ddl_vars_set(&v, "transfer_rate", "%s", "0.08");
    ddl_vars_set(&v, "file_system_caching", "%s", "FILE SYSTEM CACHING");
    ddl_vars_set(&v, "if_fs_caching", "%s", "");
    ddl_vars_set(&v, "if_no_fs_caching", "%s", "-- ");
    for (size_t i = 0; i < 2; i++) {
        snprintf(path, sizeof(path), "%s/ddl_templates/db2/%s", pt_data_dir(),
                 files[i]);
        assert_int_equal(pt_file_read(path, &buf, &len, &err), 0);
        assert_int_equal(ddl_render(buf, len, path, &v, &out, &err), 0);
        if (i == 0) {
            assert_non_null(strstr(out, "CREATE BUFFERPOOL BPX"));
            assert_non_null(strstr(out, "PAGESIZE 8 K;"));
            assert_non_null(strstr(out, "CREATE REGULAR TABLESPACE TSX"));
            assert_non_null(strstr(out, "BUFFERPOOL BPX"));
            assert_non_null(strstr(out, "ROW_SIZE_8KB"));
            /* the table named with its schema */
            assert_non_null(strstr(out, "DROP TABLE \"WAS\".\"SESSIONS\";"));
            assert_non_null(strstr(out, "TRANSFERRATE 0.08"));
            /* the caching clause the recommendation chose, the other one
             * a comment */
            assert_non_null(strstr(out, "\n    FILE SYSTEM CACHING\n"));
            assert_non_null(strstr(out, "\n--     NO FILE SYSTEM CACHING\n"));
        } else {
            char *ts = strstr(out, "DROP TABLESPACE TSX;");
            char *bp = strstr(out, "DROP BUFFERPOOL BPX;");
            assert_non_null(ts);
            assert_non_null(bp);
            assert_true(ts < bp); /* the table space first */
        }
        free(out);
        free(buf);
    }
    ddl_vars_release(&v);
}

static void test_out_of_memory(void **state)
{
    /* every allocation of a render in turn fails: an error, never a crash
     * or a leak (ASan checks the leaks) */
    const char *t = "A {{a}} B {{a}}\n";
    const char *texts[] = {"one reason", "another reason, longer"};
    (void)state;

    for (long n = 0; n < 40; n++) {
        struct ddl_vars v;
        struct pt_err err;
        char *out = NULL, *blk = NULL;
        int rc;

        ddl_vars_init(&v);
        pt_alloc_fail_after(n);
        rc = ddl_vars_set(&v, "a", "%s", "x");
        if (rc == 0)
            rc = ddl_render(t, strlen(t), "t.sql", &v, &out, &err);
        if (rc == 0)
            rc = ddl_comment_block(texts, 2, "-- ", 40, &blk, &err);
        pt_alloc_fail_after(-1);
        if (rc == 0) {
            assert_string_equal(out, "A x B x\n");
            assert_non_null(blk);
        } else {
            assert_int_equal(rc, PT_EINTERNAL);
        }
        free(out);
        free(blk);
        ddl_vars_release(&v);
    }
}

/* ---- the other dialects (issue 5) ---------------------------------------- */

static int load_dialect(const char *name, struct ddl_dialect *d)
{
    char path[4096];
    struct pt_err err;
    json_t *doc;
    int rc;

    snprintf(path, sizeof(path), "%s/ddl_templates/%s/dialect.yaml",
             pt_data_dir(), name);
    if (prof_load(path, &doc, &err) < 0) {
        print_error("%s\n", err.msg);
        return -1;
    }
    rc = ddl_dialect_from_json(d, doc, path, &err);
    if (rc < 0)
        print_error("%s\n", err.msg);
    json_decref(doc);
    return rc;
}

static const struct ddl_setting_rule *rule(const struct ddl_dialect *d,
                                           const char *name)
{
    for (size_t i = 0; i < d->n_settings; i++)
        if (strcmp(d->settings[i].name, name) == 0)
            return &d->settings[i];
    return NULL;
}

static void test_engine_dialects(void **state)
{
    struct ddl_dialect d;
    struct pt_err err;
    char out[130];
    json_t *v;
    (void)state;

    /* PostgreSQL: lower-case folding, 63 bytes; a table may begin with
       pg_ (only schemas and tablespaces may not: issue 23) */
    assert_int_equal(load_dialect("postgresql", &d), 0);
    assert_true(d.fold_lower);
    assert_false(d.has_extent || d.has_prefetch || d.has_pool);
    assert_true(ddl_dialect_has_kind(&d, "table"));
    assert_false(ddl_dialect_has_kind(&d, "bufferpool"));
    assert_int_equal(
        ddl_ident_check(&d, "table", "SESSIONS", "t", out, sizeof(out), &err),
        0);
    assert_string_equal(out, "sessions");
    assert_int_equal(
        ddl_ident_check(&d, "table", "PG_X", "t", out, sizeof(out), &err), 0);
    assert_string_equal(out, "pg_x");
    assert_int_equal(
        ddl_ident_check(&d, "table",
                        "a234567890123456789012345678901234567890123456789012"
                        "345678901234",
                        "t", out, sizeof(out), &err),
        PT_EDATA);
    /* settings: range and keywords from dialect.yaml */
    v = json_integer(8160);
    assert_int_equal(ddl_setting_check(rule(&d, "toast_tuple_target"), v, "r",
                                       out, sizeof(out), &err),
                     0);
    assert_string_equal(out, "8160");
    json_decref(v);
    v = json_integer(8161);
    assert_int_equal(ddl_setting_check(rule(&d, "toast_tuple_target"), v, "r",
                                       out, sizeof(out), &err),
                     PT_EDATA);
    assert_non_null(strstr(err.msg, "128..8160"));
    json_decref(v);
    v = json_string("main; DROP TABLE x");
    assert_int_equal(
        ddl_setting_check(rule(&d, "storage"), v, "r", out, sizeof(out), &err),
        PT_EDATA);
    json_decref(v);
    v = json_string("main");
    assert_int_equal(
        ddl_setting_check(rule(&d, "storage"), v, "r", out, sizeof(out), &err),
        0);
    assert_string_equal(out, "MAIN");
    json_decref(v);
    assert_int_equal(ddl_setting_check(rule(&d, "storage"), NULL, "r", out,
                                       sizeof(out), &err),
                     0);
    assert_string_equal(out, "EXTENDED");

    /* MariaDB/MySQL: names kept as given, 64 bytes */
    assert_int_equal(load_dialect("mysql", &d), 0);
    assert_int_equal(
        ddl_ident_check(&d, "table", "Sessions", "t", out, sizeof(out), &err),
        0);
    assert_string_equal(out, "Sessions");
    assert_int_equal(rule(&d, "innodb_page_size")->page_size_unit, 1);

    /* Oracle: upper case, 30 bytes, SYS/ORA_ prefixes; the cache
     * parameter has no default (it follows the block size) */
    assert_int_equal(load_dialect("oracle", &d), 0);
    assert_int_equal(ddl_ident_check(&d, "tablespace", "sess_ts16k", "t", out,
                                     sizeof(out), &err),
                     0);
    assert_string_equal(out, "SESS_TS16K");
    assert_int_equal(ddl_ident_check(&d, "tablespace", "SYSAUX2", "t", out,
                                     sizeof(out), &err),
                     PT_EDATA);
    assert_int_equal(ddl_ident_check(&d, "table",
                                     "A234567890123456789012345678901", "t",
                                     out, sizeof(out), &err),
                     PT_EDATA);
    assert_int_equal(ddl_setting_check(rule(&d, "cache_parameter"), NULL, "r",
                                       out, sizeof(out), &err),
                     PT_EDATA);
    assert_int_equal(rule(&d, "block_size_k")->page_size_unit, 1024);

    /* SQLite: sqlite_ reserved */
    assert_int_equal(load_dialect("sqlite", &d), 0);
    assert_int_equal(ddl_ident_check(&d, "table", "sqlite_stat1", "t", out,
                                     sizeof(out), &err),
                     PT_EDATA);
    assert_true(ddl_dialect_has_page(&d, 65536));
    assert_true(ddl_dialect_has_page(&d, 512));
}

static void test_dialect_files(void **state)
{
    struct ddl_dialect d;
    struct pt_err err;
    char known[512], dir[4200];
    (void)state;

    assert_true(ddl_dialect_name_valid("db2"));
    assert_true(ddl_dialect_name_valid("my_sql-8"));
    assert_false(ddl_dialect_name_valid(""));
    assert_false(ddl_dialect_name_valid("../etc"));
    assert_false(ddl_dialect_name_valid("DB2"));
    assert_false(ddl_dialect_name_valid("a234567890123456789012345678901x"));
    ddl_dialect_list(known, sizeof(known));
    assert_non_null(strstr(known, "db2"));
    assert_non_null(strstr(known, "postgresql"));
    assert_int_equal(ddl_dialect_load(&d, "informix", dir, sizeof(dir), &err),
                     PT_EUSAGE);
    assert_non_null(strstr(err.msg, "unknown dialect 'informix'"));
    assert_non_null(strstr(err.msg, "db2"));
    assert_int_equal(ddl_dialect_load(&d, "../../etc", dir, sizeof(dir), &err),
                     PT_EUSAGE);
    assert_non_null(strstr(err.msg, "'?'"));
    assert_int_equal(ddl_dialect_load(&d, "db2", dir, sizeof(dir), &err), 0);
    assert_string_equal(d.name, "db2");
    assert_non_null(strstr(dir, "/ddl_templates/db2"));
}

/* A recommendation as recommend/'s reader returns it. */
static void db2_rec(struct rec_doc *r, const char **reasons, size_t n)
{
    memset(r, 0, sizeof(*r));
    r->engine = "db2";
    r->decided_by = "cost_model";
    r->bufferpool_name = "bp8";
    r->tablespace_name = "ts8";
    r->page_size_bytes = 8192;
    r->bufferpool_pages = 4000;
    r->extent_size = 32;
    r->prefetch_automatic = 1;
    r->overhead_ms = 4;
    r->transfer_rate_ms = 0.08;
    r->reasons = reasons;
    r->n_reasons = n;
}

/* SQLite's recommendation: 8K pages in use, settings borrowed */
static void lite_rec(struct rec_doc *r, json_t *settings)
{
    struct pt_err err;

    db2_rec(r, NULL, 0);
    r->engine = "sqlite";
    r->settings = settings;
    r->has_current = 1;
    rec_state_set_num(&r->current, "page_size", 8192, REC_SOURCE_SERVER, &err);
}

/* PostgreSQL's recommendation: a 3G table rewritten in 10 minutes */
static void pg_rec(struct rec_doc *r, json_t *settings)
{
    db2_rec(r, NULL, 0);
    r->engine = "postgresql";
    r->settings = settings;
    r->table_bytes = 3.0 * 1024 * 1024 * 1024;
    r->rewrite_seconds = 600;
}

static void test_plan_defaults(void **state)
{
    struct ddl_overrides o = {0};
    struct ddl_plan p;
    struct pt_err err;
    char dir[4200], *create, *rollback;
    struct ddl_dialect d;
    (void)state;

    assert_int_equal(ddl_dialect_load(&d, "db2", dir, sizeof(dir), &err), 0);
    /* nothing says the page size */
    assert_int_equal(ddl_plan_from_recommendation(&p, &d, NULL, NULL, &o, &err),
                     PT_EUSAGE);
    ddl_plan_release(&p);
    o.has_page_size = 1;
    o.page_size_bytes = 8192;
    assert_int_equal(ddl_plan_from_recommendation(&p, &d, NULL, NULL, &o, &err),
                     0);
    assert_int_equal(p.bufferpool_pages, REC_POOL_MIN_PAGES);
    assert_int_equal(p.extent_size, DDL_DEFAULT_EXTENT_PAGES);
    assert_true(p.prefetch_automatic);
    assert_true(p.overhead_ms == d.default_overhead_ms);
    assert_true(p.transfer_rate_ms ==
                rec_transfer_ms(d.default_read_rate_mb_s, 8192));
    assert_string_equal(p.tablespace, "SESSTS8K");
    assert_string_equal(p.bufferpool, "SESSBP8K");
    assert_string_equal(ddl_vars_get(&p.vars, "evidence_source"),
                        "command-line parameters");
    assert_int_equal(ddl_plan_render(&p, dir, &create, &rollback, &err), 0);
    assert_non_null(strstr(create, "\"SESSBP8K\": 1,000 pages of 8K (7.8M)"));
    assert_non_null(strstr(create, "IBM's defaults"));
    assert_non_null(strstr(rollback, "DROP TABLESPACE \"SESSTS8K\";"));
    free(create);
    free(rollback);
    /* the templates' directory must hold them */
    assert_int_equal(
        ddl_plan_render(&p, "/nonexistent", &create, &rollback, &err),
        PT_ENOINPUT);
    assert_null(create);
    assert_null(rollback);
    ddl_plan_release(&p);
    /* ranges: EXTENTSIZE 300, a pool below the dialect's minimum */
    o.has_extent_size = 1;
    o.extent_size = 300;
    assert_int_equal(ddl_plan_from_recommendation(&p, &d, NULL, NULL, &o, &err),
                     PT_EDATA);
    assert_non_null(strstr(err.msg, "EXTENTSIZE 300"));
    ddl_plan_release(&p);
    o.has_extent_size = 0;
    o.has_bufferpool_pages = 1;
    o.bufferpool_pages = 1;
    assert_int_equal(ddl_plan_from_recommendation(&p, &d, NULL, NULL, &o, &err),
                     PT_EDATA);
    assert_non_null(strstr(err.msg, "buffer-pool size 1 pages"));
    ddl_plan_release(&p);
}

static void test_plan_from_recommendation(void **state)
{
    static const char *reasons[] = {"first reason", "second\nDROP TABLE X;"};
    struct ddl_overrides o = {0};
    struct rec_doc r;
    struct ddl_plan p;
    struct pt_err err;
    char dir[4200], *create, *rollback;
    struct ddl_dialect d, pg;
    (void)state;

    assert_int_equal(ddl_dialect_load(&d, "db2", dir, sizeof(dir), &err), 0);
    db2_rec(&r, reasons, 2);
    assert_int_equal(
        ddl_plan_from_recommendation(&p, &d, &r, "rec.json", NULL, &err), 0);
    assert_int_equal(p.page_size_bytes, 8192);
    assert_int_equal(p.bufferpool_pages, 4000);
    assert_true(p.transfer_rate_ms == 0.08);
    assert_string_equal(p.tablespace, "TS8"); /* folded to upper case */
    assert_string_equal(p.bufferpool, "BP8");
    assert_string_equal(ddl_vars_get(&p.vars, "evidence_source"),
                        "recommendation rec.json, decided by the cost_model");
    assert_int_equal(ddl_plan_render(&p, dir, &create, &rollback, &err), 0);
    assert_non_null(strstr(create, "--   - first reason"));
    assert_null(strstr(create, "\nDROP TABLE X;")); /* stays a comment */
    free(create);
    free(rollback);
    ddl_plan_release(&p);

    /* another page size: the same device, so TRANSFERRATE scales with it;
     * an explicit name wins over the recommendation's */
    o.has_page_size = 1;
    o.page_size_bytes = 16384;
    o.tablespace_name = "mine";
    assert_int_equal(
        ddl_plan_from_recommendation(&p, &d, &r, "rec.json", &o, &err), 0);
    assert_true(p.transfer_rate_ms == 0.08 * 16384.0 / 8192.0);
    assert_string_equal(p.tablespace, "MINE");
    assert_string_equal(p.bufferpool, "BP8");
    ddl_plan_release(&p);
    o.tablespace_name = "SYSTS"; /* a reserved prefix */
    assert_int_equal(
        ddl_plan_from_recommendation(&p, &d, &r, "rec.json", &o, &err),
        PT_EDATA);
    assert_non_null(strstr(err.msg, "`name`"));
    ddl_plan_release(&p);

    /* an engine dialect needs the recommendation's settings */
    assert_int_equal(
        ddl_dialect_load(&pg, "postgresql", dir, sizeof(dir), &err), 0);
    r.engine = "postgresql";
    assert_int_equal(
        ddl_plan_from_recommendation(&p, &pg, &r, "rec.json", NULL, &err),
        PT_EDATA);
    assert_non_null(strstr(err.msg, "no engine 'settings'"));
    ddl_plan_release(&p);
}

/* render the PostgreSQL scripts for shared_buffers_kb `kb` and state `st` */
static void pg_render(const struct rec_state *st, int kb, char **create,
                      char **rollback)
{
    struct ddl_dialect pg;
    struct ddl_plan p;
    struct rec_doc r;
    struct pt_err err;
    char dir[4200];
    json_t *settings =
        json_pack("{s:i,s:s,s:i,s:s}", "toast_tuple_target", 2032, "storage",
                  "EXTENDED", "shared_buffers_kb", kb, "rewrite", "no");

    assert_int_equal(
        ddl_dialect_load(&pg, "postgresql", dir, sizeof(dir), &err), 0);
    db2_rec(&r, NULL, 0);
    r.engine = "postgresql";
    r.settings = settings;
    r.has_current = 1;
    r.current = *st;
    assert_int_equal(
        ddl_plan_from_recommendation(&p, &pg, &r, "rec.json", NULL, &err), 0);
    assert_int_equal(ddl_plan_render(&p, dir, create, rollback, &err), 0);
    ddl_plan_release(&p);
    json_decref(settings);
}

/* issue 23: a pending shared_buffers is prior state; no-op statements are
 * comments */
static void test_plan_pending(void **state)
{
    struct rec_state st;
    char *create, *rollback;
    (void)state;

    memset(&st, 0, sizeof(st));
    rec_state_set_num(&st, "shared_buffers", 32LL << 20, REC_SOURCE_SERVER,
                      NULL);
    rec_state_set_null(&st, "shared_buffers_auto_conf", 1, REC_SOURCE_SERVER,
                       NULL);
    /* nothing pending, the running size kept: a comment */
    pg_render(&st, 32768, &create, &rollback);
    assert_non_null(
        strstr(create, "\n-- ALTER SYSTEM SET shared_buffers = '32768kB';"));
    assert_non_null(strstr(create, "32MB in use, nothing pending"));
    free(create);
    free(rollback);
    /* 40MB pending (ALTER SYSTEM): kept running size, no statement */
    rec_state_set_num(&st, "shared_buffers_auto_conf", 40LL << 20,
                      REC_SOURCE_SERVER, NULL);
    rec_state_set_num(&st, "shared_buffers_pending", 40LL << 20,
                      REC_SOURCE_SERVER, NULL);
    pg_render(&st, 32768, &create, &rollback);
    assert_non_null(
        strstr(create, "\n-- ALTER SYSTEM SET shared_buffers = '32768kB';"));
    assert_non_null(strstr(create, "40MB is PENDING"));
    assert_non_null(
        strstr(rollback, "\n-- ALTER SYSTEM SET shared_buffers = '40MB';"));
    free(create);
    free(rollback);
    /* the pending value asked for: nothing to change either */
    pg_render(&st, 40960, &create, &rollback);
    assert_non_null(
        strstr(create, "\n-- ALTER SYSTEM SET shared_buffers = '40960kB';"));
    assert_non_null(strstr(create, "the advice asks for it"));
    free(create);
    free(rollback);
    /* another size: set, and rollback.sql restores the pending 40MB */
    pg_render(&st, 65536, &create, &rollback);
    assert_non_null(
        strstr(create, "\nALTER SYSTEM SET shared_buffers = '65536kB';"));
    assert_non_null(
        strstr(rollback, "\nALTER SYSTEM SET shared_buffers = '40MB';"));
    free(create);
    free(rollback);
    /* pg_file_settings not readable: only a comment, with the reason */
    memset(&st, 0, sizeof(st));
    rec_state_set_num(&st, "shared_buffers", 32LL << 20, REC_SOURCE_SERVER,
                      NULL);
    rec_state_note_add(&st, "shared_buffers_auto_conf not read ([42501] "
                            "permission denied)");
    pg_render(&st, 65536, &create, &rollback);
    assert_non_null(
        strstr(create, "\n-- ALTER SYSTEM SET shared_buffers = '65536kB';"));
    assert_non_null(strstr(create, "LEFT ALONE"));
    assert_non_null(strstr(create, "[42501] permission denied"));
    assert_null(strstr(rollback, "\nALTER SYSTEM"));
    free(create);
    free(rollback);
}

/* issue 14: rollback.sql restores the recommendation's `current` exactly */
static void test_plan_current(void **state)
{
    struct ddl_dialect pg, lite;
    struct ddl_plan p;
    struct rec_doc r;
    struct pt_err err;
    char dir[4200], *create, *rollback;
    json_t *settings =
        json_pack("{s:i,s:s,s:i,s:s}", "toast_tuple_target", 3304, "storage",
                  "EXTERNAL", "shared_buffers_kb", 65536, "rewrite", "yes");
    (void)state;

    assert_int_equal(
        ddl_dialect_load(&pg, "postgresql", dir, sizeof(dir), &err), 0);
    pg_rec(&r, settings);
    r.has_current = 1;
    rec_state_set_num(&r.current, "toast_tuple_target", 2500, REC_SOURCE_SERVER,
                      &err);
    rec_state_set_word(&r.current, "storage", "EXTERNAL", REC_SOURCE_SERVER,
                       &err);
    rec_state_set_num(&r.current, "shared_buffers", 48LL << 20,
                      REC_SOURCE_SERVER, &err);
    rec_state_set_num(&r.current, "shared_buffers_auto_conf", 48LL << 20,
                      REC_SOURCE_SERVER, &err);
    rec_state_set_num(&r.current, "page_size", 8192, REC_SOURCE_SERVER, &err);
    assert_int_equal(
        ddl_plan_from_recommendation(&p, &pg, &r, "rec.json", NULL, &err), 0);
    assert_int_equal(ddl_plan_render(&p, dir, &create, &rollback, &err), 0);
    /* create.sql: only what changes; STORAGE EXTERNAL stays */
    assert_non_null(strstr(
        create, "\nALTER TABLE \"sessions\" SET (toast_tuple_target = 3304);"));
    assert_non_null(strstr(
        create,
        "\n-- ALTER TABLE \"sessions\" ALTER COLUMN \"small\" SET STORAGE "
        "EXTERNAL;"));
    assert_non_null(strstr(create, "about 10.0 min for 3G"));
    assert_non_null(strstr(create, "\nBEGIN;\n"));
    /* rollback.sql: the values read, not the defaults */
    assert_non_null(
        strstr(rollback, "restores the state read from the server"));
    assert_null(strstr(rollback, "NO LIVE READ"));
    assert_non_null(
        strstr(rollback,
               "\nALTER TABLE \"sessions\" SET (toast_tuple_target = 2500);"));
    assert_non_null(strstr(
        rollback, "\n-- ALTER TABLE \"sessions\" RESET (toast_tuple_target);"));
    assert_non_null(
        strstr(rollback, "\nALTER SYSTEM SET shared_buffers = '48MB';"));
    assert_non_null(
        strstr(rollback, "\n-- ALTER SYSTEM RESET shared_buffers;"));
    assert_non_null(strstr(rollback,
                           "toast_tuple_target        2500, read from "
                           "the server"));
    free(create);
    free(rollback);
    ddl_plan_release(&p);

    /* no live read: defaults, named, and RESET */
    memset(&r.current, 0, sizeof(r.current));
    r.has_current = 0;
    assert_int_equal(
        ddl_plan_from_recommendation(&p, &pg, &r, "rec.json", NULL, &err), 0);
    assert_int_equal(ddl_plan_render(&p, dir, &create, &rollback, &err), 0);
    assert_non_null(strstr(rollback, "NO LIVE READ of the server: it restores "
                                     "the engine DEFAULTS for"));
    assert_non_null(strstr(rollback, "toast_tuple_target"));
    assert_non_null(strstr(
        rollback, "\nALTER TABLE \"sessions\" RESET (toast_tuple_target);"));
    /* EXTERNAL asked for, EXTENDED assumed: changed and restored */
    assert_non_null(strstr(
        create, "\nALTER TABLE \"sessions\" ALTER COLUMN \"small\" SET STORAGE "
                "EXTERNAL;"));
    assert_non_null(
        strstr(rollback,
               "\nALTER TABLE \"sessions\" ALTER COLUMN \"small\" SET STORAGE "
               "EXTENDED;"));
    assert_non_null(strstr(rollback, "\nALTER SYSTEM RESET shared_buffers;"));
    free(create);
    free(rollback);
    ddl_plan_release(&p);
    json_decref(settings);

    /* SQLite: the page size in use is recommended: no VACUUM */
    assert_int_equal(ddl_dialect_load(&lite, "sqlite", dir, sizeof(dir), &err),
                     0);
    settings = json_pack("{s:i,s:i}", "previous_page_size", 8192,
                         "cache_size_kib", 2000);
    lite_rec(&r, settings);
    rec_state_set_word(&r.current, "journal_mode", "wal", REC_SOURCE_SERVER,
                       &err);
    assert_int_equal(
        ddl_plan_from_recommendation(&p, &lite, &r, "rec.json", NULL, &err), 0);
    assert_int_equal(ddl_plan_render(&p, dir, &create, &rollback, &err), 0);
    assert_non_null(strstr(create, "\n-- VACUUM;"));
    assert_non_null(strstr(create, "\n-- PRAGMA journal_mode = wal;"));
    free(create);
    free(rollback);
    ddl_plan_release(&p);
    /* another page size: leave WAL, VACUUM, back to WAL */
    r.page_size_bytes = 16384;
    assert_int_equal(
        ddl_plan_from_recommendation(&p, &lite, &r, "rec.json", NULL, &err), 0);
    assert_int_equal(ddl_plan_render(&p, dir, &create, &rollback, &err), 0);
    assert_non_null(strstr(create, "\nPRAGMA journal_mode = DELETE;"));
    assert_non_null(strstr(create, "\nVACUUM;"));
    assert_non_null(strstr(create, "\nPRAGMA journal_mode = wal;"));
    assert_non_null(strstr(rollback, "\nPRAGMA page_size = 8192;"));
    assert_non_null(strstr(rollback, "\nPRAGMA journal_mode = wal;"));
    free(create);
    free(rollback);
    ddl_plan_release(&p);
    json_decref(settings);
}

/* the steps of a plan's create.sql that destroy, block or restart, joined
 * by " | " into buf */
static int steps_of(const struct ddl_plan *p, const struct ddl_dialect *d,
                    char *buf, size_t len)
{
    struct pt_err err;
    json_t *steps, *v;
    size_t i, n;

    buf[0] = '\0';
    if (ddl_plan_destructive(p, d, &steps, &err) < 0) {
        snprintf(buf, len, "error: %s", err.msg);
        return -1;
    }
    json_array_foreach(steps, i, v)
    {
        snprintf(buf + strlen(buf), len - strlen(buf), "%s%s", i ? " | " : "",
                 json_string_value(v));
    }
    n = json_array_size(steps);
    json_decref(steps);
    return (int)n;
}

/* issue 31: the Action box names every destructive step create.sql takes */
static void test_plan_destructive(void **state)
{
    struct ddl_dialect d, pg, lite;
    struct ddl_plan p;
    struct rec_doc r;
    struct pt_err err;
    char dir[4200], buf[4096];
    json_t *settings, *doc;
    (void)state;

    /* DB2: IBM's procedure drops SESSIONS; WebSphere restarts */
    assert_int_equal(ddl_dialect_load(&d, "db2", dir, sizeof(dir), &err), 0);
    db2_rec(&r, NULL, 0);
    assert_int_equal(
        ddl_plan_from_recommendation(&p, &d, &r, "rec.json", NULL, &err), 0);
    assert_int_equal(steps_of(&p, &d, buf, sizeof(buf)), 2);
    assert_non_null(strstr(buf, "drops table \"SESSIONS\""));
    assert_non_null(strstr(buf, "every session stored in it is lost"));
    assert_non_null(strstr(buf, "restarts the WebSphere application servers"));
    ddl_plan_release(&p);

    /* PostgreSQL: SET STORAGE, VACUUM FULL and the restart, each when taken */
    assert_int_equal(
        ddl_dialect_load(&pg, "postgresql", dir, sizeof(dir), &err), 0);
    settings =
        json_pack("{s:i,s:s,s:i,s:s}", "toast_tuple_target", 3304, "storage",
                  "EXTERNAL", "shared_buffers_kb", 65536, "rewrite", "yes");
    pg_rec(&r, settings);
    assert_int_equal(
        ddl_plan_from_recommendation(&p, &pg, &r, "rec.json", NULL, &err), 0);
    assert_int_equal(steps_of(&p, &pg, buf, sizeof(buf)), 3);
    assert_non_null(strstr(buf, "SET STORAGE takes an ACCESS EXCLUSIVE lock "
                                "on \"sessions\""));
    assert_non_null(strstr(buf, "VACUUM FULL rewrites \"sessions\" under an "
                                "ACCESS EXCLUSIVE lock (no reads, no writes) "
                                "for about 10.0 min; extra disk about 3G"));
    assert_non_null(strstr(buf, "after a server restart"));
    ddl_plan_release(&p);
    json_decref(settings);
    /* no rewrite, STORAGE and shared_buffers as they are: nothing */
    settings =
        json_pack("{s:i,s:s,s:i,s:s}", "toast_tuple_target", 3304, "storage",
                  "EXTERNAL", "shared_buffers_kb", 49152, "rewrite", "no");
    r.settings = settings;
    r.has_current = 1;
    rec_state_set_word(&r.current, "storage", "EXTERNAL", REC_SOURCE_SERVER,
                       &err);
    rec_state_set_num(&r.current, "shared_buffers", 48LL << 20,
                      REC_SOURCE_SERVER, &err);
    rec_state_set_num(&r.current, "shared_buffers_auto_conf", 48LL << 20,
                      REC_SOURCE_SERVER, &err);
    assert_int_equal(
        ddl_plan_from_recommendation(&p, &pg, &r, "rec.json", NULL, &err), 0);
    assert_int_equal(steps_of(&p, &pg, buf, sizeof(buf)), 0);
    ddl_plan_release(&p);
    json_decref(settings);

    /* SQLite: VACUUM only when the page size changes */
    assert_int_equal(ddl_dialect_load(&lite, "sqlite", dir, sizeof(dir), &err),
                     0);
    settings = json_pack("{s:i,s:i}", "previous_page_size", 8192,
                         "cache_size_kib", 2000);
    lite_rec(&r, settings);
    assert_int_equal(
        ddl_plan_from_recommendation(&p, &lite, &r, "rec.json", NULL, &err), 0);
    assert_int_equal(steps_of(&p, &lite, buf, sizeof(buf)), 0);
    ddl_plan_release(&p);
    r.page_size_bytes = 16384;
    assert_int_equal(
        ddl_plan_from_recommendation(&p, &lite, &r, "rec.json", NULL, &err), 0);
    assert_int_equal(steps_of(&p, &lite, buf, sizeof(buf)), 2);
    assert_non_null(strstr(buf, "VACUUM rebuilds the whole database file "
                                "under an EXCLUSIVE lock"));
    ddl_plan_release(&p);
    json_decref(settings);

    /* MariaDB: a new instance, the rebuild and the pool, each when taken */
    assert_int_equal(ddl_dialect_load(&d, "mysql", dir, sizeof(dir), &err), 0);
    settings = json_pack("{s:i,s:s,s:s,s:i,s:i}", "current_page_size", 16384,
                         "new_instance", "yes", "row_format", "DYNAMIC",
                         "innodb_buffer_pool_size", 268435456,
                         "previous_innodb_buffer_pool_size", 134217728);
    db2_rec(&r, NULL, 0);
    r.engine = "mysql";
    r.settings = settings;
    r.table_bytes = 3.0 * 1024 * 1024 * 1024;
    r.rewrite_seconds = 600;
    assert_int_equal(
        ddl_plan_from_recommendation(&p, &d, &r, "rec.json", NULL, &err), 0);
    assert_int_equal(steps_of(&p, &d, buf, sizeof(buf)), 3);
    assert_non_null(strstr(buf, "innodb_page_size needs a new instance: dump "
                                "and reload the whole data set (`SESSIONS` "
                                "alone about 3G)"));
    assert_non_null(strstr(buf, "ROW_FORMAT rebuilds `SESSIONS` for about "
                                "10.0 min"));
    assert_non_null(strstr(buf, "resizing the buffer pool stalls"));
    ddl_plan_release(&p);
    json_decref(settings);
    /* Oracle: MOVE always rewrites the table and its indexes */
    assert_int_equal(ddl_dialect_load(&d, "oracle", dir, sizeof(dir), &err), 0);
    settings = json_pack("{s:s,s:i}", "cache_parameter", "DB_8K_CACHE_SIZE",
                         "cache_size_mb", 64);
    db2_rec(&r, NULL, 0);
    r.engine = "oracle";
    r.settings = settings;
    assert_int_equal(
        ddl_plan_from_recommendation(&p, &d, &r, "rec.json", NULL, &err), 0);
    assert_int_equal(steps_of(&p, &d, buf, sizeof(buf)), 1);
    assert_non_null(strstr(buf, "MOVE rewrites \"SESSIONS\""));
    assert_non_null(strstr(buf, "UNUSABLE"));
    ddl_plan_release(&p);
    json_decref(settings);

    /* a step naming no variable fails when the plan is asked, one line */
    assert_int_equal(ddl_dialect_load(&d, "db2", dir, sizeof(dir), &err), 0);
    db2_rec(&r, NULL, 0);
    d.n_steps = 1;
    snprintf(d.steps[0].when, sizeof(d.steps[0].when), "if_nothing");
    assert_int_equal(
        ddl_plan_from_recommendation(&p, &d, &r, "rec.json", NULL, &err), 0);
    assert_int_equal(steps_of(&p, &d, buf, sizeof(buf)), -1);
    assert_non_null(strstr(buf, "destructive[0]: 'when' names 'if_nothing'"));
    ddl_plan_release(&p);
    /* malformed entries are refused when dialect.yaml is read */
    doc = json_pack("{s:s, s:{s:{s:i}}, s:[i], s:[{s:s, s:s}]}", "name", "x",
                    "identifiers", "table", "max_bytes", 30, "page_sizes", 8192,
                    "destructive", "text", "drops", "when", "a b");
    assert_int_equal(ddl_dialect_from_json(&d, doc, "x.yaml", &err), PT_EDATA);
    assert_non_null(strstr(err.msg, "x.yaml: destructive[0]: 'when'"));
    json_decref(doc);
    doc = json_pack("{s:s, s:{s:{s:i}}, s:[i], s:[{s:s}]}", "name", "x",
                    "identifiers", "table", "max_bytes", 30, "page_sizes", 8192,
                    "destructive", "text", "two\nlines");
    assert_int_equal(ddl_dialect_from_json(&d, doc, "x.yaml", &err), PT_EDATA);
    assert_non_null(strstr(err.msg, "x.yaml: destructive[0]: 'text' is one"));
    json_decref(doc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dialect),
        cmocka_unit_test(test_identifiers),
        cmocka_unit_test(test_render),
        cmocka_unit_test(test_comment_block),
        cmocka_unit_test(test_db2_templates),
        cmocka_unit_test(test_out_of_memory),
        cmocka_unit_test(test_engine_dialects),
        cmocka_unit_test(test_dialect_files),
        cmocka_unit_test(test_plan_defaults),
        cmocka_unit_test(test_plan_from_recommendation),
        cmocka_unit_test(test_plan_current),
        cmocka_unit_test(test_plan_pending),
        cmocka_unit_test(test_plan_destructive),
    };
    return cmocka_run_group_tests_name("ddl", tests, load_db2, NULL);
}
