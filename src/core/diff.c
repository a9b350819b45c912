/* diff: a line diff between two texts (see diff.h). */
#include "diff.h"
#include <stdlib.h>
#include <string.h>
#include "util.h"

/* Myers' O(ND) diff ("An O(ND) Difference Algorithm and Its Variations", 1986), written here
 * rather than taken from a library: it is ~60 lines, kernel files are small, and a dependency
 * (libgit2, GNU diff's code) would cost more to build and vendor than it saves. The common prefix
 * and suffix are trimmed first so the trace (one V array per edit step) stays small. */
static void push(diff_op **ops, int *n, int *cap, diff_kind k, int a, int b)
{
	if (*n == *cap) {
		int nc = *cap ? *cap * 2 : 64;
		*ops = xrealloc(*ops, sizeof **ops * (size_t)nc);
		*cap = nc;
	}
	(*ops)[(*n)++] = (diff_op){ k, a, b };
}

int diff_lines(char *const *a, int na, char *const *b, int nb, diff_op **ops)
{
	int n = 0, cap = 0, pre = 0, suf = 0;
	*ops = NULL;
	while (pre < na && pre < nb && strcmp(a[pre], b[pre]) == 0) pre++;
	while (suf < na - pre && suf < nb - pre && strcmp(a[na - 1 - suf], b[nb - 1 - suf]) == 0) suf++;
	int N = na - pre - suf, M = nb - pre - suf, max = N + M, w = 2 * max + 3;
	char *const *A = a + pre, *const *B = b + pre;
	int *v = xcalloc((size_t)w, sizeof *v), *trace = NULL, d, found = 0;
	diff_op *rev = NULL; int nrev = 0, caprev = 0;
	for (d = 0; d <= max; d++) {
		trace = xrealloc(trace, sizeof *trace * (size_t)w * (size_t)(d + 1));
		memcpy(trace + (size_t)w * d, v, sizeof *v * (size_t)w);
		for (int k = -d; k <= d; k += 2) {
			int x = (k == -d || (k != d && v[max + k - 1 + 1] < v[max + k + 1 + 1]))
			        ? v[max + k + 1 + 1] : v[max + k - 1 + 1] + 1;
			int y = x - k;
			while (x < N && y < M && strcmp(A[x], B[y]) == 0) { x++; y++; }
			v[max + k + 1] = x;
			if (x >= N && y >= M) { found = 1; break; }
		}
		if (found) break;
	}
	/* walk the trace back from (N, M), collecting operations in reverse */
	for (int x = N, y = M; d >= 0; d--) {
		const int *pv = trace + (size_t)w * d;
		int k = x - y;
		int pk = (k == -d || (k != d && pv[max + k - 1 + 1] < pv[max + k + 1 + 1])) ? k + 1 : k - 1;
		int px = pv[max + pk + 1], py = px - pk;
		while (x > px && y > py) {
			push(&rev, &nrev, &caprev, DIFF_SAME, pre + x - 1, pre + y - 1);
			x--; y--;
		}
		if (d > 0) {
			if (x == px) push(&rev, &nrev, &caprev, DIFF_ADD, -1, pre + y - 1);
			else push(&rev, &nrev, &caprev, DIFF_DEL, pre + x - 1, -1);
		}
		x = px; y = py;
	}
	for (int i = 0; i < pre; i++)
		push(ops, &n, &cap, DIFF_SAME, i, i);
	for (int i = nrev - 1; i >= 0; i--)
		push(ops, &n, &cap, rev[i].kind, rev[i].a, rev[i].b);
	for (int i = 0; i < suf; i++)
		push(ops, &n, &cap, DIFF_SAME, na - suf + i, nb - suf + i);
	free(v); free(trace); free(rev);
	return n;
}
