/* Tests for src/lesson/plan_wire.c: plans made by plan_make (a stage with a memset, a scratch buffer and
 * arguments of every type; the baseline; tensor maps) written and read back are the same plan, value
 * for value; broken texts are refused with the line and what is wrong. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lesson.h"
#include "plan.h"
#include "plan_wire.h"

static const char text[] =
	"lesson: w\ntitle: W\nsummary: s\n"
	"params:\n"
	"  n: { default: \"1 << 12\", min: 1, max: \"1 << 20\" }\n"
	"  a: { type: f32, default: 1.1 }\n"
	"derived:\n  half: \"n / 2\"\n"
	"buffers:\n"
	"  x: { type: f32, count: n, init: { random: [-1, 0.3] } }\n"
	"  idx: { type: i32, count: half, init: iota }\n"
	"  z: { type: f64, count: n, output: true }\n"
	"  c: { type: bf16, count: 64, init: { constant: 0.1 } }\n"
	"  hx: { type: f32, count: n, host: pageable, init: { random: [0, 1] } }\n"
	"  hy: { type: f32, count: n, host: pinned, output: true }\n"
	"  w: { type: f32, count: 9, init: { expr: \"exp(-float((i - 4) * (i - 4)) / 8.0) / 3\" } }\n"
	"  img: { type: u8, count: 4096, init: iota }\n"
	"  hk: { type: u32, count: n, init: { random: [0, 65535], hot: \"a / 4\" } }\n"
	"model: { bytes: \"12 * n\", flops: \"n / 3.0\", peak: bf16_tensor, traffic: read }\n"
	"check: { reference: main, compare: [z], tolerance: { rel: 1e-5, abs: 1e-7 } }\n"
	"baseline:\n  title: copy\n  library: memcpy\n  args: { dst: z, src: x, bytes: \"4 * n\" }\n"
	"stages:\n"
	"  - id: main\n    title: Main\n    kernel: k.cu\n    entry: k\n    explain: e\n    bottleneck: b\n"
	"    tunables:\n      BLOCK: { values: [32, 64, 128, 256], default: 256 }\n"
	"    buffers:\n      partial: { type: f32, count: \"ceil_div(n, BLOCK)\" }\n"
	"    launches:\n"
	"      - memset: { buffer: partial, value: 7 }\n"
	"      - grid: [\"ceil_div(n, BLOCK)\", 3, 1]\n"
	"        block: BLOCK\n"
	"        shared: \"BLOCK * 4\"\n"
	"        args: [x, z, partial, \"f32(a)\", \"i64(-n)\", \"i32(-5)\", \"u32(half)\", \"f64(a / 3)\", \"u64(sm_count)\"]\n"
	"      - { grid: 1, block: [32, 2, 2], entry: finish, pdl: true, args: [partial] }\n"
	"  - id: tma\n    title: T\n    kernel: k.cu\n    entry: k\n    explain: e\n    bottleneck: b\n"
	"    tolerance: { norm: 0.05 }\n"
	"    peak: fp8_tensor\n"
	"    timing: { clock: host, sync: false, warmup: 0, runs: 3, l2: warm, stat: first }\n"
	"    buffers: { G: { type: bf16, count: 4096 } }\n"
	"    launches:\n"
	"      - { grid: 1, block: 128, args: [{ tensormap: G, dims: [64, 8, 8], box: [64, 4, 1], swizzle: 128 }, z] }\n"
	"  - id: v2\n    title: V\n    kernel: k.cu\n    entry: k\n    explain: e\n    bottleneck: b\n"
	"    options: [\"-rdc=true\"]\n"
	"    memory: { hx: pinned }\n"
	"    tunables: { CH: { values: [3, 4], default: 3 } }\n"
	"    buffers: { dx: { type: f32, count: n }, t: { type: f32, count: 5, init: { expr: \"i * CH\" } } }\n"
	"    constants:\n"
	"      - { symbol: c_w, buffer: w, count: 7 }\n"
	"      - { symbol: c_h, type: f16, count: 3, value: \"1.5 * i\" }\n"
	"      - { symbol: c_n, type: i64, value: n }\n"
	"    launches:\n"
	"      - repeat: CH\n        as: k\n        steps:\n"
	"          - copy: { dst: dx, src: hx, offset: \"k * ceil_div(n, CH)\", count: \"min(ceil_div(n, CH), n - k * ceil_div(n, CH))\", stream: \"1 + k % 2\" }\n"
	"          - { grid: 4, block: 32, stream: \"1 + k % 2\", args: [dx, \"i64(k)\", { texture: img, dims: [64, 8], pitch: 128, filter: linear, read: normalized, address: border }, { texture: w, dims: [9] }] }\n"
	"          - copy: { dst: hy, src: dx, offset: \"k * ceil_div(n, CH)\", count: \"min(ceil_div(n, CH), n - k * ceil_div(n, CH))\", stream: \"1 + k % 2\" }\n"
	"          - { record: chunk, stream: \"1 + k % 2\" }\n"
	"      - { wait: chunk, stream: 3 }\n"
	"      - memset: { buffer: z, value: 0, stream: 3 }\n"
	"  - id: lib\n    title: L\n    kernel: k.cu\n    entry: k\n    explain: e\n    bottleneck: b\n"
	"    buffers: { S: { type: f32, count: 64 } }\n"
	"    launches:\n"
	"      - { library: cublas_gemm_batched, stream: 2, args: { A: c, B: c, C: S, m: 8, n: 8, k: 1, batch: 1, transb: 1, alpha: \"1.0 / sqrt(4.0)\" } }\n"
	"      - { grid: 1, block: 32, args: [S] }\n";

static const plan_device dev = { .sm_count = 132, .warp_size = 32, .max_threads_per_block = 1024, .cc = 90,
                                 .l2_bytes = 50 << 20, .max_shared_per_block = 227 * 1024 };
static lesson *L;

static int setup(void **state)
{
	(void)state;
	char err[512];
	L = lesson_load_buffer("w.yaml", text, strlen(text), NULL, err, sizeof err);
	if (!L) fprintf(stderr, "%s\n", err);
	return L ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	lesson_free(L);
	return 0;
}

static void same_value(expr_value a, expr_value b)
{
	assert_int_equal(a.kind, b.kind);
	if (a.kind == EXPR_INT) assert_true(a.i == b.i);
	else assert_memory_equal(&a.f, &b.f, sizeof a.f);   /* bit for bit */
}

