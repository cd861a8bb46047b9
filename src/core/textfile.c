/*
 * textfile.c - loading a file (plain or gzip-compressed), scanning it as
 * lines and tokens, quoting it in messages, and telling a TSPLIB file
 * from a point file by its first line.
 */
#include "core/textfile.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <zlib.h>

#include "core/error.h"

char wt_line_break(const char *s, size_t len)
{
    return !memchr(s, '\n', len) && memchr(s, '\r', len) ? '\r' : '\n';
}

static bool has_line_break(const char *s, size_t len)
{
    return memchr(s, '\n', len) || memchr(s, '\r', len);
}

/* Whether [a, a + k) and the upper-case text b agree but for the case of
 * ASCII letters. */
static bool equal_nocase_n(const char *a, const char *b, size_t k)
{
    for (size_t i = 0; i < k; i++)
        if (toupper((unsigned char)a[i]) != b[i]) return false;
    return true;
}

/* Whether the text w occurs in [s, s + len). */
static bool memmem_ascii(const char *s, size_t len, const char *w)
{
    size_t k = strlen(w);
    for (size_t i = 0; i + k <= len; i++)
        if (s[i] == w[0] && memcmp(s + i, w, k) == 0) return true;
    return false;
}

/* Whether the text [s, s + len) starts a line (after blanks) with a word
 * that ends in _SECTION, any case, or is EOF: the end of a TSPLIB header. */
static bool has_header_end(const char *s, size_t len)
{
    const char *e = s + len;
    while (s < e) {
        const char *nl = s;
        while (nl < e && *nl != '\n' && *nl != '\r') nl++;
        while (s < nl && (*s == ' ' || *s == '\t')) s++;
        const char *w = s;
        while (w < nl && (isalnum((unsigned char)*w) || *w == '_')) w++;
        size_t k = (size_t)(w - s);
        if ((k >= 8 && equal_nocase_n(w - 8, "_SECTION", 8)) ||
            (k == 3 && equal_nocase_n(s, "EOF", 3)))
            return true;
        s = nl < e ? nl + 1 : e;
    }
    return false;
}

/* The DIMENSION of the first "DIMENSION : n" line of [s, s + len); 0 when
 * there is none or it is not a positive integer. */
static unsigned long long find_dimension(const char *s, size_t len)
{
    const char *e = s + len;
    while (s < e) {
        const char *nl = s;
        while (nl < e && *nl != '\n' && *nl != '\r') nl++;
        while (s < nl && (*s == ' ' || *s == '\t')) s++;
        if ((size_t)(nl - s) > 9 && memcmp(s, "DIMENSION", 9) == 0) {
            const char *p = s + 9;
            while (p < nl && (*p == ' ' || *p == '\t' || *p == ':')) p++;
            unsigned long long v = 0;
            while (p < nl && isdigit((unsigned char)*p) && v < (1ULL << 40))
                v = v * 10 + (unsigned long long)(*p++ - '0');
            return v;
        }
        s = nl < e ? nl + 1 : e;
    }
    return 0;
}

/* The most bytes a valid file whose first bytes are [s, s + len) may take
 * (textfile.h); values as wt_file_load.  0 when its first MiB names no
 * DIMENSION: the file is then refused, since the reader would refuse its
 * data sections anyway. */
static unsigned long long file_bound(const char *s, size_t len, size_t values)
{
    unsigned long long count = values;
    if (count == 0) {
        unsigned long long n = find_dimension(s, len);
        if (n == 0) return 0;
        bool matrix = memmem_ascii(s, len, "EXPLICIT");
        if (n > (unsigned long long)WT_MAX_CITIES) n = WT_MAX_CITIES;
        if (matrix && n > WT_MAX_EXPLICIT_CITIES) n = WT_MAX_EXPLICIT_CITIES;
        count = 16 * n + (matrix ? n * n : 0);
    }
    return WT_FIRST_LINE_MAX + count * WT_BYTES_PER_VALUE;
}

/* Checks the first WT_FIRST_LINE_MAX bytes of a longer file against the
 * bounds of textfile.h and sets *bound; WT_OK or the failure. */
