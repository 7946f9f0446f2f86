/* SPDX-License-Identifier: Apache-2.0 */
/*
 * odbc.c — the ODBC connection layer of collect/: connect with a DSN or a
 * connection string plus a password from a 0600 file or the environment,
 * detect the engine, run statements, fetch small results as text, execute
 * SQL scripts. The one place where SQLSTATE + driver message become a
 * pt_err (see the table in collect.h), and where secrets are masked.
 *
 * Neighbours: sample.c and monitor.c run their queries through these
 * helpers; engine_*.c hold the per-engine SQL.
 */
#include "collect/internal.h"

#include <ctype.h>
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>

/* ---- engines ------------------------------------------------------------ */

const char *coll_engine_name(enum coll_engine e)
{
    switch (e) {
    case COLL_ENGINE_DB2:
        return "db2";
    case COLL_ENGINE_POSTGRESQL:
        return "postgresql";
    case COLL_ENGINE_MYSQL:
        return "mysql";
    case COLL_ENGINE_SQLITE:
        return "sqlite";
    case COLL_ENGINE_AUTO:
        break;
    }
    return "auto";
}

int coll_engine_parse(const char *s, enum coll_engine *out, struct pt_err *err)
{
    static const struct {
        const char *name;
        enum coll_engine e;
    } names[] = {
        {"auto", COLL_ENGINE_AUTO},
        {"db2", COLL_ENGINE_DB2},
        {"postgresql", COLL_ENGINE_POSTGRESQL},
        {"postgres", COLL_ENGINE_POSTGRESQL},
        {"mysql", COLL_ENGINE_MYSQL},
        {"mariadb", COLL_ENGINE_MYSQL},
        {"sqlite", COLL_ENGINE_SQLITE},
    };
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
        if (strcasecmp(s, names[i].name) == 0) {
            *out = names[i].e;
            return 0;
        }
    return err_set(err, PT_EUSAGE,
                   "`engine`: unknown engine '%s' (auto, db2, postgresql, "
                   "mysql, sqlite)",
                   s);
}

enum coll_engine coll_engine_from_dbms(const char *dbms)
{
    if (!dbms)
        return COLL_ENGINE_AUTO;
    if (strncasecmp(dbms, "DB2", 3) == 0 || strstr(dbms, "DB2"))
        return COLL_ENGINE_DB2;
    if (strncasecmp(dbms, "PostgreSQL", 10) == 0)
        return COLL_ENGINE_POSTGRESQL;
    if (strncasecmp(dbms, "MariaDB", 7) == 0 ||
        strncasecmp(dbms, "MySQL", 5) == 0)
        return COLL_ENGINE_MYSQL;
    if (strncasecmp(dbms, "SQLite", 6) == 0)
        return COLL_ENGINE_SQLITE;
    return COLL_ENGINE_AUTO;
}

const struct coll_engine_ops *coll_engine_ops_get(enum coll_engine e)
{
    switch (e) {
    case COLL_ENGINE_DB2:
        return &coll_db2_ops;
    case COLL_ENGINE_POSTGRESQL:
        return &coll_pg_ops;
    case COLL_ENGINE_MYSQL:
        return &coll_mysql_ops;
    case COLL_ENGINE_SQLITE:
        return &coll_sqlite_ops;
    case COLL_ENGINE_AUTO:
        break;
    }
    return NULL;
}

/* ---- secrets ------------------------------------------------------------ */

/* Case-insensitive strstr. */
static char *find_ci(char *hay, const char *needle)
{
    size_t n = strlen(needle);
    for (char *p = hay; *p; p++)
        if (strncasecmp(p, needle, n) == 0)
            return p;
    return NULL;
}

/*
 * If s[i] starts "pwd=" or "password=" (any case, blanks allowed before and
 * after '='; also at the end of a longer word: masking too much is
 * harmless), the length up to and including '=' and the blanks after it;
 * else 0.
 */
static size_t password_key_at(const char *s, size_t i)
{
    static const char *const keys[] = {"password", "pwd"};
    size_t j;

    for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++) {
        size_t n = strlen(keys[k]);
        if (strncasecmp(s + i, keys[k], n) != 0)
            continue;
        j = i + n;
        while (s[j] == ' ' || s[j] == '\t')
            j++;
        if (s[j] != '=')
            continue;
        j++;
        while (s[j] == ' ' || s[j] == '\t')
            j++;
        return j - i;
    }
    return 0;
}

/*
 * Length of a value at v to mask: "{...}" with "}}" escapes, or up to ';'.
 * Text after a closing brace up to the next ';' is masked too: in a
 * malformed string ("PWD={a;b}c}") it may be the rest of the password.
 */
static size_t value_len(const char *v)
{
    size_t j = 0;

    if (v[0] == '{') {
        for (j = 1; v[j]; j++) {
            if (v[j] == '}' && v[j + 1] == '}')
                j++;
            else if (v[j] == '}') {
                j++;
                break;
            }
        }
    }
    while (v[j] && v[j] != ';')
        j++;
    return j;
}

/*
 * Replace the password and every "pwd=value" / "password=value" in s with
 * "***", in one pass into a copy (so a short password can neither make the
 * text grow past `len` nor be found again inside "***"), truncating to len.
 */
void coll_mask(const struct coll_conn *c, char *s, size_t len)
{
    const char *secret = c && c->secret[0] ? c->secret : NULL;
    size_t n = secret ? strlen(secret) : 0, i = 0, o = 0, k;
    char *out;

    if (!s || !len)
        return;
    out = pt_malloc(len);
    if (!out) { /* cannot mask safely: show nothing */
        snprintf(s, len, "%s", "***");
        return;
    }
#define EMIT(ch)                                                               \
    do {                                                                       \
        if (o + 1 < len)                                                       \
            out[o++] = (ch);                                                   \
    } while (0)
    while (s[i]) {
        if ((k = password_key_at(s, i)) > 0) {
            for (size_t t = 0; t < k; t++)
                EMIT(s[i + t]);
            i += k;
            i += value_len(s + i);
            EMIT('*');
            EMIT('*');
            EMIT('*');
        } else if (secret && strncmp(s + i, secret, n) == 0) {
            i += n;
            EMIT('*');
            EMIT('*');
            EMIT('*');
        } else {
            EMIT(s[i]);
            i++;
        }
    }
#undef EMIT
    out[o] = '\0';
    memcpy(s, out, o + 1);
    free(out);
}

/*
 * One "key=value" pair of a connection string from *p (braces protect a
 * ';'), with the blanks around the key and after '=' trimmed: drivers
 * such as MariaDB's trim them, psqlODBC does not, so "Pwd = x" is passed
 * on as "Pwd=x" (pagetune-sample(1), --connect). Returns 0 at the end;
 * val is NULL for a part without '='.
 */
struct conn_pair {
    const char *key, *val;
    size_t klen, vlen;
};

static int conn_pair_next(const char **pp, struct conn_pair *kv)
{
    const char *p = *pp, *start, *eq;
    int brace = 0;

    while (*p == ';')
        p++;
    if (!*p)
        return 0;
    start = p;
    while (*p && (brace || *p != ';')) {
        if (*p == '{')
            brace = 1;
        else if (*p == '}')
            brace = 0;
        p++;
    }
    *pp = p;
    eq = memchr(start, '=', (size_t)(p - start));
    kv->key = start;
    kv->klen = (size_t)((eq ? eq : p) - start);
    while (kv->klen && isspace((unsigned char)kv->key[0])) {
        kv->key++;
        kv->klen--;
    }
    while (kv->klen && isspace((unsigned char)kv->key[kv->klen - 1]))
        kv->klen--;
    kv->val = NULL;
    kv->vlen = 0;
    if (eq) {
        kv->val = eq + 1;
        while (kv->val < p && (*kv->val == ' ' || *kv->val == '\t'))
            kv->val++;
        kv->vlen = (size_t)(p - kv->val);
    }
    return 1;
}

