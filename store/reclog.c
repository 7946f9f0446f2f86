/* SPDX-License-Identifier: Apache-2.0 */
/*
 * reclog.c — the record log of a store with DB2's storage semantics: one
 * record per logged operation in a preallocated circular file (reclog.h).
 * A preallocated file matters: an append that grows a file makes every
 * fdatasync also commit the file system's metadata (measured here: about
 * twice the cost of overwriting blocks that exist), and Db2 preallocates
 * its primary log files for the same reason.
 *
 * This file only moves bytes and checks them; which record a row has seen
 * (LOGSEQ) and what redo does with a record live in store.c.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "store/lob.h"
#include "store/reclog.h"

static const unsigned char reclog_magic[8] = {'P', 'T', 'R', 'L',
                                              'O', 'G', '1', 0};

uint64_t reclog_rec_bytes(const struct reclog_rec *r)
{
    uint64_t b = RECLOG_HEADER_BYTES + r->id_len +
                 (r->kind == RECLOG_SET_ROW ? r->n : 0);
    return (b + 7) / 8 * 8;
}

int reclog_open(struct reclog *l, const char *path, int create,
                uint64_t max_object, struct pt_err *err)
{
    struct stat st;

    memset(l, 0, sizeof(*l));
    l->fd = -1;
    if (strlen(path) >= sizeof(l->path))
        return err_set(err, PT_ECANTCREAT, "log path too long: '%.64s...'",
                       path);
    strcpy(l->path, path);
    l->buf_bytes = RECLOG_HEADER_BYTES + 65536 + (size_t)max_object;
    l->buf = pt_malloc(l->buf_bytes);
    if (!l->buf)
        return err_set(err, PT_EINTERNAL, "out of memory");
    l->fd = open(path, O_RDWR | (create ? O_CREAT | O_TRUNC : 0), 0600);
    if (l->fd < 0)
        return err_set(err, create ? PT_ECANTCREAT : PT_EDATA,
                       "cannot open record log '%s': %s", path,
                       strerror(errno));
    if (create) {
        /* every block written once, so that a record's fdatasync later
         * overwrites blocks the file system has already allocated */
        unsigned char *z = pt_calloc(1, 1u << 20);
        int bad = 0;
        if (!z)
            return err_set(err, PT_EINTERNAL, "out of memory");
        for (uint64_t off = 0; !bad && off < RECLOG_BYTES; off += 1u << 20)
            bad = lob_pio(l->fd, 1, z, 1u << 20, off) < 0;
        free(z);
        if (bad || fsync(l->fd) != 0)
            return err_set(err, PT_EIO,
                           "cannot preallocate record log '%s': %s", path,
                           strerror(errno ? errno : ENOSPC));
    }
    if (fstat(l->fd, &st) != 0 || (uint64_t)st.st_size < RECLOG_HEADER_BYTES)
        return err_set(err, PT_EDATA, "record log '%s' is truncated", path);
    l->bytes = (uint64_t)st.st_size;
    l->seq = 1; /* 0 is "no record" (a row's LOGSEQ, a scan's first) */
    return 0;
}

void reclog_close(struct reclog *l)
{
    if (l->fd >= 0)
        close(l->fd);
    l->fd = -1;
    free(l->buf);
    l->buf = NULL;
}

/* The header at off, checked: 1 and *r filled (no body) when it is a record
 * with sequence number `want` (any when want is 0) that fits in the file. */
static int reclog_header(struct reclog *l, uint64_t off, uint64_t want,
                         struct reclog_rec *r, uint64_t *bytes)
{
    unsigned char *h = l->buf;

    if (off + RECLOG_HEADER_BYTES > l->bytes ||
        lob_pio(l->fd, 0, h, RECLOG_HEADER_BYTES, off) < 0)
        return 0;
    if (memcmp(h, reclog_magic, 8) != 0 ||
        lob_get_le64(h + 88) != lob_checksum(h, 88))
        return 0;
    memset(r, 0, sizeof(*r));
    r->seq = lob_get_le64(h + 8);
    *bytes = lob_get_le64(h + 16) & 0xffffffffu;
    r->kind = (enum reclog_kind)h[20];
    r->col = h[21];
    r->id_len = (size_t)h[22] | (size_t)h[23] << 8;
    r->n = lob_get_le64(h + 24);
    r->now_ms = (int64_t)lob_get_le64(h + 32);
    r->max_inactive_s = (int32_t)(uint32_t)lob_get_le64(h + 40);
    r->off = lob_get_le64(h + 48);
    r->cap = lob_get_le64(h + 56);
    r->slot = lob_get_le64(h + 64);
    r->gen = lob_get_le64(h + 72);
    if ((want && r->seq != want) || *bytes < RECLOG_HEADER_BYTES ||
        off + *bytes > l->bytes || *bytes > l->buf_bytes ||
        reclog_rec_bytes(r) != *bytes)
        return 0;
    return 1;
}

