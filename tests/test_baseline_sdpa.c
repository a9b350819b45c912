/* Tests for src/worker/baseline_sdpa.c that need no GPU: a job cuDNN could not run is refused before
 * the library is touched; where cuDNN cannot be loaded the baseline fails with
 * cudaErrorSharedObjectInitFailed and says once, on stderr, that it needs cuDNN 9; where cuDNN is there
 * but no GPU is, it fails with an error (no crash) and cleans up. (That it computes the right attention
 * is tests/gpu/attention.sh's business, against the lesson's reference stage.) */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "baseline_cudnn.h"
#include "baseline_sdpa.h"

static unsigned short q[64], k[64], v[64], o[64];

static cudnn_sdpa_job job(void)
{
	cudnn_sdpa_job j = { q, k, v, o, 1, 1, 4, 16 };
	return j;
}

static void test_bad_jobs(void **state)
{
	(void)state;
	cudnn_sdpa_job j = job();
	j.q = NULL;
	assert_int_equal(cudnn_sdpa(&j, 0), cudaErrorInvalidValue);
	j = job(); j.o = NULL;
	assert_int_equal(cudnn_sdpa(&j, 0), cudaErrorInvalidValue);
	j = job(); j.seq = 0;
	assert_int_equal(cudnn_sdpa(&j, 0), cudaErrorInvalidValue);
	j = job(); j.dim = -8;
	assert_int_equal(cudnn_sdpa(&j, 0), cudaErrorInvalidValue);
	j = job(); j.batch = 0;
	assert_int_equal(cudnn_sdpa(&j, 0), cudaErrorInvalidValue);
	assert_int_equal(cudnn_sdpa(NULL, 0), cudaErrorInvalidValue);
}

/* Runs cudnn_sdpa twice with stderr in a file; returns what it said (static storage). */
static const char *stderr_of_two_runs(cudaError_t *e1, cudaError_t *e2)
{
	static char text[8192];
	char path[] = "/tmp/cc-sdpa-XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	fflush(stderr);
	int saved = dup(2);
	dup2(fd, 2);
	cudnn_sdpa_job j = job();
	*e1 = cudnn_sdpa(&j, 0);
	*e2 = cudnn_sdpa(&j, 0);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	FILE *f = fopen(path, "r");
	size_t n = f ? fread(text, 1, sizeof text - 1, f) : 0;
	text[n] = 0;
	if (f) fclose(f);
	close(fd);
	unlink(path);
	return text;
}

/* cuDNN found by name: this machine has it (the missing-library test cannot run). */
static int cudnn_on_path(void)
{
	void *h = dlopen("libcudnn.so.9", RTLD_NOW | RTLD_LOCAL);
	if (h) dlclose(h);
	return h != NULL;
}

static void test_missing_library(void **state)
{
	(void)state;
	if (cudnn_on_path()) skip();
	setenv("CUDA_HOME", "/nonexistent/cudaclimb-test", 1);
	cudaError_t e1, e2;
	const char *said = stderr_of_two_runs(&e1, &e2);
	assert_int_equal(e1, cudaErrorSharedObjectInitFailed);
	assert_int_equal(e2, cudaErrorSharedObjectInitFailed);
	const char *first = strstr(said, "cuDNN not found");
	assert_non_null(first);
	assert_null(strstr(first + 1, "cuDNN not found"));   /* said once */
	assert_non_null(strstr(said, "libcudnn.so.9"));
	cudnn_sdpa_cleanup();
	cudnn_baseline_cleanup();
}

/* cuDNN is here and no GPU is: the handle cannot be made, which is an error, said on stderr. */
static void test_no_gpu(void **state)
{
	(void)state;
	int n = 0;
	if (!cudnn_on_path() || (cudaGetDeviceCount(&n) == cudaSuccess && n > 0)) skip();
	cudaError_t e1, e2;
	const char *said = stderr_of_two_runs(&e1, &e2);
	assert_int_not_equal(e1, cudaSuccess);
	assert_int_not_equal(e2, cudaSuccess);
	assert_non_null(strstr(said, "cudnnCreate"));
	cudnn_sdpa_cleanup();
	cudnn_baseline_cleanup();
	cudnn_sdpa_cleanup();   /* twice is harmless */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bad_jobs),
		cmocka_unit_test(test_missing_library),
		cmocka_unit_test(test_no_gpu),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
