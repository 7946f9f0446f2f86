/* SPDX-License-Identifier: Apache-2.0 */
/*
 * replay_clients.c — the client side of a replay on a server (issue 28),
 * the same for PostgreSQL (pgreplay.c) and MariaDB / MySQL (myreplay.c):
 * K connections, each with its thread, replaying the sessions key % K of
 * the trace in trace order and timing each operation (get, set, del); a
 * pass runs them all at once and gives the requests/s; the load inserts
 * every session at its first size in batches; the latencies of the
 * measured passes are summed into a mean and a p95.
 *
 * What stays with each engine: its SQL (the statements it prepares in its
 * setup callback, its timeouts), the set's parameters after the first four
 * (its set callback: payload window, binary type, PostgreSQL's pt_rest),
 * its counters, its scratch schema or database, its lock.
 *
 * Neighbours: pgreplay.c, myreplay.c (the runs), odbc.c (connections,
 * diagnostics, the watchdog).
 */
#include "collect/internal.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statvfs.h>
#include <time.h>

/* ---- text, notes ----------------------------------------------------------
 */

void coll_rpl_text_add(struct coll_rpl_text *t, const char *fmt, ...)
{
    va_list ap;
    int k;

    if (t->over)
        return;
    va_start(ap, fmt);
    k = vsnprintf(t->buf + t->n, t->len - t->n, fmt, ap);
    va_end(ap);
    if (k < 0 || (size_t)k >= t->len - t->n)
        t->over = 1;
    else
        t->n += (size_t)k;
}

void coll_rpl_note(const struct coll_pgr_plan *p, const char *fmt, ...)
{
    char msg[512];
    va_list ap;

    if (!p->note)
        return;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    p->note(p->ctx, msg);
}

/* ---- statements -----------------------------------------------------------
 */

int coll_rpl_prep(struct coll_rpl_client *cl, SQLHSTMT *st, const char *sql,
                  struct pt_err *err)
{
    SQLRETURN rc;
    int ret;

    if ((ret = coll_stmt_new(cl->conn, st, err)) < 0)
        return ret;
    rc = SQLPrepare(*st, (SQLCHAR *)sql, SQL_NTS);
    if (!SQL_SUCCEEDED(rc))
        return coll_diag(cl->conn, SQL_HANDLE_STMT, *st, rc, "prepare", err);
    return 0;
}

int coll_rpl_prep_cand(struct coll_rpl_client *cl, size_t i, const char *qual,
                       const char *set_sql, struct pt_err *err)
{
    char sql[1024];
    int ret;

    snprintf(sql, sizeof(sql),
             "SELECT small, lastaccess FROM %s.pt_replay_%zu WHERE id = ? "
             "AND propid = id AND appname = 'default_host/pagetune'",
             qual, i + 1);
    if ((ret = coll_rpl_prep(cl, &cl->get[i], sql, err)) < 0 ||
        (ret = coll_rpl_prep(cl, &cl->set[i], set_sql, err)) < 0)
        return ret;
    snprintf(sql, sizeof(sql),
             "DELETE FROM %s.pt_replay_%zu WHERE id = ? AND propid = id "
             "AND appname = 'default_host/pagetune'",
             qual, i + 1);
    return coll_rpl_prep(cl, &cl->del[i], sql, err);
}

static int bind_key(struct coll_rpl_client *cl, SQLHSTMT st, SQLUSMALLINT n)
{
    cl->key_ind = SQL_NTS;
    return SQL_SUCCEEDED(SQLBindParameter(st, n, SQL_PARAM_INPUT, SQL_C_CHAR,
                                          SQL_VARCHAR, 128, 0, cl->key, 0,
                                          &cl->key_ind))
               ? 0
               : -1;
}

int coll_rpl_exec(struct coll_rpl_client *cl, SQLHSTMT st, const char *what,
                  struct pt_err *err)
{
    SQLRETURN rc;

