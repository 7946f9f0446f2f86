/* SPDX-License-Identifier: Apache-2.0 */
/*
 * prof.c — the profile loader: the only file that includes <yaml.h>.
 * Profiles (profiles/engines, devices, workloads; pagetune-profile(5)) are
 * YAML; this file turns a YAML document into a jansson tree so that the
 * modules reading profiles share one typed-getter vocabulary with JSON.
 * libyaml's event API is used as in its examples: errors are held in the
 * parser object and translated here, once.
 */
#include "core/core.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include <yaml.h>

#ifndef PT_DATA_DIR
#define PT_DATA_DIR "/usr/local/share/pagetune"
#endif

#define PROF_MAX_DEPTH 64

struct yload {
    yaml_parser_t parser;
    const char *name;
    struct pt_err *err;
};

static int parser_error(struct yload *y)
{
    yaml_parser_t *p = &y->parser;
    return err_set(y->err, PT_EDATA, "%s:%lu:%lu: invalid YAML: %s", y->name,
                   (unsigned long)p->problem_mark.line + 1,
                   (unsigned long)p->problem_mark.column + 1,
                   p->problem ? p->problem : "syntax error");
}

static int next_event(struct yload *y, yaml_event_t *ev)
{
    if (!yaml_parser_parse(&y->parser, ev))
        return parser_error(y);
    return 0;
}

/* Plain scalars that look like numbers, booleans or null become those. */
static json_t *scalar_to_json(const yaml_event_t *ev)
{
    const char *s = (const char *)ev->data.scalar.value;
    size_t len = ev->data.scalar.length;
    char *end;

    if (ev->data.scalar.style != YAML_PLAIN_SCALAR_STYLE)
        return json_stringn(s, len);
    if (len == 0 || strcmp(s, "~") == 0 || strcmp(s, "null") == 0)
        return json_null();
    if (strcmp(s, "true") == 0)
        return json_true();
    if (strcmp(s, "false") == 0)
        return json_false();
    if (isdigit((unsigned char)s[0]) ||
        ((s[0] == '-' || s[0] == '+') && isdigit((unsigned char)s[1]))) {
        long long v;
        double d;
        errno = 0;
        v = strtoll(s, &end, 10);
        if (*end == '\0' && errno == 0)
            return json_integer(v);
        errno = 0;
        d = strtod(s, &end);
        /* decimal only: strtod also reads "0x10" (16) and "0x1p4" */
        if (*end == '\0' && errno == 0 && strspn(s, "0123456789+-.eE") == len)
            return json_real(d);
    }
    return json_stringn(s, len);
}

/* Strict UTF-8 (no overlong forms, surrogates or values past U+10FFFF). */
static int utf8_valid(const unsigned char *s, size_t n)
{
    size_t i = 0;

    while (i < n) {
        unsigned c = s[i], need, cp, min;
        if (c < 0x80) {
            i++;
            continue;
        }
        if (c >= 0xc2 && c <= 0xdf)
            need = 1, cp = c & 0x1f, min = 0x80;
        else if (c >= 0xe0 && c <= 0xef)
            need = 2, cp = c & 0x0f, min = 0x800;
        else if (c >= 0xf0 && c <= 0xf4)
            need = 3, cp = c & 0x07, min = 0x10000;
        else
            return 0;
        if (n - i <= need)
            return 0;
        for (unsigned k = 1; k <= need; k++) {
            if ((s[i + k] & 0xc0) != 0x80)
                return 0;
            cp = cp << 6 | (s[i + k] & 0x3f);
        }
        if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
            return 0;
        i += need + 1;
    }
    return 1;
}

/*
 * jansson returned NULL for a scalar or key: either the text is not valid
 * UTF-8 (bad data) or an allocation failed — tell them apart.
 */
static int scalar_failed(struct yload *y, const char *s, size_t len,
                         unsigned long line, const char *what)
{
    if (!utf8_valid((const unsigned char *)s, len))
        return err_set(y->err, PT_EDATA, "%s:%lu: %s is not valid UTF-8",
                       y->name, line, what);
    return err_set(y->err, PT_EINTERNAL, "%s:%lu: out of memory", y->name,
                   line);
}

static int load_node(struct yload *y, yaml_event_t *ev, json_t **out,
                     int depth);

