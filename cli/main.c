/* SPDX-License-Identifier: Apache-2.0 */
/*
 * main.c — pagetune's entry point: global options (--help, --version,
 * help COMMAND), dispatch through the command table (cli/commands.c), the
 * hidden `__complete` subcommand, and the interrupt handler. The
 * only process-wide mutable state of the program (the interrupt flag) lives
 * here; core/afile.c keeps the list of temp files the handler removes.
 */
#include "cli/cli.h"

#include <signal.h>
#include <string.h>
#include <unistd.h>

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
        _exit(PT_EXIT_INTR);
    }
    interrupted = 1;
    pt_afile_cleanup_signal();
    _exit(PT_EXIT_INTR);
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
        return PT_EXIT_USAGE;
    }
    if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "-V") == 0) {
        printf("pagetune %s\ndata directory: %s\n", PT_VERSION, pt_data_dir());
        return fflush(stdout) == 0 && !ferror(stdout) ? PT_EXIT_OK
                                                      : PT_EXIT_IOERR;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        print_main_help(stdout);
        return fflush(stdout) == 0 && !ferror(stdout) ? PT_EXIT_OK
                                                      : PT_EXIT_IOERR;
    }
    if (strcmp(argv[1], "help") == 0) {
        char *hargv[3];
        if (argc < 3) {
            print_main_help(stdout);
            return fflush(stdout) == 0 && !ferror(stdout) ? PT_EXIT_OK
                                                          : PT_EXIT_IOERR;
        }
        cmd = cli_command_find(argv[2]);
        if (!cmd)
            return cli_usage_error(NULL, "unknown command '%s'", argv[2]);
        hargv[0] = argv[2];
        hargv[1] = "--help";
        hargv[2] = NULL;
        return cmd->fn(2, hargv);
    }
    if (strcmp(argv[1], "__complete") == 0) /* completion/pagetune.bash */
        return cli_complete(argc - 1, argv + 1);
    if (argv[1][0] == '-')
        return cli_usage_error(NULL, "unknown option '%s'", argv[1]);
    cmd = cli_command_find(argv[1]);
    if (!cmd)
        return cli_usage_error(NULL, "unknown command '%s'", argv[1]);
    return cmd->fn(argc - 1, argv + 1);
}
