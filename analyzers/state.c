/* SPDX-License-Identifier: Apache-2.0 */
/*
 * state.c — the current state of the server, knob by knob (`current` in
 * sizes.json, monitor.json and recommendation.json; docs/formats.md
 * "current"), each engine's documented defaults for a state nobody read,
 * and the change rule that says when a modelled gain is worth its
 * disruption (docs/models.md #change-threshold). Pure: no I/O.
 *
 * Neighbours: recommend.c and advice.c (decide from the state), drift.c
 * (compares it with a recommendation), ddl/plan.c (rollback.sql restores
 * it), collect/ (writes it from a live read).
 */
#include "analyzers/analyzers.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

/*
 * Each engine's knobs and their defaults (for a knob not set by default,
 * is_set = 0 and num/word hold the value the engine then uses:
 * TOAST_TUPLE_TARGET 2032, innodb_default_row_format DYNAMIC since MariaDB
 * 10.2.2), used when the server was not
 * read. Sources:
 *  - PostgreSQL docs, "Resource Consumption": shared_buffers defaults to
 *    128MB; ALTER SYSTEM: no postgresql.auto.conf line by default;
 *    CREATE TABLE storage parameters: toast_tuple_target is unset
 *    (TOAST_TUPLE_TARGET, 2032 at BLCKSZ 8192); "TOAST": bytea columns
 *    have STORAGE EXTENDED.
 *  - MariaDB KB innodb_page_size (16K), innodb_buffer_pool_size (128M);
 *    a table without an explicit ROW_FORMAT uses innodb_default_row_format.
 *  - SQLite "PRAGMA page_size" (4096 since 3.12.0), "PRAGMA journal_mode"
 *    (DELETE), "PRAGMA cache_size" (-2000).
 *  - IBM Db2 CREATE DATABASE (PAGESIZE 4096), CREATE BUFFERPOOL (SIZE
 *    1000), "Table space containers use concurrent I/O or direct I/O by
 *    default" (NO FILE SYSTEM CACHING for automatic storage on most
 *    platforms).
 */
struct knob_default {
    const char *engine, *name;
    int is_number, is_set;
    int64_t num;
    const char *word;
};

static const struct knob_default defaults[] = {
    {"postgresql", "page_size", 1, 1, 8192, NULL},
    {"postgresql", "shared_buffers", 1, 1, 134217728, NULL},
    {"postgresql", "shared_buffers_auto_conf", 1, 0, 0, NULL},
    {"postgresql", "toast_tuple_target", 1, 0, 2032, NULL},
    {"postgresql", "storage", 0, 1, 0, "EXTENDED"},
    {"mysql", "page_size", 1, 1, 16384, NULL},
    {"mysql", "innodb_buffer_pool_size", 1, 1, 134217728, NULL},
    {"mysql", "row_format", 0, 0, 0, "DYNAMIC"},
    {"sqlite", "page_size", 1, 1, 4096, NULL},
    {"sqlite", "journal_mode", 0, 1, 0, "delete"},
    {"sqlite", "cache_size", 1, 1, -2000, NULL},
    {"db2", "page_size", 1, 1, 4096, NULL},
    {"db2", "bufferpool_pages", 1, 1, 1000, NULL},
    {"db2", "file_system_caching", 0, 1, 0, "NO"},
};

static const struct knob_default *find_default(const char *engine,
                                               const char *name)
{
    for (size_t i = 0; i < sizeof(defaults) / sizeof(defaults[0]); i++)
        if (strcmp(defaults[i].engine, engine) == 0 &&
            strcmp(defaults[i].name, name) == 0)
            return &defaults[i];
    return NULL;
}

const struct rec_knob *rec_state_get(const struct rec_state *s,
                                     const char *name)
{
    for (size_t i = 0; s && i < s->n; i++)
        if (strcmp(s->knobs[i].name, name) == 0)
            return &s->knobs[i];
    return NULL;
}

static int name_ok(const char *name)
{
    size_t n = strlen(name);

    if (n == 0 || n >= sizeof(((struct rec_knob *)0)->name) ||
        !(name[0] >= 'a' && name[0] <= 'z'))
        return 0;
    for (; *name; name++)
        if (!((*name >= 'a' && *name <= 'z') ||
              (*name >= '0' && *name <= '9') || *name == '_'))
            return 0;
    return 1;
}

