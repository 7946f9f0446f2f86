/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fuzz_simulation_json.c — fuzz target for simulation.json as advise reads
 * it (sim_plan_result_from_json over pt_json_loadb): either form is
 * accepted or refused with PT_EDATA, and what is accepted is within its
 * bounds and writes back a document that reads the same.
 */
#include "sim/sim.h"
#include "tests/fuzz/fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct sim_plan_result res;
    json_t *doc;
    int rc;

    memset(&res, 0, sizeof(res));
    FUZZ_JSON_READ(sim_plan_result_from_json, data, size, "simulation.json",
                   &res, doc, rc);
    if (rc == 0) {
        FUZZ_CHECK(res.n_curves <= SIM_MAX_TIERS);
        for (size_t i = 0; i < res.n_curves; i++)
            FUZZ_CHECK(res.curves[i].n_points <= SIM_CURVE_POINTS);
        FUZZ_CHECK(res.comparison || (res.servers >= 1 && res.trace));
        FUZZ_JSON_ROUND_TRIP(struct sim_plan_result, sim_plan_result_to_json,
                             sim_plan_result_from_json, sim_plan_result_release,
                             &res);
    }
    sim_plan_result_release(&res);
    json_decref(doc);
    return 0;
}
