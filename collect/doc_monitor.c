/* SPDX-License-Identifier: Apache-2.0 */
/*
 * doc_monitor.c — the monitor document (pagetune-monitor(1) FILES, read by
 * pagetune-recommend(1) --monitor): N snapshots of an engine's counters
 * grouped by object (buffer pool, tablespace, table, database, ...), with
 * each interval's deltas, rates and hit ratios, the run's totals
 * ("summary") and the configured pool ("current"). Writer and reader in
 * one place, beside the snapshots they describe (monitor.c, rows.c).
 *
 * Counter resets follow the one rule of coll_counter_delta() (rows.c).
 * Neighbours: cli/cmd_monitor.c writes it, cli/cmd_recommend.c reads it
 * into a struct rec_monitor.
 */
#include "collect/collect.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the run in memory --------------------------------------------------- */

double coll_monitor_run_delta(const struct coll_snapshot *snaps, size_t n,
                              const char *scope, const char *object,
                              const char *name, int *found)
{
    double total = 0;

    *found = 0;
    if (n == 1) {
        const struct coll_metric *m =
            coll_snapshot_find(&snaps[0], scope, object, name);
        if (m) {
            *found = 1;
            return m->value;
        }
        return 0;
    }
    for (size_t k = 1; k < n; k++) {
        const struct coll_metric *a =
            coll_snapshot_find(&snaps[k - 1], scope, object, name);
        const struct coll_metric *b =
            coll_snapshot_find(&snaps[k], scope, object, name);
        if (!a || !b)
            continue;
        *found = 1;
        total += coll_counter_delta(a->value, b->value, NULL);
    }
    return total;
}

void coll_monitor_summarize(const struct coll_snapshot *snaps, size_t n,
                            struct coll_monitor_summary *s)
{
    const struct coll_snapshot *last = &snaps[n - 1];

    memset(s, 0, sizeof(*s));
    for (size_t i = 0; i < last->n; i++) {
        const struct coll_metric *m = &last->m[i];
        double *sum = NULL;
        int f;

        if (strcmp(m->scope, "bufferpool") != 0)
            continue;
        if (strcmp(m->name, "logical_reads") == 0) {
            sum = &s->logical_reads;
            s->counted = 1;
        } else if (strcmp(m->name, "physical_reads") == 0)
            sum = &s->physical_reads;
        else if (strcmp(m->name, "direct_reads") == 0)
            sum = &s->direct_reads;
        else if (strcmp(m->name, "direct_writes") == 0)
            sum = &s->direct_writes;
        if (sum)
            *sum += coll_monitor_run_delta(snaps, n, m->scope, m->object,
                                           m->name, &f);
    }
    s->elapsed_s = last->t_s - snaps[0].t_s;
    s->hit_ratio = coll_hit_ratio(s->logical_reads, s->physical_reads);
}

void coll_monitor_doc_init(struct coll_monitor_doc *d, enum coll_engine e,
                           const struct coll_source *src,
                           const struct coll_snapshot *snaps, size_t n,
                           double interval_s)
{
    memset(d, 0, sizeof(*d));
    d->engine = e;
    if (src)
        d->source = *src;
    d->interval_s = interval_s;
    d->snaps = snaps;
    d->n = n;
    coll_monitor_current(e, &snaps[n - 1], &d->current);
    coll_monitor_summarize(snaps, n, &d->summary);
    d->host = snaps[n - 1].host;
}

int coll_monitor_window_thin(const struct coll_monitor_doc *d, const char *opt,
                             char *why, size_t why_len)
{
    const struct coll_monitor_summary *sm = &d->summary;
    /* the window asked for names it; the one measured gives the rate */
    double window = (double)(d->n - 1) * d->interval_s;
    double measured = sm->elapsed_s > 0 ? sm->elapsed_s : window;
    double need;

    if (d->n < 2 || !sm->counted || sm->logical_reads >= REC_MONITOR_MIN_READS)
        return 0;
    if (sm->logical_reads <= 0) {
        snprintf(why, why_len,
                 "the %g s monitor window saw no block accesses, fewer "
                 "than the %d its hit ratio and read rates need to be "
                 "trusted; monitor while the application is busy",
                 window, REC_MONITOR_MIN_READS);
        return 1;
    }
    /* the window that would count the minimum at the rate this one saw */
    need = measured * REC_MONITOR_MIN_READS / sm->logical_reads;
    snprintf(why, why_len,
             "the %g s monitor window saw %.0f block accesses, fewer than "
             "the %d its hit ratio and read rates need to be trusted; pass "
             "%s %.0f (or more), or monitor while the application is busy",
             window, sm->logical_reads, REC_MONITOR_MIN_READS, opt,
             ceil(need / (double)(d->n - 1)));
    return 1;
}

