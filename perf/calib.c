/* SPDX-License-Identifier: Apache-2.0 */
/*
 * calib.c — perf/'s calibration: fits the free costs of the model to
 * measured points with MINPACK's Levenberg-Marquardt (cminpack's lmdif,
 * Moré 1978; the only file that includes <cminpack.h>), and reads and
 * writes calibration profiles (profiles/calibrations/, YAML).
 * Neighbours: model.c (perf_demand, perf_mva: one evaluation per point),
 * core/prof.c (loads the profile as a jansson tree).
 *
 * The fit. Each point i gives two residuals, the relative errors of the
 * predicted throughput and response time, (X_pred - X_meas) / X_meas and
 * (R_pred - R_meas) / R_meas, so a point at 10 req/s weighs as much as one
 * at 1000. lmdif minimises their sum of squares over unbounded variables
 * u_j; a free cost is lo + (hi - lo) * s(u_j) with s the logistic function
 * 1 / (1 + exp(-u)), which maps the real line onto the open bound
 * interval, so the solver never leaves [lo, hi] and needs no bound logic.
 * The Jacobian is by forward differences (lmdif), which costs one MVA per
 * point and free cost per iteration: cheap at O(N K) each.
 */
#include "perf/perf.h"

#include <cminpack.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static double logistic(double u)
{
    return 1.0 / (1.0 + exp(-u));
}

static double to_cost(const struct perf_free *f, double u)
{
    return f->lo + (f->hi - f->lo) * logistic(u);
}

static double from_cost(const struct perf_free *f, double v)
{
    double s = (v - f->lo) / (f->hi - f->lo);
    return log(s / (1.0 - s));
}

/* Evaluate every point at the costs of cal (predictions + residuals). */
static int evaluate(struct perf_calib *cal, struct pt_err *err)
{
    double ss = 0;

    for (size_t i = 0; i < cal->n_points; i++) {
        const struct perf_point *p = &cal->points[i];
        struct perf_model m;
        struct perf_result r;
        int rc;

        if ((rc = perf_demand(&cal->costs, &p->counts, &m, err)) < 0 ||
            (rc = perf_mva(&m, p->clients, p->think_ms, &r, err)) < 0) {
            if (err)
                err_prefix(err, "point %zu ('%s')", i + 1, p->label);
            return rc;
        }
        cal->pred_req_per_s[i] = r.req_per_s;
        cal->pred_response_ms[i] = r.response_ms;
        cal->resid_req_per_s[i] = (r.req_per_s - p->req_per_s) / p->req_per_s;
        cal->resid_response_ms[i] =
            (r.response_ms - p->response_ms) / p->response_ms;
        ss += cal->resid_req_per_s[i] * cal->resid_req_per_s[i] +
              cal->resid_response_ms[i] * cal->resid_response_ms[i];
    }
    cal->rms_resid =
        cal->n_points ? sqrt(ss / (2.0 * (double)cal->n_points)) : 0;
    return 0;
}

struct fit_ctx {
    struct perf_calib *cal;
    struct pt_err *err;
    int failed; /* a status when an evaluation failed, else 0 */
};

/* lmdif's callback: residuals at the free costs x (in u space). */
static int residuals(void *p, int m, int n, const double *u, double *fvec,
                     int iflag)
{
    struct fit_ctx *ctx = p;
    struct perf_calib *cal = ctx->cal;

    (void)iflag;
    for (int j = 0; j < n; j++)
        *perf_cost_ptr(&cal->costs, cal->free[j].cost) =
            to_cost(&cal->free[j], u[j]);
    if ((ctx->failed = evaluate(cal, ctx->err)) < 0) {
        return -1; /* a negative value stops lmdif */
    }
    for (size_t i = 0; i < cal->n_points && (int)(2 * i + 1) < m; i++) {
        fvec[2 * i] = cal->resid_req_per_s[i];
        fvec[2 * i + 1] = cal->resid_response_ms[i];
    }
    return 0;
}

