/* SPDX-License-Identifier: Apache-2.0 */
/*
 * collect.h — the public face of collect/: ODBC connections, object-size
 * sampling and buffer-pool monitor snapshots, with one adapter per engine
 * (db2, postgresql, mysql for MariaDB/MySQL, sqlite).
 * docs/architecture.md#modules, docs/formats.md#sizes and #monitor.
 *
 * Only collect/ includes <sql.h>/<sqlext.h>: ODBC's SQLSTATE + diagnostic
 * is translated to a pt_err here, in exactly one place (collect/odbc.c):
 *   connect refused, driver/DSN missing, link lost  -> PT_EUNAVAIL (69)
 *   authentication / privilege (28xxx, 42501, ...)  -> PT_EPERM    (77)
 *   table missing (42S02, 42P01, "no such table")   -> PT_ENOINPUT (66)
 *   invalid identifier, column missing              -> PT_EDATA    (65)
 * Every message is one line "… [SQLSTATE] driver message" and never holds a
 * password (Pwd=/Password= values and the password itself are masked).
 *
 * collect measures, it never decides (docs/architecture.md#rules): statistics
 * over the sizes are model/'s (rec_stats_compute), tables and terminal
 * output cli/'s. collect owns the sizes and monitor documents (writer and
 * reader, at the end of this header). Neighbours: cli/cmd_sample.c,
 * cli/cmd_monitor.c, cli/cmd_recommend.c, cli/cmd_advise.c and the DDL
 * applier.
 */
#ifndef PT_COLLECT_H
#define PT_COLLECT_H

#include "model/model.h"
#include "core/core.h"

/* ---- engines ------------------------------------------------------------ */

enum coll_engine {
    COLL_ENGINE_AUTO = 0, /* detect with SQLGetInfo(SQL_DBMS_NAME) */
    COLL_ENGINE_DB2,
    COLL_ENGINE_POSTGRESQL,
    COLL_ENGINE_MYSQL, /* MariaDB and MySQL */
    COLL_ENGINE_SQLITE,
};

/* "db2", "postgresql", "mysql", "sqlite" ("auto" for COLL_ENGINE_AUTO). */
const char *coll_engine_name(enum coll_engine e);
/* Parse a --engine value (auto|db2|postgresql|mysql|mariadb|sqlite). */
int coll_engine_parse(const char *s, enum coll_engine *out, struct pt_err *err);
/* Map a DBMS name from SQLGetInfo(SQL_DBMS_NAME); AUTO if unknown. */
enum coll_engine coll_engine_from_dbms(const char *dbms_name);

/* ---- connections -------------------------------------------------------- */

/* How to connect (docs/architecture.md#secrets). Strings are borrowed for the
 * call. */
struct coll_conn_opts {
    const char *dsn;           /* --dsn NAME (odbc.ini), or NULL */
    const char *connect;       /* --connect "Driver=…;…", or NULL */
    const char *password_file; /* --password-file: mode must be 0600 */
    const char *password_env;  /* --password-env NAME */
    enum coll_engine engine;   /* --engine; AUTO detects */
    int streaming;             /* 1: the connection will stream big results:
                                  add UseDeclareFetch=1;Fetch=N (psqlODBC)
                                  or NO_CACHE=1 (MariaDB) unless already set */
    long login_timeout_s;      /* SQL_ATTR_LOGIN_TIMEOUT; 0 = driver default */
    /* --- the inactivity watchdog (odbc.c; pagetune(1) --timeout) --- */
    long timeout_s; /* no answer for this long ends the call waiting on the
                       server with PT_EUNAVAIL; 0 = COLL_TIMEOUT_DEFAULT_S */
    /* last resort when neither SQLCancel nor closing the connection's
       sockets unblocks the driver: called on the watchdog thread with the
       one-line message; it must not return (clean up and _exit). NULL:
       keep waiting. */
    void (*on_stall)(const char *msg);
};
#define COLL_TIMEOUT_DEFAULT_S 30L
#define COLL_TIMEOUT_MAX_S 86400L
/*
 * 1 when a connection string (or a --dsn value) holds a PWD= or Password=
 * key (any case, blanks around the key allowed): the password is then on
 * the command line, visible in ps. coll_conn_open refuses it together with
 * password_file / password_env (PT_EUSAGE: two sources).
 */
int coll_connstr_has_password(const char *connstr);

struct coll_conn; /* opaque: environment, connection, engine, masks */

/*
 * Connect. Exactly one of dsn / connect must be set (else PT_EUSAGE). A
 * password from password_file (refused with PT_EPERM unless the file's mode
 * is 0600 and it is a regular file) or password_env is added as PWD={…}.
 * On success *out is owned by the caller (coll_conn_close).
 */
int coll_conn_open(struct coll_conn **out, const struct coll_conn_opts *o,
                   struct pt_err *err);
/* Disconnect and free; accepts NULL. */
void coll_conn_close(struct coll_conn *c);
/* The engine (detected or forced). */
enum coll_engine coll_conn_engine(const struct coll_conn *c);
/* SQL_DBMS_NAME and SQL_DBMS_VER as reported, e.g. "PostgreSQL 15.8". */
const char *coll_conn_dbms(const struct coll_conn *c);
/* SQL_DRIVER_NAME and SQL_DRIVER_VER, e.g. "psqlodbcw.so 13.02.0000". */
const char *coll_conn_driver(const struct coll_conn *c);
/*
 * The connection described without secrets, for "source" in output files:
 * "DSN=name" or the connection string with PWD/PASSWORD keys removed.
 */
const char *coll_conn_describe(const struct coll_conn *c);

/* Execute one statement, discarding any result. */
int coll_exec(struct coll_conn *c, const char *sql, struct pt_err *err);
/*
 * Run a query returning one value (first column of the first row) as text
 * into buf. *is_null (may be NULL) is set when the value is NULL. A query
 * returning no row is PT_EDATA.
 */
int coll_query_value(struct coll_conn *c, const char *sql, char *buf,
                     size_t len, int *is_null, struct pt_err *err);
/* Same, parsed as a signed 64-bit integer (PT_EDATA if not one). */
int coll_query_i64(struct coll_conn *c, const char *sql, int64_t *out,
                   struct pt_err *err);

/* ---- result tables (small results, as text) ----------------------------- */

/*
 * A whole small result set as strings, used by the monitor adapters; the
 * adapters' parsing code takes this shape so it can be unit tested with the
 * documented column sets of each engine without a server.
 */
struct coll_rows {
    size_t n_cols;
    char **names; /* n_cols column names, upper case (owned) */
    size_t n_rows;
    char **cells; /* n_rows * n_cols; NULL for SQL NULL (owned) */
};
/* Fetch the result of `sql` into *rows (caller releases). */
int coll_query_rows(struct coll_conn *c, const char *sql,
                    struct coll_rows *rows, struct pt_err *err);
/* Build a table by hand (tests): names and cells are copied. */
int coll_rows_init(struct coll_rows *rows, size_t n_cols,
                   const char *const *names);
int coll_rows_add(struct coll_rows *rows, const char *const *cells);
void coll_rows_release(struct coll_rows *rows);
/* Column index by name (case-insensitive), or -1. */
int coll_rows_col(const struct coll_rows *rows, const char *name);
/* Cell text or NULL (SQL NULL, or no such column). */
const char *coll_rows_get(const struct coll_rows *rows, size_t row,
                          const char *name);

/* ---- identifiers -------------------------------------------------------- */

#define COLL_NAME_MAX 128

