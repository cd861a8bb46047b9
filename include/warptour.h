/*
 * warptour.h - the public contract of libwarptour.
 *
 * warptour solves the symmetric Traveling Salesman Problem by local search
 * (2-opt and its relatives) on NVIDIA GPUs, with a multi-threaded CPU backend
 * that is always present and is the reference every GPU result is checked
 * against.  This header is the only one a program needs; nothing CUDA-specific
 * appears in it.
 *
 * Conventions that hold for every function below:
 *  - Cities are numbered 0..n-1 inside the library.  TSPLIB files number them
 *    1..n; readers and writers convert.
 *  - A tour is an array of n distinct city numbers (int32_t) in visiting order;
 *    the edge from the last city back to the first is implied.
 *  - Lengths and distances are exact TSPLIB95 integers held in int64_t (for
 *    the real-valued types, integers in units of wt_instance_length_unit).
 *  - Functions that can fail return a wt_status and, when the caller passes a
 *    non-NULL wt_error, a one-line message that names the file and line for
 *    input errors.  On failure, output parameters are left untouched and no
 *    memory is leaked.
 *  - The library never prints and never exits the process.  It keeps no
 *    global mutable state: distinct objects may be used from distinct threads
 *    at once; one object must not be modified from two threads at once.
 *  - Randomness is always driven by an explicit 64-bit seed: equal inputs and
 *    seeds give equal outputs on the same backend.
 *  - Objects made by the _read, _parse, _from_coords and _generate functions
 *    are released by the matching _free function; freeing NULL is a no-op.
 */
#ifndef WARPTOUR_H
#define WARPTOUR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The version of this header: its numbers, WT_VERSION_NUMBER (major * 10000
 * + minor * 100 + patch, which orders versions as numbers do) and
 * WT_VERSION, the same as text ("0.1.0"). */
#define WT_VERSION_MAJOR 0
#define WT_VERSION_MINOR 1
#define WT_VERSION_PATCH 0
#define WT_VERSION_NUMBER (WT_VERSION_MAJOR * 10000 + WT_VERSION_MINOR * 100 + WT_VERSION_PATCH)
#define WT_QUOTE_(x) #x
#define WT_QUOTE(x) WT_QUOTE_(x)
#define WT_VERSION \
    WT_QUOTE(WT_VERSION_MAJOR) "." WT_QUOTE(WT_VERSION_MINOR) "." WT_QUOTE(WT_VERSION_PATCH)

/* WT_VERSION_NUMBER of the library a program runs with, which may be newer
 * than the header it was compiled against where the library is shared. */
unsigned wt_version_number(void);

/* ------------------------------------------------------------------ errors */

typedef enum wt_status {
    WT_OK = 0,
    WT_STATUS_INVALID_ARGUMENT = 1, /* a caller passed a bad value */
    WT_STATUS_OUT_OF_MEMORY = 2,    /* an allocation failed */
    WT_STATUS_IO = 3,               /* a file could not be opened, read or written */
    WT_STATUS_PARSE = 4,            /* a file is malformed; message names file:line */
    WT_STATUS_UNSUPPORTED = 5,      /* well-formed but not something we solve (HCP...) */
    WT_STATUS_INVALID_TOUR = 6,     /* a tour is not a permutation of the cities */
    WT_STATUS_NO_DEVICE = 7,        /* the requested backend is not usable here */
    WT_STATUS_DEVICE = 8,           /* a GPU call failed; message names the call */
    WT_STATUS_TOO_LARGE = 9         /* the problem exceeds a documented limit */
} wt_status;

/* Static English name of a status ("out of memory", ...); never NULL. */
const char *wt_status_str(wt_status status);

/* Filled by failing calls when the caller passes one; message is one line
 * without a trailing newline, e.g. "bad.tsp:7: expected a number, found 'x'". */
typedef struct wt_error {
    wt_status status;
    char message[512];
} wt_error;

/* --------------------------------------------------------------- instances */

typedef enum wt_edge_weight_type {
    WT_EUC_2D = 0,
    WT_CEIL_2D,
    WT_ATT,
    WT_GEO,
    WT_MAN_2D,
    WT_MAX_2D,
    WT_EUC_3D,
    WT_EXPLICIT,
    /* Not TSPLIB: the Euclidean distance of real-valued points, without
     * TSPLIB's rounding to integers (wt_instance_from_coords, point files).
     * Lengths stay exact int64 integers, in units of wt_instance_length_unit
     * (a power of two chosen from the points): each distance is the nearest
     * integer to the true distance over the unit, computed in double (README
     * "Precision"); wt_length_real turns a length into the points' units. */
    WT_EUC_2D_REAL,
    WT_EUC_3D_REAL,
    /* Not TSPLIB: places on the Earth.  x is the latitude in [-90, 90], y the
     * longitude in [-180, 360), both in decimal degrees; the distance is the
     * great-circle distance on a sphere of the mean Earth radius
     * WT_EARTH_RADIUS_M (the haversine formula), in metres, rounded to the
     * nearest integer: a tour's length is the exact sum of its edges'
     * integer metres, as TSPLIB's lengths are.  Computed in double from the
     * cities' unit vectors: within about 1e-8 m of the exact great-circle
     * distance before the rounding. */
    WT_HAVERSINE
} wt_edge_weight_type;

/* The radius of WT_HAVERSINE's sphere: the mean Earth radius (IUGG, (2a +
 * b) / 3 of WGS 84), in metres. */
#define WT_EARTH_RADIUS_M 6371008.8

/* TSPLIB keyword of a type ("EUC_2D"; "EUC_2D_REAL" and "EUC_3D_REAL" for the
 * real-valued types, "HAVERSINE" for places in decimal degrees); NULL for an
 * out-of-range value. */
const char *wt_edge_weight_type_name(wt_edge_weight_type type);

/* Upper limit on DIMENSION, so that every city number fits int32_t with room
 * for arithmetic on positions. */
#define WT_MAX_CITIES (1 << 30)
/* EXPLICIT instances keep an n x n matrix; above this they are refused. */
#define WT_MAX_EXPLICIT_CITIES 46340

typedef struct wt_instance wt_instance;

/* Reads a TSPLIB95 TYPE: TSP file, or a TYPE: ATSP file (an EXPLICIT
 * FULL_MATRIX of directed costs, its diagonal ignored: an asymmetric
 * instance, see wt_instance_from_asymmetric_matrix); docs/formats.md says
 * what is accepted.  Non-integer EXPLICIT weights are held in fixed point
 * as wt_instance_from_matrix holds them.  On
 * success *out owns a new instance.  Errors: WT_STATUS_IO (cannot read),
 * WT_STATUS_PARSE (malformed: message is "path:line: what was expected"),
 * WT_STATUS_UNSUPPORTED (HCP, CVRP, unknown EDGE_WEIGHT_TYPE...),
 * WT_STATUS_TOO_LARGE, WT_STATUS_OUT_OF_MEMORY. */
wt_status wt_instance_read_tsplib(const char *path, wt_instance **out, wt_error *err);

/* Same as above from a buffer of len bytes (need not be NUL-terminated);
 * source names the data in messages. */
wt_status wt_instance_parse_tsplib(const char *data, size_t len, const char *source,
                                   wt_instance **out, wt_error *err);

