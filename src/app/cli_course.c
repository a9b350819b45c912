/* cli_course: the instructor's commands: course init (the results folder for a class) and report
 * (the class table in the terminal, as CSV, JSON or an HTML page; with --verify, every claimed pass
 * judged again on this machine's GPU, in the instructor's account, from the source in its record). */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "class_report.h"
#include "compile.h"
#include "cli.h"
#include "cli_cmd.h"
#include "course.h"
#include "exercise.h"
#include "results.h"
#include "util.h"
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

/* A course id from the folder's name: its letters and digits in lower case, others as '_' ("my_course"
 * when nothing is left). */
static void course_id_of(const char *dir, char *out, size_t n)
{
	const char *end = dir + strlen(dir);
	while (end > dir && end[-1] == '/') end--;
	const char *base = end;
	while (base > dir && base[-1] != '/') base--;
	size_t k = 0;
	for (const char *p = base; p < end && k + 1 < n; p++) {
		unsigned char ch = (unsigned char)*p;
		out[k++] = ch >= 'A' && ch <= 'Z' ? (char)(ch + 32) : (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') ? (char)ch : '_';
	}
	out[k] = 0;
	if (!k || (out[0] >= '0' && out[0] <= '9')) strfmt(out, n, "my_course");
}

/* 0 when no user but root and this one can swap dir (relative to the working folder) or a folder
 * above it; -1 after saying why. A course folder another user owns or may write lets them put a
 * course file of their own in place of the instructor's, or the results folder. */
static int course_dir_mine(const char *dir)
{
	char why[512];
	int rc = dir_trusted(dir, why, sizeof why);
	if (rc) {
		fputs("cudaclimb: not a course folder of yours: ", stderr);
		fput_clean(stderr, why);
		fputs(" (make the course folder in a folder only you and root can write)\n", stderr);
	}
	return rc;
}

/* course init DIR on a folder without course.yaml: a commented course.yaml to start from (two of the
 * lessons' exercises, bars and deadlines commented out, the results folder, the runner commented),
 * created with O_EXCL (never over a file), readable by the class. EXIT_OK, or EXIT_FAILED with why. */
static int course_scaffold(engine *e, const char *dir)
{
	const lesson_set *ls = engine_lessons(e);
	char ex[2][160] = { "", "" }, id[64];
	int nex = 0;
	for (int i = 0; i < ls->count && nex < 2; i++)
		for (int k = 0; k < ls->items[i]->nstages && nex < 2; k++)
			if (ls->items[i]->stages[k].exercise) strfmt(ex[nex++], sizeof ex[0], "%s/%s", ls->items[i]->id, ls->items[i]->stages[k].id);
	if (!nex) { fprintf(stderr, "cudaclimb: no lesson has an exercise to assign (cudaclimb exercises lists them)\n"); return EXIT_FAILED; }
	course_id_of(dir, id, sizeof id);
	if (mkdir(dir, 0755) && errno != EEXIST) { fprintf(stderr, "cudaclimb: cannot make %s: %s\n", dir, strerror(errno)); return EXIT_FAILED; }
	if (course_dir_mine(dir)) return EXIT_FAILED;
	char *path = xasprintf("%s/course.yaml", dir);
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);   /* the class reads it */
	if (fd < 0) { fprintf(stderr, "cudaclimb: cannot create %s: %s\n", path, strerror(errno)); free(path); return EXIT_FAILED; }
	FILE *f = fdopen(fd, "w");
	if (!f) { close(fd); free(path); return EXIT_FAILED; }
	fprintf(f,
	        "# A course: the exercises you assign, in order, with their bars and deadlines, and where the\n"
	        "# class's results go. Edit it, then run `cudaclimb course init` on this folder again to check it\n"
	        "# and set up the results folder. `cudaclimb exercises` lists every exercise there is.\n"
	        "course: %-35s # an identifier: a-z, 0-9, _\n"
	        "title: \"My course\"                          # shown to students\n"
	        "exercises:                                  # assigned, in this order\n", id);
	fprintf(f, "  - %-39s # the lesson's own bar\n", ex[0]);
	if (nex > 1) fprintf(f, "  - %-39s # or: { exercise: %s, pass: 0.95 }\n", ex[1], ex[1]);
	fprintf(f,
	        "#  - { exercise: LESSON/STAGE, pass: 0.95, due: \"2030-12-15 23:59\" }   # this course's bar, a deadline\n"
	        "# lessons: [LESSON, ...]                    # the lessons shown (default: the exercises')\n"
	        "results: results                            # the class's records, relative to this folder\n"
	        "share: false                                # students cannot read each other's records\n"
	        "# verify: true                              # report judges every claimed pass again (as --verify)\n"
	        "# runner: ssh                               # where the GPU work runs: local (default), ssh or slurm\n"
	        "# ssh: { host: gpu1, worker: /opt/cudaclimb/bin/cudaclimb }\n"
	        "# slurm: { partition: gpu, gres: \"gpu:1\", time: \"00:10:00\" }\n");
	int bad = ferror(f);
	if (fclose(f) || bad) { fprintf(stderr, "cudaclimb: cannot write %s\n", path); unlink(path); free(path); return EXIT_FAILED; }
	fputs("wrote ", stdout);
	fput_clean(stdout, path);
	printf(": a course of %d exercise%s (%s%s%s) to start from.\nnext: edit it (title, exercises, bars, deadlines), then run\n"
	       "  cudaclimb course init ", nex, nex > 1 ? "s" : "", ex[0], nex > 1 ? ", " : "", ex[1]);
	fput_clean(stdout, dir);
	printf(" [--group STAFF]\nto check it and set up its results folder for the class.\n");
	free(path);
	return EXIT_OK;
}