static int is_password_key(const struct conn_pair *kv)
{
    return (kv->klen == 3 && strncasecmp(kv->key, "PWD", 3) == 0) ||
           (kv->klen == 8 && strncasecmp(kv->key, "PASSWORD", 8) == 0);
}

/* Append "key=value;" to out (len bytes); -1 when it does not fit. */
static int conn_pair_put(const struct conn_pair *kv, char *out, size_t len,
                         size_t *o)
{
    int n = snprintf(out + *o, len - *o, "%.*s=%.*s;", (int)kv->klen, kv->key,
                     (int)kv->vlen, kv->val);

    if (n < 0 || (size_t)n >= len - *o) {
        out[*o] = '\0';
        return -1;
    }
    *o += (size_t)n;
    return 0;
}

/* The connection string without PWD / PASSWORD keys. */
void coll_describe_connect(const char *in, char *out, size_t len)
{
    struct conn_pair kv;
    size_t o = 0;

    out[0] = '\0';
    while (conn_pair_next(&in, &kv))
        if (kv.val && !is_password_key(&kv))
            conn_pair_put(&kv, out, len, &o);
}

/* The connection string as passed to the driver: every pair trimmed. */
static int connstr_tidy(const char *in, char *out, size_t len)
{
    struct conn_pair kv;
    size_t o = 0;

    out[0] = '\0';
    while (conn_pair_next(&in, &kv)) {
        if (!kv.val) { /* not a pair: the driver names it */
            int n = snprintf(out + o, len - o, "%.*s;", (int)kv.klen, kv.key);
            if (n < 0 || (size_t)n >= len - o)
                return -1;
            o += (size_t)n;
        } else if (conn_pair_put(&kv, out, len, &o) < 0) {
            return -1;
        }
    }
    return 0;
}

/* Read the password: first line of a 0600 regular file. */
static int read_password_file(const char *path, char *buf, size_t len,
                              struct pt_err *err)
{
    struct stat st;
    FILE *fp;
    size_t n;

    if (stat(path, &st) != 0)
        return err_set(err, PT_ENOINPUT, "cannot read password file '%s': %s",
                       path, strerror(errno));
    if (!S_ISREG(st.st_mode))
        return err_set(err, PT_EPERM,
                       "password file '%s' is not a regular file", path);
    if ((st.st_mode & 0777) != 0600)
        return err_set(err, PT_EPERM,
                       "password file '%s' has mode %04o; refusing it unless "
                       "it is 0600",
                       path, (unsigned)(st.st_mode & 0777));
    fp = fopen(path, "r");
    if (!fp)
        return err_set(err, errno == EACCES ? PT_EPERM : PT_ENOINPUT,
                       "cannot read password file '%s': %s", path,
                       strerror(errno));
    if (!fgets(buf, (int)len, fp))
        buf[0] = '\0';
    fclose(fp);
    n = strlen(buf);
    while (n && (buf[n - 1] == '\n' || buf[n - 1] == '\r'))
        buf[--n] = '\0';
    if (n == 0)
        return err_set(err, PT_EDATA, "password file '%s' is empty", path);
    if (n + 1 >= len)
        return err_set(err, PT_EDATA, "password in '%s' is too long", path);
    return 0;
}

/* Append "key=value;" or "key={value};" with '}' doubled. */
static int append_kv(char *buf, size_t len, const char *key, const char *v,
                     int braced)
{
    size_t o = strlen(buf);
    int n;

    if (o && buf[o - 1] != ';') {
        if (o + 1 >= len)
            return -1;
        buf[o++] = ';';
        buf[o] = '\0';
    }
    n = snprintf(buf + o, len - o, "%s=%s", key, braced ? "{" : "");
    if (n < 0 || (size_t)n >= len - o)
        return -1;
    o += (size_t)n;
    for (const char *p = v; *p; p++) {
        if (o + 3 >= len)
            return -1;
        if (braced && *p == '}')
            buf[o++] = '}';
        buf[o++] = *p;
    }
    if (o + 3 >= len)
        return -1;
    if (braced)
        buf[o++] = '}';
    buf[o++] = ';';
    buf[o] = '\0';
    return 0;
}

static int has_key(const char *connstr, const char *key)
{
    char tmp[4096], *p;
    size_t n = strlen(key);

    snprintf(tmp, sizeof(tmp), ";%s", connstr);
    for (p = tmp; (p = find_ci(p, key)) != NULL; p += n) {
        char *q = p;
        while (q > tmp && isspace((unsigned char)q[-1]))
            q--;
        if (q > tmp && q[-1] == ';') {
            q = p + n;
            while (isspace((unsigned char)*q))
                q++;
            if (*q == '=')
                return 1;
        }
    }
    return 0;
}

int coll_connstr_has_password(const char *connstr)
{
    return connstr && (has_key(connstr, "PWD") || has_key(connstr, "PASSWORD"));
}

/* ---- the inactivity watchdog -------------------------------------------- */

/*
 * Why a thread: a stopped server (SIGSTOP) still acknowledges TCP, so
 * keepalives never fire, and the server-side limits the drivers map
 * SQL_ATTR_QUERY_TIMEOUT to (psqlODBC: statement_timeout; MariaDB
 * Connector/ODBC: max_statement_time) run inside the frozen server. The
 * login is bounded by SQL_ATTR_LOGIN_TIMEOUT (libpq's connect_timeout,
 * MariaDB's MYSQL_OPT_CONNECT_TIMEOUT) and by this thread, every other wait
 * by this thread alone. Once a call has made no progress (a completed call,
 * a fetched block) for timeout_s (T = the last progress + timeout_s),
 * coll_watch_next() decides what to do and when, all within
 * COLL_WATCH_GRACE_S seconds after T, so that the run gives up
 * timeout_s + COLL_WATCH_GRACE_S seconds after the last progress at most:
 *   0. a server (not SQLite) is asked whether it is alive: a second
 *      connection runs "SELECT 1", until T + COLL_WATCH_PROBE_MS. If it
 *      answers, the server is busy, not stopped (a grouped sample scans the
 *      whole table before its first row): that counts as progress and the
 *      wait goes on;
 *   1. SQLCancel on the waiting statement, from a helper thread (ODBC 3
 *      allows SQLCancel from another thread while a function runs on the
 *      statement; psqlODBC sends a PostgreSQL cancel request, MariaDB
 *      Connector/ODBC a KILL QUERY on a second connection, the SQLite3
 *      driver interrupts the statement: they end a slow statement, but
 *      none gets through to a stopped server, and each may itself wait);
 *   2. at T + COLL_WATCH_SHUT_MS: shutdown() of every socket opened since
 *      the connection began (the driver's link, the probe's and the cancel
 *      request's), so the blocked recv() returns and the driver reports the
 *      link lost: the caller's normal error path removes temporary files;
 *   3. at T + COLL_WATCH_GRACE_S: the caller's on_stall, the last resort.
 * The message states the time really waited (coll_watch_message).
 */
#define WATCH_MAX_FD 1024

