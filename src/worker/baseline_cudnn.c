/* baseline_cudnn: cuDNN 9 through its legacy C API (convolution, bias add, activation, the fused
 * convolution + bias + activation, a 3x3 convolution, softmax), loaded with dlopen the first time a cuDNN baseline runs.
 * The few types and values used are declared here, so building needs no cuDNN headers; where they
 * are present, the values are checked against them at compile time. */
#include "baseline_cudnn.h"
#include "baseline_pick.h"
#include "gpu.h"
#include "util.h"
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct dnn_context *dnn_handle;
typedef void *dnn_desc;   /* tensor, filter, convolution and activation descriptors: opaque pointers */
typedef int dnn_status;

enum {
	DNN_OK = 0, DNN_NOT_SUPPORTED = 3000,
	DNN_FLOAT = 0, DNN_NCHW = 0, DNN_CROSS_CORRELATION = 1,
	DNN_DEFAULT_MATH = 0, DNN_TENSOR_OP_MATH = 1, DNN_TENSOR_OP_ALLOW_CONVERSION = 2, DNN_FMA_MATH = 3,
	DNN_RELU = 1, DNN_NOT_PROPAGATE_NAN = 0,
	DNN_SOFTMAX_ACCURATE = 1, DNN_SOFTMAX_INSTANCE = 0,
	DNN_NALGO = 8,
};

typedef struct {
	int algo; dnn_status status; float time; size_t memory; int determinism; int math; int reserved[3];
} dnn_algo_perf;

#if defined(__has_include)
#if __has_include(<cudnn.h>)
#include <cudnn.h>
_Static_assert((int)DNN_OK == (int)CUDNN_STATUS_SUCCESS && (int)DNN_NOT_SUPPORTED == (int)CUDNN_STATUS_NOT_SUPPORTED, "cuDNN status");
_Static_assert((int)DNN_FLOAT == (int)CUDNN_DATA_FLOAT && (int)DNN_NCHW == (int)CUDNN_TENSOR_NCHW && (int)DNN_CROSS_CORRELATION == (int)CUDNN_CROSS_CORRELATION,
               "cuDNN tensor values");
_Static_assert((int)DNN_DEFAULT_MATH == (int)CUDNN_DEFAULT_MATH && (int)DNN_TENSOR_OP_MATH == (int)CUDNN_TENSOR_OP_MATH &&
               (int)DNN_TENSOR_OP_ALLOW_CONVERSION == (int)CUDNN_TENSOR_OP_MATH_ALLOW_CONVERSION && (int)DNN_FMA_MATH == (int)CUDNN_FMA_MATH,
               "cuDNN math types");
_Static_assert((int)DNN_RELU == (int)CUDNN_ACTIVATION_RELU && (int)DNN_SOFTMAX_ACCURATE == (int)CUDNN_SOFTMAX_ACCURATE &&
               (int)DNN_SOFTMAX_INSTANCE == (int)CUDNN_SOFTMAX_MODE_INSTANCE && (int)DNN_NALGO == (int)CUDNN_CONVOLUTION_FWD_ALGO_COUNT,
               "cuDNN modes");
_Static_assert(sizeof(dnn_algo_perf) == sizeof(cudnnConvolutionFwdAlgoPerf_t), "cuDNN algorithm record");
#endif
#endif

static const char *const algo_names[DNN_NALGO] = {
	"IMPLICIT_GEMM", "IMPLICIT_PRECOMP_GEMM", "GEMM", "DIRECT", "FFT", "FFT_TILING", "WINOGRAD", "WINOGRAD_NONFUSED",
};

