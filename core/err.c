/* SPDX-License-Identifier: Apache-2.0 */
/*
 * err.c — one-line errors carried in struct pt_err. Library modules fill
 * them; only cli/ prints them and maps the code to an exit status.
 */
#include "core/core.h"

#include <stdio.h>
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

int err_set(struct pt_err *err, int code, const char *fmt, ...)
{
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
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
