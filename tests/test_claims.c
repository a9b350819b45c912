/* Tests for src/lesson/lesson_expect.c and src/engine/claims.c: a stage's expect: list loads, malformed items fail
 * with the exact "file:line:col: message", claims hold, are contradicted or stay unknown on a run, and
 * every claim of the shipped lessons is checked against the recorded H100 runs
 * (tests/fixtures/recorded). Run from the repository root. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "claims.h"
#include "lesson_case.h"
#include "replay.h"
#include "lesson.h"
#include "diagnose.h"
#include "util.h"

/* A one-stage lesson; its expect: list starts on line 20. */
#define LESSON                                                  \
	"lesson: t\n"                                   /* 1 */   \
	"title: T\n"                                    /* 2 */   \
	"summary: s\n"                                  /* 3 */   \
	"params:\n"                                     /* 4 */   \
	"  n: { default: 64, min: 1 }\n"                /* 5 */   \
	"buffers:\n"                                    /* 6 */   \
	"  x: { type: f32, count: n, init: iota }\n"    /* 7 */   \
	"  z: { type: f32, count: n, output: true }\n"  /* 8 */   \
	"model: { bytes: \"8 * n\" }\n"                 /* 9 */   \
	"stages:\n"                                     /* 10 */  \
	"  - id: s1\n"                                  /* 11 */  \
	"    title: S\n"                                /* 12 */  \
	"    kernel: k.cu\n"                            /* 13 */  \
	"    entry: k\n"                                /* 14 */  \
	"    explain: e\n"                              /* 15 */  \
	"    bottleneck: b\n"                           /* 16 */  \
	"    launches:\n"                               /* 17 */  \
	"      - { grid: 1, block: 32, args: [x, z] }\n"  /* 18 */ \
	"    expect:\n"                                 /* 19 */

static lesson *load(const char *text, char *err, size_t errlen)
{
	err[0] = 0;
	return lesson_load_buffer("t.yaml", text, strlen(text), NULL, err, errlen);
}

static void load_error(const char *items, const char *want)
{
	char text[4096], err[1024];
	snprintf(text, sizeof text, LESSON "%s", items);
	lesson *l = load(text, err, sizeof err);
	if (l) {
		lesson_free(l);
		fail_msg("loaded, expected: %s", want);
	}
	if (strncmp(err, want, strlen(want)) != 0)
		fail_msg("expected: %s\n     got: %s", want, err);
}

/* ---- the syntax ---- */

static void test_parse(void **state)
{
	(void)state;
	char err[1024];
	lesson *l = load(LESSON
	                 "      - \"bytes_ratio >= 8\"\n"
	                 "      - time_vs_prev <= 0.8 && smem_conflicts_st_per_warp < 1\n"
	                 "      - { that: \"warp_efficiency_pred_on < 28\", why: \"idle lanes are predicated off\" }\n",
	                 err, sizeof err);
	if (!l)
		fail_msg("%s", err);
	const lesson_stage *s = &l->stages[0];
	assert_int_equal(s->nclaims, 3);
	assert_string_equal(expr_source(s->claims[0].cond.e), "bytes_ratio >= 8");
	assert_null(s->claims[0].why);
	assert_int_equal(s->claims[0].cond.at.line, 20);
	assert_int_equal(s->claims[0].cond.at.col, 10);   /* inside the quotes */
	assert_string_equal(expr_source(s->claims[1].cond.e), "time_vs_prev <= 0.8 && smem_conflicts_st_per_warp < 1");
	assert_string_equal(s->claims[2].why, "idle lanes are predicated off");
	lesson_free(l);
	/* a stage without expect: has no claims */
	l = load(LESSON, err, sizeof err);
	assert_null(l);   /* "expect:" with nothing under it is an empty value, not a list */
}

static void test_parse_errors(void **state)
{
	(void)state;
	load_error("      - \"bytes_ratoi >= 8\"\n",
	           "t.yaml:20:10: expect: unknown measurement 'bytes_ratoi' in 'bytes_ratoi >= 8'");
	load_error("      - \"dram_pct > 1 && BLOCK == 256\"\n",   /* tunables are not measurements */
	           "t.yaml:20:26: expect: unknown measurement 'BLOCK'");
	load_error("      - \"bytes_ratio >= \"\n", "t.yaml:20:25: expect: bad condition 'bytes_ratio >= ':");
	load_error("      - \"bytes_ratio\"\n", "t.yaml:20:9: expect: 'bytes_ratio' is a number, not a condition");
	load_error("      - \"1 < 2\"\n", "t.yaml:20:9: expect: '1 < 2' names no measurement");
	load_error("      - { that: \"ms > 0\", because: x }\n", "t.yaml:20:27: unknown key 'because' in an expect: item");
	load_error("      - { why: x }\n", "t.yaml:20:9: an expect: item needs 'that'");
	load_error("      - { that: \"ms > 0\", why: \"\" }\n", "t.yaml:20:32: expect: why must be one line");
	load_error("      - [ms, 1]\n", "t.yaml:20:9: an expect: item is a condition string or {that: CONDITION, why: TEXT, when: CONDITION or {case: NAME, if: CONDITION}}");
	load_error("      ms > 0\n", "t.yaml:20:7: expect must be a list");
	load_error("      []\n", "t.yaml:20:7: expect takes 1 to 32 conditions");
}

/* ---- evaluation ---- */