static void same_arg(const plan_arg *a, const plan_arg *b)
{
	assert_int_equal(a->kind, b->kind);
	if (a->name || b->name) assert_string_equal(a->name, b->name);
	if (a->kind != ARG_VALUE) assert_string_equal(a->buffer, b->buffer);
	if (a->kind == ARG_TENSORMAP) {
		assert_int_equal(a->tm.type, b->tm.type);
		assert_int_equal(a->tm.data_type, b->tm.data_type);
		assert_int_equal(a->tm.rank, b->tm.rank);
		assert_int_equal(a->tm.swizzle, b->tm.swizzle);
		for (int i = 0; i < a->tm.rank; i++) {
			assert_true(a->tm.dims[i] == b->tm.dims[i]);
			assert_true(i == 0 || a->tm.strides[i] == b->tm.strides[i]);
			assert_int_equal(a->tm.box[i], b->tm.box[i]);
		}
	}
	if (a->kind == ARG_TEXTURE) assert_memory_equal(&a->tex, &b->tex, sizeof a->tex);
	if (a->kind == ARG_VALUE) {
		assert_int_equal(a->type, b->type);
		assert_memory_equal(&a->v, &b->v, a->type == AT_I32 || a->type == AT_U32 || a->type == AT_F32 ? 4 : 8);
	}
}

/* What a run reads of a plan, compared field by field. */
static void same_plan(const plan *a, const plan *b)
{
	assert_int_equal(a->stage, b->stage);
	assert_string_equal(a->lesson_path, b->lesson_path);
	assert_int_equal(a->peak, b->peak);
	assert_int_equal(a->traffic, b->traffic);
	assert_memory_equal(&a->timing, &b->timing, sizeof a->timing);
	assert_int_equal(a->check, b->check);
	assert_int_equal(a->exact, b->exact);
	assert_memory_equal(&a->rel_tol, &b->rel_tol, sizeof a->rel_tol);
	assert_memory_equal(&a->abs_tol, &b->abs_tol, sizeof a->abs_tol);
	assert_memory_equal(&a->norm_tol, &b->norm_tol, sizeof a->norm_tol);
	assert_int_equal(a->ncompare, b->ncompare);
	for (int i = 0; i < a->ncompare; i++) assert_string_equal(a->compare[i], b->compare[i]);
	assert_memory_equal(&a->bytes, &b->bytes, sizeof a->bytes);
	assert_memory_equal(&a->flops, &b->flops, sizeof a->flops);
	assert_true(a->working_set == b->working_set);
	assert_int_equal(a->uses_occ, b->uses_occ);
	assert_int_equal(a->nvars, b->nvars);
	for (int i = 0; i < a->nvars; i++) {
		assert_string_equal(a->vars[i].name, b->vars[i].name);
		same_value(a->vars[i].v, b->vars[i].v);
	}
	assert_int_equal(a->first_param, b->first_param);
	assert_int_equal(a->nparams, b->nparams);
	assert_int_equal(a->nbuffers, b->nbuffers);
	for (int i = 0; i < a->nbuffers; i++) {
		const plan_buffer *x = &a->buffers[i], *y = &b->buffers[i];
		assert_string_equal(x->name, y->name);
		assert_int_equal(x->type, y->type);
		assert_true(x->count == y->count);
		assert_int_equal(x->output, y->output);
		assert_int_equal(x->scratch, y->scratch);
		assert_int_equal(x->init, y->init);
		assert_memory_equal(&x->a, &y->a, sizeof x->a);
		assert_true(x->rows == y->rows && x->cols == y->cols);
		if (x->copy_of || y->copy_of) assert_string_equal(x->copy_of, y->copy_of);
		assert_memory_equal(&x->b, &y->b, sizeof x->b);
		assert_int_equal(x->memory, y->memory);
		assert_memory_equal(&x->hot, &y->hot, sizeof x->hot);
		assert_int_equal(!x->values, !y->values);
		if (x->values) assert_memory_equal(x->values, y->values, (size_t)x->count * sizeof *x->values);
	}
	assert_int_equal(a->nstreams, b->nstreams);
	assert_memory_equal(&a->h2d_bytes, &b->h2d_bytes, sizeof a->h2d_bytes);
	assert_memory_equal(&a->d2h_bytes, &b->d2h_bytes, sizeof a->d2h_bytes);
	assert_int_equal(a->rdc, b->rdc);
	assert_int_equal(a->main_launch, b->main_launch);
	assert_int_equal(a->nconstants, b->nconstants);
	for (int i = 0; i < a->nconstants; i++) {
		const plan_constant *x = &a->constants[i], *y = &b->constants[i];
		assert_string_equal(x->symbol, y->symbol);
		assert_int_equal(x->type, y->type);
		assert_true(x->count == y->count && x->nbytes == y->nbytes);
		assert_int_equal(!x->bytes, !y->bytes);
		if (x->bytes) assert_memory_equal(x->bytes, y->bytes, x->nbytes);
		else assert_string_equal(x->buffer, y->buffer);
	}
	assert_int_equal(a->nlaunches, b->nlaunches);
	for (int i = 0; i < a->nlaunches; i++) {
		const plan_launch *x = &a->launches[i], *y = &b->launches[i];
		assert_int_equal(x->kind, y->kind);
		assert_int_equal(x->stream, y->stream);
		assert_int_equal(x->pdl, y->pdl);
		if (x->kind == STEP_COPY) {
			assert_string_equal(x->buffer, y->buffer);
			assert_string_equal(x->src, y->src);
			assert_true(x->dst_off == y->dst_off && x->src_off == y->src_off && x->bytes == y->bytes);
			continue;
		}
		if (x->kind == STEP_MEMSET) { assert_string_equal(x->buffer, y->buffer); assert_int_equal(x->value, y->value); continue; }
		if (x->kind == STEP_RECORD || x->kind == STEP_WAIT) { assert_string_equal(x->entry, y->entry); assert_int_equal(x->event, y->event); continue; }
		assert_string_equal(x->entry, y->entry);
		assert_memory_equal(x->grid, y->grid, sizeof x->grid);
		assert_memory_equal(x->block, y->block, sizeof x->block);
		assert_int_equal(x->shared, y->shared);
		assert_int_equal(x->nargs, y->nargs);
		for (int k = 0; k < x->nargs; k++) same_arg(&x->args[k], &y->args[k]);
	}
}

