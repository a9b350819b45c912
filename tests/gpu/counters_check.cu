/* counters_check: src/worker/counters.cpp against kernels whose counters are known, on a real GPU.
 *
 *   nvcc -std=c++17 -arch=sm_90 -Isrc/core -Isrc/lesson -Isrc/engine -Isrc/runner -Isrc/worker -Isrc/app tests/gpu/counters_check.cu src/worker/counters.cpp src/worker/cupti_util.cpp -o /tmp/cc && /tmp/cc
 *   /tmp/cc --kv our.kv            also writes "kernel metric value" lines (scripts/ncu-compare.sh)
 *   /tmp/cc --plain                runs each kernel once without CUPTI, for ncu to profile
 *
 * Prints "PASS name" / "FAIL name: why" lines, then "N passed, N failed"; exits 1 on any failure. */
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <mma.h>

#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>

#include "counters.h"

/* run_result's table functions live in the engine; this check needs only the struct. */
static void result_reset(run_result *r)
{
	memset(r, 0, sizeof *r);
	double *f[] = {&r->achieved_occupancy, &r->dram_bytes_read, &r->dram_bytes_write, &r->dram_pct,
	               &r->l1_hit_pct, &r->l2_hit_pct, &r->smem_conflicts_ld, &r->smem_conflicts_st,
	               &r->warp_efficiency, &r->branch_uniform_pct, &r->sm_pct, &r->tensor_pct};
	for (double *p : f)
		*p = -1;
}

/* ---- kernels ---- */

__global__ void copy_coalesced(const float *in, float *out, long n)
{
	long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		out[i] = in[i];
}

/* Reads every STRIDE-th float: one 32-byte sector per 4 useful bytes. */
__global__ void copy_strided(const float *in, float *out, long n, int stride)
{
	long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		out[i] = in[i * stride];
}

/* A 32x32 block: each warp (fixed y) stores and loads a column of tile, so all 32 lanes hit one bank
 * (32-way conflicts); PAD 1 makes the row 33 words and the column conflict-free. Plain wrappers give
 * the kernels distinct names in ncu. */
template <int PAD>
__device__ void smem_tile(const float *in, float *out)
{
	__shared__ float tile[32][32 + PAD];
	int x = threadIdx.x, y = threadIdx.y;
	long g = ((long)blockIdx.x * 32 + y) * 32 + x;
	tile[x][y] = in[g];
	__syncthreads();
	out[g] = tile[x][(y + 1) & 31];
}
__global__ void smem_conflict(const float *in, float *out) { smem_tile<0>(in, out); }
__global__ void smem_padded(const float *in, float *out) { smem_tile<1>(in, out); }

/* DIVERGE: odd and even lanes take different loops; otherwise the choice is per block (uniform). */
template <bool DIVERGE>
__device__ void branch(float *out, int iters)
{
	long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
	float x = (float)(i & 1023) * 1e-3f;
	unsigned pick = DIVERGE ? threadIdx.x : blockIdx.x;
	if (pick & 1) {
		for (int k = 0; k < iters; k++)
			x = fmaf(x, 0.999f, 0.5f);
	} else {
		for (int k = 0; k < iters; k++)
			x = __sinf(x) * 1.5f + 0.25f;   /* MUFU, no hidden branch */
	}
	out[i] = x;
}
__global__ void branch_divergent(float *out, int iters) { branch<true>(out, iters); }
__global__ void branch_uniform(float *out, int iters) { branch<false>(out, iters); }

/* A chain of WMMA products per warp (HMMA on the tensor pipe), on zeros. */
__global__ void tensor_mma(const half *a, float *out, int iters)
{
	using namespace nvcuda::wmma;
	fragment<matrix_a, 16, 16, 16, half, row_major> fa;
	fragment<matrix_b, 16, 16, 16, half, col_major> fb;
	fragment<accumulator, 16, 16, 16, float> acc;
	load_matrix_sync(fa, a, 16);
	load_matrix_sync(fb, a, 16);
	fill_fragment(acc, 0.0f);
	for (int k = 0; k < iters; k++)
		mma_sync(acc, fa, fb, acc);
	long warp = ((long)blockIdx.x * blockDim.x + threadIdx.x) / 32;
	store_matrix_sync(out + warp * 256, acc, 16, mem_row_major);
}

