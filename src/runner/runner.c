/* runner: see runner.h. The settings, and the child process every runner here is. */
#include "runner.h"
#include <errno.h>
#include <stddef.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

/* How long a child that closed its output has to end before it is killed. */
#define CHILD_EOF_WAIT_MS 10000

static const char *const kind_names[] = { "local", "ssh", "slurm" };

const char *runner_kind_name(runner_kind k) { return (unsigned)k <= RUNNER_SLURM ? kind_names[k] : "?"; }

/* value into dst, which has room for n: -1 with err when it does not fit or could be mistaken for
 * an option or another word. */
static int set_value(char *dst, size_t n, const char *name, const char *v, const char *what, char *err, size_t errlen)
{
	if (strlen(v) >= n) { strfmt(err, errlen, "%s: %s is too long (at most %zu characters)", what, name, n - 1); return -1; }
	if (v[0] == '-') { strfmt(err, errlen, "%s: %s cannot start with '-' ('%.60s')", what, name, v); return -1; }
	for (const char *p = v; *p; p++)
		if ((unsigned char)*p <= 0x20 || *p == 0x7f || *p == '\'') {
			strfmt(err, errlen, "%s: %s cannot have spaces, quotes or control characters", what, name);
			return -1;
		}
	strfmt(dst, n, "%s", v);
	return 0;
}

int runner_config_set(runner_config *c, const char *key, const char *value, const char *what, char *err, size_t errlen)
{
	static const struct { const char *key, *name; size_t off, size; } keys[] = {
		{ "host", "the host", offsetof(runner_config, host), sizeof ((runner_config *)0)->host },
		{ "worker", "the worker", offsetof(runner_config, worker), sizeof ((runner_config *)0)->worker },
		{ "partition", "the partition", offsetof(runner_config, partition), sizeof ((runner_config *)0)->partition },
		{ "gres", "the GRES", offsetof(runner_config, gres), sizeof ((runner_config *)0)->gres },
		{ "time", "the time limit", offsetof(runner_config, time), sizeof ((runner_config *)0)->time },
		{ "account", "the account", offsetof(runner_config, account), sizeof ((runner_config *)0)->account },
	};
	if (!strcmp(key, "host") && value[0] != '-' && strlen(value) < sizeof c->host && runner_host_check(value, what, err, errlen)) return -1;
	for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
		if (!strcmp(key, keys[i].key)) return set_value((char *)c + keys[i].off, keys[i].size, keys[i].name, value, what, err, errlen);
	strfmt(err, errlen, "%s: no setting '%.40s' (host, worker, partition, gres, time, account)", what, key);
	return -1;
}

int runner_config_parse(runner_config *c, const char *text, const char *what, char *err, size_t errlen)
{
	char *copy = xstrdup(text ? text : ""), *save = NULL;
	int rc = 0, want_host = 0;
	for (char *w = strtok_r(copy, " \t\n", &save); w && !rc; w = strtok_r(NULL, " \t\n", &save)) {
		char *eq = strchr(w, '=');
		int k = 0;
		while (k <= RUNNER_SLURM && strcmp(w, kind_names[k])) k++;
		if (k <= RUNNER_SLURM) { c->kind = (runner_kind)k; want_host = k == RUNNER_SSH; continue; }
		if (want_host && !eq) { rc = runner_config_set(c, "host", w, what, err, errlen); want_host = 0; continue; }
		want_host = 0;
		if (!eq) {
			strfmt(err, errlen, "%s: '%.60s' is not a runner (local, ssh HOST, slurm) nor a setting (host, worker, partition, gres, "
			       "time, account as KEY=VALUE)", what, w);
			rc = -1;
			break;
		}
		*eq = 0;
		rc = runner_config_set(c, w, eq + 1, what, err, errlen);
	}
	free(copy);
	if (!rc && c->kind == RUNNER_SSH && !c->host[0]) {
		strfmt(err, errlen, "%s: the ssh runner needs a host: 'ssh HOST'", what);
		rc = -1;
	}
	return rc;
}

runner *runner_new(const runner_config *c, const runner_spec *s)
{
	static const runner_class *const classes[] = { &runner_local_class, &runner_ssh_class, &runner_slurm_class };
	runner *r = xcalloc(1, sizeof *r);
	r->cfg = *c;
	r->cls = classes[(unsigned)c->kind <= RUNNER_SLURM ? c->kind : RUNNER_LOCAL];
	r->exe = xstrdup(s->exe);
	r->data_root = xstrdup(s->data_root);
	r->gpu = s->gpu;
	int n = 0;
	while (s->prefix && s->prefix[n]) n++;
	if (n) {
		r->prefix = xcalloc((size_t)n + 1, sizeof *r->prefix);
		for (int i = 0; i < n; i++) r->prefix[i] = xstrdup(s->prefix[i]);
	}
	r->pid = 0;
	r->to = r->from = r->err = -1;
	return r;
}

