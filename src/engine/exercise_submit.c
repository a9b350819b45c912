/* exercise_submit: a learner's file sent to the course's lab service for judging (exercise.h,
 * ex_submit). Only files from the learner's own folder travel, by the names their #include lines
 * give; the service compiles with those and the lesson tree, nothing else. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "course.h"
#include "exercise.h"
#include "labwire.h"
#include "util.h"

#define JUDGE_WAIT_MS (30 * 60 * 1000)   /* a verdict waits behind the class's runs; past this, look in `exercises` later */
/* A try is sent once its runs are done, and those went through the service moments before: one that
 * does not answer now is most likely restarting (systemd's Restart=always brings it back within
 * seconds), so the try waits for it as a run waiting in its queue does (gpulease.c's RECONNECT_S). */
#define SUBMIT_CONNECT_S 60.0

typedef struct {
	char name[LABWIRE_NAME_MAX + 1];
	char *data; size_t len;
} sfile;

/* A regular file of the learner's, at most LABWIRE_FILE_MAX bytes, read without following a link or
 * blocking on a FIFO. NULL with errno. */
static char *read_bounded(const char *path, size_t *len)
{
	return file_read_max(path, LABWIRE_FILE_MAX, FILE_NOFOLLOW, len);
}

/* The names of text's #include "NAME" lines that a submission may carry, into names (new strings). */
static int quoted_includes(const char *text, char **names, int max)
{
	int n = 0;
	for (const char *p = text; p && *p && n < max; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		const char *q = p + strspn(p, " \t");
		if (*q != '#') continue;
		q += 1 + strspn(q + 1, " \t");
		if (strncmp(q, "include", 7)) continue;
		q += 7 + strspn(q + 7, " \t");
		if (*q != '"') continue;
		const char *end = strchr(q + 1, '"'), *nl = strchr(q + 1, '\n');
		if (!end || (nl && nl < end) || end - q - 1 > LABWIRE_NAME_MAX) continue;
		char *name = xstrndup(q + 1, (size_t)(end - q - 1));
		if (labwire_name_ok(name)) names[n++] = name; else free(name);
	}
	return n;
}

/* Reads dir/name into *f (a plain file of the learner's); -1 with errno. */
static int take(const char *dir, const char *name, sfile *f)
{
	char *path = xasprintf("%s/%s", dir, name);
	f->data = read_bounded(path, &f->len);
	int e = errno;
	free(path);
	strfmt(f->name, sizeof f->name, "%s", name);
	errno = e;
	return f->data ? 0 : -1;
}

/* dir/main_name and what it includes from dir (names that are not there are the lesson's headers,
 * which the judge has), into f: the count, or -1 with err. */
static int gather(const char *dir, const char *main_name, sfile *f, char *err, size_t errlen)
{
	if (take(dir, main_name, &f[0])) { strfmt(err, errlen, "cannot read %s/%s: %s", dir, main_name, file_strerror(errno)); return -1; }
	int n = 1;
	size_t total = f[0].len;
	for (int i = 0; i < n; i++) {
		char *names[LABWIRE_FILES_MAX];
		int k = quoted_includes(f[i].data, names, LABWIRE_FILES_MAX), bad = 0;
		for (int a = 0; a < k; a++) {
			int dup = 0;
			for (int b = 0; b < n && !dup; b++) dup = !strcmp(f[b].name, names[a]);
			char *path = xasprintf("%s/%s", dir, names[a]);
			struct stat st;
			int there = lstat(path, &st) == 0;
			free(path);
			if (!bad && !dup && there) {
				if (n == LABWIRE_FILES_MAX) { strfmt(err, errlen, "your file includes more than %d files of yours", LABWIRE_FILES_MAX - 1); bad = 1; }
				else if (take(dir, names[a], &f[n])) { strfmt(err, errlen, "%s, included by %s: %s", names[a], f[i].name, file_strerror(errno)); bad = 1; }
				else if ((total += f[n++].len) > LABWIRE_TOTAL_MAX) { strfmt(err, errlen, "your file and what it includes are over %d KiB in all", LABWIRE_TOTAL_MAX >> 10); bad = 1; }
			}
			free(names[a]);
		}
		if (bad) return -1;
	}
	return n;
}

int ex_submit(const course *co, const lesson *l, const lesson_stage *s, const char *file, int wait, char *said, size_t saidlen,
              char *err, size_t errlen)
{
	sfile f[LABWIRE_FILES_MAX];
	memset(f, 0, sizeof f);
	char *dir = xstrdup(file), *slash = strrchr(dir, '/');
	const char *base = slash ? slash + 1 : file;
	if (slash) *slash = 0; else strfmt(dir, strlen(dir) + 1, ".");
	char main_name[LABWIRE_NAME_MAX + 1];
	strfmt(main_name, sizeof main_name, "%s", labwire_name_ok(base) ? base : "kernel.cu");
	int rc = -1, fd = -1;
	int n = gather(dir, base, f, err, errlen);
	if (n > 0) strfmt(f[0].name, sizeof f[0].name, "%s", main_name);
	if (n > 0 && (fd = labwire_connect_wait(co->service_socket, SUBMIT_CONNECT_S, err, errlen)) >= 0) {
		char line[LABWIRE_LINE_MAX];
		strfmt(line, sizeof line, "submit %s %s/%s %d\n", co->id, l->id, s->id, n);
		int bad = labwire_send(fd, line, strlen(line), 10000);
		for (int i = 0; i < n && !bad; i++) {
			strfmt(line, sizeof line, "file %s %zu\n", f[i].name, f[i].len);
			bad = labwire_send(fd, line, strlen(line), 10000) || labwire_send(fd, f[i].data, f[i].len, 30000);
		}
		labwire_reader r = { .fd = fd };
		int k = bad ? -1 : labwire_read_line(&r, line, sizeof line, 60000);
		if (k == 1 && !strncmp(line, "queued ", 7)) {
			strfmt(said, saidlen, "sent to the course's judge (%s)", line + 7);
			rc = 0;
			char verdict[200] = "", text[LABWIRE_LINE_MAX] = "";
			while (wait && (k = labwire_read_line(&r, line, sizeof line, JUDGE_WAIT_MS)) == 1 && strcmp(line, "end")) {
				if (!strncmp(line, "verdict ", 8)) strfmt(verdict, sizeof verdict, "%s", line + 8);
				else if (!strncmp(line, "text ", 5)) strfmt(text, sizeof text, "%s", line + 5);
				else if (!strncmp(line, "error ", 6)) { strfmt(err, errlen, "the course's judge: %s", line + 6); rc = -1; }
			}
			char kind[32];
			int passed;
			double ratio, bar;
			if (verdict[0] && sscanf(verdict, "%31s %d %lf %lf", kind, &passed, &ratio, &bar) == 4)
				strfmt(said, saidlen, "the course's judge: %s%s, %.2fx (the bar %.2fx)%s%s", kind, passed ? " (counts as passed)" : "", ratio, bar,
				       text[0] ? ": " : "", text);
			else if (wait && rc == 0) strfmt(said, saidlen, "sent to the course's judge; its verdict did not come back in time: `cudaclimb exercises` shows it later");
		} else if (k == 1 && !strncmp(line, "error ", 6)) {
			strfmt(err, errlen, "the course's judge refused it: %s", line + 6);
		} else {
			strfmt(err, errlen, "the course's judge did not answer (%s)", bad ? strerror(errno) : k == 0 ? "it closed the connection" : strerror(errno));
		}
		close(fd);
	}
	for (int i = 0; i < LABWIRE_FILES_MAX; i++) free(f[i].data);
	free(dir);
	return rc;
}