/* Plans stage with sets, writes it, reads it back and compares; the text written again is the same. */
static void round_trip(int stage, const char *set)
{
	plan_setting s;
	char err[512] = "";
	int n = 0;
	if (set) { assert_int_equal(plan_setting_parse(set, &s, err, sizeof err), 0); n = 1; }
	plan p, q;
	if (plan_make(&p, L, stage, &s, n, &dev, err, sizeof err)) fail_msg("plan_make: %s", err);
	sb t = {0}, u = {0};
	plan_wire_write(&t, &p);
	if (plan_wire_read(&q, t.s, t.len, err, sizeof err)) fail_msg("plan_wire_read: %s\n%s", err, t.s);
	assert_null(q.l);
	same_plan(&p, &q);
	plan_wire_write(&u, &q);
	assert_string_equal(t.s, u.s);
	sb_free(&t);
	sb_free(&u);
	plan_free(&p);
	plan_free(&q);
}

static void test_round_trip(void **state)
{
	(void)state;
	round_trip(0, NULL);
	round_trip(0, "BLOCK=64");
	round_trip(0, "a=0.1");
	round_trip(-1, NULL);
	round_trip(1, NULL);
	round_trip(2, NULL);
	round_trip(2, "CH=4");
	round_trip(2, "n=4001");
	round_trip(3, NULL);
}

/* A stage's own tolerance and peak replace the lesson's in its plan and in no other stage's; norm
 * alone leaves the element-wise check open (abs infinite) and travels on the wire. */
static void test_stage_tolerance(void **state)
{
	(void)state;
	plan p;
	char err[256];
	assert_int_equal(plan_make(&p, L, 1, NULL, 0, &dev, err, sizeof err), 0);
	assert_true(p.norm_tol == 0.05 && isinf(p.abs_tol) && p.rel_tol == 0 && !p.exact);
	assert_int_equal(p.peak, PEAK_FP8_TENSOR);   /* the stage's own peak: */
	sb t = {0};
	plan_wire_write(&t, &p);
	assert_non_null(strstr(t.s, "\ntolerance 0 0 inf 0.050000000000000003\n"));
	free(t.s);
	plan_free(&p);
	assert_int_equal(plan_make(&p, L, 0, NULL, 0, &dev, err, sizeof err), 0);
	assert_true(p.norm_tol == 0 && p.abs_tol == 1e-7 && p.rel_tol == 1e-5);
	assert_int_equal(p.peak, PEAK_BF16_TENSOR);  /* the lesson's model's */
	plan_free(&p);
}

/* A library step: its line names the library, its arguments and its stream, and the step shows as
 * kind "library" with the library's name. */
static void test_library_step(void **state)
{
	(void)state;
	plan p;
	char err[256];
	assert_int_equal(plan_make(&p, L, 3, NULL, 0, &dev, err, sizeof err), 0);
	assert_int_equal(p.launches[0].kind, STEP_LIBRARY);
	assert_int_equal(p.nstreams, 3);
	sb t = {0};
	plan_wire_write(&t, &p);
	assert_non_null(strstr(t.s, "\nlibrary cublas_gemm_batched 9 2\narg A buffer c\narg B buffer c\narg C buffer S\narg m value i64 8\n"));
	assert_non_null(strstr(t.s, "\narg alpha value f64 0.5"));
	run_result r;
	run_result_init(&r);
	plan_result_steps(&p, &r);
	assert_int_equal(r.nsteps, 2);
	assert_string_equal(r.steps[0].kind, "library");
	assert_string_equal(r.steps[0].entry, "cublas_gemm_batched");
	assert_int_equal(r.steps[0].stream, 2);
	assert_string_equal(r.steps[1].kind, "launch");
	run_result_clear(&r);
	sb_free(&t);
	plan_free(&p);
}

/* The text carries the values themselves: a few lines checked by eye. */
static void test_text(void **state)
{
	(void)state;
	plan p;
	char err[256];
	assert_int_equal(plan_make(&p, L, 0, NULL, 0, &dev, err, sizeof err), 0);
	sb t = {0};
	plan_wire_write(&t, &p);
	assert_non_null(strstr(t.s, "plan 2\nstage 0\nlesson w.yaml\npeak bf16_tensor\ncheck 1\n"));
	assert_int_equal(p.traffic, TRAFFIC_READ);           /* the lesson's traffic: read, carried */
	assert_non_null(strstr(t.s, "\nrdc 0\nmain 1\ntraffic read\n"));   /* the stage's kernel: step 2, after the memset */
	assert_non_null(strstr(t.s, "\nmemset partial 7 0\nlaunch k 16 3 1 256 1 1 1024 9 0 0\narg - buffer x\n"));
	assert_non_null(strstr(t.s, "\narg - value i64 -4096\narg - value i32 -5\narg - value u32 2048\n"));
	assert_non_null(strstr(t.s, "\narg - value u64 132\nlaunch finish 1 1 1 32 2 2 0 1 0 1\narg - buffer partial\nend\n"));
	sb_free(&t);
	plan_free(&p);
}

/* init: { random, hot }: the share is an expression over the parameters, travels on a line of its
 * own (only where it is not 0), and is refused outside 0..1, on a buffer that is not random, and
 * without random. */
static void test_hot(void **state)
{
	(void)state;
	plan p;
	char err[256];
	plan_setting a = { .name = "a", .value = "8" };
	assert_int_equal(plan_make(&p, L, 0, NULL, 0, &dev, err, sizeof err), 0);
	const plan_buffer *hk = NULL, *x = NULL;
	for (int i = 0; i < p.nbuffers; i++) {
		if (!strcmp(p.buffers[i].name, "hk")) hk = &p.buffers[i];
		if (!strcmp(p.buffers[i].name, "x")) x = &p.buffers[i];
	}
	assert_non_null(hk);
	assert_non_null(x);
	assert_true(hk->hot > 0.274 && hk->hot < 0.276);
	assert_true(x->hot == 0);
	sb t = {0};
	plan_wire_write(&t, &p);
	assert_non_null(strstr(t.s, "\nbuffer hk u32 4096 0 0 1 0 65535 device\nhot hk 0.27"));
	assert_null(strstr(t.s, "hot x"));
	char words[512];
	plan_result_inputs(&p, 1, words, sizeof words);
	assert_non_null(strstr(words, "hk: u32, uniform integers in [0, 65535], 27.5% of them 0"));
	sb_free(&t);
	plan_free(&p);
	assert_int_equal(plan_make(&p, L, 0, &a, 1, &dev, err, sizeof err), -1);   /* a / 4 = 2: not a share */
	plan_free(&p);
	assert_non_null(strstr(err, "buffer hk: hot is"));
	char bad_lesson[sizeof text + 16];
	const char *at = strstr(text, "random: [0, 65535]");
	snprintf(bad_lesson, sizeof bad_lesson, "%.*sconstant: 1%s", (int)(at - text), text, at + strlen("random: [0, 65535]"));
	assert_null(lesson_load_buffer("b.yaml", bad_lesson, strlen(bad_lesson), NULL, err, sizeof err));
	if (!strstr(err, "hot goes with random")) fail_msg("%s", err);
}

