/* gpu_data: the worker's buffers, in device memory or in host memory (pageable or pinned): allocation,
 * seeded fill, poison, reference copies and the element-wise comparison (built-in kernels from
 * kernels/builtin/data.cu; a host buffer goes through a device staging buffer for both). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include "compile.h"
#include "csrgen.h"
#include "gpu.h"
#include "util.h"

static cudaLibrary_t builtin_lib;
static cudaKernel_t fill_k[DT_COUNT], compare_k[DT_COUNT], scramble_k[DT_COUNT], csr_cols_k;

typedef struct { unsigned long long bad, nans, first_bad, max_abs_bits, max_rel_bits, unwritten; double sq_err, sq_ref; } cmp_result;
static cmp_result *cmp_dev;

#define CK(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { \
	strfmt(err, errlen, "%s: %s", #call, cudaGetErrorString(e_)); return -1; } } while (0)

int gpu_data_init(const char *kroot, const char *arch, char *err, size_t errlen)
{
	if (builtin_lib) return 0;
	char *dir = xasprintf("%s/builtin", kroot), *path = xasprintf("%s/data.cu", dir);
	compile_request rq = { .kernel_path = path, .include_dir = dir, .arch = arch };
	compile_result cr;
	int r = compile_run(&rq, &cr, err, errlen);
	free(dir);
	free(path);
	if (r) return -1;
	if (!cr.ok) { strfmt(err, errlen, "built-in kernels did not compile: %s", cr.log ? cr.log : ""); free(cr.log); return -1; }
	free(cr.log);
	size_t len;
	char *cubin = file_read(cr.cubin_path, &len);
	if (!cubin) { strfmt(err, errlen, "cannot read %s", cr.cubin_path); return -1; }
	cudaError_t e = cudaLibraryLoadData(&builtin_lib, cubin, NULL, NULL, 0, NULL, NULL, 0);
	free(cubin);
	if (e) { strfmt(err, errlen, "loading built-in kernels: %s", cudaGetErrorString(e)); return -1; }
	for (int t = 0; t < DT_COUNT; t++) {
		char name[32];
		strfmt(name, sizeof name, "fill_%s", lesson_dtype_name((lesson_dtype)t));
		CK(cudaLibraryGetKernel(&fill_k[t], builtin_lib, name));
		strfmt(name, sizeof name, "compare_%s", lesson_dtype_name((lesson_dtype)t));
		CK(cudaLibraryGetKernel(&compare_k[t], builtin_lib, name));
		strfmt(name, sizeof name, "scramble_%s", lesson_dtype_name((lesson_dtype)t));
		CK(cudaLibraryGetKernel(&scramble_k[t], builtin_lib, name));
	}
	CK(cudaLibraryGetKernel(&csr_cols_k, builtin_lib, "csr_cols_fill"));
	CK(cudaMalloc((void **)&cmp_dev, sizeof *cmp_dev));
	return 0;
}

static unsigned grid_for(int64_t n)
{
	int64_t g = (n + 255) / 256, cap = (int64_t)gpu_device()->sm_count * 16;
	return (unsigned)(g < cap ? (g < 1 ? 1 : g) : cap);
}

/* A device buffer for host buffers' fills and comparisons, grown as needed. */
static void *staging;
static size_t staging_cap;

static cudaError_t staging_get(size_t bytes, void **p)
{
	if (staging_cap < bytes) {
		cudaFree(staging);
		staging = NULL;
		staging_cap = 0;
		cudaError_t e = cudaMalloc(&staging, bytes ? bytes : 1);
		if (e) return e;
		staging_cap = bytes;
	}
	*p = staging;
	return cudaSuccess;
}

/* Memory of kind m: device (cudaMalloc), pinned host (cudaMallocHost) or pageable host (page-aligned). */
static cudaError_t mem_alloc(lesson_memory m, void **p, size_t bytes)
{
	*p = NULL;
	if (m == MEM_PINNED) return cudaMallocHost(p, bytes);
	if (m == MEM_PAGEABLE) {
		*p = aligned_alloc(4096, (bytes + 4095) / 4096 * 4096);
		return *p ? cudaSuccess : cudaErrorMemoryAllocation;
	}
	return cudaMalloc(p, bytes);
}

static void mem_free(lesson_memory m, void *p)
{
	if (!p) return;
	if (m == MEM_PINNED) cudaFreeHost(p);
	else if (m == MEM_PAGEABLE) free(p);
	else cudaFree(p);
}

/* memset for memory of kind m (host memory on the host, at once). */
static cudaError_t mem_set(lesson_memory m, void *p, int v, size_t n)
{
	if (m != MEM_DEVICE) { memset(p, v, n); return cudaSuccess; }
	return cudaMemset(p, v, n);
}

static const char *memory_name(lesson_memory m)
{
	return m == MEM_PINNED ? "pinned host" : m == MEM_PAGEABLE ? "pageable host" : "device";
}

/* The built-in fill of n elements of type t at dst (device memory); hot: the share that is a (mode 0). */
static cudaError_t fill(void *dst, lesson_dtype t, long long n, int mode, uint64_t seed, double a, double c, double hot)
{
	unsigned long long s = seed;
	void *args[] = { &dst, &n, &s, &a, &c, &mode, &hot };
	return cudaLaunchKernel((const void *)fill_k[t], d3(grid_for(n), 1, 1), d3(256, 1, 1), args, 0, 0);
}

