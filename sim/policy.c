/* SPDX-License-Identifier: Apache-2.0 */
/*
 * policy.c — the registry of eviction policies: one table instead of
 * string if-chains. Each policy lives in its own sim/policy_<name>.c and
 * exports one immutable `struct sim_policy_ops`; this file lists them.
 */
#include "sim/sim.h"

#include <string.h>
#include <strings.h>

extern const struct sim_policy_ops sim_policy_lru;
extern const struct sim_policy_ops sim_policy_fifo;
extern const struct sim_policy_ops sim_policy_clock;
extern const struct sim_policy_ops sim_policy_random;
extern const struct sim_policy_ops sim_policy_sieve;
extern const struct sim_policy_ops sim_policy_arc;
extern const struct sim_policy_ops sim_policy_s3fifo;
extern const struct sim_policy_ops sim_policy_twoq;
extern const struct sim_policy_ops sim_policy_pg;
extern const struct sim_policy_ops sim_policy_innodb;
extern const struct sim_policy_ops sim_policy_sqlite;

const struct sim_policy_ops *const sim_policies[] = {
    &sim_policy_lru,    &sim_policy_fifo,   &sim_policy_clock,
    &sim_policy_random, &sim_policy_sieve,  &sim_policy_arc,
    &sim_policy_s3fifo, &sim_policy_twoq,   &sim_policy_pg,
    &sim_policy_innodb, &sim_policy_sqlite, NULL,
};

const struct sim_policy_ops *sim_policy_find(const char *name)
{
    size_t i;

    for (i = 0; sim_policies[i]; i++)
        if (strcasecmp(sim_policies[i]->name, name) == 0)
            return sim_policies[i];
    return NULL;
}

int sim_policy_is_lru(const struct sim_policy_ops *ops)
{
    return ops == &sim_policy_lru || ops == &sim_policy_sqlite;
}

char *sim_policy_names(char *buf, size_t len)
{
    size_t i, used = 0;

    if (!len)
        return buf;
    buf[0] = '\0';
    for (i = 0; sim_policies[i]; i++) {
        int n = snprintf(buf + used, len - used, "%s%s", i ? ", " : "",
                         sim_policies[i]->name);
        if (n < 0 || (size_t)n >= len - used)
            break;
        used += (size_t)n;
    }
    return buf;
}
