/* Tests for src/render/roofline.c over the recorded H100 runs (tests/fixtures/recorded, bench --json with
 * counters at 1707a90): the roofs from the recorded device, where each lesson's stages fall (SAXPY
 * far left of the ridge and on the memory roof, SGEMM's register-tiled stages right of it under the
 * FP32 roof, the tensor-core stages against the BF16 tensor roof), no point above the roof, and the
 * runs that cannot be placed. Run from the repository root. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdlib.h>
#include "roofline_fixture.h"

static void near(double got, double want, double rel)
{
	if (fabs(got - want) > rel * fabs(want)) fail_msg("%.9g is not within %.2g of %.9g", got, rel, want);
}

static roofline_point place(const recorded *r, const char *stage)
{
	roofline_point p;
	char why[256] = "";
	const run_result *res = recorded_stage(r, stage);
	if (!res) fail_msg("no recorded run of %s/%s", r->l->id, stage);
	if (roofline_place(&r->roofs, res, &p, why, sizeof why)) fail_msg("%s/%s not placed: %s", r->l->id, stage, why);
	return p;
}

/* The recorded device's peaks, as `cudaclimb device` reports them on that H100. */
static void test_roofs_from_the_recorded_device(void **state)
{
	(void)state;
	recorded r;
	assert_int_equal(recorded_load("sgemm", &r), 0);
	assert_string_equal(r.roofs.compute_name, "FP32");
	near(r.roofs.compute_gflops, 66908.16, 1e-9);
	near(r.roofs.mem_gbps, 2993.7, 1e-9);             /* attainable: the calibration copy */
	near(r.roofs.mem_theoretical_gbps, 3352.32, 1e-9);
	assert_int_equal(r.roofs.mem_is_theoretical, 0);
	near(r.roofs.ridge, 66908.16 / 2993.7, 1e-12);    /* 22.3 flop/B */
	near(roofline_roof_at(&r.roofs, r.roofs.ridge), 66908.16, 1e-12);
	near(roofline_roof_at(&r.roofs, r.roofs.ridge / 10), 6690.816, 1e-12);
	near(roofline_roof_at(&r.roofs, 1000), 66908.16, 1e-12);

	roofline_roofs t;
	char why[256];
	assert_int_equal(roofline_roofs_of(&r.dev, "bf16_tensor", &t, why, sizeof why), 0);
	assert_string_equal(t.compute_name, "BF16 tensor");
	near(t.compute_gflops, 1070530.56, 1e-9);
	near(t.ridge, 1070530.56 / 2993.7, 1e-12);       /* 358 flop/B */
	assert_int_equal(roofline_roofs_of(&r.dev, NULL, &t, why, sizeof why), 0);
	assert_string_equal(t.compute_name, "FP32");

	device_info d = r.dev;                              /* no calibration copy: the theoretical figure */
	d.bw_attainable_gbps = 0;
	assert_int_equal(roofline_roofs_of(&d, "fp32", &t, why, sizeof why), 0);
	assert_int_equal(t.mem_is_theoretical, 1);
	near(t.mem_gbps, 3352.32, 1e-9);
	d.fp32_gflops = 0;                                  /* no compute peak: no roofs, and why */
	assert_int_equal(roofline_roofs_of(&d, "fp32", &t, why, sizeof why), -1);
	assert_non_null(strstr(why, "FP32 peak is not known"));
	memset(&d, 0, sizeof d);                            /* no GPU */
	strcpy(d.why, "no GPU: no NVIDIA driver is loaded on this machine");
	assert_int_equal(roofline_roofs_of(&d, "fp32", &t, why, sizeof why), -1);
	assert_string_equal(why, "no peaks to draw the roofs from: no GPU: no NVIDIA driver is loaded on this machine");
	recorded_free(&r);
}

/* SAXPY moves 12 bytes for 2 flops: every stage far left of the ridge, bound by memory; the strided
 * stage fetches 16x the bytes it uses, so it sits 16x further left; the vectorized one is on the
 * memory roof (the calibration copy is not a hard ceiling: it ran at 100.2% of it). */
static void test_bandwidth_far_left_on_the_memory_roof(void **state)
{
	(void)state;
	recorded r;
	assert_int_equal(recorded_load("bandwidth", &r), 0);
	static const char *const stages[] = { "strided", "coalesced", "gridstride", "vectorized" };
	for (size_t i = 0; i < 4; i++) {
		roofline_point p = place(&r, stages[i]);
		assert_int_equal(p.bytes_from, ROOF_BYTES_DRAM);
		assert_int_equal(p.bound, ROOF_MEMORY);
		assert_true(p.intensity < r.roofs.ridge / 100);
		near(p.roof_gflops, p.intensity * r.roofs.mem_gbps, 1e-12);
	}
	near(place(&r, "coalesced").intensity, 2.0 / 12, 0.01);    /* DRAM bytes = the model's */
	near(place(&r, "vectorized").intensity, 2.0 / 12, 0.01);
	roofline_point s = place(&r, "strided");
	near(s.intensity, 2.0 / 12 / 16, 0.01);
	near(s.frac, 0.807, 0.01);                                 /* its wasted bytes still move at 81% */
	roofline_point v = place(&r, "vectorized");
	near(v.frac, 1.0024, 0.001);
	/* memory-bound: the fraction of the roof is the DRAM bandwidth over the attainable one */
	const run_result *vr = recorded_stage(&r, "vectorized");
	near(v.frac, (vr->dram_bytes_read + vr->dram_bytes_write) / (vr->ms_median * 1e6) / r.roofs.mem_gbps, 1e-9);
	char why[256];
	roofline_point p;
	assert_int_equal(roofline_place(&r.roofs, &r.base, &p, why, sizeof why), -1);   /* cudaMemcpy counts no flops */
	assert_non_null(strstr(why, "no flops"));
	recorded_free(&r);
}

