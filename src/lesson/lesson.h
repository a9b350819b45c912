/* lesson: loading and validating lessons/<name>.yaml (see lessons/README.md) into immutable structs. */
#ifndef CC_LESSON_H
#define CC_LESSON_H
#include <stddef.h>
#include <stdint.h>
#include "expr.h"

/* A position in a lesson file, 1-based. */
typedef struct { int line, col; } lesson_mark;

/* An expression with where it was written (for error messages). */
typedef struct { expr *e; lesson_mark at; } lesson_expr;

typedef enum { DT_F32, DT_F64, DT_F16, DT_BF16, DT_I32, DT_U32, DT_I64, DT_U64, DT_I8, DT_U8, DT_COUNT } lesson_dtype;
typedef enum { INIT_NONE, INIT_RANDOM, INIT_CONSTANT, INIT_IOTA, INIT_ZERO } lesson_init_kind;

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
	int output;
	lesson_mark at;
} lesson_buffer;

typedef struct {
	char *name;
	int64_t *values; int nvalues; /* the allowed values, ascending (a range is expanded, at most 4096) */
	int64_t def;
	lesson_mark at;
} lesson_tunable;

typedef struct { lesson_expr cond; char *message; } lesson_constraint;

/* What an argument is (a zeroed one is a value). The names the lesson format spells them in, the bytes
 * a kernel parameter of each takes, and whether it is a float, are in plan.c's table. */
typedef enum { ARG_VALUE, ARG_BUFFER, ARG_TENSORMAP, ARG_KIND_COUNT } lesson_arg_kind;
/* What a step of a stage is (a zeroed one is a kernel launch); gpu_exec.c runs each kind through its
 * own entry of a table. */
typedef enum { STEP_LAUNCH, STEP_MEMSET, STEP_KIND_COUNT } lesson_step_kind;
typedef enum { AT_I32, AT_U32, AT_I64, AT_U64, AT_F32, AT_F64 } lesson_arg_type;
#define LESSON_TMA_MAX_RANK 5
typedef struct {
	lesson_arg_kind kind;
	char *buffer;                 /* ARG_BUFFER; ARG_TENSORMAP: the tensor's buffer */
	lesson_arg_type type;         /* ARG_VALUE */
	lesson_expr value;            /* ARG_VALUE */
	/* ARG_TENSORMAP: a TMA descriptor over the buffer as a dense row-major tensor; dims and box
	 * have rank entries, innermost dimension first (as cuTensorMapEncodeTiled takes them). */
	int rank;
	lesson_expr dims[LESSON_TMA_MAX_RANK], box[LESSON_TMA_MAX_RANK];
	int swizzle;                  /* bytes: 0 (none), 32, 64 or 128 */
	lesson_mark at;               /* where the argument is written */
} lesson_arg;

typedef struct {
	lesson_step_kind kind;        /* a kernel launch, or a memset of a buffer */
	char *memset_buffer; int memset_value;
	char *entry;                  /* kernel entry; NULL means the stage's entry */
	lesson_expr grid[3], block[3];/* missing dimensions are NULL (= 1) */
	lesson_expr shared;           /* NULL = 0 */
	lesson_arg *args; int nargs;
	lesson_mark at;
} lesson_launch;

/* One problem size an exercise is checked at: NAME=VALUE settings of the lesson's parameters. */
typedef struct { char **names, **values; int n; lesson_mark at; } lesson_size;

/* A stage's exercise: the learner writes the stage's kernel from a starter file. */
typedef struct {
	char *start_path /* resolved, inside kernels/<lesson>/exercises/ */, *start_rel;
	double pass;                  /* the bar: at least this fraction of the stage kernel's speed, same run */
	int has_tolerance, exact;     /* has_tolerance: the check's tolerance is this, not the lesson's */
	double rel_tol, abs_tol;
	char **hints; int nhints;     /* shown one at a time, in order */
	lesson_size *sizes; int nsizes;   /* sizes checked besides the lesson's own; none: derived (tiny, odd) */
	lesson_mark at;
} lesson_exercise;

