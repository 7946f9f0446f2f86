/* SPDX-License-Identifier: Apache-2.0 */
/*
 * core.h — the public face of core/: errors, number and byte-size parsing,
 * atomic output files, JSON helpers (jansson), YAML profiles (libyaml) and
 * the data directory. Every other module builds on this one; core depends on
 * libc, jansson and libyaml only.
 *
 * Conventions (docs/architecture.md#conventions): a fallible function returns 0
 * (or a count) on success and a negative PT_E* status on failure, and takes a
 * trailing `struct pt_err *err` (may be NULL) that receives a one-line message.
 */
#ifndef PT_CORE_H
#define PT_CORE_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#define PT_VERSION "0.1.0"

/*
 * Status codes. Each is minus the process exit code that cli/ maps it to
 * (docs/exit-codes.md); cli_exit_code() holds the one table.
 */
enum pt_status {
    PT_OK = 0,
    PT_ECHECK = -1,      /* a check / --fail-on gate found drift */
    PT_EUSAGE = -64,     /* unknown option, missing argument */
    PT_EDATA = -65,      /* malformed input data, invalid identifier */
    PT_ENOINPUT = -66,   /* input file missing or unreadable */
    PT_EUNAVAIL = -69,   /* database or driver unavailable */
    PT_EINTERNAL = -70,  /* internal error (a bug, or out of memory) */
    PT_ECANTCREAT = -73, /* output exists without --force, or cannot create */
    PT_EIO = -74,        /* I/O error while writing */
    PT_EPERM = -77,      /* permission denied, authentication */
    PT_EINTR = -130,     /* interrupted */
};

/* An error: status code plus one line of text (lowercase, no full stop). */
struct pt_err {
    int code;       /* a PT_E* status, PT_OK when clear */
    char msg[1024]; /* NUL-terminated message */
};

/* Set *err (if not NULL) and return code. */
/*
 * Messages quote values ('x'); a quoted value longer than PT_MSG_QUOTE_MAX
 * bytes is cut to PT_MSG_QUOTE_KEEP bytes and "..." by err_set() and cli/'s
 * printers (pt_msg_shorten in place; pt_msg_vformat = vsnprintf + that).
 */
#define PT_MSG_QUOTE_MAX 256
#define PT_MSG_QUOTE_KEEP 200
void pt_msg_shorten(char *s);
void pt_msg_vformat(char *dst, size_t cap, const char *fmt, va_list ap)
    __attribute__((format(printf, 3, 0)));
