/* The tunables pane: the stage's tunables, one row each with the allowed values; the last lines
 * say why the values are refused, or which keys change them. */
#define NCURSES_WIDECHAR 1
#include <curses.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "tui_panes.h"
#include "tui_widget.h"

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
