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
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "sim/sim.h"
#include "store/store.h"

/*
 * The cells' weights: the trace's demand is sum_c W_c * mean_c over the
 * probe's measured points c (each line's two sizes), and its uncertainty
 * sqrt(sum_c (W_c * h_c)^2) with h_c the half-width of c's interval (the
 * cells were timed apart: independent; every operation that uses a cell
 * shares its error, hence the weights first).
 */
#define CELLS ((STORE_PROBE_MAX_PAGES + 2) * STORE_PROBE_N_OPS * 2)

static size_t cell_row(size_t page_idx, int op, int k)
{
    return (page_idx * STORE_PROBE_N_OPS + (size_t)op) * 2 + (size_t)k;
}
static size_t cell_lob(int io, int op, int k)
{
    return ((STORE_PROBE_MAX_PAGES + (size_t)io) * STORE_PROBE_N_OPS +
            (size_t)op) *
               2 +
           (size_t)k;
}

/* A line at n bytes: weight (1 - t) on its first point, t on its second. */
static void line_w(double *w, size_t c0, const struct store_probe_line *l,
                   double n, double times)
{
    double t = (n - l->size_bytes[0]) /
               ((double)l->size_bytes[1] - (double)l->size_bytes[0]);
    w[c0] += times * (1 - t);
    w[c0 + 1] += times * t;
}

static const struct store_probe_cost *cell_cost(const struct store_probe *pr,
                                                size_t c)
{
    size_t k = c % 2, op = c / 2 % STORE_PROBE_N_OPS,
           line = c / 2 / STORE_PROBE_N_OPS;
    if (line >= STORE_PROBE_MAX_PAGES)
        return &pr->lob[line - STORE_PROBE_MAX_PAGES][op].at[k];
    return &pr->page[line].row[op].at[k];
}

static size_t probe_page(const struct store_probe *pr, uint32_t page_size)
{
    for (size_t i = 0; i < pr->n_pages; i++)
        if (pr->page[i].page_size_bytes == page_size)
            return i;
    return SIZE_MAX;
}

/* One operation's weights on the probe's cells. */
static void op_weights(const struct store_probe *pr, size_t pi,
                       const struct store_config *cfg,
                       const struct store_trace_req *r, uint64_t size,
                       double *w)
{
    const struct store_probe_page *pg = &pr->page[pi];
    int op = r->op == SIM_GET   ? STORE_PROBE_GET
             : r->op == SIM_DEL ? STORE_PROBE_PUT
             : r->write_back    ? STORE_PROBE_SET
                                : STORE_PROBE_PUT;
    enum store_column col = store_place(cfg, size);
    double small = pg->row[op].size_bytes[0];

    /* a delete touches the row only: a put's row part at the small size */
    if (r->op == SIM_DEL) {
        size = (uint64_t)small;
        col = STORE_COL_SMALL;
    }
    if (!cfg->lob_area || col == STORE_COL_SMALL) {
        line_w(w, cell_row(pi, op, 0), &pg->row[op], (double)size, 1);
        return;
    }
    /* the row with its descriptor, then the LOB area's part of a LOB
     * access: the probe's LOB store's figure less its own row part (the
     * smallest page size's row at the small size) */
    line_w(w, cell_row(pi, op, 0), &pg->row[op], small, 1);
    line_w(w, cell_lob((int)cfg->lob_io, op, 0), &pr->lob[cfg->lob_io][op],
           (double)size, 1);
    line_w(w, cell_row(0, op, 0), &pr->page[0].row[op], small, -1);
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
        double w[CELLS] = {0}, d = 0, h2 = 0, dlo, dhi, x;
        uint64_t requests = 0;
        size_t pi;

        memset(o, 0, sizeof(*o));
        if ((ret = store_plan_page_config(p, i, &cfg, err)) < 0)
            return ret;
        pi = probe_page(pr, cfg.page_size_bytes);
        if (pi == SIZE_MAX)
            return err_set(err, PT_EDATA,
                           "the probe has no figures for %u-byte pages "
                           "(probe again with this engine)",
                           cfg.page_size_bytes);
        if (cfg.lob_area && cfg.lob_io == STORE_LOB_DIRECT && !pr->lob_direct)
            cfg.lob_io = STORE_LOB_CACHED; /* as the replay falls back */
        for (uint64_t j = 0; j < n; j++) {
            const struct store_trace_req *r = &t->reqs[j];
            uint64_t size = r->size_bytes;
            if (r->op == SIM_GET && size == 0 && t->first_size)
                size = t->first_size[r->key_id];
            op_weights(pr, pi, &cfg, r, size, w);
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
        for (size_t c = 0; c < CELLS; c++) {
            const struct store_probe_cost *x0;
            double h;
            if (w[c] == 0)
                continue;
            x0 = cell_cost(pr, c);
            h = (x0->hi_us - x0->lo_us) / 2;
            d += w[c] * x0->mean_us;
            h2 += w[c] * w[c] * h * h;
        }
        /* ms per request: the mean, and the range with the model's error */
        d = d / (double)requests / 1e3;
        h2 = sqrt(h2) / (double)requests / 1e3;
        /* a line extrapolated past the probe's two sizes follows their
           slope: a noisy short probe can take it below zero */
        if (!(d > 0))
            return err_set(err, PT_EDATA,
                           "the probe gives no cost for this trace at %u-byte "
                           "pages (its figures sum to %.4f ms a request: too "
                           "noisy a probe; a longer one, of more rounds and "
                           "operations, gives one)",
                           cfg.page_size_bytes, d);
        dlo = fmax(d - h2, d * 0.01) * (1 - STORE_MODEL_ERROR);
        dhi = (d + h2) * (1 + STORE_MODEL_ERROR);
        o->page_size_bytes = cfg.page_size_bytes;
        o->lob_io = cfg.lob_io;
        o->requests = requests;
        o->demand_us = d * 1e3;
        x = mva_x(d, cpus, k, z);
        o->req_per_s = x * 1e3;
        o->response_ms = k / x - z;
        x = mva_x(dhi, cpus, k, z); /* the high demand: the low rate */
        o->req_per_s_lo = x * 1e3;
        o->response_ms_hi = k / x - z;
        x = mva_x(dlo, cpus, k, z);
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
