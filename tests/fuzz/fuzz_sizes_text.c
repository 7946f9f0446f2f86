/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fuzz_sizes_text.c — fuzz target for the plain-text sizes list that
 * `recommend --sizes` accepts (rec_sizes_parse_text: one integer per line,
 * '#' comments), followed by the statistics computed from it. The buffer
 * is handed over without a terminating NUL, as the CLI's file reader
 * length-delimits it.
 */
#include "model/model.h"
#include "tests/fuzz/fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct rec_sizes s;
    struct rec_size_stats st;
    struct pt_err err = {0};
    int rc;

    rc = rec_sizes_parse_text(&s, (const char *)data, size, "sizes.txt", &err);
    FUZZ_CHECK(rc == 0 || rc == PT_EDATA || rc == PT_EINTERNAL);
    FUZZ_CHECK_ERR(rc, err);
    if (rc < 0) {
        FUZZ_CHECK(s.values == NULL && s.n == 0);
        return 0;
    }
    FUZZ_CHECK(s.n > 0 && s.values != NULL);
    rc = rec_stats_compute(&st, s.values, s.n, &err);
    FUZZ_CHECK(rc == 0);
    FUZZ_CHECK(st.count == s.n && st.min <= st.p50 && st.p50 <= st.p90 &&
               st.p90 <= st.p95 && st.p95 <= st.p99 && st.p99 <= st.max);
    rec_sizes_release(&s);
    return 0;
}