static void free_buffer(gpu_buffer *b)
{
	mem_free(b->memory, b->alloc ? b->alloc : b->base);
	cudaFree(b->ref);
	cudaFree(b->orig);
	cudaFree(b->alt);
	b->orig = b->alt = NULL;
	free(b->name);
	b->name = NULL;
}

/* IEEE binary16 or bfloat16 bits of v (mbits mantissa and ebits exponent bits), rounded to nearest
 * even straight from the double; overflow gives infinity. */
static uint16_t small_float(double v, int mbits, int ebits)
{
	int bias = (1 << (ebits - 1)) - 1;
	uint16_t sign = signbit(v) ? (uint16_t)(1u << (mbits + ebits)) : 0;
	uint16_t inf = (uint16_t)(((1u << ebits) - 1) << mbits);
	if (isnan(v)) return (uint16_t)(inf | (1u << (mbits - 1)));
	double a = fabs(v);
	if (isinf(a)) return sign | inf;
	if (a < ldexp(1, 1 - bias))   /* subnormal (or zero): units of the smallest subnormal; 2^mbits is the smallest normal */
		return sign | (uint16_t)nearbyint(ldexp(a, bias - 1 + mbits));
	int ex;
	frexp(a, &ex);
	int E = ex - 1;               /* a in [2^E, 2^(E+1)) */
	double m = nearbyint((ldexp(a, -E) - 1) * (double)(1 << mbits));
	if (m >= (double)(1 << mbits)) { m = 0; E++; }
	if (E > bias) return sign | inf;
	return sign | (uint16_t)((E + bias) << mbits) | (uint16_t)m;
}

/* v truncated toward zero into [lo, hi]; NaN gives 0. */
static double clamp_int(double v, double lo, double hi)
{
	if (isnan(v)) return 0;
	v = trunc(v);
	return v < lo ? lo : v > hi ? hi : v;
}

void gpu_values_convert(lesson_dtype t, const double *v, int64_t n, void *out)
{
	for (int64_t i = 0; i < n; i++) {
		double x = v[i];
		switch (t) {
		case DT_F32: ((float *)out)[i] = (float)x; break;
		case DT_F64: ((double *)out)[i] = x; break;
		case DT_F16: ((uint16_t *)out)[i] = small_float(x, 10, 5); break;
		case DT_BF16: ((uint16_t *)out)[i] = small_float(x, 7, 8); break;
		case DT_I32: ((int32_t *)out)[i] = (int32_t)clamp_int(x, -2147483648.0, 2147483647.0); break;
		case DT_U32: ((uint32_t *)out)[i] = (uint32_t)clamp_int(x, 0, 4294967295.0); break;
		case DT_I8: ((int8_t *)out)[i] = (int8_t)clamp_int(x, -128, 127); break;
		case DT_U8: ((uint8_t *)out)[i] = (uint8_t)clamp_int(x, 0, 255); break;
		case DT_I64: {   /* 2^63 itself is out of range: the largest double below it is the top */
			double c = clamp_int(x, -9223372036854775808.0, 9223372036854775808.0);
			((int64_t *)out)[i] = c >= 9223372036854775808.0 ? INT64_MAX : (int64_t)c;
			break;
		}
		case DT_U64: {
			double c = clamp_int(x, 0, 18446744073709551616.0);
			((uint64_t *)out)[i] = c >= 18446744073709551616.0 ? UINT64_MAX : (uint64_t)c;
			break;
		}
		case DT_COUNT: break;
		}
	}
}

gpu_buffer *gpu_data_find(gpu_data *d, const char *name)
{
	for (int i = 0; i < d->n; i++) if (!strcmp(d->b[i].name, name)) return &d->b[i];
	return NULL;
}

void gpu_data_drop_scratch(gpu_data *d)
{
	int k = 0;
	for (int i = 0; i < d->n; i++) {
		if (d->b[i].scratch) free_buffer(&d->b[i]);
		else d->b[k++] = d->b[i];
	}
	d->n = k;
}

void gpu_data_free(gpu_data *d)
{
	for (int i = 0; i < d->n; i++) free_buffer(&d->b[i]);
	free(d->b);
	memset(d, 0, sizeof *d);
	cudaFree(staging);
	staging = NULL;
	staging_cap = 0;
}

/* A guarded allocation of bytes in memory of kind m: *base and *ptr (past the low guard), both guards
 * filled. */
static cudaError_t guarded_alloc(lesson_memory m, size_t bytes, void **base, void **ptr)
{
	cudaError_t e = mem_alloc(m, base, bytes + 2 * GPU_GUARD);
	if (!e) e = mem_set(m, *base, GPU_GUARD_BYTE, GPU_GUARD);
	if (!e) e = mem_set(m, (char *)*base + GPU_GUARD + bytes, GPU_GUARD_BYTE, GPU_GUARD);
	if (e) {
		mem_free(m, *base);
		*base = NULL;
		cudaGetLastError();
		return e;
	}
	*ptr = (char *)*base + GPU_GUARD;   /* GPU_GUARD keeps cudaMalloc's 256-byte alignment (and a page's) */
	return cudaSuccess;
}

/* A pitched allocation for b (rows, cols set): cudaMallocPitch with guard rows above and below, enough
 * for GPU_GUARD bytes each; b's pitch, bytes, alloc, base and ptr set, both guards filled. */
