/* The timeline view (t on the stage view): the current stage's last run laid out in time on the
 * whole screen, one row per stream, copies and kernels in their own glyphs and colours, the bound
 * under it and the steps listed below. The chart comes from timeline.c as a grid of cells; this
 * file draws it with the theme's roles. */
#define NCURSES_WIDECHAR 1
#include <curses.h>
#include <stdio.h>
#include <string.h>
#include "timeline.h"
#include "tui_panes.h"
#include "tui_widget.h"

static unsigned role_attr(int role)
{
	switch ((timeline_role)role) {
	case TLR_AXIS: return theme_attr(ROLE_FRAME);
	case TLR_LABEL: return theme_attr(ROLE_HEADING);
	case TLR_H2D: return theme_attr(ROLE_KEY);
	case TLR_D2H: return theme_attr(ROLE_MARK);
	case TLR_D2D: return theme_attr(ROLE_NUMBER);
	case TLR_KERNEL: return theme_attr(ROLE_GOOD);
	case TLR_MEMSET: return theme_attr(ROLE_DIM);
	case TLR_OVERLAP: return theme_attr(ROLE_WARN);
	case TLR_SUMMARY: return theme_attr(ROLE_NORMAL) | A_BOLD;
	case TLR_DIM: return theme_attr(ROLE_DIM);
	default: return theme_attr(ROLE_NORMAL);
	}
}

/* Why there is nothing to draw for the stage, or NULL when its last run has steps to show. */
static const char *nothing_why(const tui_stage *m, char *buf, size_t n)
{
	const stage_slot *sl = &m->slots[m->cur];
	if (!sl->have_last)
		return m->replay ? "Not shown yet: r shows this stage's recorded run." : "Not run yet: r runs this stage.";
	const run_result *r = &sl->last;
	if (r->status != RUN_OK && r->status != RUN_WRONG) {
		snprintf(buf, n, "Its last run: %s, no timeline. %s", run_status_words(r->status, r->message), r->message);
		return buf;
	}
	return NULL;
}

void pane_timeline_draw(tui_app *a, tui_rect r)
{
	const tui_stage *m = a->m;
	char title[256], why[700];
	snprintf(title, sizeof title, "Timeline: %s %d/%d %s (t or Esc leaves)", m->l->id, m->cur + 1, m->l->nstages,
	         m->l->stages[m->cur].id);
	widget_box(r.y, r.x, r.h, r.w, title, 1);
	if (r.h < 3 || r.w < 3)
		return;
	const char *none = nothing_why(m, why, sizeof why);
	if (none) {
		widget_wrap(r.y + 1, r.x + 2, r.w - 4, r.h - 2, none, theme_attr(ROLE_DIM));
		return;
	}
	cellgrid g;
	timeline_render(&m->slots[m->cur].last, m->dev, r.w - 2, r.h - 2, (theme_utf8() ? TIMELINE_UTF8 : 0) | TIMELINE_STEPS,
	                a->sv.tl_first, &g);
	widget_grid(r.y + 1, r.x + 1, &g, role_attr);
	cellgrid_free(&g);
}