/* A helper thread. Helpers are joined, not detached: a helper clears its
   flag (cancelling, probing) just before it returns, and a detached one may
   still be ending (its thread-local state, e.g. OpenSSL's from libpq's
   SCRAM login, not yet freed) when the process exits: LeakSanitizer then
   reports that state as leaked (seen in CI under load, issue 30). */
struct watch_helper {
    pthread_t t;
    int joinable;
};

struct coll_watch {
    pthread_mutex_t mu;
    pthread_cond_t cv; /* CLOCK_MONOTONIC */
    pthread_t thread;  /* watch_main */
    long timeout_s;    /* inactivity allowed */
    void (*on_stall)(const char *msg);
    char *probe_connstr;         /* connection string for the probe, or NULL
                                    (owned, holds the password: zeroed on free) */
    const char *probe_sql;       /* "SELECT 1" / "VALUES 1" */
    int stop;                    /* the connection is closing */
    int busy;                    /* a call waits on the server */
    enum coll_watch_stage stage; /* see above */
    int fired;                   /* the timeout expired in the current call */
    int cancelling;              /* the SQLCancel helper runs */
    int probing;                 /* the probe helper runs */
    int probe_alive;             /* its answer: the server answered */
    struct watch_helper cancel_h, probe_h; /* joined, never detached */
    SQLHSTMT st;          /* statement to cancel, or SQL_NULL_HSTMT */
    struct timespec last; /* last progress */
    char step[192];       /* what the waiting call does */
    unsigned char baseline[WATCH_MAX_FD / 8]; /* sockets before connecting */
};

static int fd_is_socket(int fd)
{
    struct stat st;
    return fstat(fd, &st) == 0 && S_ISSOCK(st.st_mode);
}

static void watch_baseline(struct coll_watch *w)
{
    for (int fd = 0; fd < WATCH_MAX_FD; fd++)
        if (fd_is_socket(fd))
            w->baseline[fd / 8] |= (unsigned char)(1u << (fd % 8));
}

/* Stage 2: shut down the sockets opened since the connection began (not
   close: the driver still owns the descriptors and closes them itself). */
static void watch_shutdown_sockets(const struct coll_watch *w)
{
    for (int fd = 0; fd < WATCH_MAX_FD; fd++)
        if (!(w->baseline[fd / 8] & (1u << (fd % 8))) && fd_is_socket(fd))
            shutdown(fd, SHUT_RDWR);
}

static void watch_now(struct timespec *t)
{
    clock_gettime(CLOCK_MONOTONIC, t);
}

/* a + s seconds */
static struct timespec ts_add(struct timespec a, long s)
{
    a.tv_sec += (time_t)s;
    return a;
}

static int64_t ts_ms(const struct timespec *t)
{
    return (int64_t)t->tv_sec * 1000 + t->tv_nsec / 1000000;
}

static struct timespec ms_ts(int64_t ms)
{
    struct timespec t;

    t.tv_sec = (time_t)(ms / 1000);
    t.tv_nsec = (long)(ms % 1000) * 1000000L;
    return t;
}

static void *watch_cancel(void *arg)
{
    struct coll_watch *w = arg;
    SQLHSTMT st;

    pthread_mutex_lock(&w->mu);
    st = w->st;
    pthread_mutex_unlock(&w->mu);
    SQLCancel(st);
    pthread_mutex_lock(&w->mu);
    w->cancelling = 0;
    pthread_cond_broadcast(&w->cv);
    pthread_mutex_unlock(&w->mu);
    return NULL;
}

/* Stage 0: does the server answer a second connection? (its own handles,
   so nothing is shared with the waiting call) */
static void *watch_probe(void *arg)
{
    struct coll_watch *w = arg;
    SQLHENV env = SQL_NULL_HENV;
    SQLHDBC dbc = SQL_NULL_HDBC;
    SQLHSTMT st = SQL_NULL_HSTMT;
    int alive = 0;
    long login_s = (COLL_WATCH_PROBE_MS + 999) / 1000;

    if (SQL_SUCCEEDED(SQLAllocHandle(SQL_HANDLE_ENV, SQL_NULL_HANDLE, &env))) {
        SQLSetEnvAttr(env, SQL_ATTR_ODBC_VERSION, (SQLPOINTER)SQL_OV_ODBC3, 0);
        if (SQL_SUCCEEDED(SQLAllocHandle(SQL_HANDLE_DBC, env, &dbc))) {
            SQLSetConnectAttr(dbc, SQL_ATTR_LOGIN_TIMEOUT,
                              (SQLPOINTER)(intptr_t)login_s, 0);
            if (SQL_SUCCEEDED(SQLDriverConnect(
                    dbc, NULL, (SQLCHAR *)w->probe_connstr, SQL_NTS, NULL, 0,
                    NULL, SQL_DRIVER_NOPROMPT))) {
                if (SQL_SUCCEEDED(SQLAllocHandle(SQL_HANDLE_STMT, dbc, &st))) {
                    alive = SQL_SUCCEEDED(SQLExecDirect(
                                st, (SQLCHAR *)w->probe_sql, SQL_NTS)) &&
                            SQL_SUCCEEDED(SQLFetch(st));
                    SQLFreeHandle(SQL_HANDLE_STMT, st);
                }
                SQLDisconnect(dbc);
            }
            SQLFreeHandle(SQL_HANDLE_DBC, dbc);
        }
        SQLFreeHandle(SQL_HANDLE_ENV, env);
    }
    pthread_mutex_lock(&w->mu);
    w->probing = 0;
    w->probe_alive = alive;
    pthread_cond_broadcast(&w->cv);
    pthread_mutex_unlock(&w->mu);
    return NULL;
}

/* Wait for a helper that has cleared its flag (it no longer takes w->mu,
   so this may run under it). */
static void watch_join(struct watch_helper *h)
{
    if (h->joinable)
        pthread_join(h->t, NULL);
    h->joinable = 0;
}

/* Start a helper thread in h, joining the one before it (its flag is clear,
   so it has returned or is returning); 0 if it could not be started. */
static int watch_spawn(struct watch_helper *h, void *(*fn)(void *),
                       struct coll_watch *w)
{
    watch_join(h);
    if (pthread_create(&h->t, NULL, fn, w) != 0)
        return 0;
    h->joinable = 1;
    return 1;
}

/* Stage 1: the call stalled. */
static void watch_fire(struct coll_watch *w)
{
    w->fired = 1;
    w->stage = COLL_WATCH_CANCELLED;
    /* one cancel at a time: one still out (stuck on a stopped server) is
       not joined here, under w->mu, which it takes when it ends */
    if (w->st != SQL_NULL_HSTMT && !w->cancelling) {
        w->cancelling = 1;
        if (!watch_spawn(&w->cancel_h, watch_cancel, w))
            w->cancelling = 0;
    }
}

/* The stall message as of now: the time really waited. */
static void watch_message(const struct coll_watch *w, char *buf, size_t len)
{
    struct timespec now;

    watch_now(&now);
    coll_watch_message(buf, len, (double)(ts_ms(&now) - ts_ms(&w->last)) / 1e3,
                       w->timeout_s, w->step);
}

