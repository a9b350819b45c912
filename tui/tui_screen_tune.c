/* The tune view (T on a stage): the search's progress and time left, the best so far, and a heat map
 * of x the defaults' time over two tunables, the others at the best; Enter applies a cell's settings
 * to the stage, S keeps the best as this GPU's (the stage then says "tuned on this GPU"; R there resets). */
#define NCURSES_WIDECHAR 1
#include <curses.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "tui_app.h"
#include "tui_widget.h"

enum { CELL_W = 6, LABEL_W = 8 };

static const lesson_tunable *axis(const tui_tune *t, int a)
{
	return &t->l->stages[t->stage].tunables[t->sp.over[a]];
}

/* The first of n values to show in room cells so that the cursor's is among them. */
static int window_first(int cur, int n, int room)
{
	if (n <= room) return 0;
	int f = cur - room / 2;
	return f < 0 ? 0 : f + room > n ? n - room : f;
}

static tui_role cell_role(const tui_tune *t, double score, long pos)
{
	if (pos < 0 || isnan(score)) return ROLE_DIM;
	if (score <= TUNE_FAILED) return ROLE_BAD;
	if (t->se.best >= 0 && score >= 0.95 * t->se.best_score) return ROLE_GOOD;
	return score < 1 ? ROLE_WARN : ROLE_NORMAL;
}

static void draw_map(tui_app *a, tui_tune *t, int y0, int rows)
{
	const lesson_tunable *tx = axis(t, t->ax), *ty = axis(t, t->ay);
	int across = (a->cols - LABEL_W - 2) / CELL_W, down = rows - 2;
	if (down < 1) return;
	int fx = window_first(t->cx, tx->nvalues, across), fy = window_first(t->cy, ty->nvalues, down);
	char buf[64];
	if (t->ax == t->ay)
		widget_printf(y0, 1, a->cols - 2, theme_attr(ROLE_HEADING), "x the defaults' time over %s", tx->name);
	else
		widget_printf(y0, 1, a->cols - 2, theme_attr(ROLE_HEADING), "x the defaults' time: %s across, %s down, the rest at the best",
		              tx->name, ty->name);
	widget_text(y0 + 1, 1, LABEL_W, t->ax == t->ay ? "" : ty->name, theme_attr(ROLE_DIM));
	for (int i = fx; i < tx->nvalues && i < fx + across; i++) {
		snprintf(buf, sizeof buf, "%*" PRId64, CELL_W - 1, tx->values[i]);
		widget_text(y0 + 1, 1 + LABEL_W + (i - fx) * CELL_W, CELL_W, buf, theme_attr(ROLE_HEADING));
	}
	int ny = t->ax == t->ay ? 1 : ty->nvalues;
	for (int j = fy; j < ny && j < fy + down; j++) {
		int y = y0 + 2 + j - fy;
		if (t->ax != t->ay) {
			snprintf(buf, sizeof buf, "%*" PRId64, LABEL_W - 2, ty->values[j]);
			widget_text(y, 1, LABEL_W, buf, theme_attr(ROLE_HEADING));
		}
		for (int i = fx; i < tx->nvalues && i < fx + across; i++) {
			long pos;
			uint64_t idx;
			double s = tui_tune_cell(t, i, t->ax == t->ay ? 0 : j, &pos, &idx);
			tui_tune_cell_text(s, pos, buf, sizeof buf);
			int cur = i == t->cx && (t->ax == t->ay || j == t->cy);
			int best = pos >= 0 && pos == t->se.best;
			unsigned at = cur ? theme_attr(ROLE_SELECT) : theme_attr(cell_role(t, s, pos));
			widget_printf(y, 1 + LABEL_W + (i - fx) * CELL_W, CELL_W, at, "%s%s", buf, best ? "*" : " ");
		}
	}
}

static void tune_draw(tui_app *a)
{
	tui_tune *t = &a->tune;
	int w = a->cols - 2, y = 1;
	char line[600];
	if (!t->open) {
		widget_text(2, 1, w, "no search: T on a stage starts one", 0);
		return;
	}
	const lesson_stage *st = &t->l->stages[t->stage];
	if (t->searching)
		widget_printf(y++, 1, w, theme_attr(ROLE_HEADING), "Tune %s/%s: %s over %d tunables, %zu allowed (%" PRIu64 " refused)", t->l->id,
		              st->id, t->se.st->name, t->sp.nover, t->sp.nok, t->sp.refused);
	else
		widget_printf(y++, 1, w, theme_attr(ROLE_HEADING), "Tune %s/%s: %d tunables, %" PRIu64 " settings", t->l->id, st->id, t->sp.nover,
		              t->sp.total);
	int gw = w / 4 < 10 ? 10 : w / 4;
	widget_gauge(y, 1, gw, tui_tune_frac(t, a->now), -1);
	tui_tune_line(t, a->now, line, sizeof line);
	widget_text(y++, 2 + gw, w - gw - 1, line, t->running ? 0 : theme_attr(ROLE_DIM));
	if (!t->searching) return;          /* the settings are being checked: no scores yet */
	tui_tune_best(t, line, sizeof line);
	widget_wrap(y, 1, w, 2, line, theme_attr(t->se.best >= 0 ? ROLE_GOOD : ROLE_DIM));
	y += 2;
	int rows = a->rows - 2 - y - 1;      /* the cursor's line below the map */
	draw_map(a, t, y, rows);
	long pos;
	uint64_t idx;
	double s = tui_tune_cell(t, t->cx, t->cy, &pos, &idx);
	char txt[256], cell[16];
	tune_space_text(&t->sp, idx, " ", txt, sizeof txt);
	tui_tune_cell_text(s, pos, cell, sizeof cell);
	snprintf(line, sizeof line, "%s: %s", txt,
	         pos < 0 ? "refused by the constraints" : isnan(s) ? "not tried" : s <= TUNE_FAILED ? "did not run right" : "");
	if (pos >= 0 && !isnan(s) && s > TUNE_FAILED) snprintf(line, sizeof line, "%s: x%.3f the defaults' time; Enter applies it", txt, s);
	widget_text(a->rows - 2, 1, w, line, 0);
}

