/* runner_worker: the parent's side of the GPU worker process (`cudaclimb __worker`), which does all CUDA
 * work so that a kernel that faults or hangs ends only that process. The process runs wherever its
 * runner puts it (runner.h: here, over ssh, in Slurm); this module speaks the protocol over it.
 *
 * Protocol, one text line per item; a blob is "KEY LEN" then LEN raw bytes and a newline, so that
 * nothing assumes a filesystem shared with the worker.
 * Parent -> worker: "device\nend\n", or "run\n" then "job LESSON STAGE [NAME...]" (what the run is, in
 * words: the lesson's and the stage's ids, "baseline" for it, and the names of the settings the job
 * gives, a tunable at its default marked NAME*; a GPU worker needs none of it, a recording looks the run up by it: runner_replay.h), "plan LEN"
 * + the run's evaluated plan (plan_wire.h:
 * buffers, launches with their typed arguments, memsets, tensor maps, the model, what is compared and
 * how closely, the compute peak; made once by the parent, so the worker loads no lesson and parses no
 * setting), optionally "ref_plan LEN" + the reference's plan (a stage at its default tunables, or the
 * baseline; none: the result is not checked), "cubin LEN" + the compiled code, "ref_cubin LEN" + the
 * reference stage's code, "seed N", "verify 0|1", "time 0|1", "reps N", "budget MS", "counters 0|1",
 * "watchdog S" (a worker with no progress for S seconds in a run ends itself: its parent may be gone,
 * over ssh), optionally "pair_cubin LEN" + the stage's own kernel (timed alternately with this one, on
 * the same plan), optionally "pair_plan LEN" + the pair's own plan (the baseline, timed alternately
 * with the stage: no pair_cubin then), "untrusted 1" (a learner's kernel: the reference's outputs are scrambled with a key
 * kept on the host while it runs, scratch buffers are zeroed before each of its runs, and its result is
 * checked again after the timed runs) and "tolerance EXACT REL ABS" (instead of the plan's), "hotspots
 * 1" (after the other runs, sample the stage's program counters: hotspots.h), then "end". Worker ->
 * parent: first "hello N" (N: WORKER_PROTOCOL), then "note TEXT" (e.g. who holds the GPU), "phase
 * running", "beat" (alive during long timing), then "result" + run_result fields as "name value" lines
 * + a "step I KIND STREAM GX,GY,GZ BX,BY,BZ DSMEM REGS SSMEM MS START END DIR BYTES ENTRY" line per step of the
 * stage, in order (run_step_write: times are medians of a short pass of their own, after the timed runs;
 * the entry last, escaped like log) + optional "log TEXT" + optional "hotspots TEXT" (the samples,
 * escaped like log) + "end", or "device" + device_info fields + "end". Version 5: plans in place of
 * "lesson LEN NAME", "stage", "ref_stage" and "set NAME VALUE". Version 6: "job", "step" lines, and
 * the result's "runner" field (set by the parent; a worker leaves it empty). Version 7: copy steps,
 * streams, constants and textures in the plan; a step line's DIR and BYTES; the copy bound fields. Version 8: "pair_plan"; the result's pair, clock, L2 flush and inputs fields. */
#ifndef CC_RUNNER_WORKER_H
#define CC_RUNNER_WORKER_H
#include <stddef.h>
#include "plan_wire.h"
#include "result.h"
#include "runner.h"
#include "util.h"

typedef struct worker worker;

/* The longest line a worker may send (a result's escaped log or hotspots are the long ones): past it
 * the worker is not this protocol (WMSG_BAD), so that a worker cannot make the parent hold or search
 * an endless line. */
#define WORKER_LINE_MAX ((size_t)32 << 20)

/* WMSG_BAD: the worker said something that is not this protocol (text says what); it is not to be
 * trusted further. */
typedef enum { WMSG_NONE, WMSG_NOTE, WMSG_RUNNING, WMSG_BEAT, WMSG_RESULT, WMSG_DEVICE, WMSG_DIED, WMSG_BAD } wmsg_kind;
typedef struct {
	wmsg_kind kind;
	char text[512];      /* NOTE: the note; DIED: how the worker ended */
	run_result result;   /* RESULT: owned by the message until the next runner_worker_next call */
	device_info device;  /* DEVICE */
} wmsg;

/* A worker over runner r (owned from now on). Not started. */
worker *runner_worker_new(runner *r);
/* The runner under it, for what it says of itself (describe). */
const runner *runner_worker_runner(const worker *w);
/* Starts the process if it is not running; 0 or -1 with err. */
int runner_worker_ensure(worker *w, char *err, size_t errlen);
/* Sends len bytes (a whole request); 0 or -1 (the worker is gone). */
int runner_worker_send(worker *w, const char *data, size_t len);
/* Appends a blob to a request: "key LEN[ name]\n", the bytes, "\n" (name: for the reader's messages). */
void runner_worker_add_blob(sb *b, const char *key, const char *name, const char *data, size_t len);
/* The fd to poll for input, or -1 when not running. */
int runner_worker_fd(const worker *w);
/* Reads what is available and returns the next complete message in *m (kind WMSG_NONE: nothing yet).
 * The end of the process gives WMSG_DIED with the runner's line for how it ended; something the
 * runner has to say meanwhile (a Slurm job in the queue) a WMSG_NOTE. */
void runner_worker_next(worker *w, wmsg *m);
/* Milliseconds since the worker last said anything. */
double runner_worker_idle_ms(const worker *w);
/* Asks the process to quit and waits up to wait_ms for it (a process under compute-sanitizer writes
 * its report as it ends), then kills it if need be. */
void runner_worker_close(worker *w, int wait_ms);
/* Ends the process now and reaps it. */
void runner_worker_kill(worker *w);
void runner_worker_free(worker *w);
#endif
