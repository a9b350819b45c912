/* baseline_cudnn: the cuDNN baselines (lessons/README.md lists them), loaded with dlopen on first use
 * so that cudaclimb builds, starts and runs every other lesson without cuDNN. */
#ifndef CC_BASELINE_CUDNN_H
#define CC_BASELINE_CUDNN_H
#include <cuda_runtime.h>

/* A 1x1 convolution, stride 1, FP32 NCHW: y[n][k][h][w] = sum over c of filter[k][c] * x[n][c][h][w],
 * then + bias[k], then ReLU. */
typedef struct {
	const float *x, *filter, *bias;
	float *y;
	int n, c, k, h, w;
} cudnn_conv_job;

/* Runs j on stream s: as three cuDNN calls (convolution, bias add, activation) when fused is 0, as
 * cudnnConvolutionBiasActivationForward when 1. The algorithm (FP32 FMA math: no TF32) is chosen at
 * the first call for a shape, outside the timing: the one kept for this GPU, cuDNN version and shape
 * (baseline_pick.h), else the fastest of cudnnFindConvolutionForwardAlgorithm's first 4 timed again
 * on the call itself (the chain's convolution, or the fused call; the median of 7 calls each), then
 * kept for the worker's life and in the cache folder, so that every bench on this GPU times the same
 * one. The workspace grows once. The choice is named in the result (baseline_choice).
 * cudaErrorSharedObjectInitFailed when cuDNN 9 cannot be loaded (said once on stderr). */
cudaError_t cudnn_conv_bias_relu(const cudnn_conv_job *j, int fused, cudaStream_t s);

/* A 3x3 convolution, stride 1, padding 1, FP32 NCHW (a cross-correlation, as cuDNN's CROSS_CORRELATION):
 * y[n][k][i][j] = sum over c, r < 3, s < 3 of filter[k][c][r][s] * x[n][c][i + r - 1][j + s - 1], x read
 * as 0 outside the image, so y has x's h x w. Runs cudnnConvolutionForward on stream s with an FP32
 * (FMA math) algorithm chosen as cudnn_conv_bias_relu's (kept per GPU, cuDNN version and shape, else
 * the fastest of Find's first 4 timed again, median of 7), with its workspace, outside the timing;
 * the result names it, and CUDACLIMB_BASELINE_LOG=1 says how each candidate timed.
 * cudaErrorSharedObjectInitFailed when cuDNN 9 cannot be loaded (said once on stderr). */
cudaError_t cudnn_conv2d_3x3(const float *x, const float *filter, float *y, int n, int c, int k, int h, int w, cudaStream_t s);

/* y = the softmax of each of the rows of x (rows x cols, FP32, row-major): cudnnSoftmaxForward,
 * CUDNN_SOFTMAX_ACCURATE (the row's maximum subtracted first), one instance per row. */
cudaError_t cudnn_softmax_rows(const float *x, float *y, int rows, int cols, cudaStream_t s);

/* cuDNN for another module's baseline (baseline_sdpa.c): loads libcudnn.so.9 once (as the baselines
 * here do), sets *library to its dlopen handle and *cudnn to this module's cudnnHandle_t, bound to
 * stream s. Both stay owned here. cudaErrorSharedObjectInitFailed when cuDNN 9 cannot be loaded (said
 * once on stderr); a failed cudnnCreate is said on stderr too. */
cudaError_t cudnn_shared(cudaStream_t s, void **library, void **cudnn);

/* Frees the descriptors, the workspace and the handle (the library stays loaded). */
void cudnn_baseline_cleanup(void);
#endif
