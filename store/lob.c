/* SPDX-License-Identifier: Apache-2.0 */
/*
 * lob.c — the LOB area file of a store with DB2 storage semantics: records
 * with a header and a checksum each (format in lob.h), read and written
 * with pread(2)/pwrite(2) per access, never through SQLite's page cache.
 *
 * Two ways to the disk, as DB2 offers for LOB data that bypasses the
 * buffer pool: through the operating system's file cache (an SMS table
 * space, or a DMS one with FILE SYSTEM CACHING), or with O_DIRECT (open(2):
 * the buffer, offset and length must be aligned to the file system's block
 * size, so every transfer is a whole number of LOB_ALIGN bytes from one
 * aligned buffer allocated when the file is opened). Both are selected by
 * `--lob-io` (pagetune-replay(1)).
 *
 * Neighbours: store.c decides where a record goes and commits the row that
 * names it; this file never touches SQLite.
 */
#define _GNU_SOURCE /* O_DIRECT, open(2) on Linux; nothing else is used */

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <linux/magic.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "store/lob.h"

static const unsigned char lob_magic[8] = {'P', 'T', 'L', 'O', 'B', '1', 0, 0};

uint64_t lob_slot_bytes(uint64_t n)
{
    uint64_t b = LOB_HEADER_BYTES + n;
    return (b + LOB_ALIGN - 1) / LOB_ALIGN * LOB_ALIGN;
}

uint64_t lob_get_le64(const unsigned char *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = (v << 8) | p[i];
    return v;
}

void lob_put_le64(unsigned char *p, uint64_t v)
{
    for (int i = 0; i < 8; i++, v >>= 8)
        p[i] = (unsigned char)v;
}

/*
 * Four independent lanes of 64-bit words, each mixed with a multiply and a
 * xor-shift (the multiplier is 2^64 / golden ratio), folded at the end with
 * the length. It catches torn writes (a record half old, half new) and a
 * stale slot, which is what it is for; it is not cryptographic.
 */
uint64_t lob_checksum(const void *p, size_t n)
{
    const unsigned char *b = p;
    const uint64_t k = UINT64_C(0x9E3779B97F4A7C15);
    uint64_t h[4] = {1, 2, 3, 4};
    size_t i = 0;

    for (; i + 32 <= n; i += 32) {
        for (int l = 0; l < 4; l++) {
            uint64_t w;
            memcpy(&w, b + i + 8 * (size_t)l, 8);
            h[l] = (h[l] ^ w) * k;
            h[l] ^= h[l] >> 31;
        }
    }
    for (; i < n; i++)
        h[i & 3] = (h[i & 3] ^ b[i]) * k;
    uint64_t r = (uint64_t)n;
    for (int l = 0; l < 4; l++) {
        r = (r ^ h[l]) * k;
        r ^= r >> 29;
    }
    return r;
}

int lob_direct_supported(const char *dir)
{
    char path[4200];
    int fd;
    struct statfs fs;

    if ((size_t)snprintf(path, sizeof(path), "%s/.pagetune-odirect.%ld", dir,
                         (long)getpid()) >= sizeof(path))
        return -1;
    /* tmpfs accepts O_DIRECT since Linux 6.6 (open(2)), but its pages are
     * memory: nothing of a device read is left to measure (statfs(2):
     * TMPFS_MAGIC, RAMFS_MAGIC) */
    if (statfs(dir, &fs) == 0 &&
        (fs.f_type == TMPFS_MAGIC || fs.f_type == RAMFS_MAGIC))
        return 0;
    fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_DIRECT, 0600);
    if (fd < 0)
        return errno == EINVAL ? 0 : -1;
    close(fd);
    unlink(path);
    return 1;
}

int lob_file_open(struct lob_file *f, const char *path, int create, int direct,
                  uint64_t max_bytes, struct pt_err *err)
{
    int flags = O_RDWR | (create ? O_CREAT | O_TRUNC : 0);
    uint64_t slot = lob_slot_bytes(max_bytes);
    void *buf = NULL;

    memset(f, 0, sizeof(*f));
    f->fd = -1;
    if (strlen(path) >= sizeof(f->path))
        return err_set(err, PT_ECANTCREAT, "LOB area path too long: '%.64s'",
                       path);
    snprintf(f->path, sizeof(f->path), "%s", path);
    if (slot > SIZE_MAX / 2 || posix_memalign(&buf, LOB_ALIGN, slot) != 0)
        return err_set(err, PT_EINTERNAL,
                       "out of memory for the LOB area buffer (%llu bytes)",
                       (unsigned long long)slot);
    f->buf = buf;
    f->buf_bytes = (size_t)slot;
    if (direct)
        flags |= O_DIRECT;
    f->fd = open(path, flags, 0666);
    if (f->fd < 0 && direct && errno == EINVAL) {
        lob_file_close(f);
        return err_set(err, PT_EUSAGE,
                       "`lob_io` direct: the file system of '%s' refuses "
                       "O_DIRECT (use `lob_io` cached)",
                       path);
    }
    if (f->fd < 0) {
        int e = errno;
        lob_file_close(f);
        return err_set(err, create ? PT_ECANTCREAT : PT_ENOINPUT,
                       "cannot open LOB area '%s': %s", path, strerror(e));
    }
    f->direct = direct;
    return 0;
}

