/* SPDX-License-Identifier: Apache-2.0 */
/*
 * bench_hist.c — what a histogram-only sizes document costs `recommend`:
 * the reader (collect's coll_sizes_doc_from_json), the statistics
 * (rec_sizes_stats) and the model (rec_recommend) on 64 bins holding from
 * 64 to 10^12 objects. Prints milliseconds per run, the peak RSS and the
 * ratio of each to the 64-object run: the cost must follow the bins, not
 * the objects (issue 13's acceptance: 10^12 objects in 64 bins in under
 * 50 ms and 20 MB). A timing check run by hand or by scripts, never a
 * wall-clock assertion in ctest.
 *
 *   bench_hist [ENGINE [ROUNDS]]     defaults: db2 20
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "recommend/recommend.h"
#include "collect/collect.h"

static void die(const char *what, const struct pt_err *err)
{
    fprintf(stderr, "bench_hist: %s: %s\n", what, err->msg);
    exit(1);
}

static long peak_rss_kb(void)
{
    struct rusage ru;

    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_maxrss;
}

/* The text of a sizes document: 64 bins of `per_bin` objects each. */
static char *hist_text(unsigned long long per_bin)
{
    json_t *doc = json_object(), *hist = json_array();
    char *text;

    for (int i = 0; i < 64; i++)
        json_array_append_new(hist, json_pack("{s:I,s:I}", "le",
                                              (json_int_t)(1024 + i * 4096),
                                              "count", (json_int_t)per_bin));
    json_object_set_new(doc, "schema_version", json_integer(1));
    json_object_set_new(doc, "histogram", hist);
    text = json_dumps(doc, 0);
    json_decref(doc);
    return text;
}

/* One `recommend --sizes` worth of work on the document text. */
static void run_once(const char *text, const struct rec_engine *e,
                     const struct rec_device *d, struct rec_result *r)
{
    struct rec_sizes s;
    struct rec_size_stats st;
    struct rec_inputs in = {0};
    struct pt_err err;
    json_t *doc = json_loads(text, 0, NULL);

    if (!doc) {
        fprintf(stderr, "bench_hist: bad JSON\n");
        exit(1);
    }
    if (coll_sizes_doc_from_json(&s, doc, "h.json", &err) < 0)
        die("read", &err);
    json_decref(doc);
    if (rec_sizes_stats(&s, &st, &err) < 0)
        die("stats", &err);
    in.engine = e;
    in.device = d;
    in.sizes = s.values;
    in.size_counts = s.counts;
    in.n_sizes = s.n;
    in.sizes_from_histogram = s.from_histogram;
    if (rec_recommend(r, &in, &err) < 0)
        die("recommend", &err);
    rec_sizes_release(&s);
}

int main(int argc, char **argv)
{
    const char *engine = argc > 1 ? argv[1] : "db2";
    int rounds = argc > 2 ? atoi(argv[2]) : 20;
    const unsigned long long per_bin[] = {1ULL, 15625ULL, 15625000ULL,
                                          15625000000ULL};
    struct rec_engine e;
    struct rec_device d;
    struct rec_result *r = calloc(1, sizeof(*r));
    struct pt_err err;
    double base_ms = 0;
    char epath[4096], dpath[4096];

    if (!r || rounds < 1)
        return 1;
    if (rec_profiles_load(engine, "ssd", &e, &d, epath, dpath, sizeof(epath),
                          &err) < 0)
        die("profiles", &err);
    printf("engine %s, 64 bins, %d rounds each\n", engine, rounds);
    printf("%16s %10s %12s %10s\n", "objects", "ms/run", "peak RSS MB",
           "time ratio");
    for (size_t k = 0; k < sizeof(per_bin) / sizeof(per_bin[0]); k++) {
        char *text = hist_text(per_bin[k]);
        uint64_t t0 = pt_now_ns();
        double ms;

        for (int i = 0; i < rounds; i++)
            run_once(text, &e, &d, r);
        ms = (double)(pt_now_ns() - t0) / 1e6 / rounds;
        if (k == 0)
            base_ms = ms;
        printf("%16llu %10.3f %12.1f %10.2f\n", per_bin[k] * 64ULL, ms,
               (double)peak_rss_kb() / 1024.0, base_ms > 0 ? ms / base_ms : 0);
        free(text);
    }
    printf("acceptance: 10^12 objects under 50 ms and 20 MB (last row)\n");
    free(r);
    return 0;
}
