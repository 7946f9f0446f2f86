/* SPDX-License-Identifier: Apache-2.0 */
/*
 * host.c — the physical memory of the machine the server runs on, where the
 * monitor can read it (docs/formats.md "host", docs/models.md "Host
 * memory"). Read once per monitor run (monitor.c) and carried by the last
 * snapshot into the monitor document (doc_monitor.c), whence recommend/
 * checks the buffer pool against it.
 *
 * Where the number comes from, per engine, first that answers:
 *   PostgreSQL  pg_read_file('/proc/meminfo') on the server (PostgreSQL 15
 *               docs, "Generic File Access Functions": files outside the
 *               cluster directory need superuser or the role
 *               pg_read_server_files), else this machine's /proc/meminfo
 *               when the connection is local: inet_client_addr() is NULL on
 *               a Unix-domain socket and a loopback address over TCP
 *               ("System Information Functions", Session Information);
 *   MariaDB     no SQL reports the host's RAM; this machine's when the
 *               server sees our connection coming from localhost or a
 *               loopback address (information_schema.PROCESSLIST.HOST of
 *               CONNECTION_ID(), which every user may read for their own
 *               thread);
 *   SQLite      the database file is on this machine: /proc/meminfo;
 *   DB2         SYSPROC.ENV_GET_SYSTEM_RESOURCES() MEMORY_TOTAL, in MB
 *               (IBM Db2 11.1 docs, "ENV_GET_SYSTEM_RESOURCES table function
 *               - Return system information"; EXECUTE, DATAACCESS, DBADM or
 *               SQLADM needed). Untested live, like the other DB2 queries.
 * A reading that fails for want of privilege is not an error: the host is
 * then "not readable" and says why. A lost link fails as every query does.
 */
#include "collect/internal.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A MemTotal above this (1 PiB) is not a machine's. */
#define HOST_MAX_BYTES (1ULL << 50)

int coll_meminfo_total(const char *text, uint64_t *bytes)
{
    const char *p = text;

    while (p && *p) {
        if (strncmp(p, "MemTotal:", 9) == 0) {
            char *end;
            unsigned long long kb;
            errno = 0;
            kb = strtoull(p + 9, &end, 10);
            while (*end == ' ' || *end == '\t')
                end++;
            if (errno || end == p + 9 || strncmp(end, "kB", 2) != 0 ||
                kb == 0 || kb > HOST_MAX_BYTES / 1024)
                return -1;
            *bytes = (uint64_t)kb * 1024;
            return 0;
        }
        p = strchr(p, '\n');
        if (p)
            p++;
    }
    return -1;
}

/* This machine's /proc/meminfo (proc(5)) into h, or a note why not. */
static void read_local(struct coll_host *h, const char *why_local)
{
    char buf[4096];
    size_t n;
    FILE *fp = fopen("/proc/meminfo", "r");

    if (!fp) {
        snprintf(h->note, sizeof(h->note),
                 "host memory not readable: %s, but /proc/meminfo: %s",
                 why_local, strerror(errno));
        return;
    }
    n = fread(buf, 1, sizeof(buf) - 1, fp);
    fclose(fp);
    buf[n] = '\0';
    if (coll_meminfo_total(buf, &h->memory_bytes) < 0) {
        snprintf(h->note, sizeof(h->note),
                 "host memory not readable: %s, but /proc/meminfo has no "
                 "MemTotal",
                 why_local);
        return;
    }
    h->known = 1;
    snprintf(h->source, sizeof(h->source),
             "/proc/meminfo MemTotal of this machine (%s)", why_local);
}

/* A lost link or an interrupt ends the run; anything else is a note. */
static int fatal(int rc)
{
    return rc == PT_EUNAVAIL || rc == PT_EINTR;
}

/* Hand a fatal error on to the caller's err (may be NULL). */
static int pass(struct pt_err *err, const struct pt_err *e, int rc)
{
    if (err)
        *err = *e;
    return rc;
}

/* Is `addr` (as the server saw our connection) this machine? */
static int is_loopback(const char *addr)
{
    return strcmp(addr, "localhost") == 0 || strncmp(addr, "127.", 4) == 0 ||
           strcmp(addr, "::1") == 0 || strcmp(addr, "::ffff:127.0.0.1") == 0;
}

