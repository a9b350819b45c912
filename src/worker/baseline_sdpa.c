/* baseline_sdpa: cuDNN 9's scaled-dot-product attention forward through the backend (graph) API.
 * The graph is the one cuDNN's fused flash-attention engines recognise, the lowering cudnn-frontend
 * makes of its SDPA node: a matmul Q.K^T (K transposed by its strides), a pointwise multiply by the
 * scale (a scalar passed by value), the softmax as reduction MAX, SUB, EXP, reduction ADD and DIV
 * (cudnn-frontend also computes the row statistics max + log(sum) into a virtual tensor, which is kept
 * here as it does; a graph without them is tried when no engine takes the first), then a matmul P.V.
 * Every intermediate is virtual and FP32 but P, which is bf16 like V (cuDNN's engines refuse a P V
 * whose operands differ in type; cudnn-frontend sets P to the inputs' type for the same reason).
 * cuDNN itself is loaded by baseline_cudnn.c; the few backend types and values used are declared
 * here and checked against <cudnn.h> where it is present. */
#include "baseline_sdpa.h"
#include <dlfcn.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "baseline_cudnn.h"
#include "baseline_pick.h"
#include "gpu.h"
#include "util.h"

typedef void *bk_desc;   /* cudnnBackendDescriptor_t */
typedef int dnn_status;

enum {
	ST_OK = 0, ST_NOT_SUPPORTED = 3000,
	/* descriptor types */
	D_POINTWISE = 0, D_ENGINE = 2, D_ENGINECFG = 3, D_ENGINEHEUR = 4, D_EXECUTION_PLAN = 5, D_KNOB_CHOICE = 7,
	D_OP_POINTWISE = 13, D_OPERATIONGRAPH = 15, D_VARIANT_PACK = 16, D_TENSOR = 17, D_MATMUL = 18,
	D_OP_MATMUL = 19, D_REDUCTION = 21, D_OP_REDUCTION = 22,
	/* attribute value types */
	T_HANDLE = 0, T_DATA_TYPE = 1, T_BOOLEAN = 2, T_INT64 = 3, T_FLOAT = 4, T_VOID_PTR = 6, T_HEUR_MODE = 8,
	T_KNOB_TYPE = 9, T_POINTWISE_MODE = 14, T_BACKEND_DESCRIPTOR = 15, T_REDUCTION_OPERATOR = 18,
	/* attributes */
	A_POINTWISE_MODE = 0, A_POINTWISE_MATH_PREC = 1,
	A_ENGINEHEUR_MODE = 200, A_ENGINEHEUR_OPERATION_GRAPH = 201, A_ENGINEHEUR_RESULTS = 202,
	A_ENGINECFG_ENGINE = 300, A_ENGINECFG_KNOB_CHOICES = 302,
	A_EXECUTION_PLAN_HANDLE = 400, A_EXECUTION_PLAN_ENGINE_CONFIG = 401, A_EXECUTION_PLAN_WORKSPACE_SIZE = 402,
	A_KNOB_CHOICE_KNOB_TYPE = 600, A_KNOB_CHOICE_KNOB_VALUE = 601,
	A_OP_POINTWISE_PW_DESCRIPTOR = 750, A_OP_POINTWISE_XDESC = 751, A_OP_POINTWISE_BDESC = 752,
	A_OP_POINTWISE_YDESC = 753, A_OP_POINTWISE_ALPHA1 = 754, A_OP_POINTWISE_ALPHA2 = 755,
	A_OPERATIONGRAPH_HANDLE = 800, A_OPERATIONGRAPH_OPS = 801,
	A_TENSOR_BYTE_ALIGNMENT = 900, A_TENSOR_DATA_TYPE = 901, A_TENSOR_DIMENSIONS = 902, A_TENSOR_STRIDES = 903,
	A_TENSOR_UNIQUE_ID = 906, A_TENSOR_IS_VIRTUAL = 907, A_TENSOR_IS_BY_VALUE = 908,
	A_VARIANT_PACK_UNIQUE_IDS = 1000, A_VARIANT_PACK_DATA_POINTERS = 1001, A_VARIANT_PACK_WORKSPACE = 1003,
	A_ENGINE_GLOBAL_INDEX = 1301,
	A_MATMUL_COMP_TYPE = 1500,
	A_OP_MATMUL_ADESC = 1520, A_OP_MATMUL_BDESC = 1521, A_OP_MATMUL_CDESC = 1522, A_OP_MATMUL_DESC = 1523,
	A_REDUCTION_OPERATOR = 1600, A_REDUCTION_COMP_TYPE = 1601,
	A_OP_REDUCTION_XDESC = 1610, A_OP_REDUCTION_YDESC = 1611, A_OP_REDUCTION_DESC = 1612,
	/* values */
	DATA_FLOAT = 0, DATA_BF16 = 9,
	PW_ADD = 0, PW_MUL = 1, PW_DIV = 6, PW_SUB = 9, PW_EXP = 13, PW_LOG = 15,
	RED_ADD = 0, RED_MAX = 3,
	HEUR_MODE_A = 3,
};

