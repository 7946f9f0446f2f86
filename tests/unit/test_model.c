/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_model.c — unit tests for model/, linked to pt_model alone: the DB2
 * page-fit rules as read from the shipped profiles/engines/db2.yaml (through
 * the one profile loader, rec_profiles_load), the device model with IBM's
 * TRANSFERRATE formula, every shipped engine profile, size statistics and
 * the sizes parsers, default names and trace evidence, change thresholds
 * in profiles, and the server state's JSON. The recommend step's tests are
 * test_recommend.c.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/model.h"

static struct rec_engine db2;
static struct rec_device hdd, ssd;

/* db2 with hdd, then ssd, through the model's one profile loader. */
static int load_profiles(void **state)
{
    char ep[4096], dp[4096];
    struct pt_err err;
    (void)state;

    if (rec_profiles_load("db2", "hdd", &db2, &hdd, ep, dp, sizeof(ep), &err) <
            0 ||
        rec_profiles_load("db2", "ssd", &db2, &ssd, ep, dp, sizeof(ep), &err) <
            0) {
        print_error("%s\n", err.msg);
        return -1;
    }
    return 0;
}

static int load_engine(const char *name, struct rec_engine *e)
{
    char ep[4096];
    struct pt_err err;
    int rc = rec_profiles_load(name, NULL, e, NULL, ep, NULL, sizeof(ep), &err);

    if (rc < 0)
        print_error("%s\n", err.msg);
    return rc;
}

static void test_db2_profile(void **state)
{
    static const uint32_t ps[] = {4096, 8192, 16384, 32768};
    static const uint32_t small[] = {3122, 7218, 15410, 31794};
    static const uint32_t maxrow[] = {4005, 8101, 16293, 32677};
    (void)state;

    assert_string_equal(db2.name, "db2");
    assert_int_equal(db2.n_pages, 4);
    for (size_t i = 0; i < 4; i++) {
        assert_int_equal(db2.pages[i].page_size_bytes, ps[i]);
        assert_int_equal(db2.pages[i].inline_limit_bytes, small[i]);
        assert_int_equal(db2.pages[i].max_row_bytes, maxrow[i]);
        assert_int_equal(db2.pages[i].usable_bytes, ps[i] - 68);
        /* SMALL length s = 3122 + page size - 4096 */
        assert_int_equal(small[i], 3122 + ps[i] - 4096);
    }
    assert_int_equal(db2.max_rows_per_page, 255);
    assert_int_equal(db2.n_outline, 2);
    assert_string_equal(db2.outline[0].name, "MEDIUM");
    assert_int_equal(db2.outline[0].max_bytes, 32700);
    assert_string_equal(db2.outline[1].name, "LARGE");
    assert_int_equal(db2.outline[1].max_bytes, 2097152);
    assert_int_equal(db2.outline_buffered, 0);
    assert_int_equal(db2.direct_io_unit_bytes, 512);
    assert_null(rec_engine_page(&db2, 2048));
    assert_non_null(rec_engine_page(&db2, 16384));
}

static void test_placement(void **state)
{
    const struct rec_page_rule *p4 = rec_engine_page(&db2, 4096);
    const struct rec_page_rule *p8 = rec_engine_page(&db2, 8192);
    const struct rec_page_rule *p32 = rec_engine_page(&db2, 32768);
    char buf[64];
    (void)state;

    /* the boundaries, byte-exact */
    assert_int_equal(rec_engine_place(&db2, p4, 3122), REC_PLACE_INLINE);
    assert_int_equal(rec_engine_place(&db2, p4, 3123), 1); /* MEDIUM */
    assert_int_equal(rec_engine_place(&db2, p4, 4000), 1);
    assert_int_equal(rec_engine_place(&db2, p8, 4000), REC_PLACE_INLINE);
    assert_int_equal(rec_engine_place(&db2, p8, 7218), REC_PLACE_INLINE);
    assert_int_equal(rec_engine_place(&db2, p8, 7219), 1);
    assert_int_equal(rec_engine_place(&db2, p4, 32700), 1);
    assert_int_equal(rec_engine_place(&db2, p4, 32701), 2); /* LARGE */
    assert_int_equal(rec_engine_place(&db2, p32, 31794), REC_PLACE_INLINE);
    assert_int_equal(rec_engine_place(&db2, p32, 31795), 1);
    assert_int_equal(rec_engine_place(&db2, p32, 2097152), 2);
    assert_int_equal(rec_engine_place(&db2, p32, 2097153), REC_PLACE_TOO_BIG);

    /* rows: fixed part + object inline, or + descriptor out of line */
    assert_int_equal(rec_engine_row_bytes(&db2, p4, 1000),
                     db2.row_fixed_bytes + 1000);
    assert_int_equal(rec_engine_row_bytes(&db2, p4, 4000),
                     db2.row_fixed_bytes + db2.outline[0].descriptor_bytes);
    /* floor(usable / (row + overhead)), capped at 255 */
    assert_int_equal(rec_engine_rows_per_page(&db2, p4, 1000),
                     4028 /
                         (db2.row_fixed_bytes + 1000 + db2.row_overhead_bytes));
    assert_int_equal(rec_engine_rows_per_page(&db2, p8, 4000), 1);
    assert_int_equal(
        rec_engine_rows_per_page(&db2, p32, 0),
        32700 / (db2.row_fixed_bytes + db2.row_overhead_bytes) > 255
            ? 255
            : 32700 / (db2.row_fixed_bytes + db2.row_overhead_bytes));
    /* an inline row at the limit still fits one per page */
    assert_int_equal(rec_engine_rows_per_page(&db2, p4, 3122), 1);
    assert_string_equal(rec_engine_page_list(&db2, buf, sizeof(buf)),
                        "4K, 8K, 16K, 32K");
}

