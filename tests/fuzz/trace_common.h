/* SPDX-License-Identifier: Apache-2.0 */
/*
 * trace_common.h — the body shared by fuzz_trace_csv.c and
 * fuzz_trace_oracle.c: open the input as a trace file, read every request,
 * rewind and read again. Besides memory safety it checks the reader's
 * contract: key ids are dense (< n_keys), a failure is PT_EDATA with one
 * line, and the second pass yields exactly the same requests (interning is
 * stable across sim_trace_rewind).
 */
#ifndef PT_FUZZ_TRACE_COMMON_H
#define PT_FUZZ_TRACE_COMMON_H

#include "sim/sim.h"
#include "tests/fuzz/fuzz.h"

/* Read to the end; returns the final status and a digest of the requests. */
static int trace_pass(struct sim_trace_reader *r, uint64_t *digest,
                      uint64_t *n_req, struct pt_err *err)
{
    struct sim_req req;
    uint64_t h = 1469598103934665603ULL;
    int rc;

    *n_req = 0;
    while ((rc = sim_trace_next(r, &req, err)) == 1) {
        size_t klen = 0;
        const char *key;

        FUZZ_CHECK(req.key_id < sim_trace_n_keys(r));
        FUZZ_CHECK(req.op == SIM_GET || req.op == SIM_SET || req.op == SIM_DEL);
        key = sim_trace_key(r, req.key_id, &klen);
        FUZZ_CHECK(key != NULL && klen > 0);
        h = (h ^ req.key_id) * 1099511628211ULL;
        h = (h ^ req.time_ms) * 1099511628211ULL;
        h = (h ^ req.size_bytes) * 1099511628211ULL;
        h = (h ^ (uint64_t)req.op) * 1099511628211ULL;
        (*n_req)++;
    }
    *digest = h;
    return rc;
}

static int trace_fuzz_one(const uint8_t *data, size_t size,
                          enum sim_trace_format fmt)
{
    struct sim_trace_reader *r = NULL;
    struct pt_err err = {0};
    uint64_t d1, d2, n1, n2, keys;
    int rc, rc2;

    rc = sim_trace_open(fuzz_file(data, size), fmt, &r, &err);
    FUZZ_CHECK(rc == 0 || rc == PT_EDATA);
    FUZZ_CHECK_ERR(rc, err);
    if (rc < 0) {
        FUZZ_CHECK(r == NULL);
        return 0;
    }
    rc = trace_pass(r, &d1, &n1, &err);
    FUZZ_CHECK(rc == 0 || rc == PT_EDATA);
    FUZZ_CHECK_ERR(rc, err);
    keys = sim_trace_n_keys(r);
    FUZZ_CHECK(sim_trace_pos(r) <= size);
    if (sim_trace_rewind(r, &err) == 0) {
        rc2 = trace_pass(r, &d2, &n2, &err);
        FUZZ_CHECK(rc2 == rc);
        FUZZ_CHECK(n2 == n1 && d2 == d1);
        FUZZ_CHECK(sim_trace_n_keys(r) == keys);
    }
    sim_trace_close(r);
    return 0;
}

#endif /* PT_FUZZ_TRACE_COMMON_H */
