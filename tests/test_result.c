/* result, json, replay: the worker protocol's text form and the JSON form round-trip every
 * field, strings with newlines, tabs, quotes and backslashes included. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <string.h>
#include <unistd.h>
#include "replay_fixture.h"
#include "json.h"
#include "result.h"
#include "util.h"

static void sample(run_result *r)
{
	run_result_init(r);
	strcpy(r->lesson, "bandwidth");
	strcpy(r->stage, "coalesced");
	strcpy(r->title, "Coalesced, \"one\" element\tper thread");
	r->status = RUN_WRONG;
	strcpy(r->message, "z: 1 of 5 wrong\nsecond line \\ with a backslash");
	strcpy(r->settings, "n=1024 a=2 BLOCK=256");
	strcpy(r->attainable, "read");   /* which bandwidth pct_attainable_bw is of */
	r->regs = 12; r->spill_stores = 3; r->static_smem = 4096; r->dynamic_smem = 1 << 20;
	r->grid[0] = 262144; r->grid[1] = 2; r->grid[2] = 3;
	r->block[0] = 256; r->block[1] = 1; r->block[2] = 1;
	r->occ_theoretical = 0.75; r->occ_api_blocks = 6;
	r->ms_median = 0.2371; r->ms_min = 0.1 / 3; r->gbps = 3396.5;
	r->bad_count = 1; r->first_bad = 4; r->seed = 18446744073709551557ULL;
	r->achieved_occupancy = 0.808; r->dram_bytes_read = 5.37e8;
	strcpy(r->stalls, "long_scoreboard 93%, wait 2%");
	r->findings.n = 2;
	r->findings.f[0] = (diag_finding){ "memory_bound_done", DIAG_DONE, "At the bandwidth ceiling", "101% of attainable", 1,
	                                   { { "pct_attainable_bw", 101.2 } } };
	r->findings.f[1] = (diag_finding){ "x", DIAG_INFO, "", "y: a \"quoted\" word", 0, { { "", 0 } } };
	r->log = strdup("kernels/x.cu(5): error: expected a \";\"\n  }\n  ^\n");
	/* fair timing: the pair, the clocks (the pair's FLOP/cycle left unmeasured), the flush, the inputs */
	strcpy(r->pair, "baseline");
	r->pair_ratio = 1.0234; r->pair_ratio_p20 = 1.01; r->pair_ratio_p80 = 1.04; r->pair_ms_median = 1.5574;
	r->sm_clock_mhz = 1755; r->sm_clock_min_mhz = 1740; r->sm_clock_max_mhz = 1980; r->pair_sm_clock_mhz = 1762.5;
	r->flop_per_cycle_sm = 3022.75;
	strcpy(r->clock_note, "a \"note\"\twith a tab");
	r->power_w = 658.25; r->power_max_w = 700.5;
	strcpy(r->power_note, "no power: a note");
	r->l2_flush = 1;
	r->launch_hold = 2;
	strcpy(r->inputs, "A, B: f32, uniform in [-1, 1]; seed 18446744073709551557");
}

