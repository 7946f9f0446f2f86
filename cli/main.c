/* SPDX-License-Identifier: Apache-2.0 */
/*
 * main.c — pagetune's entry point: the alphabetical command table, global
 * options (--help, --version, help COMMAND), and the interrupt handler. The
 * only process-wide mutable state of the program (the interrupt flag) lives
 * here; core/afile.c keeps the list of temp files the handler removes.
 */
#include "cli/cli.h"

#include <signal.h>
#include <string.h>
#include <unistd.h>

const struct cli_command cli_commands[] = {
    {"advise", cmd_advise,
     "sample, monitor, recommend, validate and write DDL in one run"},
    {"calibrate", cmd_calibrate,
     "fit the performance model's free costs to measured points"},
    {"ddl", cmd_ddl,
     "write CREATE BUFFERPOOL / TABLESPACE DDL and rollback for review"},
    {"monitor", cmd_monitor,
     "buffer-pool counters over ODBC: snapshots, deltas, hit ratios"},
    {"recommend", cmd_recommend,
     "page size, buffer pool and tablespace settings, with reasons"},
    {"replay", cmd_replay,
     "replay a trace on the built-in SQLite session store per page size"},
    {"sample", cmd_sample, "object-size distribution of a table over ODBC"},
    {"simulate", cmd_simulate,
     "replay a trace through an app-tier cache and a buffer pool"},
    {"workload", cmd_workload, "generate a trace from a workload profile"},
    {NULL, NULL, NULL},
};

static volatile sig_atomic_t interrupted;

int cli_interrupted(void)
{
    return interrupted != 0;
}

static void on_signal(int sig)
{
    (void)sig;
    if (interrupted) {
        /* second signal: leave now, without partial files */
        pt_afile_cleanup_signal();
        _exit(130);
    }
    interrupted = 1;
    pt_afile_cleanup_signal();
    _exit(130);
}

static void print_main_help(FILE *fp)
{
    fprintf(fp, "usage: pagetune COMMAND [OPTIONS]\n"
                "       pagetune help COMMAND | pagetune COMMAND --help\n"
                "       pagetune --version\n\n"
                "Advises DBAs on page size, buffer-pool size and tablespace "
                "settings for\ntables of large objects (HTTP sessions), shows "
                "the evidence, writes DDL\nfor review and validates the advice "
                "by simulation and replay.\n\ncommands:\n");
    for (const struct cli_command *c = cli_commands; c->name; c++)
        fprintf(fp, "  %-10s  %s\n", c->name, c->summary);
    fprintf(fp, "\nexit status: 0 ok, 1 drift found (--fail-on), 64 usage, "
                "65 bad data,\n66 missing input, 69 database unavailable, "
                "70 internal, 73 cannot create\noutput, 74 write error, "
                "77 permission denied, 130 interrupted.\n"
                "See pagetune(1) and pagetune-COMMAND(1).\n");
}

static const struct cli_command *find_command(const char *name)
{
    for (const struct cli_command *c = cli_commands; c->name; c++)
        if (strcmp(c->name, name) == 0)
            return c;
    return NULL;
}

int main(int argc, char **argv)
{
    const struct cli_command *cmd;
    struct sigaction sa;

    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    signal(SIGPIPE, SIG_IGN);

    if (argc < 2) {
        print_main_help(stderr);
        return 64;
    }
    if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "-V") == 0) {
        printf("pagetune %s\ndata directory: %s\n", PT_VERSION, pt_data_dir());
        return fflush(stdout) == 0 && !ferror(stdout) ? 0 : 74;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        print_main_help(stdout);
        return fflush(stdout) == 0 && !ferror(stdout) ? 0 : 74;
    }
    if (strcmp(argv[1], "help") == 0) {
        char *hargv[3];
        if (argc < 3) {
            print_main_help(stdout);
            return 0;
        }
        cmd = find_command(argv[2]);
        if (!cmd)
            return cli_usage_error(NULL, "unknown command '%s'", argv[2]);
        hargv[0] = argv[2];
        hargv[1] = "--help";
        hargv[2] = NULL;
        return cmd->fn(2, hargv);
    }
    if (argv[1][0] == '-')
        return cli_usage_error(NULL, "unknown option '%s'", argv[1]);
    cmd = find_command(argv[1]);
    if (!cmd)
        return cli_usage_error(NULL, "unknown command '%s'", argv[1]);
    return cmd->fn(argc - 1, argv + 1);
}
