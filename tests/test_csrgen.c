/* Tests for src/core/csrgen.c: the row pointer adds up to exactly nnz at every skew and size, rows
 * stay within cols, the columns are distinct, ascending and in range, the same seed gives the same
 * matrix and another seed another one, a skewed matrix has long rows, and bad sizes are refused. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>
#include "csrgen.h"

/* Makes and checks a rows x cols matrix of nnz; the longest row into *longest. */
static void make(int64_t rows, int64_t cols, int64_t nnz, double skew, uint64_t seed, int32_t **rp, int32_t **col, int64_t *longest)
{
	*rp = malloc((size_t)(rows + 1) * sizeof **rp);
	*col = malloc((size_t)(nnz ? nnz : 1) * sizeof **col);
	assert_int_equal(csrgen_rows(rows, cols, nnz, skew, seed, *rp), 0);
	assert_int_equal((*rp)[0], 0);
	assert_int_equal((*rp)[rows], nnz);
	*longest = 0;
	for (int64_t r = 0; r < rows; r++) {
		int64_t len = (*rp)[r + 1] - (*rp)[r];
		assert_true(len >= 0 && len <= cols);
		if (len > *longest) *longest = len;
	}
	assert_int_equal(csrgen_cols(rows, cols, *rp, seed + 1, *col), 0);
	for (int64_t r = 0; r < rows; r++)
		for (int64_t k = (*rp)[r]; k < (*rp)[r + 1]; k++) {
			assert_true((*col)[k] >= 0 && (*col)[k] < cols);
			if (k > (*rp)[r]) assert_true((*col)[k] > (*col)[k - 1]);
		}
}

static void test_sizes(void **state)
{
	(void)state;
	static const int64_t sizes[][3] = { { 1, 1, 1 }, { 1, 7, 7 }, { 7, 7, 49 }, { 7, 1000, 3 }, { 999983, 999983, 5000011 },
	                                    { 3, 100000, 200000 }, { 1000, 50, 1000 } };
	static const double skews[] = { 0, 0.3, 0.6, 0.9, 0.999 };
	for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++)
		for (size_t k = 0; k < sizeof skews / sizeof *skews; k++) {
			int32_t *rp, *col;
			int64_t longest;
			make(sizes[i][0], sizes[i][1], sizes[i][2], skews[k], 42 + i, &rp, &col, &longest);
			free(rp);
			free(col);
		}
}

static void test_shapes(void **state)
{
	(void)state;
	int32_t *rp, *col, *rp2, *col2;
	int64_t longest, longest2;
	/* skew 0: every row between half and one and a half times the mean (32) */
	make(100000, 100000, 3200000, 0, 7, &rp, &col, &longest);
	for (int64_t r = 0; r < 100000; r++) assert_true(rp[r + 1] - rp[r] >= 15 && rp[r + 1] - rp[r] <= 49);
	/* the same seed: the same matrix */
	make(100000, 100000, 3200000, 0, 7, &rp2, &col2, &longest2);
	assert_memory_equal(rp, rp2, 100001 * sizeof *rp);
	assert_memory_equal(col, col2, 3200000 * sizeof *col);
	free(rp2); free(col2);
	/* another seed: another one */
	make(100000, 100000, 3200000, 0, 8, &rp2, &col2, &longest2);
	assert_true(memcmp(rp, rp2, 100001 * sizeof *rp) != 0);
	free(rp); free(col); free(rp2); free(col2);
	/* skew 0.6 on a million rows: rows of thousands, and many of a handful */
	make(1 << 20, 1 << 20, 32 << 20, 0.6, 9, &rp, &col, &longest);
	assert_true(longest >= 5000);
	int64_t small = 0;
	for (int64_t r = 0; r < 1 << 20; r++) small += rp[r + 1] - rp[r] <= 16;
	assert_true(small >= (1 << 20) / 3);
	free(rp); free(col);
}

static void test_refused(void **state)
{
	(void)state;
	int32_t rp[8] = { 0 }, col[8];
	assert_int_equal(csrgen_rows(0, 1, 0, 0, 1, rp), -1);
	assert_int_equal(csrgen_rows(2, 3, 7, 0, 1, rp), -1);       /* more than rows * cols */
	assert_int_equal(csrgen_rows(2, 3, 6, 1.0, 1, rp), -1);     /* skew 1: no finite mean */
	assert_int_equal(csrgen_rows(2, 3, 6, -0.1, 1, rp), -1);
	assert_int_equal(csrgen_rows(2, 3, 6, 0.0 / 0.0, 1, rp), -1);
	assert_int_equal(csrgen_rows(2, 0, 0, 0, 1, rp), -1);
	assert_int_equal(csrgen_rows((int64_t)CSRGEN_MAX + 1, 1, 1, 0, 1, rp), -1);
	assert_int_equal(csrgen_rows(2, 3, 6, 0, 1, rp), 0);        /* full: every row holds every column */
	assert_int_equal(rp[1], 3);
	assert_int_equal(csrgen_cols(2, 3, rp, 1, col), 0);
	for (int k = 0; k < 6; k++) assert_int_equal(col[k], k % 3);
	int32_t bad1[3] = { 1, 2, 3 }, bad2[3] = { 0, 2, 1 }, bad3[3] = { 0, 4, 4 };
	assert_int_equal(csrgen_cols(2, 3, bad1, 1, col), -1);
	assert_int_equal(csrgen_cols(2, 3, bad2, 1, col), -1);
	assert_int_equal(csrgen_cols(2, 3, bad3, 1, col), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = { cmocka_unit_test(test_sizes), cmocka_unit_test(test_shapes), cmocka_unit_test(test_refused) };
	return cmocka_run_group_tests(tests, NULL, NULL);
}
