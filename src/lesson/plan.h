/* plan: one stage (or the baseline) of a lesson made concrete: every expression evaluated for
 * given settings and device, constraints checked, launches and arguments ready to use. */
#ifndef CC_PLAN_H
#define CC_PLAN_H
#include <stddef.h>
#include <stdint.h>
#include "lesson.h"
#include "result.h"

/* A user override, NAME=VALUE, for a parameter or a tunable; value is an expression. */
typedef struct { char name[64]; char value[128]; } plan_setting;

/* The device values expressions may use. */
typedef struct {
	int sm_count, warp_size, max_threads_per_block, cc;
	int64_t l2_bytes, max_shared_per_block;
	/* What cudaOccupancyMaxPotentialBlockSize answers for the stage's first kernel: its block size and
	 * minimum grid (one full wave). The engine computes them once the kernel is compiled, from its
	 * resources (occ_potential_block); 0 = not known, and expressions then read max_threads_per_block
	 * and sm_count instead. */
	int occ_block, occ_min_grid;
	int64_t global_mem;   /* the GPU's memory in bytes; 0 = not known (no buffer is then checked against it) */
} plan_device;

/* The values expressions may read of a GPU described by d (its limits; occ_block and occ_min_grid 0). */
plan_device plan_device_of(const device_info *d);

/* The device values expressions may name, in one list for the loader, the plan and the front ends:
 * the i-th name ("sm_count", ...), NULL past the end. occ_block and occ_min_grid are not in it: only
 * a stage's expressions may read them (plan_device). */
const char *plan_device_var_name(int i);
/* Whether name[0..len) is one of those values; its value on dev into *v when dev is not NULL. */
int plan_device_var(const plan_device *dev, const char *name, size_t len, int64_t *v);

typedef struct { char name[64]; expr_value v; } plan_var;

/* A TMA tensor map over a buffer, checked against cuTensorMapEncodeTiled's rules: a dense row-major
 * tensor, innermost dimension first. */
typedef struct {
	lesson_dtype type;                      /* the buffer's element type */
	int data_type;                          /* its CUtensorMapDataType (i8 travels as UINT8) */
	int rank;                               /* 1 to LESSON_TMA_MAX_RANK */
	uint64_t dims[LESSON_TMA_MAX_RANK];     /* elements; each 1 to 2^32 - 1 */
	uint64_t strides[LESSON_TMA_MAX_RANK];  /* bytes between steps of dims[i], for i = 1..rank-1 (strides[0] unused) */
	uint32_t box[LESSON_TMA_MAX_RANK];      /* elements per TMA copy; each 1 to 256 */
	int swizzle;                            /* bytes: 0 (none), 32, 64, 128 */
} plan_tensormap;

/* A texture object over a buffer (cudaCreateTextureObject): rank 1 is linear memory (width elements,
 * tex1Dfetch; point filtering only), rank 2 pitched rows (tex2D). Checked against the device's rules in
 * the worker (texturePitchAlignment, maxTexture2DLinear), which refuses a run naming the texture. */
typedef struct {
	lesson_dtype type;                      /* the buffer's element type */
	int rank;                               /* 1 or 2 */
	uint64_t width, height, pitch_bytes;    /* height 1 and pitch 0 for rank 1 */
	lesson_tex_filter filter;
	lesson_tex_address address;
	int normalized_coords, read_normalized;
} plan_texture;

typedef struct {
	lesson_arg_kind kind;
	const char *buffer;                     /* ARG_BUFFER, ARG_TENSORMAP, ARG_TEXTURE, ARG_PITCH: the buffer's name, owned by the lesson */
	plan_tensormap tm;
	plan_texture tex;                       /* ARG_TEXTURE */                      /* ARG_TENSORMAP: passed by value as a 128-byte CUtensorMap built on the host */
	const char *name;                       /* baseline arguments only: the argument name */
	lesson_arg_type type;
	union { int32_t i32; uint32_t u32; int64_t i64; uint64_t u64; float f32; double f64; } v;
} plan_arg;

