/* The progress file. Format, one record a line, words separated by spaces (ids have none):
 *   cudaclimb-progress 1
 *   last LESSON STAGE                    (or "last - -": the lesson list)
 *   stage LESSON STAGE seen=1 compiled=1 passed=0 failed=0 best_ms=0.41 best_gbps=2900 best_gflops=480
 *   set LESSON STAGE NAME VALUE */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>
#include "tui_state.h"

static void copy(char *dst, size_t len, const char *src)
{
	snprintf(dst, len, "%s", src ? src : "");
}

int tui_state_path(char *buf, size_t len)
{
	const char *x = getenv("XDG_STATE_HOME"), *home = getenv("HOME");
	int n;
	if (x && x[0] == '/')
		n = snprintf(buf, len, "%s/cudaclimb/progress", x);
	else if (home && home[0])
		n = snprintf(buf, len, "%s/.local/state/cudaclimb/progress", home);
	else
		return -1;
	return n > 0 && (size_t)n < len ? 0 : -1;
}

void tui_state_init(tui_state *s)
{
	memset(s, 0, sizeof *s);
}

void tui_state_free(tui_state *s)
{
	free(s->st);
	free(s->sets);
	tui_state_init(s);
}

tui_progress *tui_state_stage(tui_state *s, const char *lesson, const char *stage, int create)
{
	for (int i = 0; i < s->nst; i++)
		if (!strcmp(s->st[i].lesson, lesson) && !strcmp(s->st[i].stage, stage))
			return &s->st[i];
	if (!create)
		return NULL;
	tui_progress *n = realloc(s->st, sizeof *n * (size_t)(s->nst + 1));
	if (!n)
		return NULL;
	s->st = n;
	tui_progress *p = &s->st[s->nst++];
	memset(p, 0, sizeof *p);
	copy(p->lesson, sizeof p->lesson, lesson);
	copy(p->stage, sizeof p->stage, stage);
	s->dirty = 1;
	return p;
}

const char *tui_state_get_setting(const tui_state *s, const char *lesson, const char *stage,
                                  const char *name)
{
	for (int i = 0; i < s->nsets; i++) {
		const tui_saved_setting *t = &s->sets[i];
		if (!strcmp(t->lesson, lesson) && !strcmp(t->stage, stage) && !strcmp(t->name, name))
			return t->value;
	}
	return NULL;
}

void tui_state_set_setting(tui_state *s, const char *lesson, const char *stage, const char *name,
                           const char *value)
{
	tui_saved_setting *t = NULL;
	for (int i = 0; i < s->nsets && !t; i++)
		if (!strcmp(s->sets[i].lesson, lesson) && !strcmp(s->sets[i].stage, stage) &&
		    !strcmp(s->sets[i].name, name))
			t = &s->sets[i];
	if (!t) {
		tui_saved_setting *n = realloc(s->sets, sizeof *n * (size_t)(s->nsets + 1));
		if (!n)
			return;
		s->sets = n;
		t = &s->sets[s->nsets++];
		copy(t->lesson, sizeof t->lesson, lesson);
		copy(t->stage, sizeof t->stage, stage);
		copy(t->name, sizeof t->name, name);
	} else if (!strcmp(t->value, value)) {
		return;
	}
	copy(t->value, sizeof t->value, value);
	s->dirty = 1;
}

void tui_state_set_last(tui_state *s, const char *lesson, const char *stage)
{
	if (!strcmp(s->last_lesson, lesson ? lesson : "") && !strcmp(s->last_stage, stage ? stage : ""))
		return;
	copy(s->last_lesson, sizeof s->last_lesson, lesson);
	copy(s->last_stage, sizeof s->last_stage, stage);
	s->dirty = 1;
}

/* Splits line into at most max words in place; returns the count. */
static int words(char *line, char **w, int max)
{
	int n = 0;
	for (char *tok = strtok(line, " \t\r\n"); tok && n < max; tok = strtok(NULL, " \t\r\n"))
		w[n++] = tok;
	return n;
}

static void parse_stage(tui_state *s, char **w, int n)
{
	tui_progress *p = tui_state_stage(s, w[1], w[2], 1);
	if (!p)
		return;
	for (int i = 3; i < n; i++) {
		char *eq = strchr(w[i], '=');
		if (!eq) continue;
		*eq++ = 0;
		if (!strcmp(w[i], "seen")) p->seen = atoi(eq);
		else if (!strcmp(w[i], "compiled")) p->compiled = atoi(eq);
		else if (!strcmp(w[i], "passed")) p->passed = atoi(eq);
		else if (!strcmp(w[i], "failed")) p->failed = atoi(eq);
		else if (!strcmp(w[i], "best_ms")) p->best_ms = strtod(eq, NULL);
		else if (!strcmp(w[i], "best_gbps")) p->best_gbps = strtod(eq, NULL);
		else if (!strcmp(w[i], "best_gflops")) p->best_gflops = strtod(eq, NULL);
	}
}