#if defined(__has_include)
#if __has_include(<cudnn.h>)
#include <cudnn.h>
#define SAME(a, b) ((int)(a) == (int)(b))
_Static_assert(SAME(ST_OK, CUDNN_STATUS_SUCCESS) && SAME(ST_NOT_SUPPORTED, CUDNN_STATUS_NOT_SUPPORTED), "cuDNN status");
_Static_assert(SAME(D_POINTWISE, CUDNN_BACKEND_POINTWISE_DESCRIPTOR) && SAME(D_ENGINE, CUDNN_BACKEND_ENGINE_DESCRIPTOR) &&
               SAME(D_ENGINECFG, CUDNN_BACKEND_ENGINECFG_DESCRIPTOR) && SAME(D_ENGINEHEUR, CUDNN_BACKEND_ENGINEHEUR_DESCRIPTOR) &&
               SAME(D_EXECUTION_PLAN, CUDNN_BACKEND_EXECUTION_PLAN_DESCRIPTOR) &&
               SAME(D_KNOB_CHOICE, CUDNN_BACKEND_KNOB_CHOICE_DESCRIPTOR) &&
               SAME(D_OP_POINTWISE, CUDNN_BACKEND_OPERATION_POINTWISE_DESCRIPTOR) &&
               SAME(D_OPERATIONGRAPH, CUDNN_BACKEND_OPERATIONGRAPH_DESCRIPTOR) &&
               SAME(D_VARIANT_PACK, CUDNN_BACKEND_VARIANT_PACK_DESCRIPTOR) && SAME(D_TENSOR, CUDNN_BACKEND_TENSOR_DESCRIPTOR) &&
               SAME(D_MATMUL, CUDNN_BACKEND_MATMUL_DESCRIPTOR) && SAME(D_OP_MATMUL, CUDNN_BACKEND_OPERATION_MATMUL_DESCRIPTOR) &&
               SAME(D_REDUCTION, CUDNN_BACKEND_REDUCTION_DESCRIPTOR) &&
               SAME(D_OP_REDUCTION, CUDNN_BACKEND_OPERATION_REDUCTION_DESCRIPTOR), "cuDNN descriptor types");
_Static_assert(SAME(T_HANDLE, CUDNN_TYPE_HANDLE) && SAME(T_DATA_TYPE, CUDNN_TYPE_DATA_TYPE) && SAME(T_BOOLEAN, CUDNN_TYPE_BOOLEAN) &&
               SAME(T_INT64, CUDNN_TYPE_INT64) && SAME(T_FLOAT, CUDNN_TYPE_FLOAT) && SAME(T_VOID_PTR, CUDNN_TYPE_VOID_PTR) &&
               SAME(T_HEUR_MODE, CUDNN_TYPE_HEUR_MODE) && SAME(T_KNOB_TYPE, CUDNN_TYPE_KNOB_TYPE) &&
               SAME(T_POINTWISE_MODE, CUDNN_TYPE_POINTWISE_MODE) && SAME(T_BACKEND_DESCRIPTOR, CUDNN_TYPE_BACKEND_DESCRIPTOR) &&
               SAME(T_REDUCTION_OPERATOR, CUDNN_TYPE_REDUCTION_OPERATOR_TYPE), "cuDNN attribute types");
_Static_assert(SAME(A_POINTWISE_MODE, CUDNN_ATTR_POINTWISE_MODE) && SAME(A_POINTWISE_MATH_PREC, CUDNN_ATTR_POINTWISE_MATH_PREC) &&
               SAME(A_ENGINEHEUR_MODE, CUDNN_ATTR_ENGINEHEUR_MODE) &&
               SAME(A_ENGINEHEUR_OPERATION_GRAPH, CUDNN_ATTR_ENGINEHEUR_OPERATION_GRAPH) &&
               SAME(A_ENGINEHEUR_RESULTS, CUDNN_ATTR_ENGINEHEUR_RESULTS) && SAME(A_ENGINECFG_ENGINE, CUDNN_ATTR_ENGINECFG_ENGINE) &&
               SAME(A_ENGINECFG_KNOB_CHOICES, CUDNN_ATTR_ENGINECFG_KNOB_CHOICES) &&
               SAME(A_EXECUTION_PLAN_HANDLE, CUDNN_ATTR_EXECUTION_PLAN_HANDLE) &&
               SAME(A_EXECUTION_PLAN_ENGINE_CONFIG, CUDNN_ATTR_EXECUTION_PLAN_ENGINE_CONFIG) &&
               SAME(A_EXECUTION_PLAN_WORKSPACE_SIZE, CUDNN_ATTR_EXECUTION_PLAN_WORKSPACE_SIZE) &&
               SAME(A_KNOB_CHOICE_KNOB_TYPE, CUDNN_ATTR_KNOB_CHOICE_KNOB_TYPE) &&
               SAME(A_KNOB_CHOICE_KNOB_VALUE, CUDNN_ATTR_KNOB_CHOICE_KNOB_VALUE), "cuDNN attributes (engines, plans)");
_Static_assert(SAME(A_OP_POINTWISE_PW_DESCRIPTOR, CUDNN_ATTR_OPERATION_POINTWISE_PW_DESCRIPTOR) &&
               SAME(A_OP_POINTWISE_XDESC, CUDNN_ATTR_OPERATION_POINTWISE_XDESC) &&
               SAME(A_OP_POINTWISE_BDESC, CUDNN_ATTR_OPERATION_POINTWISE_BDESC) &&
               SAME(A_OP_POINTWISE_YDESC, CUDNN_ATTR_OPERATION_POINTWISE_YDESC) &&
               SAME(A_OP_POINTWISE_ALPHA1, CUDNN_ATTR_OPERATION_POINTWISE_ALPHA1) &&
               SAME(A_OP_POINTWISE_ALPHA2, CUDNN_ATTR_OPERATION_POINTWISE_ALPHA2) &&
               SAME(A_OPERATIONGRAPH_HANDLE, CUDNN_ATTR_OPERATIONGRAPH_HANDLE) &&
               SAME(A_OPERATIONGRAPH_OPS, CUDNN_ATTR_OPERATIONGRAPH_OPS), "cuDNN attributes (pointwise, graph)");