static int load_children(struct yload *y, json_t *coll, int is_map, int depth)
{
    for (;;) {
        yaml_event_t ev;
        json_t *key = NULL, *val = NULL;
        int rc = next_event(y, &ev);

        if (rc < 0)
            return rc;
        if (ev.type == YAML_MAPPING_END_EVENT ||
            ev.type == YAML_SEQUENCE_END_EVENT) {
            yaml_event_delete(&ev);
            return 0;
        }
        if (is_map) {
            unsigned long line = ev.start_mark.line + 1;
            if (ev.type != YAML_SCALAR_EVENT) {
                yaml_event_delete(&ev);
                return err_set(y->err, PT_EDATA,
                               "%s:%lu: mapping keys must be scalars", y->name,
                               line);
            }
            key = json_stringn((const char *)ev.data.scalar.value,
                               ev.data.scalar.length);
            if (!key)
                rc = scalar_failed(y, (const char *)ev.data.scalar.value,
                                   ev.data.scalar.length, line, "key");
            yaml_event_delete(&ev);
            if (!key)
                return rc;
            if (json_object_get(coll, json_string_value(key))) {
                rc = err_set(y->err, PT_EDATA, "%s:%lu: duplicate key '%s'",
                             y->name, line, json_string_value(key));
                json_decref(key);
                return rc;
            }
            rc = next_event(y, &ev);
            if (rc < 0) {
                json_decref(key);
                return rc;
            }
        }
        rc = load_node(y, &ev, &val, depth + 1);
        yaml_event_delete(&ev);
        if (rc < 0) {
            json_decref(key);
            return rc;
        }
        /* both steal val, also when they fail (out of memory) */
        if (is_map) {
            rc = json_object_set_new(coll, json_string_value(key), val);
            json_decref(key);
        } else {
            rc = json_array_append_new(coll, val);
        }
        if (rc != 0)
            return err_set(y->err, PT_EINTERNAL, "%s: out of memory", y->name);
    }
}

static int load_node(struct yload *y, yaml_event_t *ev, json_t **out, int depth)
{
    unsigned long line = ev->start_mark.line + 1;
    int rc;

    if (depth > PROF_MAX_DEPTH)
        return err_set(y->err, PT_EDATA, "%s:%lu: nesting deeper than %d",
                       y->name, line, PROF_MAX_DEPTH);
    switch (ev->type) {
    case YAML_SCALAR_EVENT:
        *out = scalar_to_json(ev);
        if (!*out)
            return scalar_failed(y, (const char *)ev->data.scalar.value,
                                 ev->data.scalar.length, line, "value");
        return 0;
    case YAML_SEQUENCE_START_EVENT:
    case YAML_MAPPING_START_EVENT: {
        int is_map = ev->type == YAML_MAPPING_START_EVENT;
        json_t *coll = is_map ? json_object() : json_array();
        if (!coll)
            return err_set(y->err, PT_EINTERNAL, "out of memory");
        rc = load_children(y, coll, is_map, depth);
        if (rc < 0) {
            json_decref(coll);
            return rc;
        }
        *out = coll;
        return 0;
    }
    case YAML_ALIAS_EVENT:
        return err_set(y->err, PT_EDATA,
                       "%s:%lu: YAML aliases are not supported in profiles",
                       y->name, line);
    default:
        return err_set(y->err, PT_EDATA, "%s:%lu: unexpected YAML event",
                       y->name, line);
    }
}

int prof_loadb(const char *buf, size_t len, const char *name, json_t **out,
               struct pt_err *err)
{
    struct yload y = {.name = name, .err = err};
    yaml_event_t ev;
    json_t *root = NULL;
    int rc, done = 0;

    *out = NULL;
    if (!yaml_parser_initialize(&y.parser))
        return err_set(err, PT_EINTERNAL, "cannot initialise YAML parser");
    yaml_parser_set_input_string(&y.parser, (const unsigned char *)buf, len);
    while (!done) {
        rc = next_event(&y, &ev);
        if (rc < 0)
            goto out;
        switch (ev.type) {
        case YAML_STREAM_START_EVENT:
        case YAML_DOCUMENT_END_EVENT:
            break;
        case YAML_DOCUMENT_START_EVENT:
            if (root) {
                yaml_event_delete(&ev);
                rc = err_set(err, PT_EDATA, "%s: more than one YAML document",
                             name);
                goto out;
            }
            break;
        case YAML_STREAM_END_EVENT:
            done = 1;
            break;
        default:
            if (root) {
                yaml_event_delete(&ev);
                rc = err_set(err, PT_EDATA, "%s: unexpected content", name);
                goto out;
            }
            rc = load_node(&y, &ev, &root, 0);
            if (rc < 0) {
                yaml_event_delete(&ev);
                goto out;
            }
        }
        yaml_event_delete(&ev);
    }
    if (!root || !json_is_object(root)) {
        rc = err_set(err, PT_EDATA, "%s: a profile must be a YAML mapping",
                     name);
        goto out;
    }
    *out = root;
    root = NULL;
    rc = 0;
out:
    json_decref(root);
    yaml_parser_delete(&y.parser);
    return rc;
}

