/* Tests for src/lesson/plan.c: a stage (or the baseline) of a lesson loaded from a buffer made concrete for
 * given settings and device: defaults, --set overrides, every refusal with its message, launches,
 * arguments, defines, the model; and the shipped bandwidth lesson at its defaults. Run from the
 * repository root. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda.h>   /* CUtensorMapDataType */

#include "lesson.h"
#include "plan.h"

/* ---- the lesson (line numbers matter for messages) ---- */

static const char text[] =
	"lesson: p\n"                                                               /* 1 */
	"title: P\n"                                                                /* 2 */
	"summary: s\n"                                                              /* 3 */
	"params:\n"                                                                 /* 4 */
	"  n: { default: \"1 << 12\", min: 1, max: \"1 << 20\" }\n"                 /* 5 */
	"  a: { type: f32, default: 1.5 }\n"                                        /* 6 */
	"  rows: { default: 4, min: 1, max: 64 }\n"                                 /* 7 */
	"  off: { default: 0 }\n"                                                   /* 8 */
	"derived:\n"                                                                /* 9 */
	"  half: \"n / 2\"\n"                                                       /* 10 */
	"  zero: n - n\n"                                                           /* 11 */
	"  big: 1 << 40\n"                                                          /* 12 */
	"buffers:\n"                                                                /* 13 */
	"  x: { type: f32, count: n, init: { random: [-1, 1] } }\n"                 /* 14 */
	"  idx: { type: i32, count: half, init: iota }\n"                           /* 15 */
	"  z: { type: f64, count: n, output: true }\n"                              /* 16 */
	"model:\n"                                                                  /* 17 */
	"  bytes: \"4 * n + 8 * n\"\n"                                              /* 18 */
	"  flops: 2 * n\n"                                                          /* 19 */
	"check: { reference: main, compare: [z], tolerance: exact }\n"              /* 20 */
	"baseline:\n"                                                               /* 21 */
	"  title: copy\n"                                                           /* 22 */
	"  library: memcpy\n"                                                       /* 23 */
	"  args: { dst: z, src: x, bytes: \"4 * n\" }\n"                            /* 24 */
	"stages:\n"                                                                 /* 25 */
	"  - id: main\n"                                                            /* 26 */
	"    title: Main\n"                                                         /* 27 */
	"    kernel: k.cu\n"                                                        /* 28 */
	"    entry: k\n"                                                            /* 29 */
	"    tunables:\n"                                                           /* 30 */
	"      BLOCK: { values: [32, 64, 128, 256, 512, 1024, 2048], default: 256 }\n" /* 31 */
	"      VEC: { range: [1, 8], pow2: true, default: 2 }\n"                    /* 32 */
	"      WIDE: { range: [1, 40], default: 1 }\n"                              /* 33 */
	"    constraints:\n"                                                        /* 34 */
	"      - { expr: \"BLOCK <= 512 || VEC == 1\", message: \"a block over 512 threads needs VEC = 1\" }\n" /* 35 */
	"      - { expr: \"n % VEC == 0\", message: \"n must be a multiple of VEC\" }\n" /* 36 */
	"    buffers:\n"                                                            /* 37 */
	"      partial: { type: f32, count: \"ceil_div(n, BLOCK)\" }\n"             /* 38 */
	"    launches:\n"                                                           /* 39 */
	"      - memset: { buffer: partial, value: 7 }\n"                           /* 40 */
	"      - grid: [\"ceil_div(n, BLOCK * VEC)\", rows, 1]\n"                   /* 41 */
	"        block: BLOCK\n"                                                    /* 42 */
	"        shared: \"BLOCK * 4 * WIDE\"\n"                                    /* 43 */
	"        args: [x, z, partial, \"f32(a)\", \"i64(n)\", \"i32(n * rows * 512)\", \"u32(half + off)\", \"f64(a * 2)\", \"u64(sm_count)\"]\n" /* 44 */
	"      - { grid: 1, block: [32, 2, 2], entry: finish, args: [partial] }\n"  /* 45 */
	"    explain: e\n"                                                          /* 46 */
	"    bottleneck: b\n"                                                       /* 47 */
	"  - id: divzero\n"                                                         /* 48 */
	"    title: D\n"                                                            /* 49 */
	"    kernel: k.cu\n"                                                        /* 50 */
	"    entry: k\n"                                                            /* 51 */
	"    launches:\n"                                                           /* 52 */
	"      - { grid: \"n / zero\", block: 32 }\n"                               /* 53 */
	"    explain: e\n"                                                          /* 54 */
	"    bottleneck: b\n"                                                       /* 55 */
	"  - id: huge\n"                                                            /* 56 */
	"    title: H\n"                                                            /* 57 */
	"    kernel: k.cu\n"                                                        /* 58 */
	"    entry: k\n"                                                            /* 59 */
	"    launches:\n"                                                           /* 60 */
	"      - { grid: 1, block: [big, big, big] }\n"                             /* 61 */
	"      - { grid: [1, 70000], block: 1 }\n"                                  /* 62 */
	"    explain: e\n"                                                          /* 63 */
	"    bottleneck: b\n";                                                      /* 64 */

static const plan_device dev48k = { .sm_count = 132, .warp_size = 32, .max_threads_per_block = 1024, .cc = 90,
                                     .l2_bytes = 50 << 20, .max_shared_per_block = 48 * 1024 };

static lesson *L;

static int setup(void **state)
{
	(void)state;
	char err[512];
	L = lesson_load_buffer("p.yaml", text, strlen(text), NULL, err, sizeof err);
	if (!L) fprintf(stderr, "%s\n", err);
	return L ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	lesson_free(L);
	return 0;
}

/* ---- helpers ---- */

/* Builds settings from "NAME=VALUE" strings (NULL-terminated); returns how many. */
static int settings(plan_setting *s, const char *const *texts)
{
	int n = 0;
	char err[256];
	for (; texts && texts[n]; n++) assert_int_equal(plan_setting_parse(texts[n], &s[n], err, sizeof err), 0);
	return n;
}

/* plan_make must succeed; the plan is left in *p. */
static void make_ok_at(plan *p, int stage, const char *const *texts, const plan_device *dev, const char *file, int line)
{
	plan_setting s[32];
	int n = settings(s, texts);
	char err[512] = "";
	if (plan_make(p, L, stage, s, n, dev, err, sizeof err) != 0) fail_msg("%s:%d: plan_make failed: %s", file, line, err);
}
#define make_ok(p, stage, texts) make_ok_at((p), (stage), (texts), &dev48k, __FILE__, __LINE__)

/* plan_make must fail with exactly msg. */
static void make_err_at(int stage, const char *const *texts, const char *msg, const char *file, int line)
{
	plan_setting s[32];
	int n = settings(s, texts);
	char err[512] = "";
	plan p;
	int r = plan_make(&p, L, stage, s, n, &dev48k, err, sizeof err);
	plan_free(&p);
	if (r == 0) fail_msg("%s:%d: plan_make succeeded, expected \"%s\"", file, line, msg);
	if (strcmp(err, msg)) fail_msg("%s:%d: got \"%s\"\n  expected \"%s\"", file, line, err, msg);
}
#define make_err(stage, texts, msg) make_err_at((stage), (texts), (msg), __FILE__, __LINE__)
#define SETS(...) ((const char *const[]){ __VA_ARGS__, NULL })

static int64_t var_i(const plan *p, const char *name)
{
	const expr_value *v = plan_var_get(p, name);
	if (!v) fail_msg("no variable %s", name);
	assert_int_equal(v->kind, EXPR_INT);
	return v->i;
}

/* ---- tests ---- */

static void test_defaults(void **state)
{
	(void)state;
	plan p;
	make_ok(&p, 0, NULL);
	assert_ptr_equal(p.l, L);
	assert_int_equal(p.stage, 0);
	/* what expressions saw: device, params, derived, tunables */
	assert_int_equal(var_i(&p, "sm_count"), 132);
	assert_int_equal(var_i(&p, "max_shared_per_block"), 48 * 1024);
	assert_int_equal(var_i(&p, "cc"), 90);
	assert_int_equal(var_i(&p, "n"), 4096);
	assert_int_equal(var_i(&p, "rows"), 4);
	const expr_value *a = plan_var_get(&p, "a");
	assert_non_null(a);
	assert_int_equal(a->kind, EXPR_FLOAT);
	assert_true(a->f == 1.5);
	assert_int_equal(var_i(&p, "half"), 2048);
	assert_int_equal(var_i(&p, "zero"), 0);
	assert_int_equal(var_i(&p, "BLOCK"), 256);
	assert_int_equal(var_i(&p, "VEC"), 2);
	assert_null(plan_var_get(&p, "nothing"));

	/* -DNAME=VALUE in declaration order */
	assert_int_equal(p.ndefines, 3);
	assert_string_equal(p.defines[0], "-DBLOCK=256");
	assert_string_equal(p.defines[1], "-DVEC=2");
	assert_string_equal(p.defines[2], "-DWIDE=1");

	/* buffers: the lesson's, then the stage's scratch (zeroed) */
	assert_int_equal(p.nbuffers, 4);
	assert_string_equal(p.buffers[0].name, "x");
	assert_int_equal(p.buffers[0].count, 4096);
	assert_int_equal(p.buffers[0].init, INIT_RANDOM);
	assert_true(p.buffers[0].a == -1 && p.buffers[0].b == 1);
	assert_string_equal(p.buffers[1].name, "idx");
	assert_int_equal(p.buffers[1].count, 2048);
	assert_int_equal(p.buffers[1].type, DT_I32);
	assert_string_equal(p.buffers[2].name, "z");
	assert_true(p.buffers[2].output);
	assert_false(p.buffers[2].scratch);
	assert_string_equal(p.buffers[3].name, "partial");
	assert_int_equal(p.buffers[3].count, 16);   /* ceil_div(4096, 256) */
	assert_true(p.buffers[3].scratch);
	assert_int_equal(p.buffers[3].init, INIT_ZERO);
	assert_int_equal(p.working_set, 4096 * 4 + 2048 * 4 + 4096 * 8 + 16 * 4);

	/* launches */
	assert_int_equal(p.nlaunches, 3);
	const plan_launch *m = &p.launches[0];
	assert_int_equal(m->kind, STEP_MEMSET);
	assert_string_equal(m->buffer, "partial");
	assert_int_equal(m->value, 7);
	const plan_launch *k = &p.launches[1];
	assert_int_equal(k->kind, STEP_LAUNCH);
	assert_string_equal(k->entry, "k");
	assert_int_equal(k->grid[0], 8);   /* ceil_div(4096, 256 * 2) */
	assert_int_equal(k->grid[1], 4);
	assert_int_equal(k->grid[2], 1);
	assert_int_equal(k->block[0], 256);
	assert_int_equal(k->block[1], 1);
	assert_int_equal(k->block[2], 1);
	assert_int_equal(k->shared, 1024);
	assert_int_equal(k->nargs, 9);
	assert_int_equal(k->args[0].kind, ARG_BUFFER);
	assert_string_equal(k->args[0].buffer, "x");
	assert_string_equal(k->args[2].buffer, "partial");
	assert_true(k->args[3].kind != ARG_BUFFER);
	assert_int_equal(k->args[3].type, AT_F32);
	assert_true(k->args[3].v.f32 == 1.5f);
	assert_int_equal(k->args[4].type, AT_I64);
	assert_int_equal(k->args[4].v.i64, 4096);
	assert_int_equal(k->args[5].type, AT_I32);
	assert_int_equal(k->args[5].v.i32, 4096 * 4 * 512);
	assert_int_equal(k->args[6].type, AT_U32);
	assert_int_equal(k->args[6].v.u32, 2048);
	assert_int_equal(k->args[7].type, AT_F64);
	assert_true(k->args[7].v.f64 == 3.0);
	assert_int_equal(k->args[8].type, AT_U64);
	assert_true(k->args[8].v.u64 == 132);
	const plan_launch *f = &p.launches[2];
	assert_string_equal(f->entry, "finish");
	assert_int_equal(f->grid[0], 1);
	assert_int_equal(f->block[0] * f->block[1] * f->block[2], 128);
	assert_int_equal(f->shared, 0);

	/* the model */
	assert_true(p.bytes == 12 * 4096.0);
	assert_true(p.flops == 2 * 4096.0);
	plan_free(&p);
	assert_int_equal(p.nlaunches, 0);
	assert_null(p.vars);
}

