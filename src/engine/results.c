/* results: see results.h. Each line is read as a JSON object through yamldoc (JSON is YAML), as the
 * replay files are; a line that is not a valid record is dropped and counted, never fatal. Every
 * file in the folder may be another student's attack: it is opened with O_NOFOLLOW|O_NONBLOCK,
 * checked with fstat before a byte is read, and read up to a cap. */
#include "results.h"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <math.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>
#include "exercise.h"
#include "json.h"
#include "sha256.h"
#include "util.h"
#include "yamldoc.h"

const char *results_check_name(result_check c)
{
	return c == RESULT_VERIFIED ? "verified" : c == RESULT_REFUTED ? "refuted" : "unverified";
}

const char *results_drop_text(results_drop d)
{
	static const char *const text[RD_COUNT] = {
		"not a record (not JSON, a line too long, or a field missing)",
		"naming another uid than the file's owner",
		"of uid 0 (root's tries are not a student's)",
		"of an exercise the course does not assign",
		"with a field out of bounds (a number not finite or out of range, a string too long, a bad source)",
		"past the cap of lines per file (a record or not)",
	};
	return (unsigned)d < RD_COUNT ? text[d] : "?";
}

const char *results_skip_text(results_skip s)
{
	static const char *const text[RS_COUNT] = {
		"not named UID-USER.jsonl (not a student's results file; not opened)",
		"not owned by the student named in it, a link, or not a regular file",
		"larger than 8 MiB (not read)",
		"unreadable",
		"past a student's cap (256 MiB of files or 640000 records, counted among the student's own files)",
	};
	return (unsigned)s < RS_COUNT ? text[s] : "?";
}

/* Whether gid is this user's own group alone: named as the user (a user private group) with no other
 * member listed. Students in the group would read each other's records (0640, the folder's group). */
static int group_is_mine(gid_t gid, char *name, size_t n)
{
	struct group *g = getgrgid(gid);
	strfmt(name, n, "%u", (unsigned)gid);
	if (g) strfmt(name, n, "%s", g->gr_name);
	return dir_group_mine(gid);
}

int results_init(const course *c, const char *group, char *err, size_t errlen)
{
	gid_t gid = getgid();
	char gname[64];
	if (!group && !c->share && !group_is_mine(gid, gname, sizeof gname)) {
		strfmt(err, errlen, "the results would be readable by your group %s, which is not yours alone: students in it could read "
		       "each other's kernels. Name the staff's group: course init --group STAFF (or --group %s to accept it)", gname, gname);
		return -1;
	}
	if (group) {   /* a name, or a number (a group without a name, as the message above may say) */
		struct group *g = getgrnam(group);
		char *end;
		unsigned long num = strtoul(group, &end, 10);
		if (g) gid = g->gr_gid;
		else if (*group >= '0' && *group <= '9' && !*end && num < 0xffffffffUL) gid = (gid_t)num;
		else { strfmt(err, errlen, "no group '%s' on this machine (getent group %s)", group, group); return -1; }
	}
	if (mkdir_p(c->results, 0755) != 0) { strfmt(err, errlen, "cannot create %s: %s", c->results, strerror(errno)); return -1; }
	/* checked, given to the group and opened up through one fd, never by name: a folder swapped for a
	 * link to another of this user's folders (the home) between the check and the chmod reaches nothing */
	int fd = open(c->results, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) != 0) {
		if (fd >= 0) close(fd);
		strfmt(err, errlen, "%s is not a folder (a symbolic link or a file is there)", c->results);
		return -1;
	}
	if (st.st_uid != geteuid()) {
		close(fd);
		strfmt(err, errlen, "%s belongs to uid %lu, not to you: make the results folder yourself, in a folder only you can write",
		       c->results, (unsigned long)st.st_uid);
		return -1;
	}
	/* setgid: new files join the staff's group; sticky: nobody removes another's file; others may add
	 * files but not list the folder (unless the course shares results) */
	mode_t mode = c->share ? 03777 : 03773;
	int rc = -1;
	if (fchown(fd, (uid_t)-1, gid) != 0) strfmt(err, errlen, "cannot give %s to group %s: %s", c->results, group ? group : "yours", strerror(errno));
	else if (fchmod(fd, mode) != 0) strfmt(err, errlen, "cannot set the modes of %s: %s", c->results, strerror(errno));
	else rc = 0;
	close(fd);
	return rc;
}

