/*
 * textfile.h - a whole file in memory, read as TSPLIB-style lines and tokens.
 *
 * wt_file_load and wt_quote (input shown in messages) serve both file
 * readers; the scanner serves the TOUR reader: the file is loaded at once
 * (one read, one allocation), then scanned forward while counting lines, so
 * every error can name "path:line".  Embedded NUL bytes and CRLF line ends
 * are handled.
 */
#ifndef WT_CORE_TEXTFILE_H
#define WT_CORE_TEXTFILE_H

#include <stddef.h>

#include "warptour.h"

/* A printable, one-line excerpt of input for messages: bytes outside
 * printable ASCII become \xNN and text past 32 bytes is cut to "...", so
 * binary garbage or a huge line cannot break or swamp the message. */
typedef struct wt_excerpt {
    char s[140];
} wt_excerpt;

wt_excerpt wt_quote(const char *s, const char *e);

typedef struct wt_textfile {
    const char *path;  /* as given, for messages */
    char *buf;         /* file contents plus a NUL; owned */
    size_t len;        /* bytes of file contents */
    size_t pos;        /* scan position */
    long line;         /* 1-based line number of pos */
    long key_line;     /* line of the last keyword line read */
    char eol;          /* the byte that ends a line: '\n' or '\r' (wt_line_break) */
    wt_excerpt token;  /* the offending token after a failed read, quoted */
} wt_textfile;

/* The byte that ends the lines of [s, s + len): '\r' when the text holds CRs
 * but no LF at all (classic Mac OS text), else '\n' (LF and CRLF: a CR is
 * then a blank, as a stray one inside a line must stay). */
char wt_line_break(const char *s, size_t len);

/* Text files put a line end early; a stream that has none in its first
 * WT_FIRST_LINE_MAX bytes (/dev/zero, a binary file) is refused at once
 * rather than read until memory runs out. */
#define WT_FIRST_LINE_MAX ((size_t)1 << 20)

/* Loads a whole file into a new malloc'ed buffer with a NUL after its *len
 * bytes (the file itself may contain NULs).  WT_STATUS_IO when it cannot be
 * read (a directory included), WT_STATUS_PARSE "path:1: ..." when its first
 * WT_FIRST_LINE_MAX bytes hold no line end, WT_STATUS_OUT_OF_MEMORY. */
wt_status wt_file_load(const char *path, char **data, size_t *len, wt_error *err);

/* Loads path for scanning; errors as wt_file_load. */
wt_status wt_textfile_open(wt_textfile *tf, const char *path, wt_error *err);
void wt_textfile_close(wt_textfile *tf);

/* Reads the next non-blank line as "KEY", "KEY: value" or "KEY : value".
 * Returns 1 with key and *value (trimmed, NUL-terminated, inside the buffer),
 * 0 at end of file or at an "EOF" line, -1 when the line is no keyword line
 * (one holding a NUL byte included: C strings would cut its value short);
 * then tf->token quotes the line.
 * tf->key_line is set to that line's number (tf->line then names the next). */
int wt_textfile_next_keyword(wt_textfile *tf, char *key, size_t key_size, const char **value);

/* Reads the next whitespace-separated integer, across lines.  Returns 1 with
 * *v, 0 at end of file or at an "EOF" token, -1 when the token is not an
 * integer, -2 when it is one too large for long long (both quoted in
 * tf->token). */
int wt_textfile_next_int(wt_textfile *tf, long long *v);

#endif
