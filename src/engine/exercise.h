/* exercise: a learner's work on a stage's exercise (lessons/README.md, "Exercises"). The workspace
 * holds their files (one per exercise) and their progress; a try compiles their file into the
 * stage's plan, checks it at several sizes with fresh inputs, times it against the stage's own
 * kernel in the same run, and judges it. No curses: the CLI and the TUI show the verdict. */
#ifndef CC_EXERCISE_H
#define CC_EXERCISE_H
#include <stddef.h>
#include <stdint.h>
#include "engine.h"
#include "results.h"

/* ---- workspace (exercise_work.c) ---- */

/* The learner's folder: override when given, else $CUDACLIMB_WORK, else ~/cudaclimb-work. A new
 * string; the folder is not created. */
char *ex_workspace(const char *override);
/* work/<lesson>/<stage>.cu, a new string. */
char *ex_file(const char *work, const lesson *l, const lesson_stage *s);
/* Copies the starter to the learner's file when there is none yet (creating the folders). Returns 1
 * when it was created, 0 when the learner's file was already there (it is never overwritten), -1
 * with err. */
int ex_begin(const char *work, const lesson *l, const lesson_stage *s, char *err, size_t errlen);
/* Puts the starter back, keeping the learner's file as <stage>.cu.N.bak (the first free N); kept
 * gets its path ("" when there was no file). Returns 0 or -1 with err. */
int ex_reset(const char *work, const lesson *l, const lesson_stage *s, char *kept, size_t keptlen,
             char *err, size_t errlen);

typedef enum { EX_NOT_STARTED, EX_STARTED, EX_COMPILES, EX_CORRECT, EX_PASSED } ex_level;
const char *ex_level_name(ex_level v);   /* "not started", "started", "compiles", "correct", "passed" */

/* One exercise's record in work/.progress. */
typedef struct {
	ex_level best, last;      /* the furthest any try got; the last try */
	int hints;                /* hints shown so far */
	double best_ratio;        /* best speed ratio of a correct try at the lesson's size, 0 none */
	int64_t when;             /* time of the last try (seconds since the epoch), 0 never */
	char hash[17];            /* of the source of the last try */
} ex_progress;

/* The record of lesson/stage (zeros when there is none). The level also reflects the learner's file:
 * started when it exists and no try has gone further. Returns 0, or -1 with err when the progress
 * file exists but cannot be read. */
int ex_progress_get(const char *work, const lesson *l, const lesson_stage *s, ex_progress *out,
                    char *err, size_t errlen);
/* Changes one record under a lock on the progress file: reads the file afresh, calls fn on the
 * record (created when missing), writes it back atomically. Records of other exercises, written by
 * other sessions meanwhile, are kept. Returns 0 or -1 with err. */
int ex_progress_update(const char *work, const lesson *l, const lesson_stage *s,
                       void (*fn)(ex_progress *p, void *ctx), void *ctx, char *err, size_t errlen);

/* ---- a try (exercise_try.c) ---- */

typedef enum {
	EXV_PASSED,          /* correct everywhere and at least the bar */
	EXV_SLOW,            /* correct, below the bar */
	EXV_WRONG, EXV_UNWRITTEN, EXV_OUT_OF_BOUNDS, EXV_WRONG_LATER,
	EXV_FAULT, EXV_HANG,
	EXV_COMPILE_ERROR, EXV_NO_KERNEL, EXV_SIGNATURE,
	EXV_CRASH,           /* the compiler or the worker died */
	EXV_REFUSED,         /* a setting or size the stage refuses, or a stage for another GPU */
	EXV_NO_GPU,          /* compiled; nothing to run on */
	EXV_COUNT
} ex_kind;
/* "passed", "slow", "wrong", "unwritten", "out_of_bounds", "wrong_later", "fault", "hang",
 * "compile_error", "no_kernel", "signature", "crash", "refused", "no_gpu". */
const char *ex_kind_name(ex_kind k);

enum { EX_MAX_CHECKS = 8 };

/* One run of the learner's kernel in a try. */
typedef struct {
	char label[24];             /* "tiny", "odd", "lesson size", "fresh inputs", "size 3" */
	char sizes[160];            /* the parameters it ran with, "n=5" */
	int done;                   /* the run came back (a later run is skipped after a failure) */
	run_result r;
} ex_check;

typedef struct {
	ex_kind kind;
	char headline[512];         /* one line: what happened, and where */
	ex_check checks[EX_MAX_CHECKS]; int nchecks;
	int failed;                 /* the check that decided a failing verdict, or -1 */
	int timed;                  /* the check with the timing (the lesson's size), or -1 */
	double ratio, bar;          /* speed ratio to the stage's own kernel (median of the pairs), the bar */
	int at_lesson_size;         /* every parameter at its lesson value and every tunable at its default: only then does a pass count */
	char hash[17];              /* of the source tried */
	const char *source; size_t source_len;   /* the source tried: the try's own copy, valid until ex_try_free */
	int judged_kernels;         /* the ratio is of the kernels' time, the host copies left out (ex_judge_of) */
	double kernel_ms, own_kernel_ms;   /* then: the learner's kernels and the stage's own, ms; 0 unknown */
	char judged[160];           /* what the ratio compared, for the headline ("the kernels' time, ...") */
	int counters_done;          /* the diagnosis (a run after the verdict) came back */
	run_result diag;            /* the learner's kernel with hardware counters and the diagnosis */
	int sanitized;              /* after a fault, or a wrong result from a kernel using shared memory: */
	char where[512];            /* compute-sanitizer's finding (memcheck, racecheck), or why there is none */
} ex_verdict;

