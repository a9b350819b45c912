/* blelloch: pass 1 of 3 of scan-then-propagate, with Blelloch's work-efficient scan in the block.
 * Block b takes a tile of 2 * BLOCK inputs (thread t loads elements t and t + BLOCK, so a warp's
 * loads are consecutive) into one shared array s and scans it in place in two sweeps over a
 * balanced tree:
 *   up-sweep: at level k, with stride 2^k, the slot at the right end of each pair of subtrees adds
 *             the left subtree's sum; after log2(2 * BLOCK) levels the last slot holds the total;
 *   down-sweep: the last slot is set to 0, and going back down, each pair passes its value to the
 *             left child and the left child's old value plus its own to the right child.
 * Each slot then holds the sum of everything before it: the exclusive scan, with 2 * (2 * BLOCK)
 * additions in all, where Hillis-Steele does about BLOCK * log2(BLOCK).
 * BLOCK: a power of two from 32 to 1024 (the tile is 2 * BLOCK). */
#include "common.cuh"

#ifndef BLOCK
#define BLOCK 256
#endif

extern "C" __global__ void scan_blelloch(const int *__restrict__ x, int *__restrict__ y, int *__restrict__ sums,
                                         long long n)
{
	__shared__ int s[2 * BLOCK];
	const int t = threadIdx.x;
	const long long base = (long long)blockIdx.x * (2 * BLOCK);
	s[t] = base + t < n ? x[base + t] : 0;
	s[t + BLOCK] = base + t + BLOCK < n ? x[base + t + BLOCK] : 0;

	int stride = 1;
	for (int active = BLOCK; active > 0; active >>= 1) {   /* up-sweep */
		__syncthreads();
		if (t < active) {
			const int right = stride * (2 * t + 2) - 1;
			s[right] += s[right - stride];
		}
		stride <<= 1;
	}
	if (t == 0) {
		sums[blockIdx.x] = s[2 * BLOCK - 1];
		s[2 * BLOCK - 1] = 0;
	}
	for (int active = 1; active <= BLOCK; active <<= 1) {  /* down-sweep */
		stride >>= 1;
		__syncthreads();
		if (t < active) {
			const int right = stride * (2 * t + 2) - 1;
			const int left = s[right - stride];
			s[right - stride] = s[right];
			s[right] += left;
		}
	}
	__syncthreads();
	if (base + t < n)
		y[base + t] = s[t];
	if (base + t + BLOCK < n)
		y[base + t + BLOCK] = s[t + BLOCK];
}
