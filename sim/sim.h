/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sim.h — the public face of sim/: traces (pagetune-trace(5) CSV and
 * libCacheSim oracleGeneral binary), the workload generator, eviction
 * policies behind one interface, the two-tier simulator (application cache
 * in front of a page-size-aware buffer pool) and miss-ratio curves.
 *
 * sim/ does no I/O of its own except reading and writing trace files through
 * the reader/writer below (the trace is its input format); it never prints.
 * Neighbours: analyzers/ (page-fit rules, device model), store/ (replays the
 * same traces through the reader), cli/cmd_{simulate,workload,replay}.c.
 */
#ifndef PT_SIM_H
#define PT_SIM_H

#include "core/core.h"

/* ---- traces ------------------------------------------------------------- */

enum sim_op { SIM_GET = 0, SIM_SET = 1, SIM_DEL = 2 };

enum sim_trace_format {
    SIM_TRACE_AUTO = 0, /* by content: CSV header or 24-byte records */
    SIM_TRACE_CSV,      /* pagetune-trace(5): time_ms,op,key,size */
    SIM_TRACE_ORACLE,   /* libCacheSim oracleGeneral, 24-byte records */
};

/* One request. Valid until the next sim_trace_next() call. */
struct sim_req {
    uint64_t time_ms;    /* request time, ms */
    uint64_t key_id;     /* dense id 0..n_keys-1, interned once per key */
    uint32_t size_bytes; /* serialized object size */
    enum sim_op op;
};

struct sim_trace_reader; /* opaque; streams, never loads the whole file */

/*
 * Open a trace. Missing file → PT_ENOINPUT; bad header → PT_EDATA.
 * Free with sim_trace_close().
 */
int sim_trace_open(const char *path, enum sim_trace_format fmt,
                   struct sim_trace_reader **out, struct pt_err *err);
/*
 * Next request: 1 = *req filled, 0 = end of trace, negative = PT_EDATA with
 * "file:line: ..." (CSV) or "file: truncated record at byte N" (binary).
 * Does not allocate per request (key interning grows a table amortised).
 */
int sim_trace_next(struct sim_trace_reader *r, struct sim_req *req,
                   struct pt_err *err);
/* The key string of an interned id (CSV: as written; binary: decimal id). */
const char *sim_trace_key(const struct sim_trace_reader *r, uint64_t key_id,
                          size_t *len);
/* Number of distinct keys seen so far. */
uint64_t sim_trace_n_keys(const struct sim_trace_reader *r);
/* Bytes consumed so far and total file size (0 if unknown), for progress. */
uint64_t sim_trace_pos(const struct sim_trace_reader *r);
uint64_t sim_trace_size(const struct sim_trace_reader *r);
/* Restart from the beginning (keys stay interned with the same ids). */
int sim_trace_rewind(struct sim_trace_reader *r, struct pt_err *err);
void sim_trace_close(struct sim_trace_reader *r);
/* The detected format (CSV or ORACLE; an empty file reads as ORACLE). */
enum sim_trace_format sim_trace_format_of(const struct sim_trace_reader *r);
/* CSV: number of the last line read (for messages); 0 for binary. */
uint64_t sim_trace_line(const struct sim_trace_reader *r);
/* Bytes held by the reader's read buffer (for memory accounting). */
size_t sim_trace_buffer_bytes(const struct sim_trace_reader *r);

/*
 * Trace writer. The caller opens fp (cli/ through the atomic writer) and
 * writes the header once, then one record per request. CSV keys must be
 * non-empty, must not start with '#' and must not contain ',' or newlines
 * (PT_EDATA). Write errors → PT_EIO.
 */
int sim_trace_write_header(FILE *fp, enum sim_trace_format fmt,
                           struct pt_err *err);
int sim_trace_write_csv(FILE *fp, uint64_t time_ms, enum sim_op op,
                        const char *key, size_t key_len, uint32_t size_bytes,
                        struct pt_err *err);
/* One oracleGeneral record (time in seconds, next access -1 if none). */
int sim_trace_write_oracle(FILE *fp, uint32_t time_s, uint64_t obj_id,
                           uint32_t size_bytes, int64_t next_access_vtime,
                           struct pt_err *err);

#endif /* PT_SIM_H */
