/* The explanation pane and the tunables pane. */
#define NCURSES_WIDECHAR 1
#include <curses.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "tui_panes.h"
#include "tui_widget.h"

/* Walks the explanation wrapped to width: draws lines first .. first + h - 1 at (y, x) and returns
 * the number of lines in all (h = 0 only counts). */
static int explain_walk(tui_app *a, int width, int y, int x, int first, int h)
{
	const lesson_stage *st = &a->m->l->stages[a->m->cur];
	const stage_slot *sl = &a->m->slots[a->m->cur];
	/* The lesson's claim and the counters' diagnosis side by side: the diagnosis of the last run
	 * that read counters (r runs with counters; live runs do not). */
	char diag_buf[2048] = "", *diag = NULL;
	if (sl->have_last && sl->last.diagnosis[0]) {
		size_t o = 0;   /* one finding per paragraph */
		for (const char *p = sl->last.diagnosis; *p && o + 3 < sizeof diag_buf; p++) {
			diag_buf[o++] = *p;
			if (*p == '\n') diag_buf[o++] = '\n';
		}
		diag_buf[o] = 0;
		diag = diag_buf;
	}
	struct { const char *head, *text; tui_role role; } part[] = {
		{ NULL, st->explain, ROLE_NORMAL },
		{ "Bottleneck", st->bottleneck, ROLE_NORMAL },
		{ "Measured here (hardware counters)", diag, ROLE_WARN },
		{ "Needs", st->req_why, ROLE_WARN },
	};
	text_span sp[256];
	char text[8192];
	int line = 0;
	for (size_t p = 0; p < sizeof part / sizeof *part; p++) {
		if (!part[p].text || !part[p].text[0])
			continue;
		if (part[p].head) {
			if (line > 0) line++;
			if (line >= first && line < first + h)
				widget_text(y + line - first, x, width, part[p].head, theme_attr(ROLE_HEADING));
			line++;
		}
		text_reflow(text, sizeof text, part[p].text);
		int n = text_wrap(text, width, sp, 256);
		for (int i = 0; i < n && i < 256; i++, line++)
			if (line >= first && line < first + h)
				widget_textn(y + line - first, x, width, text + sp[i].off, sp[i].len,
				             theme_attr(part[p].role));
	}
	return line;
}

int pane_explain_lines(tui_app *a, int width)
{
	return explain_walk(a, width, 0, 0, 0, 0);
}

void pane_explain_draw(tui_app *a, tui_rect r, int focused)
{
	const lesson_stage *st = &a->m->l->stages[a->m->cur];
	char title[160];
	snprintf(title, sizeof title, "%d. %s", a->m->cur + 1, st->title ? st->title : st->id);
	widget_box(r.y, r.x, r.h, r.w, title, focused);
	int n = explain_walk(a, r.w - 4, r.y + 1, r.x + 2, a->sv.scroll[PANE_EXPLAIN], r.h - 2);
	if (n > r.h - 2)
		widget_printf(r.y + r.h - 1, r.x + r.w - 10, 8, theme_attr(ROLE_DIM), " %d%% ",
		              (a->sv.scroll[PANE_EXPLAIN] + r.h - 2) * 100 / n);
}

/* The allowed values of t, the current one stressed, or "lo..hi (n values)" when they do not fit. */
static void draw_values(int y, int x, int w, const lesson_tunable *t, int64_t cur, unsigned at)
{
	char buf[48];
	int total = 0;
	if (t->nvalues == 0)
		return;
	for (int i = 0; i < t->nvalues && total <= w; i++)
		total += snprintf(buf, sizeof buf, "%" PRId64, t->values[i]) + (i > 0);
	if (total > w) {
		int n = snprintf(buf, sizeof buf, "%" PRId64 "..%" PRId64 " (%d values)", t->values[0],
		                 t->values[t->nvalues - 1], t->nvalues);
		if (n > w)
			snprintf(buf, sizeof buf, "%" PRId64 "..%" PRId64, t->values[0], t->values[t->nvalues - 1]);
		widget_text(y, x, w, buf, at ? at : theme_attr(ROLE_DIM));
		return;
	}
	for (int i = 0, c = 0; i < t->nvalues; i++) {
		snprintf(buf, sizeof buf, "%" PRId64, t->values[i]);
		unsigned va = t->values[i] == cur ? (at | A_BOLD | A_UNDERLINE) : at ? at : theme_attr(ROLE_DIM);
		c += widget_text(y, x + c, w - c, buf, va);
		c += widget_text(y, x + c, w - c, " ", at);
	}
}

