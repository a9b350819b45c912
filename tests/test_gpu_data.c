/* Tests for the host-side parts of the worker that need no GPU: gpu_values_convert (src/worker/gpu_data.c),
 * which turns a lesson's expression values into a buffer's elements, and gpu_copy_bound_ms
 * (src/worker/gpu_device.c), the bound of a stage that copies. Run from the repository root.
 *
 * The expected f16 and bf16 bits are worked out by hand from the IEEE layouts: f16 is 1 sign, 5
 * exponent (bias 15) and 10 mantissa bits, so 1.0 = 0x3C00, the largest finite 65504 = 0x7BFF, the
 * smallest normal 2^-14 = 0x0400, the smallest subnormal 2^-24 = 0x0001; bf16 is 1, 8 (bias 127), 7,
 * so 1.0 = 0x3F80, infinity 0x7F80. Ties go to the even mantissa. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "gpu.h"

static uint16_t half_of(double v)
{
	uint16_t h;
	gpu_values_convert(DT_F16, &v, 1, &h);
	return h;
}

static uint16_t bf16_of(double v)
{
	uint16_t h;
	gpu_values_convert(DT_BF16, &v, 1, &h);
	return h;
}

static void test_half(void **state)
{
	(void)state;
	assert_int_equal(half_of(1.0), 0x3C00);
	assert_int_equal(half_of(-2.0), 0xC000);
	assert_int_equal(half_of(0.0), 0x0000);
	assert_int_equal(half_of(-0.0), 0x8000);
	assert_int_equal(half_of(0.1), 0x2E66);          /* 0.0999755859375: 0.1 lies nearer it than 0x2E67 */
	assert_int_equal(half_of(65504.0), 0x7BFF);
	assert_int_equal(half_of(65519.99), 0x7BFF);     /* below the halfway point to 65536 */
	assert_int_equal(half_of(65520.0), 0x7C00);      /* the halfway point rounds to even: infinity */
	assert_int_equal(half_of(1e6), 0x7C00);
	assert_int_equal(half_of(-INFINITY), 0xFC00);
	assert_int_equal(half_of(NAN), 0x7E00);
	assert_int_equal(half_of(ldexp(1, -14)), 0x0400);   /* the smallest normal */
	assert_int_equal(half_of(ldexp(1, -24)), 0x0001);   /* the smallest subnormal */
	assert_int_equal(half_of(ldexp(1, -25)), 0x0000);   /* half of it: a tie, to even (zero) */
	assert_int_equal(half_of(ldexp(3, -25)), 0x0002);   /* 1.5 units: a tie, to even (2) */
	assert_int_equal(half_of(ldexp(1, -14) - ldexp(1, -25)), 0x0400);   /* 1023.5 units round up into the normals */
	assert_int_equal(half_of(1 + ldexp(1, -11)), 0x3C00);      /* a tie between mantissas 0 and 1: 0 */
	assert_int_equal(half_of(1 + 3 * ldexp(1, -11)), 0x3C02);  /* a tie between 1 and 2: 2 */
	assert_int_equal(half_of(2 - ldexp(1, -12)), 0x4000);      /* rounds up into the next exponent */
}

static void test_bf16(void **state)
{
	(void)state;
	assert_int_equal(bf16_of(1.0), 0x3F80);
	assert_int_equal(bf16_of(-1.0), 0xBF80);
	assert_int_equal(bf16_of(3.140625), 0x4049);
	assert_int_equal(bf16_of(1e39), 0x7F80);         /* past the largest finite (about 3.39e38) */
	assert_int_equal(bf16_of(NAN), 0x7FC0);
	assert_int_equal(bf16_of(1 + ldexp(1, -8)), 0x3F80);   /* a tie: to even */
	/* Straight from the double: through a float first, 2^-40 would be lost and the tie would round
	 * down; the double is above the tie, so it rounds up. */
	assert_int_equal(bf16_of(1 + ldexp(1, -8) + ldexp(1, -40)), 0x3F81);
	assert_int_equal(bf16_of(ldexp(1, -133)), 0x0001);    /* the smallest subnormal */
}

static void test_floats_and_integers(void **state)
{
	(void)state;
	double v[] = { 3.7, -3.7, 1e40, -1e40, NAN, 0.5 };   /* 1e40: past the largest float */
	float f[6];
	gpu_values_convert(DT_F32, v, 6, f);
	assert_true(f[0] == 3.7f && f[1] == -3.7f && isinf(f[2]) && isnan(f[4]) && f[5] == 0.5f);
	double d[6];
	gpu_values_convert(DT_F64, v, 6, d);
	assert_memory_equal(d, v, 4 * sizeof(double));
	int32_t i32[6];
	gpu_values_convert(DT_I32, v, 6, i32);
	assert_int_equal(i32[0], 3);
	assert_int_equal(i32[1], -3);
	assert_int_equal(i32[2], INT32_MAX);
	assert_int_equal(i32[3], INT32_MIN);
	assert_int_equal(i32[4], 0);
	assert_int_equal(i32[5], 0);
	uint32_t u32[6];
	gpu_values_convert(DT_U32, v, 6, u32);
	assert_int_equal(u32[0], 3);
	assert_int_equal(u32[1], 0);
	assert_int_equal(u32[2], UINT32_MAX);
	int8_t i8[3];
	uint8_t u8[3];
	double small[] = { 300, -300, -5.9 };
	gpu_values_convert(DT_I8, small, 3, i8);
	gpu_values_convert(DT_U8, small, 3, u8);
	assert_int_equal(i8[0], 127);
	assert_int_equal(i8[1], -128);
	assert_int_equal(i8[2], -5);
	assert_int_equal(u8[0], 255);
	assert_int_equal(u8[1], 0);
	assert_int_equal(u8[2], 0);
	double big[] = { 1e30, -1e30, ldexp(1, 63), ldexp(1, 64), 12345678901.0 };
	int64_t i64[5];
	uint64_t u64[5];
	gpu_values_convert(DT_I64, big, 5, i64);
	gpu_values_convert(DT_U64, big, 5, u64);
	assert_true(i64[0] == INT64_MAX && i64[1] == INT64_MIN && i64[2] == INT64_MAX && i64[4] == 12345678901LL);
	assert_true(u64[0] == UINT64_MAX && u64[1] == 0 && u64[2] == 9223372036854775808ULL && u64[3] == UINT64_MAX &&
	            u64[4] == 12345678901ULL);
}

static void test_copy_bound(void **state)
{
	(void)state;
	/* 1 GB in at 25 GB/s is 40 ms; 0.5 GB out at 50 GB/s is 10 ms; the kernels 12 ms. */
	assert_true(fabs(gpu_copy_bound_ms(1e9, 5e8, 25, 50, 12) - 40) < 1e-9);
	assert_true(fabs(gpu_copy_bound_ms(1e8, 5e8, 25, 50, 12) - 12) < 1e-9);   /* the kernels bound it */
	assert_true(fabs(gpu_copy_bound_ms(0, 1e9, 25, 20, 1) - 50) < 1e-9);
	assert_true(gpu_copy_bound_ms(0, 0, 25, 50, 12) == 0);                     /* nothing copied: no bound */
	assert_true(fabs(gpu_copy_bound_ms(1e9, 0, 0, 50, 3) - 3) < 1e-9);         /* no bandwidth known: that way counts 0 */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_half),
		cmocka_unit_test(test_bf16),
		cmocka_unit_test(test_floats_and_integers),
		cmocka_unit_test(test_copy_bound),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