static void test_overrides(void **state)
{
	(void)state;
	plan p;
	/* values are expressions, and a param may use the params before it */
	make_ok(&p, 0, SETS("n=1 << 10", "rows=n / 256", "BLOCK=2 * 32", "VEC=ceil_div(7, 2)", "a=0.25"));
	assert_int_equal(var_i(&p, "n"), 1024);
	assert_int_equal(var_i(&p, "rows"), 4);
	assert_int_equal(var_i(&p, "half"), 512);   /* derived values follow */
	assert_int_equal(var_i(&p, "BLOCK"), 64);
	assert_int_equal(var_i(&p, "VEC"), 4);
	assert_true(plan_var_get(&p, "a")->f == 0.25);
	assert_string_equal(p.defines[0], "-DBLOCK=64");
	assert_string_equal(p.defines[1], "-DVEC=4");
	assert_int_equal(p.launches[1].grid[0], 4);   /* ceil_div(1024, 256) */
	assert_int_equal(p.launches[1].block[0], 64);
	assert_int_equal(p.launches[1].shared, 256);
	assert_true(p.launches[1].args[3].v.f32 == 0.25f);
	assert_int_equal(p.buffers[3].count, 16);   /* ceil_div(1024, 64) */
	assert_true(p.bytes == 12 * 1024.0);
	plan_free(&p);

	/* a float param takes an integer; an integer param takes a whole float */
	make_ok(&p, 0, SETS("a=3", "n=2048.0"));
	assert_int_equal(plan_var_get(&p, "a")->kind, EXPR_FLOAT);
	assert_true(plan_var_get(&p, "a")->f == 3.0);
	assert_int_equal(var_i(&p, "n"), 2048);
	plan_free(&p);

	/* a grid just at its limit, and a non-round count */
	make_ok(&p, 0, SETS("n=1000", "BLOCK=32", "VEC=1"));
	assert_int_equal(p.launches[1].grid[0], 32);   /* ceil_div(1000, 32) */
	assert_int_equal(p.buffers[3].count, 32);
	plan_free(&p);
}

static void test_refusals(void **state)
{
	(void)state;
	make_err(0, SETS("BLOCK=100"), "BLOCK = 100 is not allowed for stage main (allowed: 32, 64, 128, 256, 512, 1024, 2048)");
	make_err(0, SETS("VEC=3"), "VEC = 3 is not allowed for stage main (allowed: 1, 2, 4, 8)");
	make_err(0, SETS("WIDE=41"),
	         "WIDE = 41 is not allowed for stage main (allowed: 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, ... 40)");
	make_err(0, SETS("n=0"), "n = 0 is outside its range [1, 1048576]");
	make_err(0, SETS("n=1 << 21"), "n = 2097152 is outside its range [1, 1048576]");
	make_err(0, SETS("rows=65"), "rows = 65 is outside its range [1, 64]");
	make_err(0, SETS("n=2.5"), "n takes whole numbers, not 2.5");
	make_err(0, SETS("BLOCK=32.5"), "BLOCK takes whole numbers, not 32.5");   /* not truncated to 32 */
	make_err(0, SETS("VEC=7 / 2.0"), "VEC takes whole numbers, not 3.5");
	make_err(0, SETS("n=1 +"), "n=1 +: expected a value, found the end of the expression");
	make_err(0, SETS("n=m"), "n=m: unknown name 'm'");
	make_err(0, SETS("TILE=4"), "unknown setting 'TILE' for p/main (known: BLOCK, VEC, WIDE, n, a, rows, off)");
	make_err(1, SETS("BLOCK=32"), "unknown setting 'BLOCK' for p/divzero (known: n, a, rows, off)");
	make_err(-1, SETS("VEC=1"), "unknown setting 'VEC' for p/baseline (known: n, a, rows, off)");
	/* the lesson's constraint message, as written */
	make_err(0, SETS("BLOCK=1024"), "a block over 512 threads needs VEC = 1");
	make_err(0, SETS("n=1001", "BLOCK=32"), "n must be a multiple of VEC");
	/* the engine's own limits */
	make_err(0, SETS("BLOCK=2048", "VEC=1"), "a block of 2048 threads is over this GPU's limit of 1024");
	make_err(0, SETS("BLOCK=512", "WIDE=40"),
	         "81920 bytes of dynamic shared memory is over the 49152 bytes a block may have on this GPU");
	/* arguments converted to exactly their C type */
	make_err(0, SETS("n=1 << 20", "rows=8"), "p.yaml:44:56: 'n * rows * 512' = 4294967296 does not fit in i32");
	make_err(0, SETS("off=-2049"), "p.yaml:44:79: 'half + off' = -1 does not fit in u32");
	make_err(0, SETS("off=1 << 32"), "p.yaml:44:79: 'half + off' = 4294969344 does not fit in u32");
	/* an evaluation error names the expression and the column of the operator */
	make_err(1, NULL, "p.yaml:53:20: in 'n / zero': division by zero");
	/* block dimensions whose product overflows int64 are refused, not multiplied into garbage */
	make_err(2, NULL, "a block of 9223372036854775807 threads is over this GPU's limit of 1024");
	/* no such stage, no baseline */
	make_err(3, NULL, "lesson p has no such stage");
	make_err(-2, NULL, "lesson p has no such baseline");   /* -2: the first of baselines:, which p has not */
	/* more settings than the engine takes */
	make_err(0, SETS("n=1", "n=1", "n=1", "n=1", "n=1", "n=1", "n=1", "n=1", "n=1", "n=1", "n=1", "n=1", "n=1", "n=1", "n=1",
	                 "n=1", "n=1"),
	         "at most 16 settings");
}

/* Byte counts: a buffer's bytes past 2^63 are refused (not wrapped), and with the GPU's memory known a
 * buffer or the buffers together larger than it are refused before anything is sent; a lesson's own
 * default outside its range is an error in its file. */
static const char bytes_text[] =
	"lesson: b\n"                                                               /* 1 */
	"title: B\n"                                                                /* 2 */
	"summary: s\n"                                                              /* 3 */
	"params:\n"                                                                 /* 4 */
	"  m: { default: 4, min: 1, max: \"1 << 62\" }\n"                           /* 5 */
	"  k: { default: 4, min: 1, max: \"1 << 62\" }\n"                           /* 6 */
	"  bad: { default: 0, min: 1 }\n"                                           /* 7 */
	"buffers:\n"                                                                /* 8 */
	"  w: { type: f32, count: m }\n"                                            /* 9 */
	"  v: { type: f64, count: k, output: true }\n"                              /* 10 */
	"  h: { type: u8, count: m, host: pinned }\n"                               /* 11 */
	"model: { bytes: 4 * m }\n"                                                 /* 12 */
	"stages:\n"                                                                 /* 13 */
	"  - { id: s, title: S, kernel: k.cu, entry: k, explain: e, bottleneck: b,\n" /* 14 */
	"      launches: [{ grid: 1, block: 32, args: [w, v] }] }\n";               /* 15 */

static void bytes_err(const lesson *l, const plan_device *d, const char *const *texts, const char *msg)
{
	plan_setting s[8];
	int n = settings(s, texts);
	char err[512] = "";
	plan p;
	int r = plan_make(&p, l, 0, s, n, d, err, sizeof err);
	plan_free(&p);
	if (r == 0) fail_msg("plan_make succeeded, expected \"%s\"", msg);
	if (strcmp(err, msg)) fail_msg("got \"%s\"\n  expected \"%s\"", err, msg);
}

static void test_byte_counts(void **state)
{
	(void)state;
	char err[512];
	lesson *l = lesson_load_buffer("b.yaml", bytes_text, strlen(bytes_text), NULL, err, sizeof err);
	if (!l) fail_msg("%s", err);
	plan_device gpu = dev48k, nomem = dev48k;
	gpu.global_mem = 80LL << 30;
	nomem.global_mem = 0;
	bytes_err(l, &nomem, NULL, "b.yaml:7:3: the default bad = 0 is outside its range [1, -]");
	bytes_err(l, &nomem, SETS("bad=1", "m=1 << 62"), "b.yaml:9:3: buffer w: 4611686018427387904 elements of f32 (count: m) are more than 2^63 bytes");
	bytes_err(l, &nomem, SETS("bad=1", "m=(1 << 61) + 1"), "b.yaml:9:3: buffer w: 2305843009213693953 elements of f32 (count: m) are more than 2^63 bytes");
	bytes_err(l, &nomem, SETS("bad=1", "m=(1 << 61) - 1", "k=1 << 59"), "b.yaml:10:3: the buffers up to v are more than 2^63 bytes");
	bytes_err(l, &gpu, SETS("bad=1", "m=1 << 40"), "b.yaml:9:3: buffer w needs 4 TiB (1099511627776 elements of f32, count: m), the GPU has 80 GiB");
	bytes_err(l, &gpu, SETS("bad=1", "m=10 << 30", "k=6 << 30"), "b.yaml:10:3: the buffers up to v need 88 GiB of GPU memory in all, the GPU has 80 GiB");
	/* a host buffer is not counted against the GPU's memory; unknown memory: nothing is checked */
	plan p;
	plan_setting s[4];
	int n = settings(s, SETS("bad=1", "m=10 << 30", "k=1"));
	assert_int_equal(plan_make(&p, l, 0, s, n, &gpu, err, sizeof err), 0);
	assert_int_equal(p.working_set, (10LL << 30) * 5 + 8);
	plan_free(&p);
	n = settings(s, SETS("bad=1", "m=1 << 40", "k=1"));
	assert_int_equal(plan_make(&p, l, 0, s, n, &nomem, err, sizeof err), 0);
	plan_free(&p);
	lesson_free(l);
}

static void test_grid_limits(void **state)
{
	(void)state;
	/* grid y above 65535 */
	static const char t2[] =
		"lesson: g\ntitle: G\nsummary: s\nbuffers:\n  z: { type: f32, count: 4, output: true }\nmodel: { bytes: 4 }\n"
		"stages:\n  - id: s\n    title: S\n    kernel: k.cu\n    entry: k\n    explain: e\n    bottleneck: b\n"
		"    launches:\n      - { grid: [1, 70000], block: 1 }\n";   /* line 15 */
	char err[512];
	lesson *l = lesson_load_buffer("g.yaml", t2, strlen(t2), NULL, err, sizeof err);
	if (!l) fail_msg("%s", err);
	plan p;
	assert_int_equal(plan_make(&p, l, 0, NULL, 0, &dev48k, err, sizeof err), -1);
	assert_string_equal(err, "g.yaml:15:9: launch of k has grid 1x70000x1 and block 1x1x1: each must be at least 1 and the grid "
	                         "at most 65535 in that dimension");
	plan_free(&p);
	assert_int_equal(plan_make(&p, l, -1, NULL, 0, &dev48k, err, sizeof err), -1);
	assert_string_equal(err, "lesson g has no baseline");
	plan_free(&p);
	lesson_free(l);
}

/* pdl: true: kept on a launch that follows a launch of the stage on its stream; refused, at the
 * step, where nothing of the stage's runs just before it on that stream (the first step, after a
 * memset, after a launch on another stream). */
