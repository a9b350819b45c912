/* baseline: the vendor-library runs a lesson can compare with (lessons/README.md lists them; cuDNN's
 * are in baseline_cudnn.c, cuDNN's attention in baseline_sdpa.c, NPP's in baseline_npp.c).
 * cuBLAS is loaded with dlopen the first time a GEMM baseline runs: linked normally, its 600 MB
 * (with cuBLASLt) were paged in at every start of the program, even to show the lesson list. */
#include <cublas_v2.h>
#include <dlfcn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "baseline_cublas_gemv.h"
#include "baseline_cublaslt.h"
#include "baseline_cudnn.h"
#include "baseline_npp.h"
#include "baseline_cusparse.h"
#include "baseline_sdpa.h"
#include "cub_histogram.h"
#include "cub_reduce.h"
#include "cub_scan.h"
#include "gpu.h"
#include "util.h"

static cublasHandle_t blas;
static struct {
	cublasStatus_t (*create)(cublasHandle_t *);
	cublasStatus_t (*destroy)(cublasHandle_t);
	cublasStatus_t (*set_math)(cublasHandle_t, cublasMath_t);
	cublasStatus_t (*set_stream)(cublasHandle_t, cudaStream_t);
	cublasStatus_t (*sgemm)(cublasHandle_t, cublasOperation_t, cublasOperation_t, int, int, int, const float *,
	                        const float *, int, const float *, int, const float *, float *, int);
	cublasStatus_t (*gemm_ex)(cublasHandle_t, cublasOperation_t, cublasOperation_t, int, int, int, const void *,
	                          const void *, cudaDataType, int, const void *, cudaDataType, int, const void *, void *,
	                          cudaDataType, int, cublasComputeType_t, cublasGemmAlgo_t);
	cublasStatus_t (*gemm_batched)(cublasHandle_t, cublasOperation_t, cublasOperation_t, int, int, int, const void *,
	                               const void *, cudaDataType, int, long long, const void *, cudaDataType, int, long long,
	                               const void *, void *, cudaDataType, int, long long, int, cublasComputeType_t, cublasGemmAlgo_t);
} fn;

int baseline_withheld(const char *family)
{
	const char *v = getenv("CUDACLIMB_WITHOUT");
	size_t n = strlen(family);
	for (const char *p = v; p && *p; p += strcspn(p, ",")) {
		p += strspn(p, ", ");
		if (!strncmp(p, family, n) && (p[n] == ',' || p[n] == ' ' || !p[n])) return 1;
	}
	return 0;
}

static char choice[320];

void baseline_choice_set(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(choice, sizeof choice, fmt, ap);
	va_end(ap);
}

const char *baseline_choice(void)
{
	return choice;
}

int baseline_logging(void)
{
	const char *v = getenv("CUDACLIMB_BASELINE_LOG");
	return v && *v;
}

void *baseline_dlopen(const char *soname, const char *const *dirs, char *why, size_t whylen)
{
	static const char *const lib64[] = { "lib64", NULL };
	void *h = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
	if (h) return h;
	snprintf(why, whylen, "%s", dlerror());
	const char *home = getenv("CUDA_HOME");
	if (!home || !*home) home = "/usr/local/cuda";
	for (const char *const *d = dirs ? dirs : lib64; *d && !h; d++) {
		char path[512];
		snprintf(path, sizeof path, "%s/%s/%s", home, *d, soname);
		h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	}
	return h;
}

void *baseline_dlopen_path(const char *soname, char *why, size_t whylen)
{
	return baseline_dlopen(soname, NULL, why, whylen);
}

