/* SPDX-License-Identifier: Apache-2.0 */
/*
 * model.c — perf/'s model: the cost table (names ↔ fields of struct
 * perf_costs, read from profiles), the service demands of one request per
 * resource, and exact Mean Value Analysis of the closed network.
 * Neighbour: calib.c fits the free costs through perf_demand + perf_mva.
 * The formulas are documented in docs-draft/model.md; each one below
 * names its line there.
 */
#include "perf/perf.h"

#include <math.h>
#include <stddef.h>
#include <string.h>

/* ---- the cost table ------------------------------------------------------ */

static const struct {
    const char *name;
    size_t off;
} cost_fields[PERF_N_COSTS] = {
#define F(x)                                                                   \
    {                                                                          \
#x, offsetof(struct perf_costs, x)                                     \
    }
    F(app_cpu_fixed_ms),
    F(app_cpu_per_kb_ms),
    F(repl_cpu_per_msg_ms),
    F(net_per_kb_ms),
    F(db_cpu_per_lread_ms),
    F(db_cpu_per_row_ms),
    F(db_cpu_per_logrec_ms),
    F(fscache_read_ms),
    F(fscache_per_kb_ms),
    F(disk_overhead_ms),
    F(disk_per_kb_ms),
    F(log_write_ms),
    F(log_per_kb_ms),
    F(offload_read_ms),
    F(offload_write_ms),
    F(app_servers),
    F(app_cpus),
    F(db_cpus),
#undef F
};

/* The multiplicities are the last three fields: counts of servers. */
#define FIRST_MULTIPLICITY 15

const char *perf_cost_name(int i)
{
    if (i < 0 || i >= PERF_N_COSTS)
        return "?";
    return cost_fields[i].name;
}

int perf_cost_find(const char *name)
{
    for (int i = 0; i < PERF_N_COSTS; i++)
        if (strcmp(cost_fields[i].name, name) == 0)
            return i;
    return -1;
}

double *perf_cost_ptr(struct perf_costs *c, int i)
{
    return (double *)((char *)c + cost_fields[i].off);
}

double perf_cost_get(const struct perf_costs *c, int i)
{
    return *(const double *)((const char *)c + cost_fields[i].off);
}

void perf_costs_init(struct perf_costs *c)
{
    for (int i = 0; i < PERF_N_COSTS; i++)
        *perf_cost_ptr(c, i) = i >= FIRST_MULTIPLICITY ? 1.0 : NAN;
}

int perf_costs_from_json(struct perf_costs *c, const json_t *map,
                         const char *ctx, struct pt_err *err)
{
    const char *key;
    json_t *v;

    if (!json_is_object(map))
        return err_set(err, PT_EDATA, "%s: 'perf' must be a mapping", ctx);
    json_object_foreach((json_t *)map, key, v)
    {
        int i = perf_cost_find(key);
        double x;

        if (i < 0)
            return err_set(err, PT_EDATA, "%s: unknown cost 'perf.%s'", ctx,
                           key);
        if (!json_is_number(v))
            return err_set(err, PT_EDATA, "%s: 'perf.%s' must be a number", ctx,
                           key);
        x = json_number_value(v);
        if (!isfinite(x) || x < 0)
            return err_set(err, PT_EDATA,
                           "%s: 'perf.%s' must be a finite number >= 0", ctx,
                           key);
        if (i >= FIRST_MULTIPLICITY && (x < 1 || x != floor(x) || x > 4096))
            return err_set(err, PT_EDATA,
                           "%s: 'perf.%s' must be a whole number 1..4096", ctx,
                           key);
        *perf_cost_ptr(c, i) = x;
    }
    return 0;
}

void perf_costs_set_device(struct perf_costs *c, const struct rec_device *d)
{
    /* rec_device_transfer_ms(d, 1024): IBM's TRANSFERRATE for a 1 KB page */
    c->disk_overhead_ms = d->overhead_ms;
    c->disk_per_kb_ms = rec_device_transfer_ms(d, 1024);
}

/* ---- demands ------------------------------------------------------------- */

static const char *const centre_names[PERF_N_CENTRES] = {
    "app_cpu", "network", "db_cpu", "db_disk", "log_disk", "offload_disk",
};

/*
 * Add cost * count to *d. A zero count needs no cost (an unset cost times
 * zero is zero); a non-zero count with an unset cost is an error.
 */
static int term(double *d, const struct perf_costs *c, int cost, double count,
                const char *what, struct pt_err *err)
{
    double v;

    if (count == 0)
        return 0;
    v = perf_cost_get(c, cost);
    if (isnan(v))
        return err_set(err, PT_EDATA,
                       "cost '%s' is not set (%s per request %.4g)",
                       perf_cost_name(cost), what, count);
    *d += v * count;
    return 0;
}

