/* gpu_exec: one stage's launches made ready: the module loaded (cached by cubin path), kernels
 * looked up, argument arrays built against the worker's buffers (tensor maps encoded on the host). */
#include <stdlib.h>
#include <string.h>
#include <cudaTypedefs.h>   /* CUtensorMap and the driver's function types; libcuda is not linked */
#include "gpu.h"
#include "util.h"

#define MODULE_CACHE 32
static struct { char path[512]; cudaLibrary_t lib; double used; } modules[MODULE_CACHE];

/* Room for any kernel argument: a pointer, a value, or a CUtensorMap (128 bytes, which the driver
 * wants 64-byte aligned; CUDA 13's header asks for 128). */
typedef struct { _Alignas(128) unsigned char bytes[128]; } arg_slot;
_Static_assert(sizeof(CUtensorMap) <= sizeof(arg_slot) && _Alignof(CUtensorMap) <= _Alignof(arg_slot), "a tensor map fits a slot");

typedef struct {
	lesson_step_kind kind;
	gpu_buffer *buf; int value;     /* STEP_MEMSET */
	cudaKernel_t k;
	dim3 grid, block; size_t shared;
	void **args;          /* pointers into store */
	arg_slot *store;      /* one slot per argument */
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

/* The driver's cuTensorMapEncodeTiled, found through cudart at the first tensor map (the binary
 * starts without a driver, so it cannot link libcuda). */
static PFN_cuTensorMapEncodeTiled_v12000 encode_tiled;
static PFN_cuGetErrorName_v6000 error_name;

static int find_encoder(char *err, size_t errlen)
{
	if (encode_tiled) return 0;
	void *fn = NULL;
	enum cudaDriverEntryPointQueryResult q = cudaDriverEntryPointSymbolNotFound;
	cudaError_t e = cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &fn, 12000, cudaEnableDefault, &q);
	if (e || q != cudaDriverEntryPointSuccess || !fn) {
		strfmt(err, errlen, "cannot build tensor maps: the driver has no cuTensorMapEncodeTiled (%s)",
		       e ? cudaGetErrorString(e) : q == cudaDriverEntryPointVersionNotSufficent ? "it is older than CUDA 12.0" : "symbol not found");
		return -1;
	}
	encode_tiled = (PFN_cuTensorMapEncodeTiled_v12000)fn;
	fn = NULL;
	if (!cudaGetDriverEntryPointByVersion("cuGetErrorName", &fn, 6000, cudaEnableDefault, &q) && q == cudaDriverEntryPointSuccess)
		error_name = (PFN_cuGetErrorName_v6000)fn;
	return 0;
}

/* Encodes t over buffer b into slot: element strides 1, no interleave, the lesson's swizzle, 256-byte
 * L2 promotion; elements outside the tensor read as zero. */
static int encode_tensormap(const plan_tensormap *t, const char *name, const gpu_buffer *b, arg_slot *slot, char *err, size_t errlen)
{
	if (find_encoder(err, errlen)) return -1;
	static const CUtensorMapSwizzle swizzles[] = { CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_SWIZZLE_32B,
	                                                CU_TENSOR_MAP_SWIZZLE_64B, CU_TENSOR_MAP_SWIZZLE_128B };
	int sw = t->swizzle == 128 ? 3 : t->swizzle == 64 ? 2 : t->swizzle == 32 ? 1 : 0;
	cuuint64_t dims[LESSON_TMA_MAX_RANK] = {0}, strides[LESSON_TMA_MAX_RANK] = {0};
	cuuint32_t box[LESSON_TMA_MAX_RANK] = {0}, ones[LESSON_TMA_MAX_RANK] = {0};
	for (int i = 0; i < t->rank; i++) {
		dims[i] = t->dims[i];
		box[i] = t->box[i];
		ones[i] = 1;
		if (i) strides[i - 1] = t->strides[i];   /* the driver takes rank - 1 strides, for dims 1.. */
	}
	CUresult r = encode_tiled((CUtensorMap *)slot, (CUtensorMapDataType)t->data_type, (cuuint32_t)t->rank, b->ptr, dims, strides,
	                          box, ones, CU_TENSOR_MAP_INTERLEAVE_NONE, swizzles[sw], CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
	                          CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
	if (r == CUDA_SUCCESS) return 0;
	const char *rn = NULL;
	if (error_name && error_name(r, &rn) != CUDA_SUCCESS) rn = NULL;
	if (rn) strfmt(err, errlen, "cannot build tensor map for %s: %s", name, rn);
	else strfmt(err, errlen, "cannot build tensor map for %s: CUresult %d", name, (int)r);
	return -1;
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
		L->kind = pl->kind;
		if (pl->kind == STEP_MEMSET) {
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
		L->store = aligned_alloc(_Alignof(arg_slot), ((size_t)pl->nargs + 1) * sizeof(arg_slot));
		if (!L->store) { strfmt(err, errlen, "out of memory for the arguments of %s", pl->entry); gpu_exec_free(x); return NULL; }
		memset(L->store, 0, ((size_t)pl->nargs + 1) * sizeof(arg_slot));
		for (int a = 0; a < pl->nargs; a++) {
			const plan_arg *pa = &pl->args[a];
			arg_slot *slot = &L->store[a];
			if (pa->kind == ARG_TENSORMAP) {
				if (encode_tensormap(&pa->tm, pa->buffer, gpu_data_find(d, pa->buffer), slot, err, errlen)) { gpu_exec_free(x); return NULL; }
			} else if (pa->kind == ARG_BUFFER) {
				gpu_buffer *b = gpu_data_find(d, pa->buffer);
				memcpy(slot, &b->ptr, sizeof(void *));
			} else {
				memcpy(slot, &pa->v, 8);   /* the union's first bytes hold the value of its type */
			}
			L->args[a] = slot;
		}
	}
	return x;
}

static cudaError_t run_launch(const xlaunch *L, cudaStream_t s)
{
	return cudaLaunchKernel((const void *)L->k, L->grid, L->block, L->args, L->shared, s);
}

static cudaError_t run_memset(const xlaunch *L, cudaStream_t s)
{
	return cudaMemsetAsync(L->buf->ptr, L->value, L->buf->bytes, s);
}

/* One entry per kind of step (lesson.h); copies and others join here. */
static cudaError_t (*const step_fn[STEP_KIND_COUNT])(const xlaunch *, cudaStream_t) = {
	[STEP_LAUNCH] = run_launch,
	[STEP_MEMSET] = run_memset,
};

int gpu_exec_nsteps(const gpu_exec *x) { return x->n; }

cudaError_t gpu_exec_step(gpu_exec *x, int i, cudaStream_t s)
{
	return i >= 0 && i < x->n ? step_fn[x->L[i].kind](&x->L[i], s) : cudaErrorInvalidValue;
}

cudaKernel_t gpu_exec_step_kernel(const gpu_exec *x, int i)
{
	return i >= 0 && i < x->n && x->L[i].kind == STEP_LAUNCH ? x->L[i].k : NULL;
}

cudaError_t gpu_exec_launch(gpu_exec *x, cudaStream_t s)
{
	if (x->p->stage < 0) return baseline_run(x->p, x->d, s, NULL, 0);
	for (int i = 0; i < x->n; i++) {
		cudaError_t e = gpu_exec_step(x, i, s);
		if (e) return e;
	}
	return cudaSuccess;
}

cudaKernel_t gpu_exec_first_kernel(gpu_exec *x, int *threads, size_t *shared)
{
	for (int i = 0; i < x->n; i++) {
		if (x->L[i].kind != STEP_LAUNCH) continue;
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
