/* engine_int: what the engine's two files share (engine.h is the API): the job and the engine
 * structures. engine.c moves the jobs along (plan, compile, check, run, result); engine_setup.c makes
 * and frees the engine (its lesson tree, course, runner, workers) and describes the device. Only
 * those two include this. */
#ifndef CC_ENGINE_INT_H
#define CC_ENGINE_INT_H
#include "engine.h"
#include "arch.h"
#include "compile.h"
#include "course.h"
#include "runner_worker.h"

typedef enum { ST_QUEUED, ST_COMPILE, ST_COMPILE_PAIR, ST_COMPILE_REF, ST_RUN, ST_DONE } job_step;

typedef struct job {
	int id;
	engine_job j;
	job_step step;
	int cancelled, waiting_gpu;
	plan p;                      /* the run's plan: made once here, sent to the worker as it is */
	plan rp;                     /* the reference's, when it is not p itself (have_rp) */
	int have_rp;
	plan bp;                     /* the baseline's, timed beside the stage (engine_job.pair_baseline; have_bp) */
	int have_bp;
	plan_setting ref_sets[16];   /* the settings rp was made with (the lesson's parameters) */
	int ref_nsets;
	compile_job *cj;
	char cubin[512], ref_cubin[512], pair_cubin[512];
	int ref_stage;               /* -2: not checked */
	double submitted;            /* now_ms() at engine_submit, for the trace */
	worker *w;                   /* the worker running it: the engine's, or its own under compute-sanitizer */
	char san_log[64];            /* the sanitizer's report, a temporary file */
	char adjusted[96];           /* "STAGES=2": the defaults that did not fit this GPU, changed (plan_fit_make) */
	run_result r;
	struct job *next;
} job;

struct engine {
	engine_opts o;
	char *data_root, *lessons_root, *exe;   /* lessons_root: the shipped tree, or the one tree with lessons_only */
	char *shipped_common;        /* the shipped tree's kernels/common, which a tree's kernels see too */
	lesson_set lessons;
	course *course;
	device_info dev;
	int have_dev;
	int runner_failed;           /* the runner (ssh, slurm) could not bring up the worker: dev.why says why */
	runner_config runner;        /* where workers run: the course's, then $CUDACLIMB_RUNNER, then --runner */
	worker *ws[ENGINE_MAX_WORKERS];   /* ws[0] the first (it describes the device); NULL: not made yet */
	int nws, turn;               /* turn: the worker idle_worker tries first */
	job *queue;
	int next_id;
	engine_listener fn;
	void *ctx;
	uint64_t seed;
};

/* engine.c: frees j and everything it owns (its plans, compile, own worker, result). */
void engine_job_free(job *j);
/* engine_setup.c: the GPU of worker i. */
int engine_setup_worker_gpu(const engine *e, int i);
/* engine_setup.c: a worker where the runner says, on gpu, run under prefix (NULL-terminated) when not NULL. */
worker *engine_setup_worker(engine *e, int gpu, char *const *prefix);
/* engine_setup.c: the limits used without a GPU: the --arch table entry (sm_90 when none is named). */
const arch_info *engine_setup_table_arch(engine *e);
#endif