static run_result timed(double ms, const char *settings)
{
	run_result r;
	run_result_init(&r);
	r.status = RUN_OK;
	r.ms_median = ms;
	r.bytes = 512;
	r.reps = 10;
	snprintf(r.settings, sizeof r.settings, "%s", settings);
	return r;
}

static void test_states(void **state)
{
	(void)state;
	char err[1024];
	lesson *l = load(LESSON
	                 "      - \"time_vs_prev <= 0.8\"\n"
	                 "      - \"bytes_ratio >= 8\"\n"
	                 "      - \"bytes_ratio >= 8 || time_vs_prev <= 0.5\"\n"
	                 "      - \"time_vs_baseline > 1 && bytes_ratio > 1\"\n",
	                 err, sizeof err);
	if (!l)
		fail_msg("%s", err);
	run_result run = timed(1.0, "n=64 BLOCK=256"), prev = timed(2.0, "n=64 BLOCK=128"), base = timed(1.5, "n=64");
	claim_outcome o[8];
	claims_runs runs = {&run, &prev, &base, NULL};
	assert_int_equal(claims_check(l, 0, &runs, o, 8), 4);
	assert_int_equal(o[0].state, CLAIM_HOLDS);          /* 1.0 / 2.0 */
	assert_string_equal(o[0].values, "time_vs_prev=0.5");
	assert_int_equal(o[1].state, CLAIM_UNKNOWN);        /* no counters */
	assert_string_equal(o[1].values, "bytes_ratio=?");
	assert_non_null(strstr(o[1].why, "bytes_ratio: not measured"));
	assert_int_equal(o[2].state, CLAIM_UNKNOWN);        /* the first operand decides nothing it cannot read */
	assert_int_equal(o[3].state, CLAIM_CONTRADICTED);   /* 1.0 / 1.5 <= 1: false, whatever the second half */

	run.dram_bytes_read = 4096, run.dram_bytes_write = 1024;   /* 10x the 512 bytes */
	claims_check(l, 0, &runs, o, 8);
	assert_int_equal(o[1].state, CLAIM_HOLDS);
	assert_string_equal(o[1].values, "bytes_ratio=10");
	assert_int_equal(o[2].state, CLAIM_HOLDS);
	run.dram_bytes_read = 512, run.dram_bytes_write = 0;
	claims_check(l, 0, &runs, o, 8);
	assert_int_equal(o[1].state, CLAIM_CONTRADICTED);
	assert_int_equal(o[2].state, CLAIM_HOLDS);          /* its other half holds */

	/* timed in alternating pairs with its baseline: the median of the pairs' ratios decides, not the two
	 * medians taken apart (0.667 here; a pair ratio of 0.8: the baseline's pair took 0.8x this run's time) */
	snprintf(run.pair, sizeof run.pair, "baseline");
	run.pair_ratio = 0.8;
	claims_check(l, 0, &runs, o, 8);
	assert_non_null(strstr(o[3].values, "time_vs_baseline=1.25"));
	/* a pair recorded against another baseline (the stage's baseline: changed since) is not this one's */
	snprintf(run.baseline, sizeof run.baseline, "baseline.other");
	claims_check(l, 0, &runs, o, 8);
	assert_non_null(strstr(o[3].values, "time_vs_baseline=0.667"));
	snprintf(run.baseline, sizeof run.baseline, "baseline");
	claims_check(l, 0, &runs, o, 8);
	assert_non_null(strstr(o[3].values, "time_vs_baseline=1.25"));
	run.baseline[0] = 0;
	run.pair[0] = 0, run.pair_ratio = 0;
	claims_check(l, 0, &runs, o, 8);
	assert_non_null(strstr(o[3].values, "time_vs_baseline=0.667"));

	/* a previous stage at other parameters is no comparison */
	snprintf(prev.settings, sizeof prev.settings, "n=128 BLOCK=128");
	claims_check(l, 0, &runs, o, 8);
	assert_int_equal(o[0].state, CLAIM_UNKNOWN);
	assert_non_null(strstr(o[0].why, "other parameters"));
	runs.prev = NULL;
	claims_check(l, 0, &runs, o, 8);
	assert_int_equal(o[0].state, CLAIM_UNKNOWN);
	assert_non_null(strstr(o[0].why, "no timed run of the previous stage"));

	/* a run that did not finish right checks nothing */
	run.status = RUN_WRONG;
	claims_check(l, 0, &runs, o, 8);
	for (int i = 0; i < 4; i++)
		assert_int_equal(o[i].state, CLAIM_UNKNOWN);
	int counts[CLAIM_STATE_COUNT];
	claims_count(o, 4, counts);
	assert_int_equal(counts[CLAIM_UNKNOWN], 4);
	assert_int_equal(claims_check(l, 0, &runs, o, 2), 2);   /* max */
	assert_int_equal(claims_check(l, 1, &runs, o, 8), 0);   /* no such stage */
	lesson_free(l);
}

/* ---- the shipped lessons against the recorded H100 runs ---- */

/* Claims written after the recording: the kernel they check changed (sgemm/bankfree's store of A,
 * tensorcore/wmma_smem's copy of A), so the recorded run of the old kernel contradicts them. */
static const char *const changed_after_recording[] = {
	"sgemm/bankfree: smem_conflicts_st_per_warp < 1000",
	"tensorcore/wmma_smem: smem_conflicts_st_per_warp < 500",
	NULL,
};