static struct {
	size_t (*version)(void);
	const char *(*error_string)(dnn_status);
	dnn_status (*create)(dnn_handle *);
	dnn_status (*destroy)(dnn_handle);
	dnn_status (*set_stream)(dnn_handle, cudaStream_t);
	dnn_status (*create_tensor)(dnn_desc *), (*destroy_tensor)(dnn_desc);
	dnn_status (*set_tensor)(dnn_desc, int format, int type, int n, int c, int h, int w);
	dnn_status (*create_filter)(dnn_desc *), (*destroy_filter)(dnn_desc);
	dnn_status (*set_filter)(dnn_desc, int type, int format, int k, int c, int h, int w);
	dnn_status (*create_conv)(dnn_desc *), (*destroy_conv)(dnn_desc);
	dnn_status (*set_conv)(dnn_desc, int pad_h, int pad_w, int u, int v, int dil_h, int dil_w, int mode, int type);
	dnn_status (*set_conv_math)(dnn_desc, int math);
	dnn_status (*create_act)(dnn_desc *), (*destroy_act)(dnn_desc);
	dnn_status (*set_act)(dnn_desc, int mode, int nan, double coef);
	dnn_status (*find_fwd)(dnn_handle, dnn_desc x, dnn_desc f, dnn_desc conv, dnn_desc y, int want, int *got, dnn_algo_perf *);
	dnn_status (*fwd_workspace)(dnn_handle, dnn_desc x, dnn_desc f, dnn_desc conv, dnn_desc y, int algo, size_t *bytes);
	dnn_status (*conv_fwd)(dnn_handle, const void *alpha, dnn_desc xd, const void *x, dnn_desc fd, const void *f, dnn_desc conv,
	                       int algo, void *ws, size_t ws_bytes, const void *beta, dnn_desc yd, void *y);
	dnn_status (*add_tensor)(dnn_handle, const void *alpha, dnn_desc ad, const void *a, const void *beta, dnn_desc cd, void *c);
	dnn_status (*act_fwd)(dnn_handle, dnn_desc act, const void *alpha, dnn_desc xd, const void *x, const void *beta, dnn_desc yd,
	                      void *y);
	dnn_status (*conv_bias_act)(dnn_handle, const void *alpha1, dnn_desc xd, const void *x, dnn_desc fd, const void *f,
	                            dnn_desc conv, int algo, void *ws, size_t ws_bytes, const void *alpha2, dnn_desc zd,
	                            const void *z, dnn_desc bd, const void *bias, dnn_desc act, dnn_desc yd, void *y);
	dnn_status (*softmax_fwd)(dnn_handle, int algo, int mode, const void *alpha, dnn_desc xd, const void *x, const void *beta,
	                          dnn_desc yd, void *y);
} fn;

static const struct { const char *name; void **slot; } symbols[] = {
	{ "cudnnGetVersion", (void **)&fn.version }, { "cudnnGetErrorString", (void **)&fn.error_string },
	{ "cudnnCreate", (void **)&fn.create }, { "cudnnDestroy", (void **)&fn.destroy },
	{ "cudnnSetStream", (void **)&fn.set_stream },
	{ "cudnnCreateTensorDescriptor", (void **)&fn.create_tensor }, { "cudnnDestroyTensorDescriptor", (void **)&fn.destroy_tensor },
	{ "cudnnSetTensor4dDescriptor", (void **)&fn.set_tensor },
	{ "cudnnCreateFilterDescriptor", (void **)&fn.create_filter }, { "cudnnDestroyFilterDescriptor", (void **)&fn.destroy_filter },
	{ "cudnnSetFilter4dDescriptor", (void **)&fn.set_filter },
	{ "cudnnCreateConvolutionDescriptor", (void **)&fn.create_conv },
	{ "cudnnDestroyConvolutionDescriptor", (void **)&fn.destroy_conv },
	{ "cudnnSetConvolution2dDescriptor", (void **)&fn.set_conv }, { "cudnnSetConvolutionMathType", (void **)&fn.set_conv_math },
	{ "cudnnCreateActivationDescriptor", (void **)&fn.create_act },
	{ "cudnnDestroyActivationDescriptor", (void **)&fn.destroy_act },
	{ "cudnnSetActivationDescriptor", (void **)&fn.set_act },
	{ "cudnnFindConvolutionForwardAlgorithm", (void **)&fn.find_fwd },
	{ "cudnnGetConvolutionForwardWorkspaceSize", (void **)&fn.fwd_workspace },
	{ "cudnnConvolutionForward", (void **)&fn.conv_fwd }, { "cudnnAddTensor", (void **)&fn.add_tensor },
	{ "cudnnActivationForward", (void **)&fn.act_fwd },
	{ "cudnnConvolutionBiasActivationForward", (void **)&fn.conv_bias_act },
	{ "cudnnSoftmaxForward", (void **)&fn.softmax_fwd },
};

