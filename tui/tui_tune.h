/* tui_tune: the tune view's model (T on a stage): the engine's search (src/engine/tune.h) over the
 * stage's tunables, driven through the engine's queue one pair at a time (the stage at its defaults,
 * then the setting: the medians compared, as `cudaclimb tune` does), within a budget; and the heat
 * map over two of its tunables, the rest at the best so far. No curses: the screen
 * (tui_screen_tune.c) draws what these functions say, and the cells are text, so they can be tested. */
#ifndef CC_TUI_TUNE_H
#define CC_TUI_TUNE_H
#include <stddef.h>
#include "tune.h"
#include "tui_stage.h"

enum {
	TUI_TUNE_BUDGET_S = 60,
	TUI_TUNE_GRID_MAX = 300,       /* a grid this small is searched whole, in order */
	TUI_TUNE_CHECK_STEP = 20000,   /* settings checked against the constraints per tick (about 0.1 s) */
};

typedef struct {
	int open;                          /* a search was started (running or over) */
	int running;                       /* checking the settings or searching, not stopped */
	int building;                      /* checking the settings against the constraints, a step a tick */
	int searching;                     /* se was started (the map has scores to show) */
	const lesson *l; int stage;        /* what it tunes */
	tune_space sp;
	tune_search se;
	double budget, t0, spent;          /* seconds */
	long pos;                          /* the setting in flight, -1 none */
	int def_job, set_job;              /* the pair in flight (0: done or none) */
	double def_ms, set_ms;             /* their medians, 0 until ok */
	run_status set_status;
	size_t ok, failed;                 /* settings that ran right, and not */
	int ax, ay;                        /* the heat map's axes: indices into sp.over (across, down) */
	int cx, cy;                        /* its cursor: value indices of ax and ay */
	char end[160];                     /* why it stopped ("" while running) */
} tui_tune;

void tui_tune_init(tui_tune *t);
/* Cancels the pair in flight (e may be NULL) and frees the search. */
void tui_tune_free(tui_tune *t, engine *e);
/* Starts a search of m's current stage over all its tunables (the lesson's parameters at m's values):
 * the settings are checked against the constraints a step each tick, then searched: the grid when at
 * most TUI_TUNE_GRID_MAX are allowed, else ils from the defaults. 0, or -1 with why in msg (no GPU, a
 * replay, no tunables, a grid too large). */
int tui_tune_start(tui_tune *t, tui_stage *m, double now, char *msg, size_t n);
/* Stops the search (the results stay). */
void tui_tune_stop(tui_tune *t, engine *e, const char *why);
/* An engine event: 1 when the job was the search's. */
int tui_tune_event(tui_tune *t, engine *e, int job, job_phase phase, const run_result *r);
/* Submits the next pair when none is in flight, and ends the search at the budget or when the
 * strategy has no more. Returns 1 when what the view shows changed (the seconds too). */
int tui_tune_tick(tui_tune *t, engine *e, double now);
/* Whether the search is of m's current stage. */
int tui_tune_of(const tui_tune *t, const tui_stage *m);

/* The heat map: the setting at value indices (i of ax, j of ay), the rest at the best so far (the
 * defaults before any): its place among the allowed settings (-1: refused) and its score (NAN:
 * not tried yet; TUNE_FAILED: did not run right), the setting's index in *idx. */
double tui_tune_cell(const tui_tune *t, int i, int j, long *pos, uint64_t *idx);
/* A cell as text, w columns: "1.42" (x the defaults), "  ." untried, "  -" refused, "  x" failed. */
char *tui_tune_cell_text(double score, long pos, char *out, size_t n);
/* Moves an axis to the next tunable (not the other axis); the cursor to the best's value on it. */
void tui_tune_axis(tui_tune *t, int which);
/* The cursor to the best's values on both axes. */
void tui_tune_cursor_best(tui_tune *t);
/* The status lines: the search ("ils over 5 tunables: 21168 allowed, 11600 refused"), its progress
 * (tried, time left) and the best ("x1.50 A=64 B=4 ..."). */
void tui_tune_line(const tui_tune *t, double now, char *out, size_t n);
void tui_tune_best(const tui_tune *t, char *out, size_t n);
/* The fraction of the budget spent (1 when over). */
double tui_tune_frac(const tui_tune *t, double now);
#endif
