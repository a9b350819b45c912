/* cellgrid: a chart as a grid of cells, one glyph (one column, UTF-8) and one role per cell, built
 * with no terminal and drawn by whoever owns the screen (the roofline and the timeline are such
 * charts; roles are each chart's own enum, 0 meaning blank). */
#ifndef CC_CELLGRID_H
#define CC_CELLGRID_H

typedef struct {
	int w, h;
	char (*cell)[5];              /* one glyph of one column per cell, UTF-8, NUL-terminated */
	unsigned char *role;          /* the chart's role per cell; 0: blank */
} cellgrid;

/* Makes g a new w x h grid of blank cells (" ", role 0); negative sizes count as 0. Free with
 * cellgrid_free. Allocation failure ends the program (util.h's policy). */
void cellgrid_init(cellgrid *g, int w, int h);
void cellgrid_free(cellgrid *g);
/* Sets cell (y, x) to glyph (at most 4 bytes) and role; outside the grid does nothing. */
void cellgrid_put(cellgrid *g, int y, int x, const char *glyph, int role);
/* Writes s from (y, x), one character a cell, at most maxw cells; control characters (C0, DEL, C1)
 * become '?'. Returns the cells written. */
int cellgrid_text(cellgrid *g, int y, int x, int maxw, const char *s, int role);
/* Bytes of the UTF-8 character at s (1 for a stray byte). */
int cellgrid_u8len(const char *s);
/* Row y as text (a new string), trailing blanks dropped; "" outside the grid. */
char *cellgrid_line(const cellgrid *g, int y);
#endif
