/*
 * cpu_session.h - the CPU backend's tour sessions (see backend.h).
 */
#ifndef WT_BACKEND_CPU_SESSION_H
#define WT_BACKEND_CPU_SESSION_H

#include "backend/backend.h"

extern const wt_session_ops wt_cpu_session_ops;

#endif
