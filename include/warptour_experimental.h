/*
 * warptour_experimental.h - the experimental part of libwarptour's API.
 *
 * What is here may change or go away in any version, minor and patch ones
 * included (as zstd's experimental section): the knobs that benchmarks and
 * tests turn, the shapes of the GPU kernels and the rounds of the host's
 * searches.  A user has no need of them: every default was measured
 * (bench/RESULTS.md).  docs/library.md, "Tuning (experimental)", lists
 * each field's default; src/algo/policy.h sets those of the host's
 * searches, src/backend/cuda those of the kernels.  A program that
 * includes this header should expect to follow it from version to
 * version; warptour.h alone is the stable contract, and its conventions
 * hold here too.
 *
 * A wt_tuning reaches wt_solve through wt_params.tuning (NULL: the
 * library's tuning).  0 in a field means the library's default, so a
 * zeroed struct is the default tuning; WT_TUNING_OFF turns off what a
 * field says it may.  Any value outside those listed is refused by
 * wt_solve (WT_STATUS_INVALID_ARGUMENT, naming the field).  A tuning
 * changes how a search runs, and with it the tour a seed gives.
 */
#ifndef WARPTOUR_EXPERIMENTAL_H
#define WARPTOUR_EXPERIMENTAL_H

#include "warptour.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The scan of multistart's one-warp climbers (below 1000 cities). */
typedef enum wt_ms_scan {
    WT_MS_SCAN_AUTO = 0, /* the cheapest by the kernels' cost model (default) */
    WT_MS_SCAN_SQUARES,  /* 8-column squares of the (i, j) triangle */
    WT_MS_SCAN_GAPS,     /* tiles of the (row, gap) rectangle, one round or several */
    WT_MS_SCAN_ROUNDS    /* the rectangle in several rounds only, where n allows */
} wt_ms_scan;

/* ILS with local and LK descents shares its work among the host's threads
 * in one of three ways: replicas (each thread kicks a copy of the whole
 * tour; at each meeting all take the best one), segments (the tour cut
 * into one run of consecutive positions a thread, each searched as a path
 * whose ends stay in place) and merged replicas (each thread kicks its own
 * region of a copy of the whole tour held as a two-level list; their
 * changes are merged into one tour).  A round is the kicks between two
 * meetings of the threads. */
