/* Tests for the hotspot pass's parent side (src/render/hotspots_map.c, src/render/report_hotspots.c) on a
 * hand-made set of samples (tests/fixtures/hotspots/) over recorded nvdisasm listings
 * (tests/fixtures/sass/): the text form parsed and refused, samples laid over instructions and
 * source lines, the stall reasons in words, the report and its JSON; and the worker side's paths
 * that need no GPU (src/worker/hotspots.cpp's permission message). Run from the repository root. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "hotspots.h"
#include "hotspots_map.h"
#include "report_hotspots.h"
#include "util.h"

static char *fixture(const char *path)
{
	char *text = file_read(path, NULL);
	if (!text) fail_msg("cannot read %s", path);
	rtrim(text);
	return text;
}

static sass_listing listing(const char *name)
{
	char *path = xasprintf("tests/fixtures/sass/%s.sass", name), *text = fixture(path);
	sass_listing l;
	assert_int_equal(sass_parse(text, &l), 0);
	free(text);
	free(path);
	return l;
}

static int reason(const hot_samples *s, const char *name)
{
	for (int i = 0; i < s->nreasons; i++) if (!strcmp(s->reasons[i], name)) return i;
	return -1;
}

static void test_parse(void **state)
{
	(void)state;
	char *text = fixture("tests/fixtures/hotspots/transpose_tile.txt"), err[256];
	hot_samples s;
	assert_int_equal(hot_parse(text, &s, err, sizeof err), 0);
	assert_int_equal(s.total, 1234);
	assert_int_equal(s.dropped, 4);
	assert_int_equal(s.other, 10);
	assert_int_equal(s.nfuncs, 1);
	assert_string_equal(s.funcs[0], "transpose_tile");
	assert_int_equal(s.npc, 5);
	assert_int_equal(s.sampled, 1000);
	assert_int_equal(s.pc[3].offset, 0x290);
	assert_int_equal(s.pc[3].samples, 200);
	assert_int_equal(s.pc[3].n, 2);
	assert_string_equal(s.reasons[s.counts[s.pc[3].first].reason], "mio_throttle");
	assert_int_equal(s.counts[s.pc[3].first].count, 150);
	assert_int_equal(s.nreasons, 5);    /* selected, long_scoreboard, barrier, mio_throttle, short_scoreboard */
	hot_samples_free(&s);
	free(text);
	/* empty items, no totals, several functions, upper-case hex, a PC with no reasons */
	assert_int_equal(hot_parse(";@a;10:3:wait=3;;@b.x$1;1F:2:;@a;20:1:wait=1", &s, err, sizeof err), 0);
	assert_int_equal(s.nfuncs, 2);
	assert_int_equal(s.npc, 3);
	assert_int_equal(s.pc[1].offset, 0x1f);
	assert_int_equal(s.pc[1].n, 0);
	assert_int_equal(s.pc[2].func, 0);
	assert_int_equal(s.sampled, 6);
	assert_int_equal(s.total, 0);
	hot_samples_free(&s);
	assert_int_equal(hot_parse("", &s, err, sizeof err), 0);
	assert_int_equal(s.npc, 0);
	assert_int_equal(hot_parse(NULL, &s, err, sizeof err), 0);
}

/* Each is refused, names the item, and leaves nothing behind. */
static void test_parse_refused(void **state)
{
	(void)state;
	static const struct { const char *text; const char *what; int item; } bad[] = {
		{ "10:1:wait=1", "before any @function", 1 },
		{ "@", "function's name", 1 },
		{ "@a b", "function's name", 1 },
		{ "@f;zz:1:wait=1", "offset", 2 },
		{ "@f;123456789:1:wait=1", "offset", 2 },
		{ "@f;10:x:wait=1", "samples", 2 },
		{ "@f;10:10000000000001:wait=1", "samples", 2 },
		{ "@f;10:1", "OFFSET:SAMPLES", 2 },
		{ "@f;10:1:wait", "NAME=COUNT", 2 },
		{ "@f;10:1:wait=", "count", 2 },
		{ "@f;10:1:wait=1,", "trailing", 2 },
		{ "@f;10:1:wa-it=1", "reason's name", 2 },
		{ "@f;10:1:=1", "reason's name", 2 },
		{ "total=1,total=2", "twice", 1 },
		{ "total=1,", "trailing", 1 },
		{ "total=x", "not a count", 1 },
		{ "total=1,bogus=2", "total=N", 1 },
		{ "@f;total=5", "come first", 2 },
		{ "bogus=1", "OFFSET:SAMPLES", 1 },
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		hot_samples s;
		char err[256] = "", item[32];
		if (hot_parse(bad[i].text, &s, err, sizeof err) != -1) fail_msg("'%s' was taken", bad[i].text);
		snprintf(item, sizeof item, "item %d:", bad[i].item);
		if (!strstr(err, bad[i].what) || strncmp(err, item, strlen(item))) fail_msg("'%s': %s", bad[i].text, err);
		assert_int_equal(s.npc, 0);
		assert_null(s.funcs);
		assert_null(s.reasons);
		hot_samples_free(&s);
	}
}

