/* csrgen: a sparse matrix in CSR made on the host from a seed, for the buffer inits csr_rows and
 * csr_cols (lessons/README.md, "A sparse matrix: csr_rows and csr_cols"). Row lengths are drawn from
 * a power law whose exponent is the skew and scaled so that they add up to exactly nnz; each row's
 * columns are distinct and ascending, one in each of length equal slices of [0, cols). The same
 * arguments give the same matrix on every machine. */
#ifndef CC_CSRGEN_H
#define CC_CSRGEN_H
#include <stdint.h>

/* The largest nnz, rows and cols: indices are int32 and nnz must fit row_ptr's last entry. */
#define CSRGEN_MAX INT32_MAX

/* row_ptr[0..rows] for a rows x cols matrix of nnz nonzeros: row r holds about
 * (0.5 + v) * u^-skew / mean of them (u, v uniform from the seed), at most cols; 0, or -1 when the
 * sizes are outside [1, CSRGEN_MAX], nnz > rows * cols, or skew is outside [0, 1). */
int csrgen_rows(int64_t rows, int64_t cols, int64_t nnz, double skew, uint64_t seed, int32_t *row_ptr);
/* col[0..row_ptr[rows]) for the rows of row_ptr: each row's columns distinct, ascending, below cols;
 * 0, or -1 when row_ptr is not a valid row pointer (starts at 0, never falls, a row longer than cols). */
int csrgen_cols(int64_t rows, int64_t cols, const int32_t *row_ptr, uint64_t seed, int32_t *col);
#endif
