/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cmd_ddl.c — placeholder until the 'ddl' command lands (see its issue).
 * It fails loudly with exit 70 rather than pretend to work.
 */
#include "cli/cli.h"

int cmd_ddl(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    cli_error("ddl", "not implemented yet");
    return 70;
}
