/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_cli.c — unit tests for cli/ pieces that do not need the binary: the
 * output writers (table, csv, json), the exit-code table, the check that
 * two outputs name different files, and the option tables:
 * every command's table checked for sanity, each option type parsed
 * (ranges and choices included), --help wrapped at the width.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"

/* Render into a memory buffer with open_memstream. */
static char *capture_table(const struct out_table *t, enum out_format f)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&buf, &len);
    struct pt_err err;

    assert_non_null(fp);
    assert_int_equal(out_table_write(t, f, fp, &err), 0);
    fclose(fp);
    return buf;
}

static void test_writers(void **state)
{
    static const char *const hdr[] = {"name", ">pages"};
    struct out_table t;
    char *s;
    (void)state;

    assert_int_equal(out_table_init(&t, 2, hdr), 0);
    out_table_add_row(&t);
    out_table_setf(&t, 0, "%s", "BP8K");
    out_table_setf(&t, 1, "%d", 1000);
    out_table_add_row(&t);
    out_table_setf(&t, 0, "%s", "has,comma \"q\"");
    out_table_setf(&t, 1, "%d", 7);

    s = capture_table(&t, OUT_TABLE);
    assert_non_null(strstr(s, "name"));
    assert_non_null(strstr(s, "pages"));
    /* right-aligned numbers: 7 is padded to the width of 1000 */
    assert_non_null(strstr(s, "     7\n"));
    free(s);

    s = capture_table(&t, OUT_CSV);
    assert_string_equal(s,
                        "name,pages\nBP8K,1000\n\"has,comma \"\"q\"\"\",7\n");
    free(s);

    s = capture_table(&t, OUT_JSON);
    assert_non_null(strstr(s, "\"schema_version\": 1"));
    assert_non_null(strstr(s, "\"pages\": \"1000\""));
    free(s);
    out_table_release(&t);
}

static void test_exit_codes(void **state)
{
    (void)state;
    assert_int_equal(cli_exit_code(PT_OK), 0);
    assert_int_equal(cli_exit_code(PT_ECHECK), 1);
    assert_int_equal(cli_exit_code(PT_EUSAGE), 64);
    assert_int_equal(cli_exit_code(PT_EDATA), 65);
    assert_int_equal(cli_exit_code(PT_ENOINPUT), 66);
    assert_int_equal(cli_exit_code(PT_EUNAVAIL), 69);
    assert_int_equal(cli_exit_code(PT_EINTERNAL), 70);
    assert_int_equal(cli_exit_code(PT_ECANTCREAT), 73);
    assert_int_equal(cli_exit_code(PT_EIO), 74);
    assert_int_equal(cli_exit_code(PT_EPERM), 77);
    assert_int_equal(cli_exit_code(PT_EINTR), 130);
    assert_int_equal(cli_exit_code(-12345), 70);
}

