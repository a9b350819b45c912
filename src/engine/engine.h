/* engine: the one API the CLI and the TUI use. It owns the lessons, the device description, the
 * compiler processes and the GPU worker (or a replay of recorded results), and runs jobs without
 * blocking: submit, then call engine_poll from your loop. No curses here, no CUDA in callers. */
#ifndef CC_ENGINE_H
#define CC_ENGINE_H
#include <poll.h>
#include "lesson.h"
#include "plan.h"
#include "result.h"

typedef struct engine engine;

#define ENGINE_MAX_WORKERS 8

typedef struct {
	const char *lessons_root;   /* a tree added to the shipped lessons (its lesson wins over a shipped one of the
	                             * same id); NULL: $CUDACLIMB_LESSONS, else none */
	int lessons_only;           /* the tree's lessons alone, not the shipped ones (--lessons-only;
	                             * also $CUDACLIMB_LESSONS_ONLY set and not "0") */
	const char *arch;           /* compile for this (sm_80, sm_90a...) instead of the GPU's */
	int gpu;                    /* device index; -1: the first visible one */
	int gpus[ENGINE_MAX_WORKERS]; int ngpus;   /* more than one: a worker on each of these GPUs (gpu unused), queued jobs
	                                             * going to whichever is idle; the device described is the first's */
	double timeout_s;           /* watchdog for one run; <= 0: 10 s */
	int no_counters;
	const char *replay_path;    /* answer runs from a file written by run/bench --json */
	const char *course_dir;     /* a course folder (course.yaml): only its lessons, its bars; NULL: $CUDACLIMB_COURSE */
	uint64_t seed; int has_seed;/* inputs' seed; without it a fresh one per parameter set */
	int reps;                   /* timed repetitions; 0: automatic (enough for time_budget_ms) */
	int time_budget_ms;         /* automatic repetitions aim at this much timed work; 0: 400 ms */
	int quiet;                  /* no progress lines on stderr (the TUI sets it) */
	int compilers;              /* compile_only jobs start beside the runs, this many at a time (tune: the cores,
	                             * filling the compile cache ahead of the runs); 0: they queue with the runs */
	const char *runner;         /* where the GPU worker runs (runner.h): "local", "ssh HOST", "slurm", then KEY=VALUE
	                             * settings; over $CUDACLIMB_RUNNER, over the course's runner; NULL: those, else local */
} engine_opts;

/* Loads lessons and the architecture table. Does not start the worker. Returns NULL with a message
 * only when nothing at all can work (no lesson tree, no assets). */
engine *engine_new(const engine_opts *o, char *err, size_t errlen);
/* Ends the worker and compiler children, frees everything. */
void engine_free(engine *e);

const lesson_set *engine_lessons(engine *e);
/* The course in use (--course, $CUDACLIMB_COURSE), or NULL. Its lessons are the only ones loaded,
 * in its order. */
const struct course_s *engine_course(engine *e);

/* Where the worker runs, one line: "local", "ssh gpu1", "slurm partition=gpu gres=gpu:1 job 12". */
void engine_runner_describe(engine *e, char *out, size_t n);

/* The device, starting the worker if needed (blocking, at most the watchdog). Never NULL: when there
 * is no GPU, present is 0 and why says so in one line; with --arch the limits come from the table. */
const device_info *engine_device(engine *e);
/* Whether the device is missing because the runner (ssh, slurm) could not bring up its worker (an
 * unreachable host, no srun, a job Slurm refused) rather than for want of a GPU; the device's why
 * says why. Jobs then end as RUN_RUNNER_ERROR. */
int engine_runner_failed(engine *e);

