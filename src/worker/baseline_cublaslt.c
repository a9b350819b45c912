/* baseline_cublaslt: see baseline_cublaslt.h. Only the types and constants of cublasLt.h are used; its
 * functions are reached through dlsym, declared here from the header's documented signatures. */
#include "baseline_cublaslt.h"
#include <cublasLt.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gemm_scale.h"
#include "gpu.h"

#define WORKSPACE_BYTES (32u << 20)
#define MAX_SHAPES 16   /* shapes whose algorithm is kept (a bench uses one or two) */

static struct {
	cublasStatus_t (*create)(cublasLtHandle_t *);
	cublasStatus_t (*destroy)(cublasLtHandle_t);
	const char *(*status_string)(cublasStatus_t);
	size_t (*version)(void);
	cublasStatus_t (*desc_create)(cublasLtMatmulDesc_t *, cublasComputeType_t, cudaDataType_t);
	cublasStatus_t (*desc_destroy)(cublasLtMatmulDesc_t);
	cublasStatus_t (*desc_set)(cublasLtMatmulDesc_t, cublasLtMatmulDescAttributes_t, const void *, size_t);
	cublasStatus_t (*layout_create)(cublasLtMatrixLayout_t *, cudaDataType, uint64_t, uint64_t, int64_t);
	cublasStatus_t (*layout_destroy)(cublasLtMatrixLayout_t);
	cublasStatus_t (*pref_create)(cublasLtMatmulPreference_t *);
	cublasStatus_t (*pref_destroy)(cublasLtMatmulPreference_t);
	cublasStatus_t (*pref_set)(cublasLtMatmulPreference_t, cublasLtMatmulPreferenceAttributes_t, const void *, size_t);
	cublasStatus_t (*heuristic)(cublasLtHandle_t, cublasLtMatmulDesc_t, cublasLtMatrixLayout_t, cublasLtMatrixLayout_t,
	                            cublasLtMatrixLayout_t, cublasLtMatrixLayout_t, cublasLtMatmulPreference_t, int,
	                            cublasLtMatmulHeuristicResult_t[], int *);
	cublasStatus_t (*matmul)(cublasLtHandle_t, cublasLtMatmulDesc_t, const void *, const void *, cublasLtMatrixLayout_t,
	                         const void *, cublasLtMatrixLayout_t, const void *, const void *, cublasLtMatrixLayout_t, void *,
	                         cublasLtMatrixLayout_t, const cublasLtMatmulAlgo_t *, void *, size_t, cudaStream_t);
} fn;

static const struct { const char *name; void **slot; } symbols[] = {
	{ "cublasLtCreate", (void **)&fn.create },
	{ "cublasLtDestroy", (void **)&fn.destroy },
	{ "cublasLtGetStatusString", (void **)&fn.status_string },
	{ "cublasLtGetVersion", (void **)&fn.version },
	{ "cublasLtMatmulDescCreate", (void **)&fn.desc_create },
	{ "cublasLtMatmulDescDestroy", (void **)&fn.desc_destroy },
	{ "cublasLtMatmulDescSetAttribute", (void **)&fn.desc_set },
	{ "cublasLtMatrixLayoutCreate", (void **)&fn.layout_create },
	{ "cublasLtMatrixLayoutDestroy", (void **)&fn.layout_destroy },
	{ "cublasLtMatmulPreferenceCreate", (void **)&fn.pref_create },
	{ "cublasLtMatmulPreferenceDestroy", (void **)&fn.pref_destroy },
	{ "cublasLtMatmulPreferenceSetAttribute", (void **)&fn.pref_set },
	{ "cublasLtMatmulAlgoGetHeuristic", (void **)&fn.heuristic },
	{ "cublasLtMatmul", (void **)&fn.matmul },
};

enum { KIND_FP8, KIND_INT8 };

/* One shape's call, made once: descriptors, the algorithm, and for fp8 whether the scales are cuBLASLt's
 * (outer vectors) or a pass of ours after it. */
typedef struct {
	int used, kind, m, n, k;
	int scales_apart;            /* fp8: outer-vector scales refused; unit scales, then cc_gemm_scale_f32 */
	cublasLtMatmulDesc_t desc;
	cublasLtMatrixLayout_t a, b, d;
	cublasLtMatmulAlgo_t algo;
} shape;