/*
 * Validate an identifier: a letter or '_' followed by letters, digits, '_',
 * '$' or '#', at most COLL_NAME_MAX bytes. Anything else (quotes, spaces,
 * ';', "x; DROP TABLE y") is PT_EDATA naming `what` and the value: pagetune
 * never sends an unchecked name to a server.
 */
int coll_ident_check(const char *name, const char *what, struct pt_err *err);
/*
 * Quote a checked identifier for the engine, folding case the way the
 * engine folds unquoted names (DB2: upper, PostgreSQL: lower, MySQL and
 * SQLite: kept): "SESSIONS" → "sessions" on PostgreSQL, `SESSIONS` on MySQL.
 */
int coll_ident_quote(enum coll_engine e, const char *name, char *buf,
                     size_t len, struct pt_err *err);
/*
 * The table of --table (core's pt_qname_parse) as engine `e` stores it:
 * unquoted parts folded (DB2 upper, PostgreSQL lower), quoted ones kept;
 * *exact has both quoted flags set. PT_EUSAGE naming --table when a part
 * is over the engine's limit (PostgreSQL 63 bytes, MariaDB 64 characters,
 * DB2 128 bytes).
 */
int coll_table_exact(enum coll_engine e, const struct pt_qname *given,
                     struct pt_qname *exact, struct pt_err *err);
/* An exact [schema.]table as SQL for engine e: "order"."user". */
int coll_table_quote(enum coll_engine e, const struct pt_qname *exact,
                     char *buf, size_t len, struct pt_err *err);
/* s as a string literal of engine e ('it''s'; MariaDB doubles '\\ too);
 * -1 if len is too small. */
int coll_sql_string(enum coll_engine e, const char *s, char *buf, size_t len);

/* ---- the table's columns and the server's state (catalog.c) ------------- */

#define COLL_MAX_TABLE_COLUMNS 64

/* One column of the sampled table, as the engine's catalog describes it. */
struct coll_column {
    char name[COLL_NAME_MAX + 1]; /* as the catalog spells it */
    char type[64];                /* the catalog's type name, lower case */
    int nullable;                 /* 1: NULL allowed */
    int fixed_bytes;              /* stored bytes of a fixed-width value,
                                     0 = variable length */
    int for_bit_data;             /* DB2: CHAR/VARCHAR FOR BIT DATA */
    int rowid_alias;              /* SQLite INTEGER PRIMARY KEY: stored as
                                     the rowid, NULL in the record */
    /* the type as declared: PostgreSQL format_type (its typmod
       included), MariaDB COLUMN_TYPE ("varchar(10)"), "" elsewhere;
       PostgreSQL only (0 elsewhere): attstorage (p m x e) and
       typcategory; the stored bytes of a non-NULL value and the NULL
       share: PostgreSQL ANALYZE's (pg_stats avg_width, null_frac),
       MariaDB the sample's own (coll_sample_run: OCTET_LENGTH over the
       sampled rows), -1 when not known */
    char decl[96];
    char storage, category;
    double avg_width, null_frac;
};

/* The columns of a table, in the catalog's order. */
struct coll_columns {
    size_t n;
    struct coll_column col[COLL_MAX_TABLE_COLUMNS];
};

/*
 * The catalog query listing the columns of table `t` (exact names,
 * coll_table_exact; written as quoted identifiers or string literals, so
 * any name is safe) into buf: PostgreSQL pg_attribute, MariaDB
 * information_schema.COLUMNS, SQLite PRAGMA table_info, DB2
 * SYSCAT.COLUMNS. Exposed for the unit tests (DB2 cannot run here).
 */
int coll_columns_sql(enum coll_engine e, const struct pt_qname *t, char *buf,
                     size_t len, struct pt_err *err);
/* Turn the rows of coll_columns_sql's query into *cols. PT_EDATA when a
 * column of the result is missing or the table has too many columns. */
int coll_columns_parse(enum coll_engine e, const struct coll_rows *rows,
                       struct coll_columns *cols, struct pt_err *err);
/* Run coll_columns_sql and parse it. No row: PT_ENOINPUT naming table. */
int coll_columns_read(struct coll_conn *c, const struct pt_qname *t,
                      struct coll_columns *cols, struct pt_err *err);
/* The column called name (case-insensitive), or NULL. */
const struct coll_column *coll_columns_find(const struct coll_columns *cols,
                                            const char *name);
/*
 * Can pagetune measure objects in column col of engine e? Binary and
 * large-object types yes (PostgreSQL bytea/text, MariaDB BLOB/VARBINARY,
 * SQLite BLOB/TEXT affinity, DB2 BLOB/CLOB/VARBINARY/FOR BIT DATA);
 * numbers, dates and times no: PT_EDATA (exit 65) naming the column, its
 * type and the types pagetune needs. MariaDB character columns are
 * measured in bytes (OCTET_LENGTH) and pass; *note (may be NULL, len
 * bytes) then says so, else gets "".
 */
int coll_column_check(enum coll_engine e, const struct coll_column *col,
                      char *note, size_t note_len, struct pt_err *err);
/*
 * The server-side expression for the stored bytes of the row's columns
 * that are not objects (`objects`: n_obj names, case-insensitive), summed
 * per row: MariaDB and DB2 each fixed-width column's storage size and
 * each variable one's length plus its length prefix; SQLite the record
 * body and header bytes of each column (SQLite "Database File Format",
 * 2.1 Record Format). PostgreSQL measures the whole row instead
 * (pg_column_size(t.*)) and gets PT_EINTERNAL here. `qualifier` (may be
 * "") prefixes each column ("pt_t."). Exposed for the unit tests.
 */
int coll_row_rest_expr(enum coll_engine e, const struct coll_columns *cols,
                       const char *const *objects, size_t n_obj,
                       const char *qualifier, char *buf, size_t len,
                       struct pt_err *err);
/* Bytes of the row besides its columns that coll_row_rest_expr leaves
 * out (MariaDB's NULL bitmap, SQLite's record header size varint); the
 * engine profile's row_overhead_bytes stays the row header. */
uint32_t coll_row_rest_const(enum coll_engine e,
                             const struct coll_columns *cols);

/*
 * One knob of the server's current state (docs/formats.md "current"): a
 * number (bytes, or the engine's own unit), a keyword, or null (nothing
 * set explicitly). Written as {"value": V, "source": "server"}.
 */
#define COLL_MAX_KNOBS 12
struct coll_knob {
    char name[40]; /* lower_snake_case */
    int is_set;    /* 0: null */
    int is_number; /* num, else word */
    int64_t num;   /* the value when is_number */
    char word[24]; /* the keyword, [A-Za-z0-9_] */
};
struct coll_state {
    size_t n;
    struct coll_knob k[COLL_MAX_KNOBS];
    char note[256]; /* what could not be read, or "" */
};
/*
 * Read the current state live (docs/formats.md "current"): PostgreSQL
 * block_size, shared_buffers, its ALTER SYSTEM value (pg_file_settings),
 * the value waiting for a restart (pg_settings.pending_restart),
 * the table's toast_tuple_target and column's attstorage; MariaDB
 * innodb_page_size, innodb_buffer_pool_size, the table's ROW_FORMAT;
 * SQLite page_size, journal_mode, cache_size; DB2 the table space's page
 * size and its buffer pool's pages (SYSCAT). t (exact names,
 * coll_table_exact) may be NULL (monitor: instance knobs only); column may be
 * NULL. A knob that cannot be read (no privilege) is left out and named in
 * st->note; a lost link fails.
 */
int coll_state_read(struct coll_conn *c, const struct pt_qname *t,
                    const char *column, struct coll_state *st,
                    struct pt_err *err);