/* Builds a coordinate instance from n points (z may be NULL unless type is
 * WT_EUC_3D or WT_EUC_3D_REAL; type must not be WT_EXPLICIT).  Copies the
 * arrays.  Coordinates must be finite (WT_STATUS_INVALID_ARGUMENT); for
 * WT_HAVERSINE x holds latitudes in [-90, 90] and y longitudes in
 * [-180, 360), decimal degrees (WT_STATUS_INVALID_ARGUMENT naming the first
 * point outside);
 * WT_STATUS_TOO_LARGE when a tour length could overflow, or for the _REAL
 * types when no unit keeps the points finite (an extent below 2^-900). */
wt_status wt_instance_from_coords(const char *name, int n, wt_edge_weight_type type,
                                  const double *x, const double *y, const double *z,
                                  wt_instance **out, wt_error *err);

/* Builds an EXPLICIT instance from the n x n row-major matrix d (copied):
 * finite, not negative and symmetric (d[i][j] == d[j][i] exactly); the
 * diagonal is ignored.  A matrix of integers up to INT32_MAX is taken
 * exactly (length unit 1).  Any other is held in fixed point: every entry
 * is rounded to the nearest multiple of a power of two 2^-k, the smallest
 * for which the largest entry stays below 2^30 units, and lengths are in
 * those units (wt_instance_length_unit, wt_length_real); entries much
 * smaller than the largest may then round to 0.  n must be 3 ..
 * WT_MAX_EXPLICIT_CITIES.  Errors: WT_STATUS_INVALID_ARGUMENT naming the
 * first offending entry, WT_STATUS_TOO_LARGE, WT_STATUS_OUT_OF_MEMORY. */
wt_status wt_instance_from_matrix(const char *name, int n, const double *d, wt_instance **out,
                                  wt_error *err);

/* Builds an asymmetric instance (an ATSP) from the n x n row-major matrix
 * d of directed costs, d[i * n + j] the cost from city i to city j
 * (copied): finite and not negative off the diagonal, which is ignored.
 * Integers are taken exactly (length unit 1) while n times the largest
 * stays below INT32_MAX; any other matrix is held in fixed point as
 * wt_instance_from_matrix does, the unit the smallest power of two that
 * keeps n times the largest entry below 2^30 units.  n must be 3 ..
 * WT_MAX_EXPLICIT_CITIES / 2.  The instance has n cities: wt_instance_dist
 * (a, b) is the cost from a to b, wt_tour_length a tour's length in its
 * direction.  wt_solve solves it as the symmetric instance of 2n cities of
 * Jonker & Volgenant (city i and a twin joined by a fixed edge; docs/
 * library.md), with ILS and LK or local descents on the host only, and
 * gives back the tour in the original cities, in its direction, with its
 * exact asymmetric length.  Errors as wt_instance_from_matrix. */
wt_status wt_instance_from_asymmetric_matrix(const char *name, int n, const double *d,
                                             wt_instance **out, wt_error *err);

/* Whether inst is asymmetric (TYPE: ATSP, wt_instance_from_asymmetric_matrix);
 * false for NULL. */
bool wt_instance_is_asymmetric(const wt_instance *inst);

/* Reads a point file: one point per line, "x y" or "x y z" separated by
 * blanks and/or commas (CSV), all lines with the same count; an optional
 * header row of non-numbers first; blank lines and '#' comments skipped.
 * The instance is WT_EUC_2D_REAL or WT_EUC_3D_REAL; city i is the (i+1)-th
 * point line (header, blank and comment lines not counted), so a TOUR file's
 * city numbers are point line numbers.  Its name is the file name without
 * directory and extension.  Errors: WT_STATUS_IO, WT_STATUS_PARSE
 * ("path:line: what was expected"; NaN and infinities are refused, as are
 * fewer than 3 points), WT_STATUS_TOO_LARGE, WT_STATUS_OUT_OF_MEMORY. */
wt_status wt_instance_read_points(const char *path, wt_instance **out, wt_error *err);

/* Same as above from a buffer of len bytes; source names it in messages. */
wt_status wt_instance_parse_points(const char *data, size_t len, const char *source,
                                   wt_instance **out, wt_error *err);

/* The metric of a point file (wt_instance_read_as). */
typedef enum wt_points_metric {
    WT_POINTS_AUTO = 0,  /* WT_HAVERSINE when a header line names the latitude and
                            longitude columns ("lat,lon", "latitude,longitude",
                            "lon,lat", "lng,lat"...), else Euclidean */
    WT_POINTS_EUCLIDEAN, /* WT_EUC_2D_REAL / WT_EUC_3D_REAL whatever the header */
    WT_POINTS_HAVERSINE  /* WT_HAVERSINE: two columns of decimal degrees, in the
                            header's order, latitude first without one */
} wt_points_metric;

/* What a point file's header told (wt_instance_read_as fills it). */
typedef struct wt_points_info {
    long header_line; /* the line of the header row skipped; 0: none */
    int lat_column;   /* WT_HAVERSINE: the column read as latitude (1 or 2); 0 otherwise */
    bool from_header; /* WT_HAVERSINE: the header named the columns (else latitude
                         first by default) */
} wt_points_info;

/* As wt_instance_read_points, with the metric chosen: a point file of
 * WT_HAVERSINE has two numbers a line, latitude in [-90, 90] and longitude
 * in [-180, 360), refused with "path:line: ..." outside.  info (may be NULL)
 * is filled on success. */
wt_status wt_instance_parse_points_as(const char *data, size_t len, const char *source,
                                      wt_points_metric metric, wt_points_info *info,
                                      wt_instance **out, wt_error *err);

/* Whether len bytes of data look like a TSPLIB file rather than a point
 * file: its first line that is not blank is a keyword line ("NAME : x",
 * "NODE_COORD_SECTION": a word of letters, digits and '_' alone or followed
 * by ':'); a first line of numbers, a CSV header or a '#' comment says
 * point file. */
bool wt_looks_like_tsplib(const char *data, size_t len);

/* Reads path as TSPLIB or as a point file, deciding by wt_looks_like_tsplib;
 * errors as the reader that was chosen. */
wt_status wt_instance_read(const char *path, wt_instance **out, wt_error *err);

/* As wt_instance_read, with the metric of a point file chosen (AUTO: as
 * wt_instance_read).  A TSPLIB file carries its own EDGE_WEIGHT_TYPE: any
 * other metric than WT_POINTS_AUTO is refused for one
 * (WT_STATUS_INVALID_ARGUMENT).  info (may be NULL) is filled on success
 * (all zero for a TSPLIB file). */
wt_status wt_instance_read_as(const char *path, wt_points_metric metric, wt_points_info *info,
                              wt_instance **out, wt_error *err);

void wt_instance_free(wt_instance *inst);

/* Fixed edges: edges every tour of the instance must hold (TSPLIB's
 * FIXED_EDGES_SECTION).  Only wt_solve's ILS with LK or local descents on
 * the host keeps them; every other search refuses such an instance with
 * WT_STATUS_UNSUPPORTED (docs/library.md).  wt_instance_fixed_edges gives
 * how many there are and, through pairs (may be NULL), their ends
 * (0-based), edge i from (*pairs)[2i] to (*pairs)[2i + 1]; read only,
 * valid while inst is.  wt_instance_set_fixed_edges replaces them by a
 * copy of count edges (count 0: none): ends in 0..n-1 and distinct, no
 * edge twice, no city in more than two, no cycle but one through every
 * city (else WT_STATUS_INVALID_ARGUMENT, naming the edge). */