static int word_ok(const char *w)
{
    size_t n = strlen(w);

    if (n == 0 || n >= REC_KNOB_WORD_LEN)
        return 0;
    for (; *w; w++)
        if (!((*w >= 'a' && *w <= 'z') || (*w >= 'A' && *w <= 'Z') ||
              (*w >= '0' && *w <= '9') || *w == '_'))
            return 0;
    return 1;
}

/* The slot for `name`: the existing knob or a new one. */
static struct rec_knob *slot(struct rec_state *s, const char *name,
                             struct pt_err *err)
{
    struct rec_knob *k;

    if (!name_ok(name)) {
        err_set(err, PT_EDATA, "current: '%.40s' is not a knob name", name);
        return NULL;
    }
    for (size_t i = 0; i < s->n; i++)
        if (strcmp(s->knobs[i].name, name) == 0)
            return &s->knobs[i];
    if (s->n >= REC_MAX_KNOBS) {
        err_set(err, PT_EDATA, "current: more than %d knobs", REC_MAX_KNOBS);
        return NULL;
    }
    k = &s->knobs[s->n++];
    memset(k, 0, sizeof(*k));
    memcpy(k->name, name, strlen(name) + 1);
    return k;
}

int rec_state_set_num(struct rec_state *s, const char *name, int64_t v,
                      enum rec_source src, struct pt_err *err)
{
    struct rec_knob *k = slot(s, name, err);

    if (!k)
        return PT_EDATA;
    k->is_set = 1;
    k->is_number = 1;
    k->num = v;
    k->word[0] = '\0';
    k->source = src;
    return 0;
}

int rec_state_set_word(struct rec_state *s, const char *name, const char *w,
                       enum rec_source src, struct pt_err *err)
{
    struct rec_knob *k;

    if (!word_ok(w))
        return err_set(err, PT_EDATA,
                       "current.%s: a keyword of 1..%d letters, digits or '_'",
                       name, REC_KNOB_WORD_LEN - 1);
    if (!(k = slot(s, name, err)))
        return PT_EDATA;
    k->is_set = 1;
    k->is_number = 0;
    k->num = 0;
    memcpy(k->word, w, strlen(w) + 1);
    k->source = src;
    return 0;
}

int rec_state_set_null(struct rec_state *s, const char *name, int is_number,
                       enum rec_source src, struct pt_err *err)
{
    struct rec_knob *k = slot(s, name, err);

    if (!k)
        return PT_EDATA;
    memset(k->word, 0, sizeof(k->word));
    k->is_set = 0;
    k->is_number = is_number;
    k->num = 0;
    k->source = src;
    return 0;
}

void rec_state_fill_defaults(struct rec_state *s, const char *engine)
{
    for (size_t i = 0; i < sizeof(defaults) / sizeof(defaults[0]); i++) {
        const struct knob_default *d = &defaults[i];
        if (strcmp(d->engine, engine) != 0 || rec_state_get(s, d->name))
            continue;
        if (!d->is_set)
            rec_state_set_null(s, d->name, d->is_number, REC_SOURCE_DEFAULT,
                               NULL); /* the effective value: see above */
        else if (d->is_number)
            rec_state_set_num(s, d->name, d->num, REC_SOURCE_DEFAULT, NULL);
        else
            rec_state_set_word(s, d->name, d->word, REC_SOURCE_DEFAULT, NULL);
    }
}

int rec_knob_effective(const char *engine, const struct rec_knob *k,
                       struct rec_knob *out)
{
    const struct knob_default *d = find_default(engine, k->name);

    *out = *k;
    if (k->is_set)
        return 0;
    if (!d || (!d->word && !d->num))
        return -1; /* no value of its own: another source decides */
    out->is_set = 1;
    out->is_number = d->is_number;
    out->num = d->num;
    if (d->word)
        snprintf(out->word, sizeof(out->word), "%s", d->word);
    return 0;
}

int rec_state_knob_effective(const struct rec_state *s, const char *engine,
                             const struct rec_knob *k, struct rec_knob *out)
{
    const struct rec_knob *dk =
        s ? rec_state_get(s, "innodb_default_row_format") : NULL;

    if (!k->is_set && strcmp(engine, "mysql") == 0 &&
        strcmp(k->name, "row_format") == 0 && dk && dk->is_set &&
        !dk->is_number) {
        *out = *k;
        out->is_set = 1;
        out->is_number = 0;
        snprintf(out->word, sizeof(out->word), "%s", dk->word);
        return 0;
    }
    return rec_knob_effective(engine, k, out);
}