/* SGEMM at 4096^3: the register-tiled stages right of the ridge under the FP32 roof, where the
 * fraction of the roof is the fraction of the FP32 peak; naive and smem fetch so much from DRAM
 * (16 flop/B) that they fall left of the ridge. */
static void test_sgemm_right_of_the_ridge(void **state)
{
	(void)state;
	recorded r;
	assert_int_equal(recorded_load("sgemm", &r), 0);
	static const char *const compute[] = { "coalesced", "blocktile1d", "blocktile2d", "vectorized", "bankfree", "cpasync", "warptile" };
	for (size_t i = 0; i < sizeof compute / sizeof *compute; i++) {
		roofline_point p = place(&r, compute[i]);
		assert_int_equal(p.bound, ROOF_COMPUTE);
		assert_true(p.intensity > r.roofs.ridge);
		near(p.roof_gflops, r.roofs.compute_gflops, 1e-12);
		near(p.frac, recorded_stage(&r, compute[i])->pct_compute_peak / 100, 1e-9);
	}
	roofline_point w = place(&r, "warptile");
	assert_true(w.intensity > 10 * r.roofs.ridge);
	near(w.intensity, 331.5, 0.001);
	near(w.frac, 0.699, 0.001);
	assert_int_equal(place(&r, "naive").bound, ROOF_MEMORY);
	assert_int_equal(place(&r, "smem").bound, ROOF_MEMORY);
	near(place(&r, "naive").intensity, 16.1, 0.01);
	roofline_point b;
	char why[256];
	assert_int_equal(roofline_place(&r.roofs, &r.base, &b, why, sizeof why), 0);   /* cuBLAS */
	near(b.frac, 0.772, 0.001);
	/* the fastest placed run: warptile among the stages, cuBLAS with the baseline */
	assert_int_equal(roofline_best(&r.roofs, r.st, r.l->nstages), lesson_stage_index(r.l, "warptile"));
	run_result all[16];
	int n = 0;
	for (int s = 0; s < r.l->nstages; s++) all[n++] = r.st[s];
	all[n++] = r.base;
	assert_int_equal(roofline_best(&r.roofs, all, n), n - 1);
	/* without counters the model's bytes: every stage at 2mnk / 4(mk + kn + mn) = 683 flop/B */
	run_result nc = *recorded_stage(&r, "naive");
	nc.dram_bytes_read = nc.dram_bytes_write = -1;
	nc.log = NULL;
	roofline_point m;
	assert_int_equal(roofline_place(&r.roofs, &nc, &m, why, sizeof why), 0);
	assert_int_equal(m.bytes_from, ROOF_BYTES_MODEL);
	near(m.intensity, 2.0 * 4096 / 12, 1e-9);
	assert_int_equal(m.bound, ROOF_COMPUTE);
	recorded_free(&r);
}

/* The tensor-core lesson's peak is the BF16 tensor one (lessons/tensorcore.yaml): its ridge is at
 * 358 flop/B, the WMMA stages from global memory and with shared tiles fall left of it, the
 * pipelined and Hopper stages right; under the FP32 roof they would stand 10x above it. */
static void test_tensorcore_against_the_bf16_roof(void **state)
{
	(void)state;
	recorded r;
	assert_int_equal(recorded_load("tensorcore", &r), 0);
	assert_string_equal(r.roofs.compute_name, "BF16 tensor");
	near(r.roofs.ridge, 357.6, 0.001);
	assert_int_equal(place(&r, "wmma_global").bound, ROOF_MEMORY);
	assert_int_equal(place(&r, "wmma_smem").bound, ROOF_MEMORY);
	static const char *const compute[] = { "mma_pipeline", "wgmma_tma", "wgmma_ws" };
	for (size_t i = 0; i < 3; i++) {
		roofline_point p = place(&r, compute[i]);
		assert_int_equal(p.bound, ROOF_COMPUTE);
		near(p.frac, recorded_stage(&r, compute[i])->pct_compute_peak / 100, 1e-9);
	}
	roofline_point ws = place(&r, "wgmma_ws");
	near(ws.frac, 0.647, 0.001);
	near(ws.intensity, 698.4, 0.001);
	roofline_roofs fp32;
	char why[256];
	assert_int_equal(roofline_roofs_of(&r.dev, "fp32", &fp32, why, sizeof why), 0);
	roofline_point wrong;
	assert_int_equal(roofline_place(&fp32, recorded_stage(&r, "wgmma_ws"), &wrong, why, sizeof why), 0);
	assert_true(wrong.frac > 10);
	recorded_free(&r);
}

