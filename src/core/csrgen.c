/* csrgen: a seeded CSR matrix on the host (csrgen.h). */
#include "csrgen.h"
#include <math.h>
#include <stdlib.h>

static uint64_t mix(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* Uniform in (0, 1]. */
static double unit(uint64_t *s) { return ((double)(mix(s) >> 11) + 1.0) / 9007199254740992.0; }

int csrgen_rows(int64_t rows, int64_t cols, int64_t nnz, double skew, uint64_t seed, int32_t *row_ptr)
{
	if (rows < 1 || cols < 1 || nnz < 0 || rows > CSRGEN_MAX || cols > CSRGEN_MAX || nnz > CSRGEN_MAX) return -1;
	if (!(skew >= 0 && skew < 1) || nnz > rows * cols) return -1;
	/* Weights first, kept in row_ptr[1..] as floats would lose them: a second pass redraws them. */
	uint64_t s = seed ^ 0x5ca1ab1e0ddba11ULL;
	double total = 0;
	for (int64_t r = 0; r < rows; r++) {
		double u = unit(&s), v = unit(&s);
		total += (0.5 + v) * pow(u, -skew);
	}
	s = seed ^ 0x5ca1ab1e0ddba11ULL;
	int64_t sum = 0;
	row_ptr[0] = 0;
	for (int64_t r = 0; r < rows; r++) {   /* lengths, rounded down and capped, in row_ptr[r + 1] for now */
		double u = unit(&s), v = unit(&s);
		double want = floor((0.5 + v) * pow(u, -skew) / total * (double)nnz);
		int64_t len = want > (double)cols ? cols : (int64_t)want;
		if (sum + len > nnz) len = nnz - sum;   /* rounding can never overshoot, but stay exact */
		row_ptr[r + 1] = (int32_t)len;
		sum += len;
	}
	/* What rounding and the caps left over, one more element to each row that has room, from a
	 * seeded row on: ends because nnz <= rows * cols. */
	int64_t r = (int64_t)(mix(&s) % (uint64_t)rows);
	while (sum < nnz) {
		if (row_ptr[r + 1] < cols) { row_ptr[r + 1]++; sum++; }
		if (++r == rows) r = 0;
	}
	for (int64_t k = 0; k < rows; k++) row_ptr[k + 1] += row_ptr[k];
	return 0;
}

int csrgen_cols(int64_t rows, int64_t cols, const int32_t *row_ptr, uint64_t seed, int32_t *col)
{
	if (rows < 1 || cols < 1 || cols > CSRGEN_MAX || row_ptr[0] != 0) return -1;
	for (int64_t r = 0; r < rows; r++)
		if (row_ptr[r + 1] < row_ptr[r] || row_ptr[r + 1] - row_ptr[r] > cols) return -1;
	for (int64_t r = 0; r < rows; r++) {
		uint64_t s = seed ^ ((uint64_t)r * 0xd1342543de82ef95ULL);
		int64_t len = row_ptr[r + 1] - row_ptr[r];
		int32_t *c = col + row_ptr[r];
		for (int64_t k = 0; k < len; k++) {   /* one column in each slice [k cols / len, (k + 1) cols / len) */
			int64_t lo = k * cols / len, hi = (k + 1) * cols / len;
			c[k] = (int32_t)(lo + (int64_t)(mix(&s) % (uint64_t)(hi - lo)));
		}
	}
	return 0;
}
