/* tui_app: the application: state shared by the screens, the main loop, and the screen interface.
 * Key handlers change state and return flags; the loop alone redraws, and handles KEY_RESIZE. */
#ifndef CC_TUI_APP_H
#define CC_TUI_APP_H
#include "engine.h"
#include "tui.h"
#include "tui_errlog.h"
#include "tui_exercise.h"
#include "tui_heat.h"
#include "tui_mcode.h"
#include "tui_source.h"
#include "tui_stage.h"
#include "tui_tune.h"
#include "progress.h"

/* What a key handler did. */
enum { TUI_IGNORED = 0, TUI_REDRAW = 1, TUI_QUIT = 2 };

enum { TUI_MIN_COLS = 80, TUI_MIN_ROWS = 24 };

typedef struct tui_app tui_app;

/* A screen. Its state lives in tui_app (one of each); the slots are called by the loop only. */
typedef struct {
	const char *name;
	/* Draws rows 1 .. a->rows - 2 (the loop draws the title and status bars). */
	void (*draw)(tui_app *a);
	/* One key (never KEY_RESIZE); returns TUI_* flags. */
	unsigned (*key)(tui_app *a, int key);
	/* The terminal size changed; a->rows and a->cols are already the new size. */
	void (*resize)(tui_app *a);
	/* Key hints for the status bar: fills *pairs with "key", "text" pairs; returns the pair count.
	 * The loop adds "? help" at the end itself, always. */
	int (*hints)(tui_app *a, const char *const **pairs);
	/* A left click at (y, x), on rows 1 .. a->rows - 2; returns TUI_* flags. May be NULL. */
	unsigned (*click)(tui_app *a, int y, int x);
	/* The screen is left (another is opened, or the program ends). */
	void (*free)(tui_app *a);
} tui_screen;

/* The lesson list's selection and scroll. */
typedef struct {
	int sel, top;
} tui_lessons_view;

/* What the overlay shows (one at a time). */
typedef enum { OVERLAY_NONE, OVERLAY_HELP, OVERLAY_GLOSSARY, OVERLAY_MESSAGES } tui_overlay;

enum { PANE_EXPLAIN, PANE_CODE, PANE_TUNABLES, PANE_MEASURE, PANE_LADDER, PANE_COUNT };
/* The code pane's views; v cycles source, PTX, SASS; d in the SASS view is CODE_SASS_DIFF. */
typedef enum { CODE_SOURCE, CODE_DIFF, CODE_LOG, CODE_SWEEP, CODE_PTX, CODE_SASS, CODE_SASS_DIFF } code_view;

typedef struct { int y, x, h, w; } tui_rect;

/* The stage view's own state (the model is tui_stage). */
typedef struct {
	int focus, zoom;
	int scroll[PANE_COUNT], hscroll;  /* the ladder's: its first stage row */
	int ladder_sel;                   /* the ladder's selected row, while it has the focus */
	code_view code;
	int src_stage;                    /* the stage src belongs to, -1 none */
	source_text src, prev_src;        /* this stage's kernel and the previous stage's */
	char src_err[512];
	diff_op *diff; int ndiff;         /* -1: not computed */
	tui_mcode mc;                     /* the PTX and SASS views' code (loaded while one is open) */
	tui_heat heat;                    /* the heat column (H): a hotspot pass and its view */
	int reading, read_scroll;         /* the reading mode (o): the explanation on the whole screen */
	int roofline;                     /* the roofline chart (f) on the whole screen */
	int timeline, tl_first;           /* the stage's timeline (t) on the whole screen; its list's first step */
	tui_rect r[PANE_COUNT];
} tui_stage_view;

struct tui_app {
	engine *e;
	tui_opts opts;
	const lesson_set *ls;
	const device_info *dev;           /* NULL until probed */
	progress_state state;
	char state_path[4096];            /* "" when there is no place to keep progress_state */
	int rows, cols;
	const tui_screen *scr;
	tui_overlay overlay; int overlay_scroll;   /* help, the glossary, or the messages */
	score_metric *metric;             /* each lesson's (score_metric_of), NULL until asked */
	tui_errlog errlog;                /* stderr while curses is up */
	tui_lessons_view lv;
	tui_stage_view sv;
	tui_stage *m;                     /* the open lesson's model, NULL when none */
	tui_exercise ex;                  /* exercise mode's model (open on the stage view) and the marks */
	tui_tune tune;                    /* the tune view's search (T on a stage) */
	int lesson;                       /* its index in ls */
	double now;                       /* monotonic seconds, updated by the loop */
	char msg[512];                    /* a message for the status bar, cleared by the next key */
	unsigned pending;                 /* flags raised outside key handlers (engine events) */
};

extern const tui_screen tui_screen_lessons;
extern const tui_screen tui_screen_stage;
extern const tui_screen tui_screen_tune;

/* Opens lesson i at stage s (reusing the model when it is the same lesson). */
void app_open_lesson(tui_app *a, int i, int s);
/* Switches to screen s (calling the old one's free). */
void app_switch(tui_app *a, const tui_screen *s);
/* Saves the progress file when it changed (quietly: a failure shows in the status bar). */
void app_save(tui_app *a);
/* Loads the open stage's kernel (and the previous stage's, for the diff) when the stage changed;
 * in the PTX and SASS views, their code (mcode_sync). */
void screen_stage_sync(tui_app *a);
/* Exercise mode on the stage view (tui_stage_exercise.c): its keys when open, and x to open it
 * (TUI_IGNORED for keys it leaves to the stage view); its footer hints; leaving it. */
unsigned stage_exercise_key(tui_app *a, int key);
int stage_exercise_hints(tui_app *a, const char *const **pairs);
void stage_exercise_leave(tui_app *a);
/* A try's verdict came: the status line and the code pane follow it. */
void stage_exercise_verdict(tui_app *a);
/* The metric lesson i is scored in (score_metric_of, asked once). */
score_metric app_lesson_metric(tui_app *a, int i);
/* The overlays (tui_overlay.c): the keys, the glossary, and the messages (lesson files left out and
 * what was written on stderr); opening one, drawing it, and its keys. */
void overlay_open(tui_app *a, tui_overlay o);
void overlay_draw(tui_app *a);
unsigned overlay_key(tui_app *a, int key);
#endif
