/* The code pane's machine code views (v): the PTX, coloured, from its first kernel; the SASS under
 * the source line each instruction came from, the classes the lessons talk about coloured and
 * tagged, the counts per class above; and d's SASS against the previous stage's: the counts side
 * by side, then the opcodes' diff. The code comes from the view state (tui_mcode). */
#define NCURSES_WIDECHAR 1
#include <curses.h>
#include <stdio.h>
#include <string.h>
#include "report_sass.h"
#include "tui_panes.h"
#include "tui_widget.h"

#define MAX_COL 24   /* the widest count column of the SASS diff: longer stage ids are cut */

/* Rows are walked in order: each is drawn when first <= row < first + h, and counted always
 * (h = 0 only counts); the row of instruction find goes to found. */
typedef struct { int y, x, w, first, h, row, hs, find, found; } walk;

static int visible(const walk *k) { return k->row >= k->first && k->row < k->first + k->h; }
static int at(const walk *k) { return k->y + k->row - k->first; }

static void text_row(walk *k, int ind, const char *s, tui_role r)
{
	if (visible(k)) widget_textc(at(k), k->x + ind, k->w - ind, s, theme_attr(r));
	k->row++;
}

/* Text wrapped to the width, one row a line. */
static void wrapped_rows(walk *k, const char *s, tui_role r)
{
	text_span sp[32];
	int n = text_wrap(s, k->w - 1, sp, 32);
	for (int i = 0; i < n && i < 32; i++, k->row++)
		if (visible(k)) widget_textn(at(k), k->x + 1, k->w - 1, s + sp[i].off, sp[i].len, theme_attr(r));
}

/* Items separated by two spaces ("LDG 4 (2x128)  STG 2"), laid out in rows without splitting one. */
static void item_rows(walk *k, const char *s, tui_role r)
{
	int col = 0;
	while (*s) {
		const char *end = strstr(s, "  ");
		int len = end ? (int)(end - s) : (int)strlen(s);
		if (col && col + 2 + len > k->w - 1) { k->row++; col = 0; }
		if (visible(k)) widget_textn(at(k), k->x + 1 + col + (col ? 2 : 0), k->w - 1 - col - (col ? 2 : 0), s, (size_t)len, theme_attr(r));
		col += len + (col ? 2 : 0);
		s += len;
		while (*s == ' ') s++;
	}
	k->row++;
}

/* The source line an instruction came from: "  17 | its text", another file's as "file:line". */
static void source_row(walk *k, const tui_app *a, const sass_listing *l, const sass_insn *in)
{
	const source_text *src = &a->sv.src;
	if (visible(k)) {
		int y = at(k);
		if (in->line < 1) {
			widget_text(y, k->x + 1, k->w - 1, "(no source line)", theme_attr(ROLE_DIM));
		} else if (sass_file_is(l, in->file, a->m->l->stages[a->m->cur].kernel_path) && in->line <= src->n) {
			const char *t = src->lines[in->line - 1];
			while (*t == ' ') t++;
			int gw = widget_printf(y, k->x, 9, theme_attr(ROLE_LINENO), "%5d %s ", in->line, theme_glyphs()->v);
			pane_code_line(y, k->x + gw, k->w - gw, t, strlen(t), NULL, ROLE_DIM, k->hs);
		} else {
			const char *name = in->file >= 0 ? strrchr(l->files[in->file], '/') : NULL;
			widget_printfc(y, k->x + 1, k->w - 1, theme_attr(ROLE_DIM), "%s:%d",
			               name ? name + 1 : in->file >= 0 ? l->files[in->file] : "?", in->line);
		}
	}
	k->row++;
}

/* The heat view (H) of the listing shown, when it was sampled from the same code; else NULL. */
static const hot_view *sass_heat(const tui_app *a)
{
	const hot_view *hv = exercise_active(&a->ex) ? NULL : heat_view(&a->sv.heat, a->m);
	const mcode_unit *u = &a->sv.mc.cur;
	return hv && !strcmp(hv->cubin, u->cubin) && hv->sass.n == u->sass.n ? hv : NULL;
}

/* An instruction: its heat cell when hv (its index i in the listing), its offset where there is
 * room, its text in its class's role, its tag at the right edge where it fits after the text. */
