/* The stage view: layout of the panes, focus and scrolling, and the keys of a stage. */
#define NCURSES_WIDECHAR 1
#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "timeline.h"
#include "tui_panes.h"
#include "tui_widget.h"

static void free_sources(tui_stage_view *v)
{
	source_free(&v->src);
	source_free(&v->prev_src);
	free(v->diff);
	v->diff = NULL;
	v->ndiff = -1;
	v->src_err[0] = 0;
}

static int machine_view(code_view c)
{
	return c == CODE_PTX || c == CODE_SASS || c == CODE_SASS_DIFF;
}

/* The PTX and SASS views' code, brought up to date (a compile submitted when there is none). */
static void code_sync(tui_app *a)
{
	tui_stage_view *v = &a->sv;
	if (!a->m || exercise_active(&a->ex) || !machine_view(v->code))
		return;
	char before[256];
	int had = v->mc.cur.ptx_loaded;
	snprintf(before, sizeof before, "%s", v->mc.cur.cubin);
	mcode_sync(&v->mc, a->m, v->code == CODE_PTX ? MC_PTX : v->code == CODE_SASS ? MC_SASS : MC_SASS_DIFF, a->now);
	if (v->code == CODE_PTX && v->mc.cur.ptx_loaded && (!had || strcmp(before, v->mc.cur.cubin)))
		v->scroll[PANE_CODE] = v->mc.cur.ptx_entry > 1 ? v->mc.cur.ptx_entry - 1 : 0;   /* the kernel, not the header */
	int hot = v->heat.sass_jump ? pane_mcode_hot_row(a) : -1;
	if (hot >= 0) {                       /* the first look at the SASS after H: its hottest instruction */
		v->scroll[PANE_CODE] = hot;
		v->heat.sass_jump = 0;
	}
}

/* The stage's kernel and the previous stage's (for the diff), loaded again when the stage changed
 * or a file changed on disk. */
static void sources_sync(tui_app *a)
{
	tui_stage_view *v = &a->sv;
	const tui_stage *m = a->m;
	char err[256];
	if (!m)
		return;
	const lesson_stage *st = &m->l->stages[m->cur];
	if (v->src_stage == m->cur) {          /* the same stage: again only when a file changed on disk */
		if (!source_stale(&v->src, st->kernel_path) &&
		    (m->cur == 0 || !source_stale(&v->prev_src, m->l->stages[m->cur - 1].kernel_path)))
			return;
		code_view keep = v->code;
		free_sources(v);
		if (source_load(&v->src, st->kernel_path, v->src_err, sizeof v->src_err) == 0 && m->cur > 0 &&
		    source_load(&v->prev_src, m->l->stages[m->cur - 1].kernel_path, err, sizeof err) == 0)
			v->ndiff = diff_lines(v->prev_src.lines, v->prev_src.n, v->src.lines, v->src.n, &v->diff);
		v->code = keep;
		return;
	}
	free_sources(v);
	v->src_stage = m->cur;
	memset(v->scroll, 0, sizeof v->scroll);
	v->hscroll = 0;
	if (source_load(&v->src, st->kernel_path, v->src_err, sizeof v->src_err) == 0 && m->cur > 0 &&
	    source_load(&v->prev_src, m->l->stages[m->cur - 1].kernel_path, err, sizeof err) == 0)
		v->ndiff = diff_lines(v->prev_src.lines, v->prev_src.n, v->src.lines, v->src.n, &v->diff);
	const stage_slot *sl = &m->slots[m->cur];
	if (sl->have_last && sl->last.status == RUN_COMPILE_ERROR)
		v->code = CODE_LOG;
	else if (!machine_view(v->code))      /* PTX and SASS stay open from stage to stage */
		v->code = CODE_SOURCE;
}

void screen_stage_sync(tui_app *a)
{
	sources_sync(a);
	code_sync(a);
}

