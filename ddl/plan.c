/* SPDX-License-Identifier: Apache-2.0 */
/*
 * plan.c — from a recommendation (or explicit values) to the text of
 * create.sql and rollback.sql: finds a dialect in the data directory,
 * resolves every parameter (explicit value, else the recommendation's,
 * else the default), checks the dialect's ranges (IBM: CREATE BUFFERPOOL,
 * CREATE TABLESPACE) and identifier rules, sets the template variables and
 * renders both templates in memory. See ddl.h for the contract.
 *
 * Neighbours: ddl.c (dialect rules, variables, renderer), model/ (the
 * recommendation as struct rec_doc, default names, TRANSFERRATE, the pool
 * minimum), cli/cmd_ddl.c (options in, files out).
 */
#include "ddl/ddl.h"

#include "model/model.h"

#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

/* ---- dialects in the data directory -------------------------------------
 */

void ddl_dialect_list(char *buf, size_t len)
{
    char dir[4096];
    DIR *d;
    struct dirent *de;
    size_t off = 0;

    buf[0] = '\0';
    snprintf(dir, sizeof(dir), "%s/ddl_templates", pt_data_dir());
    d = opendir(dir);
    if (!d)
        return;
    while ((de = readdir(d)) != NULL) {
        char f[4400];
        struct stat st;
        if (de->d_name[0] == '.')
            continue;
        snprintf(f, sizeof(f), "%s/%s/dialect.yaml", dir, de->d_name);
        if (stat(f, &st) == 0 && off < len) {
            int n = snprintf(buf + off, len - off, "%s%s", off ? ", " : "",
                             de->d_name);
            off += n > 0 ? (size_t)n : 0;
        }
    }
    closedir(d);
}

int ddl_dialect_name_valid(const char *s)
{
    if (!*s || strlen(s) > 31)
        return 0;
    for (; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') ||
              *s == '_' || *s == '-'))
            return 0;
    return 1;
}

int ddl_dialect_load(struct ddl_dialect *d, const char *name, char *dir,
                     size_t dir_len, struct pt_err *err)
{
    char path[4400], known[512];
    json_t *doc = NULL;
    struct stat st;
    int rc;

    ddl_dialect_list(known, sizeof(known));
    snprintf(dir, dir_len, "%s/ddl_templates/%s", pt_data_dir(), name);
    snprintf(path, sizeof(path), "%s/dialect.yaml", dir);
    if (!ddl_dialect_name_valid(name) || stat(path, &st) != 0) {
        char shown[48], lower[32];
        size_t n = 0, k = 0;

        /* the value as given, printable and short (it is user input) */
        for (const char *q = name; *q && n < sizeof(shown) - 4; q++)
            shown[n++] = (unsigned char)*q >= 0x20 && *q != 0x7f ? *q : '?';
        if (strlen(name) > n)
            shown[n++] = '.', shown[n++] = '.', shown[n++] = '.';
        shown[n] = '\0';
        if (strchr(name, '/'))
            return err_set(err, PT_EUSAGE,
                           "`dialect`: unknown dialect '?' (a path is not a "
                           "dialect name; known: %s)",
                           known[0] ? known : "none found in data directory");
        /* names are lowercase directory names: suggest the folded one */
        for (; name[k] && k < sizeof(lower) - 1; k++)
            lower[k] = (char)tolower((unsigned char)name[k]);
        lower[k] = '\0';
        snprintf(path, sizeof(path), "%s/ddl_templates/%s/dialect.yaml",
                 pt_data_dir(), lower);
        if (!name[k] && strcmp(lower, name) != 0 &&
            ddl_dialect_name_valid(lower) && stat(path, &st) == 0)
            return err_set(err, PT_EUSAGE,
                           "`dialect`: unknown dialect '%s' (names are "
                           "lowercase: did you mean '%s'? known: %s)",
                           shown, lower, known);
        return err_set(err, PT_EUSAGE,
                       "`dialect`: unknown dialect '%s' "
                       "(known: %s)",
                       shown,
                       known[0] ? known : "none found in data directory");
    }
    if ((rc = prof_load(path, &doc, err)) < 0)
        return rc;
    rc = ddl_dialect_from_json(d, doc, path, err);
    json_decref(doc);
    return rc;
}

/* ---- parameters ------------------------------------------------------------
 */