void results_owner_name(unsigned uid, char *out, size_t n)
{
	/* the last answer kept: a file's records are all its owner's, and a lookup can be slow (NSS,
	 * LDAP, a uid with no entry) while a file may hold 100 000 records */
	static unsigned last_uid;
	static char last[64];
	static int have;
	if (!have || uid != last_uid) {
		struct passwd *pw = getpwuid((uid_t)uid);
		if (pw && pw->pw_name && pw->pw_name[0]) strfmt(last, sizeof last, "%s", pw->pw_name);
		else strfmt(last, sizeof last, "uid%u", uid);
		last_uid = uid;
		have = 1;
	}
	strfmt(out, n, "%s", last);
}

/* ---- base64 (RFC 4648), for the source: any bytes, one JSON string libyaml always reads ---- */

static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

static void b64_put(FILE *f, const unsigned char *p, size_t n)
{
	for (size_t i = 0; i < n; i += 3) {
		unsigned v = (unsigned)p[i] << 16 | (i + 1 < n ? (unsigned)p[i + 1] << 8 : 0) | (i + 2 < n ? p[i + 2] : 0);
		char q[4] = { b64[v >> 18 & 63], b64[v >> 12 & 63], i + 1 < n ? b64[v >> 6 & 63] : '=', i + 2 < n ? b64[v & 63] : '=' };
		fwrite(q, 1, 4, f);
	}
}

/* s (len bytes) decoded into a new buffer (*out, *outlen); -1 when it is not base64 or decodes to
 * more than RESULTS_SOURCE_MAX bytes. */
static int b64_get(const char *s, size_t len, char **out, size_t *outlen)
{
	if (len % 4 || len / 4 * 3 > RESULTS_SOURCE_MAX + 3) return -1;
	unsigned char *o = xmalloc(len / 4 * 3 + 1);
	size_t k = 0;
	for (size_t i = 0; i < len; i += 4) {
		unsigned v = 0;
		int pad = 0;
		for (int j = 0; j < 4; j++) {
			const char *p = s[i + j] ? strchr(b64, s[i + j]) : NULL;
			if (s[i + j] == '=' && i + 4 == len && j >= 2 && (j == 3 || s[i + 3] == '=')) { pad++; v <<= 6; continue; }
			if (!p || pad) { free(o); return -1; }
			v = v << 6 | (unsigned)(p - b64);
		}
		o[k++] = (unsigned char)(v >> 16);
		if (pad < 2) o[k++] = (unsigned char)(v >> 8);
		if (pad < 1) o[k++] = (unsigned char)v;
	}
	if (k > RESULTS_SOURCE_MAX) { free(o); return -1; }
	o[k] = 0;
	*out = (char *)o;
	*outlen = k;
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
	/* never inf or nan: they are not JSON (and a reader refuses them) */
	fprintf(f, ", \"passed\": %s, \"at_lesson_size\": %s, \"ratio\": %.6g, \"bar\": %.6g, \"device\": ", r->passed ? "true" : "false",
	        r->at_lesson_size ? "true" : "false", isfinite(r->ratio) ? r->ratio : 0, isfinite(r->bar) ? r->bar : 0);
	json_string(f, r->device);
	fprintf(f, ", \"source_hash\": ");
	json_string(f, r->hash);
	if (r->source && r->source_len <= RESULTS_SOURCE_MAX) {
		char hex[65];
		sha256_hex(r->source, r->source_len, hex);
		fprintf(f, ", \"sha256\": \"%s\", \"source\": \"", hex);
		b64_put(f, (const unsigned char *)r->source, r->source_len);
		fputc('"', f);
	} else if (r->source) {
		char hex[65];
		sha256_hex(r->source, r->source_len, hex);
		fprintf(f, ", \"sha256\": \"%s\", \"source_omitted\": \"too large\"", hex);
	}
	fputc('}', f);
}