/* Splits the screen between the panes (or gives it all to the focused one when zoomed). The
 * explanation keeps a quarter of the height (at least 5 lines); what it lacks comes first from the
 * tunables pane (which scrolls) down to TUN_MIN, then the ladder, then the tunables pane again. */
static void layout(tui_app *a)
{
	enum { TUN_MIN = 10 };              /* 6 rows of the list and the 2 message lines */
	tui_stage_view *v = &a->sv;
	int y = 1, H = a->rows - 2, W = a->cols;
	if (v->zoom) {
		for (int p = 0; p < PANE_COUNT; p++)
			v->r[p] = (tui_rect){ 0, 0, 0, 0 };
		v->r[v->focus] = (tui_rect){ y, 0, H, W };
		return;
	}
	int lw = W * 2 / 5;
	lw = lw < 32 ? 32 : lw > 60 ? 60 : lw;
	int th = pane_tunables_lines(a->m) + 4, lh = a->m->l->nstages + 4, emin = H / 4 > 5 ? H / 4 : 5;
	/* Narrow (below 100 columns) the left column is stacked by the focus: the explanation keeps 8
	 * lines of text unless the tunables or the ladder have the focus, which then take the room. */
	int stacked = W < 100 && v->focus != PANE_TUNABLES && v->focus != PANE_LADDER;
	if (stacked && emin < 10) emin = 10;
	if (th < 5) th = 5;
	int eh = H - th - lh;
	while (stacked && eh < emin && th > 7) { th--; eh++; }
	while (eh < emin && th > TUN_MIN) { th--; eh++; }
	while (eh < emin && lh > 5) { lh--; eh++; }
	while (eh < emin && th > 5) { th--; eh++; }
	eh = H - th - lh;
	int mh = 12, ch = H - mh;
	if (ch < 6) { ch = 6; mh = H - ch; }
	v->r[PANE_EXPLAIN] = (tui_rect){ y, 0, eh, lw };
	v->r[PANE_TUNABLES] = (tui_rect){ y + eh, 0, th, lw };
	v->r[PANE_LADDER] = (tui_rect){ y + eh + th, 0, lh, lw };
	v->r[PANE_CODE] = (tui_rect){ y, lw, ch, W - lw };
	v->r[PANE_MEASURE] = (tui_rect){ y + ch, lw, mh, W - lw };
}

static void stage_draw(tui_app *a)
{
	if (a->m && a->sv.roofline) {
		pane_roofline_draw(a, (tui_rect){ 1, 0, a->rows - 2, a->cols });
		return;
	}
	if (a->m && a->sv.timeline) {
		pane_timeline_draw(a, (tui_rect){ 1, 0, a->rows - 2, a->cols });
		return;
	}
	if (a->m && a->sv.reading) {
		pane_reading_draw(a, (tui_rect){ 1, 0, a->rows - 2, a->cols });
		return;
	}
	static void (*const draw[PANE_COUNT])(tui_app *, tui_rect, int) = {
		[PANE_EXPLAIN] = pane_explain_draw, [PANE_CODE] = pane_code_draw,
		[PANE_TUNABLES] = pane_tunables_draw, [PANE_MEASURE] = pane_measure_draw,
		[PANE_LADDER] = pane_ladder_draw,
	};
	if (!a->m)
		return;
	layout(a);
	for (int p = 0; p < PANE_COUNT; p++)
		if (a->sv.r[p].h > 0)
			(p == PANE_MEASURE && exercise_active(&a->ex) ? pane_verdict_draw : draw[p])(a, a->sv.r[p], p == a->sv.focus);
}

static void stage_resize(tui_app *a)
{
	a->sv.hscroll = 0;
}

