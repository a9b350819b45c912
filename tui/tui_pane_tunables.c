/* The tunables pane: the stage's tunables, then the lesson's parameters under a heading, one row
 * each; the list scrolls to keep the selected row in view; the last two lines say why the values
 * are refused, or which keys change them. */
#define NCURSES_WIDECHAR 1
#include <curses.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "tui_panes.h"
#include "tui_param.h"
#include "tui_widget.h"

enum { MSG_LINES = 2, NAME_MAX_W = 16 };

/* List lines: the tunables (or one line saying there are none), then a heading and the parameters. */
static int first_param_line(const tui_stage *m)
{
	int nt = m->l->stages[m->cur].ntunables;
	return (nt ? nt : 1) + 1;
}

int pane_tunables_lines(const tui_stage *m)
{
	return m->l->nparams ? first_param_line(m) + m->l->nparams : first_param_line(m) - 1;
}

/* The values allowed that a refusal lists ("allowed: 32, 64, 128"), into out; 0 when it lists none. */
static int allowed_of(const char *problem, char *out, size_t len)
{
	const char *al = strstr(problem, " (allowed: ");
	if (!al) return 0;
	snprintf(out, len, "%s", al + 2);
	size_t n = strlen(out);
	if (n && out[n - 1] == ')') out[n - 1] = 0;
	return 1;
}

/* The message lines under the list: two, or a refusal's reason on one and the values it allows on
 * as many as they take (up to 4), so that they are never cut. */
static int msg_lines(const tui_stage *m, tui_rect r)
{
	char tail[512];
	text_span sp[8];
	if (!m->problem[0] || !allowed_of(m->problem, tail, sizeof tail)) return MSG_LINES;
	int n = text_wrap(tail, r.w - 6, sp, 8);
	return n + 1 > MSG_LINES ? (n + 1 < 5 ? n + 1 : 5) : MSG_LINES;
}

/* The list's page: the pane less its frame and the message lines. */
static int page_of(const tui_stage *m, tui_rect r)
{
	int ml = msg_lines(m, r);
	return r.h - 2 - ml > 1 ? r.h - 2 - ml : 1;
}

int pane_tunables_top(const tui_app *a, tui_rect r)
{
	const tui_stage *m = a->m;
	int p = stage_row_param(m, m->sel);
	int line = p >= 0 ? first_param_line(m) + p : m->sel;
	int lo = p == 0 ? line - 1 : line;          /* the first parameter shows its heading too */
	return text_keep_visible(a->sv.scroll[PANE_TUNABLES], lo, line, pane_tunables_lines(m), page_of(m, r));
}

int pane_tunables_row_at(const tui_app *a, tui_rect r, int y)
{
	const tui_stage *m = a->m;
	int line = pane_tunables_top(a, r) + y - (r.y + 1), fp = first_param_line(m);
	int nt = m->l->stages[m->cur].ntunables;
	if (y < r.y + 1 || y >= r.y + 1 + page_of(m, r) || line >= pane_tunables_lines(m))
		return -1;
	if (line < fp - 1)
		return nt ? line : -1;
	return line == fp - 1 ? -1 : nt + line - fp;
}

/* Width of values lo..hi of t written with a space between them, and an ellipsis at a cut end. */
static int span_width(const lesson_tunable *t, int lo, int hi)
{
	char buf[32];
	const char *ell = theme_glyphs()->ellipsis;
	int n = ((lo > 0) + (hi < t->nvalues - 1)) * text_width(ell, strlen(ell));
	for (int i = lo; i <= hi; i++)
		n += snprintf(buf, sizeof buf, "%" PRId64, t->values[i]) + (i > lo);
	return n;
}

/* The allowed values of t, the current one stressed: all of them, else those around the current
 * one with an ellipsis where the set goes on ("…128 256 512…"), else "one of N". Never "lo..hi":
 * only the values listed are allowed. */