static void *lib;
static int lib_failed;
static cublasLtHandle_t handle;
static void *workspace;
static shape shapes[MAX_SHAPES];
static int next_slot;


/* Loads libcublasLt.so.13 (by name, then from $CUDA_HOME/lib64) once; 0, or -1 after saying why (once). */
static int load(void)
{
	if (lib) return 0;
	if (lib_failed) return -1;
	lib_failed = 1;
	char why[512] = "withheld by CUDACLIMB_WITHOUT";
	void *h = baseline_withheld("cublas") ? NULL : baseline_dlopen_path("libcublasLt.so.13", why, sizeof why);
	if (!h) {
		fprintf(stderr, "cudaclimb worker: cuBLASLt not found (%s): the cublaslt_* baselines need libcublasLt.so.13\n", why);
		return -1;
	}
	for (size_t i = 0; i < sizeof symbols / sizeof *symbols; i++) {
		*symbols[i].slot = dlsym(h, symbols[i].name);
		if (!*symbols[i].slot) {
			fprintf(stderr, "cudaclimb worker: this cuBLASLt lacks %s: the cublaslt_* baselines need cuBLAS 13\n", symbols[i].name);
			dlclose(h);
			return -1;
		}
	}
	if (baseline_logging()) fprintf(stderr, "cudaclimb worker: cuBLASLt %zu loaded\n", fn.version());
	lib = h;
	lib_failed = 0;
	return 0;
}

/* A cuBLASLt status as a CUDA error; a failure is also said on stderr, with the call. */
static cudaError_t status(cublasStatus_t st, const char *call)
{
	if (st == CUBLAS_STATUS_SUCCESS) return cudaSuccess;
	fprintf(stderr, "cudaclimb worker: %s: %s\n", call, fn.status_string(st));
	return st == CUBLAS_STATUS_NOT_SUPPORTED || st == CUBLAS_STATUS_ARCH_MISMATCH ? cudaErrorNotSupported : cudaErrorUnknown;
}

static void shape_free(shape *p)
{
	if (!p->used) return;
	if (p->desc) fn.desc_destroy(p->desc);
	if (p->a) fn.layout_destroy(p->a);
	if (p->b) fn.layout_destroy(p->b);
	if (p->d) fn.layout_destroy(p->d);
	memset(p, 0, sizeof *p);
}

/* The descriptors of p's call. The row-major problem as cuBLASLt's column-major one: D^T (n x m) =
 * op(Bt) . op(A), where Bt's bytes are a column-major k x n matrix (transposed: OP_T) and A's a
 * column-major k x m one (OP_N): the "TN" layout that FP8 and IMMA need. cuBLASLt's A is our Bt, so its
 * A scale (n values) is sb and its B scale (m values) is sa. outer: ask for outer-vector scales. */
static cudaError_t describe(shape *p, int outer)
{
	const int fp8 = p->kind == KIND_FP8;
	const cudaDataType in = fp8 ? CUDA_R_8F_E4M3 : CUDA_R_8I, out = fp8 ? CUDA_R_32F : CUDA_R_32I;
	cudaError_t e;
	if ((e = status(fn.desc_create(&p->desc, fp8 ? CUBLAS_COMPUTE_32F : CUBLAS_COMPUTE_32I, fp8 ? CUDA_R_32F : CUDA_R_32I),
	                "cublasLtMatmulDescCreate")))
		return e;
	const int32_t ta = CUBLAS_OP_T, tb = CUBLAS_OP_N;
	const int8_t fast = 0;   /* FP32 accumulation throughout, as the lesson's own FP8 kernel */
	if ((e = status(fn.desc_set(p->desc, CUBLASLT_MATMUL_DESC_TRANSA, &ta, sizeof ta), "CUBLASLT_MATMUL_DESC_TRANSA")) ||
	    (e = status(fn.desc_set(p->desc, CUBLASLT_MATMUL_DESC_TRANSB, &tb, sizeof tb), "CUBLASLT_MATMUL_DESC_TRANSB")))
		return e;
	if (fp8 && (e = status(fn.desc_set(p->desc, CUBLASLT_MATMUL_DESC_FAST_ACCUM, &fast, sizeof fast), "CUBLASLT_MATMUL_DESC_FAST_ACCUM")))
		return e;
	if (fp8 && outer) {
		const int32_t mode = CUBLASLT_MATMUL_MATRIX_SCALE_OUTER_VEC_32F;
		cublasStatus_t sa = fn.desc_set(p->desc, CUBLASLT_MATMUL_DESC_A_SCALE_MODE, &mode, sizeof mode),
		               sb = fn.desc_set(p->desc, CUBLASLT_MATMUL_DESC_B_SCALE_MODE, &mode, sizeof mode);
		if (sa != CUBLAS_STATUS_SUCCESS || sb != CUBLAS_STATUS_SUCCESS) return cudaErrorNotSupported;
	}
	if ((e = status(fn.layout_create(&p->a, in, (uint64_t)p->k, (uint64_t)p->n, p->k), "cublasLtMatrixLayoutCreate")) ||
	    (e = status(fn.layout_create(&p->b, in, (uint64_t)p->k, (uint64_t)p->m, p->k), "cublasLtMatrixLayoutCreate")) ||
	    (e = status(fn.layout_create(&p->d, out, (uint64_t)p->n, (uint64_t)p->m, p->n), "cublasLtMatrixLayoutCreate")))
		return e;
	return cudaSuccess;
}