static void test_pdl(void **state)
{
	(void)state;
	static const char head[] =
		"lesson: g\ntitle: G\nsummary: s\nbuffers:\n  z: { type: f32, count: 4, output: true }\nmodel: { bytes: 4 }\n"
		"stages:\n  - id: s\n    title: S\n    kernel: k.cu\n    entry: k\n    explain: e\n    bottleneck: b\n"
		"    launches:\n";   /* the steps from line 15 */
	static const struct { const char *steps, *err; } cases[] = {
		{ "      - { grid: 1, block: 32 }\n      - { grid: 2, block: 32, pdl: true }\n", NULL },
		{ "      - { grid: 1, block: 32, stream: 1 }\n      - { grid: 2, block: 32, stream: 1, pdl: true }\n", NULL },
		{ "      - { grid: 1, block: 32, pdl: true }\n", "g.yaml:15:9: launch of k: pdl: true needs a kernel launch of this stage just before it on its stream, to overlap with" },
		{ "      - { grid: 1, block: 32 }\n      - memset: { buffer: z, value: 0 }\n      - { grid: 2, block: 32, pdl: true }\n",
		  "g.yaml:17:9: launch of k: pdl: true needs a kernel launch of this stage just before it on its stream, to overlap with" },
		{ "      - { grid: 1, block: 32, stream: 1 }\n      - { grid: 2, block: 32, pdl: true }\n",
		  "g.yaml:16:9: launch of k: pdl: true needs a kernel launch of this stage just before it on its stream, to overlap with" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		char t[1024], err[512];
		snprintf(t, sizeof t, "%s%s", head, cases[i].steps);
		lesson *l = lesson_load_buffer("g.yaml", t, strlen(t), NULL, err, sizeof err);
		if (!l) fail_msg("case %zu: %s", i, err);
		plan p;
		int r = plan_make(&p, l, 0, NULL, 0, &dev48k, err, sizeof err);
		if (cases[i].err) {
			assert_int_equal(r, -1);
			assert_string_equal(err, cases[i].err);
		} else {
			if (r) fail_msg("case %zu: %s", i, err);
			assert_int_equal(p.launches[p.nlaunches - 1].pdl, 1);
			assert_int_equal(p.launches[0].pdl, 0);
		}
		plan_free(&p);
		lesson_free(l);
	}
	/* not a boolean */
	char t[1024], err[512];
	snprintf(t, sizeof t, "%s      - { grid: 1, block: 32 }\n      - { grid: 2, block: 32, pdl: soon }\n", head);
	assert_null(lesson_load_buffer("g.yaml", t, strlen(t), NULL, err, sizeof err));
	if (!strstr(err, "g.yaml:16:")) fail_msg("%s", err);
}

/* Tensor map arguments: evaluated into what cuTensorMapEncodeTiled takes, and every size TMA cannot
 * describe refused with a message that names the map's buffer. */
static const char tm_text[] =
	"lesson: tm\ntitle: T\nsummary: s\n"
	"params:\n"
	"  rows: { default: 1000, min: 1 }\n"
	"  cols: { default: 776, min: 1 }\n"
	"  over: { default: 0 }\n"
	"  bx: { default: 64 }\n"
	"  by: { default: 32 }\n"
	"  fc: { default: 776 }\n"
	"buffers:\n"
	"  H: { type: bf16, count: rows * cols, init: iota }\n"
	"  F: { type: f32, count: rows * cols, output: true }\n"
	"model: { bytes: 6 * rows * cols }\n"
	"stages:\n"
	"  - id: copy\n    title: C\n    kernel: k.cu\n    entry: k\n    explain: e\n    bottleneck: b\n"
	"    launches:\n"
	"      - grid: 1\n"
	"        block: 32\n"
	"        args: [{ tensormap: H, dims: [cols, rows + over], box: [bx, by], swizzle: 128 }, F,\n"
	"               { tensormap: F, dims: [fc, rows], box: [32, 8] }]\n"
	"  - id: types\n    title: T\n    kernel: k.cu\n    entry: k\n    explain: e\n    bottleneck: b\n"
	"    buffers:\n"
	"      a: { type: f32, count: 16 }\n      b: { type: f64, count: 16 }\n      c: { type: f16, count: 16 }\n"
	"      d: { type: bf16, count: 16 }\n      e: { type: i32, count: 16 }\n      f: { type: u32, count: 16 }\n"
	"      g: { type: i64, count: 16 }\n      h: { type: u64, count: 16 }\n      i: { type: i8, count: 16 }\n"
	"      j: { type: u8, count: 16 }\n"
	"    launches:\n"
	"      - grid: 1\n"
	"        block: 32\n"
	"        args:\n"
	"          - { tensormap: a, dims: [16], box: [16], swizzle: 64 }\n"
	"          - { tensormap: b, dims: [16], box: [16] }\n          - { tensormap: c, dims: [16], box: [16] }\n"
	"          - { tensormap: d, dims: [16], box: [16] }\n          - { tensormap: e, dims: [16], box: [16] }\n"
	"          - { tensormap: f, dims: [16], box: [16] }\n          - { tensormap: g, dims: [16], box: [16] }\n"
	"          - { tensormap: h, dims: [16], box: [16] }\n          - { tensormap: i, dims: [16], box: [16] }\n"
	"          - { tensormap: j, dims: [16], box: [16] }\n"
	"  - id: deep\n    title: D\n    kernel: k.cu\n    entry: k\n    explain: e\n    bottleneck: b\n"
	"    buffers: { G: { type: f32, count: \"1 << 41\" } }\n"
	"    launches:\n"
	"      - { grid: 1, block: 32, args: [{ tensormap: G, dims: [4, 8, 2, 3, rows], box: [4, 1, 2, 1, 1] }] }\n"
	"  - id: far\n    title: F\n    kernel: k.cu\n    entry: k\n    explain: e\n    bottleneck: b\n"
	"    buffers: { G: { type: f32, count: \"1 << 41\" } }\n"
	"    launches:\n"
	"      - { grid: 1, block: 32, args: [{ tensormap: G, dims: [\"1 << 31\", cols, 2], box: [4, 1, 1] }] }\n"
	"  - id: five\n    title: F\n    kernel: k.cu\n    entry: k\n    explain: e\n    bottleneck: b\n"
	"    launches:\n"
	"      - { grid: 1, block: 32, args: [{ tensormap: H, dims: [cols, cols, cols, cols, cols], box: [8, 1, 1, 1, 1] }] }\n";

static void tm_err_at(lesson *l, int stage, const char *const *texts, const char *msg, const char *file, int line)
{
	plan_setting s[8];
	int n = settings(s, texts);
	char err[512] = "";
	plan p;
	int r = plan_make(&p, l, stage, s, n, &dev48k, err, sizeof err);
	plan_free(&p);
	if (r == 0) fail_msg("%s:%d: plan_make succeeded, expected \"%s\"", file, line, msg);
	if (strcmp(err, msg)) fail_msg("%s:%d: got \"%s\"\n  expected \"%s\"", file, line, err, msg);
}
#define tm_err(l, stage, texts, msg) tm_err_at((l), (stage), (texts), (msg), __FILE__, __LINE__)

static void tm_ok_at(plan *p, lesson *l, int stage, const char *const *texts, const char *file, int line)
{
	plan_setting s[8];
	int n = settings(s, texts);
	char err[512] = "";
	if (plan_make(p, l, stage, s, n, &dev48k, err, sizeof err) != 0) fail_msg("%s:%d: plan_make failed: %s", file, line, err);
}
#define tm_ok(p, l, stage, texts) tm_ok_at((p), (l), (stage), (texts), __FILE__, __LINE__)

/* occ_block and occ_min_grid: what the worker's occupancy API call answered, else the device's
 * largest block and one block per SM; uses_occ says whether an expression read them; a lesson may
 * name them only in a stage's expressions. */
static const char occ_text[] =
	"lesson: o\ntitle: O\nsummary: s\n"
	"params:\n  n: { default: 10000 }\n"
	"buffers:\n  y: { type: f32, count: n, output: true }\n"
	"model: { bytes: 4 * n }\n"
	"check: { reference: fixed, compare: [y], tolerance: exact }\n"
	"stages:\n"
	"  - { id: fixed, title: F, kernel: k.cu, entry: k, explain: e, bottleneck: b,\n"
	"      launches: [ { grid: \"ceil_div(n, 256)\", block: 256, args: [y] } ] }\n"
	"  - { id: api, title: A, kernel: k.cu, entry: k, explain: e, bottleneck: b,\n"
	"      launches: [ { grid: \"occ_min_grid * 11 / 10\", block: occ_block, args: [y, \"i64(ceil_div(n, occ_block))\"] } ] }\n";

static void test_occupancy_values(void **state)
{
	(void)state;
	char err[512];
	lesson *l = lesson_load_buffer("o.yaml", occ_text, strlen(occ_text), NULL, err, sizeof err);
	if (!l) fail_msg("%s", err);
	plan p;
	assert_int_equal(plan_make(&p, l, 0, NULL, 0, &dev48k, err, sizeof err), 0);
	assert_false(p.uses_occ);
	assert_int_equal(p.launches[0].block[0], 256);
	plan_free(&p);
	/* Not known (no GPU, or before the kernel is loaded): the fallbacks. */
	assert_int_equal(plan_make(&p, l, 1, NULL, 0, &dev48k, err, sizeof err), 0);
	assert_true(p.uses_occ);
	assert_int_equal(p.launches[0].block[0], 1024);
	assert_int_equal(p.launches[0].grid[0], 132 * 11 / 10);
	assert_int_equal(p.launches[0].args[1].v.i64, 10);
	assert_ptr_equal(plan_main_launch(&p), &p.launches[0]);
	plan_free(&p);
	/* What the worker fills in from cudaOccupancyMaxPotentialBlockSize. */
	plan_device d = dev48k;
	d.occ_block = 768;
	d.occ_min_grid = 264;
	assert_int_equal(plan_make(&p, l, 1, NULL, 0, &d, err, sizeof err), 0);
	assert_int_equal(p.launches[0].block[0], 768);
	assert_int_equal(p.launches[0].grid[0], 290);
	assert_int_equal(p.launches[0].args[1].v.i64, 14);
	plan_free(&p);
	lesson_free(l);
	/* Outside a stage they mean nothing: a parameter may not use them. */
	static const char bad[] =
		"lesson: o\ntitle: O\nsummary: s\n"
		"params:\n  n: { default: occ_block }\n"
		"buffers:\n  y: { type: f32, count: n, output: true }\n"
		"model: { bytes: 4 * n }\n"
		"stages:\n"
		"  - { id: fixed, title: F, kernel: k.cu, entry: k, explain: e, bottleneck: b,\n"
		"      launches: [ { grid: 1, block: 256, args: [y] } ] }\n";
	assert_null(lesson_load_buffer("o.yaml", bad, strlen(bad), NULL, err, sizeof err));
	if (!strstr(err, "unknown name 'occ_block'")) fail_msg("%s", err);
}

static void test_tensormaps(void **state)
{
	(void)state;
	char err[512];
	lesson *l = lesson_load_buffer("tm.yaml", tm_text, strlen(tm_text), NULL, err, sizeof err);
	if (!l) fail_msg("%s", err);
	plan p;
	tm_ok(&p, l, 0, NULL);
	const plan_launch *k = &p.launches[0];
	assert_int_equal(k->nargs, 3);
	const plan_arg *a = &k->args[0];
	assert_int_equal(a->kind, ARG_TENSORMAP);
	assert_true(a->kind != ARG_BUFFER);
	assert_string_equal(a->buffer, "H");
	const plan_tensormap *t = &a->tm;
	assert_int_equal(t->type, DT_BF16);
	assert_int_equal(t->data_type, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16);
	assert_int_equal(t->rank, 2);
	assert_true(t->dims[0] == 776 && t->dims[1] == 1000);
	assert_true(t->strides[1] == 776 * 2);
	assert_true(t->box[0] == 64 && t->box[1] == 32);
	assert_int_equal(t->swizzle, 128);
	assert_int_equal(k->args[1].kind, ARG_BUFFER);
	assert_true(k->args[1].kind != ARG_TENSORMAP);
	t = &k->args[2].tm;
	assert_int_equal(k->args[2].kind, ARG_TENSORMAP);
	assert_int_equal(t->data_type, CU_TENSOR_MAP_DATA_TYPE_FLOAT32);
	assert_true(t->strides[1] == 776 * 4);
	assert_int_equal(t->swizzle, 0);
	plan_free(&p);

	/* every buffer type has its TMA element type; a byte is a byte */
	tm_ok(&p, l, 1, NULL);
	static const int want[] = { CU_TENSOR_MAP_DATA_TYPE_FLOAT32, CU_TENSOR_MAP_DATA_TYPE_FLOAT64, CU_TENSOR_MAP_DATA_TYPE_FLOAT16,
	                            CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, CU_TENSOR_MAP_DATA_TYPE_INT32, CU_TENSOR_MAP_DATA_TYPE_UINT32,
	                            CU_TENSOR_MAP_DATA_TYPE_INT64, CU_TENSOR_MAP_DATA_TYPE_UINT64, CU_TENSOR_MAP_DATA_TYPE_UINT8,
	                            CU_TENSOR_MAP_DATA_TYPE_UINT8 };
	static const lesson_dtype dt[] = { DT_F32, DT_F64, DT_F16, DT_BF16, DT_I32, DT_U32, DT_I64, DT_U64, DT_I8, DT_U8 };
	assert_int_equal(p.launches[0].nargs, 10);
	for (int i = 0; i < 10; i++) {
		t = &p.launches[0].args[i].tm;
		assert_int_equal(t->type, dt[i]);
		assert_int_equal(t->data_type, want[i]);
		assert_int_equal(t->rank, 1);
		assert_true(t->dims[0] == 16 && t->box[0] == 16);
	}
	assert_int_equal(p.launches[0].args[0].tm.swizzle, 64);
	plan_free(&p);

	/* five dimensions: each stride the bytes of the dimensions before it */
	tm_ok(&p, l, 2, SETS("rows=2"));
	t = &p.launches[0].args[0].tm;
	assert_int_equal(t->rank, 5);
	assert_true(t->dims[4] == 2);
	assert_true(t->strides[1] == 16 && t->strides[2] == 128 && t->strides[3] == 256 && t->strides[4] == 768);
	assert_true(t->box[0] == 4 && t->box[2] == 2 && t->box[4] == 1);
	plan_free(&p);

	/* dims */
	tm_err(l, 0, SETS("cols=777"), "tensor map H: rows of dims[0]=777 bf16 are 1554 bytes; TMA needs a multiple of 16");
	tm_err(l, 0, SETS("fc=770"), "tensor map F: rows of dims[0]=770 f32 are 3080 bytes; TMA needs a multiple of 16");
	tm_err(l, 0, SETS("over=-1000"), "tensor map H: dims[1] = 0; TMA needs 1 to 4294967295");
	tm_err(l, 0, SETS("over=-1001"), "tensor map H: dims[1] = -1; TMA needs 1 to 4294967295");
	tm_err(l, 0, SETS("cols=1 << 32", "rows=1"), "tensor map H: dims[0] = 4294967296; TMA needs 1 to 4294967295");
	tm_err(l, 0, SETS("over=1"), "tensor map H: dims [776, 1001] hold 776776 elements; buffer H has 776000");
	tm_err(l, 3, SETS("cols=1 << 31"),
	       "tensor map G: dims [2147483648, 2147483648, 2] hold 9223372036854775808 elements; buffer G has 2199023255552");
	tm_err(l, 4, SETS("cols=1 << 31"), "tensor map H: dims [2147483648, 2147483648, 2147483648, 2147483648, 2147483648] hold "
	                                   "over 18446744073709551615 elements; buffer H has 2147483648000");
	/* box */
	tm_err(l, 0, SETS("bx=0"), "tensor map H: box[0] = 0; TMA needs 1 to 256");
	tm_err(l, 0, SETS("by=257"), "tensor map H: box[1] = 257; TMA needs 1 to 256");
	tm_ok(&p, l, 0, SETS("bx=8", "by=256"));   /* a 16-byte row: the least; 256 rows: the most */
	assert_true(p.launches[0].args[0].tm.box[0] == 8 && p.launches[0].args[0].tm.box[1] == 256);
	plan_free(&p);
	tm_err(l, 0, SETS("bx=12"), "tensor map H: a box row of box[0]=12 bf16 is 24 bytes; TMA needs a multiple of 16");
	tm_err(l, 0, SETS("bx=128"), "tensor map H: a box row of box[0]=128 bf16 is 256 bytes; with swizzle 128 it may be at most 128");
	/* a stride of 2^40 bytes or more */
	tm_err(l, 3, SETS("cols=128"),
	       "tensor map G: steps of dims[2] (dims[0]*dims[1]=2147483648*128 f32) are 1099511627776 bytes; TMA needs less than 2^40");
	tm_ok(&p, l, 3, SETS("cols=127"));   /* just under 2^40 */
	assert_true(p.launches[0].args[0].tm.strides[2] == (uint64_t)127 << 33);
	plan_free(&p);
	tm_err(l, 3, SETS("cols=256"),
	       "tensor map G: steps of dims[2] (dims[0]*dims[1]=2147483648*256 f32) are 2199023255552 bytes; TMA needs less than 2^40");
	lesson_free(l);
}

static void test_baseline(void **state)
{
	(void)state;
	plan p;
	make_ok(&p, -1, SETS("n=100"));
	assert_int_equal(p.stage, -1);
	assert_int_equal(p.ndefines, 0);
	assert_null(plan_var_get(&p, "BLOCK"));
	assert_int_equal(p.nbuffers, 3);   /* no scratch */
	assert_int_equal(p.working_set, 100 * 4 + 50 * 4 + 100 * 8);
	assert_int_equal(p.nlaunches, 1);
	const plan_launch *b = &p.launches[0];
	assert_string_equal(b->entry, "memcpy");
	assert_int_equal(b->nargs, 3);
	assert_string_equal(b->args[0].name, "dst");
	assert_int_equal(b->args[0].kind, ARG_BUFFER);
	assert_string_equal(b->args[0].buffer, "z");
	assert_string_equal(b->args[1].name, "src");
	assert_string_equal(b->args[1].buffer, "x");
	assert_string_equal(b->args[2].name, "bytes");
	assert_true(b->args[2].kind != ARG_BUFFER);
	assert_int_equal(b->args[2].type, AT_I64);
	assert_int_equal(b->args[2].v.i64, 400);
	assert_true(p.bytes == 1200);   /* no model of its own: the lesson's */
	assert_true(p.flops == 200);
	plan_free(&p);
}

/* A named baseline (baselines: NAME): its own library call, model and check; the worker sees stage -1. */
static void test_named_baseline(void **state)
{
	(void)state;
	static const char t[] =
		"lesson: q\ntitle: Q\nsummary: s\nparams:\n  n: { default: 100, min: 1 }\n"
		"buffers:\n  x: { type: f32, count: n, init: iota }\n  z: { type: f32, count: n, output: true }\n"
		"model: { bytes: 8 * n }\ncheck: { reference: s1, compare: [z], tolerance: exact }\n"
		"baselines:\n"
		"  sum: { title: S, library: cub_reduce_sum, args: { in: x, out: z, count: n }, model: { bytes: 4 * n }, check: false }\n"
		"  copy: { title: C, library: memcpy, args: { dst: z, src: x, bytes: 4 * n }, tolerance: { abs: 0.5, norm: 0.01 } }\n"
		"stages:\n  - { id: s1, title: S, kernel: k.cu, entry: k, explain: e, bottleneck: b, baseline: sum, launches: [{ grid: 1, block: 32 }] }\n";
	char err[512];
	lesson *l = lesson_load_buffer("q.yaml", t, strlen(t), NULL, err, sizeof err);
	if (!l) fail_msg("%s", err);
	plan p;
	plan_setting st[1];
	assert_int_equal(plan_setting_parse("n=50", &st[0], err, sizeof err), 0);
	if (plan_make(&p, l, LESSON_BASELINE(0), st, 1, &dev48k, err, sizeof err)) fail_msg("%s", err);
	assert_int_equal(p.stage, -1);
	assert_string_equal(p.launches[0].entry, "cub_reduce_sum");
	assert_true(p.bytes == 200);   /* its own model */
	assert_int_equal(p.check, 0);  /* check: false */
	assert_int_equal(p.exact, 1);  /* the lesson's tolerance */
	plan_free(&p);
	if (plan_make(&p, l, LESSON_BASELINE(1), st, 1, &dev48k, err, sizeof err)) fail_msg("%s", err);
	assert_string_equal(p.launches[0].entry, "memcpy");
	assert_true(p.bytes == 400);   /* the lesson's */
	assert_int_equal(p.check, 1);
	assert_int_equal(p.exact, 0);  /* its own tolerance: */
	assert_true(p.abs_tol == 0.5 && p.norm_tol == 0.01 && p.rel_tol == 0);
	plan_free(&p);
	assert_int_equal(plan_setting_parse("VEC=1", &st[0], err, sizeof err), 0);
	assert_int_equal(plan_make(&p, l, LESSON_BASELINE(1), st, 1, &dev48k, err, sizeof err), -1);
	assert_string_equal(err, "unknown setting 'VEC' for q/baseline.copy (known: n)");
	plan_free(&p);
	assert_int_equal(plan_make(&p, l, LESSON_BASELINE(2), NULL, 0, &dev48k, err, sizeof err), -1);
	assert_string_equal(err, "lesson q has no such baseline");
	plan_free(&p);
	assert_int_equal(plan_make(&p, l, -1, NULL, 0, &dev48k, err, sizeof err), -1);
	assert_string_equal(err, "lesson q has no baseline");
	plan_free(&p);
	lesson_free(l);
}

/* The stage's kernel (plan_main_launch): the first launch of the stage's own entry, after a helper
 * launched first (as conv2d/winograd's filter transform) and after a memset. The
 * occupancy and the CUDA API's answer are both taken from it (the run.sh GPU test compares them); a
 * baseline's is its library call, as before. */
static void test_main_launch(void **state)
{
	(void)state;
	static const char t[] =
		"lesson: m\ntitle: M\nsummary: s\nparams:\n  n: { default: 100, min: 1 }\n"
		"buffers:\n  x: { type: f32, count: n, init: iota }\n  z: { type: f32, count: n, output: true }\n"
		"model: { bytes: 8 * n }\ncheck: { reference: s1, compare: [z], tolerance: exact }\n"
		"baseline: { title: C, library: memcpy, args: { dst: z, src: x, bytes: 4 * n } }\n"
		"stages:\n"
		"  - { id: s1, title: S, kernel: k.cu, entry: k, explain: e, bottleneck: b,\n"
		"      launches: [{ memset: { buffer: z, value: 0 } }, { grid: 1, block: 256, entry: helper }, { grid: 2, block: 64, shared: 4096 }, { grid: 3, block: 32 }] }\n"
		"  - { id: s2, title: S, kernel: k.cu, entry: k, explain: e, bottleneck: b,\n"
		"      launches: [{ grid: 1, block: 128, entry: helper }, { grid: 1, block: 96, entry: other }] }\n";
	char err[512];
	lesson *l = lesson_load_buffer("m.yaml", t, strlen(t), NULL, err, sizeof err);
	if (!l) fail_msg("%s", err);
	plan p;
	if (plan_make(&p, l, 0, NULL, 0, &dev48k, err, sizeof err)) fail_msg("%s", err);
	assert_int_equal(p.main_launch, 2);
	assert_ptr_equal(plan_main_launch(&p), &p.launches[2]);
	assert_int_equal(plan_main_launch(&p)->block[0], 64);
	assert_true(plan_main_launch(&p)->shared == 4096);
	plan_free(&p);
	/* no launch of its own entry: the first kernel launch */
	if (plan_make(&p, l, 1, NULL, 0, &dev48k, err, sizeof err)) fail_msg("%s", err);
	assert_int_equal(p.main_launch, -1);
	assert_ptr_equal(plan_main_launch(&p), &p.launches[0]);
	plan_free(&p);
	if (plan_make(&p, l, -1, NULL, 0, &dev48k, err, sizeof err)) fail_msg("%s", err);
	assert_int_equal(p.main_launch, -1);
	assert_ptr_equal(plan_main_launch(&p), &p.launches[0]);   /* its one step, the library call */
	assert_string_equal(plan_main_launch(&p)->entry, "memcpy");
	plan_free(&p);
	lesson_free(l);
}

/* Tolerances as expressions of the parameters (#46 item 4): evaluated at each plan's settings, from the
 * holder that gives the tolerance (the lesson, a stage, a baseline); a value below 0 (or a norm of 0)
 * there is a refusal at the expression's file:line:col. */
static void test_tolerance_exprs(void **state)
{
	(void)state;
	static const char t[] =
		"lesson: q\ntitle: Q\nsummary: s\nparams:\n  n: { default: 100, min: 1 }\n"
		"buffers:\n  x: { type: f32, count: n, init: iota }\n  z: { type: f32, count: n, output: true }\n"
		"model: { bytes: 8 * n }\ncheck: { reference: s1, compare: [z], tolerance: { rel: 1e-6, abs: \"1e-8 * n\" } }\n"
		"baseline: { title: C, library: memcpy, args: { dst: z, src: x, bytes: 4 * n }, tolerance: { norm: \"0.001 * (n - 50)\" } }\n"
		"stages:\n  - { id: s1, title: S, kernel: k.cu, entry: k, explain: e, bottleneck: b, launches: [{ grid: 1, block: 32 }] }\n"
		"  - { id: s2, title: S, kernel: k.cu, entry: k, explain: e, bottleneck: b, tolerance: { rel: \"n > 60 ? 0.5 : 0.25\" },\n"
		"      launches: [{ grid: 1, block: 32 }] }\n";
	char err[512];
	lesson *l = lesson_load_buffer("q.yaml", t, strlen(t), NULL, err, sizeof err);
	if (!l) fail_msg("%s", err);
	plan p;
	plan_setting st[1];
	if (plan_make(&p, l, 0, NULL, 0, &dev48k, err, sizeof err)) fail_msg("%s", err);
	assert_true(p.rel_tol == 1e-6 && fabs(p.abs_tol - 1e-6) < 1e-18 && p.norm_tol == 0);   /* n = 100 */
	plan_free(&p);
	assert_int_equal(plan_setting_parse("n=7000", &st[0], err, sizeof err), 0);
	if (plan_make(&p, l, 0, st, 1, &dev48k, err, sizeof err)) fail_msg("%s", err);
	assert_true(fabs(p.abs_tol - 7e-5) < 1e-15);   /* grows with n */
	plan_free(&p);
	if (plan_make(&p, l, 1, st, 1, &dev48k, err, sizeof err)) fail_msg("%s", err);
	assert_true(p.rel_tol == 0.5 && p.abs_tol == 0);   /* the stage's own */
	plan_free(&p);
	if (plan_make(&p, l, -1, st, 1, &dev48k, err, sizeof err)) fail_msg("%s", err);
	assert_true(fabs(p.norm_tol - 6.95) < 1e-12 && isinf(p.abs_tol));   /* the baseline's: norm alone */
	plan_free(&p);
	assert_int_equal(plan_setting_parse("n=50", &st[0], err, sizeof err), 0);
	assert_int_equal(plan_make(&p, l, -1, st, 1, &dev48k, err, sizeof err), -1);
	assert_string_equal(err, "q.yaml:11:100: the tolerance's norm, '0.001 * (n - 50)', is 0 here: it must be above 0");
	plan_free(&p);
	lesson_free(l);
}

/* The inputs in words (a bench's "Inputs:" line): buffers filled alike named together, outputs and
 * scratch left out, the seed only with something random, and the text cut to the room given. */
static void test_inputs_text(void **state)
{
	(void)state;
	plan_buffer b[] = {
		{ .name = "A", .type = DT_F32, .init = INIT_RANDOM, .a = -1, .b = 1 },
		{ .name = "C", .type = DT_F32, .output = 1 },
		{ .name = "idx", .type = DT_I32, .init = INIT_IOTA },
		{ .name = "B", .type = DT_F32, .init = INIT_RANDOM, .a = -1, .b = 1 },
		{ .name = "s", .type = DT_I32, .init = INIT_RANDOM, .a = 0, .b = 9 },
		{ .name = "w", .type = DT_F32, .init = INIT_EXPR },
		{ .name = "k", .type = DT_BF16, .init = INIT_CONSTANT, .a = 2.5 },
		{ .name = "tmp", .type = DT_F32, .scratch = 1 },
		{ .name = "h", .type = DT_F16, .init = INIT_RANDOM, .a = -1, .b = 1 },
	};
	plan p = { .buffers = b, .nbuffers = 9 };
	char out[512];
	plan_result_inputs(&p, 7, out, sizeof out);
	assert_string_equal(out, "A, B: f32, uniform in [-1, 1]; idx: i32, 0, 1, 2, ... (the index); s: i32, uniform integers in [0, 9]; "
	                         "w: f32, from its init expression; k: bf16, every element 2.5; h: f16, uniform in [-1, 1]; seed 7");
	p.nbuffers = 3;   /* A, C, idx */
	b[0].init = INIT_ZERO;
	plan_result_inputs(&p, 7, out, sizeof out);
	assert_string_equal(out, "A: f32, zero; idx: i32, 0, 1, 2, ... (the index)");   /* nothing random: no seed */
	p.nbuffers = 2;
	b[0].output = 1;
	plan_result_inputs(&p, 7, out, sizeof out);
	assert_string_equal(out, "no inputs");
	b[0] = (plan_buffer){ .name = "A", .type = DT_F32, .init = INIT_RANDOM, .a = -1, .b = 1 };
	plan_result_inputs(&p, 18446744073709551557ULL, out, 12);
	assert_string_equal(out, "A: f32, uni");   /* cut to the room, terminated */
}

static void test_setting_parse(void **state)
{
	(void)state;
	plan_setting s;
	char err[256];
	assert_int_equal(plan_setting_parse("n=1 << 10", &s, err, sizeof err), 0);
	assert_string_equal(s.name, "n");
	assert_string_equal(s.value, "1 << 10");
	assert_int_equal(plan_setting_parse("a=b=c", &s, err, sizeof err), 0);
	assert_string_equal(s.name, "a");
	assert_string_equal(s.value, "b=c");
	static const char *const bad[] = { "n", "=5", "n=", "" };
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		err[0] = 0;
		assert_int_equal(plan_setting_parse(bad[i], &s, err, sizeof err), -1);
		char want[64];
		snprintf(want, sizeof want, "'%s' is not NAME=VALUE", bad[i]);
		assert_string_equal(err, want);
	}
	char longname[80], longvalue[200];
	memset(longname, 'N', 64);
	snprintf(longname + 64, sizeof longname - 64, "=1");
	assert_int_equal(plan_setting_parse(longname, &s, err, sizeof err), -1);
	longname[63] = '=';   /* 63 characters fit */
	assert_int_equal(plan_setting_parse(longname, &s, err, sizeof err), 0);
	assert_int_equal(strlen(s.name), 63);
	snprintf(longvalue, sizeof longvalue, "n=");
	memset(longvalue + 2, '1', 128);
	longvalue[130] = 0;
	assert_int_equal(plan_setting_parse(longvalue, &s, err, sizeof err), -1);
	longvalue[129] = 0;   /* 127 characters fit */
	assert_int_equal(plan_setting_parse(longvalue, &s, err, sizeof err), 0);
	assert_int_equal(strlen(s.value), 127);
}

