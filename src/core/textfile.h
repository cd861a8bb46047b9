/*
 * textfile.h - text files read through a window, or whole, as TSPLIB-style
 * lines and tokens.
 *
 * wt_stream reads a file (plain or gzip-compressed, told by its first
 * bytes, 1f 8b, not by its name) a window of a few MiB at a time, so that
 * the instance readers parse the text as it arrives: a malformed file is
 * refused at its first bad line after reading about as much text as comes
 * before it, and memory follows what was read, not what a header claims.
 * wt_file_load and the scanner (wt_textfile, the TOUR reader's: a tour
 * file is bounded by the instance's real size) load a whole file under the
 * same bounds.  wt_quote shows input in messages.  Every error can name
 * "path:line"; embedded NUL bytes and CRLF line ends are handled.
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

/* What is read is bounded as it is read, so that /dev/urandom, a pipe of
 * endless comment lines or a huge sparse file is refused after its first
 * MiB instead of filling memory.  A file longer than WT_FIRST_LINE_MAX
 * bytes must, within those first bytes, hold a line end (/dev/zero and
 * binary files do not) and at most 1% control bytes other than blanks and
 * line ends (random bytes hold 10%).  A TSPLIB file (tsplib set, or
 * wt_looks_like_tsplib says so of the first MiB) must also hold its header
 * there: a line whose first word ends in _SECTION (NODE_COORD_SECTION,
 * TOUR_SECTION, ...) or is EOF.  The whole file may then take
 * WT_FIRST_LINE_MAX bytes plus WT_BYTES_PER_VALUE bytes for each number a
 * valid file can hold: for an instance 16 per city (coordinates, display
 * data, fixed edges, tours) and for EXPLICIT ones n * n more (the matrix),
 * n the DIMENSION found in the first MiB; for a tour n + 1.  A regular file
 * larger than that is refused without being read, a pipe or device once it
 * has sent that much.  For a gzip file all of this holds for the
 * decompressed text, counted as it is inflated (the compressed size bounds
 * nothing), so a gzip bomb stops at the bound too.  The window is filled
 * whole before the text in it is parsed, so a file whose bound fits in it
 * (small instances) is refused for its length before any parse error. */
#define WT_FIRST_LINE_MAX ((size_t)1 << 20)
#define WT_BYTES_PER_VALUE 64
/* A file that is not TSPLIB (a point file) has no header to bound it by:
 * it may hold at most 1 GiB of text (tens of millions of points), so that
 * a pipe of endless comment lines stops there. */
#define WT_POINT_FILE_MAX ((unsigned long long)1 << 30)
/* The window's usual size; it grows only for a line longer than half of it. */
#define WT_WINDOW ((size_t)4 << 20)

struct wt_source; /* the open file and its inflate state (textfile.c) */

/* A text read through a window: buf holds the text from offset base, len
 * bytes of it, and a NUL after them (the text itself may contain NULs). */
typedef struct wt_stream {
    const char *path;         /* as given, for messages */
    char *buf;                /* the window; NULL after wt_stream_close */
    size_t len, cap;          /* bytes held, bytes the window can hold */
    unsigned long long base;  /* offset in the text of buf[0] */
    unsigned long long size;  /* the text's length, when size_known */
    bool size_known;          /* a buffer, a regular plain file, or read to the end */
    bool end;                 /* buf ends where the text ends */
    bool owned;               /* buf was allocated here (not a caller's buffer) */
    bool tsplib;              /* bounds as for a TSPLIB file (see above) */
    size_t values;            /* as wt_file_load_tsplib's */
    unsigned long long bound; /* the most bytes accepted; 0 until the first MiB is checked */
    wt_status failed;         /* a failed read, returned again by every later call */
    struct wt_source *src;    /* NULL for a caller's buffer */
} wt_stream;

/* Opens path and fills the first window (its first MiB checked, as above).
 * tsplib and values as for wt_file_load_tsplib.  Errors as wt_file_load;
 * on any, s holds nothing to close. */
wt_status wt_stream_open(wt_stream *s, const char *path, bool tsplib, size_t values,
                         wt_error *err);

/* A stream over a caller's buffer of len bytes, all in the window at once
 * (it is read, never written, and must outlive the stream). */
void wt_stream_over(wt_stream *s, const char *data, size_t len);

/* Drops buf[0, keep) and reads more text after what the window holds,
 * growing the window when what is kept fills more than half of it; buf
 * may move.  At the end of the text it changes nothing.  WT_OK, or the
 * failure (as wt_file_load), which every later call returns again. */
wt_status wt_stream_more(wt_stream *s, size_t keep, wt_error *err);

/* Reads the rest of the text, keeping none of it, so that a file is
 * checked to its end (gzip framing, length bound, read errors). */
wt_status wt_stream_drain(wt_stream *s, wt_error *err);

/* Frees the window and closes the file; a closed or zeroed stream is fine. */
void wt_stream_close(wt_stream *s);

/* Loads a whole file into a new malloc'ed buffer with a NUL after its *len
 * bytes (the file itself may contain NULs).  WT_STATUS_IO when it cannot be
 * read (a directory included), WT_STATUS_PARSE "path:1: ..." or "path: ..."
 * when it breaks the bounds above or is a corrupt or truncated gzip file
 * ("path: not a valid gzip file: why", zlib's words), WT_STATUS_OUT_OF_MEMORY. */
wt_status wt_file_load(const char *path, char **data, size_t *len, wt_error *err);

/* As wt_file_load for a TSPLIB file, with the header and size bounds above.
 * values: the most numbers a valid file holds, or 0 to derive it from the
 * DIMENSION in its first MiB (instances). */
wt_status wt_file_load_tsplib(const char *path, size_t values, char **data, size_t *len,
                              wt_error *err);

/* Loads path for scanning (values as wt_file_load); a UTF-8 byte order
 * mark at its start is skipped.  Errors as wt_file_load. */
wt_status wt_textfile_open(wt_textfile *tf, const char *path, size_t values, wt_error *err);
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
