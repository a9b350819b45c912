/* The big pane: the kernel source, its diff from the previous stage, the compile log, or a sweep. */
#define NCURSES_WIDECHAR 1
#include <curses.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tui_panes.h"
#include "tui_widget.h"

void pane_code_line(int y, int x, int w, const char *s, size_t len, const unsigned char *roles,
                    tui_role one, int hs)
{
	size_t i = text_skip(s, len, hs);
	int col = 0, cw;
	while (i < len) {
		size_t n = text_char(s + i, len - i, &cw);
		if (col + cw > w) break;
		widget_textn(y, x + col, cw, s + i, n, theme_attr(roles ? (tui_role)roles[i] : one));
		col += cw;
		i += n;
	}
}

/* The kernel line an NVRTC log line points at ("name.cu(12): error: ..."), or 0. */
static int log_ref(const char *line, size_t len)
{
	for (size_t i = 0; i + 3 < len; i++) {
		if (line[i] != '(' || line[i + 1] < '0' || line[i + 1] > '9') continue;
		char *end;
		long n = strtol(line + i + 1, &end, 10);
		if (end < line + len - 1 && end[0] == ')' && end[1] == ':')
			return n > 0 && n < 1000000 ? (int)n : 0;
	}
	return 0;
}

/* Walks the compile log wrapped to w: draws rows first .. first + h - 1; returns the row count.
 * Paths before "file.cu(N)" are dropped, and each line that names a kernel line is followed by
 * that line of the source. */
static int log_walk(const char *text, const source_text *src, int y, int x, int w, int first, int h)
{
	source_text log;
	text_span sp[32];
	int row = 0;
	if (w < 8 || source_from_buffer(&log, text, strlen(text)) < 0)
		return 0;
	for (int i = 0; i < log.n; i++) {
		const char *p = log.lines[i];
		size_t len = strlen(p);
		int ref = log_ref(p, len);
		if (ref > 0) {                          /* "/long/path/strided.cu(8): ..." -> "strided.cu(8): ..." */
			const char *paren = strchr(p, '('), *slash = p;
			for (const char *q = p; q < paren; q++)
				if (*q == '/') slash = q + 1;
			p = slash;
		}
		tui_role role = strstr(p, "error") ? ROLE_BAD : strstr(p, "warning") ? ROLE_WARN : ROLE_NORMAL;
		int n = text_wrap(p, w, sp, 32);
		for (int k = 0; k < n && k < 32; k++, row++)
			if (row >= first && row < first + h)
				widget_textn(y + row - first, x, w, p + sp[k].off, sp[k].len, theme_attr(role));
		if (ref > 0 && ref <= src->n) {
			if (row >= first && row < first + h) {
				int gw = widget_printf(y + row - first, x, w, theme_attr(ROLE_LINENO), "%6d %s ", ref,
				                       theme_glyphs()->v);
				pane_code_line(y + row - first, x + gw, w - gw, src->lines[ref - 1], strlen(src->lines[ref - 1]),
				          NULL, ROLE_DIM, 0);
			}
			row++;
		}
	}
	source_free(&log);
	return row;
}

static int sweep_walk(tui_app *a, int y, int x, int w, int first, int h)
{
	const tui_stage *m = a->m;
	if (m->sweep_tunable < 0)
		return 0;
	const lesson_tunable *t = &m->l->stages[m->sweep_stage].tunables[m->sweep_tunable];
	double best = 0;
	int bi = -1;
	for (int i = 0; i < m->nsweep; i++) {
		const stage_sweep_item *it = &m->sweep[i];
		double v = !m->can_run ? it->occ : m->metric == SCORE_GBPS ? it->gbps : it->gflops;
		if (it->state == SW_DONE && it->status == RUN_OK && v > best) { best = v; bi = i; }
	}
	int lw = (int)strlen(t->name) + 8, vw = 26, bw = w - lw - vw - 2;
	for (int i = 0; i < m->nsweep; i++) {
		if (i < first || i >= first + h) continue;
		const stage_sweep_item *it = &m->sweep[i];
		int row = y + i - first;
		char n[32], ms[32];
		widget_printf(row, x, lw, i == bi ? A_BOLD : 0, "%s=%-6" PRId64, t->name, it->value);
		if (it->state == SW_SKIPPED) {
			widget_printf(row, x + lw, w - lw, theme_attr(ROLE_WARN), "skipped: %s", it->reason);
		} else if (it->state == SW_PENDING) {
			widget_text(row, x + lw, w - lw, "queued", theme_attr(ROLE_DIM));
		} else if (it->status != RUN_OK && it->status != RUN_WRONG) {
			widget_printf(row, x + lw, w - lw, theme_attr(ROLE_BAD), "%s: %s", run_status_words(it->status, it->reason),
			              it->reason);
		} else if (!m->can_run) {
			widget_gauge(row, x + lw, bw, it->occ, -1);
			widget_printf(row, x + lw + bw + 1, vw, 0, "occupancy %3.0f%%, %d regs", it->occ * 100, it->regs);
		} else {
			double v = m->metric == SCORE_GBPS ? it->gbps : it->gflops;
			widget_gauge(row, x + lw, bw, best > 0 ? v / best : 0, -1);
			widget_printf(row, x + lw + bw + 1, vw, i == bi ? theme_attr(ROLE_GOOD) : 0, "%7s %s %s%s",
			              text_num(n, sizeof n, v), stage_metric_unit(m), text_ms(ms, sizeof ms, it->ms),
			              it->status == RUN_WRONG ? " WRONG" : "");
		}
	}
	return m->nsweep;
}