/*
 * The catalog's statistics of the table's live rows, never a count(*):
 * PostgreSQL pg_class.reltuples (-1 before the first VACUUM or ANALYZE),
 * MariaDB information_schema.TABLES.TABLE_ROWS (InnoDB's estimate), DB2
 * SYSCAT.TABLES.CARD (-1 without RUNSTATS); SQLite keeps none (-1).
 * *rows gets the value or -1, source says which statistic. A lost link
 * fails; other errors give -1 and say why in source.
 */
int coll_live_rows_stat(struct coll_conn *c, const struct pt_qname *t,
                        int64_t *rows, char *source, size_t source_len,
                        struct pt_err *err);
/* The SQL coll_live_rows_stat runs (exposed for the unit tests); "" for
 * an engine without statistics (SQLite). -1 if buf is too small. */
int coll_live_rows_sql(enum coll_engine e, const struct pt_qname *t, char *buf,
                       size_t len);
/* The DB2 catalog query for the table space page size and buffer pool
 * of exact table t (exposed for the unit tests). */
int coll_db2_state_sql(const struct pt_qname *t, char *buf, size_t len);
/* The knob called name, or NULL. */
const struct coll_knob *coll_state_get(const struct coll_state *st,
                                       const char *name);
/* The `current` object: {knob: {"value", "source": "server"}}. New
 * reference (caller json_decref) or NULL when out of memory. */
json_t *coll_state_to_json(const struct coll_state *st);

/* ---- sample ------------------------------------------------------------- */

#define COLL_MAX_COLUMNS 8

enum coll_method {
    COLL_METHOD_BERNOULLI = 0, /* row-level: each row with probability p */
    COLL_METHOD_SYSTEM,        /* page-level (PostgreSQL, DB2 TABLESAMPLE) */
};

enum coll_layout {
    COLL_LAYOUT_PLAIN = 0,  /* no ID/PROPID columns: rows are objects */
    COLL_LAYOUT_SINGLE_ROW, /* WebSphere single-row: one row per session */
    COLL_LAYOUT_MULTI_ROW,  /* WebSphere multi-row: one row per attribute */
};
const char *coll_layout_name(enum coll_layout l);

/* --rows at most: every engine's LIMIT / FETCH FIRST takes it as an
 * INTEGER, and a sample of more rows does not fit in memory anyway. */
#define COLL_MAX_SAMPLE_ROWS 2147483647ULL
struct coll_sample_opts {
    struct pt_qname table; /* --table as given (core's pt_qname_parse),
                              default SESSIONS; no schema: the
                              connection's default */
    size_t n_columns;
    char columns[COLL_MAX_COLUMNS][COLL_NAME_MAX + 1]; /* SMALL,MEDIUM,LARGE */
    double percent;          /* 0 < p <= 100; 0 = no percentage sampling */
    uint64_t rows;           /* > 0: N random rows (at most
                                COLL_MAX_SAMPLE_ROWS); 0 = no row limit */
    enum coll_method method; /* for --percent on PostgreSQL / DB2 */
    int has_seed;            /* REPEATABLE (seed) / RAND(seed) */
    uint32_t seed;
    size_t block_rows; /* rows per SQLFetch (row array size) */
    int grouped;       /* 1: GROUP BY the lengths on the server and fetch
                          (lengths, count): exact, fewer rows, no progress
                          until the scan ends */
    /* progress: called after each block; total 0 when unknown */
    pt_progress_fn *progress;
    void *progress_ctx;
    /* stopping: pt_interrupted() is polled per block (PT_EINTR) */
};
/* Defaults: SESSIONS, SMALL,MEDIUM,LARGE, full scan, 8192-row blocks. */
void coll_sample_opts_init(struct coll_sample_opts *o);
/*
 * PostgreSQL: pglz run in the client on up to COLL_TRIAL_ROWS sampled rows'
 * values (pgtrial.c; sizes.json "compression"). 1000 rows put the share
 * that compresses within about 1.6 points (one standard deviation at a
 * half; 200 gave 3.5, docs/models.md#limit-pg-trial); at most the first
 * 256 KiB of a value are read (pglz's history is 4 KB: a longer prefix
 * compresses as the whole does), so the trial reads at most 256 MiB.
 * The rows are chosen by random() after setseed(): sample's --seed, else
 * COLL_TRIAL_SEED, so that the same table gives the same trial.
 */
#define COLL_TRIAL_ROWS 1000
#define COLL_TRIAL_MAX_BYTES 262144 /* of a value: its first 256 KiB */
#define COLL_TRIAL_SEED 1u
struct coll_pg_trial {
    int done;                        /* 1: the trial ran */
    uint32_t seed;                   /* setseed() before the rows' choice */
    int lz4;                         /* the column compresses with lz4 */
    char method[8];                  /* "pglz" */
    char note[256];                  /* why not measured, or the lz4 caveat */
    uint64_t values;                 /* values tried */
    uint64_t raw_bytes;              /* their bytes */
    uint64_t compressible_values;    /* pglz saved its 25 % on these */
    uint64_t compressible_raw_bytes; /* their bytes */
    uint64_t pglz_bytes;             /* pglz's output for them */
    uint64_t server_stored_bytes;    /* pg_column_size() of the same values */
    double sxx, sxy;                 /* sums of raw^2 and raw x pglz (the
                                        line pglz = a + b x raw) */
};

/*
 * "--columns A,B,C" into o->columns (replacing them), each name checked
 * with coll_ident_check. PT_EUSAGE for more than COLL_MAX_COLUMNS, PT_EDATA
 * for a name too long or not an identifier; messages name --columns.
 */
int coll_sample_opts_columns(struct coll_sample_opts *o, const char *list,
                             struct pt_err *err);

struct coll_sample_result {
    enum coll_engine engine;
    enum coll_layout layout;
    char query[8192];        /* the statement that was run (no secrets) */
    char method[256];        /* how rows were chosen, in words */
    uint64_t rows_scanned;   /* rows returned by the server */
    uint64_t rows_empty;     /* rows with every sampled column NULL */
    uint64_t rows_multi;     /* rows with more than one non-NULL column
                                (their size is the sum) */
    uint64_t header_rows;    /* multi-row layout: PROPID = ID rows */
    uint64_t attribute_rows; /* multi-row layout: PROPID <> ID rows */
    uint64_t placement[COLL_MAX_COLUMNS];    /* rows stored in column i */
    uint64_t column_bytes[COLL_MAX_COLUMNS]; /* bytes stored in column i */
    uint64_t *values; /* per row: bytes of the non-NULL column (owned) */
    size_t n_values;
    int have_sessions;      /* per-session sums computed */
    char session_note[256]; /* why not, when have_sessions is 0 */
    char session_query[2048];
    uint64_t *session_values; /* multi-row: bytes per session ID (owned) */
    size_t n_sessions;
    uint64_t estimated_rows; /* catalog estimate used for progress, or 0 */
    /* the whole row (item "row" of docs/formats.md sizes.json) */
    int have_rows;        /* the row sizes below were measured */
    char row_basis[256];  /* how the row size was measured, in words */
    uint64_t *row_values; /* per object row: stored bytes of the whole
                             row (owned; n_values entries) */
    uint64_t rest_sum;    /* sum over object rows of the bytes besides
                             the objects and the row header */
    uint64_t rest_min, rest_max;
    struct coll_pg_trial trial;  /* PostgreSQL: the compression trial */
    uint64_t stored_bytes;       /* PostgreSQL: sum of pg_column_size() of the
                                    objects (compressed, as stored); 0 else */
    uint64_t raw_bytes;          /* the same rows' octet lengths */
    struct coll_columns columns; /* the table's columns (catalog) */
    char column_note[256];       /* a note on the objects' column type, or "" */
    struct coll_state state;     /* the current state (coll_state_read) */
    int have_state;
    int64_t live_rows;          /* the table's live rows: counted by a full
                                   scan, else the catalog's statistics; -1 =
                                   not measured (never analyzed) */
    char live_rows_source[160]; /* which, in words */
};
void coll_sample_result_release(struct coll_sample_result *r);