int wt_instance_fixed_edges(const wt_instance *inst, const int32_t **pairs);
wt_status wt_instance_set_fixed_edges(wt_instance *inst, const int32_t *pairs, int count,
                                      wt_error *err);

/* The accessors below take a non-NULL instance. */
int wt_instance_n(const wt_instance *inst);
const char *wt_instance_name(const wt_instance *inst);      /* never NULL */
const char *wt_instance_comment(const wt_instance *inst);   /* never NULL, may be "" */
wt_edge_weight_type wt_instance_type(const wt_instance *inst);

/* Whether the instance is of a real-valued type (WT_EUC_2D_REAL, _3D_REAL);
 * a fixed-point matrix (wt_instance_from_matrix) is EXPLICIT, not real. */
bool wt_instance_is_real(const wt_instance *inst);

/* What one unit of the instance's integer lengths and distances measures in
 * the units of its points: 1 for the TSPLIB types (but a fixed-point
 * matrix from wt_instance_from_matrix); for the _REAL types a
 * power of two 2^-k, the largest for which no distance between two points
 * exceeds about 2^40 units and no tour length about 2^61 (so fewer than
 * 2^22 cities get 40 bits for the longest distance). */
double wt_instance_length_unit(const wt_instance *inst);

/* length * wt_instance_length_unit(inst): a length in the points' units,
 * the only rounding that of the int64 to double. */
double wt_length_real(const wt_instance *inst, int64_t length);

/* Exact TSPLIB95 distance between cities a and b (0-based); 0 when a == b;
 * -1 when inst is NULL or a or b lies outside 0..n-1. */
int64_t wt_instance_dist(const wt_instance *inst, int a, int b);

/* Coordinates for drawing: the node coordinates, or for EXPLICIT instances
 * the DISPLAY_DATA_SECTION when there is one.  Returns false (and leaves the
 * pointers alone) when the instance has none.  Arrays stay owned by inst.
 * For the _REAL types these (and wt_instance_bbox) are in length units: the
 * points divided by wt_instance_length_unit, exactly (a power of two).
 * WT_HAVERSINE gives x the latitudes and y the longitudes, in degrees as
 * given (its wt_instance_bbox is that of the cities' unit vectors).
 * False for a NULL argument. */
bool wt_instance_coords(const wt_instance *inst, const double **x, const double **y);

/* Bounding box of the coordinates (z range is 0..0 for 2-D); false if none
 * or for a NULL argument. */
bool wt_instance_bbox(const wt_instance *inst, double min[3], double max[3]);

/* Known optimal (or best-known) tour length, from the built-in table of
 * TSPLIB and related instances matched by name and dimension; -1 if unknown.
 * wt_instance_set_known_optimum overrides it (-1 clears). */
int64_t wt_instance_known_optimum(const wt_instance *inst);
bool wt_instance_optimum_is_proven(const wt_instance *inst);
void wt_instance_set_known_optimum(wt_instance *inst, int64_t length);

/* Writes the instance as a TSPLIB file (coordinate instances only, with
 * coordinates printed so that they read back exactly).  The _REAL types are
 * written as EUC_2D / EUC_3D over their coordinates in length units, which
 * gives exactly the same integer distances (a COMMENT names the unit).
 * WT_STATUS_INVALID_ARGUMENT for a NULL instance or stream,
 * WT_STATUS_UNSUPPORTED for an instance without coordinates, WT_STATUS_IO
 * when writing fails. */
wt_status wt_instance_write_tsplib(const wt_instance *inst, FILE *out, wt_error *err);

/* ---------------------------------------------------- generated instances */

typedef enum wt_gen_kind {
    WT_GEN_UNIFORM = 0,  /* uniform integer points in [0, 1e6)^2 (DIMACS portgen) */
    WT_GEN_CLUSTERED     /* normal clusters around n/10 centres (DIMACS portcgen) */
} wt_gen_kind;

/* A random EUC_2D instance of n >= 3 cities, reproducible from seed. */
wt_status wt_instance_generate(wt_gen_kind kind, int n, uint64_t seed,
                               wt_instance **out, wt_error *err);

/* ------------------------------------------------------------------- tours */

/* Checks that tour holds each of 0..n-1 exactly once.  WT_STATUS_INVALID_TOUR
 * with a message naming the first offending position otherwise. */
wt_status wt_tour_validate(const int32_t *tour, int n, wt_error *err);

/* Exact length of a valid tour of inst's n cities (closing edge included).
 * -1 when inst or tour is NULL or a city lies outside 0..n-1; a repeated
 * city is not looked for (wt_tour_validate does): the result is then the
 * length of the closed walk. */
int64_t wt_tour_length(const wt_instance *inst, const int32_t *tour);

/* Reads a TSPLIB TOUR file for an instance of n cities.  *tour_out is a new
 * malloc'ed array of n entries the caller frees with free().  The tour is
 * validated: WT_STATUS_PARSE for malformed files, WT_STATUS_INVALID_TOUR when
 * it is not a permutation of 1..n. */
wt_status wt_tour_read_tsplib(const char *path, int n, int32_t **tour_out, wt_error *err);

/* As wt_tour_read_tsplib, and on success copies the file's NAME ("" when it
 * has none; cut to name_size - 1 bytes, raw bytes of the file) into name,
 * which may be NULL when name_size is 0.  Keywords are upper case (a
 * "tour_section" is refused by name); a UTF-8 byte order mark is skipped. */
wt_status wt_tour_read_tsplib_named(const char *path, int n, int32_t **tour_out, char *name,
                                    size_t name_size, wt_error *err);

/* Writes a TSPLIB TOUR file; name and comment may be NULL, and their control
 * characters (line ends included) are written as blanks, so each stays one
 * header line.  The tour is validated first (WT_STATUS_INVALID_ARGUMENT for
 * a NULL or empty path or tour, WT_STATUS_INVALID_TOUR when it is not a
 * permutation of 0..n-1; nothing is written).  A regular file is written as
 * path.part and renamed over path, so a failed or interrupted write leaves
 * path as it was; a symbolic link is written through (its target gets the
 * tour, the link stays); other files (/dev/stdout, a pipe) are written
 * directly.  WT_STATUS_IO when writing fails. */
wt_status wt_tour_write_tsplib(const char *path, const char *name, const char *comment,
                               const int32_t *tour, int n, wt_error *err);

/* Draws the cities and the tour as an SVG picture (needs coordinates).  tour
 * may be NULL (the cities only); otherwise it must be a valid tour of inst
 * (WT_STATUS_INVALID_TOUR).  The tour is drawn as paths of at most 10,000
 * points each, which SVG renderers take at any size. */
wt_status wt_tour_write_svg(const char *path, const wt_instance *inst, const int32_t *tour,
                            const char *title, wt_error *err);

/* As wt_tour_write_svg for an open path (wt_result.open): order runs from
 * the path's first city to its last, drawn without the edge that would
 * close it; the first city is marked by a green circle, the last by a dark
 * square.  order must not be NULL (WT_STATUS_INVALID_ARGUMENT). */
wt_status wt_open_path_write_svg(const char *path, const wt_instance *inst, const int32_t *order,
                                 const char *title, wt_error *err);

