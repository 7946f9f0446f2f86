/* SPDX-License-Identifier: Apache-2.0 */
/*
 * model.c — perf/'s model: the cost table (names ↔ fields of struct
 * perf_costs, read from profiles), the service demands of one request per
 * resource, and exact Mean Value Analysis of the closed network.
 * Neighbour: calib.c fits the free costs through perf_demand + perf_mva.
 * The formulas are documented in docs/models.md#performance-model; each one
 * below names its line there.
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
    {"app_cpu_fixed_ms", offsetof(struct perf_costs, app_cpu_fixed_ms)},
    {"app_cpu_per_kb_ms", offsetof(struct perf_costs, app_cpu_per_kb_ms)},
    {"app_cpu_per_row_ms", offsetof(struct perf_costs, app_cpu_per_row_ms)},
    {"repl_cpu_per_msg_ms", offsetof(struct perf_costs, repl_cpu_per_msg_ms)},
    {"net_per_kb_ms", offsetof(struct perf_costs, net_per_kb_ms)},
    {"db_cpu_per_lread_ms", offsetof(struct perf_costs, db_cpu_per_lread_ms)},
    {"db_cpu_per_row_ms", offsetof(struct perf_costs, db_cpu_per_row_ms)},
    {"db_cpu_per_logrec_ms", offsetof(struct perf_costs, db_cpu_per_logrec_ms)},
    {"fscache_req_ms", offsetof(struct perf_costs, fscache_req_ms)},
    {"fscache_per_kb_ms", offsetof(struct perf_costs, fscache_per_kb_ms)},
    {"disk_overhead_ms", offsetof(struct perf_costs, disk_overhead_ms)},
    {"disk_per_kb_ms", offsetof(struct perf_costs, disk_per_kb_ms)},
    {"log_write_ms", offsetof(struct perf_costs, log_write_ms)},
    {"log_per_kb_ms", offsetof(struct perf_costs, log_per_kb_ms)},
    {"offload_read_ms", offsetof(struct perf_costs, offload_read_ms)},
    {"offload_write_ms", offsetof(struct perf_costs, offload_write_ms)},
    {"front_cpu_per_req_ms", offsetof(struct perf_costs, front_cpu_per_req_ms)},
    {"app_gc_per_kb2_ms", offsetof(struct perf_costs, app_gc_per_kb2_ms)},
    {"app_servers", offsetof(struct perf_costs, app_servers)},
    {"app_cpus", offsetof(struct perf_costs, app_cpus)},
    {"db_cpus", offsetof(struct perf_costs, db_cpus)},
    {"front_cpus", offsetof(struct perf_costs, front_cpus)},
    {"db_on_app_host", offsetof(struct perf_costs, db_on_app_host)},
    {"log_on_data_disk", offsetof(struct perf_costs, log_on_data_disk)},
};

/* After the PERF_N_FITTABLE costs, four multiplicities (servers, CPUs)
 * and two placements (0/1), the table's last. */
#define FIRST_MULTIPLICITY PERF_N_FITTABLE
#define FIRST_PLACEMENT (PERF_N_COSTS - 2)

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
        *perf_cost_ptr(c, i) = i >= FIRST_PLACEMENT      ? 0.0
                               : i >= FIRST_MULTIPLICITY ? 1.0
                                                         : NAN;
    /* a front tier exists only when a profile describes one */
    c->front_cpu_per_req_ms = 0;
    /* nor does a collector's cost that grows with the object twice */
    c->app_gc_per_kb2_ms = 0;
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
        if (i >= FIRST_PLACEMENT && x != 0 && x != 1)
            return err_set(err, PT_EDATA, "%s: 'perf.%s' must be 0 or 1", ctx,
                           key);
        if (i >= FIRST_MULTIPLICITY && i < FIRST_PLACEMENT &&
            (x < 1 || x != floor(x) || x > 4096))
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
    "app_cpu",  "network",      "db_cpu",    "db_disk",
    "log_disk", "offload_disk", "front_cpu",
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

/* The count fields by name, for messages (struct perf_counts order). */
static const char *const count_names[] = {
    "requests",
    "app_gets",
    "app_hits",
    "app_misses",
    "kb_serialised",
    "db_kb",
    "db_rows",
    "logical_reads",
    "physical_reads",
    "physical_writes",
    "page_size_bytes",
    "direct_read_reqs",
    "direct_read_kb",
    "direct_write_reqs",
    "direct_write_kb",
    "fscache_share",
    "page_fscache_share",
    "log_records",
    "log_writes",
    "log_kb",
    "repl_messages",
    "repl_kb",
    "peer_fetches",
    "offload_reads",
    "offload_writes",
    "object_kb",
};