struct wt_tuning {
    /* ils with local and lk descents, on the host's threads */
    int64_t ils_round_kicks;  /* kicks of each search a round; 0: the default
                                 (src/algo/policy.h), by the way the threads
                                 share the kicks and a segment's cities;
                                 WT_TUNING_OFF: never meet; else >= 1 (replicas
                                 and segments alike; beyond 2^40: never) */
    int64_t ils_segment_min;  /* cities a segment from which the searches kick on
                                 segments of the tour instead of replicas of it;
                                 0: the default (src/algo/policy.h), lower for
                                 lk descents; WT_TUNING_OFF: never; else >= 1 */
    int64_t ils_segment_max;  /* the longest segment: a search whose share of the
                                 tour is longer takes several segments of it in
                                 turn; 0: the default (src/algo/policy.h, one for
                                 local and one for lk descents); WT_TUNING_OFF:
                                 none (local descents: one segment a search);
                                 else >= 8 */
    int ils_share_round_every; /* local descents on segments shorter than a
                                 search's share (ils_segment_max): every this
                                 many rounds of kicks, one on whole shares;
                                 0: the default (src/algo/policy.h);
                                 WT_TUNING_OFF: never; else >= 1 */
    int ils_window;           /* ils with window descents, and the concurrent
                                 windows: cities a window; 0: the default
                                 (src/algo/policy.h); else >= 8 */
    int ils_window_3opt;      /* those windows' sequential 3-opt moves: the nearest
                                 cities of a first move's loose end tried for the
                                 third edge, with kicks of four edges
                                 (wt_batch_params.three_opt); 0: the default
                                 (src/algo/policy.h), for the concurrent windows
                                 by the tour's size; WT_TUNING_OFF: none; else
                                 1..8 */
    int ils_replica_every;    /* every ils_replica_every-th round on segments is a
                                 replica round; 0: the default (src/algo/policy.h),
                                 by a segment's cities; WT_TUNING_OFF: never;
                                 else >= 1 */
    int64_t ils_list_descent_min; /* lk descents on tours too large for replicas
                                 (src/algo/policy.h): cities a thread from which
                                 the first descent is a list descent (on the
                                 whole tour held as a two-level list) instead of
                                 one on segments; 0: the default (src/algo/
                                 policy.h: always for the flip chain, for the
                                 k-opt step up to a size); WT_TUNING_OFF:
                                 never; else >= 1 */
    int64_t ils_merged_min;   /* lk descents: cities from which the searches kick
                                 merged replicas, merged every round, instead of
                                 segments or replicas on arrays; 0: the default
                                 (src/algo/policy.h); WT_TUNING_OFF: never; else
                                 >= 1 */
    int ils_starts;           /* lk descents, no params.start_tour: start tours
                                 whose first descents run side by side (the
                                 configured one and Quick-Boruvka sweeps); where
                                 the first descent is a list descent, on tours up
                                 to a size (src/algo/policy.h), the shortest
                                 kept, else (on the array) their tours merged;
                                 0: the default (src/algo/policy.h): list
                                 descents several, at most one a thread, where
                                 many cities have their two nearest at one
                                 length; on the array one a search where the
                                 k-opt step chains as LKH's, from a size; else
                                 the configured one only; WT_TUNING_OFF: the
                                 configured one only; else >= 1, at most one a
                                 thread (a search on the array) */
    int64_t ils_concurrent_min; /* lk or local descents under --backend auto with a
                                 time limit and more than one thread: cities from
                                 which a usable GPU runs concurrent windows, window
                                 searches of the tour while the host's threads
                                 search; 0: the default (src/algo/policy.h);
                                 WT_TUNING_OFF: never; else >= 1 */
    int auto_device_min_ms;   /* ils with lk descents under WT_BACKEND_AUTO with a
                                 time limit: the limit, milliseconds, from which
                                 a usable GPU takes part (the ascent, concurrent
                                 windows); under it the run leaves the GPU out,
                                 its context never made; 0: the default
                                 (src/algo/policy.h: 5 s); WT_TUNING_OFF: from
                                 any limit; else 1..3600000 */
    int ils_concurrent_round_ms; /* the concurrent windows' rounds, milliseconds; 0:
                                 the default (src/algo/policy.h); else
                                 100..60000 (their windows: ils_window's
                                 cities) */
    int ils_window_resident;  /* the concurrent windows on a GPU: 0, the default,
                                 keep the instance and its candidate lists on
                                 the GPU and make each round's windows there;
                                 WT_TUNING_OFF: cut them into instances on the
                                 host each round */
    int64_t ils_device_lists_min; /* host ILS with a GPU beside it (its concurrent
                                 windows' device): cities from which the whole
                                 tour's candidate lists come from the GPU (the
                                 same lists as the host's); 0: the default
                                 (src/algo/policy.h); WT_TUNING_OFF: never; else
                                 >= 1 */
    int64_t renumber_min;     /* ils with lk, local or window descents (not
                                 full ones): cities from which wt_solve searches
                                 a copy of the instance whose cities are
                                 numbered in the order of the Hilbert curve, so
                                 that cities near in the plane lie near in
                                 memory, and returns the tour in the instance's
                                 numbers;
                                 0: the default (src/algo/policy.h: from a
                                 size, where the instance's numbering
                                 scatters the cities); WT_TUNING_OFF: never;
                                 else >= 1: from that many cities, whatever
                                 the numbering */
    int64_t ils_lk_large_min; /* lk descents: cities from which a tour is
                                 searched as a large one: its first descent
                                 the list descent or, on segments, 2-opt +
                                 Or-opt and then LK, start tours by
                                 ils_starts' rule for list descents, no
                                 replicas on arrays; 0: the default (above
                                 WT_ILS_LK_REPLICAS_MAX, src/algo/policy.h);
                                 WT_TUNING_OFF: never; else >= 1 */
    int64_t ils_plain_list_min; /* the first descent's 2-opt + Or-opt descent
                                 of the whole tour: cities from which its
                                 2-opt moves run first on the tour held as a
                                 two-level list (a flip O(sqrt n) instead of
                                 up to n / 2), Or-opt's then on the array;
                                 0: the default (WT_ILS_PLAIN_LIST_MIN,
                                 src/algo/policy.h); WT_TUNING_OFF: never */
    int ils_concurrent_ahead; /* the concurrent windows' rounds searched and
                                 not yet spliced into the host's tour, at most
                                 (then the rounds wait for the host's next
                                 merge); 0: the default (src/algo/policy.h);
                                 else 1..64 */
    int ils_merge;            /* replicas and merged replicas, more than one
                                 thread: at each meeting the searches' tours are
                                 merged by partition crossover into one no
                                 longer than the best, which all take up, and
                                 after rounds without a shorter tour all
                                 searches but the first start their rounds from
                                 it with a diversification (kicks at random
                                 places, all kept); 0: the default (src/algo/
                                 policy.h: merged replicas merge, diversifying
                                 after 3 rounds, on tours up to a size with at
                                 least 8 searches; else as WT_TUNING_OFF);
                                 WT_TUNING_OFF: the meetings of before (all
                                 take the best; merged replicas take each
                                 search's changes where they clash with none
                                 taken before); else >= 1: merge, diversify
                                 after this many rounds */
    int ils_searches;         /* ils with lk or local descents on the host: the
                                 searches that share the kicks; 0: the default
                                 (src/algo/policy.h): one a thread under a time
                                 limit alone, else by the kick budget whatever
                                 the threads; else 1..256, whatever the threads
                                 (more than threads: they take turns) */
    /* ils with lk descents: the LK step and the kick; 0: the default
     * (src/algo/policy.h), broader and deeper from a tour's size on */
    int lk_candidates;        /* candidate cities a city; 0: the default; else
                                 1..16 */
    int lk_depth;             /* most flips of one step; 0: the default; else
                                 1..100 */
    int lk_breadth1;          /* alternatives tried at level 1 when a kick is repaired
                                 (the first descent always tries the narrower
                                 default); 0: the default; else 1..12 */
    int lk_breadth2;          /* at level 2; 0: the default; else 1..12 */
    int lk_breadth3;          /* at level 3; 0: the default; else 1..12 */
    int lk_breadth4;          /* at level 4; 0: the default; else 1..12 */
    int lk_breadth5;          /* at level 5; 0: the default; else 1..12 */
    int lk_walk;              /* steps of the random walks that place a kick's cuts;
                                 0: the default (longer with the k-opt step);
                                 else 1..1000 */
    int lk_kopt;              /* the LK step's basic move: 0: the default
                                 (src/algo/policy.h): the 5-opt move on the
                                 alpha lists (lk_alpha), the flip chain below
                                 1,000 cities, under short time limits, without
                                 the lists and for asymmetric instances;
                                 WT_TUNING_OFF: the flip chain (src/ls/lk.c);
                                 3, 4, 5: a sequential k-opt move of up to this
                                 many edges, searched exhaustively over the
                                 candidates (LKH's step, src/ls/kopt.c) */
    int lk_kopt_submoves;     /* the k-opt step: non-gaining k-opt moves a step
                                 makes before one that gains, at most; 0: the
                                 default (src/algo/policy.h); WT_TUNING_OFF:
                                 none; else 1..100 */
    int lk_kopt_chains;       /* the k-opt step's chains of submoves: 1: restricted
                                 as LKH's in every descent (only each
                                 submove's last removed edge must be new to
                                 the chain; src/ls/kopt.c); 2: so in the
                                 first descent, Lin & Kernighan's in the
                                 kicks' repairs; WT_TUNING_OFF: Lin &
                                 Kernighan's everywhere (no edge the chain
                                 added removed, none removed added again); 0:
                                 the default (src/algo/policy.h) */
    int lk_nonseq;            /* the k-opt step: 1: where it finds nothing from a
                                 city, an improving double bridge (a
                                 non-sequential 4-opt move, src/ls/kopt_nonseq.c); 0:
                                 the default (src/algo/policy.h: none);
                                 WT_TUNING_OFF: none */
    int lk_kick_candidates;   /* the k-opt step on alpha lists: candidates a
                                 city when a kick is repaired (the best by
                                 alpha; the first descent takes them all); 0:
                                 the default (src/algo/policy.h);
                                 WT_TUNING_OFF: all; else 1..16, at most
                                 all */
    int lk_kick_pi;           /* the k-opt step on alpha lists: whether a kick's
                                 repair measures gains under the ascent's
                                 penalties, as the first descent does; 0: the
                                 default (src/algo/policy.h: not where most
                                 cities' two nearest lie at one length); 1:
                                 always; WT_TUNING_OFF: never */
    int lk_alpha;             /* the Held-Karp ascent: 1: its proven bound, and
                                 its candidates by alpha-nearness (five a city;
                                 lk_candidates sets how many), with the k-opt
                                 step for every descent (the ascent first), with
                                 the flip chain for the kicks (the ascent after
                                 the first descent); 2: its bound only (quadrant
                                 neighbours; the ascent after the first descent);
                                 WT_TUNING_OFF: no ascent; 0: the default
                                 (src/algo/policy.h): 1 with the k-opt step, 2
                                 with the flip chain.  2 and WT_TUNING_OFF make
                                 lk_kopt's default the flip chain */
    int lk_alpha_start;       /* where the ascent runs before the first descent
                                 (the k-opt step on the alpha lists), no
                                 params.start_tour and no fixed edges: 1: the
                                 start tour remade after it, greedy over the
                                 alpha candidates' edges by pi-transformed length;
                                 0: the default (src/algo/policy.h: not);
                                 WT_TUNING_OFF: not */
    int ils_lk_device_first;  /* LK on a large tour whose first descent begins
                                 with 2-opt + Or-opt, with a GPU for concurrent
                                 windows: 0: the default, that GPU's first
                                 optimum (2-opt + Or-opt) in place of the
                                 host's; WT_TUNING_OFF: the host's */
    int lk_alpha_beside;      /* where that ascent runs on a GPU and a large
                                 tour's first descent begins with 2-opt + Or-opt
                                 (no lists needed): 0: the default, the ascent
                                 beside that descent, in a thread of its own;
                                 WT_TUNING_OFF: before it */
    int ascent_iterations;    /* the ascent's subgradient steps at most; 0: the
                                 default (src/algo/policy.h); else 1..1000000 */
    int ascent_period;        /* steps of the ascent's first period (its step rule
                                 halves the step and the period after each);
                                 0: the default (src/algo/policy.h; for
                                 wt_lower_bound max(n / 2, 100)); else
                                 1..1000000 */
    int ascent_share_pct;     /* the ascent's share of the time limit at most,
                                 percent; 0: the default (src/algo/policy.h);
                                 else 1..100 */
    /* cuda: the whole-GPU 2-opt pass (2opt, ils); 0: the CUDA backend's
     * default (src/backend/cuda/twoopt_pass.cu), some by n and the GPU */
    int pass_rows;            /* rows per lane; 0: by n; 8, 16 */
    int pass_block;           /* threads per block at 8 rows a lane; 0: by whether
                                 the pass fills the GPU; 128, 256, 512 */
    int pass_piece;           /* columns per offer of a row's best; 0: the
                                 default; 256, 512, 1024 */
    int pass_period;          /* longest offset chain of the integer column loop
                                 (shorter where the coordinates need it); 0: the
                                 default; 2, 4, 8 */
    bool pass_float_loop;     /* the float column loop where the integer one would
                                 run */
    bool pass_unchained;      /* the recovery of each row's column launched without
                                 programmatic serialization behind the pass */
    int pass_prune_min;       /* fewest cities for the pruned pass (params.prune);
                                 0: the default; else >= 1 */
    /* cuda: multistart's block kernel */
    int ms_block;             /* threads per climber; 0: by n; 32, 64, 128, 256, 512 */
    int ms_tc;                /* columns per strip; 0: by n; 4, 8, 16.  Either of
                                 ms_block and ms_tc set runs the squares scan; the
                                 shapes with kernels are 32x8, 32x16, 64x4, 64x8,
                                 128x8, 128x16, 256x8, 256x16 and 512x16 (another:
                                 WT_STATUS_INVALID_ARGUMENT when the climbs start) */
    wt_ms_scan ms_scan;       /* one-warp climbers' scan (default WT_MS_SCAN_AUTO) */
    int ms_gap_c;             /* gaps per tile of the rectangle scan; 0: by the cost
                                 model; 7, 8, 10 */
};

