/* progress: the learner's progress file. Format, one record a line, words separated by spaces (ids
 * have none):
 *   cudaclimb-progress 1
 *   last LESSON STAGE                    (or "last - -": the lesson list)
 *   stage LESSON STAGE seen=1 compiled=1 passed=0 failed=0 best_ms=0.41 best_gbps=2900 best_gflops=480
 *   set LESSON STAGE NAME VALUE
 *   tuned GPU LESSON STAGE NAME=VALUE,NAME=VALUE   (GPU: progress_gpu_key; "-" for the values: reset) */
#include "progress.h"
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>
#include "util.h"

enum { MAX_WORDS = 16 };

static void copy(char *dst, size_t len, const char *src)
{
	strfmt(dst, len, "%s", src ? src : "");
}

/* Whether a stored name is key as copy() would store it (a key too long for the field is compared
 * as cut to it, so a long name finds its record again). */
static int same(const char *stored, size_t cap, const char *key)
{
	return !strncmp(stored, key, cap - 1);
}

int progress_path(char *buf, size_t len)
{
	const char *x = getenv("XDG_STATE_HOME"), *home = getenv("HOME");
	if (!(x && x[0] == '/') && !(home && home[0])) return -1;   /* nowhere of the learner's own */
	char *dir = xdg_path("XDG_STATE_HOME", ".local/state");
	int n = snprintf(buf, len, "%s/progress", dir);
	free(dir);
	return n > 0 && (size_t)n < len ? 0 : -1;
}

void progress_init(progress_state *p)
{
	memset(p, 0, sizeof *p);
}

void progress_free(progress_state *p)
{
	free(p->st);
	free(p->sets);
	free(p->tuned);
	progress_init(p);
}

const progress_stage *progress_get(const progress_state *p, const char *lesson_id, const char *stage_id)
{
	for (int i = 0; i < p->nst; i++)
		if (same(p->st[i].lesson, sizeof p->st[i].lesson, lesson_id) && same(p->st[i].stage, sizeof p->st[i].stage, stage_id)) return &p->st[i];
	return NULL;
}

progress_stage *progress_find(progress_state *p, const char *lesson_id, const char *stage_id, int create)
{
	const progress_stage *found = progress_get(p, lesson_id, stage_id);
	if (found || !create) return (progress_stage *)found;
	p->st = xrealloc(p->st, sizeof *p->st * (size_t)(p->nst + 1));
	progress_stage *s = &p->st[p->nst++];
	memset(s, 0, sizeof *s);
	copy(s->lesson, sizeof s->lesson, lesson_id);
	copy(s->stage, sizeof s->stage, stage_id);
	p->dirty = 1;
	return s;
}

static progress_setting *setting_find(const progress_state *p, const char *lesson_id, const char *stage_id, const char *name)
{
	for (int i = 0; i < p->nsets; i++) {
		progress_setting *t = &p->sets[i];
		if (same(t->lesson, sizeof t->lesson, lesson_id) && same(t->stage, sizeof t->stage, stage_id) && same(t->name, sizeof t->name, name)) return t;
	}
	return NULL;
}

const char *progress_setting_get(const progress_state *p, const char *lesson_id, const char *stage_id, const char *name)
{
	const progress_setting *t = setting_find(p, lesson_id, stage_id, name);
	return t ? t->value : NULL;
}

void progress_setting_set(progress_state *p, const char *lesson_id, const char *stage_id, const char *name, const char *value)
{
	progress_setting *t = setting_find(p, lesson_id, stage_id, name);
	if (!t) {
		p->sets = xrealloc(p->sets, sizeof *p->sets * (size_t)(p->nsets + 1));
		t = &p->sets[p->nsets++];
		copy(t->lesson, sizeof t->lesson, lesson_id);
		copy(t->stage, sizeof t->stage, stage_id);
		copy(t->name, sizeof t->name, name);
	} else if (same(t->value, sizeof t->value, value)) {
		return;
	}
	copy(t->value, sizeof t->value, value);
	p->dirty = 1;
}

