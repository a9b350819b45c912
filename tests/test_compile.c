/* Tests for src/engine/compile.c: the ptxas report parser on recorded logs, the cache key, and real NVRTC
 * compiles (no GPU needed) into a temporary cache: results, caching, errors with line numbers, and
 * cache files written whole; -rdc compiles linked with the device runtime through nvJitLink, link
 * errors, and a missing nvJitLink or device runtime. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "compile.h"
#include "sass.h"
#include "util.h"

/* ---- ptxas reports ---- */

/* Recorded from NVRTC (sm_90), then a second function with spills as ptxas reports them. */
static const char ptxas_log[] =
	"ptxas info    : 0 bytes gmem\n"
	"ptxas info    : Compiling entry function 'k' for 'sm_90'\n"
	"ptxas info    : Function properties for k\n"
	"ptxas         .     0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
	"ptxas info    : Used 10 registers, used 1 barriers, 1024 bytes smem\n"
	"ptxas info    : Compiling entry function 'sgemm_tile' for 'sm_90'\n"
	"ptxas info    : Function properties for sgemm_tile\n"
	"ptxas         .     24 bytes stack frame, 8 bytes spill stores, 12 bytes spill loads\n"
	"ptxas info    : Used 255 registers, 49152 bytes smem, 380 bytes cmem[0]\n";

static void test_parse_ptxas(void **state)
{
	(void)state;
	compile_result r;
	memset(&r, 0, sizeof r);
	compile_parse_ptxas(ptxas_log, &r);
	assert_int_equal(r.nentries, 2);
	const compile_entry *k = compile_find_entry(&r, "k"), *g = compile_find_entry(&r, "sgemm_tile");
	assert_non_null(k);
	assert_non_null(g);
	assert_string_equal(k->name, "k");
	assert_int_equal(k->regs, 10);
	assert_int_equal(k->stack_bytes, 0);
	assert_int_equal(k->spill_stores, 0);
	assert_int_equal(k->spill_loads, 0);
	assert_int_equal(k->static_smem, 1024);
	assert_int_equal(g->regs, 255);
	assert_int_equal(g->stack_bytes, 24);
	assert_int_equal(g->spill_stores, 8);
	assert_int_equal(g->spill_loads, 12);
	assert_int_equal(g->static_smem, 49152);
	assert_null(compile_find_entry(&r, "sgemm"));
	assert_null(compile_find_entry(&r, "k2"));

	/* parsing again starts over */
	compile_parse_ptxas("ptxas info    : 0 bytes gmem\n", &r);
	assert_int_equal(r.nentries, 0);
	compile_parse_ptxas("", &r);
	assert_int_equal(r.nentries, 0);

	/* no trailing newline, no smem */
	compile_parse_ptxas("ptxas info    : Compiling entry function 'a' for 'sm_80'\nptxas info    : Used 3 registers", &r);
	assert_int_equal(r.nentries, 1);
	assert_int_equal(r.entries[0].regs, 3);
	assert_int_equal(r.entries[0].static_smem, 0);
}

/* A __noinline__ device function's properties come after an entry's report (recorded from NVRTC 13,
 * sm_90): they belong to that function and must not overwrite the entry's 256-byte stack frame. */
static void test_parse_ptxas_device_function(void **state)
{
	(void)state;
	static const char log[] =
		"ptxas info    : 0 bytes gmem\n"
		"ptxas info    : Compiling entry function 'k2' for 'sm_90'\n"
		"ptxas info    : Function properties for k2\n"
		"ptxas         .     256 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
		"ptxas info    : Used 40 registers, used 0 barriers, 256 bytes cumulative stack size\n"
		"ptxas info    : Compile time = 102.632 ms\n"
		"ptxas info    : Function properties for _Z6helperPfi\n"
		"ptxas         .     0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
		"ptxas info    : Compiling entry function 'k1' for 'sm_90'\n"
		"ptxas info    : Function properties for k1\n"
		"ptxas         .     256 bytes stack frame, 8 bytes spill stores, 4 bytes spill loads\n"
		"ptxas info    : Used 40 registers, used 0 barriers, 256 bytes cumulative stack size\n"
		"ptxas info    : Compile time = 83.586 ms\n"
		"ptxas info    : Function properties for _Z6helperPfi\n"
		"ptxas         .     0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n";
	compile_result r;
	memset(&r, 0, sizeof r);
	compile_parse_ptxas(log, &r);
	assert_int_equal(r.nentries, 2);
	for (int i = 0; i < 2; i++) {
		assert_int_equal(r.entries[i].regs, 40);
		assert_int_equal(r.entries[i].stack_bytes, 256);
		assert_int_equal(r.entries[i].static_smem, 0);
	}
	assert_int_equal(compile_find_entry(&r, "k1")->spill_stores, 8);
	assert_int_equal(compile_find_entry(&r, "k1")->spill_loads, 4);
	assert_null(compile_find_entry(&r, "_Z6helperPfi"));
}

static void test_parse_ptxas_many(void **state)
{
	(void)state;
	sb b = {0};
	for (int i = 0; i < COMPILE_MAX_ENTRIES + 4; i++)
		sb_addf(&b, "ptxas info    : Compiling entry function 'f%d' for 'sm_90'\nptxas info    : Used %d registers\n", i, i + 1);
	compile_result r;
	memset(&r, 0, sizeof r);
	compile_parse_ptxas(b.s, &r);
	assert_int_equal(r.nentries, COMPILE_MAX_ENTRIES);
	assert_int_equal(compile_find_entry(&r, "f15")->regs, 16);
	assert_null(compile_find_entry(&r, "f16"));
	sb_free(&b);
}

/* ---- a temporary kernel folder and cache ---- */

static char tmp_root[256], kdir[300], cache_dir[300];

static void write_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static char *path_in(const char *dir, const char *name) { return xasprintf("%s/%s", dir, name); }

static const char kernel_src[] =
	"#include \"common.cuh\"\n"
	"extern \"C\" __global__ void add1(float *x, int n)\n"
	"{\n"
	"\tint i = blockIdx.x * BLOCK + threadIdx.x;\n"
	"\tif (i < n) x[i] = twice(x[i]) + 1.0f;\n"
	"}\n";

static int setup(void **state)
{
	(void)state;
	snprintf(tmp_root, sizeof tmp_root, "/tmp/cc_test_compile.XXXXXX");
	if (!mkdtemp(tmp_root)) return -1;
	snprintf(kdir, sizeof kdir, "%s/kernels", tmp_root);
	snprintf(cache_dir, sizeof cache_dir, "%s/cache", tmp_root);
	if (mkdir(kdir, 0755) || mkdir(cache_dir, 0755)) return -1;
	setenv("XDG_CACHE_HOME", cache_dir, 1);
	char *k = path_in(kdir, "add1.cu"), *h = path_in(kdir, "common.cuh");
	FILE *f = fopen(k, "w"), *g = fopen(h, "w");
	if (!f || !g) return -1;
	fputs(kernel_src, f);
	fputs("__device__ inline float twice(float v) { return 2.0f * v; }\n", g);
	fclose(f);
	fclose(g);
	free(k);
	free(h);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	char *cmd = xasprintf("rm -rf '%s'", tmp_root);
	if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", tmp_root);
	free(cmd);
	return 0;
}