static wt_status check_first_mib(const char *path, const char *buf, bool tsplib,
                                 size_t values, unsigned long long *bound, wt_error *err)
{
    if (!has_line_break(buf, WT_FIRST_LINE_MAX))
        return wt_fail(err, WT_STATUS_PARSE, "%s:1: no line end in the first %zu bytes: not a "
                       "text file", path, WT_FIRST_LINE_MAX);
    size_t controls = 0;
    for (size_t i = 0; i < WT_FIRST_LINE_MAX; i++) {
        unsigned char c = (unsigned char)buf[i];
        controls += (c < 0x20 && !isspace(c)) || c == 0x7f;
    }
    if (controls > WT_FIRST_LINE_MAX / 100)
        return wt_fail(err, WT_STATUS_PARSE, "%s: %zu control bytes in the first %zu: not a "
                       "text file", path, controls, WT_FIRST_LINE_MAX);
    /* Streams serve point files too: they have no header to bound
     * them by, so they get a fixed one. */
    *bound = WT_POINT_FILE_MAX;
    if (!tsplib && !wt_looks_like_tsplib(buf, WT_FIRST_LINE_MAX)) return WT_OK;
    if (!has_header_end(buf, WT_FIRST_LINE_MAX))
        return wt_fail(err, WT_STATUS_PARSE, "%s: no ..._SECTION or EOF line in the first %zu "
                       "bytes: a TSPLIB header is shorter (not a TSPLIB file?)", path,
                       WT_FIRST_LINE_MAX);
    *bound = file_bound(buf, WT_FIRST_LINE_MAX, values);
    if (*bound == 0)
        return wt_fail(err, WT_STATUS_PARSE, "%s: no 'DIMENSION : <number of cities>' line in "
                       "the first %zu bytes; expected it in the header", path,
                       WT_FIRST_LINE_MAX);
    return WT_OK;
}

static wt_status too_long(const char *path, unsigned long long bound, wt_error *err)
{
    if (bound == WT_POINT_FILE_MAX)
        return wt_fail(err, WT_STATUS_PARSE, "%s: longer than %llu bytes, the most a point "
                       "file may hold (write larger instances as TSPLIB files); not read",
                       path, bound);
    return wt_fail(err, WT_STATUS_PARSE, "%s: longer than %llu bytes, more than a valid file of "
                   "its DIMENSION can need (%d bytes a number); not read", path, bound,
                   WT_BYTES_PER_VALUE);
}

/* Compressed bytes read ahead for inflate at a time. */
#define GZ_IN_SIZE ((size_t)1 << 16)

/* What a stream reads: the file's bytes, or, when they start with gzip's
 * magic bytes 1f 8b (whatever the file's name), what inflate makes of
 * them, so that every bound of textfile.h holds for the decompressed text
 * and a gzip bomb is refused as an endless pipe is.  The first two bytes
 * are read ahead to tell them apart, since a pipe cannot be rewound. */
typedef struct wt_source {
    FILE *f;
    unsigned char head[2]; /* plain: the bytes read ahead, handed out first */
    size_t head_len, head_pos;
    bool gzip;
    bool gzip_end;        /* the last gzip member ended at the end of the file */
    bool gzip_oom;        /* inflate ran out of memory */
    const char *gzip_bad; /* why the compressed data is refused; NULL while fine */
    z_stream z;
    unsigned char *in; /* gzip: compressed bytes read ahead (GZ_IN_SIZE) */
} source;

/* Reads the first bytes of f and sets s up to read it; false when out of
 * memory. */
static bool source_open(source *s, FILE *f)
{
    memset(s, 0, sizeof *s);
    s->f = f;
    s->head_len = fread(s->head, 1, sizeof s->head, f);
    if (s->head_len < 2 || s->head[0] != 0x1f || s->head[1] != 0x8b) return true;
    s->gzip = true;
    s->in = malloc(GZ_IN_SIZE);
    /* 16 + MAX_WBITS: gzip framing only (its header and CRC are checked). */
    if (!s->in || inflateInit2(&s->z, 16 + MAX_WBITS) != Z_OK) {
        free(s->in);
        s->in = NULL;
        s->gzip = false;
        return false;
    }
    memcpy(s->in, s->head, 2);
    s->z.next_in = s->in;
    s->z.avail_in = 2;
    return true;
}

