/* The main loop: one poll() over the terminal and the engine, keys to handlers, one redraw. */
#define NCURSES_WIDECHAR 1
#include <curses.h>
#include <errno.h>
#include <langinfo.h>
#include <locale.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "tui_app.h"
#include "tui_widget.h"
#include "util.h"

static volatile sig_atomic_t got_signal;
static const int stop_signals[3] = { SIGINT, SIGTERM, SIGHUP };

/* Only sets a flag: the loop notices it when ppoll returns EINTR. */
static void on_signal(int sig) { got_signal = sig; }

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

void app_switch(tui_app *a, const tui_screen *s)
{
	if (a->scr == s)
		return;
	if (a->scr && a->scr->free)
		a->scr->free(a);
	a->scr = s;
	if (s->resize)                   /* the new screen fits itself to the terminal */
		s->resize(a);
	app_save(a);
}

void app_save(tui_app *a)
{
	char err[400];
	/* A replay's runs are recorded results, not the learner's: the file is never written. */
	if (!a->state_path[0] || !a->state.dirty || a->opts.frames > 0 || a->opts.replay)
		return;
	if (progress_save(&a->state, a->state_path, err, sizeof err) < 0) {
		snprintf(a->msg, sizeof a->msg, "progress not saved: %s", err);
		a->state_path[0] = 0;       /* say it once */
	}
}

void app_open_lesson(tui_app *a, int i, int s)
{
	if (i < 0 || i >= a->ls->count || !a->dev)
		return;
	if (a->m && a->lesson != i) {
		stage_free(a->m);
		a->m = NULL;
	}
	if (!a->m) {
		a->m = stage_new(a->e, a->ls->items[i], a->dev, &a->state);
		if (!a->m) {
			snprintf(a->msg, sizeof a->msg, "cannot open %s: out of memory", a->ls->items[i]->id);
			return;
		}
		a->m->replay = a->opts.replay != NULL;
		a->sv.focus = PANE_EXPLAIN;
	}
	a->lesson = i;
	a->lv.sel = i;
	stage_select(a->m, s);
	screen_stage_sync(a);
	app_switch(a, &tui_screen_stage);
}

score_metric app_lesson_metric(tui_app *a, int i)
{
	if (i < 0 || i >= a->ls->count)
		return SCORE_GBPS;
	if (!a->metric) {
		a->metric = xcalloc((size_t)a->ls->count, sizeof *a->metric);
		for (int k = 0; k < a->ls->count; k++)
			a->metric[k] = score_metric_of(a->e, a->ls->items[k]);
	}
	return a->metric[i];
}

static void on_engine(void *ctx, int job, job_phase phase, const char *note, const run_result *r)
{
	tui_app *a = ctx;
	if (tui_tune_event(&a->tune, a->e, job, phase, r)) {   /* the tune view's pairs (T) */
		a->pending |= TUI_REDRAW;
		return;
	}
	int hev = heat_event(&a->sv.heat, job, phase, r, a->msg, sizeof a->msg);   /* a hotspot pass (H) */
	if (hev) {
		if (hev == 2 && a->sv.code == CODE_SOURCE)   /* its samples came: the hottest line in view */
			a->sv.scroll[PANE_CODE] = heat_hot_row(&a->sv.heat);
		else if (hev == 2 && a->scr == &tui_screen_stage)
			screen_stage_sync(a);                      /* the SASS view: its hottest instruction */
		a->pending |= TUI_REDRAW;
		return;
	}
	unsigned x = exercise_event(&a->ex, job, phase, note, r, a->now);   /* the try's jobs are not the model's */
	if (x)
		a->pending |= TUI_REDRAW;
	if (x & EXERCISE_VERDICT)
		stage_exercise_verdict(a);
	int ev = a->m ? stage_event(a->m, job, phase, note, r, a->now) : 0;
	if (!ev)
		return;
	a->pending |= TUI_REDRAW;
	if (a->scr == &tui_screen_stage && (phase == JOB_COMPILING || phase == JOB_DONE))
		screen_stage_sync(a);          /* a kernel file edited since it was shown: shown again; the PTX and SASS */
	if (ev == STAGE_EV_CODE)         /* a compile for those views: not a run, the view stays */
		return;
	const stage_slot *sl = &a->m->slots[a->m->cur];
	if (phase == JOB_DONE && sl->have_last && !exercise_active(&a->ex)) {
		if (sl->last.status == RUN_COMPILE_ERROR)
			a->sv.code = CODE_LOG;
		else if (a->sv.code == CODE_LOG)
			a->sv.code = CODE_SOURCE;
	}
}