static const char good[] =
	"plan 2\nstage 0\nlesson l.yaml\npeak fp32\ncheck 1\ntolerance 0 1e-05 0 0\ncompare y\nmodel 8 0 64\nuses_occ 0\n"
	"var n i 8\nparams 0 1\nbuffer y f32 8 1 0 0 0 0 device\nmemset y 0 0\nlaunch k 1 1 1 32 1 1 0 2 0 0\narg - buffer y\narg - value i32 8\nend\n";

/* good with the first occurrence of from replaced by to, read: refused with msg. */
static void refused_at(const char *from, const char *to, const char *msg, int line)
{
	char t[2048], err[256] = "";
	const char *at = strstr(good, from);
	if (!at) fail_msg("line %d: '%s' is not in the text", line, from);
	snprintf(t, sizeof t, "%.*s%s%s", (int)(at - good), good, to, at + strlen(from));
	plan p;
	int r = plan_wire_read(&p, t, strlen(t), err, sizeof err);
	plan_free(&p);
	if (r == 0) fail_msg("line %d: read, expected \"%s\"", line, msg);
	if (strcmp(err, msg)) fail_msg("line %d: got \"%s\"\n  expected \"%s\"", line, err, msg);
}
#define refused(from, to, msg) refused_at((from), (to), (msg), __LINE__)

/* A stage's own timing: on the wire as one line, only where the stage has one; read back the same; a
 * broken line refused with what it takes. */
static void test_timing(void **state)
{
	(void)state;
	plan p;
	char err[256];
	assert_int_equal(plan_make(&p, L, 1, NULL, 0, &dev, err, sizeof err), 0);
	assert_true(p.timing.set && p.timing.clock == TIMING_HOST && !p.timing.sync && p.timing.warmup == 0 && p.timing.runs == 3 &&
	            p.timing.l2_warm && p.timing.stat == TIMING_FIRST);
	sb t = {0};
	plan_wire_write(&t, &p);
	assert_non_null(strstr(t.s, "\ntiming host 0 0 3 warm first\n"));
	plan q;
	assert_int_equal(plan_wire_read(&q, t.s, t.len, err, sizeof err), 0);
	assert_memory_equal(&q.timing, &p.timing, sizeof p.timing);
	plan_free(&q);
	sb_free(&t);
	plan_free(&p);
	assert_int_equal(plan_make(&p, L, 0, NULL, 0, &dev, err, sizeof err), 0);   /* a stage without: the tool's method */
	assert_int_equal(p.timing.set, 0);
	plan_wire_write(&t, &p);
	assert_null(strstr(t.s, "\ntiming "));
	assert_int_equal(plan_wire_read(&q, t.s, t.len, err, sizeof err), 0);
	assert_int_equal(q.timing.set, 0);
	assert_int_equal(q.timing.warmup, -1);   /* read back as the default, not as zeros */
	plan_free(&q);
	sb_free(&t);
	plan_free(&p);
}

static void test_refused(void **state)
{
	(void)state;
	plan p;
	char err[256];
	assert_int_equal(plan_wire_read(&p, good, strlen(good), err, sizeof err), 0);
	assert_int_equal(p.nlaunches, 2);
	assert_int_equal(p.launches[1].args[1].v.i32, 8);
	assert_int_equal(p.traffic, TRAFFIC_COPY);   /* no traffic line: the copy bandwidth */
	plan_free(&p);
	refused("uses_occ 0\n", "uses_occ 0\ntiming host 0\n",
	        "plan line 10: timing takes CLOCK SYNC WARMUP RUNS L2 STAT (events|host 0|1 N N flush|warm median|first|mean)");
	refused("uses_occ 0\n", "uses_occ 0\ntiming gpu 1 -1 0 flush median\n",
	        "plan line 10: timing takes CLOCK SYNC WARMUP RUNS L2 STAT (events|host 0|1 N N flush|warm median|first|mean)");
	refused("uses_occ 0\n", "uses_occ 0\ntiming host 1 -1 0 cold median\n",
	        "plan line 10: timing takes CLOCK SYNC WARMUP RUNS L2 STAT (events|host 0|1 N N flush|warm median|first|mean)");
	refused("uses_occ 0\n", "uses_occ 0\ntiming host 1 -2 0 flush median\n", "plan line 10: '-2' is not a whole number from -1 to 1000");
	refused("uses_occ 0\n", "uses_occ 0\ntiming host 1 -1 10001 flush median\n", "plan line 10: '10001' is not a whole number from 0 to 10000");
	refused("plan 2\n", "plan 1\n", "plan line 1: not a plan of this version (\"plan 2\")");
	refused("end\n", "", "plan line 17: the text ends before \"end\"");
	refused("end\n", "end\nstage 1\n", "plan line 18: text after the end");
	refused("arg - value i32 8\n", "", "plan line 16: launch k wants 1 more arg lines");
	refused("memset y 0 0", "memset q 0 0", "plan line 13: no buffer named 'q'");
	refused("arg - buffer y", "arg - buffer w", "plan line 15: no buffer named 'w'");
	refused("i32 8", "i32 3000000000", "plan line 16: '3000000000' is not a whole number from -2147483648 to 2147483647");
	refused("i32 8", "s32 8", "plan line 16: 's32' is not a value type");
	refused("launch k 1 1 1 32 1 1 0 2 0 0", "launch k 0 1 1 32 1 1 0 2 0 0", "plan line 14: '0' is not a whole number from 1 to 2147483647");
	refused("launch k 1 1 1 32 1 1 0 2 0 0", "launch k 1 1 1 32", "plan line 14: a launch has 12 fields, not 6");
	refused("launch k 1 1 1 32 1 1 0 2 0 0", "launch k 1 1 1 32 1 1 0 2 0 2", "plan line 14: '2' is not a whole number from 0 to 1");
	refused("buffer y f32 8", "buffer y f31 8", "plan line 12: 'f31' is not a buffer type");
	refused("buffer y f32 8", "buffer y f32 0", "plan line 12: '0' is not a whole number from 1 to 576460752303423487");
	refused("peak fp32", "peak fp99", "plan line 4: peak 'fp99' is not one this build knows");
	refused("uses_occ 0\n", "uses_occ 0\ntraffic write\n", "plan line 10: traffic 'write' is not one this build knows");
	refused("uses_occ 0\n", "uses_occ 0\ntraffic\n", "plan line 10: traffic '' is not one this build knows");
	refused("model 8 0 64", "model 8 zero 64", "plan line 8: 'zero' is not a number");
	refused("device\n", "device\nhot y 0.5\n", "plan line 13: hot for buffer y, which is not random");
	refused("device\n", "device\nhot q 0.5\n", "plan line 13: no buffer named 'q'");
	refused("params 0 1", "params 0 2", "plan line 11: '2' is not a whole number from 0 to 1");
	refused("stage 0\n", "", "plan line 16: no stage");
	refused("stage 0", "stage -1", "plan line 17: a baseline has one library call, not 2");
	/* found by fuzz_plan: a launch read under "stage -1" (grid 0 allowed) and then "stage 0" wrote a
	 * plan that did not read back */
	refused("end\n", "stage 0\nend\n", "plan line 17: a second stage line");
	const char late[] = "plan 2\nmemset y 0 0\nstage 0\nend\n";
	assert_int_equal(plan_wire_read(&p, late, sizeof late - 1, err, sizeof err), -1);
	plan_free(&p);
	assert_true(strstr(err, "the stage after the steps") || strstr(err, "no buffer named"));
	refused("uses_occ 0", "frobnicate 0", "plan line 9: 'frobnicate' is not part of a plan");
	refused("var n i 8\n", "var n i 8\n\n", "plan line 11: an empty line");
	char nul[] = "plan 2\nstage 0\0\nend\n";
	assert_int_equal(plan_wire_read(&p, nul, sizeof nul - 1, err, sizeof err), -1);
	assert_string_equal(err, "plan line 0: a NUL byte in the text");
	plan_free(&p);
}