static void test_bad_engine_profile(void **state)
{
    struct rec_engine e;
    struct pt_err err;
    json_t *p;
    (void)state;

    p = json_loads("{\"name\":\"x\",\"max_rows_per_page\":255,"
                   "\"row_fixed_bytes\":1,\"row_overhead_bytes\":1,"
                   "\"pages\":[{\"page_size\":8192,\"inline_limit\":10,"
                   "\"max_row\":100},{\"page_size\":4096,\"inline_limit\":10,"
                   "\"max_row\":100}]}",
                   0, NULL);
    assert_int_equal(rec_engine_from_json(&e, p, "x.yaml", &err), PT_EDATA);
    assert_non_null(strstr(err.msg, "ascending"));
    json_decref(p);
    p = json_loads("{\"name\":\"x\",\"max_rows_per_page\":255,"
                   "\"row_fixed_bytes\":1,\"row_overhead_bytes\":1}",
                   0, NULL);
    assert_int_equal(rec_engine_from_json(&e, p, "x.yaml", &err), PT_EDATA);
    assert_non_null(strstr(err.msg, "pages"));
    json_decref(p);
    p = json_loads("{\"name\":\"x\",\"row_fixed_bytes\":1}", 0, NULL);
    assert_int_equal(rec_engine_from_json(&e, p, "x.yaml", &err), PT_EDATA);
    assert_non_null(strstr(err.msg, "max_rows_per_page"));
    json_decref(p);
    /* a "toast" mapping missing a figure, or with a zero chunk size:
       one line naming the key (issue 23) */
    p = json_loads("{\"name\":\"x\",\"max_rows_per_page\":255,"
                   "\"row_fixed_bytes\":1,\"row_overhead_bytes\":1,"
                   "\"toast\":{\"tuple_header\":23}}",
                   0, NULL);
    assert_int_equal(rec_engine_from_json(&e, p, "x.yaml", &err), PT_EDATA);
    assert_non_null(strstr(err.msg, "x.yaml: toast"));
    assert_non_null(strstr(err.msg, "maxalign"));
    json_decref(p);
    p = json_loads("{\"name\":\"x\",\"max_rows_per_page\":255,"
                   "\"row_fixed_bytes\":1,\"row_overhead_bytes\":1,\"toast\":{"
                   "\"tuple_header\":23,\"maxalign\":8,\"item_id\":4,"
                   "\"threshold\":2032,\"target_main\":8160,\"chunk_size\":0,"
                   "\"chunk_fixed\":8,\"pointer\":18,\"short_max\":127,"
                   "\"varlena_header\":4,\"compressed_header\":8,"
                   "\"index_entry\":20,\"index_fillfactor\":90}}",
                   0, NULL);
    assert_int_equal(rec_engine_from_json(&e, p, "x.yaml", &err), PT_EDATA);
    assert_non_null(strstr(err.msg, "chunk_size"));
    json_decref(p);
}

static void test_device(void **state)
{
    struct rec_device d100 = {"x", 6.725, 100};
    struct rec_device bad;
    struct pt_err err;
    json_t *p;
    (void)state;

    /* IBM's table: 100 MB/s -> 0.04 / 0.08 / 0.16 / 0.32 ms per page */
    assert_true(fabs(rec_device_transfer_ms(&d100, 4096) - 0.04) < 1e-9);
    assert_true(fabs(rec_device_transfer_ms(&d100, 8192) - 0.08) < 1e-9);
    assert_true(fabs(rec_device_transfer_ms(&d100, 16384) - 0.16) < 1e-9);
    assert_true(fabs(rec_device_transfer_ms(&d100, 32768) - 0.32) < 1e-9);
    assert_true(fabs(rec_device_read_ms(&d100, 4096) - 6.765) < 1e-9);
    assert_true(fabs(hdd.overhead_ms - 6.725) < 1e-12);
    assert_true(fabs(hdd.transfer_mb_s - 100) < 1e-12);
    assert_true(ssd.overhead_ms < hdd.overhead_ms);

    p = json_loads("{\"name\":\"z\",\"overhead_ms\":1,\"transfer_mb_s\":0}", 0,
                   NULL);
    assert_int_equal(rec_device_from_json(&bad, p, "z.yaml", &err), PT_EDATA);
    assert_non_null(strstr(err.msg, "transfer_mb_s"));
    json_decref(p);
}