static int pg_host(struct coll_conn *c, struct coll_host *h, struct pt_err *err)
{
    char buf[8192], why[128];
    struct pt_err e = {0};
    int is_null = 0, rc;

    rc = coll_query_value(c, "SELECT pg_read_file('/proc/meminfo')", buf,
                          sizeof(buf), &is_null, &e);
    if (fatal(rc))
        return pass(err, &e, rc);
    if (rc == 0 && !is_null && coll_meminfo_total(buf, &h->memory_bytes) == 0) {
        h->known = 1;
        snprintf(h->source, sizeof(h->source),
                 "pg_read_file('/proc/meminfo') MemTotal on the server");
        return 0;
    }
    snprintf(why, sizeof(why), "pg_read_file('/proc/meminfo'): %.90s",
             rc < 0 ? e.msg : "no MemTotal");
    rc = coll_query_value(c,
                          "SELECT coalesce(host(inet_client_addr()), "
                          "'unix socket')",
                          buf, sizeof(buf), &is_null, &e);
    if (fatal(rc))
        return pass(err, &e, rc);
    if (rc == 0 && (strcmp(buf, "unix socket") == 0 || is_loopback(buf))) {
        char local[80];
        snprintf(local, sizeof(local), "the server sees us on %.40s", buf);
        read_local(h, local);
        return 0;
    }
    snprintf(h->note, sizeof(h->note),
             "host memory not readable: %.100s; and the server is not on this "
             "machine (it sees us from %.60s)",
             why, rc == 0 ? buf : "an unknown address");
    return 0;
}

static int my_host(struct coll_conn *c, struct coll_host *h, struct pt_err *err)
{
    char buf[256];
    struct pt_err e = {0};
    int is_null = 0, rc;

    rc = coll_query_value(c,
                          "SELECT SUBSTRING_INDEX(HOST, ':', 1) FROM "
                          "information_schema.PROCESSLIST WHERE ID = "
                          "CONNECTION_ID()",
                          buf, sizeof(buf), &is_null, &e);
    if (fatal(rc))
        return pass(err, &e, rc);
    if (rc == 0 && !is_null && is_loopback(buf)) {
        char local[80];
        snprintf(local, sizeof(local), "the server sees us from %.40s", buf);
        read_local(h, local);
        return 0;
    }
    snprintf(h->note, sizeof(h->note),
             "host memory not readable: MariaDB has no SQL for the host's "
             "memory and the server is not on this machine (it sees us "
             "from %.60s)",
             rc == 0 && !is_null ? buf : "an unknown address");
    return 0;
}

static int db2_host(struct coll_conn *c, struct coll_host *h,
                    struct pt_err *err)
{
    struct pt_err e = {0};
    int64_t mb = 0;
    int rc = coll_query_i64(c, COLL_DB2_HOST_MEMORY_SQL, &mb, &e);

    if (fatal(rc))
        return pass(err, &e, rc);
    if (rc == 0 && mb > 0 && (uint64_t)mb < HOST_MAX_BYTES >> 20) {
        h->known = 1;
        h->memory_bytes = (uint64_t)mb << 20;
        snprintf(h->source, sizeof(h->source),
                 "SYSPROC.ENV_GET_SYSTEM_RESOURCES() MEMORY_TOTAL (MB)");
        return 0;
    }
    snprintf(h->note, sizeof(h->note),
             "host memory not readable: ENV_GET_SYSTEM_RESOURCES: %.160s",
             rc < 0 ? e.msg : "no MEMORY_TOTAL");
    return 0;
}

int coll_host_read(struct coll_conn *c, struct coll_host *h, struct pt_err *err)
{
    memset(h, 0, sizeof(*h));
    h->read = 1;
    switch (c->engine) {
    case COLL_ENGINE_POSTGRESQL:
        return pg_host(c, h, err);
    case COLL_ENGINE_MYSQL:
        return my_host(c, h, err);
    case COLL_ENGINE_SQLITE:
        read_local(h, "SQLite: the database file is on this machine");
        return 0;
    case COLL_ENGINE_DB2:
        return db2_host(c, h, err);
    case COLL_ENGINE_AUTO:
        break;
    }
    snprintf(h->note, sizeof(h->note),
             "host memory not readable: unknown engine");
    return 0;
}
