/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ddl.c — dialects as data, identifier validation, template variables and
 * the {{name}} renderer, and safe SQL comment blocks. See ddl.h for the
 * contract. plan.c reads the dialect files and builds on these; callers
 * are cli/cmd_ddl.c and `advise`.
 */
#include "ddl/ddl.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---- dialects ---------------------------------------------------------------
 */

static int get_range_u64(const json_t *doc, const char *key, uint64_t *min,
                         uint64_t *max, const char *ctx, struct pt_err *err)
{
    const json_t *o = json_object_get(doc, key);
    char where[256];
    int rc;

    snprintf(where, sizeof(where), "%s: %s", ctx, key);
    if (!json_is_object(o))
        return err_set(err, PT_EDATA, "%s: '%s' must be a mapping {min, max}",
                       ctx, key);
    if ((rc = pt_json_get_u64(o, "min", min, where, err)) < 0 ||
        (rc = pt_json_get_u64(o, "max", max, where, err)) < 0)
        return rc;
    if (*min > *max)
        return err_set(err, PT_EDATA, "%s: min > max", where);
    return 0;
}

static int get_range_u32(const json_t *doc, const char *key, uint32_t *min,
                         uint32_t *max, const char *ctx, struct pt_err *err)
{
    uint64_t a, b;
    int rc = get_range_u64(doc, key, &a, &b, ctx, err);
    if (rc < 0)
        return rc;
    if (b > UINT32_MAX)
        return err_set(err, PT_EDATA, "%s: %s max too large", ctx, key);
    *min = (uint32_t)a;
    *max = (uint32_t)b;
    return 0;
}

static int rule_from_json(struct ddl_ident_rule *r, const char *kind,
                          const json_t *o, const char *ctx, struct pt_err *err)
{
    const json_t *pre, *v;
    uint64_t maxb;
    size_t i;
    int rc;

    if (strlen(kind) >= sizeof(r->kind) || !json_is_object(o))
        return err_set(err, PT_EDATA, "%s: identifiers.%s is invalid", ctx,
                       kind);
    memcpy(r->kind, kind, strlen(kind) + 1);
    if ((rc = pt_json_get_u64(o, "max_bytes", &maxb, ctx, err)) < 0)
        return rc;
    if (maxb == 0 || maxb > PT_IDENT_MAX)
        return err_set(err, PT_EDATA, "%s: identifiers.%s.max_bytes 1..%d", ctx,
                       kind, PT_IDENT_MAX);
    r->max_bytes = (size_t)maxb;
    if (json_object_get(o, "max_chars") &&
        ((rc = pt_json_get_u64(o, "max_chars", &maxb, ctx, err)) < 0 ||
         maxb == 0 || maxb > PT_IDENT_MAX))
        return rc < 0 ? rc
                      : err_set(err, PT_EDATA,
                                "%s: identifiers.%s.max_chars 1..%d", ctx, kind,
                                PT_IDENT_MAX);
    r->max_chars = json_object_get(o, "max_chars") ? (size_t)maxb : 0;
    pre = json_object_get(o, "forbidden_prefixes");
    if (pre && (!json_is_array(pre) || json_array_size(pre) > DDL_MAX_PREFIXES))
        return err_set(err, PT_EDATA,
                       "%s: identifiers.%s.forbidden_prefixes must be a list "
                       "of at most %d strings",
                       ctx, kind, DDL_MAX_PREFIXES);
    json_array_foreach(pre, i, v)
    {
        const char *s = json_string_value(v);
        if (!s || !*s || strlen(s) >= sizeof(r->forbidden_prefixes[0]))
            return err_set(err, PT_EDATA,
                           "%s: identifiers.%s.forbidden_prefixes[%zu] is "
                           "invalid",
                           ctx, kind, i);
        memcpy(r->forbidden_prefixes[i], s, strlen(s) + 1);
    }
    r->n_prefixes = pre ? json_array_size(pre) : 0;
    return 0;
}

/* settings: {name: {type: int, min, max, default} | {type: word,
 * values: [..], default}} */