/* A line diff from old to new (in exercise mode: the learner's file to the stage's kernel). */
typedef struct { const diff_op *ops; int n; const source_text *old, *new; } code_diff;

static int diff_walk(const code_diff *df, int hs, int y, int x, int w, int first, int h)
{
	int gw = 7;
	for (int i = 0; i < df->n; i++) {
		if (i < first || i >= first + h) continue;
		const diff_op *d = &df->ops[i];
		int row = y + i - first;
		tui_role role = d->kind == DIFF_ADD ? ROLE_DIFF_ADD : d->kind == DIFF_DEL ? ROLE_DIFF_DEL : ROLE_NORMAL;
		const char *text = d->kind == DIFF_DEL ? df->old->lines[d->a] : df->new->lines[d->b];
		widget_printf(row, x, gw, theme_attr(ROLE_LINENO), "%5d", d->kind == DIFF_DEL ? d->a + 1 : d->b + 1);
		widget_text(row, x + 5, 1, d->kind == DIFF_ADD ? "+" : d->kind == DIFF_DEL ? "-" : " ", theme_attr(role));
		pane_code_line(row, x + gw, w - gw, text, strlen(text), NULL, role, hs);
	}
	return df->n > 0 ? df->n : 0;
}

static code_diff shown_diff(const tui_app *a)
{
	if (exercise_active(&a->ex))
		return (code_diff){ a->ex.diff, a->ex.ndiff, &a->ex.src, &a->ex.kernel };
	return (code_diff){ a->sv.diff, a->sv.ndiff, &a->sv.prev_src, &a->sv.src };
}

/* The source shown: the learner's file in exercise mode, else the stage's kernel. */
static const source_text *shown_src(const tui_app *a)
{
	return exercise_active(&a->ex) ? &a->ex.src : &a->sv.src;
}

/* The compiler's output shown by the log view ("" when none). */
static const char *shown_log(const tui_app *a)
{
	if (exercise_active(&a->ex)) {
		const char *log = exercise_log(&a->ex);
		return log ? log : "";
	}
	const stage_slot *sl = &a->m->slots[a->m->cur];
	if (!sl->have_last) return "";
	return sl->last.log && sl->last.log[0] ? sl->last.log : sl->last.message;
}

/* The compiler's mark on a source line (1-based): ROLE_BAD for an error, ROLE_WARN for a warning,
 * ROLE_NORMAL for none. In exercise mode from the try's messages, else from the stage's last log. */
static tui_role line_mark(const tui_app *a, const int *errs, int nerr, int line)
{
	tui_role role = ROLE_NORMAL;
	if (exercise_active(&a->ex)) {
		for (int k = 0; k < a->ex.ndiag; k++)
			if (a->ex.diag[k].line == line && role != ROLE_BAD) role = a->ex.diag[k].error ? ROLE_BAD : ROLE_WARN;
		return role;
	}
	for (int k = 0; k < nerr; k++)
		if (errs[k] == line) role = ROLE_BAD;
	return role;
}

/* The tunable a line defines ("#define NAME VALUE" with NAME one of the stage's tunables), or -1;
 * *d gets the spans. */