/* Carry out `act`, under w->mu (on_stall runs without it). */
static void watch_act(struct coll_watch *w, enum coll_watch_act act,
                      const struct timespec *now)
{
    char msg[512];

    switch (act) {
    case COLL_WATCH_RESUME:
        w->last = *now;
        w->stage = COLL_WATCH_IDLE;
        break;
    case COLL_WATCH_PROBE:
        w->stage = COLL_WATCH_PROBING;
        if (!w->probing) { /* one still out from an earlier round: wait */
            w->probing = 1;
            w->probe_alive = 0;
            if (!watch_spawn(&w->probe_h, watch_probe, w)) {
                w->probing = 0;
                watch_fire(w);
            }
        }
        break;
    case COLL_WATCH_FIRE:
        watch_fire(w);
        break;
    case COLL_WATCH_SHUTDOWN:
        w->stage = COLL_WATCH_SHUT;
        watch_shutdown_sockets(w);
        break;
    case COLL_WATCH_STALL:
        w->stage = COLL_WATCH_DONE;
        if (w->on_stall) {
            watch_message(w, msg, sizeof(msg));
            pthread_mutex_unlock(&w->mu);
            w->on_stall(msg); /* does not return */
            pthread_mutex_lock(&w->mu);
        }
        break;
    case COLL_WATCH_WAIT:
        break;
    }
}

static void *watch_main(void *arg)
{
    struct coll_watch *w = arg;

    pthread_mutex_lock(&w->mu);
    while (!w->stop) {
        struct timespec now, due;
        struct coll_watch_clock k;
        enum coll_watch_act act;
        int64_t due_ms;
        if (!w->busy || w->stage == COLL_WATCH_DONE) {
            pthread_cond_wait(&w->cv, &w->mu);
            continue;
        }
        watch_now(&now);
        k.last_ms = ts_ms(&w->last);
        k.timeout_s = w->timeout_s;
        k.stage = w->stage;
        k.can_probe = w->probe_connstr != NULL;
        k.probing = w->probing;
        k.probe_alive = w->probe_alive;
        act = coll_watch_next(&k, ts_ms(&now), &due_ms);
        if (act == COLL_WATCH_WAIT) {
            due = ms_ts(due_ms);
            pthread_cond_timedwait(&w->cv, &w->mu, &due);
            continue;
        }
        watch_act(w, act, &now);
    }
    pthread_mutex_unlock(&w->mu);
    return NULL;
}

/* ---- the watchdog's schedule (pure: unit-tested with a clock of its own) */

enum coll_watch_act coll_watch_next(const struct coll_watch_clock *k,
                                    int64_t now_ms, int64_t *due_ms)
{
    int64_t t = k->last_ms + (int64_t)k->timeout_s * 1000, due;
    enum coll_watch_act act;

    switch (k->stage) {
    case COLL_WATCH_IDLE:
        due = t;
        act = k->can_probe || k->probing ? COLL_WATCH_PROBE : COLL_WATCH_FIRE;
        break;
    case COLL_WATCH_PROBING:
        if (!k->probing) /* the probe answered */
            return k->probe_alive ? COLL_WATCH_RESUME : COLL_WATCH_FIRE;
        due = t + COLL_WATCH_PROBE_MS;
        act = COLL_WATCH_FIRE;
        break;
    case COLL_WATCH_CANCELLED:
        due = t + COLL_WATCH_SHUT_MS;
        act = COLL_WATCH_SHUTDOWN;
        break;
    case COLL_WATCH_SHUT:
        due = t + COLL_WATCH_GRACE_S * 1000;
        act = COLL_WATCH_STALL;
        break;
    default:
        *due_ms = INT64_MAX;
        return COLL_WATCH_WAIT;
    }
    if (now_ms >= due)
        return act;
    *due_ms = due;
    return COLL_WATCH_WAIT;
}

void coll_watch_message(char *buf, size_t len, double waited_s, long timeout_s,
                        const char *step)
{
    snprintf(buf, len,
             "no answer from the server for %.1f s while %s (`timeout` %ld "
             "s, then up to %d s to confirm and give up)",
             waited_s, step, timeout_s, COLL_WATCH_GRACE_S);
}

static int watch_start(struct coll_conn *c, long timeout_s,
                       void (*on_stall)(const char *), struct pt_err *err)
{
    struct coll_watch *w = calloc(1, sizeof(*w));
    pthread_condattr_t ca;

    if (!w)
        return err_set(err, PT_EINTERNAL, "out of memory");
    w->timeout_s = timeout_s;
    w->on_stall = on_stall;
    w->st = SQL_NULL_HSTMT;
    watch_baseline(w);
    pthread_mutex_init(&w->mu, NULL);
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_init(&w->cv, &ca);
    pthread_condattr_destroy(&ca);
    if (pthread_create(&w->thread, NULL, watch_main, w) != 0) {
        pthread_cond_destroy(&w->cv);
        pthread_mutex_destroy(&w->mu);
        free(w);
        return err_set(err, PT_EINTERNAL, "cannot start the watchdog thread");
    }
    c->wd = w;
    return 0;
}

/* Let stage 0 ask the server with this connection string (copied). */
static void watch_set_probe(struct coll_conn *c, const char *connstr,
                            enum coll_engine e)
{
    struct coll_watch *w = c->wd;
    char *copy;

    if (!w || e == COLL_ENGINE_SQLITE) /* no server to ask */
        return;
    copy = strdup(connstr);
    if (!copy)
        return; /* no probe: the watchdog still works, only less patient */
    pthread_mutex_lock(&w->mu);
    w->probe_connstr = copy;
    w->probe_sql = e == COLL_ENGINE_DB2 ? "VALUES 1" : "SELECT 1";
    pthread_mutex_unlock(&w->mu);
}

static void watch_stop(struct coll_conn *c)
{
    struct coll_watch *w = c ? c->wd : NULL;
    long waited = 0;

    if (!w)
        return;
    pthread_mutex_lock(&w->mu);
    /* the helpers use *w: wait for them; a probe stuck on a stopped server
       is freed by shutting the sockets down */
    while (w->cancelling || w->probing) {
        struct timespec due;
        watch_now(&due);
        due = ts_add(due, 1);
        pthread_cond_timedwait(&w->cv, &w->mu, &due);
        if (++waited == COLL_WATCH_GRACE_S + 1)
            watch_shutdown_sockets(w);
    }
    w->stop = 1;
    pthread_cond_broadcast(&w->cv);
    pthread_mutex_unlock(&w->mu);
    pthread_join(w->thread, NULL);
    watch_join(&w->cancel_h);
    watch_join(&w->probe_h);
    pthread_cond_destroy(&w->cv);
    pthread_mutex_destroy(&w->mu);
    if (w->probe_connstr) {
        memset(w->probe_connstr, 0, strlen(w->probe_connstr));
        free(w->probe_connstr);
    }
    free(w);
    c->wd = NULL;
}

void coll_watch_begin(struct coll_conn *c, SQLHSTMT st, const char *fmt, ...)
{
    struct coll_watch *w = c ? c->wd : NULL;
    va_list ap;

    if (!w)
        return;
    pthread_mutex_lock(&w->mu);
    va_start(ap, fmt);
    vsnprintf(w->step, sizeof(w->step), fmt, ap);
    va_end(ap);
    w->st = st;
    w->busy = 1;
    w->stage = COLL_WATCH_IDLE;
    w->fired = 0;
    watch_now(&w->last);
    pthread_cond_broadcast(&w->cv);
    pthread_mutex_unlock(&w->mu);
}

void coll_watch_tick(struct coll_conn *c)
{
    struct coll_watch *w = c ? c->wd : NULL;

    if (!w)
        return;
    pthread_mutex_lock(&w->mu);
    if (w->stage <= COLL_WATCH_PROBING) {
        watch_now(&w->last);
        w->stage = COLL_WATCH_IDLE;
    }
    pthread_mutex_unlock(&w->mu);
}