static void assert_same(const run_result *a, const run_result *b)
{
	assert_string_equal(a->title, b->title);
	assert_int_equal(a->status, b->status);
	assert_string_equal(a->message, b->message);
	assert_string_equal(a->settings, b->settings);
	assert_string_equal(a->attainable, b->attainable);   /* through the worker protocol, JSON and replay */
	assert_int_equal(a->regs, b->regs);
	assert_int_equal(a->spill_stores, b->spill_stores);
	assert_true(a->static_smem == b->static_smem && a->dynamic_smem == b->dynamic_smem);
	assert_memory_equal(a->grid, b->grid, sizeof a->grid);
	assert_memory_equal(a->block, b->block, sizeof a->block);
	assert_true(a->occ_theoretical == b->occ_theoretical);
	assert_int_equal(a->occ_api_blocks, b->occ_api_blocks);
	assert_true(a->ms_median == b->ms_median && a->ms_min == b->ms_min && a->gbps == b->gbps);
	assert_true(a->bad_count == b->bad_count && a->first_bad == b->first_bad);
	assert_true(a->seed == b->seed);
	assert_true(a->achieved_occupancy == b->achieved_occupancy && a->dram_bytes_read == b->dram_bytes_read);
	assert_true(a->dram_bytes_write == b->dram_bytes_write);   /* -1: not measured */
	assert_string_equal(a->stalls, b->stalls);
	assert_string_equal(a->pair, b->pair);
	assert_true(a->pair_ratio == b->pair_ratio && a->pair_ratio_p20 == b->pair_ratio_p20 && a->pair_ratio_p80 == b->pair_ratio_p80);
	assert_true(a->pair_ms_median == b->pair_ms_median);
	assert_true(a->sm_clock_mhz == b->sm_clock_mhz && a->sm_clock_min_mhz == b->sm_clock_min_mhz && a->sm_clock_max_mhz == b->sm_clock_max_mhz);
	assert_true(a->pair_sm_clock_mhz == b->pair_sm_clock_mhz && a->flop_per_cycle_sm == b->flop_per_cycle_sm);
	assert_true(a->pair_flop_per_cycle_sm == b->pair_flop_per_cycle_sm);   /* -1: not measured */
	assert_true(a->power_w == b->power_w && a->power_max_w == b->power_max_w);
	assert_string_equal(a->power_note, b->power_note);
	assert_string_equal(a->clock_note, b->clock_note);
	assert_int_equal(a->l2_flush, b->l2_flush);
	assert_int_equal(a->launch_hold, b->launch_hold);
	assert_string_equal(a->inputs, b->inputs);
	assert_int_equal(a->findings.n, b->findings.n);   /* the text form keeps rule, severity and text */
	for (int i = 0; i < a->findings.n; i++) {
		assert_string_equal(a->findings.f[i].rule, b->findings.f[i].rule);
		assert_int_equal(a->findings.f[i].severity, b->findings.f[i].severity);
		assert_string_equal(a->findings.f[i].text, b->findings.f[i].text);
	}
}

/* The findings' text form, "severity rule: text" a line, and what reading it back makes of older or
 * odd text. */
static void test_findings_text(void **state)
{
	(void)state;
	run_findings fs;
	run_findings_parse(&fs, "critical uncoalesced: 16.0x the bytes: fix it\n"
	                        "warn some_rule: an older file's word\n"
	                        "\n"
	                        "a line that names no rule\n"
	                        "info two words: no rule id has a space\n"
	                        "done x: \033]52;c;aGk=\007 \302\233 end");
	assert_int_equal(fs.n, 5);
	assert_string_equal(fs.f[0].rule, "uncoalesced");
	assert_int_equal(fs.f[0].severity, DIAG_CRITICAL);
	assert_string_equal(fs.f[0].text, "16.0x the bytes: fix it");
	assert_int_equal(fs.f[1].severity, DIAG_WARNING);            /* "warn" is short for warning */
	assert_string_equal(fs.f[2].rule, "");
	assert_string_equal(fs.f[2].text, "a line that names no rule");
	assert_string_equal(fs.f[3].rule, "");
	assert_string_equal(fs.f[4].text, "?]52;c;aGk=? ? end");       /* no control characters */
	char *text = run_findings_text(&fs);
	assert_string_equal(text, "critical uncoalesced: 16.0x the bytes: fix it\n"
	                          "warning some_rule: an older file's word\n"
	                          "a line that names no rule\n"
	                          "info two words: no rule id has a space\n"
	                          "done x: ?]52;c;aGk=? ? end\n");
	run_findings again;
	run_findings_parse(&again, text);                               /* read back: the same */
	char *text2 = run_findings_text(&again);
	assert_string_equal(text, text2);
	free(text);
	free(text2);
	assert_int_equal(diag_severity_parse("warn", 4), DIAG_WARNING);
	assert_int_equal(diag_severity_parse("war", 3), -1);
	assert_int_equal(diag_severity_parse("warnings", 8), -1);
	assert_string_equal(diag_severity_name(DIAG_SEVERITY_COUNT), "?");
	/* at most RUN_FINDINGS_MAX */
	sb b = {0};
	for (int i = 0; i < RUN_FINDINGS_MAX + 3; i++) sb_addf(&b, "info r%d: t\n", i);
	run_findings_parse(&fs, b.s);
	assert_int_equal(fs.n, RUN_FINDINGS_MAX);
	sb_free(&b);
	run_findings_parse(&fs, "");
	assert_int_equal(fs.n, 0);
	text = run_findings_text(&fs);
	assert_string_equal(text, "");
	free(text);
}

