/* SPDX-License-Identifier: Apache-2.0 */
/*
 * json.c — JSON in and out through jansson: loading with file:line errors,
 * atomic writing, and typed getters that name the file and key on error.
 */
#include "core/core.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static int load_error(const char *name, const json_error_t *je,
                      struct pt_err *err)
{
    /* jansson leaves the text empty when its own buffers fail to allocate */
    if (json_error_code(je) == json_error_out_of_memory || !je->text[0])
        return err_set(err, PT_EINTERNAL, "%s: out of memory", name);
    if (je->line > 0)
        return err_set(err, PT_EDATA, "%s:%d:%d: invalid JSON: %s", name,
                       je->line, je->column, je->text);
    return err_set(err, PT_EDATA, "%s: invalid JSON: %s", name, je->text);
}

int pt_json_load(const char *path, json_t **out, struct pt_err *err)
{
    char *buf;
    size_t len;
    int rc = pt_file_read(path, &buf, &len, err);

    if (rc < 0)
        return rc;
    rc = pt_json_loadb(buf, len, path, out, err);
    free(buf);
    return rc;
}

int pt_json_loadb(const char *buf, size_t len, const char *name, json_t **out,
                  struct pt_err *err)
{
    json_error_t je;

    memset(&je, 0, sizeof(je)); /* jansson may leave the code byte unset */

    *out = json_loadb(buf, len, JSON_REJECT_DUPLICATES, &je);
    if (!*out)
        return load_error(name, &je, err);
    return 0;
}

/*
 * Numbers: a real whose value is a whole number (a page size, a page count
 * or byte count carried in a double) is written as an integer, "16384"
 * rather than jansson's "16384.0", so that a reader declaring the field an
 * integer accepts it; JSON has one number type (RFC 8259 §6), so nothing
 * else changes. Only magnitudes below 2^53, where every integer is exact
 * in a double, are converted. Rewrites `v` in place.
 */
static int whole(double d)
{
    return d > -9007199254740992.0 && d < 9007199254740992.0 &&
           d == (double)(json_int_t)d;
}

static int integral_reals(json_t *v)
{
    const char *key;
    json_t *x;
    size_t i;

    if (json_is_object(v)) {
        json_object_foreach(v, key, x)
        {
            if (json_is_real(x)) {
                double d = json_real_value(x);
                if (whole(d) &&
                    json_object_set_new(v, key, json_integer((json_int_t)d)))
                    return -1;
            } else if (integral_reals(x) < 0)
                return -1;
        }
    } else if (json_is_array(v)) {
        json_array_foreach(v, i, x)
        {
            if (json_is_real(x)) {
                double d = json_real_value(x);
                if (whole(d) &&
                    json_array_set_new(v, i, json_integer((json_int_t)d)))
                    return -1;
            } else if (integral_reals(x) < 0)
                return -1;
        }
    }
    return 0;
}

int pt_json_whole_numbers(json_t *doc)
{
    return integral_reals(doc);
}

/* Does `v` hold a real that integral_reals() would rewrite? */
static int has_whole_real(const json_t *v)
{
    const char *key;
    json_t *x;
    size_t i;

    if (json_is_real(v))
        return whole(json_real_value(v));
    if (json_is_object(v)) {
        json_object_foreach((json_t *)v, key, x)
        {
            if (has_whole_real(x))
                return 1;
        }
    } else if (json_is_array(v)) {
        json_array_foreach(v, i, x)
        {
            if (has_whole_real(x))
                return 1;
        }
    }
    return 0;
}

char *pt_json_dumps(const json_t *doc)
{
    json_t *copy = NULL;
    char *text;

    if (has_whole_real(doc) &&
        (!(copy = json_deep_copy(doc)) || integral_reals(copy) < 0)) {
        json_decref(copy);
        return NULL;
    }
    text = json_dumps(copy ? copy : doc, JSON_INDENT(2) | JSON_PRESERVE_ORDER |
                                             JSON_REAL_PRECISION(10));
    json_decref(copy);
    return text;
}

int pt_json_dumpf(const json_t *doc, FILE *fp, struct pt_err *err)
{
    json_t *copy = NULL;
    int rc;

    /* copy only when a number changes (a sizes document with every value
       is all integers already) */
    if (has_whole_real(doc) &&
        (!(copy = json_deep_copy(doc)) || integral_reals(copy) < 0)) {
        json_decref(copy);
        return err_set(err, PT_EINTERNAL, "out of memory writing JSON");
    }
    rc = json_dumpf(copy ? copy : doc, fp,
                    JSON_INDENT(2) | JSON_PRESERVE_ORDER |
                        JSON_REAL_PRECISION(10));
    json_decref(copy);
    if (rc != 0 || fputc('\n', fp) == EOF) {
        /* json_dumpf also fails when its buffers cannot be allocated */
        if (!ferror(fp))
            return err_set(err, PT_EINTERNAL, "out of memory writing JSON");
        return err_set(err, PT_EIO, "cannot write JSON: %s", strerror(errno));
    }
    return 0;
}

int pt_json_write_file(const json_t *doc, const char *path, int force,
                       struct pt_err *err)
{
    struct pt_afile af;
    int rc = pt_afile_open(&af, path, force, err);

