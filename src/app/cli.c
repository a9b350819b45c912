/* cli: see cli.h. Every command goes through the engine, like the TUI. */
#include "cli.h"
#include "cli_cmd.h"
#include <ctype.h>
#include <getopt.h>
#include <langinfo.h>
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include "arch.h"
#include "engine.h"
#include "claims.h"
#include "course.h"
#include "json.h"
#include "lesson_case.h"
#include "progress.h"
#include "report.h"
#include "roofline.h"
#include "report_hotspots.h"
#include "report_sass.h"
#include "runner.h"
#include "sass.h"
#include "show_plan.h"
#include "tune.h"
#include "tui.h"
#include "tui_roofline.h"
#include "util.h"

#ifndef CC_VERSION
#define CC_VERSION "0.1.0"
#endif
#ifndef CC_COMMIT
#define CC_COMMIT ""             /* the Makefile passes git describe's */
#endif


static const char usage_text[] =
	"usage: cudaclimb [options]        open the terminal interface\n"
	"       cudaclimb list             the lessons\n"
	"       cudaclimb show LESSON[/STAGE]\n"
	"                                  a lesson's (or one stage's) text, tunables and\n"
	"                                  kernel\n"
	"       cudaclimb show --libraries\n"
	"                                  the libraries a baseline may call, their\n"
	"                                  arguments and the lessons that call them\n"
	"       cudaclimb show LESSON/STAGE --sass|--ptx\n"
	"                                  its machine code (SASS, under its source\n"
	"                                  lines) or its PTX\n"
	"       cudaclimb run LESSON/STAGE [--case C] [--set NAME=VALUE]... [--json]\n"
	"                                  [--hotspots]\n"
	"                                  compile, check and time one stage (or\n"
	"                                  LESSON/baseline, or LESSON/baseline.NAME for a\n"
	"                                  named one); names in any case, STAGE by\n"
	"                                  name or number, LESSON STAGE too\n"
	"       cudaclimb bench LESSON [--stage S[,S...]] [--case C] [--set N=V]...\n"
	"                  [--pair BASELINE] [--json]\n"
	"                                  every stage (or those named) and the baselines\n"
	"                                  they use, as a table; each stage timed in\n"
	"                                  alternating pairs with its own baseline (or\n"
	"                                  with --pair's: baseline or baseline.NAME)\n"
	"       cudaclimb tune LESSON/STAGE [--over NAME,...] [--budget SECONDS]\n"
	"                  [--strategy grid|random|ils] [--seed N] [--plan] [--save]\n"
	"                  [--json]\n"
	"                                  try the stage's tunables' allowed values (the\n"
	"                                  constraints checked first), each timed right\n"
	"                                  after the defaults, within the budget (120 s);\n"
	"                                  the five best, then the best and the defaults\n"
	"                                  once more with counters, side by side (not\n"
	"                                  with --no-counters); ils: a local search from\n"
	"                                  the defaults, one tunable one step at a time,\n"
	"                                  with restarts, for thousands of settings;\n"
	"                                  --plan (or no GPU: exit 3) the plan only;\n"
	"                                  --save keeps the best as this GPU's for run\n"
	"                                  and the terminal interface\n"
	"       cudaclimb check [--arch sm_80,sm_90] [--set NAME=VALUE]...\n"
	"                                  load every lesson, compile every stage (no GPU\n"
	"                                  needed); --set in every stage that has NAME\n"
	"       cudaclimb device           the GPU, its peaks and where each number comes\n"
	"                                  from\n"
	"       cudaclimb profile LESSON/STAGE [--ncu|--nsys] [--exec] [--set N=V]...\n"
	"                                  the command lines that reproduce the stage\n"
	"                                  under Nsight Compute (ncu) and Nsight Systems\n"
	"                                  (nsys); --exec runs the one chosen (no GPU\n"
	"                                  needed to print them)\n"
	"\n"
	"exercises (you write the stage's kernel; your files are in your workspace,\n"
	"see --work):\n"
	"       cudaclimb exercises [LESSON]\n"
	"                                  the exercises and how far you got in each\n"
	"       cudaclimb try LESSON/STAGE [FILE]\n"
	"                                  compile, check and time your kernel against\n"
	"                                  the stage's own (the first try copies the\n"
	"                                  starter into your workspace)\n"
	"       cudaclimb watch LESSON/STAGE [FILE]\n"
	"                                  try again on every save; after a pass, on to\n"
	"                                  the next exercise (keys: h hint, r run again,\n"
	"                                  n next, q quit)\n"
	"       cudaclimb hint LESSON/STAGE\n"
	"                                  the next hint\n"
	"       cudaclimb reset LESSON/STAGE\n"
	"                                  the starter again (yours is kept as .N.bak)\n"
	"       cudaclimb solution LESSON/STAGE\n"
	"                                  the stage's kernel beside yours, once passed\n"
	"                                  or every hint seen\n"
	"\n"
	"courses (for instructors):\n"
	"       cudaclimb course init DIR [--group G]\n"
	"                                  a new DIR: write a commented DIR/course.yaml\n"
	"                                  to start from; then: check it and set up its\n"
	"                                  results folder for a class\n"
	"       cudaclimb report DIR [--csv [FILE]|--json [FILE]|--html FILE] [--verify]\n"
	"                                  the class: students x exercises, a leaderboard\n"
	"                                  each; --verify judges every claimed pass again\n"
	"                                  on this GPU (verified, unverified, refuted)\n"
	"       cudaclimb queue [N|UUID...]\n"
	"                                  the GPU queues: folder, owner, who is in line\n"
	"       cudaclimb queue init [N|UUID...]\n"
	"                                  (root) make the GPUs' queue folders root's,\n"
	"                                  sticky, for a lab\n"
	"       cudaclimb serve [--foreground] [--config FILE] [--check]\n"
	"                                  the lab service: the GPU queue and the judge\n"
	"                                  of a lab box, under its own account (README)\n"
	"       cudaclimb cache [--prune [--max SIZE]]\n"
	"                                  the compile cache's folder and size; prune\n"
	"                                  it to SIZE (default 512M, CUDACLIMB_CACHE_MAX)\n"
	"\n"
	"options:\n"
	"  --lessons DIR     add the lesson tree DIR (DIR/lessons/*.yaml, DIR/kernels/,\n"
	"                    DIR/recorded/) to the shipped lessons; a lesson of DIR\n"
	"                    replaces a shipped one of the same id (said on stderr);\n"
	"                    also CUDACLIMB_LESSONS\n"
	"  --lessons-only DIR\n"
	"                    DIR's lessons alone (CUDACLIMB_LESSONS_ONLY=1 makes\n"
	"                    --lessons and CUDACLIMB_LESSONS mean this)\n"
	"  --work DIR        your exercise files and progress (default ~/cudaclimb-work);\n"
	"                    also CUDACLIMB_WORK\n"
	"  --course DIR      a course (DIR/course.yaml): its lessons and exercises only,\n"
	"                    its bars, results to its results folder; also\n"
	"                    CUDACLIMB_COURSE\n"
	"  --gpu N[,M...]    use GPU N (CUDA_VISIBLE_DEVICES is honoured first); a list\n"
	"                    runs a worker on each, a bench's stages spread over them\n"
	"  --arch sm_XX      compile for this architecture (no GPU needed; check takes a\n"
	"                    comma list of any NVRTC accepts); CUDACLIMB_UNKNOWN_ARCH=1\n"
	"                    treats the GPU as missing from assets/arch.yaml (PTX the\n"
	"                    driver JITs, limits from the device, peaks unknown)\n"
	"  --set NAME=VALUE  set a parameter or tunable (repeatable; VALUE may be an\n"
	"                    expression)\n"
	"  --case NAME       run, bench, try, watch, show: the lesson's case NAME (show\n"
	"                    lists them), its settings as if given with --set before\n"
	"                    the others (a --set of the same name wins); default: none\n"
	"  --json            machine-readable output: {\"schema\": 1, \"metric\": \"GB/s\",\n"
	"                    \"device\": {...}, \"results\": [...]}; booleans are true/false\n"
	"  --timeout S       watchdog for one run, in seconds (default 10); a compile may\n"
	"                    take max(S, 120) seconds before it is stopped as timed out\n"
	"  --seed N          seed for the random inputs (default: fresh each time)\n"
	"  --reps N          timed repetitions (default: enough for about 0.4 s, 10 to\n"
	"                    300)\n"
	"  --no-counters     do not read hardware counters\n"
	"  --roofline        run, bench: a roofline chart of the stages against this\n"
	"                    GPU's roofs (80 columns; --ascii without UTF-8); --json\n"
	"                    always has each result's \"roofline\"\n"
	"  --hotspots        run: sample the program counter after the timed runs; the\n"
	"                    source with each line's share of the samples and its top\n"
	"                    stall reasons, the hottest SASS instructions\n"
	"  --replay FILE     answer runs from FILE (written by run/bench --json) instead\n"
	"                    of a GPU; only what was recorded is shown\n"
	"  --runner R        where the GPU worker runs: local (default), 'ssh HOST'\n"
	"                    (cudaclimb on HOST; compiles here for its GPU), slurm (srun;\n"
	"                    a step of the allocation under salloc), then KEY=VALUE\n"
	"                    settings; also CUDACLIMB_RUNNER, or the course's runner:\n"
	"  --remote-worker P the worker program there (ssh: default cudaclimb on its\n"
	"                    PATH; slurm: this binary)\n"
	"  --slurm-partition P, --slurm-gres G, --slurm-time T, --slurm-account A\n"
	"                    srun's -p, --gres, -t, -A\n"
	"  --no-color, --ascii, --frames N\n"
	"                    terminal interface: monochrome, ASCII, draw N frames of a\n"
	"                    fixed tour and exit (with no terminal on the output they are\n"
	"                    drawn into /dev/null: a smoke test for CI, which writes\n"
	"                    nothing)\n"
	"  -h, --help        this text\n"
	"  -V, --version     the version and the commit it was built from\n"
	"\n"
	"exit status:\n"
	"  0  all right (try: passed)\n"
	"  1  a stage was wrong, faulted, hung or did not compile (try: not yet); bench\n"
	"     --replay: a stage asked for is not in the recording\n"
	"  2  bad command line, or a refused setting\n"
	"  3  no GPU for a command that needs one\n"
	"  4  a lesson or course file has errors\n"
	"  5  the runner failed (status runner_error): the ssh host cannot be reached,\n"
	"     srun is missing, Slurm refused the job; its reason is said in one line\n";

