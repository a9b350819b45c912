/* tui_heat: the code pane's heat column (H). A hotspot pass of the stage at its values now (a job of
 * its own: checked once, then the program counter sampled, no timing, no counters), laid over the
 * source lines and the SASS (report_hotspots.h's hot_view); the source and SASS views draw a cell
 * beside each line and instruction that has samples, and a header with the hottest line's stall
 * reasons. The view stays while the stage and its values are those it was sampled at. No curses:
 * the cells and the header are text, unit-tested. */
#ifndef CC_TUI_HEAT_H
#define CC_TUI_HEAT_H
#include <stddef.h>
#include "report_hotspots.h"
#include "tui_stage.h"
#include "tui_theme.h"

typedef struct {
	int job;                          /* the pass in flight, 0 when none */
	const lesson *lesson; int stage;  /* what the pass (or the view) is of */
	unsigned key;                     /* the values it was sampled at (stage_values_key) */
	int shown;                        /* the column is on */
	int have_view; hot_view v;        /* the pass's view, once it came (v.why says when it has no data) */
	int sass_jump;                    /* the SASS view is to scroll to the hottest instruction when next shown */
} tui_heat;

/* Cells are this many columns: "100%" and a bar glyph. */
enum { HEAT_CELL_W = 5 };

void heat_init(tui_heat *h);
/* Cancels a pass in flight (e may be NULL) and frees the view; h is then as after heat_init. */
void heat_free(tui_heat *h, engine *e);
/* H on stage m->cur: hides the column when it is shown for the values now; else submits a pass
 * (without a GPU, or in a replay, nothing is submitted). msg gets one line either way: what is
 * sampled, or why nothing can be. */
void heat_toggle(tui_heat *h, tui_stage *m, char *msg, size_t n);
/* The engine's listener, forwarded: 0 when job is not the heat's pass; else 1, and when it is done
 * the view is made and msg says what came (the hottest line and its stall reasons) or why nothing;
 * 2 when a view with samples just came (the source view may scroll to heat_hot_row). */
int heat_event(tui_heat *h, int job, job_phase phase, const run_result *r, char *msg, size_t n);
/* The source view's scroll that shows the hottest line with a few lines above it (0 at the top). */
int heat_hot_row(const tui_heat *h);
/* The view to draw beside stage m->cur's code at its values now, or NULL (not shown, another stage
 * or values, a pass on its way, or one that brought no data). */
const hot_view *heat_view(const tui_heat *h, const tui_stage *m);

/* A tally's cell: its share in 4 columns ("55%", "<1%", "100%"), then a glyph of g's eighths
 * scaled by max (the largest tally of its kind); "" for no samples. *role gets the colour: the
 * hottest shares stand out. Returns out. */
char *heat_cell(const hot_view *v, const hot_tally *t, uint64_t max, const tui_glyphs *g, tui_role *role, char *out, size_t n);
/* The header: "hotspots: 48210 samples; line 21 70%: short scoreboard (shared memory / MIO
 * result) 71%, ..." at width 0; at 1 the reasons' labels ("shared mem 71%, MIO queue 21%"); at 2
 * also without the samples ("line 21 70%: shared mem 71%, MIO queue 21%"). Returns out. */
char *heat_header(const hot_view *v, int narrow, char *out, size_t n);
/* The hottest lines' reasons for beside them: "shared mem 71%, MIO queue 21%" for a line with at
 * least a tenth of the samples that is among the three hottest, else "". Returns out. */
char *heat_beside(const hot_view *v, int line, char *out, size_t n);
#endif