/* Loads libcublas and its entry points once; 0, or -1 after saying why on stderr (once). */
static int load_cublas(void)
{
	static void *lib;
	static int failed;
	if (lib) return 0;
	if (failed) return -1;
	failed = 1;
	char why[512] = "withheld by CUDACLIMB_WITHOUT";
	void *h = baseline_withheld("cublas") ? NULL : baseline_dlopen_path("libcublas.so.13", why, sizeof why);
	if (!h) {
		fprintf(stderr, "cudaclimb worker: cuBLAS not found (%s): the cublas_* baselines need libcublas.so.13\n", why);
		return -1;
	}
	*(void **)&fn.create = dlsym(h, "cublasCreate_v2");
	*(void **)&fn.destroy = dlsym(h, "cublasDestroy_v2");
	*(void **)&fn.set_math = dlsym(h, "cublasSetMathMode");
	*(void **)&fn.set_stream = dlsym(h, "cublasSetStream_v2");
	*(void **)&fn.sgemm = dlsym(h, "cublasSgemm_v2");
	*(void **)&fn.gemm_ex = dlsym(h, "cublasGemmEx");
	*(void **)&fn.gemm_batched = dlsym(h, "cublasGemmStridedBatchedEx");
	if (!fn.create || !fn.destroy || !fn.set_math || !fn.set_stream || !fn.sgemm || !fn.gemm_ex || !fn.gemm_batched) {
		fprintf(stderr, "cudaclimb worker: this cuBLAS lacks an entry point (%s): the cublas_* baselines need cuBLAS 13\n", dlerror());
		dlclose(h);
		return -1;
	}
	failed = 0;
	lib = h;
	return 0;
}
static void *cub_state;
static size_t cub_bytes;

static const plan_arg *find(const plan *p, const char *name)
{
	const plan_launch *L = &p->launches[0];
	for (int i = 0; i < L->nargs; i++) if (!strcmp(L->args[i].name, name)) return &L->args[i];
	return NULL;
}

/* A numeric argument, or -1 when missing or a buffer. */
static long long num(const plan *p, const char *name)
{
	const plan_arg *a = find(p, name);
	if (!a || a->kind == ARG_BUFFER) return -1;
	return a->type == AT_F64 ? (long long)a->v.f64 : a->v.i64;
}

static gpu_buffer *buf(const plan *p, gpu_data *d, const char *name)
{
	const plan_arg *a = find(p, name);
	gpu_buffer *b = a && a->kind == ARG_BUFFER ? gpu_data_find(d, a->buffer) : NULL;
	return b && !b->rows ? b : NULL;   /* a library takes packed buffers (the loader refuses a pitched one) */
}

static cudaError_t blas_error(cublasStatus_t st)
{
	return st == CUBLAS_STATUS_SUCCESS ? cudaSuccess : cudaErrorUnknown;
}

/* The cuBLAS handle on stream s, created (FP32 without TF32) at first use; 0, or an error. */
static cudaError_t blas_on(cudaStream_t s)
{
	if (load_cublas()) return cudaErrorSharedObjectInitFailed;
	if (!blas) {
		if (fn.create(&blas) != CUBLAS_STATUS_SUCCESS) return cudaErrorUnknown;
		fn.set_math(blas, CUBLAS_DEFAULT_MATH);   /* no TF32: a real FP32 baseline */
	}
	fn.set_stream(blas, s);
	return cudaSuccess;
}


static int dim_ok(long long v);

/* cublas_sgemm: row-major C = A.B in FP32 (cublasSgemm, TF32 off). */
static cudaError_t sgemm(const plan *p, gpu_data *d, cudaStream_t s)
{
	gpu_buffer *A = buf(p, d, "A"), *B = buf(p, d, "B"), *C = buf(p, d, "C");
	long long m = num(p, "m"), n = num(p, "n"), k = num(p, "k");
	if (!A || !B || !C || m < 1 || n < 1 || k < 1) return cudaErrorInvalidValue;
	cudaError_t e = blas_on(s);
	if (e) return e;
	const float one = 1, zero = 0;
	return blas_error(fn.sgemm(blas, CUBLAS_OP_N, CUBLAS_OP_N, (int)n, (int)m, (int)k, &one, B->ptr, (int)n, A->ptr,
	                           (int)k, &zero, C->ptr, (int)n));
}

/* cublas_gemm_ex (and cublas_gemm_bf16, its bf16 case with B k x n): row-major C (m x n, f32) = A (m x k)
 * . B, B stored k x n (transb 0) or transposed, n x k (transb 1: the precision_gemm copies). The format
 * is A's and B's buffer type, which must agree: f32 words are multiplied as TF32
 * (CUBLAS_COMPUTE_32F_FAST_TF32), bf16 and f16 with CUBLAS_COMPUTE_32F; the sums are FP32 throughout.
 * As column-major C^T (n x m) = op(B)^T . A^T: B's bytes are a column-major n x k (transb 0, OP_N, ld n)
 * or k x n matrix (transb 1, OP_T, ld k), A's a column-major k x m one (OP_N, ld k). bf16_only: the old
 * name, which took bf16 operands only. */
