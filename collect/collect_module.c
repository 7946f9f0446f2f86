/* SPDX-License-Identifier: Apache-2.0 */
/* collect_module.c — placeholder translation unit so the library links. */
#include "collect/collect.h"

int pt_collect_module_present(void);
int pt_collect_module_present(void)
{
    return 1;
}
