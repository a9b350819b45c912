/* The roofline view (f on the stage view): the lesson's runs so far as a chart against this GPU's
 * roofs, on the whole screen. The chart comes from tui_roofline.c as a grid of cells; this file
 * builds it from the stage model and draws it with the theme's roles. */
#define NCURSES_WIDECHAR 1
#include <curses.h>
#include <stdio.h>
#include <string.h>
#include "tui_panes.h"
#include "tui_roofline.h"
#include "tui_widget.h"
#include "util.h"

/* The chart of m: every stage with a result, and the baseline (B), the current stage highlighted. */
static void chart_of(const tui_stage *m, tui_roofline *c)
{
	roofline_roofs rf;
	char why[256], label[8], cur_why[200] = "";
	if (!m->dev) tui_roofline_init(c, NULL, "the device is not known yet");
	else if (roofline_roofs_of(m->dev, lesson_top_peak(m->l, m->dev), &rf, why, sizeof why)) tui_roofline_init(c, NULL, why);
	else tui_roofline_init(c, &rf, NULL);
	int cur = -1;
	for (int i = 0; i < m->l->nstages; i++) {
		const stage_slot *sl = &m->slots[i];
		strfmt(label, sizeof label, "%d", i + 1);
		if (!sl->have_last) {
			if (i == m->cur) strfmt(cur_why, sizeof cur_why, "not run yet: r runs it, a every stage and the baseline");
			continue;
		}
		if (tui_roofline_add(c, label, m->l->stages[i].id, 0, &sl->last, why, sizeof why) == 0) {
			if (i == m->cur) cur = c->n - 1;
		} else if (i == m->cur) {
			strfmt(cur_why, sizeof cur_why, "%s", why);
		}
	}
	if (m->have_base) {
		char name[48] = "baseline";
		if (m->l->baseline && m->l->baseline->title)   /* its library call: the title's first word */
			snprintf(name, sizeof name, "%.*s", (int)strcspn(m->l->baseline->title, " ("), m->l->baseline->title);
		tui_roofline_add(c, "B", name, 1, &m->base, why, sizeof why);
	}
	strfmt(label, sizeof label, "%d", m->cur + 1);
	tui_roofline_current(c, label, m->l->stages[m->cur].id, cur, cur_why);
}

static unsigned role_attr(int role)
{
	switch ((tui_roofline_role)role) {
	case RC_AXIS: return theme_attr(ROLE_FRAME);
	case RC_ROOF: return theme_attr(ROLE_HEADING);
	case RC_ROOF_LIGHT: return theme_attr(ROLE_DIM);
	case RC_POINT: return theme_attr(ROLE_KEY);
	case RC_BASE: return theme_attr(ROLE_MARK);
	case RC_CURRENT: return theme_attr(ROLE_SELECT) | A_BOLD;
	case RC_SUMMARY: return theme_attr(ROLE_NORMAL) | A_BOLD;
	default: return theme_attr(ROLE_NORMAL);
	}
}

void pane_roofline_draw(tui_app *a, tui_rect r)
{
	const tui_stage *m = a->m;
	char title[256];
	snprintf(title, sizeof title, "Roofline: %s on %s (f or Esc leaves)", m->l->id,
	         m->dev && m->dev->name[0] ? m->dev->name : "no GPU");
	widget_box(r.y, r.x, r.h, r.w, title, 1);
	if (r.h < 3 || r.w < 3)
		return;
	tui_roofline c;
	cellgrid g;
	chart_of(m, &c);
	tui_roofline_render(&c, r.w - 2, r.h - 2, theme_utf8(), &g);
	widget_grid(r.y + 1, r.x + 1, &g, role_attr);
	cellgrid_free(&g);
}
