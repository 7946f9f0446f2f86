/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_sim_trace.c — unit tests for sim/trace.c: the pagetune-trace(5) CSV
 * reader (comments, CRLF, lines across buffer refills, every malformed-line
 * error with file:line), the oracleGeneral binary reader (round trip with
 * the writer, truncated record), key interning into dense ids, rewind,
 * reading in batches (sim_trace_next_batch) against one at a time.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sim/sim.h"

static char tmpdir[] = "/tmp/pt-sim-trace-XXXXXX";

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

static const char *write_file(const char *name, const char *text, size_t n)
{
    static char path[256];
    FILE *fp;

    snprintf(path, sizeof(path), "%s/%s", tmpdir, name);
    fp = fopen(path, "wb");
    assert_non_null(fp);
    assert_int_equal(fwrite(text, 1, n, fp), n);
    assert_int_equal(fclose(fp), 0);
    return path;
}

static void test_csv_basic(void **state)
{
    static const char text[] = "# a comment before the header\n"
                               "time_ms,op,key,size\r\n"
                               "0,get,alpha,4000\n"
                               "\n"
                               "# comment between records\n"
                               "5,set,beta,10000\r\n"
                               "7,get,alpha,4000\n"
                               "9,del,beta,0"; /* no final newline */
    struct sim_trace_reader *r;
    struct sim_req q;
    struct pt_err err;
    const char *path = write_file("basic.csv", text, sizeof(text) - 1);
    size_t len;
    (void)state;

    assert_int_equal(sim_trace_open(path, SIM_TRACE_AUTO, &r, &err), 0);
    assert_int_equal(sim_trace_format_of(r), SIM_TRACE_CSV);
    assert_int_equal(sim_trace_next(r, &q, &err), 1);
    assert_int_equal(q.time_ms, 0);
    assert_int_equal(q.op, SIM_GET);
    assert_int_equal(q.key_id, 0);
    assert_int_equal(q.size_bytes, 4000);
    assert_int_equal(sim_trace_next(r, &q, &err), 1);
    assert_int_equal(q.time_ms, 5);
    assert_int_equal(q.op, SIM_SET);
    assert_int_equal(q.key_id, 1);
    assert_int_equal(q.size_bytes, 10000);
    assert_int_equal(sim_trace_next(r, &q, &err), 1);
    assert_int_equal(q.key_id, 0);
    assert_int_equal(sim_trace_next(r, &q, &err), 1);
    assert_int_equal(q.op, SIM_DEL);
    assert_int_equal(q.key_id, 1);
    assert_int_equal(q.size_bytes, 0);
    assert_int_equal(sim_trace_next(r, &q, &err), 0);
    assert_int_equal(sim_trace_n_keys(r), 2);
    assert_string_equal(sim_trace_key(r, 0, &len), "alpha");
    assert_int_equal(len, 5);
    assert_string_equal(sim_trace_key(r, 1, NULL), "beta");
    assert_null(sim_trace_key(r, 2, NULL));
    assert_int_equal(sim_trace_pos(r), sizeof(text) - 1);
    assert_int_equal(sim_trace_size(r), sizeof(text) - 1);

    /* rewind: same ids, keys stay interned */
    assert_int_equal(sim_trace_rewind(r, &err), 0);
    assert_int_equal(sim_trace_next(r, &q, &err), 1);
    assert_int_equal(q.key_id, 0);
    assert_int_equal(sim_trace_line(r), 3);
    assert_int_equal(sim_trace_next(r, &q, &err), 1);
    assert_int_equal(q.key_id, 1);
    assert_int_equal(sim_trace_n_keys(r), 2);
    sim_trace_close(r);
}