/* ---- writer: numbers ----------------------------------------------------- */

/* Whole numbers as JSON integers, the rest as reals. */
static json_t *num(double v)
{
    if (v == floor(v) && fabs(v) < 9e15)
        return json_integer((json_int_t)v);
    return json_real(v);
}

/* A real rounded to 3 decimals (seconds, rates, percentages). */
static json_t *real3(double v)
{
    return json_real(round(v * 1000) / 1000);
}

/* Hit ratio JSON: number 0..100 or null when undefined. */
static json_t *ratio_json(double logical, double physical)
{
    double r = coll_hit_ratio(logical, physical);
    return r < 0 ? json_null() : real3(r);
}

/* ---- writer: one object (pool, table, ...) ------------------------------- */

struct group {
    char scope[16];
    char object[128];
};

static int in_group(const struct coll_metric *m, const struct group *g)
{
    return strcmp(m->scope, g->scope) == 0 && strcmp(m->object, g->object) == 0;
}

/* Every snapshot's cumulative counters of the object. */
static json_t *snapshots_json(const struct coll_snapshot *snaps, size_t n,
                              const struct group *g)
{
    json_t *sn = json_array();

    for (size_t k = 0; sn && k < n; k++) {
        json_t *s = json_object(), *cnt = json_object();
        for (size_t i = 0; i < snaps[k].n; i++) {
            const struct coll_metric *m = &snaps[k].m[i];
            if (m->cumulative && in_group(m, g))
                json_object_set_new(cnt, m->name, num(m->value));
        }
        json_object_set_new(s, "t_s", real3(snaps[k].t_s - snaps[0].t_s));
        json_object_set_new(s, "taken_at", json_string(snaps[k].taken_at));
        json_object_set_new(s, "counters", cnt);
        json_array_append_new(sn, s);
    }
    return sn;
}

/* One interval (snapshot k-1 to k) of the object, or NULL. */
static json_t *interval_json(const struct coll_snapshot *snaps, size_t k,
                             const struct group *g)
{
    struct coll_delta *d = NULL;
    size_t nd = 0;
    json_t *s, *dv, *rv;

    if (coll_snapshot_deltas(&snaps[k - 1], &snaps[k], &d, &nd, NULL) < 0)
        return NULL;
    s = json_object();
    dv = json_object();
    rv = json_object();
    for (size_t i = 0; i < nd; i++) {
        if (!in_group(d[i].m, g))
            continue;
        json_object_set_new(dv, d[i].m->name, num(d[i].delta));
        json_object_set_new(rv, d[i].m->name, real3(d[i].rate_per_s));
    }
    free(d);
    json_object_set_new(s, "from", json_integer((json_int_t)k - 1));
    json_object_set_new(s, "to", json_integer((json_int_t)k));
    json_object_set_new(s, "seconds", real3(snaps[k].t_s - snaps[k - 1].t_s));
    if (strcmp(g->scope, "bufferpool") == 0) {
        json_t *l = json_object_get(dv, "logical_reads");
        json_t *p = json_object_get(dv, "physical_reads");
        if (l && p)
            json_object_set_new(
                s, "hit_ratio",
                ratio_json(json_number_value(l), json_number_value(p)));
    }
    json_object_set_new(s, "delta", dv);
    json_object_set_new(s, "rate_per_s", rv);
    return s;
}

