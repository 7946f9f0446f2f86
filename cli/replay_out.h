/* SPDX-License-Identifier: Apache-2.0 */
/*
 * replay_out.h — what the two server replays print alike (replay_out.c):
 * each later candidate judged against the first, its requests/s, interval
 * and latency cells, the verdict lines, and the JSON document's head.
 * cmd_replay.c (PostgreSQL) and replay_mariadb.c (MariaDB / MySQL) add
 * their own counters.
 */
#ifndef PT_CLI_REPLAY_OUT_H
#define PT_CLI_REPLAY_OUT_H

#include "advise/advise.h"
#include "cli/cli.h"
#include "collect/collect.h"
#include "store/store.h"

/* Each later candidate against the first. */
struct replay_judged {
    struct store_range diff[COLL_PGR_MAX_CANDIDATES]; /* vs the first */
    enum store_verdict verdict[COLL_PGR_MAX_CANDIDATES];
    char why[COLL_PGR_MAX_CANDIDATES][1100];
    /* the reads by magnitude, judged by the caller (adv_reads_judge) */
    struct adv_pgr_reads reads[COLL_PGR_MAX_CANDIDATES];
};

/* Judged as advise judges its server replay (adv_server_verdict:
 * store_mean_ci95, store_verdict_judge), with the reads the caller judged
 * into j->reads (have 0: requests/s alone). */
void replay_judge(const struct coll_pgr_result *res, struct replay_judged *j);
/* Candidate i's cells from column col: req/s, req/s vs first ("-" for the
 * first), op us, op p95 us. */
void replay_row_rps(struct out_table *t, size_t col,
                    const struct coll_pgr_cand_result *r,
                    const struct replay_judged *j, size_t i);
/* "verdict: ..." a later candidate. */
void replay_verdict_lines(FILE *fp, const struct coll_pgr_result *res,
                          const struct replay_judged *j);
/* The document's head: schema_version, pagetune_version, kind, engine
 * (unless NULL), trace, server, sessions, clients, rounds, reclaimed. */
void replay_json_head(json_t *doc, const char *engine, const char *trace,
                      const struct coll_pgr_plan *p,
                      const struct coll_pgr_result *res);
/* Candidate i's rounds_rps array, its vs_first object (null for the
 * first) and its verdict's name ("reference" for the first). */
/* The notes of --sizes: how many of the sampled table's columns the
 * scratch rows carry (none: nothing), and what was not carried. */
void replay_carried_note(const struct cli_common *c, size_t n,
                         const char *sizes, const char *not_carried);
json_t *replay_rounds_json(const struct coll_pgr_cand_result *r);
json_t *replay_vs_first_json(const struct replay_judged *j, size_t i);
const char *replay_verdict_name(const struct replay_judged *j, size_t i);

#endif /* PT_CLI_REPLAY_OUT_H */