/*
 * Sample object sizes: the server computes each column's byte length
 * (octet_length / OCTET_LENGTH / LENGTH, never the objects), rows are
 * fetched in blocks with column-wise binding, no allocation per row. A
 * missing table is PT_ENOINPUT naming it; a missing column PT_EDATA; a link
 * lost mid-fetch PT_EUNAVAIL. On failure *r is released.
 */
int coll_sample_run(struct coll_conn *c, const struct coll_sample_opts *o,
                    struct coll_sample_result *r, struct pt_err *err);

/*
 * The engine-specific statement for a sample (exposed for tests): the
 * select list `select_list` over `qtable` (already quoted), restricted by
 * `where` (or NULL), with the sampling of *o applied. Writes into buf.
 */
int coll_sample_sql(enum coll_engine e, const struct coll_sample_opts *o,
                    const char *select_list, const char *qtable,
                    const char *where, char *buf, size_t len, char *method,
                    size_t method_len, struct pt_err *err);
/* The server-side byte-length expression for an already-quoted column. */
int coll_length_expr(enum coll_engine e, const char *qcol, char *buf,
                     size_t len, struct pt_err *err);

/* ---- monitor ------------------------------------------------------------ */

/*
 * One measured value. Canonical counter names per buffer pool (scope
 * "bufferpool"): logical_reads, physical_reads, direct_reads (requests),
 * direct_writes (requests); gauges page_size, pages. Engine counters keep
 * their documented names (POOL_DATA_L_READS, blks_hit, heap_blks_read,
 * Innodb_buffer_pool_read_requests, ...).
 */
struct coll_metric {
    char scope[16];   /* "bufferpool", "database", "tablespace", "table",
                         "instance", "setting" */
    char object[128]; /* pool, tablespace, table or database name */
    char name[64];    /* counter name */
    double value;
    int cumulative; /* 1: a counter that only grows (deltas apply);
                       0: a gauge or setting */
};

/*
 * The physical memory of the server's host, where the monitor can read it
 * (collect/host.c says how, per engine; docs/formats.md "host"). A reading
 * that fails for want of privilege, or a remote server without SQL for it,
 * leaves known 0 and says why in note.
 */
struct coll_host {
    int read;              /* 1: coll_host_read ran */
    int known;             /* 1: memory_bytes is the host's */
    uint64_t memory_bytes; /* MemTotal / MEMORY_TOTAL, bytes */
    char source[160];      /* how it was read, when known */
    char note[256];        /* "host memory not readable: <why>" else "" */
};
/*
 * Read the host's memory over c (PostgreSQL pg_read_file('/proc/meminfo'),
 * DB2 ENV_GET_SYSTEM_RESOURCES, else this machine's /proc/meminfo when the
 * server is local). Only a lost link or an interrupt fails (PT_EUNAVAIL,
 * PT_EINTR); everything else is a note in *h.
 */
int coll_host_read(struct coll_conn *c, struct coll_host *h,
                   struct pt_err *err);
/* MemTotal of a /proc/meminfo text (proc(5): "MemTotal: N kB") in bytes:
 * 0, or -1 when there is none or it is not a plausible number. */
int coll_meminfo_total(const char *text, uint64_t *bytes);
/* The DB2 query coll_host_read runs (IBM Db2 11.1 docs,
 * "ENV_GET_SYSTEM_RESOURCES table function"): MEMORY_TOTAL in MB of the
 * member we are connected to. */
#define COLL_DB2_HOST_MEMORY_SQL                                               \
    "SELECT MEMORY_TOTAL FROM TABLE(SYSPROC.ENV_GET_SYSTEM_RESOURCES()) AS T " \
    "WHERE MEMBER = CURRENT MEMBER"

struct coll_snapshot {
    double t_s;        /* seconds since the first snapshot (monotonic) */
    char taken_at[32]; /* UTC ISO 8601 */
    size_t n, cap;
    struct coll_metric *m; /* owned */
    char note[256];        /* what could not be read, or "" */
    struct coll_host host; /* coll_monitor_run: on the last snapshot */
};
void coll_snapshot_release(struct coll_snapshot *s);
/* Append a metric (copies strings, truncating to the field sizes). */
int coll_snapshot_add(struct coll_snapshot *s, const char *scope,
                      const char *object, const char *name, double value,
                      int cumulative);
/* Find a metric; NULL if absent. */
const struct coll_metric *coll_snapshot_find(const struct coll_snapshot *s,
                                             const char *scope,
                                             const char *object,
                                             const char *name);

/* What the engine reports about its configured pool (the main one). */
struct coll_current {
    uint64_t page_size;        /* bytes */
    uint64_t bufferpool_pages; /* pages of page_size */
    uint64_t bufferpool_bytes;
    char bufferpool[128]; /* name of that pool */
    int has_hit_counters; /* 0 for SQLite over ODBC */
    char note[256];       /* e.g. why there are no counters */
};

/* Take one snapshot of every counter the engine's adapter knows. */
int coll_monitor_snapshot(struct coll_conn *c, struct coll_snapshot *s,
                          struct pt_err *err);
/* How to take a monitor run (coll_monitor_run). */
struct coll_monitor_opts {
    size_t count;      /* snapshots to take, >= 1 */
    double interval_s; /* seconds between two snapshots */
    /* progress: called after each snapshot (done of total) */
    void (*progress)(void *ctx, size_t done, size_t total);
    void *progress_ctx;
    /* countdown, or NULL: called about once a second while waiting for the
       next snapshot, with the whole seconds left (progress_ctx) */
    void (*countdown)(void *ctx, size_t done, size_t total, unsigned left_s);
    /* stopping: pt_interrupted() is polled after each snapshot and during
       the sleep between two (PT_EINTR) */
};

/*
 * Take o->count snapshots into snaps[0..count), o->interval_s apart (no
 * sleep after the last). *n_taken receives how many were taken, also on
 * failure: the caller releases those (coll_snapshot_release) and owns
 * `snaps`. Fails as coll_monitor_snapshot, or PT_EINTR when cancelled.
 */
int coll_monitor_run(struct coll_conn *c, const struct coll_monitor_opts *o,
                     struct coll_snapshot *snaps, size_t *n_taken,
                     struct pt_err *err);
/* Read the current page size / pool size from a snapshot. */
void coll_monitor_current(enum coll_engine e, const struct coll_snapshot *s,
                          struct coll_current *cur);

/*
 * Adapter row parsing, one per engine and view: they turn a result table
 * (coll_rows) into metrics. Exposed so the unit tests can feed them the
 * documented column sets (DB2 cannot run here). PT_EDATA when a required
 * column is missing or a number does not parse.
 */
int coll_db2_parse_bufferpool(const struct coll_rows *rows,
                              struct coll_snapshot *s, struct pt_err *err);
int coll_db2_parse_tablespace(const struct coll_rows *rows,
                              struct coll_snapshot *s, struct pt_err *err);
