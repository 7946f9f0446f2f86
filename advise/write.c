/* SPDX-License-Identifier: Apache-2.0 */
/*
 * write.c — the out-dir of an advise run: sizes.json and monitor.json
 * (collect/'s writers), recommendation.json, simulation.json, replay.json
 * (each module's document), create.sql, rollback.sql and report.html (the
 * caller's renderer). Every file is written to a temporary file first and
 * renamed only once all of them are complete, so a failure while writing
 * leaves the old files; a directory this run created is removed again
 * when nothing could be written into it.
 *
 * All out-dir handling is in out_dir_unit(), the one function to swap for
 * core's out-dir-as-one-unit API (pt_outdir_*) when it lands.
 * Neighbours: pipeline.c fills the result, cli/cmd_advise.c calls
 * adv_out_dir_check() before the run and adv_result_write() after it.
 */
#include "advise/advise.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Write file f of r to fp. */
static int write_one(const struct adv_config *c, const struct adv_result *r,
                     enum adv_file f, FILE *fp, struct pt_err *err)
{
    switch (f) {
    case ADV_F_SIZES:
        return coll_sizes_doc_write(&r->sizes, 1, fp, err);
    case ADV_F_MONITOR:
        return pt_json_dumpf(r->monitor_doc, fp, err);
    case ADV_F_REC:
        return pt_json_dumpf(r->rec_doc, fp, err);
    case ADV_F_SIM:
        return pt_json_dumpf(r->sim_doc, fp, err);
    case ADV_F_REPLAY:
        return pt_json_dumpf(r->replay_doc, fp, err);
    case ADV_F_CREATE:
    case ADV_F_ROLLBACK:
        if (fputs(f == ADV_F_CREATE ? r->create_sql : r->rollback_sql, fp) ==
            EOF)
            return err_set(err, PT_EIO, "cannot write: %s", strerror(errno));
        return 0;
    case ADV_F_REPORT:
        return c->render_report(r->model, fp, err);
    case ADV_F_COUNT:
        break;
    }
    return err_set(err, PT_EINTERNAL, "no file %d", (int)f);
}

/* Whether r has file f to write. */
static int has_file(const struct adv_config *c, const struct adv_result *r,
                    enum adv_file f)
{
    if (f == ADV_F_SIM)
        return r->have_sim;
    if (f == ADV_F_REPLAY)
        return r->have_replay;
    if (f == ADV_F_REPORT)
        return c->render_report != NULL;
    return 1;
}

/*
 * The out-dir: with r == NULL only check that it can take the files
 * (before any work); else write r's files as one unit.
 */
static int out_dir_unit(const struct adv_config *c, const struct adv_result *r,
                        struct pt_err *err)
{
    struct pt_afile af[ADV_F_COUNT];
    char path[4200];
    struct stat st;
    int rc = 0, created = 0, f;

    memset(af, 0, sizeof(af));
    if (stat(c->out_dir, &st) == 0) {
        if (!S_ISDIR(st.st_mode))
            return err_set(err, PT_ECANTCREAT,
                           "--out-dir '%s' exists and is not a directory",
                           c->out_dir);
    } else if (!r) {
        return 0; /* created when the files are written */
    } else if (mkdir(c->out_dir, 0777) != 0) {
        return err_set(err, PT_ECANTCREAT, "cannot create --out-dir '%s': %s",
                       c->out_dir, strerror(errno));
    } else {
        created = 1;
    }
    if (access(c->out_dir, W_OK) != 0)
        return err_set(err, PT_ECANTCREAT, "cannot write to --out-dir '%s'",
                       c->out_dir);
    for (f = 0; f < ADV_F_COUNT && rc == 0; f++) {
        snprintf(path, sizeof(path), "%s/%s", c->out_dir,
                 adv_file_name((enum adv_file)f));
        if (!r) {
            rc = pt_output_check(path, c->force, err);
        } else if (has_file(c, r, (enum adv_file)f) &&
                   (rc = pt_afile_open(&af[f], path, c->force, err)) == 0 &&
                   (rc = write_one(c, r, (enum adv_file)f, af[f].fp, err)) < 0)
            rc = err_prefix(err, "'%s'", path);
    }
    for (f = 0; r && f < ADV_F_COUNT; f++) {
        if (!af[f].fp)
            continue;
        if (rc == 0)
            rc = pt_afile_commit(&af[f], err);
        else
            pt_afile_abort(&af[f]);
    }
    if (rc < 0 && created)
        rmdir(c->out_dir); /* only succeeds while it is empty */
    return rc;
}

int adv_out_dir_check(const struct adv_config *c, struct pt_err *err)
{
    return out_dir_unit(c, NULL, err);
}

int adv_result_write(const struct adv_config *c, const struct adv_result *r,
                     struct pt_err *err)
{
    return out_dir_unit(c, r, err);
}