static void expect_bad_line(const char *line, int want_line, const char *what)
{
    char text[512];
    char want[300];
    struct sim_trace_reader *r;
    struct sim_req q;
    struct pt_err err;
    const char *path;
    int n, rc;

    n = snprintf(text, sizeof(text), "time_ms,op,key,size\n1,get,k,1\n%s\n",
                 line);
    path = write_file("bad.csv", text, (size_t)n);
    assert_int_equal(sim_trace_open(path, SIM_TRACE_CSV, &r, &err), 0);
    assert_int_equal(sim_trace_next(r, &q, &err), 1);
    rc = sim_trace_next(r, &q, &err);
    if (rc != PT_EDATA)
        fail_msg("line '%s': rc %d, want PT_EDATA", line, rc);
    snprintf(want, sizeof(want), "%s:%d: ", path, want_line);
    if (!strstr(err.msg, want) || !strstr(err.msg, what))
        fail_msg("line '%s': message '%s' lacks '%s' / '%s'", line, err.msg,
                 want, what);
    sim_trace_close(r);
}

static void test_csv_errors(void **state)
{
    (void)state;
    expect_bad_line("x,get,k,1", 3, "bad time_ms");
    expect_bad_line("-1,get,k,1", 3, "bad time_ms");
    expect_bad_line("99999999999999999999999,get,k,1", 3, "bad time_ms");
    expect_bad_line("1,put,k,1", 3, "bad op");
    expect_bad_line("1,ge,k,1", 3, "bad op");
    expect_bad_line("1,get,,1", 3, "empty key");
    expect_bad_line("1,get,k", 3, "missing size");
    expect_bad_line("1,get,k,", 3, "bad size");
    expect_bad_line("1,get,k,12x", 3, "bad size");
    expect_bad_line("1,get,k,4294967296", 3, "bad size");
    expect_bad_line("1,get,k,1,extra", 3, "bad size");
    expect_bad_line("1", 3, "bad time_ms");
}

static void test_csv_header(void **state)
{
    struct sim_trace_reader *r = (void *)1;
    struct sim_req q;
    struct pt_err err;
    const char *path;
    (void)state;

    path = write_file("nohdr.csv", "1,get,k,1\n", 10);
    assert_int_equal(sim_trace_open(path, SIM_TRACE_AUTO, &r, &err), PT_EDATA);
    assert_null(r);
    assert_non_null(strstr(err.msg, ":1: bad header"));

    path = write_file("comments.csv", "# only\n# comments\n", 18);
    assert_int_equal(sim_trace_open(path, SIM_TRACE_CSV, &r, &err), PT_EDATA);
    assert_non_null(strstr(err.msg, "missing header"));

    /* header only: a valid, empty trace */
    path = write_file("empty.csv", "time_ms,op,key,size\n", 20);
    assert_int_equal(sim_trace_open(path, SIM_TRACE_AUTO, &r, &err), 0);
    assert_int_equal(sim_trace_next(r, &q, &err), 0);
    assert_int_equal(sim_trace_n_keys(r), 0);
    sim_trace_close(r);

    /* zero bytes: an empty trace too */
    path = write_file("zero", "", 0);
    assert_int_equal(sim_trace_open(path, SIM_TRACE_AUTO, &r, &err), 0);
    assert_int_equal(sim_trace_next(r, &q, &err), 0);
    sim_trace_close(r);

    assert_int_equal(
        sim_trace_open("/nonexistent/trace.csv", SIM_TRACE_AUTO, &r, &err),
        PT_ENOINPUT);
    assert_int_equal(sim_trace_open(tmpdir, SIM_TRACE_AUTO, &r, &err),
                     PT_ENOINPUT);
}

/*
 * Write 300,000 records (several MiB, so lines cross buffer refills) with
 * the writer, read them back and compare every field.
 */
