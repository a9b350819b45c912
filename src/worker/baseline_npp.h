/* baseline_npp: the NPP baselines (lessons/README.md lists them), loaded with dlopen on first use so
 * that cudaclimb builds, starts and runs every other lesson without NPP. */
#ifndef CC_BASELINE_NPP_H
#define CC_BASELINE_NPP_H
#include <cuda_runtime.h>

/* A Gaussian blur of a single-channel FP32 image (width x height, rows packed: width floats apart)
 * with taps separable weights (device memory, taps odd), borders replicated (clamp to edge). */
typedef struct {
	const float *src;
	float *dst;
	int width, height;
	const float *weights;
	int taps;
} npp_gauss_job;

/* Runs j on stream s with nppiFilterGaussAdvancedBorder_32f_C1R_Ctx, NPP_BORDER_REPLICATE, the
 * weights as given (not normalised by us). cudaErrorInvalidValue for a shape NPP refuses (said on
 * stderr with NPP's status); cudaErrorSharedObjectInitFailed when NPP 13 (libnppc.so.13,
 * libnppif.so.13) cannot be loaded (said once on stderr). */
cudaError_t npp_gauss(const npp_gauss_job *j, cudaStream_t s);

/* Forgets the cached stream context (the libraries stay loaded). */
void npp_baseline_cleanup(void);
#endif
