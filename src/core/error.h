/*
 * error.h - filling a caller's wt_error.
 *
 * Every failing library call goes through wt_fail(), so a message is always
 * paired with the status it explains and a NULL wt_error is always allowed.
 */
#ifndef WT_CORE_ERROR_H
#define WT_CORE_ERROR_H

#include "warptour.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Records status and a printf-style message in err (if non-NULL) and returns
 * status, so callers can write `return wt_fail(err, WT_STATUS_IO, ...)`. */
#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
wt_status wt_fail(wt_error *err, wt_status status, const char *fmt, ...);

#ifdef __cplusplus
}
#endif

#endif
