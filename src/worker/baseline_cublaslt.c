/* baseline_cublaslt: see baseline_cublaslt.h. Only the types and constants of cublasLt.h are used; its
 * functions are reached through dlsym, declared here from the header's documented signatures. */
#include "baseline_cublaslt.h"
#include <cublasLt.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "baseline_pick.h"
#include "gemm_scale.h"
#include "gpu.h"
#include "util.h"

#define WORKSPACE_BYTES (32u << 20)
#define MAX_SHAPES 16   /* shapes whose algorithm is kept (a bench uses one or two) */
#define MAX_ALGOS 8     /* asked of the heuristic */
#define TIMED_ALGOS 4   /* of those, the first few timed once per GPU and shape */
#define TRIALS 7        /* timed calls of each, in turns after a warm-up: the median counts */

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

enum { KIND_FP8, KIND_INT8, KIND_FP8_TENSOR, KIND_GEMM, KIND_FP8_TENSOR_FAST };
static const char *const kind_names[] = { "cublaslt_fp8", "cublaslt_int8", "cublaslt_fp8_tensor", "cublaslt_gemm", "cublaslt_fp8_tensor_fast" };
static const char *const format_names[] = { "bf16", "f16", "tf32" };

/* One shape's call, made once: descriptors, the algorithm, and for fp8 whether the scales are cuBLASLt's
 * (outer vectors) or a pass of ours after it. */
typedef struct {
	int used, kind, m, n, k, bf16_out;
	int format, transb, c_same;  /* KIND_GEMM: CUBLASLT_BF16..., B k x n (0) or n x k (1), C in the inputs' type */
	int scales_apart;            /* fp8: outer-vector scales refused; unit scales, then cc_gemm_scale_f32 */
	cublasLtMatmulDesc_t desc;
	cublasLtMatrixLayout_t a, b, d;
	cublasLtMatmulAlgo_t algo;
	char chose[CUBLASLT_CHOICE_MAX];   /* what was chosen and how, in words */
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
	const int gemm = p->kind == KIND_GEMM, fp8 = p->kind != KIND_INT8 && !gemm;
	static const cudaDataType gemm_in[] = { CUDA_R_16BF, CUDA_R_16F, CUDA_R_32F };
	const cudaDataType in = gemm ? gemm_in[p->format] : fp8 ? CUDA_R_8F_E4M3 : CUDA_R_8I;
	const cudaDataType out = gemm ? (p->c_same ? in : CUDA_R_32F) : !fp8 ? CUDA_R_32I : p->bf16_out ? CUDA_R_16BF : CUDA_R_32F;
	const cublasComputeType_t ct = p->kind == KIND_INT8 ? CUBLAS_COMPUTE_32I
	                             : gemm && p->format == CUBLASLT_TF32 ? CUBLAS_COMPUTE_32F_FAST_TF32 : CUBLAS_COMPUTE_32F;
	cudaError_t e;
	if ((e = status(fn.desc_create(&p->desc, ct, p->kind == KIND_INT8 ? CUDA_R_32I : CUDA_R_32F), "cublasLtMatmulDescCreate")))
		return e;
	const int32_t ta = gemm && !p->transb ? CUBLAS_OP_N : CUBLAS_OP_T, tb = CUBLAS_OP_N;
	/* No fast accumulation but for cublaslt_fp8_tensor_fast: partial sums added into FP32 registers as k
	 * goes (the FADDs of cuBLASLt's FP8 kernel, Nsight Compute on an H200), where fast accumulation, like
	 * the lesson's own FP8 kernel, keeps them in the tensor cores' accumulators (which on Hopper keep
	 * fewer bits than FP32 for FP8: DeepSeek-V3's report measured about 14) */
	const int8_t fast = p->kind == KIND_FP8_TENSOR_FAST;
	if ((e = status(fn.desc_set(p->desc, CUBLASLT_MATMUL_DESC_TRANSA, &ta, sizeof ta), "CUBLASLT_MATMUL_DESC_TRANSA")) ||
	    (e = status(fn.desc_set(p->desc, CUBLASLT_MATMUL_DESC_TRANSB, &tb, sizeof tb), "CUBLASLT_MATMUL_DESC_TRANSB")))
		return e;
	if (fp8 && (e = status(fn.desc_set(p->desc, CUBLASLT_MATMUL_DESC_FAST_ACCUM, &fast, sizeof fast), "CUBLASLT_MATMUL_DESC_FAST_ACCUM")))
		return e;
	if (p->kind == KIND_FP8 && outer) {
		const int32_t mode = CUBLASLT_MATMUL_MATRIX_SCALE_OUTER_VEC_32F;
		cublasStatus_t st_a = fn.desc_set(p->desc, CUBLASLT_MATMUL_DESC_A_SCALE_MODE, &mode, sizeof mode),
		               st_b = fn.desc_set(p->desc, CUBLASLT_MATMUL_DESC_B_SCALE_MODE, &mode, sizeof mode);
		if (st_a != CUBLAS_STATUS_SUCCESS || st_b != CUBLAS_STATUS_SUCCESS) return cudaErrorNotSupported;
	}
	/* cuBLASLt's A, our B: column-major k x n (stored n x k, OP_T), or n x k (stored k x n, OP_N) */
	const int a_kn = !gemm || p->transb;
	if ((e = status(a_kn ? fn.layout_create(&p->a, in, (uint64_t)p->k, (uint64_t)p->n, p->k)
	                     : fn.layout_create(&p->a, in, (uint64_t)p->n, (uint64_t)p->k, p->n), "cublasLtMatrixLayoutCreate")) ||
	    (e = status(fn.layout_create(&p->b, in, (uint64_t)p->k, (uint64_t)p->m, p->k), "cublasLtMatrixLayoutCreate")) ||
	    (e = status(fn.layout_create(&p->d, out, (uint64_t)p->n, (uint64_t)p->m, p->n), "cublasLtMatrixLayoutCreate")))
		return e;
	return cudaSuccess;
}

