/* SPDX-License-Identifier: Apache-2.0 */
/*
 * internal.h — shared between the files of collect/ only (never included
 * outside the module): the connection struct, ODBC diagnostics, and the
 * per-engine adapter table (engine_*.c).
 */
#ifndef PT_COLLECT_INTERNAL_H
#define PT_COLLECT_INTERNAL_H

#include <pthread.h>
#include <sql.h>
#include <sqlext.h>

#include "collect/collect.h"

struct coll_conn {
    SQLHENV env;
    SQLHDBC dbc;
    int connected;
    enum coll_engine engine;
    char dbms[128];
    char driver[128];
    char describe[1024];   /* connection without secrets */
    char secret[256];      /* password to mask in messages ("" if none) */
    struct coll_watch *wd; /* the inactivity watchdog (odbc.c), or NULL */
};

/*
 * The inactivity watchdog (odbc.c). Around every call that waits on the
 * server: coll_watch_begin names the step ("fetching rows from 'T'") and the
 * statement to cancel (or SQL_NULL_HSTMT), coll_watch_tick marks progress
 * (a fetched block, a completed call), coll_watch_end leaves. When no
 * progress is seen for the connection's timeout the watchdog thread calls
 * SQLCancel, then shuts down the connection's sockets, so the waiting call
 * returns an error that coll_diag turns into "no answer from the server for
 * N s while <step>" (PT_EUNAVAIL). All three accept c == NULL and cost a
 * mutex lock and a clock read: fine in the fetch loop (once per block).
 */