/* ---- writing ---- */

/* Whether fd is a file this user may append to: regular, theirs, one link, room for need bytes. */
static int own_file(int fd, size_t need)
{
	struct stat st;
	return fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_uid == getuid() && st.st_nlink == 1 &&
	       (uint64_t)st.st_size + need <= RESULTS_FILE_MAX;
}

/* This user's secret for the names of their results files that nobody else can guess (64 hex digits
 * and a NUL into key): $XDG_STATE_HOME/cudaclimb/results-key (~/.local/state/...), in a folder that is
 * the user's own (0700, and no folder on its way another user could swap), the file 0600, made once
 * under a random O_EXCL name and linked into place (two processes at once agree on one). 0, or -1
 * when there is no such folder (the names are then random, as a last resort). */
static int results_key(char key[65])
{
	const char *x = getenv("XDG_STATE_HOME"), *home = getenv("HOME");
	char why[600];
	if (!(x && x[0] == '/') && !(home && home[0] == '/')) return -1;
	char *dir = xdg_path("XDG_STATE_HOME", ".local/state");
	if (dir_private(dir, 0, NULL, why, sizeof why) != 0 || dir_trusted(dir, why, sizeof why) != 0) { free(dir); return -1; }
	char *path = xasprintf("%s/results-key", dir);
	int rc = -1;
	for (int attempt = 0; attempt < 3 && rc; attempt++) {
		size_t len;
		char *text = file_read_max(path, 256, FILE_NOFOLLOW, &len);
		if (text) {
			if (len >= 64) { memcpy(key, text, 64); key[64] = 0; }
			rc = len >= 64 && strspn(key, "0123456789abcdef") == 64 ? 0 : -1;
			free(text);
			break;                       /* there, good or not: never replaced */
		}
		unsigned char r[32];
		if (errno != ENOENT || getrandom(r, sizeof r, 0) != (ssize_t)sizeof r) break;
		char hex[66], *tmp = xasprintf("%s/.results-key.XXXXXX", dir);
		for (int i = 0; i < 32; i++) snprintf(hex + 2 * i, 3, "%02x", r[i]);
		hex[64] = '\n';
		int fd = mkstemp(tmp);            /* O_EXCL, 0600 */
		if (fd >= 0) {
			int ok = write(fd, hex, 65) == 65 && fsync(fd) == 0;
			close(fd);
			if (ok && link(tmp, path) == 0) { memcpy(key, hex, 64); key[64] = 0; rc = 0; }
			unlink(tmp);
		}
		free(tmp);
		if (fd < 0) break;
	}
	free(path);
	free(dir);
	return rc;
}

/* This user's file: "UID-USER.jsonl", else "UID-USER.N.jsonl" (N = 1, 2, ...), else a name nobody else
 * can guess and the user finds again, "UID-USER.kHEX.jsonl" (HEX from results_key's secret), else a
 * random suffix: the first name that is free (made with O_EXCL) or this user's own regular file with
 * room for need bytes. Nothing is followed and nothing blocks: a symlink, a folder, a FIFO or
 * another's file under a name only moves on to the next. Another user who takes every name they can
 * guess only sends the user to the secret names, where each try appends to the same file again (a
 * random name would be a new file each try, and the report reads a student's files up to a cap).
 * Opened for appending; -1 with err. */