static void test_csv_roundtrip_large(void **state)
{
    enum { N = 300000, KEYS = 5000 };
    char path[256], key[32];
    struct sim_trace_reader *r;
    struct sim_req q;
    struct pt_err err;
    FILE *fp;
    uint64_t *first_id;
    int i;
    (void)state;

    snprintf(path, sizeof(path), "%s/large.csv", tmpdir);
    fp = fopen(path, "w");
    assert_non_null(fp);
    assert_int_equal(sim_trace_write_header(fp, SIM_TRACE_CSV, &err), 0);
    for (i = 0; i < N; i++) {
        int k = (int)(((uint64_t)i * 2654435761u) % KEYS);
        int n = snprintf(key, sizeof(key), "session-%d", k);
        assert_int_equal(sim_trace_write_csv(fp, (uint64_t)i * 3,
                                             (enum sim_op)(i % 3), key,
                                             (size_t)n, (uint32_t)k * 7, &err),
                         0);
    }
    assert_int_equal(fclose(fp), 0);

    first_id = calloc(KEYS, sizeof(*first_id));
    assert_non_null(first_id);
    for (i = 0; i < KEYS; i++)
        first_id[i] = UINT64_MAX;
    assert_int_equal(sim_trace_open(path, SIM_TRACE_AUTO, &r, &err), 0);
    for (i = 0; i < N; i++) {
        int k = (int)(((uint64_t)i * 2654435761u) % KEYS);
        assert_int_equal(sim_trace_next(r, &q, &err), 1);
        assert_int_equal(q.time_ms, (uint64_t)i * 3);
        assert_int_equal(q.op, i % 3);
        assert_int_equal(q.size_bytes, k * 7);
        if (first_id[k] == UINT64_MAX)
            first_id[k] = q.key_id;
        assert_int_equal(q.key_id, first_id[k]);
        snprintf(key, sizeof(key), "session-%d", k);
        assert_string_equal(sim_trace_key(r, q.key_id, NULL), key);
    }
    assert_int_equal(sim_trace_next(r, &q, &err), 0);
    assert_int_equal(sim_trace_n_keys(r), KEYS);
    assert_int_equal(sim_trace_line(r), N + 1);
    sim_trace_close(r);
    free(first_id);
}

/*
 * The reader's fast path (lines parsed ahead) and its careful path must
 * read the same: a trace mixing lines of the common form with comments,
 * blank lines, CR LF ends, long keys, a key holding CR, a 20-digit time
 * and lines split by buffer refills; then an error, named with its line.
 */
static void test_csv_fast_and_careful(void **state)
{
    enum { N = 120000 };
    char path[256], key[40];
    struct sim_trace_reader *r;
    struct sim_req q;
    struct pt_err err;
    uint64_t line = 1, t;
    FILE *fp;
    int i;
    (void)state;

    snprintf(path, sizeof(path), "%s/mixed.csv", tmpdir);
    fp = fopen(path, "w");
    assert_non_null(fp);
    fputs("time_ms,op,key,size\n", fp);
    for (i = 0; i < N; i++) {
        if (i % 97 == 0)
            fputs(i % 2 ? "# a comment\n" : "\n", fp);
        t = i % 1001 == 0 ? 18446744073709551615ULL : (uint64_t)i;
        if (i % 5 == 0)
            snprintf(key, sizeof(key), "a-long-key-%d", i % 777);
        else if (i % 333 == 0)
            snprintf(key, sizeof(key), "k\r%d", i % 3);
        else
            snprintf(key, sizeof(key), "%d", i % 1000);
        fprintf(fp, "%llu,%s,%s,%d%s\n", (unsigned long long)t,
                i % 3 == 0   ? "get"
                : i % 3 == 1 ? "set"
                             : "del",
                key, i, i % 7 == 0 ? "\r" : "");
    }
    fputs("7,get,x,4294967296\n", fp);
    assert_int_equal(fclose(fp), 0);

    assert_int_equal(sim_trace_open(path, SIM_TRACE_AUTO, &r, &err), 0);
    for (i = 0; i < N; i++) {
        line += 1 + (i % 97 == 0);
        assert_int_equal(sim_trace_next(r, &q, &err), 1);
        t = i % 1001 == 0 ? 18446744073709551615ULL : (uint64_t)i;
        assert_true(q.time_ms == t);
        assert_int_equal(q.op, i % 3);
        assert_int_equal(q.size_bytes, i);
        assert_int_equal(sim_trace_line(r), line);
        if (i % 5 == 0)
            snprintf(key, sizeof(key), "a-long-key-%d", i % 777);
        else if (i % 333 == 0)
            snprintf(key, sizeof(key), "k\r%d", i % 3);
        else
            snprintf(key, sizeof(key), "%d", i % 1000);
        assert_string_equal(sim_trace_key(r, q.key_id, NULL), key);
    }
    assert_true(sim_trace_next(r, &q, &err) < 0);
    snprintf(key, sizeof(key), ":%llu: bad size", (unsigned long long)line + 1);
    assert_non_null(strstr(err.msg, key));
    sim_trace_close(r);
}