void coll_watch_end(struct coll_conn *c)
{
    struct coll_watch *w = c ? c->wd : NULL;

    if (!w)
        return;
    pthread_mutex_lock(&w->mu);
    /* the helper may still use the statement: the caller frees it next */
    while (w->cancelling)
        pthread_cond_wait(&w->cv, &w->mu);
    w->busy = 0;
    w->st = SQL_NULL_HSTMT;
    pthread_mutex_unlock(&w->mu);
}

/* The stall message into buf when the current call was timed out. */
static int watch_fired(const struct coll_conn *c, char *buf, size_t len)
{
    struct coll_watch *w = c ? c->wd : NULL;
    int fired;

    if (!w)
        return 0;
    pthread_mutex_lock(&w->mu);
    fired = w->fired;
    if (fired)
        watch_message(w, buf, len);
    pthread_mutex_unlock(&w->mu);
    return fired;
}

/* ---- diagnostics -------------------------------------------------------- */

static int contains_ci(const char *hay, const char *needle)
{
    size_t n = strlen(needle);
    for (const char *p = hay; *p; p++)
        if (strncasecmp(p, needle, n) == 0)
            return 1;
    return 0;
}

/*
 * The status for one diagnostic record. SQLSTATEs first (ODBC 3 and the
 * engines' own: PostgreSQL 42P01/28P01, DB2 SQL0204N is 42704), then the
 * MySQL/MariaDB native error numbers, then the message text for drivers
 * that put a generic state on a precise message (psqlODBC reports a failed
 * password as 08001, the SQLite driver every error as HY000).
 */
static int classify(const char *state, SQLINTEGER native, const char *msg,
                    int connecting)
{
    if (strncmp(state, "28", 2) == 0 || strcmp(state, "42501") == 0)
        return PT_EPERM;
    if (strcmp(state, "42S02") == 0 || strcmp(state, "42P01") == 0 ||
        strcmp(state, "42704") == 0)
        return PT_ENOINPUT;
    if (strcmp(state, "42S22") == 0 || strcmp(state, "42703") == 0)
        return PT_EDATA;
    switch (native) { /* MariaDB / MySQL server and client errors */
    case 1044:        /* ER_DBACCESS_DENIED_ERROR */
    case 1045:        /* ER_ACCESS_DENIED_ERROR */
    case 1142:        /* ER_TABLEACCESS_DENIED_ERROR */
    case 1227:        /* ER_SPECIFIC_ACCESS_DENIED_ERROR (PROCESS) */
        return PT_EPERM;
    case 1146: /* ER_NO_SUCH_TABLE */
        return PT_ENOINPUT;
    case 1054: /* ER_BAD_FIELD_ERROR */
        return PT_EDATA;
    case 2002: /* CR_CONNECTION_ERROR */
    case 2003: /* CR_CONN_HOST_ERROR */
    case 2006: /* CR_SERVER_GONE_ERROR */
    case 2013: /* CR_SERVER_LOST */
        return PT_EUNAVAIL;
    default:
        break;
    }
    if (contains_ci(msg, "password authentication failed") ||
        contains_ci(msg, "authentication failed") ||
        contains_ci(msg, "access denied") ||
        contains_ci(msg, "permission denied"))
        return PT_EPERM;
    if (contains_ci(msg, "no such table"))
        return PT_ENOINPUT;
    if (contains_ci(msg, "no such column"))
        return PT_EDATA;
    if (strncmp(state, "08", 2) == 0 || strcmp(state, "IM002") == 0 ||
        strcmp(state, "IM003") == 0 || strncmp(state, "HYT", 3) == 0 ||
        strcmp(state, "57P01") == 0 || strcmp(state, "57P03") == 0 ||
        connecting)
        return PT_EUNAVAIL;
    if (contains_ci(msg, "server closed the connection") ||
        contains_ci(msg, "could not receive data") ||
        contains_ci(msg, "could not send data") ||
        contains_ci(msg, "terminating connection") ||
        contains_ci(msg, "connection") /* lost, broken, refused */)
        return PT_EUNAVAIL;
    if (strncmp(state, "42", 2) == 0 || strncmp(state, "22", 2) == 0)
        return PT_EDATA;
    return PT_EUNAVAIL;
}

/* Make a driver message one line: newlines and tabs become spaces. */
static void one_line(char *s)
{
    size_t n;
    for (char *p = s; *p; p++)
        if (*p == '\n' || *p == '\r' || *p == '\t')
            *p = ' ';
    n = strlen(s);
    while (n && s[n - 1] == ' ')
        s[--n] = '\0';
}

/* One file the driver manager reads, with "(absent)" when it is not there. */
static void ini_file(char *buf, size_t len, const char *dir, const char *env,
                     const char *file)
{
    size_t used = strlen(buf);
    char path[512];

    if (env && getenv(env) && getenv(env)[0])
        snprintf(path, sizeof(path), "%s", getenv(env));
    else
        snprintf(path, sizeof(path), "%s/%s", dir ? dir : "/etc", file);
    snprintf(buf + used, len - used, "%s%s%s", used ? ", " : "", path,
             access(path, R_OK) == 0 ? "" : " (absent)");
}

/*
 * IM002 (name not found) while connecting: which files unixODBC read for
 * the name — odbc.ini for a DSN (user: $ODBCINI, else ~/.odbc.ini; system:
 * $ODBCSYSINI/odbc.ini, else /etc/odbc.ini), odbcinst.ini for a Driver=.
 */
static void im002_files(const struct coll_conn *c, char *buf, size_t len)
{
    const char *home = getenv("HOME"), *sys = getenv("ODBCSYSINI");
    char user[512], files[1200] = "";

    if (c && strncasecmp(c->describe, "DSN=", 4) == 0) {
        /* the name alone: the shown string goes on to ';' and the rest */
        int n = (int)strcspn(c->describe + 4, ";");
        snprintf(user, sizeof(user), "%s", home ? home : "~");
        ini_file(files, sizeof(files), user, "ODBCINI", ".odbc.ini");
        ini_file(files, sizeof(files), sys, NULL, "odbc.ini");
        snprintf(buf, len,
                 "; no data source '%.*s' in %s (odbcinst -q -s "
                 "lists them, odbcinst -j shows the files)",
                 n, c->describe + 4, files);
    } else {
        ini_file(files, sizeof(files), sys, NULL, "odbcinst.ini");
        snprintf(buf, len,
                 "; the driver is not in %s (odbcinst -q -d lists "
                 "them, odbcinst -j shows the files)",
                 files);
    }
}

int coll_diag(const struct coll_conn *c, SQLSMALLINT htype, SQLHANDLE h,
              SQLRETURN rc, const char *what, struct pt_err *err)
{
    SQLCHAR state[6] = "", msg[768] = "";
    SQLINTEGER native = 0;
    SQLSMALLINT mlen = 0;
    int code = PT_EUNAVAIL, connecting = htype == SQL_HANDLE_DBC;
    char line[4096], hint[1500] = "";

    if (rc == SQL_INVALID_HANDLE)
        return err_set(err, PT_EINTERNAL, "%s: invalid ODBC handle", what);
    /* the watchdog ended this call: its message says which step stalled */
    if (watch_fired(c, line, sizeof(line)))
        return err_set(err, PT_EUNAVAIL, "%s", line);
    if (SQLGetDiagRec(htype, h, 1, state, &native, msg, sizeof(msg), &mlen) !=
            SQL_SUCCESS &&
        !msg[0]) {
        return err_set(err, connecting ? PT_EUNAVAIL : PT_EINTERNAL,
                       "%s failed (ODBC returned %d without a diagnostic)",
                       what, (int)rc);
    }
    msg[sizeof(msg) - 1] = '\0';
    code = classify((const char *)state, native, (const char *)msg, connecting);
    /* a later record can be more precise (e.g. 28000 after 08001) */
    for (SQLSMALLINT i = 2; i <= 4; i++) {
        SQLCHAR st2[6], m2[512];
        SQLINTEGER n2;
        SQLSMALLINT l2;
        int c2;
        if (SQLGetDiagRec(htype, h, i, st2, &n2, m2, sizeof(m2), &l2) !=
            SQL_SUCCESS)
            break;
        c2 = classify((const char *)st2, n2, (const char *)m2, connecting);
        if (c2 == PT_EPERM || c2 == PT_ENOINPUT)
            code = c2;
    }
    if (connecting && strcmp((const char *)state, "IM002") == 0)
        im002_files(c, hint, sizeof(hint));
    one_line((char *)msg);
    snprintf(line, sizeof(line), "%s: [%s] %s%s", what, (const char *)state,
             (const char *)msg, hint);
    one_line(line);
    coll_mask(c, line, sizeof(line));
    return err_set(err, code, "%s", line);
}