static int open_own(const course *c, size_t need, char *err, size_t errlen)
{
	char user[64], key[65];
	results_owner_name((unsigned)getuid(), user, sizeof user);
	int mode = c->share ? 0644 : 0640, last = 0, keyed = -1;
	for (int k = 0; k < RESULTS_FILES_PER_UID; k++) {
		char *path;
		if (k < RESULTS_FILES_PER_UID - 8) {
			path = k ? xasprintf("%s/%u-%s.%d.jsonl", c->results, (unsigned)getuid(), user, k) : xasprintf("%s/%u-%s.jsonl", c->results, (unsigned)getuid(), user);
		} else if (keyed == 0 || (keyed < 0 && (keyed = results_key(key)) == 0)) {
			char in[80], hex[65];
			int n = snprintf(in, sizeof in, "%s:%d", key, k);
			sha256_hex(in, (size_t)n, hex);
			path = xasprintf("%s/%u-%s.k%.16s.jsonl", c->results, (unsigned)getuid(), user, hex);
		} else {
			uint32_t rnd = 0;
			if (getrandom(&rnd, sizeof rnd, GRND_NONBLOCK) != sizeof rnd) rnd = (uint32_t)(now_ms() * 1000) ^ (uint32_t)getpid();
			path = xasprintf("%s/%u-%s.r%08x.jsonl", c->results, (unsigned)getuid(), user, rnd);
		}
		int fl = O_WRONLY | O_APPEND | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC;
		int fd = open(path, fl | O_CREAT | O_EXCL, mode);
		if (fd < 0 && errno == EEXIST) fd = open(path, fl);   /* ours from an earlier try, or someone else's: fstat says */
		last = errno;
		free(path);
		if (fd >= 0 && own_file(fd, need)) return fd;
		if (fd >= 0) { close(fd); continue; }
		/* taken (a link, a folder, a FIFO without a reader, another's file): the next name; a folder we
		 * may not write in: no name will do */
		if (last == EACCES && access(c->results, W_OK) != 0) break;
	}
	strfmt(err, errlen, "cannot write your results in %s: %s (the instructor sets the folder up with cudaclimb course init)", c->results,
	       last ? strerror(last) : "every name of yours there is taken by someone else");
	return -1;
}

int results_append(const course *c, const result_record *r, char *err, size_t errlen)
{
	struct stat st;
	if (stat(c->results, &st) != 0 || !S_ISDIR(st.st_mode)) {
		strfmt(err, errlen, "the course's results folder %s is missing: the instructor makes it with cudaclimb course init %s", c->results, c->dir);
		return -1;
	}
	char *line = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&line, &len);
	results_write_json(m, r);
	fputc('\n', m);
	fclose(m);
	int fd = open_own(c, len, err, errlen);
	if (fd < 0) { free(line); return -1; }
	ssize_t w = write(fd, line, len);   /* one write with O_APPEND: a line is never interleaved with another's */
	int keep = errno;
	free(line);
	close(fd);
	if (w != (ssize_t)len) { strfmt(err, errlen, "writing your results in %s: %s", c->results, w < 0 ? strerror(keep) : "a short write"); return -1; }
	return 0;
}

/* ---- reading ---- */

static int known_exercise(const course *c, const char *ex)
{
	for (int i = 0; i < c->nitems; i++) {
		size_t n = strlen(c->items[i].lesson);
		if (!strncmp(ex, c->items[i].lesson, n) && ex[n] == '/' && !strcmp(ex + n + 1, c->items[i].stage)) return 1;
	}
	return 0;
}

static int known_verdict(const char *v)
{
	for (int k = 0; k < EXV_COUNT; k++) if (!strcmp(v, ex_kind_name((ex_kind)k))) return 1;
	return 0;
}

static int is_hex(const char *s, size_t n)
{
	if (strlen(s) != n) return 0;
	for (; *s; s++) if (!strchr("0123456789abcdef", *s)) return 0;
	return 1;
}

/* A string field into out (cap bytes with its NUL); -1 when longer. */
static int str_field(const char *val, char *out, size_t cap)
{
	if (strlen(val) >= cap) return -1;
	memcpy(out, val, strlen(val) + 1);
	return 0;
}

static int bool_field(const char *val, int *out)
{
	if (!strcmp(val, "true")) *out = 1;
	else if (!strcmp(val, "false")) *out = 0;
	else return -1;
	return 0;
}

static int num_field(const char *val, double lo, double hi, double *out)
{
	char *end;
	errno = 0;
	double v = strtod(val, &end);
	if (end == val || *end || errno || !isfinite(v) || v < lo || v > hi) return -1;
	*out = v;
	return 0;
}

static int fail_with(result_record *r, results_drop *why, results_drop d)
{
	free(r->source);
	r->source = NULL;
	*why = d;
	return -1;
}

