// Stage host_nosync: the plain SAXPY of saxpy.cuh. The kernel is the same in every stage of this lesson;
// what changes is how the stage is timed (its timing: in lessons/timing.yaml).
#include "saxpy.cuh"

extern "C" __global__ void saxpy(const float *x, const float *y, float *z, float a, long long n)
{
	saxpy_at(x, y, z, a, n);
}
