/* Tests for the stage view's parameters (tui/tui_param.c) and the settings the stage model builds
 * from tunables and parameters (stage_build_sets, stage_check in tui/tui_stage.c, on a model made
 * by hand: they need no engine), and the tunables pane's scroll (text_keep_visible). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui_param.h"
#include "tui_stage.h"
#include "tui_text.h"

static const char text[] =
	"lesson: p\n"
	"title: P\n"
	"summary: s\n"
	"params:\n"
	"  n: { default: \"1 << 12\", min: 1, max: \"1 << 20\" }\n"
	"  a: { type: f32, default: 1.5 }\n"
	"  m: { default: \"n / 2\", min: 1, max: n }\n"      /* a range from an earlier parameter */
	"  off: { default: 0 }\n"
	"  sm: { default: \"sm_count * 2\", min: 1 }\n"      /* from a device value */
	"buffers:\n"
	"  x: { type: f32, count: n, init: { random: [-1, 1] } }\n"
	"  z: { type: f32, count: n, output: true }\n"
	"model:\n"
	"  bytes: \"12 * n\"\n"
	"check: { reference: main, compare: [z], tolerance: exact }\n"
	"baseline:\n"
	"  title: copy\n"
	"  library: memcpy\n"
	"  args: { dst: z, src: x, bytes: \"4 * n\" }\n"
	"stages:\n"
	"  - id: main\n"
	"    title: Main\n"
	"    kernel: k.cu\n"
	"    entry: k\n"
	"    tunables:\n"
	"      BLOCK: { values: [32, 64, 128], default: 64 }\n"
	"      VEC: { values: [1, 2, 4], default: \"max_shared_per_block >= 65536 ? 4 : 1\" }\n"   /* per GPU */
	"    constraints:\n"
	"      - { expr: \"n % BLOCK == 0\", message: \"n must be a multiple of BLOCK\" }\n"
	"    launches:\n"
	"      - { grid: \"ceil_div(n, BLOCK)\", block: BLOCK, args: [x, z, \"i64(n)\"] }\n"
	"    explain: e\n"
	"    bottleneck: b\n";

static const plan_device dev = { .sm_count = 132, .warp_size = 32, .max_threads_per_block = 1024, .cc = 90,
                                  .l2_bytes = 50 << 20, .max_shared_per_block = 48 * 1024 };

enum { N, A, M, OFF, SM, NP };

static lesson *L;

static int setup(void **state)
{
	(void)state;
	char err[512];
	L = lesson_load_buffer("p.yaml", text, strlen(text), NULL, err, sizeof err);
	if (!L) fprintf(stderr, "%s\n", err);
	return L && L->nparams == NP ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	lesson_free(L);
	return 0;
}

static expr_value I(int64_t i) { return (expr_value){ .kind = EXPR_INT, .i = i }; }

static void defaults(expr_value *pv)
{
	char err[256];
	assert_int_equal(param_defaults(L, &dev, pv, err, sizeof err), 0);
}

static void test_defaults_and_ranges(void **st)
{
	(void)st;
	expr_value pv[NP];
	plan_param_info pi;
	char err[256], buf[64];
	defaults(pv);
	assert_int_equal(pv[N].kind, EXPR_INT);
	assert_int_equal(pv[N].i, 4096);
	assert_int_equal(pv[A].kind, EXPR_FLOAT);
	assert_true(pv[A].f == 1.5);
	assert_int_equal(pv[M].i, 2048);
	assert_int_equal(pv[OFF].i, 0);
	assert_int_equal(pv[SM].i, 264);
	for (int i = 0; i < NP; i++)
		assert_true(param_is_default(L, &dev, pv, i));

	assert_int_equal(plan_param_info_get(L, &dev, pv, N, &pi, err, sizeof err), 0);
	assert_string_equal(param_range_text(&pi, buf, sizeof buf), "1..2^20");
	assert_int_equal(plan_param_info_get(L, &dev, pv, A, &pi, err, sizeof err), 0);
	assert_string_equal(param_range_text(&pi, buf, sizeof buf), "");
	assert_int_equal(plan_param_info_get(L, &dev, pv, SM, &pi, err, sizeof err), 0);
	assert_string_equal(param_range_text(&pi, buf, sizeof buf), "1..");

	/* m's default and range follow n's current value, as in plan_make */
	pv[N] = I(100);
	assert_false(param_is_default(L, &dev, pv, N));
	assert_int_equal(plan_param_info_get(L, &dev, pv, M, &pi, err, sizeof err), 0);
	assert_int_equal(pi.def.i, 50);
	assert_string_equal(param_range_text(&pi, buf, sizeof buf), "1..100");
	assert_false(param_is_default(L, &dev, pv, M));   /* still 2048 */
}

