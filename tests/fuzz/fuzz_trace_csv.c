/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fuzz_trace_csv.c — fuzz target for the pagetune-trace(5) CSV reader
 * (time_ms,op,key,size with '#' comments), via sim_trace_open on a file;
 * see trace_common.h for the checks.
 */
#include "tests/fuzz/trace_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* the forced format, and the content sniffing the CLI uses */
    trace_fuzz_one(data, size, SIM_TRACE_CSV);
    return trace_fuzz_one(data, size, SIM_TRACE_AUTO);
}