/* Explicit value, else the recommendation's, else the default. */
static int resolve_values(struct ddl_plan *p, const struct ddl_dialect *d,
                          const struct rec_doc *rec,
                          const struct ddl_overrides *o, struct pt_err *err)
{
    uint64_t rec_page = 0;
    int have_transfer = 0;

    p->prefetch_automatic = 1;
    p->bufferpool_pages = REC_POOL_MIN_PAGES; /* DB2's default SIZE */
    p->extent_size = DDL_DEFAULT_EXTENT_PAGES;
    p->overhead_ms = d->default_overhead_ms;
    if (rec) {
        p->page_size_bytes = rec_page = rec->page_size_bytes;
        p->bufferpool_pages = rec->bufferpool_pages;
        p->extent_size = rec->extent_size;
        p->overhead_ms = rec->overhead_ms;
        p->transfer_rate_ms = rec->transfer_rate_ms;
        p->prefetch_automatic = rec->prefetch_automatic;
        p->prefetch_size = rec->prefetch_size;
        have_transfer = 1;
    }
    if (o->has_page_size)
        p->page_size_bytes = o->page_size_bytes;
    if (!p->page_size_bytes)
        return err_set(err, PT_EUSAGE,
                       "`page_size` or `recommendation` is required");
    if (o->has_bufferpool_pages)
        p->bufferpool_pages = o->bufferpool_pages;
    if (o->has_extent_size)
        p->extent_size = o->extent_size;
    if (o->has_prefetch) {
        p->prefetch_automatic = o->prefetch_automatic;
        if (!o->prefetch_automatic)
            p->prefetch_size = o->prefetch_size;
    }
    if (o->has_overhead)
        p->overhead_ms = o->overhead_ms;
    if (o->has_transfer_rate) {
        p->transfer_rate_ms = o->transfer_rate_ms;
    } else if (have_transfer && p->transfer_rate_ms >= 0 && rec_page &&
               rec_page != p->page_size_bytes) {
        /* same device, other page size: TRANSFERRATE follows the page */
        p->transfer_rate_ms =
            p->transfer_rate_ms * (double)p->page_size_bytes / (double)rec_page;
    } else if (!have_transfer || p->transfer_rate_ms < 0) {
        p->transfer_rate_ms =
            rec_transfer_ms(d->default_read_rate_mb_s, p->page_size_bytes);
    }
    return 0;
}

/* Ranges of the dialect (IBM: CREATE BUFFERPOOL / CREATE TABLESPACE). */
static int check_ranges(const struct ddl_plan *p, const struct ddl_dialect *d,
                        struct pt_err *err)
{
    if (p->page_size_bytes > UINT32_MAX ||
        !ddl_dialect_has_page(d, (uint32_t)p->page_size_bytes))
        return err_set(err, PT_EDATA, "page size %llu is not a %s page size",
                       (unsigned long long)p->page_size_bytes, d->name);
    if (d->has_pool && (p->bufferpool_pages < d->pool_min ||
                        p->bufferpool_pages > d->pool_max))
        return err_set(
            err, PT_EDATA, "buffer-pool size %llu pages is outside %llu..%llu",
            (unsigned long long)p->bufferpool_pages,
            (unsigned long long)d->pool_min, (unsigned long long)d->pool_max);
    if (d->has_extent &&
        (p->extent_size < d->extent_min || p->extent_size > d->extent_max))
        return err_set(err, PT_EDATA, "EXTENTSIZE %llu is outside %u..%u",
                       (unsigned long long)p->extent_size, d->extent_min,
                       d->extent_max);
    if (d->has_prefetch && p->prefetch_automatic && !d->prefetch_automatic)
        return err_set(err, PT_EDATA, "%s has no PREFETCHSIZE AUTOMATIC",
                       d->name);
    if (d->has_prefetch && !p->prefetch_automatic &&
        (p->prefetch_size < d->prefetch_min ||
         p->prefetch_size > d->prefetch_max ||
         p->prefetch_size % p->extent_size != 0))
        return err_set(err, PT_EDATA,
                       "PREFETCHSIZE %llu must be a multiple of EXTENTSIZE "
                       "%llu within %u..%u, or AUTOMATIC",
                       (unsigned long long)p->prefetch_size,
                       (unsigned long long)p->extent_size, d->prefetch_min,
                       d->prefetch_max);
    /* the limits recommend's writer keeps (model/limits.c) */
    if (rec_limit_check(REC_LIM_OVERHEAD_MS, p->overhead_ms, NULL,
                        "OVERHEAD (ms)", err) < 0 ||
        rec_limit_check(REC_LIM_TRANSFER_MS, p->transfer_rate_ms, NULL,
                        "TRANSFERRATE (ms)", err) < 0)
        return PT_EDATA;
    return 0;
}

/* One object name: option, else recommendation, else default; checked. */
static int resolve_name(const struct ddl_dialect *d, const char *kind,
                        const char *given, const char *given_what,
                        const char *from_rec, const char *rec_name,
                        const char *def, char *out, struct pt_err *err)
{
    if (!ddl_dialect_has_kind(d, kind))
        return 0;
    return ddl_ident_check(d, kind,
                           given      ? given
                           : from_rec ? from_rec
                                      : def,
                           given      ? given_what
                           : from_rec ? rec_name
                                      : "default",
                           out, DDL_IDENT_MAX, err);
}

/* Bytes (or characters) of the longest part over the rule, else 0. */
static size_t part_over(const struct ddl_ident_rule *r, const char *part,
                        int *chars)
{
    size_t n = 0;

    *chars = r->max_chars > 0;
    if (*chars) {
        for (const char *c = part; *c; c++)
            n += ((unsigned char)*c & 0xc0) != 0x80;
        return n > r->max_chars ? n : 0;
    }
    n = strlen(part);
    return n > r->max_bytes ? n : 0;
}