/* Hit ratios over the run: a pool's, or a table's heap/TOAST/index ones. */
static void run_ratios_json(json_t *o, const struct coll_snapshot *snaps,
                            size_t n, const struct group *g)
{
    static const char *const kinds[][3] = {
        {"heap_hit_ratio", "HEAP_BLKS_HIT", "HEAP_BLKS_READ"},
        {"toast_hit_ratio", "TOAST_BLKS_HIT", "TOAST_BLKS_READ"},
        {"idx_hit_ratio", "IDX_BLKS_HIT", "IDX_BLKS_READ"}};
    int f1, f2;

    if (strcmp(g->scope, "bufferpool") == 0) {
        double l = coll_monitor_run_delta(snaps, n, g->scope, g->object,
                                          "logical_reads", &f1);
        double p = coll_monitor_run_delta(snaps, n, g->scope, g->object,
                                          "physical_reads", &f2);
        if (f1 && f2)
            json_object_set_new(o, "hit_ratio", ratio_json(l, p));
    } else if (strcmp(g->scope, "table") == 0) {
        for (size_t i = 0; i < 3; i++) {
            double h = coll_monitor_run_delta(snaps, n, g->scope, g->object,
                                              kinds[i][1], &f1);
            double r = coll_monitor_run_delta(snaps, n, g->scope, g->object,
                                              kinds[i][2], &f2);
            if (f1 && f2)
                json_object_set_new(o, kinds[i][0], ratio_json(h + r, r));
        }
    }
}

static json_t *group_json(const struct coll_snapshot *snaps, size_t n,
                          const struct group *g)
{
    json_t *o = json_object(), *sn = snapshots_json(snaps, n, g),
           *dl = json_array();
    const struct coll_snapshot *last = &snaps[n - 1];

    if (!o || !sn || !dl) {
        json_decref(o);
        json_decref(sn);
        json_decref(dl);
        return NULL;
    }
    json_object_set_new(o, "name", json_string(g->object));
    /* gauges and settings from the last snapshot */
    for (size_t i = 0; i < last->n; i++) {
        const struct coll_metric *m = &last->m[i];
        if (!m->cumulative && in_group(m, g))
            json_object_set_new(o, m->name, num(m->value));
    }
    for (size_t k = 1; k < n; k++) {
        json_t *s = interval_json(snaps, k, g);
        if (s)
            json_array_append_new(dl, s);
    }
    json_object_set_new(o, "snapshots", sn);
    json_object_set_new(o, "deltas", dl);
    run_ratios_json(o, snaps, n, g);
    return o;
}

/* ---- writer: the document ------------------------------------------------ */

/* The scopes, in document order, and the key of each one's array. */
static const struct {
    const char *scope, *key;
    int always; /* present even when empty (recommend relies on it) */
} scopes[] = {{"bufferpool", "bufferpools", 1},
              {"pool_instance", "bufferpool_instances", 0},
              {"tablespace", "tablespaces", 0},
              {"table", "tables", 1},
              {"database", "databases", 0},
              {"instance", "instance", 0},
              {"setting", "settings", 0}};
#define N_SCOPES (sizeof(scopes) / sizeof(scopes[0]))

/* The distinct (scope, object) pairs of the run, first seen first. */
static int collect_groups(const struct coll_snapshot *snaps, size_t n,
                          struct group **out, size_t *n_out)
{
    struct group *g = NULL;
    size_t ng = 0, cap = 0;

    for (size_t k = 0; k < n; k++)
        for (size_t i = 0; i < snaps[k].n; i++) {
            const struct coll_metric *m = &snaps[k].m[i];
            size_t j = 0;
            while (j < ng && !in_group(m, &g[j]))
                j++;
            if (j < ng)
                continue;
            if (ng == cap) {
                size_t nc = cap ? cap * 2 : 32;
                struct group *gg = realloc(g, nc * sizeof(*gg));
                if (!gg) {
                    free(g);
                    return -1;
                }
                g = gg;
                cap = nc;
            }
            snprintf(g[ng].scope, sizeof(g[ng].scope), "%s", m->scope);
            snprintf(g[ng].object, sizeof(g[ng].object), "%s", m->object);
            ng++;
        }
    *out = g;
    *n_out = ng;
    return 0;
}