/* After coll_db2_parse_bufferpool: adds "pages" per pool (NPAGES, or
   BP_CUR_BUFFSZ when NPAGES is -2 = AUTOMATIC). */
int coll_db2_parse_catalog_bp(const struct coll_rows *rows,
                              struct coll_snapshot *s, struct pt_err *err);
int coll_pg_parse_database(const struct coll_rows *rows,
                           struct coll_snapshot *s, struct pt_err *err);
int coll_pg_parse_tables(const struct coll_rows *rows, struct coll_snapshot *s,
                         struct pt_err *err);
int coll_pg_parse_settings(const struct coll_rows *rows,
                           struct coll_snapshot *s, struct pt_err *err);
int coll_mysql_parse_status(const struct coll_rows *rows,
                            struct coll_snapshot *s, struct pt_err *err);
int coll_mysql_parse_pool_stats(const struct coll_rows *rows,
                                struct coll_snapshot *s, struct pt_err *err);
int coll_sqlite_parse_pragmas(const struct coll_rows *rows,
                              struct coll_snapshot *s, struct pt_err *err);

/* The delta of one cumulative metric between two snapshots. */
struct coll_delta {
    const struct coll_metric *m; /* metric in the later snapshot */
    double delta;                /* later - earlier (>= 0 unless reset) */
    double rate_per_s;           /* delta / elapsed seconds */
    int reset;                   /* counter went backwards (restart) */
};
/*
 * Deltas of every cumulative metric of `b` present in `a`. *out (caller
 * frees with free()) receives *n entries.
 */
int coll_snapshot_deltas(const struct coll_snapshot *a,
                         const struct coll_snapshot *b, struct coll_delta **out,
                         size_t *n, struct pt_err *err);
/*
 * The work a cumulative counter counted from `before` to `after`: their
 * difference, or `after` itself when the counter went backwards (server
 * restart, pool recreated: the best estimate of the work since); *reset
 * (may be NULL) says which. The one reset rule of coll_snapshot_deltas and
 * coll_monitor_run_delta.
 */
double coll_counter_delta(double before, double after, int *reset);
/*
 * Hit ratio in percent, (1 - physical / logical) * 100, clamped to
 * 0..100; returns -1 when logical is 0 (undefined).
 */
double coll_hit_ratio(double logical, double physical);

/* ---- documents: sizes.json and monitor.json ------------------------------
 *
 * collect/ owns the two documents it measures (sizes.json and monitor.json,
 * docs/formats.md; pagetune-sample(1), pagetune-monitor(1)): the writer and
 * the reader of each live here, beside the structs they serialise. An
 * in-process caller gets the structs and never needs a file; `sample -o`
 * and `monitor -o` write them, `recommend --sizes/--monitor` read them back
 * into the model's inputs (struct rec_sizes, struct rec_monitor).
 */

/* Where a document's numbers came from: the connection, without secrets. */
struct coll_source {
    char dbms[128];        /* coll_conn_dbms() */
    char driver[128];      /* coll_conn_driver() */
    char connection[1024]; /* coll_conn_describe() */
};
/* Describe connection c (NULL: every field empty). */
void coll_source_init(struct coll_source *src, const struct coll_conn *c);

/*
 * One sample as the sizes document describes it. Filled by
 * coll_sizes_doc_init(); `opts` and `result` are borrowed (the result's
 * value arrays are sorted in place by the statistics).
 */
struct coll_sizes_doc {
    const struct coll_sample_opts *opts;     /* what was asked */
    const struct coll_sample_result *result; /* what was measured */
    struct coll_source source;               /* over which connection */
    char taken_at[32];                       /* UTC ISO 8601 */
    int unit_session;           /* asked for: sessions as the top-level unit */
    struct rec_size_stats rows; /* statistics per row (object) */
    struct rec_size_stats sessions;  /* per session, if have_sessions */
    int have_sessions;               /* multi-row layout, sessions summed */
    struct rec_size_stats row_bytes; /* the whole rows, if have_rows */
    int have_rows;                   /* result->have_rows */
};

/*
 * Describe sample `r` of `o` taken over `src` (may be NULL) at `taken_at`
 * (NULL: now): computes the statistics (sorting r's value arrays).
 * PT_EDATA when the sample holds no object, or `unit_session` is asked of
 * a multi-row table without one complete session. When `unit_session`
 * cannot be honoured for another layout, have_sessions is 0 and
 * r->session_note says why (the document then falls back to rows).
 */
int coll_sizes_doc_init(struct coll_sizes_doc *d,
                        const struct coll_sample_opts *o,
                        struct coll_sample_result *r,
                        const struct coll_source *src, int unit_session,
                        const char *taken_at, struct pt_err *err);
/* The statistics of the top-level unit (sessions or rows). */
const struct rec_size_stats *coll_sizes_doc_top(const struct coll_sizes_doc *d);
/* The sizes of the top-level unit; *n receives their number. Borrowed. */
const uint64_t *coll_sizes_doc_values(const struct coll_sizes_doc *d,
                                      size_t *n);
/*
 * The sizes document as JSON: schema_version, source, the statistics of the
 * top-level unit, unit, layout, placement, column_bytes, row counts, the
 * other unit's statistics, and "values" (every size, last) if with_values.
 * A new reference (caller json_decref), or NULL when out of memory.
 */
json_t *coll_sizes_doc_to_json(const struct coll_sizes_doc *d, int with_values);
/*
 * Write the document to fp as coll_sizes_doc_to_json() lays it out
 * (2-space indent, keys in order), the values 16 to a line without a JSON
 * node per value. PT_EIO on a write error, PT_EINTERNAL out of memory.
 */
int coll_sizes_doc_write(const struct coll_sizes_doc *d, int with_values,
                         FILE *fp, struct pt_err *err);
/* sizes.json's "table_columns" (the table's columns besides the
 * objects, coll_sizes_doc) into *cols: none when the member is absent
 * (a document from before it), PT_EDATA naming the entry when one is not
 * well formed. name: the file, for messages. */
int coll_sizes_table_columns(const json_t *doc, const char *name,
                             struct coll_columns *cols, struct pt_err *err);
/*
 * Read a sizes document into *s (caller rec_sizes_release): "values" if
 * present, else the histogram as one weighted entry per non-empty bin,
 * each object at its bin's upper bound (a conservative estimate;
 * from_histogram is set; sorted), at most REC_MAX_OBJECTS objects; and the
 * measured rest of the row when row_source is "measured"
 * (row_fixed_bytes.mean, rounded up). PT_EDATA naming `name` and the key
 * otherwise; *s is empty then.
 */
int coll_sizes_doc_from_json(struct rec_sizes *s, const json_t *doc,
                             const char *name, struct pt_err *err);

/* Buffer-pool totals over a monitor run, summed over every pool. */
struct coll_monitor_summary {
    double logical_reads, physical_reads; /* over the run (see basis) */
    double direct_reads, direct_writes;   /* requests over the run */
    double elapsed_s;                     /* first to last snapshot */
    double hit_ratio;                     /* percent, -1 undefined */
    int counted; /* the snapshots carry a pool's logical_reads counter (0:
                    the engine exposes none, e.g. SQLite) */
};

/*
 * A monitor run as the monitor document describes it: n >= 1 snapshots
 * (borrowed) of one engine. With one snapshot the counters since the
 * server started stand for the run; with more, their deltas.
 */
