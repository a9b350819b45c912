/* lesson: loading and validating lessons/<name>.yaml (see lessons/README.md) into immutable structs. */
#ifndef CC_LESSON_H
#define CC_LESSON_H
#include <stddef.h>
#include <stdint.h>
#include "expr.h"
#include "result.h"
#include "stage_timing.h"

/* A position in a lesson file, 1-based. */
typedef struct { int line, col; } lesson_mark;

/* An expression with where it was written (for error messages). */
typedef struct { expr *e; lesson_mark at; } lesson_expr;

typedef enum { DT_F32, DT_F64, DT_F16, DT_BF16, DT_I32, DT_U32, DT_I64, DT_U64, DT_I8, DT_U8, DT_COUNT } lesson_dtype;
/* INIT_CSR_ROWS: a CSR row pointer made from a seed (nnz, cols, skew); INIT_CSR_COLS: the column indices
 * of the lesson's one csr_rows buffer (src/core/csrgen.h). INIT_COPY: another buffer's values (a
 * pitched buffer's rows by cudaMemcpy2D). INIT_CYCLE: element i is the index after i on one cycle
 * through all count indices (a power of two), in an order drawn from the seed (kernels/builtin/cycle.h). */
typedef enum { INIT_NONE, INIT_RANDOM, INIT_CONSTANT, INIT_IOTA, INIT_ZERO, INIT_EXPR, INIT_CSR_ROWS, INIT_CSR_COLS, INIT_COPY, INIT_CYCLE } lesson_init_kind;
/* INIT_CYCLE: count is 2^k with k at most this (its indices are 32-bit; kernels/builtin/cycle.h). */
#define LESSON_CYCLE_MAX_LOG2 32
/* Where a buffer lives: device memory (the default), or host memory for copy steps, pageable (plain
 * malloc) or pinned (cudaMallocHost). */
typedef enum { MEM_DEVICE, MEM_PAGEABLE, MEM_PINNED, MEM_KIND_COUNT } lesson_memory;
/* INIT_EXPR: the values are evaluated on the host, one per element (i: its index); at most this many. */
#define LESSON_INIT_EXPR_MAX 65536

typedef struct {
	char *name, *help;
	lesson_dtype type;            /* DT_I64 unless declared f32/f64 */
	lesson_expr def, min, max;    /* min/max may be NULL expressions */
	lesson_mark at;
} lesson_param;

typedef struct { char *name; lesson_expr value; } lesson_derived;

typedef struct {
	char *name;
	lesson_dtype type;
	lesson_expr count;
	lesson_init_kind init;
	double init_a, init_b;        /* random [a, b] or constant a */
	lesson_expr init_expr;        /* INIT_EXPR: element i's value, an expression over i and the lesson's values */
	lesson_expr init_hot;         /* INIT_RANDOM: the share of elements (0..1) that are lo instead, or NULL */
	lesson_expr init_csr[3];      /* INIT_CSR_ROWS: nnz, cols, skew */
	lesson_memory memory;         /* MEM_DEVICE unless declared host: pageable | pinned */
	int output;
	/* pitch: { rows, cols }: a 2-D device allocation from cudaMallocPitch, rows of cols elements each
	 * starting pitch bytes apart (NULL rows: a packed buffer of count elements; count is then rows * cols) */
	lesson_expr pitch_rows, pitch_cols;
	char *copy_of;                /* INIT_COPY: the packed lesson buffer declared before it whose values it holds */
	lesson_mark at;
} lesson_buffer;

typedef struct {
	char *name;
	int64_t *values; int nvalues; /* the allowed values, ascending (a range is expanded, at most 4096) */
	/* The default: a number (def_expr.e NULL), or an expression over the device values whose value on
	 * a GPU must be among values; plan_tunable_default gives it for a device. */
	int64_t def_num; lesson_expr def_expr;
	lesson_mark at;
} lesson_tunable;

typedef struct { lesson_expr cond; char *message; } lesson_constraint;

/* What an argument is (a zeroed one is a value). The names the lesson format spells them in, the bytes
 * a kernel parameter of each takes, and whether it is a float, are in plan.c's table. */