static cudaError_t pitched_alloc(gpu_buffer *b)
{
	size_t width = (size_t)b->cols * lesson_dtype_size(b->type), pitch = 0;
	void *probe = NULL;
	/* The driver picks the pitch from the width alone: ask once for one row to size the guard rows. */
	cudaError_t e = cudaMallocPitch(&probe, &pitch, width, 1);
	if (e) return e;
	cudaFree(probe);
	size_t g = (GPU_GUARD + pitch - 1) / pitch;
	if (b->rows > (int64_t)((SIZE_MAX / pitch) - 2 * g)) return cudaErrorMemoryAllocation;
	if ((e = cudaMallocPitch(&b->alloc, &b->pitch, width, (size_t)b->rows + 2 * g))) { b->alloc = NULL; return e; }
	if (b->pitch != pitch) { cudaFree(b->alloc); b->alloc = NULL; return cudaErrorInvalidPitchValue; }
	b->bytes = (size_t)b->rows * b->pitch;
	b->ptr = (char *)b->alloc + g * b->pitch;
	b->base = (char *)b->ptr - GPU_GUARD;
	e = cudaMemset(b->base, GPU_GUARD_BYTE, GPU_GUARD);
	if (!e) e = cudaMemset((char *)b->ptr + b->bytes, GPU_GUARD_BYTE, GPU_GUARD);
	if (e) { cudaFree(b->alloc); b->alloc = b->base = b->ptr = NULL; cudaGetLastError(); }
	return e;
}

void gpu_data_pitch_note(const gpu_data *d, char *out, size_t n)
{
	for (int i = 0; i < d->n; i++) {
		const gpu_buffer *b = &d->b[i];
		size_t len = strlen(out);
		if (b->rows <= 0 || len + 1 >= n) continue;
		strfmt(out + len, n - len, "; %s: cudaMallocPitch gave a pitch of %zu bytes for rows of %lld", b->name, b->pitch,
		       (long long)((size_t)b->cols * lesson_dtype_size(b->type)));
	}
}

static int alloc_buffer(gpu_data *d, const plan_buffer *pb, char *err, size_t errlen)
{
	d->b = xrealloc(d->b, (size_t)(d->n + 1) * sizeof *d->b);
	gpu_buffer *b = &d->b[d->n];
	memset(b, 0, sizeof *b);
	b->type = pb->type;
	b->count = pb->count;
	b->bytes = (size_t)pb->count * lesson_dtype_size(pb->type);
	b->output = pb->output;
	b->scratch = pb->scratch;
	b->init = pb->init;
	b->memory = pb->memory;
	b->cap = b->bytes;
	b->rows = pb->rows > 0 && pb->memory == MEM_DEVICE ? pb->rows : 0;
	b->cols = b->rows ? pb->cols : 0;
	cudaError_t e = b->rows ? pitched_alloc(b) : guarded_alloc(b->memory, b->bytes, &b->base, &b->ptr);
	if (b->rows) b->cap = b->bytes;
	if (e) {
		strfmt(err, errlen, "cannot allocate buffer %s (%.1f MiB of %s memory): %s", pb->name, b->bytes / 1048576.0,
		       memory_name(pb->memory), cudaGetErrorString(e));
		return -1;
	}
	b->name = xstrdup(pb->name);
	d->n++;
	return 0;
}

/* The lesson buffer pb placed in an existing allocation of the same name and kind of memory when it
 * is large enough (the high guard moves to its new end); 0, 1 when there was none to reuse, -1 on a
 * CUDA error. */
static int reuse(gpu_buffer *b, const plan_buffer *pb)
{
	size_t bytes = (size_t)pb->count * lesson_dtype_size(pb->type);
	if (b->cap < bytes || b->memory != pb->memory || b->rows > 0 || pb->rows > 0) return 1;   /* pitched: allocated afresh */
	b->type = pb->type;
	b->count = pb->count;
	b->bytes = bytes;
	b->output = pb->output;
	return mem_set(b->memory, (char *)b->ptr + bytes, GPU_GUARD_BYTE, GPU_GUARD) ? -1 : 0;
}

/* The index in plan p of its csr_rows buffer (a lesson has at most one), p->nbuffers when none. */
static int csr_rows_index(const plan *p)
{
	int j = 0;
	while (j < p->nbuffers && p->buffers[j].init != INIT_CSR_ROWS) j++;
	return j;
}

/* A CSR row pointer (INIT_CSR_ROWS) or column indices (INIT_CSR_COLS, from plan p's row pointer),
 * made on the host from the seed into out (b's count of i32); cudaErrorInvalidValue when the plan's
 * sizes do not make a matrix (plan_make and plan_wire_read refuse those first). */
static cudaError_t csr_make(const plan *p, const plan_buffer *pb, int64_t count, uint64_t seed, int i, int32_t *out)
{
	int j = pb->init == INIT_CSR_COLS ? csr_rows_index(p) : i;
	if (j == p->nbuffers) return cudaErrorInvalidValue;
	const plan_buffer *rb = &p->buffers[j];
	int64_t rows = rb->count - 1;
	uint64_t rseed = seed + (uint64_t)j * 0x632be59bd9b4e019ULL;
	if (pb->init == INIT_CSR_ROWS)
		return csrgen_rows(rows, (int64_t)rb->b, (int64_t)rb->a, rb->skew, rseed, out) ? cudaErrorInvalidValue : cudaSuccess;
	if (count != (int64_t)rb->a) return cudaErrorInvalidValue;
	int32_t *rp = malloc((size_t)(rows + 1) * sizeof *rp);
	if (!rp) return cudaErrorMemoryAllocation;
	int bad = csrgen_rows(rows, (int64_t)rb->b, (int64_t)rb->a, rb->skew, rseed, rp) ||
	          csrgen_cols(rows, (int64_t)rb->b, rp, seed + (uint64_t)i * 0x632be59bd9b4e019ULL, out);
	free(rp);
	return bad ? cudaErrorInvalidValue : cudaSuccess;
}

