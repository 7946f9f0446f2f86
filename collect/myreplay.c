/* SPDX-License-Identifier: Apache-2.0 */
/*
 * myreplay.c — replay a trace on real MariaDB / MySQL instances (issue 28):
 * one scratch table per candidate (ROW_FORMAT, KEY_BLOCK_SIZE), on the
 * instance the candidate names (innodb_page_size is fixed when an
 * instance is created: a page size is compared on an instance built with
 * it), filled with synthetic rows only (pgreplay.c's payloads), replayed
 * through the ODBC driver by K client connections per instance in
 * interleaved rounds, and measured by latency and by InnoDB's own
 * counters (SHOW GLOBAL STATUS: buffer pool page requests, reads, pages
 * read and written), read before and after each pass.
 *
 * Safety, per instance, in the order a run takes it:
 *   1. max_statement_time (MariaDB; MySQL: max_execution_time),
 *      lock_wait_timeout and innodb_lock_wait_timeout on every
 *      connection;
 *   2. CREATE and DROP on the scratch database, from
 *      information_schema.USER_PRIVILEGES / SCHEMA_PRIVILEGES of the
 *      current user, or PT_EPERM before anything is created (a CREATE
 *      DATABASE refused with 1044 is PT_EPERM too: odbc.c);
 *   3. GET_LOCK('pagetune replay <db>', 0) held by the run's connection
 *      until the end (a second run gets PT_EUNAVAIL); a killed run's lock
 *      ends with its connection;
 *   4. the database: absent → CREATE DATABASE ... COMMENT '<mark>' (one
 *      statement: it never exists unmarked by us); marked → a killed
 *      run's: its pt_replay_* tables dropped by name, then the database;
 *      unmarked → refused (PT_ECANTCREAT), never touched;
 *   5. the estimate against max_scratch_bytes before loading;
 *   6. at the end, whatever happened: DROP TABLE of each pt_replay_*
 *      table, then DROP DATABASE only when nothing else is left in it
 *      (DROP DATABASE would drop whatever it holds: MariaDB has no
 *      RESTRICT), then RELEASE_LOCK.
 * MariaDB facts, checked on 10.11.19: CREATE DATABASE takes COMMENT (10.5+,
 * information_schema.SCHEMATA.SCHEMA_COMMENT); max_statement_time is in
 * seconds (0: none); ROW_FORMAT=COMPRESSED is refused at page sizes over
 * 16K ("innodb_page_size > 16k" in the table's warning).
 *
 * Neighbours: replay_clients.c (the clients, passes, load and latencies
 * pgreplay.c shares), pgreplay.c (payloads, session IDs), odbc.c,
 * cli/replay_mariadb.c (options, the table or JSON).
 */
#include "collect/internal.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#define MYR_DB_MAX 48 /* the lock name stays within 64 */

static const char *const row_formats[] = {"DYNAMIC", "COMPACT", "COMPRESSED",
                                          "REDUNDANT", NULL};

void coll_myr_plan_init(struct coll_myr_plan *p)
{
    memset(p, 0, sizeof(*p));
    coll_pgr_plan_init(&p->base);
}

/* ---- candidates --------------------------------------------------------- */

/* "4K".."64K" or bytes, a power of two InnoDB takes; 0 when not one. */
static uint32_t page_size_parse(const char *s, size_t n)
{
    char buf[16], *end = NULL;
    unsigned long v;

    if (n == 0 || n >= sizeof(buf))
        return 0;
    memcpy(buf, s, n);
    buf[n] = '\0';
    v = strtoul(buf, &end, 10);
    if (end == buf)
        return 0;
    if (*end == 'K' || *end == 'k')
        v *= 1024, end++;
    if (*end)
        return 0;
    /* innodb_page_size: 4k, 8k, 16k, 32k or 64k (MariaDB's manual) */
    return v == 4096 || v == 8192 || v == 16384 || v == 32768 || v == 65536
               ? (uint32_t)v
               : 0;
}

int coll_myr_candidate_is(const char *spec)
{
    return strncmp(spec, "row_format=", 11) == 0 ||
           strncmp(spec, "key_block_size=", 15) == 0 ||
           strncmp(spec, "page_size=", 10) == 0 ||
           (spec[0] >= '0' && spec[0] <= '9');
}

static int kv_parse(char *kv, struct coll_myr_candidate *c, struct pt_err *err)
{
    char *eq = strchr(kv, '='), *end = NULL;

    if (!eq)
        return err_set(err, PT_EUSAGE, "'%s' is not KEY=VALUE", kv);
    *eq++ = '\0';
    if (strcmp(kv, "row_format") == 0) {
        for (size_t i = 0; row_formats[i]; i++)
            if (strcasecmp(row_formats[i], eq) == 0) {
                snprintf(c->row_format, sizeof(c->row_format), "%s",
                         row_formats[i]);
                return 0;
            }
        return err_set(err, PT_EUSAGE,
                       "row_format '%s' is not DYNAMIC, COMPACT, COMPRESSED "
                       "or REDUNDANT",
                       eq);
    }
    if (strcmp(kv, "key_block_size") == 0) {
        unsigned long v = strtoul(eq, &end, 10);
        if (!*eq || *end || (v != 1 && v != 2 && v != 4 && v != 8 && v != 16))
            return err_set(err, PT_EUSAGE,
                           "key_block_size '%s' is not 1, 2, 4, 8 or 16", eq);
        c->key_block_size = (uint32_t)v;
        return 0;
    }
    if (strcmp(kv, "page_size") == 0) {
        if (!(c->page_size = page_size_parse(eq, strlen(eq))))
            return err_set(err, PT_EUSAGE,
                           "page_size '%s' is not 4K, 8K, 16K, 32K or 64K", eq);
        return 0;
    }
    return err_set(err, PT_EUSAGE,
                   "unknown key '%s' (row_format, key_block_size, page_size; "
                   "or SIZE=DSN)",
                   kv);
}

int coll_myr_candidate_parse(const char *spec, struct coll_myr_candidate *c,
                             struct pt_err *err)
{
    char buf[256], *save = NULL;
    size_t n = strcspn(spec, "=");
    int ret;

