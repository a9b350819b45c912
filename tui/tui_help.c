/* The help overlay: every key, from one table. */
#define NCURSES_WIDECHAR 1
#include <curses.h>
#include <string.h>
#include "tui_app.h"
#include "tui_widget.h"

typedef struct { const char *key, *what; } help_entry;   /* key NULL: a heading */

static const help_entry keys[] = {
	{ NULL, "Everywhere" },
	{ "?", "this help" },
	{ "q", "quit (progress kept)" },
	{ "Ctrl-L", "redraw" },
	{ NULL, "Lesson list" },
	{ "Up/Down j/k", "choose a lesson" },
	{ "PgUp/PgDn g/G", "page, first, last" },
	{ "Enter Right l", "open the lesson" },
	{ NULL, "Stage view" },
	{ "Tab/Shift-Tab", "next/previous pane" },
	{ "n/p ] [", "next/previous stage" },
	{ "r", "compile and run" },
	{ "l", "live: keep re-running" },
	{ "s", "sweep a tunable" },
	{ "a", "run all + baseline" },
	{ "d", "diff from prev stage" },
	{ "e", "compile log" },
	{ "z", "zoom the pane" },
	{ "Esc h Bksp", "close view, go back" },
	{ "x", "exercise: write it" },
	{ NULL, "Tunables pane" },
	{ "Up/Down j/k", "tunable or parameter" },
	{ "Left/Right - +", "prev/next value" },
	{ "", "a size: halve/double" },
	{ "0-9 Enter", "type a value" },
	{ "Esc", "cancel typing" },
	{ "R", "reset, parameters too" },
	{ NULL, "Other panes" },
	{ "Up/Down j/k", "scroll" },
	{ "PgUp/PgDn Spc", "page" },
	{ "g/G Home/End", "top, bottom" },
	{ "Left/Right", "scroll sideways" },
	{ NULL, "Exercise mode (x)" },
	{ "e", "edit in $EDITOR" },
	{ "", "any save: try it" },
	{ "r", "try again" },
	{ "h", "next hint" },
	{ "d", "diff with the stage's" },
	{ "", "(passed or all hints)" },
	{ "c", "compiler output" },
	{ "x Esc", "leave exercise mode" },
	{ NULL, "Exercise marks" },
};
/* The marks' legend follows the keys: its key column is the mark's glyph. */
static const struct { ex_level level; const char *what; } marks[] = {
	{ EX_NOT_STARTED, "not started" }, { EX_STARTED, "started, compiles" },
	{ EX_CORRECT, "correct, too slow" }, { EX_PASSED, "passed" },
};
enum { NKEYS = sizeof keys / sizeof *keys + sizeof marks / sizeof *marks, KEYW = 15 };

void help_draw(tui_app *a)
{
	int inner = a->rows - 4, cols = NKEYS > inner ? 2 : 1;
	int per = (NKEYS + cols - 1) / cols, colw = KEYW + 24;
	if (colw > (a->cols - 3) / cols) colw = (a->cols - 3) / cols;
	int w = cols * colw + 3, h = per + 2;
	if (w > a->cols) w = a->cols;
	if (h > a->rows - 2) h = a->rows - 2;
	int y = (a->rows - h) / 2, x = (a->cols - w) / 2;
	for (int i = 0; i < h; i++)
		widget_clear(y + i, x, w, 0);
	widget_box(y, x, h, w, "Keys: any other key closes", 1);
	for (int i = 0; i < NKEYS; i++) {
		int c = i / per, row = i % per - a->help_scroll;
		if (row < 0 || row >= h - 2) continue;
		int cx = x + 2 + c * colw, cy = y + 1 + row;
		int k = i - (int)(sizeof keys / sizeof *keys);
		if (k >= 0) {
			tui_role role;
			widget_text(cy, cx + 1, KEYW, exm_mark_glyph(marks[k].level, theme_glyphs(), &role), theme_attr(role));
			widget_text(cy, cx + 1 + KEYW, colw - KEYW - 2, marks[k].what, 0);
		} else if (!keys[i].key) {
			widget_text(cy, cx, colw - 1, keys[i].what, theme_attr(ROLE_HEADING));
		} else {
			widget_text(cy, cx + 1, KEYW, keys[i].key, theme_attr(ROLE_KEY));
			widget_text(cy, cx + 1 + KEYW, colw - KEYW - 2, keys[i].what, 0);
		}
	}
}

unsigned help_key(tui_app *a, int ch)
{
	int per = (NKEYS + 1) / 2;
	if ((ch == KEY_DOWN || ch == 'j') && a->help_scroll + a->rows - 6 < per) {
		a->help_scroll++;
		return TUI_REDRAW;
	}
	if ((ch == KEY_UP || ch == 'k') && a->help_scroll > 0) {
		a->help_scroll--;
		return TUI_REDRAW;
	}
	if (ch == 'q')
		return TUI_QUIT;
	a->help = 0;
	return TUI_REDRAW;
}
