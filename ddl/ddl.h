/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ddl.h — the public face of ddl/: DDL for review, rendered from templates
 * that live as data in ddl_templates/<dialect>/ (create.sql, rollback.sql,
 * dialect.yaml), with identifier validation per dialect. No SQL text is in
 * C: a dialect is a directory. ddl/ reads the dialect files through core
 * (plan.c) and writes nothing; cli/cmd_ddl.c writes the results
 * atomically.
 *
 * Template syntax: {{name}} is replaced by the variable `name` ([a-z_]
 * [a-z0-9_]*); an unknown variable, a malformed or unclosed placeholder is
 * PT_EDATA "template:line: ...". Nothing else is special.
 *
 * Neighbours: model/ (struct rec_doc, the recommendation it renders),
 * cli/cmd_ddl.c and the `advise` command (callers).
 */
#ifndef PT_DDL_H
#define PT_DDL_H

#include "core/core.h"

struct rec_doc; /* model/model.h: a recommendation read back */

#define DDL_MAX_KINDS 8
#define DDL_MAX_PREFIXES 4
#define DDL_MAX_PAGE_SIZES 16

/* Identifier rule for one kind of object ("bufferpool", "tablespace"). */
struct ddl_ident_rule {
    char kind[32];
    size_t max_bytes;
    size_t max_chars; /* UTF-8 characters, 0 = no such limit (MariaDB: 64) */
    size_t n_prefixes;
    char forbidden_prefixes[DDL_MAX_PREFIXES][16]; /* case-insensitive */
};

#define DDL_MAX_SETTINGS 16
#define DDL_MAX_WORDS 8

/*
 * An engine setting the templates use as {{name}} (dialect.yaml
 * "settings"): an integer within [min, max], or one of a few keywords.
 * Values come from the recommendation's "settings" object, else from the
 * rule's default; nothing else reaches the SQL text.
 */
struct ddl_setting_rule {
    char name[40];
    int is_int;
    uint64_t min, max; /* is_int */
    size_t n_words;
    char words[DDL_MAX_WORDS][24]; /* !is_int: allowed keywords */
    int has_default;
    char def[64];
    uint32_t page_size_unit; /* "from_page_size: bytes|k": the value is
                                the page size / unit (1 or 1024), always;
                                0 = from the recommendation */
};

#define DDL_KEYWORD_BYTES 16384 /* room for a dialect's keyword list */

#define DDL_MAX_STEPS 8
/*
 * A step of create.sql that destroys data, blocks the table or restarts a
 * server (dialect.yaml "destructive"): the report's Action box names it.
 * text is a template ({{name}} as in create.sql); when, if set, is
 * "VAR" (the step is in create.sql when VAR is "", i.e. its statement is
 * not commented out by a "-- " prefix) or "VAR=VALUE".
 */
struct ddl_step {
    char when[64];
    char text[480];
};

/* A dialect, read from ddl_templates/<name>/dialect.yaml. */
struct ddl_dialect {
    char name[32];
    size_t n_rules;
    struct ddl_ident_rule rules[DDL_MAX_KINDS];
    int fold_upper; /* identifiers folded to upper case */
    int fold_lower; /* identifiers folded to lower case (PostgreSQL) */
    int has_extent, has_prefetch, has_pool; /* DB2-style ranges given */
    size_t n_settings;
    struct ddl_setting_rule settings[DDL_MAX_SETTINGS];
    size_t n_page_sizes;
    uint32_t page_sizes[DDL_MAX_PAGE_SIZES];
    uint32_t extent_min, extent_max; /* pages */
    uint32_t prefetch_min, prefetch_max;
    int prefetch_automatic;      /* AUTOMATIC allowed */
    uint64_t pool_min, pool_max; /* buffer-pool pages */
    double default_overhead_ms;
    double default_read_rate_mb_s;
    /* quote.c: dialect.yaml "quote" and "keywords" (ddl_quote_from_json) */
    char quote_open[4];   /* "" = the dialect cannot quote identifiers */
    char quote_close[4];  /* closing delimiter */
    char quote_escape[8]; /* how quote_close is written inside a name */
    size_t n_keywords;
    char keywords[DDL_KEYWORD_BYTES]; /* upper case, each NUL-terminated */
    size_t n_steps;                   /* dialect.yaml "destructive" */
    struct ddl_step steps[DDL_MAX_STEPS];
};

/* Fill *d from a loaded dialect.yaml; `ctx` names the file. PT_EDATA. */
int ddl_dialect_from_json(struct ddl_dialect *d, const json_t *doc,
                          const char *ctx, struct pt_err *err);
/*
 * Validate an identifier of `kind` (e.g. "bufferpool"): a letter, then
 * letters, digits or '_', at most max_bytes, no forbidden prefix. On
 * success writes the (case-folded) identifier into out (out_len >=
 * max_bytes + 1). PT_EDATA naming `what` (e.g. "--name") and the rule
 * broken; the identifier is quoted with non-printable bytes escaped.
 */