static int check_setup(const struct perf_calib *cal, struct pt_err *err)
{
    if (cal->n_free == 0 || cal->n_free > PERF_N_COSTS)
        return err_set(err, PT_EDATA,
                       "calibration needs 1..%d free costs, got %zu",
                       PERF_N_COSTS, cal->n_free);
    if (cal->n_points < cal->n_free)
        return err_set(err, PT_EDATA,
                       "calibration needs at least %zu points for %zu free "
                       "costs, got %zu",
                       cal->n_free, cal->n_free, cal->n_points);
    if (cal->n_points > PERF_MAX_POINTS)
        return err_set(err, PT_EDATA, "calibration takes at most %d points",
                       PERF_MAX_POINTS);
    for (size_t j = 0; j < cal->n_free; j++) {
        const struct perf_free *f = &cal->free[j];

        if (f->cost < 0 || f->cost >= PERF_N_COSTS)
            return err_set(err, PT_EDATA, "free cost %zu: unknown cost", j + 1);
        if (f->cost >= PERF_N_FITTABLE)
            return err_set(err, PT_EDATA,
                           "'%s' is a count of servers or a placement, not "
                           "a cost to fit",
                           perf_cost_name(f->cost));
        if (!(f->lo >= 0) || !(f->hi > f->lo) || !isfinite(f->hi))
            return err_set(err, PT_EDATA,
                           "free cost '%s': bounds must be 0 <= lo < hi",
                           perf_cost_name(f->cost));
        for (size_t k = 0; k < j; k++)
            if (cal->free[k].cost == f->cost)
                return err_set(err, PT_EDATA, "free cost '%s' given twice",
                               perf_cost_name(f->cost));
    }
    for (size_t i = 0; i < cal->n_points; i++) {
        const struct perf_point *p = &cal->points[i];

        if (!(p->req_per_s > 0) || !(p->response_ms > 0) ||
            !isfinite(p->req_per_s) || !isfinite(p->response_ms))
            return err_set(err, PT_EDATA,
                           "point %zu ('%s'): measured req/s and response ms "
                           "must be > 0",
                           i + 1, p->label);
    }
    return 0;
}

/* Halton's radical inverse of i in base b: a point in (0, 1). */
static double radical_inverse(unsigned i, unsigned b)
{
    double f = 1.0, r = 0.0;

    for (; i > 0; i /= b) {
        f /= b;
        r += f * (double)(i % b);
    }
    return r;
}

/* Start number s (>= 1) for free cost j: the s-th Halton point. */
static double halton_start(const struct perf_free *f, unsigned s, size_t j)
{
    static const unsigned primes[PERF_N_FITTABLE] = {
        2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53, 59};
    double q = radical_inverse(s, primes[j % PERF_N_FITTABLE]);

    if (f->lo > 0)
        return f->lo * pow(f->hi / f->lo, q);
    return f->lo + (f->hi - f->lo) * q;
}

int perf_calib_fit(struct perf_calib *cal, struct pt_err *err)
{
    struct fit_ctx ctx = {cal, err, 0};
    int m, n, lwa, info, best_info = 0, rc = 0;
    int *iwa = NULL;
    double *u = NULL, *best = NULL, *fvec = NULL, *wa = NULL;
    double best_rms = INFINITY;

    if ((rc = check_setup(cal, err)) < 0)
        return rc;
    n = (int)cal->n_free;
    m = 2 * (int)cal->n_points;
    lwa = m * n + 5 * n + m; /* lmdif1's minimum work array */
    iwa = pt_calloc((size_t)n, sizeof(*iwa));
    u = pt_calloc((size_t)n, sizeof(*u));
    best = pt_calloc((size_t)n, sizeof(*best));
    fvec = pt_calloc((size_t)m, sizeof(*fvec));
    wa = pt_calloc((size_t)lwa, sizeof(*wa));
    if (!iwa || !u || !best || !fvec || !wa) {
        rc = err_set(err, PT_EINTERNAL, "out of memory");
        goto out;
    }
    for (unsigned s = 0; s < PERF_FIT_STARTS; s++) {
        for (int j = 0; j < n; j++) {
            const struct perf_free *f = &cal->free[j];
            double v = perf_cost_get(&cal->costs, f->cost);

            if (s > 0)
                v = halton_start(f, s, (size_t)j);
            else if (!(v > f->lo && v < f->hi))
                v = f->lo > 0 ? sqrt(f->lo * f->hi) : 0.5 * (f->lo + f->hi);
            u[j] = from_cost(f, v);
        }
        /* tol: relative error wanted in the sum of squares and in u */
        info = lmdif1(residuals, &ctx, m, n, u, fvec, 1e-12, iwa, wa, lwa);
        if (ctx.failed) {
            rc = ctx.failed;
            goto out;
        }
        if (info == 0) {
            rc = err_set(err, PT_EINTERNAL,
                         "calibration: improper solver input");
            goto out;
        }
        /* the residuals at the solution (lmdif's last call may have been
         * a Jacobian column) */
        if (residuals(&ctx, m, n, u, fvec, 1) < 0) {
            rc = ctx.failed;
            goto out;
        }
        if (cal->rms_resid < best_rms) {
            best_rms = cal->rms_resid;
            best_info = info;
            memcpy(best, u, (size_t)n * sizeof(*u));
        }
    }
    cal->solver_info = best_info;
    for (int j = 0; j < n; j++) {
        cal->fitted[j] = to_cost(&cal->free[j], best[j]);
        *perf_cost_ptr(&cal->costs, cal->free[j].cost) = cal->fitted[j];
    }
    rc = evaluate(cal, err);
out:
    free(iwa);
    free(u);
    free(best);
    free(fvec);
    free(wa);
    return rc;
}

