/* Tests for src/engine/sass.c on listings recorded from nvdisasm 13.5 -c -g over cubins NVRTC made for
 * sm_90 (tests/fixtures/sass/): instructions, their source lines, classes and load widths; the
 * vectorised SAXPY loads 128 bits and the coalesced one does not; the Hopper stage issues wgmma, the
 * mma pipeline HMMA, ldmatrix and cp.async; a register-tiled SGEMM is mostly FFMA. Run from the
 * repository root. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>
#include "report_sass.h"
#include "sass.h"
#include "util.h"

static sass_listing load(const char *name)
{
	char *path = xasprintf("tests/fixtures/sass/%s.sass", name), *text = file_read(path, NULL);
	if (!text) fail_msg("cannot read %s", path);
	sass_listing l;
	assert_int_equal(sass_parse(text, &l), 0);
	free(text);
	free(path);
	return l;
}

static void test_saxpy(void **state)
{
	(void)state;
	sass_listing v = load("saxpy_vectorized"), c = load("saxpy_coalesced");
	const sass_func *fv = sass_find_func(&v, "saxpy_vectorized"), *fc = sass_find_func(&c, "saxpy_coalesced");
	assert_non_null(fv);
	assert_non_null(fc);
	assert_true(fv->ldg128 >= 2);          /* x and y as float4 */
	assert_int_equal(fc->ldg128, 0);
	assert_true(fc->counts[SC_LDG] >= 2);
	assert_true(fv->counts[SC_STG] >= 1);
	/* the first instruction, and that every one has a source line in the kernel's file */
	const sass_insn *first = &v.insn[fv->first];
	assert_int_equal(first->offset, 0);
	assert_string_equal(first->op, "LDC");
	for (int i = fv->first; i < fv->first + fv->count; i++) {
		assert_true(v.insn[i].line > 0);
		assert_true(sass_file_is(&v, v.insn[i].file, "kernels/bandwidth/vectorized.cu"));
	}
	/* a 128-bit load, with its operands and predicate kept */
	int seen = 0;
	for (int i = 0; i < v.n; i++)
		if (v.insn[i].cls == SC_LDG && v.insn[i].width == 128) {
			seen = 1;
			assert_non_null(strstr(v.insn[i].op, "LDG.E.128"));
			assert_non_null(strstr(v.insn[i].text, "desc["));
		}
	assert_true(seen);
	sass_free(&v);
	sass_free(&c);
}

static void test_tensor_cores(void **state)
{
	(void)state;
	sass_listing w = load("tc_wgmma_ws"), m = load("tc_mma_pipeline");
	const sass_func *fw = sass_find_func(&w, "tc_wgmma_ws"), *fm = sass_find_func(&m, "tc_mma_pipeline");
	assert_non_null(fw);
	assert_non_null(fm);
	assert_true(fw->counts[SC_WGMMA] > 0);
	assert_int_equal(fw->counts[SC_MMA], 0);
	assert_true(fw->counts[SC_TMA] > 0);
	assert_true(fm->counts[SC_MMA] > 0);
	assert_int_equal(fm->counts[SC_WGMMA], 0);
	assert_true(fm->counts[SC_LDSM] > 0);
	assert_true(fm->counts[SC_LDGSTS] > 0);
	assert_true(fm->counts[SC_BAR] > 0);
	/* lines from the header the Hopper stage includes are attributed to it */
	int header = 0;
	for (int i = 0; i < w.nfiles; i++) header |= sass_file_is(&w, i, "hopper.cuh");
	assert_true(header);
	sass_free(&w);
	sass_free(&m);
}

static void test_sgemm_and_others(void **state)
{
	(void)state;
	sass_listing g = load("sgemm_warptile"), t = load("transpose_tile"), r = load("reduce_shuffle");
	const sass_func *fg = sass_find_func(&g, "sgemm_warptile");
	assert_non_null(fg);
	assert_true(fg->counts[SC_FFMA] > fg->count / 2);            /* the inner loop is the kernel */
	assert_true(fg->lds128 > 0);
	assert_true(fg->counts[SC_FFMA] > 8 * (fg->counts[SC_LDS] + fg->counts[SC_LDG]));
	const sass_func *ft = sass_find_func(&t, "transpose_tile");
	assert_non_null(ft);
	assert_true(ft->counts[SC_LDS] > 0 && ft->counts[SC_STS] > 0 && ft->counts[SC_BAR] > 0);
	const sass_func *fr = sass_find_func(&r, "reduce_shuffle");
	assert_non_null(fr);
	assert_true(fr->counts[SC_SHFL] >= 5);
	assert_true(r.nfuncs >= 2);                                   /* reduce_partials from common.cuh too */
	sass_free(&g);
	sass_free(&t);
	sass_free(&r);
}

/* The tensor-core count that decides whether tensor cores can have run: > 0 for the mma and wgmma
 * stages, 0 for the FP32 GEMM and the reduction (whose tensor-pipe counter reads millions on an H100). */
