/*
 * ils_common.h - what the host's ILS drivers share: the searches (one a
 * thread, each a local-search engine with its own stream of kicks), a
 * search's kick and repair, a round of kicks, and the drivers' entries for
 * ils_local.c, which picks one by how the threads share the work:
 *  - replicas (ils_replicas.c): each thread a copy of the whole tour; at
 *    each meeting all take the best one;
 *  - segments (ils_segments.c): the tour cut into one run of consecutive
 *    positions per thread, each searched as a path with fixed ends;
 *  - merged replicas (ils_merged.c): each thread kicks its own region of a
 *    full two-level-list copy; their changes are merged into one tour;
 * and the first descent before them (ils_first.c).  A round is the kicks
 * between two meetings of the threads.  Internal to these files.
 */
#ifndef WT_ALGO_ILS_COMMON_H
#define WT_ALGO_ILS_COMMON_H

#include <stdbool.h>
#include <stdint.h>

#include "algo/windows_concurrent.h"
#include "core/search_ctl.h"
#include "ls/engine.h"
#include "ls/merge.h"
#include "warptour.h"

typedef struct ils_search {
    wt_ls *w;
    uint64_t seed;     /* its kick stream */
    int walk;          /* > 0: random-walk kicks of this many steps, else
                          segment-restricted ones (wt_ls_kick_points) */
    uint64_t next;     /* its next kick number */
    int64_t best_len;  /* length of the committed tour (or closed path) */
    int64_t base;      /* segments: the closed path's length at the round's start, else 0 */
    int64_t shown;     /* best_len - base (+ acc), for the progress report (atomic access) */
    int64_t acc;       /* segments: the gains of this round's earlier segments (<= 0) */
    int start, m;      /* segments: the path's first position in the tour, its cities */
    const int32_t *region; /* merged replicas: its kicks start at these cities */
    int region_m;          /* (that many; region NULL: any city) */
    double until;          /* > 0: no kick after this time (wt_now), so that what
                              follows the round ends by the deadline */
    double kicked;         /* merged replicas: when its last round's kicks ended, */
    double kick_s;         /* and their seconds a kick */
    uint64_t kicks, kept, moves;
    wt_merge *merger;  /* merging meetings (ils_combine.c): its scratch, */
    int32_t *child;    /* and its child's n cities (NULL until first needed) */
    uint64_t shakes;   /* its diversifications' kicks so far */
    int shake;         /* kicks of the diversification before its next round */
    wt_status st;
    wt_error err;
} ils_search;

/* The threads that run T searches: T where ctl allows that many, else
 * ctl->threads, the searches then taking turns (a run's searches, not its
 * threads, decide its tours: wt_policy_ils_searches). */
static inline int ils_team(int T, const wt_search_ctl *ctl)
{
    int threads = ctl->threads > 0 ? ctl->threads : 1;
    return T < threads ? T : threads;
}

/* ------------------------------------------------------- ils_common.c */

/* Kicks of each search a round (WT_ILS_ROUND_KICKS, or tuning.ils_round_kicks). */
uint64_t ils_round_kicks(const wt_tuning *t);
/* T searches, kicking as suits the moves of proto's descents (engines not
 * made yet); NULL when out of memory (err set). */
ils_search *ils_searches_new(const wt_ls *proto, wt_search_ctl *ctl, int T, wt_error *err);
void ils_searches_free(ils_search *s, int T); /* and their engines */
/* The flag that ends a round early (time limit, Ctrl-C, a failure), set
 * and read by every thread. */
void ils_set_halt(int *halt);
bool ils_halted(int *halt);
/* Part u's share of a round of `quota` kicks over `parts` parts. */
uint64_t ils_share(uint64_t quota, uint64_t parts, uint64_t u);
/* `mine` kicks of search t of T, on a tour (or path) of n cities; with
 * segments, *tour_len is the tour's length at the round's start.  Thread
 * 0 (the solving thread) also reports progress; every thread watches
 * ctl. */
void ils_run_round(ils_search *all, int t, int T, uint64_t mine, int n, wt_search_ctl *ctl,
                   uint64_t done_before, const int64_t *tour_len, int *halt);
/* Progress between kicks' rounds' or segments' pieces of work, from
 * search t == 0 (the solving thread) alone: the searches' best length as
 * ils_run_round reports it (done_before: the kicks shown), and the halt
 * set where ctl says stop; any other t only watches ctl. */
void ils_report_round(ils_search *all, int t, int T, wt_search_ctl *ctl, uint64_t done_before,
                      const int64_t *tour_len, int *halt);
