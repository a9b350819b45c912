/* Tests for src/engine/sanitize.c: reports in the shapes compute-sanitizer writes (two wordings of the
 * location line), the error in the learner's file preferred, clean reports, and the wrapper argv. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>
#include "sanitize.h"

static const char memcheck_report[] =
	"========= COMPUTE-SANITIZER\n"
	"========= Invalid __global__ write of size 4 bytes\n"
	"=========     at scale+0x1d0 in /home/ada/cudaclimb-work/demo/fault.cu:4\n"
	"=========     by thread (5,0,0) in block (2,0,0)\n"
	"=========     Address 0x7f1000000014 is out of bounds\n"
	"=========     and is 1,099,511,627,796 bytes after the nearest allocation at 0x7f0000000000 of size 20 bytes\n"
	"=========\n"
	"========= Program hit cudaErrorLaunchFailure (error 719) due to \"unspecified launch failure\" on CUDA API call to cudaDeviceSynchronize.\n"
	"=========\n"
	"========= ERROR SUMMARY: 2 errors\n";

/* The newer wording: "at 0xOFFSET in FILE:LINE:FUNCTION", and a first error in another file. */
static const char memcheck_two[] =
	"========= COMPUTE-SANITIZER\n"
	"========= Invalid __shared__ read of size 4 bytes\n"
	"=========     at 0x90 in /opt/cudaclimb/kernels/builtin/data.cu:61:compare_f32\n"
	"=========     by thread (0,0,0) in block (0,0,0)\n"
	"=========     Address 0x400 is out of bounds\n"
	"========= Misaligned Shared or Local Address\n"
	"=========     at 0x1f0 in /tmp/w/demo/scale.cu:7:scale\n"
	"=========     by thread (31,0,0) in block (0,0,0)\n"
	"========= ERROR SUMMARY: 2 errors\n";

static const char racecheck_report[] =
	"========= COMPUTE-SANITIZER\n"
	"========= Error: Race reported between Write access at block_sum+0x1b0 in /tmp/w/demosum/race.cu:8\n"
	"=========     and Read access at block_sum+0x190 in /tmp/w/demosum/race.cu:8 [3968 hazards]\n"
	"=========\n"
	"========= RACECHECK SUMMARY: 1 hazard displayed (1 error, 0 warnings)\n";

static void test_memcheck(void **state)
{
	(void)state;
	char out[512];
	assert_int_equal(san_parse(SAN_MEMCHECK, memcheck_report, "/home/ada/cudaclimb-work/demo/fault.cu", out, sizeof out), 1);
	assert_string_equal(out, "memcheck: invalid __global__ write of size 4 bytes at fault.cu:4, thread (5,0,0) in block (2,0,0): "
	                         "the address is out of bounds");
	/* the error in the learner's file is preferred over an earlier one elsewhere */
	assert_int_equal(san_parse(SAN_MEMCHECK, memcheck_two, "scale.cu", out, sizeof out), 1);
	assert_string_equal(out, "memcheck: misaligned Shared or Local Address at scale.cu:7, thread (31,0,0) in block (0,0,0)");
	/* without a hint, the first */
	assert_int_equal(san_parse(SAN_MEMCHECK, memcheck_two, NULL, out, sizeof out), 1);
	assert_non_null(strstr(out, "at data.cu:61"));
}

static void test_racecheck(void **state)
{
	(void)state;
	char out[512];
	assert_int_equal(san_parse(SAN_RACECHECK, racecheck_report, "race.cu", out, sizeof out), 1);
	assert_string_equal(out, "racecheck: a race in shared memory between a write at race.cu:8 and a read at race.cu:8 "
	                         "(a barrier missing between them?)");
}

static void test_clean_and_garbage(void **state)
{
	(void)state;
	char out[512];
	assert_int_equal(san_parse(SAN_MEMCHECK, "========= COMPUTE-SANITIZER\n========= ERROR SUMMARY: 0 errors\n", "k.cu", out, sizeof out), 0);
	assert_string_equal(out, "memcheck found no invalid access");
	assert_int_equal(san_parse(SAN_RACECHECK, "========= COMPUTE-SANITIZER\n========= RACECHECK SUMMARY: 0 hazards displayed (0 errors, 0 warnings)\n",
	                           "k.cu", out, sizeof out), 0);
	assert_string_equal(out, "racecheck found no race in shared memory");
	assert_int_equal(san_parse(SAN_MEMCHECK, "========= COMPUTE-SANITIZER\n", "k.cu", out, sizeof out), 0);
	assert_non_null(strstr(out, "no summary"));
	assert_int_equal(san_parse(SAN_MEMCHECK, "", "k.cu", out, sizeof out), -1);
	assert_int_equal(san_parse(SAN_MEMCHECK, NULL, NULL, out, sizeof out), -1);
	assert_int_equal(san_parse(SAN_MEMCHECK, "no prefix here\nat x.cu:4\n", NULL, out, sizeof out), -1);
	/* a tiny buffer truncates, never overflows */
	char small[8];
	assert_int_equal(san_parse(SAN_MEMCHECK, memcheck_report, NULL, small, sizeof small), 1);
	assert_int_equal(strlen(small), 7);
}

static void test_argv(void **state)
{
	(void)state;
	char *argv[16];
	int n = san_argv("/cuda/bin/compute-sanitizer", SAN_RACECHECK, "/tmp/x.log", argv, 16);
	assert_true(n >= 5);
	assert_string_equal(argv[0], "/cuda/bin/compute-sanitizer");
	assert_string_equal(argv[1], "--tool");
	assert_string_equal(argv[2], "racecheck");
	int logged = 0;
	for (int i = 0; i + 1 < n; i++) logged |= !strcmp(argv[i], "--log-file") && !strcmp(argv[i + 1], "/tmp/x.log");
	assert_true(logged);
	assert_null(argv[n]);
	assert_int_equal(san_argv("t", SAN_MEMCHECK, "l", argv, 3), 2);   /* capped, still terminated */
	assert_null(argv[2]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_memcheck), cmocka_unit_test(test_racecheck),
		cmocka_unit_test(test_clean_and_garbage), cmocka_unit_test(test_argv),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