/* ------------------------------------------------------------- start tours */

typedef enum wt_init_method {
    WT_INIT_RANDOM = 0, /* uniform random permutation */
    WT_INIT_NEAREST,    /* nearest neighbour from a random city */
    WT_INIT_GREEDY,     /* greedy edge matching (Multiple Fragment) */
    WT_INIT_SPACEFILL,  /* Hilbert-curve order of the coordinates */
    WT_INIT_BORUVKA     /* Quick-Boruvka edge matching (Applegate et al.) */
} wt_init_method;

/* The _name functions return NULL ("unknown" for wt_init_method_name and
 * wt_stop_reason_name) for an out-of-range value; the _parse functions return
 * WT_STATUS_INVALID_ARGUMENT, leaving *out alone, for an unknown or NULL name
 * or a NULL out. */
const char *wt_init_method_name(wt_init_method m);               /* "greedy" */
wt_status wt_init_method_parse(const char *name, wt_init_method *out);

/* Fills tour[0..n-1] with a start tour.  Deterministic in seed. */
wt_status wt_tour_init(const wt_instance *inst, wt_init_method method, uint64_t seed,
                       int32_t *tour, wt_error *err);

/* ----------------------------------------------------------------- solving */

/* How ILS descends after a kick.  The methods, and the sizes at which auto
 * and the searches change course, are in docs/algorithms.md ("ils:
 * Iterated Local Search"); the values, in src/algo/policy.h. */
typedef enum wt_ils_descent {
    WT_ILS_AUTO = 0, /* lk or local, by the number of cities and the time limit:
                        lk up to a size, local beyond, where its cheaper kicks
                        end closer in the same time, but lk on larger tours too
                        (up to a bound) under a time limit long enough a city
                        for LK's first descent to pay */
    WT_ILS_FULL,     /* the backend's 2-opt passes over all pairs (Rocki & Suda):
                        a 2-opt local optimum after every kick */
    WT_ILS_LOCAL,    /* on the host's threads: 2-opt and Or-opt moves to each
                        city's nearest cities, looked for only around the cities
                        the kick reconnected, so that a kick costs about the
                        same at any size.  On the cuda backend the first
                        descent, from the start tour, is the GPU's full 2-opt
                        descent */
    WT_ILS_LK,       /* as local, with Lin-Kernighan steps (Lin & Kernighan
                        1973, Johnson & McGeoch 1997: variable depth, to
                        quadrant candidate cities) and Or-opt in place of 2-opt
                        and Or-opt, and random-walk double bridges as kicks
                        (Applegate, Cook & Rohe 2003) */
    WT_ILS_WINDOWS   /* the tour cut into windows of consecutive positions,
                        each searched as a path whose ends stay in place (kicks,
                        2-opt, Or-opt and sequential 3-opt: solve-batch's
                        search, docs/batch.md), thousands at once on the GPU
                        (cuda backend) or one a thread (cpu); the cuts move
                        between rounds.  First the backend's 2-opt descent of
                        the whole tour; once the windows' gains dry up, the
                        host's LK or local descents (by the number of cities)
                        for the rest of the time (docs/batch.md) */
} wt_ils_descent;

const char *wt_ils_descent_name(wt_ils_descent d); /* "auto", "full", "local", "lk",
                                                      "windows" */
wt_status wt_ils_descent_parse(const char *name, wt_ils_descent *out);

typedef enum wt_algorithm {
    WT_ALGO_2OPT = 0,     /* best-improvement 2-opt from the start tour to a local optimum */
    WT_ALGO_MULTISTART,   /* random-restart 2-opt hill climbing (O'Neil & Burtscher):
                             independent climbs from seeded random tours, best kept */
    WT_ALGO_ILS,          /* Iterated Local Search (Rocki & Suda): 2-opt, then repeated
                             double-bridge kick + 2-opt, keeping improvements */
    WT_ALGO_SA            /* simulated annealing with city relocation moves (Lam et al.,
                             LWSA): searches x candidate moves per iteration, searches
                             restarted from the global best periodically */
} wt_algorithm;

/* How the CPU backend maps simulated annealing onto its threads (Lam et al.
 * §4.3).  Both run the same algorithm: for equal searches, moves and seed
 * they return the same tour; the scheme only decides who does what. */
typedef enum wt_sa_cpu_scheme {
    WT_SA_SSPM = 0, /* single search parallel move: the threads evaluate one search's
                       candidate moves together (default) */
    WT_SA_PSSM      /* parallel search single move: one search per thread */
} wt_sa_cpu_scheme;

const char *wt_algorithm_name(wt_algorithm a);
wt_status wt_algorithm_parse(const char *name, wt_algorithm *out);

typedef enum wt_backend_kind {
    WT_BACKEND_AUTO = 0, /* CUDA when a GPU is present and the algorithm has a kernel */
    WT_BACKEND_CPU,
    WT_BACKEND_CUDA
} wt_backend_kind;

const char *wt_backend_name(wt_backend_kind b);
wt_status wt_backend_parse(const char *name, wt_backend_kind *out);

/* Whether a CUDA GPU is usable by this build; fills device (when not NULL)
 * with its name or with the reason it is not ("built without CUDA", "no CUDA
 * device"). */
bool wt_cuda_available(char *device, size_t device_size);

/* One device of a backend, as wt_device_list lists it. */
typedef struct wt_device_info {
    wt_backend_kind backend;  /* WT_BACKEND_CPU, WT_BACKEND_CUDA */
    const char *backend_name; /* "cpu", "cuda" (static) */
    int index;                /* its number in its backend: params.cuda_device for
                                 a GPU; 0 for the CPU */
    bool host;                /* the host's CPU threads, not a device */
    bool usable;              /* wt_solve can run on it */
    unsigned algorithms;      /* bit (1u << a) set for each wt_algorithm a the
                                 backend runs */
    char description[160];    /* "NVIDIA H100 80GB HBM3 (sm_90, 132 SMs, 79.1 GiB)",
                                 "16 cores"; when not usable, why not */
} wt_device_info;

/* The devices of every backend of this build, the CPU first, then each GPU
 * (a backend without any as one entry, not usable, that says why), into
 * out[0 .. max-1]; returns how many there are, which may be more than max
 * (out may be NULL when max is 0).  Checks each GPU by launching a tiny
 * kernel on it: a fraction of a second, the CUDA context's creation
 * included. */
int wt_device_list(wt_device_info *out, int max);

/* Why a search ended. */
typedef enum wt_stop_reason {
    WT_STOP_DONE = 0,      /* reached its natural end (e.g. a local optimum) */
    WT_STOP_TIME_LIMIT,    /* params.time_limit_s ran out */
    WT_STOP_INTERRUPTED    /* the progress callback or stop flag asked to stop */
} wt_stop_reason;

const char *wt_stop_reason_name(wt_stop_reason r);

