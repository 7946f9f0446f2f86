/* SPDX-License-Identifier: Apache-2.0 */
/*
 * report.h — the public face of report/: renders a report model (a jansson
 * tree built by advise/model.c; its keys are listed at the top of
 * report/report.c and in man/pagetune-advise.1, REPORT) as report.html, one
 * self-contained page with inline SVG charts, no scripts, no network.
 *
 * report/ is a library: it never prints to the terminal and never exits; it
 * writes only to the stream or buffer the caller hands it. It computes
 * nothing beyond chart geometry and display arithmetic.
 * Neighbours: advise/ (builds the model and calls the renderer through
 * adv_config.render_report), cli/cmd_advise.c (plugs report_write_html in),
 * tests/tools/pt_report.c (renders a model file for the browser test).
 */
#ifndef PT_REPORT_H
#define PT_REPORT_H

#include <stddef.h>
#include <stdio.h>

#include "core/core.h"

/*
 * Render `model` (borrowed) as HTML to fp (borrowed, left open). Without a
 * meta.generated_at key the page carries the time of writing. Errors:
 * PT_EINTERNAL when model is not an object, PT_EIO on a write error.
 */
int report_write_html(const json_t *model, FILE *fp, struct pt_err *err);

/*
 * Render `model` into a new NUL-terminated buffer: *out (the caller frees
 * it with free()) holds *len bytes, the same bytes report_write_html would
 * write. On error *out is NULL and *len 0. Errors: report_write_html's,
 * PT_EINTERNAL when the buffer cannot be allocated.
 */
int report_write_html_mem(const json_t *model, char **out, size_t *len,
                          struct pt_err *err);

#endif /* PT_REPORT_H */