static int too_small(const tui_app *a)
{
	return a->cols < TUI_MIN_COLS || a->rows < TUI_MIN_ROWS;
}

/* The right of the title bar: LIVE, REPLAY of FILE, the GPU's name cropped to name_w (left out
 * when name_w < 8 and there is a replay label in its place) and its architecture. */
static void title_right(tui_app *a, char *out, size_t len, int name_w)
{
	char name[128] = "", rep[96] = "", file[64];
	const char *suffix = a->dev && a->dev->arch[0] ? a->dev->arch : "";
	if (a->opts.replay) {
		const char *base = strrchr(a->opts.replay, '/');
		text_crop(file, sizeof file, base ? base + 1 : a->opts.replay, 28, theme_glyphs()->ellipsis);
		snprintf(rep, sizeof rep, "REPLAY of %s", file);
	}
	if (!a->dev)
		snprintf(name, sizeof name, "looking for a GPU...");
	else if (!a->dev->present)
		snprintf(name, sizeof name, "no GPU: compile only");
	else if (!rep[0] || name_w >= 8)
		text_crop(name, sizeof name, a->dev->name, name_w < 8 ? 8 : name_w, theme_glyphs()->ellipsis);
	snprintf(out, len, "%s%s%s%s%s%s%s ", a->m && a->m->live ? "LIVE  " : "", rep, rep[0] && name[0] ? "  " : "",
	         name, suffix[0] ? " (" : "", suffix, suffix[0] ? ")" : "");
}

static void draw_title(tui_app *a)
{
	unsigned at = theme_attr(ROLE_TITLE);
	char right[320], left[400];
	int stage = a->scr == &tui_screen_stage && a->m;
	widget_clear(0, 0, a->cols, at);
	/* the GPU's name gets what the stage's title leaves, at least 40 columns on the left */
	title_right(a, right, sizeof right, (stage ? a->cols / 3 : a->cols / 2) - 10);
	int rw = text_width(right, strlen(right));
	if (stage && a->cols - rw - 1 < 40 && a->opts.replay) {
		title_right(a, right, sizeof right, 0);
		rw = text_width(right, strlen(right));
	}
	if (stage) {
		const lesson_stage *st = &a->m->l->stages[a->m->cur];
		const char *title = st->title ? st->title : "";
		size_t n = strlen(st->id);
		int repeats = !strncmp(title, st->id, n) && (title[n] == ':' || title[n] == ' ' || !title[n]);
		int k = stage_case(a->m);   /* the case the values are in, beside the lesson: cropping keeps it */
		char cs[64] = "";
		if (k >= 0) snprintf(cs, sizeof cs, " [case %s]", a->m->l->cases[k].name);
		snprintf(left, sizeof left, " cudaclimb  %s  %s%s %d/%d  %s%s%s", theme_glyphs()->v, a->m->l->id, cs,
		         a->m->cur + 1, a->m->l->nstages, repeats ? "" : st->id, repeats ? "" : ": ", title);
	} else {
		snprintf(left, sizeof left, " cudaclimb");
	}
	widget_textc(0, 0, a->cols - rw - 1, left, at);
	widget_text(0, a->cols - rw, rw, right, at);
}