/* Snapshot handed to the progress callback. */
typedef struct wt_progress {
    double elapsed_s;       /* since wt_solve started */
    int64_t best_length;    /* exact length of the best tour so far */
    int64_t init_length;    /* length of the start tour */
    uint64_t steps;         /* improving moves applied so far; never decreases
                               from one report to the next (ils with parallel
                               kicks: the first descent's and the solving
                               thread's kicks' moves) */
    uint64_t climbs;        /* multistart: climbs finished so far */
    uint64_t kicks;         /* ils: kicks done so far */
    double temperature;     /* sa: current temperature; 0 for other algorithms */
    double pass_done;       /* 2opt, ils: a report from inside a long 2-opt pass
                               (millions of cities) gives the share of it scanned,
                               0..1, or WT_PASS_SHARE_UNKNOWN when the backend
                               cannot tell (the GPU); WT_NOT_IN_PASS otherwise */
    int64_t lower_bound;    /* a proven lower bound on every tour's length, once
                               the search has one (ils with LK descents, after
                               its ascent; with local descents beside a GPU,
                               once its ascent ends: wt_result.lower_bound);
                               0: none yet */
} wt_progress;

#define WT_NOT_IN_PASS (-1.0)
#define WT_PASS_SHARE_UNKNOWN (-2.0)

/* Called from the solving thread about every progress_interval_s seconds.
 * Returns nonzero to ask the search to stop (it then ends with
 * WT_STOP_INTERRUPTED and the best tour so far). */
typedef int (*wt_progress_fn)(const wt_progress *p, void *user);

/* ---------------------------------------------------- tuning (experimental) */

/* The knobs that benchmarks and tests turn (kernel shapes, the rounds of
 * the host's searches) are a wt_tuning, which this header only names: its
 * fields are in warptour_experimental.h, which like zstd's experimental
 * API may change or go away in any version.  wt_params.tuning points to
 * one; NULL, the default, is the library's tuning. */
typedef struct wt_tuning wt_tuning;

/* The value that turns off what an experimental field (wt_tuning's,
 * wt_batch_params') says it may. */
#define WT_TUNING_OFF (-1)

/* Most GPUs a device list (wt_params.devices, wt_batch_params.devices)
 * names, and the device_count that asks for every GPU of the machine. */
#define WT_MAX_DEVICES 16
#define WT_DEVICES_ALL (-1)

typedef struct wt_params {
    wt_algorithm algorithm;     /* default WT_ALGO_ILS (as warptour solve) */
    wt_backend_kind backend;    /* default WT_BACKEND_AUTO */
    wt_init_method init;        /* default WT_INIT_GREEDY */
    uint64_t seed;              /* default 1 */
    double time_limit_s;        /* <= 0: none (default) */
    int threads;                /* CPU threads; 0 = all cores (default), else
                                   1..WT_MAX_THREADS */
    const int32_t *start_tour;  /* optional: start here instead of init (2opt, ils, sa) */
    int swaps;                  /* 2opt: improving moves applied per pass, the best
                                   ones whose segments are independent (k-swap,
                                   Robinson et al.); 1 = best improvement only;
                                   0 = as many as there are (default) */
    bool kswap_nested;          /* 2opt, ils with swaps != 1: also keep a move that lies
                                   strictly inside another kept move's reversed segment
                                   (a laminar family, applied innermost first); false:
                                   only moves with disjoint segments (Robinson et al.)
                                   (default true) */
    int kswap_band;             /* 2opt, ils with swaps != 1: besides its best move, each
                                   row i also offers its best move with j in
                                   [i+2, i+kswap_band], a short one that long moves do
                                   not block; 0 = off (default 64) */
    bool prune;                 /* 2opt, ils with full descents: a pass skips the pairs
                                   of tour segments whose bounding boxes lie too far
                                   apart for any move between them to shorten the tour
                                   (the same moves, fewer checks; 2D metrics other
                                   than GEO); false: every pair is checked, as in the
                                   papers (default true) */
    uint64_t restarts;          /* multistart: climbs to run; 0 = as many as the
                                   time limit allows (stop WT_STOP_DONE once one
                                   climb finished, else WT_STOP_TIME_LIMIT), or
                                   without a limit a fixed number (docs/cli.md,
                                   --restarts) */
    uint64_t kicks;             /* ils: kicks to make; 0 = until the time limit
                                   (stop WT_STOP_DONE once the first descent
                                   finished, else WT_STOP_TIME_LIMIT), or without
                                   one as many as cities with a floor, a fixed
                                   number with WT_ILS_FULL (docs/cli.md, --kicks) */
    bool accept_equal;          /* ils: also keep kicked tours of equal length
                                   (default false: only strictly shorter ones) */
    wt_ils_descent ils_descent; /* ils: the descent after each kick (default
                                   WT_ILS_AUTO) */
    /* sa: simulated annealing (Lam et al.).  Defaults are the paper's Table 1.
     * The temperature starts at sa_t_start and is multiplied by sa_alpha every
     * n * sa_sweeps iterations; the run ends once it is no longer above
     * sa_t_end (at least one temperature step is run). */
    int sa_searches;            /* TB, concurrent searches; 0 = the backend's choice
                                   (CPU: 1 for SSPM, one per thread for PSSM) */
    int sa_moves;               /* TPB, candidate moves per search and iteration, the
                                   best of which faces the Metropolis test; 0 = the
                                   backend's choice (CPU: threads for SSPM, 1 for PSSM) */
    double sa_t_start;          /* Ts > 0, default 10000 */
    double sa_t_end;            /* Te > 0, default 0.1 */
    double sa_alpha;            /* cooling factor in (0, 1), default 0.99 */
    int sa_sweeps;              /* Sp >= 1, default 10 */
    int sa_exchange;            /* Se >= 1: temperature steps between restarts of all
                                   searches from the global best, default 100 */
    wt_sa_cpu_scheme sa_cpu;    /* default WT_SA_SSPM */
    int sa_near;                /* 0 (default): insertion points uniform over the tour
                                   (the paper's moves); k >= 2: next to one of the moved
                                   city's k nearest cities (local moves; both backends,
                                   the same run on each) */
    bool sa_polish;             /* sa: after the anneal, a 2-opt + Or-opt descent of its
                                   best tour to a local optimum of both (default true);
                                   skipped when the anneal was stopped early, and
                                   itself stopped by the time limit and stop flag */
    wt_progress_fn progress;    /* optional */
    void *progress_user;        /* passed to progress */
    double progress_interval_s; /* default 0.5 */
    /* Optional flag polled during the search (e.g. set by a SIGINT handler);
     * nonzero stops it like the progress callback does. */
    const volatile int *stop_flag;
    int cuda_device;            /* cuda: the GPU to run on, 0 .. the number of CUDA
                                   devices - 1, as `warptour devices` lists them
                                   (default 0) */
    /* Open paths and fixed ends (docs/library.md, "Open paths and fixed
     * edges"): ILS with LK or local descents on the host only (the default
     * algorithm); every other search refuses an open path with
     * WT_STATUS_UNSUPPORTED.  start_city alone on a closed tour only rotates
     * the result to begin there (every algorithm). */
    bool open;                  /* a shortest Hamiltonian path instead of a tour: the
                                   result's tour runs from one end to the other and its
                                   length leaves out the closing edge (default false) */
    int start_city;             /* -1: none (default); else 0..n-1: the city the
                                   result's tour (or open path) begins at */
    int end_city;               /* -1: none (default); else 0..n-1, not start_city: the
                                   open path's last city (implies open) */
    const wt_tuning *tuning;    /* EXPERIMENTAL (warptour_experimental.h): read, not
                                   copied, by wt_solve, so it must outlive the call;
                                   NULL: the library's tuning (default) */
    /* Several GPUs (docs/devices.md): the window searches of one large tour
     * (ILS with window descents, and the concurrent windows of --backend
     * auto) deal each round's windows over the listed GPUs, and the GPU's
     * first descent of a tour of 2,000,000 cities or more runs as one region
     * of the plane a GPU; everything else (smaller first descents, the
     * Held-Karp ascent, sessions, multistart, sa) runs on the first of them.
     * Ignored with WT_BACKEND_CPU. */
    int devices[WT_MAX_DEVICES]; /* with device_count 1..WT_MAX_DEVICES: the CUDA
                                   devices to use, the first in cuda_device's
                                   stead; each 0 or more, no two the same, each
                                   below the machine's number of CUDA devices
                                   (else WT_STATUS_NO_DEVICE naming it) */
    int device_count;           /* 0 (default): cuda_device alone, as without a
                                   list; 1..WT_MAX_DEVICES: devices[0..count);
                                   WT_DEVICES_ALL: every CUDA device of the
                                   machine, 0 first (cuda_device ignored) */
} wt_params;

