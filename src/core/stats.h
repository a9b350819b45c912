/* stats: small statistics for the timed runs (no allocation, no state). */
#ifndef CC_STATS_H
#define CC_STATS_H

/* Fewest values stats_sign_decided ever decides on. */
#define STATS_DECIDE_MIN 12

/* Whether the k values v (paired speed ratios) already say on which side of bar their median lies: a
 * sign test, the count at or above bar against Binomial(k, 1/2), the law that count follows when the
 * true median is bar itself; decided when the two-sided odds of the smaller side are under 1 in 1000.
 * Never with fewer than STATS_DECIDE_MIN values. 1 decided, 0 not yet. */
int stats_sign_decided(const double *v, int k, double bar);

#endif
