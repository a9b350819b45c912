/* tui_theme: colour roles (with a monochrome column) and glyph tables (UTF-8 and ASCII), chosen once. */
#ifndef CC_TUI_THEME_H
#define CC_TUI_THEME_H

/* X(role, foreground, background, colour attributes, monochrome attributes) */
#define TUI_ROLES(X) \
	X(ROLE_NORMAL,      -1,            -1,         0,         0) \
	X(ROLE_TITLE,       COLOR_BLACK,   COLOR_CYAN, A_BOLD,    A_REVERSE) \
	X(ROLE_STATUS,      COLOR_BLACK,   COLOR_CYAN, 0,         A_REVERSE) \
	X(ROLE_KEY,         COLOR_YELLOW,  -1,         A_BOLD,    A_BOLD) \
	X(ROLE_FRAME,       COLOR_BLUE,    -1,         0,         0) \
	X(ROLE_FRAME_FOCUS, COLOR_CYAN,    -1,         A_BOLD,    A_BOLD) \
	X(ROLE_HEADING,     COLOR_CYAN,    -1,         A_BOLD,    A_BOLD) \
	X(ROLE_SELECT,      COLOR_BLACK,   COLOR_WHITE,0,         A_REVERSE) \
	X(ROLE_DIM,         COLOR_WHITE,   -1,         A_DIM,     A_DIM) \
	X(ROLE_GOOD,        COLOR_GREEN,   -1,         A_BOLD,    A_BOLD) \
	X(ROLE_WARN,        COLOR_YELLOW,  -1,         A_BOLD,    A_UNDERLINE) \
	X(ROLE_BAD,         COLOR_RED,     -1,         A_BOLD,    A_BOLD | A_UNDERLINE) \
	X(ROLE_GAUGE,       COLOR_GREEN,   -1,         0,         0) \
	X(ROLE_GAUGE_EMPTY, COLOR_WHITE,   -1,         A_DIM,     A_DIM) \
	X(ROLE_MARK,        COLOR_MAGENTA, -1,         A_BOLD,    A_BOLD) \
	X(ROLE_LINENO,      COLOR_WHITE,   -1,         A_DIM,     A_DIM) \
	X(ROLE_KEYWORD,     COLOR_BLUE,    -1,         A_BOLD,    A_BOLD) \
	X(ROLE_COMMENT,     COLOR_GREEN,   -1,         0,         A_DIM) \
	X(ROLE_STRING,      COLOR_MAGENTA, -1,         0,         0) \
	X(ROLE_NUMBER,      COLOR_CYAN,    -1,         0,         0) \
	X(ROLE_PREPROC,     COLOR_YELLOW,  -1,         0,         A_BOLD) \
	X(ROLE_DIFF_ADD,    COLOR_GREEN,   -1,         A_BOLD,    A_BOLD) \
	X(ROLE_DIFF_DEL,    COLOR_RED,     -1,         0,         A_DIM) \
	/* machine code: 128-bit and narrower global loads and stores, shared memory, FFMA, tensor \
	 * cores, barriers (monochrome: the tag beside the instruction tells the classes apart) */ \
	X(ROLE_SASS_WIDE,   COLOR_GREEN,   -1,         A_BOLD,    A_BOLD | A_UNDERLINE) \
	X(ROLE_SASS_GLOBAL, COLOR_YELLOW,  -1,         0,         A_UNDERLINE) \
	X(ROLE_SASS_SHARED, COLOR_CYAN,    -1,         0,         A_UNDERLINE) \
	X(ROLE_SASS_FMA,    COLOR_MAGENTA, -1,         0,         A_BOLD) \
	X(ROLE_SASS_TENSOR, COLOR_MAGENTA, -1,         A_BOLD,    A_BOLD) \
	X(ROLE_SASS_BAR,    COLOR_RED,     -1,         A_BOLD,    A_BOLD | A_UNDERLINE)

typedef enum {
#define TUI_ROLE_ENUM(r, fg, bg, ca, ma) r,
	TUI_ROLES(TUI_ROLE_ENUM)
#undef TUI_ROLE_ENUM
	ROLE_COUNT
} tui_role;

/* Glyphs as UTF-8 strings, one column wide each (pm may be two in ASCII). */
typedef struct {
	const char *h, *v, *tl, *tr, *bl, *br;  /* box */
	const char *eighth[9];                  /* gauge fill: 0/8 .. 8/8 of a cell */
	const char *empty, *mark;               /* gauge background, peak/baseline marker */
	const char *spark[8];                   /* sparkline levels */
	const char *ok, *bad, *sel, *ellipsis, *up, *down, *pm;
	const char *todo, *seen, *done, *fail;  /* progress of a stage */
	const char *warn;                       /* a compiler warning's line */
	const char *from;                       /* "comes from": a #define's value from -D (2 in ASCII) */
	/* an exercise's progress: not started, started (or compiles), correct (not fast enough), passed */
	const char *ex_todo, *ex_started, *ex_correct, *ex_passed;
} tui_glyphs;

extern const tui_glyphs tui_glyphs_utf8;
extern const tui_glyphs tui_glyphs_ascii;

/* Chooses colours and glyphs once, after initscr: colour when want_color and the terminal has
 * colours; UTF-8 glyphs when want_utf8. */
void theme_init(int want_color, int want_utf8);
/* The curses attributes of a role (colour pair and attributes, or the monochrome ones). */
unsigned theme_attr(tui_role r);
const tui_glyphs *theme_glyphs(void);
int theme_has_color(void);
int theme_utf8(void);
#endif