/* The csr_cols buffer b (pb, lesson buffer i of plan p) drawn afresh from seed on the device, as csr_make
 * would draw it, from the kept copy of its row pointer (so nothing a kernel did to either buffer
 * counts): the columns of a learner's repetition, its row lengths the job's own. 0 or a CUDA error. */
static cudaError_t csr_refill(gpu_data *d, gpu_buffer *b, const plan *p, const plan_buffer *pb, int i, uint64_t seed)
{
	int j = csr_rows_index(p);
	gpu_buffer *rb = j < p->nbuffers ? gpu_data_find(d, p->buffers[j].name) : NULL;
	if (pb->init != INIT_CSR_COLS || !rb || !rb->orig_ok || rb->type != DT_I32 || rb->count < 2 || b->type != DT_I32 ||
	    b->count != (long long)p->buffers[j].a)
		return cudaErrorInvalidValue;
	void *dst = b->ptr;
	cudaError_t e = b->memory != MEM_DEVICE ? staging_get(b->bytes, &dst) : cudaSuccess;
	if (e) return e;
	long long n = b->count, rows = rb->count - 1, cols = (long long)p->buffers[j].b;
	unsigned long long s = seed + (uint64_t)i * 0x632be59bd9b4e019ULL;
	const void *rp = rb->orig;
	void *args[] = { &dst, &n, &rp, &rows, &cols, &s };
	e = cudaLaunchKernel((const void *)csr_cols_k, d3(grid_for(n), 1, 1), d3(256, 1, 1), args, 0, 0);
	return !e && b->memory != MEM_DEVICE ? cudaMemcpy(b->ptr, dst, b->bytes, cudaMemcpyDeviceToHost) : e;
}

/* Fills b (lesson buffer i of the plan, pb) as pb's init says. A host buffer is filled on the device
 * in the staging buffer and copied over, so it holds what a device buffer with the same seed would. */
static cudaError_t fill_buffer(gpu_data *d, gpu_buffer *b, const plan *p, const plan_buffer *pb, int i, uint64_t seed)
{
	int host = b->memory != MEM_DEVICE;
	long long n = b->count;
	void *dst = b->ptr;
	cudaError_t e = cudaSuccess;
	switch (pb->init) {
	case INIT_COPY: {   /* the values of the packed buffer before it (the plan checked its size); a pitched buffer's rows */
		gpu_buffer *src = pb->copy_of ? gpu_data_find(d, pb->copy_of) : NULL;
		size_t width = (size_t)b->cols * lesson_dtype_size(b->type);
		if (!src || src == b || src->rows || src->type != b->type) return cudaErrorInvalidValue;
		if (!b->rows) return src->bytes < b->bytes ? cudaErrorInvalidValue : cudaMemcpy(b->ptr, src->ptr, b->bytes, cudaMemcpyDefault);
		if (src->bytes < width * (size_t)b->rows) return cudaErrorInvalidValue;
		e = cudaMemset(b->ptr, 0, b->bytes);   /* the padding too: nothing in it is left from before */
		return e ? e : cudaMemcpy2D(b->ptr, b->pitch, src->ptr, width, width, (size_t)b->rows, cudaMemcpyDefault);
	}
	case INIT_ZERO: case INIT_NONE:
		return mem_set(b->memory, b->ptr, 0, b->bytes);
	case INIT_EXPR: {
		if (!pb->values && n > 0) return cudaErrorInvalidValue;
		if (host) { gpu_values_convert(b->type, pb->values, n, b->ptr); return cudaSuccess; }
		void *tmp = xmalloc(b->bytes ? b->bytes : 1);
		gpu_values_convert(b->type, pb->values, n, tmp);
		e = cudaMemcpy(b->ptr, tmp, b->bytes, cudaMemcpyHostToDevice);
		free(tmp);
		return e;
	}
	case INIT_CSR_ROWS: case INIT_CSR_COLS: {
		if (b->type != DT_I32) return cudaErrorInvalidValue;
		if (host) return csr_make(p, pb, n, seed, i, b->ptr);
		int32_t *tmp = malloc(b->bytes ? b->bytes : 1);
		if (!tmp) return cudaErrorMemoryAllocation;
		e = csr_make(p, pb, n, seed, i, tmp);
		if (!e) e = cudaMemcpy(b->ptr, tmp, b->bytes, cudaMemcpyHostToDevice);
		free(tmp);
		return e;
	}
	case INIT_RANDOM: case INIT_IOTA: case INIT_CONSTANT: case INIT_CYCLE:
		break;
	}
	if (host && (e = staging_get(b->bytes, &dst))) return e;
	if (pb->init == INIT_RANDOM) e = fill(dst, b->type, n, 0, seed + (uint64_t)i * 0x632be59bd9b4e019ULL, pb->a, pb->b, pb->hot);
	else if (pb->init == INIT_CYCLE) e = (n & (n - 1)) ? cudaErrorInvalidValue : fill(dst, b->type, n, 3, seed + (uint64_t)i * 0x632be59bd9b4e019ULL, 0, 0, 0);
	else if (pb->init == INIT_IOTA) e = fill(dst, b->type, n, 1, 0, 0, 0, 0);
	else e = fill(dst, b->type, n, 2, 0, pb->a, 0, 0);
	if (!e && host) e = cudaMemcpy(b->ptr, dst, b->bytes, cudaMemcpyDeviceToHost);
	return e;
}