/* Lines a pane can scroll through, and its page. */
static int pane_extent(tui_app *a, int p, int *page)
{
	tui_rect r = a->sv.r[p];
	*page = r.h > 3 ? r.h - 2 : 1;
	switch (p) {
	case PANE_EXPLAIN: return pane_explain_lines(a, r.w - 4);
	case PANE_CODE: return pane_code_lines(a);
	case PANE_MEASURE: return exercise_active(&a->ex) ? pane_verdict_lines(a, r.w - 4) : 0;
	default: return 0;
	}
}

static unsigned scroll_key(tui_app *a, int ch)
{
	tui_stage_view *v = &a->sv;
	int page, n = pane_extent(a, v->focus, &page), *s = &v->scroll[v->focus];
	if (widget_scroll_key(ch, s, page, n - page))
		return TUI_REDRAW;
	switch (ch) {
	case KEY_LEFT: if (v->focus != PANE_CODE) return TUI_IGNORED; v->hscroll -= 8; break;
	case KEY_RIGHT: if (v->focus != PANE_CODE) return TUI_IGNORED; v->hscroll += 8; break;
	default: return TUI_IGNORED;
	}
	if (*s > n - page) *s = n - page;
	if (*s < 0) *s = 0;
	if (v->hscroll < 0) v->hscroll = 0;
	return TUI_REDRAW;
}

static unsigned tunable_key(tui_app *a, int ch)
{
	tui_stage *m = a->m;
	int nt = stage_rows(m);
	if (m->editing) {
		switch (ch) {
		case 27: stage_edit_cancel(m); break;
		case '\n': case '\r': case KEY_ENTER: stage_edit_commit(m, a->now); break;
		case KEY_BACKSPACE: case 127: case 8: stage_edit_backspace(m); break;
		case KEY_LEFT: stage_step(m, -1, a->now); break;    /* on from the value typed or refused */
		case KEY_RIGHT: stage_step(m, +1, a->now); break;
		default: stage_edit_char(m, ch); break;
		}
		return TUI_REDRAW;
	}
	switch (ch) {
	case KEY_UP: case 'k': if (m->sel > 0) m->sel--; break;
	case KEY_DOWN: case 'j': if (m->sel + 1 < nt) m->sel++; break;
	case KEY_LEFT: case '-': stage_step(m, -1, a->now); break;
	case KEY_RIGHT: case '+': case '=': stage_step(m, +1, a->now); break;
	case '\n': case '\r': case KEY_ENTER:
		if (nt) { m->editing = 1; m->edit[0] = 0; stage_validate(m); }
		break;
	default:
		if (ch >= '0' && ch <= '9') { stage_edit_char(m, ch); break; }
		return TUI_IGNORED;
	}
	return TUI_REDRAW;
}

/* Shows stage i from the view (the ladder, a click): the model, the sources, the progress file. */
static void open_stage(tui_app *a, int i)
{
	if (i < 0 || i >= a->m->l->nstages || i == a->m->cur)
		return;
	if (exercise_active(&a->ex))
		stage_exercise_leave(a);               /* the exercise belongs to the stage left */
	stage_select(a->m, i);
	screen_stage_sync(a);
	app_save(a);
}

/* Moves the focus to pane p (the ladder's selection starts at the stage shown). */
static void focus(tui_app *a, int p)
{
	if (p == PANE_LADDER && a->sv.focus != PANE_LADDER)
		a->sv.ladder_sel = a->m->cur;
	a->sv.focus = p;
}

/* The ladder pane's keys while it has the focus: choose a stage, open it. */
static unsigned ladder_key(tui_app *a, int ch)
{
	int n = a->m->l->nstages, *sel = &a->sv.ladder_sel;
	if (!widget_scroll_key(ch, sel, 0, n - 1)) {   /* no paging: the ladder shows every stage */
		if (ch != '\n' && ch != '\r' && ch != KEY_ENTER) return TUI_IGNORED;
		open_stage(a, *sel);
	}
	if (*sel < 0) *sel = 0;
	if (*sel >= n) *sel = n - 1;
	a->sv.scroll[PANE_LADDER] = pane_ladder_top(a, a->sv.r[PANE_LADDER]);
	return TUI_REDRAW;
}