static void test_stats(void **state)
{
    uint64_t v[] = {5000, 100, 3000, 2000, 1000, 4000, 7000, 6000, 9000, 8000};
    struct rec_size_stats st;
    struct pt_err err;
    json_t *doc;
    (void)state;

    assert_int_equal(rec_stats_compute(&st, v, 10, &err), 0);
    assert_int_equal(st.count, 10);
    assert_int_equal(st.min, 100);
    assert_int_equal(st.max, 9000);
    assert_true(fabs(st.mean - 4510.0) < 1e-9);
    /* nearest rank: ceil(p/100 * 10) - 1 */
    assert_int_equal(st.p50, 4000);
    assert_int_equal(st.p90, 8000);
    assert_int_equal(st.p95, 9000);
    assert_int_equal(st.p99, 9000);
    assert_int_equal(v[0], 100); /* sorted in place */
    /* bins: <=1K: 100,1000; <=2K: 2000; <=4K: 3000,4000; <=8K: 5..8000;
     * <=16K: 9000 */
    assert_int_equal(st.n_bins, 5);
    assert_int_equal(st.bins[0].le, 1024);
    assert_int_equal(st.bins[0].count, 2);
    assert_int_equal(st.bins[2].le, 4096);
    assert_int_equal(st.bins[2].count, 2);
    assert_int_equal(st.bins[3].count, 4);
    assert_int_equal(st.bins[4].le, 16384);
    assert_int_equal(st.bins[4].count, 1);
    assert_int_equal(rec_stats_compute(&st, v, 0, &err), PT_EDATA);

    assert_int_equal(rec_stats_compute(&st, v, 10, &err), 0);
    doc = rec_stats_to_json(&st, v, 10, NULL);
    assert_non_null(doc);
    assert_int_equal(json_integer_value(json_object_get(doc, "p90")), 8000);
    assert_int_equal(json_array_size(json_object_get(doc, "values")), 10);
    assert_int_equal(json_array_size(json_object_get(doc, "histogram")), 5);
    json_decref(doc);
}

static void test_sizes_text(void **state)
{
    struct rec_sizes s;
    struct pt_err err;
    const char *ok = "# sizes\n4000\n  30000  # big one\n\t2000\r\n0\n";
    (void)state;

    assert_int_equal(rec_sizes_parse_text(&s, ok, strlen(ok), "a.txt", &err),
                     0);
    assert_int_equal(s.n, 4);
    assert_int_equal(s.values[1], 30000);
    assert_int_equal(s.values[3], 0);
    rec_sizes_release(&s);

    assert_int_equal(rec_sizes_parse_text(&s, "1\n2\nabc\n", 8, "b.txt", &err),
                     PT_EDATA);
    assert_string_equal(err.msg,
                        "b.txt:3: not a byte size: 'abc' (one integer per "
                        "line)");
    assert_null(s.values);
    assert_int_equal(rec_sizes_parse_text(&s, "1\n-5\n", 5, "c.txt", &err),
                     PT_EDATA);
    assert_non_null(strstr(err.msg, "c.txt:2: negative"));
    assert_int_equal(rec_sizes_parse_text(&s, "1\n\n2\n", 5, "d.txt", &err),
                     PT_EDATA);
    assert_non_null(strstr(err.msg, "d.txt:2: empty"));
    assert_int_equal(rec_sizes_parse_text(&s, "", 0, "e.txt", &err), PT_EDATA);
    assert_non_null(strstr(err.msg, "e.txt: no sizes"));
    assert_int_equal(rec_sizes_parse_text(&s, "# only\n", 7, "f.txt", &err),
                     PT_EDATA);
    assert_int_equal(rec_sizes_parse_text(&s, "4K\n", 3, "g.txt", &err),
                     PT_EDATA);
    assert_int_equal(rec_sizes_parse_text(&s, "1.5\n", 4, "h.txt", &err),
                     PT_EDATA);
    assert_int_equal(rec_sizes_parse_text(&s, "99999999999999999999999\n", 24,
                                          "i.txt", &err),
                     PT_EDATA);
    assert_non_null(strstr(err.msg, "i.txt:1: size too large"));
}

/* Weighted percentiles are the plain ones of the expanded list. */
static void test_percentile_weighted(void **state)
{
    const uint64_t v[] = {10, 20, 30, 40}, c[] = {1, 0, 3, 6};
    const uint64_t x[] = {10, 30, 30, 30, 40, 40, 40, 40, 40, 40};
    (void)state;

    for (int pct = 1; pct <= 100; pct++)
        assert_int_equal(rec_percentile_weighted(v, c, 4, 10, pct),
                         rec_percentile(x, 10, pct));
    assert_int_equal(rec_percentile_weighted(v, NULL, 4, 4, 50), 20);
    assert_int_equal(rec_percentile_weighted(v, c, 0, 0, 50), 0);
}