static void source_close(source *s)
{
    if (s->in) {
        inflateEnd(&s->z);
        free(s->in);
    }
    fclose(s->f);
}

/* Refills the compressed input; false at the end of the file or an error. */
static bool source_refill(source *s)
{
    size_t k = fread(s->in, 1, GZ_IN_SIZE, s->f);
    s->z.next_in = s->in;
    s->z.avail_in = (uInt)k;
    return k > 0;
}

/* Reads up to want bytes of text into dst; fewer only at the end of the
 * text or on an error (ferror(s->f), s->gzip_bad, s->gzip_oom). */
static size_t source_read(source *s, char *dst, size_t want)
{
    if (!s->gzip) {
        size_t got = 0;
        while (s->head_pos < s->head_len && got < want) dst[got++] = (char)s->head[s->head_pos++];
        return got + (got < want ? fread(dst + got, 1, want - got, s->f) : 0);
    }
    size_t got = 0;
    while (got < want && !s->gzip_end && !s->gzip_bad && !s->gzip_oom) {
        if (s->z.avail_in == 0 && !source_refill(s)) {
            if (!ferror(s->f))
                s->gzip_bad = "the compressed data ends early (a truncated file?)";
            break;
        }
        size_t chunk = want - got < UINT_MAX ? want - got : UINT_MAX;
        s->z.next_out = (unsigned char *)dst + got;
        s->z.avail_out = (uInt)chunk;
        int r = inflate(&s->z, Z_NO_FLUSH);
        got += chunk - s->z.avail_out;
        if (r == Z_STREAM_END) {
            /* gzip files may hold several members one after the other (cat
             * a.gz b.gz): the text is all of them. */
            if (s->z.avail_in == 0 && !source_refill(s)) s->gzip_end = !ferror(s->f);
            else if (inflateReset(&s->z) != Z_OK) s->gzip_bad = "cannot restart inflate";
            if (ferror(s->f)) break;
        } else if (r == Z_MEM_ERROR) {
            s->gzip_oom = true;
        } else if (r != Z_OK && !(r == Z_BUF_ERROR && s->z.avail_in == 0)) {
            /* zlib's messages are fixed ASCII text ("invalid block type"). */
            s->gzip_bad = s->z.msg ? s->z.msg : "corrupt data";
        }
    }
    return got;
}

/* Records a failure of s and returns it. */
static wt_status stream_failed(wt_stream *s, wt_status st)
{
    s->failed = st;
    return st;
}

/* Gives the window room for cap bytes (and the NUL after them). */
static wt_status stream_grow(wt_stream *s, unsigned long long cap, wt_error *err)
{
    char *bigger = cap < SIZE_MAX / 2 ? realloc(s->buf, (size_t)cap + 1) : NULL;
    if (!bigger)
        return stream_failed(s, wt_fail(err, WT_STATUS_OUT_OF_MEMORY, "%s: out of memory "
                                        "reading the file", s->path));
    s->buf = bigger;
    s->cap = (size_t)cap;
    return WT_OK;
}

/* Reads text into the window until it holds upto bytes (at most its
 * capacity), the text ends, or one byte past the bound has come; then
 * checks the first MiB once it is in (at offset 0: streams drop nothing
 * before that), the bound, and the read itself, in the order the loader
 * always reported them. */
