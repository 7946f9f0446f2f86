/* SPDX-License-Identifier: Apache-2.0 */
/*
 * lob.h — store/'s private header for the LOB area file (lob.c): the
 * out-of-row objects of a store that follows DB2's storage semantics, kept
 * outside SQLite's page cache in a file of their own, "<store>-lob", read
 * and written per access. Which record is current, and which space is free,
 * lives in the SQLite database (store.c), so a commit there is what makes a
 * record count; this file only moves bytes and checks them.
 *
 * Record format (one slot): a 64-byte header, then the object.
 *   0  magic   "PTLOB1\0\0"
 *   8  gen     u64, the write's generation (the row names it)
 *  16  n_bytes u64, the object's length
 *  24  sum     u64, lob_checksum of the object
 *  32  tag     u64, lob_checksum of the session id (whose record it is)
 *  40  zero    16 bytes
 *  56  hsum    u64, lob_checksum of bytes 0..55
 * All integers little-endian. A slot is the header and object rounded up to
 * LOB_ALIGN bytes; a session's home is two slots of the same size, written
 * alternately, so the committed record is never overwritten in place.
 *
 * Not part of the public API (store.h is); no other module includes it.
 */
#ifndef PT_STORE_LOB_H
#define PT_STORE_LOB_H

#include <stddef.h>
#include <stdint.h>

#include "core/core.h"

#define LOB_ALIGN 4096u      /* slot and I/O unit: O_DIRECT's alignment */
#define LOB_HEADER_BYTES 64u /* record header */

struct lob_file {
    int fd;             /* -1: closed */
    int direct;         /* opened with O_DIRECT */
    unsigned char *buf; /* LOB_ALIGN-aligned I/O buffer, buf_bytes, owned */
    size_t buf_bytes;   /* room for the largest slot */
    char path[4200];
};

/* Slot bytes for an object of n bytes: header + n rounded up to LOB_ALIGN. */
uint64_t lob_slot_bytes(uint64_t n);
/* Little-endian u64 at p (the LOB area's and the record log's integers). */
uint64_t lob_get_le64(const unsigned char *p);
void lob_put_le64(unsigned char *p, uint64_t v);
/* All n bytes at off of fd, retrying short transfers and EINTR: 0, or -1
 * with errno (ENOSPC: a write that made no progress; 0: end of file). The
 * LOB area's and the record log's I/O. */
int lob_pio(int fd, int wr, void *buf, size_t n, uint64_t off);
/* A 64-bit checksum of n bytes (four multiply-xor lanes; not a CRC). */
uint64_t lob_checksum(const void *p, size_t n);

/*
 * Open (create: create or truncate) the LOB file at `path`; `direct` asks
 * for O_DIRECT and fails with PT_EUSAGE when the file system refuses it.
 * Allocates the aligned I/O buffer for objects up to max_bytes once.
 */
int lob_file_open(struct lob_file *f, const char *path, int create, int direct,
                  uint64_t max_bytes, struct pt_err *err);
/* Close; accepts a zeroed or closed file. */
void lob_file_close(struct lob_file *f);
/* 1 if the file system of directory `dir` accepts O_DIRECT (a probe file is
 * created and removed), 0 if it refuses it or is memory (tmpfs, ramfs:
 * direct I/O there reaches no device), -1 if the probe could not be made
 * (then lob_file_open tells why). */
int lob_direct_supported(const char *dir);
/* Write a record for generation gen at byte offset off. PT_EIO when the
 * disk is full or the write fails. No allocation. */
int lob_file_write(struct lob_file *f, uint64_t off, uint64_t gen, uint64_t tag,
                   const void *data, uint64_t n, struct pt_err *err);
/*
 * Read the record at off, which must be generation gen of n bytes of the
 * session whose id has checksum `tag`; copies
 * up to cap bytes into out (may be NULL). PT_EDATA naming the difference
 * when the header, the generation, the length or the checksum disagree
 * (a torn or stale record). No allocation.
 */
int lob_file_read(struct lob_file *f, uint64_t off, uint64_t gen, uint64_t tag,
                  uint64_t n, void *out, size_t cap, struct pt_err *err);
/* fdatasync(2) the file (PT_EIO). */
int lob_file_sync(struct lob_file *f, struct pt_err *err);
/* Current size of the file in bytes (0 on error). */
uint64_t lob_file_size(const struct lob_file *f);
/* Cut the file to `end` bytes if it is longer (reclaims space written by
 * a transaction that never committed). */
int lob_file_trim(struct lob_file *f, uint64_t end, struct pt_err *err);

#endif /* PT_STORE_LOB_H */
