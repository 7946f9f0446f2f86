/* SPDX-License-Identifier: Apache-2.0 */
/*
 * points.c — perf/'s reader of the calibration points CSV
 * (pagetune-calibrate(1), POINTS): measured configurations, each naming one
 * result row of a simulation.json by its page_size, bufferpool_pages,
 * app_entries, ... columns; the row's counts (perf_predictor_counts,
 * predict.c) and the measured throughput and response time become one
 * struct perf_point of the calibration that calib.c fits.
 * Neighbours: calib.c (the fit, calibration profiles), predict.c (the
 * counts of a row), cli/cmd_calibrate.c (loads the documents, prints).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perf/perf.h"

#define MAX_COLS 32

/* ---- the points CSV ------------------------------------------------------
 *
 * A header line names the columns (any order); '#' lines and blank lines
 * are skipped; a field may be double-quoted ("" is a quote).
 */

enum col {
    COL_LABEL,
    COL_CLIENTS,
    COL_THINK,
    COL_XPS,
    COL_RMS,
    COL_PAGE,
    COL_POOL,
    COL_APP,
    COL_MODE,
    COL_SHARING,
    COL_SERVERS,
    COL_OFFLOAD,
    COL_SIM,
    COL_TRACE,
    COL_XPS_LO,
    COL_XPS_HI,
    N_COLS
};

static const char *const col_names[N_COLS] = {
    "label",       "clients",   "think_ms",         "req_per_s",
    "response_ms", "page_size", "bufferpool_pages", "app_entries",
    "cache_mode",  "sharing",   "servers",          "offload_entries",
    "simulation",  "trace",     "req_per_s_lo",     "req_per_s_hi",
};

/* Split one line into at most MAX_COLS fields, in place. -1 on a bad quote. */
static int split_csv(char *line, char **f, size_t *n)
{
    char *p = line;

    *n = 0;
    for (;;) {
        char *out;
        if (*n == MAX_COLS)
            return -1;
        f[(*n)++] = out = p;
        if (*p == '"') {
            p++;
            for (;;) {
                if (!*p)
                    return -1;
                if (*p == '"' && p[1] == '"') {
                    *out++ = '"';
                    p += 2;
                } else if (*p == '"') {
                    p++;
                    break;
                } else {
                    *out++ = *p++;
                }
            }
            if (*p && *p != ',')
                return -1;
        } else {
            while (*p && *p != ',')
                *out++ = *p++;
        }
        if (!*p) {
            *out = '\0';
            return 0;
        }
        p++;
        *out = '\0';
    }
}

/* Does row r of document res match the point's selectors? */
static int row_matches(char *const *sel, const struct perf_sim_docs *s,
                       size_t d, const struct sim_result_row *r)
{
    const struct sim_plan_result *res = &s->res[d];
    struct pt_err err;
    uint64_t v;

    if (sel[COL_SIM] && *sel[COL_SIM] && strcmp(sel[COL_SIM], s->path[d]) &&
        (pt_u64_parse(sel[COL_SIM], &v, "simulation", &err) || v != d + 1))
        return 0;
    if (sel[COL_TRACE] && *sel[COL_TRACE] &&
        (!res->trace || strcmp(sel[COL_TRACE], res->trace) != 0))
        return 0;

    if (sel[COL_PAGE] && *sel[COL_PAGE] &&
        (!r->has_db || pt_size_parse(sel[COL_PAGE], &v, "page_size", &err) ||
         v != r->db.page_size_bytes))
        return 0;
    if (sel[COL_POOL] && *sel[COL_POOL] &&
        (!r->has_db || pt_u64_parse(sel[COL_POOL], &v, "pool", &err) ||
         v != r->db.pool_pages))
        return 0;
    if (sel[COL_APP] && *sel[COL_APP] &&
        (pt_u64_parse(sel[COL_APP], &v, "app_entries", &err) ||
         v != r->app_entries))
        return 0;
    if (sel[COL_MODE] && *sel[COL_MODE] &&
        strcmp(sel[COL_MODE], sim_cache_mode_name(res->mode)) != 0)
        return 0;
    if (sel[COL_SHARING] && *sel[COL_SHARING] &&
        strcmp(sel[COL_SHARING], sim_sharing_name(res->sharing)) != 0)
        return 0;
    if (sel[COL_SERVERS] && *sel[COL_SERVERS] &&
        (pt_u64_parse(sel[COL_SERVERS], &v, "servers", &err) ||
         v != res->servers))
        return 0;
    if (sel[COL_OFFLOAD] && *sel[COL_OFFLOAD] &&
        (pt_u64_parse(sel[COL_OFFLOAD], &v, "offload_entries", &err) ||
         v != res->offload_entries))
        return 0;
    return 1;
}

