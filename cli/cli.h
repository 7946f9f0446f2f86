/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cli.h — the front door: command table, option tables, output writers and
 * exit codes. Only cli/ prints; it never computes (docs/architecture.md).
 *
 * Recipe for adding a command `foo`:
 *   1. cli/cmd_foo.c: role comment; `static const char *const usage[]`
 *      (SYNOPSIS lines, the source of truth for the man page); a struct
 *      foo_args for the values; a `static const struct cli_option opts[]`
 *      table ending in CLI_OPT_END, each typed option saying where its
 *      value goes (CLI_AT), its range or choices, help, default and, every
 *      option, its heading in --help (.group, enum cli_group); 2-3
 *      examples; `CLI_SPEC_DEFINE(foo);` (cli_spec_foo); static helpers;
 *      one public `int cmd_foo(int argc, char **argv)` returning a
 *      PT_EXIT_*.
 *   2. Declare cmd_foo and cli_spec_foo below and add {"foo", cmd_foo,
 *      "summary", &cli_spec_foo} to the alphabetical table in
 *      cli/commands.c; add foo to PT_COMMANDS in cli/CMakeLists.txt.
 *   3. man/pagetune-foo.1, and a test in tests/cli/. tests/unit/test_cli.c
 *      checks the table; completion follows it by itself. A short option
 *      must mean the same long option in every command.
 *   Parse with cli_parse_spec()/cli_next(): typed and shared options are
 *   stored on the way, CLI_T_CUSTOM ones come back by id. The parse
 *   function returns 0, CLI_HELP_SHOWN or a PT_* status; cmd_foo returns
 *   cli_parse_exit() of the last two.
 */
#ifndef PT_CLI_H
#define PT_CLI_H

#include <getopt.h>
#include <stddef.h>
#include <stdio.h>

#include "core/core.h"

/* ---- commands ---------------------------------------------------------- */

struct cli_command {
    const char *name;
    int (*fn)(int argc, char **argv);
    const char *summary;
    const struct cli_spec *spec; /* options, usage, examples; NULL: none */
};

int cmd_advise(int argc, char **argv);
int cmd_calibrate(int argc, char **argv);
int cmd_ddl(int argc, char **argv);
int cmd_diff(int argc, char **argv);
int cmd_probe(int argc, char **argv);
int cmd_monitor(int argc, char **argv);
int cmd_recommend(int argc, char **argv);
int cmd_replay(int argc, char **argv);
int cmd_sample(int argc, char **argv);
int cmd_simulate(int argc, char **argv);
int cmd_workload(int argc, char **argv);

/* Each command's spec (cli/cmd_<name>.c). */
struct cli_spec;
extern const struct cli_spec cli_spec_advise, cli_spec_calibrate, cli_spec_ddl,
    cli_spec_diff, cli_spec_monitor, cli_spec_probe, cli_spec_recommend,
    cli_spec_replay, cli_spec_sample, cli_spec_simulate, cli_spec_workload;

/* The alphabetical command table (cli/commands.c); ends with a NULL name. */
extern const struct cli_command cli_commands[];
/* The command called name, or NULL. */
const struct cli_command *cli_command_find(const char *name);
/* The usage error (64) of an unknown command, with the closest command
   ("did you mean 'advise'?") when one is close (pt_suggest). */
int cli_unknown_command(const char *name);
/* The usage error (64) of `pagetune --OPTION ... CMD`: the option goes
   after the command (with the closest of its options when misspelt). */
int cli_option_before_command(int argc, char **argv);
/* `pagetune __complete [CMD [--OPTION]]`: what completion offers. */
int cli_complete(int argc, char **argv);

/* ---- options ----------------------------------------------------------- */

/*
 * Declarative options, in the spirit of git's parse-options: one table per
 * command says, for each option, its type, where its value goes (an offset
 * into the command's args struct), its range or choices, its help text and
 * its default. Parsing, range errors, --help and completion
 * (`pagetune __complete`, completion/ for bash, zsh and fish) all read that
 * table.
 *
 * Typed options are stored by the parser; CLI_T_CUSTOM options (the shared
 * ones, and the few whose value needs the command's own code) come back
 * from cli_next() by id. A value is stored at base + off, base being the
 * struct handed to cli_parse_spec().
 */
