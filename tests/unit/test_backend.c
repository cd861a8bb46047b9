/*
 * test_backend.c - the backend interface's registry and its device layer
 * (backend/backend.h, registry.c), and the include rules that keep every
 * compute job of algo/ going through that interface.
 *
 * The CPU backend fills every search slot that any backend has (it is the
 * reference implementation of each), and the slots left NULL mean what
 * backend.h says (one device; every instance fits; the ascent not
 * implemented yet).  Devices enumerate as `cpu` first, then `cuda:0`,
 * `cuda:1`, ... (none in a build or on a machine without a GPU), in the
 * order of wt_device_list.  No file of src/algo includes a file of
 * src/backend/cpu or src/backend/cuda, no file of src/backend includes one
 * of src/algo or calls wt_params_defaults (algo/solve.c), and the CUDA
 * backend includes nothing of the CPU backend.
 */
#include "test_util.h"

#include <dirent.h>

#include "backend/backend.h"

static const wt_backend *cpu_backend(void)
{
    const wt_backend *b = wt_backend_of(WT_BACKEND_CPU);
    assert_non_null(b);
    return b;
}

static void test_cpu_fills_every_slot(void **state)
{
    (void)state;
    const wt_backend *b = cpu_backend();
    assert_string_equal(b->name, "cpu");
    assert_true(b->host);
    assert_non_null(b->available);
    assert_non_null(b->multistart);
    assert_non_null(b->session);
    assert_non_null(b->sa);
    assert_true(b->sa_near);
    assert_non_null(b->batch);
    assert_non_null(b->windows);
    /* NULL by design: one device, and every instance fits the host. */
    assert_null(b->device_count);
    assert_null(b->batch_place);
    assert_non_null(b->ascent); /* the reference of the Held-Karp ascent */
    const wt_session_ops *s = b->session;
    assert_non_null(s->open);
    assert_non_null(s->close);
    assert_non_null(s->scan);
    assert_non_null(s->apply);
    assert_non_null(s->kick);
    assert_non_null(s->length);
    assert_non_null(s->keep);
    assert_non_null(s->revert);
    assert_non_null(s->read_best);
    for (int a = WT_ALGO_2OPT; a <= WT_ALGO_SA; a++)
        assert_true(wt_backend_has(b, (wt_algorithm)a));
}

/* Every backend of the registry has a name, a kind that finds it again,
 * and an available slot; the device backends' slots are a subset of the
 * CPU's. */
static void test_registry(void **state)
{
    (void)state;
    const wt_backend *b, *cpu = cpu_backend();
    int count = 0;
    for (int i = 0; (b = wt_backend_at(i)) != NULL; i++, count++) {
        assert_non_null(b->name);
        assert_ptr_equal(wt_backend_of(b->kind), b);
        assert_non_null(b->available);
        if (b->multistart) assert_non_null(cpu->multistart);
        if (b->session) assert_non_null(cpu->session);
        if (b->sa) assert_non_null(cpu->sa);
        if (b->batch) assert_non_null(cpu->batch);
        if (b->windows) assert_non_null(cpu->windows);
        if (b->ascent) assert_non_null(cpu->ascent);
        if (!b->host) assert_true(wt_backend_devices(b) >= 0);
    }
    assert_true(count >= 2);
    assert_ptr_equal(wt_backend_at(0), cpu);
    assert_null(wt_backend_at(count));
    assert_null(wt_backend_at(-1));
    assert_null(wt_backend_of(WT_BACKEND_AUTO));
}