static void insn_row(walk *k, const sass_insn *in, const hot_view *hv, int i)
{
	if (i == k->find) k->found = k->row;
	if (visible(k)) {
		int hx = hv ? HEAT_CELL_W + 1 : 0, y = at(k), ow = k->w - hx >= 60 ? 7 : 2, room = k->w - ow - hx;
		tui_role r = tui_sass_role(in), hr;
		char tag[24], cell[32];
		if (hv && i < hv->map.ninsn) {
			heat_cell(hv, &hv->map.insn[i], hv->map.max_insn, theme_glyphs(), &hr, cell, sizeof cell);
			widget_text(y, k->x + 1, HEAT_CELL_W, cell, theme_attr(hr));
		}
		if (ow > 2) widget_printf(y, k->x + hx + 1, 5, theme_attr(ROLE_LINENO), "%04x", in->offset);
		sass_tag(in, tag, sizeof tag);
		int shown = text_width(in->text, strlen(in->text)) - k->hs, tagw = (int)strlen(tag) + 1;
		int tagged = tag[0] && (shown < 0 ? 0 : shown) + 2 + tagw <= room;
		pane_code_line(y, k->x + hx + ow, tagged ? room - tagw - 1 : room, in->text, strlen(in->text), NULL, r, k->hs);
		if (tagged) widget_text(y, k->x + k->w - tagw, tagw, tag, theme_attr(r));
	}
	k->row++;
}

static void sass_walk(const tui_app *a, walk *k)
{
	const sass_listing *l = &a->sv.mc.cur.sass;
	const hot_view *hv = sass_heat(a);
	char head[160], counts[256], heat[400];
	for (int f = 0; f < l->nfuncs; f++) {
		const sass_func *fn = &l->funcs[f];
		if (f) k->row++;
		snprintf(head, sizeof head, "%s: %d instructions", fn->name, fn->count);
		text_row(k, 1, head, ROLE_HEADING);
		item_rows(k, tui_sass_counts(l, fn, counts, sizeof counts), ROLE_NORMAL);
		if (hv && !f) text_row(k, 1, heat_header(hv, k->w < 70 ? 2 : k->w < 100, heat, sizeof heat), ROLE_WARN);
		int file = -2, line = -2;
		for (int i = fn->first; i < fn->first + fn->count && i < l->n; i++) {
			const sass_insn *in = &l->insn[i];
			if (in->file != file || in->line != line) {
				file = in->file;
				line = in->line;
				source_row(k, a, l, in);
			}
			insn_row(k, in, hv, i);
		}
	}
}

