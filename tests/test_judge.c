/* Tests for the time an exercise is judged on (src/engine/exercise_try.c: ex_judge_of, ex_judge_ratio):
 * a stage with host copies is judged on its kernels' time unless the lesson says judge: whole. The
 * times are the H200 streams recording's pinned stage: 8.28 ms in all, 3.387 ms of kernels. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "exercise.h"

static void test_judge_of(void **state)
{
	(void)state;
	lesson_exercise x;
	memset(&x, 0, sizeof x);
	assert_int_equal(ex_judge_of(&x, 268435456), 1);   /* copies, no judge: the kernels */
	assert_int_equal(ex_judge_of(&x, 0), 0);           /* no copies: the stage */
	assert_int_equal(ex_judge_of(NULL, 0), 0);
	x.judge = JUDGE_WHOLE;
	assert_int_equal(ex_judge_of(&x, 268435456), 0);
	x.judge = JUDGE_KERNEL;
	assert_int_equal(ex_judge_of(&x, 0), 1);
}

static void test_judge_ratio(void **state)
{
	(void)state;
	run_result mine, own;
	char what[160];
	run_result_init(&mine);
	run_result_init(&own);
	/* a learner's kernel twice as slow, under copies that take 4.9 of the stage's 8.3 ms: the pairs
	 * read about 0.71x (8.28 / 11.67) and would pass a 0.7 bar; the kernels read 0.5x */
	mine.ms_median = 11.67, mine.pair_ms_median = 8.28, mine.pair_ratio = 8.28 / 11.67, mine.kernel_ms = 6.774;
	own.ms_median = 8.28, own.kernel_ms = 3.387;
	double k = ex_judge_ratio(1, &mine, &own, what, sizeof what);
	assert_true(fabs(k - 0.5) < 1e-9);
	assert_non_null(strstr(what, "without the host copies, 6.774 ms against the stage's 3.387 ms"));
	double w = ex_judge_ratio(0, &mine, &own, what, sizeof what);
	assert_true(fabs(w - 8.28 / 11.67) < 1e-9);
	assert_string_equal(what, "the stage's time");
	/* a time missing: unknown, and which one */
	own.kernel_ms = 0;
	assert_true(ex_judge_ratio(1, &mine, &own, what, sizeof what) < 0);
	assert_non_null(strstr(what, "the stage's own run"));
	assert_true(ex_judge_ratio(1, &mine, NULL, what, sizeof what) < 0);
	mine.kernel_ms = 0;
	own.kernel_ms = 3.387;
	assert_true(ex_judge_ratio(1, &mine, &own, what, sizeof what) < 0);
	assert_non_null(strstr(what, "your run"));
	mine.pair_ratio = 0;
	assert_true(ex_judge_ratio(0, &mine, &own, what, sizeof what) < 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_judge_of),
		cmocka_unit_test(test_judge_ratio),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
