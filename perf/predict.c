/* SPDX-License-Identifier: Apache-2.0 */
/*
 * predict.c — perf/'s predictor (perf.h, "predictor"): reads the device,
 * engine, application-server and calibration profiles (the engine and the
 * device through model/'s one loader, rec_engine_load and rec_device_load;
 * the others through core/'s prof_load_named) into one struct
 * perf_costs, later sources over earlier ones, as
 * docs/models.md#performance-model prescribes, and predicts a simulation
 * result row (perf_counts_from_sim → perf_demand → perf_mva, model.c).
 * Neighbours: model.c (the arithmetic), calib.c (calibration profiles),
 * cli/cmd_simulate.c, cmd_recommend.c, cmd_calibrate.c (the callers).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perf/perf.h"

void perf_profiles_init(struct perf_profiles *o)
{
    memset(o, 0, sizeof(*o));
    o->engine = "db2";
    o->device = "ssd";
    o->appserver = "websphere-4";
    o->fscache_share = 1.0;
}

/* The costs a profile sets (not NaN) over *c. */
static void costs_overlay(struct perf_costs *c, const struct perf_costs *over)
{
    for (int i = 0; i < PERF_N_COSTS; i++) {
        double v = perf_cost_get(over, i);
        if (!isnan(v))
            *perf_cost_ptr(c, i) = v;
    }
}

/* The engine: direct I/O unit (page-fit rules), log facts and perf: costs. */
static int load_engine(struct perf_predictor *m, const char *name,
                       struct pt_err *err)
{
    struct rec_engine e;
    json_t *prof = NULL, *v;
    char path[4096];
    int ret;

    /* model/'s one engine loader; perf reads its own sections of the file */
    if ((ret = rec_engine_load(name, &e, &prof, path, sizeof(path), err)) < 0)
        return ret;
    m->map.direct_io_unit_bytes = e.direct_io_unit_bytes;
    /* optional facts of the count mapping (docs/models.md, "Counts from
     * the simulator"): record logging without a header unless the profile
     * says otherwise */
    v = json_object_get(prof, "page_logging");
    if (v && !json_is_boolean(v)) {
        ret = err_set(err, PT_EDATA, "%s: 'page_logging' must be true or false",
                      name);
        goto out;
    }
    m->map.page_logging = json_is_true(v);
    if ((ret = pt_json_opt_num(prof, "log_record_overhead_bytes",
                               &m->map.log_record_overhead_bytes, name, err)) <
        0)
        goto out;
    if (json_object_get(prof, "perf"))
        ret = perf_costs_from_json(&m->costs, json_object_get(prof, "perf"),
                                   name, err);
out:
    json_decref(prof);
    return ret;
}

static int load_device(struct perf_predictor *m, const char *name,
                       struct pt_err *err)
{
    struct rec_device d;
    char path[4096];
    int ret = rec_device_load(name, &d, path, sizeof(path), err);

    if (ret == 0)
        perf_costs_set_device(&m->costs, &d);
    return ret;
}

static int load_appserver(struct perf_predictor *m, const char *name,
                          struct pt_err *err)
{
    json_t *prof = NULL;
    int ret;

    if ((ret = prof_load_named("appservers", name, &prof, err)) < 0)
        return ret;
    ret = json_object_get(prof, "perf")
              ? perf_costs_from_json(&m->costs, json_object_get(prof, "perf"),
                                     name, err)
              : 0;
    json_decref(prof);
    return ret;
}

/* The calibration's costs over the others, and its residuals' range. */
static int load_calibration(struct perf_predictor *m, const char *name,
                            struct pt_err *err)
{
    struct perf_calib *cal = pt_calloc(1, sizeof(*cal)); /* ~90 KB */
    json_t *prof = NULL;
    int ret;