/*
 * The table: --table [SCHEMA.]NAME as parsed (any name, quoted or not),
 * else DDL_DEFAULT_TABLE; unquoted parts folded the dialect's way, quoted
 * ones kept. A part over the dialect's limit is a usage error naming
 * --table (64); a table with a reserved prefix is refused (65). A dialect
 * that cannot quote takes only the names ddl_ident_check allows.
 */
static int resolve_table(struct ddl_plan *p, const struct ddl_dialect *d,
                         const struct pt_qname *given, struct pt_err *err)
{
    const struct ddl_ident_rule *r = NULL;
    struct pt_qname q, x;
    const char *parts[2];

    for (size_t i = 0; i < d->n_rules; i++)
        if (strcmp(d->rules[i].kind, "table") == 0)
            r = &d->rules[i];
    if (!r)
        return 0;
    if (given)
        q = *given;
    else
        pt_qname_set(&q, DDL_DEFAULT_TABLE, NULL);
    x = pt_qname_exact(&q, d->fold_upper ? 1 : d->fold_lower ? -1 : 0);
    parts[0] = x.schema;
    parts[1] = x.table;
    for (int i = 0; i < 2; i++) {
        char shown[96];
        int chars;
        size_t over = part_over(r, parts[i], &chars);
        int rc;

        pt_qname_format(&q, shown, sizeof(shown));
        if (over)
            return err_set(err, PT_EUSAGE,
                           "`table`: %s name '%s' is %zu %s, %s allows at "
                           "most %zu",
                           i ? "table" : "schema", shown, over,
                           chars ? "characters" : "bytes", d->name,
                           chars ? r->max_chars : r->max_bytes);
        if (!d->quote_open[0] && parts[i][0] &&
            (rc = ddl_ident_check(d, "table", parts[i], "`table`", p->table,
                                  sizeof(p->table), err)) < 0)
            return rc;
    }
    for (size_t i = 0; i < r->n_prefixes; i++) {
        size_t pl = strlen(r->forbidden_prefixes[i]);
        if (strncasecmp(x.table, r->forbidden_prefixes[i], pl) == 0)
            return err_set(err, PT_EDATA,
                           "`table`: table name '%.60s' must not begin with "
                           "'%s' (reserved by %s)",
                           x.table, r->forbidden_prefixes[i], d->name);
    }
    memcpy(p->schema, x.schema, strlen(x.schema) + 1);
    memcpy(p->table, x.table, strlen(x.table) + 1);
    return 0;
}

static int resolve_names(struct ddl_plan *p, const struct ddl_dialect *d,
                         const struct rec_doc *rec, const char *rec_name,
                         const struct ddl_overrides *o, struct pt_err *err)
{
    char def_ts[32], def_bp[32];
    int rc;

    rec_default_name(REC_OBJ_TABLESPACE, p->page_size_bytes, def_ts,
                     sizeof(def_ts));
    rec_default_name(REC_OBJ_BUFFERPOOL, p->page_size_bytes, def_bp,
                     sizeof(def_bp));
    if ((rc = resolve_name(d, "tablespace", o->tablespace_name, "`name`",
                           rec ? rec->tablespace_name : NULL, rec_name, def_ts,
                           p->tablespace, err)) < 0 ||
        (rc = resolve_name(d, "bufferpool", o->bufferpool_name,
                           "`bufferpool_name`",
                           rec ? rec->bufferpool_name : NULL, rec_name, def_bp,
                           p->bufferpool, err)) < 0 ||
        (rc = resolve_table(p, d, o->table, err)) < 0 ||
        (rc = resolve_name(d, "column", o->column_name, "`column`", NULL, NULL,
                           DDL_DEFAULT_COLUMN, p->column, err)) < 0)
        return rc;
    return 0;
}

/* ---- template variables ----------------------------------------------------
 */

#define SET(k, ...)                                                            \
    do {                                                                       \
        if (ddl_vars_set(v, k, __VA_ARGS__) < 0)                               \
            return err_set(err, PT_EINTERNAL, "out of memory");                \
    } while (0)