static void test_step(void **st)
{
	(void)st;
	expr_value pv[NP], v;
	defaults(pv);
	assert_int_equal(param_step(L, &dev, pv, N, +1, &v), 0);
	assert_int_equal(v.kind, EXPR_INT);
	assert_int_equal(v.i, 8192);
	assert_int_equal(param_step(L, &dev, pv, N, -1, &v), 0);
	assert_int_equal(v.i, 2048);
	pv[N] = I(700000);                                 /* doubling is clamped to the max */
	assert_int_equal(param_step(L, &dev, pv, N, +1, &v), 0);
	assert_int_equal(v.i, 1 << 20);
	pv[N] = I(1 << 20);                                /* at the max: no move */
	assert_int_equal(param_step(L, &dev, pv, N, +1, &v), -1);
	pv[N] = I(1);                                      /* at the min */
	assert_int_equal(param_step(L, &dev, pv, N, -1, &v), -1);
	pv[N] = I(3);
	assert_int_equal(param_step(L, &dev, pv, N, -1, &v), 0);
	assert_int_equal(v.i, 1);
	assert_int_equal(param_step(L, &dev, pv, A, +1, &v), -1);   /* a float: arrows do nothing */
	assert_int_equal(param_step(L, &dev, pv, OFF, +1, &v), 0);  /* 0 doubles to 1 */
	assert_int_equal(v.i, 1);
	assert_int_equal(param_step(L, &dev, pv, OFF, -1, &v), -1);
	pv[N] = I(64);                                     /* m's max follows n */
	pv[M] = I(40);
	assert_int_equal(param_step(L, &dev, pv, M, +1, &v), 0);
	assert_int_equal(v.i, 64);
}

static void test_set(void **st)
{
	(void)st;
	expr_value pv[NP];
	defaults(pv);
	param_set(L, &dev, pv, N, I(100));
	assert_int_equal(pv[N].i, 100);
	assert_int_equal(pv[M].i, 50);                     /* at its default: follows n */
	assert_true(param_is_default(L, &dev, pv, M));
	param_set(L, &dev, pv, M, I(7));
	param_set(L, &dev, pv, N, I(200));
	assert_int_equal(pv[M].i, 7);                      /* set by hand: stays */
	assert_true(pv[A].f == 1.5);                       /* before n... */
	assert_int_equal(pv[SM].i, 264);                   /* ...and not depending on it: unchanged */
}

static void test_parse(void **st)
{
	(void)st;
	expr_value pv[NP], v;
	defaults(pv);
	assert_int_equal(param_parse(L, &dev, pv, N, "65536", &v), 0);
	assert_int_equal(v.kind, EXPR_INT);
	assert_int_equal(v.i, 65536);
	assert_int_equal(param_parse(L, &dev, pv, N, "2000000", &v), -1);   /* over the max */
	assert_int_equal(param_parse(L, &dev, pv, N, "0", &v), -1);
	assert_int_equal(param_parse(L, &dev, pv, N, "12x", &v), -1);
	assert_int_equal(param_parse(L, &dev, pv, N, "default", &v), -1);
	assert_int_equal(param_parse(L, &dev, pv, N, "", &v), -1);
	assert_int_equal(param_parse(L, &dev, pv, A, "2.5", &v), 0);
	assert_int_equal(v.kind, EXPR_FLOAT);
	assert_true(v.f == 2.5);
	assert_int_equal(param_parse(L, &dev, pv, A, "nan", &v), -1);
}

static void test_sets(void **st)
{
	(void)st;
	expr_value pv[NP];
	plan_setting s[8];
	defaults(pv);
	assert_int_equal(param_sets(L, &dev, pv, -1, NULL, s, 8), 0);   /* defaults: nothing to say */
	param_set(L, &dev, pv, N, I(8192));
	pv[A] = (expr_value){ .kind = EXPR_FLOAT, .f = 2.5 };
	assert_int_equal(param_sets(L, &dev, pv, -1, NULL, s, 8), 2);
	assert_string_equal(s[0].name, "n");
	assert_string_equal(s[0].value, "8192");
	assert_string_equal(s[1].name, "a");
	assert_string_equal(s[1].value, "2.5");
	assert_int_equal(param_sets(L, &dev, pv, OFF, "1 << 3", s, 8), 3);   /* a typed override */
	assert_string_equal(s[2].name, "off");
	assert_string_equal(s[2].value, "1 << 3");
	assert_int_equal(param_sets(L, &dev, pv, -1, NULL, s, 1), -1);      /* no room */
}

/* The model of the lesson's one stage, made by hand: values only, no engine. */
static void make_model(tui_stage *m, stage_slot *slot, int64_t *tv, expr_value *pv)
{
	memset(m, 0, sizeof *m);
	m->l = L;
	m->pdev = dev;
	m->slots = slot;
	memset(slot, 0, sizeof *slot);
	slot->tv = tv;
	tv[0] = 64;
	tv[1] = 1;
	m->pv = pv;
	defaults(pv);
}