static void *lib;
static int lib_failed;
static dnn_handle handle;


/* Loads libcudnn.so.9 (by name, then from $CUDA_HOME/lib64 and /lib) and its entry points once;
 * 0, or -1 after saying why on stderr (once). */
static int load(void)
{
	if (lib) return 0;
	if (lib_failed) return -1;
	lib_failed = 1;
	static const char *const dirs[] = { "lib64", "lib", NULL };
	char why[512] = "withheld by CUDACLIMB_WITHOUT";
	void *h = baseline_withheld("cudnn") ? NULL : baseline_dlopen("libcudnn.so.9", dirs, why, sizeof why);
	if (!h) {
		fprintf(stderr, "cudaclimb worker: cuDNN not found (%s): the cudnn_* baselines need cuDNN 9 (libcudnn.so.9)\n", why);
		return -1;
	}
	for (size_t i = 0; i < sizeof symbols / sizeof *symbols; i++) {
		*symbols[i].slot = dlsym(h, symbols[i].name);
		if (!*symbols[i].slot) {
			fprintf(stderr, "cudaclimb worker: this cuDNN lacks %s: the cudnn_* baselines need cuDNN 9\n", symbols[i].name);
			dlclose(h);
			return -1;
		}
	}
	size_t v = fn.version();
	if (v < 90000 || v >= 100000) {
		fprintf(stderr, "cudaclimb worker: cuDNN %zu found: the cudnn_* baselines need cuDNN 9\n", v);
		dlclose(h);
		return -1;
	}
	if (baseline_logging()) fprintf(stderr, "cudaclimb worker: cuDNN %zu.%zu.%zu loaded\n", v / 10000, v / 100 % 100, v % 100);
	lib = h;
	lib_failed = 0;
	return 0;
}

/* A cuDNN status as a CUDA error; a failure is also said on stderr, with the call. */
static cudaError_t status(dnn_status st, const char *call)
{
	if (st == DNN_OK) return cudaSuccess;
	fprintf(stderr, "cudaclimb worker: %s: %s\n", call, fn.error_string(st));
	return st == DNN_NOT_SUPPORTED ? cudaErrorNotSupported : cudaErrorUnknown;
}

/* The library loaded, a handle on stream s. */
static cudaError_t ready(cudaStream_t s)
{
	if (load()) return cudaErrorSharedObjectInitFailed;
	cudaError_t e;
	if (!handle && (e = status(fn.create(&handle), "cudnnCreate"))) { handle = NULL; return e; }
	return status(fn.set_stream(handle, s), "cudnnSetStream");
}

cudaError_t cudnn_shared(cudaStream_t s, void **library, void **cudnn)
{
	cudaError_t e = ready(s);
	if (e) return e;
	*library = lib;
	*cudnn = handle;
	return cudaSuccess;
}

/* ---- Choosing an algorithm by timing, once per GPU, cuDNN version and shape ---- */

#define CONV_TIMED 4    /* Find's first few FP32 (FMA) algorithms, timed again here */
#define CONV_TRIALS 7   /* timed calls of each after one untimed: the median counts */

/* One convolution call with algo (the job and descriptors are the caller's, behind ctx). */
typedef dnn_status (*conv_call)(const void *ctx, int algo);

/* For each of the n algorithms: one untimed call, then CONV_TRIALS calls each between two events on
 * stream s (ms[i * CONV_TRIALS + t]; -1 for an algorithm the call refuses). 0, or a CUDA error. */
