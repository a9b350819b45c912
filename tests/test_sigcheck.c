/* Tests for src/engine/sigcheck.c's pointer element types (#46 item 4): a kernel's pointer parameters,
 * read from its source, against the types of the buffers a launch passes. The plans are built by
 * hand: two buffers, x f32 and idx i32, and one launch of k(x, idx, n). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>
#include "sigcheck.h"

static plan_buffer bufs[3] = { { .name = "x", .type = DT_F32 }, { .name = "idx", .type = DT_I32 }, { .name = "h", .type = DT_BF16 } };

/* Checks src against a launch of entry with buffers a, b and a number; 0 or -1, the message in msg. */
static int check(const char *src, const char *entry, const char *a, const char *b, char *msg, size_t n)
{
	plan_arg args[3] = { { .kind = ARG_BUFFER, .buffer = a }, { .kind = ARG_BUFFER, .buffer = b }, { .kind = ARG_VALUE, .type = AT_I32 } };
	plan_launch L = { .kind = STEP_LAUNCH, .entry = entry, .args = args, .nargs = 3 };
	plan p = { .buffers = bufs, .nbuffers = 3, .launches = &L, .nlaunches = 1 };
	char issue[32] = "";
	msg[0] = 0;
	int r = sigcheck_pointer_types(&p, src, "kernels/demo/k.cu", issue, sizeof issue, msg, n);
	if (r) assert_string_equal(issue, "signature");
	return r;
}

static void test_matching_types_pass(void **state)
{
	(void)state;
	char msg[512];
	assert_int_equal(check("extern \"C\" __global__ void k(const float *__restrict__ x, int *idx, int n) {}", "k", "x", "idx", msg, sizeof msg), 0);
	/* vectors of the same element, raw bytes, signedness, unknown names: not judged as wrong */
	assert_int_equal(check("extern \"C\" __global__ void k(const float4 *x, unsigned int *idx, int n) {}", "k", "x", "idx", msg, sizeof msg), 0);
	assert_int_equal(check("extern \"C\" __global__ void k(const void *x, const unsigned char *idx, int n) {}", "k", "x", "idx", msg, sizeof msg), 0);
	assert_int_equal(check("extern \"C\" __global__ void k(const uint4 *x, const T *idx, int n) {}", "k", "x", "idx", msg, sizeof msg), 0);
	assert_int_equal(check("extern \"C\" __global__ void k(const __nv_bfloat162 *x, int32_t *idx, int n) {}", "k", "h", "idx", msg, sizeof msg), 0);
	/* a kernel defined elsewhere (a header) or only declared here is not judged */
	assert_int_equal(check("extern \"C\" __global__ void k(const double *x, int *idx, int n);", "k", "x", "idx", msg, sizeof msg), 0);
	assert_int_equal(check("#include \"k.cuh\"\n", "k", "x", "idx", msg, sizeof msg), 0);
	assert_int_equal(check(NULL, "k", "x", "idx", msg, sizeof msg), 0);
}

static void test_wrong_element_type_fails(void **state)
{
	(void)state;
	char msg[512];
	assert_int_equal(check("extern \"C\" __global__ void k(const double *x, int *idx, int n) {}", "k", "x", "idx", msg, sizeof msg), -1);
	assert_string_equal(msg, "k.cu:1: parameter 1 of k is a double *, but the stage passes buffer x of f32 (float *): check the signature "
	                         "in k.cu against the stage's kernel");
	/* the second parameter, on its own line, after a comment that names other types */
	const char *src = "// a float kernel: double *x would be wrong\n"
	                  "extern \"C\" __global__ void\nk(const float *x, /* float * */\n    const float *idx, int n)\n{\n}\n";
	assert_int_equal(check(src, "k", "x", "idx", msg, sizeof msg), -1);
	assert_non_null(strstr(msg, "k.cu:3: parameter 2 of k is a float *, but the stage passes buffer idx of i32 (int *)"));
	/* an integer of another size, a half where bf16 is passed */
	assert_int_equal(check("extern \"C\" __global__ void k(float *x, long long *idx, int n) {}", "k", "x", "idx", msg, sizeof msg), -1);
	assert_non_null(strstr(msg, "parameter 2 of k is a long long *"));
	assert_int_equal(check("extern \"C\" __global__ void k(const __half *x, int *idx, int n) {}", "k", "h", "idx", msg, sizeof msg), -1);
	assert_non_null(strstr(msg, "buffer h of bf16"));
}

static void test_finds_the_definition(void **state)
{
	(void)state;
	char msg[512];
	/* a device function of a similar name and a declaration come first; the __global__ definition decides */
	const char *src = "__device__ float kk(const double *x) { return 0; }\n"
	                  "extern \"C\" __global__ void k(const double *x, int *idx, int n);\n"
	                  "__device__ void k2(double *x) {}\n"
	                  "extern \"C\" __global__ void k(const float *x, int *idx, int n) { kk(0); }\n";
	assert_int_equal(check(src, "k", "x", "idx", msg, sizeof msg), 0);
	/* a string that looks like a definition is not one */
	assert_int_equal(check("const char *s = \"__global__ void k(double *x, int *y, int n) {}\";\n", "k", "x", "idx", msg, sizeof msg), 0);
}

/* The kernel named thousands of times before its definition (a 240 KB learner's file, blanked in
 * "#if 0", or calls and declarations): its real definition is still found and judged, the mentions
 * each looked at within a bounded stretch (they used to scan back and ahead to the file's ends). */
static void test_many_mentions(void **state)
{
	(void)state;
	char msg[512];
	const char *def = "\nextern \"C\" __global__ void k(const double *x, int *idx, int n) {}\n";
	size_t reps = 40000, len = reps * 2 + 64 + strlen(def);
	char *src = malloc(len);
	strcpy(src, "#if 0\n");
	char *w = src + strlen(src);
	for (size_t i = 0; i < reps; i++) { memcpy(w, "k(", 2); w += 2; }
	strcpy(w, "\n#endif\nvoid k(float *x, int *idx, int n);");
	strcat(w, def);
	assert_int_equal(check(src, "k", "x", "idx", msg, sizeof msg), -1);
	assert_non_null(strstr(msg, "parameter 1 of k is a double *"));
	free(src);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_matching_types_pass),
		cmocka_unit_test(test_wrong_element_type_fails),
		cmocka_unit_test(test_finds_the_definition),
		cmocka_unit_test(test_many_mentions),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