    if (!cal)
        return err_set(err, PT_EINTERNAL, "out of memory");
    if ((ret = prof_load_named("calibrations", name, &prof, err)) < 0 ||
        (ret = perf_calib_from_json(cal, prof, name, err)) < 0)
        goto out;
    costs_overlay(&m->costs, &cal->costs);
    m->calibrated = 1;
    snprintf(m->calibration, sizeof(m->calibration), "%s", cal->name);
    /* requests/s: the residual or, where a point was measured with an
     * interval, the farther end of it (perf_calib_range_req_per_s) */
    m->resid_req_per_s = perf_calib_range_req_per_s(cal);
    for (size_t i = 0; i < cal->n_points; i++)
        m->resid_response_ms =
            fmax(m->resid_response_ms, fabs(cal->resid_response_ms[i]));
    m->has_range = cal->n_points > 0;
out:
    json_decref(prof);
    free(cal);
    return ret;
}

int perf_predictor_load(struct perf_predictor *m, const struct perf_profiles *o,
                        struct pt_err *err)
{
    int ret;

    memset(m, 0, sizeof(*m));
    perf_costs_init(&m->costs);
    m->map.fscache_share = o->fscache_share;
    m->map.page_fscache_share = o->page_fscache_share;
    if ((ret = load_device(m, o->device, err)) < 0 ||
        (ret = load_engine(m, o->engine, err)) < 0 ||
        (ret = load_appserver(m, o->appserver, err)) < 0)
        return ret;
    return o->calibration ? load_calibration(m, o->calibration, err) : 0;
}

int perf_predictor_counts(const struct perf_predictor *m,
                          const struct sim_plan_result *res,
                          const struct sim_result_row *row,
                          struct perf_counts *out, struct pt_err *err)
{
    struct perf_sim_map map = m->map;

    map.sharing = res->sharing;
    if (sim_app_object_bytes(&row->app, &map.object_bytes) < 0) {
        if (row->app.gets + row->app.sets)
            return err_set(err, PT_EDATA,
                           "simulation result has no 'object_bytes': rerun "
                           "pagetune simulate");
        map.object_bytes = 0;
    }
    return perf_counts_from_sim(out, &row->app, row->has_db ? &row->db : NULL,
                                &map, err);
}

int perf_predictor_predict(const struct perf_predictor *m,
                           const struct sim_plan_result *res,
                           struct sim_result_row *row, unsigned clients,
                           double think_ms, struct pt_err *err)
{
    struct sim_predicted *p = &row->predicted;
    struct perf_counts n;
    struct perf_model model;
    struct perf_result r;
    int ret;

    if ((ret = perf_predictor_counts(m, res, row, &n, err)) < 0 ||
        (ret = perf_demand(&m->costs, &n, &model, err)) < 0 ||
        (ret = perf_mva(&model, clients, think_ms, &r, err)) < 0)
        return ret;
    memset(p, 0, sizeof(*p));
    p->present = 1;
    p->clients = clients;
    p->think_ms = think_ms;
    p->req_per_s = r.req_per_s;
    p->response_ms = r.response_ms;
    snprintf(p->bottleneck, sizeof(p->bottleneck), "%s",
             model.c[r.bottleneck].name);
    for (size_t k = 0; k < r.n && k < SIM_PRED_CENTRES; k++) {
        snprintf(p->util[k].name, SIM_PRED_NAME, "%s", model.c[k].name);
        p->util[k].util = r.util[k];
        p->n_util = k + 1;
    }
    p->calibrated = m->calibrated;
    snprintf(p->calibration, sizeof(p->calibration), "%s", m->calibration);
    if (m->has_range) {
        /* the documented rule: ± the largest relative residual of the
         * calibration's points (pagetune-simulate(1), MODEL) */
        p->has_range = 1;
        /* a range wider than the value itself ends at 0, not below */
        p->req_per_s_lo = r.req_per_s * fmax(0, 1 - m->resid_req_per_s);
        p->req_per_s_hi = r.req_per_s * (1 + m->resid_req_per_s);
        p->response_ms_lo = r.response_ms * fmax(0, 1 - m->resid_response_ms);
        p->response_ms_hi = r.response_ms * (1 + m->resid_response_ms);
    }
    return 0;
}