/* ---- the cache key ---- */

static void key_of(const char *kernel, const char *arch, char *const *opts, int nopts, char out[COMPILE_KEY_LEN])
{
	compile_request rq = { .kernel_path = kernel, .include_dir = kdir, .arch = arch, .options = opts, .noptions = nopts };
	assert_int_equal(compile_key(&rq, out), 0);
	assert_int_equal(strlen(out), 64);   /* SHA-256 in hex */
}

static void test_key(void **state)
{
	(void)state;
	char *k = path_in(kdir, "key.cu"), *h = path_in(kdir, "key_extra.cuh"), *txt = path_in(kdir, "notes.txt");
	char *opts[] = { "-DBLOCK=256", "--use_fast_math" }, *opts2[] = { "-DBLOCK=128", "--use_fast_math" };
	char base[COMPILE_KEY_LEN], again[COMPILE_KEY_LEN], other[COMPILE_KEY_LEN];
	write_text(k, "extern \"C\" __global__ void f() {}\n");
	key_of(k, "sm_90", opts, 2, base);
	key_of(k, "sm_90", opts, 2, again);
	assert_string_equal(base, again);   /* deterministic */

	/* the source */
	write_text(k, "extern \"C\" __global__ void f() { }\n");
	key_of(k, "sm_90", opts, 2, other);
	assert_string_not_equal(base, other);
	write_text(k, "extern \"C\" __global__ void f() {}\n");
	key_of(k, "sm_90", opts, 2, again);
	assert_string_equal(base, again);

	/* a header beside it: added, changed, removed */
	write_text(h, "#define X 1\n");
	key_of(k, "sm_90", opts, 2, other);
	assert_string_not_equal(base, other);
	char with_header[COMPILE_KEY_LEN];
	memcpy(with_header, other, 17);
	write_text(h, "#define X 2\n");
	key_of(k, "sm_90", opts, 2, other);
	assert_string_not_equal(with_header, other);
	assert_string_not_equal(base, other);
	unlink(h);
	key_of(k, "sm_90", opts, 2, again);
	assert_string_equal(base, again);

	/* a file that is not a header does not count */
	write_text(txt, "anything\n");
	key_of(k, "sm_90", opts, 2, again);
	assert_string_equal(base, again);
	unlink(txt);

	/* options: a value, the count, the order */
	key_of(k, "sm_90", opts2, 2, other);
	assert_string_not_equal(base, other);
	key_of(k, "sm_90", opts, 1, other);
	assert_string_not_equal(base, other);
	char *swapped[] = { opts[1], opts[0] };
	key_of(k, "sm_90", swapped, 2, other);
	assert_string_not_equal(base, other);

	/* the architecture */
	key_of(k, "sm_80", opts, 2, other);
	assert_string_not_equal(base, other);
	key_of(k, "sm_90a", opts, 2, other);
	assert_string_not_equal(base, other);

	/* an unreadable source */
	char *none = path_in(kdir, "none.cu");
	compile_request rq = { .kernel_path = none, .include_dir = kdir, .arch = "sm_90" };
	assert_int_equal(compile_key(&rq, other), -1);
	char err[256] = "";
	assert_null(compile_start(&rq, err, sizeof err));
	assert_non_null(strstr(err, "cannot read"));
	unlink(k);
	free(none); free(k); free(h); free(txt);
}

/* kernels/common (the folder beside the lesson's, here tmp_root/common): its headers can be
 * included by a lesson's kernel, count in the cache key, and lose to a header of the same name beside
 * the kernel. */
static void test_common_headers(void **state)
{
	(void)state;
	char *common = path_in(tmp_root, "common");
	assert_int_equal(mkdir(common, 0755), 0);
	char *shared = path_in(common, "shared_inc.cuh"), *k = path_in(kdir, "uses_common.cu");
	write_text(shared, "__device__ inline float inc(float v) { return v + 1.0f; }\n");
	write_text(k, "#include \"shared_inc.cuh\"\nextern \"C\" __global__ void g(float *x) { x[0] = inc(x[0]); }\n");
	char first[COMPILE_KEY_LEN], again[COMPILE_KEY_LEN];
	key_of(k, "sm_90", NULL, 0, first);
	write_text(shared, "__device__ inline float inc(float v) { return v + 2.0f; }\n");
	key_of(k, "sm_90", NULL, 0, again);
	assert_string_not_equal(first, again);   /* a shared header's text is in the key */
	compile_request rq = { .kernel_path = k, .include_dir = kdir, .arch = "sm_80" };
	compile_result r;
	char err[256] = "";
	assert_int_equal(compile_run(&rq, &r, err, sizeof err), 0);
	if (!r.ok) fail_msg("a kernel including a kernels/common header did not compile: %s", r.log ? r.log : err);
	assert_non_null(compile_find_entry(&r, "g"));
	free(r.log);
	/* a header of the same name beside the kernel is the one included */
	char *local = path_in(kdir, "shared_inc.cuh");
	write_text(local, "#error the lesson's own header\n");
	assert_int_equal(compile_run(&rq, &r, err, sizeof err), 0);
	assert_false(r.ok);
	assert_non_null(strstr(r.log, "the lesson's own header"));
	free(r.log);
	unlink(local); unlink(shared); unlink(k);
	assert_int_equal(rmdir(common), 0);
	free(local); free(shared); free(k); free(common);
}

/* ---- real compiles ---- */

static void expect_no_tmp_files(void)
{
	char *dir = path_in(cache_dir, "cudaclimb");
	DIR *d = opendir(dir);
	assert_non_null(d);
	int files = 0;
	for (struct dirent *e; (e = readdir(d));) {
		if (e->d_name[0] == '.') continue;
		files++;
		if (strstr(e->d_name, ".tmp.")) fail_msg("a temporary file was left in the cache: %s", e->d_name);
	}
	closedir(d);
	assert_true(files > 0);
	free(dir);
}

/* A compile for a virtual architecture (compute_90: PTX that the driver JITs, for a GPU newer than
 * the table) is served from the cache the second time too; its code file holds PTX, not ELF, and was
 * taken for a damaged entry and compiled again every time. */