static void test_engine_profiles(void **state)
{
    struct rec_engine e;
    const struct rec_page_rule *p;
    (void)state;

    /* PostgreSQL: one 8K page, TOAST buffered, the knob's documented range */
    assert_int_equal(load_engine("postgresql", &e), 0);
    assert_int_equal(e.n_pages, 1);
    assert_int_equal(e.pages[0].page_size_bytes, 8192);
    assert_true(e.outline_buffered);
    assert_true(e.knob.present);
    assert_string_equal(e.knob.name, "toast_tuple_target");
    assert_int_equal(e.knob.min, 128);
    assert_int_equal(e.knob.max, 8160);
    assert_int_equal(e.knob.default_value, 2032);
    /* default inline limit = TOAST_TUPLE_THRESHOLD - offset */
    assert_int_equal(e.pages[0].inline_limit_bytes, 2032 - e.knob.offset_bytes);
    assert_int_equal(rec_engine_place(&e, &e.pages[0], 3072), 1);

    /* InnoDB: 4K..64K, row limit about half a page, 16383 at 64K */
    assert_int_equal(load_engine("mysql", &e), 0);
    assert_int_equal(e.n_pages, 5);
    assert_int_equal(e.pages[4].page_size_bytes, 65536);
    assert_int_equal(e.pages[4].max_row_bytes, 16383);
    p = rec_engine_page(&e, 16384);
    assert_non_null(p);
    assert_int_equal(p->max_row_bytes, 8126);
    assert_true(e.outline_buffered);
    assert_int_equal(e.outline[0].descriptor_bytes, 20);
    /* measured on MariaDB 10.11 (docs/models.md#page-fit-mysql): with
       (id bigint, v longblob) the rest of the row is 9 bytes and v stays
       in the row up to 8096 bytes; a BLOB page carries 16330 */
    rec_engine_set_row_fixed(&e, 9);
    p = rec_engine_page(&e, 16384);
    assert_int_equal(p->inline_limit_bytes, 8096);
    assert_int_equal(rec_engine_place(&e, p, 8096), REC_PLACE_INLINE);
    assert_int_equal(rec_engine_place(&e, p, 8097), 1);
    assert_int_equal(p->outline_payload_bytes, 16330);
    /* the 1024-byte reserve binds from the third record: two 8000-byte
       rows share a page, 2600-byte rows fit 5 in 16252 - 1024, not 6 */
    assert_int_equal(p->usable_bytes, 16252);
    assert_int_equal(p->insert_reserve_bytes, 1024);
    assert_int_equal(rec_engine_rows_per_page(&e, p, 8000), 2);
    assert_int_equal(rec_engine_rows_per_page(&e, p, 2600), 5);

    /* SQLite: X = U - 35 bounds the payload at every page size */
    assert_int_equal(load_engine("sqlite", &e), 0);
    assert_int_equal(e.n_pages, 7);
    for (size_t i = 0; i < e.n_pages; i++) {
        assert_int_equal(e.pages[i].max_row_bytes,
                         e.pages[i].page_size_bytes - 35);
        assert_int_equal(e.pages[i].outline_payload_bytes,
                         e.pages[i].page_size_bytes - 4);
        assert_true(e.pages[i].inline_limit_bytes < e.pages[i].max_row_bytes);
    }

    /* Oracle: 2K..32K blocks, ~4000-byte in-row LOBs, NOCACHE = direct */
    assert_int_equal(load_engine("oracle", &e), 0);
    assert_int_equal(e.pages[0].page_size_bytes, 2048);
    assert_int_equal(e.pages[e.n_pages - 1].page_size_bytes, 32768);
    assert_int_equal(rec_engine_page(&e, 8192)->inline_limit_bytes, 3964);
    assert_false(e.outline_buffered);
}

