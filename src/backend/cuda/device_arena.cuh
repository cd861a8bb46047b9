/*
 * device_arena.cuh - many device arrays carved from one cudaMalloc.
 *
 * A slot that allocates twenty arrays pays twenty cudaMalloc calls and
 * twenty cudaFree calls, and every cudaFree waits for the whole device:
 * all of its streams, another thread's work on the same GPU included.
 * An ArenaPlan lists the arrays and their lengths, then allocate() takes
 * one block for all of them, each array aligned as cudaMalloc aligns its
 * own (256 bytes); the owner frees the one block.  Not thread-safe: a
 * plan belongs to the code that fills it.
 */
#ifndef WT_BACKEND_CUDA_DEVICE_ARENA_CUH
#define WT_BACKEND_CUDA_DEVICE_ARENA_CUH

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

namespace wt_cuda {

class ArenaPlan {
  public:
    /* *p will point at count items of T (at least one). */
    template <typename T> void add(T **p, int64_t count)
    {
        add_bytes((void **)p, (size_t)(count > 0 ? count : 1) * sizeof(T));
    }

    /* *p will point at bytes bytes (at least one). */
    void add_bytes(void **p, size_t bytes)
    {
        if (count_ == MAX_ARRAYS) {
            overflow_ = true;
            return;
        }
        ptr_[count_] = p;
        offset_[count_++] = total_;
        total_ += (bytes > 0 ? bytes : 1) + ALIGN - 1;
        total_ -= total_ % ALIGN;
    }

    /* The block's bytes so far. */
    size_t bytes() const { return total_; }

    /* One cudaMalloc for every array added; each pointer set.  *block:
     * the allocation, for the owner's one cudaFree (nullptr on failure,
     * the pointers then untouched). */
    cudaError_t allocate(void **block) const
    {
        *block = nullptr;
        if (overflow_) return cudaErrorInvalidValue;
        char *base = nullptr;
        cudaError_t e = cudaMalloc((void **)&base, total_ > 0 ? total_ : 1);
        if (e != cudaSuccess) return e;
        for (int i = 0; i < count_; i++) *ptr_[i] = base + offset_[i];
        *block = base;
        return cudaSuccess;
    }

  private:
    static constexpr int MAX_ARRAYS = 48;
    static constexpr size_t ALIGN = 256;
    void **ptr_[MAX_ARRAYS] = {};
    size_t offset_[MAX_ARRAYS] = {};
    int count_ = 0;
    size_t total_ = 0;
    bool overflow_ = false;
};

} // namespace wt_cuda

#endif
