/*
 * test_haversine.c - places on the Earth (WT_HAVERSINE, issue 42): the
 * great-circle metres against a haversine written here from the textbook
 * formula over latitude and longitude (not the library's unit vectors), on
 * random places of both hemispheres, across the date line and near the
 * poles; the header forms and column orders of point files; the ranges; the
 * TSPLIB GEO refusal of minutes of 60 or more; a solve's exact length.
 */
#include <math.h>

#include "test_util.h"

#define PI 3.14159265358979323846

/* The haversine formula, long double, straight from the degrees. */
static long double ref_metres(double lat1, double lon1, double lat2, double lon2)
{
    long double r = PI / 180.0L;
    long double p1 = lat1 * r, p2 = lat2 * r, dp = (lat2 - lat1) * r, dl = (lon2 - lon1) * r;
    long double h = sinl(dp / 2) * sinl(dp / 2) + cosl(p1) * cosl(p2) * sinl(dl / 2) * sinl(dl / 2);
    if (h > 1) h = 1;
    return 2.0L * 6371008.8L * atan2l(sqrtl(h), sqrtl(1 - h));
}

/* Checks every pair of the n places against the reference: the library's
 * integer is the reference rounded to nearest, except where the reference
 * lies within 1e-6 m of a half metre (either rounding is then right). */
static void check_places(const double *lat, const double *lon, int n)
{
    wt_instance *inst = NULL;
    wt_error err = {0};
    assert_int_equal(wt_instance_from_coords("places", n, WT_HAVERSINE, lat, lon, NULL, &inst,
                                             &err),
                     WT_OK);
    assert_int_equal(wt_instance_type(inst), WT_HAVERSINE);
    assert_string_equal(wt_edge_weight_type_name(WT_HAVERSINE), "HAVERSINE");
    for (int a = 0; a < n; a++) {
        for (int b = 0; b < n; b++) {
            long double ref = ref_metres(lat[a], lon[a], lat[b], lon[b]);
            int64_t got = wt_instance_dist(inst, a, b);
            long double frac = ref - floorl(ref);
            if (fabsl(frac - 0.5L) < 1e-6L) {
                assert_true(got == (int64_t)floorl(ref) || got == (int64_t)ceill(ref));
            } else if (got != (int64_t)floorl(ref + 0.5L)) {
                fprintf(stderr, "(%.9g, %.9g) - (%.9g, %.9g): %lld m, reference %.6Lf m\n",
                        lat[a], lon[a], lat[b], lon[b], (long long)got, ref);
                fail();
            }
            assert_int_equal(got, wt_instance_dist(inst, b, a));
        }
    }
    wt_instance_free(inst);
}

static void test_random_places(void **state)
{
    (void)state;
    enum { N = 240 };
    double lat[N], lon[N];
    wt_rng rng;
    wt_rng_seed(&rng, 42);
    for (int i = 0; i < N; i++) {
        int kind = i % 6;
        double u = wt_rng_uniform(&rng), v = wt_rng_uniform(&rng);
        switch (kind) {
        case 0: /* anywhere, both hemispheres; longitudes in [-180, 180) */
            lat[i] = asin(2 * u - 1) * 180 / PI;
            lon[i] = -180 + 360 * v;
            break;
        case 1: /* longitudes written in [0, 360) */
            lat[i] = -90 + 180 * u;
            lon[i] = 360 * v;
            break;
        case 2: /* across the date line: 179.9 E .. 179.9 W, and as 180.1 */
            lat[i] = -60 + 120 * u;
            lon[i] = v < 0.5 ? 179.9 + 0.1 * v : (v < 0.75 ? -180 + 0.1 * v : 180 + 0.1 * v);
            break;
        case 3: /* near the poles, the poles themselves too */
            lat[i] = (u < 0.5 ? 1 : -1) * (v < 0.1 ? 90.0 : 89.9 + 0.1 * u);
            lon[i] = -180 + 360 * wt_rng_uniform(&rng);
            break;
        case 4: /* a city: places metres apart */
            lat[i] = 48.85 + 0.001 * u;
            lon[i] = 2.35 + 0.001 * v;
            break;
        default: /* near antipodes of earlier places */
            lat[i] = -lat[i - 5] + 1e-4 * u;
            lon[i] = lon[i - 5] + 180 - 1e-4 * v;
            if (lon[i] >= 360) lon[i] -= 360;
            break;
        }
    }
    check_places(lat, lon, N);
}