/* The T searches' kicks, kept kicks and moves, added to stats. */
void ils_add_stats(wt_search_stats *stats, const ils_search *s, int T);
uint64_t ils_kicks_of(const ils_search *s, int T);
/* Where round r cuts (or rotates) the tour of n cities: 0 for the first
 * descent, then drawn from the seed. */
int ils_round_offset(uint64_t seed, uint64_t r, int n);
/* The improved paths of the concurrent windows that have ended go into
 * tour (length *length), which the next round then starts from (wait:
 * the last round, asked to end). */
void ils_splice_windows(wt_concurrent_windows *concurrent, int32_t *tour, int64_t *length,
                        bool wait);

/* Whether at least WT_ILS_TIED_SHARE percent of the cities have their two
 * nearest candidates (in w's lists) at one length: grids of lines, where
 * the chain keeps much of its start tour, other start tours pay
 * (ils_list_first_descent), and the k-opt step's gains under the ascent's
 * penalties cost its kicks more than they give (wt_policy_lk_kick_pi), and
 * short runs take the tied rules (wt_policy_lk_tied_short). */
bool ils_mostly_tied(const wt_ls *w, const wt_instance *inst);
/* The same share measured on the instance before any list exists: the
 * two nearest cities of up to WT_ILS_TIED_SAMPLE cities spread over the
 * numbering, found in a k-d tree of all cities built by `threads`
 * threads.  false for a matrix (no tree) or where memory runs out. */
bool ils_instance_tied(const wt_instance *inst, int threads);

/* The start tour remade from the ascent's alpha lists (ils_first.c): greedy
 * over their edges by pi-transformed length, the paths left chained as
 * greedy's (core/init.h, wt_tour_init_greedy_pairs), into tour; a stop
 * during it leaves tour as it was. */
struct wt_alpha;
wt_status ils_alpha_start_tour(const wt_instance *inst, const struct wt_alpha *alpha,
                               wt_search_ctl *ctl, int32_t *tour, wt_error *err);

/* ----------------------------------------------------- ils_replicas.c */

/* The replicas of whole's tour (length `length`); whole becomes search 0
 * (still the caller's to free). */
wt_status ils_replicas_open(wt_ls *whole, int64_t length, wt_search_ctl *ctl, int T,
                            ils_search **out, wt_error *err);
void ils_replicas_close(ils_search *s, int T);
/* Every search takes up search b's tour (or tour, when b < 0). */
void ils_replicas_meet(ils_search *s, int T, int b, const int32_t *tour, int64_t length,
                       const wt_search_ctl *ctl);
/* One round of the replicas, `done` kicks made before it; then all take up
 * the best, which also goes to tour and *length. */
wt_status ils_replicas_round(ils_search *s, int T, int32_t *tour, int n, uint64_t quota,
                             wt_search_ctl *ctl, uint64_t done, int64_t *length, int *halt,
                             wt_error *err);
/* The kicks of T searches on replicas, meeting every round. */
wt_status ils_kick_replicas(wt_ls *whole, int32_t *tour, int n, wt_search_ctl *ctl, int T,
                            uint64_t kicks, int64_t *length, wt_search_stats *stats,
                            wt_error *err);

/* ----------------------------------------------------- ils_segments.c */

/* The searches of T * turns segments (each search takes `turns` of them
 * one after another) and the tour's inverse they share. */
typedef struct ils_segments {
    ils_search *s;
    int32_t *where; /* where[tour[x]] = x, refreshed every round */
    int turns;      /* segments a search takes in turn this round */
    int shorter;    /* the turns of a round on the shorter segments */
    bool share_room; /* engines with room for a search's whole share (local
                        descents), for the rounds that take it as one */
} ils_segments;

/* Cities a thread from which the searches kick on segments. */
long long ils_segment_min(const wt_tuning *t, bool lk);
/* Segment engines for the segments of a tour of n cities, with lists from
 * whole's. */
wt_status ils_segments_open(const wt_ls *whole, int n, wt_search_ctl *ctl, int T,
                            ils_segments *out, wt_error *err);
void ils_segments_close(ils_segments *k, int T);
/* One round on every segment, cut from `offset` (a round of no kicks: the
 * descents alone); adds the segments' gains to *length.  *done: in, the
 * kicks before (for the progress report); out, the segments' kicks. */
wt_status ils_segments_round(ils_segments *k, int T, int32_t *tour, int n, int offset,
                             uint64_t quota, wt_search_ctl *ctl, uint64_t *done,
                             int64_t *length, int *halt, wt_error *err);
/* The kicks on segments (with a replica round every k where it pays),
 * from the tour of length *length; the tour and *length follow. */