/* Jacobian column of free cost j: d residual / d ln cost at cal's costs. */
static int jac_column(struct perf_calib *cal, size_t j, double *col,
                      struct pt_err *err)
{
    double *c = perf_cost_ptr(&cal->costs, cal->free[j].cost);
    double v = *c, h = fmax(1e-4 * fabs(v), 1e-9);
    double scale = (v > 0 ? v : 1.0) / (2 * h);
    size_t m = cal->n_points;
    int rc;

    /* central differences: the truncation error is O(h^2), far below
     * PERF_IDENT_TOL, so two costs that move the residuals the same way
     * give parallel columns */
    *c = v + h;
    if ((rc = evaluate(cal, err)) < 0) {
        *c = v;
        return rc;
    }
    for (size_t i = 0; i < m; i++) {
        col[2 * i] = cal->resid_req_per_s[i];
        col[2 * i + 1] = cal->resid_response_ms[i];
    }
    *c = v - h;
    rc = evaluate(cal, err);
    *c = v;
    if (rc < 0)
        return rc;
    for (size_t i = 0; i < m; i++) {
        col[2 * i] = (col[2 * i] - cal->resid_req_per_s[i]) * scale;
        col[2 * i + 1] = (col[2 * i + 1] - cal->resid_response_ms[i]) * scale;
    }
    return 0;
}

static double dot(const double *a, const double *b, size_t m)
{
    double s = 0;
    for (size_t i = 0; i < m; i++)
        s += a[i] * b[i];
    return s;
}

/* The share of column k of J (m x n, column-major) left after projecting
 * off the columns in use[] (Gram-Schmidt on a copy in w): its remaining
 * norm over its own norm, 0 when its own norm is below PERF_IDENT_ABS
 * (the cost moves no residual). */
static double residual_norm(const double *J, size_t m, size_t n, size_t k,
                            const int *use, double *q, double *w)
{
    size_t nq = 0;

    for (size_t j = 0; j < n; j++) {
        if (!use[j] || j == k)
            continue;
        memcpy(w, J + j * m, m * sizeof(*w));
        for (size_t t = 0; t < nq; t++) {
            double d = dot(w, q + t * m, m);
            for (size_t i = 0; i < m; i++)
                w[i] -= d * q[t * m + i];
        }
        double nw = sqrt(dot(w, w, m));
        double nj = sqrt(dot(J + j * m, J + j * m, m));
        if (nj > PERF_IDENT_ABS && nw > PERF_IDENT_TOL * nj) {
            for (size_t i = 0; i < m; i++)
                q[nq * m + i] = w[i] / nw;
            nq++;
        }
    }
    memcpy(w, J + k * m, m * sizeof(*w));
    for (size_t t = 0; t < nq; t++) {
        double d = dot(w, q + t * m, m);
        for (size_t i = 0; i < m; i++)
            w[i] -= d * q[t * m + i];
    }
    {
        double nk = sqrt(dot(J + k * m, J + k * m, m));
        return nk > PERF_IDENT_ABS ? sqrt(dot(w, w, m)) / nk : 0;
    }
}

int perf_calib_identify(struct perf_calib *cal, struct perf_ident *id,
                        struct pt_err *err)
{
    size_t n = cal->n_free, m = 2 * cal->n_points;
    double *J = pt_calloc(m * (n + 1), sizeof(*J));
    double *q = pt_calloc(m * (n + 1), sizeof(*q));
    double *w = pt_calloc(m + 1, sizeof(*w));
    double fit_rms;
    int use[PERF_N_COSTS], rc = 0;