static json_t *summary_json(const struct coll_monitor_doc *d)
{
    const struct coll_monitor_summary *sm = &d->summary;
    json_t *sum = json_object();

    json_object_set_new(sum, "hit_ratio",
                        sm->hit_ratio < 0 ? json_null() : real3(sm->hit_ratio));
    json_object_set_new(sum, "hit_ratio_basis",
                        json_string(d->n > 1 ? "deltas between the first and "
                                               "last snapshot"
                                             : "counters since server start "
                                               "(one snapshot)"));
    json_object_set_new(sum, "logical_reads", num(sm->logical_reads));
    json_object_set_new(sum, "physical_reads", num(sm->physical_reads));
    json_object_set_new(sum, "direct_reads", num(sm->direct_reads));
    json_object_set_new(sum, "direct_writes", num(sm->direct_writes));
    json_object_set_new(sum, "direct_read_share",
                        sm->direct_reads + sm->logical_reads > 0
                            ? json_real(sm->direct_reads /
                                        (sm->direct_reads + sm->logical_reads))
                            : json_null());
    json_object_set_new(sum, "elapsed_s", real3(sm->elapsed_s));
    if (d->n > 1 && sm->elapsed_s > 0) {
        json_object_set_new(sum, "logical_reads_per_s",
                            real3(sm->logical_reads / sm->elapsed_s));
        json_object_set_new(sum, "physical_reads_per_s",
                            real3(sm->physical_reads / sm->elapsed_s));
    }
    if (!d->current.has_hit_counters)
        json_object_set_new(sum, "hit_ratio_note",
                            json_string(d->current.note));
    return sum;
}

/* What could not be read: the engine's note, then the first snapshot's. */
static json_t *notes_json(const struct coll_monitor_doc *d)
{
    json_t *notes = json_array();

    if (d->current.note[0])
        json_array_append_new(notes, json_string(d->current.note));
    for (size_t k = 0; k < d->n; k++)
        if (d->snaps[k].note[0]) {
            json_array_append_new(notes, json_string(d->snaps[k].note));
            break;
        }
    return notes;
}

/* The per-scope arrays into doc, in the order of scopes[]. */
static int add_scopes(json_t *doc, const struct coll_monitor_doc *d)
{
    struct group *groups = NULL;
    size_t ng = 0;

    if (collect_groups(d->snaps, d->n, &groups, &ng) < 0)
        return -1;
    for (size_t s = 0; s < N_SCOPES; s++) {
        json_t *arr = json_array();
        for (size_t i = 0; arr && i < ng; i++)
            if (strcmp(groups[i].scope, scopes[s].scope) == 0) {
                json_t *gj = group_json(d->snaps, d->n, &groups[i]);
                if (gj)
                    json_array_append_new(arr, gj);
            }
        if (scopes[s].always || json_array_size(arr) > 0)
            json_object_set_new(doc, scopes[s].key, arr);
        else
            json_decref(arr);
    }
    free(groups);
    return 0;
}

/*
 * The knobs read live (coll_state_read) beside the plain members of
 * "current": {value, source} each, except those the plain members already
 * hold (page_size, bufferpool_pages: readers take them as integers).
 */
static int add_knobs(json_t *cur, const struct coll_monitor_doc *d)
{
    json_t *knobs = coll_state_to_json(d->state);
    const char *name;
    json_t *v;

    if (!knobs)
        return -1;
    json_object_foreach(knobs, name, v)
    {
        if (json_object_get(cur, name))
            continue;
        if (json_object_set(cur, name, v) < 0) {
            json_decref(knobs);
            return -1;
        }
    }
    json_decref(knobs);
    if (d->state->note[0])
        json_object_set_new(cur, "note", json_string(d->state->note));
    return 0;
}

/*
 * "host": {"memory_bytes": N, "source": how} when the host's memory was
 * read, else {"memory_bytes": null, "reason": why} (docs/formats.md).
 */
static json_t *host_json(const struct coll_host *h)
{
    if (h->known)
        return json_pack("{s:I,s:s}", "memory_bytes",
                         (json_int_t)h->memory_bytes, "source", h->source);
    return json_pack("{s:n,s:s}", "memory_bytes", "reason",
                     h->read && h->note[0] ? h->note
                                           : "host memory not read: the "
                                             "snapshots were taken without "
                                             "a monitor run");
}

json_t *coll_monitor_doc_to_json(const struct coll_monitor_doc *d)
{
    const struct coll_current *cur = &d->current;
    json_t *doc, *sum = summary_json(d);

    doc =
        json_pack("{s:i,s:s,s:s,s:{s:s,s:s,s:s,s:s,s:s,s:s},s:f,s:I,"
                  "s:{s:I,s:I,s:I,s:s},s:o}",
                  "schema_version", 1, "pagetune_version", PT_VERSION, "engine",
                  coll_engine_name(d->engine), "source", "kind", "odbc", "dbms",
                  d->source.dbms, "driver", d->source.driver, "connection",
                  d->source.connection, "first_snapshot", d->snaps[0].taken_at,
                  "last_snapshot", d->snaps[d->n - 1].taken_at, "interval_s",
                  d->interval_s, "count", (json_int_t)d->n, "current",
                  "page_size", (json_int_t)cur->page_size, "bufferpool_pages",
                  (json_int_t)cur->bufferpool_pages, "bufferpool_bytes",
                  (json_int_t)cur->bufferpool_bytes, "bufferpool",
                  cur->bufferpool, "summary", sum);
    if (!doc)
        return NULL;
    if (d->state && add_knobs(json_object_get(doc, "current"), d) < 0) {
        json_decref(doc);
        return NULL;
    }
    if (json_object_set_new(doc, "host", host_json(&d->host)) < 0 ||
        add_scopes(doc, d) < 0) {
        json_decref(doc);
        return NULL;
    }
    json_object_set_new(doc, "notes", notes_json(d));
    return doc;
}