_Static_assert(SAME(A_TENSOR_BYTE_ALIGNMENT, CUDNN_ATTR_TENSOR_BYTE_ALIGNMENT) && SAME(A_TENSOR_DATA_TYPE, CUDNN_ATTR_TENSOR_DATA_TYPE) &&
               SAME(A_TENSOR_DIMENSIONS, CUDNN_ATTR_TENSOR_DIMENSIONS) && SAME(A_TENSOR_STRIDES, CUDNN_ATTR_TENSOR_STRIDES) &&
               SAME(A_TENSOR_UNIQUE_ID, CUDNN_ATTR_TENSOR_UNIQUE_ID) && SAME(A_TENSOR_IS_VIRTUAL, CUDNN_ATTR_TENSOR_IS_VIRTUAL) &&
               SAME(A_TENSOR_IS_BY_VALUE, CUDNN_ATTR_TENSOR_IS_BY_VALUE) &&
               SAME(A_VARIANT_PACK_UNIQUE_IDS, CUDNN_ATTR_VARIANT_PACK_UNIQUE_IDS) &&
               SAME(A_VARIANT_PACK_DATA_POINTERS, CUDNN_ATTR_VARIANT_PACK_DATA_POINTERS) &&
               SAME(A_VARIANT_PACK_WORKSPACE, CUDNN_ATTR_VARIANT_PACK_WORKSPACE) &&
               SAME(A_ENGINE_GLOBAL_INDEX, CUDNN_ATTR_ENGINE_GLOBAL_INDEX), "cuDNN attributes (tensors, variant pack)");
_Static_assert(SAME(A_MATMUL_COMP_TYPE, CUDNN_ATTR_MATMUL_COMP_TYPE) && SAME(A_OP_MATMUL_ADESC, CUDNN_ATTR_OPERATION_MATMUL_ADESC) &&
               SAME(A_OP_MATMUL_BDESC, CUDNN_ATTR_OPERATION_MATMUL_BDESC) && SAME(A_OP_MATMUL_CDESC, CUDNN_ATTR_OPERATION_MATMUL_CDESC) &&
               SAME(A_OP_MATMUL_DESC, CUDNN_ATTR_OPERATION_MATMUL_DESC) && SAME(A_REDUCTION_OPERATOR, CUDNN_ATTR_REDUCTION_OPERATOR) &&
               SAME(A_REDUCTION_COMP_TYPE, CUDNN_ATTR_REDUCTION_COMP_TYPE) &&
               SAME(A_OP_REDUCTION_XDESC, CUDNN_ATTR_OPERATION_REDUCTION_XDESC) &&
               SAME(A_OP_REDUCTION_YDESC, CUDNN_ATTR_OPERATION_REDUCTION_YDESC) &&
               SAME(A_OP_REDUCTION_DESC, CUDNN_ATTR_OPERATION_REDUCTION_DESC), "cuDNN attributes (matmul, reduction)");
_Static_assert(SAME(DATA_FLOAT, CUDNN_DATA_FLOAT) && SAME(DATA_BF16, CUDNN_DATA_BFLOAT16) && SAME(PW_ADD, CUDNN_POINTWISE_ADD) &&
               SAME(PW_MUL, CUDNN_POINTWISE_MUL) && SAME(PW_DIV, CUDNN_POINTWISE_DIV) && SAME(PW_SUB, CUDNN_POINTWISE_SUB) &&
               SAME(PW_EXP, CUDNN_POINTWISE_EXP) && SAME(PW_LOG, CUDNN_POINTWISE_LOG) && SAME(RED_ADD, CUDNN_REDUCE_TENSOR_ADD) &&
               SAME(RED_MAX, CUDNN_REDUCE_TENSOR_MAX) && SAME(HEUR_MODE_A, CUDNN_HEUR_MODE_A), "cuDNN values");
#undef SAME
#endif
#endif

static struct {
	dnn_status (*create)(int type, bk_desc *);
	dnn_status (*destroy)(bk_desc);
	dnn_status (*set)(bk_desc, int name, int type, int64_t count, const void *values);
	dnn_status (*get)(bk_desc, int name, int type, int64_t requested, int64_t *count, void *values);
	dnn_status (*finalize)(bk_desc);
	dnn_status (*execute)(void *handle, bk_desc plan, bk_desc pack);
	const char *(*error_string)(dnn_status);
	void (*last_error)(char *message, size_t max);   /* optional: cuDNN's last message */
	size_t (*version)(void);                         /* optional: the key of a kept choice */
} bk;

static const struct { const char *name; void **slot; } symbols[] = {
	{ "cudnnBackendCreateDescriptor", (void **)&bk.create }, { "cudnnBackendDestroyDescriptor", (void **)&bk.destroy },
	{ "cudnnBackendSetAttribute", (void **)&bk.set }, { "cudnnBackendGetAttribute", (void **)&bk.get },
	{ "cudnnBackendFinalize", (void **)&bk.finalize }, { "cudnnBackendExecute", (void **)&bk.execute },
	{ "cudnnGetErrorString", (void **)&bk.error_string },
};


/* Finds the backend entry points in lib once; 0, or -1 after saying why on stderr (once). */
static int load(void *lib)
{
	static void *loaded;
	static int failed;
	if (loaded == lib) return 0;
	if (failed) return -1;
	for (size_t i = 0; i < sizeof symbols / sizeof *symbols; i++) {
		*symbols[i].slot = dlsym(lib, symbols[i].name);
		if (!*symbols[i].slot) {
			fprintf(stderr, "cudaclimb worker: this cuDNN lacks %s: cudnn_sdpa needs cuDNN 9's backend API\n", symbols[i].name);
			failed = 1;
			return -1;
		}
	}
	*(void **)&bk.last_error = dlsym(lib, "cudnnGetLastErrorString");
	*(void **)&bk.version = dlsym(lib, "cudnnGetVersion");
	loaded = lib;
	return 0;
}

/* cuDNN's last error message, printable ASCII only (it reaches a terminal), or "" when it has none. */
static const char *last_message(void)
{
	static char msg[1024];
	msg[0] = 0;
	if (bk.last_error) bk.last_error(msg, sizeof msg);
	msg[sizeof msg - 1] = 0;
	for (char *c = msg; *c; c++) if (*c < 0x20 || *c > 0x7e) *c = ' ';
	return msg;
}