static void test_names_transfer_trace_evidence(void **state)
{
    struct rec_trace_evidence t = {0};
    struct rec_access a;
    struct pt_err err;
    char b[32];
    (void)state;

    assert_string_equal(
        rec_default_name(REC_OBJ_BUFFERPOOL, 8192, b, sizeof(b)), "SESSBP8K");
    assert_string_equal(
        rec_default_name(REC_OBJ_TABLESPACE, 32768, b, sizeof(b)), "SESSTS32K");
    /* IBM's example: 100 MB/s and 4K pages -> 0.04 ms */
    assert_true(fabs(rec_transfer_ms(100, 4096) - 0.04) < 1e-12);
    assert_true(rec_transfer_ms(hdd.transfer_mb_s, 8192) ==
                rec_device_transfer_ms(&hdd, 8192));
    assert_true(fabs(rec_device_read_ms(&hdd, 4096) -
                     (hdd.overhead_ms +
                      rec_transfer_ms(hdd.transfer_mb_s, 4096))) < 1e-12);

    /* key 2 set then read twice, key 0 read, key 2 deleted: sizes stay */
    assert_int_equal(rec_trace_evidence_add(&t, 2, 5000, REC_TRACE_SET, &err),
                     0);
    assert_int_equal(rec_trace_evidence_add(&t, 2, 6000, REC_TRACE_GET, &err),
                     0);
    assert_int_equal(rec_trace_evidence_add(&t, 2, 6000, REC_TRACE_GET, &err),
                     0);
    assert_int_equal(rec_trace_evidence_add(&t, 0, 700, REC_TRACE_GET, &err),
                     0);
    assert_int_equal(rec_trace_evidence_add(&t, 2, 0, REC_TRACE_DEL, &err), 0);
    /* a key beyond the first allocation grows the arrays */
    assert_int_equal(rec_trace_evidence_add(&t, 5000, 10, REC_TRACE_SET, &err),
                     0);
    assert_int_equal(t.requests, 6);
    assert_int_equal(t.n_gets, 3);
    rec_trace_evidence_access(&t, &a);
    assert_int_equal(a.n_keys, 5001);
    assert_int_equal(a.size_bytes[2], 6000);
    assert_int_equal(a.gets[2], 2);
    assert_int_equal(a.size_bytes[0], 700);
    assert_int_equal(a.size_bytes[1], 0);
    assert_int_equal(a.gets[1], 0);
    assert_int_equal(a.size_bytes[5000], 10);
    rec_trace_evidence_release(&t);
    assert_null(t.gets);
    rec_trace_evidence_release(&t); /* a released struct is zeroed */
}

static void test_bad_thresholds(void **state)
{
    struct rec_engine e;
    struct pt_err err;
    json_t *p;
    (void)state;

    assert_int_equal(prof_load_named("engines", "mysql", &p, &err), 0);
    /* a new instance may not need less gain than a rebuild */
    json_object_set_new(p, "change_thresholds",
                        json_pack("{s:f,s:f,s:f}", "reloption", 0.05, "rebuild",
                                  0.3, "new_instance", 0.2));
    assert_int_equal(rec_engine_from_json(&e, p, "m.yaml", &err), PT_EDATA);
    assert_non_null(strstr(err.msg, "reloption <= rebuild <= new_instance"));
    json_decref(p);
}

static void test_state_json(void **state)
{
    struct rec_state st = {0}, back = {0};
    struct pt_err err;
    json_t *o, *j;
    char buf[32];
    (void)state;

    o = json_pack("{s:{s:i,s:s},s:{s:s,s:s},s:{s:n,s:s},s:i,s:s,s:i}",
                  "toast_tuple_target", "value", 2500, "source", "server",
                  "storage", "value", "e", "source", "server",
                  "shared_buffers_auto_conf", "value", "source", "server",
                  "page_size", 8192, "bufferpool", "IBMDEFAULTBP", "frob", 3);
    assert_int_equal(rec_state_merge_json(&st, o, "postgresql",
                                          REC_SOURCE_SERVER, "s.json", &err),
                     0);
    json_decref(o);
    /* catalog letters become keywords; plain known figures count as read;
     * unknown plain members are ignored */
    assert_string_equal(rec_state_get(&st, "storage")->word, "EXTERNAL");
    assert_int_equal(rec_state_get(&st, "page_size")->num, 8192);
    assert_null(rec_state_get(&st, "bufferpool"));
    assert_null(rec_state_get(&st, "frob"));
    assert_false(rec_state_get(&st, "shared_buffers_auto_conf")->is_set);
    rec_state_fill_defaults(&st, "postgresql");
    assert_int_equal(rec_state_get(&st, "shared_buffers")->source,
                     REC_SOURCE_DEFAULT);
    assert_int_equal(rec_state_get(&st, "toast_tuple_target")->num, 2500);
    /* round trip */
    j = rec_state_to_json(&st);
    assert_int_equal(rec_state_merge_json(&back, j, "postgresql",
                                          REC_SOURCE_SERVER, "r.json", &err),
                     0);
    json_decref(j);
    assert_int_equal(back.n, st.n);
    for (size_t i = 0; i < st.n; i++) {
        const struct rec_knob *k = rec_state_get(&back, st.knobs[i].name);
        assert_non_null(k);
        assert_true(rec_knob_equal(k, &st.knobs[i]));
        assert_int_equal(k->source, st.knobs[i].source);
    }
    assert_string_equal(
        rec_knob_text(rec_state_get(&back, "shared_buffers_auto_conf"), buf,
                      sizeof(buf)),
        "null");
    /* bad input: one line naming the file and the knob */
    o = json_pack("{s:{s:s,s:s}}", "storage", "value", "EXTERNAL; DROP",
                  "source", "server");
    assert_int_equal(rec_state_merge_json(&st, o, "postgresql",
                                          REC_SOURCE_SERVER, "c.json", &err),
                     PT_EDATA);
    assert_non_null(strstr(err.msg, "c.json: current.storage"));
    json_decref(o);
    o = json_pack("{s:{s:i,s:s}}", "page_size", "value", 4096, "source",
                  "guess");
    assert_int_equal(rec_state_merge_json(&st, o, "sqlite", REC_SOURCE_SERVER,
                                          "c.json", &err),
                     PT_EDATA);
    assert_non_null(strstr(err.msg, "'source' must be"));
    json_decref(o);
    o = json_pack("{s:{s:[]}}", "page_size", "value");
    assert_int_equal(rec_state_merge_json(&st, o, "sqlite", REC_SOURCE_SERVER,
                                          "c.json", &err),
                     PT_EDATA);
    json_decref(o);
}