static int tunable_define(const tui_stage *m, const char *line, size_t len, source_macro *d)
{
	const lesson_stage *st = &m->l->stages[m->cur];
	if (!st->ntunables || !source_define(line, len, d))
		return -1;
	for (int t = 0; t < st->ntunables; t++)
		if (strlen(st->tunables[t].name) == d->name_len && !strncmp(line + d->name_off, st->tunables[t].name, d->name_len))
			return t;
	return -1;
}

/* The header of the source view: the tunables go to the compiler as -D (each #define of one shows
 * the value passed). Empty when the stage has none. */
static void defines_header(const tui_stage *m, char *out, size_t len)
{
	const lesson_stage *st = &m->l->stages[m->cur];
	size_t o = 0;
	out[0] = 0;
	if (!st->ntunables)
		return;
	o += (size_t)snprintf(out, len, "tunables passed as -D:");
	for (int t = 0; t < st->ntunables && o < len; t++)
		o += (size_t)snprintf(out + o, len - o, " %s=%" PRId64, st->tunables[t].name, m->slots[m->cur].tv[t]);
}

/* Line i as shown: a tunable's #define carries the value compiled (-DNAME=VALUE wins over the
 * file's), marked, with the file's value after it when it differs. Fills out and roles (from the
 * line's own colouring); returns the length. */
static size_t shown_line(const tui_stage *m, const char *line, size_t len, const unsigned char *hl, char *out,
                         unsigned char *roles, size_t cap)
{
	source_macro d;
	int t = tunable_define(m, line, len, &d);
	if (t < 0) {
		size_t n = len < cap ? len : cap;
		memcpy(out, line, n);
		memcpy(roles, hl, n);
		return n;
	}
	const lesson_tunable *tu = &m->l->stages[m->cur].tunables[t];
	char val[32], file[64], note[160];
	snprintf(val, sizeof val, "%s%" PRId64, d.val_len ? "" : " ", m->slots[m->cur].tv[t]);
	snprintf(file, sizeof file, "%.*s", (int)d.val_len, line + d.val_off);
	int same = !strcmp(val, file);
	snprintf(note, sizeof note, "  %s -D%s=%" PRId64 "%s%s%s", theme_glyphs()->from, tu->name, m->slots[m->cur].tv[t],
	         same ? "" : " (file: ", same ? "" : (file[0] ? file : "none"), same ? "" : ")");
	size_t o = 0, vlen = strlen(val), nlen = strlen(note), rest = d.val_off + d.val_len;
	struct { const char *s; size_t n; int role; const unsigned char *r; } seg[] = {
		{ line, d.val_off, -1, hl }, { val, vlen, ROLE_MARK, NULL }, { note, nlen, ROLE_DIM, NULL },
		{ line + rest, len - rest, -1, hl + rest },
	};
	for (size_t k = 0; k < sizeof seg / sizeof *seg; k++)
		for (size_t i = 0; i < seg[k].n && o < cap; i++, o++) {
			out[o] = seg[k].s[i];
			roles[o] = seg[k].r ? seg[k].r[i] : (unsigned char)seg[k].role;
		}
	return o;
}

