/* gpulease: see gpulease.h. */
#include "gpulease.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "labwire.h"
#include "util.h"

static labwire_reader lease = { .fd = -1 };
static void (*hold_note)(void *ctx, const char *text);
static void *hold_ctx;

int gpulease_acquire(const char *socket_path, const char *uuid, double expect_s, void (*note)(void *ctx, const char *text),
                     void *ctx, char *why, size_t wn)
{
	gpulease_release();
	int fd = labwire_connect(socket_path, why, wn);
	if (fd < 0) return -1;
	char req[200];
	const char *who = getenv("CUDACLIMB_SERVICE_FOR");
	if (who && *who && strspn(who, "0123456789") == strlen(who) && strlen(who) < 11)
		strfmt(req, sizeof req, "lease %s %.1f for %s\n", uuid, expect_s, who);
	else
		strfmt(req, sizeof req, "lease %s %.1f\n", uuid, expect_s);
	if (labwire_send(fd, req, strlen(req), 10000)) {
		strfmt(why, wn, "the lab service at %s did not take the request: %s", socket_path, strerror(errno));
		close(fd);
		return -1;
	}
	labwire_reader r = { .fd = fd };
	char line[LABWIRE_LINE_MAX];
	for (;;) {
		int k = labwire_read_line(&r, line, sizeof line, -1);
		if (k <= 0) {
			strfmt(why, wn, "the lab service at %s %s while this run waited; run it again", socket_path,
			       k == 0 ? "closed the connection" : "broke off");
			close(fd);
			return -1;
		}
		if (!strcmp(line, "go")) break;
		if (!strncmp(line, "wait ", 5) && note) { char t[LABWIRE_LINE_MAX]; strfmt(t, sizeof t, "%s", line + 5); note(ctx, t); continue; }
		if (!strncmp(line, "error ", 6)) {
			strfmt(why, wn, "the lab service refused the run: %s", line + 6);
			close(fd);
			return -1;
		}
	}
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
