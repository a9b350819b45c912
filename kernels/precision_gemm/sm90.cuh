// The Hopper (sm_90a) building blocks of the tensor-core stages, one thin wrapper each: mbarriers
// (a barrier in shared memory that counts arrivals and TMA bytes; a wait names the phase by its
// parity), TMA 2-D loads into 128-byte-swizzled shared memory, the wgmma shared-memory descriptor and
// its fences, and setmaxnreg. kernels/tensorcore/hopper.cuh explains each at length.
#pragma once

struct __align__(64) cc_tensormap { unsigned long long v[16]; };

__device__ __forceinline__ unsigned smem_u32(const void *p) { return (unsigned)__cvta_generic_to_shared(p); }
__device__ __forceinline__ void mbar_init(unsigned bar, unsigned count)
{
	asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(bar), "r"(count));
}
__device__ __forceinline__ void mbar_fence_init() { asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory"); }
__device__ __forceinline__ void mbar_arrive(unsigned bar)
{
	asm volatile("{\n.reg .b64 st;\nmbarrier.arrive.shared::cta.b64 st, [%0];\n}\n" ::"r"(bar) : "memory");
}
__device__ __forceinline__ void mbar_expect_tx(unsigned bar, unsigned bytes)
{
	asm volatile("{\n.reg .b64 st;\nmbarrier.arrive.expect_tx.shared::cta.b64 st, [%0], %1;\n}\n" ::"r"(bar), "r"(bytes) : "memory");
}
__device__ __forceinline__ void mbar_wait(unsigned bar, unsigned parity)
{
	unsigned done;
	do {
		asm volatile("{\n.reg .pred p;\nmbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\nselp.u32 %0, 1, 0, p;\n}\n"
		             : "=r"(done) : "r"(bar), "r"(parity) : "memory");
	} while (!done);
}
__device__ __forceinline__ void tma_load_2d(unsigned dst, const cc_tensormap *map, int x, int y, unsigned bar)
{
	asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];\n"
	             ::"r"(dst), "l"(map), "r"(x), "r"(y), "r"(bar) : "memory");
}
// A k-major operand in 128-byte swizzled rows (8-row groups 1024 bytes apart): start address and
// stride byte offset in 16-byte units; the leading offset is unused by this layout (1 by convention).
__device__ __forceinline__ unsigned long long kmajor_desc(unsigned addr)
{
	return (unsigned long long)((addr & 0x3FFFF) >> 4) | 1ull << 16 | (unsigned long long)(1024 >> 4) << 32 | 1ull << 62;
}
__device__ __forceinline__ void wgmma_fence() { asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory"); }
__device__ __forceinline__ void wgmma_commit() { asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory"); }
template <int R> __device__ __forceinline__ void wgmma_fence_regs(float (&d)[R])
{
#pragma unroll
	for (int i = 0; i < R; i++) asm volatile("" : "+f"(d[i])::"memory");
}
template <int N> __device__ __forceinline__ void wgmma_wait() { asm volatile("wgmma.wait_group.sync.aligned %0;\n" ::"n"(N) : "memory"); }
template <int R> __device__ __forceinline__ void regs_release() { asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;\n" ::"n"(R)); }
template <int R> __device__ __forceinline__ void regs_claim() { asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;\n" ::"n"(R)); }