int cli_usage_error(const char *fmt, const char *arg)
{
	fprintf(stderr, "cudaclimb: ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\n(cudaclimb --help lists the commands and options)\n");
	return EXIT_USAGE;
}

/* --runner and the runner's settings, in the order given, as one text for the engine
 * (runner_config_parse): "ssh gpu1 worker=/opt/cudaclimb/bin/cudaclimb". */
static char runner_text[2048];

/* Adds --runner's words (key NULL), or the setting key=value that option opt gives: 0, or a usage
 * error when the value cannot be one (a space, a quote, a leading '-'). */
static int runner_word(const char *opt, const char *key, const char *value)
{
	size_t n = strlen(runner_text);
	if (!key) { strfmt(runner_text + n, sizeof runner_text - n, "%s%s", n ? " " : "", value); return 0; }
	runner_config probe = {0};
	char err[256];
	if (runner_config_set(&probe, key, value, opt, err, sizeof err)) return cli_usage_error("%s", err);
	strfmt(runner_text + n, sizeof runner_text - n, "%s%s=%s", n ? " " : "", key, value);
	return 0;
}

/* The commands' names, for the checks below and the nearest name to a misspelt one. */
static const char *const command_names[] = { "list", "show", "run", "bench", "check", "device", "exercises", "try", "watch", "hint",
                                             "reset", "solution", "course", "report", "queue", "cache", "profile", "serve", "tune" };
enum { NCOMMANDS = sizeof command_names / sizeof command_names[0] };

/* Whether word names one of the commands (so that `--runner ssh run ...` is not a host "run"). */
static int is_command(const char *word)
{
	for (size_t i = 0; i < NCOMMANDS; i++) if (!strcmp(word, command_names[i])) return 1;
	return 0;
}

static int parse(cli *c, int argc, char **argv)
{
	enum { O_LESSONS = 256, O_GPU, O_ARCH, O_SET, O_JSON, O_TIMEOUT, O_SEED, O_REPS, O_NOCOUNT, O_REPLAY, O_NOCOLOR, O_ASCII, O_FRAMES, O_WORK, O_SASS, O_PTX, O_COURSE, O_GROUP, O_HTML, O_CSV,
	       O_RUNNER, O_REMOTE_WORKER, O_SLURM_PARTITION, O_SLURM_GRES, O_SLURM_TIME, O_SLURM_ACCOUNT, O_ROOFLINE, O_HOTSPOTS, O_STAGE, O_PAIR, O_VERIFY, O_NCU, O_NSYS, O_EXEC, O_CASE,
	       O_OVER, O_BUDGET, O_STRATEGY, O_PLAN, O_SAVE, O_LIBRARIES, O_LESSONS_ONLY };
	static const struct option opts[] = {
		{ "lessons", 1, 0, O_LESSONS }, { "gpu", 1, 0, O_GPU }, { "arch", 1, 0, O_ARCH }, { "set", 1, 0, O_SET },
		{ "json", 0, 0, O_JSON }, { "timeout", 1, 0, O_TIMEOUT }, { "seed", 1, 0, O_SEED }, { "reps", 1, 0, O_REPS },
		{ "no-counters", 0, 0, O_NOCOUNT }, { "replay", 1, 0, O_REPLAY }, { "no-color", 0, 0, O_NOCOLOR },
		{ "ascii", 0, 0, O_ASCII }, { "frames", 1, 0, O_FRAMES }, { "work", 1, 0, O_WORK }, { "sass", 0, 0, O_SASS }, { "ptx", 0, 0, O_PTX },
		{ "course", 1, 0, O_COURSE }, { "group", 1, 0, O_GROUP }, { "html", 1, 0, O_HTML }, { "csv", 0, 0, O_CSV },
		{ "runner", 1, 0, O_RUNNER }, { "remote-worker", 1, 0, O_REMOTE_WORKER }, { "slurm-partition", 1, 0, O_SLURM_PARTITION },
		{ "slurm-gres", 1, 0, O_SLURM_GRES }, { "slurm-time", 1, 0, O_SLURM_TIME }, { "slurm-account", 1, 0, O_SLURM_ACCOUNT },
		{ "roofline", 0, 0, O_ROOFLINE }, { "hotspots", 0, 0, O_HOTSPOTS }, { "stage", 1, 0, O_STAGE }, { "pair", 1, 0, O_PAIR }, { "verify", 0, 0, O_VERIFY },
		{ "ncu", 0, 0, O_NCU }, { "nsys", 0, 0, O_NSYS }, { "exec", 0, 0, O_EXEC }, { "case", 1, 0, O_CASE },
		{ "over", 1, 0, O_OVER }, { "budget", 1, 0, O_BUDGET }, { "strategy", 1, 0, O_STRATEGY }, { "plan", 0, 0, O_PLAN }, { "save", 0, 0, O_SAVE },
		{ "libraries", 0, 0, O_LIBRARIES }, { "lessons-only", 1, 0, O_LESSONS_ONLY },
		{ "help", 0, 0, 'h' }, { "version", 0, 0, 'V' }, { 0, 0, 0, 0 },
	};
	c->eo.gpu = -1;
	opterr = 0;
	int o;
	char err[256], *end;
	while ((o = getopt_long(argc, argv, "hV", opts, NULL)) != -1) {
		switch (o) {
		case O_LESSONS: case O_LESSONS_ONLY:
			if (c->eo.lessons_root) return cli_usage_error("--lessons and --lessons-only name one tree: give one of them once%s", "");
			c->eo.lessons_root = optarg;
			c->eo.lessons_only = o == O_LESSONS_ONLY;
			break;
		case O_WORK: c->work = optarg; break;
		case O_SASS: if (c->code == SHOW_PTX) return cli_usage_error("--sass and --ptx each choose what show prints: give one%s", ""); c->code = SHOW_SASS; break;
		case O_COURSE: c->eo.course_dir = optarg; break;
		case O_GROUP: c->group = optarg; break;
		case O_HTML: c->html = optarg; break;
		case O_CSV: c->csv = 1; break;
		case O_VERIFY: c->verify = 1; break;
		case O_NCU: case O_NSYS:
			if (c->profile_tool && c->profile_tool != (o == O_NCU ? PROFILE_NCU : PROFILE_NSYS))
				return cli_usage_error("--ncu and --nsys each choose the tool profile prints: give one (or neither, for both)%s", "");
			c->profile_tool = o == O_NCU ? PROFILE_NCU : PROFILE_NSYS;
			break;
		case O_EXEC: c->profile_exec = 1; break;
		case O_OVER: c->tune_over = optarg; break;
		case O_BUDGET:
			c->tune_budget = strtod(optarg, &end);
			if (end == optarg || *end || !(c->tune_budget > 0) || !isfinite(c->tune_budget))
				return cli_usage_error("--budget takes a positive number of seconds, not '%s'", optarg);
			break;
		case O_STRATEGY:
			if (!tune_strategy_find(optarg)) return cli_usage_error("--strategy takes grid, random or ils, not '%s'", optarg);
			c->tune_strategy = optarg;
			break;
		case O_PLAN: c->tune_plan = 1; break;
		case O_SAVE: c->tune_save = 1; break;
		case O_LIBRARIES: c->libraries = 1; break;
		case O_ROOFLINE: c->roofline = 1; break;
		case O_HOTSPOTS: c->hotspots = 1; break;
		case O_STAGE: c->bench_stages = optarg; break;
		case O_PAIR: c->bench_pair = optarg; break;
		case O_PTX: if (c->code == SHOW_SASS) return cli_usage_error("--sass and --ptx each choose what show prints: give one%s", ""); c->code = SHOW_PTX; break;
		case O_GPU:
			c->eo.ngpus = 0;
			for (const char *p = optarg;; p = end + 1) {
				long g = strtol(p, &end, 10);
				if (end == p || (*end && *end != ',') || g < 0 || g > 1 << 20 || c->eo.ngpus >= ENGINE_MAX_WORKERS)
					return cli_usage_error("--gpu takes a GPU number or a list of up to 8 (0,1), not '%s'", optarg);
				c->eo.gpus[c->eo.ngpus++] = (int)g;
				if (!*end) break;
			}
			c->eo.gpu = c->eo.gpus[0];
			break;
		case O_ARCH: c->archs = optarg; c->eo.arch = optarg; break;
		case O_SET:
			if (c->nsets == 16) return cli_usage_error("at most 16 --set options%s", "");
			if (plan_setting_parse(optarg, &c->sets[c->nsets], err, sizeof err)) return cli_usage_error("--set %s", err);
			c->nsets++;
			break;
		case O_CASE:
			if (c->case_name) return cli_usage_error("--case is given once: a run is in one case (--set changes single values)%s", "");
			c->case_name = optarg;
			break;
		case O_JSON: c->json = 1; break;
		case O_TIMEOUT: c->eo.timeout_s = strtod(optarg, &end); if (*end || c->eo.timeout_s <= 0) return cli_usage_error("--timeout takes seconds, not '%s'", optarg); break;
		case O_SEED: c->eo.seed = strtoull(optarg, &end, 0); c->eo.has_seed = 1; if (*end) return cli_usage_error("--seed takes a number, not '%s'", optarg); break;
		case O_REPS: c->eo.reps = (int)strtol(optarg, &end, 10); if (*end || c->eo.reps < 1) return cli_usage_error("--reps takes a count, not '%s'", optarg); break;
		case O_NOCOUNT: c->eo.no_counters = 1; break;
		case O_REPLAY: c->eo.replay_path = optarg; break;
		case O_RUNNER:
			/* --runner ssh HOST as two words too (a command's name is not taken for a host) */
			if (!strcmp(optarg, "ssh") && optind < argc && argv[optind][0] != '-' && !is_command(argv[optind])) {
				runner_word(NULL, NULL, "ssh");
				if (runner_word("--runner ssh", "host", argv[optind++])) return EXIT_USAGE;
			} else {
				runner_word(NULL, NULL, optarg);
			}
			break;
		case O_REMOTE_WORKER: if (runner_word("--remote-worker", "worker", optarg)) return EXIT_USAGE; break;
		case O_SLURM_PARTITION: if (runner_word("--slurm-partition", "partition", optarg)) return EXIT_USAGE; break;
		case O_SLURM_GRES: if (runner_word("--slurm-gres", "gres", optarg)) return EXIT_USAGE; break;
		case O_SLURM_TIME: if (runner_word("--slurm-time", "time", optarg)) return EXIT_USAGE; break;
		case O_SLURM_ACCOUNT: if (runner_word("--slurm-account", "account", optarg)) return EXIT_USAGE; break;
		case O_NOCOLOR: c->to.no_color = 1; break;
		case O_ASCII: c->to.ascii = 1; break;
		case O_FRAMES: c->to.frames = (int)strtol(optarg, &end, 10); if (*end || c->to.frames < 1) return cli_usage_error("--frames takes a count, not '%s'", optarg); break;
		case 'h': fputs(usage_text, stdout); exit(EXIT_OK);
		case 'V':
			if (CC_COMMIT[0]) printf("cudaclimb %s (commit %s)\n", CC_VERSION, CC_COMMIT);
			else printf("cudaclimb %s\n", CC_VERSION);
			exit(EXIT_OK);
		default: return cli_usage_error("unknown or incomplete option '%s'", argv[optind - 1]);
		}
	}
	if (c->json + c->csv + (c->html != NULL) > 1)
		return cli_usage_error("--json, --csv and --html each choose the output format: give one of them%s", "");
	c->args = argv + optind;
	c->nargs = argc - optind;
	if (runner_text[0]) c->eo.runner = runner_text;
	return 0;
}

