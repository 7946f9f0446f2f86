/* SPDX-License-Identifier: Apache-2.0 */
/*
 * predict.h — the commands' glue to the performance model (perf/): gather
 * the costs from the profiles in their documented order (device, engine,
 * application server, calibration), the count mapping's facts (engine
 * profile, table-space set-up), and turn a simulation result row into a
 * prediction (perf_counts_from_sim → perf_demand → perf_mva). Used by
 * cmd_simulate.c, cmd_calibrate.c and cmd_recommend.c. It reads profiles
 * and never prints; the model itself is perf/'s.
 */
#ifndef PT_CLI_PREDICT_H
#define PT_CLI_PREDICT_H

#include "perf/perf.h"
#include "sim/sim.h"

/* Where the model's inputs come from (names or files, as options give). */
struct cli_model_opts {
    const char *engine;      /* engine profile (default: db2) */
    const char *device;      /* device profile (default: ssd) */
    const char *appserver;   /* application-server profile (websphere-4) */
    const char *calibration; /* calibration profile, NULL = uncalibrated */
    double fscache_share;    /* 0..1, see perf_sim_map (default 1) */
};

/* Sets the defaults above. */
void cli_model_opts_init(struct cli_model_opts *o);

/* The loaded model: costs and mapping facts, and the calibration's range. */
struct cli_model {
    struct perf_costs costs;
    struct perf_sim_map map; /* object_bytes and sharing set per row */
    int calibrated;          /* 1: a calibration profile was applied */
    char calibration[64];    /* its name */
    int has_range;           /* the calibration has points with residuals */
    double resid_req_per_s;  /* max |relative residual| of its points */
    double resid_response_ms;
};

/*
 * Load the profiles of *o into *m. Errors: the profile loader's (missing
 * file → PT_ENOINPUT, bad YAML or field → PT_EDATA naming the file).
 */
int cli_model_load(struct cli_model *m, const struct cli_model_opts *o,
                   struct pt_err *err);

/*
 * The counts of one result row (perf_counts_from_sim with the row's mean
 * object size and the document's sharing policy). PT_EDATA when the row
 * has no object sizes (a simulation.json older than the model).
 */
int cli_model_counts(const struct cli_model *m,
                     const struct sim_plan_result *res,
                     const struct sim_result_row *row, struct perf_counts *out,
                     struct pt_err *err);

/*
 * Predict row for `clients` clients with think time `think_ms` and fill
 * row->predicted. The range is the prediction ± the calibration's largest
 * relative residual (pagetune-simulate(1), MODEL). Does not allocate.
 * Errors: perf_demand's and perf_mva's (PT_EDATA, e.g. a cost not set).
 */
int cli_model_predict(const struct cli_model *m,
                      const struct sim_plan_result *res,
                      struct sim_result_row *row, unsigned clients,
                      double think_ms, struct pt_err *err);

#endif /* PT_CLI_PREDICT_H */
