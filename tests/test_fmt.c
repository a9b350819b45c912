/* Tests for src/core/fmt.c: the one rule per quantity (fmt.h), at its boundaries: 0, negative, NaN,
 * infinity, 1023/1024, a value rounding up to the next unit, huge values, a buffer too small. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "fmt.h"

static char b[64];

static void test_num(void **state)
{
	(void)state;
	assert_string_equal(fmt_num(b, sizeof b, 0), "0");
	assert_string_equal(fmt_num(b, sizeof b, 0.0104), "0.0104");
	assert_string_equal(fmt_num(b, sizeof b, 0.167), "0.167");
	assert_string_equal(fmt_num(b, sizeof b, 1), "1.00");
	assert_string_equal(fmt_num(b, sizeof b, 22.34), "22.3");
	assert_string_equal(fmt_num(b, sizeof b, 332.4), "332");
	assert_string_equal(fmt_num(b, sizeof b, 9.996), "10.0");
	assert_string_equal(fmt_num(b, sizeof b, 99.96), "100");
	assert_string_equal(fmt_num(b, sizeof b, 4567.4), "4567");
	assert_string_equal(fmt_num(b, sizeof b, 9999.4), "9999");
	assert_string_equal(fmt_num(b, sizeof b, 9999.6), "10.0k");
	assert_string_equal(fmt_num(b, sizeof b, 46767), "46.8k");
	assert_string_equal(fmt_num(b, sizeof b, 999999), "1.00M");
	assert_string_equal(fmt_num(b, sizeof b, 1.05e6), "1.05M");
	assert_string_equal(fmt_num(b, sizeof b, 2.5e9), "2.50G");
	assert_string_equal(fmt_num(b, sizeof b, 7e12), "7.00T");
	assert_string_equal(fmt_num(b, sizeof b, 1e20), "1.00e+20");
	assert_string_equal(fmt_num(b, sizeof b, -3.2), "-3.20");
	assert_string_equal(fmt_num(b, sizeof b, -46767), "-46.8k");
	assert_string_equal(fmt_num(b, sizeof b, 1.234e-9), "1.23e-09");
	assert_string_equal(fmt_num(b, sizeof b, NAN), "-");
	assert_string_equal(fmt_num(b, sizeof b, INFINITY), "inf");
	assert_string_equal(fmt_num(b, sizeof b, -INFINITY), "-inf");
}

static void test_time(void **state)
{
	(void)state;
	assert_string_equal(fmt_time(b, sizeof b, 0), "0 ms");
	assert_string_equal(fmt_time(b, sizeof b, 0.000412), "412 ns");
	assert_string_equal(fmt_time(b, sizeof b, 0.0234), "23.4 us");
	assert_string_equal(fmt_time(b, sizeof b, 0.4123), "412 us");
	assert_string_equal(fmt_time(b, sizeof b, 0.9997), "1.00 ms");   /* rounds to 1000 us: the next unit */
	assert_string_equal(fmt_time(b, sizeof b, 0.0009997), "1.00 us");
	assert_string_equal(fmt_time(b, sizeof b, 4.2), "4.20 ms");
	assert_string_equal(fmt_time(b, sizeof b, 123.4), "123 ms");
	assert_string_equal(fmt_time(b, sizeof b, 999.4), "999 ms");
	assert_string_equal(fmt_time(b, sizeof b, 999.6), "1.00 s");
	assert_string_equal(fmt_time(b, sizeof b, 2500), "2.50 s");
	assert_string_equal(fmt_time(b, sizeof b, 86400e3), "86400 s");   /* no unit past s */
	assert_string_equal(fmt_time(b, sizeof b, -1), "-");
	assert_string_equal(fmt_time(b, sizeof b, NAN), "-");
	assert_string_equal(fmt_time(b, sizeof b, INFINITY), "inf");
	assert_string_equal(fmt_ms(b, sizeof b, 0.0234), "0.0234");
	assert_string_equal(fmt_ms(b, sizeof b, 0.644), "0.644");
	assert_string_equal(fmt_ms(b, sizeof b, 5.634), "5.63");
	assert_string_equal(fmt_ms(b, sizeof b, 10.64), "10.6");
	assert_string_equal(fmt_ms(b, sizeof b, 0.09996), "0.100");
	assert_string_equal(fmt_ms(b, sizeof b, 12345.6), "12346");
	assert_string_equal(fmt_ms(b, sizeof b, 0), "0");
	assert_string_equal(fmt_ms(b, sizeof b, -1), "-");
	assert_string_equal(fmt_ms_col(b, sizeof b, 0), "0.0000");
	assert_string_equal(fmt_ms_col(b, sizeof b, 12.34567), "12.3457");
	assert_string_equal(fmt_ms_col(b, sizeof b, -1), "-");
	assert_string_equal(fmt_ms_col(b, sizeof b, NAN), "-");
}