int results_parse_line(const course *c, const char *line, unsigned owner, result_record *r, results_drop *why)
{
	memset(r, 0, sizeof *r);
	if (strlen(line) > RESULTS_LINE_MAX) return fail_with(r, why, RD_NOT_A_RECORD);
	/* no message: a bad line is counted. A record is one flat object of about 15 pairs: a line of
	 * thousands of values is no record, and parsing it whole cost 0.37 s a MiB (95 s of report for one
	 * student's 32 files of 8 MiB of flow lists) */
	yd y = { .file = "line", .max_nodes = RESULTS_LINE_NODES };
	if (yd_load(&y, line, strlen(line))) return fail_with(r, why, RD_NOT_A_RECORD);
	yaml_node_t *root = yd_root(&y);
	enum { F_TIME = 1, F_UID = 2, F_EX = 4, F_VERDICT = 8, F_PASSED = 16 };
	int seen = 0, bad = 0, have_uid = 0;
	unsigned long uid = 0;
	char omitted[32] = "";
	for (int i = 0; root && root->type == YAML_MAPPING_NODE && i < yd_map_len(root) && !bad; i++) {
		yaml_node_t *k, *v;
		yd_pair(&y, root, i, &k, &v);
		if (k->type != YAML_SCALAR_NODE || v->type != YAML_SCALAR_NODE) continue;
		const char *key = (const char *)k->data.scalar.value, *val = (const char *)v->data.scalar.value;
		double d;
		char *end;
		if (!strcmp(key, "time")) {
			errno = 0;
			long long t = strtoll(val, &end, 10);
			bad = end == val || *end || errno || t < 0 || t > (1LL << 40) || (seen & F_TIME);
			r->time = t;
			seen |= F_TIME;
		} else if (!strcmp(key, "uid")) {
			errno = 0;
			uid = strtoul(val, &end, 10);
			bad = end == val || *end || errno || val[0] == '-' || uid > 0xfffffffful || have_uid++;
			seen |= F_UID;
		} else if (!strcmp(key, "exercise")) {
			bad = str_field(val, r->exercise, sizeof r->exercise) || (seen & F_EX);
			seen |= F_EX;
		} else if (!strcmp(key, "verdict")) {
			bad = str_field(val, r->verdict, sizeof r->verdict) || !known_verdict(r->verdict) || (seen & F_VERDICT);
			seen |= F_VERDICT;
		} else if (!strcmp(key, "passed")) {
			bad = bool_field(val, &r->passed) || (seen & F_PASSED);
			seen |= F_PASSED;
		} else if (!strcmp(key, "at_lesson_size")) bad = bool_field(val, &r->at_lesson_size);
		else if (!strcmp(key, "ratio")) { bad = num_field(val, 0, 100, &d); r->ratio = d; }    /* a ratio to the stage's own kernel */
		else if (!strcmp(key, "bar")) { bad = num_field(val, 0, 10, &d); r->bar = d; }         /* a course's pass: is at most 10 */
		else if (!strcmp(key, "device")) bad = str_field(val, r->device, sizeof r->device);
		else if (!strcmp(key, "source_hash")) bad = str_field(val, r->hash, sizeof r->hash);
		else if (!strcmp(key, "sha256")) bad = !is_hex(val, 64) || str_field(val, r->sha256, sizeof r->sha256);
		else if (!strcmp(key, "source_omitted")) bad = str_field(val, omitted, sizeof omitted);
		else if (!strcmp(key, "source")) bad = r->source || b64_get(val, v->data.scalar.length, &r->source, &r->source_len);
		/* "user" and any other key: not believed, not needed */
	}
	yd_done(&y);
	if (bad) return fail_with(r, why, RD_BAD_FIELD);
	if ((seen & (F_TIME | F_UID | F_EX | F_VERDICT | F_PASSED)) != (F_TIME | F_UID | F_EX | F_VERDICT | F_PASSED)) return fail_with(r, why, RD_NOT_A_RECORD);
	if (uid != owner) return fail_with(r, why, RD_OTHER_UID);
	if (uid == 0) return fail_with(r, why, RD_ROOT);
	if (!known_exercise(c, r->exercise)) return fail_with(r, why, RD_UNKNOWN_EXERCISE);
	/* a pass is a "passed" verdict at the lesson's size; a source is either there or said too large */
	if ((r->passed && (strcmp(r->verdict, "passed") || !r->at_lesson_size)) || (omitted[0] && (strcmp(omitted, "too large") || r->source)) ||
	    (r->source && !r->sha256[0])) return fail_with(r, why, RD_BAD_FIELD);
	r->source_too_large = omitted[0] != 0;
	r->uid = (unsigned)uid;
	results_owner_name(r->uid, r->user, sizeof r->user);
	return 0;
}