static void test_known_distances(void **state)
{
    (void)state;
    /* A quarter of a great circle, half of one, and one degree of the
     * equator: pi R / 2, pi R, pi R / 180. */
    double lat[] = {0, 0, 90, 0, -90, 0};
    double lon[] = {0, 90, 0, 180, 0, 1};
    wt_instance *inst = NULL;
    assert_int_equal(wt_instance_from_coords("k", 6, WT_HAVERSINE, lat, lon, NULL, &inst, NULL),
                     WT_OK);
    int64_t q = (int64_t)floor(WT_EARTH_RADIUS_M * PI / 2 + 0.5);
    assert_int_equal(wt_instance_dist(inst, 0, 1), q);
    assert_int_equal(wt_instance_dist(inst, 0, 2), q);
    assert_int_equal(wt_instance_dist(inst, 0, 3), (int64_t)floor(WT_EARTH_RADIUS_M * PI + 0.5));
    assert_int_equal(wt_instance_dist(inst, 2, 4), (int64_t)floor(WT_EARTH_RADIUS_M * PI + 0.5));
    assert_int_equal(wt_instance_dist(inst, 0, 5), 111195); /* 111194.93 m */
    /* The coordinates given back are the degrees. */
    const double *x, *y;
    assert_true(wt_instance_coords(inst, &x, &y));
    assert_true(x[2] == 90 && y[3] == 180);
    wt_instance_free(inst);
}

static void test_ranges_refused(void **state)
{
    (void)state;
    double lat[] = {0, 10, 91}, lon[] = {0, 10, 10};
    double lat2[] = {0, 10, 20}, lon2[] = {0, 360, 10}, lon3[] = {0, -180.5, 10};
    wt_instance *inst = NULL;
    wt_error err = {0};
    assert_int_equal(wt_instance_from_coords("r", 3, WT_HAVERSINE, lat, lon, NULL, &inst, &err),
                     WT_STATUS_INVALID_ARGUMENT);
    assert_non_null(strstr(err.message, "latitude"));
    assert_int_equal(wt_instance_from_coords("r", 3, WT_HAVERSINE, lat2, lon2, NULL, &inst, &err),
                     WT_STATUS_INVALID_ARGUMENT);
    assert_int_equal(wt_instance_from_coords("r", 3, WT_HAVERSINE, lat2, lon3, NULL, &inst, &err),
                     WT_STATUS_INVALID_ARGUMENT);
    assert_null(inst);
    const char *text = "lat,lon\n10,20\n95,20\n30,40\n";
    assert_int_equal(wt_instance_parse_points_as(text, strlen(text), "p.csv", WT_POINTS_AUTO, NULL,
                                                 &inst, &err),
                     WT_STATUS_PARSE);
    assert_non_null(strstr(err.message, "p.csv:3:"));
    assert_non_null(strstr(err.message, "latitude 95"));
    text = "10 20\n20 -181\n30 40\n";
    assert_int_equal(wt_instance_parse_points_as(text, strlen(text), "q.txt",
                                                 WT_POINTS_HAVERSINE, NULL, &inst, &err),
                     WT_STATUS_PARSE);
    assert_non_null(strstr(err.message, "q.txt:2:"));
    assert_non_null(strstr(err.message, "longitude -181"));
    text = "10 20 3\n20 30 3\n30 40 3\n";
    assert_int_equal(wt_instance_parse_points_as(text, strlen(text), "z.txt",
                                                 WT_POINTS_HAVERSINE, NULL, &inst, &err),
                     WT_STATUS_PARSE);
    assert_non_null(strstr(err.message, "z.txt:1:"));
}

/* Parses text as a point file with metric; checks the type, the latitude
 * column and city 0's degrees (x latitude, y longitude). */