/* The fields of wt_tuning by name, for programs that set them from text or
 * other languages (the CLI's --tune, Python's tuning=): each field's name,
 * its kind and its offset in the struct. */
typedef enum wt_tuning_kind {
    WT_TUNING_I64 = 0, /* int64_t */
    WT_TUNING_INT,     /* int */
    WT_TUNING_FLAG,    /* bool */
    WT_TUNING_SCAN     /* wt_ms_scan */
} wt_tuning_kind;

typedef struct wt_tuning_field {
    const char *name;     /* the member's name, e.g. "pass_rows" */
    wt_tuning_kind kind;
    size_t offset;        /* offsetof(wt_tuning, member) */
    const char *old_name; /* the member's name in version 0.1.0 where it has been
                             renamed since ("ils_epoch" for ils_round_kicks), which
                             wt_tuning_field_named takes for one release; NULL
                             where the name stayed */
} wt_tuning_field;

/* All fields of wt_tuning in declaration order; *count gets how many
 * (count may be NULL). */
const wt_tuning_field *wt_tuning_fields(size_t *count);

/* The field of that name, or of that old_name; NULL for any other name
 * and for NULL. */
const wt_tuning_field *wt_tuning_field_named(const char *name);

/* "auto", "squares", "gaps", "rounds"; NULL out of range. */
const char *wt_ms_scan_name(wt_ms_scan s);

#ifdef __cplusplus
}
#endif
#endif /* WARPTOUR_EXPERIMENTAL_H */
