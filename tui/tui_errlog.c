/* stderr into a pipe while curses is up. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "tui_errlog.h"

int errlog_start(tui_errlog *l)
{
	int p[2];
	memset(l, 0, sizeof *l);
	l->saved = l->rfd = -1;
	if (!isatty(STDERR_FILENO) || pipe2(p, O_CLOEXEC) < 0)
		return 0;
	l->saved = fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 3);
	if (l->saved < 0 || dup2(p[1], STDERR_FILENO) < 0) {
		if (l->saved >= 0) close(l->saved);
		close(p[0]);
		close(p[1]);
		l->saved = -1;
		return 0;
	}
	close(p[1]);
	/* Writers never block on a full pipe (a child would hang): they lose the line instead. */
	fcntl(STDERR_FILENO, F_SETFL, fcntl(STDERR_FILENO, F_GETFL) | O_NONBLOCK);
	fcntl(p[0], F_SETFL, fcntl(p[0], F_GETFL) | O_NONBLOCK);
	fcntl(p[0], F_SETPIPE_SZ, 1 << 20);
	l->rfd = p[0];
	return 1;
}

int errlog_fd(const tui_errlog *l) { return l->saved >= 0 ? l->rfd : -1; }

static void end_line(tui_errlog *l)
{
	l->part[l->npart] = 0;
	snprintf(l->lines[l->total % ERRLOG_LINES], ERRLOG_LINE_MAX, "%s", l->part);
	l->total++;
	l->npart = 0;
}

int errlog_read(tui_errlog *l)
{
	char buf[4096];
	ssize_t n;
	int before = l->total;
	if (l->rfd < 0 || l->saved < 0)
		return 0;
	while ((n = read(l->rfd, buf, sizeof buf)) > 0)
		for (ssize_t i = 0; i < n; i++) {
			if (buf[i] == '\n') {
				end_line(l);
				continue;
			}
			if (buf[i] == '\r' || l->npart >= ERRLOG_LINE_MAX - 1)
				continue;                /* a line too long is cut */
			l->part[l->npart++] = buf[i];
		}
	return l->total - before;
}

int errlog_count(const tui_errlog *l)
{
	return l->total < ERRLOG_LINES ? l->total : ERRLOG_LINES;
}

const char *errlog_line(const tui_errlog *l, int i)
{
	int first = l->total - errlog_count(l);
	return i >= 0 && i < errlog_count(l) ? l->lines[(first + i) % ERRLOG_LINES] : "";
}

void errlog_child(const tui_errlog *l)
{
	if (l->saved >= 0)
		dup2(l->saved, STDERR_FILENO);
}

void errlog_stop(tui_errlog *l)
{
	if (l->saved < 0)
		return;
	errlog_read(l);
	if (l->npart)
		end_line(l);
	dup2(l->saved, STDERR_FILENO);
	close(l->saved);
	/* The read end stays open: a child still running (the worker, until engine_free) that writes
	 * gets a full pipe at worst (its writes do not block), never a SIGPIPE. */
	l->saved = -1;
	if (l->total > ERRLOG_LINES)
		fprintf(stderr, "cudaclimb: %d earlier lines written on stderr while the interface was up are not kept\n",
		        l->total - ERRLOG_LINES);
	for (int i = 0; i < errlog_count(l); i++)
		fprintf(stderr, "%s\n", errlog_line(l, i));
}