/* Engine settings: checked against dialect.yaml, then variables. */
static int set_settings(struct ddl_vars *v, const struct ddl_plan *p,
                        const struct ddl_dialect *d, const struct rec_doc *rec,
                        const char *rec_name, struct pt_err *err)
{
    const json_t *settings = rec ? rec->settings : NULL;
    int rc;

    if (rec && d->n_settings && settings && !json_is_object(settings))
        return err_set(err, PT_EDATA, "%s: 'settings' must be an object",
                       rec_name);
    if (rec && d->n_settings && !settings)
        return err_set(err, PT_EDATA,
                       "%s: no engine 'settings' for dialect %s (written by "
                       "an older pagetune or another engine?)",
                       rec_name, d->name);
    for (size_t i = 0; i < d->n_settings; i++) {
        char val[64];
        const struct ddl_setting_rule *sr = &d->settings[i];
        if (sr->page_size_unit) {
            /* follows the page size in use (--page-size overrides) */
            json_t *ps = json_integer(
                (json_int_t)(p->page_size_bytes / sr->page_size_unit));
            rc =
                ddl_setting_check(sr, ps, "`page_size`", val, sizeof(val), err);
            json_decref(ps);
        } else {
            rc = ddl_setting_check(
                sr, settings ? json_object_get(settings, sr->name) : NULL,
                rec ? rec_name : "`page_size` (no recommendation)", val,
                sizeof(val), err);
        }
        if (rc < 0)
            return rc;
        SET(sr->name, "%s", val);
    }
    /* a statement commented out unless the recommendation asks for it */
    {
        const char *rw = ddl_vars_get(v, "rewrite");
        SET("rewrite_prefix", "%s", rw && strcmp(rw, "no") == 0 ? "-- " : "");
    }
    return 0;
}

/* SET, but releasing set_state()'s buffers on failure. */
#define SET_OUT(k, ...)                                                        \
    do {                                                                       \
        if ((rc = ddl_vars_set(v, k, __VA_ARGS__)) < 0)                        \
            goto oom;                                                          \
    } while (0)

/* A duration for a comment: "12 s", "4.5 min", "2.1 h". */
static void fmt_seconds(double sec, char *buf, size_t len)
{
    if (sec < 90)
        snprintf(buf, len, "%.0f s", sec < 1 ? 1 : sec);
    else if (sec < 5400)
        snprintf(buf, len, "%.1f min", sec / 60);
    else
        snprintf(buf, len, "%.1f h", sec / 3600);
}

/*
 * rollback_basis: what rollback.sql restores, as comment lines into basis
 * (len bytes): the state read from the server, or the engine defaults of
 * the n_dflt knobs (of n_knobs) that were not read, named.
 */
static void rollback_basis(char *basis, size_t len, const char *const *dflt,
                           size_t n_dflt, size_t n_knobs)
{
    size_t off, col;

    if (n_dflt == 0) {
        snprintf(basis, len,
                 "-- It restores the state read from the server before "
                 "create.sql (below).");
        return;
    }
    off = (size_t)snprintf(
        basis, len,
        "-- NO LIVE READ of %s: it restores the engine DEFAULTS for",
        n_dflt == n_knobs ? "the server" : "some settings");
    col = off;
    for (size_t i = 0; i < n_dflt && off < len; i++) {
        int n;
        if (col + strlen(dflt[i]) + 3 > 79) {
            n = snprintf(basis + off, len - off, "\n--");
            off += n > 0 ? (size_t)n : 0;
            col = 2;
        }
        n = snprintf(basis + off, len - off, " %s%s", dflt[i],
                     i + 1 < n_dflt ? "," : ".");
        off += n > 0 ? (size_t)n : 0;
        col += n > 0 ? (size_t)n : 0;
    }
    if (off < len)
        snprintf(basis + off, len - off,
                 "\n-- If the server had other values, write them into "
                 "this file before\n-- running it.");
}

/* a memory size in PostgreSQL's largest exact unit: '48MB', not '49152kB' */
static void pg_mem_text(int64_t bytes, char *buf, size_t len)
{
    static const char *const unit[] = {"kB", "MB", "GB", "TB"};
    int64_t x = bytes > 0 ? bytes / 1024 : 0;
    size_t u = 0;

    while (u + 1 < 4 && x > 0 && x % 1024 == 0) {
        x /= 1024;
        u++;
    }
    snprintf(buf, len, "%lld%s", (long long)x, unit[u]);
}

/* one knob's current_K* and if_(un)set_K variables and its current_state line
 */
static int set_knob_state(struct ddl_vars *v, const struct rec_state *st,
                          const struct ddl_dialect *d, const struct rec_knob *k,
                          char *lines, size_t cap, struct pt_err *err)
{
    struct rec_knob eff;
    char var[80], val[48], mem[32], txt[80];
    size_t off = strlen(lines);
    int has_eff = rec_state_knob_effective(st, d->name, k, &eff) == 0;

    rec_knob_text(has_eff ? &eff : k, val, sizeof(val));
    snprintf(var, sizeof(var), "current_%s", k->name);
    SET(var, "%s", has_eff ? val : "");
    snprintf(var, sizeof(var), "current_%s_kb", k->name);
    SET(var, "%lld",
        (long long)(has_eff && eff.is_number ? eff.num / 1024 : 0));
    snprintf(var, sizeof(var), "current_%s_mem", k->name);
    pg_mem_text(has_eff && eff.is_number ? eff.num : 0, mem, sizeof(mem));
    SET(var, "%s", mem);
    snprintf(var, sizeof(var), "current_%s_source", k->name);
    SET(var, "%s", k->source == REC_SOURCE_SERVER ? "server" : "default");
    snprintf(var, sizeof(var), "if_set_%s", k->name);
    SET(var, "%s", k->is_set ? "" : "-- ");
    snprintf(var, sizeof(var), "if_unset_%s", k->name);
    SET(var, "%s", k->is_set ? "-- " : "");
    if (k->is_set)
        rec_knob_text(k, txt, sizeof(txt));
    else if (has_eff)
        snprintf(txt, sizeof(txt), "not set (the engine uses %s)", val);
    else
        snprintf(txt, sizeof(txt), "not set");
    snprintf(lines + off, cap - off, "%s--   %-25s %s, %s", off ? "\n" : "",
             k->name, txt,
             k->source == REC_SOURCE_SERVER ? "read from the server"
                                            : "DEFAULT, not read");
    return 0;
}