enum cli_opt_type {
    CLI_T_CUSTOM = 0, /* returned by id from cli_next(); has_arg applies */
    CLI_T_FLAG,       /* int, set to 1 */
    CLI_T_STRING,     /* const char *, the argv string itself */
    CLI_T_PATH,       /* const char *, a file name (completes files) */
    CLI_T_DIR,        /* const char *, a directory (completes dirs) */
    CLI_T_UINT,       /* uint64_t, decimal, in min..max */
    CLI_T_DOUBLE,     /* double, in dmin..dmax (dmin excluded if dmin_open) */
    CLI_T_SIZE,       /* uint64_t bytes, suffix K/M/G/T, in min..max */
    CLI_T_ENUM,       /* int: index of the value in choices[] */
    CLI_T_SIZE_LIST,  /* uint64_t[max_items], count in size_t at n_off */
};

/* What completion offers for an option's value. */
enum cli_complete {
    CLI_C_AUTO = 0,    /* from the type: choices, files, dirs or nothing */
    CLI_C_ENGINE,      /* profiles/engines/ names, or a YAML file */
    CLI_C_DEVICE,      /* profiles/devices/ names, or a YAML file */
    CLI_C_WORKLOAD,    /* profiles/workloads/ names, or a YAML file */
    CLI_C_DSN,         /* data source names from odbc.ini */
    CLI_C_DIALECT,     /* directories of ddl_templates/ */
    CLI_C_POLICY,      /* sim/'s registered eviction policies */
    CLI_C_CALIBRATION, /* profiles/calibrations/ names, or a YAML file */
    CLI_C_APPSERVER,   /* profiles/appservers/ names, or a YAML file */
};

/*
 * What a path option's value is to the run, for the check that no output
 * names an input or another output (cli_paths_check, core's pt_pathset).
 */
enum cli_io {
    CLI_IO_NONE = 0, /* not a path */
    CLI_IO_IN,       /* a file the command reads ("-" is stdin) */
    CLI_IO_OUT,      /* a file it writes, replaces or appends to */
    CLI_IO_OUTDIR,   /* a directory: `files` written into it, each
                        atomically, or, files NULL, replaced as one unit */
    CLI_IO_PROFILE,  /* a profile NAME|FILE read, of the kind `complete`
                        says (prof_resolve) */
    CLI_IO_SPEC,     /* what it names comes from the spec's `paths` hook
                        (replay's --store-dir: the store files) */
};

/*
 * The heading an option is listed under in --help: the groups a command
 * uses, in this order, each with its options in table order ("input
 * options:", "model options:", ...). Every option names one
 * (tests/unit/test_cli.c); CLI_G_NONE would be listed last, as "other".
 */
enum cli_group {
    CLI_G_NONE = 0,    /* not grouped: a table to fix */
    CLI_G_CONNECTION,  /* the database: --dsn, --connect, --demo, ... */
    CLI_G_INPUT,       /* files read: sizes, trace, points, ... */
    CLI_G_SAMPLING,    /* what is sampled or watched, and how */
    CLI_G_WORKLOAD,    /* the workload generated */
    CLI_G_APP_CACHE,   /* simulate's application tier */
    CLI_G_BUFFER_POOL, /* simulate's database tier */
    CLI_G_STORE,       /* replay's built-in store */
    CLI_G_TABLESPACE,  /* ddl's settings */
    CLI_G_MODEL,       /* engine, device, memory, performance model */
    CLI_G_SIMULATION,  /* the simulator's own settings */
    CLI_G_FIT,         /* calibrate's fit */
    CLI_G_MEASUREMENT, /* replay's rounds and clients */
    CLI_G_VALIDATION,  /* advise's validation of the advice */
    CLI_G_OUTPUT,      /* what is written, where and how */
    CLI_G_SAFETY,      /* --force, --fail-on: what may be changed, gates */
    CLI_G_GENERAL,     /* --quiet, --help */
    CLI_G_COUNT
};

