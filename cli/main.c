/* SPDX-License-Identifier: Apache-2.0 */
/*
 * main.c — pagetune's entry point: global options (--help, --version,
 * help COMMAND), dispatch through the command table (cli/commands.c), the
 * hidden `__complete` subcommand, and the signal handling of the
 * interruption model (pagetune(1), SIGNALS). The first SIGINT, SIGTERM or
 * SIGHUP is recorded in core (pt_interrupt_note); the command's loops see it
 * through pt_interrupted() and unwind through their normal cleanup; main()
 * then prints the one line and returns 128 + the signal number. A second
 * signal removes the registered temporary paths and exits at once.
 */
#include "cli/cli.h"

#include <signal.h>
#include <string.h>
#include <unistd.h>

/* The signals that stop a run, with the names used in the one line. */
static const struct {
    int sig;
    const char *name;
} stop_signals[] = {
    {SIGINT, "SIGINT"},
    {SIGTERM, "SIGTERM"},
    {SIGHUP, "SIGHUP"},
};

static const char *signal_name(int sig)
{
    for (size_t i = 0; i < sizeof(stop_signals) / sizeof(stop_signals[0]); i++)
        if (stop_signals[i].sig == sig)
            return stop_signals[i].name;
    return "a signal";
}

/*
 * Async-signal-safe only (signal-safety(7)): the first signal is recorded;
 * the second removes the registered temporary files and directories, writes
 * the one line with write(2) and _exits with the first signal's code.
 */
static void on_signal(int sig)
{
    int first = pt_interrupt_note(sig), done = pt_committed();

    if (!first)
        return;
    pt_cleanup_signal();
    {
        static const char head[] = "pagetune: interrupted by ";
        static const char late[] = " after the outputs were committed";
        const char *name = signal_name(first);
        ssize_t ignored;
        ignored = write(STDERR_FILENO, head, sizeof(head) - 1);
        ignored = write(STDERR_FILENO, name, strlen(name));
        if (done)
            ignored = write(STDERR_FILENO, late, sizeof(late) - 1);
        ignored = write(STDERR_FILENO, "\n", 1);
        (void)ignored;
    }
    _exit(done ? 0 : 128 + first); /* committed outputs are a success */
}

/*
 * SA_RESTART is left out on purpose: a blocking read or sleep returns EINTR
 * so the loop around it sees the flag. SIGXFSZ (ulimit -f) is ignored so
 * that write(2) fails with EFBIG and the normal error path cleans up (exit
 * 74) instead of the default core dump; SIGPIPE likewise becomes EPIPE, so
 * that a database socket closed under a driver is an error, not a death.
 * Standard output is the exception, in finish(): a pipeline reader that has
 * gone (`pagetune replay ... | head -1`) ends the run as SIGPIPE would.
 */
static void signals_install(void)
{
    struct sigaction sa;

    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < sizeof(stop_signals) / sizeof(stop_signals[0]); i++)
        sigaddset(&sa.sa_mask, stop_signals[i].sig);
    for (size_t i = 0; i < sizeof(stop_signals) / sizeof(stop_signals[0]); i++)
        sigaction(stop_signals[i].sig, &sa, NULL);
    signal(SIGPIPE, SIG_IGN);
    signal(SIGXFSZ, SIG_IGN);
}

/*
 * After the command: a temporary path it left registered is removed; if a
 * signal arrived, whatever the command returned, the run was interrupted:
 * one line (the command's own error lines are held back, cli_error) and
 * 128 + the signal number (130 for SIGINT, pagetune(1) EXIT STATUS).
 * Once the outputs are committed (an out-dir swapped in) a signal no
 * longer fails the run: the line names it and the code is 0 (1 for drift).
 * A write error because the reader of standard output has gone (cli_error
 * held its "Broken pipe" line back) ends quietly the way a shell pipeline
 * expects: killed by SIGPIPE with its default disposition, status 141
 * (pagetune(1), SIGNALS).
 */
static int finish(int rc)
{
    int sig;

    pt_cleanup_all();
    sig = pt_interrupted();
    if (!sig && rc == PT_EXIT_IOERR && cli_stdout_gone()) {
        fflush(stderr);
        signal(SIGPIPE, SIG_DFL);
        raise(SIGPIPE);
        return 128 + SIGPIPE; /* not reached unless SIGPIPE is blocked */
    }
    if (!sig)
        return rc;
    if (pt_committed()) {
        /* the outputs are complete and in place: the run succeeded */
        fprintf(stderr,
                "pagetune: %s arrived after the outputs were committed; "
                "they are complete\n",
                signal_name(sig));
        return rc == PT_EXIT_CHECK ? rc : PT_EXIT_OK; /* drift stays 1 */
    }
    fprintf(stderr, "pagetune: interrupted by %s\n", signal_name(sig));
    return 128 + sig;
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
    fprintf(fp, "\nexit status: 0 ok, 1 drift found (--fail-on) or advice "
                "changed (diff),\n64 usage, 65 bad data, 66 missing input, "
                "69 database unavailable, 70 internal,\n73 cannot create "
                "output, 74 write error, 77 permission denied,\n"
                "130 interrupted (SIGINT; 129 SIGHUP, 143 SIGTERM).\n"
                "See pagetune(1) and pagetune-COMMAND(1).\n");
}

int main(int argc, char **argv)
{
    const struct cli_command *cmd;

    signals_install();

    if (argc < 2) {
        print_main_help(stderr);
        return PT_EXIT_USAGE;
    }
    if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "-V") == 0) {
        printf("pagetune %s\ndata directory: %s\n", PT_VERSION, pt_data_dir());
        return finish(fflush(stdout) == 0 && !ferror(stdout) ? PT_EXIT_OK
                                                             : PT_EXIT_IOERR);
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        print_main_help(stdout);
        return finish(fflush(stdout) == 0 && !ferror(stdout) ? PT_EXIT_OK
                                                             : PT_EXIT_IOERR);
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
            return cli_unknown_command(argv[2]);
        hargv[0] = argv[2];
        hargv[1] = "--help";
        hargv[2] = NULL;
        return finish(cmd->fn(2, hargv));
    }
    if (strcmp(argv[1], "__complete") == 0) /* completion/ */
        return cli_complete(argc - 1, argv + 1);
    if (argv[1][0] == '-')
        return cli_option_before_command(argc, argv);
    cmd = cli_command_find(argv[1]);
    if (!cmd)
        return cli_unknown_command(argv[1]);
    {
        int code = cmd->fn(argc - 1, argv + 1);
        /* A command succeeds only once every output it writes is in place
           (pt_afile_commit renames nothing after a signal): a signal
           recorded by now arrived after the commit (issue 30, point 7) */
        if ((code == PT_EXIT_OK || code == PT_EXIT_CHECK) && pt_interrupted())
            pt_commit_note();
        if (code == PT_EXIT_OK || code == PT_EXIT_CHECK) /* else one line */
            cli_warn_cmdline_password(cmd->name, argc - 1, argv + 1);
        return finish(code);
    }
}
