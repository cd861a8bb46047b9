/*
 * json.c - the JSON helpers of solve, check, info and solve-batch: exact
 * 64-bit integers, text made valid UTF-8, optimum and gap.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

void cli_json_add_int64(cJSON *obj, const char *key, int64_t v)
{
    char buf[32];
    snprintf(buf, sizeof buf, "%" PRId64, v);
    cJSON_AddRawToObject(obj, key, buf);
}

void cli_json_add_uint64(cJSON *obj, const char *key, uint64_t v)
{
    char buf[32];
    snprintf(buf, sizeof buf, "%" PRIu64, v);
    cJSON_AddRawToObject(obj, key, buf);
}

/* Length of the well-formed UTF-8 sequence at s (1-4 bytes), or 0 when the
 * bytes there are not one (a stray continuation byte, an overlong form, a
 * surrogate, a code point above U+10FFFF, a cut-off sequence). */
static size_t utf8_sequence(const unsigned char *s)
{
    if (s[0] < 0x80) return 1;
    size_t len = s[0] >= 0xF0 ? 4 : s[0] >= 0xE0 ? 3 : s[0] >= 0xC2 ? 2 : 0;
    if (len == 0 || s[0] > 0xF4) return 0;
    for (size_t i = 1; i < len; i++)
        if ((s[i] & 0xC0) != 0x80) return 0;
    if (s[0] == 0xE0 && s[1] < 0xA0) return 0; /* overlong */
    if (s[0] == 0xED && s[1] >= 0xA0) return 0; /* surrogate */
    if (s[0] == 0xF0 && s[1] < 0x90) return 0; /* overlong */
    if (s[0] == 0xF4 && s[1] >= 0x90) return 0; /* above U+10FFFF */
    return len;
}

void cli_json_add_text(cJSON *obj, const char *key, const char *s)
{
    size_t n = strlen(s), bad = 0;
    for (size_t i = 0; i < n;) {
        size_t k = utf8_sequence((const unsigned char *)s + i);
        bad += k == 0;
        i += k ? k : 1;
    }
    if (bad == 0) {
        cJSON_AddStringToObject(obj, key, s);
        return;
    }
    /* Each stray byte becomes U+FFFD (3 bytes). */
    char *clean = malloc(n + 2 * bad + 1);
    if (!clean) {
        cJSON_AddNullToObject(obj, key);
        return;
    }
    size_t out = 0;
    for (size_t i = 0; i < n;) {
        size_t k = utf8_sequence((const unsigned char *)s + i);
        if (k == 0) {
            memcpy(clean + out, "\xEF\xBF\xBD", 3);
            out += 3;
            i++;
            continue;
        }
        memcpy(clean + out, s + i, k);
        out += k;
        i += k;
    }
    clean[out] = '\0';
    cJSON_AddStringToObject(obj, key, clean);
    free(clean);
}

void cli_json_add_string_or_null(cJSON *obj, const char *key, const char *s)
{
    if (s) cli_json_add_text(obj, key, s);
    else cJSON_AddNullToObject(obj, key);
}

void cli_json_add_optimum_and_gap(cJSON *obj, int64_t length, int64_t optimum)
{
    if (optimum > 0) {
        cli_json_add_int64(obj, "optimum", optimum);
        cJSON_AddNumberToObject(obj, "gap_percent", cli_gap_percent(length, optimum));
    } else {
        cJSON_AddNullToObject(obj, "optimum");
        cJSON_AddNullToObject(obj, "gap_percent");
    }
}

void cli_report_stdout_failure(void)
{
    static bool said;
    if (!said)
        fprintf(stderr, "%s: cannot write to standard output: %s\n", cli_program(),
                strerror(errno));
    said = true;
}

bool cli_json_print(cJSON *obj)
{
    char *text = cJSON_PrintUnformatted(obj);
    cJSON_Delete(obj);
    if (!text) {
        fprintf(stderr, "%s: out of memory printing the JSON\n", cli_program());
        return false;
    }
    int ok = puts(text) >= 0 && fflush(stdout) == 0;
    if (!ok) cli_report_stdout_failure(); /* a full disk, say: the caller exits 1 */
    cJSON_free(text);
    return ok;
}
