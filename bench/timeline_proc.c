/*
 * timeline_proc.c - running the processes of `warptour-bench timeline` with
 * every line they print timestamped by the parent's clock.
 *
 * A solver's own clock starts after it has read its instance (and, for
 * LKH, after its preprocessing), so its printed times are not what a user
 * waits for.  Here every line is stamped as it arrives on the pipe, by the
 * parent's monotonic clock from just before the fork: ours and the peers'
 * alike, which all flush their improvement lines one by one.  Several
 * processes can run at once (a best-of-N peer): one poll over their pipes,
 * one clock, so their samples land in one run in arrival order.
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench.h"
#include "timeline.h"

enum { TL_LINE_MAX = 4096 };

void tl_run_add(tl_run *r, double t, int64_t length)
{
    if (r->count == r->cap) {
        size_t cap = r->cap ? 2 * r->cap : 64;
        tl_sample *grown = realloc(r->s, cap * sizeof *grown);
        if (!grown) return; /* a lost sample only makes a later one count */
        r->s = grown;
        r->cap = cap;
    }
    r->s[r->count++] = (tl_sample){t, length};
}

int64_t tl_run_best_at(const tl_run *r, double t)
{
    int64_t best = -1;
    for (size_t i = 0; i < r->count && r->s[i].t <= t; i++)
        if (best < 0 || r->s[i].length < best) best = r->s[i].length;
    return best;
}

/* One process of a run: its pipe and its partial line. */
typedef struct tl_proc {
    pid_t pid;
    int fd;       /* the read end, -1 once at its end */
    char buf[TL_LINE_MAX];
    size_t used;
} tl_proc;

/* Hands each complete line of p's buffer to fn and keeps the rest. */
static void take_lines(tl_proc *p, tl_run *r, double t, tl_line_fn fn)
{
    size_t start = 0;
    for (size_t i = 0; i < p->used; i++)
        if (p->buf[i] == '\n') {
            p->buf[i] = '\0';
            fn(r, t, p->buf + start);
            start = i + 1;
        }
    memmove(p->buf, p->buf + start, p->used - start);
    p->used -= start;
    if (p->used == TL_LINE_MAX - 1) p->used = 0; /* a line this long is nobody's result */
}

/* Forks argv with its stdout on a pipe into p; false after a message. */
static bool start_process(char *const argv[], const char *cwd, tl_proc *p)
{
    int fd[2];
    if (pipe(fd) != 0) {
        fprintf(stderr, "warptour-bench: pipe: %s\n", strerror(errno));
        return false;
    }
    p->pid = fork();
    if (p->pid < 0) {
        fprintf(stderr, "warptour-bench: fork: %s\n", strerror(errno));
        close(fd[0]);
        close(fd[1]);
        return false;
    }
    if (p->pid == 0) {
        dup2(fd[1], STDOUT_FILENO);
        close(fd[0]);
        close(fd[1]);
        if (cwd && chdir(cwd) != 0) {
            fprintf(stderr, "warptour-bench: cannot enter %s: %s\n", cwd, strerror(errno));
            _exit(127);
        }
        execv(argv[0], argv);
        fprintf(stderr, "warptour-bench: cannot run %s: %s\n", argv[0], strerror(errno));
        _exit(127);
    }
    close(fd[1]);
    p->fd = fd[0];
    p->used = 0;
    return true;
}

/* Signals every process whose pipe is still open. */
static void signal_open(tl_proc *procs, int count, int sig)
{
    for (int i = 0; i < count; i++)
        if (procs[i].fd >= 0) kill(procs[i].pid, sig);
}

bool tl_run_processes(char **const argvs[], int count, const char *cwd, double stop_at,
                      tl_line_fn fn, tl_run *r)
{
    tl_proc *procs = calloc((size_t)count, sizeof *procs);
    struct pollfd *pf = calloc((size_t)count, sizeof *pf);
    if (!procs || !pf) {
        fprintf(stderr, "warptour-bench: out of memory\n");
        free(procs);
        free(pf);
        return false;
    }
    fflush(stdout);
    fflush(stderr);
    double t0 = bench_now();
    int started = 0;
    while (started < count && start_process(argvs[started], cwd, &procs[started])) started++;
    r->procs = started;
    int open = started;
    bool termed = false;
    while (open > 0) {
        double now = bench_now() - t0;
        double deadline = stop_at + (termed ? 1.0 : 0.0);
        if (now >= deadline) {
            if (termed) {
                signal_open(procs, started, SIGKILL);
                break;
            }
            /* Those still going are stopped here: their end is now. */
            r->killed = open;
            r->exit_s = now;
            signal_open(procs, started, SIGTERM);
            termed = true;
            continue;
        }
        int m = 0;
        for (int i = 0; i < started; i++)
            if (procs[i].fd >= 0) pf[m++] = (struct pollfd){procs[i].fd, POLLIN, 0};
        int ready = poll(pf, (nfds_t)m, (int)((deadline - now) * 1000) + 1);
        if (ready < 0 && errno != EINTR) break;
        if (ready <= 0) continue;
        for (int k = 0; k < m; k++) {
            if (!(pf[k].revents & (POLLIN | POLLHUP | POLLERR))) continue;
            tl_proc *p = NULL;
            for (int i = 0; i < started && !p; i++)
                if (procs[i].fd == pf[k].fd) p = &procs[i];
            ssize_t got = read(p->fd, p->buf + p->used, sizeof p->buf - 1 - p->used);
            double t = bench_now() - t0;
            if (got < 0 && errno == EINTR) continue;
            if (got <= 0) { /* its end: the process has exited (or closed its stdout) */
                close(p->fd);
                p->fd = -1;
                open--;
                if (!termed) r->exit_s = t;
                continue;
            }
            p->used += (size_t)got;
            take_lines(p, r, t, fn);
        }
    }
    /* Only a failed poll leaves a process unsignalled with its pipe open:
     * it must not make the wait below hang. */
    signal_open(procs, started, SIGKILL);
    for (int i = 0; i < started; i++) {
        if (procs[i].fd >= 0) close(procs[i].fd);
        int ws = 0;
        while (waitpid(procs[i].pid, &ws, 0) < 0 && errno == EINTR) {}
        int st = WIFEXITED(ws) ? WEXITSTATUS(ws) : -1;
        if (r->status == 0) r->status = st;
    }
    if (!termed) r->exit_s = bench_now() - t0;
    free(procs);
    free(pf);
    return started > 0;
}
