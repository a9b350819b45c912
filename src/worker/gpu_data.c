/* gpu_data: the worker's device buffers: allocation, seeded fill, poison, reference copies and the
 * element-wise comparison (built-in kernels from kernels/builtin/data.cu). */
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include "compile.h"
#include "gpu.h"
#include "util.h"

static cudaLibrary_t builtin_lib;
static cudaKernel_t fill_k[DT_COUNT], compare_k[DT_COUNT], scramble_k[DT_COUNT];

typedef struct { unsigned long long bad, nans, first_bad, max_abs_bits, max_rel_bits, unwritten; } cmp_result;
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
	CK(cudaMalloc((void **)&cmp_dev, sizeof *cmp_dev));
	return 0;
}

static unsigned grid_for(int64_t n)
{
	int64_t g = (n + 255) / 256, cap = (int64_t)gpu_device()->sm_count * 16;
	return (unsigned)(g < cap ? (g < 1 ? 1 : g) : cap);
}

static cudaError_t fill(gpu_buffer *b, int mode, uint64_t seed, double a, double c)
{
	long long n = b->count;
	unsigned long long s = seed;
	void *args[] = { &b->ptr, &n, &s, &a, &c, &mode };
	return cudaLaunchKernel((const void *)fill_k[b->type], d3(grid_for(n), 1, 1), d3(256, 1, 1), args, 0, 0);
}

static void free_buffer(gpu_buffer *b)
{
	cudaFree(b->base);
	cudaFree(b->ref);
	free(b->name);
	b->name = NULL;
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
	b->cap = b->bytes;
	cudaError_t e = cudaMalloc(&b->base, b->bytes + 2 * GPU_GUARD);
	if (!e) e = cudaMemset(b->base, GPU_GUARD_BYTE, GPU_GUARD);
	if (!e) e = cudaMemset((char *)b->base + GPU_GUARD + b->bytes, GPU_GUARD_BYTE, GPU_GUARD);
	if (e) {
		strfmt(err, errlen, "cannot allocate buffer %s (%.1f MiB): %s", pb->name, b->bytes / 1048576.0, cudaGetErrorString(e));
		cudaFree(b->base);
		cudaGetLastError();
		return -1;
	}
	b->name = xstrdup(pb->name);
	b->ptr = (char *)b->base + GPU_GUARD;   /* GPU_GUARD keeps cudaMalloc's 256-byte alignment */
	d->n++;
	return 0;
}

/* The lesson buffer pb placed in an existing allocation of the same name when it is large enough
 * (the high guard moves to its new end); 0, 1 when there was none to reuse, -1 on a CUDA error. */
static int reuse(gpu_buffer *b, const plan_buffer *pb)
{
	size_t bytes = (size_t)pb->count * lesson_dtype_size(pb->type);
	if (b->cap < bytes) return 1;
	b->type = pb->type;
	b->count = pb->count;
	b->bytes = bytes;
	b->output = pb->output;
	return cudaMemset((char *)b->ptr + bytes, GPU_GUARD_BYTE, GPU_GUARD) ? -1 : 0;
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
				b->base = b->ref = NULL;       /* moved, and its name with it */
				b->name = NULL;
				d->b[d->n - 1].ref_key = 0;
			} else if (alloc_buffer(d, pb, err, errlen)) {
				gpu_data_free(&old);
				gpu_data_free(d);
				return -1;
			}
			gpu_buffer *nb = &d->b[d->n - 1];
			cudaError_t e = cudaSuccess;
			switch (pb->init) {
			case INIT_RANDOM: e = fill(nb, 0, seed + (uint64_t)i * 0x632be59bd9b4e019ULL, pb->a, pb->b); break;
			case INIT_IOTA: e = fill(nb, 1, 0, 0, 0); break;
			case INIT_CONSTANT: e = fill(nb, 2, 0, pb->a, 0); break;
			case INIT_ZERO: case INIT_NONE: e = cudaMemset(nb->ptr, 0, nb->bytes); break;
			case INIT_EXPR: e = cudaErrorNotSupported; break;   /* not yet read by the loader */
			}
			if (e) { strfmt(err, errlen, "filling %s: %s", nb->name, cudaGetErrorString(e)); gpu_data_free(&old); gpu_data_free(d); return -1; }
		}
		gpu_data_free(&old);           /* what was not reused */
		strfmt(d->key, sizeof d->key, "%s", key);
		d->have_ref = 0;
	}
	for (int i = 0; i < p->nbuffers; i++) {
		if (!p->buffers[i].scratch) continue;
		if (alloc_buffer(d, &p->buffers[i], err, errlen)) return -1;
		CK(cudaMemset(d->b[d->n - 1].ptr, 0, d->b[d->n - 1].bytes));
	}
	CK(cudaDeviceSynchronize());
	return rebuilt;
}