/* The scale pointers of j for p's call: per-row and per-column vectors (outer), or per tensor (each
 * first value); nothing for INT8 or scales applied apart. */
static cudaError_t set_scales(shape *p, const cublaslt_gemm_job *j)
{
	if (p->kind == KIND_INT8 || p->kind == KIND_GEMM || p->scales_apart) return cudaSuccess;
	const void *a_scale = j->sb, *b_scale = j->sa;   /* cuBLASLt's A is our Bt (see describe) */
	cudaError_t e;
	if ((e = status(fn.desc_set(p->desc, CUBLASLT_MATMUL_DESC_A_SCALE_POINTER, &a_scale, sizeof a_scale), "CUBLASLT_MATMUL_DESC_A_SCALE_POINTER")) ||
	    (e = status(fn.desc_set(p->desc, CUBLASLT_MATMUL_DESC_B_SCALE_POINTER, &b_scale, sizeof b_scale), "CUBLASLT_MATMUL_DESC_B_SCALE_POINTER")))
		return e;
	return cudaSuccess;
}

/* cublasLtMatmul of p with algo on j's buffers: the library's part of the call (no scaling pass). */
static cublasStatus_t matmul_with(const shape *p, const cublasLtMatmulAlgo_t *algo, const cublaslt_gemm_job *j, cudaStream_t s)
{
	const float one = 1, zero = 0;
	const int32_t ione = 1, izero = 0;
	const int i8 = p->kind == KIND_INT8;
	void *d = i8 ? (void *)j->acc : (void *)j->C;
	return fn.matmul(handle, p->desc, i8 ? (const void *)&ione : (const void *)&one, j->Bt, p->a, j->A, p->b,
	                 i8 ? (const void *)&izero : (const void *)&zero, d, p->d, d, p->d, algo, workspace, WORKSPACE_BYTES, s);
}

/* The times of the first n algorithms of r on j's buffers, TRIALS each (ms[i * TRIALS + t]; -1 for an
 * algorithm that fails): one untimed call of each, the first for at least 25 ms more (the clocks
 * settle: at first use the GPU may still be ramping up), then the calls in turns, trial by trial, so
 * that a drift of clock or temperature falls on all alike. 0, or a CUDA error. */
