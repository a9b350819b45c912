/* roofline: where a run stands against this GPU's roofs. The memory roof is the attainable DRAM
 * bandwidth (the calibration copy; the theoretical one beside it, lighter), the compute roof the
 * lesson's own peak (FP32, or BF16 tensor for a lesson whose peak is a tensor one). A run's
 * arithmetic intensity is its flops per byte of DRAM traffic the counters measured, or per byte of
 * the lesson's model when there are no counters; the roof at that intensity is
 * min(compute, intensity x bandwidth). Pure functions: no curses, no CUDA, no engine state. */
#ifndef CC_ROOFLINE_H
#define CC_ROOFLINE_H
#include <stddef.h>
#include "result.h"

typedef struct {
	double mem_gbps;             /* the memory roof: attainable bandwidth (theoretical when none was measured) */
	int mem_is_theoretical;      /* no calibration copy: mem_gbps is the theoretical figure */
	double mem_theoretical_gbps; /* drawn lightly; 0 when unknown */
	double compute_gflops;       /* the lesson's compute peak */
	char compute_name[16];       /* "FP32", "BF16 tensor" */
	double ridge;                /* flop/B where the roofs meet: compute / mem */
} roofline_roofs;

typedef enum { ROOF_MEMORY, ROOF_COMPUTE } roofline_bound;
typedef enum { ROOF_BYTES_DRAM, ROOF_BYTES_MODEL } roofline_bytes;

typedef struct {
	double intensity;            /* flop per byte */
	roofline_bytes bytes_from;   /* which bytes: DRAM measured, or the model's */
	double bytes;                /* those bytes */
	double gflops;               /* achieved: the model's flops over the median time */
	double roof_gflops;          /* the roof at this intensity */
	roofline_bound bound;        /* memory left of the ridge, compute at or right of it */
	double frac;                 /* gflops / roof_gflops: 1 is on the roof */
} roofline_point;

/* The roofs of device d for a lesson whose peak is named peak (lesson->peak: "fp32",
 * "bf16_tensor"; NULL is FP32). 0, or -1 with why when d has no bandwidth or compute peak, or a ridge
 * that is not a finite positive number (a replay file's peaks). */
int roofline_roofs_of(const device_info *d, const char *peak, roofline_roofs *out, char *why, size_t whylen);
/* The attainable performance at intensity ai (flop/B): min(compute, ai x memory roof). */
double roofline_roof_at(const roofline_roofs *rf, double ai);
/* Places r under the roofs: 0, or -1 with why (not run, no time, no flops in the model, no bytes, an
 * intensity or GFLOP/s that is not a finite positive number: a replay file's inf or 1e308).
 * DRAM bytes (read + written) are used when the counters measured some, else the model's. */
int roofline_place(const roofline_roofs *rf, const run_result *r, roofline_point *out, char *why, size_t whylen);
/* Index in rs[0..n) of the result with the highest GFLOP/s among those that can be placed, or -1. */
int roofline_best(const roofline_roofs *rf, const run_result *rs, int n);
const char *roofline_bound_name(roofline_bound b);   /* "memory", "compute" */
const char *roofline_bytes_name(roofline_bytes b);   /* "dram", "model" (JSON values) */
/* r's roofline as a JSON object {"intensity": ..., "bytes": "dram", "bound": "compute",
 * "roof_gflops": ..., "pct_of_roof": ..., ...}, or "null" when it cannot be placed. */
void roofline_json(FILE *f, const roofline_roofs *rf, const run_result *r);
#endif