void runner_free(runner *r)
{
	if (!r) return;
	if (r->cls->fd(r) >= 0 || r->pid > 0) r->cls->kill(r);
	for (int i = 0; r->prefix && r->prefix[i]; i++) free(r->prefix[i]);
	free(r->prefix);
	free(r->exe);
	free(r->data_root);
	sb_free(&r->errtext);
	if (r->cls->release) r->cls->release(r);
	free(r);
}

static void close_fd(int *fd)
{
	if (*fd >= 0) close(*fd);
	*fd = -1;
}

/* Whatever the child has written on stderr so far, kept to the last 8 KiB. */
static void drain_stderr(runner *r)
{
	char buf[4096];
	for (ssize_t k; r->err >= 0 && (k = read(r->err, buf, sizeof buf)) != 0;) {
		if (k < 0) {
			if (errno == EINTR) continue;
			if (errno != EAGAIN) close_fd(&r->err);
			break;
		}
		sb_addn(&r->errtext, buf, (size_t)k);
	}
	if (r->errtext.len > 8192) {
		size_t drop = r->errtext.len - 4096;
		memmove(r->errtext.s, r->errtext.s + drop, r->errtext.len - drop + 1);
		r->errtext.len -= drop;
		r->err_seen = r->err_seen > drop ? r->err_seen - drop : 0;
	}
}

