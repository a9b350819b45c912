// The reduction lesson's top stage beside pranjalssh/fast.cu's sum, in that project's own way of timing
// (100 launches back to back between two CUDA events, N = 2^30 ints), issue #18 part 3. fast.cu is not
// ours and not in this repository: scripts/fastcu-sum.sh gets its sum.cu and compiles this file with
// -DFASTCU_SUM="path". Its main() is renamed away; its kernels and launch shapes are used as they are.
// The rounds alternate the kernels (fast.cu's kernel 4, CUB, ours in seven shapes and with cache and
// L2 prefetch-size hints) so that clocks and power affect all alike; printed: the median time per launch of each, GB/s, and the median per-round
// ratio against fast.cu's kernel 4. Our sums are checked against CUB's at every round.
#define main fastcu_sum_main
#include FASTCU_SUM
#undef main

#include <algorithm>
#include <cstdio>
#include <vector>

// The stage's kernel at its defaults (512 x 16, one block per SM with the registers to keep all 16
// loads in flight), at 1024 x 8 (the same 128 KiB chunks), and at 1024 x 16 twice: two blocks per SM
// at 32 registers (MINB 0, the earlier default) and one (MINB 1, fast.cu's shape). The namespaces keep
// its helpers apart, the renames its extern "C" entry.
namespace ours {
#define BLOCK 512
#define UNROLL 16
#define MINB 1
#define reduce_lastblock reduce_lastblock_ours
#include "../kernels/reduction/lastblock.cu"
#undef reduce_lastblock
#undef LOAD4
#undef MINB
#undef BLOCK
#undef UNROLL
}
namespace ours1024x8 {
#define BLOCK 1024
#define UNROLL 8
#define MINB 1
#define reduce_lastblock reduce_lastblock_ours1024x8
#include "../kernels/reduction/lastblock.cu"
#undef reduce_lastblock
#undef LOAD4
#undef MINB
#undef BLOCK
#undef UNROLL
}
namespace ours1024m0 {
#define BLOCK 1024
#define UNROLL 16
#define MINB 0
#define reduce_lastblock reduce_lastblock_ours1024m0
#include "../kernels/reduction/lastblock.cu"
#undef reduce_lastblock
#undef LOAD4
#undef MINB
#undef BLOCK
#undef UNROLL
}
namespace ours1024m1 {
#define BLOCK 1024
#define UNROLL 16
#define MINB 1
#define reduce_lastblock reduce_lastblock_ours1024m1
#include "../kernels/reduction/lastblock.cu"
#undef reduce_lastblock
#undef LOAD4
#undef MINB
#undef BLOCK
#undef UNROLL
}
// More blocks per SM with all UNROLL loads still in registers (2048 threads at 64 registers, or 1024 at 128).
namespace ours512m2 {
#define BLOCK 512
#define UNROLL 16
#define MINB 2
#define reduce_lastblock reduce_lastblock_ours512m2
#include "../kernels/reduction/lastblock.cu"
#undef reduce_lastblock
#undef LOAD4
#undef MINB
#undef BLOCK
#undef UNROLL
}
namespace ours256m4 {
#define BLOCK 256
#define UNROLL 16
#define MINB 4
#define reduce_lastblock reduce_lastblock_ours256m4
#include "../kernels/reduction/lastblock.cu"
#undef reduce_lastblock
#undef LOAD4
#undef MINB
#undef BLOCK
#undef UNROLL
}
namespace ours256x32m2 {
#define BLOCK 256
#define UNROLL 32
#define MINB 2
#define reduce_lastblock reduce_lastblock_ours256x32m2
#include "../kernels/reduction/lastblock.cu"
#undef reduce_lastblock
#undef LOAD4
#undef MINB
#undef BLOCK
#undef UNROLL
}
// The defaults with cache hints on the loads: ld.global.cg (L2 only, as fast.cu's first load) and
// ld.global.cs (streaming, evict first).
namespace ours_cg {
#define BLOCK 512
#define UNROLL 16
#define MINB 1
#define LOAD4(p) __ldcg(p)
#define reduce_lastblock reduce_lastblock_ours_cg
#include "../kernels/reduction/lastblock.cu"
#undef reduce_lastblock
#undef LOAD4
#undef MINB
#undef BLOCK
#undef UNROLL
}
namespace ours_cs {
#define BLOCK 512
#define UNROLL 16
#define MINB 1
#define LOAD4(p) __ldcs(p)
#define reduce_lastblock reduce_lastblock_ours_cs
#include "../kernels/reduction/lastblock.cu"
#undef reduce_lastblock
#undef LOAD4
#undef MINB
#undef BLOCK
#undef UNROLL
}

