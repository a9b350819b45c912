/* Tests for src/worker/baseline_npp.c that need no GPU: a job NPP could not run is refused before the
 * library is touched, and where NPP cannot be loaded the baseline fails with
 * cudaErrorSharedObjectInitFailed and says once, on stderr, which libraries it needs. (That it
 * computes the right blur is tests/gpu/stencil.sh's business, against the lesson's own kernels.) */
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

#include "baseline_npp.h"

static float a[4], b[4], w[3];

static npp_gauss_job job(void)
{
	npp_gauss_job j = { a, b, 2, 2, w, 3 };
	return j;
}

static void test_bad_jobs(void **state)
{
	(void)state;
	npp_gauss_job j = job();
	j.taps = 2;   /* taps are 2R + 1: odd */
	assert_int_equal(npp_gauss(&j, 0), cudaErrorInvalidValue);
	j = job(); j.taps = 0;
	assert_int_equal(npp_gauss(&j, 0), cudaErrorInvalidValue);
	j = job(); j.width = 0;
	assert_int_equal(npp_gauss(&j, 0), cudaErrorInvalidValue);
	j = job(); j.height = -3;
	assert_int_equal(npp_gauss(&j, 0), cudaErrorInvalidValue);
	j = job(); j.width = 0x7fffffff / 4 + 1;   /* its row would not fit NPP's 32-bit step */
	assert_int_equal(npp_gauss(&j, 0), cudaErrorInvalidValue);
	j = job(); j.src = NULL;
	assert_int_equal(npp_gauss(&j, 0), cudaErrorInvalidValue);
	j = job(); j.weights = NULL;
	assert_int_equal(npp_gauss(&j, 0), cudaErrorInvalidValue);
}

/* Runs npp_gauss twice with stderr in a file; returns what it said (static storage). */
static const char *stderr_of_two_runs(cudaError_t *e1, cudaError_t *e2)
{
	static char text[4096];
	char path[] = "/tmp/cc-npp-XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	fflush(stderr);
	int saved = dup(2);
	dup2(fd, 2);
	npp_gauss_job j = job();
	*e1 = npp_gauss(&j, 0);
	*e2 = npp_gauss(&j, 0);
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

static void test_missing_library(void **state)
{
	(void)state;
	void *h = dlopen("libnppc.so.13", RTLD_NOW | RTLD_LOCAL);
	if (h) {   /* NPP is on the loader's path here: it cannot be made missing */
		dlclose(h);
		skip();
	}
	setenv("CUDA_HOME", "/nonexistent/cudaclimb-test", 1);
	cudaError_t e1, e2;
	const char *said = stderr_of_two_runs(&e1, &e2);
	assert_int_equal(e1, cudaErrorSharedObjectInitFailed);
	assert_int_equal(e2, cudaErrorSharedObjectInitFailed);
	const char *first = strstr(said, "NPP not found");
	assert_non_null(first);
	assert_null(strstr(first + 1, "NPP not found"));   /* said once */
	assert_non_null(strstr(said, "libnppc.so.13, libnppif.so.13"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bad_jobs),
		cmocka_unit_test(test_missing_library),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
