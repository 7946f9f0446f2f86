/* SPDX-License-Identifier: Apache-2.0 */
/*
 * profiles.c — the one loader of engine and device profiles
 * (rec_profiles_load): by name from the data directory or by file, through
 * core's profile loader, into the model's struct rec_engine and struct
 * rec_device. The only I/O of model/.
 *
 * Neighbours: core/prof.c (the YAML loader), engine.c (the profiles'
 * meaning), recommend/run.c and the commands (callers).
 */
#include "model/model.h"

#include <string.h>

/* One profile of `kind` by name or file into *doc; path receives it. A
   bare name with no profile is prof_resolve's error: the names there and
   the closest one. */
static int load_one(const char *kind, const char *name, char *path, size_t len,
                    json_t **doc, struct pt_err *err)
{
    int rc;

    if ((rc = prof_resolve(kind, name, path, len, err)) < 0)
        return rc;
    return prof_load(path, doc, err);
}

int rec_engine_load(const char *name, struct rec_engine *e, json_t **doc,
                    char *path, size_t len, struct pt_err *err)
{
    json_t *p = NULL;
    int rc;

    if (doc)
        *doc = NULL;
    if ((rc = load_one("engines", name, path, len, &p, err)) < 0)
        return rc;
    rc = rec_engine_from_json(e, p, path, err);
    if (rc == 0 && doc)
        *doc = p; /* the caller reads its own sections (perf:) */
    else
        json_decref(p);
    return rc;
}

int rec_device_load(const char *name, struct rec_device *d, char *path,
                    size_t len, struct pt_err *err)
{
    json_t *p = NULL;
    int rc;

    if ((rc = load_one("devices", name, path, len, &p, err)) < 0)
        return rc;
    rc = rec_device_from_json(d, p, path, err);
    json_decref(p);
    return rc;
}

int rec_profiles_load(const char *engine, const char *device,
                      struct rec_engine *e, struct rec_device *d, char *epath,
                      char *dpath, size_t len, struct pt_err *err)
{
    int rc = rec_engine_load(engine, e, NULL, epath, len, err);

    if (rc < 0 || !d)
        return rc;
    return rec_device_load(device, d, dpath, len, err);
}
