/* Shared by tests/test_roofline.c and tests/test_tui_roofline.c: the recorded H100 runs
 * (tests/fixtures/recorded/h100-1707a90-LESSON.json) as the engine's replay reads them, with the
 * shipped lessons loaded for sm_90 (no GPU needed). Run from the repository root. */
#ifndef CC_TEST_ROOFLINE_FIXTURE_H
#define CC_TEST_ROOFLINE_FIXTURE_H
#include <stdio.h>
#include <string.h>
#include "engine.h"
#include "replay_fixture.h"
#include "roofline.h"

typedef struct {
	const lesson *l;
	replay *rp;
	device_info dev;
	roofline_roofs roofs;
	run_result base; int have_base;
	run_result st[32]; int have[32];
} recorded;

/* The engine that holds the lessons; made once by recorded_setup. */
static engine *recorded_engine;

static inline int recorded_setup(void **state)
{
	(void)state;
	engine_opts o = { .arch = "sm_90", .gpu = -1, .quiet = 1 };
	char err[512];
	recorded_engine = engine_new(&o, err, sizeof err);
	if (!recorded_engine) fprintf(stderr, "%s\n", err);
	return recorded_engine ? 0 : -1;
}

static inline int recorded_teardown(void **state)
{
	(void)state;
	engine_free(recorded_engine);
	return 0;
}

/* Loads lesson id's recording: every stage's result and the baseline's, each as the replay answers
 * a job at the lesson's defaults. 0, or -1 (with a message on stderr). */
static inline int recorded_load(const char *id, recorded *r)
{
	char path[256], err[512], why[256];
	memset(r, 0, sizeof *r);
	snprintf(path, sizeof path, "tests/fixtures/recorded/h100-1707a90-%s.json", id);
	r->l = lesson_set_find(engine_lessons(recorded_engine), id);
	r->rp = r->l ? replay_load(path, err, sizeof err) : NULL;
	if (!r->rp) { fprintf(stderr, "%s: %s\n", id, r->l ? err : "no such lesson"); return -1; }
	r->dev = *replay_device(r->rp);
	if (roofline_roofs_of(&r->dev, r->l->peak, &r->roofs, why, sizeof why)) { fprintf(stderr, "%s: %s\n", id, why); return -1; }
	plan p = {0};
	for (int s = -1; s < r->l->nstages && s < 32; s++) {
		engine_job j = { .lesson = r->l, .stage = s };
		run_result *out = s < 0 ? &r->base : &r->st[s];
		run_result_init(out);
		int ok = replay_answer(r->rp, &j, &p, out) == 0;
		if (s < 0) r->have_base = ok;
		else r->have[s] = ok;
	}
	return 0;
}

static inline void recorded_free(recorded *r)
{
	for (int s = 0; s < 32; s++) run_result_clear(&r->st[s]);
	run_result_clear(&r->base);
	replay_free(r->rp);
}

/* The result of the stage called id, or NULL. */
static inline const run_result *recorded_stage(const recorded *r, const char *id)
{
	int s = lesson_stage_index(r->l, id);
	return s >= 0 && r->have[s] ? &r->st[s] : NULL;
}
#endif
