/* SPDX-License-Identifier: Apache-2.0 */
/*
 * internal.h — what advise/'s files share and nobody else sees.
 * pipeline.c calls model.c's builder once every step has run.
 */
#ifndef PT_ADVISE_INTERNAL_H
#define PT_ADVISE_INTERNAL_H

#include "advise/advise.h"

/* The report model of a finished run into r->model (report/report.c keys). */
int adv_model_build(const struct adv_config *c, struct adv_result *r,
                    struct pt_err *err);

#endif /* PT_ADVISE_INTERNAL_H */