    memset(c, 0, sizeof(*c));
    if (spec[0] >= '0' && spec[0] <= '9') {
        /* SIZE=DSN: the instance is the rest, verbatim (a connection
           string holds '=' and ';') */
        if (!(c->page_size = page_size_parse(spec, n)))
            return err_set(err, PT_EUSAGE,
                           "'%.*s' is not a page size InnoDB takes (4K, 8K, "
                           "16K, 32K, 64K)",
                           (int)n, spec);
        if (spec[n] == '=') {
            if (!spec[n + 1])
                return err_set(err, PT_EUSAGE,
                               "'%s' names no instance after '='", spec);
            c->instance = spec + n + 1;
        }
        return 0;
    }
    if (strlen(spec) >= sizeof(buf))
        return err_set(err, PT_EUSAGE, "'%s' is too long", spec);
    snprintf(buf, sizeof(buf), "%s", spec);
    for (char *kv = strtok_r(buf, ",", &save); kv;
         kv = strtok_r(NULL, ",", &save))
        if ((ret = kv_parse(kv, c, err)) < 0)
            return ret;
    if (c->key_block_size && c->row_format[0] &&
        strcmp(c->row_format, "COMPRESSED") != 0)
        return err_set(err, PT_EUSAGE,
                       "key_block_size goes with row_format=COMPRESSED only");
    if (c->key_block_size && !c->row_format[0])
        snprintf(c->row_format, sizeof(c->row_format), "COMPRESSED");
    return 0;
}

static void size_text(uint32_t v, char *buf, size_t len)
{
    if (v % 1024 == 0)
        snprintf(buf, len, "%uK", v / 1024);
    else
        snprintf(buf, len, "%u", v);
}

void coll_myr_candidate_format(const struct coll_myr_candidate *c, char *buf,
                               size_t len)
{
    char ps[16];
    int n = snprintf(buf, len, "row_format=%s",
                     c->row_format[0] ? c->row_format : "DYNAMIC");

    if (n > 0 && (size_t)n < len && c->key_block_size)
        n += snprintf(buf + n, len - (size_t)n, ",key_block_size=%u",
                      c->key_block_size);
    size_text(c->page_size, ps, sizeof(ps));
    if (n > 0 && (size_t)n < len && c->page_size)
        snprintf(buf + n, len - (size_t)n, ",page_size=%s", ps);
}

/* ---- instances ------------------------------------------------------------
 */

struct myr_run;

/* One instance: the run's own connection (set-up, lock, counters, drop)
 * and its clients. */
struct myr_site {
    const char *instance; /* NULL: the caller's */
    struct coll_conn *admin;
    int own_admin; /* opened here (closed here) */
    struct coll_conn_opts opts;
    struct coll_rpl_clients cs; /* its clients */
    int locked, created, mariadb;
    uint32_t page_size;
    uint64_t pool_bytes, pool_pages, pages_total;
    uint32_t old_time_ms, old_pct, lru_scan_depth, purge_batch;
    uint64_t history0; /* Innodb_history_list_length before the run */
    int purge_late;    /* purge_settle gave up once (said once) */
};

struct myr_run {
    const struct coll_myr_plan *p;
    char db[COLL_NAME_MAX + 4];      /* `pagetune_scratch` */
    char literal[COLL_NAME_MAX + 8]; /* 'pagetune_scratch' */
    char lock[COLL_NAME_MAX + 32];   /* 'pagetune replay pagetune_scratch' */
    struct myr_site site[COLL_PGR_MAX_CANDIDATES];
    size_t n_site;
    size_t site_of[COLL_PGR_MAX_CANDIDATES];
    unsigned char *rnd, *txt;
    struct coll_myr_result *res; /* the counters' sums */
};

static int names_init(const struct coll_myr_plan *p, struct myr_run *run,
                      struct pt_err *err)
{
    const char *s = p->base.schema ? p->base.schema : COLL_PGR_SCHEMA_DEFAULT;
    char lock[COLL_NAME_MAX + 24];
    int ret;

    if ((ret = coll_ident_check(s, "`scratch_schema`", err)) < 0)
        return ret;
    if (strlen(s) > MYR_DB_MAX)
        return err_set(err, PT_EUSAGE,
                       "`scratch_schema` '%s' is longer than %d bytes (the "
                       "lock's name holds it)",
                       s, MYR_DB_MAX);
    coll_ident_quote(COLL_ENGINE_MYSQL, s, run->db, sizeof(run->db), NULL);
    coll_sql_string(COLL_ENGINE_MYSQL, s, run->literal, sizeof(run->literal));
    snprintf(lock, sizeof(lock), COLL_MYR_LOCK_PREFIX "%s", s);
    coll_sql_string(COLL_ENGINE_MYSQL, lock, run->lock, sizeof(run->lock));
    return 0;
}

/* Candidates to instances: the same instance string, the same site. */
static void sites_map(const struct coll_myr_plan *p, struct myr_run *run)
{
    run->n_site = 1;
    for (size_t i = 0; i < p->base.n_cand; i++) {
        const char *in = p->cand[i].instance;
        size_t s = 0;
        if (in)
            for (s = 1; s < run->n_site; s++)
                if (strcmp(run->site[s].instance, in) == 0)
                    break;
        if (in && s == run->n_site)
            run->site[run->n_site++].instance = in;
        run->site_of[i] = s;
    }
}

/* ---- the sampled table's own columns ---------------------------------------
 */

/* DECIMAL(M,D)'s bytes: 4 a 9 digits, the leftover digits' in
 * 0,1,1,2,2,3,3,4,4 (MariaDB "Data Type Storage Requirements") */
static uint32_t decimal_bytes(const char *decl)
{
    static const uint32_t left[9] = {0, 1, 1, 2, 2, 3, 3, 4, 4};
    const char *o = strchr(decl, '(');
    unsigned long m = 10, d = 0;

    if (o) {
        m = strtoul(o + 1, NULL, 10);
        o = strchr(o, ',');
        d = o ? strtoul(o + 1, NULL, 10) : 0;
    }
    if (d > m || m > 65)
        return 0;
    return (uint32_t)((m - d) / 9 * 4 + left[(m - d) % 9] + d / 9 * 4 +
                      left[d % 9]);
}

/*
 * MariaDB's synthetic value of column c: numbers 1, dates and times of
 * 2026, a uuid, strings of hex digits (ASCII: a byte each whatever the
 * character set) as wide as the sample measured, within the declared
 * length, binary strings random bytes (UNHEX). The record holds a
 * variable-length value with its 1 or 2 length bytes (COMPACT/DYNAMIC:
 * 1 below 128 bytes); TEXT and BLOB values this short stay in it.
 * Enums, sets, bits, spatial types: 0.
 */