int reclog_scan(struct reclog *l,
                int (*fn)(void *ctx, const struct reclog_rec *r,
                          struct pt_err *err),
                void *ctx, struct pt_err *err)
{
    uint64_t off = 0, want = 0, bytes = 0;
    struct reclog_rec r;

    l->seq = 1;
    while (reclog_header(l, off, want, &r, &bytes) && r.seq > 0) {
        uint64_t sum = lob_get_le64(l->buf + 80);
        unsigned char *body = l->buf + RECLOG_HEADER_BYTES;
        size_t nb = r.id_len + (r.kind == RECLOG_SET_ROW ? (size_t)r.n : 0);
        if (lob_pio(l->fd, 0, body, nb, off + RECLOG_HEADER_BYTES) < 0 ||
            lob_checksum(body, nb) != sum)
            break; /* torn: the write the crash interrupted */
        r.id = (const char *)body;
        r.data = body + r.id_len;
        if (fn) {
            int ret = fn(ctx, &r, err);
            if (ret < 0)
                return ret;
        }
        off += bytes;
        want = r.seq + 1;
    }
    l->head = off;
    if (want > l->seq)
        l->seq = want;
    if (l->seq == 0)
        l->seq = 1;
    return 0;
}

int reclog_catch_up(struct reclog *l, struct pt_err *err)
{
    struct reclog_rec r;
    uint64_t bytes;

    (void)err;
    for (;;) {
        if (reclog_header(l, l->head, l->seq, &r, &bytes))
            l->head += bytes;
        else if (l->head != 0 && reclog_header(l, 0, l->seq, &r, &bytes))
            l->head = bytes; /* another connection began a lap */
        else
            return 0;
        l->seq++;
    }
}

int reclog_fits(const struct reclog *l, uint64_t bytes)
{
    return l->head + bytes <= l->bytes;
}

int reclog_append(struct reclog *l, struct reclog_rec *r, struct pt_err *err)
{
    uint64_t bytes = reclog_rec_bytes(r);
    unsigned char *h = l->buf;
    size_t nb = r->id_len + (r->kind == RECLOG_SET_ROW ? (size_t)r->n : 0);

    if (bytes > l->buf_bytes || bytes > l->bytes || r->id_len > 0xffff)
        return err_set(err, PT_EDATA,
                       "record log '%s': a record of %llu bytes does not fit",
                       l->path, (unsigned long long)bytes);
    if (!reclog_fits(l, bytes))
        l->head = 0; /* the caller made the last lap durable */
    r->seq = l->seq;
    memset(h, 0, (size_t)bytes);
    memcpy(h, reclog_magic, 8);
    lob_put_le64(h + 8, r->seq);
    lob_put_le64(h + 16, bytes);
    h[20] = (unsigned char)r->kind;
    h[21] = (unsigned char)r->col;
    h[22] = (unsigned char)(r->id_len & 0xff);
    h[23] = (unsigned char)(r->id_len >> 8);
    lob_put_le64(h + 24, r->n);
    lob_put_le64(h + 32, (uint64_t)r->now_ms);
    lob_put_le64(h + 40, (uint32_t)r->max_inactive_s);
    lob_put_le64(h + 48, r->off);
    lob_put_le64(h + 56, r->cap);
    lob_put_le64(h + 64, r->slot);
    lob_put_le64(h + 72, r->gen);
    memcpy(h + RECLOG_HEADER_BYTES, r->id, r->id_len);
    if (r->kind == RECLOG_SET_ROW && r->n)
        memcpy(h + RECLOG_HEADER_BYTES + r->id_len, r->data, (size_t)r->n);
    lob_put_le64(h + 80, lob_checksum(h + RECLOG_HEADER_BYTES, nb));
    lob_put_le64(h + 88, lob_checksum(h, 88));
    if (lob_pio(l->fd, 1, h, (size_t)bytes, l->head) < 0)
        return err_set(err, PT_EIO, "cannot write record log '%s': %s", l->path,
                       strerror(errno));
    l->head += bytes;
    l->seq++;
    return 0;
}

int reclog_sync(struct reclog *l, struct pt_err *err)
{
    if (fdatasync(l->fd) != 0)
        return err_set(err, PT_EIO, "cannot sync record log '%s': %s", l->path,
                       strerror(errno));
    return 0;
}

void reclog_undo(struct reclog *l, uint64_t head, uint64_t seq)
{
    static const unsigned char zero[8] = {0};
    if (seq == l->seq)
        return;
    (void)lob_pio(l->fd, 1, (void *)zero, sizeof(zero), head);
    l->head = head;
    l->seq = seq;
}
