/* SPDX-License-Identifier: Apache-2.0 */
/*
 * probe_doc.c — the probe's file (a calibration profile, YAML) and its
 * identity: who measured it, where, when (store.h, "the probe").
 * The file is a calibration profile so that every command that takes
 * --calibration takes it: `perf:` holds the performance model's costs
 * derived from the probe (pagetune-probe(1), "THE PERFORMANCE MODEL'S
 * COSTS"), `probe:` every figure, for the store model (model.c). Numbers
 * are written with 17 significant digits, so a probe read back predicts
 * exactly what the probe in memory predicted (advise saves its probe and
 * recommend, given that file, repeats advise's figures).
 * Neighbours: probe.c (the measurement), perf/predict.c (reads perf:).
 */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statfs.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "store/store.h"

/* ---- identity ----------------------------------------------------------- */

/* The first line of `path`, trimmed, into buf ("" when unreadable). */
static void read_line(const char *path, const char *prefix, char *buf,
                      size_t len)
{
    FILE *fp = fopen(path, "r");
    char line[512];
    size_t plen = prefix ? strlen(prefix) : 0;

    buf[0] = '\0';
    if (!fp)
        return;
    while (fgets(line, sizeof(line), fp)) {
        char *v = line, *e;
        if (prefix) {
            if (strncmp(line, prefix, plen) != 0)
                continue;
            v = strchr(line, ':');
            if (!v)
                continue;
            v++;
        }
        while (isspace((unsigned char)*v))
            v++;
        e = v + strlen(v);
        while (e > v && isspace((unsigned char)e[-1]))
            *--e = '\0';
        snprintf(buf, len, "%s", v);
        break;
    }
    fclose(fp);
}

void store_probe_identity(struct store_probe *pr)
{
    struct utsname u;

    snprintf(pr->pagetune, sizeof(pr->pagetune), "%s", PT_VERSION);
    if (uname(&u) == 0) {
        snprintf(pr->host, sizeof(pr->host), "%s", u.nodename);
        snprintf(pr->kernel, sizeof(pr->kernel), "%s", u.release);
    }
    read_line("/etc/machine-id", NULL, pr->machine_id, sizeof(pr->machine_id));
    read_line("/proc/cpuinfo", "model name", pr->cpu, sizeof(pr->cpu));
}

void store_probe_fs_name(const char *dir, char *buf, size_t len)
{
    /* statfs(2)'s f_type magic numbers (linux/magic.h) */
    static const struct {
        unsigned long magic;
        const char *name;
    } fs[] = {
        {0xEF53, "ext4"},      {0x58465342, "xfs"},   {0x9123683E, "btrfs"},
        {0x01021994, "tmpfs"}, {0x858458f6, "ramfs"}, {0x794c7630, "overlay"},
        {0x6969, "nfs"},       {0x2fc12fc1, "zfs"},   {0x65735546, "fuse"},
        {0xF2F52010, "f2fs"},
    };
    struct statfs s;

    buf[0] = '\0';
    if (statfs(dir, &s) != 0)
        return;
    for (size_t i = 0; i < sizeof(fs) / sizeof(fs[0]); i++)
        if ((unsigned long)s.f_type == fs[i].magic) {
            snprintf(buf, len, "%s", fs[i].name);
            return;
        }
    snprintf(buf, len, "0x%lx", (unsigned long)s.f_type);
}

int store_probe_check(const struct store_probe *pr, const char *store_dir,
                      char *why, size_t len)
{
    struct store_probe here;
    char fsname[32];
    double age_d;

    memset(&here, 0, sizeof(here));
    store_probe_identity(&here);
    /* the messages name the probe's machine, never this one's: the same
       probe gives the same words everywhere (tests compare them) */
    if (pr->machine_id[0] && here.machine_id[0] &&
        strcmp(pr->machine_id, here.machine_id) != 0) {
        snprintf(why, len,
                 "foreign: measured on another machine (host %s, machine "
                 "id %.32s)",
                 pr->host, pr->machine_id);
        return 1;
    }
    if (strcmp(pr->host, here.host) != 0) {
        snprintf(why, len, "foreign: measured on another host (%s)", pr->host);
        return 1;
    }
    if (strcmp(pr->cpu, here.cpu) != 0) {
        snprintf(why, len, "foreign: measured on another CPU (%s)", pr->cpu);
        return 1;
    }
    if (store_dir) {
        store_probe_fs_name(store_dir, fsname, sizeof(fsname));
        if (fsname[0] && pr->store_fs[0] && strcmp(fsname, pr->store_fs)) {
            snprintf(why, len,
                     "foreign: measured on a %s file system, the store "
                     "directory is on %s",
                     pr->store_fs, fsname);
            return 1;
        }
    }
    if (strcmp(pr->pagetune, here.pagetune) != 0) {
        snprintf(why, len,
                 "stale: measured by pagetune %s, not this "
                 "version",
                 pr->pagetune);
        return 2;
    }
    age_d = difftime(time(NULL), (time_t)pr->measured_s) / 86400.0;
    if (age_d > STORE_PROBE_STALE_DAYS) {
        snprintf(why, len, "stale: measured %.0f days ago (more than %d)",
                 age_d, STORE_PROBE_STALE_DAYS);
        return 2;
    }
    return 0;
}