wt_status ils_kick_segments(wt_ls *whole, int32_t *tour, int n, wt_search_ctl *ctl, int T,
                            uint64_t kicks, bool large_lk, wt_concurrent_windows *concurrent,
                            int64_t *length, wt_search_stats *stats, wt_error *err);

/* ------------------------------------------------------- ils_merged.c */

/* Whether LK searches kick merged replicas on a tour of n cities, in a
 * tied short run (wt_policy_lk_tied_short) or not. */
bool ils_merged_on(const wt_tuning *t, int n, bool tied_short);
/* The kicks of T searches on merged replicas; concurrent (NULL, or with
 * T > 1): concurrent windows, whose improved paths go in at the merges. */
wt_status ils_kick_merged(wt_ls *whole, int32_t *tour, int n, wt_search_ctl *ctl, int T,
                          uint64_t kicks, wt_concurrent_windows *concurrent, int64_t *length,
                          wt_search_stats *stats, wt_error *err);

/* ------------------------------------------------------ ils_combine.c */

/* Rounds without a shorter tour after which the merging meetings of T
 * searches on a tour of n cities diversify (merged: merged replicas'),
 * or 0 where the meetings do not merge (wt_policy_ils_merge_stall). */
int ils_merge_stall(const wt_search_ctl *ctl, int T, int n, bool merged);
/* Merges the tours of the T searches (their committed tours, of lengths
 * best_len) and tour (length *length), pairwise in a tree on T threads,
 * into tour and *length (never longer): partition crossover (ls/merge.h). */
wt_status ils_combine(ils_search *s, int T, int32_t *tour, int n, int64_t *length,
                      const wt_search_ctl *ctl, wt_error *err);
/* Merges tour (length *length) with each search's committed tour in turn
 * (search 0 first), into tour and *length: for a tour into which the
 * searches' changes already went where they clash with none (merged
 * replicas), the rest of their gains. */
wt_status ils_combine_each(ils_search *s, int T, int32_t *tour, int n, int64_t *length,
                           wt_error *err);
/* The diversification of a search before its round: `count` kicks at
 * random places, all kept, then a descent and a commit (best_len: the
 * new, often longer, length).  false when the descent failed (s->st). */
bool ils_shake(ils_search *s, int n, int count);
/* Kicks of a diversification of a search on a tour of n cities. */
int ils_shake_kicks(int n);

/* --------------------------------------------------------- ils_first.c */

/* The descent from every city of the start tour, in whole (whose tour is
 * the start tour) and copied back into tour (ils_first.c says how). */
wt_status ils_first_descent(wt_ls *whole, int32_t *tour, bool on_segments, bool two_opted,
                            bool large_lk, int n, wt_search_ctl *ctl, int T,
                            wt_search_stats *stats, wt_error *err);
/* The first list descent from one or more start tours; whole ends on the
 * shortest result, which is copied into tour. */
wt_status ils_list_first_descent(wt_ls *whole, int32_t *tour, const wt_instance *inst,
                                 wt_search_ctl *ctl, int T, wt_search_stats *stats,
                                 wt_error *err);
/* The k-opt step's first descent in a short run where ties abound
 * (wt_policy_lk_tied_short): from one or more start tours side by side,
 * as ils_list_first_descent's, each descended on the array as
 * ils_first_descent descends a whole tour on one thread; whole ends on the
 * shortest, copied into tour.  On lines of equally spaced cities the
 * first descent's result depends much on its start (pla7397 at 1 s: 0.53
 * to 1.43% above the optimum), and the other searches' threads would wait
 * for it idle. */
wt_status ils_tied_first_descent(wt_ls *whole, int32_t *tour, const wt_instance *inst,
                                 wt_search_ctl *ctl, int T, wt_search_stats *stats,
                                 wt_error *err);
/* The first descent from S start tours side by side, one a search: the
 * configured one (tour, whole's) and S - 1 Quick-Boruvka tours swept at
 * evenly spaced angles, each descended from every city; their tours
 * merged by partition crossover, shortest first, into whole (so never
 * longer than the shortest of them), and the merged tour descended from
 * every city again; tour becomes whole's. */
wt_status ils_merged_first_descent(wt_ls *whole, int32_t *tour, const wt_instance *inst,
                                   wt_search_ctl *ctl, int S, wt_search_stats *stats,
                                   wt_error *err);
/* The 2-opt + Or-opt first descent of a large tour that LK searches take
 * up next (into tour): on segments, then the whole tour's; of a 2-opted
 * tour (two_opted), two rounds of segments alone (ils_first_descent). */
wt_status ils_plain_first_descent(const wt_instance *inst, int32_t *tour, bool two_opted,
                                  wt_search_ctl *ctl, int T, wt_search_stats *stats,
                                  wt_error *err);

#endif
