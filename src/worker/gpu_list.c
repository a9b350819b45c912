/* gpu_list: the GPUs of this machine by UUID, for `cudaclimb queue` (one queue folder per GPU). */
#include <cuda_runtime.h>
#include <stdio.h>
#include "gpu.h"
#include "util.h"

int gpu_list_uuids(char (*uuids)[40], int max, char *why, size_t wn)
{
	int count = 0;
	cudaError_t e = cudaGetDeviceCount(&count);
	if (e || count <= 0) {
		strfmt(why, wn, "no GPU here (%s)", e == cudaErrorInsufficientDriver ? "no NVIDIA driver is loaded"
		       : e == cudaErrorNoDevice || !e ? "the driver sees no CUDA device" : cudaGetErrorString(e));
		return -1;
	}
	int n = 0;
	for (int i = 0; i < count && n < max; i++) {
		struct cudaDeviceProp p;
		if (cudaGetDeviceProperties(&p, i) != cudaSuccess) continue;
		for (int b = 0; b < 16; b++) snprintf(uuids[n] + 2 * b, 3, "%02x", (unsigned char)p.uuid.bytes[b]);
		n++;
	}
	if (!n) { strfmt(why, wn, "no GPU here could be read"); return -1; }
	return n;
}
