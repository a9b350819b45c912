/* tui_widget: drawing on stdscr: cropped text, boxes with titles, gauge cells, key hints.
 * Everything draws inside the rectangle it is given and never past the screen. */
#ifndef CC_TUI_WIDGET_H
#define CC_TUI_WIDGET_H
#include <stddef.h>
#include "cellgrid.h"
#include "tui_text.h"

/* locale_utf8: the terminal takes UTF-8 (else non-ASCII text is drawn as '?'). Call once. */
void widget_init(int locale_utf8);
/* Draws len bytes of s at (y, x) cropped to maxw columns, control characters as '?'.
 * Returns the columns drawn. For a piece of a text already fitted (wrapped lines, cells). */
int widget_textn(int y, int x, int maxw, const char *s, size_t len, unsigned attr);
/* s at (y, x) within maxw columns (and the screen), cut with the theme's ellipsis ("..." in ASCII)
 * when it does not fit: no text is cut without saying so. widget_textc is the same. */
int widget_text(int y, int x, int maxw, const char *s, unsigned attr);
int widget_textc(int y, int x, int maxw, const char *s, unsigned attr);
/* s wrapped to w columns on at most rows lines from (y, x); what does not fit goes on the last line,
 * cut with the ellipsis. Returns the lines drawn. */
int widget_wrap(int y, int x, int w, int rows, const char *s, unsigned attr);
int widget_printfc(int y, int x, int maxw, unsigned attr, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
/* One part of a line drawn by widget_parts: prio 0 always stays, higher ones go first. */
typedef struct { const char *text; unsigned attr; int prio; } widget_part;
/* Draws parts one after another from (y, x) within maxw columns: when they do not all fit the
 * least important are left out (text_fit_parts), and what is still too long is cut with the
 * ellipsis. Returns the columns drawn. */
int widget_parts(int y, int x, int maxw, const widget_part *parts, int n);
/* printf into a buffer, then widget_text. */
int widget_printf(int y, int x, int maxw, unsigned attr, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
/* Draws chart g with its top-left cell at (y, x), each run of cells of one role as one string in
 * attr_of(role); blank cells (role 0) are left as they are. */
void widget_grid(int y, int x, const cellgrid *g, unsigned (*attr_of)(int role));
/* Spaces from (y, x) over w columns. */
void widget_clear(int y, int x, int w, unsigned attr);
/* A frame around h x w cells at (y, x) with title on the top edge; focused frames stand out. */
void widget_box(int y, int x, int h, int w, const char *title, int focused);
/* n gauge or sparkline cells at (y, x). */
void widget_cells(int y, int x, const text_cell *c, int n);
/* A gauge of width cells (see text_gauge). */
void widget_gauge(int y, int x, int width, double frac, double mark);
/* Key hints "KEY text  KEY text ..." from pairs; stops at maxw. Returns the columns used. */
int widget_hints(int y, int x, int maxw, const char *const *pairs, int npairs, unsigned attr);
/* The scroll keys on an offset or a selection: Up/k and Down/j move *pos by one, PgUp and PgDn/space
 * by page (page < 1: the paging keys are not taken), Home/g to 0, End/G to last; then *pos is kept
 * within 0..last (0 when last < 0). Returns 1 when ch was one of them, else 0 with *pos untouched. */
int widget_scroll_key(int ch, int *pos, int page, int last);
#endif