static const char good2[] =
	"plan 2\nstage 0\nlesson l.yaml\npeak fp32\ncheck 1\ntolerance 0 1e-05 0 0\ncompare hy\nmodel 8 0 64\nuses_occ 0\n"
	"streams 3\ncopied 32 32\nrdc 1\nvar n i 8\nparams 0 1\n"
	"buffer hx f32 8 0 0 1 0 1 pageable\nbuffer hy f32 8 1 0 0 0 0 pinned\nbuffer d f32 8 0 1 4 0 0 device\n"
	"buffer w f32 3 0 0 5 0 0 device\nvalues w 3 0.5 1 0.5\n"
	"constant c_w f32 3 12 buffer w\nconstant c_n i32 1 4 bytes 08000000\n"
	"copy d hx 0 0 16 1\ncopy d hx 16 16 16 2\nmemset d 0 2\n"
	"launch k 1 1 1 32 1 1 0 2 1 0\narg - buffer d\narg - texture w f32 1 3 1 0 point clamp 0 0\n"
	"copy hy d 0 0 32 0\nrecord done 0 2\nwait done 0 1\nend\n";

/* good2 with from replaced by to: refused with msg. */
static void refused2_at(const char *from, const char *to, const char *msg, int line)
{
	char t[4096], err[256] = "";
	const char *at = strstr(good2, from);
	if (!at) fail_msg("line %d: '%s' is not in the text", line, from);
	snprintf(t, sizeof t, "%.*s%s%s", (int)(at - good2), good2, to, at + strlen(from));
	plan p;
	int r = plan_wire_read(&p, t, strlen(t), err, sizeof err);
	plan_free(&p);
	if (r == 0) fail_msg("line %d: read, expected \"%s\"", line, msg);
	if (strcmp(err, msg)) fail_msg("line %d: got \"%s\"\n  expected \"%s\"", line, err, msg);
}
#define refused2(from, to, msg) refused2_at((from), (to), (msg), __LINE__)