static uint32_t my_literal(const struct coll_column *c, uint64_t seed,
                           char *lit, size_t len, uint32_t *record)
{
    static const struct {
        const char *type, *value;
    } fixed[] = {{"tinyint", "1"},
                 {"smallint", "1"},
                 {"mediumint", "1"},
                 {"int", "1"},
                 {"integer", "1"},
                 {"bigint", "1"},
                 {"float", "1"},
                 {"double", "1"},
                 {"year", "2026"},
                 {"date", "'2026-01-01'"},
                 {"time", "'12:00:00'"},
                 {"datetime", "'2026-01-01 12:00:00'"},
                 {"timestamp", "'2026-01-01 12:00:00'"},
                 {"decimal", "1"},
                 {"uuid", "'00000000-0000-4000-8000-000000000000'"}};
    static const char *const text[] = {"char", "varchar",    "tinytext",
                                       "text", "mediumtext", "longtext"};
    static const char *const bin[] = {"binary", "varbinary",  "tinyblob",
                                      "blob",   "mediumblob", "longblob"};
    char hex[2 * COLL_PGR_EXTRA_WIDE + 1];
    uint32_t n, max = coll_rpl_decl_len(c->decl);
    int is_text = 0, is_bin = 0;

    for (size_t i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++)
        if (!strcmp(c->type, fixed[i].type)) {
            uint32_t b = !strcmp(c->type, "decimal") ? decimal_bytes(c->decl)
                         : !strcmp(c->type, "uuid")  ? 16
                                                     : (uint32_t)c->fixed_bytes;
            if (!b)
                return 0;
            snprintf(lit, len, "%s", fixed[i].value);
            return *record = b;
        }
    if (c->avg_width > COLL_PGR_EXTRA_WIDE || c->avg_width < 0)
        return 0;
    for (size_t i = 0; i < sizeof(text) / sizeof(text[0]); i++)
        is_text |= !strcmp(c->type, text[i]);
    for (size_t i = 0; i < sizeof(bin) / sizeof(bin[0]); i++)
        is_bin |= !strcmp(c->type, bin[i]);
    if (!is_text && !is_bin)
        return 0;
    n = (uint32_t)(c->avg_width + 0.5);
    if (max && n > max)
        n = max;
    if (n == 0) { /* every sampled value empty: the empty string */
        snprintf(lit, len, "''");
        *record = 1;
        return 1;
    }
    if (is_text) {
        coll_rpl_hex_chars(hex, n, seed);
        snprintf(lit, len, "'%s'", hex);
    } else {
        coll_rpl_hex_chars(hex, 2 * n, seed);
        snprintf(lit, len, "UNHEX('%s')", hex);
    }
    *record = n + (n < 128 ? 1 : 2);
    return n;
}

size_t coll_myr_extras(struct coll_myr_plan *p, const struct coll_columns *cols,
                       const char *const *objects, size_t n_obj, char *why,
                       size_t why_len)
{
    return coll_rpl_extras(&p->base, COLL_ENGINE_MYSQL, my_literal, cols,
                           objects, n_obj, why, why_len);
}

uint32_t coll_myr_extra_row_bytes(const struct coll_myr_plan *p)
{
    size_t nullable = 6; /* the layout's own (its NULL bitmap's byte) */
    uint32_t b = 0;

    for (size_t i = 0; i < p->base.n_extra; i++) {
        b += p->base.extra[i].bytes;
        nullable += p->base.extra[i].nullable;
    }
    return b + (uint32_t)((nullable + 7) / 8 - 1);
}

/* ---- DDL ------------------------------------------------------------------
 */

static void sql_create_db(const struct myr_run *run, struct coll_rpl_text *t)
{
    coll_rpl_text_add(
        t,
        "CREATE DATABASE %s COMMENT '" COLL_PGR_MARK
        ": created by pagetune " PT_VERSION
        " replay, dropped at the end of its run; a later run drops it "
        "when no run holds its lock'",
        run->db);
}

/* WebSphere's SESSIONS on InnoDB; the key columns ASCII so that the
 * primary key fits InnoDB's 768-byte limit at 4K pages too. */
static void sql_create_table(const struct myr_run *run, size_t i,
                             const struct coll_myr_candidate *c,
                             struct coll_rpl_text *t)
{
    char spec[96];

    coll_myr_candidate_format(c, spec, sizeof(spec));
    coll_rpl_text_add(
        t,
        "CREATE TABLE %s.pt_replay_%zu (id varchar(128) CHARACTER SET "
        "ascii NOT NULL, propid varchar(128) CHARACTER SET ascii NOT "
        "NULL, appname varchar(128) CHARACTER SET ascii NOT NULL, "
        "listenercnt smallint, lastaccess bigint, creationtime bigint, "
        "maxinactivetime int, username varchar(256), small longblob",
        run->db, i + 1);
    /* the sampled table's own columns, each row's value its DEFAULT */
    for (size_t k = 0; k < run->p->base.n_extra; k++) {
        const struct coll_pgr_extra *e = &run->p->base.extra[k];
        coll_rpl_text_add(t, ", %s %s %sDEFAULT %s", e->name, e->decl,
                          e->nullable ? "NULL " : "NOT NULL ", e->def);
    }
    coll_rpl_text_add(t,
                      ", PRIMARY KEY (id, propid, appname)) ENGINE=InnoDB "
                      "ROW_FORMAT=%s",
                      c->row_format[0] ? c->row_format : "DYNAMIC");
    if (c->key_block_size)
        coll_rpl_text_add(t, " KEY_BLOCK_SIZE=%u", c->key_block_size);
    coll_rpl_text_add(t, " COMMENT='pagetune replay candidate %zu: %s'", i + 1,
                      spec);
}

static void sql_timeouts(const struct coll_myr_plan *p, int mariadb,
                         struct coll_rpl_text *t, const char *sep)
{
    long lock_s = (p->base.lock_timeout_ms + 999) / 1000;

    if (mariadb)
        coll_rpl_text_add(t, "SET SESSION max_statement_time = %.3f%s",
                          (double)p->base.statement_timeout_ms / 1000.0, sep);
    else
        coll_rpl_text_add(t, "SET SESSION max_execution_time = %ld%s",
                          p->base.statement_timeout_ms, sep);
    coll_rpl_text_add(t, "SET SESSION lock_wait_timeout = %ld%s",
                      lock_s ? lock_s : 1, sep);
    coll_rpl_text_add(t, "SET SESSION innodb_lock_wait_timeout = %ld", lock_s);
}

int coll_myr_ddl(const struct coll_myr_plan *p, char *buf, size_t len,
                 struct pt_err *err)
{
    struct coll_rpl_text t = {buf, len, 0, 0};
    struct myr_run run;
    int ret;

