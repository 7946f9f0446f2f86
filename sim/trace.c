/* SPDX-License-Identifier: Apache-2.0 */
/*
 * trace.c — streaming trace reader and writer: pagetune-trace(5) CSV
 * (time_ms,op,key,size with '#' comments) and libCacheSim's oracleGeneral
 * binary format (packed little-endian 24-byte records: uint32 time,
 * uint64 obj_id, uint32 obj_size, int64 next_access_vtime).
 *
 * The reader reads the file through one large buffer (read(2), no stdio)
 * and never allocates per request: CSV lines are parsed in place, and each
 * distinct key is interned once into an open-addressing hash table that
 * maps it to a dense id 0..n_keys-1 (the simulator indexes arrays by that
 * id instead of hashing again). The tables grow by doubling, so the cost is
 * amortised O(1) per request. Neighbours: sim.h (contract), the simulator
 * (sim/sim.c), store/ replay, cli/cmd_workload.c (writer).
 */
#include "sim/sim.h"
#include "sim/sim_int.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#define READ_BUF_BYTES (1u << 20) /* CSV: a line must fit in this */
#define ORACLE_REC_BYTES 24u      /* oracleGeneral record */
/* records of lookahead for prefetching: the batch loop takes ~5 ns a
   record, so 32 records are ~150 ns, about a memory latency (16 left
   ~1.5 ns a record of stall in a model of the lookups) */
#define ORACLE_AHEAD 32u
#define ORACLE_HASHES 64u /* hashes kept: > ORACLE_AHEAD, power of 2 */
#define CSV_AHEAD 8u      /* CSV lines parsed ahead: a power of two */
#define CSV_HEADER "time_ms,op,key,size"

struct slot;

/*
 * A CSV line parsed ahead by the fast path (csv_fast): its fields, and the
 * key's packed bytes (at most 8) or hash with its table position, computed
 * once for the prefetch and again used to intern it.
 */
struct csv_line_ahead {
    uint64_t start; /* file offset of the line */
    uint64_t next;  /* file offset of the line after it */
    uint64_t key;   /* file offset of the key's first byte */
    uint64_t time_ms;
    uint64_t k; /* as struct slot's k */
    uint64_t h; /* the key's position hash */
    uint32_t size_bytes;
    uint32_t key_len;
    enum sim_op op;
};

struct sim_trace_reader {
    char *path;                /* for messages (owned) */
    int fd;                    /* -1 when closed */
    int own_fd;                /* 0 for stdin */
    enum sim_trace_format fmt; /* CSV or ORACLE once detected */
    unsigned char *buf;        /* read buffer (owned) */
    size_t buf_cap;            /* bytes allocated */
    size_t len;                /* valid bytes in buf */
    size_t off;                /* parse position in buf */
    int eof;                   /* read(2) returned 0 */
    uint64_t buf_base;         /* file offset of buf[0] */
    uint64_t file_size;        /* 0 when unknown (pipe) */
    uint64_t line;             /* CSV: number of the last line read */
    uint64_t data_start;       /* file offset after the header */
    uint64_t data_start_line;  /* line count at data_start */
    /* CSV: lines parsed ahead, [aq_tail, aq_head) mod CSV_AHEAD, in file
       order from the current line; aq_stop: the next one did not parse */
    struct csv_line_ahead aq[CSV_AHEAD];
    uint64_t aq_head, aq_tail;
    int aq_stop;
    /* key interning */
    struct slot *slots; /* open addressing, linear probing */
    uint64_t n_slots;   /* power of two */
    uint64_t n_keys;    /* distinct keys so far */
    uint64_t cap_keys;  /* capacity of the per-key arrays */
    uint64_t *key_u64;  /* ORACLE: obj_id per key id */
    uint64_t *key_off;  /* CSV: offset of key text in arena */
    char *arena;        /* CSV: key bytes, each NUL-terminated */
    size_t arena_len;
    size_t arena_cap;
    char *keybuf; /* ORACLE: decimal rendering for sim_trace_key */
    /* ORACLE: hashes of the records ahead, computed once for the prefetch
       and used again to intern (record number mod ORACLE_HASHES) */
    struct {
        uint64_t id, h;
    } ahead[ORACLE_HASHES];
};

/* ---- hashing and interning ----------------------------------------------
 */

static inline uint64_t hash_bytes(const char *s, size_t n)
{
    uint64_t h = 0x9e3779b97f4a7c15ULL ^ (n * 0xff51afd7ed558ccdULL);
    uint64_t w;

    while (n >= 8) {
        memcpy(&w, s, 8);
        h = (h ^ sim_mix64(w)) * 0x9e3779b97f4a7c15ULL;
        s += 8;
        n -= 8;
    }
    w = 0;
    memcpy(&w, s, n);
    h = (h ^ sim_mix64(w)) * 0x9e3779b97f4a7c15ULL;
    return sim_mix64(h);
}

/*
 * A slot of the intern table. The key itself sits in the slot when it can
 * (a binary object id; a CSV key of at most 8 bytes, packed), so a lookup
 * costs one cache line; longer CSV keys keep their 64-bit hash here and are
 * confirmed against the arena.
 */
struct slot {
    uint64_t k;   /* object id, packed short key, or hash of a long key */
    uint32_t id1; /* key id + 1; 0 = empty */
    uint32_t len; /* CSV key length */
};

static inline uint64_t short_pos(uint64_t packed, size_t n)
{
    return sim_mix64(packed + n * 0x9e3779b97f4a7c15ULL);
}