/* Counters added after the recording: a claim on them is unknown there. */
static int names_new_counter(const char *src)
{
	static const char *const added[] = {"warp_efficiency_pred_on", "gld_sectors_per_request", "tensor_inst", "tensor_sass", "l1_pct", NULL};
	for (int i = 0; added[i]; i++)
		if (strstr(src, added[i]))
			return 1;
	return 0;
}

static void check_recorded(const char *id, int *held)
{
	char path[256], err[1024];
	snprintf(path, sizeof path, "lessons/%s.yaml", id);
	lesson *l = lesson_load(path, "kernels", err, sizeof err);
	if (!l)
		fail_msg("%s", err);
	snprintf(path, sizeof path, "tests/fixtures/recorded/h100-1707a90-%s.json", id);
	replay *rp = replay_load(path, err, sizeof err);
	if (!rp)
		fail_msg("%s", err);
	int n = replay_count(rp), *stages = calloc((size_t)n, sizeof *stages);
	run_result *rs = calloc((size_t)n, sizeof *rs);
	assert_non_null(stages);
	assert_non_null(rs);
	for (int i = 0; i < n; i++) {
		rs[i] = *replay_result(rp, i);
		rs[i].log = NULL;
		stages[i] = strcmp(rs[i].stage, "baseline") ? lesson_stage_index(l, rs[i].stage) : -1;
		assert_true(stages[i] >= -1);
	}
	for (int s = 0; s < l->nstages; s++)
		if (l->stages[s].nclaims == 0)
			fail_msg("%s/%s has no expect: claims", id, l->stages[s].id);
	for (int i = 0; i < n; i++) {
		claim_outcome o[64];
		int k = claims_check_set(l, stages, rs, n, i, replay_device(rp), o, 64);
		for (int j = 0; j < k; j++) {
			char name[160];
			const char *src = expr_source(o[j].claim->cond.e);
			snprintf(name, sizeof name, "%s/%s: %s", id, rs[i].stage, src);
			int changed = 0;
			for (int c = 0; changed_after_recording[c]; c++)
				changed |= !strcmp(changed_after_recording[c], name);
			if (changed) {
				if (o[j].state != CLAIM_CONTRADICTED)
					fail_msg("%s: expected contradicted on the old kernel's run, got %s (%s)", name,
					         claims_state_name(o[j].state), o[j].values);
			} else if (names_new_counter(src) && !strchr(src, '&') && !strchr(src, '|')) {
				if (o[j].state != CLAIM_UNKNOWN)
					fail_msg("%s: a counter the recording lacks, yet %s", name, claims_state_name(o[j].state));
			} else if (o[j].state != CLAIM_HOLDS) {
				fail_msg("%s: %s (%s) %s", name, claims_state_name(o[j].state), o[j].values, o[j].why);
			} else {
				(*held)++;
			}
		}
	}
	free(stages);
	free(rs);
	replay_free(rp);
	lesson_free(l);
}

static void test_recorded_h100(void **state)
{
	(void)state;
	int held = 0;
	/* transpose has no recorded run: its claims at least exist, one or more per stage */
	char err[1024];
	lesson *t = lesson_load("lessons/transpose.yaml", "kernels", err, sizeof err);
	if (!t)
		fail_msg("%s", err);
	for (int s = 0; s < t->nstages; s++)
		if (t->stages[s].nclaims == 0)
			fail_msg("transpose/%s has no expect: claims", t->stages[s].id);
	lesson_free(t);
	check_recorded("bandwidth", &held);
	check_recorded("reduction", &held);
	check_recorded("sgemm", &held);
	check_recorded("tensorcore", &held);
	assert_true(held >= 50);
}

/* The same recorded run, changed the way a regression would change it, contradicts its claims. */
static void test_recorded_contradicted(void **state)
{
	(void)state;
	char err[1024];
	lesson *l = lesson_load("lessons/bandwidth.yaml", "kernels", err, sizeof err);
	replay *rp = replay_load("tests/fixtures/recorded/h100-1707a90-bandwidth.json", err, sizeof err);
	assert_non_null(l);
	assert_non_null(rp);
	run_result rs[8];
	int stages[8], n = replay_count(rp);
	assert_true(n <= 8);
	for (int i = 0; i < n; i++) {
		rs[i] = *replay_result(rp, i);
		rs[i].log = NULL;
		stages[i] = strcmp(rs[i].stage, "baseline") ? lesson_stage_index(l, rs[i].stage) : -1;
	}
	int v = lesson_stage_index(l, "vectorized"), k = -1;
	for (int i = 0; i < n; i++)
		if (stages[i] == v)
			k = i;
	assert_true(k >= 0);
	rs[k].ms_median *= 1.2;                      /* the vectorized stage loses its 10% */
	rs[k].pct_attainable_bw /= 1.2;
	claim_outcome o[16];
	int m = claims_check_set(l, stages, rs, n, k, replay_device(rp), o, 16), contradicted = 0;
	for (int j = 0; j < m; j++)
		contradicted += o[j].state == CLAIM_CONTRADICTED;
	assert_int_equal(contradicted, 2);           /* time_vs_prev <= 0.95, pct_attainable_bw >= 95 */
	assert_non_null(o[0].claim->why);
	replay_free(rp);
	lesson_free(l);
}