static void draw_status(tui_app *a)
{
	static const char *const help[] = { "?", "help" };
	unsigned at = theme_attr(ROLE_STATUS);
	const char *const *pairs = NULL;
	const char *keep[48];
	int y = a->rows - 1, x = 0, hw = 8;    /* " ? help": always there */
	widget_clear(y, 0, a->cols, at);
	const char *msg = a->msg[0] ? a->msg : "";
	if (!msg[0] && a->m && a->m->njobs > 0 && a->m->phase == JOB_WAITING_GPU)
		msg = a->m->note[0] ? a->m->note : "waiting for the GPU";   /* says who holds it */
	else if (!msg[0] && a->m && a->scr == &tui_screen_stage)
		msg = exercise_active(&a->ex) && a->ex.msg[0] ? a->ex.msg : a->m->msg;
	if (msg[0])
		x += widget_printfc(y, 0, a->cols - hw - 1, at | A_BOLD, " %s  ", msg);
	int n = a->scr->hints ? a->scr->hints(a, &pairs) : 0, k = 0;
	for (int i = 0; i < n && k + 2 <= 48; i++)   /* the screen's hints but "?", which goes last */
		if (strcmp(pairs[2 * i], "?")) {
			keep[k++] = pairs[2 * i];
			keep[k++] = pairs[2 * i + 1];
		}
	if (x < a->cols - 20 - hw)
		x += 1 + widget_hints(y, x + 1, a->cols - x - 1 - hw, keep, k / 2, at);
	else if (x > 0)
		x++;                                     /* after a message cut with the ellipsis */
	widget_hints(y, x, a->cols - x, help, 1, at);
}

static void draw(tui_app *a)
{
	erase();
	if (too_small(a)) {
		char line[128];
		snprintf(line, sizeof line, "terminal too small: %dx%d, need %dx%d", a->cols, a->rows,
		         TUI_MIN_COLS, TUI_MIN_ROWS);
		int w = text_width(line, strlen(line));
		widget_text(a->rows / 2, w < a->cols ? (a->cols - w) / 2 : 0, a->cols, line, A_BOLD);
		widget_text(a->rows / 2 + 1, a->cols > 6 ? (a->cols - 6) / 2 : 0, a->cols, "q quits", 0);
	} else {
		draw_title(a);
		a->scr->draw(a);
		draw_status(a);
		if (a->overlay != OVERLAY_NONE)
			overlay_draw(a);
	}
	refresh();
}

/* The one place that handles KEY_RESIZE. */
static void resize(tui_app *a)
{
	getmaxyx(stdscr, a->rows, a->cols);
	if (a->scr && a->scr->resize)
		a->scr->resize(a);
}

static unsigned handle_key(tui_app *a, int ch)
{
	int typing = a->m && a->m->editing && a->scr == &tui_screen_stage;
	a->msg[0] = 0;
	a->ex.msg[0] = 0;
	if (a->m) a->m->msg[0] = 0;
	if (ch == 3)                                    /* Ctrl-C in raw terminals */
		return TUI_QUIT;
	if (too_small(a))
		return ch == 'q' ? TUI_QUIT : TUI_IGNORED;
	if (ch == 12) {                                 /* Ctrl-L */
		clearok(curscr, TRUE);
		return TUI_REDRAW;
	}
	if (ch == KEY_F(10))                            /* htop's and nvtop's quit */
		return TUI_QUIT;
	if (ch == KEY_MOUSE) {
		MEVENT ev;
		mmask_t multi = BUTTON1_DOUBLE_CLICKED | BUTTON1_TRIPLE_CLICKED;
		if (getmouse(&ev) != OK || !(ev.bstate & (BUTTON1_CLICKED | BUTTON1_PRESSED | multi)))
			return TUI_IGNORED;
		if (a->overlay != OVERLAY_NONE) {           /* a click closes an overlay */
			a->overlay = OVERLAY_NONE;
			return TUI_REDRAW;
		}
		if (typing || ev.y < 1 || ev.y > a->rows - 2 || !a->scr->click)
			return TUI_IGNORED;
		const tui_screen *scr = a->scr;
		unsigned f = scr->click(a, ev.y, ev.x);
		if ((ev.bstate & multi) && a->scr == scr)   /* a double click: the second one too */
			f |= scr->click(a, ev.y, ev.x);
		return f;
	}
	if (a->overlay != OVERLAY_NONE)
		return overlay_key(a, ch);
	if (typing)
		return a->scr->key(a, ch);
	if (ch == 'q')
		return TUI_QUIT;
	if (ch == '?' || ch == KEY_F(1)) {
		overlay_open(a, OVERLAY_HELP);
		return TUI_REDRAW;
	}
	return a->scr->key(a, ch);
}

