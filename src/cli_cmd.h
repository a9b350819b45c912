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
	const char *archs;
	const char *work;               /* --work DIR: the learner's workspace */
	char *const *args; int nargs;   /* the command and its operands */
} cli;

/* Prints "cudaclimb: " fmt (with arg) and a pointer to --help on stderr; returns EXIT_USAGE. */
int usage_error(const char *fmt, const char *arg);
/* "lesson/stage" into a lesson and a stage index (-1: baseline); EXIT_USAGE with a message. */
int find_stage(engine *e, const char *spec, const lesson **l, int *stage);
/* A run's status as the exit code. */
int status_exit(run_status s);

/* cli_exercise.c: exercises, try, watch, hint, reset, solution. */
int cmd_exercises(cli *c, engine *e);
int cmd_try(cli *c, engine *e);
int cmd_watch(cli *c, engine *e);
int cmd_hint(cli *c, engine *e);
int cmd_reset(cli *c, engine *e);
int cmd_solution(cli *c, engine *e);
#endif
