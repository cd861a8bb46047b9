/*
 * timeline.h - what the files of `warptour-bench timeline` share.
 *
 * bench_timeline.c parses the options, runs ours in the hidden child mode
 * and prints the lines and the table; timeline_proc.c runs processes with
 * every line they print timestamped by the parent's clock; timeline_peers.c
 * knows the peer programs (Concorde's linkern, LKH-3): how to call each and
 * which of its lines carry a tour length.
 */
#ifndef WT_BENCH_TIMELINE_H
#define WT_BENCH_TIMELINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One timestamped length of a run. */
typedef struct tl_sample {
    double t;
    int64_t length;
} tl_sample;

/* What one run produced: ours on a backend, or a peer's N processes at once
 * (their lengths merged: the best of them at t is the best sample by t). */
typedef struct tl_run {
    tl_sample *s;      /* in arrival order, so ascending t */
    size_t count, cap;
    int procs;         /* processes the run was (a peer's --peer-runs), 0: none ran */
    double exit_s;     /* when its last process ended (or was stopped) */
    double returned_s; /* ours: when wt_solve returned, before the process's teardown */
    int killed;        /* processes stopped by the bench at max(--at) + grace */
    int status;        /* the first nonzero exit status of its processes, -1: one was
                          killed by a signal; 0 when all exited with 0 */
    int64_t bound;     /* ours: the lower bound the run proved (wt_result.lower_bound),
                          -1 when none */
    char ran[48];      /* ours: "cpu/ils", the backend and algorithm that ran */
    char stop[32];     /* ours: wt_stop_reason_name */
    char init[32];     /* ours: the start tour it made (wt_result.init_made) */
    double gpu_busy;   /* ours: the GPU kernels' seconds over the search's */
    double gpu_busy_concurrent; /* ours: over the concurrent windows' seconds */
} tl_run;

void tl_run_add(tl_run *r, double t, int64_t length);

/* The best length at or before t, -1 when none. */
int64_t tl_run_best_at(const tl_run *r, double t);

/* ------------------------------------------------------ timeline_proc.c */

/* Called with each line a process prints and its arrival time. */
typedef void (*tl_line_fn)(tl_run *r, double t, char *line);

/* Starts the count processes argvs[0..count) at once (argv[0] a path, run
 * in cwd when not NULL), their stdout on pipes, and hands every line to fn
 * with its arrival time by this process's clock from just before the first
 * fork, until all have ended or until stop_at seconds, when those left get
 * SIGTERM, then SIGKILL a second later.  Fills r's procs, exit_s, killed
 * and status.  False (after a message) when none could be started. */
bool tl_run_processes(char **const argvs[], int count, const char *cwd, double stop_at,
                      tl_line_fn fn, tl_run *r);

/* ----------------------------------------------------- timeline_peers.c */

typedef enum tl_peer_kind { TL_PEER_LINKERN = 0, TL_PEER_LKH, TL_N_PEER_KINDS } tl_peer_kind;

typedef struct tl_peer {
    tl_peer_kind kind;
    const char *path; /* the program, as given */
} tl_peer;

/* "linkern" or "lkh". */
const char *tl_peer_name(tl_peer_kind kind);

/* Parses NAME=PATH; false when NAME is no known peer or PATH is empty. */
bool tl_peer_parse(const char *arg, tl_peer *p);

/* Whether the peer's program can be run; else prints why, naming the path. */
bool tl_peer_check(const tl_peer *p);

/* A peer column's names for `runs` processes at once: key, the backend= of
 * the bench= lines ("linkern", "linkern-x16"), and label, the table's
 * ("linkern", "16 linkerns"). */
void tl_peer_names(const tl_peer *p, int runs, char *key, size_t key_size, char *label,
                   size_t label_size);

/* Prints the "# peer:" lines of the header: what each peer runs as. */
void tl_peer_describe(const tl_peer *p);

/* Runs `runs` processes of the peer at once on the instance at path (n
 * cities), seeds seed .. seed + runs - 1, each with the time limit max_s,
 * stopped at stop_at; their files go to dir (removed afterwards).  False
 * (after a message) when it could not start. */
bool tl_peer_run(const tl_peer *p, int runs, uint64_t seed, double max_s, double stop_at,
                 const char *dir, const char *path, int n, tl_run *r);

#endif