static cudaError_t time_algos(const int *algos, int n, conv_call call, const void *ctx, cudaStream_t s, const char *what, float *ms)
{
	cudaEvent_t e0, e1;
	cudaError_t e;
	if ((e = cudaEventCreate(&e0))) return e;
	if ((e = cudaEventCreate(&e1))) { cudaEventDestroy(e0); return e; }
	for (int i = 0; i < n && !e; i++) {
		int ok = call(ctx, algos[i]) == DNN_OK;
		for (int t = 0; t < CONV_TRIALS && !e; t++) {
			float v = -1;
			if (ok && !(e = cudaEventRecord(e0, s))) {
				ok = call(ctx, algos[i]) == DNN_OK;
				if (!(e = cudaEventRecord(e1, s)) && !(e = cudaEventSynchronize(e1)) && ok) e = cudaEventElapsedTime(&v, e0, e1);
			}
			ms[i * CONV_TRIALS + t] = ok ? v : -1;
		}
		if (baseline_logging())
			fprintf(stderr, "cudaclimb worker: cuDNN %s with %s: %.4f ms (first of %d trials; -1: refused)\n", what,
			        algo_names[algos[i]], ms[i * CONV_TRIALS], CONV_TRIALS);
	}
	cudaEventDestroy(e0);
	cudaEventDestroy(e1);
	return e;
}

/* The key of a convolution's choice: what, this cuDNN's version, the shape, this GPU. */
static void conv_key(char *key, size_t n, const char *what, const int dims[5])
{
	const long long d[5] = { dims[0], dims[1], dims[2], dims[3], dims[4] };
	const device_info *dev = gpu_device();
	if (baseline_pick_key(key, n, what, (long long)fn.version(), d, 5, dev ? dev->uuid : NULL)) key[0] = 0;
}

/* The algorithm kept for key (a valid index), or -1. */
static int conv_kept(const char *key)
{
	long long v = -1;
	return key[0] && baseline_pick_get(key, &v, NULL, 0) && v >= 0 && v < DNN_NALGO ? (int)v : -1;
}

/* Of the n candidates (Find's order), the fastest by time_algos, kept under key and said in chose
 * (chose_len bytes; what: the call, in words); -1 when the call refuses them all, or a CUDA error in
 * *err. The caller must have made the workspace big enough for every candidate. */
static int conv_choose(const int *cand, int n, conv_call call, const void *ctx, cudaStream_t s, const char *key, const char *what,
                       char *chose, size_t chose_len, cudaError_t *err)
{
	float ms[DNN_NALGO * CONV_TRIALS], best_ms = -1;
	if (n > DNN_NALGO) n = DNN_NALGO;
	if ((*err = time_algos(cand, n, call, ctx, s, what, ms))) return -1;
	int best = baseline_pick_fastest(ms, n, CONV_TRIALS, &best_ms);
	if (best < 0) return -1;
	strfmt(chose, chose_len, "cuDNN %s for the %s, FMA math: the fastest of Find's first %d FP32 algorithms timed on the call (median of %d, %.4f ms)",
	       algo_names[cand[best]], what, n, CONV_TRIALS, best_ms);
	if (key[0]) baseline_pick_put(key, cand[best], chose);
	return cand[best];
}

/* Find's FP32 (FMA) algorithms for descriptors x, f, conv, y, fastest first, into cand (at most
 * DNN_NALGO); their number, or -1 with a CUDA error in *err. */
static int conv_find(dnn_desc xd, dnn_desc fd, dnn_desc cd, dnn_desc yd, int *cand, const char *what, cudaError_t *err)
{
	int got = 0, n = 0;
	dnn_algo_perf all[DNN_NALGO];
	if ((*err = status(fn.find_fwd(handle, xd, fd, cd, yd, DNN_NALGO, &got, all), "cudnnFindConvolutionForwardAlgorithm"))) return -1;
	for (int i = 0; i < got && i < DNN_NALGO; i++) {
		const int ok = all[i].status == DNN_OK && all[i].math != DNN_TENSOR_OP_MATH && all[i].math != DNN_TENSOR_OP_ALLOW_CONVERSION &&
		               all[i].algo >= 0 && all[i].algo < DNN_NALGO;
		if (ok && baseline_logging())
			fprintf(stderr, "cudaclimb worker: cuDNN Find: %s %.4f ms, workspace %zu bytes (%s)\n", algo_names[all[i].algo],
			        all[i].time, all[i].memory, what);
		if (ok) cand[n++] = all[i].algo;
	}
	if (!n) {
		fprintf(stderr, "cudaclimb worker: cuDNN has no FP32 (FMA) algorithm for this %s\n", what);
		*err = cudaErrorNotSupported;
		return -1;
	}
	return n;
}