struct cli_option {
    const char *name;     /* long name without "--" */
    int short_name;       /* single-letter alias or 0 */
    int has_arg;          /* CLI_T_CUSTOM: no_argument / required_argument */
    int id;               /* CLI_T_CUSTOM: value returned by cli_next() */
    const char *arg_name; /* e.g. "FILE"; NULL: none, or choices for enums */
    const char *help;     /* one sentence, no default in it */
    enum cli_opt_type type;
    size_t off;        /* where the value goes: offset in the args struct */
    size_t n_off;      /* CLI_T_SIZE_LIST: offset of the size_t count */
    size_t given_off;  /* 1 + offset of an int set when given; 0 = none */
    size_t max_items;  /* CLI_T_SIZE_LIST: capacity of the array */
    uint64_t min, max; /* CLI_T_UINT, CLI_T_SIZE(_LIST): inclusive range */
    double dmin, dmax; /* CLI_T_DOUBLE: range */
    int dmin_open;     /* CLI_T_DOUBLE: dmin itself is out of range */
    const char *const *choices; /* CLI_T_ENUM (or completion): NULL-ended */
    const char *def;            /* default as --help shows it; NULL = none */
    int required;               /* --help says "(required)" */
    enum cli_complete complete; /* what completion offers for the value */
    enum cli_io io;             /* a path: read or written (above) */
    const char *const *files;   /* CLI_IO_OUTDIR: names written, NULL-ended */
    int repeat;           /* a list option: may be given again, adding one */
    const char *same_as;  /* another spelling of option same_as ("json" is
                             --format json): giving both is a conflict */
    enum cli_group group; /* its heading in --help */
};
#define CLI_OPT_END                                                            \
    {                                                                          \
        .name = NULL                                                           \
    }
/* `.off = ` and `.given_off = ` for field f of args struct T. */
#define CLI_AT(T, f) .off = offsetof(T, f)
#define CLI_GIVEN(T, f) .given_off = offsetof(T, f) + 1
#define CLI_LIST(T, f, n)                                                      \
    .off = offsetof(T, f), .n_off = offsetof(T, n),                            \
    .max_items = sizeof(((T *)0)->f) / sizeof(((T *)0)->f[0])

/*
 * A command's front matter: what --help prints and completion reads. The
 * command table (cli/commands.c) points at one per command.
 */
/* Define cli_spec_<cmd> from the file's usage, description, examples and
   opts (the names every cmd_<name>.c uses). */
#define CLI_SPEC_DEFINE(cmd)                                                   \
    const struct cli_spec cli_spec_##cmd = {.name = #cmd,                      \
                                            .usage = usage,                    \
                                            .description = description,        \
                                            .examples = examples,              \
                                            .opts = opts}
struct pt_pathset;
struct cli_spec {
    const char *name;              /* "ddl" */
    const char *const *usage;      /* SYNOPSIS lines, NULL-terminated */
    const char *description;       /* paragraph printed by --help */
    const char *const *examples;   /* "command\0what it does" pairs... */
    const struct cli_option *opts; /* the table, ending in CLI_OPT_END */
    /* NULL, or the paths a command derives from its options' values (args
       struct `base`), added to *set for cli_paths_check (replay's store
       files); 0 or a PT_* status */
    int (*paths)(const void *base, struct pt_pathset *set, struct pt_err *err);
};
/* CLI_SPEC_DEFINE with the spec's `paths` hook. */
#define CLI_SPEC_DEFINE_PATHS(cmd, fn)                                         \
    const struct cli_spec cli_spec_##cmd = {.name = #cmd,                      \
                                            .usage = usage,                    \
                                            .description = description,        \
                                            .examples = examples,              \
                                            .opts = opts,                      \
                                            .paths = fn}

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
extern const char *const cli_format_choices[]; /* table, json, csv */
/* --engine of the ODBC commands: what coll_engine_parse() takes (it also
   takes aliases), for --help and completion. */
extern const char *const cli_db_engines[];
/* clang-format off */
#define CLI_OPT_HELP_ENTRY                                                     \
    {.name = "help", .short_name = 'h', .has_arg = no_argument,               \
     .id = CLI_OPT_HELP, .help = "show this help and exit",                   \
     .group = CLI_G_GENERAL}
#define CLI_OPT_OUTPUT_ENTRY                                                   \
    {.name = "output", .short_name = 'o', .has_arg = required_argument,       \
     .id = CLI_OPT_OUTPUT, .arg_name = "FILE",                                \
     .help = "write the result to FILE, atomically; - is stdout",             \
     .def = "-", .complete = CLI_C_AUTO, .io = CLI_IO_OUT,                    \
     .group = CLI_G_OUTPUT}
