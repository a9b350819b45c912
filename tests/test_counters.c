/* counters: the paths that need no GPU. The permission error is simulated the way a test build of
 * the CUPTI wrapper allows (CUDACLIMB_FAKE_CUPTI_ERROR makes its first CUPTI call return that code). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>
#include "counters.h"

static void test_permission_message(void **state)
{
	(void)state;
	char why[256] = "";
	setenv("CUDACLIMB_FAKE_CUPTI_ERROR", "35", 1);   /* CUPTI_ERROR_INSUFFICIENT_PRIVILEGES */
	counters *c = counters_open(0, why, sizeof why);
	unsetenv("CUDACLIMB_FAKE_CUPTI_ERROR");
	assert_null(c);
	assert_non_null(strstr(why, "permission"));
	assert_non_null(strstr(why, "NVreg_RestrictProfilingToAdminUsers=0"));
	assert_null(strchr(why, '\n'));                   /* one line */
}

static void test_other_error_is_one_line(void **state)
{
	(void)state;
	char why[256] = "";
	setenv("CUDACLIMB_FAKE_CUPTI_ERROR", "1", 1);     /* CUPTI_ERROR_INVALID_PARAMETER */
	counters *c = counters_open(0, why, sizeof why);
	unsetenv("CUDACLIMB_FAKE_CUPTI_ERROR");
	assert_null(c);
	assert_true(strlen(why) > 10);
	assert_null(strchr(why, '\n'));
	assert_null(strstr(why, "NVreg_RestrictProfilingToAdminUsers"));
}

/* A failed open returns NULL, which counters_close takes; a later open fails the same way again
 * (nothing was left half set up by the first). */
static void test_close_null(void **state)
{
	(void)state;
	char a[256] = "", b[256] = "";
	setenv("CUDACLIMB_FAKE_CUPTI_ERROR", "35", 1);
	counters *c = counters_open(0, a, sizeof a);
	counters_close(c);
	counters *d = counters_open(0, b, sizeof b);
	unsetenv("CUDACLIMB_FAKE_CUPTI_ERROR");
	assert_null(c);
	assert_null(d);
	counters_close(d);
	assert_true(a[0] != 0);
	assert_string_equal(a, b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_permission_message),
		cmocka_unit_test(test_other_error_is_one_line),
		cmocka_unit_test(test_close_null),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
