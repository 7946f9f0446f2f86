/* SPDX-License-Identifier: Apache-2.0 */
/*
 * internal.h — shared between the files of analyzers/ only (not a public
 * face): the engine-vocabulary step that recommend.c calls after choosing,
 * and the one way both add a reason.
 */
#ifndef PT_ANALYZERS_INTERNAL_H
#define PT_ANALYZERS_INTERNAL_H

#include "analyzers/analyzers.h"

/*
 * Engine settings and reasons in the engine's own vocabulary (advice.c):
 * PostgreSQL toast_tuple_target / STORAGE / shared_buffers, InnoDB
 * innodb_page_size / ROW_FORMAT / innodb_buffer_pool_size, Oracle BLOCKSIZE
 * / DB_nK_CACHE_SIZE / LOB storage, SQLite page_size / cache_size. Does
 * nothing for db2 and for engines it does not know (r->n_settings stays 0).
 */
void rec_engine_advice(struct rec_result *r, const struct rec_inputs *in);

/* 1 for the engines advice.c speaks for (postgresql, mysql, oracle,
 * sqlite). */
int rec_engine_known(const char *name);

/* Append a reason to r (recommend.c); beyond REC_MAX_REASONS it is
 * dropped. */
void rec_reason(struct rec_result *r, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/*
 * The pool of r->current in bytes (shared_buffers, innodb_buffer_pool_size,
 * SQLite's cache_size, DB2's pool pages x page size); 0 if unknown, and
 * only a value read from the server when `server_only` (recommend.c).
 */
uint64_t rec_state_pool_bytes(const struct rec_result *r,
                              const struct rec_engine *e, int server_only);

#endif /* PT_ANALYZERS_INTERNAL_H */