static int settings_from_json(struct ddl_dialect *d, const json_t *o,
                              const char *ctx, struct pt_err *err)
{
    const char *name;
    json_t *v;

    if (!o)
        return 0;
    if (!json_is_object(o) || json_object_size(o) > DDL_MAX_SETTINGS)
        return err_set(err, PT_EDATA,
                       "%s: 'settings' must map at most %d names to rules", ctx,
                       DDL_MAX_SETTINGS);
    json_object_foreach((json_t *)o, name, v)
    {
        struct ddl_setting_rule *r = &d->settings[d->n_settings];
        const char *type = NULL;
        const json_t *def, *words, *w;
        char where[256];
        size_t i;
        int rc;

        snprintf(where, sizeof(where), "%s: settings.%s", ctx, name);
        memset(r, 0, sizeof(*r));
        if (!*name || strlen(name) >= sizeof(r->name) || !json_is_object(v))
            return err_set(err, PT_EDATA, "%s is invalid", where);
        for (const char *c = name; *c; c++)
            if (!(islower((unsigned char)*c) || isdigit((unsigned char)*c) ||
                  *c == '_'))
                return err_set(err, PT_EDATA, "%s: names are lower_snake_case",
                               where);
        memcpy(r->name, name, strlen(name) + 1);
        if ((rc = pt_json_get_str(v, "type", &type, where, err)) < 0)
            return rc;
        def = json_object_get(v, "default");
        {
            const char *fp = NULL;
            if ((rc = pt_json_opt_str(v, "from_page_size", &fp, where, err)) <
                0)
                return rc;
            if (fp && strcmp(fp, "bytes") == 0)
                r->page_size_unit = 1;
            else if (fp && strcmp(fp, "k") == 0)
                r->page_size_unit = 1024;
            else if (fp)
                return err_set(err, PT_EDATA,
                               "%s: from_page_size must be bytes or k", where);
        }
        if (strcmp(type, "int") == 0) {
            r->is_int = 1;
            if ((rc = pt_json_get_u64(v, "min", &r->min, where, err)) < 0 ||
                (rc = pt_json_get_u64(v, "max", &r->max, where, err)) < 0)
                return rc;
            if (r->min > r->max)
                return err_set(err, PT_EDATA, "%s: min > max", where);
        } else if (strcmp(type, "word") == 0) {
            words = json_object_get(v, "values");
            if (!json_is_array(words) || json_array_size(words) == 0 ||
                json_array_size(words) > DDL_MAX_WORDS)
                return err_set(err, PT_EDATA,
                               "%s: 'values' must list 1..%d keywords", where,
                               DDL_MAX_WORDS);
            json_array_foreach(words, i, w)
            {
                const char *s = json_string_value(w);
                if (!s || !*s || strlen(s) >= sizeof(r->words[0]))
                    return err_set(err, PT_EDATA, "%s: values[%zu] invalid",
                                   where, i);
                for (const char *c = s; *c; c++)
                    if (!(isalnum((unsigned char)*c) || *c == '_'))
                        return err_set(err, PT_EDATA,
                                       "%s: values[%zu] must be a keyword",
                                       where, i);
                memcpy(r->words[i], s, strlen(s) + 1);
            }
            r->n_words = json_array_size(words);
        } else {
            return err_set(err, PT_EDATA, "%s: type must be int or word",
                           where);
        }
        if (def) {
            char buf[64];
            if ((rc = ddl_setting_check(r, def, where, buf, sizeof(buf), err)) <
                0)
                return rc;
            memcpy(r->def, buf, strlen(buf) + 1);
            r->has_default = 1;
        }
        d->n_settings++;
    }
    return 0;
}

/* is s "VAR" or "VAR=VALUE": VAR [a-z_][a-z0-9_]*, VALUE [A-Za-z0-9_]+ */
static int step_when_valid(const char *s)
{
    const char *eq = strchr(s, '=');

    if (!(islower((unsigned char)*s) || *s == '_'))
        return 0;
    for (const char *c = s; *c && c != eq; c++)
        if (!(islower((unsigned char)*c) || isdigit((unsigned char)*c) ||
              *c == '_'))
            return 0;
    if (!eq)
        return 1;
    if (!eq[1])
        return 0;
    for (const char *c = eq + 1; *c; c++)
        if (!(isalnum((unsigned char)*c) || *c == '_'))
            return 0;
    return 1;
}