    memset(id, 0, sizeof(*id));
    if (!J || !q || !w) {
        rc = err_set(err, PT_EINTERNAL, "out of memory");
        goto out;
    }
    if ((rc = evaluate(cal, err)) < 0)
        goto out;
    fit_rms = cal->rms_resid;
    for (size_t j = 0; j < n; j++)
        if ((rc = jac_column(cal, j, J + j * m, err)) < 0)
            goto out;
    /* rank: greedy pivoting, the column with the most norm left first */
    for (size_t j = 0; j < n; j++)
        use[j] = 0;
    for (size_t r = 0; r < n; r++) {
        double best = 0;
        size_t bj = n;
        for (size_t j = 0; j < n; j++) {
            if (use[j])
                continue;
            double nr = residual_norm(J, m, n, j, use, q, w);
            if (nr > best) {
                best = nr;
                bj = j;
            }
        }
        if (bj == n || best <= PERF_IDENT_TOL)
            break;
        use[bj] = 1;
        id->rank++;
    }
    for (size_t j = 0; j < n; j++)
        use[j] = 1;
    for (size_t j = 0; j < n; j++)
        id->identified[j] =
            residual_norm(J, m, n, j, use, q, w) > PERF_IDENT_TOL;
    /* the range: scan each cost over its bounds, the others fixed */
    for (size_t j = 0; j < n; j++) {
        const struct perf_free *f = &cal->free[j];
        double *c = perf_cost_ptr(&cal->costs, f->cost), v = *c;

        id->range_lo[j] = id->range_hi[j] = v;
        for (int g = 0; g < PERF_IDENT_GRID; g++) {
            double t = (double)g / (PERF_IDENT_GRID - 1), x;
            x = f->lo > 0 ? f->lo * pow(f->hi / f->lo, t)
                          : f->lo + (f->hi - f->lo) * t;
            *c = x;
            if ((rc = evaluate(cal, err)) < 0) {
                *c = v;
                goto out;
            }
            if (cal->rms_resid <= fit_rms + PERF_IDENT_SLACK) {
                id->range_lo[j] = fmin(id->range_lo[j], x);
                id->range_hi[j] = fmax(id->range_hi[j], x);
            }
        }
        *c = v;
    }
    rc = evaluate(cal, err);
out:
    free(J);
    free(q);
    free(w);
    return rc;
}

int perf_calib_cross_validate(const struct perf_calib *cal, double *heldout_pct,
                              struct pt_err *err)
{
    struct perf_calib *sub;
    int rc = 0;

    if (cal->n_points <= cal->n_free)
        return err_set(err, PT_EDATA,
                       "cross-validation needs more points than the %zu "
                       "free cost(s), got %zu",
                       cal->n_free, cal->n_points);
    if (!(sub = pt_calloc(1, sizeof(*sub))))
        return err_set(err, PT_EINTERNAL, "out of memory");
    for (size_t k = 0; k < cal->n_points; k++) {
        struct perf_model mo;
        struct perf_result r;

        *sub = *cal;
        sub->n_points = 0;
        for (size_t i = 0; i < cal->n_points; i++)
            if (i != k)
                sub->points[sub->n_points++] = cal->points[i];
        if ((rc = perf_calib_fit(sub, err)) < 0)
            break;
        if ((rc = perf_demand(&sub->costs, &cal->points[k].counts, &mo, err)) <
                0 ||
            (rc = perf_mva(&mo, cal->points[k].clients, cal->points[k].think_ms,
                           &r, err)) < 0)
            break;
        heldout_pct[k] = 100 * (r.req_per_s - cal->points[k].req_per_s) /
                         cal->points[k].req_per_s;
    }
    if (rc < 0 && err)
        err_prefix(err, "cross-validation");
    free(sub);
    return rc;
}

double perf_calib_range_req_per_s(const struct perf_calib *cal)
{
    double range = 0;

    for (size_t i = 0; i < cal->n_points; i++) {
        const struct perf_point *p = &cal->points[i];
        double pred = cal->pred_req_per_s[i], d;

        if (p->req_per_s_hi > 0)
            d = fmax(fabs(pred - p->req_per_s_lo),
                     fabs(pred - p->req_per_s_hi)) /
                p->req_per_s;
        else
            d = fabs(cal->resid_req_per_s[i]);
        range = fmax(range, d);
    }
    return range;
}

/* ---- the profile --------------------------------------------------------- */

