/* SPDX-License-Identifier: Apache-2.0 */
/*
 * store.h — public face of store/ (design.md §2). Filled in by its issue.
 */
#ifndef PT_STORE_H
#define PT_STORE_H

#include "core/core.h"

#endif