/* The nearest-name helper lives in util (util_suggest_name): the lesson layer uses it too. */
static void suggest(const char *typed, const char *const *names, int n, char *out, size_t len)
{
	util_suggest_name(typed, names, n, out, len);
}

void cli_suggest_name(const char *typed, const char *const *names, int n, char *out, size_t len) { suggest(typed, names, n, out, len); }

/* The lesson called id, in any case; NULL when none is. */
static const lesson *lesson_named(engine *e, const char *id)
{
	const lesson_set *s = engine_lessons(e);
	for (int i = 0; i < s->count; i++) if (!strcasecmp(s->items[i]->id, id)) return s->items[i];
	return NULL;
}

int cli_not_in_course(engine *e, const char *what)
{
	const course *co = engine_course(e);
	sb b = {0};
	sb_addf(&b, "%s is not in this course (%s); its exercises: ", what, co->title ? co->title : co->id);
	for (int i = 0; i < co->nitems; i++) sb_addf(&b, "%s%s/%s", i ? ", " : "", co->items[i].lesson, co->items[i].stage);
	if (!co->nitems) sb_add(&b, "none");
	char *clean = xstrdup(b.s);   /* the course file's words, as a lesson's */
	for (char *p = clean; *p; p++) if ((unsigned char)*p < 0x20 || *p == 0x7f) *p = '?';
	int r = cli_usage_error("%s", clean);
	free(clean);
	sb_free(&b);
	return r;
}

/* cli_find_lesson, with spec (LESSON or LESSON/STAGE) named when a course leaves the lesson out. */
static int find_lesson_for(engine *e, const char *id, const char *spec, const lesson **l)
{
	if ((*l = lesson_named(e, id))) return 0;
	const lesson_set *s = engine_lessons(e);
	const char **names = xcalloc((size_t)s->count + 1, sizeof *names);
	for (int i = 0; i < s->count; i++) names[i] = s->items[i]->id;
	char near[160], msg[400];
	suggest(id, names, s->count, near, sizeof near);
	free(names);
	if (engine_course(e) && !near[0]) return cli_not_in_course(e, spec);   /* a lesson the course does not show */
	strfmt(msg, sizeof msg, "no lesson '%s'%s (cudaclimb list shows them)", id, near);
	return cli_usage_error("%s", msg);
}

int cli_find_lesson(engine *e, const char *id, const lesson **l) { return find_lesson_for(e, id, id, l); }

/* stage_named's answers besides a stage or a baseline (LESSON_BASELINE numbers are above them). */
enum { NO_STAGE = -100000, STAGE_OUT_OF_RANGE = -100001 };

/* A stage of l by id (any case), number (1 is the first), "baseline" or "baseline.NAME" (a baselines:
 * entry): its index, -1 for the baseline, LESSON_BASELINE(i) for a named one, NO_STAGE for none,
 * STAGE_OUT_OF_RANGE for a number out of range. */
static int stage_named(const lesson *l, const char *name)
{
	if (*name && strspn(name, "0123456789") == strlen(name)) {
		long k = strtol(name, NULL, 10);
		return k >= 1 && k <= l->nstages ? (int)k - 1 : STAGE_OUT_OF_RANGE;
	}
	int b = lesson_baseline_named(l, name);
	if (b < 0) return b;
	for (int i = 0; i < l->nstages; i++) if (!strcasecmp(l->stages[i].id, name)) return i;
	return NO_STAGE;
}

/* "name a stage: bandwidth/strided, bandwidth/coalesced, ... (or bandwidth/baseline)". */
static int name_a_stage(const lesson *l)
{
	sb b = {0};
	sb_add(&b, "name a stage: ");
	for (int i = 0; i < l->nstages; i++) sb_addf(&b, "%s%s/%s", i ? ", " : "", l->id, l->stages[i].id);
	for (int i = l->baseline ? -1 : 0; i < l->nbaselines; i++)   /* the lesson's baseline, then the named ones */
		sb_addf(&b, "%s%s/%s%s", i == -1 || (i == 0 && !l->baseline) ? " (or " : ", ", l->id, lesson_baseline_at(l, i < 0 ? -1 : LESSON_BASELINE(i))->id,
		        i + 1 == l->nbaselines ? ")" : "");
	int r = cli_usage_error("%s", b.s);
	sb_free(&b);
	return r;
}

int cli_find_stage(engine *e, const char *spec, const lesson **l, int *stage)
{
	char id[128], msg[400], near[160];
	const char *slash = strchr(spec, '/');
	strfmt(id, sizeof id, "%.*s", slash ? (int)(slash - spec) : (int)strlen(spec), spec);
	if (find_lesson_for(e, id, spec, l)) return EXIT_USAGE;
	if (!slash || !slash[1]) return name_a_stage(*l);
	*stage = stage_named(*l, slash + 1);
	if (*stage > NO_STAGE) return 0;
	if (!strncasecmp(slash + 1, "baseline.", 9) && (*l)->nbaselines) {
		sb b = {0};
		for (int i = 0; i < (*l)->nbaselines; i++) sb_addf(&b, "%s%s/%s", i ? ", " : "", (*l)->id, (*l)->baselines[i]->id);
		strfmt(msg, sizeof msg, "no baseline '%s' in %s (its named baselines: %s)", slash + 1, (*l)->id, b.s);
		sb_free(&b);
		return cli_usage_error("%s", msg);
	}
	if (*stage == STAGE_OUT_OF_RANGE) {
		strfmt(msg, sizeof msg, "no stage %s in %s: its stages are 1 to %d (cudaclimb show %s lists them)", slash + 1, (*l)->id,
		       (*l)->nstages, (*l)->id);
		return cli_usage_error("%s", msg);
	}
	const char **names = xcalloc((size_t)(*l)->nstages + 1, sizeof *names);
	for (int i = 0; i < (*l)->nstages; i++) names[i] = (*l)->stages[i].id;
	suggest(slash + 1, names, (*l)->nstages, near, sizeof near);
	free(names);
	strfmt(msg, sizeof msg, "no stage '%s' in %s%s (cudaclimb show %s lists them)", slash + 1, (*l)->id, near, (*l)->id);
	return cli_usage_error("%s", msg);
}

