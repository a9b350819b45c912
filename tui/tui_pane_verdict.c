/* Exercise mode's verdict pane (in place of the measurements): the verdict word, its headline, each
 * check, your time against the stage kernel's and the bar, the diagnosis; while a try runs, what it
 * is doing. The lines come from exercise_verdict_lines; here they are wrapped and drawn. */
#define NCURSES_WIDECHAR 1
#include <curses.h>
#include <stdio.h>
#include <string.h>
#include "tui_panes.h"
#include "tui_widget.h"

enum { MAX_LINES = 48, MAX_WRAP = 16 };

/* Walks the pane's lines wrapped to w: draws rows first .. first + h - 1 at (y, x) and returns the
 * row count (h = 0 only counts). */
static int verdict_walk(tui_app *a, int y, int x, int w, int first, int h)
{
	const tui_exercise *ex = &a->ex;
	const ex_verdict *v = exercise_verdict(ex);
	exercise_line lines[MAX_LINES];
	text_span sp[MAX_WRAP];
	int state = exercise_state(ex), row = 0, n;
	if (w < 8)
		return 0;
	if (!v) {
		n = 1;
		snprintf(lines[0].text, sizeof lines[0].text, "%s", ex->src_err[0] ? ex->src_err : "No try yet: save your file, or r tries it.");
		lines[0].role = ex->src_err[0] ? ROLE_BAD : ROLE_DIM;
	} else {
		double secs = (state == 0 ? a->now : ex->t_verdict) - ex->t_start;
		n = exercise_verdict_lines(v, state, ex->phase, ex->note, secs, ex->diag, ex->ndiag, lines, MAX_LINES - 1);
		if (state >= 1) {
			snprintf(lines[n].text, sizeof lines[n].text, "(%.2f s; save your file or press r to try again)", secs);
			lines[n++].role = ROLE_DIM;
		}
	}
	for (int i = 0; i < n; i++) {
		const char *t = lines[i].text;
		int k = text_wrap(t, w, sp, MAX_WRAP);
		unsigned at = theme_attr(lines[i].role) | (i == 0 && v && state >= 1 ? A_BOLD : 0);
		for (int j = 0; j < k && j < MAX_WRAP; j++, row++)
			if (row >= first && row < first + h)
				widget_textn(y + row - first, x, w, t + sp[j].off, sp[j].len, at);
	}
	return row;
}

int pane_verdict_lines(tui_app *a, int width)
{
	return verdict_walk(a, 0, 0, width, 0, 0);
}

void pane_verdict_draw(tui_app *a, tui_rect r, int focused)
{
	int first = a->sv.scroll[PANE_MEASURE];
	widget_box(r.y, r.x, r.h, r.w, "Your kernel's verdict", focused);
	int n = verdict_walk(a, r.y + 1, r.x + 2, r.w - 4, first, r.h - 2);
	if (n > r.h - 2)
		widget_printf(r.y + r.h - 1, r.x + r.w - 10, 8, theme_attr(ROLE_DIM), " %d%% ", (first + r.h - 2) * 100 / n);
}