/* peak: only the peaks the engine knows, and each one is the device's own figure for it. */
static void test_peaks(void **state)
{
	(void)state;
	char text[2048], err[1024];
	snprintf(text, sizeof text, "%s", LESSON "      - \"ms > 0\"\n");
	char *model = strstr(text, "model: { bytes: \"8 * n\" }");
	assert_non_null(model);
	char bad[2048];
	snprintf(bad, sizeof bad, "%.*smodel: { bytes: \"8 * n\", peak: fp16 }%s", (int)(model - text), text,
	         model + strlen("model: { bytes: \"8 * n\" }"));
	lesson *l = load(bad, err, sizeof err);
	assert_null(l);
	assert_string_equal(err, "t.yaml:9:32: unknown peak 'fp16' (known: fp32, bf16_tensor, fp64, tf32_tensor, fp16_tensor, fp8_tensor, int8_tensor)");
	device_info d;
	memset(&d, 0, sizeof d);
	d.fp32_gflops = 66908, d.bf16_tensor_gflops = 1070530;
	d.fp64_gflops = 33454, d.tf32_tensor_gflops = 535265, d.fp16_tensor_gflops = 1070531, d.fp8_tensor_gflops = 2141060;
	snprintf(d.fp32_src, sizeof d.fp32_src, "lanes");
	snprintf(d.tensor_src, sizeof d.tensor_src, "tensor");
	snprintf(d.fp8_src, sizeof d.fp8_src, "fp8 rate");
	const double want[PEAK_COUNT] = { [PEAK_FP32] = 66908, [PEAK_BF16_TENSOR] = 1070530, [PEAK_FP64] = 33454,
	                                  [PEAK_TF32_TENSOR] = 535265, [PEAK_FP16_TENSOR] = 1070531, [PEAK_FP8_TENSOR] = 2141060 };
	for (int p = 0; p < PEAK_COUNT; p++) {
		assert_int_equal(peak_parse(peak_name((peak_kind)p)), p);   /* every known name loads */
		snprintf(bad, sizeof bad, "%.*smodel: { bytes: \"8 * n\", peak: %s }%s", (int)(model - text), text,
		         peak_name((peak_kind)p), model + strlen("model: { bytes: \"8 * n\" }"));
		l = load(bad, err, sizeof err);
		if (!l)
			fail_msg("%s", err);
		assert_true(peak_gflops(peak_of(l->peak), &d) == want[p]);
		lesson_free(l);
	}
	assert_true(peak_gflops(peak_of("bf16_tensor"), &d) == 1070530);
	assert_string_equal(peak_source(peak_of("bf16_tensor"), &d), "tensor");
	assert_string_equal(peak_source(peak_of("fp8_tensor"), &d), "fp8 rate");
	assert_true(peak_is_tensor(peak_of("tf32_tensor")) && !peak_is_tensor(peak_of("fp64")));
	assert_string_equal(peak_label(peak_of(NULL)), "FP32");
	assert_int_equal(peak_parse("tensor"), -1);
}


/* when: a condition over the device; a GPU that does not meet it leaves the claim not applied, saying
 * what it needs and what this GPU has. */
static void test_when(void **state)
{
	(void)state;
	load_error("      - { that: \"ms > 0\", when: \"bytes_ratio > 1\" }\n",
	           "t.yaml:20:34: expect: when: unknown name 'bytes_ratio' in 'bytes_ratio > 1'");
	load_error("      - { that: \"ms > 0\", when: \"1 > 0\" }\n", "t.yaml:20:33: expect: when: '1 > 0' names no device value");
	char text[4096], err[1024];
	snprintf(text, sizeof text, LESSON "%s", "      - { that: \"ms > 0\", when: \"cc >= 90\", why: \"w\" }\n      - \"ms > 0\"\n");
	lesson *l = load(text, err, sizeof err);
	if (!l)
		fail_msg("%s", err);
	run_result r;
	memset(&r, 0, sizeof r);
	r.status = RUN_OK;
	r.ms_median = 1;
	device_info d;
	memset(&d, 0, sizeof d);
	d.cc = 86;
	claims_runs runs = { &r, NULL, NULL, &d };
	claim_outcome o[4];
	assert_int_equal(claims_check(l, 0, &runs, o, 4), 2);
	assert_int_equal(o[0].state, CLAIM_UNKNOWN);
	assert_string_equal(o[0].why, "not applied: needs cc >= 90, this GPU has cc 86");
	assert_int_equal(o[1].state, CLAIM_HOLDS);
	d.cc = 90;
	claims_check(l, 0, &runs, o, 4);
	assert_int_equal(o[0].state, CLAIM_HOLDS);
	runs.device = NULL;
	claims_check(l, 0, &runs, o, 4);
	assert_int_equal(o[0].state, CLAIM_UNKNOWN);
	assert_string_equal(o[0].why, "not applied: needs cc >= 90, and no GPU was described");
	lesson_free(l);
}

/* when: { case: NAME, if: COND }: judged only on a run at the case's settings (its parameters, and
 * its tunables the stage has), the condition too; elsewhere not applied, saying which case and what
 * the run has instead. The lesson is tests/fixtures/cases (cases wide: n=1024, skewed: skew=0.6). */
