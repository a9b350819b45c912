// SAXPY with a grid-stride loop: a grid sized to the GPU (BLOCKS_PER_SM blocks on each SM) walks
// the whole vector, each thread stepping by the number of threads in the grid.
extern "C" __global__ void saxpy_gridstride(const float *x, const float *y, float *z, float a, long long n)
{
	long long step = (long long)gridDim.x * blockDim.x;
	for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += step)
		z[i] = a * x[i] + y[i];
}