/* The shipped bandwidth lesson plans at its defaults on an sm_90-like device. */
static void test_bandwidth(void **state)
{
	(void)state;
	char err[512];
	lesson *l = lesson_load("lessons/bandwidth.yaml", "kernels", err, sizeof err);
	if (!l) fail_msg("%s", err);
	const plan_device h100 = { .sm_count = 132, .warp_size = 32, .max_threads_per_block = 1024, .cc = 90,
	                           .l2_bytes = 50 << 20, .max_shared_per_block = 232448 };
	static const struct { const char *id; unsigned grid; } want[] = {
		{ "strided", 262144 }, { "coalesced", 262144 }, { "gridstride", 132 * 8 }, { "vectorized", 65536 },
	};
	assert_int_equal(l->nstages, 4);
	const int64_t n = (int64_t)1 << 26;
	for (int i = 0; i < 4; i++) {
		plan p;
		int s = lesson_stage_index(l, want[i].id);
		assert_true(s >= 0);
		if (plan_make(&p, l, s, NULL, 0, &h100, err, sizeof err)) fail_msg("%s: %s", want[i].id, err);
		assert_int_equal(p.nlaunches, 1);
		assert_int_equal(p.launches[0].grid[0], want[i].grid);
		assert_int_equal(p.launches[0].block[0], 256);
		assert_int_equal(p.working_set, 3 * 4 * n);
		assert_true(p.bytes == 12.0 * (double)n);
		assert_true(p.flops == 2.0 * (double)n);
		assert_int_equal(p.launches[0].nargs, 5);
		assert_true(p.launches[0].args[3].v.f32 == 2.0f);
		assert_int_equal(p.launches[0].args[4].v.i64, n);
		assert_string_equal(p.defines[0], "-DBLOCK=256");
		plan_free(&p);
	}
	plan p;
	if (plan_make(&p, l, -1, NULL, 0, &h100, err, sizeof err)) fail_msg("baseline: %s", err);
	assert_true(p.bytes == 8.0 * (double)n);   /* its own model */
	assert_string_equal(p.launches[0].entry, "memcpy");
	plan_free(&p);
	lesson_free(l);
}

