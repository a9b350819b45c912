/* Drawing helpers on stdscr. */
#define NCURSES_WIDECHAR 1
#include <curses.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "tui_widget.h"
#include "util.h"

static int utf8_ok;

void widget_init(int locale_utf8) { utf8_ok = locale_utf8; }

int widget_textn(int y, int x, int maxw, const char *s, size_t len, unsigned attr)
{
	int cols = 0, w, sw = getmaxx(stdscr), sh = getmaxy(stdscr);
	if (y < 0 || y >= sh || x < 0)
		return 0;
	if (x + maxw > sw)
		maxw = sw - x;
	attrset(attr);
	move(y, x);
	for (size_t i = 0; i < len && s[i]; ) {
		size_t n = text_char(s + i, len - i, &w);
		/* control bytes, stray bytes, C1 and the invisible format characters (bidi, zero-width) of
		 * text another user wrote (a replay, a learner's source in a compile log): a '?' each */
		int bad = (unsigned char)s[i] < 0x20 || s[i] == 0x7f || (n > 1 && !utf8_ok) ||
		          (n == 1 && (unsigned char)s[i] >= 0x80) || (n == 2 && (unsigned char)s[i] == 0xc2 && (unsigned char)s[i + 1] <= 0x9f) ||
		          (n > 1 && util_invisible_len(s + i) == (int)n);
		if (bad) w = 1;
		if (cols + w > maxw)
			break;
		if (bad) addch('?');
		else addnstr(s + i, (int)n);
		cols += w;
		i += n;
	}
	attrset(A_NORMAL);
	return cols;
}

void widget_grid(int y, int x, const cellgrid *g, unsigned (*attr_of)(int role))
{
	char run[1024];
	for (int gy = 0; gy < g->h; gy++)
		for (int gx = 0; gx < g->w;) {
			int role = g->role[gy * g->w + gx], x0 = gx;
			size_t n = 0;
			while (gx < g->w && g->role[gy * g->w + gx] == role && n + 5 < sizeof run) {
				size_t k = strlen(g->cell[gy * g->w + gx]);
				memcpy(run + n, g->cell[gy * g->w + gx], k);
				n += k;
				gx++;
			}
			if (role) widget_textn(y + gy, x + x0, gx - x0, run, n, attr_of(role));
		}
}

/* Cut with the ellipsis where it does not fit: no text is cut without saying so. */
int widget_text(int y, int x, int maxw, const char *s, unsigned attr)
{
	int sw = getmaxx(stdscr);
	if (x >= 0 && x + maxw > sw) maxw = sw - x;
	size_t len = strlen(s);
	if (maxw <= 0 || text_width(s, len) <= maxw)
		return widget_textn(y, x, maxw, s, len, attr);
	char buf[1024];
	text_crop(buf, sizeof buf, s, maxw, theme_glyphs()->ellipsis);
	return widget_textn(y, x, maxw, buf, strlen(buf), attr);
}

int widget_printf(int y, int x, int maxw, unsigned attr, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	return widget_text(y, x, maxw, buf, attr);
}

int widget_wrap(int y, int x, int w, int rows, const char *s, unsigned attr)
{
	text_span sp[64];
	int n = text_wrap(s, w, sp, 64);
	if (n > 64) n = 64;
	for (int i = 0; i < n && i < rows; i++) {
		if (i == rows - 1 && n > rows)   /* the rest on the last line, cut with the ellipsis */
			widget_text(y + i, x, w, s + sp[i].off, attr);
		else
			widget_textn(y + i, x, w, s + sp[i].off, sp[i].len, attr);
	}
	return n < rows ? n : rows;
}

int widget_textc(int y, int x, int maxw, const char *s, unsigned attr)
{
	return maxw <= 0 ? 0 : widget_text(y, x, maxw, s, attr);
}

int widget_printfc(int y, int x, int maxw, unsigned attr, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	return widget_textc(y, x, maxw, buf, attr);
}