static void test_bytes(void **state)
{
	(void)state;
	assert_string_equal(fmt_bytes(b, sizeof b, 0), "0 B");
	assert_string_equal(fmt_bytes(b, sizeof b, 512), "512 B");
	assert_string_equal(fmt_bytes(b, sizeof b, 1000), "1000 B");
	assert_string_equal(fmt_bytes(b, sizeof b, 1023), "1023 B");
	assert_string_equal(fmt_bytes(b, sizeof b, 1024), "1 KiB");
	assert_string_equal(fmt_bytes(b, sizeof b, 1025), "1.00 KiB");
	assert_string_equal(fmt_bytes(b, sizeof b, 49152), "48 KiB");
	assert_string_equal(fmt_bytes(b, sizeof b, 227 * 1024), "227 KiB");
	assert_string_equal(fmt_bytes(b, sizeof b, 1536 * 1024), "1.50 MiB");
	assert_string_equal(fmt_bytes(b, sizeof b, 1023.7 * 1024), "1.00 MiB");   /* "1024 KiB" is the next unit */
	assert_string_equal(fmt_bytes(b, sizeof b, 1024.0 * 1024 * 1024 - 1), "1.00 GiB");
	assert_string_equal(fmt_bytes(b, sizeof b, 79.1 * 1073741824.0), "79.1 GiB");
	assert_string_equal(fmt_bytes(b, sizeof b, 4.0 * 1099511627776.0), "4 TiB");
	assert_string_equal(fmt_bytes(b, sizeof b, 1e30), "9.09e+17 TiB");
	assert_string_equal(fmt_bytes(b, sizeof b, -5), "-");
	assert_string_equal(fmt_bytes(b, sizeof b, NAN), "-");
	assert_string_equal(fmt_bytes(b, sizeof b, INFINITY), "inf");
}

static void test_traffic(void **state)
{
	(void)state;
	assert_string_equal(fmt_traffic(b, sizeof b, 0), "0 B");
	assert_string_equal(fmt_traffic(b, sizeof b, 512), "512 B");
	assert_string_equal(fmt_traffic(b, sizeof b, 999), "999 B");
	assert_string_equal(fmt_traffic(b, sizeof b, 999.7), "1.00 kB");
	assert_string_equal(fmt_traffic(b, sizeof b, 1023), "1.02 kB");
	assert_string_equal(fmt_traffic(b, sizeof b, 1024), "1.02 kB");
	assert_string_equal(fmt_traffic(b, sizeof b, 33.6e6), "33.6 MB");
	assert_string_equal(fmt_traffic(b, sizeof b, 268435456), "268 MB");
	assert_string_equal(fmt_traffic(b, sizeof b, 999.6e6), "1.00 GB");
	assert_string_equal(fmt_traffic(b, sizeof b, 1.0737e9), "1.07 GB");
	assert_string_equal(fmt_traffic(b, sizeof b, 5e15), "5000 TB");
	assert_string_equal(fmt_traffic(b, sizeof b, -1), "-");
	assert_string_equal(fmt_traffic(b, sizeof b, NAN), "-");
}

static void test_rates(void **state)
{
	(void)state;
	assert_string_equal(fmt_gbps(b, sizeof b, 0), "0 GB/s");
	assert_string_equal(fmt_gbps(b, sizeof b, 25.04), "25.0 GB/s");
	assert_string_equal(fmt_gbps(b, sizeof b, 2990.4), "2990 GB/s");
	assert_string_equal(fmt_gbps(b, sizeof b, 0.5), "0.500 GB/s");
	assert_string_equal(fmt_gbps(b, sizeof b, -1), "-");
	assert_string_equal(fmt_gflops(b, sizeof b, 0), "0 GFLOP/s");
	assert_string_equal(fmt_gflops(b, sizeof b, 620.04), "620 GFLOP/s");
	assert_string_equal(fmt_gflops(b, sizeof b, 999.4), "999 GFLOP/s");
	assert_string_equal(fmt_gflops(b, sizeof b, 999.6), "1.00 TFLOP/s");
	assert_string_equal(fmt_gflops(b, sizeof b, 30400), "30.4 TFLOP/s");
	assert_string_equal(fmt_gflops(b, sizeof b, 989000), "989 TFLOP/s");
	assert_string_equal(fmt_gflops(b, sizeof b, 4.5e6), "4500 TFLOP/s");
	assert_string_equal(fmt_gflops(b, sizeof b, NAN), "-");
	assert_string_equal(fmt_gflops(b, sizeof b, INFINITY), "inf");
}

static void test_pct(void **state)
{
	(void)state;
	assert_string_equal(fmt_pct(b, sizeof b, 0), "0%");
	assert_string_equal(fmt_pct(b, sizeof b, 0.0001), "<0.1%");
	assert_string_equal(fmt_pct(b, sizeof b, 0.004), "0.4%");
	assert_string_equal(fmt_pct(b, sizeof b, 0.095), "9.5%");
	assert_string_equal(fmt_pct(b, sizeof b, 0.0996), "10%");
	assert_string_equal(fmt_pct(b, sizeof b, 0.1), "10%");
	assert_string_equal(fmt_pct(b, sizeof b, 0.454), "45%");
	assert_string_equal(fmt_pct(b, sizeof b, 0.9996), "100%");
	assert_string_equal(fmt_pct(b, sizeof b, 1), "100%");
	assert_string_equal(fmt_pct(b, sizeof b, 12.5), "1250%");
	assert_string_equal(fmt_pct(b, sizeof b, -0.5), "-");
	assert_string_equal(fmt_pct(b, sizeof b, NAN), "-");
	assert_string_equal(fmt_pct(b, sizeof b, INFINITY), "inf");
}

/* A buffer too small is cut short and terminated; n = 0 writes nothing. */
static void test_small_buffer(void **state)
{
	(void)state;
	char s[5] = "xxxx";
	assert_ptr_equal(fmt_gflops(s, sizeof s, 30400), s);
	assert_string_equal(s, "30.4");
	char z = 'z';
	assert_ptr_equal(fmt_bytes(&z, 0, 1024), &z);
	assert_int_equal(z, 'z');
	char t[3];
	assert_string_equal(fmt_num(t, sizeof t, 46767), "46");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_num), cmocka_unit_test(test_time), cmocka_unit_test(test_bytes), cmocka_unit_test(test_traffic),
		cmocka_unit_test(test_rates), cmocka_unit_test(test_pct), cmocka_unit_test(test_small_buffer),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