/* ---- what fits: refusals with numbers, the nearest fitting value, defaults adjusted (#19) ---- */

static const plan_device sm86 = { .sm_count = 82, .warp_size = 32, .max_threads_per_block = 1024, .cc = 86,
                                  .l2_bytes = 6 << 20, .max_shared_per_block = 101376 };
static const plan_device sm90 = { .sm_count = 132, .warp_size = 32, .max_threads_per_block = 1024, .cc = 90,
                                  .l2_bytes = 50 << 20, .max_shared_per_block = 232448 };
#define MMA_SMEM "STAGES padded tiles, STAGES*(BM*(BK+8) + BK*(BN+8))*2 bytes, exceed the shared memory a block may have"

static lesson *load_tensorcore(int *stage)
{
	char err[512];
	lesson *l = lesson_load("lessons/tensorcore.yaml", "kernels", err, sizeof err);
	if (!l) fail_msg("%s", err);
	*stage = lesson_stage_index(l, "mma_pipeline");
	assert_true(*stage >= 0);
	return l;
}

/* A lesson of one stage, s, with one output buffer z: the tests' own tunables follow. */
#define ONE_STAGE                                                                                         \
	"lesson: c\ntitle: C\nsummary: s\nbuffers:\n  z: { type: f32, count: 4, output: true }\nmodel: { bytes: 4 }\n" \
	"stages:\n  - id: s\n    title: S\n    kernel: k.cu\n    entry: k\n"

/* A refused comparison says both sides: the bytes it needs and the limit. */
static void test_refusal_numbers(void **state)
{
	(void)state;
	int s;
	lesson *l = load_tensorcore(&s);
	plan p;
	char err[512];
	assert_int_equal(plan_make(&p, l, s, NULL, 0, &sm86, err, sizeof err), -1);
	plan_free(&p);
	assert_string_equal(err, MMA_SMEM ": needs 107520 bytes, the limit is 101376");
	lesson_free(l);
	/* other comparisons: at least; no numbers for == or a constraint joined by || */
	make_err(0, SETS("BLOCK=1024"), "a block over 512 threads needs VEC = 1");
	static const char t[] =
		ONE_STAGE
		"    tunables:\n      B: { values: [16, 32, 64, 128, 256], default: 64 }\n"
		"    constraints:\n"
		"      - { expr: \"B * 2 >= 64\", message: \"B too small\" }\n"
		"      - { expr: \"(B << 1) < 400\", message: \"B too big\" }\n"
		"    launches:\n      - { grid: 1, block: 32 }\n    explain: e\n    bottleneck: b\n";
	lesson *c = lesson_load_buffer("c.yaml", t, strlen(t), NULL, err, sizeof err);
	if (!c) fail_msg("%s", err);
	plan_setting set;
	assert_int_equal(plan_setting_parse("B=16", &set, err, sizeof err), 0);
	assert_int_equal(plan_make(&p, c, 0, &set, 1, &sm90, err, sizeof err), -1);
	plan_free(&p);
	assert_string_equal(err, "B too small: has 32, needs at least 64");
	assert_int_equal(plan_setting_parse("B=256", &set, err, sizeof err), 0);
	assert_int_equal(plan_make(&p, c, 0, &set, 1, &sm90, err, sizeof err), -1);
	plan_free(&p);
	assert_string_equal(err, "B too big: needs 512, the limit is 400");
	lesson_free(c);
}