static wt_status stream_fill(wt_stream *s, size_t upto, wt_error *err)
{
    if (upto > s->cap) upto = s->cap;
    size_t want = upto > s->len ? upto - s->len : 0;
    unsigned long long at = s->base + s->len;
    if (s->bound > 0 && s->bound < ULLONG_MAX && s->bound + 1 - at < want)
        want = (size_t)(s->bound + 1 - at);
    size_t got = source_read(s->src, s->buf + s->len, want);
    s->len += got;
    s->buf[s->len] = '\0';
    at += got;
    source *src = s->src;
    bool short_read = got < want;
    if (short_read) s->end = true;
    wt_status st = WT_OK;
    if (s->bound == 0 && at >= WT_FIRST_LINE_MAX) {
        st = check_first_mib(s->path, s->buf, s->tsplib, s->values, &s->bound, err);
        if (st == WT_OK && s->size_known && s->size > s->bound)
            st = too_long(s->path, s->bound, err);
    }
    if (st == WT_OK && s->bound > 0 && at > s->bound) st = too_long(s->path, s->bound, err);
    if (st == WT_OK && short_read) {
        int why = errno;
        if (src->gzip_oom)
            st = wt_fail(err, WT_STATUS_OUT_OF_MEMORY, "%s: out of memory reading the file",
                         s->path);
        else if (ferror(src->f))
            st = wt_fail(err, WT_STATUS_IO, "%s: cannot read: %s", s->path, strerror(why));
        else if (src->gzip_bad)
            st = wt_fail(err, WT_STATUS_PARSE, "%s: not a valid gzip file: %s", s->path,
                         src->gzip_bad);
    }
    if (st != WT_OK) return stream_failed(s, st);
    if (s->end) {
        s->size = at;
        s->size_known = true;
    }
    return WT_OK;
}

wt_status wt_stream_open(wt_stream *s, const char *path, bool tsplib, size_t values,
                         wt_error *err)
{
    if (s) memset(s, 0, sizeof *s);
    if (!s || !path)
        return wt_fail(err, WT_STATUS_INVALID_ARGUMENT, "wt_stream_open: bad arguments");
    s->path = path;
    s->tsplib = tsplib;
    s->values = values;
    s->owned = true;
    FILE *f = fopen(path, "rb");
    if (!f) return wt_fail(err, WT_STATUS_IO, "%s: cannot open: %s", path, strerror(errno));
    struct stat st;
    bool known = fstat(fileno(f), &st) == 0;
    if (known && S_ISDIR(st.st_mode)) { /* fopen takes a folder; its size is no file size */
        fclose(f);
        return wt_fail(err, WT_STATUS_IO, "%s: cannot read: it is a directory", path);
    }
    s->src = malloc(sizeof *s->src);
    if (!s->src || !source_open(s->src, f)) {
        free(s->src);
        s->src = NULL;
        fclose(f);
        return wt_fail(err, WT_STATUS_OUT_OF_MEMORY, "%s: out of memory reading the file", path);
    }
    /* A regular file's size is a hint (files may grow; a compressed one's
     * tells nothing): it sizes a small file's window and lets the parser
     * check a header's counts against it before reading a section. */
    if (known && S_ISREG(st.st_mode) && st.st_size > 0 && !s->src->gzip) {
        s->size = (unsigned long long)st.st_size;
        s->size_known = true;
    }
    /* The first MiB first, checked before anything more is read, then the
     * rest of the window. */
    size_t first = s->size_known && s->size < WT_FIRST_LINE_MAX ? (size_t)s->size + 1
                                                                 : WT_WINDOW;
    wt_status r = stream_grow(s, first, err);
    while (r == WT_OK && !s->end && s->len < WT_FIRST_LINE_MAX) {
        if (s->len == s->cap) r = stream_grow(s, WT_WINDOW, err); /* the file grew */
        if (r == WT_OK) r = stream_fill(s, WT_FIRST_LINE_MAX, err);
    }
    if (r == WT_OK && !s->end) r = stream_fill(s, s->cap, err);
    if (r != WT_OK) wt_stream_close(s);
    return r;
}

void wt_stream_over(wt_stream *s, const char *data, size_t len)
{
    memset(s, 0, sizeof *s);
    s->path = "(buffer)";
    s->buf = (char *)data; /* never written: owned is false */
    s->len = s->cap = len;
    s->size = len;
    s->size_known = true;
    s->end = true;
}

wt_status wt_stream_more(wt_stream *s, size_t keep, wt_error *err)
{
    if (s->failed != WT_OK) return s->failed;
    if (s->end) return WT_OK;
    if (keep > 0) {
        memmove(s->buf, s->buf + keep, s->len - keep);
        s->base += keep;
        s->len -= keep;
    }
    if (s->len > s->cap / 2) {
        wt_status st = stream_grow(s, 2 * (unsigned long long)s->cap, err);
        if (st != WT_OK) return st;
    }
    return stream_fill(s, s->cap, err);
}