/* The descriptors of one graph, destroyed together (in reverse order of creation). */
#define MAX_DESCS 160
typedef struct {
	bk_desc d[MAX_DESCS];
	int n;
	dnn_status st;      /* the first failure; later calls do nothing */
	const char *what;   /* what failed */
	char msg[1024];     /* cuDNN's message then */
} build;

static void fail(build *b, dnn_status st, const char *what)
{
	if (b->st || st == ST_OK) return;
	b->st = st;
	b->what = what;
	snprintf(b->msg, sizeof b->msg, "%s", last_message());
}

static bk_desc create(build *b, int type, const char *what)
{
	bk_desc d = NULL;
	if (b->st) return NULL;
	if (b->n == MAX_DESCS) { fail(b, ST_NOT_SUPPORTED, "too many descriptors"); return NULL; }
	dnn_status st = bk.create(type, &d);
	if (st) { fail(b, st, what); return NULL; }
	return b->d[b->n++] = d;
}

static void set(build *b, bk_desc d, int name, int type, int64_t count, const void *values, const char *what)
{
	if (!b->st) fail(b, bk.set(d, name, type, count, values), what);
}

static void finalize(build *b, bk_desc d, const char *what)
{
	if (!b->st) fail(b, bk.finalize(d), what);
}

static void build_free(build *b)
{
	while (b->n > 0) bk.destroy(b->d[--b->n]);
	b->st = ST_OK;
	b->what = NULL;
}

/* A 4-D tensor: uid, type, dims, strides; virtual ones are the graph's intermediates, by-value ones
 * scalars passed from the host in the variant pack. */
static bk_desc tensor(build *b, int64_t uid, int type, const int64_t dims[4], const int64_t strides[4], bool is_virtual,
                      bool by_value)
{
	const int64_t align = 16;
	bk_desc t = create(b, D_TENSOR, "cudnnBackendCreateDescriptor(TENSOR)");
	set(b, t, A_TENSOR_DATA_TYPE, T_DATA_TYPE, 1, &type, "tensor data type");
	set(b, t, A_TENSOR_DIMENSIONS, T_INT64, 4, dims, "tensor dimensions");
	set(b, t, A_TENSOR_STRIDES, T_INT64, 4, strides, "tensor strides");
	set(b, t, A_TENSOR_UNIQUE_ID, T_INT64, 1, &uid, "tensor unique id");
	set(b, t, A_TENSOR_BYTE_ALIGNMENT, T_INT64, 1, &align, "tensor alignment");
	set(b, t, A_TENSOR_IS_VIRTUAL, T_BOOLEAN, 1, &is_virtual, "tensor is_virtual");
	set(b, t, A_TENSOR_IS_BY_VALUE, T_BOOLEAN, 1, &by_value, "tensor is_by_value");
	finalize(b, t, "cudnnBackendFinalize(TENSOR)");
	return t;
}

static bk_desc matmul(build *b, bk_desc a, bk_desc bb, bk_desc c)
{
	const int comp = DATA_FLOAT;
	bk_desc m = create(b, D_MATMUL, "cudnnBackendCreateDescriptor(MATMUL)");
	set(b, m, A_MATMUL_COMP_TYPE, T_DATA_TYPE, 1, &comp, "matmul compute type");
	finalize(b, m, "cudnnBackendFinalize(MATMUL)");
	bk_desc op = create(b, D_OP_MATMUL, "cudnnBackendCreateDescriptor(OPERATION_MATMUL)");
	set(b, op, A_OP_MATMUL_ADESC, T_BACKEND_DESCRIPTOR, 1, &a, "matmul A");
	set(b, op, A_OP_MATMUL_BDESC, T_BACKEND_DESCRIPTOR, 1, &bb, "matmul B");
	set(b, op, A_OP_MATMUL_CDESC, T_BACKEND_DESCRIPTOR, 1, &c, "matmul C");
	set(b, op, A_OP_MATMUL_DESC, T_BACKEND_DESCRIPTOR, 1, &m, "matmul descriptor");
	finalize(b, op, "cudnnBackendFinalize(OPERATION_MATMUL)");
	return op;
}

/* y = x (mode) in2, or y = mode(x) when in2 is NULL; FP32 math. */
static bk_desc pointwise(build *b, int mode, bk_desc x, bk_desc in2, bk_desc y)
{
	const int prec = DATA_FLOAT;
	const float one = 1;
	bk_desc pw = create(b, D_POINTWISE, "cudnnBackendCreateDescriptor(POINTWISE)");
	set(b, pw, A_POINTWISE_MODE, T_POINTWISE_MODE, 1, &mode, "pointwise mode");
	set(b, pw, A_POINTWISE_MATH_PREC, T_DATA_TYPE, 1, &prec, "pointwise precision");
	finalize(b, pw, "cudnnBackendFinalize(POINTWISE)");
	bk_desc op = create(b, D_OP_POINTWISE, "cudnnBackendCreateDescriptor(OPERATION_POINTWISE)");
	set(b, op, A_OP_POINTWISE_PW_DESCRIPTOR, T_BACKEND_DESCRIPTOR, 1, &pw, "pointwise descriptor");
	set(b, op, A_OP_POINTWISE_XDESC, T_BACKEND_DESCRIPTOR, 1, &x, "pointwise X");
	if (in2) set(b, op, A_OP_POINTWISE_BDESC, T_BACKEND_DESCRIPTOR, 1, &in2, "pointwise B");
	set(b, op, A_OP_POINTWISE_YDESC, T_BACKEND_DESCRIPTOR, 1, &y, "pointwise Y");
	set(b, op, A_OP_POINTWISE_ALPHA1, T_FLOAT, 1, &one, "pointwise alpha1");
	set(b, op, A_OP_POINTWISE_ALPHA2, T_FLOAT, 1, &one, "pointwise alpha2");
	finalize(b, op, "cudnnBackendFinalize(OPERATION_POINTWISE)");
	return op;
}

