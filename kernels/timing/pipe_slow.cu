// Stage pipe_slow: the kernel of a pipeline before its optimisation: the SAXPY after STEPS (10x the
// fast stage's) dependent steps per element; see work.cuh.
#include "work.cuh"

extern "C" __global__ void work(const float *x, const float *y, float *z, float a, long long n, int steps, float one, float zero)
{
	work_at(x, y, z, a, n, steps, one, zero);
}
