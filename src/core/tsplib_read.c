/*
 * tsplib_read.c - the TSPLIB95 reader: a TYPE: TSP or ATSP file in, a wt_instance out.
 *
 * This is the product's input layer, so it trusts nothing it reads.  The text
 * is parsed as it arrives, line by line through a window of a few MiB
 * (wt_stream, textfile.h), over explicit lengths (it may hold NUL bytes): a
 * malformed file is refused at its first bad line after reading about as
 * much as comes before it.  No header value sizes an allocation: the
 * coordinate arrays and the matrix grow as their entries arrive (doubling,
 * capped at what DIMENSION needs), so memory follows the text really read.
 * Where the length of the text is known in advance (a buffer, a regular
 * file) a section of n entries is also checked against it before it is
 * read, so a lying DIMENSION fails at once; elsewhere (gzip, pipes) the same
 * message comes when the text ends short.  Every failure is one message
 * "source:line: what was wrong; what was expected".
 *
 * What is accepted (TSPLIB95 plus the quirks of the files in the wild, see
 * ../shared/tsplib/README.md): `KEY: value` lines in any order, CRLF or
 * CR-only line ends (wt_line_break), tabs,
 * blank lines, a missing EOF; EDGE_WEIGHT_TYPE EUC_2D, CEIL_2D, ATT, GEO,
 * MAN_2D, MAX_2D, EUC_3D and EXPLICIT with any of the nine matrix formats,
 * integer weights or decimal reals (then held in fixed point as
 * wt_instance_from_matrix holds them); TYPE ATSP with an EXPLICIT
 * FULL_MATRIX of directed costs, its diagonal ignored (atsp.c);
 * DISPLAY_DATA_SECTION (kept for drawing EXPLICIT instances);
 * FIXED_EDGES_SECTION (pairs of cities, then -1; wt_instance.fixed, which
 * the searches keep or refuse, never ignore).  Sections we do
 * not use (TOUR_SECTION, ...) are skipped, and so are
 * unknown keywords.  The data sections need DIMENSION and EDGE_WEIGHT_TYPE
 * before them.  A missing TYPE is taken as TSP.
 */
#include "core/instance_build.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/fixed_edges.h"
#include "core/textfile.h"

/* ------------------------------------------------------------ characters */