struct coll_monitor_doc {
    enum coll_engine engine;
    struct coll_source source;         /* over which connection */
    double interval_s;                 /* asked between snapshots */
    const struct coll_snapshot *snaps; /* n snapshots, oldest first */
    size_t n;
    struct coll_current current;         /* from the last snapshot */
    struct coll_monitor_summary summary; /* coll_monitor_summarize() */
    const struct coll_state *state;      /* knobs read live (borrowed, may
                                            be NULL): written into
                                            "current" as {value, source} */
    struct coll_host host;               /* the last snapshot's: "host" */
};

/*
 * Describe n >= 1 snapshots of engine e taken over `src` (may be NULL):
 * computes current and summary.
 */
void coll_monitor_doc_init(struct coll_monitor_doc *d, enum coll_engine e,
                           const struct coll_source *src,
                           const struct coll_snapshot *snaps, size_t n,
                           double interval_s);
/*
 * Whether the window of monitor document d saw too little to be trusted,
 * judged by what it observed, not by its length: 1 when its pools counted
 * block accesses (summary.counted) and saw fewer than
 * REC_MONITOR_MIN_READS of them, with the reason and what to do in why[]
 * (one line; `opt` is the caller's option for the interval, e.g.
 * "--interval", and the suggested value brings the window's count to the
 * minimum at the rate it saw), else 0. A single snapshot (counters since
 * the server started) and an engine without pool counters (nothing to
 * trust or distrust) are never thin; a 1 s window of a busy server is
 * not thin, a 10-minute window of an idle one is.
 */
int coll_monitor_window_thin(const struct coll_monitor_doc *d, const char *opt,
                             char *why, size_t why_len);
/*
 * What a counter counted over the run: the sum of its deltas between
 * consecutive snapshots (coll_counter_delta: a reset counts from zero), or
 * its value when n == 1. *found is 0 when no pair (or snapshot) has it.
 */
double coll_monitor_run_delta(const struct coll_snapshot *snaps, size_t n,
                              const char *scope, const char *object,
                              const char *name, int *found);
/* Sum the buffer-pool counters of the run into *s. */
void coll_monitor_summarize(const struct coll_snapshot *snaps, size_t n,
                            struct coll_monitor_summary *s);
/*
 * The monitor document as JSON: engine, source, snapshot times, "current"
 * and "summary" (the keys `recommend --monitor` relies on), then per scope
 * (bufferpools, tablespaces, tables, ...) each object's gauges, snapshots,
 * deltas and hit ratios, and notes. New reference, NULL when out of memory.
 */
json_t *coll_monitor_doc_to_json(const struct coll_monitor_doc *d);
/*
 * Read the evidence a recommendation uses from a monitor document into *m:
 * current page size (1..1 MiB) and pool pages, summary hit ratio (0..100 or
 * null), direct-read share (0..1), read counters, engine. PT_EDATA naming
 * `name` and the key.
 */
int coll_monitor_doc_from_json(struct rec_monitor *m, const json_t *doc,
                               const char *name, struct pt_err *err);
/*
 * The same evidence straight from the run, for an in-process caller: what
 * coll_monitor_doc_from_json() reads from coll_monitor_doc_to_json(d) (the
 * hit ratio rounded to 3 decimals, as the document prints it). PT_EDATA
 * naming "monitor" when the engine reported no usable page size.
 */
int coll_monitor_doc_evidence(const struct coll_monitor_doc *d,
                              struct rec_monitor *m, struct pt_err *err);

/* ---- replay on a PostgreSQL server (pgreplay.c, pagetune-replay(1)) ---- */

/*
 * `pagetune replay --connect/--dsn`: a trace replayed through the real
 * ODBC driver on scratch tables, one per candidate table configuration,
 * filled with synthetic rows only. Everything lives in a scratch schema
 * pagetune creates and marks (its comment starts with COLL_PGR_MARK); the
 * run holds a session advisory lock on the schema's name
 * (pg_try_advisory_lock(hashtext('pagetune replay'), hashtext(schema)))
 * from before it looks at the schema until after it dropped it, drops its
 * tables and the schema by name (never CASCADE), and reclaims a marked
 * schema whose lock is free (a killed run's). It never names the user's
 * table. Needs CREATE on the database (PT_EPERM before anything is
 * created when has_database_privilege says no).
 */
#define COLL_PGR_MAX_CANDIDATES 4
#define COLL_PGR_MAX_ROUNDS 100
#define COLL_PGR_SCHEMA_DEFAULT "pagetune_scratch"
#define COLL_PGR_MARK "pagetune replay scratch schema"
/* The scratch row's bytes besides its object (ID, PROPID of 18 characters,
 * APPNAME, LISTENERCNT, LASTACCESS, CREATIONTIME, MAXINACTIVETIME, USERNAME
 * NULL), aligned as PostgreSQL lays them out; the tuple header apart. */
#define COLL_PGR_LAYOUT_REST 84

/* One table configuration a table-level change can express. */
struct coll_pgr_candidate {
    uint32_t toast_tuple_target; /* 128..8160 (2032: PostgreSQL's default) */
    char storage[12];            /* "" (EXTENDED, the default), PLAIN, MAIN,
                                    EXTERNAL, EXTENDED: the object column's */
    char compression[8];         /* "" (default_toast_compression), pglz, lz4 */
    uint32_t fillfactor;         /* the heap's, 10..100; 0: the default 100 */
};
/* "toast_tuple_target=N[,storage=S][,compression=C][,fillfactor=F]" into
 * *c; PT_EUSAGE
 * with a message naming the part (the caller adds the option). */
int coll_pgr_candidate_parse(const char *spec, struct coll_pgr_candidate *c,
                             struct pt_err *err);
/* The same form back, for output. */
void coll_pgr_candidate_format(const struct coll_pgr_candidate *c, char *buf,
                               size_t len);

enum { COLL_PGR_GET = 0, COLL_PGR_SET = 1, COLL_PGR_DEL = 2 };
/* A request of the trace (the caller copies it from its trace). */
struct coll_pgr_req {
    uint64_t key_id;
    uint32_t size_bytes;
    uint8_t op;         /* COLL_PGR_* */
    uint8_t write_back; /* a set writing back the get before it: one request */
};

/* A column of the sampled table carried into the scratch tables
 * (coll_pgr_extras): its name quoted, its declared type and storage, the
 * synthetic value every inserted row gets (a DEFAULT expression), the
 * value's stored bytes and NULL share, and so its bytes a row. */
#define COLL_PGR_MAX_EXTRA 24
#define COLL_PGR_EXTRA_WIDE 1024 /* wider values stay in pt_rest's bytes */
struct coll_pgr_extra {
    char raw[COLL_NAME_MAX + 1];      /* as the catalog spells it */
    char name[2 * COLL_NAME_MAX + 3]; /* quoted */
    char decl[96];
    char storage; /* attstorage: p m x e */
    char def[2 * COLL_PGR_EXTRA_WIDE + 96];
    uint32_t width;   /* stored bytes of the value (pg_column_size;
                         MariaDB: OCTET_LENGTH, or its type's width) */
    double null_frac; /* the share of rows it is NULL in (0: never) */
    double sampled;   /* the sample's width of a value (avg_width): more
                         than width when the declared length cut it (a
                         multibyte text counts its bytes) */
    int nullable;     /* NULL in null_frac of the rows */
    int fixed;        /* a fixed-width type (MariaDB: no length byte) */
    uint32_t bytes;   /* a row's: the value's bytes in the record
                         (MariaDB: its length byte(s) too) x
                         (1 - null_frac) */
};

