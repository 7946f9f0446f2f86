/* SPDX-License-Identifier: Apache-2.0 */
/*
 * reclog.h — store/'s private header for the record log (reclog.c) of a
 * store that follows DB2's storage semantics: "<store>-log", a preallocated
 * circular file of log records, one per logged operation (a set, a
 * delete, an expiry), written at the operation and forced to disk at its
 * commit (synchronous = FULL). DB2 logs records, not pages: an update's
 * log write is its row, however large the page.
 *
 * The log is what makes a write durable; SQLite's WAL is the page file's
 * write path and reaches the disk at checkpoints (store.c). After a crash,
 * store_open applies the records SQLite lacks (redo).
 *
 * Record format: a 96-byte header, the session id, then (a set of an
 * in-row object) the object.
 *   0  magic  "PTRLOG1\0"
 *   8  seq    u64, the record's sequence number (consecutive)
 *  16  bytes  u32, the whole record
 *  20  kind   u8, enum reclog_kind
 *  21  col    u8, LOB column (1 MEDIUM, 2 LARGE) of a LOB set, else 0
 *  22  klen   u16, the session id's length
 *  24  n      u64, the object's length
 *  32  now    i64, LASTACCESS (ms), or an expiry's time
 *  40  maxin  i32, MAXINACTIVETIME (s); 4 zero bytes
 *  48  off, cap, slot, gen: u64 each, a LOB set's locator
 *  80  sum    u64, lob_checksum of the body (id and object)
 *  88  hsum   u64, lob_checksum of bytes 0..87
 * All integers little-endian. Records follow one another from offset 0;
 * one that does not fit before the end starts the next lap at offset 0
 * (the writer first makes every earlier record's change durable in the
 * database). A scan from offset 0 reads records while their sequence
 * numbers run on; what a previous lap left behind has smaller ones.
 *
 * Not part of the public API (store.h is); no other module includes it.
 */
#ifndef PT_STORE_RECLOG_H
#define PT_STORE_RECLOG_H

#include <stddef.h>
#include <stdint.h>

#include "core/core.h"

/* Db2's default circular log: LOGPRIMARY 3 files of LOGFILSIZ 1000 4-KB
 * pages, preallocated (Db2 "logprimary" and "logfilsiz" configuration
 * parameters, defaults 3 and 1000). */
#define RECLOG_FILE_BYTES (UINT64_C(1000) * 4096)
#define RECLOG_BYTES (3 * RECLOG_FILE_BYTES)
#define RECLOG_HEADER_BYTES 96u

enum reclog_kind {
    RECLOG_SET_ROW = 1, /* an object stored in the row (SMALL) */
    RECLOG_SET_LOB = 2, /* an object in the LOB area: its locator */
    RECLOG_DELETE = 3,  /* a session invalidated */
    RECLOG_EXPIRE = 4   /* sessions expired at `now_ms` */
};

struct reclog_rec {
    uint64_t seq;
    enum reclog_kind kind;
    unsigned col; /* RECLOG_SET_LOB: 1 MEDIUM, 2 LARGE */
    const char *id;
    size_t id_len;
    uint64_t n; /* object bytes */
    int64_t now_ms;
    int32_t max_inactive_s;
    uint64_t off, cap, slot, gen; /* RECLOG_SET_LOB */
    const void *data;             /* RECLOG_SET_ROW: the object */
};

struct reclog {
    int fd;             /* -1: closed */
    uint64_t bytes;     /* the file's size */
    uint64_t head;      /* where the next record goes */
    uint64_t seq;       /* the next record's sequence number */
    unsigned char *buf; /* one record, buf_bytes */
    size_t buf_bytes;
    char path[4200];
};

/* Bytes a record takes in the log. */
uint64_t reclog_rec_bytes(const struct reclog_rec *r);

/*
 * Open "<path>" (create: a new file of RECLOG_BYTES zero bytes, synced) with
 * room for records of objects up to max_object bytes. Head and sequence
 * number are those after the scan's last record (reclog_scan).
 */
int reclog_open(struct reclog *l, const char *path, int create,
                uint64_t max_object, struct pt_err *err);
void reclog_close(struct reclog *l);

/*
 * Read the run of records from offset 0: fn(ctx, rec) for each, in order
 * (rec->data points into the log's buffer until the next call). Leaves
 * head and seq after the last one. fn returning < 0 stops the scan with it.
 */
int reclog_scan(struct reclog *l,
                int (*fn)(void *ctx, const struct reclog_rec *r,
                          struct pt_err *err),
                void *ctx, struct pt_err *err);

/* Move head and seq past records another connection appended since this
 * one last wrote (it holds the write lock, so none is being written). */
int reclog_catch_up(struct reclog *l, struct pt_err *err);

/* 1 if a record of `bytes` fits between head and the end of the file. */
int reclog_fits(const struct reclog *l, uint64_t bytes);

/* Write r at head with the next sequence number (r->seq is set) and
 * advance; the record reaches the disk at reclog_sync. */
int reclog_append(struct reclog *l, struct reclog_rec *r, struct pt_err *err);

/* Force what was written to the disk (fdatasync). */
int reclog_sync(struct reclog *l, struct pt_err *err);

/* Take back the records written since head was `head` and seq `seq` (a
 * rolled-back transaction): their first header is zeroed, so a scan stops
 * before them. */
void reclog_undo(struct reclog *l, uint64_t head, uint64_t seq);

#endif
