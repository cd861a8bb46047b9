/*
 * pass_loop.cu - the 2-opt pass's column loop alone (wt-limit-pass-loop).
 *
 * src/backend/cuda/twoopt_pass.cu's float loop at 8 rows per lane (per
 * move: a distance, two FADDs, an FMNMX; 9 roots per 8 moves), run by every
 * resident warp over 4000 columns with nothing else in the kernel: no share
 * set-up, no offers, no recovery, no ramp or tail worth counting.  What it
 * reaches is the ceiling of a pass built on this loop.  Three column
 * sources:
 *   registers  the column is computed in registers (no loads at all);
 *   broadcast  every lane loads the same column, two ahead (the pass's way);
 *   shuffle    lane l loads column c0 + l of a block of 32, a block ahead,
 *              and every lane takes column c0 + k from lane k by shuffle.
 * Columns come from a 12k-entry array that stays in L1/L2, as a pass's do.
 */
#include "limit_common.cuh"

#define LIMIT_MAGIC 12582912.0f /* 1.5 * 2^23, as WT_MAGIC */

constexpr int ROWS = 8, COLUMNS = 4000, TABLE = 12288, THREADS = 512;

__device__ __forceinline__ float raw_distance(float2 a, float2 b)
{
    float dx = __fsub_rn(a.x, b.x), dy = __fsub_rn(a.y, b.y), r;
    asm("sqrt.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(__fmaf_rn(dx, dx, __fmul_rn(dy, dy))));
    return r;
}

/* One column: the pass's inner loop body (pass_row_term's operations), a
 * copy of twoopt_pass.cu's warp_rows on purpose: this program measures the
 * chip, and should not move when the pass does. */
__device__ __forceinline__ void column(const float2 p[ROWS + 1], float2 q, float me, float b[ROWS],
                                       float mn[ROWS])
{
    const float mc = __fsub_rn(2.0f * LIMIT_MAGIC, me);
    float s = raw_distance(p[0], q);
#pragma unroll
    for (int r = 0; r < ROWS; r++) {
        float sn = raw_distance(p[r + 1], q);
        mn[r] = fminf(mn[r], __fadd_rn(b[r], sn));
        b[r] = __fadd_rn(mc, s);
        s = sn;
    }
}

enum Source { FROM_REGISTERS, BROADCAST, SHUFFLE };

template <Source SRC>
__global__ void __launch_bounds__(THREADS, 2)
    loop_kernel(const float2 *pts, const float *me, float *sink)
{
    const int lane = threadIdx.x & 31, w = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    float2 p[ROWS + 1];
#pragma unroll
    for (int r = 0; r <= ROWS; r++) p[r] = pts[(lane * ROWS + r + w * 7) & 4095];
    float mn[ROWS], b[ROWS];
#pragma unroll
    for (int r = 0; r < ROWS; r++) {
        mn[r] = INFINITY;
        b[r] = LIMIT_MAGIC + r;
    }
    const int base = (w * 32) & 4095;
    if (SRC == FROM_REGISTERS) {
        float2 q = make_float2((float)lane, (float)(w & 7));
#pragma unroll 2
        for (int j = 0; j < COLUMNS; j++) {
            q.x += 1.0f;
            q.y += 0.5f;
            column(p, q, q.y, b, mn);
        }
    } else if (SRC == BROADCAST) {
        const float2 *qp = pts + base;
        const float *ep = me + base;
        float2 q1 = qp[1], q2 = qp[2];
        float e1 = ep[1], e2 = ep[2];
#pragma unroll 2
        for (int j = 0; j < COLUMNS; j++) {
            float2 q = q1;
            float e = e1;
            q1 = q2;
            e1 = e2;
            q2 = qp[3];
            e2 = ep[3];
            qp++;
            ep++;
            column(p, q, e, b, mn);
        }
    } else {
        float2 nq = pts[base + lane];
        float ne = me[base + lane];
        for (int c0 = 0; c0 < COLUMNS; c0 += 32) {
            const float2 cq = nq;
            const float ce = ne;
            nq = pts[base + c0 + 32 + lane];
            ne = me[base + c0 + 32 + lane];
#pragma unroll 4
            for (int k = 0; k < 32; k++) {
                float2 q;
                q.x = __shfl_sync(0xFFFFFFFFu, cq.x, k);
                q.y = __shfl_sync(0xFFFFFFFFu, cq.y, k);
                column(p, q, __shfl_sync(0xFFFFFFFFu, ce, k), b, mn);
            }
        }
    }
    float t = 0;
#pragma unroll
    for (int r = 0; r < ROWS; r++) t += mn[r];
    if (t == 1.0f) sink[0] = t; /* keeps the loop alive */
}

template <Source SRC>
static void measure(const char *what, const LimitDevice &d, const float2 *pts, const float *me,
                    float *sink)
{
    int per_sm = 0;
    LIMIT_CHECK(
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, loop_kernel<SRC>, THREADS, 0));
    const int blocks = d.sms * per_sm;
    float ms = limit_time_ms([&] { loop_kernel<SRC><<<blocks, THREADS>>>(pts, me, sink); });
    double checks = (double)blocks * THREADS * ROWS * COLUMNS;
    double roots = (double)d.sms * 16 * d.ghz * 1e9 * ROWS / (ROWS + 1.0); /* checks/s */
    printf("%-10s %d blocks of %d an SM  %7.3f ms  %6.3f T checks/s  %5.1f%% of the root cap "
           "(%.2f T: 16 roots a clock an SM, 9 per 8 checks)\n",
           what, per_sm, THREADS, ms, checks / ms * 1e-9, 100.0 * checks / (ms * 1e-3) / roots,
           roots * 1e-12);
}

int main(void)
{
    LimitDevice d = limit_device();
    const int entries = TABLE + 64;
    float2 *h_pts = (float2 *)malloc(entries * sizeof *h_pts);
    float *h_me = (float *)malloc(entries * sizeof *h_me);
    if (!h_pts || !h_me) return 1;
    for (int i = 0; i < entries; i++) {
        h_pts[i] = make_float2((float)((i * 37) % 1000), (float)((i * 91) % 1000));
        h_me[i] = LIMIT_MAGIC + (float)(i % 50);
    }
    float2 *pts = nullptr;
    float *me = nullptr, *sink = nullptr;
    LIMIT_CHECK(cudaMalloc(&pts, entries * sizeof *pts));
    LIMIT_CHECK(cudaMalloc(&me, entries * sizeof *me));
    LIMIT_CHECK(cudaMalloc(&sink, sizeof *sink));
    LIMIT_CHECK(cudaMemcpy(pts, h_pts, entries * sizeof *pts, cudaMemcpyHostToDevice));
    LIMIT_CHECK(cudaMemcpy(me, h_me, entries * sizeof *me, cudaMemcpyHostToDevice));
    for (int round = 0; round < 2; round++) {
        measure<FROM_REGISTERS>("registers", d, pts, me, sink);
        measure<BROADCAST>("broadcast", d, pts, me, sink);
        measure<SHUFFLE>("shuffle", d, pts, me, sink);
    }
    LIMIT_CHECK(cudaFree(pts));
    LIMIT_CHECK(cudaFree(me));
    LIMIT_CHECK(cudaFree(sink));
    free(h_pts);
    free(h_me);
    return 0;
}