/* y = the reduction (mode) of x over the dimensions where y is 1; FP32. */
static bk_desc reduction(build *b, int mode, bk_desc x, bk_desc y)
{
	const int comp = DATA_FLOAT;
	bk_desc r = create(b, D_REDUCTION, "cudnnBackendCreateDescriptor(REDUCTION)");
	set(b, r, A_REDUCTION_COMP_TYPE, T_DATA_TYPE, 1, &comp, "reduction compute type");
	set(b, r, A_REDUCTION_OPERATOR, T_REDUCTION_OPERATOR, 1, &mode, "reduction operator");
	finalize(b, r, "cudnnBackendFinalize(REDUCTION)");
	bk_desc op = create(b, D_OP_REDUCTION, "cudnnBackendCreateDescriptor(OPERATION_REDUCTION)");
	set(b, op, A_OP_REDUCTION_DESC, T_BACKEND_DESCRIPTOR, 1, &r, "reduction descriptor");
	set(b, op, A_OP_REDUCTION_XDESC, T_BACKEND_DESCRIPTOR, 1, &x, "reduction X");
	set(b, op, A_OP_REDUCTION_YDESC, T_BACKEND_DESCRIPTOR, 1, &y, "reduction Y");
	finalize(b, op, "cudnnBackendFinalize(OPERATION_REDUCTION)");
	return op;
}

enum { UID_Q = 1, UID_K, UID_V, UID_O, UID_SCALE };

/* The attention graph for j's shape, finalized: its operation-graph descriptor, or NULL with b->st. */
static bk_desc sdpa_graph(build *b, const cudnn_sdpa_job *j, void *handle, bool stats)
{
	const int64_t B = j->batch, H = j->heads, S = j->seq, D = j->dim;
	const int64_t qd[4] = { B, H, S, D }, qs[4] = { H * S * D, S * D, D, 1 };
	const int64_t kd[4] = { B, H, D, S }, ks[4] = { H * S * D, S * D, 1, D };   /* K^T: K's data, dims and strides swapped */
	const int64_t sd[4] = { B, H, S, S }, ss[4] = { H * S * S, S * S, S, 1 };   /* scores, probabilities */
	const int64_t rd[4] = { B, H, S, 1 }, rs[4] = { H * S, S, 1, 1 };           /* one value per row */
	const int64_t one[4] = { 1, 1, 1, 1 };
	int64_t uid = 100;
	bk_desc q = tensor(b, UID_Q, DATA_BF16, qd, qs, false, false), k = tensor(b, UID_K, DATA_BF16, kd, ks, false, false),
	        v = tensor(b, UID_V, DATA_BF16, qd, qs, false, false), o = tensor(b, UID_O, DATA_BF16, qd, qs, false, false),
	        scale = tensor(b, UID_SCALE, DATA_FLOAT, one, one, false, true);
	bk_desc s1 = tensor(b, uid++, DATA_FLOAT, sd, ss, true, false), s2 = tensor(b, uid++, DATA_FLOAT, sd, ss, true, false),
	        mx = tensor(b, uid++, DATA_FLOAT, rd, rs, true, false), sub = tensor(b, uid++, DATA_FLOAT, sd, ss, true, false),
	        ex = tensor(b, uid++, DATA_FLOAT, sd, ss, true, false), sum = tensor(b, uid++, DATA_FLOAT, rd, rs, true, false),
	        p = tensor(b, uid++, DATA_BF16, sd, ss, true, false);   /* the engines take P V with P in the inputs' type */
	bk_desc ops[10];
	int n = 0;
	ops[n++] = matmul(b, q, k, s1);                       /* S = Q K^T */
	ops[n++] = pointwise(b, PW_MUL, s1, scale, s2);       /* S * scale */
	ops[n++] = reduction(b, RED_MAX, s2, mx);             /* m = the row's max */
	ops[n++] = pointwise(b, PW_SUB, s2, mx, sub);         /* S - m */
	ops[n++] = pointwise(b, PW_EXP, sub, NULL, ex);       /* e = exp(S - m) */
	ops[n++] = reduction(b, RED_ADD, ex, sum);            /* l = the row's sum of e */
	if (stats) {                                          /* max + log(sum), into a virtual tensor */
		bk_desc lg = tensor(b, uid++, DATA_FLOAT, rd, rs, true, false), st = tensor(b, uid++, DATA_FLOAT, rd, rs, true, false);
		ops[n++] = pointwise(b, PW_LOG, sum, NULL, lg);
		ops[n++] = pointwise(b, PW_ADD, mx, lg, st);
	}
	ops[n++] = pointwise(b, PW_DIV, ex, sum, p);          /* P = e / l */
	ops[n++] = matmul(b, p, v, o);                        /* O = P V */
	bk_desc g = create(b, D_OPERATIONGRAPH, "cudnnBackendCreateDescriptor(OPERATIONGRAPH)");
	set(b, g, A_OPERATIONGRAPH_HANDLE, T_HANDLE, 1, &handle, "operation graph handle");
	set(b, g, A_OPERATIONGRAPH_OPS, T_BACKEND_DESCRIPTOR, n, ops, "operation graph operations");
	finalize(b, g, "cudnnBackendFinalize(OPERATIONGRAPH)");
	return b->st ? NULL : g;
}

#define SDPA_TIMED 4    /* engine configurations that finalize, timed once per GPU and shape */
#define SDPA_TRIALS 5   /* timed executions of each after one untimed: the median counts */
#define SDPA_BUDGET_MS 3000   /* no further candidate is finalized once finalizing took this long (an engine
                               * compiled at run time takes seconds, and the run's watchdog is 10 s by default) */

