/* SPDX-License-Identifier: Apache-2.0 */
/*
 * advice.c — the recommendation in each engine's own vocabulary. The cost
 * model (recommend.c) answers "which page size, how much pool memory, what
 * stays in the row" for every engine alike; this file turns that answer
 * into the settings a DBA of that engine changes, with the reasons and the
 * caveats that engine's documentation gives (sources are cited in
 * profiles/engines/<name>.yaml and in pagetune-recommend(1)):
 *
 *   postgresql  toast_tuple_target, column STORAGE, shared_buffers (BLCKSZ
 *               is fixed at compile time, so the page size never changes)
 *   mysql       innodb_page_size (a new instance), ROW_FORMAT=DYNAMIC,
 *               innodb_buffer_pool_size
 *   oracle      a tablespace with BLOCKSIZE, DB_nK_CACHE_SIZE, LOB
 *               ENABLE STORAGE IN ROW and CACHE
 *   sqlite      PRAGMA page_size (+ VACUUM), PRAGMA cache_size
 *
 * Settings become template variables of ddl_templates/<engine>/ (the
 * dialect.yaml there declares their types and ranges). Pure: no I/O.
 * Neighbours: recommend.c (calls rec_engine_advice), ddl/ (renders).
 */
#include "recommend/internal.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

/* Add a setting in the engine's vocabulary: a word, or a number as text. */
static void set_word_as(struct rec_result *r, const char *name, const char *v,
                        int is_number)
{
    struct rec_setting *s;

    if (r->n_settings >= REC_MAX_SETTINGS)
        return;
    s = &r->settings[r->n_settings++];
    snprintf(s->name, sizeof(s->name), "%s", name);
    snprintf(s->value, sizeof(s->value), "%s", v);
    s->is_number = is_number;
}

static void set_word(struct rec_result *r, const char *name, const char *v)
{
    set_word_as(r, name, v, 0);
}

static void set_num(struct rec_result *r, const char *name, uint64_t v)
{
    char buf[24];

    snprintf(buf, sizeof(buf), "%llu", (unsigned long long)v);
    set_word_as(r, name, buf, 1);
}

/* The monitored configuration, if it is this engine's. */
static const struct rec_monitor *
same_engine_monitor(const struct rec_inputs *in)
{
    const struct rec_monitor *m = in->monitor;

    if (!m || !m->present || m->page_size_bytes == 0)
        return NULL;
    if (m->engine[0] && strcmp(m->engine, in->engine->name) != 0)
        return NULL;
    return m;
}

/*
 * The pool the settings ask for: the budget given with --memory; without
 * it, the pool in use (read from the server, monitored, or the engine's
 * default) stays — the model's default budget is for comparing page
 * sizes, not a size to set.
 */
static uint64_t pool_setting(struct rec_result *r, const struct rec_inputs *in)
{
    uint64_t now = rec_state_pool_bytes(r, in->engine, 0);

    r->pool_kept = 0;
    r->pool_setting_bytes = r->memory_bytes;
    if (!in->memory_given && now) {
        r->pool_kept = 1;
        r->pool_setting_bytes = now;
    }
    /* above the engine's share of the host's memory: capped (recommend.c
       host_limit, docs/models.md "Host memory") */
    if (r->host_limit_bytes && r->pool_setting_bytes > r->host_limit_bytes) {
        if (!r->host_capped) {
            r->host_capped = 1;
            r->host_asked_bytes = r->pool_setting_bytes;
        }
        r->pool_kept = 0;
        r->pool_setting_bytes = r->host_limit_bytes;
    }
    return r->pool_setting_bytes;
}

static const char *source_of(const struct rec_result *r, const char *knob)
{
    const struct rec_knob *k = rec_state_get(&r->current, knob);
    return k && k->source == REC_SOURCE_SERVER ? "read from the server"
                                               : "the default";
}