/* ---- The 1x1 convolution, bias and ReLU (fusion) ---- */

/* The convolution's descriptors and choices, for one shape at a time. */
static struct {
	int n, c, k, h, w;              /* the shape described; n == 0: nothing yet */
	dnn_desc xd, yd, bd, fd, cd, ad;
	int cand[DNN_NALGO], ncand;     /* Find's FP32 algorithms, fastest first; ncand 0: Find not run yet */
	int algo[2];                    /* chosen for the chain [0] and the fused call [1]; -1: not yet */
	char chose[2][192];             /* how */
	void *ws; size_t ws_bytes;      /* one workspace, the largest asked for */
} cv;

static void conv_free(void)
{
	if (cv.xd) fn.destroy_tensor(cv.xd);
	if (cv.yd) fn.destroy_tensor(cv.yd);
	if (cv.bd) fn.destroy_tensor(cv.bd);
	if (cv.fd) fn.destroy_filter(cv.fd);
	if (cv.cd) fn.destroy_conv(cv.cd);
	if (cv.ad) fn.destroy_act(cv.ad);
	cudaFree(cv.ws);
	memset(&cv, 0, sizeof cv);
}

/* Descriptors for j's shape (FP32 with FMA math: tensor-core and TF32 kernels are not allowed). */
static cudaError_t conv_setup(const cudnn_conv_job *j)
{
	if (cv.n == j->n && cv.c == j->c && cv.k == j->k && cv.h == j->h && cv.w == j->w) return cudaSuccess;
	conv_free();
	cudaError_t e;
	if ((e = status(fn.create_tensor(&cv.xd), "cudnnCreateTensorDescriptor")) ||
	    (e = status(fn.create_tensor(&cv.yd), "cudnnCreateTensorDescriptor")) ||
	    (e = status(fn.create_tensor(&cv.bd), "cudnnCreateTensorDescriptor")) ||
	    (e = status(fn.create_filter(&cv.fd), "cudnnCreateFilterDescriptor")) ||
	    (e = status(fn.create_conv(&cv.cd), "cudnnCreateConvolutionDescriptor")) ||
	    (e = status(fn.create_act(&cv.ad), "cudnnCreateActivationDescriptor")) ||
	    (e = status(fn.set_tensor(cv.xd, DNN_NCHW, DNN_FLOAT, j->n, j->c, j->h, j->w), "cudnnSetTensor4dDescriptor x")) ||
	    (e = status(fn.set_tensor(cv.yd, DNN_NCHW, DNN_FLOAT, j->n, j->k, j->h, j->w), "cudnnSetTensor4dDescriptor y")) ||
	    (e = status(fn.set_tensor(cv.bd, DNN_NCHW, DNN_FLOAT, 1, j->k, 1, 1), "cudnnSetTensor4dDescriptor bias")) ||
	    (e = status(fn.set_filter(cv.fd, DNN_FLOAT, DNN_NCHW, j->k, j->c, 1, 1), "cudnnSetFilter4dDescriptor")) ||
	    (e = status(fn.set_conv(cv.cd, 0, 0, 1, 1, 1, 1, DNN_CROSS_CORRELATION, DNN_FLOAT), "cudnnSetConvolution2dDescriptor")) ||
	    (e = status(fn.set_conv_math(cv.cd, DNN_FMA_MATH), "cudnnSetConvolutionMathType")) ||
	    (e = status(fn.set_act(cv.ad, DNN_RELU, DNN_NOT_PROPAGATE_NAN, 0.0), "cudnnSetActivationDescriptor"))) {
		conv_free();
		return e;
	}
	cv.n = j->n, cv.c = j->c, cv.k = j->k, cv.h = j->h, cv.w = j->w;
	cv.algo[0] = cv.algo[1] = -1;
	return cudaSuccess;
}

