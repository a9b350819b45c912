// SAXPY with one element per thread: thread i of the grid handles element i, so a warp reads
// 32 consecutive floats (128 bytes) from x and from y and writes 128 bytes of z.
extern "C" __global__ void saxpy_coalesced(const float *x, const float *y, float *z, float a, long long n)
{
	long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
	if (i < n) z[i] = a * x[i] + y[i];
}
