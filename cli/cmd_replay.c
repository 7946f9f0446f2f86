/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cmd_replay.c — placeholder until the 'replay' command lands (see its issue).
 * It fails loudly with exit 70 rather than pretend to work.
 */
#include "cli/cli.h"

int cmd_replay(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    cli_error("replay", "not implemented yet");
    return 70;
}