int ddl_ident_check(const struct ddl_dialect *d, const char *kind,
                    const char *ident, const char *what, char *out,
                    size_t out_len, struct pt_err *err);
/* Does the dialect name objects of this kind ("table", "tablespace")? */
int ddl_dialect_has_kind(const struct ddl_dialect *d, const char *kind);
/*
 * Check a setting's value (a JSON integer or string; NULL = the rule's
 * default) against rule `r` and write its text into out. PT_EDATA naming
 * `what` (e.g. the recommendation file) when it is missing or invalid.
 */
int ddl_setting_check(const struct ddl_setting_rule *r, const json_t *value,
                      const char *what, char *out, size_t out_len,
                      struct pt_err *err);
/* Is page_size one of the dialect's page sizes? */
int ddl_dialect_has_page(const struct ddl_dialect *d, uint32_t page_size);

/* Template variables: name -> value, both copied. */
struct ddl_vars {
    size_t n, cap;
    char **names;  /* owned */
    char **values; /* owned */
};
void ddl_vars_init(struct ddl_vars *v);
void ddl_vars_release(struct ddl_vars *v);
/* Set (or replace) a variable; PT_EINTERNAL on OOM. */
int ddl_vars_set(struct ddl_vars *v, const char *name, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Look a variable up; NULL if unset. */
const char *ddl_vars_get(const struct ddl_vars *v, const char *name);

/*
 * Render template text `tmpl` (len bytes, named `name` in messages) with
 * `vars`. *out is a NUL-terminated malloc'd string (caller frees).
 */
int ddl_render(const char *tmpl, size_t len, const char *name,
               const struct ddl_vars *vars, char **out, struct pt_err *err);

/*
 * A block of SQL comment lines "<prefix><text>" from free text (e.g. the
 * reasons of a recommendation), wrapped at `width` columns. Control
 * characters (newlines included) become spaces, so the text can never end
 * the comment and become SQL. Caller frees *out.
 */
int ddl_comment_block(const char *const *texts, size_t n, const char *prefix,
                      size_t width, char **out, struct pt_err *err);

/* ---- planning: dialect files, parameters, names, rendering -------------
 *
 * The steps `pagetune ddl` and `advise` share, so that a caller only parses
 * its options and writes files: find and load a dialect from the data
 * directory, resolve the parameters (explicit values over the
 * recommendation's over the dialect's defaults), check them against the
 * dialect's ranges and identifier rules, and render create.sql and
 * rollback.sql in memory. These functions read the data directory's
 * dialect.yaml and templates (through core); they write nothing.
 */

#define DDL_DEFAULT_EXTENT_PAGES 32 /* DB2's default EXTENTSIZE */
#define DDL_DEFAULT_TABLE "SESSIONS"
#define DDL_DEFAULT_COLUMN "SMALL"
#define DDL_IDENT_MAX (PT_IDENT_MAX + 2)

/* Is s a possible dialect name ([a-z0-9_-], 1..31 bytes)? */
int ddl_dialect_name_valid(const char *s);
/*
 * The known dialects (directories of <data>/ddl_templates holding a
 * dialect.yaml) as "db2, mysql, ..." into buf; "" if none.
 */
void ddl_dialect_list(char *buf, size_t len);
/*
 * Load dialect `name` from <data>/ddl_templates/<name>/dialect.yaml and
 * write that directory into dir. PT_EUSAGE "--dialect: unknown dialect"
 * (listing the known ones) if there is none; profile-loader errors else.
 */
int ddl_dialect_load(struct ddl_dialect *d, const char *name, char *dir,
                     size_t dir_len, struct pt_err *err);

/* Values given explicitly (command-line options); each has_* flag says
 * whether it overrides the recommendation. Strings are borrowed. */
struct ddl_overrides {
    int has_page_size;
    uint64_t page_size_bytes;
    int has_bufferpool_pages;
    uint64_t bufferpool_pages;
    int has_extent_size;
    uint64_t extent_size; /* pages */
    int has_prefetch;
    int prefetch_automatic;
    uint64_t prefetch_size; /* pages, if not automatic */
    int has_overhead;
    double overhead_ms;
    int has_transfer_rate;
    double transfer_rate_ms;
    const char *tablespace_name;  /* NULL: recommendation's, else default */
    const char *bufferpool_name;  /* NULL: recommendation's, else default */
    const struct pt_qname *table; /* --table [SCHEMA.]NAME (core's
                                     pt_qname_parse); NULL:
                                     DDL_DEFAULT_TABLE */
    const char *column_name;      /* NULL: DDL_DEFAULT_COLUMN */
};

/* A resolved, checked DDL plan and its template variables. */
struct ddl_plan {
    uint64_t page_size_bytes;
    uint64_t bufferpool_pages;
    uint64_t extent_size;
    int prefetch_automatic;
    uint64_t prefetch_size;
    double overhead_ms;
    double transfer_rate_ms;
    char tablespace[DDL_IDENT_MAX]; /* checked, case-folded; "" if the
                                       dialect names no such object */
    char bufferpool[DDL_IDENT_MAX];
    char schema[DDL_IDENT_MAX]; /* the table's schema, exact; "" none */
    char table[DDL_IDENT_MAX];  /* exact: unquoted parts folded */
    char column[DDL_IDENT_MAX];
    struct ddl_vars vars; /* every {{name}} the templates may use */
};

/*
 * Plan the DDL of a recommendation (`rec`, may be NULL: explicit values
 * only) for dialect `d`: the parameters, their ranges, the object names
 * and the template variables. `rec_name` names the recommendation in
 * messages and in the scripts' evidence comment. Defaults: the pool
 * minimum REC_POOL_MIN_PAGES, DDL_DEFAULT_EXTENT_PAGES, the dialect's
 * OVERHEAD and read rate (TRANSFERRATE by rec_transfer_ms), the names of
 * rec_default_name(). PT_EUSAGE if there is no page size; PT_EDATA naming
 * the value or the file otherwise. Release with ddl_plan_release() (also
 * after an error).
 */
int ddl_plan_from_recommendation(
    struct ddl_plan *p, const struct ddl_dialect *d, const struct rec_doc *rec,
    const char *rec_name, const struct ddl_overrides *o, struct pt_err *err);
void ddl_plan_release(struct ddl_plan *p);
/*
 * The destructive steps (dialect.yaml "destructive") that create.sql of
 * this plan takes, rendered with the plan's variables, as a new JSON
 * array of strings in *steps (the caller json_decref()s it; NULL on
 * error). PT_EDATA when a step names an unknown variable; PT_EINTERNAL
 * on OOM.
 */
int ddl_plan_destructive(const struct ddl_plan *p, const struct ddl_dialect *d,
                         json_t **steps, struct pt_err *err);
/*
 * Render the dialect's create.sql and rollback.sql (read from dir, as
 * ddl_dialect_load() wrote it) with the plan's variables. *create and
 * *rollback are malloc'd (caller frees); both NULL on error.
 */
int ddl_plan_render(const struct ddl_plan *p, const char *dir, char **create,
                    char **rollback, struct pt_err *err);

/* ---- quoting identifiers (quote.c) --------------------------------------
 *
 * Every identifier that reaches a template is written the dialect's way
 * after the engine's case folding (ddl_ident_check folds): between the
 * delimiters of dialect.yaml "quote" {open, close, escape}, so a name that
 * is also a keyword (PostgreSQL `VACUUM FULL verbose;`) cannot change the
 * statement. A dialect without "quote" cannot quote: a name that is one of
 * its "keywords" (reserved or nonreserved) is refused instead.
 */

/*
 * Read "quote" and "keywords" of a dialect.yaml into d (called by
 * ddl_dialect_from_json). PT_EDATA naming `ctx` for a malformed rule or
 * word, or a list larger than DDL_KEYWORD_BYTES.
 */
int ddl_quote_from_json(struct ddl_dialect *d, const json_t *doc,
                        const char *ctx, struct pt_err *err);
/* Is `word` one of the dialect's keywords (ASCII case-insensitive)? */
int ddl_dialect_is_keyword(const struct ddl_dialect *d, const char *word);
/*
 * Write the (already checked and folded) identifier `folded` of `kind`
 * as SQL into out: quoted when the dialect can quote, else as it is.
 * PT_EDATA when the dialect cannot quote and the name is a keyword;
 * PT_EINTERNAL when out_len is too small.
 */
int ddl_ident_quote(const struct ddl_dialect *d, const char *kind,
                    const char *folded, char *out, size_t out_len,
                    struct pt_err *err);
/*
 * Write the table [schema.]table (exact names, ddl_plan's) the dialect's
 * way, each part through ddl_ident_quote and joined by '.':
 * "order"."user", `db`.`t`. Errors of ddl_ident_quote.
 */
int ddl_table_quote(const struct ddl_dialect *d, const char *schema,
                    const char *table, char *out, size_t out_len,
                    struct pt_err *err);
/*
 * Replace the identifier variables that are set ({{table}}, {{column}},
 * {{tablespace_name}}, {{bufferpool_name}}: each with a rule in d) by
 * their ddl_ident_quote() form (also where a template names them in a
 * comment). A plan sets {{table}} afterwards, schema and all
 * (ddl_table_quote). Errors of ddl_ident_quote; PT_EINTERNAL on OOM.
 */
int ddl_vars_quote_idents(struct ddl_vars *v, const struct ddl_dialect *d,
                          struct pt_err *err);

#endif /* PT_DDL_H */