/* Home position of an occupied slot (no access to the key's text). */
static inline uint64_t slot_pos(const struct sim_trace_reader *r,
                                const struct slot *sl)
{
    if (r->fmt == SIM_TRACE_ORACLE)
        return sim_mix64(sl->k);
    return sl->len <= 8 ? short_pos(sl->k, sl->len) : sl->k;
}

static int grow_slots(struct sim_trace_reader *r, struct pt_err *err)
{
    uint64_t n = r->n_slots ? r->n_slots * 2 : 1u << 12;
    struct slot *s = pt_calloc(n, sizeof(*s));
    uint64_t i, j;

    if (!s)
        return err_set(err, PT_EINTERNAL, "out of memory interning keys");
    sim_huge_pages(s, n * sizeof(*s));
    for (i = 0; i < r->n_slots; i++) {
        if (!r->slots[i].id1)
            continue;
        for (j = slot_pos(r, &r->slots[i]) & (n - 1); s[j].id1;
             j = (j + 1) & (n - 1))
            ;
        s[j] = r->slots[i];
    }
    free(r->slots);
    r->slots = s;
    r->n_slots = n;
    return 0;
}

static int grow_keys(struct sim_trace_reader *r, struct pt_err *err)
{
    uint64_t n = r->cap_keys ? r->cap_keys * 2 : 1u << 11;
    void *p;

    if (n > 0xfffffffeULL)
        return err_set(err, PT_EDATA, "%s: more than 4 billion distinct keys",
                       r->path);
    if (r->fmt == SIM_TRACE_ORACLE) {
        p = pt_realloc(r->key_u64, n * sizeof(uint64_t));
        if (!p)
            return err_set(err, PT_EINTERNAL, "out of memory interning keys");
        r->key_u64 = p;
        sim_huge_pages(p, n * sizeof(uint64_t));
    } else {
        p = pt_realloc(r->key_off, n * sizeof(uint64_t));
        if (!p)
            return err_set(err, PT_EINTERNAL, "out of memory interning keys");
        r->key_off = p;
        sim_huge_pages(p, n * sizeof(uint64_t));
    }
    r->cap_keys = n;
    return 0;
}

/*
 * Make room for one more key (the table stays at most 3/4 full) and find
 * the free slot for position h again if the table moved.
 */
static int reserve_key(struct sim_trace_reader *r, uint64_t h, uint64_t *j,
                       struct pt_err *err)
{
    uint64_t mask;
    int rc, moved = 0;

    if ((r->n_keys + 1) * 4 > r->n_slots * 3) {
        if ((rc = grow_slots(r, err)))
            return rc;
        moved = 1;
    }
    if (r->n_keys + 1 > r->cap_keys && (rc = grow_keys(r, err)))
        return rc;
    if (moved) {
        mask = r->n_slots - 1;
        for (*j = h & mask; r->slots[*j].id1; *j = (*j + 1) & mask)
            ;
    }
    return 0;
}

static inline void prefetch_slot(const struct sim_trace_reader *r, uint64_t h)
{
    if (r->n_slots)
        __builtin_prefetch(&r->slots[h & (r->n_slots - 1)]);
}

static inline int intern_u64(struct sim_trace_reader *r, uint64_t key,
                             uint64_t h, uint64_t *id, struct pt_err *err)
{
    uint64_t mask, j;
    int rc;

    if (!r->n_slots && (rc = grow_slots(r, err)))
        return rc;
    mask = r->n_slots - 1;
    for (j = h & mask; r->slots[j].id1; j = (j + 1) & mask) {
        if (r->slots[j].k == key) {
            *id = r->slots[j].id1 - 1;
            return 0;
        }
    }
    if ((rc = reserve_key(r, h, &j, err)))
        return rc;
    r->key_u64[r->n_keys] = key;
    r->slots[j].k = key;
    r->slots[j].len = 0;
    r->slots[j].id1 = (uint32_t)(r->n_keys + 1);
    *id = r->n_keys++;
    return 0;
}

/*
 * Intern a CSV key of n bytes whose slot value k (packed bytes or hash)
 * and position hash h are known (csv_key_hash).
 */
static int intern_key(struct sim_trace_reader *r, const char *key, size_t n,
                      uint64_t k, uint64_t h, uint64_t *id, struct pt_err *err)
{
    uint64_t mask, j;
    int rc;

    if (!r->n_slots && (rc = grow_slots(r, err)))
        return rc;
    mask = r->n_slots - 1;
    for (j = h & mask; r->slots[j].id1; j = (j + 1) & mask) {
        const struct slot *sl = &r->slots[j];
        if (sl->k == k && sl->len == n &&
            (n <= 8 ||
             memcmp(r->arena + r->key_off[sl->id1 - 1], key, n) == 0)) {
            *id = sl->id1 - 1;
            return 0;
        }
    }
    if ((rc = reserve_key(r, h, &j, err)))
        return rc;
    if (r->arena_len + n + 1 > r->arena_cap) {
        size_t cap = r->arena_cap ? r->arena_cap : 1u << 16;
        char *a;

        while (r->arena_len + n + 1 > cap)
            cap *= 2;
        a = pt_realloc(r->arena, cap);
        if (!a)
            return err_set(err, PT_EINTERNAL, "out of memory interning keys");
        r->arena = a;
        r->arena_cap = cap;
    }
    memcpy(r->arena + r->arena_len, key, n);
    r->arena[r->arena_len + n] = '\0';
    r->key_off[r->n_keys] = r->arena_len;
    r->arena_len += n + 1;
    r->slots[j].k = k;
    r->slots[j].len = (uint32_t)n;
    r->slots[j].id1 = (uint32_t)(r->n_keys + 1);
    *id = r->n_keys++;
    return 0;
}