/* Named fields copied by the table: those and no others; an unknown name is counted. */
static void test_copy_named(void **state)
{
	(void)state;
	run_result a, b;
	sample(&a);
	run_result_init(&b);
	static const char *const names[] = { "regs", "grid", "settings", "occ_theoretical", NULL };
	assert_int_equal(field_copy_named(run_result_fields, run_result_nfields, &b, &a, names), 0);
	assert_int_equal(b.regs, 12);
	assert_memory_equal(b.grid, a.grid, sizeof a.grid);
	assert_string_equal(b.settings, a.settings);
	assert_true(b.occ_theoretical == 0.75);
	assert_int_equal(b.spill_stores, 0);                    /* not named: untouched */
	assert_string_equal(b.stage, "");
	static const char *const odd[] = { "regs", "no_such_field", "log", NULL };
	assert_int_equal(field_copy_named(run_result_fields, run_result_nfields, &b, &a, odd), 2);
	assert_null(b.log);                                     /* the log is no field: never shared */
	run_result_clear(&a);
	run_result_clear(&b);
}

/* JSON keeps the text under "diagnosis" and adds the structures under "findings". */
static void test_json_findings(void **state)
{
	(void)state;
	run_result r;
	sample(&r);
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);
	json_object(f, run_result_fields, run_result_nfields, &r, NULL, NULL);
	fclose(f);
	assert_non_null(strstr(out, "\"diagnosis\": \"done memory_bound_done: 101% of attainable\\ninfo x: y: a \\\"quoted\\\" word\\n\""));
	assert_non_null(strstr(out, "\"findings\": [{\"rule\": \"memory_bound_done\", \"severity\": \"done\", "
	                            "\"title\": \"At the bandwidth ceiling\", \"text\": \"101% of attainable\", "
	                            "\"evidence\": {\"pct_attainable_bw\": 101.2}}, {\"rule\": \"x\", \"severity\": \"info\""));
	free(out);
	run_result_clear(&r);                                   /* frees the sample's log */
	f = open_memstream(&out, &len);
	json_object(f, run_result_fields, run_result_nfields, &r, NULL, NULL);
	fclose(f);
	assert_non_null(strstr(out, "\"diagnosis\": \"\", \"findings\": []"));
	free(out);
	run_result_clear(&r);
}

/* The worker's text form: "name value" lines, read back with field_set. */
static void test_kv_round_trip(void **state)
{
	(void)state;
	run_result a, b;
	sample(&a);
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	field_write_kv(f, run_result_fields, run_result_nfields, &a);
	fclose(f);
	run_result_init(&b);
	int lines = 0;
	for (char *line = strtok(buf, "\n"); line; line = strtok(NULL, "\n"), lines++) {
		char *sp = strchr(line, ' ');
		assert_non_null(sp);
		*sp = 0;
		assert_int_equal(field_set(run_result_fields, run_result_nfields, &b, line, sp + 1), 0);
	}
	assert_int_equal(lines, run_result_nfields);   /* one line per field: no string broke a line */
	assert_same(&a, &b);
	free(buf);
	run_result_clear(&a);
	run_result_clear(&b);
}

static void test_field_set_errors(void **state)
{
	(void)state;
	run_result r;
	run_result_init(&r);
	assert_int_equal(field_set(run_result_fields, run_result_nfields, &r, "no_such_field", "1"), -1);
	assert_int_equal(field_set(run_result_fields, run_result_nfields, &r, "regs", "12x"), -1);
	assert_int_equal(field_set(run_result_fields, run_result_nfields, &r, "status", "sideways"), -1);
	assert_int_equal(field_set(run_result_fields, run_result_nfields, &r, "grid", "1,2"), -1);
	assert_int_equal(field_set(run_result_fields, run_result_nfields, &r, "ms_median", ""), -1);
	assert_int_equal(field_set(run_result_fields, run_result_nfields, &r, "status", "hang"), 0);
	assert_int_equal(r.status, RUN_HANG);
}