static void test_when_case(void **state)
{
	(void)state;
	char err[1024];
	lesson *l = lesson_load("tests/fixtures/cases/lessons/cases.yaml", "tests/fixtures/cases/kernels", err, sizeof err);
	if (!l)
		fail_msg("%s", err);
	assert_int_equal(l->ncases, 2);
	assert_int_equal(l->stages[0].claims[0].when_case, 0);
	run_result r;
	memset(&r, 0, sizeof r);
	r.status = RUN_OK;
	r.ms_median = 1;
	r.bytes = 4096;
	r.dram_bytes_read = 4096;
	r.dram_bytes_write = 0;
	device_info d;
	memset(&d, 0, sizeof d);
	d.cc = 90;
	claims_runs runs = { &r, NULL, NULL, &d };
	claim_outcome o[4];
	snprintf(r.settings, sizeof r.settings, "n=32 skew=0 BLOCK=32");   /* the defaults */
	assert_int_equal(claims_check(l, 0, &runs, o, 4), 2);
	assert_int_equal(o[0].state, CLAIM_UNKNOWN);
	assert_string_equal(o[0].why, "not applied: judged in case wide (n=1024; --case wide), this run has n 32");
	snprintf(r.settings, sizeof r.settings, "n=1024 skew=0 BLOCK=64");   /* in the case (BLOCK is not the case's) */
	claims_check(l, 0, &runs, o, 4);
	assert_int_equal(o[0].state, CLAIM_HOLDS);
	assert_int_equal(o[1].state, CLAIM_HOLDS);
	snprintf(r.settings, sizeof r.settings, "n=1024.0 skew=0");   /* the same number, written another way */
	claims_check(l, 0, &runs, o, 4);
	assert_int_equal(o[0].state, CLAIM_HOLDS);
	r.dram_bytes_read = 4096 * 5;   /* contradicted in the case, never outside it */
	claims_check(l, 0, &runs, o, 4);
	assert_int_equal(o[0].state, CLAIM_CONTRADICTED);
	snprintf(r.settings, sizeof r.settings, "n=1000 skew=0");
	claims_check(l, 0, &runs, o, 4);
	assert_int_equal(o[0].state, CLAIM_UNKNOWN);
	assert_true(strstr(o[0].why, "this run has n 1000") != NULL);
	lesson_free(l);
	/* the case's tunable is the case's only on a stage that has it: here s has BLOCK */
	l = lesson_load("tests/fixtures/cases/lessons/cases.yaml", "tests/fixtures/cases/kernels", err, sizeof err);
	assert_int_equal(lesson_case_find(l, "SKEWED"), 1);
	assert_int_equal(lesson_case_find(l, "default"), -1);
	plan_setting sets[4] = { { "BLOCK", "128" } };
	int n = lesson_case_merge(l, 1, 0, sets, 1, 4);
	assert_int_equal(n, 2);   /* skew from the case; BLOCK stays the learner's */
	assert_string_equal(sets[0].value, "128");
	assert_string_equal(sets[1].name, "skew");
	assert_int_equal(lesson_case_merge(l, 1, -1, sets, 0, 4), 1);   /* the baseline: parameters only */
	lesson_free(l);
}

/* The claims rewritten to hold on the H100 and the H200 still catch a slow stage: each recording
 * holds as recorded, and contradicts once the stage is made 30% slower. */
static void planted(const char *id, const char *rec, const char *stage, const char *claim)
{
	char path[256], err[1024];
	snprintf(path, sizeof path, "lessons/%s.yaml", id);
	lesson *l = lesson_load(path, "kernels", err, sizeof err);
	if (!l)
		fail_msg("%s", err);
	replay *rp = replay_load(rec, err, sizeof err);
	if (!rp)
		fail_msg("%s", err);
	int n = replay_count(rp), stages[32], k = -1;
	run_result rs[32];
	assert_true(n <= 32);
	for (int i = 0; i < n; i++) {
		rs[i] = *replay_result(rp, i);
		rs[i].log = NULL;
		stages[i] = strcmp(rs[i].stage, "baseline") ? lesson_stage_index(l, rs[i].stage) : -1;
		if (!strcmp(rs[i].stage, stage))
			k = i;
	}
	assert_true(k >= 0);
	for (int slow = 0; slow < 2; slow++) {
		if (slow) {
			rs[k].ms_median *= 1.3;
			rs[k].pct_attainable_bw /= 1.3;
			rs[k].gbps /= 1.3;
		}
		claim_outcome o[32];
		int m = claims_check_set(l, stages, rs, n, k, replay_device(rp), o, 32), found = 0;
		for (int j = 0; j < m; j++) {
			if (strcmp(expr_source(o[j].claim->cond.e), claim))
				continue;
			found = 1;
			if (o[j].state != (slow ? CLAIM_CONTRADICTED : CLAIM_HOLDS))
				fail_msg("%s/%s %s on %s%s: %s (%s)", id, stage, claim, rec, slow ? " made slow" : "",
				         claims_state_name(o[j].state), o[j].values);
		}
		if (!found)
			fail_msg("%s/%s has no claim '%s'", id, stage, claim);
	}
	replay_free(rp);
	lesson_free(l);
}