    memset(&run, 0, sizeof(run));
    run.p = p;
    if ((ret = names_init(p, &run, err)) < 0)
        return ret;
    sites_map(p, &run);
    buf[0] = '\0';
    coll_rpl_text_add(
        &t, "-- pagetune replay on MariaDB/MySQL: scratch objects "
            "(synthetic rows only; the user's tables are never named)\n");
    for (size_t s = 0; s < run.n_site; s++) {
        char desc[1024];
        if (run.site[s].instance && strchr(run.site[s].instance, '='))
            coll_describe_connect(run.site[s].instance, desc, sizeof(desc));
        else
            snprintf(desc, sizeof(desc), "%s%s",
                     run.site[s].instance ? "DSN=" : "",
                     run.site[s].instance ? run.site[s].instance
                                          : "the instance connected to");
        coll_rpl_text_add(
            &t,
            "-- instance %zu: %s\n-- checked first: CREATE and DROP on "
            "%s (information_schema.USER_PRIVILEGES, "
            "SCHEMA_PRIVILEGES)\n",
            s + 1, desc, run.literal);
        sql_timeouts(p, 1, &t, ";\n");
        coll_rpl_text_add(&t, ";\nSELECT GET_LOCK(%s, 0);\n", run.lock);
        sql_create_db(&run, &t);
        coll_rpl_text_add(&t, ";\n");
        for (size_t i = 0; i < p->base.n_cand; i++)
            if (run.site_of[i] == s) {
                sql_create_table(&run, i, &p->cand[i], &t);
                coll_rpl_text_add(&t, ";\n");
            }
        coll_rpl_text_add(
            &t, "-- load, ANALYZE TABLE, replay, counters (SHOW GLOBAL "
                "STATUS LIKE 'Innodb_%%') ...\n");
        for (size_t i = 0; i < p->base.n_cand; i++)
            if (run.site_of[i] == s)
                coll_rpl_text_add(&t, "DROP TABLE %s.pt_replay_%zu;\n", run.db,
                                  i + 1);
        coll_rpl_text_add(
            &t,
            "-- only when nothing else is left in it\nDROP DATABASE "
            "%s;\nSELECT RELEASE_LOCK(%s);\n",
            run.db, run.lock);
    }
    if (t.over)
        return err_set(err, PT_EINTERNAL, "DDL buffer too small");
    return 0;
}

/* ---- the database's life --------------------------------------------------
 */

static int set_timeouts(struct coll_conn *c, const struct coll_myr_plan *p,
                        int mariadb, struct pt_err *err)
{
    char sql[512];
    struct coll_rpl_text t = {sql, sizeof(sql), 0, 0};

    sql_timeouts(p, mariadb, &t, "; ");
    /* MariaDB Connector/ODBC runs one statement per call: split them */
    for (char *s = sql, *e; s && *s; s = e) {
        int ret;
        if ((e = strstr(s, "; ")) != NULL)
            *e = '\0', e += 2;
        if ((ret = coll_exec(c, s, err)) < 0)
            return ret;
    }
    return 0;
}

/* CREATE and DROP on the scratch database: granted globally or on a
 * database pattern the name matches, to the current user. */
static int check_privilege(struct coll_conn *c, const struct myr_run *run,
                           const char *db, struct pt_err *err)
{
    char sql[1024], user[160] = "";
    int64_t n = 0;
    int ret;

    snprintf(sql, sizeof(sql),
             "SELECT count(DISTINCT privilege_type) FROM (SELECT grantee, "
             "privilege_type FROM information_schema.USER_PRIVILEGES UNION "
             "ALL SELECT grantee, privilege_type FROM "
             "information_schema.SCHEMA_PRIVILEGES WHERE %s LIKE "
             "table_schema) g WHERE privilege_type IN ('CREATE', 'DROP') "
             "AND grantee = concat('''', substring_index(current_user(), "
             "'@', 1), '''@''', substring_index(current_user(), '@', -1), "
             "'''')",
             run->literal);
    if ((ret = coll_query_i64(c, sql, &n, err)) < 0)
        return ret;
    if (n == 2)
        return 0;
    coll_query_value(c, "SELECT current_user()", user, sizeof(user), NULL,
                     NULL);
    return err_set(err, PT_EPERM,
                   "replay needs the CREATE and DROP privileges on database "
                   "'%s' to create and drop its scratch database; user '%s' "
                   "lacks them (GRANT CREATE, DROP, INSERT, SELECT, UPDATE, "
                   "DELETE ON `%s`.* TO ...); nothing was created",
                   db, user, db);
}

static int lock_take(struct myr_site *s, const struct myr_run *run,
                     const char *db, struct pt_err *err)
{
    char sql[256];
    int64_t got = 0;
    int ret;

    snprintf(sql, sizeof(sql), "SELECT coalesce(GET_LOCK(%s, 0), 0)",
             run->lock);
    if ((ret = coll_query_i64(s->admin, sql, &got, err)) < 0)
        return ret;
    if (!got)
        return err_set(err, PT_EUNAVAIL,
                       "another pagetune replay holds the lock of scratch "
                       "database '%s' on %s: wait for it to end, or give "
                       "`scratch_schema` another name",
                       db, coll_conn_dbms(s->admin));
    s->locked = 1;
    return 0;
}

static void lock_release(struct myr_site *s, const struct myr_run *run)
{
    char sql[256];

    snprintf(sql, sizeof(sql), "SELECT RELEASE_LOCK(%s)", run->lock);
    coll_exec(s->admin, sql, NULL);
    s->locked = 0;
}

/* Drop the pt_replay_* tables, then the database when nothing else is
 * in it (DROP DATABASE drops whatever it holds). */
static int db_drop(struct coll_conn *c, const struct myr_run *run,
                   const char *db, uint64_t *n_tables, struct pt_err *err)
{
    char sql[768];
    int64_t left = 0;
    int ret;

    /* '\\_': a literal underscore in LIKE (MariaDB unescapes the string
       first) */
    snprintf(sql, sizeof(sql),
             "SELECT table_name FROM information_schema.TABLES WHERE "
             "table_schema = %s AND table_name LIKE 'pt\\\\_replay\\\\_%%' "
             "ORDER BY 1",
             run->literal);
    if ((ret = coll_rpl_drop_tables(c, COLL_ENGINE_MYSQL, sql, run->db,
                                    n_tables, err)) < 0)
        return ret;
    snprintf(sql, sizeof(sql),
             "SELECT (SELECT count(*) FROM information_schema.TABLES WHERE "
             "table_schema = %s) + (SELECT count(*) FROM "
             "information_schema.ROUTINES WHERE routine_schema = %s) + "
             "(SELECT count(*) FROM information_schema.EVENTS WHERE "
             "event_schema = %s)",
             run->literal, run->literal, run->literal);
    if ((ret = coll_query_i64(c, sql, &left, err)) < 0)
        return ret;
    if (left)
        return err_set(err, PT_ECANTCREAT,
                       "scratch database '%s' holds %lld object(s) pagetune "
                       "did not create: its tables are dropped, the database "
                       "is left as it is",
                       db, (long long)left);
    snprintf(sql, sizeof(sql), "DROP DATABASE %s", run->db);
    return coll_exec(c, sql, err);
}