/* A replay's text fields lose bidi and zero-width characters as well as control characters. */
static void test_replay_invisible(void **state)
{
	(void)state;
	char path[] = "/tmp/cc-replay-inv-XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	FILE *f = fdopen(fd, "w");
	fputs("{\"device\": {\"present\": 1}, \"results\": [{\"lesson\": \"reduction\", \"stage\": \"vector\", "
	      "\"message\": \"ok \\u202egnp.exe\\u200b \\u001b[2J end\"}]}\n", f);
	fclose(f);
	char err[512];
	replay *rp = replay_load(path, err, sizeof err);
	assert_non_null(rp);
	assert_string_equal(replay_result(rp, 0)->message, "ok ?gnp.exe? ?[2J end");
	replay_free(rp);
	unlink(path);
}

static void test_escape(void **state)
{
	(void)state;
	const char *s = "a\\b\nc\td \\n";
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	field_escape(f, s);
	fclose(f);
	assert_null(strchr(buf, '\n'));
	char *back = field_unescape(buf);
	assert_string_equal(back, s);
	free(back);
	free(buf);
}

/* Control characters, DEL and C1 come out as \u escapes; everything else as it is. */
static void test_json_string_controls(void **state)
{
	(void)state;
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);
	json_string(f, "a\033]52;c;aGk=\007b\177c\302\233d\303\251\"\\");
	fclose(f);
	assert_string_equal(out, "\"a\\u001b]52;c;aGk=\\u0007b\\u007fc\\u009bd\303\251\\\"\\\\\"");
	free(out);
}

/* Bytes that are not UTF-8 (a learner's source quoted in a compile log: a stray continuation, a cut
 * sequence, an overlong form, a surrogate, past U+10FFFF) come out as U+FFFD, so the document stays
 * JSON; the bidi and zero-width characters as escapes; good UTF-8 (2, 3 and 4 bytes) as it is. */
static void test_json_string_not_utf8(void **state)
{
	(void)state;
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);
	json_string(f, "a\x80" "b\xc3(\xc0\xaf" "c\xed\xa0\x80" "d\xf4\x90\x80\x80" "e\xff\xe2\x80\xae\xe2\x80\x8b\xd8\x9c\xef\xbb\xbf\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\xe2\x80");
	fclose(f);
	assert_string_equal(out, "\"a\\ufffdb\\ufffd(\\ufffd\\ufffdc\\ufffd\\ufffd\\ufffdd\\ufffd\\ufffd\\ufffd\\ufffde\\ufffd"
	                         "\\u202e\\u200b\\u061c\\ufeff\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\\ufffd\\ufffd\"");
	free(out);
}

