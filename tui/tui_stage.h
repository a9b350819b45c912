/* tui_stage: the model behind the stage view of one lesson: tunable values (per stage) and
 * parameter values (the problem sizes, one set for the whole lesson) and their check (plan_make),
 * the jobs submitted to the engine (a run, live re-runs, a sweep, the whole ladder), the results
 * per stage with the previous one, and a history. No curses: the screens draw it.
 * The tunables pane edits rows: row r < ntunables of the current stage is tunable r, the rows after
 * them are the lesson's parameters (row ntunables + i is parameter i). */
#ifndef CC_TUI_STAGE_H
#define CC_TUI_STAGE_H
#include "engine.h"
#include "score.h"
#include "tui_state.h"

enum { STAGE_HIST = 32, STAGE_SWEEP_MAX = 64, STAGE_JOBS = 128 };
/* The most settings one job carries (engine_job's array): a stage's tunables and the parameters. */
#define STAGE_SETS_MAX ((int)(sizeof ((engine_job *)0)->sets / sizeof (plan_setting)))

/* JOB_CODE: a compile only, for the code pane's PTX and SASS views (stage_code). */
typedef enum { JOB_RUN, JOB_SWEEP, JOB_CODE } stage_job_kind;
typedef enum { SW_PENDING, SW_SKIPPED, SW_DONE } sweep_state;

typedef struct {
	int64_t value; int job; sweep_state state;
	char reason[512];                  /* SKIPPED: the constraint's message; DONE and not ok: why */
	run_status status; double ms, gbps, gflops, occ; int regs;
} stage_sweep_item;

typedef struct { int stage; double ms, metric; run_status status; } stage_hist;

/* A stage's own compile for the code pane (stage_code), when no run had its values. */
typedef struct {
	unsigned key;                      /* the values it is for (stage_values_key) */
	int job;                           /* in flight, 0 when none */
	int done; run_status status;
	char cubin[256], arch[16], message[512];
} stage_code_slot;

typedef struct {
	int64_t *tv;                       /* the value of each tunable */
	run_result last, prev;             /* prev: the run before last that produced a time */
	int have_last, have_prev;
	unsigned last_key;                 /* the values last ran with (stage_values_key) */
	stage_code_slot code;
} stage_slot;

typedef struct { int id; stage_job_kind kind; int stage; int item; int ladder; unsigned key; } stage_job;

typedef struct {
	engine *e;
	const lesson *l;
	const device_info *dev;
	plan_device pdev;
	tui_state *state;                  /* not owned: progress records */
	int can_run;                       /* a GPU (or a replay): else jobs only compile */
	int replay;                        /* results come from a recorded file: nothing is recorded as
	                                    * progress, and there is no live mode */
	score_metric metric;               /* the lesson's own (score_metric_of) */
	int cur;                           /* the stage shown */
	stage_slot *slots;                 /* one per stage */
	expr_value *pv;                    /* the value of each lesson parameter (every stage, the baseline) */
	run_result base; int have_base;    /* the baseline's last result */
	int sel;                           /* selected row: a tunable, or a parameter after them */
	int editing; char edit[32];        /* a value being typed */
	char problem[512];                 /* why the current or typed values are refused; "" if fine */
	stage_job jobs[STAGE_JOBS]; int njobs;
	int ladder_left, ladder_total;     /* the ladder's jobs (a) not yet done, and in all */
	int ladder_ran;                    /* ... of those done, the ones that ran (timed) */
	char ladder_why[64];               /* ... the first other's status in words ("not in the recording") */
	int run_job;                       /* the current stage's run in flight, 0 when none */
	job_phase phase; char note[256];   /* of the latest event */
	double phase_since;
	int live;
	int counters_next;      /* the next run reads the hardware counters (set by an explicit r) */
	int want_run; double due;          /* a run to submit at time due (debounce, live throttle) */
	double last_submit;
	stage_hist hist[STAGE_HIST]; int nhist;
	int sweep_tunable, sweep_stage, nsweep, sweep_open;  /* sweep_tunable -1: none */
	stage_sweep_item sweep[STAGE_SWEEP_MAX];
	char msg[512];                     /* a one-line message for the status bar */
	char code_why[640];                /* stage_code's NONE: why */
} tui_stage;

/* Prepares the model of lesson l; saved tunable and parameter values come from state. dev and
 * state must outlive it. Returns NULL when out of memory. */
tui_stage *stage_new(engine *e, const lesson *l, const device_info *dev, tui_state *state);
/* Cancels its jobs and frees it. */
void stage_free(tui_stage *m);

/* Rows of the tunables pane for the current stage: its tunables, then the lesson's parameters. */
int stage_rows(const tui_stage *m);
/* Tunable t of stage s's default on this GPU (plan_tunable_default); its first value when that fails
 * (a lesson whose default is not among its values here: a run says why). */
int64_t stage_tunable_default(const tui_stage *m, int s, int t);
/* The parameter on row r of the current stage, or -1 when r is a tunable's (or no row). */
int stage_row_param(const tui_stage *m, int r);
/* The settings of stage s (-1: the baseline, parameters only) into sets[0..cap): every tunable's
 * value, then NAME=VALUE for each parameter that differs from its default. Row ot of stage s (when
 * >= 0) gets the text ov instead. Returns their count, or -1 when they do not fit. */