/* destructive: [{text, when?}]: the steps the report's Action box names */
static int steps_from_json(struct ddl_dialect *d, const json_t *o,
                           const char *ctx, struct pt_err *err)
{
    size_t i;
    json_t *v;

    if (!o)
        return 0;
    if (!json_is_array(o) || json_array_size(o) > DDL_MAX_STEPS)
        return err_set(err, PT_EDATA,
                       "%s: 'destructive' must list at most %d steps", ctx,
                       DDL_MAX_STEPS);
    json_array_foreach(o, i, v)
    {
        struct ddl_step *st = &d->steps[i];
        const char *text = NULL, *when = NULL;
        char where[256];
        int rc;

        snprintf(where, sizeof(where), "%s: destructive[%zu]", ctx, i);
        if ((rc = pt_json_get_str(v, "text", &text, where, err)) < 0 ||
            (rc = pt_json_opt_str(v, "when", &when, where, err)) < 0)
            return rc;
        if (!*text || strlen(text) >= sizeof(st->text))
            return err_set(err, PT_EDATA, "%s: 'text' must be 1..%zu bytes",
                           where, sizeof(st->text) - 1);
        for (const char *c = text; *c; c++)
            if ((unsigned char)*c < 0x20)
                return err_set(err, PT_EDATA,
                               "%s: 'text' is one line without control "
                               "characters",
                               where);
        if (when &&
            (strlen(when) >= sizeof(st->when) || !step_when_valid(when)))
            return err_set(err, PT_EDATA,
                           "%s: 'when' must be VAR or VAR=VALUE (VAR a "
                           "template variable)",
                           where);
        memcpy(st->text, text, strlen(text) + 1);
        if (when)
            memcpy(st->when, when, strlen(when) + 1);
        d->n_steps++;
    }
    return 0;
}

int ddl_setting_check(const struct ddl_setting_rule *r, const json_t *value,
                      const char *what, char *out, size_t out_len,
                      struct pt_err *err)
{
    if (!value) {
        if (!r->has_default)
            return err_set(err, PT_EDATA,
                           "%s: setting '%s' is missing and has no default "
                           "(a recommendation for this engine gives it)",
                           what, r->name);
        snprintf(out, out_len, "%s", r->def);
        return 0;
    }
    if (r->is_int) {
        json_int_t v;
        if (!json_is_integer(value) || (v = json_integer_value(value)) < 0 ||
            (uint64_t)v < r->min || (uint64_t)v > r->max)
            return err_set(err, PT_EDATA,
                           "%s: setting '%s' must be an integer in "
                           "%llu..%llu",
                           what, r->name, (unsigned long long)r->min,
                           (unsigned long long)r->max);
        snprintf(out, out_len, "%lld", (long long)v);
        return 0;
    }
    if (json_is_string(value))
        for (size_t i = 0; i < r->n_words; i++)
            if (strcasecmp(json_string_value(value), r->words[i]) == 0) {
                snprintf(out, out_len, "%s", r->words[i]);
                return 0;
            }
    {
        char list[DDL_MAX_WORDS * 26] = "";
        size_t off = 0;
        for (size_t i = 0; i < r->n_words && off < sizeof(list); i++) {
            int n = snprintf(list + off, sizeof(list) - off, "%s%s",
                             i ? ", " : "", r->words[i]);
            off += n > 0 ? (size_t)n : 0;
        }
        return err_set(err, PT_EDATA, "%s: setting '%s' must be one of %s",
                       what, r->name, list);
    }
}

int ddl_dialect_has_kind(const struct ddl_dialect *d, const char *kind)
{
    for (size_t i = 0; i < d->n_rules; i++)
        if (strcmp(d->rules[i].kind, kind) == 0)
            return 1;
    return 0;
}