/* run/bench --json, read back by --replay. */
static void test_json_replay_round_trip(void **state)
{
	(void)state;
	char path[] = "/tmp/cc-test-replay-XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	FILE *f = fdopen(fd, "w");
	device_info d;
	memset(&d, 0, sizeof d);
	d.present = 1;
	strcpy(d.name, "NVIDIA H200");
	d.sm_count = 132;
	d.bw_attainable_gbps = 4239.5;
	strcpy(d.bw_attainable_src, "device-to-device cudaMemcpy, \"median\" of 20");
	d.bw_read_gbps = 4512.25;
	strcpy(d.bw_read_src, "read-only int4 stream, median of 20");
	run_result a;
	sample(&a);
	fputs("{\"device\": ", f);
	json_object(f, device_info_fields, device_info_nfields, &d, NULL, NULL);
	fputs(",\n\"results\": [\n", f);
	json_object(f, run_result_fields, run_result_nfields, &a, "log", a.log);
	fputs("\n]}\n", f);
	fclose(f);

	char err[512];
	replay *rp = replay_load(path, err, sizeof err);
	assert_non_null(rp);
	assert_int_equal(replay_count(rp), 1);
	const device_info *rd = replay_device(rp);
	assert_string_equal(rd->name, "NVIDIA H200");
	assert_int_equal(rd->sm_count, 132);
	assert_true(rd->bw_attainable_gbps == 4239.5);
	assert_string_equal(rd->bw_attainable_src, d.bw_attainable_src);
	assert_true(rd->bw_read_gbps == 4512.25);                /* the read calibration travels too */
	assert_string_equal(rd->bw_read_src, d.bw_read_src);

	lesson_stage st = { .id = "coalesced" };
	lesson l = { .id = "bandwidth", .stages = &st, .nstages = 1 };
	engine_job j = { .lesson = &l, .stage = 0 };
	/* The job's plan: what its settings evaluated to. */
	plan_var v = { "BLOCK", { .kind = EXPR_INT, .i = 256 } };
	plan p = { .vars = &v, .nvars = 1 };
	run_result b;
	run_result_init(&b);
	assert_int_equal(replay_answer(rp, &j, &p, &b), 0);
	assert_same(&a, &b);
	assert_string_equal(b.log, a.log);
	strcpy(j.sets[0].name, "BLOCK");
	strcpy(j.sets[0].value, "1 << 8");
	j.nsets = 1;
	assert_int_equal(replay_answer(rp, &j, &p, &b), 0);   /* compared as values: 1 << 8 is the recorded 256 */
	v.v.i = 25;
	assert_int_equal(replay_answer(rp, &j, &p, &b), -1);  /* BLOCK=25 is not BLOCK=256 */
	replay_free(rp);
	run_result_clear(&a);
	run_result_clear(&b);
	unlink(path);
}

/* Two steps, a memset and a launch, one with an entry name that needs escaping. */
static void sample_steps(run_result *r)
{
	const char *kinds[] = { "memset", "launch" }, *entries[] = { "sum", "reduce\\vector\twith a tab" };
	r->nsteps = 2;
	for (int i = 0; i < 2; i++) {
		run_step *s = &r->steps[i];
		run_step_init(s);
		strcpy(s->kind, kinds[i]);
		strcpy(s->entry, entries[i]);
		s->start_ms = 0.1 * i;
		s->end_ms = 0.1 * i + 1.0 / 3;
		s->ms_median = 1.0 / 3;
	}
	r->steps[1].grid[0] = 1056; r->steps[1].grid[1] = r->steps[1].grid[2] = 1;
	r->steps[1].block[0] = 256; r->steps[1].block[1] = r->steps[1].block[2] = 1;
	r->steps[1].dynamic_smem = 49152; r->steps[1].regs = 31; r->steps[1].static_smem = 32;
}

static void assert_same_steps(const run_result *a, const run_result *b)
{
	assert_int_equal(a->nsteps, b->nsteps);
	for (int i = 0; i < a->nsteps; i++) {
		const run_step *x = &a->steps[i], *y = &b->steps[i];
		assert_string_equal(x->kind, y->kind);
		assert_string_equal(x->entry, y->entry);
		assert_int_equal(x->stream, y->stream);
		assert_memory_equal(x->grid, y->grid, sizeof x->grid);
		assert_memory_equal(x->block, y->block, sizeof x->block);
		assert_true(x->dynamic_smem == y->dynamic_smem && x->static_smem == y->static_smem);
		assert_int_equal(x->regs, y->regs);
		assert_true(x->ms_median == y->ms_median && x->start_ms == y->start_ms && x->end_ms == y->end_ms);
	}
}

