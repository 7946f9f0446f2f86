/* SPDX-License-Identifier: Apache-2.0 */
/* analyzers_module.c — placeholder translation unit so the library links. */
#include "analyzers/analyzers.h"

int pt_analyzers_module_present(void);
int pt_analyzers_module_present(void)
{
    return 1;
}
