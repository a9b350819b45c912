/* gpu_exec: one stage's steps made ready: the module loaded (cached by cubin path), kernels looked
 * up, argument arrays built against the worker's buffers (tensor maps encoded on the host, texture
 * objects created), the stage's constants filled, each step bound to its stream. */
#include <stdlib.h>
#include <string.h>
#include <cudaTypedefs.h>   /* CUtensorMap and the driver's function types; libcuda is not linked */
#include "gpu.h"
#include "util.h"

#define MODULE_CACHE 32
static struct { char path[1024]; cudaLibrary_t lib; double used; } modules[MODULE_CACHE];

/* Room for any kernel argument: a pointer, a value, or a CUtensorMap (128 bytes, which the driver
 * wants 64-byte aligned; CUDA 13's header asks for 128). */
typedef struct { _Alignas(128) unsigned char bytes[128]; } arg_slot;
_Static_assert(sizeof(CUtensorMap) <= sizeof(arg_slot) && _Alignof(CUtensorMap) <= _Alignof(arg_slot), "a tensor map fits a slot");

typedef struct {
	lesson_step_kind kind;
	gpu_buffer *buf; int value;     /* STEP_MEMSET; STEP_COPY: buf is the destination */
	gpu_buffer *src;                /* STEP_COPY */
	uint64_t dst_off, src_off, bytes;
	int stream;                     /* the plan's stream: 0 runs on the stream gpu_exec_launch is given */
	cudaKernel_t k;
	dim3 grid, block; size_t shared;
	int pdl;                        /* launched with programmatic stream serialization (plan_launch.pdl) */
	void **args;          /* pointers into store */
	arg_slot *store;      /* one slot per argument */
	int nargs;
	plan *call;           /* STEP_LIBRARY: the plan seen as a baseline of this one step (baseline_run's view) */
	gpu_data *d;          /* STEP_LIBRARY */
	cudaEvent_t *ev;      /* STEP_RECORD, STEP_WAIT: the stage's event, in its gpu_exec */
} xlaunch;

struct gpu_exec {
	const plan *p;
	gpu_data *d;
	xlaunch *L; int n;
	cudaTextureObject_t *tex; int ntex;   /* created for the arguments, destroyed with x */
	cudaEvent_t events[LESSON_MAX_EVENTS];   /* the record: and wait: steps' events, created for them */
};

/* The worker's streams 1..LESSON_MAX_STREAMS-1, created at first use and kept for the process, and
 * an event per stream (joins[0] for the stream gpu_exec_launch is given) that orders them. */
static cudaStream_t streams[LESSON_MAX_STREAMS];
static cudaEvent_t joins[LESSON_MAX_STREAMS];

cudaStream_t gpu_exec_stream(int k)
{
	if (k <= 0 || k >= LESSON_MAX_STREAMS) return 0;
	if (!streams[k] && cudaStreamCreate(&streams[k]) != cudaSuccess) {   /* default flags: blocking */
		cudaGetLastError();
		streams[k] = 0;
	}
	return streams[k];
}

/* Makes stream `to` wait for the work queued so far on stream `from`, whose event is joins[k]. */
static cudaError_t join(cudaStream_t to, cudaStream_t from, int k)
{
	cudaError_t e = cudaSuccess;
	if (!joins[k]) e = cudaEventCreateWithFlags(&joins[k], cudaEventDisableTiming);
	if (!e) e = cudaEventRecord(joins[k], from);
	if (!e) e = cudaStreamWaitEvent(to, joins[k], 0);
	return e;
}

/* The module of the code at path, from the cache when the same path (the code's SHA-256, code_file in
 * gpu_worker.c) was loaded before. A path too long for a slot is refused: cut, two paths could share
 * a name. */
