/* Tests for src/lesson/lesson.c, lesson_stage.c, lesson_yaml.c: a valid lesson loads with the right fields,
 * malformed ones fail with the exact "file:line:col: message", kernel files are checked against a
 * temporary tree, lesson_set_load keeps the good lessons and lists the bad, and every shipped lesson
 * loads. Run from the repository root. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lesson.h"
#include "result.h"
#include "util.h"

/* ---- helpers ---- */

/* A small lesson built from fixed lines so that error positions are easy to count. */
#define PRE                                                   \
	"lesson: t\n"                                   /* 1 */ \
	"title: T\n"                                    /* 2 */ \
	"summary: s\n"                                  /* 3 */ \
	"params:\n"                                     /* 4 */
#define PARAM "  n: { default: 64, min: 1 }\n"    /* 5 */
#define XBUF                                                  \
	"buffers:\n"                                    /* 6 */ \
	"  x: { type: f32, count: n, init: iota }\n"    /* 7 */
#define ZBUF "  z: { type: f32, count: n, output: true }\n"  /* 8 */
#define MODEL "model: { bytes: \"8 * n\" }\n"     /* 9 */
#define HEAD PRE PARAM XBUF ZBUF MODEL
#define STAGE                                                 \
	"stages:\n"                                     /* 10 */ \
	"  - id: s1\n"                                  /* 11 */ \
	"    title: S\n"                                /* 12 */ \
	"    kernel: k.cu\n"                            /* 13 */ \
	"    entry: k\n"                                /* 14 */ \
	"    explain: e\n"                              /* 15 */ \
	"    bottleneck: b\n"                           /* 16 */
#define LAUNCH                                                \
	"    launches:\n"                               /* 17 */ \
	"      - { grid: 1, block: 32, args: [x, z] }\n"  /* 18 */

/* Loads text from a buffer (kernel files not checked); returns the lesson or NULL with err. */
static lesson *load(const char *text, char *err, size_t errlen)
{
	err[0] = 0;
	return lesson_load_buffer("t.yaml", text, strlen(text), NULL, err, errlen);
}

/* text must fail to load with a message starting with prefix (which includes line and column). */
static void expect_error_at(const char *text, const char *prefix, const char *file, int line)
{
	char err[1024];
	lesson *l = load(text, err, sizeof err);
	if (l) {
		lesson_free(l);
		fail_msg("%s:%d: loaded, expected \"%s\"", file, line, prefix);
	}
	if (strncmp(err, prefix, strlen(prefix)) != 0)
		fail_msg("%s:%d: got \"%s\"\n  expected a message starting with \"%s\"", file, line, err, prefix);
}
#define expect_error(text, prefix) expect_error_at((text), (prefix), __FILE__, __LINE__)

/* ---- temporary trees ---- */

static char tmp_root[256];

