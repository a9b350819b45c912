/* Tests for tui_sass: the SASS view's counts header, the counts against the previous stage, the
 * opcodes' diff, and the colour roles of SASS and PTX. Listings are nvdisasm text through sass_parse. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui_sass.h"

/* A listing of one function from opcodes ("LDG.E.128"), each as an instruction at line 10 + i. */
static void listing(sass_listing *l, const char *fn, const char *const *ops, int n)
{
	char text[8192];
	size_t o = (size_t)snprintf(text, sizeof text, "\t.text.%s:\n", fn);
	for (int i = 0; i < n; i++)
		o += (size_t)snprintf(text + o, sizeof text - o, "\t//## File \"/k/vectorized.cu\", line %d\n"
		                      "        /*%04x*/                   %s R4, desc[UR4][R2.64] ;\n", 10 + i, i * 16, ops[i]);
	assert_int_equal(sass_parse(text, l), 0);
	assert_int_equal(l->nfuncs, 1);
	assert_int_equal(l->n, n);
}

static const char *const vectorized[] = {
	"LDG.E.128.CONSTANT", "LDG.E.128.CONSTANT", "LDG.E.CONSTANT", "LDG.E.CONSTANT", "FFMA", "FFMA", "FFMA",
	"FFMA", "FFMA", "STG.E.128", "STG.E", "IMAD", "EXIT",
};
static const char *const gridstride[] = {
	"LDG.E.CONSTANT", "LDG.E.CONSTANT", "FFMA", "FFMA", "FFMA", "FFMA", "FFMA", "STG.E", "STG.E", "IMAD", "BRA", "EXIT",
};

static void test_counts_header(void **st)
{
	(void)st;
	sass_listing l;
	char out[256];
	listing(&l, "saxpy_vectorized", vectorized, 13);
	assert_string_equal(tui_sass_counts(&l, &l.funcs[0], out, sizeof out),
	                    "LDG 4 (2x128)  STG 2 (1x128)  LDS 0  STS 0  FFMA 5  BAR 0");
	sass_free(&l);
	const char *const tc[] = { "UTMALDG.2D", "SYNCS.ARRIVE.TRANS64", "HGMMA.64x256x16.F32.BF16", "HGMMA.64x256x16.F32.BF16",
	                           "LDS.64", "LDL", "STG.E.64", "WARPSYNC" };
	listing(&l, "tc", tc, 8);
	assert_string_equal(tui_sass_counts(&l, &l.funcs[0], out, sizeof out),
	                    "LDG 0  STG 1 (1x64)  LDS 1 (1x64)  STS 0  FFMA 0  BAR 1  TMA 1  LOCAL 1  HGMMA 2");
	/* a short buffer is cut, never overrun */
	char small[12];
	tui_sass_counts(&l, &l.funcs[0], small, sizeof small);
	assert_int_equal(strlen(small), sizeof small - 1);
	sass_free(&l);
}

static void test_compare(void **st)
{
	(void)st;
	sass_listing a, b;
	tui_sass_cmp rows[32];
	listing(&a, "saxpy_vectorized", vectorized, 13);
	listing(&b, "saxpy_gridstride", gridstride, 12);
	const sass_func *p = tui_sass_match(&b, &a, &a.funcs[0]);
	assert_ptr_equal(p, &b.funcs[0]);                 /* another name: the one at the same index */
	int n = tui_sass_compare(&a, &a.funcs[0], &b, p, rows, 32);
	const struct { const char *label; int now, before; } want[] = {
		{ "LDG", 4, 2 }, { "LDG.128", 2, 0 }, { "STG", 2, 2 }, { "STG.128", 1, 0 }, { "FFMA", 5, 5 }, { "total", 13, 12 },
	};
	assert_int_equal(n, 6);
	for (int i = 0; i < n; i++) {
		assert_string_equal(rows[i].label, want[i].label);
		assert_int_equal(rows[i].now, want[i].now);
		assert_int_equal(rows[i].before, want[i].before);
	}
	assert_int_equal(tui_sass_compare(&a, &a.funcs[0], NULL, NULL, rows, 32), 6);
	assert_int_equal(rows[0].before, 0);
	assert_int_equal(tui_sass_compare(&a, &a.funcs[0], &b, p, rows, 3), 3);   /* at most max */
	sass_listing none;
	memset(&none, 0, sizeof none);
	assert_null(tui_sass_match(&none, &a, &a.funcs[0]));
	assert_ptr_equal(tui_sass_match(&a, &a, &a.funcs[0]), &a.funcs[0]);
	sass_free(&a);
	sass_free(&b);
}