void progress_gpu_key(const char *name, char *out, size_t len)
{
	size_t n = 0;
	for (const char *c = name ? name : ""; *c && n + 1 < len; c++)
		out[n++] = (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') || *c == '.' || *c == '-' ? *c : '_';
	if (len) out[n] = 0;
	if (!n) strfmt(out, len, "-");
}

static progress_tuned *tuned_find(const progress_state *p, const char *gpu, const char *lesson_id, const char *stage_id)
{
	char key[64];
	progress_gpu_key(gpu, key, sizeof key);
	for (int i = 0; i < p->ntuned; i++) {
		progress_tuned *t = &p->tuned[i];
		if (!strcmp(t->gpu, key) && same(t->lesson, sizeof t->lesson, lesson_id) && same(t->stage, sizeof t->stage, stage_id)) return t;
	}
	return NULL;
}

const char *progress_tuned_get(const progress_state *p, const char *gpu, const char *lesson_id, const char *stage_id)
{
	const progress_tuned *t = tuned_find(p, gpu, lesson_id, stage_id);
	return t && t->sets[0] ? t->sets : NULL;
}

void progress_tuned_set(progress_state *p, const char *gpu, const char *lesson_id, const char *stage_id, const char *sets)
{
	progress_tuned *t = tuned_find(p, gpu, lesson_id, stage_id);
	if (!sets || !strcmp(sets, "-")) sets = "";
	int fresh = !t;
	if (fresh) {
		p->tuned = xrealloc(p->tuned, sizeof *p->tuned * (size_t)(p->ntuned + 1));
		t = &p->tuned[p->ntuned++];
		memset(t, 0, sizeof *t);
		progress_gpu_key(gpu, t->gpu, sizeof t->gpu);
		copy(t->lesson, sizeof t->lesson, lesson_id);
		copy(t->stage, sizeof t->stage, stage_id);
	}
	if (!fresh && !strcmp(t->sets, sets)) return;
	copy(t->sets, sizeof t->sets, strchr(sets, ' ') ? "" : sets);   /* words have no spaces */
	p->dirty = 1;
}

void progress_set_last(progress_state *p, const char *lesson_id, const char *stage_id)
{
	if (same(p->last_lesson, sizeof p->last_lesson, lesson_id ? lesson_id : "") && same(p->last_stage, sizeof p->last_stage, stage_id ? stage_id : "")) return;
	copy(p->last_lesson, sizeof p->last_lesson, lesson_id);
	copy(p->last_stage, sizeof p->last_stage, stage_id);
	p->dirty = 1;
}

/* Splits line into at most max words in place; returns the count. */
static int words(char *line, char **w, int max)
{
	int n = 0;
	char *save = NULL;
	for (char *tok = strtok_r(line, " \t\r\n", &save); tok && n < max; tok = strtok_r(NULL, " \t\r\n", &save))
		w[n++] = tok;
	return n;
}

static void parse_stage(progress_state *p, char **w, int n)
{
	progress_stage *s = progress_find(p, w[1], w[2], 1);
	for (int i = 3; i < n; i++) {
		char *eq = strchr(w[i], '=');
		if (!eq) continue;
		*eq++ = 0;
		if (!strcmp(w[i], "seen")) s->seen = atoi(eq);
		else if (!strcmp(w[i], "compiled")) s->compiled = atoi(eq);
		else if (!strcmp(w[i], "passed")) s->passed = atoi(eq);
		else if (!strcmp(w[i], "failed")) s->failed = atoi(eq);
		else if (!strcmp(w[i], "best_ms")) s->best_ms = strtod(eq, NULL);
		else if (!strcmp(w[i], "best_gbps")) s->best_gbps = strtod(eq, NULL);
		else if (!strcmp(w[i], "best_gflops")) s->best_gflops = strtod(eq, NULL);
	}
}

void progress_parse(progress_state *p, const char *text, size_t len)
{
	for (size_t at = 0; at < len;) {
		size_t k = at;
		while (k < len && text[k] != '\n') k++;
		char *line = xstrndup(text + at, k - at), *w[MAX_WORDS];
		int n = words(line, w, MAX_WORDS);
		if (n == 3 && !strcmp(w[0], "last"))
			progress_set_last(p, strcmp(w[1], "-") ? w[1] : "", strcmp(w[2], "-") ? w[2] : "");
		else if (n >= 3 && !strcmp(w[0], "stage"))
			parse_stage(p, w, n);
		else if (n == 5 && !strcmp(w[0], "set"))
			progress_setting_set(p, w[1], w[2], w[3], w[4]);
		else if (n == 5 && !strcmp(w[0], "tuned"))
			progress_tuned_set(p, w[1], w[2], w[3], w[4]);
		free(line);
		at = k + 1;
	}
}

/* 0 when path's folder is missing or no user but root and this one could swap it or a folder above
 * it; -1 with err otherwise. With XDG_STATE_HOME in another user's folder, they could put a file of
 * their making in its place (tuned settings the next run starts from) or hold its lock forever. */
static int folder_trusted(const char *path, char *err, size_t errlen)
{
	char *dir = xstrdup(path), *slash = strrchr(dir, '/'), why[512];
	int rc = 0;
	if (slash && slash != dir) {
		*slash = 0;
		if (dir_exists(dir) && dir_trusted(dir, why, sizeof why) != 0) {
			strfmt(err, errlen, "%s: not used: %s", path, why);
			rc = -1;
		}
	}
	free(dir);
	return rc;
}

int progress_load(progress_state *p, const char *path, char *err, size_t errlen)
{
	if (folder_trusted(path, err, errlen) != 0) return -1;
	size_t len;
	char *text = file_read_max(path, (size_t)4 << 20, FILE_NOFOLLOW, &len);   /* far more than any learner's */
	if (!text) {
		if (errno == ENOENT) return 0;
		strfmt(err, errlen, "%s: %s", path, file_strerror(errno));
		return -1;
	}
	progress_parse(p, text, len);
	free(text);
	p->dirty = 0;
	return 0;
}

static int max_i(int a, int b) { return a > b ? a : b; }

void progress_merge(progress_state *p, const progress_state *other)
{
	int dirty = p->dirty;
	for (int i = 0; i < other->nst; i++) {
		const progress_stage *o = &other->st[i];
		progress_stage *s = progress_find(p, o->lesson, o->stage, 1);
		s->seen = max_i(s->seen, o->seen);
		s->compiled = max_i(s->compiled, o->compiled);
		s->passed = max_i(s->passed, o->passed);
		s->failed = max_i(s->failed, o->failed);
		if (o->best_ms > 0 && (s->best_ms <= 0 || o->best_ms < s->best_ms)) s->best_ms = o->best_ms;
		if (o->best_gbps > s->best_gbps) s->best_gbps = o->best_gbps;
		if (o->best_gflops > s->best_gflops) s->best_gflops = o->best_gflops;
	}
	for (int i = 0; i < other->nsets; i++) {
		const progress_setting *t = &other->sets[i];
		if (!progress_setting_get(p, t->lesson, t->stage, t->name))
			progress_setting_set(p, t->lesson, t->stage, t->name, t->value);
	}
	for (int i = 0; i < other->ntuned; i++) {
		const progress_tuned *t = &other->tuned[i];
		if (!tuned_find(p, t->gpu, t->lesson, t->stage)) progress_tuned_set(p, t->gpu, t->lesson, t->stage, t->sets);
	}
	p->dirty = dirty;   /* what came from the file is not a change of this session's */
}

char *progress_format(const progress_state *p)
{
	sb b = {0};
	sb_addf(&b, "cudaclimb-progress 1\nlast %s %s\n", p->last_lesson[0] ? p->last_lesson : "-",
	        p->last_stage[0] ? p->last_stage : "-");
	for (int i = 0; i < p->nst; i++) {
		const progress_stage *s = &p->st[i];
		sb_addf(&b, "stage %s %s seen=%d compiled=%d passed=%d failed=%d best_ms=%.6g best_gbps=%.6g "
		        "best_gflops=%.6g\n", s->lesson, s->stage, s->seen, s->compiled, s->passed, s->failed,
		        s->best_ms, s->best_gbps, s->best_gflops);
	}
	for (int i = 0; i < p->nsets; i++)
		sb_addf(&b, "set %s %s %s %s\n", p->sets[i].lesson, p->sets[i].stage, p->sets[i].name, p->sets[i].value);
	for (int i = 0; i < p->ntuned; i++)
		sb_addf(&b, "tuned %s %s %s %s\n", p->tuned[i].gpu, p->tuned[i].lesson, p->tuned[i].stage, p->tuned[i].sets[0] ? p->tuned[i].sets : "-");
	return sb_take(&b);
}

/* Merges what is on disk into p and writes p; the caller holds the lock. */
static int merge_and_write(progress_state *p, const char *path, char *err, size_t errlen)
{
	progress_state disk;
	progress_init(&disk);
	int rc = progress_load(&disk, path, err, errlen);   /* what another session wrote meanwhile */
	if (rc == 0) {
		progress_merge(p, &disk);
		char *text = progress_format(p);
		rc = file_write_atomic_mode(path, text, strlen(text), 0600);
		if (rc < 0) strfmt(err, errlen, "%s: %s", path, strerror(errno));
		else p->dirty = 0;
		free(text);
	}
	progress_free(&disk);
	return rc;
}

int progress_save(progress_state *p, const char *path, char *err, size_t errlen)
{
	char *dir = xstrdup(path), *slash = strrchr(dir, '/');
	if (slash && slash != dir) *slash = 0;
	int made = !slash || slash == dir || mkdir_p(dir, 0700) == 0;
	free(dir);
	if (!made) {
		strfmt(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	if (folder_trusted(path, err, errlen) != 0) return -1;
	char *lock = xasprintf("%s.lock", path);
	int lfd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0600);
	if (lfd < 0) {
		strfmt(err, errlen, "%s: %s", lock, strerror(errno));
		free(lock);
		return -1;
	}
	while (flock(lfd, LOCK_EX) < 0) {
		if (errno != EINTR) {
			strfmt(err, errlen, "%s: %s", lock, strerror(errno));
			close(lfd);
			free(lock);
			return -1;
		}
	}
	int rc = merge_and_write(p, path, err, errlen);
	close(lfd);                                          /* releases the lock */
	free(lock);
	return rc;
}

void progress_record(progress_state *p, const char *lesson_id, const char *stage_id, const run_result *r)
{
	progress_stage *s = progress_find(p, lesson_id, stage_id, 1);
	int timed = (r->status == RUN_OK || r->status == RUN_WRONG) && r->ms_median > 0;
	s->seen = 1;
	if (r->status != RUN_COMPILE_ERROR && r->status != RUN_REFUSED && r->status != RUN_UNSUPPORTED &&
	    r->status != RUN_NO_GPU && r->status != RUN_RUNNER_ERROR)
		s->compiled = 1;
	if (r->status == RUN_OK && timed) {
		s->passed = 1;
		s->failed = 0;
		if (s->best_ms <= 0 || r->ms_median < s->best_ms) s->best_ms = r->ms_median;
		if (r->gbps > s->best_gbps) s->best_gbps = r->gbps;
		if (r->gflops > s->best_gflops) s->best_gflops = r->gflops;
	} else if (r->status == RUN_WRONG || r->status == RUN_FAULT || r->status == RUN_HANG || r->status == RUN_CRASH) {
		s->failed = 1;
	}
	p->dirty = 1;
}

double progress_best(const progress_stage *s, score_metric m)
{
	return !s ? 0 : m == SCORE_GFLOPS ? s->best_gflops : s->best_gbps;
}