/*
 * PostgreSQL column STORAGE. Incompressible objects (stored / raw >=
 * REC_INCOMPRESSIBLE_RATIO) keep or get EXTERNAL: EXTENDED would only
 * spend CPU on pglz attempts that save nothing (PostgreSQL docs,
 * "TOAST"). Objects near the page with a maxed target get MAIN. Measured
 * compressible objects under EXTERNAL get EXTENDED, saying why; without a
 * measurement the storage in use stays.
 */
static const char *choose_storage(struct rec_result *r,
                                  const struct rec_inputs *in, int maxed)
{
    const struct rec_knob *k = rec_state_get(&r->current, "storage");
    const char *now = k && k->is_set && !k->is_number ? k->word : "EXTENDED";
    double cr = in->compress_ratio;

    /* the pglz trial, where there is one: the server's stored sizes say
       nothing of values in rows it never toasted (issue 23) */
    if (in->pg && in->pg->ratio_measured)
        cr = in->pg->ratio > 0 ? in->pg->ratio : 1.0;
    else if (in->pg)
        cr = 0;

    if (cr >= REC_INCOMPRESSIBLE_RATIO) {
        r->storage_reason = "the objects are incompressible";
        return "EXTERNAL";
    }
    if (maxed) {
        r->storage_reason = "the objects need nearly the whole page";
        return "MAIN";
    }
    if (cr > 0 && strcasecmp(now, "EXTERNAL") == 0) {
        r->storage_reason = "the objects compress";
        return "EXTENDED";
    }
    r->storage_reason = cr > 0 ? "the storage in use suits compressible objects"
                               : "no compression ratio was measured: the "
                                 "storage in use stays";
    if (strcasecmp(now, "PLAIN") == 0)
        return "PLAIN";
    if (strcasecmp(now, "MAIN") == 0)
        return "MAIN";
    if (strcasecmp(now, "EXTERNAL") == 0)
        return "EXTERNAL";
    return "EXTENDED";
}

static double outline_share(const struct rec_engine *e,
                            const struct rec_candidate *c)
{
    double s = 0;
    for (size_t k = 0; k < e->n_outline; k++)
        s += c->outline_fraction[k];
    return s;
}

/* the generic first reason speaks of page sizes; PostgreSQL has one */
static void pg_first_reason(struct rec_result *r, const struct rec_inputs *in,
                            uint32_t value)
{
    const struct rec_inline_knob *k = &in->engine->knob;
    const struct rec_candidate *ch = &r->cand[r->chosen_idx];

    if (r->n_reasons > 0 && k->present)
        snprintf(r->reasons[0], REC_REASON_LEN,
                 "keep %uK pages (BLCKSZ, the only page size) and %s: with "
                 "%s %u, %.1f%% of the objects stay in the row (at the "
                 "%s %u: %.1f%%; target %.1f%%)",
                 ch->page_size_bytes / 1024,
                 r->knob_pays          ? "raise toast_tuple_target"
                 : r->knob_current_set ? "the table's toast_tuple_target"
                                       : "the default toast_tuple_target",
                 k->name, r->knob_pays ? r->knob_value : value,
                 100 * (r->knob_pays ? r->tuned.inline_fraction
                                     : r->knob_base.inline_fraction),
                 r->knob_current_set ? "current" : "default", value,
                 100 * r->knob_base.inline_fraction, 100 * r->inline_target);
}