/* Most CPU threads a search may ask for (params.threads): a team of more
 * cannot be created, and OpenMP then aborts the process. */
#define WT_MAX_THREADS 4096

/* Fills p with the defaults above; NULL is a no-op. */
void wt_params_defaults(wt_params *p);

/* The figures of wt_result that belong to one algorithm or a few, each
 * group in a struct of its own; wt_solve zeroes the groups of the
 * algorithms that did not run. */

/* The full 2-opt passes of 2opt, ils with full descents (and the cuda
 * backend's first descent) and multistart. */
typedef struct wt_result_scan {
    uint64_t passes;             /* full 2-opt passes run; multistart: those of all
                                    climbs; ils with window descents: also the window
                                    searches' rounds */
    double time_s;               /* 2opt, ils: seconds spent evaluating moves in those
                                    passes (GPU: the pass kernels' time from CUDA
                                    events; CPU: the passes' wall time); 0 where not
                                    measured (multistart) */
} wt_result_scan;

typedef struct wt_result_multistart {
    uint64_t climbs;             /* climbs completed */
    uint64_t best_climb;         /* index of the climb that gave the tour */
} wt_result_multistart;

typedef struct wt_result_ils {
    wt_ils_descent descent;      /* the descent after each kick as run, WT_ILS_FULL,
                                    WT_ILS_LOCAL, WT_ILS_LK or WT_ILS_WINDOWS (full
                                    below 8 cities, where no kick is made); WT_ILS_AUTO
                                    for other algorithms */
    uint64_t kicks;              /* kicks made */
    uint64_t kicks_accepted;     /* kicks whose result was kept */
    double gpu_time_s;           /* with window descents on cuda, or with concurrent
                                    windows: seconds the GPU's window kernels ran (CUDA
                                    events), of search_time_s; 0 otherwise */
    double concurrent_windows_s; /* with concurrent windows (the GPU's window searches
                                    while the host's threads search): seconds from
                                    their first round, after the host's first descent,
                                    to the search's end, of search_time_s; 0
                                    otherwise */
} wt_result_ils;

/* The Held-Karp ascent of ils with LK descents (its proven bound, its
 * alpha-nearness lists; warptour_experimental.h, lk_alpha): where and how
 * long it ran.  --backend auto and cuda run it on the GPU where one is
 * usable and the cuda backend has the ascent, else on the host. */
typedef struct wt_result_ascent {
    char device[16];             /* the device whose ascent ran ("cpu", "cuda:0",
                                    "cuda:0+cuda:1" where a second GPU of
                                    params.devices shared its steps); empty where
                                    none completed (no ascent for this search, or
                                    stopped before its lists) */
    int iterations;              /* its subgradient steps */
    double time_s;               /* its seconds (the sparse graph, the steps, the
                                    lists and the bound), of search_time_s */
} wt_result_ascent;

/* Simulated annealing and its polish (params.sa_polish). */
typedef struct wt_result_sa {
    int searches;                /* searches run (TB) */
    int moves_per_search;        /* candidate moves per search and iteration (TPB) */
    uint64_t iterations;         /* Metropolis iterations summed over the searches;
                                    moves_evaluated = iterations * moves_per_search */
    uint64_t accepted;           /* accepted moves (steps: those that shortened) */
    double temperature_final;    /* the temperature at the end: the schedule's next
                                    value (<= sa_t_end) after a complete run, the
                                    temperature in effect when stopped early */
    int64_t unpolished_length;   /* exact length of the annealed tour before the
                                    polish (equal to length when it did not run) */
    uint64_t polish_moves;       /* improving 2-opt and Or-opt moves of the polish */
    double polish_time_s;        /* seconds of the polish (in time_s, not in
                                    search_time_s) */
} wt_result_sa;

typedef struct wt_result {
    int32_t *tour;               /* n cities, owned; release with wt_result_free */
    int n;
    int64_t length;              /* exact length of tour */
    double length_real;          /* length in the points' units: wt_length_real
                                    (equal to length for the TSPLIB types) */
    int64_t init_length;         /* exact length of the start tour */
    wt_stop_reason stop;
    double time_s;               /* whole wt_solve, start tour included */
    double init_time_s;          /* building the start tour */
    bool init_cut;               /* the time limit or the stop flag came while the start
                                    tour was built (stop says which), which then ended
                                    soon: greedy gave way to the spacefill tour, nearest
                                    appended the cities not yet chained in Hilbert-curve
                                    order */
    wt_init_method init_made;    /* the heuristic whose tour the start tour is: params.init,
                                    or WT_INIT_SPACEFILL where greedy gave way, or
                                    WT_INIT_BORUVKA where ils's first descent kept one of
                                    the other start tours it tried (tuning.ils_starts);
                                    multistart: WT_INIT_RANDOM (its climbs' start tours);
                                    meaningless when init_given */
    bool init_given;             /* the start tour was params.start_tour */
    double search_time_s;        /* the search alone, start tour (and sa's polish)
                                    excluded */
    uint64_t steps;              /* improving moves applied */
    uint64_t moves_evaluated;    /* 2opt, ils, multistart: 2-opt moves evaluated in
                                    the full passes of scan, (n-1)(n-2)/2 a pass,
                                    fewer where prune skipped some; sa: candidate
                                    relocations evaluated */
    char backend[16];            /* "cpu" or "cuda" (ils with local descents on cuda: the
                                    first descent's) */
    bool host;                   /* that backend runs on the host's CPU threads (as
                                    wt_device_info.host), so params.sa_cpu applied */
    char device[128];            /* e.g. "2 CPU threads", GPU name */
    wt_result_scan scan;         /* 2opt, ils, multistart */
    wt_result_multistart multistart;
    wt_result_ils ils;
    wt_result_sa sa;
    int64_t lower_bound;         /* proven: no tour of the instance is shorter (the
                                    Held-Karp bound of a minimum 1-tree under the
                                    ascent's penalties); -1 where none was computed */
    double gap_to_bound_percent; /* 100 (length - lower_bound) / lower_bound: the tour
                                    is at most this much above the optimum; -1
                                    without a bound */
    bool open;                   /* an open path (params.open or end_city): tour runs
                                    from its first city to its last, and length,
                                    length_real and init_length leave out the edge
                                    from the last back to the first; no lower bound */
    wt_result_ascent ascent;     /* ils with LK descents: the bound's ascent */
} wt_result;

