/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cli.h — the front door: command table, option tables, output writers and
 * exit codes. Only cli/ prints; it never computes (design.md §2).
 *
 * Recipe for adding a command `foo`:
 *   1. cli/cmd_foo.c: role comment; `static const char *const usage[]`
 *      (SYNOPSIS lines, the source of truth for the man page); a
 *      `static const struct cli_option opts[]` table ending in CLI_OPT_END
 *      (every option with its help text and default); static helpers; one
 *      public `int cmd_foo(int argc, char **argv)` that returns an exit code.
 *   2. Declare cmd_foo below and add {"foo", cmd_foo, "summary"} to the
 *      alphabetical table in cli/main.c; add cmd_foo.c to cli/CMakeLists.txt.
 *   3. man/pagetune-foo.1, and a test in tests/cli/.
 *   Parse with cli_parse_begin()/cli_next_opt(); handle the common options
 *   (-o, --format, --json, --force, --quiet, --help) with cli_common_opt().
 */
#ifndef PT_CLI_H
#define PT_CLI_H

#include <getopt.h>
#include <stdio.h>

#include "core/core.h"

/* ---- commands ---------------------------------------------------------- */

struct cli_command {
    const char *name;
    int (*fn)(int argc, char **argv);
    const char *summary;
};

int cmd_advise(int argc, char **argv);
int cmd_calibrate(int argc, char **argv);
int cmd_ddl(int argc, char **argv);
int cmd_monitor(int argc, char **argv);
int cmd_recommend(int argc, char **argv);
int cmd_replay(int argc, char **argv);
int cmd_sample(int argc, char **argv);
int cmd_simulate(int argc, char **argv);
int cmd_workload(int argc, char **argv);

/* The alphabetical command table (cli/main.c); ends with a NULL name. */
extern const struct cli_command cli_commands[];

/* ---- options ----------------------------------------------------------- */

/*
 * One option: drives both getopt_long and the --help text, so the help
 * always lists every option with its default.
 */
struct cli_option {
    const char *name;     /* long name without "--" */
    int short_name;       /* single-letter alias or 0 */
    int has_arg;          /* no_argument / required_argument */
    int id;               /* value returned by cli_next_opt() */
    const char *arg_name; /* e.g. "FILE"; NULL without argument */
    const char *help;     /* one line, ends with "(default: …)" if any */
};
#define CLI_OPT_END                                                            \
    {                                                                          \
        NULL, 0, 0, 0, NULL, NULL                                              \
    }

/* Ids of the options every command shares (cli_common_opt handles them). */
enum {
    CLI_OPT_HELP = 1000,
    CLI_OPT_OUTPUT,
    CLI_OPT_FORMAT,
    CLI_OPT_JSON,
    CLI_OPT_FORCE,
    CLI_OPT_QUIET,
    CLI_OPT_COLOR,
    CLI_OPT_DSN, /* the ODBC connection: CLI_OPT_CONN_ENTRIES */
    CLI_OPT_CONNECT,
    CLI_OPT_PASSWORD_FILE,
    CLI_OPT_PASSWORD_ENV,
    CLI_OPT_TIMEOUT,
    CLI_OPT_FIRST_CUSTOM = 1100,
};

/* Entries for the shared options, to put in a command's table. */
#define CLI_OPT_HELP_ENTRY                                                     \
    {                                                                          \
        "help", 'h', no_argument, CLI_OPT_HELP, NULL,                          \
            "show this help and exit"                                          \
    }
#define CLI_OPT_OUTPUT_ENTRY                                                   \
    {                                                                          \
        "output", 'o', required_argument, CLI_OPT_OUTPUT, "FILE",              \
            "write the result to FILE, atomically; - is stdout (default: -)"   \
    }
#define CLI_OPT_FORMAT_ENTRIES                                                 \
    {"format",                                                                 \
     0,                                                                        \
     required_argument,                                                        \
     CLI_OPT_FORMAT,                                                           \
     "FMT",                                                                    \
     "output format: table, json or csv (default: table)"},                    \
    {                                                                          \
        "json", 0, no_argument, CLI_OPT_JSON, NULL, "short for --format json"  \
    }
#define CLI_OPT_FORCE_ENTRY                                                    \
    {                                                                          \
        "force", 'f', no_argument, CLI_OPT_FORCE, NULL,                        \
            "overwrite existing output files (default: refuse, exit 73)"       \
    }
#define CLI_OPT_QUIET_ENTRY                                                    \
    {                                                                          \
        "quiet", 'q', no_argument, CLI_OPT_QUIET, NULL,                        \
            "no progress or notes on stderr, only errors (default: off)"       \
    }

/* --dsn, --connect, --password-file, --password-env, --timeout
   (cli_conn_opt). */