static void test_compile_ptx_cached(void **state)
{
	(void)state;
	char *k = path_in(kdir, "add1.cu");
	char *opts[] = { "-DBLOCK=64" };
	compile_request rq = { .kernel_path = k, .include_dir = kdir, .arch = "compute_90", .options = opts, .noptions = 1 };
	compile_result r;
	char err[256] = "";
	assert_int_equal(compile_run(&rq, &r, err, sizeof err), 0);
	if (!r.ok) fail_msg("compute_90: compile failed: %s", r.log ? r.log : "(no log)");
	assert_false(r.cached);
	free(r.log);
	assert_int_equal(compile_run(&rq, &r, err, sizeof err), 0);
	assert_true(r.ok);
	assert_int_equal(r.cached, 1);
	free(r.log);
	free(k);
}

static void test_compile(void **state)
{
	(void)state;
	char *k = path_in(kdir, "add1.cu");
	char *opts[] = { "-DBLOCK=128" };
	static const char *const archs[] = { "sm_80", "sm_90" };
	for (int a = 0; a < 2; a++) {
		compile_request rq = { .kernel_path = k, .include_dir = kdir, .arch = archs[a], .options = opts, .noptions = 1 };
		compile_result r;
		char err[256] = "";
		double t0 = now_ms();
		assert_int_equal(compile_run(&rq, &r, err, sizeof err), 0);
		double first = now_ms() - t0;
		if (!r.ok) fail_msg("%s: compile failed: %s", archs[a], r.log ? r.log : "(no log)");
		assert_false(r.crashed);
		assert_false(r.cached);
		assert_true(r.ms > 0);
		assert_string_equal(r.arch, archs[a]);
		const compile_entry *e = compile_find_entry(&r, "add1");
		assert_non_null(e);
		assert_true(e->regs > 0);
		assert_int_equal(e->spill_stores, 0);
		assert_true(file_exists(r.cubin_path));
		struct stat st;
		assert_int_equal(stat(r.cubin_path, &st), 0);
		assert_true(st.st_size > 0);
		assert_non_null(strstr(r.cubin_path, cache_dir));
		char first_path[512];
		snprintf(first_path, sizeof first_path, "%s", r.cubin_path);
		free(r.log);

		/* the same request again: from the cache, with the same ptxas numbers */
		t0 = now_ms();
		assert_int_equal(compile_run(&rq, &r, err, sizeof err), 0);
		double second = now_ms() - t0;
		assert_true(r.ok);
		assert_int_equal(r.cached, 1);
		assert_true(r.ms == 0);
		assert_string_equal(r.cubin_path, first_path);
		assert_non_null(compile_find_entry(&r, "add1"));
		assert_int_equal(compile_find_entry(&r, "add1")->regs, e->regs);
		assert_true(second < first);
		assert_true(second < 500);
		free(r.log);
	}
	/* a kernel that does not compile without BLOCK: fails, and the failure is not cached */
	compile_request rq = { .kernel_path = k, .include_dir = kdir, .arch = "sm_90" };
	compile_result r;
	char err[256];
	assert_int_equal(compile_run(&rq, &r, err, sizeof err), 0);
	assert_false(r.ok);
	assert_non_null(strstr(r.log, "BLOCK"));
	free(r.log);
	expect_no_tmp_files();
	free(k);
}

/* The worker's built-in kernels (kernels/builtin/data.cu and the cycle.h it includes) compile as
 * gpu_data_init compiles them: the fills of the types a cycle may have among their entries (the
 * result keeps the first COMPILE_MAX_ENTRIES of the ptxas report). */
static void test_builtin_kernels(void **state)
{
	(void)state;
	compile_request rq = { .kernel_path = "kernels/builtin/data.cu", .include_dir = "kernels/builtin", .arch = "sm_90" };
	compile_result r;
	char err[256];
	assert_int_equal(compile_run(&rq, &r, err, sizeof err), 0);
	if (!r.ok) fail_msg("%s", r.log ? r.log : "");
	static const char *const names[] = { "fill_u32", "fill_u64", "fill_i64" };
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (!compile_find_entry(&r, names[i])) fail_msg("no entry %s", names[i]);
	free(r.log);
}

static void test_compile_error(void **state)
{
	(void)state;
	char *k = path_in(kdir, "broken.cu");
	write_text(k, "extern \"C\" __global__ void broken(float *x)\n{\n\tx[0] = 1.0f +;\n}\n");
	compile_request rq = { .kernel_path = k, .include_dir = kdir, .arch = "sm_90" };
	for (int round = 0; round < 2; round++) {
		compile_result r;
		char err[256] = "";
		assert_int_equal(compile_run(&rq, &r, err, sizeof err), 0);
		assert_int_equal(r.ok, 0);
		assert_int_equal(r.crashed, 0);
		assert_int_equal(r.cached, 0);   /* failures are compiled again, never served from the cache */
		assert_non_null(r.log);
		if (!strstr(r.log, "(3): error")) fail_msg("log without the line: %s", r.log);
		assert_non_null(strstr(r.log, "broken.cu"));
		assert_int_equal(r.nentries, 0);
		free(r.log);
	}
	/* an architecture that NVRTC does not know */
	compile_request bad = { .kernel_path = k, .include_dir = kdir, .arch = "sm_1" };
	write_text(k, "extern \"C\" __global__ void fine() {}\n");
	compile_result r;
	char err[256] = "";
	assert_int_equal(compile_run(&bad, &r, err, sizeof err), 0);
	assert_false(r.ok);
	assert_non_null(r.log);
	free(r.log);
	expect_no_tmp_files();
	free(k);
}

/* Recorded PTX signatures: pointers, scalars, a struct passed by value, a kernel without parameters. */
static void test_parse_ptx_params(void **state)
{
	(void)state;
	static const char ptx[] =
		".visible .entry saxpy(\n"
		"\t.param .u64 .ptr .align 1 saxpy_param_0,\n"
		"\t.param .u64 .ptr .align 1 saxpy_param_1,\n"
		"\t.param .f32 saxpy_param_2,\n"
		"\t.param .u64 saxpy_param_3,\n"
		"\t.param .u32 saxpy_param_4\n"
		")\n{\n\tret;\n}\n"
		".visible .entry tma(\n"
		"\t.param .align 64 .b8 tma_param_0[128],\n"
		"\t.param .f64 tma_param_1\n"
		")\n.maxntid 128\n{\n}\n"
		".visible .entry none()\n.reqntid 32, 4, 1\n{\n\tret;\n}\n";
	compile_result r;
	memset(&r, 0, sizeof r);
	compile_parse_ptxas(ptxas_log, &r);   /* k and sgemm_tile: no PTX for them */
	compile_parse_ptx_params(ptx, &r);
	assert_int_equal(compile_find_entry(&r, "k")->nparams, -1);
	const compile_entry *e = compile_find_entry(&r, "saxpy");
	assert_non_null(e);
	assert_int_equal(e->nparams, 5);
	int sizes[] = { 8, 8, 4, 8, 4 };
	char kinds[] = "iifii";
	for (int i = 0; i < 5; i++) {
		assert_int_equal(e->params[i].size, sizes[i]);
		assert_int_equal(e->params[i].kind, kinds[i]);
	}
	e = compile_find_entry(&r, "tma");
	assert_non_null(e);
	assert_int_equal(e->nparams, 2);
	assert_int_equal(e->params[0].size, 128);
	assert_int_equal(e->params[0].kind, 'b');
	assert_int_equal(e->params[1].size, 8);
	assert_int_equal(e->params[1].kind, 'f');
	assert_int_equal(e->max_threads, 128);   /* __launch_bounds__(128) */
	assert_int_equal(compile_find_entry(&r, "saxpy")->max_threads, 0);
	e = compile_find_entry(&r, "none");
	assert_non_null(e);
	assert_int_equal(e->nparams, 0);
	assert_int_equal(e->max_threads, 128);   /* 32 x 4 x 1 */
}

