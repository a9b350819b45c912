/* src/engine/tune.c without a GPU: tests/fixtures/tune's land/land (five tunables of 8 values, two
 * constraints) loaded for --arch sm_90; the space and its defaults; the strategies driven in-process
 * against a synthetic landscape (the fake worker's: 1 at the best, +0.1 per step of two per tunable,
 * and a worse valley nearer the defaults): grid's order, random's permutation, ils's determinism, that
 * it proposes only allowed settings, never twice, and finds the best in a small share of the grid;
 * and the one line of what changed between two runs. Run from the repository root. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "engine.h"
#include "tune.h"

static engine *E;
static tune_space SP;

static int setup(void **state)
{
	(void)state;
	engine_opts o = { .arch = "sm_90", .gpu = -1, .quiet = 1, .lessons_root = "tests/fixtures/tune" };
	char err[512];
	E = engine_new(&o, err, sizeof err);
	if (!E) { fprintf(stderr, "%s\n", err); return -1; }
	const lesson *l = lesson_set_find(engine_lessons(E), "land");
	if (!l) return -1;
	SP = (tune_space){ .l = l, .stage = 0 };
	for (int i = 0; i < l->stages[0].ntunables; i++) SP.over[SP.nover++] = i;
	return tune_space_build(&SP, E, err, sizeof err);
}

static int teardown(void **state)
{
	(void)state;
	tune_space_free(&SP);
	engine_free(E);
	return 0;
}

static const int64_t best[5] = { 64, 4, 32, 16, 2 }, trap[5] = { 4, 16, 8, 4, 16 };

static double valley(const plan_setting *s, const int64_t *at)
{
	double ms = 1;
	for (int i = 0; i < 5; i++) ms += 0.1 * fabs(log2((double)atoll(s[i].value) / (double)at[i]));
	return ms;
}

/* The score of idx: higher for faster (1 / its time); the best scores 1. */
static double score_of(uint64_t idx)
{
	plan_setting s[TUNE_MAX_OVER];
	tune_space_sets(&SP, idx, s, 0, TUNE_MAX_OVER);
	double a = valley(s, best), b = valley(s, trap) + 0.1;
	return 1.0 / (a < b ? a : b);
}

/* Runs strategy name with seed for at most max trials; the positions in order into out (its count). */
static size_t drive(const char *name, uint64_t seed, size_t max, long *out, size_t *best_at, double *best_score)
{
	tune_search se;
	tune_search_start(&se, &SP, tune_strategy_find(name), seed);
	size_t n = 0;
	long pos;
	while (n < max && (pos = tune_search_next(&se)) >= 0) {
		out[n++] = pos;
		tune_search_report(&se, pos, score_of(SP.ok[pos]));
	}
	if (best_at) *best_at = se.best_at;
	if (best_score) *best_score = se.best_score;
	tune_search_free(&se);
	return n;
}

static void test_space(void **state)
{
	(void)state;
	assert_int_equal(SP.total, 32768);
	assert_int_equal(SP.nok, 21168);
	assert_int_equal(SP.refused, 11600);
	assert_true(SP.def_pos >= 0);
	char txt[128];
	tune_space_text(&SP, SP.ok[SP.def_pos], " ", txt, sizeof txt);
	assert_string_equal(txt, "A=8 B=8 C=8 D=8 E=8");
	for (size_t i = 1; i < SP.nok; i++) assert_true(SP.ok[i - 1] < SP.ok[i]);
	assert_int_equal(tune_space_find(&SP, SP.ok[77]), 77);
	/* A=128 B=16: 2048 > 1024, refused */
	uint64_t x = tune_space_with(&SP, tune_space_with(&SP, SP.ok[0], 0, 7), 1, 4);
	assert_int_equal(tune_space_find(&SP, x), -1);
	assert_int_equal(tune_space_digit(&SP, x, 0), 7);
	assert_int_equal(tune_space_digit(&SP, x, 1), 4);
}