/* explain toast_tuple_target; returns the value to set (value unless raised) */
static uint32_t pg_toast_reasons(struct rec_result *r,
                                 const struct rec_inputs *in, uint32_t value)
{
    const struct rec_engine *e = in->engine;
    const struct rec_inline_knob *k = &e->knob;
    const struct rec_candidate *ch = &r->cand[r->chosen_idx];
    const struct rec_candidate *t = &r->tuned;

    if (!k->present)
        return value; /* a profile without the knob: report the default only */
    if (!r->knob_evaluated) {
        rec_reason(
            r,
            "TOAST: at the %s %s %u (%s), objects up to %u bytes stay in "
            "the row: %.1f%% of them (target %.1f%%), so no TOAST change "
            "is needed",
            r->knob_current_set ? "current" : "default", k->name, value,
            source_of(r, k->name), r->knob_base.inline_limit_bytes,
            100 * r->knob_base.inline_fraction, 100 * r->inline_target);
        return value;
    }
    rec_reason(r,
               "TOAST: at the default %s %u objects up to %u bytes stay in the "
               "row (%.1f%% inline, %.2f rows/page, %.2f buffered reads per "
               "access: the heap page, %u TOAST index pages and the chunk "
               "pages of TOASTed objects, io %.4f ms); at %s %u objects up to "
               "%u bytes stay in the row (%.1f%% inline, %.2f rows/page, %.2f "
               "buffered reads per access, hit ratio %.1f%%, io %.4f ms)",
               k->name, k->default_value, ch->inline_limit_bytes,
               100 * ch->inline_fraction, ch->rows_per_page, ch->buffered_reads,
               e->outline_extra_reads, ch->io_ms, k->name, r->knob_value,
               r->knob_inline_limit, 100 * t->inline_fraction, t->rows_per_page,
               t->buffered_reads, 100 * t->hit_ratio, t->io_ms);
    if (r->knob_pays) {
        value = r->knob_value;
        rec_reason(
            r,
            "set %s = %u on the table: the hot objects stay in the heap "
            "row and are read with one buffered page read instead of "
            "heap + TOAST index + chunks. It applies to new row versions "
            "only: rewrite the table (VACUUM FULL, which takes an ACCESS "
            "EXCLUSIVE lock) to move existing rows back in line",
            k->name, value);
        return value;
    }
    /* the storage rule is the reason only when the I/O rule passed: a
       tuned table whose I/O rises is kept for that (the text below) */
    if (r->knob_growth > 1e-9 && in->pg &&
        rec_change_pays(e, REC_TIER_REBUILD, r->knob_base.io_ms, r->tuned.io_ms,
                        r->knob_base.buffered_reads, r->tuned.buffered_reads,
                        NULL, NULL)) {
        char a[32], b[32];
        double s = (double)r->sessions;
        rec_reason(
            r,
            "keep %s at %u (%s): %u would grow the table from %s to %s "
            "(heap + TOAST, %+.0f%%) for %.2f -> %.2f buffered reads per "
            "access: a change that grows storage must save a larger share "
            "of reads than it adds bytes. PostgreSQL compresses a value "
            "only to bring its row under the target, so under a higher "
            "one the values stay uncompressed (heaptoast.c)",
            k->name, value, source_of(r, k->name), r->knob_value,
            pt_size_format((uint64_t)rec_candidate_bytes(&r->knob_base, s), a,
                           sizeof(a)),
            pt_size_format((uint64_t)rec_candidate_bytes(&r->tuned, s), b,
                           sizeof(b)),
            100 * r->knob_growth, r->knob_base.buffered_reads,
            r->tuned.buffered_reads);
        return value;
    }
    if (!rec_io_no_worse(r->knob_base.io_ms, r->tuned.io_ms) &&
        r->tuned.buffered_reads < r->knob_base.buffered_reads) {
        rec_reason(r,
                   "keep %s at %u (%s): %u would raise the I/O per access "
                   "(%.4f -> %.4f ms) although the buffered reads fall "
                   "(%.2f -> %.2f): the larger rows leave fewer rows per "
                   "page (%.2f) and the pool holds less of the table (hit "
                   "ratio %.1f%%); fewer buffered reads justify a rewrite "
                   "only when the I/O does not rise",
                   k->name, value, source_of(r, k->name), r->knob_value,
                   r->knob_base.io_ms, r->tuned.io_ms,
                   r->knob_base.buffered_reads, r->tuned.buffered_reads,
                   r->tuned.rows_per_page, 100 * r->tuned.hit_ratio);
        return value;
    }
    rec_reason(r,
               "keep %s at %u (%s): %u would not gain the %.0f%% a table "
               "rewrite needs (I/O per access %.4f -> %.4f ms, buffered "
               "reads %.2f -> %.2f; the larger rows leave fewer rows per "
               "page and the pool holds less of the table)",
               k->name, value, source_of(r, k->name), r->knob_value,
               100 * rec_tier_threshold(e, REC_TIER_REBUILD),
               r->knob_base.io_ms, r->tuned.io_ms, r->knob_base.buffered_reads,
               r->tuned.buffered_reads);
    return value;
}

