/* cli_profile: `cudaclimb profile LESSON/STAGE [--ncu | --nsys] [--exec]`: the command lines that
 * reproduce a stage under Nsight Compute and Nsight Systems (the same kernels, sizes and seed, the
 * counters cudaclimb reads through CUPTI, the L2 emptied and the clocks left alone as cudaclimb does),
 * printed without a GPU; with --exec the tool is run when it is installed. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli.h"
#include "cli_cmd.h"
#include "counters.h"
#include "util.h"

#define PROFILE_MAX_ARGS 96
#define PROFILE_MAX_ENTRIES 16
/* runs of a stage before the one profiled: the check's reference, the check, the first warm-ups */
#define PROFILE_SKIP_RUNS 5

typedef struct { char *v[PROFILE_MAX_ARGS + 1]; int n; } argl;

static void add(argl *a, const char *s)
{
	if (a->n < PROFILE_MAX_ARGS) a->v[a->n++] = xstrdup(s);
	a->v[a->n] = NULL;
}

static void argl_free(argl *a)
{
	for (int i = 0; i < a->n; i++) free(a->v[i]);
	a->n = 0;
}

/* One word as the shell reads it back: bare when it is only safe characters, else in single quotes
 * (a quote inside as '\''); control characters made harmless by fput_clean. */