/*
 * The measured interval of req_per_s (req_per_s_lo, req_per_s_hi): both
 * or neither, 0 < lo <= req_per_s <= hi. Empty fields mean none.
 */
static int point_interval(struct perf_point *pt, char *const *sel,
                          const char *path, size_t line, struct pt_err *err)
{
    int has_lo = sel[COL_XPS_LO] && *sel[COL_XPS_LO];
    int has_hi = sel[COL_XPS_HI] && *sel[COL_XPS_HI];
    struct pt_err e2;

    if (!has_lo && !has_hi)
        return 0;
    if (!has_lo || !has_hi ||
        pt_double_parse(sel[COL_XPS_LO], &pt->req_per_s_lo, "req_per_s_lo",
                        &e2) < 0 ||
        pt_double_parse(sel[COL_XPS_HI], &pt->req_per_s_hi, "req_per_s_hi",
                        &e2) < 0 ||
        !(pt->req_per_s_lo > 0 && pt->req_per_s_lo <= pt->req_per_s &&
          pt->req_per_s <= pt->req_per_s_hi))
        return err_set(err, PT_EDATA,
                       "%s:%zu: req_per_s_lo and req_per_s_hi must both be "
                       "given, 0 < req_per_s_lo <= req_per_s <= req_per_s_hi",
                       path, line);
    return 0;
}

/* One data line: the measured values and the counts of its row. */
static int point_line(struct perf_calib *cal, char *const *sel,
                      const struct perf_sim_docs *s,
                      const struct perf_predictor *m, const char *path,
                      size_t line, struct pt_err *err)
{
    struct perf_point *pt = &cal->points[cal->n_points];
    const struct sim_plan_result *hit_res = NULL;
    const struct sim_result_row *hit = NULL;
    size_t n_hits = 0;
    uint64_t clients;
    struct pt_err e2;
    int ret;

    if (cal->n_points == PERF_MAX_POINTS)
        return err_set(err, PT_EDATA, "%s:%zu: more than %d points", path, line,
                       PERF_MAX_POINTS);
    memset(pt, 0, sizeof(*pt));
    if (pt_u64_parse(sel[COL_CLIENTS], &clients, "clients", &e2) < 0 ||
        clients < 1 || clients > 100000)
        return err_set(err, PT_EDATA,
                       "%s:%zu: clients '%s' is not a count 1..100000", path,
                       line, sel[COL_CLIENTS]);
    pt->clients = (unsigned)clients;
    if (sel[COL_THINK] && *sel[COL_THINK] &&
        (pt_double_parse(sel[COL_THINK], &pt->think_ms, "think_ms", &e2) < 0 ||
         !(pt->think_ms >= 0)))
        return err_set(err, PT_EDATA, "%s:%zu: think_ms '%s' is not >= 0", path,
                       line, sel[COL_THINK]);
    if (pt_double_parse(sel[COL_XPS], &pt->req_per_s, "req_per_s", &e2) < 0 ||
        !(pt->req_per_s > 0) ||
        pt_double_parse(sel[COL_RMS], &pt->response_ms, "response_ms", &e2) <
            0 ||
        !(pt->response_ms > 0))
        return err_set(err, PT_EDATA,
                       "%s:%zu: req_per_s and response_ms must be numbers > 0",
                       path, line);
    if ((ret = point_interval(pt, sel, path, line, err)) < 0)
        return ret;
    for (size_t d = 0; d < s->n; d++)
        for (size_t i = 0; i < s->res[d].n_rows; i++)
            if (row_matches(sel, s, d, &s->res[d].rows[i])) {
                if (!n_hits++) {
                    hit_res = &s->res[d];
                    hit = &s->res[d].rows[i];
                }
            }
    if (n_hits != 1)
        return err_set(err, PT_EDATA,
                       n_hits ? "%s:%zu: the point matches %zu simulation "
                                "rows; add page_size, bufferpool_pages, "
                                "app_entries, ... columns to choose one"
                              : "%s:%zu: the point matches %zu simulation "
                                "rows",
                       path, line, n_hits);
    if ((ret = perf_predictor_counts(m, hit_res, hit, &pt->counts, err)) < 0) {
        err_prefix(err, "%s:%zu", path, line);
        return ret;
    }
    if (sel[COL_LABEL] && *sel[COL_LABEL])
        snprintf(pt->label, sizeof(pt->label), "%s", sel[COL_LABEL]);
    else
        snprintf(pt->label, sizeof(pt->label), "%s line %zu", path, line);
    cal->n_points++;
    return 0;
}

