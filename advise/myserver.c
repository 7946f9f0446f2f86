/* SPDX-License-Identifier: Apache-2.0 */
/*
 * myserver.c — MariaDB / MySQL advice replayed on the server (issue 28):
 * a recommendation's current and advised settings as replay candidates
 * (a page size is per instance: the advised one runs on an instance built
 * with it), the pool reads judged by magnitude against mypredict.c's
 * emulation, and the validation advise reports. Shared by advise
 * (pipeline.c, replay_server with replay_instance) and `pagetune replay
 * --connect` on MariaDB (cli/replay_mariadb.c), so the two say the same
 * thing about the same measurement.
 *
 * Neighbours: collect/myreplay.c (the run), advise/mypredict.c (the
 * prediction), server.c (adv_reads_judge, adv_server_verdict: the
 * verdict rule both engines share), docs/models.md#replay-mariadb.
 */
#include "advise/advise.h"

#include <math.h>
#include <string.h>

int adv_myr_candidates(const json_t *rec_doc, const char *name,
                       struct coll_myr_candidate cand[2], size_t *n,
                       struct pt_err *err)
{
    const json_t *set = json_object_get(rec_doc, "settings");
    const json_t *cur = json_object_get(rec_doc, "current");
    json_int_t page, cur_page;
    const char *rf;

    page = json_integer_value(json_object_get(set, "innodb_page_size"));
    cur_page = json_integer_value(json_object_get(set, "current_page_size"));
    memset(cand, 0, 2 * sizeof(*cand));
    if (!page || !cur_page)
        return err_set(err, PT_EDATA,
                       "%s: no settings.innodb_page_size or "
                       "current_page_size: not a MariaDB/MySQL recommendation",
                       name);
    rf = json_string_value(
        json_object_get(json_object_get(cur, "row_format"), "value"));
    snprintf(cand[0].row_format, sizeof(cand[0].row_format), "%s",
             rf ? rf : "DYNAMIC");
    rf = json_string_value(json_object_get(set, "row_format"));
    snprintf(cand[1].row_format, sizeof(cand[1].row_format), "%s",
             rf ? rf : cand[0].row_format);
    cand[0].page_size = (uint32_t)cur_page;
    cand[1].page_size = (uint32_t)page;
    *n = memcmp(&cand[0], &cand[1], sizeof(*cand)) == 0 ? 1 : 2;
    return 0;
}

double adv_myr_per_req(uint64_t v, const struct coll_pgr_cand_result *r)
{
    double q = (double)r->requests * (double)(r->n_rounds ? r->n_rounds : 1);

    return q > 0 ? (double)v / q : 0;
}

void adv_myr_reads_of(const struct coll_myr_result *res, size_t i,
                      const struct adv_myr_prediction *pred,
                      struct adv_pgr_reads *o)
{
    const struct coll_pgr_cand_result *f = &res->base.r[0],
                                      *r = &res->base.r[i];
    const struct adv_myr_pred_cand *c0 = &pred->c[0], *ci = &pred->c[i];

    memset(o, 0, sizeof(*o));
    if (!pred->have || !c0->have || !ci->have)
        return;
    {
        struct adv_reads_in in = {
            .what = "InnoDB buffer-pool reads per request",
            .pool = "the buffer pool",
            .tol = ADV_MY_PRED_TOL,
            .pred = {adv_myr_per_req(c0->n.reads, f),
                     adv_myr_per_req(ci->n.reads, r)},
            .meas = {adv_myr_per_req(res->innodb[0].reads, f),
                     adv_myr_per_req(res->innodb[i].reads, r)},
            .round = {f->round_reads, r->round_reads},
            .per = {(double)f->requests, (double)r->requests},
            .n = r->n_rounds < f->n_rounds ? r->n_rounds : f->n_rounds,
        };
        adv_reads_judge(&in, o);
    }
}

int adv_myr_pool_note(const struct coll_myr_result *res, char *buf, size_t len)
{
    uint64_t a = res->pool_bytes[0];
    char x[32], y[32];

    if (len)
        buf[0] = '\0';
    for (size_t i = 1; i < res->base.n_cand; i++) {
        uint64_t b = res->pool_bytes[i];
        /* more than a tenth apart: not the same memory */
        if (!a || !b || (b * 10 <= a * 11 && a * 10 <= b * 11))
            continue;
        snprintf(buf, len,
                 "the instances' buffer pools differ (%s at %uK pages, %s at "
                 "%uK): the replay compares the instances as they are, not "
                 "the page sizes at equal memory; give the instances the "
                 "same innodb_buffer_pool_size to compare page sizes alone",
                 pt_size_format(a, x, sizeof(x)), res->page_size[0] / 1024,
                 pt_size_format(b, y, sizeof(y)), res->page_size[i] / 1024);
        return 1;
    }
    return 0;
}

void adv_validation_server_my(struct adv_validation *v,
                              const struct coll_myr_plan *p,
                              const struct coll_myr_result *res,
                              const struct adv_myr_prediction *pred)
{
    struct store_verdict_out out;

    if (res->base.n_cand < 2)
        return;
    v->have_server = 1;
    snprintf(v->srv_engine, sizeof(v->srv_engine), "mysql");
    for (size_t i = 0; i < 2; i++) {
        const struct coll_pgr_cand_result *r = &res->base.r[i];
        coll_myr_candidate_format(&p->cand[i], v->srv_cand[i],
                                  sizeof(v->srv_cand[i]));
        v->srv_rps[i] = r->requests_per_s;
        v->srv_req_per_op[i] = adv_myr_per_req(res->innodb[i].read_requests, r);
        v->srv_read_per_op[i] = adv_myr_per_req(res->innodb[i].reads, r);
        v->srv_heap_per_op[i] = v->srv_toast_per_op[i] = NAN;
    }
    adv_myr_reads_of(res, 1, pred, &v->srv_reads);
    adv_server_verdict(&res->base, 1, &v->srv_reads, &out);
    adv_validation_server_common(v, &res->base, &out,
                                 "InnoDB buffer-pool reads per request (the "
                                 "emulation of the same run, "
                                 "docs/models.md#replay-mariadb)");
    snprintf(v->method_text, sizeof(v->method_text),
             "validated by replay on the server (MariaDB scratch tables with "
             "synthetic rows, %s vs %s on instances of %uK and %uK pages, %u "
             "rounds; buffer-pool page requests per request %.2f -> %.2f, "
             "pool reads %.3f -> %.3f)",
             v->srv_cand[0], v->srv_cand[1], res->page_size[0] / 1024,
             res->page_size[1] / 1024, v->rounds, v->srv_req_per_op[0],
             v->srv_req_per_op[1], v->srv_read_per_op[0],
             v->srv_read_per_op[1]);
}