static cudaError_t gemm_ex(const plan *p, gpu_data *d, cudaStream_t s, int bf16_only)
{
	gpu_buffer *A = buf(p, d, "A"), *B = buf(p, d, "B"), *C = buf(p, d, "C");
	long long m = num(p, "m"), n = num(p, "n"), k = num(p, "k"), tb = bf16_only ? 0 : num(p, "transb");
	if (!A || !B || !C || !dim_ok(m) || !dim_ok(n) || !dim_ok(k) || (tb != 0 && tb != 1) || A->type != B->type ||
	    C->type != DT_F32 || A->count < m * k || B->count < k * n || C->count < m * n)
		return cudaErrorInvalidValue;
	cudaDataType t;
	cublasComputeType_t ct = CUBLAS_COMPUTE_32F;
	const char *what;
	switch (A->type) {
	case DT_F32: t = CUDA_R_32F; ct = CUBLAS_COMPUTE_32F_FAST_TF32; what = "TF32 (f32 words, CUBLAS_COMPUTE_32F_FAST_TF32)"; break;
	case DT_BF16: t = CUDA_R_16BF; what = "BF16 (CUBLAS_COMPUTE_32F)"; break;
	case DT_F16: t = CUDA_R_16F; what = "FP16 (CUBLAS_COMPUTE_32F)"; break;
	default: return cudaErrorInvalidValue;
	}
	if (bf16_only && A->type != DT_BF16) return cudaErrorInvalidValue;
	cudaError_t e = blas_on(s);
	if (e) return e;
	static long long said[4];   /* the last shape logged */
	if (baseline_logging() && (said[0] != m || said[1] != n || said[2] != k || said[3] != (long long)A->type * 2 + tb)) {
		fprintf(stderr, "cudaclimb worker: cublasGemmEx %s, B %s, for m=%lld n=%lld k=%lld, CUBLAS_GEMM_DEFAULT\n", what,
		        tb ? "n x k (OP_T)" : "k x n (OP_N)", m, n, k);
		said[0] = m; said[1] = n; said[2] = k; said[3] = (long long)A->type * 2 + tb;
	}
	const float one = 1, zero = 0;
	return blas_error(fn.gemm_ex(blas, tb ? CUBLAS_OP_T : CUBLAS_OP_N, CUBLAS_OP_N, (int)n, (int)m, (int)k, &one, B->ptr, t,
	                             tb ? (int)k : (int)n, A->ptr, t, (int)k, &zero, C->ptr, CUDA_R_32F, (int)n, ct, CUBLAS_GEMM_DEFAULT));
}

enum { LT_FP8, LT_INT8, LT_FP8_TENSOR, LT_FP8_TENSOR_FAST };

/* cublaslt_fp8, cublaslt_fp8_tensor(_fast) and cublaslt_int8: row-major C = sa[i] sb[j] (A . B^T), A m x k and
 * B n x k (one byte each: u8 e4m3 bit patterns, or i8), sa m and sb n f32 (per tensor: sa[0] and sb[0]
 * only, any count); C f32, or bf16 for the FP8 ones; int8 needs acc, an i32 m x n scratch buffer. */
static cudaError_t lt_gemm(const plan *p, gpu_data *d, cudaStream_t s, int kind)
{
	gpu_buffer *A = buf(p, d, "A"), *B = buf(p, d, "B"), *C = buf(p, d, "C"), *sa = buf(p, d, "sa"), *sbv = buf(p, d, "sb");
	const int int8 = kind == LT_INT8;
	gpu_buffer *acc = int8 ? buf(p, d, "acc") : NULL;
	long long m = num(p, "m"), n = num(p, "n"), k = num(p, "k");
	const int tensor = kind == LT_FP8_TENSOR || kind == LT_FP8_TENSOR_FAST;
	const long long na = tensor ? 1 : m, nb = tensor ? 1 : n;
	const lesson_dtype in = int8 ? DT_I8 : DT_U8;
	if (!A || !B || !C || !sa || !sbv || !dim_ok(m) || !dim_ok(n) || !dim_ok(k) || A->type != in || B->type != in ||
	    (C->type != DT_F32 && (int8 || C->type != DT_BF16)) || sa->type != DT_F32 || sbv->type != DT_F32 || A->count < m * k ||
	    B->count < n * k || C->count < m * n || sa->count < na || sbv->count < nb ||
	    (int8 && (!acc || acc->type != DT_I32 || acc->count < m * n)))
		return cudaErrorInvalidValue;
	cublaslt_gemm_job j = { .A = A->ptr, .Bt = B->ptr, .sa = sa->ptr, .sb = sbv->ptr, .C = C->ptr, .acc = acc ? acc->ptr : NULL,
	                        .m = (int)m, .n = (int)n, .k = (int)k, .c_bf16 = C->type == DT_BF16 };
	return int8 ? cublaslt_int8(&j, s) : kind == LT_FP8_TENSOR ? cublaslt_fp8_tensor(&j, s)
	     : kind == LT_FP8_TENSOR_FAST ? cublaslt_fp8_tensor_fast(&j, s) : cublaslt_fp8(&j, s);
}