/* ---- the evidence a recommendation uses (struct rec_monitor) ------------- */

/* The current page size: 1 byte .. 1 MiB, or the evidence is unusable. */
static int set_page_size(struct rec_monitor *m, uint64_t ps, const char *name,
                         struct pt_err *err)
{
    if (ps == 0 || ps > (1U << 20))
        return err_set(err, PT_EDATA, "%s: current page_size %llu is invalid",
                       name, (unsigned long long)ps);
    m->page_size_bytes = (uint32_t)ps;
    return 0;
}

/* Hit ratio -1 (unknown) or 0..100, direct-read share 0..1. */
static int check_ratios(const struct rec_monitor *m, const char *name,
                        struct pt_err *err)
{
    if (!(m->hit_ratio_pct == -1 ||
          (m->hit_ratio_pct >= 0 && m->hit_ratio_pct <= 100)))
        return err_set(err, PT_EDATA,
                       "%s: summary hit_ratio must be a percentage 0..100",
                       name);
    if (!(m->direct_read_share >= 0 && m->direct_read_share <= 1))
        return err_set(err, PT_EDATA,
                       "%s: summary direct_read_share must be 0..1", name);
    return 0;
}

/* A summary counter as a count, as the document's reader accepts it. */
static int count_u64(double v, uint64_t *out, const char *key, const char *name,
                     struct pt_err *err)
{
    if (!(v >= 0 && v < 1.8e19 && v == (double)(uint64_t)v))
        return err_set(err, PT_EDATA,
                       "%s: summary: '%s' must be a non-negative integer", name,
                       key);
    *out = (uint64_t)v;
    return 0;
}

/* The counters of the blocks a row access touches: heap, TOAST, TOAST
 * index (pg_statio_user_tables), hits then reads. */
static const char *const row_hits[] = {"HEAP_BLKS_HIT", "TOAST_BLKS_HIT",
                                       "TIDX_BLKS_HIT"};
static const char *const row_reads[] = {"HEAP_BLKS_READ", "TOAST_BLKS_READ",
                                        "TIDX_BLKS_READ"};

/* A block count as the evidence holds it (negative or absurd: 0). */
static uint64_t blocks(double v)
{
    return v >= 0 && v < 9e15 ? (uint64_t)v : 0;
}

/* Each table's row-access hits and reads over the run, in process. */
static void table_evidence(struct rec_monitor *m,
                           const struct coll_monitor_doc *d)
{
    const struct coll_snapshot *last = &d->snaps[d->n - 1];

    for (size_t i = 0; i < last->n && m->n_tables < REC_MONITOR_MAX_TABLES;
         i++) {
        const struct coll_metric *x = &last->m[i];
        struct rec_monitor_table *t = &m->tables[m->n_tables];
        double h = 0, r = 0;
        int f;

        if (strcmp(x->scope, "table") != 0 || strcmp(x->name, row_hits[0]) != 0)
            continue;
        for (size_t k = 0; k < 3; k++) {
            h += coll_monitor_run_delta(d->snaps, d->n, "table", x->object,
                                        row_hits[k], &f);
            r += coll_monitor_run_delta(d->snaps, d->n, "table", x->object,
                                        row_reads[k], &f);
        }
        snprintf(t->name, sizeof(t->name), "%s", x->object);
        t->hits = blocks(h);
        t->reads = blocks(r);
        m->n_tables++;
    }
}

int coll_monitor_doc_evidence(const struct coll_monitor_doc *d,
                              struct rec_monitor *m, struct pt_err *err)
{
    const struct coll_monitor_summary *sm = &d->summary;
    const char *name = "monitor";
    int rc;