/* b moved to memory of kind m with its contents (a stage's memory: choice); 0 or a CUDA error. */
static cudaError_t move_buffer(gpu_buffer *b, lesson_memory m)
{
	void *base = NULL, *ptr = NULL;
	cudaError_t e = cudaDeviceSynchronize();
	if (!e) e = guarded_alloc(m, b->bytes, &base, &ptr);
	if (!e) e = cudaMemcpy(ptr, b->ptr, b->bytes, cudaMemcpyDefault);
	if (e) { mem_free(m, base); return e; }
	mem_free(b->memory, b->base);
	b->base = base;
	b->ptr = ptr;
	b->cap = b->bytes;
	b->memory = m;
	return cudaSuccess;
}

int gpu_data_prepare(gpu_data *d, const plan *p, const char *key, uint64_t seed, char *err, size_t errlen)
{
	gpu_data_drop_scratch(d);
	int rebuilt = 0;
	if (strcmp(d->key, key)) {
		/* New sizes or a new seed: the lesson's buffers are filled afresh, in the allocations they
		 * already have where those are large enough (a try goes tiny, odd, full size and back). */
		gpu_data old = *d;
		memset(d, 0, sizeof *d);
		rebuilt = 1;
		for (int i = 0; i < p->nbuffers; i++) {
			const plan_buffer *pb = &p->buffers[i];
			if (pb->scratch) continue;
			gpu_buffer *b = NULL;
			for (int k = 0; k < old.n && !b; k++)
				if (old.b[k].base && !strcmp(old.b[k].name, pb->name) && old.b[k].type == pb->type) b = &old.b[k];
			int r = b ? reuse(b, pb) : 1;
			if (r < 0) { strfmt(err, errlen, "reusing buffer %s: %s", pb->name, cudaGetErrorString(cudaGetLastError())); gpu_data_free(&old); gpu_data_free(d); return -1; }
			if (r == 0) {
				d->b = xrealloc(d->b, (size_t)(d->n + 1) * sizeof *d->b);   /* alloc_buffer grows it one at a time too */
				d->b[d->n++] = *b;
				b->base = b->ref = b->alloc = b->orig = b->alt = NULL;   /* moved, and its name with it */
				b->name = NULL;
				d->b[d->n - 1].ref_key = 0;
				d->b[d->n - 1].orig_ok = 0;           /* the kept inputs were another key's */
			} else if (alloc_buffer(d, pb, err, errlen)) {
				gpu_data_free(&old);
				gpu_data_free(d);
				return -1;
			}
			gpu_buffer *nb = &d->b[d->n - 1];
			cudaError_t e = fill_buffer(d, nb, p, pb, i, seed);
			if (e) { strfmt(err, errlen, "filling %s: %s", nb->name, cudaGetErrorString(e)); gpu_data_free(&old); gpu_data_free(d); return -1; }
		}
		gpu_data_free(&old);           /* what was not reused */
		strfmt(d->key, sizeof d->key, "%s", key);
		d->have_ref = 0;
		d->inputs_dirty = 0;
	} else {
		/* A learner's kernel ran on these inputs (and a repetition may have refilled them): as kept. */
		for (int i = 0; d->inputs_dirty && i < d->n; i++) {
			gpu_buffer *b = &d->b[i];
			if (b->output || b->scratch) continue;
			if (!b->orig_ok) { strfmt(err, errlen, "buffer %s: its kept copy is missing", b->name); return -1; }
			CK(cudaMemcpy(b->ptr, b->orig, b->bytes, cudaMemcpyDefault));
		}
		d->inputs_dirty = 0;
		/* The same data; a stage may keep a host buffer in the other kind of host memory (memory:). */
		for (int i = 0; i < p->nbuffers; i++) {
			const plan_buffer *pb = &p->buffers[i];
			gpu_buffer *b = pb->scratch ? NULL : gpu_data_find(d, pb->name);
			if (!b || b->memory == pb->memory) continue;
			cudaError_t e = move_buffer(b, pb->memory);
			if (e) {
				strfmt(err, errlen, "moving buffer %s to %s memory: %s", pb->name, memory_name(pb->memory), cudaGetErrorString(e));
				cudaGetLastError();
				return -1;
			}
		}
	}
	return gpu_data_add_scratch(d, p, err, errlen) ? -1 : rebuilt;   /* every one: dropped above */
}

static int poison_byte(const gpu_buffer *b) { return lesson_dtype_is_float(b->type) ? 0xFF : 0xA5; }

cudaError_t gpu_data_poison(gpu_data *d, cudaStream_t s)
{
	int synced = 0;
	for (int i = 0; i < d->n; i++) {
		gpu_buffer *b = &d->b[i];
		cudaError_t e = cudaSuccess;
		if (!b->output) continue;
		if (b->memory == MEM_DEVICE) {
			e = cudaMemsetAsync(b->ptr, poison_byte(b), b->bytes, s);
		} else {
			/* On the host, once no copy of any stream may still be writing it. */
			if (!synced && !(e = cudaDeviceSynchronize())) synced = 1;
			if (!e) memset(b->ptr, poison_byte(b), b->bytes);
		}
		if (e) return e;
	}
	return cudaSuccess;
}

