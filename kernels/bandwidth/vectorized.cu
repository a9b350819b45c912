// SAXPY with 16-byte accesses: each thread moves VEC float4s of x and of y, issuing all its loads
// before the first multiply, so several independent 16-byte requests are in flight per thread.
// A block covers BLOCK * VEC consecutive float4s; thread t takes t, t + BLOCK, t + 2*BLOCK, ...
// which keeps every load instruction coalesced across the warp. The last n % 4 elements are done
// one at a time by the first threads of the grid.
extern "C" __global__ void saxpy_vectorized(const float *x, const float *y, float *z, float a, long long n)
{
	const long long n4 = n / 4;
	const float4 *x4 = reinterpret_cast<const float4 *>(x);
	const float4 *y4 = reinterpret_cast<const float4 *>(y);
	float4 *z4 = reinterpret_cast<float4 *>(z);
	long long base = blockIdx.x * (long long)BLOCK * VEC + threadIdx.x;
	float4 p[VEC], q[VEC];
#pragma unroll
	for (int k = 0; k < VEC; k++) {
		long long i = base + (long long)k * BLOCK;
		if (i < n4) { p[k] = __ldg(&x4[i]); q[k] = __ldg(&y4[i]); }
	}
#pragma unroll
	for (int k = 0; k < VEC; k++) {
		long long i = base + (long long)k * BLOCK;
		if (i < n4) z4[i] = make_float4(a * p[k].x + q[k].x, a * p[k].y + q[k].y, a * p[k].z + q[k].z, a * p[k].w + q[k].w);
	}
	long long tail = n4 * 4 + blockIdx.x * (long long)BLOCK + threadIdx.x;
	if (tail < n) z[tail] = a * x[tail] + y[tail];
}
