/* Tests for src/runner*.c and the worker protocol over them (src/runner/runner_worker.c): the runner's settings
 * and their refusals; a runner of the test's own (a table of functions fed from a string) under the
 * worker, for the greeting, a device, a note and an end; the ssh and slurm runners against stand-in
 * ssh and srun programs (shell scripts), for the command lines they build and the one line each
 * failure becomes (an unreachable host, no worker there, a refused job, Slurm down, a job pre-empted
 * or out of time, a job waiting in the queue). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "runner.h"
#include "util.h"
#include "runner_worker.h"

static void test_config(void **state)
{
	(void)state;
	runner_config c = {0};
	char err[256];
	assert_int_equal(runner_config_parse(&c, "ssh gpu1", "--runner", err, sizeof err), 0);
	assert_int_equal(c.kind, RUNNER_SSH);
	assert_string_equal(c.host, "gpu1");
	assert_int_equal(runner_config_parse(&c, "slurm partition=gpu gres=gpu:1 time=10 account=cs101", "--runner", err, sizeof err), 0);
	assert_int_equal(c.kind, RUNNER_SLURM);
	assert_string_equal(c.partition, "gpu");
	assert_string_equal(c.gres, "gpu:1");
	assert_string_equal(c.time, "10");
	assert_string_equal(c.account, "cs101");
	/* words over settings already there: only what they name changes */
	assert_int_equal(runner_config_parse(&c, "partition=short worker=/opt/cc/bin/cudaclimb", "x", err, sizeof err), 0);
	assert_int_equal(c.kind, RUNNER_SLURM);
	assert_string_equal(c.partition, "short");
	assert_string_equal(c.gres, "gpu:1");
	assert_string_equal(c.worker, "/opt/cc/bin/cudaclimb");
	assert_int_equal(runner_config_parse(&c, "local", "x", err, sizeof err), 0);
	assert_int_equal(c.kind, RUNNER_LOCAL);

	runner_config d = {0};
	assert_int_equal(runner_config_parse(&d, "ssh", "--runner", err, sizeof err), -1);
	assert_string_equal(err, "--runner: the ssh runner needs a host: 'ssh HOST'");
	assert_int_equal(runner_config_parse(&d, "cloud", "--runner", err, sizeof err), -1);
	assert_non_null(strstr(err, "'cloud' is not a runner"));
	assert_int_equal(runner_config_parse(&d, "slurm qos=high", "--runner", err, sizeof err), -1);
	assert_non_null(strstr(err, "no setting 'qos'"));
	/* a value that would become an option of ssh or srun, or split into words */
	assert_int_equal(runner_config_parse(&d, "ssh -oProxyCommand=evil", "--runner", err, sizeof err), -1);
	assert_int_equal(runner_config_set(&d, "host", "-oProxyCommand=evil", "ssh", err, sizeof err), -1);
	assert_non_null(strstr(err, "cannot start with '-'"));
	assert_int_equal(runner_config_set(&d, "worker", "/a b", "x", err, sizeof err), -1);
	assert_int_equal(runner_config_set(&d, "worker", "/a'b", "x", err, sizeof err), -1);
	assert_int_equal(runner_config_set(&d, "partition", "gpu", "x", err, sizeof err), 0);
	assert_string_equal(runner_kind_name(RUNNER_SLURM), "slurm");
}

/* A runner of the test's own: what it "reads" is a fixed text, then it ends. */
typedef struct { runner base; const char *text; size_t at; int running; sb sent; } script_runner;

static int script_start(runner *r, char *err, size_t errlen) { ((script_runner *)r)->running = 1; return 0; }
static int script_send(runner *r, const void *data, size_t len) { sb_addn(&((script_runner *)r)->sent, data, len); return 0; }
static int script_fd(const runner *r) { return ((const script_runner *)r)->running ? 0 : -1; }
static ssize_t script_read(runner *r, char *buf, size_t n, char *why, size_t wn)
{
	script_runner *s = (script_runner *)r;
	size_t left = strlen(s->text) - s->at;
	if (!left) { s->running = 0; strfmt(why, wn, "the script ended"); return -1; }
	size_t k = left < 7 ? left : 7;   /* a few bytes at a time: lines arrive in pieces */
	memcpy(buf, s->text + s->at, k);
	s->at += k;
	const char *np = strstr(s->text, "note-here");   /* the runner's own word, as srun's queue line */
	if (np && s->at > (size_t)(np - s->text) && s->at - k <= (size_t)(np - s->text)) strfmt(r->note, sizeof r->note, "queued");
	return (ssize_t)k;
}
static void script_stop(runner *r, int wait_ms) { ((script_runner *)r)->running = 0; }
static void script_kill(runner *r) { ((script_runner *)r)->running = 0; }
static void script_describe(const runner *r, char *out, size_t n) { strfmt(out, n, "script"); }
static const runner_class script_class = {
	.name = "script", .start = script_start, .send = script_send, .fd = script_fd, .read = script_read,
	.stop = script_stop, .kill = script_kill, .describe = script_describe,
};