/* a knob's value when it was read from the server and is set, else NULL */
static const struct rec_knob *read_set(const struct rec_state *st,
                                       const char *name)
{
    const struct rec_knob *k = rec_state_get(st, name);

    return k && k->source == REC_SOURCE_SERVER && k->is_set && k->is_number
               ? k
               : NULL;
}

/*
 * PostgreSQL shared_buffers (ALTER SYSTEM): the configured value, not only
 * the running one, is the prior state. A value set by ALTER SYSTEM (or in
 * postgresql.conf) waits for a restart: pg_settings.pending_restart, the
 * last shared_buffers line of pg_file_settings (collect/catalog.c
 * pg_state: knobs shared_buffers_pending, shared_buffers_auto_conf).
 * create.sql leaves it alone when the advice keeps the running value or
 * asks for the pending one, and when the pending value could not be read
 * (pg_file_settings needs superuser or pg_read_all_settings): an ALTER
 * SYSTEM would overwrite what the DBA set, and rollback.sql could not put
 * it back. *change (in: the value compared with the one in effect) says
 * whether the statement runs; shared_buffers_note says why, as comment
 * lines.
 */
static int pg_pool_change(struct ddl_vars *v, const struct rec_state *st,
                          int64_t want, int *change, struct pt_err *err)
{
    const struct rec_knob *run = read_set(st, "shared_buffers");
    const struct rec_knob *ac = rec_state_get(st, "shared_buffers_auto_conf");
    const struct rec_knob *pk = rec_state_get(st, "shared_buffers_pending");
    const struct rec_knob *pend = read_set(st, "shared_buffers_pending");
    char t[1024], a[32], b[32], c[32], *block = NULL;
    const char *tp = t;
    int rc;

    pg_mem_text(want, a, sizeof(a));
    if (!pend && (!pk || pk->source != REC_SOURCE_SERVER)) /* not read */
        pend = read_set(st, "shared_buffers_auto_conf");
    if (pend && run && pend->num == run->num)
        pend = NULL; /* in effect already */
    if (run && (!ac || ac->source != REC_SOURCE_SERVER)) {
        *change = 0;
        snprintf(t, sizeof(t),
                 "shared_buffers %s: LEFT ALONE, the pending value could not "
                 "be read (%s): pg_file_settings needs superuser or "
                 "pg_read_all_settings. A value set by ALTER SYSTEM may wait "
                 "for a restart; this statement would overwrite it and "
                 "rollback.sql could not put it back. Check SELECT setting, "
                 "sourcefile FROM pg_file_settings WHERE name = "
                 "'shared_buffers' as a superuser, then run it by hand.",
                 a, st->note[0] ? st->note : "not read");
    } else if (pend) {
        pg_mem_text(pend->num, b, sizeof(b));
        pg_mem_text(run->num, c, sizeof(c));
        *change = want != pend->num && want != run->num;
        snprintf(t, sizeof(t),
                 "shared_buffers: %s is PENDING (set in the configuration, "
                 "in effect after the next restart; %s runs now): %s",
                 b, c,
                 want == pend->num ? "the advice asks for it, nothing to "
                                     "change"
                 : *change ? "the advice changes it; rollback.sql puts the "
                             "pending value back"
                           : "the advice keeps the running value and leaves "
                             "the pending one, the DBA's, alone");
    } else if (run) {
        *change = want != run->num;
        pg_mem_text(run->num, c, sizeof(c));
        snprintf(t, sizeof(t), "shared_buffers: %s in use, nothing pending%s",
                 c, *change ? "" : ", and advised: nothing to change");
    } else { /* nothing read: *change compares with the default */
        snprintf(t, sizeof(t),
                 "shared_buffers: not read (the engine's default assumed, "
                 "see the state above)%s",
                 *change ? "" : ": nothing to change");
    }
    if ((rc = ddl_comment_block(&tp, 1, "-- ", 79, &block, err)) < 0)
        return rc;
    rc = ddl_vars_set(v, "shared_buffers_note", "%s", block);
    free(block);
    return rc < 0 ? err_set(err, PT_EINTERNAL, "out of memory") : 0;
}

/*
 * Settings a template uses that no knob of model's rec_setting_knob
 * maps (they are not compared for drift): SQLite cache_size_kib is PRAGMA
 * cache_size = -KiB, the knob cache_size holds the PRAGMA's value.
 */