    coll_watch_begin(cl->conn, st, "replaying (%s)", what);
    rc = SQLExecute(st);
    coll_watch_end(cl->conn);
    if (!SQL_SUCCEEDED(rc) && rc != SQL_NO_DATA)
        return coll_diag(cl->conn, SQL_HANDLE_STMT, st, rc, what, err);
    return 0;
}

void coll_rpl_sleep_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

uint64_t coll_rpl_write_no(const struct coll_rpl_client *cl, uint64_t i)
{
    return cl->g->passes * cl->g->p->n_reqs + i;
}

int coll_rpl_bind_row(struct coll_rpl_client *cl, SQLHSTMT st, uint64_t i,
                      struct pt_err *err)
{
    SQLRETURN rc;

    cl->now_ind = 0;
    cl->now_ms = INT64_C(1767225600000) + (int64_t)coll_rpl_write_no(cl, i);
    if (bind_key(cl, st, 1) < 0 || bind_key(cl, st, 2) < 0)
        return coll_diag(cl->conn, SQL_HANDLE_STMT, st, SQL_ERROR, "bind", err);
    rc = SQLBindParameter(st, 3, SQL_PARAM_INPUT, SQL_C_SBIGINT, SQL_BIGINT, 0,
                          0, &cl->now_ms, 0, &cl->now_ind);
    if (SQL_SUCCEEDED(rc))
        rc = SQLBindParameter(st, 4, SQL_PARAM_INPUT, SQL_C_SBIGINT, SQL_BIGINT,
                              0, 0, &cl->now_ms, 0, &cl->now_ind);
    if (!SQL_SUCCEEDED(rc))
        return coll_diag(cl->conn, SQL_HANDLE_STMT, st, rc, "bind", err);
    return 0;
}

/* A get: the whole object read into readbuf. */
static int op_get(struct coll_rpl_client *cl, SQLHSTMT st, struct pt_err *err)
{
    const struct coll_pgr_plan *p = cl->g->p;
    SQLLEN ind = 0;
    SQLRETURN rc;
    int ret;

    if (bind_key(cl, st, 1) < 0)
        return coll_diag(cl->conn, SQL_HANDLE_STMT, st, SQL_ERROR, "bind", err);
    if ((ret = coll_rpl_exec(cl, st, "get", err)) < 0)
        return ret;
    rc = SQLFetch(st);
    if (SQL_SUCCEEDED(rc)) {
        rc = SQLGetData(st, 1, SQL_C_BINARY, cl->readbuf,
                        (SQLLEN)(p->max_bytes ? p->max_bytes : 1), &ind);
        if (!SQL_SUCCEEDED(rc) && rc != SQL_NO_DATA)
            ret = coll_diag(cl->conn, SQL_HANDLE_STMT, st, rc, "get", err);
    } else if (rc != SQL_NO_DATA) {
        ret = coll_diag(cl->conn, SQL_HANDLE_STMT, st, rc, "get", err);
    }
    SQLFreeStmt(st, SQL_CLOSE);
    return ret;
}

static int replay_op(struct coll_rpl_client *cl, uint64_t i,
                     const struct coll_pgr_req *r, struct pt_err *err)
{
    size_t c = cl->cand;

    coll_pgr_key_name(r->key_id, cl->key, sizeof(cl->key));
    if (r->op == COLL_PGR_GET) {
        cl->gets++;
        return op_get(cl, cl->get[c], err);
    }
    if (r->op == COLL_PGR_SET)
        return cl->g->set(cl, cl->set[c], i, r, err);
    if (bind_key(cl, cl->del[c], 1) < 0)
        return coll_diag(cl->conn, SQL_HANDLE_STMT, cl->del[c], SQL_ERROR,
                         "bind", err);
    return coll_rpl_exec(cl, cl->del[c], "del", err);
}

/* ---- clients, passes ------------------------------------------------------
 */