/* cublaslt_gemm: row-major C (m x n) = A (m x k) . B, B k x n (transb 0) or n x k (transb 1), through
 * cuBLASLt as PyTorch's matmul: A and B both bf16, f16 or f32 (multiplied as TF32); C f32, or the
 * inputs' type for bf16 and f16. */
static cudaError_t lt_plain(const plan *p, gpu_data *d, cudaStream_t s)
{
	gpu_buffer *A = buf(p, d, "A"), *B = buf(p, d, "B"), *C = buf(p, d, "C");
	long long m = num(p, "m"), n = num(p, "n"), k = num(p, "k"), tb = num(p, "transb");
	if (!A || !B || !C || !dim_ok(m) || !dim_ok(n) || !dim_ok(k) || (tb != 0 && tb != 1) || A->type != B->type ||
	    A->count < m * k || B->count < k * n || C->count < m * n)
		return cudaErrorInvalidValue;
	const int format = A->type == DT_BF16 ? CUBLASLT_BF16 : A->type == DT_F16 ? CUBLASLT_F16 : A->type == DT_F32 ? CUBLASLT_TF32 : -1;
	if (format < 0 || (C->type != DT_F32 && (C->type != A->type || format == CUBLASLT_TF32))) return cudaErrorInvalidValue;
	cublaslt_gemm_job j = { .A = A->ptr, .Bt = B->ptr, .C = C->ptr, .m = (int)m, .n = (int)n, .k = (int)k, .format = format,
	                        .transb = (int)tb, .c_same = C->type != DT_F32 };
	return cublaslt_gemm(&j, s);
}

/* cublas_gemm_batched: for each b < batch, row-major C[b] (m x n) = alpha A[b] (m x k) op(B[b]), B[b]
 * k x n (transb 0) or n x k (transb 1: C = A B^T), the batches packed (strides m*k, k*n, m*n). A and B
 * both bf16 (C f32 or bf16) or all f32; FP32 compute, no TF32. Through the column-major trick: C^T =
 * op(B)^T A^T. */
