/* Display-width text handling and small formatters. UTF-8 is decoded here rather than with
 * mbrtowc so that cropping does not depend on the locale; widths come from wcwidth. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <wchar.h>
#include "tui_text.h"
#include "fmt.h"

size_t text_char(const char *s, size_t len, int *w)
{
	const unsigned char *p = (const unsigned char *)s;
	unsigned cp; size_t n;
	*w = 1;
	if (len == 0)
		return 0;
	if (p[0] < 0x80)
		return 1;                             /* control bytes are drawn as one '?' */
	if ((p[0] & 0xe0) == 0xc0) { cp = p[0] & 0x1f; n = 2; }
	else if ((p[0] & 0xf0) == 0xe0) { cp = p[0] & 0x0f; n = 3; }
	else if ((p[0] & 0xf8) == 0xf0) { cp = p[0] & 0x07; n = 4; }
	else return 1;
	if (n > len)
		return 1;
	for (size_t i = 1; i < n; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 1;
		cp = cp << 6 | (p[i] & 0x3f);
	}
	int cw = wcwidth((wchar_t)cp);
	*w = cw < 0 ? 1 : cw;
	return n;
}

int text_width(const char *s, size_t len)
{
	int cols = 0, w;
	for (size_t i = 0; i < len && s[i]; ) {
		i += text_char(s + i, len - i, &w);
		cols += w;
	}
	return cols;
}

size_t text_fit(const char *s, size_t len, int maxw, int *cols)
{
	size_t i = 0;
	int c = 0, w;
	while (i < len && s[i]) {
		size_t n = text_char(s + i, len - i, &w);
		if (c + w > maxw)
			break;
		c += w;
		i += n;
	}
	if (cols)
		*cols = c;
	return i;
}

size_t text_skip(const char *s, size_t len, int cols)
{
	size_t i = 0;
	int c = 0, w;
	while (i < len && s[i] && c < cols) {
		i += text_char(s + i, len - i, &w);
		c += w;
	}
	return i;
}

int text_crop(char *out, size_t outlen, const char *s, int maxw, const char *ell)
{
	size_t full = strlen(s), el = ell ? strlen(ell) : 0;
	int cols = 0;
	if (outlen == 0)
		return 0;
	if (maxw < 0)
		maxw = 0;
	size_t n = text_fit(s, full, maxw, &cols);
	int cut = n < full, ew = ell ? text_width(ell, el) : 0;
	if (cut && ell && maxw >= ew && el + 1 < outlen)
		n = text_fit(s, full, maxw - ew, &cols);
	else
		el = 0;
	if (n + el + 1 > outlen) {                /* the buffer is the limit: cut at a character */
		n = outlen - 1 - el;
		while (n > 0 && ((unsigned char)s[n] & 0xc0) == 0x80)
			n--;
		cols = text_width(s, n);
	}
	memcpy(out, s, n);
	if (el) {
		memcpy(out + n, ell, el);
		cols += ew;
	}
	out[n + el] = 0;
	return cols;
}

int text_fit_parts(const int *widths, const int *prio, int n, int maxw, int *keep)
{
	int total = 0;
	for (int i = 0; i < n; i++) {
		keep[i] = 1;
		total += widths[i];
	}
	while (total > maxw) {
		int drop = -1;
		for (int i = 0; i < n; i++)
			if (keep[i] && prio[i] > 0 && (drop < 0 || prio[i] >= prio[drop]))
				drop = i;
		if (drop < 0)
			break;
		keep[drop] = 0;
		total -= widths[drop];
	}
	return total;
}

char *text_reflow(char *out, size_t outlen, const char *src)
{
	size_t o = 0;
	if (outlen == 0)
		return out;
	for (const char *p = src; *p && o + 1 < outlen; p++) {
		if (*p != '\n') {
			out[o++] = *p;
			continue;
		}
		const char *q = p + 1;
		int keep = *q == '\n' || *q == ' ' || *q == '\t' || ((*q == '-' || *q == '*') && q[1] == ' ') ||
		           (o > 0 && out[o - 1] == '\n');
		out[o++] = keep ? '\n' : ' ';
	}
	while (o > 0 && (out[o - 1] == '\n' || out[o - 1] == ' '))
		o--;
	out[o] = 0;
	return out;
}

