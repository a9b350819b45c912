/* lastblock: 16-byte loads as in the vector stage, without the memset: the block that finishes last
 * writes the sum. The int4 body is cut into chunks of UNROLL * BLOCK int4s; block b reads chunks b,
 * b + gridDim.x, ... (thread t: UNROLL int4s of the chunk, BLOCK apart, all loaded before any is
 * added). With as many blocks as chunks (the stage's default, BLOCKS_PER_SM = 0) each block reads one
 * chunk and the hardware hands out the chunks as blocks finish; with a grid sized to the GPU the
 * blocks walk the body in rounds, as in the vector stage. Only the last, partial chunk checks bounds.
 * Each block makes one 64-bit atomic add into *acc: its total into the high half, 1 into the low
 * half, which counts the blocks done. The block that finds gridDim.x - 1 there is the last; it
 * stores the high half of the new value in *sum and sets *acc back to 0, so the next launch finds
 * it at 0 (the stage's scratch buffers start there).
 * BLOCK: a multiple of 32 up to 1024; UNROLL: loads in flight per thread. MINB: the blocks per SM
 * that __launch_bounds__ asks for; 0 asks for 2048 threads per SM (2048 / BLOCK blocks), at most 32
 * registers each; 1 lets the compiler spend registers on keeping all UNROLL loads in flight. */
#ifndef BLOCK
#define BLOCK 512
#endif
#ifndef MINB
#define MINB 1
#endif
#ifndef UNROLL
#define UNROLL 16
#endif
#ifndef LOAD4
#define LOAD4(p) (*(p))   /* how an int4 is read (scripts/fastcu-sum.cu tries cache hints) */
#endif

__device__ __forceinline__ int warp_total(int v)
{
#pragma unroll
	for (int offset = 16; offset > 0; offset >>= 1)
		v += __shfl_down_sync(0xffffffffu, v, offset);
	return v;
}

extern "C" __global__ void __launch_bounds__(BLOCK, MINB ? MINB : 2048 / BLOCK) reduce_lastblock(const int *__restrict__ x,
                                                                    unsigned long long *acc, int *sum, long long n)
{
	__shared__ int warp_sums[BLOCK / 32];
	const unsigned int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;

	/* Head and tail around the aligned body, one int per thread of the first blocks, as in vector. */
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

	const long long chunk = (long long)UNROLL * BLOCK, whole = n4 / chunk;
	for (long long c = blockIdx.x; c * chunk < n4; c += gridDim.x) {
		const long long i = c * chunk + tid;
		if (c < whole) {   /* the same for the whole block: no divergence */
#pragma unroll
			for (int u = 0; u < UNROLL; ++u) {
				const int4 q = LOAD4(&x4[i + u * BLOCK]);
				v += (q.x + q.y) + (q.z + q.w);
			}
		} else {
#pragma unroll
			for (int u = 0; u < UNROLL; ++u)
				if (i + u * BLOCK < n4) {
					const int4 q = LOAD4(&x4[i + u * BLOCK]);
					v += (q.x + q.y) + (q.z + q.w);
				}
		}
	}

	v = warp_total(v);
	if (lane == 0)
		warp_sums[warp] = v;
	__syncthreads();
	if (warp == 0) {
		v = warp_total(lane < BLOCK / 32 ? warp_sums[lane] : 0);
		if (lane == 0) {
			/* One 64-bit word holds the running sum (high half, mod 2^32) and the number of blocks
			 * done (low half, which never reaches 2^32 and so never carries into the sum). A block's
			 * single atomic adds both, so the block that reads gridDim.x - 1 blocks done before it
			 * also reads every other block's total: no fence, no second atomic. */
			const unsigned long long mine = ((unsigned long long)(unsigned)v << 32) | 1ull;
			const unsigned long long before = atomicAdd(acc, mine);
			if ((unsigned)before == gridDim.x - 1) {
				*sum = (int)((before + mine) >> 32);
				*acc = 0;   /* every block has added: the next launch starts from 0 */
			}
		}
	}
}