/* LESSON STAGE as two operands of a command that takes LESSON/STAGE: joined into one, when the first
 * names a lesson, the second one of its stages, and no file has the second's name. */
static void join_stage_operands(cli *c, engine *e)
{
	static const char *const cmds[] = { "run", "show", "try", "watch", "hint", "reset", "solution", "profile" };
	int takes = 0;
	for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++) takes |= !strcmp(c->args[0], cmds[i]);
	if (!takes || c->nargs < 3 || strchr(c->args[1], '/') || file_exists(c->args[2])) return;
	const lesson *l = lesson_named(e, c->args[1]);
	if (!l || stage_named(l, c->args[2]) <= NO_STAGE) return;
	strfmt(c->spec, sizeof c->spec, "%s/%s", c->args[1], c->args[2]);
	c->own_args = xcalloc((size_t)c->nargs, sizeof *c->own_args);
	c->own_args[0] = c->args[0];
	c->own_args[1] = c->spec;
	for (int i = 3; i < c->nargs; i++) c->own_args[i - 1] = c->args[i];
	c->args = c->own_args;
	c->nargs--;
}

/* Usage error when the command has more than max operands. */
static int too_many(cli *c, int max, const char *what)
{
	char msg[256];
	if (c->nargs <= max + 1) return 0;
	if (max) strfmt(msg, sizeof msg, "%s takes one %s, not also '%s'", c->args[0], what, c->args[max + 1]);
	else strfmt(msg, sizeof msg, "%s takes no operands, not '%s'", c->args[0], c->args[1]);
	return cli_usage_error("%s", msg);
}

/* Whether NVRTC compiles for the architecture a (check --arch takes every one it accepts). */
static int nvrtc_takes(const char *a)
{
	int nv[64], nn = arch_nvrtc_supported(nv, 64), cc = arch_parse_cc(a);
	for (int i = 0; i < nn; i++)
		if (nv[i] == cc) return 1;
	return 0;
}

/* Every architecture in the comma list is in assets/arch.yaml (loaded by engine_new) or compiled by
 * NVRTC; a list only where many is allowed (check). */
static int check_archs(const char *list, int many)
{
	if (!list) return 0;
	if (!many && strchr(list, ',')) return cli_usage_error("--arch takes one architecture here (a comma list is for check), not '%s'", list);
	char names[256], msg[768];
	strfmt(names, sizeof names, "%s", list);
	for (char *save, *a = strtok_r(names, ",", &save); a; a = strtok_r(NULL, ",", &save)) {
		if (arch_find(a) || (!strncmp(a, "sm_", 3) && nvrtc_takes(a))) continue;
		sb known = {0};
		for (int i = 0; i < arch_count(); i++) sb_addf(&known, "%s%s", i ? ", " : "", arch_at(i)->name);
		int nv[64], nn = arch_nvrtc_supported(nv, 64);
		sb_add(&known, "; NVRTC also compiles for:");
		for (int i = 0; i < nn; i++) {
			char nm[16];
			snprintf(nm, sizeof nm, "sm_%d", nv[i]);
			if (!arch_find(nm)) sb_addf(&known, " %s", nm);
		}
		strfmt(msg, sizeof msg, "unknown architecture '%s' (known: %s)", a, known.s ? known.s : "none");
		sb_free(&known);
		return cli_usage_error("%s", msg);
	}
	return 0;
}

static void print_load_errors(engine *e)
{
	const lesson_set *s = engine_lessons(e);
	for (int i = 0; i < s->nerrors; i++) { fput_clean(stderr, s->errors[i]); fputc('\n', stderr); }
}

static int cmd_list(cli *c, engine *e)
{
	if (too_many(c, 0, NULL)) return EXIT_USAGE;
	const lesson_set *s = engine_lessons(e);
	if (c->json) {   /* {"schema": 1, "lessons": [{"id", "title", "stages": [...], "exercises": [...]}]} */
		printf("{\"schema\": %d, \"lessons\": [", JSON_SCHEMA);
		for (int i = 0; i < s->count; i++) {
			const lesson *l = s->items[i];
			printf("%s\n  {\"id\": ", i ? "," : "");
			json_string(stdout, l->id);
			printf(", \"title\": ");
			json_string(stdout, l->title);
			printf(", \"stages\": [");
			for (int k = 0; k < l->nstages; k++) { if (k) printf(", "); json_string(stdout, l->stages[k].id); }
			printf("], \"exercises\": [");
			for (int k = 0, n = 0; k < l->nstages; k++)
				if (l->stages[k].exercise) { if (n++) printf(", "); json_string(stdout, l->stages[k].id); }
			printf("], \"cases\": [");
			for (int k = 0; k < l->ncases; k++) {   /* {"name", "settings": "skew=0.6", "help"} */
				char set[256];
				lesson_case_describe(&l->cases[k], set, sizeof set);
				printf("%s{\"name\": ", k ? ", " : "");
				json_string(stdout, l->cases[k].name);
				printf(", \"settings\": ");
				json_string(stdout, set);
				printf(", \"help\": ");
				json_string(stdout, l->cases[k].help ? l->cases[k].help : "");
				putchar('}');
			}
			printf("]}");
		}
		printf("\n], \"errors\": [");
		for (int i = 0; i < s->nerrors; i++) { if (i) printf(", "); json_string(stdout, s->errors[i]); }
		printf("]}\n");
		return s->nerrors ? EXIT_LESSONS : EXIT_OK;
	}
	if (!s->count && !s->nerrors) printf("no lessons in %s/lessons (a lesson is a .yaml file there; lessons/README.md says how to write one)\n", s->root);
	int idw = 12;                          /* the longest id sets the column ("precision_gemm") */
	for (int i = 0; i < s->count; i++) if ((int)strlen(s->items[i]->id) > idw) idw = (int)strlen(s->items[i]->id);
	for (int i = 0; i < s->count; i++) {   /* the title is the lesson writer's text: no control sequences, one line */
		printf("%-*s %2d stages  ", idw, s->items[i]->id, s->items[i]->nstages);
		fput_clean_line(stdout, s->items[i]->title);
		putchar('\n');
	}
	print_load_errors(e);
	return s->nerrors ? EXIT_LESSONS : EXIT_OK;
}

/* show LESSON/STAGE --sass|--ptx: the stage compiled as a run would compile it (the cache serves a
 * compile seen before), then its PTX, or its SASS from nvdisasm with the counts per class against
 * the previous stage's. */
static int show_code(cli *c, engine *e)
{
	const lesson *l;
	int stage, r = cli_find_stage(e, c->args[1], &l, &stage);
	if (r) return r;
	if (stage < 0) return cli_usage_error("the baseline is a library call: it has no code of ours to show%s", "");
	if (cli_use_case(c, l, LESSON_CASE_ALL_STAGES)) return EXIT_USAGE;   /* each stage below keeps what it has */
	run_result res[2];
	for (int k = 0; k < 2; k++) run_result_init(&res[k]);
	/* this stage, and the previous one for the counts beside */
	for (int k = 0; k < 2 && stage - k >= 0; k++) {
		engine_job j = { .lesson = l, .stage = stage - k, .compile_only = 1 };
		for (int i = 0; i < c->nsets; i++)
			if (lesson_find_param(l, c->sets[i].name) || lesson_find_tunable(&l->stages[stage - k], c->sets[i].name)) j.sets[j.nsets++] = c->sets[i];
		run_result_clear(&res[k]);
		engine_run_sync(e, &j, &res[k]);
	}
	const lesson_stage *s = &l->stages[stage];
	int code = EXIT_OK;
	char err[512];
	if (res[0].status != RUN_OK || !res[0].cubin[0]) {
		fprintf(stderr, "cudaclimb: %s/%s: %s: ", l->id, s->id, run_status_name(res[0].status));
		fput_clean(stderr, res[0].message);
		fputc('\n', stderr);
		code = cli_status_exit(res[0].status);
	} else if (c->code == SHOW_PTX) {
		size_t n = strlen(res[0].cubin);
		char *path = xasprintf("%.*s.ptx", (int)(n > 6 ? n - 6 : n), res[0].cubin), *ptx = file_read(path, NULL);
		if (!ptx) { fprintf(stderr, "cudaclimb: no PTX was kept for this compile (%s)\n", path); code = EXIT_FAILED; }
		else { printf("// %s/%s (%s, %s), PTX from NVRTC\n", l->id, s->id, res[0].arch, res[0].settings); fput_clean(stdout, ptx); }
		free(ptx);
		free(path);
	} else {
		char *text = sass_disassemble(res[0].cubin, err, sizeof err), *prev = NULL;
		if (!text) { fprintf(stderr, "cudaclimb: %s\n", err); code = EXIT_FAILED; }
		else {
			if (stage > 0 && res[1].status == RUN_OK && res[1].cubin[0]) prev = sass_disassemble(res[1].cubin, err, sizeof err);
			sass_listing a, b;
			sass_parse(text, &a);
			sass_parse(prev, &b);
			char *src = file_read(s->kernel_path, NULL), **lines = NULL;
			int nl = 0;
			for (char *p = src; p && *p;) {
				lines = xrealloc(lines, (size_t)(nl + 1) * sizeof *lines);
				lines[nl++] = p;
				char *e2 = strchr(p, '\n');
				if (!e2) break;
				*e2 = 0;
				p = e2 + 1;
			}
			printf("%s/%s - ", l->id, s->id);
			fput_clean(stdout, s->title);
			printf("   (%s, %s; SASS from nvdisasm under the source lines of %s)\n\n", res[0].arch, res[0].settings, s->kernel_rel);
			for (int f = 0; f < a.nfuncs; f++) {
				const sass_func *pf = stage > 0 ? sass_find_func(&b, a.funcs[f].name) : NULL;
				if (!pf && stage > 0 && b.nfuncs) pf = &b.funcs[0];   /* each stage names its kernel its own way */
				report_sass_counts(stdout, &a.funcs[f], pf, pf ? l->stages[stage - 1].id : NULL);
			}
			for (int f = 0; f < a.nfuncs; f++) report_sass(stdout, &a, &a.funcs[f], lines, nl, s->kernel_path);
			free(lines);
			free(src);
			sass_free(&a);
			sass_free(&b);
		}
		free(text);
		free(prev);
	}
	for (int k = 0; k < 2; k++) run_result_clear(&res[k]);
	return code;
}