/* plan_fit_find: one tunable changed, nearest to its value first, the job's own tunables first. */
static void test_find_fit(void **state)
{
	(void)state;
	int s;
	lesson *l = load_tensorcore(&s);
	plan_setting fix, sets[2];
	char err[256];
	assert_int_equal(plan_fit_find(l, s, NULL, 0, &sm86, &fix), 0);
	assert_string_equal(fix.name, "STAGES");   /* 3 -> 2 is nearer than BM or BK 64 -> 32 */
	assert_string_equal(fix.value, "2");
	assert_int_equal(plan_setting_parse("STAGES=5", &sets[0], err, sizeof err), 0);
	assert_int_equal(plan_fit_find(l, s, sets, 1, &sm86, &fix), 0);
	assert_string_equal(fix.name, "STAGES");   /* the tunable the job set, though BK=32 would fit too */
	assert_string_equal(fix.value, "2");
	assert_int_equal(plan_setting_parse("m=100", &sets[0], err, sizeof err), 0);
	assert_int_equal(plan_fit_find(l, s, sets, 1, &sm90, &fix), -1);   /* no BM divides 100 */
	assert_int_equal(plan_setting_parse("m=192", &sets[0], err, sizeof err), 0);
	assert_int_equal(plan_fit_find(l, s, sets, 1, &sm90, &fix), 0);
	assert_string_equal(fix.name, "BM");
	assert_string_equal(fix.value, "64");
	assert_int_equal(plan_setting_parse("STAGES=7", &sets[0], err, sizeof err), 0);
	assert_int_equal(plan_fit_find(l, s, sets, 1, &sm86, &fix), -1);  /* not allowed: the message lists what is */
	lesson_free(l);
}

/* A tunable whose default is an expression over the device: each GPU gets its own, a setting still
 * wins, and a default that is not among the values on some GPU is refused there with where it is. */
static void test_default_expr(void **state)
{
	(void)state;
	char err[512];
	static const char t[] =
		ONE_STAGE
		"    tunables:\n      B: { values: [8, 16], default: \"max_shared_per_block >= 196608 ? 16 : 8\" }\n"
		"      C: { values: [80, 86], default: \"cc\" }\n"
		"    launches:\n      - { grid: 1, block: \"32 * B\" }\n    explain: e\n    bottleneck: b\n";
	lesson *l = lesson_load_buffer("c.yaml", t, strlen(t), NULL, err, sizeof err);
	if (!l) fail_msg("%s", err);
	int64_t v = 0;
	assert_int_equal(plan_tunable_default(l, &l->stages[0], 0, &sm86, &v, err, sizeof err), 0);
	assert_int_equal(v, 8);
	assert_int_equal(plan_tunable_default(l, &l->stages[0], 0, &sm90, &v, err, sizeof err), 0);
	assert_int_equal(v, 16);
	assert_int_equal(plan_tunable_default(l, &l->stages[0], 0, NULL, &v, err, sizeof err), -1);
	assert_string_equal(err, "the default of tunable B ('max_shared_per_block >= 196608 ? 16 : 8') depends on the GPU, and none is known");
	plan p;
	assert_int_equal(plan_make(&p, l, 0, NULL, 0, &sm86, err, sizeof err), 0);
	assert_int_equal(plan_var_get(&p, "B")->i, 8);
	assert_int_equal(plan_var_get(&p, "C")->i, 86);
	assert_int_equal(p.launches[0].block[0], 256);
	plan_free(&p);
	/* on an H100 B's default is 16, but C's (cc, 90) is not one of C's values */
	assert_int_equal(plan_make(&p, l, 0, NULL, 0, &sm90, err, sizeof err), -1);
	plan_free(&p);
	assert_string_equal(err, "c.yaml:14:40: the default of tunable C of stage s ('cc') is 90 on this GPU, not one of its values (80, 86)");
	plan_setting set;
	assert_int_equal(plan_setting_parse("C=80", &set, err, sizeof err), 0);
	assert_int_equal(plan_make(&p, l, 0, &set, 1, &sm90, err, sizeof err), 0);
	assert_int_equal(plan_var_get(&p, "B")->i, 16);
	assert_int_equal(p.launches[0].block[0], 512);
	plan_free(&p);
	lesson_free(l);
	/* the lesson that uses it: conv2d/wgemm takes 16 warps and 16 channels a round where 192 KiB of
	 * shared memory fit a block, 8 and 8 (96 KiB) on a GeForce SM */
	l = lesson_load("lessons/conv2d.yaml", "kernels", err, sizeof err);
	if (!l) fail_msg("%s", err);
	int s = lesson_stage_index(l, "wgemm");
	assert_true(s >= 0);
	assert_int_equal(plan_make(&p, l, s, NULL, 0, &sm86, err, sizeof err), 0);
	assert_int_equal(plan_var_get(&p, "CB")->i, 8);
	assert_int_equal(plan_var_get(&p, "NW")->i, 8);
	assert_int_equal(plan_var_get(&p, "smem_bytes")->i, 98304);
	plan_free(&p);
	assert_int_equal(plan_make(&p, l, s, NULL, 0, &sm90, err, sizeof err), 0);
	assert_int_equal(plan_var_get(&p, "CB")->i, 16);
	assert_int_equal(plan_var_get(&p, "NW")->i, 16);
	assert_int_equal(plan_var_get(&p, "smem_bytes")->i, 196608);
	plan_free(&p);
	lesson_free(l);
}

/* plan_fit_make: defaults that do not fit this GPU are adjusted; a refused setting says what fits. */
static void test_make_fit(void **state)
{
	(void)state;
	int s, n = 0;
	lesson *l = load_tensorcore(&s);
	plan_setting sets[16];
	char adj[64] = "x", err[512];
	plan p;
	assert_int_equal(plan_fit_make(&p, l, s, sets, &n, 16, &sm86, adj, sizeof adj, err, sizeof err), 0);
	assert_string_equal(adj, "STAGES=2");
	assert_int_equal(n, 1);
	assert_string_equal(sets[0].name, "STAGES");
	assert_int_equal(plan_var_get(&p, "STAGES")->i, 2);
	assert_int_equal(p.launches[0].shared, 71680);
	plan_free(&p);
	/* on an H100 the defaults fit: nothing changes */
	n = 0;
	assert_int_equal(plan_fit_make(&p, l, s, sets, &n, 16, &sm90, adj, sizeof adj, err, sizeof err), 0);
	assert_string_equal(adj, "");
	assert_int_equal(n, 0);
	assert_int_equal(plan_var_get(&p, "STAGES")->i, 3);
	plan_free(&p);
	/* a tunable the user set is not changed behind their back: refused, with what fits */
	n = 1;
	assert_int_equal(plan_setting_parse("STAGES=4", &sets[0], err, sizeof err), 0);
	assert_int_equal(plan_fit_make(&p, l, s, sets, &n, 16, &sm86, adj, sizeof adj, err, sizeof err), -1);
	plan_free(&p);
	assert_string_equal(err, MMA_SMEM ": needs 143360 bytes, the limit is 101376 (STAGES=2 fits)");
	assert_int_equal(n, 1);
	/* a parameter that breaks the defaults (not the GPU): refused, with what fits */
	assert_int_equal(plan_setting_parse("m=192", &sets[0], err, sizeof err), 0);
	assert_int_equal(plan_fit_make(&p, l, s, sets, &n, 16, &sm90, adj, sizeof adj, err, sizeof err), -1);
	plan_free(&p);
	assert_string_equal(err, "m must be a multiple of BM for this stage (BM=64 fits)");
	/* nothing fits: the refusal alone */
	assert_int_equal(plan_setting_parse("m=100", &sets[0], err, sizeof err), 0);
	assert_int_equal(plan_fit_make(&p, l, s, sets, &n, 16, &sm90, adj, sizeof adj, err, sizeof err), -1);
	plan_free(&p);
	assert_string_equal(err, "m must be a multiple of BM for this stage");
	lesson_free(l);
}

/* Each kind of argument, and each value type, as the kernel parameter it must match. */
static void test_arg_abi(void **state)
{
	(void)state;
	static const struct { lesson_arg_kind k; lesson_arg_type t; int size; char kind; } cases[] = {
		{ ARG_VALUE, AT_I32, 4, 'i' }, { ARG_VALUE, AT_U32, 4, 'i' }, { ARG_VALUE, AT_I64, 8, 'i' }, { ARG_VALUE, AT_U64, 8, 'i' },
		{ ARG_VALUE, AT_F32, 4, 'f' }, { ARG_VALUE, AT_F64, 8, 'f' }, { ARG_BUFFER, AT_I32, 8, 'i' }, { ARG_TENSORMAP, AT_I32, 128, 'b' },
		{ ARG_TEXTURE, AT_I32, 8, 'i' },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		plan_arg a;
		memset(&a, 0, sizeof a);
		a.kind = cases[i].k;
		a.type = cases[i].t;
		int size = 0;
		char kind = 0;
		plan_arg_abi(&a, &size, &kind);
		assert_int_equal(size, cases[i].size);
		assert_int_equal(kind, cases[i].kind);
	}
	plan_arg zero;
	memset(&zero, 0, sizeof zero);
	assert_int_equal(zero.kind, ARG_VALUE);        /* a zeroed argument is a value, a zeroed step a launch */
	assert_string_equal(plan_result_step_name(STEP_LAUNCH), "launch");
	assert_string_equal(plan_result_step_name(STEP_MEMSET), "memset");
	assert_string_equal(plan_result_step_name(STEP_COPY), "copy");
}

/* ---- format v2 ---- */