static void check_header(const char *text, wt_points_metric metric, wt_edge_weight_type type,
                         int lat_column, bool from_header, double lat0, double lon0)
{
    wt_instance *inst = NULL;
    wt_error err = {0};
    wt_points_info info = {-1, -1, true};
    wt_status st = wt_instance_parse_points_as(text, strlen(text), "h.csv", metric, &info, &inst,
                                               &err);
    if (st != WT_OK) fprintf(stderr, "%s\n", err.message);
    assert_int_equal(st, WT_OK);
    assert_int_equal(wt_instance_type(inst), type);
    assert_int_equal(info.lat_column, lat_column);
    assert_int_equal(info.from_header, from_header);
    const double *x, *y;
    assert_true(wt_instance_coords(inst, &x, &y));
    if (type == WT_HAVERSINE) {
        assert_true(x[0] == lat0 && y[0] == lon0);
        /* Paris - London: 343.9 km however the file orders the columns. */
        int64_t d = wt_instance_dist(inst, 0, 1);
        assert_true(d > 343000 && d < 345000);
    }
    wt_instance_free(inst);
}

static void test_header_forms(void **state)
{
    (void)state;
    const double la = 48.8566, lo = 2.3522;
    check_header("lat,lon\n48.8566,2.3522\n51.5074,-0.1278\n40.4168,-3.7038\n", WT_POINTS_AUTO,
                 WT_HAVERSINE, 1, true, la, lo);
    check_header("Latitude,Longitude\n48.8566,2.3522\n51.5074,-0.1278\n40.4168,-3.7038\n",
                 WT_POINTS_AUTO, WT_HAVERSINE, 1, true, la, lo);
    check_header("lon,lat\n2.3522,48.8566\n-0.1278,51.5074\n-3.7038,40.4168\n", WT_POINTS_AUTO,
                 WT_HAVERSINE, 2, true, la, lo);
    check_header("\"lng\",\"lat\"\n2.3522,48.8566\n-0.1278,51.5074\n-3.7038,40.4168\n",
                 WT_POINTS_AUTO, WT_HAVERSINE, 2, true, la, lo);
    check_header("longitude latitude\n2.3522 48.8566\n-0.1278 51.5074\n-3.7038 40.4168\n",
                 WT_POINTS_HAVERSINE, WT_HAVERSINE, 2, true, la, lo);
    check_header("LONG\tLAT\n2.3522\t48.8566\n-0.1278\t51.5074\n-3.7038\t40.4168\n",
                 WT_POINTS_AUTO, WT_HAVERSINE, 2, true, la, lo);
    /* No header: Euclidean unless asked, then latitude first. */
    check_header("48.8566 2.3522\n51.5074 -0.1278\n40.4168 -3.7038\n", WT_POINTS_AUTO,
                 WT_EUC_2D_REAL, 0, false, 0, 0);
    check_header("48.8566 2.3522\n51.5074 -0.1278\n40.4168 -3.7038\n", WT_POINTS_HAVERSINE,
                 WT_HAVERSINE, 1, false, la, lo);
    /* A header of other names: Euclidean, or latitude first when asked. */
    check_header("x,y\n48.8566,2.3522\n51.5074,-0.1278\n40.4168,-3.7038\n", WT_POINTS_AUTO,
                 WT_EUC_2D_REAL, 0, false, 0, 0);
    check_header("a,b\n48.8566,2.3522\n51.5074,-0.1278\n40.4168,-3.7038\n", WT_POINTS_HAVERSINE,
                 WT_HAVERSINE, 1, false, la, lo);
    /* Euclidean forced over a lat,lon header; lat,lat is no pair. */
    check_header("lat,lon\n48.8566,2.3522\n51.5074,-0.1278\n40.4168,-3.7038\n",
                 WT_POINTS_EUCLIDEAN, WT_EUC_2D_REAL, 0, false, 0, 0);
    check_header("lat,lat\n48.8566,2.3522\n51.5074,-0.1278\n40.4168,-3.7038\n", WT_POINTS_AUTO,
                 WT_EUC_2D_REAL, 0, false, 0, 0);
}

static const char *geo_file(char *buf, size_t size, const char *coords)
{
    snprintf(buf, size,
             "NAME : g\nTYPE : TSP\nDIMENSION : 4\nEDGE_WEIGHT_TYPE : GEO\n"
             "NODE_COORD_SECTION\n%sEOF\n",
             coords);
    return buf;
}