#define CLI_OPT_FORMAT_ENTRIES                                                 \
    {.name = "format", .has_arg = required_argument, .id = CLI_OPT_FORMAT,    \
     .arg_name = "FMT", .help = "output format: table, json or csv",          \
     .choices = cli_format_choices, .def = "table", .group = CLI_G_OUTPUT},   \
    {.name = "json", .has_arg = no_argument, .id = CLI_OPT_JSON,              \
     .help = "short for --format json", .same_as = "format",                  \
     .group = CLI_G_OUTPUT}
#define CLI_OPT_FORCE_ENTRY                                                    \
    {.name = "force", .short_name = 'f', .has_arg = no_argument,              \
     .id = CLI_OPT_FORCE, .help = "overwrite existing output files",          \
     .def = "refuse, exit 73", .group = CLI_G_SAFETY}
#define CLI_OPT_QUIET_ENTRY                                                    \
    {.name = "quiet", .short_name = 'q', .has_arg = no_argument,              \
     .id = CLI_OPT_QUIET, .help = "no progress or notes on stderr, only "     \
     "errors", .def = "off", .group = CLI_G_GENERAL}

/* The end of every table with a --format: --format, --json, --force,
   --quiet, --help and CLI_OPT_END. */
#define CLI_OPT_COMMON_ENTRIES_END                                             \
    CLI_OPT_FORMAT_ENTRIES, CLI_OPT_FORCE_ENTRY, CLI_OPT_QUIET_ENTRY,         \
    CLI_OPT_HELP_ENTRY, CLI_OPT_END

/* --dsn, --connect, --password-file, --password-env, --timeout
   (cli_conn_opt). */
#define CLI_OPT_CONN_ENTRIES                                                   \
    {.name = "dsn", .has_arg = required_argument, .id = CLI_OPT_DSN,          \
     .arg_name = "NAME", .help = "ODBC data source name from odbc.ini",       \
     .def = "none", .complete = CLI_C_DSN, .group = CLI_G_CONNECTION},        \
    {.name = "connect", .has_arg = required_argument, .id = CLI_OPT_CONNECT,  \
     .arg_name = "STR",                                                       \
     .help = "ODBC connection string \"Driver=...;...\"", .def = "none",      \
     .group = CLI_G_CONNECTION},                                              \
    {.name = "password-file", .has_arg = required_argument,                   \
     .id = CLI_OPT_PASSWORD_FILE, .arg_name = "FILE",                         \
     .help = "read the password from FILE, which must have mode 0600",        \
     .def = "none", .io = CLI_IO_IN, .group = CLI_G_CONNECTION},              \
    {.name = "password-env", .has_arg = required_argument,                    \
     .id = CLI_OPT_PASSWORD_ENV, .arg_name = "NAME",                          \
     .help = "read the password from environment variable NAME",              \
     .def = "none", .group = CLI_G_CONNECTION},                               \
    {.name = "timeout", .has_arg = required_argument, .id = CLI_OPT_TIMEOUT,  \
     .arg_name = "SEC",                                                       \
     .help = "give up (exit 69) when the server has not answered for SEC "    \
     "seconds", .def = "30", .group = CLI_G_CONNECTION}
/* --percent and --rows of sample and advise, stored into S.percent and
   S.rows of args struct T (S a struct coll_sample_opts or one with the
   same two fields; the use site includes collect/collect.h). */
#define CLI_OPT_SAMPLE_SIZE_ENTRIES(T, S)                                      \
    {.name = "percent", .type = CLI_T_DOUBLE, CLI_AT(T, S.percent),           \
     .dmin = 0, .dmin_open = 1, .dmax = 100, .arg_name = "P",                 \
     .help = "sample P percent of the rows on the server, 0 < P <= 100",      \
     .def = "all rows", .group = CLI_G_SAMPLING},                             \
    {.name = "rows", .type = CLI_T_UINT, CLI_AT(T, S.rows), .min = 1,         \
     .max = COLL_MAX_SAMPLE_ROWS, .arg_name = "N",                            \
     .help = "sample N random rows on the server", .def = "all rows",         \
     .group = CLI_G_SAMPLING}
/* Entries of the performance model (pagetune-simulate(1) MODEL), one
   definition for every command that offers them. T is the command's args
   struct, its struct perf_profiles field is `model` (the use site includes
   perf/perf.h); GIVEN is CLI_GIVEN(T, flag) to record that one was given,
   or CLI_NOT_GIVEN. */