static void draw_values(int y, int x, int w, const lesson_tunable *t, int64_t cur, unsigned at)
{
	char buf[48];
	const char *ell = theme_glyphs()->ellipsis;
	unsigned dim = at ? at : theme_attr(ROLE_DIM);
	if (t->nvalues == 0)
		return;
	int c = 0, lo = 0, hi = t->nvalues - 1;
	if (span_width(t, lo, hi) > w) {
		while (c < t->nvalues - 1 && t->values[c] < cur) c++;
		lo = hi = c;
		for (int grew = 1; grew;) {          /* one more value on each side while they fit */
			grew = 0;
			if (hi < t->nvalues - 1 && span_width(t, lo, hi + 1) <= w) { hi++; grew = 1; }
			if (lo > 0 && span_width(t, lo - 1, hi) <= w) { lo--; grew = 1; }
		}
		if (span_width(t, lo, hi) > w || hi == lo) {
			snprintf(buf, sizeof buf, "one of %d", t->nvalues);
			widget_text(y, x, w, buf, dim);
			return;
		}
	}
	c = lo > 0 ? widget_text(y, x, w, ell, dim) : 0;
	for (int i = lo; i <= hi; i++) {
		snprintf(buf, sizeof buf, "%" PRId64, t->values[i]);
		unsigned va = t->values[i] == cur ? (at | A_BOLD | A_UNDERLINE) : dim;
		if (i > lo) c += widget_text(y, x + c, w - c, " ", at);
		c += widget_text(y, x + c, w - c, buf, va);
	}
	if (hi < t->nvalues - 1)
		widget_text(y, x + c, w - c, ell, dim);
}

/* Column widths: names across both parts; values per part, wide enough for the typed text. */
typedef struct { int name, tval, pval; } widths;

static widths measure(const tui_stage *m)
{
	const lesson_stage *st = &m->l->stages[m->cur];
	widths wd = { 4, 5, 5 };
	char b[48];
	for (int t = 0; t < st->ntunables; t++) {
		const lesson_tunable *tu = &st->tunables[t];
		int l = (int)strlen(tu->name);
		if (l > wd.name) wd.name = l;
		if (tu->nvalues == 0)
			continue;
		int vl = snprintf(b, sizeof b, "%" PRId64, tu->values[tu->nvalues - 1]) + 2;
		if (vl > wd.tval) wd.tval = vl;
		if (tu->values[0] < 0 && snprintf(b, sizeof b, "%" PRId64, tu->values[0]) + 2 > wd.tval)
			wd.tval = (int)strlen(b) + 2;
	}
	for (int i = 0; i < m->l->nparams; i++) {
		int l = (int)strlen(m->l->params[i].name), vl = (int)strlen(expr_format(m->pv[i], b, sizeof b)) + 2;
		if (l > wd.name) wd.name = l;
		if (vl > wd.pval) wd.pval = vl;
	}
	if (wd.name > NAME_MAX_W) wd.name = NAME_MAX_W;
	int ew = (int)strlen(m->edit) + 4;
	if (m->editing && stage_row_param(m, m->sel) < 0 && ew > wd.tval) wd.tval = ew;
	if (m->editing && stage_row_param(m, m->sel) >= 0 && ew > wd.pval) wd.pval = ew;
	return wd;
}

/* The selection mark, the name and the value (or the text being typed) of row r; returns the
 * column after the value. */
static int row_start(const tui_stage *m, int y, int x, int w, int r, const char *name,
                     const char *value, int namew, int valw, unsigned at)
{
	int sel = r == m->sel, cx = x;
	char v[48];
	widget_clear(y, x - 1, w + 2, at);
	widget_text(y, x - 1, 1, sel ? theme_glyphs()->sel : " ", at);
	cx += widget_printf(y, cx, namew + 1, at | A_BOLD, "%-*s", namew + 1, name);
	if (sel && m->editing)
		snprintf(v, sizeof v, "= %s_", m->edit);
	else
		snprintf(v, sizeof v, "%s", value);
	unsigned vat = sel && m->problem[0] ? theme_attr(ROLE_BAD) | (at ? A_REVERSE : 0) : at;
	return cx + widget_printf(y, cx, x + w - cx, vat, "%-*s", valw, v);
}

static void tunable_row(const tui_stage *m, int y, int x, int w, int t, widths wd, unsigned at)
{
	const lesson_tunable *tu = &m->l->stages[m->cur].tunables[t];
	int64_t cur = m->slots[m->cur].tv[t];
	char v[48];
	snprintf(v, sizeof v, "%" PRId64 "%s", cur, cur == stage_tunable_default(m, m->cur, t) ? "" : "*");
	int cx = row_start(m, y, x, w, t, tu->name, v, wd.name, wd.tval, at);
	draw_values(y, cx + 1, x + w - cx - 1, tu, cur, at);
}