/* One pass: the client's sessions (key % K) in trace order. */
static void *client_main(void *arg)
{
    struct coll_rpl_client *cl = arg;
    const struct coll_pgr_plan *p = cl->g->p;
    unsigned k = cl->g->k;

    cl->requests = cl->ops = cl->gets = cl->n_lat = 0;
    cl->status = 0;
    for (uint64_t i = 0; i < p->n_reqs; i++) {
        const struct coll_pgr_req *r = &p->reqs[i];
        uint64_t t0;
        if (r->key_id % k != cl->id)
            continue;
        if (pt_interrupted()) {
            cl->status = err_set(&cl->err, PT_EINTR, "replay interrupted");
            break;
        }
        t0 = pt_now_ns();
        if ((cl->status = replay_op(cl, i, r, &cl->err)) < 0)
            break;
        cl->lat[cl->n_lat++] = (float)((double)(pt_now_ns() - t0) / 1000.0);
        cl->ops++;
        if (!r->write_back)
            cl->requests++;
    }
    return NULL;
}

int coll_rpl_open(struct coll_rpl_clients *g, const struct coll_conn_opts *o,
                  coll_rpl_setup_fn setup, void *arg, struct pt_err *err)
{
    const struct coll_pgr_plan *p = g->p;
    int ret;

    g->k = p->n_clients ? p->n_clients : 1;
    g->cl = calloc(g->k, sizeof(*g->cl));
    if (!g->cl)
        return err_set(err, PT_EINTERNAL, "out of memory");
    for (unsigned i = 0; i < g->k; i++) {
        struct coll_rpl_client *cl = &g->cl[i];
        uint64_t mine = 0;
        cl->g = g;
        cl->id = i;
        for (uint64_t r = 0; r < p->n_reqs; r++)
            mine += p->reqs[r].key_id % g->k == i;
        cl->readbuf = malloc(p->max_bytes ? p->max_bytes : 1);
        cl->lat = malloc((mine ? mine : 1) * sizeof(float));
        if (!cl->readbuf || !cl->lat)
            return err_set(err, PT_EINTERNAL, "out of memory");
        if ((ret = coll_conn_open(&cl->conn, o, err)) < 0 ||
            (ret = setup(cl, arg, err)) < 0)
            return ret;
    }
    return 0;
}

void coll_rpl_close(struct coll_rpl_clients *g)
{
    if (!g->cl)
        return;
    for (unsigned i = 0; i < g->k; i++) {
        struct coll_rpl_client *cl = &g->cl[i];
        for (size_t c = 0; c < COLL_PGR_MAX_CANDIDATES; c++) {
            if (cl->get[c])
                SQLFreeHandle(SQL_HANDLE_STMT, cl->get[c]);
            if (cl->set[c])
                SQLFreeHandle(SQL_HANDLE_STMT, cl->set[c]);
            if (cl->del[c])
                SQLFreeHandle(SQL_HANDLE_STMT, cl->del[c]);
        }
        coll_conn_close(cl->conn);
        free(cl->readbuf);
        free(cl->lat);
    }
    free(g->cl);
    g->cl = NULL;
}

int coll_rpl_pass(struct coll_rpl_clients *g, size_t c, double *rps,
                  struct pt_err *err)
{
    uint64_t t0 = pt_now_ns(), requests = 0;
    int ret = 0;

    g->passes++;
    for (unsigned i = 0; i < g->k; i++) {
        g->cl[i].cand = c;
        if (pthread_create(&g->cl[i].thread, NULL, client_main, &g->cl[i]) != 0)
            ret = err_set(err, PT_EINTERNAL, "cannot start a client thread");
        else
            g->cl[i].started = 1;
    }
    for (unsigned i = 0; i < g->k; i++)
        if (g->cl[i].started) {
            pthread_join(g->cl[i].thread, NULL);
            g->cl[i].started = 0;
        }
    *rps = 0;
    for (unsigned i = 0; i < g->k && ret == 0; i++) {
        if (g->cl[i].status < 0) {
            *err = g->cl[i].err;
            ret = g->cl[i].status;
        }
        requests += g->cl[i].requests;
    }
    if (ret == 0) {
        double s = (double)(pt_now_ns() - t0) / 1e9;
        *rps = s > 0 ? (double)requests / s : 0;
    }
    return ret;
}

