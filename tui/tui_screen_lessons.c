/* The lesson list: every lesson with its stages and what the learner has done in each. */
#define NCURSES_WIDECHAR 1
#include <curses.h>
#include <stdio.h>
#include <string.h>
#include "tui_app.h"
#include "tui_widget.h"

/* The glyph and role for one stage's progress. */
static const char *progress_glyph(const progress_stage *p, tui_role *role)
{
	const tui_glyphs *g = theme_glyphs();
	*role = ROLE_DIM;
	if (!p) return g->todo;
	if (p->passed) { *role = ROLE_GOOD; return g->done; }
	if (p->failed) { *role = ROLE_BAD; return g->fail; }
	if (p->seen || p->compiled) { *role = ROLE_NORMAL; return g->seen; }
	return g->todo;
}

static int list_height(const tui_app *a)
{
	int h = a->ls->count + 3, max = (a->rows - 2) / 2;
	return h > max ? max : h < 5 ? 5 : h;
}

/* Columns of a lesson row after the title. */
enum { COL_NUM = 5, COL_STAGES = 12, COL_GLYPHS = 11, COL_DONE = 11, COL_BEST = 20 };

/* Whether any lesson has a best result saved: else the "best" column gives its room to the titles. */
static int any_best(tui_app *a)
{
	for (int i = 0; i < a->ls->count; i++) {
		const lesson *l = a->ls->items[i];
		score_metric sm = app_lesson_metric(a, i);
		for (int s = 0; s < l->nstages; s++)
			if (progress_best(progress_get(&a->state, l->id, l->stages[s].id), sm) > 0)
				return 1;
	}
	return 0;
}

static int title_width(tui_app *a, int w)
{
	int t = w - COL_NUM - COL_STAGES - COL_GLYPHS - COL_DONE - (any_best(a) ? COL_BEST : 0);
	return t < 16 ? 16 : t;
}

static void draw_row(tui_app *a, int y, int x, int w, int i)
{
	const lesson *l = a->ls->items[i];
	int sel = i == a->lv.sel, passed = 0, tw = title_width(a, w);
	unsigned at = sel ? theme_attr(ROLE_SELECT) : 0;
	char buf[128];
	widget_clear(y, x, w, at);
	widget_printf(y, x, COL_NUM, at, "%s%2d", sel ? theme_glyphs()->sel : " ", i + 1);
	text_crop(buf, sizeof buf, l->title ? l->title : l->id, tw - 1, theme_glyphs()->ellipsis);
	widget_text(y, x + COL_NUM, tw, buf, at | (sel ? A_BOLD : 0));
	int cx = x + COL_NUM + tw;
	widget_printf(y, cx, COL_STAGES, at, "%3d stages", l->nstages);
	cx += COL_STAGES;
	score_metric sm = app_lesson_metric(a, i);   /* the lesson's own metric, as the CLI scores it */
	double best = 0;
	for (int s = 0; s < l->nstages; s++) {
		const progress_stage *p = progress_get(&a->state, l->id, l->stages[s].id);
		tui_role role;
		const char *gl = progress_glyph(p, &role);
		if (s < COL_GLYPHS - 1)
			widget_text(y, cx + s, 1, gl, sel ? at : theme_attr(role));
		if (p && p->passed) passed++;
		double v = progress_best(p, sm);
		if (v > best) best = v;
	}
	cx += COL_GLYPHS;
	cx += widget_printf(y, cx, COL_DONE, at, "%d/%d done", passed, l->nstages);
	if (best > 0)
		widget_printfc(y, cx, x + w - cx, at, "  best %s %s", text_num(buf, sizeof buf, best), score_unit(sm));
}

static void draw_detail(tui_app *a, int y, int x, int h, int w)
{
	const lesson *l = a->ls->items[a->lv.sel];
	score_metric sm = app_lesson_metric(a, a->lv.sel);
	char sum[4096];
	text_reflow(sum, sizeof sum, l->summary ? l->summary : "");
	/* The stages (with this learner's progress) come before the reading list and take their rows
	 * first: the summary gives way to them, down to 3 lines, when the pane is short, and says where
	 * it is cut (o on the lesson's first stage reads it whole). */
	int keep = h - (l->nstages + 2), lines = keep > 3 ? keep : 3;
	if (lines > h) lines = h;
	int row = widget_wrap(y, x, w, lines, sum, 0);
	if (row + 1 < h) {
		row++;
		widget_text(y + row++, x, w, "Stages:", theme_attr(ROLE_HEADING));
	}
	for (int s = 0; s < l->nstages && row < h; s++) {
		const progress_stage *p = progress_get(&a->state, l->id, l->stages[s].id);
		tui_role role;
		const char *gl = progress_glyph(p, &role);
		char num[32], ms[32];
		widget_text(y + row, x + 1, 1, gl, theme_attr(role));
		int best = p && p->best_ms > 0, bw = 31;
		int c = 3 + widget_printfc(y + row, x + 3, best ? w - 3 - bw - 1 : w - 3, 0, "%d %-14s %s", s + 1,
		                           l->stages[s].id, l->stages[s].title ? l->stages[s].title : "");
		if (best && c + bw + 1 < w)
			widget_printf(y + row, x + w - bw, bw, theme_attr(ROLE_DIM), "%10s %9s %-7s",
			              text_ms(ms, sizeof ms, p->best_ms),
			              text_num(num, sizeof num, progress_best(p, sm)), score_unit(sm));
		int mark = exercise_mark(&a->ex, a->lv.sel, s), end = best && c + bw + 1 < w ? w - bw - 1 : w;
		const char *xg = exercise_mark_glyph(mark, theme_glyphs(), &role);
		if (xg[0] && c + 4 < end)       /* the exercise's mark and its word after the title */
			widget_printf(y + row, x + c + 2, end - c - 2, theme_attr(role), "%s exercise%s%s", xg,
			              mark > EX_NOT_STARTED ? " " : "", mark > EX_NOT_STARTED ? ex_level_name(mark) : "");
		row++;
	}
	if (l->nread_first && row + 2 < h) {
		row++;
		widget_text(y + row++, x, w, "Read first:", theme_attr(ROLE_HEADING));
		for (int i = 0; i < l->nread_first && row < h; i++)
			widget_printfc(y + row++, x, w, 0, "  %s", l->read_first[i]);
	}
}