typedef struct {
	lesson_step_kind kind;
	const char *buffer; int value;          /* STEP_MEMSET; STEP_COPY: buffer is the destination */
	const char *src;                        /* STEP_COPY: the source buffer */
	uint64_t dst_off, src_off, bytes;       /* STEP_COPY, in bytes; checked to lie inside both buffers */
	int stream;                             /* 0..LESSON_MAX_STREAMS-1; 0 is the legacy default stream */
	int event;                              /* STEP_RECORD, STEP_WAIT: 0..LESSON_MAX_EVENTS-1; a wait's event is
	                                         * recorded by an earlier step (entry: its name) */
	const char *entry;
	unsigned grid[3], block[3];
	size_t shared;
	int pdl;                                /* STEP_LAUNCH: a programmatic dependent launch of the step before */
	plan_arg *args; int nargs;
} plan_launch;

typedef struct {
	const char *name; lesson_dtype type; int64_t count; int output, scratch;
	lesson_init_kind init; double a, b;
	double *values;                         /* INIT_EXPR: count values, owned by the plan */
	lesson_memory memory;                   /* the stage's choice (memory:) or the buffer's own */
	double hot;                             /* INIT_RANDOM: this share of the elements (0..1, seeded) is a */
	double skew;                            /* INIT_CSR_ROWS (a: nnz, b: cols): the row lengths' power law, 0..1 */
	int64_t rows, cols;                     /* pitched (rows > 0): rows of cols elements, count = rows * cols,
	                                         * allocated by cudaMallocPitch in the worker; 0, 0: packed */
	const char *copy_of;                    /* INIT_COPY: the packed buffer its rows are copied from (cudaMemcpy2D) */
} plan_buffer;

/* A constant filled before the launches: bytes evaluated on the host, or a buffer's first bytes. */
typedef struct {
	const char *symbol;
	lesson_dtype type;
	int64_t count;
	unsigned char *bytes;                   /* count values of type, owned by the plan; NULL: from buffer */
	const char *buffer;
	uint64_t nbytes;                        /* count * the type's size */
} plan_constant;

typedef struct {
	const lesson *l;                /* NULL for a plan read back with plan_wire_read */
	int stage;                      /* index, or -1 for the baseline */
	plan_var *vars; int nvars;      /* params, derived, tunables, device: what expressions saw */
	plan_buffer *buffers; int nbuffers;   /* the lesson's, then the stage's scratch */
	plan_launch *launches; int nlaunches;   /* the steps, repeat blocks unrolled (at most LESSON_MAX_STEPS) */
	int nstreams;                   /* the highest stream a step names, plus one (1: all on the default stream) */
	int main_launch;                /* launches[main_launch] is the first launch of the stage's own entry (a
	                                 * stage may launch a helper first); -1: none (a baseline, or no launch
	                                 * of the entry left after the repeat blocks) */
	double h2d_bytes, d2h_bytes;    /* bytes the copy steps move each way (host to device, device to host) */
	plan_constant *constants; int nconstants;
	int rdc;                        /* the stage's options ask for relocatable device code (-rdc=true) */
	stage_timing timing;            /* the stage's timing: (set 0: the tool's method; always so for the baseline) */
	char **defines; int ndefines;   /* "-DNAME=VALUE" for each tunable, in declaration order */
	double bytes, flops;            /* the model */
	int64_t working_set;            /* bytes of all buffers */
	int uses_occ;                   /* an expression read occ_block or occ_min_grid */
	/* What a run needs besides the launches, so that the worker needs no lesson: */
	const char *lesson_path;        /* the lesson's file (the worker's data key) */
	int first_param, nparams;       /* vars[first_param, + nparams): the lesson's parameters */
	peak_kind peak;                 /* the compute peak the lesson's model is measured against */
	traffic_kind traffic;           /* the attainable bandwidth it is measured against (read or copy) */
	int check;                      /* the result is compared with the reference's */
	const char **compare; int ncompare;   /* the outputs compared */
	int exact; double rel_tol, abs_tol, norm_tol;   /* the check's tolerance: the stage's own, else the lesson's */
	char **owned; int nowned;       /* strings the plan owns (one read back): freed by plan_free */
	int refused_setting;            /* plan_make refused the settings themselves (a value outside its range, a
	                                 * constraint), not an expression of the stage: read before plan_free */
} plan;

