/* gpulease: see gpulease.h. */
#include "gpulease.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "labwire.h"
#include "util.h"

static labwire_reader lease = { .fd = -1 };
static void (*hold_note)(void *ctx, const char *text);
static void *hold_ctx;

#define RECONNECT_S 60.0   /* a service restarted by systemd (Restart=always) is back within seconds */
#define CONNECT_S 5.0      /* a first connection waits this long for a service that is not answering */

/* One attempt: connect, ask, wait for "go". 0 held (r filled), 1 the service went away (worth
 * asking again), -1 refused (why). */
static int ask(const char *socket_path, const char *req, labwire_reader *r, void (*note)(void *ctx, const char *text), void *ctx,
               char *why, size_t wn)
{
	r->fd = -1;
	int fd = labwire_connect_wait(socket_path, CONNECT_S, why, wn);
	if (fd < 0) return 1;
	if (labwire_send(fd, req, strlen(req), 10000)) {
		strfmt(why, wn, "the lab service at %s did not take the request: %s", socket_path, strerror(errno));
		close(fd);
		return 1;
	}
	*r = (labwire_reader){ .fd = fd };
	char line[LABWIRE_LINE_MAX];
	for (;;) {
		int k = labwire_read_line(r, line, sizeof line, -1);
		if (k <= 0) {
			strfmt(why, wn, "the lab service at %s %s while this run waited", socket_path, k == 0 ? "closed the connection" : "broke off");
			close(fd);
			return 1;
		}
		if (!strcmp(line, "go")) return 0;
		if (!strncmp(line, "wait ", 5) && note) { char t[LABWIRE_LINE_MAX]; strfmt(t, sizeof t, "%s", line + 5); note(ctx, t); continue; }
		if (!strncmp(line, "error ", 6)) {
			strfmt(why, wn, "the lab service refused the run: %s", line + 6);
			close(fd);
			return -1;
		}
	}
}

int gpulease_acquire(const char *socket_path, const char *uuid, double expect_s, void (*note)(void *ctx, const char *text),
                     void *ctx, char *why, size_t wn)
{
	gpulease_release();
	char req[200];
	const char *who = getenv("CUDACLIMB_SERVICE_FOR");
	if (who && *who && strspn(who, "0123456789") == strlen(who) && strlen(who) < 11)
		strfmt(req, sizeof req, "lease %s %.1f for %s\n", uuid, expect_s, who);
	else
		strfmt(req, sizeof req, "lease %s %.1f\n", uuid, expect_s);
	labwire_reader r;
	int rc = ask(socket_path, req, &r, note, ctx, why, wn), was_up = r.fd >= 0;
	/* A service that goes away while this run waits (killed, restarted) is asked again for a while:
	 * the run loses its place in line, never its turn, and never runs unqueued. A service that is not
	 * there at the first try is said at once. */
	for (double until = now_ms() / 1e3 + RECONNECT_S; rc == 1 && was_up && now_ms() / 1e3 < until;) {
		if (note) note(ctx, "the lab service went away while this run waited: asking again");
		struct timespec w = { 0, 500000000L };
		nanosleep(&w, NULL);
		rc = ask(socket_path, req, &r, note, ctx, why, wn);
	}
	if (rc) return -1;
	lease = r;
	hold_note = note;
	hold_ctx = ctx;
	return 0;
}

void gpulease_release(void)
{
	if (lease.fd < 0) return;
	/* what the service said while this run held the GPU ("over ..."), read without waiting */
	char line[LABWIRE_LINE_MAX];
	while (labwire_read_line(&lease, line, sizeof line, 0) == 1)
		if (!strncmp(line, "over ", 5) && hold_note) hold_note(hold_ctx, line + 5);
	if (labwire_send(lease.fd, "done\n", 5, 1000)) {}
	close(lease.fd);
	lease.fd = -1;
	lease.len = 0;
	hold_note = NULL;
}

int gpulease_pick(const char *socket_path, const char *const *uuids, int n, int *lengths)
{
	char why[512], line[LABWIRE_LINE_MAX];
	int fd = labwire_connect(socket_path, why, sizeof why), lens[64];
	labwire_reader r = { .fd = fd };
	if (n > 64) n = 64;
	for (int i = 0; i < n; i++) {
		int len = 0;
		strfmt(line, sizeof line, "length %s\n", uuids[i]);
		if (fd >= 0 && !labwire_send(fd, line, strlen(line), 2000) && labwire_read_line(&r, line, sizeof line, 2000) == 1 &&
		    sscanf(line, "length %d", &len) != 1) len = 0;
		lens[i] = len;
		if (lengths) lengths[i] = len;
	}
	if (fd >= 0) close(fd);
	return n > 0 ? util_pick_shortest(lens, n, (unsigned)getpid()) : 0;
}