// The L2's prefetch size as a hint on the loads (.L2::256B: each miss brings in 256 bytes, the two
// 128-byte lines that the next warps of the chunk will read), alone and with the cache hints above.
#define LD_HINT(name, insn) \
	__device__ __forceinline__ int4 name(const int4 *p) \
	{ \
		int4 q; \
		asm volatile(insn " {%0, %1, %2, %3}, [%4];" : "=r"(q.x), "=r"(q.y), "=r"(q.z), "=r"(q.w) : "l"(p)); \
		return q; \
	}
LD_HINT(ld_l2, "ld.global.L2::256B.v4.s32")
LD_HINT(ld_cs_l2, "ld.global.cs.L2::256B.v4.s32")
LD_HINT(ld_nc_l2, "ld.global.nc.L1::no_allocate.L2::256B.v4.s32")
#define BLOCK 512
#define UNROLL 16
#define MINB 1
#define LOAD4(p) ld_l2(p)
#define reduce_lastblock reduce_lastblock_ours_l2
namespace ours_l2 {
#include "../kernels/reduction/lastblock.cu"
}
#undef reduce_lastblock
#undef LOAD4
#define LOAD4(p) ld_cs_l2(p)
#define reduce_lastblock reduce_lastblock_ours_csl2
namespace ours_csl2 {
#include "../kernels/reduction/lastblock.cu"
}
#undef reduce_lastblock
#undef LOAD4
#define LOAD4(p) ld_nc_l2(p)
#define reduce_lastblock reduce_lastblock_ours_ncl2
namespace ours_ncl2 {
#include "../kernels/reduction/lastblock.cu"
}
#undef reduce_lastblock
#undef LOAD4
#undef MINB
#undef BLOCK
#undef UNROLL

static __global__ void fill(int *x, long long n, unsigned seed)
{
	for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x) {
		unsigned h = (unsigned)i * 2654435761u ^ seed;
		h ^= h >> 15; h *= 2246822519u; h ^= h >> 13;
		x[i] = (int)(h % 100);
	}
}

static double median(std::vector<double> v)
{
	std::sort(v.begin(), v.end());
	return v.size() % 2 ? v[v.size() / 2] : 0.5 * (v[v.size() / 2 - 1] + v[v.size() / 2]);
}