/* The database now: 0 absent, 1 ours (marked), 2 someone else's. */
static int db_state(struct coll_conn *c, const struct myr_run *run, int *state,
                    struct pt_err *err)
{
    char sql[512];
    int64_t n = 0;
    int ret;

    snprintf(sql, sizeof(sql),
             "SELECT coalesce(max(CASE WHEN schema_comment LIKE "
             "'" COLL_PGR_MARK "%%' THEN 1 ELSE 2 END), 0) FROM "
             "information_schema.SCHEMATA WHERE schema_name = %s",
             run->literal);
    if ((ret = coll_query_i64(c, sql, &n, err)) < 0)
        return ret;
    *state = (int)n;
    return 0;
}

static int db_claim(struct myr_site *s, const struct myr_run *run,
                    struct coll_myr_result *res, struct pt_err *err)
{
    const struct coll_myr_plan *p = run->p;
    const char *db = p->base.schema;
    char sql[1024];
    struct coll_rpl_text t = {sql, sizeof(sql), 0, 0};
    uint64_t n = 0;
    int state = 0, ret;

    if ((ret = db_state(s->admin, run, &state, err)) < 0)
        return ret;
    if (state == 2)
        return err_set(err, PT_ECANTCREAT,
                       "`scratch_schema` '%s' exists on %s and is not "
                       "pagetune's (its comment has no pagetune mark): "
                       "refusing to use or drop it; name another",
                       db, coll_conn_dbms(s->admin));
    if (state == 1) {
        if ((ret = db_drop(s->admin, run, db, &n, err)) < 0)
            return ret;
        res->base.reclaimed = 1;
        coll_rpl_note(
            &p->base,
            "reclaimed scratch database '%s' left by an earlier run that "
            "did not end (%llu table(s) dropped)",
            db, (unsigned long long)n);
    }
    sql_create_db(run, &t);
    if ((ret = coll_exec(s->admin, sql, err)) < 0) {
        /* a database the user cannot see (no privilege on it) is not
           in SCHEMATA: CREATE says it exists (1007) */
        if (strstr(err->msg, "exists"))
            return err_set(err, PT_ECANTCREAT,
                           "`scratch_schema` '%s' exists and is not "
                           "pagetune's: refusing to use or drop it; name "
                           "another",
                           db);
        return ret;
    }
    s->created = 1;
    return 0;
}

/* A SHOW GLOBAL STATUS counter (name: pagetune's own constant) into *v;
 * 0 when the server has none. */
static int status_u64(struct coll_conn *c, const char *name, uint64_t *v,
                      struct pt_err *err)
{
    struct coll_rows rows;
    char sql[128];
    int ret;

    *v = 0;
    snprintf(sql, sizeof(sql), "SHOW GLOBAL STATUS LIKE '%s'", name);
    if ((ret = coll_query_rows(c, sql, &rows, err)) < 0)
        return ret;
    if (rows.n_rows && rows.n_cols >= 2 && rows.cells[1])
        *v = strtoull(rows.cells[1], NULL, 10);
    coll_rows_release(&rows);
    return 0;
}

/* Innodb_history_list_length: the committed undo logs purge has yet to
 * process (trx_sys.history_size()). */
static int history_len(struct coll_conn *c, uint64_t *n, struct pt_err *err)
{
    return status_u64(c, "Innodb_history_list_length", n, err);
}

/* What a prediction of the run needs (advise/mypredict.c): the pool's
 * real pages (Innodb_buffer_pool_pages_total: size / page less the
 * blocks the pool's own structures take), the midpoint LRU's
 * innodb_old_blocks_time and _pct, the page cleaner's
 * innodb_lru_scan_depth, purge's innodb_purge_batch_size. */
static int facts_read(struct myr_site *s, struct pt_err *err)
{
    int64_t v = 0;
    int ret;

    if ((ret = status_u64(s->admin, "Innodb_buffer_pool_pages_total",
                          &s->pages_total, err)) < 0)
        return ret;
    if (coll_query_i64(s->admin, "SELECT @@innodb_old_blocks_time", &v, NULL) ==
        0)
        s->old_time_ms = (uint32_t)v;
    if (coll_query_i64(s->admin, "SELECT @@innodb_old_blocks_pct", &v, NULL) ==
        0)
        s->old_pct = (uint32_t)v;
    if (coll_query_i64(s->admin, "SELECT @@innodb_lru_scan_depth", &v, NULL) ==
            0 &&
        v > 0)
        s->lru_scan_depth = (uint32_t)v;
    if (coll_query_i64(s->admin, "SELECT @@innodb_purge_batch_size", &v,
                       NULL) == 0 &&
        v > 0)
        s->purge_batch = (uint32_t)v;
    return history_len(s->admin, &s->history0, err);
}

/* Its engine, page size, pool; the candidate's page size checked. */
static int site_check(struct myr_site *s, const struct coll_myr_plan *p,
                      const struct myr_run *run, size_t si, struct pt_err *err)
{
    char buf[64], ps[16];
    int64_t v = 0;
    int ret;

    if (coll_conn_engine(s->admin) != COLL_ENGINE_MYSQL)
        return err_set(err, PT_EUSAGE,
                       "`candidate` instance %zu is %s, not MariaDB or MySQL",
                       si + 1, coll_conn_dbms(s->admin));
    if ((ret = coll_query_value(s->admin, "SELECT VERSION()", buf, sizeof(buf),
                                NULL, err)) < 0)
        return ret;
    s->mariadb = strstr(buf, "MariaDB") != NULL;
    if ((ret = set_timeouts(s->admin, p, s->mariadb, err)) < 0 ||
        (ret = coll_query_i64(s->admin, "SELECT @@innodb_page_size", &v, err)) <
            0)
        return ret;
    s->page_size = (uint32_t)v;
    if ((ret = coll_query_i64(s->admin, "SELECT @@innodb_buffer_pool_size", &v,
                              err)) < 0)
        return ret;
    s->pool_bytes = (uint64_t)v;
    s->pool_pages = s->page_size ? s->pool_bytes / s->page_size : 0;
    if ((ret = facts_read(s, err)) < 0)
        return ret;
    for (size_t i = 0; i < p->base.n_cand; i++) {
        const struct coll_myr_candidate *c = &p->cand[i];
        if (run->site_of[i] != si)
            continue;
        if (c->page_size && c->page_size != s->page_size) {
            size_text(c->page_size, ps, sizeof(ps));
            size_text(s->page_size, buf, sizeof(buf));
            return err_set(err, PT_EUSAGE,
                           "`candidate` %zu names page size %s but its "
                           "instance's innodb_page_size is %s",
                           i + 1, ps, buf);
        }
        if (strcmp(c->row_format, "COMPRESSED") == 0 && s->page_size > 16384) {
            size_text(s->page_size, buf, sizeof(buf));
            return err_set(err, PT_EUSAGE,
                           "`candidate` %zu: InnoDB has no ROW_FORMAT="
                           "COMPRESSED at innodb_page_size %s (16K at most)",
                           i + 1, buf);
        }
    }
    return 0;
}
/* ---- clients (replay_clients.c's, with this engine's SQL) -----------------
 */

