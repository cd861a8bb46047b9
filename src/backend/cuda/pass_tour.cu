/*
 * pass_tour.cu - the tour kernels: points and edge terms in tour order from
 * the city ids, and the exact length of every edge.
 */
#include "backend/cuda/pass_tour.cuh"
#include "backend/cuda/twoopt_common.cuh"

namespace {

template <class M>
__global__ void refresh_kernel(DevInst I, typename M::Pt *pts, float *me, const int32_t *id)
{
    int n = I.n;
    for (long long k = blockIdx.x * (long long)blockDim.x + threadIdx.x; k <= n;
         k += (long long)gridDim.x * blockDim.x) {
        typename M::Pt a = M::point(I, id[k < n ? k : 0]);
        pts[k] = a;
        if (k < n) me[k] = M::x(a, M::point(I, id[k + 1 < n ? k + 1 : 0]));
    }
}

__global__ void exact_edge_kernel(DevInst I, const int32_t *id, long long *exact)
{
    int n = I.n;
    for (long long k = blockIdx.x * (long long)blockDim.x + threadIdx.x; k < n;
         k += (long long)gridDim.x * blockDim.x)
        exact[k] = dev_exact_dist(I, id[k], id[k + 1 < n ? k + 1 : 0]);
}

} // namespace

size_t pass_point_bytes(wt_edge_weight_type type)
{
    size_t bytes = 0;
    with_metric(type, nullptr, [&](auto m) {
        bytes = sizeof(typename decltype(m)::Pt);
        return WT_OK;
    });
    return bytes;
}

wt_status pass_refresh_tour(const DevInst &I, DevTour t, cudaStream_t stream, wt_error *err)
{
    return with_metric(I.type, err, [&](auto m) {
        using M = decltype(m);
        refresh_kernel<M><<<grid_for(I.n + 1), 256, 0, stream>>>(I, (typename M::Pt *)t.pts,
                                                                 t.me, t.id);
        return launched("tour refresh", err);
    });
}

wt_status pass_exact_edges(const DevInst &I, const int32_t *id, long long *exact,
                           cudaStream_t stream, wt_error *err)
{
    exact_edge_kernel<<<grid_for(I.n), 256, 0, stream>>>(I, id, exact);
    return launched("exact edge lengths", err);
}
