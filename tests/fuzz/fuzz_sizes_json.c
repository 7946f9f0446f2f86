/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fuzz_sizes_json.c — fuzz target for the sizes JSON of docs/formats.md#sizes
 * (`sample -o`, `recommend --sizes`): pt_json_loadb, collect/'s reader
 * coll_sizes_doc_from_json ("values" or a histogram, the latter as weighted
 * bins), then the statistics and their JSON, as cmd_recommend does.
 */
#include "collect/collect.h"
#include "tests/fuzz/fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct rec_sizes s;
    struct rec_size_stats st;
    struct pt_err err = {0};
    json_t *doc = NULL, *out;
    int rc;

    rc = pt_json_loadb((const char *)data, size, "sizes.json", &doc, &err);
    FUZZ_CHECK(rc == 0 || rc == PT_EDATA);
    FUZZ_CHECK_ERR(rc, err);
    if (rc < 0)
        return 0;
    rc = coll_sizes_doc_from_json(&s, doc, "sizes.json", &err);
    FUZZ_CHECK(rc == 0 || rc == PT_EDATA || rc == PT_EINTERNAL);
    FUZZ_CHECK_ERR(rc, err);
    if (rc == 0) {
        FUZZ_CHECK(s.n > 0 && s.total >= s.n);
        rc = rec_sizes_stats(&s, &st, &err);
        FUZZ_CHECK(rc == 0 || rc == PT_EINTERNAL);
        FUZZ_CHECK_ERR(rc, err);
        if (rc < 0) {
            rec_sizes_release(&s);
            json_decref(doc);
            return 0;
        }
        FUZZ_CHECK(st.count == s.total);
        FUZZ_CHECK(st.min <= st.p50 && st.p50 <= st.p90 && st.p90 <= st.p95 &&
                   st.p95 <= st.p99 && st.p99 <= st.max);
        FUZZ_CHECK(st.min <= st.mean && st.mean <= (double)st.max);
        /* a histogram's weighted entries are not a list of objects */
        out = rec_stats_to_json(&st, s.counts ? NULL : s.values, s.n,
                                json_object_get(doc, "source"));
        FUZZ_CHECK(out != NULL);
        json_decref(out);
        rec_sizes_release(&s);
    }
    json_decref(doc);
    return 0;
}
