// Stage first_launch: the plain SAXPY of saxpy.cuh, in a file of its own so that its compiled module
// is not one an earlier stage has already loaded: its one timed run is this kernel's first launch.
#include "saxpy.cuh"

extern "C" __global__ void saxpy(const float *x, const float *y, float *z, float a, long long n)
{
	saxpy_at(x, y, z, a, n);
}