static void toggle_code(tui_app *a, code_view c)
{
	tui_stage_view *v = &a->sv;
	v->code = v->code == c ? CODE_SOURCE : c;
	v->scroll[PANE_CODE] = 0;
	v->hscroll = 0;
	if (v->code == CODE_DIFF)            /* start a few lines above the first change */
		for (int i = 0; i < v->ndiff; i++)
			if (v->diff[i].kind != DIFF_SAME) {
				v->scroll[PANE_CODE] = i > 3 ? i - 3 : 0;
				break;
			}
}

/* v: source, PTX, SASS, source again (from the diff, the log or a sweep: PTX). */
static void cycle_code(tui_app *a)
{
	tui_stage_view *v = &a->sv;
	if (exercise_active(&a->ex)) {
		snprintf(a->msg, sizeof a->msg, "the PTX and SASS are of the stage's own kernel: x leaves exercise mode first");
		return;
	}
	v->code = v->code == CODE_PTX ? CODE_SASS : v->code == CODE_SASS || v->code == CODE_SASS_DIFF ? CODE_SOURCE : CODE_PTX;
	v->scroll[PANE_CODE] = 0;
	v->hscroll = 0;
}

/* H: a hotspot pass of the stage, its heat beside the source or the SASS; or the column hidden. */
static void heat_key(tui_app *a)
{
	tui_stage_view *v = &a->sv;
	if (exercise_active(&a->ex)) {
		snprintf(a->msg, sizeof a->msg, "hotspots are of the stage's own kernel: x leaves exercise mode first");
		return;
	}
	heat_toggle(&v->heat, a->m, a->msg, sizeof a->msg);
	if (!machine_view(v->code) && v->code != CODE_SOURCE) {   /* the column is beside the code */
		v->code = CODE_SOURCE;
		v->scroll[PANE_CODE] = 0;
	}
}

/* The reading mode's keys: scrolling, the stage, leaving. */
static unsigned reading_key(tui_app *a, int ch)
{
	tui_stage_view *v = &a->sv;
	tui_stage *m = a->m;
	int page, n = pane_reading_lines(a, (tui_rect){ 1, 0, a->rows - 2, a->cols }, &page), *s = &v->read_scroll;
	if (widget_scroll_key(ch, s, page, n - page))
		return TUI_REDRAW;
	switch (ch) {
	case 'o': case 27: case KEY_BACKSPACE: case 127: v->reading = 0; return TUI_REDRAW;
	case 'n': case ']': case 'p': case '[': {
		int to = m->cur + (ch == 'n' || ch == ']' ? 1 : -1);
		if (to < 0 || to >= m->l->nstages) return TUI_IGNORED;
		if (exercise_active(&a->ex)) stage_exercise_leave(a);
		stage_select(m, to);
		screen_stage_sync(a);
		app_save(a);
		*s = 0;
		return TUI_REDRAW;
	}
	case 'r': screen_stage_sync(a); m->counters_next = !m->live; stage_run(m, a->now); return TUI_REDRAW;
	default: return TUI_IGNORED;
	}
}

/* The timeline's list of steps scrolled by a key (the pane's grid is the screen less its bars and
 * frame); TUI_IGNORED for other keys. */
static unsigned timeline_scroll(tui_app *a, int ch)
{
	const tui_stage *m = a->m;
	int *s = &a->sv.tl_first, page = a->rows - 4 > 20 ? (a->rows - 4) / 2 : 8;
	if (!widget_scroll_key(ch, s, page, RUN_MAX_STEPS))   /* timeline_first_step keeps it to the steps */
		return TUI_IGNORED;
	if (m->slots[m->cur].have_last)
		*s = timeline_first_step(&m->slots[m->cur].last, m->dev, a->cols - 2, a->rows - 4, *s);
	return TUI_REDRAW;
}