/* How a kernel parameter that takes a receives it: its size in bytes and 'i' (an integer or a
 * pointer), 'f' (a float) or 'b' (bytes: a struct by value), as the PTX declares parameters. */
void plan_arg_abi(const plan_arg *a, int *size, char *kind);

/* Builds p for stage (or -1: baseline). Returns 0; or -1 with a user-facing message in err:
 * unknown setting, value outside its range or not allowed, a broken constraint (the lesson's
 * message), an expression error (file:line:col: ...), a block or shared memory over the device's
 * limit, a tensor map TMA cannot describe ("tensor map A: ..."). p must be released with plan_free
 * either way. */
int plan_make(plan *p, const lesson *l, int stage, const plan_setting *sets, int nsets,
              const plan_device *dev, char *err, size_t errlen);
void plan_free(plan *p);
/* Value of a variable, or NULL. */
const expr_value *plan_var_get(const plan *p, const char *name);
/* The buffer named name, or NULL. */
const plan_buffer *plan_buffer_get(const plan *p, const char *name);
/* The stage's kernel: the first launch of its own entry (main_launch), else the first kernel launch
 * (not a memset; a baseline: its library call); NULL when there is none. The stage's occupancy, the
 * CUDA API's check of it and the grid shown are all of this launch. */
const plan_launch *plan_main_launch(const plan *p);
/* Whether sets plan for stage (as plan_make, then freed): 0, or -1 with plan_make's message. With
 * name, that variable's evaluated value goes to *value (when the plan has it). */
int plan_check(const lesson *l, int stage, const plan_setting *sets, int nsets, const plan_device *dev,
               const char *name, expr_value *value, char *err, size_t errlen);

/* ---- one parameter or tunable at a time, by plan_make's own rules (for front ends) ---- */

/* Parameter i's default and range, evaluated as plan_make does: over dev and the values pv[0..i) of
 * the parameters before it; in the parameter's kind (EXPR_INT for an integer parameter). */
typedef struct {
	expr_value def, lo, hi;
	int has_lo, has_hi;             /* min and max are optional */
} plan_param_info;
/* Fills *out. Returns 0, or -1 with the expression's error in err ("file:line:col: in '...': ..."). */
int plan_param_info_get(const lesson *l, const plan_device *dev, const expr_value *pv, int i, plan_param_info *out,
                        char *err, size_t errlen);
/* Whether text, an expression, is a value parameter i accepts given pv[0..i): 0 with the value (in
 * the parameter's kind) in *out, or -1 with plan_make's message: the expression's error ("n=x: unknown
 * name 'x'"), a fraction for an integer, a value outside the range. */
int plan_param_value(const lesson *l, const plan_device *dev, const expr_value *pv, int i, const char *text,
                     expr_value *out, char *err, size_t errlen);
/* Whether text, an expression over the device values of dev (may be NULL: constants only), is a value
 * tunable t of stage s allows: 0 with it in *out, or -1 with plan_make's message ("BLOCK = 100 is not
 * allowed for stage x (allowed: ...)"). Its allowed values are the lesson's (t->values), numbers. */
int plan_tunable_value(const lesson_stage *s, int t, const plan_device *dev, const char *text, int64_t *out,
                       char *err, size_t errlen);
/* Tunable t of stage s (of lesson l)'s default on dev: its number, or its expression over the device
 * values evaluated for dev (NULL: no GPU known, an error for an expression). 0 with it in *out, or -1
 * with a message: the expression's error, or a value not among the tunable's ("file:line:col: the
 * default of tunable CB of stage x ('...') is 12 on this GPU, not one of its values (4, 8, 16)"). */