/* The v2 lines: read into the plan, and every broken one refused. */
static void test_v2_lines(void **state)
{
	(void)state;
	plan p;
	char err[256];
	if (plan_wire_read(&p, good2, strlen(good2), err, sizeof err)) fail_msg("%s", err);
	assert_int_equal(p.nstreams, 3);
	assert_true(p.h2d_bytes == 32 && p.d2h_bytes == 32);
	assert_int_equal(p.rdc, 1);
	assert_int_equal(p.buffers[0].memory, MEM_PAGEABLE);
	assert_int_equal(p.buffers[1].memory, MEM_PINNED);
	assert_true(p.buffers[3].values[1] == 1.0);
	assert_int_equal(p.nconstants, 2);
	assert_string_equal(p.constants[0].buffer, "w");
	assert_memory_equal(p.constants[1].bytes, ((unsigned char[]){ 8, 0, 0, 0 }), 4);
	assert_int_equal(p.nlaunches, 7);
	assert_true(p.launches[5].kind == STEP_RECORD && p.launches[6].kind == STEP_WAIT && p.launches[6].stream == 1);
	assert_int_equal(p.launches[1].kind, STEP_COPY);
	assert_true(p.launches[1].dst_off == 16 && p.launches[1].bytes == 16);
	assert_int_equal(p.launches[1].stream, 2);
	assert_int_equal(p.launches[3].args[1].kind, ARG_TEXTURE);
	assert_true(p.launches[3].args[1].tex.width == 3);
	plan_free(&p);
	refused2("streams 3", "streams 17", "plan line 10: '17' is not a whole number from 1 to 16");
	refused2("streams 3", "streams 2", "plan line 31: step 2 runs on stream 2 of 2");   /* checked at the end */
	refused2("copied 32 32", "copied -1 32", "plan line 11: copied bytes cannot be negative");
	refused2("rdc 1", "rdc 2", "plan line 12: '2' is not a whole number from 0 to 1");
	/* main: the stage's own kernel, a launch among the steps (checked at the end) */
	if (plan_wire_read(&p, good2, strlen(good2), err, sizeof err)) fail_msg("%s", err);
	assert_int_equal(p.main_launch, -1);   /* no main line: none, and plan_main_launch takes the first launch */
	assert_ptr_equal(plan_main_launch(&p), &p.launches[3]);
	plan_free(&p);
	refused2("rdc 1", "rdc 1\nmain -2", "plan line 13: '-2' is not a whole number from -1 to 1023");
	refused2("rdc 1", "rdc 1\nmain 0", "plan line 32: main names step 1, which is not a kernel launch of the 7 steps");
	refused2("rdc 1", "rdc 1\nmain 7", "plan line 32: main names step 8, which is not a kernel launch of the 7 steps");
	refused2("0 1 pageable", "0 1 host", "plan line 15: 'host' is not a kind of memory");
	refused2("buffer d f32 8 0 1 4 0 0 device", "buffer d f32 8 0 1 4 0 0 pinned", "plan line 17: scratch buffer d in host memory");
	refused2("values w 3 0.5 1 0.5\n", "", "plan line 19: buffer w wants its values line next");
	refused2("values w 3 0.5 1 0.5", "values w 3 0.5 1", "plan line 19: values for w end after 2 of 3");
	refused2("values w 3 0.5 1 0.5", "values w 3 0.5 1 0.5 2", "plan line 19: more than 3 values for w");
	refused2("values w 3 0.5 1 0.5", "values w 2 0.5 1", "plan line 19: 2 values for buffer w of 3 elements");
	refused2("values w 3 0.5 1 0.5", "values hx 3 0.5 1 0.5", "plan line 19: values for 'hx' after buffer w");
	refused2("values w 3 0.5 1 0.5", "values w 3 0.5 x 0.5", "plan line 19: 'x' is not a number");
	refused2("memset d 0 2\n", "memset d 0 2\nvalues w 1 1\n", "plan line 25: values with no init expr buffer just before them");
	refused2("constant c_w f32 3 12 buffer w", "constant c_w f32 3 16 buffer w", "plan line 20: constant c_w: 16 bytes for 3 f32");
	refused2("constant c_w f32 3 12 buffer w", "constant c_w f32 4 16 buffer w", "plan line 20: constant c_w does not fit device buffer w");
	refused2("constant c_w f32 3 12 buffer w", "constant c_w f32 3 12 buffer hx", "plan line 20: constant c_w does not fit device buffer hx");
	refused2("constant c_w f32 3 12 buffer w", "constant c_w f32 3 12 file w", "plan line 20: a constant comes from 'buffer' or 'bytes', not 'file'");
	refused2("bytes 08000000", "bytes 080000", "plan line 21: constant c_n: 6 hex digits for 4 bytes");
	refused2("bytes 08000000", "bytes 0800000G", "plan line 21: constant c_n: '0800000G' is not lower-case hex");
	refused2("constant c_n i32", "constant c_w i32", "plan line 21: constant c_w twice");
	refused2("copy d hx 0 0 16 1", "copy d hx 0 0 36 1", "plan line 22: copy hx>d reaches outside a buffer");
	refused2("copy d hx 0 0 16 1", "copy d hx 32 0 4 1", "plan line 22: copy hx>d reaches outside a buffer");
	refused2("copy d hx 0 0 16 1", "copy d hx 0 0 6 1", "plan line 22: copy hx>d of no whole f32 elements");
	refused2("copy d hx 0 0 16 1", "copy d hx 0 0 0 1", "plan line 22: copy hx>d of no whole f32 elements");
	refused2("copy d hx 0 0 16 1", "copy hy hx 0 0 16 1", "plan line 22: copy hx>hy between two host buffers");
	refused2("copy d hx 0 0 16 1", "copy d d 0 0 16 1", "plan line 22: copy d>d within one buffer");
	refused2("copy d hx 0 0 16 1", "copy d c_w 0 0 16 1", "plan line 22: no buffer named 'c_w'");
	refused2("copy d hx 0 0 16 1", "copy d hx 0 0 16 16", "plan line 22: '16' is not a whole number from 0 to 15");
	refused2("copy d hx 0 0 16 1", "copy d hx 0 0 16", "plan line 22: a copy has 7 fields, not 6");
	refused2("memset d 0 2", "memset hx 0 2", "plan line 24: memset of host buffer hx");
	refused2("launch k 1 1 1 32 1 1 0 2 1 0", "launch k 1 1 1 32 1 1 0 2 -1 0", "plan line 25: '-1' is not a whole number from 0 to 15");
	refused2("texture w f32 1 3 1 0", "texture w i32 1 3 1 0", "plan line 27: texture w is i32, its buffer f32");
	refused2("texture w f32 1 3 1 0", "texture w f32 1 3 2 0", "plan line 27: a 1D texture has height 1 and pitch 0");
	refused2("texture w f32 1 3 1 0", "texture w f32 1 4 1 0", "plan line 27: texture w is wider than its buffer");
	refused2("texture w f32 1 3 1 0", "texture w f32 2 3 1 8", "plan line 27: texture w does not lie inside its buffer");
	refused2("texture w f32 1 3 1 0", "texture w f32 3 3 1 0", "plan line 27: '3' is not a whole number from 1 to 2");
	refused2("point clamp", "cubic clamp", "plan line 27: 'cubic' is not a texture filter");
	refused2("point clamp", "point edge", "plan line 27: 'edge' is not a texture address mode");
	refused2("point clamp 0 0", "point clamp 0", "plan line 27: a texture arg has 13 fields, not 12");
	refused2("record done 0 2", "record done 16 2", "plan line 29: '16' is not a whole number from 0 to 15");
	refused2("record done 0 2", "record done 0 16", "plan line 29: '16' is not a whole number from 0 to 15");
	refused2("record done 0 2", "record done 0", "plan line 29: record takes NAME EVENT STREAM");
	refused2("record done 0 2", "record done 1 2", "plan line 30: wait for event 0, which no step before it records");
	refused2("wait done 0 1", "wait done 0 3", "plan line 31: step 7 runs on stream 3 of 3");
}

/* record: and wait: steps: planned with their event and stream, shown as steps named by the event; a
 * wait whose record a repeat block of 0 times left out is refused at the wait's place. */
static void test_events(void **state)
{
	(void)state;
	plan p;
	char err[512] = "";
	assert_int_equal(plan_make(&p, L, 2, NULL, 0, &dev, err, sizeof err), 0);
	int n = p.nlaunches;
	assert_int_equal(p.launches[n - 3].kind, STEP_RECORD);
	assert_int_equal(p.launches[n - 3].stream, 1);   /* k = 2 */
	assert_int_equal(p.launches[n - 2].kind, STEP_WAIT);
	assert_int_equal(p.launches[n - 2].stream, 3);
	assert_int_equal(p.launches[n - 2].event, 0);
	assert_string_equal(p.launches[n - 2].entry, "chunk");
	run_result r;
	run_result_init(&r);
	plan_result_steps(&p, &r);
	assert_string_equal(r.steps[n - 2].kind, "wait");
	assert_string_equal(r.steps[n - 2].entry, "chunk");
	assert_string_equal(r.steps[n - 3].kind, "record");
	run_result_clear(&r);
	plan_free(&p);
	static const char t0[] =
		"lesson: e\ntitle: E\nsummary: s\nparams:\n  m: { default: 1, min: 0 }\n"
		"buffers:\n  z: { type: f32, count: 8, output: true }\nmodel: { bytes: 32 }\n"
		"stages:\n  - id: s\n    title: S\n    kernel: k.cu\n    entry: k\n    explain: e\n    bottleneck: b\n"
		"    launches:\n"
		"      - repeat: m\n        as: i\n        steps: [{ record: e, stream: 1 }]\n"
		"      - { wait: e, stream: 2 }\n"
		"      - { grid: 1, block: 32, stream: 2, args: [z] }\n";
	lesson *l = lesson_load_buffer("e.yaml", t0, sizeof t0 - 1, NULL, err, sizeof err);
	if (!l) fail_msg("%s", err);
	plan_setting s;
	assert_int_equal(plan_make(&p, l, 0, NULL, 0, &dev, err, sizeof err), 0);
	assert_int_equal(p.nstreams, 3);
	plan_free(&p);
	assert_int_equal(plan_setting_parse("m=0", &s, err, sizeof err), 0);
	assert_int_equal(plan_make(&p, l, 0, &s, 1, &dev, err, sizeof err), -1);
	assert_string_equal(err, "e.yaml:20:9: wait e: no step before it records e at these settings (a repeat block before it ran 0 times?)");
	plan_free(&p);
	lesson_free(l);
}

