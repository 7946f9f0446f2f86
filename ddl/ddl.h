/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ddl.h — public face of ddl/ (design.md §2). Filled in by its issue.
 */
#ifndef PT_DDL_H
#define PT_DDL_H

#include "core/core.h"

#endif
