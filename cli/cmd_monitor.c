/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cmd_monitor.c — placeholder until the 'monitor' command lands (see its
 * issue). It fails loudly with exit 70 rather than pretend to work.
 */
#include "cli/cli.h"

int cmd_monitor(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    cli_error("monitor", "not implemented yet");
    return 70;
}