/* E picks one broken thing in stage bad (0: none). */
static const char v2_text[] =
	"lesson: v\ntitle: V\nsummary: s\n"                                                          /* 1-3 */
	"params:\n  n: { default: 1000, min: 1 }\n  R: { default: 2 }\n  CH: { default: 3 }\n  E: { default: 0 }\n" /* 4-8 */
	"derived:\n  chunk: \"ceil_div(n, max(CH, 1))\"\n"                                                   /* 9-10 */
	"buffers:\n"                                                                                 /* 11 */
	"  hx: { type: f32, count: n, host: pageable, init: { random: [0, 1] } }\n"                  /* 12 */
	"  hy: { type: f32, count: n, host: pinned, output: true }\n"                                /* 13 */
	"  w: { type: f32, count: \"2 * R + 1\", init: { expr: \"exp(-float((i - R) * (i - R)) / 2.0)\" } }\n" /* 14 */
	"  img: { type: u8, count: 4096, init: iota }\n"                                             /* 15 */
	"  f: { type: f32, count: 4096, init: iota }\n"                                              /* 16 */
	"model: { bytes: 8 * n }\n"                                                                  /* 17 */
	"stages:\n"                                                                                  /* 18 */
	"  - id: pipe\n    title: P\n    kernel: k.cu\n    entry: k\n    explain: e\n    bottleneck: b\n" /* 19-24 */
	"    memory: { hx: pinned }\n"                                                               /* 25 */
	"    buffers: { dx: { type: f32, count: n } }\n"                                             /* 26 */
	"    launches:\n"                                                                            /* 27 */
	"      - repeat: CH\n"                                                                       /* 28 */
	"        as: c\n"                                                                            /* 29 */
	"        steps:\n"                                                                           /* 30 */
	"          - copy: { dst: dx, src: hx, offset: c * chunk, count: \"min(chunk, n - c * chunk)\", stream: \"1 + c % 2\" }\n" /* 31 */
	"          - { grid: 1, block: 32, stream: \"1 + c % 2\", args: [dx, \"i64(c * chunk)\"] }\n"  /* 32 */
	"          - copy: { dst: hy, src: dx, offset: c * chunk, count: \"min(chunk, n - c * chunk)\", stream: \"1 + c % 2\" }\n" /* 33 */
	"  - id: serial\n    title: S\n    kernel: k.cu\n    entry: k\n    explain: e\n    bottleneck: b\n" /* 34-39 */
	"    options: [\"--relocatable-device-code=true\"]\n"                                       /* 40 */
	"    buffers: { dx: { type: f32, count: n } }\n"                                             /* 41 */
	"    constants:\n"                                                                           /* 42 */
	"      - { symbol: c_w, buffer: w }\n"                                                       /* 43 */
	"      - { symbol: c_r, type: i32, value: R }\n"                                             /* 44 */
	"      - { symbol: c_t, type: u8, count: 4, value: \"i * 60\" }\n"                           /* 45 */
	"      - { symbol: c_h, type: bf16, count: 2, value: \"1.5 - 4 * i\" }\n"                    /* 46 */
	"    launches:\n"                                                                            /* 47 */
	"      - copy: { dst: dx, src: hx }\n"                                                       /* 48 */
	"      - { grid: 1, block: 32, args: [dx, { texture: img, dims: [64, 8], pitch: 128, address: border }, { texture: f, dims: [R] }] }\n" /* 49 */
	"      - copy: { dst: hy, src: dx, dst_offset: R, src_offset: 0, count: \"n - R\" }\n"        /* 50 */
	"      - memset: { buffer: dx, value: 3, stream: \"min(R, 2)\" }\n"                                      /* 51 */
	"  - id: bad\n    title: B\n    kernel: k.cu\n    entry: k\n    explain: e\n    bottleneck: b\n" /* 52-57 */
	"    buffers: { s: { type: f32, count: \"E == 12 ? 65537 : 4\", init: { expr: \"sqrt(float(i) + 13 - E)\" } } }\n" /* 58 */
	"    constants:\n"                                                                           /* 59 */
	"      - { symbol: c_big, type: f64, count: \"E == 1 ? 8193 : 8192\", value: 1 }\n"          /* 60 */
	"      - { symbol: c_u8, type: u8, count: 2, value: \"E == 2 ? 256 : i\" }\n"                /* 61 */
	"    launches:\n"                                                                            /* 62 */
	"      - { grid: 1, block: 32, stream: \"E == 3 ? 16 : 0\", args: [hy, { texture: img, dims: [64, \"E == 4 ? 65 : 64\"], pitch: 64 }] }\n" /* 63 */
	"      - { grid: 1, block: 32, args: [{ texture: f, dims: [4, 4], pitch: \"E == 5 ? 3 : 4\" }] }\n" /* 64 */
	"      - copy: { dst: hy, src: f, count: \"E == 6 ? n + 1 : 4\" }\n"                         /* 65 */
	"      - copy: { dst: hy, src: f, src_offset: \"E == 7 ? 4095 : 0\", count: 4 }\n"            /* 66 */
	"      - repeat: \"E == 9 ? -1 : 1\"\n        as: r\n"                                      /* 67-68 */
	"        steps: [{ repeat: \"E == 11 ? 600 : 1\", as: q, steps: [{ grid: 1, block: 1 }, { grid: 1, block: 1 }] }]\n" /* 69 */
	"  - id: pg\n    title: G\n    kernel: k.cu\n    entry: k\n    explain: e\n    bottleneck: b\n" /* 70-75 */
	"    launches: [{ grid: 1, block: 1, args: [hx] }]\n"                                        /* 76 */
	"  - id: lin\n    title: L\n    kernel: k.cu\n    entry: k\n    explain: e\n    bottleneck: b\n" /* 77-82 */
	"    launches: [{ grid: 1, block: 1, args: [{ texture: img, dims: [8, 8], filter: linear }] }]\n" /* 83 */
	"  - id: norm\n    title: N\n    kernel: k.cu\n    entry: k\n    explain: e\n    bottleneck: b\n" /* 84-89 */
	"    launches: [{ grid: 1, block: 1, args: [{ texture: f, dims: [8, 8], read: normalized }] }]\n"; /* 90 */

/* Copies, streams and repeat blocks unrolled; init expr values; constants as bytes; textures; rdc;
 * plan_result_steps's records of copies. */
static void test_v2_plan(void **state)
{
	(void)state;
	char err[512];
	lesson *l = lesson_load_buffer("v.yaml", v2_text, strlen(v2_text), NULL, err, sizeof err);
	if (!l) fail_msg("%s", err);
	plan p;
	/* pipe: 3 chunks of 334, 334, 332 elements on streams 1, 2, 1 */
	tm_ok(&p, l, 0, NULL);
	assert_int_equal(p.nlaunches, 9);
	assert_int_equal(p.nstreams, 3);
	assert_int_equal(p.rdc, 0);
	assert_true(p.h2d_bytes == 4000 && p.d2h_bytes == 4000);
	const int streams[9] = { 1, 1, 1, 2, 2, 2, 1, 1, 1 };
	const uint64_t off[3] = { 0, 334 * 4, 668 * 4 }, bytes[3] = { 334 * 4, 334 * 4, 332 * 4 };
	for (int c = 0; c < 3; c++) {
		const plan_launch *in = &p.launches[3 * c], *k = &p.launches[3 * c + 1], *out = &p.launches[3 * c + 2];
		assert_int_equal(in->kind, STEP_COPY);
		assert_string_equal(in->buffer, "dx");
		assert_string_equal(in->src, "hx");
		assert_true(in->dst_off == off[c] && in->src_off == off[c] && in->bytes == bytes[c]);
		assert_int_equal(k->kind, STEP_LAUNCH);
		assert_true(k->args[1].v.i64 == 334 * c);
		assert_string_equal(out->buffer, "hy");
		assert_string_equal(out->src, "dx");
		assert_true(out->dst_off == off[c] && out->bytes == bytes[c]);
		for (int s = 0; s < 3; s++) assert_int_equal(p.launches[3 * c + s].stream, streams[3 * c + s]);
	}
	assert_null(plan_var_get(&p, "c"));    /* a repeat variable lives only in its block */
	assert_null(plan_var_get(&p, "i"));
	assert_int_equal(p.buffers[0].memory, MEM_PINNED);   /* memory: over host: pageable */
	assert_int_equal(p.buffers[1].memory, MEM_PINNED);
	assert_int_equal(p.buffers[5].memory, MEM_DEVICE);
	const plan_buffer *w = &p.buffers[2];
	assert_int_equal(w->init, INIT_EXPR);
	assert_int_equal(w->count, 5);
	assert_non_null(w->values);
	assert_true(w->values[2] == 1.0 && w->values[0] == exp(-2.0) && w->values[4] == w->values[0] && w->values[1] == exp(-0.5));
	run_result r;
	run_result_init(&r);
	plan_result_steps(&p, &r);
	assert_int_equal(r.nsteps, 9);
	assert_string_equal(r.steps[0].kind, "copy");
	assert_string_equal(r.steps[0].entry, "hx>dx");
	assert_string_equal(r.steps[0].dir, "h2d");
	assert_true(r.steps[0].bytes == 1336);
	assert_int_equal(r.steps[3].stream, 2);
	assert_string_equal(r.steps[1].kind, "launch");
	assert_string_equal(r.steps[1].dir, "");
	assert_int_equal(r.steps[1].stream, 1);
	assert_string_equal(r.steps[8].entry, "dx>hy");
	assert_string_equal(r.steps[8].dir, "d2h");
	assert_true(r.steps[8].bytes == 1328);
	plan_free(&p);
	/* an empty last chunk is dropped: n = 4 in 3 chunks of 2 */
	tm_ok(&p, l, 0, SETS("n=4"));
	assert_int_equal(p.nlaunches, 7);
	assert_int_equal(p.launches[6].kind, STEP_LAUNCH);
	assert_true(p.h2d_bytes == 16 && p.d2h_bytes == 16);
	plan_free(&p);
	tm_ok(&p, l, 0, SETS("CH=1"));
	assert_int_equal(p.nstreams, 2);
	assert_int_equal(p.nlaunches, 3);
	plan_free(&p);
	tm_ok(&p, l, 0, SETS("CH=0"));
	assert_int_equal(p.nlaunches, 0);
	assert_int_equal(p.nstreams, 1);
	plan_free(&p);

	/* serial: constants, textures, offsets, the memset's stream, rdc */
	tm_ok(&p, l, 1, NULL);
	assert_int_equal(p.rdc, 1);
	assert_int_equal(p.nstreams, 3);
	assert_int_equal(p.nconstants, 4);
	assert_string_equal(p.constants[0].symbol, "c_w");
	assert_string_equal(p.constants[0].buffer, "w");
	assert_null(p.constants[0].bytes);
	assert_true(p.constants[0].count == 5 && p.constants[0].nbytes == 20);
	assert_true(p.constants[1].nbytes == 4);
	assert_memory_equal(p.constants[1].bytes, ((unsigned char[]){ 2, 0, 0, 0 }), 4);
	assert_memory_equal(p.constants[2].bytes, ((unsigned char[]){ 0, 60, 120, 180 }), 4);
	assert_memory_equal(p.constants[3].bytes, ((unsigned char[]){ 0xc0, 0x3f, 0x20, 0xc0 }), 4);   /* bf16 1.5, -2.5 */
	const plan_launch *k = &p.launches[1];
	assert_int_equal(k->args[1].kind, ARG_TEXTURE);
	const plan_texture *t = &k->args[1].tex;
	assert_int_equal(t->rank, 2);
	assert_int_equal(t->type, DT_U8);
	assert_true(t->width == 64 && t->height == 8 && t->pitch_bytes == 128);
	assert_int_equal(t->address, TEX_BORDER);
	assert_int_equal(t->filter, TEX_POINT);
	t = &k->args[2].tex;
	assert_true(t->rank == 1 && t->width == 2 && t->height == 1 && t->pitch_bytes == 0);
	assert_true(p.launches[2].dst_off == 8 && p.launches[2].src_off == 0 && p.launches[2].bytes == 998 * 4);
	assert_true(p.h2d_bytes == 4000 && p.d2h_bytes == 998 * 4);
	assert_int_equal(p.launches[3].stream, 2);
	run_result_init(&r);
	plan_result_steps(&p, &r);
	assert_string_equal(r.steps[3].kind, "memset");
	assert_true(r.steps[3].bytes == 4000);
	plan_free(&p);
	tm_ok(&p, l, 1, SETS("R=1000"));   /* count n - R = 0: the copy is dropped */
	assert_int_equal(p.nlaunches, 3);
	assert_true(p.d2h_bytes == 0);
	plan_free(&p);

	/* each broken thing, refused with its place and the numbers */
	tm_ok(&p, l, 2, NULL);
	plan_free(&p);
	tm_err(l, 2, SETS("E=1"), "v.yaml:60:9: constant c_big: 8193 elements of f64; constant memory holds 1 to 8192 of them (64 KiB)");
	tm_err(l, 2, SETS("E=2"), "v.yaml:61:53: constant c_u8: element 0 is 256, which u8 cannot hold");
	tm_err(l, 2, SETS("E=3"), "v.yaml:63:9: launch of k: stream 16 is not one of 0 to 15");
	tm_err(l, 2, SETS("E=4"), "texture img: 65 rows of pitch 64 and width 64 reach element 4160; buffer img has 4096");
	tm_err(l, 2, SETS("E=5"), "texture f: a pitch of 3 elements is less than the width, 4");
	tm_err(l, 2, SETS("E=6"), "v.yaml:65:9: copy f>hy: elements [0, 1001) lie outside hy (1000 elements)");
	tm_err(l, 2, SETS("E=7"), "v.yaml:66:9: copy f>hy: elements [4095, 4099) lie outside f (4096 elements)");
	tm_err(l, 2, SETS("E=9"), "v.yaml:67:9: repeat r: -1 times; a block repeats 0 to 1024 times");
	tm_err(l, 2, SETS("E=11"), "v.yaml:69:63: stage bad unrolls to more than 1024 steps");
	tm_err(l, 2, SETS("E=12"), "v.yaml:58:16: buffer s has 65537 elements; init: { expr } fills at most 65536");
	tm_err(l, 2, SETS("E=14"), "v.yaml:58:77: in 'sqrt(float(i) + 13 - E)': sqrt() of a negative number");
	tm_err(l, 3, NULL, "v.yaml:76:44: launch of k: hx is pageable host memory, which a kernel cannot read; copy it to a device buffer (or make it pinned)");
	tm_err(l, 4, NULL, "texture img: linear filtering needs f32 or f16 elements, or read: normalized; the buffer is u8");
	tm_err(l, 5, NULL, "texture f: read: normalized turns 8-bit integers into floats; the buffer is f32");
	lesson_free(l);
}