/* clang-format off */
#define CLI_OPT_CONN_ENTRIES                                                   \
    {"dsn", 0, required_argument, CLI_OPT_DSN, "NAME",                        \
     "ODBC data source name from odbc.ini (default: none)"},                  \
    {"connect", 0, required_argument, CLI_OPT_CONNECT, "STR",                 \
     "ODBC connection string \"Driver=...;...\" (default: none)"},            \
    {"password-file", 0, required_argument, CLI_OPT_PASSWORD_FILE, "FILE",    \
     "read the password from FILE, which must have mode 0600 "                \
     "(default: none)"},                                                      \
    {"password-env", 0, required_argument, CLI_OPT_PASSWORD_ENV, "NAME",      \
     "read the password from environment variable NAME (default: none)"},     \
    {"timeout", 0, required_argument, CLI_OPT_TIMEOUT, "SEC",                 \
     "give up (exit 69) when the server has not answered for SEC seconds "    \
     "(default: 30)"}
/* clang-format on */

enum out_format { OUT_TABLE, OUT_JSON, OUT_CSV };

/* Shared option values. */
struct cli_common {
    const char *output;     /* -o, "-" = stdout */
    enum out_format format; /* --format / --json */
    int force;              /* --force */
    int quiet;              /* --quiet */
    int format_given;       /* --format or --json was on the command line */
    int progress;           /* progress bars: stderr is a TTY, !quiet */
};

/* Parser state for one command's argv. */
struct cli_parser {
    const char *cmd;               /* command name for messages */
    const struct cli_option *opts; /* the command's table */
    const char *const *usage;      /* SYNOPSIS lines */
    const char *description;       /* paragraph printed by --help */
    struct option longopts[64];
    char shortopts[128];
    int argc;
    char **argv;
};

/*
 * Prepare parsing. Returns 0, or PT_EINTERNAL if the table is too large.
 */
int cli_parse_begin(struct cli_parser *p, const char *cmd,
                    const struct cli_option *opts, const char *const *usage,
                    const char *description, int argc, char **argv);
/*
 * Next option: its id and *arg (NULL without argument); -1 at the end;
 * on an unknown option or missing argument prints one line and returns
 * -2 (the command then returns exit code 64).
 */
int cli_next_opt(struct cli_parser *p, const char **arg);
/* Print --help for the parser's command to fp. */
void cli_print_help(const struct cli_parser *p, FILE *fp);
/*
 * Handle a shared option. Returns 1 if handled, 0 if not a shared option,
 * or a negative status after printing an error (bad --format). For
 * CLI_OPT_HELP prints help and returns CLI_HELP_SHOWN.
 */
#define CLI_HELP_SHOWN 2
int cli_common_opt(struct cli_parser *p, struct cli_common *c, int id,
                   const char *arg);
/*
 * The next option a command handles itself: the shared ones (-o, --format,
 * --json, --force, --quiet) are taken into *c on the way. Returns the
 * option's id and *arg, or CLI_NEXT_END after the last option,
 * CLI_NEXT_HELP once --help has been printed, CLI_NEXT_USAGE after a
 * one-line usage error (unknown option, missing value, bad --format, an
 * argument that is not an option: no command takes operands).
 */
enum { CLI_NEXT_END = -1, CLI_NEXT_USAGE = -2, CLI_NEXT_HELP = -3 };
int cli_next(struct cli_parser *p, struct cli_common *c, const char **arg);
/*
 * Handle a connection option (CLI_OPT_CONN_ENTRIES) into *conn: 1 if `id`
 * was one, 0 if not.
 */
struct coll_conn_opts;
int cli_conn_opt(struct coll_conn_opts *conn, int id, const char *arg);
/*
 * After a run that succeeded (a failing run says one line, its error): warn
 * once on stderr when a --connect value on the command line holds a
 * password (PWD= / Password=), unless -q / --quiet was given.
 */
void cli_warn_cmdline_password(const char *cmd, int argc, char **argv);
/* Defaults: output "-", table, progress if stderr is a TTY. */
void cli_common_init(struct cli_common *c);

/* ---- messages and exit codes ------------------------------------------- */