/* The counts of each function against the previous stage's, then the opcodes' diff. */
static void diff_walk(const tui_app *a, walk *k)
{
	const tui_mcode *mc = &a->sv.mc;
	const tui_stage *m = a->m;
	const char *now = m->l->stages[m->cur].id, *before = m->l->stages[m->cur - 1].id;
	size_t wn = strlen(now) > strlen(before) ? strlen(now) : strlen(before);
	int cw = wn < 8 ? 8 : wn > MAX_COL ? MAX_COL : (int)wn;   /* the ids head the columns, cut to fit */
	char s[256];
	tui_sass_cmp rows[48];
	for (int f = 0; f < mc->cur.sass.nfuncs; f++) {
		const sass_func *fn = &mc->cur.sass.funcs[f], *pf = tui_sass_match(&mc->prev.sass, &mc->cur.sass, fn);
		if (f) k->row++;
		snprintf(s, sizeof s, "%s against %s", fn->name, pf ? pf->name : "nothing");
		text_row(k, 1, s, ROLE_HEADING);
		snprintf(s, sizeof s, "%-10s %*.*s %*.*s  change", "", cw, cw, now, cw, cw, before);
		text_row(k, 1, s, ROLE_DIM);
		int n = tui_sass_compare(&mc->cur.sass, fn, &mc->prev.sass, pf, rows, 48);
		for (int i = 0; i < n; i++) {
			int d = rows[i].now - rows[i].before;
			int o = snprintf(s, sizeof s, "%-10s %*d %*d", rows[i].label, cw, rows[i].now, cw, rows[i].before);
			if (d && o > 0 && (size_t)o < sizeof s) snprintf(s + o, sizeof s - (size_t)o, "  %+6d", d);
			text_row(k, 1, s, d ? ROLE_NORMAL : ROLE_DIM);
		}
	}
	k->row++;
	snprintf(s, sizeof s, "Opcodes: stage %d %s (-) to stage %d %s (+)", m->cur, before, m->cur + 1, now);
	text_row(k, 1, s, ROLE_HEADING);
	const tui_sass_diff *d = &mc->diff;
	for (int i = 0; i < d->nops; i++, k->row++) {
		if (!visible(k)) continue;
		const diff_op *op = &d->ops[i];
		int del = op->kind == DIFF_DEL, y = at(k), ix = del ? d->ia[op->a] : d->ib[op->b];
		const sass_listing *l = del ? &mc->prev.sass : &mc->cur.sass;
		tui_role r = op->kind == DIFF_ADD ? ROLE_DIFF_ADD : del ? ROLE_DIFF_DEL : ROLE_NORMAL;
		widget_text(y, k->x + 1, 1, op->kind == DIFF_ADD ? "+" : del ? "-" : " ", theme_attr(r));
		if (ix < 0) {
			snprintf(s, sizeof s, "%s:", l->funcs[-1 - ix].name);
			widget_textc(y, k->x + 3, k->w - 3, s, theme_attr(op->kind == DIFF_SAME ? ROLE_HEADING : r));
		} else {
			const char *t = l->insn[ix].text;
			pane_code_line(y, k->x + 3, k->w - 3, t, strlen(t), NULL, r, k->hs);
		}
	}
}

static void ptx_walk(const tui_app *a, walk *k)
{
	const source_text *t = &a->sv.mc.cur.ptx;
	unsigned char roles[4096];
	int gw = 1, in_comment = 0;
	for (int n = t->n; n > 0; n /= 10) gw++;
	for (int i = 0; i < t->n && i < k->first + k->h; i++, k->row++) {
		size_t len = strlen(t->lines[i]);
		if (len > sizeof roles) len = sizeof roles;
		tui_sass_ptx_highlight(t->lines[i], len, &in_comment, roles);
		if (!visible(k)) continue;
		widget_printf(at(k), k->x, gw, theme_attr(ROLE_LINENO), "%*d", gw - 1, i + 1);
		pane_code_line(at(k), k->x + gw + 1, k->w - gw - 1, t->lines[i], len, roles, ROLE_NORMAL, k->hs);
	}
	k->row = t->n;
}

/* What the view shows in place of the code, or NULL when the code is there to show. */
static const char *missing(const tui_app *a, tui_role *r, char *buf, size_t len)
{
	const tui_stage_view *v = &a->sv;
	const mcode_unit *u = &v->mc.cur, *p = &v->mc.prev;
	*r = ROLE_WARN;
	if (u->state == STAGE_CODE_PENDING || (u->state == STAGE_CODE_READY && !(v->code == CODE_PTX ? u->ptx_loaded : u->sass_loaded))) {
		*r = ROLE_HEADING;
		snprintf(buf, len, "compiling%s (the stage's code at its values now)", theme_glyphs()->ellipsis);
		return buf;
	}
	if (u->state == STAGE_CODE_NONE) return u->why;
	if (v->code == CODE_PTX) { *r = ROLE_BAD; return u->ptx_err[0] ? u->ptx_err : NULL; }
	if (u->sass_err[0]) return u->sass_err;
	if (v->code != CODE_SASS_DIFF) return NULL;
	*r = ROLE_DIM;
	if (a->m->cur == 0) return "The first stage: nothing before it to compare with.";
	if (p->state == STAGE_CODE_PENDING || (p->state == STAGE_CODE_READY && !p->sass_loaded)) {
		*r = ROLE_HEADING;
		snprintf(buf, len, "compiling the previous stage%s", theme_glyphs()->ellipsis);
		return buf;
	}
	*r = ROLE_WARN;
	if (p->state == STAGE_CODE_NONE) return p->why;
	if (p->sass_err[0]) return p->sass_err;
	if (!v->mc.diff_made) return "Out of memory comparing the two listings.";
	return NULL;
}

