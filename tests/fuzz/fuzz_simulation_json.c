/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fuzz_simulation_json.c — fuzz target for simulation.json as advise reads
 * it (sim_plan_result_from_json over pt_json_loadb): either form is
 * accepted or refused with PT_EDATA, and what is accepted is within its
 * bounds and writes back a document that reads the same.
 */
#include "sim/sim.h"
#include "tests/fuzz/fuzz.h"

static void check_round_trip(const struct sim_plan_result *res)
{
    struct sim_plan_result back;
    struct pt_err err = {0};
    json_t *doc = sim_plan_result_to_json(res), *doc2;
    char *s1, *s2;

    FUZZ_CHECK(doc != NULL);
    FUZZ_CHECK(sim_plan_result_from_json(&back, doc, "again", &err) == 0);
    doc2 = sim_plan_result_to_json(&back);
    FUZZ_CHECK(doc2 != NULL);
    s1 = json_dumps(doc, JSON_COMPACT);
    s2 = json_dumps(doc2, JSON_COMPACT);
    FUZZ_CHECK(s1 && s2 && strcmp(s1, s2) == 0);
    free(s1);
    free(s2);
    json_decref(doc);
    json_decref(doc2);
    sim_plan_result_release(&back);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct sim_plan_result res;
    struct pt_err err = {0};
    json_t *doc = NULL;
    int rc;

    rc = pt_json_loadb((const char *)data, size, "simulation.json", &doc, &err);
    FUZZ_CHECK(rc == 0 || rc == PT_EDATA);
    FUZZ_CHECK_ERR(rc, err);
    if (rc < 0)
        return 0;
    rc = sim_plan_result_from_json(&res, doc, "simulation.json", &err);
    FUZZ_CHECK(rc == 0 || rc == PT_EDATA);
    FUZZ_CHECK_ERR(rc, err);
    if (rc == 0) {
        FUZZ_CHECK(res.n_curves <= SIM_MAX_TIERS);
        for (size_t i = 0; i < res.n_curves; i++)
            FUZZ_CHECK(res.curves[i].n_points <= SIM_CURVE_POINTS);
        FUZZ_CHECK(res.comparison || (res.servers >= 1 && res.trace));
        check_round_trip(&res);
    }
    sim_plan_result_release(&res);
    json_decref(doc);
    return 0;
}
