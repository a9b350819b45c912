/* The overlays: every key (from one table), a glossary of the counters and statuses, and the
 * messages (lesson files left out, what was written on stderr). */
#define NCURSES_WIDECHAR 1
#include <curses.h>
#include <stdio.h>
#include <string.h>
#include "tui_app.h"
#include "tui_widget.h"

typedef struct { const char *key, *what; } help_entry;   /* key NULL: a heading */

static const help_entry keys[] = {
	{ NULL, "Everywhere" },
	{ "? F1", "this help, glossary" },
	{ "q F10", "quit (progress kept)" },
	{ "Ctrl-L", "redraw" },
	{ "click", "a pane, stage, lesson" },
	{ NULL, "Lesson list" },
	{ "Up/Down j/k", "choose a lesson" },
	{ "PgUp/PgDn g/G", "page, first, last" },
	{ "Enter Right", "open the lesson" },
	{ "click, again", "choose, then open" },
	{ "l", "live is on a stage" },
	{ "e", "load errors, stderr" },
	{ NULL, "Stage view" },
	{ "Tab/Shift-Tab", "next/previous pane" },
	{ "click", "focus a pane" },
	{ "n/p ] [", "next/previous stage" },
	{ "r", "compile and run" },
	{ "l", "live: keep re-running" },
	{ "", "(not with --replay)" },
	{ "s", "sweep a tunable" },
	{ "a", "run all + baseline" },
	{ "d", "diff from prev stage" },
	{ "e", "compile log" },
	{ "v", "PTX, SASS, source" },
	{ "", "d there: vs previous" },
	{ "H", "hotspots by line" },
	{ "", "with stall reasons" },
	{ "o", "reading: text, screen" },
	{ "", "o or Esc leaves it" },
	{ "f", "roofline of the runs" },
	{ "t", "timeline of steps" },
	{ "T", "tune: best settings" },
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
	{ "C", "next case (settings)" },
	{ NULL, "Ladder pane" },
	{ "Up/Down j/k", "choose a stage" },
	{ "Enter, click", "open it" },
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

/* The words on screen that need one: the counters' names and the runs' statuses. */
static const help_entry glossary[] = {
	{ NULL, "Counters (r reads them; Measured here in the explanation)" },
	{ "DRAM / mdl", "Bytes the kernel moved to and from the GPU's memory, against the bytes the lesson's model says "
	  "it must move (mdl). 1.00x is the ideal; more means wasted traffic, such as scattered accesses or data "
	  "fetched twice." },
	{ "L2 hit", "The share of memory requests the L2 cache answered without going out to memory." },
	{ "achieved occupancy", "How many warps were resident on an SM on average while the kernel ran, as a share "
	  "of the most an SM can hold. The theoretical figure is the ceiling that registers, shared memory and the "
	  "block size allow." },
	{ "warp efficiency", "How many of a warp's 32 threads do useful work per instruction, on average. Below 32: "
	  "divergent branches or idle lanes." },
	{ "bank conflicts", "Shared memory has 32 banks; threads of one warp that touch different addresses in the "
	  "same bank take turns. The count is the extra turns this cost." },
	{ "long_scoreboard", "Stall: warps wait for data from global or local memory. Memory is the limit, or too "
	  "few loads are in flight." },
	{ "short_scoreboard", "Stall: warps wait for shared memory, or for slow math such as special functions." },
	{ "mio_throttle", "Stall: the queue into the memory input/output unit is full, usually from too many "
	  "shared-memory instructions at once." },
	{ "lg_throttle", "Stall: the queue for global and local memory instructions is full; fewer, wider loads "
	  "(16 bytes) help." },
	{ "barrier", "Stall: warps wait at __syncthreads() for the rest of their block." },
	{ NULL, "Statuses of a run" },
	{ "ok", "Compiled, ran, and the result matched the reference." },
	{ "wrong", "Ran, but the result differs from the reference by more than the tolerance." },
	{ "refused", "The values break one of the lesson's rules (a range, the allowed values, a constraint); "
	  "nothing was compiled." },
	{ "compile_error", "The compiler rejected the kernel; e shows its log." },
	{ "unsupported", "This GPU (or --arch) lacks what the stage needs, such as a newer architecture or more "
	  "shared memory." },
	{ "fault", "The kernel made an illegal memory access, or another error the GPU caught; the worker is "
	  "restarted." },
	{ "hang", "The kernel did not finish within the watchdog (--timeout) and was stopped." },
	{ "crash", "The worker process died while it ran the kernel." },
	{ "no_gpu", "No GPU to run on (or, in a replay, no recorded result for these values): compiled only." },
};
enum { NGLOSS = sizeof glossary / sizeof *glossary, TERMW = 21 };

void overlay_open(tui_app *a, tui_overlay o)
{
	a->overlay = o;
	a->overlay_scroll = 0;
}

/* The keys in one or two columns (the second when they do not fit the height). */
static int keys_per_column(const tui_app *a)
{
	int inner = a->rows - 4, cols = NKEYS > inner ? 2 : 1;
	return (NKEYS + cols - 1) / cols;
}

static void keys_draw(tui_app *a)
{
	int per = keys_per_column(a), cols = per < NKEYS ? 2 : 1, colw = KEYW + 26;
	if (colw > (a->cols - 3) / cols) colw = (a->cols - 3) / cols;
	int w = cols * colw + 3, h = per + 2;
	if (w > a->cols - 2) w = a->cols;             /* no sliver of the screen beside it */
	if (h > a->rows - 2) h = a->rows - 2;
	int y = (a->rows - h) / 2, x = (a->cols - w) / 2;
	for (int i = 0; i < h; i++)
		widget_clear(y + i, x, w, 0);
	widget_box(y, x, h, w, per > h - 2 ? "Keys (Tab: glossary; j/k scroll; any other key closes)"
	                                   : "Keys (Tab: glossary; any other key closes)", 1);
	for (int i = 0; i < NKEYS; i++) {
		int c = i / per, row = i % per - a->overlay_scroll;
		if (row < 0 || row >= h - 2) continue;
		int cx = x + 2 + c * colw, cy = y + 1 + row;
		int k = i - (int)(sizeof keys / sizeof *keys);
		if (k >= 0) {
			tui_role role;
			widget_text(cy, cx + 1, KEYW, exercise_mark_glyph(marks[k].level, theme_glyphs(), &role), theme_attr(role));
			widget_textc(cy, cx + 1 + KEYW, colw - KEYW - 2, marks[k].what, 0);
		} else if (!keys[i].key) {
			widget_textc(cy, cx, colw - 1, keys[i].what, theme_attr(ROLE_HEADING));
		} else {
			widget_text(cy, cx + 1, KEYW, keys[i].key, theme_attr(ROLE_KEY));
			widget_textc(cy, cx + 1 + KEYW, colw - KEYW - 2, keys[i].what, 0);
		}
	}
	if (a->overlay_scroll + h - 2 < per)
		widget_printf(y + h - 1, x + w - 8, 6, theme_attr(ROLE_DIM), " %s%d ", theme_glyphs()->down,
		              per - a->overlay_scroll - (h - 2));
}

/* The lines of a list of entries (a term, then its text wrapped beside it) or of the messages,
 * drawn from line first at (y, x) over h lines of width w; h = 0 only counts. Returns the count. */
static int gloss_walk(int y, int x, int w, int first, int h)
{
	text_span sp[32];
	int line = 0, tw = w > 60 ? TERMW : 0;   /* narrow: the text goes under its term */
	for (int i = 0; i < NGLOSS; i++) {
		const help_entry *e = &glossary[i];
		if (!e->key) {
			if (line > 0) line++;
			if (line >= first && line < first + h)
				widget_textc(y + line - first, x, w, e->what, theme_attr(ROLE_HEADING));
			line++;
			continue;
		}
		if (!tw) {
			if (line >= first && line < first + h)
				widget_text(y + line - first, x + 1, w - 1, e->key, theme_attr(ROLE_KEY));
			line++;
		} else if (line >= first && line < first + h) {
			widget_text(y + line - first, x + 1, tw, e->key, theme_attr(ROLE_KEY));
		}
		int ind = tw ? tw + 1 : 3, n = text_wrap(e->what, w - ind, sp, 32);
		for (int k = 0; k < n && k < 32; k++, line++)
			if (line >= first && line < first + h)
				widget_textn(y + line - first, x + ind, w - ind, e->what + sp[k].off, sp[k].len, 0);
	}
	return line;
}

static int messages_walk(tui_app *a, int y, int x, int w, int first, int h)
{
	text_span sp[16];
	int line = 0;
	const lesson_set *ls = a->ls;
	for (int part = 0; part < 2; part++) {
		int n = part ? errlog_count(&a->errlog) : ls->nerrors;
		if (!n) continue;
		if (line > 0) line++;
		if (line >= first && line < first + h)
			widget_printfc(y + line - first, x, w, theme_attr(ROLE_HEADING), part ? "Written on stderr (%d lines)"
			               : "Lesson files left out (%d)", part ? a->errlog.total : n);
		line++;
		for (int i = 0; i < n; i++) {
			const char *t = part ? errlog_line(&a->errlog, i) : ls->errors[i];
			int k = text_wrap(t, w - 2, sp, 16);
			for (int j = 0; j < k && j < 16; j++, line++)
				if (line >= first && line < first + h)
					widget_textn(y + line - first, x + (j ? 4 : 1), w - (j ? 4 : 1), t + sp[j].off, sp[j].len,
					             part ? 0 : theme_attr(ROLE_BAD));
		}
	}
	if (!line && h > 0)
		widget_text(y, x, w, "No messages: every lesson file loaded, nothing was written on stderr.",
		            theme_attr(ROLE_DIM));
	return line;
}

/* A box of text lines (the glossary or the messages), scrolled. */
static void text_box_draw(tui_app *a, const char *title, int glossary_box)
{
	int w = a->cols - 4 > 96 ? 96 : a->cols - 4, h = a->rows - 4;
	int y = (a->rows - h) / 2, x = (a->cols - w) / 2, iw = w - 4;
	int n = glossary_box ? gloss_walk(0, 0, iw, 0, 0) : messages_walk(a, 0, 0, iw, 0, 0);
	if (n + 2 < h) h = n + 2 < 5 ? 5 : n + 2;
	if (a->overlay_scroll > n - (h - 2)) a->overlay_scroll = n - (h - 2) > 0 ? n - (h - 2) : 0;
	for (int i = 0; i < h; i++)
		widget_clear(y + i, x, w, 0);
	widget_box(y, x, h, w, title, 1);
	if (glossary_box)
		gloss_walk(y + 1, x + 2, iw, a->overlay_scroll, h - 2);
	else
		messages_walk(a, y + 1, x + 2, iw, a->overlay_scroll, h - 2);
	if (a->overlay_scroll > 0)
		widget_printf(y, x + w - 8, 6, theme_attr(ROLE_DIM), " %s%d ", theme_glyphs()->up, a->overlay_scroll);
	if (a->overlay_scroll + h - 2 < n)
		widget_printf(y + h - 1, x + w - 8, 6, theme_attr(ROLE_DIM), " %s%d ", theme_glyphs()->down,
		              n - a->overlay_scroll - (h - 2));
}

void overlay_draw(tui_app *a)
{
	switch (a->overlay) {
	case OVERLAY_HELP: keys_draw(a); break;
	case OVERLAY_GLOSSARY: text_box_draw(a, "Glossary (Tab: keys; j/k scroll; any other key closes)", 1); break;
	case OVERLAY_MESSAGES: text_box_draw(a, "Messages (j/k scroll; any other key closes)", 0); break;
	case OVERLAY_NONE: break;
	}
}

/* Lines the open overlay scrolls through, and its page. */
static int overlay_extent(tui_app *a, int *page)
{
	int iw = (a->cols - 4 > 96 ? 96 : a->cols - 4) - 4;
	*page = a->rows - 6;
	if (a->overlay == OVERLAY_HELP) {
		*page = a->rows - 4;
		return keys_per_column(a);
	}
	return a->overlay == OVERLAY_GLOSSARY ? gloss_walk(0, 0, iw, 0, 0) : messages_walk(a, 0, 0, iw, 0, 0);
}

unsigned overlay_key(tui_app *a, int ch)
{
	int page, n = overlay_extent(a, &page), *s = &a->overlay_scroll;
	if (page < 1) page = 1;
	if (widget_scroll_key(ch, s, page, n - page))
		return TUI_REDRAW;
	switch (ch) {
	case '\t': case KEY_BTAB:
		if (a->overlay == OVERLAY_MESSAGES) { a->overlay = OVERLAY_NONE; break; }
		overlay_open(a, a->overlay == OVERLAY_HELP ? OVERLAY_GLOSSARY : OVERLAY_HELP);
		return TUI_REDRAW;
	case 'q': return TUI_QUIT;
	default: a->overlay = OVERLAY_NONE; return TUI_REDRAW;
	}
	if (*s > n - page) *s = n - page;
	if (*s < 0) *s = 0;
	return TUI_REDRAW;
}