void lob_file_close(struct lob_file *f)
{
    if (!f)
        return;
    if (f->fd >= 0)
        close(f->fd);
    free(f->buf);
    f->buf = NULL;
    f->fd = -1;
}

/* pwrite/pread the whole range (lob.h). */
int lob_pio(int fd, int wr, void *buf, size_t n, uint64_t off)
{
    unsigned char *p = buf;
    while (n > 0) {
        ssize_t r =
            wr ? pwrite(fd, p, n, (off_t)off) : pread(fd, p, n, (off_t)off);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            return -1;
        if (r == 0) {
            errno = wr ? ENOSPC : 0;
            return -1;
        }
        p += r;
        n -= (size_t)r;
        off += (uint64_t)r;
    }
    return 0;
}

int lob_file_write(struct lob_file *f, uint64_t off, uint64_t gen, uint64_t tag,
                   const void *data, uint64_t n, struct pt_err *err)
{
    uint64_t slot = lob_slot_bytes(n);
    unsigned char *h = f->buf;

    if (slot > f->buf_bytes)
        return err_set(err, PT_EDATA,
                       "LOB area '%s': object of %llu bytes is larger than "
                       "the LARGE column",
                       f->path, (unsigned long long)n);
    memset(h, 0, LOB_HEADER_BYTES);
    memcpy(h, lob_magic, 8);
    lob_put_le64(h + 8, gen);
    lob_put_le64(h + 16, n);
    lob_put_le64(h + 24, lob_checksum(data, (size_t)n));
    lob_put_le64(h + 32, tag);
    lob_put_le64(h + 56, lob_checksum(h, 56));
    if (n)
        memcpy(h + LOB_HEADER_BYTES, data, (size_t)n);
    memset(h + LOB_HEADER_BYTES + n, 0, (size_t)(slot - LOB_HEADER_BYTES - n));
    if (lob_pio(f->fd, 1, h, (size_t)slot, off) < 0) {
        int e = errno;
        return err_set(err, PT_EIO, "LOB area '%s' is %s: %s", f->path,
                       e == ENOSPC || e == EDQUOT ? "full" : "not writable",
                       strerror(e));
    }
    return 0;
}

int lob_file_read(struct lob_file *f, uint64_t off, uint64_t gen, uint64_t tag,
                  uint64_t n, void *out, size_t cap, struct pt_err *err)
{
    uint64_t slot = lob_slot_bytes(n);
    unsigned char *h = f->buf;
    const char *what = NULL;

    if (slot > f->buf_bytes)
        return err_set(err, PT_EDATA,
                       "LOB area '%s': record at %llu claims %llu bytes",
                       f->path, (unsigned long long)off, (unsigned long long)n);
    if (lob_pio(f->fd, 0, h, (size_t)slot, off) < 0)
        return err_set(err, errno ? PT_EIO : PT_EDATA,
                       "LOB area '%s': cannot read record at %llu: %s", f->path,
                       (unsigned long long)off,
                       errno ? strerror(errno) : "past the end of the file");
    if (memcmp(h, lob_magic, 8) != 0 ||
        lob_get_le64(h + 56) != lob_checksum(h, 56))
        what = "bad header";
    else if (lob_get_le64(h + 32) != tag)
        what = "another session's record";
    else if (lob_get_le64(h + 8) != gen)
        what = "stale generation";
    else if (lob_get_le64(h + 16) != n)
        what = "wrong length";
    else if (lob_get_le64(h + 24) !=
             lob_checksum(h + LOB_HEADER_BYTES, (size_t)n))
        what = "checksum mismatch";
    if (what)
        return err_set(err, PT_EDATA,
                       "LOB area '%s': record at %llu (generation %llu): %s",
                       f->path, (unsigned long long)off,
                       (unsigned long long)gen, what);
    if (out && cap)
        memcpy(out, h + LOB_HEADER_BYTES, (size_t)(n < cap ? n : cap));
    return 0;
}

int lob_file_sync(struct lob_file *f, struct pt_err *err)
{
    if (fdatasync(f->fd) != 0)
        return err_set(err, PT_EIO, "cannot sync LOB area '%s': %s", f->path,
                       strerror(errno));
    return 0;
}

uint64_t lob_file_size(const struct lob_file *f)
{
    struct stat st;
    if (f->fd < 0 || fstat(f->fd, &st) != 0)
        return 0;
    return (uint64_t)st.st_size;
}

int lob_file_trim(struct lob_file *f, uint64_t end, struct pt_err *err)
{
    if (lob_file_size(f) > end && ftruncate(f->fd, (off_t)end) != 0)
        return err_set(err, PT_EIO, "cannot trim LOB area '%s': %s", f->path,
                       strerror(errno));
    return 0;
}