/* A workspace of at least what algo needs; grows, never shrinks. */
static cudaError_t conv_workspace(int algo, size_t *bytes)
{
	cudaError_t e = status(fn.fwd_workspace(handle, cv.xd, cv.fd, cv.cd, cv.yd, algo, bytes),
	                       "cudnnGetConvolutionForwardWorkspaceSize");
	if (e || *bytes <= cv.ws_bytes) return e;
	cudaFree(cv.ws);
	cv.ws = NULL;
	cv.ws_bytes = 0;
	if ((e = cudaMalloc(&cv.ws, *bytes))) return e;
	cv.ws_bytes = *bytes;
	return cudaSuccess;
}

static dnn_status fused_call(const void *ctx, int algo)
{
	const cudnn_conv_job *j = ctx;
	const float one = 1, zero = 0;
	/* y = ReLU(conv(x) + 0 * z + bias): z must be described, and is y itself (alpha2 = 0). */
	return fn.conv_bias_act(handle, &one, cv.xd, j->x, cv.fd, j->filter, cv.cd, algo, cv.ws, cv.ws_bytes, &zero, cv.yd, j->y,
	                        cv.bd, j->bias, cv.ad, cv.yd, j->y);
}

static dnn_status chain_conv_call(const void *ctx, int algo)
{
	const cudnn_conv_job *j = ctx;
	const float one = 1, zero = 0;
	return fn.conv_fwd(handle, &one, cv.xd, j->x, cv.fd, j->filter, cv.cd, algo, cv.ws, cv.ws_bytes, &zero, cv.yd, j->y);
}

/* The algorithm of the chain's convolution (which 0) or of the fused call (1), chosen once: the one
 * kept for this GPU and shape, else the fastest of Find's first few, each timed on the call itself
 * (Find times the convolution alone, and the fused call ranks them differently). */
static cudaError_t conv_algo(const cudnn_conv_job *j, int which, cudaStream_t s)
{
	if (cv.algo[which] >= 0) return cudaSuccess;
	char key[BASELINE_PICK_KEY_MAX];
	const int dims[5] = { j->n, j->c, j->k, j->h, j->w };
	const char *what = which ? "fused call" : "1x1 convolution (then bias add, then ReLU)";
	conv_key(key, sizeof key, which ? "cudnn_conv_bias_relu_fused" : "cudnn_conv_bias_relu", dims);
	cudaError_t e;
	size_t ws = 0;
	int kept = conv_kept(key);
	if (kept >= 0 && conv_workspace(kept, &ws) == cudaSuccess) {
		cv.algo[which] = kept;
		strfmt(cv.chose[which], sizeof cv.chose[which], "cuDNN %s for the %s, FMA math (kept from an earlier timing on this GPU)",
		       algo_names[kept], what);
	} else {
		if (!cv.ncand && (cv.ncand = conv_find(cv.xd, cv.fd, cv.cd, cv.yd, cv.cand, "1x1 convolution", &e)) < 0) { cv.ncand = 0; return e; }
		/* the fused call refuses some algorithms: all of Find's are tried there, the first few for the chain */
		int n = which || cv.ncand < CONV_TIMED ? cv.ncand : CONV_TIMED;
		for (int i = 0; i < n; i++) if ((e = conv_workspace(cv.cand[i], &ws))) return e;
		cv.algo[which] = conv_choose(cv.cand, n, which ? fused_call : chain_conv_call, j, s, key, what, cv.chose[which],
		                             sizeof cv.chose[which], &e);
		if (e) return e;
		if (cv.algo[which] < 0) {
			fprintf(stderr, "cudaclimb worker: cuDNN's %s accepts none of the %d algorithms Find offered\n", what, n);
			return cudaErrorNotSupported;
		}
	}
	if (baseline_logging())
		fprintf(stderr, "cudaclimb worker: cuDNN 1x1 convolution, bias, ReLU for n=%d c=%d k=%d h=%d w=%d: %s, workspace %zu bytes\n",
		        j->n, j->c, j->k, j->h, j->w,
		        cv.chose[which], cv.ws_bytes);
	return cudaSuccess;
}

