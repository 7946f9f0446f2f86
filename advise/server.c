/* SPDX-License-Identifier: Apache-2.0 */
/*
 * server.c — PostgreSQL advice replayed on the server (issue 28): the
 * candidates of a recommendation, the trace as collect/'s server replay
 * takes it, and the judgement of its rounds with store/'s interval and
 * verdict rule. Shared by advise (pipeline.c, replay_server) and
 * `pagetune replay --dsn/--connect` (cli/cmd_replay.c), so the two say the
 * same thing about the same measurement.
 *
 * Neighbours: collect/pgreplay.c (the run on the server), store/verdict.c
 * and store/plan.c (store_verdict_judge, store_mean_ci95), decide.c (the
 * validation summary).
 */
#include "advise/advise.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A knob of "current": its value as text, "" when null or absent. */
static void current_knob(const json_t *doc, const char *knob, char *buf,
                         size_t len)
{
    const json_t *v = json_object_get(
        json_object_get(json_object_get(doc, "current"), knob), "value");

    buf[0] = '\0';
    if (json_is_integer(v))
        snprintf(buf, len, "%lld", (long long)json_integer_value(v));
    else if (json_is_string(v))
        snprintf(buf, len, "%s", json_string_value(v));
}

static int candidate(const char *name, const char *target, const char *storage,
                     const char *ff, struct coll_pgr_candidate *c,
                     struct pt_err *err)
{
    struct pt_err e = {0};
    char spec[128];
    int n = snprintf(spec, sizeof(spec), "toast_tuple_target=%s%s%s%s%s",
                     target[0] ? target : "2032", storage[0] ? ",storage=" : "",
                     storage, ff[0] ? ",fillfactor=" : "", ff);

    if (n < 0 || (size_t)n >= sizeof(spec))
        return err_set(err, PT_EDATA, "%s: settings too long", name);
    if (coll_pgr_candidate_parse(spec, c, &e) < 0)
        return err_set(err, PT_EDATA, "%s: %s", name, e.msg);
    return 0;
}

int adv_pgr_candidates(const json_t *rec_doc, const char *name,
                       struct coll_pgr_candidate cand[2], size_t *n,
                       struct pt_err *err)
{
    const json_t *set = json_object_get(rec_doc, "settings");
    const json_t *t = json_object_get(set, "toast_tuple_target");
    const json_t *st = json_object_get(set, "storage");
    char cur_t[32], cur_s[16], rec_t[32], rec_s[16], ff[16];
    int ret;

    current_knob(rec_doc, "toast_tuple_target", cur_t, sizeof(cur_t));
    current_knob(rec_doc, "storage", cur_s, sizeof(cur_s));
    /* the table's fillfactor on both sides: the advice keeps it */
    current_knob(rec_doc, "fillfactor", ff, sizeof(ff));
    if (json_is_integer(t))
        snprintf(rec_t, sizeof(rec_t), "%lld",
                 (long long)json_integer_value(t));
    else
        snprintf(rec_t, sizeof(rec_t), "%s", cur_t);
    snprintf(rec_s, sizeof(rec_s), "%s",
             json_is_string(st) ? json_string_value(st) : cur_s);
    if ((ret = candidate(name, cur_t, cur_s, ff, &cand[0], err)) < 0 ||
        (ret = candidate(name, rec_t, rec_s, ff, &cand[1], err)) < 0)
        return ret;
    *n = memcmp(&cand[0], &cand[1], sizeof(*cand)) == 0 ? 1 : 2;
    return 0;
}

int adv_pgr_reqs(const struct store_trace *t, uint64_t max_records,
                 struct coll_pgr_req **reqs, uint64_t *n, struct pt_err *err)
{
    uint64_t m =
        max_records && max_records < t->n_reqs ? max_records : t->n_reqs;

    *reqs = pt_calloc(m ? m : 1, sizeof(**reqs));
    if (!*reqs)
        return err_set(err, PT_EINTERNAL, "out of memory");
    for (uint64_t i = 0; i < m; i++) {
        (*reqs)[i].key_id = t->reqs[i].key_id;
        (*reqs)[i].size_bytes = t->reqs[i].size_bytes;
        (*reqs)[i].op = t->reqs[i].op;
        (*reqs)[i].write_back = t->reqs[i].write_back;
    }
    *n = m;
    return 0;
}

double adv_pgr_ht_reads_per_op(const struct coll_pgr_blocks *b,
                               const struct coll_pgr_cand_result *r)
{
    double ops = (double)r->ops * (double)(r->n_rounds ? r->n_rounds : 1);

    return ops > 0 ? (double)(b->heap_read + b->toast_read) / ops : 0;
}

