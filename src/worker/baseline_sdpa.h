/* baseline_sdpa: the cudnn_sdpa baseline, cuDNN 9's fused scaled-dot-product attention forward,
 * built as an operation graph through cuDNN's backend API (cuDNN is loaded by baseline_cudnn.c). */
#ifndef CC_BASELINE_SDPA_H
#define CC_BASELINE_SDPA_H
#include <cuda_runtime.h>

/* Attention forward for inference: O = softmax(Q K^T / sqrt(dim)) V for every (batch, head); no mask,
 * no dropout, no statistics. Q, K, V and O are bf16 [batch][heads][seq][dim], packed, dim contiguous;
 * the products and the softmax are FP32. */
typedef struct {
	const void *q, *k, *v;
	void *o;
	int batch, heads, seq, dim;
} cudnn_sdpa_job;

/* Runs j on stream s. The first call for a shape builds the graph, takes the first of cuDNN's
 * heuristics (mode A) that finalizes into an execution plan, and allocates its workspace; later calls
 * with that shape only execute. cudaErrorInvalidValue for a job with a NULL pointer or a size below 1
 * (cuDNN is not touched); cudaErrorSharedObjectInitFailed when cuDNN 9 cannot be loaded;
 * cudaErrorNotSupported when no engine of this cuDNN takes the graph; those and other cuDNN failures
 * are said on stderr with cuDNN's own message. */
cudaError_t cudnn_sdpa(const cudnn_sdpa_job *j, cudaStream_t s);

/* Frees the plan, its descriptors and the workspace; call before the cuDNN handle is destroyed. */
void cudnn_sdpa_cleanup(void);
#endif