static void test_devices_enumerate_cpu_first(void **state)
{
    (void)state;
    wt_device d;
    assert_true(wt_device_at(0, &d));
    assert_string_equal(d.name, "cpu");
    assert_ptr_equal(d.backend, cpu_backend());
    assert_int_equal(d.index, 0);
    char desc[160];
    assert_true(wt_device_usable(&d, desc, sizeof desc));
    assert_non_null(strstr(desc, "cores"));

    /* Then each device backend's devices, numbered from 0 and named by it. */
    int expected = 0;
    const wt_backend *b;
    for (int i = 0; (b = wt_backend_at(i)) != NULL; i++) expected += wt_backend_devices(b);
    int count = 1;
    const wt_backend *last = d.backend;
    int next_index = 1;
    for (; wt_device_at(count, &d); count++) {
        assert_false(d.backend->host);
        if (d.backend != last) next_index = 0;
        assert_int_equal(d.index, next_index++);
        last = d.backend;
        char name[32];
        snprintf(name, sizeof name, "%s:%d", d.backend->name, d.index);
        assert_string_equal(d.name, name);
    }
    assert_int_equal(count, expected);
    assert_false(wt_device_at(count, &d));
    assert_false(wt_device_at(-1, &d));

    wt_device host;
    wt_device_host(&host);
    assert_string_equal(host.name, "cpu");
    assert_ptr_equal(host.backend, cpu_backend());

    /* wt_device_list lists the same devices, the CPU first (and a backend
     * without any device as one entry that says why). */
    wt_device_info info[16];
    int listed = wt_device_list(info, 16);
    assert_true(listed >= 1);
    assert_int_equal(info[0].backend, WT_BACKEND_CPU);
    assert_true(info[0].host);
    assert_true(info[0].usable);
    assert_true(listed >= count);
}

/* A device past the machine's is unusable and says why; in a build
 * without CUDA every CUDA device is. */
static void test_device_usable(void **state)
{
    (void)state;
    const wt_backend *cuda = wt_backend_of(WT_BACKEND_CUDA);
    assert_non_null(cuda);
    wt_device d;
    wt_device_of(cuda, 4096, &d);
    assert_string_equal(d.name, "cuda:4096");
    char desc[160] = "";
    assert_false(wt_device_usable(&d, desc, sizeof desc));
    assert_true(desc[0] != '\0');
    if (wt_backend_devices(cuda) == 0) {
        wt_device_of(cuda, 0, &d);
        assert_false(wt_device_usable(&d, desc, sizeof desc));
        char why[160];
        assert_false(wt_cuda_available(why, sizeof why));
        assert_string_equal(desc, why);
    }
}

/* The repository's src folder, from WT_TEST_DATA (tests/data). */
static void src_dir(const char *sub, char *out, size_t size)
{
    snprintf(out, size, "%s/../../src/%s", wt_test_data_dir(), sub);
}

/* Whether file path holds needle (in its first 1 MiB). */
static bool file_holds(const char *path, const char *needle)
{
    FILE *f = fopen(path, "rb");
    if (!f) fail_msg("cannot open %s", path);
    enum { MAX = 1 << 20 };
    char *text = malloc(MAX + 1);
    size_t got = fread(text, 1, MAX, f);
    fclose(f);
    text[got] = '\0';
    bool found = strstr(text, needle) != NULL;
    free(text);
    return found;
}

/* Fails when a source file of folder sub (.c, .h, .cu, .cuh) holds any of
 * the needles; returns how many files were read. */
static int forbid(const char *sub, const char *const *needles, int count)
{
    char dir[1024];
    src_dir(sub, dir, sizeof dir);
    DIR *d = opendir(dir);
    if (!d) fail_msg("cannot open the folder %s", dir);
    int files = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        const char *dot = strrchr(e->d_name, '.');
        if (!dot || (strcmp(dot, ".c") && strcmp(dot, ".h") && strcmp(dot, ".cu") &&
                     strcmp(dot, ".cuh")))
            continue;
        char path[2048];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        for (int k = 0; k < count; k++)
            if (file_holds(path, needles[k]))
                fail_msg("src/%s/%s holds \"%s\"", sub, e->d_name, needles[k]);
        files++;
    }
    closedir(d);
    return files;
}

static void test_include_rules(void **state)
{
    (void)state;
    static const char *const in_algo[] = {"#include \"backend/cpu/", "#include \"backend/cuda/"};
    assert_true(forbid("algo", in_algo, 2) > 0);
    static const char *const in_backend[] = {"#include \"algo/", "wt_params_defaults("};
    assert_true(forbid("backend", in_backend, 2) > 0);
    assert_true(forbid("backend/cpu", in_backend, 2) > 0);
    static const char *const in_cuda[] = {"#include \"algo/", "wt_params_defaults(",
                                          "#include \"backend/cpu/"};
    assert_true(forbid("backend/cuda", in_cuda, 3) > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cpu_fills_every_slot),
        cmocka_unit_test(test_registry),
        cmocka_unit_test(test_devices_enumerate_cpu_first),
        cmocka_unit_test(test_device_usable),
        cmocka_unit_test(test_include_rules),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
