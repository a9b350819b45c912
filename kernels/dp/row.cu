// dp/row: one thread per pair, the whole matrix row by row. The thread keeps one row of H and F
// (the row above the one it computes) in global scratch, laid out [column][pair] so that the 32
// threads of a warp, which work on 32 pairs at the same column, touch 32 consecutive words.
#include "common.cuh"

extern "C" __global__ void sw_row(const unsigned char *a, const unsigned char *b, int *score,
                                  int *rowH, int *rowF, int pairs, int m, int n,
                                  int match, int mismatch, int gap_open, int gap_ext)
{
	const long long p = (long long)blockIdx.x * blockDim.x + threadIdx.x;
	if (p >= pairs) return;
	const unsigned char *pa = a + p * m, *pb = b + p * n;
	int *H = rowH + p, *F = rowF + p;           // element J of this pair's row: H[J * pairs]
	for (int J = 0; J <= n; J++) {              // row 0: H = 0, F at its border value
		H[(long long)J * pairs] = 0;
		F[(long long)J * pairs] = -gap_open;
	}
	int best = 0;
	for (int I = 1; I <= m; I++) {
		const int ai = pa[I - 1];
		int h = 0, e = -gap_open, diag = 0;     // H[I][0], E[I][0], H[I-1][0]
		for (int J = 1; J <= n; J++) {
			const int up = H[(long long)J * pairs], fup = F[(long long)J * pairs];   // H[I-1][J], F[I-1][J]
			const int s = ai == pb[J - 1] ? match : -mismatch;
			e = max(e - gap_ext, h - gap_open);
			const int f = max(fup - gap_ext, up - gap_open);
			h = max(max(diag + s, 0), max(e, f));
			H[(long long)J * pairs] = h;        // row I replaces row I-1, column by column
			F[(long long)J * pairs] = f;
			diag = up;                          // H[I-1][J] is the next column's diagonal
			best = max(best, h);
		}
	}
	score[p] = best;
}