int rec_state_any_server(const struct rec_state *s)
{
    for (size_t i = 0; s && i < s->n; i++)
        if (s->knobs[i].source == REC_SOURCE_SERVER)
            return 1;
    return 0;
}

/* PostgreSQL's pg_attribute.attstorage letters, as the catalog has them. */
static const char *storage_word(const char *w)
{
    static const char *const words[][2] = {
        {"p", "PLAIN"}, {"m", "MAIN"}, {"e", "EXTERNAL"}, {"x", "EXTENDED"}};

    for (size_t i = 0; i < 4; i++)
        if (strcmp(w, words[i][0]) == 0)
            return words[i][1];
    return w;
}

static int merge_value(struct rec_state *s, const char *name, const json_t *v,
                       enum rec_source src, const struct knob_default *d,
                       const char *ctx, struct pt_err *err)
{
    if (json_is_null(v))
        return rec_state_set_null(s, name, d ? d->is_number : 1, src, err);
    if (json_is_integer(v))
        return rec_state_set_num(s, name, (int64_t)json_integer_value(v), src,
                                 err);
    if (json_is_string(v)) {
        const char *w = json_string_value(v);
        if (strcmp(name, "storage") == 0)
            w = storage_word(w);
        if (!word_ok(w))
            return err_set(err, PT_EDATA,
                           "%s: current.%s: '%.40s' is not a keyword "
                           "([A-Za-z0-9_], at most %d)",
                           ctx, name, w, REC_KNOB_WORD_LEN - 1);
        return rec_state_set_word(s, name, w, src, err);
    }
    return err_set(err, PT_EDATA,
                   "%s: current.%s: the value must be an integer, a keyword "
                   "or null",
                   ctx, name);
}

int rec_state_merge_json(struct rec_state *s, const json_t *obj,
                         const char *engine, enum rec_source plain_source,
                         const char *ctx, struct pt_err *err)
{
    const char *name;
    json_t *v;
    int rc;

    if (!obj)
        return 0;
    if (!json_is_object(obj))
        return err_set(err, PT_EDATA, "%s: 'current' must be an object", ctx);
    json_object_foreach((json_t *)obj, name, v)
    {
        const struct knob_default *d = find_default(engine ? engine : "", name);
        if (json_is_object(v)) {
            const json_t *val = json_object_get(v, "value");
            const char *src = json_string_value(json_object_get(v, "source"));
            enum rec_source es;
            if (!val)
                return err_set(err, PT_EDATA, "%s: current.%.40s: no 'value'",
                               ctx, name);
            if (src && strcmp(src, "server") == 0)
                es = REC_SOURCE_SERVER;
            else if (src && strcmp(src, "default") == 0)
                es = REC_SOURCE_DEFAULT;
            else
                return err_set(err, PT_EDATA,
                               "%s: current.%.40s: 'source' must be "
                               "\"server\" or \"default\"",
                               ctx, name);
            if (!name_ok(name))
                return err_set(err, PT_EDATA,
                               "%s: current: '%.40s' is not a knob name", ctx,
                               name);
            if ((rc = merge_value(s, name, val, es, d, ctx, err)) < 0)
                return rc;
        } else if (d && (json_is_integer(v) || json_is_string(v))) {
            /* monitor.json's plain figures, read live */
            if ((rc = merge_value(s, name, v, plain_source, d, ctx, err)) < 0)
                return rc;
        }
    }
    return 0;
}

json_t *rec_state_to_json(const struct rec_state *s)
{
    json_t *o = json_object();

    if (!o)
        return NULL;
    for (size_t i = 0; i < s->n; i++) {
        const struct rec_knob *k = &s->knobs[i];
        json_t *v = !k->is_set     ? json_null()
                    : k->is_number ? json_integer((json_int_t)k->num)
                                   : json_string(k->word);
        json_t *e =
            json_pack("{s:o,s:s}", "value", v, "source",
                      k->source == REC_SOURCE_SERVER ? "server" : "default");
        if (!e || json_object_set_new(o, k->name, e)) {
            json_decref(o);
            return NULL;
        }
    }
    return o;
}

