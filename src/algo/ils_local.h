/*
 * ils_local.h - the host tour session of ILS with local descents
 * (params.ils_descent = WT_ILS_LOCAL; ils_local.c says how it works).
 * Needs n >= 4 (ILS kicks only from 8 cities on).
 */
#ifndef WT_ALGO_ILS_LOCAL_H
#define WT_ALGO_ILS_LOCAL_H

#include "backend/backend.h"

extern const wt_session_ops wt_local_session_ops;

#endif
