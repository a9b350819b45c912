// Exercise: 16-byte loads with several in flight per thread.
//
// x, y and z are read and written as float4 (cudaMalloc memory is 256-byte aligned, so the casts
// are safe). A block covers BLOCK * VEC consecutive float4s and the grid is
// ceil_div(n / 4, BLOCK * VEC) blocks (at least one). Each thread issues all of its VEC loads of x
// and of y before it computes anything, so 2 * VEC independent 16-byte requests are in flight.
// The loops are written; what decides whether the accesses coalesce is which float4s a thread takes.
//
// What to do:
//   1. base: the thread's first float4. Blocks are BLOCK * VEC float4s apart.
//   2. step: the distance between a thread's float4s, chosen so that at every k the 32 lanes of a
//      warp touch 32 neighbouring float4s (one 512-byte stretch per instruction).
//   3. The arithmetic: z = a * x + y on all four components of a float4.
//   The n % 4 floats after the last whole float4 are handled at the bottom.
//
// Tunables (-D): BLOCK (threads per block), VEC (float4s per thread: 1, 2, 4 or 8).
// Passing: correct at every size, and at least 0.9x the speed of the stage's own kernel.
extern "C" __global__ void saxpy_vectorized(const float *x, const float *y, float *z, float a, long long n)
{
	const long long n4 = n / 4;   // whole float4s
	const float4 *x4 = reinterpret_cast<const float4 *>(x);
	const float4 *y4 = reinterpret_cast<const float4 *>(y);
	float4 *z4 = reinterpret_cast<float4 *>(z);

	const long long base = 0;   // TODO(1): the first float4 of this thread
	const long long step = 1;   // TODO(2): the distance to its next float4

	float4 p[VEC], q[VEC];
#pragma unroll
	for (int k = 0; k < VEC; k++) {          // every load first ...
		long long i = base + k * step;
		if (i < n4) { p[k] = __ldg(&x4[i]); q[k] = __ldg(&y4[i]); }
	}
#pragma unroll
	for (int k = 0; k < VEC; k++) {          // ... then the arithmetic and the stores
		long long i = base + k * step;
		// TODO(3): a * p[k] + q[k] on every component; the placeholder does only .x.
		if (i < n4) z4[i] = make_float4(a * p[k].x + q[k].x, q[k].y, q[k].z, q[k].w);
	}

	// The tail: the last n % 4 floats, one per thread, taken by the first threads of the grid.
	long long tail = n4 * 4 + blockIdx.x * (long long)BLOCK + threadIdx.x;
	if (tail < n) z[tail] = a * x[tail] + y[tail];
}