int coll_stmt_new(struct coll_conn *c, SQLHSTMT *st, struct pt_err *err)
{
    SQLRETURN rc = SQLAllocHandle(SQL_HANDLE_STMT, c->dbc, st);
    if (!SQL_SUCCEEDED(rc))
        return coll_diag(c, SQL_HANDLE_DBC, c->dbc, rc, "allocate statement",
                         err);
    return 0;
}

/* ---- connect ------------------------------------------------------------ */

static void conn_free(struct coll_conn *c)
{
    if (!c)
        return;
    if (c->connected) {
        coll_watch_begin(c, SQL_NULL_HSTMT, "disconnecting");
        SQLDisconnect(c->dbc);
        coll_watch_end(c);
    }
    watch_stop(c);
    if (c->dbc)
        SQLFreeHandle(SQL_HANDLE_DBC, c->dbc);
    if (c->env)
        SQLFreeHandle(SQL_HANDLE_ENV, c->env);
    memset(c->secret, 0, sizeof(c->secret));
    free(c);
}

void coll_conn_close(struct coll_conn *c)
{
    conn_free(c);
}

static int driver_connect(struct coll_conn *c, const char *connstr,
                          long timeout_s, long idle_s, struct pt_err *err)
{
    SQLRETURN rc;
    SQLCHAR out[2048];
    SQLSMALLINT outlen = 0;

    if (c->dbc) {
        if (c->connected)
            SQLDisconnect(c->dbc);
        c->connected = 0;
        SQLFreeHandle(SQL_HANDLE_DBC, c->dbc);
        c->dbc = NULL;
    }
    rc = SQLAllocHandle(SQL_HANDLE_DBC, c->env, &c->dbc);
    if (!SQL_SUCCEEDED(rc))
        return coll_diag(c, SQL_HANDLE_ENV, c->env, rc,
                         "allocate ODBC connection", err);
    if (timeout_s > 0)
        SQLSetConnectAttr(c->dbc, SQL_ATTR_LOGIN_TIMEOUT,
                          (SQLPOINTER)(intptr_t)timeout_s, 0);
    /* ODBC's own limit for requests other than login and queries, where a
       driver honours it; the watchdog covers the drivers that do not */
    SQLSetConnectAttr(c->dbc, SQL_ATTR_CONNECTION_TIMEOUT,
                      (SQLPOINTER)(intptr_t)idle_s, 0);
    coll_watch_begin(c, SQL_NULL_HSTMT, "connecting");
    rc = SQLDriverConnect(c->dbc, NULL, (SQLCHAR *)connstr, SQL_NTS, out,
                          sizeof(out), &outlen, SQL_DRIVER_NOPROMPT);
    memset(out, 0, sizeof(out)); /* may echo the password */
    if (!SQL_SUCCEEDED(rc)) {
        int ret = coll_diag(c, SQL_HANDLE_DBC, c->dbc, rc, "connect", err);
        coll_watch_end(c);
        return ret;
    }
    coll_watch_end(c);
    c->connected = 1;
    return 0;
}

/*
 * Streaming: psqlODBC reads the whole result into memory unless
 * UseDeclareFetch=1 (then it FETCHes Fetch=N rows at a time through a
 * cursor); MariaDB Connector/ODBC >= 3.1.17 streams with NO_CACHE=1 (older
 * drivers ignore the key). Adds the keys unless the string already has
 * them: 1 if added, 0 if not needed, -1 if the string would be too long.
 */
static int add_stream_keys(char *connstr, size_t len, enum coll_engine e)
{
    if (e == COLL_ENGINE_POSTGRESQL && !has_key(connstr, "UseDeclareFetch")) {
        if (append_kv(connstr, len, "UseDeclareFetch", "1", 0) < 0)
            return -1;
        if (!has_key(connstr, "Fetch") &&
            append_kv(connstr, len, "Fetch", "32768", 0) < 0)
            return -1;
        return 1;
    }
    if (e == COLL_ENGINE_MYSQL && !has_key(connstr, "NO_CACHE") &&
        !has_key(connstr, "STREAMRS")) {
        if (append_kv(connstr, len, "NO_CACHE", "1", 0) < 0)
            return -1;
        return 1;
    }
    return 0;
}

/* The engine a Driver= value names, to add the streaming keys before the
   first connect (saves a reconnect); AUTO if it does not say. */
static enum coll_engine engine_from_driver(const char *connstr)
{
    char tmp[4096], *p = tmp, *d;
    snprintf(tmp, sizeof(tmp), ";%s", connstr);
    while ((d = find_ci(p, "driver")) != NULL) {
        char *q = d + 6;
        p = q;
        while (*q == ' ')
            q++;
        if (*q != '=' || (d > tmp && d[-1] != ';' && d[-1] != ' '))
            continue;
        {
            char *end = strchr(q, ';');
            if (end)
                *end = '\0';
        }
        if (find_ci(q, "postgres") || find_ci(q, "psqlodbc"))
            return COLL_ENGINE_POSTGRESQL;
        if (find_ci(q, "maria") || find_ci(q, "mysql") || find_ci(q, "maodbc"))
            return COLL_ENGINE_MYSQL;
        return COLL_ENGINE_AUTO;
    }
    return COLL_ENGINE_AUTO;
}

static void info_string(struct coll_conn *c, SQLUSMALLINT a, SQLUSMALLINT b,
                        char *buf, size_t len)
{
    SQLCHAR v1[96] = "", v2[64] = "";
    SQLSMALLINT n;
    SQLGetInfo(c->dbc, a, v1, sizeof(v1), &n);
    SQLGetInfo(c->dbc, b, v2, sizeof(v2), &n);
    snprintf(buf, len, "%s%s%s", (char *)v1, v2[0] ? " " : "", (char *)v2);
}

