/* Tests for src/worker/baseline_pick.c (no GPU): the key of a choice names the library, its version,
 * the shape and the GPU; the fastest candidate is the smallest median, failed trials put a candidate
 * out; a choice is kept in memory and in the cache folder's file, where a later worker (here: after
 * baseline_pick_reset) finds it, the last line of a key winning; CUDACLIMB_BASELINE_REPICK ignores it. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "baseline_pick.h"
#include "util.h"

static char dir[] = "/tmp/cc-pick-XXXXXX";

static void test_key(void **state)
{
	(void)state;
	char key[BASELINE_PICK_KEY_MAX];
	const long long dims[3] = { 4096, 4096, 8192 };
	assert_int_equal(baseline_pick_key(key, sizeof key, "cublaslt fp8", 130100, dims, 3, "b1b4f2"), 0);
	assert_string_equal(key, "cublaslt_fp8 v130100 4096,4096,8192 @b1b4f2");
	assert_int_equal(baseline_pick_key(key, sizeof key, "conv", 90800, dims, 1, NULL), 0);
	assert_string_equal(key, "conv v90800 4096 @unknown");
	char small[12];
	assert_int_equal(baseline_pick_key(small, sizeof small, "cublaslt_fp8", 1, dims, 3, "x"), -1);
}

static void test_fastest(void **state)
{
	(void)state;
	/* medians: 2, 1.5 (one slow outlier does not move it), out (a failed trial), 1.5 (ties: the first) */
	const float ms[4 * 3] = { 2, 2, 2, 1.5f, 9, 1.4f, 0.1f, -1, 0.1f, 1.5f, 1.5f, 1.6f };
	float best = 0;
	assert_int_equal(baseline_pick_fastest(ms, 4, 3, &best), 1);
	assert_true(best == 1.5f);
	const float none[2] = { -1, -1 };
	assert_int_equal(baseline_pick_fastest(none, 2, 1, NULL), -1);
	assert_int_equal(baseline_pick_fastest(ms, 0, 3, NULL), -1);
	const float even[4] = { 3, 1, 2, 2 };   /* medians 2 and 2: the first */
	assert_int_equal(baseline_pick_fastest(even, 2, 2, NULL), 0);
	/* the library's first choice stays unless another is more than 3% faster: 2% is noise, 5% is not */
	const float near[6] = { 1, 1, 1, 0.98f, 0.98f, 0.98f }, clear[6] = { 1, 1, 1, 0.95f, 0.95f, 0.95f };
	assert_int_equal(baseline_pick_fastest(near, 2, 3, &best), 0);
	assert_true(best == 1.0f);
	assert_int_equal(baseline_pick_fastest(clear, 2, 3, &best), 1);
	/* a failed first choice leaves the fastest of the rest */
	const float failed[6] = { 1, -1, 1, 2, 2, 2 };
	assert_int_equal(baseline_pick_fastest(failed, 2, 3, NULL), 1);
}

static void test_kept(void **state)
{
	(void)state;
	long long v = -1;
	char desc[BASELINE_PICK_DESC_MAX];
	baseline_pick_reset();
	assert_int_equal(baseline_pick_get("a v1 1 @g", &v, desc, sizeof desc), 0);
	baseline_pick_put("a v1 1 @g", 3, "algorithm 3\tof 8");
	baseline_pick_put("b v1 1 @g", 5, "five");
	assert_int_equal(baseline_pick_get("a v1 1 @g", &v, desc, sizeof desc), 1);
	assert_int_equal(v, 3);
	assert_string_equal(desc, "algorithm 3 of 8");
	/* a later worker reads the file */
	baseline_pick_reset();
	assert_int_equal(baseline_pick_get("b v1 1 @g", &v, NULL, 0), 1);
	assert_int_equal(v, 5);
	baseline_pick_put("a v1 1 @g", 7, "seven");
	baseline_pick_reset();
	assert_int_equal(baseline_pick_get("a v1 1 @g", &v, desc, sizeof desc), 1);
	assert_int_equal(v, 7);
	assert_string_equal(desc, "seven");
	assert_int_equal(baseline_pick_get("a v2 1 @g", &v, NULL, 0), 0);   /* another version: not the same choice */
	setenv("CUDACLIMB_BASELINE_REPICK", "1", 1);
	assert_int_equal(baseline_pick_get("a v1 1 @g", &v, NULL, 0), 0);
	unsetenv("CUDACLIMB_BASELINE_REPICK");
	/* a malformed line is skipped, the rest read */
	char *path = xasprintf("%s/cudaclimb/baseline-picks.txt", dir);
	FILE *f = fopen(path, "a");
	assert_non_null(f);
	fputs("no tabs here\nc v1 1 @g\tnot a number\tx\nd v1 1 @g\t9\tnine\n", f);
	fclose(f);
	baseline_pick_reset();
	assert_int_equal(baseline_pick_get("c v1 1 @g", &v, NULL, 0), 0);
	assert_int_equal(baseline_pick_get("d v1 1 @g", &v, NULL, 0), 1);
	assert_int_equal(v, 9);
	unlink(path);
	free(path);
}

int main(void)
{
	if (!mkdtemp(dir)) return 1;
	setenv("XDG_CACHE_HOME", dir, 1);
	unsetenv("CUDACLIMB_BASELINE_REPICK");
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_key),
		cmocka_unit_test(test_fastest),
		cmocka_unit_test(test_kept),
	};
	int rc = cmocka_run_group_tests(tests, NULL, NULL);
	char *sub = xasprintf("%s/cudaclimb", dir);
	rmdir(sub);
	free(sub);
	rmdir(dir);
	return rc;
}
