/* SPDX-License-Identifier: Apache-2.0 */
/*
 * mypredict.h — what a replay on MariaDB / MySQL (collect/myreplay.c)
 * should count in InnoDB's buffer pool, predicted before looking at the
 * counts (issue 28): advise/mypredict.c; docs/models.md#replay-mariadb.
 */
#ifndef PT_ADVISE_MYPREDICT_H
#define PT_ADVISE_MYPREDICT_H

#include "collect/collect.h"
#include "core/core.h"

/* Page requests (Innodb_buffer_pool_read_requests) and pool reads
 * (Innodb_buffer_pool_reads) of one candidate's measured passes, in all
 * and by what made them. */
struct adv_myr_counts {
    uint64_t requests, reads;
    uint64_t get_req, get_reads;     /* SELECT: descent and BLOB chain */
    uint64_t set_req, set_reads;     /* INSERT ... ON DUPLICATE KEY UPDATE */
    uint64_t undo_req, undo_reads;   /* rollback segment and undo pages */
    uint64_t purge_req, purge_reads; /* the old BLOBs freed */
};
struct adv_myr_pred_cand {
    int have;
    struct adv_myr_counts n;
    uint64_t pool_pages;     /* the instance's pool, pages */
    uint32_t lru_scan_depth; /* its page cleaner's free target; 0 none */
    uint32_t page_size;
    uint32_t blob_payload;     /* bytes of a value on one BLOB page */
    uint64_t leaves;           /* clustered index leaves */
    unsigned levels;           /* clustered index height */
    double blob_pages;         /* BLOB pages per stored value, mean */
    char policy[32];           /* the pool's policy (innodb-lru) */
    struct adv_myr_counts lru; /* the same emulation under LRU */
};
struct adv_myr_prediction {
    int have;
    char why[256];
    size_t n_cand;
    struct adv_myr_pred_cand c[COLL_PGR_MAX_CANDIDATES];
};

/*
 * The run of p (its trace, candidates, clients, warm-up and rounds) on
 * an emulation of each candidate's table (clustered index, DYNAMIC /
 * COMPACT off-page BLOBs), of its instance's undo and purge, and of the
 * instance's buffer pool (res->pool_pages_total pages, sim/'s innodb-lru
 * with the instance's innodb_old_blocks_time; the clock from the
 * measured rounds' requests/s). out->have = 0 with out->why when it
 * cannot (the pool's pages unknown); a candidate of ROW_FORMAT
 * COMPRESSED or REDUNDANT has c[i].have = 0. PT_EINTERNAL out of memory.
 */
int adv_myr_predict(const struct coll_myr_plan *p,
                    const struct coll_myr_result *res,
                    struct adv_myr_prediction *out, struct pt_err *err);
/* The rounds' mean purge backlog of candidate i (res->purge_backlog),
 * rows: the warm-up's lag in the emulation, and the report's figure. */
double adv_myr_mean_backlog(const struct coll_myr_result *res, size_t i);

#endif /* PT_ADVISE_MYPREDICT_H */