/* ---- issue 23: pglz and the toaster ----------------------------------- */

static void test_pglz_size(void **state)
{
    static struct rec_pglz_work w;
    uint8_t buf[4096];
    uint32_t x = 12345;
    (void)state;

    /* under 32 bytes: never compressed (PGLZ_strategy_default) */
    memset(buf, 'a', sizeof(buf));
    assert_int_equal(rec_pglz_size(&w, buf, 31, NULL), -1);
    /* 200 equal bytes: a control byte, a literal and a 3-byte tag of 199
       (pg_lzcompress.c's own example: 4 bytes) */
    assert_int_equal(rec_pglz_size(&w, buf, 200, NULL), 5);
    /* random bytes: no match in the first 1024 output bytes, gives up */
    for (size_t i = 0; i < sizeof(buf); i++) {
        x = x * 1103515245u + 12345u;
        buf[i] = (uint8_t)(x >> 16);
    }
    assert_int_equal(rec_pglz_size(&w, buf, sizeof(buf), NULL), -1);
    /* the datum: 8-byte header, kept only when more than 2 bytes shorter */
    assert_int_equal(rec_pglz_datum_bytes(100, 200, 8), 108);
    assert_int_equal(rec_pglz_datum_bytes(190, 200, 8), -1);
    assert_int_equal(rec_pglz_datum_bytes(-1, 200, 8), -1);
}

static void test_pg_toaster(void **state)
{
    struct rec_engine e;
    struct rec_pg_table t;
    struct rec_pg_tuple tu;
    (void)state;

    assert_int_equal(load_engine("postgresql", &e), 0);
    assert_true(e.pg.present);
    memset(&t, 0, sizeof(t));
    t.target_bytes = 2032;
    t.fillfactor = 100;
    t.rest_bytes = 4; /* an int id */
    t.n_columns = 1;
    t.share[0] = 1;
    t.storage[0] = 'x';
    /* 2000 bytes: 24 + 4 + 4 + 2000 = 2032, not over the threshold */
    rec_pg_tuple_fit(&e.pg, &t, 2000, &tu);
    assert_int_equal(tu.n_external, 0);
    assert_int_equal(tu.heap_bytes, 2032 + 4);
    /* 3000 incompressible: out of line, 2 chunks, an 18-byte pointer */
    rec_pg_tuple_fit(&e.pg, &t, 3000, &tu);
    assert_int_equal(tu.n_external, 1);
    assert_int_equal(tu.toast_chunks, 2);
    assert_int_equal(tu.heap_bytes, 48 + 4); /* MAXALIGN(24 + 4 + 18) */
    assert_int_equal(rec_pg_chunk_tuple_bytes(&e.pg, 1996), 2036);
    /* compressible 5000 bytes at ratio 0.1: compressed in line */
    t.ratio = 0.1;
    rec_pg_tuple_fit(&e.pg, &t, 5000, &tu);
    assert_int_equal(tu.n_external, 0);
    assert_int_equal(tu.n_compressed, 1);
    assert_int_equal(tu.heap_bytes, 24 + 4 + 8 + 500 + 4); /* + item */
    /* the same under a target of 6000: the row is under it, so the
       toaster stops before compressing (stored raw) */
    t.target_bytes = 6000;
    rec_pg_tuple_fit(&e.pg, &t, 5000, &tu);
    assert_int_equal(tu.n_compressed, 0);
    assert_int_equal(tu.heap_bytes, 24 + 4 + 4 + 5000 + 4);
    /* compressible rows under the threshold: stored raw */
    t.target_bytes = 2032;
    rec_pg_tuple_fit(&e.pg, &t, 1500, &tu);
    assert_int_equal(tu.n_compressed, 0);
    /* EXTERNAL: never compressed, moved out */
    t.storage[0] = 'e';
    rec_pg_tuple_fit(&e.pg, &t, 5000, &tu);
    assert_int_equal(tu.n_compressed, 0);
    assert_int_equal(tu.n_external, 1);
    /* four 500-byte incompressible columns: the toaster moves one out */
    t.storage[0] = 'x';
    t.ratio = 0;
    t.n_columns = 4;
    for (int i = 0; i < 4; i++) {
        t.share[i] = 0.25;
        t.storage[i] = 'x';
    }
    rec_pg_tuple_fit(&e.pg, &t, 2000, &tu);
    assert_int_equal(tu.n_external, 1);
    assert_int_equal(tu.toast_chunks, 1);
    /* fillfactor 90: 819 bytes of each page stay free */
    t.fillfactor = 90;
    assert_int_equal(rec_pg_rows_per_page(&t, 8192, 8168, 1000), 7);
    t.fillfactor = 100;
    assert_int_equal(rec_pg_rows_per_page(&t, 8192, 8168, 1000), 8);
}