int plan_tunable_default(const lesson *l, const lesson_stage *s, int t, const plan_device *dev, int64_t *out,
                         char *err, size_t errlen);

/* ---- plan_fit.c: the nearest tunable value that fits ---- */

/* When plan_make refuses sets, the nearest single change it accepts: one of the stage's tunables set
 * to another of its allowed values. The tunables the sets name are tried first, then the others; among
 * them the value nearest to the tunable's current one first (relative distance; on a tie the tunable
 * declared first, then the smaller value). Returns 0 with *fix filled ("STAGES", "2"), or -1 when no
 * single value fits (or a set tunable's value is not allowed: the refusal lists those; or a name is set twice). */
/* The index of the first of two sets that share a name (the earlier of the pair), or -1 when every
 * name is given once. */
int plan_setting_twice(const plan_setting *sets, int nsets);
int plan_fit_find(const lesson *l, int stage, const plan_setting *sets, int nsets, const plan_device *dev, plan_setting *fix);
/* plan_make for a run. When the stage's default tunables do not fit dev (sets name none of them and
 * the stage refuses even without sets), the nearest fitting value is used: appended to sets (*nsets
 * grows, up to max) and named in adjusted ("STAGES=2"; "" when nothing changed). Otherwise a refusal
 * ends with " (STAGES=2 fits)" when one value would fit. Returns 0 or -1 as plan_make does. */
int plan_fit_make(plan *p, const lesson *l, int stage, plan_setting *sets, int *nsets, int max, const plan_device *dev,
                  char *adjusted, size_t alen, char *err, size_t errlen);

/* ---- plan_result.c: what a plan puts in a run's result ---- */

const char *plan_result_step_name(lesson_step_kind k);   /* "launch", "memset", "copy", "library", "record", "wait" */
/* r's steps from a stage's plan p (the first RUN_MAX_STEPS; none for a baseline): kind, entry (a memset's
 * buffer), grid, block, dynamic shared memory, stream 0; resources and times not known (run_step_init). */
void plan_result_steps(const plan *p, run_result *r);
/* The inputs' values in words, into out (cut to n): the lesson buffers that are neither outputs nor
 * scratch, those filled alike named together: "A, B: f32, uniform in [-1, 1]; seed 7" (the seed only
 * when something is random; each buffer draws from its own stream of it). "no inputs" when none. */
void plan_result_inputs(const plan *p, uint64_t seed, char *out, size_t n);

/* ---- plan_edge.c: the sizes check plans a stage at besides its defaults ---- */

#define PLAN_MAX_EDGES 8
/* One edge size: settings for every integer parameter, and its words ("n=1", "n=1000003"). */
typedef struct { plan_setting sets[16]; int nsets; char what[160]; int strict; } plan_edge;
/* The edge sizes of l: every integer parameter at its minimum (1 where it has none and its default
 * allows), then each at the largest prime not above its default (and 1000003), then each of the
 * stage's exercise sizes (strict: a refusal there is an error). Each parameter is kept inside the
 * range the parameters before it give. Returns how many (at most max), distinct. */
int plan_edge_sizes(const lesson *l, int stage, const plan_device *dev, plan_edge *out, int max);
/* Plans stage at each edge size, with sets (the tunables and any parameter the edge does not set):
 * 0, or -1 with the first error in err, ending "(at n=1)". A size the lesson's own rules refuse (a
 * constraint, a range) is skipped, except an exercise size. */
int plan_edges(const lesson *l, int stage, const plan_setting *sets, int nsets, const plan_device *dev, char *err, size_t errlen);

/* Parses "NAME=VALUE" into s. Returns 0 or -1 with a message. */
int plan_setting_parse(const char *text, plan_setting *s, char *err, size_t errlen);
#endif