int stage_build_sets(const tui_stage *m, int s, plan_setting *sets, int cap, int ot, const char *ov);
/* plan_make for those settings: 0, or -1 with the reason in err; *value (may be NULL) gets the
 * overridden row's value as the plan evaluated it. */
int stage_check(const tui_stage *m, int s, int ot, const char *ov, char *err, size_t len,
                expr_value *value);
/* Shows stage i (clamped); records it as where the learner is. */
void stage_select(tui_stage *m, int i);
/* Rechecks the current (or typed) values; fills m->problem. Returns 0 when they are fine. */
int stage_validate(tui_stage *m);
/* Moves the selected tunable by delta allowed values, or halves (delta < 0) or doubles the
 * selected integer parameter (clamped to its range; a value the plan refuses is not taken and the
 * reason goes to msg). Reruns after a short pause when the values are valid. */
void stage_step(tui_stage *m, int delta, double now);
/* Typing: begins with the first character; Enter commits (when allowed), Esc cancels. */
void stage_edit_char(tui_stage *m, int c);
void stage_edit_backspace(tui_stage *m);
int stage_edit_commit(tui_stage *m, double now);
void stage_edit_cancel(tui_stage *m);
/* Sets the current stage's tunables named in sets (others keep theirs; a value that is not a number
 * or a name the stage lacks is skipped), as if chosen by hand: recorded, rerun after a short pause.
 * Returns how many were set. */
int stage_set_tunables(tui_stage *m, const plan_setting *sets, int n, double now);
/* Back to the lesson's defaults: this stage's tunables and every parameter. */
void stage_reset(tui_stage *m, double now);

/* The lesson's case (lesson_case.h) the values are in now: the first whose parameters all have its
 * values (and the tunables of the current stage it sets, theirs); -1: none (the defaults, or values
 * of the learner's own). */
int stage_case(const tui_stage *m);
/* Switches to the next case (after the last, back to the defaults): the parameters to their defaults
 * and then the case's values, its tunables on every stage that has them; reruns after a short pause.
 * msg names the case and its settings. Returns the new case, or -1 (the defaults). */
int stage_case_next(tui_stage *m, double now);

/* Submits a run of the current stage now (compile only without a GPU). Returns 0, or -1 with
 * m->msg set. */
int stage_run(tui_stage *m, double now);
void stage_toggle_live(tui_stage *m, double now);
/* Runs the selected tunable through its allowed values (skipping those a constraint refuses).
 * On a parameter's row it only says in msg that sweeps are for tunables, and returns -1. */
int stage_sweep(tui_stage *m, double now);
/* Runs every stage with its values, and the baseline; msg counts the runs left, and says when
 * they are done. */
int stage_ladder(tui_stage *m, double now);

/* A key for the values stage s runs with now (its tunables and the parameters): equal keys, the
 * same compiled code. */
unsigned stage_values_key(const tui_stage *m, int s);
/* The same key from a job's settings (stage_build_sets' for stage s). */
unsigned stage_sets_key(int s, const plan_setting *sets, int n);
typedef enum { STAGE_CODE_NONE, STAGE_CODE_PENDING, STAGE_CODE_READY } stage_code_state;
/* The compiled code of stage s at its values now, for the PTX and SASS views. READY: *cubin and
 * *arch, from the stage's last run when it had these values, else from a compile of its own;
 * PENDING: a compile is on its way (submitted here, compile only, when none is); NONE: *why says
 * why there is none (refused values, a compile error, a replay that recorded no code). The
 * strings live in the model until the next call. */
stage_code_state stage_code(tui_stage *m, int s, double now, const char **cubin, const char **arch,
                            const char **why);

/* The engine's listener, forwarded. Returns 0 when the job is not the model's, STAGE_EV_CODE for a
 * compile of stage_code's, else STAGE_EV_SHOWN (something shown changed). */
enum { STAGE_EV_SHOWN = 1, STAGE_EV_CODE = 2 };
int stage_event(tui_stage *m, int job, job_phase phase, const char *note, const run_result *r,
                double now);
/* Timers (debounce, live); a run waits while a value is typed. Returns non-zero when something shown changed. */
int stage_tick(tui_stage *m, double now);
/* Milliseconds until the next timer, or -1 when none. */
int stage_timeout(const tui_stage *m, double now);

/* The figure of merit of r in the lesson's metric (score_value) and its fraction of the peak that
 * bounds it (score_peak_frac, else from the device's peaks; 0..1, or -1). */
double stage_metric_value(const tui_stage *m, const run_result *r);
double stage_metric_frac(const tui_stage *m, const run_result *r);
/* The device's peak in the lesson's metric (attainable DRAM bandwidth, or the lesson's compute
 * peak); 0 when unknown. For numbers without a result, such as the best ones saved. */
double stage_metric_peak(const tui_stage *m);
/* The best value saved for progress p in the lesson's metric (0: none). */
double stage_metric_best(const tui_stage *m, const tui_progress *p);
/* "GB/s" or "GFLOP/s". */
const char *stage_metric_unit(const tui_stage *m);
/* Whether r carries a measured time. */
int stage_timed(const run_result *r);
#endif