void adv_reads_judge(const struct adv_reads_in *in, struct adv_pgr_reads *o)
{
    const double t = in->tol;
    unsigned n = in->n < COLL_PGR_MAX_ROUNDS ? in->n : COLL_PGR_MAX_ROUNDS;
    double d[COLL_PGR_MAX_ROUNDS] = {0};
    char mt[64], pt[64];
    const char *what;
    unsigned k;

    memset(o, 0, sizeof(*o));
    o->verdict = STORE_VERDICT_INCONCLUSIVE;
    o->measured.mean = o->measured.lo = o->measured.hi = NAN;
    o->predicted = o->measured;
    o->have = 1;
    memcpy(o->pred, in->pred, sizeof(o->pred));
    memcpy(o->meas, in->meas, sizeof(o->meas));
    if (!(o->pred[0] >= ADV_SERVER_READS_FLOOR ||
          o->pred[1] >= ADV_SERVER_READS_FLOOR ||
          o->meas[0] >= ADV_SERVER_READS_FLOOR ||
          o->meas[1] >= ADV_SERVER_READS_FLOOR)) {
        snprintf(o->why, sizeof(o->why),
                 "reads not judged: %.3f -> %.3f %s, predicted %.3f -> "
                 "%.3f: %s holds the scratch tables",
                 o->meas[0], o->meas[1], in->what, o->pred[0], o->pred[1],
                 in->pool);
        return;
    }
    /* each round's change, paired; a round that read nothing for the
     * first gives no ratio */
    for (k = 0; k < n; k++) {
        double a = in->per[0] > 0 ? (double)in->round[0][k] / in->per[0] : 0;
        double b = in->per[1] > 0 ? (double)in->round[1][k] / in->per[1] : 0;
        if (!(a > 0))
            break;
        d[k] = b / a - 1;
    }
    if (!(o->pred[0] > 0) || k < n || n < 2) {
        snprintf(o->why, sizeof(o->why), "reads not judged: %s",
                 n < 2 ? "fewer than 2 rounds give no interval"
                       : "a round of the first candidate read nothing "
                         "from outside the pool, or nothing was "
                         "predicted");
        return;
    }
    store_mean_ci95(d, n, &o->measured.mean, &o->measured.lo, &o->measured.hi);
    o->predicted.mean = o->pred[1] / o->pred[0] - 1;
    o->predicted.lo = o->pred[1] * (1 - t) / (o->pred[0] * (1 + t)) - 1;
    o->predicted.hi = o->pred[1] * (1 + t) / (o->pred[0] * (1 - t)) - 1;
    {
        struct store_verdict_out v;
        o->verdict = store_verdict_judge(&o->measured, &o->predicted, &v);
        what = o->verdict == STORE_VERDICT_CONFIRMS
                   ? "within the predicted range"
               : o->verdict == STORE_VERDICT_INCONCLUSIVE
                   ? "the interval spans zero"
               : (o->measured.mean > 0) != (o->predicted.mean > 0)
                   ? "the opposite direction"
               /* by magnitude: a fall of reads is a negative change */
               : fabs(o->measured.mean) < fabs(o->predicted.mean)
                   ? "a smaller change than predicted"
                   : "a larger change than predicted";
    }
    snprintf(o->why, sizeof(o->why),
             "%s %.3f -> %.3f, %s over %u rounds, predicted %.3f -> %.3f, "
             "%s (the emulation of the same run, each figure +-%.0f %%): %s",
             in->what, o->meas[0], o->meas[1],
             pt_fig_change_range(o->measured.mean * 100, o->measured.lo * 100,
                                 o->measured.hi * 100, mt, sizeof(mt)),
             n, o->pred[0], o->pred[1],
             pt_fig_change_range(o->predicted.mean * 100, o->predicted.lo * 100,
                                 o->predicted.hi * 100, pt, sizeof(pt)),
             t * 100, what);
}

void adv_pgr_reads_of(const struct coll_pgr_result *res, size_t i,
                      const struct adv_pgr_prediction *pred,
                      struct adv_pgr_reads *o)
{
    const struct coll_pgr_cand_result *f = &res->r[0], *r = &res->r[i];
    struct adv_reads_in in = {
        .what = "heap + TOAST blocks read from outside shared_buffers per "
                "operation",
        .pool = "shared_buffers",
        .tol = ADV_SERVER_PRED_TOL,
        .n = r->n_rounds < f->n_rounds ? r->n_rounds : f->n_rounds,
        .round = {f->round_reads, r->round_reads},
        .per = {(double)f->ops, (double)r->ops},
    };

