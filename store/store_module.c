/* SPDX-License-Identifier: Apache-2.0 */
/* store_module.c — placeholder translation unit so the library links. */
#include "store/store.h"

int pt_store_module_present(void);
int pt_store_module_present(void)
{
    return 1;
}
