/* runner_slurm: the worker as a Slurm job, `srun --ntasks=1 [--partition=P] [--gres=G] [--time=T]
 * [--account=A] cudaclimb __worker N`; inside an allocation ($SLURM_JOB_ID set, as under salloc or
 * in a batch job) a step of it instead, with the GRES only. The program is the runner's worker
 * setting, else $CUDACLIMB_WORKER, else this binary: the compute nodes must see it at the same path
 * (code and lessons travel on the pipe, so nothing else must be shared). srun is $CUDACLIMB_SRUN when
 * set. Slurm's queue replaces ours: while the job waits, srun's word for it becomes a note. */
#include "runner.h"
#include <ctype.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

static int slurm_start(runner *r, char *err, size_t errlen)
{
	if (r->pid > 0) return 0;
	if (r->prefix) { strfmt(err, errlen, "that runs only with the local runner, not in a Slurm job"); return -1; }
	int n;
	char **argv = runner_words("CUDACLIMB_SRUN", "srun", 12, &n);
	if (!runner_have_program(argv[0])) {
		strfmt(err, errlen, "cannot use Slurm: there is no %s here (the slurm runner needs Slurm's client commands, e.g. apt-get "
		       "install slurm-client)", argv[0]);
		runner_words_free(argv);
		return -1;
	}
	const runner_config *c = &r->cfg;
	const char *alloc = getenv("SLURM_JOB_ID"), *alt = getenv("CUDACLIMB_WORKER");
	argv[n++] = xstrdup("--verbose");   /* it says the job's id: "srun: jobid 12: nodes(1): ..." */
	argv[n++] = xstrdup("--job-name=cudaclimb");
	argv[n++] = xstrdup("--ntasks=1");
	if (c->gres[0]) argv[n++] = xasprintf("--gres=%s", c->gres);
	if (!(alloc && *alloc)) {
		if (c->partition[0]) argv[n++] = xasprintf("--partition=%s", c->partition);
		if (c->time[0]) argv[n++] = xasprintf("--time=%s", c->time);
		if (c->account[0]) argv[n++] = xasprintf("--account=%s", c->account);
	}
	argv[n++] = xstrdup(c->worker[0] ? c->worker : alt && *alt ? alt : r->exe);
	argv[n++] = xstrdup("__worker");
	argv[n++] = xasprintf("%d", r->gpu);
	int rc = runner_child_start(r, argv, RC_CAPTURE_STDERR | RC_OWN_GROUP | RC_DATA_ENV, err, errlen);
	runner_words_free(argv);
	return rc;
}

/* line without srun's and slurmstepd's prefixes. */
static const char *bare(const char *line)
{
	static const char *const pre[] = { "srun: error: ", "srun: ", "slurmstepd: error: ", "slurmstepd: " };
	for (size_t i = 0; i < sizeof pre / sizeof pre[0]; i++)
		if (!strncmp(line, pre[i], strlen(pre[i]))) return line + strlen(pre[i]);
	return line;
}

/* "jobid 12: nodes(1): ...": the job's id; "job 12 queued and waiting for resources", "job 12 has
 * been allocated resources": a note. */
static void take_notes(runner *r)
{
	char line[512], id[32];
	while (!r->note[0] && runner_child_next_error_line(r, line, sizeof line)) {   /* one note at a time */
		const char *b = bare(line);
		if (sscanf(b, "jobid %31[0-9]:", id) == 1) strfmt(r->jobid, sizeof r->jobid, "%s", id);
		if (sscanf(b, "job %31[0-9] ", id) != 1) continue;
		strfmt(r->jobid, sizeof r->jobid, "%s", id);
		if (strstr(b, "queued and waiting")) strfmt(r->note, sizeof r->note, "Slurm job %s is queued, waiting for resources", id);
		else if (strstr(b, "allocated resources")) strfmt(r->note, sizeof r->note, "Slurm job %s has its resources: the worker starts", id);
	}
}

/* "*** JOB 12 ON node CANCELLED AT 2026-... DUE TO PREEMPTION ***": the job's id and the reason
 * (lower case), in the line that says so. */
static void cancelled(const char *line, char *out, size_t n)
{
	char id[32] = "";
	const char *j = strstr(line, "JOB "), *s = strstr(line, "STEP ");
	if (j) sscanf(j + 4, "%31[0-9]", id);
	else if (s) sscanf(s + 5, "%31[0-9]", id);
	const char *due = strstr(line, "DUE TO ");
	char reason[64] = "";
	if (due) {
		strfmt(reason, sizeof reason, "%s", due + 7);
		char *stars = strstr(reason, " *");
		if (stars) *stars = 0;
		for (char *p = reason; *p; p++) *p = (char)tolower((unsigned char)*p);
	}
	if (!strcmp(reason, "time limit")) strfmt(out, n, "the Slurm job %s reached its time limit", id);
	else if (reason[0]) strfmt(out, n, "the Slurm job %s was cancelled (due to %s)", id, reason);
	else strfmt(out, n, "the Slurm job %s was cancelled", id);
}