static void test_geo_minutes(void **state)
{
    (void)state;
    char buf[1024];
    wt_instance *inst = NULL;
    wt_error err = {0};
    /* Decimal degrees taken for DDD.MM: refused, naming the line and DDD.MM. */
    geo_file(buf, sizeof buf,
             "1 48.8566 2.3522\n2 51.5074 -0.1278\n3 40.4168 -3.7038\n4 52.52 13.405\n");
    assert_int_equal(wt_instance_parse_tsplib(buf, strlen(buf), "dec.tsp", &inst, &err),
                     WT_STATUS_PARSE);
    assert_non_null(strstr(err.message, "dec.tsp:6:"));
    assert_non_null(strstr(err.message, "DDD.MM"));
    assert_non_null(strstr(err.message, "minutes"));
    assert_non_null(strstr(err.message, "haversine"));
    /* Degrees and minutes: fine. */
    geo_file(buf, sizeof buf,
             "1 48.51 2.21\n2 51.30 -0.07\n3 40.25 -3.42\n4 52.31 13.24\n");
    assert_int_equal(wt_instance_parse_tsplib(buf, strlen(buf), "dm.tsp", &inst, &err), WT_OK);
    wt_instance_free(inst);
    /* Latitude out of range. */
    geo_file(buf, sizeof buf, "1 48.51 2.21\n2 91.30 -0.07\n3 40.25 -3.42\n4 52.31 13.24\n");
    assert_int_equal(wt_instance_parse_tsplib(buf, strlen(buf), "lat.tsp", &inst, &err),
                     WT_STATUS_PARSE);
    assert_non_null(strstr(err.message, "lat.tsp:7:"));
    assert_non_null(strstr(err.message, "latitude"));
}

/* A solve over places: a valid tour, its length the sum of its edges. */
static void test_solve_exact(void **state)
{
    (void)state;
    enum { N = 300 };
    double lat[N], lon[N];
    wt_rng rng;
    wt_rng_seed(&rng, 7);
    for (int i = 0; i < N; i++) {
        lat[i] = -80 + 160 * wt_rng_uniform(&rng);
        lon[i] = 170 + 20 * wt_rng_uniform(&rng); /* over the date line, as 170..190 */
        if (i % 2 && lon[i] >= 180) lon[i] -= 360;  /* half written as -180..-170 */
    }
    wt_instance *inst = NULL;
    assert_int_equal(wt_instance_from_coords("p", N, WT_HAVERSINE, lat, lon, NULL, &inst, NULL),
                     WT_OK);
    const wt_algorithm algos[] = {WT_ALGO_ILS, WT_ALGO_2OPT, WT_ALGO_MULTISTART, WT_ALGO_SA};
    for (size_t k = 0; k < sizeof algos / sizeof algos[0]; k++) {
        wt_params p;
        wt_params_defaults(&p);
        p.algorithm = algos[k];
        p.backend = WT_BACKEND_CPU;
        p.threads = 2;
        p.seed = 3;
        p.kicks = 200;
        p.restarts = 8;
        p.sa_alpha = 0.8; /* a short anneal: the point is its exact length */
        wt_result r;
        wt_error err = {0};
        wt_status st = wt_solve(inst, &p, &r, &err);
        if (st != WT_OK) fprintf(stderr, "%s\n", err.message);
        assert_int_equal(st, WT_OK);
        assert_int_equal(wt_tour_validate(r.tour, N, NULL), WT_OK);
        int64_t sum = 0;
        for (int i = 0; i < N; i++) sum += wt_instance_dist(inst, r.tour[i], r.tour[(i + 1) % N]);
        assert_int_equal(r.length, sum);
        assert_true(r.length_real == (double)sum);
        wt_result_free(&r);
    }
    wt_instance_free(inst);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_places),  cmocka_unit_test(test_known_distances),
        cmocka_unit_test(test_ranges_refused), cmocka_unit_test(test_header_forms),
        cmocka_unit_test(test_geo_minutes),    cmocka_unit_test(test_solve_exact),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
