/* Tests for src/engine/textvals.c: a stage text's placeholders filled from this GPU's run, from the
 * reference recording (assets/recorded) with its GPU named, or "?"; unknown names refused when the
 * lesson loads. Run from the repository root. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "replay.h"
#include "lesson.h"
#include "claims.h"
#include "textvals.h"

static lesson *bandwidth(void)
{
	char err[1024];
	lesson *l = lesson_load("lessons/bandwidth.yaml", "kernels", err, sizeof err);
	if (!l)
		fail_msg("%s", err);
	return l;
}

static void has_text(const char *got, const char *want)
{
	if (!strstr(got, want))
		fail_msg("expected '%s' in: %s", want, got);
}

/* No run here: the recording's values, and a note naming its file and GPU. */
static void test_reference(void **state)
{
	(void)state;
	lesson *l = bandwidth();
	textvals_ref *ref = textvals_ref_find("tests/fixtures/textvals", "bandwidth");
	assert_non_null(ref);
	assert_string_equal(textvals_ref_gpu(ref), "NVIDIA H200");
	textvals_src src = { l, lesson_stage_index(l, "strided"), { NULL, NULL, NULL, NULL }, ref, NULL, NULL };
	const char *t = "moved {dram_bytes}, {bytes_ratio} the model, at {gbps} ({pct_attainable_bw}); {speedup_vs_prev}";
	char *f = textvals_fill(&src, t), note[400];
	assert_string_equal(f, "moved 12.9 GB, 16.0x the model, at 196 GB/s (4.6%); ?");   /* the first stage has no previous one */
	free(f);
	textvals_note(&src, t, note, sizeof note);
	assert_string_equal(note, "Figures from the H200 recording h200-899481e-2026-11-26-bandwidth.json: no run of yours yet. "
	                          "?: not in it.");
	src.stage = lesson_stage_index(l, "coalesced");
	f = textvals_fill(&src, "{speedup_vs_prev} faster, {time_vs_prev} of the time");
	assert_string_equal(f, "17.8x faster, 0.06x of the time");
	free(f);
	textvals_ref_free(ref);
	lesson_free(l);
}

/* A run here: its own values when it has them all; else every number from the recording, never a
 * mix, and one line saying where (no tag after each number). */
static void test_live(void **state)
{
	(void)state;
	lesson *l = bandwidth();
	char err[256];
	replay *rp = replay_load("tests/fixtures/recorded/h100-7092b07-bandwidth.json", err, sizeof err);
	assert_non_null(rp);
	run_result *run = NULL;
	for (int i = 0; i < replay_count(rp); i++)
		if (!strcmp(replay_result(rp, i)->stage, "coalesced"))
			run = (run_result *)replay_result(rp, i);
	assert_non_null(run);
	textvals_ref *ref = textvals_ref_find("tests/fixtures/textvals", "bandwidth");
	textvals_src src = { l, lesson_stage_index(l, "coalesced"), { run, NULL, NULL, replay_device(rp) }, ref, NULL, NULL };
	const char *t = "{gbps}, {speedup_vs_prev} faster";
	char *f = textvals_fill(&src, t), note[400];
	assert_string_equal(f, "3494 GB/s, 17.8x faster");          /* the run lacks the previous stage: all the H200's */
	assert_null(strstr(f, "of the recording"));
	free(f);
	textvals_note(&src, t, note, sizeof note);
	assert_string_equal(note, "Figures from the H200 recording h200-899481e-2026-11-26-bandwidth.json: "
	                          "your last run did not measure them all.");
	f = textvals_fill(&src, "{gbps}");
	assert_string_equal(f, "2707 GB/s");
	free(f);
	textvals_note(&src, "{gbps}", note, sizeof note);
	assert_string_equal(note, "Figures from your last run (NVIDIA H100 80GB HBM3).");
	src.live_from = "the replayed file x.json";                 /* a replay: not the learner's run */
	textvals_note(&src, "{gbps}", note, sizeof note);
	assert_string_equal(note, "Figures from the replayed file x.json (NVIDIA H100 80GB HBM3), not a run of yours.");
	src.live_from = NULL;
	run_status was = run->status;                              /* a run that measured nothing: no GPU */
	run->status = RUN_NO_GPU;
	f = textvals_fill(&src, t);
	textvals_note(&src, t, note, sizeof note);
	has_text(note, "no run of yours yet");
	assert_null(strstr(f, "of the recording"));
	free(f);
	run->status = was;
	src.ref = NULL;                              /* no recording: this run's, a question mark for the rest */
	f = textvals_fill(&src, t);
	assert_string_equal(f, "2707 GB/s, ? faster");
	free(f);
	textvals_note(&src, t, note, sizeof note);
	assert_string_equal(note, "Figures from your last run (NVIDIA H100 80GB HBM3). ?: not measured in it.");
	textvals_ref_free(ref);
	replay_free(rp);
	lesson_free(l);
}

