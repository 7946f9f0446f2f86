/* SPDX-License-Identifier: Apache-2.0 */
/*
 * analyzers.h — public face of analyzers/ (design.md §2). Filled in by its
 * issue.
 */
#ifndef PT_ANALYZERS_H
#define PT_ANALYZERS_H

#include "core/core.h"

#endif
