/* SPDX-License-Identifier: Apache-2.0 */
/*
 * reconcile.c — the model held against what the server says: the buffer
 * pool against the host's physical memory (rec_host_pool_fraction) and the
 * model's hit ratio against the measured one (rec_reconcile_judge). Pure:
 * recommend.c feeds both from the monitor evidence (collect/ reads it) and
 * words the reasons; docs/models.md "Host memory" and "Reconciliation".
 */
#include "recommend/recommend.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

double rec_host_pool_fraction(const char *engine, const char **cite)
{
    static const struct {
        const char *engine;
        double fraction;
        const char *cite;
    } tab[] = {
        {"postgresql", 0.25,
         "PostgreSQL docs, \"Resource Consumption\": 25% of RAM a reasonable "
         "starting value for shared_buffers on a dedicated server"},
        {"mysql", 0.80,
         "MariaDB KB, \"InnoDB Buffer Pool\": innodb_buffer_pool_size up to "
         "70-80% of memory on a dedicated server"},
        {"db2", 0.50,
         "IBM Db2 docs, \"instance_memory\": AUTOMATIC gives the whole "
         "instance 75-95% of RAM, which the buffer pools share with sort "
         "heaps, lock list and caches"},
        {"sqlite", 0.25,
         "no SQLite document gives a share; its reads also go through the "
         "OS cache, so PostgreSQL's 25%"},
    };

    for (size_t i = 0; engine && i < sizeof(tab) / sizeof(tab[0]); i++)
        if (strcmp(engine, tab[i].engine) == 0) {
            if (cite)
                *cite = tab[i].cite;
            return tab[i].fraction;
        }
    if (cite)
        *cite = "";
    return 0;
}

/*
 * The reason when the two differ, from the numbers: a table that fits in
 * the pool should hit ~100 % in both; if the window's misses are about the
 * table's pages they are cold reads (a pool filling after a restart), more
 * than that means other relations share the pool. A memory-bound model
 * assumes uniform access: a higher measured ratio means reads concentrate
 * on a hot set (the uniform model's ratio for that set is the measured
 * one: pool / measured pages), a lower one that the pool behaves as if
 * more pages (pool / measured) competed for it.
 */
static void differs(struct rec_reconcile *rc)
{
    double model = rc->model_hit_ratio, meas = rc->measured_hit_ratio;
    double phys = (double)rc->physical_reads;

    rc->measured_usable = 1;
    if (model >= 0.999 && phys <= 2 * rc->table_pages) {
        rc->measured_usable = 0;
        snprintf(rc->reason, sizeof(rc->reason),
                 "the table (%.0f pages) fits in the pool (%.0f pages), so "
                 "both should be about 100%%; the window's %llu block reads "
                 "are no more than twice the table's pages: cold reads (a "
                 "pool still filling after a restart, pages read for the "
                 "first time), not a pool too small",
                 rc->table_pages, rc->pool_pages,
                 (unsigned long long)rc->physical_reads);
    } else if (model >= 0.999) {
        snprintf(rc->reason, sizeof(rc->reason),
                 "the table (%.0f pages) fits in the pool (%.0f pages), yet "
                 "the window read %llu blocks into it, %.1fx the table's "
                 "pages: %s",
                 rc->table_pages, rc->pool_pages,
                 (unsigned long long)rc->physical_reads,
                 rc->table_pages > 0 ? phys / rc->table_pages : 0.0,
                 rc->table_scope
                     ? "other relations share the pool and evict its pages, "
                       "which the model of this table alone does not see"
                     : "the measured counters cover every relation of the "
                       "instance (other tables, indexes, TOAST) competing "
                       "for the pool, the model only this table's row "
                       "reads");
    } else if (meas > model) {
        snprintf(rc->reason, sizeof(rc->reason),
                 "the model assumes every row equally likely: %.0f table "
                 "pages in a %.0f-page pool give %.1f%%; the measured %.1f%% "
                 "is what uniform reads of about %.0f pages give: reads "
                 "concentrate on a hot set (give `trace` for access "
                 "weights)",
                 rc->table_pages, rc->pool_pages, 100 * model, 100 * meas,
                 rc->pool_pages / meas);
    } else if (meas > 0) {
        snprintf(rc->reason, sizeof(rc->reason),
                 "the pool behaves as if %.0f pages competed for it, %.1fx "
                 "this table's %.0f: %s",
                 rc->pool_pages / meas,
                 rc->table_pages > 0 ? rc->pool_pages / meas / rc->table_pages
                                     : 0.0,
                 rc->table_pages,
                 rc->table_scope
                     ? "other relations share the pool and evict this "
                       "table's pages"
                     : "the measured counters cover every relation of the "
                       "instance (other tables, indexes, TOAST), the model "
                       "only this table's row reads");
    } else {
        snprintf(rc->reason, sizeof(rc->reason),
                 "no block the window read was in the pool (%llu of %llu "
                 "missed): the window saw only first reads or a scan larger "
                 "than the %.0f-page pool",
                 (unsigned long long)rc->physical_reads,
                 (unsigned long long)rc->logical_reads, rc->pool_pages);
    }
}

void rec_reconcile_judge(struct rec_reconcile *rc, double model,
                         double measured, uint64_t logical, uint64_t physical,
                         double table_pages, double pool_pages, int table_scope)
{
    memset(rc, 0, sizeof(*rc));
    rc->present = 1;
    rc->table_scope = table_scope;
    rc->model_hit_ratio = model;
    rc->measured_hit_ratio = measured;
    rc->tolerance = REC_RECONCILE_TOLERANCE;
    rc->logical_reads = logical;
    rc->physical_reads = physical;
    rc->table_pages = table_pages;
    rc->pool_pages = pool_pages;
    if (logical < REC_RECONCILE_MIN_READS) {
        rc->verdict = "too_few_reads";
        snprintf(rc->reason, sizeof(rc->reason),
                 "the window saw %llu block accesses, fewer than %d: too "
                 "few for the measured ratio to say anything; monitor a "
                 "longer or busier window",
                 (unsigned long long)logical, REC_RECONCILE_MIN_READS);
        return;
    }
    if (fabs(measured - model) <= REC_RECONCILE_TOLERANCE + 1e-12) {
        rc->verdict = "agrees";
        rc->measured_usable = 1;
        snprintf(rc->reason, sizeof(rc->reason),
                 "model agrees with the measured hit ratio (%.1f%% vs "
                 "%.1f%%, within %.0f points)",
                 100 * model, 100 * measured, 100 * REC_RECONCILE_TOLERANCE);
        return;
    }
    rc->verdict = "differs";
    differs(rc);
}