/* ARG_PITCH: a pitched buffer's pitch in bytes (what cudaMallocPitch returned), passed as a long long. */
typedef enum { ARG_VALUE, ARG_BUFFER, ARG_TENSORMAP, ARG_TEXTURE, ARG_PITCH, ARG_KIND_COUNT } lesson_arg_kind;
/* What a step of a stage is (a zeroed one is a kernel launch); gpu_exec.c runs each kind through its
 * own entry of a table. STEP_RECORD records a named event on the step's stream (cudaEventRecord),
 * STEP_WAIT makes the step's stream wait for its latest record (cudaStreamWaitEvent). */
typedef enum { STEP_LAUNCH, STEP_MEMSET, STEP_COPY, STEP_LIBRARY, STEP_RECORD, STEP_WAIT, STEP_KIND_COUNT } lesson_step_kind;
/* A texture's filter and address modes (cudaFilterMode, cudaTextureAddressMode, in their order). */
typedef enum { TEX_POINT, TEX_LINEAR } lesson_tex_filter;
typedef enum { TEX_WRAP, TEX_CLAMP, TEX_MIRROR, TEX_BORDER } lesson_tex_address;
typedef enum { AT_I32, AT_U32, AT_I64, AT_U64, AT_F32, AT_F64 } lesson_arg_type;
#define LESSON_TMA_MAX_RANK 5
typedef struct {
	lesson_arg_kind kind;
	char *buffer;                 /* ARG_BUFFER, ARG_PITCH; ARG_TENSORMAP: the tensor's buffer */
	lesson_arg_type type;         /* ARG_VALUE */
	lesson_expr value;            /* ARG_VALUE */
	/* ARG_TENSORMAP: a TMA descriptor over the buffer as a dense row-major tensor; dims and box
	 * have rank entries, innermost dimension first (as cuTensorMapEncodeTiled takes them). */
	int rank;
	lesson_expr dims[LESSON_TMA_MAX_RANK], box[LESSON_TMA_MAX_RANK];
	int swizzle;                  /* bytes: 0 (none), 32, 64 or 128 */
	/* ARG_TEXTURE: a texture object over the buffer (buffer above): rank 1 (linear memory, dims[0]
	 * elements) or 2 (pitched rows: dims[0] = width, dims[1] = height, pitch in elements, NULL = width);
	 * passed by value as a cudaTextureObject_t. */
	lesson_expr pitch;
	lesson_tex_filter filter;
	lesson_tex_address address;
	int normalized_coords;        /* coordinates in [0, 1) instead of elements */
	int read_normalized;          /* 8/16-bit integers read as floats in [0, 1] ([-1, 1] signed) */
	lesson_mark at;               /* where the argument is written */
} lesson_arg;

typedef struct lesson_baseline lesson_baseline;
typedef struct lesson_launch lesson_launch;
struct lesson_launch {
	lesson_step_kind kind;        /* a kernel launch, a memset of a buffer, a copy between buffers */
	char *memset_buffer; int memset_value;
	/* STEP_COPY: count elements from src to dst (NULL count: all of src from its offset); offset, in
	 * elements, applies to both, unless dst_offset or src_offset is given. Any two buffers of one type:
	 * host to device, device to host, device to device (a host-to-host copy is refused). */
	char *copy_dst, *copy_src;
	lesson_expr copy_offset, copy_dst_offset, copy_src_offset, copy_count;
	lesson_expr stream;           /* the step's stream, 0..LESSON_MAX_STREAMS-1 (NULL = 0, the default stream) */
	lesson_baseline *call;        /* STEP_LIBRARY: a library run, as a baseline names it (title NULL, the model unused) */
	int event;                    /* STEP_RECORD, STEP_WAIT: the event, an index into the stage's events */
	/* A repeat block (body not NULL; kind and the rest unused): body's steps repeat_count times, in
	 * order, with repeat_var bound to 0, 1, ... in their expressions. Blocks may nest. */
	lesson_launch *body; int nbody;
	char *repeat_var; lesson_expr repeat_count;
	char *entry;                  /* kernel entry; NULL means the stage's entry */
	lesson_expr grid[3], block[3];/* missing dimensions are NULL (= 1) */
	lesson_expr shared;           /* NULL = 0 */
	int pdl;                      /* 1: a programmatic dependent launch (pdl: true): it may start while the
	                               * stage's step before it on its stream runs, as that grid's blocks leave */
	lesson_arg *args; int nargs;
	lesson_mark at;
};
/* Streams a stage may use (stream 0 is CUDA's legacy default stream, which waits for the others). */
#define LESSON_MAX_STREAMS 16
/* Named events a stage's record: and wait: steps may use. */
#define LESSON_MAX_EVENTS 16
/* Steps a stage may expand to, repeat blocks unrolled. */
#define LESSON_MAX_STEPS 1024