int prof_load(const char *path, json_t **out, struct pt_err *err)
{
    char *buf;
    size_t len;
    int rc = pt_file_read(path, &buf, &len, err);

    if (rc < 0)
        return rc;
    rc = prof_loadb(buf, len, path, out, err);
    free(buf);
    return rc;
}

static int is_dir(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

const char *pt_data_dir(void)
{
    static char exe_rel[4096]; /* computed once; same answer every call */
    const char *env = getenv("PAGETUNE_DATA_DIR");
    char exe[2048];
    ssize_t n;

    if (env && *env)
        return env;
    if (is_dir(PT_DATA_DIR "/profiles"))
        return PT_DATA_DIR;
    n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
    if (n > 0) {
        char *slash;
        exe[n] = '\0';
        slash = strrchr(exe, '/');
        if (slash) {
            *slash = '\0';
            snprintf(exe_rel, sizeof(exe_rel), "%s/../share/pagetune", exe);
            if (is_dir(exe_rel))
                return exe_rel;
#ifdef PT_SOURCE_DIR
            if (is_dir(PT_SOURCE_DIR "/profiles"))
                return PT_SOURCE_DIR;
#endif
        }
    }
    return PT_DATA_DIR;
}

static int ends_with(const char *s, const char *suf)
{
    size_t a = strlen(s), b = strlen(suf);
    return a >= b && strcmp(s + a - b, suf) == 0;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The error of a profile name with no file: the names there, the closest. */
static int unknown_profile(const char *kind, const char *name,
                           struct pt_err *err)
{
    char dir[4096], list[1024] = "", hint[160] = "";
    char names[64][64];
    const char *sorted[64];
    size_t n = 0, used = 0;
    struct pt_suggest sg;
    struct dirent *e;
    DIR *d;

    snprintf(dir, sizeof(dir), "%s/profiles/%s", pt_data_dir(), kind);
    if ((d = opendir(dir)) != NULL) {
        while (n < 64 && (e = readdir(d)) != NULL) {
            size_t l = strlen(e->d_name);
            if (e->d_name[0] == '.' || !ends_with(e->d_name, ".yaml") ||
                l - 5 >= sizeof(names[0]))
                continue;
            snprintf(names[n], sizeof(names[n]), "%.*s", (int)(l - 5),
                     e->d_name);
            sorted[n] = names[n];
            n++;
        }
        closedir(d);
    }
    qsort(sorted, n, sizeof(sorted[0]), cmp_str);
    pt_suggest_init(&sg, name);
    for (size_t i = 0; i < n; i++) {
        int w = snprintf(list + used, sizeof(list) - used, "%s%s",
                         i ? ", " : "", sorted[i]);
        if (w > 0 && (size_t)w < sizeof(list) - used)
            used += (size_t)w;
        pt_suggest_add(&sg, sorted[i]);
    }
    if (pt_suggest_best(&sg))
        snprintf(hint, sizeof(hint), "; did you mean '%s'?",
                 pt_suggest_best(&sg));
    /* "workloads" → "workload" */
    if (!n)
        return err_set(err, PT_EUSAGE,
                       "no %.*s profile '%s': no profiles in '%s' (set "
                       "PAGETUNE_DATA_DIR to the folder holding profiles/)",
                       (int)(strlen(kind) - 1), kind, name, dir);
    return err_set(err, PT_EUSAGE, "no %.*s profile '%s' (the profiles: %s)%s",
                   (int)(strlen(kind) - 1), kind, name, list, hint);
}

int prof_resolve(const char *kind, const char *name, char *buf, size_t len,
                 struct pt_err *err)
{
    int n;

    if (!name || !*name)
        return err_set(err, PT_EUSAGE, "empty %s profile name", kind);
    if (strchr(name, '/') || ends_with(name, ".yaml") ||
        ends_with(name, ".yml"))
        n = snprintf(buf, len, "%s", name);
    else
        n = snprintf(buf, len, "%s/profiles/%s/%s.yaml", pt_data_dir(), kind,
                     name);
    if (n < 0 || (size_t)n >= len)
        return err_set(err, PT_EUSAGE, "%s profile path too long", kind);
    if (!strchr(name, '/') && !ends_with(name, ".yaml") &&
        !ends_with(name, ".yml") && access(buf, F_OK) != 0)
        return unknown_profile(kind, name, err);
    return 0;
}

int prof_load_named(const char *kind, const char *name, json_t **out,
                    struct pt_err *err)
{
    char path[4096];
    int rc = prof_resolve(kind, name, path, sizeof(path), err);

    if (rc < 0)
        return rc;
    return prof_load(path, out, err);
}
