/*
 * float_order.cuh - a float's bits as an unsigned whose integer order is the
 * float's order, and back.
 *
 * The kernels reduce deltas with integer instructions: a warp-wide minimum
 * (REDUX) takes unsigned ints only, and a 64-bit (delta, index) key orders
 * by delta first only if the delta's bits do.  Negative floats are flipped
 * whole (a larger magnitude is a smaller value), positive ones get their
 * sign bit set, so every negative sorts below every positive.  NaN never
 * reaches these (deltas of finite points).
 */
#ifndef WT_BACKEND_CUDA_FLOAT_ORDER_CUH
#define WT_BACKEND_CUDA_FLOAT_ORDER_CUH

__device__ __forceinline__ unsigned float_order(float d)
{
    unsigned u = __float_as_uint(d);
    return u ^ ((u >> 31) ? 0xFFFFFFFFu : 0x80000000u);
}

__device__ __forceinline__ float float_unorder(unsigned u)
{
    return __uint_as_float(u ^ ((u >> 31) ? 0x80000000u : 0xFFFFFFFFu));
}

#endif