/* A stage's __constant__ (or __device__) variable, filled once before the stage's launches (not timed):
 * from an expression per element (i: the element's index) or from the first count elements of a buffer. */
typedef struct {
	char *symbol;                 /* the variable's name in the stage's kernel file (extern "C" or not mangled) */
	lesson_dtype type;            /* the buffer's type when from a buffer */
	lesson_expr count;            /* elements; NULL = 1 (from a buffer: the whole buffer) */
	lesson_expr value;            /* element i's value; NULL when from a buffer */
	char *buffer;                 /* or the buffer it is copied from (device to constant memory) */
	lesson_mark at;
} lesson_constant;

/* One problem size an exercise is checked at: NAME=VALUE settings of the lesson's parameters. */
typedef struct { char **names, **values; int n; lesson_mark at; } lesson_size;

/* Which time an exercise is judged on (judge:): by default the kernels' when the stage copies between
 * host and device (the copies' time would hide the learner's kernel), the whole stage's otherwise. */
typedef enum { JUDGE_AUTO, JUDGE_KERNEL, JUDGE_WHOLE } lesson_judge;

/* A stage's exercise: the learner writes the stage's kernel from a starter file. */
typedef struct {
	lesson_judge judge;           /* judge: kernel | whole; JUDGE_AUTO when not given */
	char *start_path /* resolved, inside kernels/<lesson>/exercises/ */, *start_rel;
	double pass;                  /* the bar: at least this fraction of the stage kernel's speed, same run */
	int has_tolerance, exact;     /* has_tolerance: the check's tolerance is this, not the lesson's */
	double rel_tol, abs_tol, norm_tol;
	char **hints; int nhints;     /* shown one at a time, in order */
	lesson_size *sizes; int nsizes;   /* sizes checked besides the lesson's own; none: derived (tiny, odd) */
	lesson_mark at;
} lesson_exercise;

/* A claim of the stage's text (expect:): a condition over a run's measurements (the names of
 * src/engine/claims.h) that should hold; why, optional, is the sentence it checks; when, optional
 * (when.e NULL: always), a condition over the device (claims_device_names) under which it applies. */
/* when_case >= 0: the claim is judged only in that case of the lesson (when: { case: NAME }): on a
 * run whose settings are the case's (lesson_case.h), and then only where when (if:) holds too. */
typedef struct { lesson_expr cond; char *why; lesson_expr when; int when_case; } lesson_claim;