/* Steps through the worker's "step" lines, through JSON and a replay file, and malformed lines refused. */
static void test_steps_round_trip(void **state)
{
	(void)state;
	run_result a, b;
	run_result_init(&a);
	sample_steps(&a);
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	for (int i = 0; i < a.nsteps; i++) run_step_write(f, &a, i);
	fclose(f);
	run_result_init(&b);
	int lines = 0;
	for (char *line = strtok(buf, "\n"); line; line = strtok(NULL, "\n"), lines++) {
		assert_int_equal(strncmp(line, "step ", 5), 0);
		assert_int_equal(run_step_parse(&b, line + 5), 0);
	}
	assert_int_equal(lines, 2);
	assert_same_steps(&a, &b);
	free(buf);

	/* Malformed: out of order, an unknown kind, a number that is not one, a field missing, no entry,
	 * one step too many. */
	const char *bad[] = {
		"1 launch 0 1,1,1 32,1,1 0 -1 -1 1 0 1 k",
		"0 copy 0 1,1,1 32,1,1 0 -1 -1 1 0 1 k",
		"0 launch zero 1,1,1 32,1,1 0 -1 -1 1 0 1 k",
		"0 launch 0 1,1 32,1,1 0 -1 -1 1 0 1 k",
		"0 launch 0 1,1,1 32,1,1 0 -1 -1 1x 0 1 k",
		"0 launch 0 1,1,1 32,1,1 0 -1 -1 1 0 1",
		"0 launch 0 1,1,1 32,1,1 0 -1 -1 1 0 1 ",
		"",
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		run_result_init(&b);
		assert_int_equal(run_step_parse(&b, bad[i]), -1);
		assert_int_equal(b.nsteps, 0);
	}
	run_result_init(&b);
	b.nsteps = RUN_MAX_STEPS;
	char line[128];
	snprintf(line, sizeof line, "%d launch 0 1,1,1 32,1,1 0 -1 -1 1 0 1 k", RUN_MAX_STEPS);
	assert_int_equal(run_step_parse(&b, line), -1);

	/* JSON, read back by --replay; a record without steps (an older recording) has none. */
	char path[] = "/tmp/cc-test-replay-XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	strcpy(a.lesson, "reduction");
	strcpy(a.stage, "vector");
	fputs("{\"device\": {\"present\": 1}, \"results\": [{", f);
	json_members(f, run_result_fields, run_result_nfields, &a);
	fputs(", \"steps\": ", f);
	json_steps(f, &a);
	fputs("}, {\"lesson\": \"reduction\", \"stage\": \"shuffle\"}]}\n", f);
	fclose(f);
	char err[512];
	replay *rp = replay_load(path, err, sizeof err);
	assert_non_null(rp);
	assert_int_equal(replay_count(rp), 2);
	const run_result *x = replay_result(rp, 0);
	assert_int_equal(x->nsteps, 2);
	/* The tab in the entry is kept: only other control characters become '?'. */
	assert_same_steps(&a, x);
	assert_int_equal(replay_result(rp, 1)->nsteps, 0);
	replay_free(rp);
	unlink(path);

	/* The merge: the parent's steps (plan and compile) take the worker's times. */
	run_result mine;
	run_result_init(&mine);
	sample_steps(&mine);
	for (int i = 0; i < 2; i++) mine.steps[i].ms_median = mine.steps[i].start_ms = mine.steps[i].end_ms = -1;
	mine.steps[1].regs = 40;
	run_steps_merge(&mine, &a);
	assert_true(mine.steps[1].ms_median == 1.0 / 3 && mine.steps[1].start_ms == 0.1);
	assert_int_equal(mine.steps[1].regs, 40);        /* the compile's, not the driver's */
	/* A copy's direction and bytes come from the worker when the parent's step lacks them, and are
	 * kept when it has them. */
	run_result wk, par;
	run_result_init(&wk);
	run_result_init(&par);
	wk.nsteps = par.nsteps = 2;
	for (int i = 0; i < 2; i++) {
		run_step_init(&wk.steps[i]);
		run_step_init(&par.steps[i]);
		strcpy(wk.steps[i].kind, "copy");
		strcpy(par.steps[i].kind, "copy");
		strcpy(wk.steps[i].entry, "h_x>d_x");
		strcpy(par.steps[i].entry, "h_x>d_x");
		strcpy(wk.steps[i].dir, "h2d");
		wk.steps[i].bytes = 4096;
		wk.steps[i].stream = 1 + i;
	}
	strcpy(par.steps[1].dir, "d2d");
	par.steps[1].bytes = 8;
	run_steps_merge(&par, &wk);
	assert_string_equal(par.steps[0].dir, "h2d");
	assert_int_equal(par.steps[0].bytes, 4096);
	assert_int_equal(par.steps[0].stream, 1);
	assert_string_equal(par.steps[1].dir, "d2d");
	assert_int_equal(par.steps[1].bytes, 8);
	assert_int_equal(par.steps[1].stream, 2);
	run_result_init(&b);
	run_steps_merge(&b, &a);                          /* none of its own: the worker's as they are */
	assert_same_steps(&a, &b);
}