static void test_planted_slow(void **state)
{
	(void)state;
	const char *h200 = "tests/fixtures/recorded/h200-899481e-2026-11-26-";
	char rec[256];
#define H200(lesson) (snprintf(rec, sizeof rec, "%s%s.json", h200, lesson), rec)
	planted("fusion", "tests/fixtures/recorded/h200-b5db905-2026-11-26-fusion.json", "fused_vec4", "pct_attainable_bw >= 72");
	planted("fusion", "tests/fixtures/recorded/h100-7092b07-fusion.json", "fused_vec4", "pct_attainable_bw >= 72");
	planted("dynamic", H200("dynamic"), "flat", "pct_attainable_bw >= 70");
	planted("attention", H200("attention"), "flash", "time_vs_prev <= 0.7");
	planted("bandwidth", H200("bandwidth"), "coalesced", "pct_attainable_bw >= 72");
	planted("bandwidth", "tests/fixtures/recorded/h100-7092b07-bandwidth.json", "coalesced", "pct_attainable_bw >= 72");
	planted("reduction", H200("reduction"), "lastblock", "pct_attainable_bw >= 93");
	planted("reduction", "tests/fixtures/recorded/h100-e80026b-reduction.json", "lastblock", "pct_attainable_bw >= 93");
	planted("reduction", H200("reduction"), "reduce6", "pct_attainable_bw >= 70 && pct_attainable_bw < 95");
	planted("softmax", H200("softmax"), "online", "time_vs_prev <= 0.96");
	planted("softmax", "tests/fixtures/recorded/h100-7092b07-softmax.json", "online", "time_vs_prev <= 0.96");
#undef H200
}

/* text (LESSON and its claims) with x a pinned host buffer, copied into d_x (the stage's) for the kernel. */
static void with_copy(char *text, size_t n)
{
	char *tail = xstrdup(strstr(text, "    expect:\n"));
	char *head = xstrdup(text);
	head[strstr(text, "stages:\n") - text] = 0;
	char *x = strstr(head, "init: iota }");
	memmove(x + strlen("init: iota, host: pinned }"), x + strlen("init: iota }"), strlen(x + strlen("init: iota }")) + 1);
	memcpy(x, "init: iota, host: pinned }", strlen("init: iota, host: pinned }"));
	snprintf(text, n, "%s%s", head,
	         "stages:\n  - id: s1\n    title: S\n    kernel: k.cu\n    entry: k\n    explain: e\n    bottleneck: b\n"
	         "    buffers: { d_x: { type: f32, count: n } }\n"
	         "    launches:\n      - copy: { dst: d_x, src: x }\n      - { grid: 1, block: 32, args: [d_x, z] }\n");
	strncat(text, tail, n - strlen(text) - 1);
	free(head);
	free(tail);
}

/* A claim on a copy name (time_vs_bound, bound_ms, kernel_ms) on a stage that copies nothing is
 * refused at load, at the name: it could never be judged. */
static void test_copy_names_need_copies(void **state)
{
	(void)state;
	char text[4096], err[1024];
	snprintf(text, sizeof text, "%s%s", LESSON, "      - \"ms > 0 && time_vs_bound <= 1.5\"\n");
	assert_null(load(text, err, sizeof err));
	assert_string_equal(err, "t.yaml:20:20: expect: 'time_vs_bound' is known only on a stage with copy steps (host to device or back), "
	                         "and this stage copies nothing between host and device: the claim could never be judged (time it against the model with "
	                         "pct_attainable_bw or pct_compute_peak instead)");
	snprintf(text, sizeof text, "%s%s", LESSON, "      - { that: \"kernel_ms < 1\", why: w }\n");
	assert_null(load(text, err, sizeof err));
	assert_non_null(strstr(err, "t.yaml:20:18: expect: 'kernel_ms' is known only on a stage with copy steps"));
	/* the other copy names are 0 without copies, not unknown: allowed */
	snprintf(text, sizeof text, "%s%s", LESSON, "      - \"h2d_bytes == 0 && copy_share < 0.1\"\n");
	lesson *l = load(text, err, sizeof err);
	if (!l)
		fail_msg("%s", err);
	lesson_free(l);
	/* a copy between two device buffers moves nothing over the bus: no bound either */
	snprintf(text, sizeof text, "%s%s", LESSON, "      - \"time_vs_bound <= 1.5\"\n");
	with_copy(text, sizeof text);
	char *pinned = strstr(text, ", host: pinned");
	memmove(pinned, pinned + strlen(", host: pinned"), strlen(pinned + strlen(", host: pinned")) + 1);
	assert_null(load(text, err, sizeof err));
	assert_non_null(strstr(err, "'time_vs_bound' is known only on a stage with copy steps"));
	/* with a copy step from a host buffer: loads */
	snprintf(text, sizeof text, "%s%s", LESSON, "      - \"time_vs_bound <= 1.5\"\n");
	with_copy(text, sizeof text);
	l = load(text, err, sizeof err);
	if (!l)
		fail_msg("%s", err);
	lesson_free(l);
}

/* when: over the run's parameters and the device's copy engines; the copy names (bound_ms, kernel_ms,
 * time_vs_bound, h2d_bytes, d2h_bytes, h2d_gbps, d2h_gbps). */