/* course init DIR [--group NAME]: a new folder (no course.yaml) gets a commented course.yaml to start
 * from; a course file is checked against the lessons (every error at once) and its results folder set
 * up. */
static int course_init(cli *c, engine *e)
{
	if (c->nargs != 3) return cli_usage_error("course init takes the course folder: cudaclimb course init DIR [--group NAME]%s", "");
	char err[1024];
	if (dir_exists(c->args[2]) && course_dir_mine(c->args[2])) return EXIT_FAILED;
	char *file = xasprintf("%s/course.yaml", c->args[2]);
	struct stat st;
	int missing = lstat(file, &st) != 0 && errno == ENOENT;
	free(file);
	if (missing) return course_scaffold(e, c->args[2]);
	yd_errors all = {0};   /* every error of the file and against the lessons, in one run */
	course *co = course_load_all(c->args[2], &all);
	if (co) course_check_all(co, engine_lessons(e), &all);
	if (all.n || !co) {
		yd_errors_sort(&all);
		for (int i = 0; i < all.n; i++) { fput_clean(stderr, all.v[i].text); fputc('\n', stderr); }
		int n = all.n + all.dropped;
		if (all.dropped) fprintf(stderr, "cudaclimb: and %d more\n", all.dropped);
		fprintf(stderr, "cudaclimb: %d error%s in ", n, n > 1 ? "s" : "");
		char *path = xasprintf("%s/course.yaml", c->args[2]);
		fput_clean(stderr, path);
		fputs(": nothing set up\n", stderr);
		free(path);
		yd_errors_free(&all);
		course_free(co);
		return EXIT_LESSONS;
	}
	yd_errors_free(&all);
	int code = EXIT_OK;
	if (results_init(co, c->group, err, sizeof err)) {
		fprintf(stderr, "cudaclimb: %s\n", err);
		code = EXIT_FAILED;
	} else {
		printf("%s: %d exercises assigned; results go to %s\n", co->id, co->nitems, co->results);
		printf("  the folder is set so that students add their own records and cannot list, read or remove others'%s\n",
		       co->share ? " (share: true: they may read them)" : "");
		printf("students start with:   cudaclimb --course %s        (or CUDACLIMB_COURSE=%s)\n", co->dir, co->dir);
		printf("the class's results:   cudaclimb report %s [--csv [FILE] | --json [FILE] | --html FILE]\n", co->dir);
	}
	course_free(co);
	return code;
}

int cmd_course(cli *c, engine *e)
{
	if (c->nargs >= 2 && !strcmp(c->args[1], "init")) return course_init(c, e);
	return cli_usage_error("course takes a subcommand: cudaclimb course init DIR [--group NAME]%s", "");
}

/* ---- report --verify ---- */

typedef struct { ex_try *t; } verify_ctx;

static void verify_listener(void *ctx, int id, job_phase ph, const char *note, const run_result *r)
{
	verify_ctx *vc = ctx;
	if (vc->t) ex_try_event(vc->t, id, ph, note, r);
}

/* Writes len bytes of data to a new file path (O_EXCL|O_NOFOLLOW, 0600); 0 or -1. */
static int write_new(const char *path, const char *data, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0) return -1;
	for (size_t off = 0; off < len;) {
		ssize_t w = write(fd, data + off, len - off);
		if (w < 0 && errno == EINTR) continue;
		if (w <= 0) { close(fd); return -1; }
		off += (size_t)w;
	}
	return close(fd);
}

/* A source judged again, as try judges a file (the same checks and timing), in tmp (a private folder);
 * nothing recorded. exercise: lesson/stage; sha256: the source's, hex (the file's name). RESULT_VERIFIED
 * when it is correct at the lesson's size with a ratio at the course's bar, less VERIFY_SLACK;
 * RESULT_UNVERIFIED when it could not be judged here (why says so). */