/*
 * A CSV key's slot value (*k) and position hash (returned). A short key is
 * packed little-endian, byte i at bits 8i, whatever the host's order (the
 * fast path in csv_fast packs it with one load and a mask).
 */
static inline uint64_t csv_key_hash(const char *key, size_t n, uint64_t *k)
{
    uint64_t packed = 0;

    if (n > 8)
        return *k = hash_bytes(key, n);
    for (size_t i = 0; i < n; i++)
        packed |= (uint64_t)(unsigned char)key[i] << (8 * i);
    *k = packed;
    return short_pos(packed, n);
}

static int intern_str(struct sim_trace_reader *r, const char *key, size_t n,
                      uint64_t *id, struct pt_err *err)
{
    uint64_t k, h = csv_key_hash(key, n, &k);

    return intern_key(r, key, n, k, h, id, err);
}

/* ---- buffered reading ---------------------------------------------------
 */

/* Move unread bytes to the front and read more. Returns bytes added. */
static int refill(struct sim_trace_reader *r, struct pt_err *err)
{
    size_t keep = r->len - r->off;
    ssize_t n;

    if (r->off) {
        memmove(r->buf, r->buf + r->off, keep);
        r->buf_base += r->off;
        r->off = 0;
        r->len = keep;
    }
    while (r->len < r->buf_cap && !r->eof) {
        /* a signal that came while we parsed must not leave us blocked in
         * read(2) on a pipe whose writer stays open (pagetune(1) SIGNALS) */
        if (pt_interrupted())
            return err_set(err, PT_EINTR, "interrupted while reading '%s'",
                           r->path);
        n = read(r->fd, r->buf + r->len, r->buf_cap - r->len);
        if (n < 0) {
            if (errno == EINTR && !pt_interrupted())
                continue;
            return err_set(err, PT_ENOINPUT, "cannot read '%s': %s", r->path,
                           strerror(errno));
        }
        if (n == 0)
            r->eof = 1;
        r->len += (size_t)n;
        /* one read per refill is enough unless the buffer is nearly empty */
        if (r->len - keep > 0 && r->len >= r->buf_cap / 2)
            break;
    }
    return (int)(r->len - keep > 0);
}

/* ---- CSV ----------------------------------------------------------------
 */

/* Show at most 40 bytes of a bad line in an error message. */
static int csv_error(struct sim_trace_reader *r, const char *line, size_t n,
                     const char *what, struct pt_err *err)
{
    char shown[48];
    size_t k = n < 40 ? n : 40, i;

    for (i = 0; i < k; i++) {
        unsigned char c = (unsigned char)line[i];
        shown[i] = (c >= 0x20 && c < 0x7f) ? (char)c : '?';
    }
    shown[k] = '\0';
    return err_set(err, PT_EDATA, "%s:%llu: %s in '%s%s'", r->path,
                   (unsigned long long)r->line, what, shown,
                   n > 40 ? "..." : "");
}

/*
 * Next complete line (without '\n' and a trailing '\r'). Returns 1 with
 * line and n set, 0 at end of file, negative on error.
 */
static int csv_line(struct sim_trace_reader *r, const char **line, size_t *n,
                    struct pt_err *err)
{
    for (;;) {
        const char *p = (const char *)r->buf + r->off;
        size_t avail = r->len - r->off;
        const char *nl = avail ? memchr(p, '\n', avail) : NULL;
        int rc;

        if (nl || (r->eof && avail)) {
            size_t len = nl ? (size_t)(nl - p) : avail;
            r->off += nl ? len + 1 : len;
            r->line++;
            if (len && p[len - 1] == '\r')
                len--;
            *line = p;
            *n = len;
            return 1;
        }
        if (r->eof)
            return 0;
        if (r->off == 0 && r->len == r->buf_cap) {
            r->line++;
            return err_set(err, PT_EDATA, "%s:%llu: line longer than %u bytes",
                           r->path, (unsigned long long)r->line,
                           READ_BUF_BYTES);
        }
        if ((rc = refill(r, err)) < 0)
            return rc;
    }
}

static inline int parse_u64(const char **pp, const char *end, uint64_t *out)
{
    const char *p = *pp;
    uint64_t v = 0;

    if (p == end || (unsigned)(*p - '0') > 9)
        return -1;
    while (p < end && (unsigned)(*p - '0') <= 9) {
        unsigned d = (unsigned)(*p - '0');
        if (v > (UINT64_MAX - d) / 10)
            return -1;
        v = v * 10 + d;
        p++;
    }
    *pp = p;
    *out = v;
    return 0;
}

/* Digits at *pp (at most max of them, then a non-digit before end): 0. */
static inline int fast_u64(const char **pp, const char *end, unsigned max,
                           uint64_t *out)
{
    const char *p = *pp;
    uint64_t v = 0;

    while (p < end && (unsigned)(*p - '0') <= 9)
        v = v * 10 + (unsigned)(*p++ - '0');
    if (p == *pp || (unsigned)(p - *pp) > max || p == end)
        return -1;
    *pp = p;
    *out = v;
    return 0;
}

/*
 * A key of 1-7 bytes followed by a comma, with 8 bytes readable at key:
 * one load finds the comma (the first zero byte of w ^ ",,,,,,,,"; the
 * borrow of the test can only mark bytes above the first zero) and checks
 * the bytes before it for LF and NUL; the key is the bytes below the
 * comma. Sets key_len, k and h as csv_key_hash would; 0 when it does not
 * apply (the byte loop decides). Little-endian hosts only.
 */