/* What tune --save kept for the stage, per GPU model (show starts no worker, so every model is named). */
static void show_tuned(const lesson *l, int stage)
{
	char path[4096], err[512];
	progress_state ps;
	progress_init(&ps);
	if (!progress_path(path, sizeof path) && !progress_load(&ps, path, err, sizeof err))
		for (int i = 0; i < ps.ntuned; i++) {
			const progress_tuned *t = &ps.tuned[i];
			if (t->sets[0] && !strcmp(t->lesson, l->id) && !strcmp(t->stage, l->stages[stage].id))
				printf("\ntuned on %s (cudaclimb tune --save; run starts from them on that GPU): %s\n", t->gpu, t->sets);
		}
	progress_free(&ps);
}

/* show --libraries: each library a baseline may call, the arguments it needs, and the lessons here
 * that call it (lessons/README.md, "Library baselines", says what each computes). */
static int show_libraries(cli *c, engine *e)
{
	if (too_many(c, 0, NULL)) return EXIT_USAGE;
	const lesson_set *s = engine_lessons(e);
	printf("Libraries a baseline may call (library: NAME, args: { ... }; lessons/README.md says what each computes):\n");
	const char *const *lib;
	for (int i = 0; (lib = lesson_library(i)); i++) {
		printf("  %-27s", lib[0]);
		for (int a = 1; lib[a]; a++) printf("%s%s", a > 1 ? ", " : "", lib[a]);
		int n = 0;
		for (int k = 0; k < s->count; k++) {
			const lesson *l = s->items[k];
			int uses = l->baseline && !strcmp(l->baseline->library, lib[0]);
			for (int b = 0; b < l->nbaselines && !uses; b++) uses = !strcmp(l->baselines[b]->library, lib[0]);
			if (uses) printf("%s%s", n++ ? ", " : "   (used by ", l->id);
		}
		printf("%s\n", n ? ")" : "");
	}
	return EXIT_OK;
}

static int cmd_show(cli *c, engine *e)
{
	if (c->libraries) return c->code ? cli_usage_error("--libraries lists the libraries: it takes no --sass or --ptx%s", "") : show_libraries(c, e);
	if (c->nargs < 2) return cli_usage_error("show needs a lesson%s", "");
	if (c->code) return too_many(c, 1, "LESSON/STAGE") ? EXIT_USAGE : show_code(c, e);
	const lesson *l;
	if (too_many(c, 1, "LESSON")) return EXIT_USAGE;
	if (strchr(c->args[1], '/')) {   /* show LESSON/STAGE: that stage's text, as run takes the form */
		int stage, r = cli_find_stage(e, c->args[1], &l, &stage);
		if (!r) r = cli_use_case(c, l, stage);
		if (r) return r;
		if (stage < 0) { report_lesson(stdout, l); return EXIT_OK; }   /* the baseline is told in the lesson's text */
		run_result *compiled = show_plan_compiles(e, l, stage, c->sets, c->nsets);
		report_use_compiled(compiled, l->nstages);
		report_stage(stdout, l, stage);
		report_use_compiled(NULL, 0);
		show_plan_compiles_free(compiled, l->nstages);
		show_plan_stage(stdout, e, l, stage, c->sets, c->nsets);
		show_tuned(l, stage);
		return EXIT_OK;
	}
	if (cli_find_lesson(e, c->args[1], &l) || cli_use_case(c, l, LESSON_CASE_ALL_STAGES)) return EXIT_USAGE;
	report_lesson(stdout, l);   /* no compiles: show LESSON/STAGE makes a stage concrete (its occupancy too) */
	show_plan_bounds(stdout, e, l, c->sets, c->nsets);
	return EXIT_OK;
}

int cli_use_case(cli *c, const lesson *l, int stage)
{
	if (!c->case_name || lesson_case_is_default(c->case_name)) return 0;
	int k = lesson_case_find(l, c->case_name);
	char msg[600], near[400];
	if (k < 0) {
		lesson_case_suggest(l, c->case_name, near, sizeof near);
		strfmt(msg, sizeof msg, "no case '%s' in %s%s%s%s%s", c->case_name, l->id, near, l->ncases ? " (cudaclimb show " : "",
		       l->ncases ? l->id : "", l->ncases ? " lists them)" : "");
		return cli_usage_error("%s", msg);
	}
	int n = lesson_case_merge(l, k, stage, c->sets, c->nsets, (int)(sizeof c->sets / sizeof c->sets[0]));
	if (n < 0) return cli_usage_error("--case %s and --set give more than 16 settings", l->cases[k].name);
	c->nsets = n;
	strfmt(c->case_used, sizeof c->case_used, "%s", l->cases[k].name);
	report_use_case(l->cases[k].name);
	return 0;
}

int cli_status_exit(run_status s)
{
	return s == RUN_OK ? EXIT_OK : s == RUN_REFUSED ? EXIT_USAGE : s == RUN_NO_GPU ? EXIT_NO_GPU : s == RUN_RUNNER_ERROR ? EXIT_RUNNER
	     : EXIT_FAILED;
}

static void listener(void *ctx, int id, job_phase ph, const char *note, const run_result *r)
{
	if (ph == JOB_WAITING_GPU && note) fprintf(stderr, "cudaclimb: %s\n", note);
}

/* The baseline stage s of l is timed beside in a bench: --pair's, else its own (0: none, or s a baseline). */
static int bench_pair_of(const cli *c, const lesson *l, int s)
{
	return s >= 0 && c->pair_with < 0 ? c->pair_with : lesson_stage_baseline(l, s);
}

/* The job for a stage of a run or a bench: --set names a parameter or a tunable; in a bench, a
 * tunable only some stages have is left out of the rest. */
static engine_job stage_job(cli *c, const lesson *l, int stage, int bench)
{
	engine_job j = { .lesson = l, .stage = stage, .counters = 1, .hotspots = c->hotspots && !bench && stage >= 0,
	                 .pair_baseline = bench && bench_pair_of(c, l, stage) < 0,
	                 .pair_with = bench && stage >= 0 ? c->pair_with : 0 };   /* the fair comparison: docs/how-it-works.md "How the times are taken" */
	for (int k = 0; k < c->nsets; k++)
		if (!bench || lesson_find_param(l, c->sets[k].name) || (stage >= 0 && lesson_find_tunable(&l->stages[stage], c->sets[k].name)))
			j.sets[j.nsets++] = c->sets[k];
	strfmt(j.case_name, sizeof j.case_name, "%s", c->case_used);
	return j;
}

/* The exit status for a refusal: EXIT_LESSONS when why is an error in the lesson's own file
 * ("FILE:line:col: ...", e.g. a default outside its range), else EXIT_USAGE (the command line's). */
static int refusal_exit(const lesson *l, const char *why)
{
	size_t n = l->path ? strlen(l->path) : 0;
	return n && !strncmp(why, l->path, n) && why[n] == ':' && why[n + 1] >= '0' && why[n + 1] <= '9' ? EXIT_LESSONS : EXIT_USAGE;
}

/* Text output: a stage whose settings are refused says why first, and is left out of the table
 * (stages compacted, *n less); the same refusal for every stage is said once. Returns how many;
 * *code rises to the worst refusal_exit. */
static int refusals_first(cli *c, engine *e, const lesson *l, int *stages, int *n, int *code)
{
	char (*why)[1024] = xcalloc((size_t)*n, sizeof *why);
	int refused = 0, same = 1, first = -1, kept = 0;
	for (int i = 0; i < *n; i++) {
		engine_job j = stage_job(c, l, stages[i], *n > 1);
		if (!engine_check_job(e, &j, why[i], sizeof why[i])) { why[i][0] = 0; continue; }
		if (refusal_exit(l, why[i]) > *code) *code = refusal_exit(l, why[i]);
		refused++;
		if (first < 0) first = i;
		else same &= !strcmp(why[i], why[first]);
	}
	int once = same && refused == *n;   /* every stage, for the same reason: said once, no stage named */
	for (int i = 0; i < *n; i++) {
		if (!why[i][0]) { stages[kept++] = stages[i]; continue; }
		if (once && i != first) continue;
		fputs("cudaclimb: ", stderr);
		if (*n > 1 && !once) fprintf(stderr, "%s: ", stages[i] >= 0 ? l->stages[stages[i]].id : lesson_baseline_at(l, stages[i])->id);
		fput_clean(stderr, why[i]);
		fputc('\n', stderr);
	}
	free(why);
	*n = kept;
	return refused;
}