static cudaError_t time_algos(shape *p, const cublasLtMatmulHeuristicResult_t *r, int n, const cublaslt_gemm_job *j,
                              cudaStream_t s, float *ms)
{
	cudaEvent_t e0, e1;
	cudaError_t e;
	if ((e = cudaEventCreate(&e0))) return e;
	if ((e = cudaEventCreate(&e1))) { cudaEventDestroy(e0); return e; }
	int ok[TIMED_ALGOS];
	for (int i = 0; i < n; i++) ok[i] = matmul_with(p, &r[i].algo, j, s) == CUBLAS_STATUS_SUCCESS;
	double t0 = now_ms();
	for (int w = 0; ok[0] && !e && (w < 3 || now_ms() - t0 < 25) && w < 1000; w++)
		if (matmul_with(p, &r[0].algo, j, s) != CUBLAS_STATUS_SUCCESS || (e = cudaStreamSynchronize(s))) break;
	for (int t = 0; t < TRIALS && !e; t++) {
		for (int i = 0; i < n && !e; i++) {
			float v = -1;
			if (ok[i] && !(e = cudaEventRecord(e0, s))) {
				ok[i] = matmul_with(p, &r[i].algo, j, s) == CUBLAS_STATUS_SUCCESS;
				if (!(e = cudaEventRecord(e1, s)) && !(e = cudaEventSynchronize(e1)) && ok[i]) e = cudaEventElapsedTime(&v, e0, e1);
			}
			ms[i * TRIALS + t] = ok[i] ? v : -1;
		}
	}
	cudaEventDestroy(e0);
	cudaEventDestroy(e1);
	return e;
}

/* The algorithm for p's descriptors within the workspace: the one kept for this GPU, cuBLASLt version
 * and shape (baseline_pick), else the fastest of the heuristic's first TIMED_ALGOS timed on j's
 * buffers, then kept. 0, or -1 when cuBLASLt offers none (its status in *why), or a CUDA error of the
 * timing in *cerr. */
static int pick(shape *p, const cublaslt_gemm_job *j, cudaStream_t s, cublasStatus_t *why, cudaError_t *cerr)
{
	cublasLtMatmulPreference_t pref = NULL;
	const size_t ws = WORKSPACE_BYTES;
	cublasLtMatmulHeuristicResult_t r[MAX_ALGOS];
	int got = 0;
	*cerr = cudaSuccess;
	*why = fn.pref_create(&pref);
	if (*why == CUBLAS_STATUS_SUCCESS) *why = fn.pref_set(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &ws, sizeof ws);
	if (*why == CUBLAS_STATUS_SUCCESS) *why = fn.heuristic(handle, p->desc, p->a, p->b, p->d, p->d, pref, MAX_ALGOS, r, &got);
	if (pref) fn.pref_destroy(pref);
	int n = 0;
	for (int i = 0; i < got && i < MAX_ALGOS; i++) if (r[i].state == CUBLAS_STATUS_SUCCESS) r[n++] = r[i];
	if (*why != CUBLAS_STATUS_SUCCESS || n < 1) {
		if (*why == CUBLAS_STATUS_SUCCESS) *why = CUBLAS_STATUS_NOT_SUPPORTED;
		return -1;
	}
	char key[BASELINE_PICK_KEY_MAX], what[64];
	const long long dims[3] = { p->m, p->n, p->k };
	const device_info *dev = gpu_device();
	strfmt(what, sizeof what, "%s%s%s%s%s%s", kind_names[p->kind], p->kind == KIND_GEMM ? "_" : "",
	       p->kind == KIND_GEMM ? format_names[p->format] : "", p->kind == KIND_GEMM && p->transb ? "_bt" : "",
	       p->bf16_out || p->c_same ? "_narrowout" : "", p->scales_apart ? "_apart" : "");
	int keyed = baseline_pick_key(key, sizeof key, what, (long long)fn.version(), dims, 3, dev ? dev->uuid : NULL) == 0;
	long long kept = -1;
	if (keyed && baseline_pick_get(key, &kept, NULL, 0) && kept >= 0 && kept < n) {
		p->algo = r[kept].algo;
		strfmt(p->chose, sizeof p->chose, "cuBLASLt algorithm %lld of the heuristic's %d (kept from an earlier timing on this GPU), %u MiB workspace",
		       kept + 1, n, WORKSPACE_BYTES >> 20);
		return 0;
	}
	/* Timed even when there is one: a call the heuristic offers may still be refused (then, for fp8,
	 * the outer-vector scales are given up as when the heuristic offers nothing). */
	int timed = n < TIMED_ALGOS ? n : TIMED_ALGOS, best;
	float ms[TIMED_ALGOS * TRIALS], best_ms = -1;
	if ((*cerr = time_algos(p, r, timed, j, s, ms))) return -1;
	best = baseline_pick_fastest(ms, timed, TRIALS, &best_ms);
	if (baseline_logging())
		for (int i = 0; i < timed; i++)
			fprintf(stderr, "cudaclimb worker: %s m=%d n=%d k=%d: the heuristic's algorithm %d: %.4f ms (first of %d trials; -1: failed)\n",
			        what, p->m, p->n, p->k, i + 1, ms[i * TRIALS], TRIALS);
	if (best < 0) {
		*why = CUBLAS_STATUS_NOT_SUPPORTED;
		return -1;
	}
	p->algo = r[best].algo;
	if (timed > 1)
		strfmt(p->chose, sizeof p->chose, "cuBLASLt algorithm %d of the heuristic's %d (its first, unless one of its first %d timed "
		       "more than 3%% faster: medians of %d in turns; %.4f ms), %u MiB workspace",
		       best + 1, n, timed, TRIALS, best_ms, WORKSPACE_BYTES >> 20);
	else
		strfmt(p->chose, sizeof p->chose, "cuBLASLt's only algorithm from the heuristic (%.4f ms), %u MiB workspace", best_ms,
		       WORKSPACE_BYTES >> 20);
	if (keyed) baseline_pick_put(key, best, p->chose);   /* even the only one: a later worker need not time it */
	return 0;
}

