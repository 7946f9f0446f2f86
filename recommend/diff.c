/* SPDX-License-Identifier: Apache-2.0 */
/*
 * diff.c — what changed between two recommendation documents
 * (docs/formats.md#recommendation, #diff): the advice itself (page size,
 * buffer pool, table space knobs, the engine's storage settings, the
 * verdict of an advise run) and the figures behind it (the memory budget,
 * the chosen candidate's I/O per access, predicted and measured changes).
 * `pagetune diff` (cli/cmd_diff.c) prints the result; this file only
 * compares. The documents are walked as JSON so that a member absent on
 * one side (a run without --clients, an older document) is "absent", not
 * an error: rec_result_from_json has already said both are
 * recommendations.
 */
#include "recommend/recommend.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The members compared, in the order a reader meets them. */
static const struct {
    const char *key; /* dotted path into the document */
    const char *label;
    enum rec_diff_kind kind;
    enum rec_diff_unit unit;
} fields[] = {
    {"engine", "engine", REC_DIFF_ADVICE, REC_DIFF_TEXT},
    {"page_size", "page size", REC_DIFF_ADVICE, REC_DIFF_PAGE},
    {"bufferpool.name", "buffer pool name", REC_DIFF_ADVICE, REC_DIFF_TEXT},
    {"bufferpool.pages", "buffer pool", REC_DIFF_ADVICE, REC_DIFF_POOL},
    {"tablespace.name", "table space name", REC_DIFF_ADVICE, REC_DIFF_TEXT},
    {"tablespace.extent_size", "EXTENTSIZE (pages)", REC_DIFF_ADVICE,
     REC_DIFF_NUM},
    {"tablespace.prefetch_size", "PREFETCHSIZE", REC_DIFF_ADVICE,
     REC_DIFF_TEXT},
    {"tablespace.overhead", "OVERHEAD (ms)", REC_DIFF_ADVICE, REC_DIFF_NUM},
    {"tablespace.transfer_rate", "TRANSFERRATE (ms)", REC_DIFF_ADVICE,
     REC_DIFF_NUM},
    {"tablespace.file_system_caching", "FILE SYSTEM CACHING", REC_DIFF_ADVICE,
     REC_DIFF_TEXT},
    {"websphere.db2_row_size", "WebSphere DB2 row size", REC_DIFF_ADVICE,
     REC_DIFF_TEXT},
    /* settings.* go here (add_settings) */
    {"validation.verdict.word", "verdict", REC_DIFF_ADVICE, REC_DIFF_TEXT},
    {"decided_by", "decided by", REC_DIFF_FIGURE, REC_DIFF_TEXT},
    {"model.memory_bytes", "memory budget", REC_DIFF_FIGURE, REC_DIFF_BYTES},
    {"model.sessions", "sessions", REC_DIFF_FIGURE, REC_DIFF_NUM},
    {"chosen.hit_ratio", "hit ratio (model)", REC_DIFF_FIGURE, REC_DIFF_NUM},
    {"chosen.io_ms_per_access", "I/O ms per access (model)", REC_DIFF_FIGURE,
     REC_DIFF_NUM},
    {"predicted.change.req_per_s_pct", "predicted requests/s", REC_DIFF_FIGURE,
     REC_DIFF_PCT},
    {"predicted.change.response_ms_pct", "predicted response time",
     REC_DIFF_FIGURE, REC_DIFF_PCT},
    {"validation.predicted.req_per_s_change_pct.mean", "predicted requests/s",
     REC_DIFF_FIGURE, REC_DIFF_PCT},
    {"validation.predicted.response_ms_change_pct.mean",
     "predicted response time", REC_DIFF_FIGURE, REC_DIFF_PCT},
    {"validation.simulation.io_change_pct", "simulated I/O per get",
     REC_DIFF_FIGURE, REC_DIFF_PCT},
    {"validation.replay.ops_change_pct", "measured ops/s (replay)",
     REC_DIFF_FIGURE, REC_DIFF_PCT},
    {"validation.verdict.interval_pct.mean", "measured requests/s",
     REC_DIFF_FIGURE, REC_DIFF_PCT},
    {"validation.validated_by.method", "validated by", REC_DIFF_FIGURE,
     REC_DIFF_TEXT},
    {"pagetune_version", "pagetune version", REC_DIFF_FIGURE, REC_DIFF_TEXT},
};
#define N_FIELDS (sizeof(fields) / sizeof(fields[0]))
/* the settings come after the DB2 objects, before the verdict */
#define SETTINGS_AT 11

/* The recommended candidate (candidates[] whose page_size is the doc's). */
static const json_t *chosen(const json_t *doc)
{
    const json_t *c, *ps = json_object_get(doc, "page_size");
    size_t i;

    json_array_foreach(json_object_get(doc, "candidates"), i, c)
    {
        if (json_equal(json_object_get(c, "page_size"), (json_t *)ps))
            return c;
    }
    return NULL;
}

/* The member at a dotted path, or NULL; "chosen." starts at the chosen
   candidate. A JSON null counts as absent. */
static const json_t *at(const json_t *doc, const char *key)
{
    char part[64];
    const json_t *o = doc;

    if (strncmp(key, "chosen.", 7) == 0) {
        o = chosen(doc);
        key += 7;
    }
    while (o && *key) {
        size_t n = strcspn(key, ".");
        if (n >= sizeof(part))
            return NULL;
        memcpy(part, key, n);
        part[n] = '\0';
        o = json_is_object(o) ? json_object_get(o, part) : NULL;
        key += n + (key[n] == '.');
    }
    return o && !json_is_null(o) ? o : NULL;
}

/* Whether two members say the same: numbers by value (16384 == 16384.0,
   and a rounding in the 9th digit is no change). */