/* The one-value API the front ends use (plan_param_info_get, plan_param_value, plan_tunable_value):
 * plan_make's own rules and messages, one value at a time. */
static void test_value_api(void **state)
{
	(void)state;
	expr_value pv[4] = {{0}}, v;
	plan_param_info pi;
	char err[512];
	/* n's default and range; rows's default and range; a has none */
	assert_int_equal(plan_param_info_get(L, &dev48k, pv, 0, &pi, err, sizeof err), 0);
	assert_int_equal(pi.def.kind, EXPR_INT);
	assert_true(pi.def.i == 4096 && pi.has_lo && pi.lo.i == 1 && pi.has_hi && pi.hi.i == 1 << 20);
	pv[0] = pi.def;
	assert_int_equal(plan_param_info_get(L, &dev48k, pv, 1, &pi, err, sizeof err), 0);
	assert_true(pi.def.kind == EXPR_FLOAT && pi.def.f == 1.5 && !pi.has_lo && !pi.has_hi);
	pv[1] = pi.def;
	assert_int_equal(plan_param_info_get(L, &dev48k, pv, 2, &pi, err, sizeof err), 0);
	assert_true(pi.def.i == 4 && pi.lo.i == 1 && pi.hi.i == 64);
	/* accepted: a number, an expression over the device values */
	assert_int_equal(plan_param_value(L, &dev48k, pv, 0, "1 << 16", &v, err, sizeof err), 0);
	assert_true(v.kind == EXPR_INT && v.i == 65536);
	assert_int_equal(plan_param_value(L, &dev48k, pv, 0, "sm_count * 2", &v, err, sizeof err), 0);
	assert_true(v.i == 264);
	assert_int_equal(plan_param_value(L, &dev48k, pv, 1, "3", &v, err, sizeof err), 0);
	assert_true(v.kind == EXPR_FLOAT && v.f == 3);
	/* refused, in plan_make's words */
	assert_int_equal(plan_param_value(L, &dev48k, pv, 0, "0", &v, err, sizeof err), -1);
	assert_string_equal(err, "n = 0 is outside its range [1, 1048576]");
	assert_int_equal(plan_param_value(L, &dev48k, pv, 2, "65", &v, err, sizeof err), -1);
	assert_string_equal(err, "rows = 65 is outside its range [1, 64]");
	assert_int_equal(plan_param_value(L, &dev48k, pv, 0, "2.5", &v, err, sizeof err), -1);
	assert_string_equal(err, "n takes whole numbers, not 2.5");
	assert_int_equal(plan_param_value(L, &dev48k, pv, 0, "x + 1", &v, err, sizeof err), -1);
	assert_string_equal(err, "n=x + 1: unknown name 'x'");
	assert_int_equal(plan_param_value(L, &dev48k, pv, 0, "1 +", &v, err, sizeof err), -1);
	assert_non_null(strstr(err, "n=1 +: "));
	/* the same refusal as plan_make gives for the whole run */
	plan p;
	plan_setting s;
	char whole[512];
	assert_int_equal(plan_setting_parse("n=0", &s, err, sizeof err), 0);
	assert_int_equal(plan_make(&p, L, 0, &s, 1, &dev48k, whole, sizeof whole), -1);
	plan_free(&p);
	assert_int_equal(plan_param_value(L, &dev48k, pv, 0, "0", &v, err, sizeof err), -1);
	assert_string_equal(err, whole);
	/* tunables: one of the allowed values, or refused with them listed */
	int64_t t;
	const lesson_stage *st = &L->stages[0];
	assert_int_equal(plan_tunable_value(st, 0, NULL, "2 * 64", &t, err, sizeof err), 0);
	assert_true(t == 128);
	assert_int_equal(plan_tunable_value(st, 0, &dev48k, "warp_size * 8", &t, err, sizeof err), 0);
	assert_true(t == 256);
	assert_int_equal(plan_tunable_value(st, 0, NULL, "100", &t, err, sizeof err), -1);
	assert_string_equal(err, "BLOCK = 100 is not allowed for stage main (allowed: 32, 64, 128, 256, 512, 1024, 2048)");
	assert_int_equal(plan_tunable_value(st, 1, NULL, "1.5", &t, err, sizeof err), -1);
	assert_string_equal(err, "VEC takes whole numbers, not 1.5");
	assert_int_equal(plan_tunable_value(st, 0, NULL, "BLOCKS", &t, err, sizeof err), -1);
	assert_string_equal(err, "BLOCK=BLOCKS: unknown name 'BLOCKS'");
	/* plan_check: the whole run, and the value a setting came to */
	assert_int_equal(plan_setting_parse("BLOCK=1 << 7", &s, err, sizeof err), 0);
	assert_int_equal(plan_check(L, 0, &s, 1, &dev48k, "BLOCK", &v, err, sizeof err), 0);
	assert_true(v.i == 128);
	/* the device values: one list */
	int64_t x;
	assert_string_equal(plan_device_var_name(0), "sm_count");
	assert_null(plan_device_var_name(6));
	assert_true(plan_device_var(&dev48k, "l2_bytes", 8, &x) && x == 50 << 20);
	assert_false(plan_device_var(&dev48k, "occ_block", 9, &x));
}

/* Issue #32: a stage's derived: and model: see its tunables; empty chunks of a repeat block (a copy
 * count <= 0, a grid of 0) are dropped while outside a block they are errors; check's edge sizes. */
static const char chunks[] =
	"lesson: ch\n"                                                              /* 1 */
	"title: C\n"                                                                /* 2 */
	"summary: s\n"                                                              /* 3 */
	"params:\n"                                                                 /* 4 */
	"  n: { default: 4096, min: 1, max: \"1 << 24\" }\n"                        /* 5 */
	"buffers:\n"                                                                /* 6 */
	"  h: { type: f32, count: n, host: pinned, init: { random: [-1, 1] } }\n"   /* 7 */
	"  o: { type: f32, count: n, host: pinned, output: true }\n"                /* 8 */
	"model: { bytes: \"8 * n\" }\n"                                             /* 9 */
	"stages:\n"                                                                 /* 10 */
	"  - id: s\n"                                                               /* 11 */
	"    title: S\n"                                                            /* 12 */
	"    kernel: k.cu\n"                                                        /* 13 */
	"    entry: k\n"                                                            /* 14 */
	"    explain: e\n"                                                          /* 15 */
	"    bottleneck: b\n"                                                       /* 16 */
	"    tunables: { CHUNKS: { values: [2, 4, 16], default: 4 }, R: { range: [1, 8], default: 3 } }\n" /* 17 */
	"    derived: { chunk: \"ceil_div(n, CHUNKS)\", taps: \"2 * R + 1\" }\n"  /* 18 */
	"    model: { flops: \"2 * taps * n\" }\n"                                  /* 19 */
	"    buffers: { d: { type: f32, count: n } }\n"                             /* 20 */
	"    launches:\n"                                                           /* 21 */
	"      - repeat: CHUNKS\n"                                                  /* 22 */
	"        as: c\n"                                                           /* 23 */
	"        steps:\n"                                                          /* 24 */
	"          - copy: { dst: d, src: h, offset: \"c * chunk\", count: \"min(chunk, n - c * chunk)\", stream: 1 }\n" /* 25 */
	"          - { grid: \"ceil_div(min(chunk, n - c * chunk), 32)\", block: 32, args: [d, \"i64(c * chunk)\"] }\n" /* 26 */
	"          - copy: { dst: o, src: d, offset: \"c * chunk\", count: \"min(chunk, n - c * chunk)\", stream: 1 }\n" /* 27 */
	"      - copy: { dst: o, src: d, count: \"n - 2\" }\n";                    /* 28 */

static void test_chunks_and_stage_model(void **state)
{
	(void)state;
	char err[1024];
	lesson *l = lesson_load_buffer("ch.yaml", chunks, strlen(chunks), NULL, err, sizeof err);
	if (!l) fail_msg("%s", err);
	plan p;
	plan_setting sets[2];
	/* the default: 4 chunks of 1024, 3 steps each, then the last copy */
	assert_int_equal(plan_make(&p, l, 0, NULL, 0, &dev48k, err, sizeof err), 0);
	assert_int_equal(p.nlaunches, 13);
	assert_true(p.flops == 2.0 * 7 * 4096);       /* the stage's model, its tunable R */
	assert_true(p.bytes == 8.0 * 4096);           /* the lesson's bytes */
	plan_free(&p);
	plan_setting_parse("R=8", &sets[0], err, sizeof err);
	assert_int_equal(plan_make(&p, l, 0, sets, 1, &dev48k, err, sizeof err), 0);
	assert_true(p.flops == 2.0 * 17 * 4096);
	plan_free(&p);
	/* n = 5: chunks 2, 2, 1, -1: the last chunk's copies and kernel are dropped */
	plan_setting_parse("n=5", &sets[0], err, sizeof err);
	assert_int_equal(plan_make(&p, l, 0, sets, 1, &dev48k, err, sizeof err), 0);
	assert_int_equal(p.nlaunches, 3 * 3 + 1);
	plan_free(&p);
	/* n = 1, 16 chunks: one chunk of 1, fifteen empty ones; outside the block, n - 2 = -1 is an error */
	plan_setting_parse("n=1", &sets[0], err, sizeof err);
	plan_setting_parse("CHUNKS=16", &sets[1], err, sizeof err);
	assert_int_equal(plan_make(&p, l, 0, sets, 2, &dev48k, err, sizeof err), -1);
	plan_free(&p);
	assert_non_null(strstr(err, "ch.yaml:28:9: copy d>o: count is -1"));
	/* check's edge sizes find it without a setting; the default plans */
	assert_int_equal(plan_edges(l, 0, NULL, 0, &dev48k, err, sizeof err), -1);
	assert_non_null(strstr(err, "ch.yaml:28:9: copy d>o: count is -1"));
	assert_non_null(strstr(err, "(at n=1)"));
	plan_edge e[PLAN_MAX_EDGES];
	int ne = plan_edge_sizes(l, 0, &dev48k, e, PLAN_MAX_EDGES);
	assert_int_equal(ne, 2);
	assert_string_equal(e[0].what, "n=1");
	assert_string_equal(e[1].what, "n=4093");     /* the largest prime not above the default */
	lesson_free(l);
	/* outside a repeat block a grid of 0 is an error, as before */
	char *bad = calloc(sizeof chunks + 64, 1);
	memcpy(bad, chunks, sizeof chunks);
	char *at = strstr(bad, "      - copy: { dst: o, src: d, count: \"n - 2\" }\n");
	strcpy(at, "      - { grid: \"n - n\", block: 32, args: [d, \"i64(0)\"] }\n");   /* the last line: room after it */
	l = lesson_load_buffer("ch.yaml", bad, strlen(bad), NULL, err, sizeof err);
	if (!l) fail_msg("%s", err);
	assert_int_equal(plan_make(&p, l, 0, NULL, 0, &dev48k, err, sizeof err), -1);
	plan_free(&p);
	assert_non_null(strstr(err, "ch.yaml:28:9: launch of k has grid 0x1x1"));
	lesson_free(l);
	free(bad);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_arg_abi), cmocka_unit_test(test_v2_plan),
		cmocka_unit_test(test_defaults),      cmocka_unit_test(test_overrides),
		cmocka_unit_test(test_refusals),      cmocka_unit_test(test_grid_limits), cmocka_unit_test(test_pdl), cmocka_unit_test(test_byte_counts),
		cmocka_unit_test(test_baseline),      cmocka_unit_test(test_named_baseline), cmocka_unit_test(test_main_launch), cmocka_unit_test(test_tolerance_exprs),      cmocka_unit_test(test_setting_parse), cmocka_unit_test(test_inputs_text),
		cmocka_unit_test(test_tensormaps),   cmocka_unit_test(test_occupancy_values),
		cmocka_unit_test(test_bandwidth),
		cmocka_unit_test(test_chunks_and_stage_model),
		cmocka_unit_test(test_refusal_numbers), cmocka_unit_test(test_find_fit),
		cmocka_unit_test(test_default_expr), cmocka_unit_test(test_make_fit),      cmocka_unit_test(test_value_api),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