static void next_kind(worker *w, wmsg *m, wmsg_kind want)
{
	for (int i = 0; i < 1000; i++) {
		runner_worker_next(w, m);
		if (m->kind != WMSG_NONE) break;
	}
	assert_int_equal(m->kind, want);
}

static void test_worker_over_a_table(void **state)
{
	(void)state;
	char text[512];
	strfmt(text, sizeof text, "hello %d\ndevice\npresent 1\nname Table GPU\ncc 90\nend\nnote-here\nphase running\n", WORKER_PROTOCOL);
	script_runner *s = xcalloc(1, sizeof *s);
	s->base.cls = &script_class;
	s->text = text;
	s->base.to = s->base.from = s->base.err = -1;
	worker *w = runner_worker_new(&s->base);
	char err[256];
	assert_int_equal(runner_worker_ensure(w, err, sizeof err), 0);
	assert_int_equal(runner_worker_send(w, "device\nend\n", 11), 0);
	assert_string_equal(s->sent.s, "device\nend\n");
	wmsg m;
	next_kind(w, &m, WMSG_DEVICE);
	assert_int_equal(m.device.present, 1);
	assert_string_equal(m.device.name, "Table GPU");
	next_kind(w, &m, WMSG_NOTE);
	assert_string_equal(m.text, "queued");
	next_kind(w, &m, WMSG_BAD);   /* "note-here" is not the protocol */
	next_kind(w, &m, WMSG_RUNNING);
	next_kind(w, &m, WMSG_DIED);
	assert_string_equal(m.text, "the script ended");
	sb_free(&s->sent);
	s->running = 0;
	/* runner_worker_free frees the runner through runner_free, which wants its own strings */
	runner_worker_free(w);
}

/* A blob: "key LEN name", the bytes as they are (a NUL and a newline inside), a newline. */
static void test_blob(void **state)
{
	(void)state;
	sb b = {0};
	runner_worker_add_blob(&b, "cubin", NULL, "\x7f" "ELF\0\nend\n", 10);
	runner_worker_add_blob(&b, "lesson", "/l/demo.yaml", "id: demo\n", 9);
	assert_int_equal(b.len, 9 + 10 + 1 + 22 + 9 + 1);
	assert_memory_equal(b.s, "cubin 10\n\x7f" "ELF\0\nend\n\nlesson 9 /l/demo.yaml\nid: demo\n\n", b.len);
	sb_free(&b);
}

static char dir[64];

/* A stand-in program at dir/name: it notes its arguments, writes err to stderr, and a moment later
 * (while its output is still open, as srun's while a job waits) exits with code. */
static char *stand_in(const char *name, const char *err, int code)
{
	char *path = xasprintf("%s/%s", dir, name);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f, "#!/bin/sh\nfor a in \"$@\"; do printf '%%s\\n' \"$a\"; done >'%s/%s.args'\nprintf '%%b' '%s' >&2\nsleep 0.2\nexit %d\n", dir, name, err, code);
	fclose(f);
	chmod(path, 0755);
	return path;
}