/* The best algorithm for p's descriptors within the workspace: 0, or -1 when cuBLASLt offers none
 * (its status in *why). */
static int pick(shape *p, cublasStatus_t *why)
{
	cublasLtMatmulPreference_t pref = NULL;
	const size_t ws = WORKSPACE_BYTES;
	cublasLtMatmulHeuristicResult_t r;
	int got = 0;
	*why = fn.pref_create(&pref);
	if (*why == CUBLAS_STATUS_SUCCESS) *why = fn.pref_set(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &ws, sizeof ws);
	if (*why == CUBLAS_STATUS_SUCCESS) *why = fn.heuristic(handle, p->desc, p->a, p->b, p->d, p->d, pref, 1, &r, &got);
	if (pref) fn.pref_destroy(pref);
	if (*why != CUBLAS_STATUS_SUCCESS || got < 1) {
		if (*why == CUBLAS_STATUS_SUCCESS) *why = CUBLAS_STATUS_NOT_SUPPORTED;
		return -1;
	}
	p->algo = r.algo;
	return 0;
}

/* The shape's call, made at its first use. */
static cudaError_t shape_for(int kind, int m, int n, int k, shape **out)
{
	for (int i = 0; i < MAX_SHAPES; i++)
		if (shapes[i].used && shapes[i].kind == kind && shapes[i].m == m && shapes[i].n == n && shapes[i].k == k) {
			*out = &shapes[i];
			return cudaSuccess;
		}
	shape *p = &shapes[next_slot];
	next_slot = (next_slot + 1) % MAX_SHAPES;
	shape_free(p);
	*p = (shape){ .used = 1, .kind = kind, .m = m, .n = n, .k = k };
	cublasStatus_t why = CUBLAS_STATUS_SUCCESS;
	cudaError_t e = describe(p, 1);
	if (e == cudaSuccess && pick(p, &why) == 0) { *out = p; goto chosen; }
	if (kind == KIND_FP8 && (e == cudaSuccess || e == cudaErrorNotSupported)) {
		/* Outer-vector scales refused: the same product with unit scales, then our pass over C. */
		const char *said = e == cudaErrorNotSupported ? "the scale-mode attribute" : fn.status_string(why);
		shape_free(p);
		*p = (shape){ .used = 1, .kind = kind, .m = m, .n = n, .k = k, .scales_apart = 1 };
		if ((e = describe(p, 0)) == cudaSuccess && pick(p, &why) == 0) {
			fprintf(stderr, "cudaclimb worker: cublaslt_fp8: this cuBLASLt or GPU refuses outer-vector FP32 scales "
			                "(CUBLASLT_MATMUL_MATRIX_SCALE_OUTER_VEC_32F: %s) for %d x %d x %d: it runs the e4m3 product "
			                "with unit scales and multiplies C[i][j] by sa[i] * sb[j] in a separate pass (one more read "
			                "and write of C, inside the timed call); the sums are the same\n", said, m, n, k);
			*out = p;
			goto chosen;
		}
	}
	if (e == cudaSuccess) e = status(why, kind == KIND_FP8 ? "cublasLtMatmulAlgoGetHeuristic (FP8 e4m3, TN)" : "cublasLtMatmulAlgoGetHeuristic (INT8, TN)");
	shape_free(p);
	return e == cudaSuccess ? cudaErrorNotSupported : e;
chosen:
	if (baseline_logging())
		fprintf(stderr, "cudaclimb worker: cuBLASLt %s for m=%d n=%d k=%d: the heuristic's first algorithm, %s, %u MiB workspace\n",
		        kind == KIND_FP8 ? "FP8 e4m3 (FP32 accumulation, no fast accumulation)" : "INT8 (int32 sums, then the dequantisation pass)",
		        m, n, k, kind == KIND_INT8 ? "int32 out" : p->scales_apart ? "unit scales, scales applied apart" : "outer-vector scales",
		        WORKSPACE_BYTES >> 20);
	return cudaSuccess;
}