struct coll_pgr_plan {
    const char *schema; /* scratch schema; NULL = COLL_PGR_SCHEMA_DEFAULT */
    size_t n_cand;      /* 1..COLL_PGR_MAX_CANDIDATES; the first is the
                           reference (the current configuration) */
    struct coll_pgr_candidate cand[COLL_PGR_MAX_CANDIDATES];
    const struct coll_pgr_req *reqs; /* borrowed */
    uint64_t n_reqs;
    const uint64_t *first_size; /* n_keys: a session's load size; borrowed */
    uint64_t n_keys;
    uint64_t max_bytes;  /* the largest object */
    uint32_t rest_bytes; /* the sampled rows' bytes besides the object
                            (sizes.json row_fixed_bytes); more than the
                            layout's own (COLL_PGR_LAYOUT_REST) adds a
                            pt_rest bytea column, STORAGE PLAIN, holding
                            the difference; 0: the layout's own */
    double compressible; /* share of sessions holding compressible text
                            (by key), the rest random bytes */
    /* the sampled table's other columns, each its own column in the
       scratch tables (coll_pgr_extras); their bytes come out of
       rest_bytes, pt_rest keeps the remainder */
    struct coll_pgr_extra extra[COLL_PGR_MAX_EXTRA];
    size_t n_extra;
    unsigned n_clients;         /* connections, each its own thread */
    unsigned warmup_rounds;     /* unmeasured passes per candidate */
    unsigned rounds;            /* measured, A B B A ... (1..100) */
    int allow_replicated;       /* 0: refuse (PT_ECANTCREAT) a server that
                                   streams to replicas */
    uint64_t max_scratch_bytes; /* refuse (PT_ECANTCREAT) an estimate over
                                   it before loading; PT_EIO when the
                                   loaded tables measure over it */
    long statement_timeout_ms, lock_timeout_ms; /* set on every connection */
    const struct coll_conn_opts *conn; /* for the clients' connections */
    /* a line for the user (progress, a reclaimed schema), or NULL */
    void (*note)(void *ctx, const char *msg);
    void *ctx;
};
void coll_pgr_plan_init(struct coll_pgr_plan *p);
/*
 * The sampled table's columns (cols, from coll_columns_read) into p's
 * extra columns: each that is not one of the scratch layout's own
 * (SESSIONS' id ... small, pt_rest) nor an object column (objects, n_obj;
 * case-insensitive) and whose type has a synthetic value: strings
 * (typcategory S: hex characters, within the declared length), numbers,
 * booleans, dates and times, intervals, bytea (random bytes), uuid, json
 * and jsonb, each as wide as its pg_stats avg_width and NULL in its
 * null_frac of the rows (a DEFAULT, random() below null_frac). Not
 * carried, their bytes left to pt_rest: other types (enums, arrays,
 * composites...), values wider than COLL_PGR_EXTRA_WIDE, columns without
 * statistics (never ANALYZEd), and more than COLL_PGR_MAX_EXTRA. why
 * (len bytes, may be NULL) lists what was not carried, or "". Returns the
 * number carried.
 */
size_t coll_pgr_extras(struct coll_pgr_plan *p, const struct coll_columns *cols,
                       const char *const *objects, size_t n_obj, char *why,
                       size_t why_len);
/* Their stored bytes a row, summed. */
uint32_t coll_pgr_extra_bytes(const struct coll_pgr_plan *p);

/* Deltas of pg_statio_all_tables for a scratch table and its TOAST table
 * (and TOAST index, primary key index) over the measured rounds. */
struct coll_pgr_blocks {
    uint64_t heap_read, heap_hit, toast_read, toast_hit;
    uint64_t tidx_read, tidx_hit, idx_read, idx_hit;
};
struct coll_pgr_cand_result {
    unsigned n_rounds;
    double round_rps[COLL_PGR_MAX_ROUNDS]; /* requests/s of each round */
    double requests_per_s;                 /* all measured rounds */
    uint64_t requests, ops, gets;          /* per round */
    double op_mean_us, op_p95_us;          /* every operation */
    struct coll_pgr_blocks blocks;         /* all measured rounds */
    /* the reads the verdict judges, in each measured round: PostgreSQL's
     * heap + TOAST blocks read from outside shared_buffers, InnoDB's
     * Innodb_buffer_pool_reads (myreplay.c) */
    uint64_t round_reads[COLL_PGR_MAX_ROUNDS];
    uint64_t heap_bytes, toast_bytes; /* after the rounds */
};
/* The file system the scratch tables go to, checked before loading
 * (coll_rpl_check_free): its path and free bytes, the bytes the check
 * asked for; path "" when not checked, why says why. */
struct coll_pgr_free {
    char path[256];
    uint64_t free_bytes, needed_bytes;
    char why[256];
};
/* *f as one line into buf ("PATH had X free before the load, the scratch
 * tables needing about Y", or "not checked: WHY"); 0 when there is nothing
 * to say (no check was made), else 1. */
int coll_pgr_free_text(const struct coll_pgr_free *f, char *buf, size_t len);
struct coll_pgr_result {
    size_t n_cand;
    /* the sampled table's columns the scratch rows carried (the plan's
       extra), each with its modelled width and NULL share beside what
       the first scratch table holds after the load; what was not
       carried, and why (the caller's, from coll_pgr_extras), "" none */
    size_t n_extra;
    struct coll_pgr_extra_result {
        char name[COLL_NAME_MAX + 1];
        char decl[96];
        uint32_t width;   /* the model's, of a value */
        double null_frac; /* the model's */
        /* the first scratch table after the load: avg pg_column_size of
           its values, its NULL share; -1 not measured */
        double measured_width, measured_null_frac;
        double sampled_width; /* the sample's (coll_pgr_extra.sampled) */
    } extra[COLL_PGR_MAX_EXTRA];
    char not_carried[512];
    struct coll_pgr_cand_result r[COLL_PGR_MAX_CANDIDATES];
    char server[128];              /* SQL_DBMS_NAME and version */
    uint64_t shared_buffers_pages; /* the server's shared_buffers, pages */
    uint32_t block_size;           /* BLCKSZ */
    char toast_compression[8];     /* default_toast_compression */
    /* Buffers other user relations (not the catalogs) held in
     * shared_buffers, the mean of a count by pg_buffercache at the end of
     * each measured pass; other_known is 0 when the extension is not
     * installed or the role may not execute it (the prediction then
     * assumes the whole pool is the scratch tables'). */
    uint64_t other_pages;
    int other_known;
    uint64_t estimate_bytes;
    int reclaimed;             /* a killed run's schema was dropped first */
    struct coll_pgr_free free; /* checked before loading */
};

/* The bytes the scratch tables will take, from the trace: every
 * candidate's sessions (n_keys x their load size plus row and index
 * overhead). */
uint64_t coll_pgr_estimate_bytes(const struct coll_pgr_plan *p);
/* The scratch DDL a run executes, in order, as a script (--dry-run): the
 * lock, the schema with its mark, each table, its drop. PT_EDATA for a bad
 * schema name, PT_EINTERNAL when len is too small. */
int coll_pgr_ddl(const struct coll_pgr_plan *p, char *buf, size_t len,
                 struct pt_err *err);
/* Run it on connection c (PostgreSQL; the caller's, used for set-up,
 * counters and the drop). Errors: PT_EPERM (no CREATE on the database),
 * PT_ECANTCREAT (schema exists without the mark; estimate over
 * max_scratch_bytes), PT_EUNAVAIL (another run holds the lock; the
 * server), PT_EIO (loaded tables over max_scratch_bytes), PT_EINTR. The
 * scratch objects are dropped whatever the outcome. */
int coll_pgr_run(struct coll_conn *c, const struct coll_pgr_plan *p,
                 struct coll_pgr_result *res, struct pt_err *err);

