/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fuzz_replay_json.c — fuzz target for replay.json as advise reads it
 * (store_plan_result_from_json over pt_json_loadb): accepted or refused
 * with PT_EDATA; what is accepted is within its bounds and writes back a
 * document that reads the same.
 */
#include "store/store.h"
#include "tests/fuzz/fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct store_plan_result res;
    json_t *doc;
    int rc;

    memset(&res, 0, sizeof(res));
    FUZZ_JSON_READ(store_plan_result_from_json, data, size, "replay.json", &res,
                   doc, rc);
    if (rc == 0) {
        FUZZ_CHECK(res.n_results <= STORE_MAX_PAGE_SIZES);
        FUZZ_CHECK(res.n_clients <= 256 && res.trace && res.engine);
        for (size_t i = 0; i < res.n_results; i++)
            FUZZ_CHECK(res.results[i].page_size_bytes <= 65536);
        FUZZ_JSON_ROUND_TRIP(
            struct store_plan_result, store_plan_result_to_json,
            store_plan_result_from_json, store_plan_result_release, &res);
    }
    store_plan_result_release(&res);
    json_decref(doc);
    return 0;
}
