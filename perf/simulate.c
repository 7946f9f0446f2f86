/* SPDX-License-Identifier: Apache-2.0 */
/*
 * simulate.c — the simulate step as library calls, so that a command keeps
 * options → request → call → write: perf_sim_prepare() loads the engine
 * and device profiles of the plan (model/'s one loader) and checks the
 * plan; perf_sim_run() runs it (sim/) and, with clients, predicts every
 * row with the model (predict.c). It lives in perf/ because the prediction
 * does; sim/ stays free of the model. Neighbours: cli/cmd_simulate.c.
 */
#include "perf/perf.h"

#include <string.h>

void perf_sim_request_init(struct perf_sim_request *q)
{
    memset(q, 0, sizeof(*q));
    sim_plan_init(&q->plan);
    perf_profiles_init(&q->model);
}

int perf_sim_prepare(struct perf_sim_request *q, struct pt_err *err)
{
    char epath[4096], dpath[4096];
    int ret;

    if (q->plan.n_page_sizes) {
        if ((ret = rec_profiles_load(q->plan.engine_name, q->plan.device_name,
                                     &q->engine, &q->device, epath, dpath,
                                     sizeof(epath), err)) < 0)
            return ret;
        q->plan.engine = &q->engine;
        q->plan.device = &q->device;
    }
    return sim_plan_check(&q->plan, err);
}

/* Every row's prediction for q->clients. MVA is O(clients x centres) per
 * row and allocates nothing. */
static int predict_rows(struct perf_sim_request *q, struct sim_plan_result *res,
                        struct pt_err *err)
{
    struct perf_predictor m;
    int ret;

    if (res->requests == 0)
        return err_set(err, PT_EDATA,
                       "trace '%s' has no requests: nothing to predict",
                       q->plan.trace);
    q->model.engine = q->plan.engine_name;
    q->model.device = q->plan.device_name;
    if ((ret = perf_predictor_load(&m, &q->model, err)) < 0)
        return ret;
    for (size_t i = 0; i < res->n_rows; i++)
        if ((ret = perf_predictor_predict(&m, res, &res->rows[i], q->clients,
                                          q->think_ms, err)) < 0)
            return ret;
    return 0;
}

int perf_sim_run(struct perf_sim_request *q, struct sim_plan_result *res,
                 struct pt_err *err)
{
    int ret = sim_plan_run(&q->plan, res, err);

    if (ret == 0 && q->clients)
        ret = predict_rows(q, res, err);
    return ret;
}
