/*
 * test_instance_subset.c - the instance of some of an instance's cities
 * (core/instance_subset.h), which window searches and MPI parts search.
 *
 * For every distance type: the subset of a shuffled half of the cities has
 * the type, the name given and every distance of the large instance
 * between the chosen cities, exactly (real-valued types: the same length
 * unit); the large instance's fixed edges do not come along.
 */
#include "test_util.h"

#include "core/instance.h"
#include "core/instance_subset.h"

/* n random places (WT_HAVERSINE), which wt_test_typed_instance does not make. */
static wt_instance *places(int n)
{
    double lat[40], lon[40];
    for (int i = 0; i < n; i++) {
        lat[i] = -80.0 + 4.0 * i;
        lon[i] = (double)((i * 37) % 350) - 170.0;
    }
    wt_instance *inst = NULL;
    wt_error err = {0};
    assert_int_equal(wt_instance_from_coords("places", n, WT_HAVERSINE, lat, lon, NULL, &inst,
                                             &err), WT_OK);
    return inst;
}

static void check_subset(wt_edge_weight_type type)
{
    const int n = 40, m = 20;
    wt_instance *inst = type == WT_HAVERSINE ? places(n)
                                             : wt_test_typed_instance(type, n, 7 + (uint64_t)type);
    int32_t order[40];
    wt_test_random_tour(n, 11, order);
    wt_error err = {0};
    assert_int_equal(wt_instance_set_fixed_edges(inst, order, 1, &err), WT_OK);
    wt_instance *sub = wt_instance_subset(inst, "part", order, m);
    assert_non_null(sub);
    assert_int_equal(wt_instance_n(sub), m);
    assert_int_equal(wt_instance_type(sub), type);
    assert_string_equal(wt_instance_name(sub), "part");
    assert_int_equal(wt_instance_is_real(sub), wt_instance_is_real(inst));
    assert_true(wt_instance_length_unit(sub) == wt_instance_length_unit(inst));
    assert_int_equal(wt_instance_fixed_edges(sub, NULL), 0);
    for (int i = 0; i < m; i++)
        for (int j = 0; j < m; j++)
            assert_int_equal(wt_dist(sub, i, j), wt_dist(inst, order[i], order[j]));
    wt_instance_free(sub);
    wt_instance_free(inst);
}

static void test_every_type_keeps_its_distances(void **state)
{
    (void)state;
    const wt_edge_weight_type types[] = {WT_EUC_2D, WT_CEIL_2D, WT_ATT, WT_GEO, WT_MAN_2D,
                                         WT_MAX_2D, WT_EUC_3D, WT_EXPLICIT, WT_EUC_2D_REAL,
                                         WT_EUC_3D_REAL, WT_HAVERSINE};
    for (size_t k = 0; k < sizeof types / sizeof *types; k++) check_subset(types[k]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_type_keeps_its_distances),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