/* "claims": [{"expect": ..., "state": "holds", "values": "bytes_ratio=16", "why": ..., "missing": ...}]:
 * the stage's expect: conditions checked against this call's results. */
static void print_json_claims(const lesson *l, const int *stages, const run_result *rs, int n, int i, const device_info *d)
{
	claim_outcome o[64];
	int k = claims_check_set(l, stages, rs, n, i, d, o, 64);
	printf(", \"claims\": [");
	for (int j = 0; j < k; j++) {
		printf("%s{\"expect\": ", j ? ", " : "");
		json_string(stdout, expr_source(o[j].claim->cond.e));
		printf(", \"state\": \"%s\", \"values\": ", claims_state_name(o[j].state));
		json_string(stdout, o[j].values);
		printf(", \"why\": ");
		json_string(stdout, o[j].claim->why ? o[j].claim->why : "");
		printf(", \"missing\": ");
		json_string(stdout, o[j].why);
		putchar('}');
	}
	putchar(']');
}

/* run --hotspots --json: each stage's result carries "hotspots" (report_hotspots_json). */
static int json_hotspots;

/* {"metric": "GB/s", "device": {...}, "results": [...]}: what --replay reads back (it skips "claims"). */
static void print_json(const lesson *l, score_metric m, const device_info *d, const int *stages, const run_result *rs, int n)
{
	roofline_roofs rf;
	char why[256];
	int roofs = roofline_roofs_of(d, lesson_top_peak(l, d), &rf, why, sizeof why) == 0;
	printf("{\"schema\": %d, \"metric\": \"%s\", \"device\": ", JSON_SCHEMA, score_unit(m));
	json_object(stdout, device_info_fields, device_info_nfields, d, NULL, NULL);
	printf(",\n\"results\": [\n");
	for (int i = 0; i < n; i++) {
		putchar('{');
		json_members(stdout, run_result_fields, run_result_nfields, &rs[i]);
		if (rs[i].log) { printf(", \"log\": "); json_string(stdout, rs[i].log); }
		printf(", \"steps\": ");
		json_steps(stdout, &rs[i]);
		print_json_claims(l, stages, rs, n, i, d);
		printf(", \"roofline\": ");
		roofline_json(stdout, roofs ? &rf : NULL, &rs[i]);
		if (json_hotspots && stages[i] >= 0) { printf(", \"hotspots\": "); report_hotspots_result(stdout, l, stages[i], &rs[i], 1); }
		printf("}%s\n", i + 1 < n ? "," : "");
	}
	printf("]}\n");
}

/* A roofline point's label and name: a stage's number and id; "B" and the baseline's library call (its
 * title's first word) for the lesson's baseline, "B1", "B2", ... for the named ones. */
static void roofline_label(const lesson *l, int stage, char *label, size_t ln, char *name, size_t nn)
{
	if (stage >= 0) { strfmt(label, ln, "%d", stage + 1); strfmt(name, nn, "%s", l->stages[stage].id); return; }
	const lesson_baseline *b = lesson_baseline_at(l, stage);
	if (stage == -1) strfmt(label, ln, "B");
	else strfmt(label, ln, "B%d", -1 - stage < 100 ? -1 - stage : 99);
	strfmt(name, nn, "baseline");
	if (b && b->title) strfmt(name, nn, "%.*s", (int)strcspn(b->title, " ("), b->title);
	for (char *p = name; *p; p++) if (*p < 0x20 || *p > 0x7e) *p = '?';   /* the lesson's text: printable ASCII only */
}

/* --roofline: the results as points (stage numbers, B the baseline) against d's roofs, the fastest
 * stage highlighted, in 80 columns; UTF-8 glyphs when the locale has them and --ascii is not given. */
static void print_roofline(cli *c, const lesson *l, const device_info *d, const int *stages, const run_result *rs, int n)
{
	roofline_roofs rf;
	tui_roofline ch;
	char why[256], label[8];
	if (roofline_roofs_of(d, lesson_top_peak(l, d), &rf, why, sizeof why)) tui_roofline_init(&ch, NULL, why);
	else tui_roofline_init(&ch, &rf, NULL);
	int off = 0;                             /* the baselines come first; they are drawn last */
	while (off < n && stages[off] < 0) off++;
	int best = ch.have_roofs ? roofline_best(&rf, rs + off, n - off) : -1, cur = -1;
	char names[2][48];
	for (int k = off; k < n + off; k++) {
		int i = k < n ? k : k - n;
		roofline_label(l, stages[i], label, sizeof label, names[0], sizeof names[0]);
		if (tui_roofline_add(&ch, label, names[0], stages[i] < 0, &rs[i], why, sizeof why) == 0 && i == best + off) cur = ch.n - 1;
	}
	int at = best >= 0 ? best + off : off < n ? off : 0;
	roofline_point p;
	why[0] = 0;
	if (cur < 0 && n && ch.have_roofs) roofline_place(&rf, &rs[at], &p, why, sizeof why);   /* why it is not placed */
	if (n) roofline_label(l, stages[at], label, sizeof label, names[1], sizeof names[1]);
	else { strfmt(label, sizeof label, "B"); strfmt(names[1], sizeof names[1], "baseline"); }
	tui_roofline_current(&ch, label, names[1], cur, why);
	setlocale(LC_CTYPE, "");                 /* not LC_ALL: numbers stay in the C locale */
	int utf8 = !c->to.ascii && !strcmp(nl_langinfo(CODESET), "UTF-8");
	printf("\nRoofline of %s on ", l->id);
	fput_clean(stdout, d->name[0] ? d->name : "no GPU");
	printf(" (numbers: stages, B: baseline%s)\n", l->nbaselines ? "; B1, B2, ...: the named baselines in their order" : "");
	tui_roofline_print(stdout, &ch, 80, 22, utf8);
}

/* With several workers (--gpu 0,1): every stage submitted at once, the results into rs in order. */
typedef struct { int *ids, n; run_result *rs; } spread_ctx;

static void spread_listener(void *ctx, int id, job_phase ph, const char *note, const run_result *r)
{
	spread_ctx *s = ctx;
	listener(NULL, id, ph, note, r);
	for (int i = 0; i < s->n && ph == JOB_DONE; i++) if (s->ids[i] == id) run_result_copy(&s->rs[i], r);
}

static void run_spread(cli *c, engine *e, const lesson *l, const int *stages, int n, int bench, run_result *rs)
{
	spread_ctx s = { xcalloc((size_t)n, sizeof(int)), n, rs };
	char err[512];
	engine_set_listener(e, spread_listener, &s);
	for (int i = 0; i < n; i++) {
		run_result_init(&rs[i]);
		engine_job j = stage_job(c, l, stages[i], bench);
		if ((s.ids[i] = engine_submit(e, &j, err, sizeof err)) < 0) { rs[i].status = RUN_REFUSED; strfmt(rs[i].message, sizeof rs[i].message, "%s", err); }
	}
	while (engine_busy(e)) engine_poll(e, -1);
	engine_set_listener(e, listener, NULL);
	free(s.ids);
}

static int run_stages(cli *c, engine *e, const lesson *l, const int *which, int n)
{
	const device_info *d = engine_device(e);
	score_metric m = score_metric_of(e, l);
	int *stages = xcalloc((size_t)n, sizeof *stages), bench = n > 1;
	memcpy(stages, which, (size_t)n * sizeof *stages);
	int code = EXIT_OK;
	if (!c->json && refusals_first(c, e, l, stages, &n, &code) && code < EXIT_USAGE) code = EXIT_USAGE;
	run_result *rs = xcalloc((size_t)n + 1, sizeof *rs);
	engine_set_listener(e, listener, NULL);
	if (!c->json && n) report_header(stdout, l, d);
	if (c->eo.ngpus > 1 && n > 1) run_spread(c, e, l, stages, n, bench, rs);
	int answered = 0, unrecorded = 0;
	for (int i = 0; i < n; i++) {
		engine_job j = stage_job(c, l, stages[i], bench);
		run_status st = c->eo.ngpus > 1 && n > 1 ? rs[i].status : engine_run_sync(e, &j, &rs[i]);
		/* A bench replayed from a recording without a stage that was asked for (--stage, or every
		 * stage): that stage is shown as not in the file, and the bench exits 1 if the file answered
		 * any other (3 when it answered none: a recording of something else). The baseline is not
		 * asked for by name: missing, it only goes without its ratio column. */
		int missing = bench && c->eo.replay_path && st == RUN_NO_GPU;
		if (missing && stages[i] >= 0) unrecorded = 1;
		else if (!missing) answered = 1;
		int ce = st == RUN_UNSUPPORTED || missing ? EXIT_OK : st == RUN_REFUSED ? refusal_exit(l, rs[i].message) : cli_status_exit(st);
		if (ce > code) code = ce;
		const run_result *base = NULL;   /* the row's own baseline (or --pair's), when it is in the table */
		for (int k = 0; k < n && n > 1; k++) if (stages[k] < 0 && stages[k] == bench_pair_of(c, l, stages[i])) base = &rs[k];
		if (!c->json) report_row(stdout, l, m, &rs[i], i == 0, base);
		if (!c->json && c->eo.replay_path && !strncmp(rs[i].message, "recorded at ", 12))   /* not what was asked */
			printf("  %s: %s\n", stages[i] >= 0 ? l->stages[stages[i]].id : lesson_baseline_at(l, stages[i])->id, rs[i].message);
	}
	if (unrecorded && !answered && EXIT_NO_GPU > code) code = EXIT_NO_GPU;
	else if (unrecorded && EXIT_FAILED > code) code = EXIT_FAILED;
	json_hotspots = c->hotspots && !bench;
	if (c->json) print_json(l, m, d, stages, rs, n);
	else if (n) {
		report_footer(stdout, l, m, d, rs, n);
		report_claims(stdout, l, stages, rs, n, d);
		if (!bench && n == 1) report_run_texts(stdout, l, stages[0], &rs[0], d, c->eo.replay_path);
		if (c->roofline) print_roofline(c, l, d, stages, rs, n);
		setlocale(LC_CTYPE, "");             /* not LC_ALL: numbers stay in the C locale */
		for (int i = 0; i < n && !bench; i++) report_steps(stdout, &rs[i], d, !c->to.ascii && !strcmp(nl_langinfo(CODESET), "UTF-8"));
		for (int i = 0; i < n && c->hotspots && !bench; i++) report_hotspots_result(stdout, l, stages[i], &rs[i], 0);
	}
	for (int i = 0; i < n; i++) run_result_clear(&rs[i]);
	free(rs);
	free(stages);
	return code;
}