wt_status wt_stream_drain(wt_stream *s, wt_error *err)
{
    wt_status st = s->failed;
    while (st == WT_OK && !s->end) st = wt_stream_more(s, s->len, err);
    return st;
}

void wt_stream_close(wt_stream *s)
{
    if (s->src) source_close(s->src);
    free(s->src);
    if (s->owned) free(s->buf);
    s->src = NULL;
    s->buf = NULL;
}

/* Loads a whole file plus a terminating NUL through a stream that drops
 * nothing: the window grows to the file's size when known (+1: the end is
 * seen without growing), else doubles, never past the bound (+1: a longer
 * file is seen to be one). */
static wt_status load(const char *path, bool tsplib, size_t values, char **data, size_t *len,
                      wt_error *err)
{
    if (!path || !data || !len)
        return wt_fail(err, WT_STATUS_INVALID_ARGUMENT, "wt_file_load: bad arguments");
    wt_stream s;
    wt_status st = wt_stream_open(&s, path, tsplib, values, err);
    while (st == WT_OK && !s.end) {
        unsigned long long next = 2 * (unsigned long long)s.cap;
        if (s.size_known && s.size + 1 > s.cap) next = s.size + 1;
        if (s.bound > 0 && s.bound < ULLONG_MAX && next > s.bound + 1) next = s.bound + 1;
        if (next > s.cap) st = stream_grow(&s, next, err);
        if (st == WT_OK) st = stream_fill(&s, s.cap, err);
    }
    if (st != WT_OK) {
        wt_stream_close(&s);
        return st;
    }
    *data = s.buf;
    *len = s.len;
    s.buf = NULL;
    wt_stream_close(&s);
    return WT_OK;
}

wt_status wt_file_load(const char *path, char **data, size_t *len, wt_error *err)
{
    return load(path, false, 0, data, len, err);
}

wt_status wt_file_load_tsplib(const char *path, size_t values, char **data, size_t *len,
                              wt_error *err)
{
    return load(path, true, values, data, len, err);
}

wt_status wt_textfile_open(wt_textfile *tf, const char *path, size_t values, wt_error *err)
{
    memset(tf, 0, sizeof *tf);
    tf->path = path;
    tf->line = 1;
    wt_status st = wt_file_load_tsplib(path, values, &tf->buf, &tf->len, err);
    if (st != WT_OK) return st;
    /* A UTF-8 byte order mark is an editor's habit, not content (as for
     * instances, tsplib_read.c). */
    if (tf->len >= 3 && memcmp(tf->buf, "\xef\xbb\xbf", 3) == 0) tf->pos = 3;
    tf->eol = wt_line_break(tf->buf + tf->pos, tf->len - tf->pos);
    return WT_OK;
}

void wt_textfile_close(wt_textfile *tf)
{
    free(tf->buf);
    tf->buf = NULL;
}

wt_excerpt wt_quote(const char *s, const char *e)
{
    static const char hex[] = "0123456789abcdef";
    wt_excerpt q;
    size_t k = 0;
    for (int taken = 0; s < e && taken < 32; s++, taken++) {
        unsigned char c = (unsigned char)*s;
        if (c >= 0x20 && c < 0x7f) {
            q.s[k++] = (char)c;
        } else {
            q.s[k++] = '\\';
            q.s[k++] = 'x';
            q.s[k++] = hex[c >> 4];
            q.s[k++] = hex[c & 15];
        }
    }
    if (s < e) {
        memcpy(q.s + k, "...", 3);
        k += 3;
    }
    q.s[k] = '\0';
    return q;
}

