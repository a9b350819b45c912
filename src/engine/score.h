/* score: how a lesson is scored everywhere (lesson list, bench, ladder, JSON, the TUI): in its own
 * metric, the same on every GPU. */
#ifndef CC_SCORE_H
#define CC_SCORE_H
#include "engine.h"
#include "lesson.h"
#include "result.h"

/* A lesson's metric: GFLOP/s when its model counts flops and it is compute-bound by nature (a tensor-core peak, or at least
 * SCORE_MIN_INTENSITY flops per byte at its default sizes), else GB/s. */
typedef enum { SCORE_GBPS, SCORE_GFLOPS } score_metric;
#define SCORE_MIN_INTENSITY 4.0
score_metric score_metric_of(engine *e, const lesson *l);   /* l's, planned at its defaults for e's device */
const char *score_unit(score_metric m);                         /* "GB/s", "GFLOP/s" */
double score_value(score_metric m, const run_result *r);        /* r's figure in that metric, 0 none */
/* r's fraction of the peak that bounds that metric, 0..1 (attainable DRAM bandwidth, or the lesson's
 * compute peak), or -1 when unknown. */
double score_peak_frac(score_metric m, const run_result *r);
#endif