#define CLI_NOT_GIVEN .given_off = 0
#define CLI_OPT_APPSERVER_ENTRY(T, GIVEN)                                      \
    {.name = "appserver", .type = CLI_T_STRING,                               \
     CLI_AT(T, model.appserver), GIVEN, .arg_name = "NAME|FILE",              \
     .help = "application-server profile with its costs",                     \
     .def = "websphere-4", .complete = CLI_C_APPSERVER, .io = CLI_IO_PROFILE, \
     .group = CLI_G_MODEL}
#define CLI_OPT_FSCACHE_ENTRY(T, GIVEN)                                        \
    {.name = "fscache-share", .type = CLI_T_DOUBLE,                           \
     CLI_AT(T, model.fscache_share), GIVEN, .dmin = 0, .dmax = 1,             \
     .arg_name = "F",                                                         \
     .help = "share of direct (LONG/LOB) I/O the file-system cache serves: "  \
     "1 SMS, 0 raw DMS", .def = "1", .group = CLI_G_MODEL}
#define CLI_OPT_PAGE_FSCACHE_ENTRY(T, GIVEN)                                   \
    {.name = "page-fscache-share", .type = CLI_T_DOUBLE,                      \
     CLI_AT(T, model.page_fscache_share), GIVEN, .dmin = 0, .dmax = 1,        \
     .arg_name = "F",                                                         \
     .help = "share of page reads and writes the file-system cache serves "   \
     "(a store on files: 1)", .def = "0", .group = CLI_G_MODEL}
/* --think-ms, --calibration, --appserver, --fscache-share of a predicting
   command: T also has `double think_ms` and `int model_opt` (set when one
   of them was given). --clients, whose meaning differs, is the command's. */
#define CLI_OPT_MODEL_ENTRIES(T)                                               \
    {.name = "think-ms", .type = CLI_T_DOUBLE, CLI_AT(T, think_ms),           \
     CLI_GIVEN(T, model_opt), .dmin = 0, .dmax = 1e9, .arg_name = "Z",        \
     .help = "think time between a client's requests, ms", .def = "0",        \
     .group = CLI_G_MODEL},                                                   \
    {.name = "calibration", .type = CLI_T_STRING,                             \
     CLI_AT(T, model.calibration), CLI_GIVEN(T, model_opt),                   \
     .arg_name = "NAME|FILE",                                                 \
     .help = "calibration profile (profiles/calibrations/)",                  \
     .def = "none, uncalibrated", .complete = CLI_C_CALIBRATION,              \
     .io = CLI_IO_PROFILE, .group = CLI_G_MODEL},                             \
    CLI_OPT_APPSERVER_ENTRY(T, CLI_GIVEN(T, model_opt)),                      \
    CLI_OPT_FSCACHE_ENTRY(T, CLI_GIVEN(T, model_opt))
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
    const char *const *examples;   /* pairs (what, command line), or NULL */
    void *base;                    /* args struct typed options go into */
    const struct cli_spec *spec;   /* cli_parse_spec's, else NULL */
    struct {                       /* CLI_T_CUSTOM path options as given */
        const struct cli_option *o;
        const char *arg;
    } paths[64];
    size_t n_paths;
    struct option longopts[64];
    char shortopts[128];
    /* per table entry: given already, and with which value (the check of
       repeated and conflicting options, cli_next_opt) */
    unsigned char given[64];
    const char *given_arg[64];
    int argc;
    char **argv;
};

/*
 * Prepare parsing with a command's spec; typed options are stored into
 * base (the args struct the table's offsets refer to). Returns 0, or
 * PT_EINTERNAL if the table is too large.
 */
int cli_parse_spec(struct cli_parser *p, const struct cli_spec *spec,
                   void *base, int argc, char **argv);
/* The same without a spec, for tables of CLI_T_CUSTOM options only. */
int cli_parse_begin(struct cli_parser *p, const char *cmd,
                    const struct cli_option *opts, const char *const *usage,
                    const char *description, int argc, char **argv);
/*
 * Next option: its id and *arg (NULL without argument); -1 at the end;
 * on an unknown option or missing argument prints one line and returns
 * -2 (the command then returns exit code 64). Typed options are stored
 * and returned as CLI_OPT_STORED, or -2 after a one-line range or value
 * error ("--interval: 0 is out of range 0.1..86400").
 */
enum { CLI_OPT_STORED = 999 };
int cli_next_opt(struct cli_parser *p, const char **arg);
/*
 * Store arg as option o's value into base (what cli_next_opt does for a
 * typed option). Returns 0, or PT_EUSAGE with err set to the one-line
 * message ("--dialect: 'x' is not one of db2, ...").
 */