void pane_tunables_draw(tui_app *a, tui_rect r, int focused)
{
	const tui_stage *m = a->m;
	const lesson_stage *st = &m->l->stages[m->cur];
	const tui_glyphs *g = theme_glyphs();
	int x = r.x + 2, w = r.w - 4, y = r.y + 1, bottom = r.y + r.h - 1;
	widget_box(r.y, r.x, r.h, r.w, "Tunables", focused);
	if (st->ntunables == 0) {
		widget_text(y, x, w, "this stage has no tunables", theme_attr(ROLE_DIM));
		return;
	}
	int namew = 4, valw = 5;
	for (int t = 0; t < st->ntunables; t++) {
		const lesson_tunable *tu = &st->tunables[t];
		char b[32];
		if (tu->nvalues == 0)
			continue;
		int l = (int)strlen(tu->name), vl = snprintf(b, sizeof b, "%" PRId64, tu->values[tu->nvalues - 1]) + 2;
		if (l > namew) namew = l;
		if (vl > valw) valw = vl;
		if (tu->values[0] < 0 && snprintf(b, sizeof b, "%" PRId64, tu->values[0]) + 2 > valw)
			valw = (int)strlen(b) + 2;
	}
	if (namew > 16) namew = 16;
	if (m->editing && (int)strlen(m->edit) + 4 > valw) valw = (int)strlen(m->edit) + 4;
	for (int t = 0; t < st->ntunables && y < bottom - 1; t++, y++) {
		const lesson_tunable *tu = &st->tunables[t];
		int sel = t == m->sel, cx = x;
		char v[48];
		unsigned at = sel && focused ? theme_attr(ROLE_SELECT) : 0;
		widget_clear(y, x - 1, w + 2, at);
		widget_text(y, x - 1, 1, sel ? g->sel : " ", at);
		cx += widget_printf(y, cx, namew + 1, at | A_BOLD, "%-*s", namew + 1, tu->name);
		if (sel && m->editing)
			snprintf(v, sizeof v, "= %s_", m->edit);
		else
			snprintf(v, sizeof v, "%" PRId64 "%s", m->slots[m->cur].tv[t],
			         m->slots[m->cur].tv[t] == tu->def ? "" : "*");
		unsigned vat = sel && m->problem[0] ? theme_attr(ROLE_BAD) | (at ? A_REVERSE : 0) : at;
		cx += widget_printf(y, cx, x + w - cx, vat, "%-*s", valw, v);
		draw_values(y, cx + 1, x + w - cx - 1, tu, m->slots[m->cur].tv[t], at);
	}
	y = bottom - 2 < y ? y : bottom - 2;
	if (m->problem[0]) {
		text_span sp[2];
		int n = text_wrap(m->problem, w - 2, sp, 2);
		widget_text(y, x, 1, g->bad, theme_attr(ROLE_BAD));
		for (int i = 0; i < n && i < 2 && y + i < bottom; i++)
			widget_textn(y + i, x + 2, w - 2, m->problem + sp[i].off, sp[i].len, theme_attr(ROLE_BAD));
	} else if (focused && y < bottom) {
		widget_text(y + (y + 1 < bottom), x, w, m->editing ? "Enter sets, Esc cancels"
		            : theme_utf8() ? "\u2190\u2192 change, digits type, R resets"
		            : "<- -> change, digits type, R resets", theme_attr(ROLE_DIM));
	}
}