static inline int csv_short_key(const char *key, const char *end,
                                struct csv_line_ahead *a)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    const uint64_t ones = 0x0101010101010101ULL, high = ones << 7;
    uint64_t w, comma, bad, n;

    if (end - key < 8)
        return 0;
    memcpy(&w, key, 8);
    comma = ((w ^ (ones * ',')) - ones) & ~(w ^ (ones * ',')) & high;
    bad = (((w ^ (ones * '\n')) - ones) & ~(w ^ (ones * '\n')) & high) |
          ((w - ones) & ~w & high);
    if (!comma)
        return 0;
    n = (uint64_t)__builtin_ctzll(comma) / 8; /* bytes before the comma */
    if (n == 0 || (bad & ((1ULL << (8 * n)) - 1)))
        return 0;
    a->key_len = (uint32_t)n;
    a->k = w & ((1ULL << (8 * n)) - 1);
    a->h = short_pos(a->k, n);
    return 1;
#else
    (void)key;
    (void)end;
    (void)a;
    return 0;
#endif
}

/*
 * The fast path: parse the line at p if it is complete in the buffer and
 * of the common form "digits,op,key,digits" ending in LF or CR LF, with
 * numbers short enough not to overflow (19 and 10 digits) and a key without
 * NUL. Returns the line's length with its end, 0 for anything else, which
 * csv_next then parses the careful way (comments, errors, the last line
 * without LF): a line the fast path takes reads the same there.
 */
static size_t csv_fast(const char *p, const char *end, struct csv_line_ahead *a)
{
    const char *s = p, *key;
    uint64_t v;

    if (fast_u64(&p, end, 19, &a->time_ms) || *p != ',' || end - p < 5 ||
        p[4] != ',')
        return 0;
    if (p[1] == 'g' && p[2] == 'e' && p[3] == 't')
        a->op = SIM_GET;
    else if (p[1] == 's' && p[2] == 'e' && p[3] == 't')
        a->op = SIM_SET;
    else if (p[1] == 'd' && p[2] == 'e' && p[3] == 'l')
        a->op = SIM_DEL;
    else
        return 0;
    key = p += 5;
    if (csv_short_key(key, end, a)) {
        p = key + a->key_len;
    } else {
        while (p < end && *p != ',') {
            if (*p == '\n' || *p == '\0')
                return 0;
            p++;
        }
        if (p == key || p == end)
            return 0;
        a->key_len = (uint32_t)(p - key);
        a->h = csv_key_hash(key, a->key_len, &a->k);
    }
    p++;
    if (fast_u64(&p, end, 10, &v) || v > UINT32_MAX)
        return 0;
    if (*p == '\r' && ++p == end)
        return 0;
    if (*p != '\n')
        return 0;
    a->size_bytes = (uint32_t)v;
    a->key = (uint64_t)(key - s); /* csv_fill makes it a file offset */
    return (size_t)(p + 1 - s);
}

/*
 * Parse lines ahead of the current one with csv_fast while they are in
 * the buffer, and prefetch their keys' intern slots, so those cache misses
 * overlap with the work on the lines before. Stops at a line the fast path
 * does not take (aq_stop, until the queue is empty again).
 */
static void csv_fill(struct sim_trace_reader *r)
{
    uint64_t cur = r->buf_base + r->off, at;
    const char *end = (const char *)r->buf + r->len;

    if (r->aq_head == r->aq_tail) {
        r->aq_head = r->aq_tail = 0;
        at = cur;
    } else {
        at = r->aq[(r->aq_head - 1) & (CSV_AHEAD - 1)].next;
    }
    while (r->aq_head - r->aq_tail < CSV_AHEAD && !r->aq_stop) {
        struct csv_line_ahead *a = &r->aq[r->aq_head & (CSV_AHEAD - 1)];
        const char *p = (const char *)r->buf + (at - r->buf_base);
        size_t n = csv_fast(p, end, a);

        if (!n) {
            r->aq_stop = 1;
            break;
        }
        a->start = at;
        a->key += at;
        a->next = at += n;
        prefetch_slot(r, a->h);
        r->aq_head++;
    }
}

static int csv_next(struct sim_trace_reader *r, struct sim_req *req,
                    struct pt_err *err)
{
    const char *line, *p, *end, *key;
    size_t n;
    uint64_t v;
    int nul;
    int rc;

