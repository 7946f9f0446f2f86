/* SPDX-License-Identifier: Apache-2.0 */
/*
 * replay_mariadb.h — `pagetune replay --connect` on MariaDB / MySQL
 * (replay_mariadb.c), called by cmd_replay.c once it knows the engine.
 */
#ifndef PT_CLI_REPLAY_MARIADB_H
#define PT_CLI_REPLAY_MARIADB_H

#include "collect/collect.h"
#include "cli/cli.h"

/* What cmd_replay.c gathered for a MariaDB replay. */
struct replay_my_args {
    struct coll_myr_candidate cand[COLL_PGR_MAX_CANDIDATES]; /* --candidate */
    size_t n_cand;
    int rec_mysql;                    /* --recommendation is a MySQL one */
    const char *recommendation;       /* its file */
    const struct coll_pgr_plan *base; /* the trace, clients, rounds, limits */
    const char *trace;                /* its path, for the output */
    /* --sizes (sampled on MariaDB/MySQL): the table's other columns,
       carried into the scratch rows (coll_myr_extras), its object
       columns; not_carried (512 bytes) receives what was not */
    const char *sizes;
    const struct coll_columns *cols;
    const char *const *objs;
    size_t n_objs;
    char *not_carried;
};

/* 1 when the replay is MariaDB's before connecting: MariaDB candidates, a
 * MySQL recommendation, or a connection string naming a MariaDB or MySQL
 * driver. */
int replay_my_wants(const struct replay_my_args *m, const char *connect);
/* 1 when FILE's "engine" is "mysql" (any error: 0, left to the parse). */
int replay_my_rec_is_mysql(const char *file);
/* Run it on conn, or print the DDL (--dry-run) when conn is NULL. */
int replay_mariadb(const struct cli_common *c, const struct replay_my_args *m,
                   struct coll_conn *conn, struct pt_err *err);

#endif /* PT_CLI_REPLAY_MARIADB_H */