int results_source_matches(const result_record *r)
{
	if (!r->source || !r->sha256[0]) return 0;
	char hex[65];
	sha256_hex(r->source, r->source_len, hex);
	return strcmp(hex, r->sha256) ? -1 : 1;
}

/* The uid in a results file's name, "UID-USER[.N].jsonl" (USER: no '/', no control character, N
 * digits or "r" and hex); -1 when it is not one. */
static long name_uid(const char *name)
{
	size_t len = strlen(name);
	unsigned long uid;
	int used = 0;
	if (len < 8 || len > 255 || strcmp(name + len - 6, ".jsonl") || name[0] < '0' || name[0] > '9') return -1;
	if (sscanf(name, "%lu-%n", &uid, &used) != 1 || !used || uid > 0xfffffffful || (size_t)used + 6 >= len) return -1;
	for (const unsigned char *p = (const unsigned char *)name + used; p < (const unsigned char *)name + len - 6; p++)
		if (*p < 0x20 || *p == 0x7f) return -1;
	return (long)uid;
}

/* src into dst (n bytes) without control characters (C0, DEL, C1 as UTF-8), invisible format
 * characters (bidi, zero-width: util_invisible_len) nor the marks the report's lists are made of
 * (space, ',', '\''): each a '?', cut with "..." when longer: a name another user chose, fit for a
 * terminal, that cannot pass for two names or another's file ("2001-x.jsonl line 1, 2003-y.jsonl"). */
static void clean_copy(char *dst, size_t n, const char *src)
{
	size_t k = 0;
	const unsigned char *p = (const unsigned char *)src;
	for (; *p && k + 4 < n; p++) {
		if (p[0] == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f) { dst[k++] = '?'; p++; continue; }
		int inv = util_invisible_len((const char *)p);
		if (inv) { dst[k++] = '?'; p += inv - 1; continue; }
		dst[k++] = *p < 0x20 || *p == 0x7f || *p == ' ' || *p == ',' || *p == '\'' ? '?' : (char)*p;
	}
	if (*p) {   /* cut: not inside a UTF-8 sequence */
		while (k && ((unsigned char)dst[k - 1] & 0xc0) == 0x80) k--;
		if (k && (unsigned char)dst[k - 1] >= 0xc0) k--;
		memcpy(dst + k, "...", 3);
		k += 3;
	}
	dst[k] = 0;
}

static void skip(results_stats *st, results_skip why, const char *name)
{
	if (st->skipped[why] < RESULTS_EXAMPLES) clean_copy(st->skipped_names[why][st->skipped[why]], sizeof st->skipped_names[0][0], name);
	st->skipped[why]++;
}

static void drop(results_stats *st, results_drop why, const char *name, int line)
{
	if (st->dropped[why] < RESULTS_EXAMPLES) {
		char file[72];
		clean_copy(file, sizeof file, name);
		strfmt(st->dropped_at[why][st->dropped[why]], sizeof st->dropped_at[0][0], "%s line %d", file, line);
	}
	st->dropped[why]++;
}

/* fd's contents (a regular file of at most RESULTS_FILE_MAX bytes, checked by the caller), read up to
 * that cap whatever it grows to meanwhile: a new NUL-terminated buffer. */