/* A new client of instance *(size_t *)arg: its timeouts and its
 * statements, per candidate of the instance. */
static int client_setup(struct coll_rpl_client *cl, void *arg,
                        struct pt_err *err)
{
    const struct myr_run *run = cl->g->run;
    size_t si = *(const size_t *)arg;
    char sql[1024];
    int ret;

    if ((ret = set_timeouts(cl->conn, run->p, run->site[si].mariadb, err)) < 0)
        return ret;
    for (size_t i = 0; i < run->p->base.n_cand && ret == 0; i++) {
        if (run->site_of[i] != si)
            continue;
        snprintf(sql, sizeof(sql),
                 "INSERT INTO %s.pt_replay_%zu (id, propid, appname, "
                 "listenercnt, lastaccess, creationtime, maxinactivetime, "
                 "small) VALUES (?, ?, 'default_host/pagetune', 0, ?, ?, "
                 "1800, ?) ON DUPLICATE KEY UPDATE small = VALUES(small), "
                 "lastaccess = VALUES(lastaccess)",
                 run->db, i + 1);
        ret = coll_rpl_prep_cand(cl, i, run->db, sql, err);
    }
    return ret;
}

/* A set: a window of the payload that slides at every write (its write
 * number, so a pass never writes what an earlier one left). */
static int op_set(struct coll_rpl_client *cl, SQLHSTMT st, uint64_t i,
                  const struct coll_pgr_req *r, struct pt_err *err)
{
    const struct myr_run *run = cl->g->run;
    const unsigned char *pay =
        coll_pgr_key_text(&run->p->base, r->key_id) ? run->txt : run->rnd;
    size_t off = coll_pgr_set_offset(coll_rpl_write_no(cl, i));
    SQLLEN obj_ind = (SQLLEN)r->size_bytes;
    SQLRETURN rc;
    int ret;

    if ((ret = coll_rpl_bind_row(cl, st, i, err)) < 0)
        return ret;
    rc = SQLBindParameter(st, 5, SQL_PARAM_INPUT, SQL_C_BINARY,
                          SQL_LONGVARBINARY, r->size_bytes ? r->size_bytes : 1,
                          0, (SQLPOINTER)(pay + off), (SQLLEN)r->size_bytes,
                          &obj_ind);
    if (!SQL_SUCCEEDED(rc))
        return coll_diag(cl->conn, SQL_HANDLE_STMT, st, rc, "bind", err);
    return coll_rpl_exec(cl, st, "set", err);
}

/* Instance si's clients, connected with its options. */
static int clients_open(struct myr_run *run, size_t si, struct pt_err *err)
{
    struct myr_site *s = &run->site[si];

    s->cs.p = &run->p->base;
    s->cs.run = run;
    s->cs.set = op_set;
    return coll_rpl_open(&s->cs, &s->opts, client_setup, &si, err);
}

/* The clients of candidate c's instance. */
static struct coll_rpl_clients *clients_of(struct myr_run *run, size_t c)
{
    return &run->site[run->site_of[c]].cs;
}

/* ---- counters, rounds -----------------------------------------------------
 */
static int counters_read(struct coll_conn *c, struct coll_myr_counters *k,
                         struct pt_err *err)
{
    static const char *const names[] = {
        "Innodb_buffer_pool_read_requests", "Innodb_buffer_pool_reads",
        "Innodb_pages_read", "Innodb_pages_written"};
    uint64_t *v[] = {&k->read_requests, &k->reads, &k->pages_read,
                     &k->pages_written};
    struct coll_rows rows;
    int ret;

    memset(k, 0, sizeof(*k));
    if ((ret = coll_query_rows(c,
                               "SHOW GLOBAL STATUS WHERE Variable_name IN "
                               "('Innodb_buffer_pool_read_requests', "
                               "'Innodb_buffer_pool_reads', "
                               "'Innodb_pages_read', 'Innodb_pages_written')",
                               &rows, err)) < 0)
        return ret;
    for (size_t r = 0; r < rows.n_rows && rows.n_cols >= 2; r++)
        for (size_t j = 0; j < 4; j++)
            if (rows.cells[r * rows.n_cols] &&
                rows.cells[r * rows.n_cols + 1] &&
                strcasecmp(rows.cells[r * rows.n_cols], names[j]) == 0)
                *v[j] = strtoull(rows.cells[r * rows.n_cols + 1], NULL, 10);
    coll_rows_release(&rows);
    return 0;
}

static void counters_add(struct coll_myr_counters *sum,
                         const struct coll_myr_counters *a,
                         const struct coll_myr_counters *b)
{
    sum->read_requests += b->read_requests - a->read_requests;
    sum->reads += b->reads - a->reads;
    sum->pages_read += b->pages_read - a->pages_read;
    sum->pages_written += b->pages_written - a->pages_written;
}

/*
 * Until purge has caught up on instance si: its history list back to
 * where it stood before the run. A set's old BLOB pages are freed by
 * purge (row_purge_upd_exist_or_extern), in batches, concurrently with
 * the clients and after them (trx0purge.cc trx_purge_attach_undo_recs);
 * how much of it falls inside a measured pass is the purge threads' race
 * with the clients, which nothing predicts. Settled before and after
 * each measured pass, the pass's counters hold all of its own purge and
 * none of an earlier pass's, as the emulation (advise/mypredict.c) has
 * it. The requests/s are the clients' own, timed by the pass without
 * this wait. A list that stops shrinking for MYR_PURGE_STALL_MS (another
 * session's old read view holds purge back) or is still long after
 * MYR_PURGE_WAIT_MS ends the wait, said once.
 */