int perf_calib_points_read(struct perf_calib *cal, const char *path,
                           const struct perf_sim_docs *s,
                           const struct perf_predictor *m, struct pt_err *err)
{
    char *buf = NULL, *line, *next;
    int idx[N_COLS];
    size_t lineno = 0;
    int have_header = 0, ret = 0;

    if ((ret = pt_file_read(path, &buf, NULL, err)) < 0)
        return ret;
    for (line = buf; line && *line; line = next) {
        char *f[MAX_COLS], *sel[N_COLS] = {0};
        size_t n, len;

        next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        lineno++;
        len = strlen(line);
        if (len && line[len - 1] == '\r')
            line[--len] = '\0';
        if (!len || line[0] == '#')
            continue;
        if (split_csv(line, f, &n) < 0) {
            ret = err_set(err, PT_EDATA,
                          "%s:%zu: bad CSV (an unclosed quote or more than "
                          "%d fields)",
                          path, lineno, MAX_COLS);
            break;
        }
        if (!have_header) {
            for (int c = 0; c < N_COLS; c++)
                idx[c] = -1;
            for (size_t i = 0; i < n; i++) {
                int c;
                for (c = 0; c < N_COLS; c++)
                    if (strcmp(f[i], col_names[c]) == 0)
                        break;
                if (c == N_COLS || idx[c] >= 0) {
                    ret = err_set(err, PT_EDATA,
                                  "%s:%zu: unknown or repeated column '%s'",
                                  path, lineno, f[i]);
                    goto out;
                }
                idx[c] = (int)i;
            }
            if (idx[COL_CLIENTS] < 0 || idx[COL_XPS] < 0 || idx[COL_RMS] < 0) {
                ret = err_set(err, PT_EDATA,
                              "%s:%zu: the header needs clients, req_per_s "
                              "and response_ms columns",
                              path, lineno);
                goto out;
            }
            have_header = 1;
            continue;
        }
        for (int c = 0; c < N_COLS; c++) {
            if (idx[c] < 0)
                continue;
            if ((size_t)idx[c] >= n) {
                ret = err_set(err, PT_EDATA,
                              "%s:%zu: %zu fields, the header has more", path,
                              lineno, n);
                goto out;
            }
            sel[c] = f[idx[c]];
        }
        if ((ret = point_line(cal, sel, s, m, path, lineno, err)) < 0)
            break;
    }
    if (ret == 0 && !have_header)
        ret = err_set(err, PT_EDATA, "%s: no header line", path);
out:
    free(buf);
    return ret;
}