static cudaError_t gemm_batched(const plan *p, gpu_data *d, cudaStream_t s)
{
	gpu_buffer *A = buf(p, d, "A"), *B = buf(p, d, "B"), *C = buf(p, d, "C");
	long long m = num(p, "m"), n = num(p, "n"), k = num(p, "k"), batch = num(p, "batch"), tb = num(p, "transb");
	const plan_arg *al = find(p, "alpha");
	if (!A || !B || !C || !al || al->kind == ARG_BUFFER || m < 1 || n < 1 || k < 1 || batch < 1 || (tb != 0 && tb != 1) ||
	    m > 0x7fffffff || n > 0x7fffffff || k > 0x7fffffff || batch > 0x7fffffff)
		return cudaErrorInvalidValue;
	if (A->type != B->type || (A->type != DT_BF16 && A->type != DT_F32) || (C->type != DT_F32 && C->type != DT_BF16) ||
	    (A->type == DT_F32 && C->type != DT_F32))
		return cudaErrorInvalidValue;
	if (A->count / batch < m * k || B->count / batch < k * n || C->count / batch < m * n) return cudaErrorInvalidValue;
	cudaError_t e = blas_on(s);
	if (e) return e;
	const float alpha = al->type == AT_F64 ? (float)al->v.f64 : (float)al->v.i64, zero = 0;
	cudaDataType ab = A->type == DT_BF16 ? CUDA_R_16BF : CUDA_R_32F, ct = C->type == DT_BF16 ? CUDA_R_16BF : CUDA_R_32F;
	return blas_error(fn.gemm_batched(blas, tb ? CUBLAS_OP_T : CUBLAS_OP_N, CUBLAS_OP_N, (int)n, (int)m, (int)k, &alpha,
	                                  B->ptr, ab, tb ? (int)k : (int)n, k * n, A->ptr, ab, (int)k, m * k, &zero, C->ptr, ct,
	                                  (int)n, m * n, (int)batch, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
}

/* An f32 buffer named name holding at least count elements, or NULL. */
static gpu_buffer *f32_buf(const plan *p, gpu_data *d, const char *name, long long count)
{
	gpu_buffer *b = buf(p, d, name);
	return b && b->type == DT_F32 && count >= 0 && b->count >= count ? b : NULL;
}

static int dim_ok(long long v)
{
	return v >= 1 && v <= 0x7fffffff;
}

/* cudnn_conv_bias_relu(_fused): a 1x1 convolution of x (n, c, h, w) by filter (k, c), + bias, ReLU. */
static cudaError_t conv_bias_relu(const plan *p, gpu_data *d, cudaStream_t s, int fused)
{
	long long n = num(p, "n"), c = num(p, "c"), k = num(p, "k"), h = num(p, "h"), w = num(p, "w");
	if (!dim_ok(n) || !dim_ok(c) || !dim_ok(k) || !dim_ok(h) || !dim_ok(w)) return cudaErrorInvalidValue;
	gpu_buffer *x = f32_buf(p, d, "x", n * c * h * w), *f = f32_buf(p, d, "filter", k * c), *b = f32_buf(p, d, "bias", k),
	           *y = f32_buf(p, d, "y", n * k * h * w);
	if (!x || !f || !b || !y) return cudaErrorInvalidValue;
	cudnn_conv_job j = { x->ptr, f->ptr, b->ptr, y->ptr, (int)n, (int)c, (int)k, (int)h, (int)w };
	return cudnn_conv_bias_relu(&j, fused, s);
}

/* cudnn_conv2d: a 3x3 convolution, padding 1, of x (n, c, h, w) by filter (k, c, 3, 3) into y (n, k, h, w). */
static cudaError_t conv2d_3x3(const plan *p, gpu_data *d, cudaStream_t s)
{
	long long n = num(p, "n"), c = num(p, "c"), k = num(p, "k"), h = num(p, "h"), w = num(p, "w");
	if (!dim_ok(n) || !dim_ok(c) || !dim_ok(k) || !dim_ok(h) || !dim_ok(w) || h * w > 0x7fffffff) return cudaErrorInvalidValue;
	gpu_buffer *x = f32_buf(p, d, "x", n * c * h * w), *f = f32_buf(p, d, "filter", k * c * 9), *y = f32_buf(p, d, "y", n * k * h * w);
	if (!x || !f || !y) return cudaErrorInvalidValue;
	return cudnn_conv2d_3x3(x->ptr, f->ptr, y->ptr, (int)n, (int)c, (int)k, (int)h, (int)w, s);
}

/* npp_gauss: a Gaussian blur of src (width x height, f32) into dst with the taps weights, borders
 * replicated. */
static cudaError_t gauss(const plan *p, gpu_data *d, cudaStream_t s)
{
	long long w = num(p, "width"), h = num(p, "height"), taps = num(p, "taps");
	if (!dim_ok(w) || !dim_ok(h) || !dim_ok(taps) || w * h / h != w) return cudaErrorInvalidValue;
	gpu_buffer *src = f32_buf(p, d, "src", w * h), *dst = f32_buf(p, d, "dst", w * h), *wt = f32_buf(p, d, "weights", taps);
	if (!src || !dst || !wt) return cudaErrorInvalidValue;
	npp_gauss_job j = { src->ptr, dst->ptr, (int)w, (int)h, wt->ptr, (int)taps };
	return npp_gauss(&j, s);
}

/* cusparse_spmv_csr: y = A x, A rows x cols in CSR (i32 row_ptr and col_idx, f32 values) with nnz nonzeros. */
static cudaError_t spmv(const plan *p, gpu_data *d, cudaStream_t s)
{
	long long rows = num(p, "rows"), cols = num(p, "cols"), nnz = num(p, "nnz");
	if (!dim_ok(rows) || !dim_ok(cols) || nnz < 0 || nnz > 0x7fffffff) return cudaErrorInvalidValue;
	gpu_buffer *rp = buf(p, d, "row_ptr"), *ci = buf(p, d, "col_idx");
	gpu_buffer *v = f32_buf(p, d, "values", nnz), *x = f32_buf(p, d, "x", cols), *y = f32_buf(p, d, "y", rows);
	if (!rp || !ci || !v || !x || !y || rp->type != DT_I32 || ci->type != DT_I32 || rp->count < rows + 1 || ci->count < nnz)
		return cudaErrorInvalidValue;
	cusparse_spmv_job j = { rp->ptr, ci->ptr, v->ptr, x->ptr, y->ptr, rows, cols, nnz };
	return cusparse_spmv(&j, s);
}

/* cublas_sgemv: y = A x in FP32, A row-major m x n (baseline_cublas_gemv.c). */
static cudaError_t sgemv(const plan *p, gpu_data *d, cudaStream_t s)
{
	long long m = num(p, "m"), n = num(p, "n");
	if (!dim_ok(m) || !dim_ok(n)) return cudaErrorInvalidValue;
	gpu_buffer *A = f32_buf(p, d, "A", m * n), *x = f32_buf(p, d, "x", n), *y = f32_buf(p, d, "y", m);
	if (!A || !x || !y) return cudaErrorInvalidValue;
	baseline_cublas_gemv_job j = { A->ptr, x->ptr, y->ptr, (int)m, (int)n };
	return baseline_cublas_gemv_run(&j, s);
}

/* cudnn_sdpa: attention forward over q, k, v (bf16 batch x heads x seq x dim) into o. */
static cudaError_t sdpa(const plan *p, gpu_data *d, cudaStream_t s)
{
	long long b = num(p, "batch"), h = num(p, "heads"), n = num(p, "seq"), dim = num(p, "dim");
	if (!dim_ok(b) || !dim_ok(h) || !dim_ok(n) || !dim_ok(dim) || b * h > 0x7fffffff || n * dim > 0x7fffffff) return cudaErrorInvalidValue;
	long long count = b * h * n * dim;
	const char *names[4] = { "q", "k", "v", "o" };
	gpu_buffer *t[4];
	for (int i = 0; i < 4; i++) {
		t[i] = buf(p, d, names[i]);
		if (!t[i] || t[i]->type != DT_BF16 || t[i]->count < count) return cudaErrorInvalidValue;
	}
	cudnn_sdpa_job j = { t[0]->ptr, t[1]->ptr, t[2]->ptr, t[3]->ptr, (int)b, (int)h, (int)n, (int)dim };
	return cudnn_sdpa(&j, s);
}

cudaError_t baseline_run(const plan *p, gpu_data *d, cudaStream_t s, char *err, size_t errlen)
{
	const char *lib = p->launches[0].entry;
	choice[0] = 0;
	if (!strcmp(lib, "memcpy")) {
		gpu_buffer *dst = buf(p, d, "dst"), *src = buf(p, d, "src");
		long long bytes = num(p, "bytes");
		if (!dst || !src || bytes < 0 || (size_t)bytes > dst->bytes || (size_t)bytes > src->bytes) return cudaErrorInvalidValue;
		return cudaMemcpyAsync(dst->ptr, src->ptr, (size_t)bytes, cudaMemcpyDeviceToDevice, s);
	}
	if (!strcmp(lib, "cub_reduce_sum")) {
		gpu_buffer *in = buf(p, d, "in"), *out = buf(p, d, "out");
		long long count = num(p, "count");
		if (!in || !out || count < 0 || count > in->count || in->type != out->type) return cudaErrorInvalidValue;
		int t = in->type == DT_I32 ? CC_CUB_I32 : in->type == DT_I64 ? CC_CUB_I64 : in->type == DT_F32 ? CC_CUB_F32
		      : in->type == DT_F64 ? CC_CUB_F64 : -1;
		if (t < 0) return cudaErrorInvalidValue;
		return (cudaError_t)cc_cub_reduce_sum(&cub_state, &cub_bytes, t, in->ptr, out->ptr, count, s);
	}
	if (!strcmp(lib, "cub_histogram_even")) {   /* u32 samples, bins u32 counters, even bins over [lower, upper) */
		gpu_buffer *in = buf(p, d, "in"), *out = buf(p, d, "out");
		long long count = num(p, "count"), bins = num(p, "bins"), lo = num(p, "lower"), hi = num(p, "upper");
		if (!in || !out || in->type != DT_U32 || out->type != DT_U32 || count < 0 || count > in->count || bins < 1 ||
		    bins > out->count || bins > (1 << 24) || lo < 0 || hi <= lo || hi > 0xffffffffLL)
			return cudaErrorInvalidValue;
		return (cudaError_t)cc_cub_histogram_even(&cub_state, &cub_bytes, in->ptr, out->ptr, (int)bins, (unsigned)lo,
		                                          (unsigned)hi, count, s);
	}
	if (!strcmp(lib, "cub_exclusive_sum")) {
		gpu_buffer *in = buf(p, d, "in"), *out = buf(p, d, "out");
		long long count = num(p, "count");
		if (!in || !out || count < 0 || count > in->count || count > out->count || in->type != out->type)
			return cudaErrorInvalidValue;
		int t = in->type == DT_I32 ? CC_CUB_SCAN_I32 : in->type == DT_U32 ? CC_CUB_SCAN_U32
		      : in->type == DT_I64 ? CC_CUB_SCAN_I64 : in->type == DT_U64 ? CC_CUB_SCAN_U64 : -1;
		if (t < 0) return cudaErrorInvalidValue;
		return (cudaError_t)cc_cub_exclusive_sum(&cub_state, &cub_bytes, t, in->ptr, out->ptr, count, s);
	}
	if (!strcmp(lib, "cublas_sgemm")) return sgemm(p, d, s);
	if (!strcmp(lib, "cublas_gemm_bf16")) return gemm_ex(p, d, s, 1);
	if (!strcmp(lib, "cublas_gemm_ex")) return gemm_ex(p, d, s, 0);
	if (!strcmp(lib, "cublaslt_fp8")) return lt_gemm(p, d, s, LT_FP8);
	if (!strcmp(lib, "cublaslt_fp8_tensor")) return lt_gemm(p, d, s, LT_FP8_TENSOR);
	if (!strcmp(lib, "cublaslt_fp8_tensor_fast")) return lt_gemm(p, d, s, LT_FP8_TENSOR_FAST);
	if (!strcmp(lib, "cublaslt_int8")) return lt_gemm(p, d, s, LT_INT8);
	if (!strcmp(lib, "cublaslt_gemm")) return lt_plain(p, d, s);
	if (!strcmp(lib, "cublas_gemm_batched")) return gemm_batched(p, d, s);
	if (!strcmp(lib, "cudnn_conv_bias_relu")) return conv_bias_relu(p, d, s, 0);
	if (!strcmp(lib, "cudnn_conv_bias_relu_fused")) return conv_bias_relu(p, d, s, 1);
	if (!strcmp(lib, "cudnn_conv2d")) return conv2d_3x3(p, d, s);
	if (!strcmp(lib, "cudnn_softmax")) {
		long long rows = num(p, "rows"), cols = num(p, "cols");
		if (!dim_ok(rows) || !dim_ok(cols)) return cudaErrorInvalidValue;
		gpu_buffer *x = f32_buf(p, d, "x", rows * cols), *y = f32_buf(p, d, "y", rows * cols);
		if (!x || !y) return cudaErrorInvalidValue;
		return cudnn_softmax_rows(x->ptr, y->ptr, (int)rows, (int)cols, s);
	}
	if (!strcmp(lib, "cudnn_sdpa")) return sdpa(p, d, s);
	if (!strcmp(lib, "npp_gauss")) return gauss(p, d, s);
	if (!strcmp(lib, "cusparse_spmv_csr")) return spmv(p, d, s);
	if (!strcmp(lib, "cublas_sgemv")) return sgemv(p, d, s);
	if (err) strfmt(err, errlen, "unknown library %s", lib);
	return cudaErrorInvalidValue;
}

void baseline_cleanup(void)
{
	if (blas) fn.destroy(blas);
	blas = NULL;
	cudaFree(cub_state);
	cub_state = NULL;
	cub_bytes = 0;
	cublaslt_cleanup();
	cudnn_sdpa_cleanup();   /* before the cuDNN handle it was built with goes */
	cudnn_baseline_cleanup();
	npp_baseline_cleanup();
	cusparse_baseline_cleanup();
	baseline_cublas_gemv_cleanup();
}