#define MYR_PURGE_WAIT_MS 60000
#define MYR_PURGE_STALL_MS 2000
static int purge_settle(struct myr_run *run, size_t si, struct pt_err *err)
{
    struct myr_site *s = &run->site[si];
    uint64_t n = 0, least = UINT64_MAX;
    long stalled = 0;
    int ret;

    for (long waited = 0;; waited += 10, stalled += 10) {
        if ((ret = history_len(s->admin, &n, err)) < 0)
            return ret;
        if (n <= s->history0)
            return 0;
        if (n < least) {
            least = n;
            stalled = 0;
        }
        if (pt_interrupted())
            return err_set(err, PT_EINTR, "interrupted");
        if (waited >= MYR_PURGE_WAIT_MS || stalled >= MYR_PURGE_STALL_MS) {
            if (!s->purge_late)
                coll_rpl_note(&run->p->base,
                              "instance %zu: purge still %llu undo logs "
                              "behind (%s); a pass's page requests hold "
                              "part of its purge",
                              si + 1, (unsigned long long)(n - s->history0),
                              stalled >= MYR_PURGE_STALL_MS
                                  ? "not moving: an open transaction's read "
                                    "view holds it back"
                                  : "after 60 s");
            s->purge_late = 1;
            return 0;
        }
        coll_rpl_sleep_ms(10);
    }
}

/* One pass of candidate c (coll_rpl_pass_fn) with its instance's
 * clients; a measured one adds its instance's counters to its result's. */
static int pass_counted(void *arg, size_t c, int measured, double *rps,
                        struct coll_rpl_clients **g, struct pt_err *err)
{
    struct myr_run *run = arg;
    struct coll_myr_counters *sum = measured ? &run->res->innodb[c] : NULL;
    struct coll_conn *admin = run->site[run->site_of[c]].admin;
    struct coll_myr_counters before, after;
    uint64_t t0;
    int ret;

    *g = clients_of(run, c);
    if ((ret = purge_settle(run, run->site_of[c], err)) < 0 ||
        (sum && (ret = counters_read(admin, &before, err)) < 0))
        return ret;
    if ((ret = coll_rpl_pass(*g, c, rps, err)) < 0)
        return ret;
    if (sum) {
        const unsigned k = run->res->base.r[c].n_rounds;
        const uint64_t h0 = run->site[run->site_of[c]].history0;
        uint64_t h = 0;
        if ((ret = history_len(admin, &h, err)) < 0)
            return ret;
        if (k < COLL_PGR_MAX_ROUNDS)
            run->res->purge_backlog[c][k] = h > h0 ? h - h0 : 0;
    }
    t0 = pt_now_ns();
    if ((ret = purge_settle(run, run->site_of[c], err)) < 0)
        return ret;
    if (sum) {
        struct coll_pgr_cand_result *cr = &run->res->base.r[c];
        const double settle_ms = (double)(pt_now_ns() - t0) / 1e6;
        if ((ret = counters_read(admin, &after, err)) < 0)
            return ret;
        counters_add(sum, &before, &after);
        /* coll_rpl_rounds counts this round after the pass */
        if (cr->n_rounds < COLL_PGR_MAX_ROUNDS) {
            cr->round_reads[cr->n_rounds] = after.reads - before.reads;
            run->res->purge_ms[c][cr->n_rounds] = settle_ms;
        }
    }
    return 0;
}

/* The scratch tables' data + index bytes on instance si (after ANALYZE
 * TABLE: InnoDB's DATA_LENGTH is its statistics' page count, BLOB pages
 * included). */
static int site_bytes(struct myr_run *run, size_t si, uint64_t *bytes,
                      struct coll_myr_result *res, struct pt_err *err)
{
    struct coll_conn *c = run->site[si].admin;
    char sql[512], buf[32];
    int ret;

    for (size_t i = 0; i < run->p->base.n_cand; i++) {
        if (run->site_of[i] != si)
            continue;
        snprintf(sql, sizeof(sql), "ANALYZE TABLE %s.pt_replay_%zu", run->db,
                 i + 1);
        if ((ret = coll_exec(c, sql, err)) < 0)
            return ret;
        snprintf(sql, sizeof(sql),
                 "SELECT coalesce(data_length + index_length, 0) FROM "
                 "information_schema.TABLES WHERE table_schema = %s AND "
                 "table_name = 'pt_replay_%zu'",
                 run->literal, i + 1);
        if ((ret = coll_query_value(c, sql, buf, sizeof(buf), NULL, err)) < 0)
            return ret;
        res->base.r[i].heap_bytes = strtoull(buf, NULL, 10);
        *bytes += res->base.r[i].heap_bytes;
    }
    return 0;
}

static int run_tables(struct myr_run *run, struct coll_myr_result *res,
                      struct coll_rpl_lat *lat, struct pt_err *err)
{
    const struct coll_myr_plan *p = run->p;
    /* the carried columns' DEFAULTs make a long CREATE TABLE */
    size_t len = 2048 + p->base.n_extra * (sizeof(p->base.extra[0]) + 64);
    char *sql = malloc(len);
    uint64_t bytes = 0;
    int ret = 0;

    if (!sql)
        return err_set(err, PT_EINTERNAL, "out of memory");
    for (size_t i = 0; i < p->base.n_cand && ret == 0; i++) {
        struct coll_rpl_text t = {sql, len, 0, 0};
        sql_create_table(run, i, &p->cand[i], &t);
        ret = t.over ? err_set(err, PT_EINTERNAL, "CREATE TABLE too long")
                     : coll_exec(run->site[run->site_of[i]].admin, sql, err);
    }
    free(sql);
    if (ret < 0)
        return ret;
    if (coll_pgr_payloads(&p->base, &run->rnd, &run->txt) < 0)
        return err_set(err, PT_EINTERNAL, "out of memory");
    for (size_t s = 0; s < run->n_site; s++)
        if ((ret = clients_open(run, s, err)) < 0)
            return ret;
    for (size_t i = 0; i < p->base.n_cand; i++) {
        uint64_t t0 = pt_now_ns();
        if ((ret = coll_rpl_load(clients_of(run, i), i, err)) < 0)
            return ret;
        res->load_ms[i] = (double)(pt_now_ns() - t0) / 1e6;
        coll_rpl_note(&p->base, "candidate %zu: %llu synthetic sessions loaded",
                      i + 1, (unsigned long long)p->base.n_keys);
    }
    if ((ret = coll_rpl_extras_measure(run->site[run->site_of[0]].admin,
                                       &p->base, COLL_ENGINE_MYSQL, run->db,
                                       &res->base, err)) < 0)
        return ret;
    for (size_t s = 0; s < run->n_site; s++)
        if ((ret = site_bytes(run, s, &bytes, res, err)) < 0)
            return ret;
    if ((ret = coll_rpl_check_loaded(&p->base, bytes, err)) < 0)
        return ret;
    return coll_rpl_rounds(&p->base, pass_counted, run, &res->base, lat, err);
}

