/* engine_setup: the engine made and freed (its lesson tree, the course narrowing it, the runner and
 * its workers, the tables it loads) and the device it describes. See engine.h; the jobs are engine.c's. */
#include "engine_int.h"
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "diagnose.h"
#include "runner_replay.h"
#include "util.h"

/* path relative to the current folder when it lies inside it: messages read "lessons/x.yaml:3:1". */
static char *shorter_path(const char *path)
{
	char cwd[4096];
	if (!getcwd(cwd, sizeof cwd)) return xstrdup(path);
	size_t n = strlen(cwd);
	if (!strcmp(path, cwd)) return xstrdup(".");
	if (!strncmp(path, cwd, n) && path[n] == '/') return xstrdup(path + n + 1);
	return xstrdup(path);
}

static int has_yaml(const char *dir)
{
	DIR *d = opendir(dir);
	int found = 0;
	for (struct dirent *x; d && !found && (x = readdir(d));) {
		size_t k = strlen(x->d_name);
		found = k > 5 && !strcmp(x->d_name + k - 5, ".yaml") && x->d_name[0] != '.';
	}
	if (d) closedir(d);
	return found;
}

/* Whether a and b name one folder (--lessons naming the shipped tree adds nothing). */
static int same_dir(const char *a, const char *b)
{
	struct stat x, y;
	return !stat(a, &x) && !stat(b, &y) && x.st_dev == y.st_dev && x.st_ino == y.st_ino;
}

/* The lesson tree named by --lessons or CUDACLIMB_LESSONS: dir itself, or the tree above it when dir
 * is a tree's lessons folder (YAML files in dir, and dir/../kernels). NULL with what it wants in err. */
static char *tree_root(const char *dir, char *err, size_t errlen)
{
	char *sub = xasprintf("%s/lessons", dir), *kernels = xasprintf("%s/../kernels", dir);
	int tree = dir_exists(sub), folder = !tree && has_yaml(dir) && dir_exists(kernels);
	free(sub);
	free(kernels);
	if (tree) return xstrdup(dir);
	if (!folder) {
		strfmt(err, errlen, "no lesson tree at %s: it wants %s/lessons/*.yaml and %s/kernels/ (--lessons DIR or CUDACLIMB_LESSONS)", dir, dir, dir);
		return NULL;
	}
	char *up = xstrdup(dir);
	size_t n = strlen(up);
	while (n > 1 && up[n - 1] == '/') up[--n] = 0;
	char *slash = strrchr(up, '/');
	if (!slash) { free(up); return xstrdup("."); }
	slash[slash == up] = 0;   /* "/lessons" -> "/" */
	return up;
}

/* The lesson set narrowed to the course's lessons, in the course's order: its lessons: list, else
 * the order its exercises first name them. */
static void keep_course_lessons(engine *e)
{
	lesson_set *s = &e->lessons;
	lesson **kept = xcalloc((size_t)s->count + 1, sizeof *kept);
	int n = 0;
	const course *c = e->course;
	int total = c->nlessons ? c->nlessons : c->nitems;
	for (int i = 0; i < total; i++) {
		lesson *l = lesson_set_find(s, c->nlessons ? c->lessons[i] : c->items[i].lesson);
		int dup = 0;
		for (int k = 0; k < n; k++) dup |= kept[k] == l;
		if (l && !dup) kept[n++] = l;
	}
	for (int i = 0; i < s->count; i++) {
		int keep = 0;
		for (int k = 0; k < n; k++) keep |= kept[k] == s->items[i];
		if (!keep) lesson_free(s->items[i]);
	}
	free(s->items);
	s->items = kept;
	s->count = n;
}

/* The runner: the course's, then $CUDACLIMB_RUNNER's words over it, then --runner's. */
static int choose_runner(engine *e, char *err, size_t errlen)
{
	runner_config *rc = &e->runner;
	const course *c = e->course;
	if (c) {
		rc->kind = (runner_kind)c->runner;
		const char *keys[] = { "host", "worker", "partition", "gres", "time", "account" };
		const char *vals[] = { c->ssh_host, c->ssh_worker, c->slurm_partition, c->slurm_gres, c->slurm_time, c->slurm_account };
		for (int i = 0; i < 6; i++)
			if (vals[i] && runner_config_set(rc, keys[i], vals[i], c->path, err, errlen)) return -1;
	}
	const char *env = getenv("CUDACLIMB_RUNNER");
	if (env && *env && runner_config_parse(rc, env, "CUDACLIMB_RUNNER", err, errlen)) return -1;
	if (e->o.runner && runner_config_parse(rc, e->o.runner, "--runner", err, errlen)) return -1;
	return 0;
}