static int check_counts(const struct perf_counts *n, struct pt_err *err)
{
    double f[sizeof(count_names) / sizeof(count_names[0])];

    /* the struct is exactly these doubles, in this order */
    _Static_assert(sizeof(struct perf_counts) == sizeof(f),
                   "count_names must name every perf_counts field");
    memcpy(f, n, sizeof(f));
    if (!(n->requests > 0) || !isfinite(n->requests))
        return err_set(err, PT_EDATA, "counts: requests must be > 0");
    for (size_t i = 0; i < sizeof(f) / sizeof(f[0]); i++)
        if (!isfinite(f[i]) || f[i] < 0)
            return err_set(err, PT_EDATA,
                           "counts: '%s' is negative or not finite",
                           count_names[i]);
    if (n->fscache_share > 1 || n->page_fscache_share > 1)
        return err_set(err, PT_EDATA,
                       "counts: 'fscache_share' and 'page_fscache_share' "
                       "must be 0..1");
    return 0;
}

int perf_demand(const struct perf_costs *c, const struct perf_counts *n,
                struct perf_model *out, struct pt_err *err)
{
    double d[PERF_N_CENTRES] = {0};
    double r, page_kb, pages, pfs, wpages, fs, dev, dreq, dkb;
    int rc;

    if ((rc = check_counts(n, err)) < 0)
        return rc;
    if (c->db_on_app_host == 1 && c->app_servers != 1)
        return err_set(err, PT_EDATA,
                       "db_on_app_host needs app_servers 1, got %g",
                       c->app_servers);
    r = 1.0 / n->requests;
    page_kb = n->page_size_bytes / 1024.0;
    pages = (n->physical_reads + n->physical_writes) * r;
    wpages = n->physical_writes * r;
    pfs = n->page_fscache_share;
    fs = n->fscache_share;
    dev = 1.0 - fs;
    dreq = (n->direct_read_reqs + n->direct_write_reqs) * r;
    dkb = (n->direct_read_kb + n->direct_write_kb) * r;

