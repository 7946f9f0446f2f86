/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cmd_advise.c — placeholder until the 'advise' command lands (see its issue).
 * It fails loudly with exit 70 rather than pretend to work.
 */
#include "cli/cli.h"

int cmd_advise(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    cli_error("advise", "not implemented yet");
    return 70;
}