    csv_fill(r);
    if (r->aq_head != r->aq_tail) {
        const struct csv_line_ahead *a = &r->aq[r->aq_tail++ & (CSV_AHEAD - 1)];
        r->off = (size_t)(a->next - r->buf_base);
        r->line++;
        req->time_ms = a->time_ms;
        req->op = a->op;
        req->size_bytes = a->size_bytes;
        rc = intern_key(r, (const char *)r->buf + (a->key - r->buf_base),
                        a->key_len, a->k, a->h, &req->key_id, err);
        return rc ? rc : 1;
    }
    /* the careful way: a line csv_fast did not take, or at the buffer's end
       (a refill moves the bytes: the queue is empty, so nothing points
       into them) */
    r->aq_stop = 0;
    for (;;) {
        if ((rc = csv_line(r, &line, &n, err)) <= 0)
            return rc;
        if (n == 0 || line[0] == '#')
            continue;
        break;
    }
    p = line;
    end = line + n;
    if (parse_u64(&p, end, &req->time_ms) || p == end || *p != ',')
        return csv_error(r, line, n, "bad time_ms", err);
    p++;
    if (end - p >= 4 && p[3] == ',') {
        if (p[0] == 'g' && p[1] == 'e' && p[2] == 't')
            req->op = SIM_GET;
        else if (p[0] == 's' && p[1] == 'e' && p[2] == 't')
            req->op = SIM_SET;
        else if (p[0] == 'd' && p[1] == 'e' && p[2] == 'l')
            req->op = SIM_DEL;
        else
            return csv_error(r, line, n, "bad op (want get, set or del)", err);
    } else {
        return csv_error(r, line, n, "bad op (want get, set or del)", err);
    }
    p += 4;
    key = p;
    nul = 0;
    while (p < end && *p != ',') {
        nul |= *p == '\0';
        p++;
    }
    if (p == key || p == end)
        return csv_error(r, line, n, p == key ? "empty key" : "missing size",
                         err);
    if (nul) /* keys are strings: a NUL would cut them short everywhere */
        return csv_error(r, line, n, "key contains a NUL byte", err);
    rc = intern_str(r, key, (size_t)(p - key), &req->key_id, err);
    if (rc)
        return rc;
    p++;
    if (parse_u64(&p, end, &v) || p != end || v > UINT32_MAX)
        return csv_error(r, line, n, "bad size", err);
    req->size_bytes = (uint32_t)v;
    return 1;
}

/* Skip leading comments and blank lines, then check the header. */
static int csv_header(struct sim_trace_reader *r, struct pt_err *err)
{
    const char *line;
    size_t n;
    int rc;

    /* a UTF-8 byte order mark before the first line is not data */
    if (r->buf_base == 0 && r->off == 0 && !r->len && (rc = refill(r, err)) < 0)
        return rc;
    if (r->buf_base == 0 && r->off == 0 && r->len >= 3 &&
        memcmp(r->buf, "\xef\xbb\xbf", 3) == 0)
        r->off = 3;
    for (;;) {
        if ((rc = csv_line(r, &line, &n, err)) < 0)
            return rc;
        if (rc == 0)
            return err_set(err, PT_EDATA, "%s: missing header '" CSV_HEADER "'",
                           r->path);
        if (n == 0 || line[0] == '#')
            continue;
        if (n != strlen(CSV_HEADER) || memcmp(line, CSV_HEADER, n) != 0)
            return csv_error(r, line, n, "bad header, want '" CSV_HEADER "'",
                             err);
        break;
    }
    r->data_start = r->buf_base + r->off;
    r->data_start_line = r->line;
    return 0;
}

/* ---- oracleGeneral --------------------------------------------------------
 */

static inline uint32_t le32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
           (uint32_t)p[3] << 24;
}

static inline uint64_t le64(const unsigned char *p)
{
    return (uint64_t)le32(p) | (uint64_t)le32(p + 4) << 32;
}

static int oracle_next(struct sim_trace_reader *r, struct sim_req *req,
                       struct pt_err *err)
{
    const unsigned char *p;
    uint64_t rec, key;
    int rc;

    if (r->len - r->off < ORACLE_REC_BYTES) {
        if (!r->eof && (rc = refill(r, err)) < 0)
            return rc;
        while (r->len - r->off < ORACLE_REC_BYTES && !r->eof)
            if ((rc = refill(r, err)) < 0)
                return rc;
        if (r->len - r->off < ORACLE_REC_BYTES) {
            if (r->len == r->off)
                return 0;
            return err_set(err, PT_EDATA,
                           "%s: truncated record at byte %llu (%zu of %u "
                           "bytes)",
                           r->path, (unsigned long long)(r->buf_base + r->off),
                           r->len - r->off, ORACLE_REC_BYTES);
        }
    }
    p = r->buf + r->off;
    rec = (r->buf_base + r->off) / ORACLE_REC_BYTES;
    r->off += ORACLE_REC_BYTES;
    /* hide the table's cache miss: prefetch the slot of a record ahead,
       keeping its hash for when that record is interned */
    if (r->len - r->off >= (ORACLE_AHEAD + 1) * ORACLE_REC_BYTES) {
        uint64_t a = (rec + ORACLE_AHEAD) & (ORACLE_HASHES - 1);
        r->ahead[a].id = le64(p + ORACLE_AHEAD * ORACLE_REC_BYTES + 4);
        r->ahead[a].h = sim_mix64(r->ahead[a].id);
        prefetch_slot(r, r->ahead[a].h);
    }
    /* oracleGeneral times are in seconds (libCacheSim) */
    req->time_ms = (uint64_t)le32(p) * 1000u;
    req->size_bytes = le32(p + 12);
    req->op = SIM_GET;
    key = le64(p + 4);
    rec &= ORACLE_HASHES - 1;
    if ((rc = intern_u64(
             r, key, r->ahead[rec].id == key ? r->ahead[rec].h : sim_mix64(key),
             &req->key_id, err)) < 0)
        return rc;
    return 1;
}

/*
 * Up to max records, all from the buffer (the caller falls back to
 * oracle_next when it holds none): the loop of oracle_next without its
 * refill checks, each record's intern slot asked for ORACLE_AHEAD
 * records before it is interned, as there.
 */
