/*
 * textfile.c - loading a file, scanning it as lines and tokens, and quoting
 * it in messages.
 */
#include "core/textfile.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/error.h"

char wt_line_break(const char *s, size_t len)
{
    return !memchr(s, '\n', len) && memchr(s, '\r', len) ? '\r' : '\n';
}

static bool has_line_break(const char *s, size_t len)
{
    return memchr(s, '\n', len) || memchr(s, '\r', len);
}

/* Loads a whole file plus a terminating NUL.  A regular file's size sizes
 * the buffer; it is a hint only (pipes have none, files may grow), so
 * reading goes on, growing the buffer, until fread reports the end. */
wt_status wt_file_load(const char *path, char **data, size_t *len, wt_error *err)
{
    FILE *f = fopen(path, "rb");
    if (!f) return wt_fail(err, WT_STATUS_IO, "%s: cannot open: %s", path, strerror(errno));
    struct stat st;
    bool known = fstat(fileno(f), &st) == 0;
    if (known && S_ISDIR(st.st_mode)) { /* fopen takes a folder; its size is no file size */
        fclose(f);
        return wt_fail(err, WT_STATUS_IO, "%s: cannot read: it is a directory", path);
    }
    size_t cap = 1 << 16, used = 0;
    if (known && S_ISREG(st.st_mode) && st.st_size > 0 &&
        (unsigned long long)st.st_size < SIZE_MAX / 2)
        cap = (size_t)st.st_size + 1; /* +1: the end is seen without growing */
    char *buf = malloc(cap + 1);
    bool text_seen = false; /* a line end within the first WT_FIRST_LINE_MAX bytes */
    while (buf) {
        used += fread(buf + used, 1, cap - used, f);
        if (!text_seen && used >= WT_FIRST_LINE_MAX) {
            if (!has_line_break(buf, WT_FIRST_LINE_MAX)) {
                free(buf);
                fclose(f);
                return wt_fail(err, WT_STATUS_PARSE, "%s:1: no line end in the first %zu "
                               "bytes: not a text file", path, WT_FIRST_LINE_MAX);
            }
            text_seen = true;
        }
        if (used < cap || ferror(f)) break;
        char *bigger = cap < SIZE_MAX / 4 ? realloc(buf, 2 * cap + 1) : NULL;
        if (!bigger) free(buf);
        buf = bigger;
        cap *= 2;
    }
    int why = errno;
    bool bad = ferror(f) != 0;
    fclose(f);
    if (!buf)
        return wt_fail(err, WT_STATUS_OUT_OF_MEMORY, "%s: out of memory reading the file", path);
    if (bad) {
        free(buf);
        return wt_fail(err, WT_STATUS_IO, "%s: cannot read: %s", path, strerror(why));
    }
    buf[used] = '\0';
    *data = buf;
    *len = used;
    return WT_OK;
}

wt_status wt_textfile_open(wt_textfile *tf, const char *path, wt_error *err)
{
    memset(tf, 0, sizeof *tf);
    tf->path = path;
    tf->line = 1;
    wt_status st = wt_file_load(path, &tf->buf, &tf->len, err);
    if (st == WT_OK) tf->eol = wt_line_break(tf->buf, tf->len);
    return st;
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
static bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v'; }

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