/* The stage's tunables to the setting idx; back to the stage view. */
static void apply(tui_app *a, uint64_t idx, const char *what)
{
	tui_tune *t = &a->tune;
	plan_setting sets[TUNE_MAX_OVER];
	int n = tune_space_sets(&t->sp, idx, sets, 0, TUNE_MAX_OVER);
	char txt[256];
	tune_space_text(&t->sp, idx, " ", txt, sizeof txt);
	if (!a->m || !tui_tune_of(t, a->m) || n <= 0) return;
	tui_tune_stop(t, a->e, "stopped to apply a setting");
	stage_set_tunables(a->m, sets, n, a->now);
	app_save(a);
	snprintf(a->m->msg, sizeof a->m->msg, "%s: %s (R resets)", what, txt);
	screen_stage_sync(a);
	app_switch(a, &tui_screen_stage);
}

/* S: the best as this GPU's defaults for the stage (as tune --save), and on the stage now. */
static void save_best(tui_app *a)
{
	tui_tune *t = &a->tune;
	if (t->se.best < 0 || !a->m || !a->dev || !a->dev->present) {
		snprintf(a->msg, sizeof a->msg, "nothing to save: no setting ran right yet");
		return;
	}
	char sets[256];
	tune_space_text(&t->sp, t->sp.ok[t->se.best], ",", sets, sizeof sets);
	progress_tuned_set(&a->state, a->dev->name, t->l->id, t->l->stages[t->stage].id, sets);
	apply(a, t->sp.ok[t->se.best], "saved as tuned on this GPU");
}

static unsigned tune_key(tui_app *a, int ch)
{
	tui_tune *t = &a->tune;
	if (!t->searching) {
		if (ch == ' ') tui_tune_stop(t, a->e, "stopped (Space)");
		if (ch == 27 || ch == 'h' || ch == KEY_BACKSPACE || ch == 127) { tui_tune_stop(t, a->e, "stopped: left the view"); screen_stage_sync(a); app_switch(a, &tui_screen_stage); }
		return TUI_REDRAW;
	}
	int nx = axis(t, t->ax)->nvalues, ny = t->ax == t->ay ? 1 : axis(t, t->ay)->nvalues;
	long pos;
	uint64_t idx;
	switch (ch) {
	case KEY_LEFT: if (t->cx > 0) t->cx--; break;
	case KEY_RIGHT: if (t->cx + 1 < nx) t->cx++; break;
	case KEY_UP: case 'k': if (t->cy > 0) t->cy--; break;
	case KEY_DOWN: case 'j': if (t->cy + 1 < ny) t->cy++; break;
	case 'x': tui_tune_axis(t, 0); break;
	case 'y': tui_tune_axis(t, 1); break;
	case 'b': tui_tune_cursor_best(t); break;
	case ' ': tui_tune_stop(t, a->e, "stopped (Space)"); break;
	case 'S': save_best(a); break;
	case 'r':
		if (a->m) tui_tune_start(t, a->m, a->now, a->msg, sizeof a->msg);
		break;
	case '\n': case '\r': case KEY_ENTER:
		tui_tune_cell(t, t->cx, t->cy, &pos, &idx);
		if (pos < 0) snprintf(a->msg, sizeof a->msg, "that setting is refused by the constraints");
		else apply(a, idx, "set from the tune view");
		break;
	case 27: case 'h': case KEY_BACKSPACE: case 127:
		tui_tune_stop(t, a->e, "stopped: left the view");
		screen_stage_sync(a);
		app_switch(a, &tui_screen_stage);
		break;
	default: return TUI_IGNORED;
	}
	return TUI_REDRAW;
}

static int tune_hints(tui_app *a, const char *const **pairs)
{
	static const char *const utf8[] = { "\u2190\u2192\u2191\u2193", "cell", "Enter", "apply", "S", "save best", "x/y", "axes",
		"Spc", "stop", "r", "again", "b", "best", "Esc", "back" };
	static const char *const ascii[] = { "arrows", "cell", "Enter", "apply", "S", "save best", "x/y", "axes",
		"Spc", "stop", "r", "again", "b", "best", "Esc", "back" };
	(void)a;
	*pairs = theme_utf8() ? utf8 : ascii;
	return 8;
}

static void tune_resize(tui_app *a) { (void)a; }

const tui_screen tui_screen_tune = {
	.name = "tune",
	.draw = tune_draw,
	.key = tune_key,
	.resize = tune_resize,
	.hints = tune_hints,
};
