/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fuzz_profile.c — fuzz target for YAML profiles (pagetune-profile(5)):
 * core's libyaml loader (prof_loadb) and every reader of the resulting
 * tree — engine profiles (rec_engine_from_json), device profiles
 * (rec_device_from_json), workload profiles (sim_workload_from_json, then
 * a few hundred generated requests) and DDL dialects
 * (ddl_dialect_from_json). The same document is offered to each reader, as
 * a user may pass any file to --profile / --device.
 */
#include "model/model.h"
#include "ddl/ddl.h"
#include "sim/sim.h"
#include "tests/fuzz/fuzz.h"

#include <math.h>

static void fuzz_workload(const json_t *doc)
{
    struct sim_workload w;
    struct sim_wgen *g = NULL;
    struct sim_wrec rec;
    struct pt_err err = {0};
    uint64_t last = 0;
    int rc;

    rc = sim_workload_from_json(&w, doc, "workload.yaml", &err);
    FUZZ_CHECK(rc == 0 || rc == PT_EDATA);
    FUZZ_CHECK_ERR(rc, err);
    if (rc < 0)
        return;
    FUZZ_CHECK(w.servers >= 1 && w.servers <= SIM_MAX_SERVERS);
    /* generate a little, unless the population makes setup the whole run */
    if (w.keys <= 1000000 && w.concurrent <= 100000) {
        rc = sim_wgen_new(&w, w.seed, &g, &err);
        FUZZ_CHECK(rc == 0 || rc == PT_EINTERNAL);
        for (int i = 0; rc == 0 && i < 300; i++) {
            FUZZ_CHECK(sim_wgen_next(g, &rec) == 1);
            FUZZ_CHECK(rec.op == SIM_GET || rec.op == SIM_SET ||
                       rec.op == SIM_DEL);
            FUZZ_CHECK(rec.key != NULL && rec.key_len > 0);
            FUZZ_CHECK(rec.time_ms >= last);
            last = rec.time_ms;
        }
        sim_wgen_free(g);
    }
    sim_workload_release(&w);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct rec_engine e;
    struct rec_device d;
    struct pt_err err = {0};
    json_t *doc = NULL;
    int rc;

    rc = prof_loadb((const char *)data, size, "profile.yaml", &doc, &err);
    FUZZ_CHECK(rc == 0 || rc == PT_EDATA);
    FUZZ_CHECK_ERR(rc, err);
    if (rc < 0) {
        FUZZ_CHECK(doc == NULL);
        return 0;
    }
    FUZZ_CHECK(json_is_object(doc));

    rc = rec_engine_from_json(&e, doc, "profile.yaml", &err);
    FUZZ_CHECK(rc == 0 || rc == PT_EDATA);
    FUZZ_CHECK_ERR(rc, err);
    if (rc == 0) {
        char list[256];
        FUZZ_CHECK(e.n_pages >= 1 && e.n_pages <= REC_MAX_PAGE_SIZES);
        FUZZ_CHECK(e.n_outline <= REC_MAX_OUTLINE);
        rec_engine_page_list(&e, list, sizeof(list));
        for (size_t i = 0; i < e.n_pages; i++) {
            const struct rec_page_rule *p = &e.pages[i];
            FUZZ_CHECK(rec_engine_page(&e, p->page_size_bytes) != NULL);
            rec_engine_place(&e, p, 4000);
            rec_engine_rows_per_page(&e, p, 4000);
            rec_engine_rows_per_page(&e, p, 0);
        }
    }

    rc = rec_device_from_json(&d, doc, "profile.yaml", &err);
    FUZZ_CHECK(rc == 0 || rc == PT_EDATA);
    FUZZ_CHECK_ERR(rc, err);
    if (rc == 0) {
        FUZZ_CHECK(isfinite(rec_device_transfer_ms(&d, 8192)));
        FUZZ_CHECK(isfinite(rec_device_read_ms(&d, 32768)));
    }
    fuzz_workload(doc);

    {
        struct ddl_dialect dl;
        rc = ddl_dialect_from_json(&dl, doc, "dialect.yaml", &err);
        FUZZ_CHECK(rc == 0 || rc == PT_EDATA);
        FUZZ_CHECK_ERR(rc, err);
        if (rc == 0) {
            FUZZ_CHECK(dl.extent_min <= dl.extent_max);
            FUZZ_CHECK(dl.pool_min <= dl.pool_max);
        }
    }
    json_decref(doc);
    return 0;
}
