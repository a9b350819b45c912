// The same buffer read in order: each thread loads VEC 16-byte pieces (uint4) before it adds any, a
// block covers BLOCK * VEC consecutive uint4s and thread t takes t, t + BLOCK, ..., so every warp
// instruction reads 512 consecutive bytes. The n % 4 elements at the end are read one at a time.
// The sum goes to a scratch counter only so that the compiler cannot drop the loads; it is not
// checked (a sum of the buffer is not what the chases compute).
extern "C" __global__ void stream_read(const unsigned *next, unsigned long long *acc, long long n)
{
	const long long n4 = n / 4;
	const uint4 *p = reinterpret_cast<const uint4 *>(next);
	const long long base = blockIdx.x * (long long)BLOCK * VEC + threadIdx.x;
	uint4 v[VEC];
#pragma unroll
	for (int k = 0; k < VEC; k++) {
		long long i = base + (long long)k * BLOCK;
		v[k] = i < n4 ? __ldcs(&p[i]) : make_uint4(0, 0, 0, 0);   // streaming: used once
	}
	unsigned long long sum = 0;
#pragma unroll
	for (int k = 0; k < VEC; k++) sum += (unsigned long long)v[k].x + v[k].y + v[k].z + v[k].w;
	const long long tail = n4 * 4 + blockIdx.x * (long long)BLOCK + threadIdx.x;
	if (tail < n) sum += next[tail];
	for (int o = 16; o > 0; o >>= 1) sum += __shfl_down_sync(0xffffffffu, sum, o);
	if ((threadIdx.x & 31) == 0 && sum != 0) atomicAdd(acc, sum);
}
