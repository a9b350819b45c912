/* score_metric_of and its helpers on the shipped lessons, loaded through engine_new for --arch
 * sm_90 (no GPU needed): each lesson is scored in its own metric (#19). Run from the repository root. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>
#include "engine.h"
#include "score.h"

static engine *E;

static int setup(void **state)
{
	(void)state;
	engine_opts o = { .arch = "sm_90", .gpu = -1, .quiet = 1 };
	char err[512];
	E = engine_new(&o, err, sizeof err);
	if (!E) fprintf(stderr, "%s\n", err);
	return E ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	engine_free(E);
	return 0;
}

static score_metric metric_of(const char *id)
{
	const lesson *l = lesson_set_find(engine_lessons(E), id);
	if (!l) fail_msg("no lesson %s in the shipped tree", id);
	return score_metric_of(E, l);
}

static void test_memory_bound_lessons(void **state)
{
	(void)state;
	assert_int_equal(metric_of("bandwidth"), SCORE_GBPS);   /* has a flops model, 1/6 flop per byte */
	assert_int_equal(metric_of("reduction"), SCORE_GBPS);   /* no flops model */
	assert_int_equal(metric_of("transpose"), SCORE_GBPS);
}

static void test_compute_bound_lessons(void **state)
{
	(void)state;
	assert_int_equal(metric_of("sgemm"), SCORE_GFLOPS);      /* about 680 flops per byte at 4096^3 */
	assert_int_equal(metric_of("tensorcore"), SCORE_GFLOPS); /* a tensor-core peak */
}

static void test_units_values_fractions(void **state)
{
	(void)state;
	assert_string_equal(score_unit(SCORE_GBPS), "GB/s");
	assert_string_equal(score_unit(SCORE_GFLOPS), "GFLOP/s");
	run_result r;
	run_result_init(&r);
	r.gbps = 44.5; r.gflops = 30400; r.pct_attainable_bw = 1.44; r.pct_compute_peak = 45.44;
	assert_true(score_value(SCORE_GBPS, &r) == 44.5);
	assert_true(score_value(SCORE_GFLOPS, &r) == 30400);
	assert_true(score_peak_frac(SCORE_GFLOPS, &r) > 0.4543 && score_peak_frac(SCORE_GFLOPS, &r) < 0.4545);
	assert_true(score_peak_frac(SCORE_GBPS, &r) > 0.0143 && score_peak_frac(SCORE_GBPS, &r) < 0.0145);
	r.pct_compute_peak = 0;
	assert_true(score_peak_frac(SCORE_GFLOPS, &r) == -1);   /* unknown */
	run_result_clear(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_memory_bound_lessons),
		cmocka_unit_test(test_compute_bound_lessons),
		cmocka_unit_test(test_units_values_fractions),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