    memset(m, 0, sizeof(*m));
    if ((rc = set_page_size(m, d->current.page_size, name, err)) < 0)
        return rc;
    m->bufferpool_pages = d->current.bufferpool_pages;
    snprintf(m->engine, sizeof(m->engine), "%s", coll_engine_name(d->engine));
    /* rounded as the document prints it, so both paths agree */
    m->hit_ratio_pct =
        sm->hit_ratio < 0 ? -1 : round(sm->hit_ratio * 1000) / 1000;
    m->direct_read_share =
        sm->direct_reads + sm->logical_reads > 0
            ? sm->direct_reads / (sm->direct_reads + sm->logical_reads)
            : 0;
    if ((rc = count_u64(sm->logical_reads, &m->logical_reads, "logical_reads",
                        name, err)) < 0 ||
        (rc = count_u64(sm->physical_reads, &m->physical_reads,
                        "physical_reads", name, err)) < 0 ||
        (rc = count_u64(sm->direct_reads, &m->direct_reads, "direct_reads",
                        name, err)) < 0 ||
        (rc = check_ratios(m, name, err)) < 0)
        return rc;
    table_evidence(m, d);
    m->host_read = 1;
    m->host_memory_bytes = d->host.known ? d->host.memory_bytes : 0;
    snprintf(m->host_source, sizeof(m->host_source), "%s",
             d->host.known ? d->host.source
             : d->host.note[0]
                 ? d->host.note
                 : "host memory not read: the snapshots were taken without "
                   "a monitor run");
    m->present = 1;
    return 0;
}

/* ---- reader -------------------------------------------------------------- */

/* "current": the page size (required) and pool pages (0 when unknown). */
static int read_current(struct rec_monitor *m, const json_t *cur,
                        const char *name, struct pt_err *err)
{
    const json_t *bp = json_object_get(cur, "bufferpool_pages");
    char ctx[512];
    uint64_t ps = 0;
    int rc;

    snprintf(ctx, sizeof(ctx), "%s: current", name);
    if ((rc = pt_json_get_u64(cur, "page_size", &ps, ctx, err)) < 0)
        return rc;
    /* negative (DB2 NPAGES -2: AUTOMATIC) or null: size unknown */
    if (json_is_integer(bp) && json_integer_value(bp) > 0)
        m->bufferpool_pages = (uint64_t)json_integer_value(bp);
    else if (bp && !json_is_null(bp) && !json_is_integer(bp))
        return err_set(err, PT_EDATA,
                       "%s: 'bufferpool_pages' must be an integer", ctx);
    return set_page_size(m, ps, name, err);
}

/* "summary": hit ratio, direct-read share, read counters. */
static int read_summary(struct rec_monitor *m, const json_t *sum,
                        const char *name, struct pt_err *err)
{
    char ctx[512];
    int rc;

    snprintf(ctx, sizeof(ctx), "%s: summary", name);
    /* null (no logical reads in the interval) means "unknown" */
    if (json_is_null(json_object_get(sum, "hit_ratio")))
        m->hit_ratio_pct = -1;
    else if ((rc = pt_json_get_num(sum, "hit_ratio", &m->hit_ratio_pct, ctx,
                                   err)) < 0)
        return rc;
    if (json_is_null(json_object_get(sum, "direct_read_share")))
        m->direct_read_share = 0;
    else if ((rc = pt_json_opt_num(sum, "direct_read_share",
                                   &m->direct_read_share, ctx, err)) < 0)
        return rc;
    if ((rc = pt_json_opt_u64(sum, "logical_reads", &m->logical_reads, ctx,
                              err)) < 0 ||
        (rc = pt_json_opt_u64(sum, "physical_reads", &m->physical_reads, ctx,
                              err)) < 0 ||
        (rc = pt_json_opt_u64(sum, "direct_reads", &m->direct_reads, ctx,
                              err)) < 0)
        return rc;
    return check_ratios(m, name, err);
}

/*
 * "host" (optional: documents of older versions have none): memory_bytes
 * (an integer, 1 MiB .. 1 PiB) with its source, or null with the reason.
 */
static int read_host(struct rec_monitor *m, const json_t *h, const char *name,
                     struct pt_err *err)
{
    const json_t *mb, *src;
    char ctx[512];
    uint64_t v = 0;
    int rc;

