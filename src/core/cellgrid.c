/* cellgrid: see cellgrid.h. */
#include "cellgrid.h"
#include <stdlib.h>
#include <string.h>
#include "util.h"

void cellgrid_init(cellgrid *g, int w, int h)
{
	g->w = w > 0 ? w : 0;
	g->h = h > 0 ? h : 0;
	g->cell = xcalloc((size_t)g->w * g->h + 1, sizeof *g->cell);
	g->role = xcalloc((size_t)g->w * g->h + 1, 1);
	for (int i = 0; i < g->w * g->h; i++) strcpy(g->cell[i], " ");
}

void cellgrid_free(cellgrid *g)
{
	free(g->cell);
	free(g->role);
	g->cell = NULL;
	g->role = NULL;
	g->w = g->h = 0;
}

void cellgrid_put(cellgrid *g, int y, int x, const char *glyph, int role)
{
	if (y < 0 || y >= g->h || x < 0 || x >= g->w) return;
	strfmt(g->cell[y * g->w + x], sizeof g->cell[0], "%s", glyph);
	g->role[y * g->w + x] = (unsigned char)role;
}

int cellgrid_u8len(const char *s)
{
	unsigned char b = (unsigned char)*s;
	int n = b < 0x80 ? 1 : (b >> 5) == 6 ? 2 : (b >> 4) == 14 ? 3 : (b >> 3) == 30 ? 4 : 1;
	for (int i = 1; i < n; i++) if (((unsigned char)s[i] & 0xC0) != 0x80) return 1;
	return n;
}

int cellgrid_text(cellgrid *g, int y, int x, int maxw, const char *s, int role)
{
	int i = 0;
	for (char ch[5]; *s && i < maxw; i++) {
		int k = cellgrid_u8len(s);
		memcpy(ch, s, (size_t)k);
		ch[k] = 0;
		unsigned char c0 = (unsigned char)ch[0];
		cellgrid_put(g, y, x + i, c0 < 0x20 || c0 == 0x7f || (k == 2 && c0 == 0xC2 && (unsigned char)ch[1] < 0xA0) ? "?" : ch, role);
		s += k;
	}
	return i;
}

char *cellgrid_line(const cellgrid *g, int y)
{
	sb b = {0};
	sb_add(&b, "");
	for (int x = 0; y >= 0 && y < g->h && x < g->w; x++) sb_add(&b, g->cell[y * g->w + x]);
	char *s = sb_take(&b);
	rtrim(s);
	return s;
}