static void test_writer_rejects_bad_keys(void **state)
{
    struct pt_err err;
    FILE *fp = fopen("/dev/null", "w");
    (void)state;

    assert_non_null(fp);
    assert_int_equal(sim_trace_write_csv(fp, 0, SIM_GET, "a,b", 3, 1, &err),
                     PT_EDATA);
    assert_int_equal(sim_trace_write_csv(fp, 0, SIM_GET, "#a", 2, 1, &err),
                     PT_EDATA);
    assert_int_equal(sim_trace_write_csv(fp, 0, SIM_GET, "", 0, 1, &err),
                     PT_EDATA);
    assert_int_equal(sim_trace_write_csv(fp, 0, SIM_GET, "a\nb", 3, 1, &err),
                     PT_EDATA);
    fclose(fp);
}

static void test_oracle_roundtrip(void **state)
{
    enum { N = 100000 };
    char path[256];
    struct sim_trace_reader *r;
    struct sim_req q;
    struct pt_err err;
    FILE *fp;
    uint64_t seen_max = 0;
    int i;
    (void)state;

    snprintf(path, sizeof(path), "%s/t.oracleGeneral.bin", tmpdir);
    fp = fopen(path, "wb");
    assert_non_null(fp);
    for (i = 0; i < N; i++) {
        uint64_t obj = ((uint64_t)i * 7919u) % 1000u + (1ULL << 40);
        assert_int_equal(sim_trace_write_oracle(fp, (uint32_t)(i / 10), obj,
                                                4096u + (uint32_t)i % 3, -1,
                                                &err),
                         0);
    }
    assert_int_equal(fclose(fp), 0);

    assert_int_equal(sim_trace_open(path, SIM_TRACE_AUTO, &r, &err), 0);
    assert_int_equal(sim_trace_format_of(r), SIM_TRACE_ORACLE);
    for (i = 0; i < N; i++) {
        uint64_t obj = ((uint64_t)i * 7919u) % 1000u + (1ULL << 40);
        char want[32];
        assert_int_equal(sim_trace_next(r, &q, &err), 1);
        assert_int_equal(q.time_ms, (uint64_t)(i / 10) * 1000);
        assert_int_equal(q.size_bytes, 4096u + (uint32_t)i % 3);
        assert_int_equal(q.op, SIM_GET);
        assert_true(q.key_id < 1000);
        if (q.key_id > seen_max)
            seen_max = q.key_id;
        snprintf(want, sizeof(want), "%llu", (unsigned long long)obj);
        assert_string_equal(sim_trace_key(r, q.key_id, NULL), want);
    }
    assert_int_equal(sim_trace_next(r, &q, &err), 0);
    assert_int_equal(sim_trace_n_keys(r), 1000);
    assert_int_equal(seen_max, 999);
    sim_trace_close(r);

    /* cut the last record short: the tail is a truncated record */
    assert_int_equal(truncate(path, (off_t)N * 24 - 5), 0);
    assert_int_equal(sim_trace_open(path, SIM_TRACE_ORACLE, &r, &err), 0);
    for (i = 0; i < N - 1; i++)
        assert_int_equal(sim_trace_next(r, &q, &err), 1);
    assert_int_equal(sim_trace_next(r, &q, &err), PT_EDATA);
    assert_non_null(strstr(err.msg, "truncated record at byte 2399976"));
    sim_trace_close(r);
}

/*
 * sim_trace_next_batch reads what sim_trace_next does: every field and
 * key id, batches of 1 to 50 across the buffer's refills, the end (0) and,
 * on a cut binary file, the truncated record's error after the whole ones.
 */