/*
 * SQLite's table b-tree (sqlbtree.c) against sqlite3 3.40 and dbstat: at
 * 1K pages a 2000-byte payload keeps K = 980 bytes in the leaf and one
 * overflow page; a 2023-byte one has K = 1003 > X = 989, keeps M = 103
 * and two overflow pages; 20000 rows of 50-byte BLOBs fill 1177 leaves
 * and 12 interior pages.
 */
static void test_sqlite_btree(void **state)
{
    struct rec_engine e;
    struct rec_sq_cell c;
    const struct rec_page_rule *p;

    (void)state;
    assert_int_equal(load_engine("sqlite", &e), 0);
    assert_true(e.sq.present);
    /* 4K: P = 4061 = X stays whole, 4062 keeps M = 489 */
    rec_sq_cell_fit(&e.sq, 4096, 4061, 1, &c);
    assert_int_equal(c.overflow_pages, 0);
    assert_int_equal(c.cell_bytes, 2 + 1 + 4061 + 2);
    rec_sq_cell_fit(&e.sq, 4096, 4062, 1, &c);
    assert_int_equal(c.local_bytes, 489);
    assert_int_equal(c.overflow_pages, 1);
    assert_int_equal(c.cell_bytes, 2 + 1 + 489 + 4 + 2);
    rec_sq_cell_fit(&e.sq, 1024, 2000, 1, &c);
    assert_int_equal(c.local_bytes, 980);
    assert_int_equal(c.overflow_pages, 1);
    rec_sq_cell_fit(&e.sq, 1024, 2023, 2, &c);
    assert_int_equal(c.local_bytes, 103);
    assert_int_equal(c.overflow_pages, 2);
    rec_sq_cell_fit(&e.sq, 1024, 53, 20000, &c);
    assert_int_equal((1024 - 8) / c.cell_bytes, 17);
    assert_true(rec_sq_interior_pages(&e.sq, 1024, 1177, 20000) == 12.0);
    assert_true(rec_sq_interior_pages(&e.sq, 1024, 1, 1) == 0.0);
    /* a measured rest holds the record header: the inline limit is X -
       rest (4 bytes: header size, rowid alias, the BLOB's serial type) */
    rec_engine_set_row_fixed(&e, 4);
    p = rec_engine_page(&e, 4096);
    assert_int_equal(p->inline_limit_bytes, 4061 - 4);
    assert_int_equal(rec_sq_payload(&e, 4057), 4061);
}

/*
 * The page packer against hio.c's rules (model/pgtoast.c
 * rec_pg_pack_add): a tuple that does not fit the target page goes to
 * the first page the free space map offers from its next slot on
 * (32-byte categories), else a new page; no_map appends only.
 */
static size_t ref_pack(const uint32_t *b, size_t n, uint32_t usable)
{
    static uint32_t used[16384];
    static uint8_t cat[16384];
    size_t pages = 0, target = 0, next = 0;

    for (size_t i = 0; i < n; i++) {
        size_t page, found = (size_t)-1;
        if (pages && used[target] + b[i] <= usable) {
            used[target] += b[i];
            continue;
        }
        for (page = target; pages;) {
            uint32_t left = usable - used[page];
            uint32_t need = (b[i] - 4 + 31) / 32;
            cat[page] = (uint8_t)((left > 4 ? left - 4 : 0) / 32);
            found = (size_t)-1;
            for (size_t k = 0; k < pages && found == (size_t)-1; k++)
                if (cat[(next + k) % pages] >= need)
                    found = (next + k) % pages;
            if (found == (size_t)-1)
                break;
            next = found + 1;
            if (used[found] + b[i] <= usable)
                break;
            page = found;
        }
        if (found != (size_t)-1 && used[found] + b[i] <= usable) {
            target = found;
            used[found] += b[i];
            continue;
        }
        assert_true(pages < 16384);
        cat[pages] = 0;
        used[pages] = b[i];
        target = pages++;
    }
    return pages;
}