/* choose the column STORAGE and say why; returns the storage word */
static const char *pg_storage_reason(struct rec_result *r,
                                     const struct rec_inputs *in)
{
    const struct rec_inline_knob *k = &in->engine->knob;
    const char *storage =
        choose_storage(r, in, r->knob_pays && r->knob_value >= k->max);

    if (strcmp(storage, "EXTERNAL") == 0 && in->pg && in->pg->ratio_measured) {
        rec_reason(
            r,
            "column STORAGE EXTERNAL (now %s, %s): %s (pglz, tried on "
            "sampled values in the client, saves less than its 25%%), so "
            "compression attempts would cost CPU and save nothing; EXTERNAL "
            "stores them uncompressed, out of line when the row exceeds %s: "
            "the same bytes and reads",
            rec_state_get(&r->current, "storage")->word,
            source_of(r, "storage"), r->storage_reason,
            k->present ? k->name : "toast_tuple_target");
    } else if (strcmp(storage, "EXTERNAL") == 0 && in->compress_ratio > 0) {
        rec_reason(
            r,
            "column STORAGE EXTERNAL (now %s, %s): %s (stored / raw bytes "
            "%.3f >= %.2f), so compression attempts would cost CPU and save "
            "nothing; EXTERNAL stores them uncompressed, out of line when "
            "the row exceeds %s",
            rec_state_get(&r->current, "storage")->word,
            source_of(r, "storage"), r->storage_reason, in->compress_ratio,
            REC_INCOMPRESSIBLE_RATIO,
            k->present ? k->name : "toast_tuple_target");
    } else if (strcmp(storage, "MAIN") == 0 && r->knob_pays &&
               r->knob_value >= k->max) {
        rec_reason(
            r,
            "column STORAGE MAIN: the objects need nearly the whole page, so "
            "let PostgreSQL compress them in line first and move a value out "
            "only when the row cannot fit a page (EXTENDED, the bytea "
            "default, moves it out as soon as the row exceeds %s)",
            k->name);
    } else if (strcmp(storage, "EXTENDED") != 0) {
        rec_reason(r,
                   "column STORAGE %s, as it is now (%s): %s; a change "
                   "needs a reason (a measured compression ratio)",
                   storage, source_of(r, "storage"), r->storage_reason);
    } else {
        rec_reason(
            r,
            "column STORAGE EXTENDED (the bytea default): compress, then move "
            "out of line when the row exceeds %s; MAIN would keep every "
            "object up to about %u bytes in the row, EXTERNAL would never "
            "compress",
            k->present ? k->name : "toast_tuple_target",
            k->present ? k->max - k->offset_bytes : 8000);
    }
    return storage;
}

/* explain the shared_buffers size for the table's hot pages */
static void pg_pool_reasons(struct rec_result *r, const struct rec_inputs *in,
                            uint64_t pool)
{
    const struct rec_candidate *ch = &r->cand[r->chosen_idx];
    const struct rec_monitor *m = same_engine_monitor(in);
    char mem[32], cur[32];

    pt_size_format(pool, mem, sizeof(mem));
    if (r->pool_kept)
        rec_reason(r,
                   "shared_buffers stays %s (%s): without `memory` or a "
                   "monitored pool pagetune does not invent a size; the "
                   "model compared page sizes at %s",
                   mem, source_of(r, "shared_buffers"),
                   pt_size_format(r->memory_bytes, cur, sizeof(cur)));
    rec_reason(
        r,
        "shared_buffers = %s (%llu pages of %u bytes) for the table's hot "
        "pages; TOAST chunks are cached there too%s%s. Takes effect after a "
        "server restart",
        mem, (unsigned long long)(pool / ch->page_size_bytes),
        ch->page_size_bytes, m && m->bufferpool_pages ? "; now " : "",
        m && m->bufferpool_pages
            ? pt_size_format(m->bufferpool_pages * m->page_size_bytes, cur,
                             sizeof(cur))
            : "");
}

