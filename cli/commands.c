/* SPDX-License-Identifier: Apache-2.0 */
/*
 * commands.c — the alphabetical command table and the hidden
 * `pagetune __complete` subcommand the completions in completion/ (bash,
 * zsh, fish) ask: both read each command's spec (cli_spec_<name>, in
 * cli/cmd_<name>.c), so completion offers exactly the options, choices and
 * value kinds the option tables declare. main.c dispatches; opts.c parses.
 */
#include "cli/cli.h"

#include <dirent.h>
#include <string.h>

#include "sim/sim.h"

const struct cli_command cli_commands[] = {
    {"advise", cmd_advise,
     "sample, monitor, recommend, validate and write DDL in one run",
     &cli_spec_advise},
    {"calibrate", cmd_calibrate,
     "fit the performance model's free costs to measured points",
     &cli_spec_calibrate},
    {"ddl", cmd_ddl,
     "write CREATE BUFFERPOOL / TABLESPACE DDL and rollback for review",
     &cli_spec_ddl},
    {"diff", cmd_diff,
     "what changed between two recommendations (exit 1: the advice)",
     &cli_spec_diff},
    {"monitor", cmd_monitor,
     "buffer-pool counters over ODBC: snapshots, deltas, hit ratios",
     &cli_spec_monitor},
    {"probe", cmd_probe,
     "measure this machine's store costs: a calibration for the predictions",
     &cli_spec_probe},
    {"recommend", cmd_recommend,
     "page size, buffer pool and tablespace settings, with reasons",
     &cli_spec_recommend},
    {"replay", cmd_replay,
     "replay a trace on the built-in store or a PostgreSQL server",
     &cli_spec_replay},
    {"sample", cmd_sample, "object-size distribution of a table over ODBC",
     &cli_spec_sample},
    {"simulate", cmd_simulate,
     "replay a trace through an app-tier cache and a buffer pool",
     &cli_spec_simulate},
    {"workload", cmd_workload, "generate a trace from a workload profile",
     &cli_spec_workload},
    {NULL, NULL, NULL, NULL},
};

const struct cli_command *cli_command_find(const char *name)
{
    for (const struct cli_command *c = cli_commands; c->name; c++)
        if (strcmp(c->name, name) == 0)
            return c;
    return NULL;
}

int cli_unknown_command(const char *name)
{
    struct pt_suggest sg;
    char hint[400];

    pt_suggest_init(&sg, name);
    for (const struct cli_command *c = cli_commands; c->name; c++)
        pt_suggest_add(&sg, c->name);
    pt_suggest_hint(&sg, "", "'", hint, sizeof(hint));
    return cli_usage_error(NULL, "unknown command '%s'%s%s", name,
                           *hint ? "; " : "", hint);
}

int cli_option_before_command(int argc, char **argv)
{
    const struct cli_command *cmd = NULL;
    const char *opt = argv[1];
    char name[80], hint[400] = "";
    struct pt_suggest sg;
    size_t len = strcspn(opt, "=");

    for (int i = 2; i < argc && !cmd; i++)
        if (argv[i][0] != '-')
            cmd = cli_command_find(argv[i]);
    if (!cmd || !cmd->spec)
        return cli_usage_error(NULL,
                               "unknown option '%s': before a command only "
                               "--help and --version are known",
                               opt);
    snprintf(name, sizeof(name), "%.*s", (int)len, opt);
    pt_suggest_init(&sg, name + strspn(name, "-"));
    for (const struct cli_option *o = cmd->spec->opts; o->name; o++)
        if (opt[1] != '-' ? opt[1] == o->short_name && o->short_name
                          : strcmp(o->name, name + 2) == 0)
            return cli_usage_error(NULL,
                                   "'%s' goes after the command: pagetune %s "
                                   "%s ...",
                                   name, cmd->name, opt);
        else
            pt_suggest_add(&sg, o->name);
    if (opt[1] != '-') /* a short option is not a long one's abbreviation */
        pt_suggest_init(&sg, NULL);
    pt_suggest_hint(&sg, "--", "", hint, sizeof(hint));
    return cli_usage_error(NULL,
                           "unknown option '%s': options go after the command "
                           "(pagetune %s --OPTION)%s%s",
                           name, cmd->name, *hint ? "; " : "", hint);
}

/* The word completion uses for an option's value. */
static const char *value_kind(const struct cli_option *o)
{
    static const char *const kinds[] = {
        [CLI_C_ENGINE] = "engine",           [CLI_C_DEVICE] = "device",
        [CLI_C_WORKLOAD] = "workload",       [CLI_C_DSN] = "dsn",
        [CLI_C_DIALECT] = "dialect",         [CLI_C_POLICY] = "policy",
        [CLI_C_CALIBRATION] = "calibration", [CLI_C_APPSERVER] = "appserver",
    };

    if (o->complete != CLI_C_AUTO)
        return kinds[o->complete];
    if (o->choices)
        return "choice";
    switch (o->type) {
    case CLI_T_FLAG:
        return "flag";
    case CLI_T_PATH:
        return "file";
    case CLI_T_DIR:
        return "dir";
    case CLI_T_CUSTOM:
        if (o->has_arg == no_argument)
            return "flag";
        return o->arg_name && strstr(o->arg_name, "FILE") ? "file" : "value";
    default:
        return "value";
    }
}