/* A recording made before the clock, the flush and the inputs were recorded: those read back as not
 * measured (-1, ""), never as 0 MHz or "no flush needed". */
static void test_replay_older_record(void **state)
{
	(void)state;
	char path[] = "/tmp/cc-test-replay-XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	FILE *f = fdopen(fd, "w");
	fputs("{\"device\": {\"present\": 1, \"sm_count\": 132},\n\"results\": [{\"lesson\": \"bandwidth\", \"stage\": \"coalesced\", "
	      "\"status\": \"ok\", \"settings\": \"BLOCK=256\", \"reps\": 10, \"ms_median\": 0.5, \"pair_ratio\": 0}]}\n", f);
	fclose(f);
	char err[512];
	replay *rp = replay_load(path, err, sizeof err);
	assert_non_null(rp);
	lesson_stage st = { .id = "coalesced" };
	lesson l = { .id = "bandwidth", .stages = &st, .nstages = 1 };
	engine_job j = { .lesson = &l, .stage = 0 };
	plan_var v = { "BLOCK", { .kind = EXPR_INT, .i = 256 } };
	plan p = { .vars = &v, .nvars = 1 };
	run_result b;
	run_result_init(&b);
	assert_int_equal(replay_answer(rp, &j, &p, &b), 0);
	assert_true(b.ms_median == 0.5);
	assert_true(b.sm_clock_mhz == -1 && b.sm_clock_min_mhz == -1 && b.sm_clock_max_mhz == -1 && b.pair_sm_clock_mhz == -1);
	assert_true(b.flop_per_cycle_sm == -1 && b.pair_flop_per_cycle_sm == -1);
	assert_true(b.power_w == -1 && b.power_max_w == -1);   /* a recording from before power was read */
	assert_int_equal(b.l2_flush, -1);
	assert_int_equal(b.launch_hold, -1);
	assert_string_equal(b.pair, "");
	assert_string_equal(b.inputs, "");
	replay_free(rp);
	run_result_clear(&b);
	unlink(path);
}

/* The attainable bandwidths by traffic: read where the device has it, else the copy, never a figure
 * under another's name. */
static void test_traffic(void **state)
{
	(void)state;
	device_info d;
	memset(&d, 0, sizeof d);
	d.bw_attainable_gbps = 3000;
	strcpy(d.bw_attainable_src, "copy");
	assert_int_equal(traffic_parse(NULL), TRAFFIC_COPY);
	assert_int_equal(traffic_parse("read"), TRAFFIC_READ);
	assert_int_equal(traffic_parse("copy"), TRAFFIC_COPY);
	assert_int_equal(traffic_parse("Read"), -1);
	assert_int_equal(traffic_of("bogus"), TRAFFIC_COPY);
	assert_string_equal(traffic_name(TRAFFIC_READ), "read");
	assert_string_equal(traffic_label((traffic_kind)7), "copy attainable");
	/* no read figure (a device recorded before it existed): the copy, named as the copy */
	assert_int_equal(traffic_used(TRAFFIC_READ, &d), TRAFFIC_COPY);
	assert_true(traffic_gbps(TRAFFIC_READ, &d) == 3000);
	assert_string_equal(traffic_source(TRAFFIC_READ, &d), "copy");
	d.bw_read_gbps = 3300;
	strcpy(d.bw_read_src, "stream");
	assert_int_equal(traffic_used(TRAFFIC_READ, &d), TRAFFIC_READ);
	assert_true(traffic_gbps(TRAFFIC_READ, &d) == 3300);
	assert_true(traffic_gbps(TRAFFIC_COPY, &d) == 3000);
	assert_string_equal(traffic_source(TRAFFIC_READ, &d), "stream");
	assert_string_equal(traffic_label(traffic_used(TRAFFIC_READ, &d)), "read attainable");
}

/* traffic: pcie, with the H200 streams recording's calibration (55.41 GB/s in, 55.28 back) and its
 * runs' GB/s (268 MB across the link: 134 MB each way). */