#define VERIFY_SLACK 0.9   /* a correct re-run within 10% under the bar still verifies the pass */
/* Stops at deadline (now_ms() time): a judgement not done by then is RESULT_UNVERIFIED, *late set. */
static result_check rejudge(engine *e, const course *co, const char *tmp, const char *exercise, const char *sha256, const char *source,
                            size_t source_len, double deadline, int *late, double *measured, char *why, size_t n)
{
	const course_item *it = NULL;
	*measured = 0;
	for (int i = 0; i < co->nitems && !it; i++) {
		char name[160];
		strfmt(name, sizeof name, "%s/%s", co->items[i].lesson, co->items[i].stage);
		if (!strcmp(name, exercise)) it = &co->items[i];
	}
	const lesson *l = it ? lesson_set_find(engine_lessons(e), it->lesson) : NULL;
	int s = l ? lesson_stage_index(l, it->stage) : -1;
	if (s < 0 || !l->stages[s].exercise) { strfmt(why, n, "no such exercise in these lessons"); return RESULT_UNVERIFIED; }
	char *path = xasprintf("%s/%s.cu", tmp, sha256), err[512];
	if (write_new(path, source, source_len)) {
		strfmt(why, n, "cannot write %s: %s", path, strerror(errno));
		free(path);
		return RESULT_UNVERIFIED;
	}
	ex_try_opts o = { .file = path, .no_sanitizer = 1 };   /* the verdict only: no counters, no sanitizer */
	verify_ctx vc = { NULL };
	engine_set_listener(e, verify_listener, &vc);
	ex_try *t = ex_try_start(e, l, s, &o, err, sizeof err);
	result_check res = RESULT_UNVERIFIED;
	if (!t) {
		strfmt(why, n, "%s", err);
	} else {
		vc.t = t;
		while (ex_try_state(t) < 2 && now_ms() < deadline) engine_poll(e, (int)(deadline - now_ms()) + 1);
		const ex_verdict *v = ex_try_verdict(t);
		double bar = it->pass > 0 ? it->pass : l->stages[s].exercise->pass;
		int correct = v->kind == EXV_PASSED || v->kind == EXV_SLOW;
		if (ex_try_state(t) < 2) { *late = 1; strfmt(why, n, "not judged: the --verify time budget ran out while judging it"); }
		else if (v->kind == EXV_NO_GPU) strfmt(why, n, "no GPU to judge it on");
		else if (v->kind == EXV_REFUSED || v->kind == EXV_CRASH)   /* this box could not judge it: says nothing of the kernel */
			strfmt(why, n, "not judged here: %s: %s", ex_kind_name(v->kind), v->headline);
		else {
			/* A wrong kernel is refuted outright; a correct one only when it misses the bar by more than
			 * the run-to-run spread of a timing on a shared box (VERIFY_SLACK), so an honest pass at the
			 * bar is not called a forgery because the instructor's run was a little slower. */
			res = correct && v->at_lesson_size && v->ratio >= bar * VERIFY_SLACK ? RESULT_VERIFIED : RESULT_REFUTED;
			*measured = correct && v->at_lesson_size ? v->ratio : 0;   /* this run's own ratio, not the record's word */
			strfmt(why, n, "judged again: %s, %.2fx (the bar %.2fx, %.2fx with the timing slack)", ex_kind_name(v->kind), v->ratio,
			       bar, bar * VERIFY_SLACK);
		}
		ex_try_free(t);
	}
	engine_set_listener(e, NULL, NULL);
	unlink(path);
	free(path);
	return res;
}

/* The time --verify may take in all, in seconds: $CUDACLIMB_VERIFY_BUDGET when it is a positive
 * number, else 600. */
static double verify_budget_s(void)
{
	const char *v = getenv("CUDACLIMB_VERIFY_BUDGET");
	char *end;
	double s = v && *v ? strtod(v, &end) : 0;
	return v && *v && !*end && s > 0 && s < 1e7 ? s : 600;
}

/* ---- the claims --verify judges, folded as read ----
 * A claimed pass waits in memory until it has been judged, but not one per record: the claims of one
 * student and exercise with the same source are judged alike, so they are folded into one as they are
 * read (class_fold: how many, the first and last times, ...), keeping the source once. Claims that need
 * no judging fold by how they stand: no source, a source too large, a source that is not the one its
 * SHA-256 names. An account's 640 000 copies of one claim cost one; the memory grows with the distinct
 * sources (each kept once, as --verify judges it), never with the records. */

/* How a claim carries its source; all but CLAIM_SOURCE are decided without judging. */
typedef enum { CLAIM_SOURCE, CLAIM_NO_SOURCE, CLAIM_TOO_LARGE, CLAIM_MISMATCH } claim_how;

/* A student and exercise with claims, and its exercise's place in the course. */
typedef struct { unsigned uid; int item; char user[64], exercise[160]; } claim_cell;

/* The claims of one student and exercise with the same source (or standing alike without one). */
typedef struct {
	int cell;                  /* claims.cells */
	claim_how how;
	char sha256[65];           /* CLAIM_SOURCE: the source's, hex; else "" */
	char *source;              /* CLAIM_SOURCE: the source (owned), else NULL */
	size_t source_len;
	class_fold fold;           /* every record of them */
	result_check check;        /* set by verify; RESULT_UNVERIFIED until then */
	double measured;           /* set by verify: the ratio its own run measured */
} verify_claim;

/* Every claimed pass --verify judges, folded. */
typedef struct {
	const course *co;
	claim_cell *cells;
	int ncells, hint;          /* hint: the cell last looked up (a file is one student's) */
	verify_claim *claims;
	int n, cap;
	int *index;                /* open addressing by cell, how and SHA-256: a claim + 1, 0 empty */
	size_t nindex;             /* a power of two, at least twice n */
	int records;               /* the claimed passes folded in */
} verify_claims;