static int has_control(const char *s)
{
    for (; *s; s++)
        if ((unsigned char)*s < 0x20 || *s == 0x7f)
            return 1;
    return 0;
}

/* Names of the entries of DIR ending in suffix ("" = directories), one a
   line. A name holding a control character is left out: a newline would
   split it into two words, a tab would read as fish's description. Other
   names are printed as they are; the completion scripts treat every word
   as data (tests/cli/test_completion_shells.sh). */
static void list_dir(const char *sub, const char *suffix)
{
    char path[4200];
    DIR *d;
    struct dirent *e;
    size_t ls = strlen(suffix);

    snprintf(path, sizeof(path), "%s/%s", pt_data_dir(), sub);
    if (!(d = opendir(path)))
        return;
    while ((e = readdir(d))) {
        size_t n = strlen(e->d_name);
        if (e->d_name[0] == '.' || has_control(e->d_name))
            continue;
        if (ls && (n <= ls || strcmp(e->d_name + n - ls, suffix) != 0))
            continue;
        printf("%.*s\n", (int)(n - ls), e->d_name);
    }
    closedir(d);
}

static void print_values(const struct cli_option *o)
{
    char names[512];

    switch (o->complete) {
    case CLI_C_ENGINE:
        list_dir("profiles/engines", ".yaml");
        return;
    case CLI_C_DEVICE:
        list_dir("profiles/devices", ".yaml");
        return;
    case CLI_C_WORKLOAD:
        list_dir("profiles/workloads", ".yaml");
        return;
    case CLI_C_CALIBRATION:
        list_dir("profiles/calibrations", ".yaml");
        return;
    case CLI_C_APPSERVER:
        list_dir("profiles/appservers", ".yaml");
        return;
    case CLI_C_DIALECT:
        list_dir("ddl_templates", "");
        return;
    case CLI_C_POLICY:
        /* "lru, fifo, ..." */
        sim_policy_names(names, sizeof(names));
        for (char *s = strtok(names, ", "); s; s = strtok(NULL, ", "))
            printf("%s\n", s);
        return;
    default:
        for (size_t i = 0; o->choices && o->choices[i]; i++)
            printf("%s\n", o->choices[i]);
        return;
    }
}

/*
 * pagetune __complete                 commands, one a line
 * pagetune __complete CMD             "--name KIND" per option
 * pagetune __complete CMD --name      the values to offer for --name
 * pagetune __complete @KIND           the values of a kind (@engine, ...)
 * pagetune __complete -d [CMD]        commands, or CMD's options, each
 *                                     "NAME<TAB>summary or help" (zsh and
 *                                     fish show the descriptions)
 * KIND is flag, file, dir, value, choice, engine, device, workload, dsn,
 * dialect, policy, calibration or appserver; DSNs are left to the script (it
 * reads odbc.ini).
 */
int cli_complete(int argc, char **argv)
{
    const struct cli_command *cmd;
    int describe = argc >= 2 && strcmp(argv[1], "-d") == 0;

    if (describe) {
        argc--;
        argv++;
    }
    if (argc < 2) {
        for (const struct cli_command *c = cli_commands; c->name; c++)
            printf(describe ? "%s\t%s\n" : "%s\n", c->name, c->summary);
        return fflush(stdout) == 0 && !ferror(stdout) ? PT_EXIT_OK
                                                      : PT_EXIT_IOERR;
    }
    if (describe) {
        if (!(cmd = cli_command_find(argv[1])) || !cmd->spec || argc > 2)
            return PT_EXIT_USAGE;
        for (const struct cli_option *o = cmd->spec->opts; o->name; o++)
            printf("--%s\t%s\n", o->name, o->help);
        return fflush(stdout) == 0 && !ferror(stdout) ? PT_EXIT_OK
                                                      : PT_EXIT_IOERR;
    }
    if (argv[1][0] == '@') { /* a value kind, whatever the command */
        for (int k = CLI_C_ENGINE; k <= CLI_C_APPSERVER; k++) {
            struct cli_option o = {.complete = (enum cli_complete)k};
            if (strcmp(argv[1] + 1, value_kind(&o)) == 0) {
                print_values(&o);
                return fflush(stdout) == 0 && !ferror(stdout) ? PT_EXIT_OK
                                                              : PT_EXIT_IOERR;
            }
        }
        return PT_EXIT_USAGE;
    }
    cmd = cli_command_find(argv[1]);
    if (!cmd || !cmd->spec)
        return PT_EXIT_USAGE;
    for (const struct cli_option *o = cmd->spec->opts; o->name; o++) {
        if (argc < 3)
            printf("--%s %s\n", o->name, value_kind(o));
        else if (strncmp(argv[2], "--", 2) == 0 &&
                 strcmp(argv[2] + 2, o->name) == 0)
            print_values(o);
    }
    return fflush(stdout) == 0 && !ferror(stdout) ? PT_EXIT_OK : PT_EXIT_IOERR;
}