static void advise_postgresql(struct rec_result *r, const struct rec_inputs *in)
{
    const struct rec_inline_knob *k = &in->engine->knob;
    uint32_t value = !k->present           ? 2032
                     : r->knob_current_set ? r->knob_current
                                           : k->default_value;
    const char *storage;
    uint64_t pool = pool_setting(r, in);

    pg_first_reason(r, in, value);
    rec_reason(r,
               "PostgreSQL: the page size is BLCKSZ, fixed when the server is "
               "compiled (%u bytes); the advice changes what stays in the row "
               "(TOAST) and the size of shared_buffers instead",
               r->cand[r->chosen_idx].page_size_bytes);
    value = pg_toast_reasons(r, in, value);
    storage = pg_storage_reason(r, in);
    pg_pool_reasons(r, in, pool);
    set_num(r, "toast_tuple_target", value);
    set_word(r, "storage", storage);
    set_num(r, "shared_buffers_kb", pool / 1024);
    set_word(r, "rewrite", r->knob_pays ? "yes" : "no");
}

/*
 * The ROW_FORMAT to set: DYNAMIC, unless the table has COMPACT or
 * REDUNDANT now (read from the server) and the rebuild to DYNAMIC does
 * not pay (recommend.c eval_row_format, rec_change_pays at the rebuild
 * tier): then the format in use stays, and the reason says why.
 */
static void my_row_format(struct rec_result *r, const struct rec_engine *e,
                          const struct rec_knob *krf, char *out, size_t len)
{
    const struct rec_candidate *ch = &r->cand[r->chosen_idx];
    const struct rec_candidate *b = &r->rowfmt_base;
    double thr = 100 * rec_tier_threshold(e, REC_TIER_REBUILD);
    struct rec_knob eff;

    snprintf(out, len, "DYNAMIC");
    if (!r->rowfmt_evaluated) {
        if (krf && krf->is_set && !krf->is_number &&
            strcasecmp(krf->word, "DYNAMIC") != 0)
            rec_reason(r,
                       "ROW_FORMAT is %s now (%s): ALTER TABLE ... "
                       "ROW_FORMAT=DYNAMIC rebuilds the table (online, "
                       "ALGORITHM=INPLACE) so that long objects go off-page "
                       "whole",
                       krf->word, source_of(r, "row_format"));
        return;
    }
    if (rec_state_knob_effective(&r->current, e->name, krf, &eff) < 0)
        return; /* eval_row_format read it: not reached */
    if (r->rowfmt_pays) {
        rec_reason(r,
                   "ROW_FORMAT is %s now (read from the server): ALTER TABLE "
                   "... ROW_FORMAT=DYNAMIC rebuilds the table (online, "
                   "ALGORITHM=INPLACE) so that long objects go off-page "
                   "whole: I/O per access %.4f -> %.4f ms (gain %.1f%%), "
                   "buffered reads %.2f -> %.2f (gain %.1f%%), %.2f -> %.2f "
                   "rows/page; a rebuild needs at least %.0f%%",
                   eff.word, b->io_ms, ch->io_ms, 100 * r->rowfmt_gain_io,
                   b->buffered_reads, ch->buffered_reads,
                   100 * r->rowfmt_gain_reads, b->rows_per_page,
                   ch->rows_per_page, thr);
        return;
    }
    rec_reason(r,
               "keep ROW_FORMAT=%s (read from the server), no rebuild: "
               "DYNAMIC differs only for objects stored off-page (%s keeps "
               "a 768-byte prefix of each in the row); %.1f%% of the "
               "objects stay in the row and the modelled gain is I/O per "
               "access %.4f -> %.4f ms (%.1f%%), buffered reads %.2f -> "
               "%.2f (%.1f%%), below the %.0f%% a table rebuild needs "
               "(change_thresholds in the mysql profile)",
               eff.word, eff.word, 100 * ch->inline_fraction, b->io_ms,
               ch->io_ms, 100 * r->rowfmt_gain_io, b->buffered_reads,
               ch->buffered_reads, 100 * r->rowfmt_gain_reads, thr);
    snprintf(out, len, "%s", eff.word);
}