/* A source given as text is compiled as that text under the file's name (messages name it), the
 * file itself is not read, and the PTX signatures come with the result. */
static void test_source_text(void **state)
{
	(void)state;
	char *k = path_in(kdir, "given.cu");
	write_text(k, "this file is not what gets compiled\n");
	static const char good[] = "extern \"C\" __global__ void given(const float *x, float *y, long long n, float a) { y[0] = a * x[0]; }\n";
	static const char bad[] = "extern \"C\" __global__ void given(float *y)\n{\n\ty[0] = ;\n}\n";
	compile_request rq = { .kernel_path = k, .include_dir = kdir, .arch = "sm_90", .source = good, .source_len = strlen(good) };
	compile_result r;
	char err[256] = "";
	assert_int_equal(compile_run(&rq, &r, err, sizeof err), 0);
	if (!r.ok) fail_msg("compile failed: %s", r.log ? r.log : "");
	const compile_entry *e = compile_find_entry(&r, "given");
	assert_non_null(e);
	assert_int_equal(e->nparams, 4);
	assert_int_equal(e->params[2].size, 8);
	assert_int_equal(e->params[3].kind, 'f');
	assert_true(file_exists(r.ptx_path));
	free(r.log);
	/* cached: the signatures come back from the kept PTX */
	assert_int_equal(compile_run(&rq, &r, err, sizeof err), 0);
	assert_int_equal(r.cached, 1);
	assert_int_equal(compile_find_entry(&r, "given")->nparams, 4);
	free(r.log);
	/* an error points at the file's name and the text's line */
	rq.source = bad;
	rq.source_len = strlen(bad);
	assert_int_equal(compile_run(&rq, &r, err, sizeof err), 0);
	assert_false(r.ok);
	if (!strstr(r.log, "given.cu(3): error")) fail_msg("log without the file and line: %s", r.log);
	free(r.log);
	free(k);
}

/* With .sass the compile also reads the machine code: the tensor-core instructions in it, 0 for a
 * plain kernel and more for one using mma, and on a cache hit that has no listing yet a child makes
 * it. Without nvdisasm the count stays unknown (-1) and the compile still succeeds. */
static void test_tensor_sass(void **state)
{
	(void)state;
	char tool[1024];
	int have = sass_find_tool(tool, sizeof tool) == 0;
	char *plain = path_in(kdir, "plain.cu"), *mma = path_in(kdir, "mma.cu");
	write_text(plain, "extern \"C\" __global__ void plain(float *x) { x[threadIdx.x] *= 2.0f; }\n");
	write_text(mma, "#include <mma.h>\nusing namespace nvcuda;\n"
	                "extern \"C\" __global__ void mma(const half *a, const half *b, float *c) {\n"
	                "  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;\n"
	                "  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb;\n"
	                "  wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;\n"
	                "  wmma::fill_fragment(fc, 0.0f); wmma::load_matrix_sync(fa, a, 16); wmma::load_matrix_sync(fb, b, 16);\n"
	                "  wmma::mma_sync(fc, fa, fb, fc); wmma::store_matrix_sync(c, fc, 16, wmma::mem_row_major);\n}\n");
	compile_request rq = { .kernel_path = plain, .include_dir = kdir, .arch = "sm_80" };
	compile_result r;
	char err[256] = "";
	/* first without the listing: unknown, and then cached */
	assert_int_equal(compile_run(&rq, &r, err, sizeof err), 0);
	assert_true(r.ok);
	assert_int_equal(r.tensor_sass, -1);
	free(r.log);
	/* a cache hit asking for it: a child disassembles; the result still counts as cached */
	rq.sass = 1;
	assert_int_equal(compile_run(&rq, &r, err, sizeof err), 0);
	assert_true(r.ok);
	assert_int_equal(r.cached, 1);
	assert_int_equal(r.tensor_sass, have ? 0 : -1);
	free(r.log);
	rq.kernel_path = mma;
	assert_int_equal(compile_run(&rq, &r, err, sizeof err), 0);
	if (!r.ok) fail_msg("mma.cu: %s", r.log ? r.log : "");
	assert_false(r.cached);
	if (have) assert_true(r.tensor_sass >= 1);   /* HMMA */
	else assert_int_equal(r.tensor_sass, -1);
	free(r.log);
	printf("%s\n", have ? "tensor_sass: counted with nvdisasm" : "SKIP tensor_sass counts: no nvdisasm (checked: unknown, -1)");
	free(plain);
	free(mma);
}

/* A save between the start of a compile and its end (the learner's editor) changes nothing: the
 * file is read once, and the cubin is that text's, kept under that text's key; the next compile
 * reads the new text. */
static void test_save_during_compile(void **state)
{
	(void)state;
	char *k = path_in(kdir, "saved.cu");
	static const char first[] = "extern \"C\" __global__ void saved(int *x) { x[0] = 1; }\n";
	static const char second[] = "extern \"C\" __global__ void saved(int *x) { x[0] = ; }\n";
	write_text(k, first);
	compile_request rq = { .kernel_path = k, .include_dir = kdir, .arch = "sm_80" };
	char err[256] = "", key_first[COMPILE_KEY_LEN], key_second[COMPILE_KEY_LEN];
	compile_job *j = compile_start(&rq, err, sizeof err);
	assert_non_null(j);
	write_text(k, second);                         /* saved while the compiler runs */
	while (!compile_step(j, 300000)) {
		fd_set fds;
		FD_ZERO(&fds);
		FD_SET(compile_fd(j), &fds);
		select(compile_fd(j) + 1, &fds, NULL, NULL, NULL);
	}
	const compile_result *r = compile_get(j);
	if (!r->ok) fail_msg("the text read at the start did not compile: %s", r->log ? r->log : "");
	compile_request text = rq;
	text.source = first;
	text.source_len = strlen(first);
	assert_int_equal(compile_key(&text, key_first), 0);
	assert_int_equal(compile_key(&rq, key_second), 0);   /* the file now holds the second text */
	assert_string_not_equal(key_first, key_second);
	const char *base = strrchr(r->cubin_path, '/');
	assert_non_null(base);
	char want[COMPILE_KEY_LEN + 8];
	snprintf(want, sizeof want, "/%s.cubin", key_first);
	assert_string_equal(base, want);
	compile_job_free(j);
	/* the next compile reads the saved text: its error, under its own key */
	compile_result again;
	assert_int_equal(compile_run(&rq, &again, err, sizeof err), 0);
	assert_false(again.ok);
	assert_false(again.cached);
	free(again.log);
	free(k);
}

