// The same buffer read in order: a grid sized to the GPU (BLOCKS_PER_SM blocks per SM) walks it with a
// grid-stride loop; in each round a thread loads VEC 16-byte pieces (uint4) before it adds any, the
// pieces of one round lying BLOCK apart, so every warp instruction reads 512 consecutive bytes. The
// n % 4 elements at the end are read one at a time. The sum goes to a scratch counter, one atomic per
// block, only so that the compiler cannot drop the loads; it is not checked (a sum of the buffer is not
// what the chases compute). One atomic per warp on one address, as a first version did, held the stage
// at 40% of the read bandwidth on an H100: 500 thousand adds to one word queue at the L2.
extern "C" __global__ void stream_read(const unsigned *next, unsigned long long *acc, long long n)
{
	__shared__ unsigned long long warp_sum[32];
	const long long n4 = n / 4;
	const uint4 *p = reinterpret_cast<const uint4 *>(next);
	const long long stride = (long long)gridDim.x * BLOCK * VEC;
	unsigned long long sum = 0;
	for (long long base = blockIdx.x * (long long)BLOCK * VEC + threadIdx.x; base < n4; base += stride) {
		uint4 v[VEC];
#pragma unroll
		for (int k = 0; k < VEC; k++) {
			const long long i = base + (long long)k * BLOCK;
			v[k] = i < n4 ? __ldcs(&p[i]) : make_uint4(0, 0, 0, 0);   // streaming: used once
		}
#pragma unroll
		for (int k = 0; k < VEC; k++)
			sum += (unsigned long long)v[k].x + v[k].y + v[k].z + v[k].w;
	}
	const long long tail = n4 * 4 + blockIdx.x * (long long)BLOCK + threadIdx.x;
	if (tail < n)
		sum += next[tail];
	for (int o = 16; o > 0; o >>= 1)
		sum += __shfl_down_sync(0xffffffffu, sum, o);
	if ((threadIdx.x & 31) == 0)
		warp_sum[threadIdx.x >> 5] = sum;
	__syncthreads();
	if (threadIdx.x == 0) {
		unsigned long long total = 0;
		for (int w = 0; w < BLOCK / 32; w++)
			total += warp_sum[w];
		atomicAdd(acc, total);
	}
}