/* Map a PT_* status to the exit code of design.md §3 (the one table). */
int cli_exit_code(int status);
/* Print "pagetune: <msg>" (or "pagetune CMD: <msg>") to stderr. */
void cli_error(const char *cmd, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Print err as one line and return its exit code. */
int cli_fail(const char *cmd, const struct pt_err *err);
/* Usage error: one line plus a pointer to --help; returns 64. */
int cli_usage_error(const char *cmd, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* A note on stderr unless quiet. */
void cli_note(const struct cli_common *c, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/*
 * True once SIGINT, SIGTERM or SIGHUP arrived (cli/main.c's handler records
 * it in core, pt_interrupt_note): a work loop that sees it stops with
 * PT_EINTR and unwinds; from then on cli_error() prints nothing, and main()
 * prints the one "interrupted by" line and exits 128 + the signal number.
 */
int cli_interrupted(void);
/*
 * True when standard output is a pipe or socket whose reader has gone (a
 * write would fail with EPIPE): cli_error() then holds back a "Broken pipe"
 * line and main() ends the run by SIGPIPE, as a pipeline expects.
 */
int cli_stdout_gone(void);

/* ---- progress ----------------------------------------------------------- */

/*
 * A progress bar on stderr, drawn only when c->progress (stderr is a TTY
 * and no --quiet): label, bar, percentage and, after a second, the ETA;
 * "k/n" first when the work is step k of n (cli_progress_step).
 */
struct cli_progress {
    const struct cli_common *c;
    const char *label;
    uint64_t total;    /* 0 = unknown */
    uint64_t start_ns; /* cli_progress_init, for the ETA */
    uint64_t last_ns;
    unsigned step, n_steps; /* "2/4": this is step `step` of n_steps */
    int width;              /* longest line drawn, to erase on TERM=dumb */
    int drawn;
};
void cli_progress_init(struct cli_progress *pg, const struct cli_common *c,
                       const char *label, uint64_t total);
/* Mark the bar as step `step` (1-based) of `n_steps`; after _init. */
void cli_progress_step(struct cli_progress *pg, unsigned step,
                       unsigned n_steps);
void cli_progress_update(struct cli_progress *pg, uint64_t done);
void cli_progress_done(struct cli_progress *pg);

/* ---- output writers ----------------------------------------------------- */

/*
 * A table of strings: built by a command, written by one of the writers
 * (table: aligned columns; csv: RFC 4180; json: array of objects keyed by
 * the headers). Cells are copied.
 */
struct out_table {
    size_t n_cols;
    char **headers;   /* n_cols, owned */
    char **machine;   /* n_cols, owned: CSV header, NULL = from headers[] */
    int *right_align; /* n_cols: numbers align right */
    char **cells;     /* n_rows * n_cols, owned */
    char **raw;       /* n_rows * n_cols, owned: CSV value, NULL = cell */
    size_t n_rows;
    size_t cap_rows;
    char *title; /* printed above the table in table mode, owned */
};

/*
 * headers: n_cols strings; a header starting with '>' is right-aligned;
 * "shown|machine" gives the CSV header (snake_case, units in the name:
 * ">ops/s|ops_per_s"); without one the CSV header is the shown one in
 * snake_case ("/" -> "_per_", "%" -> "pct", other signs -> "_").
 */
int out_table_init(struct out_table *t, size_t n_cols,
                   const char *const *headers);
void out_table_release(struct out_table *t);
int out_table_set_title(struct out_table *t, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Append a row; then fill cells with out_table_setf(t, col, ...). */
int out_table_add_row(struct out_table *t);
int out_table_setf(struct out_table *t, size_t col, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/*
 * The CSV value of a cell of the last row when it differs from the shown
 * one: the raw number ("4096" for "4K", "18.7" for "+18.7%", "" for "-").
 */
int out_table_set_raw(struct out_table *t, size_t col, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/*
 * Write in the given format. Returns 0 or PT_EIO. The text table fits
 * out_term_width(fp) columns (a wide cell wraps at spaces onto continuation
 * lines) and no line ends in spaces.
 */
int out_table_write(const struct out_table *t, enum out_format fmt, FILE *fp,
                    struct pt_err *err);
/* Write a JSON document (pretty) with "schema_version" already in it. */
int out_json_write(const json_t *doc, FILE *fp, struct pt_err *err);
/*
 * The width text output must fit: $COLUMNS when set to a positive number,
 * else the terminal's width when fp is a terminal (TIOCGWINSZ), else 0 (no
 * limit: a file or a pipe).
 */
int out_term_width(FILE *fp);
/* Does stdout-style colour apply (NO_COLOR, --color, TTY)? */
int out_color_enabled(FILE *fp);

/*
 * Refuse two outputs of one command that name the same file, before any
 * work: the same path once the directory is resolved (realpath), or the same
 * device and inode when both exist (hard links, symbolic links). NULL and
 * "-" never clash. Returns 0 or PT_EUSAGE with a message naming both options
 * (`opt_a`, `opt_b`, e.g. "-o" and "--mrc-csv").
 */
int cli_outputs_distinct(const char *opt_a, const char *path_a,
                         const char *opt_b, const char *path_b,
                         struct pt_err *err);

/*
 * Open the command's data output (-o FILE or stdout) atomically; on success
 * the caller writes to af->fp and calls pt_afile_commit().
 */
int cli_output_open(const struct cli_common *c, struct pt_afile *af,
                    struct pt_err *err);

#endif /* PT_CLI_H */