static void test_when_params_and_copies(void **state)
{
	(void)state;
	char text[4096], err[1024];
	/* the lesson's stage with a copy step (from x into a device buffer): the copy names are known there */
	snprintf(text, sizeof text, "%s%s", LESSON,
	         "      - { that: \"time_vs_bound <= 1.5\", when: \"n >= 1 << 20 && copy_engines >= 2\" }\n"
	         "      - \"bound_ms > 0 && kernel_ms < ms && h2d_bytes == 4000 && d2h_bytes == 0\"\n"
	         "      - \"h2d_gbps > 20 && d2h_gbps > 20\"\n");
	with_copy(text, sizeof text);
	lesson *l = load(text, err, sizeof err);
	if (!l)
		fail_msg("%s", err);
	run_result r;
	memset(&r, 0, sizeof r);
	r.status = RUN_OK;
	r.ms_median = 2;
	r.bound_ms = 1.6;
	r.kernel_ms = 0.5;
	r.h2d_bytes = 4000;
	strfmt(r.settings, sizeof r.settings, "n=7");
	device_info d;
	memset(&d, 0, sizeof d);
	d.cc = 90;
	d.copy_engines = 2;
	d.h2d_gbps = 25;
	d.d2h_gbps = 26;
	claims_runs runs = { &r, NULL, NULL, &d };
	claim_outcome o[4];
	assert_int_equal(claims_check(l, 0, &runs, o, 4), 3);
	assert_int_equal(o[0].state, CLAIM_UNKNOWN);   /* n = 7: not applied */
	assert_string_equal(o[0].why, "not applied: needs n >= 1 << 20 && copy_engines >= 2, this run has n 7, copy_engines 2");
	assert_int_equal(o[1].state, CLAIM_HOLDS);
	assert_int_equal(o[2].state, CLAIM_HOLDS);
	strfmt(r.settings, sizeof r.settings, "n=1048576");
	claims_check(l, 0, &runs, o, 4);
	assert_int_equal(o[0].state, CLAIM_HOLDS);     /* 2 / 1.6 = 1.25 */
	r.ms_median = 4;                               /* 2.5 x the bound */
	claims_check(l, 0, &runs, o, 4);
	assert_int_equal(o[0].state, CLAIM_CONTRADICTED);
	d.copy_engines = 1;
	claims_check(l, 0, &runs, o, 4);
	assert_int_equal(o[0].state, CLAIM_UNKNOWN);
	d.copy_engines = 0;                            /* not known (an older recording) */
	claims_check(l, 0, &runs, o, 4);
	assert_int_equal(o[0].state, CLAIM_UNKNOWN);
	assert_non_null(strstr(o[0].why, "copy_engines no known value"));
	r.bound_ms = r.kernel_ms = 0;                  /* a stage without copies: unknown, not contradicted */
	d.copy_engines = 2;
	claims_check(l, 0, &runs, o, 4);
	assert_int_equal(o[0].state, CLAIM_UNKNOWN);
	assert_int_equal(o[1].state, CLAIM_UNKNOWN);
	lesson_free(l);
	/* when: names parameters and tunables, not measurements */
	load_error("      - { that: \"ms > 0\", when: \"gbps > 1\" }\n", "t.yaml:20:34: expect: when: unknown name 'gbps'");
}

/* time_vs_ID and speedup_vs_ID against any stage of the lesson, in a bench's set of results. */
static void test_stage_ratios(void **state)
{
	(void)state;
	char text[4096], err[1024];
	snprintf(text, sizeof text, LESSON "%s",
	         "      - \"ms > 0\"\n"
	         "  - { id: s2, title: S, kernel: k.cu, entry: k, explain: e, bottleneck: b, launches: [{ grid: 1, block: 32, args: [x, z] }] }\n"
	         "  - { id: s3, title: S, kernel: k.cu, entry: k, explain: e, bottleneck: b, launches: [{ grid: 1, block: 32, args: [x, z] }],\n"
	         "      expect: [\"time_vs_s1 <= 0.5\", \"speedup_vs_s1 >= 2\", \"time_vs_prev <= 0.9\"] }\n");
	lesson *l = load(text, err, sizeof err);
	if (!l)
		fail_msg("%s", err);
	run_result rs[3];
	memset(rs, 0, sizeof rs);
	double ms[3] = { 4, 1.5, 1 };
	for (int i = 0; i < 3; i++) { rs[i].status = RUN_OK; rs[i].ms_median = ms[i]; strfmt(rs[i].settings, sizeof rs[i].settings, "n=64"); }
	int stages[3] = { 0, 1, 2 };
	claim_outcome o[4];
	assert_int_equal(claims_check_set(l, stages, rs, 3, 2, NULL, o, 4), 3);
	assert_int_equal(o[0].state, CLAIM_HOLDS);
	assert_int_equal(o[1].state, CLAIM_HOLDS);
	assert_int_equal(o[2].state, CLAIM_HOLDS);
	rs[2].ms_median = 3;
	claims_check_set(l, stages, rs, 3, 2, NULL, o, 4);
	assert_int_equal(o[0].state, CLAIM_CONTRADICTED);
	assert_int_equal(o[1].state, CLAIM_CONTRADICTED);
	/* without s1's run: unknown */
	claims_runs runs = { &rs[2], &rs[1], NULL, NULL };
	claims_check(l, 2, &runs, o, 4);
	assert_int_equal(o[0].state, CLAIM_UNKNOWN);
	lesson_free(l);
	/* a stage the lesson does not have */
	snprintf(text, sizeof text, LESSON "%s", "      - \"time_vs_naive <= 0.5\"\n");
	assert_null(load(text, err, sizeof err));
	assert_non_null(strstr(err, "t.yaml:20:10: expect: 'time_vs_naive' names no stage of this lesson"));
}