/* The shape's call, made at its first use (which times the algorithms on j's buffers). */
static cudaError_t shape_for(int kind, const cublaslt_gemm_job *j, cudaStream_t s, shape **out)
{
	const int m = j->m, n = j->n, k = j->k, bf16 = kind != KIND_GEMM && j->c_bf16;
	const int format = kind == KIND_GEMM ? j->format : 0, transb = kind == KIND_GEMM && j->transb, same = kind == KIND_GEMM && j->c_same;
	for (int i = 0; i < MAX_SHAPES; i++)
		if (shapes[i].used && shapes[i].kind == kind && shapes[i].m == m && shapes[i].n == n && shapes[i].k == k &&
		    shapes[i].bf16_out == bf16 && shapes[i].format == format && shapes[i].transb == transb && shapes[i].c_same == same) {
			*out = &shapes[i];
			return cudaSuccess;
		}
	shape *p = &shapes[next_slot];
	next_slot = (next_slot + 1) % MAX_SHAPES;
	shape_free(p);
	*p = (shape){ .used = 1, .kind = kind, .m = m, .n = n, .k = k, .bf16_out = bf16, .format = format, .transb = transb, .c_same = same };
	cublasStatus_t why = CUBLAS_STATUS_SUCCESS;
	cudaError_t e = describe(p, 1), te = cudaSuccess;
	if (e == cudaSuccess) e = set_scales(p, j);
	if (e == cudaSuccess && pick(p, j, s, &why, &te) == 0) { *out = p; goto chosen; }
	if (te) { shape_free(p); return te; }
	if (kind == KIND_FP8 && !bf16 && (e == cudaSuccess || e == cudaErrorNotSupported)) {
		/* Outer-vector scales refused: the same product with unit scales, then our pass over C. */
		const char *said = e == cudaErrorNotSupported ? "the scale-mode attribute" : fn.status_string(why);
		shape_free(p);
		*p = (shape){ .used = 1, .kind = kind, .m = m, .n = n, .k = k, .scales_apart = 1 };
		if ((e = describe(p, 0)) == cudaSuccess && pick(p, j, s, &why, &te) == 0) {
			fprintf(stderr, "cudaclimb worker: cublaslt_fp8: this cuBLASLt or GPU refuses outer-vector FP32 scales "
			                "(CUBLASLT_MATMUL_MATRIX_SCALE_OUTER_VEC_32F: %s) for %d x %d x %d: it runs the e4m3 product "
			                "with unit scales and multiplies C[i][j] by sa[i] * sb[j] in a separate pass (one more read "
			                "and write of C, inside the timed call); the sums are the same\n", said, m, n, k);
			*out = p;
			goto chosen;
		}
		if (te) { shape_free(p); return te; }
	}
	if (e == cudaSuccess)
		e = status(why, kind == KIND_INT8 ? "cublasLtMatmulAlgoGetHeuristic (INT8, TN)" : kind == KIND_GEMM ? "cublasLtMatmulAlgoGetHeuristic (GEMM)"
		                                                                    : "cublasLtMatmulAlgoGetHeuristic (FP8 e4m3, TN)");
	shape_free(p);
	return e == cudaSuccess ? cudaErrorNotSupported : e;
chosen:
	if (baseline_logging())
		fprintf(stderr, "cudaclimb worker: cuBLASLt %s%s for m=%d n=%d k=%d, %s out: %s; %s\n",
		        kind == KIND_INT8 ? "INT8 (int32 sums, then the dequantisation pass)" : kind == KIND_GEMM ? "GEMM " :
		        kind == KIND_FP8_TENSOR_FAST ? "FP8 e4m3 (fast accumulation)" : "FP8 e4m3 (FP32 accumulation, no fast accumulation)",
		        kind == KIND_GEMM ? format_names[format] : "",
		        m, n, k, kind == KIND_INT8 ? "int32" : bf16 ? "bf16" : same ? format_names[format] : "f32",
		        kind == KIND_INT8 || kind == KIND_GEMM ? "no scales" : kind == KIND_FP8_TENSOR || kind == KIND_FP8_TENSOR_FAST ? "per-tensor scales"
		        : p->scales_apart ? "unit scales, scales applied apart" : "outer-vector scales", p->chose);
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
	if (!j->A || !j->Bt || !j->C || j->m < 1 || j->n < 1 || j->k < 1 || (kind != KIND_GEMM && (!j->sa || !j->sb)) ||
	    (kind == KIND_INT8 && (!j->acc || j->c_bf16)) ||
	    (kind == KIND_GEMM && (j->format < CUBLASLT_BF16 || j->format > CUBLASLT_TF32 || (j->c_same && j->format == CUBLASLT_TF32))))
		return cudaErrorInvalidValue;
	cudaError_t e = ready();
	shape *p = NULL;
	if (e || (e = shape_for(kind, j, s, &p)) || (e = set_scales(p, j))) return e;   /* this call's scale buffers */
	if ((e = status(matmul_with(p, &p->algo, j, s), "cublasLtMatmul"))) return e;
	baseline_choice_set("%s", p->chose);
	if (kind == KIND_INT8) return (cudaError_t)cc_gemm_dequant_i32(j->acc, j->sa, j->sb, j->C, j->m, j->n, s);
	if (p->scales_apart) return (cudaError_t)cc_gemm_scale_f32(j->C, j->sa, j->sb, j->m, j->n, s);
	return cudaSuccess;
}

cudaError_t cublaslt_fp8(const cublaslt_gemm_job *j, cudaStream_t s) { return run(KIND_FP8, j, s); }
cudaError_t cublaslt_fp8_tensor(const cublaslt_gemm_job *j, cudaStream_t s) { return run(KIND_FP8_TENSOR, j, s); }
cudaError_t cublaslt_fp8_tensor_fast(const cublaslt_gemm_job *j, cudaStream_t s) { return run(KIND_FP8_TENSOR_FAST, j, s); }
cudaError_t cublaslt_int8(const cublaslt_gemm_job *j, cudaStream_t s) { return run(KIND_INT8, j, s); }
cudaError_t cublaslt_gemm(const cublaslt_gemm_job *j, cudaStream_t s) { return run(KIND_GEMM, j, s); }

void cublaslt_cleanup(void)
{
	for (int i = 0; i < MAX_SHAPES; i++) shape_free(&shapes[i]);
	next_slot = 0;
	if (handle) fn.destroy(handle);
	handle = NULL;
	cudaFree(workspace);
	workspace = NULL;
}