static int cmd_run(cli *c, engine *e)
{
	if (c->nargs < 2) return cli_usage_error("run needs LESSON/STAGE%s", "");
	if (too_many(c, 1, "LESSON/STAGE")) return EXIT_USAGE;
	const lesson *l;
	int stage;
	char spec[192];
	if (c->bench_stages) strfmt(spec, sizeof spec, "%s/%s", c->args[1], c->bench_stages);   /* run LESSON --stage S */
	int r = cli_find_stage(e, c->bench_stages ? spec : c->args[1], &l, &stage);
	if (!r) r = cli_use_case(c, l, stage);
	if (!r && c->hotspots && stage < 0) return cli_usage_error("--hotspots: the baseline is a library call, with no code of ours to sample%s", "");
	char said[300];   /* tune --save's best on this GPU, for what --set leaves */
	if (!r && stage >= 0 && !c->eo.replay_path && cli_tune_saved(e, l, stage, c->sets, &c->nsets, 16, said, sizeof said)) {
		fprintf(stderr, "cudaclimb: tuned on this GPU (");
		fput_clean(stderr, engine_device(e)->name);
		fprintf(stderr, "): %s (cudaclimb tune --save; --set overrides, R in the interface resets)\n", said);
	}
	return r ? r : run_stages(c, e, l, &stage, 1);
}

static int cmd_bench(cli *c, engine *e)
{
	if (c->nargs < 2) return cli_usage_error("bench needs a lesson%s", "");
	const lesson *l;
	if (too_many(c, 1, "LESSON") || cli_find_lesson(e, c->args[1], &l) || cli_use_case(c, l, LESSON_CASE_ALL_STAGES)) return EXIT_USAGE;
	for (int k = 0; k < c->nsets; k++) {
		int known = lesson_find_param(l, c->sets[k].name) != NULL;
		for (int s = 0; s < l->nstages && !known; s++) known = lesson_find_tunable(&l->stages[s], c->sets[k].name) != NULL;
		if (!known) return cli_usage_error("no parameter or tunable '%s' in this lesson", c->sets[k].name);
	}
	/* The baselines first, so that every stage's row can show its ratio to its own: the lesson's, then
	 * the named ones that a stage of the bench names (one no stage names runs as LESSON/baseline.NAME). */
	if (c->bench_pair) {   /* --pair BASELINE: "baseline" or "baseline.NAME" (NAME alone too) */
		char full[LESSON_BASELINE_NAME_MAX + 16];
		strfmt(full, sizeof full, "baseline.%s", c->bench_pair);
		if (!(c->pair_with = lesson_baseline_named(l, c->bench_pair)) && !(c->pair_with = lesson_baseline_named(l, full))) {
			sb b = {0};
			sb_addf(&b, "no baseline '%s' in %s (it has:", c->bench_pair, l->id);
			for (int i = l->baseline ? -1 : 0; i < l->nbaselines; i++)
				sb_addf(&b, "%s%s", i == (l->baseline ? -1 : 0) ? " " : ", ", i < 0 ? "baseline" : l->baselines[i]->id);
			sb_addf(&b, "%s)", l->baseline || l->nbaselines ? "" : " none");
			int r = cli_usage_error("--pair: %s", b.s);
			free(b.s);
			return r;
		}
	}
	int *stages = xcalloc((size_t)l->nstages + 1 + (size_t)l->nbaselines, sizeof *stages), n = 0;
	if (l->baseline) stages[n++] = -1;
	for (int i = 0; i < l->nbaselines; i++) {
		int used = c->pair_with == LESSON_BASELINE(i);
		for (int k = 0; k < l->nstages && !c->bench_stages && !used; k++) used = l->stages[k].baseline == LESSON_BASELINE(i);
		for (const char *p = c->bench_stages; p && *p && !used;) {
			size_t k = strcspn(p, ",");
			char id[64];
			strfmt(id, sizeof id, "%.*s", (int)k, p);
			int s = lesson_stage_index(l, id);
			used = s >= 0 && l->stages[s].baseline == LESSON_BASELINE(i);
			p += k + (p[k] == ',');
		}
		if (used) stages[n++] = LESSON_BASELINE(i);
	}
	int nbase = n;
	if (!c->bench_stages) for (int i = 0; i < l->nstages; i++) stages[n++] = i;
	for (const char *p = c->bench_stages; p && *p;) {   /* --stage a,b: those, in the order given */
		size_t k = strcspn(p, ",");
		char id[64];
		strfmt(id, sizeof id, "%.*s", (int)k, p);
		int s = lesson_stage_index(l, id);
		if (s < 0) { free(stages); return cli_usage_error("--stage: no stage '%s' in this lesson", id); }
		int seen = 0;
		for (int i = 0; i < n; i++) seen |= stages[i] == s;
		if (!seen && n < nbase + l->nstages) stages[n++] = s;
		p += k + (p[k] == ',');
	}
	int r = run_stages(c, e, l, stages, n);
	free(stages);
	return r;
}

/* Whether every --set name is a parameter or a tunable of some lesson in ls; else EXIT_USAGE, said with
 * the nearest name. */
static int check_set_names(const cli *c, const lesson_set *ls)
{
	for (int i = 0; i < c->nsets; i++) {
		const char **names = NULL;
		int n = 0, found = 0;
		for (int a = 0; a < ls->count && !found; a++) {
			const lesson *l = ls->items[a];
			for (int p = 0; p < l->nparams; p++, n++) {
				names = xrealloc(names, (size_t)(n + 1) * sizeof *names);
				names[n] = l->params[p].name;
				found |= !strcmp(names[n], c->sets[i].name);
			}
			for (int k = 0; k < l->nstages; k++)
				for (int t = 0; t < l->stages[k].ntunables; t++, n++) {
					names = xrealloc(names, (size_t)(n + 1) * sizeof *names);
					names[n] = l->stages[k].tunables[t].name;
					found |= !strcmp(names[n], c->sets[i].name);
				}
		}
		char near[160] = "";
		if (!found) util_suggest_name(c->sets[i].name, names, n, near, sizeof near);
		free(names);
		if (!found) {
			char msg[300];
			strfmt(msg, sizeof msg, "--set %s: no lesson here has a parameter or tunable of that name%s", c->sets[i].name, near);
			return cli_usage_error("%s", msg);
		}
	}
	return 0;
}

/* The --set values that apply to stage k of l (its lesson's parameters, the stage's tunables) into j:
 * check compiles each stage with them, and the others as they are. */
static void check_job_sets(const cli *c, const lesson *l, int k, engine_job *j)
{
	for (int i = 0; i < c->nsets && j->nsets < (int)(sizeof j->sets / sizeof j->sets[0]); i++)
		if (lesson_find_param(l, c->sets[i].name) || lesson_find_tunable(&l->stages[k], c->sets[i].name)) j->sets[j->nsets++] = c->sets[i];
}