/* Every command's table: unique names, sane ranges, enums with choices. */
static void test_option_tables(void **state)
{
    /* a short option means the same long option in every command */
    const char *short_long[128] = {0};
    size_t n_specs = 0;
    (void)state;

    for (const struct cli_command *c = cli_commands; c->name; c++) {
        const struct cli_spec *sp = c->spec;
        assert_non_null(sp); /* every command has a declarative table */
        n_specs++;
        assert_string_equal(sp->name, c->name);
        assert_null(strpbrk(c->summary, "\t\n")); /* as an option's help */
        assert_non_null(sp->usage);
        assert_non_null(sp->usage[0]);
        /* 2 or 3 examples: pairs of (what it does, command line) */
        {
            size_t n = 0;
            while (sp->examples && sp->examples[n])
                n++;
            assert_true(n % 2 == 0 && n / 2 >= 2 && n / 2 <= 3);
            for (size_t i = 1; i < n; i += 2) {
                char prefix[64];
                snprintf(prefix, sizeof(prefix), "pagetune %s ", c->name);
                assert_true(strncmp(sp->examples[i], prefix, strlen(prefix)) ==
                            0);
            }
        }
        for (const struct cli_option *o = sp->opts; o->name; o++) {
            assert_non_null(o->help);
            assert_null(strstr(o->help, "(default")); /* .def says it */
            /* one line, no tab: `__complete -d` prints "--name<TAB>help" */
            assert_null(strpbrk(o->help, "\t\n"));
            /* listed under a heading of --help, not as "other" */
            if (o->group <= CLI_G_NONE || o->group >= CLI_G_COUNT)
                fail_msg("%s --%s has no .group", c->name, o->name);
            for (const struct cli_option *q = o + 1; q->name; q++) {
                assert_string_not_equal(o->name, q->name);
                if (o->short_name)
                    assert_int_not_equal(o->short_name, q->short_name);
            }
            if (o->short_name) {
                const char **l = &short_long[o->short_name & 127];
                if (*l && strcmp(*l, o->name) != 0)
                    fail_msg("-%c is --%s in one command and --%s in %s",
                             o->short_name, *l, o->name, c->name);
                *l = o->name;
            }
            switch (o->type) {
            case CLI_T_ENUM:
                assert_non_null(o->choices);
                assert_non_null(o->choices[0]);
                assert_non_null(o->choices[1]);
                break;
            case CLI_T_UINT:
            case CLI_T_SIZE:
                assert_true(o->min <= o->max);
                assert_true(o->max > 0);
                break;
            case CLI_T_SIZE_LIST:
                assert_true(o->min <= o->max && o->max > 0);
                assert_true(o->max_items > 0);
                assert_int_not_equal(o->off, o->n_off);
                break;
            case CLI_T_DOUBLE:
                assert_true(o->dmin < o->dmax);
                break;
            case CLI_T_CUSTOM:
                assert_true(o->has_arg == no_argument || o->id != 0);
                assert_true(o->id >= CLI_OPT_HELP);
                break;
            default:
                break;
            }
            /* --help states a default, "required", or it is an action */
            if (o->type != CLI_T_CUSTOM || o->has_arg == required_argument)
                assert_true(o->def || o->required);
            /* every file, directory or profile says whether the command
               reads or writes it, for cli_paths_check (issue 21) */
            if (o->type == CLI_T_PATH || o->type == CLI_T_DIR ||
                (o->arg_name && strstr(o->arg_name, "FILE")) ||
                (o->arg_name && strstr(o->arg_name, "DIR")) ||
                o->complete == CLI_C_WORKLOAD ||
                o->complete == CLI_C_CALIBRATION ||
                o->complete == CLI_C_APPSERVER || o->complete == CLI_C_DEVICE)
                if (o->io == CLI_IO_NONE)
                    fail_msg("%s --%s: a path without an io role", c->name,
                             o->name);
            if (o->io == CLI_IO_PROFILE)
                assert_true(o->complete >= CLI_C_ENGINE &&
                            o->complete != CLI_C_DSN &&
                            o->complete != CLI_C_DIALECT &&
                            o->complete != CLI_C_POLICY);
            if (o->files)
                assert_int_equal(o->io, CLI_IO_OUTDIR);
            if (o->io == CLI_IO_SPEC)
                assert_non_null(sp->paths);
        }
    }
    assert_int_equal(n_specs, 11);
}

struct t_args {
    int flag, given, color;
    const char *path;
    uint64_t n, bytes;
    double ratio;
    uint64_t sizes[4];
    size_t n_sizes;
};

static const char *const colors[] = {"red", "green", "blue", NULL};

#define T struct t_args
static const struct cli_option t_opts[] = {
    {.name = "flag",
     .short_name = 'x',
     .type = CLI_T_FLAG,
     CLI_AT(T, flag),
     .help = "a flag",
     .def = "off"},
    {.name = "path",
     .type = CLI_T_PATH,
     CLI_AT(T, path),
     .help = "a file",
     .def = "none"},
    {.name = "n",
     .type = CLI_T_UINT,
     CLI_AT(T, n),
     CLI_GIVEN(T, given),
     .min = 1,
     .max = 86400,
     .help = "a count",
     .def = "1"},
    {.name = "bytes",
     .type = CLI_T_SIZE,
     CLI_AT(T, bytes),
     .min = 1024,
     .max = UINT64_MAX,
     .help = "a size",
     .def = "2M"},
    {.name = "ratio",
     .type = CLI_T_DOUBLE,
     CLI_AT(T, ratio),
     .dmin = 0,
     .dmin_open = 1,
     .dmax = 1,
     .help = "a ratio",
     .def = "1"},
    {.name = "color",
     .type = CLI_T_ENUM,
     CLI_AT(T, color),
     .choices = colors,
     .help = "a colour",
     .def = "red"},
    {.name = "sizes",
     .type = CLI_T_SIZE_LIST,
     CLI_LIST(T, sizes, n_sizes),
     .min = 512,
     .max = 65536,
     .help = "sizes",
     .def = "none"},
    CLI_OPT_HELP_ENTRY,
    CLI_OPT_END,
};
#undef T

static const struct cli_option *t_find(const char *name)
{
    for (const struct cli_option *o = t_opts; o->name; o++)
        if (strcmp(o->name, name) == 0)
            return o;
    return NULL;
}