static void test_stage_sets(void **st)
{
	(void)st;
	tui_stage m;
	stage_slot slot;
	int64_t tv[2];
	expr_value pv[NP], v;
	plan_setting s[STAGE_SETS_MAX];
	char err[512];
	make_model(&m, &slot, tv, pv);
	assert_int_equal(stage_rows(&m), 2 + NP);
	assert_int_equal(stage_row_param(&m, 1), -1);
	assert_int_equal(stage_row_param(&m, 2), N);
	assert_int_equal(stage_row_param(&m, 2 + NP), -1);

	/* every tunable, then only the parameters that differ from their defaults */
	assert_int_equal(stage_build_sets(&m, 0, s, STAGE_SETS_MAX, -1, NULL), 2);
	param_set(L, &dev, pv, N, I(8192));
	assert_int_equal(stage_build_sets(&m, 0, s, STAGE_SETS_MAX, -1, NULL), 3);
	assert_string_equal(s[0].name, "BLOCK");
	assert_string_equal(s[0].value, "64");
	assert_string_equal(s[2].name, "n");
	assert_string_equal(s[2].value, "8192");
	assert_int_equal(stage_build_sets(&m, -1, s, STAGE_SETS_MAX, -1, NULL), 1);   /* baseline */
	assert_string_equal(s[0].name, "n");
	assert_int_equal(stage_build_sets(&m, 0, s, 2, -1, NULL), -1);               /* no room */
	assert_int_equal(stage_check(&m, 0, -1, NULL, err, sizeof err, NULL), 0);
	assert_int_equal(stage_check(&m, -1, -1, NULL, err, sizeof err, NULL), 0);

	/* a typed parameter (row 2 + i): checked by the plan, its value as the plan evaluated it */
	assert_int_equal(stage_check(&m, 0, 2 + N, "1 << 14", err, sizeof err, &v), 0);
	assert_int_equal(v.kind, EXPR_INT);
	assert_int_equal(v.i, 16384);
	assert_int_equal(stage_check(&m, 0, 2 + N, "1000", err, sizeof err, &v), -1);
	assert_string_equal(err, "n must be a multiple of BLOCK");
	assert_int_equal(stage_check(&m, 0, 2 + N, "2000000", err, sizeof err, &v), -1);
	assert_non_null(strstr(err, "outside its range"));
	assert_int_equal(stage_check(&m, 0, 2 + A, "3", err, sizeof err, &v), 0);
	assert_int_equal(v.kind, EXPR_FLOAT);
	assert_true(v.f == 3.0);
	/* a typed tunable still works, with the parameters in */
	assert_int_equal(stage_check(&m, 0, 0, "128", err, sizeof err, &v), 0);
	assert_int_equal(v.i, 128);
	param_set(L, &dev, pv, N, I(96));               /* 96 % 64 != 0: the stage refuses it */
	assert_int_equal(pv[M].i, 48);                  /* m was at its default, n / 2: it follows */
	assert_int_equal(stage_check(&m, 0, -1, NULL, err, sizeof err, NULL), -1);
	assert_int_equal(stage_check(&m, 0, 0, "32", err, sizeof err, NULL), 0);
}

/* A tunable's default that depends on the GPU: the model's device decides it, and a default that is
 * not among the values on a GPU falls back to the first value (a run says why). */
static void test_tunable_default(void **st)
{
	(void)st;
	tui_stage m;
	stage_slot slot;
	int64_t tv[2];
	expr_value pv[NP];
	make_model(&m, &slot, tv, pv);
	assert_int_equal(stage_tunable_default(&m, 0, 0), 64);
	assert_int_equal(stage_tunable_default(&m, 0, 1), 1);   /* 48 KiB a block */
	m.pdev.max_shared_per_block = 232448;
	assert_int_equal(stage_tunable_default(&m, 0, 1), 4);
}

static void test_keep_visible(void **st)
{
	(void)st;
	assert_int_equal(text_keep_visible(0, 3, 3, 15, 6), 0);    /* visible: no move */
	assert_int_equal(text_keep_visible(0, 8, 8, 15, 6), 3);    /* below: scrolls just enough */
	assert_int_equal(text_keep_visible(5, 2, 2, 15, 6), 2);    /* above */
	assert_int_equal(text_keep_visible(0, 11, 12, 15, 6), 7);  /* a row and the one above it */
	assert_int_equal(text_keep_visible(9, 10, 11, 15, 6), 9);
	assert_int_equal(text_keep_visible(12, 14, 14, 15, 6), 9); /* never past the end */
	assert_int_equal(text_keep_visible(4, 1, 1, 3, 6), 0);     /* everything fits */
	assert_int_equal(text_keep_visible(0, 4, 6, 15, 2), 4);    /* too tall: lo wins */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults_and_ranges),
		cmocka_unit_test(test_step),
		cmocka_unit_test(test_set),
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_sets),
		cmocka_unit_test(test_stage_sets),
		cmocka_unit_test(test_tunable_default),
		cmocka_unit_test(test_keep_visible),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
