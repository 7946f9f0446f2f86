/* SPDX-License-Identifier: Apache-2.0 */
/*
 * model.c — the store model: what a replay of a trace on the built-in
 * store will measure, from this machine's probe (probe.c), with nothing
 * fitted to the replay (docs/models.md "Store model").
 *
 * Each operation of the trace costs the probe's figure for where the
 * replay's store places its object at that page size (store_place with the
 * plan's own configuration, store_plan_page_config):
 *   in the row     the page size's in-row line at the object's size;
 *   in LOB area    the row's cost at the probe's small size (the row keeps
 *                  the descriptor) plus the LOB line at the object's size
 *                  less the same small row at the page size the probe's LOB
 *                  store had (its row part), for the page size's LOB I/O;
 * a line being the straight line through the probe's two sizes. A request
 * (a get and the set writing its session back, as the replay counts them)
 * costs the sum of its operations; its service demand D is the mean over
 * the trace. `clients` closed-loop clients with think time Z share `cpus`
 * processors: exact MVA of one multi-server centre (Seidmann's
 * approximation, as perf/model.c), which for one client is X = 1 / (D + Z).
 * The range: D from the probe's interval ends, widened by the model's
 * stated error STORE_MODEL_ERROR (what test_store_model holds it to).
 */
#include <math.h>
#include <string.h>
#include <unistd.h>

#include "sim/sim.h"
#include "store/store.h"

/* A line's value at n bytes: mean (k = 0), low (1) or high (2) end. */
static double line_at(const struct store_probe_line *l, double n, int k)
{
    double y0, y1, x0 = l->size_bytes[0], x1 = l->size_bytes[1], y;

    y0 = k == 0 ? l->at[0].mean_us : k == 1 ? l->at[0].lo_us : l->at[0].hi_us;
    y1 = k == 0 ? l->at[1].mean_us : k == 1 ? l->at[1].lo_us : l->at[1].hi_us;
    y = y0 + (y1 - y0) * (n - x0) / (x1 - x0);
    return y > 0 ? y : 0;
}

static const struct store_probe_page *probe_page(const struct store_probe *pr,
                                                 uint32_t page_size)
{
    for (size_t i = 0; i < pr->n_pages; i++)
        if (pr->page[i].page_size_bytes == page_size)
            return &pr->page[i];
    return NULL;
}

/* One operation's cost, microseconds, at the three ends. */
static void op_cost(const struct store_probe *pr,
                    const struct store_probe_page *pg,
                    const struct store_config *cfg, int op, uint64_t size,
                    double c[3])
{
    int pop = op == SIM_GET ? STORE_PROBE_GET : STORE_PROBE_SET;
    enum store_column col = store_place(cfg, size);
    /* a delete touches the row only: a set's row part at the small size */
    if (op == SIM_DEL) {
        size = pg->row[pop].size_bytes[0];
        col = STORE_COL_SMALL;
    }
    for (int k = 0; k < 3; k++) {
        if (!cfg->lob_area || col == STORE_COL_SMALL) {
            c[k] = line_at(&pg->row[pop], (double)size, k);
            continue;
        }
        const struct store_probe_line *lob = &pr->lob[cfg->lob_io][pop];
        const struct store_probe_line *base = &pr->page[0].row[pop];
        double small = pg->row[pop].size_bytes[0];
        double v = line_at(&pg->row[pop], small, k) +
                   line_at(lob, (double)size, k) - line_at(base, small, k);
        c[k] = v > 0 ? v : 0;
    }
}

/* Closed network of one centre with `servers` servers (Seidmann) and
 * think time z: throughput per ms for n clients; exact MVA. */
static double mva_x(double d, unsigned servers, unsigned n, double z)
{
    double dq = d / servers, delay = d - dq, q = 0, x = 0;

    for (unsigned k = 1; k <= n; k++) {
        double r = dq * (1 + q);
        x = k / (z + delay + r);
        q = x * r;
    }
    return x;
}

int store_model_predict(const struct store_probe *pr,
                        const struct store_plan *p, const struct store_trace *t,
                        unsigned cpus, struct store_prediction *out,
                        struct pt_err *err)
{
    uint64_t n = t->n_reqs;
    unsigned k = p->n_clients ? p->n_clients : 1;
    double z = p->think_ms;
    int ret;

    if (p->max_records && p->max_records < n)
        n = p->max_records;
    if (cpus < 1)
        cpus = 1;
    for (size_t i = 0; i < p->n_page_sizes; i++) {
        struct store_prediction *o = &out[i];
        struct store_config cfg;
        const struct store_probe_page *pg;
        double sum[3] = {0, 0, 0}, d[3], x;
        uint64_t requests = 0;

        memset(o, 0, sizeof(*o));
        if ((ret = store_plan_page_config(p, i, &cfg, err)) < 0)
            return ret;
        pg = probe_page(pr, cfg.page_size_bytes);
        if (!pg)
            return err_set(err, PT_EDATA,
                           "the probe has no figures for %u-byte pages "
                           "(probe again with this engine)",
                           cfg.page_size_bytes);
        if (cfg.lob_area && cfg.lob_io == STORE_LOB_DIRECT && !pr->lob_direct)
            cfg.lob_io = STORE_LOB_CACHED; /* as the replay falls back */
        for (uint64_t j = 0; j < n; j++) {
            const struct store_trace_req *r = &t->reqs[j];
            uint64_t size = r->size_bytes;
            double c[3];
            if (r->op == SIM_GET && size == 0 && t->first_size)
                size = t->first_size[r->key_id];
            op_cost(pr, pg, &cfg, r->op, size, c);
            for (int e = 0; e < 3; e++)
                sum[e] += c[e];
            if (!r->write_back)
                requests++;
            if (r->op != SIM_DEL && cfg.lob_area &&
                store_place(&cfg, size) != STORE_COL_SMALL)
                o->lob_ops++;
            else
                o->in_row_ops++;
        }
        if (!requests)
            return err_set(err, PT_EDATA, "the trace has no requests");
        for (int e = 0; e < 3; e++)
            d[e] = sum[e] / (double)requests / 1e3; /* ms per request */
        d[1] *= 1 - STORE_MODEL_ERROR;
        d[2] *= 1 + STORE_MODEL_ERROR;
        o->page_size_bytes = cfg.page_size_bytes;
        o->lob_io = cfg.lob_io;
        o->requests = requests;
        o->demand_us = d[0] * 1e3;
        x = mva_x(d[0], cpus, k, z);
        o->req_per_s = x * 1e3;
        o->response_ms = k / x - z;
        x = mva_x(d[2], cpus, k, z); /* the high demand: the low rate */
        o->req_per_s_lo = x * 1e3;
        o->response_ms_hi = k / x - z;
        x = mva_x(d[1], cpus, k, z);
        o->req_per_s_hi = x * 1e3;
        o->response_ms_lo = k / x - z;
    }
    return 0;
}

unsigned store_model_cpus(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (unsigned)n : 1;
}

void store_plan_result_predicted(struct store_plan_result *res,
                                 const struct store_prediction *pred, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        struct store_replay_result *r = NULL;
        for (size_t j = 0; j < res->n_results; j++)
            if (res->results[j].page_size_bytes == pred[i].page_size_bytes)
                r = &res->results[j];
        if (!r)
            continue;
        r->has_pred = 1;
        r->pred_rps = pred[i].req_per_s;
        r->pred_rps_lo = pred[i].req_per_s_lo;
        r->pred_rps_hi = pred[i].req_per_s_hi;
        r->pred_response_ms = pred[i].response_ms;
    }
}