/* The roofline and timeline views' keys: the stage, a run, every stage, the other view, leaving
 * (and the timeline's scrolling). */
static unsigned chart_key(tui_app *a, int ch)
{
	tui_stage *m = a->m;
	if (a->sv.timeline && timeline_scroll(a, ch) == TUI_REDRAW)
		return TUI_REDRAW;
	int *open = a->sv.roofline ? &a->sv.roofline : &a->sv.timeline, own = a->sv.roofline ? 'f' : 't';
	switch (ch) {
	case 27: case KEY_BACKSPACE: case 127: *open = 0; return TUI_REDRAW;
	case 'f': case 't':
		*open = 0;
		if (ch != own) *(ch == 'f' ? &a->sv.roofline : &a->sv.timeline) = 1;
		a->sv.tl_first = 0;
		return TUI_REDRAW;
	case 'n': case ']': case 'p': case '[': {
		int to = m->cur + (ch == 'n' || ch == ']' ? 1 : -1);
		if (to < 0 || to >= m->l->nstages) return TUI_IGNORED;
		if (exercise_active(&a->ex)) stage_exercise_leave(a);
		stage_select(m, to);
		a->sv.tl_first = 0;
		screen_stage_sync(a);
		app_save(a);
		return TUI_REDRAW;
	}
	case 'r': case 'a':
		if (exercise_active(&a->ex)) return stage_exercise_key(a, ch);   /* r tries the learner's kernel there */
		if (ch == 'a') { stage_ladder(m, a->now); return TUI_REDRAW; }
		screen_stage_sync(a);
		m->counters_next = !m->live;
		stage_run(m, a->now);
		return TUI_REDRAW;
	default: return TUI_IGNORED;
	}
}

/* In exercise mode new values try the learner's kernel again, instead of running the stage's. */
static void retry_exercise(tui_app *a)
{
	if (!exercise_active(&a->ex) || !a->m->want_run)
		return;
	a->m->want_run = 0;
	exercise_schedule(&a->ex, a->m->due);
}

/* T: the tune view of this stage: its search when there is one, else a new one. */
static void tune_open(tui_app *a)
{
	if (!tui_tune_of(&a->tune, a->m) && tui_tune_start(&a->tune, a->m, a->now, a->msg, sizeof a->msg) < 0)
		return;
	app_switch(a, &tui_screen_tune);
}

