// gemm_scale: the scaling passes of the cuBLASLt GEMM baselines (gemm_scale.h), compiled by nvcc at
// build time like cub_reduce.cu. A thread takes 4 neighbours of a row where n allows (1 otherwise), in a
// grid-stride loop: the pass is one read and one write of C, at DRAM speed.
#include "gemm_scale.h"

// The factor of element (i, j): sa[i] * sb[j], in that order (the precision_gemm kernels' order).
template <typename In>
__global__ void scale_rows(const In *acc, const float *sa, const float *sb, float *C, int m, int n)
{
	const int vec = n % 4 == 0 ? 4 : 1;
	const long long per_row = n / vec, total = (long long)m * per_row;
	for (long long t = blockIdx.x * (long long)blockDim.x + threadIdx.x; t < total; t += (long long)gridDim.x * blockDim.x) {
		const int i = (int)(t / per_row), j = (int)(t % per_row) * vec;
		const float r = sa[i];
		const long long at = (long long)i * n + j;
		for (int q = 0; q < vec; q++) C[at + q] = (float)acc[at + q] * (r * sb[j + q]);
	}
}

static int launch_blocks(int m, int n)
{
	long long work = (long long)m * (n % 4 == 0 ? n / 4 : n), blocks = (work + 255) / 256;
	return (int)(blocks < 1 ? 1 : blocks > 65535 ? 65535 : blocks);
}

extern "C" int cc_gemm_dequant_i32(const int *acc, const float *sa, const float *sb, float *C, int m, int n, cudaStream_t s)
{
	if (m < 1 || n < 1) return (int)cudaErrorInvalidValue;
	scale_rows<int><<<launch_blocks(m, n), 256, 0, s>>>(acc, sa, sb, C, m, n);
	return (int)cudaGetLastError();
}

extern "C" int cc_gemm_scale_f32(float *C, const float *sa, const float *sb, int m, int n, cudaStream_t s)
{
	if (m < 1 || n < 1) return (int)cudaErrorInvalidValue;
	scale_rows<float><<<launch_blocks(m, n), 256, 0, s>>>(C, sa, sb, C, m, n);
	return (int)cudaGetLastError();
}