int main(int argc, char **argv)
{
	const int logn = argc > 2 ? atoi(argv[2]) : 30;   // fast.cu's own size is 2^30
	const int N = 1 << logn, runs = logn >= 30 ? 100 : 400, rounds = argc > 1 ? atoi(argv[1]) : 7;
	int *x, *out, *cub_out;
	unsigned long long *acc;
	cudaMalloc(&x, (size_t)N * sizeof(int));
	cudaMalloc(&out, sizeof(int));
	cudaMalloc(&cub_out, sizeof(int));
	cudaMalloc(&acc, sizeof *acc);
	cudaMemset(acc, 0, sizeof *acc);
	fill<<<1024, 1024>>>(x, N, 12345u);
	void *tmp = nullptr;
	size_t tmp_bytes = 0;
	cub::DeviceReduce::Sum(tmp, tmp_bytes, x, cub_out, N);
	cudaMalloc(&tmp, tmp_bytes);

	const int K = 14;
	const char *names[K] = { "fast.cu kernel4 (1024 x 16)", "cub::DeviceReduce::Sum", "ours 512 x 16 (stage default)", "ours 1024 x 8, MINB 1",
	                         "ours 1024 x 16, MINB 0", "ours 1024 x 16, MINB 1", "ours 512 x 16, ld.global.cg", "ours 512 x 16, ld.global.cs",
	                         "ours 512 x 16, MINB 2", "ours 256 x 16, MINB 4", "ours 256 x 32, MINB 2",
	                         "ours 512 x 16, L2::256B", "ours 512 x 16, .cs L2::256B", "ours 512 x 16, .nc L2::256B" };
	auto launch = [&](int kernel) {
		switch (kernel) {
		case 0: sumKernel4<1024, 16><<<ceilDiv(N, 1024 * 4 * 16), 1024>>>(reinterpret_cast<int4 *>(x), out, N / 4); break;
		case 1: cub::DeviceReduce::Sum(tmp, tmp_bytes, x, cub_out, N); break;
		case 2: ours::reduce_lastblock_ours<<<ceilDiv(N, 4 * 512 * 16), 512>>>(x, acc, out, N); break;
		case 3: ours1024x8::reduce_lastblock_ours1024x8<<<ceilDiv(N, 4 * 1024 * 8), 1024>>>(x, acc, out, N); break;
		case 4: ours1024m0::reduce_lastblock_ours1024m0<<<ceilDiv(N, 4 * 1024 * 16), 1024>>>(x, acc, out, N); break;
		case 5: ours1024m1::reduce_lastblock_ours1024m1<<<ceilDiv(N, 4 * 1024 * 16), 1024>>>(x, acc, out, N); break;
		case 6: ours_cg::reduce_lastblock_ours_cg<<<ceilDiv(N, 4 * 512 * 16), 512>>>(x, acc, out, N); break;
		case 7: ours_cs::reduce_lastblock_ours_cs<<<ceilDiv(N, 4 * 512 * 16), 512>>>(x, acc, out, N); break;
		case 8: ours512m2::reduce_lastblock_ours512m2<<<ceilDiv(N, 4 * 512 * 16), 512>>>(x, acc, out, N); break;
		case 9: ours256m4::reduce_lastblock_ours256m4<<<ceilDiv(N, 4 * 256 * 16), 256>>>(x, acc, out, N); break;
		case 10: ours256x32m2::reduce_lastblock_ours256x32m2<<<ceilDiv(N, 4 * 256 * 32), 256>>>(x, acc, out, N); break;
		case 11: ours_l2::reduce_lastblock_ours_l2<<<ceilDiv(N, 4 * 512 * 16), 512>>>(x, acc, out, N); break;
		case 12: ours_csl2::reduce_lastblock_ours_csl2<<<ceilDiv(N, 4 * 512 * 16), 512>>>(x, acc, out, N); break;
		case 13: ours_ncl2::reduce_lastblock_ours_ncl2<<<ceilDiv(N, 4 * 512 * 16), 512>>>(x, acc, out, N); break;
		}
	};
	cudaEvent_t a, b;
	cudaEventCreate(&a);
	cudaEventCreate(&b);
	std::vector<double> ms[K], ratio[K];
	int bad = 0;
	for (int k = 0; k < K; k++) launch(k);   // warm-up
	cudaDeviceSynchronize();
	for (int r = 0; r < rounds; r++) {
		double t[K];
		for (int k = 0; k < K; k++) {
			cudaEventRecord(a);
			for (int i = 0; i < runs; i++) launch(k);
			cudaEventRecord(b);
			cudaEventSynchronize(b);
			float e;
			cudaEventElapsedTime(&e, a, b);
			t[k] = e / runs;
			ms[k].push_back(t[k]);
			if (k >= 2) {
				int want, got;
				cudaMemcpy(&want, cub_out, sizeof want, cudaMemcpyDeviceToHost);
				cudaMemcpy(&got, out, sizeof got, cudaMemcpyDeviceToHost);
				if (want != got) { bad++; printf("round %d %s: sum %d, CUB %d\n", r, names[k], got, want); }
			}
		}
		for (int k = 0; k < K; k++) ratio[k].push_back(t[0] / t[k]);
	}
	cudaError_t e = cudaDeviceSynchronize();
	if (e) { printf("CUDA error: %s\n", cudaGetErrorString(e)); return 1; }
	printf("N = 2^%d ints (%.2f GiB), %d launches per sample, %d rounds, kernels alternating\n", logn, N * 4.0 / (1 << 30), runs, rounds);
	printf("%-28s %10s %9s %14s\n", "kernel", "ms/launch", "GB/s", "x fast.cu k4");
	for (int k = 0; k < K; k++) {
		double m = median(ms[k]);
		printf("%-28s %10.4f %9.1f %14.4f\n", names[k], m, (double)N * 4 / m / 1e6, median(ratio[k]));
	}
	printf("sums checked against CUB: %s\n", bad ? "MISMATCH" : "all equal");
	return bad ? 1 : 0;
}