static void source_draw(tui_app *a, int y, int x, int w, int first, int h)
{
	const source_text *src = shown_src(a);
	const tui_glyphs *g = theme_glyphs();
	unsigned char hl[4096], roles[4600];
	char text[4600], head[512];
	int in_comment = 0, gw = 1, errs[64], nerr = 0;
	const run_result *r = &a->m->slots[a->m->cur].last;
	if (!exercise_active(&a->ex) && a->m->slots[a->m->cur].have_last && r->status == RUN_COMPILE_ERROR && r->log)
		for (const char *p = r->log; *p && nerr < 64; ) {
			const char *nl = strchr(p, '\n');
			size_t len = nl ? (size_t)(nl - p) : strlen(p);
			if ((errs[nerr] = log_ref(p, len)) > 0) nerr++;
			p += len + (nl != NULL);
		}
	for (int n = src->n; n > 0; n /= 10) gw++;
	defines_header(a->m, head, sizeof head);
	const hot_view *hv = exercise_active(&a->ex) ? NULL : heat_view(&a->sv.heat, a->m);
	char heat[400], cell[32], beside[160];
	int hw = hv ? HEAT_CELL_W + 1 : 0;     /* the heat column (H) after the line numbers */
	if (hv && h > 0) {                     /* its header stays at the top */
		widget_textc(y, x + 1, w - 1, heat_header(hv, w < 70 ? 2 : w < 100, heat, sizeof heat), theme_attr(ROLE_WARN));
		y++; h--;
	}
	int hd = head[0] != 0;                 /* the header is the first line of the view */
	if (hv && first > src->n + hd - h)     /* scrolled to the hottest line: no empty rows below the file */
		first = src->n + hd - h > 0 ? src->n + hd - h : 0;
	if (hd && first == 0 && h > 0) {
		widget_textc(y, x + 1, w - 1, head, theme_attr(ROLE_DIM));
		y++; h--;
	} else if (hd) {
		first--;
	}
	for (int i = 0; i < src->n && i < first + h; i++) {
		size_t len = strlen(src->lines[i]);
		if (len > sizeof hl) len = sizeof hl;
		source_highlight(src->lines[i], len, &in_comment, hl);
		if (i < first) continue;
		tui_role mark = line_mark(a, errs, nerr, i + 1);
		widget_printf(y + i - first, x, gw, theme_attr(mark != ROLE_NORMAL ? mark : ROLE_LINENO), "%*d", gw - 1, i + 1);
		if (mark != ROLE_NORMAL)        /* the gutter's marker: the line the compiler points at */
			widget_text(y + i - first, x + gw, 1, mark == ROLE_BAD ? g->bad : g->warn, theme_attr(mark));
		size_t n = shown_line(a->m, src->lines[i], len, hl, text, roles, sizeof text);
		if (hv && i + 1 <= hv->map.nlines) {
			tui_role hr;
			heat_cell(hv, &hv->map.line[i + 1], hv->map.max_line, g, &hr, cell, sizeof cell);
			widget_text(y + i - first, x + gw + 1, HEAT_CELL_W, cell, theme_attr(hr));
		}
		pane_code_line(y + i - first, x + gw + 1 + hw, w - gw - 1 - hw, text, n, roles, ROLE_NORMAL, a->sv.hscroll);
		/* the hottest lines' stall reasons at the right, where the code leaves room */
		if (hv) heat_beside(hv, i + 1, beside, sizeof beside);
		int bw = hv ? text_width(beside, strlen(beside)) : 0;
		int fw = text_width(g->from, strlen(g->from)) + 1;
		if (bw && gw + 1 + hw + text_width(text, n) - a->sv.hscroll + 2 + fw + bw <= w)
			widget_printf(y + i - first, x + w - bw - fw - 1, bw + fw, theme_attr(ROLE_WARN), "%s %s", g->from, beside);
	}
}

int pane_code_lines(tui_app *a)
{
	code_diff df = shown_diff(a);
	switch (a->sv.code) {
	case CODE_SOURCE: return shown_src(a)->n + (a->m->l->stages[a->m->cur].ntunables > 0) +
	                         (!exercise_active(&a->ex) && heat_view(&a->sv.heat, a->m) != NULL);
	case CODE_DIFF: return df.n > 0 ? df.n : 0;
	case CODE_LOG: return log_walk(shown_log(a), shown_src(a), 0, 0, a->sv.r[PANE_CODE].w - 3, 0, 0);
	case CODE_SWEEP: return sweep_walk(a, 0, 0, 0, 0, 0);
	case CODE_PTX: case CODE_SASS: case CODE_SASS_DIFF: return exercise_active(&a->ex) ? 0 : pane_mcode_lines(a);
	}
	return 0;
}

/* Exercise mode's code pane: the learner's file, its diff against the stage's kernel, or the
 * compiler's output for it. */