/* Store one value; returns the status, the message in err. */
static int t_store(struct t_args *a, const char *name, const char *arg,
                   struct pt_err *err)
{
    err_clear(err);
    return cli_opt_store(t_find(name), a, arg, err);
}

static void test_option_types(void **state)
{
    struct t_args a;
    struct pt_err err;
    (void)state;

    memset(&a, 0, sizeof(a));
    assert_int_equal(t_store(&a, "flag", NULL, &err), 0);
    assert_int_equal(a.flag, 1);
    assert_int_equal(t_store(&a, "path", "x.json", &err), 0);
    assert_string_equal(a.path, "x.json");

    assert_int_equal(t_store(&a, "n", "86400", &err), 0);
    assert_int_equal(a.n, 86400);
    assert_int_equal(a.given, 1);
    assert_int_equal(t_store(&a, "n", "0", &err), PT_EUSAGE);
    assert_string_equal(err.msg, "--n: 0 is out of range 1..86400");
    assert_int_equal(t_store(&a, "n", "86401", &err), PT_EUSAGE);
    assert_int_equal(t_store(&a, "n", "-3", &err), PT_EUSAGE);
    assert_int_equal(t_store(&a, "n", "4K", &err), PT_EUSAGE);
    assert_int_equal(a.n, 86400); /* untouched by a failure */

    assert_int_equal(t_store(&a, "bytes", "64M", &err), 0);
    assert_int_equal(a.bytes, 64u << 20);
    assert_int_equal(t_store(&a, "bytes", "512", &err), PT_EUSAGE);
    assert_string_equal(err.msg, "--bytes: 512 is out of range (at least 1K)");
    assert_int_equal(t_store(&a, "bytes", "lots", &err), PT_EUSAGE);
    assert_non_null(strstr(err.msg, "'lots'"));

    assert_int_equal(t_store(&a, "ratio", "0.5", &err), 0);
    assert_true(a.ratio == 0.5);
    assert_int_equal(t_store(&a, "ratio", "1", &err), 0);
    assert_int_equal(t_store(&a, "ratio", "0", &err), PT_EUSAGE);
    assert_string_equal(err.msg, "--ratio: 0 is out of range (0, 1]");
    assert_int_equal(t_store(&a, "ratio", "1.5", &err), PT_EUSAGE);
    assert_int_equal(t_store(&a, "ratio", "nan", &err), PT_EUSAGE);

    assert_int_equal(t_store(&a, "color", "blue", &err), 0);
    assert_int_equal(a.color, 2);
    assert_int_equal(t_store(&a, "color", "x", &err), PT_EUSAGE);
    assert_string_equal(err.msg,
                        "--color: 'x' is not one of red, green or blue");

    assert_int_equal(t_store(&a, "sizes", "4K,8K,1K", &err), 0);
    assert_int_equal(a.n_sizes, 3);
    assert_int_equal(a.sizes[0], 4096);
    assert_int_equal(a.sizes[2], 1024);
    assert_int_equal(t_store(&a, "sizes", "4K,128K", &err), PT_EUSAGE);
    assert_string_equal(err.msg, "--sizes: 131072 is out of range 512..64K");
    assert_int_equal(t_store(&a, "sizes", "1K,2K,4K,8K,16K", &err), PT_EUSAGE);
    assert_int_equal(t_store(&a, "sizes", "4K,,8K", &err), PT_EUSAGE);
    assert_int_equal(a.n_sizes, 3); /* untouched by a failure */
}

static const char *const t_usage[] = {"pagetune t [--n N]", NULL};
static const char *const t_examples[] = {"one", "pagetune t --n 5", "two",
                                         "pagetune t --color green", NULL};
static const struct cli_spec t_spec = {
    .name = "t",
    .usage = t_usage,
    .description = "A test command.",
    .examples = t_examples,
    .opts = t_opts,
};

/* cli_next over an argv: typed options land in the args struct. */
static void test_option_parse(void **state)
{
    char *argv[] = {"t",       "-x",    "--n",     "12", "--bytes=8K",
                    "--color", "green", "--sizes", "4K", NULL};
    char *bad[] = {"t", "--n", "0", NULL};
    struct cli_parser p;
    struct cli_common c;
    struct t_args a;
    const char *arg;
    (void)state;

    memset(&a, 0, sizeof(a));
    cli_common_init(&c);
    assert_int_equal(cli_parse_spec(&p, &t_spec, &a, 9, argv), 0);
    assert_int_equal(cli_next(&p, &c, &arg), CLI_NEXT_END);
    assert_int_equal(a.flag, 1);
    assert_int_equal(a.n, 12);
    assert_int_equal(a.bytes, 8192);
    assert_int_equal(a.color, 1);
    assert_int_equal(a.n_sizes, 1);

    memset(&a, 0, sizeof(a));
    assert_int_equal(cli_parse_spec(&p, &t_spec, &a, 3, bad), 0);
    assert_int_equal(cli_next(&p, &c, &arg), CLI_NEXT_USAGE);
    assert_int_equal(cli_parse_exit(PT_EUSAGE), PT_EXIT_USAGE);
    assert_int_equal(cli_parse_exit(CLI_HELP_SHOWN), PT_EXIT_OK);
}