static int same(const json_t *a, const json_t *b)
{
    if (!a || !b)
        return !a && !b;
    if (json_is_number(a) && json_is_number(b)) {
        double x = json_number_value(a), y = json_number_value(b);
        return fabs(x - y) <= 1e-9 * fmax(1.0, fmax(fabs(x), fabs(y)));
    }
    return json_equal((json_t *)a, (json_t *)b);
}

static int add(struct rec_diff *d, const char *key, const char *label,
               enum rec_diff_kind kind, enum rec_diff_unit unit,
               const json_t *a, const json_t *b)
{
    struct rec_diff_item *it;

    if (!a && !b)
        return 0;
    if (d->n_items == d->cap) {
        size_t cap = d->cap ? 2 * d->cap : 32;
        struct rec_diff_item *p = pt_realloc(d->items, cap * sizeof(*p));
        if (!p)
            return PT_EINTERNAL;
        d->items = p;
        d->cap = cap;
    }
    it = &d->items[d->n_items++];
    memset(it, 0, sizeof(*it));
    snprintf(it->key, sizeof(it->key), "%s", key);
    snprintf(it->label, sizeof(it->label), "%s", label);
    it->kind = kind;
    it->unit = unit;
    it->a = a ? json_incref((json_t *)a) : NULL;
    it->b = b ? json_incref((json_t *)b) : NULL;
    it->changed = !same(a, b);
    if (it->changed && kind == REC_DIFF_ADVICE)
        d->advice_changed = 1;
    return 0;
}

/*
 * The engine's own settings (toast_tuple_target, innodb_page_size, ...),
 * the union of both sides' keys in A's order then B's. A setting that
 * describes the server as it is (current_*, previous_*) is a figure: it
 * changes with the server, not with the advice.
 */
static int add_settings(struct rec_diff *d, const json_t *a, const json_t *b)
{
    const json_t *sa = json_object_get(a, "settings"),
                 *sb = json_object_get(b, "settings"), *v;
    const char *k;
    char key[96], label[96];
    int rc;

    for (int side = 0; side < 2; side++) {
        json_object_foreach((json_t *)(side ? sb : sa), k, v)
        {
            int state = strncmp(k, "current_", 8) == 0 ||
                        strncmp(k, "previous_", 9) == 0;
            if (side && json_object_get(sa, k))
                continue; /* done from A */
            snprintf(key, sizeof(key), "settings.%s", k);
            snprintf(label, sizeof(label), "setting %s", k);
            if ((rc = add(d, key, label,
                          state ? REC_DIFF_FIGURE : REC_DIFF_ADVICE,
                          json_is_number(v) ? REC_DIFF_NUM : REC_DIFF_TEXT,
                          at(a, key), at(b, key))) < 0)
                return rc;
        }
    }
    return 0;
}

int rec_diff_compute(struct rec_diff *d, const json_t *a, const json_t *b,
                     struct pt_err *err)
{
    const json_t *pa = at(a, "page_size"), *pb = at(b, "page_size");
    int rc = 0;

    memset(d, 0, sizeof(*d));
    d->a_page_size = json_is_integer(pa) ? (uint64_t)json_integer_value(pa) : 0;
    d->b_page_size = json_is_integer(pb) ? (uint64_t)json_integer_value(pb) : 0;
    for (size_t i = 0; rc == 0 && i < N_FIELDS; i++) {
        if (i == SETTINGS_AT)
            rc = add_settings(d, a, b);
        if (rc == 0)
            rc =
                add(d, fields[i].key, fields[i].label, fields[i].kind,
                    fields[i].unit, at(a, fields[i].key), at(b, fields[i].key));
    }
    if (rc < 0) {
        rec_diff_release(d);
        return err_set(err, PT_EINTERNAL, "out of memory comparing");
    }
    return 0;
}

void rec_diff_release(struct rec_diff *d)
{
    if (!d)
        return;
    for (size_t i = 0; i < d->n_items; i++) {
        json_decref(d->items[i].a);
        json_decref(d->items[i].b);
    }
    free(d->items);
    memset(d, 0, sizeof(*d));
}

const char *rec_diff_kind_name(enum rec_diff_kind k)
{
    return k == REC_DIFF_ADVICE ? "advice" : "figure";
}

json_t *rec_diff_to_json(const struct rec_diff *d, const char *a_name,
                         const char *b_name)
{
    json_t *doc = json_pack("{s:i,s:s,s:s,s:s,s:b}", "schema_version", 1,
                            "pagetune_version", PT_VERSION, "a", a_name, "b",
                            b_name, "advice_changed", d->advice_changed);
    json_t *changed = json_array(), *items = json_array();
    int bad = !doc || !changed || !items;

    for (size_t i = 0; !bad && i < d->n_items; i++) {
        const struct rec_diff_item *it = &d->items[i];
        json_t *o =
            json_pack("{s:s,s:s,s:s,s:O,s:O,s:b}", "key", it->key, "label",
                      it->label, "kind", rec_diff_kind_name(it->kind), "a",
                      it->a ? it->a : json_null(), "b",
                      it->b ? it->b : json_null(), "changed", it->changed);
        bad |= !o || json_array_append_new(items, o) < 0;
        if (it->changed && it->kind == REC_DIFF_ADVICE)
            bad |= json_array_append_new(changed, json_string(it->key)) < 0;
    }
    if (bad) {
        json_decref(doc);
        json_decref(changed);
        json_decref(items);
        return NULL;
    }
    /* json_object_set_new takes the value, even when it fails */
    if (json_object_set_new(doc, "changed", changed) < 0) {
        json_decref(items);
        json_decref(doc);
        return NULL;
    }
    if (json_object_set_new(doc, "items", items) < 0) {
        json_decref(doc);
        return NULL;
    }
    return doc;
}