static bool is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}
static bool is_digit(char c) { return c >= '0' && c <= '9'; }
static bool is_alpha(char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'); }
static bool is_word(char c) { return is_alpha(c) || is_digit(c) || c == '_'; }

/* Whether [s, e) is exactly the text w. */
static bool text_is(const char *s, const char *e, const char *w)
{
    size_t len = strlen(w);
    return (size_t)(e - s) == len && memcmp(s, w, len) == 0;
}

static char upper(char c) { return c >= 'a' && c <= 'z' ? (char)(c - 'a' + 'A') : c; }

/* Whether [s, e) is w but for the case of its letters. */
static bool text_is_nocase(const char *s, const char *e, const char *w)
{
    size_t len = strlen(w);
    if ((size_t)(e - s) != len) return false;
    for (size_t i = 0; i < len; i++)
        if (upper(s[i]) != w[i]) return false;
    return true;
}

static bool text_ends_with(const char *s, const char *e, const char *w)
{
    size_t len = strlen(w);
    return (size_t)(e - s) >= len && memcmp(e - len, w, len) == 0;
}

/* Messages quote input through wt_quote (textfile.h): printable, cut short. */

/* ---------------------------------------------------------------- numbers */

/* An optionally signed decimal integer filling [s, e).  Values beyond 2^62
 * saturate there: callers range-check, and the saturated value is out of
 * every range they accept. */
static bool parse_integer(const char *s, const char *e, long long *out)
{
    const long long cap = 1LL << 62;
    bool neg = false;
    if (s < e && (*s == '+' || *s == '-')) neg = *s++ == '-';
    if (s == e) return false;
    long long v = 0;
    for (; s < e; s++) {
        if (!is_digit(*s)) return false;
        v = v >= cap / 10 ? cap : v * 10 + (*s - '0');
    }
    *out = neg ? -v : v;
    return true;
}

/* Whether [s, e) is a plain decimal real: sign, digits, '.', exponent.  This
 * is stricter than strtod, which would also take "nan", "inf" and hex. */
static bool is_decimal_real(const char *s, const char *e)
{
    size_t digits = 0;
    if (s < e && (*s == '+' || *s == '-')) s++;
    for (; s < e && is_digit(*s); s++) digits++;
    if (s < e && *s == '.')
        for (s++; s < e && is_digit(*s); s++) digits++;
    if (digits == 0) return false;
    if (s < e && (*s == 'e' || *s == 'E')) {
        s++;
        if (s < e && (*s == '+' || *s == '-')) s++;
        if (s == e || !is_digit(*s)) return false;
        while (s < e && is_digit(*s)) s++;
    }
    return s == e;
}

typedef enum real_result { REAL_OK, REAL_SYNTAX, REAL_INFINITE, REAL_NO_MEMORY } real_result;

/* Parses the decimal real filling [s, e), which ends before buf_end.  strtod
 * rounds exactly (C locale assumed).  It needs a terminator it will not read
 * past: inside the buffer the byte at e is white space and stops it; only a
 * token that ends the buffer is copied out first. */
static real_result parse_real(const char *s, const char *e, const char *buf_end, double *out)
{
    if (!is_decimal_real(s, e)) return REAL_SYNTAX;
    char small[64], *copy = NULL;
    const char *text = s;
    if (e == buf_end) {
        size_t len = (size_t)(e - s);
        copy = len < sizeof small ? small : malloc(len + 1);
        if (!copy) return REAL_NO_MEMORY;
        memcpy(copy, s, len);
        copy[len] = '\0';
        text = copy;
    }
    char *stop;
    double v = strtod(text, &stop);
    bool whole = stop == text + (e - s);
    if (copy != small) free(copy);
    if (!whole) return REAL_SYNTAX; /* only with a decimal point other than '.' */
    if (!isfinite(v)) return REAL_INFINITE;
    *out = v;
    return REAL_OK;
}

/* Next token of [*p, e) separated by white space; false when none is left. */
static bool next_token(const char **p, const char *e, const char **ts, const char **te)
{
    const char *s = *p;
    while (s < e && is_space(*s)) s++;
    if (s == e) return false;
    *ts = s;
    while (s < e && !is_space(*s)) s++;
    *te = s;
    *p = s;
    return true;
}

/* ------------------------------------------------------------------ lines */

typedef enum line_kind {
    LINE_BLANK,
    LINE_KEYWORD, /* KEY : value */
    LINE_SECTION, /* XXX_SECTION */
    LINE_EOF,
    LINE_DATA,    /* starts like a number */
    LINE_OTHER    /* none of these */
} line_kind;

typedef struct line {
    long no;              /* 1-based line number */
    line_kind kind;
    const char *s, *e;    /* text without surrounding white space */
    const char *key, *key_end;
    const char *val, *val_end; /* LINE_KEYWORD: value without surrounding white space */
} line;

/* Sorts a trimmed line into its kind and, for keyword lines, splits off the
 * key and the value.  "NODE_COORD_SECTION :" and "EOF :" count as bare. */
static void classify(line *l)
{
    const char *p = l->s, *e = l->e;
    l->key = l->key_end = l->val = l->val_end = NULL;
    if (p == e) { l->kind = LINE_BLANK; return; }
    if (is_digit(*p) || *p == '-' || *p == '+' || *p == '.') { l->kind = LINE_DATA; return; }
    l->kind = LINE_OTHER;
    if (!is_alpha(*p)) return;
    l->key = p;
    while (p < e && is_word(*p)) p++;
    l->key_end = p;
    while (p < e && is_space(*p)) p++;
    bool colon = p < e && *p == ':';
    if (colon)
        for (p++; p < e && is_space(*p); p++) {}
    else if (p < e)
        return;
    l->val = p;
    l->val_end = e;
    l->kind = LINE_KEYWORD;
    if (p < e) return;
    if (text_is(l->key, l->key_end, "EOF")) l->kind = LINE_EOF;
    else if (text_ends_with(l->key, l->key_end, "_SECTION")) l->kind = LINE_SECTION;
    else if (!colon) l->kind = LINE_OTHER; /* a lone word */
}

/* ----------------------------------------------------------------- parser */

typedef enum weight_format {
    FMT_NONE = 0, FMT_FUNCTION, FMT_FULL_MATRIX, FMT_UPPER_ROW, FMT_LOWER_ROW,
    FMT_UPPER_DIAG_ROW, FMT_LOWER_DIAG_ROW, FMT_UPPER_COL, FMT_LOWER_COL,
    FMT_UPPER_DIAG_COL, FMT_LOWER_DIAG_COL
} weight_format;

static const char *const format_names[] = {
    [FMT_NONE] = "", [FMT_FUNCTION] = "FUNCTION", [FMT_FULL_MATRIX] = "FULL_MATRIX",
    [FMT_UPPER_ROW] = "UPPER_ROW", [FMT_LOWER_ROW] = "LOWER_ROW",
    [FMT_UPPER_DIAG_ROW] = "UPPER_DIAG_ROW", [FMT_LOWER_DIAG_ROW] = "LOWER_DIAG_ROW",
    [FMT_UPPER_COL] = "UPPER_COL", [FMT_LOWER_COL] = "LOWER_COL",
    [FMT_UPPER_DIAG_COL] = "UPPER_DIAG_COL", [FMT_LOWER_DIAG_COL] = "LOWER_DIAG_COL",
};

#define MATRIX_FORMATS "FULL_MATRIX, UPPER_ROW, LOWER_ROW, UPPER_DIAG_ROW, LOWER_DIAG_ROW, " \
                       "UPPER_COL, LOWER_COL, UPPER_DIAG_COL or LOWER_DIAG_COL"

/* The section being read, for the message of a text too short to hold it. */
typedef struct room {
    long line;                 /* the section's head line */
    unsigned long long at;     /* offset in the text just after it */
    unsigned long long count;  /* entries the section needs */
    unsigned long long min_bytes; /* the fewest bytes an entry takes */
    const char *what;
} room;

typedef struct parser {
    wt_stream *in;          /* the text, a window of it in memory */
    const char *cur, *end;  /* bytes of the window not read yet */
    wt_status read_st;      /* a failed read of the text (its message is in err) */
    long lineno;            /* number of the line that starts at cur */
    char eol;               /* the byte that ends a line (wt_line_break) */
    const char *src;        /* names the data in messages */
    wt_error *err;
    bool seen_text;         /* some non-blank line was read */
    long stop_line;         /* where reading stopped: the EOF line or the end */
    /* the header as read so far */
    long long n;            /* DIMENSION; 0 until read */
    long n_line;
    int type;               /* wt_edge_weight_type; -1 until read */
    long type_line;
    weight_format format;
    long format_line;
    char *name;             /* the first NAME value, NULL if none */
    const char *name_end;
    char *comment;          /* COMMENT values joined by "; " */
    size_t comment_len, comment_cap;
    /* the instance, allocated by the first data section that needs it */
    wt_instance *inst;
    long coords_line;       /* line of the section that filled inst->x, 0 if none */
    room room;              /* the last section checked by check_room */
    bool have_nodes, have_weights, have_display;
    /* FIXED_EDGES_SECTION: its edges (0-based ends, in pairs) and the line
     * of each */
    int32_t *fixed;
    long *fixed_lines;
    size_t fixed_count, fixed_cap;
    long fixed_line; /* the section's line, 0 if none */
    bool atsp;       /* TYPE : ATSP */
    long atsp_line;
    long weights_line; /* the EDGE_WEIGHT_SECTION's line, 0 if none */
} parser;

/* Records "src:line: message" with status st and returns st. */
#if defined(__GNUC__)
__attribute__((format(printf, 4, 5)))
#endif
static wt_status fail_at(const parser *ps, wt_status st, long at, const char *fmt, ...)
{
    /* A failed read ends the text early: what the parser then makes of the
     * missing text is no news, the read's own message is. */
    if (ps->read_st != WT_OK) return ps->read_st;
    char what[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    return wt_fail(ps->err, st, "%s:%ld: %s", ps->src, at, what);
}

static wt_status fail_memory(const parser *ps, long at)
{
    return fail_at(ps, WT_STATUS_OUT_OF_MEMORY, at, "out of memory");
}

/* Reads more text into the window, keeping what is not read yet (from
 * cur); false when no more comes: at the end of the text, or when the read
 * failed (ps->read_st). */
static bool refill(parser *ps)
{
    wt_stream *in = ps->in;
    if (in->end || ps->read_st != WT_OK) return false;
    wt_status st = wt_stream_more(in, (size_t)(ps->cur - in->buf), ps->err);
    ps->cur = in->buf;
    ps->end = in->buf + in->len;
    ps->read_st = st;
    return st == WT_OK;
}

/* Reads the next line; false at the end of the data (or a failed read).
 * Its text stays in the window until the line after it is read. */
static bool read_line(parser *ps, line *l)
{
    size_t scanned = 0; /* bytes from cur known to hold no line end */
    const char *nl;
    while (!(nl = memchr(ps->cur + scanned, ps->eol, (size_t)(ps->end - ps->cur) - scanned))) {
        scanned = (size_t)(ps->end - ps->cur);
        if (!refill(ps)) break;
    }
    if (ps->read_st != WT_OK || ps->cur >= ps->end) return false;
    const char *s = ps->cur;
    const char *e = nl ? nl : ps->end;
    ps->cur = nl ? nl + 1 : ps->end;
    l->no = ps->lineno;
    if (nl) ps->lineno++;
    while (s < e && is_space(*s)) s++;
    while (e > s && is_space(e[-1])) e--;
    l->s = s;
    l->e = e;
    classify(l);
    return true;
}

/* Reads the next non-blank line; false at the end of the data. */
static bool read_content_line(parser *ps, line *l)
{
    while (read_line(ps, l))
        if (l->kind != LINE_BLANK) return true;
    return false;
}

/* A read position to come back to after looking one line ahead: an
 * offset in the text, since the window moves.  A refill keeps the line
 * being read, so a mark holds while at most one line is read after it. */
typedef struct mark {
    unsigned long long at;
    long lineno;
} mark;

static unsigned long long offset_here(const parser *ps)
{
    return ps->in->base + (size_t)(ps->cur - ps->in->buf);
}
static mark mark_here(const parser *ps) { return (mark){offset_here(ps), ps->lineno}; }
static void go_back(parser *ps, mark m)
{
    ps->cur = ps->in->buf + (size_t)(m.at - ps->in->base);
    ps->lineno = m.lineno;
}

/* Reads past blank lines, up to the next line with content (or the end). */
static void skip_blank_lines(parser *ps)
{
    line l;
    mark m = mark_here(ps);
    while (read_line(ps, &l) && l.kind == LINE_BLANK) m = mark_here(ps);
    if (ps->read_st == WT_OK) go_back(ps, m);
}

/* "end of file" or the quoted line, for "expected X, found Y" messages. */
static wt_excerpt found(const line *l)
{
    if (!l) return (wt_excerpt){"end of file"};
    wt_excerpt q = wt_quote(l->s, l->e); /* at most 131 characters: room for quotes */
    size_t k = strlen(q.s);
    memmove(q.s + 1, q.s, k);
    q.s[0] = q.s[k + 1] = '\'';
    q.s[k + 2] = '\0';
    return q;
}

/* ---------------------------------------------------------------- header */

/* NAME is copied: the window it was read in moves on. */
static wt_status on_name(parser *ps, const line *l)
{
    if (!ps->name && l->val < l->val_end) {
        size_t len = (size_t)(l->val_end - l->val);
        ps->name = malloc(len + 1);
        if (!ps->name) return fail_memory(ps, l->no);
        memcpy(ps->name, l->val, len);
        ps->name[len] = '\0';
        ps->name_end = ps->name + len;
    }
    return WT_OK;
}

static wt_status on_comment(parser *ps, const line *l)
{
    size_t len = (size_t)(l->val_end - l->val);
    if (len == 0) return WT_OK;
    size_t need = ps->comment_len + 2 + len + 1;
    if (need > ps->comment_cap) {
        size_t cap = need > 2 * ps->comment_cap ? need : 2 * ps->comment_cap;
        char *bigger = realloc(ps->comment, cap);
        if (!bigger) return fail_memory(ps, l->no);
        ps->comment = bigger;
        ps->comment_cap = cap;
    }
    if (ps->comment_len > 0) {
        memcpy(ps->comment + ps->comment_len, "; ", 2);
        ps->comment_len += 2;
    }
    memcpy(ps->comment + ps->comment_len, l->val, len);
    ps->comment_len += len;
    ps->comment[ps->comment_len] = '\0';
    return WT_OK;
}

/* TYPE must be TSP or ATSP (an EXPLICIT FULL_MATRIX of directed costs).
 * si175/si535/si1032 write "TSP (M.~Hofmeister)", so a parenthesised
 * remark after the type is let through; nothing else is. */
static wt_status on_type(parser *ps, const line *l)
{
    static const char *const others[] = {"SOP", "HCP", "CVRP", "TOUR"};
    const char *v = l->val, *e = l->val_end, *w = v;
    while (w < e && is_word(*w)) w++;
    const char *rest = w;
    while (rest < e && is_space(*rest)) rest++;
    bool remark = rest > w && rest < e && *rest == '(' && e[-1] == ')';
    if (text_is(v, w, "TSP") && (rest == e || remark)) return WT_OK;
    if (text_is(v, w, "ATSP") && (rest == e || remark)) {
        if (ps->have_weights && !ps->atsp)
            return fail_at(ps, WT_STATUS_PARSE, l->no, "TYPE ATSP after the "
                           "EDGE_WEIGHT_SECTION (line %ld), read as a symmetric matrix; "
                           "expected TYPE above the data", ps->weights_line);
        ps->atsp = true;
        ps->atsp_line = l->no;
        return WT_OK;
    }
    for (size_t i = 0; i < sizeof others / sizeof others[0]; i++)
        if (text_is(v, w, others[i]))
            return fail_at(ps, WT_STATUS_UNSUPPORTED, l->no,
                           "TYPE %s is not supported; expected TSP (symmetric TSP) or ATSP "
                           "(asymmetric)", others[i]);
    return fail_at(ps, WT_STATUS_PARSE, l->no, "TYPE '%s' is not a TSPLIB problem type; "
                   "expected TSP or ATSP", wt_quote(v, e).s);
}

static wt_status on_dimension(parser *ps, const line *l)
{
    long long v;
    wt_excerpt q = wt_quote(l->val, l->val_end);
    const char *text = q.s;
    if (!parse_integer(l->val, l->val_end, &v))
        return fail_at(ps, WT_STATUS_PARSE, l->no, "DIMENSION '%s' is not an integer; expected "
                       "the number of cities, 3 to %d", text, WT_MAX_CITIES);
    if (v < 3)
        return fail_at(ps, WT_STATUS_PARSE, l->no, "DIMENSION %s is too small; expected at "
                       "least 3 cities", text);
    if (v > WT_MAX_CITIES)
        return fail_at(ps, WT_STATUS_TOO_LARGE, l->no, "DIMENSION %s is too large; expected at "
                       "most %d cities", text, WT_MAX_CITIES);
    if (ps->n && ps->n != v)
        return fail_at(ps, WT_STATUS_PARSE, l->no, "DIMENSION %lld contradicts DIMENSION %lld "
                       "on line %ld; expected one value", v, ps->n, ps->n_line);
    ps->n = v;
    ps->n_line = l->no;
    return WT_OK;
}

static wt_status on_edge_weight_type(parser *ps, const line *l)
{
    int type = -1;
    for (int t = WT_EUC_2D; t <= WT_EXPLICIT; t++)
        if (text_is(l->val, l->val_end, wt_edge_weight_type_name((wt_edge_weight_type)t)))
            type = t;
    if (type < 0)
        return fail_at(ps, WT_STATUS_UNSUPPORTED, l->no, "EDGE_WEIGHT_TYPE '%s' is not supported; "
                       "expected EUC_2D, CEIL_2D, ATT, GEO, MAN_2D, MAX_2D, EUC_3D or EXPLICIT",
                       wt_quote(l->val, l->val_end).s);
    if (ps->type >= 0 && ps->type != type)
        return fail_at(ps, WT_STATUS_PARSE, l->no, "EDGE_WEIGHT_TYPE %s contradicts %s on line "
                       "%ld; expected one value",
                       wt_edge_weight_type_name((wt_edge_weight_type)type),
                       wt_edge_weight_type_name((wt_edge_weight_type)ps->type), ps->type_line);
    ps->type = type;
    ps->type_line = l->no;
    return WT_OK;
}

static wt_status on_edge_weight_format(parser *ps, const line *l)
{
    weight_format f = FMT_NONE;
    for (int i = FMT_FUNCTION; i <= FMT_LOWER_DIAG_COL; i++)
        if (text_is(l->val, l->val_end, format_names[i])) f = (weight_format)i;
    if (f == FMT_NONE)
        return fail_at(ps, WT_STATUS_PARSE, l->no, "EDGE_WEIGHT_FORMAT '%s' is not a TSPLIB "
                       "format; expected FUNCTION, " MATRIX_FORMATS,
                       wt_quote(l->val, l->val_end).s);
    if (ps->format != FMT_NONE && ps->format != f)
        return fail_at(ps, WT_STATUS_PARSE, l->no, "EDGE_WEIGHT_FORMAT %s contradicts %s on line "
                       "%ld; expected one value", format_names[f], format_names[ps->format],
                       ps->format_line);
    ps->format = f;
    ps->format_line = l->no;
    return WT_OK;
}

/* Header keywords we act on; any other KEY : value (NODE_COORD_TYPE,
 * DISPLAY_DATA_TYPE, CAPACITY, ...) is skipped. */
static wt_status on_keyword(parser *ps, const line *l)
{
    static const struct {
        const char *key;
        wt_status (*fn)(parser *, const line *);
    } handlers[] = {
        {"NAME", on_name}, {"COMMENT", on_comment}, {"TYPE", on_type},
        {"DIMENSION", on_dimension}, {"EDGE_WEIGHT_TYPE", on_edge_weight_type},
        {"EDGE_WEIGHT_FORMAT", on_edge_weight_format},
    };
    for (size_t i = 0; i < sizeof handlers / sizeof handlers[0]; i++)
        if (text_is(l->key, l->key_end, handlers[i].key)) return handlers[i].fn(ps, l);
    /* "dimension : 5" would be skipped as unknown, and the file refused later
     * at a line that is not the culprit. */
    for (size_t i = 0; i < sizeof handlers / sizeof handlers[0]; i++)
        if (text_is_nocase(l->key, l->key_end, handlers[i].key))
            return fail_at(ps, WT_STATUS_PARSE, l->no, "'%s' is not a TSPLIB keyword; expected "
                           "%s (keywords are upper case)", wt_quote(l->key, l->key_end).s,
                           handlers[i].key);
    if (text_ends_with(l->key, l->key_end, "_SECTION"))
        return fail_at(ps, WT_STATUS_PARSE, l->no, "%s has data on its own line; expected the "
                       "section keyword alone, its data on the lines below",
                       wt_quote(l->key, l->key_end).s);
    return WT_OK;
}

/* -------------------------------------------------------------- sections */

/* Data sections need DIMENSION (to size them) and EDGE_WEIGHT_TYPE (to know
 * their shape) first. */
static wt_status require_header(const parser *ps, const line *l)
{
    wt_excerpt q = wt_quote(l->key, l->key_end);
    const char *sec = q.s;
    if (!ps->n)
        return fail_at(ps, WT_STATUS_PARSE, l->no, "%s before DIMENSION; expected "
                       "'DIMENSION : <number of cities>' above it", sec);
    if (ps->type < 0)
        return fail_at(ps, WT_STATUS_PARSE, l->no, "%s before EDGE_WEIGHT_TYPE; expected "
                       "'EDGE_WEIGHT_TYPE : <type>' above it", sec);
    return WT_OK;
}

static wt_status room_error(const parser *ps, const room *r, unsigned long long left)
{
    return fail_at(ps, WT_STATUS_PARSE, r->line, "DIMENSION is %lld but the rest of the file "
                   "(%llu bytes) cannot hold that many %s; expected %llu of them",
                   ps->n, left, r->what, r->count);
}

/* Refuses a section of `count` entries of at least `min_bytes` each (the last
 * one may lack its separator) when the rest of the text is known to be too
 * short, so a lying DIMENSION fails at its section's head.  Where the
 * length is not known yet (gzip, a pipe) the section is read as it comes,
 * and room_at_end gives this message if the text ends short. */
static wt_status check_room(parser *ps, const line *l, unsigned long long count,
                            unsigned long long min_bytes, const char *what)
{
    ps->room = (room){l->no, offset_here(ps), count, min_bytes, what};
    const wt_stream *in = ps->in;
    if (!in->size_known) return WT_OK;
    unsigned long long left = in->size > ps->room.at ? in->size - ps->room.at : 0;
    if (count * min_bytes - 1 <= left) return WT_OK;
    return room_error(ps, &ps->room, left);
}

/* The text ended inside the section check_room last saw: WT_OK when it
 * could have held the section (the caller then names the missing entry),
 * else check_room's message. */
static wt_status room_at_end(const parser *ps)
{
    if (ps->read_st != WT_OK) return ps->read_st;
    const room *r = &ps->room;
    unsigned long long size = ps->in->base + ps->in->len;
    unsigned long long left = size > r->at ? size - r->at : 0;
    if (r->count * r->min_bytes - 1 <= left) return WT_OK;
    return room_error(ps, r, left);
}

static wt_status ensure_instance(parser *ps, const line *l)
{
    if (!ps->inst) ps->inst = wt_instance_alloc("", (int)ps->n, (wt_edge_weight_type)ps->type);
    return ps->inst ? WT_OK : fail_memory(ps, l->no);
}

/* Where node lines go.  Coordinates are kept (keep) in the order the lines
 * come, in arrays that grow with them; the ids too once a line comes out
 * of order (id other than the count so far plus one), and a bitmap of the
 * ids met, grown to the largest id seen: while the ids come in order a
 * repeat is seen without one. */
typedef struct node_sink {
    const char *section;
    int dims;
    bool keep;              /* keep the coordinates (else only check them) */
    bool degrees;           /* GEO: DDD.MM angles */
    size_t minutes_60;      /* GEO: coordinates whose minutes are 60 or more */
    long minutes_line;      /* the first one's line, node, axis and value */
    long long minutes_id;
    int minutes_axis;
    double minutes_value;
    bool in_order;          /* ids so far are 1, 2, ..., count */
    double *c[3];           /* coordinates, in the order read */
    int32_t *ids;           /* their ids, once out of order (keep) */
    size_t count, cap;      /* lines read; room in c[] and ids */
    unsigned char *seen;    /* ids met, bit id - 1, once out of order */
    size_t seen_bytes;
} node_sink;

static void sink_free(node_sink *sink)
{
    for (int d = 0; d < 3; d++) free(sink->c[d]);
    free(sink->ids);
    free(sink->seen);
}

/* Whether id is met for the first time, recording it; -1 when out of memory. */
static int sink_first_meeting(node_sink *sink, long long id, long long n)
{
    size_t count = sink->count;
    if (sink->in_order) {
        if (id == (long long)count + 1) return 1;
        if (id <= (long long)count) return 0;
    }
    size_t need = (size_t)(id - 1) / 8 + 1;
    if (need < count / 8 + 1) need = count / 8 + 1; /* the ids 1..count read in order */
    if (need > sink->seen_bytes) {
        size_t bytes = 2 * sink->seen_bytes > need ? 2 * sink->seen_bytes : need;
        size_t most = (size_t)(n - 1) / 8 + 1;
        if (bytes > most) bytes = most;
        unsigned char *bigger = realloc(sink->seen, bytes);
        if (!bigger) return -1;
        memset(bigger + sink->seen_bytes, 0, bytes - sink->seen_bytes);
        sink->seen = bigger;
        sink->seen_bytes = bytes;
    }
    if (sink->in_order) {
        sink->in_order = false;
        memset(sink->seen, 0xff, count / 8);
        for (size_t k = count / 8 * 8; k < count; k++) sink->seen[k / 8] |= 1u << (k % 8);
    }
    size_t k = (size_t)(id - 1);
    unsigned char bit = (unsigned char)(1u << (k % 8));
    if (sink->seen[k / 8] & bit) return 0;
    sink->seen[k / 8] |= bit;
    return 1;
}

/* Appends a node's coordinates (and id, once out of order); false when out
 * of memory.  The arrays start at 65536 entries (about as much memory as
 * the text window: fewer copies for a large instance) and double, never
 * past the n entries a section holds. */
static bool sink_push(node_sink *sink, long long id, const double *v, long long n)
{
    if (!sink->keep) {
        sink->count++;
        return true;
    }
    if (sink->count == sink->cap) {
        size_t cap = sink->cap ? 2 * sink->cap : (size_t)1 << 16;
        if (cap > (size_t)n) cap = (size_t)n;
        for (int d = 0; d < sink->dims; d++) {
            double *bigger = realloc(sink->c[d], cap * sizeof(double));
            if (!bigger) return false;
            sink->c[d] = bigger;
        }
        if (sink->ids) {
            int32_t *bigger = realloc(sink->ids, cap * sizeof(int32_t));
            if (!bigger) return false;
            sink->ids = bigger;
        }
        sink->cap = cap;
    }
    if (!sink->in_order && !sink->ids) {
        sink->ids = malloc(sink->cap * sizeof(int32_t));
        if (!sink->ids) return false;
        for (size_t k = 0; k < sink->count; k++) sink->ids[k] = (int32_t)(k + 1);
    }
    for (int d = 0; d < sink->dims; d++) sink->c[d][sink->count] = v[d];
    if (sink->ids) sink->ids[sink->count] = (int32_t)id;
    sink->count++;
    return true;
}

/* Puts the n coordinates read out of order where their ids say, in place:
 * each swap sends one node to its place for good. */
static void sink_sort(node_sink *sink)
{
    if (!sink->ids) return;
    for (size_t i = 0; i < sink->count; i++) {
        while ((size_t)sink->ids[i] != i + 1) {
            size_t j = (size_t)sink->ids[i] - 1;
            int32_t id = sink->ids[j];
            sink->ids[j] = sink->ids[i];
            sink->ids[i] = id;
            for (int d = 0; d < sink->dims; d++) {
                double t = sink->c[d][j];
                sink->c[d][j] = sink->c[d][i];
                sink->c[d][i] = t;
            }
        }
    }
}

static const char axis_names[3] = {'x', 'y', 'z'};

/* One coordinate token of node `id`: present, a decimal real, finite. */
static wt_status parse_coord(parser *ps, const line *l, const char **p, long long id, int d,
                             int dims, double *out)
{
    const char *ts, *te;
    if (!next_token(p, l->e, &ts, &te))
        return fail_at(ps, WT_STATUS_PARSE, l->no, "node %lld has no %c coordinate; expected "
                       "'id x y%s'", id, axis_names[d], dims == 3 ? " z" : "");
    switch (parse_real(ts, te, ps->end, out)) {
    case REAL_OK: return WT_OK;
    case REAL_NO_MEMORY: return fail_memory(ps, l->no);
    case REAL_INFINITE:
        return fail_at(ps, WT_STATUS_PARSE, l->no, "the %c coordinate of node %lld, '%s', is "
                       "out of range; expected a finite number", axis_names[d], id,
                       wt_quote(ts, te).s);
    case REAL_SYNTAX: break;
    }
    return fail_at(ps, WT_STATUS_PARSE, l->no, "the %c coordinate of node %lld, '%s', is not a "
                   "number; expected a decimal number like -12.5e3", axis_names[d], id,
                   wt_quote(ts, te).s);
}

/* "id x y" (or "id x y z"): id in 1..n and not seen before. */
static wt_status parse_node_line(parser *ps, const line *l, node_sink *sink)
{
    const char *p = l->s, *ts = l->s, *te = l->s; /* a data line has a first token */
    long long id;
    next_token(&p, l->e, &ts, &te);
    if (!parse_integer(ts, te, &id) || id < 1 || id > ps->n)
        return fail_at(ps, WT_STATUS_PARSE, l->no, "node id '%s' in %s is not an integer in "
                       "1..%lld; expected 'id x y' with such an id", wt_quote(ts, te).s,
                       sink->section, ps->n);
    int first = sink_first_meeting(sink, id, ps->n);
    if (first < 0) return fail_memory(ps, l->no);
    if (!first)
        return fail_at(ps, WT_STATUS_PARSE, l->no, "node id %lld appears twice in %s; expected "
                       "each id 1..%lld once", id, sink->section, ps->n);
    double v[3] = {0.0, 0.0, 0.0};
    for (int d = 0; d < sink->dims; d++) {
        wt_status st = parse_coord(ps, l, &p, id, d, sink->dims, &v[d]);
        if (st != WT_OK) return st;
        /* Past a full turn a DDD.MM angle means nothing, and huge ones would
         * overflow the degrees' integer part when converted to radians. */
        if (sink->degrees && fabs(v[d]) > 360.0)
            return fail_at(ps, WT_STATUS_PARSE, l->no, "the %c coordinate of node %lld, %g, is "
                           "no GEO angle; expected degrees.minutes from -360 to 360",
                           axis_names[d], id, v[d]);
        /* DDD.MM: the fraction is minutes / 100, below 0.60 (a hair of
         * slack for the decimal's binary rounding: 38.60 is 0.6000...01). */
        double frac = fabs(v[d]) - trunc(fabs(v[d]));
        if (sink->degrees && frac >= 0.6 - 1e-9 && sink->minutes_60++ == 0) {
            sink->minutes_line = l->no;
            sink->minutes_id = id;
            sink->minutes_axis = d;
            sink->minutes_value = v[d];
        }
    }
    if (sink->degrees && sink->keep && !(v[0] >= -90.0 && v[0] <= 90.0))
        return fail_at(ps, WT_STATUS_PARSE, l->no, "the latitude (x) of node %lld, %g, is outside "
                       "[-90, 90]; GEO's x is the latitude, y the longitude, both DDD.MM "
                       "(degrees.minutes)", id, v[0]);
    if (sink->degrees && sink->keep && !(v[1] >= -180.0 && v[1] < 360.0))
        return fail_at(ps, WT_STATUS_PARSE, l->no, "the longitude (y) of node %lld, %g, is "
                       "outside [-180, 360); GEO's x is the latitude, y the longitude, both "
                       "DDD.MM (degrees.minutes)", id, v[1]);
    if (next_token(&p, l->e, &ts, &te))
        return fail_at(ps, WT_STATUS_PARSE, l->no, "extra text '%s' after the coordinates of "
                       "node %lld; expected %d coordinates", wt_quote(ts, l->e).s, id, sink->dims);
    return sink_push(sink, id, v, ps->n) ? WT_OK : fail_memory(ps, l->no);
}

/* After a section's last entry comes a keyword line, EOF or the end: one
 * more data line means the section is longer than DIMENSION says. */
static wt_status check_section_ends(parser *ps, const char *section, const char *what)
{
    skip_blank_lines(ps);
    mark m = mark_here(ps);
    line l;
    if (read_line(ps, &l) && l.kind == LINE_DATA)
        return fail_at(ps, WT_STATUS_PARSE, l.no, "more %s in %s than DIMENSION %lld; expected a "
                       "keyword line or EOF, found %s", what, section, ps->n, found(&l).s);
    if (ps->read_st != WT_OK) return ps->read_st;
    go_back(ps, m);
    return WT_OK;
}

/* Reads exactly n node lines of a NODE_COORD_SECTION or DISPLAY_DATA_SECTION;
 * when the sink keeps them, they are in sink->c[] by id on success (the
 * caller then owns them); on failure they are freed. */
static wt_status read_nodes(parser *ps, const line *head, node_sink *sink)
{
    wt_status st = check_room(ps, head, (unsigned long long)ps->n, 6, "node lines");
    sink->in_order = true;
    for (long long k = 0; k < ps->n && st == WT_OK; k++) {
        line l;
        bool got = read_content_line(ps, &l);
        if (got && l.kind == LINE_DATA) {
            st = parse_node_line(ps, &l, sink);
            continue;
        }
        if (!got) st = room_at_end(ps);
        if (st == WT_OK)
            st = fail_at(ps, WT_STATUS_PARSE, got ? l.no : ps->lineno, "expected node line %lld "
                         "of %lld in %s, found %s", k + 1, ps->n, sink->section,
                         found(got ? &l : NULL).s);
    }
    if (st == WT_OK) sink_sort(sink);
    free(sink->ids);
    free(sink->seen);
    sink->ids = NULL;
    sink->seen = NULL;
    if (st == WT_OK) st = check_section_ends(ps, sink->section, "node lines");
    if (st != WT_OK) {
        sink_free(sink);
        return st;
    }
    return WT_OK;
}

/* Reads a section of node coordinates into the instance: x and y (and z),
 * indexed by id. */
static wt_status read_coords(parser *ps, const line *head, node_sink *sink)
{
    ps->coords_line = head->no;
    wt_status st = read_nodes(ps, head, sink);
    if (st != WT_OK) return st;
    /* Minutes of 60 or more: decimal degrees taken for DDD.MM, which would
     * put the places up to 40' off and give lengths of another map.  TSPLIB's
     * own ali535 holds 3 such among its 1070 coordinates (its optimum takes
     * them by the formula), so a few, up to 1%, are let through. */
    if (sink->degrees && sink->minutes_60 > 0 && sink->minutes_60 * 100 > 2 * sink->count) {
        double a = fabs(sink->minutes_value);
        st = fail_at(ps, WT_STATUS_PARSE, sink->minutes_line,
                     "the %s of node %lld, %g, has %.4g minutes (%zu of the %zu coordinates have "
                     "60 or more): GEO coordinates are DDD.MM, degrees and then minutes from 0 "
                     "to 59 (38.30 is 38 degrees 30 minutes, 38.5 decimal degrees), as TSPLIB "
                     "defines them; for decimal degrees write a point file of 'latitude "
                     "longitude' lines and solve it with --metric haversine",
                     sink->minutes_axis == 0 ? "latitude (x)" : "longitude (y)",
                     sink->minutes_id, sink->minutes_value, 100.0 * (a - trunc(a)),
                     sink->minutes_60, 2 * sink->count);
        sink_free(sink);
        return st;
    }
    double **dst[3] = {&ps->inst->x, &ps->inst->y, &ps->inst->z};
    for (int d = 0; d < sink->dims; d++) {
        free(*dst[d]);
        *dst[d] = sink->c[d];
    }
    return WT_OK;
}

/* Coordinates for drawing an EXPLICIT instance: from DISPLAY_DATA_SECTION
 * or, failing that, a NODE_COORD_SECTION; one of them at most. */
static wt_status read_drawing_coords(parser *ps, const line *head, const char *section)
{
    if (ps->coords_line)
        return fail_at(ps, WT_STATUS_PARSE, head->no, "%s repeats the coordinates given on line "
                       "%ld; expected one coordinate section", section, ps->coords_line);
    wt_status st = check_room(ps, head, (unsigned long long)ps->n, 6, "node lines");
    if (st == WT_OK) st = ensure_instance(ps, head);
    if (st != WT_OK) return st;
    node_sink sink = {.section = section, .dims = 2, .keep = true};
    return read_coords(ps, head, &sink);
}

static wt_status read_node_coord_section(parser *ps, const line *head)
{
    wt_status st = require_header(ps, head);
    if (st != WT_OK) return st;
    if (ps->have_nodes)
        return fail_at(ps, WT_STATUS_PARSE, head->no, "a second NODE_COORD_SECTION; expected one");
    ps->have_nodes = true;
    if (ps->type == WT_EXPLICIT) return read_drawing_coords(ps, head, "NODE_COORD_SECTION");
    st = check_room(ps, head, (unsigned long long)ps->n, 6, "node lines");
    if (st == WT_OK) st = ensure_instance(ps, head);
    if (st != WT_OK) return st;
    node_sink sink = {.section = "NODE_COORD_SECTION", .dims = ps->type == WT_EUC_3D ? 3 : 2,
                      .keep = true, .degrees = ps->type == WT_GEO};
    return read_coords(ps, head, &sink);
}

/* Drawing data is kept for EXPLICIT instances; a coordinate instance draws
 * its node coordinates, so there the section is only checked. */
static wt_status read_display_section(parser *ps, const line *head)
{
    wt_status st = require_header(ps, head);
    if (st != WT_OK) return st;
    if (ps->have_display)
        return fail_at(ps, WT_STATUS_PARSE, head->no,
                       "a second DISPLAY_DATA_SECTION; expected one");
    ps->have_display = true;
    if (ps->type == WT_EXPLICIT) return read_drawing_coords(ps, head, "DISPLAY_DATA_SECTION");
    node_sink sink = {.section = "DISPLAY_DATA_SECTION", .dims = 2};
    return read_nodes(ps, head, &sink);
}

/* ------------------------------------------------------------- weights */

/* Reads the numbers of an EDGE_WEIGHT_SECTION, which wrap across lines
 * freely, into w in the order they come (an array that doubles as they
 * do, up to count). */
typedef struct weight_reader {
    parser *ps;
    line l;          /* the line being read */
    const char *p;   /* next unread byte of l */
    long long k, count; /* weights read so far, weights needed */
    int32_t *w;      /* the weights read, while all are integers */
    size_t cap;      /* room in w or wd */
    double *wd;      /* the weights read, once one is not an integer (w freed) */
} weight_reader;

/* Weight idx as read. */
static double weight_at(const weight_reader *wr, size_t idx)
{
    return wr->wd ? wr->wd[idx] : (double)wr->w[idx];
}

/* The first weight that is not an integer: the integers so far move to wd. */
static bool weights_to_real(weight_reader *wr)
{
    size_t cap = wr->cap ? wr->cap : 1;
    double *wd = malloc(cap * sizeof *wd);
    if (!wd) return false;
    for (long long i = 0; i < wr->k; i++) wd[i] = wr->w[i];
    free(wr->w);
    wr->w = NULL;
    wr->wd = wd;
    wr->cap = cap;
    return true;
}

/* The next weight; diag: it lies on the diagonal, where any number is
 * taken (TSPLIB's ATSP files put 9999, 100000000 or -1 there) and kept
 * as 0. */
static wt_status next_weight(weight_reader *wr, bool diag)
{
    parser *ps = wr->ps;
    const char *ts, *te;
    while (!next_token(&wr->p, wr->l.e, &ts, &te)) {
        bool got = read_content_line(ps, &wr->l);
        if (!got) {
            wt_status st = room_at_end(ps);
            if (st != WT_OK) return st;
        }
        if (!got || wr->l.kind != LINE_DATA)
            return fail_at(ps, WT_STATUS_PARSE, got ? wr->l.no : ps->lineno, "expected weight "
                           "%lld of %lld in EDGE_WEIGHT_SECTION (%s), found %s", wr->k + 1,
                           wr->count, format_names[ps->format], found(got ? &wr->l : NULL).s);
        wr->p = wr->l.s;
    }
    long long v;
    double r = 0.0;
    bool integer = parse_integer(ts, te, &v);
    if (integer && (diag || (v >= 0 && v <= INT32_MAX))) {
        r = diag ? 0.0 : (double)v;
    } else if (!integer) {
        real_result rr = parse_real(ts, te, ps->end, &r);
        if (rr == REAL_NO_MEMORY) return fail_memory(ps, wr->l.no);
        if (rr != REAL_OK || (!diag && r < 0.0))
            return fail_at(ps, WT_STATUS_PARSE, wr->l.no, "weight %lld, '%s', is not a number "
                           ">= 0; expected non-negative weights (integers, or decimal reals "
                           "held in fixed point)", wr->k + 1, wt_quote(ts, te).s);
        if (diag) r = 0.0;
        if ((r != floor(r) || r > INT32_MAX) && !wr->wd && !weights_to_real(wr))
            return fail_memory(ps, wr->l.no);
    } else {
        return fail_at(ps, WT_STATUS_PARSE, wr->l.no, "weight %lld, '%s', is not an integer in "
                       "0..%d; expected non-negative weights up to %d", wr->k + 1,
                       wt_quote(ts, te).s, INT32_MAX, INT32_MAX);
    }
    if ((size_t)wr->k == wr->cap) {
        size_t cap = wr->cap ? 2 * wr->cap : 4096;
        if (cap > (size_t)wr->count) cap = (size_t)wr->count;
        size_t es = wr->wd ? sizeof(double) : sizeof(int32_t);
        void *bigger = realloc(wr->wd ? (void *)wr->wd : (void *)wr->w, cap * es);
        if (!bigger) return fail_memory(ps, wr->l.no);
        if (wr->wd) wr->wd = bigger;
        else wr->w = bigger;
        wr->cap = cap;
    }
    if (wr->wd) wr->wd[wr->k++] = r;
    else wr->w[wr->k++] = (int32_t)r;
    return WT_OK;
}

/* Which entries of row i a format lists, as [*lo, *hi).  The column formats
 * list the transposed triangle, which for a symmetric matrix is the same as
 * the opposite row format (UPPER_COL == LOWER_ROW and so on). */
static void row_span(weight_format f, int i, int n, int *lo, int *hi)
{
    switch (f) {
    case FMT_UPPER_ROW: case FMT_LOWER_COL: *lo = i + 1; *hi = n; return;
    case FMT_UPPER_DIAG_ROW: case FMT_LOWER_DIAG_COL: *lo = i; *hi = n; return;
    case FMT_LOWER_ROW: case FMT_UPPER_COL: *lo = 0; *hi = i; return;
    case FMT_LOWER_DIAG_ROW: case FMT_UPPER_DIAG_COL: *lo = 0; *hi = i + 1; return;
    default: *lo = 0; *hi = n; return;
    }
}

static long long weight_count(weight_format f, long long n)
{
    switch (f) {
    case FMT_FULL_MATRIX: return n * n;
    case FMT_UPPER_ROW: case FMT_LOWER_ROW: case FMT_UPPER_COL: case FMT_LOWER_COL:
        return n * (n - 1) / 2;
    default: return n * (n + 1) / 2;
    }
}

/* Reads the listed weights, row by row of the format.  A FULL_MATRIX of
 * TYPE TSP is taken as given, so an asymmetric one (an ATSP in disguise) is
 * refused where it first shows: its entry (j,i) is weight j * n + i, read
 * before. */
static wt_status read_matrix(weight_reader *wr, int n)
{
    weight_format f = wr->ps->format;
    for (int i = 0; i < n; i++) {
        int lo, hi;
        row_span(f, i, n, &lo, &hi);
        for (int j = lo; j < hi; j++) {
            wt_status st = next_weight(wr, i == j);
            if (st != WT_OK) return st;
            size_t ji = (size_t)j * (size_t)n + (size_t)i;
            double w = weight_at(wr, (size_t)wr->k - 1);
            if (f == FMT_FULL_MATRIX && !wr->ps->atsp && j < i && weight_at(wr, ji) != w)
                return fail_at(wr->ps, WT_STATUS_PARSE, wr->l.no, "matrix is not symmetric at "
                               "(%d,%d): %.17g there but %.17g at (%d,%d); expected a "
                               "symmetric matrix for TYPE TSP (TYPE : ATSP for asymmetric "
                               "costs)", i + 1, j + 1, w, weight_at(wr, ji), j + 1, i + 1);
        }
    }
    return WT_OK;
}

/* Turns the weights of format f, as listed, into the whole symmetric n x n
 * matrix in place: the array grows to n * n, each row's listed entries
 * move to their place (the last row first: a row's place never lies below
 * where the rows before it are listed), then the other triangle is
 * mirrored from them and an unlisted diagonal is 0.  NULL when out of
 * memory (w is then still the caller's). */
static void *expand_matrix(void *w, size_t es, weight_format f, int n, long long count)
{
    size_t nn = (size_t)n * (size_t)n;
    char *m = realloc(w, nn * es);
    if (!m || f == FMT_FULL_MATRIX) return m;
    size_t at = (size_t)count;
    for (int i = n - 1; i >= 0; i--) {
        int lo, hi;
        row_span(f, i, n, &lo, &hi);
        at -= (size_t)(hi - lo);
        memmove(m + ((size_t)i * (size_t)n + (size_t)lo) * es, m + at * es,
                (size_t)(hi - lo) * es);
    }
    for (int i = 0; i < n; i++) {
        int lo, hi;
        row_span(f, i, n, &lo, &hi);
        char *row = m + (size_t)i * (size_t)n * es;
        if (i < lo || i >= hi) memset(row + (size_t)i * es, 0, es); /* 0 and 0.0 */
        for (int j = lo; j < hi; j++)
            memcpy(m + ((size_t)j * (size_t)n + (size_t)i) * es, row + (size_t)j * es, es);
    }
    return m;
}

static wt_status check_weight_header(const parser *ps, const line *head)
{
    wt_status st = require_header(ps, head);
    if (st != WT_OK) return st;
    if (ps->type != WT_EXPLICIT)
        return fail_at(ps, WT_STATUS_PARSE, head->no, "EDGE_WEIGHT_SECTION in a %s instance; "
                       "expected EDGE_WEIGHT_TYPE : EXPLICIT",
                       wt_edge_weight_type_name((wt_edge_weight_type)ps->type));
    if (ps->have_weights)
        return fail_at(ps, WT_STATUS_PARSE, head->no, "a second EDGE_WEIGHT_SECTION; expected one");
    if (ps->format == FMT_NONE || ps->format == FMT_FUNCTION)
        return fail_at(ps, WT_STATUS_PARSE, head->no, "EDGE_WEIGHT_SECTION without a matrix "
                       "EDGE_WEIGHT_FORMAT; expected EDGE_WEIGHT_FORMAT : " MATRIX_FORMATS
                       " above it");
    if (ps->atsp && ps->format != FMT_FULL_MATRIX)
        return fail_at(ps, WT_STATUS_UNSUPPORTED, ps->format_line, "EDGE_WEIGHT_FORMAT %s in "
                       "a TYPE ATSP file; expected FULL_MATRIX (directed costs, row i the "
                       "costs from city i)", format_names[ps->format]);
    if (ps->n > WT_MAX_EXPLICIT_CITIES)
        return fail_at(ps, WT_STATUS_TOO_LARGE, ps->n_line, "DIMENSION %lld is too large for an "
                       "EXPLICIT matrix; expected at most %d cities", ps->n,
                       WT_MAX_EXPLICIT_CITIES);
    return WT_OK;
}

static wt_status read_weight_section(parser *ps, const line *head)
{
    wt_status st = check_weight_header(ps, head);
    if (st != WT_OK) return st;
    ps->have_weights = true;
    ps->weights_line = head->no;
    long long count = weight_count(ps->format, ps->n);
    st = check_room(ps, head, (unsigned long long)count, 2, "weights");
    if (st == WT_OK) st = ensure_instance(ps, head);
    if (st != WT_OK) return st;
    int n = (int)ps->n;
    weight_reader wr = {ps, *head, head->e, 0, count, NULL, 0, NULL};
    st = read_matrix(&wr, n);
    const char *ts, *te;
    if (st == WT_OK && next_token(&wr.p, wr.l.e, &ts, &te))
        st = fail_at(ps, WT_STATUS_PARSE, wr.l.no, "more weights in EDGE_WEIGHT_SECTION than "
                     "%s of DIMENSION %lld holds (%lld); expected the end of the section, "
                     "found '%s'", format_names[ps->format], ps->n, count,
                     wt_quote(ts, wr.l.e).s);
    if (st == WT_OK) st = check_section_ends(ps, "EDGE_WEIGHT_SECTION", "weights");
    void *listed = wr.wd ? (void *)wr.wd : (void *)wr.w;
    size_t es = wr.wd ? sizeof(double) : sizeof(int32_t);
    void *m = st == WT_OK ? expand_matrix(listed, es, ps->format, n, count) : NULL;
    if (st == WT_OK && !m) st = fail_memory(ps, head->no);
    if (st != WT_OK) {
        free(listed);
        return st;
    }
    if (!wr.wd) {
        ps->inst->matrix = m;
        return WT_OK;
    }
    /* Real weights: held in fixed point, as wt_instance_from_matrix holds
     * them. */
    wt_error why = {0};
    st = wt_instance_set_matrix(ps->inst, m, ps->atsp, &why);
    free(m);
    if (st != WT_OK) return fail_at(ps, st, head->no, "%s", why.message);
    return WT_OK;
}

/* FIXED_EDGES_SECTION: lines of two cities (1..DIMENSION) each, ended by
 * a line -1; the edges together are checked (wt_fixed_edges_check) and
 * attached to the instance at the end (complete_instance). */
static wt_status read_fixed_edges(parser *ps, const line *head)
{
    if (!ps->n)
        return fail_at(ps, WT_STATUS_PARSE, head->no, "FIXED_EDGES_SECTION before DIMENSION; "
                       "expected 'DIMENSION : <number of cities>' above it");
    if (ps->fixed_line)
        return fail_at(ps, WT_STATUS_PARSE, head->no, "a second FIXED_EDGES_SECTION (the "
                       "first on line %ld); expected one", ps->fixed_line);
    ps->fixed_line = head->no;
    line l;
    while (read_content_line(ps, &l)) {
        if (text_is(l.s, l.e, "-1")) return WT_OK;
        if (is_alpha(*l.s))
            return fail_at(ps, WT_STATUS_PARSE, l.no, "FIXED_EDGES_SECTION (line %ld) does not "
                           "end with -1 before %s; expected a line -1 after its edges",
                           ps->fixed_line, found(&l).s);
        const char *p = l.s, *ts[3], *te[3];
        int tokens = 0;
        while (tokens < 3 && next_token(&p, l.e, &ts[tokens], &te[tokens])) tokens++;
        long long v[2];
        if (tokens != 2 || !parse_integer(ts[0], te[0], &v[0]) ||
            !parse_integer(ts[1], te[1], &v[1]))
            return fail_at(ps, WT_STATUS_PARSE, l.no, "expected a fixed edge 'city city' (two "
                           "cities 1 to %lld) or -1 ending FIXED_EDGES_SECTION (line %ld), "
                           "found %s", ps->n, ps->fixed_line, found(&l).s);
        for (int k = 0; k < 2; k++)
            if (v[k] < 1 || v[k] > ps->n)
                return fail_at(ps, WT_STATUS_PARSE, l.no, "fixed edge %lld-%lld: city %lld is "
                               "not one of the cities 1 to %lld (DIMENSION)", v[0], v[1],
                               v[k], ps->n);
        if (ps->fixed_count == ps->fixed_cap) {
            size_t cap = ps->fixed_cap ? 2 * ps->fixed_cap : 16;
            int32_t *f = realloc(ps->fixed, 2 * cap * sizeof *f);
            if (f) ps->fixed = f;
            long *ln = f ? realloc(ps->fixed_lines, cap * sizeof *ln) : NULL;
            if (ln) ps->fixed_lines = ln;
            if (!f || !ln) return fail_memory(ps, l.no);
            ps->fixed_cap = cap;
        }
        size_t i = ps->fixed_count++;
        ps->fixed[2 * i] = (int32_t)(v[0] - 1);
        ps->fixed[2 * i + 1] = (int32_t)(v[1] - 1);
        ps->fixed_lines[i] = l.no;
    }
    return fail_at(ps, WT_STATUS_PARSE, ps->stop_line ? ps->stop_line : ps->lineno,
                   "FIXED_EDGES_SECTION (line %ld) does not end with -1 before the end of the "
                   "file; expected a line -1 after its edges", ps->fixed_line);
}

/* A section we do not use: its data lines run to -1 or to the next line
 * that starts like a keyword. */
static void skip_section(parser *ps)
{
    line l;
    mark m = mark_here(ps);
    while (read_line(ps, &l)) {
        if (l.kind != LINE_BLANK && text_is(l.s, l.e, "-1")) return;
        if (l.kind != LINE_BLANK && is_alpha(*l.s)) {
            go_back(ps, m);
            return;
        }
        m = mark_here(ps);
    }
}

static wt_status on_section(parser *ps, const line *l)
{
    if (text_is(l->key, l->key_end, "NODE_COORD_SECTION")) return read_node_coord_section(ps, l);
    if (text_is(l->key, l->key_end, "EDGE_WEIGHT_SECTION")) return read_weight_section(ps, l);
    if (text_is(l->key, l->key_end, "DISPLAY_DATA_SECTION")) return read_display_section(ps, l);
    if (text_is(l->key, l->key_end, "FIXED_EDGES_SECTION")) return read_fixed_edges(ps, l);
    skip_section(ps);
    return WT_OK;
}

/* ----------------------------------------------------------- whole file */

static wt_status parse_lines(parser *ps)
{
    line l;
    wt_status st = WT_OK;
    while (st == WT_OK && read_content_line(ps, &l)) {
        /* Numbers on the first line: most likely a list of points that
         * never had a header. */
        bool bare = !ps->seen_text && l.kind == LINE_DATA;
        ps->seen_text = true;
        switch (l.kind) {
        case LINE_EOF: ps->stop_line = l.no; return WT_OK;
        case LINE_KEYWORD: st = on_keyword(ps, &l); break;
        case LINE_SECTION: st = on_section(ps, &l); break;
        default:
            st = fail_at(ps, WT_STATUS_PARSE, l.no, "expected a keyword line ('KEY : value', a "
                         "..._SECTION line or EOF), found %s%s", found(&l).s,
                         bare ? "; bare coordinates need a TSPLIB header first (NAME, DIMENSION, "
                                "EDGE_WEIGHT_TYPE, NODE_COORD_SECTION)" : "");
        }
    }
    ps->stop_line = ps->lineno;
    return st;
}

/* What must have been seen by the end of the data. */
static wt_status check_complete(const parser *ps)
{
    long at = ps->stop_line;
    if (!ps->seen_text)
        return fail_at(ps, WT_STATUS_PARSE, at, "empty file; expected a TSPLIB header with "
                       "DIMENSION and EDGE_WEIGHT_TYPE, then the data");
    if (!ps->n)
        return fail_at(ps, WT_STATUS_PARSE, at, "no DIMENSION in the file; expected "
                       "'DIMENSION : <number of cities>'");
    if (ps->type < 0)
        return fail_at(ps, WT_STATUS_PARSE, at, "no EDGE_WEIGHT_TYPE in the file; expected "
                       "'EDGE_WEIGHT_TYPE : EUC_2D' or another type");
    if (ps->type == WT_EXPLICIT && (ps->format == FMT_NONE || ps->format == FMT_FUNCTION))
        return fail_at(ps, WT_STATUS_PARSE, at, "EXPLICIT instance without a matrix "
                       "EDGE_WEIGHT_FORMAT; "
                       "expected EDGE_WEIGHT_FORMAT : " MATRIX_FORMATS);
    if (ps->type == WT_EXPLICIT && !ps->have_weights)
        return fail_at(ps, WT_STATUS_PARSE, at, "no EDGE_WEIGHT_SECTION; expected the %lld "
                       "weights of the %s matrix", weight_count(ps->format, ps->n),
                       format_names[ps->format]);
    if (ps->type != WT_EXPLICIT && !ps->have_nodes)
        return fail_at(ps, WT_STATUS_PARSE, at, "no NODE_COORD_SECTION; expected %lld node lines "
                       "'id x y' after it", ps->n);
    return WT_OK;
}

/* The instance name: NAME without a trailing ".tsp" (pa561.tsp has one), or
 * when there is none the source's base name without its extension. */
static char *make_name(const parser *ps)
{
    const char *s = ps->name, *e = ps->name_end;
    if (s && text_ends_with(s, e, ".tsp") && e - s > 4) e -= 4;
    if (!s) {
        s = strrchr(ps->src, '/');
        s = s ? s + 1 : ps->src;
        e = s + strlen(s);
        const char *dot = strrchr(s, '.');
        if (dot && dot > s) e = dot;
    }
    char *name = malloc((size_t)(e - s) + 1);
    if (name) {
        memcpy(name, s, (size_t)(e - s));
        name[e - s] = '\0';
    }
    return name;
}

/* Hands name and comment to the instance and derives the rest.  The finish
 * step's own message ("coordinates span too wide...") gets our file:line. */
static wt_status complete_instance(parser *ps)
{
    wt_instance *inst = ps->inst;
    char *name = make_name(ps);
    if (!name) return fail_memory(ps, ps->stop_line);
    free(inst->name);
    inst->name = name;
    if (ps->comment) {
        free(inst->comment);
        inst->comment = ps->comment;
        ps->comment = NULL;
    }
    if (ps->fixed_count > 0 && ps->atsp)
        return fail_at(ps, WT_STATUS_UNSUPPORTED, ps->fixed_line, "FIXED_EDGES_SECTION in a "
                       "TYPE ATSP file: fixed arcs of asymmetric instances are not supported");
    if (ps->atsp && ps->type != WT_EXPLICIT)
        return fail_at(ps, WT_STATUS_UNSUPPORTED, ps->type_line, "EDGE_WEIGHT_TYPE %s in a "
                       "TYPE ATSP file; expected EXPLICIT with a FULL_MATRIX of directed costs",
                       wt_edge_weight_type_name((wt_edge_weight_type)ps->type));
    if (ps->fixed_count > 0) {
        char why[160];
        int bad = wt_fixed_edges_check(ps->fixed, (int)ps->fixed_count, inst->n, why,
                                       sizeof why);
        if (bad == WT_FIXED_EDGES_NO_MEMORY)
            return fail_at(ps, WT_STATUS_OUT_OF_MEMORY, ps->fixed_lines[0],
                           "out of memory checking the fixed edges");
        if (bad >= 0)
            return fail_at(ps, WT_STATUS_PARSE, ps->fixed_lines[bad], "fixed edge %d-%d: %s",
                           ps->fixed[2 * bad] + 1, ps->fixed[2 * bad + 1] + 1, why);
        inst->fixed = ps->fixed;
        inst->fixed_count = (int)ps->fixed_count;
        ps->fixed = NULL;
    }
    wt_error why = {0};
    wt_status st = wt_instance_finish(inst, &why);
    if (st != WT_OK)
        return fail_at(ps, st, ps->coords_line ? ps->coords_line : ps->stop_line, "%s",
                       why.message);
    /* TYPE ATSP: the 2n-city symmetric instance the searches solve. */
    if (ps->atsp && (st = wt_atsp_attach(inst, &why)) != WT_OK)
        return fail_at(ps, st, ps->weights_line, "%s", why.message);
    return WT_OK;
}

/* Parses the text of in, from where its window starts. */
wt_status wt_instance_parse_tsplib_stream(wt_stream *in, const char *source,
                                          wt_instance **out, wt_error *err)
{
    parser ps = {.in = in, .cur = in->buf, .end = in->buf + in->len, .lineno = 1,
                 .src = source ? source : "(buffer)", .err = err, .type = -1};
    /* A UTF-8 byte order mark is an editor's habit, not content. */
    if (in->len >= 3 && memcmp(ps.cur, "\xef\xbb\xbf", 3) == 0) ps.cur += 3;
    /* The line end is told from the first window (all of a file up to a
     * few MiB): a longer file has a line end in its first MiB. */
    ps.eol = wt_line_break(ps.cur, (size_t)(ps.end - ps.cur));
    wt_status st = parse_lines(&ps);
    if (st == WT_OK) st = ps.read_st;
    /* The rest of the file after an EOF line is read too: a file is whole
     * (valid gzip, within its bound) or refused. */
    if (st == WT_OK) st = wt_stream_drain(in, err);
    if (st == WT_OK) st = check_complete(&ps);
    if (st == WT_OK) st = complete_instance(&ps);
    free(ps.comment);
    free(ps.name);
    free(ps.fixed);
    free(ps.fixed_lines);
    if (st != WT_OK) {
        wt_instance_free(ps.inst);
        return st;
    }
    *out = ps.inst;
    return WT_OK;
}

wt_status wt_instance_parse_tsplib(const char *data, size_t len, const char *source,
                                   wt_instance **out, wt_error *err)
{
    if (!out || (!data && len > 0))
        return wt_fail(err, WT_STATUS_INVALID_ARGUMENT,
                       "wt_instance_parse_tsplib: need data and an output pointer");
    wt_stream in;
    wt_stream_over(&in, data ? data : "", len);
    return wt_instance_parse_tsplib_stream(&in, source, out, err);
}

wt_status wt_instance_read_tsplib(const char *path, wt_instance **out, wt_error *err)
{
    if (!path || !out)
        return wt_fail(err, WT_STATUS_INVALID_ARGUMENT, "wt_instance_read_tsplib: need a path "
                       "and an output pointer");
    wt_stream in;
    wt_status st = wt_stream_open(&in, path, true, 0, err);
    if (st != WT_OK) return st;
    st = wt_instance_parse_tsplib_stream(&in, path, out, err);
    wt_stream_close(&in);
    return st;
}
