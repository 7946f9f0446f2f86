/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_fault_store.c — allocation failure injected into store/: a whole
 * replay plan (trace, directory, stores with the DB2 LOB area, warm-up,
 * interleaved rounds, results) and replay.json's writer and reader. Like
 * test_fault_alloc.c, core's pt_alloc_fail_after(n) lets n pt_*
 * allocations succeed; the sweep runs n = 0, 1, ... until the operation
 * succeeds and asserts for every n before: PT_EINTERNAL with a one-line
 * "out of memory", no crash, the temporary directory gone, and (under
 * ASan) no leak. SQLite's own allocations are not part of the hook.
 */
#include "model/model.h"
#include "store/store.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#define SWEEP_MAX 100000

static char tmpdir[] = "/tmp/pt-fault-store-XXXXXX";

static int setup(void **state)
{
    (void)state;
    return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **state)
{
    char cmd[128];
    (void)state;
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
    return system(cmd) == 0 ? 0 : -1;
}

/* The temporary directory holds nothing but the trace (every failed run
 * removed its store directory). */
static int tmp_entries(void)
{
    char cmd[200];
    FILE *fp;
    int n = -1;

    snprintf(cmd, sizeof(cmd), "ls -A '%s/tmp' | wc -l", tmpdir);
    fp = popen(cmd, "r");
    if (fp) {
        if (fscanf(fp, "%d", &n) != 1)
            n = -1;
        pclose(fp);
    }
    return n;
}

struct plan_ctx {
    struct rec_engine engine;
    char trace[300];
};

static int op_plan(void *vctx, struct pt_err *err)
{
    struct plan_ctx *c = vctx;
    struct store_plan p;
    struct store_plan_result res, back;
    json_t *doc;
    int rc;

    store_plan_init(&p);
    p.trace_path = c->trace;
    p.engine = &c->engine;
    p.n_page_sizes = 2;
    p.page_sizes[0] = 4096;
    p.page_sizes[1] = 32768;
    p.cache_bytes = 128 * 1024;
    p.n_clients = 2;
    p.rounds = 2;
    p.sync = STORE_SYNC_OFF;
    rc = store_plan_run(&p, &res, err);
    if (rc == 0) {
        doc = store_plan_result_to_json(&res);
        if (!doc) {
            rc = err_set(err, PT_EINTERNAL, "out of memory");
        } else {
            rc = store_plan_result_from_json(&back, doc, "replay.json", err);
            store_plan_result_release(&back);
            json_decref(doc);
        }
    }
    store_plan_result_release(&res);
    return rc;
}

static void test_plan_oom(void **state)
{
    struct plan_ctx c;
    struct pt_err err;
    json_t *prof;
    char tmp[300];
    FILE *fp;
    long n;
    int rc;
    (void)state;

    if (prof_load_named("engines", "db2", &prof, &err) < 0 ||
        rec_engine_from_json(&c.engine, prof, "db2", &err) < 0)
        fail_msg("%s", err.msg);
    json_decref(prof);
    snprintf(c.trace, sizeof(c.trace), "%s/t.csv", tmpdir);
    fp = fopen(c.trace, "w");
    assert_non_null(fp);
    fputs("time_ms,op,key,size\n0,get,a,4000\n0,set,a,4000\n1,get,b,9000\n"
          "1,set,b,9000\n2,set,c,100\n3,del,a,0\n",
          fp);
    fclose(fp);
    snprintf(tmp, sizeof(tmp), "%s/tmp", tmpdir);
    assert_int_equal(mkdir(tmp, 0700), 0);
    setenv("TMPDIR", tmp, 1);
    for (n = 0; n < SWEEP_MAX; n++) {
        err_clear(&err);
        pt_alloc_fail_after(n);
        rc = op_plan(&c, &err);
        pt_alloc_fail_after(-1);
        if (rc == 0)
            break;
        if (rc != PT_EINTERNAL || !strstr(err.msg, "out of memory") ||
            strchr(err.msg, '\n'))
            fail_msg("plan: with %ld allocations allowed: status %d, '%s'", n,
                     rc, err.msg);
        if (tmp_entries() != 0)
            fail_msg("plan: with %ld allocations allowed the store "
                     "directory stayed",
                     n);
    }
    assert_true(n > 0 && n < SWEEP_MAX);
    assert_int_equal(tmp_entries(), 0);
    print_message("%-28s %ld failure points, each a clean out of memory\n",
                  "replay plan (LOB area)", n);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_plan_oom),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
