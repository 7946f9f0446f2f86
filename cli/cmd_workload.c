/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cmd_workload.c — placeholder until the 'workload' command lands (see its
 * issue). It fails loudly with exit 70 rather than pretend to work.
 */
#include "cli/cli.h"

int cmd_workload(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    cli_error("workload", "not implemented yet");
    return 70;
}
