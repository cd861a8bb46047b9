/*
 * param_opts.c - the one table of the options that set wt_params, shared
 * by `warptour solve`, `warptour solve-batch` and warptour-bench: names,
 * value checks and the field each stores to.  A program selects the ones
 * it takes by a mask (CLI_PARAM bits) and parses its own options beside
 * them; a batch's go into wt_batch_params (cli_parse_batch_param).
 */
#include <stdio.h>
#include <string.h>

#include "cli_common.h"

/* The table, in cli_param_opt's order; getopt_long reads the names past
 * their "--". */
static const char *const param_names[CLI_N_PARAM_OPTS] = {
    "--algorithm", "--backend",  "--init",    "--seed",   "--time-limit", "--threads",
    "--restarts",  "--swaps",    "--nested",  "--band",   "--prune",      "--kicks",
    "--accept",    "--ils-descent", "--searches", "--moves", "--t-start",  "--t-end",
    "--alpha",     "--sweeps",   "--exchange", "--sa-cpu", "--polish",    "--near",
    "--device",    "--devices", "--tune"};

bool cli_is_param(int code)
{
    return code >= CLI_OPT_ALGORITHM && code < CLI_OPT_PARAM_END;
}

const char *cli_param_name(int code)
{
    return cli_is_param(code) ? param_names[code - CLI_OPT_ALGORITHM] : NULL;
}

bool cli_options_build(struct option *out, size_t cap, const struct option *own, uint64_t mask)
{
    size_t n = 0;
    for (; own && own[n].name; n++) {
        if (n + 1 >= cap) return false;
        out[n] = own[n];
    }
    for (int k = 0; k < CLI_N_PARAM_OPTS; k++) {
        if (!(mask & (UINT64_C(1) << k))) continue;
        if (n + 1 >= cap) return false;
        out[n++] = (struct option){param_names[k] + 2, required_argument, 0, CLI_OPT_ALGORITHM + k};
    }
    out[n] = (struct option){0, 0, 0, 0};
    return true;
}

/* "on" or "off" into *b; false for anything else. */
static bool parse_on_off(const char *arg, bool *b)
{
    if (strcmp(arg, "on") == 0) *b = true;
    else if (strcmp(arg, "off") == 0) *b = false;
    else return false;
    return true;
}

/* "a, b or c": the names the library gives values 0, 1, ... of an enum
 * (name returns NULL, or "unknown", past the last), for a message. */
static const char *name_list(const char *(*name)(int), char *buf, size_t size)
{
    buf[0] = '\0';
    int count = 0;
    while (count < 64 && name(count) && strcmp(name(count), "unknown") != 0) count++;
    for (int k = 0; k < count; k++) {
        size_t used = strlen(buf);
        snprintf(buf + used, size - used, "%s%s", k == 0 ? "" : k == count - 1 ? " or " : ", ",
                 name(k));
    }
    return buf;
}

static const char *init_name(int k) { return wt_init_method_name((wt_init_method)k); }
static const char *descent_name(int k) { return wt_ils_descent_name((wt_ils_descent)k); }