/* The non-blocking interface: poll the fd until the job is done. */
static void test_job(void **state)
{
	(void)state;
	char *k = path_in(kdir, "job.cu");
	write_text(k, "extern \"C\" __global__ void job(int *x) { x[threadIdx.x] = threadIdx.x; }\n");
	compile_request rq = { .kernel_path = k, .include_dir = kdir, .arch = "sm_80" };
	char err[256] = "";
	compile_job *j = compile_start(&rq, err, sizeof err);
	assert_non_null(j);
	assert_true(compile_fd(j) >= 0);
	while (!compile_step(j, 300000)) {
		fd_set fds;
		FD_ZERO(&fds);
		FD_SET(compile_fd(j), &fds);
		select(compile_fd(j) + 1, &fds, NULL, NULL, NULL);
	}
	assert_int_equal(compile_fd(j), -1);
	const compile_result *r = compile_get(j);
	assert_true(r->ok);
	assert_non_null(compile_find_entry(r, "job"));
	compile_job_free(j);
	/* cached: done at once */
	j = compile_start(&rq, err, sizeof err);
	assert_non_null(j);
	assert_int_equal(compile_fd(j), -1);
	assert_int_equal(compile_step(j, 0), 1);
	assert_true(compile_get(j)->cached);
	compile_job_free(j);
	free(k);
}


/* ---- relocatable device code: -rdc=true, linked with the device runtime through nvJitLink ---- */

static void test_options_rdc(void **state)
{
	(void)state;
	char *none[] = { "-DBLOCK=128", "--use_fast_math" }, *on[] = { "-DX=1", "-rdc=true" }, *longer[] = { "--relocatable-device-code=true" };
	char *dc[] = { "-dc" }, *off_after[] = { "-rdc=true", "-rdc=false" }, *on_after[] = { "--relocatable-device-code=false", "--device-c" };
	char *look_alike[] = { "-rdc", "-DRDC=true", "-rdc=TRUE" };
	assert_int_equal(compile_options_rdc(none, 2), 0);
	assert_int_equal(compile_options_rdc(none, 0), 0);
	assert_int_equal(compile_options_rdc(on, 2), 1);
	assert_int_equal(compile_options_rdc(on, 1), 0);
	assert_int_equal(compile_options_rdc(longer, 1), 1);
	assert_int_equal(compile_options_rdc(dc, 1), 1);
	assert_int_equal(compile_options_rdc(off_after, 2), 0);   /* the last one decides, as for NVRTC */
	assert_int_equal(compile_options_rdc(on_after, 2), 1);
	assert_int_equal(compile_options_rdc(look_alike, 3), 0);
}

/* Recorded from NVRTC 13 (sm_90, -rdc=true) and nvJitLink 13 (-verbose) for a parent kernel that
 * launches a child: the linked program's numbers replace ptxas's for the entries ptxas named; the
 * device runtime's functions and a device function are not entries. */
static void test_parse_link_report(void **state)
{
	(void)state;
	static const char log[] =
		"ptxas info    : 0 bytes gmem\n"
		"ptxas info    : Compiling entry function 'parent' for 'sm_90'\n"
		"ptxas info    : Function properties for parent\n"
		"ptxas         .     0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
		"ptxas info    : Used 24 registers, used 0 barriers\n"
		"ptxas info    : Compiling entry function 'child' for 'sm_90'\n"
		"ptxas info    : Function properties for child\n"
		"ptxas         .     0 bytes stack frame, 4 bytes spill stores, 8 bytes spill loads\n"
		"ptxas info    : Used 12 registers, used 0 barriers, 512 bytes smem\n"
		"nvJitLink, kernels/dynamic/k.cu with /usr/local/cuda/lib64/libcudadevrt.a:\n"
		"info    : 13181 bytes gmem\n"
		"info    : Function properties for '__nv_static_52__f4510a67_22_cuda_device_runtime_cu_3ecce0c0_2317245__Z16memcpy_3d_deviceImLi1ELi1ELi1EEv12MemcpyParamsIT_E':\n"
		"info    : used 16 registers, used 1 barriers, 0 stack, 3080 bytes smem, 656 bytes cmem[0], 0 bytes lmem\n"
		"info    : Function properties for 'child':\n"
		"info    : used 12 registers, used 0 barriers, 0 stack, 512 bytes smem, 548 bytes cmem[0], 0 bytes lmem\n"
		"info    : Function properties for '_Z6helperPf':\n"
		"info    : used 40 registers, used 0 barriers, 64 stack, 0 bytes smem, 548 bytes cmem[0], 0 bytes lmem\n"
		"info    : Function properties for 'parent':\n"
		"info    : used 26 registers, used 0 barriers, 16 stack, 0 bytes smem, 556 bytes cmem[0], 0 bytes lmem\n";
	compile_result r;
	memset(&r, 0, sizeof r);
	compile_parse_ptxas(log, &r);
	assert_int_equal(r.nentries, 2);
	const compile_entry *p = compile_find_entry(&r, "parent"), *c = compile_find_entry(&r, "child");
	assert_non_null(p);
	assert_non_null(c);
	assert_int_equal(p->regs, 26);          /* as linked, not ptxas's 24 */
	assert_int_equal(p->stack_bytes, 16);   /* the device launch's stack, known only after the link */
	assert_int_equal(p->static_smem, 0);
	assert_int_equal(c->regs, 12);
	assert_int_equal(c->static_smem, 512);
	assert_int_equal(c->spill_stores, 4);   /* ptxas's, which the linker does not repeat */
	assert_int_equal(c->spill_loads, 8);
	assert_null(compile_find_entry(&r, "_Z6helperPf"));
	/* a linker line for a name that is not an entry changes nothing */
	compile_parse_ptxas("ptxas info    : Compiling entry function 'k' for 'sm_90'\nptxas info    : Used 8 registers\n"
	                    "info    : Function properties for 'kk':\ninfo    : used 99 registers, 0 stack, 9 bytes smem\n", &r);
	assert_int_equal(r.nentries, 1);
	assert_int_equal(r.entries[0].regs, 8);
	assert_int_equal(r.entries[0].static_smem, 0);
}

