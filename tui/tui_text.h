/* tui_text: text measured and cut by display columns (UTF-8 with wcwidth, not bytes), word wrap,
 * and gauges, sparklines and numbers formatted into buffers. Pure: no curses, unit-tested. */
#ifndef CC_TUI_TEXT_H
#define CC_TUI_TEXT_H
#include <stddef.h>
#include "tui_theme.h"

/* Decodes one character at s (at most len bytes): returns its byte length (>= 1; a malformed byte
 * counts as one character of width 1) and stores its display width in *w (0 for combining marks). */
size_t text_char(const char *s, size_t len, int *w);
/* Display columns of the first len bytes of s. */
int text_width(const char *s, size_t len);
/* How many bytes of s (at most len) fit in maxw columns without splitting a character; the
 * columns they take go to *cols (may be NULL). */
size_t text_fit(const char *s, size_t len, int maxw, int *cols);
/* Byte offset after skipping cols columns of s (a wide character straddling the edge is skipped). */
size_t text_skip(const char *s, size_t len, int cols);
/* Copies s into out cropped to maxw columns; when s does not fit and ell is not NULL, it ends in ell
 * (its display width: "..." takes three columns). Always NUL-terminates. Returns the columns written. */
int text_crop(char *out, size_t outlen, const char *s, int maxw, const char *ell);

/* A line made of n parts of widths[i] columns: which to keep within maxw columns. Parts go in
 * order of importance, the highest prio first (the later one first among equals); prio 0 parts
 * always stay (the caller crops what is left with an ellipsis). Fills keep[i] with 0 or 1 and
 * returns the columns kept. */
int text_fit_parts(const int *widths, const int *prio, int n, int maxw, int *keep);

/* Joins the lines of each paragraph of src into one (YAML block text keeps its line breaks):
 * a newline stays only before a blank line, an indented line or a list item ("- ", "* ").
 * Trailing newlines go. Always NUL-terminates out; returns out. */
char *text_reflow(char *out, size_t outlen, const char *src);

typedef struct { size_t off, len; } text_span;
/* Splits s into lines of at most width columns, breaking after spaces and at '\n' (a word longer
 * than a line is cut). Fills at most max spans; returns how many lines there are in all. */
int text_wrap(const char *s, int width, text_span *spans, int max);

/* The first line to show of a list of n lines in a window of page lines, starting from top and
 * scrolling as little as needed to show lines lo..hi (e.g. a selected row and its heading; lo
 * wins when they do not all fit); never past the end. */
int text_keep_visible(int top, int lo, int hi, int n, int page);

/* One screen cell of a gauge or sparkline: a glyph from the tables and its colour role. */
typedef struct { const char *glyph; tui_role role; } text_cell;
/* A horizontal gauge of width cells filled to frac (0..1, clamped, in eighths of a cell when the
 * glyphs allow) with a marker at mark (0..1; < 0: none). */
void text_gauge(text_cell *cells, int width, double frac, double mark, const tui_glyphs *g);
/* A sparkline of the last width values of v[0..n) scaled between their minimum and maximum;
 * returns the cells used (min(n, width)). */
int text_spark(text_cell *cells, int width, const double *v, int n, const tui_glyphs *g);
/* Concatenates the glyphs of n cells into out (NUL-terminated); returns out. */
char *text_cells_str(char *out, size_t outlen, const text_cell *cells, int n);

/* Numbers for people: 3 significant digits or so ("2950", "412", "12.3", "0.412"). Return buf. */
char *text_num(char *buf, size_t len, double v);
/* A duration given in ms: "412 us", "1.234 ms", "2.50 s". */
char *text_ms(char *buf, size_t len, double ms);
/* A size, as fmt_bytes (src/core/fmt.h) says it: "512 B", "48 KiB", "1.50 MiB", "40 GiB". */
char *text_bytes(char *buf, size_t len, double b);
/* Relative change from old to now in percent with a sign: "+12.3%", "-0.4%"; "" when old <= 0. */
char *text_delta(char *buf, size_t len, double now, double old);
#endif
