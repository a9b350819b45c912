/* The stage view's exercise mode: x opens and closes it, e edits the learner's file in $EDITOR
 * (curses suspended meanwhile), h shows the next hint, d the learner's file against the stage's
 * kernel (once it may open), c the compiler's output, r tries again; and what a verdict does to
 * the view. The model is tui_exercise. */
#define NCURSES_WIDECHAR 1
#include <curses.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "tui_app.h"

static void reset_view(tui_app *a)
{
	tui_stage_view *v = &a->sv;
	v->code = CODE_SOURCE;
	v->scroll[PANE_CODE] = v->scroll[PANE_MEASURE] = v->scroll[PANE_EXPLAIN] = 0;
	v->hscroll = 0;
}

void stage_exercise_leave(tui_app *a)
{
	if (!exercise_active(&a->ex))
		return;
	exercise_leave(&a->ex);
	reset_view(a);
}

static unsigned enter(tui_app *a)
{
	tui_stage *m = a->m;
	if (exercise_enter(&a->ex, m, a->lesson) < 0) {
		snprintf(a->msg, sizeof a->msg, "%s", a->ex.msg);
		return TUI_REDRAW;
	}
	if (m->live)                        /* the try's timing wants the GPU to itself */
		stage_toggle_live(m, a->now);
	if (m->run_job) {
		engine_cancel(m->e, m->run_job);
		m->run_job = 0;
	}
	m->want_run = 0;
	reset_view(a);
	exercise_try(&a->ex, m, a->now);         /* the starter's verdict */
	return TUI_REDRAW;
}

/* Runs the editor on path with the terminal, as git does: sh -c '$EDITOR "$1"' with the path as
 * $1 (never parsed by the shell). Ctrl-C belongs to the editor meanwhile, and the real stderr (log).
 * Returns 0, or -1 with err. */
static int run_editor(const char *path, const tui_errlog *log, char *err, size_t errlen)
{
	const char *ed = getenv("EDITOR");
	if (!ed || !ed[0]) ed = getenv("VISUAL");
	if (!ed || !ed[0]) ed = "vi";
	char cmd[1024];
	snprintf(cmd, sizeof cmd, "%s \"$1\"", ed);
	struct sigaction ign, old_int, old_quit;
	memset(&ign, 0, sizeof ign);
	ign.sa_handler = SIG_IGN;
	sigemptyset(&ign.sa_mask);
	def_prog_mode();
	endwin();
	sigaction(SIGINT, &ign, &old_int);
	sigaction(SIGQUIT, &ign, &old_quit);
	pid_t pid = fork();
	if (pid == 0) {
		sigset_t none;
		sigemptyset(&none);
		signal(SIGINT, SIG_DFL);
		signal(SIGQUIT, SIG_DFL);
		sigprocmask(SIG_SETMASK, &none, NULL);   /* the TUI blocks its signals outside ppoll */
		errlog_child(log);                       /* the editor's stderr is the terminal's */
		execl("/bin/sh", "sh", "-c", cmd, "sh", path, (char *)NULL);
		_exit(127);
	}
	int st = 0, rc = 0;
	if (pid < 0) {
		snprintf(err, errlen, "cannot start the editor: %s", strerror(errno));
		rc = -1;
	} else {
		while (waitpid(pid, &st, 0) < 0 && errno == EINTR) {}
		if (WIFEXITED(st) && WEXITSTATUS(st) == 127)
			snprintf(err, errlen, "cannot run the editor '%s' (set EDITOR)", ed), rc = -1;
		else if (!WIFEXITED(st) || WEXITSTATUS(st))
			snprintf(err, errlen, "the editor '%s' ended with status %d", ed, WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st)), rc = -1;
	}
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGQUIT, &old_quit, NULL);
	reset_prog_mode();
	clearok(curscr, TRUE);
	refresh();
	return rc;
}

static unsigned edit(tui_app *a)
{
	char err[512];
	struct timespec ts;
	if (run_editor(a->ex.file, &a->errlog, err, sizeof err) < 0)
		snprintf(a->msg, sizeof a->msg, "%s", err);
	clock_gettime(CLOCK_MONOTONIC, &ts);
	a->now = (double)ts.tv_sec + ts.tv_nsec / 1e9;   /* the editor took a while */
	exercise_watch_drain(&a->ex);            /* its saves: tried once, here */
	exercise_try(&a->ex, a->m, a->now);
	return TUI_REDRAW;
}

static void open_diff(tui_app *a)
{
	tui_stage_view *v = &a->sv;
	if (exercise_diff_open(&a->ex) < 0)
		return;
	v->code = CODE_DIFF;
	v->scroll[PANE_CODE] = 0;
	v->hscroll = 0;
	for (int i = 0; i < a->ex.ndiff; i++)   /* a few lines above the first change */
		if (a->ex.diff[i].kind != DIFF_SAME) {
			v->scroll[PANE_CODE] = i > 3 ? i - 3 : 0;
			break;
		}
}

unsigned stage_exercise_key(tui_app *a, int ch)
{
	tui_exercise *x = &a->ex;
	tui_stage_view *v = &a->sv;
	if (!exercise_active(x))
		return ch == 'x' ? enter(a) : TUI_IGNORED;
	switch (ch) {
	case 'x':
		stage_exercise_leave(a);
		snprintf(a->msg, sizeof a->msg, "exercise mode left: x opens it again");
		break;
	case 27: case KEY_BACKSPACE: case 127:
		if (v->zoom) v->zoom = 0;
		else if (v->code != CODE_SOURCE) { v->code = CODE_SOURCE; v->scroll[PANE_CODE] = 0; }
		else { stage_exercise_leave(a); snprintf(a->msg, sizeof a->msg, "exercise mode left: x opens it again"); }
		break;
	case 'e': return edit(a);
	case 'h':
		if (exercise_hint(x)) v->scroll[PANE_EXPLAIN] = 0;
		break;
	case 'd':
		if (v->code == CODE_DIFF) v->code = CODE_SOURCE;
		else open_diff(a);
		break;
	case 'c':
		v->code = v->code == CODE_LOG ? CODE_SOURCE : CODE_LOG;
		v->scroll[PANE_CODE] = 0;
		break;
	case 'r': exercise_try(x, a->m, a->now); break;
	case 'l': case 's': case 'a':
		snprintf(a->msg, sizeof a->msg, "in exercise mode r tries your kernel; x leaves it to run the stage's own");
		break;
	case 'n': case ']': case 'p': case '[':
		stage_exercise_leave(a);               /* the exercise belongs to this stage; the view moves on */
		return TUI_IGNORED;
	default:
		return TUI_IGNORED;
	}
	return TUI_REDRAW;
}

void stage_exercise_verdict(tui_app *a)
{
	const exercise_diag *d = exercise_first_diag(a->ex.diag, a->ex.ndiag);
	a->sv.scroll[PANE_MEASURE] = 0;
	if (d && a->sv.code == CODE_SOURCE)
		a->sv.scroll[PANE_CODE] = d->line > 4 ? d->line - 4 : 0;
}

int stage_exercise_hints(tui_app *a, const char *const **pairs)
{
	static const char *const h[] = { "e", "edit", "h", "hint", "r", "try", "d", "diff", "c", "log",
		"Tab", "pane", "x", "leave", "?", "help" };
	(void)a;
	*pairs = h;
	return 8;
}
