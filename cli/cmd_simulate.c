/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cmd_simulate.c — placeholder until the 'simulate' command lands (see its
 * issue). It fails loudly with exit 70 rather than pretend to work.
 */
#include "cli/cli.h"

int cmd_simulate(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    cli_error("simulate", "not implemented yet");
    return 70;
}