/* A proven lower bound on every tour of an instance (wt_lower_bound). */
typedef struct wt_bound {
    int64_t lower_bound;  /* no tour is shorter; -1 where none could be proven
                             (stopped before its tree was complete, fewer than 8
                             cities, or GEO instances above 5,000 cities) */
    int iterations;       /* subgradient steps of the ascent */
    double time_s;        /* the whole call */
    wt_stop_reason stop;  /* WT_STOP_DONE, or why it ended early */
    char device[16];      /* the device whose ascent ran ("cpu", "cuda:0"): as
                             wt_result_ascent's; empty where none completed */
} wt_bound;

/* The Held-Karp bound of inst: a subgradient ascent of minimum 1-trees
 * over node penalties (the same ascent whose alpha-nearness lists the LK
 * searches take), on the device wt_solve's ILS would run it on (--backend
 * auto and cuda: the GPU's where one is usable and the cuda backend has
 * the ascent, which falls back on the host's when the GPU refuses the
 * instance for its memory or its metric; cpu: the host's) and
 * params->threads of the host's threads.  params->time_limit_s ends its
 * steps early, with the best penalties so far (where the tuning sets no
 * period or steps, a short ascent first, then one whose first period fits
 * the time left, and the higher bound: algo/policy.h,
 * wt_policy_bound_period): the bound is the weight of
 * a minimum 1-tree of the complete graph under them (that last tree is
 * made after the limit: about 3 s at a million cities on 16 threads), so
 * it holds for every instance, optimum known or not; params->stop_flag
 * ends the steps and the last tree (no bound).
 * Deterministic without a time limit or stop.  inst, params and out must
 * not be NULL; params is checked as wt_solve checks it
 * (WT_STATUS_INVALID_ARGUMENT), and WT_STATUS_OUT_OF_MEMORY. */
wt_status wt_lower_bound(const wt_instance *inst, const wt_params *params, wt_bound *out,
                         wt_error *err);

/* Runs the configured search.  On success res holds the best tour found,
 * always a valid tour, even when the search was stopped early.  inst, params
 * and res must not be NULL; every field of params is checked first
 * (enumerations in range, counts and budgets not negative, doubles finite,
 * threads at most WT_MAX_THREADS, the sa fields as documented, the
 * tuning's as warptour_experimental.h documents them,
 * cuda_device below the number of CUDA devices where the cuda backend may
 * run, the device list as documented (a device past the machine's:
 * WT_STATUS_NO_DEVICE naming it), start_tour a permutation of the cities when used, start_city and
 * end_city -1 or a city, not the same city):
 * WT_STATUS_INVALID_ARGUMENT with a message naming the field, res
 * untouched.  An instance with fixed edges (wt_instance_fixed_edges) or an
 * open path (params.open, end_city) with a search that cannot keep them:
 * WT_STATUS_UNSUPPORTED, saying which searches can; ends that cannot go
 * with the fixed edges (an end in two of them, say):
 * WT_STATUS_INVALID_ARGUMENT. */
wt_status wt_solve(const wt_instance *inst, const wt_params *params, wt_result *res,
                   wt_error *err);

/* Frees res->tour and zeroes res; NULL-safe. */
void wt_result_free(wt_result *res);

/* ----------------------------------------------------------------- batches */

/* Many small instances solved at once (warptour solve-batch; docs/batch.md).
 * Each instance gets an Iterated Local Search of its own: greedy start tour,
 * 2-opt and Or-opt moves to each city's nearest cities with exact integer
 * lengths, double-bridge kicks inside a window of the tour.  The CPU backend
 * runs one instance per thread at a time; the cuda backend one per thread
 * block (or warp), the instance in shared memory, thousands at once.  Both
 * take the same steps: the same seed and kick budget give the same tour of
 * an instance on either backend and for any thread count (GEO aside, whose
 * cosines the GPU computes in its own last bits).  Instance i's random
 * stream is (seed, i).  Without a time limit (or with params.kicks set) the
 * result is reproducible; under one, how many kicks each instance gets
 * depends on the machine. */

/* Most cities an instance of a batch may have (more: WT_STATUS_TOO_LARGE
 * for that instance; `solve` is the tool for large ones). */
#define WT_BATCH_MAX_CITIES 100000

/* Snapshot handed to a batch's progress callback. */
typedef struct wt_batch_progress {
    double elapsed_s; /* since wt_solve_batch started */
    int done;         /* instances finished */
    int count;        /* instances in the batch */
    uint64_t kicks;   /* kicks made so far, all instances together */
} wt_batch_progress;

/* Called from the calling thread about every progress_interval_s seconds;
 * nonzero asks the search to stop (each instance keeps its best tour so far;
 * instances not started keep their start tours). */
typedef int (*wt_batch_progress_fn)(const wt_batch_progress *p, void *user);

/* Each city's candidate cities, the cities a batch's moves join it to
 * (wt_batch_params.candidates; docs/batch.md). */
typedef enum wt_batch_candidates {
    WT_BATCH_CANDIDATES_AUTO = 0, /* by the instance's size (src/algo/policy.h,
                                     WT_BATCH_ALPHA_FROM): nearest at every size
                                     today */
    WT_BATCH_CANDIDATES_NEAREST,  /* its nearest cities */
    WT_BATCH_CANDIDATES_ALPHA     /* its best by alpha-nearness (Helsgaun 2000): a
                                     short Held-Karp ascent of each instance on the
                                     host, one instance a thread, before the search;
                                     nearest cities fill a row the ascent leaves
                                     short, and instances of fewer than 8 cities,
                                     or of a metric without an ascent, take their
                                     nearest */
} wt_batch_candidates;

/* The search each instance of a batch gets (wt_batch_params.search;
 * docs/batch.md). */
typedef enum wt_batch_search {
    WT_BATCH_SEARCH_AUTO = 0, /* lk for the instances whose share of a time limit
                                 gives them enough of the host's core-seconds
                                 (src/algo/batch.h: WT_BATCH_LK_FROM,
                                 WT_BATCH_LK_CORE_S_PER_CITY), the batch search
                                 for the others and without a time limit; with a
                                 usable GPU, the GPU's batch search runs on the lk
                                 instances at the same time, and each keeps the
                                 shorter tour */
    WT_BATCH_SEARCH_BATCH,    /* the batch search: 2-opt, Or-opt and 3-opt moves to
                                 each city's candidates, kicks (on the GPU, or one
                                 instance a host thread) */
    WT_BATCH_SEARCH_LK        /* the host's ILS with LK descents (wt_solve's, one
                                 thread an instance: a Held-Karp ascent's alpha
                                 candidates, LK moves, double bridges) for every
                                 instance, on the host alone; kicks counts its
                                 kicks, and a seed and kick budget give the same
                                 tours on any thread count */
} wt_batch_search;