static void lessons_draw(tui_app *a)
{
	int top = 1, H = a->rows - 2, lh = list_height(a), w = a->cols;
	const lesson_set *ls = a->ls;
	widget_box(top, 0, lh, w, "Lessons", 1);
	if (ls->count == 0) {
		widget_printf(top + 1, 2, w - 4, theme_attr(ROLE_BAD), "No lessons in %s/lessons",
		              ls->root ? ls->root : "?");
	} else {
		int rows = lh - 3;
		widget_printf(top + 1, 1, w - 2, theme_attr(ROLE_DIM), "%*s%-*s%*s%s", COL_NUM, "", title_width(a, w - 2),
		              "Lesson", COL_STAGES, "", "Progress");
		for (int i = a->lv.top; i < ls->count && i < a->lv.top + rows; i++)
			draw_row(a, top + 2 + i - a->lv.top, 1, w - 2, i);
	}
	int nmsg = errlog_count(&a->errlog), dy = top + lh, dh = H - lh - (ls->nerrors || nmsg ? 1 : 0);
	if (ls->count > 0) {
		const lesson *l = ls->items[a->lv.sel];
		widget_box(dy, 0, dh, w, l->title ? l->title : l->id, 0);
		draw_detail(a, dy + 1, 2, dh - 2, w - 4);
	}
	/* Load errors are never printed over the screen: counted here, every one listed on e. */
	if (ls->nerrors)
		widget_printfc(a->rows - 2, 1, w - 2, theme_attr(ROLE_BAD), "%d lesson file%s left out (e lists them): %s",
		               ls->nerrors, ls->nerrors > 1 ? "s" : "", ls->errors[0]);
	else if (nmsg)
		widget_printfc(a->rows - 2, 1, w - 2, theme_attr(ROLE_WARN), "%d line%s written on stderr (e lists them): %s",
		               a->errlog.total, a->errlog.total > 1 ? "s" : "", errlog_line(&a->errlog, nmsg - 1));
}

/* The stage to open: where the learner is in this lesson, else the first one not yet passed. */
static int resume_stage(tui_app *a, int i)
{
	const lesson *l = a->ls->items[i];
	if (a->m && a->lesson == i)
		return a->m->cur;
	for (int s = 0; s < l->nstages; s++) {
		const progress_stage *p = progress_get(&a->state, l->id, l->stages[s].id);
		if (!p || !p->passed) return s;
	}
	return 0;
}

/* Scrolls the list so that the selection shows. */
static void keep_visible(tui_app *a)
{
	int rows = list_height(a) - 3;
	if (a->lv.sel < a->lv.top) a->lv.top = a->lv.sel;
	if (a->lv.sel >= a->lv.top + rows) a->lv.top = a->lv.sel - rows + 1;
	if (a->lv.top < 0) a->lv.top = 0;
}

static unsigned lessons_key(tui_app *a, int ch)
{
	int n = a->ls->count, page = list_height(a) - 3;
	if (ch == 'e') {                /* also when no lesson loaded at all */
		overlay_open(a, OVERLAY_MESSAGES);
		return TUI_REDRAW;
	}
	if (n == 0)
		return TUI_IGNORED;
	if (ch != ' ' && widget_scroll_key(ch, &a->lv.sel, page, n - 1)) {   /* space pages only in text */
		keep_visible(a);
		return TUI_REDRAW;
	}
	switch (ch) {
	case '\n': case '\r': case KEY_ENTER: case KEY_RIGHT:
		app_open_lesson(a, a->lv.sel, resume_stage(a, a->lv.sel));
		return TUI_REDRAW;
	case 'l':                   /* l means live everywhere: it belongs to a stage */
		snprintf(a->msg, sizeof a->msg, "l is live mode on a stage (it keeps re-running the stage); Enter opens the lesson");
		return TUI_REDRAW;
	default: return TUI_IGNORED;
	}
	if (a->lv.sel < 0) a->lv.sel = 0;
	if (a->lv.sel >= n) a->lv.sel = n - 1;
	keep_visible(a);
	return TUI_REDRAW;
}

/* A click on a lesson's row chooses it; on the chosen one, opens it. */
static unsigned lessons_click(tui_app *a, int y, int x)
{
	int row = y - 3, i = a->lv.top + row;           /* the list's rows start under its heading */
	(void)x;
	if (row < 0 || row >= list_height(a) - 3 || i >= a->ls->count)
		return TUI_IGNORED;
	if (i == a->lv.sel) {
		app_open_lesson(a, i, resume_stage(a, i));
		return TUI_REDRAW;
	}
	a->lv.sel = i;
	keep_visible(a);
	return TUI_REDRAW;
}

static int lessons_hints(tui_app *a, const char *const **pairs)
{
	static const char *const h[] = { "Enter", "open", "j/k", "move", "q", "quit", "e", "messages" };
	*pairs = h;
	return a->ls->nerrors || errlog_count(&a->errlog) ? 4 : 3;
}

const tui_screen tui_screen_lessons = {
	.name = "lessons",
	.draw = lessons_draw,
	.key = lessons_key,
	.resize = keep_visible,
	.hints = lessons_hints,
	.click = lessons_click,
};
