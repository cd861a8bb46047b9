/*
 * error.c - status names and the one helper that fills a wt_error.
 */
#include "core/error.h"

#include <stdarg.h>
#include <stdio.h>

const char *wt_status_str(wt_status status)
{
    switch (status) {
    case WT_OK: return "ok";
    case WT_STATUS_INVALID_ARGUMENT: return "invalid argument";
    case WT_STATUS_OUT_OF_MEMORY: return "out of memory";
    case WT_STATUS_IO: return "input/output error";
    case WT_STATUS_PARSE: return "malformed input";
    case WT_STATUS_UNSUPPORTED: return "unsupported input";
    case WT_STATUS_INVALID_TOUR: return "invalid tour";
    case WT_STATUS_NO_DEVICE: return "backend not available";
    case WT_STATUS_DEVICE: return "GPU error";
    case WT_STATUS_TOO_LARGE: return "problem too large";
    }
    return "unknown status";
}

wt_status wt_fail(wt_error *err, wt_status status, const char *fmt, ...)
{
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->message, sizeof err->message, fmt, ap);
        va_end(ap);
        err->status = status;
    }
    return status;
}
