/*
 * tuning.h - how the library reads the experimental tuning.
 *
 * wt_params.tuning is a pointer the caller may leave NULL for the
 * defaults; every search reads it through wt_tuning_of, which turns NULL
 * into the all-zero tuning (every field its default), so no reader tests
 * for NULL and none sees another default.  The struct itself is
 * warptour_experimental.h's.
 */
#ifndef WT_CORE_TUNING_H
#define WT_CORE_TUNING_H

#include "warptour.h"
#include "warptour_experimental.h"

#ifdef __cplusplus
extern "C" {
#endif

/* p's tuning, or the default tuning (a constant, all zero) when p->tuning is
 * NULL; p must not be NULL.  Never NULL. */
const wt_tuning *wt_tuning_of(const wt_params *p);

#ifdef __cplusplus
}
#endif

#endif