typedef struct wt_batch_params {
    wt_backend_kind backend;    /* default WT_BACKEND_AUTO: the GPU when one is usable;
                                   on cuda, instances too large for the GPU's shared
                                   memory (about 4,000 cities) run on the CPU after
                                   the GPU's */
    uint64_t seed;              /* default 1 */
    double time_limit_s;        /* the whole call, start tours included; <= 0: none
                                   (default) */
    uint64_t kicks;             /* kicks per instance; 0 (default): under a time limit,
                                   as many as each instance's even share of the time
                                   allows; without one, WT_BATCH_DEFAULT_KICKS(n) */
    int threads;                /* CPU threads; 0 = all cores (default), else
                                   1..WT_MAX_THREADS */
    bool accept_equal;          /* keep kicked tours of equal length too (default true) */
    wt_batch_progress_fn progress; /* optional */
    void *progress_user;
    double progress_interval_s; /* default 0.5 */
    const volatile int *stop_flag; /* optional: nonzero stops the search */
    int cuda_device;            /* the GPU to run on (default 0) */
    wt_batch_candidates candidates; /* default WT_BATCH_CANDIDATES_AUTO; the lists
                                   are made on the host, whichever device searches */
    wt_batch_search search;     /* default WT_BATCH_SEARCH_AUTO */
    /* EXPERIMENTAL, for benchmarks and tests (0: the default, set in
     * src/algo/policy.h and described in docs/batch.md; the tour a seed gives
     * changes with each of them): */
    int neighbours;             /* nearest cities per city that moves join to; 0: the
                                   default; else 2..16 */
    int kick_window;            /* positions a kick's three cuts lie within; 0: the
                                   whole tour; else >= 3 */
    int accept_slack;           /* a kicked tour longer than the kept one is kept when
                                   the excess is below u * accept_slack / 1000 mean
                                   edges (times 300 / n above 300 cities), u uniform
                                   in [0, 1); 0: the default; WT_TUNING_OFF: never;
                                   else 1..100000 */
    int three_opt;              /* sequential 3-opt moves besides 2-opt and Or-opt:
                                   the nearest cities of a first move's loose end
                                   tried for the third edge (docs/batch.md); 0: the
                                   default, by the instance's size; WT_TUNING_OFF:
                                   none; else 1..neighbours, every instance */
    int kick_edges;             /* edges a kick changes: 3, a segment swap (A B C ->
                                   A C B), or 4, a double bridge (A B C D -> A D C
                                   B); 0: 4 for instances with 3-opt moves, else 3 */
    int gpu_threads;            /* threads per instance on the GPU; 0: by n;
                                   32, 64, 128, 256 */
    size_t gpu_part_bytes;      /* the most GPU memory a part of the batch takes;
                                   0: the GPU's free memory decides.  A batch larger
                                   than a part runs in parts, one after another */
    int alpha_steps;            /* with alpha candidates: the subgradient steps of
                                   each instance's ascent at most; 0: the default;
                                   else 1..1000000 */
    int alpha_period;           /* with alpha candidates: the steps of its first
                                   period (the step rule halves the step and the
                                   period after each); 0: the default; else
                                   1..1000000 */
    /* Several GPUs (docs/devices.md): the instances that fit a GPU are
     * dealt over the listed GPUs, each running its share at the same time;
     * every instance's tour is the one a single GPU (or the CPU) gives for
     * the same seed and kick budget.  Ignored with WT_BACKEND_CPU. */
    int devices[WT_MAX_DEVICES]; /* with device_count 1..WT_MAX_DEVICES: the CUDA
                                   devices to use, the first in cuda_device's
                                   stead; each 0 or more, no two the same, each
                                   below the machine's number of CUDA devices
                                   (else WT_STATUS_NO_DEVICE naming it) */
    int device_count;           /* 0 (default): cuda_device alone; 1..WT_MAX_DEVICES:
                                   devices[0..count); WT_DEVICES_ALL: every CUDA
                                   device of the machine, 0 first */
} wt_batch_params;

/* Kicks an instance of n cities gets without a time limit or params.kicks. */
#define WT_BATCH_DEFAULT_KICKS(n) ((uint64_t)((n) < 100 ? 1000 : 10 * (n)))

/* Fills p with the defaults above; NULL is a no-op. */
void wt_batch_params_defaults(wt_batch_params *p);

/* One instance's outcome. */
typedef struct wt_batch_tour {
    wt_status status;     /* WT_OK, or why this instance has no tour */
    char message[256];    /* one line saying why ("" when WT_OK) */
    int n;                /* cities (0 when the instance could not be read) */
    int32_t *tour;        /* n cities, owned by the result; NULL unless WT_OK */
    int64_t length;       /* exact length of tour; -1 unless WT_OK */
    double length_real;   /* wt_length_real of length */
    int64_t init_length;  /* the start tour's exact length */
    uint64_t kicks;       /* kicks made on it */
    bool on_gpu;          /* solved on a GPU (one of the list's, with several) */
} wt_batch_tour;

typedef struct wt_batch_result {
    int count;              /* instances */
    wt_batch_tour *tours;   /* count entries in the instances' order; owned */
    int failed;             /* entries whose status is not WT_OK */
    int on_gpu;             /* entries solved on the GPU */
    wt_stop_reason stop;    /* WT_STOP_DONE, or what cut kicks short (a time limit
                               with params.kicks == 0 is the natural end) */
    uint64_t kicks;         /* all instances */
    double time_s;          /* the whole call */
    double gpu_time_s;      /* of which the GPU's kernels ran (CUDA events; 0 on the CPU;
                               with several GPUs the sum of their kernels' seconds) */
    char backend[16];       /* "cpu", "cuda", or "cuda+cpu" */
    char device[128];       /* the GPU's name, "2 GPUs: NVIDIA H200 ×2" (several),
                               or e.g. "2 CPU threads" */
} wt_batch_result;

/* Solves insts[0..count-1] (count >= 1).  An instance that cannot be solved
 * (NULL, more than WT_BATCH_MAX_CITIES cities, asymmetric or with fixed
 * edges: WT_STATUS_UNSUPPORTED, out of memory for it) gets its own status
 * and message in res->tours, the others their tours; the
 * call still returns WT_OK.  Every field of params is checked first:
 * WT_STATUS_INVALID_ARGUMENT naming it, res untouched; WT_STATUS_NO_DEVICE
 * when params asks for cuda and none is usable, or when the device list
 * names a device past the machine's or (with cuda) one not usable;
 * WT_STATUS_DEVICE when a GPU call fails; WT_STATUS_OUT_OF_MEMORY when the
 * result cannot be allocated.  Release res with wt_batch_result_free. */
wt_status wt_solve_batch(const wt_instance *const *insts, int count,
                         const wt_batch_params *params, wt_batch_result *res, wt_error *err);

/* The same for count instances of n >= 3 points each, given as a flat
 * row-major array xy of shape (count, n, 2), type WT_EUC_2D (TSPLIB
 * rounding), WT_EUC_2D_REAL (wt_instance_from_coords; each instance gets
 * its own length unit) or WT_HAVERSINE (rows of latitude, longitude in
 * decimal degrees; lengths in metres).  An instance with a non-finite
 * coordinate, or a place outside wt_instance_from_coords' ranges, gets its
 * own WT_STATUS_INVALID_ARGUMENT. */
wt_status wt_solve_batch_points(const double *xy, int count, int n, wt_edge_weight_type type,
                                const wt_batch_params *params, wt_batch_result *res,
                                wt_error *err);

/* Frees every tour and the array, and zeroes res; NULL-safe. */
void wt_batch_result_free(wt_batch_result *res);

#ifdef __cplusplus
}
#endif
#endif /* WARPTOUR_H */