/* The plan for one shape, and what it was made with. */
static struct {
	int batch, heads, seq, dim;   /* batch == 0: none */
	void *handle;
	build b;                      /* every descriptor of the graph and plans */
	bk_desc plan, pack;
	bk_desc cand[SDPA_TIMED];     /* plans still to be timed (ncand > 1), the chosen one among them */
	int64_t cand_index[SDPA_TIMED];
	char cand_tag[SDPA_TIMED][96];
	int ncand, cand_of, stats;    /* cand_of: how many configurations the heuristics offered */
	char key[BASELINE_PICK_KEY_MAX];
	char chose[CUDNN_SDPA_CHOICE_MAX];
	const void *pq, *pk, *pv;     /* what the variant pack points at */
	void *po;
	void *ws;
	int64_t ws_bytes;
} sd;

static float scale_value;         /* the by-value scale: the variant pack holds its address */

void cudnn_sdpa_cleanup(void)
{
	if (bk.destroy) {
		if (sd.pack) bk.destroy(sd.pack);
		build_free(&sd.b);
	}
	cudaFree(sd.ws);
	memset(&sd, 0, sizeof sd);
}

/* "eng<index> k<knob>=<value> ...": the engine a configuration names, as cudnn-frontend tags plans. */
static void engine_tag(bk_desc cfg, char *out, size_t n)
{
	bk_desc eng = NULL, knobs[64] = { 0 };
	int64_t idx = -1, got = 0, count = 0;
	size_t len = 0;
	out[0] = 0;
	if (bk.create(D_ENGINE, &eng) == ST_OK && bk.get(cfg, A_ENGINECFG_ENGINE, T_BACKEND_DESCRIPTOR, 1, &got, &eng) == ST_OK &&
	    bk.get(eng, A_ENGINE_GLOBAL_INDEX, T_INT64, 1, &got, &idx) == ST_OK)
		len += (size_t)snprintf(out, n, "eng%lld", (long long)idx);
	if (eng) bk.destroy(eng);
	int made = 0;
	while (made < 64 && bk.create(D_KNOB_CHOICE, &knobs[made]) == ST_OK) made++;
	if (made == 64 && bk.get(cfg, A_ENGINECFG_KNOB_CHOICES, T_BACKEND_DESCRIPTOR, 64, &count, knobs) == ST_OK)
		for (int64_t i = 0; i < count && i < 64 && len < n; i++) {
			int type = -1;
			int64_t value = 0;
			if (bk.get(knobs[i], A_KNOB_CHOICE_KNOB_TYPE, T_KNOB_TYPE, 1, &got, &type) == ST_OK &&
			    bk.get(knobs[i], A_KNOB_CHOICE_KNOB_VALUE, T_INT64, 1, &got, &value) == ST_OK)
				len += (size_t)snprintf(out + len, n - len, " k%d=%lld", type, (long long)value);
		}
	for (int i = 0; i < made; i++) bk.destroy(knobs[i]);
	if (!out[0]) snprintf(out, n, "(engine not reported)");
}

/* Graph, heuristics (mode A) and plans into sd.b: the first SDPA_TIMED configurations that finalize
 * into a plan (fewer once finalizing took SDPA_BUDGET_MS; only configuration want when want >= 0) into sd.cand, their number into sd.ncand
 * (0, with *why set in cuDNN's words and the descriptors freed, when none does). */
static void plans_for(const cudnn_sdpa_job *j, void *handle, bool stats, int64_t want, int *tried, char *why, size_t whylen)
{
	build *b = &sd.b;
	*tried = 0;
	sd.ncand = 0;
	bk_desc g = sdpa_graph(b, j, handle, stats);
	const int mode = HEUR_MODE_A;
	bk_desc h = create(b, D_ENGINEHEUR, "cudnnBackendCreateDescriptor(ENGINEHEUR)");
	set(b, h, A_ENGINEHEUR_OPERATION_GRAPH, T_BACKEND_DESCRIPTOR, 1, &g, "heuristics graph");
	set(b, h, A_ENGINEHEUR_MODE, T_HEUR_MODE, 1, &mode, "heuristics mode");
	finalize(b, h, "cudnnBackendFinalize(ENGINEHEUR)");
	int64_t count = 0;
	if (!b->st) fail(b, bk.get(h, A_ENGINEHEUR_RESULTS, T_BACKEND_DESCRIPTOR, 0, &count, NULL), "heuristics result count");
	if (count > 16) count = 16;
	bk_desc cfgs[16];
	for (int64_t i = 0; i < count; i++) cfgs[i] = create(b, D_ENGINECFG, "cudnnBackendCreateDescriptor(ENGINECFG)");
	int64_t got = 0;
	if (!b->st && count > 0) fail(b, bk.get(h, A_ENGINEHEUR_RESULTS, T_BACKEND_DESCRIPTOR, count, &got, cfgs), "heuristics results");
	if (b->st) {
		snprintf(why, whylen, "%s failed: %s%s%s", b->what, bk.error_string(b->st), b->msg[0] ? ": " : "", b->msg);
		build_free(b);
		return;
	}
	if (got == 0) snprintf(why, whylen, "the heuristics offered no engine configuration%s%s", last_message()[0] ? ": " : "",
	                       last_message());
	else if (want >= got) snprintf(why, whylen, "the heuristics offered %lld configurations, not the %lld-th kept", (long long)got,
	                               (long long)want + 1);
	const double t0 = now_ms();
	for (int64_t i = want >= 0 ? want : 0; i < got && i < count && sd.ncand < SDPA_TIMED; i++) {
		if (sd.ncand && now_ms() - t0 > SDPA_BUDGET_MS) break;
		bk_desc ep = create(b, D_EXECUTION_PLAN, "cudnnBackendCreateDescriptor(EXECUTION_PLAN)");
		set(b, ep, A_EXECUTION_PLAN_HANDLE, T_HANDLE, 1, &handle, "plan handle");
		set(b, ep, A_EXECUTION_PLAN_ENGINE_CONFIG, T_BACKEND_DESCRIPTOR, 1, &cfgs[i], "plan engine configuration");
		finalize(b, ep, "cudnnBackendFinalize(EXECUTION_PLAN)");
		++*tried;
		if (!b->st) {
			sd.cand[sd.ncand] = ep;
			sd.cand_index[sd.ncand] = i;
			engine_tag(cfgs[i], sd.cand_tag[sd.ncand], sizeof sd.cand_tag[sd.ncand]);
			sd.ncand++;
		} else {
			snprintf(why, whylen, "configuration %lld of %lld: %s: %s%s%s", (long long)i + 1, (long long)got, b->what,
			         bk.error_string(b->st), b->msg[0] ? ": " : "", b->msg);
			if (b->n > 0 && b->d[b->n - 1] == ep) bk.destroy(b->d[--b->n]);   /* this plan only; keep the rest */
			b->st = ST_OK;
		}
		if (want >= 0) break;
	}
	sd.cand_of = (int)got;
	sd.stats = stats;
	if (!sd.ncand) build_free(b);
}

