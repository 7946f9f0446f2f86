/* SPDX-License-Identifier: Apache-2.0 */
/*
 * opts.c — option parsing shared by every command (one table drives both
 * getopt_long and --help), messages on stderr, the exit-code table, and the
 * progress bar.
 */
#include "cli/cli.h"
#include "collect/collect.h"

#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

/* The one table from PT_* status to exit code (design.md §3). */
static const struct {
    int status;
    int exit_code;
} exit_table[] = {
    {PT_OK, 0},         {PT_ECHECK, 1},      {PT_EUSAGE, 64},
    {PT_EDATA, 65},     {PT_ENOINPUT, 66},   {PT_EUNAVAIL, 69},
    {PT_EINTERNAL, 70}, {PT_ECANTCREAT, 73}, {PT_EIO, 74},
    {PT_EPERM, 77},     {PT_EINTR, 130},
};

int cli_exit_code(int status)
{
    for (size_t i = 0; i < sizeof(exit_table) / sizeof(exit_table[0]); i++)
        if (exit_table[i].status == status)
            return exit_table[i].exit_code;
    return 70;
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

void cli_error(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    char msg[1200];

    if (pt_interrupted()) /* main.c prints the one line of an interrupt */
        return;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    /* the reader of stdout left: main.c's finish() ends the run quietly */
    if (strstr(msg, strerror(EPIPE)) && cli_stdout_gone())
        return;
    vmessage_str(cmd, msg);
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

    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    one_line(msg);
    if (cmd)
        fprintf(stderr, "pagetune %s: %s (see 'pagetune %s --help')\n", cmd,
                msg, cmd);
    else
        fprintf(stderr, "pagetune: %s (see 'pagetune --help')\n", msg);
    return 64;
}

void cli_note(const struct cli_common *c, const char *fmt, ...)
{
    va_list ap;

    if (c && c->quiet)
        return;
    va_start(ap, fmt);
    fputs("pagetune: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
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
        p->longopts[n].has_arg = o->has_arg;
        p->longopts[n].flag = NULL;
        p->longopts[n].val = o->id;
        n++;
        if (o->short_name) {
            p->shortopts[s++] = (char)o->short_name;
            if (o->has_arg == required_argument)
                p->shortopts[s++] = ':';
        }
    }
    memset(&p->longopts[n], 0, sizeof(p->longopts[n]));
    p->shortopts[s] = '\0';
    optind = 1;
    opterr = 0;
    return 0;
}

static const struct cli_option *find_short(const struct cli_parser *p, int c)
{
    for (const struct cli_option *o = p->opts; o->name; o++)
        if (o->short_name == c)
            return o;
    return NULL;
}

int cli_next_opt(struct cli_parser *p, const char **arg)
{
    int c, idx = -1;

    *arg = NULL;
    c = getopt_long(p->argc, p->argv, p->shortopts, p->longopts, &idx);
    if (c == -1)
        return -1;
    if (c == '?') {
        if (optopt && optopt < 256 && !find_short(p, optopt))
            cli_usage_error(p->cmd, "unknown option '-%c'", optopt);
        else if (optopt == 0)
            cli_usage_error(p->cmd, "unknown or ambiguous option '%s'",
                            p->argv[optind - 1]);
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
    if (c < 256) {
        const struct cli_option *o = find_short(p, c);
        if (!o)
            return -2;
        c = o->id;
    }
    *arg = optarg;
    return c;
}

void cli_print_help(const struct cli_parser *p, FILE *fp)
{
    const char *prefix = "usage:";

    for (const char *const *u = p->usage; u && *u; u++) {
        fprintf(fp, "%s %s\n", prefix, *u);
        prefix = "   or:";
    }
    if (p->description)
        fprintf(fp, "\n%s\n", p->description);
    fprintf(fp, "\noptions:\n");
    for (const struct cli_option *o = p->opts; o->name; o++) {
        char left[64];
        if (o->short_name)
            snprintf(left, sizeof(left), "-%c, --%s%s%s", o->short_name,
                     o->name, o->arg_name ? " " : "",
                     o->arg_name ? o->arg_name : "");
        else
            snprintf(left, sizeof(left), "    --%s%s%s", o->name,
                     o->arg_name ? " " : "", o->arg_name ? o->arg_name : "");
        if (strlen(left) > 26)
            fprintf(fp, "  %s\n  %-26s  %s\n", left, "", o->help);
        else
            fprintf(fp, "  %-26s  %s\n", left, o->help);
    }
    fprintf(fp, "\nSee pagetune-%s(1). Exit status: see pagetune(1).\n",
            p->cmd);
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
    if (format_vs_extension(p, c) < 0)
        return CLI_NEXT_USAGE;
    return CLI_NEXT_END;
}

int cli_output_open(const struct cli_common *c, struct pt_afile *af,
                    struct pt_err *err)
{
    return pt_afile_open(af, c->output ? c->output : "-", c->force, err);
}

/*
 * The progress line (stderr, a TTY, not --quiet): "LABEL [####   ]  42.0%
 * ETA 0:17" when the total is known, "LABEL 12345" otherwise; "STEP k/n"
 * before the label when the work is one of several candidates. Redrawn at
 * most ten times a second with '\r'; the ETA appears once a second has
 * passed (elapsed / fraction done). A terminal that cannot erase to the
 * end of the line (TERM=dumb) is cleared by overwriting with spaces.
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

void cli_progress_update(struct cli_progress *pg, uint64_t done)
{
    uint64_t now;
    char step[32] = "", eta[32] = "";
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
        int width = 30;
        double f = (double)done / (double)pg->total;
        double elapsed = (double)(now - pg->start_ns) / 1e9;
        int fill;
        if (f > 1)
            f = 1;
        if (elapsed >= 1 && f > 0 && f < 1) {
            double left = elapsed / f - elapsed;
            unsigned long s = (unsigned long)(left + 0.5);
            if (s >= 3600)
                snprintf(eta, sizeof(eta), "  ETA %lu:%02lu:%02lu", s / 3600,
                         s / 60 % 60, s % 60);
            else
                snprintf(eta, sizeof(eta), "  ETA %lu:%02lu", s / 60, s % 60);
        }
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