/* Where the learner left off. */
static void reopen(tui_app *a)
{
	for (int i = 0; i < a->ls->count; i++) {
		const lesson *l = a->ls->items[i];
		if (strcmp(l->id, a->state.last_lesson))
			continue;
		a->lv.sel = i;
		int s = a->state.last_stage[0] ? lesson_stage_index(l, a->state.last_stage) : -1;
		if (s >= 0)
			app_open_lesson(a, i, s);
	}
}

/* Lines written on stderr since the last look: the latest in the status bar, all of them in the
 * messages (e on the lesson list). Returns non-zero when there were some. */
static int take_stderr(tui_app *a)
{
	int n = errlog_read(&a->errlog);
	if (n > 0)
		snprintf(a->msg, sizeof a->msg, "stderr: %s", errlog_line(&a->errlog, errlog_count(&a->errlog) - 1));
	return n > 0;
}

/* The fixed tour of --frames: keys fed to the handlers, not read from the terminal. */
static const int tour[] = { KEY_DOWN, KEY_UP, '\n', '\t', KEY_NPAGE, '\t', KEY_RIGHT, KEY_LEFT,
	'4', '8', KEY_BACKSPACE, 27, 'j', 's', '\t', '\t', 'd', 'e', 'z', 'z', 'f', 'f', 'a', '?', 27, 'n', 'd', 'p',
	'v', 'v', 'd', 'v', 'o', 'j', KEY_NPAGE, 'o', 27, 27 };

/* Out of memory (util.h's allocators) while curses owns the terminal: give it back, and stderr,
 * so that the message is seen. */
static tui_app *fatal_app;
static void on_fatal(void)
{
	endwin();
	if (fatal_app) errlog_stop(&fatal_app->errlog);
}

static int setup_curses(tui_app *a, SCREEN **scr, FILE **devnull)
{
	const char *term = getenv("TERM");
	FILE *out = stdout;
	if (a->opts.frames > 0) {
		if (!term || !term[0] || !strcmp(term, "dumb"))
			term = "xterm";
		if (!isatty(STDOUT_FILENO) && (*devnull = fopen("/dev/null", "w")))
			out = *devnull;
	}
	*scr = newterm(term, out, stdin);
	if (!*scr) {
		fprintf(stderr, "cudaclimb: cannot use the terminal '%s' (set TERM, or use the CLI: "
		        "cudaclimb --help)\n", term ? term : "");
		return -1;
	}
	fatal_app = a;
	util_on_fatal(on_fatal);
	cbreak();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	nodelay(stdscr, TRUE);
	curs_set(0);
	set_escdelay(25);
	if (a->opts.frames <= 0)
		mousemask(BUTTON1_CLICKED | BUTTON1_DOUBLE_CLICKED | BUTTON1_TRIPLE_CLICKED, NULL);   /* a pane, a stage, a lesson */
	return 0;
}

