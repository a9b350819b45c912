// The reduction lesson's top stage beside pranjalssh/fast.cu's sum, in that project's own way of timing
// (100 launches back to back between two CUDA events, N = 2^30 ints), issue #18 part 3. fast.cu is not
// ours and not in this repository: scripts/fastcu-sum.sh gets its sum.cu and compiles this file with
// -DFASTCU_SUM="path". Its main() is renamed away; its kernels and launch shapes are used as they are.
// The rounds alternate the kernels (fast.cu's kernel 4, CUB, ours at two block sizes and on smaller grids) so that clocks and
// power affect all alike; printed: the median time per launch of each, GB/s, and the median per-round
// ratio against fast.cu's kernel 4. Our sums are checked against CUB's at every round.
#define main fastcu_sum_main
#include FASTCU_SUM
#undef main

#include <algorithm>
#include <cstdio>
#include <vector>

// The stage's kernel twice, at BLOCK 256 (the lesson's default) and 1024 (fast.cu's block size); the
// namespaces keep its helpers apart, the renames its extern "C" entry.
namespace ours256 {
#define BLOCK 256
#define UNROLL 16
#define reduce_lastblock reduce_lastblock_256
#include "../kernels/reduction/lastblock.cu"
#undef reduce_lastblock
#undef LOAD4
#undef BLOCK
#undef UNROLL
}
namespace ours1024 {
#define BLOCK 1024
#define UNROLL 16
#define reduce_lastblock reduce_lastblock_1024
#include "../kernels/reduction/lastblock.cu"
#undef reduce_lastblock
#undef LOAD4
#undef BLOCK
#undef UNROLL
}
// The same at 1024 with cache hints on the loads: ld.global.cg (L2 only, as fast.cu's first load) and
// ld.global.cs (streaming, evict first).
namespace ours_cg {
#define BLOCK 1024
#define UNROLL 16
#define LOAD4(p) __ldcg(p)
#define reduce_lastblock reduce_lastblock_cg
#include "../kernels/reduction/lastblock.cu"
#undef reduce_lastblock
#undef LOAD4
#undef BLOCK
#undef UNROLL
}
namespace ours_cs {
#define BLOCK 1024
#define UNROLL 16
#define LOAD4(p) __ldcs(p)
#define reduce_lastblock reduce_lastblock_cs
#include "../kernels/reduction/lastblock.cu"
#undef reduce_lastblock
#undef LOAD4
#undef BLOCK
#undef UNROLL
}

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
	const int N = 1 << 30, runs = 100, rounds = argc > 1 ? atoi(argv[1]) : 7;
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

	const int K = 8;
	const char *names[K] = { "fast.cu kernel4 (1024 x 16)", "cub::DeviceReduce::Sum", "ours lastblock 256 x 16", "ours lastblock 1024 x 16",
	                         "ours 1024 x 16, 2 chunks/block", "ours 1024 x 16, 4 chunks/block",
	                         "ours 1024 x 16, ld.global.cg", "ours 1024 x 16, ld.global.cs" };
	const unsigned chunks = ceilDiv(N, 4 * 1024 * 16);
	auto launch = [&](int kernel) {
		switch (kernel) {
		case 0: sumKernel4<1024, 16><<<ceilDiv(N, 1024 * 4 * 16), 1024>>>(reinterpret_cast<int4 *>(x), out, N / 4); break;
		case 1: cub::DeviceReduce::Sum(tmp, tmp_bytes, x, cub_out, N); break;
		case 2: ours256::reduce_lastblock_256<<<ceilDiv(N, 4 * 256 * 16), 256>>>(x, acc, out, N); break;
		case 3: ours1024::reduce_lastblock_1024<<<chunks, 1024>>>(x, acc, out, N); break;
		// The same kernel on a grid of half or a quarter as many blocks: each walks 2 or 4 chunks (its
		// loop strides by the grid), so a quarter as many blocks wait for their final atomic.
		case 4: ours1024::reduce_lastblock_1024<<<(chunks + 1) / 2, 1024>>>(x, acc, out, N); break;
		case 5: ours1024::reduce_lastblock_1024<<<(chunks + 3) / 4, 1024>>>(x, acc, out, N); break;
		case 6: ours_cg::reduce_lastblock_cg<<<chunks, 1024>>>(x, acc, out, N); break;
		case 7: ours_cs::reduce_lastblock_cs<<<chunks, 1024>>>(x, acc, out, N); break;
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
	printf("N = 2^30 ints (4 GiB), %d launches per sample, %d rounds, kernels alternating\n", runs, rounds);
	printf("%-28s %10s %9s %14s\n", "kernel", "ms/launch", "GB/s", "x fast.cu k4");
	for (int k = 0; k < K; k++) {
		double m = median(ms[k]);
		printf("%-28s %10.4f %9.1f %14.4f\n", names[k], m, (double)N * 4 / m / 1e6, median(ratio[k]));
	}
	printf("sums checked against CUB: %s\n", bad ? "MISMATCH" : "all equal");
	return bad ? 1 : 0;
}