/* ---- writing ------------------------------------------------------------ */

/* A YAML double-quoted scalar (JSON's string syntax is YAML's). */
static void put_str(FILE *fp, const char *key, const char *v, int indent)
{
    json_t *s = json_string(v ? v : "");
    char *q = s ? json_dumps(s, JSON_ENCODE_ANY) : NULL;

    fprintf(fp, "%*s%s: %s\n", indent, "", key, q ? q : "\"\"");
    free(q);
    json_decref(s);
}

static void put_line(FILE *fp, const char *op, const struct store_probe_line *l,
                     int indent)
{
    fprintf(fp, "%*s%s: {sizes: [%u, %u], us: [", indent, "", op,
            l->size_bytes[0], l->size_bytes[1]);
    for (int k = 0; k < 2; k++)
        fprintf(fp, "%s[%.17g, %.17g, %.17g]", k ? ", " : "", l->at[k].mean_us,
                l->at[k].lo_us, l->at[k].hi_us);
    fprintf(fp, "]}\n");
}

/* Cost per KB of a line (ms), and its value at 0 bytes (ms). */
static double line_slope_ms(const struct store_probe_line *l)
{
    double dkb = (l->size_bytes[1] - (double)l->size_bytes[0]) / 1024.0;
    return dkb > 0 ? (l->at[1].mean_us - l->at[0].mean_us) / dkb / 1e3 : 0;
}
static double line_zero_ms(const struct store_probe_line *l)
{
    return l->at[0].mean_us / 1e3 -
           line_slope_ms(l) * l->size_bytes[0] / 1024.0;
}

/* The performance model's costs from the probe (pagetune-probe(1)). */
static void put_perf(FILE *fp, const struct store_probe *pr)
{
    const struct store_probe_page *p0 = &pr->page[0];
    const struct store_probe_line *g = &p0->row[STORE_PROBE_GET],
                                  *s = &p0->row[STORE_PROBE_PUT];
    double row_ms = g->at[0].mean_us / 1e3;
    double commit_ms = fmax(0, (s->at[0].mean_us - g->at[0].mean_us) / 1e3);
    double log_kb_ms = fmax(0, line_slope_ms(s) - line_slope_ms(g));
    const struct store_probe_line *cg = &pr->lob[STORE_LOB_CACHED][0],
                                  *dg = &pr->lob[STORE_LOB_DIRECT][0];

    fprintf(fp, "perf:\n");
    fprintf(fp, "  # no application tier: the store runs in the process\n");
    fprintf(fp, "  app_cpu_fixed_ms: 0\n  app_cpu_per_kb_ms: 0\n"
                "  app_cpu_per_row_ms: 0\n  repl_cpu_per_msg_ms: 0\n"
                "  net_per_kb_ms: 0\n  front_cpu_per_req_ms: 0\n");
    fprintf(fp, "  # a get of a 256-byte row at %u-byte pages\n",
            p0->page_size_bytes);
    fprintf(fp,
            "  db_cpu_per_row_ms: %.17g\n  db_cpu_per_lread_ms: 0\n"
            "  db_cpu_per_logrec_ms: 0\n",
            row_ms);
    fprintf(fp, "  # a put over a get (the commit), and per KB of the row\n");
    fprintf(fp, "  log_write_ms: %.17g\n  log_per_kb_ms: %.17g\n", commit_ms,
            log_kb_ms);
    fprintf(fp, "  # a LOB get over the row's, cached and direct\n");
    fprintf(fp, "  fscache_req_ms: %.17g\n  fscache_per_kb_ms: %.17g\n",
            fmax(0, line_zero_ms(cg) - row_ms), fmax(0, line_slope_ms(cg)));
    fprintf(fp, "  disk_overhead_ms: %.17g\n  disk_per_kb_ms: %.17g\n",
            fmax(0, line_zero_ms(dg) - row_ms), fmax(0, line_slope_ms(dg)));
}