static cudaLibrary_t load_module(const char *path, char *err, size_t errlen)
{
	int free_slot = -1, oldest = 0;
	if (strlen(path) >= sizeof modules[0].path) { strfmt(err, errlen, "the compiled kernel's path is too long: %s", path); return NULL; }
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

/* The device's texture limits, read once. */
static struct cudaDeviceProp tex_props;
static int have_tex_props;

/* The channel format a texture over elements of type t reads: one channel of the type, or for 64-bit
 * types two 32-bit channels (tex1Dfetch<int2>, then __hiloint2double for an f64). */
static struct cudaChannelFormatDesc channel_of(lesson_dtype t)
{
	switch (t) {
	case DT_F32: return cudaCreateChannelDesc(32, 0, 0, 0, cudaChannelFormatKindFloat);
	case DT_F16: return cudaCreateChannelDesc(16, 0, 0, 0, cudaChannelFormatKindFloat);
	case DT_BF16: return cudaCreateChannelDesc(16, 0, 0, 0, cudaChannelFormatKindUnsigned);
	case DT_I32: return cudaCreateChannelDesc(32, 0, 0, 0, cudaChannelFormatKindSigned);
	case DT_U32: return cudaCreateChannelDesc(32, 0, 0, 0, cudaChannelFormatKindUnsigned);
	case DT_I8: return cudaCreateChannelDesc(8, 0, 0, 0, cudaChannelFormatKindSigned);
	case DT_U8: return cudaCreateChannelDesc(8, 0, 0, 0, cudaChannelFormatKindUnsigned);
	case DT_F64: case DT_I64: return cudaCreateChannelDesc(32, 32, 0, 0, cudaChannelFormatKindSigned);
	case DT_U64: return cudaCreateChannelDesc(32, 32, 0, 0, cudaChannelFormatKindUnsigned);
	case DT_COUNT: break;
	}
	return cudaCreateChannelDesc(0, 0, 0, 0, cudaChannelFormatKindNone);
}

/* A texture object for t over buffer b (argument name) into *out, checked against the device's rules
 * first; 0, or -1 with err naming the texture. */
static int make_texture(const plan_texture *t, const char *name, const gpu_buffer *b, cudaTextureObject_t *out, char *err, size_t errlen)
{
	if (!b) { strfmt(err, errlen, "texture %s: no such buffer", name); return -1; }
	if (b->memory != MEM_DEVICE || b->rows) {
		strfmt(err, errlen, "texture %s: the buffer is %s; a texture here reads packed device memory", name, b->rows ? "pitched" : "in host memory");
		return -1;
	}
	if (!have_tex_props) {
		int dev = 0;
		cudaError_t e = cudaGetDevice(&dev);
		if (!e) e = cudaGetDeviceProperties(&tex_props, dev);
		if (e) { strfmt(err, errlen, "texture %s: cannot read the device's texture limits: %s", name, cudaGetErrorString(e)); return -1; }
		have_tex_props = 1;
	}
	size_t es = lesson_dtype_size(t->type);
	struct cudaResourceDesc rd;
	struct cudaTextureDesc td;
	memset(&rd, 0, sizeof rd);
	memset(&td, 0, sizeof td);
	struct cudaChannelFormatDesc ch = channel_of(t->type);
	if (tex_props.textureAlignment && (uintptr_t)b->ptr % tex_props.textureAlignment) {
		strfmt(err, errlen, "texture %s: the buffer's address is not a multiple of the device's texture alignment (%zu bytes)",
		       name, tex_props.textureAlignment);
		return -1;
	}
	if (t->rank == 1) {
		size_t maxw = 0;
		int dev = 0;
		cudaGetDevice(&dev);
		if (cudaDeviceGetTexture1DLinearMaxWidth(&maxw, &ch, dev) != cudaSuccess) {   /* older drivers: the attribute */
			int w = 0;
			cudaGetLastError();
			if (cudaDeviceGetAttribute(&w, cudaDevAttrMaxTexture1DLinearWidth, dev) == cudaSuccess) maxw = (size_t)w;
			cudaGetLastError();
		}
		if (maxw && t->width > maxw) {
			strfmt(err, errlen, "texture %s: %llu elements; a 1D texture over linear memory holds at most %zu on this device",
			       name, (unsigned long long)t->width, maxw);
			return -1;
		}
		rd.resType = cudaResourceTypeLinear;
		rd.res.linear.devPtr = b->ptr;
		rd.res.linear.desc = ch;
		rd.res.linear.sizeInBytes = t->width * es;
	} else {
		if (tex_props.texturePitchAlignment && t->pitch_bytes % tex_props.texturePitchAlignment) {
			strfmt(err, errlen, "texture %s: its pitch (%llu bytes) is not a multiple of the device's texture pitch alignment "
			       "(%zu bytes): pad the rows to a multiple of %zu elements", name, (unsigned long long)t->pitch_bytes,
			       tex_props.texturePitchAlignment, tex_props.texturePitchAlignment / es ? tex_props.texturePitchAlignment / es : 1);
			return -1;
		}
		const int *lim = tex_props.maxTexture2DLinear;
		if ((lim[0] && t->width > (uint64_t)lim[0]) || (lim[1] && t->height > (uint64_t)lim[1]) || (lim[2] && t->pitch_bytes > (uint64_t)lim[2])) {
			strfmt(err, errlen, "texture %s: %llu x %llu elements with a %llu-byte pitch; a 2D texture over pitched memory is at most "
			       "%d x %d with a %d-byte pitch on this device", name, (unsigned long long)t->width, (unsigned long long)t->height,
			       (unsigned long long)t->pitch_bytes, lim[0], lim[1], lim[2]);
			return -1;
		}
		rd.resType = cudaResourceTypePitch2D;
		rd.res.pitch2D.devPtr = b->ptr;
		rd.res.pitch2D.desc = ch;
		rd.res.pitch2D.width = t->width;
		rd.res.pitch2D.height = t->height;
		rd.res.pitch2D.pitchInBytes = t->pitch_bytes;
	}
	static const enum cudaTextureAddressMode modes[] = { [TEX_WRAP] = cudaAddressModeWrap, [TEX_CLAMP] = cudaAddressModeClamp,
	                                                     [TEX_MIRROR] = cudaAddressModeMirror, [TEX_BORDER] = cudaAddressModeBorder };
	td.addressMode[0] = td.addressMode[1] = td.addressMode[2] = modes[t->address <= TEX_BORDER ? t->address : TEX_CLAMP];
	td.filterMode = t->filter == TEX_LINEAR ? cudaFilterModeLinear : cudaFilterModePoint;
	td.readMode = t->read_normalized ? cudaReadModeNormalizedFloat : cudaReadModeElementType;
	td.normalizedCoords = t->normalized_coords;
	cudaError_t e = cudaCreateTextureObject(out, &rd, &td, NULL);
	if (e) {
		cudaGetLastError();
		strfmt(err, errlen, "texture %s: cudaCreateTextureObject refused it: %s", name, cudaGetErrorString(e));
		return -1;
	}
	return 0;
}

/* Fills the plan's constants in lib (before any launch, not timed); 0, or -1 with err. */
static int fill_constants(const plan *p, gpu_data *d, cudaLibrary_t lib, char *err, size_t errlen)
{
	for (int i = 0; i < p->nconstants; i++) {
		const plan_constant *c = &p->constants[i];
		void *ptr = NULL;
		size_t size = 0;
		cudaError_t e = cudaLibraryGetGlobal(&ptr, &size, lib, c->symbol);
		if (e || !ptr) {
			cudaGetLastError();
			strfmt(err, errlen, "constant %s: the kernel has no such variable (declare it extern \"C\" __constant__ at file scope)", c->symbol);
			return -1;
		}
		if (size < c->nbytes) {
			strfmt(err, errlen, "constant %s holds %zu bytes; the lesson fills %llu", c->symbol, size, (unsigned long long)c->nbytes);
			return -1;
		}
		if (c->bytes) {
			e = cudaMemcpy(ptr, c->bytes, c->nbytes, cudaMemcpyHostToDevice);
		} else {
			gpu_buffer *b = c->buffer ? gpu_data_find(d, c->buffer) : NULL;
			if (!b) { strfmt(err, errlen, "constant %s: no buffer %s to fill it from", c->symbol, c->buffer ? c->buffer : "(none)"); return -1; }
			if (b->bytes < c->nbytes) {
				strfmt(err, errlen, "constant %s: buffer %s holds %zu bytes; the lesson fills %llu", c->symbol, b->name, b->bytes,
				       (unsigned long long)c->nbytes);
				return -1;
			}
			e = cudaMemcpy(ptr, b->ptr, c->nbytes, cudaMemcpyDefault);
		}
		if (e) { cudaGetLastError(); strfmt(err, errlen, "constant %s: filling it: %s", c->symbol, cudaGetErrorString(e)); return -1; }
	}
	return 0;
}

/* The buffer a step names, or NULL with err. */
static gpu_buffer *step_buffer(gpu_data *d, const char *name, const char *what, char *err, size_t errlen)
{
	gpu_buffer *b = name ? gpu_data_find(d, name) : NULL;
	if (!b) strfmt(err, errlen, "%s: no buffer %s", what, name ? name : "(none)");
	return b;
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
		L->stream = pl->stream;
		if (pl->stream < 0 || pl->stream >= LESSON_MAX_STREAMS || (pl->stream && !gpu_exec_stream(pl->stream))) {
			strfmt(err, errlen, "step %d: cannot use stream %d (0 to %d)", i + 1, pl->stream, LESSON_MAX_STREAMS - 1);
			gpu_exec_free(x);
			return NULL;
		}
		if (pl->kind == STEP_MEMSET) {
			if (!(L->buf = step_buffer(d, pl->buffer, "memset", err, errlen))) { gpu_exec_free(x); return NULL; }
			if (L->buf->memory != MEM_DEVICE || L->buf->rows) {
				strfmt(err, errlen, "memset of %s: it is a %s buffer; a memset step fills packed device memory", L->buf->name,
				       L->buf->rows ? "pitched" : "host");
				gpu_exec_free(x);
				return NULL;
			}
			L->value = pl->value;
			continue;
		}
		if (pl->kind == STEP_RECORD || pl->kind == STEP_WAIT) {
			cudaError_t e = cudaSuccess;
			if (pl->event < 0 || pl->event >= LESSON_MAX_EVENTS ||
			    (!x->events[pl->event] && (e = cudaEventCreateWithFlags(&x->events[pl->event], cudaEventDisableTiming)))) {
				strfmt(err, errlen, "event %s: %s", pl->entry ? pl->entry : "?", e ? cudaGetErrorString(e) : "not one of the stage's events");
				gpu_exec_free(x);
				return NULL;
			}
			L->ev = &x->events[pl->event];
			continue;
		}
		if (pl->kind == STEP_LIBRARY) {
			/* baseline_run reads the library and its arguments from its plan's first step. */
			L->call = xmalloc(sizeof *L->call);
			*L->call = *p;
			L->call->launches = (plan_launch *)pl;
			L->call->nlaunches = 1;
			L->call->stage = -1;
			L->call->main_launch = -1;   /* a library call: no kernel of its own */
			L->d = d;
			continue;
		}
		if (pl->kind == STEP_COPY) {
			char what[160];
			strfmt(what, sizeof what, "copy %s>%s", pl->src ? pl->src : "?", pl->buffer ? pl->buffer : "?");
			if (!(L->buf = step_buffer(d, pl->buffer, what, err, errlen)) || !(L->src = step_buffer(d, pl->src, what, err, errlen))) {
				gpu_exec_free(x);
				return NULL;
			}
			if (pl->dst_off + pl->bytes > L->buf->bytes || pl->src_off + pl->bytes > L->src->bytes ||
			    pl->dst_off > L->buf->bytes || pl->src_off > L->src->bytes) {   /* the plan checked; the worker does not trust the wire */
				strfmt(err, errlen, "%s: bytes [%llu, +%llu) of %s or [%llu, +%llu) of %s lie outside the buffer", what,
				       (unsigned long long)pl->dst_off, (unsigned long long)pl->bytes, L->buf->name,
				       (unsigned long long)pl->src_off, (unsigned long long)pl->bytes, L->src->name);
				gpu_exec_free(x);
				return NULL;
			}
			if (L->buf->rows || L->src->rows) {   /* the loader refuses it; the wire is not trusted */
				strfmt(err, errlen, "%s: %s is pitched; a copy step moves packed elements", what, L->buf->rows ? L->buf->name : L->src->name);
				gpu_exec_free(x);
				return NULL;
			}
			L->dst_off = pl->dst_off;
			L->src_off = pl->src_off;
			L->bytes = pl->bytes;
			continue;
		}
		cudaError_t e = cudaLibraryGetKernel(&L->k, lib, pl->entry);
		if (e) { strfmt(err, errlen, "kernel %s not found in the compiled code: %s", pl->entry, cudaGetErrorString(e)); gpu_exec_free(x); return NULL; }
		L->grid = d3(pl->grid[0], pl->grid[1], pl->grid[2]);
		L->block = d3(pl->block[0], pl->block[1], pl->block[2]);
		L->shared = pl->shared;
		L->pdl = pl->pdl;
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
			if (pa->kind == ARG_PITCH) {
				gpu_buffer *b = gpu_data_find(d, pa->buffer);
				if (!b || !b->rows) {
					strfmt(err, errlen, "%s: no pitched buffer %s for its pitch argument", pl->entry, pa->buffer ? pa->buffer : "(none)");
					gpu_exec_free(x);
					return NULL;
				}
				long long pitch = (long long)b->pitch;
				memcpy(slot, &pitch, sizeof pitch);
			} else if (pa->kind == ARG_TENSORMAP) {
				gpu_buffer *b = gpu_data_find(d, pa->buffer);
				if (b && b->rows) {
					strfmt(err, errlen, "tensor map %s: the buffer is pitched", pa->buffer);
					gpu_exec_free(x);
					return NULL;
				}
				if (b && b->memory != MEM_DEVICE) {
					strfmt(err, errlen, "tensor map %s: the buffer is in host memory; TMA reads device memory", pa->buffer);
					gpu_exec_free(x);
					return NULL;
				}
				if (encode_tensormap(&pa->tm, pa->buffer, b, slot, err, errlen)) { gpu_exec_free(x); return NULL; }
			} else if (pa->kind == ARG_TEXTURE) {
				cudaTextureObject_t t = 0;
				if (make_texture(&pa->tex, pa->buffer, gpu_data_find(d, pa->buffer), &t, err, errlen)) { gpu_exec_free(x); return NULL; }
				x->tex = xrealloc(x->tex, (size_t)(x->ntex + 1) * sizeof *x->tex);
				x->tex[x->ntex++] = t;
				memcpy(slot, &t, sizeof t);
			} else if (pa->kind == ARG_BUFFER) {
				gpu_buffer *b = gpu_data_find(d, pa->buffer);
				if (!b) { strfmt(err, errlen, "%s: no buffer %s for its arguments", pl->entry, pa->buffer ? pa->buffer : "(none)"); gpu_exec_free(x); return NULL; }
				if (b->memory == MEM_PAGEABLE) {
					strfmt(err, errlen, "%s: argument %s is pageable host memory, which a kernel cannot read; copy it to a device "
					       "buffer first, or make it pinned", pl->entry, b->name);
					gpu_exec_free(x);
					return NULL;
				}
				memcpy(slot, &b->ptr, sizeof(void *));   /* pinned host memory: the kernel reads it over the bus */
			} else {
				memcpy(slot, &pa->v, 8);   /* the union's first bytes hold the value of its type */
			}
			L->args[a] = slot;
		}
	}
	if (fill_constants(p, d, lib, err, errlen)) { gpu_exec_free(x); return NULL; }
	return x;
}