/* The simulated annealing options. */
static int parse_sa_param(const char *cmd, int code, const char *arg, wt_params *p)
{
    int64_t v;
    switch (code) {
    case CLI_OPT_SEARCHES:
        if (!cli_parse_int64(arg, 1, 1 << 20, &v))
            return cli_usage_error(cmd, "--searches needs an integer in 1..%d, got '%s'",
                                   1 << 20, arg);
        p->sa_searches = (int)v;
        break;
    case CLI_OPT_MOVES:
        if (!cli_parse_int64(arg, 1, 1 << 16, &v))
            return cli_usage_error(cmd, "--moves needs an integer in 1..%d, got '%s'", 1 << 16,
                                   arg);
        p->sa_moves = (int)v;
        break;
    case CLI_OPT_T_START:
    case CLI_OPT_T_END: {
        double *t = code == CLI_OPT_T_START ? &p->sa_t_start : &p->sa_t_end;
        if (!cli_parse_double(arg, 0.0, 1e300, t) || *t <= 0)
            return cli_usage_error(cmd, "%s needs a positive temperature, got '%s'",
                                   cli_param_name(code), arg);
        break;
    }
    case CLI_OPT_ALPHA:
        if (!cli_parse_double(arg, 0.0, 1.0, &p->sa_alpha) || p->sa_alpha <= 0 ||
            p->sa_alpha >= 1)
            return cli_usage_error(cmd, "--alpha needs a number between 0 and 1 "
                                   "(exclusive), got '%s'", arg);
        break;
    case CLI_OPT_SWEEPS:
    case CLI_OPT_EXCHANGE:
        if (!cli_parse_int64(arg, 1, 1 << 30, &v))
            return cli_usage_error(cmd, "%s needs a positive integer, got '%s'",
                                   cli_param_name(code), arg);
        *(code == CLI_OPT_SWEEPS ? &p->sa_sweeps : &p->sa_exchange) = (int)v;
        break;
    case CLI_OPT_SA_CPU:
        if (strcmp(arg, "sspm") == 0) p->sa_cpu = WT_SA_SSPM;
        else if (strcmp(arg, "pssm") == 0) p->sa_cpu = WT_SA_PSSM;
        else return cli_usage_error(cmd, "--sa-cpu is 'sspm' or 'pssm', got '%s'", arg);
        break;
    case CLI_OPT_NEAR:
        if (!cli_parse_int64(arg, 0, 1000, &v) || v == 1)
            return cli_usage_error(cmd, "--near needs 0 (off) or an integer in 2..1000, "
                                   "got '%s'", arg);
        p->sa_near = (int)v;
        break;
    case CLI_OPT_POLISH:
        if (!parse_on_off(arg, &p->sa_polish))
            return cli_usage_error(cmd, "--polish is 'on' or 'off', got '%s'", arg);
        break;
    default: return cli_usage_error(cmd, "unknown option");
    }
    return -1;
}

/* The descents' options: 2-opt, k-swap, pruning and ILS. */
static int parse_descent_param(const char *cmd, int code, const char *arg, wt_params *p)
{
    int64_t v;
    switch (code) {
    case CLI_OPT_SWAPS:
        if (strcmp(arg, "all") == 0) p->swaps = 0;
        else if (cli_parse_int64(arg, 1, 1 << 30, &v)) p->swaps = (int)v;
        else return cli_usage_error(cmd, "--swaps needs a positive integer or 'all', got "
                                    "'%s'", arg);
        break;
    case CLI_OPT_NESTED:
        if (!parse_on_off(arg, &p->kswap_nested))
            return cli_usage_error(cmd, "--nested is 'on' or 'off', got '%s'", arg);
        break;
    case CLI_OPT_PRUNE:
        if (!parse_on_off(arg, &p->prune))
            return cli_usage_error(cmd, "--prune is 'on' or 'off', got '%s'", arg);
        break;
    case CLI_OPT_BAND:
        if (!cli_parse_int64(arg, 0, 1 << 30, &v))
            return cli_usage_error(cmd, "--band needs an integer in 0..%d, got '%s'", 1 << 30,
                                   arg);
        p->kswap_band = (int)v;
        break;
    case CLI_OPT_KICKS:
        if (!cli_parse_uint64(arg, &p->kicks) || p->kicks == 0)
            return cli_usage_error(cmd, "--kicks needs a positive integer, got '%s'", arg);
        break;
    case CLI_OPT_ACCEPT:
        if (strcmp(arg, "better") == 0) p->accept_equal = false;
        else if (strcmp(arg, "equal") == 0) p->accept_equal = true;
        else return cli_usage_error(cmd, "--accept is 'better' or 'equal', got '%s'", arg);
        break;
    case CLI_OPT_ILS_DESCENT:
        if (wt_ils_descent_parse(arg, &p->ils_descent) != WT_OK) {
            char names[160];
            return cli_usage_error(cmd, "--ils-descent is %s, got '%s'",
                                   name_list(descent_name, names, sizeof names), arg);
        }
        break;
    default: return parse_sa_param(cmd, code, arg, p);
    }
    return -1;
}

