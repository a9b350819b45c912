/* baseline_cublas_gemv: cublas_sgemv, y = A x for a row-major A, with cublasSgemv_v2 (see the header).
 * Its own handle and its own dlopen of libcublas (dlopen counts references: the GEMM baselines in
 * baseline.c get the same library), so that this file is the whole baseline: the pattern
 * docs/adding-a-library.md describes. FP32 math (CUBLAS_DEFAULT_MATH): GEMV has no TF32 path. */
#include "baseline_cublas_gemv.h"
#include <cublas_v2.h>
#include <dlfcn.h>
#include <stdio.h>
#include "gpu.h"

static struct {
	cublasStatus_t (*create)(cublasHandle_t *);
	cublasStatus_t (*destroy)(cublasHandle_t);
	cublasStatus_t (*set_stream)(cublasHandle_t, cudaStream_t);
	cublasStatus_t (*sgemv)(cublasHandle_t, cublasOperation_t, int, int, const float *, const float *, int, const float *, int,
	                        const float *, float *, int);
} fn;

static void *lib;
static int lib_failed;
static cublasHandle_t handle;

/* Loads libcublas.so.13, its entry points and a handle once; 0, or -1 after saying why on stderr (once). */
static int load(void)
{
	if (handle) return 0;
	if (lib_failed) return -1;
	lib_failed = 1;
	char why[512] = "withheld by CUDACLIMB_WITHOUT";
	void *h = lib ? lib : baseline_withheld("cublas") ? NULL : baseline_dlopen_path("libcublas.so.13", why, sizeof why);
	if (!h) {
		fprintf(stderr, "cudaclimb worker: cuBLAS not found (%s): the cublas_sgemv baseline needs libcublas.so.13\n", why);
		return -1;
	}
	static const char *const names[] = { "cublasCreate_v2", "cublasDestroy_v2", "cublasSetStream_v2", "cublasSgemv_v2" };
	void **slots[] = { (void **)&fn.create, (void **)&fn.destroy, (void **)&fn.set_stream, (void **)&fn.sgemv };
	for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
		*slots[i] = dlsym(h, names[i]);
		if (!*slots[i]) {
			fprintf(stderr, "cudaclimb worker: this cuBLAS lacks %s: the cublas_sgemv baseline needs cuBLAS 13\n", names[i]);
			return -1;
		}
	}
	lib = h;
	if (fn.create(&handle) != CUBLAS_STATUS_SUCCESS) {
		fprintf(stderr, "cudaclimb worker: cublasCreate failed: the cublas_sgemv baseline cannot run\n");
		handle = NULL;
		return -1;
	}
	lib_failed = 0;
	return 0;
}

cudaError_t baseline_cublas_gemv_run(const baseline_cublas_gemv_job *j, cudaStream_t s)
{
	if (!j->A || !j->x || !j->y || j->m < 1 || j->n < 1) return cudaErrorInvalidValue;
	if (load()) return cudaErrorSharedObjectInitFailed;
	fn.set_stream(handle, s);
	/* A's bytes, read column-major, are the n x m matrix A^T (leading dimension n): y = (A^T)^T x. */
	const float one = 1, zero = 0;
	cublasStatus_t st = fn.sgemv(handle, CUBLAS_OP_T, j->n, j->m, &one, j->A, j->n, j->x, 1, &zero, j->y, 1);
	if (st == CUBLAS_STATUS_SUCCESS) return cudaSuccess;
	fprintf(stderr, "cudaclimb worker: cublasSgemv refused m=%d n=%d (status %d)\n", j->m, j->n, (int)st);
	return cudaErrorInvalidValue;
}

void baseline_cublas_gemv_cleanup(void)
{
	if (handle) fn.destroy(handle);
	handle = NULL;
}