/* pdl: the launch may begin before the kernel before it on s has ended, once every block of that
 * grid has run griddepcontrol.launch_dependents or exited (compute capability 9.0 on; before it the
 * launch waits as usual). What the earlier grid wrote is visible only after griddepcontrol.wait. */
static cudaError_t run_launch(const xlaunch *L, cudaStream_t s)
{
	if (!L->pdl) return cudaLaunchKernel((const void *)L->k, L->grid, L->block, L->args, L->shared, s);
	cudaLaunchAttribute a = { .id = cudaLaunchAttributeProgrammaticStreamSerialization };
	a.val.programmaticStreamSerializationAllowed = 1;
	cudaLaunchConfig_t c = { .gridDim = L->grid, .blockDim = L->block, .dynamicSmemBytes = L->shared, .stream = s, .attrs = &a, .numAttrs = 1 };
	return cudaLaunchKernelExC(&c, (const void *)L->k, L->args);
}

static cudaError_t run_memset(const xlaunch *L, cudaStream_t s)
{
	return cudaMemsetAsync(L->buf->ptr, L->value, L->buf->bytes, s);
}

/* The direction follows from the pointers (unified addressing); pageable host memory makes the copy
 * synchronous with the host, as CUDA does. */
static cudaError_t run_copy(const xlaunch *L, cudaStream_t s)
{
	return cudaMemcpyAsync((char *)L->buf->ptr + L->dst_off, (const char *)L->src->ptr + L->src_off, L->bytes, cudaMemcpyDefault, s);
}