/* ---- load -----------------------------------------------------------------
 */

static int autocommit(struct coll_conn *c, int on, struct pt_err *err)
{
    SQLRETURN rc = SQLSetConnectAttr(
        c->dbc, SQL_ATTR_AUTOCOMMIT,
        (SQLPOINTER)(uintptr_t)(on ? SQL_AUTOCOMMIT_ON : SQL_AUTOCOMMIT_OFF),
        0);
    return SQL_SUCCEEDED(rc) ? 0
                             : coll_diag(c, SQL_HANDLE_DBC, c->dbc, rc,
                                         "set autocommit", err);
}

static int commit(struct coll_conn *c, struct pt_err *err)
{
    SQLRETURN rc = SQLEndTran(SQL_HANDLE_DBC, c->dbc, SQL_COMMIT);
    return SQL_SUCCEEDED(rc)
               ? 0
               : coll_diag(c, SQL_HANDLE_DBC, c->dbc, rc, "commit", err);
}

int coll_rpl_load(struct coll_rpl_clients *g, size_t c, struct pt_err *err)
{
    const struct coll_pgr_plan *p = g->p;
    struct coll_rpl_client *cl = &g->cl[0];
    struct coll_pgr_req r = {0};
    int ret;

    if ((ret = autocommit(cl->conn, 0, err)) < 0)
        return ret;
    for (uint64_t key = 0; key < p->n_keys && ret == 0; key++) {
        r.key_id = key;
        r.size_bytes = (uint32_t)p->first_size[key];
        r.op = COLL_PGR_SET;
        coll_pgr_key_name(key, cl->key, sizeof(cl->key));
        ret = g->set(cl, cl->set[c], key, &r, err);
        if (ret == 0 && (key + 1) % COLL_RPL_BATCH == 0)
            ret = commit(cl->conn, err);
        if (ret == 0)
            ret = pt_interrupt_check(err);
    }
    if (ret == 0)
        ret = commit(cl->conn, err);
    else
        SQLEndTran(SQL_HANDLE_DBC, cl->conn->dbc, SQL_ROLLBACK);
    if (ret == 0)
        ret = autocommit(cl->conn, 1, err);
    return ret;
}

/* ---- rounds, latency ------------------------------------------------------
 */

static int cmp_float(const void *a, const void *b)
{
    float x = *(const float *)a, y = *(const float *)b;
    return (x > y) - (x < y);
}

void coll_rpl_round_add(const struct coll_rpl_clients *g, double rps,
                        unsigned rounds, struct coll_pgr_cand_result *cr,
                        struct coll_rpl_lat *l)
{
    cr->round_rps[cr->n_rounds++] = rps;
    cr->requests_per_s += rps / (double)rounds;
    cr->requests = cr->ops = cr->gets = 0;
    for (unsigned i = 0; i < g->k; i++) {
        cr->requests += g->cl[i].requests;
        cr->ops += g->cl[i].ops;
        cr->gets += g->cl[i].gets;
    }
    for (unsigned i = 0; i < g->k; i++)
        for (uint64_t j = 0; j < g->cl[i].n_lat; j++) {
            l->sum_us += g->cl[i].lat[j];
            l->n++;
            if (l->keep && l->n_keep < COLL_RPL_MAX_LAT)
                l->keep[l->n_keep++] = g->cl[i].lat[j];
        }
}