/* pitch: { rows, cols } and init: { copy }: the rows, columns and source travel on a pitch line of
 * their own, the pitch argument as "pitch NAME"; the plan refuses a source smaller than rows x cols,
 * and the reader refuses a pitch line that does not fit its buffer. */
static const char ptext[] =
	"lesson: p\ntitle: P\nsummary: s\n"
	"params:\n  rows: { default: 5, min: 1 }\n  cols: { default: 7, min: 1 }\n  short: { default: 0, min: 0 }\n"
	"buffers:\n"
	"  x: { type: f32, count: \"rows * cols - short\", init: { random: [-1, 1] } }\n"
	"  z: { type: f32, count: \"rows * cols\", output: true }\n"
	"  p: { type: f32, pitch: { rows: rows, cols: cols }, init: { copy: x } }\n"
	"  q: { type: f32, pitch: { rows: 2, cols: 3 } }\n"
	"model: { bytes: \"8 * rows * cols\" }\n"
	"check: { reference: s, compare: [z], tolerance: exact }\n"
	"stages:\n"
	"  - id: s\n    title: S\n    kernel: k.cu\n    entry: k\n    explain: e\n    bottleneck: b\n"
	"    launches:\n      - { grid: 1, block: 32, args: [p, { pitch: p }, z, \"i32(rows)\"] }\n";

static void test_pitch(void **state)
{
	(void)state;
	char err[512] = "";
	lesson *pl = lesson_load_buffer("p.yaml", ptext, strlen(ptext), NULL, err, sizeof err);
	if (!pl) fail_msg("%s", err);
	plan p, q;
	if (plan_make(&p, pl, 0, NULL, 0, &dev, err, sizeof err)) fail_msg("plan_make: %s", err);
	const plan_buffer *pb = plan_buffer_get(&p, "p"), *qb = plan_buffer_get(&p, "q");
	assert_non_null(pb);
	assert_true(pb->rows == 5 && pb->cols == 7 && pb->count == 35);
	assert_int_equal(pb->init, INIT_COPY);
	assert_string_equal(pb->copy_of, "x");
	assert_true(qb->rows == 2 && qb->cols == 3 && qb->count == 6 && !qb->copy_of);
	assert_int_equal(p.launches[0].args[1].kind, ARG_PITCH);
	int size = 0;
	char kind = 0;
	plan_arg_abi(&p.launches[0].args[1], &size, &kind);
	assert_int_equal(size, 8);
	assert_int_equal(kind, 'i');
	sb t = {0}, u = {0};
	plan_wire_write(&t, &p);
	assert_non_null(strstr(t.s, "\nbuffer p f32 35 0 0 8 0 0 device\npitch p 5 7 x\n"));
	assert_non_null(strstr(t.s, "\npitch q 2 3 -\n"));
	assert_non_null(strstr(t.s, "\narg - pitch p\n"));
	if (plan_wire_read(&q, t.s, t.len, err, sizeof err)) fail_msg("plan_wire_read: %s\n%s", err, t.s);
	same_plan(&p, &q);
	plan_wire_write(&u, &q);
	assert_string_equal(t.s, u.s);
	char words[512];
	plan_result_inputs(&p, 1, words, sizeof words);
	if (!strstr(words, "p: f32, x's values in rows of 7, pitched")) fail_msg("%s", words);
	/* broken pitch lines */
	static const struct { const char *from, *to, *msg; } bad[] = {
		{ "pitch p 5 7 x", "pitch p 5 6 x", "plan line 29: pitch p: 5 x 6 is not its 35 elements" },
		{ "pitch p 5 7 x", "pitch p 5 7 z", "plan line 29: pitch p: cannot copy from 'z'" },
		{ "pitch p 5 7 x", "pitch p 5 7 -", "plan line 29: pitch p: init 8 does not go with its source" },
		{ "pitch p 5 7 x", "pitch z 5 7 x", "plan line 29: pitch for buffer z, which cannot be pitched" },
		{ "arg - pitch p", "arg - pitch x", "plan line 34: no pitched buffer named 'x'" },
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		const char *at = strstr(t.s, bad[i].from);
		assert_non_null(at);
		char *v = xmalloc(t.len + 64);
		snprintf(v, t.len + 64, "%.*s%s%s", (int)(at - t.s), t.s, bad[i].to, at + strlen(bad[i].from));
		plan r;
		int rc = plan_wire_read(&r, v, strlen(v), err, sizeof err);
		plan_free(&r);
		free(v);
		if (rc == 0) fail_msg("read, expected \"%s\"", bad[i].msg);
		if (strcmp(err, bad[i].msg)) fail_msg("got \"%s\"\n  expected \"%s\"", err, bad[i].msg);
	}
	sb_free(&t);
	sb_free(&u);
	plan_free(&p);
	plan_free(&q);
	/* a source shorter than rows x cols */
	plan_setting s = { .name = "short", .value = "1" };
	assert_int_equal(plan_make(&p, pl, 0, &s, 1, &dev, err, sizeof err), -1);
	plan_free(&p);
	if (!strstr(err, "p.yaml:11:3: buffer p: init copy from x needs rows x cols = 35 elements, x has 34")) fail_msg("%s", err);
	lesson_free(pl);
}

/* init: { copy } of a packed buffer (a host one here) and init: cycle: the copy's source travels on a
 * from line after its buffer; a cycle is INIT 9 with nothing more; the plan refuses a cycle whose count
 * is not a power of two (or too large for its type) and a source shorter than the copy, and the reader
 * refuses lines that do not fit. */