/* check what needs no server: one source, one password, a sane timeout */
static int conn_opts_check(const struct coll_conn_opts *o, long idle_s,
                           struct pt_err *err)
{
    if ((o->dsn != NULL) == (o->connect != NULL))
        return err_set(err, PT_EUSAGE,
                       "give exactly one of `dsn` NAME or `connect` STRING");
    if (o->password_file && o->password_env)
        return err_set(err, PT_EUSAGE,
                       "give at most one of `password_file` and "
                       "`password_env`");
    if (o->dsn && (!o->dsn[0] || strpbrk(o->dsn, ";{}=[]"))) {
        /* quoted masked: "--dsn 'x;PWD=secret'" must not echo the secret */
        char shown[256];
        snprintf(shown, sizeof(shown), "%s", o->dsn);
        coll_mask(NULL, shown, sizeof(shown));
        return err_set(err, PT_EUSAGE, "`dsn`: invalid data source name '%s'%s",
                       shown,
                       coll_connstr_has_password(o->dsn)
                           ? " (give the password with `password_file`, "
                             "`password_env` or in odbc.ini)"
                           : "");
    }
    if (coll_connstr_has_password(o->connect) &&
        (o->password_file || o->password_env))
        return err_set(err, PT_EUSAGE,
                       "the password is given twice: in `connect` and with "
                       "%s; give it once",
                       o->password_file ? "`password_file`" : "`password_env`");
    if (o->connect && !o->connect[0])
        return err_set(err, PT_EUSAGE, "`connect`: empty connection string");
    if (idle_s < 1 || idle_s > COLL_TIMEOUT_MAX_S)
        return err_set(err, PT_EUSAGE,
                       "`timeout`: expected whole seconds from 1 to %ld",
                       COLL_TIMEOUT_MAX_S);
    return 0;
}

/* the password from --password-file or --password-env into pw, else "" */
static int conn_password(const struct coll_conn_opts *o, char *pw,
                         size_t pw_len, struct pt_err *err)
{
    const char *v;

    if (o->password_file)
        return read_password_file(o->password_file, pw, pw_len, err);
    if (!o->password_env)
        return 0;
    v = getenv(o->password_env);
    if (!v || !v[0])
        return err_set(err, PT_EUSAGE,
                       "`password_env`: environment variable '%s' is "
                       "not set",
                       o->password_env);
    if (strlen(v) >= pw_len)
        return err_set(err, PT_EDATA,
                       "`password_env`: password in '%s' is too long",
                       o->password_env);
    strcpy(pw, v);
    return 0;
}

/* build the connection string: source, password, streaming keys; -1 too long */
static int conn_string(struct coll_conn *c, const struct coll_conn_opts *o,
                       const char *pw, char *connstr, size_t len)
{
    if (o->dsn) {
        if (append_kv(connstr, len, "DSN", o->dsn, 0) < 0)
            return -1;
        snprintf(c->describe, sizeof(c->describe), "DSN=%s", o->dsn);
    } else {
        if (strlen(o->connect) >= len - 512 ||
            connstr_tidy(o->connect, connstr, len - 512) < 0)
            return -1;
        coll_describe_connect(o->connect, c->describe, sizeof(c->describe));
    }
    if (pw[0] && append_kv(connstr, len, "PWD", pw, 1) < 0)
        return -1;
    if (o->streaming && add_stream_keys(connstr, len,
                                        o->engine != COLL_ENGINE_AUTO
                                            ? o->engine
                                            : engine_from_driver(connstr)) < 0)
        return -1;
    return 0;
}

/* ask the connected server what it is; an --engine that contradicts it fails */
static int conn_identify(struct coll_conn *c, const struct coll_conn_opts *o,
                         struct pt_err *err)
{
    info_string(c, SQL_DBMS_NAME, SQL_DBMS_VER, c->dbms, sizeof(c->dbms));
    info_string(c, SQL_DRIVER_NAME, SQL_DRIVER_VER, c->driver,
                sizeof(c->driver));
    c->engine = o->engine != COLL_ENGINE_AUTO ? o->engine
                                              : coll_engine_from_dbms(c->dbms);
    if (o->engine != COLL_ENGINE_AUTO &&
        coll_engine_from_dbms(c->dbms) != COLL_ENGINE_AUTO &&
        coll_engine_from_dbms(c->dbms) != o->engine)
        /* the server says what it is: its SQL would be the wrong one */
        return err_set(err, PT_EUSAGE,
                       "`engine` %s: the server is %s, not %s (give "
                       "`engine` %s or leave `engine` out)",
                       coll_engine_name(o->engine), c->dbms,
                       coll_engine_name(o->engine),
                       coll_engine_name(coll_engine_from_dbms(c->dbms)));
    if (c->engine == COLL_ENGINE_AUTO)
        return err_set(err, PT_EUNAVAIL,
                       "unsupported database '%s' (db2, postgresql, mysql, "
                       "sqlite; or say `engine`)",
                       c->dbms);
    return 0;
}

int coll_conn_open(struct coll_conn **out, const struct coll_conn_opts *o,
                   struct pt_err *err)
{
    struct coll_conn *c;
    char connstr[4096] = "", pw[256] = "";
    int ret;
    SQLRETURN rc;
    long idle_s = o->timeout_s ? o->timeout_s : COLL_TIMEOUT_DEFAULT_S;
    long login_s;

    *out = NULL;
    ret = conn_opts_check(o, idle_s, err);
    if (ret < 0)
        return ret;
    login_s = o->login_timeout_s > 0 && o->login_timeout_s < idle_s
                  ? o->login_timeout_s
                  : idle_s;
    ret = conn_password(o, pw, sizeof(pw), err);
    if (ret < 0)
        return ret;
    c = calloc(1, sizeof(*c));
    if (!c)
        return err_set(err, PT_EINTERNAL, "out of memory");
    snprintf(c->secret, sizeof(c->secret), "%s", pw);
    ret = conn_string(c, o, pw, connstr, sizeof(connstr));
    memset(pw, 0, sizeof(pw));
    if (ret < 0)
        goto toolong;
    rc = SQLAllocHandle(SQL_HANDLE_ENV, SQL_NULL_HANDLE, &c->env);
    if (!SQL_SUCCEEDED(rc)) {
        ret = err_set(err, PT_EUNAVAIL, "cannot allocate an ODBC environment");
        goto fail;
    }
    SQLSetEnvAttr(c->env, SQL_ATTR_ODBC_VERSION, (SQLPOINTER)SQL_OV_ODBC3, 0);
    ret = watch_start(c, idle_s, o->on_stall, err);
    if (ret < 0)
        goto fail;
    ret = driver_connect(c, connstr, login_s, idle_s, err);
    if (ret < 0)
        goto fail;
    ret = conn_identify(c, o, err);
    if (ret < 0)
        goto fail;
    /* the engine guessed before connecting was wrong: add the keys now */
    if (o->streaming) {
        int changed = add_stream_keys(connstr, sizeof(connstr), c->engine);
        if (changed < 0)
            goto toolong;
        if (changed) {
            ret = driver_connect(c, connstr, login_s, idle_s, err);
            if (ret < 0)
                goto fail;
        }
    }
    watch_set_probe(c, connstr, c->engine);
    memset(connstr, 0, sizeof(connstr));
    *out = c;
    return 0;
toolong:
    ret = err_set(err, PT_EUSAGE, "connection string is too long");
fail:
    memset(connstr, 0, sizeof(connstr));
    memset(pw, 0, sizeof(pw));
    conn_free(c);
    return ret;
}

enum coll_engine coll_conn_engine(const struct coll_conn *c)
{
    return c->engine;
}

const char *coll_conn_dbms(const struct coll_conn *c)
{
    return c->dbms;
}

const char *coll_conn_driver(const struct coll_conn *c)
{
    return c->driver;
}

const char *coll_conn_describe(const struct coll_conn *c)
{
    return c->describe;
}

/* ---- statements --------------------------------------------------------- */

/* A short form of the SQL for messages (first 80 bytes, one line). */
static void sql_excerpt(const char *sql, char *buf, size_t len)
{
    snprintf(buf, len, "%.80s%s", sql, strlen(sql) > 80 ? "..." : "");
    one_line(buf);
}