void coll_rpl_lat_sum(struct coll_rpl_lat *l, struct coll_pgr_cand_result *r)
{
    r->op_mean_us = l->n ? l->sum_us / (double)l->n : 0;
    if (l->n_keep) {
        qsort(l->keep, l->n_keep, sizeof(float), cmp_float);
        r->op_p95_us = l->keep[(uint64_t)(0.95 * (double)(l->n_keep - 1))];
    }
}

int coll_rpl_rounds(const struct coll_pgr_plan *p, coll_rpl_pass_fn pass,
                    void *run, struct coll_pgr_result *res,
                    struct coll_rpl_lat *lat, struct pt_err *err)
{
    struct coll_rpl_clients *g;
    size_t n = p->n_cand;
    double rps;
    int ret;

    for (size_t i = 0; i < n; i++)
        if (!(lat[i].keep = malloc(COLL_RPL_MAX_LAT * sizeof(float))))
            return err_set(err, PT_EINTERNAL, "out of memory");
    for (unsigned w = 0; w < p->warmup_rounds; w++)
        for (size_t c = 0; c < n; c++)
            if ((ret = pass(run, c, 0, &rps, &g, err)) < 0)
                return ret;
    for (unsigned r = 0; r < p->rounds && r < COLL_PGR_MAX_ROUNDS; r++) {
        for (size_t j = 0; j < n; j++) {
            size_t c = r % 2 ? n - 1 - j : j;
            if ((ret = pass(run, c, 1, &rps, &g, err)) < 0)
                return ret;
            coll_rpl_round_add(g, rps, p->rounds, &res->r[c], &lat[c]);
        }
        coll_rpl_note(p, "round %u/%u done", r + 1, p->rounds);
    }
    for (size_t c = 0; c < n; c++)
        coll_rpl_lat_sum(&lat[c], &res->r[c]);
    return 0;
}

/* ---- checks, clean-up -----------------------------------------------------
 */

int coll_rpl_check_plan(const struct coll_pgr_plan *p, struct pt_err *err)
{
    if (p->n_cand < 1 || p->n_cand > COLL_PGR_MAX_CANDIDATES || !p->n_keys)
        return err_set(err, PT_EUSAGE, "`candidate`: 1 to %d candidates",
                       COLL_PGR_MAX_CANDIDATES);
    return 0;
}

int coll_rpl_check_estimate(const struct coll_pgr_plan *p,
                            struct coll_pgr_result *res, struct pt_err *err)
{
    char sz[32], est[32];

    res->estimate_bytes = coll_pgr_estimate_bytes(p);
    if (p->max_scratch_bytes && res->estimate_bytes > p->max_scratch_bytes)
        return err_set(
            err, PT_ECANTCREAT,
            "`max_scratch` %s: the scratch tables would take about %s "
            "(%llu sessions x their sizes x %zu candidates); nothing was "
            "created",
            pt_size_format(p->max_scratch_bytes, sz, sizeof(sz)),
            pt_size_format(res->estimate_bytes, est, sizeof(est)),
            (unsigned long long)p->n_keys, p->n_cand);
    return 0;
}

int coll_rpl_check_free(const struct coll_pgr_plan *p, uint64_t estimate,
                        const char *path, int is_local,
                        const char *not_local_why, struct coll_pgr_free *f,
                        struct pt_err *err)
{
    struct statvfs fs;
    uint64_t need = estimate / 4 * 5, total, avail, keep;
    char a[32], b[32], m[32];