/* ---- launches ---- */

enum which { K_COPY, K_COPY_TWICE, K_STRIDED, K_CONFLICT, K_PADDED, K_DIVERGENT, K_UNIFORM, K_TENSOR };

struct job {
	which k;
	float *a, *b, *big;
	long n;        /* elements copied */
	int stride;
	long tiles;    /* smem: 32x32 tiles */
	long threads;  /* branch */
};

static int launch(void *p)
{
	const job *j = (const job *)p;
	switch (j->k) {
	case K_COPY:
		copy_coalesced<<<(unsigned)((j->n + 255) / 256), 256>>>(j->a, j->b, j->n);
		break;
	case K_COPY_TWICE: /* one range, two kernels: bytes add up */
		copy_coalesced<<<(unsigned)((j->n + 255) / 256), 256>>>(j->a, j->b, j->n);
		copy_coalesced<<<(unsigned)((j->n + 255) / 256), 256>>>(j->b, j->a, j->n);
		break;
	case K_STRIDED:
		copy_strided<<<(unsigned)((j->n + 255) / 256), 256>>>(j->big, j->b, j->n, j->stride);
		break;
	case K_CONFLICT:
		smem_conflict<<<(unsigned)j->tiles, dim3(32, 32)>>>(j->a, j->b);
		break;
	case K_PADDED:
		smem_padded<<<(unsigned)j->tiles, dim3(32, 32)>>>(j->a, j->b);
		break;
	case K_DIVERGENT:
		branch_divergent<<<(unsigned)(j->threads / 256), 256>>>(j->b, 256);
		break;
	case K_UNIFORM:
		branch_uniform<<<(unsigned)(j->threads / 256), 256>>>(j->b, 256);
		break;
	case K_TENSOR:
		tensor_mma<<<(unsigned)(j->threads / 256), 256>>>((const half *)j->a, j->b, 2048);
		break;
	}
	return (int)cudaGetLastError();
}

/* ---- checks ---- */

static int npass, nfail;
static FILE *kv;