int coll_exec(struct coll_conn *c, const char *sql, struct pt_err *err)
{
    SQLHSTMT st = SQL_NULL_HSTMT;
    SQLRETURN rc;
    int ret;
    char what[128], ex[100];

    ret = coll_stmt_new(c, &st, err);
    if (ret < 0)
        return ret;
    sql_excerpt(sql, ex, sizeof(ex));
    coll_watch_begin(c, st, "running '%s'", ex);
    rc = SQLExecDirect(st, (SQLCHAR *)sql, SQL_NTS);
    if (!SQL_SUCCEEDED(rc) && rc != SQL_NO_DATA) {
        snprintf(what, sizeof(what), "'%s'", ex);
        ret = coll_diag(c, SQL_HANDLE_STMT, st, rc, what, err);
    }
    coll_watch_end(c);
    SQLFreeHandle(SQL_HANDLE_STMT, st);
    return ret;
}

/* SQLGetData of column col as text into a growing buffer. */
static int get_text(struct coll_conn *c, SQLHSTMT st, SQLUSMALLINT col,
                    char **buf, size_t *cap, int *is_null, struct pt_err *err)
{
    size_t off = 0;

    *is_null = 0;
    for (;;) {
        SQLLEN ind = 0;
        SQLRETURN rc = SQLGetData(st, col, SQL_C_CHAR, *buf + off,
                                  (SQLLEN)(*cap - off), &ind);
        if (rc == SQL_NO_DATA)
            return 0;
        if (!SQL_SUCCEEDED(rc))
            return coll_diag(c, SQL_HANDLE_STMT, st, rc, "fetch", err);
        if (ind == SQL_NULL_DATA) {
            *is_null = 1;
            (*buf)[0] = '\0';
            return 0;
        }
        if (rc == SQL_SUCCESS)
            return 0;
        /* truncated: grow and continue after the terminator */
        off = strlen(*buf);
        {
            size_t ncap = *cap * 2;
            char *nb = realloc(*buf, ncap);
            if (!nb)
                return err_set(err, PT_EINTERNAL, "out of memory");
            *buf = nb;
            *cap = ncap;
        }
    }
}

int coll_query_rows(struct coll_conn *c, const char *sql,
                    struct coll_rows *rows, struct pt_err *err)
{
    SQLHSTMT st = SQL_NULL_HSTMT;
    SQLRETURN rc;
    SQLSMALLINT ncols = 0;
    char **names = NULL, **cells = NULL, *buf = NULL;
    size_t cap = 256;
    int ret = 0;
    char ex[100], what[128];

    memset(rows, 0, sizeof(*rows));
    sql_excerpt(sql, ex, sizeof(ex));
    snprintf(what, sizeof(what), "'%s'", ex);
    ret = coll_stmt_new(c, &st, err);
    if (ret < 0)
        return ret;
    /* a small result: the whole statement is one step, so the driver's
       own limit (psqlODBC: statement_timeout, MariaDB: max_statement_time)
       may end a server that is alive but stuck (a lock wait) */
    if (c->wd)
        SQLSetStmtAttr(st, SQL_ATTR_QUERY_TIMEOUT,
                       (SQLPOINTER)(uintptr_t)c->wd->timeout_s, 0);
    coll_watch_begin(c, st, "running '%s'", ex);
    rc = SQLExecDirect(st, (SQLCHAR *)sql, SQL_NTS);
    if (!SQL_SUCCEEDED(rc)) {
        ret = coll_diag(c, SQL_HANDLE_STMT, st, rc, what, err);
        goto out;
    }
    coll_watch_tick(c);
    rc = SQLNumResultCols(st, &ncols);
    if (!SQL_SUCCEEDED(rc) || ncols <= 0) {
        ret = err_set(err, PT_EDATA, "%s returned no result set", what);
        goto out;
    }
    names = calloc((size_t)ncols, sizeof(*names));
    cells = calloc((size_t)ncols, sizeof(*cells));
    buf = malloc(cap);
    if (!names || !cells || !buf) {
        ret = err_set(err, PT_EINTERNAL, "out of memory");
        goto out;
    }
    for (SQLSMALLINT i = 0; i < ncols; i++) {
        SQLCHAR nm[128] = "";
        SQLSMALLINT nl, type, dec, nullable;
        SQLULEN size;
        SQLDescribeCol(st, (SQLUSMALLINT)(i + 1), nm, sizeof(nm), &nl, &type,
                       &size, &dec, &nullable);
        for (char *p = (char *)nm; *p; p++)
            *p = (char)toupper((unsigned char)*p);
        names[i] = strdup((char *)nm);
        if (!names[i]) {
            ret = err_set(err, PT_EINTERNAL, "out of memory");
            goto out;
        }
    }
    ret = coll_rows_init(rows, (size_t)ncols, (const char *const *)names);
    if (ret < 0) {
        ret = err_set(err, PT_EINTERNAL, "out of memory");
        goto out;
    }
    while ((rc = SQLFetch(st)) != SQL_NO_DATA) {
        if (!SQL_SUCCEEDED(rc)) {
            ret = coll_diag(c, SQL_HANDLE_STMT, st, rc, what, err);
            goto out;
        }
        coll_watch_tick(c);
        for (SQLSMALLINT i = 0; i < ncols; i++) {
            int is_null;
            ret = get_text(c, st, (SQLUSMALLINT)(i + 1), &buf, &cap, &is_null,
                           err);
            if (ret < 0)
                goto out;
            free(cells[i]);
            cells[i] = is_null ? NULL : strdup(buf);
            if (!is_null && !cells[i]) {
                ret = err_set(err, PT_EINTERNAL, "out of memory");
                goto out;
            }
        }
        if (coll_rows_add(rows, (const char *const *)cells) < 0) {
            ret = err_set(err, PT_EINTERNAL, "out of memory");
            goto out;
        }
    }
out:
    if (ret < 0)
        coll_rows_release(rows);
    for (SQLSMALLINT i = 0; names && i < ncols; i++)
        free(names[i]);
    for (SQLSMALLINT i = 0; cells && i < ncols; i++)
        free(cells[i]);
    free(names);
    free(cells);
    free(buf);
    coll_watch_end(c);
    SQLFreeHandle(SQL_HANDLE_STMT, st);
    return ret;
}

int coll_query_value(struct coll_conn *c, const char *sql, char *buf,
                     size_t len, int *is_null, struct pt_err *err)
{
    struct coll_rows rows;
    int ret = coll_query_rows(c, sql, &rows, err);
    char ex[100];

    if (ret < 0)
        return ret;
    if (rows.n_rows == 0) {
        sql_excerpt(sql, ex, sizeof(ex));
        coll_rows_release(&rows);
        return err_set(err, PT_EDATA, "'%s' returned no row", ex);
    }
    if (is_null)
        *is_null = rows.cells[0] == NULL;
    snprintf(buf, len, "%s", rows.cells[0] ? rows.cells[0] : "");
    coll_rows_release(&rows);
    return 0;
}

int coll_query_i64(struct coll_conn *c, const char *sql, int64_t *out,
                   struct pt_err *err)
{
    char buf[64], *end;
    int is_null = 0, ret;
    long long v;

    ret = coll_query_value(c, sql, buf, sizeof(buf), &is_null, err);
    if (ret < 0)
        return ret;
    errno = 0;
    v = strtoll(buf, &end, 10);
    if (is_null || end == buf || *end || errno)
        return err_set(err, PT_EDATA, "query returned '%s', not an integer",
                       is_null ? "NULL" : buf);
    *out = v;
    return 0;
}
