/* cli_cmd: what the CLI's command files share (internal to cli*.c): the parsed command line and
 * the helpers that turn operands into lessons and statuses into exit codes. */
#ifndef CC_CLI_CMD_H
#define CC_CLI_CMD_H
#include "engine.h"
#include "tui.h"

typedef struct {
	engine_opts eo;
	tui_opts to;
	int json;
	plan_setting sets[16]; int nsets;
	const char *case_name;          /* --case NAME as given; cli_use_case applies it */
	char case_used[48];             /* the case applied (its name as the lesson spells it), "" none */
	const char *archs;
	const char *work;               /* --work DIR: the learner's workspace */
	const char *group;              /* course init --group NAME */
	const char *html;               /* report --html FILE ("-": standard output) */
	int csv;                        /* report --csv */
	int verify;                     /* report --verify: every claimed pass judged again on this GPU */
	int roofline;                   /* run, bench --roofline: a roofline chart after the table */
	int hotspots;                   /* run --hotspots: a hotspot pass after the other runs, shown after the table */
	const char *bench_stages;       /* bench --stage A[,B...]: only these stages (and the baseline) */
	const char *bench_pair;         /* bench --pair BASELINE: every stage timed in pairs with it, not its own */
	int pair_with;                  /* bench_pair as a baseline number (-1, LESSON_BASELINE(i)); 0: none */
	int moved_on;                   /* watch: on to a later exercise, whose file is the workspace's */
	enum { PROFILE_BOTH, PROFILE_NCU, PROFILE_NSYS } profile_tool;   /* profile --ncu | --nsys (neither: both) */
	int profile_exec;               /* profile --exec: run the tool */
	const char *tune_over;          /* tune --over A,B: the tunables tuned (default: every one --set leaves free) */
	double tune_budget;             /* tune --budget SECONDS (> 0; 0: not given, 120 s) */
	const char *tune_strategy;      /* tune --strategy grid|random (NULL: grid) */
	int tune_plan, tune_save;       /* tune --plan: the plan only; --save: keep the best as this GPU's */
	int libraries;                  /* show --libraries: the libraries a baseline may call */
	enum { SHOW_TEXT, SHOW_SASS, SHOW_PTX } code;   /* show: the lesson's text, or a stage's SASS or PTX */
	char *const *args; int nargs;   /* the command and its operands */
	char spec[192]; char **own_args;/* LESSON STAGE joined into LESSON/STAGE: args then points at own_args */
} cli;

/* Prints "cudaclimb: " fmt (with arg) and a pointer to --help on stderr; returns EXIT_USAGE. */
int cli_usage_error(const char *fmt, const char *arg);
/* A lesson by id, in any case; EXIT_USAGE with a message (and the nearest id) when none. */
int cli_find_lesson(engine *e, const char *id, const lesson **l);
/* "lesson/stage" into a lesson and a stage index (-1: baseline): ids in any case, a stage by its
 * number (1 is the first); EXIT_USAGE with a message (the stages, or the nearest name) when none. */
int cli_find_stage(engine *e, const char *spec, const lesson **l, int *stage);
/* "WHAT is not in this course (TITLE); its exercises: a/b, c/d" as a usage error (a course is on). */
int cli_not_in_course(engine *e, const char *what);
/* "; did you mean 'x'?" into out for the nearest of n names when near enough (a third of the typed
 * letters wrong at most; a swap of two neighbours counts as one), else "". */
void cli_suggest_name(const char *typed, const char *const *names, int n, char *out, size_t len);
/* --case for lesson l: the case's settings merged into c->sets after the learner's --set (which win),
 * those that apply to stage (LESSON_CASE_ALL_STAGES: all, for a bench); c->case_used names it. 0, or
 * EXIT_USAGE with a message (the nearest case's name) when l has no such case. */
int cli_use_case(cli *c, const lesson *l, int stage);
/* A run's status as the exit code. */
int cli_status_exit(run_status s);

/* cli_exercise.c: exercises, try, watch, hint, reset, solution. */
int cmd_exercises(cli *c, engine *e);
int cmd_try(cli *c, engine *e);
int cmd_watch(cli *c, engine *e);
int cmd_hint(cli *c, engine *e);
int cmd_reset(cli *c, engine *e);
int cmd_solution(cli *c, engine *e);

/* cli_course.c: course init, report. */
int cmd_course(cli *c, engine *e);
int cmd_report(cli *c, engine *e);

/* cli_profile.c: profile LESSON/STAGE [--ncu | --nsys] [--exec]: the stage under Nsight Compute / Systems. */
int cmd_profile(cli *c, engine *e);

/* cli_serve.c: serve [--foreground] [--config FILE] (the lab service) and __judge (its judge); each
 * takes its own argv (the command first) and needs no engine of the caller's. */
int cmd_serve(int argc, char **argv);
int cmd_judge(int argc, char **argv);

/* cli_tune.c: tune LESSON/STAGE [--over A,B] [--budget S] [--strategy grid|random] [--plan] [--save]. */
int cmd_tune(cli *c, engine *e);
/* cli_tune.c: the tunables tune --save kept for stage on this GPU (the progress file, keyed by the GPU's
 * model) appended to sets (at most cap; one --set names already is left out), said as "BM=128 BN=64"
 * into said. Returns how many were added (0 also without a GPU or a record). */
int cli_tune_saved(engine *e, const lesson *l, int stage, plan_setting *sets, int *nsets, int cap, char *said, size_t len);

/* cli_queue.c: queue [init] [N|UUID...] (needs no lessons). */
int cmd_queue(cli *c);
/* cli_cache.c: cache [--prune [--max SIZE]], with its own arguments (argv[0] is "cache"). */
int cmd_cache(int argc, char **argv);
#endif
