/* SPDX-License-Identifier: Apache-2.0 */
/*
 * opts.c — option parsing shared by every command: one declarative table
 * per command (cli.h, struct cli_option) drives getopt_long, the typed
 * parsing with its range errors, and --help wrapped at the terminal width;
 * completion reads the same tables (cli/commands.c, `pagetune __complete`).
 * Also messages on stderr, the exit-code table and the progress bar.
 */
#include "cli/cli.h"
#include "collect/collect.h"
#include "sim/sim.h"
#include "store/store.h"

#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

/* The one table from PT_* status to exit code (docs/exit-codes.md). */
static const struct {
    int status;
    int exit_code;
} exit_table[] = {
    {PT_OK, PT_EXIT_OK},
    {PT_ECHECK, PT_EXIT_CHECK},
    {PT_EUSAGE, PT_EXIT_USAGE},
    {PT_EDATA, PT_EXIT_DATA},
    {PT_ENOINPUT, PT_EXIT_NOINPUT},
    {PT_EUNAVAIL, PT_EXIT_UNAVAIL},
    {PT_EINTERNAL, PT_EXIT_SOFTWARE},
    {PT_ECANTCREAT, PT_EXIT_CANTCREAT},
    {PT_EIO, PT_EXIT_IOERR},
    {PT_EPERM, PT_EXIT_NOPERM},
    {PT_EINTR, PT_EXIT_INTR},
};

const char *const cli_format_choices[] = {"table", "json", "csv", NULL};
const char *const cli_db_engines[] = {"auto",  "db2",    "postgresql",
                                      "mysql", "sqlite", NULL};

int cli_exit_code(int status)
{
    for (size_t i = 0; i < sizeof(exit_table) / sizeof(exit_table[0]); i++)
        if (exit_table[i].status == status)
            return exit_table[i].exit_code;
    return PT_EXIT_SOFTWARE;
}

int cli_parse_exit(int status)
{
    return status == CLI_HELP_SHOWN ? PT_EXIT_OK : cli_exit_code(status);
}

/* Control characters from argv or input would break the one-line rule. */
static void one_line(char *s)
{
    for (; *s; s++)
        if ((unsigned char)*s < 0x20 || *s == 0x7f)
            *s = '?';
}

static void vmessage_str(const char *cmd, char *msg)
{
    one_line(msg);
    if (cmd)
        fprintf(stderr, "pagetune %s: %s\n", cmd, msg);
    else
        fprintf(stderr, "pagetune: %s\n", msg);
}

/*
 * poll(2) reports POLLERR on the write end of a pipe whose read end is
 * closed (pipe(7): a write would raise SIGPIPE / fail with EPIPE), and
 * POLLHUP or POLLERR on a socket whose peer has gone.
 */
int cli_stdout_gone(void)
{
    struct stat st;
    struct pollfd pfd = {.fd = STDOUT_FILENO, .events = POLLOUT};

    if (fstat(STDOUT_FILENO, &st) != 0 ||
        !(S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode)))
        return 0;
    if (poll(&pfd, 1, 0) != 1)
        return 0;
    return (pfd.revents & (POLLERR | POLLHUP)) != 0;
}

/* A library's `field` as the option of command cmd that fills it
 * ("page_size" → "--page-size"), or NULL when the command has none. */
const char *cli_field_option(void *ctx, const char *field)
{
    struct cli_field_map *m = ctx;
    const struct cli_command *cmd = m->cmd ? cli_command_find(m->cmd) : NULL;
    char name[62];
    size_t i;

    for (i = 0; field[i] && i + 1 < sizeof(name); i++)
        name[i] = field[i] == '_' ? '-' : field[i];
    name[i] = '\0';
    for (const struct cli_option *o = cmd && cmd->spec ? cmd->spec->opts : NULL;
         o && o->name; o++)
        if (strcmp(o->name, name) == 0) {
            snprintf(m->opt, sizeof(m->opt), "--%s", name);
            return m->opt;
        }
    return NULL;
}