/* The kernel kind the dynamic lesson uses: a parent grid whose threads launch child grids into the
 * fire-and-forget stream. */
static const char rdc_src[] =
	"extern \"C\" __global__ void twice(float *y, const float *x, int n)\n"
	"{\n"
	"\tint i = blockIdx.x * blockDim.x + threadIdx.x;\n"
	"\tif (i < n) y[i] = 2.0f * x[i];\n"
	"}\n"
	"extern \"C\" __global__ void parent(float *y, const float *x, const int *off, int s)\n"
	"{\n"
	"\tint q = blockIdx.x * blockDim.x + threadIdx.x;\n"
	"\tif (q >= s) return;\n"
	"\tint a = off[q], n = off[q + 1] - a;\n"
	"\ttwice<<<(n + 127) / 128, 128, 0, cudaStreamFireAndForget>>>(y + a, x + a, n);\n"
	"}\n";

/* The ELF type of a cubin file: 1 a relocatable object, 2 an executable (linked) image. */
static int elf_type(const char *path)
{
	size_t len = 0;
	char *b = file_read(path, &len);
	assert_non_null(b);
	assert_true(len > 18 && !memcmp(b, "\x7f" "ELF", 4));
	int t = (unsigned char)b[16] | (unsigned char)b[17] << 8;
	free(b);
	return t;
}

static void test_rdc_link(void **state)
{
	(void)state;
	char *k = path_in(kdir, "rdc.cu");
	write_text(k, rdc_src);
	char *rdc[] = { "-rdc=true" }, *dc[] = { "--relocatable-device-code=true" };
	compile_request rq = { .kernel_path = k, .include_dir = kdir, .arch = "sm_90", .options = rdc, .noptions = 1 };
	compile_result r;
	char err[256] = "";
	assert_int_equal(compile_run(&rq, &r, err, sizeof err), 0);
	if (!r.ok) fail_msg("the -rdc compile and link failed: %s", r.log ? r.log : "(no log)");
	assert_false(r.cached);
	assert_int_equal(elf_type(r.cubin_path), 2);   /* linked, loadable as it is */
	const compile_entry *p = compile_find_entry(&r, "parent"), *c = compile_find_entry(&r, "twice");
	assert_non_null(p);
	assert_non_null(c);
	assert_true(p->regs > 0 && c->regs > 0);
	assert_int_equal(p->nparams, 4);               /* the PTX's signatures as without -rdc */
	assert_int_equal(c->nparams, 3);
	if (!strstr(r.log, "Function properties for 'parent'")) fail_msg("no link report for parent: %s", r.log);
	assert_null(strstr(r.log, "__nv_static_"));     /* the device runtime's own functions are left out */
	assert_non_null(strstr(r.log, "libcudadevrt.a"));
	compile_entry first = *p;
	char path[512];
	snprintf(path, sizeof path, "%s", r.cubin_path);
	free(r.log);

	/* again: from the cache, the same numbers and the same linked file */
	assert_int_equal(compile_run(&rq, &r, err, sizeof err), 0);
	assert_true(r.ok);
	assert_true(r.cached);
	assert_string_equal(r.cubin_path, path);
	assert_int_equal(compile_find_entry(&r, "parent")->regs, first.regs);
	assert_int_equal(compile_find_entry(&r, "parent")->stack_bytes, first.stack_bytes);
	free(r.log);

	/* the long spelling links too */
	rq.options = dc;
	assert_int_equal(compile_run(&rq, &r, err, sizeof err), 0);
	if (!r.ok) fail_msg("--relocatable-device-code=true: %s", r.log ? r.log : "");
	assert_int_equal(elf_type(r.cubin_path), 2);
	free(r.log);

	/* without -rdc NVRTC refuses the device-side launch, and says why */
	rq.options = NULL;
	rq.noptions = 0;
	assert_int_equal(compile_run(&rq, &r, err, sizeof err), 0);
	assert_false(r.ok);
	assert_false(r.crashed);
	if (!strstr(r.log, "rdc.cu(11)")) fail_msg("no line for the launch: %s", r.log);
	free(r.log);
	expect_no_tmp_files();
	free(k);
}

/* An -rdc program that calls a __device__ function nobody defines compiles, and the link fails with
 * nvJitLink's message naming it; the failure is not cached. */
static void test_rdc_link_error(void **state)
{
	(void)state;
	char *k = path_in(kdir, "undef.cu");
	write_text(k, "extern \"C\" __device__ float nowhere(float v);\n"
	              "extern \"C\" __global__ void k(float *x) { x[threadIdx.x] = nowhere(x[threadIdx.x]); }\n");
	char *rdc[] = { "-rdc=true" };
	compile_request rq = { .kernel_path = k, .include_dir = kdir, .arch = "sm_90", .options = rdc, .noptions = 1 };
	for (int round = 0; round < 2; round++) {
		compile_result r;
		char err[256] = "";
		assert_int_equal(compile_run(&rq, &r, err, sizeof err), 0);
		assert_false(r.ok);
		assert_false(r.crashed);
		assert_false(r.cached);
		if (!strstr(r.log, "nvJitLink failed linking")) fail_msg("no link failure in the log: %s", r.log);
		if (!strstr(r.log, "nowhere")) fail_msg("the undefined function is not named: %s", r.log);
		assert_non_null(strstr(r.log, "undef.cu"));
		free(r.log);
	}
	free(k);
}

/* Without nvJitLink, or without the device runtime, an -rdc compile fails with a log that says
 * which is missing; a compile without -rdc does not need either. The key follows the library. */