static void body(const tui_app *a, walk *k)
{
	switch (a->sv.code) {
	case CODE_PTX: ptx_walk(a, k); break;
	case CODE_SASS: sass_walk(a, k); break;
	case CODE_SASS_DIFF: diff_walk(a, k); break;
	default: break;
	}
}

int pane_mcode_lines(tui_app *a)
{
	tui_role r;
	char buf[160];
	walk k = { 0, 0, a->sv.r[PANE_CODE].w - 2, 0, 0, 0, 0, -1, -1 };
	if (missing(a, &r, buf, sizeof buf))
		return 0;
	body(a, &k);
	return k.row;
}

void pane_mcode_draw(tui_app *a, tui_rect r, int focused)
{
	const tui_stage *m = a->m;
	const lesson_stage *st = &m->l->stages[m->cur];
	const tui_stage_view *v = &a->sv;
	const mcode_unit *u = &v->mc.cur;
	const char *kernel = st->kernel_rel ? st->kernel_rel : "";
	char title[256], buf[160];
	tui_role role;
	if (v->code == CODE_PTX)
		snprintf(title, sizeof title, "PTX %s", kernel);
	else if (v->code == CODE_SASS_DIFF && m->cur == 0)
		snprintf(title, sizeof title, "SASS: no previous stage to compare with");
	else if (v->code == CODE_SASS_DIFF)
		snprintf(title, sizeof title, "SASS changes from stage %d, %s", m->cur, m->l->stages[m->cur - 1].kernel_rel);
	else if (u->state == STAGE_CODE_READY && u->sass_loaded && !u->sass_err[0]) {
		snprintf(title, sizeof title, "SASS %s  (%s, %d instructions)", kernel, u->arch, u->sass.n);
		if (text_width(title, strlen(title)) > r.w - 6)       /* 80 columns: the count kept whole */
			snprintf(title, sizeof title, "SASS %s (%s, %d instr.)", kernel, u->arch, u->sass.n);
	}
	else if (u->state == STAGE_CODE_READY)
		snprintf(title, sizeof title, "SASS %s  (%s)", kernel, u->arch);
	else
		snprintf(title, sizeof title, "SASS %s", kernel);
	widget_box(r.y, r.x, r.h, r.w, title, focused);
	const char *hint = v->code == CODE_PTX ? " v SASS " : v->code == CODE_SASS ? " v source  d diff " : " d listing  v source ";
	int hw = text_width(hint, strlen(hint));
	if (r.w - hw - 4 > text_width(title, strlen(title)) + 6)
		widget_text(r.y, r.x + r.w - hw - 2, hw, hint, theme_attr(ROLE_DIM));
	walk k = { r.y + 1, r.x + 1, r.w - 2, v->scroll[PANE_CODE], r.h - 2, 0, v->hscroll, -1, -1 };
	const char *why = missing(a, &role, buf, sizeof buf);
	if (!why && v->code == CODE_SASS && sass_heat(a)) {   /* scrolled to the hottest instruction: no empty rows below */
		int total = pane_mcode_lines(a);
		if (k.first > total - k.h) k.first = total - k.h > 0 ? total - k.h : 0;
	}
	if (why) {
		k.first = 0;
		wrapped_rows(&k, why, role);
	} else {
		body(a, &k);
	}
}

int pane_mcode_hot_row(tui_app *a)
{
	const hot_view *hv = a->sv.code == CODE_SASS ? sass_heat(a) : NULL;
	tui_role r;
	char buf[160];
	if (!hv || missing(a, &r, buf, sizeof buf))
		return -1;
	int hot = -1;
	for (int i = 0; i < hv->map.ninsn; i++)
		if (hv->map.insn[i].samples && (hot < 0 || hv->map.insn[i].samples > hv->map.insn[hot].samples)) hot = i;
	walk k = { 0, 0, a->sv.r[PANE_CODE].w - 2, 0, 0, 0, 0, hot, -1 };
	if (hot < 0)
		return -1;
	body(a, &k);
	return k.found < 0 ? -1 : k.found > 4 ? k.found - 4 : 0;
}
