/* baseline_cudnn: cuDNN 9 through its legacy C API (convolution, bias add, activation, the fused
 * convolution + bias + activation, a 3x3 convolution, softmax), loaded with dlopen the first time a cuDNN baseline runs.
 * The few types and values used are declared here, so building needs no cuDNN headers; where they
 * are present, the values are checked against them at compile time. */
#include "baseline_cudnn.h"
#include "gpu.h"
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

/* The convolution's descriptors and choices, for one shape at a time. */
static struct {
	int n, c, k, h, w;              /* the shape described; n == 0: nothing yet */
	dnn_desc xd, yd, bd, fd, cd, ad;
	dnn_algo_perf found[DNN_NALGO]; /* Find's answer, fastest first */
	int nfound;
	int algo[2];                    /* chosen for the chain [0] and the fused call [1]; -1: not yet */
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

/* Descriptors for j's shape and cuDNN's ranking of its algorithms (measured by Find, FP32 with FMA
 * math: tensor-core and TF32 kernels are not allowed). */
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
	int got = 0;
	dnn_algo_perf all[DNN_NALGO];
	if ((e = status(fn.find_fwd(handle, cv.xd, cv.fd, cv.cd, cv.yd, DNN_NALGO, &got, all), "cudnnFindConvolutionForwardAlgorithm"))) {
		conv_free();
		return e;
	}
	for (int i = 0; i < got && i < DNN_NALGO; i++)
		if (all[i].status == DNN_OK && all[i].math != DNN_TENSOR_OP_MATH && all[i].math != DNN_TENSOR_OP_ALLOW_CONVERSION &&
		    all[i].algo >= 0 && all[i].algo < DNN_NALGO)
			cv.found[cv.nfound++] = all[i];
	if (!cv.nfound) {
		fprintf(stderr, "cudaclimb worker: cuDNN has no FP32 (FMA) algorithm for this convolution\n");
		conv_free();
		return cudaErrorNotSupported;
	}
	if (baseline_logging())
		for (int i = 0; i < cv.nfound; i++)
			fprintf(stderr, "cudaclimb worker: cuDNN Find: %s %.4f ms\n", algo_names[cv.found[i].algo], cv.found[i].time);
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

static dnn_status fused_call(const cudnn_conv_job *j, int algo)
{
	const float one = 1, zero = 0;
	/* y = ReLU(conv(x) + 0 * z + bias): z must be described, and is y itself (alpha2 = 0). */
	return fn.conv_bias_act(handle, &one, cv.xd, j->x, cv.fd, j->filter, cv.cd, algo, cv.ws, cv.ws_bytes, &zero, cv.yd, j->y,
	                        cv.bd, j->bias, cv.ad, cv.yd, j->y);
}

static void log_choice(const char *what, int algo, size_t ws)
{
	if (!baseline_logging()) return;
	float ms = -1;
	for (int i = 0; i < cv.nfound; i++) if (cv.found[i].algo == algo) ms = cv.found[i].time;
	fprintf(stderr, "cudaclimb worker: cuDNN %s for n=%d c=%d k=%d h=%d w=%d: %s (Find timed the convolution alone at %.4f ms), "
	        "FMA math, workspace %zu bytes\n", what, cv.n, cv.c, cv.k, cv.h, cv.w, algo_names[algo], ms, ws);
}

/* The fastest of Find's algorithms for the fused call itself (Find times the convolution alone,
 * and the fused call's speed ranks the algorithms differently): each one that the call accepts is
 * run three times on stream s, timed with events, and the best time counts. Leaves y computed. */
static cudaError_t fused_choose(const cudnn_conv_job *j, cudaStream_t s)
{
	cudaEvent_t e0, e1;
	cudaError_t e;
	if ((e = cudaEventCreate(&e0))) return e;
	if ((e = cudaEventCreate(&e1))) { cudaEventDestroy(e0); return e; }
	float best = -1;
	size_t ws = 0, best_ws = 0;
	for (int i = 0; !e && i < cv.nfound; i++) {
		const int algo = cv.found[i].algo;
		if ((e = conv_workspace(algo, &ws))) break;
		float ms = -1;
		for (int rep = 0; rep < 3; rep++) {
			float t;
			if ((e = cudaEventRecord(e0, s))) break;
			dnn_status st = fused_call(j, algo);
			if (st != DNN_OK) { ms = -1; break; }   /* not for this algorithm: try the next */
			if ((e = cudaEventRecord(e1, s)) || (e = cudaEventSynchronize(e1)) || (e = cudaEventElapsedTime(&t, e0, e1))) break;
			if (ms < 0 || t < ms) ms = t;
		}
		if (e) break;
		if (baseline_logging() && ms >= 0) fprintf(stderr, "cudaclimb worker: cuDNN fused call with %s: %.4f ms\n", algo_names[algo], ms);
		if (ms >= 0 && (best < 0 || ms < best)) best = ms, cv.algo[1] = algo, best_ws = ws;
	}
	cudaEventDestroy(e0);
	cudaEventDestroy(e1);
	if (e) { cv.algo[1] = -1; return e; }
	if (cv.algo[1] < 0) {
		fprintf(stderr, "cudaclimb worker: cudnnConvolutionBiasActivationForward accepts none of the %d algorithms found\n", cv.nfound);
		return cudaErrorNotSupported;
	}
	log_choice("fused convolution + bias + ReLU", cv.algo[1], best_ws);
	return status(fused_call(j, cv.algo[1]), "cudnnConvolutionBiasActivationForward");
}

cudaError_t cudnn_conv_bias_relu(const cudnn_conv_job *j, int fused, cudaStream_t s)
{
	cudaError_t e;
	if ((e = ready(s)) || (e = conv_setup(j))) return e;
	const float one = 1, zero = 0;
	size_t ws = 0;
	if (fused) {
		if (cv.algo[1] >= 0) return status(fused_call(j, cv.algo[1]), "cudnnConvolutionBiasActivationForward");
		return fused_choose(j, s);
	}
	if (cv.algo[0] < 0) {
		if ((e = conv_workspace(cv.found[0].algo, &ws))) return e;
		cv.algo[0] = cv.found[0].algo;
		log_choice("convolution (then bias add, then ReLU)", cv.algo[0], ws);
	}
	if ((e = status(fn.conv_fwd(handle, &one, cv.xd, j->x, cv.fd, j->filter, cv.cd, cv.algo[0], cv.ws, cv.ws_bytes, &zero,
	                            cv.yd, j->y), "cudnnConvolutionForward")) ||
	    (e = status(fn.add_tensor(handle, &one, cv.bd, j->bias, &one, cv.yd, j->y), "cudnnAddTensor")))
		return e;
	return status(fn.act_fwd(handle, cv.ad, &one, cv.yd, j->y, &zero, cv.yd, j->y), "cudnnActivationForward");
}

/* cudnn_conv2d: a 3x3 convolution with padding 1, its own descriptors and choice (apart from the 1x1
 * chain's, so that a lesson of each in one worker does not make either find again). */
static struct {
	int n, c, k, h, w;              /* the shape described; n == 0: nothing yet */
	dnn_desc xd, yd, fd, cd;
	int algo;
	void *ws; size_t ws_bytes;
} c3;

static void conv3_free(void)
{
	if (c3.xd) fn.destroy_tensor(c3.xd);
	if (c3.yd) fn.destroy_tensor(c3.yd);
	if (c3.fd) fn.destroy_filter(c3.fd);
	if (c3.cd) fn.destroy_conv(c3.cd);
	cudaFree(c3.ws);
	memset(&c3, 0, sizeof c3);
}

/* Descriptors for the shape, Find's fastest FP32 (FMA math) algorithm and its workspace, once. */
static cudaError_t conv3_setup(int n, int c, int k, int h, int w)
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
	int got = 0, best = -1;
	dnn_algo_perf all[DNN_NALGO];
	if ((e = status(fn.find_fwd(handle, c3.xd, c3.fd, c3.cd, c3.yd, DNN_NALGO, &got, all), "cudnnFindConvolutionForwardAlgorithm"))) {
		conv3_free();
		return e;
	}
	for (int i = 0; i < got && i < DNN_NALGO; i++) {   /* Find lists the fastest first */
		const int ok = all[i].status == DNN_OK && all[i].math != DNN_TENSOR_OP_MATH &&
		               all[i].math != DNN_TENSOR_OP_ALLOW_CONVERSION && all[i].algo >= 0 && all[i].algo < DNN_NALGO;
		if (ok && baseline_logging())
			fprintf(stderr, "cudaclimb worker: cuDNN Find (3x3): %s %.4f ms, workspace %zu bytes\n", algo_names[all[i].algo],
			        all[i].time, all[i].memory);
		if (ok && best < 0) best = i;
	}
	if (best < 0) {
		fprintf(stderr, "cudaclimb worker: cuDNN has no FP32 (FMA) algorithm for this 3x3 convolution\n");
		conv3_free();
		return cudaErrorNotSupported;
	}
	size_t bytes = 0;
	if ((e = status(fn.fwd_workspace(handle, c3.xd, c3.fd, c3.cd, c3.yd, all[best].algo, &bytes),
	                "cudnnGetConvolutionForwardWorkspaceSize")) ||
	    (bytes && (e = cudaMalloc(&c3.ws, bytes)))) {
		c3.ws = NULL;
		conv3_free();
		return e;
	}
	c3.ws_bytes = bytes;
	c3.algo = all[best].algo;
	c3.n = n, c3.c = c, c3.k = k, c3.h = h, c3.w = w;
	if (baseline_logging())
		fprintf(stderr, "cudaclimb worker: cuDNN 3x3 convolution, padding 1, for n=%d c=%d k=%d h=%d w=%d: %s (Find timed it at "
		        "%.4f ms), FMA math, workspace %zu bytes\n", n, c, k, h, w, algo_names[c3.algo], all[best].time, bytes);
	return cudaSuccess;
}

cudaError_t cudnn_conv2d_3x3(const float *x, const float *filter, float *y, int n, int c, int k, int h, int w, cudaStream_t s)
{
	cudaError_t e;
	if ((e = ready(s)) || (e = conv3_setup(n, c, k, h, w))) return e;
	const float one = 1, zero = 0;
	return status(fn.conv_fwd(handle, &one, c3.xd, x, c3.fd, filter, c3.cd, c3.algo, c3.ws, c3.ws_bytes, &zero, c3.yd, y),
	              "cudnnConvolutionForward");
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