cudaError_t gpu_data_save_ref(gpu_data *d, const char *const *names, int n)
{
	for (int i = 0; i < n; i++) {
		gpu_buffer *b = gpu_data_find(d, names[i]);
		if (!b) continue;
		cudaError_t e = cudaSuccess;
		if (b->ref && b->ref_cap < b->bytes) { cudaFree(b->ref); b->ref = NULL; }
		if (!b->ref) { e = cudaMalloc(&b->ref, b->bytes); b->ref_cap = b->bytes; }
		if (!e) e = cudaMemcpy(b->ref, b->ptr, b->bytes, cudaMemcpyDefault);   /* a host output's too */
		if (e) return e;
		b->ref_key = 0;
	}
	d->have_ref = 1;
	return cudaSuccess;
}

cudaError_t gpu_data_hide_ref(gpu_data *d)
{
	for (int i = 0; i < d->n; i++) {
		gpu_buffer *b = &d->b[i];
		if (!b->ref || b->ref_key) continue;
		unsigned long long key = 0;
		while (!key)
			if (getrandom(&key, sizeof key, 0) != sizeof key) key = (unsigned long long)now_ms() * 0x9e3779b97f4a7c15ULL;
		long long n = b->count;
		void *args[] = { &b->ref, &n, &key };
		cudaError_t e = cudaLaunchKernel((const void *)scramble_k[b->type], d3(grid_for(n), 1, 1), d3(256, 1, 1), args, 0, 0);
		if (e) return e;
		b->ref_key = key;
	}
	return cudaDeviceSynchronize();
}

/* The first and last byte in [0, n) of h that differ from the guard byte; 0 when none does. */
static int guard_span(const unsigned char *h, size_t n, size_t *first, size_t *last)
{
	size_t i = 0, k = n;
	while (i < n && h[i] == GPU_GUARD_BYTE) i++;
	if (i == n) return 0;
	while (k > i && h[k - 1] == GPU_GUARD_BYTE) k--;
	*first = i;
	*last = k - 1;
	return 1;
}

/* "element 7" or "elements 7 to 12". */
static void elements(char *out, size_t n, long long from, long long to)
{
	if (from == to) strfmt(out, n, "element %lld", from);
	else strfmt(out, n, "elements %lld to %lld", from, to);
}

int gpu_data_check_guards(gpu_data *d, run_result *r, char *err, size_t errlen)
{
	unsigned char *h = xmalloc(2 * GPU_GUARD);
	int hit = 0;
	for (int i = 0; i < d->n && !hit; i++) {
		gpu_buffer *b = &d->b[i];
		char *lo = b->base, *hi = (char *)b->base + GPU_GUARD + b->bytes;
		cudaError_t e = cudaSuccess;
		if (b->memory != MEM_DEVICE) {   /* read in place, once the device is done with them */
			if (!(e = cudaDeviceSynchronize())) {
				memcpy(h, lo, GPU_GUARD);
				memcpy(h + GPU_GUARD, hi, GPU_GUARD);
			}
		} else {
			e = cudaMemcpy(h, lo, GPU_GUARD, cudaMemcpyDeviceToHost);
			if (!e) e = cudaMemcpy(h + GPU_GUARD, hi, GPU_GUARD, cudaMemcpyDeviceToHost);
		}
		if (e) { free(h); strfmt(err, errlen, "reading the guard zones: %s", cudaGetErrorString(e)); return -1; }
		size_t es = lesson_dtype_size(b->type), f, l;
		char span[64];
		if (guard_span(h + GPU_GUARD, GPU_GUARD, &f, &l)) {
			elements(span, sizeof span, b->count + (long long)(f / es), b->count + (long long)(l / es));
			strfmt(r->message, sizeof r->message, "wrote past the end of %s: %s (it has %lld elements, the last is %lld)",
			       b->name, span, (long long)b->count, (long long)b->count - 1);
			hit = 1;
		} else if (guard_span(h, GPU_GUARD, &f, &l)) {
			elements(span, sizeof span, -(long long)((GPU_GUARD - f + es - 1) / es), -(long long)((GPU_GUARD - l + es - 1) / es));
			strfmt(r->message, sizeof r->message, "wrote before the start of %s: %s (a negative index)", b->name, span);
			hit = 1;
		}
		if (hit) {
			mem_set(b->memory, lo, GPU_GUARD_BYTE, GPU_GUARD);
			mem_set(b->memory, hi, GPU_GUARD_BYTE, GPU_GUARD);
		}
	}
	free(h);
	if (!hit) return 0;
	r->status = RUN_WRONG;
	r->passed = 0;
	strfmt(r->issue, sizeof r->issue, "out_of_bounds");
	return 1;
}

/* A device view of buffer b's bytes at p: p itself, or (host memory) a copy in the staging buffer,
 * which holds one buffer at a time. */
static cudaError_t on_device(const gpu_buffer *b, void *p, void **dev)
{
	*dev = p;
	if (b->memory == MEM_DEVICE) return cudaSuccess;
	cudaError_t e = staging_get(b->bytes, dev);
	return e ? e : cudaMemcpy(*dev, p, b->bytes, cudaMemcpyHostToDevice);
}

/* What gpu_data_compare compares: the outputs against the reference (CMP_REF); alt against the
 * outputs (CMP_ALT_OUT); the outputs against alt (CMP_OUT_ALT, alt scrambled with key). */
enum { CMP_REF, CMP_ALT_OUT, CMP_OUT_ALT };

