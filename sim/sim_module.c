/* SPDX-License-Identifier: Apache-2.0 */
/* sim_module.c — placeholder translation unit so the library links. */
#include "sim/sim.h"

int pt_sim_module_present(void);
int pt_sim_module_present(void)
{
    return 1;
}