int rec_knob_equal(const struct rec_knob *a, const struct rec_knob *b)
{
    if (a->is_set != b->is_set)
        return 0;
    if (!a->is_set)
        return 1;
    if (a->is_number != b->is_number)
        return 0;
    return a->is_number ? a->num == b->num : strcasecmp(a->word, b->word) == 0;
}

char *rec_knob_text(const struct rec_knob *k, char *buf, size_t len)
{
    if (!k->is_set)
        snprintf(buf, len, "null");
    else if (k->is_number)
        snprintf(buf, len, "%lld", (long long)k->num);
    else
        snprintf(buf, len, "%s", k->word);
    return buf;
}

/* ---- the change rule --------------------------------------------------- */

const char *rec_tier_name(enum rec_tier t)
{
    switch (t) {
    case REC_TIER_RELOPTION:
        return "reloption";
    case REC_TIER_REBUILD:
        return "rebuild";
    case REC_TIER_NEW_INSTANCE:
        return "new_instance";
    default:
        return "none";
    }
}

double rec_tier_threshold(const struct rec_engine *e, enum rec_tier t)
{
    switch (t) {
    case REC_TIER_RELOPTION:
        return e->change_threshold.reloption;
    case REC_TIER_REBUILD:
        return e->change_threshold.rebuild;
    case REC_TIER_NEW_INSTANCE:
        return e->change_threshold.new_instance;
    default:
        return 0;
    }
}

int rec_change_pays(const struct rec_engine *e, enum rec_tier tier,
                    double cur_io_ms, double new_io_ms, double cur_reads,
                    double new_reads, double *gain_io, double *gain_reads)
{
    double thr = rec_tier_threshold(e, tier);
    double gi = cur_io_ms > 0 ? (cur_io_ms - new_io_ms) / cur_io_ms : 0;
    double gr = cur_reads > 0 ? (cur_reads - new_reads) / cur_reads : 0;
    int io_no_worse = new_io_ms <= cur_io_ms * (1 + 1e-9) + 1e-12;

    if (gain_io)
        *gain_io = gi;
    if (gain_reads)
        *gain_reads = gr;
    /* zero gain and ties keep what is there; thresholds are "at least" */
    if (gi > 1e-12 && gi >= thr - 1e-12)
        return 1;
    if (tier != REC_TIER_NEW_INSTANCE && io_no_worse && gr > 1e-12 &&
        gr >= thr - 1e-12)
        return 1;
    return 0;
}

double rec_candidate_bytes(const struct rec_candidate *c, double sessions)
{
    return (c->data_pages +
            (c->outline_pages + c->outline_index_pages) * sessions) *
           (double)c->page_size_bytes;
}

int rec_change_pays_storage(const struct rec_engine *e, enum rec_tier tier,
                            const struct rec_candidate *cur,
                            const struct rec_candidate *nw, double sessions,
                            double *growth)
{
    double cb = rec_candidate_bytes(cur, sessions);
    double nb = rec_candidate_bytes(nw, sessions);
    double g = cb > 0 ? (nb - cb) / cb : 0, gr;

    if (growth)
        *growth = g;
    if (!rec_change_pays(e, tier, cur->io_ms, nw->io_ms, cur->buffered_reads,
                         nw->buffered_reads, NULL, &gr))
        return 0;
    /* a table that grows must save more reads than it adds bytes */
    return g <= 1e-9 || gr > g + 1e-12;
}

/* ---- settings and knobs ------------------------------------------------ */

const char *rec_setting_knob(const char *engine, const char *setting,
                             int64_t *scale)
{
    static const struct {
        const char *engine, *setting, *knob;
        int64_t scale;
    } map[] = {
        {"postgresql", "toast_tuple_target", "toast_tuple_target", 1},
        {"postgresql", "storage", "storage", 1},
        {"postgresql", "shared_buffers_kb", "shared_buffers", 1024},
        {"mysql", "innodb_page_size", "page_size", 1},
        {"mysql", "row_format", "row_format", 1},
        {"mysql", "innodb_buffer_pool_size", "innodb_buffer_pool_size", 1},
        {"sqlite", "page_size", "page_size", 1},
    };

    for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++)
        if (strcmp(map[i].engine, engine) == 0 &&
            strcmp(map[i].setting, setting) == 0) {
            if (scale)
                *scale = map[i].scale;
            return map[i].knob;
        }
    return NULL;
}