/* The exercise's place among the course's items, or co->nitems when it is not one of them. */
static int course_item_of(const course *co, const char *exercise)
{
	for (int i = 0; i < co->nitems; i++) {
		char name[160];
		strfmt(name, sizeof name, "%s/%s", co->items[i].lesson, co->items[i].stage);
		if (!strcmp(name, exercise)) return i;
	}
	return co->nitems;
}

/* The cell of r's student and exercise, a new one when it is the first of them. */
static int claims_cell(verify_claims *v, const result_record *r)
{
	for (int k = -1; k < v->ncells; k++) {
		int i = k < 0 ? v->hint : k;
		if (i < v->ncells && v->cells[i].uid == r->uid && !strcmp(v->cells[i].exercise, r->exercise)) return v->hint = i;
	}
	v->cells = xrealloc(v->cells, (size_t)(v->ncells + 1) * sizeof *v->cells);
	claim_cell *c = &v->cells[v->ncells];
	c->uid = r->uid;
	c->item = course_item_of(v->co, r->exercise);
	strfmt(c->user, sizeof c->user, "%s", r->user);
	strfmt(c->exercise, sizeof c->exercise, "%s", r->exercise);
	return v->hint = v->ncells++;
}

static uint64_t claim_hash(int cell, claim_how how, const char *sha256)
{
	uint64_t h = fnv1a(FNV_OFFSET, &cell, sizeof cell);
	h = fnv1a(h, &how, sizeof how);
	return fnv1a(h, sha256, strlen(sha256));
}

/* The index's slot of the claim of cell, how and sha256: the claim's (claim + 1) or an empty one (0). */
static size_t claims_slot(const verify_claims *v, int cell, claim_how how, const char *sha256)
{
	size_t i = (size_t)claim_hash(cell, how, sha256) & (v->nindex - 1);
	for (;; i = (i + 1) & (v->nindex - 1)) {
		const verify_claim *q = v->index[i] ? &v->claims[v->index[i] - 1] : NULL;
		if (!q || (q->cell == cell && q->how == how && !strcmp(q->sha256, sha256))) return i;
	}
}

/* One claimed pass (passed, a student's record) folded into v; its source taken when it is the first
 * of its kind (r->source set to NULL). */
static void claims_add(verify_claims *v, result_record *r)
{
	int m = r->source_too_large ? 0 : results_source_matches(r);
	claim_how how = r->source_too_large ? CLAIM_TOO_LARGE : m > 0 ? CLAIM_SOURCE : m < 0 ? CLAIM_MISMATCH : CLAIM_NO_SOURCE;
	const char *sha = how == CLAIM_SOURCE ? r->sha256 : "";
	int cell = claims_cell(v, r);
	v->records++;
	if (2 * (size_t)(v->n + 1) > v->nindex) {   /* grown: every claim placed again */
		free(v->index);
		v->nindex = v->nindex ? 2 * v->nindex : 64;
		v->index = xcalloc(v->nindex, sizeof *v->index);
		for (int k = 0; k < v->n; k++) v->index[claims_slot(v, v->claims[k].cell, v->claims[k].how, v->claims[k].sha256)] = k + 1;
	}
	size_t slot = claims_slot(v, cell, how, sha);
	if (!v->index[slot]) {
		if (v->n == v->cap) v->claims = xrealloc(v->claims, (size_t)(v->cap = v->cap ? 2 * v->cap : 16) * sizeof *v->claims);
		verify_claim *q = &v->claims[v->n];
		memset(q, 0, sizeof *q);
		q->cell = cell;
		q->how = how;
		strfmt(q->sha256, sizeof q->sha256, "%s", sha);
		if (how == CLAIM_SOURCE) { q->source = r->source; q->source_len = r->source_len; r->source = NULL; }
		v->index[slot] = ++v->n;
	}
	class_fold_add(v->co, &v->claims[v->index[slot] - 1].fold, r);
}

/* Adds v's claims, with their checks, to t. */
static void claims_to_table(const verify_claims *v, class_table *t)
{
	for (int k = 0; k < v->n; k++) {
		const verify_claim *q = &v->claims[k];
		const claim_cell *c = &v->cells[q->cell];
		result_record r;
		memset(&r, 0, sizeof r);
		r.uid = c->uid;
		strfmt(r.user, sizeof r.user, "%s", c->user);
		strfmt(r.exercise, sizeof r.exercise, "%s", c->exercise);
		r.passed = 1;
		r.check = q->check;
		r.measured = q->measured;
		class_table_add_fold(t, &r, &q->fold);
	}
}

static void claims_free(verify_claims *v)
{
	for (int k = 0; k < v->n; k++) free(v->claims[k].source);
	free(v->claims);
	free(v->cells);
	free(v->index);
	memset(v, 0, sizeof *v);
}

/* ---- the order --verify judges in ----
 * One student must not be able to spend the whole budget before another's passes are looked at (say,
 * with thousands of claims, each a copy of a kernel with a different comment, in files read first).
 * So the claims are judged in turns, one student after another in uid order, each turn judging one
 * source of that student's: the first turn the earliest pass of their first exercise, the next the
 * earliest of their second, and so on round their exercises, then the next pass of each exercise not
 * yet verified. An exercise with a pass verified needs no more of its passes judged: one verified
 * pass decides the cell. The order depends on the records alone, never on the folder's. */