static char *read_capped(int fd, size_t *len)
{
	size_t cap = 64 * 1024, n = 0;
	char *buf = xmalloc(cap + 1);
	for (;;) {
		if (n == cap) {
			if (cap >= RESULTS_FILE_MAX) break;
			cap = cap * 2 > RESULTS_FILE_MAX ? RESULTS_FILE_MAX : cap * 2;
			buf = xrealloc(buf, cap + 1);
		}
		ssize_t k = read(fd, buf + n, cap - n);
		if (k < 0 && errno == EINTR) continue;
		if (k <= 0) break;
		n += (size_t)k;
	}
	buf[n] = 0;
	*len = n;
	return buf;
}

/* What is read of one student's files at most: as much as RESULTS_FILES_PER_UID full files, in as
 * many files of theirs as it takes (only the student can make files that count). */
#define RESULTS_BYTES_PER_UID ((int64_t)RESULTS_FILES_PER_UID * RESULTS_FILE_MAX)
#define RESULTS_RECORDS_PER_UID ((int64_t)RESULTS_FILES_PER_UID * RESULTS_RECORDS_MAX)
typedef struct { unsigned uid; int64_t bytes, records; } uid_count;
/* The inodes read so far that have more than one name, an open-addressed set (a student may make
 * any number of them: each is looked up in constant time). */
typedef struct { dev_t dev; ino_t ino; int used; } inode_slot;
typedef struct { inode_slot *v; size_t cap, n; } inode_set;

/* 1 when (dev, ino) was in s already; else it is added and 0. */
static int inode_seen_add(inode_set *s, dev_t dev, ino_t ino)
{
	if (2 * (s->n + 1) > s->cap) {
		inode_set g = { xcalloc(s->cap ? 2 * s->cap : 64, sizeof *g.v), s->cap ? 2 * s->cap : 64, 0 };
		for (size_t i = 0; i < s->cap; i++) if (s->v[i].used) inode_seen_add(&g, s->v[i].dev, s->v[i].ino);
		free(s->v);
		*s = g;
	}
	uint64_t h = ((uint64_t)ino * 0x9e3779b97f4a7c15ULL) ^ ((uint64_t)dev * 0xc2b2ae3d27d4eb4fULL);
	for (size_t i = (size_t)(h >> 17) & (s->cap - 1);; i = (i + 1) & (s->cap - 1)) {
		if (!s->v[i].used) { s->v[i] = (inode_slot){ dev, ino, 1 }; s->n++; return 0; }
		if (s->v[i].dev == dev && s->v[i].ino == ino) return 1;
	}
}