/* The SM clock and the board's power read with the run: MHz and W; a run without a power reading
 * (an older recording, NVML without it) leaves the recording's figures, here none: "?". */
static void test_clock_power(void **state)
{
	(void)state;
	lesson *l = bandwidth();
	char err[256];
	replay *rp = replay_load("tests/fixtures/recorded/h100-7092b07-bandwidth.json", err, sizeof err);
	assert_non_null(rp);
	run_result *run = NULL;
	for (int i = 0; i < replay_count(rp); i++)
		if (!strcmp(replay_result(rp, i)->stage, "coalesced")) run = (run_result *)replay_result(rp, i);
	assert_non_null(run);
	double was[5] = { run->sm_clock_mhz, run->sm_clock_min_mhz, run->sm_clock_max_mhz, run->power_w, run->power_max_w };
	assert_true(run->power_w == -1 && run->power_max_w == -1);   /* recorded before power was read */
	textvals_src src = { l, lesson_stage_index(l, "coalesced"), { run, NULL, NULL, replay_device(rp) }, NULL, NULL, NULL };
	const char *t = "{sm_clock_mhz} ({sm_clock_min_mhz} to {sm_clock_max_mhz}) at {power_w}, {power_max_w} at most";
	char *f = textvals_fill(&src, t);
	has_text(f, "? at most");
	free(f);
	run->sm_clock_mhz = 1545.5;
	run->sm_clock_min_mhz = 1545;
	run->sm_clock_max_mhz = 1980;
	run->power_w = 658.7;
	run->power_max_w = 701.2;
	f = textvals_fill(&src, t);
	assert_string_equal(f, "1546 MHz (1545 MHz to 1980 MHz) at 659 W, 701 W at most");
	free(f);
	claims_runs cr = { run, NULL, NULL, replay_device(rp) };
	expr_value v;
	char why[160] = "";
	assert_int_equal(claims_value(l, lesson_stage_index(l, "coalesced"), &cr, "power_w", 7, &v, why, sizeof why), 0);
	assert_true(v.f == 658.7);
	run->sm_clock_mhz = was[0], run->sm_clock_min_mhz = was[1], run->sm_clock_max_mhz = was[2], run->power_w = was[3], run->power_max_w = was[4];
	replay_free(rp);
	lesson_free(l);
}

/* Every time reads as a time and a share as a share: {kernel_ms}, {copy_ms} and {bound_ms} with their
 * unit, {copy_share} as a percentage (they read as bare numbers before: "0.625"). From the H200's
 * recording of timing/pipe_slow, a stage with host copies. */