static void test_grid_and_random(void **state)
{
	(void)state;
	long *a = calloc(SP.nok, sizeof *a), *b = calloc(SP.nok, sizeof *b);
	size_t n = drive("grid", 0, 100, a, NULL, NULL);
	assert_int_equal(n, 100);
	for (size_t i = 0; i < n; i++) assert_int_equal(a[i], (long)i);
	n = drive("random", 9, SP.nok, a, NULL, NULL);
	assert_int_equal(n, SP.nok);
	char *seen = calloc(SP.nok, 1);
	for (size_t i = 0; i < n; i++) { assert_false(seen[a[i]]); seen[a[i]] = 1; }
	drive("random", 9, 50, b, NULL, NULL);
	assert_memory_equal(a, b, 50 * sizeof *a);
	free(seen); free(a); free(b);
}

static void test_ils(void **state)
{
	(void)state;
	size_t max = SP.nok / 20;   /* 5% of the grid */
	long *a = calloc(max, sizeof *a), *b = calloc(max, sizeof *b);
	size_t at, n;
	double sc;
	for (uint64_t seed = 1; seed <= 5; seed++) {
		n = drive("ils", seed, max, a, &at, &sc);
		assert_int_equal(n, max);
		assert_true(fabs(sc - 1.0) < 1e-12);   /* the best (time 1) found */
		assert_true(at <= max);
		assert_int_equal(a[0], SP.def_pos);     /* from the defaults */
		char *seen = calloc(SP.nok, 1);
		for (size_t i = 0; i < n; i++) {
			assert_true(a[i] >= 0 && (size_t)a[i] < SP.nok);   /* allowed */
			assert_false(seen[a[i]]);                          /* never twice */
			seen[a[i]] = 1;
		}
		free(seen);
		drive("ils", seed, max, b, NULL, NULL);
		assert_memory_equal(a, b, max * sizeof *a);         /* --seed repeats it */
	}
	drive("ils", 1, max, a, NULL, NULL);
	drive("ils", 2, max, b, NULL, NULL);
	assert_true(memcmp(a, b, max * sizeof *a) != 0);
	free(a); free(b);
}

/* ils runs to the end of the space when nothing stops it (each setting once). */
static void test_ils_exhausts(void **state)
{
	(void)state;
	long *a = calloc(SP.nok + 1, sizeof *a);
	size_t n = drive("ils", 3, SP.nok + 1, a, NULL, NULL);
	assert_int_equal(n, SP.nok);
	free(a);
}

static void test_why_changed(void **state)
{
	(void)state;
	run_result d, b;
	run_result_init(&d);
	run_result_init(&b);
	char out[600];
	tune_why_changed(&d, &b, out, sizeof out);
	assert_non_null(strstr(out, "no counters to compare"));
	snprintf(d.occ_limiter, sizeof d.occ_limiter, "registers");
	snprintf(b.occ_limiter, sizeof b.occ_limiter, "shared memory");
	d.achieved_occupancy = 0.25; b.achieved_occupancy = 0.6;
	d.regs = 128; b.regs = 96;
	d.smem_conflicts_ld = 4e6; d.smem_conflicts_st = 0; b.smem_conflicts_ld = 0; b.smem_conflicts_st = 0;
	d.dram_bytes_read = 1e9; d.dram_bytes_write = 0; b.dram_bytes_read = 1e9; b.dram_bytes_write = 1e7;
	snprintf(d.stalls, sizeof d.stalls, "long_scoreboard 41%%, barrier 20%%");
	snprintf(b.stalls, sizeof b.stalls, "barrier 30%%, long_scoreboard 20%%");
	tune_why_changed(&d, &b, out, sizeof out);
	assert_non_null(strstr(out, "occupancy limited by shared memory, not registers"));
	assert_non_null(strstr(out, "occupancy 25% -> 60%"));
	assert_non_null(strstr(out, "registers 128 -> 96"));
	assert_non_null(strstr(out, "bank conflicts 4e+06 -> 0"));
	assert_non_null(strstr(out, "top stall barrier, not long_scoreboard"));
	assert_null(strstr(out, "DRAM"));   /* 1% more: not a change */
	assert_true(strstr(out, "limited by") < strstr(out, "occupancy 25%"));   /* the biggest first */
	tune_why_col c;
	tune_why_column(&d, &c);
	assert_string_equal(c.conflicts, "4000000");
	assert_string_equal(c.limiter, "registers");
	run_result_clear(&d);
	run_result_clear(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_space),
		cmocka_unit_test(test_grid_and_random),
		cmocka_unit_test(test_ils),
		cmocka_unit_test(test_ils_exhausts),
		cmocka_unit_test(test_why_changed),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
