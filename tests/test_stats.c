/* Tests for src/core/stats.c: the sign test that lets a verdict's paired runs stop early. The
 * thresholds are the binomial law's: 12 of 12 on one side is 2 * 2^-12 = 0.00049 (decided), 11 of 12 is
 * 2 * 13 / 4096 = 0.0063 (not); 20 pairs with 2 below is 2 * 211 / 2^20 = 0.0004 (decided). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include "stats.h"

static void fill(double *v, int k, int below, double bar)
{
	for (int i = 0; i < k; i++) v[i] = i < below ? bar - 0.01 : bar + 0.01;
}

static void test_too_few(void **state)
{
	(void)state;
	double v[64];
	fill(v, 11, 0, 0.9);
	assert_false(stats_sign_decided(v, 11, 0.9));      /* all above, but fewer than the minimum */
	fill(v, STATS_DECIDE_MIN, 0, 0.9);
	assert_true(stats_sign_decided(v, STATS_DECIDE_MIN, 0.9));
}

static void test_either_side(void **state)
{
	(void)state;
	double v[64];
	fill(v, 12, 1, 0.9);
	assert_false(stats_sign_decided(v, 12, 0.9));      /* 11 of 12 above: odds 0.0063, not yet */
	fill(v, 12, 12, 0.9);
	assert_true(stats_sign_decided(v, 12, 0.9));       /* all below: decided the other way */
	fill(v, 20, 2, 0.9);
	assert_true(stats_sign_decided(v, 20, 0.9));
	fill(v, 20, 3, 0.9);
	assert_false(stats_sign_decided(v, 20, 0.9));      /* 2 * 1351 / 2^20 = 0.0026 */
}

static void test_near_the_bar(void **state)
{
	(void)state;
	double v[300];
	for (int i = 0; i < 300; i++) v[i] = i % 2 ? 0.95 : 0.85;   /* half each side: never decided */
	assert_false(stats_sign_decided(v, 300, 0.9));
	v[0] = 0.9;                                                 /* at the bar counts as at or above */
	fill(v, 12, 0, 0.9);
	for (int i = 0; i < 12; i++) v[i] = 0.9;
	assert_true(stats_sign_decided(v, 12, 0.9));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_too_few),
		cmocka_unit_test(test_either_side),
		cmocka_unit_test(test_near_the_bar),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