int results_scan(const course *c, results_visit visit, void *ctx, results_stats *st, char *err, size_t errlen)
{
	memset(st, 0, sizeof *st);
	/* A course with a lab service reads the service's store: files of the store's owner (the service),
	 * in a folder nobody else may write; their records are the service's word. */
	const char *dir = c->service_store ? c->service_store : c->results;
	int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC);
	DIR *d = dfd >= 0 ? fdopendir(dfd) : NULL;
	if (!d) {
		strfmt(err, errlen, "cannot read the %s %s: %s", c->service_store ? "lab service's store" : "results folder", dir, strerror(errno));
		if (dfd >= 0) close(dfd);
		return -1;
	}
	struct stat ds;
	if (c->service_store && (fstat(dfd, &ds) != 0 || ds.st_uid == 0 || (ds.st_mode & 0022))) {
		strfmt(err, errlen, "the lab service's store %s is %s: its records cannot be the service's word", dir,
		       ds.st_uid == 0 ? "root's (the service never runs as root)" : "writable by others");
		closedir(d);
		return -1;
	}
	/* Every entry is looked at: a flood of junk is counted by name alone (no system call each), so it
	 * cannot hide a student's file; the per-student cap counts only files the student owns, which
	 * nobody else can make. Only students' own files are kept in memory (uc: one per real owner). */
	uid_count *uc = NULL;
	int nuc = 0;
	inode_set linked = {0};   /* the files read that have more than one name */
	for (struct dirent *e; (e = readdir(d));) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
		long uid = name_uid(e->d_name);
		if (uid < 0) { skip(st, RS_NOT_NAMED, e->d_name); continue; }
		int fd = openat(dfd, e->d_name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
		struct stat fs;
		if (fd < 0) {
			skip(st, errno == ELOOP ? RS_FORGED : RS_UNREADABLE, e->d_name);
			continue;
		}
		uid_t owner = c->service_store ? ds.st_uid : (uid_t)uid;
		/* Any number of links: another user cannot write a student's file, but where the kernel lets
		 * anyone link any file (fs.protected_hardlinks=0) a link they make elsewhere must not hide it.
		 * Each file is read once, by its inode: a second name of it in the folder adds nothing. */
		if (fstat(fd, &fs) != 0 || !S_ISREG(fs.st_mode) || fs.st_uid != owner) { close(fd); skip(st, RS_FORGED, e->d_name); continue; }
		if (fs.st_nlink > 1 && inode_seen_add(&linked, fs.st_dev, fs.st_ino)) { close(fd); skip(st, RS_FORGED, e->d_name); continue; }
		if (fs.st_size > RESULTS_FILE_MAX) { close(fd); skip(st, RS_TOO_LARGE, e->d_name); continue; }
		int u = 0;
		while (u < nuc && uc[u].uid != (unsigned)uid) u++;
		if (u == nuc) { uc = xrealloc(uc, (size_t)(nuc + 1) * sizeof *uc); uc[nuc++] = (uid_count){ (unsigned)uid, 0, 0 }; }
		if (uc[u].bytes + fs.st_size > RESULTS_BYTES_PER_UID || uc[u].records >= RESULTS_RECORDS_PER_UID) {
			close(fd);
			skip(st, RS_OVER_CAP, e->d_name);
			continue;
		}
		size_t len;
		char *buf = read_capped(fd, &len);
		/* the change time after reading: every byte read was written by then */
		int64_t written_by = fstat(fd, &fs) == 0 ? (int64_t)fs.st_ctim.tv_sec + (fs.st_ctim.tv_nsec > 0) : 0;
		close(fd);
		/* every line that is not empty counts towards the caps, a record or not: 4 million lines of
		 * "x" in one 8 MiB file were 4 million parses (7 s a file, 225 s a student's 32 files) */
		int lines = 0, lineno = 0;
		for (char *p = buf, *end = buf + len; p < end;) {
			char *nl = memchr(p, '\n', (size_t)(end - p));
			if (nl) *nl = 0;
			char *line = p;
			p = nl ? nl + 1 : end;
			lineno++;
			if (!line[0]) continue;
			if (lines >= RESULTS_RECORDS_MAX) { drop(st, RD_TOO_MANY, e->d_name, lineno); continue; }
			lines++;
			result_record r;
			results_drop why;
			if (results_parse_line(c, line, (unsigned)uid, &r, &why)) { drop(st, why, e->d_name, lineno); continue; }
			r.written_by = c->service_store ? r.time : written_by;   /* the service's clock, or the file's */
			r.trusted = c->service_store != NULL;
			visit(ctx, &r);   /* folded or kept by the caller: nothing of a record stays here */
			free(r.source);
		}
		free(buf);
		uc[u].bytes += (int64_t)len;
		uc[u].records += lines;
	}
	closedir(d);
	free(uc);
	free(linked.v);
	return 0;
}

/* results_read's visitor: every record into a growing array, its source taken. */
typedef struct { result_record *v; int n, cap; } record_list;

static void collect(void *ctx, result_record *r)
{
	record_list *l = ctx;
	if (l->n == l->cap) l->v = xrealloc(l->v, (size_t)(l->cap = l->cap ? 2 * l->cap : 16) * sizeof *l->v);
	l->v[l->n++] = *r;
	r->source = NULL;
}

int results_read(const course *c, result_record **out, int *n, results_stats *st, char *err, size_t errlen)
{
	record_list l = {0};
	int rc = results_scan(c, collect, &l, st, err, errlen);
	*out = l.v;
	*n = l.n;
	return rc;
}

void results_free(result_record *r, int n)
{
	for (int i = 0; r && i < n; i++) free(r[i].source);
	free(r);
}
