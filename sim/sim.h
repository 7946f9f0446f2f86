/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sim.h — public face of sim/ (design.md §2). Filled in by its issue.
 */
#ifndef PT_SIM_H
#define PT_SIM_H

#include "core/core.h"

#endif