static void put_word(FILE *f, const char *w)
{
	int safe = *w != 0;
	for (const char *p = w; *p && safe; p++)
		safe = (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || strchr("_./:=,+-@%", *p);
	if (safe) { fput_clean(f, w); return; }
	fputc('\'', f);
	for (const char *p = w; *p; p++) {
		if (*p == '\'') { fputs("'\\''", f); continue; }
		char c[2] = { *p, 0 };
		fput_clean(f, c);
	}
	fputc('\'', f);
}

/* The command, one word after another, continued with backslashes before each option of the tool's own. */
static void put_command(FILE *f, const argl *a, int tool_words)
{
	for (int i = 0; i < a->n; i++) {
		if (i) fputs(i < tool_words && a->v[i][0] == '-' && a->v[i][1] == '-' ? " \\\n    " : i == tool_words ? " \\\n    " : " ", f);
		put_word(f, a->v[i]);
	}
	fputc('\n', f);
}

/* The kernel entries a stage launches (its entry, each launch's own), into names; returns the count. */
static int stage_entries(const lesson_stage *s, const lesson_launch *steps, int nsteps, const char **names, int n, int max)
{
	for (int i = 0; i < nsteps; i++) {
		const lesson_launch *L = &steps[i];
		if (L->body) { n = stage_entries(s, L->body, L->nbody, names, n, max); continue; }
		if (L->kind != STEP_LAUNCH) continue;
		const char *e = L->entry ? L->entry : s->entry;
		int seen = 0;
		for (int k = 0; k < n && !seen; k++) seen = !strcmp(names[k], e);
		if (!seen && n < max) names[n++] = e;
	}
	return n;
}

/* This program's path, to run it again under the tool: /proc/self/exe, else argv's name "cudaclimb". */
static void self_path(char *out, size_t n)
{
	ssize_t k = readlink("/proc/self/exe", out, n - 1);
	if (k > 0) out[k] = 0;
	else strfmt(out, n, "cudaclimb");
}

/* ncu or nsys on PATH, else under $CUDA_HOME/bin (or the toolkit this build knows): the path into out; 0
 * when found. */
static int find_tool(const char *name, char *out, size_t n)
{
	const char *path = getenv("PATH");
	for (const char *p = path ? path : ""; *p;) {
		size_t k = strcspn(p, ":");
		if (k) {
			strfmt(out, n, "%.*s/%s", (int)k, p, name);
			if (access(out, X_OK) == 0) return 0;
		}
		p += k + (p[k] == ':');
	}
	const char *home = getenv("CUDA_HOME");
	if (home && *home) {
		strfmt(out, n, "%s/bin/%s", home, name);
		if (access(out, X_OK) == 0) return 0;
	}
	strfmt(out, n, "%s/%s", CUDA_BIN, name);
	return access(out, X_OK) == 0 ? 0 : -1;
}

/* The cudaclimb run that the tool wraps: the stage, the same settings and seed, few repetitions, no
 * counters of our own (CUPTI's profiler and the tool's cannot both hold the GPU's counters). */
static void run_words(const cli *c, argl *a, const lesson *l, const lesson_stage *s, int reps)
{
	char self[PATH_MAX], buf[256];
	self_path(self, sizeof self);
	add(a, self);
	if (c->eo.lessons_root) { add(a, c->eo.lessons_only ? "--lessons-only" : "--lessons"); add(a, c->eo.lessons_root); }
	add(a, "run");
	strfmt(buf, sizeof buf, "%s/%s", l->id, s->id);
	add(a, buf);
	for (int i = 0; i < c->nsets; i++) {
		add(a, "--set");
		strfmt(buf, sizeof buf, "%s=%s", c->sets[i].name, c->sets[i].value);
		add(a, buf);
	}
	add(a, "--no-counters");
	add(a, "--reps");
	strfmt(buf, sizeof buf, "%d", reps);
	add(a, buf);
	add(a, "--seed");
	strfmt(buf, sizeof buf, "%llu", c->eo.has_seed ? (unsigned long long)c->eo.seed : 1ull);
	add(a, buf);
	add(a, "--timeout");
	add(a, "120");   /* a kernel replayed pass by pass under ncu takes many times its own time */
}

/* Kernel launches in one repetition of stage s at the lesson's defaults (repeat blocks unrolled), or
 * -1 when the stage does not plan. */
static int kernels_per_run(engine *e, const cli *c, const lesson *l, int stage)
{
	plan_device pd;
	engine_plan_device(e, &pd);
	plan p;
	char err[512];
	int n = -1;
	if (!plan_make(&p, l, stage, c->sets, c->nsets, &pd, err, sizeof err)) {
		n = 0;
		for (int i = 0; i < p.nlaunches; i++) n += p.launches[i].kind == STEP_LAUNCH;
	}
	plan_free(&p);
	return n;
}

static int exec_tool(const char *tool, argl *a)
{
	char path[PATH_MAX];
	if (find_tool(tool, path, sizeof path)) {
		fprintf(stderr, "cudaclimb: %s is not on PATH nor in $CUDA_HOME/bin (%s); %s\n", tool, CUDA_BIN,
		        !strcmp(tool, "ncu") ? "Nsight Compute comes with the CUDA Toolkit (nsight-compute) or from "
		                               "https://developer.nvidia.com/nsight-compute"
		                             : "Nsight Systems comes with the CUDA Toolkit (nsight-systems) or from "
		                               "https://developer.nvidia.com/nsight-systems");
		return EXIT_FAILED;
	}
	free(a->v[0]);
	a->v[0] = xstrdup(path);
	fflush(stdout);
	execv(path, a->v);
	fprintf(stderr, "cudaclimb: cannot run %s\n", path);
	return EXIT_FAILED;
}

int cmd_profile(cli *c, engine *e)
{
	if (c->nargs != 2) return cli_usage_error("profile takes one LESSON/STAGE (cudaclimb profile timing/events --ncu)%s", "");
	const lesson *l;
	int stage;
	int r = cli_find_stage(e, c->args[1], &l, &stage);
	if (r) return r;
	if (stage < 0) return cli_usage_error("profile takes a stage, not the baseline (%s)", c->args[1]);
	if (c->profile_exec && c->profile_tool == PROFILE_BOTH) return cli_usage_error("--exec runs one tool: give --ncu or --nsys too%s", "");
	const lesson_stage *s = &l->stages[stage];
	const char *names[PROFILE_MAX_ENTRIES];
	int nnames = stage_entries(s, s->launches, s->nlaunches, names, 0, PROFILE_MAX_ENTRIES);
	int per_run = kernels_per_run(e, c, l, stage);
	if (per_run < 1) per_run = nnames > 0 ? nnames : 1;
	int reps = c->eo.reps > 0 ? c->eo.reps : 5;
	char buf[4096];
	argl ncu = { 0 }, nsys = { 0 };

	/* Nsight Compute */
	add(&ncu, "ncu");
	size_t k = 0;
	buf[0] = 0;
	for (int i = 0; i < nnames; i++) k += (size_t)snprintf(buf + k, k < sizeof buf ? sizeof buf - k : 0, "%s%s", i ? "|" : "regex:^(", names[i]);
	strfmt(buf + strlen(buf), sizeof buf - strlen(buf), ")$");
	add(&ncu, "--kernel-name");
	add(&ncu, buf);
	add(&ncu, "--launch-skip");
	strfmt(buf, sizeof buf, "%d", PROFILE_SKIP_RUNS * per_run);
	add(&ncu, buf);
	add(&ncu, "--launch-count");
	strfmt(buf, sizeof buf, "%d", per_run);
	add(&ncu, buf);
	add(&ncu, "--cache-control");
	add(&ncu, s->timing.l2_warm ? "none" : "all");   /* a stage timed with its L2 warm on purpose keeps it */
	add(&ncu, "--clock-control");
	add(&ncu, "none");
	add(&ncu, "--metrics");
	k = 0;
	buf[0] = 0;
	for (int i = 0; counters_metric_name(i); i++)
		k += (size_t)snprintf(buf + k, k < sizeof buf ? sizeof buf - k : 0, "%s%s", i ? "," : "", counters_metric_name(i));
	add(&ncu, buf);
	int ncu_tool_words = ncu.n;
	run_words(c, &ncu, l, s, reps);

	/* Nsight Systems */
	add(&nsys, "nsys");
	add(&nsys, "profile");
	add(&nsys, "-t");
	add(&nsys, "cuda");
	add(&nsys, "--stats=true");
	add(&nsys, "-o");
	strfmt(buf, sizeof buf, "cudaclimb-%s-%s", l->id, s->id);
	add(&nsys, buf);
	int nsys_tool_words = nsys.n;
	run_words(c, &nsys, l, s, reps);

	if (c->profile_exec) {
		r = c->profile_tool == PROFILE_NCU ? exec_tool("ncu", &ncu) : exec_tool("nsys", &nsys);
		argl_free(&ncu);
		argl_free(&nsys);
		return r;
	}
	if (c->profile_tool != PROFILE_NSYS) {
		printf("# Nsight Compute: the stage's kernels (%d launch%s a repetition), past its first %d runs (the check's\n"
		       "# reference, the check, the first warm-ups: a warm launch), with the counters cudaclimb reads\n"
		       "# through CUPTI (the same Perf API names). --cache-control all empties the caches before each\n"
		       "# profiled kernel, as cudaclimb empties the L2 before each timed run; --clock-control none\n"
		       "# leaves the clocks alone, as cudaclimb does (ncu's default locks them at base, which is\n"
		       "# slower than the boost clock a real run gets). A metric this GPU lacks (the gmma ones before\n"
		       "# Hopper) makes ncu stop: take it out of the list; cudaclimb leaves such metrics out itself.\n",
		       per_run, per_run == 1 ? "" : "es", PROFILE_SKIP_RUNS);
		if (s->timing.l2_warm)
			printf("# This stage is timed with its L2 warm (timing: { l2: warm }): --cache-control none keeps it so.\n");
		put_command(stdout, &ncu, ncu_tool_words);
	}
	if (c->profile_tool == PROFILE_BOTH) putchar('\n');
	if (c->profile_tool != PROFILE_NCU) {
		printf("# Nsight Systems: the whole run on a timeline (the copies, the warm-up, the %d timed\n"
		       "# repetitions, the L2 flush between them), with a summary of the kernels' and the copies' times.\n", reps);
		put_command(stdout, &nsys, nsys_tool_words);
	}
	char where[PATH_MAX];
	const char *tool = c->profile_tool == PROFILE_NSYS ? "nsys" : "ncu";
	if (c->profile_tool != PROFILE_BOTH && find_tool(tool, where, sizeof where))
		printf("# %s is not installed here (not on PATH nor in %s): it comes with the CUDA Toolkit, or from\n"
		       "# https://developer.nvidia.com/%s\n", tool, CUDA_BIN, !strcmp(tool, "ncu") ? "nsight-compute" : "nsight-systems");
	argl_free(&ncu);
	argl_free(&nsys);
	return EXIT_OK;
}