static void same_by_batches(const char *path, int64_t want_end)
{
    struct sim_trace_reader *a, *b;
    struct sim_req qa, qb[50];
    struct pt_err err;
    uint64_t seed = 11, n = 0;
    int64_t got = 0, k;

    assert_int_equal(sim_trace_open(path, SIM_TRACE_AUTO, &a, &err), 0);
    assert_int_equal(sim_trace_open(path, SIM_TRACE_AUTO, &b, &err), 0);
    for (;;) {
        seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
        got = sim_trace_next_batch(b, qb, 1 + (seed >> 33) % 50, &err);
        if (got <= 0)
            break;
        for (k = 0; k < got; k++, n++) {
            assert_int_equal(sim_trace_next(a, &qa, &err), 1);
            assert_int_equal(qb[k].time_ms, qa.time_ms);
            assert_int_equal(qb[k].key_id, qa.key_id);
            assert_int_equal(qb[k].size_bytes, qa.size_bytes);
            assert_int_equal(qb[k].op, qa.op);
        }
    }
    assert_int_equal(got, want_end);
    assert_int_equal(sim_trace_next(a, &qa, &err), want_end);
    assert_int_equal(sim_trace_n_keys(b), sim_trace_n_keys(a));
    assert_true(n > 0);
    sim_trace_close(a);
    sim_trace_close(b);
}

static void test_batches(void **state)
{
    enum { N = 100000 };
    char path[256], key[32];
    struct pt_err err;
    FILE *fp;
    int i;
    (void)state;

    snprintf(path, sizeof(path), "%s/batch.oracleGeneral.bin", tmpdir);
    fp = fopen(path, "wb");
    assert_non_null(fp);
    for (i = 0; i < N; i++)
        assert_int_equal(
            sim_trace_write_oracle(fp, (uint32_t)i / 7,
                                   ((uint64_t)i * 2654435761u) % 20011u + 5,
                                   (uint32_t)i % 977, -1, &err),
            0);
    assert_int_equal(fclose(fp), 0);
    same_by_batches(path, 0);
    assert_int_equal(truncate(path, (off_t)N * 24 - 7), 0);
    same_by_batches(path, PT_EDATA);

    snprintf(path, sizeof(path), "%s/batch.csv", tmpdir);
    fp = fopen(path, "w");
    assert_non_null(fp);
    assert_int_equal(sim_trace_write_header(fp, SIM_TRACE_CSV, &err), 0);
    for (i = 0; i < N; i++) {
        int n = snprintf(key, sizeof(key), i % 5 ? "k%d" : "a-longer-key-%d",
                         (int)(((uint64_t)i * 40503u) % 3001u));
        assert_int_equal(
            sim_trace_write_csv(fp, (uint64_t)i, (enum sim_op)(i % 3), key,
                                (size_t)n, (uint32_t)i % 5000, &err),
            0);
    }
    assert_int_equal(fclose(fp), 0);
    same_by_batches(path, 0);
}

/* Open `path` (AUTO), expect CSV, read every request; returns n read. */
static int read_all_csv(const char *path, struct pt_err *err)
{
    struct sim_trace_reader *r;
    struct sim_req q;
    int n = 0, rc;

    assert_int_equal(sim_trace_open(path, SIM_TRACE_AUTO, &r, err), 0);
    assert_int_equal(sim_trace_format_of(r), SIM_TRACE_CSV);
    while ((rc = sim_trace_next(r, &q, err)) == 1)
        n++;
    sim_trace_close(r);
    return rc < 0 ? rc : n;
}

/*
 * Detection decides from the CSV header (the only "magic" either format
 * has), never from byte statistics: UTF-8 keys, a byte order mark and a
 * NUL in a key are all CSV (the NUL a clear FILE:LINE error).
 */