int ddl_dialect_from_json(struct ddl_dialect *d, const json_t *doc,
                          const char *ctx, struct pt_err *err)
{
    const json_t *ids, *ps, *v, *pf;
    const char *name, *fold = "upper", *kind;
    size_t i;
    int rc;

    memset(d, 0, sizeof(*d));
    if (!json_is_object(doc))
        return err_set(err, PT_EDATA, "%s: a dialect file is a mapping", ctx);
    if ((rc = pt_json_get_str(doc, "name", &name, ctx, err)) < 0)
        return rc;
    if (!*name || strlen(name) >= sizeof(d->name))
        return err_set(err, PT_EDATA, "%s: 'name' is invalid", ctx);
    memcpy(d->name, name, strlen(name) + 1);
    ids = json_object_get(doc, "identifiers");
    if (!json_is_object(ids) || json_object_size(ids) == 0 ||
        json_object_size(ids) > DDL_MAX_KINDS)
        return err_set(err, PT_EDATA,
                       "%s: 'identifiers' must map 1..%d kinds to rules", ctx,
                       DDL_MAX_KINDS);
    json_object_foreach((json_t *)ids, kind, v)
    {
        if ((rc = rule_from_json(&d->rules[d->n_rules], kind, v, ctx, err)) < 0)
            return rc;
        d->n_rules++;
    }
    if ((rc = pt_json_opt_str(doc, "fold_case", &fold, ctx, err)) < 0)
        return rc;
    if (strcmp(fold, "upper") == 0)
        d->fold_upper = 1;
    else if (strcmp(fold, "lower") == 0)
        d->fold_lower = 1;
    else if (strcmp(fold, "none") != 0)
        return err_set(err, PT_EDATA,
                       "%s: fold_case must be upper, lower or none", ctx);
    ps = json_object_get(doc, "page_sizes");
    if (!json_is_array(ps) || json_array_size(ps) == 0 ||
        json_array_size(ps) > DDL_MAX_PAGE_SIZES)
        return err_set(err, PT_EDATA, "%s: 'page_sizes' must be a list", ctx);
    json_array_foreach(ps, i, v)
    {
        if (!json_is_integer(v) || json_integer_value(v) <= 0 ||
            json_integer_value(v) > (1 << 20))
            return err_set(err, PT_EDATA, "%s: page_sizes[%zu] is invalid", ctx,
                           i);
        d->page_sizes[i] = (uint32_t)json_integer_value(v);
    }
    d->n_page_sizes = json_array_size(ps);
    /* DB2-style ranges: optional for engines without those objects */
    d->has_extent = json_object_get(doc, "extent_size") != NULL;
    d->has_prefetch = json_object_get(doc, "prefetch_size") != NULL;
    d->has_pool = json_object_get(doc, "bufferpool_pages") != NULL;
    if ((d->has_extent &&
         (rc = get_range_u32(doc, "extent_size", &d->extent_min, &d->extent_max,
                             ctx, err)) < 0) ||
        (d->has_prefetch &&
         (rc = get_range_u32(doc, "prefetch_size", &d->prefetch_min,
                             &d->prefetch_max, ctx, err)) < 0) ||
        (d->has_pool &&
         (rc = get_range_u64(doc, "bufferpool_pages", &d->pool_min,
                             &d->pool_max, ctx, err)) < 0))
        return rc;
    pf = json_object_get(json_object_get(doc, "prefetch_size"), "automatic");
    d->prefetch_automatic = json_is_true(pf);
    /* IBM's storage-group defaults unless the dialect names its own */
    d->default_overhead_ms = 6.725;
    d->default_read_rate_mb_s = 100;
    if ((json_object_get(doc, "default_overhead_ms") &&
         (rc = pt_json_get_num(doc, "default_overhead_ms",
                               &d->default_overhead_ms, ctx, err)) < 0) ||
        (json_object_get(doc, "default_read_rate_mb_s") &&
         (rc = pt_json_get_num(doc, "default_read_rate_mb_s",
                               &d->default_read_rate_mb_s, ctx, err)) < 0))
        return rc;
    if ((rc = settings_from_json(d, json_object_get(doc, "settings"), ctx,
                                 err)) < 0 ||
        (rc = steps_from_json(d, json_object_get(doc, "destructive"), ctx,
                              err)) < 0 ||
        (rc = ddl_quote_from_json(d, doc, ctx, err)) < 0)
        return rc;
    if (!(d->default_read_rate_mb_s > 0) || !(d->default_overhead_ms >= 0))
        return err_set(err, PT_EDATA, "%s: default device figures must be > 0",
                       ctx);
    return 0;
}

int ddl_dialect_has_page(const struct ddl_dialect *d, uint32_t page_size)
{
    for (size_t i = 0; i < d->n_page_sizes; i++)
        if (d->page_sizes[i] == page_size)
            return 1;
    return 0;
}

/* Quote an untrusted identifier for a message: printable ASCII only. */
static void quote_ident(const char *s, char *buf, size_t len)
{
    size_t o = 0;

    for (; *s && o + 5 < len; s++) {
        unsigned char c = (unsigned char)*s;
        if (c >= 0x20 && c < 0x7f && c != '\'') {
            buf[o++] = (char)c;
        } else {
            o += (size_t)snprintf(buf + o, len - o, "\\x%02x", c);
        }
    }
    if (*s && o + 4 < len) {
        memcpy(buf + o, "...", 3);
        o += 3;
    }
    buf[o < len ? o : len - 1] = '\0';
}