int cli_parse_param(const char *cmd, int code, const char *arg, wt_params *p,
                    wt_tuning *tuning)
{
    int64_t v;
    switch (code) {
    case CLI_OPT_ALGORITHM:
        if (wt_algorithm_parse(arg, &p->algorithm) != WT_OK)
            return cli_usage_error(cmd, "unknown --algorithm '%s' (expected 2opt, "
                                   "multistart, ils or sa)", arg);
        break;
    case CLI_OPT_BACKEND:
        if (wt_backend_parse(arg, &p->backend) != WT_OK)
            return cli_usage_error(cmd, "unknown --backend '%s' (expected auto, cpu, cuda)",
                                   arg);
        break;
    case CLI_OPT_INIT:
        if (wt_init_method_parse(arg, &p->init) != WT_OK) {
            char names[160];
            return cli_usage_error(cmd, "unknown --init '%s' (expected %s)", arg,
                                   name_list(init_name, names, sizeof names));
        }
        break;
    case CLI_OPT_SEED:
        if (!cli_parse_uint64(arg, &p->seed))
            return cli_usage_error(cmd, "--seed needs a non-negative integer, got '%s'", arg);
        break;
    case CLI_OPT_TIME_LIMIT:
        if (!cli_parse_double(arg, 0.0, 1e9, &p->time_limit_s) || p->time_limit_s <= 0)
            return cli_usage_error(cmd, "--time-limit needs a positive number of seconds "
                                   "up to 1e9, got '%s'", arg);
        break;
    case CLI_OPT_THREADS:
        if (!cli_parse_int64(arg, 1, WT_MAX_THREADS, &v))
            return cli_usage_error(cmd, "--threads needs an integer in 1..%d, got '%s'",
                                   WT_MAX_THREADS, arg);
        p->threads = (int)v;
        break;
    case CLI_OPT_RESTARTS:
        if (!cli_parse_uint64(arg, &p->restarts) || p->restarts == 0)
            return cli_usage_error(cmd, "--restarts needs a positive integer, got '%s'", arg);
        break;
    case CLI_OPT_DEVICE: return cli_parse_device(cmd, arg, &p->cuda_device);
    case CLI_OPT_DEVICES: return cli_parse_devices(cmd, arg, p->devices, &p->device_count);
    case CLI_OPT_TUNE:
        if (!tuning) return cli_usage_error(cmd, "--tune does not apply here");
        p->tuning = tuning;
        return cli_parse_tune(cmd, arg, tuning);
    default: return parse_descent_param(cmd, code, arg, p);
    }
    return -1;
}

int cli_parse_batch_param(const char *cmd, int code, const char *arg, wt_batch_params *b)
{
    if (code == CLI_OPT_TUNE) return cli_parse_batch_tune(cmd, arg, b);
    if (!cli_is_param(code) || !(CLI_BATCH_PARAMS & CLI_PARAM(code)))
        return cli_usage_error(cmd, "%s does not apply to a batch",
                               cli_is_param(code) ? cli_param_name(code) : "this option");
    /* solve's checks, on a wt_params that carries the fields the two share */
    wt_params p;
    wt_params_defaults(&p);
    p.backend = b->backend;
    p.seed = b->seed;
    p.time_limit_s = b->time_limit_s;
    p.threads = b->threads;
    p.kicks = b->kicks;
    p.cuda_device = b->cuda_device;
    memcpy(p.devices, b->devices, sizeof p.devices);
    p.device_count = b->device_count;
    int st = cli_parse_param(cmd, code, arg, &p, NULL);
    b->backend = p.backend;
    b->seed = p.seed;
    b->time_limit_s = p.time_limit_s;
    b->threads = p.threads;
    b->kicks = p.kicks;
    b->cuda_device = p.cuda_device;
    memcpy(b->devices, p.devices, sizeof b->devices);
    b->device_count = p.device_count;
    return st;
}
