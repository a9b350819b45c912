/* fmt: see fmt.h. Every renderer comes down to sig3: three significant digits of a finite v >= 0. */
#include "fmt.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The decimal exponent of v >= 0 once rounded to three significant digits (999.7 gives 3). */
static int exp10_of(double v)
{
	char t[32];
	snprintf(t, sizeof t, "%.2e", v);
	const char *e = strchr(t, 'e');
	return e ? atoi(e + 1) : 0;
}

/* v >= 0 as sig3 would print it, as a number: what decides whether a unit is outgrown. */
static double shown(double v)
{
	if (v == 0) return 0;
	if (exp10_of(v) >= 3) return nearbyint(v);
	char t[32];
	snprintf(t, sizeof t, "%.2e", v);
	return strtod(t, NULL);
}

/* v (finite, >= 0) with three significant digits and no exponent; whole from 1000 up; 0 is "0". Very
 * small or very large values take an exponent ("1.23e-07") rather than a row of zeros. */
static void sig3(char *buf, size_t n, double v)
{
	if (v == 0) { snprintf(buf, n, "0"); return; }
	int e = exp10_of(v);
	if (e < -6 || e >= 15) snprintf(buf, n, "%.2e", v);
	else if (e >= 2) snprintf(buf, n, "%.0f", v);
	else snprintf(buf, n, "%.*f", 2 - e, v);
}

/* "-" for a value not known, "inf" for infinity; 1 when it wrote one of them. */
static int unknown(char *buf, size_t n, double v)
{
	if (isnan(v) || v < 0) snprintf(buf, n, "-");
	else if (isinf(v)) snprintf(buf, n, "inf");
	else return 0;
	return 1;
}

/* v in units[0], scaled by base into the largest of the nu units whose shown value stays under base;
 * *v is left in that unit; returns its index. whole: a whole number counts as shown exactly. */
static int scale(double *v, double base, int nu, int whole)
{
	int u = 0;
	while (u < nu - 1 && (whole && *v == floor(*v) ? *v : shown(*v)) >= base) { *v /= base; u++; }
	return u;
}

char *fmt_num(char *buf, size_t n, double v)
{
	static const char *const suffix[] = { "", "k", "M", "G", "T" };
	if (!n) return buf;
	if (isnan(v)) { snprintf(buf, n, "-"); return buf; }
	const char *sign = v < 0 ? "-" : "";
	double a = fabs(v);
	if (isinf(a)) { snprintf(buf, n, "%sinf", sign); return buf; }
	int u = 0;
	if (shown(a) >= 1e15) { snprintf(buf, n, "%s%.2e", sign, a); return buf; }
	if (shown(a) >= 10000) { a /= 1000; u = 1 + scale(&a, 1000, 4, 0); }
	char t[40];
	sig3(t, sizeof t, a);
	snprintf(buf, n, "%s%s%s", sign, t, suffix[u]);
	return buf;
}

char *fmt_time(char *buf, size_t n, double ms)
{
	static const char *const unit[] = { "ns", "us", "ms", "s" };
	if (!n || unknown(buf, n, ms)) return buf;
	double v = ms * 1e6;
	int u = scale(&v, 1000, 4, 0);
	if (ms == 0) u = 2;
	char t[40];
	sig3(t, sizeof t, v);
	snprintf(buf, n, "%s %s", t, unit[u]);
	return buf;
}

char *fmt_ms(char *buf, size_t n, double ms)
{
	if (n && !unknown(buf, n, ms)) sig3(buf, n, ms);
	return buf;
}

char *fmt_ms_col(char *buf, size_t n, double ms)
{
	if (n && !unknown(buf, n, ms)) snprintf(buf, n, "%.4f", ms);
	return buf;
}

char *fmt_bytes(char *buf, size_t n, double bytes)
{
	static const char *const unit[] = { "B", "KiB", "MiB", "GiB", "TiB" };
	if (!n || unknown(buf, n, bytes)) return buf;
	int u = scale(&bytes, 1024, 5, 1);
	char t[40];
	if (bytes == floor(bytes) && bytes < 1e15) snprintf(t, sizeof t, "%.0f", bytes);
	else sig3(t, sizeof t, bytes);
	snprintf(buf, n, "%s %s", t, unit[u]);
	return buf;
}

char *fmt_traffic(char *buf, size_t n, double bytes)
{
	static const char *const unit[] = { "B", "kB", "MB", "GB", "TB" };
	if (!n || unknown(buf, n, bytes)) return buf;
	int u = scale(&bytes, 1000, 5, 0);
	char t[40];
	sig3(t, sizeof t, bytes);
	snprintf(buf, n, "%s %s", t, unit[u]);
	return buf;
}

char *fmt_gbps(char *buf, size_t n, double gbps)
{
	if (!n || unknown(buf, n, gbps)) return buf;
	char t[40];
	sig3(t, sizeof t, gbps);
	snprintf(buf, n, "%s GB/s", t);
	return buf;
}

char *fmt_gflops(char *buf, size_t n, double gflops)
{
	static const char *const unit[] = { "GFLOP/s", "TFLOP/s" };
	if (!n || unknown(buf, n, gflops)) return buf;
	int u = scale(&gflops, 1000, 2, 0);
	char t[40];
	sig3(t, sizeof t, gflops);
	snprintf(buf, n, "%s %s", t, unit[u]);
	return buf;
}

char *fmt_pct(char *buf, size_t n, double frac)
{
	if (!n || unknown(buf, n, frac)) return buf;
	double p = 100 * frac;
	if (p == 0) snprintf(buf, n, "0%%");
	else if (p < 0.05) snprintf(buf, n, "<0.1%%");
	else if (nearbyint(p * 10) < 100) snprintf(buf, n, "%.1f%%", p);
	else snprintf(buf, n, "%.0f%%", p);
	return buf;
}