/* What a run does, for a prediction of it (advise/pgpredict.c) and for the
 * MariaDB replay (myreplay.c): the bytes of pt_rest (0: none), whether
 * session `key` holds compressible text, the two payloads (random, text;
 * max_bytes + COLL_PGR_SLIDE + the pad each, the caller frees them; -1 out
 * of memory; a payload window slides by up to COLL_PGR_SLIDE bytes between
 * writes), the offset in its payload of request i's object (a set's; a
 * load's is the key's), and the number whose 16 hex digits make session
 * key's id ("pt%016llx"): the primary key's order is its. */
#define COLL_PGR_SLIDE 4096u
uint32_t coll_pgr_rest_pad(const struct coll_pgr_plan *p);
int coll_pgr_key_text(const struct coll_pgr_plan *p, uint64_t key);
int coll_pgr_payloads(const struct coll_pgr_plan *p, unsigned char **rnd,
                      unsigned char **txt);
size_t coll_pgr_set_offset(uint64_t i);
uint64_t coll_pgr_key_hash(uint64_t key);

/* ---- replay on a MariaDB / MySQL server (myreplay.c, pagetune-replay(1)) */

/*
 * The same replay on InnoDB: the scratch schema is a database pagetune
 * creates with its mark as the database's COMMENT (MariaDB 10.5+), held by
 * GET_LOCK(COLL_MYR_LOCK_PREFIX + name, 0) on the run's own connection to
 * each instance; one table per candidate table configuration (ROW_FORMAT,
 * KEY_BLOCK_SIZE); a page size is a property of an instance
 * (innodb_page_size is fixed when it is created), so a candidate of
 * another page size names another instance, whose own scratch database
 * holds its table. Counters: SHOW GLOBAL STATUS deltas around each pass,
 * instance-wide. The plan and result wrap the PostgreSQL ones: the trace,
 * clients, rounds, timeouts, limits and notes are the same fields.
 */
#define COLL_MYR_LOCK_PREFIX "pagetune replay "
struct coll_myr_candidate {
    char row_format[12];     /* DYNAMIC, COMPACT, COMPRESSED, REDUNDANT;
                                "": the first candidate's (DYNAMIC) */
    uint32_t key_block_size; /* KB (1, 2, 4, 8, 16), COMPRESSED only; 0 */
    uint32_t page_size;      /* bytes; 0: the instance's own, unchecked */
    const char *instance;    /* an instance built with page_size: a DSN
                                name, or a connection string (it holds
                                '='); NULL: the --connect one. Borrowed */
};
/* "row_format=R[,key_block_size=N][,page_size=SIZE]" or "SIZE=DSN" or
 * "SIZE" (a page size without an instance: not testable) into *c;
 * PT_EUSAGE naming the part. */
int coll_myr_candidate_parse(const char *spec, struct coll_myr_candidate *c,
                             struct pt_err *err);
/* 1 when spec is of this form (its first key is row_format,
 * key_block_size or page_size, or it starts with a page size). */
int coll_myr_candidate_is(const char *spec);
/* The spec back without the instance ("row_format=DYNAMIC,page_size=32K") */
void coll_myr_candidate_format(const struct coll_myr_candidate *c, char *buf,
                               size_t len);

struct coll_myr_plan {
    struct coll_pgr_plan base; /* base.n_cand candidates, base.schema the
                                  scratch database; base.cand unused */
    struct coll_myr_candidate cand[COLL_PGR_MAX_CANDIDATES];
};
void coll_myr_plan_init(struct coll_myr_plan *p);

/* coll_pgr_extras for MariaDB: the columns' values (my_literal in
 * myreplay.c) as MariaDB types them, each a DEFAULT (IF(RAND() < null
 * share, NULL, value)); carried: numbers, decimals, dates and times,
 * uuid, character and binary strings and TEXT/BLOB up to 1 KB; not
 * carried: enums, sets, bits, spatial types, wider values, columns the
 * sample measured no width of. Into p->base.extra. */
size_t coll_myr_extras(struct coll_myr_plan *p, const struct coll_columns *cols,
                       const char *const *objects, size_t n_obj, char *why,
                       size_t why_len);
/* The bytes the carried columns add to a scratch row's record: each
 * value's with its length bytes, by its NULL share, and the NULL bitmap's
 * growth (the layout's 6 nullable columns take its first byte). */
uint32_t coll_myr_extra_row_bytes(const struct coll_myr_plan *p);

/* SHOW GLOBAL STATUS deltas over a candidate's measured passes: its
 * instance's, whatever else ran there meanwhile. */
struct coll_myr_counters {
    uint64_t read_requests; /* Innodb_buffer_pool_read_requests */
    uint64_t reads;         /* Innodb_buffer_pool_reads */
    uint64_t pages_read;    /* Innodb_pages_read */
    uint64_t pages_written; /* Innodb_pages_written */
};
struct coll_myr_result {
    struct coll_pgr_result base; /* requests/s, rounds, latency; blocks and
                                    toast_bytes unused, heap_bytes the
                                    table's data + index bytes */
    struct coll_myr_counters innodb[COLL_PGR_MAX_CANDIDATES];
    uint32_t page_size[COLL_PGR_MAX_CANDIDATES]; /* its instance's */
    uint64_t pool_bytes[COLL_PGR_MAX_CANDIDATES];
    uint64_t pool_pages[COLL_PGR_MAX_CANDIDATES];
    /* the instance's facts a prediction of the run needs
       (advise/mypredict.c): Innodb_buffer_pool_pages_total (the pool's
       real pages: fewer than size / page), innodb_old_blocks_time and
       _pct, innodb_lru_scan_depth (the free blocks the page cleaner
       keeps), innodb_purge_batch_size (undo pages a purge batch
       takes); 0 when not read */
    uint64_t pool_pages_total[COLL_PGR_MAX_CANDIDATES];
    uint32_t old_blocks_time_ms[COLL_PGR_MAX_CANDIDATES];
    uint32_t old_blocks_pct[COLL_PGR_MAX_CANDIDATES];
    uint32_t lru_scan_depth[COLL_PGR_MAX_CANDIDATES];
    uint32_t purge_batch[COLL_PGR_MAX_CANDIDATES]; /* innodb_purge_batch_size */
    double load_ms[COLL_PGR_MAX_CANDIDATES];       /* the load's duration */
    /* Innodb_history_list_length over the run's start as each measured
       pass ended, before purge_settle: the undo logs purge had yet to
       process (its lag behind the clients; advise/mypredict.c) */
    uint64_t purge_backlog[COLL_PGR_MAX_CANDIDATES][COLL_PGR_MAX_ROUNDS];
    /* how long that backlog took to purge (purge_settle's wait, ms): the
       emulation's clock through its purge */
    double purge_ms[COLL_PGR_MAX_CANDIDATES][COLL_PGR_MAX_ROUNDS];
    char server[COLL_PGR_MAX_CANDIDATES][128];
};
/* The DDL a run executes on each instance (--dry-run); the instances are
 * described without their passwords. */
int coll_myr_ddl(const struct coll_myr_plan *p, char *buf, size_t len,
                 struct pt_err *err);
/* Run it; c is the --connect instance's connection (MariaDB or MySQL).
 * Errors as coll_pgr_run's; PT_EUSAGE when an instance's innodb_page_size
 * is not its candidate's. */
int coll_myr_run(struct coll_conn *c, const struct coll_myr_plan *p,
                 struct coll_myr_result *res, struct pt_err *err);

#endif /* PT_COLLECT_H */