typedef struct {
	char *id, *title, *kernel_path /* resolved, inside kernels/<lesson>/ */, *kernel_rel, *entry;
	char *explain, *bottleneck;
	lesson_tunable *tunables; int ntunables;
	lesson_constraint *constraints; int nconstraints;
	lesson_buffer *buffers; int nbuffers;   /* scratch */
	lesson_launch *launches; int nlaunches;
	char **events; int nevents;   /* the events its record: steps name, in the order first recorded */
	lesson_constant *constants; int nconstants;   /* constants: */
	/* memory: overrides of where the lesson's host buffers live, for this stage (pageable or pinned) */
	char **memory_buffers; lesson_memory *memory_kinds; int nmemory;
	char **options; int noptions;     /* "-rdc=true" among them: relocatable code, linked with the device runtime */
	int check;                    /* 0 when the stage computes something else (e.g. a copy ceiling) */
	int req_cc; char *req_arch, *req_why;
	lesson_exercise *exercise;    /* NULL when the stage has none */
	lesson_claim *claims; int nclaims;   /* expect: */
	stage_timing timing;          /* timing: how its repetitions are timed (set 0: the tool's method) */
	/* tolerance: this stage's check instead of the lesson's (a ladder of number formats) */
	int has_tolerance, exact; double rel_tol, abs_tol, norm_tol;
	lesson_expr tol_expr[3];      /* rel, abs, norm given as expressions (e NULL: the number above), evaluated when planned */
	char *peak;                   /* peak: this stage's compute peak ("fp64", "fp8_tensor", ...); NULL: the lesson's */
	/* derived: values over the lesson's names and this stage's tunables, evaluated in order after them */
	lesson_derived *derived; int nderived;
	lesson_expr bytes, flops;     /* model: this stage's own work (each NULL: the lesson's) */
	int baseline;                 /* the baseline it is timed against (LESSON_BASELINE numbering): -1 the
	                               * lesson's baseline:, -2 - i its baselines: entry i (a stage's baseline: NAME) */
	lesson_mark at;
} lesson_stage;

struct lesson_baseline {
	char *id;                     /* "baseline", or "baseline.NAME" for a baselines: entry; NULL for a library step */
	char *title, *library;
	char **arg_names; lesson_expr *arg_values; char **arg_strings; int nargs;
	lesson_expr bytes, flops;     /* NULL: the lesson's model */
	int check;
	/* tolerance: this baseline's check instead of the lesson's (a library in another number format) */
	int has_tolerance, exact; double rel_tol, abs_tol, norm_tol;
	lesson_expr tol_expr[3];      /* as a stage's */
	char *peak;                   /* peak: its compute peak ("bf16_tensor", ...); NULL: the lesson's */
};

/* A case (cases:): named settings of the lesson's parameters (and of tunables, for the stages that
 * have them) that a learner switches to (--case NAME, a key in the interface). names[i] = values[i]
 * as --set would take them; each value is a number or an expression of numbers. help: one line or
 * NULL. marks[i]: where names[i] is written. */
typedef struct {
	char *name, *help;
	char **names, **values; lesson_mark *marks; int n;
	lesson_mark at;
} lesson_case;
/* The longest case name, and the most settings a case holds. */
#define LESSON_CASE_NAME_MAX 40
#define LESSON_CASE_SETS_MAX 8

typedef struct {
	char *id, *title, *summary, *path /* the YAML file */, *kernel_dir;
	int order;
	char **read_first; int nread_first;
	lesson_param *params; int nparams;
	lesson_derived *derived; int nderived;
	lesson_buffer *buffers; int nbuffers;
	lesson_expr bytes, flops;
	char *peak;                   /* "fp32", "bf16_tensor", ... */
	char *traffic;                /* "copy", "read": which attainable bandwidth (traffic_parse); NULL copy */
	char *reference;              /* stage id or "baseline" */
	char **compare; int ncompare;
	char **follow; int nfollow;   /* check.follow: tunables of the reference stage that take the checked run's value */
	/* an element passes when |out - ref| <= abs_tol + rel_tol |ref| (exact: equal); with norm_tol > 0
	 * the outputs also need ||out - ref|| / ||ref|| <= norm_tol */
	int exact; double rel_tol, abs_tol, norm_tol;
	lesson_expr tol_expr[3];      /* as a stage's: "1e-8 * n" grows with the problem */
	lesson_baseline *baseline;    /* NULL when none */
	lesson_baseline **baselines; int nbaselines;   /* baselines: the named ones, in the file's order */
	lesson_stage *stages; int nstages;
	lesson_case *cases; int ncases;   /* cases:, in the file's order */
} lesson;

/* Stage numbers name the baselines too: -1 is the lesson's baseline:, LESSON_BASELINE(i) (-2 - i) its
 * baselines: entry i. */