    if (rc < 0)
        return rc;
    rc = pt_json_dumpf(doc, af.fp, err);
    if (rc < 0) {
        pt_afile_abort(&af);
        return err_prefix(err, "'%s'", path);
    }
    return pt_afile_commit(&af, err);
}

static int get_key(const json_t *obj, const char *key, json_t **v,
                   const char *ctx, struct pt_err *err)
{
    if (!json_is_object(obj))
        return err_set(err, PT_EDATA, "%s: expected a JSON object", ctx);
    *v = json_object_get(obj, key);
    if (!*v)
        return err_set(err, PT_EDATA, "%s: missing key '%s'", ctx, key);
    return 0;
}

int pt_json_get_num(const json_t *obj, const char *key, double *out,
                    const char *ctx, struct pt_err *err)
{
    json_t *v;
    int rc = get_key(obj, key, &v, ctx, err);

    if (rc < 0)
        return rc;
    if (!json_is_number(v))
        return err_set(err, PT_EDATA, "%s: '%s' must be a number", ctx, key);
    *out = json_number_value(v);
    return 0;
}

int pt_json_whole(const json_t *v, json_int_t *out)
{
    double d;

    if (json_is_integer(v)) {
        *out = json_integer_value(v);
        return 1;
    }
    if (!json_is_real(v))
        return 0;
    d = json_real_value(v);
    if (!(d > -9007199254740992.0 && d < 9007199254740992.0) ||
        d != (double)(json_int_t)d)
        return 0;
    *out = (json_int_t)d;
    return 1;
}

int pt_json_get_u64(const json_t *obj, const char *key, uint64_t *out,
                    const char *ctx, struct pt_err *err)
{
    json_t *v;
    int rc = get_key(obj, key, &v, ctx, err);

    if (rc < 0)
        return rc;
    if (json_is_integer(v) && json_integer_value(v) >= 0) {
        *out = (uint64_t)json_integer_value(v);
        return 0;
    }
    if (json_is_real(v) && json_real_value(v) >= 0 &&
        json_real_value(v) < 1.8e19 &&
        json_real_value(v) == (double)(uint64_t)json_real_value(v)) {
        *out = (uint64_t)json_real_value(v);
        return 0;
    }
    return err_set(err, PT_EDATA, "%s: '%s' must be a non-negative integer",
                   ctx, key);
}

int pt_json_get_str(const json_t *obj, const char *key, const char **out,
                    const char *ctx, struct pt_err *err)
{
    json_t *v;
    int rc = get_key(obj, key, &v, ctx, err);

    if (rc < 0)
        return rc;
    if (!json_is_string(v))
        return err_set(err, PT_EDATA, "%s: '%s' must be a string", ctx, key);
    *out = json_string_value(v);
    return 0;
}

int pt_json_opt_num(const json_t *obj, const char *key, double *out,
                    const char *ctx, struct pt_err *err)
{
    if (json_is_object(obj) && !json_object_get(obj, key))
        return 0;
    return pt_json_get_num(obj, key, out, ctx, err);
}

int pt_json_opt_u64(const json_t *obj, const char *key, uint64_t *out,
                    const char *ctx, struct pt_err *err)
{
    if (json_is_object(obj) && !json_object_get(obj, key))
        return 0;
    return pt_json_get_u64(obj, key, out, ctx, err);
}

int pt_json_opt_str(const json_t *obj, const char *key, const char **out,
                    const char *ctx, struct pt_err *err)
{
    if (json_is_object(obj) && !json_object_get(obj, key))
        return 0;
    return pt_json_get_str(obj, key, out, ctx, err);
}

/* The members that mark each document, the first two named in errors. */
static const struct doc_mark {
    const char *kind, *a, *b, *c; /* all present; c may be NULL */
} doc_marks[] = {
    {"replay", "trace", "results", "rounds"},
    {"simulation", "trace", "results", NULL},
    {"recommendation", "candidates", "decided_by", NULL},
    {"monitor", "current", "summary", NULL},
    {"sizes", "p50", "histogram", NULL},
    {"sizes", "p50", "values", NULL},
};

static const struct doc_mark *doc_mark_of(const json_t *doc)
{
    if (!json_is_object(doc))
        return NULL;
    for (size_t i = 0; i < sizeof(doc_marks) / sizeof(doc_marks[0]); i++) {
        const struct doc_mark *m = &doc_marks[i];
        if (json_object_get(doc, m->a) && json_object_get(doc, m->b) &&
            (!m->c || json_object_get(doc, m->c)))
            return m;
    }
    return NULL;
}

const char *pt_json_doc_kind(const json_t *doc)
{
    const struct doc_mark *m = doc_mark_of(doc);
    return m ? m->kind : NULL;
}

int pt_json_wrong_doc(const json_t *doc, const char *want, const char *name,
                      struct pt_err *err)
{
    const struct doc_mark *m = doc_mark_of(doc);

    if (!m || strcmp(m->kind, want) == 0)
        return 0;
    return err_set(err, PT_EDATA,
                   "%s is a %s document (it has '%s' and '%s'), not a %s "
                   "document",
                   name, m->kind, m->a, m->b, want);
}
