/* runner_local: the worker as a child process on this machine (`cudaclimb __worker N`, or the
 * program named by $CUDACLIMB_WORKER), its stderr on ours. */
#include "runner.h"
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

static int local_start(runner *r, char *err, size_t errlen)
{
	if (r->pid > 0) return 0;
	const char *alt = getenv("CUDACLIMB_WORKER");
	char gpu[16];
	strfmt(gpu, sizeof gpu, "%d", r->gpu);
	int np = 0;
	while (r->prefix && r->prefix[np]) np++;
	char **argv = xcalloc((size_t)np + 4, sizeof *argv);
	for (int i = 0; i < np; i++) argv[i] = r->prefix[i];
	argv[np] = alt && *alt ? (char *)alt : r->exe;
	argv[np + 1] = "__worker";
	argv[np + 2] = gpu;
	int rc = runner_child_start(r, argv, RC_DATA_ENV, err, errlen);
	free(argv);
	return rc;
}

static ssize_t local_read(runner *r, char *buf, size_t n, char *why, size_t wn)
{
	int st;
	ssize_t k = runner_child_read(r, buf, n, &st);
	if (k >= 0) return k;
	if (st != -1 && WIFSIGNALED(st)) strfmt(why, wn, "the GPU worker was ended by signal %d (%s)", WTERMSIG(st), strsignal(WTERMSIG(st)));
	else if (st != -1) strfmt(why, wn, "the GPU worker exited (status %d)", WEXITSTATUS(st));
	else strfmt(why, wn, "the GPU worker ended");
	return -1;
}

static void local_kill(runner *r) { runner_child_kill(r, 0); }

static void local_describe(const runner *r, char *out, size_t n) { strfmt(out, n, "local"); }

const runner_class runner_local_class = {
	.name = "local",
	.start = local_start,
	.send = runner_child_send,
	.fd = runner_child_fd,
	.read = local_read,
	.stop = runner_child_stop,
	.kill = local_kill,
	.describe = local_describe,
};
