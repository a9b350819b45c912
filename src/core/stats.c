/* stats: see stats.h. */
#include "stats.h"

#include <math.h>

int stats_sign_decided(const double *v, int k, double bar)
{
	if (k < STATS_DECIDE_MIN) return 0;
	int above = 0;
	for (int i = 0; i < k; i++) above += v[i] >= bar;
	int m = above < k - above ? above : k - above;
	double pmf = ldexp(1.0, -k), tail = 0;   /* P(X = 0); then P(X = i) = P(X = i-1) (k-i+1) / i */
	for (int i = 0; i <= m; i++) {
		if (i) pmf *= (double)(k - i + 1) / i;
		tail += pmf;
	}
	return 2 * tail < 1e-3;
}
