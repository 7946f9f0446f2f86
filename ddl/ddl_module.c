/* SPDX-License-Identifier: Apache-2.0 */
/* ddl_module.c — placeholder translation unit so the library links. */
#include "ddl/ddl.h"

int pt_ddl_module_present(void);
int pt_ddl_module_present(void)
{
    return 1;
}