static void advise_mysql(struct rec_result *r, const struct rec_inputs *in)
{
    const struct rec_engine *e = in->engine;
    const struct rec_candidate *ch = &r->cand[r->chosen_idx];
    const struct rec_knob *kps = rec_state_get(&r->current, "page_size");
    const struct rec_knob *krf = rec_state_get(&r->current, "row_format");
    int measured = kps && kps->source == REC_SOURCE_SERVER;
    uint64_t prev = rec_state_pool_bytes(r, e, 0);
    uint64_t pool = pool_setting(r, in);
    uint32_t cur_ps = kps && kps->is_set && kps->is_number && kps->num > 0
                          ? (uint32_t)kps->num
                          : e->current_page_bytes;
    char row_format[REC_KNOB_WORD_LEN], mem[32], ps[32], cps[32];

    pt_size_format(ch->page_size_bytes, ps, sizeof(ps));
    pt_size_format(cur_ps, cps, sizeof(cps));
    /* flag-ok: mysqld's own flags, not ours */
    if (cur_ps && cur_ps != ch->page_size_bytes)
        rec_reason(
            r,
            "innodb_page_size = %s (now %s%s): the page size of an InnoDB "
            "instance is fixed when it is created, so this needs a NEW "
            "instance (mariadb-install-db / mysqld --initialize with "
            "--innodb-page-size=%s) and a dump and reload of the data; "
            "create.sql only records it",
            ps, cps, measured ? ", read from the server" : ", the default", ps);
    else
        rec_reason(
            r,
            "innodb_page_size = %s, the page size in use%s: no new instance "
            "is needed",
            ps, measured ? " (read from the server)" : " by default");
    rec_reason(
        r,
        "ROW_FORMAT=DYNAMIC: when a row exceeds about half a page InnoDB "
        "stores its longest columns entirely off-page with a 20-byte pointer "
        "(COMPACT and REDUNDANT keep a 768-byte prefix in the row); at %s "
        "%.1f%% of the objects stay in the row, the rest cost %.2f buffered "
        "off-page reads per access",
        ps, 100 * ch->inline_fraction, ch->outline_reads);
    my_row_format(r, e, krf, row_format, sizeof(row_format));
    pt_size_format(pool, mem, sizeof(mem));
    if (r->pool_kept)
        rec_reason(r,
                   "innodb_buffer_pool_size stays %s (%s): without `memory` "
                   "or a monitored pool pagetune does not invent a size",
                   mem, source_of(r, "innodb_buffer_pool_size"));
    rec_reason(
        r,
        "innodb_buffer_pool_size = %s (%llu pages of %s; off-page BLOB pages "
        "are cached there too): dynamic with SET GLOBAL since MariaDB 10.2 / "
        "MySQL 5.7.5, rounded by the server to a multiple of "
        "innodb_buffer_pool_chunk_size x innodb_buffer_pool_instances; put "
        "it in the server's option file to keep it after a restart",
        mem, (unsigned long long)ch->bufferpool_pages, ps);
    set_num(r, "innodb_page_size", ch->page_size_bytes);
    set_num(r, "current_page_size", cur_ps ? cur_ps : ch->page_size_bytes);
    set_word(r, "new_instance",
             cur_ps && cur_ps != ch->page_size_bytes ? "yes" : "no");
    set_word(r, "row_format", row_format);
    set_num(r, "innodb_buffer_pool_size", pool);
    set_num(r, "previous_innodb_buffer_pool_size", prev ? prev : 134217728ULL);
}