/* The samples over the recorded listing: per instruction, per line of tile.cu, and the reasons. */
static void test_map(void **state)
{
	(void)state;
	char *text = fixture("tests/fixtures/hotspots/transpose_tile.txt"), err[256], words[512];
	hot_samples s;
	hot_map m;
	sass_listing l = listing("transpose_tile");
	assert_int_equal(hot_parse(text, &s, err, sizeof err), 0);
	/* the listing names /home/ada/.../kernels/transpose/tile.cu: the file is matched by its name */
	assert_int_equal(hot_map_make(&m, &s, &l, "kernels/transpose/tile.cu", 22), 0);
	assert_int_equal(m.total, 1000);
	assert_int_equal(m.line[21].samples, 700);
	assert_int_equal(m.line[16].samples, 200);
	assert_int_equal(m.line[17].samples, 100);
	assert_int_equal(m.line[15].samples, 0);
	assert_int_equal(m.elsewhere.samples, 0);
	assert_int_equal(m.unmatched, 0);
	assert_int_equal(m.max_line, 700);
	assert_int_equal(m.max_insn, 500);
	assert_true(hot_share(&m, &m.line[21]) > 0.699 && hot_share(&m, &m.line[21]) < 0.701);
	/* the LDS's instruction has its 200 samples, and it is the listing's 0x290 */
	int lds = -1;
	for (int i = 0; i < l.n; i++) if (l.insn[i].offset == 0x290) lds = i;
	assert_true(lds >= 0);
	assert_string_equal(l.insn[lds].op, "LDS");
	assert_int_equal(m.insn[lds].samples, 200);
	/* line 21's reasons: short scoreboard 500, MIO throttle 150, selected 50 */
	int top[4], n = hot_top(&m, &m.line[21], top, 4);
	assert_int_equal(n, 3);
	assert_int_equal(top[0], reason(&s, "short_scoreboard"));
	assert_int_equal(top[1], reason(&s, "mio_throttle"));
	assert_int_equal(top[2], reason(&s, "selected"));
	assert_int_equal(m.line[21].by[top[0]], 500);
	hot_reasons_text(&s, &m, &m.line[21], 2, 0, words, sizeof words);
	assert_string_equal(words, "short scoreboard (shared memory / MIO result) 71%, MIO throttle (shared-memory / special-op queue full) 21%");
	hot_reasons_text(&s, &m, &m.line[16], 3, 1, words, sizeof words);
	assert_string_equal(words, "global mem 70%, issuing 30%");
	hot_reasons_text(&s, &m, &m.line[15], 3, 1, words, sizeof words);
	assert_string_equal(words, "");
	hot_map_free(&m);
	/* lines past the file's end (nlines 16) and other files' go elsewhere */
	assert_int_equal(hot_map_make(&m, &s, &l, "kernels/transpose/tile.cu", 16), 0);
	assert_int_equal(m.elsewhere.samples, 800);
	assert_int_equal(m.line[16].samples, 200);
	hot_map_free(&m);
	assert_int_equal(hot_map_make(&m, &s, &l, "kernels/transpose/padded.cu", 22), 0);
	assert_int_equal(m.elsewhere.samples, 1000);
	assert_int_equal(m.max_line, 0);
	hot_map_free(&m);
	hot_samples_free(&s);
	/* a function the listing lacks, and an offset that is no instruction's, are unmatched */
	assert_int_equal(hot_parse("@transpose_tile;290:5:wait=5;298:7:wait=7;@other;290:11:wait=11", &s, err, sizeof err), 0);
	assert_int_equal(hot_map_make(&m, &s, &l, "tile.cu", 22), 0);
	assert_int_equal(m.unmatched, 18);
	assert_int_equal(m.line[21].samples, 5);
	assert_int_equal(m.total, 23);
	hot_map_free(&m);
	hot_samples_free(&s);
	sass_free(&l);
	free(text);
}

