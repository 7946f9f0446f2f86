/* SPDX-License-Identifier: Apache-2.0 */
/*
 * err.c — one-line errors carried in struct pt_err. Library modules fill
 * them; only cli/ prints them and maps the code to an exit status.
 */
#include "core/core.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * A message is one line (docs/architecture.md#errors): values quoted from input
 * files or options may hold newlines, carriage returns or terminal escapes,
 * which would split the line or rewrite the user's terminal. They become '?'.
 */
static void one_line(char *s)
{
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '\t')
            *s = ' ';
        else if (c < 0x20 || c == 0x7f)
            *s = '?';
    }
}

/*
 * A value quoted in a message ('...') longer than PT_MSG_QUOTE_MAX bytes is
 * cut to its first PT_MSG_QUOTE_KEEP bytes (never inside a UTF-8 sequence)
 * and "...": a 120 KB argument is not echoed whole. In place.
 */
void pt_msg_shorten(char *s)
{
    char *q = s;

    while ((q = strchr(q, '\'')) != NULL) {
        char *open = q + 1, *close = strchr(open, '\'');
        size_t run = close ? (size_t)(close - open) : strlen(open), keep;

        if (run > PT_MSG_QUOTE_MAX) {
            keep = PT_MSG_QUOTE_KEEP;
            while (keep > 0 && ((unsigned char)open[keep] & 0xc0) == 0x80)
                keep--;
            memcpy(open + keep, "...", 3);
            memmove(open + keep + 3, open + run, strlen(open + run) + 1);
            run = keep + 3;
        }
        if (!close)
            break;
        q = open + run + 1;
    }
}

/* vsnprintf into dst, long quoted values cut (pt_msg_shorten) first. */
__attribute__((format(printf, 3, 0))) static void
format_short(char *dst, size_t cap, const char *fmt, va_list ap)
{
    va_list aq;
    int n;

    va_copy(aq, ap);
    n = vsnprintf(dst, cap, fmt, ap);
    if (n >= 0 && (size_t)n >= cap) {
        char *big = malloc((size_t)n + 1); /* not pt_malloc: no fault here */
        if (big) {
            vsnprintf(big, (size_t)n + 1, fmt, aq);
            pt_msg_shorten(big);
            snprintf(dst, cap, "%s", big);
            free(big);
        }
    }
    va_end(aq);
    pt_msg_shorten(dst);
}

void pt_msg_vformat(char *dst, size_t cap, const char *fmt, va_list ap)
{
    format_short(dst, cap, fmt, ap);
}

int err_set(struct pt_err *err, int code, const char *fmt, ...)
{
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        format_short(err->msg, sizeof(err->msg), fmt, ap);
        va_end(ap);
        one_line(err->msg);
        err->code = code;
    }
    return code;
}

int err_prefix(struct pt_err *err, const char *fmt, ...)
{
    char head[512], old[sizeof(err->msg)];
    size_t hl, room, ol;
    va_list ap;

    if (!err)
        return PT_EINTERNAL;
    va_start(ap, fmt);
    vsnprintf(head, sizeof(head), fmt, ap);
    va_end(ap);
    memcpy(old, err->msg, sizeof(old));
    hl = strlen(head);
    if (hl > sizeof(err->msg) - 3)
        hl = sizeof(err->msg) - 3;
    memcpy(err->msg, head, hl);
    memcpy(err->msg + hl, ": ", 2);
    /* keep as much of the old message as fits */
    room = sizeof(err->msg) - hl - 3;
    ol = strlen(old);
    if (ol > room)
        ol = room;
    memcpy(err->msg + hl + 2, old, ol);
    err->msg[hl + 2 + ol] = '\0';
    one_line(err->msg);
    return err->code;
}

/* The length of a field name `[a-z][a-z0-9_]*` at s (after a backquote)
 * closed by a backquote, or 0. */
static size_t field_len(const char *s)
{
    size_t n = 0;

    if (!(*s >= 'a' && *s <= 'z'))
        return 0;
    while ((s[n] >= 'a' && s[n] <= 'z') || (s[n] >= '0' && s[n] <= '9') ||
           s[n] == '_')
        n++;
    return s[n] == '`' && n < 64 ? n : 0;
}

void pt_msg_fields(char *msg, size_t cap, pt_field_map_fn *map, void *ctx)
{
    char out[2048], name[64];
    size_t o = 0, n;
    int quoted = 0;

    for (const char *s = msg; *s && o + 1 < sizeof(out);) {
        /* a quote, not an apostrophe between letters ("server's") */
        if (*s == '\'' && !(s > msg && isalnum((unsigned char)s[-1]) &&
                            isalnum((unsigned char)s[1])))
            quoted = !quoted;
        if (quoted || *s != '`' || !(n = field_len(s + 1))) {
            out[o++] = *s++;
            continue;
        }
        memcpy(name, s + 1, n);
        name[n] = '\0';
        const char *as = map ? map(ctx, name) : NULL;
        o += (size_t)snprintf(out + o, sizeof(out) - o, "%s", as ? as : name);
        if (o >= sizeof(out))
            o = sizeof(out) - 1;
        s += n + 2;
    }
    out[o] = '\0';
    snprintf(msg, cap, "%s", out);
}

void err_clear(struct pt_err *err)
{
    if (err) {
        err->code = PT_OK;
        err->msg[0] = '\0';
    }
}

const char *err_status_name(int code)
{
    switch (code) {
    case PT_OK:
        return "success";
    case PT_ECHECK:
        return "configuration differs from the recommendation";
    case PT_EUSAGE:
        return "usage error";
    case PT_EDATA:
        return "bad input data";
    case PT_ENOINPUT:
        return "input missing or unreadable";
    case PT_EUNAVAIL:
        return "database or driver unavailable";
    case PT_EINTERNAL:
        return "internal error";
    case PT_ECANTCREAT:
        return "cannot create output";
    case PT_EIO:
        return "i/o error";
    case PT_EPERM:
        return "permission denied";
    case PT_EINTR:
        return "interrupted";
    default:
        return "error";
    }
}