/* Each instance's file system, when it runs on this host (@@hostname is
 * this host's name): its @@datadir (file-per-table: a table's .ibd is in
 * its database's directory there) against its candidates' share of the
 * estimate (coll_rpl_check_free). The tightest instance's figures stay in
 * res. */
static int check_free(struct myr_run *run, const struct coll_myr_plan *p,
                      struct coll_myr_result *res, struct pt_err *err)
{
    char host[256] = "", me[256] = "", dir[256], why[256];
    int ret;

    if (gethostname(me, sizeof(me) - 1) != 0)
        me[0] = '\0';
    for (size_t s = 0; s < run->n_site; s++) {
        const struct coll_pgr_free *f = &res->base.free;
        struct coll_pgr_free one;
        size_t n = 0;
        for (size_t i = 0; i < p->base.n_cand; i++)
            n += run->site_of[i] == s;
        if ((ret = coll_query_value(run->site[s].admin, "SELECT @@hostname",
                                    host, sizeof(host), NULL, err)) < 0 ||
            (ret = coll_query_value(run->site[s].admin, "SELECT @@datadir", dir,
                                    sizeof(dir), NULL, err)) < 0)
            return ret;
        snprintf(why, sizeof(why),
                 "instance %zu runs on %.60s, not this host: SQL does not "
                 "show its file system's free space",
                 s + 1, host);
        if ((ret = coll_rpl_check_free(
                 &p->base,
                 p->base.n_cand ? res->base.estimate_bytes * n / p->base.n_cand
                                : 0,
                 dir, me[0] && strcmp(host, me) == 0, why, &one, err)) < 0)
            return ret;
        if (s == 0 ||
            (one.path[0] && (!f->path[0] || one.free_bytes < f->free_bytes)))
            res->base.free = one;
    }
    return 0;
}

/* Each instance: connected, checked, privileges, lock; then the size. */
static int run_checks(struct coll_conn *c, struct myr_run *run,
                      struct coll_myr_result *res, struct pt_err *err)
{
    const struct coll_myr_plan *p = run->p;
    const char *db = p->base.schema;
    int ret;

    if (coll_conn_engine(c) != COLL_ENGINE_MYSQL)
        return err_set(err, PT_EUSAGE,
                       "`connect`: this replay needs MariaDB or MySQL (this "
                       "server is %s)",
                       coll_conn_dbms(c));
    if ((ret = coll_rpl_check_plan(&p->base, err)) < 0)
        return ret;
    for (size_t s = 0; s < run->n_site; s++) {
        struct myr_site *st = &run->site[s];
        st->opts = *p->base.conn;
        if (!st->instance) {
            st->admin = c;
        } else {
            int is_str = strchr(st->instance, '=') != NULL;
            st->opts.dsn = is_str ? NULL : st->instance;
            st->opts.connect = is_str ? st->instance : NULL;
            if ((ret = coll_conn_open(&st->admin, &st->opts, err)) < 0)
                return ret;
            st->own_admin = 1;
        }
        if ((ret = site_check(st, p, run, s, err)) < 0 ||
            (ret = check_privilege(st->admin, run, db, err)) < 0 ||
            /* a replica's binlog reader is a 'Binlog Dump' thread (MySQL
               8: 'Binlog Dump GTID'); other users' threads need PROCESS
               to be seen, which the test account has */
            (ret = coll_rpl_check_replicas(
                 st->admin, &p->base,
                 "SELECT COUNT(*) FROM information_schema.PROCESSLIST "
                 "WHERE COMMAND LIKE 'Binlog Dump%'",
                 "Binlog Dump threads", err)) < 0 ||
            (ret = lock_take(st, run, db, err)) < 0)
            return ret;
    }
    for (size_t i = 0; i < p->base.n_cand; i++) {
        const struct myr_site *st = &run->site[run->site_of[i]];
        res->page_size[i] = st->page_size;
        res->pool_bytes[i] = st->pool_bytes;
        res->pool_pages[i] = st->pool_pages;
        res->pool_pages_total[i] = st->pages_total;
        res->old_blocks_time_ms[i] = st->old_time_ms;
        res->old_blocks_pct[i] = st->old_pct;
        res->lru_scan_depth[i] = st->lru_scan_depth;
        res->purge_batch[i] = st->purge_batch;
        snprintf(res->server[i], sizeof(res->server[i]), "%s",
                 coll_conn_dbms(st->admin));
    }
    if ((ret = coll_rpl_check_estimate(&p->base, &res->base, err)) < 0)
        return ret;
    return check_free(run, p, res, err);
}

/* Whatever happened: clients closed, each instance's tables and database
 * dropped by name, its lock released, its connection closed. */
static int run_end(struct myr_run *run, int ret, struct pt_err *err)
{
    for (size_t s = 0; s < run->n_site; s++) {
        struct myr_site *st = &run->site[s];
        coll_rpl_close(&st->cs);
        if (st->created) {
            struct pt_err e2;
            uint64_t n = 0;
            err_clear(&e2);
            int r2 = db_drop(st->admin, run, run->p->base.schema, &n, &e2);
            if (r2 < 0 && ret == 0) {
                ret = r2;
                *err = e2;
            }
        }
        if (st->locked)
            lock_release(st, run);
        if (st->own_admin)
            coll_conn_close(st->admin);
    }
    return ret;
}

int coll_myr_run(struct coll_conn *c, const struct coll_myr_plan *p,
                 struct coll_myr_result *res, struct pt_err *err)
{
    struct myr_run run;
    struct coll_rpl_lat lat[COLL_PGR_MAX_CANDIDATES];
    int ret;

    memset(&run, 0, sizeof(run));
    memset(lat, 0, sizeof(lat));
    memset(res, 0, sizeof(*res));
    res->base.n_cand = p->base.n_cand;
    snprintf(res->base.server, sizeof(res->base.server), "%s",
             coll_conn_dbms(c));
    coll_rpl_extras_result(&p->base, &res->base);
    run.p = p;
    run.res = res;
    if ((ret = names_init(p, &run, err)) < 0)
        return ret;
    sites_map(p, &run);
    if ((ret = run_checks(c, &run, res, err)) == 0) {
        for (size_t s = 0; s < run.n_site && ret == 0; s++)
            ret = db_claim(&run.site[s], &run, res, err);
        if (ret == 0)
            ret = run_tables(&run, res, lat, err);
    }
    ret = run_end(&run, ret, err);
    for (size_t i = 0; i < COLL_PGR_MAX_CANDIDATES; i++)
        free(lat[i].keep);
    free(run.rnd);
    free(run.txt);
    return ret;
}