static unsigned stage_key_do(tui_app *a, int ch)
{
	tui_stage *m = a->m;
	tui_stage_view *v = &a->sv;
	layout(a);                          /* pages and extents do not depend on an earlier draw */
	if (v->roofline || v->timeline)
		return chart_key(a, ch);
	if (v->reading)
		return reading_key(a, ch);
	if (v->focus == PANE_TUNABLES && tunable_key(a, ch) != TUI_IGNORED) {
		v->scroll[PANE_TUNABLES] = pane_tunables_top(a, v->r[PANE_TUNABLES]);
		retry_exercise(a);
		return TUI_REDRAW;
	}
	unsigned xf = stage_exercise_key(a, ch);
	if (xf != TUI_IGNORED)
		return xf;
	if (v->focus == PANE_LADDER && ladder_key(a, ch) != TUI_IGNORED)
		return TUI_REDRAW;
	switch (ch) {
	case '\t': focus(a, (v->focus + 1) % PANE_COUNT); break;
	case KEY_BTAB: focus(a, (v->focus + PANE_COUNT - 1) % PANE_COUNT); break;
	case 'n': case ']':
		if (m->cur + 1 < m->l->nstages) { stage_select(m, m->cur + 1); screen_stage_sync(a); app_save(a); }
		break;
	case 'p': case '[':
		if (m->cur > 0) { stage_select(m, m->cur - 1); screen_stage_sync(a); app_save(a); }
		break;
	case 'r': screen_stage_sync(a); m->counters_next = !m->live; stage_run(m, a->now); break;
	case 'l': stage_toggle_live(m, a->now); break;
	case 's': if (stage_sweep(m, a->now) == 0) { v->code = CODE_SWEEP; v->scroll[PANE_CODE] = 0; } break;
	case 'a': stage_ladder(m, a->now); break;
	case 'R': stage_reset(m, a->now); retry_exercise(a); break;
	case 'C': stage_case_next(m, a->now); retry_exercise(a); app_save(a); break;
	case 'd':
		if (v->code == CODE_SASS || v->code == CODE_SASS_DIFF) {   /* the SASS against the previous stage's */
			v->code = v->code == CODE_SASS ? CODE_SASS_DIFF : CODE_SASS;
			v->scroll[PANE_CODE] = 0;
			v->hscroll = 0;
		} else {
			toggle_code(a, CODE_DIFF);
		}
		break;
	case 'v': cycle_code(a); break;
	case 'H': heat_key(a); break;
	case 'T': tune_open(a); break;
	case 'o': v->reading = 1; v->read_scroll = 0; break;
	case 'f': v->roofline = 1; break;
	case 't': v->timeline = 1; v->tl_first = 0; break;
	case 'e': toggle_code(a, CODE_LOG); break;
	case 'z': v->zoom = !v->zoom; break;
	case 27: case KEY_BACKSPACE: case 127: case 'h':
		if (v->zoom) v->zoom = 0;
		else if (v->code != CODE_SOURCE) toggle_code(a, v->code);
		else {
			progress_set_last(&a->state, m->l->id, "");
			app_switch(a, &tui_screen_lessons);
		}
		break;
	default:
		return scroll_key(a, ch);
	}
	return TUI_REDRAW;
}

/* Every key, then the PTX and SASS views' code brought up to date with what it changed (the stage,
 * the values, the view). */
static unsigned stage_key(tui_app *a, int ch)
{
	if (!a->m)
		return TUI_IGNORED;
	unsigned f = stage_key_do(a, ch);
	code_sync(a);
	return f;
}

