/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fuzz_trace_oracle.c — fuzz target for the libCacheSim oracleGeneral
 * binary reader (24-byte little-endian records), via sim_trace_open on a
 * file; see trace_common.h for the checks.
 */
#include "tests/fuzz/trace_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return trace_fuzz_one(data, size, SIM_TRACE_ORACLE);
}