static const char *ddl_only_knob(const char *dialect, const char *setting,
                                 int64_t *scale)
{
    if (strcmp(dialect, "sqlite") == 0 &&
        strcmp(setting, "cache_size_kib") == 0) {
        *scale = -1;
        return "cache_size";
    }
    return NULL;
}

/*
 * if_change_S: "" when create.sql's setting S changes its knob, else "-- ":
 * a statement that changes nothing is a comment (the templates' promise).
 * A value equal to the one in effect (read, or the engine's default when
 * nothing was read) changes nothing.
 */
static int set_change_vars(struct ddl_vars *v, const struct rec_state *st,
                           const struct ddl_dialect *d, struct pt_err *err)
{
    for (size_t i = 0; i < d->n_settings; i++) {
        const struct ddl_setting_rule *sr = &d->settings[i];
        int64_t scale = 1;
        const char *kn = rec_setting_knob(d->name, sr->name, &scale);
        const struct rec_knob *k;
        const char *val = ddl_vars_get(v, sr->name);
        struct rec_knob eff;
        char var[80];
        int change = 1, rc;

        if (!kn)
            kn = ddl_only_knob(d->name, sr->name, &scale);
        if (!kn)
            continue;
        k = rec_state_get(st, kn);
        if (k && val && rec_state_knob_effective(st, d->name, k, &eff) == 0) {
            if (eff.is_number)
                change = strtoll(val, NULL, 10) * scale != eff.num;
            else
                change = strcasecmp(val, eff.word) != 0;
        }
        if (val && strcmp(d->name, "postgresql") == 0 &&
            strcmp(kn, "shared_buffers") == 0 &&
            (rc = pg_pool_change(v, st, strtoll(val, NULL, 10) * scale, &change,
                                 err)) < 0)
            return rc;
        /* a row format nobody read may be the server's
         * innodb_default_row_format, not DYNAMIC: set it (the page-fit
         * rules assume DYNAMIC's 20-byte off-page pointers) */
        if (k && k->source != REC_SOURCE_SERVER &&
            strcmp(kn, "row_format") == 0)
            change = 1;
        snprintf(var, sizeof(var), "if_change_%s", sr->name);
        SET(var, "%s", change ? "" : "-- ");
    }
    return 0;
}

/* table_size and rewrite_time: the operational cost of a rewrite */
static int set_cost_vars(struct ddl_vars *v, const struct rec_doc *rec,
                         struct pt_err *err)
{
    char size[32], time[32];
    double tb = rec ? rec->table_bytes : 0;

    if (tb > 0) {
        pt_size_format((uint64_t)tb, size, sizeof(size));
        fmt_seconds(rec->rewrite_seconds, time, sizeof(time));
    } else {
        snprintf(size, sizeof(size), "unknown");
        snprintf(time, sizeof(time), "unknown");
    }
    SET("table_size", "%s", size);
    SET("rewrite_time", "%s", time);
    return 0;
}

/*
 * The state before create.sql (the recommendation's "current", else the
 * engine's defaults), for rollback.sql to restore it exactly:
 *   current_K, current_K_kb, current_K_source   value, value / 1024, source
 *   if_set_K / if_unset_K      "" or "-- ": a statement for a knob that is
 *                              set (SET it back) or unset (RESET it)
 *   if_change_S                "" when setting S changes its knob, else
 *                              "-- " (create.sql leaves it alone)
 *   current_state              comment lines, one knob each
 *   rollback_basis             comment lines: what rollback.sql restores
 *                              and which values are only defaults
 *   table_size, rewrite_time   the operational cost of a rewrite
 *   file_system_caching        DB2's caching clause, for comments;
 *   if_fs_caching / if_no_fs_caching   "" or "-- " before each clause
 */
static int set_state(struct ddl_vars *v, const struct ddl_plan *p,
                     const struct ddl_dialect *d, const struct rec_doc *rec,
                     struct pt_err *err)
{
    struct rec_state st;
    const struct rec_knob *pk;
    char *lines = NULL, *basis = NULL;
    const char *dflt[REC_MAX_KNOBS];
    size_t n_dflt = 0, cap;
    int rc;

    memset(&st, 0, sizeof(st));
    if (rec && rec->has_current)
        st = rec->current;
    rec_state_fill_defaults(&st, d->name);
    cap = 64 + st.n * 120;
    if (!(lines = pt_calloc(1, cap)) || !(basis = pt_calloc(1, cap + 256))) {
        free(lines);
        return err_set(err, PT_EINTERNAL, "out of memory");
    }
    for (size_t i = 0; i < st.n; i++) {
        rc = set_knob_state(v, &st, d, &st.knobs[i], lines, cap, err);
        if (rc < 0)
            goto oom;
        if (st.knobs[i].source != REC_SOURCE_SERVER)
            dflt[n_dflt++] = st.knobs[i].name;
    }
    if ((rc = set_change_vars(v, &st, d, err)) < 0)
        goto oom;
    SET_OUT("current_state", "%s", lines);
    rollback_basis(basis, cap + 256, dflt, n_dflt, st.n);
    rc = ddl_vars_set(v, "rollback_basis", "%s", basis);
oom:
    free(lines);
    free(basis);
    if (rc < 0)
        return err_set(err, PT_EINTERNAL, "out of memory");
    if ((rc = set_cost_vars(v, rec, err)) < 0)
        return rc;
    pk = rec_state_get(&st, "page_size");
    SET("if_page_change", "%s",
        pk && pk->is_number && (uint64_t)pk->num == p->page_size_bytes ? "-- "
                                                                       : "");
    SET("file_system_caching", "%s",
        rec && rec->fs_caching == 1 ? "FILE SYSTEM CACHING"
                                    : "NO FILE SYSTEM CACHING");
    SET("if_fs_caching", "%s", rec && rec->fs_caching == 1 ? "" : "-- ");
    SET("if_no_fs_caching", "%s", rec && rec->fs_caching == 1 ? "-- " : "");
    return 0;
}