/* Every instruction of a large listing once: nothing lost between lines, elsewhere and unmatched. */
static void test_map_every_instruction(void **state)
{
	(void)state;
	sass_listing l = listing("sgemm_warptile");
	sb b = {0};
	for (int f = 0; f < l.nfuncs; f++) {
		sb_addf(&b, "@%s", l.funcs[f].name);
		for (int i = l.funcs[f].first; i < l.funcs[f].first + l.funcs[f].count; i++) sb_addf(&b, ";%x:2:long_scoreboard=1,selected=1", l.insn[i].offset);
		sb_add(&b, ";");
	}
	hot_samples s;
	hot_map m;
	char err[256];
	assert_int_equal(hot_parse(b.s, &s, err, sizeof err), 0);
	assert_int_equal(hot_map_make(&m, &s, &l, "kernels/sgemm/warptile.cu", 400), 0);
	uint64_t sum = m.elsewhere.samples + m.unmatched;
	for (int i = 1; i <= m.nlines; i++) sum += m.line[i].samples;
	assert_int_equal(sum, 2 * (uint64_t)l.n);
	assert_int_equal(m.unmatched, 0);
	assert_true(m.max_line > 2);
	for (int i = 0; i < m.ninsn; i++) assert_int_equal(m.insn[i].samples, 2);
	hot_map_free(&m);
	hot_samples_free(&s);
	sb_free(&b);
	sass_free(&l);
}

static void test_words(void **state)
{
	(void)state;
	assert_non_null(strstr(hot_reason_words("short_scoreboard"), "shared memory"));
	assert_non_null(strstr(hot_reason_words("long_scoreboard"), "global"));
	assert_non_null(strstr(hot_reason_words("mio_throttle"), "MIO"));
	assert_non_null(strstr(hot_reason_words("barrier"), "__syncthreads"));
	assert_string_equal(hot_reason_label("lg_throttle"), "LSU queue");
	assert_null(hot_reason_words("gmma_wait_new"));
	/* a reason the table does not know is shown by its name, in words */
	hot_samples s;
	hot_map m;
	char err[64], words[128];
	assert_int_equal(hot_parse("@f;0:4:gmma_wait_new=4", &s, err, sizeof err), 0);
	assert_int_equal(hot_map_make(&m, &s, NULL, "f.cu", 0), 0);
	assert_int_equal(m.unmatched, 4);
	s.pc[0].samples = 4;
	m.elsewhere.samples = 4;
	m.elsewhere.by[0] = 4;
	assert_string_equal(hot_reasons_text(&s, &m, &m.elsewhere, 3, 0, words, sizeof words), "gmma wait new 100%");
	hot_map_free(&m);
	hot_samples_free(&s);
}

/* A view the way the CLI makes it: the cubin's listing from the .sass kept beside it. */
static void make_view(hot_view *v, const char *samples, run_status status, char *dir, size_t n)
{
	strfmt(dir, n, "/tmp/cc-hotspots-XXXXXX");
	assert_non_null(mkdtemp(dir));
	char *cubin = xasprintf("%s/x.cubin", dir), *sass = xasprintf("%s/x.sass", dir), *text = fixture("tests/fixtures/sass/transpose_tile.sass");
	assert_int_equal(file_write_atomic(cubin, "", 0), 0);
	assert_int_equal(file_write_atomic(sass, text, strlen(text)), 0);
	run_result r;
	run_result_init(&r);
	r.status = status;
	strfmt(r.cubin, sizeof r.cubin, "%s", cubin);
	strfmt(r.arch, sizeof r.arch, "sm_90");
	r.hotspots = samples ? xstrdup(samples) : NULL;
	lesson_stage st;
	memset(&st, 0, sizeof st);
	st.kernel_path = "kernels/transpose/tile.cu";
	hot_view_make(v, &st, &r);
	run_result_clear(&r);
	unlink(cubin);
	unlink(sass);
	rmdir(dir);
	free(cubin);
	free(sass);
	free(text);
}

static char *report_of(const hot_view *v, int json)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	if (json) report_hotspots_json(f, v, "transpose/tile");
	else report_hotspots(f, v, "transpose/tile");
	fclose(f);
	return buf;
}