int runner_child_start(runner *r, char *const *argv, int flags, char *err, size_t errlen)
{
	int a[2] = { -1, -1 }, b[2] = { -1, -1 }, c[2] = { -1, -1 };
	if (pipe(a) || pipe(b) || ((flags & RC_CAPTURE_STDERR) && pipe(c))) {
		strfmt(err, errlen, "pipe: %s", strerror(errno));
		close_fd(&a[0]); close_fd(&a[1]); close_fd(&b[0]); close_fd(&b[1]);
		return -1;
	}
	fflush(NULL);
	const pid_t parent = getpid();
	pid_t pid = fork();
	if (pid < 0) {
		strfmt(err, errlen, "fork: %s", strerror(errno));
		close_fd(&a[0]); close_fd(&a[1]); close_fd(&b[0]); close_fd(&b[1]); close_fd(&c[0]); close_fd(&c[1]);
		return -1;
	}
	if (pid == 0) {
		/* The child ends with us. A cudaclimb killed with SIGKILL (a judge whose lab service died, a
		 * closed SSH session) would otherwise leave its worker running a hung kernel, or holding its
		 * GPU turn, with nobody left to stop it. ssh and srun (their own group) get SIGTERM, on which
		 * they end the remote side (srun cancels its step); a local worker gets SIGKILL. */
		prctl(PR_SET_PDEATHSIG, (flags & RC_OWN_GROUP) ? SIGTERM : SIGKILL);
		if (getppid() != parent) _exit(127);   /* we died before the line above could take effect */
		dup2(a[0], 0);
		dup2(b[1], 1);
		if (c[1] >= 0) dup2(c[1], 2);
		close(a[0]); close(a[1]); close(b[0]); close(b[1]);
		if (c[0] >= 0) { close(c[0]); close(c[1]); }
		if (flags & RC_OWN_GROUP) setpgid(0, 0);
		if ((flags & RC_DATA_ENV) && r->data_root) {
			char *builtin = xasprintf("%s/kernels", r->data_root), *arch = xasprintf("%s/assets/arch.yaml", r->data_root);
			setenv("CUDACLIMB_BUILTIN_ROOT", builtin, 1);
			setenv("CUDACLIMB_ARCH_TABLE", arch, 1);
		}
		signal(SIGINT, SIG_IGN);   /* Ctrl-C is the parent's to handle; it ends us */
		execvp(argv[0], argv);
		fprintf(stderr, "cudaclimb: cannot start the worker %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	close(a[0]);
	close(b[1]);
	if (c[1] >= 0) close(c[1]);
	r->pid = pid;
	r->to = a[1];
	r->from = b[0];
	r->err = c[0];
	fcntl(r->to, F_SETFD, FD_CLOEXEC);
	fcntl(r->from, F_SETFD, FD_CLOEXEC);
	fcntl(r->from, F_SETFL, O_NONBLOCK);
	if (r->err >= 0) {
		fcntl(r->err, F_SETFD, FD_CLOEXEC);
		fcntl(r->err, F_SETFL, O_NONBLOCK);
	}
	signal(SIGPIPE, SIG_IGN);
	sb_free(&r->errtext);
	r->err_seen = 0;
	r->got_output = 0;
	r->jobid[0] = r->note[0] = 0;
	return 0;
}

int runner_child_send(runner *r, const void *data, size_t len)
{
	const char *p = data;
	if (r->to < 0) return -1;
	while (len) {
		ssize_t n = write(r->to, p, len);
		if (n < 0) {
			if (errno == EINTR) continue;
			return -1;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

int runner_child_fd(const runner *r) { return r->pid > 0 ? r->from : -1; }

/* Waits for the child, closes its pipes once what it wrote on stderr is read. */
static void reap(runner *r, int *status)
{
	int st = 0;
	if (r->pid > 0 && waitpid(r->pid, &st, 0) != r->pid) st = -1;
	if (status) *status = st;
	drain_stderr(r);
	close_fd(&r->to);
	close_fd(&r->from);
	close_fd(&r->err);
	r->pid = 0;
}

ssize_t runner_child_read(runner *r, char *buf, size_t n, int *status)
{
	if (status) *status = -1;
	if (r->pid <= 0) return -1;
	drain_stderr(r);
	for (;;) {
		ssize_t k = read(r->from, buf, n);
		if (k > 0) { r->got_output = 1; return k; }
		if (k < 0 && errno == EINTR) continue;
		if (k < 0 && errno == EAGAIN) return 0;
		break;
	}
	/* End of output; the child should end with it, but one that closed its output and lives on (a
	 * hostile worker, a far side that keeps writing on stderr) must not hold us in waitpid forever. */
	for (int i = 0; r->pid > 0 && i < CHILD_EOF_WAIT_MS / 10; i++) {
		int st;
		if (waitpid(r->pid, &st, WNOHANG) == r->pid) {
			r->pid = 0;
			reap(r, NULL);
			if (status) *status = st;
			return -1;
		}
		drain_stderr(r);   /* what it writes there meanwhile must not block it */
		usleep(10000);
	}
	if (r->pid > 0) kill(r->pid, SIGKILL);
	reap(r, status);
	return -1;
}

void runner_child_kill(runner *r, int grace_ms)
{
	if (r->pid > 0) {
		int gone = 0;
		if (grace_ms > 0 && kill(r->pid, SIGTERM) == 0)
			for (int i = 0; i < grace_ms / 10 && !gone; i++) {
				gone = waitpid(r->pid, NULL, WNOHANG) == r->pid;
				if (!gone) usleep(10000);
			}
		if (gone) r->pid = 0;
		else kill(r->pid, SIGKILL);
	}
	reap(r, NULL);
}

void runner_child_stop(runner *r, int wait_ms)
{
	close_fd(&r->to);
	for (int i = 0; r->pid > 0 && i < wait_ms / 10; i++) {
		if (waitpid(r->pid, NULL, WNOHANG) == r->pid) { r->pid = 0; break; }
		usleep(10000);
	}
	if (r->pid > 0) r->cls->kill(r);
	reap(r, NULL);
}

void runner_clean_line(const char *line, size_t len, char *out, size_t n)
{
	while (len && (line[len - 1] == '\r' || line[len - 1] == ' ')) len--;
	while (len && *line == ' ') { line++; len--; }
	size_t k = 0;
	for (size_t i = 0; i < len && k + 1 < n; i++) {
		unsigned char ch = (unsigned char)line[i];
		out[k++] = ch < 0x20 || ch == 0x7f ? '?' : (char)ch;
	}
	if (n) out[k] = 0;
}

void runner_child_last_error(const runner *r, char *out, size_t n)
{
	if (n) out[0] = 0;
	const char *s = r->errtext.s;
	size_t end = r->errtext.len;
	while (s && end) {
		while (end && (s[end - 1] == '\n' || s[end - 1] == '\r' || s[end - 1] == ' ')) end--;
		size_t start = end;
		while (start && s[start - 1] != '\n') start--;
		if (end > start) { runner_clean_line(s + start, end - start, out, n); return; }
		end = start;
	}
}

int runner_child_next_error_line(runner *r, char *out, size_t n)
{
	if (!r->errtext.s || r->err_seen >= r->errtext.len) return 0;
	const char *p = r->errtext.s + r->err_seen, *nl = memchr(p, '\n', r->errtext.len - r->err_seen);
	if (!nl) return 0;
	runner_clean_line(p, (size_t)(nl - p), out, n);
	r->err_seen += (size_t)(nl - p) + 1;
	return 1;
}

char **runner_words(const char *env, const char *def, int extra, int *count)
{
	const char *v = env ? getenv(env) : NULL;
	char *copy = xstrdup(v && *v ? v : def), *save = NULL;
	char **w = xcalloc(strlen(copy) / 2 + 2 + (size_t)extra, sizeof *w);
	int n = 0;
	for (char *t = strtok_r(copy, " \t", &save); t; t = strtok_r(NULL, " \t", &save)) w[n++] = xstrdup(t);
	free(copy);
	*count = n;
	return w;
}

void runner_words_free(char **words)
{
	for (int i = 0; words && words[i]; i++) free(words[i]);
	free(words);
}

int runner_have_program(const char *name)
{
	if (!name || !*name) return 0;
	if (strchr(name, '/')) return access(name, X_OK) == 0;
	const char *path = getenv("PATH");
	char *copy = xstrdup(path && *path ? path : "/usr/local/bin:/usr/bin:/bin"), *save = NULL;
	int found = 0;
	for (char *d = strtok_r(copy, ":", &save); d && !found; d = strtok_r(NULL, ":", &save)) {
		char *p = xasprintf("%s/%s", *d ? d : ".", name);
		found = access(p, X_OK) == 0;
		free(p);
	}
	free(copy);
	return found;
}
