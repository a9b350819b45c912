/* tui_errlog: what is written on stderr while curses owns the terminal (by cudaclimb, a library,
 * or a child such as the GPU worker) goes into a pipe instead of over the screen; the interface
 * reads it, shows it, and writes the lines kept to the real stderr when the terminal is back.
 * Only when stderr is a terminal: a stderr redirected to a file is left alone. */
#ifndef CC_TUI_ERRLOG_H
#define CC_TUI_ERRLOG_H

enum { ERRLOG_LINES = 64, ERRLOG_LINE_MAX = 512 };

typedef struct {
	int saved;                        /* the real stderr (a dup); -1 when not capturing */
	int rfd;                          /* the pipe's read end (non-blocking); -1 when none */
	char part[ERRLOG_LINE_MAX];       /* a line not ended yet */
	int npart;
	char lines[ERRLOG_LINES][ERRLOG_LINE_MAX];   /* a ring of the last lines */
	int total;                        /* lines in all; the ring holds the last ERRLOG_LINES */
} tui_errlog;

/* Captures stderr (fd 2) when it is a terminal. Returns 1 when capturing, 0 when not (stderr is
 * not a terminal, or the pipe could not be made: stderr stays as it was). */
int errlog_start(tui_errlog *l);
/* The fd to poll for input, or -1. */
int errlog_fd(const tui_errlog *l);
/* Reads what is waiting without blocking; returns the number of lines completed. */
int errlog_read(tui_errlog *l);
/* Lines kept (at most ERRLOG_LINES), and line i of them, the oldest first. */
int errlog_count(const tui_errlog *l);
const char *errlog_line(const tui_errlog *l, int i);
/* In a forked child that takes over the terminal (an editor): stderr back to the terminal. */
void errlog_child(const tui_errlog *l);
/* Restores stderr and writes to it the lines kept (saying how many earlier ones were dropped).
 * The pipe's read end stays open until the process ends, for children still writing. */
void errlog_stop(tui_errlog *l);
#endif
