/* tui_exercise: the model of the stage view's exercise mode (src/engine/exercise.h does the work): the
 * learner's file (its text, and an inotify watch on its folder so that a save from any editor tries
 * it again), the try in flight and its verdict, the compiler's messages on the learner's lines, the
 * hints shown, the diff against the stage's kernel once it may open, and every exercise's progress
 * mark for the lesson list and the ladder. No curses: the panes draw it. */
#ifndef CC_TUI_EXERCISE_H
#define CC_TUI_EXERCISE_H
#include "exercise.h"
#include "tui_source.h"
#include "tui_stage.h"

enum { EXERCISE_DIAGS = 32, EXERCISE_MARK_NONE = -1 };

/* A compiler message on a line of the learner's file. */
typedef struct { int line; int error; char msg[200]; } exercise_diag;

/* What exercise_event changed. */
enum { EXERCISE_CHANGED = 1, EXERCISE_VERDICT = 2 };

typedef struct {
	char *work;                       /* the workspace (owned) */
	const lesson_set *ls;
	signed char **marks;              /* marks[lesson][stage]: an ex_level, or EXERCISE_MARK_NONE */
	/* The exercise open; l is NULL when none. */
	const lesson *l; int li, stage;
	char *file;                       /* the learner's file (owned) */
	source_text src; char src_err[256];
	ex_try *t;                        /* the latest try, kept after its verdict to show it */
	engine *e;                        /* the engine the try runs on (not owned) */
	double t_start, t_verdict;
	int recorded;                     /* its verdict went into the progress */
	int replay;                       /* runs come from a replay file: verdicts are not recorded */
	int first;                        /* it is the one started on entering */
	job_phase phase; char note[256];  /* of the try's latest event */
	exercise_diag diag[EXERCISE_DIAGS]; int ndiag;
	ex_progress prog;
	source_text kernel;               /* the stage's own kernel, loaded when the diff first opens */
	diff_op *diff; int ndiff;         /* the learner's file against it; -1 not computed */
	int watch;                        /* inotify fd on the file's folder, -1 none */
	double due;                       /* a save was seen (or values changed): try at this time; 0 none */
	char msg[512];                    /* a one-line message for the status bar */
} tui_exercise;

/* Sets x up for ls: the workspace (override, else ex_workspace's default) and every exercise's
 * mark. Returns 0, or -1 with x->msg when the progress could not be read (marks then say none). */
int exercise_init(tui_exercise *x, const lesson_set *ls, const char *override);
/* Leaves the open exercise and frees everything. */
void exercise_free(tui_exercise *x);
/* Whether an exercise is open. */
int exercise_active(const tui_exercise *x);
/* Opens the exercise of m's current stage (lesson li of the set): creates the learner's file from
 * the starter when missing (never over one), reads it, watches its folder. Returns 0 (x->msg says
 * where the file is), or -1 with x->msg (no exercise, or the file cannot be made). */
int exercise_enter(tui_exercise *x, const tui_stage *m, int li);
/* Closes the open exercise: cancels its try, stops watching. */
void exercise_leave(tui_exercise *x);
/* Rereads the learner's file and starts a try with m's current values (a try in flight is
 * cancelled first). Returns 0, or -1 with x->msg. */
int exercise_try(tui_exercise *x, tui_stage *m, double now);
/* The engine's listener, forwarded. When the verdict becomes known: records it in the progress,
 * rereads the progress, parses the compiler's messages, sets x->msg. Returns EXERCISE_* flags. */
unsigned exercise_event(tui_exercise *x, int job, job_phase phase, const char *note, const run_result *r,
                   double now);
/* The watch's fd to poll for input, or -1. */
int exercise_pollfd(const tui_exercise *x);
/* Reads the watch's events: a write or rename onto the learner's file schedules a try ~30 ms later
 * (editors write in bursts). Returns 1 when one was scheduled. */
int exercise_watch_read(tui_exercise *x, double now);
/* Drops the watch's pending events (after the TUI's own editor, which tries once itself). */
void exercise_watch_drain(tui_exercise *x);
/* Schedules a try at time when. */
void exercise_schedule(tui_exercise *x, double when);
/* Starts the scheduled try when it is due. Returns 1 when something shown changed. */
int exercise_tick(tui_exercise *x, tui_stage *m, double now);
/* Milliseconds until the scheduled try, or -1 when none. */
int exercise_timeout(const tui_exercise *x, double now);
/* Records and returns the number of the next hint (1-based; the last one again once all are
 * shown), 0 when the exercise has none (x->msg says so). */
int exercise_hint(tui_exercise *x);
/* Opens the diff of the learner's file against the stage's kernel: only once the exercise was
 * passed or every hint shown. Returns 0, or -1 with x->msg saying what opens it. */
int exercise_diff_open(tui_exercise *x);
/* The verdict of the latest try (NULL when none) and its state (ex_try_state; -1 when none). */
const ex_verdict *exercise_verdict(const tui_exercise *x);
int exercise_state(const tui_exercise *x);
/* The compiler's output of the latest try when it did not compile, else NULL. */
const char *exercise_log(const tui_exercise *x);
/* The mark of lesson li's stage s: an ex_level, or EXERCISE_MARK_NONE when it has no exercise. */
int exercise_mark(const tui_exercise *x, int li, int s);

/* ---- pure helpers (tui_exercise_text.c), unit-tested ---- */

/* The compiler's messages on file's lines from an NVRTC log ("PATH(LINE): error: MESSAGE", also
 * warnings; PATH is file or has its base name). Fills out[0..cap); returns the count. */
int exercise_log_parse(const char *log, const char *file, exercise_diag *out, int cap);
/* The first error of d[0..n) (else the first warning), or NULL. */
const exercise_diag *exercise_first_diag(const exercise_diag *d, int n);

/* One line of the verdict pane, wrapped when drawn. */
typedef struct { char text[600]; tui_role role; } exercise_line;
/* The verdict word: "PASSED", "NOT YET", "COMPILED", "ERROR", "REFUSED". */
const char *exercise_word(ex_kind k);
/* The verdict pane's lines for v in a try of the given state (0 running: the phase, its note and
 * the seconds elapsed say what is going on) and the learner's compiler messages. Returns the
 * count (at most cap). */
int exercise_verdict_lines(const ex_verdict *v, int state, job_phase phase, const char *note, double secs,
                      const exercise_diag *diag, int ndiag, exercise_line *out, int cap);
/* The glyph and role of a mark (exercise_mark): "" for EXERCISE_MARK_NONE. */
const char *exercise_mark_glyph(int mark, const tui_glyphs *g, tui_role *role);
/* path with home replaced by "~", cut on the left to maxw columns (ell first when cut). */
char *exercise_short_path(char *out, size_t len, const char *path, const char *home, int maxw, const char *ell);
#endif