int ddl_ident_check(const struct ddl_dialect *d, const char *kind,
                    const char *ident, const char *what, char *out,
                    size_t out_len, struct pt_err *err)
{
    const struct ddl_ident_rule *r = NULL;
    char q[128];
    size_t len;

    for (size_t i = 0; i < d->n_rules; i++)
        if (strcmp(d->rules[i].kind, kind) == 0)
            r = &d->rules[i];
    if (!r)
        return err_set(err, PT_EINTERNAL, "dialect %s has no rule for %s",
                       d->name, kind);
    quote_ident(ident, q, sizeof(q));
    len = strlen(ident);
    if (len == 0)
        return err_set(err, PT_EDATA, "%s: empty %s name", what, kind);
    if (len > r->max_bytes)
        return err_set(err, PT_EDATA,
                       "%s: %s name '%s' is %zu bytes, %s allows at most %zu",
                       what, kind, q, len, d->name, r->max_bytes);
    if (!isalpha((unsigned char)ident[0]) || (unsigned char)ident[0] > 0x7f)
        return err_set(err, PT_EDATA,
                       "%s: %s name '%s' must start with a letter A-Z", what,
                       kind, q);
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)ident[i];
        if (c > 0x7f || !(isalnum(c) || c == '_'))
            return err_set(err, PT_EDATA,
                           "%s: %s name '%s' may contain only letters, digits "
                           "and '_'",
                           what, kind, q);
    }
    for (size_t i = 0; i < r->n_prefixes; i++) {
        size_t pl = strlen(r->forbidden_prefixes[i]);
        if (len >= pl && strncasecmp(ident, r->forbidden_prefixes[i], pl) == 0)
            return err_set(err, PT_EDATA,
                           "%s: %s name '%s' must not begin with '%s' "
                           "(reserved by %s)",
                           what, kind, q, r->forbidden_prefixes[i], d->name);
    }
    if (out_len <= len)
        return err_set(err, PT_EINTERNAL, "identifier buffer too small");
    for (size_t i = 0; i <= len; i++)
        out[i] = d->fold_upper   ? (char)toupper((unsigned char)ident[i])
                 : d->fold_lower ? (char)tolower((unsigned char)ident[i])
                                 : ident[i];
    return 0;
}

/* ---- variables
 * ---------------------------------------------------------------- */

void ddl_vars_init(struct ddl_vars *v)
{
    memset(v, 0, sizeof(*v));
}

void ddl_vars_release(struct ddl_vars *v)
{
    if (!v)
        return;
    for (size_t i = 0; i < v->n; i++) {
        free(v->names[i]);
        free(v->values[i]);
    }
    free(v->names);
    free(v->values);
    memset(v, 0, sizeof(*v));
}

const char *ddl_vars_get(const struct ddl_vars *v, const char *name)
{
    for (size_t i = 0; i < v->n; i++)
        if (strcmp(v->names[i], name) == 0)
            return v->values[i];
    return NULL;
}

int ddl_vars_set(struct ddl_vars *v, const char *name, const char *fmt, ...)
{
    va_list ap;
    char *val;
    int n;

    va_start(ap, fmt);
    n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0 || !(val = pt_malloc((size_t)n + 1)))
        return PT_EINTERNAL;
    va_start(ap, fmt);
    vsnprintf(val, (size_t)n + 1, fmt, ap);
    va_end(ap);
    for (size_t i = 0; i < v->n; i++)
        if (strcmp(v->names[i], name) == 0) {
            free(v->values[i]);
            v->values[i] = val;
            return 0;
        }
    if (v->n == v->cap) {
        size_t nc = v->cap ? v->cap * 2 : 16;
        char **nn = pt_realloc(v->names, nc * sizeof(char *));
        if (!nn) {
            free(val);
            return PT_EINTERNAL;
        }
        v->names = nn;
        char **nv = pt_realloc(v->values, nc * sizeof(char *));
        if (!nv) {
            free(val);
            return PT_EINTERNAL;
        }
        v->values = nv;
        v->cap = nc;
    }
    v->names[v->n] = pt_strdup(name);
    if (!v->names[v->n]) {
        free(val);
        return PT_EINTERNAL;
    }
    v->values[v->n] = val;
    v->n++;
    return 0;
}

/* ---- rendering
 * ------------------------------------------------------------------ */