static cudaError_t run_library(const xlaunch *L, cudaStream_t s)
{
	return baseline_run(L->call, L->d, s, NULL, 0);
}

static cudaError_t run_record(const xlaunch *L, cudaStream_t s)
{
	return cudaEventRecord(*L->ev, s);
}

/* The stream waits, on the GPU, for the work before the event's latest record; the host does not. */
static cudaError_t run_wait(const xlaunch *L, cudaStream_t s)
{
	return cudaStreamWaitEvent(s, *L->ev, 0);
}

/* One entry per kind of step (lesson.h). */
static cudaError_t (*const step_fn[STEP_KIND_COUNT])(const xlaunch *, cudaStream_t) = {
	[STEP_LAUNCH] = run_launch,
	[STEP_MEMSET] = run_memset,
	[STEP_COPY] = run_copy,
	[STEP_LIBRARY] = run_library,
	[STEP_RECORD] = run_record,
	[STEP_WAIT] = run_wait,
};

int gpu_exec_nsteps(const gpu_exec *x) { return x->n; }

cudaError_t gpu_exec_step(gpu_exec *x, int i, cudaStream_t s)
{
	return i >= 0 && i < x->n && (unsigned)x->L[i].kind < STEP_KIND_COUNT && step_fn[x->L[i].kind] ? step_fn[x->L[i].kind](&x->L[i], s)
	                                                                                              : cudaErrorInvalidValue;
}