int store_probe_write(FILE *fp, const struct store_probe *pr, const char *name,
                      struct pt_err *err)
{
    char when[32];
    time_t t = (time_t)pr->measured_s;
    struct tm tm;

    if (!gmtime_r(&t, &tm) ||
        !strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", &tm))
        snprintf(when, sizeof(when), "?");
    /* flag-ok: the file's own comment, for whoever opens it, names the
       option that takes it */
    fprintf(fp,
            "# pagetune probe: the built-in store's unit costs on host %s,\n"
            "# measured %s in %.1f s (pagetune-probe(1)). A calibration:\n"
            "# give it to advise, recommend, replay or simulate with\n"
            "# --calibration.\n",
            pr->host, when, pr->elapsed_s);
    put_str(fp, "name", name, 0);
    put_perf(fp, pr);
    fprintf(fp, "probe:\n  format: 1\n");
    put_str(fp, "pagetune", pr->pagetune, 2);
    put_str(fp, "host", pr->host, 2);
    put_str(fp, "machine_id", pr->machine_id, 2);
    put_str(fp, "cpu", pr->cpu, 2);
    put_str(fp, "kernel", pr->kernel, 2);
    put_str(fp, "store_fs", pr->store_fs, 2);
    fprintf(fp, "  measured: %lld  # %s\n", (long long)pr->measured_s, when);
    put_str(fp, "engine", pr->engine, 2);
    fprintf(fp,
            "  cache_bytes: %llu\n  sync: %s\n  rounds: %u\n  ops: %u\n"
            "  sessions: %u\n  elapsed_s: %.17g\n  lob_direct: %d\n",
            (unsigned long long)pr->cache_bytes, store_sync_name(pr->sync),
            pr->rounds, pr->ops, pr->sessions, pr->elapsed_s, pr->lob_direct);
    fprintf(fp,
            "  # a checkpoint: fixed + per frame; the writes below pay "
            "SQLite's\n  # own, one every %d frames\n"
            "  checkpoint: {fixed_us: %.17g, per_frame_us: %.17g}\n",
            STORE_AUTOCHECKPOINT_FRAMES, pr->ckpt_fixed_us,
            pr->ckpt_per_frame_us);
    fprintf(
        fp,
        "  # microseconds per operation: [mean, 95 %% low, high]; set: the\n"
        "  # write-back of the session just read, put: a set on its own\n"
        "  pages:\n");
    for (size_t i = 0; i < pr->n_pages; i++) {
        const struct store_probe_page *p = &pr->page[i];
        fprintf(fp, "    - page_size: %u\n      inline_limit: %u\n",
                p->page_size_bytes, p->inline_limit_bytes);
        put_line(fp, "get", &p->row[STORE_PROBE_GET], 6);
        put_line(fp, "set", &p->row[STORE_PROBE_SET], 6);
        put_line(fp, "put", &p->row[STORE_PROBE_PUT], 6);
    }
    fprintf(fp, "  lob:\n");
    for (int io = 0; io < 2; io++) {
        fprintf(fp, "    %s:\n", store_lob_io_name((enum store_lob_io)io));
        put_line(fp, "get", &pr->lob[io][STORE_PROBE_GET], 6);
        put_line(fp, "set", &pr->lob[io][STORE_PROBE_SET], 6);
        put_line(fp, "put", &pr->lob[io][STORE_PROBE_PUT], 6);
    }
    if (fflush(fp) != 0 || ferror(fp))
        return err_set(err, PT_EIO, "cannot write the probe");
    return 0;
}

/* ---- reading ------------------------------------------------------------ */

static int get_str(const json_t *o, const char *key, char *buf, size_t len,
                   const char *ctx, struct pt_err *err)
{
    const char *v = "";
    int rc = pt_json_opt_str(o, key, &v, ctx, err);

    if (rc < 0)
        return rc;
    snprintf(buf, len, "%s", v);
    return 0;
}

static int get_uint(const json_t *o, const char *key, unsigned *out,
                    const char *ctx, struct pt_err *err)
{
    uint64_t v;
    int rc = pt_json_get_u64(o, key, &v, ctx, err);

    if (rc < 0)
        return rc;
    if (v > UINT32_MAX)
        return err_set(err, PT_EDATA, "%s: 'probe.%s' is out of range", ctx,
                       key);
    *out = (unsigned)v;
    return 0;
}

/* {sizes: [a, b], us: [[m, lo, hi], [m, lo, hi]]} */
static int get_line(const json_t *o, const char *op, struct store_probe_line *l,
                    const char *ctx, struct pt_err *err)
{
    const json_t *v = json_object_get(o, op), *sz, *us;

    if (!json_is_object(v))
        return err_set(err, PT_EDATA, "%s: probe: '%s' must be a mapping", ctx,
                       op);
    sz = json_object_get(v, "sizes");
    us = json_object_get(v, "us");
    if (!json_is_array(sz) || json_array_size(sz) != 2 || !json_is_array(us) ||
        json_array_size(us) != 2)
        return err_set(err, PT_EDATA,
                       "%s: probe: '%s' needs sizes: [a, b] and us: "
                       "[[mean, lo, hi], [mean, lo, hi]]",
                       ctx, op);
    for (size_t k = 0; k < 2; k++) {
        json_int_t n;
        const json_t *c = json_array_get(us, k);
        double x[3];
        if (!pt_json_whole(json_array_get(sz, k), &n) || n < 1 ||
            n > UINT32_MAX)
            return err_set(err, PT_EDATA,
                           "%s: probe: '%s' sizes must be whole numbers > 0",
                           ctx, op);
        if (!json_is_array(c) || json_array_size(c) != 3)
            return err_set(err, PT_EDATA,
                           "%s: probe: '%s' us[%zu] must be [mean, lo, hi]",
                           ctx, op, k);
        for (size_t j = 0; j < 3; j++) {
            const json_t *e = json_array_get(c, j);
            x[j] = json_is_number(e) ? json_number_value(e) : NAN;
            if (!isfinite(x[j]) || x[j] < 0)
                return err_set(err, PT_EDATA,
                               "%s: probe: '%s' us[%zu] must hold finite "
                               "numbers >= 0",
                               ctx, op, k);
        }
        if (!(x[1] <= x[0] && x[0] <= x[2]) || !(x[0] > 0))
            return err_set(err, PT_EDATA,
                           "%s: probe: '%s' us[%zu]: need 0 < mean and "
                           "lo <= mean <= hi",
                           ctx, op, k);
        l->size_bytes[k] = (uint32_t)n;
        l->at[k] = (struct store_probe_cost){x[0], x[1], x[2]};
    }
    if (l->size_bytes[0] >= l->size_bytes[1])
        return err_set(err, PT_EDATA, "%s: probe: '%s' sizes must be ascending",
                       ctx, op);
    return 0;
}

int store_probe_from_json(struct store_probe *pr, const json_t *prof,
                          const char *ctx, struct pt_err *err)
{
    const json_t *p = json_object_get(prof, "probe"), *pages, *lob;
    double d;
    int rc;

    memset(pr, 0, sizeof(*pr));
    if (!p)
        return 0;
    if (!json_is_object(p))
        return err_set(err, PT_EDATA, "%s: 'probe' must be a mapping", ctx);
    if ((rc = get_str(p, "pagetune", pr->pagetune, sizeof(pr->pagetune), ctx,
                      err)) < 0 ||
        (rc = get_str(p, "host", pr->host, sizeof(pr->host), ctx, err)) < 0 ||
        (rc = get_str(p, "machine_id", pr->machine_id, sizeof(pr->machine_id),
                      ctx, err)) < 0 ||
        (rc = get_str(p, "cpu", pr->cpu, sizeof(pr->cpu), ctx, err)) < 0 ||
        (rc = get_str(p, "kernel", pr->kernel, sizeof(pr->kernel), ctx, err)) <
            0 ||
        (rc = get_str(p, "store_fs", pr->store_fs, sizeof(pr->store_fs), ctx,
                      err)) < 0 ||
        (rc = get_str(p, "engine", pr->engine, sizeof(pr->engine), ctx, err)) <
            0 ||
        (rc = pt_json_get_num(p, "measured", &d, ctx, err)) < 0)
        return rc;
    pr->measured_s = (int64_t)d;
    if ((rc = pt_json_get_u64(p, "cache_bytes", &pr->cache_bytes, ctx, err)) <
            0 ||
        (rc = get_uint(p, "rounds", &pr->rounds, ctx, err)) < 0 ||
        (rc = get_uint(p, "ops", &pr->ops, ctx, err)) < 0 ||
        (rc = get_uint(p, "sessions", &pr->sessions, ctx, err)) < 0 ||
        (rc = pt_json_get_num(p, "elapsed_s", &pr->elapsed_s, ctx, err)) < 0 ||
        (rc = pt_json_get_num(p, "lob_direct", &d, ctx, err)) < 0)
        return rc;
    pr->lob_direct = d != 0;
    /* sync: written since issue 26; a probe without it measured NORMAL */
    pr->sync = STORE_SYNC_NORMAL;
    {
        const char *sy = NULL;
        int v;
        if ((rc = pt_json_opt_str(p, "sync", &sy, ctx, err)) < 0)
            return rc;
        if (sy && (v = store_sync_parse(sy)) < 0)
            return err_set(err, PT_EDATA,
                           "%s: probe.sync must be off, normal or full", ctx);
        if (sy)
            pr->sync = (enum store_sync)v;
    }
    {
        const json_t *ck = json_object_get(p, "checkpoint");
        if (ck &&
            (!json_is_object(ck) ||
             (rc = pt_json_get_num(ck, "fixed_us", &pr->ckpt_fixed_us, ctx,
                                   err)) < 0 ||
             (rc = pt_json_get_num(ck, "per_frame_us", &pr->ckpt_per_frame_us,
                                   ctx, err)) < 0))
            return rc < 0 ? rc
                          : err_set(err, PT_EDATA,
                                    "%s: 'probe.checkpoint' must be a mapping",
                                    ctx);
    }
    pages = json_object_get(p, "pages");
    if (!json_is_array(pages) || json_array_size(pages) == 0 ||
        json_array_size(pages) > STORE_PROBE_MAX_PAGES)
        return err_set(err, PT_EDATA,
                       "%s: 'probe.pages' must be a list of 1..%d page sizes",
                       ctx, STORE_PROBE_MAX_PAGES);
    for (size_t i = 0; i < json_array_size(pages); i++) {
        const json_t *e = json_array_get(pages, i);
        struct store_probe_page *pg = &pr->page[i];
        unsigned ps, lim;
        if ((rc = get_uint(e, "page_size", &ps, ctx, err)) < 0 ||
            (rc = get_uint(e, "inline_limit", &lim, ctx, err)) < 0 ||
            (rc = get_line(e, "get", &pg->row[STORE_PROBE_GET], ctx, err)) <
                0 ||
            (rc = get_line(e, "set", &pg->row[STORE_PROBE_SET], ctx, err)) <
                0 ||
            (rc = get_line(e, "put", &pg->row[STORE_PROBE_PUT], ctx, err)) < 0)
            return rc;
        if (!store_page_size_valid(ps) ||
            (i > 0 && ps <= pr->page[i - 1].page_size_bytes))
            return err_set(err, PT_EDATA,
                           "%s: 'probe.pages': page sizes must be powers of "
                           "two 512..65536, ascending",
                           ctx);
        pg->page_size_bytes = ps;
        pg->inline_limit_bytes = lim;
        pr->n_pages++;
    }
    lob = json_object_get(p, "lob");
    if (!json_is_object(lob))
        return err_set(err, PT_EDATA, "%s: 'probe.lob' must be a mapping", ctx);
    for (int io = 0; io < 2; io++) {
        const char *nm = store_lob_io_name((enum store_lob_io)io);
        const json_t *m = json_object_get(lob, nm);
        if (!json_is_object(m))
            return err_set(err, PT_EDATA,
                           "%s: 'probe.lob.%s' must be a mapping", ctx, nm);
        if ((rc = get_line(m, "get", &pr->lob[io][STORE_PROBE_GET], ctx, err)) <
                0 ||
            (rc = get_line(m, "set", &pr->lob[io][STORE_PROBE_SET], ctx, err)) <
                0 ||
            (rc = get_line(m, "put", &pr->lob[io][STORE_PROBE_PUT], ctx, err)) <
                0)
            return rc;
    }
    return 1;
}

int store_probe_load(const char *name, struct store_probe *pr, char *cal_name,
                     size_t len, struct pt_err *err)
{
    json_t *prof = NULL;
    const char *nm = name;
    int rc;

    if ((rc = prof_load_named("calibrations", name, &prof, err)) < 0)
        return rc;
    rc = store_probe_from_json(pr, prof, name, err);
    if (rc >= 0 && cal_name) {
        const json_t *n = json_object_get(prof, "name");
        if (json_is_string(n))
            nm = json_string_value(n);
        snprintf(cal_name, len, "%s", nm);
    }
    json_decref(prof);
    return rc;
}