#define IDX(field) (int)(offsetof(struct perf_costs, field) / sizeof(double))

static int check_counts(const struct perf_counts *n, struct pt_err *err)
{
    const double *f = (const double *)n;
    size_t k = sizeof(*n) / sizeof(double);

    if (!(n->requests > 0) || !isfinite(n->requests))
        return err_set(err, PT_EDATA, "counts: requests must be > 0");
    for (size_t i = 0; i < k; i++)
        if (!isfinite(f[i]) || f[i] < 0)
            return err_set(err, PT_EDATA,
                           "counts: field %zu is negative or not finite", i);
    if (n->direct_fscache_share > 1)
        return err_set(err, PT_EDATA,
                       "counts: direct_fscache_share must be 0..1");
    return 0;
}

int perf_demand(const struct perf_costs *c, const struct perf_counts *n,
                struct perf_model *out, struct pt_err *err)
{
    double d[PERF_N_CENTRES] = {0};
    double r, page_kb, pages, fs, dev;
    int rc;

    if ((rc = check_counts(n, err)) < 0)
        return rc;
    r = 1.0 / n->requests;
    page_kb = n->page_size_bytes / 1024.0;
    pages = (n->physical_reads + n->physical_writes) * r;
    fs = n->direct_fscache_share;
    dev = 1.0 - fs;

    /* model.md (1) app CPU: fixed + per KB + per replication message;
     * a peer fetch is a request and a reply message */
    if ((rc = term(&d[PERF_APP_CPU], c, IDX(app_cpu_fixed_ms), 1.0, "requests",
                   err)) < 0 ||
        (rc = term(&d[PERF_APP_CPU], c, IDX(app_cpu_per_kb_ms),
                   n->kb_serialised * r, "KB serialised", err)) < 0 ||
        (rc = term(&d[PERF_APP_CPU], c, IDX(repl_cpu_per_msg_ms),
                   (n->repl_messages + 2 * n->peer_fetches) * r,
                   "replication messages", err)) < 0)
        return rc;
    /* (2) network: KB to and from the database and the peers */
    if ((rc = term(&d[PERF_NET], c, IDX(net_per_kb_ms),
                   (n->db_kb + n->repl_kb) * r, "KB on the network", err)) < 0)
        return rc;
    /* (3) database CPU: logical reads, rows, log records, and the direct
     * reads the file-system cache serves (a system call and a copy) */
    if ((rc = term(&d[PERF_DB_CPU], c, IDX(db_cpu_per_lread_ms),
                   n->logical_reads * r, "logical reads", err)) < 0 ||
        (rc = term(&d[PERF_DB_CPU], c, IDX(db_cpu_per_row_ms), n->db_rows * r,
                   "rows", err)) < 0 ||
        (rc = term(&d[PERF_DB_CPU], c, IDX(db_cpu_per_logrec_ms),
                   n->log_records * r, "log records", err)) < 0 ||
        (rc = term(&d[PERF_DB_CPU], c, IDX(fscache_read_ms),
                   fs * n->direct_read_reqs * r, "cached direct reads", err)) <
            0 ||
        (rc = term(&d[PERF_DB_CPU], c, IDX(fscache_per_kb_ms),
                   fs * n->direct_read_kb * r, "cached direct KB", err)) < 0)
        return rc;
    /* (4) table-space device: each page read or written is one random
     * request plus a page of transfer; direct reads the cache misses and
     * every direct write (written back) likewise, per request and per KB */
    if ((rc = term(&d[PERF_DB_DISK], c, IDX(disk_overhead_ms),
                   pages +
                       (dev * n->direct_read_reqs + n->direct_write_reqs) * r,
                   "device requests", err)) < 0 ||
        (rc = term(&d[PERF_DB_DISK], c, IDX(disk_per_kb_ms),
                   pages * page_kb +
                       (dev * n->direct_read_kb + n->direct_write_kb) * r,
                   "device KB", err)) < 0)
        return rc;
    /* (5) log device: one force per commit that logged, plus the bytes */
    if ((rc = term(&d[PERF_LOG_DISK], c, IDX(log_write_ms), n->log_writes * r,
                   "log forces", err)) < 0 ||
        (rc = term(&d[PERF_LOG_DISK], c, IDX(log_per_kb_ms), n->log_kb * r,
                   "log KB", err)) < 0)
        return rc;
    /* (6) offload devices */
    if ((rc = term(&d[PERF_OFFLOAD], c, IDX(offload_read_ms),
                   n->offload_reads * r, "offload reads", err)) < 0 ||
        (rc = term(&d[PERF_OFFLOAD], c, IDX(offload_write_ms),
                   n->offload_writes * r, "offload writes", err)) < 0)
        return rc;