int gpu_exec_step_from_host(const gpu_exec *x, int i)
{
	return i >= 0 && i < x->n && x->L[i].kind == STEP_COPY && x->L[i].src && x->L[i].src->memory != MEM_DEVICE;
}

lesson_step_kind gpu_exec_step_kind(const gpu_exec *x, int i)
{
	return i >= 0 && i < x->n ? x->L[i].kind : STEP_KIND_COUNT;
}

cudaStream_t gpu_exec_step_stream(const gpu_exec *x, int i)
{
	return i >= 0 && i < x->n ? gpu_exec_stream(x->L[i].stream) : 0;
}

cudaKernel_t gpu_exec_step_kernel(const gpu_exec *x, int i)
{
	return i >= 0 && i < x->n && x->L[i].kind == STEP_LAUNCH ? x->L[i].k : NULL;
}

/* The order a lesson's streams promise (lessons/README.md): a step on stream k >= 1 starts after every
 * stream-0 step before it, and a stream-0 step after every step before it on any stream; the launch
 * ends on s after all of them. Kept with events rather than left to the legacy stream's implicit
 * synchronisation, which small copies out of pinned memory did not keep on an H100 (driver 580: a
 * copy of <= 4 KiB on a created stream read the buffer before the stream-0 copy filling it was done,
 * in most of 400 trials; with the event, never): tests/gpu/stream_order.cu. It made
 * tests/fixtures/conv1d's pipeline wrong in its first chunk at small n.
 * joins[0] is recorded on s at the start and right after each stream-0 step, before any later step of
 * another stream is queued: recorded later, on the legacy stream, it would also wait for the other
 * streams' work queued since, and serialise the pipeline (an H200 measured streams/two_streams at
 * 1.01x the serial stage's time that way, instead of 0.71x). */