static void test_report(void **state)
{
	(void)state;
	char dir[64], *samples = fixture("tests/fixtures/hotspots/transpose_tile.txt");
	hot_view v;
	make_view(&v, samples, RUN_OK, dir, sizeof dir);
	assert_string_equal(v.why, "");
	assert_int_equal(hot_view_hottest(&v), 21);
	char *text = report_of(&v, 0), *json = report_of(&v, 1);
	/* line 21 with its share and bar, its reasons under it; line 15 without samples */
	assert_non_null(strstr(text, "1000 samples of the program counter"));
	assert_non_null(strstr(text, " 70.0%  #######      21 | \t\tout["));
	assert_non_null(strstr(text, "^ short scoreboard (shared memory / MIO result) 71%"));
	assert_non_null(strstr(text, " 20.0%  ##           16 | "));
	assert_non_null(strstr(text, "                     15 | \tif (bx + tx"));
	assert_non_null(strstr(text, "Hottest instructions"));
	assert_true(strstr(text, "transpose_tile+02e0") < strstr(text, "transpose_tile+0290"));   /* 500 before 200 */
	assert_non_null(strstr(text, "LDS R9, [R6]"));
	/* the JSON: lines with samples, their reasons in words, the instructions */
	assert_non_null(strstr(json, "\"samples\": 1000"));
	assert_non_null(strstr(json, "{\"line\": 21, \"text\": \"\\t\\tout["));
	assert_non_null(strstr(json, "\"share\": 0.7000, \"stalls\": [{\"reason\": \"short_scoreboard\", \"words\": \"short scoreboard (shared memory / MIO result)\", \"samples\": 500"));
	assert_non_null(strstr(json, "{\"function\": \"transpose_tile\", \"offset\": 656, \"line\": 21, \"text\": \"LDS R9, [R6]\", \"samples\": 200"));
	assert_null(strstr(json, "\"line\": 15,"));
	free(text);
	free(json);
	hot_view_free(&v);
	free(samples);
}

/* Every way to have nothing to show says why, in one line. */
static void test_report_why(void **state)
{
	(void)state;
	char dir[64];
	hot_view v;
	make_view(&v, NULL, RUN_NO_GPU, dir, sizeof dir);
	assert_non_null(strstr(v.why, "did not happen (no_gpu"));
	char *text = report_of(&v, 0), *json = report_of(&v, 1);
	assert_non_null(strstr(text, "Hotspots of transpose/tile: the sampling run did not happen"));
	assert_non_null(strstr(json, "\"why\": \"no hotspots: the sampling run did not happen"));
	free(text);
	free(json);
	hot_view_free(&v);
	make_view(&v, NULL, RUN_OK, dir, sizeof dir);
	assert_non_null(strstr(v.why, "no program-counter samples came back"));
	hot_view_free(&v);
	make_view(&v, "@f;zz:1:", RUN_OK, dir, sizeof dir);
	assert_non_null(strstr(v.why, "do not parse (item 2:"));
	hot_view_free(&v);
	make_view(&v, "total=50,dropped=0,other=50", RUN_OK, dir, sizeof dir);
	assert_non_null(strstr(v.why, "no sample fell in the stage's kernels (50 in all)"));
	hot_view_free(&v);
	for (const char *p = v.why; *p; p++) assert_true(*p != '\n');
}

/* The worker side without a GPU: no permission is said in one line, with what to do. */
static void test_permission(void **state)
{
	(void)state;
	char why[512] = "";
	setenv("CUDACLIMB_FAKE_CUPTI_ERROR", "35", 1);   /* CUPTI_ERROR_INSUFFICIENT_PRIVILEGES */
	hotspots *h = hotspots_open(0, why, sizeof why);
	assert_null(h);
	assert_non_null(strstr(why, "program-counter sampling needs permission"));
	assert_non_null(strstr(why, "NVreg_RestrictProfilingToAdminUsers=0"));
	assert_null(strchr(why, '\n'));
	setenv("CUDACLIMB_FAKE_CUPTI_ERROR", "27", 1);   /* CUPTI_ERROR_NOT_SUPPORTED */
	h = hotspots_open(0, why, sizeof why);
	unsetenv("CUDACLIMB_FAKE_CUPTI_ERROR");
	assert_null(h);
	assert_non_null(strstr(why, "not supported"));
	assert_null(strstr(why, "NVreg"));
	hotspots_close(NULL);
	char *text = (char *)1, err[128];
	assert_int_equal(hotspots_measure(NULL, NULL, NULL, 10, &text, NULL, 0, err, sizeof err), -1);
	assert_null(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_parse_refused),
		cmocka_unit_test(test_map),
		cmocka_unit_test(test_map_every_instruction),
		cmocka_unit_test(test_words),
		cmocka_unit_test(test_report),
		cmocka_unit_test(test_report_why),
		cmocka_unit_test(test_permission),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