/* Runs a worker over config c until it ends; its line in why, the notes it gave in notes. */
static void run_until_end(const runner_config *c, char *why, size_t n, char *notes, size_t nn)
{
	runner_spec sp = { .exe = "/opt/cudaclimb/bin/cudaclimb", .data_root = "/opt/cudaclimb/share/cudaclimb", .gpu = 0 };
	worker *w = runner_worker_new(runner_new(c, &sp));
	char err[256];
	if (notes) notes[0] = 0;
	if (runner_worker_ensure(w, err, sizeof err)) { strfmt(why, n, "start: %s", err); runner_worker_free(w); return; }
	wmsg m;
	for (int i = 0; i < 500; i++) {
		struct pollfd pf = { .fd = runner_worker_fd(w), .events = POLLIN };
		if (pf.fd >= 0) poll(&pf, 1, 20);
		runner_worker_next(w, &m);
		if (m.kind == WMSG_NOTE && notes) strfmt(notes + strlen(notes), nn - strlen(notes), "%s|", m.text);
		if (m.kind == WMSG_DIED || m.kind == WMSG_BAD) break;
	}
	assert_int_equal(m.kind, WMSG_DIED);
	strfmt(why, n, "%s", m.text);
	runner_worker_free(w);
}

static char *args_of(const char *name)
{
	char *path = xasprintf("%s/%s.args", dir, name), *text = file_read(path, NULL);
	free(path);
	assert_non_null(text);
	return text;
}

static void test_ssh(void **state)
{
	(void)state;
	char why[512], *prog = stand_in("ssh", "ssh: connect to host gpu1 port 22: Connection refused\\r\\n", 255);
	char *cmd = xasprintf("%s -F /dev/null", prog);
	setenv("CUDACLIMB_SSH", cmd, 1);
	runner_config c = { .kind = RUNNER_SSH, .host = "gpu1" };
	run_until_end(&c, why, sizeof why, NULL, 0);
	assert_string_equal(why, "cannot reach gpu1: ssh: connect to host gpu1 port 22: Connection refused");
	char *args = args_of("ssh");
	assert_string_equal(args, "-F\n/dev/null\n-T\n-e\nnone\n-o\nBatchMode=yes\n-o\nConnectTimeout=10\n--\ngpu1\n'cudaclimb' __worker 0\n");
	free(args);
	free(prog);
	prog = stand_in("ssh", "bash: line 1: /opt/cc/cudaclimb: No such file or directory\\n", 127);
	strfmt(c.worker, sizeof c.worker, "/opt/cc/cudaclimb");
	run_until_end(&c, why, sizeof why, NULL, 0);
	assert_string_equal(why, "no cudaclimb worker on gpu1: bash: line 1: /opt/cc/cudaclimb: No such file or directory (install cudaclimb "
	                         "there, or name the worker with --remote-worker PATH)");
	args = args_of("ssh");
	assert_non_null(strstr(args, "\n'/opt/cc/cudaclimb' __worker 0\n"));
	free(args);
	free(prog);
	free(cmd);
	/* what the far side wrote reaches the terminal cleaned of control characters */
	prog = stand_in("ssh", "ssh: \\033]52;c;aGk=\\007 \\033[2J gone\\n", 255);
	run_until_end(&c, why, sizeof why, NULL, 0);
	assert_string_equal(why, "cannot reach gpu1: ssh: ?]52;c;aGk=? ?[2J gone");
	free(prog);
	setenv("CUDACLIMB_SSH", "/nonexistent/ssh", 1);
	run_until_end(&c, why, sizeof why, NULL, 0);
	assert_non_null(strstr(why, "start: cannot reach gpu1: there is no /nonexistent/ssh here"));
	unsetenv("CUDACLIMB_SSH");
}