static void test_traffic_pcie(void **state)
{
	(void)state;
	device_info d;
	memset(&d, 0, sizeof d);
	d.bw_attainable_gbps = 4287.4;
	strcpy(d.bw_attainable_src, "copy");
	assert_int_equal(traffic_parse("pcie"), TRAFFIC_PCIE);
	assert_string_equal(traffic_name(TRAFFIC_PCIE), "pcie");
	/* a device recorded without the copy calibration: the DRAM copy, named as such */
	assert_int_equal(traffic_used(TRAFFIC_PCIE, &d), TRAFFIC_COPY);
	assert_true(traffic_run_gbps(TRAFFIC_PCIE, &d, 134217728, 134217728) == 4287.4);
	d.h2d_gbps = 55.41;
	assert_int_equal(traffic_used(TRAFFIC_PCIE, &d), TRAFFIC_COPY);   /* both directions needed */
	d.d2h_gbps = 55.28;
	assert_int_equal(traffic_used(TRAFFIC_PCIE, &d), TRAFFIC_PCIE);
	assert_string_equal(traffic_label(TRAFFIC_PCIE), "PCIe attainable");
	assert_non_null(strstr(traffic_source(TRAFFIC_PCIE, &d), "pinned"));
	/* the link both ways */
	assert_true(fabs(traffic_gbps(TRAFFIC_PCIE, &d) - 110.69) < 1e-9);
	/* for the stage's copies: 134 MB each way cross in max(2.422, 2.428) ms, 110.56 GB/s */
	double both = traffic_run_gbps(TRAFFIC_PCIE, &d, 134217728, 134217728);
	assert_true(fabs(both - 2 * 55.28) < 1e-9);
	/* a stage that only copies in is held to the link's speed that way */
	assert_true(fabs(traffic_run_gbps(TRAFFIC_PCIE, &d, 1e8, 0) - 55.41) < 1e-9);
	assert_true(fabs(traffic_run_gbps(TRAFFIC_PCIE, &d, 0, 1e8) - 55.28) < 1e-9);
	/* no copies: the figure of the link both ways; other kinds ignore the bytes */
	assert_true(fabs(traffic_run_gbps(TRAFFIC_PCIE, &d, 0, 0) - 110.69) < 1e-9);
	assert_true(traffic_run_gbps(TRAFFIC_COPY, &d, 1e8, 1e8) == 4287.4);
	/* the percentage: the recorded pipeline moved 75.41 GB/s (3.56 ms), 68% of the link against 1.76%
	 * of DRAM's copy bandwidth; the serial stage's 9.10 GB/s 8.2% */
	assert_true(fabs(100 * 75.41 / both - 68.2) < 0.1);
	assert_true(fabs(100 * 9.1015 / both - 8.23) < 0.01);
}

static void test_replay_errors(void **state)
{
	(void)state;
	char err[512];
	assert_null(replay_load("/nonexistent/replay.json", err, sizeof err));
	assert_non_null(strstr(err, "cannot read"));
	char path[] = "/tmp/cc-test-replay-XXXXXX";
	int fd = mkstemp(path);
	assert_true(write(fd, "{\"results\": [ {\"regs\": \"twelve\"} ]}\n", 36) == 36);
	close(fd);
	assert_null(replay_load(path, err, sizeof err));
	assert_non_null(strstr(err, ":1:"));                  /* file:line:col of the bad value */
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kv_round_trip),
		cmocka_unit_test(test_field_set_errors),
		cmocka_unit_test(test_escape), cmocka_unit_test(test_replay_invisible),
		cmocka_unit_test(test_json_replay_round_trip), cmocka_unit_test(test_json_string_controls), cmocka_unit_test(test_json_string_not_utf8),
		cmocka_unit_test(test_replay_errors), cmocka_unit_test(test_replay_older_record),
		cmocka_unit_test(test_traffic),
		cmocka_unit_test(test_traffic_pcie),
		cmocka_unit_test(test_findings_text),
		cmocka_unit_test(test_json_findings),
		cmocka_unit_test(test_copy_named),
		cmocka_unit_test(test_steps_round_trip),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