static int64_t oracle_batch(struct sim_trace_reader *r, struct sim_req *q,
                            size_t max, struct pt_err *err)
{
    size_t n = (r->len - r->off) / ORACLE_REC_BYTES, j;
    const unsigned char *p = r->buf + r->off;
    uint64_t rec = (r->buf_base + r->off) / ORACLE_REC_BYTES, key, h;
    int rc;

    if (n > max)
        n = max;
    /* the records ahead whose slots are asked for: while in the buffer */
    size_t pf_end = (r->len - r->off) / ORACLE_REC_BYTES;
    pf_end = pf_end > ORACLE_AHEAD ? pf_end - ORACLE_AHEAD : 0;
    for (j = 0; j < n; j++, p += ORACLE_REC_BYTES, rec++) {
        if (j < pf_end) {
            uint64_t a = (rec + ORACLE_AHEAD) & (ORACLE_HASHES - 1);
            r->ahead[a].id = le64(p + ORACLE_AHEAD * ORACLE_REC_BYTES + 4);
            r->ahead[a].h = sim_mix64(r->ahead[a].id);
            prefetch_slot(r, r->ahead[a].h);
        }
        q[j].time_ms = (uint64_t)le32(p) * 1000u;
        q[j].size_bytes = le32(p + 12);
        q[j].op = SIM_GET;
        key = le64(p + 4);
        if (__builtin_expect(r->ahead[rec & (ORACLE_HASHES - 1)].id == key, 1))
            h = r->ahead[rec & (ORACLE_HASHES - 1)].h;
        else
            h = sim_mix64(key);
        if ((rc = intern_u64(r, key, h, &q[j].key_id, err)) < 0) {
            r->off += j * ORACLE_REC_BYTES;
            return rc;
        }
    }
    r->off += n * ORACLE_REC_BYTES;
    return (int64_t)n;
}

/* ---- public API ---------------------------------------------------------
 */

/*
 * Length of a valid UTF-8 sequence at p (at most n bytes), 0 if invalid.
 * RFC 3629: no overlongs, no surrogates, nothing above U+10FFFF.
 */
static size_t utf8_len(const unsigned char *p, size_t n)
{
    size_t k;
    uint32_t cp;

    if (p[0] < 0x80)
        return 1;
    if (p[0] >= 0xc2 && p[0] <= 0xdf)
        k = 2, cp = p[0] & 0x1fu;
    else if (p[0] >= 0xe0 && p[0] <= 0xef)
        k = 3, cp = p[0] & 0x0fu;
    else if (p[0] >= 0xf0 && p[0] <= 0xf4)
        k = 4, cp = p[0] & 0x07u;
    else
        return 0;
    if (k > n)
        return 0;
    for (size_t i = 1; i < k; i++) {
        if ((p[i] & 0xc0) != 0x80)
            return 0;
        cp = cp << 6 | (p[i] & 0x3fu);
    }
    if ((k == 3 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) ||
        (k == 4 && (cp < 0x10000 || cp > 0x10ffff)))
        return 0;
    return k;
}

/*
 * A line that reads as a (possibly wrong) CSV line: UTF-8 text holding a
 * comma, without control bytes other than tab and NUL, and with fewer NULs
 * than other bytes (a stray NUL in a text line is the CSV parser's error
 * to name; a binary record is mostly NULs and bytes that are not UTF-8).
 */
static int text_csv_line(const unsigned char *p, size_t n)
{
    size_t nul = 0;
    int comma = 0;

    for (size_t i = 0, k; i < n; i += k) {
        k = 1;
        if (p[i] == '\0') {
            nul++;
            continue;
        }
        if (p[i] < 0x20 && p[i] != '\t')
            return 0;
        if ((k = utf8_len(p + i, n - i)) == 0)
            return 0;
        comma |= p[i] == ',';
    }
    return comma && nul * 2 < n;
}

/*
 * UTF-16 text: ASCII with every other byte NUL, after an optional BOM (a
 * BOM alone decides only in a file too short to tell: the first bytes of
 * a binary record may be FF FE by chance).
 */
static int utf16_text(const unsigned char *p, size_t n)
{
    size_t pairs, zero[2] = {0, 0};

    if (n >= 2 &&
        ((p[0] == 0xff && p[1] == 0xfe) || (p[0] == 0xfe && p[1] == 0xff))) {
        if (n < 10)
            return 1;
        p += 2;
        n -= 2;
    }
    pairs = n / 2 < 64 ? n / 2 : 64;
    if (pairs < 4)
        return 0;
    for (size_t i = 0; i < pairs; i++) {
        const unsigned char *q = p + 2 * i;
        for (int h = 0; h < 2; h++) {
            if (q[h] == 0)
                zero[h]++;
            else if (q[h] < 0x09 || q[h] > 0x7e || (q[h] > 0x0d && q[h] < 0x20))
                return 0; /* not ASCII text in the other half */
        }
    }
    return (zero[0] == pairs) != (zero[1] == pairs);
}

/* A path that names a CSV trace: "*.csv", any case. */
static int csv_name(const char *path)
{
    size_t n = strlen(path);

    return n >= 4 && strcasecmp(path + n - 4, ".csv") == 0;
}

/*
 * The first line that is not empty or a '#' comment, from p: its start
 * and length (without its end), and the byte that ends it ('\n', '\r' or
 * 0 at the end of the buffer). A line ends at CR as well as LF here, so a
 * file with CR-only line ends shows its first line.
 */
static const unsigned char *first_line(const unsigned char *p,
                                       const unsigned char *end, size_t *n,
                                       int *eol)
{
    while (p < end) {
        const unsigned char *q = p;
        while (q < end && *q != '\n' && *q != '\r')
            q++;
        *n = (size_t)(q - p);
        *eol = q < end ? *q : 0;
        if (*n && p[0] != '#')
            return p;
        p = q < end ? q + 1 : end;
    }
    *n = 0;
    *eol = 0;
    return NULL;
}