    memset(o, 0, sizeof(*o));
    if (!pred || !pred->have || !pred->c[0].have || !pred->c[i].have)
        return;
    in.pred[0] = adv_pgr_ht_reads_per_op(&pred->c[0].blocks, f);
    in.pred[1] = adv_pgr_ht_reads_per_op(&pred->c[i].blocks, r);
    in.meas[0] = adv_pgr_ht_reads_per_op(&f->blocks, f);
    in.meas[1] = adv_pgr_ht_reads_per_op(&r->blocks, r);
    adv_reads_judge(&in, o);
}

enum store_verdict adv_server_verdict(const struct coll_pgr_result *res,
                                      size_t i, struct adv_pgr_reads *reads,
                                      struct store_verdict_out *out)
{
    /* the advice predicts a gain: the half line above zero */
    const struct store_range gain = {1e-9, 1e-9, 1e9};
    const struct coll_pgr_cand_result *f = &res->r[0], *r = &res->r[i];
    unsigned n = r->n_rounds < f->n_rounds ? r->n_rounds : f->n_rounds;
    double d[COLL_PGR_MAX_ROUNDS] = {0};
    struct store_range m;
    char mt[64], rps[400];
    enum store_verdict rv = STORE_VERDICT_INCONCLUSIVE;
    int have = reads && reads->have;

    for (unsigned k = 0; k < n; k++)
        d[k] = f->round_rps[k] > 0 ? r->round_rps[k] / f->round_rps[k] - 1 : 0;
    store_mean_ci95(d, n, &m.mean, &m.lo, &m.hi);
    if (n >= 2) {
        rv = store_verdict_judge(&m, &gain, out);
    } else {
        memset(out, 0, sizeof(*out));
        out->verdict = STORE_VERDICT_INCONCLUSIVE;
        out->measured = m;
    }
    out->predicted = gain;
    snprintf(rps, sizeof(rps),
             "measured %s requests/s over %u round(s) on the server; the "
             "advice predicts a gain (its direction only: no model of the "
             "server's time)%s",
             pt_fig_change_range(m.mean * 100, m.lo * 100, m.hi * 100, mt,
                                 sizeof(mt)),
             n, n < 2 ? "; fewer than 2 rounds give no interval" : "");
    /* the reads decide unless requests/s fell, and only where they are
       the advice's gain: a predicted fall (a rise confirmed says nothing
       for the advice) */
    if (have)
        reads->decided = n >= 2 && rv != STORE_VERDICT_CONTRADICTS &&
                         reads->verdict != STORE_VERDICT_INCONCLUSIVE &&
                         reads->predicted.mean < 0;
    out->verdict = have && reads->decided ? reads->verdict : rv;
    if (have && reads->decided)
        snprintf(out->why, sizeof(out->why), "%s: %s; %s",
                 store_verdict_name(out->verdict), reads->why, rps);
    else
        snprintf(out->why, sizeof(out->why), "%s: %s%s%s",
                 store_verdict_name(out->verdict), rps, have ? "; " : "",
                 have ? reads->why : "");
    return out->verdict;
}

enum store_verdict adv_pgr_judge(const struct coll_pgr_result *res, size_t i,
                                 const struct adv_pgr_prediction *pred,
                                 struct store_verdict_out *out,
                                 struct adv_pgr_reads *reads)
{
    struct adv_pgr_reads local;

    if (!reads)
        reads = &local;
    adv_pgr_reads_of(res, i, pred, reads);
    return adv_server_verdict(res, i, reads, out);
}

json_t *adv_pgr_reads_json(const struct adv_pgr_reads *r)
{
    if (!r->have)
        return json_null();
    return json_pack(
        "{s:s, s:s, s:[f, f], s:[f, f], s:o, s:o}", "verdict",
        store_verdict_name(r->verdict), "text", r->why, "measured_per_op",
        r->meas[0], r->meas[1], "predicted_per_op", r->pred[0], r->pred[1],
        "measured_pct",
        isfinite(r->measured.mean)
            ? json_pack("{s:f, s:f, s:f}", "mean", 100 * r->measured.mean, "lo",
                        100 * r->measured.lo, "hi", 100 * r->measured.hi)
            : json_null(),
        "predicted_pct",
        isfinite(r->predicted.mean)
            ? json_pack("{s:f, s:f, s:f}", "mean", 100 * r->predicted.mean,
                        "lo", 100 * r->predicted.lo, "hi",
                        100 * r->predicted.hi)
            : json_null());
}

