/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cmd_sample.c — placeholder until the 'sample' command lands (see its issue).
 * It fails loudly with exit 70 rather than pretend to work.
 */
#include "cli/cli.h"

int cmd_sample(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    cli_error("sample", "not implemented yet");
    return 70;
}