static int compare_as(gpu_data *d, const char *const *names, int n, int how, unsigned long long key, int exact, double abs_tol,
                      double rel_tol, double norm_tol, run_result *r, char *err, size_t errlen)
{
	double sq_err = 0, sq_ref = 0;
	r->checked = 1;
	r->passed = 1;
	r->bad_count = r->nan_count = r->unwritten = 0;
	r->first_bad = -1;
	r->max_abs_err = r->max_rel_err = 0;
	for (int i = 0; i < n; i++) {
		gpu_buffer *b = gpu_data_find(d, names[i]);
		void *ref = how == CMP_REF ? b ? b->ref : NULL : how == CMP_OUT_ALT ? b ? b->alt : NULL : NULL, *out = NULL;
		unsigned long long rkey = how == CMP_REF ? b ? b->ref_key : 0 : how == CMP_OUT_ALT ? key : 0;
		if (!b || (how != CMP_ALT_OUT && !ref) || (how == CMP_ALT_OUT && !b->alt)) {
			strfmt(err, errlen, "no %s for buffer %s", how == CMP_REF ? "reference" : "copy set aside", names[i]);
			return -1;
		}
		cmp_result h = { 0, 0, ~0ULL, 0, 0, 0, 0, 0 };
		CK(cudaMemcpy(cmp_dev, &h, sizeof h, cudaMemcpyHostToDevice));
		long long cnt = b->count;
		int poison = poison_byte(b);
		if (how == CMP_ALT_OUT) { out = b->alt; CK(on_device(b, b->ptr, &ref)); }   /* a host output: from a device copy */
		else CK(on_device(b, b->ptr, &out));
		void *args[] = { &out, &ref, &cnt, &abs_tol, &rel_tol, &exact, &poison, &rkey, &cmp_dev };
		CK(cudaLaunchKernel((const void *)compare_k[b->type], d3(grid_for(cnt), 1, 1), d3(256, 1, 1), args, 0, 0));
		CK(cudaMemcpy(&h, cmp_dev, sizeof h, cudaMemcpyDeviceToHost));
		double ma, mr;
		memcpy(&ma, &h.max_abs_bits, sizeof ma);
		memcpy(&mr, &h.max_rel_bits, sizeof mr);
		if (ma > r->max_abs_err) r->max_abs_err = ma;
		if (mr > r->max_rel_err) r->max_rel_err = mr;
		sq_err += h.sq_err;
		sq_ref += h.sq_ref;
		r->bad_count += (int64_t)h.bad;
		r->nan_count += (int64_t)h.nans;
		r->unwritten += (int64_t)h.unwritten;
		if (h.bad) {
			if (r->passed) r->first_bad = (int64_t)h.first_bad;
			r->passed = 0;
			if (h.unwritten == h.bad) {
				strfmt(r->message, sizeof r->message, "%s: %llu of %lld elements were never written (they still hold the poison), first at index %llu",
				       b->name, h.bad, cnt, h.first_bad);
				strfmt(r->issue, sizeof r->issue, "unwritten");
			} else if (h.unwritten) {
				strfmt(r->message, sizeof r->message, "%s: %llu of %lld elements wrong, %llu of them never written, first at index %llu",
				       b->name, h.bad, cnt, h.unwritten, h.first_bad);
			} else {
				strfmt(r->message, sizeof r->message, "%s: %llu of %lld elements wrong (%llu NaN), first at index %llu",
				       b->name, h.bad, cnt, h.nans, h.first_bad);
			}
		}
	}
	/* The norm-wise relative error ||out - ref|| / ||ref|| over every compared element (0 when both
	 * norms are 0, infinite when only the reference's is). */
	r->norm_rel_err = sq_ref > 0 ? sqrt(sq_err / sq_ref) : sq_err > 0 ? INFINITY : 0;
	if (norm_tol > 0 && r->passed && !(r->norm_rel_err <= norm_tol)) {
		r->passed = 0;
		strfmt(r->message, sizeof r->message, "norm-wise relative error %.3g exceeds the tolerance %.3g (||out - ref|| / ||ref|| over %s%s)",
		       r->norm_rel_err, norm_tol, names[0], n > 1 ? " and the other outputs" : "");
		strfmt(r->issue, sizeof r->issue, "norm_error");
	}
	return 0;
}

int gpu_data_compare(gpu_data *d, const char *const *names, int n, int exact, double abs_tol, double rel_tol, double norm_tol,
                     run_result *r, char *err, size_t errlen)
{
	return compare_as(d, names, n, CMP_REF, 0, exact, abs_tol, rel_tol, norm_tol, r, err, errlen);
}

int gpu_data_compare_stash(gpu_data *d, const char *const *names, int n, int alt_is_ref, unsigned long long key, int exact,
                           double abs_tol, double rel_tol, double norm_tol, run_result *r, char *err, size_t errlen)
{
	return compare_as(d, names, n, alt_is_ref ? CMP_OUT_ALT : CMP_ALT_OUT, key, exact, abs_tol, rel_tol, norm_tol, r, err, errlen);
}

/* *p grown to hold bytes of device memory (*cap: what it holds). */
static cudaError_t grow(void **p, size_t *cap, size_t bytes)
{
	if (*p && *cap >= bytes) return cudaSuccess;
	cudaFree(*p);
	*p = NULL;
	*cap = 0;
	cudaError_t e = cudaMalloc(p, bytes ? bytes : 1);
	if (e) { *p = NULL; cudaGetLastError(); return e; }
	*cap = bytes;
	return cudaSuccess;
}