/* A claim in the order --verify takes them, with its cell. */
typedef struct { verify_claim *q; const claim_cell *c; } verify_place;

/* Claims by student (uid), exercise (the course's order), then time: the earliest pass, the one that
 * decides when the exercise was passed, first. Ties by SHA-256, source and how it stands, so that equal
 * keys mean equal outcomes. */
static int claim_cmp(const void *pa, const void *pb)
{
	const verify_place *pla = pa, *plb = pb;
	const verify_claim *a = pla->q, *b = plb->q;
	const claim_cell *ca = pla->c, *cb = plb->c;
	if (ca->uid != cb->uid) return ca->uid < cb->uid ? -1 : 1;
	if (ca->item != cb->item) return ca->item < cb->item ? -1 : 1;
	int c = strcmp(ca->exercise, cb->exercise);
	if (c) return c;
	if (a->fold.first != b->fold.first) return a->fold.first < b->fold.first ? -1 : 1;
	if ((c = strcmp(a->sha256, b->sha256))) return c;
	if (a->source_len != b->source_len) return a->source_len < b->source_len ? -1 : 1;
	if (a->source && b->source && (c = memcmp(a->source, b->source, a->source_len))) return c;
	return (int)a->how - (int)b->how;
}

/* A source judged: identical sources (the same exercise and SHA-256) are judged once. */
typedef struct { const char *exercise, *sha256; result_check check; int late; double measured; } verify_seen;

/* The judgement of the claim at p when its source was judged already, else NULL. */
static const verify_seen *seen_find(const verify_seen *done, int judged, const verify_place *p)
{
	for (int k = 0; k < judged; k++)
		if (!strcmp(done[k].sha256, p->q->sha256) && !strcmp(done[k].exercise, p->c->exercise)) return &done[k];
	return NULL;
}

/* The line on stderr for a claimed pass not verified, with why, times times (a claim decided without
 * judging says it for each of its records; a judged source once, as its copies take its check). */
static void say_check(const verify_place *p, const char *why, int times)
{
	const verify_claim *q = p->q;
	const claim_cell *c = p->c;
	if (q->check == RESULT_VERIFIED || !why[0]) return;
	for (int i = 0; i < times; i++) {
		fprintf(stderr, "cudaclimb: %s: ", results_check_name(q->check));
		fput_clean(stderr, c->user);
		fprintf(stderr, " (uid %u), %s: ", c->uid, c->exercise);
		fput_clean(stderr, why);
		fputc('\n', stderr);
	}
}

/* The claims of one student and exercise, [first, end) of the sorted claims; next: the first not yet
 * looked at; settled: one of them is verified. */
typedef struct { int first, end, next, settled; } verify_cell;
/* The cells of one student, [first, end); turn: the cell their next turn starts at. */
typedef struct { int first, end, turn; } verify_student;

/* What verify's turns share. */
typedef struct {
	engine *e;
	const course *co;
	const char *tmp;                /* the private folder the sources are written to */
	verify_place *order;            /* the claims in the order above */
	unsigned char *decided;         /* per place in order: its check is set */
	verify_cell *cells;
	verify_seen *done;
	int judged;                     /* sources judged (done's length) */
	double deadline;                /* now_ms() time the budget ends */
	int out_of_time;                /* a judgement was cut short by the deadline */
} verify_run;

/* One turn of student s: their cells from s->turn on, round, until one source is judged (a claim whose
 * source was judged already costs nothing: it takes that check on the way). 1 when a source was
 * judged, 0 when the student has nothing left to judge or the budget is spent. */
static int verify_turn(verify_run *v, verify_student *s)
{
	int ncells = s->end - s->first;
	for (int step = 0; step < ncells; step++) {
		int ci = s->first + (s->turn - s->first + step) % ncells;
		verify_cell *cell = &v->cells[ci];
		for (; !cell->settled && cell->next < cell->end; cell->next++) {
			int k = cell->next;
			const verify_place *p = &v->order[k];
			verify_claim *q = p->q;
			if (v->decided[k]) continue;   /* no source, or not the one its SHA-256 names: set already */
			const verify_seen *same = seen_find(v->done, v->judged, p);
			if (same && same->late) continue;   /* left for the sweep at the end, which counts it */
			if (same) {
				q->check = same->check;
				q->measured = same->measured;
				v->decided[k] = 1;
				cell->settled = q->check == RESULT_VERIFIED;
				continue;
			}
			if (now_ms() >= v->deadline) return 0;
			char why[256] = "";
			int late = 0;
			const char *exercise = p->c->exercise;
			q->check = rejudge(v->e, v->co, v->tmp, exercise, q->sha256, q->source, q->source_len, v->deadline, &late, &q->measured,
			                   why, sizeof why);
			v->decided[k] = !late;
			v->out_of_time |= late;
			v->done = xrealloc(v->done, (size_t)(v->judged + 1) * sizeof *v->done);
			v->done[v->judged++] = (verify_seen){ exercise, q->sha256, q->check, late, q->measured };
			say_check(p, why, 1);
			cell->settled = q->check == RESULT_VERIFIED;
			cell->next++;
			s->turn = s->first + (ci - s->first + 1) % ncells;   /* the next turn starts at the next exercise */
			return 1;
		}
	}
	return 0;
}