/* clock_vs_ID: the median SM clocks' ratio against another stage; the clock and power of the run
 * itself by name; unknown without a reading. */
static void test_clock_ratio(void **state)
{
	(void)state;
	char text[4096], err[1024];
	snprintf(text, sizeof text, LESSON "%s",
	         "      - \"ms > 0\"\n"
	         "  - { id: s2, title: S, kernel: k.cu, entry: k, explain: e, bottleneck: b, launches: [{ grid: 1, block: 32, args: [x, z] }],\n"
	         "      expect: [\"clock_vs_s1 <= 0.95\", \"power_w >= 0.9 * power_max_w\", \"sm_clock_min_mhz < sm_clock_max_mhz\"] }\n");
	lesson *l = load(text, err, sizeof err);
	if (!l) fail_msg("%s", err);
	run_result rs[2];
	for (int i = 0; i < 2; i++) {
		run_result_init(&rs[i]);
		rs[i].status = RUN_OK;
		rs[i].ms_median = 1 + i;
		strfmt(rs[i].settings, sizeof rs[i].settings, "n=64");
	}
	rs[0].sm_clock_mhz = 1980;
	rs[1].sm_clock_mhz = 1550, rs[1].sm_clock_min_mhz = 1545, rs[1].sm_clock_max_mhz = 1560;
	rs[1].power_w = 659, rs[1].power_max_w = 700;
	int stages[2] = { 0, 1 };
	claim_outcome o[4];
	assert_int_equal(claims_check_set(l, stages, rs, 2, 1, NULL, o, 4), 3);
	for (int i = 0; i < 3; i++) assert_int_equal(o[i].state, CLAIM_HOLDS);
	assert_non_null(strstr(o[0].values, "clock_vs_s1=0.78"));
	claims_runs runs = { &rs[1], &rs[0], NULL, NULL };   /* the same through clock_vs_prev */
	expr_value v;
	assert_int_equal(claims_value(l, 1, &runs, "clock_vs_prev", 13, &v, NULL, 0), 0);
	assert_true(v.f > 0.78 && v.f < 0.79);
	rs[1].sm_clock_mhz = 1980;
	claims_check_set(l, stages, rs, 2, 1, NULL, o, 4);
	assert_int_equal(o[0].state, CLAIM_CONTRADICTED);
	rs[0].sm_clock_mhz = -1;   /* no clock read in the other run */
	claims_check_set(l, stages, rs, 2, 1, NULL, o, 4);
	assert_int_equal(o[0].state, CLAIM_UNKNOWN);
	assert_non_null(strstr(o[0].why, "no SM clock"));
	rs[1].power_w = rs[1].power_max_w = -1;
	strfmt(rs[1].power_note, sizeof rs[1].power_note, "no power: this NVML lacks nvmlDeviceGetPowerUsage");
	claims_check_set(l, stages, rs, 2, 1, NULL, o, 4);
	assert_int_equal(o[1].state, CLAIM_UNKNOWN);
	assert_non_null(strstr(o[1].why, "nvmlDeviceGetPowerUsage"));
	for (int i = 0; i < 2; i++) run_result_clear(&rs[i]);
	lesson_free(l);
}

/* lessons/README.md's table of claim names is the code's list, neither more nor less. */
static void test_readme_names(void **state)
{
	(void)state;
	char *md = file_read("lessons/README.md", NULL);
	assert_non_null(md);
	char *at = strstr(md, "## Claims: `expect`"), *end = at ? strstr(at + 3, "\n## ") : NULL;
	assert_non_null(at);
	assert_non_null(end);
	*end = 0;
	char *names[256];
	int n = 0;
	for (char *line = at, *next; line && *line; line = next) {
		next = strchr(line, '\n');
		if (next) *next++ = 0;
		if (strncmp(line, "| `", 3)) continue;
		char *cell_end = strstr(line + 1, " |");
		for (char *p = line + 2; p && p < cell_end; ) {
			char *a = strchr(p, '`'), *b = a ? strchr(a + 1, '`') : NULL;
			if (!a || !b || b > cell_end) break;
			*b = 0;
			if (!strstr(a + 1, "_ID") && n < 256) names[n++] = a + 1;
			p = b + 1;
		}
	}
	assert_true(n > 50);
	const char *const *lists[2] = { diagnose_names(), claims_extra_names() };
	for (int k = 0; k < 2; k++)
		for (const char *const *c = lists[k]; *c; c++) {
			int found = 0;
			for (int i = 0; i < n; i++) found |= !strcmp(names[i], *c);
			if (!found) fail_msg("claim name %s is not in lessons/README.md's table", *c);
		}
	for (int i = 0; i < n; i++)
		if (!claims_name_known(names[i], strlen(names[i]))) fail_msg("lessons/README.md lists %s, which is not a claim name", names[i]);
	free(md);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_parse_errors),
		cmocka_unit_test(test_states),
		cmocka_unit_test(test_recorded_h100),
		cmocka_unit_test(test_recorded_contradicted),
		cmocka_unit_test(test_peaks),
		cmocka_unit_test(test_when),
		cmocka_unit_test(test_when_params_and_copies),
		cmocka_unit_test(test_copy_names_need_copies),
		cmocka_unit_test(test_when_case),
		cmocka_unit_test(test_stage_ratios), cmocka_unit_test(test_clock_ratio),
		cmocka_unit_test(test_readme_names),
		cmocka_unit_test(test_planted_slow),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
