/* Runs with steps for the timeline's tests (test_timeline.c, test_report.c): hand-made step by
 * step, or a chunked pipeline laid out by a small model of a GPU (one copy engine each way, the
 * SMs, each in the order work was issued; streams keep their own order). Times in ms. */
#ifndef CC_TIMELINE_FIXTURE_H
#define CC_TIMELINE_FIXTURE_H
#include <stdio.h>
#include <string.h>
#include "result.h"

/* Appends a step: kind "launch", "memset" or "copy" (dir "h2d", "d2h", "d2d" or ""). */
static inline void fx_step(run_result *r, const char *kind, const char *entry, int stream, const char *dir, int64_t bytes,
                           double start, double end)
{
	run_step *s = &r->steps[r->nsteps++];
	run_step_init(s);
	snprintf(s->kind, sizeof s->kind, "%s", kind);
	snprintf(s->entry, sizeof s->entry, "%s", entry);
	snprintf(s->dir, sizeof s->dir, "%s", dir);
	s->stream = stream;
	s->bytes = bytes;
	s->start_ms = start;
	s->end_ms = end;
	s->ms_median = start >= 0 && end >= start ? end - start : -1;
	if (!strcmp(kind, "launch")) { s->grid[0] = s->block[0] = 256; s->grid[1] = s->grid[2] = s->block[1] = s->block[2] = 1; }
}

/* A timed run of stage name (status ok, ms its median time) with no steps yet. */
static inline void fx_run(run_result *r, const char *name, double ms)
{
	run_result_init(r);
	snprintf(r->lesson, sizeof r->lesson, "streams");
	snprintf(r->stage, sizeof r->stage, "%s", name);
	r->status = RUN_OK;
	r->reps = ms > 0 ? 20 : 0;
	r->ms_median = r->ms_min = r->ms_max = ms;
}

/* A device with copy bandwidths (GB/s; 0: not measured). */
static inline void fx_device(device_info *d, double h2d, double d2h)
{
	memset(d, 0, sizeof *d);
	d->present = 1;
	snprintf(d->name, sizeof d->name, "test GPU");
	d->h2d_gbps = h2d;
	d->d2h_gbps = d2h;
}

/* chunks chunks of copy in (chunk_bytes at h2d GB/s), a kernel (kernel_ms), copy out (at d2h GB/s),
 * on streams 1..nstreams (stream 0 when nstreams is 1); bytes, kernel_ms and bound_ms as the
 * worker sets them (the bound at the same bandwidths), ms_median the span. */
static inline void fx_pipeline(run_result *r, const char *name, int chunks, int nstreams, double chunk_bytes, double h2d,
                               double d2h, double kernel_ms)
{
	fx_run(r, name, 1);
	double stream_free[17] = {0}, engine_free[3] = {0}, span = 0;
	for (int c = 0; c < chunks && r->nsteps + 3 <= RUN_MAX_STEPS; c++) {
		int s = nstreams > 1 ? 1 + c % nstreams : 0;
		const char *kind[3] = { "copy", "launch", "copy" }, *entry[3] = { "h_x>d_x", "work", "d_x>h_y" }, *dir[3] = { "h2d", "", "d2h" };
		double dur[3] = { chunk_bytes / h2d / 1e6, kernel_ms, chunk_bytes / d2h / 1e6 };
		for (int k = 0; k < 3; k++) {
			int e = k == 0 ? 0 : k == 1 ? 2 : 1;
			double start = stream_free[s] > engine_free[e] ? stream_free[s] : engine_free[e];
			fx_step(r, kind[k], entry[k], s, dir[k], k == 1 ? 0 : (int64_t)chunk_bytes, start, start + dur[k]);
			stream_free[s] = engine_free[e] = start + dur[k];
			if (start + dur[k] > span) span = start + dur[k];
		}
	}
	r->h2d_bytes = r->d2h_bytes = chunks * chunk_bytes;
	r->kernel_ms = chunks * kernel_ms;
	double t[3] = { r->h2d_bytes / h2d / 1e6, r->d2h_bytes / d2h / 1e6, r->kernel_ms };
	r->bound_ms = t[0] > t[1] ? t[0] : t[1];
	if (t[2] > r->bound_ms) r->bound_ms = t[2];
	r->ms_median = r->ms_min = r->ms_max = span;
}
#endif