static bool at_end(const wt_textfile *tf) { return tf->pos >= tf->len; }
static bool is_blank(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

/* Skips spaces, tabs and line ends, counting lines. */
static void skip_space(wt_textfile *tf)
{
    while (!at_end(tf)) {
        char c = tf->buf[tf->pos];
        if (c == tf->eol) tf->line++;
        else if (!is_blank(c)) return;
        tf->pos++;
    }
}

/* Position just past the current line's content (at its line end or the end). */
static size_t line_end(const wt_textfile *tf)
{
    const char *nl = memchr(tf->buf + tf->pos, tf->eol, tf->len - tf->pos);
    return nl ? (size_t)(nl - tf->buf) : tf->len;
}

/* Refuses the line [tf->pos, end) as no keyword line, quoting it. */
static int not_keyword(wt_textfile *tf, size_t end)
{
    tf->token = wt_quote(tf->buf + tf->pos, tf->buf + end);
    return -1;
}

int wt_textfile_next_keyword(wt_textfile *tf, char *key, size_t key_size, const char **value)
{
    skip_space(tf);
    tf->key_line = tf->line;
    if (at_end(tf)) return 0;
    size_t end = line_end(tf), p = tf->pos, k = 0;
    char c = tf->buf[p];
    if (!(isalpha((unsigned char)c) || c == '_')) return not_keyword(tf, end);
    if (memchr(tf->buf + p, '\0', end - p)) return not_keyword(tf, end);
    while (p < end && (isalnum((unsigned char)tf->buf[p]) || tf->buf[p] == '_')) {
        if (k + 1 < key_size) key[k++] = tf->buf[p];
        p++;
    }
    key[k] = '\0';
    while (p < end && is_blank(tf->buf[p])) p++;
    if (p < end && tf->buf[p] == ':') p++;
    else if (p < end) return not_keyword(tf, end); /* "KEY value" without a colon */
    while (p < end && is_blank(tf->buf[p])) p++;
    size_t vend = end;
    while (vend > p && is_blank(tf->buf[vend - 1])) vend--;
    tf->buf[vend] = '\0'; /* the line's end (or the final NUL) is consumed here */
    *value = tf->buf + p;
    tf->pos = end < tf->len ? end + 1 : end;
    if (end < tf->len) tf->line++;
    if (strcmp(key, "EOF") == 0) return 0;
    return 1;
}

int wt_textfile_next_int(wt_textfile *tf, long long *v)
{
    skip_space(tf);
    if (at_end(tf)) return 0;
    if (tf->len - tf->pos >= 3 && memcmp(tf->buf + tf->pos, "EOF", 3) == 0 &&
        (tf->len - tf->pos == 3 || isspace((unsigned char)tf->buf[tf->pos + 3])))
        return 0;
    size_t start = tf->pos, p = start;
    bool neg = false;
    if (tf->buf[p] == '-' || tf->buf[p] == '+') neg = tf->buf[p++] == '-';
    long long val = 0;
    size_t digits = 0;
    while (p < tf->len && isdigit((unsigned char)tf->buf[p])) {
        int d = tf->buf[p++] - '0';
        if (val > (LLONG_MAX - d) / 10) break;
        val = val * 10 + d;
        digits++;
    }
    bool ends_token = p >= tf->len || isspace((unsigned char)tf->buf[p]);
    if (digits == 0 || !ends_token) {
        /* The whole token, NUL bytes included, so "1\0" is not shown as "1". */
        size_t e = p;
        while (e < tf->len && !isspace((unsigned char)tf->buf[e])) e++;
        tf->token = wt_quote(tf->buf + start, tf->buf + e);
        /* The digit loop stops early only on overflow: digits to the end
         * mean an integer, just too large (-2), not a syntax error. */
        bool too_long = digits > 0 && p < e && isdigit((unsigned char)tf->buf[p]);
        while (too_long && p < e) too_long = isdigit((unsigned char)tf->buf[p++]);
        return too_long ? -2 : -1;
    }
    tf->pos = p;
    *v = neg ? -val : val;
    return 1;
}

/* A TSPLIB file starts with a keyword line ("NAME : x", "NODE_COORD_SECTION");
 * a point file with numbers, a CSV header or a '#' comment. */
bool wt_looks_like_tsplib(const char *data, size_t len)
{
    if (!data) return false;
    const char *s = data, *end = data + len;
    if (len >= 3 && memcmp(s, "\xef\xbb\xbf", 3) == 0) s += 3; /* a UTF-8 byte order mark */
    while (s < end && isspace((unsigned char)*s)) s++;
    if (s == end || !(isalpha((unsigned char)*s) || *s == '_')) return false;
    while (s < end && (isalnum((unsigned char)*s) || *s == '_')) s++;
    while (s < end && (*s == ' ' || *s == '\t')) s++;
    return s == end || *s == ':' || *s == '\n' || *s == '\r';
}