/* A job: compile and, unless compile_only, run one stage or the baseline (stage -1). */
typedef struct {
	const lesson *lesson;
	int stage;
	plan_setting sets[16]; int nsets;
	char case_name[48];         /* the lesson's case these settings came from (its settings are in sets):
	                             * recorded in the result's case_name; "" none */
	int compile_only;
	int no_time;                /* verify only */
	int counters;               /* also read hardware counters (when available) */
	int hotspots;               /* also sample the program counter after the other runs (hotspots.h): the
	                             * samples in the result's hotspots, or why not in hotspots_note */
	/* Exercises: compile kernel_text (a learner's file, read once by the caller) in place of the
	 * stage's kernel, named kernel_name in messages; engine_submit copies both. */
	const char *kernel_text, *kernel_name;
	int untrusted;              /* a learner's kernel: the worker hides the reference from it (runner_worker.h) */
	int pair;                   /* time the stage's own kernel in the same run, repetitions alternating */
	double decide_bar;          /* with pair, > 0: the pairs may stop once a sign test decides their median
	                             * ratio against this bar (a verdict's), before the time budget */
	int pair_baseline;          /* a stage: time the lesson's baseline in the same run, repetitions alternating
	                             * (the result's pair_* fields: its median, the per-pair ratio); not with pair */
	int pair_with;              /* with pair_baseline: that baseline (-1, or LESSON_BASELINE(i)) instead of the
	                             * stage's own (0); the result's baseline field names it */
	uint64_t seed; int has_seed;/* this job's inputs; without it the engine's seed */
	int has_tolerance, exact; double rel_tol, abs_tol, norm_tol;   /* the check's tolerance instead of the lesson's */
	int sanitize;               /* a san_tool (sanitize.h): check only, in a worker run under compute-sanitizer,
	                             * its first finding in the result's sanitizer field */
} engine_job;

typedef enum { JOB_COMPILING, JOB_WAITING_GPU, JOB_RUNNING, JOB_DONE } job_phase;

/* Called from engine_poll for every change: a phase, a progress note ("waiting for the GPU: held by
 * alice (pid 4242) since 12:01") or the end (phase JOB_DONE, result filled; the result is valid only
 * during the call - copy it with run_result_copy). */
typedef void (*engine_listener)(void *ctx, int job_id, job_phase phase, const char *note,
                                const run_result *result);
void engine_set_listener(engine *e, engine_listener fn, void *ctx);

/* Queues a job; returns its id (> 0), or -1 with err. With one worker jobs run one at a time, in order;
 * with several (engine_opts.gpus) as many at a time as there are workers, each result's runner field
 * naming the worker that ran it. */
int engine_submit(engine *e, const engine_job *j, char *err, size_t errlen);
/* Drops a queued or running job (a running compile or run finishes but is not reported). */
void engine_cancel(engine *e, int job_id);
/* Number of queued or running jobs. */
int engine_busy(engine *e);
/* Fills fds with what the caller should poll() on besides its own input; returns the count. */
int engine_pollfds(engine *e, struct pollfd *fds, int max);
/* Makes progress: reads children, enforces the watchdog, starts the next job. Waits at most
 * timeout_ms (0: no wait, -1: until something happens). Returns the number of jobs finished. */
int engine_poll(engine *e, int timeout_ms);
/* Whether the job's settings would be accepted, planned as its run would plan them (defaults that do
 * not fit the GPU adjusted): 0, or -1 with the refusal in err. A stage for another GPU is not refused
 * here (its run says why). Use engine_device first for the GPU's own limits. */
int engine_check_job(engine *e, const engine_job *j, char *err, size_t errlen);
/* As engine_check_job, without looking for a value that would fit (plan_fit_find tries every other
 * value of every tunable): cheap enough to check each setting of a tuning grid. */
int engine_check_sets(engine *e, const engine_job *j, char *err, size_t errlen);
/* Convenience for the CLI: submit and wait; fills *r (caller clears it). Returns r->status. */
run_status engine_run_sync(engine *e, const engine_job *j, run_result *r);

/* The device values for expressions (from the GPU, or the --arch table). */
void engine_plan_device(engine *e, plan_device *out);
#endif