static void test_rdc_missing(void **state)
{
	(void)state;
	char *k = path_in(kdir, "rdc2.cu"), *plain = path_in(kdir, "plain2.cu");
	write_text(k, rdc_src);
	write_text(plain, "extern \"C\" __global__ void plain2(float *x) { x[threadIdx.x] += 1.0f; }\n");
	char *rdc[] = { "-rdc=true" };
	compile_request rq = { .kernel_path = k, .include_dir = kdir, .arch = "sm_90", .options = rdc, .noptions = 1 };
	compile_request rp = { .kernel_path = plain, .include_dir = kdir, .arch = "sm_90" };
	char key_with[COMPILE_KEY_LEN], key_without[COMPILE_KEY_LEN], plain_with[COMPILE_KEY_LEN], plain_without[COMPILE_KEY_LEN];
	assert_int_equal(compile_key(&rq, key_with), 0);
	assert_int_equal(compile_key(&rp, plain_with), 0);

	setenv("CUDACLIMB_NVJITLINK", "/nonexistent/libnvJitLink.so.13", 1);
	assert_int_equal(compile_key(&rq, key_without), 0);
	assert_int_equal(compile_key(&rp, plain_without), 0);
	assert_string_not_equal(key_with, key_without);   /* another linker, another cubin */
	assert_string_equal(plain_with, plain_without);    /* no link, no change */
	compile_result r;
	char err[256] = "";
	assert_int_equal(compile_run(&rq, &r, err, sizeof err), 0);
	assert_false(r.ok);
	assert_false(r.crashed);
	if (!strstr(r.log, "nvJitLink not found") || !strstr(r.log, "/nonexistent/libnvJitLink.so.13"))
		fail_msg("the log does not say nvJitLink is missing: %s", r.log);
	free(r.log);
	assert_int_equal(compile_run(&rp, &r, err, sizeof err), 0);
	if (!r.ok) fail_msg("a compile without -rdc needs no nvJitLink: %s", r.log ? r.log : "");
	free(r.log);
	unsetenv("CUDACLIMB_NVJITLINK");

	/* a toolkit folder without libcudadevrt.a */
	char *fake = path_in(tmp_root, "fakecuda"), devrt[512];
	assert_int_equal(mkdir(fake, 0755), 0);
	setenv("CUDA_HOME", fake, 1);
	assert_int_equal(compile_find_devrt(devrt, sizeof devrt), -1);
	assert_non_null(strstr(devrt, fake));
	assert_int_equal(compile_run(&rq, &r, err, sizeof err), 0);
	assert_false(r.ok);
	if (!strstr(r.log, "libcudadevrt.a") || !strstr(r.log, "missing")) fail_msg("the log does not say the device runtime is missing: %s", r.log);
	free(r.log);
	unsetenv("CUDA_HOME");
	assert_int_equal(compile_find_devrt(devrt, sizeof devrt), 0);
	assert_int_equal(compile_key(&rq, key_without), 0);
	assert_string_equal(key_with, key_without);        /* back to the same linker */
	free(fake); free(k); free(plain);
}

/* ---- issue #30: the key covers what the compile includes; damaged entries; a cache not ours; timeouts ---- */

/* A learner's file in a folder of its own (not the lesson's) including a header beside it, which
 * includes another; the key changes with each, not with a file nobody includes. */
static void test_key_includes(void **state)
{
	(void)state;
	char *work = path_in(tmp_root, "work"), *learner = path_in(work, "mine.cu"), *h = path_in(work, "mine.cuh"),
	     *h2 = path_in(work, "deep.cuh"), *other = path_in(work, "unused.cuh"), *inc = path_in(tmp_root, "inc"),
	     *h3 = path_in(inc, "opt.cuh");
	assert_int_equal(mkdir(work, 0700), 0);
	assert_int_equal(mkdir(inc, 0700), 0);
	const char *src = "#include \"mine.cuh\"\n  #  include <opt.cuh>\n__global__ void add1(float *x) { x[0] = K + D + O; }\n";
	write_text(learner, src);
	write_text(h, "#include \"deep.cuh\"\n#define K 1.0f\n");
	write_text(h2, "#define D 1.0f\n");
	write_text(other, "// nobody includes this\n");
	write_text(h3, "#define O 1.0f\n");
	char opt[600];
	snprintf(opt, sizeof opt, "-I%s", inc);
	char *opts[] = { opt };
	compile_request rq = { .kernel_path = learner, .include_dir = kdir, .arch = "sm_90", .options = opts, .noptions = 1,
	                       .source = src, .source_len = strlen(src) };
	char k0[COMPILE_KEY_LEN], k1[COMPILE_KEY_LEN], k2[COMPILE_KEY_LEN], k3[COMPILE_KEY_LEN], k4[COMPILE_KEY_LEN];
	assert_int_equal(compile_key(&rq, k0), 0);
	write_text(other, "// still nobody\n");
	assert_int_equal(compile_key(&rq, k1), 0);
	assert_string_equal(k0, k1);                      /* a file not included changes nothing */
	write_text(h, "#include \"deep.cuh\"\n#define K 2.0f\n");
	assert_int_equal(compile_key(&rq, k2), 0);
	assert_string_not_equal(k1, k2);                  /* the header beside the learner's file */
	write_text(h2, "#define D 2.0f\n");
	assert_int_equal(compile_key(&rq, k3), 0);
	assert_string_not_equal(k2, k3);                  /* a header that header includes */
	write_text(h3, "#define O 2.0f\n");
	assert_int_equal(compile_key(&rq, k4), 0);
	assert_string_not_equal(k3, k4);                  /* one found through the stage's -I option */
	/* and a real compile sees the change: the stale cubin is not served */
	compile_result r;
	char err[256];
	assert_int_equal(compile_run(&rq, &r, err, sizeof err), 0);
	if (!r.ok) fail_msg("compile failed: %s", r.log);
	free(r.log);
	assert_int_equal(compile_run(&rq, &r, err, sizeof err), 0);
	assert_true(r.ok && r.cached);
	free(r.log);
	write_text(h, "#include \"deep.cuh\"\n#define K 3.0f\n");
	assert_int_equal(compile_run(&rq, &r, err, sizeof err), 0);
	assert_true(r.ok);
	assert_false(r.cached);                            /* recompiled */
	free(r.log);
	/* a header that does not exist yet is keyed as missing: creating it changes the key */
	const char *src2 = "#if 0\n#include \"later.cuh\"\n#endif\n__global__ void add1(float *x) { x[0] = 1; }\n";
	rq.source = src2;
	rq.source_len = strlen(src2);
	assert_int_equal(compile_key(&rq, k0), 0);
	char *later = path_in(work, "later.cuh");
	write_text(later, "\n");
	assert_int_equal(compile_key(&rq, k1), 0);
	assert_string_not_equal(k0, k1);
	free(later); free(work); free(learner); free(h); free(h2); free(other); free(inc); free(h3);
}

static char notices[2048];
static void catch_notice(const char *text)
{
	size_t n = strlen(notices);
	snprintf(notices + n, sizeof notices - n, "%s\n", text);
}

/* Damages the file at path: mode 'f' flips a byte in the middle, 't' truncates it to half. */
static void damage(const char *path, char mode)
{
	size_t len;
	char *data = file_read_max(path, (size_t)1 << 30, 0, &len);
	assert_non_null(data);
	assert_true(len > 8);
	if (mode == 'f') data[len / 2] ^= 0x5a;
	else len /= 2;
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fwrite(data, 1, len, f);
	fclose(f);
	free(data);
}

