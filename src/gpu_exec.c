/* gpu_exec: one stage's launches made ready: the module loaded (cached by cubin path), kernels
 * looked up, argument arrays built against the worker's buffers. */
#include <stdlib.h>
#include <string.h>
#include "gpu.h"
#include "util.h"

#define MODULE_CACHE 32
static struct { char path[512]; cudaLibrary_t lib; double used; } modules[MODULE_CACHE];

typedef struct {
	int is_memset; gpu_buffer *buf; int value;
	cudaKernel_t k;
	dim3 grid, block; size_t shared;
	void **args;          /* pointers into store */
	void *store;          /* one 8-byte slot per argument */
	int nargs;
} xlaunch;

struct gpu_exec {
	const plan *p;
	gpu_data *d;
	xlaunch *L; int n;
};

static cudaLibrary_t load_module(const char *path, char *err, size_t errlen)
{
	int free_slot = -1, oldest = 0;
	for (int i = 0; i < MODULE_CACHE; i++) {
		if (modules[i].lib && !strcmp(modules[i].path, path)) { modules[i].used = now_ms(); return modules[i].lib; }
		if (!modules[i].lib && free_slot < 0) free_slot = i;
		if (modules[i].used < modules[oldest].used) oldest = i;
	}
	if (free_slot < 0) {
		cudaLibraryUnload(modules[oldest].lib);
		modules[oldest].lib = NULL;
		free_slot = oldest;
	}
	size_t len;
	char *data = file_read(path, &len);
	if (!data) { strfmt(err, errlen, "cannot read %s", path); return NULL; }
	cudaLibrary_t lib = NULL;
	cudaError_t e = cudaLibraryLoadData(&lib, data, NULL, NULL, 0, NULL, NULL, 0);
	free(data);
	if (e) { strfmt(err, errlen, "cannot load the compiled kernel: %s", cudaGetErrorString(e)); return NULL; }
	strfmt(modules[free_slot].path, sizeof modules[free_slot].path, "%s", path);
	modules[free_slot].lib = lib;
	modules[free_slot].used = now_ms();
	return lib;
}

gpu_exec *gpu_exec_new(const plan *p, gpu_data *d, const char *cubin, char *err, size_t errlen)
{
	gpu_exec *x = xcalloc(1, sizeof *x);
	x->p = p;
	x->d = d;
	if (p->stage < 0) return x;   /* a baseline: baseline_run does the work */
	cudaLibrary_t lib = load_module(cubin, err, errlen);
	if (!lib) { free(x); return NULL; }
	x->L = xcalloc((size_t)p->nlaunches, sizeof *x->L);
	x->n = p->nlaunches;
	for (int i = 0; i < p->nlaunches; i++) {
		const plan_launch *pl = &p->launches[i];
		xlaunch *L = &x->L[i];
		if (pl->is_memset) {
			L->is_memset = 1;
			L->buf = gpu_data_find(d, pl->buffer);
			L->value = pl->value;
			continue;
		}
		cudaError_t e = cudaLibraryGetKernel(&L->k, lib, pl->entry);
		if (e) { strfmt(err, errlen, "kernel %s not found in the compiled code: %s", pl->entry, cudaGetErrorString(e)); gpu_exec_free(x); return NULL; }
		L->grid = d3(pl->grid[0], pl->grid[1], pl->grid[2]);
		L->block = d3(pl->block[0], pl->block[1], pl->block[2]);
		L->shared = pl->shared;
		if (pl->shared > 48 * 1024) {
			e = cudaFuncSetAttribute((const void *)L->k, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)pl->shared);
			if (e) { strfmt(err, errlen, "cannot give %s %zu bytes of shared memory: %s", pl->entry, pl->shared, cudaGetErrorString(e)); gpu_exec_free(x); return NULL; }
		}
		L->nargs = pl->nargs;
		L->args = xcalloc((size_t)pl->nargs + 1, sizeof(void *));
		L->store = xcalloc((size_t)pl->nargs + 1, 8);
		for (int a = 0; a < pl->nargs; a++) {
			char *slot = (char *)L->store + 8 * a;
			if (pl->args[a].is_buffer) {
				gpu_buffer *b = gpu_data_find(d, pl->args[a].buffer);
				memcpy(slot, &b->ptr, sizeof(void *));
			} else {
				memcpy(slot, &pl->args[a].v, 8);   /* the union's first bytes hold the value of its type */
			}
			L->args[a] = slot;
		}
	}
	return x;
}

cudaError_t gpu_exec_launch(gpu_exec *x, cudaStream_t s)
{
	if (x->p->stage < 0) return baseline_run(x->p, x->d, s, NULL, 0);
	for (int i = 0; i < x->n; i++) {
		xlaunch *L = &x->L[i];
		cudaError_t e = L->is_memset ? cudaMemsetAsync(L->buf->ptr, L->value, L->buf->bytes, s)
		                             : cudaLaunchKernel((const void *)L->k, L->grid, L->block, L->args, L->shared, s);
		if (e) return e;
	}
	return cudaSuccess;
}

cudaKernel_t gpu_exec_first_kernel(gpu_exec *x, int *threads, size_t *shared)
{
	for (int i = 0; i < x->n; i++) {
		if (x->L[i].is_memset) continue;
		*threads = (int)(x->L[i].block.x * x->L[i].block.y * x->L[i].block.z);
		*shared = x->L[i].shared;
		return x->L[i].k;
	}
	return NULL;
}

void gpu_exec_free(gpu_exec *x)
{
	if (!x) return;
	for (int i = 0; i < x->n; i++) { free(x->L[i].args); free(x->L[i].store); }
	free(x->L);
	free(x);
}
