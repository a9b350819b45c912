/* runner_ssh: the worker on another machine, `ssh -T HOST cudaclimb __worker N` (the program there
 * named by the runner's worker setting, --remote-worker). The ssh client is $CUDACLIMB_SSH when set
 * ("ssh -F FILE", for a config of its own), else ssh; it never asks for a password (BatchMode), so
 * keys or an agent must let it in. What ssh and the far side say on stderr is kept for the line
 * that says why the worker ended. */
#include "runner.h"
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

int runner_host_check(const char *host, const char *what, char *err, size_t errlen)
{
	const char *why = NULL;
	char bad[80];
	if (!host[0]) why = "is empty";
	else if (host[0] == '-') why = "cannot start with '-' (ssh would take it for an option)";
	for (const unsigned char *p = (const unsigned char *)host; *p && !why; p++) {
		int ok = (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || strchr("._-@:[]%", *p);
		if (ok) continue;
		if (*p < 0x20 || *p >= 0x7f) strfmt(bad, sizeof bad, "cannot have the byte 0x%02x", *p);
		else if (*p == ' ') strfmt(bad, sizeof bad, "cannot have spaces");
		else if (*p == '\'' || *p == '"') strfmt(bad, sizeof bad, "cannot have quotes");
		else strfmt(bad, sizeof bad, "cannot have '%c'", *p);
		why = bad;
	}
	if (!why) return 0;
	strfmt(err, errlen, "%s: the ssh host %s: a host is [user@]name with letters, digits, '.', '-', '_', and '[', ']', ':' for "
	       "an IPv6 address (no ';', '`', '$', quotes or spaces, which a shell would act on)", what, why);
	return -1;
}

static int ssh_start(runner *r, char *err, size_t errlen)
{
	if (r->pid > 0) return 0;
	if (runner_host_check(r->cfg.host, "ssh", err, errlen)) return -1;
	if (r->prefix) { strfmt(err, errlen, "that runs only with the local runner, not over ssh"); return -1; }
	int n;
	char **argv = runner_words("CUDACLIMB_SSH", "ssh", 12, &n);
	if (!runner_have_program(argv[0])) {
		strfmt(err, errlen, "cannot reach %s: there is no %s here (the ssh runner needs an ssh client: apt-get install openssh-client)",
		       r->cfg.host, argv[0]);
		runner_words_free(argv);
		return -1;
	}
	/* The worker's path is single-quoted for the far side's shell (a quote cannot be in it). */
	const char *extra[] = { "-T", "-e", "none", "-o", "BatchMode=yes", "-o", "ConnectTimeout=10", "--", r->cfg.host };
	for (size_t i = 0; i < sizeof extra / sizeof extra[0]; i++) argv[n++] = xstrdup(extra[i]);
	argv[n++] = xasprintf("'%s' __worker %d", r->cfg.worker[0] ? r->cfg.worker : "cudaclimb", r->gpu);
	int rc = runner_child_start(r, argv, RC_CAPTURE_STDERR | RC_OWN_GROUP, err, errlen);
	runner_words_free(argv);
	return rc;
}

static ssize_t ssh_read(runner *r, char *buf, size_t n, char *why, size_t wn)
{
	int st, got = r->got_output;
	ssize_t k = runner_child_read(r, buf, n, &st);
	if (k >= 0) return k;
	char msg[300];
	runner_child_last_error(r, msg, sizeof msg);
	const char *h = r->cfg.host, *sep = msg[0] ? ": " : "";
	int code = st != -1 && WIFEXITED(st) ? WEXITSTATUS(st) : -1;
	if (st != -1 && WIFSIGNALED(st))
		strfmt(why, wn, "ssh to %s was ended by signal %d (%s)", h, WTERMSIG(st), strsignal(WTERMSIG(st)));
	else if (code == 255)
		strfmt(why, wn, "%s %s: %s", got ? "lost the connection to" : "cannot reach", h, msg[0] ? msg : "ssh exited with status 255");
	else if (code == 127 && !got)
		strfmt(why, wn, "no cudaclimb worker on %s%s%s (install cudaclimb there, or name the worker with --remote-worker PATH)", h, sep, msg);
	else if (code == 126 && !got)
		strfmt(why, wn, "the worker on %s cannot be run%s%s", h, sep, msg);
	else if (code >= 0)
		strfmt(why, wn, "the GPU worker on %s exited (status %d)%s%s", h, code, sep, msg);
	else
		strfmt(why, wn, "the GPU worker on %s ended", h);
	return -1;
}

static void ssh_kill(runner *r) { runner_child_kill(r, 0); }

static void ssh_describe(const runner *r, char *out, size_t n) { strfmt(out, n, "ssh %s", r->cfg.host); }

const runner_class runner_ssh_class = {
	.name = "ssh",
	.start = ssh_start,
	.send = runner_child_send,
	.fd = runner_child_fd,
	.read = ssh_read,
	.stop = runner_child_stop,
	.kill = ssh_kill,
	.describe = ssh_describe,
};