static int loop(tui_app *a, const sigset_t *waitmask, char *fatal, size_t fatal_len)
{
	unsigned flags = TUI_REDRAW;
	int frame = 0, busy_shown = -1;
	for (;;) {
		a->now = now_s();
		flags |= a->pending;
		a->pending = 0;
		if (got_signal || (flags & TUI_QUIT))
			return got_signal ? 128 + got_signal : 0;
		if (flags & TUI_REDRAW) {
			draw(a);
			flags = 0;
			frame++;
		}
		if (a->opts.frames > 0) {
			if (frame >= a->opts.frames)
				return 0;
			take_stderr(a);
			flags = handle_key(a, tour[(frame - 1) % (int)(sizeof tour / sizeof *tour)]) | TUI_REDRAW;
			continue;
		}
		struct pollfd fds[35] = { { .fd = STDIN_FILENO, .events = POLLIN } };
		int nfd = engine_pollfds(a->e, fds + 1, 32), timeout = -1, wfd = exercise_pollfd(&a->ex);
		int efd = errlog_fd(&a->errlog), nall = 1 + nfd;
		if (wfd >= 0)                /* saves of the learner's file, from any editor */
			fds[nall++] = (struct pollfd){ .fd = wfd, .events = POLLIN };
		if (efd >= 0)                /* what anything wrote on stderr */
			fds[nall++] = (struct pollfd){ .fd = efd, .events = POLLIN };
		if (engine_busy(a->e))       /* the watchdog, the elapsed time shown, and steps without an fd */
			timeout = nfd > 0 ? 250 : 100;
		int t = a->m ? stage_timeout(a->m, a->now) : -1, xt = exercise_timeout(&a->ex, a->now);
		if (xt >= 0 && (t < 0 || xt < t))
			t = xt;
		if (t >= 0 && (timeout < 0 || t < timeout))
			timeout = t;
		if (a->tune.running && (timeout < 0 || timeout > 250))   /* its next pair, the seconds left */
			timeout = 250;
		if (a->tune.building)                                     /* its next step of checks, keys between */
			timeout = 0;
		struct timespec ts = { timeout / 1000, (timeout % 1000) * 1000000L };
		if (ppoll(fds, (nfds_t)nall, timeout >= 0 ? &ts : NULL, waitmask) < 0 && errno != EINTR) {
			snprintf(fatal, fatal_len, "poll: %s", strerror(errno));
			return 1;
		}
		/* The terminal went away (SSH dropped, tmux killed) without a SIGHUP reaching us: poll would
		 * report the hang-up forever, so leave as if SIGHUP had come. */
		if (fds[0].revents & (POLLHUP | POLLERR | POLLNVAL))
			return 128 + SIGHUP;
		/* A signal is delivered only while ppoll waits; when it returns at once (input ready on every
		 * call) a stop signal stays pending. Take it here, so that one always ends the program. */
		sigset_t pend;
		if (!got_signal && sigpending(&pend) == 0)
			for (int i = 0; i < 3 && !got_signal; i++)
				if (sigismember(&pend, stop_signals[i])) {
					siginfo_t si;
					struct timespec zero = { 0, 0 };
					sigset_t one;
					sigemptyset(&one);
					sigaddset(&one, stop_signals[i]);
					if (sigtimedwait(&one, &si, &zero) > 0)
						got_signal = si.si_signo;
				}
		a->now = now_s();
		if (wfd >= 0 && (fds[1 + nfd].revents & POLLIN))
			exercise_watch_read(&a->ex, a->now);
		if (take_stderr(a))
			flags |= TUI_REDRAW;
		engine_poll(a->e, 0);
		int ch;
		while ((ch = getch()) != ERR) {
			if (ch == KEY_RESIZE) {
				resize(a);
				flags |= TUI_REDRAW;
			} else {
				flags |= handle_key(a, ch);
			}
		}
		if (a->m && stage_tick(a->m, a->now))
			flags |= TUI_REDRAW;
		if (a->m && exercise_tick(&a->ex, a->m, a->now))
			flags |= TUI_REDRAW;
		if (tui_tune_tick(&a->tune, a->e, a->now))
			flags |= TUI_REDRAW;
		engine_poll(a->e, 0);           /* starts what the keys and timers just submitted */
		int busy = a->m && engine_busy(a->e) ? (int)(a->now - a->m->phase_since) : -1;
		if (busy != busy_shown) {
			busy_shown = busy;
			flags |= TUI_REDRAW;
		}
	}
}