int text_wrap(const char *s, int width, text_span *spans, int max)
{
	int count = 0;
	size_t len = strlen(s), start = 0, i = 0, brk = 0;   /* brk: end of the last word that fits */
	int cols = 0, w;
	if (width < 1)
		width = 1;
	while (i <= len) {
		if (i == len || s[i] == '\n') {
			if (i < len || i > start || count == 0) {
				if (count < max) spans[count] = (text_span){ start, i - start };
				count++;
			}
			if (i == len)
				break;
			start = ++i; brk = 0; cols = 0;
			continue;
		}
		size_t n = text_char(s + i, len - i, &w);
		if (s[i] == ' ')
			brk = i;
		if (cols + w > width && i > start) {
			size_t end = brk > start ? brk : i;
			if (count < max) spans[count] = (text_span){ start, end - start };
			count++;
			i = end;
			while (i < len && s[i] == ' ')
				i++;
			start = i; brk = 0; cols = 0;
			continue;
		}
		cols += w;
		i += n;
	}
	return count;
}

void text_gauge(text_cell *cells, int width, double frac, double mark, const tui_glyphs *g)
{
	if (width <= 0)
		return;
	if (!(frac > 0)) frac = 0;                 /* NaN too */
	if (frac > 1) frac = 1;
	long eighths = lround(frac * width * 8);
	int full = (int)(eighths / 8), rem = (int)(eighths % 8);
	for (int i = 0; i < width; i++) {
		if (i < full)
			cells[i] = (text_cell){ g->eighth[8], ROLE_GAUGE };
		else if (i == full && rem > 0 && strcmp(g->eighth[rem], g->empty) != 0)
			cells[i] = (text_cell){ g->eighth[rem], ROLE_GAUGE };
		else
			cells[i] = (text_cell){ g->empty, ROLE_GAUGE_EMPTY };
	}
	if (mark >= 0 && mark == mark) {
		int pos = (int)lround((mark > 1 ? 1 : mark) * width);
		if (pos >= width)
			pos = width - 1;
		cells[pos] = (text_cell){ g->mark, ROLE_MARK };
	}
}

int text_spark(text_cell *cells, int width, const double *v, int n, const tui_glyphs *g)
{
	int first = n > width ? n - width : 0, used = n - first;
	double lo = INFINITY, hi = -INFINITY;
	for (int i = first; i < n; i++) {
		if (v[i] < lo) lo = v[i];
		if (v[i] > hi) hi = v[i];
	}
	for (int i = 0; i < used; i++) {
		double x = v[first + i];
		int level = hi > lo ? (int)lround((x - lo) / (hi - lo) * 7) : 3;
		if (level < 0) level = 0;
		if (level > 7) level = 7;
		cells[i] = (text_cell){ g->spark[level], ROLE_GAUGE };
	}
	return used;
}

char *text_cells_str(char *out, size_t outlen, const text_cell *cells, int n)
{
	size_t o = 0;
	if (outlen == 0)
		return out;
	out[0] = 0;
	for (int i = 0; i < n; i++) {
		size_t l = strlen(cells[i].glyph);
		if (o + l + 1 > outlen)
			break;
		memcpy(out + o, cells[i].glyph, l + 1);
		o += l;
	}
	return out;
}

int text_keep_visible(int top, int lo, int hi, int n, int page)
{
	if (page < 1) page = 1;
	if (hi >= top + page) top = hi - page + 1;
	if (lo < top) top = lo;
	if (top > n - page) top = n - page;
	return top < 0 ? 0 : top;
}

char *text_num(char *buf, size_t len, double v)
{
	double a = fabs(v);
	if (v != v) snprintf(buf, len, "-");
	else if (a >= 99.95 || a == 0) snprintf(buf, len, "%.0f", v);
	else if (a >= 9.995) snprintf(buf, len, "%.1f", v);
	else if (a >= 0.9995) snprintf(buf, len, "%.2f", v);
	else if (a >= 0.001) snprintf(buf, len, "%.3f", v);
	else snprintf(buf, len, "%.2g", v);
	return buf;
}

char *text_ms(char *buf, size_t len, double ms)
{
	if (ms != ms || ms < 0) snprintf(buf, len, "-");
	else if (ms < 1) snprintf(buf, len, "%.1f us", ms * 1e3);
	else if (ms < 1000) snprintf(buf, len, "%.3f ms", ms);
	else snprintf(buf, len, "%.2f s", ms / 1e3);
	return buf;
}

char *text_bytes(char *buf, size_t len, double b) { return fmt_bytes(buf, len, b); }

char *text_delta(char *buf, size_t len, double now, double old)
{
	if (!(old > 0) || now != now)
		snprintf(buf, len, "%s", "");
	else
		snprintf(buf, len, "%+.1f%%", (now - old) / old * 100);
	return buf;
}