static cudaError_t mark(cudaStream_t s)
{
	cudaError_t e = cudaSuccess;
	if (!joins[0]) e = cudaEventCreateWithFlags(&joins[0], cudaEventDisableTiming);
	return e ? e : cudaEventRecord(joins[0], s);
}

cudaError_t gpu_exec_launch(gpu_exec *x, cudaStream_t s)
{
	if (x->p->stage < 0) return baseline_run(x->p, x->d, s, NULL, 0);
	int streams_used = 0;
	for (int i = 0; i < x->n; i++) streams_used |= x->L[i].stream != 0;
	if (!streams_used) {   /* every step on s, in order: nothing to join, no event in the timed run */
		cudaError_t e = cudaSuccess;
		for (int i = 0; i < x->n && !e; i++) e = gpu_exec_step(x, i, s);
		return e;
	}
	unsigned waited = 0, busy = 0;   /* bit k: stream k waits for joins[0]'s latest record; has work s has not waited for */
	int marked = 0;                  /* joins[0] recorded on s since its last step */
	cudaError_t e = cudaSuccess;
	for (int i = 0; i < x->n && !e; i++) {
		int k = x->L[i].stream;
		if (k) {
			cudaStream_t sk = gpu_exec_stream(k);
			if (!marked && (e = mark(s))) break;
			marked = 1;
			if (!(waited & 1u << k) && (e = cudaStreamWaitEvent(sk, joins[0], 0))) break;
			waited |= 1u << k;
			busy |= 1u << k;
			e = gpu_exec_step(x, i, sk);
			continue;
		}
		for (int j = 1; j < LESSON_MAX_STREAMS && !e; j++)
			if (busy & 1u << j) e = join(s, gpu_exec_stream(j), j);
		busy = waited = 0;
		if (!e) e = gpu_exec_step(x, i, s);
		if (!e) e = mark(s);   /* at once, before another stream's step is queued */
		marked = 1;
	}
	for (int j = 1; j < LESSON_MAX_STREAMS && !e; j++)
		if (busy & 1u << j) e = join(s, gpu_exec_stream(j), j);
	return e;
}

cudaKernel_t gpu_exec_launch_kernel(gpu_exec *x, int i, int *threads, size_t *shared)
{
	if (i < 0 || i >= x->n || x->L[i].kind != STEP_LAUNCH) return NULL;
	*threads = (int)(x->L[i].block.x * x->L[i].block.y * x->L[i].block.z);
	*shared = x->L[i].shared;
	return x->L[i].k;
}

void gpu_exec_free(gpu_exec *x)
{
	if (!x) return;
	for (int i = 0; i < x->n; i++) { free(x->L[i].args); free(x->L[i].store); free(x->L[i].call); }
	/* A texture may still be read by launches in flight: they finish first. */
	if (x->ntex) cudaDeviceSynchronize();
	for (int i = 0; i < x->ntex; i++) cudaDestroyTextureObject(x->tex[i]);
	for (int i = 0; i < LESSON_MAX_EVENTS; i++) if (x->events[i]) cudaEventDestroy(x->events[i]);   /* released once done */
	free(x->tex);
	free(x->L);
	free(x);
}