static void test_units(void **state)
{
	(void)state;
	char err[1024];
	lesson *l = lesson_load("lessons/timing.yaml", "kernels", err, sizeof err);
	if (!l) fail_msg("%s", err);
	replay *rp = replay_load("assets/recorded/h200/h200-b95e90e-2026-11-29-timing.json", err, sizeof err);
	assert_non_null(rp);
	const run_result *run = NULL;
	for (int i = 0; i < replay_count(rp); i++)
		if (!strcmp(replay_result(rp, i)->stage, "pipe_slow")) run = replay_result(rp, i);
	assert_non_null(run);
	assert_true(run->kernel_ms > 0 && run->ms_median > run->kernel_ms);
	textvals_src src = { l, lesson_stage_index(l, "pipe_slow"), { run, NULL, NULL, replay_device(rp) }, NULL, NULL, NULL };
	char *f = textvals_fill(&src, "[{kernel_ms}] [{copy_ms}] [{copy_share}]");
	char k[32], c[32], sh[32];
	if (sscanf(f, "[%31[^]]] [%31[^]]] [%31[^]]]", k, c, sh) != 3) fail_msg("not three values: %s", f);
	if (!strstr(k, "ms") && !strstr(k, "us") && !strstr(k, " s")) fail_msg("kernel_ms without a unit: %s", f);
	if (!strstr(c, "ms") && !strstr(c, "us") && !strstr(c, " s")) fail_msg("copy_ms without a unit: %s", f);
	if (!strchr(sh, '%')) fail_msg("copy_share not a percentage: %s", f);
	free(f);
	replay_free(rp);
	lesson_free(l);
}

/* Braces that are no placeholder stay as they are; an unknown name is refused when the lesson loads. */
static void test_syntax(void **state)
{
	(void)state;
	assert_false(textvals_has("if (x) { y = 1; } {A} {} {1x} {gbps"));
	assert_true(textvals_has("at {gbps}"));
	size_t n = 0;
	assert_int_equal(claims_text_check("at {gbps} and {gbs}", &n), 14);
	assert_int_equal(n, 3);
	assert_int_equal(claims_text_check("at {gbps}", &n), -1);
	textvals_src src = { NULL, 0, { NULL, NULL, NULL, NULL }, NULL, NULL, NULL };
	lesson *l = bandwidth();
	src.l = l;
	char *f = textvals_fill(&src, "if (x) { y = 1; } {A}");
	assert_string_equal(f, "if (x) { y = 1; } {A}");
	free(f);
	lesson_free(l);
	const char *text =
		"lesson: t\ntitle: T\nsummary: s\nparams:\n  n: { default: 64, min: 1 }\nbuffers:\n"
		"  x: { type: f32, count: n, init: iota }\n  z: { type: f32, count: n, output: true }\n"
		"model: { bytes: \"8 * n\" }\nstages:\n  - id: s1\n    title: S\n    kernel: k.cu\n    entry: k\n"
		"    explain: e\n    bottleneck: runs at {gb_per_s}\n"
		"    launches:\n      - { grid: 1, block: 32, args: [x, z] }\n";
	char err[1024] = "";
	lesson *bad = lesson_load_buffer("t.yaml", text, strlen(text), NULL, err, sizeof err);
	assert_null(bad);
	has_text(err, "t.yaml:16:17: unknown measurement '{gb_per_s}' in the text");
}

/* No recording for a lesson, an odd id, or CUDACLIMB_RECORDED empty: none, and no crash. */
static void test_no_reference(void **state)
{
	(void)state;
	assert_null(textvals_ref_find("assets/recorded", "nosuchlesson"));
	assert_null(textvals_ref_find("assets/recorded", "../bandwidth"));
	assert_null(textvals_ref_find("/nonexistent", "bandwidth"));
	setenv("CUDACLIMB_RECORDED", "", 1);
	assert_null(textvals_ref_find(NULL, "bandwidth"));
	unsetenv("CUDACLIMB_RECORDED");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reference),
		cmocka_unit_test(test_live), cmocka_unit_test(test_clock_power), cmocka_unit_test(test_units),
		cmocka_unit_test(test_syntax),
		cmocka_unit_test(test_no_reference),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
