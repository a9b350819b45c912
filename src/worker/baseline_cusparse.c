/* baseline_cusparse: cuSPARSE's generic SpMV on a CSR matrix, loaded with dlopen the first time the
 * baseline runs. The few types and values used are declared here from cusparse.h's documented C
 * signatures (cusparseCreate, cusparseSetStream, cusparseGetVersion, cusparseCreateCsr,
 * cusparseCreateDnVec, cusparseSpMV_bufferSize, cusparseSpMV, and the destroy calls), so building needs
 * no cuSPARSE header; where it is present, the values are checked against it at compile time.
 *
 * CUSPARSE_SPMV_CSR_ALG2 rather than ALG1 (the default): ALG2 gives the same bits on every run, so the
 * baseline's errors against the reference do not wander between runs, and it is the algorithm NVIDIA
 * describes for matrices whose rows differ widely in length, which the power-law matrix has. */
#include "baseline_cusparse.h"
#include "gpu.h"
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int sp_status;           /* cusparseStatus_t: 0 success */
typedef void *sp_handle;         /* cusparseHandle_t */
typedef void *sp_mat;            /* cusparseSpMatDescr_t */
typedef void *sp_vec;            /* cusparseDnVecDescr_t */

enum { SP_OK = 0, SP_INDEX_32I = 2, SP_BASE_ZERO = 0, SP_NON_TRANSPOSE = 0, SP_CSR_ALG2 = 3, SP_R_32F = 0 };

#if defined(__has_include)
#if __has_include(<cusparse.h>)
#define DISABLE_CUSPARSE_DEPRECATED   /* the header marks its old types; we use none of them */
#include <cusparse.h>
_Static_assert((int)SP_OK == (int)CUSPARSE_STATUS_SUCCESS && (int)SP_INDEX_32I == (int)CUSPARSE_INDEX_32I &&
               (int)SP_BASE_ZERO == (int)CUSPARSE_INDEX_BASE_ZERO && (int)SP_NON_TRANSPOSE == (int)CUSPARSE_OPERATION_NON_TRANSPOSE &&
               (int)SP_CSR_ALG2 == (int)CUSPARSE_SPMV_CSR_ALG2 && (int)SP_R_32F == (int)CUDA_R_32F, "cuSPARSE values");
#endif
#endif

static struct {
	sp_status (*create)(sp_handle *);
	sp_status (*destroy)(sp_handle);
	sp_status (*version)(sp_handle, int *);
	sp_status (*set_stream)(sp_handle, cudaStream_t);
	sp_status (*create_csr)(sp_mat *, int64_t, int64_t, int64_t, void *, void *, void *, int, int, int, int);
	sp_status (*create_vec)(sp_vec *, int64_t, void *, int);
	sp_status (*destroy_mat)(sp_mat);
	sp_status (*destroy_vec)(sp_vec);
	sp_status (*buffer_size)(sp_handle, int, const void *, sp_mat, sp_vec, const void *, sp_vec, int, int, size_t *);
	sp_status (*spmv)(sp_handle, int, const void *, sp_mat, sp_vec, const void *, sp_vec, int, int, void *);
} fn;

static void *lib;
static int lib_failed;
static sp_handle handle;

/* The descriptors and workspace of the last shape and pointers. */
static struct {
	cusparse_spmv_job j;
	sp_mat A;
	sp_vec x, y;
	void *work;
	size_t work_bytes;
} cur;



/* Loads libcusparse.so.12, its entry points and a handle once; 0, or -1 after saying why on stderr (once). */
static int load(void)
{
	if (handle) return 0;
	if (lib_failed) return -1;
	lib_failed = 1;
	char why[512] = "withheld by CUDACLIMB_WITHOUT";
	void *h = lib ? lib : baseline_withheld("cusparse") ? NULL : baseline_dlopen_path("libcusparse.so.12", why, sizeof why);
	if (!h) {
		fprintf(stderr, "cudaclimb worker: cuSPARSE not found (%s): the cusparse_spmv_csr baseline needs libcusparse.so.12\n", why);
		return -1;
	}
	static const char *const names[] = { "cusparseCreate", "cusparseDestroy", "cusparseGetVersion", "cusparseSetStream",
	                                     "cusparseCreateCsr", "cusparseCreateDnVec", "cusparseDestroySpMat", "cusparseDestroyDnVec",
	                                     "cusparseSpMV_bufferSize", "cusparseSpMV" };
	void **slots[] = { (void **)&fn.create, (void **)&fn.destroy, (void **)&fn.version, (void **)&fn.set_stream,
	                   (void **)&fn.create_csr, (void **)&fn.create_vec, (void **)&fn.destroy_mat, (void **)&fn.destroy_vec,
	                   (void **)&fn.buffer_size, (void **)&fn.spmv };
	for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
		if ((*slots[i] = dlsym(h, names[i]))) continue;
		fprintf(stderr, "cudaclimb worker: this cuSPARSE lacks %s: the cusparse_spmv_csr baseline needs cuSPARSE 12\n", names[i]);
		if (h != lib) dlclose(h);
		return -1;
	}
	lib = h;
	sp_status st = fn.create(&handle);
	if (st != SP_OK) {
		fprintf(stderr, "cudaclimb worker: cusparseCreate: cuSPARSE status %d\n", st);
		handle = NULL;
		return -1;
	}
	int v = 0;
	if (baseline_logging() && fn.version(handle, &v) == SP_OK) fprintf(stderr, "cudaclimb worker: cuSPARSE %d.%d.%d loaded\n", v / 1000, v % 1000 / 100, v % 100);
	lib_failed = 0;
	return 0;
}