    memset(out, 0, sizeof(*out));
    out->n = PERF_N_CENTRES;
    for (int k = 0; k < PERF_N_CENTRES; k++) {
        out->c[k].name = centre_names[k];
        out->c[k].demand_ms = d[k];
        out->c[k].copies = 1;
        out->c[k].servers = 1;
    }
    /* the app tier is replicated: each server takes 1/S of the requests */
    out->c[PERF_APP_CPU].copies = (unsigned)c->app_servers;
    out->c[PERF_APP_CPU].demand_ms /= c->app_servers;
    out->c[PERF_APP_CPU].servers = (unsigned)c->app_cpus;
    out->c[PERF_OFFLOAD].copies = (unsigned)c->app_servers;
    out->c[PERF_OFFLOAD].demand_ms /= c->app_servers;
    out->c[PERF_DB_CPU].servers = (unsigned)c->db_cpus;
    return 0;
}

/* ---- exact MVA ----------------------------------------------------------- */

int perf_mva(const struct perf_model *m, unsigned clients, double think_ms,
             struct perf_result *out, struct pt_err *err)
{
    double dq[PERF_MAX_CENTRES]; /* queueing part of one copy's demand */
    double delay = think_ms;     /* Z plus Seidmann's delay parts */
    double dsum = 0, dmax = 0, x = 0, rsum = 0;
    int bott = 0;

    if (clients == 0)
        return err_set(err, PT_EDATA, "clients must be >= 1");
    if (!(think_ms >= 0) || !isfinite(think_ms))
        return err_set(err, PT_EDATA, "think time must be >= 0 ms");
    if (m->n > PERF_MAX_CENTRES)
        return err_set(err, PT_EDATA, "too many centres (%zu, at most %d)",
                       m->n, PERF_MAX_CENTRES);
    memset(out, 0, sizeof(*out));
    for (size_t k = 0; k < m->n; k++) {
        const struct perf_centre *c = &m->c[k];
        double per_server;

        if (!(c->demand_ms >= 0) || !isfinite(c->demand_ms) || c->copies < 1 ||
            c->servers < 1)
            return err_set(err, PT_EDATA,
                           "centre '%s': demand must be finite and >= 0",
                           c->name ? c->name : "?");
        /* Seidmann, Schweitzer & Shalev-Oren (1987): a c-server centre
         * ≈ a queue with demand D/c followed by a delay of D(c-1)/c */
        per_server = c->demand_ms / c->servers;
        dq[k] = per_server;
        delay += c->copies * (c->demand_ms - per_server);
        dsum += c->copies * c->demand_ms;
        if (per_server > dmax) {
            dmax = per_server;
            bott = (int)k;
        }
        out->queue[k] = 0;
    }
    if (dsum == 0 && think_ms == 0)
        return err_set(err, PT_EDATA, "every demand and the think time are 0");

    for (unsigned n = 1; n <= clients; n++) {
        rsum = delay - think_ms;
        for (size_t k = 0; k < m->n; k++) {
            /* arrival theorem: an arriving request sees the queue of the
             * network with one request fewer */
            out->resident_ms[k] = dq[k] * (1 + out->queue[k]);
            rsum += m->c[k].copies * out->resident_ms[k];
        }
        x = n / (think_ms + rsum); /* requests per ms */
        for (size_t k = 0; k < m->n; k++)
            out->queue[k] = x * out->resident_ms[k];
    }
    out->clients = clients;
    out->think_ms = think_ms;
    out->n = m->n;
    out->req_per_s = x * 1000.0;
    out->response_ms = rsum;
    out->bottleneck = bott;
    for (size_t k = 0; k < m->n; k++) {
        const struct perf_centre *c = &m->c[k];
        /* the Seidmann delay part adds to the time spent at the centre */
        out->resident_ms[k] = c->copies * (out->resident_ms[k] + c->demand_ms -
                                           c->demand_ms / c->servers);
        out->util[k] = x * c->demand_ms / c->servers;
    }
    out->x_bound_per_s =
        1000.0 * (dmax > 0 ? fmin(clients / (dsum + think_ms), 1.0 / dmax)
                           : clients / (dsum + think_ms));
    out->r_bound_ms = fmax(dsum, clients * dmax - think_ms);
    return 0;
}