/*
 * Which format: oracleGeneral has no magic number (pagetune-trace(5)), so
 * text is recognised and everything else is binary. Text, read as CSV
 * (whose header line "time_ms,op,key,size" then names FILE:LINE when
 * wrong): a name ending in ".csv"; a UTF-8 byte order mark; a first line
 * (after '#' comments and empty lines) that is the header or UTF-8 text
 * with a comma, even with a stray NUL. Text the CSV reader cannot parse is
 * refused here with FILE:1: UTF-16 (a BOM, or every other byte NUL) and
 * CR-only line ends. Binary oracleGeneral records hold NULs and bytes that
 * are not UTF-8 in their first 24 bytes, so they do not read as text.
 */
static int detect(struct sim_trace_reader *r, struct pt_err *err)
{
    const unsigned char *p, *end, *line;
    size_t bom = 0, n;
    int rc, eol;

    if ((rc = refill(r, err)) < 0)
        return rc;
    r->fmt = SIM_TRACE_ORACLE;
    if (r->len == 0) /* an empty file is an empty trace, whatever its name */
        return 0;
    if (csv_name(r->path))
        r->fmt = SIM_TRACE_CSV;
    if (utf16_text(r->buf, r->len))
        return err_set(err, PT_EDATA,
                       "%s:1: UTF-16 text; a CSV trace is UTF-8 "
                       "(pagetune-trace(5))",
                       r->path);
    if (r->len >= 3 && memcmp(r->buf, "\xef\xbb\xbf", 3) == 0)
        bom = 3;
    p = r->buf + bom;
    end = r->buf + r->len;
    line = first_line(p, end, &n, &eol);
    if (line && ((n == strlen(CSV_HEADER) && !memcmp(line, CSV_HEADER, n)) ||
                 text_csv_line(line, n)))
        r->fmt = SIM_TRACE_CSV;
    if (bom) /* a BOM is text: let the header check speak */
        r->fmt = SIM_TRACE_CSV;
    if (r->fmt == SIM_TRACE_CSV && eol == '\r' && line + n + 1 < end &&
        line[n + 1] != '\n')
        return err_set(err, PT_EDATA,
                       "%s:1: lines end in CR alone; a CSV trace's lines "
                       "end in LF or CR LF (pagetune-trace(5))",
                       r->path);
    return 0;
}

int sim_trace_open(const char *path, enum sim_trace_format fmt,
                   struct sim_trace_reader **out, struct pt_err *err)
{
    struct sim_trace_reader *r;
    struct stat st;
    int rc;

    *out = NULL;
    r = pt_calloc(1, sizeof(*r));
    if (!r)
        return err_set(err, PT_EINTERNAL, "out of memory");
    r->fd = -1;
    r->path = pt_strdup(path);
    r->keybuf = pt_malloc(24);
    r->buf_cap = READ_BUF_BYTES;
    r->buf = pt_malloc(r->buf_cap);
    if (!r->path || !r->keybuf || !r->buf) {
        rc = err_set(err, PT_EINTERNAL, "out of memory");
        goto fail;
    }
    if (strcmp(path, "-") == 0) {
        r->fd = STDIN_FILENO;
    } else {
        r->fd = open(path, O_RDONLY);
        if (r->fd < 0) {
            rc = err_set(err, PT_ENOINPUT, "cannot open trace '%s': %s", path,
                         strerror(errno));
            goto fail;
        }
        r->own_fd = 1;
        if (fstat(r->fd, &st) == 0) {
            if (S_ISDIR(st.st_mode)) {
                rc = err_set(err, PT_ENOINPUT, "trace '%s' is a directory",
                             path);
                goto fail;
            }
            if (S_ISREG(st.st_mode))
                r->file_size = (uint64_t)st.st_size;
        }
    }
    r->fmt = fmt;
    if (fmt == SIM_TRACE_AUTO && (rc = detect(r, err)) < 0)
        goto fail;
    if (r->fmt == SIM_TRACE_CSV && (rc = csv_header(r, err)) < 0)
        goto fail;
    *out = r;
    return 0;
fail:
    sim_trace_close(r);
    return rc;
}

int sim_trace_next(struct sim_trace_reader *r, struct sim_req *req,
                   struct pt_err *err)
{
    return r->fmt == SIM_TRACE_CSV ? csv_next(r, req, err)
                                   : oracle_next(r, req, err);
}

int64_t sim_trace_next_batch(struct sim_trace_reader *r, struct sim_req *q,
                             size_t max, struct pt_err *err)
{
    size_t i = 0;
    int64_t got;
    int rc;

    if (r->fmt == SIM_TRACE_ORACLE && max > 0) {
        if ((got = oracle_batch(r, q, max, err)) != 0)
            return got;
        /* none in the buffer: one the careful way (refill, end, errors) */
        if ((rc = oracle_next(r, q, err)) <= 0)
            return rc;
        if ((got = oracle_batch(r, q + 1, max - 1, err)) < 0)
            return got;
        return 1 + got;
    }
    for (; i < max; i++) {
        if ((rc = csv_next(r, &q[i], err)) < 0)
            return rc;
        if (rc == 0)
            break;
    }
    return (int64_t)i;
}

enum sim_trace_format sim_trace_format_of(const struct sim_trace_reader *r)
{
    return r->fmt;
}

const char *sim_trace_key(const struct sim_trace_reader *r, uint64_t key_id,
                          size_t *len)
{
    const char *s;

    if (key_id >= r->n_keys) {
        if (len)
            *len = 0;
        return NULL;
    }
    if (r->fmt == SIM_TRACE_CSV) {
        s = r->arena + r->key_off[key_id];
    } else {
        snprintf(r->keybuf, 24, "%llu", (unsigned long long)r->key_u64[key_id]);
        s = r->keybuf;
    }
    if (len)
        *len = strlen(s);
    return s;
}