/* Measured right, no run stands above its roof: at most a few percent above the attainable
 * bandwidth (a kernel may beat the calibration copy), never above the theoretical bandwidth or the
 * compute peak. Every recorded run of the four lessons. */
static void test_no_point_above_the_roof(void **state)
{
	(void)state;
	static const struct { const char *id; int placed; } lessons[] = { { "bandwidth", 4 }, { "reduction", 0 }, { "sgemm", 10 }, { "tensorcore", 6 } };
	for (size_t k = 0; k < sizeof lessons / sizeof *lessons; k++) {
		recorded r;
		assert_int_equal(recorded_load(lessons[k].id, &r), 0);
		roofline_roofs theo = r.roofs;
		theo.mem_gbps = r.roofs.mem_theoretical_gbps;
		int placed = 0;
		for (int s = -1; s < r.l->nstages; s++) {
			if (s < 0 ? !r.have_base : !r.have[s]) continue;   /* a stage newer than the recording */
			const run_result *res = s < 0 ? &r.base : &r.st[s];
			roofline_point p;
			char why[256];
			if (roofline_place(&r.roofs, res, &p, why, sizeof why)) {
				assert_non_null(strstr(why, "no flops"));
				continue;
			}
			placed++;
			if (p.frac > 1.05) fail_msg("%s/%s at %.3f of its roof", r.l->id, res->stage, p.frac);
			if (p.gflops > roofline_roof_at(&theo, p.intensity)) fail_msg("%s/%s above the theoretical roof", r.l->id, res->stage);
			assert_true(p.frac > 0);
		}
		assert_int_equal(placed, lessons[k].placed);
		recorded_free(&r);
	}
}

/* Runs that have no place: not run, compiled only, wrong, a fault. */
static void test_runs_without_a_place(void **state)
{
	(void)state;
	recorded r;
	assert_int_equal(recorded_load("sgemm", &r), 0);
	run_result x = *recorded_stage(&r, "warptile");
	x.log = NULL;
	roofline_point p;
	char why[256];
	x.status = RUN_WRONG;
	assert_int_equal(roofline_place(&r.roofs, &x, &p, why, sizeof why), -1);
	assert_non_null(strstr(why, "wrong"));
	x.status = RUN_FAULT;
	assert_int_equal(roofline_place(&r.roofs, &x, &p, why, sizeof why), -1);
	assert_non_null(strstr(why, "fault"));
	x.status = RUN_OK;
	x.reps = 0;
	x.ms_median = 0;
	assert_int_equal(roofline_place(&r.roofs, &x, &p, why, sizeof why), -1);
	assert_non_null(strstr(why, "no time"));
	x = *recorded_stage(&r, "warptile");
	x.log = NULL;
	x.bytes = 0;
	x.dram_bytes_read = x.dram_bytes_write = -1;
	assert_int_equal(roofline_place(&r.roofs, &x, &p, why, sizeof why), -1);
	assert_non_null(strstr(why, "no bytes"));
	recorded_free(&r);
}

/* The JSON object the CLI adds to each result. */
static void test_json(void **state)
{
	(void)state;
	recorded r;
	assert_int_equal(recorded_load("sgemm", &r), 0);
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	roofline_json(f, &r.roofs, recorded_stage(&r, "warptile"));
	fputs(" | ", f);
	roofline_json(f, &r.roofs, recorded_stage(&r, "naive"));
	fputs(" | ", f);
	roofline_json(f, NULL, recorded_stage(&r, "naive"));
	fclose(f);
	assert_non_null(strstr(buf, "{\"intensity\": 331.4"));
	assert_non_null(strstr(buf, "\"bytes\": \"dram\""));
	assert_non_null(strstr(buf, "\"bound\": \"compute\", \"roof_gflops\": 66908.16"));
	assert_non_null(strstr(buf, "\"pct_of_roof\": 69.89"));
	assert_non_null(strstr(buf, "\"compute_peak\": \"FP32\"}"));
	assert_non_null(strstr(buf, "\"bound\": \"memory\""));
	assert_non_null(strstr(buf, " | null"));
	free(buf);
	recorded_free(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_roofs_from_the_recorded_device),
		cmocka_unit_test(test_bandwidth_far_left_on_the_memory_roof),
		cmocka_unit_test(test_sgemm_right_of_the_ridge),
		cmocka_unit_test(test_tensorcore_against_the_bf16_roof),
		cmocka_unit_test(test_no_point_above_the_roof),
		cmocka_unit_test(test_runs_without_a_place),
		cmocka_unit_test(test_json),
	};
	return cmocka_run_group_tests(tests, recorded_setup, recorded_teardown);
}
