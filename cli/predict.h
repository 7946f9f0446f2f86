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

/*
 * Option-table entries of the performance model (cli/cli.h struct
 * cli_option), one definition for every command that offers them
 * (pagetune-simulate(1) MODEL). T is the command's args struct, its
 * struct cli_model_opts field is `model`; GIVEN is CLI_GIVEN(T, flag) to
 * record that one was given, or CLI_NOT_GIVEN.
 */
#define CLI_NOT_GIVEN .given_off = 0
/* clang-format off */
#define CLI_OPT_APPSERVER_ENTRY(T, GIVEN)                                      \
    {.name = "appserver", .type = CLI_T_STRING,                               \
     CLI_AT(T, model.appserver), GIVEN, .arg_name = "NAME|FILE",              \
     .help = "application-server profile with its costs",                     \
     .def = "websphere-4", .complete = CLI_C_APPSERVER}
#define CLI_OPT_FSCACHE_ENTRY(T, GIVEN)                                        \
    {.name = "fscache-share", .type = CLI_T_DOUBLE,                           \
     CLI_AT(T, model.fscache_share), GIVEN, .dmin = 0, .dmax = 1,             \
     .arg_name = "F",                                                         \
     .help = "share of direct (LONG/LOB) I/O the file-system cache serves: "  \
     "1 SMS, 0 raw DMS", .def = "1"}
/* --think-ms, --calibration, --appserver, --fscache-share of a predicting
   command: T also has `double think_ms` and `int model_opt` (set when one
   of them was given). --clients, whose meaning differs, is the command's. */
#define CLI_OPT_MODEL_ENTRIES(T)                                               \
    {.name = "think-ms", .type = CLI_T_DOUBLE, CLI_AT(T, think_ms),           \
     CLI_GIVEN(T, model_opt), .dmin = 0, .dmax = 1e9, .arg_name = "Z",        \
     .help = "think time between a client's requests, ms", .def = "0"},       \
    {.name = "calibration", .type = CLI_T_STRING,                             \
     CLI_AT(T, model.calibration), CLI_GIVEN(T, model_opt),                   \
     .arg_name = "NAME|FILE",                                                 \
     .help = "calibration profile (profiles/calibrations/)",                  \
     .def = "none, uncalibrated", .complete = CLI_C_CALIBRATION},             \
    CLI_OPT_APPSERVER_ENTRY(T, CLI_GIVEN(T, model_opt)),                      \
    CLI_OPT_FSCACHE_ENTRY(T, CLI_GIVEN(T, model_opt))
/* clang-format on */

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
