/* SPDX-License-Identifier: Apache-2.0 */
/*
 * report.h — report.html rendering for `advise` (see report.c for the model
 * keys). Writes one self-contained HTML page with inline SVG charts.
 */
#ifndef PT_CLI_REPORT_H
#define PT_CLI_REPORT_H

#include <stdio.h>

#include "core/core.h"

/* Render `model` to fp. PT_EIO on a write error. */
int report_write_html(const json_t *model, FILE *fp, struct pt_err *err);

#endif /* PT_CLI_REPORT_H */