/* Sets the check of every claimed pass in all: judged again once per exercise and source, the
 * students in turn (above), within the time budget (verify_budget_s: a pass not judged by then is
 * unverified, and stderr says how many). Returns 0, or EXIT_NO_GPU when there is no GPU here (every
 * pass unverified, one line said). */
static int verify(engine *e, const course *co, verify_claims *all)
{
	int claims = all->records, nc = all->n;
	if (!claims) return 0;
	const device_info *d = engine_device(e);
	if (!d->present) {
		fputs("cudaclimb: --verify cannot judge passes again here: ", stderr);
		fput_clean(stderr, d->why[0] ? d->why : "no GPU");
		fputs("; every pass is marked unverified\n", stderr);
		return EXIT_NO_GPU;
	}
	const char *base = getenv("TMPDIR");
	char *tmp = xasprintf("%s/cudaclimb-verify.XXXXXX", base && *base ? base : "/tmp");
	if (!mkdtemp(tmp)) {   /* mode 0700: the sources stay the instructor's */
		fprintf(stderr, "cudaclimb: --verify: cannot make a private folder in %s: %s\n", base && *base ? base : "/tmp", strerror(errno));
		free(tmp);
		return EXIT_FAILED;
	}
	double budget = verify_budget_s();
	/* a claimed source may be a few KiB of macros that keep NVRTC busy for minutes: each compile gets
	 * 30 s (the service's judge's limit) unless CUDACLIMB_COMPILE_S says otherwise */
	if (!compile_limit_env_s()) setenv("CUDACLIMB_COMPILE_S", "30", 1);
	verify_run v = { .e = e, .co = co, .tmp = tmp, .deadline = now_ms() + 1000 * budget };
	v.order = xcalloc((size_t)nc, sizeof *v.order);
	v.decided = xcalloc((size_t)nc, 1);
	for (int k = 0; k < nc; k++) v.order[k] = (verify_place){ &all->claims[k], &all->cells[all->claims[k].cell] };
	qsort(v.order, (size_t)nc, sizeof *v.order, claim_cmp);
	/* what needs no judging is set first: no source, or a source that is not the one its SHA-256 names */
	for (int k = 0; k < nc; k++) {
		verify_claim *q = v.order[k].q;
		char why[256] = "";
		if (q->how == CLAIM_TOO_LARGE) { q->check = RESULT_UNVERIFIED; strfmt(why, sizeof why, "its source was too large to record"); }
		else if (q->how == CLAIM_NO_SOURCE) { q->check = RESULT_UNVERIFIED; strfmt(why, sizeof why, "no source in the record"); }
		else if (q->how == CLAIM_MISMATCH) { q->check = RESULT_REFUTED; strfmt(why, sizeof why, "the source is not the one its SHA-256 names"); }
		else continue;
		v.decided[k] = 1;
		say_check(&v.order[k], why, q->fold.n);
	}
	/* the cells (a student and an exercise) and the students, runs of the sorted claims */
	int ncells = 0, nstudents = 0;
	v.cells = xcalloc((size_t)nc, sizeof *v.cells);
	verify_student *students = xcalloc((size_t)nc, sizeof *students);
	for (int k = 0; k < nc; k++) {
		const claim_cell *q = v.order[k].c, *p = k ? v.order[k - 1].c : NULL;
		int new_student = !p || p->uid != q->uid;
		if (new_student || strcmp(p->exercise, q->exercise)) {
			if (ncells) v.cells[ncells - 1].end = k;
			v.cells[ncells++] = (verify_cell){ k, nc, k, 0 };
		}
		if (new_student) {
			if (nstudents) students[nstudents - 1].end = ncells - 1;
			students[nstudents++] = (verify_student){ ncells - 1, 0, ncells - 1 };
		}
	}
	if (nstudents) students[nstudents - 1].end = ncells;
	/* the turns: round the students, one source each, until nobody has anything left or time is up */
	for (int any = 1; any && !v.out_of_time && now_ms() < v.deadline;) {
		any = 0;
		for (int s = 0; s < nstudents && !v.out_of_time; s++) any |= verify_turn(&v, &students[s]);
	}
	/* the sweep: a claim whose source was judged takes its check; the others are unverified, either
	 * not needed (their exercise's pass is verified) or not judged in time */
	int count[3] = {0}, late = 0, unneeded = 0;
	for (int c = 0; c < ncells; c++)
		for (int k = v.cells[c].first; k < v.cells[c].end; k++) {
			verify_claim *q = v.order[k].q;
			int n = q->fold.n;
			if (!v.decided[k]) {
				const verify_seen *same = seen_find(v.done, v.judged, &v.order[k]);
				if (same) { q->check = same->check; q->measured = same->measured; late += same->late ? n : 0; }
				else if (v.cells[c].settled) { q->check = RESULT_UNVERIFIED; unneeded += n; }
				else { q->check = RESULT_UNVERIFIED; late += n; }
			}
			count[q->check] += n;
		}
	free(v.done);
	free(v.order);
	free(v.decided);
	free(v.cells);
	free(students);
	rmdir(tmp);
	free(tmp);
	if (late)
		fprintf(stderr, "cudaclimb: --verify: %d claimed pass%s not judged in time and marked unverified: the budget of %.0f s "
		        "(CUDACLIMB_VERIFY_BUDGET) ran out\n", late, late == 1 ? "" : "es", budget);
	if (unneeded)
		fprintf(stderr, "cudaclimb: --verify: %d claimed pass%s not judged, as not needed: another pass of the same student and "
		        "exercise is verified\n", unneeded, unneeded == 1 ? "" : "es");
	fprintf(stderr, "cudaclimb: --verify: %d claimed passes (%d sources judged again): %d verified, %d unverified, %d refuted\n", claims,
	        v.judged, count[RESULT_VERIFIED], count[RESULT_UNVERIFIED], count[RESULT_REFUTED]);
	return 0;
}

