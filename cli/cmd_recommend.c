/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cmd_recommend.c — placeholder until the 'recommend' command lands (see its
 * issue). It fails loudly with exit 70 rather than pretend to work.
 */
#include "cli/cli.h"

int cmd_recommend(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    cli_error("recommend", "not implemented yet");
    return 70;
}
