/* vector: one pass. Each thread reads 16 bytes (an int4) per load and issues UNROLL such loads
 * before it adds any of them, so many bytes are in flight per thread; the block's sum (warp
 * shuffles, as in shuffle.cu) goes straight into *sum with one atomicAdd per block. The stage
 * clears *sum with a memset step before this launch.
 * BLOCK: a multiple of 32 up to 1024; UNROLL: loads in flight per thread. */
#ifndef BLOCK
#define BLOCK 256
#endif
#ifndef UNROLL
#define UNROLL 4
#endif

extern "C" __global__ void reduce_vector(const int *__restrict__ x, int *__restrict__ sum, long long n)
{
	__shared__ int warp_sums[BLOCK / 32];
	const unsigned int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;

	/* An int4 load needs a 16-byte-aligned address. Split the array into a head (0-3 ints until the
	 * first aligned address), a body of whole int4s, and a tail (0-3 ints); the first threads of the
	 * grid take the head and the tail one int each. */
	long long head = (long long)(((16 - (reinterpret_cast<unsigned long long>(x) & 15)) & 15) >> 2);
	if (head > n)
		head = n;
	const long long n4 = (n - head) >> 2;
	const long long tail = head + 4 * n4;
	const int4 *x4 = reinterpret_cast<const int4 *>(x + head);

	const long long g = (long long)blockIdx.x * BLOCK + tid;
	int v = 0;
	if (g < head)
		v += x[g];
	if (g < n - tail)
		v += x[tail + g];

	/* Body: block b takes UNROLL * BLOCK int4s at a time, grid-stride. */
	const long long step = (long long)gridDim.x * (UNROLL * BLOCK);
	long long i = (long long)blockIdx.x * (UNROLL * BLOCK) + tid;
	for (; i + (UNROLL - 1) * BLOCK < n4; i += step) {
		int4 q[UNROLL];
#pragma unroll
		for (int u = 0; u < UNROLL; ++u)
			q[u] = x4[i + u * BLOCK];
#pragma unroll
		for (int u = 0; u < UNROLL; ++u)
			v += (q[u].x + q[u].y) + (q[u].z + q[u].w);
	}
#pragma unroll
	for (int u = 0; u < UNROLL; ++u)   /* the one chunk in the grid that is only partly full */
		if (i + u * BLOCK < n4) {
			const int4 q = x4[i + u * BLOCK];
			v += (q.x + q.y) + (q.z + q.w);
		}

#pragma unroll
	for (int offset = 16; offset > 0; offset >>= 1)
		v += __shfl_down_sync(0xffffffffu, v, offset);
	if (lane == 0)
		warp_sums[warp] = v;
	__syncthreads();
	if (warp == 0) {
		v = lane < BLOCK / 32 ? warp_sums[lane] : 0;
#pragma unroll
		for (int offset = 16; offset > 0; offset >>= 1)
			v += __shfl_down_sync(0xffffffffu, v, offset);
		if (lane == 0)
			atomicAdd(sum, v);
	}
}