    if (!h) {
        snprintf(m->host_source, sizeof(m->host_source),
                 "%s has no \"host\" (written before pagetune read host "
                 "memory)",
                 name);
        return 0;
    }
    snprintf(ctx, sizeof(ctx), "%s: host", name);
    if (!json_is_object(h))
        return err_set(err, PT_EDATA, "%s: must be an object", ctx);
    mb = json_object_get(h, "memory_bytes");
    m->host_read = 1;
    if (!mb || json_is_null(mb)) {
        src = json_object_get(h, "reason");
        snprintf(m->host_source, sizeof(m->host_source), "%s",
                 json_is_string(src) ? json_string_value(src)
                                     : "host memory not readable");
        return 0;
    }
    if ((rc = pt_json_get_u64(h, "memory_bytes", &v, ctx, err)) < 0)
        return rc;
    if (v < (1ULL << 20) || v > (1ULL << 50))
        return err_set(err, PT_EDATA,
                       "%s: 'memory_bytes' %llu is not a machine's memory "
                       "(1 MiB .. 1 PiB)",
                       ctx, (unsigned long long)v);
    src = json_object_get(h, "source");
    m->host_memory_bytes = v;
    snprintf(m->host_source, sizeof(m->host_source), "%s",
             json_is_string(src) ? json_string_value(src) : "monitor.json");
    return 0;
}

/* A counter of a "counters" or "delta" object: 0 when absent or null. */
static double counter(const json_t *o, const char *name)
{
    const json_t *v = json_object_get(o, name);
    return json_is_number(v) ? json_number_value(v) : 0;
}

/*
 * "tables": each table's row-access hits and reads over the run — the sum
 * of its deltas, or with one snapshot its counters since the server
 * started. Entries without a name or counters are skipped (other engines).
 */
static void read_tables(struct rec_monitor *m, const json_t *tables)
{
    size_t i;
    const json_t *t;

    json_array_foreach(tables, i, t)
    {
        const json_t *name = json_object_get(t, "name");
        const json_t *dl = json_object_get(t, "deltas");
        const json_t *sn = json_object_get(t, "snapshots");
        struct rec_monitor_table *mt = &m->tables[m->n_tables];
        double h = 0, r = 0;
        size_t j;
        const json_t *x;

        if (m->n_tables >= REC_MONITOR_MAX_TABLES)
            break;
        if (!json_is_string(name))
            continue;
        if (json_array_size(dl) > 0) {
            json_array_foreach(dl, j, x)
            {
                const json_t *dv = json_object_get(x, "delta");
                for (size_t k = 0; k < 3; k++) {
                    h += counter(dv, row_hits[k]);
                    r += counter(dv, row_reads[k]);
                }
            }
        } else if (json_array_size(sn) == 1) {
            const json_t *cv =
                json_object_get(json_array_get(sn, 0), "counters");
            for (size_t k = 0; k < 3; k++) {
                h += counter(cv, row_hits[k]);
                r += counter(cv, row_reads[k]);
            }
        } else {
            continue;
        }
        snprintf(mt->name, sizeof(mt->name), "%s", json_string_value(name));
        mt->hits = blocks(h);
        mt->reads = blocks(r);
        m->n_tables++;
    }
}

int coll_monitor_doc_from_json(struct rec_monitor *m, const json_t *doc,
                               const char *name, struct pt_err *err)
{
    const json_t *cur, *sum, *en;
    int rc;

    memset(m, 0, sizeof(*m));
    if (!json_is_object(doc))
        return err_set(err, PT_EDATA, "%s: a monitor document is a JSON object",
                       name);
    if ((rc = pt_json_wrong_doc(doc, "monitor", name, err)) < 0)
        return rc;
    cur = json_object_get(doc, "current");
    sum = json_object_get(doc, "summary");
    if (!json_is_object(cur) || !json_is_object(sum))
        return err_set(err, PT_EDATA,
                       "%s: needs objects 'current' and 'summary'", name);
    if ((rc = read_current(m, cur, name, err)) < 0)
        return rc;
    en = json_object_get(doc, "engine");
    if (json_is_string(en))
        snprintf(m->engine, sizeof(m->engine), "%s", json_string_value(en));
    if ((rc = read_summary(m, sum, name, err)) < 0 ||
        (rc = read_host(m, json_object_get(doc, "host"), name, err)) < 0)
        return rc;
    read_tables(m, json_object_get(doc, "tables"));
    m->present = 1;
    return 0;
}