static void drop_shape(void)
{
	if (cur.A) fn.destroy_mat(cur.A);
	if (cur.x) fn.destroy_vec(cur.x);
	if (cur.y) fn.destroy_vec(cur.y);
	cudaFree(cur.work);
	memset(&cur, 0, sizeof cur);
}

static cudaError_t failed(const char *call, sp_status st, const cusparse_spmv_job *j)
{
	fprintf(stderr, "cudaclimb worker: %s (%lld x %lld, nnz %lld): cuSPARSE status %d\n", call, (long long)j->rows, (long long)j->cols,
	        (long long)j->nnz, st);
	drop_shape();
	return cudaErrorInvalidValue;
}

/* The descriptors and workspace for j, made when the shape or a pointer changed. */
static cudaError_t shape(const cusparse_spmv_job *j, const float *alpha, const float *beta)
{
	if (cur.A && !memcmp(&cur.j, j, sizeof *j)) return cudaSuccess;
	drop_shape();
	sp_status st;
	if ((st = fn.create_csr(&cur.A, j->rows, j->cols, j->nnz, (void *)j->row_ptr, (void *)j->col_idx, (void *)j->values, SP_INDEX_32I,
	                        SP_INDEX_32I, SP_BASE_ZERO, SP_R_32F)) != SP_OK)
		return failed("cusparseCreateCsr", st, j);
	if ((st = fn.create_vec(&cur.x, j->cols, (void *)j->x, SP_R_32F)) != SP_OK) return failed("cusparseCreateDnVec", st, j);
	if ((st = fn.create_vec(&cur.y, j->rows, j->y, SP_R_32F)) != SP_OK) return failed("cusparseCreateDnVec", st, j);
	size_t bytes = 0;
	if ((st = fn.buffer_size(handle, SP_NON_TRANSPOSE, alpha, cur.A, cur.x, beta, cur.y, SP_R_32F, SP_CSR_ALG2, &bytes)) != SP_OK)
		return failed("cusparseSpMV_bufferSize", st, j);
	if (bytes) {
		cudaError_t e = cudaMalloc(&cur.work, bytes);
		if (e) { drop_shape(); return e; }
	}
	cur.work_bytes = bytes;
	cur.j = *j;
	if (baseline_logging()) fprintf(stderr, "cudaclimb worker: cuSPARSE SpMV CSR_ALG2 for %lld x %lld, nnz %lld: %zu bytes of workspace\n",
	                       (long long)j->rows, (long long)j->cols, (long long)j->nnz, bytes);
	return cudaSuccess;
}

cudaError_t cusparse_spmv(const cusparse_spmv_job *j, cudaStream_t s)
{
	if (!j->row_ptr || !j->col_idx || !j->values || !j->x || !j->y || j->rows < 1 || j->cols < 1 || j->nnz < 0 ||
	    j->rows > 0x7fffffff || j->cols > 0x7fffffff || j->nnz > 0x7fffffff)
		return cudaErrorInvalidValue;
	if (load()) return cudaErrorSharedObjectInitFailed;
	const float alpha = 1.f, beta = 0.f;
	cudaError_t e = shape(j, &alpha, &beta);
	if (e) return e;
	sp_status st = fn.set_stream(handle, s);
	if (st == SP_OK) st = fn.spmv(handle, SP_NON_TRANSPOSE, &alpha, cur.A, cur.x, &beta, cur.y, SP_R_32F, SP_CSR_ALG2, cur.work);
	if (st != SP_OK) return failed("cusparseSpMV", st, j);
	return cudaSuccess;
}

void cusparse_baseline_cleanup(void)
{
	if (!lib) return;
	drop_shape();
	if (handle) fn.destroy(handle);
	handle = NULL;
}
