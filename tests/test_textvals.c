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
#include <sys/stat.h>
#include <unistd.h>

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
	textvals_src src = { l, lesson_stage_index(l, "strided"), { NULL, NULL, NULL, NULL }, ref, NULL, NULL, NULL, 0 };
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
	textvals_src src = { l, lesson_stage_index(l, "coalesced"), { run, NULL, NULL, replay_device(rp) }, ref, NULL, NULL, NULL, 0 };
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

/* A ratio to another stage, {time_vs_ID}: from the recording's own record of that stage before any
 * run; from this GPU's runs of the stages once there are some, "?" where that stage has not run here,
 * which does not send the other numbers back to the recording. */
static void test_other_stage(void **state)
{
	(void)state;
	lesson *l = bandwidth();
	textvals_ref *ref = textvals_ref_find("tests/fixtures/textvals", "bandwidth");
	assert_non_null(ref);
	textvals_src src = { l, lesson_stage_index(l, "vectorized"), { NULL, NULL, NULL, NULL }, ref, NULL, NULL, NULL, 0 };
	char *f = textvals_fill(&src, "{time_vs_strided} of the strided time, {speedup_vs_coalesced} the coalesced speed"), note[400];
	assert_string_equal(f, "0.04x of the strided time, 1.26x the coalesced speed");
	free(f);
	char err[256];
	replay *rp = replay_load("tests/fixtures/recorded/h100-7092b07-bandwidth.json", err, sizeof err);
	assert_non_null(rp);
	const run_result *runs[4] = { NULL, NULL, NULL, NULL };
	for (int i = 0; i < replay_count(rp); i++) {
		int k = lesson_stage_index(l, replay_result(rp, i)->stage);
		if (k >= 0 && k < 4) runs[k] = replay_result(rp, i);
	}
	int c = lesson_stage_index(l, "coalesced");
	assert_non_null(runs[c]);
	textvals_src live = { l, c, { runs[c], NULL, NULL, replay_device(rp) }, ref, NULL, NULL, NULL, 0 };
	const char *t = "{gbps}, {speedup_vs_strided} the strided speed";
	f = textvals_fill(&live, t);
	assert_string_equal(f, "2707 GB/s, ? the strided speed");          /* strided not run here: still this run's */
	free(f);
	textvals_note(&live, t, note, sizeof note);
	assert_string_equal(note, "Figures from your last run (NVIDIA H100 80GB HBM3). ?: not measured in it.");
	live.live_stages = runs;
	live.nlive_stages = 4;
	f = textvals_fill(&live, t);
	assert_string_equal(f, "2707 GB/s, 17.9x the strided speed");
	free(f);
	live.live.run = NULL;                                              /* no run of this stage: the recording's */
	f = textvals_fill(&live, "{speedup_vs_strided}");
	assert_string_equal(f, "17.8x");                                  /* the H200's */
	free(f);
	replay_free(rp);
	textvals_ref_free(ref);
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
	textvals_src src = { l, lesson_stage_index(l, "coalesced"), { run, NULL, NULL, replay_device(rp) }, NULL, NULL, NULL, NULL, 0 };
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
	textvals_src src = { l, lesson_stage_index(l, "pipe_slow"), { run, NULL, NULL, replay_device(rp) }, NULL, NULL, NULL, NULL, 0 };
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
	textvals_src src = { NULL, 0, { NULL, NULL, NULL, NULL }, NULL, NULL, NULL, NULL, 0 };
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

/* ---- the recording whose record of a stage was made at its defaults ---- */

/* A lesson with two stages: s2 has tunables BK (default 16), PAD (0) and TMA, whose default depends
 * on the GPU (1 from cc 90 on, else 0); its text names s2's time and its speed against s1. */
static lesson *tunables_lesson(void)
{
	const char *text =
		"lesson: tvdef\ntitle: T\nsummary: s\nparams:\n  n: { default: 64, min: 1 }\nbuffers:\n"
		"  x: { type: f32, count: n, init: iota }\n  z: { type: f32, count: n, output: true }\n"
		"model: { bytes: \"8 * n\" }\nstages:\n"
		"  - id: s1\n    title: S1\n    kernel: k.cu\n    entry: k\n    explain: e\n    bottleneck: b\n"
		"    launches:\n      - { grid: 1, block: 32, args: [x, z] }\n"
		"  - id: s2\n    title: S2\n    kernel: k.cu\n    entry: k\n"
		"    tunables:\n      BK: { values: [8, 16, 32], default: 16 }\n      PAD: { values: [0, 4], default: 0 }\n"
		"      TMA: { values: [0, 1], default: \"cc >= 90 ? 1 : 0\" }\n"
		"    explain: \"at {ms}, {speedup_vs_prev} the speed of s1\"\n    bottleneck: b\n"
		"    launches:\n      - { grid: 1, block: 32, args: [x, z] }\n";
	char err[1024] = "";
	lesson *l = lesson_load_buffer("tvdef.yaml", text, strlen(text), NULL, err, sizeof err);
	if (!l) fail_msg("%s", err);
	return l;
}

/* Writes TOP/GPU/FILE: a recording on a GPU named name of compute capability cc, s1 taking s1_ms and
 * s2 s2_ms at settings s2_set. */
static void write_recording(const char *top, const char *gpu, const char *file, const char *name, int cc, double s1_ms,
                            double s2_ms, const char *s2_set)
{
	char dir[512], path[768];
	snprintf(dir, sizeof dir, "%s/%s", top, gpu);
	mkdir(dir, 0700);
	snprintf(path, sizeof path, "%s/%s", dir, file);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f, "{\"device\": {\"present\": 1, \"name\": \"%s\", \"cc\": %d, \"sm_count\": 132, \"warp_size\": 32, "
	           "\"max_threads_per_block\": 1024, \"smem_per_block_optin\": 232448},\n \"results\": [\n"
	           "  {\"lesson\": \"tvdef\", \"stage\": \"s1\", \"status\": \"ok\", \"settings\": \"n=64\", \"ms_median\": %g},\n"
	           "  {\"lesson\": \"tvdef\", \"stage\": \"s2\", \"status\": \"ok\", \"settings\": \"n=64 %s\", \"ms_median\": %g}]}\n",
	        name, cc, s1_ms, s2_set, s2_ms);
	fclose(f);
}