/* The candidate plans for j's shape, the largest workspace any of them needs: the configuration kept
 * for this GPU, cuDNN version and shape when there is one, else the first few that finalize (the
 * graph with the row statistics first, without them when no engine takes it). */
static cudaError_t plans(const cudnn_sdpa_job *j, void *handle)
{
	char why[2][1400] = { "", "" };
	int tried[2] = { 0, 0 };
	long long kept = -1;
	const size_t version = bk.version ? bk.version() : 0;
	const long long dims[4] = { j->batch, j->heads, j->seq, j->dim };
	const device_info *dev = gpu_device();
	if (baseline_pick_key(sd.key, sizeof sd.key, "cudnn_sdpa", (long long)version, dims, 4, dev ? dev->uuid : NULL)) sd.key[0] = 0;
	if (sd.key[0] && baseline_pick_get(sd.key, &kept, NULL, 0) && kept >= 0 && kept % 1000 < 16) {
		plans_for(j, handle, kept / 1000 != 0, kept % 1000, &tried[0], why[0], sizeof why[0]);
		if (sd.ncand == 1) {
			strfmt(sd.chose, sizeof sd.chose, "cuDNN SDPA %s, heuristics A configuration %lld of %d, %s row statistics (kept "
			       "from an earlier timing on this GPU)", sd.cand_tag[0], (long long)sd.cand_index[0] + 1, sd.cand_of,
			       sd.stats ? "with" : "without");
			sd.plan = sd.cand[0];
			sd.ncand = 0;
		}
	}
	if (!sd.plan) {
		/* with the row statistics first (a virtual tensor: nothing is written): on an H200 with cuDNN
		 * 9.19 the graph without them found no engine, and the one with them was chosen */
		plans_for(j, handle, true, -1, &tried[0], why[0], sizeof why[0]);
		if (!sd.ncand) plans_for(j, handle, false, -1, &tried[1], why[1], sizeof why[1]);
		if (!sd.ncand) {
			fprintf(stderr, "cudaclimb worker: cuDNN SDPA: no engine of this cuDNN runs the attention graph for batch=%d heads=%d "
			        "seq=%d dim=%d (bf16, FP32 softmax). With the row statistics (%d configurations tried): %s. Without "
			        "them (%d tried): %s\n", j->batch, j->heads, j->seq, j->dim, tried[0], why[0], tried[1], why[1]);
			return cudaErrorNotSupported;
		}
		sd.plan = sd.cand[0];   /* until choose() times them, when there are several */
		strfmt(sd.chose, sizeof sd.chose, "cuDNN SDPA %s, heuristics A configuration %lld of %d (%s), %s row statistics",
		       sd.cand_tag[0], (long long)sd.cand_index[0] + 1, sd.cand_of, sd.ncand == 1 ? "the only one that finalized" : "not timed yet",
		       sd.stats ? "with" : "without");
		if (sd.ncand == 1) {   /* kept too, so that a later worker need not finalize the others to find it */
			if (sd.key[0]) baseline_pick_put(sd.key, (sd.stats ? 1000 : 0) + sd.cand_index[0], sd.chose);
			sd.ncand = 0;
		}
	}
	int64_t most = 0;
	for (int i = 0; i < (sd.ncand ? sd.ncand : 1); i++) {
		int64_t got = 0, bytes = 0;
		dnn_status st = bk.get(sd.ncand ? sd.cand[i] : sd.plan, A_EXECUTION_PLAN_WORKSPACE_SIZE, T_INT64, 1, &got, &bytes);
		if (st || bytes < 0) {
			fprintf(stderr, "cudaclimb worker: cuDNN SDPA: the plan's workspace size: %s %s\n", bk.error_string(st), last_message());
			return cudaErrorUnknown;
		}
		if (bytes > most) most = bytes;
	}
	cudaError_t e;
	if (most > 0 && (e = cudaMalloc(&sd.ws, (size_t)most))) return e;
	if (baseline_logging()) fprintf(stderr, "cudaclimb worker: cuDNN SDPA workspace %lld bytes\n", (long long)most);
	sd.ws_bytes = most;
	return cudaSuccess;
}

/* Times each candidate plan with the variant pack on stream s (one untimed execution, then
 * SDPA_TRIALS between events), keeps the fastest as sd.plan and under sd.key. 0, or an error. */
