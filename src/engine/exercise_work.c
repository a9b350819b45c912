/* exercise_work: the learner's workspace (their files, one per exercise) and their progress file,
 * work/.progress: one line per exercise, changed one record at a time under a lock, so that two
 * sessions of one learner (two SSH panes) never lose each other's progress. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>
#include "exercise.h"
#include "util.h"

static const char *const level_names[] = { "not started", "started", "compiles", "correct", "passed" };
static const char *const level_tokens[] = { "not_started", "started", "compiles", "correct", "passed" };

const char *ex_level_name(ex_level v) { return (unsigned)v <= EX_PASSED ? level_names[v] : "?"; }

char *ex_workspace(const char *override)
{
	if (override && *override) return xstrdup(override);
	const char *env = getenv("CUDACLIMB_WORK");
	if (env && *env) return xstrdup(env);
	const char *home = getenv("HOME");
	return xasprintf("%s/cudaclimb-work", home && *home ? home : ".");
}

char *ex_file(const char *work, const lesson *l, const lesson_stage *s)
{
	return xasprintf("%s/%s/%s.cu", work, l->id, s->id);
}

/* Writes data to path only if path does not exist (O_EXCL: never over a learner's file). Returns 1
 * written, 0 exists, -1 with errno. */
static int write_new(const char *path, const char *data, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0) return errno == EEXIST ? 0 : -1;
	size_t off = 0;
	while (off < len) {
		ssize_t n = write(fd, data + off, len - off);
		if (n < 0 && errno == EINTR) continue;
		if (n <= 0) { int keep = errno; close(fd); unlink(path); errno = keep; return -1; }
		off += (size_t)n;
	}
	if (close(fd) != 0) { int keep = errno; unlink(path); errno = keep; return -1; }
	return 1;
}

/* Makes the workspace work (a link to a folder is fine: the learner named it) and its folder dir
 * (NULL: none) private: 0700, owned by the learner; a folder that was open to others is tightened
 * with a notice. 0, or -1 with err. */
static int private_dirs(const char *work, const char *dir, char *err, size_t errlen)
{
	char why[600];
	int tight = 0;
	if (dir_private(work, DIR_FOLLOW, &tight, why, sizeof why) != 0) {
		strfmt(err, errlen, "your workspace cannot be kept private: %s (choose another with --work)", why);
		return -1;
	}
	if (tight) notice("%s was open to other users: it is now private (mode 700)", work);
	if (!dir) return 0;
	if (dir_private(dir, 0, &tight, why, sizeof why) != 0) { strfmt(err, errlen, "%s", why); return -1; }
	if (tight) notice("%s was open to other users: it is now private (mode 700)", dir);
	return 0;
}

int ex_begin(const char *work, const lesson *l, const lesson_stage *s, char *err, size_t errlen)
{
	if (!s->exercise || !s->exercise->start_path) { strfmt(err, errlen, "%s/%s has no exercise", l->id, s->id); return -1; }
	char *dir = xasprintf("%s/%s", work, l->id), *path = ex_file(work, l, s);
	size_t len;
	char *text = NULL;
	int r = -1;
	if (private_dirs(work, dir, err, errlen) != 0) {}
	else if (!(text = file_read(s->exercise->start_path, &len))) strfmt(err, errlen, "cannot read the starter %s: %s", s->exercise->start_path, file_strerror(errno));
	else if ((r = write_new(path, text, len)) < 0) strfmt(err, errlen, "cannot write %s: %s", path, strerror(errno));
	free(text);
	free(dir);
	free(path);
	return r;
}

int ex_reset(const char *work, const lesson *l, const lesson_stage *s, char *kept, size_t keptlen, char *err, size_t errlen)
{
	char *path = ex_file(work, l, s);
	kept[0] = 0;
	if (file_exists(path)) {
		/* link(2) fails on an existing name, so no earlier backup is ever replaced. */
		for (int n = 1; n < 10000 && !kept[0]; n++) {
			char *bak = xasprintf("%s.%d.bak", path, n);
			if (link(path, bak) == 0) strfmt(kept, keptlen, "%s", bak);
			else if (errno != EEXIST) { strfmt(err, errlen, "cannot keep %s as %s: %s", path, bak, strerror(errno)); free(bak); free(path); return -1; }
			free(bak);
		}
		if (!kept[0] || unlink(path) != 0) { strfmt(err, errlen, "cannot move %s aside: %s", path, strerror(errno)); free(path); return -1; }
	}
	free(path);
	return ex_begin(work, l, s, err, errlen) < 0 ? -1 : 0;
}

