/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cmd_diff.c — `pagetune diff A B`: what changed between two
 * recommendations, each a recommendation.json (`recommend --json -o`) or
 * an advise out-dir holding one. Prints the items (table, csv or the JSON
 * of docs/formats.md#diff) and exits 1 when the advice changed, 0 when it
 * did not, for pipelines ("did the advice change since last week?").
 *
 * recommend/ compares (rec_diff_compute); this file finds and reads the
 * two documents, checks each is a recommendation (rec_result_from_json)
 * and prints. It is the one command with operands: they are taken from
 * what getopt leaves after the options.
 */
#include "cli/cli.h"

#include "recommend/recommend.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *const usage[] = {
    "pagetune diff A B [-o FILE] [--format table|json|csv]",
    NULL,
};

static const char description[] =
    "Compare two recommendations: A and B are each a recommendation.json\n"
    "(`pagetune recommend --json -o FILE`) or an advise out-dir holding one.\n"
    "Shows the advice that changed (page size, buffer pool, table space\n"
    "knobs, the engine's storage settings, the verdict of an advise run)\n"
    "and the figures behind it (budget, modelled, predicted and measured\n"
    "changes). Exits 1 when the advice changed and 0 when it did not; a\n"
    "figure alone never changes the exit status.";

struct diff_args {
    int all; /* --all: unchanged items too */
};

static const struct cli_option opts[] = {
    {.name = "all",
     .group = CLI_G_OUTPUT,
     .type = CLI_T_FLAG,
     CLI_AT(struct diff_args, all),
     .help = "table: list the items that did not change too",
     .def = "only what changed"},
    CLI_OPT_OUTPUT_ENTRY,
    CLI_OPT_COMMON_ENTRIES_END,
};

static const char *const examples[] = {
    "did the advice change since last week's advise run?",
    "pagetune diff advice-last-week advice",
    "two recommend runs, as JSON for a pipeline",
    "pagetune diff rec-512M.json rec-2G.json --json",
    NULL,
};

CLI_SPEC_DEFINE(diff);

/* One side: the path given, the file read and its document. */
struct side {
    const char *given;
    char file[4200];
    json_t *doc;
};

/* Resolve `given` (a file, or a directory holding recommendation.json),
   read it and check it is a recommendation document. */
static int side_load(struct side *s, struct pt_err *err)
{
    struct stat st;
    struct rec_doc rd = {0};
    int rc;

    if (stat(s->given, &st) == 0 && S_ISDIR(st.st_mode)) {
        snprintf(s->file, sizeof(s->file), "%s/recommendation.json", s->given);
        if (access(s->file, F_OK) != 0)
            return err_set(err, PT_ENOINPUT,
                           "'%s' is a directory without recommendation.json "
                           "(not an advise out-dir)",
                           s->given);
    } else {
        snprintf(s->file, sizeof(s->file), "%s", s->given);
    }
    if ((rc = pt_json_load(s->file, &s->doc, err)) < 0)
        return rc;
    if ((rc = rec_result_from_json(&rd, s->doc, NULL, s->file, err)) < 0) {
        char why[sizeof(err->msg)];
        if (rc != PT_EDATA || !err)
            return rc;
        snprintf(why, sizeof(why), "%s", err->msg);
        return err_set(err, PT_EDATA, "not a recommendation document: %s", why);
    }
    rec_doc_release(&rd);
    return 0;
}

/* An item's value for a reader. */
static const char *shown(const struct rec_diff_item *it, const json_t *v,
                         uint64_t page_size, char *buf, size_t len)
{
    double x = json_is_number(v) ? json_number_value(v) : 0;

    if (!v)
        return "-";
    if (json_is_string(v))
        return json_string_value(v);
    if (json_is_boolean(v))
        return json_is_true(v) ? "yes" : "no";
    if (!json_is_number(v)) {
        char *t = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY);
        snprintf(buf, len, "%s", t ? t : "?");
        free(t);
        return buf;
    }
    switch (it->unit) {
    case REC_DIFF_PAGE:
        return pt_fig_page((uint64_t)x, buf, len);
    case REC_DIFF_POOL:
        return page_size ? pt_fig_pool((uint64_t)x, page_size, buf, len)
                         : pt_fig_count((uint64_t)x, buf, len);
    case REC_DIFF_BYTES:
        return pt_size_format((uint64_t)x, buf, len);
    case REC_DIFF_PCT:
        return pt_fig_change(x, buf, len);
    default:
        snprintf(buf, len, "%.6g", x);
        return buf;
    }
}

/* An item's value for the CSV: the JSON's, numbers in the CSV form. */
static const char *raw(const json_t *v, char *buf, size_t len)
{
    if (!v)
        return "";
    if (json_is_string(v))
        return json_string_value(v);
    if (json_is_boolean(v))
        return json_is_true(v) ? "true" : "false";
    if (json_is_integer(v)) {
        snprintf(buf, len, "%lld", (long long)json_integer_value(v));
        return buf;
    }
    if (json_is_real(v))
        return pt_csv_num(json_real_value(v), buf, len);
    return "";
}

static int write_table(const struct diff_args *a, const struct rec_diff *d,
                       const struct side *sa, const struct side *sb,
                       enum out_format fmt, FILE *fp, struct pt_err *err)
{
    static const char *const hdr[] = {"item|label",     "A|a",       "B|b",
                                      "change|changed", "kind|kind", "key|key"};
    struct out_table t;
    char ba[400], bb[400];
    size_t n_shown = 0;
    int rc;