static void test_detect_text_is_csv(void **state)
{
    static const char utf8[] = "time_ms,op,key,size\n"
                               "0,get,s\xc3\xa9ssion-\xe2\x82\xac,4000\n"
                               "1,get,\xf0\x9f\x98\x80,10\n";
    static const char bom[] = "\xef\xbb\xbftime_ms,op,key,size\r\n"
                              "0,set,a,1\r\n"
                              "1,get,a,1\r\n";
    static const char bom_comment[] = "\xef\xbb\xbf# made on Windows\n"
                                      "time_ms,op,key,size\n"
                                      "0,get,a,1\n";
    static const char nul[] = "time_ms,op,key,size\n"
                              "0,get,a,1\n"
                              "1,get,b\0c,1\n";
    static const char badhdr[] = "time,op,key,size\n0,get,\xc3\xa9,1\n";
    struct sim_trace_reader *r = (void *)1;
    struct pt_err err;
    const char *path;
    (void)state;

    assert_int_equal(
        read_all_csv(write_file("utf8.csv", utf8, sizeof(utf8) - 1), &err), 2);
    assert_int_equal(
        read_all_csv(write_file("bom.csv", bom, sizeof(bom) - 1), &err), 2);
    assert_int_equal(
        read_all_csv(
            write_file("bomc.csv", bom_comment, sizeof(bom_comment) - 1), &err),
        1);
    /* the BOM is skipped with an explicit --trace-format csv too */
    path = write_file("bom2.csv", bom, sizeof(bom) - 1);
    assert_int_equal(sim_trace_open(path, SIM_TRACE_CSV, &r, &err), 0);
    sim_trace_close(r);

    assert_int_equal(
        read_all_csv(write_file("nul.csv", nul, sizeof(nul) - 1), &err),
        PT_EDATA);
    assert_non_null(strstr(err.msg, "nul.csv:3:"));
    assert_non_null(strstr(err.msg, "NUL"));

    /* UTF-8 text with a wrong header: a clear error at line 1 */
    path = write_file("badhdr.csv", badhdr, sizeof(badhdr) - 1);
    assert_int_equal(sim_trace_open(path, SIM_TRACE_AUTO, &r, &err), PT_EDATA);
    assert_null(r);
    assert_non_null(strstr(err.msg, "badhdr.csv:1: bad header"));
}

/* Binary records that begin like a comment line are still oracleGeneral. */
static void test_detect_binary(void **state)
{
    char path[256];
    struct sim_trace_reader *r;
    struct sim_req q;
    struct pt_err err;
    FILE *fp;
    (void)state;

    snprintf(path, sizeof(path), "%s/hash.oracleGeneral.bin", tmpdir);
    fp = fopen(path, "wb");
    assert_non_null(fp);
    /* time 0x0a23 is the bytes "#\n\0\0"; obj_id 0x2c2c2c2c ",,,,\0\0\0\0" */
    assert_int_equal(
        sim_trace_write_oracle(fp, 0x0a23u, 0x2c2c2c2cu, 7u, -1, &err), 0);
    assert_int_equal(sim_trace_write_oracle(fp, 0x0a24u, 5u, 8u, -1, &err), 0);
    assert_int_equal(fclose(fp), 0);
    assert_int_equal(sim_trace_open(path, SIM_TRACE_AUTO, &r, &err), 0);
    assert_int_equal(sim_trace_format_of(r), SIM_TRACE_ORACLE);
    assert_int_equal(sim_trace_next(r, &q, &err), 1);
    assert_int_equal(q.size_bytes, 7u);
    assert_int_equal(sim_trace_next(r, &q, &err), 1);
    assert_int_equal(sim_trace_next(r, &q, &err), 0);
    sim_trace_close(r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_csv_basic),
        cmocka_unit_test(test_csv_errors),
        cmocka_unit_test(test_csv_header),
        cmocka_unit_test(test_csv_roundtrip_large),
        cmocka_unit_test(test_csv_fast_and_careful),
        cmocka_unit_test(test_writer_rejects_bad_keys),
        cmocka_unit_test(test_oracle_roundtrip),
        cmocka_unit_test(test_batches),
        cmocka_unit_test(test_detect_text_is_csv),
        cmocka_unit_test(test_detect_binary),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
