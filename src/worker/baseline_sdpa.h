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

#define CUDNN_SDPA_CHOICE_MAX 256

/* Runs j on stream s. The first call for a shape builds the graph and chooses its engine
 * configuration: the one kept for this GPU, cuDNN version and shape (baseline_pick.h), else the first
 * 4 of cuDNN's heuristics (mode A) that finalize into an execution plan, each executed 5 times on j's
 * buffers after one untimed run, the smallest median winning and kept for the worker's life and in
 * the cache folder; it allocates the workspace (the largest the candidates need). Later calls with
 * that shape only execute. The choice is named in the result (baseline_choice). cudaErrorInvalidValue for a job with a NULL pointer or a size below 1
 * (cuDNN is not touched); cudaErrorSharedObjectInitFailed when cuDNN 9 cannot be loaded;
 * cudaErrorNotSupported when no engine of this cuDNN takes the graph; those and other cuDNN failures
 * are said on stderr with cuDNN's own message. */
cudaError_t cudnn_sdpa(const cudnn_sdpa_job *j, cudaStream_t s);

/* Frees the plan, its descriptors and the workspace; call before the cuDNN handle is destroyed. */
void cudnn_sdpa_cleanup(void);
#endif
