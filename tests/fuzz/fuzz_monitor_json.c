/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fuzz_monitor_json.c — fuzz target for the monitor JSON that
 * `recommend --monitor` reads (collect/'s coll_monitor_doc_from_json over
 * pt_json_loadb): on success the fields are within their documented
 * ranges.
 */
#include "collect/collect.h"
#include "tests/fuzz/fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct rec_monitor m;
    struct pt_err err = {0};
    json_t *doc = NULL;
    int rc;

    rc = pt_json_loadb((const char *)data, size, "monitor.json", &doc, &err);
    FUZZ_CHECK(rc == 0 || rc == PT_EDATA);
    FUZZ_CHECK_ERR(rc, err);
    if (rc < 0)
        return 0;
    rc = coll_monitor_doc_from_json(&m, doc, "monitor.json", &err);
    FUZZ_CHECK(rc == 0 || rc == PT_EDATA);
    FUZZ_CHECK_ERR(rc, err);
    if (rc == 0) {
        FUZZ_CHECK(m.present);
        FUZZ_CHECK(m.page_size_bytes > 0);
        FUZZ_CHECK(m.hit_ratio_pct == -1 ||
                   (m.hit_ratio_pct >= 0 && m.hit_ratio_pct <= 100));
        FUZZ_CHECK(m.direct_read_share >= 0 && m.direct_read_share <= 1);
    }
    json_decref(doc);
    return 0;
}