cudaError_t gpu_data_stash(gpu_data *d, const char *const *names, int n, unsigned long long key)
{
	for (int i = 0; i < n; i++) {
		gpu_buffer *b = gpu_data_find(d, names[i]);
		if (!b) continue;
		cudaError_t e = grow(&b->alt, &b->alt_cap, b->bytes);
		if (!e) e = cudaMemcpy(b->alt, b->ptr, b->bytes, cudaMemcpyDefault);
		long long cnt = b->count;
		void *args[] = { &b->alt, &cnt, &key };
		if (!e && key) e = cudaLaunchKernel((const void *)scramble_k[b->type], d3(grid_for(cnt), 1, 1), d3(256, 1, 1), args, 0, 0);
		if (e) return e;
	}
	return cudaSuccess;
}

static int is_input(const gpu_buffer *b) { return !b->output && !b->scratch; }

cudaError_t gpu_data_inputs_keep(gpu_data *d)
{
	for (int i = 0; i < d->n; i++) {
		gpu_buffer *b = &d->b[i];
		if (!is_input(b) || b->orig_ok) continue;
		cudaError_t e = grow(&b->orig, &b->orig_cap, b->bytes);
		if (!e) e = cudaMemcpy(b->orig, b->ptr, b->bytes, cudaMemcpyDefault);
		if (e) return e;
		b->orig_ok = 1;
	}
	d->inputs_dirty = 1;
	return cudaSuccess;
}

cudaError_t gpu_data_inputs_reseed(gpu_data *d, const plan *p, uint64_t seed, int derived)
{
	for (int i = 0; i < p->nbuffers; i++) {
		const plan_buffer *pb = &p->buffers[i];
		gpu_buffer *b = pb->scratch || pb->output ? NULL : gpu_data_find(d, pb->name);
		if (!b || !is_input(b)) continue;
		cudaError_t e;
		if (seed && (pb->init == INIT_RANDOM || pb->init == INIT_CYCLE || pb->init == INIT_COPY))
			e = fill_buffer(d, b, p, pb, i, seed);   /* in plan order: a copy after its source */
		else if (seed && pb->init == INIT_CSR_COLS) e = csr_refill(d, b, p, pb, i, seed);   /* a kernel keeps no copy of them */
		else if (seed && derived && (pb->init == INIT_ZERO || pb->init == INIT_NONE)) e = mem_set(b->memory, b->ptr, 0, b->bytes);
		else e = b->orig_ok ? cudaMemcpyAsync(b->ptr, b->orig, b->bytes, cudaMemcpyDefault, 0) : cudaErrorInvalidValue;
		if (e) return e;
	}
	return cudaSuccess;
}

int gpu_data_inputs_check(gpu_data *d, run_result *r, char *err, size_t errlen)
{
	for (int i = 0; i < d->n; i++) {
		gpu_buffer *b = &d->b[i];
		if (!is_input(b) || !b->orig_ok) continue;
		/* byte for byte, as unsigned bytes: an exact compare of the bits (a float input's NaN too) */
		cmp_result h = { 0, 0, ~0ULL, 0, 0, 0, 0, 0 };
		void *now;
		long long cnt = (long long)b->bytes;
		double zero = 0;
		int exact = 1, poison = -1;
		unsigned long long key = 0;
		CK(cudaMemcpy(cmp_dev, &h, sizeof h, cudaMemcpyHostToDevice));
		CK(on_device(b, b->ptr, &now));
		void *args[] = { &now, &b->orig, &cnt, &zero, &zero, &exact, &poison, &key, &cmp_dev };
		CK(cudaLaunchKernel((const void *)compare_k[DT_U8], d3(grid_for(cnt), 1, 1), d3(256, 1, 1), args, 0, 0));
		CK(cudaMemcpy(&h, cmp_dev, sizeof h, cudaMemcpyDeviceToHost));
		if (!h.bad) continue;
		size_t el = lesson_dtype_size(b->type);
		r->status = RUN_WRONG;
		r->passed = 0;
		strfmt(r->issue, sizeof r->issue, "input_written");
		strfmt(r->message, sizeof r->message, "the kernel wrote into its input %s (%llu bytes changed, the first in element %llu): a kernel's inputs are read-only",
		       b->name, h.bad, h.first_bad / (el ? el : 1));
		return 1;
	}
	return 0;
}

int gpu_data_add_scratch(gpu_data *d, const plan *p, char *err, size_t errlen)
{
	for (int i = 0; i < p->nbuffers; i++) {
		if (!p->buffers[i].scratch || gpu_data_find(d, p->buffers[i].name)) continue;
		if (alloc_buffer(d, &p->buffers[i], err, errlen)) return -1;
		if (p->buffers[i].init == INIT_EXPR) CK(fill_buffer(d, &d->b[d->n - 1], p, &p->buffers[i], i, 0));
		else CK(mem_set(d->b[d->n - 1].memory, d->b[d->n - 1].ptr, 0, d->b[d->n - 1].bytes));
	}
	CK(cudaDeviceSynchronize());
	return 0;
}

cudaError_t gpu_data_scratch_reset(gpu_data *d, const plan *p)
{
	for (int i = 0; i < p->nbuffers; i++) {
		const plan_buffer *pb = &p->buffers[i];
		gpu_buffer *b = pb->scratch ? gpu_data_find(d, pb->name) : NULL;
		if (!b || !b->scratch) continue;
		cudaError_t e = pb->init == INIT_EXPR ? fill_buffer(d, b, p, pb, i, 0) : cudaMemsetAsync(b->ptr, 0, b->bytes, 0);
		if (e) return e;
	}
	return cudaSuccess;
}