cudaError_t cudnn_conv_bias_relu(const cudnn_conv_job *j, int fused, cudaStream_t s)
{
	cudaError_t e;
	if ((e = ready(s)) || (e = conv_setup(j)) || (e = conv_algo(j, fused != 0, s))) return e;
	baseline_choice_set("%s", cv.chose[fused != 0]);
	if (fused) return status(fused_call(j, cv.algo[1]), "cudnnConvolutionBiasActivationForward");
	const float one = 1, zero = 0;
	if ((e = status(chain_conv_call(j, cv.algo[0]), "cudnnConvolutionForward")) ||
	    (e = status(fn.add_tensor(handle, &one, cv.bd, j->bias, &one, cv.yd, j->y), "cudnnAddTensor")))
		return e;
	return status(fn.act_fwd(handle, cv.ad, &one, cv.yd, j->y, &zero, cv.yd, j->y), "cudnnActivationForward");
}

/* ---- The 3x3 convolution (conv2d) ---- */

/* cudnn_conv2d: a 3x3 convolution with padding 1, its own descriptors and choice (apart from the 1x1
 * chain's, so that a lesson of each in one worker does not make either choose again). */
static struct {
	int n, c, k, h, w;              /* the shape described; n == 0: nothing yet */
	dnn_desc xd, yd, fd, cd;
	int algo;
	char chose[192];
	void *ws; size_t ws_bytes;
} c3;

typedef struct { const float *x, *filter; float *y; } conv3_job;

static void conv3_free(void)
{
	if (c3.xd) fn.destroy_tensor(c3.xd);
	if (c3.yd) fn.destroy_tensor(c3.yd);
	if (c3.fd) fn.destroy_filter(c3.fd);
	if (c3.cd) fn.destroy_conv(c3.cd);
	cudaFree(c3.ws);
	memset(&c3, 0, sizeof c3);
}

/* A workspace of at least what algo needs; grows, never shrinks. */
static cudaError_t conv3_workspace(int algo)
{
	size_t bytes = 0;
	cudaError_t e = status(fn.fwd_workspace(handle, c3.xd, c3.fd, c3.cd, c3.yd, algo, &bytes), "cudnnGetConvolutionForwardWorkspaceSize");
	if (e || bytes <= c3.ws_bytes) return e;
	cudaFree(c3.ws);
	c3.ws = NULL;
	c3.ws_bytes = 0;
	if ((e = cudaMalloc(&c3.ws, bytes))) return e;
	c3.ws_bytes = bytes;
	return cudaSuccess;
}

static dnn_status conv3_call(const void *ctx, int algo)
{
	const conv3_job *j = ctx;
	const float one = 1, zero = 0;
	return fn.conv_fwd(handle, &one, c3.xd, j->x, c3.fd, j->filter, c3.cd, algo, c3.ws, c3.ws_bytes, &zero, c3.yd, j->y);
}

/* Descriptors for the shape and its algorithm, once: the one kept for this GPU and shape, else the
 * fastest of Find's first FP32 (FMA math) algorithms timed again on j's buffers, then kept. */
