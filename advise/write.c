/* SPDX-License-Identifier: Apache-2.0 */
/*
 * write.c — the out-dir of an advise run: sizes.json and monitor.json
 * (collect/'s writers), recommendation.json, simulation.json, replay.json
 * (each module's document), create.sql, rollback.sql and report.html (the
 * caller's renderer), replaced as one unit by core's out-dir API
 * (pagetune-advise(1), FILES).
 * Neighbours: pipeline.c fills the result, cli/cmd_advise.c calls
 * adv_out_dir_check() before the run and adv_result_write() after it.
 */
#include "advise/advise.h"

#include <dirent.h>
#include <errno.h>
#include <string.h>

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
    case ADV_F_PROBE:
        if (fputs(r->probe_yaml, fp) == EOF)
            return err_set(err, PT_EIO, "cannot write: %s", strerror(errno));
        return 0;
    case ADV_F_TRACE:
        if (fwrite(r->trace_text, 1, r->trace_len, fp) != r->trace_len)
            return err_set(err, PT_EIO, "cannot write: %s", strerror(errno));
        return 0;
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
    return adv_result_has_file(r, f);
}

int adv_result_has_file(const struct adv_result *r, enum adv_file f)
{
    if (f == ADV_F_SIM)
        return r->have_sim;
    if (f == ADV_F_REPLAY)
        return r->have_replay;
    if (f == ADV_F_PROBE)
        return r->probe_measured && r->probe_yaml;
    if (f == ADV_F_TRACE)
        return r->have_replay && r->trace_text;
    return 1;
}

/*
 * pt_outdir replaces the whole directory: refuse one that holds anything
 * advise does not write (a --out-dir of "." or a home directory with
 * --force would otherwise lose its files). 0 when absent or only ours.
 */
static int foreign_check(const char *dir, struct pt_err *err)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    int rc = 0;

    if (!d)
        return 0; /* absent, or pt_outdir_begin reports why */
    while (rc == 0 && (e = readdir(d)) != NULL) {
        int ours = strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0;
        for (int f = 0; !ours && f < ADV_F_COUNT; f++)
            ours = strcmp(e->d_name, adv_file_name((enum adv_file)f)) == 0;
        if (!ours)
            rc = err_set(err, PT_ECANTCREAT,
                         "out-dir '%s' holds '%s', which advise does not "
                         "write; it replaces the whole directory: give a new "
                         "or an advise out-dir",
                         dir, e->d_name);
    }
    closedir(d);
    return rc;
}

/*
 * The out-dir as one unit (core's pt_outdir_*): the files go into a
 * staging directory beside it, swapped in only once all are complete; a
 * failure or an interrupt leaves the old set (or none), never a mix and
 * never an empty directory. With r == NULL only check, before any work,
 * that the out-dir can be replaced (an existing non-empty one needs
 * force).
 */
static int out_dir_unit(const struct adv_config *c, const struct adv_result *r,
                        struct pt_err *err)
{
    struct pt_outdir od;
    struct pt_afile af = {0};
    char path[4200];
    int rc;

    if ((rc = foreign_check(c->out_dir, err)) < 0 ||
        (rc = pt_outdir_begin(&od, c->out_dir, c->force, err)) < 0)
        return rc;
    for (int f = 0; r && f < ADV_F_COUNT && rc == 0; f++) {
        if (!has_file(c, r, (enum adv_file)f))
            continue;
        if ((rc = pt_outdir_file(&od, adv_file_name((enum adv_file)f), path,
                                 sizeof(path), err)) < 0 ||
            (rc = pt_afile_open(&af, path, 1, err)) < 0)
            break;
        if ((rc = write_one(c, r, (enum adv_file)f, af.fp, err)) < 0) {
            pt_afile_abort(&af);
            rc = err_prefix(err, "%s", adv_file_name((enum adv_file)f));
        } else {
            rc = pt_afile_commit(&af, err);
        }
    }
    if (!r || rc < 0) {
        pt_outdir_abort(&od);
        return rc;
    }
    return pt_outdir_commit(&od, err);
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