/* Where the values come from and why: the scripts' comment lines. */
static int set_evidence(struct ddl_vars *v, const struct ddl_dialect *d,
                        const struct rec_doc *rec, const char *rec_name,
                        struct pt_err *err)
{
    char *block = NULL;
    int rc;

    if (rec) {
        char src[1024];
        /*
         * It lands on a "--" comment line: a newline from the file name or
         * from "decided_by" would start a line of SQL in create.sql.
         */
        snprintf(src, sizeof(src), "recommendation %s%s%s", rec_name,
                 rec->decided_by ? ", decided by the " : "",
                 rec->decided_by ? rec->decided_by : "");
        for (char *q = src; *q; q++)
            if ((unsigned char)*q < 0x20 || *q == 0x7f)
                *q = ' ';
        SET("evidence_source", "%s", src);
    } else {
        SET("evidence_source", "%s", "command-line parameters");
    }
    if (!rec || rec->n_reasons == 0) {
        static const char *const none[] = {
            "no recommendation reasons: parameters come from the command line "
            "and IBM's defaults (SIZE 1000, EXTENTSIZE 32, OVERHEAD 6.725 ms, "
            "100 MB/s)"};
        static const char *const none_engine[] = {
            "no recommendation reasons: parameters come from the command line "
            "and the dialect's defaults (dialect.yaml)"};
        rc = ddl_comment_block(strcmp(d->name, "db2") == 0 ? none : none_engine,
                               1, "--   ", 79, &block, err);
    } else {
        rc = ddl_comment_block(rec->reasons, rec->n_reasons, "--   ", 79,
                               &block, err);
    }
    if (rc < 0)
        return rc;
    rc = ddl_vars_set(v, "evidence", "%s", block);
    free(block);
    if (rc < 0)
        return err_set(err, PT_EINTERNAL, "out of memory");
    return 0;
}

/*
 * {{table}}: the table with its schema, quoted the dialect's way, in every
 * statement and comment that names it; {{schema_prefix}} the schema and a
 * dot, or "" (SQLite: PRAGMA "aux".page_size); {{vacuum_schema}} a space
 * and the schema, or "" (SQLite: VACUUM "aux").
 */
static int set_table(struct ddl_vars *v, const struct ddl_plan *p,
                     const struct ddl_dialect *d, struct pt_err *err)
{
    char sql[DDL_IDENT_MAX * 4 + 8], qs[DDL_IDENT_MAX * 2 + 4] = "";
    int rc;

    if (!p->table[0]) {
        SET("schema_prefix", "%s", "");
        SET("vacuum_schema", "%s", "");
        return 0;
    }
    if ((rc = ddl_table_quote(d, p->schema, p->table, sql, sizeof(sql), err)) <
            0 ||
        (p->schema[0] && (rc = ddl_ident_quote(d, "schema", p->schema, qs,
                                               sizeof(qs), err)) < 0))
        return rc;
    SET("table", "%s", sql);
    SET("schema_prefix", "%s%s", qs, qs[0] ? "." : "");
    SET("vacuum_schema", "%s%s", qs[0] ? " " : "", qs);
    return 0;
}

static int set_vars(struct ddl_plan *p, const struct ddl_dialect *d,
                    const struct rec_doc *rec, const char *rec_name,
                    struct pt_err *err)
{
    struct ddl_vars *v = &p->vars;
    char num[64], fig[96];
    int rc;