static const char ctext[] =
	"lesson: c\ntitle: C\nsummary: s\n"
	"params:\n  k: { default: 4, min: 0 }\n  n: { default: 16, min: 1 }\n  short: { default: 0, min: 0 }\n"
	"buffers:\n"
	"  nx: { type: u32, count: \"1 << k\", init: cycle }\n"
	"  x: { type: f32, count: \"n - short\", init: { random: [-1, 1] } }\n"
	"  hx: { type: f32, count: n, host: pinned, init: { copy: x } }\n"
	"  wide: { type: i64, count: 8, init: cycle }\n"
	"  z: { type: f32, count: n, output: true }\n"
	"model: { bytes: \"8 * n\" }\n"
	"check: { reference: s, compare: [z], tolerance: exact }\n"
	"stages:\n"
	"  - id: s\n    title: S\n    kernel: k.cu\n    entry: k\n    explain: e\n    bottleneck: b\n"
	"    launches:\n      - { grid: 1, block: 32, args: [nx, x, hx, z] }\n";

static void test_copy_cycle(void **state)
{
	(void)state;
	char err[512] = "";
	lesson *cl = lesson_load_buffer("c.yaml", ctext, strlen(ctext), NULL, err, sizeof err);
	if (!cl) fail_msg("%s", err);
	plan p, q;
	if (plan_make(&p, cl, 0, NULL, 0, &dev, err, sizeof err)) fail_msg("plan_make: %s", err);
	const plan_buffer *nb = plan_buffer_get(&p, "nx"), *hb = plan_buffer_get(&p, "hx");
	assert_true(nb && nb->init == INIT_CYCLE && nb->count == 16);
	assert_true(hb && hb->init == INIT_COPY && hb->rows == 0 && hb->memory == MEM_PINNED);
	assert_string_equal(hb->copy_of, "x");
	sb t = {0}, u = {0};
	plan_wire_write(&t, &p);
	assert_non_null(strstr(t.s, "\nbuffer nx u32 16 0 0 9 0 0 device\nbuffer x "));
	assert_non_null(strstr(t.s, "\nbuffer hx f32 16 0 0 8 0 0 pinned\nfrom hx x\n"));
	if (plan_wire_read(&q, t.s, t.len, err, sizeof err)) fail_msg("plan_wire_read: %s\n%s", err, t.s);
	same_plan(&p, &q);
	assert_string_equal(plan_buffer_get(&q, "hx")->copy_of, "x");
	plan_wire_write(&u, &q);
	assert_string_equal(t.s, u.s);
	char words[512];
	plan_result_inputs(&p, 7, words, sizeof words);
	if (!strstr(words, "nx: u32, the next index on a random cycle through all 16") || !strstr(words, "hx: f32, x's values") ||
	    !strstr(words, "seed 7"))
		fail_msg("%s", words);
	static const struct { const char *from, *to, *msg; } bad[] = {
		{ "from hx x", "from hx z", "from hx: cannot copy from 'z'" },
		{ "from hx x", "from hx hx", "from hx: cannot copy from 'hx'" },
		{ "from hx x", "from x nx", "from for buffer x, which is not the last buffer" },
		{ "\nfrom hx x", "", "buffer hx is a copy of nothing" },
		{ "buffer nx u32 16 0 0 9", "buffer nx u32 12 0 0 9", "cycle buffer nx: 12 elements of u32" },
		{ "buffer nx u32 16 0 0 9", "buffer nx f32 16 0 0 9", "cycle buffer nx: 16 elements of f32" },
		{ "buffer nx u32 16 0 0 9", "buffer nx u32 16 0 0 10", "'10' is not a whole number from 0 to 9" },
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		const char *at = strstr(t.s, bad[i].from);
		assert_non_null(at);
		char *v = xmalloc(t.len + 64);
		snprintf(v, t.len + 64, "%.*s%s%s", (int)(at - t.s), t.s, bad[i].to, at + strlen(bad[i].from));
		plan r;
		int rc = plan_wire_read(&r, v, strlen(v), err, sizeof err);
		plan_free(&r);
		free(v);
		if (rc == 0) fail_msg("read, expected \"%s\"", bad[i].msg);
		if (!strstr(err, bad[i].msg)) fail_msg("got \"%s\"\n  expected \"%s\"", err, bad[i].msg);
	}
	sb_free(&t);
	sb_free(&u);
	plan_free(&p);
	plan_free(&q);
	/* a source shorter than the copy; a cycle of 2^k for k = 0 (one element, its own successor) is fine,
	 * and of 12 elements or more than 2^32 is refused */
	plan_setting s = { .name = "short", .value = "1" };
	assert_int_equal(plan_make(&p, cl, 0, &s, 1, &dev, err, sizeof err), -1);
	plan_free(&p);
	if (!strstr(err, "c.yaml:11:3: buffer hx: init copy from x needs 16 elements, x has 15")) fail_msg("%s", err);
	s = (plan_setting){ .name = "k", .value = "0" };
	if (plan_make(&p, cl, 0, &s, 1, &dev, err, sizeof err)) fail_msg("k=0: %s", err);
	plan_free(&p);
	s = (plan_setting){ .name = "k", .value = "33" };
	assert_int_equal(plan_make(&p, cl, 0, &s, 1, &dev, err, sizeof err), -1);
	plan_free(&p);
	if (!strstr(err, "c.yaml:9:3: buffer nx: init cycle needs a power of two elements, at most 2^32 (u32), not 8589934592 (count: 1 << k)"))
		fail_msg("%s", err);
	lesson_free(cl);
	static const char odd[] = "  nx: { type: u32, count: \"1 << k\", init: cycle }\n";
	char *t2 = xstrdup(ctext), *at = strstr(t2, odd);
	assert_non_null(at);
	memcpy(at, "  nx: { type: i32, count: \"3 << k\", init: cycle }\n", strlen(odd));
	cl = lesson_load_buffer("c.yaml", t2, strlen(t2), NULL, err, sizeof err);
	free(t2);
	if (!cl) fail_msg("%s", err);
	assert_int_equal(plan_make(&p, cl, 0, NULL, 0, &dev, err, sizeof err), -1);
	plan_free(&p);
	if (!strstr(err, "c.yaml:9:3: buffer nx: init cycle needs a power of two elements, at most 2^31 (i32), not 48 (count: 3 << k)")) fail_msg("%s", err);
	lesson_free(cl);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip), cmocka_unit_test(test_library_step), cmocka_unit_test(test_stage_tolerance),
		cmocka_unit_test(test_text), cmocka_unit_test(test_hot),
		cmocka_unit_test(test_refused), cmocka_unit_test(test_timing),
		cmocka_unit_test(test_v2_lines), cmocka_unit_test(test_pitch), cmocka_unit_test(test_copy_cycle), cmocka_unit_test(test_events),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
