// The filter in shared memory, shared by the convolution kernels of the fusion lesson.
#ifndef FUSION_FILTER_CUH
#define FUSION_FILTER_CUH

// k output channels rounded up to a multiple of KT: the row length of the filter in shared memory.
__device__ __forceinline__ int padded_outputs(int k) { return (k + KT - 1) / KT * KT; }

// Copies filter[o][i] (k x c, as cuDNN stores a KCRS filter with R = S = 1) into ws[i][o], kp values
// a row, zero beyond k, then waits for the whole block. The launch gives 4 * c * kp bytes of dynamic
// shared memory.
__device__ __forceinline__ void load_filter(float *ws, const float *__restrict__ filter, int c, int k, int kp)
{
	for (int e = threadIdx.x; e < c * kp; e += blockDim.x) {
		const int i = e / kp, o = e - i * kp;
		ws[e] = o < k ? filter[o * c + i] : 0.0f;
	}
	__syncthreads();
}
#endif