/* One line for how srun ended, from what it and the job step said on stderr. */
static void slurm_why(runner *r, int st, char *why, size_t wn)
{
	char line[512], cancel[300] = "", down[300] = "", refused[300] = "", bad[300] = "", last[300] = "";
	int aborted = 0;
	const char *s = r->errtext.s ? r->errtext.s : "";
	for (const char *p = s; *p;) {
		size_t len = strcspn(p, "\n");
		runner_clean_line(p, len, line, sizeof line);
		p += len + (p[len] == '\n');
		if (!line[0]) continue;
		const char *b = bare(line);
		if (!r->jobid[0]) sscanf(b, "jobid %31[0-9]:", r->jobid);
		if (strstr(b, "CANCELLED")) { if (!cancel[0]) cancelled(b, cancel, sizeof cancel); }
		else if (strstr(b, "Unable to contact slurm controller") || strstr(b, "Unable to establish") ||
		         strstr(b, "Communication connection failure") || strstr(b, "Zero Bytes were transmitted"))
			strfmt(down, sizeof down, "%s", strncmp(b, "Unable to allocate resources: ", 30) ? b : b + 30);
		else if (!strncmp(b, "Unable to allocate resources: ", 30)) strfmt(refused, sizeof refused, "%s", b + 30);
		else if ((strstr(b, "nvalid") || strstr(b, "not available")) && !bad[0]) strfmt(bad, sizeof bad, "%s", b);
		if (!strncmp(b, "Job step aborted", 16)) aborted = 1;
		else if (strstr(line, "error")) strfmt(last, sizeof last, "%s", b);
	}
	/* Killed from outside (scancel, preemption) before the step said why: srun still says it aborted. */
	if (!cancel[0] && aborted) strfmt(cancel, sizeof cancel, "the Slurm job %s was cancelled", r->jobid[0] ? r->jobid : "?");
	int code = st != -1 && WIFEXITED(st) ? WEXITSTATUS(st) : -1;
	if (cancel[0]) strfmt(why, wn, "%s", cancel);
	else if (down[0]) strfmt(why, wn, "Slurm is not reachable: %s", down);
	else if (refused[0] || (bad[0] && !r->got_output)) strfmt(why, wn, "Slurm refused the job: %s", refused[0] ? refused : bad);
	else if (st != -1 && WIFSIGNALED(st)) strfmt(why, wn, "srun was ended by signal %d (%s)", WTERMSIG(st), strsignal(WTERMSIG(st)));
	else if (!r->got_output && last[0]) strfmt(why, wn, "the Slurm job did not start the worker (srun status %d): %s", code, last);
	else if (code >= 0) strfmt(why, wn, "the GPU worker exited (status %d) in Slurm job %s", code, r->jobid[0] ? r->jobid : "?");
	else strfmt(why, wn, "the GPU worker in Slurm ended");
}

static ssize_t slurm_read(runner *r, char *buf, size_t n, char *why, size_t wn)
{
	int st;
	ssize_t k = runner_child_read(r, buf, n, &st);
	take_notes(r);
	if (k >= 0) return k;
	slurm_why(r, st, why, wn);
	return -1;
}

/* srun passes SIGTERM on to the step and ends the job it made; a moment for that, then SIGKILL. */
static void slurm_kill(runner *r) { runner_child_kill(r, 3000); }

static void slurm_describe(const runner *r, char *out, size_t n)
{
	const runner_config *c = &r->cfg;
	const char *alloc = getenv("SLURM_JOB_ID");
	sb b = {0};
	sb_add(&b, "slurm");
	if (alloc && *alloc) sb_addf(&b, " (a step of job %s)", alloc);
	if (c->partition[0]) sb_addf(&b, " partition=%s", c->partition);
	if (c->gres[0]) sb_addf(&b, " gres=%s", c->gres);
	if (c->time[0]) sb_addf(&b, " time=%s", c->time);
	if (c->account[0]) sb_addf(&b, " account=%s", c->account);
	if (r->jobid[0]) sb_addf(&b, " job %s", r->jobid);
	strfmt(out, n, "%s", b.s);
	sb_free(&b);
}

const runner_class runner_slurm_class = {
	.name = "slurm",
	.start = slurm_start,
	.send = runner_child_send,
	.fd = runner_child_fd,
	.read = slurm_read,
	.stop = runner_child_stop,
	.kill = slurm_kill,
	.describe = slurm_describe,
};