uint64_t sim_trace_n_keys(const struct sim_trace_reader *r)
{
    return r->n_keys;
}

uint64_t sim_trace_pos(const struct sim_trace_reader *r)
{
    return r->buf_base + r->off;
}

uint64_t sim_trace_size(const struct sim_trace_reader *r)
{
    return r->file_size;
}

uint64_t sim_trace_line(const struct sim_trace_reader *r)
{
    return r->line;
}

size_t sim_trace_buffer_bytes(const struct sim_trace_reader *r)
{
    return r->buf_cap;
}

int sim_trace_rewind(struct sim_trace_reader *r, struct pt_err *err)
{
    uint64_t start = r->fmt == SIM_TRACE_CSV ? r->data_start : 0;

    if (!r->own_fd)
        return err_set(err, PT_EDATA, "%s: cannot rewind a pipe", r->path);
    if (lseek(r->fd, (off_t)start, SEEK_SET) < 0)
        return err_set(err, PT_ENOINPUT, "cannot rewind '%s': %s", r->path,
                       strerror(errno));
    r->buf_base = start;
    r->off = r->len = 0;
    r->eof = 0;
    r->line = r->data_start_line;
    r->aq_head = r->aq_tail = 0;
    r->aq_stop = 0;
    return 0;
}

void sim_trace_close(struct sim_trace_reader *r)
{
    if (!r)
        return;
    if (r->own_fd && r->fd >= 0)
        close(r->fd);
    free(r->path);
    free(r->buf);
    free(r->slots);
    free(r->key_u64);
    free(r->key_off);
    free(r->arena);
    free(r->keybuf);
    free(r);
}

/* ---- writer -------------------------------------------------------------
 */

int sim_trace_write_header(FILE *fp, enum sim_trace_format fmt,
                           struct pt_err *err)
{
    if (fmt == SIM_TRACE_ORACLE)
        return 0;
    if (fputs(CSV_HEADER "\n", fp) == EOF)
        return err_set(err, PT_EIO, "cannot write trace: %s", strerror(errno));
    return 0;
}

int sim_trace_write_csv(FILE *fp, uint64_t time_ms, enum sim_op op,
                        const char *key, size_t key_len, uint32_t size_bytes,
                        struct pt_err *err)
{
    static const char *const names[] = {"get", "set", "del"};
    size_t i;

    if (key_len == 0 || key[0] == '#')
        return err_set(err, PT_EDATA,
                       "trace key '%.*s' is empty or starts "
                       "with '#'",
                       (int)key_len, key);
    for (i = 0; i < key_len; i++)
        if (key[i] == ',' || key[i] == '\n' || key[i] == '\r')
            return err_set(err, PT_EDATA,
                           "trace key '%.*s' contains a comma or newline",
                           (int)key_len, key);
    if ((unsigned)op > SIM_DEL)
        return err_set(err, PT_EINTERNAL, "bad trace op %d", (int)op);
    if (fprintf(fp, "%llu,%s,%.*s,%lu\n", (unsigned long long)time_ms,
                names[op], (int)key_len, key, (unsigned long)size_bytes) < 0)
        return err_set(err, PT_EIO, "cannot write trace: %s", strerror(errno));
    return 0;
}

int sim_trace_write_oracle(FILE *fp, uint32_t time_s, uint64_t obj_id,
                           uint32_t size_bytes, int64_t next_access_vtime,
                           struct pt_err *err)
{
    unsigned char rec[ORACLE_REC_BYTES];
    uint64_t nx = (uint64_t)next_access_vtime;
    int i;

    for (i = 0; i < 4; i++) {
        rec[i] = (unsigned char)(time_s >> (8 * i));
        rec[12 + i] = (unsigned char)(size_bytes >> (8 * i));
    }
    for (i = 0; i < 8; i++) {
        rec[4 + i] = (unsigned char)(obj_id >> (8 * i));
        rec[16 + i] = (unsigned char)(nx >> (8 * i));
    }
    if (fwrite(rec, 1, sizeof(rec), fp) != sizeof(rec))
        return err_set(err, PT_EIO, "cannot write trace: %s", strerror(errno));
    return 0;
}

int sim_trace_evidence(const char *path, struct rec_trace_evidence *t,
                       pt_progress_fn *progress, void *ctx, struct pt_err *err)
{
    static const enum rec_trace_op ops[] = {
        [SIM_GET] = REC_TRACE_GET,
        [SIM_SET] = REC_TRACE_SET,
        [SIM_DEL] = REC_TRACE_DEL,
    };
    struct sim_trace_reader *r = NULL;
    struct sim_req q;
    int rc;

    memset(t, 0, sizeof(*t));
    if ((rc = sim_trace_open(path, SIM_TRACE_AUTO, &r, err)) < 0)
        return rc;
    while ((rc = sim_trace_next(r, &q, err)) == 1) {
        if ((rc = rec_trace_evidence_add(t, q.key_id, q.size_bytes, ops[q.op],
                                         err)) < 0)
            break;
        if ((t->requests & 0xffff) != 0)
            continue;
        if (progress)
            progress(ctx, sim_trace_pos(r), sim_trace_size(r));
        if ((rc = pt_interrupt_check(err)) < 0)
            break;
    }
    sim_trace_close(r);
    if (rc == 0 && t->n_keys == 0)
        rc = err_set(err, PT_EDATA, "%s: the trace has no requests", path);
    return rc;
}