static void test_cache_damaged(void **state)
{
	(void)state;
	char *k = path_in(kdir, "add1.cu");
	char *opts[] = { "-DBLOCK=64" };
	compile_request rq = { .kernel_path = k, .include_dir = kdir, .arch = "sm_90", .options = opts, .noptions = 1 };
	compile_result r;
	char err[256];
	util_on_notice(catch_notice);
	assert_int_equal(compile_run(&rq, &r, err, sizeof err), 0);
	if (!r.ok) fail_msg("compile failed: %s", r.log);
	free(r.log);
	char cubin[512], ptx[512], meta[520];
	snprintf(cubin, sizeof cubin, "%s", r.cubin_path);
	snprintf(ptx, sizeof ptx, "%s", r.ptx_path);
	snprintf(meta, sizeof meta, "%.*s.log", (int)(strlen(cubin) - 6), cubin);
	struct stat st;
	assert_int_equal(stat(cubin, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0600);       /* private files */
	size_t good_len;
	char *good = file_read_max(cubin, (size_t)1 << 30, 0, &good_len);
	static const struct { const char *file; char how; const char *says; } cases[] = {
		{ "cubin", 'f', "hash" }, { "cubin", 't', "bytes" }, { "ptx", 'f', "PTX" }, { "meta", 't', "report is cut" }, { "meta", 'f', "damaged" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		notices[0] = 0;
		const char *f = !strcmp(cases[i].file, "cubin") ? cubin : !strcmp(cases[i].file, "ptx") ? ptx : meta;
		damage(f, cases[i].how);
		assert_int_equal(compile_run(&rq, &r, err, sizeof err), 0);
		if (!r.ok) fail_msg("%s %c: compile failed: %s", cases[i].file, cases[i].how, r.log);
		assert_false(r.cached);                        /* rebuilt, never loaded */
		free(r.log);
		if (!strstr(notices, "damaged") || !strstr(notices, cases[i].says))
			fail_msg("%s %c: no notice naming the damage: '%s'", cases[i].file, cases[i].how, notices);
		size_t len;
		char *now = file_read_max(cubin, (size_t)1 << 30, 0, &len);
		assert_non_null(now);
		assert_int_equal(len, good_len);
		assert_memory_equal(now, good, len);
		free(now);
		assert_int_equal(compile_run(&rq, &r, err, sizeof err), 0);   /* and whole again: a hit */
		assert_true(r.ok && r.cached);
		free(r.log);
	}
	/* a cubin that is a link is not followed */
	notices[0] = 0;
	unlink(cubin);
	assert_int_equal(symlink(k, cubin), 0);
	assert_int_equal(compile_run(&rq, &r, err, sizeof err), 0);
	assert_true(r.ok);
	assert_false(r.cached);
	free(r.log);
	assert_int_equal(lstat(cubin, &st), 0);
	assert_true(S_ISREG(st.st_mode));
	util_on_notice(NULL);
	free(good);
	free(k);
}

/* As root: a cache folder that belongs to someone else is not used, and the compile still works. */
static void test_cache_not_ours(void **state)
{
	(void)state;
	if (geteuid() != 0) { printf("SKIP test_cache_not_ours: needs root to give a folder to uid 2001\n"); skip(); }
	char *mine = path_in(cache_dir, "cudaclimb");
	assert_int_equal(chown(mine, 2001, 2001), 0);
	char *k = path_in(kdir, "add1.cu");
	char *opts[] = { "-DBLOCK=32" };
	compile_request rq = { .kernel_path = k, .include_dir = kdir, .arch = "sm_90", .options = opts, .noptions = 1 };
	compile_result r;
	char err[256], why[600];
	char *d = xdg_cache_dir(why, sizeof why);
	assert_null(d);
	if (!strstr(why, "uid 2001") || !strstr(why, "not to you")) fail_msg("the reason does not say whose it is: %s", why);
	notices[0] = 0;
	util_on_notice(catch_notice);
	assert_int_equal(compile_run(&rq, &r, err, sizeof err), 0);
	util_on_notice(NULL);
	if (!r.ok) fail_msg("compile failed: %s", r.log);
	free(r.log);
	assert_null(strstr(r.cubin_path, cache_dir));       /* not in the cache */
	if (!strstr(notices, "compile cache is not used") || !strstr(notices, "uid 2001")) fail_msg("no notice: '%s'", notices);
	struct stat st;
	char *dir = xstrndup(r.cubin_path, (size_t)(strrchr(r.cubin_path, '/') - r.cubin_path));
	assert_int_equal(lstat(dir, &st), 0);
	assert_int_equal(st.st_uid, 0);
	assert_int_equal(st.st_mode & 0777, 0700);
	free(dir);
	assert_int_equal(chown(mine, 0, 0), 0);
	/* a loose folder of our own is tightened; a link in its place is refused */
	assert_int_equal(chmod(mine, 0755), 0);
	d = xdg_cache_dir(why, sizeof why);
	assert_non_null(d);
	assert_int_equal(stat(mine, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0700);
	free(d);
	free(mine);
	free(k);
}

static void test_timeout(void **state)
{
	(void)state;
	assert_true(compile_timeout_ms(10) == 1000.0 * COMPILE_TIMEOUT_MIN_S);
	assert_true(compile_timeout_ms(0) == 1000.0 * COMPILE_TIMEOUT_MIN_S);
	assert_true(compile_timeout_ms(600) == 600000.0);
	char *k = path_in(kdir, "add1.cu");
	char *opts[] = { "-DBLOCK=16", "-DNOT_CACHED=1" };
	compile_request rq = { .kernel_path = k, .include_dir = kdir, .arch = "sm_90", .options = opts, .noptions = 2 };
	char err[256];
	compile_job *j = compile_start(&rq, err, sizeof err);
	assert_non_null(j);
	while (!compile_step(j, 1)) usleep(1000);   /* 1 ms: NVRTC needs far longer */
	const compile_result *r = compile_get(j);
	assert_false(r->ok);
	assert_true(r->timed_out);
	assert_false(r->crashed);
	if (strncmp(r->log, "compile timed out after", 23)) fail_msg("the log does not say it timed out: %s", r->log);
	compile_job_free(j);
	free(k);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_ptxas), cmocka_unit_test(test_parse_ptx_params), cmocka_unit_test(test_source_text), cmocka_unit_test(test_save_during_compile),   cmocka_unit_test(test_parse_ptxas_device_function),
		cmocka_unit_test(test_parse_ptxas_many),
		cmocka_unit_test(test_key),           cmocka_unit_test(test_compile), cmocka_unit_test(test_compile_ptx_cached), cmocka_unit_test(test_common_headers),
		cmocka_unit_test(test_compile_error), cmocka_unit_test(test_builtin_kernels), cmocka_unit_test(test_job), cmocka_unit_test(test_tensor_sass),
		cmocka_unit_test(test_options_rdc), cmocka_unit_test(test_parse_link_report), cmocka_unit_test(test_rdc_link),
		cmocka_unit_test(test_rdc_link_error), cmocka_unit_test(test_rdc_missing),
		cmocka_unit_test(test_key_includes), cmocka_unit_test(test_cache_damaged), cmocka_unit_test(test_cache_not_ours),
		cmocka_unit_test(test_timeout),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