int cli_opt_store(const struct cli_option *o, void *base, const char *arg,
                  struct pt_err *err);
/*
 * The width --help wraps at for fp: COLUMNS if set, else the terminal's
 * width when fp is a TTY, else 80 (never below 40).
 */
int cli_term_width(FILE *fp);
/* Print --help for the parser's command to fp, wrapped at width. */
void cli_print_help_width(const struct cli_parser *p, FILE *fp, int width);
/* Print --help for the parser's command to fp (cli_term_width wide). */
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
 * --json, --force, --quiet) are taken into *c and the typed ones into the
 * args struct on the way. Returns the id of a CLI_T_CUSTOM option and
 * *arg, or CLI_NEXT_END after the last option, CLI_NEXT_HELP once --help
 * has been printed, CLI_NEXT_USAGE after a one-line usage error (unknown
 * option, missing value, out of range, bad --format, an argument that is
 * not an option: no command takes operands).
 */
enum { CLI_NEXT_END = -1, CLI_NEXT_USAGE = -2, CLI_NEXT_HELP = -3 };
int cli_next(struct cli_parser *p, struct cli_common *c, const char **arg);
/*
 * Parse all of argv for a table of typed and shared options only (no
 * CLI_T_CUSTOM of the command's own). Returns 0, CLI_HELP_SHOWN, or a
 * PT_* status after the one line.
 */
int cli_parse_all(struct cli_parser *p, const struct cli_spec *spec, void *base,
                  struct cli_common *c, int argc, char **argv);
/*
 * The one convention for a command's option parsing: its parse function
 * returns 0 to go on, CLI_HELP_SHOWN after --help, or a negative PT_*
 * status after printing its one line; cli_parse_exit() turns the last two
 * into the process's exit code (PT_EXIT_OK, PT_EXIT_USAGE, ...).
 */
int cli_parse_exit(int status);
/*
 * Handle a connection option (CLI_OPT_CONN_ENTRIES) into *conn: 1 if `id`
 * was one, 0 if not.
 */
struct coll_conn_opts;
int cli_conn_opt(struct coll_conn_opts *conn, int id, const char *arg);
/*
 * After parsing: exactly one of --dsn/--connect, at most one password
 * source. Returns 0, or PT_EUSAGE after the one-line usage error.
 */
int cli_conn_check(const char *cmd, const struct coll_conn_opts *conn);
/*
 * After a run that succeeded (a failing run says one line, its error): warn
 * once on stderr when a --connect value on the command line holds a
 * password (PWD= / Password=), unless -q / --quiet was given.
 */
void cli_warn_cmdline_password(const char *cmd, int argc, char **argv);
/* Defaults: output "-", table, progress if stderr is a TTY. */
void cli_common_init(struct cli_common *c);

/* ---- messages and exit codes ------------------------------------------- */

/* The process's exit codes (docs/exit-codes.md, pagetune(1)). */
enum {
    PT_EXIT_OK = 0,
    PT_EXIT_CHECK = 1,      /* drift found (--fail-on) */
    PT_EXIT_USAGE = 64,     /* EX_USAGE */
    PT_EXIT_DATA = 65,      /* EX_DATAERR */
    PT_EXIT_NOINPUT = 66,   /* EX_NOINPUT */
    PT_EXIT_UNAVAIL = 69,   /* EX_UNAVAILABLE */
    PT_EXIT_SOFTWARE = 70,  /* EX_SOFTWARE */
    PT_EXIT_CANTCREAT = 73, /* EX_CANTCREAT */
    PT_EXIT_IOERR = 74,     /* EX_IOERR */
    PT_EXIT_NOPERM = 77,    /* EX_NOPERM */
    PT_EXIT_INTR = 130,     /* 128 + SIGINT */
};
/* Map a PT_* status to its PT_EXIT_* code (the one table). */
int cli_exit_code(int status);
/*
 * A library's field names as the options of command `cmd` (core's
 * pt_field_map_fn; ctx is a struct cli_field_map): `page_size` ->
 * "--page-size" when the command has that option, else NULL.
 */