static int cmd_check(cli *c)
{
	char archs[256], err[512];
	if (too_many(c, 0, NULL)) return EXIT_USAGE;
	strfmt(archs, sizeof archs, "%s", c->archs ? c->archs : "sm_80,sm_90");
	/* Every name first, before anything compiles. */
	engine_opts po = c->eo;
	po.arch = NULL;
	engine *probe = engine_new(&po, err, sizeof err);
	if (!probe) { fprintf(stderr, "cudaclimb: %s\n", err); return EXIT_USAGE; }
	int bad = check_archs(archs, 1);
	if (!bad) bad = check_set_names(c, engine_lessons(probe));
	engine_free(probe);
	if (bad) return bad;
	int code = EXIT_OK, errors_shown = 0;
	check_counts n = { 0 };
	for (char *save, *a = strtok_r(archs, ",", &save); a; a = strtok_r(NULL, ",", &save)) {
		engine_opts eo = c->eo;
		eo.arch = a;
		engine *e = engine_new(&eo, err, sizeof err);
		if (!e) { fprintf(stderr, "cudaclimb: %s\n", err); return EXIT_USAGE; }
		const lesson_set *s = engine_lessons(e);
		if (!errors_shown) { print_load_errors(e); errors_shown = 1; if (s->nerrors) code = EXIT_LESSONS; n.load_errors = s->nerrors; }
		if (!arch_find(a)) printf("%-7s (no limits table): NVRTC compiles for it; assets/arch.yaml has no entry, so no occupancy is shown\n", a);
		int idw = 12, stw = 14;                /* columns as wide as the longest names */
		for (int i = 0; i < s->count; i++) {
			const lesson *l = s->items[i];
			if ((int)strlen(l->id) > idw) idw = (int)strlen(l->id);
			for (int k = 0; k < l->nstages; k++) {
				int w = (int)strlen(l->stages[k].id) + (l->stages[k].exercise ? 8 : 0);   /* "/starter" */
				if (w > stw) stw = w;
			}
		}
		for (int i = 0; i < s->count; i++) {
			const lesson *l = s->items[i];
			for (int k = 0; k < l->nstages; k++) {
				/* The stage's kernel, then its exercise's starter (which must compile and keep the
				 * stage's kernel names and parameters). */
				const lesson_exercise *x = l->stages[k].exercise;
				for (int starter = 0; starter <= (x != NULL); starter++) {
					engine_job j = { .lesson = l, .stage = k, .compile_only = 1 };
					check_job_sets(c, l, k, &j);
					char *text = starter ? file_read(x->start_path, NULL) : NULL;
					j.kernel_text = text;
					j.kernel_name = starter ? x->start_path : NULL;
					run_result r;
					run_status st = starter && !text ? RUN_COMPILE_ERROR : engine_run_sync(e, &j, &r);
					if (starter && !text) { run_result_init(&r); r.status = st; strfmt(r.message, sizeof r.message, "cannot read %s", x->start_path); }
					if (starter) strfmt(r.stage, sizeof r.stage, "%s/starter", l->stages[k].id);
					/* A kernel that compiles but does not fit the lesson (its name, its parameters,
					 * a constant) is the lesson's error, not the compiler's: exit 4. */
					int lesson_err = st == RUN_COMPILE_ERROR && report_check_lesson_error(&r);
					report_check_row(stdout, a, l, &r, idw, stw);
					n.rows++;
					if (st == RUN_OK) n.ok++;
					else if (st == RUN_UNSUPPORTED) n.unsupported++;
					else if (lesson_err) n.lesson_errors++;
					else n.failed++;
					int ce = st == RUN_OK || st == RUN_UNSUPPORTED ? EXIT_OK : lesson_err ? EXIT_LESSONS : EXIT_FAILED;
					if (ce > code) code = ce;
					run_result_clear(&r);
					free(text);
				}
			}
		}
		engine_free(e);
	}
	report_check_summary(stdout, c->archs ? c->archs : "sm_80,sm_90", &n);
	return code;
}

static int cmd_device(cli *c, engine *e)
{
	if (too_many(c, 0, NULL)) return EXIT_USAGE;
	const device_info *d = engine_device(e);
	int failed = engine_runner_failed(e);
	const char *status = d->present ? "ok" : run_status_name(failed ? RUN_RUNNER_ERROR : RUN_NO_GPU);
	if (c->json) {   /* {"schema": 1, "status": "ok", "present": ..., ...}: the device's fields */
		printf("{\"schema\": %d, \"status\": \"%s\", ", JSON_SCHEMA, status);
		json_members(stdout, device_info_fields, device_info_nfields, d);
		printf("}\n");
	} else if (!d->present) {   /* stdout is for results: why there are none goes to stderr */
		if (failed) fprintf(stderr, "%s: ", status);
		report_device(stderr, d);
	} else {
		report_device(stdout, d);
		char where[300];
		engine_runner_describe(e, where, sizeof where);
		if (d->present && strcmp(where, "local")) { fputs("worker: ", stdout); fput_clean(stdout, where); putchar('\n'); }
	}
	return d->present ? EXIT_OK : failed ? EXIT_RUNNER : EXIT_NO_GPU;
}

int cli_main(int argc, char **argv)
{
	cli c = {0};
	if (argc > 1 && !strcmp(argv[1], "cache")) return cmd_cache(argc - 1, argv + 1);   /* no lessons, no GPU */
	if (argc > 1 && !strcmp(argv[1], "serve")) return cmd_serve(argc - 1, argv + 1);   /* the lab service: its own options */
	if (argc > 1 && !strcmp(argv[1], "__judge")) return cmd_judge(argc - 1, argv + 1); /* the service's judge, in its account */
	int r = parse(&c, argc, argv);
	if (r) return r;
	const char *cmd = c.nargs ? c.args[0] : NULL;
	if (cmd && !strcmp(cmd, "check")) return cmd_check(&c);
	if (cmd && !strcmp(cmd, "queue")) return cmd_queue(&c);
	static const struct { const char *name; int (*fn)(cli *c, engine *e); } cmds[] = {
		{ "list", cmd_list }, { "show", cmd_show }, { "run", cmd_run }, { "bench", cmd_bench }, { "device", cmd_device },
		{ "exercises", cmd_exercises }, { "try", cmd_try }, { "watch", cmd_watch }, { "hint", cmd_hint }, { "reset", cmd_reset },
		{ "solution", cmd_solution }, { "course", cmd_course }, { "report", cmd_report }, { "profile", cmd_profile },
		{ "tune", cmd_tune },
	};
	int (*fn)(cli *c, engine *e) = NULL;
	for (size_t i = 0; cmd && i < sizeof cmds / sizeof cmds[0] && !fn; i++) if (!strcmp(cmd, cmds[i].name)) fn = cmds[i].fn;
	if (cmd && !fn) {
		char near[160], msg[300];
		suggest(cmd, command_names, NCOMMANDS, near, sizeof near);
		strfmt(msg, sizeof msg, "unknown command '%s'%s", cmd, near);
		return cli_usage_error("%s", msg);
	}
	if (c.case_name && (!cmd || (strcmp(cmd, "run") && strcmp(cmd, "bench") && strcmp(cmd, "try") && strcmp(cmd, "watch") && strcmp(cmd, "show"))))
		return cli_usage_error("--case is for run, bench, try, watch and show (in the terminal interface C switches the case)%s", "");
	if (c.libraries && (!cmd || strcmp(cmd, "show"))) return cli_usage_error("--libraries is for show (cudaclimb show --libraries)%s", "");
	if (c.hotspots && (!cmd || strcmp(cmd, "run"))) return cli_usage_error("--hotspots is for run LESSON/STAGE, one stage at a time%s", "");
	if (c.bench_pair && (!cmd || strcmp(cmd, "bench")))
		return cli_usage_error("--pair is bench's: it times every stage of a bench beside that baseline (%s)", "cudaclimb bench LESSON --pair BASELINE");
	if (c.bench_pair && c.eo.replay_path)   /* a recording's pairs are the ones it was made with */
		return cli_usage_error("--pair times new pairs: a recording (--replay) has the pairs it was made with%s", "");
	int tuning = cmd && !strcmp(cmd, "tune");
	if ((c.tune_over || c.tune_budget > 0 || c.tune_strategy || c.tune_plan || c.tune_save) && !tuning)
		return cli_usage_error("--over, --budget, --strategy, --plan and --save are for tune LESSON/STAGE%s", "");
	if (tuning && c.tune_budget <= 0) c.tune_budget = 120;
	if (tuning) {   /* settings compile beside the runs, one per core */
		long cores = sysconf(_SC_NPROCESSORS_ONLN);
		c.eo.compilers = cores < 1 ? 1 : cores > 56 ? 56 : (int)cores;
		/* the search's jobs ask for no counters; the best and the defaults run with them once at
		 * the end unless --no-counters */
	}
	if ((c.profile_tool || c.profile_exec) && (!cmd || strcmp(cmd, "profile")))
		return cli_usage_error("--ncu, --nsys and --exec are for profile LESSON/STAGE%s", "");
	/* The interface draws on a terminal and reads keys from one: without both it would draw into a
	 * pipe and spin on an input that is always readable. --frames draws a fixed tour anywhere. */
	if (!cmd && !c.to.frames && (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO))) {
		fprintf(stderr, "cudaclimb: the terminal interface needs a terminal on %s; for scripts use the "
		        "commands (cudaclimb --help), or --frames N to draw N frames\n",
		        !isatty(STDIN_FILENO) ? "its input" : "its output");
		return EXIT_USAGE;
	}
	char err[1024];
	c.eo.quiet = !cmd;
	if (!cmd) c.eo.time_budget_ms = 100;   /* the terminal interface: what-if changes must feel instant */
	if (cmd && !strcmp(cmd, "watch") && !c.eo.reps) c.eo.time_budget_ms = 100;   /* a verdict soon after each save */
	engine *e = engine_new(&c.eo, err, sizeof err);
	if (!e && strstr(err, "course.yaml:")) { fprintf(stderr, "%s\n", err); return EXIT_LESSONS; }   /* file:line:col, as a lesson's */
	if (!e) { fprintf(stderr, "cudaclimb: %s\n", err); return EXIT_USAGE; }
	if (cmd) {   /* a tree's lesson that replaced a shipped one: said, never silently the one run */
		const lesson_set *ls = engine_lessons(e);
		for (int i = 0; i < ls->nnotes; i++) { fputs("cudaclimb: note: ", stderr); fput_clean(stderr, ls->notes[i]); fputc('\n', stderr); }
	}
	c.to.work = c.work; c.to.replay = c.eo.replay_path;
	if (cmd) join_stage_operands(&c, e);
	r = check_archs(c.eo.arch, 0);
	if (!r) r = cmd ? fn(&c, e) : tui_run(e, &c.to);
	engine_free(e);
	free(c.own_args);
	return r;
}