static void advise_oracle(struct rec_result *r, const struct rec_inputs *in)
{
    const struct rec_engine *e = in->engine;
    const struct rec_candidate *ch = &r->cand[r->chosen_idx];
    uint32_t std = e->current_page_bytes ? e->current_page_bytes : 8192;
    uint32_t k = ch->page_size_bytes / 1024;
    double out = outline_share(e, ch);
    char param[40], mem[32];

    if (ch->page_size_bytes == std)
        snprintf(param, sizeof(param), "DB_CACHE_SIZE");
    else
        snprintf(param, sizeof(param), "DB_%uK_CACHE_SIZE", k);
    pt_size_format(r->memory_bytes, mem, sizeof(mem));
    rec_reason(r,
               "Oracle: table space %s with BLOCKSIZE %uK; %s = %s must be set "
               "before it is created (a non-standard block size needs its own "
               "buffer cache; the standard DB_BLOCK_SIZE is assumed to be %uK, "
               "for which DB_CACHE_SIZE sizes the cache)",
               r->tablespace_name, k, param, mem, std / 1024);
    rec_reason(
        r,
        "LOB ENABLE STORAGE IN ROW: objects up to %u bytes (LOB data plus "
        "its locator within about 4000 bytes) stay in the row: %.1f%% at "
        "%uK; the rest (%.1f%%) go out of row",
        ch->inline_limit_bytes, 100 * ch->inline_fraction, k, 100 * out);
    if (out > 0)
        rec_reason(
            r,
            "LOB CACHE: out-of-row LOBs are NOCACHE by default, so each read "
            "is a direct read (%.3f per access in the model, %.4f ms); CACHE "
            "reads them through the buffer cache instead",
            ch->direct_reads, ch->direct_ms);
    rec_reason(r,
               "the Oracle DDL follows Oracle's documented syntax but was not "
               "run against an Oracle database");
    set_num(r, "block_size_k", k);
    set_word(r, "cache_parameter", param);
    set_num(r, "cache_size_mb", (r->memory_bytes + (1 << 20) - 1) >> 20);
    set_word(r, "lob_cache", out > 0 ? "CACHE" : "NOCACHE");
}

static void advise_sqlite(struct rec_result *r, const struct rec_inputs *in)
{
    const struct rec_engine *e = in->engine;
    const struct rec_candidate *ch = &r->cand[r->chosen_idx];
    const struct rec_knob *kps = rec_state_get(&r->current, "page_size");
    int measured = kps && kps->source == REC_SOURCE_SERVER;
    uint32_t cur = kps && kps->is_set && kps->is_number && kps->num > 0
                       ? (uint32_t)kps->num
                       : e->current_page_bytes;
    uint64_t pool = pool_setting(r, in);
    char mem[32];

    if (!cur)
        cur = 4096;
    pt_size_format(pool, mem, sizeof(mem));
    rec_reason(
        r,
        "SQLite: PRAGMA page_size = %u, then VACUUM: the new size takes "
        "effect only when the database file is rebuilt (not possible in WAL "
        "mode: switch journal_mode to DELETE first); the page size now is "
        "%u%s",
        ch->page_size_bytes, cur,
        measured ? " (read from the database)" : " (default)");
    rec_reason(
        r,
        "at %u bytes a table b-tree leaf keeps a payload of up to U - 35 "
        "bytes; %.1f%% of the objects fit, the rest spill to overflow "
        "pages (%.2f overflow page reads per access, through the page "
        "cache)",
        ch->page_size_bytes, 100 * ch->inline_fraction, ch->outline_reads);
    rec_reason(
        r,
        "PRAGMA cache_size = -%llu (%s of page cache, %llu pages): the "
        "setting lasts for one connection, so the application issues it on "
        "every connection it opens",
        (unsigned long long)(pool / 1024), mem,
        (unsigned long long)(pool / ch->page_size_bytes));
    set_num(r, "page_size", ch->page_size_bytes);
    set_num(r, "previous_page_size", cur);
    set_num(r, "cache_size_kib", pool / 1024 ? pool / 1024 : 1);
}

void rec_engine_advice(struct rec_result *r, const struct rec_inputs *in)
{
    const char *name = in->engine->name;

    if (strcmp(name, "postgresql") == 0)
        advise_postgresql(r, in);
    else if (strcmp(name, "mysql") == 0)
        advise_mysql(r, in);
    else if (strcmp(name, "oracle") == 0)
        advise_oracle(r, in);
    else if (strcmp(name, "sqlite") == 0)
        advise_sqlite(r, in);
}