#define LESSON_BASELINE(i) (-2 - (i))
/* The longest NAME of a baselines: entry (its id "baseline.NAME" fits a result's stage field). */
#define LESSON_BASELINE_NAME_MAX 40
/* The baseline numbered b (-1 or LESSON_BASELINE(i)), or NULL when l has none such (or b >= 0). */
const lesson_baseline *lesson_baseline_at(const lesson *l, int b);
/* The number of the baseline stage s (>= 0) is timed against: its own baseline: NAME, else the
 * lesson's (-1); 0 when it has none. */
int lesson_stage_baseline(const lesson *l, int s);
/* The baseline whose id ("baseline", "baseline.NAME", any case) or NAME is name: its number, or 0. */
int lesson_baseline_named(const lesson *l, const char *name);

/* Loads one lesson file; kernels are looked up under kernels_root/<id>/. Returns a new lesson
 * (free with lesson_free), or NULL with "file:line:col: message" in err. */
lesson *lesson_load(const char *path, const char *kernels_root, char *err, size_t errlen);
/* The same from a buffer (name is used in messages; kernel files are not checked when kernels_root is NULL). */
lesson *lesson_load_buffer(const char *name, const char *buf, size_t len, const char *kernels_root,
                           char *err, size_t errlen);
void lesson_free(lesson *l);

/* Whether any run of l has a flops model: the lesson's, or a stage's own. */
int lesson_has_flops(const lesson *l);
/* Finders: index or -1. */
int lesson_stage_index(const lesson *l, const char *id);
/* The compute peak stage s is measured against: its own peak:, else the lesson's model's (NULL: fp32);
 * s < 0 (a baseline, LESSON_BASELINE numbering) gives its own peak:, else the lesson's. Owned by l. */
const char *lesson_stage_peak(const lesson *l, int s);
/* The highest of the lesson's and its stages' compute peaks on device d:
 * the roof a chart of the whole ladder is drawn under. Owned by l. */
const char *lesson_top_peak(const lesson *l, const device_info *d);
const lesson_tunable *lesson_find_tunable(const lesson_stage *s, const char *name);
const lesson_param *lesson_find_param(const lesson *l, const char *name);
const lesson_buffer *lesson_find_buffer(const lesson *l, const lesson_stage *s, const char *name);
/* The i-th library a baseline may call (the loader's list): its name, then the arguments it needs,
 * NULL-terminated; NULL past the end. */
const char *const *lesson_library(int i);

/* The longest name a lesson may give (a lesson or stage id, a parameter, buffer or tunable name). */
#define LESSON_NAME_MAX 64
/* Whether s is an identifier of at most LESSON_NAME_MAX bytes: [A-Za-z_][A-Za-z0-9_]* (lesson, stage,
 * buffer and parameter names). */
int lesson_is_ident(const char *s);
const char *lesson_dtype_name(lesson_dtype t);
size_t lesson_dtype_size(lesson_dtype t);
int lesson_dtype_is_float(lesson_dtype t);

/* A set of lessons loaded from a tree; lessons that fail are listed in errors and left out. */
typedef struct {
	lesson **items; int count;    /* sorted by order, then id */
	char **errors; int nerrors;   /* "file:line:col: message" */
	char *root;                   /* the tree: root/lessons, root/kernels (the first tree loaded) */
	char **notes; int nnotes;     /* what lesson_set_add replaced ("... replaces the shipped lesson ...") */
} lesson_set;
/* Loads root/lessons/<name>.yaml. Returns 0 (even when some lessons failed), -1 when the folder is missing. */
int lesson_set_load(lesson_set *set, const char *root, char *err, size_t errlen);
/* Adds root's lessons (root/lessons/NAME.yaml, root/kernels) to set: a lesson whose id set has already is
 * replaced by root's, and a note says so; root's load errors join set's. Returns 0, or -1 when root
 * has no lessons folder (set unchanged). */
int lesson_set_add(lesson_set *set, const char *root, char *err, size_t errlen);
void lesson_set_free(lesson_set *set);
lesson *lesson_set_find(const lesson_set *set, const char *id);
#endif