    /* models.md (1) app CPU: fixed + per KB + per database row (a JDBC
     * statement) + per replication message;
     * a peer fetch is a request and a reply message */
    if ((rc = term(&d[PERF_APP_CPU], c, IDX(app_cpu_fixed_ms), 1.0, "requests",
                   err)) < 0 ||
        (rc = term(&d[PERF_APP_CPU], c, IDX(app_cpu_per_kb_ms),
                   n->kb_serialised * r, "KB serialised", err)) < 0 ||
        (rc = term(&d[PERF_APP_CPU], c, IDX(app_gc_per_kb2_ms),
                   n->kb_serialised * r * n->object_kb,
                   "KB serialised times object KB", err)) < 0 ||
        (rc = term(&d[PERF_APP_CPU], c, IDX(app_cpu_per_row_ms), n->db_rows * r,
                   "rows", err)) < 0 ||
        (rc = term(&d[PERF_APP_CPU], c, IDX(repl_cpu_per_msg_ms),
                   (n->repl_messages + 2 * n->peer_fetches) * r,
                   "replication messages", err)) < 0)
        return rc;
    /* (2) network: KB to and from the database and the peers */
    if ((rc = term(&d[PERF_NET], c, IDX(net_per_kb_ms),
                   (n->db_kb + n->repl_kb) * r, "KB on the network", err)) < 0)
        return rc;
    /* (3) database CPU: logical reads, rows, log records, and the direct
     * requests and page reads and writes the file-system cache serves (a
     * system call and a copy each) */
    if ((rc = term(&d[PERF_DB_CPU], c, IDX(db_cpu_per_lread_ms),
                   n->logical_reads * r, "logical reads", err)) < 0 ||
        (rc = term(&d[PERF_DB_CPU], c, IDX(db_cpu_per_row_ms), n->db_rows * r,
                   "rows", err)) < 0 ||
        (rc = term(&d[PERF_DB_CPU], c, IDX(db_cpu_per_logrec_ms),
                   n->log_records * r, "log records", err)) < 0 ||
        (rc = term(&d[PERF_DB_CPU], c, IDX(fscache_req_ms),
                   fs * dreq + pfs * pages, "cached direct requests and pages",
                   err)) < 0 ||
        (rc = term(&d[PERF_DB_CPU], c, IDX(fscache_per_kb_ms),
                   fs * dkb + pfs * pages * page_kb,
                   "cached direct and page KB", err)) < 0)
        return rc;
    /* (4) table-space device: a page read or written is one random request
     * and a page of transfer; an uncached direct request likewise with its
     * KB; cached direct and page writes reach the device later, coalesced
     * by the file system's write-behind: their KB of transfer, no
     * positioning; cached page reads never reach it */
    if ((rc = term(&d[PERF_DB_DISK], c, IDX(disk_overhead_ms),
                   (1 - pfs) * pages + dev * dreq, "device requests", err)) <
            0 ||
        (rc = term(&d[PERF_DB_DISK], c, IDX(disk_per_kb_ms),
                   ((1 - pfs) * pages + pfs * wpages) * page_kb + dev * dkb +
                       fs * n->direct_write_kb * r,
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
    /* (7) front tier: every request passes the proxy or web server once */
    if ((rc = term(&d[PERF_FRONT_CPU], c, IDX(front_cpu_per_req_ms), 1.0,
                   "requests", err)) < 0)
        return rc;
    /* placement: shared hosts and devices are one centre */
    if (c->db_on_app_host == 1) {
        d[PERF_APP_CPU] += d[PERF_DB_CPU];
        d[PERF_DB_CPU] = 0;
    }
    if (c->log_on_data_disk == 1) {
        d[PERF_DB_DISK] += d[PERF_LOG_DISK];
        d[PERF_LOG_DISK] = 0;
    }

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
    out->c[PERF_FRONT_CPU].servers = (unsigned)c->front_cpus;
    return 0;
}

/* ---- counts from the simulator ------------------------------------------ */

int perf_counts_from_sim(struct perf_counts *out,
                         const struct sim_app_stats *app,
                         const struct sim_db_stats *db,
                         const struct perf_sim_map *map, struct pt_err *err)
{
    double obj_kb, writes, unit_kb, rec_bytes;

    if (app->requests == 0)
        return err_set(err, PT_EDATA, "counts: no requests were simulated");
    if (!(map->object_bytes >= 0) || !(map->direct_io_unit_bytes >= 0) ||
        !(map->fscache_share >= 0) || map->fscache_share > 1 ||
        !(map->page_fscache_share >= 0) || map->page_fscache_share > 1 ||
        !(map->log_record_overhead_bytes >= 0))
        return err_set(err, PT_EDATA,
                       "counts: object size, direct I/O unit, log record "
                       "overhead must be >= 0 and fscache_share and "
                       "page_fscache_share 0..1");
    memset(out, 0, sizeof(*out));
    obj_kb = map->object_bytes / 1024.0;
    writes = (double)app->db_writes;
    out->requests = (double)app->requests;
    out->app_gets = (double)app->gets;
    out->app_hits = (double)app->hits;
    out->app_misses = (double)app->misses;
    /* an object is (de)serialised when it crosses a process: to or from
     * the database, a peer, or the offload disk */
    out->kb_serialised =
        ((double)app->db_reads + writes + (double)app->peer_fetches +
         (double)app->offload_hits) *
        obj_kb;
    out->db_kb = ((double)app->db_reads + writes) * obj_kb;
    out->db_rows = (double)app->db_reads + writes; /* one row a statement */
    out->repl_messages = (double)app->replication_messages;
    /* push messages carry the entry, the others an id or a query; a peer
     * fetch carries the entry back */
    out->repl_kb =
        ((map->sharing == SIM_SHARE_PUSH ? (double)app->replication_messages
                                         : 0) +
         (double)app->peer_fetches) *
        obj_kb;
    out->peer_fetches = (double)app->peer_fetches;
    out->offload_reads = (double)app->offload_hits;
    out->offload_writes = 0; /* not counted by sim/ (model.md, lacks) */
    out->object_kb = obj_kb;
    /* every write is an autocommitted statement: one log record, one
     * force (WebSphere's session manager writes a session per request) */
    out->log_records = writes;
    out->log_writes = writes;
    rec_bytes = map->object_bytes + map->log_record_overhead_bytes;
    out->log_kb = writes * rec_bytes / 1024.0;
    if (!db)
        return 0;
    unit_kb = map->direct_io_unit_bytes / 1024.0;
    out->logical_reads = (double)db->logical_reads;
    out->physical_reads = (double)db->physical_reads;
    out->physical_writes = (double)db->physical_writes;
    out->page_size_bytes = (double)db->page_size_bytes;
    out->direct_read_reqs = (double)db->direct_read_reqs;
    out->direct_read_kb = (double)db->direct_reads * unit_kb;
    out->direct_write_reqs = (double)db->direct_write_reqs;
    out->direct_write_kb = (double)db->direct_writes * unit_kb;
    out->fscache_share = map->fscache_share;
    out->page_fscache_share = map->page_fscache_share;
    if (map->page_logging && db->page_size_bytes > 0) {
        /* the log holds whole pages: the pages a record spans */
        double page = (double)db->page_size_bytes;
        out->log_kb = writes * ceil(rec_bytes / page) * page / 1024.0;
    }
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