/* Removes what write_recording wrote under top (GPU folders of one file each), and top. */
static void remove_recordings(const char *top, const char *const *gpus, const char *const *files, int n)
{
	char path[768];
	for (int i = 0; i < n; i++) {
		snprintf(path, sizeof path, "%s/%s/%s", top, gpus[i], files[i]);
		unlink(path);
		snprintf(path, sizeof path, "%s/%s", top, gpus[i]);
		rmdir(path);
	}
	rmdir(top);
}

/* s2's text and note with the recordings under top, no run here. */
static void s2_text(const lesson *l, const char *top, char **text, char *note, size_t len)
{
	textvals_ref *ref = textvals_ref_find(top, "tvdef");
	assert_non_null(ref);
	textvals_src src = { l, lesson_stage_index(l, "s2"), { NULL, NULL, NULL, NULL }, ref, NULL, NULL, NULL, 0 };
	textvals_stage_fill(&src, l->stages[src.stage].explain, NULL, text, NULL, note, len);
	textvals_ref_free(ref);
}

/* The first GPU folder's record of s2 is at BK=32 PAD=4, the second's at the defaults (PAD not named:
 * a record that omits a tunable ran at its default): the text takes the second's figures, s1's too,
 * and the note names the second file; the first is still the lesson's recording (its GPU, its file). */
static void test_ref_at_defaults(void **state)
{
	(void)state;
	char top[] = "/tmp/cudaclimb-textvals.XXXXXX";
	assert_non_null(mkdtemp(top));
	const char *gpus[] = { "h100", "h200" }, *files[] = { "h100-aaaaaaa-2026-01-01-tvdef.json", "h200-bbbbbbb-2026-01-02-tvdef.json" };
	write_recording(top, gpus[0], files[0], "NVIDIA H100 80GB HBM3", 90, 2.0, 1.0, "BK=32 PAD=4 TMA=1");
	write_recording(top, gpus[1], files[1], "NVIDIA H200", 90, 3.0, 0.5, "BK=16 TMA=1");
	lesson *l = tunables_lesson();
	textvals_ref *ref = textvals_ref_find(top, "tvdef");
	assert_non_null(ref);
	assert_string_equal(textvals_ref_file(ref), files[0]);
	assert_string_equal(textvals_ref_gpu(ref), "NVIDIA H100 80GB HBM3");
	textvals_ref_free(ref);
	char *t = NULL, note[400];
	s2_text(l, top, &t, note, sizeof note);
	assert_string_equal(t, "at 500 us, 6.00x the speed of s1");
	assert_string_equal(note, "Figures from the H200 recording h200-bbbbbbb-2026-01-02-tvdef.json: no run of yours yet.");
	free(t);
	remove_recordings(top, gpus, files, 2);
	lesson_free(l);
}

