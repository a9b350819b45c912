/* tui_panes: the panes of the stage view. Each draws its frame and contents inside r; focused
 * panes have a highlighted frame. They read the app and its model, and change nothing. */
#ifndef CC_TUI_PANES_H
#define CC_TUI_PANES_H
#include "tui_app.h"

void pane_explain_draw(tui_app *a, tui_rect r, int focused);   /* tui_pane_explain.c */
void pane_tunables_draw(tui_app *a, tui_rect r, int focused);  /* tui_pane_tunables.c */
void pane_code_draw(tui_app *a, tui_rect r, int focused);      /* tui_pane_code.c */
void pane_measure_draw(tui_app *a, tui_rect r, int focused);   /* tui_pane_measure.c */
void pane_ladder_draw(tui_app *a, tui_rect r, int focused);
/* Exercise mode's verdict pane, in place of the measurements (tui_pane_verdict.c), and its
 * lines wrapped to width (for scrolling). */
void pane_verdict_draw(tui_app *a, tui_rect r, int focused);
int pane_verdict_lines(tui_app *a, int width);
/* The first stage the ladder pane shows in r (the selected row, or the current stage, in view),
 * and the stage on screen row y, or -1. */
int pane_ladder_top(const tui_app *a, tui_rect r);
int pane_ladder_stage_at(const tui_app *a, tui_rect r, int y);
/* Lines of content of the code pane in its current view (for scrolling). */
int pane_code_lines(tui_app *a);
/* Lines of the explanation wrapped to width. */
int pane_explain_lines(tui_app *a, int width);
/* The reading mode (o) in r: the explanation and bottleneck, the counters' diagnosis beside them
 * when wide (else below), scrolled to a->sv.read_scroll (tui_pane_explain.c); the lines to scroll
 * through (the longest box's) and the page. */
void pane_reading_draw(tui_app *a, tui_rect r);
int pane_reading_lines(tui_app *a, tui_rect r, int *page);
/* The roofline chart (f) in r: every stage of the lesson run so far and the baseline against this
 * GPU's roofs, the current stage highlighted (tui_pane_roofline.c, over tui_roofline.h). */
void pane_roofline_draw(tui_app *a, tui_rect r);
/* The timeline (t) in r: the current stage's last run, one row per stream, its bound and its steps
 * (tui_pane_timeline.c, over timeline.h). */
void pane_timeline_draw(tui_app *a, tui_rect r);
/* Draws line s (len bytes; roles per byte, or one role when roles is NULL) at (y, x) from its
 * column hs, within w columns (tui_pane_code.c). */
void pane_code_line(int y, int x, int w, const char *s, size_t len, const unsigned char *roles, tui_role one, int hs);
/* The code pane's PTX, SASS and SASS diff views (tui_pane_mcode.c), and their lines. */
void pane_mcode_draw(tui_app *a, tui_rect r, int focused);
int pane_mcode_lines(tui_app *a);
/* The SASS view's scroll that shows its hottest instruction (H) with a few rows above it, or -1
 * when the view has no heat. */
int pane_mcode_hot_row(tui_app *a);
/* Lines of the tunables pane's list: the stage's tunables, a heading and the lesson's parameters. */
int pane_tunables_lines(const tui_stage *m);
/* The first list line the tunables pane shows in r: its scroll moved as little as needed to show
 * the selected row. The stage view stores it back after keys that move the selection. */
int pane_tunables_top(const tui_app *a, tui_rect r);
/* The row (stage_rows numbering) on screen row y of the tunables pane in r, or -1. */
int pane_tunables_row_at(const tui_app *a, tui_rect r, int y);
#endif