/* A claim of the stage's text (expect:): a condition over a run's measurements (the names of
 * src/engine/claims.h) that should hold; why, optional, is the sentence it checks. */
typedef struct { lesson_expr cond; char *why; } lesson_claim;

typedef struct {
	char *id, *title, *kernel_path /* resolved, inside kernels/<lesson>/ */, *kernel_rel, *entry;
	char *explain, *bottleneck;
	lesson_tunable *tunables; int ntunables;
	lesson_constraint *constraints; int nconstraints;
	lesson_buffer *buffers; int nbuffers;   /* scratch */
	lesson_launch *launches; int nlaunches;
	char **options; int noptions;
	int check;                    /* 0 when the stage computes something else (e.g. a copy ceiling) */
	int req_cc; char *req_arch, *req_why;
	lesson_exercise *exercise;    /* NULL when the stage has none */
	lesson_claim *claims; int nclaims;   /* expect: */
	lesson_mark at;
} lesson_stage;

typedef struct {
	char *title, *library;
	char **arg_names; lesson_expr *arg_values; char **arg_strings; int nargs;
	lesson_expr bytes, flops;     /* NULL: the lesson's model */
	int check;
} lesson_baseline;

typedef struct {
	char *id, *title, *summary, *path /* the YAML file */, *kernel_dir;
	int order;
	char **read_first; int nread_first;
	lesson_param *params; int nparams;
	lesson_derived *derived; int nderived;
	lesson_buffer *buffers; int nbuffers;
	lesson_expr bytes, flops;
	char *peak;                   /* "fp32", "bf16_tensor", ... */
	char *reference;              /* stage id or "baseline" */
	char **compare; int ncompare;
	int exact; double rel_tol, abs_tol;
	lesson_baseline *baseline;    /* NULL when none */
	lesson_stage *stages; int nstages;
} lesson;

/* Loads one lesson file; kernels are looked up under kernels_root/<id>/. Returns a new lesson
 * (free with lesson_free), or NULL with "file:line:col: message" in err. */
lesson *lesson_load(const char *path, const char *kernels_root, char *err, size_t errlen);
/* The same from a buffer (name is used in messages; kernel files are not checked when kernels_root is NULL). */
lesson *lesson_load_buffer(const char *name, const char *buf, size_t len, const char *kernels_root,
                           char *err, size_t errlen);
void lesson_free(lesson *l);

/* Finders: index or -1. */
int lesson_stage_index(const lesson *l, const char *id);
const lesson_tunable *lesson_find_tunable(const lesson_stage *s, const char *name);
const lesson_param *lesson_find_param(const lesson *l, const char *name);
const lesson_buffer *lesson_find_buffer(const lesson *l, const lesson_stage *s, const char *name);

/* Whether s is an identifier: [A-Za-z_][A-Za-z0-9_]* (lesson, stage, buffer and parameter names). */
int lesson_is_ident(const char *s);
const char *lesson_dtype_name(lesson_dtype t);
size_t lesson_dtype_size(lesson_dtype t);
int lesson_dtype_is_float(lesson_dtype t);

/* A set of lessons loaded from a tree; lessons that fail are listed in errors and left out. */
typedef struct {
	lesson **items; int count;    /* sorted by order, then id */
	char **errors; int nerrors;   /* "file:line:col: message" */
	char *root;                   /* the tree: root/lessons, root/kernels */
} lesson_set;
/* Loads root/lessons/<name>.yaml. Returns 0 (even when some lessons failed), -1 when the folder is missing. */
int lesson_set_load(lesson_set *set, const char *root, char *err, size_t errlen);
void lesson_set_free(lesson_set *set);
lesson *lesson_set_find(const lesson_set *set, const char *id);
#endif
