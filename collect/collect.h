/* SPDX-License-Identifier: Apache-2.0 */
/*
 * collect.h — public face of collect/ (design.md §2). Filled in by its issue.
 */
#ifndef PT_COLLECT_H
#define PT_COLLECT_H

#include "core/core.h"

#endif