/* A YAML double-quoted scalar: escape backslash, quote and controls. */
static void put_quoted(FILE *fp, const char *s)
{
    fputc('"', fp);
    for (; *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\')
            fprintf(fp, "\\%c", ch);
        else if (ch < 0x20)
            fprintf(fp, "\\x%02x", ch);
        else
            fputc(ch, fp);
    }
    fputc('"', fp);
}

int perf_calib_write(FILE *fp, const struct perf_calib *cal,
                     const char *comment, struct pt_err *err)
{
    const char *s = comment;

    fprintf(fp,
            "# profiles/calibrations/%s.yaml — a pagetune calibration "
            "(docs/models.md#performance-model).\n",
            cal->name);
    while (s && *s) {
        const char *nl = strchr(s, '\n');
        int len = nl ? (int)(nl - s) : (int)strlen(s);
        fprintf(fp, "# %.*s\n", len, s);
        s = nl ? nl + 1 : s + len;
    }
    fputs("name: ", fp);
    put_quoted(fp, cal->name);
    fputs("\n# every cost the model used, fitted or fixed (ms; the last "
          "six are counts of servers and placements)\nperf:\n",
          fp);
    for (int i = 0; i < PERF_N_COSTS; i++) {
        double v = perf_cost_get(&cal->costs, i);
        if (!isnan(v))
            fprintf(fp, "  %s: %.9g\n", perf_cost_name(i), v);
    }
    fprintf(fp,
            "# the free costs, fitted by least squares within their "
            "bounds (lmdif info %d)\nfitted:\n",
            cal->solver_info);
    for (size_t j = 0; j < cal->n_free; j++)
        fprintf(fp, "  - {cost: %s, value: %.9g, lo: %.9g, hi: %.9g}\n",
                perf_cost_name(cal->free[j].cost), cal->fitted[j],
                cal->free[j].lo, cal->free[j].hi);
    fprintf(fp,
            "# residuals: (predicted - measured) / measured; rms %.6g\n"
            "points:\n",
            cal->rms_resid);
    for (size_t i = 0; i < cal->n_points; i++) {
        const struct perf_point *p = &cal->points[i];
        fputs("  - label: ", fp);
        put_quoted(fp, p->label);
        fprintf(fp,
                "\n    clients: %u\n    think_ms: %.9g\n"
                "    req_per_s: %.9g\n    response_ms: %.9g\n"
                "    predicted_req_per_s: %.9g\n"
                "    predicted_response_ms: %.9g\n"
                "    residual_req_per_s: %.6g\n"
                "    residual_response_ms: %.6g\n",
                p->clients, p->think_ms, p->req_per_s, p->response_ms,
                cal->pred_req_per_s[i], cal->pred_response_ms[i],
                cal->resid_req_per_s[i], cal->resid_response_ms[i]);
        if (p->req_per_s_hi > 0)
            fprintf(fp,
                    "    req_per_s_lo: %.9g\n"
                    "    req_per_s_hi: %.9g\n",
                    p->req_per_s_lo, p->req_per_s_hi);
    }
    if (fflush(fp) != 0 || ferror(fp))
        return err_set(err, PT_EIO, "cannot write calibration '%s'", cal->name);
    return 0;
}

static int read_point(struct perf_calib *cal, size_t i, const json_t *v,
                      const char *ctx, struct pt_err *err)
{
    struct perf_point *p = &cal->points[i];
    const char *label = "";
    uint64_t clients;
    char where[256];
    int rc;

    snprintf(where, sizeof(where), "%s: points[%zu]", ctx, i);
    if (!json_is_object(v))
        return err_set(err, PT_EDATA, "%s: must be a mapping", where);
    memset(p, 0, sizeof(*p));
    if ((rc = pt_json_opt_str(v, "label", &label, where, err)) < 0 ||
        (rc = pt_json_get_u64(v, "clients", &clients, where, err)) < 0 ||
        (rc = pt_json_get_num(v, "think_ms", &p->think_ms, where, err)) < 0 ||
        (rc = pt_json_get_num(v, "req_per_s", &p->req_per_s, where, err)) < 0 ||
        (rc = pt_json_get_num(v, "response_ms", &p->response_ms, where, err)) <
            0 ||
        (rc = pt_json_opt_num(v, "predicted_req_per_s", &cal->pred_req_per_s[i],
                              where, err)) < 0 ||
        (rc = pt_json_opt_num(v, "predicted_response_ms",
                              &cal->pred_response_ms[i], where, err)) < 0 ||
        (rc = pt_json_opt_num(v, "residual_req_per_s", &cal->resid_req_per_s[i],
                              where, err)) < 0 ||
        (rc = pt_json_opt_num(v, "residual_response_ms",
                              &cal->resid_response_ms[i], where, err)) < 0 ||
        (rc = pt_json_opt_num(v, "req_per_s_lo", &p->req_per_s_lo, where,
                              err)) < 0 ||
        (rc = pt_json_opt_num(v, "req_per_s_hi", &p->req_per_s_hi, where,
                              err)) < 0)
        return rc;
    if (clients < 1 || clients > 1000000)
        return err_set(err, PT_EDATA, "%s: clients must be 1..1000000", where);
    if (!(p->think_ms >= 0) || !(p->req_per_s > 0) || !(p->response_ms > 0))
        return err_set(err, PT_EDATA,
                       "%s: think_ms must be >= 0, req_per_s and "
                       "response_ms > 0",
                       where);
    if ((p->req_per_s_lo != 0 || p->req_per_s_hi != 0) &&
        !(p->req_per_s_lo > 0 && p->req_per_s_lo <= p->req_per_s &&
          p->req_per_s <= p->req_per_s_hi))
        return err_set(err, PT_EDATA,
                       "%s: needs 0 < req_per_s_lo <= req_per_s <= "
                       "req_per_s_hi",
                       where);
    p->clients = (unsigned)clients;
    snprintf(p->label, sizeof(p->label), "%s", label);
    return 0;
}

