// SAXPY, z = a*x + y, with neighbouring threads touching elements STRIDE apart.
// Thread t handles element (t % rows) * STRIDE + t / rows: every element exactly once, but a warp's
// 32 loads land in 32 different memory segments instead of one or two.
extern "C" __global__ void saxpy_strided(const float *x, const float *y, float *z, float a, long long n)
{
	long long rows = (n + STRIDE - 1) / STRIDE;
	long long t = blockIdx.x * (long long)blockDim.x + threadIdx.x;
	if (t >= rows * STRIDE) return;
	long long i = (t % rows) * STRIDE + t / rows;
	if (i < n) z[i] = a * x[i] + y[i];
}