static void test_tensor_count(void **state)
{
	(void)state;
	static const struct { const char *name; int tensor; } cases[] = {
		{ "tc_wgmma_ws", 1 }, { "tc_mma_pipeline", 1 }, { "sgemm_warptile", 0 }, { "reduce_shuffle", 0 },
		{ "saxpy_vectorized", 0 },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char *path = xasprintf("tests/fixtures/sass/%s.sass", cases[i].name), *text = file_read(path, NULL);
		assert_non_null(text);
		int n = sass_tensor_count(text);
		if (cases[i].tensor) assert_true(n > 0);
		else assert_int_equal(n, 0);
		free(text);
		free(path);
	}
	assert_int_equal(sass_tensor_count(NULL), -1);
	assert_int_equal(sass_tensor_count(""), 0);
	assert_int_equal(sass_tensor_count_cached("/nonexistent/x.cubin"), -1);
}

static void test_odd_input(void **state)
{
	(void)state;
	sass_listing l;
	assert_int_equal(sass_parse(NULL, &l), 0);
	assert_int_equal(l.n, 0);
	sass_free(&l);
	/* instructions before any function, broken comments, no semicolon: skipped */
	assert_int_equal(sass_parse("        /*0000*/ NOP ;\n.text.k:\n /*0010 LDG ;\n /*0020*/ FFMA R1, R2, R3, R4\n"
	                            " /*0030*/ @!P0 BRA `(.L_x_1) ;\n", &l), 0);
	assert_int_equal(l.nfuncs, 1);
	assert_string_equal(l.funcs[0].name, "k");
	assert_int_equal(l.n, 1);
	assert_string_equal(l.insn[0].op, "BRA");
	assert_int_equal(l.insn[0].cls, SC_BRANCH);
	assert_int_equal(l.insn[0].offset, 0x30);
	assert_int_equal(l.insn[0].line, -1);
	assert_null(sass_find_func(&l, "nope"));
	sass_free(&l);
	/* widths and classes by modifier */
	assert_int_equal(sass_parse(".text.w:\n/*0000*/ LDG.E.U8 R1, desc[UR4][R2.64] ;\n/*0010*/ STS.64 [R1], R2 ;\n"
	                            "/*0020*/ LDGSTS.E.BYPASS.128 [R1], desc[UR4][R2.64] ;\n/*0030*/ LDSM.16.M88.4 R4, [R1] ;\n"
	                            "/*0040*/ STL [R1], R2 ;\n", &l), 0);
	assert_int_equal(l.insn[0].width, 8);
	assert_int_equal(l.insn[1].cls, SC_STS);
	assert_int_equal(l.insn[1].width, 64);
	assert_int_equal(l.insn[2].cls, SC_LDGSTS);
	assert_int_equal(l.insn[3].cls, SC_LDSM);
	assert_int_equal(l.insn[4].cls, SC_LOCAL);
	sass_free(&l);
}

/* The text view: source lines above their instructions, tags on the ones the lessons talk about,
 * and counts against another stage's. */
static void test_report(void **state)
{
	(void)state;
	sass_listing v = load("saxpy_vectorized"), c = load("saxpy_coalesced");
	char *src = file_read("kernels/bandwidth/vectorized.cu", NULL), *lines[400];
	int n = 0;
	for (char *p = src; p && *p && n < 400;) { lines[n++] = p; char *e = strchr(p, '\n'); if (!e) break; *e = 0; p = e + 1; }
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);
	const sass_func *fv = sass_find_func(&v, "saxpy_vectorized");
	report_sass_counts(f, fv, sass_find_func(&c, "saxpy_coalesced"), "coalesced");
	report_sass(f, &v, fv, lines, n, "kernels/bandwidth/vectorized.cu");
	fclose(f);
	assert_non_null(strstr(out, "saxpy_vectorized: 64 instructions (coalesced: "));
	assert_non_null(strstr(out, "global load"));
	assert_non_null(strstr(out, "2 of them 128-bit"));
	assert_non_null(strstr(out, "(was "));
	assert_non_null(strstr(out, "   17 | \t\tif (i < n4) { p[k] = __ldg(&x4[i]);"));
	assert_non_null(strstr(out, "[LDG.128]"));
	assert_null(strstr(out, "(no source line)"));
	char tag[24];
	sass_insn in = { .cls = SC_FP32 };
	assert_string_equal(sass_tag(&in, tag, sizeof tag), "");
	in.cls = SC_WGMMA;
	assert_string_equal(sass_tag(&in, tag, sizeof tag), "HGMMA");
	free(out);
	free(src);
	sass_free(&v);
	sass_free(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_saxpy), cmocka_unit_test(test_tensor_cores),
		cmocka_unit_test(test_sgemm_and_others), cmocka_unit_test(test_tensor_count), cmocka_unit_test(test_odd_input),
		cmocka_unit_test(test_report),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