/* ---- the progress file ---- */

typedef struct { char lesson[64], stage[64]; ex_progress p; } record;

static int parse_level(const char *s)
{
	for (int i = 0; i <= EX_PASSED; i++) if (!strcmp(s, level_tokens[i])) return i;
	return -1;
}

/* One record line into *r; 0, or -1 when it does not parse (unknown words, bad values, long ids). */
static int parse_record(char *line, record *r)
{
	memset(r, 0, sizeof *r);
	char *tok, *s2;
	if (!(tok = strtok_r(line, " ", &s2)) || strcmp(tok, "exercise")) return -1;
	char *les = strtok_r(NULL, " ", &s2), *stg = les ? strtok_r(NULL, " ", &s2) : NULL;
	if (!stg || strlen(les) >= sizeof r->lesson || strlen(stg) >= sizeof r->stage) return -1;
	strcpy(r->lesson, les);
	strcpy(r->stage, stg);
	while ((tok = strtok_r(NULL, " ", &s2))) {
		char *eq = strchr(tok, '='), *end;
		if (!eq) return -1;
		*eq++ = 0;
		int lv;
		if (!strcmp(tok, "best")) { if ((lv = parse_level(eq)) < 0) return -1; r->p.best = (ex_level)lv; }
		else if (!strcmp(tok, "last")) { if ((lv = parse_level(eq)) < 0) return -1; r->p.last = (ex_level)lv; }
		else if (!strcmp(tok, "hints")) { r->p.hints = (int)strtol(eq, &end, 10); if (*end || end == eq) return -1; }
		else if (!strcmp(tok, "ratio")) { r->p.best_ratio = strtod(eq, &end); if (*end || end == eq) return -1; }
		else if (!strcmp(tok, "when")) { r->p.when = strtoll(eq, &end, 10); if (*end || end == eq) return -1; }
		else if (!strcmp(tok, "hash")) strfmt(r->p.hash, sizeof r->p.hash, "%s", eq);
		/* another word=value: a newer version's, kept out of the way */
	}
	if (r->p.hints < 0) r->p.hints = 0;
	return 0;
}

/* The progress file's size limit: thousands of exercises fit in far less. */
#define PROGRESS_MAX ((size_t)4 << 20)

/* Reads the records of path into *out (count in *n). A missing file is empty; the lines that do not
 * parse go to *bad (one per line; NULL when none; may be NULL). Returns 0 or -1 (errno) when the
 * file cannot be read. */
static int read_records(const char *path, record **out, int *n, sb *bad)
{
	*out = NULL;
	*n = 0;
	char *text = file_read_max(path, PROGRESS_MAX, FILE_NOFOLLOW, NULL);
	if (!text) return errno == ENOENT ? 0 : -1;
	for (char *save, *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		const char *t = line + strspn(line, " \t\r");
		if (!*t || *t == '#') continue;
		char *copy = xstrdup(line);
		record r;
		if (parse_record(line, &r) != 0) {
			if (bad) { sb_add(bad, copy); sb_add(bad, "\n"); }
			free(copy);
			continue;
		}
		free(copy);
		*out = xrealloc(*out, (size_t)(*n + 1) * sizeof **out);
		(*out)[(*n)++] = r;
	}
	free(text);
	return 0;
}

static int count_lines(const sb *b)
{
	int n = 0;
	for (size_t i = 0; i < b->len; i++) n += b->s[i] == '\n';
	return n;
}

/* Keeps the lines of path that did not parse in path.bad (appended, private) before path is written
 * without them, and says so. 0, or -1 with err (then path must not be written). */