static void param_row(const tui_stage *m, int y, int x, int w, int i, widths wd, unsigned at)
{
	const lesson_param *pa = &m->l->params[i];
	plan_param_info pi;
	char v[48], range[64] = "", err[200];
	int def = param_is_default(m->l, &m->pdev, m->pv, i);
	expr_format(m->pv[i], v, sizeof v);
	if (!def) strcat(v, "*");
	int cx = row_start(m, y, x, w, m->l->stages[m->cur].ntunables + i, pa->name, v, wd.name, wd.pval, at);
	if (plan_param_info_get(m->l, &m->pdev, m->pv, i, &pi, err, sizeof err) == 0)
		param_range_text(&pi, range, sizeof range);
	if (!range[0] && pa->type != DT_I64)
		snprintf(range, sizeof range, "%s", lesson_dtype_name(pa->type));
	widget_text(y, cx + 1, x + w - cx - 1, range, at ? at : theme_attr(ROLE_DIM));
}

/* The last lines: why the values are refused, or the keys of the selected row. */
static void footer(const tui_stage *m, int y, int x, int w, int bottom, int focused)
{
	const tui_glyphs *g = theme_glyphs();
	int p = stage_row_param(m, m->sel), utf8 = theme_utf8();
	if (m->problem[0]) {
		/* The reason, and the values allowed on lines of their own: they stay whole when the
		 * reason has to be cut (with the ellipsis). */
		char tail[512];
		int rows = bottom - y > 1 ? bottom - y : 1;
		widget_text(y, x, 1, g->bad, theme_attr(ROLE_BAD));
		if (!allowed_of(m->problem, tail, sizeof tail) || rows < 2) {
			widget_wrap(y, x + 2, w - 2, rows, m->problem, theme_attr(ROLE_BAD));
			return;
		}
		char head[512];
		snprintf(head, sizeof head, "%.*s", (int)(strstr(m->problem, " (allowed: ") - m->problem), m->problem);
		text_span sp[8];
		int nt = text_wrap(tail, w - 2, sp, 8), nh = text_wrap(head, w - 2, sp, 8);
		if (nt > rows - 1) nt = rows - 1;
		if (nh > rows - nt) nh = rows - nt;
		widget_wrap(y, x + 2, w - 2, nh, head, theme_attr(ROLE_BAD));
		widget_wrap(y + nh, x + 2, w - 2, nt, tail, theme_attr(ROLE_BAD));
		return;
	}
	if (!focused || y >= bottom)
		return;
	const char *hint = m->editing ? "Enter sets, Esc cancels"
	                 : p >= 0 && m->l->params[p].type != DT_I64 ? "digits type a value, R resets"
	                 : p >= 0 ? (utf8 ? "\u2190\u2192 halve/double, digits type" : "<- -> halve/double, digits type")
	                 : utf8 ? "\u2190\u2192 change, digits type, R resets" : "<- -> change, digits type, R resets";
	widget_text(y + (y + 1 < bottom), x, w, hint, theme_attr(ROLE_DIM));
}

void pane_tunables_draw(tui_app *a, tui_rect r, int focused)
{
	const tui_stage *m = a->m;
	const lesson_stage *st = &m->l->stages[m->cur];
	const tui_glyphs *g = theme_glyphs();
	int x = r.x + 2, w = r.w - 4, bottom = r.y + r.h - 1;
	int page = page_of(m, r), top = pane_tunables_top(a, r), n = pane_tunables_lines(m);
	int fp = first_param_line(m);
	widths wd = measure(m);
	widget_box(r.y, r.x, r.h, r.w, "Tunables", focused);
	for (int line = top; line < n && line < top + page; line++) {
		int y = r.y + 1 + line - top, row = line < fp ? line : st->ntunables + line - fp;
		if (line < fp - 1 && st->ntunables == 0)
			widget_text(y, x, w, "this stage has no tunables", theme_attr(ROLE_DIM));
		else if (line == fp - 1)
			widget_text(y, x, w, "Parameters (all stages)", theme_attr(ROLE_HEADING));
		else if (line < fp - 1)
			tunable_row(m, y, x, w, row, wd, row == m->sel && focused ? theme_attr(ROLE_SELECT) : 0);
		else
			param_row(m, y, x, w, row - st->ntunables, wd,
			          row == m->sel && focused ? theme_attr(ROLE_SELECT) : 0);
	}
	if (top > 0)
		widget_printf(r.y, r.x + r.w - 7, 6, theme_attr(ROLE_DIM), " %s%d ", g->up, top);
	if (top + page < n)
		widget_printf(bottom, r.x + r.w - 7, 6, theme_attr(ROLE_DIM), " %s%d ", g->down, n - top - page);
	int y = r.y + 1 + (page < n ? page : n);
	int ml = msg_lines(m, r);
	footer(m, y > bottom - ml ? y : bottom - ml, x, w, bottom, focused);
}