static void exercise_draw(tui_app *a, tui_rect r, int focused)
{
	const tui_exercise *ex = &a->ex;
	const lesson_stage *st = &a->m->l->stages[a->m->cur];
	tui_stage_view *v = &a->sv;
	char title[512], path[400];
	int x = r.x + 1, y = r.y + 1, w = r.w - 2, h = r.h - 2, first = v->scroll[PANE_CODE];
	exercise_short_path(path, sizeof path, ex->file, getenv("HOME"), r.w - 20, theme_utf8() ? theme_glyphs()->ellipsis : "...");
	if (v->code == CODE_DIFF)
		snprintf(title, sizeof title, "Yours (-) against the stage's kernel (+) %s", st->kernel_rel ? st->kernel_rel : "");
	else if (v->code == CODE_LOG)
		snprintf(title, sizeof title, "Compiler output for %s", path);
	else
		snprintf(title, sizeof title, "Your kernel %s", path);
	widget_box(r.y, r.x, r.h, r.w, title, focused);
	if (r.w - 28 > text_width(title, strlen(title)) + 6)
		widget_printf(r.y, r.x + r.w - 26, 24, theme_attr(ROLE_DIM), " e edit  h hint  d diff ");
	if (v->code == CODE_DIFF) {
		code_diff df = shown_diff(a);
		if (df.n <= 0)
			widget_text(y, x + 1, w - 1, "Both files are empty.", theme_attr(ROLE_DIM));
		else
			diff_walk(&df, v->hscroll, y, x, w, first, h);
	} else if (v->code == CODE_LOG) {
		const char *log = shown_log(a);
		if (!log[0])
			widget_text(y, x + 1, w - 1, "No compiler output for your kernel's latest try.", theme_attr(ROLE_DIM));
		else
			log_walk(log, &ex->src, y, x + 1, w - 1, first, h);
	} else if (ex->src_err[0]) {
		widget_text(y, x + 1, w - 1, ex->src_err, theme_attr(ROLE_BAD));
	} else {
		source_draw(a, y, x, w, first, h);
	}
}

void pane_code_draw(tui_app *a, tui_rect r, int focused)
{
	const tui_stage *m = a->m;
	const lesson_stage *st = &m->l->stages[m->cur];
	tui_stage_view *v = &a->sv;
	char title[256];
	int x = r.x + 1, y = r.y + 1, w = r.w - 2, h = r.h - 2, first = v->scroll[PANE_CODE];
	if (exercise_active(&a->ex)) {
		exercise_draw(a, r, focused);
		return;
	}
	if (v->code == CODE_PTX || v->code == CODE_SASS || v->code == CODE_SASS_DIFF) {
		pane_mcode_draw(a, r, focused);
		return;
	}
	switch (v->code) {
	case CODE_SOURCE: snprintf(title, sizeof title, "Kernel %s", st->kernel_rel ? st->kernel_rel : ""); break;
	case CODE_DIFF:
		if (m->cur == 0)
			snprintf(title, sizeof title, "No previous stage: nothing to diff");
		else
			snprintf(title, sizeof title, "Changes from stage %d, %s", m->cur, m->l->stages[m->cur - 1].kernel_rel);
		break;
	case CODE_LOG: snprintf(title, sizeof title, "Compile log"); break;
	case CODE_SWEEP: snprintf(title, sizeof title, "Sweep"); break;
	default: title[0] = 0; break;
	}
	widget_box(r.y, r.x, r.h, r.w, title, focused);
	if (r.w - 28 > text_width(title, strlen(title)) + 6)
		widget_printf(r.y, r.x + r.w - 26, 24, theme_attr(ROLE_DIM), " d diff  e log  s sweep ");
	if (v->code == CODE_SOURCE) {
		if (v->src_err[0]) widget_text(y, x + 1, w - 1, v->src_err, theme_attr(ROLE_BAD));
		else source_draw(a, y, x, w, first, h);
	} else if (v->code == CODE_LOG) {
		const stage_slot *sl = &m->slots[m->cur];
		if (!sl->have_last || (!sl->last.log && !sl->last.message[0]))
			widget_text(y, x + 1, w - 1, "No compile log for this stage yet (r compiles and runs).",
			            theme_attr(ROLE_DIM));
		else
			log_walk(shown_log(a), &v->src, y, x + 1, w - 1, first, h);
	} else if (v->code == CODE_DIFF) {
		if (m->cur == 0)
			widget_text(y, x + 1, w - 1, "The first stage: nothing before it to compare with.", theme_attr(ROLE_DIM));
		else if (!strcmp(st->kernel_path, m->l->stages[m->cur - 1].kernel_path))
			widget_text(y, x + 1, w - 1, "Same kernel file as the previous stage: only tunables or launches differ.",
			            theme_attr(ROLE_DIM));
		else if (v->ndiff < 0)
			widget_text(y, x + 1, w - 1, "The previous stage's kernel could not be read.", theme_attr(ROLE_BAD));
		else {
			code_diff df = shown_diff(a);
			diff_walk(&df, v->hscroll, y, x, w, first, h);
		}
	} else if (m->sweep_tunable < 0) {
		widget_text(y, x + 1, w - 1, "No sweep yet: select a tunable and press s.", theme_attr(ROLE_DIM));
	} else {
		sweep_walk(a, y, x + 1, w - 1, first, h);
	}
}
