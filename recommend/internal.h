/* SPDX-License-Identifier: Apache-2.0 */
/*
 * internal.h — shared between the files of recommend/ only (not a public
 * face): the engine-vocabulary step that recommend.c calls after choosing
 * (advice.c), and what result.c gives recommend.c, advice.c and doc.c
 * alike (a reason, the engines advice.c speaks for, the pools in bytes).
 * The calls between the files run one way, no circle: run.c ->
 * recommend.c, doc.c, current.c; recommend.c -> advice.c, reconcile.c;
 * recommend.c, advice.c, doc.c -> result.c, tier.c (leaves).
 */
#ifndef PT_RECOMMEND_INTERNAL_H
#define PT_RECOMMEND_INTERNAL_H

#include "recommend/recommend.h"

/*
 * Engine settings and reasons in the engine's own vocabulary (advice.c):
 * PostgreSQL toast_tuple_target / STORAGE / shared_buffers, InnoDB
 * innodb_page_size / ROW_FORMAT / innodb_buffer_pool_size, Oracle BLOCKSIZE
 * / DB_nK_CACHE_SIZE / LOB storage, SQLite page_size / cache_size. Does
 * nothing for db2 and for engines it does not know (r->n_settings stays 0).
 */
void rec_engine_advice(struct rec_result *r, const struct rec_inputs *in);

/* 1 for the engines advice.c speaks for (postgresql, mysql, oracle,
 * sqlite) (result.c). */
int rec_engine_known(const char *name);

/* Append a reason to r (result.c); beyond REC_MAX_REASONS it is
 * dropped. */
void rec_reason(struct rec_result *r, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* The knob that holds the engine's pool ("shared_buffers", ...), or NULL
 * (result.c). */
const char *rec_pool_knob(const char *engine);

/*
 * The pool of r->current in bytes (shared_buffers, innodb_buffer_pool_size,
 * SQLite's cache_size, DB2's pool pages x page size); 0 if unknown, and
 * only a value read from the server when `server_only` (result.c).
 */
uint64_t rec_state_pool_bytes(const struct rec_result *r,
                              const struct rec_engine *e, int server_only);

/* The recommended pool in bytes, as the DDL sets it (result.c). */
uint64_t rec_result_pool_bytes(const struct rec_result *r,
                               const struct rec_engine *e);

#endif /* PT_RECOMMEND_INTERNAL_H */