static void write_file(const char *rel, const char *text)
{
	char path[512];
	snprintf(path, sizeof path, "%s/%s", tmp_root, rel);
	char *dir = xstrdup(path);
	*strrchr(dir, '/') = 0;
	assert_int_equal(mkdir_p(dir, 0755), 0);
	free(dir);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void remove_tree(const char *path)
{
	char *cmd = xasprintf("rm -rf '%s'", path);
	if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", path);
	free(cmd);
}

static int setup_tree(void **state)
{
	(void)state;
	snprintf(tmp_root, sizeof tmp_root, "/tmp/cc_test_lesson.XXXXXX");
	if (!mkdtemp(tmp_root)) return -1;
	write_file("kernels/t/k.cu", "extern \"C\" __global__ void k(float *x, float *z) { z[0] = x[0]; }\n"
	                             "extern \"C\" __global__ void k_two (float *z) {}\n");
	write_file("kernels/t/helpers.cuh", "extern \"C\" __global__ void from_header(float *z) {}\n");
	write_file("kernels/elsewhere.cu", "extern \"C\" __global__ void k(float *z) {}\n");
	char *target = xasprintf("%s/kernels/elsewhere.cu", tmp_root), *link = xasprintf("%s/kernels/t/link.cu", tmp_root);
	int r = symlink(target, link);
	free(target);
	free(link);
	return r;
}

static int teardown_tree(void **state)
{
	(void)state;
	remove_tree(tmp_root);
	return 0;
}

/* Writes text as lessons/<name>.yaml in the tree and loads it with kernels checked. */
static lesson *load_tree(const char *name, const char *text, char *err, size_t errlen, char *path, size_t pathlen)
{
	char rel[128];
	snprintf(rel, sizeof rel, "lessons/%s.yaml", name);
	write_file(rel, text);
	snprintf(path, pathlen, "%s/%s", tmp_root, rel);
	char *kroot = xasprintf("%s/kernels", tmp_root);
	err[0] = 0;
	lesson *l = lesson_load(path, kroot, err, errlen);
	free(kroot);
	return l;
}

static void expect_tree_error_at(const char *text, const char *suffix, const char *file, int line)
{
	char err[1024], path[512], want[1024];
	lesson *l = load_tree("t", text, err, sizeof err, path, sizeof path);
	if (l) {
		lesson_free(l);
		fail_msg("%s:%d: loaded, expected \"%s\"", file, line, suffix);
	}
	snprintf(want, sizeof want, "%s:%s", path, suffix);
	if (strncmp(err, want, strlen(want)) != 0)
		fail_msg("%s:%d: got \"%s\"\n  expected a message starting with \"%s\"", file, line, err, want);
}
#define expect_tree_error(text, suffix) expect_tree_error_at((text), (suffix), __FILE__, __LINE__)

/* ---- a valid lesson ---- */

static const char full[] =
	"lesson: mini\n"
	"title: A small lesson\n"
	"order: 3\n"
	"summary: >\n"
	"  One paragraph.\n"
	"read_first: [\"guide one\", \"guide two\"]\n"
	"params:\n"
	"  n: { default: \"1 << 10\", min: 1, max: \"1 << 20\", help: \"elements\" }\n"
	"  a: { type: f32, default: 2.5 }\n"
	"derived:\n"
	"  half: \"n / 2\"\n"
	"  quarter: half / 2\n"
	"buffers:\n"
	"  x: { type: f32, count: n, init: { random: [-1, 1] } }\n"
	"  c: { type: i32, count: half, init: { constant: 7 } }\n"
	"  w: { type: bf16, count: n, init: zero }\n"
	"  z: { type: f32, count: n, output: true }\n"
	"model:\n"
	"  bytes: \"3 * 4 * n\"\n"
	"  flops: 2 * n\n"
	"  peak: bf16_tensor\n"
	"  traffic: read\n"
	"check:\n"
	"  reference: first\n"
	"  compare: [z]\n"
	"  tolerance: { rel: 1e-5, abs: 2.0e-6 }\n"
	"baseline:\n"
	"  title: copy\n"
	"  library: memcpy\n"
	"  args: { dst: z, src: x, bytes: \"4 * n\" }\n"
	"  model: { bytes: \"8 * n\" }\n"
	"  check: false\n"
	"stages:\n"
	"  - id: first\n"
	"    title: First\n"
	"    kernel: first.cu\n"
	"    entry: k_first\n"
	"    tunables:\n"
	"      BLOCK: { values: [256, 64, 128], default: 128 }\n"
	"      R: { range: [2, 10], step: 3, default: 5 }\n"
	"      P: { range: [3, 40], pow2: true, default: 16 }\n"
	"      Q: { range: [1, 4], default: 4 }\n"
	"    constraints:\n"
	"      - { expr: \"BLOCK % 32 == 0\", message: \"BLOCK must be a multiple of 32\" }\n"
	"    buffers:\n"
	"      partial: { type: f32, count: \"ceil_div(n, BLOCK)\" }\n"
	"    launches:\n"
	"      - memset: { buffer: partial, value: 255 }\n"
	"      - grid: [\"ceil_div(n, BLOCK)\", 2, 3]\n"
	"        block: [BLOCK, 1, 1]\n"
	"        shared: \"BLOCK * 4\"\n"
	"        args: [x, z, partial, \"f32(a)\", \"i64(n)\", \"i32(R)\", \"u32(half)\", \"u64(n)\", \"f64(a * 2)\"]\n"
	"      - { grid: 1, block: 32, entry: k_finish, args: [partial, z] }\n"
	"    options: [\"--use_fast_math\"]\n"
	"    requires: { cc: 90, arch: sm_90a, why: \"needs wgmma\" }\n"
	"    explain: |\n"
	"      What it does.\n"
	"    bottleneck: What limits it.\n"
	"  - id: second\n"
	"    title: Second\n"
	"    kernel: sub/second.cu\n"
	"    entry: k_second\n"
	"    check: false\n"
	"    launches:\n"
	"      - grid: ceil_div(n, 256)\n"
	"        block: 256\n"
	"        args: [z]\n"
	"    explain: e\n"
	"    bottleneck: b\n";

static void test_full_lesson(void **state)
{
	(void)state;
	char err[1024];
	lesson *l = load(full, err, sizeof err);
	if (!l) fail_msg("%s", err);
	assert_string_equal(l->id, "mini");
	assert_string_equal(l->title, "A small lesson");
	assert_string_equal(l->summary, "One paragraph.\n");
	assert_string_equal(l->path, "t.yaml");
	assert_null(l->kernel_dir);
	assert_int_equal(l->order, 3);
	assert_int_equal(l->nread_first, 2);
	assert_string_equal(l->read_first[1], "guide two");

	/* params */
	assert_int_equal(l->nparams, 2);
	const lesson_param *n = lesson_find_param(l, "n"), *a = lesson_find_param(l, "a");
	assert_non_null(n);
	assert_non_null(a);
	assert_null(lesson_find_param(l, "half"));
	assert_int_equal(n->type, DT_I64);
	assert_string_equal(expr_source(n->def.e), "1 << 10");
	assert_string_equal(expr_source(n->min.e), "1");
	assert_string_equal(expr_source(n->max.e), "1 << 20");
	assert_string_equal(n->help, "elements");
	assert_int_equal(n->at.line, 8);
	assert_int_equal(n->at.col, 3);
	assert_int_equal(n->def.at.line, 8);
	assert_int_equal(n->def.at.col, 18);   /* the expression's first character, inside the quotes */
	assert_int_equal(n->min.at.col, 33);   /* unquoted */
	assert_int_equal(a->type, DT_F32);
	assert_null(a->min.e);
	assert_null(a->max.e);
	assert_null(a->help);

	/* derived, in order */
	assert_int_equal(l->nderived, 2);
	assert_string_equal(l->derived[0].name, "half");
	assert_string_equal(expr_source(l->derived[0].value.e), "n / 2");
	assert_string_equal(l->derived[1].name, "quarter");
	assert_string_equal(expr_source(l->derived[1].value.e), "half / 2");

	/* buffers */
	assert_int_equal(l->nbuffers, 4);
	const lesson_buffer *x = lesson_find_buffer(l, NULL, "x"), *c = lesson_find_buffer(l, NULL, "c");
	const lesson_buffer *w = lesson_find_buffer(l, NULL, "w"), *z = lesson_find_buffer(l, NULL, "z");
	assert_int_equal(x->type, DT_F32);
	assert_int_equal(x->init, INIT_RANDOM);
	assert_true(x->init_a == -1.0 && x->init_b == 1.0);
	assert_false(x->output);
	assert_int_equal(c->type, DT_I32);
	assert_int_equal(c->init, INIT_CONSTANT);
	assert_true(c->init_a == 7.0);
	assert_string_equal(expr_source(c->count.e), "half");
	assert_int_equal(w->type, DT_BF16);
	assert_int_equal(w->init, INIT_ZERO);
	assert_int_equal(z->init, INIT_NONE);
	assert_true(z->output);
	assert_int_equal(z->at.line, 17);
	assert_int_equal(z->at.col, 3);
	assert_null(lesson_find_buffer(l, NULL, "partial"));   /* a stage's scratch, not the lesson's */

	/* model, check, baseline */
	assert_string_equal(expr_source(l->bytes.e), "3 * 4 * n");
	assert_string_equal(expr_source(l->flops.e), "2 * n");
	assert_string_equal(l->peak, "bf16_tensor");
	assert_string_equal(l->traffic, "read");
	assert_int_equal(traffic_of(l->traffic), TRAFFIC_READ);
	assert_string_equal(l->reference, "first");
	assert_int_equal(l->ncompare, 1);
	assert_string_equal(l->compare[0], "z");
	assert_false(l->exact);
	assert_true(l->rel_tol == 1e-5);
	assert_true(l->abs_tol == 2.0e-6);
	const lesson_baseline *b = l->baseline;
	assert_non_null(b);
	assert_string_equal(b->title, "copy");
	assert_string_equal(b->library, "memcpy");
	assert_int_equal(b->nargs, 3);
	assert_string_equal(b->arg_names[0], "dst");
	assert_string_equal(b->arg_strings[0], "z");
	assert_null(b->arg_values[0].e);   /* a buffer */
	assert_string_equal(b->arg_names[2], "bytes");
	assert_string_equal(expr_source(b->arg_values[2].e), "4 * n");
	assert_string_equal(expr_source(b->bytes.e), "8 * n");
	assert_null(b->flops.e);
	assert_int_equal(b->check, 0);

	/* stage 1 */
	assert_int_equal(l->nstages, 2);
	assert_int_equal(lesson_stage_index(l, "second"), 1);
	assert_int_equal(lesson_stage_index(l, "third"), -1);
	const lesson_stage *s = &l->stages[0];
	assert_string_equal(s->id, "first");
	assert_string_equal(s->title, "First");
	assert_string_equal(s->kernel_rel, "first.cu");
	assert_null(s->kernel_path);   /* not resolved without kernels_root */
	assert_string_equal(s->entry, "k_first");
	assert_string_equal(s->explain, "What it does.\n");
	assert_string_equal(s->bottleneck, "What limits it.");
	assert_int_equal(s->check, 1);
	assert_int_equal(s->at.line, 34);
	assert_int_equal(s->at.col, 5);

	/* tunables: values sorted; range expanded by step and by powers of two */
	assert_int_equal(s->ntunables, 4);
	const lesson_tunable *t = lesson_find_tunable(s, "BLOCK");
	assert_int_equal(t->nvalues, 3);
	assert_int_equal(t->values[0], 64);
	assert_int_equal(t->values[1], 128);
	assert_int_equal(t->values[2], 256);
	assert_int_equal(t->def_num, 128);
	t = lesson_find_tunable(s, "R");
	assert_int_equal(t->nvalues, 3);
	assert_int_equal(t->values[0], 2);
	assert_int_equal(t->values[1], 5);
	assert_int_equal(t->values[2], 8);
	t = lesson_find_tunable(s, "P");
	assert_int_equal(t->nvalues, 4);
	assert_int_equal(t->values[0], 4);
	assert_int_equal(t->values[3], 32);
	assert_int_equal(t->def_num, 16);
	t = lesson_find_tunable(s, "Q");
	assert_int_equal(t->nvalues, 4);
	assert_int_equal(t->values[0], 1);
	assert_int_equal(t->values[3], 4);
	assert_null(lesson_find_tunable(s, "n"));
	assert_null(lesson_find_tunable(&l->stages[1], "BLOCK"));

	assert_int_equal(s->nconstraints, 1);
	assert_string_equal(expr_source(s->constraints[0].cond.e), "BLOCK % 32 == 0");
	assert_string_equal(s->constraints[0].message, "BLOCK must be a multiple of 32");
	assert_int_equal(s->nbuffers, 1);
	assert_non_null(lesson_find_buffer(l, s, "partial"));
	assert_int_equal(lesson_find_buffer(l, s, "partial")->init, INIT_NONE);

	/* launches: memset, a 3D kernel launch, a second entry */
	assert_int_equal(s->nlaunches, 3);
	const lesson_launch *m = &s->launches[0];
	assert_int_equal(m->kind, STEP_MEMSET);
	assert_string_equal(m->memset_buffer, "partial");
	assert_int_equal(m->memset_value, 255);
	const lesson_launch *L = &s->launches[1];
	assert_int_equal(L->kind, STEP_LAUNCH);
	assert_null(L->entry);
	assert_string_equal(expr_source(L->grid[0].e), "ceil_div(n, BLOCK)");
	assert_string_equal(expr_source(L->grid[1].e), "2");
	assert_string_equal(expr_source(L->grid[2].e), "3");
	assert_string_equal(expr_source(L->block[0].e), "BLOCK");
	assert_non_null(L->block[2].e);
	assert_string_equal(expr_source(L->shared.e), "BLOCK * 4");
	assert_int_equal(L->at.line, 49);
	assert_int_equal(L->nargs, 9);
	assert_int_equal(L->args[0].kind, ARG_BUFFER);
	assert_string_equal(L->args[0].buffer, "x");
	assert_int_equal(L->args[2].kind, ARG_BUFFER);
	assert_string_equal(L->args[2].buffer, "partial");
	static const lesson_arg_type types[] = { AT_F32, AT_I64, AT_I32, AT_U32, AT_U64, AT_F64 };
	static const char *const bodies[] = { "a", "n", "R", "half", "n", "a * 2" };
	for (int i = 0; i < 6; i++) {
		assert_int_equal(L->args[3 + i].kind, ARG_VALUE);
		assert_int_equal(L->args[3 + i].type, types[i]);
		assert_string_equal(expr_source(L->args[3 + i].value.e), bodies[i]);
	}
	const lesson_launch *L2 = &s->launches[2];
	assert_string_equal(L2->entry, "k_finish");
	assert_null(L2->grid[1].e);
	assert_null(L2->block[1].e);
	assert_null(L2->shared.e);
	assert_int_equal(s->noptions, 1);
	assert_string_equal(s->options[0], "--use_fast_math");
	assert_int_equal(s->req_cc, 90);
	assert_string_equal(s->req_arch, "sm_90a");
	assert_string_equal(s->req_why, "needs wgmma");

	/* stage 2: defaults */
	s = &l->stages[1];
	assert_int_equal(s->check, 0);
	assert_int_equal(s->ntunables, 0);
	assert_int_equal(s->req_cc, 0);
	assert_null(s->req_arch);
	assert_string_equal(expr_source(s->launches[0].grid[0].e), "ceil_div(n, 256)");
	lesson_free(l);
}

static void test_exact_and_defaults(void **state)
{
	(void)state;
	char err[1024];
	lesson *l = load(HEAD "check: { reference: s1, compare: z, tolerance: exact }\n" STAGE LAUNCH, err, sizeof err);
	if (!l) fail_msg("%s", err);
	assert_true(l->exact);
	assert_int_equal(l->ncompare, 1);   /* a lone name is a list of one */
	assert_int_equal(l->order, 100);    /* the default order */
	assert_null(l->baseline);
	assert_null(l->flops.e);
	assert_null(l->peak);
	assert_null(l->traffic);                            /* no traffic: the copy bandwidth */
	assert_int_equal(traffic_of(l->traffic), TRAFFIC_COPY);
	assert_int_equal(l->nderived, 0);
	lesson_free(l);

	/* a tolerance with only rel leaves abs at 0; the check section itself is optional */
	l = load(HEAD "check: { reference: s1, compare: [z], tolerance: { rel: 0.5 } }\n" STAGE LAUNCH, err, sizeof err);
	if (!l) fail_msg("%s", err);
	assert_false(l->exact);
	assert_true(l->rel_tol == 0.5 && l->abs_tol == 0 && l->norm_tol == 0);
	lesson_free(l);
	/* norm beside rel and abs keeps both; norm alone opens the element-wise check (abs infinite) */
	l = load(HEAD "check: { reference: s1, compare: [z], tolerance: { rel: 0.5, abs: 0.25, norm: 0.01 } }\n" STAGE LAUNCH, err, sizeof err);
	if (!l) fail_msg("%s", err);
	assert_true(l->rel_tol == 0.5 && l->abs_tol == 0.25 && l->norm_tol == 0.01);
	lesson_free(l);
	l = load(HEAD "check: { reference: s1, compare: [z], tolerance: { norm: 0.01 } }\n" STAGE LAUNCH, err, sizeof err);
	if (!l) fail_msg("%s", err);
	assert_true(l->rel_tol == 0 && isinf(l->abs_tol) && l->norm_tol == 0.01);
	lesson_free(l);
	/* a stage's own tolerance */
	l = load(HEAD "check: { reference: s1, compare: [z], tolerance: exact }\n" STAGE "    tolerance: { rel: 0.125 }\n" LAUNCH, err, sizeof err);
	if (!l) fail_msg("%s", err);
	assert_true(l->exact && l->stages[0].has_tolerance && !l->stages[0].exact && l->stages[0].rel_tol == 0.125);
	assert_null(l->stages[0].peak);
	assert_null(lesson_stage_peak(l, 0));     /* neither the stage nor the model names one: fp32 */
	lesson_free(l);
	l = load(HEAD STAGE "    peak: fp64\n" LAUNCH, err, sizeof err);
	if (!l) fail_msg("%s", err);
	assert_string_equal(lesson_stage_peak(l, 0), "fp64");
	assert_int_equal(peak_of(lesson_stage_peak(l, -1)), PEAK_FP32);   /* the baseline: the lesson's */
	lesson_free(l);
	l = load(HEAD STAGE LAUNCH, err, sizeof err);
	if (!l) fail_msg("%s", err);
	assert_null(l->reference);
	assert_int_equal(l->ncompare, 0);
	lesson_free(l);
}

/* ---- malformed lessons ---- */

static void test_yaml_syntax(void **state)
{
	(void)state;
	/* a key indented deeper than its siblings: in plain words, libyaml's own in parentheses, at its position */
	expect_error("lesson: t\ntitle: T\n  summary: s\n", "t.yaml:3:10: line 3 is indented more than line 2, so YAML reads it as more "
	             "of line 2's value: YAML nests by indentation; line it up with the keys above it (libyaml: mapping values are not "
	             "allowed in this context)");
	/* an unclosed quote: where it opens */
	expect_error("lesson: t\ntitle: \"T\nsummary: s\n",
	             "t.yaml:2:8: the quote opened on line 2 is never closed (libyaml: found unexpected end of stream while scanning a quoted scalar (line 2))");
	/* a sequence item where a mapping key belongs */
	expect_error(HEAD "- oops\n", "t.yaml:10:1: line 10 is a list item ('- ') among the keys of the mapping that starts on line 1: indent "
	             "it under the key it belongs to (libyaml: did not find expected key while parsing a block mapping (line 1))");
	expect_error("", "t.yaml:1:1: the file is empty");
	expect_error("# only a comment\n", "t.yaml:1:1: the file is empty");
	expect_error("just a string\n", "t.yaml:1:1: a lesson must be a mapping (key: value)");
}

static void test_unknown_keys(void **state)
{
	(void)state;
	expect_error(HEAD "colour: red\n" STAGE LAUNCH,
	             "t.yaml:10:1: unknown key 'colour' in a lesson (expected one of: lesson, title, order, summary,");
	expect_error(HEAD STAGE "    colour: red\n" LAUNCH,
	             "t.yaml:17:5: unknown key 'colour' in a stage (expected one of: id, title, kernel, entry,");
	expect_error(HEAD STAGE "    launches:\n      - { grid: 1, block: 32, colour: 1 }\n",
	             "t.yaml:18:31: unknown key 'colour' in a launch (expected one of: grid, block, shared, args, entry, stream, pdl)");
	expect_error(HEAD STAGE "    launches:\n      - grid: 1\n        block: 32\n        sharedmem: 4\n",
	             "t.yaml:20:9: unknown key 'sharedmem' in a launch");
	expect_error(HEAD STAGE "    launches:\n      - memset: { buffer: z, valu: 0 }\n",
	             "t.yaml:18:30: unknown key 'valu' in memset (expected one of: buffer, value, stream)");
	expect_error(HEAD STAGE "    tunables:\n      B: { values: [1], default: 1, hlep: x }\n" LAUNCH,
	             "t.yaml:18:37: unknown key 'hlep' in a tunable");
	expect_error(PRE PARAM XBUF "  z: { type: f32, count: n, outptu: true }\n" MODEL STAGE LAUNCH,
	             "t.yaml:8:29: unknown key 'outptu' in a buffer (expected one of: type, count, init, output, host, pitch)");
}

/* baselines: NAME -> {...} and a stage's baseline: NAME (lessons/README.md, "Baselines per stage"). */
#define NAMED                                                                     \
	"baselines:\n"                                                 /* 10 */ \
	"  fast: { title: F, library: memcpy, args: { dst: z, src: x, bytes: 4 } }\n" /* 11 */ \
	"  wide:\n"                                                    /* 12 */ \
	"    title: W\n"                                               /* 13 */ \
	"    library: cub_reduce_sum\n"                                /* 14 */ \
	"    args: { in: x, out: z, count: n }\n"                      /* 15 */
static void test_named_baselines(void **state)
{
	(void)state;
	char err[1024];
	lesson *l = load(HEAD "baseline: { title: c, library: memcpy, args: { dst: z, src: x, bytes: 8 } }\n" NAMED
	                 "stages:\n"
	                 "  - { id: a, title: A, kernel: k.cu, entry: k, explain: e, bottleneck: b, launches: [{ grid: 1, block: 32 }] }\n"
	                 "  - { id: b, title: B, kernel: k.cu, entry: k, explain: e, bottleneck: b, baseline: wide, launches: [{ grid: 1, block: 32 }] }\n",
	                 err, sizeof err);
	if (!l) fail_msg("%s", err);
	assert_int_equal(l->nbaselines, 2);
	assert_string_equal(l->baseline->id, "baseline");
	assert_string_equal(l->baselines[0]->id, "baseline.fast");
	assert_string_equal(l->baselines[1]->library, "cub_reduce_sum");
	assert_int_equal(l->stages[0].baseline, -1);
	assert_int_equal(l->stages[1].baseline, LESSON_BASELINE(1));
	assert_int_equal(lesson_stage_baseline(l, 0), -1);
	assert_int_equal(lesson_stage_baseline(l, 1), -3);
	assert_ptr_equal(lesson_baseline_at(l, -3), l->baselines[1]);
	assert_null(lesson_baseline_at(l, -4));
	assert_null(lesson_baseline_at(l, 0));
	assert_int_equal(lesson_baseline_named(l, "baseline"), -1);
	assert_int_equal(lesson_baseline_named(l, "Baseline.FAST"), -2);
	assert_int_equal(lesson_baseline_named(l, "fast"), 0);   /* the id, not the bare name */
	assert_int_equal(lesson_baseline_named(l, "baseline.nope"), 0);
	lesson_free(l);
	/* named ones without the lesson's own: a stage without baseline: has none */
	l = load(HEAD NAMED STAGE LAUNCH, err, sizeof err);
	if (!l) fail_msg("%s", err);
	assert_null(l->baseline);
	assert_int_equal(lesson_stage_baseline(l, 0), 0);
	assert_int_equal(lesson_baseline_named(l, "baseline"), 0);
	lesson_free(l);
	expect_error(HEAD NAMED STAGE "    baseline: fats\n" LAUNCH, "t.yaml:23:15: no baseline 'fats' in this lesson's baselines: (known: fast, wide)");
	expect_error(HEAD STAGE "    baseline: fast\n" LAUNCH, "t.yaml:17:15: baseline: fast names a baseline, but the lesson has no baselines: map");
	expect_error(HEAD "baselines:\n  fast: { title: F, args: { dst: z, src: x, bytes: 4 } }\n" STAGE LAUNCH,
	             "t.yaml:11:9: baselines entry 'fast' needs 'library'");
	expect_error(HEAD "baselines:\n  fast: { title: F, library: memcpy }\n" STAGE LAUNCH, "t.yaml:11:9: baselines entry 'fast' needs 'args'");
	expect_error(HEAD "baselines:\n  fast: { library: memcpy, args: { dst: z, src: x, bytes: 4 } }\n" STAGE LAUNCH,
	             "t.yaml:11:9: baselines entry 'fast' needs 'title'");
	expect_error(HEAD "baselines:\n  fast: { title: F, library: memcpy, args: { dst: z, src: x, bytes: 4 }, colour: 1 }\n" STAGE LAUNCH,
	             "t.yaml:11:");
	expect_error(HEAD "baselines:\n  fast: { title: F, library: memcpy, args: { dst: z } }\n" STAGE LAUNCH,
	             "t.yaml:11:44: library memcpy needs the argument 'src'");
	expect_error(HEAD "baselines:\n  2fast: { title: F, library: memcpy, args: { dst: z, src: x, bytes: 4 } }\n" STAGE LAUNCH,
	             "t.yaml:11:3: baseline name '2fast' is not an identifier");
	expect_error(HEAD "baselines:\n  a: { title: F, library: memcpy, args: { dst: z, src: x, bytes: 4 } }\n"
	             "  A: { title: F, library: memcpy, args: { dst: z, src: x, bytes: 4 } }\n" STAGE LAUNCH,
	             "t.yaml:12:3: baseline name 'A' is used twice");
	expect_error(HEAD "baselines: {}\n" STAGE LAUNCH, "t.yaml:10:12: baselines must be a mapping");
	expect_error(HEAD "baselines: [a]\n" STAGE LAUNCH, "t.yaml:10:12: baselines must be a mapping");
}

static void test_missing_keys(void **state)
{
	(void)state;
	expect_error("lesson: t\ntitle: T\nsummary: s\nbuffers: {}\nstages: []\n", "t.yaml:1:1: a lesson needs 'model'");
	expect_error(HEAD "stages:\n  - id: s1\n    title: S\n    kernel: k.cu\n    explain: e\n    bottleneck: b\n" LAUNCH,
	             "t.yaml:11:5: a stage needs 'entry'");
	expect_error(HEAD STAGE "    launches:\n      - { block: 32 }\n", "t.yaml:18:9: a launch needs 'grid'");
	expect_error(HEAD STAGE "    tunables:\n      B: { values: [1, 2] }\n" LAUNCH, "t.yaml:18:10: a tunable needs 'default'");
	expect_error(HEAD "check: { reference: s1, compare: [z] }\n" STAGE LAUNCH, "t.yaml:10:8: check needs 'tolerance'");
	expect_error(HEAD "baseline: { title: c, library: memcpy }\n" STAGE LAUNCH, "t.yaml:10:11: baseline needs 'args'");
	expect_error(HEAD "stages: []\n", "t.yaml:10:9: stages must be a list of at least one stage");
	expect_error(HEAD STAGE "    launches: []\n", "t.yaml:17:15: launches must be a list of at least one step (a launch, a copy, a memset, a library call, a record, a wait or a repeat block)");
}

/* l freed; whether it was not NULL. */
static void *lesson_free_ok(lesson *l)
{
	lesson_free(l);
	return l ? (void *)1 : NULL;
}

static void test_bad_expressions(void **state)
{
	(void)state;
	char err0[1024];
	/* the column points at the offending character inside the expression, quoted or not */
	expect_error(PRE "  n: { default: \"1 +* 2\" }\n" XBUF ZBUF MODEL STAGE LAUNCH,
	             "t.yaml:5:21: bad expression '1 +* 2' in default: expected a value, found '*'");
	expect_error(PRE "  n: { default: 1 +* 2 }\n" XBUF ZBUF MODEL STAGE LAUNCH,
	             "t.yaml:5:20: bad expression '1 +* 2' in default: expected a value, found '*'");
	/* extra top-level keys after the stage start at line 19 */
	expect_error(HEAD STAGE LAUNCH "derived:\n  h: n +* 2\n", "t.yaml:20:9: bad expression 'n +* 2' in h: expected a value, found '*'");
	expect_error(HEAD STAGE LAUNCH "derived:\n  h: 'ceil_div(n, 2'\n",
	             "t.yaml:20:20: bad expression 'ceil_div(n, 2' in h: expected ',' or ')', found the end of the expression");
	/* unknown names, in a quoted and in a plain scalar */
	expect_error(PRE PARAM XBUF ZBUF "model: { bytes: \"8 * m\" }\n" STAGE LAUNCH,
	             "t.yaml:9:22: unknown name 'm' in '8 * m' (not a parameter, derived or device value, nor any stage's tunable)");
	expect_error(HEAD STAGE LAUNCH "derived:\n  h: n * mm\n", "t.yaml:20:10: unknown name 'mm' in 'n * mm'");
	/* a derived value cannot use itself or a later one */
	expect_error(HEAD STAGE LAUNCH "derived:\n  a: b + 1\n  b: 2\n", "t.yaml:20:6: unknown name 'b' in 'b + 1'");
	expect_error(HEAD STAGE LAUNCH "derived:\n  a: a + 1\n", "t.yaml:20:6: unknown name 'a' in 'a + 1'");
	/* a tunable in the lesson's derived values: not visible (a stage's derived: sees it) */
	expect_error(HEAD STAGE "    tunables:\n      BLOCK: { values: [32], default: 32 }\n" LAUNCH "derived:\n  h: n * BLOCK\n",
	             "t.yaml:22:10: unknown name 'BLOCK' in 'n * BLOCK' (tunables are not visible here: a stage's own derived: sees them)");
	/* the lesson's model may name a tunable every stage has; a stage without it is named */
	assert_non_null(lesson_free_ok(load(PRE PARAM XBUF ZBUF "model: { bytes: \"n * BLOCK\" }\n" STAGE
	                                    "    tunables:\n      BLOCK: { values: [32], default: 32 }\n" LAUNCH, err0, sizeof err0)));
	expect_error(PRE PARAM XBUF ZBUF "model: { bytes: \"n * BLOCK\" }\n" STAGE
	             "    tunables:\n      BLOCK: { values: [32], default: 32 }\n" LAUNCH
	             "  - { id: s2, title: S, kernel: k.cu, entry: k, explain: e, bottleneck: b, launches: [{ grid: 1, block: 32, args: [x, z] }] }\n",
	             "t.yaml:9:17: model bytes: stage s2 has no tunable or derived value 'BLOCK'");
	/* an unknown tunable in a constraint, inside a stage: no hint about visibility */
	char err[1024];
	const char *cons = HEAD STAGE "    tunables:\n      BLOCK: { values: [32], default: 32 }\n"
	                   "    constraints:\n      - { expr: \"TILE > 1\", message: m }\n" LAUNCH;
	expect_error(cons, "t.yaml:20:18: unknown name 'TILE' in 'TILE > 1'");
	assert_null(load(cons, err, sizeof err));
	assert_null(strstr(err, "not visible"));
	/* an argument's expression: the column is inside TYPE(...) */
	expect_error(HEAD STAGE "    launches:\n      - { grid: 1, block: 32, args: [z, \"i32(n + q)\"] }\n",
	             "t.yaml:18:50: unknown name 'q' in 'n + q'");
	expect_error(HEAD STAGE "    launches:\n      - { grid: 1, block: 32, args: [z, i64(n +)] }\n",
	             "t.yaml:18:48: bad expression 'n +' in an argument: expected a value, found the end of the expression");
	/* an expression that is not a single value */
	expect_error(HEAD STAGE "    launches:\n      - { grid: { x: 1 }, block: 32 }\n",
	             "t.yaml:18:17: grid takes an expression or a list of 1 to 3 expressions");
	expect_error(HEAD STAGE "    launches:\n      - { grid: [[1], 2], block: 32 }\n", "t.yaml:18:18: grid must be a single value");
	expect_error(HEAD STAGE "    launches:\n      - { grid: [1, 2, 3, 4], block: 32 }\n",
	             "t.yaml:18:17: grid takes an expression or a list of 1 to 3 expressions");
}

static void test_tunable_errors(void **state)
{
	(void)state;
	expect_error(HEAD STAGE "    tunables:\n      BLOCK: { values: [32, 64], default: 48 }\n" LAUNCH,
	             "t.yaml:18:43: default 48 of tunable 'BLOCK' is not one of its allowed values");
	expect_error(HEAD STAGE "    tunables:\n      B: { range: [1, 16], pow2: true, default: 3 }\n" LAUNCH,
	             "t.yaml:18:49: default 3 of tunable 'B' is not one of its allowed values");
	expect_error(HEAD STAGE "    tunables:\n      B: { range: [1, 10], step: 4, default: 8 }\n" LAUNCH,
	             "t.yaml:18:46: default 8 of tunable 'B' is not one of its allowed values");
	expect_error(HEAD STAGE "    tunables:\n      B: { range: [9, 1], default: 1 }\n" LAUNCH,
	             "t.yaml:18:19: range: lo (9) is above hi (1)");
	expect_error(HEAD STAGE "    tunables:\n      B: { values: [1], range: [1, 2], default: 1 }\n" LAUNCH,
	             "t.yaml:18:10: tunable 'B' needs either values: [...] or range: [lo, hi]");
	expect_error(HEAD STAGE "    tunables:\n      B: { range: [0, 100000], default: 1 }\n" LAUNCH,
	             "t.yaml:18:19: range has more than 4096 values: use step or pow2");
	expect_error(HEAD STAGE "    tunables:\n      n: { values: [1], default: 1 }\n" LAUNCH,
	             "t.yaml:18:7: tunable 'n' has the name of a parameter");
	expect_error(HEAD STAGE "    tunables:\n      B: { values: [1, two], default: 1 }\n" LAUNCH,
	             "t.yaml:18:24: a tunable value must be a whole number, not 'two'");
	/* a default expression reads the device values only: not the lesson's parameters */
	expect_error(HEAD STAGE "    tunables:\n      B: { values: [8, 16], default: \"n > 4 ? 16 : 8\" }\n" LAUNCH,
	             "t.yaml:18:39: unknown name 'n' in 'n > 4 ? 16 : 8' (a tunable's default reads only the device values: sm_count,");
	expect_error(HEAD STAGE "    tunables:\n      B: { values: [8, 16], default: \"cc >\" }\n" LAUNCH,
	             "t.yaml:18:43: bad expression 'cc >' in the default of tunable 'B':");
	/* one without names is a number, checked here */
	expect_error(HEAD STAGE "    tunables:\n      B: { values: [8, 16], default: \"1 << 5\" }\n" LAUNCH,
	             "t.yaml:18:38: default 32 of tunable 'B' is not one of its allowed values");
	expect_error(HEAD STAGE "    tunables:\n      B: { values: [8, 16], default: \"16 / 0\" }\n" LAUNCH,
	             "t.yaml:18:38: default '16 / 0' of tunable 'B': division by zero");
	expect_error(HEAD STAGE "    tunables:\n      B: { values: [8, 16], default: \"16.5\" }\n" LAUNCH,
	             "t.yaml:18:38: default '16.5' of tunable 'B' is not a whole number");
}

/* A default that is an expression: over the device values it is kept for plan_tunable_default; a
 * constant one becomes a number. */
static void test_tunable_default_expr(void **state)
{
	(void)state;
	char err[1024];
	lesson *l = load(HEAD STAGE "    tunables:\n      B: { values: [8, 16], default: \"max_shared_per_block >= 196608 ? 16 : 8\" }\n"
	                 "      C: { values: [8, 16], default: \"1 << 3\" }\n" LAUNCH, err, sizeof err);
	if (!l) fail_msg("%s", err);
	const lesson_tunable *b = lesson_find_tunable(&l->stages[0], "B"), *c = lesson_find_tunable(&l->stages[0], "C");
	assert_non_null(b->def_expr.e);
	assert_string_equal(expr_source(b->def_expr.e), "max_shared_per_block >= 196608 ? 16 : 8");
	assert_int_equal(b->def_expr.at.line, 18);
	assert_int_equal(b->def_expr.at.col, 39);
	assert_null(c->def_expr.e);
	assert_int_equal(c->def_num, 8);
	lesson_free(l);
}

/* Ranges near the ends of int64 expand without overflow. */
static void test_range_edges(void **state)
{
	(void)state;
	char err[1024];
	lesson *l = load(HEAD STAGE "    tunables:\n"
	                 "      A: { range: [1, 9223372036854775807], step: 9223372036854775807, default: 1 }\n"
	                 "      B: { range: [9223372036854775800, 9223372036854775807], default: 9223372036854775807 }\n"
	                 "      C: { range: [4611686018427387903, 9223372036854775807], pow2: true, default: 4611686018427387904 }\n"
	                 "      D: { range: [-9223372036854775807, -9223372036854775806], default: -9223372036854775806 }\n" LAUNCH,
	                 err, sizeof err);
	if (!l) fail_msg("%s", err);
	const lesson_stage *s = &l->stages[0];
	assert_int_equal(lesson_find_tunable(s, "A")->nvalues, 1);
	assert_int_equal(lesson_find_tunable(s, "B")->nvalues, 8);
	assert_true(lesson_find_tunable(s, "B")->values[7] == INT64_MAX);
	assert_int_equal(lesson_find_tunable(s, "C")->nvalues, 1);
	assert_true(lesson_find_tunable(s, "C")->values[0] == (int64_t)1 << 62);
	assert_int_equal(lesson_find_tunable(s, "D")->nvalues, 2);
	lesson_free(l);
	expect_error(HEAD STAGE "    tunables:\n      B: { range: [4611686018427387905, 9223372036854775807], pow2: true, default: 1 }\n" LAUNCH,
	             "t.yaml:18:19: range allows no value");
	expect_error(HEAD STAGE "    tunables:\n      B: { range: [1, 8], step: 0, default: 1 }\n" LAUNCH,
	             "t.yaml:18:33: step must be at least 1");
	expect_error(HEAD STAGE "    tunables:\n      B: { range: [0, 8], pow2: true, default: 1 }\n" LAUNCH,
	             "t.yaml:18:19: a pow2 range must start at 1 or more");
}

static void test_argument_errors(void **state)
{
	(void)state;
	expect_error(HEAD STAGE "    launches:\n      - { grid: 1, block: 32, args: [x, q] }\n",
	             "t.yaml:18:41: argument 'q' is neither a buffer nor TYPE(expression) with TYPE one of i32 u32 i64 u64 f32 f64");
	expect_error(HEAD STAGE "    launches:\n      - { grid: 1, block: 32, args: [x, \"i16(n)\"] }\n",
	             "t.yaml:18:41: argument 'i16(n)' is neither a buffer nor TYPE(expression)");
	expect_error(HEAD STAGE "    launches:\n      - { grid: 1, block: 32, args: [x, \"i32(n\"] }\n",
	             "t.yaml:18:41: argument 'i32(n' is neither a buffer nor TYPE(expression)");
	expect_error(HEAD STAGE "    launches:\n      - { grid: 1, block: 32, args: x }\n", "t.yaml:18:37: args must be a list");
	expect_error(HEAD STAGE "    launches:\n      - memset: { buffer: nope }\n", "t.yaml:18:27: memset: unknown buffer 'nope'");
	expect_error(HEAD STAGE "    launches:\n      - memset: { buffer: z, value: 256 }\n",
	             "t.yaml:18:37: memset value is a byte: 0 to 255");
}

/* A tensor map argument: { tensormap: BUFFER, dims: [...], box: [...], swizzle: S }, in flow and block
 * style, over a lesson buffer or a stage's scratch buffer; every mistake with its position. */
static void test_tensormap_args(void **state)
{
	(void)state;
	char err[1024];
	lesson *l = load(HEAD STAGE "    buffers:\n      part: { type: bf16, count: 4096 }\n    launches:\n"
	                 "      - { grid: 1, block: 32, args: [{ tensormap: x, dims: [16, n / 16], box: [8, 2], swizzle: 32 }, z] }\n"
	                 "      - grid: 1\n"
	                 "        block: 32\n"
	                 "        args:\n"
	                 "          - tensormap: part\n"
	                 "            dims: [64, 8, 2, 2, 2]\n"
	                 "            box: [64, 1, 1, 1, 1]\n"
	                 "          - \"i32(n)\"\n",
	                 err, sizeof err);
	if (!l) fail_msg("%s", err);
	const lesson_launch *L = &l->stages[0].launches[0];
	assert_int_equal(L->nargs, 2);
	const lesson_arg *a = &L->args[0];
	assert_int_equal(a->kind, ARG_TENSORMAP);
	assert_string_equal(a->buffer, "x");
	assert_int_equal(a->rank, 2);
	assert_string_equal(expr_source(a->dims[0].e), "16");
	assert_string_equal(expr_source(a->dims[1].e), "n / 16");
	assert_null(a->dims[2].e);
	assert_string_equal(expr_source(a->box[0].e), "8");
	assert_string_equal(expr_source(a->box[1].e), "2");
	assert_null(a->box[2].e);
	assert_int_equal(a->dims[1].at.line, 20);
	assert_int_equal(a->dims[1].at.col, 65);
	assert_int_equal(a->swizzle, 32);
	assert_int_equal(a->at.line, 20);
	assert_int_equal(a->at.col, 38);
	assert_int_equal(L->args[1].kind, ARG_BUFFER);
	a = &l->stages[0].launches[1].args[0];
	assert_int_equal(a->kind, ARG_TENSORMAP);
	assert_string_equal(a->buffer, "part");
	assert_int_equal(a->rank, 5);
	assert_int_equal(a->swizzle, 0);   /* the default */
	assert_string_equal(expr_source(a->box[4].e), "1");
	assert_int_equal(a->at.line, 24);
	assert_int_equal(l->stages[0].launches[1].args[1].kind, ARG_VALUE);
	lesson_free(l);

#define TM_LAUNCH(arg) HEAD STAGE "    launches:\n      - { grid: 1, block: 32, args: [z, " arg "] }\n"
	/* the argument starts at column 41 of line 18 */
	expect_error(TM_LAUNCH("{ tensormap: x, dims: [n], box: [8], swizle: 128 }"),
	             "t.yaml:18:78: unknown key 'swizle' in a tensor map argument (expected one of: tensormap, dims, box, swizzle)");
	expect_error(TM_LAUNCH("{ buffer: x }"), "t.yaml:18:43: unknown key 'buffer' in a tensor map argument");
	expect_error(TM_LAUNCH("{ tensormap: x, dims: [n] }"), "t.yaml:18:41: a tensor map argument needs 'box'");
	expect_error(TM_LAUNCH("{ dims: [n], box: [8] }"), "t.yaml:18:41: a tensor map argument needs 'tensormap'");
	expect_error(TM_LAUNCH("{ tensormap: q, dims: [n], box: [8] }"), "t.yaml:18:54: tensormap: unknown buffer 'q'");
	expect_error(TM_LAUNCH("{ tensormap: [x], dims: [n], box: [8] }"), "t.yaml:18:54: tensormap must be a single value");
	expect_error(TM_LAUNCH("{ tensormap: x, dims: [], box: [8] }"),
	             "t.yaml:18:63: dims takes a list of 1 to 5 expressions, innermost dimension first");
	expect_error(TM_LAUNCH("{ tensormap: x, dims: n, box: [8] }"),
	             "t.yaml:18:63: dims takes a list of 1 to 5 expressions, innermost dimension first");
	expect_error(TM_LAUNCH("{ tensormap: x, dims: [1, 1, 1, 1, 1, n], box: [8] }"),
	             "t.yaml:18:63: dims takes a list of 1 to 5 expressions");
	expect_error(TM_LAUNCH("{ tensormap: x, dims: [n], box: { x: 8 } }"),
	             "t.yaml:18:73: box takes a list of 1 to 5 expressions");
	expect_error(TM_LAUNCH("{ tensormap: x, dims: [8, n / 8], box: [8] }"),
	             "t.yaml:18:80: box has 1 entries and dims 2: one per dimension");
	expect_error(TM_LAUNCH("{ tensormap: x, dims: [n +], box: [8] }"),
	             "t.yaml:18:67: bad expression 'n +' in dims: expected a value, found the end of the expression");
	expect_error(TM_LAUNCH("{ tensormap: x, dims: [n], box: [BM] }"), "t.yaml:18:74: unknown name 'BM' in 'BM'");
	expect_error(TM_LAUNCH("{ tensormap: x, dims: [[n]], box: [8] }"), "t.yaml:18:64: dims must be a single value");
	expect_error(TM_LAUNCH("{ tensormap: x, dims: [n], box: [8], swizzle: 16 }"),
	             "t.yaml:18:87: swizzle is 0, 32, 64 or 128 (bytes), not 16");
	expect_error(TM_LAUNCH("{ tensormap: x, dims: [n], box: [8], swizzle: big }"),
	             "t.yaml:18:87: swizzle must be a whole number, not 'big'");
	/* a list is not an argument either */
	expect_error(TM_LAUNCH("[x]"), "t.yaml:18:41: an argument must be a single value");
#undef TM_LAUNCH
}

/* Names are at most LESSON_NAME_MAX (64) bytes: a longer lesson or stage id, parameter, buffer or
 * tunable name is refused at its place, its text cut in the message. */
static void test_name_lengths(void **state)
{
	(void)state;
	char name[3001], text[8192], want[256];
	memset(name, 'a', sizeof name - 1);
	name[sizeof name - 1] = 0;
	const char *prefix = "aaaaaaaaaaaaaaaaaaaaaaaa...' is 3000 characters long (at most 64)";
	snprintf(text, sizeof text, "lesson: %s\ntitle: T\nsummary: s\nparams:\n" PARAM XBUF ZBUF MODEL STAGE LAUNCH, name);
	snprintf(want, sizeof want, "t.yaml:1:9: lesson id '%s", prefix);
	expect_error(text, want);
	snprintf(text, sizeof text, HEAD "stages:\n  - id: %s\n    title: S\n    kernel: k.cu\n    entry: k\n    explain: e\n    bottleneck: b\n" LAUNCH, name);
	snprintf(want, sizeof want, "t.yaml:11:9: stage id '%s", prefix);
	expect_error(text, want);
	name[1000] = 0;   /* a plain key is at most 1024 characters long in YAML */
	prefix = "aaaaaaaaaaaaaaaaaaaaaaaa...' is 1000 characters long (at most 64)";
	snprintf(text, sizeof text, PRE "  %s: { default: 1 }\n" XBUF ZBUF MODEL STAGE LAUNCH, name);
	snprintf(want, sizeof want, "t.yaml:5:3: parameter name '%s", prefix);
	expect_error(text, want);
	snprintf(text, sizeof text, PRE PARAM "buffers:\n  %s: { type: f32, count: n }\n" ZBUF MODEL STAGE LAUNCH, name);
	snprintf(want, sizeof want, "t.yaml:7:3: buffer name '%s", prefix);
	expect_error(text, want);
	snprintf(text, sizeof text, HEAD STAGE "    tunables:\n      %s: { values: [1], default: 1 }\n" LAUNCH, name);
	snprintf(want, sizeof want, "t.yaml:18:7: tunable name '%s", prefix);
	expect_error(text, want);
	/* 64 is fine; 65 is not */
	name[64] = 0;
	snprintf(text, sizeof text, PRE PARAM "  %s: { default: 1 }\n" XBUF ZBUF MODEL STAGE LAUNCH, name);
	char err[1024];
	lesson *l = load(text, err, sizeof err);
	if (!l) fail_msg("%s", err);
	lesson_free(l);
	name[64] = 'a';
	name[65] = 0;
	snprintf(text, sizeof text, PRE "  %s: { default: 1 }\n" XBUF ZBUF MODEL STAGE LAUNCH, name);
	expect_error(text, "t.yaml:5:3: parameter name 'aaaaaaaaaaaaaaaaaaaaaaaa...' is 65 characters long (at most 64)");
}

static void test_structure_errors(void **state)
{
	(void)state;
	/* the second stage with the same id: at that stage */
	expect_error(HEAD STAGE LAUNCH "  - id: s1\n    title: S\n    kernel: k.cu\n    entry: k\n    explain: e\n"
	             "    bottleneck: b\n    launches: [{ grid: 1, block: 1 }]\n",
	             "t.yaml:19:5: stage id 's1' is used twice");
	expect_error(HEAD "check: { reference: nope, compare: [z], tolerance: exact }\n" STAGE LAUNCH,
	             "t.yaml:10:8: reference 'nope' is neither a stage of this lesson nor its baseline");
	expect_error(HEAD "check: { reference: baseline, compare: [z], tolerance: exact }\n" STAGE LAUNCH,
	             "t.yaml:10:8: reference 'baseline' is neither a stage of this lesson nor its baseline");
	expect_error(HEAD "check: { reference: s1, compare: [z, x], tolerance: exact }\n" STAGE LAUNCH,
	             "t.yaml:10:34: 'x' is not an output buffer");
	expect_error(HEAD "check: { reference: s1, compare: [q], tolerance: exact }\n" STAGE LAUNCH,
	             "t.yaml:10:34: 'q' is not an output buffer");
	expect_error(HEAD "check: { reference: s1, compare: [z], tolerance: close }\n" STAGE LAUNCH,
	             "t.yaml:10:50: tolerance is 'exact' or { rel: r, abs: a, norm: n }");
	expect_error(HEAD "check: { reference: s1, compare: [z], tolerance: { norm: 0 } }\n" STAGE LAUNCH,
	             "t.yaml:10:58: norm must be above 0 (leave it out for no norm-wise check)");
	expect_error(HEAD "check: { reference: s1, compare: [z], tolerance: { norm: -1 } }\n" STAGE LAUNCH,
	             "t.yaml:10:58: tolerances cannot be negative");
	/* a tolerance may be an expression of the lesson's names (evaluated when planned: test_plan.c) */
	expect_error(HEAD "check: { reference: s1, compare: [z], tolerance: { abs: \"1e-8 * nn\" } }\n" STAGE LAUNCH,
	             "t.yaml:10:65: unknown name 'nn' in '1e-8 * nn'");
	expect_error(HEAD "check: { reference: s1, compare: [z], tolerance: { abs: \"1e-8 * (n\" } }\n" STAGE LAUNCH,
	             "t.yaml:10:");
	expect_error(HEAD "check: { reference: s1, compare: [z], tolerance: { rel: nan } }\n" STAGE LAUNCH,
	             "t.yaml:10:57: rel: 'nan' is not a finite number");
	expect_error(HEAD "check: { reference: s1, compare: [z], tolerance: exact }\n" STAGE "    peak: fp4_tensor\n" LAUNCH,
	             "t.yaml:18:11: unknown peak 'fp4_tensor' (known: fp32, bf16_tensor, fp64, tf32_tensor, fp16_tensor, fp8_tensor, int8_tensor)");
	expect_error(HEAD "check: { reference: s1, compare: [z], tolerance: exact }\n" STAGE "    tolerance: { bad: 1 }\n" LAUNCH,
	             "t.yaml:18:18: unknown key 'bad' in tolerance (expected one of: rel, abs, norm)");
	expect_error(HEAD "check: { reference: s1, compare: [z], tolerance: { rel: -1 } }\n" STAGE LAUNCH,
	             "t.yaml:10:57: tolerances cannot be negative");
	expect_error(HEAD "baseline: { title: c, library: cudnn, args: { dst: z } }\n" STAGE LAUNCH,
	             "t.yaml:10:32: unknown library 'cudnn' (known: memcpy, cub_reduce_sum, cub_histogram_even, cublas_sgemm, cublas_gemm_bf16, "
	             "cudnn_conv_bias_relu, cudnn_conv_bias_relu_fused, cudnn_softmax, cudnn_sdpa, npp_gauss, cublas_gemm_batched");
	expect_error(HEAD "baseline: { title: c, library: memcpy, args: { dst: z, src: x } }\n" STAGE LAUNCH,
	             "t.yaml:10:46: library memcpy needs the argument 'bytes'");
	/* library steps: the same rules as a baseline, and a stage's own buffers in scope */
	expect_error(HEAD STAGE "    launches:\n      - { library: cudnn, args: { x: x } }\n",
	             "t.yaml:18:20: unknown library 'cudnn' (known: memcpy");
	expect_error(HEAD STAGE "    launches:\n      - { library: memcpy, args: { dst: z, src: x } }\n",
	             "t.yaml:18:34: library memcpy needs the argument 'bytes'");
	expect_error(HEAD STAGE "    launches:\n      - { library: memcpy, args: { dst: z, src: x, bytes: n, count: 3 } }\n",
	             "t.yaml:18:62: library memcpy takes no argument 'count'");
	expect_error(HEAD STAGE "    launches:\n      - { library: memcpy, args: { dst: z, src: x, dst: x, bytes: n } }\n",
	             "t.yaml:18:52: duplicate key 'dst' (first at line 18)");
	expect_error(HEAD STAGE "    launches:\n      - { library: memcpy, args: { dst: z, src: x, bytes: nope } }\n",
	             "t.yaml:18:59: unknown name 'nope'");
	expect_error(HEAD STAGE "    launches:\n      - { library: memcpy, grid: 1, args: { dst: z, src: x, bytes: n } }\n",
	             "t.yaml:18:28: unknown key 'grid' in a library step");
	/* the GEMM baselines run with m, n and k: the loader must ask for them */
	expect_error(HEAD "baseline: { title: c, library: cublas_sgemm, args: { A: x, B: x, C: z, m: n, n: n } }\n" STAGE LAUNCH,
	             "t.yaml:10:52: library cublas_sgemm needs the argument 'k'");
	expect_error(HEAD "baseline: { title: c, library: memcpy, args: { dst: z, src: x, bytes: 4 * nn } }\n" STAGE LAUNCH,
	             "t.yaml:10:75: unknown name 'nn' in '4 * nn'");
	/* outputs are poisoned, never initialised; stage buffers are scratch */
	expect_error(PRE PARAM XBUF "  z: { type: f32, count: n, init: iota, output: true }\n" MODEL STAGE LAUNCH,
	             "t.yaml:8:35: an output buffer has no init: it is poisoned before every run");
	expect_error(HEAD STAGE "    buffers:\n      z: { type: f32, count: 4 }\n" LAUNCH,
	             "t.yaml:18:7: stage buffer 'z' hides a lesson buffer");
	/* traffic: a name the engine knows, at its line and column; only in the lesson's model */
	expect_error(PRE PARAM XBUF ZBUF "model: { bytes: \"8 * n\", traffic: write }\n" STAGE LAUNCH,
	             "t.yaml:9:35: unknown traffic 'write' (known: copy, read, pcie)");
	expect_error(PRE PARAM XBUF ZBUF "model:\n  bytes: 4 * n\n  traffic: [read]\n" STAGE LAUNCH,
	             "t.yaml:11:12: traffic must be a single value");
	expect_error(HEAD "baseline: { title: c, library: memcpy, args: { dst: z, src: x, bytes: 4 }, model: { bytes: 8, traffic: read } }\n"
	             STAGE LAUNCH, "t.yaml:10:95: unknown key 'traffic' in model (expected one of: bytes, flops)");
	expect_error(PRE PARAM XBUF "  z: { type: f16x, count: n }\n" MODEL STAGE LAUNCH,
	             "t.yaml:8:14: unknown type 'f16x' (expected f32, f64, f16, bf16, i32, u32, i64, u64, i8 or u8)");
	expect_error("lesson: T-1\ntitle: T\nsummary: s\nparams:\n" PARAM XBUF ZBUF MODEL STAGE LAUNCH, "t.yaml:1:9: lesson id 'T-1' may use only a-z, 0-9 and _");
	expect_error(PRE PARAM "  n: { default: 2 }\n" XBUF ZBUF MODEL STAGE LAUNCH,
	             "t.yaml:6:3: duplicate key 'n' (first at line 5)");
	expect_error(PRE "  sm_count: { default: 1 }\n" XBUF ZBUF MODEL STAGE LAUNCH,
	             "t.yaml:5:3: parameter 'sm_count' is declared twice or hides a device value");
	expect_error(PRE "  n: { default: 1, type: i32 }\n" XBUF ZBUF MODEL STAGE LAUNCH,
	             "t.yaml:5:26: a parameter is i64, f32 or f64");
	expect_error(HEAD STAGE "    requires: { cc: nine, why: w }\n" LAUNCH, "t.yaml:17:21: cc must be a whole number, not 'nine'");
}

/* Nodes of the wrong kind where a mapping is expected: an error, never a read of the wrong union member. */
static void test_wrong_node_kinds(void **state)
{
	(void)state;
	expect_error(PRE "  n: 5\n" XBUF ZBUF MODEL STAGE LAUNCH, "t.yaml:5:6: a parameter must be a mapping (key: value)");
	expect_error(PRE "  n: [type, f32]\n" XBUF ZBUF MODEL STAGE LAUNCH,
	             "t.yaml:5:6: a parameter must be a mapping (key: value)");
	expect_error(PRE "  n: [type, f32, x]\n" XBUF ZBUF MODEL STAGE LAUNCH,
	             "t.yaml:5:6: a parameter must be a mapping (key: value)");
	expect_error(HEAD "check: { reference: s1, compare: [z], tolerance: [rel, 1] }\n" STAGE LAUNCH,
	             "t.yaml:10:50: tolerance must be a mapping (key: value)");
	expect_error(HEAD STAGE "    requires: sm_90\n" LAUNCH, "t.yaml:17:15: requires must be a mapping (key: value)");
	expect_error(HEAD STAGE "    requires: [cc, 90]\n" LAUNCH, "t.yaml:17:15: requires must be a mapping (key: value)");
	expect_error(HEAD "baseline: { title: c, library: memcpy, args: [dst, z] }\n" STAGE LAUNCH,
	             "t.yaml:10:46: library args must be a mapping of name: buffer or expression");
}

/* ---- kernel files (lesson_load with kernels_root) ---- */

static void test_kernel_files(void **state)
{
	(void)state;
	char err[1024], path[512];
	/* the good case: resolved path, entries found in the file and in a header beside it */
	lesson *l = load_tree("t", HEAD STAGE "    launches:\n      - { grid: 1, block: 32, args: [x, z] }\n"
	                           "      - { grid: 1, block: 32, entry: k_two, args: [z] }\n"
	                           "      - { grid: 1, block: 32, entry: from_header, args: [z] }\n",
	                      err, sizeof err, path, sizeof path);
	if (!l) fail_msg("%s", err);
	char *want = xasprintf("%s/kernels/t/k.cu", tmp_root), *kdir = xasprintf("%s/kernels/t", tmp_root);
	assert_string_equal(l->stages[0].kernel_path, want);
	assert_string_equal(l->kernel_dir, kdir);
	assert_string_equal(l->path, path);
	free(want);
	free(kdir);
	lesson_free(l);

	/* kernel: is line 13, col 13; entry: line 14, col 12 */
	const char *pre = HEAD "stages:\n  - id: s1\n    title: S\n";
	char text[2048];
	snprintf(text, sizeof text, "%s    kernel: nothere.cu\n    entry: k\n    explain: e\n    bottleneck: b\n" LAUNCH, pre);
	char *kpath = xasprintf("13:13: missing kernel file %s/kernels/t/nothere.cu", tmp_root);
	expect_tree_error(text, kpath);
	free(kpath);
	snprintf(text, sizeof text, "%s    kernel: ../elsewhere.cu\n    entry: k\n    explain: e\n    bottleneck: b\n" LAUNCH, pre);
	expect_tree_error(text, "13:13: kernel path '../elsewhere.cu' must stay inside kernels/t/");
	snprintf(text, sizeof text, "%s    kernel: sub/../../elsewhere.cu\n    entry: k\n    explain: e\n    bottleneck: b\n" LAUNCH, pre);
	expect_tree_error(text, "13:13: kernel path 'sub/../../elsewhere.cu' must stay inside kernels/t/");
	snprintf(text, sizeof text, "%s    kernel: %s/kernels/elsewhere.cu\n    entry: k\n    explain: e\n    bottleneck: b\n" LAUNCH,
	         pre, tmp_root);
	char *abs = xasprintf("13:13: kernel path '%s/kernels/elsewhere.cu' must stay inside kernels/t/", tmp_root);
	expect_tree_error(text, abs);
	free(abs);
	/* a symlink inside the folder that points out of it */
	snprintf(text, sizeof text, "%s    kernel: link.cu\n    entry: k\n    explain: e\n    bottleneck: b\n" LAUNCH, pre);
	expect_tree_error(text, "13:13: kernel path 'link.cu' leads outside kernels/t/");
	/* entries that the kernel does not define */
	snprintf(text, sizeof text, "%s    kernel: k.cu\n    entry: kk\n    explain: e\n    bottleneck: b\n" LAUNCH, pre);
	char *ent = xasprintf("14:12: entry 'kk' is not defined in %s/kernels/t/k.cu or a header beside it", tmp_root);
	expect_tree_error(text, ent);
	free(ent);
	snprintf(text, sizeof text, "%s    kernel: k.cu\n    entry: two\n    explain: e\n    bottleneck: b\n" LAUNCH, pre);
	expect_tree_error(text, "14:12: entry 'two' is not defined");   /* k_two is not two */
	expect_tree_error(HEAD STAGE "    launches:\n      - { grid: 1, block: 32, entry: k_three, args: [z] }\n",
	                  "18:38: entry 'k_three' is not defined");
}

/* ---- exercises ---- */

/* HEAD STAGE LAUNCH ends at line 18; the exercise block starts on line 19. */
#define EX_PRE HEAD STAGE LAUNCH "    exercise:\n"                          /* 19 */

static void test_exercise(void **state)
{
	(void)state;
	char err[1024], path[512];
	write_file("kernels/t/exercises/k.cu", "// TODO\nextern \"C\" __global__ void k(float *x, float *z) { }\n");
	write_file("kernels/t/exercises/nok.cu", "extern \"C\" __global__ void other(float *x, float *z) { }\n");
	/* the whole block, read back */
	lesson *l = load_tree("t", EX_PRE
	                      "      start: k.cu\n"
	                      "      pass: 0.75\n"
	                      "      tolerance: { rel: 1e-5 }\n"
	                      "      hints: [\"first\", \"second\"]\n"
	                      "      sizes:\n"
	                      "        - { n: 5 }\n"
	                      "        - { n: \"1000 + 3\" }\n",
	                      err, sizeof err, path, sizeof path);
	if (!l) fail_msg("%s", err);
	const lesson_exercise *x = l->stages[0].exercise;
	assert_non_null(x);
	char *want = xasprintf("%s/kernels/t/exercises/k.cu", tmp_root);
	assert_string_equal(x->start_path, want);
	free(want);
	assert_string_equal(x->start_rel, "k.cu");
	assert_true(fabs(x->pass - 0.75) < 1e-12);
	assert_int_equal(x->has_tolerance, 1);
	assert_int_equal(x->exact, 0);
	assert_true(fabs(x->rel_tol - 1e-5) < 1e-12 && x->abs_tol == 0);
	assert_int_equal(x->nhints, 2);
	assert_string_equal(x->hints[1], "second");
	assert_int_equal(x->nsizes, 2);
	assert_string_equal(x->sizes[1].names[0], "n");
	assert_string_equal(x->sizes[1].values[0], "1000 + 3");
	assert_int_equal(x->sizes[0].at.line, 25);   /* "- { n: 5 }" */
	lesson_free(l);
	/* defaults: pass 0.9, no sizes, no tolerance, no hints */
	l = load_tree("t", EX_PRE "      start: k.cu\n", err, sizeof err, path, sizeof path);
	if (!l) fail_msg("%s", err);
	assert_true(fabs(l->stages[0].exercise->pass - 0.9) < 1e-12);
	assert_int_equal(l->stages[0].exercise->nsizes, 0);
	assert_int_equal(l->stages[0].exercise->has_tolerance, 0);
	lesson_free(l);
	/* a stage without one has none */
	l = load_tree("t", HEAD STAGE LAUNCH, err, sizeof err, path, sizeof path);
	if (!l) fail_msg("%s", err);
	assert_null(l->stages[0].exercise);
	lesson_free(l);

	/* errors, each at its place */
	expect_tree_error(EX_PRE "      pass: 0.9\n", "20:7: exercise needs 'start'");
	expect_tree_error(EX_PRE "      start: k.cu\n      colour: red\n", "21:7: unknown key 'colour' in exercise");
	expect_tree_error(HEAD STAGE LAUNCH "    exercise: k.cu\n", "19:15: exercise must be a mapping");
	char *miss = xasprintf("20:14: missing kernel file %s/kernels/t/exercises/none.cu", tmp_root);
	expect_tree_error(EX_PRE "      start: none.cu\n", miss);
	free(miss);
	expect_tree_error(EX_PRE "      start: ../k.cu\n", "20:14: kernel path 'exercises/../k.cu' must stay inside kernels/t/");
	expect_tree_error(EX_PRE "      start: nok.cu\n", "20:14: entry 'k' is not defined");
	expect_tree_error(EX_PRE "      start: k.cu\n      pass: 0\n", "21:13: pass is the fraction");
	expect_tree_error(EX_PRE "      start: k.cu\n      pass: fast\n", "21:13: pass must be a number, not 'fast'");
	expect_tree_error(EX_PRE "      start: k.cu\n      judge: kernels\n", "21:14: judge is kernel (the kernels' time, without the host copies) or whole");
	expect_tree_error(EX_PRE "      start: k.cu\n      hints: [\"a\", \"\"]\n", "21:14: hint 2 is empty");
	expect_tree_error(EX_PRE "      start: k.cu\n      sizes: { n: 5 }\n", "21:14: sizes must be a list");
	expect_tree_error(EX_PRE "      start: k.cu\n      sizes: [5]\n", "21:15: a size is a mapping");
	expect_tree_error(EX_PRE "      start: k.cu\n      sizes: [{ m: 5 }]\n", "21:17: 'm' is not a parameter of this lesson");
	expect_tree_error(EX_PRE "      start: k.cu\n      sizes: [{ n: 5, n: 6 }]\n", "21:23: duplicate key 'n' (first at line 21)");
	expect_tree_error(EX_PRE "      start: k.cu\n      sizes: [{ n: \"5 +\" }]\n", "21:24: bad expression '5 +' in n");
	expect_tree_error(EX_PRE "      start: k.cu\n      tolerance: loose\n", "21:18: tolerance is 'exact' or { rel: r, abs: a, norm: n }");
	expect_tree_error(HEAD STAGE LAUNCH "    check: false\n    exercise: { start: k.cu }\n",
	                  "20:15: stage 's1' is not checked (check: false)");
}

/* ---- a tree of lessons ---- */

static void test_lesson_set(void **state)
{
	(void)state;
	char *root = xasprintf("%s/set", tmp_root), *good, *bad1, *bad2;
	char saved[256];
	snprintf(saved, sizeof saved, "%s", tmp_root);
	snprintf(tmp_root, sizeof tmp_root, "%s", root);
	write_file("kernels/t/k.cu", "extern \"C\" __global__ void k(float *x, float *z) {}\n");
	write_file("lessons/good.yaml", HEAD STAGE LAUNCH);
	write_file("lessons/bad_key.yaml", HEAD "colour: red\n" STAGE LAUNCH);
	write_file("lessons/bad_kernel.yaml", "lesson: u\ntitle: U\nsummary: s\nbuffers:\n  z: { type: f32, count: 4, output: true }\n"
	                                      "model: { bytes: 4 }\nstages:\n  - { id: a, title: A, kernel: k.cu, entry: k, explain: e,"
	                                      " bottleneck: b, launches: [{ grid: 1, block: 1 }] }\n");
	write_file("lessons/notes.txt", "not a lesson\n");
	snprintf(tmp_root, sizeof tmp_root, "%s", saved);
	good = xasprintf("%s/lessons/good.yaml", root);
	bad1 = xasprintf("%s/lessons/bad_key.yaml:10:1: unknown key 'colour'", root);
	bad2 = xasprintf("%s/lessons/bad_kernel.yaml:8:", root);

	lesson_set set;
	char err[256] = "";
	assert_int_equal(lesson_set_load(&set, root, err, sizeof err), 0);
	assert_int_equal(set.count, 1);
	assert_int_equal(set.nerrors, 2);
	assert_string_equal(set.root, root);
	assert_string_equal(set.items[0]->id, "t");
	assert_string_equal(set.items[0]->path, good);
	assert_ptr_equal(lesson_set_find(&set, "t"), set.items[0]);
	assert_null(lesson_set_find(&set, "u"));
	/* errors in file-name order: bad_kernel, then bad_key */
	if (strncmp(set.errors[0], bad2, strlen(bad2)) || !strstr(set.errors[0], "missing kernel file"))
		fail_msg("errors[0] = %s", set.errors[0]);
	if (strncmp(set.errors[1], bad1, strlen(bad1))) fail_msg("errors[1] = %s", set.errors[1]);
	lesson_set_free(&set);
	assert_int_equal(set.count, 0);
	assert_null(set.items);

	/* the same id twice: the second file is refused */
	snprintf(tmp_root, sizeof tmp_root, "%s", root);
	write_file("lessons/good2.yaml", HEAD STAGE LAUNCH);
	snprintf(tmp_root, sizeof tmp_root, "%s", saved);
	assert_int_equal(lesson_set_load(&set, root, err, sizeof err), 0);
	assert_int_equal(set.count, 1);
	assert_int_equal(set.nerrors, 3);
	char *dup = xasprintf("%s/lessons/good2.yaml:1:1: lesson id 't' is used by another lesson too", root);
	int seen = 0;
	for (int i = 0; i < set.nerrors; i++) seen |= !strcmp(set.errors[i], dup);
	assert_true(seen);
	lesson_set_free(&set);

	/* no lessons folder */
	char *none = xasprintf("%s/none", tmp_root);
	assert_int_equal(lesson_set_load(&set, none, err, sizeof err), -1);
	assert_non_null(strstr(err, "no lesson folder"));
	lesson_set_free(&set);
	free(none); free(dup); free(good); free(bad1); free(bad2); free(root);
}

/* Every lesson that ships loads, kernels checked. */
static void test_shipped_lessons(void **state)
{
	(void)state;
	lesson_set set;
	char err[256] = "";
	assert_int_equal(lesson_set_load(&set, ".", err, sizeof err), 0);
	for (int i = 0; i < set.nerrors; i++) fprintf(stderr, "shipped lesson error: %s\n", set.errors[i]);
	assert_int_equal(set.nerrors, 0);
	assert_true(set.count >= 1);
	assert_non_null(lesson_set_find(&set, "bandwidth"));
	for (int i = 1; i < set.count; i++) assert_true(set.items[i - 1]->order <= set.items[i]->order);
	for (int i = 0; i < set.count; i++) {
		const lesson *l = set.items[i];
		assert_true(l->nstages >= 1);
		for (int s = 0; s < l->nstages; s++) assert_true(file_exists(l->stages[s].kernel_path));
	}
	lesson_set_free(&set);
}

/* ---- format v2: host buffers, memory:, copies, streams, repeat blocks, init expr, constants, textures ---- */

#define V2HEAD                                                                     \
	PRE PARAM XBUF ZBUF                                                            \
	"  hx: { type: f32, count: n, host: pageable, init: { random: [0, 1] } }\n"  /* 9 */  \
	"  hy: { type: f32, count: n, host: pinned, output: true }\n"                /* 10 */ \
	"  hi: { type: i32, count: n, host: pinned, init: iota }\n"                  /* 11 */ \
	"  w: { type: f32, count: 9, init: { expr: \"exp(-float(i * i))\" } }\n"     /* 12 */ \
	"  b: { type: u8, count: 256, init: iota }\n"                                /* 13 */ \
	"  d: { type: f64, count: 8, init: iota }\n"                                 /* 14 */ \
	MODEL                                                                        /* 15 */
/* The stage's lines 16 to 22 (STAGE's, 6 lines later). */
#define V2STAGE STAGE

/* A lesson using every v2 form loads into the structs the plan reads. */
static void test_v2_forms(void **state)
{
	(void)state;
	char err[1024];
	lesson *l = load(V2HEAD V2STAGE
	                 "    memory: { hx: pinned }\n"
	                 "    options: [\"-rdc=true\"]\n"
	                 "    buffers: { dx: { type: f32, count: n } }\n"
	                 "    constants:\n"
	                 "      - { symbol: c_w, buffer: w }\n"
	                 "      - { symbol: c_t, type: f32, count: 4, value: \"sqrt(float(i))\" }\n"
	                 "    launches:\n"
	                 "      - copy: { dst: dx, src: hx }\n"
	                 "      - repeat: 2\n"
	                 "        as: c\n"
	                 "        steps:\n"
	                 "          - copy: { dst: dx, src: hx, offset: \"c * 8\", count: 8, stream: \"1 + c\" }\n"
	                 "          - { grid: 1, block: 32, stream: \"1 + c\", args: [dx, \"i32(c)\", { texture: w, dims: [9] }] }\n"
	                 "          - repeat: c\n            as: j\n            steps: [{ memset: { buffer: z, value: 1, stream: j } }]\n"
	                 "      - copy: { dst: hy, src: dx, dst_offset: 1, src_offset: 2, count: \"n - 2\" }\n"
	                 "      - { grid: 1, block: 32, args: [{ texture: b, dims: [16, 16], pitch: 16, filter: linear, address: wrap, normalized: true, read: normalized }] }\n",
	                 err, sizeof err);
	if (!l) fail_msg("%s", err);
	assert_int_equal(l->buffers[2].memory, MEM_PAGEABLE);
	assert_int_equal(l->buffers[3].memory, MEM_PINNED);
	assert_int_equal(l->buffers[0].memory, MEM_DEVICE);
	assert_int_equal(l->buffers[5].init, INIT_EXPR);
	assert_string_equal(expr_source(l->buffers[5].init_expr.e), "exp(-float(i * i))");
	const lesson_stage *s = &l->stages[0];
	assert_int_equal(s->nmemory, 1);
	assert_string_equal(s->memory_buffers[0], "hx");
	assert_int_equal(s->memory_kinds[0], MEM_PINNED);
	assert_int_equal(s->nconstants, 2);
	assert_string_equal(s->constants[0].buffer, "w");
	assert_int_equal(s->constants[0].type, DT_F32);
	assert_null(s->constants[0].value.e);
	assert_int_equal(s->constants[1].type, DT_F32);
	assert_non_null(s->constants[1].value.e);
	assert_int_equal(s->nlaunches, 4);
	assert_int_equal(s->launches[0].kind, STEP_COPY);
	assert_string_equal(s->launches[0].copy_dst, "dx");
	assert_null(s->launches[0].copy_count.e);
	const lesson_launch *r = &s->launches[1];
	assert_non_null(r->body);
	assert_string_equal(r->repeat_var, "c");
	assert_int_equal(r->nbody, 3);
	assert_string_equal(expr_source(r->body[0].stream.e), "1 + c");
	assert_int_equal(r->body[1].args[2].kind, ARG_TEXTURE);
	assert_int_equal(r->body[1].args[2].rank, 1);
	assert_int_equal(r->body[1].args[2].filter, TEX_POINT);
	assert_int_equal(r->body[1].args[2].address, TEX_CLAMP);
	assert_string_equal(r->body[2].repeat_var, "j");
	assert_int_equal(r->body[2].body[0].kind, STEP_MEMSET);
	const lesson_arg *t = &s->launches[3].args[0];
	assert_int_equal(t->rank, 2);
	assert_int_equal(t->filter, TEX_LINEAR);
	assert_int_equal(t->address, TEX_WRAP);
	assert_true(t->normalized_coords && t->read_normalized);
	assert_non_null(t->pitch.e);
	lesson_free(l);
}

/* record: and wait: steps name events; a wait needs an earlier record; each error at its place. */
static void test_events(void **state)
{
	(void)state;
	char err[1024];
	lesson *l = load(HEAD STAGE
	                 "    launches:\n"                                           /* 17 */
	                 "      - { grid: 1, block: 32, stream: 1, args: [x, z] }\n" /* 18 */
	                 "      - { record: done, stream: 1 }\n"                     /* 19 */
	                 "      - repeat: 2\n        as: c\n        steps:\n"
	                 "          - { wait: done, stream: \"2 + c\" }\n"
	                 "          - { record: other }\n"
	                 "      - { record: done, stream: 2 }\n"
	                 "      - { wait: other }\n",
	                 err, sizeof err);
	if (!l) fail_msg("%s", err);
	const lesson_stage *s = &l->stages[0];
	assert_int_equal(s->nevents, 2);
	assert_string_equal(s->events[0], "done");
	assert_string_equal(s->events[1], "other");
	assert_int_equal(s->launches[1].kind, STEP_RECORD);
	assert_int_equal(s->launches[1].event, 0);
	assert_string_equal(expr_source(s->launches[1].stream.e), "1");
	assert_int_equal(s->launches[2].body[0].kind, STEP_WAIT);
	assert_int_equal(s->launches[2].body[0].event, 0);
	assert_int_equal(s->launches[2].body[1].event, 1);
	assert_null(s->launches[2].body[1].stream.e);
	assert_int_equal(s->launches[3].event, 0);
	assert_int_equal(s->launches[4].kind, STEP_WAIT);
	assert_int_equal(s->launches[4].event, 1);
	lesson_free(l);

	expect_error(HEAD STAGE "    launches:\n      - { wait: done, stream: 2 }\n      - { record: done, stream: 1 }\n",
	             "t.yaml:18:17: wait: no step before this one records event 'done'");
	expect_error(HEAD STAGE "    launches:\n      - { record: \"a b\" }\n", "t.yaml:18:19: record: event 'a b' is not an identifier");
	expect_error(HEAD STAGE "    launches:\n      - { record: e, stream: 1, count: 2 }\n", "t.yaml:18:33: unknown key 'count' in a record step (expected one of: record, stream)");
	expect_error(HEAD STAGE "    launches:\n      - { record: e }\n      - { wait: e, stream: \"1 +\" }\n", "t.yaml:19:");
	/* 16 events at most */
	char text[4096];
	int k = snprintf(text, sizeof text, "%s%s    launches:\n", HEAD, STAGE);
	for (int i = 0; i <= LESSON_MAX_EVENTS; i++) k += snprintf(text + k, sizeof text - (size_t)k, "      - { record: e%d }\n", i);
	expect_error(text, "t.yaml:34:19: record: a stage names at most 16 events");
}

/* Every malformed v2 form is refused at its place, naming what is wrong. */
static void test_v2_errors(void **state)
{
	(void)state;
	/* host buffers and memory: */
	expect_error(PRE PARAM XBUF "  h: { type: f32, count: n, host: mapped }\n" MODEL STAGE LAUNCH,
	             "t.yaml:8:35: host is pageable or pinned, not 'mapped'");
	expect_error(V2HEAD V2STAGE "    buffers: { s: { type: f32, count: 4, host: pinned } }\n" LAUNCH,
	             "t.yaml:23:48: stage buffer 's' is device scratch space: host buffers are the lesson's");
	expect_error(V2HEAD V2STAGE "    memory: { x: pinned }\n" LAUNCH,
	             "t.yaml:23:15: memory: 'x' is not a host buffer of the lesson (declared with host: pageable or pinned)");
	expect_error(V2HEAD V2STAGE "    memory: { hx: device }\n" LAUNCH, "t.yaml:23:19: memory is pageable or pinned, not 'device'");
	expect_error(V2HEAD V2STAGE "    memory: [hx]\n" LAUNCH, "t.yaml:23:13: memory must be a mapping of host buffer: pageable | pinned");
	/* init expr */
	expect_error(PRE PARAM XBUF "  e: { type: f32, count: n, init: { expr: \"j * 2\" } }\n" MODEL STAGE LAUNCH,
	             "t.yaml:8:44: unknown name 'j' in 'j * 2'");
	expect_error(PRE PARAM XBUF "  e: { type: f32, count: n, init: { expr: 1, constant: 2 } }\n" MODEL STAGE LAUNCH,
	             "t.yaml:8:35: init takes one of random, constant, expr and csr_rows");
	expect_error(PRE PARAM XBUF "  e: { type: f32, count: n, init: { expr: \"sqrt(\" } }\n" MODEL STAGE LAUNCH,
	             "t.yaml:8:49: bad expression 'sqrt(' in init expr");
	/* copies */
	expect_error(V2HEAD V2STAGE "    launches:\n      - copy: { dst: x, src: nope }\n", "t.yaml:24:30: copy: unknown buffer 'nope'");
	expect_error(V2HEAD V2STAGE "    launches:\n      - copy: { dst: x }\n", "t.yaml:24:15: copy needs 'src'");
	expect_error(V2HEAD V2STAGE "    launches:\n      - copy: { dst: x, src: hi }\n",
	             "t.yaml:24:15: copy hi>x: hi holds i32 and x holds f32; a copy moves elements of one type");
	expect_error(V2HEAD V2STAGE "    launches:\n      - copy: { dst: hy, src: hx }\n",
	             "t.yaml:24:15: copy hx>hy: both buffers are host memory; a copy step has a device side");
	expect_error(V2HEAD V2STAGE "    launches:\n      - copy: { dst: x, src: x }\n",
	             "t.yaml:24:15: copy x>x: source and destination are the same buffer");
	expect_error(V2HEAD V2STAGE "    launches:\n      - copy: { dst: x, src: hx, size: 4 }\n",
	             "t.yaml:24:34: unknown key 'size' in copy");
	expect_error(V2HEAD V2STAGE "    launches:\n      - copy: { dst: x, src: hx }\n        stream: 1\n",
	             "t.yaml:25:9: unknown key 'stream' in a copy step");
	expect_error(V2HEAD V2STAGE "    launches:\n      - copy: { dst: x, src: hx, count: \"m\" }\n",
	             "t.yaml:24:42: unknown name 'm' in 'm'");
	/* memset and kernels on host memory */
	expect_error(V2HEAD V2STAGE "    launches:\n      - memset: { buffer: hy, stream: 1 }\n",
	             "t.yaml:24:27: memset: hy is host memory; a memset step sets device memory");
	expect_error(V2HEAD V2STAGE "    launches:\n      - memset: { buffer: x, stream: s }\n", "t.yaml:24:38: unknown name 's' in 's'");
	expect_error(V2HEAD V2STAGE "    launches:\n      - { grid: 1, block: 32, stream: \"-\" }\n", "t.yaml:24:41: bad expression '-' in stream");
	/* repeat blocks */
	expect_error(V2HEAD V2STAGE "    launches:\n      - repeat: 2\n        steps: []\n", "t.yaml:24:9: a repeat block needs 'as'");
	expect_error(V2HEAD V2STAGE "    launches:\n      - repeat: 2\n        as: n\n        steps: [{ grid: 1, block: 1 }]\n",
	             "t.yaml:25:13: repeat: as 'n' is a name already in use here; pick a new one");
	expect_error(V2HEAD V2STAGE "    launches:\n      - repeat: 2\n        as: x\n        steps: [{ grid: 1, block: 1 }]\n",
	             "t.yaml:25:13: repeat: as 'x' is a name already in use here");
	expect_error(V2HEAD V2STAGE "    launches:\n      - repeat: 2\n        as: 2c\n        steps: [{ grid: 1, block: 1 }]\n",
	             "t.yaml:25:13: repeat: as '2c' is not an identifier");
	expect_error(V2HEAD V2STAGE "    launches:\n      - repeat: 2\n        as: c\n        steps: []\n",
	             "t.yaml:26:16: steps must be a list of at least one step");
	expect_error(V2HEAD V2STAGE "    launches:\n      - repeat: 2\n        as: c\n        steps:\n"
	             "          - repeat: 2\n            as: c\n            steps: [{ grid: 1, block: 1 }]\n",
	             "t.yaml:28:17: repeat: as 'c' is a name already in use here");
	expect_error(V2HEAD V2STAGE "    launches:\n      - repeat: c\n        as: c\n        steps: [{ grid: 1, block: 1 }]\n",
	             "t.yaml:24:17: unknown name 'c' in 'c'");
	expect_error(V2HEAD V2STAGE "    launches:\n      - repeat: 2\n        as: c\n        steps: [{ grid: 1, block: 1 }]\n"
	             "      - { grid: c, block: 1 }\n", "t.yaml:27:17: unknown name 'c' in 'c'");
	/* constants */
	expect_error(V2HEAD V2STAGE "    constants: [{ symbol: c_w }]\n" LAUNCH,
	             "t.yaml:23:17: constant c_w takes either buffer: NAME or type: and value: EXPR");
	expect_error(V2HEAD V2STAGE "    constants: [{ symbol: c_w, buffer: w, value: 1 }]\n" LAUNCH,
	             "t.yaml:23:17: constant c_w takes either buffer: NAME or type: and value: EXPR");
	expect_error(V2HEAD V2STAGE "    constants: [{ symbol: c_w, buffer: w, type: f32 }]\n" LAUNCH,
	             "t.yaml:23:49: constant c_w: the type is the buffer's; leave type out");
	expect_error(V2HEAD V2STAGE "    constants: [{ symbol: c_w, buffer: q }]\n" LAUNCH, "t.yaml:23:40: constant c_w: unknown buffer 'q'");
	expect_error(V2HEAD V2STAGE "    constants: [{ symbol: c_w, buffer: hx }]\n" LAUNCH,
	             "t.yaml:23:40: constant c_w: buffer hx is host memory");
	expect_error(V2HEAD V2STAGE "    constants: [{ symbol: c_w, value: 1 }]\n" LAUNCH,
	             "t.yaml:23:17: constant c_w needs type: (the variable's element type)");
	expect_error(V2HEAD V2STAGE "    constants: [{ symbol: \"c-w\", type: f32, value: 1 }]\n" LAUNCH,
	             "t.yaml:23:27: constant symbol 'c-w' is not a C identifier");
	expect_error(V2HEAD V2STAGE "    constants: [{ symbol: k, type: f32, value: 1 }, { symbol: k, type: i32, value: i }]\n" LAUNCH,
	             "t.yaml:23:63: constant k is filled twice");
	expect_error(V2HEAD V2STAGE "    constants: [{ symbol: k, type: f32, count: i, value: 1 }]\n" LAUNCH,
	             "t.yaml:23:48: unknown name 'i' in 'i'");
	expect_error(V2HEAD V2STAGE "    constants: { k: 1 }\n" LAUNCH, "t.yaml:23:16: constants must be a list");
	/* textures */
	expect_error(V2HEAD V2STAGE "    launches:\n      - { grid: 1, block: 1, args: [{ texture: q, dims: [4] }] }\n",
	             "t.yaml:24:48: texture: unknown buffer 'q'");
	expect_error(V2HEAD V2STAGE "    launches:\n      - { grid: 1, block: 1, args: [{ texture: hy, dims: [4] }] }\n",
	             "t.yaml:24:48: texture hy: the buffer is in host memory; a texture reads device memory");
	expect_error(V2HEAD V2STAGE "    launches:\n      - { grid: 1, block: 1, args: [{ texture: d, dims: [4] }] }\n",
	             "t.yaml:24:48: texture d: a texture element is at most 32 bits, and f64 is 8 bytes");
	expect_error(V2HEAD V2STAGE "    launches:\n      - { grid: 1, block: 1, args: [{ texture: w, dims: [1, 2, 3] }] }\n",
	             "t.yaml:24:57: texture w: dims takes [width] (1D, linear memory) or [width, height] (2D, pitched rows)");
	expect_error(V2HEAD V2STAGE "    launches:\n      - { grid: 1, block: 1, args: [{ texture: w, dims: [9], pitch: 9 }] }\n",
	             "t.yaml:24:69: texture w: a 1D texture is linear memory and has no pitch");
	expect_error(V2HEAD V2STAGE "    launches:\n      - { grid: 1, block: 1, args: [{ texture: w, dims: [9], filter: linear }] }\n",
	             "t.yaml:24:70: texture w: a 1D texture over linear memory is read with tex1Dfetch, which does not filter");
	expect_error(V2HEAD V2STAGE "    launches:\n      - { grid: 1, block: 1, args: [{ texture: w, dims: [3, 3], filter: cubic }] }\n",
	             "t.yaml:24:73: filter is one of point, linear, not 'cubic'");
	expect_error(V2HEAD V2STAGE "    launches:\n      - { grid: 1, block: 1, args: [{ texture: w, dims: [3, 3], address: wrap }] }\n",
	             "t.yaml:24:74: texture w: address wrap works only with normalized coordinates (normalized: true)");
	expect_error(V2HEAD V2STAGE "    launches:\n      - { grid: 1, block: 1, args: [{ texture: w, dims: [3, 3], address: mirror, normalized: 1.5 }] }\n",
	             "t.yaml:24:94: normalized must be true or false");
	expect_error(V2HEAD V2STAGE "    launches:\n      - { grid: 1, block: 1, args: [{ texture: w, dims: [3, 3], read: float }] }\n",
	             "t.yaml:24:71: read is one of element, normalized, not 'float'");
	expect_error(V2HEAD V2STAGE "    launches:\n      - { grid: 1, block: 1, args: [{ texture: w, dim: [3] }] }\n",
	             "t.yaml:24:51: unknown key 'dim' in a texture argument");
	/* a tensor map over host memory */
	expect_error(V2HEAD V2STAGE "    launches:\n      - { grid: 1, block: 1, args: [{ tensormap: hx, dims: [4], box: [4] }] }\n",
	             "t.yaml:24:50: tensormap hx: the buffer is in host memory; TMA reads device memory");
}

/* ---- pitched buffers: pitch: { rows, cols }, init: { copy }, { pitch: NAME } arguments ---- */

#define PBUF(p) PRE PARAM XBUF ZBUF p MODEL STAGE     /* p is line 9; the stage's lines are 11 to 17 */
#define PITCHED "  p: { type: f32, pitch: { rows: 4, cols: \"n / 4\" }, init: { copy: x } }\n"
#define PLAUNCH(args) "    launches:\n      - { grid: 1, block: 32, args: " args " }\n"   /* line 19 */

static void test_pitched(void **state)
{
	(void)state;
	char err[1024];
	lesson *l = load(PBUF(PITCHED) PLAUNCH("[p, { pitch: p }, z]"), err, sizeof err);
	if (!l) fail_msg("%s", err);
	const lesson_buffer *p = lesson_find_buffer(l, NULL, "p");
	assert_non_null(p);
	assert_non_null(p->pitch_rows.e);
	assert_non_null(p->pitch_cols.e);
	assert_null(p->count.e);
	assert_int_equal(p->init, INIT_COPY);
	assert_string_equal(p->copy_of, "x");
	const lesson_launch *L = &l->stages[0].launches[0];
	assert_int_equal(L->nargs, 3);
	assert_int_equal(L->args[0].kind, ARG_BUFFER);
	assert_int_equal(L->args[1].kind, ARG_PITCH);
	assert_string_equal(L->args[1].buffer, "p");
	lesson_free(l);
	/* a zeroed pitched buffer is allowed too */
	l = load(PBUF("  p: { type: f32, pitch: { rows: 2, cols: 3 } }\n") PLAUNCH("[p, { pitch: p }, z]"), err, sizeof err);
	if (!l) fail_msg("%s", err);
	lesson_free(l);

	/* the buffer itself */
	expect_error(PBUF("  p: { type: f32 }\n") LAUNCH, "t.yaml:9:6: buffer 'p' needs count (elements) or pitch: { rows, cols }");
	expect_error(PBUF("  p: { type: f32, count: 8, pitch: { rows: 2, cols: 4 } }\n") LAUNCH, "t.yaml:9:36: buffer 'p': a pitched buffer's count is rows x cols; leave count out");
	expect_error(PBUF("  p: { type: f32, pitch: { rows: 2 } }\n") LAUNCH, "t.yaml:9:26: pitch needs 'cols'");
	expect_error(PBUF("  p: { type: f32, pitch: { rows: 2, cols: 4, pad: 1 } }\n") LAUNCH, "t.yaml:9:46: unknown key 'pad' in pitch (expected one of: rows, cols)");
	expect_error(PBUF("  p: { type: f32, pitch: 4 }\n") LAUNCH, "t.yaml:9:26: pitch takes { rows: EXPR, cols: EXPR }");
	expect_error(PBUF("  p: { type: f32, pitch: { rows: 2, cols: 4 }, host: pinned }\n") LAUNCH, "t.yaml:9:26: pitch: 'p' is a host buffer; cudaMallocPitch allocates device memory");
	expect_error(PBUF("  p: { type: f32, pitch: { rows: 2, cols: 4 }, output: true }\n") LAUNCH, "t.yaml:9:26: pitch: 'p' is an output; outputs are packed (compare a packed buffer)");
	expect_error(PBUF("  p: { type: f32, pitch: { rows: 2, cols: 4 }, init: iota }\n") LAUNCH, "t.yaml:9:54: a pitched buffer is filled with init: { copy: BUFFER } (its rows from a packed buffer) or zero");
	expect_error(PBUF("  p: { type: f32, pitch: { rows: 2, cols: 4 }, init: { copy: nope } }\n") LAUNCH, "t.yaml:9:62: init: copy: 'nope' is not a buffer declared before 'p'");
	expect_error(PBUF("  p: { type: f32, pitch: { rows: 2, cols: 4 }, init: { copy: z } }\n") LAUNCH, "t.yaml:9:62: init: copy: 'z' is an output, poisoned before every run");
	expect_error(PBUF("  p: { type: i32, pitch: { rows: 2, cols: 4 }, init: { copy: x } }\n") LAUNCH, "t.yaml:9:62: init: copy: 'x' holds f32 and 'p' holds i32; the copy moves elements of one type");
	expect_error(PBUF("  p: { type: f32, pitch: { rows: 2, cols: 4 }, init: { copy: x, constant: 1 } }\n") LAUNCH, "t.yaml:9:65: unknown key 'constant' in init: { copy: BUFFER } (expected one of: copy)");
	/* a stage's scratch buffer cannot be pitched */
	expect_error(PBUF(PITCHED) "    buffers: { s: { type: f32, pitch: { rows: 2, cols: 2 } } }\n" LAUNCH, "t.yaml:18:39: pitch: stage buffer 's' is scratch space; a pitched buffer is the lesson's");
	/* where a packed buffer is needed */
	expect_error(PBUF(PITCHED) PLAUNCH("[x, { pitch: x }, z]"), "t.yaml:19:50: pitch: 'x' is packed (declare it with pitch: { rows, cols })");
	expect_error(PBUF(PITCHED) PLAUNCH("[x, { pitch: q }, z]"), "t.yaml:19:50: pitch: unknown buffer 'q'");
	expect_error(PBUF(PITCHED) PLAUNCH("[{ texture: p, dims: [4, 4] }, z]"), "t.yaml:19:49: texture p: the buffer is pitched; a texture here reads a packed buffer");
	expect_error(PBUF(PITCHED) PLAUNCH("[{ tensormap: p, dims: [4], box: [4] }, z]"), "t.yaml:19:51: tensormap p: the buffer is pitched; a tensor map here describes a packed tensor");
	expect_error(PBUF(PITCHED) "    launches:\n      - copy: { dst: z, src: p }\n", "t.yaml:19:15: copy p>z: p is pitched; a copy step moves packed elements (fill a pitched buffer with init: { copy: BUFFER })");
	expect_error(PBUF(PITCHED) "    launches:\n      - memset: { buffer: p }\n", "t.yaml:19:27: memset: p is pitched; a memset step sets a packed buffer");
	expect_error(PBUF(PITCHED) "    constants: [{ symbol: c, buffer: p }]\n" LAUNCH, "t.yaml:18:38: constant c: buffer p is pitched; fill a constant from a packed buffer");
	expect_error(PBUF(PITCHED) "    launches:\n      - library: memcpy\n        args: { dst: z, src: p, bytes: 8 }\n", "t.yaml:20:30: library memcpy: src: 'p' is pitched; a library takes packed buffers");
}

/* ---- another buffer's values (init: { copy } of a packed buffer) and a random cycle (init: cycle) ---- */

static void test_copy_and_cycle(void **state)
{
	(void)state;
	char err[1024];
	/* a packed copy, host or device: x's values */
	lesson *l = load(PBUF("  hx: { type: f32, count: n, host: pinned, init: { copy: x } }\n") LAUNCH, err, sizeof err);
	if (!l) fail_msg("%s", err);
	const lesson_buffer *b = lesson_find_buffer(l, NULL, "hx");
	assert_non_null(b);
	assert_int_equal(b->init, INIT_COPY);
	assert_string_equal(b->copy_of, "x");
	assert_null(b->pitch_rows.e);
	lesson_free(l);
	expect_error(PBUF("  p: { type: f32, count: n, init: { copy: nope } }\n") LAUNCH, "t.yaml:9:43: init: copy: 'nope' is not a buffer declared before 'p'");
	expect_error(PBUF("  p: { type: f32, count: n, init: { copy: p } }\n") LAUNCH, "t.yaml:9:43: init: copy: 'p' is not a buffer declared before 'p'");
	expect_error(PBUF("  p: { type: f32, count: n, init: { copy: z } }\n") LAUNCH, "t.yaml:9:43: init: copy: 'z' is an output, poisoned before every run");
	expect_error(PBUF("  p: { type: i32, count: n, init: { copy: x } }\n") LAUNCH, "t.yaml:9:43: init: copy: 'x' holds f32 and 'p' holds i32; the copy moves elements of one type");
	expect_error(PBUF("  p: { type: f32, count: n, init: { copy: x }, output: true }\n") LAUNCH, "t.yaml:9:35: an output buffer has no init");
	expect_error(PBUF(PITCHED "  q: { type: f32, count: n, init: { copy: p } }\n") LAUNCH, "t.yaml:10:43: init: copy: 'p' is pitched; the values come from a packed buffer");
	expect_error(PBUF("") "    buffers: { s: { type: f32, count: n, init: { copy: x } } }\n" LAUNCH,
	             "t.yaml:17:56: init: copy: stage buffer 's' is scratch space; copy fills the lesson's buffers only");

	/* a cycle: integer indices, a lesson buffer */
	l = load(PBUF("  nx: { type: u32, count: \"1 << 4\", init: cycle }\n") LAUNCH, err, sizeof err);
	if (!l) fail_msg("%s", err);
	b = lesson_find_buffer(l, NULL, "nx");
	assert_non_null(b);
	assert_int_equal(b->init, INIT_CYCLE);
	lesson_free(l);
	expect_error(PBUF("  nx: { type: f32, count: 16, init: cycle }\n") LAUNCH, "t.yaml:9:37: buffer 'nx': a cycle holds indices: i32, u32, i64 or u64, not f32");
	expect_error(PBUF("  nx: { type: u8, count: 16, init: cycle }\n") LAUNCH, "t.yaml:9:36: buffer 'nx': a cycle holds indices: i32, u32, i64 or u64, not u8");
	expect_error(PBUF("  nx: { type: u32, count: 16, init: cycles }\n") LAUNCH, "t.yaml:9:37: init must be iota, zero, cycle, csr_cols,");
	expect_error(PBUF("  nx: { type: u32, count: 16, init: cycle, output: true }\n") LAUNCH, "t.yaml:9:37: an output buffer has no init");
	expect_error(PBUF("  nx: { type: u32, pitch: { rows: 4, cols: 4 }, init: cycle }\n") LAUNCH,
	             "t.yaml:9:55: a pitched buffer is filled with init: { copy: BUFFER } (its rows from a packed buffer) or zero");
	expect_error(PBUF("") "    buffers: { s: { type: u32, count: 16, init: cycle } }\n" LAUNCH, "t.yaml:17:49: stage buffer 's': cycle fills the lesson's buffers only");
}

/* timing: a stage's own timing method (stage_timing.h): the default, each key, and file:line:col errors. */
static void test_stage_timing(void **state)
{
	(void)state;
	char err[1024], buf[128];
	lesson *l = load(HEAD STAGE LAUNCH, err, sizeof err);
	assert_non_null(l);
	assert_int_equal(l->stages[0].timing.set, 0);
	assert_int_equal(l->stages[0].timing.warmup, -1);
	assert_string_equal(stage_timing_text(&l->stages[0].timing, buf, sizeof buf), "");
	lesson_free(l);
	l = load(HEAD STAGE "    timing: { clock: host, sync: false }\n" LAUNCH, err, sizeof err);
	assert_non_null(l);
	const stage_timing *t = &l->stages[0].timing;
	assert_int_equal(t->set, 1);
	assert_int_equal(t->clock, TIMING_HOST);
	assert_int_equal(t->sync, 0);
	assert_int_equal(t->warmup, -1);
	assert_int_equal(t->runs, 0);
	assert_string_equal(stage_timing_text(t, buf, sizeof buf), "host clock, no sync");
	lesson_free(l);
	l = load(HEAD STAGE "    timing: { clock: events, warmup: 0, runs: 1 }\n" LAUNCH, err, sizeof err);
	assert_non_null(l);
	assert_string_equal(stage_timing_text(&l->stages[0].timing, buf, sizeof buf), "CUDA events, no warm-up, 1 run");
	lesson_free(l);
	l = load(HEAD STAGE "    timing: { l2: warm, stat: mean, warmup: 2, runs: 40 }\n" LAUNCH, err, sizeof err);
	assert_non_null(l);
	assert_int_equal(l->stages[0].timing.l2_warm, 1);
	assert_int_equal(l->stages[0].timing.stat, TIMING_MEAN);
	assert_string_equal(stage_timing_text(&l->stages[0].timing, buf, sizeof buf), "CUDA events, 2 warm-up runs, 40 runs, L2 warm, mean");
	lesson_free(l);
	l = load(HEAD STAGE "    timing: { clock: host, stat: first }\n" LAUNCH, err, sizeof err);
	assert_non_null(l);
	assert_string_equal(stage_timing_text(&l->stages[0].timing, buf, sizeof buf), "host clock, sync, first run");
	lesson_free(l);
	/* a text cut short stays a string */
	char tiny[8];
	stage_timing st = stage_timing_default();
	st.set = 1;
	st.clock = TIMING_HOST;
	assert_string_equal(stage_timing_text(&st, tiny, sizeof tiny), "host cl");

	expect_error(HEAD STAGE "    timing: { clock: hots }\n" LAUNCH, "t.yaml:17:22: timing's clock is events or host, not 'hots'");
	expect_error(HEAD STAGE "    timing: { clock: events, sync: false }\n" LAUNCH,
	             "t.yaml:17:36: timing's sync goes with clock: host");
	expect_error(HEAD STAGE "    timing: { clock: host, sync: maybe }\n" LAUNCH, "t.yaml:17:34: timing's sync must be");
	expect_error(HEAD STAGE "    timing: { runs: 0 }\n" LAUNCH, "t.yaml:17:21: timing's runs must be from 1 to 10000, not '0'");
	expect_error(HEAD STAGE "    timing: { warmup: -1 }\n" LAUNCH, "t.yaml:17:23: timing's warmup must be from 0 to 1000, not '-1'");
	expect_error(HEAD STAGE "    timing: { runs: 2.5 }\n" LAUNCH, "t.yaml:17:21: timing's runs must be a whole number");
	expect_error(HEAD STAGE "    timing: { l2: cold }\n" LAUNCH, "t.yaml:17:19: timing's l2 is flush or warm, not 'cold'");
	expect_error(HEAD STAGE "    timing: { stat: min }\n" LAUNCH, "t.yaml:17:21: timing's stat is median, first or mean, not 'min'");
	expect_error(HEAD STAGE "    timing: { clcok: host }\n" LAUNCH,
	             "t.yaml:17:15: unknown key 'clcok' in timing (expected one of: clock, sync, warmup, runs, l2, stat)");
	expect_error(HEAD STAGE "    timing: host\n" LAUNCH, "t.yaml:17:13: timing must be a mapping { clock: events | host");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_full_lesson),      cmocka_unit_test(test_exact_and_defaults),
		cmocka_unit_test(test_yaml_syntax),      cmocka_unit_test(test_unknown_keys),
		cmocka_unit_test(test_missing_keys),     cmocka_unit_test(test_bad_expressions),
		cmocka_unit_test(test_tunable_errors),
		cmocka_unit_test(test_tunable_default_expr),   cmocka_unit_test(test_range_edges),
		cmocka_unit_test(test_argument_errors),  cmocka_unit_test(test_tensormap_args),
		cmocka_unit_test(test_structure_errors), cmocka_unit_test(test_name_lengths), cmocka_unit_test(test_wrong_node_kinds),
		cmocka_unit_test(test_kernel_files),     cmocka_unit_test(test_exercise),
		cmocka_unit_test(test_lesson_set),       cmocka_unit_test(test_v2_forms),
		cmocka_unit_test(test_v2_errors),        cmocka_unit_test(test_events),        cmocka_unit_test(test_pitched), cmocka_unit_test(test_copy_and_cycle), cmocka_unit_test(test_stage_timing),
		cmocka_unit_test(test_named_baselines),
		cmocka_unit_test(test_shipped_lessons),
	};
	return cmocka_run_group_tests(tests, setup_tree, teardown_tree);
}