static cudaError_t conv3_setup(const conv3_job *j, int n, int c, int k, int h, int w, cudaStream_t s)
{
	if (c3.n == n && c3.c == c && c3.k == k && c3.h == h && c3.w == w) return cudaSuccess;
	conv3_free();
	cudaError_t e;
	if ((e = status(fn.create_tensor(&c3.xd), "cudnnCreateTensorDescriptor")) ||
	    (e = status(fn.create_tensor(&c3.yd), "cudnnCreateTensorDescriptor")) ||
	    (e = status(fn.create_filter(&c3.fd), "cudnnCreateFilterDescriptor")) ||
	    (e = status(fn.create_conv(&c3.cd), "cudnnCreateConvolutionDescriptor")) ||
	    (e = status(fn.set_tensor(c3.xd, DNN_NCHW, DNN_FLOAT, n, c, h, w), "cudnnSetTensor4dDescriptor x")) ||
	    (e = status(fn.set_tensor(c3.yd, DNN_NCHW, DNN_FLOAT, n, k, h, w), "cudnnSetTensor4dDescriptor y")) ||
	    (e = status(fn.set_filter(c3.fd, DNN_FLOAT, DNN_NCHW, k, c, 3, 3), "cudnnSetFilter4dDescriptor")) ||
	    (e = status(fn.set_conv(c3.cd, 1, 1, 1, 1, 1, 1, DNN_CROSS_CORRELATION, DNN_FLOAT), "cudnnSetConvolution2dDescriptor")) ||
	    (e = status(fn.set_conv_math(c3.cd, DNN_FMA_MATH), "cudnnSetConvolutionMathType"))) {
		conv3_free();
		return e;
	}
	char key[BASELINE_PICK_KEY_MAX];
	const int dims[5] = { n, c, k, h, w };
	conv_key(key, sizeof key, "cudnn_conv2d_3x3", dims);
	int kept = conv_kept(key);
	if (kept >= 0 && conv3_workspace(kept) == cudaSuccess) {
		c3.algo = kept;
		strfmt(c3.chose, sizeof c3.chose, "cuDNN %s for the 3x3 convolution, FMA math (kept from an earlier timing on this GPU)", algo_names[kept]);
	} else {
		int cand[DNN_NALGO], nc = conv_find(c3.xd, c3.fd, c3.cd, c3.yd, cand, "3x3 convolution", &e);
		if (nc < 0) { conv3_free(); return e; }
		if (nc > CONV_TIMED) nc = CONV_TIMED;
		for (int i = 0; i < nc; i++) if ((e = conv3_workspace(cand[i]))) { conv3_free(); return e; }
		c3.algo = conv_choose(cand, nc, conv3_call, j, s, key, "3x3 convolution", c3.chose, sizeof c3.chose, &e);
		if (e || c3.algo < 0) {
			if (!e) fprintf(stderr, "cudaclimb worker: cudnnConvolutionForward accepts none of the %d algorithms Find offered\n", nc);
			conv3_free();
			return e ? e : cudaErrorNotSupported;
		}
	}
	c3.n = n, c3.c = c, c3.k = k, c3.h = h, c3.w = w;
	if (baseline_logging())
		fprintf(stderr, "cudaclimb worker: cuDNN 3x3 convolution, padding 1, for n=%d c=%d k=%d h=%d w=%d: %s, workspace %zu bytes\n", n, c, k,
		        h, w, c3.chose, c3.ws_bytes);
	return cudaSuccess;
}

cudaError_t cudnn_conv2d_3x3(const float *x, const float *filter, float *y, int n, int c, int k, int h, int w, cudaStream_t s)
{
	cudaError_t e;
	const conv3_job j = { x, filter, y };
	if ((e = ready(s)) || (e = conv3_setup(&j, n, c, k, h, w, s))) return e;
	baseline_choice_set("%s", c3.chose);
	return status(conv3_call(&j, c3.algo), "cudnnConvolutionForward");
}

static struct { int rows, cols; dnn_desc d; } sm;

cudaError_t cudnn_softmax_rows(const float *x, float *y, int rows, int cols, cudaStream_t s)
{
	cudaError_t e;
	if ((e = ready(s))) return e;
	if (!sm.d || sm.rows != rows || sm.cols != cols) {
		if (!sm.d && (e = status(fn.create_tensor(&sm.d), "cudnnCreateTensorDescriptor"))) { sm.d = NULL; return e; }
		sm.rows = sm.cols = 0;
		/* rows instances of cols channels, 1 x 1 each: MODE_INSTANCE normalises over each instance. */
		if ((e = status(fn.set_tensor(sm.d, DNN_NCHW, DNN_FLOAT, rows, cols, 1, 1), "cudnnSetTensor4dDescriptor"))) return e;
		sm.rows = rows, sm.cols = cols;
		if (baseline_logging()) fprintf(stderr, "cudaclimb worker: cuDNN softmax of %d rows of %d, ACCURATE, MODE_INSTANCE\n", rows, cols);
	}
	const float one = 1, zero = 0;
	return status(fn.softmax_fwd(handle, DNN_SOFTMAX_ACCURATE, DNN_SOFTMAX_INSTANCE, &one, sm.d, x, &zero, sm.d, y),
	              "cudnnSoftmaxForward");
}

void cudnn_baseline_cleanup(void)
{
	if (!lib) return;
	conv_free();
	conv3_free();
	if (sm.d) fn.destroy_tensor(sm.d);
	memset(&sm, 0, sizeof sm);
	if (handle) fn.destroy(handle);
	handle = NULL;
}