/* The GPU of worker i. */
int engine_setup_worker_gpu(const engine *e, int i)
{
	return e->o.ngpus > 1 ? e->o.gpus[i] : e->o.gpu;
}

/* A worker where the runner says on gpu, run under prefix (NULL-terminated) when not NULL. */
worker *engine_setup_worker(engine *e, int gpu, char *const *prefix)
{
	runner_spec s = { .exe = e->exe, .data_root = e->data_root, .gpu = gpu, .prefix = prefix };
	return runner_worker_new(runner_new(&e->runner, &s));
}

int engine_runner_failed(engine *e) { engine_device(e); return e->runner_failed; }

void engine_runner_describe(engine *e, char *out, size_t n)
{
	if (e->ws[0]) runner_worker_runner(e->ws[0])->cls->describe(runner_worker_runner(e->ws[0]), out, n);
	else {
		runner_spec s = { .exe = e->exe, .data_root = e->data_root, .gpu = e->o.gpu };
		runner *r = runner_new(&e->runner, &s);
		r->cls->describe(r, out, n);
		runner_free(r);
	}
}

engine *engine_new(const engine_opts *o, char *err, size_t errlen)
{
	engine *e = xcalloc(1, sizeof *e);
	e->o = *o;
	if (e->o.timeout_s <= 0) e->o.timeout_s = 10;
	e->data_root = data_root();
	if (!e->data_root) { strfmt(err, errlen, "cannot find cudaclimb's data (assets/arch.yaml) near the executable"); free(e); return NULL; }
	char *abs = realpath(e->data_root, NULL);
	if (abs) { free(e->data_root); e->data_root = abs; }
	/* --lessons DIR adds a tree to the shipped lessons; --lessons-only DIR (CUDACLIMB_LESSONS_ONLY) is DIR alone */
	const char *lr = o->lessons_root ? o->lessons_root : getenv("CUDACLIMB_LESSONS"), *oe = getenv("CUDACLIMB_LESSONS_ONLY");
	int only = lr && *lr && (o->lessons_only || (oe && *oe && strcmp(oe, "0")));
	char *tree = lr && *lr ? tree_root(lr, err, errlen) : NULL;
	if (lr && *lr && !tree) { engine_free(e); return NULL; }
	e->lessons_root = only ? tree : shorter_path(e->data_root);
	e->shipped_common = xasprintf("%s/kernels/common", only ? e->data_root : e->lessons_root);
	char *table = xasprintf("%s/assets/arch.yaml", e->data_root), *rules = xasprintf("%s/assets/rules.yaml", e->data_root);
	int bad = arch_load(table, err, errlen) || diagnose_load(rules, err, errlen);
	free(table);
	free(rules);
	if (!bad) bad = lesson_set_load(&e->lessons, e->lessons_root, err, errlen);
	if (!bad && tree && !only && !same_dir(tree, e->lessons_root)) bad = lesson_set_add(&e->lessons, tree, err, errlen);
	if (!only) free(tree);
	if (bad) { engine_free(e); return NULL; }
	const char *cd = o->course_dir ? o->course_dir : getenv("CUDACLIMB_COURSE");
	if (cd && *cd && (!(e->course = course_load(cd, err, errlen)) || course_check(e->course, &e->lessons, err, errlen))) {
		engine_free(e);
		return NULL;
	}
	if (e->course) keep_course_lessons(e);
	/* A course's lab service orders every GPU run of its members: the worker, a child, finds it here. */
	if (e->course && e->course->service_socket) setenv("CUDACLIMB_SERVICE", e->course->service_socket, 1);
	if (choose_runner(e, err, errlen)) { engine_free(e); return NULL; }
	char self[4096];
	ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
	self[n > 0 ? n : 0] = 0;
	e->exe = xstrdup(self);
	e->nws = o->ngpus > 1 && !o->replay_path ? (o->ngpus < ENGINE_MAX_WORKERS ? o->ngpus : ENGINE_MAX_WORKERS) : 1;
	e->seed = o->has_seed ? o->seed : ((uint64_t)time(NULL) * 0x9e3779b97f4a7c15ULL) ^ (uint64_t)getpid();
	if (o->replay_path) {   /* a recording in place of the GPU: the same protocol, answered here */
		replay *rp = replay_load(o->replay_path, err, errlen);
		if (!rp) { engine_free(e); return NULL; }
		e->ws[0] = runner_worker_new(runner_replay_new(rp, o->replay_path));
	}
	return e;
}