/* "'a', 'b', 'c' and 7 more" for the first names kept of count, each quoted (already cleaned). */
static void say_names(const char (*names)[72], const char (*places)[96], int count)
{
	int shown = count < RESULTS_EXAMPLES ? count : RESULTS_EXAMPLES;
	for (int i = 0; i < shown; i++) {
		fputs(i ? ", " : ": ", stderr);
		if (names) { fputc('\'', stderr); fput_clean(stderr, names[i]); fputc('\'', stderr); }
		else fput_clean(stderr, places[i]);
	}
	if (count > shown) fprintf(stderr, " and %d more", count - shown);
	fputc('\n', stderr);
}

/* One line per reason for what the report left out, with the first few names (files) or places
 * (records) of each. */
static void say_left_out(const course *co, const results_stats *st)
{
	for (int s = 0; s < RS_COUNT; s++) {
		if (!st->skipped[s]) continue;
		int n = st->skipped[s];
		fprintf(stderr, "cudaclimb: %d %s in ", n, s == RS_NOT_NAMED ? (n == 1 ? "entry" : "entries") : (n == 1 ? "file" : "files"));
		fput_clean(stderr, co->service_store ? co->service_store : co->results);   /* the folder results_read read */
		fprintf(stderr, " left out: %s", results_skip_text((results_skip)s));
		say_names((const char (*)[72])st->skipped_names[s], NULL, n);
	}
	for (int d = 0; d < RD_COUNT; d++) {
		if (!st->dropped[d]) continue;
		fprintf(stderr, "cudaclimb: %d record%s dropped: %s", st->dropped[d], st->dropped[d] == 1 ? "" : "s", results_drop_text((results_drop)d));
		say_names(NULL, (const char (*)[96])st->dropped_at[d], st->dropped[d]);
	}
}

/* ---- the report's file ---- */

/* Opens a temporary file beside path for the report (a new name, O_EXCL|O_NOFOLLOW, mode 0600, or
 * with share what the umask allows but never more open than 0644) after checking path: a symbolic
 * link there is refused, not followed and not replaced (it is someone's plan, and the instructor
 * should see it, not have it silently removed); so is anything but a regular file, a file of another
 * user, and a folder where others could swap the names (another's, or open to all without the
 * sticky bit). The temporary name goes in *tmp (free); -1 with the reason in err. */