void cli_error(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    char msg[1200];
    struct cli_field_map m = {cmd, ""};

    if (pt_interrupted()) /* main.c prints the one line of an interrupt */
        return;
    va_start(ap, fmt);
    pt_msg_vformat(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    pt_msg_fields(msg, sizeof(msg), cli_field_option, &m);
    /* the reader of stdout left: main.c's finish() ends the run quietly */
    if (strstr(msg, strerror(EPIPE)) && cli_stdout_gone())
        return;
    vmessage_str(cmd, msg);
}

void cli_profile_option(struct pt_err *err, const char *device_opt)
{
    static const char *const what[] = {"no engine profile",
                                       "no device profile"};
    char *at;

    for (size_t i = 0; err->code == PT_EUSAGE && i < 2; i++)
        if ((at = strstr(err->msg, what[i])) != NULL) {
            char head[sizeof(err->msg)];
            snprintf(head, sizeof(head), "%s", at);
            snprintf(at, sizeof(err->msg) - (size_t)(at - err->msg), "%s: %s",
                     i ? device_opt : "--engine", head);
            return;
        }
}

int cli_fail(const char *cmd, const struct pt_err *err)
{
    cli_error(cmd, "%s", err->msg[0] ? err->msg : err_status_name(err->code));
    return cli_exit_code(err->code);
}

int cli_usage_error(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    char msg[1024];
    struct cli_field_map m = {cmd, ""};

    va_start(ap, fmt);
    pt_msg_vformat(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    pt_msg_fields(msg, sizeof(msg), cli_field_option, &m);
    one_line(msg);
    if (cmd)
        fprintf(stderr, "pagetune %s: %s (see 'pagetune %s --help')\n", cmd,
                msg, cmd);
    else
        fprintf(stderr, "pagetune: %s (see 'pagetune --help')\n", msg);
    return PT_EXIT_USAGE;
}

void cli_notice(const char *cmd, const char *text)
{
    int width = out_term_width(stderr), col;

    col = cmd ? fprintf(stderr, "pagetune %s: ", cmd)
              : fprintf(stderr, "pagetune: ");
    pt_text_wrap(stderr, text, col > 0 ? (size_t)col : 0, 2,
                 width > 0 ? (size_t)width : 0);
}

void cli_note(const struct cli_common *c, const char *fmt, ...)
{
    va_list ap;
    char msg[4096];

    if (c && c->quiet)
        return;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    cli_notice(NULL, msg);
}

/* getopt_long's has_arg for an entry: typed options say it by their type. */
static int opt_has_arg(const struct cli_option *o)
{
    if (o->type == CLI_T_CUSTOM)
        return o->has_arg;
    return o->type == CLI_T_FLAG ? no_argument : required_argument;
}

int cli_parse_begin(struct cli_parser *p, const char *cmd,
                    const struct cli_option *opts, const char *const *usage,
                    const char *description, int argc, char **argv)
{
    size_t n = 0, s = 0;

    memset(p, 0, sizeof(*p));
    p->cmd = cmd;
    p->opts = opts;
    p->usage = usage;
    p->description = description;
    p->argc = argc;
    p->argv = argv;
    p->shortopts[s++] = ':'; /* report missing arguments as ':' */
    for (const struct cli_option *o = opts; o->name; o++) {
        if (n + 1 >= sizeof(p->longopts) / sizeof(p->longopts[0]) ||
            s + 3 >= sizeof(p->shortopts))
            return PT_EINTERNAL;
        p->longopts[n].name = o->name;
        p->longopts[n].has_arg = opt_has_arg(o);
        p->longopts[n].flag = NULL;
        /* typed options come back as their index in the table */
        p->longopts[n].val =
            o->type == CLI_T_CUSTOM ? o->id : -(int)(o - opts) - 100;
        n++;
        if (o->short_name) {
            p->shortopts[s++] = (char)o->short_name;
            if (opt_has_arg(o) == required_argument)
                p->shortopts[s++] = ':';
        }
    }
    memset(&p->longopts[n], 0, sizeof(p->longopts[n]));
    p->shortopts[s] = '\0';
    optind = 1;
    opterr = 0;
    return 0;
}

int cli_parse_spec(struct cli_parser *p, const struct cli_spec *spec,
                   void *base, int argc, char **argv)
{
    int rc = cli_parse_begin(p, spec->name, spec->opts, spec->usage,
                             spec->description, argc, argv);

    p->examples = spec->examples;
    p->base = base;
    p->spec = spec;
    return rc;
}

static const struct cli_option *find_short(const struct cli_parser *p, int c)
{
    for (const struct cli_option *o = p->opts; o->name; o++)
        if (o->short_name == c)
            return o;
    return NULL;
}

/* A value that does not parse is a usage error: keep the message. */
static int as_usage(struct pt_err *err)
{
    if (err)
        err->code = PT_EUSAGE;
    return PT_EUSAGE;
}

/* "db2, postgresql, mysql or sqlite" into buf. */
static const char *choice_list(const char *const *choices, char *buf,
                               size_t len)
{
    size_t used = 0;

    buf[0] = '\0';
    for (size_t i = 0; choices && choices[i]; i++) {
        const char *sep = i == 0 ? "" : choices[i + 1] ? ", " : " or ";
        int w = snprintf(buf + used, len - used, "%s%s", sep, choices[i]);
        if (w < 0 || (size_t)w >= len - used)
            break;
        used += (size_t)w;
    }
    return buf;
}

/* A double as the user would write it: 0.1, 86400, 1e-06. */
static void fmt_double(double v, char *buf, size_t len)
{
    snprintf(buf, len, "%.10g", v);
}

/* A size bound: "4K" when exact, else the plain number. */
static void bound_format(uint64_t v, char *buf, size_t len)
{
    if (v % 1024 == 0)
        pt_size_format(v, buf, len);
    else
        snprintf(buf, len, "%llu", (unsigned long long)v);
}

static int u64_in_range(const struct cli_option *o, const char *arg, uint64_t v,
                        struct pt_err *err)
{
    char lo[32], hi[32];

    if (v >= o->min && v <= o->max)
        return 0;
    if (o->type == CLI_T_UINT) {
        snprintf(lo, sizeof(lo), "%llu", (unsigned long long)o->min);
        snprintf(hi, sizeof(hi), "%llu", (unsigned long long)o->max);
    } else {
        bound_format(o->min, lo, sizeof(lo));
        bound_format(o->max, hi, sizeof(hi));
    }
    if (o->max == UINT64_MAX)
        return err_set(err, PT_EUSAGE, "--%s: %s is out of range (at least %s)",
                       o->name, arg, lo);
    return err_set(err, PT_EUSAGE, "--%s: %s is out of range %s..%s", o->name,
                   arg, lo, hi);
}

/* "4K,8K" into the array at off, the count at n_off; each in min..max. */
static int store_size_list(const struct cli_option *o, void *base,
                           const char *arg, struct pt_err *err)
{
    uint64_t vals[64];
    size_t max = o->max_items < 64 ? o->max_items : 64, n;
    char what[80], item[32];
    int rc;

    snprintf(what, sizeof(what), "--%s", o->name);
    if ((rc = pt_size_list_parse(arg, vals, max, what, err)) < 0)
        return as_usage(err);
    n = (size_t)rc;
    for (size_t i = 0; i < n; i++) {
        snprintf(item, sizeof(item), "%llu", (unsigned long long)vals[i]);
        if ((rc = u64_in_range(o, item, vals[i], err)) < 0)
            return rc;
    }
    memcpy((char *)base + o->off, vals, n * sizeof(vals[0]));
    memcpy((char *)base + o->n_off, &n, sizeof(n));
    return 0;
}

static int store_double(const struct cli_option *o, void *base, const char *arg,
                        struct pt_err *err)
{
    char what[80], lo[32], hi[32];
    double v;

    snprintf(what, sizeof(what), "--%s", o->name);
    if (pt_double_parse(arg, &v, what, err) < 0)
        return as_usage(err);
    if (v < o->dmin || v > o->dmax || (o->dmin_open && v == o->dmin)) {
        fmt_double(o->dmin, lo, sizeof(lo));
        fmt_double(o->dmax, hi, sizeof(hi));
        if (o->dmin_open)
            return err_set(err, PT_EUSAGE, "--%s: %s is out of range (%s, %s]",
                           o->name, arg, lo, hi);
        return err_set(err, PT_EUSAGE, "--%s: %s is out of range %s..%s",
                       o->name, arg, lo, hi);
    }
    memcpy((char *)base + o->off, &v, sizeof(v));
    return 0;
}

int cli_opt_store(const struct cli_option *o, void *base, const char *arg,
                  struct pt_err *err)
{
    char *dst = (char *)base + o->off, what[80], list[256];
    uint64_t u;
    int rc, one = 1;

    snprintf(what, sizeof(what), "--%s", o->name);
    switch (o->type) {
    case CLI_T_FLAG:
        memcpy(dst, &one, sizeof(one));
        break;
    case CLI_T_STRING:
    case CLI_T_PATH:
    case CLI_T_DIR:
        memcpy(dst, &arg, sizeof(arg));
        break;
    case CLI_T_UINT:
    case CLI_T_SIZE:
        rc = o->type == CLI_T_UINT ? pt_u64_parse(arg, &u, what, err)
                                   : pt_size_parse(arg, &u, what, err);
        if (rc < 0)
            return as_usage(err);
        if ((rc = u64_in_range(o, arg, u, err)) < 0)
            return rc;
        memcpy(dst, &u, sizeof(u));
        break;
    case CLI_T_DOUBLE:
        if ((rc = store_double(o, base, arg, err)) < 0)
            return rc;
        break;
    case CLI_T_ENUM:
        for (int i = 0; o->choices && o->choices[i]; i++)
            if (strcmp(arg, o->choices[i]) == 0) {
                memcpy(dst, &i, sizeof(i));
                goto given;
            }
        return err_set(err, PT_EUSAGE, "--%s: '%s' is not one of %s", o->name,
                       arg, choice_list(o->choices, list, sizeof(list)));
    case CLI_T_SIZE_LIST:
        if ((rc = store_size_list(o, base, arg, err)) < 0)
            return rc;
        break;
    default:
        return err_set(err, PT_EINTERNAL, "--%s: not a typed option", o->name);
    }
given:
    if (o->given_off)
        memcpy((char *)base + o->given_off - 1, &one, sizeof(one));
    return 0;
}

/* The entry for option `name` in the table, or NULL. */
static const struct cli_option *find_long(const struct cli_parser *p,
                                          const char *name)
{
    for (const struct cli_option *o = p->opts; o->name; o++)
        if (strcmp(o->name, name) == 0)
            return o;
    return NULL;
}

/*
 * An option sets one thing once: a value option given again, or two
 * spellings of one setting (--json and --format), is a usage error naming
 * both; list options (.repeat) add a value each time. A flag given twice
 * says the same thing twice and passes.
 */
static int check_given(struct cli_parser *p, const struct cli_option *o,
                       const char *arg)
{
    const struct cli_option *canon = o, *first;
    const char *fa;
    size_t i;

    if (o->same_as && (first = find_long(p, o->same_as)) != NULL)
        canon = first;
    i = (size_t)(canon - p->opts);
    if (i >= sizeof(p->given) || o->repeat)
        return 0;
    if (!p->given[i]) {
        p->given[i] = (unsigned char)(o - p->opts + 1);
        p->given_arg[i] = arg;
        return 0;
    }
    first = &p->opts[p->given[i] - 1];
    fa = p->given_arg[i];
    if (first == o && !arg)
        return 0; /* a flag, twice */
    if (first == o)
        cli_usage_error(p->cmd,
                        "--%s given twice, '%s' and '%s': it takes one value "
                        "(only list options repeat)",
                        o->name, fa, arg);
    else
        cli_usage_error(
            p->cmd, "--%s%s%s%s conflicts with --%s%s%s%s: give one",
            first->name, fa ? " '" : "", fa ? fa : "", fa ? "'" : "", o->name,
            arg ? " '" : "", arg ? arg : "", arg ? "'" : "");
    return -1;
}

/*
 * Keep the value of a CLI_T_CUSTOM option with a path role (-o,
 * --password-file, calibrate's repeated --simulation) for cli_paths_check:
 * the command stores it where the table cannot say. 0, or -2 after a usage
 * line when there are too many.
 */
static int custom_path_note(struct cli_parser *p, int id, const char *arg)
{
    for (const struct cli_option *o = p->opts; o->name; o++) {
        if (o->type != CLI_T_CUSTOM || o->id != id || o->io == CLI_IO_NONE)
            continue;
        if (p->n_paths == sizeof(p->paths) / sizeof(p->paths[0])) {
            cli_usage_error(p->cmd, "too many file options");
            return -2;
        }
        p->paths[p->n_paths].o = o;
        p->paths[p->n_paths++].arg = arg;
        return 0;
    }
    return 0;
}

/* An unknown --option, with the closest one the command has ("did you
   mean --memory?"), or an ambiguous abbreviation with the options it
   begins; a value after '=' is not compared. */
static void unknown_long(const struct cli_parser *p, const char *given)
{
    char name[80], hint[400];
    const char *eq = strchr(given, '=');
    size_t len = eq ? (size_t)(eq - given) : strlen(given);
    struct pt_suggest sg;

    snprintf(name, sizeof(name), "%.*s", (int)len, given);
    pt_suggest_init(&sg, name + strspn(name, "-"));
    for (size_t i = 0; p->longopts[i].name; i++)
        pt_suggest_add(&sg, p->longopts[i].name);
    pt_suggest_hint(&sg, "--", "", hint, sizeof(hint));
    cli_usage_error(p->cmd, "%s option '%s'%s%s",
                    strncmp(hint, "it abbreviates", 14) == 0 ? "ambiguous"
                                                             : "unknown",
                    name, *hint ? "; " : "", hint);
}

int cli_next_opt(struct cli_parser *p, const char **arg)
{
    const struct cli_option *o = NULL;
    struct pt_err err;
    int c, idx = -1, rc;

    *arg = NULL;
    c = getopt_long(p->argc, p->argv, p->shortopts, p->longopts, &idx);
    if (c == -1)
        return -1;
    if (c == '?') {
        if (optopt && optopt < 256 && !find_short(p, optopt))
            cli_usage_error(p->cmd, "unknown option '-%c'", optopt);
        else if (optopt == 0)
            unknown_long(p, p->argv[optind - 1]);
        else
            cli_usage_error(p->cmd, "option '%s' takes no value",
                            p->argv[optind - 1]);
        return -2;
    }
    if (c == ':') {
        cli_usage_error(p->cmd, "option '%s' needs a value",
                        p->argv[optind - 1]);
        return -2;
    }
    if (c > 0 && c < 256) {
        o = find_short(p, c);
        if (!o)
            return -2;
        c = o->type == CLI_T_CUSTOM ? o->id : -(int)(o - p->opts) - 100;
    } else if (idx >= 0) {
        o = &p->opts[idx];
    } else {
        o = c <= -100 ? &p->opts[-c - 100] : NULL;
    }
    if (o && check_given(p, o, optarg) < 0)
        return -2;
    *arg = optarg;
    if (c > -100) {
        if ((rc = custom_path_note(p, c, optarg)) < 0)
            return rc;
        return c;
    }
    o = &p->opts[-c - 100];
    err_clear(&err);
    if (!p->base) {
        cli_usage_error(p->cmd, "--%s: no place to store the value", o->name);
        return -2;
    }
    if (cli_opt_store(o, p->base, optarg, &err) < 0) {
        cli_usage_error(p->cmd, "%s", err.msg);
        return -2;
    }
    return CLI_OPT_STORED;
}

/* ---- --help ------------------------------------------------------------- */

int cli_term_width(FILE *fp)
{
    int w = out_term_width(fp);

    w = w > 0 ? w : PT_TEXT_PIPE_WIDTH;
    return w < 40 ? 40 : w;
}

/* --help's text wrapped at width (core/text.c); see pt_text_wrap. */
static void wrap(FILE *fp, const char *text, int col, int indent, int width)
{
    pt_text_wrap(fp, text, (size_t)col, (size_t)indent, (size_t)width);
}

/* "a|b|c" for an enum without an arg_name. */
static const char *arg_label(const struct cli_option *o, char *buf, size_t len)
{
    size_t used = 0;

    if (o->arg_name || o->type != CLI_T_ENUM)
        return o->arg_name;
    buf[0] = '\0';
    for (size_t i = 0; o->choices && o->choices[i]; i++) {
        int w = snprintf(buf + used, len - used, "%s%s", i ? "|" : "",
                         o->choices[i]);
        if (w < 0 || (size_t)w >= len - used)
            break;
        used += (size_t)w;
    }
    return buf;
}

static void print_option(const struct cli_option *o, FILE *fp, int width)
{
    char left[160], label[128], text[1024];
    const char *a = arg_label(o, label, sizeof(label));
    int indent = width < 60 ? 8 : 30;

    if (o->short_name)
        snprintf(left, sizeof(left), "-%c, --%s%s%s", o->short_name, o->name,
                 a ? " " : "", a ? a : "");
    else
        snprintf(left, sizeof(left), "    --%s%s%s", o->name, a ? " " : "",
                 a ? a : "");
    if (o->required)
        snprintf(text, sizeof(text), "%s (required%s)", o->help,
                 o->repeat ? "; repeatable" : "");
    else if (o->def)
        snprintf(text, sizeof(text), "%s (%sdefault: %s)", o->help,
                 o->repeat ? "repeatable; " : "", o->def);
    else
        snprintf(text, sizeof(text), "%s%s", o->help,
                 o->repeat ? " (repeatable)" : "");
    if (indent == 30 && strlen(left) <= 26) {
        fprintf(fp, "  %-26s  ", left);
    } else {
        /* wrap() drops leading blanks: print the short-option column */
        int lead = o->short_name ? 0 : 4;
        fprintf(fp, "  %*s", lead, "");
        wrap(fp, left + lead, 2 + lead, 10, width);
        fprintf(fp, "%*s", indent, "");
    }
    wrap(fp, text, indent, indent, width);
}

/* The headings of enum cli_group, "<name> options:" in --help. */
static const char *const group_names[CLI_G_COUNT] = {
    [CLI_G_NONE] = "other",
    [CLI_G_CONNECTION] = "connection",
    [CLI_G_INPUT] = "input",
    [CLI_G_SAMPLING] = "sampling",
    [CLI_G_WORKLOAD] = "workload",
    [CLI_G_APP_CACHE] = "application cache",
    [CLI_G_BUFFER_POOL] = "buffer pool",
    [CLI_G_STORE] = "store",
    [CLI_G_TABLESPACE] = "table space",
    [CLI_G_MODEL] = "model",
    [CLI_G_SIMULATION] = "simulation",
    [CLI_G_FIT] = "fit",
    [CLI_G_MEASUREMENT] = "measurement",
    [CLI_G_VALIDATION] = "validation",
    [CLI_G_OUTPUT] = "output",
    [CLI_G_SAFETY] = "safety",
    [CLI_G_GENERAL] = "general",
};

/*
 * The options under their headings: the groups in enum cli_group's order
 * (an ungrouped option last, as "other"), each option in table order.
 */
static void print_groups(const struct cli_option *opts, FILE *fp, int width)
{
    for (int i = 1; i <= CLI_G_COUNT; i++) {
        enum cli_group g = (enum cli_group)(i % CLI_G_COUNT);
        int heading = 0;

        for (const struct cli_option *o = opts; o->name; o++) {
            if (o->group != g)
                continue;
            if (!heading++)
                fprintf(fp, "\n%s options:\n", group_names[g]);
            print_option(o, fp, width);
        }
    }
}

void cli_print_help_width(const struct cli_parser *p, FILE *fp, int width)
{
    const char *prefix = "usage:";
    char see[128];

    for (const char *const *u = p->usage; u && *u; u++) {
        fprintf(fp, "%s ", prefix);
        wrap(fp, *u, 7, 10, width);
        prefix = "   or:";
    }
    if (p->description) {
        fputc('\n', fp);
        wrap(fp, p->description, 0, 0, width);
    }
    print_groups(p->opts, fp, width);
    if (p->examples && p->examples[0]) {
        fprintf(fp, "\nexamples:\n");
        for (const char *const *e = p->examples; e[0] && e[1]; e += 2) {
            fputs("  # ", fp);
            wrap(fp, e[0], 4, 4, width);
            fputs("  ", fp);
            wrap(fp, e[1], 2, 6, width);
        }
    }
    snprintf(see, sizeof(see),
             "See pagetune-%s(1). Exit status: see pagetune(1).", p->cmd);
    fputc('\n', fp);
    wrap(fp, see, 0, 0, width);
}

void cli_print_help(const struct cli_parser *p, FILE *fp)
{
    cli_print_help_width(p, fp, cli_term_width(fp));
}

void cli_common_init(struct cli_common *c)
{
    memset(c, 0, sizeof(*c));
    c->output = "-";
    c->format = OUT_TABLE;
    c->progress = isatty(STDERR_FILENO);
}

int cli_common_opt(struct cli_parser *p, struct cli_common *c, int id,
                   const char *arg)
{
    switch (id) {
    case CLI_OPT_HELP:
        cli_print_help(p, stdout);
        fflush(stdout);
        return CLI_HELP_SHOWN;
    case CLI_OPT_OUTPUT:
        c->output = arg;
        return 1;
    case CLI_OPT_FORMAT:
        c->format_given = 1;
        if (strcmp(arg, "table") == 0)
            c->format = OUT_TABLE;
        else if (strcmp(arg, "json") == 0)
            c->format = OUT_JSON;
        else if (strcmp(arg, "csv") == 0)
            c->format = OUT_CSV;
        else {
            cli_usage_error(p->cmd,
                            "--format: unknown format '%s' (table, json, csv)",
                            arg);
            return PT_EUSAGE;
        }
        return 1;
    case CLI_OPT_JSON:
        c->format_given = 1;
        c->format = OUT_JSON;
        return 1;
    case CLI_OPT_FORCE:
        c->force = 1;
        return 1;
    case CLI_OPT_QUIET:
        c->quiet = 1;
        c->progress = 0;
        return 1;
    default:
        return 0;
    }
}

/*
 * A password inside --connect is visible to every user through ps and
 * /proc/PID/cmdline. A --dsn value holding one is refused by coll_conn_open
 * (its message masks the value).
 */
void cli_warn_cmdline_password(const char *cmd, int argc, char **argv)
{
    static const char opt[] = "--connect";
    int found = 0;

    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = NULL;
        if (strcmp(a, "--") == 0)
            break;
        if (strcmp(a, "-q") == 0 || strcmp(a, "--quiet") == 0)
            return;
        if (strcmp(a, opt) == 0 && i + 1 < argc)
            v = argv[++i];
        else if (strncmp(a, opt, sizeof(opt) - 1) == 0 &&
                 a[sizeof(opt) - 1] == '=')
            v = a + sizeof(opt);
        if (v && coll_connstr_has_password(v))
            found = 1;
    }
    if (found)
        fprintf(stderr,
                "pagetune %s: warning: the password in --connect is visible "
                "to other users (ps); use --password-file, --password-env or "
                "odbc.ini\n",
                cmd);
}

/*
 * The output file's extension and --format agree, for every command with a
 * --format: without --format/--json, "-o x.csv" writes CSV and "-o x.json"
 * JSON (the extension is followed); a --format that contradicts the
 * extension ("-o x.csv --json") is refused. Other extensions say nothing.
 */
static int format_vs_extension(const struct cli_parser *p, struct cli_common *c)
{
    static const struct {
        const char *ext;
        enum out_format fmt;
        const char *name;
    } exts[] = {{".csv", OUT_CSV, "csv"}, {".json", OUT_JSON, "json"}};
    static const char *const names[] = {"table", "json", "csv"};
    const char *dot;
    int has_format = 0;

    for (const struct cli_option *o = p->opts; o->name; o++)
        if (o->id == CLI_OPT_FORMAT)
            has_format = 1;
    if (!has_format || !c->output || strcmp(c->output, "-") == 0)
        return 0;
    dot = strrchr(c->output, '.');
    if (!dot || strchr(dot, '/'))
        return 0;
    for (size_t i = 0; i < sizeof(exts) / sizeof(exts[0]); i++) {
        if (strcasecmp(dot, exts[i].ext) != 0)
            continue;
        if (!c->format_given) {
            c->format = exts[i].fmt;
            c->format_given = 1;
        } else if (c->format != exts[i].fmt) {
            cli_usage_error(p->cmd,
                            "-o '%s' names a %s file but the format is %s "
                            "(drop --format/--json, or change the name)",
                            c->output, exts[i].name, names[c->format]);
            return PT_EUSAGE;
        }
    }
    return 0;
}

int cli_next(struct cli_parser *p, struct cli_common *c, const char **arg)
{
    int id, rc;

    while ((id = cli_next_opt(p, arg)) != -1) {
        if (id == -2)
            return CLI_NEXT_USAGE;
        if (id == CLI_OPT_STORED)
            continue;
        rc = cli_common_opt(p, c, id, *arg);
        if (rc == CLI_HELP_SHOWN)
            return CLI_NEXT_HELP;
        if (rc < 0)
            return CLI_NEXT_USAGE;
        if (rc == 0)
            return id;
    }
    if (optind < p->argc) { /* no command takes operands */
        cli_usage_error(p->cmd, "unexpected argument '%s'", p->argv[optind]);
        return CLI_NEXT_USAGE;
    }
    if (format_vs_extension(p, c) < 0 || cli_paths_check(p, c) < 0)
        return CLI_NEXT_USAGE;
    return CLI_NEXT_END;
}

/* ---- paths that must not clash ------------------------------------------ */

/* The profiles/ directory of a CLI_IO_PROFILE option's `complete`. */
static const char *profile_kind(enum cli_complete complete)
{
    switch (complete) {
    case CLI_C_ENGINE:
        return "engines";
    case CLI_C_DEVICE:
        return "devices";
    case CLI_C_WORKLOAD:
        return "workloads";
    case CLI_C_CALIBRATION:
        return "calibrations";
    case CLI_C_APPSERVER:
        return "appservers";
    default:
        return NULL;
    }
}

/* Add option o's value v to *set in o's role. */
static int path_add(const struct cli_option *o, const char *v,
                    struct pt_pathset *set, struct pt_err *err)
{
    char opt[80], path[4200];
    const char *kind;

    if (!v || !*v)
        return 0;
    if (o->id == CLI_OPT_OUTPUT)
        snprintf(opt, sizeof(opt), "-o");
    else
        snprintf(opt, sizeof(opt), "--%s", o->name);
    switch (o->io) {
    case CLI_IO_IN:
        return pt_pathset_add(set, opt, v, PT_PATH_IN, err);
    case CLI_IO_OUT:
        return pt_pathset_add(set, opt, v, PT_PATH_OUT, err);
    case CLI_IO_PROFILE:
        kind = profile_kind(o->complete);
        if (!kind || prof_resolve(kind, v, path, sizeof(path), NULL) < 0)
            return 0; /* not a file: the load says so */
        return pt_pathset_add(set, opt, path, PT_PATH_IN, err);
    case CLI_IO_OUTDIR:
        if (!o->files)
            return pt_pathset_add(set, opt, v, PT_PATH_OUTDIR, err);
        for (const char *const *f = o->files; *f; f++) {
            int rc;
            if ((size_t)snprintf(path, sizeof(path), "%s/%s", v, *f) >=
                sizeof(path))
                continue; /* too long to create either */
            if ((rc = pt_pathset_add(set, opt, path, PT_PATH_OUT, err)) < 0)
                return rc;
        }
        return 0;
    default:
        return 0;
    }
}

int cli_paths_collect(const struct cli_parser *p, const struct cli_common *c,
                      struct pt_pathset *set, struct pt_err *err)
{
    int rc = 0;

    for (const struct cli_option *o = p->opts; rc == 0 && o->name; o++) {
        const char *v = NULL;
        if (o->io == CLI_IO_NONE)
            continue;
        if (o->id == CLI_OPT_OUTPUT && o->type == CLI_T_CUSTOM)
            v = c->output;
        else if (o->type != CLI_T_CUSTOM && p->base)
            memcpy(&v, (const char *)p->base + o->off, sizeof(v));
        if (v)
            rc = path_add(o, v, set, err);
    }
    for (size_t i = 0; rc == 0 && i < p->n_paths; i++)
        if (p->paths[i].o->id != CLI_OPT_OUTPUT)
            rc = path_add(p->paths[i].o, p->paths[i].arg, set, err);
    if (rc == 0 && p->spec && p->spec->paths && p->base)
        rc = p->spec->paths(p->base, set, err);
    return rc;
}

int cli_paths_check(const struct cli_parser *p, const struct cli_common *c)
{
    struct pt_pathset set;
    struct pt_err err;
    int rc;

    err_clear(&err);
    pt_pathset_init(&set);
    if ((rc = cli_paths_collect(p, c, &set, &err)) == 0)
        rc = pt_pathset_check(&set, &err);
    pt_pathset_release(&set);
    if (rc < 0)
        cli_fail(p->cmd, &err);
    return rc;
}

int cli_parse_all(struct cli_parser *p, const struct cli_spec *spec, void *base,
                  struct cli_common *c, int argc, char **argv)
{
    const char *arg;
    int id;

    if (cli_parse_spec(p, spec, base, argc, argv) < 0)
        return PT_EINTERNAL;
    id = cli_next(p, c, &arg);
    if (id == CLI_NEXT_END)
        return 0;
    if (id == CLI_NEXT_HELP)
        return CLI_HELP_SHOWN;
    if (id == CLI_NEXT_USAGE)
        return PT_EUSAGE;
    cli_error(p->cmd, "option id %d has no handler", id);
    return PT_EINTERNAL;
}

int cli_output_open(const struct cli_common *c, struct pt_afile *af,
                    struct pt_err *err)
{
    return pt_afile_open(af, c->output ? c->output : "-", c->force, err);
}

int cli_output_write(const struct cli_common *c,
                     json_t *(*to_json)(const void *ctx),
                     int (*to_table)(FILE *fp, enum out_format fmt,
                                     const void *ctx, struct pt_err *err),
                     const void *ctx, struct pt_err *err)
{
    struct pt_afile af = {0};
    int ret;

    if ((ret = cli_output_open(c, &af, err)) < 0)
        return ret;
    if (c->format == OUT_JSON) {
        json_t *doc = to_json(ctx);
        ret = doc ? out_json_write(doc, af.fp, err)
                  : err_set(err, PT_EINTERNAL, "out of memory");
        json_decref(doc);
    } else {
        ret = to_table(af.fp, c->format, ctx, err);
    }
    if (ret < 0) {
        pt_afile_abort(&af);
        return ret;
    }
    return pt_afile_commit(&af, err);
}

/*
 * The progress line (stderr, a TTY, not --quiet): "LABEL [####   ]  42.0%
 * ETA 0:17" when the total is known, "LABEL 12345" otherwise; "STEP k/n"
 * before the label when the work is one of several candidates. Redrawn at
 * most ten times a second with '\r'; the ETA appears once a second has
 * passed (elapsed / fraction done), then ", all 1:05" (or "all at most")
 * when the whole job's time left is known (all_left_s). A terminal that cannot
 * erase to the end of the line (TERM=dumb) is cleared by overwriting with
 * spaces.
 */
static int term_dumb(void)
{
    const char *t = getenv("TERM");
    return !t || !*t || strcmp(t, "dumb") == 0;
}

void cli_progress_init(struct cli_progress *pg, const struct cli_common *c,
                       const char *label, uint64_t total)
{
    memset(pg, 0, sizeof(*pg));
    pg->c = c;
    pg->label = label;
    pg->total = total;
    pg->start_ns = pt_now_ns();
    pg->all_left_s = -1;
}

void cli_progress_step(struct cli_progress *pg, unsigned step, unsigned n_steps)
{
    pg->step = step;
    pg->n_steps = n_steps;
}

static void clear_line(struct cli_progress *pg)
{
    if (term_dumb())
        fprintf(stderr, "\r%*s\r", pg->width, "");
    else
        fputs("\r\033[K", stderr);
}

/* "1:05" or "1:02:05" */
static void hms(char *buf, size_t len, double secs)
{
    unsigned long s = (unsigned long)(secs + 0.5);

    if (s >= 3600)
        snprintf(buf, len, "%lu:%02lu:%02lu", s / 3600, s / 60 % 60, s % 60);
    else
        snprintf(buf, len, "%lu:%02lu", s / 60, s % 60);
}

/* "  ETA 0:17", "  ETA 0:17, all at most 1:05", "  all 1:05" or "";
   without the whole job's part unless `all` */
static void eta_text(const struct cli_progress *pg, double left, int all,
                     char *buf, size_t len)
{
    char a[24], b[24];
    double all_s = all ? pg->all_left_s : -1;

    buf[0] = '\0';
    if (left >= 0)
        hms(a, sizeof(a), left);
    if (all_s >= 0)
        hms(b, sizeof(b), all_s);
    if (left >= 0 && all_s >= 0)
        snprintf(buf, len, "  ETA %s, all %s%s", a,
                 pg->all_at_most ? "at most " : "", b);
    else if (left >= 0)
        snprintf(buf, len, "  ETA %s", a);
    else if (all_s >= 0)
        snprintf(buf, len, "  all %s%s", pg->all_at_most ? "at most " : "", b);
}

void cli_progress_update(struct cli_progress *pg, uint64_t done)
{
    uint64_t now;
    char step[32] = "", eta[96] = "";
    int n;

    if (!pg->c || !pg->c->progress)
        return;
    now = pt_now_ns();
    if (pg->drawn && now - pg->last_ns < 100000000ULL)
        return;
    if (pg->drawn)
        clear_line(pg);
    pg->last_ns = now;
    pg->drawn = 1;
    if (pg->n_steps > 1)
        snprintf(step, sizeof(step), "%u/%u ", pg->step, pg->n_steps);
    if (pg->total) {
        /* the bar gives way to the label and the ETA on a narrow terminal:
           a line wider than the terminal would wrap and break the \r */
        int term = out_term_width(stderr), width = 30, rest;
        double f = (double)done / (double)pg->total;
        double elapsed = (double)(now - pg->start_ns) / 1e9;
        int fill;
        if (f > 1)
            f = 1;
        double left =
            elapsed >= 1 && f > 0 && f < 1 ? elapsed / f - elapsed : -1;
        /* "LABEL [" "] 100.0%" and the ETA; a terminal too narrow for the
           whole job's time left drops it, then the ETA */
        for (int k = 0; k < 3; k++) {
            eta_text(pg, k < 2 ? left : -1, k == 0, eta, sizeof(eta));
            rest = (int)(strlen(step) + strlen(pg->label)) + 11 +
                   (strlen(eta) < 16 ? 16 : (int)strlen(eta));
            if (term <= 0 || rest <= term)
                break;
        }
        if (term > 0 && rest + width > term)
            width = term - rest > 0 ? term - rest : 0;
        fill = (int)(f * width);
        n = fprintf(stderr, "\r%s%s [%.*s%*s] %5.1f%%%s", step, pg->label, fill,
                    "##############################", width - fill, "", f * 100,
                    eta);
    } else {
        n = fprintf(stderr, "\r%s%s %llu", step, pg->label,
                    (unsigned long long)done);
    }
    if (n > pg->width)
        pg->width = n;
    fflush(stderr);
}

void cli_progress_done(struct cli_progress *pg)
{
    if (pg->drawn) {
        clear_line(pg);
        fflush(stderr);
    }
    pg->drawn = 0;
}

void cli_plan_bar_update(struct cli_plan_bar *b, const struct cli_common *c,
                         const struct store_plan_work *w)
{
    char label[64];

    if (w->stage == STORE_STAGE_DONE) {
        cli_plan_bar_clear(b);
        return;
    }
    store_plan_work_label(w, label, sizeof(label));
    if (!b->on || strcmp(label, b->label) != 0) {
        /* a new stage: a new bar, its own ETA */
        cli_progress_done(&b->pg);
        memcpy(b->label, label, sizeof(label));
        cli_progress_init(&b->pg, c, b->label, w->phase_total);
        b->on = 1;
    }
    b->pg.all_left_s = store_plan_work_left_s(w);
    b->pg.all_at_most = w->at_most;
    cli_progress_update(&b->pg, w->phase_done);
}

void cli_plan_bar_clear(struct cli_plan_bar *b)
{
    if (b->on)
        cli_progress_done(&b->pg);
    b->on = 0;
}

/*
 * The watchdog's last resort (collect.h on_stall), on its own thread: the
 * driver ignored both SQLCancel and the shutdown of its sockets, so the
 * main thread cannot unwind. Remove the temporary files as the signal path
 * does, say one line, exit 69 (EX_UNAVAILABLE).
 */
static void conn_stall_exit(const char *msg)
{
    char line[512];
    int n = snprintf(line, sizeof(line), "pagetune: %s\n", msg);

    pt_cleanup_signal();
    if (n > 0)
        (void)!write(STDERR_FILENO, line,
                     (size_t)n < sizeof(line) ? (size_t)n : sizeof(line) - 1);
    _exit(69);
}

int cli_conn_opt(struct coll_conn_opts *conn, int id, const char *arg)
{
    conn->on_stall = conn_stall_exit;
    switch (id) {
    case CLI_OPT_DSN:
        conn->dsn = arg;
        return 1;
    case CLI_OPT_CONNECT:
        conn->connect = arg;
        return 1;
    case CLI_OPT_PASSWORD_FILE:
        conn->password_file = arg;
        return 1;
    case CLI_OPT_PASSWORD_ENV:
        conn->password_env = arg;
        return 1;
    case CLI_OPT_TIMEOUT: {
        /* whole seconds; anything else becomes -1, which coll_conn_open
           refuses with a usage error naming --timeout */
        char *end;
        long v;
        errno = 0;
        v = strtol(arg, &end, 10);
        conn->timeout_s = errno || end == arg || *end || v < 1 ? -1 : v;
        return 1;
    }
    default:
        return 0;
    }
}

int cli_conn_check(const char *cmd, const struct coll_conn_opts *conn)
{
    if (!conn->dsn == !conn->connect) {
        cli_usage_error(cmd, "give exactly one of --dsn NAME or --connect STR");
        return PT_EUSAGE;
    }
    if (conn->password_file && conn->password_env) {
        cli_usage_error(cmd, "--password-file and --password-env are "
                             "exclusive");
        return PT_EUSAGE;
    }
    return 0;
}

/* --trace-format's choices; "binary" is another name of oracleGeneral */
const char *const cli_trace_formats[] = {"auto", "csv", "oracle", "binary",
                                         NULL};

int cli_trace_format(int choice)
{
    static const enum sim_trace_format fmt[] = {
        SIM_TRACE_AUTO, SIM_TRACE_CSV, SIM_TRACE_ORACLE, SIM_TRACE_ORACLE};

    return (int)fmt[choice >= 0 && choice < 4 ? choice : 0];
}