typedef struct ex_try ex_try;

typedef struct {
	const char *file;           /* the learner's file (read once, at the start) */
	const plan_setting *sets; int nsets;   /* tunables and parameters, as for a run */
	uint64_t seed; int has_seed;/* the first check's inputs (each later one seed + i); else fresh */
	int counters;               /* after the verdict, one more run with the hardware counters */
	int no_sanitizer;           /* do not run compute-sanitizer after a fault or a wrong result */
} ex_try_opts;

/* Starts a try of stage's exercise: submits its runs to the engine (which must be idle of other
 * work for the timing to mean anything). Returns NULL with err when the file cannot be read or the
 * stage has no exercise. */
ex_try *ex_try_start(engine *e, const lesson *l, int stage, const ex_try_opts *o, char *err, size_t errlen);
/* Feeds one engine event (from the engine's listener). Returns 1 when it changed the try. */
int ex_try_event(ex_try *t, int job, job_phase phase, const char *note, const run_result *r);
/* 1 when the verdict is known (the diagnosis may still be coming), 2 when nothing more will come. */
int ex_try_state(const ex_try *t);
/* The verdict so far (valid until ex_try_free). */
const ex_verdict *ex_try_verdict(const ex_try *t);
/* The engine's jobs still running for it. */
int ex_try_busy(const ex_try *t);
/* Cancels its jobs and frees it. */
void ex_try_free(ex_try *t);

/* The sizes every try checks besides the lesson's: the exercise's own, or derived from the lesson's
 * integer parameters (tiny: 3, 5, 7, ... clamped to their range; odd: about a seventh of the lesson's
 * value, odd and not a multiple of 3, 5 or 7). Fills sets (NAME=VALUE per size, labels "tiny"/"odd"
 * or "size N") and returns the number of sizes (at most cap). */
typedef struct { char label[24]; plan_setting sets[8]; int nsets; } ex_size;
int ex_sizes(engine *e, const lesson *l, int stage, ex_size *out, int cap);

/* Which time an exercise is judged on, for a stage whose plan copies copied_bytes between host and
 * device: the exercise's judge:, else the kernels' (1) when the stage copies anything (pageable
 * copies of a few hundred MB would hide any kernel under the bar), the whole stage's (0) otherwise. */
int ex_judge_of(const lesson_exercise *x, double copied_bytes);
/* The speed ratio of a correct try and what it compared (into what, len): with kernels, the stage's
 * own kernels' time over the learner's (own->kernel_ms / learner->kernel_ms, each the stage run
 * without its copies); else the pair's median ratio (learner->pair_ratio). -1 when a time is
 * missing (what then says which). */
double ex_judge_ratio(int kernels, const run_result *learner, const run_result *own, char *what, size_t len);

/* Records a finished verdict in the learner's progress (level, ratio, source hash). */
int ex_record(const char *work, const lesson *l, const lesson_stage *s, const ex_verdict *v,
              char *err, size_t errlen);
/* A verdict on an exercise the engine's course assigns, sent to the class: appended to the results
 * folder (results.h), or with a lab service (course.h's service) the learner's file (read from file)
 * sent to the service's judge (ex_submit). 0 when sent or when there is nothing to send (no course,
 * not assigned, no GPU), -1 with one line in err (the learner's own progress is not affected); said
 * (may be NULL) gets what the service answered, or for an assigned exercise not judged for want of a
 * GPU the one line that nothing was recorded and why. */
int ex_record_class(engine *e, const lesson *l, const lesson_stage *s, const char *file, const ex_verdict *v, int wait,
                    char *said, size_t saidlen, char *err, size_t errlen);
/* The class record of verdict v (r's source borrowed from v). */
void ex_class_record(engine *e, const lesson *l, const lesson_stage *s, const ex_verdict *v, result_record *r);

/* ---- a submission to the lab service (exercise_submit.c) ---- */

/* Sends file (the learner's kernel for stage s) and the files it includes from its own folder (by
 * #include "name", each a plain relative name: at most LABWIRE_FILES_MAX in all, each at most
 * LABWIRE_FILE_MAX bytes, opened without following links or blocking) to the course's service for
 * judging; a service that does not answer (restarting) is asked again for up to a minute. With wait,
 * waits for the judge's verdict and puts it in said ("the course's judge: passed, 1.02x (the bar
 * 0.90x)"); else returns once the service has kept the files. 0, or -1 with err. */
int ex_submit(const course *co, const lesson *l, const lesson_stage *s, const char *file, int wait, char *said, size_t saidlen,
              char *err, size_t errlen);
#endif