int tui_state_load(tui_state *s, const char *path, char *err, size_t errlen)
{
	FILE *f = fopen(path, "r");
	if (!f) {
		if (errno == ENOENT)
			return 0;
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	char line[1024], *w[16];
	while (fgets(line, sizeof line, f)) {
		int n = words(line, w, 16);
		if (n == 3 && !strcmp(w[0], "last"))
			tui_state_set_last(s, strcmp(w[1], "-") ? w[1] : "", strcmp(w[2], "-") ? w[2] : "");
		else if (n >= 3 && !strcmp(w[0], "stage"))
			parse_stage(s, w, n);
		else if (n == 5 && !strcmp(w[0], "set"))
			tui_state_set_setting(s, w[1], w[2], w[3], w[4]);
	}
	fclose(f);
	s->dirty = 0;
	return 0;
}

/* mkdir -p of path's folder. */
static int make_parents(const char *path)
{
	char dir[4096];
	copy(dir, sizeof dir, path);
	for (char *p = dir + 1; *p; p++) {
		if (*p != '/') continue;
		*p = 0;
		if (mkdir(dir, 0700) < 0 && errno != EEXIST)
			return -1;
		*p = '/';
	}
	return 0;
}

static int max_i(int a, int b) { return a > b ? a : b; }

void tui_state_merge(tui_state *s, const tui_state *other)
{
	int dirty = s->dirty;
	for (int i = 0; i < other->nst; i++) {
		const tui_progress *o = &other->st[i];
		tui_progress *p = tui_state_stage(s, o->lesson, o->stage, 1);
		if (!p)
			continue;
		p->seen = max_i(p->seen, o->seen);
		p->compiled = max_i(p->compiled, o->compiled);
		p->passed = max_i(p->passed, o->passed);
		p->failed = max_i(p->failed, o->failed);
		if (o->best_ms > 0 && (p->best_ms <= 0 || o->best_ms < p->best_ms)) p->best_ms = o->best_ms;
		if (o->best_gbps > p->best_gbps) p->best_gbps = o->best_gbps;
		if (o->best_gflops > p->best_gflops) p->best_gflops = o->best_gflops;
	}
	for (int i = 0; i < other->nsets; i++) {
		const tui_saved_setting *t = &other->sets[i];
		if (!tui_state_get_setting(s, t->lesson, t->stage, t->name))
			tui_state_set_setting(s, t->lesson, t->stage, t->name, t->value);
	}
	s->dirty = dirty;   /* what came from the file is not a change of this session's */
}

/* Writes s to path through a temporary file; the caller holds the lock. */
static int write_file(tui_state *s, const char *path, char *err, size_t errlen)
{
	char tmp[4200];
	snprintf(tmp, sizeof tmp, "%s.tmp.%ld", path, (long)getpid());
	int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
	if (!f) {
		snprintf(err, errlen, "%s: %s", tmp, strerror(errno));
		if (fd >= 0) close(fd);
		return -1;
	}
	fprintf(f, "cudaclimb-progress 1\nlast %s %s\n", s->last_lesson[0] ? s->last_lesson : "-",
	        s->last_stage[0] ? s->last_stage : "-");
	for (int i = 0; i < s->nst; i++) {
		const tui_progress *p = &s->st[i];
		fprintf(f, "stage %s %s seen=%d compiled=%d passed=%d failed=%d best_ms=%.6g best_gbps=%.6g "
		        "best_gflops=%.6g\n", p->lesson, p->stage, p->seen, p->compiled, p->passed, p->failed,
		        p->best_ms, p->best_gbps, p->best_gflops);
	}
	for (int i = 0; i < s->nsets; i++)
		fprintf(f, "set %s %s %s %s\n", s->sets[i].lesson, s->sets[i].stage, s->sets[i].name,
		        s->sets[i].value);
	int bad = fflush(f) != 0 || fsync(fileno(f)) != 0;
	bad |= fclose(f) != 0;
	if (bad || rename(tmp, path) < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		unlink(tmp);
		return -1;
	}
	s->dirty = 0;
	return 0;
}

int tui_state_save(tui_state *s, const char *path, char *err, size_t errlen)
{
	char lock[4200];
	snprintf(lock, sizeof lock, "%s.lock", path);
	if (make_parents(path) < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	int lfd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	if (lfd < 0) {
		snprintf(err, errlen, "%s: %s", lock, strerror(errno));
		return -1;
	}
	while (flock(lfd, LOCK_EX) < 0) {
		if (errno != EINTR) {
			snprintf(err, errlen, "%s: %s", lock, strerror(errno));
			close(lfd);
			return -1;
		}
	}
	tui_state disk;
	tui_state_init(&disk);
	int rc = tui_state_load(&disk, path, err, errlen);   /* what another session wrote meanwhile */
	if (rc == 0) {
		tui_state_merge(s, &disk);
		rc = write_file(s, path, err, errlen);
	}
	tui_state_free(&disk);
	close(lfd);                                          /* releases the lock */
	return rc;
}