    SET("version", "%s", PT_VERSION);
    SET("page_size", "%llu", (unsigned long long)p->page_size_bytes);
    SET("page_size_k", "%llu", (unsigned long long)(p->page_size_bytes / 1024));
    SET("bufferpool_name", "%s", p->bufferpool);
    SET("tablespace_name", "%s", p->tablespace);
    SET("column", "%s", p->column);
    if ((rc = ddl_vars_quote_idents(v, d, err)) < 0 ||
        (rc = set_table(v, p, d, err)) < 0)
        return rc;
    if ((rc = set_settings(v, p, d, rec, rec_name, err)) < 0)
        return rc;
    SET("bufferpool_pages", "%llu", (unsigned long long)p->bufferpool_pages);
    SET("bufferpool_bytes", "%s",
        pt_size_format(p->bufferpool_pages * p->page_size_bytes, num,
                       sizeof(num)));
    /* the pool as every report writes it: "1,000 pages of 16K (15.6M)" */
    SET("bufferpool", "%s",
        pt_fig_pool(p->bufferpool_pages, p->page_size_bytes, fig, sizeof(fig)));
    SET("extent_size", "%llu", (unsigned long long)p->extent_size);
    if (p->prefetch_automatic)
        SET("prefetch_size", "%s", "AUTOMATIC");
    else
        SET("prefetch_size", "%llu", (unsigned long long)p->prefetch_size);
    SET("overhead", "%.6g", p->overhead_ms);
    SET("transfer_rate", "%.6g", p->transfer_rate_ms);
    if ((rc = set_state(v, p, d, rec, err)) < 0)
        return rc;
    return set_evidence(v, d, rec, rec_name, err);
}

#undef SET
#undef SET_OUT

/* ---- the plan
 * ----------------------------------------------------------------
 */

int ddl_plan_from_recommendation(
    struct ddl_plan *p, const struct ddl_dialect *d, const struct rec_doc *rec,
    const char *rec_name, const struct ddl_overrides *o, struct pt_err *err)
{
    static const struct ddl_overrides none;
    int rc;

    memset(p, 0, sizeof(*p));
    ddl_vars_init(&p->vars);
    if (!o)
        o = &none;
    if (!rec_name)
        rec_name = "recommendation";
    if ((rc = resolve_values(p, d, rec, o, err)) < 0 ||
        (rc = check_ranges(p, d, err)) < 0 ||
        (rc = resolve_names(p, d, rec, rec_name, o, err)) < 0)
        return rc;
    return set_vars(p, d, rec, rec_name, err);
}

void ddl_plan_release(struct ddl_plan *p)
{
    ddl_vars_release(&p->vars);
}

static int render_file(const char *dir, const char *file,
                       const struct ddl_vars *v, char **out, struct pt_err *err)
{
    char path[4400], *buf = NULL;
    size_t len = 0;
    int rc;

    snprintf(path, sizeof(path), "%s/%s", dir, file);
    if ((rc = pt_file_read(path, &buf, &len, err)) < 0)
        return rc;
    rc = ddl_render(buf, len, path, v, out, err);
    free(buf);
    return rc;
}

int ddl_plan_render(const struct ddl_plan *p, const char *dir, char **create,
                    char **rollback, struct pt_err *err)
{
    int rc;

    *create = *rollback = NULL;
    if ((rc = render_file(dir, "create.sql", &p->vars, create, err)) < 0 ||
        (rc = render_file(dir, "rollback.sql", &p->vars, rollback, err)) < 0) {
        free(*create);
        *create = NULL;
        return rc;
    }
    return 0;
}

/* Is step st in create.sql? "VAR": VAR is "" (not commented out);
 * "VAR=VALUE": VAR is VALUE. 1 yes, 0 no, PT_EDATA for an unknown VAR. */
static int step_taken(const struct ddl_plan *p, const struct ddl_dialect *d,
                      const struct ddl_step *st, size_t i, struct pt_err *err)
{
    char var[sizeof(st->when)];
    const char *eq = strchr(st->when, '='), *val;

    if (!st->when[0])
        return 1;
    snprintf(var, sizeof(var), "%.*s",
             (int)(eq ? (size_t)(eq - st->when) : strlen(st->when)), st->when);
    if (!(val = ddl_vars_get(&p->vars, var)))
        return err_set(err, PT_EDATA,
                       "dialect %s: destructive[%zu]: 'when' names '%s', which "
                       "is no template variable",
                       d->name, i, var);
    return eq ? strcmp(val, eq + 1) == 0 : val[0] == '\0';
}

int ddl_plan_destructive(const struct ddl_plan *p, const struct ddl_dialect *d,
                         json_t **steps, struct pt_err *err)
{
    json_t *arr = json_array();
    char name[128], *text = NULL;
    int rc = 0;

    *steps = NULL;
    if (!arr)
        return err_set(err, PT_EINTERNAL, "out of memory");
    for (size_t i = 0; i < d->n_steps && rc >= 0; i++) {
        const struct ddl_step *st = &d->steps[i];
        if ((rc = step_taken(p, d, st, i, err)) <= 0)
            continue;
        snprintf(name, sizeof(name), "dialect %s: destructive[%zu]", d->name,
                 i);
        if ((rc = ddl_render(st->text, strlen(st->text), name, &p->vars, &text,
                             err)) < 0)
            break;
        /* one line: a value with a newline (none is used) cannot break it */
        for (char *c = text; *c; c++)
            if ((unsigned char)*c < 0x20)
                *c = ' ';
        if (json_array_append_new(arr, json_string(text)) < 0)
            rc = err_set(err, PT_EINTERNAL, "out of memory");
        free(text);
        text = NULL;
    }
    if (rc < 0) {
        json_decref(arr);
        return rc;
    }
    *steps = arr;
    return 0;
}
