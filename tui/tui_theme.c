/* Colour roles with a monochrome fallback, and the glyph tables. */
#define NCURSES_WIDECHAR 1
#include <curses.h>
#include "tui_theme.h"

typedef struct { short fg, bg; unsigned color_attr, mono_attr; } role_def;

static const role_def roles[ROLE_COUNT] = {
#define TUI_ROLE_DEF(r, fg, bg, ca, ma) [r] = { fg, bg, ca, ma },
	TUI_ROLES(TUI_ROLE_DEF)
#undef TUI_ROLE_DEF
};

const tui_glyphs tui_glyphs_utf8 = {
	.h = "\u2500", .v = "\u2502", .tl = "\u250c", .tr = "\u2510", .bl = "\u2514", .br = "\u2518",
	.eighth = { " ", "\u258f", "\u258e", "\u258d", "\u258c", "\u258b", "\u258a", "\u2589", "\u2588" },
	.empty = "\u2591", .mark = "\u2502",
	.spark = { "\u2581", "\u2582", "\u2583", "\u2584", "\u2585", "\u2586", "\u2587", "\u2588" },
	.ok = "\u2713", .bad = "\u2717", .sel = "\u25b8", .ellipsis = "\u2026", .up = "\u2191",
	.down = "\u2193", .pm = "\u00b1",
	.todo = "\u25cb", .seen = "\u25d0", .done = "\u25cf", .fail = "\u2717",
	.warn = "!", .from = "\u2190", .ex_todo = "\u25c7", .ex_started = "\u25c8", .ex_correct = "\u25c6", .ex_passed = "\u2605",
};

const tui_glyphs tui_glyphs_ascii = {
	.h = "-", .v = "|", .tl = "+", .tr = "+", .bl = "+", .br = "+",
	.eighth = { ".", ".", ".", ".", "#", "#", "#", "#", "#" },   /* rounds to whole cells */
	.empty = ".", .mark = "|",
	.spark = { "_", "_", ".", ".", "-", "-", "=", "#" },
	.ok = "+", .bad = "x", .sel = ">", .ellipsis = "...", .up = "^", .down = "v", .pm = "+-",
	.todo = ".", .seen = "o", .done = "*", .fail = "x",
	.warn = "!", .from = "<-", .ex_todo = "-", .ex_started = "s", .ex_correct = "c", .ex_passed = "P",
};

static int use_color;
static const tui_glyphs *glyphs = &tui_glyphs_ascii;

void theme_init(int want_color, int want_utf8)
{
	glyphs = want_utf8 ? &tui_glyphs_utf8 : &tui_glyphs_ascii;
	use_color = 0;
	if (!want_color || !has_colors() || start_color() == ERR)
		return;
	int defaults = use_default_colors() == OK;
	for (int r = 0; r < ROLE_COUNT; r++) {
		short fg = roles[r].fg, bg = roles[r].bg;
		if (!defaults) {            /* terminals without default colours: white on black */
			if (fg < 0) fg = COLOR_WHITE;
			if (bg < 0) bg = COLOR_BLACK;
		}
		if (r + 1 < COLOR_PAIRS)   /* pair 0 is the terminal's default */
			init_pair((short)(r + 1), fg, bg);
	}
	use_color = 1;
}

unsigned theme_attr(tui_role r)
{
	int i = (int)r;
	if (i < 0 || i >= ROLE_COUNT)
		i = ROLE_NORMAL;
	if (!use_color)
		return roles[i].mono_attr;
	if (i == ROLE_NORMAL || i + 1 >= COLOR_PAIRS)
		return roles[i].color_attr;
	return (unsigned)COLOR_PAIR(i + 1) | roles[i].color_attr;
}

const tui_glyphs *theme_glyphs(void) { return glyphs; }
int theme_has_color(void) { return use_color; }
int theme_utf8(void) { return glyphs == &tui_glyphs_utf8; }
