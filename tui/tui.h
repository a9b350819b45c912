/* tui: the ncurses front end. It uses only the engine's API (src/engine/engine.h); no CUDA here. */
#ifndef CC_TUI_H
#define CC_TUI_H
#include "engine.h"

typedef struct {
	int no_color;   /* --no-color (NO_COLOR set and non-empty has the same effect) */
	int ascii;      /* --ascii: ASCII boxes and gauges (automatic when the locale is not UTF-8) */
	int frames;     /* > 0: draw this many frames of a fixed tour of the screens, read no input,
	                 * then return 0 (for tests under ASan) */
	const char *work;  /* --work: the learner's exercise workspace; NULL: ex_workspace's default */
	const char *replay;  /* --replay FILE: runs are answered from recorded results; the title says
	                      * so, nothing is live, and no progress is written. NULL: a real GPU (or none) */
} tui_opts;

/* Runs the front end on e until the user quits or a signal (SIGINT, SIGTERM, SIGHUP) arrives.
 * Restores the terminal before returning; does not free e (the caller calls engine_free, which
 * ends the worker). Returns the process exit code: 0, 1 when the terminal could not be set up,
 * or 128 + the signal number. */
int tui_run(engine *e, const tui_opts *o);
#endif