static FILE *report_open(const char *path, int share, char **tmp, char *err, size_t errlen)
{
	struct stat st;
	*tmp = NULL;
	if (lstat(path, &st) == 0) {
		if (S_ISLNK(st.st_mode)) { strfmt(err, errlen, "%s is a symbolic link: not followed and not replaced (remove it, or write elsewhere)", path); return NULL; }
		if (!S_ISREG(st.st_mode)) { strfmt(err, errlen, "%s is not a regular file: not replaced", path); return NULL; }
		if (st.st_uid != getuid()) { strfmt(err, errlen, "%s belongs to uid %lu, not to you: not replaced", path, (unsigned long)st.st_uid); return NULL; }
	} else if (errno != ENOENT) {
		strfmt(err, errlen, "cannot write %s: %s", path, strerror(errno));
		return NULL;
	}
	const char *slash = strrchr(path, '/');
	char *dir = slash ? xasprintf("%.*s", (int)(slash == path ? 1 : slash - path), path) : xasprintf(".");
	int gone = stat(dir, &st) != 0;
	if (gone || !S_ISDIR(st.st_mode)) {
		strfmt(err, errlen, "cannot write %s: its folder %s: %s", path, dir, gone ? strerror(errno) : "not a folder");
		free(dir);
		return NULL;
	}
	if ((st.st_uid != getuid() && st.st_uid != 0) || ((st.st_mode & 0022) && !(st.st_mode & S_ISVTX))) {
		strfmt(err, errlen, "cannot write %s: its folder %s %s, who could replace the report; write it in a folder of your own", path, dir,
		       st.st_uid != getuid() && st.st_uid != 0 ? "belongs to another user" : "is open to others without the sticky bit");
		free(dir);
		return NULL;
	}
	mode_t um = umask(0);
	umask(um);
	mode_t mode = share ? (0666 & ~um & 0644) : 0600;
	const char *base = slash ? slash + 1 : path;
	int fd = -1;
	for (int k = 0; k < 16 && fd < 0; k++) {
		uint32_t rnd = 0;
		if (getrandom(&rnd, sizeof rnd, GRND_NONBLOCK) != sizeof rnd) rnd = (uint32_t)now_ms() ^ (uint32_t)getpid() << 8 ^ (uint32_t)k;
		free(*tmp);
		*tmp = xasprintf("%s/.%.64s.%08x.tmp", dir, base, rnd);
		fd = open(*tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
		if (fd < 0 && errno != EEXIST) break;
	}
	free(dir);
	FILE *f = fd >= 0 && fchmod(fd, mode) == 0 ? fdopen(fd, "w") : NULL;
	if (!f) {
		strfmt(err, errlen, "cannot write %s: %s", path, strerror(errno));
		if (fd >= 0) { close(fd); unlink(*tmp); }
		free(*tmp);
		*tmp = NULL;
	}
	return f;
}

/* Finishes report_open: the temporary file renamed over path (rename never follows a link), or
 * removed on an error. 0, or -1 with err. */
static int report_close(FILE *f, const char *path, char *tmp, char *err, size_t errlen)
{
	int bad = fflush(f) != 0 || ferror(f) || fsync(fileno(f)) != 0;
	int keep = errno;
	bad |= fclose(f) != 0;
	if (!bad && rename(tmp, path) == 0) { free(tmp); return 0; }
	strfmt(err, errlen, "cannot write %s: %s", path, strerror(bad ? keep : errno));
	unlink(tmp);
	free(tmp);
	return -1;
}

/* What report does with each record read: folded into the table at once, but a claimed pass that
 * --verify will judge again folded into claims (keeping its source) until it has been. */
typedef struct { class_table *t; int verifying; verify_claims claims; } report_fold;

static void fold_record(void *ctx, result_record *r)
{
	report_fold *f = ctx;
	if (!f->verifying || !r->passed || r->trusted) class_table_add(f->t, r);
	else claims_add(&f->claims, r);
}

int cmd_report(cli *c, engine *e)
{
	/* report DIR --csv FILE and --json FILE as --html FILE ("-": standard output) */
	const char *file = c->html;
	if (c->nargs == 3 && (c->csv || c->json)) file = c->args[2];
	else if (c->nargs != 2)
		return cli_usage_error("report takes the course folder: cudaclimb report DIR [--csv [FILE] | --json [FILE] | --html FILE] [--verify]%s", "");
	if (file && !strcmp(file, "-")) file = NULL;
	char err[1024];
	course *co = course_load(c->args[1], err, sizeof err);
	if (!co) { fput_clean(stderr, err); fputc('\n', stderr); return EXIT_LESSONS; }
	int code = EXIT_OK;
	results_stats st;
	int verifying = (c->verify || co->verify) && !co->service_store;
	/* the records are folded into the table as they are read; the claimed passes that --verify judges
	 * again are folded by source (verify_claims) until it has */
	class_table t;
	class_table_init(&t, co);
	report_fold fold = { &t, verifying, { .co = co } };
	if (results_scan(co, fold_record, &fold, &st, err, sizeof err)) {
		fputs("cudaclimb: ", stderr);
		fput_clean(stderr, err);
		fputc('\n', stderr);
		class_table_free(&t);
		claims_free(&fold.claims);
		course_free(co);
		return EXIT_FAILED;
	}
	if (co->service_store && c->verify)   /* the service judged every record in its own account */
		fputs("cudaclimb: --verify: the lab service judged every record in its store itself: nothing to judge again\n", stderr);
	if (verifying) code = verify(e, co, &fold.claims);
	claims_to_table(&fold.claims, &t);
	class_table_finish(&t);
	t.verified = verifying;
	FILE *out = stdout;
	char *tmp = NULL;
	if (file && !(out = report_open(file, co->share, &tmp, err, sizeof err))) {
		fputs("cudaclimb: ", stderr);
		fput_clean(stderr, err);
		fputc('\n', stderr);
		code = EXIT_FAILED;
	} else {
		if (c->html) class_report_html(out, &t);
		else if (c->json) class_report_json(out, &t);
		else if (c->csv) class_report_csv(out, &t);
		else class_report_text(out, &t);
		if (file && report_close(out, file, tmp, err, sizeof err)) {
			fputs("cudaclimb: ", stderr);
			fput_clean(stderr, err);
			fputc('\n', stderr);
			code = EXIT_FAILED;
		} else if (file) {
			fputs("wrote ", stdout);
			fput_clean(stdout, file);
			printf(" (%d students, %d exercises; mode %s)\n", t.nusers, co->nitems, co->share ? "as the umask allows, at most 0644" : "0600: the class is private");
		}
	}
	say_left_out(co, &st);
	class_table_free(&t);
	claims_free(&fold.claims);
	course_free(co);
	return code;
}