int widget_parts(int y, int x, int maxw, const widget_part *parts, int n)
{
	enum { MAXP = 16 };
	int w[MAXP] = { 0 }, prio[MAXP] = { 0 }, keep[MAXP], col = 0;
	if (n > MAXP) n = MAXP;
	for (int i = 0; i < n; i++) {
		w[i] = text_width(parts[i].text, strlen(parts[i].text));
		prio[i] = parts[i].prio;
	}
	text_fit_parts(w, prio, n, maxw, keep);
	for (int i = 0; i < n && col < maxw; i++) {
		if (!keep[i] || !parts[i].text[0])
			continue;
		col += widget_textc(y, x + col, maxw - col, parts[i].text, parts[i].attr);
	}
	return col;
}

void widget_clear(int y, int x, int w, unsigned attr)
{
	int sw = getmaxx(stdscr);
	if (y < 0 || y >= getmaxy(stdscr) || x < 0)
		return;
	attrset(attr);
	for (int i = 0; i < w && x + i < sw; i++)
		mvaddch(y, x + i, ' ');
	attrset(A_NORMAL);
}

static void put(int y, int x, const char *glyph, unsigned attr)
{
	if (y < 0 || x < 0 || y >= getmaxy(stdscr) || x >= getmaxx(stdscr))
		return;
	attrset(attr);
	mvaddstr(y, x, glyph);
	attrset(A_NORMAL);
}

void widget_box(int y, int x, int h, int w, const char *title, int focused)
{
	const tui_glyphs *g = theme_glyphs();
	unsigned a = theme_attr(focused ? ROLE_FRAME_FOCUS : ROLE_FRAME);
	if (h < 2 || w < 2)
		return;
	for (int i = 1; i < w - 1; i++) {
		put(y, x + i, g->h, a);
		put(y + h - 1, x + i, g->h, a);
	}
	for (int j = 1; j < h - 1; j++) {
		put(y + j, x, g->v, a);
		put(y + j, x + w - 1, g->v, a);
	}
	put(y, x, g->tl, a); put(y, x + w - 1, g->tr, a);
	put(y + h - 1, x, g->bl, a); put(y + h - 1, x + w - 1, g->br, a);
	if (title && title[0] && w > 6) {
		unsigned ta = theme_attr(focused ? ROLE_FRAME_FOCUS : ROLE_HEADING);
		if (focused) ta |= A_REVERSE;
		char t[512];                          /* cut with the ellipsis, the spaces around it kept */
		text_crop(t, sizeof t, title, w - 6, theme_glyphs()->ellipsis);
		widget_printf(y, x + 2, w - 4, ta, " %s ", t);
	}
}

void widget_cells(int y, int x, const text_cell *c, int n)
{
	for (int i = 0; i < n; i++)
		put(y, x + i, c[i].glyph, theme_attr(c[i].role));
}

void widget_gauge(int y, int x, int width, double frac, double mark)
{
	text_cell cells[256];
	if (width > 256) width = 256;
	if (width <= 0) return;
	text_gauge(cells, width, frac, mark, theme_glyphs());
	widget_cells(y, x, cells, width);
}

int widget_hints(int y, int x, int maxw, const char *const *pairs, int npairs, unsigned attr)
{
	int used = 0;
	for (int i = 0; i + 1 < npairs * 2; i += 2) {
		int need = text_width(pairs[i], strlen(pairs[i])) + 1 + text_width(pairs[i + 1], strlen(pairs[i + 1])) + 2;
		if (used + need - 2 > maxw)   /* the two spaces after the last pair may be cut */
			break;
		used += widget_text(y, x + used, maxw - used, pairs[i], theme_attr(ROLE_KEY) | attr);
		used += widget_text(y, x + used, maxw - used, " ", attr);
		used += widget_text(y, x + used, maxw - used, pairs[i + 1], attr);
		used += widget_text(y, x + used, maxw - used, "  ", attr);
	}
	return used;
}

int widget_scroll_key(int ch, int *pos, int page, int last)
{
	switch (ch) {
	case KEY_UP: case 'k': (*pos)--; break;
	case KEY_DOWN: case 'j': (*pos)++; break;
	case KEY_PPAGE: if (page < 1) return 0; *pos -= page; break;
	case KEY_NPAGE: case ' ': if (page < 1) return 0; *pos += page; break;
	case KEY_HOME: case 'g': *pos = 0; break;
	case KEY_END: case 'G': *pos = last; break;
	default: return 0;
	}
	if (*pos > last) *pos = last;
	if (*pos < 0) *pos = 0;
	return 1;
}