static int stage_hints(tui_app *a, const char *const **pairs)
{
	/* "? help" is added by the loop, always; what does not fit at the right goes, so the keys that
	 * matter most (run, the next stage, reading, back, the machine code, hotspots) come first: at 80
	 * columns they are what shows */
	static const char *const tun[] = { "\u2190\u2192", "value", "0-9", "type", "Tab", "pane",
		"r", "run", "n/p", "stage", "o", "read", "Esc", "back", "v", "PTX/SASS", "H", "hotspots", "z", "zoom", "d", "diff",
		"l", "live", "s", "sweep", "a", "ladder", "f", "roofline", "t", "timeline", "T", "tune" };
	static const char *const tun_ascii[] = { "<-/->", "value", "0-9", "type", "Tab", "pane",
		"r", "run", "n/p", "stage", "o", "read", "Esc", "back", "v", "PTX/SASS", "H", "hotspots", "z", "zoom", "d", "diff",
		"l", "live", "s", "sweep", "a", "ladder", "f", "roofline", "t", "timeline", "T", "tune" };
	static const char *const reading[] = { "\u2191\u2193 PgUp/PgDn", "scroll", "n/p", "stage", "r", "run", "o/Esc", "leave" };
	static const char *const reading_ascii[] = { "Up/Dn PgUp/PgDn", "scroll", "n/p", "stage", "r", "run", "o/Esc", "leave" };
	static const char *const ladder[] = { "\u2191\u2193", "stage", "Enter", "open", "Tab", "pane", "r", "run",
		"a", "ladder", "z", "zoom", "Esc", "back" };
	static const char *const ladder_ascii[] = { "Up/Dn", "stage", "Enter", "open", "Tab", "pane", "r", "run",
		"a", "ladder", "z", "zoom", "Esc", "back" };
	static const char *const typing[] = { "Enter", "set", "Esc", "cancel", "Backspace", "erase" };
	static const char *const roofline[] = { "n/p", "stage", "r", "run", "a", "every stage", "f/Esc", "leave", "t", "timeline" };
	static const char *const timeline[] = { "n/p", "stage", "r", "run", "a", "every stage", "t/Esc", "leave", "\u2191\u2193", "steps",
		"f", "roofline" };
	static const char *const timeline_ascii[] = { "n/p", "stage", "r", "run", "a", "every stage", "t/Esc", "leave", "Up/Dn", "steps",
		"f", "roofline" };
	enum { NT = sizeof tun / sizeof *tun / 2 };
	if (a->m && a->m->editing) {
		*pairs = typing;
		return 3;
	}
	if (a->m && a->sv.roofline) {
		*pairs = roofline;
		return 5;
	}
	if (a->m && a->sv.timeline) {
		*pairs = theme_utf8() ? timeline : timeline_ascii;
		return 6;
	}
	if (a->m && a->sv.reading) {
		*pairs = theme_utf8() ? reading : reading_ascii;
		return 4;
	}
	if (exercise_active(&a->ex))
		return stage_exercise_hints(a, pairs);
	if (a->sv.focus == PANE_LADDER) {
		*pairs = theme_utf8() ? ladder : ladder_ascii;
		return 7;
	}
	int first = a->sv.focus == PANE_TUNABLES ? 0 : 3;   /* Tab is in the help; at 80 columns v and H fit */
	const char *const *t = (theme_utf8() ? tun : tun_ascii) + first * 2;
	if (!a->m || !a->m->l->stages[a->m->cur].exercise) {
		*pairs = t;
		return NT - first;
	}
	static const char *with_x[2 * NT + 2];      /* the same with "x exercise" after "r run" */
	int n = 0;
	for (int i = 0; i < NT - first; i++) {
		with_x[n++] = t[2 * i];
		with_x[n++] = t[2 * i + 1];
		if (!strcmp(t[2 * i], "r")) { with_x[n++] = "x"; with_x[n++] = "exercise"; }
	}
	*pairs = with_x;
	return n / 2;
}

/* A click focuses the pane under it; on a ladder's row it opens that stage too; on a tunable's
 * row it selects it. */
static unsigned stage_click(tui_app *a, int y, int x)
{
	tui_stage_view *v = &a->sv;
	if (!a->m || v->reading || v->roofline || v->timeline)
		return TUI_IGNORED;
	layout(a);
	for (int p = 0; p < PANE_COUNT; p++) {
		tui_rect r = v->r[p];
		if (r.h <= 0 || y < r.y || y >= r.y + r.h || x < r.x || x >= r.x + r.w)
			continue;
		if (a->m->editing)
			stage_edit_cancel(a->m);
		focus(a, p);
		if (p == PANE_LADDER) {
			int s = pane_ladder_stage_at(a, r, y);
			if (s >= 0) {
				v->ladder_sel = s;
				open_stage(a, s);
			}
		} else if (p == PANE_TUNABLES) {
			int row = pane_tunables_row_at(a, r, y);
			if (row >= 0) a->m->sel = row;
		}
		return TUI_REDRAW;
	}
	return TUI_IGNORED;
}

static void stage_free_view(tui_app *a)
{
	stage_exercise_leave(a);
	free_sources(&a->sv);
	mcode_free(&a->sv.mc);
	heat_free(&a->sv.heat, a->e);
	a->sv.src_stage = -1;
	a->sv.zoom = 0;
	a->sv.reading = 0;
	a->sv.roofline = 0;
	a->sv.timeline = 0;
}

const tui_screen tui_screen_stage = {
	.name = "stage",
	.draw = stage_draw,
	.key = stage_key,
	.resize = stage_resize,
	.hints = stage_hints,
	.click = stage_click,
	.free = stage_free_view,
};