static void test_opcode_diff(void **st)
{
	(void)st;
	sass_listing a, b;
	tui_sass_diff d;
	const char *const before[] = { "LDG.E", "LDG.E", "FFMA", "STG.E" }, *const after[] = { "LDG.E.128", "FFMA", "STG.E.128" };
	listing(&a, "k", before, 4);
	listing(&b, "k", after, 3);
	assert_int_equal(tui_sass_diff_make(&d, &a, &b), 0);
	assert_int_equal(d.na, 5);                        /* the function's name, then its opcodes */
	assert_int_equal(d.nb, 4);
	assert_string_equal(d.a[0], "k");
	assert_int_equal(d.ia[0], -1);
	assert_int_equal(d.ib[1], 0);
	/* k same; LDG.E LDG.E deleted, LDG.E.128 added; FFMA same; STG.E deleted, STG.E.128 added */
	const struct { diff_kind kind; const char *text; } want[] = {
		{ DIFF_SAME, "k" }, { DIFF_DEL, "LDG.E" }, { DIFF_DEL, "LDG.E" }, { DIFF_ADD, "LDG.E.128" }, { DIFF_SAME, "FFMA" },
		{ DIFF_DEL, "STG.E" }, { DIFF_ADD, "STG.E.128" },
	};
	assert_int_equal(d.nops, 7);
	for (int i = 0; i < d.nops; i++) {
		assert_int_equal(d.ops[i].kind, want[i].kind);
		assert_string_equal(d.ops[i].kind == DIFF_DEL ? d.a[d.ops[i].a] : d.b[d.ops[i].b], want[i].text);
	}
	tui_sass_diff_free(&d);
	assert_null(d.ops);
	sass_listing none;
	memset(&none, 0, sizeof none);
	assert_int_equal(tui_sass_diff_make(&d, &none, &b), 0);   /* no previous code: everything added */
	assert_int_equal(d.nops, 4);
	assert_int_equal(d.ops[3].kind, DIFF_ADD);
	tui_sass_diff_free(&d);
	sass_free(&a);
	sass_free(&b);
}

static void test_roles(void **st)
{
	(void)st;
	const char *const ops[] = { "LDG.E.128.CONSTANT", "LDG.E", "STG.E.128", "LDS.U16", "LDSM.16.M88.4", "LDGSTS.E.BYPASS.128",
	                            "LDL", "FFMA", "FADD", "HMMA.16816.F32.BF16", "HGMMA.64x128x16.F32.BF16", "BAR.SYNC.DEFER_BLOCKING",
	                            "IMAD", "UTMALDG.2D" };
	const tui_role want[] = { ROLE_SASS_WIDE, ROLE_SASS_GLOBAL, ROLE_SASS_WIDE, ROLE_SASS_SHARED, ROLE_SASS_SHARED,
	                          ROLE_SASS_SHARED, ROLE_BAD, ROLE_SASS_FMA, ROLE_NORMAL, ROLE_SASS_TENSOR, ROLE_SASS_TENSOR,
	                          ROLE_SASS_BAR, ROLE_NORMAL, ROLE_SASS_SHARED };
	sass_listing l;
	listing(&l, "k", ops, 14);
	for (int i = 0; i < 14; i++)
		assert_int_equal(tui_sass_role(&l.insn[i]), want[i]);
	sass_free(&l);
}

static void test_ptx_roles(void **st)
{
	(void)st;
	const struct { const char *op; tui_role role; } ops[] = {
		{ "ld.global.nc.v4.f32", ROLE_SASS_WIDE }, { "ld.global.f32", ROLE_SASS_GLOBAL }, { "st.global.v4.f32", ROLE_SASS_WIDE },
		{ "ld.global.nc.v2.f32", ROLE_SASS_GLOBAL }, { "ld.shared.f32", ROLE_SASS_SHARED }, { "cp.async.cg.shared.global", ROLE_SASS_SHARED },
		{ "ldmatrix.sync.aligned.m8n8.x4.shared.b16", ROLE_SASS_SHARED }, { "ld.local.u32", ROLE_BAD },
		{ "fma.rn.f32", ROLE_SASS_FMA }, { "mma.sync.aligned.m16n8k16", ROLE_SASS_TENSOR },
		{ "wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16", ROLE_SASS_TENSOR }, { "bar.sync", ROLE_SASS_BAR },
		{ "add.s64", ROLE_NORMAL }, { "fma", ROLE_SASS_FMA }, { "ld", ROLE_NORMAL },
	};
	for (size_t i = 0; i < sizeof ops / sizeof *ops; i++)
		assert_int_equal(tui_sass_ptx_role(ops[i].op, strlen(ops[i].op)), ops[i].role);

	unsigned char r[128];
	int c = 0;
	const char *entry = ".visible .entry saxpy(";
	tui_sass_ptx_highlight(entry, strlen(entry), &c, r);
	assert_int_equal(r[0], ROLE_KEYWORD);                 /* .visible */
	assert_int_equal(r[9], ROLE_KEYWORD);                 /* .entry */
	assert_int_equal(r[16], ROLE_NORMAL);                 /* saxpy */
	const char *ld = "\t@%p1 ld.global.nc.v4.f32 {%f1, %f2, %f3, %f4}, [%rd4+16]; // x";
	tui_sass_ptx_highlight(ld, strlen(ld), &c, r);
	size_t op = (size_t)(strstr(ld, "ld.") - ld);
	assert_int_equal(r[op], ROLE_SASS_WIDE);
	assert_int_equal(r[op + 18], ROLE_SASS_WIDE);         /* the whole opcode */
	assert_int_equal(r[op + 19], ROLE_NORMAL);            /* not its operands */
	assert_int_equal(r[strstr(ld, "16]") - ld], ROLE_NUMBER);
	assert_int_equal(r[strstr(ld, "// x") - ld], ROLE_COMMENT);
	const char *label = "$L__BB0_2:";
	tui_sass_ptx_highlight(label, strlen(label), &c, r);
	assert_int_equal(r[0], ROLE_NORMAL);
	const char *com = "// .entry in a comment";
	tui_sass_ptx_highlight(com, strlen(com), &c, r);
	assert_int_equal(r[3], ROLE_COMMENT);
	assert_int_equal(c, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_counts_header),
		cmocka_unit_test(test_compare),
		cmocka_unit_test(test_opcode_diff),
		cmocka_unit_test(test_roles),
		cmocka_unit_test(test_ptx_roles),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
