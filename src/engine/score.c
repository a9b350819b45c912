/* score: how a lesson is scored everywhere, in its own metric. See score.h. */
#include "score.h"
#include "plan.h"

score_metric score_metric_of(engine *e, const lesson *l)
{
	if (!lesson_has_flops(l)) return SCORE_GBPS;
	if (peak_is_tensor(peak_of(l->peak))) return SCORE_GFLOPS;
	plan p;
	plan_device pd;
	engine_plan_device(e, &pd);
	char err[256];
	score_metric m = SCORE_GBPS;
	if (l->nstages && plan_make(&p, l, 0, NULL, 0, &pd, err, sizeof err) == 0 && p.bytes > 0 && p.flops / p.bytes >= SCORE_MIN_INTENSITY)
		m = SCORE_GFLOPS;
	plan_free(&p);
	return m;
}

const char *score_unit(score_metric m) { return m == SCORE_GFLOPS ? "GFLOP/s" : "GB/s"; }

double score_value(score_metric m, const run_result *r) { return m == SCORE_GFLOPS ? r->gflops : r->gbps; }

double score_peak_frac(score_metric m, const run_result *r)
{
	double pct = m == SCORE_GFLOPS ? r->pct_compute_peak : r->pct_attainable_bw;
	return pct > 0 ? pct / 100 : -1;
}