    memset(f, 0, sizeof(*f));
    if (p->max_scratch_bytes && p->max_scratch_bytes < need)
        need = p->max_scratch_bytes;
    if (!is_local) {
        snprintf(f->why, sizeof(f->why), "%s", not_local_why);
        return 0;
    }
    if (!path || !path[0]) {
        snprintf(f->why, sizeof(f->why),
                 "the server's data directory is not readable by this role");
        return 0;
    }
    if (statvfs(path, &fs) != 0) {
        snprintf(f->why, sizeof(f->why), "%.100s: %s here", path,
                 strerror(errno));
        return 0;
    }
    total = (uint64_t)fs.f_blocks * fs.f_frsize;
    avail = (uint64_t)fs.f_bavail * fs.f_frsize;
    keep = (uint64_t)((double)total * COLL_RPL_FREE_RESERVE);
    snprintf(f->path, sizeof(f->path), "%s", path);
    f->free_bytes = avail;
    f->needed_bytes = need;
    if (avail < need + keep)
        return err_set(err, PT_ECANTCREAT,
                       "the scratch tables need about %s on %s, which has "
                       "%s free (%s kept free: %.0f %% of it); nothing was "
                       "created (`max_scratch` bounds them)",
                       pt_size_format(need, a, sizeof(a)), path,
                       pt_size_format(avail, b, sizeof(b)),
                       pt_size_format(keep, m, sizeof(m)),
                       100 * COLL_RPL_FREE_RESERVE);
    return 0;
}

int coll_pgr_free_text(const struct coll_pgr_free *f, char *buf, size_t len)
{
    char a[32], b[32];

    if (f->path[0])
        snprintf(buf, len,
                 "%s had %s free before the load, the scratch tables needing "
                 "about %s",
                 f->path, pt_size_format(f->free_bytes, a, sizeof(a)),
                 pt_size_format(f->needed_bytes, b, sizeof(b)));
    else if (f->why[0])
        snprintf(buf, len, "not checked: %s", f->why);
    else if (len)
        buf[0] = '\0';
    return f->path[0] || f->why[0];
}

int coll_rpl_check_replicas(struct coll_conn *c, const struct coll_pgr_plan *p,
                            const char *count_sql, const char *what,
                            struct pt_err *err)
{
    int64_t n = 0;
    int ret;

    if ((ret = coll_query_i64(c, count_sql, &n, err)) < 0)
        return ret;
    if (n > 0 && !p->allow_replicated)
        return err_set(err, PT_ECANTCREAT,
                       "`allow_replicated`: this server streams to %lld "
                       "replica(s) (%s): the scratch tables and every "
                       "replayed write would reach them; nothing was "
                       "created",
                       (long long)n, what);
    if (n > 0)
        coll_rpl_note(p,
                      "this server streams to %lld replica(s) (%s): "
                      "replaying anyway (--allow-replicated)",
                      (long long)n, what);
    return 0;
}

int coll_rpl_check_loaded(const struct coll_pgr_plan *p, uint64_t bytes,
                          struct pt_err *err)
{
    char sz[32];

    if (p->max_scratch_bytes && bytes > p->max_scratch_bytes)
        return err_set(err, PT_EIO,
                       "`max_scratch` %s reached: the loaded scratch tables "
                       "take %llu bytes",
                       pt_size_format(p->max_scratch_bytes, sz, sizeof(sz)),
                       (unsigned long long)bytes);
    return 0;
}

int coll_rpl_drop_tables(struct coll_conn *c, enum coll_engine e,
                         const char *list_sql, const char *qual,
                         uint64_t *n_tables, struct pt_err *err)
{
    struct coll_rows rows;
    char sql[768];
    int ret;

    *n_tables = 0;
    if ((ret = coll_query_rows(c, list_sql, &rows, err)) < 0)
        return ret;
    for (size_t r = 0; r < rows.n_rows && ret == 0; r++) {
        char q[COLL_NAME_MAX + 4];
        const char *name = rows.cells[r * rows.n_cols];
        if (!name || coll_ident_check(name, "table", NULL) < 0)
            continue;
        coll_ident_quote(e, name, q, sizeof(q), NULL);
        snprintf(sql, sizeof(sql), "DROP TABLE %s.%s", qual, q);
        if ((ret = coll_exec(c, sql, err)) == 0)
            (*n_tables)++;
    }
    coll_rows_release(&rows);
    return ret;
}