void coll_watch_begin(struct coll_conn *c, SQLHSTMT st, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void coll_watch_tick(struct coll_conn *c);
void coll_watch_end(struct coll_conn *c);

/*
 * Translate the diagnostics of handle h (type htype) into err with the
 * status chosen from SQLSTATE / native error / message; `what` says what
 * failed ("connect", "query", …). Always returns a negative status.
 */
int coll_diag(const struct coll_conn *c, SQLSMALLINT htype, SQLHANDLE h,
              SQLRETURN rc, const char *what, struct pt_err *err);
/* Allocate a statement handle. */
int coll_stmt_new(struct coll_conn *c, SQLHSTMT *st, struct pt_err *err);
/* Replace every occurrence of the secret and PWD= values in s by "***". */
void coll_mask(const struct coll_conn *c, char *s, size_t len);
/* A --connect string with its PWD / PASSWORD keys removed, into out. */
void coll_describe_connect(const char *in, char *out, size_t len);

/*
 * "SELECT list FROM qtable<after_table>[ WHERE filter[ AND where]]<tail>"
 * into buf (filter and where may each be NULL); 0, or -1 when it does not
 * fit. The one place a sampling statement is put together.
 */
int coll_select_sql(char *buf, size_t len, const char *list, const char *qtable,
                    const char *after_table, const char *filter,
                    const char *where, const char *tail);

/*
 * The SQL-standard sampling clause DB2 and PostgreSQL share:
 * " TABLESAMPLE BERNOULLI|SYSTEM (p)[ REPEATABLE (seed)]" into clause;
 * returns the method's name.
 */
const char *coll_tablesample(const struct coll_sample_opts *o, char *clause,
                             size_t len);

/* One engine adapter: SQL dialect and monitor views. */
struct coll_engine_ops {
    enum coll_engine id;
    const char *name;
    /* identifiers: delimiters, and the fold of unquoted names (+1 upper,
       -1 lower, 0 case kept); pt_ident_quote writes them */
    struct pt_quote_rule quote;
    size_t ident_max_bytes; /* a name part's limit in bytes (0: none) */
    size_t ident_max_chars; /* ... in characters (0: none) */
    int backslash_escapes;  /* '\\' escapes in string literals (MariaDB) */
    /* server-side byte length of quoted column q */
    int (*length_expr)(const char *q, char *buf, size_t len);
    /* sampling statement for --percent or --rows (a full scan is
     * coll_sample_sql's own) */
    int (*sample_sql)(const struct coll_sample_opts *o, const char *list,
                      const char *qtable, const char *where, char *buf,
                      size_t len, char *method, size_t mlen);
    /* statements to run before the sample (e.g. setseed), or NULL */
    int (*sample_prepare)(struct coll_conn *c, const struct coll_sample_opts *o,
                          struct pt_err *err);
    /* catalog row estimate for progress (0 if unknown) */
    uint64_t (*estimate_rows)(struct coll_conn *c, const struct pt_qname *t);
    int (*snapshot)(struct coll_conn *c, struct coll_snapshot *s,
                    struct pt_err *err);
    void (*current)(const struct coll_snapshot *s, struct coll_current *cur);
};

/* The table's names as SQL text (catalog.c, coll_tnames). */
struct coll_tnames {
    char quoted[4 * PT_IDENT_MAX + 16]; /* "s"."t", the engine's quotes */
    char reg[8 * PT_IDENT_MAX + 40];    /* quoted, as a string literal */
    char schema[4 * PT_IDENT_MAX + 16]; /* 's', else the engine's current
                                           schema (DATABASE(), CURRENT
                                           SCHEMA); SQLite: "" */
    char table[4 * PT_IDENT_MAX + 16];  /* 't' */
};
/* Fill *n from exact table t (coll_table_exact). PT_EINTERNAL if a name
 * does not fit (it always does: parts are at most PT_IDENT_MAX bytes). */
int coll_tnames(enum coll_engine e, const struct pt_qname *t,
                struct coll_tnames *n, struct pt_err *err);

/* PostgreSQL: setseed() for the session's later random() calls. */
int coll_pg_setseed(struct coll_conn *c, uint32_t seed, struct pt_err *err);

/*
 * PostgreSQL's compression trial (pgtrial.c) on objs of qtable (quoted;
 * reg: the same as a string literal) into *t, its rows chosen after
 * setseed(seed). A statement the server refuses leaves t->done = 0 with
 * t->note saying why; a lost link fails.
 */
int coll_pg_trial(struct coll_conn *c, const struct coll_columns *cols,
                  const char *const *objs, size_t n_obj, const char *qtable,
                  const char *reg, uint32_t seed, struct coll_pg_trial *t,
                  struct pt_err *err);

/* A session's ID ("pt%016llx" of coll_pgr_key_hash) into buf (pgreplay.c;
 * replay_clients.c uses it for both engines; the synthetic content's functions
 * are collect.h's, for advise/pgpredict.c). */
void coll_pgr_key_name(uint64_t key, char *buf, size_t len);

/* ---- replay clients (replay_clients.c) ------------------------------------
 * What pgreplay.c and myreplay.c share: K client connections, each with
 * its thread and its statements prepared per candidate, replaying the
 * sessions key % K of the trace in trace order with each operation's
 * latency; the load of every session in batches; the latency sums. The
 * engine keeps its SQL (the setup callback prepares get, set and del), its
 * set's parameters from the sixth on (the set callback) and its counters.
 */
#define COLL_RPL_BATCH 500        /* rows a transaction in the load */
#define COLL_RPL_MAX_LAT 1000000u /* latency samples kept per candidate */

struct coll_rpl_clients;

/* One connection and its thread; statements prepared per candidate. */
struct coll_rpl_client {
    struct coll_rpl_clients *g;
    unsigned id; /* its sessions: key % g->k == id */
    struct coll_conn *conn;
    SQLHSTMT get[COLL_PGR_MAX_CANDIDATES];
    SQLHSTMT set[COLL_PGR_MAX_CANDIDATES];
    SQLHSTMT del[COLL_PGR_MAX_CANDIDATES];
    char key[40];
    SQLLEN key_ind;
    int64_t now_ms;
    SQLLEN now_ind;
    unsigned char *readbuf;
    pthread_t thread;
    int started;
    size_t cand; /* the pass's candidate */
    uint64_t requests, ops, gets;
    float *lat; /* this pass's operation latencies, us */
    uint64_t n_lat;
    int status;
    struct pt_err err;
};

/* The engine's set of request r (index i) with statement st: the row bound
 * (coll_rpl_bind_row, then its own parameters), run by coll_rpl_exec. */
typedef int (*coll_rpl_set_fn)(struct coll_rpl_client *cl, SQLHSTMT st,
                               uint64_t i, const struct coll_pgr_req *r,
                               struct pt_err *err);
/* A client's connection just opened: the engine's timeouts and its
 * statements (coll_rpl_prep); arg is coll_rpl_open's. */
typedef int (*coll_rpl_setup_fn)(struct coll_rpl_client *cl, void *arg,
                                 struct pt_err *err);

/* The clients of one server; p, run and set are the caller's to fill. */
struct coll_rpl_clients {
    const struct coll_pgr_plan *p;
    void *run; /* the engine's run, for its callbacks */
    coll_rpl_set_fn set;
    struct coll_rpl_client *cl;
    unsigned k;
    /* passes started (coll_rpl_pass): request i of pass n writes as the
       trace's write number n x n_reqs + i (coll_rpl_write_no), so no pass
       writes a row back byte for byte as an earlier one left it */
    uint64_t passes;
};

/* p->n_clients (at least 1) clients connected with o, each set up. */
int coll_rpl_open(struct coll_rpl_clients *g, const struct coll_conn_opts *o,
                  coll_rpl_setup_fn setup, void *arg, struct pt_err *err);
/* Statements freed, connections closed (safe twice, and after a failed
 * open). */
void coll_rpl_close(struct coll_rpl_clients *g);
/* Prepare sql on the client's connection into *st. */
int coll_rpl_prep(struct coll_rpl_client *cl, SQLHSTMT *st, const char *sql,
                  struct pt_err *err);
/* Candidate i's statements on qual.pt_replay_<i+1>: the get and the del
 * (the same SQL on both engines) and the engine's set_sql, in that order. */
int coll_rpl_prep_cand(struct coll_rpl_client *cl, size_t i, const char *qual,
                       const char *set_sql, struct pt_err *err);
/* A set's first four parameters: id and propid (the key), lastaccess and
 * creationtime (a clock of request index i). */
int coll_rpl_bind_row(struct coll_rpl_client *cl, SQLHSTMT st, uint64_t i,
                      struct pt_err *err);
/* The write number of request i in the pass under way: its clock
 * (lastaccess) and its payload's window. A real write-back carries a new
 * lastaccess and a re-serialised object; one that wrote the bytes the row
 * holds would be no write at all on InnoDB (MariaDB compares the row and
 * skips the update: no undo, no BLOB, no purge), as a session set once in
 * the trace was on every pass after the first. */
uint64_t coll_rpl_write_no(const struct coll_rpl_client *cl, uint64_t i);
/* PostgreSQL's STORAGE word for an attstorage letter (p m e x), or NULL
 * (catalog.c). */
const char *coll_pg_storage_name(char letter);
/* Sleep ms milliseconds (a replay's waits between its own queries). */
void coll_rpl_sleep_ms(long ms);
/* Execute st under the watchdog ("replaying (what)"); SQL_NO_DATA is 0. */
int coll_rpl_exec(struct coll_rpl_client *cl, SQLHSTMT st, const char *what,
                  struct pt_err *err);
/* Replay the trace once on candidate c with every client, in threads; the
 * requests/s of the pass. */
int coll_rpl_pass(struct coll_rpl_clients *g, size_t c, double *rps,
                  struct pt_err *err);
/* Every session of the trace at its first size into candidate c's table
 * with client 0's set, COLL_RPL_BATCH rows a transaction. */
int coll_rpl_load(struct coll_rpl_clients *g, size_t c, struct pt_err *err);

/* Latency of a candidate's measured passes: a sum and up to
 * COLL_RPL_MAX_LAT samples (keep: the caller's, or NULL). */
struct coll_rpl_lat {
    double sum_us;
    uint64_t n;
    float *keep;
    uint64_t n_keep;
};
/* A measured pass of g just run: its rps into cr's rounds (of `rounds`),
 * its counts, its latencies into *lat. */
void coll_rpl_round_add(const struct coll_rpl_clients *g, double rps,
                        unsigned rounds, struct coll_pgr_cand_result *cr,
                        struct coll_rpl_lat *lat);
/* The mean and p95 of *lat into r (the samples sorted). */
void coll_rpl_lat_sum(struct coll_rpl_lat *l, struct coll_pgr_cand_result *r);

/* The engine's pass of candidate c (coll_rpl_pass and its own counters,
 * read around it when measured): its requests/s, and in *g the clients
 * that ran it. */
typedef int (*coll_rpl_pass_fn)(void *run, size_t c, int measured, double *rps,
                                struct coll_rpl_clients **g,
                                struct pt_err *err);
/* Warm-up passes, then the rounds A B, B A, ... with pass; each measured
 * pass's rps, counts and latencies into res->r[c] and lat[c] (its samples
 * allocated here, freed by the caller), a note a round. */
int coll_rpl_rounds(const struct coll_pgr_plan *p, coll_rpl_pass_fn pass,
                    void *run, struct coll_pgr_result *res,
                    struct coll_rpl_lat *lat, struct pt_err *err);

/* Checks before anything is created: 1 to COLL_PGR_MAX_CANDIDATES
 * candidates and sessions (PT_EUSAGE); the estimate into
 * res->estimate_bytes within max_scratch (PT_ECANTCREAT). */
int coll_rpl_check_plan(const struct coll_pgr_plan *p, struct pt_err *err);
int coll_rpl_check_estimate(const struct coll_pgr_plan *p,
                            struct coll_pgr_result *res, struct pt_err *err);
/* Free space (issue 28): when the server runs on this host (is_local) and
 * `path` (its data directory or the database's tablespace, from SQL) is
 * readable here, statvfs(path) must leave COLL_RPL_FREE_RESERVE of the
 * file system free after the scratch tables there: `estimate` (their
 * share of res->estimate_bytes) x 5/4 (dead space, WAL) or, when smaller,
 * max_scratch; else PT_ECANTCREAT, nothing created. A server elsewhere, or a
 * path this role may not read, is not checked: f->why says so. */
#define COLL_RPL_FREE_RESERVE 0.05
int coll_rpl_check_free(const struct coll_pgr_plan *p, uint64_t estimate,
                        const char *path, int is_local,
                        const char *not_local_why, struct coll_pgr_free *f,
                        struct pt_err *err);
/* Replicas: count_sql counts the replicas the server streams to (`what`
 * names where, for the message); any without p->allow_replicated is
 * PT_ECANTCREAT before anything is created (every scratch table and
 * replayed write would reach them), with it a note. */
int coll_rpl_check_replicas(struct coll_conn *c, const struct coll_pgr_plan *p,
                            const char *count_sql, const char *what,
                            struct pt_err *err);
/* The loaded tables' bytes within max_scratch (PT_EIO). */
int coll_rpl_check_loaded(const struct coll_pgr_plan *p, uint64_t bytes,
                          struct pt_err *err);
/* DROP TABLE qual.<name> of each table list_sql names (a name that is not
 * a plain identifier is passed over); *n_tables of them dropped. */
int coll_rpl_drop_tables(struct coll_conn *c, enum coll_engine e,
                         const char *list_sql, const char *qual,
                         uint64_t *n_tables, struct pt_err *err);

/* A progress note through p->note (if any). */
void coll_rpl_note(const struct coll_pgr_plan *p, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* A growing script in a caller's buffer: over once a part did not fit. */
/* 1 when name is one of the n names (case-insensitive): an object
 * column, or a layout's own */
int coll_is_object(const char *name, const char *const *names, size_t n);
/* 1 when name is one of o's object columns (case-insensitive) */
int coll_sample_is_object(const struct coll_sample_opts *o, const char *name);
/* The replay's scratch rows: n hex digits, different per seed and
 * incompressible to pglz's 25 % rule, into out (n + 1 bytes); the
 * declared length of "varchar(n)"-like declarations, or 0. */
void coll_rpl_hex_chars(char *out, uint32_t n, uint64_t seed);
uint32_t coll_rpl_decl_len(const char *decl);
/* The literal of column c's synthetic value into lit, its bytes as the
 * engine measures a value (the return; 0: no value of that type) and as
 * its record holds it (*record). */
typedef uint32_t (*coll_rpl_literal_fn)(const struct coll_column *c,
                                        uint64_t seed, char *lit, size_t len,
                                        uint32_t *record);
/* coll_pgr_extras for either engine: engine quotes the names and writes
 * the DEFAULT (PostgreSQL: CASE WHEN random() ..., MariaDB: (IF(RAND()
 * ...))), literal makes the values. */
size_t coll_rpl_extras(struct coll_pgr_plan *p, enum coll_engine engine,
                       coll_rpl_literal_fn literal,
                       const struct coll_columns *cols,
                       const char *const *objects, size_t n_obj, char *why,
                       size_t why_len);

/* The carried columns as the first scratch table (SCHEMA.pt_replay_1)
 * holds them after the load, into res->extra: each value's mean stored
 * bytes (PostgreSQL pg_column_size, MariaDB OCTET_LENGTH; a MariaDB
 * fixed-width type's not measured, -1) and the NULL share. */
int coll_rpl_extras_measure(struct coll_conn *c, const struct coll_pgr_plan *p,
                            enum coll_engine engine, const char *schema,
                            struct coll_pgr_result *res, struct pt_err *err);
/* The carried columns into a result, not yet measured (-1). */
void coll_rpl_extras_result(const struct coll_pgr_plan *p,
                            struct coll_pgr_result *res);

struct coll_rpl_text {
    char *buf;
    size_t len, n;
    int over;
};
void coll_rpl_text_add(struct coll_rpl_text *t, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

extern const struct coll_engine_ops coll_db2_ops;
extern const struct coll_engine_ops coll_pg_ops;
extern const struct coll_engine_ops coll_mysql_ops;
extern const struct coll_engine_ops coll_sqlite_ops;
const struct coll_engine_ops *coll_engine_ops_get(enum coll_engine e);

/* Parse a decimal number cell ("123", "12.5", "-1"); PT_EDATA if not. */
int coll_parse_num(const char *cell, double *out, const char *ctx,
                   const char *col, struct pt_err *err);
/* Add column `col` of every row as metric (scope, object from objcol). */
int coll_rows_metric(const struct coll_rows *rows, size_t row, const char *col,
                     const char *scope, const char *object, int cumulative,
                     int required, struct coll_snapshot *s, const char *ctx,
                     struct pt_err *err);

/*
 * A metric's value as a whole number for the "current" settings: 0 (unknown)
 * for NULL, negative, non-finite or implausibly large values (>= 2^53), so
 * that a hostile or broken server cannot drive an out-of-range conversion.
 */
uint64_t coll_metric_u64(const struct coll_metric *m);
/* a * b, or 0 when either is 0 or the product would overflow. */
uint64_t coll_mul_u64(uint64_t a, uint64_t b);

/*
 * The inactivity watchdog's schedule (collect/odbc.c), pure so that a unit
 * test drives it with a clock of its own. T = last progress + timeout: a
 * probe until T + COLL_WATCH_PROBE_MS, the sockets shut at T +
 * COLL_WATCH_SHUT_MS, on_stall at T + COLL_WATCH_GRACE_S: the run gives up
 * at most COLL_WATCH_GRACE_S seconds after --timeout (docs/exit-codes.md
 * #watchdog).
 */
#define COLL_WATCH_GRACE_S 5
#define COLL_WATCH_PROBE_MS 2000
#define COLL_WATCH_SHUT_MS 3500

enum coll_watch_stage {
    COLL_WATCH_IDLE = 0,  /* watching for progress */
    COLL_WATCH_PROBING,   /* asking a second connection */
    COLL_WATCH_CANCELLED, /* SQLCancel sent */
    COLL_WATCH_SHUT,      /* sockets shut down */
    COLL_WATCH_DONE,      /* on_stall called (or none): nothing more to do */
};

enum coll_watch_act {
    COLL_WATCH_WAIT,     /* nothing until *due_ms */
    COLL_WATCH_RESUME,   /* the probe found the server busy: progress */
    COLL_WATCH_PROBE,    /* start (or keep waiting for) the probe */
    COLL_WATCH_FIRE,     /* stalled: cancel the statement */
    COLL_WATCH_SHUTDOWN, /* shut the sockets down */
    COLL_WATCH_STALL,    /* the last resort: on_stall */
};

struct coll_watch_clock {
    int64_t last_ms;             /* last progress */
    long timeout_s;              /* --timeout */
    enum coll_watch_stage stage; /* where the watchdog is */
    int can_probe;               /* a probe connection string is known */
    int probing;                 /* a probe is out */
    int probe_alive;             /* its answer once back */
};

/* What to do at now_ms; COLL_WATCH_WAIT with *due_ms when to ask again. */
enum coll_watch_act coll_watch_next(const struct coll_watch_clock *k,
                                    int64_t now_ms, int64_t *due_ms);
/* "no answer from the server for 9.0 s while STEP (--timeout 5 s, ...)" */
void coll_watch_message(char *buf, size_t len, double waited_s, long timeout_s,
                        const char *step);

#endif /* PT_COLLECT_INTERNAL_H */
