/* The explanation pane: the stage's text, its bottleneck, the counters' diagnosis, its needs; in
 * exercise mode first the hints shown so far and what to do. And the reading mode (o): the same on
 * the whole screen, the diagnosis beside the rest when the screen is wide. */
#define NCURSES_WIDECHAR 1
#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "textvals.h"
#include "tui_panes.h"
#include "tui_widget.h"

enum { MAX_HINTS = 8 };
enum { READ_SPLIT_COLS = 140 };   /* from this width the reading mode puts the diagnosis beside */
/* Which parts a walk shows: the text (all but the diagnosis), the diagnosis, or both. */
enum { PART_TEXT = 1, PART_DIAG = 2, PART_ALL = 3 };

typedef struct { const char *head, *text; tui_role role; } explain_part;

/* The reference recording of the lesson shown last (the numbers of its texts before a run here). */
static textvals_ref *ref_cache;
static char ref_lesson[64];
static int ref_tried;

static const textvals_ref *lesson_ref(const lesson *l)
{
	if (!ref_tried || strcmp(ref_lesson, l->id)) {
		textvals_ref_free(ref_cache);
		ref_cache = textvals_ref_find_lesson(l, NULL);
		snprintf(ref_lesson, sizeof ref_lesson, "%s", l->id);
		ref_tried = 1;
	}
	return ref_cache;
}

/* Walks the parts of the explanation wrapped to width: draws lines first .. first + h - 1 at
 * (y, x) and returns the number of lines in all (h = 0 only counts). *diag_line (may be NULL) gets
 * the line of the counters' diagnosis heading (-1: none) and *findings its number of findings.
 * The diagnosis alone (PART_DIAG) goes without its heading (its box's title says it). */