static int keep_bad(const char *path, const sb *bad, char *err, size_t errlen)
{
	if (!bad->len) return 0;
	char *aside = xasprintf("%s.bad", path);
	int fd = open(aside, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0600), r = -1;
	struct stat st;
	if (fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_uid == geteuid()) {
		size_t off = 0;
		while (off < bad->len) {
			ssize_t w = write(fd, bad->s + off, bad->len - off);
			if (w < 0 && errno == EINTR) continue;
			if (w <= 0) break;
			off += (size_t)w;
		}
		r = off == bad->len ? 0 : -1;
	} else if (fd >= 0) errno = EPERM;
	int e = errno;
	if (fd >= 0) close(fd);
	int n = count_lines(bad);
	if (r == 0) notice("%d line%s of %s could not be read and %s kept aside in %s", n, n == 1 ? "" : "s", path, n == 1 ? "was" : "were", aside);
	else strfmt(err, errlen, "%d line%s of %s could not be read, and cannot be kept aside in %s (%s): %s left as it is", n,
	            n == 1 ? "" : "s", path, aside, strerror(e), path);
	free(aside);
	return r;
}

static record *find_record(record *rs, int n, const char *lid, const char *sid)
{
	for (int i = 0; i < n; i++) if (!strcmp(rs[i].lesson, lid) && !strcmp(rs[i].stage, sid)) return &rs[i];
	return NULL;
}

int ex_progress_get(const char *work, const lesson *l, const lesson_stage *s, ex_progress *out, char *err, size_t errlen)
{
	memset(out, 0, sizeof *out);
	char *path = xasprintf("%s/.progress", work);
	record *rs;
	sb bad = {0};
	int n, r = read_records(path, &rs, &n, &bad);
	if (r) strfmt(err, errlen, "cannot read %s: %s", path, file_strerror(errno));
	else if (bad.len) {   /* said once a run; the next save keeps them aside in .progress.bad */
		static int said;
		int nb = count_lines(&bad);
		if (!said++) notice("%d line%s of %s could not be read (%s kept aside in %s.bad at the next save)", nb, nb == 1 ? "" : "s", path,
		                    nb == 1 ? "it is" : "they are", path);
	}
	sb_free(&bad);
	record *me = r ? NULL : find_record(rs, n, l->id, s->id);
	if (me) *out = me->p;
	free(rs);
	free(path);
	char *file = ex_file(work, l, s);
	if (file_exists(file)) {
		if (out->best < EX_STARTED) out->best = EX_STARTED;
		if (out->last < EX_STARTED) out->last = EX_STARTED;
	}
	free(file);
	return r;
}

int ex_progress_update(const char *work, const lesson *l, const lesson_stage *s, void (*fn)(ex_progress *p, void *ctx), void *ctx,
                       char *err, size_t errlen)
{
	if (private_dirs(work, NULL, err, errlen) != 0) return -1;
	char *path = xasprintf("%s/.progress", work), *lock = xasprintf("%s/.progress.lock", work);
	int fd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0600), r = -1;
	record *rs = NULL;
	int n = 0;
	sb bad = {0};
	if (fd < 0 || flock(fd, LOCK_EX) != 0) {
		strfmt(err, errlen, "cannot lock %s: %s", lock, strerror(errno));
	} else if (read_records(path, &rs, &n, &bad) != 0) {
		strfmt(err, errlen, "cannot read %s: %s", path, file_strerror(errno));
	} else if (keep_bad(path, &bad, err, errlen) != 0) {
		/* nothing is written: the lines that did not parse stay where they are */
	} else {
		record *me = find_record(rs, n, l->id, s->id);
		if (!me) {
			rs = xrealloc(rs, (size_t)(n + 1) * sizeof *rs);
			me = &rs[n++];
			memset(me, 0, sizeof *me);
			strfmt(me->lesson, sizeof me->lesson, "%s", l->id);
			strfmt(me->stage, sizeof me->stage, "%s", s->id);
		}
		fn(&me->p, ctx);
		sb b = {0};
		sb_add(&b, "# cudaclimb exercise progress: one line per exercise (cudaclimb exercises shows it)\n");
		for (int i = 0; i < n; i++) {
			const ex_progress *p = &rs[i].p;
			sb_addf(&b, "exercise %s %s best=%s last=%s hints=%d ratio=%.4f when=%lld%s%s\n", rs[i].lesson, rs[i].stage,
			        level_tokens[p->best], level_tokens[p->last], p->hints, p->best_ratio, (long long)p->when,
			        p->hash[0] ? " hash=" : "", p->hash);
		}
		r = file_write_atomic(path, b.s, b.len);
		if (r) strfmt(err, errlen, "cannot write %s: %s", path, strerror(errno));
		sb_free(&b);
	}
	if (fd >= 0) close(fd);   /* releases the lock */
	sb_free(&bad);
	free(rs);
	free(path);
	free(lock);
	return r;
}