/* COLUMNS first, then the terminal, 80 when not a TTY; never below 40. */
static void test_term_width(void **state)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&buf, &len);
    (void)state;

    assert_non_null(fp);
    setenv("COLUMNS", "100", 1);
    assert_int_equal(cli_term_width(fp), 100);
    setenv("COLUMNS", "20", 1);
    assert_int_equal(cli_term_width(fp), 40);
    setenv("COLUMNS", "wide", 1);
    assert_int_equal(cli_term_width(fp), 80);
    unsetenv("COLUMNS");
    assert_int_equal(cli_term_width(fp), 80);
    fclose(fp);
    free(buf);
}

/* --help lists the options under their headings: the groups in enum
   cli_group's order whatever the table's order, each option in table
   order, an ungrouped one last as "other". */
static void test_help_groups(void **state)
{
    static const struct cli_option opts[] = {
        {.name = "zeta", .help = "z", .group = CLI_G_OUTPUT},
        {.name = "loose", .help = "l"},
        {.name = "alpha", .help = "a", .group = CLI_G_INPUT},
        {.name = "beta", .help = "b", .group = CLI_G_OUTPUT},
        {.name = "gamma", .help = "g", .group = CLI_G_INPUT},
        CLI_OPT_HELP_ENTRY,
        CLI_OPT_END,
    };
    static const char *const usage[] = {"pagetune t [OPTIONS]", NULL};
    static const char want[] = "\ninput options:\n"
                               "      --alpha                 a\n"
                               "      --gamma                 g\n"
                               "\noutput options:\n"
                               "      --zeta                  z\n"
                               "      --beta                  b\n"
                               "\ngeneral options:\n"
                               "  -h, --help                  show this help "
                               "and exit\n"
                               "\nother options:\n"
                               "      --loose                 l\n";
    struct cli_parser p;
    char *buf = NULL, *argv[] = {"t", NULL};
    size_t len = 0;
    FILE *fp = open_memstream(&buf, &len);

    (void)state;
    assert_non_null(fp);
    assert_int_equal(cli_parse_begin(&p, "t", opts, usage, NULL, 1, argv), 0);
    cli_print_help_width(&p, fp, 80);
    fclose(fp);
    if (!strstr(buf, want))
        fail_msg("--help groups:\n%s", buf);
    free(buf);
}

/* --help of every command fits the width and shows its examples. */
static void test_help_width(void **state)
{
    static const int widths[] = {40, 60, 80, 132};
    (void)state;

    for (const struct cli_command *c = cli_commands; c->name; c++) {
        if (!c->spec)
            continue;
        for (size_t w = 0; w < sizeof(widths) / sizeof(widths[0]); w++) {
            struct cli_parser p;
            char *buf = NULL, *line, *save = NULL;
            size_t len = 0;
            FILE *fp = open_memstream(&buf, &len);
            char *argv[] = {(char *)c->name, NULL};

            assert_non_null(fp);
            assert_int_equal(cli_parse_spec(&p, c->spec, NULL, 1, argv), 0);
            cli_print_help_width(&p, fp, widths[w]);
            fclose(fp);
            assert_non_null(strstr(buf, "examples:\n"));
            for (const struct cli_option *o = c->spec->opts; o->name; o++) {
                char want[64];
                snprintf(want, sizeof(want), "--%s", o->name);
                assert_non_null(strstr(buf, want));
            }
            for (line = strtok_r(buf, "\n", &save); line;
                 line = strtok_r(NULL, "\n", &save)) {
                if ((int)strlen(line) > widths[w])
                    fail_msg("%s --help at %d: '%s'", c->name, widths[w], line);
                assert_true(line[strlen(line) - 1] != ' ');
            }
            free(buf);
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_writers),
        cmocka_unit_test(test_exit_codes),
        cmocka_unit_test(test_option_tables),
        cmocka_unit_test(test_option_types),
        cmocka_unit_test(test_option_parse),
        cmocka_unit_test(test_term_width),
        cmocka_unit_test(test_help_width),
        cmocka_unit_test(test_help_groups),
    };
    return cmocka_run_group_tests_name("cli", tests, NULL, NULL);
}