int perf_calib_from_json(struct perf_calib *cal, const json_t *prof,
                         const char *ctx, struct pt_err *err)
{
    const char *name;
    const json_t *fitted, *points;
    size_t i;
    json_t *v;
    int rc;

    memset(cal, 0, sizeof(*cal));
    perf_costs_init(&cal->costs);
    if (!json_is_object(prof))
        return err_set(err, PT_EDATA, "%s: a calibration is a mapping", ctx);
    if ((rc = pt_json_get_str(prof, "name", &name, ctx, err)) < 0)
        return rc;
    if (strlen(name) >= sizeof(cal->name))
        return err_set(err, PT_EDATA, "%s: name too long", ctx);
    snprintf(cal->name, sizeof(cal->name), "%s", name);
    if ((rc = perf_costs_from_json(&cal->costs, json_object_get(prof, "perf"),
                                   ctx, err)) < 0)
        return rc;
    fitted = json_object_get(prof, "fitted");
    if (fitted && !json_is_array(fitted))
        return err_set(err, PT_EDATA, "%s: 'fitted' must be a list", ctx);
    if (json_array_size(fitted) > PERF_N_COSTS)
        return err_set(err, PT_EDATA, "%s: too many fitted costs", ctx);
    json_array_foreach(fitted, i, v)
    {
        struct perf_free *f = &cal->free[i];
        const char *cost;
        char where[256];

        snprintf(where, sizeof(where), "%s: fitted[%zu]", ctx, i);
        if ((rc = pt_json_get_str(v, "cost", &cost, where, err)) < 0 ||
            (rc = pt_json_get_num(v, "value", &cal->fitted[i], where, err)) <
                0 ||
            (rc = pt_json_get_num(v, "lo", &f->lo, where, err)) < 0 ||
            (rc = pt_json_get_num(v, "hi", &f->hi, where, err)) < 0)
            return rc;
        if ((f->cost = perf_cost_find(cost)) < 0)
            return err_set(err, PT_EDATA, "%s: unknown cost '%s'", where, cost);
        if (!(f->lo >= 0) || !(f->hi > f->lo) || cal->fitted[i] < f->lo ||
            cal->fitted[i] > f->hi)
            return err_set(err, PT_EDATA,
                           "%s: needs 0 <= lo <= value <= hi, lo < hi", where);
        if (perf_cost_get(&cal->costs, f->cost) != cal->fitted[i])
            return err_set(err, PT_EDATA, "%s: value differs from 'perf.%s'",
                           where, cost);
        cal->n_free = i + 1;
    }
    points = json_object_get(prof, "points");
    if (points && !json_is_array(points))
        return err_set(err, PT_EDATA, "%s: 'points' must be a list", ctx);
    if (json_array_size(points) > PERF_MAX_POINTS)
        return err_set(err, PT_EDATA, "%s: more than %d points", ctx,
                       PERF_MAX_POINTS);
    json_array_foreach(points, i, v)
    {
        if ((rc = read_point(cal, i, v, ctx, err)) < 0)
            return rc;
        cal->n_points = i + 1;
    }
    return 0;
}