struct cli_field_map {
    const char *cmd;
    char opt[64];
};
const char *cli_field_option(void *ctx, const char *field);
/* Print "pagetune: <msg>" (or "pagetune CMD: <msg>") to stderr. */
void cli_error(const char *cmd, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Print err as one line and return its exit code. */
int cli_fail(const char *cmd, const struct pt_err *err);
/*
 * The library's words for a missing profile ("no engine profile 'x' ...",
 * model/'s loader) as the option the user typed: "--engine: no engine
 * profile ..." or device_opt ("--device", "--profile") for a device.
 */
void cli_profile_option(struct pt_err *err, const char *device_opt);
/* Usage error: one line plus a pointer to --help; returns 64. */
int cli_usage_error(const char *cmd, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/*
 * --trace-format of simulate and replay: the choices for a CLI_T_ENUM entry
 * (auto = by content, csv, oracle, and binary for oracle too) and the enum
 * sim_trace_format of a chosen index.
 */
extern const char *const cli_trace_formats[];
int cli_trace_format(int choice);
/*
 * A note on stderr unless quiet: "pagetune: " and the text, wrapped at
 * spaces to out_term_width(stderr) with continuation lines indented by two
 * (one line when stderr is no terminal and COLUMNS is not set: a log keeps
 * one line per note). cli_notice: the same for one command's note, always.
 */
void cli_notice(const char *cmd, const char *text);
void cli_note(const struct cli_common *c, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/*
 * Stopping: cli/main.c's handler records SIGINT, SIGTERM or SIGHUP in core
 * (pt_interrupt_note); the libraries' loops poll pt_interrupted() and
 * return PT_EINTR (docs/architecture.md#stop); from then on cli_error()
 * prints nothing, and main() prints the one "interrupted by" line and
 * exits 128 + the signal number. Progress hooks only draw.
 */
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
    double all_left_s; /* the whole job's seconds left, < 0 unknown */
    int all_at_most;   /* all_left_s is an upper bound */
};
void cli_progress_init(struct cli_progress *pg, const struct cli_common *c,
                       const char *label, uint64_t total);
/* Mark the bar as step `step` (1-based) of `n_steps`; after _init. */
void cli_progress_step(struct cli_progress *pg, unsigned step,
                       unsigned n_steps);
void cli_progress_update(struct cli_progress *pg, uint64_t done);
void cli_progress_done(struct cli_progress *pg);

/*
 * The bar of a plan of replays (the store plan's `work` hook, replay and
 * advise): one bar per stage named by store_plan_work_label, with the
 * stage's ETA and the whole plan's ("ETA 0:17, all at most 1:05" when the
 * rounds may stop early). STORE_STAGE_DONE clears it; so does
 * cli_plan_bar_clear (before a note).
 */
struct store_plan_work;
struct cli_plan_bar {
    struct cli_progress pg;
    char label[64];
    int on; /* pg holds a stage */
};
void cli_plan_bar_update(struct cli_plan_bar *b, const struct cli_common *c,
                         const struct store_plan_work *w);
void cli_plan_bar_clear(struct cli_plan_bar *b);

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
 * The CSV value of a cell that is a measure, not a count, in the one
 * format every CSV column of pagetune uses (docs/formats.md#csv): at most
 * 6 decimals, trailing zeros dropped, never an exponent ("0.5", "0",
 * "39344.21", "0.000123"); "" when v is not finite (pt_csv_num).
 */
int out_table_set_num(struct out_table *t, size_t col, double v);
/*
 * Write in the given format. Returns 0 or PT_EIO. The text table fits
 * out_term_width(fp) columns, PT_TEXT_PIPE_WIDTH when that is 0, without
 * splitting a word or a number: in columns (wide cells wrap at spaces),
 * transposed or as records, whichever fits first (core/text.c,
 * pt_text_table_write); no line ends in spaces.
 */
int out_table_write(const struct out_table *t, enum out_format fmt, FILE *fp,
                    struct pt_err *err);
/*
 * --oneline of recommend and advise (cli/oneline.c): one line for a change
 * ticket, what, predicted change, verdict, why, shorter than
 * CLI_ONELINE_MAX characters (a part that does not fit is left out whole).
 */
#define CLI_ONELINE_MAX 200
struct cli_oneline {
    const char *engine;
    uint32_t cur_page_size, rec_page_size; /* bytes; cur 0: unknown */
    uint64_t pool_pages;                   /* of rec_page_size */
    const char *pool_name;                 /* DB2's, else NULL */
    const char *settings; /* the engine's settings "k=v k=v", or NULL */
    int have_pred;
    double pred_pct;       /* the predicted change, percent */
    const char *pred_what; /* "req/s", "I/O per get (simulated)" */
    const char *verdict;   /* "confirms (measured +12.3 %)", or NULL */
    const char *why;       /* cli_oneline_why's, or NULL */
};
struct rec_result;
/* The key evidence of a recommendation in a few words, into buf. */
void cli_oneline_why(const struct rec_result *r, char *buf, size_t len);
/* The engine's settings of the advice as "k=v k=v" (not the ones that
   describe the server: current_*, previous_*), into buf. */
void cli_oneline_settings(const struct rec_result *r, char *buf, size_t len);
/* 0 or PT_EIO. */
int cli_oneline_write(const struct cli_oneline *o, FILE *fp,
                      struct pt_err *err);
/*
 * The closing summary of recommend's and advise's tables (cli/summary.c):
 * findings tagged ok / change / warning, then "next steps" (review,
 * apply, when, undo). Only the table format prints it.
 */
enum cli_tag { CLI_TAG_OK, CLI_TAG_CHANGE, CLI_TAG_WARNING };
struct cli_summary {
    struct out_table findings, steps;
    int n_tag[3]; /* findings per tag */
    int oom;      /* a row could not be added: the write fails */
};
/* 0 or PT_EINTERNAL; release with cli_summary_release (also then). */
int cli_summary_init(struct cli_summary *s);
void cli_summary_release(struct cli_summary *s);
void cli_summary_finding(struct cli_summary *s, enum cli_tag tag,
                         const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void cli_summary_step(struct cli_summary *s, const char *step, const char *fmt,
                      ...) __attribute__((format(printf, 3, 4)));
/* "db2 -tvf FILE", "psql ... -f FILE", ...: how the engine's create.sql
   is run, into buf. */
const char *cli_apply_command(const char *engine, const char *file, char *buf,
                              size_t len);
/* Both tables, as text. 0, PT_EIO or PT_EINTERNAL. */
int cli_summary_write(const struct cli_summary *s, FILE *fp,
                      struct pt_err *err);
/* Write a JSON document (pretty) with "schema_version" already in it. */
int out_json_write(const json_t *doc, FILE *fp, struct pt_err *err);
/*
 * The width text output must fit: $COLUMNS when set to a positive number,
 * else the terminal's width when fp is a terminal (TIOCGWINSZ), else 0 (a
 * file or a pipe: tables and --help then take PT_TEXT_PIPE_WIDTH, notes
 * stay one line).
 */
int out_term_width(FILE *fp);
/* Does stdout-style colour apply (NO_COLOR, --color, TTY)? */
int out_color_enabled(FILE *fp);

/*
 * The command's paths (docs/exit-codes.md#collisions), into *set: every
 * option of the table with an `io` role, the typed ones from the args
 * struct (their defaults included), the CLI_T_CUSTOM ones as given, -o
 * from c->output, an out-dir's `files` inside it, profiles resolved
 * (prof_resolve), then the spec's `paths` hook. 0 or a PT_* status.
 */
int cli_paths_collect(const struct cli_parser *p, const struct cli_common *c,
                      struct pt_pathset *set, struct pt_err *err);
/*
 * Refuse, before anything is opened for writing and with or without
 * --force, an output that names the same file as an input or another
 * output, or a path inside an out-dir replaced as one unit: one line
 * ("pagetune recommend: -o and --sizes name the same file 's.json'") and
 * PT_EUSAGE (exit 64). cli_next() calls it after the last option, so every
 * command checks its table's paths; 0 when there is no clash.
 */
int cli_paths_check(const struct cli_parser *p, const struct cli_common *c);

/*
 * Open the command's data output (-o FILE or stdout) atomically; on success
 * the caller writes to af->fp and calls pt_afile_commit().
 */
int cli_output_open(const struct cli_common *c, struct pt_afile *af,
                    struct pt_err *err);

/*
 * The command's result to its data output, whole or not at all: with
 * --format json the document `to_json(ctx)` builds (NULL = out of memory),
 * else what `to_table` writes; committed only when that succeeded.
 */
int cli_output_write(const struct cli_common *c,
                     json_t *(*to_json)(const void *ctx),
                     int (*to_table)(FILE *fp, enum out_format fmt,
                                     const void *ctx, struct pt_err *err),
                     const void *ctx, struct pt_err *err);

#endif /* PT_CLI_H */
