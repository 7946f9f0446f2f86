/* SPDX-License-Identifier: Apache-2.0 */
/*
 * replay_out.c — the output the PostgreSQL (cmd_replay.c) and MariaDB
 * (replay_mariadb.c) server replays share: verdicts against the first
 * candidate, the requests/s and latency cells, the JSON head.
 */
#include "cli/replay_out.h"

#include "advise/advise.h"

void replay_judge(const struct coll_pgr_result *res, struct replay_judged *j)
{
    for (size_t i = 1; i < res->n_cand; i++) {
        struct store_verdict_out v;
        j->verdict[i] = adv_server_verdict(res, i, &j->reads[i], &v);
        j->diff[i] = v.measured;
        snprintf(j->why[i], sizeof(j->why[i]), "candidate %zu against 1: %s",
                 i + 1, v.why);
    }
}

void replay_row_rps(struct out_table *t, size_t col,
                    const struct coll_pgr_cand_result *r,
                    const struct replay_judged *j, size_t i)
{
    out_table_setf(t, col, "%.0f", r->requests_per_s);
    out_table_set_num(t, col, r->requests_per_s);
    if (i == 0) {
        out_table_setf(t, col + 1, "-");
        out_table_set_raw(t, col + 1, "%s", "");
    } else {
        out_table_setf(t, col + 1, "%+.1f%% [%+.1f, %+.1f]",
                       j->diff[i].mean * 100, j->diff[i].lo * 100,
                       j->diff[i].hi * 100);
        out_table_set_num(t, col + 1, j->diff[i].mean * 100);
    }
    out_table_setf(t, col + 2, "%.1f", r->op_mean_us);
    out_table_setf(t, col + 3, "%.1f", r->op_p95_us);
}

void replay_verdict_lines(FILE *fp, const struct coll_pgr_result *res,
                          const struct replay_judged *j)
{
    char fs[600];

    for (size_t i = 1; i < res->n_cand; i++)
        fprintf(fp, "verdict: %s\n", j->why[i]);
    if (coll_pgr_free_text(&res->free, fs, sizeof(fs)))
        fprintf(fp, "free space: %s\n", fs);
}

void replay_json_head(json_t *doc, const char *engine, const char *trace,
                      const struct coll_pgr_plan *p,
                      const struct coll_pgr_result *res)
{
    json_object_set_new(doc, "schema_version", json_integer(1));
    json_object_set_new(doc, "pagetune_version", json_string(PT_VERSION));
    json_object_set_new(doc, "kind", json_string("replay_server"));
    if (engine)
        json_object_set_new(doc, "engine", json_string(engine));
    json_object_set_new(doc, "trace", json_string(trace));
    json_object_set_new(doc, "server", json_string(res->server));
    json_object_set_new(doc, "sessions", json_integer((json_int_t)p->n_keys));
    json_object_set_new(doc, "clients", json_integer(p->n_clients));
    json_object_set_new(doc, "rounds", json_integer(p->rounds));
    json_object_set_new(doc, "reclaimed", json_boolean(res->reclaimed));
    json_object_set_new(
        doc, "free_space",
        res->free.path[0]
            ? json_pack("{s:s, s:I, s:I}", "path", res->free.path, "free_bytes",
                        (json_int_t)res->free.free_bytes, "needed_bytes",
                        (json_int_t)res->free.needed_bytes)
            : json_pack("{s:s}", "not_checked", res->free.why));
    /* the scratch rows' shape: the sampled table's columns (--sizes) */
    json_object_set_new(doc, "scratch_columns",
                        adv_scratch_columns_json(res->extra, res->n_extra));
    json_object_set_new(doc, "not_carried",
                        res->not_carried[0] ? json_string(res->not_carried)
                                            : json_null());
}

json_t *replay_rounds_json(const struct coll_pgr_cand_result *r)
{
    json_t *rps = json_array();

    for (unsigned k = 0; k < r->n_rounds; k++)
        json_array_append_new(rps, json_real(r->round_rps[k]));
    return rps;
}

json_t *replay_vs_first_json(const struct replay_judged *j, size_t i)
{
    return i ? json_pack("{s:f, s:f, s:f}", "mean", j->diff[i].mean, "lo",
                         j->diff[i].lo, "hi", j->diff[i].hi)
             : json_null();
}

const char *replay_verdict_name(const struct replay_judged *j, size_t i)
{
    return i ? store_verdict_name(j->verdict[i]) : "reference";
}

void replay_carried_note(const struct cli_common *c, size_t n,
                         const char *sizes, const char *not_carried)
{
    if (n)
        cli_note(c,
                 "the scratch rows carry %zu of the table's own columns, "
                 "with their types (%s)",
                 n, sizes);
    if (not_carried && not_carried[0])
        cli_note(c, "not carried: %s", not_carried);
}
