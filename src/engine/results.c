/* results: see results.h. Each line is read as a JSON object through yamldoc (JSON is YAML), as the
 * replay files are; a line that does not parse is skipped, not fatal. */
#include "results.h"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "json.h"
#include "util.h"
#include "yamldoc.h"

int results_init(const course *c, const char *group, char *err, size_t errlen)
{
	gid_t gid = getgid();
	if (group) {
		struct group *g = getgrnam(group);
		if (!g) { strfmt(err, errlen, "no group '%s' on this machine (getent group %s)", group, group); return -1; }
		gid = g->gr_gid;
	}
	if (mkdir_p(c->results, 0755) != 0) { strfmt(err, errlen, "cannot create %s: %s", c->results, strerror(errno)); return -1; }
	struct stat st;
	if (lstat(c->results, &st) != 0 || !S_ISDIR(st.st_mode)) { strfmt(err, errlen, "%s is not a folder", c->results); return -1; }
	if (chown(c->results, (uid_t)-1, gid) != 0) { strfmt(err, errlen, "cannot give %s to group %s: %s", c->results, group ? group : "yours", strerror(errno)); return -1; }
	/* setgid: new files join the staff's group; sticky: nobody removes another's file; others may add
	 * files but not list the folder (unless the course shares results) */
	mode_t mode = c->share ? 03777 : 03773;
	if (chmod(c->results, mode) != 0) { strfmt(err, errlen, "cannot set the modes of %s: %s", c->results, strerror(errno)); return -1; }
	return 0;
}

void results_write_json(FILE *f, const result_record *r)
{
	fprintf(f, "{\"time\": %lld, \"user\": ", (long long)r->time);
	json_string(f, r->user);
	fprintf(f, ", \"uid\": %u, \"exercise\": ", r->uid);
	json_string(f, r->exercise);
	fprintf(f, ", \"verdict\": ");
	json_string(f, r->verdict);
	fprintf(f, ", \"passed\": %s, \"at_lesson_size\": %s, \"ratio\": %.6g, \"bar\": %.6g, \"device\": ", r->passed ? "true" : "false",
	        r->at_lesson_size ? "true" : "false", r->ratio, r->bar);
	json_string(f, r->device);
	fprintf(f, ", \"source_hash\": ");
	json_string(f, r->hash);
	fputc('}', f);
}

/* This user's file: "UID-USER.jsonl", or "UID-USER.N.jsonl" when someone else took that name first.
 * Opened for appending, made if missing; -1 with err. */
static int open_own(const course *c, char *err, size_t errlen)
{
	struct passwd *pw = getpwuid(getuid());
	char user[64];
	strfmt(user, sizeof user, "%s", pw ? pw->pw_name : "user");
	for (int k = 0; k < 16; k++) {
		char *path = k ? xasprintf("%s/%u-%s.%d.jsonl", c->results, (unsigned)getuid(), user, k)
		               : xasprintf("%s/%u-%s.jsonl", c->results, (unsigned)getuid(), user);
		int fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_CLOEXEC, c->share ? 0644 : 0640);
		int keep = errno;
		free(path);
		if (fd < 0) {
			if (keep == ELOOP) continue;   /* a symlink in our name: not ours to follow */
			strfmt(err, errlen, "cannot write your results in %s: %s (the instructor sets the folder up with cudaclimb course init)",
			       c->results, strerror(keep));
			return -1;
		}
		struct stat st;
		if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_uid == getuid()) return fd;
		close(fd);                          /* someone else's file under our name: the next name */
	}
	strfmt(err, errlen, "cannot write your results in %s: every name of yours there is taken by someone else", c->results);
	return -1;
}