static void test_pg_pack(void **state)
{
    struct rec_pg_pack k;
    static uint32_t b[20000];
    uint64_t x = 12345;

    (void)state;
    /* 5000, 5000, 3000, 3000: the second 3000 fills the first page's gap
       (its 3168 bytes recorded as category 98 >= 94 needed) */
    rec_pg_pack_init(&k, 8192, 8168, 100);
    rec_pg_pack_add(&k, 5000);
    rec_pg_pack_add(&k, 5000);
    rec_pg_pack_add(&k, 3000);
    rec_pg_pack_add(&k, 3000);
    assert_true(k.pages == 2.0);
    rec_pg_pack_free(&k);
    /* without the map (SQLite leaves, VACUUM FULL): three pages */
    rec_pg_pack_init(&k, 8192, 8168, 100);
    k.no_map = 1;
    for (int i = 0; i < 4; i++)
        rec_pg_pack_add(&k, i < 2 ? 5000 : 3000);
    assert_true(k.pages == 3.0);
    rec_pg_pack_free(&k);
    /* fillfactor 50 keeps 4096 bytes free: 3000 + 3000 do not share */
    rec_pg_pack_init(&k, 8192, 8168, 50);
    rec_pg_pack_add(&k, 3000);
    rec_pg_pack_add(&k, 3000);
    assert_true(k.pages == 2.0);
    rec_pg_pack_free(&k);
    /* 20,000 mixed tuples (past the map's first 1024 pages, so it
       grows): the tree search equals a linear search, page for page */
    for (size_t i = 0; i < 20000; i++) {
        x = x * 6364136223846793005ULL + 1442695040888963407ULL;
        b[i] = 40 + (uint32_t)((x >> 33) % 4000);
    }
    rec_pg_pack_init(&k, 8192, 8168, 100);
    for (size_t i = 0; i < 20000; i++)
        rec_pg_pack_add(&k, b[i]);
    assert_true(k.pages == (double)ref_pack(b, 20000, 8168));
    assert_true(k.pages > 1024);
    rec_pg_pack_free(&k);
}

/* The visits of rec_pg_pack_place: pages read on the way, new or not. */
struct visits {
    size_t page[8];
    int is_new[8];
    size_t n;
};
static void on_visit(void *ctx, size_t page, int is_new)
{
    struct visits *v = ctx;
    if (v->n < 8) {
        v->page[v->n] = page;
        v->is_new[v->n] = is_new;
    }
    v->n++;
}

/*
 * rec_pg_pack_place against hio.c's RelationGetBufferForTuple with
 * pages that empty again (advise/pgpredict.c): each backend keeps its
 * own target; a backend without one asks the map, else takes the last
 * page; space pruning frees (rec_pg_pack_release) is not in the map
 * until VACUUM records it (rec_pg_pack_record); a new page is visited as
 * new.
 */
static void test_pg_pack_place(void **state)
{
    struct rec_pg_pack k;
    struct visits v = {0};
    size_t t1 = (size_t)-1, t2 = (size_t)-1;

    (void)state;
    rec_pg_pack_init(&k, 8192, 8168, 100);
    /* backend 1: an empty relation is extended, page 0 visited as new */
    assert_int_equal(rec_pg_pack_place(&k, 5000, &t1, on_visit, &v), 0);
    assert_int_equal(v.n, 1);
    assert_true(v.is_new[0]);
    /* backend 2, no target, nothing in the map: the last page, which has
       no room (3168 free): recorded, the map has nothing, a new page */
    v.n = 0;
    assert_int_equal(rec_pg_pack_place(&k, 5000, &t2, on_visit, &v), 1);
    assert_int_equal(v.n, 2);
    assert_int_equal(v.page[0], 0);
    assert_false(v.is_new[0]);
    assert_true(v.is_new[1]);
    /* backend 1's target (page 0) takes 3000: its own target first */
    v.n = 0;
    assert_int_equal(rec_pg_pack_place(&k, 3000, &t1, on_visit, &v), 0);
    assert_int_equal(v.n, 1);
    assert_int_equal(t1, 0);
    /* pruning frees page 0's 5000 bytes: not in the map (it still says
       168 bytes), so backend 2 (target page 1, 3168 free) is told of no
       page for 4000 and extends */
    rec_pg_pack_release(&k, 0, 5000);
    v.n = 0;
    assert_int_equal(rec_pg_pack_place(&k, 4000, &t2, on_visit, &v), 2);
    assert_true(v.is_new[v.n - 1]);
    /* VACUUM records page 0 (5168 free): the map now offers it */
    rec_pg_pack_record(&k, 0);
    v.n = 0;
    t2 = (size_t)-1;
    assert_int_equal(rec_pg_pack_place(&k, 4000, &t2, on_visit, &v), 0);
    assert_int_equal(v.n, 1);
    assert_int_equal(t2, 0);
    assert_true(k.pages == 3.0);
    rec_pg_pack_free(&k);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pglz_size),
        cmocka_unit_test(test_pg_toaster),
        cmocka_unit_test(test_db2_profile),
        cmocka_unit_test(test_placement),
        cmocka_unit_test(test_bad_engine_profile),
        cmocka_unit_test(test_device),
        cmocka_unit_test(test_stats),
        cmocka_unit_test(test_sizes_text),
        cmocka_unit_test(test_percentile_weighted),
        cmocka_unit_test(test_engine_profiles),
        cmocka_unit_test(test_names_transfer_trace_evidence),
        cmocka_unit_test(test_bad_thresholds),
        cmocka_unit_test(test_state_json),
        cmocka_unit_test(test_sqlite_btree),
        cmocka_unit_test(test_pg_pack),
        cmocka_unit_test(test_pg_pack_place),
    };
    return cmocka_run_group_tests_name("model", tests, load_profiles, NULL);
}
