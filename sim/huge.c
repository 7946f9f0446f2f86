/* SPDX-License-Identifier: Apache-2.0 */
/*
 * huge.c — sim_huge_pages (sim_int.h): the transparent-huge-page hint for
 * the simulator's large random-access tables. Its own file because
 * MADV_HUGEPAGE and madvise(2) are Linux/BSD extensions that need
 * _DEFAULT_SOURCE, while the project builds with _POSIX_C_SOURCE only.
 * Elsewhere, or where the kernel refuses, it does nothing.
 */
#define _DEFAULT_SOURCE 1

#include "sim/sim_int.h"

#include <stdint.h>
#if defined(__linux__)
#include <sys/mman.h>
#endif

void sim_huge_pages(void *p, size_t bytes)
{
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    uintptr_t a = ((uintptr_t)p + 4095) & ~(uintptr_t)4095;
    uintptr_t e = ((uintptr_t)p + bytes) & ~(uintptr_t)4095;

    if (p && bytes >= ((size_t)4 << 20) && e > a)
        (void)madvise((void *)a, e - a, MADV_HUGEPAGE);
#else
    (void)p;
    (void)bytes;
#endif
}