void adv_pgr_per_op(const struct coll_pgr_cand_result *r, double *heap,
                    double *toast, double *read)
{
    const struct coll_pgr_blocks *b = &r->blocks;
    double ops = (double)r->ops * (double)(r->n_rounds ? r->n_rounds : 1);

    if (!(ops > 0)) {
        *heap = *toast = *read = NAN;
        return;
    }
    *heap = (double)(b->heap_read + b->heap_hit) / ops;
    *toast =
        (double)(b->toast_read + b->toast_hit + b->tidx_read + b->tidx_hit) /
        ops;
    *read =
        (double)(b->heap_read + b->toast_read + b->tidx_read + b->idx_read) /
        ops;
}

void adv_validation_server_common(struct adv_validation *v,
                                  const struct coll_pgr_result *res,
                                  const struct store_verdict_out *out,
                                  const char *reads)
{
    v->srv_n_extra = res->n_extra;
    memcpy(v->srv_extra, res->extra, sizeof(v->srv_extra));
    snprintf(v->srv_not_carried, sizeof(v->srv_not_carried), "%s",
             res->not_carried);
    v->verdict = *out;
    v->have_measured = 1;
    v->have_verdict = res->r[1].n_rounds >= 2;
    v->rounds = res->r[1].n_rounds;
    if (v->srv_reads.decided)
        snprintf(v->compared_with, sizeof(v->compared_with),
                 "the predicted change in %s, by magnitude; requests/s by "
                 "direction (no model of the server's time)",
                 reads);
    else
        snprintf(v->compared_with, sizeof(v->compared_with),
                 "the advice's direction, a gain (no model of the server's "
                 "time predicts its size)");
    v->method = ADV_BY_SERVER;
}

void adv_validation_server(struct adv_validation *v,
                           const struct coll_pgr_result *res,
                           const struct coll_pgr_candidate cand[2],
                           const struct adv_pgr_prediction *pred)
{
    struct store_verdict_out out;

    if (res->n_cand < 2)
        return;
    v->have_server = 1;
    snprintf(v->srv_engine, sizeof(v->srv_engine), "postgresql");
    for (size_t i = 0; i < 2; i++) {
        v->srv_req_per_op[i] = NAN;
        coll_pgr_candidate_format(&cand[i], v->srv_cand[i],
                                  sizeof(v->srv_cand[i]));
        v->srv_rps[i] = res->r[i].requests_per_s;
        adv_pgr_per_op(&res->r[i], &v->srv_heap_per_op[i],
                       &v->srv_toast_per_op[i], &v->srv_read_per_op[i]);
    }
    adv_pgr_judge(res, 1, pred, &out, &v->srv_reads);
    adv_validation_server_common(
        v, res, &out,
        "heap + TOAST blocks read from outside shared_buffers per operation "
        "(the emulation of the same run, "
        "docs/models.md#server-replay-prediction)");
    snprintf(v->method_text, sizeof(v->method_text),
             "validated by replay on the server (PostgreSQL scratch tables "
             "with synthetic rows, %s vs %s, %u rounds; blocks read outside "
             "shared_buffers per operation %.3f -> %.3f, TOAST blocks %.2f "
             "-> %.2f)",
             v->srv_cand[0], v->srv_cand[1], v->rounds, v->srv_read_per_op[0],
             v->srv_read_per_op[1], v->srv_toast_per_op[0],
             v->srv_toast_per_op[1]);
    adv_server_reads_note(v, v->srv_reads_note, sizeof(v->srv_reads_note));
}

int adv_server_reads_note(const struct adv_validation *v, char *buf, size_t len)
{
    double a = v->srv_read_per_op[0], b = v->srv_read_per_op[1];

    if (len)
        buf[0] = '\0';
    if (!v->have_server || !(b >= a * ADV_SERVER_READS_RATIO) ||
        !(b >= a + 0.01))
        return 0;
    if (a > 0)
        snprintf(buf, len,
                 "replay on the server: the recommended setting read %.1f "
                 "times the blocks from outside shared_buffers per "
                 "operation (%.3f -> %.3f); this server's file cache served "
                 "them (requests/s %+.1f %%), where they reach the disk they "
                 "cost more than the verdict shows",
                 b / a, a, b,
                 v->have_verdict     ? 100 * v->verdict.measured.mean
                 : v->srv_rps[0] > 0 ? 100 * (v->srv_rps[1] / v->srv_rps[0] - 1)
                                     : 0.0);
    else
        snprintf(buf, len,
                 "replay on the server: the recommended setting read %.3f "
                 "blocks from outside shared_buffers per operation where the "
                 "current one read none; this server's file cache served "
                 "them, where they reach the disk they cost more than the "
                 "verdict shows",
                 b);
    return 1;
}
