// Stage pipe_fast: the same pipeline with its kernel made ten times faster: a tenth of the steps
// per element (work.cuh), the copies around it unchanged.
#include "work.cuh"

extern "C" __global__ void work(const float *x, const float *y, float *z, float a, long long n, int steps, float one, float zero)
{
	work_at(x, y, z, a, n, steps, one, zero);
}
