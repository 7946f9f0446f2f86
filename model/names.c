/* SPDX-License-Identifier: Apache-2.0 */
/*
 * names.c — the default names of the objects a recommendation creates
 * (DB2's buffer pool and table space), made in one place for recommend/
 * and ddl/.
 */
#include "model/model.h"

#include <stdio.h>

char *rec_default_name(enum rec_object kind, uint64_t page_size_bytes,
                       char *buf, size_t len)
{
    snprintf(buf, len, "%s%lluK",
             kind == REC_OBJ_BUFFERPOOL ? "SESSBP" : "SESSTS",
             (unsigned long long)(page_size_bytes / 1024));
    return buf;
}