/* The library loaded, the handle and workspace made; 0 or an error. */
static cudaError_t ready(void)
{
	if (load()) return cudaErrorSharedObjectInitFailed;
	cudaError_t e;
	if (!handle && (e = status(fn.create(&handle), "cublasLtCreate"))) return e;
	if (!workspace && (e = cudaMalloc(&workspace, WORKSPACE_BYTES)) != cudaSuccess) return e;
	return cudaSuccess;
}

static cudaError_t run(int kind, const cublaslt_gemm_job *j, cudaStream_t s)
{
	if (!j->A || !j->Bt || !j->sa || !j->sb || !j->C || j->m < 1 || j->n < 1 || j->k < 1 || (kind == KIND_INT8 && !j->acc))
		return cudaErrorInvalidValue;
	cudaError_t e = ready();
	shape *p = NULL;
	if (e || (e = shape_for(kind, j->m, j->n, j->k, &p))) return e;
	const int fp8 = kind == KIND_FP8;
	if (fp8 && !p->scales_apart) {   /* the scale vectors of this call's buffers */
		const void *a_scale = j->sb, *b_scale = j->sa;
		if ((e = status(fn.desc_set(p->desc, CUBLASLT_MATMUL_DESC_A_SCALE_POINTER, &a_scale, sizeof a_scale), "CUBLASLT_MATMUL_DESC_A_SCALE_POINTER")) ||
		    (e = status(fn.desc_set(p->desc, CUBLASLT_MATMUL_DESC_B_SCALE_POINTER, &b_scale, sizeof b_scale), "CUBLASLT_MATMUL_DESC_B_SCALE_POINTER")))
			return e;
	}
	const float one = 1, zero = 0;
	const int32_t ione = 1, izero = 0;
	void *d = fp8 ? (void *)j->C : (void *)j->acc;
	if ((e = status(fn.matmul(handle, p->desc, fp8 ? (const void *)&one : (const void *)&ione, j->Bt, p->a, j->A, p->b,
	                          fp8 ? (const void *)&zero : (const void *)&izero, d, p->d, d, p->d, &p->algo, workspace,
	                          WORKSPACE_BYTES, s),
	                "cublasLtMatmul")))
		return e;
	if (!fp8) return (cudaError_t)cc_gemm_dequant_i32(j->acc, j->sa, j->sb, j->C, j->m, j->n, s);
	if (p->scales_apart) return (cudaError_t)cc_gemm_scale_f32(j->C, j->sa, j->sb, j->m, j->n, s);
	return cudaSuccess;
}

cudaError_t cublaslt_fp8(const cublaslt_gemm_job *j, cudaStream_t s) { return run(KIND_FP8, j, s); }
cudaError_t cublaslt_int8(const cublaslt_gemm_job *j, cudaStream_t s) { return run(KIND_INT8, j, s); }

void cublaslt_cleanup(void)
{
	for (int i = 0; i < MAX_SHAPES; i++) shape_free(&shapes[i]);
	next_slot = 0;
	if (handle) fn.destroy(handle);
	handle = NULL;
	cudaFree(workspace);
	workspace = NULL;
}
