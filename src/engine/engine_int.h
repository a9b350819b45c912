/* engine_int: what the engine's files share (engine.h is the API): the job and the engine itself.
 * engine.c runs the jobs, engine_setup.c sets up the tree, course, runner and device, sigcheck.c
 * checks a compiled kernel against the plan. Nothing outside src/engine includes this. */
#ifndef CC_ENGINE_INT_H
#define CC_ENGINE_INT_H
#include "engine.h"
#include "arch.h"
#include "compile.h"
#include "course.h"
#include "worker.h"

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
	char *data_root, *lessons_root, *exe;
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

/* engine.c */
void engine_job_free(job *j);
void engine_finish(engine *e, job *j, run_status st, const char *msg);
/* engine_setup.c */
int engine_setup_worker_gpu(const engine *e, int i);
worker *engine_setup_worker(engine *e, int gpu, char *const *prefix);
const arch_info *engine_setup_table_arch(engine *e);
/* sigcheck.c */
int sigcheck_interface(engine *e, job *j, const compile_result *cr);
int sigcheck_constants(engine *e, job *j, const compile_result *cr);
#endif
