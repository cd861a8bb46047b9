/*
 * pass_band.cu - the band kernel: a thread per row, its best float move
 * within the band by the pass's own operations.
 */
#include "backend/cuda/pass_band.cuh"
#include "backend/cuda/twoopt_common.cuh"

namespace {

/* Row i's best float move with j in [i+2, i+band], by pass_row_term, the
 * pass's own float operations, so that where float is exact it is the
 * CPU's band best (wt_2opt_candidates); its exact delta as collect_kernel
 * computes it.  A thread per row, its columns read straight from global
 * memory (neighbouring threads read neighbouring points): n * band
 * evaluations, a small fraction of a pass's n^2 / 2 when band << n. */
template <class M>
__global__ void band_kernel(DevInst I, const typename M::Pt *pts, const float *me,
                            const int32_t *id, int band, wt_kswap_move *cand)
{
    int n = I.n, rows = n - 2;
    for (long long k = blockIdx.x * (long long)blockDim.x + threadIdx.x; k < rows;
         k += (long long)gridDim.x * blockDim.x) {
        int i = (int)k;
        typename M::Pt pi = pts[i], pn = pts[i + 1];
        int last = (long long)i + band < n - 1 ? i + band : n - 1;
        float best = INFINITY;
        int bj = -1;
        for (int j = i + 2; j <= last; j++) {
            float mcj = __fsub_rn(2.0f * WT_MAGIC, me[j]); /* as load_columns */
            float d = pass_row_term<M>(pi, pn, pts[j], pts[j + 1], mcj);
            if (d < best) { /* ascending j: "<" keeps the lowest j */
                best = d;
                bj = j;
            }
        }
        wt_kswap_move m = {0, i, -1};
        if (bj >= 0 && __fsub_rn(best, me[i]) < 0.0f && bj != cand[i].j) {
            m.delta = dev_exact_2opt_delta(I, id[i], id[i + 1], id[bj],
                                           id[bj + 1 < n ? bj + 1 : 0]);
            m.j = bj;
        }
        cand[rows + i] = m;
    }
}

} // namespace

wt_status pass_band(const DevInst &I, DevTour t, int band, wt_kswap_move *cand,
                    cudaStream_t stream, wt_error *err)
{
    if (I.n < 3 || band < 1) return WT_OK; /* no rows */
    return with_metric(I.type, err, [&](auto m) {
        using M = decltype(m);
        band_kernel<M><<<grid_for(I.n - 2), 256, 0, stream>>>(
            I, (const typename M::Pt *)t.pts, t.me, t.id, band, cand);
        return launched("2-opt band candidates", err);
    });
}
