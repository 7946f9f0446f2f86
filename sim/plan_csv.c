/* SPDX-License-Identifier: Apache-2.0 */
/*
 * plan_csv.c — the miss-ratio curves of a struct sim_plan_result (plan.c,
 * mrc.c) as CSV, one line per point: what `pagetune simulate --mrc-csv`
 * writes (pagetune-simulate(1)). Like the trace writer (trace.c) it writes
 * to a FILE * its caller opened; cli/cmd_simulate.c owns the file.
 */
#include <errno.h>
#include <string.h>

#include "sim/sim.h"

int sim_curves_write_csv(const struct sim_plan_result *res, FILE *fp,
                         struct pt_err *err)
{
    /* sampled curves add a column: 1 = size below 1/R (extrapolated) */
    int sampled = res->n_curves && res->curves[0].sample_rate < 1.0;

    fprintf(fp, "tier,page_size,size,bytes,hit_ratio,miss_ratio%s\n",
            sampled ? ",extrapolated" : "");
    for (size_t t = 0; t < res->n_curves; t++) {
        const struct sim_curve *cv = &res->curves[t];
        uint32_t ps = cv->page_size_bytes;
        for (size_t i = 0; i < cv->n_points; i++) {
            double h = cv->points[i].hit_ratio;
            char hb[400], mb[400];
            fprintf(fp, "%s,%u,%llu,%llu,%s,%s", ps ? "bufferpool" : "app", ps,
                    (unsigned long long)cv->points[i].size,
                    (unsigned long long)(cv->points[i].size * ps),
                    pt_csv_num(h, hb, sizeof(hb)),
                    pt_csv_num(1.0 - h, mb, sizeof(mb)));
            if (sampled)
                fprintf(fp, ",%d", cv->points[i].extrapolated);
            fputc('\n', fp);
        }
    }
    if (ferror(fp))
        return err_set(err, PT_EIO, "cannot write the curves: %s",
                       strerror(errno));
    return 0;
}