int err_set(struct pt_err *err, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Prefix the existing message with "<context>: " and return err->code. */
int err_prefix(struct pt_err *err, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Clear to PT_OK / empty message. */
void err_clear(struct pt_err *err);
/*
 * Libraries name no front-end option (docs/architecture.md#errors): a
 * message names the request field at fault in backquotes, `table`,
 * `page_size` (its name in the request struct). A front end rewrites each
 * with pt_msg_fields: map(ctx, field) returns what to print instead (the
 * option the user typed, "--table"), or NULL to print the bare name.
 * Names inside a quoted value ('...') are left alone. In place, cut to
 * cap bytes.
 */
typedef const char *pt_field_map_fn(void *ctx, const char *field);
void pt_msg_fields(char *msg, size_t cap, pt_field_map_fn *map, void *ctx);
/* Short name of a status, e.g. "bad input data", for diagnostics. */
const char *err_status_name(int code);

/* ---- numbers and byte sizes ------------------------------------------- */

/*
 * Parse a byte size: digits with an optional suffix K, M, G or T (powers of
 * 1024, case-insensitive, optional trailing "B" or "iB"). "8K" = 8192.
 * Rejects empty strings, signs, fractions, garbage and overflow (PT_EDATA).
 * `what` names the subject in the message, e.g. "--memory".
 */
int pt_size_parse(const char *s, uint64_t *out, const char *what,
                  struct pt_err *err);
/*
 * Parse a comma-separated list of byte sizes into vals[0..max). Returns the
 * number parsed (>= 1) or a negative status.
 */
int pt_size_list_parse(const char *s, uint64_t *vals, size_t max,
                       const char *what, struct pt_err *err);
/* Format bytes as "8K", "64M", "1.5G" or "1234" into buf; returns buf. */
char *pt_size_format(uint64_t bytes, char *buf, size_t len);
/*
 * A measure (not a count) as every CSV pagetune writes it
 * (docs/formats.md#csv): rounded to 6 decimals, trailing zeros and a
 * trailing point dropped, never an exponent: "0.5", "0", "39344.21",
 * "0.000123". "" when v is NaN or infinite. Returns buf; 400 bytes hold
 * any finite double.
 */
const char *pt_csv_num(double v, char *buf, size_t len);
/*
 * Figures for a reader (figure.c): the one form of each, used by the
 * terminal summary, progress lines and report.html alike. Each writes into
 * buf (truncated to len) and returns buf.
 *   pt_fig_page: a page size, "16K" ("512 B" when not whole kilobytes);
 *   pt_fig_count: a count with thousands separators, "65,536";
 *   pt_fig_pool: a buffer pool, "1,000 pages of 16K (15.6M)" (the memory
 *     as pt_size_format writes it);
 *   pt_fig_change: a change in percent, "+12.3 %", "-84.0 %" ("n/a" for
 *     NaN; one that rounds to nothing is "+0.0 %");
 *   pt_fig_change_range: with its range, "+166.5 % [+116.7, +216.3]" (the
 *     plain change when lo or hi is NaN).
 */
char *pt_fig_page(uint64_t page_size_bytes, char *buf, size_t len);
char *pt_fig_count(uint64_t n, char *buf, size_t len);
char *pt_fig_pool(uint64_t pages, uint64_t page_size_bytes, char *buf,
                  size_t len);
char *pt_fig_change(double pct, char *buf, size_t len);
char *pt_fig_change_range(double pct, double lo, double hi, char *buf,
                          size_t len);
/* Strict unsigned decimal (no sign, no suffix); PT_EDATA on anything else. */
int pt_u64_parse(const char *s, uint64_t *out, const char *what,
                 struct pt_err *err);
/* Strict finite double; PT_EDATA on garbage, NaN, inf. */
int pt_double_parse(const char *s, double *out, const char *what,
                    struct pt_err *err);

/* ---- atomic output files ---------------------------------------------- */

/*
 * An output file written atomically: data goes to a temporary file in the
 * same directory, and pt_afile_commit() flushes, fsyncs and renames it over
 * the target; pt_afile_abort() removes it. A failed or interrupted run never
 * leaves a partial target. "-" means stdout; a target that exists and is not
 * a regular file (a device such as /dev/full, a FIFO) is written in place.
 *
 * While a temporary file is open its path is registered (cleanup.c), so a
 * second interrupt removes it before the program exits.
 *
 * The temporary file is created like any file (mode 0666 minus the umask);
 * with `force`, an existing regular file's mode is kept. A symbolic link at
 * `path`, dangling or not, counts as an existing output.
 */
struct pt_afile {
    FILE *fp;      /* write here between open and commit */
    char *path;    /* target path (owned) */
    char *tmp;     /* temporary path, NULL when writing in place (owned) */
    int slot;      /* pt_tmpfile_register slot, -1 if none */
    int is_stdout; /* fp is stdout: commit only flushes */
};

/*
 * Open `path` for atomic writing. Without `force`, an existing regular file
 * or symbolic link is refused (PT_ECANTCREAT, left untouched). PT_ECANTCREAT
 * also when the temporary file cannot be created.
 */
int pt_afile_open(struct pt_afile *af, const char *path, int force,
                  struct pt_err *err);
/*
 * Flush, fsync, rename. On failure the target is untouched (PT_EIO). Once an
 * interrupt was recorded (pt_interrupted) nothing is renamed: the temporary
 * file is removed and PT_EINTR returned. stdout is only flushed.
 */
int pt_afile_commit(struct pt_afile *af, struct pt_err *err);
/*
 * Commit several files as one set (create.sql and rollback.sql): all are
 * flushed, fsynced and closed, and the interruption flag read, before the
 * first rename, so a signal cannot split the set. On any failure before
 * the renames nothing is renamed; every file is closed either way.
 */
int pt_afile_commit_set(struct pt_afile *const *afs, size_t n,
                        struct pt_err *err);
/* Discard: close and remove the temporary file. Accepts the zero state. */
void pt_afile_abort(struct pt_afile *af);
/*
 * Refuse early (before any work) if `path` exists as a regular file or a
 * symbolic link (dangling or not) and `force` is not set: PT_ECANTCREAT.
 * "-" and devices always pass; a directory never does.
 */
int pt_output_check(const char *path, int force, struct pt_err *err);

/* ---- out-dirs replaced as one unit (outdir.c) -------------------------- */

/*
 * A directory of outputs (advise --out-dir; ddl --out-dir writes its two
 * files into a directory that may hold the DBA's own, one atomic file each)
 * replaced as one unit (docs/architecture.md#out-dir). pt_outdir_begin()
 * creates an
 * empty sibling staging directory ".<name>.pagetune.XXXXXX" beside `path`;
 * the command writes its files there (pt_outdir_file); pt_outdir_commit()
 * swaps the staging directory in: renameat2(RENAME_EXCHANGE) where the
 * kernel and file system offer it, else the old directory is moved aside and
 * the new one renamed in with signals blocked between the two renames. The
 * old set is then removed. Whatever happens, `path` holds the old set (or
 * nothing, if there was none) or the complete new set: never a mix, never
 * an empty new directory. pt_outdir_abort() removes the staging directory.
 *
 * The staging directory is registered (pt_tmpdir_register), so a second
 * interrupt removes it too. Its mode is the old directory's, or 0777 minus
 * the umask. The directory replaced is the whole directory: files in it that
 * the command does not write are not carried over.
 */
struct pt_outdir {
    char *path;  /* the target directory (owned) */
    char *stage; /* the staging directory, NULL when not begun (owned) */
    int slot;    /* pt_tmpdir_register slot of stage, -1 if none */
    int n_files; /* files named through pt_outdir_file */
};

/*
 * Begin replacing `path`. Without `force`, an existing non-empty directory
 * is refused (PT_ECANTCREAT); a path that exists and is not a directory is
 * always refused (PT_ECANTCREAT), as is a staging directory that cannot be
 * made. On failure *od is in the zero state. Not thread-safe (it reads
 * the umask): call it before the command starts threads.
 */
int pt_outdir_begin(struct pt_outdir *od, const char *path, int force,
                    struct pt_err *err);
/*
 * The path of file `name` (no '/') inside the staging directory, into buf
 * (PT_EINTERNAL if it does not fit). Write it with pt_afile_open(.., 1, ..).
 */
int pt_outdir_file(struct pt_outdir *od, const char *name, char *buf,
                   size_t len, struct pt_err *err);
/*
 * Swap the staging directory in (see above) and release *od. A staging
 * directory with no file in it is not swapped in: PT_EINTERNAL, the old set
 * stays. PT_EIO if the swap fails (the old set stays); PT_EINTR, nothing
 * swapped, once an interrupt was recorded. *od is released either way.
 */
int pt_outdir_commit(struct pt_outdir *od, struct pt_err *err);
/* Remove the staging directory and release *od. Accepts the zero state. */
void pt_outdir_abort(struct pt_outdir *od);

/* ---- path identity (pathid.c) ----------------------------------------- */

/*
 * The files and directories one run reads and writes, to refuse before any
 * work a run that would write over one of its own inputs or outputs
 * (docs/exit-codes.md#collisions): cli/ collects a command's paths from its
 * option table (cli_paths_check) and checks every pair.
 *
 * Each path is resolved when added: realpath(3) of the file, or of its
 * directory plus the last component when the file does not exist yet (a
 * missing directory is resolved the same way; a dangling symbolic link is
 * followed to what it names), and its device and inode when it exists.
 * Two paths name the same file when both exist as regular files with the
 * same device and inode (hard and symbolic links, "./a" and "a"), or else
 * have the same resolved name; devices and FIFOs
 * (written in place) never do. A path is inside an out-dir when the
 * directory (same device and inode) is one of its resolved name's
 * ancestors, or, while the directory does not exist, when the directory's
 * resolved name is a prefix of it. "-" (stdin, stdout) and NULL are never
 * added, so they never clash.
 */
enum pt_path_role {
    PT_PATH_IN,     /* a file the run reads */
    PT_PATH_OUT,    /* a file the run writes, replaces or appends to */
    PT_PATH_OUTDIR, /* a directory replaced as one unit (pt_outdir_*):
                       nothing inside it survives the run */
};
struct pt_path {
    char *opt;   /* option naming it, "-o", "--sizes" (owned) */
    char *given; /* the path as given (owned) */
    char *real;  /* resolved name; NULL: directory missing (owned) */
    enum pt_path_role role;
    int exists, regular, is_dir; /* stat(2) of the path, links followed */
    uint64_t dev, ino;           /* when it exists */
};
struct pt_pathset {
    struct pt_path *p; /* n entries (owned) */
    size_t n, cap;
};
void pt_pathset_init(struct pt_pathset *s);
/* Free what the set holds; back to the init state. Accepts the zero state. */
void pt_pathset_release(struct pt_pathset *s);
/*
 * Add `path`, named by option `opt` (both copied), resolved now. NULL, ""
 * and "-" are ignored.
 * PT_EINTERNAL when out of memory.
 */
int pt_pathset_add(struct pt_pathset *s, const char *opt, const char *path,
                   enum pt_path_role role, struct pt_err *err);
/*
 * Check every pair: an output naming the same file as an input or another
 * output, or any path inside an out-dir, is PT_EUSAGE with one line naming
 * both options and the path ("-o and --sizes name the same file 's.json'",
 * "--workload 'X/w.yaml' lies inside --out-dir 'X', which is replaced as
 * one unit"). Two inputs never clash. 0 when there is no clash.
 */
int pt_pathset_check(const struct pt_pathset *s, struct pt_err *err);

/* ---- interruption and temporary paths (cleanup.c) ---------------------- */

/*
 * The interruption model (pagetune(1), SIGNALS): the first SIGINT, SIGTERM
 * or SIGHUP is only recorded (pt_interrupt_note, async-signal-safe); the
 * work loops poll pt_interrupted() and unwind through their normal cleanup;
 * a second signal calls pt_cleanup_signal() and exits at once.
 *
 * The one stop signal of every library (docs/architecture.md#stop): a
 * front end raises it with pt_interrupt_note(); a library's long loop
 * (a fetch loop, a simulator or replay pass, a trace read, a wait) polls
 * pt_interrupted() or pt_interrupt_check() itself, at least every few
 * milliseconds of work, and returns PT_EINTR through its normal cleanup.
 * No request carries a cancel hook, and progress callbacks return void:
 * they only report, they never stop a run.
 */
/*
 * Async-signal-safe and atomic (two threads' handlers cannot both be
 * first): record `sig` unless a signal was recorded already. Returns 0 when
 * `sig` is the first, else the signal recorded before.
 */
int pt_interrupt_note(int sig);
/*
 * A progress report for a caller's display: how far a long loop got (the
 * bytes of a trace consumed and its size, 0 when unknown; or the requests
 * or rows done and the total, 0 when unknown). It only reports: it cannot
 * stop the run, the loop polls pt_interrupted() for that.
 */
typedef void pt_progress_fn(void *ctx, uint64_t done, uint64_t total);
/* The first signal recorded, 0 if none. A relaxed atomic load: cheap
 * enough for a hot loop every 2^16 iterations, safe from any thread. */
int pt_interrupted(void);
/* PT_EINTR with "interrupted" in err once a stop was recorded, else 0. */
int pt_interrupt_check(struct pt_err *err);
/*
 * Forget the recorded signal, so one process can run a second request
 * after an interrupted one (a long-lived front end, the unit tests). Not
 * async-signal-safe with respect to pt_interrupt_note's "first" rule: call
 * it between runs, never while a library is running.
 */
void pt_interrupt_reset(void);
/*
 * The run's outputs are in place (an out-dir swapped in, pt_outdir_commit):
 * from then on a signal no longer makes the run a failure; cli/main.c exits
 * 0 and names the signal (pagetune(1), SIGNALS). Async-signal-safe.
 */
void pt_commit_note(void);
int pt_committed(void);
/*
 * Register a temporary file (pt_afile does) or a temporary directory the
 * program created (mkdtemp) so that pt_cleanup_signal() and
 * pt_cleanup_all() remove it; unregister it once removed, renamed or kept.
 * Returns a slot (>= 0) or -1 when the table is full or the path too long
 * (the path is then only removed by the normal path). Unregister accepts -1.
 */
int pt_tmpfile_register(const char *path);
void pt_tmpfile_unregister(int slot);
int pt_tmpdir_register(const char *path);
void pt_tmpdir_unregister(int slot);
/*
 * mkdtemp "$TMPDIR/pagetune-<tag>.XXXXXX" (TMPDIR unset or empty: /tmp)
 * into path[len] and register it (*slot, -1 if the table is full).
 * PT_ECANTCREAT when it cannot be made.
 */
int pt_tmpdir_make(const char *tag, char *path, size_t len, int *slot,
                   struct pt_err *err);
/* The same in directory `parent` (store/ puts a store on disk there). */
int pt_tmpdir_make_in(const char *parent, const char *tag, char *path,
                      size_t len, int *slot, struct pt_err *err);
/*
 * Create a marked temporary directory from template `path` (ending in
 * XXXXXX, replaced): the lock file "<path>.lock" beside it is created and
 * flock(2)ed first and held until the slot is unregistered (which unlinks
 * it) or the process dies. Registers it (*slot). PT_ECANTCREAT.
 */
int pt_tmpdir_create(char *path, int *slot, struct pt_err *err);
/*
 * Remove the leftovers of killed runs in directory `parent`: every marked
 * directory ("pagetune-*.XXXXXX" or ".*.pagetune.XXXXXX", and its ".old")
 * whose lock file is free, with the lock file. Unmarked directories and
 * held locks are left alone. Errors are ignored (best effort).
 */
void pt_tmpdir_reclaim(const char *parent);
/* Remove a temporary directory with its contents, then unregister slot
   (unregistering a marked directory drops its lock file). */
void pt_tmpdir_remove(const char *path, int slot);
/*
 * Remove directory `path` with its contents (nesting up to 8 levels),
 * without following symbolic links; async-signal-safe. 0 when `path` is
 * gone (or never was), -1 otherwise.
 */
int pt_rmtree(const char *path);
/*
 * Async-signal-safe: remove every registered temporary file and directory
 * (the table stays as it is; the caller then _exits).
 */
void pt_cleanup_signal(void);
/*
 * The normal-path sweep before exit: remove whatever is still registered
 * and empty the tables (a path a command forgot to unregister).
 */
void pt_cleanup_all(void);

/* ---- JSON (jansson) --------------------------------------------------- */

/*
 * Load a JSON document. Missing/unreadable → PT_ENOINPUT; syntax error →
 * PT_EDATA naming "file:line:column". Caller owns *out (json_decref).
 */
int pt_json_load(const char *path, json_t **out, struct pt_err *err);
/* Same, from a memory buffer; `name` is used in messages. */
int pt_json_loadb(const char *buf, size_t len, const char *name, json_t **out,
                  struct pt_err *err);
/*
 * Write `doc` (pretty, key order preserved, trailing newline) to fp; a real
 * holding a whole number below 2^53 is written as an integer (16384, never
 * 16384.0). PT_EIO on a write error, PT_EINTERNAL out of memory.
 */
int pt_json_dumpf(const json_t *doc, FILE *fp, struct pt_err *err);
/*
 * The same text as pt_json_dumpf without the trailing newline, in a string
 * the caller frees (free); NULL when out of memory.
 */
char *pt_json_dumps(const json_t *doc);
/*
 * Rewrite in place, as the writers above do on a copy, every real of `doc`
 * holding a whole number below 2^53 as an integer. 0, or -1 when out of
 * memory (doc partly rewritten; numerically the same).
 */
int pt_json_whole_numbers(json_t *doc);
/* Write `doc` to `path` atomically ("-" = stdout). */
int pt_json_write_file(const json_t *doc, const char *path, int force,
                       struct pt_err *err);
/*
 * Typed getters for documents read from files: a missing key or wrong type
 * is PT_EDATA naming `ctx` (the file) and the key. Numbers accept integer
 * or real JSON values.
 */
int pt_json_get_num(const json_t *obj, const char *key, double *out,
                    const char *ctx, struct pt_err *err);
int pt_json_get_u64(const json_t *obj, const char *key, uint64_t *out,
                    const char *ctx, struct pt_err *err);
int pt_json_get_str(const json_t *obj, const char *key, const char **out,
                    const char *ctx, struct pt_err *err);
/*
 * A JSON number holding a whole value: an integer, or a real such as
 * 1000.0 whose value is whole and below 2^53 in magnitude (writers may
 * emit either form, docs/formats.md). 1 with *out set, else 0.
 */
int pt_json_whole(const json_t *v, json_int_t *out);
/* Same, but a missing key leaves *out unchanged and returns 0. */
int pt_json_opt_num(const json_t *obj, const char *key, double *out,
                    const char *ctx, struct pt_err *err);
int pt_json_opt_u64(const json_t *obj, const char *key, uint64_t *out,
                    const char *ctx, struct pt_err *err);
int pt_json_opt_str(const json_t *obj, const char *key, const char **out,
                    const char *ctx, struct pt_err *err);

/*
 * Which of pagetune's documents `doc` is, by the members that mark each
 * (docs/formats.md): "sizes" ('histogram' or 'values' with 'p50'),
 * "monitor" ('current' and 'summary'), "recommendation" ('candidates' and
 * 'decided_by'), "simulation" or "replay" ('trace' and 'results'; replay
 * with 'rounds'); NULL for none of them. For the one-line error of a
 * document given to the wrong option: pt_json_wrong_doc().
 */
const char *pt_json_doc_kind(const json_t *doc);
/*
 * When doc is another of pagetune's documents than `want`, PT_EDATA with
 * "NAME is a KIND document (it has 'a' and 'b'), not a WANT document"
 * (the option expecting `want` names itself through NAME); else 0.
 */
int pt_json_wrong_doc(const json_t *doc, const char *want, const char *name,
                      struct pt_err *err);

/* ---- YAML profiles (libyaml) ------------------------------------------ */

/*
 * Load a YAML file as a JSON tree: mappings → objects, sequences → arrays,
 * plain scalars that read as integers, reals, true/false or null become
 * those; quoted scalars stay strings. Anchors/aliases are refused.
 * Missing file → PT_ENOINPUT; YAML error → PT_EDATA "file:line:col: msg".
 * Caller owns *out.
 */
int prof_load(const char *path, json_t **out, struct pt_err *err);
/* Same, from memory (used by the fuzzers and tests). */
int prof_loadb(const char *buf, size_t len, const char *name, json_t **out,
               struct pt_err *err);
/*
 * The data directory holding profiles/ and ddl_templates/:
 * $PAGETUNE_DATA_DIR if set, else the compiled-in install path if it exists,
 * else ../share/pagetune beside the executable. Returns a static-lifetime or
 * environment string; never NULL.
 */
const char *pt_data_dir(void);
/*
 * Resolve a profile: if `name` contains '/' or ends in ".yaml"/".yml" it is
 * a path; otherwise "<data>/profiles/<kind>/<name>.yaml". Writes into buf.
 * A name with no such file is PT_EUSAGE, one line listing the profiles of
 * `kind` there and the closest one (pt_suggest): "no workloads profile
 * 'article-5k' in DIR/profiles/workloads (there: article-10k, ...); did
 * you mean 'article-4k'?".
 */
int prof_resolve(const char *kind, const char *name, char *buf, size_t len,
                 struct pt_err *err);
/* prof_resolve + prof_load. */
int prof_load_named(const char *kind, const char *name, json_t **out,
                    struct pt_err *err);

/* ---- did you mean (suggest.c) ------------------------------------------ */

/*
 * Optimal string alignment distance between a and b, without case: each
 * insertion, deletion, substitution or swap of two neighbouring characters
 * costs 1. (size_t)-1 when either is longer than 64 bytes.
 */
size_t pt_edit_distance(const char *a, const char *b);
/*
 * The known name closest to a mistyped one: init with the given name, add
 * every candidate (borrowed: they must outlive the struct), then best()
 * is the closest within a third of the given name's length (at least 1
 * edit), the first added on a tie, or NULL when none is that close.
 */
#define PT_SUGGEST_MAX_PREFIXED 8
struct pt_suggest {
    const char *given;    /* the mistyped name (borrowed) */
    const char *best;     /* closest candidate so far, or NULL */
    size_t best_distance; /* its distance, (size_t)-1 without one */
    /* the candidates the given name begins (an ambiguous abbreviation:
       're' of recommend and replay), the first PT_SUGGEST_MAX_PREFIXED */
    const char *prefixed[PT_SUGGEST_MAX_PREFIXED];
    size_t n_prefixed; /* all of them, counted past the array */
};
void pt_suggest_init(struct pt_suggest *s, const char *given);
void pt_suggest_add(struct pt_suggest *s, const char *candidate);
const char *pt_suggest_best(const struct pt_suggest *s);
/*
 * The hint for a name that is not known: "did you mean X?" with the
 * closest candidate (unless it is one of several the name begins: 'p' of
 * p0 and p1) or the one candidate the name begins, else, when the name
 * abbreviates two or more,
 * "it abbreviates A, B and C: give more of it" (each name written as
 * quote + name + quote, quote "" or "'", after the prefix "--" for
 * options), else "" when nothing is close. Written to buf (always
 * terminated); returns buf.
 */
char *pt_suggest_hint(const struct pt_suggest *s, const char *prefix,
                      const char *quote, char *buf, size_t len);

/* ---- table names: --table [SCHEMA.]TABLE (ident.c) --------------------
 *
 * The one parser of a table name given on the command line (sample,
 * monitor's reconciliation, ddl, advise) and the one way a name is written
 * into SQL. A part is either unquoted, a letter or '_' then letters,
 * digits, '_', '$' or '#' (the engine folds its case), or quoted between
 * double quotes or backticks, the quote written twice inside, and kept
 * exactly as written: "order"."user", `my db`.t, "a.b".c. A name is one or
 * two parts (SCHEMA.TABLE; MariaDB's database, SQLite's attached schema).
 */

#define PT_IDENT_MAX                                                           \
    256 /* bytes of one part (MariaDB: 64 characters of                        \
           up to 4 bytes), before any engine's limit */

struct pt_qname {
    char schema[PT_IDENT_MAX + 1]; /* "" = the connection's default */
    char table[PT_IDENT_MAX + 1];
    int schema_quoted; /* 1: written quoted, case kept */
    int table_quoted;
};

/* How a dialect writes an identifier: delimiters and case folding. */
struct pt_quote_rule {
    const char *open, *close; /* "" = the dialect cannot quote */
    const char *escape;       /* how `close` is written inside a name */
    int fold;                 /* +1 upper, -1 lower, 0 case kept */
};

/*
 * Parse `s` into *q. PT_EUSAGE naming `what` (e.g. "--table") for an empty
 * name or part, a control byte, an unclosed quote, more than two parts, an
 * unquoted part with characters that need quoting, or a part over
 * PT_IDENT_MAX bytes. Nothing is looked up: no engine is needed.
 */
int pt_qname_parse(struct pt_qname *q, const char *s, const char *what,
                   struct pt_err *err);
/* Set *q to the unquoted one-part name `table` (a default such as SESSIONS);
 * PT_EUSAGE as pt_qname_parse. */
int pt_qname_set(struct pt_qname *q, const char *table, struct pt_err *err);
/*
 * The name as the engine stores it: unquoted parts folded by `fold` (+1
 * upper, -1 lower, 0 kept), quoted ones as written. Returns *q's copy with
 * both quoted flags set (the name is now exact).
 */
struct pt_qname pt_qname_exact(const struct pt_qname *q, int fold);
/*
 * Check each part against an engine's limit: at most max_bytes bytes, or
 * (max_chars > 0) at most max_chars UTF-8 characters. PT_EUSAGE naming
 * `what` and `engine`.
 */
int pt_qname_check_len(const struct pt_qname *q, size_t max_bytes,
                       size_t max_chars, const char *engine, const char *what,
                       struct pt_err *err);
/*
 * Write identifier `exact` (already folded) the rule's way into out:
 * between open and close, each `close` inside written as `escape`; as it
 * is when the rule cannot quote. PT_EINTERNAL if out_len is too small.
 */
int pt_ident_quote(const struct pt_quote_rule *r, const char *exact, char *out,
                   size_t out_len, struct pt_err *err);
/*
 * Write *q as SQL: each part folded (pt_qname_exact, r->fold) and quoted
 * (pt_ident_quote), joined by '.': "order"."user". PT_EINTERNAL if out_len
 * is too small.
 */
int pt_qname_quote(const struct pt_quote_rule *r, const struct pt_qname *q,
                   char *out, size_t out_len, struct pt_err *err);
/* *q for messages and documents: parts that need it quoted with '"',
 * others bare ("order"."user", public.sessions). Truncated to len. */
void pt_qname_format(const struct pt_qname *q, char *out, size_t len);
/*
 * `s` as an SQL string literal: between single quotes, a quote written
 * twice, and (backslash_escapes, MariaDB's default sql_mode) a backslash
 * too. PT_EINTERNAL if out_len is too small.
 */
int pt_sql_string(const char *s, int backslash_escapes, char *out,
                  size_t out_len, struct pt_err *err);

/* ---- text for a terminal (text.c) -------------------------------------- */

/*
 * The width text for a person is laid out at when it goes to no terminal
 * and COLUMNS is not set: a pipe, a file (pagetune(1), OUTPUT FORMATS).
 */
#define PT_TEXT_PIPE_WIDTH 80
/* Display columns of the first `len` bytes of s: UTF-8 continuation bytes
   and ANSI escape sequences ("\033[1m") take none. */
size_t pt_text_width(const char *s, size_t len);
/*
 * Print text wrapped at spaces to `width` display columns (0 = no limit),
 * `col` columns of the line being already used; continuation lines are
 * indented by `indent`. Newlines in text are spaces; a word wider than a
 * line is cut (the only split). Ends the line.
 */
void pt_text_wrap(FILE *fp, const char *text, size_t col, size_t indent,
                  size_t width);

/*
 * A table of strings to lay out as text; everything is borrowed. cells is
 * row-major, n_rows * n_cols, NULL = "". A cell may hold '\n'.
 */
struct pt_text_table {
    size_t n_cols, n_rows;
    char *const *headers;   /* n_cols */
    char *const *cells;     /* n_rows * n_cols */
    const int *right_align; /* n_cols: numbers align right; NULL = none */
    const char *title;      /* a line above the table, wrapped; or NULL */
};
/*
 * How a table fits `width` display columns (0 = no limit) without splitting
 * a word or a number: in columns (text columns wrap at spaces, down to
 * their longest word); transposed (one line per column, one column per row,
 * the first column's cells heading them) when the columns do not fit and
 * there are two rows or more (or none: the headers one a line); as records
 * ("header  value" blocks) else.
 */
enum pt_text_layout { PT_TEXT_COLUMNS, PT_TEXT_TRANSPOSED, PT_TEXT_RECORDS };
enum pt_text_layout pt_text_table_layout(const struct pt_text_table *t,
                                         size_t width);
/*
 * Write the table in the layout pt_text_table_layout() chooses. No line is
 * wider than `width` (a word wider than a whole line is cut, the last
 * resort) and none ends in a space. 0, or -1 when out of memory.
 */
int pt_text_table_write(const struct pt_text_table *t, size_t width, FILE *fp);

/* ---- small utilities -------------------------------------------------- */

/*
 * The one limit on a document read whole (sizes, monitor, recommendation,
 * simulation and replay JSON, profiles, calibrations, points CSV, size
 * lists, templates): PT_DOC_MAX_DEFAULT bytes, or $PAGETUNE_MAX_INPUT (a
 * byte size, "1G"). Streamed traces are not read whole and not limited.
 * Returns 0 with err set (PT_EUSAGE) when the variable is not a size.
 */
#define PT_DOC_MAX_ENV "PAGETUNE_MAX_INPUT"
#define PT_DOC_MAX_DEFAULT (64ull << 20)
uint64_t pt_doc_max_bytes(struct pt_err *err);
/*
 * Read a whole file ("-": standard input) into a NUL-terminated buffer
 * (caller frees). A file larger than pt_doc_max_bytes() is PT_EDATA naming
 * it, found before reading when the size is known, else after reading one
 * byte more than the limit (/dev/zero stops at once).
 */
int pt_file_read(const char *path, char **out, size_t *len, struct pt_err *err);
/* The directory holding `path` ("." for a bare name, "/" at the root). */
void pt_path_dir(const char *path, char *buf, size_t len);
/* Monotonic clock in nanoseconds. */
uint64_t pt_now_ns(void);
/* malloc/calloc/realloc that go through the fault-injection hook. */
void *pt_malloc(size_t n);
void *pt_calloc(size_t n, size_t size);
void *pt_realloc(void *p, size_t n);
char *pt_strdup(const char *s);
/* A growable NUL-terminated string: the text so far is p[0..len). */
struct pt_strbuf {
    char *p;
    size_t len, cap;
};
/* Append n bytes of s (p is never NULL after a success); 0, or
 * PT_EINTERNAL when out of memory, b unchanged. */
int pt_strbuf_add(struct pt_strbuf *b, const char *s, size_t n);
/*
 * Fault injection for tests: after `n` more successful pt_* allocations,
 * fail them (n < 0 disables). Process-wide test hook; never set in
 * production.
 */
void pt_alloc_fail_after(long n);

#endif /* PT_CORE_H */
