/*
 * test_golden.c - the TSPLIB instances committed in tests/data, each with its
 * published optimal tour: the tour's length computed by warptour equals the
 * published optimum, on every distance function that has an optimal tour in
 * TSPLIB (EUC_2D, CEIL_2D, ATT, GEO, and EXPLICIT in three matrix formats).
 *
 * test_tsplib_all does the same for the whole collection in ../shared/tsplib
 * and is skipped without it; this one needs only the repository, so CI runs
 * it.  The yardstick is tests/data/SOLUTIONS.tsv (the rows of the shared
 * copy's SOLUTIONS.tsv for these instances), read independently of the
 * library's table in src/core/optima.c, which is checked against it too.
 * pla33810 (CEIL_2D, the only one with an optimal tour) is stored gzipped.
 */
#include "test_util.h"

enum { MAX_ROWS = 64 };

typedef struct golden {
    char name[64];
    int dimension;
    char type[32];       /* EDGE_WEIGHT_TYPE */
    int64_t length;      /* the published optimum */
    bool proven;
} golden;

typedef struct table {
    golden rows[MAX_ROWS];
    size_t count;
} table;

/* Splits a TSV line in place into up to max fields; returns how many. */
static size_t split_tabs(char *line, char **fields, size_t max)
{
    size_t k = 0;
    line[strcspn(line, "\r\n")] = '\0';
    while (k < max) {
        fields[k++] = line;
        char *tab = strchr(line, '\t');
        if (!tab) break;
        *tab = '\0';
        line = tab + 1;
    }
    return k;
}

static int load_table(void **state)
{
    table *t = calloc(1, sizeof *t);
    if (!t) return -1;
    *state = t;
    char *path = wt_test_path(wt_test_data_dir(), "SOLUTIONS.tsv");
    FILE *f = fopen(path, "r");
    free(path);
    if (!f) return -1;
    char line[1024];
    bool header = true, ok = true;
    while (ok && fgets(line, sizeof line, f)) {
        char *fields[6];
        if (header) { header = false; continue; }
        ok = t->count < MAX_ROWS && split_tabs(line, fields, 6) == 6 &&
             strlen(fields[0]) < sizeof t->rows[0].name &&
             strlen(fields[2]) < sizeof t->rows[0].type;
        if (!ok) break;
        golden *g = &t->rows[t->count++];
        strcpy(g->name, fields[0]);
        g->dimension = atoi(fields[1]);
        strcpy(g->type, fields[2]);
        g->length = strtoll(fields[3], NULL, 10);
        g->proven = strcmp(fields[4], "yes") == 0;
    }
    fclose(f);
    return ok && t->count > 0 ? 0 : -1;
}

static int free_table(void **state)
{
    free(*state);
    return 0;
}

/* tests/data/<name><suffix>, or the same with .gz; NULL when neither exists. */
static char *data_file(const char *name, const char *suffix)
{
    char file[128];
    struct stat st;
    const char *gz[] = {"", ".gz"};
    for (int i = 0; i < 2; i++) {
        snprintf(file, sizeof file, "%s%s%s", name, suffix, gz[i]);
        char *path = wt_test_path(wt_test_data_dir(), file);
        if (stat(path, &st) == 0) return path;
        free(path);
    }
    return NULL;
}

static void check_golden(const golden *g)
{
    char *path = data_file(g->name, ".tsp");
    if (!path) fail_msg("tests/data: no %s.tsp(.gz)", g->name);
    wt_instance *inst = NULL;
    wt_error err = {0};
    if (wt_instance_read_tsplib(path, &inst, &err) != WT_OK) fail_msg("%s", err.message);
    free(path);
    assert_string_equal(wt_instance_name(inst), g->name);
    assert_int_equal(wt_instance_n(inst), g->dimension);
    assert_string_equal(wt_edge_weight_type_name(wt_instance_type(inst)), g->type);
    if (wt_instance_known_optimum(inst) != g->length)
        fail_msg("%s: the library's optimum %lld, SOLUTIONS.tsv says %lld", g->name,
                 (long long)wt_instance_known_optimum(inst), (long long)g->length);
    assert_int_equal(wt_instance_optimum_is_proven(inst), g->proven);

    path = data_file(g->name, ".opt.tour");
    if (!path) fail_msg("tests/data: no %s.opt.tour(.gz)", g->name);
    int32_t *tour = NULL;
    if (wt_tour_read_tsplib(path, wt_instance_n(inst), &tour, &err) != WT_OK)
        fail_msg("%s", err.message);
    int64_t len = wt_tour_length(inst, tour);
    if (len != g->length)
        fail_msg("%s: optimal tour of length %lld, published optimum %lld", path, (long long)len,
                 (long long)g->length);
    /* Reversed and rotated, the same tour has the same length. */
    int n = wt_instance_n(inst);
    for (int i = 0; i < n / 2; i++) {
        int32_t c = tour[i];
        tour[i] = tour[n - 1 - i];
        tour[n - 1 - i] = c;
    }
    int32_t first = tour[0];
    memmove(tour, tour + 1, (size_t)(n - 1) * sizeof *tour);
    tour[n - 1] = first;
    assert_int_equal(wt_tour_length(inst, tour), g->length);
    free(tour);
    free(path);
    wt_instance_free(inst);
}

static void test_optimal_tours_have_the_published_length(void **state)
{
    const table *t = *state;
    for (size_t i = 0; i < t->count; i++) {
        print_message("%-10s %-8s %9d cities  %lld\n", t->rows[i].name, t->rows[i].type,
                      t->rows[i].dimension, (long long)t->rows[i].length);
        check_golden(&t->rows[i]);
    }
}

/* Every distance function with a published optimal tour is covered, and
 * EXPLICIT in each of its matrix layouts. */
static void test_every_distance_function_is_covered(void **state)
{
    const table *t = *state;
    const char *types[] = {"EUC_2D", "CEIL_2D", "ATT", "GEO", "EXPLICIT"};
    for (size_t k = 0; k < sizeof types / sizeof *types; k++) {
        bool found = false;
        for (size_t i = 0; i < t->count; i++) found |= strcmp(t->rows[i].type, types[k]) == 0;
        if (!found) fail_msg("tests/data/SOLUTIONS.tsv has no %s instance", types[k]);
    }
    const char *formats[] = {"FULL_MATRIX", "UPPER_ROW", "LOWER_DIAG_ROW"};
    for (size_t k = 0; k < sizeof formats / sizeof *formats; k++) {
        bool found = false;
        for (size_t i = 0; i < t->count && !found; i++) {
            if (strcmp(t->rows[i].type, "EXPLICIT") != 0) continue;
            char *path = data_file(t->rows[i].name, ".tsp");
            assert_non_null(path);
            FILE *f = fopen(path, "r");
            assert_non_null(f);
            char line[256];
            while (!found && fgets(line, sizeof line, f))
                found = strncmp(line, "EDGE_WEIGHT_FORMAT", 18) == 0 && strstr(line, formats[k]);
            fclose(f);
            free(path);
        }
        if (!found) fail_msg("tests/data has no EXPLICIT %s instance", formats[k]);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_optimal_tours_have_the_published_length),
        cmocka_unit_test(test_every_distance_function_is_covered),
    };
    return cmocka_run_group_tests_name("golden", tests, load_table, free_table);
}