/* Neither record of s2 is at the defaults: the first folder's figures, as before, and the note says at
 * what they were recorded and what the defaults are. */
static void test_ref_off_defaults(void **state)
{
	(void)state;
	char top[] = "/tmp/cudaclimb-textvals.XXXXXX";
	assert_non_null(mkdtemp(top));
	const char *gpus[] = { "h100", "h200" }, *files[] = { "h100-aaaaaaa-2026-01-01-tvdef.json", "h200-bbbbbbb-2026-01-02-tvdef.json" };
	write_recording(top, gpus[0], files[0], "NVIDIA H100 80GB HBM3", 90, 2.0, 1.0, "BK=32 PAD=4 TMA=1");
	write_recording(top, gpus[1], files[1], "NVIDIA H200", 90, 3.0, 0.5, "BK=8 PAD=0");
	lesson *l = tunables_lesson();
	char *t = NULL, note[400];
	s2_text(l, top, &t, note, sizeof note);
	assert_string_equal(t, "at 1.00 ms, 2.00x the speed of s1");
	assert_string_equal(note, "Figures from the H100 recording h100-aaaaaaa-2026-01-01-tvdef.json (recorded at BK=32 PAD=4; "
	                          "the defaults are BK=16 PAD=0): no run of yours yet.");
	free(t);
	remove_recordings(top, gpus, files, 2);
	lesson_free(l);
}

/* A default that depends on the GPU is the recording's GPU's: TMA=0 is the default on a cc 8.0 GPU
 * (not on a 9.0 one), and a record naming no tunable at all ran at every default. */
static void test_ref_defaults_of_its_gpu(void **state)
{
	(void)state;
	char top[] = "/tmp/cudaclimb-textvals.XXXXXX";
	assert_non_null(mkdtemp(top));
	const char *gpus[] = { "a100", "h100" }, *files[] = { "a100-aaaaaaa-2026-01-01-tvdef.json", "h100-bbbbbbb-2026-01-02-tvdef.json" };
	write_recording(top, gpus[0], files[0], "NVIDIA A100 80GB PCIe", 80, 4.0, 2.0, "BK=16 PAD=0 TMA=0");
	write_recording(top, gpus[1], files[1], "NVIDIA H100 80GB HBM3", 90, 2.0, 1.0, "");
	lesson *l = tunables_lesson();
	char *t = NULL, note[400];
	s2_text(l, top, &t, note, sizeof note);
	assert_string_equal(t, "at 2.00 ms, 2.00x the speed of s1");
	assert_string_equal(note, "Figures from the A100 recording a100-aaaaaaa-2026-01-01-tvdef.json: no run of yours yet.");
	free(t);
	remove_recordings(top, gpus, files, 2);
	/* on a 9.0 GPU TMA=0 is off its default: the next folder's record, which names none, is at them */
	strcpy(top, "/tmp/cudaclimb-textvals.XXXXXX");
	assert_non_null(mkdtemp(top));
	const char *gpus2[] = { "h100", "h200" }, *files2[] = { "h100-aaaaaaa-2026-01-01-tvdef.json", "h200-bbbbbbb-2026-01-02-tvdef.json" };
	write_recording(top, gpus2[0], files2[0], "NVIDIA H100 80GB HBM3", 90, 4.0, 2.0, "BK=16 PAD=0 TMA=0");
	write_recording(top, gpus2[1], files2[1], "NVIDIA H200", 90, 3.0, 0.5, "");
	s2_text(l, top, &t, note, sizeof note);
	assert_string_equal(t, "at 500 us, 6.00x the speed of s1");
	assert_string_equal(note, "Figures from the H200 recording h200-bbbbbbb-2026-01-02-tvdef.json: no run of yours yet.");
	free(t);
	remove_recordings(top, gpus2, files2, 2);
	lesson_free(l);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reference),
		cmocka_unit_test(test_live), cmocka_unit_test(test_other_stage), cmocka_unit_test(test_clock_power), cmocka_unit_test(test_units),
		cmocka_unit_test(test_syntax),
		cmocka_unit_test(test_no_reference),
		cmocka_unit_test(test_ref_at_defaults), cmocka_unit_test(test_ref_off_defaults),
		cmocka_unit_test(test_ref_defaults_of_its_gpu),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