static void test_slurm(void **state)
{
	(void)state;
	char why[512], notes[256];
	runner_config c = { .kind = RUNNER_SLURM, .partition = "gpu", .gres = "gpu:1", .time = "10", .account = "cs101" };
	unsetenv("SLURM_JOB_ID");
	unsetenv("CUDACLIMB_WORKER");
	char *prog = stand_in("srun", "srun: error: invalid partition specified: gpu\\nsrun: error: Unable to allocate resources: Invalid partition name specified\\n", 1);
	setenv("CUDACLIMB_SRUN", prog, 1);
	run_until_end(&c, why, sizeof why, NULL, 0);
	assert_string_equal(why, "Slurm refused the job: Invalid partition name specified");
	char *args = args_of("srun");
	assert_string_equal(args, "--verbose\n--job-name=cudaclimb\n--ntasks=1\n--gres=gpu:1\n--partition=gpu\n--time=10\n--account=cs101\n"
	                          "/opt/cudaclimb/bin/cudaclimb\n__worker\n0\n");
	free(args);
	free(prog);

	prog = stand_in("srun", "srun: error: Unable to allocate resources: Unable to contact slurm controller (connect failure)\\n", 1);
	run_until_end(&c, why, sizeof why, NULL, 0);
	assert_string_equal(why, "Slurm is not reachable: Unable to contact slurm controller (connect failure)");
	free(prog);

	prog = stand_in("srun", "srun: job 12 queued and waiting for resources\\nsrun: job 12 has been allocated resources\\nsrun: jobid 12: nodes(1): n1\\n"
	                "slurmstepd: error: *** JOB 12 ON n1 CANCELLED AT 2026-11-23T10:00:00 DUE TO PREEMPTION ***\\n"
	                "srun: Job step aborted: Waiting up to 32 seconds for job step to finish.\\n", 143);
	run_until_end(&c, why, sizeof why, notes, sizeof notes);
	assert_string_equal(why, "the Slurm job 12 was cancelled (due to preemption)");
	assert_string_equal(notes, "Slurm job 12 is queued, waiting for resources|Slurm job 12 has its resources: the worker starts|");
	free(prog);

	prog = stand_in("srun", "srun: jobid 13: nodes(1): n1\\nslurmstepd-n1: error: *** STEP 13.0 ON n1 CANCELLED AT 2026-11-23T10:00:00 DUE TO TIME LIMIT ***\\n", 140);
	run_until_end(&c, why, sizeof why, NULL, 0);
	assert_string_equal(why, "the Slurm job 13 reached its time limit");
	free(prog);

	prog = stand_in("srun", "srun: jobid 14: nodes(1): n1\\nsrun: error: n1: task 0: Exited with exit code 9\\n", 9);
	run_until_end(&c, why, sizeof why, NULL, 0);
	assert_string_equal(why, "the Slurm job did not start the worker (srun status 9): n1: task 0: Exited with exit code 9");
	free(prog);

	/* inside an allocation: a step of it, with the GRES only; the worker program from the settings */
	prog = stand_in("srun", "", 0);
	setenv("SLURM_JOB_ID", "77", 1);
	strfmt(c.worker, sizeof c.worker, "/shared/cudaclimb");
	run_until_end(&c, why, sizeof why, NULL, 0);
	args = args_of("srun");
	assert_string_equal(args, "--verbose\n--job-name=cudaclimb\n--ntasks=1\n--gres=gpu:1\n/shared/cudaclimb\n__worker\n0\n");
	free(args);
	runner_spec sp = { .exe = "x", .data_root = "y", .gpu = 0 };
	runner *r = runner_new(&c, &sp);
	r->cls->describe(r, why, sizeof why);
	assert_string_equal(why, "slurm (a step of job 77) partition=gpu gres=gpu:1 time=10 account=cs101");
	runner_free(r);
	unsetenv("SLURM_JOB_ID");
	free(prog);
	unsetenv("CUDACLIMB_SRUN");
}

/* The local runner: the program's own end, in the words the engine has always used. */
static void test_local(void **state)
{
	(void)state;
	char why[512], *prog = stand_in("worker", "", 9);
	setenv("CUDACLIMB_WORKER", prog, 1);
	runner_config c = { .kind = RUNNER_LOCAL };
	run_until_end(&c, why, sizeof why, NULL, 0);
	assert_string_equal(why, "the GPU worker exited (status 9)");
	char *args = args_of("worker");
	assert_string_equal(args, "__worker\n0\n");
	free(args);
	unsetenv("CUDACLIMB_WORKER");
	free(prog);
}

static int setup(void **state)
{
	strfmt(dir, sizeof dir, "/tmp/cc-runner-XXXXXX");
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	const char *names[] = { "ssh", "srun", "worker" };
	for (int i = 0; i < 3; i++) {
		char *p = xasprintf("%s/%s", dir, names[i]), *a = xasprintf("%s/%s.args", dir, names[i]);
		unlink(p);
		unlink(a);
		free(p);
		free(a);
	}
	rmdir(dir);
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_config),
		cmocka_unit_test(test_worker_over_a_table),
		cmocka_unit_test(test_blob),
		cmocka_unit_test(test_ssh),
		cmocka_unit_test(test_slurm),
		cmocka_unit_test(test_local),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