void engine_free(engine *e)
{
	if (!e) return;
	while (e->queue) { job *n = e->queue->next; engine_job_free(e->queue); e->queue = n; }
	for (int i = 0; i < ENGINE_MAX_WORKERS; i++) runner_worker_free(e->ws[i]);
	lesson_set_free(&e->lessons);
	course_free(e->course);
	arch_unload();
	diagnose_unload();
	free(e->data_root); free(e->lessons_root); free(e->exe); free(e->shipped_common);
	free(e);
}

const lesson_set *engine_lessons(engine *e) { return &e->lessons; }
const course *engine_course(engine *e) { return e->course; }

/* The limits used without a GPU: the --arch table entry (sm_90 when none is named). */
const arch_info *engine_setup_table_arch(engine *e)
{
	const arch_info *a = arch_find(e->o.arch ? e->o.arch : "sm_90");
	return a ? a : arch_find("sm_90");
}

const device_info *engine_device(engine *e)
{
	if (e->have_dev) return &e->dev;
	e->have_dev = 1;
	char err[512];
	if (!e->ws[0]) e->ws[0] = engine_setup_worker(e, engine_setup_worker_gpu(e, 0), NULL);
	if (runner_worker_ensure(e->ws[0], err, sizeof err)) {
		strfmt(e->dev.why, sizeof e->dev.why, "%s", err);
		e->runner_failed = e->runner.kind != RUNNER_LOCAL;
		return &e->dev;
	}
	/* A worker that is already gone (an ssh that could not connect, say) cannot take the request; the
	 * loop below reads why it went, in its own words, instead of reporting an empty reason. */
	(void)runner_worker_send(e->ws[0], "device\nend\n", 11);
	double start = now_ms();
	for (;;) {
		struct pollfd pf = { .fd = runner_worker_fd(e->ws[0]), .events = POLLIN };
		poll(&pf, 1, 200);
		wmsg m;
		runner_worker_next(e->ws[0], &m);
		if (m.kind == WMSG_DEVICE) {
			e->dev = m.device;
			/* No GPU where the worker runs: say where that is, when not here. */
			if (!e->dev.present && e->runner.kind != RUNNER_LOCAL) {
				char where[300], why[sizeof e->dev.why];
				runner_worker_runner(e->ws[0])->cls->describe(runner_worker_runner(e->ws[0]), where, sizeof where);
				strfmt(why, sizeof why, "%s (worker: %s)", e->dev.why, where);
				strfmt(e->dev.why, sizeof e->dev.why, "%s", why);
			}
			break;
		}
		if (m.kind == WMSG_NOTE) {   /* a Slurm job in the queue: the wait is not the worker's */
			if (!e->o.quiet) { fputs("cudaclimb: ", stderr); fput_clean(stderr, m.text); fputc('\n', stderr); }
			start = now_ms();
			continue;
		}
		if (m.kind == WMSG_DIED || m.kind == WMSG_BAD || now_ms() - start > 1000 * (e->o.timeout_s + 20)) {
			if (m.kind != WMSG_DIED) runner_worker_kill(e->ws[0]);
			/* A runner that cannot start its worker says why in its own words ("cannot reach gpu1: ..."). */
			const char *text = m.kind == WMSG_DIED || m.kind == WMSG_BAD ? m.text : "the worker did not answer";
			strfmt(e->dev.why, sizeof e->dev.why, "%s%s", e->runner.kind == RUNNER_LOCAL || m.kind != WMSG_DIED ? "no GPU: " : "", text);
			e->runner_failed = e->runner.kind != RUNNER_LOCAL && m.kind != WMSG_BAD;   /* BAD: a worker that answered */
			break;
		}
	}
	return &e->dev;
}

void engine_plan_device(engine *e, plan_device *out)
{
	const device_info *d = e->have_dev ? &e->dev : NULL;
	if (d && d->present && !e->o.arch) {
		*out = plan_device_of(d);
		return;
	}
	const arch_info *a = engine_setup_table_arch(e);
	*out = (plan_device){ a->typical_sm_count, a->warp_size, a->max_threads_per_block, a->cc, (int64_t)a->typical_l2_bytes,
	                      (int64_t)a->smem_per_block_optin, 0, 0, 0 };
}