static int poison_byte(const gpu_buffer *b) { return lesson_dtype_is_float(b->type) ? 0xFF : 0xA5; }

cudaError_t gpu_data_poison(gpu_data *d, cudaStream_t s)
{
	for (int i = 0; i < d->n; i++) {
		gpu_buffer *b = &d->b[i];
		if (!b->output) continue;
		cudaError_t e = cudaMemsetAsync(b->ptr, poison_byte(b), b->bytes, s);
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
		if (!e) e = cudaMemcpy(b->ref, b->ptr, b->bytes, cudaMemcpyDeviceToDevice);
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
		cudaError_t e = cudaMemcpy(h, lo, GPU_GUARD, cudaMemcpyDeviceToHost);
		if (!e) e = cudaMemcpy(h + GPU_GUARD, hi, GPU_GUARD, cudaMemcpyDeviceToHost);
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
			cudaMemset(lo, GPU_GUARD_BYTE, GPU_GUARD);
			cudaMemset(hi, GPU_GUARD_BYTE, GPU_GUARD);
		}
	}
	free(h);
	if (!hit) return 0;
	r->status = RUN_WRONG;
	r->passed = 0;
	strfmt(r->issue, sizeof r->issue, "out_of_bounds");
	return 1;
}

int gpu_data_compare(gpu_data *d, const char *const *names, int n, int exact, double abs_tol, double rel_tol, run_result *r,
                     char *err, size_t errlen)
{
	r->checked = 1;
	r->passed = 1;
	r->bad_count = r->nan_count = r->unwritten = 0;
	r->first_bad = -1;
	r->max_abs_err = r->max_rel_err = 0;
	for (int i = 0; i < n; i++) {
		gpu_buffer *b = gpu_data_find(d, names[i]);
		if (!b || !b->ref) { strfmt(err, errlen, "no reference for buffer %s", names[i]); return -1; }
		cmp_result h = { 0, 0, ~0ULL, 0, 0, 0 };
		CK(cudaMemcpy(cmp_dev, &h, sizeof h, cudaMemcpyHostToDevice));
		long long cnt = b->count;
		int poison = poison_byte(b);
		void *args[] = { &b->ptr, &b->ref, &cnt, &abs_tol, &rel_tol, &exact, &poison, &b->ref_key, &cmp_dev };
		CK(cudaLaunchKernel((const void *)compare_k[b->type], d3(grid_for(cnt), 1, 1), d3(256, 1, 1), args, 0, 0));
		CK(cudaMemcpy(&h, cmp_dev, sizeof h, cudaMemcpyDeviceToHost));
		double ma, mr;
		memcpy(&ma, &h.max_abs_bits, sizeof ma);
		memcpy(&mr, &h.max_rel_bits, sizeof mr);
		if (ma > r->max_abs_err) r->max_abs_err = ma;
		if (mr > r->max_rel_err) r->max_rel_err = mr;
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
	return 0;
}