int ddl_render(const char *tmpl, size_t len, const char *name,
               const struct ddl_vars *vars, char **out, struct pt_err *err)
{
    struct pt_strbuf b = {0};
    unsigned long line = 1;
    size_t i = 0;
    int rc;

    *out = NULL;
    if ((rc = pt_strbuf_add(&b, "", 0)) < 0)
        return err_set(err, rc, "out of memory rendering '%s'", name);
    while (i < len) {
        size_t start = i;
        while (i < len &&
               !(tmpl[i] == '{' && i + 1 < len && tmpl[i + 1] == '{')) {
            if (tmpl[i] == '\n')
                line++;
            i++;
        }
        if ((rc = pt_strbuf_add(&b, tmpl + start, i - start)) < 0)
            goto oom;
        if (i >= len)
            break;
        /* a placeholder: {{name}} */
        {
            size_t a = i + 2, e = a;
            char key[64];
            const char *val;
            while (e < len && tmpl[e] != '}' && tmpl[e] != '\n' &&
                   e - a < sizeof(key) - 1)
                e++;
            if (e + 1 >= len || tmpl[e] != '}' || tmpl[e + 1] != '}') {
                rc = err_set(err, PT_EDATA,
                             "%s:%lu: unclosed or malformed placeholder '{{'",
                             name, line);
                goto fail;
            }
            if (e == a ||
                !(islower((unsigned char)tmpl[a]) || tmpl[a] == '_')) {
                rc = err_set(err, PT_EDATA,
                             "%s:%lu: bad placeholder '{{%.*s}}' (want "
                             "{{lower_case_name}})",
                             name, line, (int)(e - a), tmpl + a);
                goto fail;
            }
            for (size_t k = a; k < e; k++)
                if (!(islower((unsigned char)tmpl[k]) ||
                      isdigit((unsigned char)tmpl[k]) || tmpl[k] == '_')) {
                    rc = err_set(err, PT_EDATA,
                                 "%s:%lu: bad placeholder '{{%.*s}}' (want "
                                 "{{lower_case_name}})",
                                 name, line, (int)(e - a), tmpl + a);
                    goto fail;
                }
            memcpy(key, tmpl + a, e - a);
            key[e - a] = '\0';
            val = ddl_vars_get(vars, key);
            if (!val) {
                rc = err_set(err, PT_EDATA,
                             "%s:%lu: unknown placeholder '{{%s}}'", name, line,
                             key);
                goto fail;
            }
            if ((rc = pt_strbuf_add(&b, val, strlen(val))) < 0)
                goto oom;
            i = e + 2;
        }
    }
    *out = b.p;
    return 0;
oom:
    rc = err_set(err, PT_EINTERNAL, "out of memory rendering '%s'", name);
fail:
    free(b.p);
    return rc;
}

int ddl_comment_block(const char *const *texts, size_t n, const char *prefix,
                      size_t width, char **out, struct pt_err *err)
{
    struct pt_strbuf b = {0};
    size_t plen = strlen(prefix);

    *out = NULL;
    if (pt_strbuf_add(&b, "", 0) < 0)
        return err_set(err, PT_EINTERNAL, "out of memory");
    if (width < plen + 20)
        width = plen + 20;
    for (size_t t = 0; t < n; t++) {
        char *clean = pt_strdup(texts[t] ? texts[t] : "");
        char *s;
        int first = 1;
        if (!clean)
            goto oom;
        for (char *c = clean; *c; c++)
            if ((unsigned char)*c < 0x20 || (unsigned char)*c == 0x7f)
                *c = ' ';
        s = clean;
        while (*s == ' ')
            s++;
        do {
            size_t room = width - plen - 2, len = strlen(s), cut = len;
            if (len > room) {
                cut = room;
                while (cut > room / 2 && s[cut] != ' ')
                    cut--;
                if (s[cut] != ' ')
                    cut = room;
            }
            if ((b.len && pt_strbuf_add(&b, "\n", 1) < 0) ||
                pt_strbuf_add(&b, prefix, plen) < 0 ||
                pt_strbuf_add(&b, first ? "- " : "  ", 2) < 0 ||
                pt_strbuf_add(&b, s, cut) < 0) {
                free(clean);
                goto oom;
            }
            first = 0;
            s += cut;
            while (*s == ' ')
                s++;
        } while (*s);
        free(clean);
    }
    *out = b.p;
    return 0;
oom:
    free(b.p);
    return err_set(err, PT_EINTERNAL, "out of memory");
}