static cudaError_t choose(void *handle, cudaStream_t s)
{
	float ms[SDPA_TIMED * SDPA_TRIALS], best_ms = -1;
	cudaEvent_t e0, e1;
	cudaError_t e;
	if ((e = cudaEventCreate(&e0))) return e;
	if ((e = cudaEventCreate(&e1))) { cudaEventDestroy(e0); return e; }
	for (int i = 0; i < sd.ncand && !e; i++) {
		int ok = bk.execute(handle, sd.cand[i], sd.pack) == ST_OK;
		for (int t = 0; t < SDPA_TRIALS && !e; t++) {
			float v = -1;
			if (ok && !(e = cudaEventRecord(e0, s))) {
				ok = bk.execute(handle, sd.cand[i], sd.pack) == ST_OK;
				if (!(e = cudaEventRecord(e1, s)) && !(e = cudaEventSynchronize(e1)) && ok) e = cudaEventElapsedTime(&v, e0, e1);
			}
			ms[i * SDPA_TRIALS + t] = ok ? v : -1;
		}
		if (baseline_logging())
			fprintf(stderr, "cudaclimb worker: cuDNN SDPA %s (configuration %lld): %.4f ms (first of %d trials; -1: failed)\n",
			        sd.cand_tag[i], (long long)sd.cand_index[i] + 1, ms[i * SDPA_TRIALS], SDPA_TRIALS);
	}
	cudaEventDestroy(e0);
	cudaEventDestroy(e1);
	if (e) return e;
	int best = baseline_pick_fastest(ms, sd.ncand, SDPA_TRIALS, &best_ms);
	if (best < 0) {   /* none ran: the first, whose failure the call then says */
		best = 0;
		strfmt(sd.chose, sizeof sd.chose, "cuDNN SDPA %s, heuristics A configuration %lld of %d: none of the %d that finalized "
		       "executed when timed", sd.cand_tag[0], (long long)sd.cand_index[0] + 1, sd.cand_of, sd.ncand);
	} else {
		strfmt(sd.chose, sizeof sd.chose, "cuDNN SDPA %s, heuristics A configuration %lld of %d, %s row statistics: the fastest "
		       "of the first %d that finalize (median of %d, %.4f ms)", sd.cand_tag[best], (long long)sd.cand_index[best] + 1,
		       sd.cand_of, sd.stats ? "with" : "without", sd.ncand, SDPA_TRIALS, best_ms);
		if (sd.key[0]) baseline_pick_put(sd.key, (sd.stats ? 1000 : 0) + sd.cand_index[best], sd.chose);
	}
	sd.plan = sd.cand[best];
	sd.ncand = 0;
	return cudaSuccess;
}

/* The plan, its workspace and the variant pack for j, built when the shape, handle or buffers changed;
 * the plan chosen by timing at the first call for a shape (on stream s). */
static cudaError_t prepare(const cudnn_sdpa_job *j, void *handle, cudaStream_t s)
{
	if (sd.batch != j->batch || sd.heads != j->heads || sd.seq != j->seq || sd.dim != j->dim || sd.handle != handle) {
		cudnn_sdpa_cleanup();
		cudaError_t e = plans(j, handle);
		if (e) { cudnn_sdpa_cleanup(); return e; }
		sd.batch = j->batch, sd.heads = j->heads, sd.seq = j->seq, sd.dim = j->dim;
		sd.handle = handle;
	}
	if (!sd.pack || sd.pq != j->q || sd.pk != j->k || sd.pv != j->v || sd.po != j->o) {
		if (sd.pack) bk.destroy(sd.pack);
		sd.pack = NULL;
		scale_value = (float)(1.0 / sqrt((double)j->dim));
		const int64_t uids[5] = { UID_Q, UID_K, UID_V, UID_O, UID_SCALE };
		void *ptrs[5] = { (void *)j->q, (void *)j->k, (void *)j->v, j->o, &scale_value };
		bk_desc pack = NULL;
		dnn_status st = bk.create(D_VARIANT_PACK, &pack);
		const char *what = "cudnnBackendCreateDescriptor(VARIANT_PACK)";
		if (!st) st = bk.set(pack, A_VARIANT_PACK_UNIQUE_IDS, T_INT64, 5, uids), what = "variant pack ids";
		if (!st) st = bk.set(pack, A_VARIANT_PACK_DATA_POINTERS, T_VOID_PTR, 5, ptrs), what = "variant pack pointers";
		if (!st) st = bk.set(pack, A_VARIANT_PACK_WORKSPACE, T_VOID_PTR, 1, &sd.ws), what = "variant pack workspace";
		if (!st) st = bk.finalize(pack), what = "cudnnBackendFinalize(VARIANT_PACK)";
		if (st) {
			fprintf(stderr, "cudaclimb worker: cuDNN SDPA: %s: %s %s\n", what, bk.error_string(st), last_message());
			if (pack) bk.destroy(pack);
			return st == ST_NOT_SUPPORTED ? cudaErrorNotSupported : cudaErrorUnknown;
		}
		sd.pack = pack;
		sd.pq = j->q, sd.pk = j->k, sd.pv = j->v, sd.po = j->o;
	}
	if (sd.ncand > 1) return choose(handle, s);
	return cudaSuccess;
}

cudaError_t cudnn_sdpa(const cudnn_sdpa_job *j, cudaStream_t s)
{
	if (!j || !j->q || !j->k || !j->v || !j->o || j->batch < 1 || j->heads < 1 || j->seq < 1 || j->dim < 1)
		return cudaErrorInvalidValue;
	void *lib = NULL, *handle = NULL;
	cudaError_t e = cudnn_shared(s, &lib, &handle);
	if (e) return e;
	if (load(lib)) return cudaErrorSharedObjectInitFailed;
	if ((e = prepare(j, handle, s))) return e;
	baseline_choice_set("%s", sd.chose);
	dnn_status st = bk.execute(handle, sd.plan, sd.pack);
	if (st == ST_OK) return cudaSuccess;
	fprintf(stderr, "cudaclimb worker: cudnnBackendExecute (SDPA): %s %s\n", bk.error_string(st), last_message());
	return st == ST_NOT_SUPPORTED ? cudaErrorNotSupported : cudaErrorUnknown;
}