    /* the table shows item, A, B, change; the CSV adds kind and key */
    if (out_table_init(&t, fmt == OUT_CSV ? 6 : 4, hdr) < 0)
        return err_set(err, PT_EINTERNAL, "out of memory");
    out_table_set_title(&t, "A: %s\nB: %s\n%s", sa->file, sb->file,
                        d->advice_changed ? "the advice changed"
                                          : "the advice did not change");
    for (size_t i = 0; i < d->n_items; i++) {
        const struct rec_diff_item *it = &d->items[i];
        if (fmt != OUT_CSV && !it->changed && !a->all)
            continue;
        if (out_table_add_row(&t) < 0) {
            out_table_release(&t);
            return err_set(err, PT_EINTERNAL, "out of memory");
        }
        n_shown++;
        out_table_setf(&t, 0, "%s", it->label);
        out_table_setf(&t, 1, "%s", shown(it, it->a, d->a_page_size, ba, 400));
        out_table_setf(&t, 2, "%s", shown(it, it->b, d->b_page_size, bb, 400));
        out_table_setf(&t, 3, "%s",
                       !it->changed                  ? "same"
                       : it->kind == REC_DIFF_ADVICE ? "CHANGED"
                                                     : "differs");
        if (fmt == OUT_CSV) {
            out_table_set_raw(&t, 1, "%s", raw(it->a, ba, sizeof(ba)));
            out_table_set_raw(&t, 2, "%s", raw(it->b, bb, sizeof(bb)));
            out_table_set_raw(&t, 3, "%s", it->changed ? "true" : "false");
            out_table_setf(&t, 4, "%s", rec_diff_kind_name(it->kind));
            out_table_setf(&t, 5, "%s", it->key);
        }
    }
    if (fmt != OUT_CSV && n_shown == 0) {
        /* nothing differs at all: say so in the table */
        out_table_add_row(&t);
        out_table_setf(&t, 0, "%s", "(every item)");
        out_table_setf(&t, 1, "%s", "");
        out_table_setf(&t, 2, "%s", "");
        out_table_setf(&t, 3, "%s", "same");
    }
    rc = out_table_write(&t, fmt, fp, err);
    out_table_release(&t);
    return rc;
}

/* The options, then exactly two operands (GNU getopt has moved them after
   the options). 0, CLI_HELP_SHOWN or a PT_* status after one line. */
static int parse(struct cli_parser *p, struct cli_common *c,
                 struct diff_args *a, struct side *sa, struct side *sb,
                 int argc, char **argv)
{
    const char *arg;
    int id, rc;

    memset(a, 0, sizeof(*a));
    cli_common_init(c);
    if ((rc = cli_parse_spec(p, &cli_spec_diff, a, argc, argv)) != 0)
        return rc;
    while ((id = cli_next_opt(p, &arg)) != -1) {
        if (id == -2)
            return PT_EUSAGE;
        if (id == CLI_OPT_STORED)
            continue;
        rc = cli_common_opt(p, c, id, arg);
        if (rc == CLI_HELP_SHOWN)
            return rc;
        if (rc != 1)
            return rc < 0 ? rc : PT_EUSAGE;
    }
    if (argc - optind != 2) {
        cli_usage_error("diff",
                        argc - optind < 2
                            ? "two recommendations to compare are needed: "
                              "pagetune diff A B"
                            : "unexpected argument '%s': pagetune diff A B",
                        argc - optind > 2 ? argv[optind + 2] : "");
        return PT_EUSAGE;
    }
    sa->given = argv[optind];
    sb->given = argv[optind + 1];
    if (strcmp(c->output, "-") != 0 && (strcmp(c->output, sa->given) == 0 ||
                                        strcmp(c->output, sb->given) == 0)) {
        cli_usage_error("diff", "-o '%s' names an input", c->output);
        return PT_EUSAGE;
    }
    return 0;
}

int cmd_diff(int argc, char **argv)
{
    struct cli_parser p;
    struct cli_common c;
    struct diff_args a;
    struct side sa = {0}, sb = {0};
    struct rec_diff d = {0};
    struct pt_afile af = {0};
    struct pt_err err;
    json_t *doc = NULL;
    int rc, changed;

    if ((rc = parse(&p, &c, &a, &sa, &sb, argc, argv)) != 0)
        return cli_parse_exit(rc);
    err_clear(&err);
    if ((rc = pt_output_check(c.output, c.force, &err)) < 0 ||
        (rc = side_load(&sa, &err)) < 0 || (rc = side_load(&sb, &err)) < 0 ||
        (rc = rec_diff_compute(&d, sa.doc, sb.doc, &err)) < 0 ||
        (rc = cli_output_open(&c, &af, &err)) < 0)
        goto out;
    if (c.format == OUT_JSON) {
        doc = rec_diff_to_json(&d, sa.file, sb.file);
        rc = doc ? out_json_write(doc, af.fp, &err)
                 : err_set(&err, PT_EINTERNAL, "out of memory");
    } else {
        rc = write_table(&a, &d, &sa, &sb, c.format, af.fp, &err);
    }
    if (rc < 0)
        pt_afile_abort(&af);
    else
        rc = pt_afile_commit(&af, &err);
out:
    changed = d.advice_changed;
    json_decref(doc);
    json_decref(sa.doc);
    json_decref(sb.doc);
    rec_diff_release(&d);
    if (rc < 0)
        return cli_fail("diff", &err);
    return cli_exit_code(changed ? PT_ECHECK : 0);
}