static int explain_walk(tui_app *a, int parts, int width, int y, int x, int first, int h, int *diag_line, int *findings)
{
	const lesson_stage *st = &a->m->l->stages[a->m->cur];
	const stage_slot *sl = &a->m->slots[a->m->cur];
	/* The lesson's claim and the counters' diagnosis side by side: the diagnosis of the last run
	 * that read counters (r runs with counters; live runs do not). */
	const run_findings *fs = sl->have_last ? &sl->last.findings : NULL;
	char fline[sizeof fs->f[0].text + 64], diag_buf[RUN_FINDINGS_MAX * (sizeof fline + 2)], *diag = NULL;
	if (fs && fs->n) {
		size_t o = 0;                   /* one finding per paragraph */
		for (int i = 0; i < fs->n && i < RUN_FINDINGS_MAX && o < sizeof diag_buf; i++) {
			diag_finding_line(&fs->f[i], fline, sizeof fline);
			o += (size_t)snprintf(diag_buf + o, sizeof diag_buf - o, "%s\n\n", fline);
		}
		diag = diag_buf;
	}
	if (diag_line) *diag_line = -1;
	if (findings) *findings = fs ? fs->n : 0;
	explain_part part[5 + MAX_HINTS + 1];
	char heads[MAX_HINTS][32], about[512];
	size_t np = 0;
	if (exercise_active(&a->ex)) {           /* the hints shown so far, the latest first */
		const lesson_exercise *xe = st->exercise;
		int shown = a->ex.prog.hints < xe->nhints ? a->ex.prog.hints : xe->nhints;
		for (int i = shown - 1; i >= 0 && shown - i <= MAX_HINTS; i--) {
			snprintf(heads[np], sizeof heads[np], "Hint %d of %d", i + 1, xe->nhints);
			part[np] = (explain_part){ heads[np], xe->hints[i], ROLE_WARN };
			np++;
		}
		snprintf(about, sizeof about, "Write this stage's kernel in your file: e opens it in your editor, or save it from "
		         "any editor. Every save is compiled, checked at several sizes and timed against the stage's own kernel; "
		         "it passes at %.2fx its speed. h shows a hint (%d in all); d compares yours with the stage's kernel once "
		         "you pass or have seen every hint; x leaves.", xe->pass, xe->nhints);
		part[np++] = (explain_part){ "Exercise", about, ROLE_NORMAL };
	}
	/* The texts' placeholders: this stage's last run here, else the reference recording. */
	const stage_slot *up = a->m->cur > 0 ? &a->m->slots[a->m->cur - 1] : NULL;
	char replayed[200] = "";
	if (a->opts.replay) {
		const char *base = strrchr(a->opts.replay, '/');
		snprintf(replayed, sizeof replayed, "the replayed file %s", base ? base + 1 : a->opts.replay);
	}
	const run_result **last = NULL;    /* every stage's, for {time_vs_ID}: set below when there are texts */
	textvals_src tv = { a->m->l, a->m->cur, { sl->have_last ? &sl->last : NULL, up && up->have_last ? &up->last : NULL,
	                                          a->m->have_base && lesson_stage_baseline(a->m->l, a->m->cur) == -1 ? &a->m->base : NULL,
	                                          a->dev }, NULL, replayed[0] ? replayed : NULL, NULL, NULL, 0 };
	char *ex = NULL, *bn = NULL, note[400] = "";
	if (textvals_has(st->explain) || textvals_has(st->bottleneck)) {
		tv.ref = lesson_ref(a->m->l);
		tv.nlive_stages = a->m->l->nstages;
		last = xcalloc((size_t)tv.nlive_stages + 1, sizeof *last);
		for (int k = 0; k < tv.nlive_stages; k++) last[k] = a->m->slots[k].have_last ? &a->m->slots[k].last : NULL;
		tv.live_stages = last;
		textvals_stage_fill(&tv, st->explain, st->bottleneck, &ex, &bn, note, sizeof note);
	}
	free(last);
	part[np] = (explain_part){ np ? "This stage" : NULL, ex ? ex : st->explain, ROLE_NORMAL };
	np++;
	part[np++] = (explain_part){ "Bottleneck", bn ? bn : st->bottleneck, ROLE_NORMAL };
	if (note[0]) part[np++] = (explain_part){ NULL, note, ROLE_DIM };
	part[np++] = (explain_part){ "Measured here (hardware counters)", diag, ROLE_WARN };
	part[np++] = (explain_part){ "Needs", st->req_why, ROLE_WARN };
	text_span sp[256];
	char text[8192];
	int line = 0;
	for (size_t p = 0; p < np; p++) {
		if (!part[p].text || !part[p].text[0] || !(parts & (part[p].text == diag ? PART_DIAG : PART_TEXT)))
			continue;
		if (part[p].head && parts != PART_DIAG) {
			if (line > 0) line++;
			if (part[p].text == diag && diag_line) *diag_line = line;
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
	free(ex);
	free(bn);
	return line;
}

int pane_explain_lines(tui_app *a, int width)
{
	return explain_walk(a, PART_ALL, width, 0, 0, 0, 0, NULL, NULL);
}

/* A box of the parts in r, from line first; returns the lines in all. */
static int explain_box(tui_app *a, tui_rect r, int focused, const char *title, int parts, int first)
{
	int page = r.h - 2, diag, findings;
	widget_box(r.y, r.x, r.h, r.w, title, focused);
	/* The scroll as stored may be past the end after the pane grew or the text shrank (zoom, a
	 * resize, a run without counters): drawn from the last full page. */
	int n = explain_walk(a, parts, r.w - 4, 0, 0, 0, 0, &diag, &findings);
	if (first > n - page) first = n - page;
	if (first < 0) first = 0;
	explain_walk(a, parts, r.w - 4, r.y + 1, r.x + 2, first, page, NULL, NULL);
	if (diag >= first + page && page >= 2) {   /* the diagnosis is further down: say so */
		widget_clear(r.y + r.h - 2, r.x + 1, r.w - 2, 0);
		widget_printfc(r.y + r.h - 2, r.x + 2, r.w - 4, theme_attr(ROLE_WARN), "%s diagnosis below (%d)",
		               theme_glyphs()->down, findings);
	}
	if (n > page)
		widget_printf(r.y + r.h - 1, r.x + r.w - 10, 8, theme_attr(ROLE_DIM), " %d%% ",
		              n > 0 ? (first + page) * 100 / n : 100);
	return n;
}

void pane_explain_draw(tui_app *a, tui_rect r, int focused)
{
	const lesson_stage *st = &a->m->l->stages[a->m->cur];
	char title[160];
	snprintf(title, sizeof title, "%d. %s", a->m->cur + 1, st->title ? st->title : st->id);
	explain_box(a, r, focused, title, PART_ALL, a->sv.scroll[PANE_EXPLAIN]);
}

/* The reading mode's boxes: the explanation in *text, and when the screen is wide and there is a
 * diagnosis, the diagnosis beside it in *diag (else its height is 0). */
static void reading_layout(tui_app *a, tui_rect r, tui_rect *text, tui_rect *diag)
{
	const stage_slot *sl = &a->m->slots[a->m->cur];
	*text = r;
	*diag = (tui_rect){ r.y, r.x + r.w, 0, 0 };
	if (r.w < READ_SPLIT_COLS || !sl->have_last || !sl->last.findings.n)
		return;
	int dw = r.w * 2 / 5;
	*diag = (tui_rect){ r.y, r.x + r.w - dw, r.h, dw };
	text->w = r.w - dw;
}

int pane_reading_lines(tui_app *a, tui_rect r, int *page)
{
	tui_rect t, d;
	reading_layout(a, r, &t, &d);
	int n = explain_walk(a, d.h ? PART_TEXT : PART_ALL, t.w - 4, 0, 0, 0, 0, NULL, NULL);
	int nd = d.h ? explain_walk(a, PART_DIAG, d.w - 4, 0, 0, 0, 0, NULL, NULL) : 0;
	*page = r.h > 3 ? r.h - 2 : 1;
	return n > nd ? n : nd;
}

void pane_reading_draw(tui_app *a, tui_rect r)
{
	const lesson_stage *st = &a->m->l->stages[a->m->cur];
	char title[200];
	tui_rect t, d;
	reading_layout(a, r, &t, &d);
	snprintf(title, sizeof title, "Reading: %d. %s", a->m->cur + 1, st->title ? st->title : st->id);
	explain_box(a, t, 1, title, d.h ? PART_TEXT : PART_ALL, a->sv.read_scroll);
	if (d.h)
		explain_box(a, d, 0, "Measured here (hardware counters)", PART_DIAG, a->sv.read_scroll);
}
