/* tui_roofline: the roofline chart in text. A log-log chart (x: flop per byte, y: GFLOP/s) with the
 * memory and compute roofs as lines, the ridge between them, every placed run as a labelled point
 * (its stage's number, B the baseline), the current stage highlighted and marked on both axes, and
 * a line that says where it stands. The chart is rendered into a grid of cells (one glyph and one
 * role each) without curses, so that tests and the CLI read it as text; pane_roofline_draw
 * (tui_panes.h) puts it on the screen for the stage view's f. */
#ifndef CC_TUI_ROOFLINE_H
#define CC_TUI_ROOFLINE_H
#include <stdio.h>
#include "cellgrid.h"
#include "roofline.h"

enum { TUI_ROOFLINE_MAX = 40 };

typedef struct {
	char label[4];                /* "1".."99", "B" for the baseline */
	char name[48];                /* the stage's id, "baseline" */
	int baseline;
	roofline_point p;
} tui_roofline_point;

/* What a chart shows: fill with tui_roofline_init, tui_roofline_add and tui_roofline_current. */
typedef struct {
	int have_roofs; roofline_roofs roofs;
	char no_roofs[256];           /* why there are no roofs (no GPU...) */
	tui_roofline_point pts[TUI_ROOFLINE_MAX]; int n;
	int cur;                      /* the highlighted point's index in pts, -1 none */
	char cur_label[4], cur_name[48];
	char cur_why[200];            /* why the current stage has no point ("not run yet") */
} tui_roofline;

/* rf NULL: no roofs, why says why. */
void tui_roofline_init(tui_roofline *c, const roofline_roofs *rf, const char *why);
/* Adds r as a point; 0, or -1 with why (roofline_place's reason, or a full chart). */
int tui_roofline_add(tui_roofline *c, const char *label, const char *name, int baseline, const run_result *r, char *why, size_t whylen);
/* The stage to highlight: its label and name; point its index in pts (-1 when it has none, why
 * then says why). */
void tui_roofline_current(tui_roofline *c, const char *label, const char *name, int point, const char *why);

/* Roles of the cells, mapped to colours by the screen. */
typedef enum { RC_BLANK, RC_AXIS, RC_TEXT, RC_ROOF, RC_ROOF_LIGHT, RC_POINT, RC_BASE, RC_CURRENT, RC_SUMMARY } tui_roofline_role;


/* Renders c into a new w x h grid (free with cellgrid_free); UTF-8 glyphs (braille lines, box-drawing
 * axes) or ASCII ones. From 80x20 it has room for everything; under about 40x10 only the summary. */
void tui_roofline_render(const tui_roofline *c, int w, int h, int utf8, cellgrid *g);
/* The summary line of the current stage: "stage 9: 46767 GFLOP/s at 332 flop/B, bound by compute,
 * 70% of the roof"; flags add its name ("stage 9 warptile: ...") and which bytes ("332 flop/B (DRAM)"). */
enum { TUI_ROOFLINE_NAME = 1, TUI_ROOFLINE_BYTES = 2 };
void tui_roofline_summary(const tui_roofline *c, int flags, char *buf, size_t n);
/* Renders at w x h and prints every line to f. */
void tui_roofline_print(FILE *f, const tui_roofline *c, int w, int h, int utf8);
#endif
