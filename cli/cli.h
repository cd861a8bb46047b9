/*
 * cli.h - what the subcommands of the warptour program share.
 *
 * The CLI uses only the public header: it maps flags onto wt_params, calls
 * the library, and decides what to print and which exit status to return.
 */
#ifndef WT_CLI_H
#define WT_CLI_H

#include <cjson/cJSON.h>
#include <stdint.h>

#include "cli_common.h"

int cmd_solve(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_info(int argc, char **argv);
int cmd_gen(int argc, char **argv);
int cmd_devices(int argc, char **argv);
int cmd_batch(int argc, char **argv);

/* JSON helpers: exact 64-bit integers (cJSON numbers are doubles), text from
 * files and the command line made valid UTF-8 (each stray byte becomes
 * U+FFFD: JSON must be UTF-8, a TSPLIB name or comment need not be), and null
 * for absent values (otherwise as cli_json_add_text). */
void cli_json_add_int64(cJSON *obj, const char *key, int64_t v);
void cli_json_add_uint64(cJSON *obj, const char *key, uint64_t v);
void cli_json_add_text(cJSON *obj, const char *key, const char *s);
void cli_json_add_string_or_null(cJSON *obj, const char *key, const char *s);
void cli_json_add_optimum_and_gap(cJSON *obj, int64_t length, int64_t optimum);
/* Prints obj on one line to stdout and frees it; false, with a message on
 * stderr, if printing failed. */
bool cli_json_print(cJSON *obj);

/* Says on stderr, once whatever the number of calls, that standard output
 * could not be written (errno: why). */
void cli_report_stdout_failure(void);

/* How solve writes a tour (--output-format). */
typedef enum cli_tour_format {
    CLI_TOUR_TSPLIB = 0, /* a TSPLIB TOUR file (the library's writer) */
    CLI_TOUR_LIST,       /* one 1-based city a line */
    CLI_TOUR_CSV         /* a header line "city", then one 1-based city a line */
} cli_tour_format;

/* Parses "tsplib", "list" or "csv"; false for anything else. */
bool cli_tour_format_parse(const char *s, cli_tour_format *out);

/* Writes the tour (0-based cities, n of them) in format to path, "-" being
 * standard output (written directly, then flushed).  A TSPLIB file goes
 * through wt_tour_write_tsplib; list and csv files are written as the
 * library writes its tours: a regular (or new) file as path.part renamed
 * over path, a symbolic link through to its target, anything else
 * directly.  WT_OK, or the failure in err. */
wt_status cli_write_tour(const char *path, cli_tour_format format, const char *name,
                         const char *comment, const int32_t *tour, int n, wt_error *err);

/* Whether path can take a file (--output, --svg): checked before the
 * search, so that its result is not lost to a bad path.  Beyond
 * cli_check_writable, a symbolic link is checked through to its target (a
 * dangling one: its target's folder), by_rename (files written as
 * path.part, then renamed) refuses a folder named path.part, and a FIFO is
 * opened without blocking, refused when no process reads it.  *hold gets
 * that FIFO's descriptor (else -1), for the caller to close once the file
 * is written: its reader then sees no end of file meanwhile.  Prints why
 * not and returns the exit status, or EXIT_OK. */
int cli_check_output(const char *path, bool by_rename, int *hold);

/* A JSON array of the tour's 1-based cities, added to obj as key without
 * building a cJSON node a city (tours may have millions); false when out of
 * memory. */
bool cli_json_add_tour(cJSON *obj, const char *key, const int32_t *tour, int n);

#endif