int tui_run(engine *e, const tui_opts *o)
{
	static tui_app app;
	tui_app *a = &app;
	char err[512];
	memset(a, 0, sizeof *a);
	a->e = e;
	a->opts = *o;
	a->ls = engine_lessons(e);
	a->lesson = -1;
	a->sv.src_stage = -1;
	mcode_init(&a->sv.mc);
	heat_init(&a->sv.heat);
	tui_tune_init(&a->tune);
	setlocale(LC_CTYPE, "");                 /* not LC_ALL: numbers stay in the C locale */
	const char *cs = nl_langinfo(CODESET), *nc = getenv("NO_COLOR");
	int utf8 = cs && (!strcmp(cs, "UTF-8") || !strcmp(cs, "utf8"));
	progress_init(&a->state);
	if (exercise_init(&a->ex, a->ls, o->work) < 0)
		snprintf(a->msg, sizeof a->msg, "%.*s", (int)sizeof a->msg - 1, a->ex.msg);
	a->ex.replay = o->replay != NULL;
	if (progress_path(a->state_path, sizeof a->state_path) == 0 &&
	    progress_load(&a->state, a->state_path, err, sizeof err) < 0)
		snprintf(a->msg, sizeof a->msg, "%s", err);

	sigset_t block, waitmask;
	sigemptyset(&block);
	int sigs[] = { stop_signals[0], stop_signals[1], stop_signals[2], SIGWINCH };
	struct sigaction sa, old[3];
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	for (int i = 0; i < 4; i++) sigaddset(&block, sigs[i]);
	sigprocmask(SIG_BLOCK, &block, &waitmask);   /* delivered only inside ppoll: no lost wake-up */
	for (int i = 0; i < 3; i++) sigaction(sigs[i], &sa, &old[i]);

	SCREEN *scr = NULL;
	FILE *devnull = NULL;
	char fatal[256] = "";
	int rc = 1;
	if (setup_curses(a, &scr, &devnull) == 0) {
		errlog_start(&a->errlog);            /* nothing written on stderr lands on the screen */
		theme_init(!o->no_color && !(nc && nc[0]), utf8 && !o->ascii);
		widget_init(utf8);
		engine_set_listener(e, on_engine, a);
		a->scr = &tui_screen_lessons;
		resize(a);
		draw(a);                             /* the list shows while the GPU is probed */
		a->dev = engine_device(e);
		take_stderr(a);
		reopen(a);
		rc = loop(a, &waitmask, fatal, sizeof fatal);
		if (a->scr && a->scr->free)
			a->scr->free(a);
		exercise_free(&a->ex);               /* before the model: its try's jobs are cancelled */
		tui_tune_free(&a->tune, a->e);
		stage_free(a->m);               /* cancels its jobs; the listener (static app) stays valid */
		a->m = NULL;
		endwin();
		util_on_fatal(NULL);
		fatal_app = NULL;
		delscreen(scr);
		errlog_stop(&a->errlog);             /* the lines kept go to the real stderr now */
	}
	if (devnull)
		fclose(devnull);
	if (fatal[0])
		fprintf(stderr, "cudaclimb: %s\n", fatal);
	app_save(a);
	exercise_free(&a->ex);
	progress_free(&a->state);
	free(a->metric);
	a->metric = NULL;
	for (int i = 0; i < 3; i++) sigaction(sigs[i], &old[i], NULL);
	sigprocmask(SIG_SETMASK, &waitmask, NULL);
	return rc;
}