static void check(const char *name, bool ok, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void check(const char *name, bool ok, const char *fmt, ...)
{
	if (ok) {
		printf("PASS %s\n", name);
		npass++;
		return;
	}
	char why[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(why, sizeof why, fmt, ap);
	va_end(ap);
	printf("FAIL %s: %s\n", name, why);
	nfail++;
}

static void show(const char *label, const run_result *r)
{
	printf("  %-15s occ %.3f  dram rd %.4g wr %.4g (%.1f%%)  L1 %.1f%% L2 %.1f%%  conflicts ld %.4g st %.4g  "
	       "warp eff %.2f  uniform %.1f%%  sm %.1f%%  tensor %.1f%%  passes %d  %.0f ms\n"
	       "  %-15s stalls: %s\n",
	       label, r->achieved_occupancy, r->dram_bytes_read, r->dram_bytes_write, r->dram_pct, r->l1_hit_pct,
	       r->l2_hit_pct, r->smem_conflicts_ld, r->smem_conflicts_st, r->warp_efficiency, r->branch_uniform_pct,
	       r->sm_pct, r->tensor_pct, r->counter_passes, r->counter_ms, "", r->stalls);
}

/* Measures one job (after a warm-up launch so caches and clocks are in their steady state). */
static bool measure(counters *c, const char *label, job *j, run_result *r)
{
	result_reset(r);
	launch(j);
	cudaDeviceSynchronize();
	char err[256];
	int rc = counters_measure(c, launch, j, r, err, sizeof err);
	if (rc != 0) {
		check(label, false, "counters_measure returned %d: %s", rc, err);
		return false;
	}
	show(label, r);
	if (kv) {
		const char *names[64];
		double values[64];
		int n = counters_values(c, names, values, 64);
		for (int i = 0; i < n; i++)
			fprintf(kv, "%s %s %.17g\n", label, names[i], values[i]);
	}
	return true;
}

static double rel(double a, double b) { return b != 0 ? fabs(a - b) / fabs(b) : INFINITY; }

int main(int argc, char **argv)
{
	const char *kv_path = NULL;
	bool plain = false;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--kv") && i + 1 < argc)
			kv_path = argv[++i];
		else if (!strcmp(argv[i], "--plain"))
			plain = true;
		else {
			fprintf(stderr, "usage: %s [--kv FILE] [--plain]\n", argv[0]);
			return 2;
		}
	}
	if (cudaSetDevice(0) != cudaSuccess || cudaFree(0) != cudaSuccess) {
		printf("FAIL setup: no CUDA device\n0 passed, 1 failed\n");
		return 1;
	}
	cudaDeviceProp prop;
	cudaGetDeviceProperties(&prop, 0);
	printf("device: %s, %d SMs, L2 %d MB\n", prop.name, prop.multiProcessorCount, prop.l2CacheSize >> 20);

	const long n = 64L << 20;           /* 256 MB per array: well past the 50 MB L2 */
	const int stride = 8;
	const long ns = 16L << 20;           /* strided: 16M elements out of a 512 MB array */
	job j = {};
	j.n = n;
	j.stride = stride;
	j.tiles = n / 1024;
	j.threads = 132L * 2048 * 8;
	if (cudaMalloc(&j.a, n * 4) || cudaMalloc(&j.b, n * 4) || cudaMalloc(&j.big, ns * stride * 4)) {
		printf("FAIL setup: cudaMalloc\n0 passed, 1 failed\n");
		return 1;
	}
	cudaMemset(j.a, 0, n * 4);
	cudaMemset(j.big, 0, ns * stride * 4);

	if (plain) { /* for ncu: each kernel once, names as the measured labels */
		which all[] = {K_COPY, K_STRIDED, K_CONFLICT, K_PADDED, K_DIVERGENT, K_UNIFORM, K_TENSOR};
		for (which k : all) {
			j.k = k;
			j.n = k == K_STRIDED ? ns : n;
			launch(&j);
		}
		cudaError_t e = cudaDeviceSynchronize();
		printf("plain run: %s\n", cudaGetErrorString(e));
		return e != cudaSuccess;
	}

	/* the permission path, through the test hook */
	{
		char why[512];
		setenv("CUDACLIMB_FAKE_CUPTI_ERROR", "35", 1);
		counters *f = counters_open(0, why, sizeof why);
		unsetenv("CUDACLIMB_FAKE_CUPTI_ERROR");
		check("fake_permission", !f && strstr(why, "NVreg_RestrictProfilingToAdminUsers=0"), "got %p: %s",
		      (void *)f, why);
		counters_close(f);
	}

	char why[512];
	struct timespec a, b;
	clock_gettime(CLOCK_MONOTONIC, &a);
	counters *c = counters_open(0, why, sizeof why);
	clock_gettime(CLOCK_MONOTONIC, &b);
	if (!c) {
		check("open", false, "%s", why);
		printf("%d passed, %d failed\n", npass, nfail);
		return 1;
	}
	printf("PASS open (%d passes per measurement; open took %.0f ms)\n", counters_passes(c),
	       (b.tv_sec - a.tv_sec) * 1e3 + (b.tv_nsec - a.tv_nsec) / 1e6);
	npass++;
	if (kv_path && !(kv = fopen(kv_path, "w")))
		perror(kv_path);

	run_result r, r2;
	j.k = K_COPY;
	j.n = n;
	if (measure(c, "copy_coalesced", &j, &r)) {
		double model = 2.0 * 4 * n, got = r.dram_bytes_read + r.dram_bytes_write;
		check("copy_coalesced_bytes", rel(got, model) <= 0.05, "DRAM %.4g bytes, model %.4g (%.1f%% off)", got,
		      model, 100 * rel(got, model));
		check("copy_coalesced_occupancy", r.achieved_occupancy > 0.5 && r.achieved_occupancy <= 1.0,
		      "achieved occupancy %.3f", r.achieved_occupancy);
		j.k = K_COPY_TWICE;
		if (measure(c, "copy_twice_range", &j, &r2)) {
			double got2 = r2.dram_bytes_read + r2.dram_bytes_write;
			check("range_sums_kernels", rel(got2, 2 * got) <= 0.05, "two copies %.4g bytes, one %.4g", got2, got);
		}
	}
	j.k = K_STRIDED;
	j.n = ns;
	if (measure(c, "copy_strided", &j, &r)) {
		double model = 2.0 * 4 * ns, got = r.dram_bytes_read + r.dram_bytes_write;
		check("copy_strided_bytes", got >= 2 * model, "DRAM %.4g bytes, only %.2fx the model %.4g", got,
		      got / model, model);
	}
	j.n = n;
	j.k = K_CONFLICT;
	if (measure(c, "smem_conflict", &j, &r)) {
		j.k = K_PADDED;
		if (measure(c, "smem_padded", &j, &r2)) {
			double warps = (double)j.tiles * 32; /* one store and one load instruction per warp */
			check("smem_conflicts", r.smem_conflicts_ld >= 16 * warps && r.smem_conflicts_st >= 16 * warps,
			      "ld %.4g st %.4g, expected about 31 per warp access (%.4g)", r.smem_conflicts_ld,
			      r.smem_conflicts_st, 31 * warps);
			double pad = r2.smem_conflicts_ld + r2.smem_conflicts_st;
			check("smem_padded_no_conflicts", pad <= 0.01 * (r.smem_conflicts_ld + r.smem_conflicts_st),
			      "padded tile still has %.4g conflicts", pad);
		}
	}
	j.k = K_DIVERGENT;
	if (measure(c, "branch_divergent", &j, &r)) {
		check("divergent_efficiency", r.warp_efficiency > 0 && r.warp_efficiency < 32 * 0.75,
		      "warp efficiency %.2f", r.warp_efficiency);
		j.k = K_UNIFORM;
		if (measure(c, "branch_uniform", &j, &r2))
			check("uniform_efficiency", fabs(r2.warp_efficiency - 32) <= 0.5, "warp efficiency %.2f",
			      r2.warp_efficiency);
	}
	/* measuring twice in one context works (enable/disable per measure) */
	j.k = K_COPY;
	if (measure(c, "copy_again", &j, &r2)) {
		double got = r2.dram_bytes_read + r2.dram_bytes_write;
		check("second_measure", rel(got, 2.0 * 4 * n) <= 0.05, "DRAM %.4g bytes", got);
		check("tensor_idle_in_copy", r2.tensor_pct >= 0 && r2.tensor_pct < 1, "tensor %.1f%%", r2.tensor_pct);
	}
	j.k = K_TENSOR;
	if (measure(c, "tensor_mma", &j, &r))
		check("tensor_busy", r.tensor_pct > 10, "tensor pipe %.1f%%", r.tensor_pct);
	/* an error in the launch stops the replay and comes back */
	{
		j.k = K_COPY;
		auto bad = [](void *) { return (int)cudaErrorInvalidValue; };
		char err[256];
		result_reset(&r);
		int rc = counters_measure(c, bad, &j, &r, err, sizeof err);
		check("launch_error", rc == (int)cudaErrorInvalidValue && r.counter_passes == 1, "rc %d passes %d: %s", rc,
		      r.counter_passes, err);
	}
	counters_close(c);
	if (kv)
		fclose(kv);
	printf("%d passed, %d failed\n", npass, nfail);
	return nfail ? 1 : 0;
}