int results_append(const course *c, const result_record *r, char *err, size_t errlen)
{
	struct stat st;
	if (stat(c->results, &st) != 0 || !S_ISDIR(st.st_mode)) {
		strfmt(err, errlen, "the course's results folder %s is missing: the instructor makes it with cudaclimb course init %s", c->results, c->dir);
		return -1;
	}
	int fd = open_own(c, err, errlen);
	if (fd < 0) return -1;
	char *line = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&line, &len);
	results_write_json(m, r);
	fputc('\n', m);
	fclose(m);
	ssize_t w = write(fd, line, len);   /* one write with O_APPEND: a line is never interleaved with another's */
	int keep = errno;
	free(line);
	close(fd);
	if (w != (ssize_t)len) { strfmt(err, errlen, "writing your results in %s: %s", c->results, strerror(keep)); return -1; }
	return 0;
}

/* One JSON line into r; 0, or -1 when it is not a record. */
static int parse_line(const char *line, result_record *r)
{
	yd c = { .file = "line" };   /* no message: a bad line is skipped */
	memset(r, 0, sizeof *r);
	if (yd_load(&c, line, strlen(line))) return -1;
	yaml_node_t *root = yd_root(&c);
	int fields = 0;
	for (int i = 0; root && i < yd_map_len(root); i++) {
		yaml_node_t *k, *v;
		yd_pair(&c, root, i, &k, &v);
		if (k->type != YAML_SCALAR_NODE || v->type != YAML_SCALAR_NODE) continue;
		const char *key = (const char *)k->data.scalar.value, *val = (const char *)v->data.scalar.value;
		fields++;
		if (!strcmp(key, "time")) r->time = strtoll(val, NULL, 10);
		else if (!strcmp(key, "user")) strfmt(r->user, sizeof r->user, "%s", val);
		else if (!strcmp(key, "uid")) r->uid = (unsigned)strtoul(val, NULL, 10);
		else if (!strcmp(key, "exercise")) strfmt(r->exercise, sizeof r->exercise, "%s", val);
		else if (!strcmp(key, "verdict")) strfmt(r->verdict, sizeof r->verdict, "%s", val);
		else if (!strcmp(key, "passed")) r->passed = !strcmp(val, "true");
		else if (!strcmp(key, "at_lesson_size")) r->at_lesson_size = !strcmp(val, "true");
		else if (!strcmp(key, "ratio")) r->ratio = strtod(val, NULL);
		else if (!strcmp(key, "bar")) r->bar = strtod(val, NULL);
		else if (!strcmp(key, "device")) strfmt(r->device, sizeof r->device, "%s", val);
		else if (!strcmp(key, "source_hash")) strfmt(r->hash, sizeof r->hash, "%s", val);
		else fields--;
	}
	yd_done(&c);
	return fields >= 3 && r->exercise[0] && r->user[0] ? 0 : -1;
}

int results_read(const course *c, result_record **out, int *n, int *skipped, char *err, size_t errlen)
{
	*out = NULL;
	*n = *skipped = 0;
	DIR *d = opendir(c->results);
	if (!d) { strfmt(err, errlen, "cannot read the results folder %s: %s", c->results, strerror(errno)); return -1; }
	for (struct dirent *e; (e = readdir(d));) {
		unsigned long uid;
		size_t len = strlen(e->d_name);
		char dash;
		if (len < 7 || strcmp(e->d_name + len - 6, ".jsonl") || sscanf(e->d_name, "%lu%c", &uid, &dash) != 2 || dash != '-') continue;
		char *path = xasprintf("%s/%s", c->results, e->d_name);
		int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
		free(path);
		struct stat st;
		if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_uid != (uid_t)uid) {
			if (fd >= 0) close(fd);
			(*skipped)++;
			continue;
		}
		FILE *f = fdopen(fd, "r");
		char line[4096];
		while (f && fgets(line, sizeof line, f)) {
			result_record r;
			if (parse_line(line, &r) || r.uid != (unsigned)uid) continue;   /* a record for someone else: not this file's to make */
			*out = xrealloc(*out, (size_t)(*n + 1) * sizeof **out);
			(*out)[(*n)++] = r;
		}
		if (f) fclose(f);
	}
	closedir(d);
	return 0;
}
